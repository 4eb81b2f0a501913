/* SPDX-License-Identifier: GPL-2.0-only */
/* cage.c — see cage.h. */
#include "cage.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reaper.h"

/* Whole messages or nothing: a short read is an end (the peer died), never half a struct. */
static int read_all(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

static int write_all(int fd, const void *buf, size_t n)
{
    size_t put = 0;
    while (put < n) {
        /* MSG_NOSIGNAL: a peer that died makes this fail, never SIGPIPE bench */
        ssize_t r = send(fd, (const char *)buf + put, n - put, MSG_NOSIGNAL);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        put += (size_t)r;
    }
    return 0;
}

static _Noreturn void child_main(int fd, const pb_cage_server *srv)
{
    /* bench's handlers only set bench's flag: here an interrupt ends the child (bench passes on the
     * one it got, await_reply), and bench stops the run; and a bench killed outright takes its
     * children along */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* user code is loaded here, at its first use: its constructors' writes to stdout go to
     * bench's stderr, never into bench's output (a JSON document); and it runs in a process group
     * of its own, killed whole when the child ends (reap), so a process it forks and leaves
     * behind cannot hold bench's output open or outlive the run */
    setpgid(0, 0);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    /* and what it sets free of the group (setsid, a daemon's double fork) comes back to this child
     * and is killed as it ends (reaper.h) */
    pb_reaper reaper;
    pb_reaper_begin(&reaper);
    pb_cage_reply r;
    memset(&r, 0, sizeof r);
    srv->set_up(srv->ctx, &r);
    int serving = write_all(fd, &r, sizeof r) == 0 && r.status >= 0 && !r.unavailable;
    while (serving) {
        pb_cage_req q;
        if (read_all(fd, &q, sizeof q) < 0) break;   /* bench went away */
        if (q.op == PB_CAGE_QUIT) {
            if (srv->quit) srv->quit(srv->ctx);
            break;
        }
        memset(&r, 0, sizeof r);
        srv->serve(srv->ctx, &q, &r);
        serving = write_all(fd, &r, sizeof r) == 0;
    }
    pb_reaper_end(&reaper);
    _exit(0);
}

/* The child has ended or is killed now: whatever it started is killed with its process group
 * (while the child is still a zombie, so that the group's id cannot be another's), then it is
 * reaped. */
static void reap(pid_t pid, int *status)
{
    kill(-pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The child has ended or must: killed (when `kill_it`), reaped, its end described in e. */
static int child_gone(pb_cage *k, const char *doing, int kill_it, double limit_s, pb_err *e)
{
    if (kill_it) kill(k->pid, SIGKILL);
    int status = 0;
    siginfo_t si;
    /* its end as it ended, before reap kills what it left behind */
    while (waitid(P_PID, (id_t)k->pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR) {}
    reap(k->pid, &status);
    close(k->fd);
    k->pid = 0;
    k->fd = -1;
    if (kill_it) return pb_errf(e, "%s did not finish %s in %g s (killed; --timeout sets the limit)", k->who, doing, limit_s);
    if (WIFSIGNALED(status))
        return pb_errf(e, "%s crashed during %s: signal %d (%s)", k->who, doing, WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
    if (WIFEXITED(status))
        return pb_errf(e, "%s exited with status %d during %s (code under test must return, not exit)", k->who,
                       WEXITSTATUS(status), doing);
    return pb_errf(e, "%s ended during %s", k->who, doing);
}

/* The reply to the request just sent, within limit_s. */
static int await_reply(pb_cage *k, const char *doing, double limit_s, pb_cage_reply *r, pb_err *e)
{
    double deadline = now_s() + limit_s;
    for (;;) {
        double left = deadline - now_s();
        if (left <= 0) return child_gone(k, doing, 1, limit_s, e);
        struct pollfd p = {.fd = k->fd, .events = POLLIN};
        int ms = left > 1e6 ? 1000000000 : (int)ceil(left * 1e3);
        int n = poll(&p, 1, ms);
        /* SIGINT or SIGTERM, bench's only handled signals in a run: the runner stops after the reply.
         * The child's process group is not the terminal's, so an interrupt is passed on to it, as
         * the terminal's Ctrl-C reached it when it shared bench's group */
        if (n < 0 && errno == EINTR) {
            kill(-k->pid, SIGINT);
            continue;
        }
        if (n < 0) return pb_errf(e, "%s: poll: %s", k->who, strerror(errno));
        if (n == 0) continue;
        if (read_all(k->fd, r, sizeof *r) < 0) return child_gone(k, doing, 0, limit_s, e);
        r->msg[sizeof r->msg - 1] = 0;
        return 0;
    }
}

int pb_cage_start(pb_cage *k, const char *who, const pb_cage_server *srv, double limit_s, pb_cage_reply *setup,
                  pb_err *e)
{
    memset(k, 0, sizeof *k);
    k->fd = -1;
    snprintf(k->who, sizeof k->who, "%s", who);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return pb_errf(e, "%s: socketpair: %s", who, strerror(errno));
    fflush(NULL);   /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(sv[0]);
        close(sv[1]);
        return pb_errf(e, "%s: fork: %s", who, strerror(err));
    }
    if (pid == 0) {
        close(sv[0]);
        child_main(sv[1], srv);
    }
    setpgid(pid, pid);   /* as the child does: whichever runs first */
    close(sv[1]);
    k->pid = pid;
    k->fd = sv[0];
    if (await_reply(k, "its set-up", limit_s, setup, e) < 0) return -1;
    if (setup->status < 0 || setup->unavailable) {
        /* the child has said why and exits: reap it */
        int status;
        siginfo_t si;
        while (waitid(P_PID, (id_t)k->pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR) {}
        reap(k->pid, &status);
        close(k->fd);
        k->pid = 0;
        k->fd = -1;
    }
    return 0;
}

int pb_cage_call(pb_cage *k, const pb_cage_req *q, double limit_s, pb_cage_reply *r, pb_err *e)
{
    if (!k->pid) return pb_errf(e, "%s: no longer running", k->who);
    char doing[96];
    if (q->op == PB_CAGE_SAMPLE)
        snprintf(doing, sizeof doing, "a timed sample of %llu iterations", (unsigned long long)q->iters);
    else
        snprintf(doing, sizeof doing, "%llu x %llu calibration iterations", (unsigned long long)q->reps,
                 (unsigned long long)q->iters);
    if (write_all(k->fd, q, sizeof *q) < 0) return child_gone(k, doing, 0, limit_s, e);
    return await_reply(k, doing, limit_s, r, e);
}

void pb_cage_stop(pb_cage *k)
{
    if (!k || !k->pid) return;
    pb_cage_req q = {.op = PB_CAGE_QUIT};
    int status;
    int got = 0;
    if (write_all(k->fd, &q, sizeof q) == 0) {
        /* a second for its free functions; then it is killed, whatever it is doing */
        for (int i = 0; i < 100 && !got; i++) {
            siginfo_t si;
            memset(&si, 0, sizeof si);
            if (waitid(P_PID, (id_t)k->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == k->pid) got = 1;
            struct timespec ts = {0, 10 * 1000 * 1000};
            if (!got) nanosleep(&ts, NULL);
        }
    }
    reap(k->pid, &status);
    close(k->fd);
    k->pid = 0;
    k->fd = -1;
}
