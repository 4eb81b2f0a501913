#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build patchbench.ko for the running kernel, load it with the benchmark on,
# copy its results document from debugfs to --out, and unload it.
# Needs root, a kernel with module support, and the kernel's headers
# (/lib/modules/$(uname -r)/build). See docs/kmod.md.
set -euo pipefail

PBK_PROG=run-host.sh
# shellcheck source=scripts/kmod/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

pbk_usage() {
	echo 'usage: run-host.sh --out FILE [options]'
	pbk_common_help
	echo "  --kdir DIR          kernel build tree (default /lib/modules/\$(uname -r)/build)"
}

pbk_parse_common "$@"
KDIR=/lib/modules/$(uname -r)/build
set -- "${PBK_REST[@]+"${PBK_REST[@]}"}"
while (($#)); do
	case $1 in
	--kdir) KDIR=${2:?--kdir needs a folder}; shift ;;
	*) pbk_usage >&2; pbk_die 2 "unknown option: $1" ;;
	esac
	shift
done

# Say exactly what is missing, before building anything.
[[ $EUID -eq 0 ]] || pbk_die 2 "must run as root (insmod/rmmod need CAP_SYS_MODULE)"
[[ -e /proc/modules ]] || pbk_die 2 "the running kernel $(uname -r) has no module support (CONFIG_MODULES unset); use run-qemu.sh"
[[ -f $KDIR/Makefile ]] || pbk_die 2 "no kernel build tree at $KDIR (install the headers for $(uname -r), e.g. linux-headers-$(uname -r))"
for c in make insmod rmmod; do
	command -v "$c" >/dev/null || pbk_die 2 "'$c' not found (packages make, kmod)"
done
if grep -q '^patchbench ' /proc/modules; then
	pbk_die 2 "patchbench is already loaded; 'rmmod patchbench' first"
fi
if ! grep -qs ' /sys/kernel/debug ' /proc/mounts; then
	mount -t debugfs debugfs /sys/kernel/debug || pbk_die 2 "cannot mount debugfs on /sys/kernel/debug"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/patchbench-kmod.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
pbk_log "building patchbench.ko against $KDIR"
pbk_build_module "$KDIR" "$WORK/build"
KO=$WORK/build/patchbench.ko
RES=/sys/kernel/debug/patchbench/results

read -r -a args <<<"$(pbk_module_args)"
pbk_log "insmod patchbench.ko ${args[*]} (the benchmark runs inside insmod)"
insmod "$KO" "${args[@]}" || pbk_die 4 "insmod failed (see dmesg)"
cp "$RES" "$WORK/results.raw" || { rmmod patchbench; pbk_die 6 "cannot read $RES"; }
rmmod patchbench || pbk_die 7 "rmmod patchbench failed"

ok=0
for ((i = 1; i <= PBK_LOOP; i++)); do
	insmod "$KO" || break
	r=$(cat "$RES")
	rmmod patchbench || break
	[[ $r == *'pbk1 end'* && $r != *status=fail* ]] || break
	ok=$i
done

meta=(target=host "host_kernel=$(uname -r)")
((PBK_LOOP > 0)) && meta+=("loop_test=$ok/$PBK_LOOP")
rc=0
pbk_finalize "$WORK/results.raw" "$PBK_OUT" "${meta[@]}" || rc=$?
((ok == PBK_LOOP)) || pbk_die 7 "load/unload loop: only $ok of $PBK_LOOP cycles were clean"
exit "$rc"
