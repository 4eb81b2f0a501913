#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# vg_external_test.sh BENCH GB_OLD GB_NEW XTS_PLUGIN — --measure valgrind on suites whose cases are
# other programs (gbench, exec): their programs are counted in their own processes (issue 45;
# vg_user_counts_test.sh), while the child under valgrind, which counts bench's own process, still
# refuses them, never crashes (it called a NULL body: signal 11). And the suite options reach the
# valgrind child word by word: a value with a space in it (exec's command, a plug-in's path) is no
# longer cut into "unexpected argument"s. Counts only, no time asserted.
BENCH=$1 GB_OLD=$2 GB_NEW=$3 PLUGIN=$4
source "$(dirname "$0")/../lib.sh"
WHY="cases run another program and time it from outside"

skip_unless_valgrind "the valgrind child and its plug-in count"

# exec's commands, words with spaces and all, counted whole (issue 45: no longer refused)
expect 0 "run 1 complete (suite exec, measure valgrind)" "$BENCH" run --suite exec --old 'true a b' --new 'true c' \
    --measure valgrind --quiet --db "$T/e.db"
out=$("$BENCH" run --suite exec --old 'true a b' --new 'true c' --measure valgrind --quiet --db "$T/e.db" 2>&1)
[[ $out == *"unexpected argument"* ]] && bad "exec's command was split again: $out" || ok

# the child itself, started as the parent starts it: refuses, exit 2, no signal
mkdir "$T/child"
expect 2 "the gbench suite's $WHY" valgrind -q --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$T/child/cg.out" "$BENCH" run --suite gbench --old "$GB_OLD" --new "$GB_NEW" \
    --vg-child "$T/child" --vg-reps 1 --quiet

# a plug-in in a folder with a space in its name: counted, its path whole in the child
mkdir "$T/with space"
cp "$PLUGIN" "$T/with space/w.so"
expect 0 "run 1 complete (suite xts, measure valgrind)" "$BENCH" run --suite xts --plugin "window=$T/with space/w.so" \
    --impl old,window --keys 256 --sizes 512 --child-call-cost 0 --measure valgrind --quiet --db "$T/x.db"
is "the plug-in's cases were counted" "$(q "$T/x.db" "SELECT count(*) FROM cases WHERE impl = 'window' AND status = 'ok'")" 2
is "its count ratio against old" "$(q "$T/x.db" "SELECT count(*) FROM ratios WHERE candidate = 'window' AND metric = 'insns_per_op'")" 2
finish
