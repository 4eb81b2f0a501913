/* SPDX-License-Identifier: GPL-2.0-only */
/* history_order.h — where each run of `bench history` stands in git's order (report/history.c):
 * the lab's own revision (runs.git_sha) in the lab's repository (PB_SOURCE_ROOT), and for a run of
 * the user's code the user's revision (runs.user_revision) in the user's repository (runs.user_repo
 * of the newest such run). Asked of git once per history (base/pb_git.h), not per series. */
#ifndef PB_HISTORY_ORDER_H
#define PB_HISTORY_ORDER_H

#include <stdint.h>

#include "store.h"

typedef struct pb_run_pos {
    int64_t run;
    long lab, user;     /* position in git's order, oldest first; -1 unknown */
    int has_user;       /* the run names a user's revision */
} pb_run_pos;

typedef struct pb_run_orders {
    pb_run_pos *v;      /* by run id */
    size_t n;
    char user_repo[1024];
} pb_run_orders;

/* Every complete userspace run of the suite in st. 0, or -1 + e (the store, memory). */
int pb_history_orders(pb_store *st, const char *suite, pb_run_orders *ro, pb_err *e);
/* The run's entry, or NULL. */
const pb_run_pos *pb_history_pos(const pb_run_orders *ro, int64_t run);
void pb_history_orders_free(pb_run_orders *ro);

#endif
