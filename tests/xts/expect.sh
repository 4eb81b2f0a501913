#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# expect.sh CODE TEXT CMD [ARGS...]
# Passes when CMD exits with status CODE and its output (stdout and stderr)
# contains TEXT (a fixed string). meson's should_fail accepts any non-zero
# status; this checks the exact one and that the message names the problem.
code=$1 text=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$code" ]; then
    echo "expect.sh: exit status $rc, expected $code" >&2
    exit 1
fi
case $out in
*"$text"*) exit 0 ;;
esac
echo "expect.sh: output lacks: $text" >&2
exit 1
