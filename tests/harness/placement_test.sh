#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Two checkouts of one commit build suite modules with the same code placement (docs/layout.md,
# "Two builds of the same code"): the commit gate times a commit against its parent built in
# another folder, and lld puts .rodata ahead of .text, so a constant holding the checkout's path
# moved every function by the difference of the two paths' lengths. Checked on this build's
# modules: no path of the source tree and no revision in .rodata, and in every module lld linked
# the code on a page of its own; and the layouts' shifts are exact. No timing.
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
        # layout_text.ld: no function's section keeps an alignment over 16 bytes (-falign-loops=64
        # asks for 64), so the shifts below move every function, whatever the compile flags
        align=$(readelf -S -W "$m" | awk '$2 == ".text" { print $NF }')
        is "$name: lld placed all code at 16-byte boundaries" "$align" "16"
    fi
done

# The layouts are stratified (docs/layout.md): layout N is order N / 4 shifted by 16 x (N % 4)
# bytes, so every function of layout N lies exactly that far from where it is in the first layout
# of its order; only the retpoline thunks and the padding itself, placed ahead, stay. Where lld
# linked them.
# (functions whose name is unique in the module: static ones of one name in several objects cannot be matched)
funcs() { nm --defined-only "$1" | awk '$2 == "t" || $2 == "T" { n[$3]++; a[$3] = $1 } END { for (k in n) if (n[k] == 1) print k, a[k] }' | sort; }
mods=("$@")
for ((n = 1; n < ${#mods[@]}; n++)); do
    (( n % 4 )) || continue
    m=${mods[n]} first=${mods[n - n % 4]}
    readelf -p .comment "$m" 2>/dev/null | grep -q 'LLD' || continue
    funcs "$first" > "$T/a"
    funcs "$m" > "$T/b"
    want=$(( 16 * (n % 4) )) moved=0 other=""
    while read -r name a b; do
        [[ $name == __x86_indirect_thunk_* || $name == pb_layout_pad ]] && continue
        d=$(( 16#$b - 16#$a ))
        if (( d == want )); then moved=$((moved + 1)); else other="$other $name:$d"; fi
    done < <(join "$T/a" "$T/b")
    is "layout $n: every function $want bytes from layout $((n - n % 4))'s (${moved} moved)" "${other:-none}" "none"
    (( moved > 100 )) && ok || bad "layout $n: only $moved functions compared"
done
finish
