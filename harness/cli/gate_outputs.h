/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_outputs.h — where the document of `bench gate` and `bench compare` goes (gate_doc.h,
 * docs/gate-outputs.md), from the options they share:
 *   --format F          standard output: text (default: each gate's table as it is decided), md,
 *                       json, junit or codequality (the whole document, once, at the end)
 *   --write F=FILE      the document in format F written to FILE as well, whole or not at all,
 *                       never through a link or over anything but a regular file (out_stage.h);
 *                       given again for more files
 *   --annotate github   GitHub workflow commands on standard output, after the text (which runs
 *                       between ::stop-commands:: and its token, so that no name in a table can be
 *                       taken for a command), and the md document appended to $GITHUB_STEP_SUMMARY
 *                       when that is set
 *   --annotate gitlab   a GitLab Code Quality report in patchbench-codequality.json (the same as
 *                       --write codequality=patchbench-codequality.json)
 * Every place is checked before the gate runs: a refused one is exit 2 and nothing is run. */
#ifndef PB_GATE_OUTPUTS_H
#define PB_GATE_OUTPUTS_H

#include "cli_opts.h"
#include "gate_doc.h"

#define PB_GATE_MAX_OUT 8
#define PB_GATE_CODEQUALITY_FILE "patchbench-codequality.json"

/* the option table's lines, alike in every command that has them */
#define PB_GATE_OUTPUT_OPTS(id_format, id_write, id_out, id_annotate)                                                     \
    PB_OPT("format", "F", "standard output: text (default), md, json, junit or codequality\n"                 \
                          "(docs/gate-outputs.md)", id_format),                                               \
    PB_OPT("write", "F=FILE", "the document in format F into FILE as well (again for more files)", id_write),  \
    PB_OPT_INTERNAL("out", "F=FILE", "the old spelling of --write (scripts keep working)", id_out),            \
    PB_OPT_ONCE("annotate", "github|gitlab", "github: workflow commands on stdout (with --format text),\n"    \
                                         "the md document appended to $GITHUB_STEP_SUMMARY when set;\n"        \
                                         "gitlab: a Code Quality report, " PB_GATE_CODEQUALITY_FILE, id_annotate)

typedef struct pb_gate_outputs {
    pb_format format;                /* standard output */
    struct { pb_format fmt; const char *path, *opt; } out[PB_GATE_MAX_OUT + 1];   /* opt: "--write", as given */
    int nout;
    const char *annotate;            /* NULL, "github" or "gitlab" */
    char token[48];                  /* --annotate github: the ::stop-commands:: token while text runs */
} pb_gate_outputs;

/* --format, --write (or its old spelling --out) or --annotate (name without the dashes): 1 taken, 0 not one of them, -1 after
 * printing what is wrong (pb_cli_error). */
int pb_gate_outputs_opt(pb_gate_outputs *o, const pb_cli *cli, const char *name, const char *value);
/* After parsing, before anything runs: --annotate github wants text on standard output; every
 * --write place is free or a regular file. 0, or -1 after printing "bench CMD: ..." (exit 2). */
int pb_gate_outputs_check(pb_gate_outputs *o, const char *cmd);
/* Whether the gates print their text tables on standard output as they are decided. */
int pb_gate_outputs_text(const pb_gate_outputs *o);
/* Before the first table: with --annotate github, ::stop-commands::TOKEN. */
void pb_gate_outputs_begin(pb_gate_outputs *o);
/* At the end: the commands resumed, then the document to standard output (unless its text was
 * printed already: text_done), to every --write file, as annotations and to the step summary.
 * 0, 1 when a write failed or 2 when a place was refused (said on stderr as "bench CMD: ..."). */
int pb_gate_outputs_finish(pb_gate_outputs *o, pb_gate_doc *doc, const char *cmd, int text_done);
/* The command's exit status from its gate's (gate.h) and pb_gate_outputs_finish's: an output that
 * failed (1) or was refused (2) fails a gate that passed or stayed inconclusive. */
int pb_gate_outputs_status(int gate, int outputs);

#endif
