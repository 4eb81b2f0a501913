/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_gate_merge.c — `bench gate --merge FILE...`: gate documents saved as JSON (--format json,
 * --out json=FILE) joined into one document, written in any format (gate_doc.h). The ci/ scripts
 * gate one suite a command; this makes their suites one document, one verdict. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "gate_doc.h"
#include "gate_outputs.h"
#include "text_out.h"

#define MAX_FILES 256
#define MAX_EXTRA 64

static const char MERGE_SYNOPSIS[] =
    "usage: bench gate --merge FILE... [--skipped SUITE=WHY]... [--error SUITE=WHY]...\n"
    "                  [--format F] [--out F=FILE]... [--annotate github|gitlab] [--brief]\n"
    "       bench gate --merge --check [--format F] [--out F=FILE]... [--annotate github|gitlab]\n"
    "\n"
    "Joins gate documents saved as JSON (bench gate --format json or --out json=FILE; schema\n"
    "patchbench-gate, docs/gate-outputs.md) into one: their gates, the suites they skipped and the\n"
    "gates that could not run, one summary, one verdict. Written as --format says (default text:\n"
    "every gate's table, then the verdict sentence), to --out files, as annotations. --check only\n"
    "checks the options and that every --out place may take a file, and writes nothing (the ci/\n"
    "scripts ask before they gate).\n";

static const char MERGE_EPILOGUE[] =
    "\nExit status: what the joined document decided: 0 pass, 1 regression, 2 error (a gate that could not\n"
    "run, or a file that is not a gate document of this schema version), 3 inconclusive.\n";

enum { O_MERGE, O_FORMAT, O_OUT, O_ANNOTATE, O_SKIPPED, O_ERROR, O_BRIEF, O_CHECK };

typedef struct doc_merge_args {
    pb_cli *cli;
    pb_gate_outputs out;
    const char *files[MAX_FILES];
    int nfiles;
    struct { int error; const char *suite_why; } extra[MAX_EXTRA];
    int nextra;
    int brief, check;
} doc_merge_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT("merge", NULL, "join the documents named (this form)", O_MERGE),
    PB_OPT("skipped", "SUITE=WHY", "a suite not gated, and why (again for more)", O_SKIPPED),
    PB_OPT("error", "SUITE=WHY", "a suite whose gate could not run and left no document (again for more)", O_ERROR),
    PB_GATE_OUTPUT_OPTS(O_FORMAT, O_OUT, O_ANNOTATE),
    PB_OPT("brief", NULL, "--format text: the verdict sentence only, not every gate's table again", O_BRIEF),
    PB_OPT("check", NULL, "check the options and the --out places, write nothing", O_CHECK),
    PB_OPT_END,
};

/* --skipped or --error SUITE=WHY, kept for join() */
static int add_suite_entry(doc_merge_args *a, int error, const char *v)
{
    const char *opt = error ? "--error" : "--skipped", *eq = strchr(v, '=');
    if (!eq || eq == v) return pb_cli_error(a->cli, "%s wants SUITE=WHY, got '%s'", opt, v);
    if (a->nextra == MAX_EXTRA) return pb_cli_error(a->cli, "%s: at most %d in all", opt, MAX_EXTRA);
    a->extra[a->nextra].error = error;
    a->extra[a->nextra++].suite_why = v;
    return 0;
}

static int on_opt(void *ctx, int id, const char *v)
{
    doc_merge_args *a = ctx;
    switch (id) {
    case O_MERGE: return 0;
    case O_BRIEF: a->brief = 1; return 0;
    case O_CHECK: a->check = 1; return 0;
    case O_FORMAT: return pb_gate_outputs_opt(&a->out, a->cli, "format", v) < 0 ? -1 : 0;
    case O_OUT: return pb_gate_outputs_opt(&a->out, a->cli, "out", v) < 0 ? -1 : 0;
    case O_ANNOTATE: return pb_gate_outputs_opt(&a->out, a->cli, "annotate", v) < 0 ? -1 : 0;
    default: return add_suite_entry(a, id == O_ERROR, v);
    }
}

/* a document to join */
static int on_pos(void *ctx, const char *w)
{
    doc_merge_args *a = ctx;
    if (a->nfiles < MAX_FILES) {
        a->files[a->nfiles++] = w;
        return 0;
    }
    return pb_cli_error(a->cli, "at most %d documents", MAX_FILES);
}

/* the documents and the suites named on the command line, into doc; 0, or -1 after saying why */
static int join(const doc_merge_args *a, pb_gate_doc *doc)
{
    for (int i = 0; i < a->nfiles; i++) {
        pb_err e = {{0}};
        if (pb_gate_doc_merge_file(doc, a->files[i], &e) < 0) {
            fprintf(stderr, "bench gate: --merge: %s\n", e.msg);
            return -1;
        }
    }
    for (int i = 0; i < a->nextra; i++) {
        const char *v = a->extra[i].suite_why, *eq = strchr(v, '=');
        char suite[128];
        snprintf(suite, sizeof suite, "%.*s", (int)(eq - v), v);
        if (a->extra[i].error) pb_gate_doc_error(doc, suite, eq + 1);
        else pb_gate_doc_skipped(doc, suite, eq + 1);
    }
    return 0;
}

int cmd_gate_merge(int argc, char **argv)
{
    doc_merge_args a = {.out = {.format = PB_FMT_TEXT}};
    pb_cli cli = {.cmd = "gate", .synopsis = MERGE_SYNOPSIS, .epilogue = MERGE_EPILOGUE, .opts = OPTS, .on_opt = on_opt,
                  .on_pos = on_pos, .ctx = &a};
    a.cli = &cli;
    int r = pb_cli_parse(&cli, argc, argv);
    if (r) return r == 1 ? 0 : 2;
    if (a.check) return pb_gate_outputs_check(&a.out, "gate") < 0 ? 2 : 0;
    if (!a.nfiles && !a.nextra) {
        fprintf(stderr, "bench gate: --merge wants the documents to join (see bench gate --merge --help)\n");
        return 2;
    }
    if (pb_gate_outputs_check(&a.out, "gate") < 0) return 2;
    pb_gate_doc *doc = pb_gate_doc_new();
    if (!doc) {
        fprintf(stderr, "bench gate: out of memory\n");
        return 2;
    }
    int rc = 2;
    if (join(&a, doc) == 0) {
        int status = pb_gate_doc_exit_status(doc);
        pb_gate_outputs_begin(&a.out);
        /* --brief: the tables were printed as the gates ran; only the sentence is new */
        char sentence[1300];
        if (a.brief && pb_gate_outputs_text(&a.out))
            printf("%s\n", pb_term_text(sentence, sizeof sentence, pb_gate_doc_sentence(doc)));
        rc = pb_gate_outputs_status(status < 0 ? 0 : status,
                                    pb_gate_outputs_finish(&a.out, doc, "gate", a.brief));
    }
    pb_gate_doc_free(doc);
    return rc;
}
