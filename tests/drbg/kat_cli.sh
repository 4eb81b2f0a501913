#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kat_cli.sh BENCH DIR — `bench kat` on the drbg suite's bad and odd .rsp files:
# exact exit status and message (meson's should_fail would accept any failure).
bench=$1
dir=$2
fails=0

# expect STATUS PATTERN ARGS...: run `bench kat ARGS`, want exit STATUS and PATTERN (grep -E) in the output
expect() {
    want=$1 pattern=$2
    shift 2
    out=$("$bench" kat "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want" ] || ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
        echo "FAIL: bench kat $*: exit $rc (want $want), output:"
        printf '%s\n' "$out" | sed 's/^/    /'
        echo "    (wanted /$pattern/)"
        fails=$((fails + 1))
    else
        echo "ok: bench kat $* -> $rc"
    fi
}

expect 2 "hmac_bad_hex.rsp:12: field 'EntropyInput' is not a hex string" "$dir/hmac_bad_hex.rsp"
expect 2 "hmac_missing_field.rsp:11: record has no field 'ReturnedBits'" "$dir/hmac_missing_field.rsp"
expect 2 "hmac_len_mismatch.rsp:17: ReturnedBits has 1008 bits but the section says \[ReturnedBitsLen = 1024\]" \
    "$dir/hmac_len_mismatch.rsp"
expect 2 "hmac_no_equals.rsp:14: expected 'Name = value'" "$dir/hmac_no_equals.rsp"
expect 2 "ambiguous_family.rsp:11: \[SHA-256\] could be Hash_DRBG or HMAC_DRBG" "$dir/ambiguous_family.rsp"
# malformed input wins over a failing record in another file: exit 2, the other files still counted
expect 2 "^41 passed, 1 failed, 0 skipped$" --impl old "$dir/hmac_wrong_output.rsp" "$dir/hmac_bad_hex.rsp" \
    "$dir/../../vectors/drbg/hmac_drbg_sha256_no_reseed.rsp"
# a record whose output differs: exit 1, one FAIL line naming file:line and COUNT
expect 1 "FAIL .*hmac_wrong_output.rsp:11: \[SHA-256\] COUNT = 0 impl old: ReturnedBits mismatch" \
    --impl old "$dir/hmac_wrong_output.rsp"
# without --impl: every build of old and new (libgcrypt profile and native)
expect 1 "^0 passed, 4 failed, 0 skipped$" "$dir/hmac_wrong_output.rsp"
# mechanisms we do not implement: skipped, not failed; a file with nothing checked is not a pass (exit 1)
expect 1 "^0 passed, 0 failed, 12 skipped$" "$dir/ctr_unimplemented.rsp"
expect 1 "skipped: .*ctr_unimplemented.rsp:11: \[AES-192 use df\] is not implemented" "$dir/ctr_unimplemented.rsp"
# libgcrypt's DRBG cannot take given entropy: every record skipped, said once
expect 1 "^0 passed, 0 failed, 41 skipped$" --impl gcrypt "$dir/../../vectors/drbg/hmac_drbg_sha256_no_reseed.rsp"
n=$("$bench" kat --impl gcrypt "$dir/../../vectors/drbg/hmac_drbg_sha256_no_reseed.rsp" | grep -c 'cannot be seeded')
if [ "$n" -ne 1 ]; then echo "FAIL: the gcrypt skip reason was printed $n times, want once"; fails=$((fails + 1)); fi
# an implementation the suite does not have
expect 2 "has no implementation 'aes'" --impl aes "$dir/hmac_wrong_output.rsp"

[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
