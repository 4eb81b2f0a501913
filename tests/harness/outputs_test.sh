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
outputs-never-replace-devices-or-follow-symlinks)
    dev_null=$(node /dev/null)
    mkfifo fifo
    mkdir adir
    ln -s "$T/victim" tovictim
    ln -s /dev/null tonull
    ln -s /proc/self/fd/1 tostdout
    ln -s "$T/nowhere" dangling
    [[ $ROOT == 1 ]] && mknod chardev c 1 3
    # ---- bench export --out FILE ----
    for t in tovictim tonull tostdout dangling; do
        refused "export --out $t" "$t is a symbolic link: refused" "$t" "$BENCH" export --format json --run 1 --db s.db --out "$t"
    done
    [[ ! -e nowhere ]] && ok || bad "export through a dangling link created its target"
    refused "export --out fifo" "fifo is a FIFO: refused" fifo "$BENCH" export --format csv --run 1 --db s.db --out fifo
    refused "export --out adir" "adir is a folder: refused" adir "$BENCH" export --format csv --run 1 --db s.db --out adir
    refused "export --out adir/" "names a folder, not a file" adir "$BENCH" export --format csv --run 1 --db s.db --out adir/
    if [[ $ROOT == 1 ]]; then
        refused "export --out chardev" "chardev is a character device: refused" chardev \
            "$BENCH" export --format json --run 1 --db s.db --out chardev
    else
        echo "SKIP: device nodes (mknod needs root)"
    fi
    expect 2 "--out: an empty path" "$BENCH" export --format csv --run 1 --db s.db --out ''
    expect 2 "--out nodir: No such file or directory" "$BENCH" export --format csv --run 1 --db s.db --out nodir/x.csv
    [[ ! -e nodir ]] && ok || bad "export --out created a folder"
    # what is allowed: a regular file is replaced (a new inode: renamed over, never written into), '-' is stdout
    echo old >reg.json
    ln reg.json hardlink.json
    expect 0 "" "$BENCH" export --format json --run 1 --db s.db --out reg.json
    [[ $(head -c1 reg.json) == "{" ]] && ok || bad "export --out over a regular file did not replace it"
    is "the other name of the old file keeps the old content" "$(cat hardlink.json)" "old"
    is "export --out -: standard output" "$("$BENCH" export --format csv --run 1 --db s.db --out - | head -c6)" "run_id"
    [[ ! -e ./- ]] && ok || bad "export --out - wrote a file called -"
    no_leftovers "export" .
    # ---- bench report --out DIR: a link or node planted in it, for each kind of file it writes ----
    for f in synthetic.md synthetic.png synthetic_ratio.svg synthetic.gp synthetic.dat synthetic.gnuplot.log; do
        for t in tovictim tonull; do
            rm -rf "p-$f-$t" && mkdir "p-$f-$t" && ln -s "$(readlink $t)" "p-$f-$t/$f"
            refused "report, $f a link ($t)" "p-$f-$t/$f is a symbolic link: refused" "p-$f-$t/$f" \
                "$BENCH" report --db s.db --run 1 --out "p-$f-$t"
            is "report, $f a link ($t): nothing else written" "$(ls -A "p-$f-$t")" "$f"
        done
    done
    mkdir p-fifo && mkfifo p-fifo/synthetic.md
    refused "report, a FIFO in --out" "p-fifo/synthetic.md is a FIFO: refused" p-fifo/synthetic.md \
        "$BENCH" report --db s.db --run 1 --out p-fifo
    mkdir -p p-dir/synthetic.svg
    refused "report, a folder in --out" "p-dir/synthetic.svg is a folder: refused" p-dir/synthetic.svg \
        "$BENCH" report --db s.db --run 1 --out p-dir
    if [[ $ROOT == 1 ]]; then
        mkdir p-dev && mknod p-dev/synthetic.png c 1 3
        refused "report, a device in --out" "p-dev/synthetic.png is a character device: refused" p-dev/synthetic.png \
            "$BENCH" report --db s.db --run 1 --out p-dev
    fi
    # --out itself: not a folder is refused; a link to a folder is the folder the user named
    refused "report --out fifo" "--out fifo: not a folder" fifo "$BENCH" report --db s.db --run 1 --out fifo
    refused "report --out victim" "--out victim: not a folder" victim "$BENCH" report --db s.db --run 1 --out victim
    refused "report --out dangling" "--out dangling: No such file or directory" dangling "$BENCH" report --db s.db --run 1 --out dangling
    expect 2 "--out: an empty path" "$BENCH" report --db s.db --run 1 --out ''
    expect 2 "--out -: standard output cannot hold a folder" "$BENCH" report --db s.db --run 1 --out -
    mkdir realdir && ln -s realdir linkdir
    expect 0 "synthetic: run 1" "$BENCH" report --db s.db --run 1 --out linkdir
    [[ -L linkdir && -s realdir/synthetic.md ]] && ok || bad "report --out LINK-TO-FOLDER: not written into the folder"
    # the page: --out FILE.html and DIR/report.html
    mkdir page && ln -s "$T/victim" page/report.html && ln -s /dev/null page/null.html
    refused "report --html, the page a link" "page/report.html is a symbolic link: refused" page/report.html \
        "$BENCH" report --html --db s.db --run 1 --out page
    refused "report --out FILE.html, a link" "page/null.html is a symbolic link: refused" page/null.html \
        "$BENCH" report --db s.db --run 1 --out page/null.html
    is "report, the page refused: no suite's files written either" "$(ls -A page | tr '\n' ' ')" "null.html report.html "
    # --machines: its files too
    mkdir mach && ln -s "$T/victim" mach/synthetic_machines.md
    refused "report --machines, a link" "mach/synthetic_machines.md is a symbolic link: refused" mach/synthetic_machines.md \
        "$BENCH" report --machines all --db s.db --out mach
    is "report --machines refused: the suite's report not written either" "$(ls -A mach)" "synthetic_machines.md"
    # ---- bench history --out DIR ----
    for f in history_synthetic.gp history_synthetic.dat history_synthetic_01_chain_spin_1000_B.png; do
        rm -rf h && mkdir h && ln -s "$T/victim" "h/$f"
        refused "history, $f a link" "h/$f is a symbolic link: refused" "h/$f" "$BENCH" history --suite synthetic --db s.db --out h
        is "history, $f a link: nothing else written" "$(ls -A h)" "$f"
    done
    refused "history --out fifo" "--out fifo: not a folder" fifo "$BENCH" history --suite synthetic --db s.db --out fifo
    expect 2 "--out -: standard output cannot hold a folder" "$BENCH" history --suite synthetic --db s.db --out -
    unchanged "after all" /dev/null "$dev_null"
    ;;

outputs-leave-nothing-half-way)
    # a rollback-journal copy of the store: its reader writes no -shm, which a file-size limit would stop
    cp s.db j.db && q j.db "PRAGMA journal_mode = DELETE" >/dev/null
    # limited CMD...: CMD with writes over 1 KiB failing (EFBIG), as on a full disk
    limited() { bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' _ "$@"; }
    # a report that fails half-way leaves the folder's last whole report as it was
    expect 0 "synthetic: run 1" "$BENCH" report --db j.db --run 1 --out p
    before=$(cd p && sha256sum * | sort)
    expect 1 "cannot write p/synthetic.gp" limited "$BENCH" report --db j.db --run 1 --out p
    is "a failed report: the old files as they were" "$(cd p && sha256sum * | sort)" "$before"
    no_leftovers "a failed report" p
    # export: the old file stays whole
    echo old >e.json
    expect 1 "cannot write e.json" limited "$BENCH" export --format json --db j.db --out e.json
    is "a failed export: the old file as it was" "$(cat e.json)" "old"
    no_leftovers "a failed export" .
    # history: nothing
    mkdir h
    expect 1 "cannot write h/history_synthetic" limited "$BENCH" history --suite synthetic --db j.db --out h
    is "a failed history: nothing in its folder" "$(ls -A h)" ""
    # a folder bench made for outputs that never came is not left behind (history on a store with
    # no runs of the suite, a failed history): one that was there stays
    expect 1 "cannot write hn/history_synthetic" limited "$BENCH" history --suite synthetic --db j.db --out hn
    [[ -e hn ]] && bad "a failed history left the folder it made" || ok
    expect 2 "" "$BENCH" history --suite xts --db j.db --out hx
    [[ -e hx ]] && bad "history with nothing to draw left the folder it made" || ok
    # a failing gnuplot: its log is kept to be read, no figure, nothing temporary
    mkdir fakebin
    printf '#!/bin/sh\necho partial > synthetic.png\necho "fake gnuplot failing" >&2\nexit 3\n' >fakebin/gnuplot
    chmod +x fakebin/gnuplot
    mkdir g
    expect 1 "see g/synthetic.gnuplot.log" env PATH="$T/fakebin" "$BENCH" report --db s.db --run 1 --out g
    is "a failed gnuplot: only its log" "$(ls -A g)" "synthetic.gnuplot.log"
    grep -q "fake gnuplot failing" g/synthetic.gnuplot.log && ok || bad "gnuplot's stderr not in its log"
    # a refused place: nothing at all is made, not even the private folder
    mkdir r && mkfifo r/synthetic.md
    expect 2 "r/synthetic.md is a FIFO" timeout 60 "$BENCH" report --db s.db --run 1 --out r
    is "a refused report: the folder as it was" "$(ls -A r)" "synthetic.md"
    # a folder we cannot write in (as a user root is not: root may write anywhere)
    if [[ $ROOT == 0 ]]; then
        mkdir ro && chmod 555 ro
        expect 2 "--out ro: cannot write there: Permission denied" "$BENCH" report --db s.db --run 1 --out ro
        chmod 755 ro
    fi
    ;;

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
    full "$BENCH" export --format json --run 1 --db s.db --out -
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
