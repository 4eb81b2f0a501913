#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Two checkouts of one commit build suite modules with the same code placement (docs/layout.md,
# "Two builds of the same code"): the commit gate times a commit against its parent built in
# another folder, and lld puts .rodata ahead of .text, so a constant holding the checkout's path
# moved every function by the difference of the two paths' lengths. Checked on this build's
# modules: no path of the source tree and no revision in .rodata, and in every module lld linked
# the code on a page of its own. And the layouts are what suite/layout_script.py planned
# (PLAN: its layout_plan.tsv, empty without lld): every function at its planned offset of its
# 64-byte line in every layout, none left unplanned but the C runtime's, the retpoline thunks
# (first, as the kernel places them) and the module's own registry, and over 16 layouts every
# function at each 4-byte offset of its line once. No timing.
ROOT=$1
VCS_H=$2
PLAN=$3
shift 3
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
        thunk=$(nm --defined-only "$m" | awk '$3 == "__x86_indirect_thunk_rax" { print $1 }')
        is "$name: the retpoline thunks come first" "$(( 16#${thunk:-1} - 16#$text ))" "0"
    fi
done

# The layouts are what layout_script.py planned: for each module (layout N), every function whose
# name is unique in the module (static ones of one name in several objects cannot be matched by
# name) starts at its planned offset of its 64-byte line.
funcs() { nm --defined-only -t d "$1" | awk '$2 == "t" || $2 == "T" { n[$3]++; a[$3] = $1 } END { for (k in n) if (n[k] == 1) print k, a[k] }' | sort; }
mods=("$@")
if [[ -n $PLAN ]]; then
    is "the plan has a layout per module" "$(awk -F'\t' 'NR > 1 { print $1 }' "$PLAN" | sort -un | wc -l)" "${#mods[@]}"
    for ((n = 0; n < ${#mods[@]}; n++)); do
        m=${mods[n]}
        funcs "$m" > "$T/have"
        # planned once in this layout, by the name its section gives the function
        awk -F'\t' -v l=$n 'NR > 1 && $1 == l && $3 ~ /^\.text\./ { s = substr($3, 7); c[s]++; o[s] = $2 }
            END { for (k in c) if (c[k] == 1) print k, o[k] }' "$PLAN" | sort > "$T/plan"
        # one awk over the joined lists (addresses in decimal: nm -t d), not a shell loop a function:
        # fast enough on a loaded machine whatever the number of functions
        join "$T/plan" "$T/have" | awk '{ if ($3 % 64 == $2) m++; else o = o " " $1 ":" ($3 % 64) "!=" $2 }
            END { print m + 0; print o }' > "$T/cmp"
        moved=$(sed -n 1p "$T/cmp") other=$(sed -n 2p "$T/cmp")
        is "layout $n: every function at its planned offset ($moved compared)" "${other:-none}" "none"
        (( moved > 100 )) && ok || bad "layout $n: only $moved functions compared"
        # nothing unplanned but the C runtime's, the thunks, and the module's own objects (the
        # padding, the registry, and the constructors a sanitizer build adds to them, _sub_I_*). A
        # section .text.unlikely.f holds f.cold; .text.startup.f and .text.exit.f hold f
        # counted by name: a static function of a common name (run, encrypt) planned in one archive
        # must not hide the same name left unplanned in another
        awk -F'\t' -v l=$n 'NR > 1 && $1 == l { s = $3; sub(/^\.text\.((unlikely|startup|exit|hot)\.)?/, "", s); print s; print s ".cold" }' "$PLAN" |
            sort | uniq -c | awk '{ print $2, $1 }' > "$T/planned"
        nm --defined-only "$m" | awk '$2 == "t" || $2 == "T" { print $3 }' | sort | uniq -c | awk '{ print $2, $1 }' > "$T/defined"
        left=$(join -a 1 -e 0 -o 0,1.2,2.2 "$T/defined" "$T/planned" | awk '$2 > $3 { print $1 }' |
            grep -v -E '^(_init|_fini|deregister_tm_clones|register_tm_clones|__do_global_dtors_aux|frame_dummy|__x86_indirect_thunk_.*|pb_layout_pad|pb_suite_.*|_sub_[DI]_[0-9]+_[0-9]+)$' | tr '\n' ' ')
        # a suite whose archive its declaration does not list (suites/*/meson.build 'code') is one: its
        # functions run in one layout while runs say sixteen
        is "layout $n: no function the scripts did not place (an archive missing from a suite's declaration?)" \
            "${left:-none}" "none"
    done
    # Stratified, over 16 layouts: each function's 16 offsets are the 16 four-byte steps of its
    # line, each byte of a step 4 times
    if (( ${#mods[@]} == 16 )); then
        unbalanced=$(awk -F'\t' 'NR > 1 { k = $3 "\t" $4 "\t" $5; step[k, int($2 / 4)]++; byte[k, $2 % 4]++; keys[k] = 1 }
            END { for (k in keys) { for (i = 0; i < 16; i++) if (step[k, i] != 1) { print k; break }
                                    for (i = 0; i < 4; i++) if (byte[k, i] != 4) { print k; break } } }' "$PLAN" | sort -u | wc -l)
        is "every function at each 4-byte offset of its line once, each byte of a step 4 times" "$unbalanced" "0"
    fi
fi
finish
