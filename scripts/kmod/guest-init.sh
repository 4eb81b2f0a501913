#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of the patchbench QEMU guest (busybox, from run-qemu.sh's initramfs).
#
# Console (kernel log, progress) on ttyS0; data on ttyS1, which only this
# script writes, so kernel messages can never interleave with results.
# Data sections, each bracketed by "$MARK <name>" lines:
#   RESULTS   the module's results document (debugfs patchbench/results)
#   INFO      "key=value" facts about the guest
#   DMESG     the kernel log at the end
# and a final "$MARK END". /pbk.conf sets MARK, KVER, MODARGS, LOOP.

/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /sbin && ln -s /bin/busybox /sbin/modprobe   # for request_module()
# shellcheck source=/dev/null # written by run-qemu.sh
. /pbk.conf

stty -F /dev/ttyS1 raw -echo 2>/dev/null
exec 3>/dev/ttyS1
say() { echo "$MARK $*"; }
RES=/sys/kernel/debug/patchbench/results

say "init started"
# Crypto modules the tests need, dependencies first (order from modules.dep).
while read -r m; do
	insmod "/lib/modules/$KVER/$m" 2>/dev/null || say "note: insmod $m failed"
done </modules.load

echo "$MARK RESULTS" >&3
say "insmod patchbench.ko $MODARGS"
# shellcheck disable=SC2086 # MODARGS is a list of parameters
if insmod /patchbench.ko $MODARGS; then
	cat "$RES" >&3
	rmmod patchbench || say "ERROR rmmod patchbench failed"
else
	say "ERROR insmod patchbench.ko failed"
fi
echo "$MARK /RESULTS" >&3

# Load/unload loop with the benchmark off: each load self-tests again and
# must leave no template instance behind.
ok=0
i=0
while [ "$i" -lt "$LOOP" ]; do
	i=$((i + 1))
	insmod /patchbench.ko || { say "LOOP $i: insmod failed"; break; }
	r=$(cat "$RES")
	rmmod patchbench || { say "LOOP $i: rmmod failed"; break; }
	case $r in *"status=fail"*) say "LOOP $i: self-test failed"; break ;; esac
	case $r in *"pbk1 end"*) ;; *) say "LOOP $i: results incomplete"; break ;; esac
	if grep -q 'xts_buffered\|xts_recompute' /proc/crypto; then
		say "LOOP $i: template instances left in /proc/crypto after rmmod"
		break
	fi
	ok=$((ok + 1))
done
[ "$LOOP" -gt 0 ] && say "loop test: $ok of $LOOP load/unload cycles clean"

{
	echo "$MARK INFO"
	echo "guest_clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "loop_ok=$ok"
	echo "tainted=$(cat /proc/sys/kernel/tainted)"
	echo "$MARK /INFO"
	echo "$MARK DMESG"
	dmesg
	echo "$MARK /DMESG"
	echo "$MARK END"
} >&3
say "done"
poweroff -f
