#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The text table of bench gate and bench compare on a terminal of 80 and 120 columns (issue 42,
# item 2): every line fits, the least important columns are left out first and the header says
# which, the verdict, the ratio and its CI stay; columns as wide as their longest value, so that
# long names (and names of several bytes a character) keep every row aligned. Seeded samples
# (the synthetic suite's --seed) and a gate document of fixed data, never the clock.
BENCH=$1 HERE=$(cd "$(dirname "$0")" && pwd)
CHECK=(python3 "$HERE/gate_width_check.py")
command -v python3 >/dev/null || { echo "SKIP: no python3: the lines are measured with it"; exit 77; }
source "$HERE/../lib.sh"
cd "$T" || exit 1
check() { local out; if out=$("${CHECK[@]}" "$@"); then ok; else bad "$* -- $out"; fi; }
G=(--suite synthetic --seed 7 --shift 1.15 --quick --threshold 5%)
unset COLUMNS

# ---- the seeded gate: its document, then its text unbounded (not a terminal), at 120 and at 80 ----
"$BENCH" gate "${G[@]}" --format json --db doc.db >doc.json 2>/dev/null
is "the seeded gate's exit" "$?" 1
"$BENCH" gate "${G[@]}" --db wide.db >wide.txt 2>/dev/null
check cells wide.txt doc.json
check aligned wide.txt 2
grep -q "between layouts" wide.txt && ok || bad "not a terminal, COLUMNS unset: a column left out: $(cat wide.txt)"
grep -q "left out" wide.txt && bad "not a terminal, COLUMNS unset: 'left out' said: $(cat wide.txt)" || ok
COLUMNS=0 "$BENCH" gate "${G[@]}" --db zero.db >zero.txt 2>/dev/null
cmp -s wide.txt zero.txt && ok || bad "COLUMNS=0 is not unbounded: $(diff wide.txt zero.txt)"
for w in 120 80; do
    COLUMNS=$w "$BENCH" gate "${G[@]}" --db "w$w.db" >"w$w.txt" 2>/dev/null
    is "the gate's exit at $w columns" "$?" 1
    check fits "$w" "w$w.txt"
    check cells "w$w.txt" doc.json
    check aligned "w$w.txt" 2
    grep -q '^verdict: regression' "w$w.txt" && ok || bad "no verdict line at $w columns: $(cat "w$w.txt")"
done
grep -q "between layouts" w120.txt && ok || bad "120 columns: the layouts' range left out: $(cat w120.txt)"
grep -Eq "left out between layouts, p, .*to fit 80 columns" w80.txt && ok \
    || bad "80 columns: the header does not say what was left out: $(cat w80.txt)"
tr '\n' ' ' <w80.txt | grep -q -- "--format md or json, or with COLUMNS=0" && ok \
    || bad "80 columns: the header does not say where every column is: $(cat w80.txt)"
# bench compare prints the same table
COLUMNS=80 "$BENCH" compare --db w80.db >cmp80.txt 2>&1
is "compare's exit" "$?" 0
check fits 80 cmp80.txt
check aligned cmp80.txt 2

# ---- long names and a name of several bytes a character: a document of fixed data ----
python3 - doc.json long.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
c = d["gates"][0]["cells"]
c[0]["candidate"] = "a-rather-long-candidate-implementation-name"   # impls differ: the impl column shows
c[1]["candidate"] = "na\u00efve-\u00e9t\u00e9"                      # 10 characters, 13 bytes
c[1]["variant"] = "chain-with-a-long-variant"
c[1]["op"] = "spin-op-named-at-length"
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
EOF
"$BENCH" gate merge long.json --format text >long.txt 2>&1
is "merge's exit" "$?" 1
check aligned long.txt 2
grep -q "a-rather-long-candidate-implementation-name  chain " long.txt && ok || bad "a long name cut or not aligned: $(cat long.txt)"
COLUMNS=80 "$BENCH" gate merge long.json --format text >long80.txt 2>&1
check fits 80 long80.txt
check aligned long80.txt 2
grep -q "names cut" long80.txt && grep -q $'\u2026' long80.txt && ok || bad "80 columns: long names not cut visibly: $(cat long80.txt)"
# every width from 50 to 130, a short verdict ("pass") or long names: each line fits, the table aligned
python3 - doc.json pass.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
for c in d["gates"][0]["cells"]:
    c["verdict"], c["note"] = "pass", ""
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"))
EOF
# (the narrowest table: cell names cut to 8 characters, the ratio, its CI and the verdict; the
# long names' is 73 columns)
for doc in pass long; do
    from=60
    [[ $doc == long ]] && from=75
    for w in $(seq $from 5 130); do
        COLUMNS=$w "$BENCH" gate merge $doc.json --format text >"$doc$w.txt" 2>&1
        check fits "$w" "$doc$w.txt"
        check aligned "$doc$w.txt" 2
    done
done
# a text written to a file is never bounded: the terminal's width is stdout's
COLUMNS=80 "$BENCH" gate merge long.json --format text --write text=file.txt >/dev/null 2>&1
cmp -s long.txt file.txt && ok || bad "--write text=FILE bounded by COLUMNS: $(diff long.txt file.txt)"

finish
