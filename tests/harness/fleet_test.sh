#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# fleet_test.sh BENCH FIXTURES CASE — `bench merge` and `bench report --machines` (docs/fleet.md),
# one case per behaviour. Stores of two "machines" are made on this one with PB_MACHINE_ID and
# seeded synthetic runs (fixed samples): nothing here depends on timing.
BENCH=$1 FIX=$2 CASE=$3
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
# seeded MACHINE SEED DB [ARGS...]: a seeded, quick synthetic run of a fake machine
seeded() {
    local m=$1 seed=$2 db=$3
    shift 3
    # unpinned unless a test says otherwise: a column's label names a pinned CPU
    PB_MACHINE_ID=$m "$BENCH" run --suite synthetic --seed "$seed" --quick --rounds 6 --quiet --cpu none --db "$db" "$@" >/dev/null ||
        bad "seeded run of $m into $db"
}
TABLES="runs cases samples sample_metrics stats ratios objects"
counts() { # counts DB: the row count of every copied table, space-separated
    local t out=""
    for t in $TABLES; do out+="$(q "$1" "SELECT count(*) FROM $t") "; done
    echo "$out"
}
sum_counts() { # sum_counts DB...: the element-wise sum of counts
    local t out="" n db
    for t in $TABLES; do
        n=0
        for db in "$@"; do n=$((n + $(q "$db" "SELECT count(*) FROM $t"))); done
        out+="$n "
    done
    echo "$out"
}
# summary rows without run ids, sorted (the stable interface of docs/schema.md)
summary_dump() { q "$1" "SELECT suite, impl, variant, op, size_bytes, metric, unit, n, median, p10, p90 FROM summary" | sort; }
two_machines() {
    seeded machine-a 1 a.db
    seeded machine-b 2 b.db
}

case $CASE in
merge-two-machines-sum-then-nothing)
    two_machines
    expect 0 "a.db: copied 1 run" "$BENCH" merge a.db b.db --into c.db
    is "every table holds the sum of both" "$(counts c.db)" "$(sum_counts a.db b.db)"
    is "summary of DEST is the union of the sources'" "$(summary_dump c.db)" "$(cat <(summary_dump a.db) <(summary_dump b.db) | sort)"
    is "machine ids kept" "$(q c.db "SELECT group_concat(machine_id, ',') FROM (SELECT machine_id FROM runs ORDER BY 1)")" \
       "machine-a,machine-b"
    is "uuids kept" "$(q c.db "SELECT uuid FROM runs ORDER BY uuid")" \
       "$(cat <(q a.db "SELECT uuid FROM runs") <(q b.db "SELECT uuid FROM runs") | sort)"
    before=$(counts c.db)
    expect 0 "skipped 1 already in c.db" "$BENCH" merge a.db b.db --into c.db
    is "a second merge adds nothing" "$(counts c.db)" "$before"
    expect 0 "2 runs copied, 0 skipped" "$BENCH" merge a.db b.db --into c2.db
    ;;
merge-copies-every-column)
    two_machines
    # a run's user side and its objects (version 6) go with it
    q a.db "UPDATE runs SET user_revision = 'v1.2-3-gabc1234', user_label = 'PR 7', user_repo = '/src/x',
            build_parity = 'old (a) and new (b) were built with different flags: -O2 / -O3';
            INSERT INTO objects (run_id, impl, path, real_path, size_bytes, sha256, elf, build_id, compiler, flags,
            flags_source, producers, comment, needed, build_type, revision, repo)
            VALUES (1, 'new', 'b/x', '/src/b/x', 100, 'ab12', 'ELF64 PIE executable', 'cd34', 'gcc 12.2.0', '-O3',
            'DW_AT_producer', '1 unit: GNU C11 12.2.0 -O3', 'GCC: 12.2.0', 'libc.so.6', 'ELF64 PIE executable, debug info',
            'v1.2-3-gabc1234', '/src/x')"
    expect 0 "" "$BENCH" merge a.db b.db --into c.db
    oc=$(q c.db "SELECT group_concat('o.' || name, ', ') FROM pragma_table_info('objects') WHERE name <> 'run_id'")
    is "objects: every column copied" "$(q c.db "SELECT $oc FROM objects o")" "$(q a.db "SELECT $oc FROM objects o")"
    is "objects: under the run of the same uuid" "$(q c.db "SELECT r.uuid FROM objects o JOIN runs r ON r.id = o.run_id")" \
       "$(q a.db "SELECT uuid FROM runs")"
    # whole rows without their ids (ids are remapped; every other value is the source's)
    cols=$(q c.db "SELECT group_concat(name, ', ') FROM pragma_table_info('runs') WHERE name <> 'id'")
    both="ATTACH 'a.db' AS a; ATTACH 'b.db' AS b;"
    is "runs: every column copied" "$(q c.db "SELECT $cols FROM runs ORDER BY uuid")" \
       "$(q c.db "$both SELECT $cols FROM (SELECT * FROM a.runs UNION ALL SELECT * FROM b.runs) ORDER BY uuid")"
    cc=$(q c.db "SELECT group_concat('c.' || name, ', ') FROM pragma_table_info('cases') WHERE name NOT IN ('id', 'run_id')")
    sc=$(q c.db "SELECT group_concat('s.' || name, ', ') FROM pragma_table_info('stats') WHERE name <> 'case_id'")
    for s in a b; do
        is "cases and stats of machine-$s: every column copied" \
           "$(q c.db "$both SELECT $cc, $sc FROM runs r JOIN cases c ON c.run_id = r.id JOIN stats s ON s.case_id = c.id
                      WHERE r.uuid = (SELECT uuid FROM $s.runs) ORDER BY 2, 3, 4, 5, 10")" \
           "$(q $s.db "SELECT $cc, $sc FROM cases c JOIN stats s ON s.case_id = c.id ORDER BY 2, 3, 4, 5, 10")"
    done
    # per run, the samples and their metrics, and the ratios, as the source holds them
    for m in a b; do
        u=$(q $m.db "SELECT uuid FROM runs")
        is "machine-$m: samples and metrics" \
           "$(q c.db "SELECT c.impl, s.round, s.position, s.iterations, s.ns, s.tsc, s.cycles, s.instructions, s.cpu_ns
                      FROM runs r JOIN cases c ON c.run_id = r.id JOIN samples s ON s.case_id = c.id WHERE r.uuid = '$u'
                      ORDER BY 1, 2, 3")" \
           "$(q $m.db "SELECT c.impl, s.round, s.position, s.iterations, s.ns, s.tsc, s.cycles, s.instructions, s.cpu_ns
                       FROM cases c JOIN samples s ON s.case_id = c.id ORDER BY 1, 2, 3")"
        is "machine-$m: ratios" \
           "$(q c.db "SELECT q.variant, q.size_bytes, q.metric, q.baseline, q.candidate, q.estimate, q.ci_lo, q.ci_hi FROM ratios q
                      JOIN runs r ON r.id = q.run_id WHERE r.uuid = '$u' ORDER BY 1, 2, 3, 4, 5")" \
           "$(q $m.db "SELECT variant, size_bytes, metric, baseline, candidate, estimate, ci_lo, ci_hi FROM ratios ORDER BY 1, 2, 3, 4, 5")"
    done
    is "the integrity check" "$(q c.db "PRAGMA integrity_check")" "ok"
    is "foreign keys hold" "$(q c.db "PRAGMA foreign_key_check")" ""
    ;;
merge-skips-run-dest-holds)
    two_machines
    cp a.db d.db
    expect 0 "a.db: copied 0 runs (0 samples), skipped 1 already in d.db" "$BENCH" merge a.db b.db --into d.db
    is "DEST holds each run once" "$(q d.db "SELECT count(*), count(DISTINCT uuid) FROM runs")" "2|2"
    is "every table holds the sum" "$(counts d.db)" "$(sum_counts a.db b.db)"
    ;;
merge-leaves-incomplete-and-failed-runs)
    seeded machine-a 1 a.db
    seeded machine-a 2 a.db
    seeded machine-a 3 a.db
    q a.db "UPDATE runs SET status = 'incomplete' WHERE id = 2; UPDATE runs SET status = 'failed', status_reason = 'test' WHERE id = 3"
    expect 0 "copied 1 run (24 samples), skipped 0 already in c.db; left out 1 incomplete, 1 failed" \
        "$BENCH" merge a.db --into c.db
    is "only the complete run" "$(q c.db "SELECT uuid FROM runs")" "$(q a.db "SELECT uuid FROM runs WHERE id = 1")"
    is "none of the others' cases" "$(q c.db "SELECT count(*) FROM cases")" "$(q a.db "SELECT count(*) FROM cases WHERE run_id = 1")"
    ;;
merge-refuses-newer-schema-dest-unchanged)
    two_machines
    cp b.db new.db
    q new.db "PRAGMA user_version = 99"
    src_before=$(sha256sum new.db)
    # DEST absent: not created
    expect 2 "newer than this bench" "$BENCH" merge a.db new.db --into absent.db
    [[ ! -e absent.db ]] && ok || bad "a refused merge created DEST"
    # DEST present: unchanged, and the good SRC before the refused one was not merged either
    expect 0 "" "$BENCH" merge b.db --into d.db
    dest_before=$(counts d.db)
    expect 2 "schema version 99" "$BENCH" merge a.db new.db --into d.db
    is "DEST unchanged" "$(counts d.db)" "$dest_before"
    is "SRC unchanged" "$(sha256sum new.db)" "$src_before"
    # not a patchbench database at all
    sqlite3 other.db "CREATE TABLE t (x)"
    expect 2 "not a patchbench database" "$BENCH" merge other.db --into d.db
    ;;
merge-migrates-older-source-in-a-copy)
    sqlite3 old.db < "$FIX/store-v1-first.sql" || bad "cannot load fixture"
    before=$(sha256sum old.db)
    temps=$(ls "${TMPDIR:-/tmp}" | grep -c "^pb-merge-")
    expect 0 "older schema, merging from a migrated temporary copy" "$BENCH" merge old.db --into c.db
    is "SRC not changed" "$(sha256sum old.db)" "$before"
    is "SRC still unversioned" "$(q old.db "PRAGMA user_version")" "0"
    is "its complete runs merged" "$(q c.db "SELECT count(*) FROM runs")" "$(q old.db "SELECT count(*) FROM runs WHERE status = 'complete'")"
    is "its summary rows" "$(summary_dump c.db)" "$(summary_dump old.db)"
    is "no temporary copy left" "$(ls "${TMPDIR:-/tmp}" | grep -c "^pb-merge-")" "$temps"
    ;;
merge-copies-gate-rows-of-merged-runs)
    seeded machine-a 1 a.db
    seeded machine-a 2 a.db
    q a.db "UPDATE runs SET status = 'incomplete' WHERE id = 2"
    # a comparison of run 1 with itself (copied), one that names the incomplete run 2 (left out), and
    # a calibration drawn from the first (copied) and one from the second (left out)
    q a.db "INSERT INTO comparisons (id, created_at, command, suite, metric, pairing, alpha, conf, power, ncells, verdict)
              VALUES (7, '2026-01-01T00:00:00Z', 'compare', 'synthetic', 'ns_per_op', 'round', 0.05, 0.95, 0.8, 1, 'pass'),
                     (8, '2026-01-01T00:00:01Z', 'compare', 'synthetic', 'ns_per_op', 'round', 0.05, 0.95, 0.8, 1, 'pass');
            INSERT INTO comparison_runs VALUES (7, 1, 'both', NULL), (8, 1, 'baseline', NULL), (8, 2, 'candidate', NULL);
            INSERT INTO comparison_cells (comparison_id, baseline, candidate, variant, op, size_bytes, n_pairs, ratio, change, verdict)
              VALUES (7, 'old', 'new', 'chain', 'spin', 1000, 6, 0.99, 'none', 'pass');
            INSERT INTO calibrations (created_at, machine_id, suite, metric, pairing, impl, variant, op, size_bytes, repeats,
                                      false_alarms, inconclusive, first_comparison, last_comparison)
              VALUES ('2026-01-01T00:00:02Z', 'machine-a', 'synthetic', 'ns_per_op', 'round', 'new', 'chain', 'spin', 1000, 3, 0, 0, 7, 7),
                     ('2026-01-01T00:00:03Z', 'machine-a', 'synthetic', 'ns_per_op', 'round', 'new', 'chain', 'spin', 1000, 3, 0, 0, 8, 8)"
    expect 0 "comparisons copied 1, already there 0, left out 1; calibrations copied 1, already there 0, left out 1" \
        "$BENCH" merge a.db --into c.db
    is "the comparison names the merged run" \
       "$(q c.db "SELECT r.uuid, cr.side FROM comparison_runs cr JOIN runs r ON r.id = cr.run_id")" \
       "$(q a.db "SELECT uuid FROM runs WHERE id = 1")|both"
    is "its cells" "$(q c.db "SELECT baseline, candidate, variant, size_bytes, ratio, verdict FROM comparison_cells")" \
       "old|new|chain|1000|0.99|pass"
    is "the calibration points at the copied comparison" \
       "$(q c.db "SELECT first_comparison = (SELECT id FROM comparisons) AND last_comparison = first_comparison FROM calibrations")" "1"
    expect 0 "comparisons copied 0, already there 1, left out 1; calibrations copied 0, already there 1" \
        "$BENCH" merge a.db --into c.db
    is "merging again adds no gate row" "$(q c.db "SELECT (SELECT count(*) FROM comparisons) || (SELECT count(*) FROM calibrations)")" "11"
    ;;
merge-bad-arguments-exit-2)
    seeded machine-a 1 a.db
    expect 2 "--into" "$BENCH" merge a.db
    expect 2 "at least one SRC" "$BENCH" merge --into c.db
    expect 2 "--into" "$BENCH" merge a.db --into ''
    expect 2 "--into" "$BENCH" merge a.db --into :memory:
    expect 2 "--nosuch" "$BENCH" merge a.db --into c.db --nosuch
    expect 2 "missing.db" "$BENCH" merge missing.db --into c.db
    expect 2 "is the --into store itself" "$BENCH" merge a.db --into a.db
    [[ ! -e c.db ]] && ok || bad "a refused merge created DEST"
    expect 0 "usage: bench merge" "$BENCH" merge --help
    ;;
report-machines-one-column-per-machine)
    two_machines
    expect 0 "" "$BENCH" merge a.db b.db --into c.db
    expect 0 "synthetic: 2 machine configurations -> o/synthetic_machines.md" "$BENCH" report --db c.db --machines all --out o
    md=o/synthetic_machines.md
    [[ -s $md && -s o/synthetic_machines.png && -s o/synthetic_machines.svg ]] && ok || bad "outputs missing"
    hdr=$(grep '^| variant' "$md")
    [[ $hdr == *"machine-a userspace: new/old"*"machine-b userspace: new/old"* ]] && ok || bad "header: $hdr"
    # seeded samples: the verdicts are fixed (machine-a: both cells hold; machine-b: both inconclusive)
    is "cell rows" "$(grep -c '^| chain | spin |' "$md")" "2"
    is "machine-a verdicts" "$(grep '^| chain | spin |' "$md" | awk -F'|' '{print $7}' | grep -c 'claim holds')" "2"
    is "machine-b verdicts" "$(grep '^| chain | spin |' "$md" | awk -F'|' '{print $8}' | grep -c 'inconclusive here')" "2"
    grep -q 'CPU model' "$md" && ok || bad "no CPU model row"
    grep -q "run $(q c.db "SELECT id FROM runs WHERE machine_id = 'machine-b'"), started" "$md" && ok || bad "the run is not named"
    # one machine, by a prefix of its id; a machine without runs; a bad value
    expect 0 "1 machine configuration" "$BENCH" report --db c.db --machines machine-b --out o1
    [[ $(grep '^| variant' o1/synthetic_machines.md) != *machine-a* ]] && ok || bad "--machines machine-b shows machine-a"
    expect 2 "no complete run of those machines" "$BENCH" report --db c.db --machines nosuch --out o2
    expect 2 "--machines" "$BENCH" report --db c.db --machines '' --out o3
    expect 2 "--machines: an empty machine id" "$BENCH" report --db c.db --machines a,,b --out o3
    # the HTML page gets the section
    expect 0 "page: o4/report.html" "$BENCH" report --db c.db --machines all --out o4 --html
    grep -q 'id="machines-synthetic"' o4/report.html && ok || bad "no machines section in the page"
    ;;
report-machines-configurations-distinct)
    # one machine, three configurations: a plain run, a run with the native profile only, and one
    # that records another CPU affinity: three columns, each from its newest run
    seeded machine-a 1 a.db
    seeded machine-a 2 a.db
    # (synthetic has no second build profile: its impls renamed as a `--impl old@native,new@native` run names them)
    seeded machine-a 3 n.db
    q n.db "UPDATE cases SET impl = impl || '@native'; UPDATE ratios SET baseline = baseline || '@native', candidate = candidate || '@native'"
    seeded machine-a 4 p.db --cpu 1
    expect 0 "" "$BENCH" merge a.db n.db p.db --into c.db
    expect 0 "3 machine configurations" "$BENCH" report --db c.db --machines all --out o
    hdr=$(grep '^| variant' o/synthetic_machines.md)
    [[ $hdr == *"machine-a userspace: new/old"*"machine-a userspace @native: new@native/old@native"*"machine-a userspace cpu 1: new/old"* ]] &&
        ok || bad "header: $hdr"
    newest=$(q c.db "SELECT id FROM runs WHERE uuid = '$(q a.db "SELECT uuid FROM runs WHERE id = 2")'")
    grep -q "machine-a userspace\*\*: .* run $newest, started .* (newest of 2 runs of this configuration; older: 1)" \
        o/synthetic_machines.md && ok || bad "not the newest run ($newest), or the older one not named"
    ;;
report-machines-by-cpu-identity)
    # one machine id and one model name on two steppings (a VM moved to another host's CPU), and a
    # run from before the identity: three columns, grouped by vendor/family/model/stepping
    seeded machine-a 1 a.db
    seeded machine-a 2 a.db
    seeded machine-a 3 a.db
    q a.db "UPDATE runs SET cpu_model = 'AMD EPYC', cpu_vendor = 'AuthenticAMD', cpu_family = 25, cpu_model_number = 1,
            cpu_stepping = 1 + (id = 2); UPDATE runs SET cpu_vendor = NULL, cpu_family = NULL, cpu_model_number = NULL,
            cpu_stepping = NULL, cpu_microcode = NULL, hypervisor = NULL WHERE id = 3"
    expect 0 "3 machine configurations" "$BENCH" report --db a.db --machines all --out o
    md=o/synthetic_machines.md
    ident=$(grep '^| CPU identity |' "$md")
    [[ $ident == *"AuthenticAMD family 25 model 1 stepping 1 | AuthenticAMD family 25 model 1 stepping 2 | not recorded |" ]] &&
        ok || bad "identity row: $ident"
    is "one model name over the three" "$(grep '^| CPU model |' "$md" | grep -o 'AMD EPYC' | wc -l)" "3"
    hdr=$(grep '^| variant' "$md")
    [[ $hdr == *"machine-a userspace: new/old"*"machine-a userspace (AuthenticAMD family 25 model 1 stepping 2): new/old"* ]] &&
        ok || bad "header: $hdr"
    grep -q "run 2, started" "$md" && grep -q "run 1, started" "$md" && grep -q "run 3, started" "$md" && ok ||
        bad "not every run has its column"
    grep -q "(newest of" "$md" && bad "a run of the other stepping was hidden as an older run" || ok
    # the figure: three dash types, one per group
    is "dash types in the key" "$(grep -o 'with linespoints lc [0-9]* dt [0-9]*' o/synthetic_machines.gp | awk '{print $NF}' | sort -u | wc -l)" "3"
    # 12 pt lettering in both terminals and the key panel (docs/report.md)
    is "12 pt lettering" "$(grep -c "font ',12'\|font 'sans,12'" o/synthetic_machines.gp)" "4"
    # every header shows the identity: the single-run report (Markdown, HTML) of run 2
    expect 0 "" "$BENCH" report --db a.db --run 2 --out r --html
    grep -q "^- CPU identity: AuthenticAMD family 25 model 1 stepping 2," r/synthetic.md && ok || bad "no identity in synthetic.md"
    grep -q 'class="machine"><strong>Measured: run 2, CPU</strong> AMD EPYC: AuthenticAMD family 25 model 1 stepping 2,' \
        r/report.html && ok || bad "no identity in the page's header"
    ;;
report-machines-hostile-names)
    two_machines
    expect 0 "" "$BENCH" merge a.db b.db --into c.db
    nothing_ran() { [[ -z $(find "$T" -name X -print -quit) ]] && ok || bad "$1: a command ran (X exists)"; }
    # text that would end gnuplot's quotes and run a command: refused, nothing written, nothing runs
    n=0
    for name in 'm`touch X`' "m'\`touch X\`'" $'m\n!touch X' "''; system 'touch X'; '"; do
        n=$((n + 1))
        for col in machine_id cpu_model cpu_vendor; do
            cp c.db h$n$col.db
            q h$n$col.db "UPDATE runs SET $col = CAST(x'$(printf '%s' "$name" | od -An -tx1 | tr -d ' \n')' AS TEXT) WHERE machine_id = 'machine-a'"
            expect 1 "refusing" "$BENCH" report --db h$n$col.db --machines all --out o$n$col
            nothing_ran "$col $name"
            [[ ! -e o$n$col/synthetic_machines.md && ! -e o$n$col/synthetic_machines.png ]] && ok || bad "$col $name: outputs left"
        done
    done
    # text that is only text to gnuplot: drawn as it is, nothing runs; '|' escaped in the markdown
    cp c.db t.db
    q t.db "UPDATE runs SET cpu_model = 'a''; system ''touch X''; b | c', machine_id = 'm\$(touch X)' WHERE machine_id = 'machine-a'"
    expect 0 "2 machine configurations" "$BENCH" report --db t.db --machines all --out text
    nothing_ran "quoted text"
    grep -q "a'; system 'touch X'; b \\\\| c" text/synthetic_machines.md && ok || bad "'|' not escaped in the markdown"
    grep -q "a''; system ''touch X''; b | c" text/synthetic_machines.gp && ok || bad "the CPU model not quoted in the script"
    ;;
report-machines-kmod-real-code)
    # an imported kernel-module run with the kernel's own template beside kmod-new (xts kmod_real):
    # bench import pairs kmod-new against kmod-kernel-xts, --machines sets it after each cell and marks
    # the cell where the two are more than 10 % apart beyond the CI (docs/verdicts.md, "The real code")
    {
        echo "pbk1 meta kernel=6.1.0-99-amd64"
        echo "pbk1 meta target=qemu-tcg"
        for i in kmod-old kmod-new kmod-kernel-xts; do echo "pbk1 selftest impl=$i status=pass detail=4-vectors"; done
        for r in 0 1 2 3 4 5 6 7; do
            for cell in "4096 16000 10000 8000" "512 4000 3600 3570"; do
                read -r size o n k <<< "$cell"
                echo "pbk1 sample suite=xts impl=kmod-old variant=256 op=enc size=$size round=$r iters=8 ns=$((o + r * 10))"
                echo "pbk1 sample suite=xts impl=kmod-new variant=256 op=enc size=$size round=$r iters=8 ns=$((n + r * 7))"
                echo "pbk1 sample suite=xts impl=kmod-kernel-xts variant=256 op=enc size=$size round=$r iters=8 ns=$((k + r * 6))"
            done
        done
        echo "pbk1 end"
    } > k.txt
    PB_MACHINE_ID=machine-k expect 0 "imported run" "$BENCH" import k.txt --db k.db
    is "kmod-new/kmod-kernel-xts stored per cell" \
       "$(q k.db "SELECT size_bytes, round(estimate, 2) FROM ratios WHERE baseline = 'kmod-kernel-xts' AND candidate = 'kmod-new' AND metric = 'ns_per_op' ORDER BY 1")" \
       $'512|1.01\n4096|1.25'
    expect 0 "1 machine configuration" "$BENCH" report --db k.db --machines all --out o
    md=o/xts_machines.md
    grep -q '^| variant .*machine-k qemu-tcg: kmod-new/kmod-old \\\[95% CI\\\], verdict; {real code kmod-new/kmod-kernel-xts' "$md" &&
        ok || bad "header: $(grep '^| variant' "$md")"
    row=$(grep '^| 256 | enc | 4 KiB |' "$md")
    [[ $row == *"{real code 1.25"*": differs from the real code}"* ]] && ok || bad "4 KiB not marked: $row"
    row=$(grep '^| 256 | enc | 512 B |' "$md")
    [[ $row == *"{real code 1.0"* && $row != *"differs from the real code"* ]] && ok || bad "512 B marked: $row"
    grep -q '^- \*\*machine-k qemu-tcg\*\*: .*; differs from the real code 1$' "$md" && ok || bad "the column's count"
    grep -q "title 'differs from the real code'" o/xts_machines.gp && ok || bad "the figure's mark"
    ;;
history-on-merged-store)
    two_machines
    expect 0 "" "$BENCH" merge a.db b.db --into c.db
    out=$("$BENCH" history --suite synthetic --db c.db --out h 2>&1)
    [[ $? -eq 0 ]] && ok || bad "history on a merged store: $out"
    [[ $out == *"[machine machine-a]"* && $out == *"[machine machine-b]"* ]] && ok || bad "history per machine: $out"
    ;;
*)
    bad "unknown case $CASE"
    ;;
esac
finish
