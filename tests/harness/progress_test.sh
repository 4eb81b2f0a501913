#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The live progress of bench run and bench gate (issue 42; harness/base/ticker.h): where stderr is
# not a terminal (here) each progress line is a plain line, no carriage return, within COLUMNS, its
# share of the plan never going back; --quiet says nothing on stderr but errors. PB_TEST_TICK=1 asks
# for a line at every sample instead of every few seconds, so that nothing here depends on how fast
# this machine runs a seeded synthetic run (whose few samples bound the lines).
BENCH=$1
SRC=$2
source "$(dirname "$0")/../lib.sh"
unset COLUMNS
R=(--suite synthetic --seed 1 --quick)
tick_re='^bench: measuring [0-9]+% \(cell [0-9]+ of 2\), [0-9]+ s, ETA ([0-9]+ s|< 1 s|[0-9]+ min [0-9]+ s|not known yet)$'

PB_TEST_TICK=1 COLUMNS=80 "$BENCH" run "${R[@]}" --db "$T/r.db" 2>"$T/r.err" >/dev/null || bad "run: $(cat "$T/r.err")"
n=$(grep -cE "$tick_re" "$T/r.err")
[[ $n -ge 4 ]] && ok || bad "run: $n progress lines: $(head -c 3000 "$T/r.err")"
grep -q $'\r' "$T/r.err" && bad "run: a carriage return where stderr is no terminal" || ok
grep -q $'\033' "$T/r.err" && bad "run: an escape sequence where stderr is no terminal" || ok
awk 'length($0) > 80 {print; exit 1}' "$T/r.err" && ok || bad "run: a line over 80 columns"
# the share of the plan only grows, and the run's own rounds are the whole plan
pcts=$(sed -nE 's/^bench: measuring ([0-9]+)%.*/\1/p' "$T/r.err")
sort -n -c <<<"$pcts" 2>/dev/null && ok || bad "run: the share went back: $(tr '\n' ' ' <<<"$pcts")"
[[ $(tail -n 1 <<<"$pcts") -ge 90 ]] && ok || bad "run: the last share is $(tail -n 1 <<<"$pcts")%"
grep -qE '^bench: run 1 complete in ' "$T/r.err" && ok || bad "run: no end line: $(tail -n 3 "$T/r.err")"

# --quiet: nothing on stderr, the run stored all the same
PB_TEST_TICK=1 "$BENCH" run "${R[@]}" --quiet --db "$T/q.db" 2>"$T/q.err" >/dev/null || bad "quiet run failed"
is "run --quiet: stderr" "$(cat "$T/q.err")" ""
is "run --quiet: stored" "$(q "$T/q.db" "SELECT status FROM runs")" "complete"
# ... but an error still is said
PB_TEST_TICK=1 "$BENCH" run --suite synthetic --quiet --impl zzz --db "$T/q2.db" 2>"$T/q2.err" >/dev/null
grep -q "zzz" "$T/q2.err" && ok || bad "run --quiet: the error not said: $(cat "$T/q2.err")"

# bench gate: its runs' progress, plain too; --quiet silences it
G=(--suite synthetic --seed 3 --quick --rounds 6 --reruns 0)
PB_TEST_TICK=1 "$BENCH" gate "${G[@]}" --db "$T/g.db" 2>"$T/g.err" >/dev/null
grep -qE '^bench: measuring [0-9]+%' "$T/g.err" && ok || bad "gate: no progress: $(head -c 3000 "$T/g.err")"
grep -q $'\r' "$T/g.err" && bad "gate: a carriage return where stderr is no terminal" || ok
PB_TEST_TICK=1 "$BENCH" gate "${G[@]}" --quiet --db "$T/gq.db" 2>"$T/gq.err" >/dev/null
grep -q "bench: measuring" "$T/gq.err" && bad "gate --quiet: progress: $(cat "$T/gq.err")" || ok
# --quiet --live: the live line alone (what ci/ scripts pass on)
PB_TEST_TICK=1 "$BENCH" gate "${G[@]}" --quiet --live --db "$T/gl.db" 2>"$T/gl.err" >/dev/null
[[ -s $T/gl.err ]] && ! grep -qvE '^bench: measuring [0-9]+%' "$T/gl.err" && ok ||
    bad "gate --quiet --live: not the live lines alone: $(head -c 3000 "$T/gl.err")"

# ci/claim-gate: a line per suite before it runs, bench's live lines passed on to stderr, stdout as before
TH=$T/thresholds
printf 'claim   synthetic  *  15%%\n' >"$TH"
PB_TEST_TICK=1 COLUMNS=80 "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic --db "$T/c.db" --thresholds "$TH" \
    -- --seed 1 --rounds 6 >"$T/c.out" 2>"$T/c.err"
is "claim-gate: exit" "$?" 0
grep -qx 'ci/claim-gate: synthetic (1 of 1)' "$T/c.err" && ok || bad "claim-gate: no step line: $(head -c 3000 "$T/c.err")"
grep -qE '^bench: measuring [0-9]+%' "$T/c.err" && ok || bad "claim-gate: bench's progress not passed on: $(head -c 3000 "$T/c.err")"
grep -q 'bench: measuring' "$T/c.out" && bad "claim-gate: progress in the document: $(cat "$T/c.out")" || ok
grep -q "claim gate: passed: synthetic" "$T/c.out" && ok || bad "claim-gate: $(cat "$T/c.out")"
awk 'length($0) > 80 {print; exit 1}' "$T/c.err" && ok || bad "claim-gate: a line over 80 columns"
finish
