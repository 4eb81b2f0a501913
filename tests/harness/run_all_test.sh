#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench run --suite all: every suite that re-runs a published patch (its declaration, bench list
# --published) in turn, each closed by its summary line (cells per verdict class, smallest and
# largest ratio with CI); the progress line shows elapsed time (and an ETA while time is left). PB_TEST_PUBLISHED names the
# seeded synthetic suite in the declarations' place, and PB_DATADIR a made-up document for it, so
# the test times nothing.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
mkdir data
printf 'impl\tvariant\top\tsize_bytes\tmetric\tvalue\nold\tchain\tspin\t1000\tns_per_op\t100\nnew\tchain\tspin\t1000\tns_per_op\t80\n' \
    >data/synthetic_doc.tsv
PB_TEST_PUBLISHED=synthetic PB_DATADIR=$T/data "$BENCH" run --suite all --seed 5 --shift 0.8 --db s.db >out.txt 2>err.txt ||
    bad "run --suite all failed: $(cat err.txt)"
is "suites run" "$(grep -c '^run [0-9]* complete' out.txt)" 1
grep -q 'bench run --suite all: synthetic' err.txt && ok || bad "no suite header: $(cat err.txt)"
grep -qE '^\[[0-9]+/[0-9]+ [0-9]+ s(, ETA [0-9]+ s)?\] synthetic ' err.txt && ok || bad "no elapsed (ETA): $(cat err.txt)"
# the answer first (issue 42): the verdicts without zero counts, the measured ratios against the document's
line=$(grep '^synthetic: [0-9]* cells: ' out.txt)
[[ $line == "synthetic: 2 cells: 2 do not hold; time new/old 0."*" (document 0.800) on "* && $line != *" 0 "* ]] && ok ||
    bad "answer line: $line"
# the same with --suite=all
PB_TEST_PUBLISHED=synthetic PB_DATADIR=$T/data "$BENCH" run --suite=all --seed 5 --shift 0.8 --db s.db >out2.txt 2>&1 ||
    bad "run --suite=all failed: $(cat out2.txt)"
is "--suite=all" "$(grep -c '^synthetic: 2 cells: ' out2.txt)" 1
# no suite that re-runs a published patch: refused
PB_TEST_PUBLISHED=none expect 2 "no suite re-runs a published patch" "$BENCH" run --suite all --seed 5 --db s.db
# a published suite without a document table is run all the same (the rule is the declaration,
# not the file): its summary says the claim is judged without the document's numbers
mkdir empty
PB_TEST_PUBLISHED=synthetic PB_DATADIR=$T/empty "$BENCH" run --suite all --seed 5 --shift 0.8 --db s3.db >out3.txt 2>&1 ||
    bad "run --suite all without a table failed: $(cat out3.txt)"
is "published without a table: run" "$(grep -c '^synthetic: [0-9]* cells' out3.txt)" 1
grep -q '^synthetic summary: no document table (data/synthetic_doc.tsv): the claim judged on its direction alone' out3.txt &&
    ok || bad "no word on the missing table: $(cat out3.txt)"
# bench list: the declarations, for scripts
is "list --names --published" "$(PB_TEST_PUBLISHED=synthetic "$BENCH" list --names --published)" synthetic
[[ "$("$BENCH" list --names)" == *synthetic* ]] && ok || bad "list --names lacks synthetic"
expect 2 "--ci wants record or commit" "$BENCH" list --ci never
finish
