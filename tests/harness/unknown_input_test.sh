#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# unknown_input_test.sh BENCH SRCROOT CASE — inputs the suite does not know are refused (issue 21,
# item 3), one case per defect: a size given twice, a list option given twice, an impl name the
# suite has not, a comparison of a thing with itself. Each refusal exits 2 naming the option and
# stores nothing. Seeded synthetic runs only: nothing depends on timing.
BENCH=$1 ROOT=$2 CASE=$3
source "$(dirname "$0")/../lib.sh"
RUN=(run --suite synthetic --seed 1 --quick --quiet --rounds 2)
# none NAME: a refused command line created no database at $T/NAME.db
none() { is "$1: no database created" "$([[ -e $T/$1.db ]] && echo created || echo none)" "none"; }
# no_runs NAME: bench gate opens its store before it checks its suite's impls and sizes (that order
# is the gate's own): a refusal there may leave an empty store, never a run
no_runs() { is "$1: no run stored" "$( [[ -e $T/$1.db ]] && q "$T/$1.db" "SELECT count(*) FROM runs" || echo 0)" "0"; }

case $CASE in
sizes-refuses-duplicates)
    # one size twice, or written two ways, would time one cell twice into one case
    expect 2 "--sizes: 1000 bytes given twice ('1000' and '1000'): each size is one cell" "$BENCH" "${RUN[@]}" --sizes 1000,1000 --db "$T/d.db"
    expect 2 "--sizes: 1024 bytes given twice ('1k' and '1024')" "$BENCH" "${RUN[@]}" --sizes 1k,1024 --db "$T/d.db"
    expect 2 "--sizes: 4096 bytes given twice ('4K' and '4096')" "$BENCH" "${RUN[@]}" --sizes 64,4K,4096 --db "$T/d.db"
    expect 2 "--sizes '1000,,2000' has an empty entry" "$BENCH" "${RUN[@]}" --sizes 1000,,2000 --db "$T/d.db"
    expect 2 "--sizes ',1000' has an empty entry" "$BENCH" "${RUN[@]}" --sizes ,1000 --db "$T/d.db"
    expect 2 "--sizes is empty" "$BENCH" "${RUN[@]}" --sizes '' --db "$T/d.db"
    expect 2 "--sizes: 1000 bytes given twice" "$BENCH" run --suite synthetic --measure valgrind --sizes 1000,1000 --db "$T/d.db"
    none d
    expect 2 "--sizes: 1000 bytes given twice" "$BENCH" gate --suite synthetic --seed 1 --quick --sizes 1000,1000 --db "$T/g.db"
    no_runs g
    # distinct sizes: one cell each
    expect 0 "" "$BENCH" "${RUN[@]}" --sizes 1000,1k,2000 --db "$T/ok.db"
    is "three cells, one case per impl each" "$(q "$T/ok.db" "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM cases GROUP BY size_bytes ORDER BY size_bytes)")" "2,2,2" ;;
repeated-list-options-accumulate-or-refuse)
    # an option that takes a comma list is given once: the second use is refused, both values named
    expect 2 "--impl given twice ('old', then 'new'): give one comma-separated list, --impl old,new" "$BENCH" "${RUN[@]}" --impl old --impl new --db "$T/d.db"
    expect 2 "--sizes given twice ('1k', then '2k'): give one comma-separated list, --sizes 1k,2k" "$BENCH" "${RUN[@]}" --sizes 1k --sizes 2k --db "$T/d.db"
    expect 2 "--counters given twice" "$BENCH" "${RUN[@]}" --counters cycles --counters instructions --db "$T/d.db"
    # the suite's own (suite.h once_options)
    expect 2 "--keys given twice ('256', then '512'): give one comma-separated list, --keys 256,512" "$BENCH" run --suite xts --keys 256 --keys 512 --db "$T/d.db"
    expect 2 "--mech given twice ('aes128', then 'aes256')" "$BENCH" run --suite drbg --mech aes128 --mech aes256 --db "$T/d.db"
    expect 2 "--algs given twice ('md5', then 'hmac(sha1)')" "$BENCH" run --suite sigpool --algs md5 --algs 'hmac(sha1)' --db "$T/d.db"
    expect 2 "--mode given twice ('segment', then 'stream'): give it once (--mode segment|stream|both)" "$BENCH" run --suite sigpool --mode segment --mode stream --db "$T/d.db"
    expect 2 "--old given twice ('true', then 'false'): give it once (--old CMD)" "$BENCH" run --suite exec --old true --old false --new true --db "$T/d.db"
    expect 2 "--new given twice" "$BENCH" run --suite gbench --old /bin/true --new /bin/true --new /bin/false --db "$T/d.db"
    expect 2 "--keys given twice" "$BENCH" gate --suite xts --keys 256 --keys=512 --db "$T/d.db"
    expect 2 "--sizes given twice" "$BENCH" gate --suite synthetic --sizes 1k --sizes 2k --db "$T/d.db"
    # an option that takes one impl (or one set of runs) is given once
    expect 2 "--baseline given twice ('old', then 'new'): give it once (--baseline IMPL)" "$BENCH" gate --suite synthetic --baseline old --baseline new --db "$T/d.db"
    expect 2 "--candidate given twice" "$BENCH" gate --suite synthetic --candidate old --candidate new --db "$T/d.db"
    expect 2 "--impl given twice" "$BENCH" gate --suite synthetic --calibrate --impl old --impl new --db "$T/d.db"
    expect 2 "--baseline-runs given twice" "$BENCH" gate --baseline-runs 1 --baseline-runs 2 --candidate-runs 3 --db "$T/d.db"
    expect 2 "--runs given twice ('1', then '3')" "$BENCH" compare --runs 1 2 --runs 3 4 --db "$T/d.db"
    expect 2 "--impl given twice" "$BENCH" compare --runs 1 2 --impl old --impl new --db "$T/d.db"
    expect 2 "--impl given twice" "$BENCH" history --suite synthetic --impl old --impl new --db "$T/d.db"
    expect 2 "--impl given twice" "$BENCH" kat --impl old --impl new "$ROOT/tests/vectors/xts/xts_aes128.rsp"
    expect 2 "--machines given twice" "$BENCH" report --machines all --machines 1 --db "$T/d.db"
    none d
    # an option that takes one impl per use is repeatable: each use adds its impl
    expect 0 "" "$BENCH" "${RUN[@]}" --unavailable old --unavailable new --db "$T/u.db"
    is "--unavailable twice: both impls unavailable" "$(q "$T/u.db" "SELECT group_concat(DISTINCT impl || ':' || status) FROM (SELECT * FROM cases ORDER BY impl)")" "new:unavailable,old:unavailable"
    is "the stored options say both" "$(q "$T/u.db" "SELECT options LIKE '%--unavailable=old --unavailable=new%' FROM runs")" "1"
    expect 1 "failed its known-answer self-test" "$BENCH" "${RUN[@]}" --fail-selftest new --fail-selftest old --db "$T/f.db"
    is "--fail-selftest twice: the run failed" "$(q "$T/f.db" "SELECT status FROM runs")" "failed"
    expect 0 "" "$BENCH" "${RUN[@]}" --fail-selftest old --fail-selftest old --impl new --db "$T/f2.db"
    is "--fail-selftest old: new alone still runs" "$(q "$T/f2.db" "SELECT status FROM runs")" "complete" ;;
unknown-impl-names-refused)
    # a name the suite has not is refused, naming the option and the impls there are
    expect 2 "--unavailable: unknown impl 'zzz' (synthetic has: old, new)" "$BENCH" "${RUN[@]}" --unavailable zzz --db "$T/d.db"
    expect 2 "--fail-selftest: unknown impl 'zzz' (synthetic has: old, new)" "$BENCH" "${RUN[@]}" --fail-selftest zzz --db "$T/d.db"
    expect 2 "--unavailable: unknown impl ''" "$BENCH" "${RUN[@]}" --unavailable '' --db "$T/d.db"
    expect 2 "--impl: unknown impl 'zzz' for suite synthetic (impls: old,new)" "$BENCH" "${RUN[@]}" --impl old,zzz --db "$T/d.db"
    expect 2 "--impl '' has an empty entry" "$BENCH" "${RUN[@]}" --impl '' --db "$T/d.db"
    expect 2 "--impl 'old,' has an empty entry" "$BENCH" "${RUN[@]}" --impl old, --db "$T/d.db"
    expect 2 "unknown implementation 'zzz' (xts has: old, new," "$BENCH" kat --suite xts --impl zzz "$ROOT/tests/vectors/xts/xts_aes128.rsp"
    none d
    expect 2 "--candidate: unknown impl 'zzz' for suite synthetic (impls: old new)" "$BENCH" gate --suite synthetic --seed 1 --quick --candidate zzz --db "$T/g.db"
    expect 2 "--baseline: unknown impl 'zzz'" "$BENCH" gate --suite synthetic --seed 1 --quick --baseline zzz --db "$T/g.db"
    expect 2 "--impl: unknown impl 'zzz'" "$BENCH" gate --suite synthetic --seed 1 --quick --calibrate --impl zzz --db "$T/g.db"
    no_runs g
    expect 0 "" "$BENCH" "${RUN[@]}" --db "$T/r.db"
    expect 2 "run 1 has no impl 'zzz' (it has: old,new)" "$BENCH" compare --run 1 old zzz --db "$T/r.db" ;;
unknown-names-suggest-the-nearest)
    # every name bench takes, mistyped by a letter, is refused with the nearest one it has
    # (base/nearest.h) and the list; a name near none gets the list alone
    expect 2 "bench gate: unknown suite 'xtz' (did you mean xts?; suites: xts " "$BENCH" gate --suite xtz
    expect 2 "bench run: unknown suite 'synthetc' (did you mean synthetic?; suites: " "$BENCH" run --suite synthetc
    expect 2 "bench report: unknown suite 'xtz' (did you mean xts?; suites: " "$BENCH" report --suite xtz --db "$T/d.db"
    expect 2 "bench export: unknown suite 'xtz' (did you mean xts?; " "$BENCH" export --format json --suite xtz --db "$T/d.db"
    expect 2 "bench history: unknown suite 'xtz' (did you mean xts?; " "$BENCH" history --suite xtz --db "$T/d.db"
    expect 2 "bench kat: unknown suite 'xtz' (did you mean xts?; " "$BENCH" kat --suite xtz "$ROOT/tests/vectors/xts/xts_aes128.rsp"
    out=$("$BENCH" gate --suite zzzzz 2>&1)
    [[ $out == *"unknown suite 'zzzzz' (suites: xts "* ]] && ok || bad "a suite near none: $out"
    expect 2 "unknown metric 'ns_per_opp' (did you mean ns_per_op?; metrics: ns_per_op, " "$BENCH" gate --suite synthetic --metric ns_per_opp
    expect 2 "bench compare: unknown metric 'ns_per_opp' (did you mean ns_per_op?; " "$BENCH" compare --metric ns_per_opp --db "$T/d.db"
    expect 2 "bench history: --metric: unknown metric 'mb_per_ss' (did you mean mb_per_s?; " "$BENCH" history --suite synthetic --metric mb_per_ss --db "$T/d.db"
    expect 2 "unknown metric 'zzz' (metrics: ns_per_op, " "$BENCH" gate --suite synthetic --metric zzz
    expect 2 "--impl: unknown impl 'nwe' for suite synthetic (did you mean new?; impls: old,new)" "$BENCH" "${RUN[@]}" --impl nwe --db "$T/d.db"
    expect 2 "--candidate: unknown impl 'nwe' for suite synthetic (did you mean new?; impls: old new)" "$BENCH" gate --suite synthetic --seed 1 --quick --candidate nwe --db "$T/g.db"
    expect 2 "--baseline: unknown impl 'odl' for suite synthetic (did you mean old?; " "$BENCH" gate --suite synthetic --seed 1 --quick --baseline odl --db "$T/g.db"
    none d
    no_runs g
    # the thresholds file's names too (FILE:LINE: what)
    printf 'claim xtz * 5%%\n' >"$T/th1"
    expect 2 "$T/th1:1: unknown suite 'xtz' (did you mean xts?; suites: xts " "$BENCH" gate --suite synthetic --thresholds "$T/th1"
    printf 'claim synthetic ns_per_opp 5%%\n' >"$T/th2"
    expect 2 "$T/th2:1: unknown metric 'ns_per_opp' (did you mean ns_per_op?; metrics: ns_per_op, " "$BENCH" gate --suite synthetic --thresholds "$T/th2"
    # stored names: an impl of a run, a saved baseline
    expect 0 "" "$BENCH" "${RUN[@]}" --db "$T/r.db"
    expect 0 "" "$BENCH" "${RUN[@]}" --db "$T/r.db"
    expect 2 "run 1 has no impl 'olld' (did you mean old?; it has: old,new)" "$BENCH" compare --run 1 olld new --db "$T/r.db"
    expect 0 "baseline main: run 1" "$BENCH" baseline save main --run 1 --db "$T/r.db"
    before=$(sha256sum <"$T/r.db")
    expect 2 "no baseline 'mian' in $T/r.db (did you mean main?; bench baseline list shows them; bench baseline save mian makes one)" \
        "$BENCH" gate against mian --run 2 --db "$T/r.db"
    expect 2 "no baseline 'mian' in $T/r.db (did you mean main?; bench baseline list shows them)" "$BENCH" baseline delete mian --db "$T/r.db"
    expect 2 "no baseline 'release' in $T/r.db (bench baseline list shows them" "$BENCH" gate against release --run 2 --db "$T/r.db"
    expect 2 "bench baseline: --suite: unknown suite 'synthetik' (did you mean synthetic?; " "$BENCH" baseline save x --suite synthetik --db "$T/r.db"
    is "refusals stored nothing" "$(sha256sum <"$T/r.db")" "$before" ;;
self-comparisons-refused)
    export PB_JOB_ID=job-1
    # one procedure (one seed), so that runs 1-6 against 7-12 is a valid A/A of one build
    for s in $(seq 12); do "$BENCH" "${RUN[@]}" --db "$T/r.db" >/dev/null 2>&1 || bad "seeded run $s"; done
    before=$(sha256sum <"$T/r.db")
    # one impl against itself, one run against itself: a ratio of exactly 1 that measures nothing
    expect 2 "A and B are both 'old': an impl against itself measures nothing" "$BENCH" compare --run 1 old old --db "$T/r.db"
    expect 2 "run 1 is in both --runs IDS_A and --runs IDS_B: a run against itself measures nothing" "$BENCH" compare --runs 1 1 --db "$T/r.db"
    expect 2 "run 2 is in both --runs IDS_A and --runs IDS_B" "$BENCH" compare --runs 1,2 2,3 --db "$T/r.db"
    expect 2 "--runs IDS_A: run 1 given twice: each run is one alternation" "$BENCH" compare --runs 1,1 2,3 --db "$T/r.db"
    expect 2 "run 1 is in both --baseline-runs and --candidate-runs" "$BENCH" gate --baseline-runs 1,2,3,4,5,6 --candidate-runs 1,2,3,4,5,6 --db "$T/r.db"
    expect 2 "run 6 is in both --baseline-runs and --candidate-runs" "$BENCH" gate --calibrate --baseline-runs 1,2,3,4,5,6 --candidate-runs 6,8,10,12,2,4 --db "$T/r.db"
    expect 2 "--candidate-runs: run 7 given twice" "$BENCH" gate --baseline-runs 1,2,3,4,5,6 --candidate-runs 7,7,8,9,10,11 --db "$T/r.db"
    expect 2 "run 1 is in both --baseline-runs and --candidate-runs" "$BENCH" gate --measure valgrind --baseline-runs 1 --candidate-runs 1 --db "$T/r.db"
    expect 2 "baseline and candidate are both 'old': for A/A use --calibrate" "$BENCH" gate --suite synthetic --seed 1 --quick --baseline old --candidate old --db "$T/r.db"
    is "refusals stored nothing" "$(sha256sum <"$T/r.db")" "$before"
    # two different runs (of one build) are an A/A, and compared
    expect 0 "stored as comparison 1" "$BENCH" compare --runs 1,3,5,7,9,11 2,4,6,8,10,12 --db "$T/r.db"
    expect 0 "stored as comparison 2" "$BENCH" compare --run 1 new old --db "$T/r.db" ;;
*) bad "unknown case '$CASE'" ;;
esac
finish
