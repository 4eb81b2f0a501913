#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# End to end: run-qemu.sh with a short benchmark, the sigpool part and 20
# load/unload cycles, then check the results document it wrote and what
# `bench import` stores from it.
set -euo pipefail
root=${PB_SOURCE_ROOT:?set PB_SOURCE_ROOT to the source tree}
out=${PB_KMOD_OUT:-$PWD/kmod-qemu-results.txt}

need=()
for p in linux-headers-amd64 qemu-system-x86 busybox-static cpio kmod make gcc xz-utils dwarves; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if ((${#need[@]})) && ((EUID != 0)); then
	echo "SKIP: packages missing (${need[*]}) and not root to install them"
	exit 77
fi

rm -f "$out"
bash "$root/scripts/kmod/run-qemu.sh" --out "$out" --quick --sigpool --loop-test 20

fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qE "$1" "$out" || fail "no line matching: $1"; }

[[ $(tail -n 1 "$out") == 'pbk1 end' ]] || fail "last line is not 'pbk1 end'"
has '^pbk1 meta target=qemu-tcg$'
has '^pbk1 meta guest_kernel=[^ ]+$'
has '^pbk1 meta loop_test=20/20$'
has '^pbk1 meta driver_builtin=xts-'
! grep -q 'status=fail' "$out" || fail "a self-test failed: $(grep 'status=fail' "$out")"

# kmod-kernel-xts is the kernel's own xts template over the very child the
# templates use, by its driver name: xts(<child_driver>), not an arch driver.
child=$(sed -n 's/^pbk1 meta child_driver=//p' "$out")
[[ -n $child && $child != none ]] || fail "no child_driver in the results"
want="xts($child)"
got=$(sed -n 's/^pbk1 meta driver_kernel_xts=//p' "$out")
[[ $got == "$want" ]] || fail "kmod-kernel-xts driver is '$got', want '$want'"

# XTS: a self-test pass and a sample for every impl in every cell of the grid.
for impl in kmod-old kmod-new kmod-old-nomem kmod-builtin kmod-kernel-xts; do
	has "^pbk1 selftest impl=$impl status=pass detail=kats="
	for v in 256 384 512; do
		for op in enc dec; do
			for size in 64 512 4096 16384 32768; do
				has "^pbk1 sample suite=xts impl=$impl variant=$v op=$op size=$size round=0 iters=[1-9]"
			done
		done
	done
done

# The child alone (per-call cost of ecb(aes)): 16 and 4096 bytes at every key size.
for v in 256 384 512; do
	for size in 16 4096; do
		has "^pbk1 sample suite=xts impl=kmod-child-ecb variant=$v op=enc size=$size round=0 iters=[1-9]"
	done
done
cost=$(python3 "$root/scripts/kmod/child_call_cost.py" "$out") || fail "child_call_cost.py failed"
grep -qE '^256	' <<<"$cost" || fail "child_call_cost.py found no estimate"

# sigpool: per-CPU requests everywhere; clone on 6.4+, else said unavailable.
has '^pbk1 sample suite=sigpool impl=kmod-old variant=md5 op=segment size=1448 '
has '^pbk1 sample suite=sigpool impl=kmod-old variant=hmac\(sha1\) op=segment '
if grep -q '^pbk1 unavailable suite=sigpool impl=kmod-new variant=md5 reason=crypto_clone_ahash-needs-6.4$' "$out"; then
	echo "sigpool kmod-new: unavailable on this kernel (needs 6.4)"
else
	has '^pbk1 sample suite=sigpool impl=kmod-new variant=md5 op=segment '
fi

# parse and store: the same file through `bench import`, as `bench run --target qemu` does
if [[ -n ${PB_BENCH:-} ]]; then
	db=$(mktemp -d)/kmod.db
	"$PB_BENCH" import "$out" --db "$db" --target qemu-tcg >/dev/null || fail "bench import refused the results"
	n=$(sqlite3 "$db" "SELECT count(*) FROM summary WHERE suite = 'xts' AND metric = 'ns_per_op' AND impl LIKE 'kmod-%' AND impl != 'kmod-child-ecb'")
	[[ $n -eq 150 ]] || fail "summary holds $n xts kmod rows, want 150 (5 impls x 30 cells)"
	r=$(sqlite3 "$db" "SELECT count(*) FROM ratios WHERE suite = 'xts' AND baseline = 'kmod-old' AND candidate = 'kmod-new' AND metric = 'ns_per_op'")
	[[ $r -eq 30 ]] || fail "$r kmod-new/kmod-old ratios stored, want 30"
	# the re-implemented new template against the kernel's own: one row per cell, every round paired
	r=$(sqlite3 "$db" "SELECT count(DISTINCT variant || ' ' || op || ' ' || size_bytes) FROM ratios WHERE suite = 'xts' AND baseline = 'kmod-kernel-xts' AND candidate = 'kmod-new' AND metric = 'ns_per_op' AND n_pairs = 2 AND estimate > 0 AND ci_lo <= estimate AND estimate <= ci_hi")
	[[ $r -eq 30 ]] || fail "$r cells with a kmod-new/kmod-kernel-xts ratio (2 rounds paired, estimate within its CI), want 30"
	r=$(sqlite3 "$db" "SELECT count(*) FROM ratios WHERE suite = 'xts' AND baseline = 'kmod-kernel-xts' AND candidate = 'kmod-new' AND metric = 'ns_per_op'")
	[[ $r -eq 30 ]] || fail "$r kmod-new/kmod-kernel-xts ratios stored, want 30 (one per cell)"
	rm -rf "$(dirname "$db")"
fi

echo "OK: $(grep -c '^pbk1 sample ' "$out") samples in $out"
