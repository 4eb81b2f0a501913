#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Two checkouts of one commit build suite modules with the same code placement (docs/layout.md,
# "Two builds of the same code"): the commit gate times a commit against its parent built in
# another folder, and lld puts .rodata ahead of .text, so a constant holding the checkout's path
# moved every function by the difference of the two paths' lengths. Checked on this build's
# modules: no path of the source tree and no revision in .rodata, and in every module lld linked
# the code on a page of its own. No timing.
ROOT=$1
VCS_H=$2
shift 2
source "$(dirname "$0")/../lib.sh"

vcs=$(sed -n 's/^#define PB_VCS_SHA "\(.*\)"$/\1/p' "$VCS_H")
is "the revision is read from pb_vcs.h" "$([[ -n $vcs ]] && echo yes)" "yes"
for m in "$@"; do
    name=${m##*/}
    if ! objcopy -O binary --only-section=.rodata "$m" "$T/rodata" 2>"$T/err"; then
        bad "$name: objcopy: $(cat "$T/err")"
        continue
    fi
    is "$name: the source tree's path is not in .rodata" "$(grep -c -a -F "$ROOT" "$T/rodata")" "0"
    is "$name: the revision is not in .rodata" "$(grep -c -a -F "$vcs" "$T/rodata")" "0"
    is "$name: the path is data, not code's neighbour" "$(strings -a "$m" | grep -c -x -F "$ROOT/data")" "1"
    if readelf -p .comment "$m" 2>/dev/null | grep -q 'LLD'; then
        text=$(readelf -S -W "$m" | awk '$2 == ".text" { print $4 }')
        is "$name: lld's .text starts a page" "$(( 16#$text % 4096 ))" "0"
    fi
done
finish
