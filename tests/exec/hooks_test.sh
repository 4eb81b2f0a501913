#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hooks_test.sh BENCH: exec's --check-output over every byte of the output, --setup/--cleanup once
# per cell (hyperfine's cp/rm case) with a failing --cleanup only warned about, and a one-command
# --param scan (hyperfine -L). Only what is stored and refused is checked, never a time.
. "$(dirname "$0")/../lib.sh"
bench=$1
quick=(--rounds 3 --warmup 1 --counters '' --quiet)
runs() { q "$1" "SELECT group_concat(status, ',') || ';' || (SELECT count(*) FROM samples) FROM runs"; }

# ---- --check-output hashes every byte: outputs that differ only after a NUL are not the same ----
# (printf's \0 in single quotes: bench splits without a shell, printf writes the NUL)
expect 2 "--check-output: --cmd b printed other output than --cmd a (5 bytes against 5, SHA-256 differs)" \
    "$bench" run --suite exec --cmd "a=printf 'abc\0X'" --cmd "b=printf 'abc\0Y'" --check-output "${quick[@]}" \
    --db "$T/no.db"
expect 2 "--check-output: --cmd b printed other output than --cmd a (6 bytes against 5" \
    "$bench" run --suite exec --cmd "a=printf 'abc\0X'" --cmd "b=printf 'abc\0XY'" --check-output "${quick[@]}" \
    --db "$T/no.db"
if [[ -e $T/no.db ]]; then bad "a refused --check-output run left a database"; else ok; fi
# the same binary output, by two programs, passes
head -c 4096 /dev/urandom >"$T/data.bin"
printf 'x\0y\0\0z' >>"$T/data.bin"
expect 0 "complete" "$bench" run --suite exec --cmd "a=cat $T/data.bin" --cmd "b=head -c 1000000 $T/data.bin" \
    --check-output "${quick[@]}" --db "$T/bin.db"
is "equal binary outputs: run complete, samples stored" "$(runs "$T/bin.db")" "complete;6"

# ---- hyperfine's --setup 'cp data.bin tmp.bin' --cleanup 'rm tmp.bin' ----
# once per cell, not per command: the commands interleave and share the copy; the second rm of a
# cleanup per command would find the file gone and lose the run
expect 0 "complete" "$bench" run --suite exec --cmd "a=cat $T/tmp.bin" --cmd "b=wc -c $T/tmp.bin" \
    --cmd "c=head -c {N} $T/tmp.bin" --param N=1,2 --setup "cp $T/data.bin $T/tmp.bin" --cleanup "rm $T/tmp.bin" \
    "${quick[@]}" --db "$T/cp.db"
is "cp/rm: run complete, every sample stored (3 commands x 2 cells x 3 rounds)" "$(runs "$T/cp.db")" "complete;18"
if [[ -e $T/tmp.bin ]]; then bad "--cleanup did not remove the copy"; else ok; fi
# in two passes of the cell: --setup and --cleanup once per pass, in pairs
expect 0 "complete" "$bench" run --suite exec --cmd "a=cat $T/tmp.bin" --cmd "b=wc -c $T/tmp.bin" --passes 2 \
    --setup "cp $T/data.bin $T/tmp.bin" --cleanup "rm $T/tmp.bin" --rounds 4 --warmup 1 --counters '' --quiet \
    --db "$T/cp2.db"
is "cp/rm in two passes: run complete" "$(runs "$T/cp2.db")" "complete;8"

# ---- a failing --cleanup warns and the finished run is stored whole ----
out=$("$bench" run --suite exec --cmd a=true --cmd b=true --cleanup false "${quick[@]}" --db "$T/cl.db" 2>&1)
rc=$?
is "failing --cleanup: exit status" "$rc" "0"
[[ $out == *"bench: warning: exec: --cleanup command "*"false exited with status 1 (the cell's samples are kept)"* ]] &&
    ok || bad "failing --cleanup: no warning on stderr: $out"
is "failing --cleanup: run complete, samples stored" "$(runs "$T/cl.db")" "complete;6"
# a warm-up that fails after --setup refuses the cell, and --cleanup still tidies up
expect 2 "--cmd b command" "$bench" run --suite exec --cmd "a=cat $T/tmp.bin" --cmd b=false \
    --setup "cp $T/data.bin $T/tmp.bin" --cleanup "rm $T/tmp.bin" "${quick[@]}" --db "$T/wf.db"
if [[ -e $T/tmp.bin ]]; then bad "a refused cell left what --setup made"; else ok; fi

# ---- one --cmd with --param: each value an impl P-V, against the first value ----
expect 0 "complete" "$bench" run --suite exec --cmd 'w=/bin/sleep {S}' --param S=0,0.0,0.00 "${quick[@]}" \
    --prepare "sh -c 'echo {S} >>$T/prep'" --db "$T/scan.db"
is "scan: the first value is the baseline, the second the candidate" \
    "$(q "$T/scan.db" "SELECT baseline || ',' || candidate || ',' || status FROM runs")" "S-0,S-0.0,complete"
is "scan: one cell, an impl per value" \
    "$(q "$T/scan.db" "SELECT group_concat(variant || ':' || impl || ':' || n, ' ') FROM (SELECT variant, impl, n FROM summary WHERE metric = 'ns_per_op' ORDER BY impl)")" \
    "command:S-0:3 command:S-0.0:3 command:S-0.00:3"
is "scan: every value against the first" \
    "$(q "$T/scan.db" "SELECT group_concat(candidate || '/' || baseline, ' ') FROM (SELECT * FROM ratios WHERE metric = 'ns_per_op' ORDER BY candidate)")" \
    "S-0.0/S-0 S-0.00/S-0"
is "scan: --prepare gets each impl's value (1 warm-up + 3 rounds each)" \
    "$(sort "$T/prep" | uniq -c | tr -s ' ' | tr '\n' ';')" " 4 0; 4 0.0; 4 0.00;"
# a second --param makes the cells
expect 0 "complete" "$bench" run --suite exec --cmd 't=true {N} {M}' --param N=1,2 --param M=x,y "${quick[@]}" \
    --db "$T/scan2.db"
is "scan of two parameters: the first's values the impls, the second's the cells" \
    "$(q "$T/scan2.db" "SELECT group_concat(variant || ':' || impl, ' ') FROM (SELECT DISTINCT variant, impl FROM cases ORDER BY variant, impl)")" \
    "M=x:N-1 M=x:N-2 M=y:N-1 M=y:N-2"
# the gate pairs the first two values
decided "$bench" gate --suite exec --cmd 't=true {N}' --param N=1,2,3 --quick --reruns 0 --threshold 50% \
    --warmup 1 --db "$T/gate.db"
is "scan gate: the pair is the first two values" \
    "$(q "$T/gate.db" "SELECT group_concat(impl, ' ') FROM (SELECT DISTINCT impl FROM cases ORDER BY impl)")" "N-1 N-2"
# refused, exit 2, naming the option, nothing stored
expect 2 "--param N: one value; one --cmd with --param compares each value against the first" \
    "$bench" run --suite exec --cmd 't=true {N}' --param N=1 --db "$T/no.db"
expect 2 "--param N: value 'a/b' cannot name an impl" \
    "$bench" run --suite exec --cmd 't=true {N}' --param N=a/b,c --db "$T/no.db"
expect 2 "--param N: --cmd t does not use {N}" \
    "$bench" run --suite exec --cmd 't=true {M}' --param N=1,2 --param M=1,2 --db "$T/no.db"
expect 2 "--setup: {N} differs by impl" \
    "$bench" run --suite exec --cmd 't=true {N}' --param N=1,2 --setup 'true {N}' --db "$T/no.db"
expect 2 "or two or more --cmd NAME=CMD, or one with --param" "$bench" run --suite exec --cmd t=true --db "$T/no.db"
if [[ -e $T/no.db ]]; then bad "a refused run left a database"; else ok; fi
finish
