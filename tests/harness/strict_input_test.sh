#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# strict_input_test.sh BENCH SRCROOT CASE — one regression test per defect of the
# input parsers (issue 10, item 3): `bench import` and `bench kat` refuse clearly
# (exit 2, FILE:LINE: what) or read exactly; a refusal stores nothing.
BENCH=$1 ROOT=$2 CASE=$3
source "$(dirname "$0")/../lib.sh"
XTS=$ROOT/tests/vectors/xts/xts_aes128.rsp

# A good kernel-module results file: 2 impls x 6 rounds of xts, one unavailable sigpool part.
good() {
    echo "[    1.234] unrelated kernel log line"
    echo "pbk1 meta kernel=6.1.0-99-amd64"
    echo "pbk1 meta target=qemu-tcg"
    echo "pbk1 selftest impl=kmod-old status=pass detail=4-vectors"
    for r in 0 1 2 3 4 5; do
        echo "pbk1 sample suite=xts impl=kmod-old variant=256 op=enc size=4096 round=$r iters=8 ns=$((16000 + r * 10)) cycles=$((40000 + r))"
        echo "pbk1 sample suite=xts impl=kmod-new variant=256 op=enc size=4096 round=$r iters=8 ns=$((8000 + r * 7)) cycles=$((20000 + r))"
    done
    echo "pbk1 unavailable suite=sigpool impl=kmod-new variant=md5 reason=crypto_clone_ahash-needs-6.4"
    echo "pbk1 end"
}
samples() { q "$1" "SELECT count(*) FROM samples"; }
runs() { q "$1" "SELECT count(*) FROM runs"; }
# refused NAME PATTERN [bench import options]: importing $T/NAME.txt exits 2 with PATTERN, stores nothing
# and creates nothing: the database is opened only for a file that passed every check
# (not fed through a pipe: a function at the end of a pipeline runs in a subshell and its counts are lost)
refused() {
    local name=$1 pat=$2
    shift 2
    expect 2 "$pat" "$BENCH" import "$T/$name.txt" --db "$T/$name.db" "$@"
    is "$name: no database created" "$([[ -e $T/$name.db ]] && echo created || echo none)" "none"
}
# refused_into NAME PATTERN: importing $T/NAME.txt into a store that holds good() exits 2 with
# PATTERN and leaves that store byte for byte as it was
refused_into() {
    local name=$1 pat=$2 db=$T/$1.db
    good >"$T/$name-good.txt"
    "$BENCH" import "$T/$name-good.txt" --db "$db" >/dev/null || bad "$name: good() did not import"
    local before
    before=$(sha256sum <"$db")
    expect 2 "$pat" "$BENCH" import "$T/$name.txt" --db "$db"
    is "$name: store unchanged" "$(sha256sum <"$db")" "$before"
}
# line N of good() replaced by TEXT
good_with() { good | awk -v n="$1" -v t="$2" 'NR == n { print t; next } { print }'; }
S='pbk1 sample suite=xts impl=kmod-old variant=256 op=enc'

case $CASE in
import-whitespace-after-kind-keeps-samples)
    good | sed 's/^pbk1 sample /pbk1 sample\t/; s/ iters=/\t iters=/' >"$T/tab.txt"
    expect 0 "imported run" "$BENCH" import "$T/tab.txt" --db "$T/tab.db"
    is "every sample stored" "$(samples "$T/tab.db")" "12"
    # --cpu pins bench's own thread: the module's results say why they were not pinned
    is "imported: not pinned, why" "$(q "$T/tab.db" "SELECT DISTINCT cpu_affinity LIKE 'not pinned: kernel-module results%' FROM runs")" "1" ;;
import-long-line-read-whole)
    # console noise, then a sample that crosses byte 2047 (where fgets used to cut), then its last field far out
    { good | head -n 4; printf '%*s' 2040 '' | tr ' ' x
      printf ' pbk1 sample suite=xts impl=kmod-old variant=256 op=enc size=4096 round=9 iters=8 ns=16090%*scycles=77\n' 3000 ''
      good | tail -n +5; } >"$T/long.txt"
    expect 0 "imported run" "$BENCH" import "$T/long.txt" --db "$T/long.db"
    is "the long line is one sample" "$(samples "$T/long.db")" "13"
    is "its last field kept" "$(q "$T/long.db" "SELECT count(*) FROM samples WHERE tsc = 77")" "1"
    { good | head -n 4; head -c 2000000 /dev/zero | tr '\0' x; echo; good | tail -n +5; } >"$T/huge.txt"; refused huge ":5: line longer than" ;;
import-iters-2pow64-refused)
    good_with 5 "$S size=4096 round=0 iters=18446744073709551615 ns=16000" >"$T/iters.txt"; refused iters ":5: sample field iters="
    good_with 5 "$S size=4096 round=0 iters=18446744073709551616 ns=16000" >"$T/iters2.txt"; refused iters2 ":5: sample field iters="
    good_with 5 "$S size=4096 round=0 iters=-1 ns=16000" >"$T/iters3.txt"; refused iters3 ":5: sample field iters="
    good_with 5 "$S size=4096 round=0 iters=0 ns=16000" >"$T/iters4.txt"; refused iters4 ":5: sample field iters=" ;;
import-size-round-out-of-range-refused)
    good_with 5 "$S size=18446744073709551616 round=0 iters=8 ns=16000" >"$T/size.txt"; refused size ":5: sample field size="
    good_with 5 "$S size=0 round=0 iters=8 ns=16000" >"$T/size0.txt"; refused size0 ":5: sample field size="
    good_with 5 "$S size=4096 round=4294967296 iters=8 ns=16000" >"$T/round.txt"; refused round ":5: sample field round="
    good_with 5 "$S size=0x10 round=0 iters=8 ns=16000" >"$T/hex.txt"; refused hex ":5: sample field size=" ;;
import-nul-byte-refused)
    { good | head -n 5; printf 'pbk1 sample suite=xts impl=kmod-old\0 variant=256 op=enc size=4096 round=7 iters=8 ns=1\n'; good | tail -n +6; } >"$T/nul.txt"; refused nul ":6: NUL byte" ;;
import-zero-ns-refused)
    good_with 5 "$S size=4096 round=0 iters=8 ns=0" >"$T/ns0.txt"; refused ns0 ":5: sample field ns="
    good_with 5 "$S size=4096 round=0 iters=8 ns=9007199254740993" >"$T/nsbig.txt"; refused nsbig ":5: sample field ns=" ;;
import-empty-or-unknown-names-refused)
    good_with 5 "pbk1 sample suite= impl=kmod-old variant=256 op=enc size=4096 round=0 iters=8 ns=1" >"$T/esuite.txt"; refused esuite ":5: suite="
    good_with 5 "pbk1 sample suite=nope impl=kmod-old variant=256 op=enc size=4096 round=0 iters=8 ns=1" >"$T/usuite.txt"; refused usuite ":5: unknown suite 'nope'"
    good_with 5 "pbk1 sample suite=xts impl=a\`touch\`b variant=256 op=enc size=4096 round=0 iters=8 ns=1" >"$T/bq.txt"; refused bq ":5: impl="
    good_with 5 "$S size=4096 round=0 iters=8 ns=1 frob=1" >"$T/ukey.txt"; refused ukey ":5: sample has an unknown field frob="
    good_with 5 "$S size=4096 round=0 iters=8 ns=1 ns=2" >"$T/dup.txt"; refused dup ":5: a field is given twice"
    good_with 5 "pbk1 frob x=1" >"$T/ukind.txt"; refused ukind ":5: unknown record kind 'frob'" ;;
import-target-contradicting-data-refused)
    good >"$T/k.txt"
    expect 2 "target 'userspace' contradicts the data" "$BENCH" import "$T/k.txt" --db "$T/t1.db" --target userspace
    is "userspace: no database created" "$([[ -e $T/t1.db ]] && echo created || echo none)" "none"
    expect 2 "--target kmod-host contradicts the file's 'meta target=qemu-tcg'" "$BENCH" import "$T/k.txt" --db "$T/t2.db" --target kmod-host
    is "contradiction: no database created" "$([[ -e $T/t2.db ]] && echo created || echo none)" "none"
    good_with 3 "pbk1 meta target=userspace" >"$T/metauser.txt"; refused metauser "target 'userspace' contradicts"
    expect 0 "imported run" "$BENCH" import "$T/k.txt" --db "$T/t3.db" --target qemu
    is "qemu names qemu-tcg: target kept as given" "$(q "$T/t3.db" "SELECT DISTINCT target FROM runs")" "qemu" ;;
import-samples-of-failed-selftest-refused)
    good_with 4 "pbk1 selftest impl=kmod-old status=fail detail=v4:mismatch" >"$T/stfail.txt"; refused stfail ":5: sample of kmod-old, whose self-test failed on line 4"
    { good | head -n 4; echo "pbk1 selftest impl=kmod-old status=fail detail=x"; good | tail -n +5; } >"$T/stcontra.txt"; refused stcontra ":5: selftest of kmod-old contradicts line 4" ;;
import-kmod-script-started-without-shell)
    # a source root whose name would run a command if it went through sh -c
    R="$T/r'\$(touch \$PWNED)'x"
    mkdir -p "$R/scripts/kmod"
    good >"$T/canned.txt"
    cat >"$R/scripts/kmod/run-qemu.sh" <<SH
#!/usr/bin/env bash
printf '%s\n' "\$@" >"$T/args"
while [[ \$# -gt 0 ]]; do [[ \$1 == --out ]] && cp "$T/canned.txt" "\$2"; shift; done
SH
    chmod +x "$R/scripts/kmod/run-qemu.sh"
    export PWNED="$T/pwned" PB_SOURCE_ROOT="$R"
    expect 0 "complete (kernel module, target qemu)" "$BENCH" run --suite xts --target qemu --quick --rounds 3 --db "$T/r.db"
    unset PWNED PB_SOURCE_ROOT
    [[ -e $T/pwned ]] && bad "the source root's name ran as a command" || ok
    is "arguments passed one by one" "$(sed '2d' "$T/args" | tr '\n' ' ')" "--out --suites xts --quick --rounds 3 "
    is "imported" "$(samples "$T/r.db")" "12" ;;
import-refuses-cells-outside-the-grid)
    # what the module writes: every impl of its parts, the child at 16 bytes, sigpool's variants
    { good | head -n -1
      echo "pbk1 sample suite=xts impl=kmod-child-ecb variant=512 op=enc size=16 round=0 iters=8 ns=900"
      echo "pbk1 sample suite=xts impl=kmod-old-nomem variant=384 op=dec size=1048576 round=0 iters=1 ns=900"
      echo "pbk1 sample suite=sigpool impl=kmod-old variant=cmac(aes128) op=segment size=1448 round=0 iters=8 ns=900"
      echo "pbk1 unavailable suite=sigpool impl=kmod-old variant=hmac(sha1) reason=setup-error-2"
      echo "pbk1 end"; } >"$T/known.txt"
    expect 0 "imported run" "$BENCH" import "$T/known.txt" --db "$T/known.db"
    is "every known row stored" "$(samples "$T/known.db")" "15"
    # a variant, op, size or impl the suite does not have: the line named, the valid ones listed
    good_with 5 "pbk1 sample suite=xts impl=kmod-old variant=999 op=enc size=4096 round=0 iters=8 ns=1" >"$T/variant.txt"
    refused variant ":5: variant=999 is not one of suite xts's variants (256, 384, 512)"
    refused_into variant ":5: variant=999 is not one of suite xts's variants"
    good_with 5 "pbk1 sample suite=xts impl=kmod-old variant=256 op=bogus size=4096 round=0 iters=8 ns=1" >"$T/op.txt"
    refused op ":5: op=bogus is not an op of suite xts's variant 256 (enc, dec)"
    good_with 5 "pbk1 sample suite=sigpool impl=kmod-old variant=md5 op=enc size=1448 round=0 iters=8 ns=1" >"$T/op2.txt"
    refused op2 ":5: op=enc is not an op of suite sigpool's variant md5 (segment, stream)"
    good_with 5 "$S size=100 round=0 iters=8 ns=1" >"$T/size.txt"
    refused size ":5: size=100 is not a size suite xts can have: xts: size 100 is not a multiple of 16 bytes"
    refused_into size ":5: size=100"
    good_with 5 "$S size=2147483648 round=0 iters=8 ns=1" >"$T/size3.txt"
    refused size3 ":5: size=2147483648 is larger than any cell bench builds (1073741824 bytes)"
    good_with 5 "pbk1 sample suite=sigpool impl=kmod-old variant=md5 op=segment size=65001 round=0 iters=8 ns=1" >"$T/size2.txt"
    refused size2 ":5: size=65001 is not a size suite sigpool can have"
    good_with 5 "pbk1 sample suite=xts impl=bogus variant=256 op=enc size=4096 round=0 iters=8 ns=1" >"$T/impl.txt"
    refused impl ":5: impl=bogus is not one of suite xts's kernel-module impls (kmod-old, kmod-new, kmod-old-nomem, kmod-builtin, kmod-kernel-xts, kmod-child-ecb)"
    good_with 5 "pbk1 sample suite=sigpool impl=kmod-builtin variant=md5 op=segment size=1448 round=0 iters=8 ns=1" >"$T/impl2.txt"
    refused impl2 ":5: impl=kmod-builtin is not one of suite sigpool's kernel-module impls (kmod-old, kmod-new)"
    good_with 16 "pbk1 unavailable suite=sigpool impl=kmod-new variant=hmac(sha9) reason=x" >"$T/uvariant.txt"
    refused uvariant ":16: variant=hmac(sha9) is not one of suite sigpool's variants"
    good_with 4 "pbk1 selftest impl=kmod-frob status=pass detail=x" >"$T/stimpl.txt"
    refused stimpl ":4: selftest of impl=kmod-frob, which no suite's kernel-module part has" ;;
import-refuses-duplicate-samples)
    # the same line twice, and a second sample of one (impl, cell, round) with other numbers
    { good | head -n 7; good | sed -n 5p; good | tail -n +8; } >"$T/twice.txt"
    refused twice ":8: repeats the sample on line 5 (a sample is stored once)"
    refused_into twice ":8: repeats the sample on line 5"
    { good | head -n 7; good | sed -n 5p | sed 's/ns=16000/ns=99/'; good | tail -n +8; } >"$T/second.txt"
    refused second ":8: a second sample of xts kmod-old variant=256 op=enc size=4096 round=0 (the first is on line 5)"
    refused_into second ":8: a second sample of xts kmod-old"
    # one round of another size or op is another sample, not a repeat
    { good | head -n 7; good | sed -n 5p | sed 's/op=enc/op=dec/'; good | sed -n 5p | sed 's/size=4096/size=512/'; good | tail -n +8; } >"$T/other.txt"
    expect 0 "imported run" "$BENCH" import "$T/other.txt" --db "$T/other.db"
    is "other cells kept" "$(samples "$T/other.db")" "14"
    { good | head -n -1; good | sed -n 17p; echo "pbk1 end"; } >"$T/utwice.txt"
    refused utwice ":18: sigpool kmod-new variant=md5 is unavailable a second time (line 17 said so first)" ;;
import-refuses-unavailable-and-sampled)
    # an impl unavailable for a variant (every op) or for one op, and sampled there too
    { good | head -n -1; echo "pbk1 unavailable suite=xts impl=kmod-old variant=256 reason=setup-error"; echo "pbk1 end"; } >"$T/both.txt"
    refused both ":18: xts kmod-old variant=256 op=enc is both unavailable (line 18) and sampled (line 5)"
    refused_into both ":18: xts kmod-old variant=256 op=enc is both unavailable"
    { good | head -n -1; echo "pbk1 sample suite=sigpool impl=kmod-new variant=md5 op=segment size=1448 round=0 iters=8 ns=1"; echo "pbk1 end"; } >"$T/both2.txt"
    refused both2 ":18: sigpool kmod-new variant=md5 op=segment is both unavailable (line 17) and sampled (line 18)"
    { good | head -n 3; echo "pbk1 unavailable suite=xts impl=kmod-new variant=256 op=enc reason=crypt-error"; good | tail -n +4; } >"$T/both3.txt"
    refused both3 ":7: xts kmod-new variant=256 op=enc is both unavailable (line 4) and sampled (line 7)"
    # unavailable for another op or variant is no contradiction
    { good | head -n 3; echo "pbk1 unavailable suite=xts impl=kmod-new variant=256 op=dec reason=crypt-error"
      echo "pbk1 unavailable suite=xts impl=kmod-new variant=512 reason=setup-error"; good | tail -n +4; } >"$T/apart.txt"
    expect 0 "imported run" "$BENCH" import "$T/apart.txt" --db "$T/apart.db"
    is "unavailable elsewhere kept" "$(q "$T/apart.db" "SELECT count(*) FROM cases WHERE status = 'unavailable'")" "3" ;;
import-byte-order-mark-hides-nothing)
    # a UTF-8 BOM in front of the first line (a file saved by a Windows editor) hid that line:
    # its meta, or its sample, was silently dropped
    { printf '\xef\xbb\xbf'; good | tail -n +2; } >"$T/bom.txt"
    expect 0 "imported run" "$BENCH" import "$T/bom.txt" --db "$T/bom.db"
    is "the first line's meta kept" "$(q "$T/bom.db" "SELECT DISTINCT guest_kernel FROM runs")" "6.1.0-99-amd64"
    # a sample behind the mark is read: the same sample again on line 5 is a repeat of line 1
    { printf '\xef\xbb\xbf'; good | sed -n 5p; good | sed 1d; } >"$T/bom2.txt"
    refused bom2 ":5: repeats the sample on line 1" ;;
kat-no-records-fails)
    expect 2 "no records in the file" "$BENCH" kat --suite xts /dev/null
    printf '# DataUnitLen\n[ENCRYPT]\n\n[DECRYPT]\n' >"$T/hdr.rsp"
    expect 2 "no records in the file" "$BENCH" kat "$T/hdr.rsp"
    : >"$T/empty.rsp"
    expect 2 "no records in the file" "$BENCH" kat --suite drbg "$T/empty.rsp"
    expect 2 "empty.rsp:1: not a sigpool vector file" "$BENCH" kat --suite sigpool "$T/empty.rsp" ;;
kat-cr-only-line-endings-refused)
    tr '\n' '\r' <"$XTS" >"$T/cr.rsp"
    expect 2 "cr.rsp:1: carriage return inside a line" "$BENCH" kat --suite xts "$T/cr.rsp"
    sed 's/$/\r/' "$XTS" >"$T/crlf.rsp"
    want=$("$BENCH" kat "$XTS" | tail -n 1)
    expect 0 "$want" "$BENCH" kat "$T/crlf.rsp" ;;
kat-pipe-loses-nothing)
    want=$("$BENCH" kat "$XTS" | tail -n 1)
    [[ $want == *" passed, 0 failed"* && $want != "0 passed"* ]] && ok || bad "direct read: $want"
    expect 0 "$want" "$BENCH" kat <(cat "$XTS")
    expect 0 "$want" bash -c 'cat "$1" | "$2" kat /dev/stdin' - "$XTS" "$BENCH" ;;
kat-dev-zero-ends-in-error)
    for s in xts drbg sigpool; do
        expect 2 "/dev/zero:1: line longer than" timeout 60 "$BENCH" kat --suite $s /dev/zero
    done
    expect 2 "/dev/zero:1: line longer than" timeout 60 "$BENCH" kat /dev/zero ;;
kat-long-line-refused)
    { head -n 12 "$XTS"; printf 'PT = '; head -c 1100000 /dev/zero | tr '\0' 0; echo; } >"$T/long.rsp"
    expect 2 "long.rsp:13: line longer than 1048576 bytes" "$BENCH" kat --suite xts "$T/long.rsp" ;;
kat-read-error-is-not-eof)
    expect 2 "read error: Is a directory" "$BENCH" kat --suite xts "$T" ;;
kat-conflicting-duplicate-field-refused)
    awk '{ print } /^COUNT = 1$/ { print "COUNT = 7" }' "$XTS" >"$T/dup.rsp"
    expect 2 "dup.rsp:13: field 'COUNT' given twice in one record (first on line 12)" "$BENCH" kat "$T/dup.rsp"
    awk '{ print } /^i = 4faef7117cda59c66e4b92013e768ad5$/ { print "i = 00000000000000000000000000000000" }' "$XTS" >"$T/dup2.rsp"
    expect 2 "field 'i' given twice" "$BENCH" kat "$T/dup2.rsp" ;;
*) bad "unknown case '$CASE'" ;;
esac
finish
