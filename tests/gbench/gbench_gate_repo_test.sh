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
expect 2 "nope: not a revision" "$gate" "${common[@]}" nope HEAD out/my_bench -- sh build.sh
expect 2 "the build made no executable out/other" "$gate" "${common[@]}" HEAD~1 HEAD out/other -- sh build.sh
expect 2 "building HEAD~1" "$gate" "${common[@]}" HEAD~1 HEAD out/my_bench -- false
finish
