#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The commit gate in one process (bench gate --baseline-module, harness/suite/suite_module.h): two builds'
# suite modules loaded side by side, every impl X of both as X~base against X, interleaved in one run.
# Deterministic: the synthetic suite with --seed (no clock), so every verdict below is fixed. The
# unchanged build is this build's own module; the regressed build is a test module whose impls do
# 1.25 times the work; a module of a foreign ABI must be refused.
BENCH=$1
MOD=$2
SLOW=$3
FOREIGN=$4
SRC=$5
V1=$6
SHORT=$7
source "$(dirname "$0")/../lib.sh"

TH=$T/thresholds
printf 'commit synthetic * 10%%\nclaim synthetic * 10%%\n' >"$TH"
G=(--suite synthetic --quick --quiet --thresholds "$TH" --seed 3)
DB=$T/m.db

# ---- refusals: exit 2, the option or the module at fault, nothing stored ----
expect 2 "--candidate-module goes with --baseline-module" "$BENCH" gate "${G[@]}" --candidate-module "$MOD" --db "$DB"
expect 2 "takes no --baseline-runs" "$BENCH" gate "${G[@]}" --baseline-module "$MOD" --measure valgrind --db "$DB"
expect 2 "takes no --baseline-runs" "$BENCH" gate "${G[@]}" --baseline-module "$MOD" --candidate new --db "$DB"
expect 2 "suite ABI version 0 differs from this bench's" "$BENCH" gate "${G[@]}" --baseline-module "$FOREIGN" --db "$DB"
# ci/perf-gate falls back to separate processes on exactly these words
expect 2 "cannot be run in this process" "$BENCH" gate "${G[@]}" --baseline-module "$FOREIGN" --db "$DB"
expect 2 "an older layout (pb_suite_module_v1" "$BENCH" gate "${G[@]}" --baseline-module "$V1" --db "$DB"
expect 2 "cannot be run in this process" "$BENCH" gate "${G[@]}" --baseline-module "$V1" --db "$DB"
expect 2 "$T/none.so: No such file or directory" "$BENCH" gate "${G[@]}" --baseline-module "$T/none.so" --db "$DB"
printf 'not an ELF file\n' >"$T/text.so"
expect 2 "suite module $T/text.so: cannot load" "$BENCH" gate "${G[@]}" --baseline-module "$T/text.so" --db "$DB"
expect 2 "the candidate build ($SLOW) has no suite xts" "$BENCH" gate --suite xts --quick --quiet --thresholds "$TH" \
    --baseline-module "$MOD" --candidate-module "$SLOW" --db "$DB"
expect 2 "impl nope is not in both builds" "$BENCH" gate "${G[@]}" --baseline-module "$MOD" --impl nope --db "$DB"
is "nothing stored by the refusals" "$(q "$DB" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" "0"
# no copy of a module is left behind in TMPDIR
mkdir "$T/tmp"
TMPDIR=$T/tmp "$BENCH" gate "${G[@]}" --baseline-module "$MOD" --candidate-module "$MOD" --db "$T/tmpcheck.db" >/dev/null 2>&1
is "private copies unlinked" "$(ls -A "$T/tmp")" ""

# ---- a build of the same suite ABI version whose pb_suite ends before its last optional hook (a
# build from before that hook was appended) shares the process: the hook reads as NULL ----
expect 0 "verdict: pass" "$BENCH" gate "${G[@]}" --baseline-module "$SHORT" --candidate-module "$MOD" --db "$T/short.db"

# ---- one build against itself (two copies of one module): every cell passes ----
expect 0 "verdict: pass" "$BENCH" gate "${G[@]}" --baseline-module "$MOD" --candidate-module "$MOD" --db "$DB"
is "gate, pairing, exit" "$(q "$DB" "SELECT gate || ' ' || pairing || ' ' || exit_status FROM comparisons")" "commit round 0"
is "one pair per impl: X~base against X" \
   "$(q "$DB" "SELECT group_concat(x) FROM (SELECT DISTINCT baseline || '>' || candidate AS x FROM comparison_cells ORDER BY x)")" "new~base>new,old~base>old"
is "every cell of both impls" "$(q "$DB" "SELECT count(*) FROM comparison_cells")" \
   "$(( 2 * $("$BENCH" gate --suite synthetic --quick --quiet --thresholds "$TH" --seed 3 --db "$T/claim.db" >/dev/null 2>&1; q "$T/claim.db" "SELECT count(*) FROM comparison_cells") ))"
is "the run says what ran" "$(q "$DB" "SELECT options LIKE '%gate=commit baseline-build=%candidate-build=%' FROM runs WHERE id = 1")" "1"
is "the note names both builds" "$(q "$DB" "SELECT note LIKE '%baseline build % candidate build %in one process%' FROM comparisons")" "1"

# ---- a regressed build (every impl 1.25 x the work) is caught in every cell; the other way round passes ----
expect 1 "verdict: regression" "$BENCH" gate "${G[@]}" --baseline-module "$MOD" --candidate-module "$SLOW" --db "$DB"
is "every cell regressed" "$(q "$DB" "SELECT group_concat(DISTINCT verdict) FROM comparison_cells WHERE comparison_id = 2")" "regression"
is "ratio 1.25" "$(q "$DB" "SELECT printf('%.2f', min(ratio)) || ' ' || printf('%.2f', max(ratio)) FROM comparison_cells WHERE comparison_id = 2")" "1.25 1.25"
expect 0 "verdict: pass" "$BENCH" gate "${G[@]}" --baseline-module "$SLOW" --candidate-module "$MOD" --db "$DB"
is "faster candidate" "$(q "$DB" "SELECT printf('%.2f', max(ratio)) FROM comparison_cells WHERE comparison_id = 3")" "0.80"

# ---- suite options are set on both builds alike: --shift scales new in both, so new~base/new stays 1 ----
expect 0 "verdict: pass" "$BENCH" gate "${G[@]}" --shift 1.5 --baseline-module "$MOD" --candidate-module "$MOD" --db "$DB"
is "shift applied to both sides" "$(q "$DB" "SELECT printf('%.2f', max(ratio)) FROM comparison_cells WHERE comparison_id = 4")" "1.00"
# --impl: one pair only
expect 1 "verdict: regression" "$BENCH" gate "${G[@]}" --impl new --baseline-module "$MOD" --candidate-module "$SLOW" --db "$DB"
is "--impl new: only new" "$(q "$DB" "SELECT group_concat(DISTINCT candidate) FROM comparison_cells WHERE comparison_id = 5")" "new"
# ---- a regression stands only when a second run, its modules loaded anew (next layout seed), finds it
# too (docs/gate.md, "Confirmation"); both runs are stored with the comparison; --no-confirm skips it ----
is "each regression confirmed" "$(q "$DB" "SELECT group_concat(DISTINCT note) FROM comparison_cells WHERE comparison_id = 2")" \
   "confirmed by a second run: 1.250 [1.250, 1.250]"
is "the note counts them" "$(q "$DB" "SELECT note LIKE '%4 regressions in the first run, 4 confirmed by a second (run % layout seed 2, %' FROM comparisons WHERE id = 2")" "1"
is "two runs stored" "$(q "$DB" "SELECT count(*) FROM comparison_runs WHERE comparison_id = 2")" "2"
is "the second run says what it was" "$(q "$DB" "SELECT count(*) FROM runs WHERE options LIKE '%gate=commit baseline-build=% confirmation=1%'")" "2"
is "a gate that passes runs no second run" "$(q "$DB" "SELECT count(*) FROM comparison_runs WHERE comparison_id IN (3, 4)")" "2"
expect 1 "verdict: regression" "$BENCH" gate "${G[@]}" --no-confirm --impl new --baseline-module "$MOD" --candidate-module "$SLOW" --db "$DB"
is "--no-confirm: one run, no confirmation" \
   "$(q "$DB" "SELECT count(*) || ' ' || (SELECT count(*) FROM comparison_cells WHERE comparison_id = 6 AND note <> '') FROM comparison_runs WHERE comparison_id = 6")" "1 0"

# ---- A/A calibration in one process: stored per impl with pairing 'builds', shown beside later gates ----
expect 0 "A/A gates: 2" "$BENCH" gate "${G[@]}" --calibrate --repeat 2 --baseline-module "$MOD" --candidate-module "$MOD" --db "$DB"
is "calibrations per impl" "$(q "$DB" "SELECT group_concat(x) FROM (SELECT DISTINCT pairing || ':' || impl AS x FROM calibrations ORDER BY x)")" "round:new,round:old"
is "aa comparisons" "$(q "$DB" "SELECT count(*) FROM comparisons WHERE gate = 'aa'")" "2"
expect 0 "verdict: pass" "$BENCH" gate "${G[@]}" --baseline-module "$MOD" --candidate-module "$MOD" --db "$DB"
is "calibrated MDC shown beside the next gate" \
   "$(q "$DB" "SELECT count(*) FROM comparison_cells WHERE comparison_id = (SELECT max(id) FROM comparisons) AND calibrated_mdc IS NOT NULL")" \
   "$(q "$DB" "SELECT count(*) FROM comparison_cells WHERE comparison_id = (SELECT max(id) FROM comparisons)")"

# ---- a calibration is made once, by the candidate build, and used by both (suite.h calibrated_options) ----
# xts calibrates its modelled child-call cost at plan time; two calibrations a moment apart differ by
# several ns per call, so the baseline build gets the candidate's as --child-call-spins. Live timing:
# the procedure is checked (what each side ran with), never the verdict.
XDB=$T/x.db
"$BENCH" gate --suite xts --keys 256 --sizes 64 --impl new --quick --quiet --reruns 0 --thresholds "$SRC/ci/thresholds" \
    --baseline-module "$MOD" --candidate-module "$MOD" --db "$XDB" >"$T/x.out" 2>&1
rc=$?
[[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] && ok || bad "xts gate in one process exited $rc: $(cat "$T/x.out")"
settings=$(q "$XDB" "SELECT suite_settings FROM runs")
cand_spins=$(sed -n 's/.*candidate build: .*= \([0-9]*\) spins per \([0-9]*\) child call.*/\1\/\2/p' <<<"$settings")
base_spins=$(sed -n 's/^baseline build: child_call_cost=\([0-9]*\) spins per \([0-9]*\) child call(s) (--child-call-spins, not calibrated).*/\1\/\2/p' <<<"$settings")
is "the baseline build pays the candidate's calibrated busy-wait" "${base_spins:-none}" "${cand_spins:-missing}"
is "the note says so" "$(q "$XDB" "SELECT note LIKE '%the candidate''s calibration, used by both (last pass): --child-call-spins=$cand_spins;%' FROM comparisons")" "1"
expect 2 "--child-call-spins: 'x' is not SPINS[/EVERY]" "$BENCH" run --suite xts --child-call-spins x --db "$T/n.db"
expect 2 "--child-call-spins: '5/0' is not SPINS[/EVERY]" "$BENCH" run --suite xts --child-call-spins 5/0 --db "$T/n.db"
expect 2 "--child-call-spins: '-1' is not SPINS[/EVERY]" "$BENCH" run --suite xts --child-call-spins -1 --db "$T/n.db"

# ---- the same seed gives the same verdicts and ratios (no clock anywhere) ----
a=$("$BENCH" gate "${G[@]}" --format json --baseline-module "$MOD" --candidate-module "$SLOW" --db "$T/r1.db" 2>/dev/null | grep -o '"ratio": *[0-9.e+-]*' | tr '\n' ' ')
b=$("$BENCH" gate "${G[@]}" --format json --baseline-module "$MOD" --candidate-module "$SLOW" --db "$T/r2.db" 2>/dev/null | grep -o '"ratio": *[0-9.e+-]*' | tr '\n' ' ')
is "repeatable" "$a" "$b"
[[ -n $a ]] && ok || bad "no ratios in the JSON output"

finish
