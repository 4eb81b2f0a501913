#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --cpu (pinning, and its refusals) and the noise warnings, end to end: what bench run and bench
# gate say and store (runs.cpu_affinity, loadavg_start, loadavg_end, noise, samples.wait_ns) and
# what the report shows. The waits are the test-only PB_TEST_WAITS, the load PB_TEST_LOADAVG, and
# the samples are seeded (--seed): nothing here depends on this machine's load or clock.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
DB=$T/r.db
run() { "$BENCH" run --suite synthetic --quick --seed 7 --quiet --db "$DB" "$@"; }

# ---- --cpu refused: exit 2, naming --cpu, nothing stored ----
expect 2 "--cpu 999: no such online CPU" run --cpu 999
expect 2 "--cpu 'x'" run --cpu x
expect 2 "--cpu '-1'" run --cpu=-1
expect 2 "--cpu 999: no such online CPU" "$BENCH" gate --suite synthetic --quick --seed 7 --cpu 999 --db "$DB"
[[ -e $DB ]] && bad "a refused --cpu created a database" || ok

# ---- --cpu recorded ----
online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
last=${online##*[-,]}
if [[ -n $online && $online != "0" ]]; then
    expect 0 "run 1 complete" run --cpu 0
    is "--cpu 0 pinned" "$(q "$DB" "SELECT cpu_affinity FROM runs WHERE id = 1")" "cpu 0 (--cpu; $(nproc) online)"
    expect 0 "run 2 complete" run
    is "default: the last online CPU" "$(q "$DB" "SELECT cpu_affinity LIKE 'cpu $last (default: the last online CPU%' FROM runs WHERE id = 2")" "1"
else
    expect 0 "run 1 complete" run --cpu 0
    is "one CPU: not pinned" "$(q "$DB" "SELECT cpu_affinity FROM runs WHERE id = 1")" "not pinned: 1 online CPU"
    expect 0 "run 2 complete" run
fi
expect 0 "run 3 complete" run --cpu none
is "--cpu none" "$(q "$DB" "SELECT cpu_affinity FROM runs WHERE id = 3")" "not pinned: --cpu none"

# ---- noise: rounds that waited (the test-only PB_TEST_WAITS=0.5: every sample of rounds 1, 5, 9, ...
# waited half its time) warn, with how far the ratios move without them; stored and shown ----
out=$(PB_TEST_WAITS=0.5 run 2>&1)
rc=$?
is "waited run exits 0" "$rc" "0"
want="8 of 32 rounds waited (run-queue delay or steal over 1 % of a sample); without them the ratios move by up to 2.3 % (new/old chain spin 10000 B: 1.073, 1.098 without)"
[[ $out == *"bench: warning: run 4 was noisy: $want"* ]] && ok || bad "no warning on stderr: $out"
[[ $out == *$'\nsynthetic: 2 cells: '*$'\n  '*"noise: $want"* ]] && ok || bad "no warning under the answer: $out"
is "noise stored" "$(q "$DB" "SELECT noise FROM runs WHERE id = 4")" "$want"
is "waits stored per sample" "$(q "$DB" "SELECT count(*) || ' ' || sum(wait_ns > 0.49 * ns) FROM samples JOIN cases ON cases.id = case_id WHERE run_id = 4")" "64 16"
# seeded samples all take the fast core state: no probe warning
is "no core-state warning" "$(q "$DB" "SELECT instr(noise, 'fast core state') FROM runs WHERE id = 4")" "0"
expect 0 "" "$BENCH" report --db "$DB" --run 4 --out "$T/plots"
grep -q '^\*\*Noise warning: 8 of 32 rounds waited' "$T/plots/synthetic.md" && ok || bad "no noise warning in the md header"
expect 0 "" "$BENCH" report --html --db "$DB" --run 4 --out "$T/r.html"
grep -q 'class="noise"><strong>Measured: run 4, noise warning:</strong> 8 of 32 rounds waited' "$T/r.html" && ok || bad "no noise warning in the html"
# ---- the load average is a label, never a warning: it counts the user's own earlier runs ----
out=$(PB_TEST_LOADAVG=9.5 PB_TEST_WAITS=0 run 2>&1)
[[ $out != *"warning"* && $out != *"NOISE"* ]] && ok || bad "a load of 9.5 warned: $out"
is "load stored, noise NULL" "$(q "$DB" "SELECT quote(noise) || ' ' || loadavg_start || ' ' || loadavg_end FROM runs WHERE id = 5")" "NULL 9.5 9.5"
expect 0 "" "$BENCH" report --db "$DB" --run 5 --out "$T/plots5"
grep -q '^- load average (1 min): 9.50 at start, 9.50 at end' "$T/plots5/synthetic.md" && ok || bad "no load line in the md header"

# ---- the gate's runs record the same ----
PB_TEST_WAITS=0.5 "$BENCH" gate --suite synthetic --quick --seed 7 --cpu none --quiet --db "$T/g.db" >"$T/g.out" 2>&1
rc=$?
[[ $rc -eq 0 || $rc -eq 3 ]] && ok || bad "seeded gate exited $rc: $(cat "$T/g.out")"
grep -q "was noisy: .* rounds waited" "$T/g.out" && ok || bad "gate: no noise warning: $(cat "$T/g.out")"
is "gate runs: cpu_affinity" "$(q "$T/g.db" "SELECT DISTINCT cpu_affinity FROM runs")" "not pinned: --cpu none"
finish
