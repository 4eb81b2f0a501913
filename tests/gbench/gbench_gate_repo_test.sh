#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# gbench_gate_repo_test.sh GBENCH_GATE BENCH OLD_BIN SLOW_BIN: ci/gbench-gate on a throw-away git
# repository whose "build" copies one of the two tiny GB builds (which one is what the revision
# says), so that the revisions differ by a 2x regression by construction. The two gates run to a
# decision (printed, not asserted: tests never depend on timing); refusals are checked exactly.
. "$(dirname "$0")/../lib.sh"
gate=$1 bench=$2 oldbin=$3 slowbin=$4
repo=$T/repo
mkdir -p "$repo"
git -C "$repo" init -q
git -C "$repo" config user.email t@example.invalid
git -C "$repo" config user.name test
printf '#!/bin/sh\nmkdir -p out && cp "$TINY_GB_DIR/tiny_gb_$(cat which)" out/my_bench\n' > "$repo/build.sh"
echo old > "$repo/which"
git -C "$repo" add -A && git -C "$repo" commit -qm base
echo slow > "$repo/which"
git -C "$repo" commit -qam slower
export TINY_GB_DIR=$(dirname "$oldbin")
[[ $(basename "$slowbin") == tiny_gb_slow ]] || { bad "unexpected binary name $slowbin"; finish; exit; }
common=(--repo "$repo" --workdir "$T/wt" --db "$T/g.db" --bench "$bench" --quick --min-time 0.005)
decided "$gate" "${common[@]}" HEAD~1 HEAD out/my_bench -- sh build.sh
decided "$gate" "${common[@]}" HEAD~1 HEAD~1 out/my_bench -- sh build.sh
# one document in the format asked for on stdout (the builds' output on stderr), and in a file: read
# by real parsers, its verdict whatever the clock gave (docs/gate-outputs.md)
"$gate" "${common[@]}" --format junit --out "json=$T/g.json" HEAD~1 HEAD out/my_bench -- sh build.sh >"$T/g.xml" 2>"$T/g.err"
rc=$?
[[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] && ok || bad "gbench-gate --format junit exited $rc: $(cat "$T/g.err")"
if command -v python3 >/dev/null; then
    python3 -c 'import json, sys, xml.etree.ElementTree as ET
r, d = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
assert d["gates"][0]["suite"] == "gbench" and len(r.findall("testsuite/testcase")) == d["summary"]["cells"] > 0
assert int(r.get("failures")) == d["summary"]["regression"]' "$T/g.xml" "$T/g.json" && ok || bad "gbench-gate's JUnit and JSON"
fi
expect 2 "nope: not a revision" "$gate" "${common[@]}" nope HEAD out/my_bench -- sh build.sh
expect 2 "the build made no executable out/other" "$gate" "${common[@]}" HEAD~1 HEAD out/other -- sh build.sh
expect 2 "building HEAD~1" "$gate" "${common[@]}" HEAD~1 HEAD out/my_bench -- false
finish
