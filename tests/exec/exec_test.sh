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

# ---- three commands (--cmd NAME=CMD) of three cells (--param), every hook counted in files ----
# Each hook appends a line to a file of $T: --prepare before every run (1 warm-up + 4 rounds per
# command and cell), --setup and --cleanup once per cell (the commands interleave and share what
# --setup made), however many code layouts plan the run. sh is the program here: bench runs no shell of its own.
db3=$T/three.db
expect 0 "run 1 complete" "$bench" run --suite exec --cmd alpha=true --cmd 'beta=printf %s {N}' \
    --cmd 'gamma=true {N}' --param N=1,2,3 --rounds 4 --warmup 1 --counters '' --quiet --db "$db3" \
    --prepare "sh -c 'echo {N} >>$T/prepare'" --setup "sh -c 'echo {N} >>$T/setup'" \
    --cleanup "sh -c 'echo {N} >>$T/cleanup'"
is "the first command is the baseline" "$(q "$db3" "SELECT baseline || ',' || candidate FROM runs")" "alpha,beta"
is "3 commands x 3 cells" "$(q "$db3" "SELECT group_concat(impl || ':' || variant || ':' || n, ' ') FROM (SELECT impl, variant, n FROM summary WHERE metric = 'ns_per_op' ORDER BY variant, impl)")" \
    "alpha:N=1:4 beta:N=1:4 gamma:N=1:4 alpha:N=2:4 beta:N=2:4 gamma:N=2:4 alpha:N=3:4 beta:N=3:4 gamma:N=3:4"
is "ratios against the baseline, per cell" "$(q "$db3" "SELECT group_concat(candidate || '/' || baseline || ':' || variant, ' ') FROM (SELECT * FROM ratios WHERE metric = 'ns_per_op' ORDER BY variant, candidate)")" \
    "beta/alpha:N=1 gamma/alpha:N=1 beta/alpha:N=2 gamma/alpha:N=2 beta/alpha:N=3 gamma/alpha:N=3"
is "--prepare: before every run, warm-up or timed" "$(sort "$T/prepare" | uniq -c | tr -s ' ' | tr '\n' ';')" " 15 1; 15 2; 15 3;"
is "--setup: once per cell" "$(sort "$T/setup" | uniq -c | tr -s ' ' | tr '\n' ';')" " 1 1; 1 2; 1 3;"
is "--cleanup: once per cell" "$(sort "$T/cleanup" | uniq -c | tr -s ' ' | tr '\n' ';')" " 1 1; 1 2; 1 3;"
is "user and system time kept, cpu_ns their sum" \
    "$(q "$db3" "SELECT count(*) || ',' || count(user_ns) || ',' || count(sys_ns) || ',' || sum(abs(cpu_ns - user_ns - sys_ns) > 1) FROM samples")" \
    "36,36,36,0"
expect 0 "" "$bench" report --db "$db3" --out "$T/rep"
for name in alpha beta gamma N=1 N=2 N=3; do
    if grep -rqF -- "$name" "$T/rep"; then ok; else bad "the report does not mention $name"; fi
done
# the report gives hyperfine's spread of every case, as the terminal does: 9 rows of mean ± σ,
# min … max, user and system time and the samples (4 each)
is "report: the spread table's rows" "$(grep -c '^| N=[123] | run | \(alpha\|beta\|gamma\) | .* ± .* | .* … .* | .* | .* | 4 |$' "$T/rep/exec.md")" "9"
grep -qF '| time (mean ± σ) | range (min … max) | user | system | samples |' "$T/rep/exec.md" && ok ||
    bad "report: no spread table header"
is "report: the spread table's rule has its 8 columns" "$(grep -A1 -F '| time (mean ± σ) |' "$T/rep/exec.md" | tail -1)" \
    "|---|---|---|---|---|---|---|---|"

# bench gate takes the same options: its pair is the first two --cmd, and --setup/--cleanup run once
# per cell of each pass (--reruns 0: one pass); the samples keep user and system time
gdb=$T/gate.db
decided "$bench" gate --suite exec --cmd alpha=true --cmd 'beta=true {N}' --cmd gamma=true --param N=1,2 \
    --quick --reruns 0 --threshold 50% --warmup 1 --db "$gdb" \
    --setup "sh -c 'echo {N} >>$T/gsetup'" --cleanup "sh -c 'echo {N} >>$T/gcleanup'"
is "gate: the first two commands are the pair" "$(q "$gdb" "SELECT group_concat(impl, ' ') FROM (SELECT DISTINCT impl FROM cases ORDER BY impl)")" "alpha beta"
# (once per run of the cell: a cell the gate found slower is run again to confirm it, which on a
# busy machine a pair of `true`s can be)
runs_of() { q "$gdb" "SELECT count(DISTINCT run_id) FROM cases WHERE impl = 'alpha' AND variant = 'N=$1'"; }
hooks=" $(runs_of 1) 1; $(runs_of 2) 2;"
is "gate --setup: once per cell" "$(sort "$T/gsetup" | uniq -c | tr -s ' ' | tr '\n' ';')" "$hooks"
is "gate --cleanup: once per cell" "$(sort "$T/gcleanup" | uniq -c | tr -s ' ' | tr '\n' ';')" "$hooks"
is "gate samples keep user and system time" "$(q "$gdb" "SELECT count(*) > 0 AND count(*) = count(user_ns) AND count(*) = count(sys_ns) FROM samples")" "1"
expect 2 "unknown impl 'old'" "$bench" gate --suite exec --cmd a=true --cmd b=true --baseline old --quick --db "$T/no.db"
expect 0 "" "$bench" export --format csv --db "$db3" --out "$T/three.csv"
is "csv: mean, stddev, min, max, user, sys of each command's time" \
    "$(python3 -c 'import csv,sys; r=[x for x in csv.DictReader(open(sys.argv[1])) if x["metric"] == "ns_per_op"]
print(len(r), sorted({x["impl"] for x in r}), sorted({x["variant"] for x in r}),
      all(float(x["min"]) <= float(x["mean"]) <= float(x["max"]) and float(x["stddev"]) >= 0 and
          float(x["user"]) >= 0 and float(x["sys"]) >= 0 for x in r))' "$T/three.csv")" \
    "9 ['alpha', 'beta', 'gamma'] ['N=1', 'N=2', 'N=3'] True"
expect 0 "" "$bench" export --format json --db "$db3" --out "$T/three.json"
# the samples' mean user time (to 1e-12: the sqlite3 program may sum in another order than bench)
want=$(q "$db3" "SELECT printf('%.17g', min(u)) FROM (SELECT avg(s.user_ns / s.iterations) u FROM samples s JOIN cases c ON c.id = s.case_id GROUP BY c.id)")
is "json: user and sys per op, the samples' mean" \
    "$(python3 -c 'import json,sys; s=[x for x in json.load(open(sys.argv[1]))["stats"] if x["metric"] == "ns_per_op"]
u=min(x["user"] for x in s); print(len(s), all(x["sys"] is not None for x in s), abs(u - float(sys.argv[2])) <= 1e-12 * max(abs(u), 1))' "$T/three.json" "$want")" \
    "9 True True"
# what bench run prints after the run, hyperfine's figures per command (the values are not checked)
out=$("$bench" run --suite exec --cmd one=true --cmd two=true --rounds 3 --warmup 1 --counters '' --quiet --db "$T/pr.db" 2>&1)
for want in "Time (mean ± σ)" "Range (min … max)" "User: " "System: " "Ratio two/one (paired by round)" "3 runs"; do
    if [[ $out == *"$want"* ]]; then ok; else bad "bench run's figures lack '$want': $out"; fi
done

# {N} is replaced inside a word, by the value as written: no shell, no splitting, no globbing
expect 0 "complete" "$bench" run --suite exec --cmd 'a=test x{N}y = x$HOMEy' --cmd 'b=test {N} = $HOME' \
    --param 'N=$HOME' --rounds 2 --warmup 1 --counters '' --quiet --db "$T/sub.db"
expect 0 "complete" "$bench" run --suite exec --cmd 'a=test {N} = *' --cmd 'b=test {N}{N} = **' \
    --param 'N=*' --rounds 2 --warmup 1 --counters '' --quiet --db "$T/sub.db"
# a second --param: one cell per pair of values, the first parameter's outer
expect 0 "complete" "$bench" run --suite exec --cmd 'a=test {N}{M} = {N}{M}' --cmd 'b=test x{M} = x{M}' \
    --param N=1,2 --param M=x,y,z --rounds 2 --warmup 1 --counters '' --quiet --db "$T/two.db"
is "2 x 3 cells" "$(q "$T/two.db" "SELECT group_concat(variant, ' ') FROM (SELECT DISTINCT variant FROM cases ORDER BY id)")" \
    "N=1,M=x N=1,M=y N=1,M=z N=2,M=x N=2,M=y N=2,M=z"
expect 2 "--param N given twice" "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param N=1 --param N=2 --db "$T/no.db"
expect 2 "--param: at most 2 parameters" "$bench" run --suite exec --cmd 'a=echo {N}{M}{K}' --cmd b=true --param N=1 \
    --param M=1 --param K=1 --db "$T/no.db"
expect 2 "--param M: no command uses {M}" "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param N=1 --param M=1 --db "$T/no.db"
expect 2 "unknown placeholder {K} (the parameter is {N} or {M};" \
    "$bench" run --suite exec --cmd 'a=echo {N}{M}{K}' --cmd b=true --param N=1 --param M=1 --db "$T/no.db"
# --prepare alone (the warm-ups in the plan): once before each run, not once per code layout's plan
expect 0 "complete" "$bench" run --suite exec --old true --new true --rounds 3 --warmup 2 --counters '' --quiet \
    --prepare "sh -c 'echo x >>$T/prep2'" --db "$T/sub.db"
is "--prepare with --old/--new: (2 warm-ups + 3 rounds) x 2" "$(wc -l <"$T/prep2")" "10"

# --check-output: the same stdout passes; different text is refused before anything is stored
expect 0 "complete" "$bench" run --suite exec --cmd 'a=printf same' --cmd 'b=printf %s same' --check-output \
    --rounds 2 --warmup 1 --counters '' --quiet --db "$T/sub.db"
expect 2 "--check-output: --cmd b printed other output than --cmd a (3 bytes against 3" \
    "$bench" run --suite exec --cmd 'a=printf one' --cmd 'b=printf two' --check-output --db "$T/no.db"
expect 2 "--check-output: --cmd c printed other output than --cmd a (N=2)" \
    "$bench" run --suite exec --cmd 'a=printf {N}' --cmd 'b=printf {N}' --cmd 'c=printf 1' --param N=1,2 \
    --check-output --db "$T/no.db"
expect 2 "--check-output compares the warm-up runs: not with --warmup 0" \
    "$bench" run --suite exec --cmd a=true --cmd b=true --check-output --warmup 0 --db "$T/no.db"

# every refusal names the option at fault, exit 2, and stores nothing
expect 2 "--cmd: bad NAME 'a b'" "$bench" run --suite exec --cmd 'a b=true' --cmd c=true --db "$T/no.db"
expect 2 "--cmd: bad NAME 'x@y'" "$bench" run --suite exec --cmd 'x@y=true' --cmd c=true --db "$T/no.db"
expect 2 "--cmd: bad NAME ''" "$bench" run --suite exec --cmd '=true' --cmd c=true --db "$T/no.db"
expect 2 "--cmd: NAME 'a' given twice" "$bench" run --suite exec --cmd a=true --cmd a=false --db "$T/no.db"
expect 2 "--cmd wants NAME=CMD, got 'true'" "$bench" run --suite exec --cmd true --cmd b=true --db "$T/no.db"
expect 2 "--cmd a needs a command" "$bench" run --suite exec --cmd a= --cmd b=true --db "$T/no.db"
expect 2 "--old: not with --cmd" "$bench" run --suite exec --cmd a=true --old true --db "$T/no.db"
expect 2 "--cmd: not with --old/--new" "$bench" run --suite exec --new true --cmd a=true --db "$T/no.db"
expect 2 "or two or more --cmd NAME=CMD" "$bench" run --suite exec --cmd a=true --db "$T/no.db"
expect 2 "--cmd a: unknown placeholder {X} (the parameter is {N};" \
    "$bench" run --suite exec --cmd 'a=echo {X}' --cmd 'b=echo {N}' --param N=1 --db "$T/no.db"
# without --param a brace is a plain character, as it was before there were parameters
expect 0 "complete" "$bench" run --suite exec --cmd 'a=test {N} = {N}' --cmd "b=awk 'BEGIN {exit}'" \
    --rounds 2 --warmup 1 --counters '' --quiet --db "$T/sub.db"
expect 2 "--setup: unknown placeholder {M}" \
    "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param N=1 --setup 'echo {M}' --db "$T/no.db"
expect 2 "--param N: no command uses {N}" "$bench" run --suite exec --cmd a=true --cmd b=true --param N=1,2 --db "$T/no.db"
expect 2 "--param N: value '1' given twice" "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param N=1,2,1 --db "$T/no.db"
expect 2 "--param N: an empty value" "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param N=1,,2 --db "$T/no.db"
expect 2 "--param N: value 'a b' holds a space" "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param 'N=a b' --db "$T/no.db"
expect 2 "--param: bad NAME '1N'" "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param 1N=2 --db "$T/no.db"
expect 2 "--param wants NAME=V1,V2" "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param N --db "$T/no.db"
expect 2 "--cmd b: 'no-such-command-pb-1' is not in \$PATH" \
    "$bench" run --suite exec --cmd 'a=echo {N}' --cmd 'b=no-such-command-pb-{N}' --param N=1 --db "$T/no.db"
expect 2 "--prepare (for command a) command" "$bench" run --suite exec --cmd a=true --cmd b=true --prepare false --db "$T/no.db"
expect 2 "exited with status 1" "$bench" run --suite exec --cmd a=true --cmd b=true --prepare false --db "$T/no.db"
if [[ -e $T/no.db ]]; then bad "a refused run left a database"; else ok; fi
# a failing --setup refuses the run when its cell comes: the run is stored failed, with why, and
# none of the cell's samples (a failing --cleanup only warns: hooks_test.sh)
expect 2 "--setup (N=1) command" \
    "$bench" run --suite exec --cmd 'a=echo {N}' --cmd b=true --param N=1 --setup 'sh -c "exit 3"' --db "$T/hook.db"
is "failed hook: run failed, nothing of its cell stored" \
    "$(q "$T/hook.db" "SELECT group_concat(status, ',') || ';' || (SELECT count(*) FROM samples) || ';' || (SELECT count(*) FROM cases) FROM runs")" \
    "failed;0;0"
is "the reason names the hook and its status" \
    "$(q "$T/hook.db" "SELECT count(*) FROM runs WHERE status_reason LIKE '%--setup (N=1) command%exited with status 3%'")" "1"
finish
