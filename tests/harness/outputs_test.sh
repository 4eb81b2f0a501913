#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# outputs_test.sh BENCH SECTION — what bench writes never destroys (issue 21, item 2; docs/outputs.md):
# every --out file is made in a private folder beside its target and renamed only over a regular file
# or nothing; --db names a regular file or nothing, never a URI; a failed write to standard output
# fails the command. One section per behaviour. Fixed data: seeded synthetic runs, never timed.
# Nothing here touches a real device: device nodes are made with mknod in the temp folder (as root
# only), /dev/null is only ever the target of a link that must survive, /dev/full only a redirection.
BENCH=$(realpath "$1") SECTION=$2
source "$(dirname "$0")/../lib.sh"
unset PB_DB
cd "$T" || exit 1
ROOT=0
[[ $(id -u) == 0 ]] && ROOT=1
"$BENCH" run --suite synthetic --seed 1 --quick --quiet --rounds 2 --db s.db >/dev/null 2>&1 || { echo "FAIL: seeded run"; exit 1; }
echo precious >victim

# what a path is, without following it: type, and the content of a regular file or a link's target
node() { stat -c '%F' "$1" 2>/dev/null; [[ -L $1 ]] && readlink "$1"; [[ -f $1 && ! -L $1 ]] && sha256sum <"$1"; }
# unchanged WHAT PATH BEFORE
unchanged() { is "$1: $2 unchanged" "$(node "$2")" "$3"; }
# no private folder or other temporary file left in DIR
no_leftovers() { is "$1: nothing temporary left in $2" "$(find "$2" -maxdepth 1 \( -name '.bench-*' -o -name '*.part' \) | head -3)" ""; }
victim_intact() { is "$1: the file outside is intact" "$(cat victim)" "precious"; }
# refused WHAT PATTERN PATH cmd...: exit 2 naming it, PATH and the victim as they were, nothing left
refused() {
    local what=$1 pat=$2 path=$3 before
    shift 3
    before=$(node "$path")
    expect 2 "$pat" timeout 60 "$@"
    unchanged "$what" "$path" "$before"
    victim_intact "$what"
    no_leftovers "$what" "$(dirname "$path")"
}

case $SECTION in
stdout-write-failure-exits-nonzero)
    # seeded runs alternating in one job, for the gate's commit form (never timed: the runs are stored)
    for i in $(seq 12); do
        PB_JOB_ID=outputs-test "$BENCH" run --suite synthetic --seed 1 --quick --quiet --rounds 2 --db g.db >/dev/null 2>&1 ||
            bad "gate's run $i"
    done
    # full CMD...: CMD with standard output on /dev/full: exit 1 and why, whatever it printed
    full() {
        local out rc
        out=$("$@" 2>&1 >/dev/full)
        rc=$?
        [[ $rc == 1 && $out == *"bench: standard output: No space left on device"* ]] && ok ||
            bad "'$*' > /dev/full exited $rc: $out"
    }
    full "$BENCH" --help
    full "$BENCH" --version
    full "$BENCH" list
    full "$BENCH" list --runs --db s.db
    full "$BENCH" run --help
    full "$BENCH" export --format csv --run 1 --db s.db
    full "$BENCH" report --db s.db --run 1 --out p
    full "$BENCH" history --suite synthetic --db s.db --no-plots
    full "$BENCH" compare --db s.db --run 1
    full "$BENCH" gate --baseline-runs 1,3,5,7,9,11 --candidate-runs 2,4,6,8,10,12 --db g.db
    full "$BENCH" migrate --db s.db
    full "$BENCH" run --suite synthetic --seed 1 --quick --quiet --rounds 2 --db r.db
    is "a run whose output was lost is still stored whole" "$(q r.db "SELECT status FROM runs")" "complete"
    # a command that fails keeps its own code
    out=$("$BENCH" export --format json --run 9 --db s.db 2>&1 >/dev/full)
    is "a failing command keeps its exit code" "$?" "2"
    # a closed standard output: a command that prints fails, one that prints nothing does not
    out=$("$BENCH" list 2>&1 >&-)
    rc=$?
    [[ $rc == 1 && $out == *"bench: standard output: Bad file descriptor"* ]] && ok || bad "list >&- exited $rc: $out"
    expect 0 "" bash -c 'exec "$@" >&-' _ "$BENCH" export --format csv --run 1 --db s.db --out e.csv
    ;;

*)
    bad "unknown section $SECTION"
    ;;
esac
finish
