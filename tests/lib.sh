# SPDX-License-Identifier: GPL-2.0-only
# tests/lib.sh — helpers shared by the shell tests (source it; it sets -u).
# Gives: $T (a temp folder removed on exit), ok, bad, expect CODE PATTERN cmd..., q DB SQL,
# is WHAT GOT WANT, and finish (prints 'N passed, M failed' and returns non-zero on failure).
set -u
# The CI job's PB_JOB_ID (or a developer's) must not leak into a test: it decides whether runs are
# paired or compared unpaired, so a test that wants one sets it itself.
unset PB_JOB_ID
# A terminal's width (COLUMNS) bounds bench's lines: a developer's exported one must not cut the
# lines a test reads; a test of the width sets it on the command itself.
unset COLUMNS
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect CODE PATTERN cmd...: exit status CODE and PATTERN in stdout+stderr
expect() {
    local code=$1 pat=$2
    shift 2
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [[ $rc -ne $code ]]; then bad "'$*' exited $rc, want $code: $out"; return 1; fi
    if [[ -n $pat && $out != *"$pat"* ]]; then bad "'$*' output lacks '$pat': $out"; return 1; fi
    ok
}
q() { sqlite3 "$1" "$2"; }
# decided CMD...: a live-timed gate ran to a decision (exit 0 pass, 1 regression or 3 inconclusive),
# whichever the clock gave; its output is shown, never asserted: tests do not depend on timing
# (the verdicts themselves are checked on seeded samples, tests/gate).
decided() {
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    echo "$out" | grep -E '^verdict:' | sed "s/^/  (live timing, not asserted) /"
    if [[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]]; then ok; else bad "$* exited $rc: $out"; fi
}
is() { # is WHAT GOT WANT
    if [[ "$2" == "$3" ]]; then ok; else bad "$1: got '$2', want '$3'"; fi
}
finish() {
    echo "$pass passed, $fail failed"
    [[ $fail -eq 0 ]]
}
# skip_unless_valgrind WHAT: exit 77 (skipped, saying why, after finish) in a sanitizer build (ASan's
# shadow memory cannot run under Valgrind) or where valgrind is not installed
skip_unless_valgrind() {
    local why=
    if [[ -n ${PB_VG_SANITIZED:-} ]]; then
        why="this is a sanitizer build ($PB_VG_SANITIZED): $1 run in the plain build"
    elif ! command -v valgrind >/dev/null; then
        why="valgrind is not installed (scripts/setup.sh installs it): $1 were not run"
    fi
    [[ -z $why ]] && return 0
    echo "SKIP: $why"
    finish
    exit 77
}
