#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# meson install on its own (docs/install.md): this build installed into a DESTDIR, the installed
# tree moved elsewhere, and then, with neither the source nor the build tree opened (strace):
# bench runs a suite and a gate, finds its data, thresholds and suite modules beside itself; every
# command has a man page that man renders; the completion offers commands, options and suites;
# and the example xts plug-in, built from the installed headers with the installed
# patchbench-plugin.pc, passes its known answers and draws no build-parity warning. No timing.
BUILD=$1
SRC=$2
PREFIX=$3
LAYOUTS=$4
shift 4   # then the xts vector files, for the plug-in's known answers
source "$(dirname "$0")/../lib.sh"

DEST=$T/dest
if ! meson install -C "$BUILD" --destdir "$DEST" --no-rebuild --quiet >"$T/install.log" 2>&1; then
    bad "meson install: $(tail -5 "$T/install.log")"
    finish
    exit
fi
ok
# the installed tree, moved into a git repository that is not the lab's (as ~/.local in a home
# folder kept in git): nothing in it may name where it was installed, and bench must not take
# that repository for its own (nor run git in it)
git init -q "$T/home"
MOVED=$T/home/moved
mv "$DEST$PREFIX" "$MOVED"
B=$MOVED/bin/bench
is "bench installed" "$([[ -x $B ]] && echo yes)" "yes"
LIBDIR=$(cd "$MOVED" && ls -d lib*/*/patchbench lib*/patchbench 2>/dev/null | head -1)
is "suite modules installed" "$([[ -r $MOVED/$LIBDIR/libpbsuites.so ]] && echo yes)" "yes"

# what a command opens under the source or build tree (strace -f: the cage's children too)
opened_outside() { # LOG: the paths opened in SRC or BUILD, one a line
    grep -oE 'open(at)?\([^"]*"[^"]+"' "$1" | sed 's/.*"\(.*\)"/\1/' |
        grep -E "^($SRC|$BUILD)(/|$)" | sort -u
}
traced() { # LOG cmd...: runs cmd under strace, exit status as cmd's
    local log=$1
    shift
    # LeakSanitizer cannot run under ptrace (the sanitizer build): it would say so into the build
    # tree's sanitizer log and fail; the same commands run untraced under it below
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=open,openat -o "$log" "$@"
}
# meson test points LD_LIBRARY_PATH into the build tree; an installed bench has no use for it
unset PB_DATADIR PB_SOURCE_ROOT LD_LIBRARY_PATH
cd "$T" || exit 1
expect 0 "run 1 complete" "$B" run --suite xts --quick --sizes 64 --db "$T/untraced.db"
expect 0 "run 1 complete" traced "$T/run.trace" "$B" run --suite xts --quick --sizes 4096 --db "$T/i.db"
is "the run opened nothing of the source or build tree" "$(opened_outside "$T/run.trace")" ""
is "the run asked no git about the repository bench sits in" "$(grep -c "\"$T/home/.git" "$T/run.trace")" "0"
is "its data: the installed child-call cost" \
   "$(grep -c "\"$MOVED/share/patchbench/xts_child_call.tsv\"" "$T/run.trace" | sed 's/^[1-9][0-9]*$/read/')" "read"
is "$LAYOUTS layouts from the installed modules" "$(q "$T/i.db" "SELECT layouts LIKE '$LAYOUTS (seed 1)%' OR ($LAYOUTS = 1 AND layouts LIKE '1 layout%') FROM runs")" "1"
expect 0 "" traced "$T/report.trace" "$B" report --db "$T/i.db" --out "$T/plots"
is "the report opened nothing of the source or build tree" "$(opened_outside "$T/report.trace")" ""
is "the report read the installed documents' table" "$(grep -c 'xts_doc.tsv' "$T/report.trace" | sed 's/^0$/none/;s/^[1-9][0-9]*$/read/')" "read"
# a gate outside any checkout: the installed thresholds (no ./ci/thresholds here)
traced "$T/gate.trace" "$B" gate --suite synthetic --seed 3 --quick --quiet --db "$T/g.db" >"$T/gate.out" 2>&1
rc=$?
is "the gate decided" "$rc" "0"
is "it read the installed thresholds" "$(grep -c "\"$MOVED/share/patchbench/thresholds\"" "$T/gate.trace" | sed 's/^[1-9][0-9]*$/yes/')" "yes"
is "the gate opened nothing of the source or build tree" "$(opened_outside "$T/gate.trace")" ""
# the installed ci scripts, under names that say they are bench's: the claim gate through the
# bench and thresholds installed beside it
traced "$T/cg.trace" "$MOVED/bin/bench-claim-gate" --suites synthetic --quick --db "$T/cg.db" --format json \
    -- --seed 3 >"$T/cg.json" 2>"$T/cg.err"
rc=$?
is "bench-claim-gate decided" "$rc" "0"
is "its one document" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$T/cg.json")" "pass"
is "it read the installed thresholds" "$(grep -c "\"$MOVED/share/patchbench/thresholds\"" "$T/cg.trace" | sed 's/^[1-9][0-9]*$/yes/')" "yes"
is "bench-claim-gate opened nothing of the source or build tree" "$(opened_outside "$T/cg.trace")" ""
is "bench-gbench-gate and bench-check-report-html installed" \
   "$("$MOVED/bin/bench-gbench-gate" --help 2>&1 | grep -c '^usage:')$(test -x "$MOVED/bin/bench-check-report-html" && echo x)" "1x"

# man pages: bench(1) and one per command, each rendered by man
for c in "" $("$B" help --commands); do
    page=$MOVED/share/man/man1/bench${c:+-$c}.1
    if [[ ! -r $page ]]; then bad "no man page for bench $c"; continue; fi
    out=$(MANWIDTH=100 man -l "$page" 2>&1)
    if [[ $out == *"bench${c:+-$c}"* && $out == *NAME* && $out != *"warning"* ]]; then ok; else bad "man -l $page: $out"; fi
done
is "bench-run(1) lists --layout-seed" "$(MANWIDTH=100 man -l "$MOVED/share/man/man1/bench-run.1" 2>/dev/null | grep -c -- '--layout-seed')" "1"

# completion: the script asks the installed bench
comp() { # WORDS...: what _bench offers for the last word
    (
        source "$MOVED/share/bash-completion/completions/bench"
        COMP_WORDS=("$B" "$@")
        COMP_CWORD=$(($# ))
        _bench
        printf '%s\n' "${COMPREPLY[@]}"
    )
}
is "completion: commands" "$(comp ga | tr '\n' ' ')" "gate "
is "completion: options" "$(comp run --layout | tr '\n' ' ')" "--layouts --layout-seed "
is "completion: suites" "$(comp run --suite x | tr '\n' ' ')" "xts "
is "completion: a suite's options" "$(comp run --suite synthetic --sh | tr '\n' ' ')" "--shift "

# the example plug-in from the installed headers and .pc alone (not the source tree's headers)
PCDIR=$(dirname "$(ls "$MOVED"/lib*/pkgconfig/patchbench-plugin.pc "$MOVED"/lib*/*/pkgconfig/patchbench-plugin.pc 2>/dev/null | head -1)")
pc() { PKG_CONFIG_PATH=$PCDIR pkg-config --define-variable=prefix="$MOVED" "$@"; }
cflags=$(pc --cflags patchbench-plugin) libs=$(pc --libs patchbench-plugin)
is "the .pc names the installed include folder" "$([[ $cflags == *"-I$MOVED/include/patchbench"* ]] && echo yes)" "yes"
mkdir -p "$T/plugin"
cp "$SRC/examples/xts_window/xts_window.c" "$T/plugin/"
# shellcheck disable=SC2086  # the flags are words
if cc -shared $cflags "$T/plugin/xts_window.c" $libs -o "$T/plugin/w.so" 2>"$T/cc.err"; then ok; else bad "cc: $(cat "$T/cc.err")"; fi
expect 0 "119 passed, 0 failed, 68 skipped" "$B" kat --suite xts --plugin "w=$T/plugin/w.so" "$@"
expect 0 "run 1 complete" "$B" run --suite xts --quick --sizes 4096 --impl old,new,w --plugin "w=$T/plugin/w.so" --db "$T/p.db"
is "the .pc's flags are the kernel profile: no build-parity warning" "$(q "$T/p.db" "SELECT coalesce(build_parity, 'none') FROM runs")" "none"
finish
