/* SPDX-License-Identifier: GPL-2.0-only */
/* cli_opts.h — the one command-line parser of bench: every subcommand declares its options as a
 * table, and the suite's own options come from the suite's table (suite.h). On getopt_long:
 *   --opt=value and --opt value everywhere; booleans take no value (--quick=no is an error);
 *   no abbreviations (--qu is unknown, not --quick); unknown options and missing values print
 *   `bench CMD: ...` on stderr and the command exits 2; --help (and -h) is generated from the
 *   same tables. Google Benchmark's --benchmark_* flags are taken out before (pb_gb_init). */
#ifndef PB_CLI_OPTS_H
#define PB_CLI_OPTS_H

#include <stddef.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store.h"
#include "suite.h"

/* What parsing an option does: hand it to the command's on_opt, or write a destination in the
 * command's ctx (at offset, as git's parse-options does) without a line of the command's own. */
typedef enum pb_cli_type {
    PB_CLI_CALLBACK = 0,  /* on_opt(ctx, id, value) */
    PB_CLI_STRING,        /* const char * at offset = the value (it points into argv) */
    PB_CLI_CLEAR,         /* int at offset = 0 (a boolean that turns something off) */
    PB_CLI_FLAG,          /* int at offset = 1 (a boolean that turns something on) */
    PB_CLI_INT,           /* int at offset = the value, a whole number from lo to hi */
    PB_CLI_DOUBLE,        /* double at offset = the value times scale, the value a number from lo to hi */
    PB_CLI_RUN,           /* const char * at offset = the value, a run id or "latest" (pb_cli_run_id) */
    PB_CLI_CPU,           /* const char * at offset = the value, once pb_cpu_parse accepts it */
    PB_CLI_USER_TEXT,     /* const char * at offset = the value: printable, PB_CLI_USER_TEXT_MAX at most */
} pb_cli_type;

/* What a second use of an option does. An option that names impls, sizes or runs must not let
 * the second use silently win while the run's stored command line shows both. */
typedef enum pb_cli_repeat {
    PB_CLI_LAST = 0,      /* the last value wins (settings whose repetition is harmless) */
    PB_CLI_ONCE,          /* refused: one impl or one choice ("--impl X given twice") */
    PB_CLI_ONE_LIST,      /* refused: a comma list goes in one value ("give --impl old,new") */
} pb_cli_repeat;

typedef struct pb_cli_opt {
    const char *name;     /* without the dashes: "db" */
    const char *arg;      /* what the value is, for the help: "PATH"; NULL = boolean, takes no value */
    const char *help;     /* one or more lines, no indent, no trailing newline */
    int id;               /* handed to the command's on_opt */
    pb_cli_type type;
    size_t offset;        /* PB_CLI_STRING, CLEAR, CPU: where in the command's ctx */
    pb_cli_repeat repeat;
    int internal;         /* bench's own (a child it starts), or an old spelling: parsed, never shown in
                           * help, man or completion */
    double lo, hi, scale; /* PB_CLI_INT, PB_CLI_DOUBLE: the values taken (both ends in), and the
                           * factor a double is stored with (--sample-ms in seconds: 1e-3) */
} pb_cli_opt;

/* An option handed to on_opt, one given at most once, a comma list given at most once, and a
 * table's end. */
#define PB_OPT(name, arg, help, id) {name, arg, help, id, PB_CLI_CALLBACK, 0, PB_CLI_LAST, 0, 0, 0, 0}
#define PB_OPT_ONCE(name, arg, help, id) {name, arg, help, id, PB_CLI_CALLBACK, 0, PB_CLI_ONCE, 0, 0, 0, 0}
#define PB_OPT_LIST(name, arg, help, id) {name, arg, help, id, PB_CLI_CALLBACK, 0, PB_CLI_ONE_LIST, 0, 0, 0, 0}
#define PB_OPT_END {NULL, NULL, NULL, 0, PB_CLI_CALLBACK, 0, PB_CLI_LAST, 0, 0, 0, 0}
/* An option bench passes to a child of its own: parsed as PB_OPT, listed nowhere a user reads
 * (tests/form checks that --help, the man pages and the completion never show one). */
#define PB_OPT_INTERNAL(name, arg, help, id) {name, arg, help, id, PB_CLI_CALLBACK, 0, PB_CLI_LAST, 1, 0, 0, 0}
/* ... and typed ones (an old spelling kept for scripts is internal too) */
#define PB_OPT_INTERNAL_STRING(name, arg, help, type, field)                                                   \
    {name, arg, help, 0, PB_CLI_STRING, offsetof(type, field), PB_CLI_LAST, 1, 0, 0, 0}
#define PB_OPT_INTERNAL_INT(name, arg, help, type, field, lo, hi)                                               \
    {name, arg, help, 0, PB_CLI_INT, offsetof(type, field), PB_CLI_LAST, 1, lo, hi, 1}
#define PB_OPT_INTERNAL_FLAG(name, help, type, field)                                                          \
    {name, NULL, help, 0, PB_CLI_FLAG, offsetof(type, field), PB_CLI_LAST, 1, 0, 0, 0}
/* Typed entries: the parser writes field of the command's ctx (type), no on_opt line of its own. */
#define PB_OPT_FLAG(name, help, type, field) {name, NULL, help, 0, PB_CLI_FLAG, offsetof(type, field), PB_CLI_LAST, 0, 0, 0, 0}
#define PB_OPT_STRING(name, arg, help, type, field)                                                            \
    {name, arg, help, 0, PB_CLI_STRING, offsetof(type, field), PB_CLI_LAST, 0, 0, 0, 0}
#define PB_OPT_STRING_ONCE(name, arg, help, type, field)                                                       \
    {name, arg, help, 0, PB_CLI_STRING, offsetof(type, field), PB_CLI_ONCE, 0, 0, 0, 0}
#define PB_OPT_STRING_LIST(name, arg, help, type, field)                                                       \
    {name, arg, help, 0, PB_CLI_STRING, offsetof(type, field), PB_CLI_ONE_LIST, 0, 0, 0, 0}
#define PB_OPT_INT(name, arg, help, type, field, lo, hi)                                                        \
    {name, arg, help, 0, PB_CLI_INT, offsetof(type, field), PB_CLI_LAST, 0, lo, hi, 1}
#define PB_OPT_DOUBLE(name, arg, help, type, field, lo, hi, scale)                                              \
    {name, arg, help, 0, PB_CLI_DOUBLE, offsetof(type, field), PB_CLI_LAST, 0, lo, hi, scale}

/* The options every command that has them declares alike, each with one meaning (type: the
 * command's ctx type; help: what it does in that command):
 *   --suite NAME   the suite;  --impl X  only that implementation (bench run: a comma list);
 *   --run ID|latest  one stored run, given once;  --out PLACE  where the command's own output goes
 *   (a file or a folder; gate and compare write their documents' extra files with --write F=FILE). */
#define PB_OPT_SUITE(arg, help, type, field) PB_OPT_STRING("suite", arg, help, type, field)
#define PB_OPT_IMPL(arg, help, type, field) PB_OPT_STRING_ONCE("impl", arg, help, type, field)
#define PB_OPT_IMPLS(help, type, field) PB_OPT_STRING_LIST("impl", "A,B", help, type, field)
#define PB_OPT_RUN(help, type, field) {"run", "ID|latest", help, 0, PB_CLI_RUN, offsetof(type, field), PB_CLI_ONCE, 0, 0, 0, 0}
#define PB_OPT_OUT(arg, help, type, field) PB_OPT_STRING("out", arg, help, type, field)
#define PB_DB_HELP "the database: a SQLite file or a postgresql:// URI\n(default $PB_DB or " PB_DEFAULT_DB_PATH ")"
#define PB_OPT_DB(type, field) {"db", "PATH", PB_DB_HELP, 0, PB_CLI_STRING, offsetof(type, field), PB_CLI_LAST, 0, 0, 0, 0}
#define PB_OPT_DB_READ(type, field) {"db", "PATH", PB_DB_HELP ", opened read-only", 0, PB_CLI_STRING, offsetof(type, field), PB_CLI_LAST, 0, 0, 0, 0}
#define PB_OPT_QUIET(type, field) {"quiet", NULL, "no progress on stderr", 0, PB_CLI_CLEAR, offsetof(type, field), PB_CLI_LAST, 0, 0, 0, 0}
#define PB_OPT_CPU(type, field)                                                                                 \
    {"cpu", "N|none",                                                                                           \
     "pin the benchmark thread to online CPU N (default: the last online\n"                                    \
     "CPU, when more than one is online); none: do not pin. Stored with\n"                                     \
     "each run (runs.cpu_affinity), with why when not pinned",                                                \
     0, PB_CLI_CPU, offsetof(type, field), PB_CLI_LAST, 0, 0, 0, 0}

/* The user's side of a run of the user's code (docs/your-code.md): stored, shown, ordered by. */
#define PB_CLI_USER_TEXT_MAX 200
#define PB_OPT_REVISION(type, field)                                                                            \
    {"revision", "REV",                                                                                         \
     "the revision of your code this run times (default: git describe --always\n"                             \
     "--dirty of the repository the candidate's binary or plug-in is in); bench\n"                            \
     "history orders such runs by it. Only for runs of your code (gbench, exec,\n"                            \
     "--plugin, --gcrypt-lib)",                                                                                 \
     0, PB_CLI_USER_TEXT, offsetof(type, field), PB_CLI_ONCE, 0, 0, 0, 0}
#define PB_OPT_LABEL(type, field)                                                                               \
    {"label", "TEXT", "a name for your side of the run (\"PR 42\", \"-O3 build\"), stored and shown", 0,       \
     PB_CLI_USER_TEXT, offsetof(type, field), PB_CLI_ONCE, 0, 0, 0, 0}

typedef struct pb_cli {
    const char *cmd;              /* "run": messages read "bench run: ..." */
    const char *synopsis;         /* "usage: ..." and a description; printed first by --help */
    const char *epilogue;         /* printed after the options (may be NULL) */
    const pb_cli_opt *opts;       /* terminated by an entry with name NULL */
    /* Suite options: when suite is set (pb_cli_find_suite), its table is parsed into suite_opts,
     * and what was given is appended to suite_text (for the run's provenance). */
    const pb_suite *suite;
    void *suite_opts;
    char suite_text[512];
    /* ... and each one given, in order (name and value point into argv; value NULL for a boolean),
     * so that a command can set the same options on another build's copy of the suite */
#define PB_CLI_MAX_SUITE_GIVEN 32
    const char *suite_given_name[PB_CLI_MAX_SUITE_GIVEN], *suite_given_value[PB_CLI_MAX_SUITE_GIVEN];
    int nsuite_given;
    /* called for every option of opts in command-line order; 0, or -1 after printing why
     * (pb_cli_error). value is NULL for a boolean. */
    int (*on_opt)(void *ctx, int id, const char *value);
    /* called for every option of opts, typed or not, before it is taken (may be NULL): a command
     * that asks what was given (bench gate's forms) sees each one here. 0, or -1 after printing. */
    int (*on_seen)(void *ctx, const pb_cli_opt *o);
    /* called for every non-option argument, in order among the options (so that an option may
     * take the word after it, as `compare --runs A B` does); NULL: none allowed. 0 or -1. */
    int (*on_pos)(void *ctx, const char *arg);
    void *ctx;
    /* extra lines for --help after the options (e.g. the list of suites); may be NULL */
    void (*more_help)(FILE *f, const struct pb_cli *c);
} pb_cli;

/* Parse argv[1..argc-1] (argv[0] is the command's name; argv is not reordered). Returns 0
 * (every argument handled), 1 (--help printed on stdout: exit 0), or 2 (a message was printed
 * on stderr: exit 2). */
int pb_cli_parse(pb_cli *c, int argc, char **argv);

/* --help as pb_cli_parse prints it: as text (as NULL), or as `bench help` asks with the parser's
 * own --help-as: "man:WHAT" (a man page whose NAME line says WHAT) or "options" (one option a line,
 * for the completion). */
void pb_cli_help(FILE *f, const pb_cli *c, const char *as);

/* The suite named by --suite NAME / --suite=NAME, if any, so that its options can be parsed
 * (and listed by --help). 0 (*s NULL when none given), or 2 after printing
 * "bench CMD: unknown suite 'X' (suites: ...)". */
int pb_cli_find_suite(const char *cmd, int argc, char **argv, const pb_suite **s);
/* The word the last --suite gives (before "--"), unchecked ("all" for bench run --suite all), or
 * NULL; *at: its index in argv (the word after --suite, or the --suite=NAME word). */
const char *pb_cli_suite_word(int argc, char **argv, int *at);
/* pb_gb_init (Google Benchmark's --benchmark_* flags out of argv, to bench's own Google Benchmark)
 * for `bench run` and `bench gate`, leaving in argv those that the suite named by --suite declares
 * as options of its own (gbench: the measured binary's --benchmark_filter, ...). 0, or -1 after
 * printing why a flag is refused. */
int pb_cli_gb_init(int *argc, char **argv);

/* Print "bench CMD: <message>" on stderr; returns -1 (for on_opt). */
int pb_cli_error(const pb_cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* pb_nearest (base/nearest.h) under the name the commands have called it by. */
const char *pb_cli_nearest(const char *typed, const char *const *names, size_t n);

/* Value checks with the option named in the message; 0, or -1 after printing. */
int pb_cli_int(const pb_cli *c, const char *name, const char *value, long lo, long hi, int *out);
int pb_cli_run_id(const pb_cli *c, const char *name, const char *value, int allow_latest, int64_t *out);
/* The run a PB_CLI_RUN entry took: its id, or 0 for "latest" or none given. */
int64_t pb_cli_run_of(const char *value);

/* The suite options given on c's command line, set again on another copy of the suite (another
 * build's, another code layout's) and its options object. 0, or -1 + e: the setter's message, or
 * "suite S has no option --X". */
int pb_cli_apply_suite_opts(const pb_cli *c, const pb_suite *s, void *opts, pb_err *e);

/* "bench --version": version and git revision. */
void pb_cli_version(FILE *f);
/* "bench ARGV..." into out (cap bytes, truncated): the command line a run records. */
void pb_cli_join(int argc, char **argv, char *out, size_t cap);

#endif
