#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# gcrypt_lib_vg_test.sh BENCH LIBGCRYPT: the issue's "test with the system library (A/A must pass
# the gate)", asserted. The system libgcrypt is loaded by path twice, each in its own dlmopen
# namespace (gcrypt:sys, gcrypt:sys2), and gated on callgrind counts (--measure valgrind): the
# same code gives the same instructions per op, so the gate must pass (exit 0) whatever the
# machine's load. The wall-time A/A gate (drbg-gcrypt-lib) can only be asserted to decide.
. "$(dirname "$0")/../lib.sh"
bench=$1 lib=$2
if [[ -n ${PB_VG_SANITIZED:-} ]]; then
    echo "SKIP: this is a sanitizer build ($PB_VG_SANITIZED): the gates under valgrind run in the plain build"
    exit 77
fi
if ! command -v valgrind >/dev/null; then
    echo "SKIP: valgrind is not installed (scripts/setup.sh installs it): the A/A count gate was not run"
    exit 77
fi
db=$T/aa.db
t0=$SECONDS
expect 0 "exit 0 (pass)" "$bench" gate --suite drbg --gcrypt-lib "sys=$lib" --gcrypt-lib "sys2=$lib" \
    --baseline gcrypt:sys --candidate gcrypt:sys2 --measure valgrind --mech aes128,hmac-sha256 --sizes 16 \
    --quiet --db "$db"
echo "A/A count gate gcrypt:sys vs gcrypt:sys2: $((SECONDS - t0)) s"
# both builds were counted in every cell and passed: aes128 gives identical counts, hmac-sha256
# differs by a few hundredths of a percent between the two namespaces (data-dependent paths), far
# inside the 1 % threshold
is "cells that passed" "$(q "$db" "select count(*) from comparison_cells where verdict = 'pass'")" 2
q "$db" "select '  ' || variant || ' ' || size_bytes || ' B: count ratio ' || printf('%.5f', ratio) from comparison_cells"
finish
