#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# baseline_test.sh BENCH SRCDIR: stored baselines (issue 23, item 4). `bench baseline save NAME`
# names a run, `bench gate --against NAME` gates another run of the same machine and configuration
# against it, unpaired, labelled so, stored with the baseline's name; refused with exit 2, naming
# what differs: an unknown name, another machine, another configuration, the baseline itself.
# Verdicts only on seeded samples (the synthetic suite's --seed: no clock), one layout each so that
# they do not depend on how many this build has; exec runs only for what is compared, never a time.
. "$(dirname "$0")/../lib.sh"
bench=$1 src=$2
cd "$T" || exit 1
db=b.db
seeded() { "$bench" run --suite synthetic --quick --quiet --layouts 1 "$@" --db $db >/dev/null 2>&1 || bad "seeded run $*"; }
seeded --seed 1            # run 1: the baseline
seeded --seed 2            # run 2: the same code again
seeded --seed 3 --shift 1.5   # run 3: 1.5 times slower
# the seed and the shift are the synthetic suite's options, so its own configuration: these runs stand
# for three sessions of one configuration (what differs between real sessions is the machine)
q $db "UPDATE runs SET options = (SELECT options FROM runs WHERE id = 1)"

expect 0 "baseline main: run 1 in $db" "$bench" baseline save main --run 1 --db $db
is "listed" "$("$bench" baseline list --db $db | awk '$1 == "main" { print $2, $3 }')" "1 synthetic"

# A/A: not a regression; 1.5x: a regression, where the cell's scatter allows one
"$bench" gate --against main --run 2 --db $db >aa.out 2>&1
rc=$?
[[ $rc -eq 0 || $rc -eq 3 ]] && ok || bad "A/A against the baseline: exit $rc: $(cat aa.out)"
grep -q "regression (" aa.out && grep -q " regression " aa.out && bad "A/A: a regression: $(cat aa.out)" || ok
expect 1 "verdict: regression" "$bench" gate --against main --db $db   # the newest run: 3
grep -q "UNPAIRED, weaker than a paired gate" <("$bench" gate --against main --db $db 2>&1) && ok || bad "not labelled unpaired"
"$bench" gate --against main --run 3 --db $db >r.out 2>&1
grep -q "gate synthetic against stored baseline 'main': run 3 (new) must not be slower than run 1" r.out && ok ||
    bad "title: $(head -2 r.out)"
grep -qE "10000 +16 +1\.[45][0-9]{2} .* regression" r.out && ok ||
    bad "the 1.5x cell is not a regression near 1.5: $(cat r.out)"
grep -q "threshold 25% (.*ci/thresholds:[0-9]*, rule baseline)" r.out && ok || bad "its own threshold not said: $(cat r.out)"
is "stored with the baseline's name, unpaired" \
   "$(q $db "SELECT DISTINCT baseline || ' ' || command || ' ' || (gate IS NULL) || ' ' || pairing FROM comparisons")" \
   "main gate 1 medians"
is "the runs and their sides" \
   "$(q $db "SELECT group_concat(run_id || ':' || side, ' ') FROM comparison_runs WHERE comparison_id = (SELECT max(id) FROM comparisons)")" \
   "1:baseline 3:candidate"
"$bench" gate --against main --run 3 --format json --db $db >r.json 2>&1
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); g = d["gates"][0]; assert g["gate"] == "baseline" and g["exit_status"] == 1 and d["exit_status"] == 1 and [r["side"] for r in g["runs"]] == ["baseline", "candidate"], d' r.json &&
    ok || bad "json: $(cat r.json)"

# this machine's A/A calibration across runs widens the CI by its between-run noise
w0=$(q $db "SELECT ci_hi / ci_lo FROM comparison_cells WHERE comparison_id = (SELECT max(id) FROM comparisons) AND size_bytes = 10000")
q $db "INSERT INTO calibrations (created_at, machine_id, suite, metric, pairing, impl, variant, op, size_bytes, repeats,
       noise, mdc, false_alarms, inconclusive) SELECT 'x', machine_id, 'synthetic', 'ns_per_op', 'alternation', 'new',
       'chain', 'spin', 10000, 1, 0.10, 0.3, 0, 0 FROM runs WHERE id = 1"
"$bench" gate --against main --run 3 --db $db >c.out 2>&1
grep -q "A/A calibration (alternation) in 1 of 2 cells" c.out && ok || bad "the calibration is not said: $(cat c.out)"
w1=$(q $db "SELECT ci_hi / ci_lo FROM comparison_cells WHERE comparison_id = (SELECT max(id) FROM comparisons) AND size_bytes = 10000")
awk -v a="$w0" -v b="$w1" 'BEGIN { exit !(b > 1.3 * a) }' && ok || bad "the calibrated cell's CI is not wider: $w0 then $w1"

# saving a name again moves it
expect 0 "baseline main: run 2 (was run 1)" "$bench" baseline save main --run 2 --db $db
expect 0 "baseline main: run 2" "$bench" baseline save main --db $db --run 2

# refusals: exit 2, saying what
expect 2 "no baseline 'nope' in $db" "$bench" gate --against nope --db $db
expect 2 "run 2 is baseline 'main' itself" "$bench" gate --against main --run 2 --db $db
expect 2 "--against compares stored runs: not with --suite" "$bench" gate --against main --suite synthetic --db $db
expect 2 "--run goes with --against NAME" "$bench" gate --run 3 --db $db
expect 2 "baseline name 'a b'" "$bench" baseline save 'a b' --db $db
expect 2 "has no run 99" "$bench" baseline save x --run 99 --db $db
expect 2 "no baseline 'x'" "$bench" baseline delete x --db $db
expect 2 "no database at none.db" "$bench" baseline save x --db none.db
[[ -e none.db ]] && bad "baseline save made a store" || ok
seeded --seed 4 --rounds 8    # run 4: another configuration
expect 2 "runs 2 and 4 differ in configuration (what the code under test is aside): " "$bench" gate --against main --run 4 --db $db
grep -q "rounds=16 / rounds=8" <("$bench" gate --against main --run 4 --db $db 2>&1) && ok || bad "the differing rounds not named"
seeded --seed 5               # run 5: another machine
q $db "UPDATE runs SET options = (SELECT options FROM runs WHERE id = 1), machine_id = 'elsewhere', hostname = 'other' WHERE id = 5"
expect 2 "run 2 was made on another machine than run 5" "$bench" gate --against main --run 5 --db $db
q $db "UPDATE runs SET status = 'incomplete' WHERE id = 4"
expect 2 "run 4 is incomplete: only a complete run can be a baseline" "$bench" baseline save old --run 4 --db $db
expect 0 "baseline main deleted (its run stays)" "$bench" baseline delete main --db $db
expect 2 "no baseline 'main'" "$bench" gate --against main --run 3 --db $db
is "the run stays" "$(q $db "SELECT count(*) FROM runs WHERE id = 2")" "1"

# what names the code under test is not configuration: two exec runs of different programs compare
"$bench" run --suite exec --old true --new true --rounds 2 --warmup 1 --layouts 1 --quiet --db e.db >/dev/null 2>&1 || bad "exec run 1"
"$bench" run --suite exec --old "$(type -P true)" --new "$(type -P echo)" --rounds 2 --warmup 1 --layouts 1 --quiet --db e.db >/dev/null 2>&1 ||
    bad "exec run 2"
"$bench" run --suite exec --old true --new true --bytes 10 --rounds 2 --warmup 1 --layouts 1 --quiet --db e.db >/dev/null 2>&1 ||
    bad "exec run 3"
expect 0 "" "$bench" baseline save exec-main --run 1 --db e.db
"$bench" gate --against exec-main --run 2 --db e.db >e.out 2>&1
rc=$?
[[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] && ok || bad "another program is refused: exit $rc: $(cat e.out)"
expect 2 "(not given) / --bytes=10" "$bench" gate --against exec-main --run 3 --db e.db
finish
