#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench run/gate --measure valgrind for real: refusals, what is stored, and the gates' exit codes on
# a known 2 % work increase (synthetic --shift 1.02; xts's test-only PB_XTS_TEST_SLOWDOWN=new). The
# counts are deterministic (the same binary gives the same Ir in every run), so these verdicts do
# not depend on the machine's load; elapsed times are printed, never asserted.
BENCH=$1
source "$(dirname "$0")/../lib.sh"

# refusals that need no valgrind
expect 2 "unknown --measure 'cycles' (time, valgrind or both)" "$BENCH" run --suite synthetic --measure cycles --db "$T/x.db"
expect 2 "unknown --measure 'cycles' (time, valgrind or both)" "$BENCH" gate --suite synthetic --measure cycles --db "$T/x.db"
expect 2 "--measure both is the claim gate" "$BENCH" gate --suite synthetic --measure both --calibrate --db "$T/x.db"
expect 2 "--vg-child is bench's own" "$BENCH" run --suite synthetic --vg-child "$T" --db "$T/x.db"
expect 2 "no --calibrate" "$BENCH" gate --suite synthetic --measure valgrind --calibrate --db "$T/x.db"
expect 2 "not with --target qemu" "$BENCH" run --suite xts --measure valgrind --target qemu --db "$T/x.db"
expect 2 "--rounds has no meaning with --measure valgrind" "$BENCH" run --suite synthetic --measure valgrind --rounds 5 --db "$T/x.db"
expect 2 "bad size 'zz'" "$BENCH" run --suite synthetic --measure valgrind --sizes zz --db "$T/x.db"
[[ ! -e $T/x.db ]] && ok || bad "a refused run created its database"

skip_unless_valgrind "the gates under valgrind"

timed() { # timed LABEL CODE PATTERN cmd...: expect, and say how long it took
    local label=$1 t0=$SECONDS
    shift
    expect "$@"
    echo "$label: $((SECONDS - t0)) s"
}

DB=$T/vg.db
timed "synthetic --shift 1.02" 1 "exit 1 (regression)" "$BENCH" gate --suite synthetic --measure valgrind --shift 1.02 --quiet --db "$DB"
timed "synthetic --shift 1.0" 0 "exit 0 (pass)" "$BENCH" gate --suite synthetic --measure valgrind --shift 1.0 --quiet --db "$DB"
# the gate stored its valgrind run and comparison; the counts went in with source valgrind
is "valgrind runs" "$(q "$DB" "SELECT count(*) FROM runs WHERE target = 'valgrind' AND status = 'complete'")" 2
is "count rows" "$(q "$DB" "SELECT count(DISTINCT s.source) || ' ' || count(DISTINCT s.metric) FROM stats s")" "1 6"
is "source" "$(q "$DB" "SELECT DISTINCT source FROM stats")" valgrind
is "comparison exits" "$(q "$DB" "SELECT group_concat(exit_status) FROM (SELECT exit_status FROM comparisons ORDER BY id)")" "1,0"

# an impl that fails its self-test is refused, as by the wall-time runner; an unavailable one is shown
expect 1 "refusing to count synthetic/new: it failed its known-answer self-test" "$BENCH" run --suite synthetic --measure valgrind --fail-selftest new --quiet --db "$T/r.db"
expect 0 "unavailable: --unavailable new was given" "$BENCH" run --suite synthetic --measure valgrind --unavailable new --quiet --db "$T/r.db"

# both metrics: wall time from the seeded generator (no clock), counts from valgrind; the report
# puts them side by side
TH=$T/thresholds
printf 'claim synthetic * 15%%\nclaim synthetic insns_per_op 1%%\n' >"$TH"
B=(gate --suite synthetic --measure both --seed 1 --quick --quiet --thresholds "$TH" --db "$T/b.db")
timed "both, --shift 1.3" 1 "both slower: more work" "$BENCH" "${B[@]}" --shift 1.3
timed "both, --shift 1.0" 0 "exit 0 (pass): wall time pass, counts pass" "$BENCH" "${B[@]}" --shift 1.0
# both gates in one document (docs/gate-outputs.md), read by real parsers: the JSON on stdout (the
# two-metric table went to stderr), the JUnit file
"$BENCH" "${B[@]}" --shift 1.3 --format json --out "junit=$T/both.xml" >"$T/both.json" 2>"$T/both.err"
is "both, json: exit" "$?" 1
if command -v python3 >/dev/null; then
    python3 - "$T/both.json" "$T/both.xml" <<'PY' && ok || bad "both: the document: $(cat "$T/both.err")"
import json, sys, xml.etree.ElementTree as ET
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "regression" and d["exit_status"] == 1, d["verdict"]
assert [g["measure"] for g in d["gates"]] == ["time", "valgrind"], [g["measure"] for g in d["gates"]]
assert all(c["verdict"] == "regression" for g in d["gates"] for c in g["cells"])
assert d["gates"][1]["correction"] == "none" and d["gates"][1]["thresholds"]["value"] == 0.01
suites = ET.parse(sys.argv[2]).getroot().findall("testsuite")
assert [s.get("name") for s in suites] == ["claim synthetic", "claim synthetic (counts)"], [s.get("name") for s in suites]
assert all(len(tc.findall("failure")) == 1 for s in suites for tc in s.findall("testcase"))
PY
fi

# a regression in one known function (synthetic --grow-tail 2: new's spin_tail does 2 % of the op's
# work more): the count gate fails and names that function first, in every format (docs/counts.md)
W=(gate --suite synthetic --measure valgrind --quiet --db "$T/why.db")
expect 1 "grew: spin_tail +88.0 (100 %)" "$BENCH" "${W[@]}" --grow-tail 2
"$BENCH" "${W[@]}" --grow-tail 2 --format json --out "junit=$T/why.xml" --out "md=$T/why.md" >"$T/why.json" 2>"$T/why.err"
is "grow-tail, json: exit" "$?" 1
if command -v python3 >/dev/null; then
    python3 - "$T/why.json" "$T/why.xml" "$T/why.md" <<'PY' && ok || bad "grow-tail: the document: $(cat "$T/why.err")"
import json, sys, xml.etree.ElementTree as ET
d = json.load(open(sys.argv[1]))
cells = d["gates"][0]["cells"]
assert all(c["verdict"] == "regression" for c in cells), [c["verdict"] for c in cells]
for c in cells:
    f = c["functions"]
    assert f[0]["function"] == "spin_tail" and f[0]["delta"] > 0, f
    assert c["grew"].startswith("spin_tail +"), c["grew"]
    a, b = (float(x) for x in c["note"].split(" ", 1)[1].split(" -> "))
    assert abs(sum(x["delta"] for x in f) - (b - a)) < 1e-6, (f, c["note"])
    assert "spin_chain" not in c["grew"], c["grew"]
msgs = [fl.get("message") for tc in ET.parse(sys.argv[2]).getroot().iter("testcase") for fl in tc.findall("failure")]
assert msgs and all("grew: spin_tail +" in m for m in msgs), msgs
assert "grew: spin\\_tail +" in open(sys.argv[3]).read()
PY
fi
expect 0 "where the instructions differ: nowhere; 2 cells the same in every function" "$BENCH" "${W[@]}" --grow-tail 0
# the rows the count runs stored: per case they sum to its insns_per_op; merged and exported
is "func_counts sum to insns_per_op" "$(q "$T/why.db" "SELECT count(*) FROM cases c JOIN stats s ON s.case_id = c.id
    AND s.metric = 'insns_per_op' WHERE abs((SELECT sum(insns_per_op) FROM func_counts f WHERE f.case_id = c.id)
    - s.median) < 1e-6 AND c.run_id = 1")" 4
expect 0 "copied 3 runs" "$BENCH" merge "$T/why.db" --into "$T/why-merged.db"
is "merged func_counts" "$(q "$T/why-merged.db" "SELECT count(*) FROM func_counts")" "$(q "$T/why.db" "SELECT count(*) FROM func_counts")"
"$BENCH" export --format json --run 1 --db "$T/why-merged.db" --out "$T/why-export.json"
if command -v python3 >/dev/null; then
    python3 - "$T/why-export.json" <<'PY' && ok || bad "export: functions"
import json, sys
d = json.load(open(sys.argv[1]))
assert any(r["function"] == "spin_tail" for r in d["functions"]), d["functions"]
assert d["function_diffs"] and all(x["functions"][0]["function"] == "spin_tail" for x in d["function_diffs"])
PY
fi

# xts: the same build twice, then with one op in 50 of 'new' done twice (the commit gate's form)
X=(--suite xts --measure valgrind --impl new --sizes 64,4096 --keys 256 --quiet --db "$T/x.db")
expect 0 "run 1 complete" "$BENCH" run "${X[@]}"
expect 0 "run 2 complete" "$BENCH" run "${X[@]}"
PB_XTS_TEST_SLOWDOWN=new expect 0 "run 3 complete" "$BENCH" run "${X[@]}"
is "identical Ir in two runs" "$(q "$T/x.db" "SELECT count(*) FROM stats a JOIN cases ca ON ca.id = a.case_id
    JOIN cases cb ON cb.run_id = 2 AND cb.impl = ca.impl AND cb.variant = ca.variant AND cb.op = ca.op
     AND cb.size_bytes = ca.size_bytes JOIN stats b ON b.case_id = cb.id AND b.metric = a.metric
    WHERE ca.run_id = 1 AND a.metric = 'insns_per_op' AND a.median = b.median")" 4
timed "xts commit gate, +2 % in new" 1 "exit 1 (regression)" "$BENCH" gate --measure valgrind --baseline-runs 1 --candidate-runs 3 --db "$T/x.db"
timed "xts commit gate, same build" 0 "exit 0 (pass)" "$BENCH" gate --measure valgrind --baseline-runs 1 --candidate-runs 2 --db "$T/x.db"
expect 2 "one run with one run" "$BENCH" gate --measure valgrind --baseline-runs 1,2 --candidate-runs 3,4 --db "$T/x.db"
# the switch takes a per cent, in whole ops: new:5 does an op in 20 twice, so of the 50 ops a valgrind
# sample counts 2 are done twice (+4 %, exactly); a wall-time sample of thousands of ops gets +5 %
PB_XTS_TEST_SLOWDOWN=new:5 expect 0 "run 4 complete" "$BENCH" run "${X[@]}"
is "PB_XTS_TEST_SLOWDOWN=new:5: 2 of 50 counted ops twice, +4 % Ir at 4 KiB" "$(q "$T/x.db" "SELECT DISTINCT round(b.median / a.median, 2) FROM stats a JOIN cases ca ON ca.id = a.case_id
    JOIN cases cb ON cb.run_id = 4 AND cb.impl = ca.impl AND cb.variant = ca.variant AND cb.op = ca.op
     AND cb.size_bytes = ca.size_bytes JOIN stats b ON b.case_id = cb.id AND b.metric = a.metric
    WHERE ca.run_id = 1 AND a.metric = 'insns_per_op' AND ca.size_bytes = 4096")" "1.04"
PB_XTS_TEST_SLOWDOWN=new:five expect 1 "the per cent after ':' must be a number in (0, 100]" "$BENCH" run "${X[@]}"
finish
