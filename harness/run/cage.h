/* SPDX-License-Identifier: GPL-2.0-only */
/* cage.h — code the lab did not write (a plug-in, a libgcrypt build by path), timed in a child
 * process of its own that bench talks to over a socket (docs/cage.md).
 *
 * Why a child and not a watchdog in bench's process: a crash handler cannot bring bench back
 * from a segfault inside Google Benchmark's C++ frames (longjmp through them is undefined), a
 * plug-in's heap corruption would outlive it, and nothing in-process sees an _exit(0). A child
 * that dies, exits or stops answering costs only its own cases: the runner fails them, naming
 * the code, and carries on with every other impl. The child times itself (its clock, TSC and
 * core-speed probe around the body, as take_sample does in-process), so the socket's round trip is
 * outside every sample; it runs on bench's CPU (the pin is inherited) while bench sleeps in poll.
 *
 * The protocol is one request, one reply, both fixed-size structs: a child is a fork of this
 * bench, so both ends were built together. */
#ifndef PB_CAGE_H
#define PB_CAGE_H

#include <stdint.h>
#include <sys/types.h>

#include "pb.h"
#include "runenv.h"

typedef enum pb_cage_op {
    PB_CAGE_TIME = 1,     /* run the body `iters` times, `reps` times over: the shortest, in ns */
    PB_CAGE_SAMPLE = 2,   /* one timed sample of `iters` ops, its output checked after it */
    PB_CAGE_QUIT = 3,     /* free the cases and exit 0 */
} pb_cage_op;

typedef struct pb_cage_req {
    int op;
    int li;                   /* which case: the code layout's */
    uint64_t iters, reps;
    uint64_t stack_offset;    /* PB_CAGE_SAMPLE: the round's layout's */
} pb_cage_req;

typedef struct pb_cage_reply {
    int status;               /* 0, or -1 and msg (set-up failed, a wrong answer) */
    int unavailable;          /* set-up: 1, the impl cannot run here (msg says why) */
    int nl;                   /* set-up: how many cases (code layouts) the child holds */
    double ns, cpu_ns, tsc, probe_before, probe_after, tprobe_before, tprobe_after;
    pb_waits w0, w1;        /* the child's waits before and after the sample (runenv.h) */
    uint64_t errors;
    char msg[PB_ERR_MAX];
} pb_cage_reply;

/* What the child does, given by the runner: set up its cases (reply: status, unavailable, nl,
 * msg), then answer each request. Both run in the child only. */
typedef struct pb_cage_server {
    void *ctx;
    void (*set_up)(void *ctx, pb_cage_reply *r);
    void (*serve)(void *ctx, const pb_cage_req *q, pb_cage_reply *r);
    void (*quit)(void *ctx);
} pb_cage_server;

typedef struct pb_cage {
    pid_t pid;                /* 0: no child */
    int fd;
    char who[300];            /* what the code is, for messages: "xts plug-in w (./w.so)" */
} pb_cage;

/* Fork the child; it sets up (within limit_s) and its reply is in *setup. 0, or -1 + e: the
 * child could not be made, or died, exited or hung while setting up (the cage is then stopped). */
int pb_cage_start(pb_cage *k, const char *who, const pb_cage_server *srv, double limit_s, pb_cage_reply *setup,
                  pb_err *e);

/* One request; the reply within limit_s seconds. 0 and *r (r->status -1 is the child's own
 * refusal, a wrong answer); -1 + e when the child crashed ("WHO crashed during a timed sample
 * of N iterations: signal 11 (Segmentation fault)"), exited ("WHO exited with status 0 during
 * ..."), or did not answer in time ("WHO did not finish ... in N s (killed; ...)"). After -1 the
 * child is gone. */
int pb_cage_call(pb_cage *k, const pb_cage_req *q, double limit_s, pb_cage_reply *r, pb_err *e);

/* Ask the child to quit, give it a moment, kill it if it does not, reap it. NULL-safe, idempotent. */
void pb_cage_stop(pb_cage *k);

#endif
