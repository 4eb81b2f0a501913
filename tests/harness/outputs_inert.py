# SPDX-License-Identifier: GPL-2.0-only
"""The outputs of a report and export made from a store with hostile names, each read as its
language reads it (report_hostile_test.sh): nothing of the store may be markup, a command or a
formula there. Usage: outputs_inert.py DIR IMPL VARIANT OP, DIR holding synthetic.md, cmp.md,
synthetic.gp, page.html, x.csv and x.json. Prints one FAIL line per finding; exit 1 if any."""
import csv
import json
import re
import sys

d, name, var, op = sys.argv[1:5]
bad = []


def md_outside_code(f, text):
    """text with its CommonMark code spans (a backquote run closed by the next run of the same
    length) and backslash escapes taken out; a run that closes nothing is a finding: it is where a
    span from the store was broken open"""
    out, i = [], 0
    while i < len(text):
        if text[i] == '\\' and i + 1 < len(text):
            out.append(' ')
            i += 2
            continue
        if text[i] == '`':
            n = len(text[i:]) - len(text[i:].lstrip('`'))
            m = re.compile(r'(?<!`)' + '`' * n + r'(?!`)').search(text, i + n)
            if m:
                out.append(' ')
                i = m.end()
                continue
            bad.append('%s: a backquote run of %d opens no closed code span: %r' % (f, n, text[i:i + 60]))
        out.append(text[i])
        i += 1
    return ''.join(out)


def md(f):
    raw = open(d + '/' + f, encoding='utf-8', errors='replace').read()
    # a table's cells: its unescaped '|' ('\|' is a character of a cell; no cell holds a code span)
    header = None
    for line in raw.splitlines():
        if not line.startswith('|'):
            header = None
            continue
        cells = line.count('|') - line.count('\\|')
        if header is None:
            header = cells
        elif cells != header:
            bad.append('%s: a row of %d cells under a header of %d: %r' % (f, cells, header, line[:120]))
    # the page's own fold (a gate's document, docs/gate-outputs.md) is the only markup allowed
    text = re.sub(r'</?(details|summary)>', ' ', md_outside_code(f, raw))
    for m in re.finditer('<', text):
        bad.append('%s: a raw < outside code spans: %r' % (f, text[max(0, m.start() - 20):m.start() + 40]))
    # what the store's names would make if their markup were live; the pages' own links are images
    for frag in ('](javascript', '*b*', '_u_', '~~s~~', '*n*', '_a_', '*o*', '# h'):
        if frag in text:
            bad.append('%s: %r outside a code span, unescaped' % (f, frag))


def gp_strings(line):
    """gnuplot's strings on a line: '...' with '' for a quote, "..." with backslash escapes; None
    where one is not closed (a name that ended its string early leaves one open)"""
    out, i = [], 0
    while i < len(line):
        q = line[i]
        if q not in '\'"':
            i += 1
            continue
        j, s = i + 1, ''
        while j < len(line):
            if q == "'" and line[j] == "'" and line[j + 1:j + 2] == "'":
                s += "'"
                j += 2
                continue
            if q == '"' and line[j] == '\\':
                s += line[j:j + 2]
                j += 2
                continue
            if line[j] == q:
                break
            s += line[j]
            j += 1
        if j >= len(line):
            return None
        out.append(s)
        i = j + 1
    return out


def gp(f):
    strings = []
    for k, line in enumerate(open(d + '/' + f, encoding='utf-8', errors='replace').read().splitlines()):
        got = gp_strings(line)
        if got is None:
            bad.append('%s:%d: a string not closed: %r' % (f, k + 1, line[:120]))
        else:
            strings += got
        if '`' in line:
            bad.append('%s:%d: a backquote (gnuplot runs `...`)' % (f, k + 1))
    for n in (name, var, op):
        if not any(n in s for s in strings):
            bad.append('%s: %r is in no string of the script' % (f, n))


def html(f):
    page = open(d + '/' + f, encoding='utf-8', errors='replace').read()
    for m in re.finditer(r'<(img|script|b|i|u|s)[\s>/]', page, re.I):
        bad.append('%s: a tag from the store: %r' % (f, page[m.start():m.start() + 40]))


def csv_file(f):
    rows = list(csv.reader(open(d + '/' + f, newline='', encoding='utf-8')))
    for r in rows:
        if len(r) != len(rows[0]):
            bad.append('%s: a row of %d fields under a header of %d: %r' % (f, len(r), len(rows[0]), r))
        for c in r:
            if c[:1] in ('=', '+', '-', '@', '\t', '\r'):
                bad.append('%s: a cell that starts like a formula: %r' % (f, c))
    if {r[3] for r in rows[1:]} != {"'" + var}:
        bad.append('%s: the variant is not the name behind one quote: %r' % (f, {r[3] for r in rows[1:]}))


def json_file(f):
    js = json.load(open(d + '/' + f, encoding='utf-8'))
    if name not in {s['impl'] for s in js['stats']} or {(s['variant'], s['op']) for s in js['stats']} != {(var, op)}:
        bad.append('%s: the names are not exact' % f)


md('synthetic.md')
md('cmp.md')
gp('synthetic.gp')
html('page.html')
csv_file('x.csv')
json_file('x.json')
for b in bad:
    print('FAIL:', b)
sys.exit(1 if bad else 0)
