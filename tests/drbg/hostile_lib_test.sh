#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hostile_lib_test.sh BENCH HOSTILE.so
# A --gcrypt-lib build whose constructor prints to stdout and chdir()s to /, and whose destructor
# crashes (fakelib/hostile_gcrypt.c, the system libgcrypt underneath): bench never loads it into
# its own process (docs/cage.md), so its stdout stays its own, the store is written where --db
# says from bench's directory, and a complete run exits 0, not 139.
. "$(dirname "$0")/../lib.sh"
bench=$1 so=$2
quick=(--mech aes128 --sizes 16 --rounds 2 --sample-ms 0.05 --counters '' --quiet)
mkdir "$T/here"
before=$(stat -c %Y.%s /rel.db 2>/dev/null)
(cd "$T/here" && "$bench" run --suite drbg --gcrypt-lib "h=$so" --impl old,gcrypt:h "${quick[@]}" --db rel.db \
    >"$T/out" 2>"$T/err")
is "run: exit (139: its destructor ran in bench)" "$?" 0
is "run complete, where --db rel.db says" "$(q "$T/here/rel.db" "select status from runs")" complete
is "nothing written at /rel.db" "$(stat -c %Y.%s /rel.db 2>/dev/null)" "$before"
is "gcrypt:h measured" "$(q "$T/here/rel.db" "select status from cases where impl = 'gcrypt:h'")" ok
is "stdout has no line of the library's" "$(grep -c "hostile library output" "$T/out")" 0
grep -q "hostile library output" "$T/err" && ok || bad "the library's line is not on stderr: $(cat "$T/err")"
finish
