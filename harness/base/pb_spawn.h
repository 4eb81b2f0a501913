/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_spawn.h — run another program, the only way bench does: posix_spawn with an argv (no shell,
 * so no path, name or argument is ever parsed as shell text), stdin from /dev/null. Used by the
 * suites that measure other programs (gbench, exec).
 *
 * Nothing the program starts outlives it. It runs in a session of its own (so a limit kills its
 * process group, which it cannot leave without leaving the session too), and while it runs bench
 * is its descendants' subreaper (reaper.h): whatever it leaves behind, even after setsid() or a
 * double fork (a daemon), is killed and reaped before pb_spawn returns.
 *
 * Its output is never held whole: stderr is counted and its first bytes kept for messages;
 * stdout goes to /dev/null, to a sink chunk by chunk (pb_spawn_to), or to a buffer of at most
 * PB_SPAWN_OUTPUT_MAX (pb_spawn). */
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
    size_t stderr_bytes;       /* how much it wrote to stderr (counted, never kept but its head) */
    size_t stdout_bytes;       /* how much it wrote to stdout (0 when it went to /dev/null): the
                                * length of *out for pb_spawn, since stdout may hold NULs */
    int timed_out;             /* it ran past the limit and was killed (its session's group and
                                * whatever it left) */
    int interrupted;           /* a signal bench handles came while it ran: killed likewise */
    double limit_s;            /* the limit applied (0: none): what pb_proc_check names */
    int left_behind;           /* processes it left running, killed after it ended */
    char stderr_head[300];     /* its first line, for messages */
} pb_proc;

/* Run argv[0] (a path: no PATH search) with argv, in a session of its own. out != NULL: its
 * stdout, malloc'd and NUL-terminated, in *out; out == NULL: stdout to /dev/null. limit_s > 0:
 * past it (running or stopped alike) the program and what it started are killed (p->timed_out);
 * 0: no limit. Whatever it left running when it ends is killed too: a sample is the program's whole
 * work. -1 + e only if it could not be run or wrote more than PB_SPAWN_OUTPUT_MAX; how it ended is
 * in p (see pb_proc_check). */
int pb_spawn(char *const argv[], char **out, double limit_s, pb_proc *p, pb_err *e);

/* What reads a program's stdout as it comes: 0 to go on, -1 to hear no more (the rest is read and
 * dropped, so that the program is not blocked on a full pipe). */
typedef int (*pb_spawn_sink)(void *ctx, const char *buf, size_t n);

/* pb_spawn with stdout handed to sink(ctx, ...) chunk by chunk (sink NULL: /dev/null): memory
 * stays bounded however much it writes (a hash of every byte, --check-output). */
int pb_spawn_to(char *const argv[], pb_spawn_sink sink, void *ctx, double limit_s, pb_proc *p, pb_err *e);

/* 0 if p exited 0; else -1 + e: "WHAT did not finish in N s (killed ...)", "WHAT died of signal N
 * (name): first stderr line" or "WHAT exited with status N: ...". */
int pb_proc_check(const char *what, const pb_proc *p, pb_err *e);

/* Program NAME's path on $PATH, as execvp would find it (an empty entry is the current folder), in
 * path[cap]: 1, or 0 when no entry holds a regular executable file of that name. */
int pb_find_program(const char *name, char *path, size_t cap);

/* s split into words without a shell, nothing expanded: '...' literal, "..." with \" and \\, a
 * backslash outside quotes takes the next character as it is. The words go NUL-terminated into buf
 * (cap bytes) and, when argv is not NULL, argv[i] points at word i (max + 1 entries, NULL after the
 * last). The word count, 0 for none; -1 + e naming opt on an unterminated quote, more than max
 * words or more than buf holds. exec's --cmd and bisect's --build say the same thing the same way. */
int pb_split_words(const char *opt, const char *s, char *buf, size_t cap, char **argv, int max, pb_err *e);

/* --timeout's value: seconds from 0.001 to 86400. 0 + *out, or -1 + e naming --timeout. */
int pb_parse_timeout(const char *value, double *out, pb_err *e);

#endif
