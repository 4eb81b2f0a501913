/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_spawn.h — run another program, the only way bench does: posix_spawn with an argv (no shell,
 * so no path, name or argument is ever parsed as shell text), stdin from /dev/null. Used by the
 * suites that measure other programs (gbench, exec). */
#ifndef PB_SPAWN_H
#define PB_SPAWN_H

#include <stddef.h>

#include "pb.h"

#define PB_SPAWN_OUTPUT_MAX (64u << 20)   /* more stdout than this is refused, never truncated */

typedef struct pb_proc {
    int status;                /* as waitpid gives it */
    double wall_ns;            /* spawn to reaped, CLOCK_MONOTONIC_RAW */
    double cpu_ns;             /* the child's user + system time (wait4 rusage) */
    size_t stderr_bytes;       /* how much it wrote to stderr */
    char stderr_head[300];     /* its first line, for messages */
} pb_proc;

/* Run argv[0] (a path: no PATH search) with argv. out != NULL: its stdout, malloc'd and
 * NUL-terminated, in *out; out == NULL: stdout to /dev/null. -1 + e only if it could not be run
 * or wrote more than PB_SPAWN_OUTPUT_MAX; how it ended is in p->status (see pb_proc_check). */
int pb_spawn(char *const argv[], char **out, pb_proc *p, pb_err *e);

/* 0 if p exited 0; else -1 + e: "WHAT died of signal N (name): first stderr line" or
 * "WHAT exited with status N: ...". */
int pb_proc_check(const char *what, const pb_proc *p, pb_err *e);

#endif
