#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# vg_user_counts_test.sh BENCH GB GB_2PCT GB_SAME WORK WORK_2PCT WORK_SAME VAES FAKE_GB — counts of the
# user's code under callgrind (issue 45): a Google Benchmark binary (GB's State loop of its reported
# run over its iterations) and a command (the whole process), each against a build with 2 % more work
# (the count gate: exit 1) and a second build of the same source (exit 0); stored as the lab's count
# runs are (stats rows of source valgrind), gated on two stored runs, exported, read by bench history.
# Refused with exit 2, the program named and nothing stored: valgrind missing, a binary that lists no
# benchmark, a static program valgrind cannot run, a program without GB's State loop. Counts are
# deterministic: no time is asserted.
BENCH=$1 GB=$2 GB_2PCT=$3 GB_SAME=$4 WORK=$5 WORK_2PCT=$6 WORK_SAME=$7 VAES=$8 FAKE_GB=$9
source "$(dirname "$0")/../lib.sh"
export TMPDIR=$T
# one benchmark of the two, at GB's shortest --min-time here: bench makes the counted run longer itself
GBOPT=(--filter 'BM_mix/4' --min-time 0.01 --quiet)

# refusals before valgrind runs: no benchmark listed, no valgrind on PATH
expect 2 "gbench: /bin/true and /bin/true have no benchmark in common" \
    "$BENCH" run --suite gbench --old /bin/true --new /bin/true --measure valgrind --quiet --db "$T/no.db"
mkdir "$T/nobin"
expect 2 "cannot count the exec suite's programs: valgrind is not on PATH" \
    env PATH="$T/nobin" "$BENCH" run --suite exec --old "$WORK" --new "$WORK_2PCT" --measure valgrind --quiet --db "$T/no.db"
expect 2 "cannot count the gbench suite's programs: valgrind is not on PATH" \
    env PATH="$T/nobin" "$BENCH" gate --suite gbench --old "$GB" --new "$GB_2PCT" --measure valgrind "${GBOPT[@]}" --db "$T/no.db"

skip_unless_valgrind "the counts of a Google Benchmark binary and of a command"

# the count gate, claim form: old and new builds counted side by side
expect 1 "regression" "$BENCH" gate --suite gbench --old "$GB" --new "$GB_2PCT" --measure valgrind "${GBOPT[@]}" --db "$T/g.db"
expect 0 "pass" "$BENCH" gate --suite gbench --old "$GB" --new "$GB_SAME" --measure valgrind "${GBOPT[@]}" --db "$T/g.db"
is "the count gate's ratio of the 2 % build" \
   "$(q "$T/g.db" "SELECT printf('%.3f', ratio) FROM comparison_cells WHERE comparison_id = 1")" "1.020"
is "and of the same source built again" \
   "$(q "$T/g.db" "SELECT printf('%.4f', ratio) FROM comparison_cells WHERE comparison_id = 2")" "1.0000"
expect 1 "regression" "$BENCH" gate --suite exec --old "$WORK" --new "$WORK_2PCT" --measure valgrind --quiet --db "$T/e.db"
expect 0 "pass" "$BENCH" gate --suite exec --old "$WORK" --new "$WORK_SAME" --measure valgrind --quiet --db "$T/e.db"

# bench run: stored as a count run (target valgrind, stats rows of source valgrind), the warning on
# what Valgrind hides beside it where it hides something here
out=$("$BENCH" run --suite gbench --old "$GB" --new "$GB" --measure valgrind "${GBOPT[@]}" --db "$T/r.db" 2>&1)
[[ $out == *"run 1 complete (suite gbench, measure valgrind)"* ]] && ok || bad "gbench count run: $out"
if [[ $out == *"Valgrind hides CPU features"* ]]; then
    [[ $out == *"bench: warning: not comparable with wall-time rows"* ]] && ok || bad "no warning: $out"
fi
expect 0 "run 2 complete" "$BENCH" run --suite gbench --old "$GB" --new "$GB_2PCT" --measure valgrind "${GBOPT[@]}" --db "$T/r.db"
is "runs of target valgrind" "$(q "$T/r.db" "SELECT group_concat(target) FROM runs")" "valgrind,valgrind"
is "per-op counts stored per impl and run" \
   "$(q "$T/r.db" "SELECT count(*) FROM stats WHERE metric = 'insns_per_op' AND source = 'valgrind'")" "4"
is "the work: 4 x 5000 multiply-adds of about 4 instructions each" \
   "$(q "$T/r.db" "SELECT count(*) FROM summary WHERE metric = 'insns_per_op' AND median BETWEEN 20000 AND 20100 AND run_id = 1")" "2"
# the count gate, commit form, on the two stored runs: new regressed, old did not
out=$("$BENCH" gate --suite gbench --measure valgrind --baseline-runs 1 --candidate-runs 2 --db "$T/r.db" 2>&1)
rc=$?
is "commit gate on stored counts: exit" "$rc" "1"
[[ $out =~ new\ +BM_mix/4/real_time.*regression && $out =~ old\ +BM_mix/4/real_time.*pass ]] && ok || bad "commit gate: $out"
# exports carry the counts as they do a lab suite's count run
out=$("$BENCH" export --format csv --run 2 --db "$T/r.db" 2>&1)
[[ $out == *"2,gbench,new,BM_mix/4/real_time,run,0,insns_per_op,insns/op,1,204"* ]] && ok || bad "export: $out"
# history follows the count series (target valgrind)
out=$("$BENCH" history --suite gbench --metric insns_per_op --no-plots --db "$T/r.db" 2>&1)
[[ $out == *"every complete valgrind run"* && $out == *BM_mix/4/real_time* ]] && ok || bad "history: $out"

# exec: the whole process, one op per run
expect 0 "complete" "$BENCH" run --suite exec --old "$WORK" --new "$WORK_2PCT" --measure valgrind --quiet --db "$T/x.db"
is "exec: new over old, 2 % of the work plus the program's start" \
   "$(q "$T/x.db" "SELECT printf('%.2f', estimate) FROM ratios WHERE metric = 'insns_per_op'")" "1.02"

# refusals under valgrind: a static program valgrind cannot run, a program without GB's State loop
expect 2 "cannot count $VAES (new, command) under valgrind" \
    "$BENCH" run --suite exec --old "$WORK" --new "$VAES" --measure valgrind --quiet --db "$T/no.db"
expect 2 "signal 4" "$BENCH" run --suite exec --old "$WORK" --new "$VAES" --measure valgrind --quiet --db "$T/no.db"
printf '#!/bin/bash\nexec %q 100 100 /dev/null "$@"\n' "$FAKE_GB" >"$T/fake_gb"
chmod +x "$T/fake_gb"
expect 2 "cannot count $T/fake_gb (old, BM_copy/64): callgrind dumped nothing at the end of a Google Benchmark State loop" \
    "$BENCH" run --suite gbench --old "$T/fake_gb" --new "$T/fake_gb" --measure valgrind --quiet --db "$T/no.db"
[[ ! -e $T/no.db ]] && ok || bad "a refused count made a store"
[[ -z $(ls "$T" | grep pb-valgrind) ]] && ok || bad "a count left its dumps behind"
finish
