#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# store_rows.py DB — every row of a store's run tables (runs, cases, samples, sample_metrics, stats,
# objects, ratios) as text, one line per row, sorted, with the surrogate ids left out and each
# parent named by what identifies it across stores (the run's uuid; a case's impl, variant, op and
# size): two stores that hold the same runs print the same lines. Every value keeps its type (repr:
# 2 and 2.0 differ; floats exactly), so that the export -> import round trip is compared column by
# column (tests/harness/findings_test.sh).
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
CASE = "r.uuid, c.impl, c.variant, c.op, c.size_bytes"
QUERIES = {
    "runs": ("SELECT '' AS parent, r.* FROM runs r", {"id"}),
    "cases": (f"SELECT r.uuid, c.* FROM cases c JOIN runs r ON r.id = c.run_id", {"id", "run_id"}),
    "samples": (f"SELECT {CASE}, s.* FROM samples s JOIN cases c ON c.id = s.case_id JOIN runs r ON r.id = c.run_id",
                {"id", "case_id"}),
    "sample_metrics": (f"SELECT {CASE}, s.round, s.position, s.repetition, m.* FROM sample_metrics m"
                       " JOIN samples s ON s.id = m.sample_id JOIN cases c ON c.id = s.case_id"
                       " JOIN runs r ON r.id = c.run_id", {"sample_id"}),
    "stats": (f"SELECT {CASE}, t.* FROM stats t JOIN cases c ON c.id = t.case_id JOIN runs r ON r.id = c.run_id",
              {"case_id"}),
    "objects": ("SELECT r.uuid, o.* FROM objects o JOIN runs r ON r.id = o.run_id", {"run_id"}),
    "ratios": ("SELECT r.uuid, x.* FROM ratios x JOIN runs r ON r.id = x.run_id", {"id", "run_id"}),
}
out = []
for table, (sql, drop) in QUERIES.items():
    cur = db.execute(sql)
    names = [d[0] for d in cur.description]
    for row in cur:
        # the parent's identity (the columns before the table's own *) kept; of the table's own, the ids dropped
        own = len(names) - len(db.execute(f"SELECT * FROM {table} LIMIT 0").description)
        cols = [f"{n}={v!r}" for i, (n, v) in enumerate(zip(names, row)) if not (n in drop and i >= own)]
        out.append(f"{table}: " + " ".join(cols))
for line in sorted(out):
    print(line)
