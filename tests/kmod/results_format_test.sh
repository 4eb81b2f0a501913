#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# pbk_finalize (scripts/kmod/common.sh): what reaches the results file from a
# guest's raw output, and which raw outputs are refused with which exit code.
set -euo pipefail
root=${PB_SOURCE_ROOT:?set PB_SOURCE_ROOT to the source tree}
PBK_PROG=results_format_test
# shellcheck source=scripts/kmod/common.sh
source "$root/scripts/kmod/common.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect CODE NAME: pbk_finalize on $tmp/NAME.raw must return/exit with CODE.
expect() {
	local want=$1 name=$2 got=0
	(pbk_finalize "$tmp/$name.raw" "$tmp/$name.out" target=test) 2>"$tmp/$name.err" || got=$?
	((got == want)) || fail "$name: exit $got, want $want ($(cat "$tmp/$name.err"))"
}

good=$'pbk1 meta kernel=6.1.0-57-amd64\r
[    3.1] some kernel noise
pbk1 selftest impl=kmod-old status=pass detail=kats=4\r
pbk1 sample suite=xts impl=kmod-old variant=256 op=enc size=64 round=0 iters=256 ns=1000 cycles=2000
pbk1 unavailable suite=sigpool impl=kmod-new variant=hmac(sha1) reason=crypto_clone_ahash-needs-6.4
pbk1 end\r'
printf '%s\n' "$good" >"$tmp/good.raw"
expect 0 good
[[ $(head -n 1 "$tmp/good.out") == 'pbk1 meta target=test' ]] || fail "script meta not first"
grep -q $'\r' "$tmp/good.out" && fail "CR left in output"
grep -q noise "$tmp/good.out" && fail "non-pbk1 line kept"
[[ $(grep -c '^pbk1 ' "$tmp/good.out") == 6 ]] || fail "lines lost: $(cat "$tmp/good.out")"

printf '%s\n' "${good/'pbk1 end'/}" >"$tmp/noend.raw"
expect 6 noend
grep -q "without 'pbk1 end'" "$tmp/noend.err" || fail "noend: message: $(cat "$tmp/noend.err")"

printf '%s\n' "pbk1 sample suite=xts impl=kmod-old variant=256 op=enc size=64 round=0 iters=25" "pbk1 end" >"$tmp/cut.raw"
expect 6 cut
grep -q 'malformed' "$tmp/cut.err" || fail "cut: message: $(cat "$tmp/cut.err")"

: >"$tmp/empty.raw"
expect 6 empty

printf '%s\n' "pbk1 selftest impl=kmod-new status=fail detail=ieee1619-v4/enc/split:mismatch" "pbk1 end" >"$tmp/stfail.raw"
expect 5 stfail
[[ -f $tmp/stfail.out ]] || fail "stfail: results not written for diagnosis"
grep -q 'ieee1619-v4/enc/split:mismatch' "$tmp/stfail.err" || fail "stfail: failure not shown"
echo OK
