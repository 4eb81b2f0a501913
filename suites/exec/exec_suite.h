/* SPDX-License-Identifier: GPL-2.0-only */
/* exec_suite.h — the exec suite's options and commands, shared by its files: suite_exec.c (the
 * options, the warm-ups, the plan, the cases and the cell hooks) and exec_words.c (a command's
 * words, its {P} placeholders and the cells of --param). */
#ifndef PB_EXEC_SUITE_H
#define PB_EXEC_SUITE_H

#include <stddef.h>

#include "suite.h"

#define EXEC_CMD_MAX 2048
#define EXEC_MAX_WORDS 64
#define EXEC_MAX_CMDS PB_MAX_IMPLS
#define EXEC_MAX_VALUES 32
#define EXEC_MAX_PARAMS 2
#define EXEC_MAX_CELLS 256

/* one --param: its name and values */
typedef struct exec_param {
    char name[PB_NAME_MAX];
    char value[EXEC_MAX_VALUES][PB_NAME_MAX];
    int nvalues;
} exec_param;

/* A command as given: its words, split, placeholders still in them. */
typedef struct exec_tmpl {
    char name[PB_NAME_MAX];            /* the impl: NAME of --cmd, or old/new */
    char opt[2 * PB_NAME_MAX + 16];    /* how the user gave it, for messages: "--cmd b", "--old",
                                        * "--cmd b (L=1)" (a scan's) */
    char buf[EXEC_CMD_MAX];            /* the words, NUL-separated */
    int nwords;
    int given;
    char scan_value[PB_NAME_MAX];      /* a scan's command: its value of the scanned parameter; "" else */
} exec_tmpl;

/* A command ready to run: placeholders replaced, argv[0] resolved. */
typedef struct exec_cmd {
    char buf[EXEC_CMD_MAX];            /* the words, NUL-separated */
    char path[EXEC_CMD_MAX];           /* argv[0] resolved */
    char *argv[EXEC_MAX_WORDS + 1];    /* into buf, argv[0] = path; NULL-terminated */
} exec_cmd;

enum { HOOK_PREPARE, HOOK_SETUP, HOOK_CLEANUP, NHOOKS };

typedef struct exec_opts {
    exec_tmpl cmd[EXEC_MAX_CMDS];      /* --cmd in order; or [0] --old, [1] --new */
    int ncmds;                         /* --cmd given so far */
    int oldnew;                        /* --old or --new given */
    exec_tmpl hook[NHOOKS];            /* --prepare, --setup, --cleanup */
    exec_param par[EXEC_MAX_PARAMS];   /* --param, in order */
    int npar;
    int scan;                          /* one --cmd with --param, made into one command per value of
                                        * the first (exec_expand_scan): par[] holds the others */
    char scan_name[PB_NAME_MAX];       /* the scanned parameter */
    int check_output;
    unsigned long long bytes;
    int warmup;
    double timeout_s;                  /* --timeout; 0: from the earlier runs (exec_limit_s) */
    double slowest_warmup_ns;          /* plan's: the slowest warm-up run of any command */
    double slowest_ns[EXEC_MAX_CELLS][EXEC_MAX_CMDS];   /* each command's slowest run so far in
                                        * each cell, warm-up or timed: its limit's measure */
    int warmed;                        /* --warmed-limit: the run's own copy warmed up (layout copies) */
    char calibrated[64];
} exec_opts;

/* exec_words.c: CMD split into the words of t (the file comment of suite_exec.c); -1 + e naming opt */
int exec_split_words(const char *opt, const char *s, exec_tmpl *t, pb_err *e);
/* the length of the name of the placeholder "{NAME}" at p, or 0 where p starts none */
size_t exec_placeholder_at(const char *p);
/* the index of the parameter of that name (n characters), or -1 */
int exec_param_named(const exec_opts *o, const char *name, size_t n);
/* which parameters t uses (uses[i] set); -1 + e on a placeholder of no parameter, or of the scanned
 * one where scan_ok is 0 (--setup, --cleanup: once per cell, for every impl) */
int exec_check_placeholders(const exec_opts *o, const exec_tmpl *t, int scan_ok, int *uses, pb_err *e);
/* the cells: one, or one per value of a parameter (per pair of two) */
int exec_ncells(const exec_opts *o);
/* cell c's variant ("command", "N=V" or "N=V,M=W"; c < 0: the cell of no parameter) */
void exec_cell_variant(const exec_opts *o, int c, char *buf, size_t cap);
/* the index of the cell of that variant; -1: the cell of no parameter */
int exec_value_of(const exec_opts *o, const pb_cell *cell);
/* " (N=V)" for messages about cell v of parameters, "" else */
const char *exec_cell_words(const exec_opts *o, int v, char *buf, size_t cap);
/* t ready to run in cell `cell` (-1: no parameters): each {P} replaced by P's value there, the
 * scanned parameter's by `scan`, argv[0] resolved. -1 + e. */
int exec_instantiate(const exec_opts *o, const exec_tmpl *t, int cell, const char *scan, exec_cmd *c, pb_err *e);
/* NAME of --cmd: 1 if the n characters at s may name an impl */
int exec_good_name(const char *s, size_t n);
/* one --cmd with --param (hyperfine's -L) made into one command per value of the first parameter;
 * once, idempotent; 0 (also where o is no scan), or -1 + e */
int exec_expand_scan(exec_opts *o, pb_err *e);

#endif
