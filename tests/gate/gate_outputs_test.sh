#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Thresholds on the command line and the outputs a CI consumes (issue 23, items 1 and 2;
# docs/gate-outputs.md): --threshold and --thresholds with their refusals; cells significantly
# slower but under their threshold, reported and counted; one document for a gate of one suite or
# of several (bench gate, bench compare, the ci/ scripts), each format read by a real parser
# (gate_outputs_check.py: Python's json and xml.etree); annotations; the step summary appended,
# never replaced; names from the store as text in every format. Every verdict comes from seeded
# samples (the synthetic suite's --seed, one code layout), never from the clock.
BENCH=$1
SRC=$2
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../lib.sh"
cd "$T" || exit 1
if ! command -v python3 >/dev/null; then
    echo "SKIP: no python3: the formats are checked with its json and xml modules"
    exit 77
fi
CHECK=(python3 "$HERE/gate_outputs_check.py")

TH=$T/thresholds
printf 'claim synthetic * 15%%\ncommit synthetic * 15%%\n' >"$TH"
G=(--suite synthetic --quick --quiet --thresholds "$TH" --seed 1 --layouts 1)

# ---- refusals: exit 2, the option named, nothing run ----
expect 2 "--threshold 'abc': want a percentage" "$BENCH" gate "${G[@]}" --db e.db --threshold abc
expect 2 "--threshold '150%': want a percentage more than 0% and at most 100%" \
    "$BENCH" gate "${G[@]}" --db e.db --threshold 150%
expect 2 "--threshold '0%'" "$BENCH" compare --db e.db --threshold 0%
# a bare number is a percentage (3 is 3%), with the same range, and nothing else passes for one
for bad_value in 0 0.0 -3 150 100.5 3x 3.5.1 0x10 1e1 ' 3' '3 ' inf '' %; do
    expect 2 "--threshold '$bad_value': want a percentage" "$BENCH" gate "${G[@]}" --db e.db --threshold "$bad_value"
done
expect 2 "--threshold '150': want a percentage" "$BENCH" compare --db e.db --threshold 150
expect 2 "ci/claim-gate: --threshold '0'" "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic --threshold 0
expect 2 "ci/perf-gate: --threshold '150'" "$SRC/ci/perf-gate" --aa --bench "$BENCH" --threshold 150
expect 2 "ci/gbench-gate: --threshold '-3'" "$SRC/ci/gbench-gate" --bench "$BENCH" --threshold -3 A B bin -- true
[[ ! -e e.db ]] && ok || bad "a refused --threshold ran a gate"
expect 2 "--thresholds: cannot read thresholds file $T/missing" "$BENCH" gate "${G[@]}" --db e.db --thresholds "$T/missing"
expect 2 "--out wants FORMAT=FILE, FORMAT one of text, md, json, junit or codequality, got 'xml=a'" \
    "$BENCH" gate "${G[@]}" --db e.db --out xml=a
expect 2 "--out json=: a file" "$BENCH" gate "${G[@]}" --db e.db --out json=
# --write is the name, --out its old spelling: a message names the one given
expect 2 "--write json=: a file" "$BENCH" gate "${G[@]}" --db e.db --write json=
expect 2 "--out: x.md given twice" "$BENCH" compare --db e.db --write md=x.md --out md=x.md
expect 2 "--annotate wants github or gitlab" "$BENCH" gate "${G[@]}" --db e.db --annotate bitbucket
expect 2 "write that with --write json=FILE" "$BENCH" gate "${G[@]}" --db e.db --format json --annotate github
ln -s "$T/elsewhere" link.json
expect 2 "link.json is a symbolic link: refused" "$BENCH" gate "${G[@]}" --db e.db --out json=link.json
[[ ! -e e.db && ! -e elsewhere ]] && ok || bad "a refused gate ran or wrote through the link"
expect 2 "ci/claim-gate: --threshold 'abc'" "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic --threshold abc
expect 2 "ci/perf-gate: --threshold '150%'" "$SRC/ci/perf-gate" --aa --bench "$BENCH" --threshold 150%
expect 2 "ci/gbench-gate: --threshold 'abc'" "$SRC/ci/gbench-gate" --bench "$BENCH" --threshold abc A B bin -- true
expect 2 "link.json is a symbolic link" "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic --out junit=link.json
expect 2 "--thresholds: cannot read thresholds file" "$SRC/ci/claim-gate" --bench "$BENCH" --suites synthetic \
    --thresholds "$T/missing" --db e2.db
expect 0 "usage: ci/gbench-gate" "$SRC/ci/gbench-gate" --help
expect 0 "--threshold P%" "$SRC/ci/gbench-gate" --help
expect 0 "--threshold P%" "$BENCH" gate --help
expect 0 "--threshold P%" "$BENCH" compare --help
echo '{"schema": "patchbench-gate", "schema_version": 9, "gates": []}' >v9.json
expect 2 "v9.json: schema version 9; this bench reads version 1" "$BENCH" gate --merge v9.json
echo '[1, 2]' >other.json
expect 2 "other.json: not a gate document" "$BENCH" gate --merge other.json
expect 2 "not a JSON document" "$BENCH" gate --merge "$TH"

# ---- under the threshold: 1.05x, significant in both cells, passes at 15 % and says so ----
expect 0 "pass (slower by " "$BENCH" gate "${G[@]}" --db u.db --shift 1.05
out=$("$BENCH" gate "${G[@]}" --db u.db --shift 1.05)
grep -Eq '^chain +spin +1000 .* pass \(slower by [0-9.]+ % \[[0-9.]+ %, [0-9.]+ %\], under the 15 % threshold\)$' <<<"$out" &&
    ok || bad "no under-threshold line: $out"
grep -q "^verdict: pass (2 cells: 2 pass, 0 regression, 0 inconclusive, 2 slower but under the threshold)" <<<"$out" &&
    ok || bad "the summary does not count them: $out"
# --threshold 3% for this run only: the same cells fail
expect 1 "verdict: regression (2 cells: 0 pass, 2 regression" "$BENCH" gate "${G[@]}" --db u.db --shift 1.05 --threshold 3%
is "--threshold stored as the comparison's thresholds" "$(q u.db "SELECT thresholds FROM comparisons ORDER BY id DESC LIMIT 1")" \
   "--threshold 3%"
expect 1 "threshold 3% (--threshold 3%)" "$BENCH" gate "${G[@]}" --db u.db --shift 1.05 --threshold 3% --thresholds "$T/missing"
# the bare number: the same threshold, the same verdict, said as it was given
expect 1 "threshold 3% (--threshold 3)" "$BENCH" gate "${G[@]}" --db u.db --shift 1.05 --threshold 3
expect 1 "verdict: regression (2 cells: 0 pass, 2 regression" "$BENCH" gate "${G[@]}" --db u.db --shift 1.05 --threshold 3
expect 0 "2 slower but under the threshold" "$BENCH" gate "${G[@]}" --db u.db --shift 1.05 --threshold 15
expect 0 "2 slower but under the threshold" "$BENCH" gate "${G[@]}" --db u.db --shift 1.05 --threshold 12.5
# bench compare judges as a gate with a threshold, and only compares without one
R=$(q u.db "SELECT min(run_id) FROM comparison_runs")
expect 0 "slower but under the threshold" "$BENCH" compare --db u.db --run "$R" --thresholds "$TH"
expect 1 "verdict: regression" "$BENCH" compare --db u.db --run "$R" --threshold 3%
expect 1 "verdict: regression" "$BENCH" compare --db u.db --run "$R" --threshold 3
expect 0 "slower but under the threshold" "$BENCH" compare --db u.db --run "$R" --threshold 15
expect 0 "2 cells: 2 slower" "$BENCH" compare --db u.db --run "$R"

# ---- one gate: every format from one run, each read by its parser ----
PB_TEST_WAITS=0.5 "$BENCH" gate "${G[@]}" --db one.db --shift 1.05 --format json \
    --out md=one.md --out junit=one.xml --out codequality=one.cq.json >one.json 2>one.err
is "one gate: exit" "$?" 0
"${CHECK[@]}" pass 1 one.json md=one.md junit=one.xml codequality=one.cq.json under=2 noise hide="$T" hide="$SRC" &&
    ok || bad "one gate's formats"

# JUnit's times are the document's: a gate's testsuite the sum of its runs' durations (fixed times
# here), the testsuites element the sum of its gates'; no time where the document holds none
python3 - one.json fixed.json fixed-noruns.json <<'PY' || bad "could not write the fixed documents"
import copy, json, sys
d = json.load(open(sys.argv[1]))
for k, r in enumerate(d['gates'][0]['runs']):   # run k: 0.250 s + k s
    r['started_at'], r['ended_at'] = '2026-01-31T23:59:59.900Z', '2026-02-01T00:00:%02d.150Z' % k
json.dump(d, open(sys.argv[2], 'w'))
e = copy.deepcopy(d)
del e['gates'][0]['runs']
json.dump(e, open(sys.argv[3], 'w'))
PY
N=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["gates"][0]["runs"]))' one.json)
WANT=$(awk -v n="$N" 'BEGIN { printf "%.3f", 0.25 * n + n * (n - 1) / 2 }')
"$BENCH" gate --merge fixed.json fixed.json --format junit >fixed.xml
python3 - fixed.xml "$WANT" <<'PY' && ok || bad "junit times of fixed runs: $(grep -o 'time="[^"]*"' fixed.xml | tr '\n' ' ') want $WANT"
import sys, xml.etree.ElementTree as ET
r, want = ET.parse(sys.argv[1]).getroot(), sys.argv[2]
assert [ts.get('time') for ts in r.findall('testsuite')] == [want, want], [ts.get('time') for ts in r.findall('testsuite')]
assert r.get('time') == '%.3f' % (2 * float(want)), r.get('time')
assert r.findall('testsuite/testcase') and all(tc.get('time') is None for tc in r.iter('testcase'))
PY
"$BENCH" gate --merge fixed-noruns.json --format junit >noruns.xml
grep -q 'time=' noruns.xml && bad "junit of a document without runs claims a time: $(grep -o 'time="[^"]*"' noruns.xml)" || ok

# ---- several suites: the ci/ script's one document, failing and passing ----
CG=("$SRC/ci/claim-gate" --bench "$BENCH" --suites "synthetic synthetic" --thresholds "$TH")
"${CG[@]}" --db fail.db --format json --out md=fail.md --out junit=fail.xml --out codequality=fail.cq.json \
    -- --seed 1 --layouts 1 --shift 1.3 >fail.json 2>fail.err
is "failing multi-suite gate: exit" "$?" 1
python3 -m json.tool fail.json >/dev/null && ok || bad "claim-gate --format json | python3 -m json.tool: $(head -c 300 fail.json)"
grep -q "^== claim gate synthetic" fail.err && ok || bad "claim-gate's progress is not on stderr"
"${CHECK[@]}" regression 2 fail.json md=fail.md junit=fail.xml codequality=fail.cq.json hide="$T" hide="$SRC" &&
    ok || bad "failing multi-suite gate's formats"
"${CG[@]}" --db pass.db --format junit --out json=pass.json --out md=pass.md -- --seed 1 --layouts 1 --shift 1.0 \
    >pass.xml 2>pass.err
is "passing multi-suite gate: exit" "$?" 0
"${CHECK[@]}" pass 2 pass.json md=pass.md junit=pass.xml under=0 hide="$T" && ok || bad "passing multi-suite gate's formats"
# with a suite that cannot be gated: one document still, its error in it
"${CG[@]}" --db err.db --suites "synthetic nosuch" --format json -- --seed 1 --layouts 1 --shift 1.0 >err.json 2>err.err
is "a suite that cannot run: exit" "$?" 2
"${CHECK[@]}" error 1 err.json errors=1 && ok || bad "the error in the document"
# ci/perf-gate's one document (live timing, as ci/perf-gate runs bench: its form is checked, never
# which verdict the clock gave)
"$SRC/ci/perf-gate" --aa --bench "$BENCH" --procedure alternate --suites "synthetic synthetic" --alternations 6 \
    --max-alternations 6 --rounds 3 --cpu none --db pg.db --thresholds "$TH" --format json --out junit=pg.xml \
    >pg.json 2>pg.err
rc=$?
[[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] && ok || bad "perf-gate --format json exited $rc: $(tail -n 5 pg.err)"
python3 -c 'import json, sys, xml.etree.ElementTree as ET
d, r = json.load(open(sys.argv[1])), ET.parse(sys.argv[2]).getroot()
assert [g["gate"] for g in d["gates"]] == ["aa", "aa"] and d["exit_status"] == int(sys.argv[3])
assert len(r.findall("testsuite/testcase")) == d["summary"]["cells"] > 0' pg.json pg.xml "$rc" &&
    ok || bad "perf-gate's document: $(head -c 300 pg.json)"
# the documents of separate gates joined: one verdict over all of them
"$BENCH" gate --merge pass.json fail.json --format junit >joined.xml
is "joined: exit" "$?" 1
"$BENCH" gate --merge pass.json fail.json --out json=joined.json --skipped "sigpool=not gated here" >joined.txt
is "joined with a skipped suite: exit" "$?" 1
"${CHECK[@]}" regression 4 joined.json junit=joined.xml && ok || bad "the joined document"
grep -q "^Regression: 4 of 8 cells slower than their threshold; skipped: sigpool.$" joined.txt &&
    ok || bad "joined text: $(tail -n 2 joined.txt)"

# ---- annotations: GitHub workflow commands after the text, the md appended to the step summary ----
printf 'written by an earlier step\n' >summary.md
GITHUB_STEP_SUMMARY=$T/summary.md "$BENCH" gate "${G[@]}" --db a.db --shift 1.05 --annotate github --out json=gh.json \
    >gh.txt 2>gh.err
is "annotate github: exit" "$?" 0
"${CHECK[@]}" pass 1 gh.json annotations=gh.txt under=2 hide="$T" && ok || bad "annotations: $(cat gh.txt)"
[[ $(head -n 1 summary.md) == "written by an earlier step" ]] && grep -q '^\*\*Pass\*\*: ' summary.md &&
    ok || bad "the step summary was not appended to: $(head -n 3 summary.md)"
ln -s "$T/nowhere" summary-link
GITHUB_STEP_SUMMARY=$T/summary-link expect 2 "\$GITHUB_STEP_SUMMARY $T/summary-link: a symbolic link: refused" \
    "$BENCH" gate "${G[@]}" --db a.db --shift 1.05 --annotate github
[[ ! -e nowhere ]] && ok || bad "the step summary was written through a link"
mkfifo summary-fifo
GITHUB_STEP_SUMMARY=$T/summary-fifo expect 2 "summary-fifo" timeout 20 "$BENCH" gate "${G[@]}" --db a.db --annotate github
"$SRC/ci/claim-gate" --bench "$BENCH" --suites "synthetic synthetic" --thresholds "$TH" --db ag.db --annotate github \
    -- --seed 1 --layouts 1 --shift 1.3 >ag.txt 2>&1
is "claim-gate --annotate github: exit" "$?" 1
"$SRC/ci/claim-gate" --bench "$BENCH" --suites "synthetic synthetic" --thresholds "$TH" --db ag2.db --format json \
    -- --seed 1 --layouts 1 --shift 1.3 >ag.json 2>/dev/null
"${CHECK[@]}" regression 2 ag.json annotations=ag.txt && ok || bad "claim-gate's annotations: $(grep '^::' ag.txt)"
"$BENCH" gate "${G[@]}" --db gl.db --shift 1.3 --annotate gitlab >/dev/null
is "annotate gitlab: exit" "$?" 1
python3 -c 'import json, sys; l = json.load(open(sys.argv[1])); assert len(l) == 2 and {i["severity"] for i in l} == {"major"}' \
    patchbench-codequality.json && ok || bad "annotate gitlab: $(cat patchbench-codequality.json)"

# ---- names from the store stay text in every format: XML, JSON, Markdown, workflow commands ----
"$BENCH" run --suite synthetic --quick --quiet --rounds 8 --seed 1 --shift 1.3 --layouts 1 --db clean.db >/dev/null
NAME=$'n<&>"\'\x01\x1b[31m%0A\r\n::error::x,y:]]>'
hex() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
cp clean.db h.db
q h.db "UPDATE cases SET impl = CAST(x'$(hex "$NAME")' AS TEXT) WHERE impl = 'new'"
"$BENCH" compare --db h.db --run 1 old "$NAME" --threshold 3% --format json --out junit=h.xml --out md=h.md >h.json
is "hostile compare: exit" "$?" 1
GITHUB_STEP_SUMMARY= "$BENCH" compare --db h.db --run 1 old "$NAME" --threshold 3% --annotate github >h.txt
python3 - "$NAME" h.json h.xml h.md h.txt <<'PY' && ok || bad "hostile names: $(cat h.txt)"
import json, re, sys, xml.etree.ElementTree as ET
name, js, xm, md, txt = sys.argv[1:6]
d = json.load(open(js))
assert all(c['candidate'] == name for g in d['gates'] for c in g['cells']), 'json changed the name'
# XML 1.0 cannot hold the control characters: each is '?'; the rest reads back as it was
want = re.sub('[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]', '?', name)
names = [tc.get('name') for tc in ET.parse(xm).getroot().iter('testcase')]
assert names and all(n.startswith(want + ' vs old: ') for n in names), names
m = open(md, encoding='utf-8').read()
assert '<&>' not in m and '::error::x' in m.replace('\\', ''), 'md'
lines = open(txt, encoding='utf-8').read().splitlines()
cmds = [l for l in lines if l.startswith('::')]
# stop, resume, and one ::error per cell: nothing of the name starts a command of its own
assert len(cmds) == 4 and all(l.startswith('::error title=patchbench compare synthetic') for l in cmds[2:]), cmds
assert all('\x1b' not in l and '%250A' in l for l in cmds[2:]), cmds
# in the Markdown, the only tags are the page's own fold
assert not re.sub(r'</?(details|summary)>', '', m).count('<'), 'md holds a tag of the store'
PY

finish
