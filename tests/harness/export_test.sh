#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench export: json and csv hold exactly the run's statistics; gbench files of two seeded runs are
# accepted by Google Benchmark's own compare.py, which prints one line per (cell, impl) of the run
# (names stable across runs: no iteration count in them). Fixed data only: seeded synthetic runs.
# Skips (77) only when compare.py or the Python modules it imports (scipy, numpy) are missing.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
PY=/usr/bin/python3
COMPARE=$(ls /usr/share/benchmark/compare.py /usr/share/benchmark/tools/compare.py 2>/dev/null | head -1)
[[ -n $COMPARE ]] || { echo "SKIP: compare.py not installed (Debian libbenchmark-tools)"; exit 77; }
$PY -c 'import scipy, numpy' 2>/dev/null || { echo "SKIP: python3-scipy/python3-numpy missing"; exit 77; }

for seed in 1 2; do
    "$BENCH" run --suite synthetic --quick --quiet --rounds 6 --seed $seed --shift 0.8 --db s.db >/dev/null ||
        { echo "FAIL: seeded run $seed"; exit 1; }
done
expect 0 "" "$BENCH" export --format gbench --run 1 --db s.db --out a.json
expect 0 "" "$BENCH" export --format gbench --run 2 --db s.db --out b.json
cells=$(q s.db "SELECT count(*) FROM summary WHERE run_id = 1 AND metric = 'ns_per_op'")
[[ $cells -ge 4 ]] && ok || bad "only $cells (cell, impl) entries"
# the names are the same in both files
is "names" "$($PY -c 'import json,sys; print(sorted(b["name"] for b in json.load(open(sys.argv[1]))["benchmarks"]) ==
    sorted(b["name"] for b in json.load(open(sys.argv[2]))["benchmarks"]))' a.json b.json)" "True"
"$PY" "$COMPARE" --no-color benchmarks a.json b.json >cmp.txt 2>cmp.err || bad "compare.py failed: $(cat cmp.err)"
is "compare.py lines, one per benchmark" "$(grep -c '^synthetic/' cmp.txt)" "$cells"
# every benchmark of the store by name, each once
while read -r impl variant op size; do
    is "line of $impl $variant $op $size" "$(grep -c "^synthetic/$impl/$variant/$op/${size}_median " cmp.txt)" 1
done < <(q s.db "SELECT impl, variant, op, size_bytes FROM summary WHERE run_id = 1 AND metric = 'ns_per_op'" | tr '|' ' ')
# old against new inside one file, as compare.py's filters mode reads it
"$PY" "$COMPARE" --no-color filters a.json synthetic/old/ synthetic/new/ >filt.txt 2>&1 || bad "filters: $(cat filt.txt)"

# json: every statistic and every ratio of the run, values exact
expect 0 "" "$BENCH" export --format json --run 1 --db s.db --out r.json
is "json stats" "$($PY -c 'import json; print(len(json.load(open("r.json"))["stats"]))')" \
    "$(q s.db "SELECT count(*) FROM summary WHERE run_id = 1")"
is "json ratios" "$($PY -c 'import json; print(len(json.load(open("r.json"))["ratios"]))')" \
    "$(q s.db "SELECT count(*) FROM summary_ratios WHERE run_id = 1")"
is "json median exact" "$($PY -c 'import json; s=json.load(open("r.json"))["stats"]; print(repr(min(x["median"] for x in s)))')" \
    "$($PY -c "print(repr(float('$(q s.db "SELECT printf('%.17g', min(median)) FROM summary WHERE run_id = 1")')))")"
# csv: a header and one row per statistic; a name with a comma and a quote is quoted (RFC 4180)
q s.db "UPDATE cases SET variant = 'a,\"b' WHERE run_id = 1 AND variant = 'chain'"
expect 0 "" "$BENCH" export --format csv --run 1 --db s.db --out r.csv
is "csv rows" "$($PY -c 'import csv; print(len(list(csv.reader(open("r.csv")))))')" \
    "$(( $(q s.db "SELECT count(*) FROM summary WHERE run_id = 1") + 1 ))"
is "csv quoted field" "$($PY -c 'import csv; print(list(csv.reader(open("r.csv")))[1][3])')" 'a,"b'
# the time metric's spread beside the median (columns added behind the old ones): mean, stddev, min
# and max on the time rows only, user and sys empty where the samples do not keep them (synthetic),
# cpu (the mean CPU time per op, gbench's CPU time) where every sample has one
is "csv header" "$(head -1 r.csv)" "run_id,suite,impl,variant,op,size_bytes,metric,unit,n,median,p10,p90,mean,stddev,min,max,user,sys,cpu"
is "csv spread" "$($PY -c 'import csv; r=list(csv.DictReader(open("r.csv"))); t=[x for x in r if x["metric"] == "ns_per_op"]
print(len(t) > 0, all(float(x["min"]) <= float(x["mean"]) <= float(x["max"]) and float(x["stddev"]) >= 0 for x in t),
      all(x["mean"] == x["stddev"] == x["min"] == x["max"] == "" for x in r if x["metric"] != "ns_per_op"),
      all(x["user"] == x["sys"] == "" for x in r), all((x["cpu"] != "") == (x["metric"] == "ns_per_op") for x in r))')" "True True True True True"
# the samples' mean (to 1e-12: the sqlite3 program may sum in another order than bench's SQLite)
want=$(q s.db "SELECT printf('%.17g', min(m)) FROM (SELECT avg(s.ns / s.iterations) m FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = 1 GROUP BY c.id)")
is "json mean" "$($PY -c 'import json,sys; s=json.load(open("r.json"))["stats"]; m=min(x["mean"] for x in s if x["mean"] is not None)
print(abs(m - float(sys.argv[1])) <= 1e-12 * abs(m))' "$want")" "True"
# refusals: nothing written
expect 2 "--format" "$BENCH" export --format xml --db s.db
expect 2 "no complete run 9" "$BENCH" export --format json --run 9 --db s.db --out x.json
expect 2 "no complete run 1 of suite xts" "$BENCH" export --format json --run 1 --suite xts --db s.db --out x.json
[[ ! -e x.json && ! -e x.json.part ]] && ok || bad "a refused export left a file"
# the per-round --benchmark_out pass-through is refused, pointing here, before anything is measured
expect 2 "bench export --format gbench" "$BENCH" run --suite synthetic --quick --seed 1 --db s.db --benchmark_out=o.json
[[ ! -e o.json ]] && ok || bad "--benchmark_out wrote o.json"
finish
