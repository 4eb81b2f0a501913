#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench gate and bench compare for real: exit codes, refusals, what the store keeps, the ci/ scripts.
# Every verdict and exit status asserted here comes from fixed data: the synthetic suite with --seed
# (no clock: samples drawn from a seeded generator whose true ratio is --shift, with this VM's noise
# shape), or stored samples rewritten with known values. Live timings (xts, drbg, ci/perf-gate) only
# check that the procedure runs and stores its rows, never which verdict it reached: a busy machine
# cannot fail this test.
BENCH=$1
SRC=$2
source "$(dirname "$0")/../lib.sh"

TH=$T/thresholds
cat >"$TH" <<'EOF'
claim   synthetic  *  15%
commit  synthetic  *  15%
claim   xts        *  10%
claim   drbg       *  10%
EOF
G=(--quick --quiet --thresholds "$TH")
SEED=(--seed 1)

# ---- bad input: a clear message and exit 2 ----
expect 2 "--suite is required" "$BENCH" gate
expect 2 "unknown suite 'nope'" "$BENCH" gate --suite nope
expect 2 "unknown impl 'zzz' for suite synthetic" "$BENCH" gate --suite synthetic --candidate zzz "${G[@]}" --db "$T/e.db"
expect 2 "both 'old': for A/A use --calibrate" "$BENCH" gate --suite synthetic --candidate old "${G[@]}" --db "$T/e.db"
expect 2 "--baseline-runs and --candidate-runs go together" "$BENCH" gate --baseline-runs 1
expect 2 "unknown option '--frob' for suite synthetic" "$BENCH" gate --suite synthetic --frob
expect 2 "--shift wants a factor" "$BENCH" gate --suite synthetic --shift 99
expect 2 "--format wants text, md, json, junit or codequality, got 'xml'" "$BENCH" gate --suite synthetic --format xml
expect 2 "--reruns wants a whole number from 0 to 6" "$BENCH" gate --suite synthetic --reruns 9
expect 2 "unknown metric 'ns'" "$BENCH" gate --suite synthetic --metric ns
expect 0 "usage: bench gate" "$BENCH" gate --help
expect 0 "--shift F" "$BENCH" gate --suite synthetic --help
expect 0 "usage: bench compare" "$BENCH" compare --help
printf 'claim synthetic * 15%%\nclaim synthetic ns_per_op fast\n' >"$T/bad1"
expect 2 "$T/bad1:2: slowdown 'fast' is not a percentage" "$BENCH" gate --suite synthetic --thresholds "$T/bad1"
printf '# suites\n\nclaim nosuch ns_per_op 5%%\n' >"$T/bad2"
expect 2 "$T/bad2:3: unknown suite 'nosuch'" "$BENCH" gate --suite synthetic --thresholds "$T/bad2"
printf 'claim synthetic\n' >"$T/bad3"
expect 2 "$T/bad3:1: expected 4 fields" "$BENCH" gate --suite synthetic --thresholds "$T/bad3"
expect 2 "cannot read thresholds file $T/missing" "$BENCH" gate --suite synthetic --thresholds "$T/missing"
printf 'claim xts * 5%%\n' >"$T/norule"
expect 2 "has no rule for the claim gate of suite synthetic" "$BENCH" gate --suite synthetic "${G[@]:0:2}" --thresholds "$T/norule" --db "$T/e.db"
expect 2 "no database at $T/none.db" "$BENCH" compare --db "$T/none.db"
# a suite that is still a placeholder (registered, no plan yet), if there is one, is refused visibly
for s in $("$BENCH" list | awk '/\(not implemented yet\)/ { print $1 }'); do
    expect 2 "suite $s cannot run benchmarks yet" "$BENCH" gate --suite "$s" "${G[@]}" --db "$T/e.db"
done

# ---- claim gate on the synthetic suite: A/A passes, a 30 % slowdown fails ----
DB=$T/g.db
expect 0 "verdict: pass" "$BENCH" gate --suite synthetic "${G[@]}" "${SEED[@]}" --db "$DB" --shift 1.0
expect 1 "verdict: regression" "$BENCH" gate --suite synthetic "${G[@]}" "${SEED[@]}" --db "$DB" --shift 1.3
is "stored verdicts" "$(q "$DB" "SELECT group_concat(verdict || ':' || exit_status, ',') FROM comparisons ORDER BY id")" \
   "pass:0,regression:1"
is "cells of the regression" "$(q "$DB" "SELECT group_concat(verdict, ',') FROM comparison_cells WHERE comparison_id = 2")" \
   "regression,regression"
is "cells store ratio, CI, p, Holm, MDC, threshold" \
   "$(q "$DB" "SELECT count(*) FROM comparison_cells WHERE n_pairs >= 15 AND ci_lo < ratio AND ratio < ci_hi AND p_holm >= p_value AND mdc > 0 AND threshold = 0.15")" "4"
is "1.3x measured" "$(q "$DB" "SELECT min(ratio) > 1.2 AND max(ratio) < 1.4 FROM comparison_cells WHERE comparison_id = 2")" "1"
is "comparisons linked to their runs" \
   "$(q "$DB" "SELECT count(*) FROM comparison_runs cr JOIN runs r ON r.id = cr.run_id WHERE cr.side = 'both' AND r.status = 'complete'")" \
   "$(q "$DB" "SELECT count(*) FROM runs")"

# ---- --budget: rerun until every cell's MDC is under half its threshold, or the budget is spent ----
# Seeded samples, so which cells are rerun and with how many rounds is fixed; the only clock is the
# budget: 600 s is never reached by two seeded passes, 0.001 s is spent by any first pass.
DBB=$T/budget.db
expect 2 "--budget '0': seconds" "$BENCH" gate --suite synthetic "${G[@]}" --budget 0
expect 2 "the commit gate: ci/perf-gate --budget" "$BENCH" gate --baseline-runs 1 --candidate-runs 2 --budget 5
# (8 layouts, named: the seeded figures depend on how many, and a build may have more; the rerun's 32
# rounds run in 2 passes, each setting its cases up anew, with noise of their own)
expect 0 "every cell's MDC under half its threshold; MDC reached: median 3.66%, largest 4.31%" \
    "$BENCH" gate --suite synthetic "${G[@]}" "${SEED[@]}" --layouts 8 --db "$DBB" --shift 1.0 --budget 600
is "budget met: only the cell above 7.5 % MDC rerun, once" \
   "$(q "$DBB" "SELECT group_concat(rounds, ',') FROM comparison_cells WHERE comparison_id = 1")" "16,48"
printf 'claim synthetic * 1%%\n' >"$T/th1"
expect 3 "16 rounds; budget 0.001s" \
    "$BENCH" gate --suite synthetic --quick --quiet --thresholds "$T/th1" "${SEED[@]}" --db "$DBB" --shift 1.0 --budget 0.001
is "budget spent: one pass, no rerun" "$(q "$DBB" "SELECT note LIKE '%budget spent%' FROM comparisons WHERE id = 2")" "1"

# ---- a higher-is-better metric is inverted into a cost: 1.3x the work is 1/1.3 the MB/s, a regression ----
expect 1 "cost = 1/mb_per_s" "$BENCH" gate --suite synthetic "${G[@]}" "${SEED[@]}" --db "$T/m.db" --shift 1.3 \
    --metric mb_per_s
is "mb_per_s cells" "$(q "$T/m.db" "SELECT group_concat(verdict, ',') FROM comparison_cells")" "regression,regression"

# ---- real suites, timed for real: the gate runs them and stores its cells; which verdict the clock
# gave is not asserted (a gate is an error only with exit 2) ----
real_gate() {
    local db=$1
    shift
    "$BENCH" gate "${G[@]}" --rounds 6 --db "$db" "$@" >"$T/out" 2>&1
    local rc=$?
    [[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] && ok || bad "gate $* exited $rc: $(cat "$T/out")"
    is "gate $* stored its cells" "$(q "$db" "SELECT count(*) > 0 AND min(n_pairs) >= 6 FROM comparison_cells")" "1"
}
real_gate "$T/d.db" --suite drbg --baseline new --candidate old --mech=sha256 --sizes 4096
real_gate "$T/x.db" --suite xts --baseline new --candidate old --sizes 4096 --keys=256

# ---- calibration: A/A in one run, stored, then shown beside later gates ----
expect 0 "A/A gates: 2; exit 0 (pass): 2" "$BENCH" gate --calibrate --suite synthetic --repeat 2 "${G[@]}" "${SEED[@]}" --db "$DB"
is "calibration per cell" "$(q "$DB" "SELECT count(*) FROM calibrations WHERE repeats = 2 AND impl = 'old' AND mdc > 0 AND pairing = 'round'")" "2"
is "A/A gates stored" "$(q "$DB" "SELECT count(*) FROM comparisons WHERE gate = 'aa'")" "2"
out=$(COLUMNS=80 "$BENCH" gate --calibrate --suite synthetic --repeat 2 "${G[@]}" "${SEED[@]}" --db "$T/aa80.db" 2>/dev/null)
is "A/A calibration within 80 columns" "$(printf '%s\n' "$out" | LC_ALL=C.UTF-8 awk 'length > 80' | wc -l)" "0"
expect 0 "MDC (A/A)" "$BENCH" gate --suite synthetic "${G[@]}" "${SEED[@]}" --db "$DB"
out=$("$BENCH" gate --suite synthetic "${G[@]}" "${SEED[@]}" --db "$DB" --format json)
[[ $out == *'"verdict": "pass"'* && $out == *'"calibrated_mdc": 0.'* ]] && ok || bad "json: $out"
if command -v python3 >/dev/null; then
    python3 -c 'import json, sys; json.load(sys.stdin)' <<<"$out" && ok || bad "gate json does not parse"
fi
expect 0 "| variant | op | bytes |" "$BENCH" gate --suite synthetic "${G[@]}" "${SEED[@]}" --db "$DB" --format md

# ---- compare: impls of one run ----
expect 0 "compare synthetic run 1: new (B) against old (A)" "$BENCH" compare --db "$DB" --run 1
R13=$(q "$DB" "SELECT min(run_id) FROM comparison_runs WHERE comparison_id = 2")   # the 1.3x gate's first run
expect 0 "slower" "$BENCH" compare --db "$DB" --run "$R13"
expect 2 "run 1 has no impl 'zzz' (it has: old,new)" "$BENCH" compare --db "$DB" --run 1 old zzz
expect 2 "--run wants a run id or 'latest'" "$BENCH" compare --db "$DB" --run x
out=$("$BENCH" compare --db "$DB" --run 1 --format json)
[[ $out == *'"verdict": "none"'* && $out == *'"change": '* ]] && ok || bad "compare json: $out"
is "compare stored" "$(q "$DB" "SELECT count(*) FROM comparisons WHERE command = 'compare'")" "3"

# ---- runs of two "builds", alternating in one job: compare --runs and the commit gate ----
S=$T/s.db
A=() B=()
# seeded runs (one procedure, so one seed: every run the same samples), then each run scaled by
# a known factor within +-1 %, as runs of two builds differ from run to run
run() { "$BENCH" run --suite synthetic --quick --rounds 3 --quiet --seed 1 --db "$S" | sed -n 's/^run \([0-9]*\) complete.*/\1/p'; }
for k in $(seq 10); do
    if ((k % 2)); then A+=("$(PB_JOB_ID=job-1 run)"); B+=("$(PB_JOB_ID=job-1 run)")
    else B+=("$(PB_JOB_ID=job-1 run)"); A+=("$(PB_JOB_ID=job-1 run)"); fi
done
q "$S" "UPDATE samples SET ns = ns * (1 + ((SELECT c.run_id FROM cases c WHERE c.id = case_id) * 7 % 11 - 5) / 500.0)"
RA=$(IFS=,; echo "${A[*]}") RB=$(IFS=,; echo "${B[*]}")
expect 0 "paired by alternation" "$BENCH" compare --db "$S" --runs "$RA" "$RB"
expect 0 "one run each: ratio of medians, no test" "$BENCH" compare --db "$S" --runs "${A[0]}" "${B[0]}"
"$BENCH" gate --db "$S" --thresholds "$TH" --baseline-runs "$RA" --candidate-runs "$RB" >"$T/out" 2>&1
rc=$?
is "A/A commit gate exit status" "$rc" "0"
is "commit gate stored" "$(q "$S" "SELECT gate || ':' || pairing FROM comparisons ORDER BY id DESC LIMIT 1")" "commit:alternation"
is "alternations linked" "$(q "$S" "SELECT count(*) FROM comparison_runs WHERE comparison_id = 3 AND alternation BETWEEN 1 AND 10")" "20"
# a candidate build whose new is 1.5x slower in every run: the commit gate fails for new, not for old
q "$S" "UPDATE samples SET ns = ns * 1.5 WHERE case_id IN (SELECT id FROM cases WHERE impl = 'new' AND run_id IN ($RB))"
expect 1 "verdict: regression" "$BENCH" gate --db "$S" --thresholds "$TH" --baseline-runs "$RA" --candidate-runs "$RB"
is "only new regressed" "$(q "$S" "SELECT group_concat(DISTINCT candidate) FROM comparison_cells WHERE comparison_id = 4 AND verdict = 'regression'")" "new"
expect 2 "must alternate" "$BENCH" gate --db "$S" --thresholds "$TH" --baseline-runs "${A[0]},${A[1]},${A[2]},${A[3]},${A[4]},${A[5]}" \
    --candidate-runs "${B[1]},${B[0]},${B[2]},${B[3]},${B[4]},${B[5]}"
expect 2 "a gate needs at least 6" "$BENCH" gate --db "$S" --thresholds "$TH" --baseline-runs "${A[0]},${A[1]}" --candidate-runs "${B[0]},${B[1]}"
expect 2 "10 baseline runs against 1 candidate runs" "$BENCH" gate --db "$S" --thresholds "$TH" --baseline-runs "$RA" --candidate-runs "${B[0]}"
# refused: another machine, another job, no job at all
q "$S" "UPDATE runs SET machine_id = 'another-machine' WHERE id = ${B[9]}"
expect 2 "across machines are refused" "$BENCH" gate --db "$S" --thresholds "$TH" --baseline-runs "$RA" --candidate-runs "$RB"
expect 2 "across machines are refused" "$BENCH" compare --db "$S" --runs "$RA" "$RB"
q "$S" "UPDATE runs SET machine_id = (SELECT machine_id FROM runs WHERE id = ${A[0]}), job_id = 'job-2' WHERE id = ${B[9]}"
expect 2 "across jobs are refused" "$BENCH" gate --db "$S" --thresholds "$TH" --baseline-runs "$RA" --candidate-runs "$RB"
q "$S" "UPDATE runs SET job_id = NULL WHERE id = ${B[9]}"
expect 2 "has no job id (PB_JOB_ID was not set)" "$BENCH" gate --db "$S" --thresholds "$TH" --baseline-runs "$RA" --candidate-runs "$RB"

# ---- the ci/ scripts ----
expect 0 "claim gate: passed: synthetic" "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic --db "$T/c.db" --thresholds "$TH" \
    -- --seed 1
# --quick as the other scripts take it: claim-gate's default already, so accepted and said nothing of;
# of --quick and --full the last decides (each gate's run keeps its command line)
CQ=("$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic --thresholds "$TH")
out=$("${CQ[@]}" --db "$T/cq.db" --quick -- --seed 1 2>&1)
is "claim-gate --quick: exit" "$?" 0
[[ $out == *"claim gate: passed: synthetic"* && $out != *quick* ]] && ok || bad "claim-gate --quick: $out"
"${CQ[@]}" --db "$T/cq.db" --full --quick -- --seed 1 >/dev/null 2>&1
"${CQ[@]}" --db "$T/cq.db" --quick --full -- --seed 1 >/dev/null 2>&1
is "claim-gate: --quick, --full --quick quick; --quick --full full" \
   "$(q "$T/cq.db" "SELECT group_concat(command_line LIKE 'bench gate --suite synthetic --quick %', ',') FROM (SELECT command_line FROM runs ORDER BY id)")" \
   "1,1,0"
# a bare --threshold through a ci script reaches bench as given: 15 is 15 %
expect 0 "threshold 15% (--threshold 15)" "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic --db "$T/cb.db" \
    --threshold 15 -- --seed 1 --shift 1.05 --layouts 1
expect 1 "claim gate: passed: none; regressed: synthetic" "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic \
    --db "$T/cb.db" --threshold 3 -- --seed 1 --shift 1.05 --layouts 1
PB_TEST_WAITS=0.5 "$SRC/ci/perf-gate" --aa --bench "$BENCH" --procedure alternate --suites synthetic --alternations 6 \
    --max-alternations 12 --rounds 3 --budget 30 --cpu none --db "$T/p.db" --thresholds "$TH" >"$T/out" 2>&1
rc=$?
# live timing (ci/perf-gate runs bench without suite options): the procedure is checked, not its verdict
[[ ($rc -eq 0 || $rc -eq 1 || $rc -eq 3) && $(cat "$T/out") == *"perf gate: "* ]] && ok || bad "perf-gate --aa exited $rc: $(cat "$T/out")"
is "perf-gate: the gate's note says the MDC reached" \
   "$(q "$T/p.db" "SELECT count(*) > 0 FROM comparisons WHERE note LIKE '%MDC reached: median%cells not under half their threshold%'")" "1"
is "perf-gate: --cpu reaches every run" "$(q "$T/p.db" "SELECT DISTINCT cpu_affinity FROM runs")" "not pinned: --cpu none"
if [[ $(nproc) -le 9 ]]; then
    grep -q "^ci/perf-gate: synthetic: [0-9]* of [0-9]* runs drew a noise warning (runs.noise), the last: run [0-9]* was noisy: \(.*; \)\?[0-9]* of [0-9]* rounds waited" "$T/out" &&
        ok || bad "perf-gate: no noise summary: $(cat "$T/out")"
fi
expect 0 "claim gate: passed: synthetic" "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic --db "$T/c2.db" \
    --thresholds "$TH" --cpu 0 -- --seed 1
is "claim-gate: --cpu reaches bench gate" "$(q "$T/c2.db" "SELECT count(*) > 0 AND min(cpu_affinity LIKE 'cpu 0 %' OR cpu_affinity LIKE 'not pinned: 1 online CPU') FROM runs")" "1"
expect 2 "--budget wants whole seconds" "$SRC/ci/perf-gate" --aa --bench "$BENCH" --budget 1.5
expect 2 "--budget is for wall time" "$SRC/ci/perf-gate" --aa --bench "$BENCH" --budget 60 --measure valgrind
is "perf-gate: one job, both sides alternating" \
   "$(q "$T/p.db" "SELECT count(DISTINCT job_id) || ':' || (count(*) % 2) FROM runs")" "1:0"
is "perf-gate --aa stores a calibration" "$(q "$T/p.db" "SELECT count(*) > 0 FROM calibrations WHERE pairing = 'alternation'")" "1"
# the default procedure: both builds in one process (bench gate --baseline-module, the module beside bench)
PB_TEST_WAITS=0.5 "$SRC/ci/perf-gate" --aa --bench "$BENCH" --suites synthetic --budget 20 --cpu none --db "$T/p1.db" \
    --thresholds "$TH" >"$T/out1" 2>&1
rc=$?
[[ ($rc -eq 0 || $rc -eq 1 || $rc -eq 3) && $(cat "$T/out1") == *"synthetic: both builds in one process"* ]] && ok ||
    bad "perf-gate --aa (one process) exited $rc: $(cat "$T/out1")"
# the suite's budget is what is left of the 20 s in whole seconds when it starts (19 on a slow start)
is "perf-gate one-process: A/A gate in one process, calibration stored" \
   "$(q "$T/p1.db" "SELECT count(*) > 0 FROM comparisons WHERE gate = 'aa' AND pairing = 'round' AND note LIKE '%in one process%budget %s: %'"):$(q "$T/p1.db" "SELECT count(*) > 0 FROM calibrations")" "1:1"
is "perf-gate one-process: both impls, X~base against X" \
   "$(q "$T/p1.db" "SELECT group_concat(x) FROM (SELECT DISTINCT baseline || '>' || candidate AS x FROM comparison_cells ORDER BY x)")" "new~base>new,old~base>old"
if [[ $(nproc) -le 9 ]]; then
    grep -q "^ci/perf-gate: synthetic: [0-9]* runs drew a noise warning (runs.noise), the last: run [0-9]* was noisy: \(.*; \)\?[0-9]* of [0-9]* rounds waited" "$T/out1" &&
        ok || bad "perf-gate one-process: no noise summary: $(cat "$T/out1")"
fi
# a build without a module (older than the one-process gate) falls back to alternating runs, visibly
mkdir -p "$T/nomod"
cp "$BENCH" "$T/nomod/bench"
"$SRC/ci/perf-gate" --aa --bench "$T/nomod/bench" --suites synthetic --alternations 6 --max-alternations 6 --cpu none \
    --db "$T/p2.db" --thresholds "$TH" >"$T/out2" 2>&1
rc=$?
[[ ($rc -eq 0 || $rc -eq 1 || $rc -eq 3) && $(cat "$T/out2") == *"no suite module $T/nomod/libpbsuites.so"*"alternating separate runs instead"* ]] &&
    ok || bad "perf-gate without a module exited $rc: $(cat "$T/out2")"
is "perf-gate fallback: alternating runs" "$(q "$T/p2.db" "SELECT count(*) FROM runs")" "12"
expect 2 "--procedure wants one-process or alternate" "$SRC/ci/perf-gate" --aa --bench "$BENCH" --procedure both
expect 2 "give the baseline revision" "$SRC/ci/perf-gate" --bench "$BENCH"
expect 2 "is not a revision" "$SRC/ci/perf-gate" --bench "$BENCH" no-such-revision-xyz


# ---- the forms as first words (issue 40): the same gate as the options' spelling, and refusals ----
F=$T/forms.db
expect 1 "verdict: regression" "$BENCH" gate claim --suite synthetic "${G[@]}" "${SEED[@]}" --db "$F" --shift 1.3
expect 0 "A/A gates: 2; exit 0 (pass): 2" "$BENCH" gate calibrate --suite synthetic --repeat 2 "${G[@]}" "${SEED[@]}" --db "$F"
is "forms: what the words stored" "$(q "$F" "SELECT group_concat(gate, ',') FROM comparisons")" "claim,aa,aa"
expect 2 "claim: not with --calibrate (that is bench gate calibrate)" "$BENCH" gate claim --calibrate --suite synthetic
expect 2 "commit wants --baseline-runs IDS --candidate-runs IDS" "$BENCH" gate commit --suite synthetic
expect 2 "against wants the NAME of a saved run" "$BENCH" gate against
expect 2 "--suite does not go with merge" "$BENCH" gate merge --suite synthetic x.json
expect 2 "--brief goes with merge" "$BENCH" gate --suite synthetic --brief
expect 2 "unexpected argument 'x.json'" "$BENCH" gate --suite synthetic x.json
expect 0 "bench gate merge FILE..." "$BENCH" gate --help
expect 0 "rounds of the first pass (default 64, quick 16)" "$BENCH" gate --help

finish
