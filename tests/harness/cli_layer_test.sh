#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# cli_layer_test.sh BENCH CASE — the one CLI layer (issue 10, item 6) and the suite declaration
# of kernel-module parts (item 7), one case per behaviour. Seeded synthetic runs only: nothing
# here depends on timing.
BENCH=$1 CASE=$2
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
# run ARGS...: a seeded, quick synthetic run (fixed samples)
seeded() { "$BENCH" run --suite synthetic --seed 7 --quick --rounds 6 --quiet "$@"; }
# a kernel-module results file of SUITE (sample lines as the module writes them)
kmod_file() {
    echo "pbk1 meta target=qemu-tcg"
    for r in 0 1 2 3 4 5; do
        echo "pbk1 sample suite=$1 impl=kmod-old variant=256 op=enc size=4096 round=$r iters=8 ns=$((16000 + r)) cycles=1"
        echo "pbk1 sample suite=$1 impl=kmod-new variant=256 op=enc size=4096 round=$r iters=8 ns=$((8000 + r)) cycles=1"
    done
    echo "pbk1 end"
}

case $CASE in
db-equals-accepted-by-every-command)
    # every command that has --db takes --db=PATH exactly as --db PATH
    expect 0 "complete" seeded --db=eq.db
    expect 0 "complete" seeded --db sp.db
    is "run --db=X stored the run" "$(q eq.db "SELECT count(*) FROM runs WHERE status = 'complete'")" "1"
    is "run --db X stored the run" "$(q sp.db "SELECT count(*) FROM runs WHERE status = 'complete'")" "1"
    expect 0 "synthetic" "$BENCH" list --runs --db=eq.db
    expect 0 "schema version" "$BENCH" migrate --db=eq.db
    expect 0 "" "$BENCH" compare --db=eq.db --format=json
    kmod_file xts >k.txt
    expect 0 "imported run" "$BENCH" import k.txt --db=imp.db
    # the verdict is the seed's (pass or inconclusive); what matters here is that the options were taken
    out=$("$BENCH" gate --suite=synthetic --seed=7 --quick --rounds=6 --reruns=0 --quiet --db=gate.db 2>&1)
    rc=$?
    [[ $rc -eq 0 || $rc -eq 3 ]] && ok || bad "gate --db=X exited $rc: $out"
    is "gate --db=X stored the comparison" "$(q gate.db "SELECT count(*) FROM comparisons")" "1"
    if command -v gnuplot >/dev/null; then
        expect 0 "synthetic: run 1" "$BENCH" report --db=eq.db --run=1 --out=plots
    fi
    ;;
suite-option-value-forms-equivalent)
    # --opt value and --opt=value set a suite option the same way: same samples, same options text
    expect 0 "complete" "$BENCH" run --suite synthetic --seed 7 --shift 1.5 --quick --rounds 6 --quiet --db sp.db
    expect 0 "complete" "$BENCH" run --suite=synthetic --seed=7 --shift=1.5 --quick --rounds=6 --quiet --db=eq.db
    sql="SELECT c.impl, c.size_bytes, s.round, s.ns FROM samples s JOIN cases c ON c.id = s.case_id ORDER BY 1, 2, 3"
    a=$(q sp.db "$sql") b=$(q eq.db "$sql")
    [[ -n $a && $a == "$b" ]] && ok || bad "samples differ between --opt value and --opt=value"
    is "options text" "$(q sp.db "SELECT options LIKE '%--seed=7 --shift=1.5%' FROM runs")" "1"
    is "options text (=)" "$(q eq.db "SELECT options LIKE '%--seed=7 --shift=1.5%' FROM runs")" "1"
    # and a bad value is refused the same way in both forms
    expect 2 "bench run: --shift wants a factor" "$BENCH" run --suite synthetic --shift 99 --db x.db
    expect 2 "bench run: --shift wants a factor" "$BENCH" run --suite synthetic --shift=99 --db x.db
    expect 2 "bench run: --shift needs a value" "$BENCH" run --suite synthetic --shift
    ;;
boolean-with-value-refused)
    # a boolean takes no value: "--quick=no" must not turn it on, nor be ignored
    expect 2 "bench run: --quick takes no value (got 'no')" "$BENCH" run --suite synthetic --quick=no --db b.db
    expect 2 "bench run: --quiet takes no value" "$BENCH" run --suite synthetic --quiet=no --db b.db
    expect 2 "bench run: --addtl takes no value" "$BENCH" run --suite drbg --addtl=1 --db b.db
    expect 2 "bench run: --ipv6 takes no value" "$BENCH" run --suite sigpool --ipv6=yes --db b.db
    expect 2 "bench gate: --calibrate takes no value" "$BENCH" gate --suite synthetic --calibrate=no --db b.db
    expect 2 "bench list: --runs takes no value" "$BENCH" list --runs=0
    [[ ! -e b.db ]] && ok || bad "a refused command created b.db"
    # unknown options, abbreviations and missing values: 'bench CMD: ...', exit 2
    expect 2 "bench run: unknown option '--qu'" "$BENCH" run --suite synthetic --qu
    expect 2 "bench report: unknown option '--frob'" "$BENCH" report --frob
    expect 2 "bench compare: --metric needs a value" "$BENCH" compare --metric
    expect 2 "bench kat: unknown option '--db'" "$BENCH" kat --db=x some.rsp
    expect 2 "bench import: one file at a time" "$BENCH" import a b
    # a near miss names what was probably meant; a far one does not guess
    expect 2 "bench run: unknown option '--quik' for suite synthetic (did you mean --quick? see" "$BENCH" run --suite synthetic --quik
    expect 2 "bench gate: unknown option '--tresholds' (did you mean --thresholds? see bench gate --help)" "$BENCH" gate --tresholds x
    expect 2 "bench report: unknown option '--frob' (see bench report --help)" "$BENCH" report --frob
    expect 2 "bench: unknown command 'rnu' (did you mean 'run'?)" "$BENCH" rnu
    out=$("$BENCH" frob 2>&1); [[ $out != *"did you mean"* ]] && ok || bad "a far command drew a guess: $out"
    # bench help CMD is that command's --help
    is "bench help gate" "$("$BENCH" help gate 2>&1)" "$("$BENCH" gate --help 2>&1)"
    expect 2 "bench: unknown command 'gat' (did you mean 'gate'?)" "$BENCH" help gat
    expect 2 "bench help: one command at a time" "$BENCH" help gate run
    [[ ! -e b.db && ! -e x ]] && ok || bad "a refused command created a file"
    ;;
help-lists-every-option)
    # --help is generated from the tables the parser uses: every option it accepts is listed
    check_help() { # check_help "OPTIONS" bench ARGS...
        local want=$1 out o
        shift
        out=$("$@" 2>&1) || { bad "'$*' exited non-zero"; return; }
        for o in $want help; do [[ $out == *"--$o"* ]] && ok || bad "'$*' does not list --$o"; done
    }
    check_help "suite impl sizes quick rounds sample-ms counters db target quiet benchmark_" "$BENCH" run --help
    check_help "shift fail-selftest unavailable seed" "$BENCH" run --suite synthetic --help
    check_help "keys child-call-cost child-call-ns plugin" "$BENCH" run --suite xts --help
    check_help "addtl mech gcrypt-lib plugin" "$BENCH" run --suite drbg --help
    check_help "mode payload threads algs ipv6 maclen fail-alloc-every plugin" "$BENCH" run --suite sigpool --help
    check_help "suite baseline candidate baseline-runs candidate-runs calibrate impl quick rounds reruns sizes repeat metric thresholds alpha format db quiet" "$BENCH" gate --help
    check_help "keys" "$BENCH" gate --suite xts --help
    check_help "run suite runs impl metric alpha format db" "$BENCH" compare --help
    check_help "run suite out db" "$BENCH" report --help
    check_help "db target" "$BENCH" import --help
    check_help "impl suite plugin" "$BENCH" kat --help
    check_help "runs db" "$BENCH" list --help
    check_help "db" "$BENCH" migrate --help
    # and what the help lists, the parser takes: no listed option of run is unknown to it
    for o in $("$BENCH" run --suite synthetic --help | grep -oE '^  --[a-z-]+( |$)' | sed 's/^  --//'); do
        out=$("$BENCH" run --suite synthetic "--$o" 2>&1)
        [[ $out != *"unknown option"* ]] && ok || bad "--$o is in the help but unknown: $out"
    done
    ;;
version-prints-version-and-git)
    out=$("$BENCH" --version) && ok || bad "bench --version exited non-zero"
    [[ $out =~ ^bench\ \(patchbench\)\ [0-9]+\.[0-9]+\.[0-9]+,\ git\ [0-9a-f]{7,}|unknown ]] && ok || bad "bench --version: '$out'"
    expect 0 "bench --version" "$BENCH" --help
    ;;
suite-without-kmod-part-not-kmod)
    # synthetic and drbg declare no kernel-module part: their "module results" are refused and
    # --target qemu|host is refused before anything starts; xts and sigpool have one
    kmod_file synthetic >syn.txt
    expect 2 "suite synthetic has no kernel-module part" "$BENCH" import syn.txt --db syn.db
    is "nothing stored" "$(q syn.db "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" "0"
    kmod_file drbg >drbg.txt
    expect 2 "suite drbg has no kernel-module part" "$BENCH" import drbg.txt --db drbg.db
    expect 2 "exists for suites with a kernel-module part (xts, sigpool), not synthetic" \
        "$BENCH" run --suite synthetic --target qemu --db t.db
    kmod_file xts >xts.txt
    expect 0 "imported run" "$BENCH" import xts.txt --db xts.db
    is "xts module run's baseline and candidate, as the suite declares" \
        "$(q xts.db "SELECT baseline || ' ' || candidate FROM runs")" "kmod-old kmod-new"
    # a synthetic userspace run is reported without kernel-module rows
    if command -v gnuplot >/dev/null; then
        expect 0 "complete" seeded --db r.db
        expect 0 "synthetic: run 1" "$BENCH" report --db r.db --out plots
        out=$("$BENCH" report --db r.db --out plots)
        [[ $out != *"kernel-module run"* ]] && ok || bad "synthetic reported with a kernel-module run: $out"
    fi
    ;;
*) bad "unknown case '$CASE'" ;;
esac
finish
