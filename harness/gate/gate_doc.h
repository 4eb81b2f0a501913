/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_doc.h — what one command's gates decided, as one document: the JSON of schema
 * "patchbench-gate", version PB_GATE_DOC_VERSION (docs/gate-outputs.md), written with jansson, from
 * which every other format is made (gate_render.c): the text tables, the Markdown of a pull
 * request's comment, JUnit XML, a GitLab Code Quality report, GitHub workflow commands.
 *
 * A document holds gates (each a comparison: its header, thresholds, runs with their provenance
 * and noise warnings, and its cells with their MDC), the suites a script skipped and those whose
 * gate could not run, and over all of them a summary, a verdict, an exit status and the verdict
 * sentence. One bench command adds its comparisons as they are made (pb_gate_doc_add); the ci/
 * scripts gate one suite a command and join the saved documents (pb_gate_doc_merge_file,
 * `bench gate --merge`), so that a multi-suite gate is one document too. Every renderer reads the
 * document, never the cells, so a joined document renders exactly as the gates' own. */
#ifndef PB_GATE_DOC_H
#define PB_GATE_DOC_H

#include <stdio.h>

#include "gate.h"

#define PB_GATE_DOC_SCHEMA "patchbench-gate"
/* Bumped when a key is removed or renamed or its meaning changes; a key added keeps it. */
#define PB_GATE_DOC_VERSION 1

typedef struct pb_gate_doc pb_gate_doc;

pb_gate_doc *pb_gate_doc_new(void);   /* NULL when out of memory */
void pb_gate_doc_free(pb_gate_doc *d);

/* One comparison, as it was printed: its header and cells and, when it is stored
 * (h->comparison_id > 0, st not NULL), the runs it used with their provenance and noise
 * warnings. 0, or -1 + e. */
int pb_gate_doc_add(pb_gate_doc *d, pb_store *st, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n,
                    pb_err *e);
/* A suite a script did not gate, and why; a suite whose gate could not run, and what it said. */
void pb_gate_doc_skipped(pb_gate_doc *d, const char *suite, const char *reason);
void pb_gate_doc_error(pb_gate_doc *d, const char *suite, const char *message);
/* The gates, skipped suites and errors of a document saved as JSON (--format json, --write
 * json=FILE), appended to d. Refused (-1 + e naming path): not JSON, not of this schema, or of
 * another schema version. */
int pb_gate_doc_merge_file(pb_gate_doc *d, const char *path, pb_err *e);

/* The summary (counts over every gate), the verdict, the exit status and the sentence, from what
 * was added; the renderers call it, and so may anyone before reading the result. */
void pb_gate_doc_finish(pb_gate_doc *d);
/* What the document decided as an exit status: 1 if a gate regressed, else 2 if one could not
 * run, else 3 if one is inconclusive, else 0; -1 when nothing in it has a verdict (compare). */
int pb_gate_doc_exit_status(pb_gate_doc *d);
/* The verdict sentence ("Regression: 2 of 34 cells slower than their threshold; ..."). */
const char *pb_gate_doc_sentence(pb_gate_doc *d);

/* The document's JSON (gate_render.c reads it; jansson's json_t). */
struct json_t;
const struct json_t *pb_gate_doc_json(pb_gate_doc *d);

/* ---- the formats (gate_render.c) ---- */
/* The gate floor's render table, the analogue of the report floor's (render.h): one entry per
 * pb_format (gate.h), in its order. Each writes the whole document to f: 0, or -1 + e. */
typedef struct pb_gate_renderer {
    const char *name;      /* what --format calls it */
    const char *suffix;    /* of a file that holds it (a CI job's artefact) */
    int (*render)(FILE *f, pb_gate_doc *d, pb_err *e);
} pb_gate_renderer;
extern const pb_gate_renderer pb_gate_renderers[PB_FMT_COUNT];

/* The document in format fmt to f. */
int pb_gate_doc_render(FILE *f, pb_format fmt, pb_gate_doc *d, pb_err *e);

/* GitHub Actions workflow commands (`::error`, `::warning`, `::notice`) for the cells a pull
 * request should see: each regression, each slowdown under its threshold, each inconclusive
 * cell, each gate that could not run; at most max of each kind, then one that says how many more
 * (GitHub shows only the first ten of a kind per step). Every piece of text through
 * pb_gh_command_fputs. */
void pb_gate_doc_github(FILE *f, pb_gate_doc *d, int max);

#endif
