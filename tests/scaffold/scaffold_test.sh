#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/new-suite demo in a copy of the tree (its tracked and untracked, not ignored, files, as a
# fresh clone would have them with this change), then a build of bench and the suite modules:
#   - only the scaffold's own files are new in the copy (git status), the build outside it;
#   - bench list has demo, and with --published it is one of the published suites;
#   - bench run --suite demo --quick completes in as many code layouts as the build has (16), and
#     the placement check (tests/harness/placement_test.sh) finds every function of the modules
#     where the layout scripts planned it: demo's archives included;
#   - bench report writes its table, bench gate --suite demo --quick decides.
# A name that is there already, or not a C name, is refused and nothing is written. No timing.
SRC=$1
PLACEMENT=$2
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
mkdir tree
git -C "$SRC" ls-files -co --exclude-standard -z | (cd "$SRC" && xargs -0 cp --parents -t "$T/tree") ||
    { bad "copying the tree failed"; finish; }
cd tree || exit 1
git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm tree || { bad "git init"; finish; }

expect 2 "is there already: nothing written" scripts/new-suite xts
expect 2 "a C name" scripts/new-suite Demo-1
expect 0 "wrote suites/demo/suite_demo.c" scripts/new-suite demo --published 0123abcd
is "only the scaffold's files are new" "$(git status --porcelain | sort | tr '\n' ' ')" \
    "?? impls/common/demo.h ?? impls/new/demo.c ?? impls/old/demo.c ?? suites/demo/ ?? tests/demo/ "

B=$T/build
meson setup "$B" . >"$T/setup.log" 2>&1 || { bad "meson setup: $(tail -5 "$T/setup.log")"; finish; }
mods=("$B/harness/libpbsuites.so")
for ((l = 1; l < 16; l++)); do mods+=("$B/harness/libpbsuites-layout$l.so"); done
targets=(harness/bench "${mods[@]#"$B/"}")
ninja -C "$B" -j2 "${targets[@]}" >"$T/build.log" 2>&1 || { bad "build: $(grep -m5 -E 'error|FAILED' "$T/build.log")"; finish; }
BENCH=$B/harness/bench

[[ "$("$BENCH" list --names)" == *demo* ]] && ok || bad "bench list --names lacks demo"
[[ "$("$BENCH" list --names --published)" == *demo* ]] && ok || bad "demo is not published"
"$BENCH" run --suite demo --quick --db "$T/d.db" >"$T/run.out" 2>"$T/run.err" || bad "run: $(tail -3 "$T/run.err")"
grep -q 'suite demo: 3 cells, 16 rounds in 16 code layouts' "$T/run.err" && ok || bad "not 16 layouts: $(head -2 "$T/run.err")"
grep -q '^demo: 3 cells' "$T/run.out" && ok || bad "no summary: $(cat "$T/run.out")"
grep -q '^demo summary: no document table' "$T/run.out" && ok || bad "no word on the table: $(cat "$T/run.out")"
plan=$B/harness/layout_plan.tsv
if [[ -f $plan ]]; then
    bash "$PLACEMENT" "$T/tree" "$B/pb_vcs.h" "$plan" "${mods[@]}" >"$T/placement.out" 2>&1 && ok ||
        bad "placement: $(grep -m5 FAIL "$T/placement.out")"
fi
expect 0 "demo.md" "$BENCH" report --suite demo --db "$T/d.db" --out "$T/plots"
"$BENCH" gate --suite demo --quick --db "$T/g.db" >"$T/gate.out" 2>&1
rc=$?
[[ $rc -le 3 && $rc -ne 2 ]] && ok || bad "gate exit $rc: $(tail -3 "$T/gate.out")"
grep -q '^verdict: ' "$T/gate.out" && ok || bad "gate said no verdict: $(tail -3 "$T/gate.out")"
is "the build left the copy alone" "$(git status --porcelain | sort | tr '\n' ' ')" \
    "?? impls/common/demo.h ?? impls/new/demo.c ?? impls/old/demo.c ?? suites/demo/ ?? tests/demo/ "
finish
