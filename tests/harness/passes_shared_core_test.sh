#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Passes over the grid and rounds on a shared core (docs/layout.md, "Passes" and "A shared core"),
# end to end on seeded samples: the rounds a run stores, and in which layouts, do not depend on how
# many passes spread them; a run whose rounds 2, 6, 10, ... ran on a shared core (the test-only
# PB_TEST_SHARED: their core-sharing probes read twice the others', and there the candidate takes
# 1.5 times as long) makes up the layouts left without a round on the core alone, takes its ratio
# from the rounds on the core alone, and says what the shared rounds would have moved. Nothing here
# depends on this machine's load or clock: every time comes from the seed.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
R=(--suite synthetic --seed 7 --quiet --layouts 8 --rounds 32 --sample-ms 0.05 --shift 1.2 --boundary-rounds 0)
rounds() { q "$1" "SELECT group_concat(k, ' ') FROM (SELECT c.impl || c.size_bytes || '/' || s.round || '/' || s.layout AS k FROM samples s JOIN cases c ON c.id = s.case_id ORDER BY c.impl, c.size_bytes, s.round)"; }

# ---- passes: the same rounds in the same layouts, whatever the passes ----
expect 0 "run 1 complete" "$BENCH" run "${R[@]}" --passes 1 --db "$T/p1.db"
expect 0 "run 1 complete" "$BENCH" run "${R[@]}" --passes 4 --db "$T/p4.db"
expect 0 "run 1 complete" "$BENCH" run "${R[@]}" --db "$T/pd.db"
is "passes: the same rounds, each in the same layout" "$(rounds "$T/p4.db")" "$(rounds "$T/p1.db")"
is "passes: 32 rounds x 2 impls x 2 cells" "$(q "$T/p4.db" "SELECT count(*) FROM samples")" "128"
is "passes: stored with the run's options, only when more than one" \
   "$(q "$T/p1.db" "SELECT options LIKE '%passes=%' FROM runs")$(q "$T/p4.db" "SELECT options LIKE 'rounds=32 passes=4 %' FROM runs")" "01"
is "passes: the default, one per 16 rounds" "$(q "$T/pd.db" "SELECT options LIKE 'rounds=32 passes=2 %' FROM runs")" "1"
is "no shared core: no round made up, every pair in the ratio" \
   "$(q "$T/pd.db" "SELECT max(round) FROM samples")/$(q "$T/pd.db" "SELECT group_concat(n_pairs) FROM ratios")" "31/32,32"
expect 2 "--passes 33: more passes than the 32 rounds" "$BENCH" run "${R[@]}" --passes 33 --db "$T/bad.db"
expect 2 "--passes" "$BENCH" run "${R[@]}" --passes 0 --db "$T/bad.db"
expect 2 "--passes has no meaning with --measure valgrind" "$BENCH" run --suite synthetic --measure valgrind --passes 2 --db "$T/bad.db"
[[ -e $T/bad.db ]] && bad "a refused --passes stored a database" || ok

# ---- a shared core: estimated on the core alone, said; made up ----
D=$T/shared.db
out=$(PB_TEST_SHARED=1.5 "$BENCH" run "${R[@]}" --db "$D" 2>&1)
is "shared: exit" "$?" "0"
[[ $out == *"rounds of new/old ran on a shared core (a core-sharing probe over 1.25x the run's fastest)"* ]] && ok ||
    bad "shared: no noise warning: $out"
# 16 rounds in 8 layouts, two a layout, so that the shared rounds leave some layout none, in two
# passes (a run in one makes up nothing): the progress line says "make-up pass 1: N rounds in code
# layouts that had none on a core of its own" (--quiet keeps it back), every sample is kept
Dm=$T/makeup.db
PB_TEST_SHARED=1.5 "$BENCH" run "${R[@]}" --rounds 16 --passes 2 --db "$Dm" >/dev/null 2>&1
is "make-up: rounds after the run's 16, every sample kept" \
   "$(q "$Dm" "SELECT count(*) > 0 FROM samples WHERE round > 15")/$(q "$Dm" "SELECT count(*) > 64 FROM samples")" "1/1"
is "make-up: the noise counts them" \
   "$(q "$Dm" "SELECT noise LIKE '%; _ make-up round% in code layouts that had none on the core alone%' FROM runs")" "1"
is "make-up: one pass makes up nothing" "$(q "$T/p1.db" "SELECT max(round) FROM samples")" "31"
is "shared: the probes stored" "$(q "$D" "SELECT count(*) FROM samples WHERE tprobe_before > 0 AND tprobe_after > 0")" \
   "$(q "$D" "SELECT count(*) FROM samples")"
is "shared: both cells' new/old from the pairs on the core alone" \
   "$(q "$D" "SELECT count(*) FROM ratios WHERE baseline = 'old' AND candidate = 'new' AND method LIKE '%on the core alone: % of % pairs%'")" "2"
# the seed's shift is 1.2; every pair, the shared rounds' 1.5 with it, would say more (1.31 at 10000 B)
is "shared: the ratio on the core alone is the seed's" \
   "$(q "$D" "SELECT group_concat(estimate BETWEEN 1.15 AND 1.25) FROM ratios WHERE candidate = 'new'")" "1,1"
is "shared: the noise says what they would have moved" \
   "$(q "$D" "SELECT noise LIKE '%take the rounds on the core alone, which moves a ratio by up to %' FROM runs")" "1"
expect 0 "synthetic.md" "$BENCH" report --db "$D" --out "$T/plots"
grep -q "Noise warning: .* ran on a shared core" "$T/plots/synthetic.md" && ok || bad "shared: the report does not say it"
is "shared: every ratio on the core alone took no shared pair" "$(q "$D" "SELECT group_concat(shared_pairs) FROM ratios WHERE candidate = 'new'")" "0,0"
grep -q "| core |" "$T/plots/synthetic.md" && bad "shared: a core column where no ratio took a shared pair" || ok
# a quick run makes up nothing and keeps every round, and says so
Dq=$T/quick.db
out=$(PB_TEST_SHARED=1.5 "$BENCH" run --suite synthetic --seed 7 --quiet --layouts 8 --quick --shift 1.2 --db "$Dq" 2>&1)
is "quick: no round made up" "$(q "$Dq" "SELECT max(round) FROM samples")" "15"
is "quick: every pair" "$(q "$Dq" "SELECT group_concat(n_pairs) FROM ratios WHERE candidate = 'new'")" "16,16"
[[ $out == *"a quick run keeps every round"* ]] && ok || bad "quick: not said: $out"
is "quick: the shared pairs it took" "$(q "$Dq" "SELECT group_concat(shared_pairs) FROM ratios WHERE candidate = 'new'")" "4,4"
[[ $out == *$'\n  '*"core shared 2"* ]] && ok || bad "quick: the answer's second line does not count the cells: $out"
expect 0 "synthetic.md" "$BENCH" report --db "$Dq" --out "$T/qplots"
grep -q "| core shared: 4 of 16 pairs |" "$T/qplots/synthetic.md" && ok || bad "quick: the table does not mark the cells"
# most of a ratio's pairs on a shared core: the cell gets no verdict (verdict.h pb_verdict_of_pairs); the
# stored ratios are this run's with more of their pairs counted shared
cp "$Dq" "$T/most.db"
q "$T/most.db" "UPDATE ratios SET shared_pairs = 9 WHERE candidate = 'new' AND size_bytes = 10000" >/dev/null
expect 0 "synthetic.md" "$BENCH" report --db "$T/most.db" --out "$T/mplots"
grep -q "| claim does not hold | .* | core shared: 4 of 16 pairs |" "$T/qplots/synthetic.md" && ok ||
    bad "most shared: the 10000 B cell's verdict to compare with is gone"
grep -q "| inconclusive here | .* | 10000 B | .* | core shared: 9 of 16 pairs, no verdict |" "$T/mplots/synthetic.md" && ok ||
    bad "most shared: 9 of 16 pairs shared, yet a verdict: $(grep '10000 B' "$T/mplots/synthetic.md")"
grep -qE "Summary:\*\* 2 cells: inconclusive here 2;" "$T/mplots/synthetic.md" && ok || bad "most shared: the summary counts a verdict"
expect 0 "" "$BENCH" report --machines all --db "$T/most.db" --out "$T/mmach"
grep -q '| 10000 B | .* inconclusive here {layouts' "$T/mmach/synthetic_machines.md" && ok ||
    bad "most shared: the machines report draws a verdict: $(grep '10000 B' "$T/mmach/synthetic_machines.md")"
finish
