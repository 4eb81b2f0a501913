/* SPDX-License-Identifier: GPL-2.0-only */
/* runs.c — a run's rows as the runner writes them (store.h): the run, its cases and samples, its
 * end; its CPU identity read back; the newest complete run. */
#include "store.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "query.h"

int pb_uuid4(char out[37], pb_err *e)
{
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return pb_errf(e, "getrandom: %s", strerror(errno));
        }
        got += (size_t)n;
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return 0;
}

/* The identity columns of runs, in the order bind_identity binds and pb_store_run_identity reads them. */
#define PB_IDENTITY_COLS                                                                                     \
    "cpu_vendor, cpu_family, cpu_model_number, cpu_stepping, cpu_microcode, cache_l1d_bytes, cache_l1i_bytes,"  \
    " cache_l2_bytes, cache_l3_bytes, threads_per_core, hypervisor"

static void bind_text_known(pb_stmt *st, int i, const char *v)
{
    if (*v) pb_db_bind_text(st, i, v);
    else pb_db_bind_null(st, i);
}

static void bind_int_known(pb_stmt *st, int i, int64_t v)
{
    if (v >= 0) pb_db_bind_int64(st, i, v);
    else pb_db_bind_null(st, i);
}

/* id into parameters first .. first + 10: what is unknown as NULL */
static void bind_identity(pb_stmt *st, int first, const pb_cpu_identity *id)
{
    bind_text_known(st, first, id->vendor);
    bind_int_known(st, first + 1, id->family);
    bind_int_known(st, first + 2, id->model);
    bind_int_known(st, first + 3, id->stepping);
    bind_text_known(st, first + 4, id->microcode);
    for (int i = 0; i < PB_NCACHES; i++) bind_int_known(st, first + 5 + i, id->cache[i]);
    bind_int_known(st, first + 9, id->threads_per_core);
    bind_text_known(st, first + 10, id->hypervisor);
}

static void column_text_known(pb_stmt *st, int i, char *out, size_t cap)
{
    out[0] = 0;
    if (pb_db_column_type(st, i) != PB_DB_NULL) snprintf(out, cap, "%s", pb_db_column_str(st, i));
}

static int64_t column_int_known(pb_stmt *st, int i)
{
    return pb_db_column_type(st, i) == PB_DB_NULL ? -1 : pb_db_column_int64(st, i);
}

int pb_store_run_identity(pb_store *s, int64_t run, pb_cpu_identity *id, pb_err *e)
{
    pb_cpu_identity_unknown(id);
    pb_stmt *st;
    if (pb_query(s, &st, e, "read the run's CPU identity", "SELECT " PB_IDENTITY_COLS " FROM runs WHERE id = ?1", "i",
                 run) < 0)
        return -1;
    int rc = pb_db_step(st);
    if (rc == PB_DB_ROW) {
        column_text_known(st, 0, id->vendor, sizeof id->vendor);
        id->family = (int)column_int_known(st, 1);
        id->model = (int)column_int_known(st, 2);
        id->stepping = (int)column_int_known(st, 3);
        column_text_known(st, 4, id->microcode, sizeof id->microcode);
        for (int i = 0; i < PB_NCACHES; i++) id->cache[i] = column_int_known(st, 5 + i);
        id->threads_per_core = (int)column_int_known(st, 9);
        column_text_known(st, 10, id->hypervisor, sizeof id->hypervisor);
    }
    pb_db_finalize(st);
    if (rc == PB_DB_ROW) return 0;
    if (rc == PB_DB_DONE) return pb_errf(e, "%s: no run %lld", s->path, (long long)run);
    return pb_store_sqlerr(s, e, "read the run's CPU identity");
}

int64_t pb_store_begin_run(pb_store *s, const pb_run_info *ri, const pb_provenance *p, pb_err *e)
{
    static const char sql[] =
        "INSERT INTO runs (suite, status, started_at, target, command_line, options, metrics, baseline, candidate,"
        " primary_metric, git_sha, git_dirty, version, compiler, cflags, buildtype, libs, cpu_model, cpu_flags,"
        " online_cpus, kernel, hostname, virt, clock_source, governor, boost, tick_source, tsc_hz, counter_source,"
        " guest_kernel, machine_id, job_id, suite_settings, uuid, cpu_affinity, loadavg_start, layouts,"
        " " PB_IDENTITY_COLS ")"
        " VALUES (?1, 'incomplete', ?35, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
        " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32,"
        " ?33, ?34, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45, ?46, ?47) RETURNING id";
    pb_stmt *st;
    if (pb_db_prepare(s->db, sql, &st) != PB_DB_OK) return pb_store_sqlerr(s, e, "insert run");
    pb_db_bind_text(st, 1, ri->suite);
    pb_db_bind_text(st, 2, ri->target ? ri->target : "userspace");
    pb_db_bind_text(st, 3, ri->command_line);
    pb_db_bind_text(st, 4, ri->options);
    pb_db_bind_int64(st, 5, ri->metrics);
    pb_db_bind_text(st, 6, ri->baseline);
    pb_db_bind_text(st, 7, ri->candidate);
    pb_db_bind_text(st, 8, ri->primary_metric);
    pb_db_bind_text(st, 9, p->git_sha);
    pb_db_bind_int(st, 10, p->git_dirty);
    pb_db_bind_text(st, 11, p->version);
    pb_db_bind_text(st, 12, p->compiler);
    pb_db_bind_text(st, 13, p->cflags);
    pb_db_bind_text(st, 14, p->buildtype);
    pb_db_bind_text(st, 15, p->libs);
    pb_db_bind_text(st, 16, p->cpu_model);
    pb_db_bind_text(st, 17, p->cpu_flags);
    pb_db_bind_int(st, 18, p->online_cpus);
    pb_db_bind_text(st, 19, p->kernel);
    pb_db_bind_text(st, 20, p->hostname);
    pb_db_bind_text(st, 21, p->virt);
    pb_db_bind_text(st, 22, p->clock_source);
    pb_db_bind_text(st, 23, p->governor);
    pb_db_bind_text(st, 24, p->boost);
    pb_db_bind_text(st, 25, ri->tick_source);
    pb_db_bind_double(st, 26, ri->tsc_hz);
    pb_db_bind_text(st, 27, ri->counter_source);
    pb_db_bind_text(st, 28, ri->guest_kernel);
    pb_db_bind_text(st, 29, p->machine_id);
    /* runs of one CI job (or one gate session) share PB_JOB_ID: only those may be compared */
    pb_db_bind_text(st, 30, getenv("PB_JOB_ID"));
    pb_db_bind_text(st, 31, ri->suite_settings);
    char uuid[37];
    if (pb_uuid4(uuid, e) < 0) {
        pb_db_finalize(st);
        return -1;
    }
    pb_db_bind_text(st, 32, uuid);
    pb_db_bind_text(st, 33, ri->cpu_affinity);
    if (ri->loadavg_start >= 0) pb_db_bind_double(st, 34, ri->loadavg_start);
    char now[32];
    pb_db_now(now);
    pb_db_bind_text(st, 35, now);
    pb_db_bind_text(st, 36, ri->layouts);
    bind_identity(st, 37, &p->cpu);
    int rc = pb_db_step(st);
    int64_t id = rc == PB_DB_ROW ? pb_db_column_int64(st, 0) : -1;
    pb_db_finalize(st);
    if (rc != PB_DB_ROW) return pb_store_sqlerr(s, e, "insert run");
    return id;
}


int pb_store_run_noise(pb_store *s, int64_t run, double loadavg_end, const char *noise, pb_err *e)
{
    return pb_query_exec(s, e, "run noise", "UPDATE runs SET loadavg_end = ?1, noise = ?2 WHERE id = ?3", "rti",
                         loadavg_end >= 0 ? loadavg_end : NAN, noise && *noise ? noise : NULL, run);
}

int pb_store_end_run(pb_store *s, int64_t run, const char *status, const char *why, pb_err *e)
{
    char now[32];
    pb_db_now(now);
    return pb_query_exec(s, e, "end run", "UPDATE runs SET status = ?1, status_reason = ?2, ended_at = ?4 WHERE id = ?3",
                         "ttit", status, why, run, now);
}

int64_t pb_store_add_case(pb_store *s, int64_t run, const char *suite, const char *impl, const char *variant,
                          const char *op, uint64_t size, int64_t iterations, const char *status,
                          const char *reason, pb_err *e)
{
    int64_t id = -1;
    int rc = pb_query_int(s, &id, e, "insert case",
                          "INSERT INTO cases (run_id, suite, impl, variant, op, size_bytes, iterations, status, reason)"
                          " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                          " ON CONFLICT (run_id, impl, variant, op, size_bytes) DO UPDATE SET iterations = excluded.iterations"
                          " RETURNING id", "ittttiktt", run, suite, impl, variant, op, (int64_t)size,
                          iterations > 0 ? iterations : (int64_t)-1, status ? status : "ok", reason);
    if (rc == 0) return pb_store_sqlerr(s, e, "insert case");
    return rc < 0 ? -1 : id;
}

/* v where it is over 0, else NaN (bound NULL: not measured) */
static double positive(double v) { return v > 0 ? v : NAN; }
/* v where it is 0 or more, else NaN (bound NULL: not known) */
static double known(double v) { return v >= 0 ? v : NAN; }

int pb_store_add_sample(pb_store *s, int64_t case_id, const pb_sample *m, pb_err *e)
{
    return pb_query_exec(
        s, e, "insert sample",
        "INSERT INTO samples (case_id, round, position, repetition, iterations, ns, cpu_ns, tsc,"
        " cycles, instructions, probe_before, probe_after, errors, layout, wait_ns, steal_ns,"
        " user_ns, sys_ns, tprobe_before, tprobe_after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
        " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
        "innnidrrrrrrinrrrrrr", case_id, m->round, m->position, m->repetition, m->iterations, m->ns, known(m->cpu_ns),
        positive(m->tsc), known(m->cycles), known(m->insns), positive(m->probe_before), positive(m->probe_after),
        (int64_t)m->errors, m->layout, known(m->wait_ns), known(m->steal_ns), m->has_cpu_split ? m->user_ns : NAN,
        m->has_cpu_split ? m->sys_ns : NAN, positive(m->tprobe_before), positive(m->tprobe_after));
}

int pb_store_case_layouts(pb_store *s, int64_t case_id, int layouts, pb_err *e)
{
    if (layouts == 1) return 0;   /* the column's default */
    return pb_query_exec(s, e, "set case layouts", "UPDATE cases SET layouts = ?1 WHERE id = ?2", "ni", layouts,
                         case_id);
}

int64_t pb_store_latest_run(pb_store *s, const char *suite)
{
    int64_t id = 0;
    if (pb_query_int(s, &id, NULL, "latest run",
                     "SELECT id FROM runs WHERE status = 'complete' AND suite = coalesce(?1, suite)"
                     " ORDER BY id DESC LIMIT 1", "t", suite) <= 0)
        return 0;
    return id;
}
