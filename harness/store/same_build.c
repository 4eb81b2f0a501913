/* SPDX-License-Identifier: GPL-2.0-only */
/* same_build.c — the count run of a wall-time run's build (same_build.h). Its own file, apart from
 * reads.c, so that what "the same build" means is in one place. */
#include "same_build.h"

#include "query.h"

/* NULL and NULL are alike (a run from before a column existed), which = alone would not say; coalesce
 * rather than SQLite's IS, which PostgreSQL's back end does not take for text */
#define SAME(col) " AND coalesce(c." col ", '') = coalesce(t." col ", '')"

int pb_store_count_run_of(pb_store *st, int64_t run, int64_t *count, pb_err *e)
{
    *count = 0;
    int r = pb_query_int(st, count, e, "the count run of the same build",
                         "SELECT c.id FROM runs t JOIN runs c ON c.suite = t.suite AND c.target = 'valgrind'"
                         " AND c.status = 'complete'"
                         " AND coalesce(c.git_dirty, -1) = coalesce(t.git_dirty, -1)"
                         SAME("git_sha") SAME("version") SAME("compiler") SAME("cflags") SAME("buildtype")
                         SAME("libs") SAME("machine_id")
                         " WHERE t.id = ?1 AND t.target = 'userspace' AND t.status = 'complete'"
                         " ORDER BY abs(c.id - t.id), c.id DESC LIMIT 1",
                         "i", run);
    if (r == 0) *count = 0;
    return r < 0 ? -1 : 0;
}
