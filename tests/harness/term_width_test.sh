#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench run's stderr fits the terminal (issue 42; harness/base/term.h): COLUMNS=N forces a width
# without a terminal, as a test must, and then no line is wider than N display columns (UTF-8
# characters, not bytes: µ and … are one each, and never split), the header is at most three lines
# and a warning is its first sentence with where the rest is; without COLUMNS (meson test's stderr is
# not a terminal) or with --wide, every line is as it always was. Seeded samples: nothing here
# depends on this machine's clock or load.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
unset COLUMNS
R=(--suite synthetic --seed 1)
# widest FILE: the widest line's display columns, or "bad UTF-8" where a character was split
widest() {
    python3 -c 'import sys
try: t = open(sys.argv[1], "rb").read().decode("utf-8")
except UnicodeDecodeError: print("bad UTF-8"); sys.exit()
print(max([len(l) for l in t.split("\n")] + [0]))' "$1"
}
# header_lines FILE: the lines of the run's header, its first line to the one with the ticks
header_lines() { awk '/^bench: run [0-9]+, suite/ {s = NR} /ticks: / && s {print NR - s + 1; exit}' "$1"; }
cell_re='synthetic chain spin 10000 B: old [0-9.]+ µs new [0-9.]+ µs  time new/old [0-9.]+ \[[0-9.]+, [0-9.]+\]'

# ---- unbounded: the lines as before (one header line with the counters' reasons, the full cell line) ----
"$BENCH" run "${R[@]}" --db "$T/u.db" 2>"$T/u.err" >/dev/null || bad "unbounded run: $(cat "$T/u.err")"
grep -qE '^bench: run 1, suite synthetic: 2 cells, .* ms samples; ticks: ' "$T/u.err" && ok ||
    bad "unbounded: the header is not one line: $(cat "$T/u.err")"
grep -qE "$cell_re across [0-9]+ layouts \([0-9.]+ to [0-9.]+\)$" "$T/u.err" && ok ||
    bad "unbounded: the cell line lost a part: $(cat "$T/u.err")"
is "unbounded: the counters stored as the header says them" \
   "$(grep -c "; $(q "$T/u.db" "SELECT counter_source FROM runs")$" "$T/u.err")" "1"
# --wide under COLUMNS and a COLUMNS that is no number: the same lines (but the run's time and store)
strip() { sed -E '/^bench: measuring [0-9]+%/d; s/complete in [0-9.]+ s -> .*/complete/; s/^\[([0-9]+)\/([0-9]+) [0-9]+ s(, ETA [0-9]+ s)?\]/[\1\/\2]/' "$1"; }
COLUMNS=80 "$BENCH" run "${R[@]}" --wide --db "$T/w.db" 2>"$T/w.err" >/dev/null
COLUMNS=wide "$BENCH" run "${R[@]}" --db "$T/n.db" 2>"$T/n.err" >/dev/null
is "--wide: the unbounded lines" "$(strip "$T/w.err")" "$(strip "$T/u.err")"
is "COLUMNS not a number: the unbounded lines" "$(strip "$T/n.err")" "$(strip "$T/u.err")"

# ---- bounded: every line within the width, the header in three lines at most ----
for w in 80 120 30; do
    COLUMNS=$w "$BENCH" run "${R[@]}" --db "$T/c$w.db" 2>"$T/c$w.err" >/dev/null || bad "COLUMNS=$w: $(cat "$T/c$w.err")"
    got=$(widest "$T/c$w.err")
    [[ $got != "bad UTF-8" && $got -le $w ]] && ok || bad "COLUMNS=$w: a line of $got columns: $(cat "$T/c$w.err")"
    h=$(header_lines "$T/c$w.err")
    [[ -n $h && $h -le 3 ]] && ok || bad "COLUMNS=$w: a header of '$h' lines: $(cat "$T/c$w.err")"
    grep -q "perf_event_open\|rdtscp" "$T/c$w.err" && bad "COLUMNS=$w: the counters' long reasons shown" || ok
    is "COLUMNS=$w: the counters stored in full all the same" \
       "$(q "$T/c$w.db" "SELECT counter_source FROM runs")" "$(q "$T/u.db" "SELECT counter_source FROM runs")"
done
grep -qE '^\[2/2 [0-9]+ s(, ETA [0-9]+ s)?\] synthetic chain spin 10000 B: new/old [0-9.]+ \[[0-9.]+, [0-9.]+\]$' "$T/c80.err" && ok ||
    bad "COLUMNS=80: the cell line is not its ratio: $(cat "$T/c80.err")"
grep -qE "$cell_re( across [0-9]+ layouts( \([0-9.]+ to [0-9.]+\))?)?$" "$T/c120.err" && ok || bad "COLUMNS=120: the times and the ratio not kept: $(cat "$T/c120.err")"
grep -q '…$' "$T/c30.err" && ok || bad "COLUMNS=30: a line cut without '…': $(cat "$T/c30.err")"

# ---- a warning: its first sentence and where the rest is, the rest stored ----
S=(--suite synthetic --seed 7 --layouts 8 --rounds 32 --sample-ms 0.05 --shift 1.2 --boundary-rounds 0)
PB_TEST_SHARED=1.5 COLUMNS=80 "$BENCH" run "${S[@]}" --db "$T/s.db" 2>"$T/s.err" >/dev/null
got=$(widest "$T/s.err")
[[ $got != "bad UTF-8" && $got -le 80 ]] && ok || bad "noise at 80: a line of $got columns: $(cat "$T/s.err")"
grep -qE '^bench: warning: run 1 was noisy: .*\(see bench report\)$' "$T/s.err" && ok ||
    bad "noise at 80: no short warning: $(cat "$T/s.err")"
is "noise at 80: stored in full" "$(q "$T/s.db" "SELECT noise LIKE '%ran on a shared core%' FROM runs")" "1"
PB_TEST_SHARED=1.5 "$BENCH" run "${S[@]}" --db "$T/s2.db" 2>"$T/s2.err" >/dev/null
grep -q "^bench: warning: run 1 was noisy: .*ran on a shared core (a core-sharing probe over 1.25x the run's fastest)" "$T/s2.err" &&
    ok || bad "noise unbounded: not in full: $(cat "$T/s2.err")"
# ---- colour: the verdicts painted on a terminal (CLICOLOR_FORCE stands for one here), never with
# NO_COLOR, never in a pipe or a file written; the paint takes no column ----
ESC=$'\033'
CLICOLOR_FORCE=1 COLUMNS=80 "$BENCH" run "${R[@]}" --db "$T/k.db" >"$T/k.out" 2>/dev/null || bad "colour run failed"
grep -q "${ESC}\[32mhold${ESC}\[0m" "$T/k.out" && ok || bad "CLICOLOR_FORCE: the answer's 'hold' not green: $(cat -v "$T/k.out")"
sed "s/${ESC}\[[0-9;]*m//g" "$T/k.out" >"$T/k.plain"
got=$(widest "$T/k.plain")
[[ $got != "bad UTF-8" && $got -le 80 ]] && ok || bad "colour at 80: a line of $got columns: $(cat "$T/k.plain")"
NO_COLOR=1 CLICOLOR_FORCE=1 "$BENCH" report --db "$T/k.db" --out "$T/kp" >"$T/k2.out" 2>&1
grep -q "$ESC" "$T/k2.out" && bad "NO_COLOR: an escape written: $(cat -v "$T/k2.out")" || ok
grep -q "hold" "$T/k2.out" && ok || bad "NO_COLOR: no answer: $(cat "$T/k2.out")"
"$BENCH" report --db "$T/k.db" --out "$T/kp" 2>&1 | grep -q "$ESC" && bad "a pipe: an escape written" || ok
CLICOLOR_FORCE=1 "$BENCH" gate --suite synthetic --seed 1 --db "$T/kg.db" --write "text=$T/kg.txt" >"$T/kg.out" 2>/dev/null
grep -q "${ESC}\[32mpass${ESC}\[0m" "$T/kg.out" && ok || bad "gate: 'pass' not green: $(cat -v "$T/kg.out")"
grep -q "${ESC}\[[0-9]*m0 " "$T/kg.out" && bad "gate: a zero count painted: $(cat -v "$T/kg.out")" || ok
grep -q "$ESC" "$T/kg.txt" && bad "gate --write: an escape in the file: $(cat -v "$T/kg.txt")" || ok
grep -q "pass" "$T/kg.txt" && ok || bad "gate --write: no table: $(cat "$T/kg.txt")"
finish
