# SPDX-License-Identifier: GPL-2.0-only
"""The text table of bench gate and bench compare as a terminal shows it (gate_width_test.sh).

    gate_width_check.py fits WIDTH TEXT        no line of TEXT wider than WIDTH characters (UTF-8)
    gate_width_check.py cells TEXT JSON        each cell of the gate document JSON has its row in TEXT,
                                               with its verdict, ratio and CI as the document has them
    gate_width_check.py aligned TEXT N         the table's header and its N rows: the ratio ends and
                                               the CI begins at the same column in every one
Exits 1 with a line per finding."""
import json
import re
import sys

bad = []


def lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def fits(width, path):
    for i, line in enumerate(lines(path), 1):
        if len(line) > int(width):   # str: characters, not bytes
            bad.append(f"line {i} is {len(line)} characters wide, over {width}: {line!r}")


def cells(text, doc):
    rows = lines(text)
    for g in json.load(open(doc, encoding="utf-8"))["gates"]:
        for c in g["cells"]:
            ci = f"[{c['ci_lo']:.3f}, {c['ci_hi']:.3f}]"
            want = re.compile(r"^\S.*\b%s\s+(\d+\s+)?%.3f\s+%s\s.*\b%s\b" % (
                re.escape(str(c["size_bytes"])), c["ratio"], re.escape(ci), re.escape(c["verdict"])))
            if not any(want.search(r) for r in rows):
                bad.append(f"no row with {c['size_bytes']} bytes, ratio {c['ratio']:.3f}, CI {ci}, "
                           f"verdict {c['verdict']}")


def aligned(path, n):
    rows = lines(path)
    head = [i for i, r in enumerate(rows) if "cost B/A" in r]
    if len(head) != 1:
        bad.append(f"{len(head)} header rows")
        return
    h = rows[head[0]]
    if not h.rstrip().endswith("result"):
        bad.append(f"the header row does not end with its result column: {h!r}")
    ratio_end, ci_start = h.index("cost B/A") + len("cost B/A"), h.index("95% CI")
    table = [r for r in rows[head[0] + 1:] if re.search(r"\d\.\d{3}  \[", r)]
    if len(table) != int(n):
        bad.append(f"{len(table)} rows with a ratio and a CI, want {n}")
    for r in table:
        m = re.search(r"(\d+\.\d{3})  (\[)", r)
        if m.end(1) != ratio_end or m.start(2) != ci_start:
            bad.append(f"ratio ends at {m.end(1)} (header: {ratio_end}), CI begins at {m.start(2)} "
                       f"(header: {ci_start}): {r!r}")


{"fits": fits, "cells": cells, "aligned": aligned}[sys.argv[1]](*sys.argv[2:])
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
