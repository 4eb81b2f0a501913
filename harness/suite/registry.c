/* SPDX-License-Identifier: GPL-2.0-only */
/* registry.c — the suites linked into bench: those the suites' folders declare (their meson.build,
 * pb_suite_decls; the top-level meson.build writes the list into pb_suite_list.h). No suite is
 * named here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nearest.h"
#include "pb_suite_list.h"
#include "suite.h"

#define PB_SUITE_EXTERN(name, published, ci) extern const pb_suite pb_suite_##name;
PB_SUITE_LIST(PB_SUITE_EXTERN)

#define PB_SUITE_ENTRY(name, published, ci) &pb_suite_##name,
const pb_suite *const pb_suites[] = {PB_SUITE_LIST(PB_SUITE_ENTRY) NULL};

/* what each declared of itself, by name */
typedef struct suite_decl {
    const char *name, *published, *ci;
} suite_decl;
#define PB_SUITE_DECL(name, published, ci) {#name, published, ci},
static const suite_decl decls[] = {PB_SUITE_LIST(PB_SUITE_DECL){NULL, NULL, NULL}};

const pb_suite *pb_suite_find(const char *name)
{
    for (int i = 0; pb_suites[i]; i++)
        if (strcmp(pb_suites[i]->name, name) == 0) return pb_suites[i];
    return NULL;
}

const char *pb_suite_unknown(char *buf, size_t cap, const char *name, const char *more)
{
    char all[512] = "", hint[96];
    for (int i = 0; pb_suites[i]; i++)
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? " " : "", pb_suites[i]->name);
    snprintf(buf, cap, "unknown suite '%s' (%ssuites: %s%s)", name, pb_did_you_mean(hint, sizeof hint, name, all), all,
             more);
    return buf;
}

static const suite_decl *decl_of(const pb_suite *s)
{
    for (const suite_decl *d = decls; s && d->name; d++)
        if (!strcmp(d->name, s->name)) return d;
    return NULL;
}

const char *pb_suite_published(const pb_suite *s)
{
    /* tests: PB_TEST_PUBLISHED=NAME[,NAME...] stands for the declarations (the suites that re-run
     * a published patch time for minutes; a test of --suite all runs the seeded synthetic one) */
    const char *t = getenv("PB_TEST_PUBLISHED");
    if (t && s) {
        size_t n = strlen(s->name);
        for (const char *p = t; (p = strstr(p, s->name)); p += n)
            if ((p == t || p[-1] == ',') && (p[n] == ',' || !p[n])) return "test";
        return "";
    }
    const suite_decl *d = decl_of(s);
    return d ? d->published : "";
}

const char *pb_suite_ci(const pb_suite *s)
{
    const suite_decl *d = decl_of(s);
    return d ? d->ci : "";
}
