#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# gcrypt_lib_test.sh BENCH LIBGCRYPT ZERO.so CRASH.so NOSYM.so
# bench run/gate --suite drbg --gcrypt-lib: the system libgcrypt, loaded twice under two names,
# is self-tested, timed as gcrypt:NAME beside the others and stored, and the A/A gate reaches a
# verdict (0 pass, 1 regression or 3 inconclusive: which one the clock gives is printed, not
# asserted; an A/A wall-time gate raises a false alarm now and then by design, docs/gate.md).
# That A/A passes is asserted on callgrind counts, which do not depend on the clock:
# gcrypt_lib_vg_test.sh. A missing file, a .so that is not libgcrypt, one whose DRBG fails the self-test and
# one that crashes in it are refused with exit 2, and nothing is stored.
. "$(dirname "$0")/../lib.sh"
bench=$1 lib=$2 zero=$3 crash=$4 nosym=$5
grid=(--mech aes128,hmac-sha256 --sizes 16,4096)
quick=("${grid[@]}" --rounds 3 --sample-ms 0.05 --counters '' --quiet)

db=$T/run.db
if "$bench" run --suite drbg --gcrypt-lib "sys=$lib" --impl old,gcrypt,gcrypt:sys "${quick[@]}" --db "$db" >"$T/out" 2>&1
then ok; else bad "run: $(cat "$T/out")"; fi
is "gcrypt:sys cells" "$(q "$db" "select count(*) from summary where impl = 'gcrypt:sys' and metric = 'mb_per_s'")" 4
is "gcrypt:sys samples per cell" "$(q "$db" "select min(n) from summary where impl = 'gcrypt:sys' and metric = 'mb_per_s'")" 3
if q "$db" "select libs from runs" | grep -q "gcrypt:sys=$lib (libgcrypt "; then ok
else bad "the run does not record the build's path and version: $(q "$db" "select libs from runs")"; fi
if "$bench" report --db "$db" --out "$T/plots" >"$T/rep" 2>&1; then ok; else bad "report: $(cat "$T/rep")"; fi
if grep -q 'gcrypt:sys' "$T/plots/drbg.md"; then ok; else bad "plots/drbg.md does not mention gcrypt:sys"; fi

# A/A: one build under two names, each in its own namespace
"$bench" gate --suite drbg --gcrypt-lib "sys=$lib" --gcrypt-lib "sys2=$lib" --baseline gcrypt:sys \
    --candidate gcrypt:sys2 "${grid[@]}" --quick --db "$T/aa.db" >"$T/aa" 2>&1
rc=$?
case $rc in 0|1|3) ok; echo "A/A gate gcrypt:sys vs gcrypt:sys2: exit $rc ($(grep '^verdict' "$T/aa"))" ;;
*) bad "A/A gate: exit $rc: $(cat "$T/aa")" ;; esac

for db in missing nosym zero crash; do rm -f "$T/$db.db"; done
expect 2 "--gcrypt-lib x: $T/nope.so: No such file or directory" \
    "$bench" run --suite drbg --gcrypt-lib "x=$T/nope.so" "${quick[@]}" --db "$T/missing.db"
expect 2 "is not a libgcrypt: no symbol gcry_randomize" \
    "$bench" run --suite drbg --gcrypt-lib "x=$nosym" "${quick[@]}" --db "$T/nosym.db"
expect 2 "drbg selftest gcrypt:x" \
    "$bench" run --suite drbg --gcrypt-lib "x=$zero" "${quick[@]}" --db "$T/zero.db"
expect 2 "--gcrypt-lib x ($crash): crashed in its self-test: signal 11" \
    "$bench" run --suite drbg --gcrypt-lib "x=$crash" "${quick[@]}" --db "$T/crash.db"
for db in missing nosym zero crash; do
    if [[ -e $T/$db.db ]]; then bad "$db: a refused build left a database"; else ok; fi
done
expect 2 "--gcrypt-lib wants NAME=PATH" "$bench" run --suite drbg --gcrypt-lib nope --db "$T/x.db"
expect 2 "name 'a' given twice" "$bench" run --suite drbg --gcrypt-lib "a=$lib" --gcrypt-lib "a=$lib" --db "$T/x.db"
expect 2 "must be 1 to 31 characters" "$bench" run --suite drbg --gcrypt-lib "a/b=$lib" --db "$T/x.db"
finish
