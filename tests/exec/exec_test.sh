#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# exec_test.sh BENCH: the exec suite. Only what is stored and refused is checked, never a time.
. "$(dirname "$0")/../lib.sh"
bench=$1
db=$T/ex.db

# the words reach the program as written: quotes group, nothing is expanded (no shell)
check_args='sh -c '\''[ "$1" = "a b" ] && [ "$2" = "\$HOME" ] && [ "$3" = "*" ] && [ "$4" = "x|y" ]'\'' sh "a b" $HOME * x|y'
expect 0 "complete" "$bench" run --suite exec --old "$check_args" --new true --bytes 4096 --rounds 5 \
    --warmup 1 --counters '' --quiet --db "$db"
is "samples" "$(q "$db" "select group_concat(impl || ':' || n, ' ') from (select impl, n from summary where metric = 'ns_per_op' order by impl)")" "new:5 old:5"
is "one process per sample" "$(q "$db" "select min(iterations) || '-' || max(iterations) from samples")" "1-1"
is "per-byte figure" "$(q "$db" "select count(*) from summary where metric = 'mb_per_s'")" 2

# the run's header says what a sample is (a process, not "0.5 ms samples"); a cell without a
# size is named without one ("exec command run", never "... run 0 B")
"$bench" run --suite exec --old true --new true --rounds 3 --warmup 1 --counters '' --db "$T/hdr.db" >"$T/hdr.out" 2>&1 ||
    bad "header run: $(cat "$T/hdr.out")"
grep -q 'a sample is one process of the command, timed from posix_spawn to reaped' "$T/hdr.out" && ok ||
    bad "the header does not say what a sample is: $(cat "$T/hdr.out")"
grep -qE 'ms samples| 0 B' "$T/hdr.out" && bad "a loop's sample length or 0 B: $(cat "$T/hdr.out")" || ok
grep -q 'exec command run:' "$T/hdr.out" && ok || bad "the cell's progress line: $(cat "$T/hdr.out")"

expect 2 "/false exited with status 1" \
    "$bench" run --suite exec --old false --new true --db "$T/no.db"
expect 2 "/sh died of signal 9" \
    "$bench" run --suite exec --old true --new 'sh -c "kill -9 $$"' --db "$T/no.db"
expect 2 "only the --new command writes to stderr" \
    "$bench" run --suite exec --old true --new 'sh -c "echo oops >&2"' --db "$T/no.db"
expect 2 "--old: unterminated ' quote" "$bench" run --suite exec --old "echo 'x" --new true --db "$T/no.db"
expect 2 "--new: 'no-such-command-pb' is not in \$PATH" \
    "$bench" run --suite exec --old true --new no-such-command-pb --db "$T/no.db"
expect 2 "give both --old CMD and --new CMD" "$bench" run --suite exec --old true --db "$T/no.db"
if [[ -e $T/no.db ]]; then bad "a refused run left a database"; else ok; fi
finish
