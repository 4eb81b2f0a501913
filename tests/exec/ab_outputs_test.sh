#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ab_outputs_test.sh BENCH CC: a user's A/B as an A/B in every output (issue 42, items 5 and 6). The
# identity of each side (sha256, build-id, revision, label, the build-parity verdict) in the md
# report, the HTML report, `bench export --format json` and `bench list --runs`; the old side's
# revision never the new checkout's; every command of a 3-command run against the first in md,
# HTML and the JSON export; an external program's run says rounds, never code layouts; a failing
# --cleanup in the run's noise, which the report shows. Asserts no time.
. "$(dirname "$0")/../lib.sh"
bench=$1 cc=$2
quick=(--rounds 2 --warmup 1 --counters '' --quiet)
printf '#include <stdio.h>\nint main(void) { volatile unsigned x = 0; for (int i = 0; i < 1000; i++) x += i; return (int)(x & 0); }\n' >"$T/prog.c"

# ---- two builds in one checkout: each side's identity, the old one's revision not the checkout's ----
git init -q "$T/repo"
"$cc" -O2 -g "$T/prog.c" -o "$T/repo/old" && "$cc" -O1 -g "$T/prog.c" -o "$T/repo/new" || bad "cannot build the test programs"
git -C "$T/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m c1
db=$T/ab.db
"$bench" run --suite exec --old "$T/repo/old" --new "$T/repo/new" --label 'PR 7' "${quick[@]}" --db "$db" >"$T/ab.out" 2>&1 ||
    bad "A/B run: $(cat "$T/ab.out")"
head_rev=$(git -C "$T/repo" describe --always --dirty)
is "the new side: the checkout's revision" "$(q "$db" "SELECT revision FROM objects WHERE impl = 'new'")" "$head_rev"
is "the old side: not the checkout's (unknown)" "$(q "$db" "SELECT revision IS NULL FROM objects WHERE impl = 'old'")" "1"
sha_old=$(sha256sum "$T/repo/old" | cut -d' ' -f1) sha_new=$(sha256sum "$T/repo/new" | cut -d' ' -f1)
bid_new=$(readelf -n "$T/repo/new" | sed -n 's/^ *Build ID: *//p')

"$bench" report --db "$db" --out "$T/rep" >"$T/rep.out" 2>&1 || bad "report: $(cat "$T/rep.out")"
md=$T/rep/exec.md
grep -q "^- old: revision unknown, sha256 $sha_old, build-id [0-9a-f]* (" "$md" && ok || bad "md: old side: $(grep -A4 'Whose code' "$md")"
grep -q "^- new: revision $head_rev, label PR 7, sha256 $sha_new, build-id $bid_new (" "$md" && ok ||
    bad "md: new side: $(grep -A4 'Whose code' "$md")"
grep -q "^- build parity: differ: " "$md" && ok || bad "md: no parity verdict: $(grep -A4 'Whose code' "$md")"

"$bench" report --db "$db" --html --out "$T/rep.html" >"$T/html.out" 2>&1 || bad "html report: $(cat "$T/html.out")"
grep -q "<li>new: revision $head_rev, label PR 7, sha256 $sha_new, build-id $bid_new (" "$T/rep.html" && ok ||
    bad "html: no identity of the new side"

"$bench" export --format json --db "$db" >"$T/ab.json" || bad "export failed"
is "export: each side's identity" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s:%s:%s:%s:%s" % (s["impl"], s["sha256"][:12], s["revision"], s["label"], s["build_parity"][:6])
               for s in d["runs"][0]["sides"]))' "$T/ab.json")" \
    "new:${sha_new:0:12}:$head_rev:PR 7:differ old:${sha_old:0:12}:None:None:differ"

"$bench" list --runs --db "$db" >"$T/list.out" 2>&1 || bad "list --runs: $(cat "$T/list.out")"
grep -q "^      new: revision $head_rev, label PR 7, sha256 ${sha_new:0:12}, build-id ${bid_new:0:12}$" "$T/list.out" && ok ||
    bad "list --runs: no identity of the new side: $(cat "$T/list.out")"
grep -q "^      build parity: differ" "$T/list.out" && ok || bad "list --runs: no parity verdict: $(cat "$T/list.out")"
# within the width it is given
COLUMNS=60 "$bench" list --runs --db "$db" >"$T/list60.out" 2>&1
is "list --runs at 60 columns: no side's line longer" \
    "$(python3 -c 'import sys; print(sum(len(l.rstrip("\n")) > 60 for l in open(sys.argv[1], encoding="utf-8") if l.startswith("      ")))' "$T/list60.out")" "0"
grep -q "^      new: revision $head_rev, label PR 7, sha256" "$T/list60.out" && ok || bad "list --runs at 60: $(cat "$T/list60.out")"

# ---- three commands: b/a and c/a in every output; rounds, not code layouts ----
db3=$T/n3.db
"$bench" run --suite exec --cmd a=true --cmd b=true --cmd c=true --cleanup false --rounds 2 --warmup 1 \
    --counters '' --db "$db3" >"$T/n3.out" 2>&1 || bad "3-command run: $(cat "$T/n3.out")"
grep -q "^bench: run 1, suite exec: 1 cell, 2 rounds, a sample is" "$T/n3.out" && ok || bad "header: $(head -2 "$T/n3.out")"
# (the summary's verdict names, "depends on code layout", are the verdicts', not the run's)
grep -v "depends on code layout" "$T/n3.out" | grep -q "code layout\|layouts" &&
    bad "an exec run speaks of code layouts: $(cat "$T/n3.out")" || ok
grep -q "time b/a [0-9.]* \[[0-9.]*, [0-9.inf]*\]; c/a [0-9.]* \[" "$T/n3.out" && ok || bad "cell line without c/a: $(cat "$T/n3.out")"
is "one layout stored" "$(q "$db3" "SELECT group_concat(DISTINCT layouts) FROM ratios")" "1"
grep -q "^1: the timed code is another program" <(q "$db3" "SELECT layouts FROM runs") && ok || bad "runs.layouts: $(q "$db3" "SELECT layouts FROM runs")"
"$bench" report --db "$db3" --out "$T/rep3" >/dev/null 2>&1 || bad "report of the 3-command run"
grep -q "| time b/a \[95% CI\] |" "$T/rep3/exec.md" && ok || bad "md: no b/a"
grep -q "| time c/a |" "$T/rep3/exec.md" && ok || bad "md: no c/a"
"$bench" report --db "$db3" --html --out "$T/rep3.html" >/dev/null 2>&1 || bad "html report of the 3-command run"
grep -q "<th>time c/a</th>" "$T/rep3.html" && ok || bad "html: no c/a"
"$bench" export --format json --db "$db3" >"$T/n3.json" || bad "export of the 3-command run"
is "export: both ratios" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted("%s/%s:%s" % (r["candidate"], r["baseline"], r["ci_lo"] is not None) for r in d["ratios"]
                      if r["metric"] == "ns_per_op")))' "$T/n3.json")" "b/a:True c/a:True"
# a failing --cleanup: warned, and in the run's noise, which the report shows
grep -q "bench: warning: exec: --cleanup command .*false exited with status 1 (the cell's samples are kept)" "$T/n3.out" && ok ||
    bad "no cleanup warning: $(cat "$T/n3.out")"
grep -q "^\*\*Noise warning: the clean-up of 1 cell failed (first: command run: exec: --cleanup command .*false exited with status 1" \
    "$T/rep3/exec.md" && ok || bad "md: no cleanup note: $(grep -i noise "$T/rep3/exec.md")"
# more layouts asked of another program's run: refused, the option named
expect 2 "--layouts 4: suite exec times another program" "$bench" run --suite exec --cmd a=true --cmd b=true --layouts 4 \
    "${quick[@]}" --db "$T/no.db"
[[ -e $T/no.db ]] && bad "a refused run left a database" || ok
finish
