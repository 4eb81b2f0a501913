#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# findings_test.sh BENCH SRCDIR CASE — the lab's JSON, whole (`bench export --format json --full`,
# `bench import` of it: docs/outputs.md) and the findings across CPUs (`bench findings`,
# docs/findings.md, results/published/). Seeded synthetic runs of fake machines and a committed
# seeded export: nothing here depends on timing.
BENCH=$1 SRC=$2 CASE=$3
source "$(dirname "$0")/../lib.sh"
ROWS="$SRC/tests/harness/store_rows.py"
cd "$T" || exit 1
seeded() { # seeded MACHINE SEED DB [ARGS...]
    local m=$1 seed=$2 db=$3
    shift 3
    PB_MACHINE_ID=$m "$BENCH" run --suite synthetic --seed "$seed" --quick --rounds 6 --quiet --cpu none --db "$db" "$@" >/dev/null ||
        bad "seeded run of $m into $db"
}
rows() { python3 "$ROWS" "$1"; }

case $CASE in
export-import-round-trip-keeps-every-row)
    seeded machine-a 1 a.db
    seeded machine-a 2 a.db --impl old,new
    # every table and every kind of value: an object, an older store's sample metric, an open CI
    # (inf), a NULL where the run recorded nothing, text with quotes and a non-ASCII byte
    q a.db "UPDATE runs SET user_revision = 'v1.2-3-g\"abc''1234', user_label = 'PR 7 – ü', hypervisor = NULL WHERE id = 1;
            INSERT INTO objects (run_id, impl, path, real_path, size_bytes, sha256, elf, build_id, compiler, flags,
            flags_source, producers, comment, needed, build_type, revision, repo)
            VALUES (1, 'new', 'x.so', '/x/x.so', 4096, 'ab', 'ELF64 shared object', 'cd', 'gcc 12.2.0', '-O2',
            'DW_AT_producer', 'GNU C17 12.2.0 -O2: 3', 'GCC: 12.2.0', 'libc.so.6', 'ELF64 shared object', 'v1', '/x');
            INSERT INTO sample_metrics (sample_id, metric, value) VALUES (1, 'ns_per_op', 323.5), (1, 'tsc_per_byte', 0.25);
            UPDATE ratios SET ci_hi = 9e999, ci_lo = 0.0 WHERE id = 1;"
    expect 0 "" "$BENCH" export --format json --full --db a.db --run 1 --out r1.json
    expect 0 "" "$BENCH" export --format json --full --db a.db --run 2 --out r2.json
    expect 0 "imported 1 run" "$BENCH" import r1.json --db b.db
    expect 0 "imported 1 run" "$BENCH" import r2.json --db b.db
    is "every row of every table, column by column (ids aside)" "$(rows b.db)" "$(rows a.db)"
    is "an open CI stays open" "$(q b.db "SELECT ci_hi FROM ratios WHERE ci_lo = 0.0")" "Inf"
    is "the CPU model kept" "$(q b.db "SELECT count(DISTINCT cpu_model) FROM runs")" "1"
    [[ $(rows b.db | grep -c '^objects: ') == 1 && $(rows b.db | grep -c '^sample_metrics: ') == 2 ]] && ok ||
        bad "objects and sample_metrics went with the run"
    before=$(rows b.db)
    expect 0 "imported 0 runs (0 samples), skipped 1 already in b.db" "$BENCH" import r1.json --db b.db
    is "a second import adds nothing" "$(rows b.db)" "$before"
    # the re-import of an import exports the same rows again (a published file is a fixed point)
    expect 0 "" "$BENCH" export --format json --full --db b.db --run 1 --out b1.json
    is "an import's export holds the same store rows" \
       "$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["store"], sort_keys=True))' b1.json)" \
       "$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["store"], sort_keys=True))' r1.json)"
    # the export without --full is what it was: no store rows
    "$BENCH" export --format json --db a.db --run 1 --out plain.json
    is "no rows without --full" "$(grep -c '"store"' plain.json)" "0"
    expect 2 "--full: only with --format json" "$BENCH" export --format csv --full --db a.db
    # a count run (docs/counts.md: target valgrind, its own metrics), exported by --target
    if command -v valgrind >/dev/null && [[ -z ${PB_VG_SANITIZED:-} ]]; then
        "$BENCH" run --suite synthetic --seed 1 --quick --measure valgrind --quiet --cpu none --db v.db >/dev/null 2>&1 ||
            bad "count run"
        expect 0 "" "$BENCH" export --format json --full --target valgrind --db v.db --out v.json
        expect 0 "imported 1 run" "$BENCH" import v.json --db v2.db
        is "a count run's rows, column by column" "$(rows v2.db)" "$(rows v.db)"
    fi
    ;;
export-import-gzip-round-trip)
    # --out FILE.gz: the same document gzip'd (results/published/), read back whatever its name
    seeded machine-a 1 a.db
    expect 0 "" "$BENCH" export --format json --full --db a.db --out all.json
    expect 0 "" "$BENCH" export --format json --full --db a.db --out all.json.gz
    is "a gzip file (magic 1f 8b)" "$(head -c 2 all.json.gz | od -An -tx1 | tr -d ' ')" "1f8b"
    is "the gzip holds the document byte for byte" \
       "$(python3 -c 'import gzip,sys; sys.stdout.write(gzip.open(sys.argv[1]).read().hex())' all.json.gz | sha256sum)" \
       "$(python3 -c 'import sys; sys.stdout.write(open(sys.argv[1],"rb").read().hex())' all.json | sha256sum)"
    is "no name, mtime 0 in the gzip header" "$(head -c 8 all.json.gz | od -An -tx1 | tr -d ' ')" "1f8b080000000000"
    expect 0 "" "$BENCH" export --format json --full --db a.db --out again.json.gz
    cmp -s all.json.gz again.json.gz && ok || bad "the same store exported twice gives other .gz bytes"
    expect 0 "imported 1 run" "$BENCH" import all.json.gz --db gz.db
    expect 0 "imported 1 run" "$BENCH" import all.json --db plain.db
    is "the .gz path stores the rows the plain one does" "$(rows gz.db)" "$(rows plain.db)"
    is "every row of every table, column by column (ids aside)" "$(rows gz.db)" "$(rows a.db)"
    cp all.json.gz renamed.bin
    expect 0 "imported 1 run" "$BENCH" import renamed.bin --db renamed.db
    # refused, nothing stored: a cut gzip, a gzip of text that is not JSON, trailing junk
    head -c 2000 all.json.gz > cut.json.gz
    expect 2 "cut.json.gz: not a whole gzip stream (" "$BENCH" import cut.json.gz --db cut.db
    python3 -c 'import gzip,sys; open(sys.argv[1],"wb").write(gzip.compress(b"hello\nnot json\n", mtime=0))' text.gz
    expect 2 "text.gz:1: " "$BENCH" import text.gz --db text.db
    python3 -c 'import gzip,sys; open(sys.argv[1],"wb").write(gzip.compress(b"{\n\"format\": 1,\n\"format\": 2}\n", mtime=0))' dup.gz
    expect 2 "dup.gz:3: duplicate object key" "$BENCH" import dup.gz --db dup.db
    { cat all.json.gz; printf 'junk'; } > junk.gz
    expect 2 "junk.gz: not a whole gzip stream (" "$BENCH" import junk.gz --db junk.db
    for db in cut.db text.db dup.db junk.db; do [[ ! -e $db ]] || bad "$db made by a refused import"; done
    # a store already there keeps its rows
    before=$(rows plain.db)
    expect 2 "not a whole gzip stream" "$BENCH" import cut.json.gz --db plain.db
    is "a refused .gz adds nothing" "$(rows plain.db)" "$before"
    expect 2 "--out: a .gz file only with --format json" "$BENCH" export --format csv --db a.db --out x.csv.gz
    # bench findings --from reads *.json.gz beside *.json (results/published/ keeps them gzip'd)
    mkdir -p pz pj && cp all.json.gz pz/ && cp all.json pj/
    is "findings of a .json.gz folder are those of its .json" \
       "$("$BENCH" findings --from pz 2>&1 | sha256sum)" "$("$BENCH" findings --from pj 2>&1 | sha256sum)"
    [[ $("$BENCH" findings --from pz 2>&1 | wc -l) -gt 5 ]] && ok || bad "findings of pz/ say little"
    ;;
export-import-round-trip-xts-quick)
    # a real suite's run (xts --quick: 3,200 samples, every layout): its rows are compared, not its times
    "$BENCH" run --suite xts --quick --quiet --cpu none --db x.db >/dev/null 2>&1 || bad "xts --quick run"
    seeded machine-a 1 x.db
    # no --run: the latest run of each suite, both in one file
    expect 0 "" "$BENCH" export --format json --full --db x.db --out x.json
    expect 0 "imported 2 runs" "$BENCH" import x.json --db y.db
    is "every row of the xts and synthetic runs, column by column" "$(rows y.db)" "$(rows x.db)"
    ;;
import-json-refuses-bad-input-storing-nothing)
    seeded machine-a 1 a.db
    "$BENCH" export --format json --full --db a.db --out good.json || bad "export"
    refuse() { # refuse PATTERN FILE: exit 2, the message, no store made
        expect 2 "$1" "$BENCH" import "$2" --db "bad-$2.db"
        [[ ! -e "bad-$2.db" ]] && ok || bad "$2: a store was made for a refused file"
    }
    head -c 300 good.json > cut.json
    refuse "cut.json:" cut.json
    printf '{\n  "format": "patchbench-export",\n  "format": 1\n}\n' > dup.json
    refuse "dup.json:3: duplicate object key" dup.json
    python3 - good.json <<'PY'
import json, sys
good = json.load(open(sys.argv[1]))
def variant(name, f):
    d = json.loads(json.dumps(good))
    f(d)
    json.dump(d, open(name, "w"), indent=1)
run = lambda d: d["store"]["runs"][0]
variant("nocol.json", lambda d: run(d)["cases"][1]["samples"][2].update(nsx=1))
variant("badtype.json", lambda d: run(d)["cases"][0]["samples"][0].update(ns=[1]))
variant("badfloat.json", lambda d: run(d)["ratios"][0].update(ci_hi={"float": "huge"}))
variant("nouuid.json", lambda d: run(d).pop("uuid"))
variant("failed.json", lambda d: run(d).update(status="failed"))
variant("notnull.json", lambda d: run(d).update(suite=None))
variant("newer.json", lambda d: d["store"].update(schema_version=10**6))
variant("plain.json", lambda d: d.pop("store"))
variant("other.json", lambda d: d.update(format="patchbench-gate"))
variant("nul.json", lambda d: run(d).update(hostname="a\u0000b"))
PY
    refuse "nocol.json: store.runs[0].cases[1].samples[2].nsx: no such column" nocol.json
    refuse "badtype.json: store.runs[0].cases[0].samples[0].ns: not text, a number" badtype.json
    refuse "badfloat.json: store.runs[0].ratios[0].ci_hi: a \"float\" that is not" badfloat.json
    refuse "nouuid.json: store.runs[0].uuid: missing" nouuid.json
    refuse "failed.json: store.runs[0].status: not 'complete'" failed.json
    refuse "newer.json: store.schema_version: newer than this bench" newer.json
    refuse "plain.json: store: missing" plain.json
    refuse "other.json: format: not 'patchbench-export'" other.json
    refuse '\u0000 is not allowed' nul.json   # jansson's own refusal, FILE:LINE
    expect 2 "--target: a JSON export names" "$BENCH" import good.json --target import --db t.db
    # a row the store refuses (a NOT NULL column given null): the whole file rolled back
    seeded machine-b 2 c.db
    before=$(rows c.db)
    expect 2 "notnull.json: store.runs[0]: " "$BENCH" import notnull.json --db c.db
    is "a refused file leaves the store as it was" "$(rows c.db)" "$before"
    ;;
findings-fixture-byte-for-byte)
    # the committed seeded exports of two made-up CPU models (tests/harness/fixtures/findings/make-fixture.sh)
    FIX="$SRC/tests/harness/fixtures/findings"
    mkdir tmp
    expect 0 "" env TMPDIR="$T/tmp" "$BENCH" findings --from "$FIX" --out page.md
    is "the private store is gone" "$(ls -A tmp)" ""
    cmp -s page.md "$FIX/findings.md" && ok || bad "the page differs from the committed one: $(diff "$FIX/findings.md" page.md | head -20)"
    # the same from a store of them: the page reads rows, not files
    for f in "$FIX"/*.json; do "$BENCH" import "$f" --db s.db >/dev/null || bad "import $f"; done
    expect 0 "" "$BENCH" findings --db s.db --out page2.md
    cmp -s page2.md "$FIX/findings.md" && ok || bad "the page of a store differs: $(diff "$FIX/findings.md" page2.md | head -20)"
    # the files imported in another order (ids differ) give the same bytes
    mkdir rev && i=9 && for f in "$FIX"/*.json; do cp "$f" "rev/$i-$(basename "$f")"; i=$((i - 1)); done
    expect 0 "" "$BENCH" findings --from rev --out page3.md
    cmp -s page3.md "$FIX/findings.md" && ok || bad "the page depends on the files' order: $(diff "$FIX/findings.md" page3.md | head -20)"
    is "no path in the page" "$(grep -c -e "$T" -e /tmp -e "$SRC" page.md)" "0"
    is "a column per CPU model" "$(grep -c '^| variant | op | bytes | claim | document | Fixture CPU A | Fixture CPU B |$' page.md)" "1"
    grep -q 'instructions 0.800, per instruction 1.236: new executes 20 % fewer instructions but each costs 24 % more' page.md &&
        ok || bad "the count run's cell lacks its instruction ratio and sentence"
    grep -q 'no count run of the same build' page.md && ok || bad "a CPU model without a count run says so"
    ;;
published-findings-regenerate)
    # docs/findings.md is what bench findings makes of results/published/, byte for byte, whatever it holds
    expect 0 "" "$BENCH" findings --from "$SRC/results/published" --out page.md
    cmp -s page.md "$SRC/docs/findings.md" && ok ||
        bad "docs/findings.md is not what results/published/ gives (regenerate it: results/published/README.md): $(diff "$SRC/docs/findings.md" page.md | head -20)"
    ;;
findings-refuses-bad-sources)
    seeded machine-a 1 a.db
    mkdir d && "$BENCH" export --format json --full --db a.db --out d/a.json
    expect 2 "--from: nosuch is not a folder" "$BENCH" findings --from nosuch
    expect 2 "--from and --db: one source at a time" "$BENCH" findings --from d --db a.db
    printf '{"format": "patchbench-export", "store": {"schema_version": 1, "runs": [{"nope": 1}]}}\n' > d/b.json
    expect 2 "d/b.json: store.runs[0].uuid: missing" "$BENCH" findings --from d --out p.md
    [[ ! -e p.md ]] && ok || bad "a refused source wrote the page"
    rm d/b.json
    expect 0 "" "$BENCH" findings --from d --suite synthetic --out p.md
    grep -q '^## synthetic$' p.md && ok || bad "the suite's section"
    expect 2 "unknown suite 'nosuch'" "$BENCH" findings --from d --suite nosuch
    ;;
*) bad "no such case: $CASE" ;;
esac
finish
