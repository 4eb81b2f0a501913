#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# answer_test.sh BENCH — the answer first (issue 42, items 1 and 5), from seeded synthetic runs
# (fixed samples, nothing timed): bench run's closing line and bench report's say which cells hold
# and which do not with no zero count, an inconclusive run says why and the rounds that would settle
# it, the md and the page lead with the same line, a user's A/B reads as one, and every line fits
# COLUMNS=80.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
seeded() { "$BENCH" run --suite synthetic --seed 7 --quick --quiet --db a.db "$@"; }
# no line of $1 wider than $2 characters (UTF-8: ± is one)
fits() {
    local LC_ALL=C.UTF-8 l
    while IFS= read -r l; do (( ${#l} <= $2 )) || return 1; done <<<"$1"
}

# run 1: 32 rounds in one layout, --shift 0.5: both cells measured far from "equal"
out=$(seeded --rounds 32 --layouts 1 --sample-ms 0.05 --shift 0.5 2>&1)
line=$(grep '^synthetic: ' <<<"$out")
[[ $line == "synthetic: 2 cells: 2 do not hold; time new/old 0.50"*" on "* ]] && ok || bad "does not hold: $out"
[[ $line != *" 0 "* && $line != *"claim holds"* && $line != *"why"* ]] && ok || bad "zero counts or a why: $line"
# run 2: the same without a shift: both hold
out=$(seeded --rounds 32 --layouts 1 --sample-ms 0.05 2>&1)
[[ $(grep '^synthetic: ' <<<"$out") == "synthetic: 2 cells: 2 hold; time new/old 1.0"*" on "* ]] && ok || bad "hold: $out"
# run 3: 6 rounds in 6 layouts: too wide to tell; why, and --rounds N from n (w / w_need)^2
out=$(seeded --rounds 6 2>&1)
line=$(grep '^synthetic: ' <<<"$out")
[[ $line == "synthetic: 2 cells: 2 inconclusive; "*"; why: CI ±"*" % where ±"*" % decides, only 6 rounds; settle: --rounds "[0-9]*", or --measure valgrind (a count)" ]] &&
    ok || bad "inconclusive: $out"
n=$(sed -n 's/.*settle: --rounds \([0-9]*\).*/\1/p' <<<"$line")
(( n > 6 && n % 6 == 0 )) && ok || bad "rounds to settle: '$n' (more than 6, a multiple of the 6 layouts)"
[[ $out == *$'\n  depends on code layout 2'* ]] && ok || bad "the marks on a second line: $out"
# bench report: the same answer, at 80 columns in two lines that fit, whole with --wide
out=$(COLUMNS=80 "$BENCH" report --db a.db --run 3 --out "$T/p" 2>&1)
# (its line of file names is not the answer's: only the answer's lines are held to the width here)
fits "$(grep -E '^(synthetic: [0-9]+ cells|  )' <<<"$out")" 80 && ok || bad "report at 80 columns: $out"
[[ $out == *$'\nsynthetic: 2 cells: 2 inconclusive; time new/old '*$'\n  why: CI ±'*"; settle: --rounds $n"* ]] && ok ||
    bad "report at 80 columns: $out"
out=$(COLUMNS=80 "$BENCH" report --db a.db --run 3 --out "$T/p" --wide 2>&1)
[[ $out == *"$line"* ]] && ok || bad "report --wide: $out"
grep -qF "**Answer:** ${line#synthetic: }." "$T/p/synthetic.md" && ok || bad "md: no answer line: $(head -3 "$T/p/synthetic.md")"
out=$(COLUMNS=80 seeded --rounds 6 2>&1)
fits "$out" 80 && ok || bad "run at 80 columns: $out"

# most pairs of a cell on a shared core (the quick run keeps every round; the stored ratio made to say
# 9 of 16, as passes_shared_core_test.sh does): the answer says so and offers a quiet core
PB_TEST_SHARED=1.5 "$BENCH" run --suite synthetic --seed 7 --quiet --layouts 8 --quick --shift 1.2 --db s.db >/dev/null 2>&1
q s.db "UPDATE ratios SET shared_pairs = 9 WHERE candidate = 'new' AND size_bytes = 10000" >/dev/null
out=$("$BENCH" report --db s.db --out "$T/s" 2>&1)
[[ $out == *"1 cell with most pairs on a shared core"*"settle: "*"a quiet core (--cpu N)"* ]] && ok ||
    bad "shared core: $out"

# a user's A/B (exec, no document, no claim): its words, never a count of claims
out=$("$BENCH" run --suite exec --cmd a=true --cmd b=true --rounds 3 --warmup 1 --counters '' --quiet --db e.db 2>&1)
line=$(grep '^exec: ' <<<"$out")
[[ $line =~ ^exec:\ b\ (is\ (faster|slower)\ than\ a\ by\ [0-9.]+\ %\ \[|against\ a:\ no\ detectable\ change\ \[) ]] &&
    ok || bad "A/B line: $out"
[[ $out != *claim* && $out != *"0 cells"* ]] && ok || bad "A/B: claim words: $out"
expect 0 "exec: b " "$BENCH" report --db e.db --out "$T/e"
grep -q '| no claim |\|\*\*Summary:\*\*' "$T/e/exec.md" && bad "A/B md: a claim's words: $(grep -n 'no claim\|Summary' "$T/e/exec.md")" || ok
grep -qE '^\| (faster by|slower by|no detectable change) [^|]*\| command \| run \| ' "$T/e/exec.md" && ok ||
    bad "A/B md: the verdict column: $(grep '| command | run |' "$T/e/exec.md")"
finish
