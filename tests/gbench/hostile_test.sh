#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hostile_test.sh BENCH HOSTILE: a Google Benchmark binary or an exec command that never answers,
# crashes or leaves a process holding its stdout is killed past --timeout (with its process
# group) and fails its own cases only; nothing waits forever. Asserts no time beyond "it ended":
# every hang is 1000 s against a 1 s limit, and the test's own meson timeout is 120 s.
. "$(dirname "$0")/../lib.sh"
bench=$1 hostile=$2
common=(--rounds 2 --layouts 1 --quiet --timeout 1)

# listing the tests: bench refuses the run before it stores anything
PB_TEST_HOSTILE=list-hang expect 2 "gbench: $hostile --benchmark_list_tests=true did not finish in 1 s" \
    "$bench" run --suite gbench --old "$hostile" --new "$hostile" "${common[@]}" --db "$T/list.db"
if [[ -e $T/list.db ]]; then bad "a refused run left a database"; else ok; fi

# a run that hangs or crashes: those cases fail, named; the run completes, exit 1
for how in run-hang run-crash leave-open; do
    db=$T/$how.db
    case $how in
    run-hang) said="did not finish in 1 s" ;;
    run-crash) said="died of signal 11" ;;
    leave-open) said="its JSON output is malformed" ;;
    esac
    PB_TEST_HOSTILE=$how expect 1 "gbench BM_a run, old: gbench: $hostile" \
        "$bench" run --suite gbench --old "$hostile" --new "$hostile" "${common[@]}" --db "$db"
    is "$how: run complete" "$(q "$db" "select status from runs")" complete
    is "$how: every case failed, with why" \
        "$(q "$db" "select count(*) from cases where status = 'unavailable' and reason like 'failed: %$said%'")" 4
done
# a good answer from the same program: complete, exit 0
expect 0 "complete" "$bench" run --suite gbench --old "$hostile" --new "$hostile" "${common[@]}" --db "$T/good.db"

# exec: a command that never ends, with and without warm-up runs
PB_TEST_HOSTILE=run-hang expect 2 "exec: --old command $hostile did not finish in 1 s" \
    "$bench" run --suite exec --old "$hostile" --new /bin/true "${common[@]}" --db "$T/exec-warm.db"
PB_TEST_HOSTILE=run-hang expect 1 "exec command run, old: exec: --old command $hostile did not finish in 1 s" \
    "$bench" run --suite exec --old "$hostile" --new "$hostile" --warmup 0 "${common[@]}" --db "$T/exec.db"
is "exec: both cases failed" "$(q "$T/exec.db" "select count(*) from cases where reason like 'failed: %did not finish%'")" 2
# a grandchild left behind is killed with its group: no process of it survives
PB_TEST_HOSTILE=leave-open "$bench" run --suite exec --old "$hostile" --new /bin/true "${common[@]}" \
    --db "$T/exec-left.db" >/dev/null 2>&1
sleep 0.5
if pgrep -f "^$hostile" >/dev/null; then bad "a grandchild of the command survived"; pkill -f "^$hostile"; else ok; fi
finish
