#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench report --html, read in a real browser: headless Chromium loads the page from a file:// URL,
# no console message may appear, the DOM must hold the key numbers (each stored time ratio, as the
# table prints it) and a hostile variant name only as text; a screenshot is kept for a reader.
# Fixed data only: one seeded synthetic run (no timing), with a made-up document for the first row's
# ratio and document cells. Skips (77) only when chromium is missing.
# Usage: report_html_test.sh BENCH SCREENSHOT CHECK_SCRIPT
BENCH=$1 SHOT=$2 CHECK=$3
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
CHROMIUM=$(command -v chromium || command -v chromium-browser) || { echo "SKIP: chromium not installed"; exit 77; }

"$BENCH" run --suite synthetic --quick --quiet --rounds 8 --seed 3 --shift 0.8 --db s.db >/dev/null ||
    { echo "FAIL: seeded run"; exit 1; }
# a name that is markup: it must reach the page as text
q s.db "UPDATE cases SET variant = '<b id=hostile>chain</b>&amp;' WHERE variant = 'chain'"
q s.db "UPDATE ratios SET variant = '<b id=hostile>chain</b>&amp;' WHERE variant = 'chain'"
expect 0 "page: out/page.html" "$BENCH" report --db s.db --out out/page.html
[[ -s out/page.html && ! -e out/page.html.part ]] && ok || bad "no page, or a partial one left"
grep -q '<script' out/page.html && bad "the page holds a script" || ok
grep -qE 'src="https?:|href="https?:|@import' out/page.html && bad "the page loads something from the network" || ok
grep -q '&lt;b id=hostile&gt;chain&lt;/b&gt;&amp;amp;' out/page.html && ok || bad "hostile name not escaped"
# --html with a folder: report.html in it
expect 0 "page: dir/report.html" "$BENCH" report --db s.db --out dir --html

# the browser part is the script a user runs on a real page (README)
"$CHECK" out/page.html "$SHOT" dom.html && ok || bad "the page did not render cleanly in chromium"
[[ -s $SHOT ]] && ok || bad "no screenshot at $SHOT"
# the key numbers: every stored time ratio new/old, as the table prints it
n=0
while IFS='|' read -r est lo hi; do
    n=$((n + 1))
    want=$(printf '%.3f [%.3f, %.3f]' "$est" "$lo" "$hi")
    grep -qF "$want" dom.html && ok || bad "DOM lacks the ratio $want"
done < <(q s.db "SELECT estimate, ci_lo, ci_hi FROM ratios WHERE metric='ns_per_op' AND baseline='old' AND candidate='new'")
[[ $n -ge 2 ]] && ok || bad "only $n ratios in the store"
grep -q 'synthetic summary:' dom.html && ok || bad "DOM lacks the summary sentence"
grep -q 'id="hostile"' dom.html && bad "the hostile name became an element" || ok
grep -q '<svg' dom.html && ok || bad "no inline SVG in the DOM"
echo "screenshot: $SHOT"
# a reader at 1280x800 sees the first row's verdict without scrolling (issue 24): measured in the
# browser (getBoundingClientRect of its text), the viewport's screenshot kept beside the other
VIEW_SHOT=${SHOT%.png}-1280x800.png
"$CHECK" --first-verdict out/page.html "$VIEW_SHOT" >verdict.txt 2>&1 && ok || bad "$(cat verdict.txt)"
grep -q '^check-report-html: first verdict at [0-9]*,[0-9]*-[0-9]*,[0-9]* of a 1280x800 viewport' verdict.txt && ok ||
    bad "the verdict's place not measured at 1280x800: $(cat verdict.txt)"
[[ -s $VIEW_SHOT ]] && ok || bad "no screenshot at $VIEW_SHOT"
cat verdict.txt
echo "screenshot at 1280x800: $VIEW_SHOT"

# The answer in view (issue 42): with a document (made up, as run_all_test.sh does) the first row's
# measured ratio and the document's ratio are inside 1280x800 too, the figures' text is readable
# there and no log tick reads 0.015625; the run's noise warning stands inside the summary box
mkdir data
printf 'impl\tvariant\top\tsize_bytes\tmetric\tvalue\n' >data/synthetic_doc.tsv
for size in 1000 10000; do
    printf 'old\tchain\tspin\t%s\tns_per_op\t100\nnew\tchain\tspin\t%s\tns_per_op\t80\n' $size $size >>data/synthetic_doc.tsv
done
cp s.db d.db
q d.db "UPDATE runs SET noise = 'run was noisy: 3 of 8 rounds waited'"
PB_DATADIR=$T/data "$BENCH" report --db d.db --out doc/page.html >/dev/null 2>&1 || bad "report with a document"
ROW_SHOT=${SHOT%.png}-first-row-1280x800.png
"$CHECK" --first-row doc/page.html "$ROW_SHOT" >row.txt 2>&1 && ok || bad "$(cat row.txt)"
for what in verdict ratio document; do
    grep -q "^check-report-html: first $what at [0-9]*,[0-9]*-[0-9]*,[0-9]* of a 1280x800 viewport" row.txt && ok ||
        bad "the first row's $what not measured in view at 1280x800: $(cat row.txt)"
done
grep -q '^check-report-html: figure text at least [0-9.]* px tall at 1280 px' row.txt && ok || bad "figure text: $(cat row.txt)"
# the answer's table leads with verdict, cell, ratio and document; the medians come in the second
grep -q '<table class="answer">' doc/page.html && ok || bad "no answer table"
sed -n '/<table class="answer">/,/<\/table>/p' doc/page.html | grep -q '<th>old (ns)</th>' && bad "medians in the answer table" || ok
grep -q '<th>old (ns)</th>' doc/page.html && ok || bad "no medians table"
is "the verdict printed once per row" "$(grep -c 'class="verdict' doc/page.html)" 2
sed -n '/<div class="summary">/,/<\/div>/p' doc/page.html | grep -q 'noise warning:</strong> run was noisy' && ok ||
    bad "the noise warning is not in the summary box"
cat row.txt
echo "screenshot of the first row at 1280x800: $ROW_SHOT"
finish
