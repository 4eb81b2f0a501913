#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Boundary rounds (docs/layout.md, "Boundary rounds"), end to end on seeded samples: a cell whose
# new/old lies near a verdict's boundary (synthetic's claim is "equal", within 1/1.1 to 1.1: a
# --shift of 1.1 sits on it, 1.5 far from it) gets --boundary-rounds more rounds (default: half
# the run's), each pass of them a block of every layout once, after the make-up rounds' room, the
# nearest cells first and at most a quarter of them (at least one); a cell far from one, a --quick
# run and --boundary-rounds 0 get none; with more impls than the two (xts, every cell put on a
# boundary by the test-only PB_TEST_NEAR_ALL) every impl runs them.
# Nothing here depends on this machine's load or clock: every synthetic time comes from the seed,
# and the xts run is checked for which samples it stored, not for what they took.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
R=(--suite synthetic --seed 7 --quiet --layouts 8 --rounds 32 --sample-ms 0.05)
# per_cell DB: how many cases (impl in a cell) have how many samples, "N:cases,..."
per_cell() { q "$1" "SELECT group_concat(n || ':' || k) FROM (SELECT n, count(*) AS k FROM (SELECT count(*) AS n FROM samples GROUP BY case_id) GROUP BY n ORDER BY n)"; }

# ---- near: the nearer of the two cells (at most a quarter of the cells, at least one) gets 16
# more rounds, rounds 48-63 (32 + 2 x 8 make-up room, on a block's start) ----
D=$T/near.db
out=$("$BENCH" run "${R[@]}" --shift 1.1 --db "$D" 2>&1)
is "near: exit" "$?" "0"
is "near: one cell's impls 48 samples each, the other's 32" "$(per_cell "$D")" "32:2,48:2"
is "near: the boundary rounds are rounds 48-63" \
   "$(q "$D" "SELECT min(round) || '-' || max(round) || ':' || count(*) FROM samples WHERE round >= 32")" "48-63:32"
is "near: every layout twice in them, in each impl" \
   "$(q "$D" "SELECT group_concat(DISTINCT n) FROM (SELECT count(*) AS n FROM samples s JOIN cases c ON c.id = s.case_id WHERE round >= 48 GROUP BY c.impl, c.size_bytes, s.layout)")" "2"
is "near: each block of 8 rounds every layout once" \
   "$(q "$D" "SELECT group_concat(DISTINCT n) FROM (SELECT count(DISTINCT s.layout) AS n FROM samples s JOIN cases c ON c.id = s.case_id WHERE round >= 48 GROUP BY c.impl, c.size_bytes, s.round / 8)")" "8"
is "near: each ratio over all its pairs" \
   "$(q "$D" "SELECT group_concat(n_pairs) FROM (SELECT n_pairs FROM ratios WHERE candidate = 'new' AND metric = 'ns_per_op' ORDER BY n_pairs)")" "32,48"
is "near: the setting stored with the run" "$(q "$D" "SELECT options LIKE 'rounds=32 passes=2 boundary_rounds=16 %' FROM runs")" "1"
is "near: the seed's ratio" "$(q "$D" "SELECT group_concat(estimate BETWEEN 1.05 AND 1.15) FROM ratios WHERE candidate = 'new' AND metric = 'ns_per_op'")" "1,1"
D=$T/said.db
out=$("$BENCH" run --suite synthetic --seed 7 --layouts 8 --rounds 32 --sample-ms 0.05 --shift 1.1 --db "$D" 2>&1)
[[ $out == *"bench: 1 cell near a verdict's boundary (new/old): 16 more rounds each"* ]] && ok ||
    bad "near: the progress lines do not say it: $out"
D=$T/eight.db
"$BENCH" run "${R[@]}" --shift 1.1 --sizes 1000,2000,3000,4000,5000,6000,7000,8000 --db "$D" >/dev/null 2>&1
is "near: 2 of 8 cells, a quarter" "$(per_cell "$D")" "32:12,48:4"

# ---- how many: --boundary-rounds N, 0 none ----
D=$T/n40.db
"$BENCH" run "${R[@]}" --shift 1.1 --boundary-rounds 40 --db "$D" >/dev/null 2>&1
is "--boundary-rounds 40: 72 samples, rounds 48-87" \
   "$(per_cell "$D")/$(q "$D" "SELECT max(round) FROM samples")" "32:2,72:2/87"
D=$T/n0.db
"$BENCH" run "${R[@]}" --shift 1.1 --boundary-rounds 0 --db "$D" >/dev/null 2>&1
is "--boundary-rounds 0: none, and not in the options" \
   "$(q "$D" "SELECT max(round) FROM samples")/$(q "$D" "SELECT options LIKE '%boundary_rounds%' FROM runs")" "31/0"

# ---- far, and --quick: none ----
D=$T/far.db
"$BENCH" run "${R[@]}" --shift 1.5 --db "$D" >/dev/null 2>&1
is "far: no boundary round" "$(q "$D" "SELECT max(round) FROM samples")/$(q "$D" "SELECT group_concat(n_pairs) FROM ratios WHERE candidate = 'new' AND metric = 'ns_per_op'")" "31/32,32"
D=$T/quick.db
"$BENCH" run --suite synthetic --seed 7 --quiet --quick --shift 1.1 --db "$D" >/dev/null 2>&1
is "--quick: none" "$(q "$D" "SELECT max(round) FROM samples")/$(q "$D" "SELECT options LIKE '%boundary_rounds%' FROM runs")" "15/0"

# ---- refused ----
expect 2 "--boundary-rounds" "$BENCH" run "${R[@]}" --boundary-rounds -1 --db "$T/bad.db"
expect 2 "--boundary-rounds" "$BENCH" run "${R[@]}" --boundary-rounds x --db "$T/bad.db"
expect 2 "--boundary-rounds has no meaning with --measure valgrind" "$BENCH" run --suite synthetic --measure valgrind --boundary-rounds 4 --db "$T/bad.db"
expect 2 "--boundary-rounds has no meaning with --target qemu" "$BENCH" run --suite xts --target qemu --boundary-rounds 4 --db "$T/bad.db"
[[ -e $T/bad.db ]] && bad "a refused --boundary-rounds stored a database" || ok

# ---- more impls than the two: every impl runs them, as in the run's rounds ----
D=$T/xts.db
PB_TEST_NEAR_ALL=1 "$BENCH" run --suite xts --quiet --impl old,new,old-nomem --sizes 64 --rounds 4 \
    --layouts 2 --sample-ms 0.02 --boundary-rounds 2 --db "$D" >/dev/null 2>&1
is "xts: exit" "$?" "0"
is "xts: 2 of the 6 cells (a quarter, rounded up), old, new and old-nomem 6 samples each, the others 4" \
   "$(per_cell "$D")" "4:12,6:6"
is "xts: the 2 first in the grid's order (all equally near)" \
   "$(q "$D" "SELECT group_concat(DISTINCT c.variant || ' ' || c.op) FROM samples s JOIN cases c ON c.id = s.case_id WHERE s.round >= 4")" \
   "256 enc,256 dec"
finish
