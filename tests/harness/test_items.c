/* SPDX-License-Identifier: GPL-2.0-only */
/* Sizes in items (suite.h item_unit, item_bytes): the per-item metrics' formulas and units, the
 * registration's refusals, `--sizes` counted in items, and the per-item figures of the report's
 * table and of every export format, on a store filled here with fixed samples (no timing).
 *
 * This binary is its own registry (pb_suites, pb_suite_find, as harness/suite/registry.c): its two
 * suites, one whose items are 16 bytes ("tweak") and one whose items carry no bytes ("packet"),
 * are what the export looks a stored run's suite up in, so it links the floors without the lab's
 * registry. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "metrics.h"
#include "report_data.h"
#include "runner.h"
#include "store.h"
#include "../lib/check.h"

static int plan_one(void *opts, const pb_plan_opts *o, pb_grid *g, pb_err *e)
{
    (void)opts, (void)o;
    g->cells = calloc(1, sizeof *g->cells);
    if (!g->cells) return pb_errf(e, "out of memory");
    g->ncells = 1;
    pb_cell *c = &g->cells[0];
    snprintf(c->variant, sizeof c->variant, "256");
    snprintf(c->op, sizeof c->op, "enc");
    c->size_bytes = 64;
    c->nimpls = 2;
    snprintf(c->impls[0], sizeof c->impls[0], "old");
    snprintf(c->impls[1], sizeof c->impls[1], "new");
    return 0;
}

static pb_setup_status no_case(void *opts, const pb_cell *cell, const char *impl, pb_case *c, pb_err *e)
{
    (void)opts, (void)cell, (void)impl, (void)c;
    pb_errf(e, "not timed here");
    return PB_SETUP_ERROR;
}

static const pb_suite TWEAKS = {
    .name = "tweaks", .title = "items of 16 bytes", .baseline = "old", .candidate = "new",
    .metrics = PB_M_NS_PER_OP | PB_M_MB_PER_S, .plan = plan_one, .setup_case = no_case, .plot_x = "size",
    .item_unit = "tweak", .item_bytes = 16,
};
static const pb_suite PACKETS = {
    .name = "packets", .title = "items without bytes", .baseline = "old", .candidate = "new",
    .metrics = PB_M_NS_PER_OP, .plan = plan_one, .setup_case = no_case, .plot_x = "size", .item_unit = "packet",
};
static const pb_suite BYTES = {
    .name = "bytes", .title = "sizes in bytes", .baseline = "old", .candidate = "new",
    .metrics = PB_M_NS_PER_OP, .plan = plan_one, .setup_case = no_case, .plot_x = "size",
};

const pb_suite *const pb_suites[] = {&TWEAKS, &PACKETS, &BYTES, NULL};

const pb_suite *pb_suite_find(const char *name)
{
    for (int i = 0; pb_suites[i]; i++)
        if (!strcmp(pb_suites[i]->name, name)) return pb_suites[i];
    return NULL;
}

static void check_formulas(void)
{
    const pb_metric *npi = pb_metric_find("ns_per_item"), *ips = pb_metric_find("items_per_s");
    CHECK(npi && npi->per_item && ips && ips->per_item, "the per-item metrics are in the table");
    if (!npi || !ips) return;
    CHECK(npi->per_item(1000, 4) == 250, "1000 ns per op of 4 items: 250 ns per item");
    CHECK(ips->per_item(1000, 4) == 4e6, "1000 ns per op of 4 items: 4e6 items/s");
    CHECK(isnan(npi->per_item(1000, 0)), "no items: no figure");
    CHECK(!npi->higher_is_better && ips->higher_is_better, "a time per item is a cost, items/s a throughput");
    CHECK(!pb_metric_known("ns_per_item") && !pb_metric_known("items_per_s") && pb_metric_known("ns_per_op"),
          "per-item figures are never stored: no gate or history metric");
    const double ns[3] = {1000, 800, 1600};
    double v[3];
    pb_metric_per_item_stats(ips, 4, ns, v);
    CHECK(v[0] == 4e6 && v[1] == 2.5e6 && v[2] == 5e6, "items/s p10 from the time's p90: %g %g %g", v[0], v[1], v[2]);
    pb_metric_per_item_stats(npi, 4, ns, v);
    CHECK(v[0] == 250 && v[1] == 200 && v[2] == 400, "ns/item keeps the order: %g %g %g", v[0], v[1], v[2]);
    char u[64];
    CHECK(!strcmp(pb_metric_unit_of(npi, &TWEAKS, u, sizeof u), "ns/tweak"), "unit %s", u);
    CHECK(!strcmp(pb_metric_unit_of(ips, &TWEAKS, u, sizeof u), "tweaks/s"), "unit %s", u);
    CHECK(!strcmp(pb_metric_unit_of(pb_metric_find("ns_per_op"), &TWEAKS, u, sizeof u), "ns"), "a stored metric's unit");
    CHECK(pb_suite_items(&TWEAKS, 64) == 4 && pb_suite_items(&PACKETS, 5) == 5 && pb_suite_items(&BYTES, 64) == 0,
          "items per op");
    CHECK(!strcmp(pb_suite_fmt_size(&TWEAKS, 64, u, sizeof u), "4 tweaks (64 B)"), "size %s", u);
    CHECK(!strcmp(pb_suite_fmt_size(&TWEAKS, 16, u, sizeof u), "1 tweak (16 B)"), "size %s", u);
    CHECK(!strcmp(pb_suite_fmt_size(&PACKETS, 5, u, sizeof u), "5 packets"), "size %s", u);
    CHECK(!strcmp(pb_suite_fmt_size(&BYTES, 4096, u, sizeof u), "4 KiB"), "a suite in bytes: %s", u);
}

static void check_prepare(void)
{
    pb_err e = {{0}};
    CHECK(pb_suites_prepare(pb_suites, &e) == 0, "the test's suites register: %s", e.msg);
    pb_suite s = PACKETS;
    s.metrics |= PB_M_GBIT_PER_S;
    CHECK(pb_suite_prepare(&s, &e) < 0 && strstr(e.msg, "packets carry no bytes"), "a per-byte metric of no bytes: %s",
          e.msg);
    s = BYTES;
    s.item_bytes = 16;
    CHECK(pb_suite_prepare(&s, &e) < 0 && strstr(e.msg, "item_bytes without an item_unit"), "bytes of no item: %s",
          e.msg);
}

/* The sizes of the grid --sizes `list` makes for suite s, into got (n of them), or -1 + e. */
static int sizes_of(const pb_suite *s, const char *list, uint64_t *got, int cap, pb_err *e)
{
    pb_runner_opts o = {.suite = s, .sizes = list};
    pb_grid g;
    if (pb_runner_grid(&o, &g, e) < 0) return -1;
    int n = 0;
    for (int i = 0; i < g.ncells && n < cap; i++) got[n++] = g.cells[i].size_bytes;
    free(g.cells);
    return n;
}

static void check_sizes(void)
{
    uint64_t v[8];
    pb_err e = {{0}};
    CHECK(sizes_of(&TWEAKS, "4,16,1k", v, 8, &e) == 3 && v[0] == 64 && v[1] == 256 && v[2] == 16384,
          "--sizes 4,16,1k: 4, 16 and 1024 tweaks of 16 bytes: %s", e.msg);
    CHECK(sizes_of(&PACKETS, "3,5", v, 8, &e) == 2 && v[0] == 3 && v[1] == 5, "packets carry no bytes: %s", e.msg);
    CHECK(sizes_of(&BYTES, "64,1k", v, 8, &e) == 2 && v[0] == 64 && v[1] == 1024, "bytes stay bytes: %s", e.msg);
    CHECK(sizes_of(&TWEAKS, "4,x", v, 8, &e) < 0 &&
              !strcmp(e.msg, "bad size 'x' in --sizes (want positive counts of tweaks like 4,16,1k)"),
          "a bad count: %s", e.msg);
    CHECK(sizes_of(&TWEAKS, "4,4", v, 8, &e) < 0 && strstr(e.msg, "--sizes: 4 tweaks given twice ('4' and '4')"),
          "a repeat: %s", e.msg);
    CHECK(sizes_of(&TWEAKS, "100000000", v, 8, &e) < 0 && strstr(e.msg, "100000000 tweaks are more than a cell can hold"),
          "too many: %s", e.msg);
    CHECK(sizes_of(&BYTES, "12x", v, 8, &e) < 0 && strstr(e.msg, "(want positive byte counts like 64,512,4k)"),
          "a suite in bytes keeps its words: %s", e.msg);
}

/* A complete run of suite s: cell (256, enc) of `size`, old at 1000 ns per op and new at 600. */
static int64_t fill(pb_store *st, const pb_suite *s, uint64_t size, pb_err *e)
{
    pb_provenance p;
    memset(&p, 0, sizeof p);
    snprintf(p.git_sha, sizeof p.git_sha, "test");
    pb_run_info ri = {.suite = s->name, .target = "userspace", .command_line = "test_items", .options = "",
                      .tick_source = "none", .counter_source = "none", .metrics = PB_M_NS_PER_OP,
                      .baseline = "old", .candidate = "new", .primary_metric = "ns_per_op"};
    int64_t run = pb_store_begin_run(st, &ri, &p, e);
    if (run < 0 || pb_store_begin(st, e) < 0) return -1;
    static const char *const impls[] = {"old", "new"};
    for (int k = 0; k < 2; k++) {
        int64_t id = pb_store_add_case(st, run, s->name, impls[k], "256", "enc", size, 100, "ok", NULL, e);
        if (id < 0) return -1;
        for (int r = 0; r < 9; r++) {
            pb_sample smp = {.round = r, .position = k, .iterations = 100, .cpu_ns = -1, .cycles = -1, .insns = -1};
            smp.ns = 100 * (k ? 600.0 : 1000.0) * (1 + 0.01 * (r - 4));
            if (pb_store_add_sample(st, id, &smp, e) < 0) return -1;
        }
    }
    if (pb_store_commit(st, e) < 0) return -1;
    return pb_store_finalize_run(st, run, e) < 0 ? -1 : run;
}

/* a text or, where it is missing, words for a failed check's message */
static const char *S(const char *text)
{
    return text ? text : "(nothing)";
}

static char *export_of(pb_store *st, const char *format, int64_t run)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = pb_export_write(f, st, format, &run, 1);
    fclose(f);
    if (rc < 0) { free(buf); return NULL; }
    return buf;
}

static void check_exports(pb_store *st, int64_t tw, int64_t by)
{
    char *csv = export_of(st, "csv", tw);
    CHECK(csv && strstr(csv, ",tweaks,old,256,enc,64,ns_per_item,ns/tweak,9,250,"), "csv ns per tweak: %s", S(csv));
    CHECK(csv && strstr(csv, ",tweaks,new,256,enc,64,items_per_s,tweaks/s,9,"), "csv tweaks/s: %s", S(csv));
    free(csv);
    char *json = export_of(st, "json", tw);
    CHECK(json && strstr(json, "\"metric\": \"ns_per_item\"") && strstr(json, "\"unit\": \"ns/tweak\"") &&
              strstr(json, "\"items\": 4") && strstr(json, "\"item_unit\": \"tweak\""),
          "json per-item rows: %s", S(json));
    free(json);
    char *gb = export_of(st, "gbench", tw);
    CHECK(gb && strstr(gb, "\"items_per_second\": 4000000"), "gbench items_per_second of old: %s", S(gb));
    free(gb);
    /* a suite in bytes: none of it */
    csv = export_of(st, "csv", by);
    json = export_of(st, "json", by);
    gb = export_of(st, "gbench", by);
    CHECK(csv && !strstr(csv, "per_item") && !strstr(csv, "items_per_s"), "csv of a suite in bytes: %s", S(csv));
    CHECK(json && !strstr(json, "\"items\"") && !strstr(json, "item_unit") && !strstr(json, "per_item"), "json of a suite in bytes: %s", S(json));
    CHECK(gb && !strstr(gb, "items_per_second"), "gbench of a suite in bytes: %s", S(gb));
    free(csv);
    free(json);
    free(gb);
}

/* The report's table of run of suite s in markdown, into a malloc'd string. */
static char *table_of(pb_store *st, const pb_suite *s, int64_t run, const char *data)
{
    pb_report_data d;
    pb_err e = {{0}};
    if (pb_report_data_load(st, s, run, 0, data, &d, &e) < 0) { printf("load: %s\n", e.msg); return NULL; }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pb_table_writer t = {.f = f};
    pb_verdict_cfg cfg;
    pb_verdict_counts n;
    memset(&n, 0, sizeof n);
    if (pb_verdict_cfg_load(data, s->name, &cfg, &e) == 0) pb_report_table(&t, &d, s, run, 0, &cfg, &n);
    fclose(f);
    pb_report_data_free(&d);
    return buf;
}

static void check_tables(pb_store *st, int64_t tw, int64_t pk, int64_t by, const char *data)
{
    char *md = table_of(st, &TWEAKS, tw, data);
    /* the answer's columns first (the ratio after the cell's place), the medians and per-item figures after */
    CHECK(md && strstr(md, "| bytes | tweaks | time new/old") &&
              strstr(md, "| old (ns) | new (ns) | old (ns/tweak) | new (ns/tweak) | old (tweaks/s) | new (tweaks/s) |"),
          "the items' columns: %s", S(md));
    CHECK(md && strstr(md, "| 64 B | 4 |") && strstr(md, "| 1000 | 600.0 | 250.0 | 150.0 | 4000000 | 6666667 |"),
          "the row: %s", S(md));
    free(md);
    md = table_of(st, &PACKETS, pk, data);
    CHECK(md && strstr(md, "| op | packets | time new/old") && !strstr(md, "| bytes |"), "no bytes: %s", S(md));
    CHECK(md && strstr(md, "| 5 |") && strstr(md, "| 1000 | 600.0 | 200.0 | 120.0 |"), "5 packets a row: %s", S(md));
    free(md);
    md = table_of(st, &BYTES, by, data);
    CHECK(md && strstr(md, "| op | bytes | time new/old") && strstr(md, "| old (ns) | new (ns) |") && !strstr(md, "item"),
          "a suite in bytes: %s", S(md));
    free(md);
}

int main(void)
{
    check_formulas();
    check_prepare();
    check_sizes();
    char dir[] = "/tmp/pb_items_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char db[256], data[256];
    snprintf(db, sizeof db, "%s/t.db", dir);
    snprintf(data, sizeof data, "%s/data", dir);   /* no verdict file, no document: the defaults */
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open(&st, db, &e) < 0) { printf("open: %s\n", e.msg); return 1; }
    int64_t tw = fill(&st, &TWEAKS, 64, &e), pk = fill(&st, &PACKETS, 5, &e), by = fill(&st, &BYTES, 64, &e);
    CHECK(tw > 0 && pk > 0 && by > 0, "fill: %s", e.msg);
    if (tw > 0 && pk > 0 && by > 0) {
        check_exports(&st, tw, by);
        check_tables(&st, tw, pk, by, data);
    }
    pb_store_close(&st);
    unlink(db);
    rmdir(dir);
    return check_summary();
}
