#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# limits_test.sh BENCH: exec's limits as docs/cage.md documents them (issue 43, item 3). One rule
# for every run, warm-up or timed, whose limit the message names; a stopped command killed as a
# hung one is; nothing a command starts outlives bench, whether it left its process group or its
# session; a command's output never held in memory. No time is asserted: every hang is 30 s
# against a limit of 1-2 s, under `timeout 25` that must not fire, and the memory figure is bench's
# peak RSS, not a time.
. "$(dirname "$0")/../lib.sh"
bench=$1
common=(--rounds 2 --counters '' --quiet)
# run CODE PATTERN bench-args...: bench under `timeout 25` (124 would be a hang)
run() {
    local code=$1 pat=$2
    shift 2
    expect "$code" "$pat" timeout 25 "$bench" run --suite exec "${common[@]}" "$@"
}
failed_cases() { q "$1" "select count(*) from cases where status = 'unavailable' and reason like 'failed: %$2%'"; }

# --warmup 0 --timeout 2: the sample is killed at 2 s (it was 600 s), and the message says 2 s
run 1 "did not finish in 2 s" --old true --new 'sleep 30' --warmup 0 --timeout 2 --db "$T/w0.db"
is "--warmup 0 --timeout 2: the case failed, with the limit" "$(failed_cases "$T/w0.db" 'did not finish in 2 s')" 1

# no --timeout and no warm-up: the first sample has nothing to go by, the next ones have it (10 x
# the slowest earlier run, at least 1 s): a command that hangs on its second run is killed in
# seconds, and the message names the limit applied, not 600 s
flag=$T/ran-once
run 1 "exec command run, new: exec: --new command " \
    --old true --new "sh -c 'if [ -e $flag ]; then exec sleep 30; fi; : >$flag'" --warmup 0 --db "$T/rule.db"
said=$(q "$T/rule.db" "select reason from cases where status = 'unavailable'")
[[ $said =~ did\ not\ finish\ in\ ([0-9.]+)\ s ]] && ok || bad "the limit is not named: '$said'"
lim=${BASH_REMATCH[1]:-600}
awk -v l="$lim" 'BEGIN { exit !(l >= 1 && l < 25) }' && ok || bad "the limit applied is $lim s"

# a warm-up runs under the same rule: --timeout 2 kills it, the run is refused (exit 2)
run 2 "sleep did not finish in 2 s" --old true --new 'sleep 30' --timeout 2 \
    --warmup 1 --db "$T/warm.db"

# a command that stops itself is killed at the limit as a running one is, warm-up or timed
run 1 "sh did not finish in 2 s" \
    --old true --new "sh -c 'kill -STOP \$\$'" --warmup 0 --timeout 2 --db "$T/stop.db"
is "a stopped command's case failed" "$(failed_cases "$T/stop.db" 'did not finish in 2 s')" 1
run 2 "sh did not finish in 2 s" \
    --old true --new "sh -c 'kill -STOP \$\$'" --warmup 1 --timeout 2 --db "$T/stop-warm.db"

# nothing a command starts survives bench: a process in a group of its own (set -m), one in a
# session of its own (setsid), a daemon's double fork after setsid; each marked by a sleep of its
# own length, which no other process on the machine has
m1=300.1$$ m2=300.2$$ m3=300.3$$ m4=300.4$$
run 0 "" --old "sh -c 'exec 2>/dev/null; set -m; sleep $m1 & true'" --new "sh -c 'setsid sleep $m2 & true'" --warmup 1 \
    --db "$T/escape.db"
run 0 "" --old true --new "sh -c '(setsid sh -c \"sleep $m3 >/dev/null 2>&1 </dev/null & exit\" &); true'" \
    --warmup 1 --db "$T/daemon.db"
# and when the command is killed at its limit
run 1 "did not finish in 2 s" --old true --new "sh -c 'setsid sleep $m4 & exec sleep 30'" --warmup 0 \
    --timeout 2 --db "$T/escape-hung.db"
for m in $m1 $m2 $m3 $m4; do
    if pgrep -f "sleep $m" >/dev/null; then bad "sleep $m outlived bench"; pkill -f "sleep $m"; else ok; fi
done

# output is never held: 1.5 GB of stderr (counted, as the refusal shows) and 200 MB of stdout under
# --check-output (hashed as it comes, every byte: the last one differs) in bench's peak RSS, under
# 100 MB; the peak of bench and of the commands it waited for, whichever is larger
peak_kb() {
    python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
sys.stderr.buffer.write(r.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@" 2>"$T/peak.err"
}
# (bench's RSS alone would miss a memory file: the command also checks that what its stderr is
# holds under 100 MB, exiting 1 if not)
kb=$(peak_kb "$bench" run --suite exec "${common[@]}" --old true --warmup 1 \
    --new "sh -c 'head -c 1500000000 /dev/zero >&2; test \$(stat -L -c %s /proc/self/fd/2) -lt 100000000'" \
    --db "$T/stderr.db")
grep -qF "only the --new command writes to stderr (1500000000 bytes in 1 warm-up runs)" "$T/peak.err" && ok ||
    bad "1.5 GB of stderr: $(head -c 2000 "$T/peak.err")"
((kb < 100 * 1024)) && ok || bad "1.5 GB of stderr: bench's peak RSS is $kb KiB"
kb=$(peak_kb "$bench" run --suite exec "${common[@]}" --warmup 1 --check-output \
    --old "sh -c 'head -c 200000000 /dev/zero; printf x'" --new "sh -c 'head -c 200000000 /dev/zero; printf y'" \
    --db "$T/stdout.db")
grep -qF "printed other output than --old (200000001 bytes against 200000001, SHA-256 differs)" "$T/peak.err" && ok ||
    bad "200 MB of stdout: $(head -c 2000 "$T/peak.err")"
((kb < 100 * 1024)) && ok || bad "200 MB of stdout: bench's peak RSS is $kb KiB"
finish
