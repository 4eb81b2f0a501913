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
    double user_ns, sys_ns;    /* its two parts, each as rusage gives it (cpu_ns is their sum) */
    size_t stderr_bytes;       /* how much it wrote to stderr */
    size_t stdout_bytes;       /* the length of *out (out != NULL; 0 else): stdout may hold NULs */
    int timed_out;             /* it ran past the limit and was killed (its process group) */
    int interrupted;           /* a signal bench handles came while it ran: killed likewise */
    double limit_s;
    char stderr_head[300];     /* its first line, for messages */
} pb_proc;

/* Run argv[0] (a path: no PATH search) with argv, in a process group of its own. out != NULL: its
 * stdout, malloc'd and NUL-terminated, in *out; out == NULL: stdout to /dev/null. limit_s > 0:
 * past it the group is killed (p->timed_out); 0: no limit. Whatever of the group is left when it
 * ends is killed too: a sample is the program's whole work. -1 + e only if it could not be run or
 * wrote more than PB_SPAWN_OUTPUT_MAX; how it ended is in p (see pb_proc_check). */
int pb_spawn(char *const argv[], char **out, double limit_s, pb_proc *p, pb_err *e);

/* 0 if p exited 0; else -1 + e: "WHAT did not finish in N s (killed ...)", "WHAT died of signal N
 * (name): first stderr line" or "WHAT exited with status N: ...". */
int pb_proc_check(const char *what, const pb_proc *p, pb_err *e);

/* Program NAME's path on $PATH, as execvp would find it (an empty entry is the current folder), in
 * path[cap]: 1, or 0 when no entry holds a regular executable file of that name. */
int pb_find_program(const char *name, char *path, size_t cap);

/* --timeout's value: seconds from 0.001 to 86400. 0 + *out, or -1 + e naming --timeout. */
int pb_parse_timeout(const char *value, double *out, pb_err *e);

#endif
