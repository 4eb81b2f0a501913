/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_opts.c — a suite's options object and its option table (suite.h). */
#include <stdlib.h>
#include <string.h>

#include "suite.h"

void *pb_suite_opts_new(const pb_suite *s, pb_err *e)
{
    /* at least one byte: a suite without options still gets a distinct, freeable object */
    void *opts = calloc(1, s->opts_size ? s->opts_size : 1);
    if (!opts) {
        pb_errf(e, "out of memory for the options of suite %s", s->name);
        return NULL;
    }
    if (s->opts_init) s->opts_init(opts);
    return opts;
}

void pb_suite_opts_free(const pb_suite *s, void *opts)
{
    if (!opts) return;
    if (s->opts_free) s->opts_free(opts);
    free(opts);
}

const pb_suite_opt *pb_suite_opt_find(const pb_suite *s, const char *name)
{
    while (*name == '-') name++;
    for (const pb_suite_opt *o = s->options; o && o->name; o++)
        if (!strcmp(o->name, name)) return o;
    return NULL;
}

int pb_suite_set_opt(const pb_suite *s, void *opts, const char *name, const char *value, pb_err *e)
{
    const pb_suite_opt *o = pb_suite_opt_find(s, name);
    if (!o) return 0;
    if (!o->arg && value) return pb_errf(e, "--%s takes no value (got '%s')", o->name, value);
    if (o->arg && !value) return pb_errf(e, "--%s needs a value (%s)", o->name, o->arg);
    return o->set(opts, value, e) < 0 ? -1 : 1;
}
