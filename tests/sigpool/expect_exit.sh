#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# expect_exit.sh CODE TEXT COMMAND... — pass if COMMAND exits with CODE and
# its output (stdout + stderr) contains TEXT.
code=$1 text=$2
shift 2
out=$("$@" 2>&1)
rc=$?
if [ "$rc" -ne "$code" ]; then
    printf 'expected exit %s, got %s\n%s\n' "$code" "$rc" "$out"
    exit 1
fi
case $out in
*"$text"*) exit 0 ;;
esac
printf 'output lacks "%s":\n%s\n' "$text" "$out"
exit 1
