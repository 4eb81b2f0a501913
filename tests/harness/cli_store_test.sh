#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The bench CLI's errors, the store's contents, and what a failed, refused or killed run leaves behind.
# Uses the synthetic suite (known ratio, no crypto) so that it tests the harness alone.
BENCH=$1
source "$(dirname "$0")/../lib.sh"

# ---- CLI errors: clear message, non-zero exit ----
expect 2 "unknown command 'frob'" "$BENCH" frob
expect 2 "--suite is required" "$BENCH" run
expect 2 "unknown suite 'nope'" "$BENCH" run --suite nope
expect 2 "--rounds wants a whole number" "$BENCH" run --suite synthetic --rounds x
expect 2 "--sample-ms wants a number" "$BENCH" run --suite synthetic --sample-ms -1
expect 2 "unknown option '--frob' for suite synthetic" "$BENCH" run --suite synthetic --frob
expect 2 "bad size '12x'" "$BENCH" run --suite synthetic --sizes 12x --db "$T/e.db"
expect 2 "unknown impl 'zzz' for suite synthetic" "$BENCH" run --suite synthetic --impl zzz --db "$T/e.db"
expect 2 "--shift wants a factor" "$BENCH" run --suite synthetic --shift 99
expect 0 "" "$BENCH" run --suite synthetic --shift 1.0 --quick --quiet --rounds 2 --db "$T/s.db"
expect 2 "bad --benchmark_ flag" "$BENCH" run --suite synthetic --benchmark_frob=1
expect 2 "unknown --target" "$BENCH" run --suite synthetic --target mars
expect 0 "--shift F" "$BENCH" run --suite synthetic --help
expect 0 "usage: bench run" "$BENCH" run --help
expect 0 "usage: bench report" "$BENCH" report --help
expect 0 "usage: bench kat" "$BENCH" kat --help
expect 0 "usage: bench list" "$BENCH" list --help
expect 0 "synthetic" "$BENCH" list
expect 2 "no database at" "$BENCH" report --db "$T/none.db"
expect 2 "no vector file given" "$BENCH" kat
expect 2 "cannot open" "$BENCH" kat "$T/missing.rsp"
echo "junk" > "$T/junk.rsp"
expect 2 "no suite recognises" "$BENCH" kat "$T/junk.rsp"
expect 2 "--run wants a run id" "$BENCH" report --db "$T/e.db" --run abc
echo "not a database at all, just text that is long enough to be read as a header......" > "$T/bad.db"
expect 2 "not a patchbench database" "$BENCH" list --runs --db "$T/bad.db"
[[ -e "$T/e.db" ]] && bad "a rejected command line created a database" || ok

# ---- a complete run: summary view, samples, provenance ----
DB=$T/a.db
expect 0 "run 1 complete" "$BENCH" run --suite synthetic --quick --quiet --layouts 8 --db "$DB"
is "summary columns" "$(q "$DB" "SELECT group_concat(name, ',') FROM pragma_table_info('summary')")" \
   "run_id,suite,impl,variant,op,size_bytes,metric,unit,n,median,p10,p90"
is "run status" "$(q "$DB" "SELECT status FROM runs WHERE id = 1")" "complete"
is "samples (16 rounds x 2 impls x 2 cells)" "$(q "$DB" "SELECT count(*) FROM samples")" "64"
is "every sample has time, ticks and probe" \
   "$(q "$DB" "SELECT count(*) FROM samples WHERE ns > 0 AND iterations > 0 AND tsc > 0 AND probe_before > 0 AND probe_after > 0")" "64"
is "start rotates: old first in round 0, second in round 1" \
   "$(q "$DB" "SELECT group_concat(s.position, ',') FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.impl = 'old' AND c.size_bytes = 1000 AND s.round < 2 ORDER BY s.round")" "0,1"
# code layouts (docs/layout.md): 8 of the build's 16 here, every layout the same number of rounds, each ratio across them
is "layouts: every sample in one of 8, each layout 8 samples (2 rounds x 2 impls x 2 cells)" \
   "$(q "$DB" "SELECT group_concat(k, ',') FROM (SELECT layout || ':' || count(*) AS k FROM samples GROUP BY layout ORDER BY layout)")" \
   "0:8,1:8,2:8,3:8,4:8,5:8,6:8,7:8"
is "layouts: both sides of a round in the same layout" \
   "$(q "$DB" "SELECT count(DISTINCT s.layout) FROM samples s GROUP BY s.round HAVING 1 ORDER BY 1 DESC LIMIT 1")" "1"
is "layouts: each case ran in 8 copies of its code" "$(q "$DB" "SELECT DISTINCT layouts FROM cases")" "8"
is "layouts: the run says which and their seed" "$(q "$DB" "SELECT layouts LIKE '8 (seed 1): libpbsuites.so%' FROM runs")" "1"
is "layouts: each ratio across 8, with its range" \
   "$(q "$DB" "SELECT count(*) FROM ratios WHERE layouts = 8 AND layout_lo <= estimate AND estimate <= layout_hi AND per_layout LIKE '0:% 7:%'")" \
   "$(q "$DB" "SELECT count(*) FROM ratios")"
expect 0 "run 1 complete" "$BENCH" run --suite synthetic --quick --quiet --layouts 1 --db "$T/one.db"
is "--layouts 1: one layout, as before" "$(q "$T/one.db" "SELECT count(DISTINCT s.layout) || ',' || max(c.layouts) FROM samples s JOIN cases c ON c.id = s.case_id")" "1,1"
is "--layouts 1: the Wilcoxon CI of one binary" "$(q "$T/one.db" "SELECT DISTINCT layouts || ' ' || (layout_lo IS NULL) FROM ratios")" "1 1"
expect 2 "--layouts wants a whole number from 1 to 16" "$BENCH" run --suite synthetic --quick --layouts 0 --db "$T/bad-layouts.db"
expect 2 "--layout-seed wants a non-negative integer" "$BENCH" run --suite synthetic --quick --layout-seed -3 --db "$T/bad-layouts.db"
[[ -e "$T/bad-layouts.db" ]] && bad "a refused --layouts created a database" || ok
is "summary rows have n = 16" "$(q "$DB" "SELECT DISTINCT n FROM summary WHERE metric = 'ns_per_op'")" "16"
is "ratios for both cells" "$(q "$DB" "SELECT count(*) FROM ratios WHERE metric = 'ns_per_op' AND candidate = 'new' AND baseline = 'old'")" "2"
is "provenance recorded" \
   "$(q "$DB" "SELECT count(*) FROM runs WHERE length(git_sha) > 6 AND length(compiler) > 2 AND length(cflags) > 2 AND length(cpu_model) > 0 AND length(kernel) > 0 AND length(clock_source) > 0 AND length(tick_source) > 0 AND length(governor) > 0 AND length(command_line) > 0")" "1"
if q "$DB" "SELECT counter_source FROM runs" | grep -q "cycles: perf:"; then
    is "cycles_per_byte present with a cycle counter" "$(q "$DB" "SELECT count(*) > 0 FROM stats WHERE metric = 'cycles_per_byte'")" "1"
else
    is "no cycles_per_byte without a cycle counter (TSC is never called cycles)" \
       "$(q "$DB" "SELECT count(*) FROM stats WHERE metric = 'cycles_per_byte'")" "0"
    is "the fallback is visible in the run" "$(q "$DB" "SELECT counter_source LIKE '%cycles: unavailable%' FROM runs")" "1"
fi
is "every sample classified by core speed" "$(q "$DB" "SELECT count(*) FROM samples WHERE speed IN ('fast','slow','mixed')")" "64"

# a known shift is found: new takes 1.5x the time of old (seeded samples, not the clock: a fixed answer)
expect 0 "" "$BENCH" run --suite synthetic --quick --quiet --db "$DB" --shift 1.5 --seed 1
est=$(q "$DB" "SELECT round(estimate, 2) FROM ratios WHERE run_id = 2 AND size_bytes = 10000")
awk -v e="$est" 'BEGIN { exit !(e > 1.35 && e < 1.65) }' && ok || bad "shift 1.5 measured as $est"
# same seed, same samples and metrics, whatever else the machine is doing
for d in seed-a seed-b; do "$BENCH" run --suite synthetic --quick --quiet --shift 1.5 --seed 1 --db "$T/$d.db" >/dev/null; done
all_values() {
    q "$1" "SELECT group_concat(iterations || ':' || ns, ' ') FROM (SELECT * FROM samples ORDER BY id)"
    q "$1" "SELECT group_concat(metric || '=' || median || ',' || p10 || ',' || p90, ' ') FROM (SELECT * FROM stats ORDER BY case_id, metric)"
}
v=$(all_values "$T/seed-a.db")
[[ -n $v ]] && ok || bad "seeded run stored no metrics"
is "a seeded run repeats exactly" "$(all_values "$T/seed-b.db")" "$v"
# a sample's metrics are derived where they are read (the gate), not stored per sample
is "no per-sample metric stored" "$(q "$T/seed-a.db" "SELECT count(*) FROM sample_metrics")" "0"

# Google Benchmark flags pass through: repetitions become stored samples
expect 0 "" "$BENCH" run --suite synthetic --quick --quiet --db "$DB" --rounds 3 --benchmark_repetitions=2
is "repetitions stored" "$(q "$DB" "SELECT count(*) FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = 3")" "24"
# a pass of more rounds than Google Benchmark takes in one call (passes.c, 256): every round of each
# impl stored once, seeded as one call would have it
expect 0 "" "$BENCH" run --suite synthetic --rounds 600 --passes 1 --boundary-rounds 0 --sizes 1000 --sample-ms 0.01 \
    --seed 3 --quiet --db "$T/calls.db"
is "600 rounds in 3 calls: each round once per impl" \
   "$(q "$T/calls.db" "SELECT count(*) || ',' || count(DISTINCT c.impl || '/' || s.round) FROM samples s JOIN cases c ON c.id = s.case_id")" \
   "1200,1200"
# --sizes adds sizes outside the grid; --impl filters
expect 0 "" "$BENCH" run --suite synthetic --quick --quiet --db "$DB" --sizes 500 --impl old
is "--sizes/--impl" "$(q "$DB" "SELECT group_concat(impl || ':' || size_bytes) FROM cases WHERE run_id = 4")" "old:500"

# ---- refused and unavailable implementations ----
expect 1 "refusing to time synthetic/new" "$BENCH" run --suite synthetic --quick --quiet --db "$DB" --fail-selftest new
is "refused run is failed" "$(q "$DB" "SELECT status FROM runs WHERE id = 5")" "failed"
is "failed run not in summary" "$(q "$DB" "SELECT count(*) FROM summary WHERE run_id = 5")" "0"
expect 0 "" "$BENCH" run --suite synthetic --quick --quiet --db "$DB" --unavailable new
is "unavailable case stored with reason" "$(q "$DB" "SELECT count(*) FROM cases WHERE run_id = 6 AND impl = 'new' AND status = 'unavailable' AND reason LIKE 'unavailable:%'")" "2"

# ---- interrupted runs are never counted ----
for sig in INT KILL; do
    D=$T/$sig.db
    # a cell takes at least 500 x 2 x 2 ms = 2 s (more when busy), four cells, in 4 passes: the
    # signal comes 1 s after the run is recorded, with at least 6 s of the run still to go (no sample
    # is stored before the last pass: each cell is stored whole)
    "$BENCH" run --suite synthetic --db "$D" --rounds 500 --sample-ms 2 --sizes 1000,2000,3000,4000 --quiet >"$T/out" 2>&1 &
    pid=$!
    # wait for the run's row (at most 60 s on a busy machine; usually well under one)
    for _ in $(seq 300); do
        [[ $(sqlite3 "$D" "SELECT count(*) FROM runs" 2>/dev/null) -gt 0 ]] && break
        sleep 0.2
    done
    sleep 1
    kill -$sig $pid
    wait $pid
    rc=$?
    if [[ $sig == INT ]]; then
        is "SIGINT exit status" "$rc" "130"
        is "SIGINT reason" "$(q "$D" "SELECT status || ': ' || status_reason FROM runs")" "incomplete: interrupted by signal 2"
    else
        is "SIGKILL leaves the run incomplete" "$(q "$D" "SELECT status FROM runs")" "incomplete"
    fi
    is "$sig: nothing in summary" "$(q "$D" "SELECT count(*) FROM summary")" "0"
    is "$sig: database intact" "$(q "$D" "PRAGMA integrity_check")" "ok"
    expect 2 "is incomplete, not complete" "$BENCH" report --db "$D" --run 1 --out "$T/p"
done

# ---- bench import: kernel-module results (pbk1 lines, with console noise) ----
K=$T/kmod.txt
{
    echo "[    1.234] unrelated kernel log line"
    echo "pbk1 meta kernel=6.1.0-99-amd64"
    echo "pbk1 meta target=qemu-tcg"
    echo "pbk1 selftest impl=kmod-old status=pass detail=4-vectors"
    for r in 0 1 2 3 4 5; do
        echo "pbk1 sample suite=xts impl=kmod-old variant=256 op=enc size=4096 round=$r iters=8 ns=$((16000 + r * 10)) cycles=$((40000 + r))"
        echo "pbk1 sample suite=xts impl=kmod-new variant=256 op=enc size=4096 round=$r iters=8 ns=$((8000 + r * 7)) cycles=$((20000 + r))"
        echo "pbk1 sample suite=xts impl=kmod-kernel-xts variant=256 op=enc size=4096 round=$r iters=8 ns=$((10000 + r * 9)) cycles=$((25000 + r))"
    done
    echo "pbk1 unavailable suite=sigpool impl=kmod-new variant=md5 reason=crypto_clone_ahash-needs-6.4"
    echo "pbk1 end"
} > "$K"
KDB=$T/k.db
expect 0 "imported run" "$BENCH" import "$K" --db "$KDB"
is "import: runs per suite" "$(q "$KDB" "SELECT group_concat(suite || ':' || status || ':' || target) FROM runs")" "xts:complete:qemu-tcg,sigpool:complete:qemu-tcg"
is "import: guest kernel" "$(q "$KDB" "SELECT DISTINCT guest_kernel FROM runs")" "6.1.0-99-amd64"
is "import: summary rows" "$(q "$KDB" "SELECT count(*) FROM summary WHERE impl LIKE 'kmod-%' AND metric = 'ns_per_op' AND n = 6")" "3"
is "import: ratio new/old" "$(q "$KDB" "SELECT round(estimate, 2) FROM ratios WHERE baseline = 'kmod-old' AND candidate = 'kmod-new' AND metric = 'ns_per_op'")" "0.5"
# the suite's kmod_ratio_pairs: the re-implemented new template against the kernel's own xts
is "import: ratio new/kernel-xts" "$(q "$KDB" "SELECT round(estimate, 2) FROM ratios WHERE baseline = 'kmod-kernel-xts' AND candidate = 'kmod-new' AND metric = 'ns_per_op'")" "0.8"
is "import: unavailable kept" "$(q "$KDB" "SELECT status || ':' || reason FROM cases WHERE suite = 'sigpool'")" "unavailable:crypto_clone_ahash-needs-6.4"
# the module's machine is the file's to say, never this one's: without meta lines, not recorded
is "import: no identity in the file, none stored" "$(q "$KDB" "SELECT count(*) FROM runs WHERE cpu_vendor IS NULL AND cpu_family IS NULL AND hypervisor IS NULL AND cache_l1d_bytes IS NULL")" "2"
# with them (kmod/main.c writes these), stored as the module's machine's CPU identity
sed 's/^pbk1 meta target=qemu-tcg$/&\npbk1 meta cpu_vendor=AuthenticAMD cpu_family=25 cpu_model_number=1 cpu_stepping=1 microcode=0x1000065\npbk1 meta threads_per_core=2 hypervisor_cpuid=4b564d4b564d4b564d000000/' "$K" > "$T/id.txt"
expect 0 "imported run" "$BENCH" import "$T/id.txt" --db "$T/kid.db"
is "import: the CPU identity" "$(q "$T/kid.db" "SELECT DISTINCT cpu_vendor || ' ' || cpu_family || ' ' || cpu_model_number || ' ' || cpu_stepping || ' ' || cpu_microcode || ' ' || threads_per_core || ' ' || hypervisor FROM runs")" \
   "AuthenticAMD 25 1 1 0x1000065 2 KVM (CPUID 0x40000000: KVMKVMKVM)"
sed 's/cpu_stepping=1 /cpu_stepping=one /' "$T/id.txt" > "$T/badid.txt"
expect 2 "badid.txt:4: meta cpu_stepping= wants a whole number from 0 to 1000000, got 'one'" "$BENCH" import "$T/badid.txt" --db "$T/k2.db"
sed 's/hypervisor_cpuid=4b56/hypervisor_cpuid=zz56/' "$T/id.txt" > "$T/badid.txt"
expect 2 "badid.txt:5: meta hypervisor_cpuid= wants 24 hex digits or none" "$BENCH" import "$T/badid.txt" --db "$T/k2.db"
grep -v "pbk1 end" "$K" > "$T/trunc.txt"
expect 2 "truncated" "$BENCH" import "$T/trunc.txt" --db "$T/k2.db"
sed 's/iters=8 ns=16000/iters=x ns=16000/' "$K" > "$T/bad.txt"
expect 2 "bad.txt:5: sample field iters=" "$BENCH" import "$T/bad.txt" --db "$T/k2.db"
is "rejected imports store nothing, not even a database" "$([[ -e $T/k2.db ]] && echo created || echo none)" "none"
expect 2 "cannot open" "$BENCH" import "$T/none.txt" --db "$T/k2.db"
expect 2 "--target" "$BENCH" run --suite drbg --target qemu --db "$T/k2.db"

# ---- report ----
expect 0 "synthetic: run" "$BENCH" report --db "$DB" --run 2 --out "$T/plots"
expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$DB" --run 2 --out "$T/plots"
grep -q "^\*\*Summary:\*\* 2 cells: " "$T/plots/synthetic.md" && ok || bad "report lacks the summary line"
grep -q "tolerance t = 0.10" "$T/plots/synthetic.md" && ok || bad "report header lacks the tolerance"
for f in synthetic.png synthetic.svg synthetic_ratio.png synthetic_ratio.svg synthetic.md; do [[ -s "$T/plots/$f" ]] && ok || bad "report did not write $f"; done
grep -q "| variant | op | bytes |" "$T/plots/synthetic.md" && ok || bad "report table missing"
grep -q "1\.[3-6][0-9]* \[" "$T/plots/synthetic.md" && ok || bad "report lacks the measured ratio"
mkdir -p "$T/emptybin"
expect 1 "gnuplot not found" env PATH="$T/emptybin" "$BENCH" report --db "$DB" --out "$T/plots2"
expect 2 "no complete run of suite xts" "$BENCH" report --db "$DB" --suite xts --out "$T/plots3"

# ---- a store with a corrupt page (issue 21): every reader refuses it with SQLite's words, never a crash ----
# page 1 past its 100-byte header zeroed: the schema's b-tree is gone, the header (and user_version) intact
cp "$DB" "$T/corrupt.db"
dd if=/dev/zero of="$T/corrupt.db" bs=1 seek=100 count=3996 conv=notrunc status=none
expect 2 "malformed" "$BENCH" report --db "$T/corrupt.db" --out "$T/corrupt-plots"
expect 2 "malformed" "$BENCH" report --run 1 --db "$T/corrupt.db" --out "$T/corrupt-plots"
expect 2 "database disk image is malformed" "$BENCH" list --runs --db "$T/corrupt.db"
expect 2 "cannot read the store: database disk image is malformed" "$BENCH" export --format csv --db "$T/corrupt.db"

finish
