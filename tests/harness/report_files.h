/* SPDX-License-Identifier: GPL-2.0-only */
/* report_files.h — for the report tests: a file of a report read back whole, and how often a text
 * stands in it. */
#ifndef PB_TEST_REPORT_FILES_H
#define PB_TEST_REPORT_FILES_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store.h"

/* dir/name's bytes, NUL-terminated and malloc'd; NULL when it cannot be read */
static inline char *slurp(const char *dir, const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

/* how many times what stands in text, not overlapping */
static inline int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static inline int report_files_remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

/* the provenance of a made-up run: revision "test", machine-a, "Test CPU" */
static inline void test_provenance(pb_provenance *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->git_sha, sizeof p->git_sha, "test");
    snprintf(p->machine_id, sizeof p->machine_id, "machine-a");
    snprintf(p->cpu_model, sizeof p->cpu_model, "Test CPU");
}

/* dir and everything in it removed */
static inline void remove_tree(const char *dir)
{
    nftw(dir, report_files_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* dir/data/ made, with its verdict.tsv: tolerance, code-generation and real-code thresholds 0.10 */
static inline void write_verdict_tsv(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/data", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/data/verdict.tsv", dir);
    FILE *f = fopen(path, "w");
    if (f) { fputs("tolerance\t*\t0.10\ncodegen_threshold\t*\t0.10\nreal_code_threshold\t*\t0.10\n", f); fclose(f); }
}

#endif
