#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The decomposition through bench (docs/why.md): a seeded wall-time run of the synthetic suite (no
# clock: its time ratio is --shift, 1.0) and a count run of the same build with --shift 0.8 (new
# does 20 % fewer instructions), so new does less work in the same time: the report, bench report's
# lines, the HTML page and the JSON export say so. A count run of another build or machine is not
# matched (the report is then what it was, byte for byte). Then bench run --measure both in one
# command, and its refusals. Counts are exact and the times seeded: nothing here depends on timing.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

# refusals that need no valgrind: nothing is stored
expect 2 "--measure both counts this process's implementations: not with --target qemu" \
    "$BENCH" run --suite xts --measure both --target qemu --db r.db
expect 2 "bad size 'zz'" "$BENCH" run --suite synthetic --measure both --sizes zz --db r.db
[[ ! -e r.db ]] && ok || bad "a refused --measure both created its database"
expect 0 "both: time, then count the same build" "$BENCH" help run

skip_unless_valgrind "the count runs"

# the wall-time run alone: its report, before any count run exists
expect 0 "run 1 complete" "$BENCH" run --suite synthetic --seed 1 --shift 1.0 --quick --quiet --db s.db
expect 0 "" "$BENCH" report --db s.db --out before
grep -q "Why" before/synthetic.md && bad "a report without a count run has a Why section" || ok

expect 0 "run 2 complete (suite synthetic, measure valgrind)" "$BENCH" run --suite synthetic --measure valgrind \
    --shift 0.8 --quiet --db s.db
FEWER='new executes 20 % fewer instructions but each costs [0-9]+ % more: memory, layout or micro-architecture, not work'

# Markdown: the section, a row per cell with the three ratios and the sentence
expect 0 "synthetic why (run 2's counts, the same build)" "$BENCH" report --db s.db --out after --html
grep -q '^## Why: instructions × time per instruction$' after/synthetic.md && ok || bad "md: no Why heading"
grep -q '^Run 1 (wall time) and run 2 (counts' after/synthetic.md && ok || bad "md: the runs are not named"
is "md rows" "$(grep -cE "^\| chain spin [0-9]+ B \| new/old \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \| 0\.800[0-9] \| 1\.2[0-9]+ \[1\.[0-9]+, 1\.[0-9]+\] \| $FEWER \|$" after/synthetic.md)" 2
# bench report's lines: the numbers and the sentence of each cell
expect 0 "" "$BENCH" report --db s.db --out after2
"$BENCH" report --db s.db --out after3 >term.txt 2>&1
is "terminal cells" "$(grep -cE '^  chain spin [0-9]+ B: [0-9.]+ \[[0-9.]+, [0-9.]+\] = 0\.800[0-9] × 1\.2' term.txt)" 2
is "terminal sentences" "$(grep -cE "^    $FEWER$" term.txt)" 2
# within the terminal's width
COLUMNS=50 "$BENCH" report --db s.db --out after4 >narrow.txt 2>&1
grep -q "why (run 2" narrow.txt && ok || bad "narrow: no why line: $(cat narrow.txt)"
long=$(sed -n '/why (run/,$p' narrow.txt | python3 -c 'import sys; print(sum(len(l.rstrip("\n")) > 50 for l in sys.stdin.buffer.read().decode().splitlines()))')
is "no why line over 50 columns" "$long" 0
# the HTML page
grep -q '<h3>Why: instructions × time per instruction</h3>' after/report.html && ok || bad "html: no Why heading"
is "html rows" "$(grep -cE "<tr><td>chain spin [0-9]+ B</td><td>new/old</td>.*$FEWER</td></tr>" after/report.html)" 2
# the JSON export: per cell the three ratios
expect 0 "" "$BENCH" export --format json --run 1 --db s.db --out e.json
if command -v python3 >/dev/null; then
    python3 - e.json <<'PY' && ok || bad "json: $(head -c 600 e.json)"
import json, sys
d = json.load(open(sys.argv[1]))["decomposition"]
assert len(d) == 2, d
for c in d:
    assert c["run_id"] == 1 and c["count_run_id"] == 2 and (c["baseline"], c["candidate"]) == ("old", "new"), c
    t, i, k = c["time_ratio"], c["instruction_ratio"], c["time_per_instruction_ratio"]
    assert abs(t["estimate"] - i * k["estimate"]) < 1e-9, c
    assert abs(t["ci_lo"] / i - k["ci_lo"]) < 1e-9 and abs(t["ci_hi"] / i - k["ci_hi"]) < 1e-9, c
    assert 0.79 < i < 0.81 and k["ci_lo"] > 1, c
    assert c["explained_by"] == "per instruction" and "20 % fewer instructions" in c["reading"], c
PY
fi
# the count run's own export has no decomposition (it is not a wall-time run)
expect 0 "" "$BENCH" export --format json --run 2 --db s.db --out c.json
grep -q '"decomposition": \[\]' c.json && ok || bad "a count run's export decomposed: $(grep -A3 decomposition c.json)"

# a count run is reported beside its wall-time run, never on its own
expect 2 "run 2 is a count run (--measure valgrind)" "$BENCH" report --db s.db --run 2 --out c2

# a count run of another build, or of the same build on another machine, is not the time run's: the
# report is the one without it, but for the count run's own section (where its impls' instructions
# differ, docs/counts.md), which needs no wall-time run
without_fns() { awk '/^## /{skip = ($0 ~ /^## Where the instructions differ/)} !skip' "$1"; }
for change in "git_sha = 'another'" "machine_id = 'another'" "cflags = 'another'"; do
    cp s.db o.db
    q o.db "UPDATE runs SET $change WHERE id = 2"
    rm -rf other
    expect 0 "" "$BENCH" report --db o.db --run 1 --out other
    diff <(without_fns before/synthetic.md) <(without_fns other/synthetic.md) > /dev/null && ok ||
        bad "$change: the report changed: $(diff before/synthetic.md other/synthetic.md | head -5)"
done

# --measure both: both runs in one command, then the decomposition; new does 30 % more work here
# and takes 30 % more time: the work explains it
expect 0 "new executes 30 % more instructions and each costs about the same: the work explains it" \
    "$BENCH" run --suite synthetic --measure both --seed 1 --shift 1.3 --quick --quiet --db b.db
is "both: runs" "$(q b.db "SELECT group_concat(target || ' ' || status, ', ') FROM (SELECT * FROM runs ORDER BY id)")" \
    "userspace complete, valgrind complete"
expect 0 "synthetic why (run 2's counts" "$BENCH" report --db b.db --out both

# xts has a kernel-module part: its count run is not drawn as one (its time is live: only the
# report's shape is asserted, never a ratio)
expect 0 "xts why (run 2's counts, the same build)" "$BENCH" run --suite xts --measure both --impl old,new --keys 256 \
    --sizes 4k --quick --quiet --db x.db
"$BENCH" report --db x.db --out xts >xts.txt 2>&1
grep -q "kernel-module" xts.txt && bad "xts: a count run drawn as a kernel-module run: $(cat xts.txt)" || ok
grep -q "^## Kernel-module variant" xts/xts.md && bad "xts: a Kernel-module section from the count run" || ok
is "xts: why rows" "$(grep -c '^| 256 [a-z]* 4 KiB | new/old | ' xts/xts.md)" 2
# the modelled child-call cost, paid in wall time and off under valgrind, is said beside the rows
grep "^\*\*The count run's suite settings\*\* " xts/xts.md | grep -qF 'child\_call\_cost=off under valgrind' && ok ||
    bad "xts: the count run's settings are not said: $(grep -n settings xts/xts.md)"
finish
