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

db-path-refuses-uris-and-non-regular-files)
    mkfifo fifo
    mkdir adir
    ln -s /dev/null tonull
    ln -s "$T/nowhere" dangling
    ln -s s.db tos.db
    [[ $ROOT == 1 ]] && mknod chardev c 1 3
    echo "synthetic 1" >imp.txt
    # every command that takes --db, with X where the store goes
    cmds=('run --suite synthetic --quick --quiet --rounds 2 --db X' 'list --runs --db X' 'report --db X --out pl'
          'export --format json --db X' 'history --suite synthetic --db X --no-plots' 'compare --db X --run 1'
          'gate --suite synthetic --quick --db X' 'import imp.txt --db X' 'migrate --db X'
          'merge s.db --into X' 'merge X --into m.db')
    paths=("file:$T/u.db?mode=memory" "file:s.db" "file:u.db" "FILE:u.db" "q?x.db" fifo adir tonull dangling)
    [[ $ROOT == 1 ]] && paths+=(chardev)
    for p in "${paths[@]}"; do
        case $p in
        file:*|FILE:*) pat="is an SQLite URI" ;;
        *'?'*) pat="holds '?'" ;;
        fifo) pat="fifo is a FIFO, not a database file" ;;
        adir) pat="adir is a folder, not a database file" ;;
        tonull|chardev) pat="is a character device, not a database file" ;;
        dangling) pat="dangling is a symbolic link to nothing" ;;
        esac
        for c in "${cmds[@]}"; do
            read -ra argv <<< "$c"
            for i in "${!argv[@]}"; do [[ ${argv[$i]} == X ]] && argv[$i]=$p; done
            expect 2 "--db: " timeout 60 "$BENCH" "${argv[@]}" && expect 2 "$pat" timeout 60 "$BENCH" "${argv[@]}"
        done
        is "--db $p: nothing made beside it" "$(ls -d ./*-journal ./*-wal ./*-shm u.db m.db nowhere file:* 2>/dev/null)" ""
    done
    is "the FIFO is still a FIFO" "$(stat -c %F fifo)" "fifo"
    is "/dev/null is still /dev/null" "$(stat -c %F /dev/null)" "character special file"
    PB_DB=$T/fifo expect 2 "PB_DB: $T/fifo is a FIFO" "$BENCH" list --runs
    # what is allowed: a link to a regular database file (the user's own), a new file in a folder
    expect 0 "synthetic complete" "$BENCH" list --runs --db tos.db
    expect 0 "run 1 complete" "$BENCH" run --suite synthetic --seed 1 --quick --quiet --rounds 2 --db new.db
    ;;
*)
    bad "unknown section $SECTION"
    ;;
esac
finish
