#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench history: a store of seeded synthetic runs (no timing) with a known 20 % step at a known
# commit (runs 1-6 at --shift 1.0, runs 7-12 at 0.8, git revisions c01..c12 written into the store)
# gives exactly that change point in every cell, between c06 and c07, with its size and p; a flat
# store of the same kind (every run at 1.0) gives none.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

store() { # store DB SHIFT_FROM_RUN_7
    for i in $(seq 1 12); do
        local shift=1.0
        [[ $i -ge 7 ]] && shift=$2
        "$BENCH" run --suite synthetic --quiet --rounds 30 --seed $((100 + i)) --shift $shift --db "$1" >/dev/null ||
            { echo "FAIL: seeded run $i"; exit 1; }
        q "$1" "UPDATE runs SET git_sha = printf('c%02d', $i) WHERE id = $i"
    done
}
store step.db 0.8
store flat.db 1.0
cells=$(q step.db "SELECT count(*) FROM summary WHERE run_id = 1 AND impl = 'new' AND metric = 'ns_per_op'")
[[ $cells -ge 2 ]] && ok || bad "only $cells cells"

"$BENCH" history --suite synthetic --db step.db >step.txt 2>&1 || bad "history on the step store: $(cat step.txt)"
is "change points in the step store" "$(grep -c 'CHANGE' step.txt)" "$cells"
is "all between c06 and c07" "$(grep -c 'CHANGE between run 6 (git c06) and run 7 (git c07)' step.txt)" "$cells"
grep -E 'CHANGE .*\(x0\.(79|80|81)[0-9], -(19|20|21)\.[0-9] %\), p = 0\.00' step.txt >/dev/null && ok ||
    bad "shift size or p missing: $(grep CHANGE step.txt)"
# the same store, the same answer (fixed permutation seed)
"$BENCH" history --suite synthetic --db step.db >step2.txt 2>&1
cmp -s step.txt step2.txt && ok || bad "a second run differs"
# the baseline 'old' did not change
"$BENCH" history --suite synthetic --impl old --db step.db >old.txt 2>&1 || bad "history --impl old"
is "no change in old" "$(grep -c CHANGE old.txt)" 0

"$BENCH" history --suite synthetic --db flat.db >flat.txt 2>&1 || bad "history on the flat store: $(cat flat.txt)"
is "no change point in the flat store" "$(grep -c CHANGE flat.txt)" 0
is "every cell says none" "$(grep -c 'change points: none' flat.txt)" "$cells"

# git order: runs started in the reverse order of their commits; with the repository at hand
# (PB_SOURCE_ROOT) the series follows the commits, without it the start times
git init -q repo && for i in $(seq 1 12); do git -C repo -c user.name=t -c user.email=t@t commit -q --allow-empty -m "c$i"; done
cp step.db order.db
i=0
for sha in $(git -C repo rev-list --reverse HEAD); do
    i=$((i + 1))
    q order.db "UPDATE runs SET git_sha = '$sha-dirty', started_at = printf('2000-01-%02dT00:00:00Z', 13 - $i) WHERE id = $i"
done
c6=$(git -C repo rev-list --reverse HEAD | sed -n 6p | cut -c1-12)
c7=$(git -C repo rev-list --reverse HEAD | sed -n 7p | cut -c1-12)
PB_SOURCE_ROOT=$T/repo "$BENCH" history --suite synthetic --db order.db >git.txt 2>&1 || bad "history in git order"
is "git order" "$(grep -c "ordered by commit, git order" git.txt)" "$cells"
is "change in git order" "$(grep -c "CHANGE between run 6 (git $c6) and run 7 (git $c7)" git.txt)" "$cells"
PB_SOURCE_ROOT=$T/nothing "$BENCH" history --suite synthetic --db order.db >time.txt 2>&1 || bad "history in time order"
is "time order without the repository" "$(grep -c "ordered by run start time" time.txt)" "$cells"
is "change in time order" "$(grep -c "CHANGE between run 7 (git $c7) and run 6 (git $c6)" time.txt)" "$cells"

# runs of the user's code (issue 23): ordered by the user's revision in the user's repository, labelled
# by it (or its --label), whatever the lab's revision says. Three seeded runs made in the order
# c3, c1, c2 of a throw-away repository's commits: the series reads c1, c2, c3 (runs 2, 3, 1).
git init -q urepo && for i in 1 2 3; do git -C urepo -c user.name=t -c user.email=t@t commit -q --allow-empty -m "c$i"; done
for i in 1 2 3; do
    "$BENCH" run --suite synthetic --quiet --rounds 6 --seed $((200 + i)) --db user.db >/dev/null || bad "seeded user run $i"
done
u() { git -C urepo rev-parse --short=9 "HEAD~$((3 - $1))"; }
q user.db "UPDATE runs SET user_repo = '$T/urepo', started_at = printf('2000-02-%02dT00:00:00Z', id),
           user_revision = CASE id WHEN 1 THEN '$(u 3)' WHEN 2 THEN '$(u 1)-dirty' ELSE '$(u 2)' END,
           git_sha = 'c0' || id"
q user.db "UPDATE runs SET user_label = 'label-c2' WHERE id = 3"
"$BENCH" history --suite synthetic --db user.db --no-plots >user.txt 2>&1 || bad "history of user revisions: $(cat user.txt)"
is "ordered by the user's revision" "$(grep -c "ordered by your revision, git order in $T/urepo" user.txt)" "$cells"
runs_in_order() { awk '/^  run /{getline; a=$1; getline; b=$1; getline; print a, b, $1; exit}' "$1"; }
is "runs in the user's git order" "$(runs_in_order user.txt)" "2 3 1"
grep -q "^  3 *label-c2 " user.txt && ok || bad "the label is not shown: $(head -8 user.txt)"
grep -q "^  2 *$(u 1)-dirty " user.txt && ok || bad "the revision is not shown: $(head -8 user.txt)"
"$BENCH" history --suite synthetic --db user.db --out uplots >/dev/null 2>&1 || bad "history --out of user revisions"
grep -q "your revision (git order)" uplots/history_synthetic.gp && ok || bad "the plot is not labelled by your revision"
# 12 pt lettering in both terminals and the key, readable at 100 % zoom (docs/report.md)
[[ $(grep -c "font ',12'\|font 'sans,12'" uplots/history_synthetic.gp) -ge 2 ]] && grep -q "set key below font ',12'" uplots/history_synthetic.gp &&
    ok || bad "the plot's lettering is not 12 pt"
grep -q "'label-c2' 2" uplots/history_synthetic.gp && ok || bad "the plot's ticks are not your revisions"
# without the user's repository: by start time, saying why
q user.db "UPDATE runs SET user_repo = '$T/gone'"
"$BENCH" history --suite synthetic --db user.db --no-plots >user2.txt 2>&1 || bad "history without the user's repository"
is "run time without the user's repository" \
   "$(grep -c "ordered by run start time; your revisions are not all in one git history at hand" user2.txt)" "$cells"
is "runs by start time" "$(runs_in_order user2.txt)" "1 2 3"

# compare --runs across sessions (no PB_JOB_ID): UNPAIRED, labelled, the 0.8 step seen in new, none in old
"$BENCH" compare --runs 1 7 --db step.db >cmp.txt 2>&1 || bad "compare --runs 1 7: $(cat cmp.txt)"
grep -q 'UNPAIRED' cmp.txt && ok || bad "not labelled unpaired: $(cat cmp.txt)"
# columns: impl variant op size unit nA nB ratio [lo, hi] p
awk '$1 == "new" && $8 > 0.75 && $8 < 0.85 && $10 + 0 < 1 { n++ } END { exit !(n >= 2) }' cmp.txt && ok ||
    bad "new's step not found unpaired: $(cat cmp.txt)"
awk '$1 == "old" { lo = substr($9, 2) + 0; if (lo > 1 || $10 + 0 < 1) bad++ } END { exit bad }' cmp.txt &&
    ok || bad "old moved unpaired: $(cat cmp.txt)"
expect 2 "" "$BENCH" compare --runs 1 99 --db step.db

# the plots: one png and one svg per cell, listed, non-empty; --no-plots writes none
"$BENCH" history --suite synthetic --db step.db --out hplots >plots.txt 2>&1 || bad "history --out: $(cat plots.txt)"
is "plots listed" "$(grep -cE '^  hplots/history_synthetic_[0-9]+_.*\.(png|svg)$' plots.txt)" $((2 * cells))
for f in $(grep -E '^  hplots/' plots.txt); do [[ -s $f ]] && ok || bad "plot $f missing or empty"; done
grep -q "set arrow from 6.5, graph 0" hplots/history_synthetic.gp && ok || bad "the change point is not drawn at c06|c07"
"$BENCH" history --suite synthetic --db step.db --out noplots --no-plots >/dev/null 2>&1 || bad "history --no-plots"
[[ ! -e noplots ]] && ok || bad "--no-plots wrote noplots/"

# a hostile name (a variant, a git revision) could run a command in gnuplot: refused, exit 1,
# nothing runs, no plot left behind; the --out folder never reaches the script (gnuplot runs in
# the private folder the plots are made in, the script names them relative to it)
hostile_hist() { # hostile_hist DB SQL OUT
    cp step.db "$1"
    q "$1" "$2"
    expect 1 "refusing" "$BENCH" history --suite synthetic --db "$1" --out "$3"
    [[ -z $(find "$T" -name X -print -quit) ]] && ok || bad "$1: a command ran (X exists)"
    [[ -z $(find "$3" -name 'history_*' -print -quit 2>/dev/null) ]] && ok || bad "$1: plots left in $3"
}
hostile_hist hv.db "UPDATE cases SET variant = CAST(x'$(printf '%s' '`touch X`' | od -An -tx1 | tr -d ' \n')' AS TEXT)" hv
hostile_hist hg.db "UPDATE runs SET git_sha = 'c1\`touch X\`' WHERE id = 3" hg
expect 0 "plots (png and svg per cell" "$BENCH" history --suite synthetic --db step.db --out 'o`touch X`'
[[ -z $(find "$T" -name X -print -quit) ]] && ok || bad "--out: a command ran (X exists)"
grep -qF 'o`touch X`' 'o`touch X`/history_synthetic.gp' && bad "--out: the folder is in the script" || ok

# a long series (36 runs: three copies of the step store, merged under new uuids) is summed up
# per cell as its first and last run and its count, every run only with --all; the plot's x axis
# names at most 20 runs and the last
for k in 1 2 3; do
    cp step.db "copy$k.db"
    q "copy$k.db" "UPDATE runs SET uuid = uuid || '-$k', started_at = printf('2001-%02d-%s', $k, substr(started_at, 9))"
    "$BENCH" merge "copy$k.db" --into long.db >/dev/null 2>&1 || bad "merge of copy $k"
done
"$BENCH" history --suite synthetic --db long.db --out lplots >long.txt 2>&1 || bad "history of 36 runs: $(cat long.txt)"
is "36 runs summed up per cell" "$(grep -c '^  36 runs (every one with --all)$' long.txt)" "$cells"
is "its first and last run" "$(grep -cE '^  (first|last) +run [0-9]+ \(git c(01|12), ' long.txt)" $((2 * cells))
is "no run's row without --all" "$(grep -c '^  run ' long.txt)" 0
"$BENCH" history --suite synthetic --db long.db --no-plots --all >longall.txt 2>&1 || bad "history --all"
is "every run's row with --all" "$(grep -cE '^  [0-9]+ +c[0-9]{2} ' longall.txt)" $((36 * cells))
tics=$(grep -m1 'set xtics rotate' lplots/history_synthetic.gp | grep -o "' [0-9]*" | wc -l)
[[ $tics -ge 18 && $tics -le 21 ]] && ok || bad "the x axis names $tics runs of 36"
grep -m1 'set xtics rotate' lplots/history_synthetic.gp | grep -q "' 36)" && ok || bad "the last run is not named on the x axis"

expect 2 "--suite NAME is required" "$BENCH" history --db step.db
expect 2 "unknown suite" "$BENCH" history --suite nosuch --db step.db
expect 2 "no complete run" "$BENCH" history --suite synthetic --impl nosuch --db step.db
expect 2 "--metric" "$BENCH" history --suite synthetic --metric bogus --db step.db
# a name with a terminal escape, from the store or the command line, reaches stdout as text:
# its control bytes shown as '?', never the ESC that would drive the terminal
"$BENCH" run --suite synthetic --quick --quiet --rounds 6 --seed 1 --db esc.db >/dev/null || bad "seeded run"
esc=$'esc\e[31mred'
q esc.db "UPDATE cases SET impl = CAST(x'$(printf '%s' "$esc" | od -An -tx1 -v | tr -d ' \n')' AS TEXT) WHERE impl = 'new'"
"$BENCH" history --suite synthetic --impl "$esc" --db esc.db --no-plots >esc.out 2>&1 || bad "history of the escaped name: $(cat esc.out)"
if grep -q $'\e' esc.out; then bad "an ESC byte reached stdout"; else ok; fi
grep -qF 'esc?[31mred' esc.out && ok || bad "the name is not shown: $(head -3 esc.out)"
"$BENCH" compare --db esc.db --run 1 old "$esc" >cmp.out 2>&1 || bad "compare of the escaped name: $(cat cmp.out)"
if grep -q $'\e' cmp.out; then bad "compare: an ESC byte reached stdout"; else ok; fi
finish
