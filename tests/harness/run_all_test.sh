#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench run --suite all: every suite with a document table (data/<suite>_doc.tsv) in turn, each closed
# by its summary line (cells per verdict class, smallest and largest ratio with CI); the progress
# line shows elapsed time and an ETA. PB_DATADIR points at a folder whose only document is a
# made-up one for the seeded synthetic suite, so the test times nothing.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
mkdir data
printf 'impl\tvariant\top\tsize_bytes\tmetric\tvalue\nold\tchain\tspin\t1000\tns_per_op\t100\nnew\tchain\tspin\t1000\tns_per_op\t80\n' \
    >data/synthetic_doc.tsv
PB_DATADIR=$T/data "$BENCH" run --suite all --seed 5 --shift 0.8 --db s.db >out.txt 2>err.txt ||
    bad "run --suite all failed: $(cat err.txt)"
is "suites run" "$(grep -c '^run [0-9]* complete' out.txt)" 1
grep -q 'bench run --suite all: synthetic' err.txt && ok || bad "no suite header: $(cat err.txt)"
grep -qE '^\[[0-9]+/[0-9]+ [0-9]+ s, ETA [0-9]+ s\] synthetic ' err.txt && ok || bad "no elapsed/ETA: $(cat err.txt)"
line=$(grep '^synthetic summary:' out.txt)
[[ $line == *"cells: claim holds"* && $line == *"time new/old from 0."*" ["*"] (chain spin "*") to 0."* ]] && ok ||
    bad "summary line: $line"
# the same with --suite=all
PB_DATADIR=$T/data "$BENCH" run --suite=all --seed 5 --shift 0.8 --db s.db >out2.txt 2>&1 ||
    bad "run --suite=all failed: $(cat out2.txt)"
is "--suite=all" "$(grep -c '^synthetic summary:' out2.txt)" 1
# no suite with a document: refused
mkdir empty
PB_DATADIR=$T/empty expect 2 "no suite has a document table" "$BENCH" run --suite all --seed 5 --db s.db
finish
