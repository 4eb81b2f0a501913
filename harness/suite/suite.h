/* SPDX-License-Identifier: GPL-2.0-only */
/* suite.h — the contract between a suite (xts, drbg, sigpool, ...) and the harness.
 *
 * A suite knows its algorithms; the harness knows nothing suite-specific.
 * The harness asks a suite for its grid of cells (plan), builds one timed
 * case per implementation of a cell (setup_case), runs the cases of a cell
 * interleaved in rounds through Google Benchmark, derives the metrics the
 * suite asked for, and stores everything. Before timing any case of an
 * implementation the harness calls selftest() for it once per process and
 * refuses to time an implementation that fails (SUPERCOP's rule).
 *
 * Vocabulary (these strings end up in the `summary` view):
 *   impl     "old", "new", "openssl", ...   (who computes)
 *   variant  "256", "aes128", "hmac(sha1)"  (what parameters: key size, mechanism, algorithm)
 *   op       "enc", "dec", "generate", "segment", ...
 *   size     bytes processed per operation (payload), drives per-byte metrics; a suite that
 *            counts in items of its own (item_unit) stores the items' bytes, or their number
 *            where items carry no bytes
 */
#ifndef PB_SUITE_H
#define PB_SUITE_H

#include <stdint.h>
#include <stdio.h>

#include "pb.h"

/* The suite ABI (suite_module.h): the layout of pb_suite and of every type a suite hands across
 * a suite module's boundary (this file and pb.h). Bump it with any change of those types but
 * one: an optional hook appended at the end of pb_suite keeps the version, since a module records
 * the sizeof(pb_suite) it was built with and the loader reads the hooks a shorter suite lacks as
 * NULL (as SQLite's VFS appends methods behind iVersion). A comment changes nothing. */
#define PB_SUITE_ABI_VERSION 2

#define PB_NAME_MAX 48
#define PB_MAX_IMPLS 12   /* xts: 7 built-in + 4 plug-ins */
#define PB_MAX_SIZES 32
/* The largest cell size bench run builds (--sizes): a size above it is no cell of any suite, also
 * in an imported file. */
#define PB_MAX_SIZE_BYTES (UINT64_C(1) << 30)

/* Metrics the harness can derive from a sample; a suite ORs the ones it wants.
 * Per-sample raw data: iterations, ns (CLOCK_MONOTONIC_RAW), TSC ticks, core
 * cycles/instructions where perf_event gives them, and the core-speed probe. */
enum {
    PB_M_NS_PER_OP = 1u << 0,         /* ns        wall time of one op */
    PB_M_TSC_PER_BYTE = 1u << 1,      /* ticks/B   invariant TSC (NOT core cycles) */
    PB_M_CYCLES_PER_BYTE = 1u << 2,   /* cycles/B  only where a hardware cycle counter exists */
    PB_M_EST_CYCLES_PER_BYTE = 1u << 3, /* cycles/B estimated from TSC x core-speed probe */
    PB_M_MB_PER_S = 1u << 4,          /* MB/s      1e6 bytes per second */
    PB_M_GBIT_PER_S = 1u << 5,        /* Gbit/s    1e9 bits per second */
    PB_M_INSNS_PER_BYTE = 1u << 6,    /* insns/B   only where a hardware counter exists */
    PB_M_CPU_NS = 1u << 7,            /* ns        CPU time (user + system) of one op: a suite whose
                                       * samples' cpu_ns is the measured code's own (gbench) */
};

/* The timed body: perform `iters` operations back to back. The harness
 * brackets one call with its clocks; the body must do nothing but the ops
 * (no allocation or set-up that the measured code would not do itself). */
typedef void (*pb_body_fn)(void *ctx, uint64_t iters);

typedef struct pb_case {
    pb_body_fn body;
    void *ctx;
    void (*free_ctx)(void *ctx); /* may be NULL */
    /* Set by the body (optional): operations that failed on an error path the
     * suite counts (e.g. injected allocation failures, MAC mismatches). */
    uint64_t *error_count;
    /* Test-only (the synthetic suite's --seed): when set, a sample's time is not read from the
     * clock but is what this returns for `iters` ops in (round, repetition); the harness runs
     * the body a fixed number of times without calibrating. Every figure of such a run, and so
     * every verdict drawn from it, is a function of the seed, never of the machine's load. */
    double (*seeded_ns)(void *ctx, int round, int repetition, uint64_t iters);
    /* Optional: a case measured outside this process (the gbench suite: another program times
     * itself). The harness then calls this once per sample instead of body (never called) and
     * stores what it returns: the iterations, and the wall and CPU ns over all of them (cpu_ns -1
     * if unknown). No TSC, counters or core-speed probe: they would only measure bench waiting.
     * 0, or -1 with e: the run fails. */
    int (*external_sample)(void *ctx, int64_t *iterations, double *ns, double *cpu_ns, pb_err *e);
} pb_case;

/* One cell of the grid: every listed impl runs the same op on the same input shape. */
typedef struct pb_cell {
    char variant[PB_NAME_MAX];
    char op[PB_NAME_MAX];
    uint64_t size_bytes;
    int nimpls;
    char impls[PB_MAX_IMPLS][PB_NAME_MAX];
    /* 0 = harness default. A suite whose ops are slow or fixed-duration
     * (e.g. a TCP stream) can ask for a longer sample. */
    double sample_seconds;
} pb_cell;

/* Options common to all suites, already parsed by the CLI. Suites read
 * their own options from their options object (see pb_suite.options). */
typedef struct pb_plan_opts {
    int quick;                 /* --quick: same grid, fewer/shorter samples */
} pb_plan_opts;

/* One suite option, `--name VALUE` / `--name=VALUE`, or `--name` alone when arg is NULL (a
 * boolean: it takes no value). The CLI parses every option from this table and generates the
 * help from it; set() stores the value in the suite's options object (value NULL for a
 * boolean) and returns 0, or -1 with a message naming the option in e. */
typedef struct pb_suite_opt {
    const char *name;          /* without the dashes: "keys" */
    const char *arg;           /* what the value is, for the help: "LIST"; NULL = boolean */
    const char *help;          /* one or more lines, no leading indent, no trailing newline; NULL: bench's
                                * own (set on a layout's or a child's copy), in no help or completion */
    int (*set)(void *opts, const char *value, pb_err *e);
} pb_suite_opt;

/* What setup_case says about a case. Unavailable is not an error: the cell is stored with the
 * impl marked unavailable and the reason (e.g. the host kernel has no TCP-AO). */
typedef enum pb_setup_status {
    PB_SETUP_ERROR = -1,       /* e says what went wrong: the run fails */
    PB_SETUP_OK = 0,           /* *c is ready to time */
    PB_SETUP_UNAVAILABLE = 1,  /* e says why this impl cannot run here; *c untouched */
} pb_setup_status;

typedef struct pb_grid {
    int ncells;
    pb_cell *cells;            /* malloc'd by plan(), freed by the harness */
} pb_grid;

/* A row of the document's own table, kept as data (data/<suite>_doc.tsv). */

/* Known-answer results, accumulated over files. */
typedef struct pb_kat_result {
    unsigned long passed, failed, skipped;
} pb_kat_result;

/* What a report claims per cell (from the document); see harness/report/verdict.h. */
typedef enum {
    PB_CLAIM_NONE = 0,
    PB_CLAIM_FASTER,     /* candidate should be faster than baseline */
    PB_CLAIM_EQUAL,      /* equal within noise */
    PB_CLAIM_NOT_SLOWER, /* "better or comparable" */
} pb_claim;

typedef struct pb_suite {
    const char *name;        /* "xts" */
    const char *title;       /* one line, for `bench list` and reports */
    const char *baseline;    /* impl the ratios are taken against: "old" */
    const char *candidate;   /* impl the claim is about: "new" */
    unsigned metrics;        /* PB_M_* */
    const char *primary_metric; /* metric of plots and ratios: "ns_per_op", "mb_per_s", "gbit_per_s" */
    const char *kat_help;       /* which .rsp formats `bench kat` understands for this suite */

    /* The suite's options: an object of opts_size bytes that the harness allocates (zeroed),
     * fills with defaults through opts_init, sets from the command line through the table
     * `options` (terminated by an entry with name NULL; may be NULL: no options), hands to
     * plan/setup_case/effective_options, and releases through opts_free. There is no other
     * place for a suite's options: no file-scope state. opts_init/opts_free may be NULL. */
    size_t opts_size;
    void (*opts_init)(void *opts);
    void (*opts_free)(void *opts);
    const pb_suite_opt *options;

    /* Build the whole grid (the harness filters by --impl and --sizes). plan may record in
     * opts what it derived (a calibration, a default read from data/) for setup_case. */
    int (*plan)(void *opts, const pb_plan_opts *o, pb_grid *g, pb_err *e);

    /* Can a cell of this size be built? -1 + e if not. Optional; `bench run` asks it for every
     * cell (after --sizes) before it opens the database or measures anything. */
    int (*check_size)(uint64_t size_bytes, pb_err *e);

    /* Build one timed case; the harness frees it with c->free_ctx. Process-wide state an
     * implementation layer needs is set here from opts, explicitly. opts is the run's: a suite
     * may keep per-run state in it (e.g. a count of cases set up). */
    pb_setup_status (*setup_case)(void *opts, const pb_cell *cell, const char *impl, pb_case *c, pb_err *e);

    /* Check impl against built-in known answers; 0 if it passed. */
    int (*selftest)(const void *opts, const char *impl, pb_err *e);

    /* Optional: versions of the libraries this suite's implementations use (e.g. "libgcrypt
     * 1.10.1, OpenSSL 3.0.11"), for the run's provenance; the core links no crypto library. */
    const char *(*library_versions)(void);
    /* The suite's kernel-module part (kmod/), if it has one: the impls the module reports
     * (NULL-terminated) and which of them are the baseline and the candidate. `bench run
     * --target qemu|host`, `bench import` and `bench report` know a kernel-module part only
     * from here. kmod_impls NULL: the suite has none (its kernel data is refused). */
    const char *const *kmod_impls;
    const char *kmod_baseline;   /* "kmod-old" */
    const char *kmod_candidate;  /* "kmod-new" */

    /* Does this suite understand this .rsp file (look at its header/sections)? */
    int (*kat_accepts)(const char *path);
    /* Run every record of an .rsp file against impl (NULL = every impl of the
     * suite), print one line per failure to `log`, add to *r. Return 0, or -1
     * on unreadable/malformed input with "file:line: what" in e. */
    int (*kat_file)(const char *path, const char *impl, pb_kat_result *r, FILE *log, pb_err *e);
    /* Optional: load the shared object at path as impl `name` through the suite's plug-in ABI
     * (include/patchbench/SUITE_plugin.h), self-tested in a child process first, as `bench run
     * --plugin` does; `bench kat --plugin` then checks it. 0, or -1 + e. NULL: no plug-ins. */
    int (*plugin_load)(const char *name, const char *path, pb_err *e);

    /* The document's claim for a cell, given the document's candidate/baseline ratio
     * (NaN when the document has no number for it). */
    pb_claim (*claim)(const pb_cell *cell, double doc_ratio);

    /* Optional: the suite's effective settings after plan(), one line of text (e.g. a default
     * read from data/ and what it came to on this machine), which the runner stores in the run's
     * `suite_settings` so that every stored run says what it ran with. It is provenance, not
     * procedure: a calibrated figure differs between two processes, so the gate compares `options`
     * (what was asked for), never this. May be NULL or return NULL. */
    const char *(*effective_options)(const void *opts);

    /* Optional: the suite options that reproduce what plan() derived from timing this machine (a
     * calibration), as NAME=VALUE words separated by spaces ("child-call-spins=25/4"), or NULL.
     * The commit gate in one process plans the candidate build's suite and sets these on the
     * baseline build's before planning it, so that both builds pay the same modelled costs: two
     * calibrations a moment apart differ by more than the changes the gate looks for. */
    const char *(*calibrated_options)(const void *opts);

    /* Report layout: how cells map to plot panels and the x axis.
     *   "size"    : x = size_bytes (log2), one panel per (variant, op), lines per impl
     *   "variant" : x = variant (grouped bars), one panel per op
     */
    const char *plot_x;
    const char *notes_md;    /* extra paragraph for plots/<suite>.md (differences from the document) */

    /* Optional hooks added later go here, at the end, and only here (PB_SUITE_ABI_VERSION). */

    /* Optional: is impl code the lab did not write (a plug-in, a library by path)? 0: the lab's
     * own; 1: user code, and what it is in what[cap], for messages ("xts plug-in w (./w.so)").
     * The runner times such code in a child process of its own (harness/run/cage.h, docs/cage.md). */
    int (*user_code)(const void *opts, const char *impl, char *what, size_t cap);
    /* Optional: after each sample timed in a cage, is the output of the case's last operation
     * the reference's (the suite's own known-good implementation, on the same input)? 0, or
     * -1 + e saying what differs: the impl then fails the cell. NULL: not checkable. */
    int (*check_output)(void *case_ctx, pb_err *e);
    /* Optional: the names of the suite's options that are given at most once, NULL-terminated (NULL:
     * none): one that takes a comma list (xts --keys 256,512) or one choice (sigpool --mode). The CLI
     * refuses a second use, which would otherwise replace the first while the run's stored options
     * show both. Every other option keeps what its setter does with a repeat (--plugin adds one). */
    const char *const *once_options;
    /* Optional: the ratios a run pairs beyond every impl against the baseline and every `X@P`
     * against `baseline@P`: {candidate, baseline, candidate, baseline, ..., NULL}, each pair stored
     * where both impls ran in a cell, e.g. the real code's own pair, upstream-new against
     * upstream-old, beside the re-implementation's new against old. NULL: none. The list may
     * depend on the options (a build given by name) and lives as long as opts. */
    const char *const *(*ratio_pairs)(const void *opts);
    /* The kernel-module part's own extra pairs, in the same form (NULL: none): `bench import`
     * and `bench run --target` store them (kmod-new against kmod-kernel-xts). */
    const char *const *kmod_ratio_pairs;
    /* Optional: the real code's own pair, beside the re-implementation's baseline/candidate: the
     * impls whose ratios row reports set beside the candidate/baseline row and mark where the two
     * differ by more than 10 % (docs/verdicts.md). drbg: gcrypt:upstream-old, gcrypt:upstream-new
     * (the libgcrypt builds at the patch's parent and at the patch). NULL: none. */
    const char *real_baseline, *real_candidate;
    /* Optional: the kernel-module part's real code of the candidate's design, against which
     * kmod_candidate is paired and reported per cell (xts: kmod-kernel-xts, the running kernel's
     * own crypto/xts.c over the same child). NULL: none. */
    const char *kmod_real;
    /* Optional, a pair: the suite's registry of code it loaded by path (drbg: the --gcrypt-lib
     * builds, each in a link-map namespace of its own), and making another copy of the suite
     * use that registry instead of its own. bench's code layouts are copies of the same objects
     * (docs/layout.md); each loading its own namespaces would fill glibc's static TLS after a few
     * (and glibc has 16 namespaces in all), so a layout copy uses the run's registry: one
     * namespace per build for the whole run. Only between copies of one build. */
    void *(*loaded_code)(void);
    void (*use_loaded_code)(void *registry);
    /* Optional: the file of user code impl runs (a gbench or exec side's program, a plug-in's shared
     * object, a library build by path), its path in path[cap]: 1, or 0 when impl is the lab's own
     * code. Each such file's identity (sha256, build-id, compiler and flags where it records them,
     * the repository revision it is in) is stored with the run, and the build-parity check compares
     * the sides (docs/your-code.md, harness/run/objects.h). NULL: none. */
    int (*user_object)(const void *opts, const char *impl, char *path, size_t cap);
    /* Optional: how the suite's own impls were compiled, for the build-parity check of a plug-in or a
     * library build beside them: the build profile's name ("kernel profile") and its switches in
     * command-line order (meson.build's PB_*_PROFILE_CFLAGS). NULL: not checked. */
    const char *own_profile, *own_cflags;
    /* Optional: the names of the options that name the code under test (gbench --old/--new, a
     * --plugin), NULL-terminated: a stored baseline's configuration is the run's options without
     * their values, so that a new build of the same benchmark compares (docs/gate.md). NULL: none. */
    const char *const *code_options;
    /* Optional: what one sample is, for the run's header, where it is not a timed loop of
     * --sample-s seconds in this process: gbench "one process running one benchmark, timed by Google
     * Benchmark", exec "one process of the command, spawn to reaped". NULL: the timed loop, whose
     * length the header gives ("0.5 ms samples"). */
    const char *sample_words;
    /* Optional: the impls the options make the baseline and the candidate, where the user names the
     * impls (exec --cmd NAME=CMD: the first and the second command). The run stores, pairs and
     * reports against these instead of `baseline` and `candidate`. 1 with *baseline and *candidate
     * set (they live as long as opts), or 0: the suite's own. */
    int (*roles)(const void *opts, const char **baseline, const char **candidate);
    /* Optional: the user and system parts of the CPU time of the case's last external_sample (whose
     * cpu_ns is their sum), stored apart (samples.user_ns, sys_ns). 1 with both set, or 0: unknown. */
    int (*cpu_split)(void *case_ctx, double *user_ns, double *sys_ns);
    /* Optional: called once per cell of a run on the run's own options (never a code layout's copy,
     * so once however many layouts the run has): cell_begin before the first of the cell's cases is
     * set up, cell_end after its last sample and before the cell is stored (exec --setup and
     * --cleanup). 0, or -1 + e: the run is refused (bench run exits 2) and the cell is not stored;
     * cell_end also 1 + e: the cell is kept, and e's words are warned about and stored in the run's
     * noise (a --cleanup that failed after every sample was in). */
    int (*cell_begin)(void *opts, const pb_cell *cell, pb_err *e);
    int (*cell_end)(void *opts, const pb_cell *cell, pb_err *e);
    /* Optional: sizes in items of the suite's own (docs/adding-a-suite.md, "Sizes in items"), where
     * one op handles N of them (tweaks, packets, requests) and N is what a reader wants per. The
     * item's word, singular, its plural by an "s" ("block"), and the bytes of one item where items
     * are bytes (16: a cell's size_bytes stays its bytes, N = size_bytes / 16, and every per-byte
     * metric holds), or 0 where items carry no bytes (size_bytes is then N itself, and the suite
     * asks for no per-byte metric). `bench run --sizes` then takes counts of items; the progress,
     * the reports and the exports add ns per item and items/s (metrics.h). NULL: sizes are bytes. */
    const char *item_unit;
    uint64_t item_bytes;
    /* Optional: `--measure valgrind` for a suite whose cases are other programs (external_sample),
     * whose instructions callgrind counts in their own process (harness/run/valgrind_ext.c). One
     * run of the case's program as a sample runs it, its argv put after wrap (valgrind and its
     * options, NULL-terminated, wrap[0] a path), and in *iterations the ops the counted dumps hold
     * (gbench: the iterations GB reports; exec: 1, the whole process). longer (0, 1, 2): the same
     * run made 10^longer times longer where the program chooses its ops by time (gbench: its
     * --min-time), asked for when the dump counted was the program's first, cold one (code not yet
     * translated by valgrind, symbols not yet bound): a count of those. count_options are the
     * suite's valgrind options beyond the harness's (NULL-terminated; NULL: none); count_last_dump
     * 1: only the last dump those options triggered holds the ops (gbench: GB's loop, zeroed at
     * its start, dumped at its end); 0: every process's final dump, summed (exec: the command and
     * what it starts). 0, or -1 + e naming the program. NULL: such a suite's counts are refused. */
    int (*count_sample)(void *case_ctx, char *const *wrap, int longer, int64_t *iterations, pb_err *e);
    const char *const *count_options;
    int count_last_dump;
} pb_suite;

/* A suite's registration is checked once, before anything uses it (skcipher_prepare_alg's rule):
 * bench checks every suite it links at start (pb_suites_prepare), the suite module loader every
 * suite of another build's module. Refused: a suite without a name, title, baseline, candidate,
 * plan or setup_case, options without an opts_size, or two options of one name. Callers then
 * trust what is required and reach the optional hooks through the functions below, which give
 * their defaults. 0, or -1 + e naming the suite and what is missing. */
int pb_suite_prepare(const pb_suite *s, pb_err *e);
int pb_suites_prepare(const pb_suite *const *suites, pb_err *e);

/* The optional hooks, each with its default when the suite has none. */
int pb_suite_opt_once(const pb_suite *s, const char *name);                                /* 0: repeatable */
int pb_suite_selftest(const pb_suite *s, const void *opts, const char *impl, pb_err *e);   /* 0: passed */
int pb_suite_check_size(const pb_suite *s, uint64_t size_bytes, pb_err *e);                /* 0: can */
const char *pb_suite_effective_options(const pb_suite *s, const void *opts);               /* NULL */
const char *pb_suite_calibrated_options(const pb_suite *s, const void *opts);              /* NULL */
const char *pb_suite_library_versions(const pb_suite *s);                                  /* NULL */
pb_claim pb_suite_claim(const pb_suite *s, const pb_cell *cell, double doc_ratio);         /* none */
int pb_suite_user_code(const pb_suite *s, const void *opts, const char *impl, char *what, size_t cap); /* 0 */
int pb_suite_check_output(const pb_suite *s, void *case_ctx, pb_err *e);                   /* 0 */
const char *const *pb_suite_ratio_pairs(const pb_suite *s, const void *opts);              /* NULL */
int pb_suite_kat_accepts(const pb_suite *s, const char *path);                             /* 0 */
int pb_suite_user_object(const pb_suite *s, const void *opts, const char *impl, char *path, size_t cap); /* 0 */
/* Is the timed code another program (a sample is a process: sample_words, gbench and exec)? Bench's
 * code layouts move only its own suite module, never that program's code, so such a run has one
 * layout and says rounds, not layouts (docs/layout.md). 0: the suite's code runs in bench. */
int pb_suite_times_a_program(const pb_suite *s);
/* The run's baseline and candidate impls: the suite's roles hook where it names them, else its own. */
void pb_suite_roles(const pb_suite *s, const void *opts, const char **baseline, const char **candidate);

/* The suite's whole grid as its default options plan it (what `bench list` counts and `bench
 * import` checks a file's cells against): g->cells malloc'd, the caller frees them. 0, or -1 + e. */
int pb_suite_default_grid(const pb_suite *s, pb_grid *g, pb_err *e);

/* What suite `from` calibrated in its plan (calibrated_options: NAME=VALUE words) set on another
 * copy of it, `to` (another build's, another code layout's), so that both pay the same modelled
 * costs. said (may be NULL) gets "--NAME=VALUE ..." as set, each option `to` lacks marked. 0, or
 * -1 + e when `to` refuses a value. */
int pb_suite_copy_calibration(const pb_suite *from, const void *from_opts, const pb_suite *to, void *to_opts,
                              char *said, size_t cap, pb_err *e);

/* All suites linked into bench (harness/suite/registry.c). */
extern const pb_suite *const pb_suites[];
const pb_suite *pb_suite_find(const char *name);
/* "unknown suite 'NAME' (did you mean X?; suites: a b ...MORE)" into buf (MORE: what the caller
 * also takes, "" or ", or *"); returns buf. */
const char *pb_suite_unknown(char *buf, size_t cap, const char *name, const char *more);
/* What a suite of this build declared of itself (its folder's meson.build, pb_suite_decls): the
 * upstream commit of the published patch it re-runs ("" for none: a harness check, the user's own
 * code), and how .ci/run gates it ("" none, "record" its claim gate recorded, "commit" that and
 * the commit gates). "" for a suite this build does not declare (another build's module). The
 * test-only environment variable PB_TEST_PUBLISHED=NAME[,NAME...] replaces the published ones. */
const char *pb_suite_published(const pb_suite *s);
const char *pb_suite_ci(const pb_suite *s);

/* The options object of a suite (harness/suite/suite_opts.c): allocated and set to the suite's
 * defaults, NULL + e on OOM; freed (NULL is fine) with pb_suite_opts_free. */
void *pb_suite_opts_new(const pb_suite *s, pb_err *e);
void pb_suite_opts_free(const pb_suite *s, void *opts);
/* The entry of the suite's option table called `name` (leading dashes ignored), or NULL. */
const pb_suite_opt *pb_suite_opt_find(const pb_suite *s, const char *name);
/* Set option `name` to `value` (NULL: given without a value). 1 set, 0 not an option of this
 * suite, -1 + e on a bad value, a value given to a boolean, or a missing value. */
int pb_suite_set_opt(const pb_suite *s, void *opts, const char *name, const char *value, pb_err *e);

#endif
