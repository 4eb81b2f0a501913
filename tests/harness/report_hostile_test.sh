#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench report with names and paths made to run commands: results come from other machines, so impl,
# variant and op names are untrusted text. Nothing may run: no shell is ever started, gnuplot gets
# names only through pb_gp_quote (quotes doubled; backquotes, double quotes, control characters
# refused), and the --out folder never reaches it. Also: a failing gnuplot or a failed write leaves
# no plot or table behind and exits 1; and, end to end, every output of a store with hostile names
# and provenance (Markdown, gnuplot, HTML, CSV, JSON) read by a reader of its language holds nothing
# of the store that is live there.
# Fixed data only: one seeded synthetic run, names rewritten with sqlite3.
BENCH=$1
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../lib.sh"
cd "$T" || exit 1

"$BENCH" run --suite synthetic --quick --quiet --rounds 6 --seed 1 --db clean.db >/dev/null || { echo "FAIL: seeded run"; exit 1; }

# no file named X anywhere under $T (the hostile commands all try to create one)
nothing_ran() {
    [[ -z $(find "$T" -name X -print -quit) ]] && ok || bad "$1: a command ran (X exists)"
}
# TEXT as SQL's hex digits (od -v: a run of equal lines is not folded into '*')
hex() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
# hostile DB COLUMN NAME: a copy of the clean store with every 'old' case's COLUMN set to NAME
hostile() {
    cp clean.db "$1"
    q "$1" "UPDATE cases SET $2 = CAST(x'$(hex "$3")' AS TEXT) WHERE impl = 'old'"
}
no_outputs() { # no_outputs DIR WHAT
    local f
    for f in png svg md; do [[ ! -e "$1/synthetic.$f" ]] && ok || bad "$2: left $1/synthetic.$f behind"; done
}

# ---- names that would break out of gnuplot's quotes and run a command: refused, nothing written ----
n=0
for name in "kmod-old'\`touch\${IFS}X\`'" '`touch X`' $'old\n!touch X' "old\"; system('touch X'); \"" \
            'system("touch X")' "''; system 'touch X'; '" "x'';system 'touch X';''"; do
    n=$((n + 1))
    for col in impl variant op; do
        hostile "h$n$col.db" "$col" "$name"
        expect 1 "refusing" "$BENCH" report --db "h$n$col.db" --run 1 --out "out$n$col"
        nothing_ran "$col $name"
        no_outputs "out$n$col" "$col $name"
    done
done

# ---- names that are only text to gnuplot: drawn as they are, nothing runs ----
n=0
for name in "o'ld" 'old$(touch X)' "it's \\' \\" '@X touch X' "a'; system 'touch X'; b'" 'old;!touch X'; do
    n=$((n + 1))
    hostile "t$n.db" impl "$name"
    expect 0 "synthetic: run 1" "$BENCH" report --db "t$n.db" --run 1 --out "text$n"
    nothing_ran "impl $name"
    [[ -s text$n/synthetic.png && -s text$n/synthetic.svg && -s text$n/synthetic.md ]] && ok || bad "impl $name: outputs missing"
done

# ---- end to end: every output of a store whose names and provenance are markup, formulas and
# commands (gnuplot-quotable: no double quote, no backquote), each file checked by a reader of its
# language (tests/harness/outputs_inert.py): Markdown, gnuplot, HTML, CSV, JSON ----
NAME='<img src=x onerror=1>|*b*[l](javascript:x)&amp;'   # 47 bytes: the report keeps names to 47
OP='_u_ ~~s~~ # h \\ $(touch X) *o* @X'
VAR="=cmd|' /C calc'!A0"
CMD='bench run ``` <img src=y onerror=alert(2)> ` [c](javascript:c) | x'
cp clean.db e2e.db
q e2e.db "UPDATE cases SET impl = CAST(x'$(hex "$NAME")' AS TEXT) WHERE impl = 'new';
          UPDATE ratios SET candidate = CAST(x'$(hex "$NAME")' AS TEXT) WHERE candidate = 'new';
          UPDATE cases SET variant = CAST(x'$(hex "$VAR")' AS TEXT), op = CAST(x'$(hex "$OP")' AS TEXT);
          UPDATE ratios SET variant = CAST(x'$(hex "$VAR")' AS TEXT), op = CAST(x'$(hex "$OP")' AS TEXT);
          UPDATE runs SET command_line = CAST(x'$(hex "$CMD")' AS TEXT), cpu_model = '<script>alert(3)</script>',
            hostname = '<b>h</b>', noise = '<i>n</i> | [n](javascript:n) *n*', cpu_affinity = '<u>cpu</u> _a_',
            suite_settings = '<s>x</s>', kernel = '\`k\`', started_at = started_at || ' <b>t</b>';
          INSERT INTO cases (run_id, suite, impl, variant, op, size_bytes, status, reason)
            VALUES (1, 'synthetic', '<u>nav</u>', CAST(x'$(hex "$VAR")' AS TEXT), CAST(x'$(hex "$OP")' AS TEXT), 1000,
                    'unavailable', '<img src=z onerror=alert(4)> | [r](javascript:r)');"
expect 0 "synthetic: run 1" "$BENCH" report --db e2e.db --run 1 --out e2e
expect 0 "" "$BENCH" report --db e2e.db --run 1 --html --out e2e/page.html
expect 0 "" "$BENCH" export --db e2e.db --format csv --out e2e/x.csv
expect 0 "" "$BENCH" export --db e2e.db --format json --out e2e/x.json
"$BENCH" compare --db e2e.db --run 1 --format md old "$NAME" >e2e/cmp.md 2>e2e/cmp.err &&
    ok || bad "compare --format md on the hostile store: $(cat e2e/cmp.err)"
nothing_ran "end to end"
python3 "$HERE/outputs_inert.py" e2e "$NAME" "$VAR" "$OP" && ok || bad "end to end: the outputs above are not inert"

# ---- a hostile --out: the folder never reaches gnuplot's script (gnuplot runs in the report's
# private folder and the script names its files relative to it), so any name is only a name ----
for out in "z'\$(touch X)'" "z\`touch X\`"; do
    expect 0 "synthetic: run 1" "$BENCH" report --db clean.db --run 1 --out "$out"
    nothing_ran "--out $out"
    for f in png svg md; do [[ -s "$out/synthetic.$f" ]] && ok || bad "--out $out: no $f"; done
    grep -qF "$out" "$out/synthetic.gp" && bad "--out $out: the folder is in the script" || ok
done
expect 0 "synthetic: run 1" "$BENCH" report --db clean.db --run 1 --out "-x"
[[ -s -x/synthetic.png ]] && ok || bad "--out -x: no png (the script path read as an option?)"

# ---- gnuplot fails after writing part of a plot: exit 1, nothing left that looks finished ----
mkdir -p fakebin
cat >fakebin/gnuplot <<'SH'
#!/bin/sh
echo "partial" >"$(dirname "$1")/synthetic.png"
echo "fake gnuplot: failing on purpose" >&2
exit 3
SH
chmod +x fakebin/gnuplot
expect 1 "gnuplot failed on" env PATH="$T/fakebin" "$BENCH" report --db clean.db --run 1 --out failed
no_outputs failed "gnuplot exit 3"
grep -q "failing on purpose" failed/synthetic.gnuplot.log && ok || bad "gnuplot's stderr not in its log"

# ---- a write that fails (a file-size limit: EFBIG, as a full disk would): exit 1, nothing left,
# not even the private folder ----
mkdir -p small
# a rollback-journal copy of the store: a reader of it writes no -shm, which the limit would stop
cp clean.db small.db && q small.db "PRAGMA journal_mode = DELETE" >/dev/null
expect 1 "cannot write small/synthetic.gp" bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' _ \
    "$BENCH" report --db small.db --run 1 --out small
no_outputs small "a write over the file-size limit"
is "a failed write leaves nothing in its folder" "$(ls -A small)" ""
# (a link planted in the folder, to /dev/full or anything else, is refused: outputs_test.sh)

finish
