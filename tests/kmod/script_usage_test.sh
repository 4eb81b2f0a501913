#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Usage errors of run-qemu.sh and run-host.sh: exit 2 and a message naming the
# problem, before anything is installed, built or loaded.
set -euo pipefail
root=${PB_SOURCE_ROOT:?set PB_SOURCE_ROOT to the source tree}
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect SCRIPT 'MESSAGE' ARGS...: exit 2 and MESSAGE on stderr.
expect() {
	local script=$1 msg=$2 rc=0 err
	shift 2
	err=$(bash "$root/scripts/kmod/$script" "$@" 2>&1 >/dev/null) || rc=$?
	((rc == 2)) || fail "$script $*: exit $rc, want 2"
	[[ $err == *"$msg"* ]] || fail "$script $*: message '$err' lacks '$msg'"
}

for s in run-qemu.sh run-host.sh; do
	expect "$s" '--out FILE is required'
	expect "$s" 'unknown option: --bogus' --out /dev/null --bogus
	expect "$s" "not a number: 'x'" --out /dev/null --rounds x
	expect "$s" '--rounds must be at least 1' --out /dev/null --rounds 0
done
expect run-qemu.sh "--kernel must be bookworm or bpo, not 'sid'" --out /dev/null --kernel sid
expect run-qemu.sh "--timeout: not a number" --out /dev/null --timeout soon
help=$(bash "$root/scripts/kmod/run-qemu.sh" --help)
[[ $help == "usage: run-qemu.sh"* ]] || fail "--help"
echo OK
