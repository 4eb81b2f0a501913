/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_merge.h — `bench gate merge FILE...` (and `bench gate --merge FILE...`): gate documents saved
 * as JSON (--format json, --write json=FILE) joined into one document, written in any format
 * (gate_doc.h). The ci/ scripts gate one suite a command; this makes their suites one document,
 * one verdict. Its options are entries of bench gate's table (PB_GATE_MERGE_OPTS), parsed with the
 * other forms' (cmd_gate.c). */
#ifndef PB_GATE_MERGE_H
#define PB_GATE_MERGE_H

#include "cli_opts.h"
#include "gate_outputs.h"

#define PB_GATE_MERGE_MAX_FILES 256
#define PB_GATE_MERGE_MAX_EXTRA 64

#define PB_GATE_MERGE_OPTS(type, merge_flag, merge_args, id_skipped, id_error)                                 \
    PB_OPT_FLAG("merge", "the merge form (bench gate merge)", type, merge_flag),                                \
    PB_OPT("skipped", "SUITE=WHY", "merge: a suite not gated, and why (again for more)", id_skipped),            \
    PB_OPT("error", "SUITE=WHY", "merge: a suite whose gate could not run and left no document (again\n"       \
                                 "for more)", id_error),                                                       \
    PB_OPT_FLAG("brief", "merge --format text: the verdict sentence only, not every gate's table again", type,   \
                merge_args.brief),                                                                             \
    PB_OPT_FLAG("check", "merge: check the options and the --write places, write nothing", type, merge_args.check)

typedef struct pb_gate_merge_args {
    const char *files[PB_GATE_MERGE_MAX_FILES];   /* the words after the options: the documents */
    int nfiles;
    struct { int error; const char *suite_why; } extra[PB_GATE_MERGE_MAX_EXTRA];
    int nextra;
    int brief, check;
} pb_gate_merge_args;

/* --skipped (error 0) or --error (1) SUITE=WHY: 0, or -1 after printing what is wrong. */
int pb_gate_merge_suite_opt(pb_gate_merge_args *m, const pb_cli *cli, int error, const char *value);
/* A word that is not an option: a document to join (for the merge form). 0, or -1 after printing. */
int pb_gate_merge_word(pb_gate_merge_args *m, const pb_cli *cli, const char *word);
/* The merge form, its options parsed: the exit status (what the joined document decided, 2 on an
 * error, said on stderr). */
int pb_gate_merge(const pb_gate_merge_args *m, pb_gate_outputs *out);

#endif
