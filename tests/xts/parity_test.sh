#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# parity_test.sh BENCH WINDOW.so CC SRCDIR COMPILER: the build-parity check of a plug-in against the lab's own
# impls (issue 23, item 3). The in-tree example (built by meson with the kernel profile, as old and
# new are) draws no warning; the same source built out of tree as docs/your-code.md's one-line
# recipe says (no kernel profile) draws one, which names the profile's flags, and with its switches
# recorded (-frecord-gcc-switches, or -g) one that names each flag that differs. Each run stores the
# plug-in's identity: sha256 and build-id equal to sha256sum's and readelf -n's. Asserts no time.
. "$(dirname "$0")/../lib.sh"
bench=$1 window=$2 cc=$3 src=$4 compiler=$5
quick=(--impl old,w --keys 256 --sizes 512 --rounds 2 --sample-ms 0.05 --counters '' --child-call-cost 0 --layouts 1
       --quiet)
recipe=(-O2 -fPIC -shared -fvisibility=hidden -I "$src/include" -I "$src/impls" "$src/examples/xts_window/xts_window.c")
"$cc" "${recipe[@]}" -o "$T/plain.so" || bad "the documented out-of-tree build failed"
"$cc" "${recipe[@]}" -frecord-gcc-switches -o "$T/recorded.so" || bad "the out-of-tree build with -frecord-gcc-switches failed"
"$cc" "${recipe[@]}" -g -o "$T/debug.so" || bad "the out-of-tree build with -g failed"

# run NAME SO: one run of the plug-in into its own store; its stderr in $T/NAME.err
run() {
    if "$bench" run --suite xts --plugin "w=$2" "${quick[@]}" --db "$T/$1.db" >"$T/$1.out" 2>"$T/$1.err"; then ok
    else bad "$1: the run failed: $(cat "$T/$1.out" "$T/$1.err")"; fi
}
# identity NAME SO: what is stored for the plug-in is the file's
identity() {
    is "$1: sha256" "$(q "$T/$1.db" "SELECT sha256 FROM objects WHERE impl = 'w'")" "$(sha256sum "$2" | cut -d' ' -f1)"
    is "$1: build-id" "$(q "$T/$1.db" "SELECT build_id FROM objects WHERE impl = 'w'")" \
       "$(readelf -n "$2" | sed -n 's/^ *Build ID: *//p')"
    is "$1: size" "$(q "$T/$1.db" "SELECT size_bytes FROM objects WHERE impl = 'w'")" "$(stat -c %s "$2")"
    is "$1: what it is" "$(q "$T/$1.db" "SELECT elf || ', ' || compiler FROM objects WHERE impl = 'w'")" \
       "ELF64 shared object, $compiler"
    is "$1: only the plug-in is user code" "$(q "$T/$1.db" "SELECT group_concat(impl) FROM objects")" "w"
}

# a gate given a plug-in it does not gate refuses, naming how to gate it (bench run adds it instead)
out=$("$bench" gate --suite xts --plugin "w=$window" --keys 256 --sizes 512 --quick --db "$T/gate.db" 2>&1); rc=$?
is "gate: a plug-in it does not gate: exit" "$rc" 2
[[ $out == *"--plugin w: this gate times only old and new, so the plug-in would not be gated; name it with --candidate w"* ]] &&
    ok || bad "gate: no message naming the plug-in: $out"
[[ -e $T/gate.db ]] && [[ $(q "$T/gate.db" "SELECT count(*) FROM runs") != 0 ]] && bad "gate: a refused gate stored a run" || ok

run intree "$window"
identity intree "$window"
grep -q "build parity" "$T/intree.err" && bad "the in-tree plug-in drew a warning: $(cat "$T/intree.err")" || ok
is "in-tree: nothing stored" "$(q "$T/intree.db" "SELECT build_parity IS NULL FROM runs")" "1"
# (-frecord-gcc-switches; a build with -g, such as the sanitizer build, records them in DWARF too)
is "in-tree: its switches recorded" "$(q "$T/intree.db" "SELECT flags_source IN ('.GCC.command.line', 'DW_AT_producer') FROM objects")" "1"

run plain "$T/plain.so"
identity plain "$T/plain.so"
grep -q "bench: warning: build parity: w ($T/plain.so) and the lab's own xts impls (kernel profile) cannot be checked for the same flags: w ($T/plain.so) records no compiler flags" "$T/plain.err" &&
    ok || bad "plain: no warning that the flags are not recorded: $(cat "$T/plain.err")"
for f in -mno-sse -mno-red-zone -mindirect-branch=thunk-extern -fno-strict-aliasing; do
    grep -q -- " $f" "$T/plain.err" && ok || bad "plain: the profile's $f is not named: $(cat "$T/plain.err")"
done
is "plain: stored with the run" "$(q "$T/plain.db" "SELECT build_parity LIKE '%records no compiler flags%-mno-sse%' FROM runs")" "1"
# the warning is in the report's header too (Markdown and HTML), where whoever reads the ratio sees it
for v in plain intree; do
    "$bench" report --db "$T/$v.db" --suite xts --out "$T/$v-report" --html >/dev/null 2>"$T/$v-report.err" ||
        bad "$v: bench report failed: $(cat "$T/$v-report.err")"
done
grep -q '^\*\*Build-parity warning: w (.*records no compiler flags' "$T/plain-report/xts.md" && ok ||
    bad "plain: no build-parity warning in xts.md"
grep -q 'build-parity warning:</strong> w (' "$T/plain-report/report.html" && ok || bad "plain: no build-parity warning in report.html"
grep -qi 'build-parity warning' "$T/intree-report/xts.md" "$T/intree-report/report.html" &&
    bad "in-tree: the report warns of build parity" || ok

for v in recorded debug; do
    run $v "$T/$v.so"
    identity $v "$T/$v.so"
    line=$(grep "bench: warning: build parity: w ($T/$v.so) and the lab's own xts impls (kernel profile) were built with different flags:" "$T/$v.err")
    [[ -n $line ]] && ok || bad "$v: no warning of different flags: $(cat "$T/$v.err")"
    for f in "-msse (default) / -mno-sse" "-mred-zone (default) / -mno-red-zone" "(not given) / -mindirect-branch=thunk-extern" \
             "(not given) / -fno-strict-aliasing" "-fasynchronous-unwind-tables / -fno-asynchronous-unwind-tables"; do
        [[ $line == *"$f"* ]] && ok || bad "$v: '$f' is not named: $line"
    done
    [[ $line == *"-O2 /"* || $line == *"-march"* ]] && bad "$v: a flag both share is named: $line" || ok
    is "$v: stored with the run" "$(q "$T/$v.db" "SELECT build_parity LIKE '%were built with different flags: %-mno-sse%' FROM runs")" "1"
done
is "recorded: from .GCC.command.line" "$(q "$T/recorded.db" "SELECT flags_source FROM objects")" ".GCC.command.line"
is "debug: from DW_AT_producer" "$(q "$T/debug.db" "SELECT flags_source || ' ' || (producers LIKE '1 unit: GNU C%')  FROM objects")" \
   "DW_AT_producer 1"
finish
