/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_gate_merge.c — the merge form of `bench gate` (gate_merge.h). */
#include <stdio.h>
#include <string.h>

#include "gate_doc.h"
#include "gate_merge.h"
#include "text_out.h"

int pb_gate_merge_suite_opt(pb_gate_merge_args *m, const pb_cli *cli, int error, const char *v)
{
    const char *opt = error ? "--error" : "--skipped", *eq = strchr(v, '=');
    if (!eq || eq == v) return pb_cli_error(cli, "%s wants SUITE=WHY, got '%s'", opt, v);
    if (m->nextra == PB_GATE_MERGE_MAX_EXTRA)
        return pb_cli_error(cli, "%s: at most %d in all", opt, PB_GATE_MERGE_MAX_EXTRA);
    m->extra[m->nextra].error = error;
    m->extra[m->nextra++].suite_why = v;
    return 0;
}

int pb_gate_merge_word(pb_gate_merge_args *m, const pb_cli *cli, const char *w)
{
    if (m->nfiles < PB_GATE_MERGE_MAX_FILES) {
        m->files[m->nfiles++] = w;
        return 0;
    }
    return pb_cli_error(cli, "at most %d documents", PB_GATE_MERGE_MAX_FILES);
}

/* the documents and the suites named on the command line, into doc; 0, or -1 after saying why */
static int join(const pb_gate_merge_args *m, pb_gate_doc *doc)
{
    for (int i = 0; i < m->nfiles; i++) {
        pb_err e = {{0}};
        if (pb_gate_doc_merge_file(doc, m->files[i], &e) < 0) {
            fprintf(stderr, "bench gate: --merge: %s\n", e.msg);
            return -1;
        }
    }
    for (int i = 0; i < m->nextra; i++) {
        const char *v = m->extra[i].suite_why, *eq = strchr(v, '=');
        char suite[128];
        snprintf(suite, sizeof suite, "%.*s", (int)(eq - v), v);
        if (m->extra[i].error) pb_gate_doc_error(doc, suite, eq + 1);
        else pb_gate_doc_skipped(doc, suite, eq + 1);
    }
    return 0;
}

int pb_gate_merge(const pb_gate_merge_args *m, pb_gate_outputs *out)
{
    if (m->check) return pb_gate_outputs_check(out, "gate") < 0 ? 2 : 0;
    if (!m->nfiles && !m->nextra) {
        fprintf(stderr, "bench gate: --merge wants the documents to join (see bench gate --merge --help)\n");
        return 2;
    }
    if (pb_gate_outputs_check(out, "gate") < 0) return 2;
    pb_gate_doc *doc = pb_gate_doc_new();
    if (!doc) {
        fprintf(stderr, "bench gate: out of memory\n");
        return 2;
    }
    int rc = 2;
    if (join(m, doc) == 0) {
        int status = pb_gate_doc_exit_status(doc);
        pb_gate_outputs_begin(out);
        /* --brief: the tables were printed as the gates ran; only the sentence is new */
        char sentence[1300];
        if (m->brief && pb_gate_outputs_text(out))
            printf("%s\n", pb_term_text(sentence, sizeof sentence, pb_gate_doc_sentence(doc)));
        rc = pb_gate_outputs_status(status < 0 ? 0 : status, pb_gate_outputs_finish(out, doc, "gate", m->brief));
    }
    pb_gate_doc_free(doc);
    return rc;
}
