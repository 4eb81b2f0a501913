/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_fork.h — run a check of foreign code (a plug-in, a libgcrypt build by path) in a forked
 * child, so that code which crashes or hangs there costs the child, not bench. */
#ifndef PB_FORK_H
#define PB_FORK_H

#include <stddef.h>

#include "pb.h"

/* fork; in the child, alarm(seconds) and fn(arg, e), its message sent back through a pipe.
 * 0 if fn returned 0; else -1 + e: fn's message, or "WHO crashed in its self-test: signal N
 * (name)", "WHO: self-test did not finish in N s", "WHO: self-test failed without saying why".
 * who names the code for messages, e.g. "plug-in w (w.so)". */
int pb_fork_check(const char *who, unsigned seconds, int (*fn)(void *arg, pb_err *e), void *arg, pb_err *e);

/* The same for any check: DOING names it in the messages ("the known answers of x.rsp" gives
 * "WHO: crashed in the known answers of x.rsp: signal 11 ..."). A child that exits by itself
 * without fn returning (exit, _exit, even with status 0) has failed: "WHO: exited with status 0
 * in DOING ...". pb_fork_check is this with "its self-test". */
int pb_fork_run(const char *who, const char *doing, unsigned seconds, int (*fn)(void *arg, pb_err *e), void *arg,
                pb_err *e);

/* pb_fork_run whose child, when fn passed, also sends back the out_size bytes fn left in out (a
 * plug-in's discovery: what bench keeps of its table), copied into out here. The child runs in a
 * process group of its own with its stdout on bench's stderr; when it ends, or past seconds, the
 * group is killed, so that nothing it started outlives it or holds bench's output open. */
int pb_fork_run_out(const char *who, const char *doing, unsigned seconds, int (*fn)(void *arg, pb_err *e),
                    void *arg, void *out, size_t out_size, pb_err *e);

#endif
