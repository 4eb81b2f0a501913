/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_outputs.c — --format, --write and --annotate of bench gate and bench compare (gate_outputs.h). */
#include "gate_outputs.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "out_stage.h"

/* GitHub shows the first ten annotations of a kind per step */
#define GITHUB_MAX_ANNOTATIONS 10

static int add_out(pb_gate_outputs *o, const pb_cli *cli, const char *opt, pb_format fmt, const char *path)
{
    for (int i = 0; i < o->nout; i++)
        if (!strcmp(o->out[i].path, path)) return pb_cli_error(cli, "%s: %s given twice", opt, path);
    if (o->nout == PB_GATE_MAX_OUT) return pb_cli_error(cli, "%s: at most %d files", opt, PB_GATE_MAX_OUT);
    o->out[o->nout].fmt = fmt;
    o->out[o->nout].opt = opt;
    o->out[o->nout++].path = path;
    return 1;
}

/* --write F=FILE, or its old spelling --out F=FILE (opt: the one given, as messages name it) */
static int write_opt(pb_gate_outputs *o, const pb_cli *cli, const char *opt, const char *value)
{
    const char *eq = strchr(value, '=');
    char name[32], list[96];
    pb_format fmt;
    snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - value) : 0, value);
    if (!eq || pb_format_parse(name, &fmt) < 0)
        return pb_cli_error(cli, "%s wants FORMAT=FILE, FORMAT one of %s, got '%s'", opt,
                            pb_format_names(list, sizeof list), value);
    if (!eq[1] || !strcmp(eq + 1, "-"))
        return pb_cli_error(cli, "%s %s: a file (standard output is --format's)", opt, value);
    return add_out(o, cli, opt, fmt, eq + 1);
}

int pb_gate_outputs_opt(pb_gate_outputs *o, const pb_cli *cli, const char *name, const char *value)
{
    char list[96];
    if (!strcmp(name, "format")) {
        if (pb_format_parse(value, &o->format) == 0) return 1;
        return pb_cli_error(cli, "--format wants %s, got '%s'", pb_format_names(list, sizeof list), value);
    }
    if (!strcmp(name, "write")) return write_opt(o, cli, "--write", value) < 0 ? -1 : 1;
    if (!strcmp(name, "out")) return write_opt(o, cli, "--out", value) < 0 ? -1 : 1;
    if (!strcmp(name, "annotate")) {
        if (strcmp(value, "github") && strcmp(value, "gitlab"))
            return pb_cli_error(cli, "--annotate wants github or gitlab, got '%s'", value);
        o->annotate = value;
        return 1;
    }
    return 0;
}

static int has_out(const pb_gate_outputs *o, pb_format fmt)
{
    for (int i = 0; i < o->nout; i++)
        if (o->out[i].fmt == fmt) return 1;
    return 0;
}

int pb_gate_outputs_check(pb_gate_outputs *o, const char *cmd)
{
    if (o->annotate && !strcmp(o->annotate, "github") && o->format != PB_FMT_TEXT) {
        fprintf(stderr, "bench %s: --annotate github writes workflow commands to standard output, where --format %s "
                        "would put its document: write that with --write %s=FILE\n",
                cmd, pb_gate_renderers[o->format].name, pb_gate_renderers[o->format].name);
        return -1;
    }
    if (o->annotate && !strcmp(o->annotate, "gitlab") && !has_out(o, PB_FMT_CODEQUALITY)) {
        o->out[o->nout].fmt = PB_FMT_CODEQUALITY;   /* out has room for one more */
        o->out[o->nout].opt = "--annotate gitlab";
        o->out[o->nout++].path = PB_GATE_CODEQUALITY_FILE;
    }
    for (int i = 0; i < o->nout; i++) {
        pb_stage st;
        pb_err e = {{0}};
        const char *name;
        int rc = pb_stage_open_file(&st, o->out[i].path, o->out[i].opt, &name, &e);
        pb_stage_close(&st);
        if (rc < 0) {
            fprintf(stderr, "bench %s: %s\n", cmd, e.msg);
            return -1;
        }
    }
    return 0;
}

int pb_gate_outputs_text(const pb_gate_outputs *o) { return o->format == PB_FMT_TEXT; }

static int github(const pb_gate_outputs *o) { return o->annotate && !strcmp(o->annotate, "github"); }

void pb_gate_outputs_begin(pb_gate_outputs *o)
{
    if (!github(o) || o->format != PB_FMT_TEXT) return;
    unsigned char r[16];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) return;   /* no token: no pause, annotations as ever */
    int off = snprintf(o->token, sizeof o->token, "patchbench-");
    for (size_t i = 0; i < sizeof r; i++) off += snprintf(o->token + off, sizeof o->token - (size_t)off, "%02x", r[i]);
    printf("::stop-commands::%s\n", o->token);
}

/* one --write file, staged and renamed into place whole; 0, 1 (failed) or 2 (refused) */
static int write_out(pb_gate_doc *doc, pb_format fmt, const char *path, const char *opt, const char *cmd)
{
    pb_stage st;
    pb_err e = {{0}};
    const char *name;
    FILE *f = NULL;
    int rc = pb_stage_open_file(&st, path, opt, &name, &e) < 0 || !(f = pb_stage_fopen(&st, name, &e)) ? -1 : 0;
    int failed = rc < 0;
    if (f) {
        failed = pb_gate_doc_render(f, fmt, doc, &e) < 0;
        if (pb_stage_fclose(&st, f, name, &e) < 0) failed = 1;
        if (!failed && pb_stage_commit(&st, &e) < 0) failed = 1;
    }
    if (failed) fprintf(stderr, "bench %s: %s\n", cmd, e.msg[0] ? e.msg : "cannot write the document");
    int refused = st.refused;
    pb_stage_close(&st);
    return failed ? (refused ? 2 : 1) : 0;
}

/* the md document appended to $GITHUB_STEP_SUMMARY, which the runner made: 0, 1 or 2 */
static int step_summary(pb_gate_doc *doc, const char *cmd)
{
    const char *path = getenv("GITHUB_STEP_SUMMARY");
    if (!path || !*path) return 0;   /* not in a GitHub job (set and empty: the same) */
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    pb_err e = {{0}};
    int refused = 0, rc = !m ? pb_errf(&e, "out of memory") : 0;
    if (m) {
        rc = pb_gate_doc_render(m, PB_FMT_MD, doc, &e);
        fputc('\n', m);
        if (fclose(m) != 0 && rc == 0) rc = pb_errf(&e, "out of memory");
    }
    if (rc == 0) rc = pb_append_file(path, "$GITHUB_STEP_SUMMARY", buf, n, &refused, &e);
    free(buf);
    if (rc < 0) fprintf(stderr, "bench %s: %s\n", cmd, e.msg);
    return rc < 0 ? (refused ? 2 : 1) : 0;
}

static int worse(int a, int b) { return a > b ? a : b; }

int pb_gate_outputs_finish(pb_gate_outputs *o, pb_gate_doc *doc, const char *cmd, int text_done)
{
    int rc = 0;
    pb_err e = {{0}};
    /* standard output's document first, while commands are still paused (its text holds names) */
    if (doc && (o->format != PB_FMT_TEXT || !text_done) && pb_gate_doc_render(stdout, o->format, doc, &e) < 0) {
        fprintf(stderr, "bench %s: %s\n", cmd, e.msg);
        rc = 1;
    }
    if (o->token[0]) {
        printf("::%s::\n", o->token);
        o->token[0] = 0;
    }
    if (!doc) return rc;
    for (int i = 0; i < o->nout; i++) rc = worse(rc, write_out(doc, o->out[i].fmt, o->out[i].path, o->out[i].opt, cmd));
    if (github(o)) {
        pb_gate_doc_github(stdout, doc, GITHUB_MAX_ANNOTATIONS);
        rc = worse(rc, step_summary(doc, cmd));
    }
    return rc;
}

int pb_gate_outputs_status(int gate, int outputs)
{
    if (!outputs || gate == PB_GATE_EXIT_REGRESSION || gate == PB_GATE_EXIT_ERROR) return gate;
    return outputs;
}
