#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# upstream_test.sh BENCH LIBGCRYPT
# bench run --suite drbg --upstream OUT --primitives NAME, without a network or a libgcrypt
# checkout: OUT is made by hand as scripts/upstream-libgcrypt leaves it, both "builds" the system
# libgcrypt. Checked: the two are timed as gcrypt:upstream-old / gcrypt:upstream-new with their
# commits in the run's provenance; old and new also run on a build's primitives (old+gcrypt:NAME,
# new+gcrypt:NAME), self-tested on the CAVS vectors and checked after every sample against the
# same side on the linked libgcrypt; the ratios table holds the real code's own pair and the
# same-primitives pairs in every cell. Values are not asserted (live timing). A bad manifest is
# refused with FILE:LINE and exit 2, nothing stored.
. "$(dirname "$0")/../lib.sh"
bench=$1 lib=$2
old=227099f179df9dcf083d0ef6be9883c775df0874 new=20886fdcb841b0bf89bb1d44303d42f1804e38cb
out=$T/up
for c in $old $new; do mkdir -p "$out/$c/src/.libs" && cp "$lib" "$out/$c/src/.libs/libgcrypt.so.20"; done
manifest() { printf 'role\tcommit\tlibrary\n'; printf '%s\t%s\t%s\n' "$@"; }
manifest upstream-old $old $old/src/.libs/libgcrypt.so.20 upstream-new $new $new/src/.libs/libgcrypt.so.20 \
    >"$out/upstream.tsv"
grid=(--mech aes128,hmac-sha256 --sizes 16,4096 --rounds 4 --sample-ms 0.05 --counters '' --quiet --layouts 2)
db=$T/run.db
if "$bench" run --suite drbg --upstream "$out" --primitives upstream-old "${grid[@]}" --db "$db" >"$T/o" 2>&1
then ok; else bad "run: $(cat "$T/o")"; fi
libs=$(q "$db" "select libs from runs")
for c in $old $new; do
    if [[ $libs == *"commit $c"* ]]; then ok; else bad "runs.libs lacks commit $c: $libs"; fi
done
is "impls per cell" "$(q "$db" "select count(distinct impl) from cases where status = 'ok'")" 10
is "cells with a sample of every impl" \
    "$(q "$db" "select count(*) from (select variant, size_bytes from summary where metric = 'ns_per_op' group by 1, 2 having count(*) = 10)")" 4
for pair in "gcrypt:upstream-new|gcrypt:upstream-old" "new+gcrypt:upstream-old|old+gcrypt:upstream-old" \
    "old+gcrypt:upstream-old|gcrypt:upstream-old" "new+gcrypt:upstream-old|gcrypt:upstream-new" \
    "old+gcrypt:upstream-old|old"; do
    c=${pair%|*} b=${pair#*|}
    is "ratios $c / $b" "$(q "$db" "select count(*) from ratios where candidate = '$c' and baseline = '$b' and metric = 'ns_per_op' and estimate > 0")" 4
done
is "no pair the run was not asked for" \
    "$(q "$db" "select count(*) from ratios where candidate = 'new+gcrypt:upstream-old' and baseline = 'gcrypt:upstream-old'")" 0
# old+gcrypt:NAME ran caged (user code) and every caged sample was checked: none failed
is "failed cases" "$(q "$db" "select count(*) from cases where status <> 'ok'")" 0

# refusals: exit 2, FILE:LINE, no database
bad_manifest() { # WANT then the manifest's rows
    local want=$1; shift
    rm -f "$T/x.db"
    printf '%s' "$*" >"$out/upstream.tsv"
    expect 2 "$want" "$bench" run --suite drbg --upstream "$out" "${grid[@]}" --db "$T/x.db"
    if [[ -e $T/x.db ]]; then bad "refused manifest left a database"; else ok; fi
}
h=$'role\tcommit\tlibrary\n'
bad_manifest "upstream.tsv:1: expected the header" $'role commit library\n'
bad_manifest "upstream.tsv:2: role must be upstream-old or upstream-new" "$h"$'upstream-mid\t'$old$'\tx\n'
bad_manifest "upstream.tsv:2: commit must be 40 lower-case hex digits" "$h"$'upstream-old\t227099f1\t'$old$'/src/.libs/libgcrypt.so.20\n'
bad_manifest "upstream.tsv:2: library must be a path inside" "$h"$'upstream-old\t'$old$'\t../etc/passwd\n'
bad_manifest "upstream.tsv:2: library must be a path inside" "$h"$'upstream-old\t'$old$'\t/etc/passwd\n'
bad_manifest "upstream.tsv:2: expected 3 tab-separated fields" "$h"$'upstream-old\t'$old$'\n'
bad_manifest "No such file or directory" "$h"$'upstream-old\t'$old$'\tnope.so\n'
bad_manifest "upstream.tsv:3: upstream-old given twice" "$h"$'upstream-old\t'$old$'\t'$old$'/src/.libs/libgcrypt.so.20\nupstream-old\t'$old$'\t'$old$'/src/.libs/libgcrypt.so.20\n'
bad_manifest "upstream.tsv: no upstream-new row" "$h"$'upstream-old\t'$old$'\t'$old$'/src/.libs/libgcrypt.so.20\n'
rm -f "$out/upstream.tsv"
expect 2 "upstream.tsv: No such file or directory (made by scripts/upstream-libgcrypt" \
    "$bench" run --suite drbg --upstream "$out" "${grid[@]}" --db "$T/x.db"
expect 2 "--primitives nope: no build of that name" \
    "$bench" run --suite drbg --gcrypt-lib "sys=$lib" --primitives nope "${grid[@]}" --db "$T/x.db"
expect 2 "--primitives: 'sys' given twice" \
    "$bench" run --suite drbg --gcrypt-lib "sys=$lib" --primitives sys --primitives sys "${grid[@]}" --db "$T/x.db"
if [[ -e $T/x.db ]]; then bad "a refused run left a database"; else ok; fi
finish
