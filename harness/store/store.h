/* SPDX-License-Identifier: GPL-2.0-only */
/* store.h — the results store: an SQLite file (default PB_DEFAULT_DB_PATH, or $PB_DB) or a
 * PostgreSQL database (a postgresql:// URI, docs/fleet.md), both through db.h.
 *
 * Schema: docs/schema.md. Discipline:
 *  - a run row is inserted with status 'incomplete' before anything is
 *    measured; it becomes 'complete' only in the same transaction that writes
 *    its statistics. A run killed by SIGKILL therefore stays 'incomplete'; a
 *    run stopped by SIGINT/SIGTERM is marked 'incomplete' with the reason; a
 *    run that hit an error is 'failed'. Only complete runs appear in `summary`.
 *  - samples are written one cell per transaction.
 * Nothing here knows a suite: cases are (impl, variant, op, size) strings. */
#ifndef PB_STORE_H
#define PB_STORE_H

#include <stdint.h>

#include "db.h"
#include "pb.h"
#include "provenance.h"

typedef struct pb_store {
    pb_db *db;        /* db.h: SQLite or PostgreSQL */
    char path[1024];  /* the file or URI (a URI never carries a password: refused) */
} pb_store;

typedef struct pb_sample {
    int round, position, repetition;
    int64_t iterations;
    double ns;                 /* wall time over all iterations */
    double cpu_ns;             /* thread CPU time, -1 if unknown */
    int has_cpu_split;         /* user_ns and sys_ns are known (exec: a child's rusage); 0: stored NULL */
    double user_ns, sys_ns;    /* the user and system parts of cpu_ns */
    double tsc;                /* ticks over all iterations (see runs.tick_source) */
    double cycles, insns;      /* -1 where no hardware counter */
    double probe_before, probe_after; /* core-speed probe, ticks per 1000 dependent adds; 0 if none */
    double tprobe_before, tprobe_after; /* core-sharing probe, ticks per 3000 independent adds; 0 if none */
    double wait_ns, steal_ns;  /* run-queue delay and steal during it (runenv.h pb_waits); -1 unknown */
    uint64_t errors;           /* operations that took a counted error path */
    int layout;                /* the code layout its round ran in (docs/layout.md); 0 when one */
} pb_sample;

/* A sample is in the fast core state when both probes are within this factor of the run's fastest. */
#define PB_FAST_PROBE_FACTOR 1.3
/* A sample ran on a shared core (the core's other hardware thread busy) when either of its
 * core-sharing probes is over this factor of the run's fastest (docs/layout.md, "A shared core"):
 * alone the probe varies by under 10 %, shared it was 1.35-2 times as slow where it was measured
 * (docs/measurements/layout-shared-core.md). */
#define PB_SHARED_PROBE_FACTOR 1.25
/* A sample with core-sharing probes before and after (tb, ta; 0: none) against the run's fastest */
static inline int pb_shared_core(double tb, double ta, double fastest)
{
    double lim = PB_SHARED_PROBE_FACTOR * fastest;
    return tb > 0 && ta > 0 && (tb > lim || ta > lim);
}

/* The one default database path; the environment variable PB_DB overrides it. */
#define PB_DEFAULT_DB_PATH "results/bench.db"
const char *pb_default_db(void);

/* Schema version written to PRAGMA user_version (SQLite) or pb_meta.schema_version (PostgreSQL);
 * docs/schema.md lists every version. */
#define PB_SCHEMA_VERSION 11
/* How long an open, a migration or a write waits for another process's lock. */
#define PB_BUSY_TIMEOUT_MS 30000

/* -1 + e: "PATH: what: the database's message" ("PATH: the database's message" for what NULL), for a
 * failed statement of store s. */
int pb_store_sqlerr(pb_store *s, pb_err *e, const char *what);

/* The core tables and the gate's tables (schema.c), the whole schema of a new database. */
extern const char *const pb_store_schema_sql;
extern const char *const pb_gate_tables_sql;
/* The tables that came with version 6 (objects, baselines), for its migration. */
extern const char *const pb_schema_v6_tables_sql;
extern const char *const pb_schema_v11_tables_sql;   /* func_counts: migration 10 -> 11 */

/* -1 + e (naming --db, or PB_DB) for '' and ':memory:', which would throw stored results away, for
 * a PostgreSQL URI with a password in it (or one this bench, built without libpq, cannot open),
 * and for an SQLite path that is a file: URI, holds '?', or names anything but a regular file or
 * nothing (a device, FIFO, folder, a link to one or to nothing): checked before SQLite opens it,
 * so that no -journal or -wal is ever made beside such a thing. */
int pb_store_check_path(const char *path, pb_err *e);
/* Whether a database may be there to open: a file that exists; a PostgreSQL URI (its server
 * answers). For "no database at PATH" before a command that must not create one. */
int pb_store_exists(const char *path);
/* Table definitions in SQLite's words (the store's SCHEMA, the gate's tables, a migration's
 * ALTER TABLE), run in this store's back end's words (pb_db_ddl). */
int pb_store_ddl(pb_store *s, const char *sql, pb_err *e);

/* What both opens return, beside -1 + e, for a store refused as it is (commands exit 2 for it,
 * whatever else they exit 1 for): not a patchbench store, a newer schema, a corrupt file, or
 * tables, views or columns that do not match its schema version (every one the version requires
 * is asked for at every open: "PATH: store does not match schema version N: the store's words").
 * Nothing is written to a refused store. */
#define PB_STORE_REFUSED (-2)

/* For commands that store: opens read-write, creating the file, its folder and the schema as
 * needed, and migrates an older database to PB_SCHEMA_VERSION in one transaction (or refuses it
 * and leaves it unchanged). Refuses '' and ':memory:'. 0, -1 or PB_STORE_REFUSED, + e. */
int pb_store_open(pb_store *s, const char *path, pb_err *e);
/* For commands that only read: creates nothing (no folder, no file, no schema); a missing file
 * is -1, a file that is not ours or a schema of another version PB_STORE_REFUSED, + e. */
int pb_store_open_readonly(pb_store *s, const char *path, pb_err *e);
void pb_store_close(pb_store *s);

int pb_store_exec(pb_store *s, const char *sql, pb_err *e);
int pb_store_begin(pb_store *s, pb_err *e);
int pb_store_commit(pb_store *s, pb_err *e);
void pb_store_rollback(pb_store *s);

typedef struct pb_run_info {
    const char *suite, *target, *command_line, *options;
    /* what the suite derived at start-up on this machine (e.g. a calibrated model constant):
     * provenance, not procedure, so the gate does not require it to match between runs */
    const char *suite_settings;
    const char *tick_source, *counter_source;
    double tsc_hz;
    unsigned metrics;                 /* PB_M_* the suite asked for */
    const char *baseline, *candidate, *primary_metric;
    const char *guest_kernel;         /* kmod runs */
    const char *cpu_affinity;         /* the CPU the benchmark thread was pinned to, or why not */
    double loadavg_start;             /* 1-minute load average at the start; < 0 unknown */
    const char *layouts;              /* the code layouts sampled and their seed (runner layouts.h) */
} pb_run_info;

int64_t pb_store_begin_run(pb_store *s, const pb_run_info *ri, const pb_provenance *p, pb_err *e);
/* The CPU identity a run recorded (schema 5; runs from before read as unknown, identity.h). 0, or
 * -1 + e (no such run, a failed read). */
int pb_store_run_identity(pb_store *s, int64_t run, pb_cpu_identity *id, pb_err *e);
/* The load average at the end (< 0 unknown) and the noise warnings (NULL or "": none) of a run. */
int pb_store_run_noise(pb_store *s, int64_t run, double loadavg_end, const char *noise, pb_err *e);
/* status: "incomplete" or "failed" (complete is set by pb_store_finalize_run). */
int pb_store_end_run(pb_store *s, int64_t run, const char *status, const char *why, pb_err *e);

/* status "ok" | "unavailable" (reason says why) */
int64_t pb_store_add_case(pb_store *s, int64_t run, const char *suite, const char *impl, const char *variant,
                          const char *op, uint64_t size, int64_t iterations, const char *status,
                          const char *reason, pb_err *e);
int pb_store_add_sample(pb_store *s, int64_t case_id, const pb_sample *smp, pb_err *e);
/* In how many code layouts a case ran (1: one copy of its code, whatever the run's layouts). */
int pb_store_case_layouts(pb_store *s, int64_t case_id, int layouts, pb_err *e);

/* The identity of one file of user code a run timed (docs/schema.md, table objects; filled by
 * run/objects.c). Text fields are "" when unknown, size -1. */
#define PB_PARITY_MAX 4096
typedef struct pb_object_row {
    char impl[PB_NAME_MAX];
    char path[1024], real_path[1024];   /* as the suite names it; with every link resolved */
    int64_t size;
    char sha256[65];
    char elf[256];            /* "ELF64 PIE executable", "not an ELF file", "unreadable: WHY", "cannot read: WHY" */
    char build_id[129];       /* NT_GNU_BUILD_ID, hex */
    char compiler[256];       /* "gcc 12.2.0" */
    char flags[2048];         /* the switches its main compilation units record */
    char flags_source[64];    /* "DW_AT_producer", ".GCC.command.line" */
    char producers[4096];     /* every distinct DW_AT_producer with its unit count, or "unreadable: WHY" */
    char comment[1024];       /* .comment */
    char needed[1024];        /* DT_NEEDED sonames */
    char build_type[128];     /* "ELF64 PIE executable, no debug info" */
    char revision[128], repo[1024];   /* git describe --always --dirty of the repository it is in */
} pb_object_row;

int pb_store_add_object(pb_store *s, int64_t run, const pb_object_row *o, pb_err *e);
/* Whose code the run timed: the user's revision and label (NULL: none), the repository the
 * revision is of, and the build-parity warnings (NULL or "": none). */
int pb_store_run_user(pb_store *s, int64_t run, const char *revision, const char *label, const char *repo,
                      const char *parity, pb_err *e);

/* Each side of user code a run timed, as the outputs show it (docs/your-code.md, "Whose code"):
 * the objects table's identity, with the run's --label on its candidate's side. "" where unknown. */
typedef struct pb_side_id {
    char impl[PB_NAME_MAX];
    char path[1024], sha256[65], build_id[129], revision[128], label[256];
} pb_side_id;
typedef struct pb_run_sides {
    pb_side_id *v;            /* malloc'd, n of them, in impl order */
    int n;
    char parity[PB_PARITY_MAX];   /* runs.build_parity: "" when the builds are alike */
} pb_run_sides;
/* The sides of run: 0 (n 0 when it timed no user's file), or -1 + e. pb_run_sides_free after. */
int pb_store_run_sides(pb_store *s, int64_t run, pb_run_sides *out, pb_err *e);
void pb_run_sides_free(pb_run_sides *r);
/* One side in one line: "IMPL: revision REV, label L, sha256 0123456789ab, build-id 0123456789ab"
 * (the digests cut to 12 hex digits, a revision not known "unknown", the rest left out where
 * unknown; full 1: the digests whole). */
void pb_side_line(const pb_side_id *x, int full, char *buf, size_t cap);
/* The build-parity verdict in one line: "alike" or "differ: N warnings (the first)". */
void pb_parity_verdict(const char *parity, char *buf, size_t cap);

/* Derive per-sample metrics, per-case statistics and paired ratios of every
 * impl against the run's baseline (and of every `X@P` against `baseline@P`, a
 * code-generation profile P of the same sources); mark the run complete. One
 * transaction. */
int pb_store_finalize_run(pb_store *s, int64_t run, pb_err *e);
/* The same, also pairing the extra pairs {candidate, baseline, ..., NULL} (may be NULL) in every
 * cell where both ran and the pair is not one of the above (suite.h ratio_pairs). */
int pb_store_finalize_run_pairs(pb_store *s, int64_t run, const char *const *pairs, pb_err *e);
/* The same, with what a shared core did to the run's candidate/baseline written into note (cap
 * bytes; "" when none of its rounds ran on a shared core), for the run's noise; stop (NULL: none)
 * is asked between cases and cells, and once it says yes nothing is kept (-1 + e). */
int pb_store_finalize_run_noted(pb_store *s, int64_t run, const char *const *pairs, char *note, size_t cap,
                                int (*stop)(void), pb_err *e);

/* A random (version 4) UUID, 36 characters and a NUL, from getrandom(2); -1 + e if none. */
int pb_uuid4(char out[37], pb_err *e);

/* The newest complete run (of `suite`, or any if NULL); 0 if none. */
int64_t pb_store_latest_run(pb_store *s, const char *suite);

#endif
