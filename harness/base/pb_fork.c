/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_fork.c — a check in a forked child (pb_fork.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pb_fork.h"
#include "reaper.h"

typedef struct fork_call {
    unsigned seconds;
    int (*fn)(void *, pb_err *);
    void *arg;
    const void *out;
    size_t out_size;
} fork_call;

/* How the child ended, from its status and what it wrote (got bytes of msg) */
static int report(const char *who, const char *doing, unsigned seconds, int ended, int status, const char *msg,
                  size_t got, void *out, size_t out_size, pb_err *e)
{
    if (!ended || (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM))
        return pb_errf(e, "%s: %s did not finish in %u s", who, doing, seconds);
    if (WIFSIGNALED(status))
        return pb_errf(e, "%s: crashed in %s: signal %d (%s)", who, doing, WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
    if (got == 1 + out_size && msg[0] == 'P' && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        if (out_size) memcpy(out, msg + 1, out_size);
        return 0;
    }
    if (got > 1 && msg[0] == 'F') return pb_errf(e, "%.*s", (int)(got - 1), msg + 1);
    if (!got && WIFEXITED(status))
        return pb_errf(e, "%s: exited with status %d in %s (code under test must return, not exit)", who,
                       WEXITSTATUS(status), doing);
    return pb_errf(e, "%s: %s failed without saying why", who, doing);
}

/* The child's report: 'P' (fn returned 0) and the out_size bytes fn left in out, or 'F' and fn's
 * message. A child that ends without one (it called exit or _exit itself) has not passed, whatever
 * its exit status says. The child is in a process group of its own and its stdout is bench's
 * stderr: code loaded there (constructors included) cannot write into bench's output (a JSON
 * document, the known answers' lines), and whatever it leaves running is killed with the group. */
static _Noreturn void child(const fork_call *c, int fd)
{
    setpgid(0, 0);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    pb_err e = {{0}};
    alarm(c->seconds);
    int rc = c->fn(c->arg, &e) < 0;
    fflush(NULL);
    size_t n = 1 + (rc ? strlen(e.msg) : c->out_size);
    char *buf = malloc(n);
    if (buf) {
        buf[0] = rc ? 'F' : 'P';
        if (n > 1) memcpy(buf + 1, rc ? (const void *)e.msg : c->out, n - 1);   /* no out: nothing to copy */
        const char *p = buf;
        while (n > 0) {
            ssize_t w = write(fd, p, n);
            if (w <= 0) break;
            n -= (size_t)w;
            p += w;
        }
    }
    _exit(rc);
}

/* Wait for the child to end (not reaping it, so that its process group cannot be reused), up to
 * seconds and a second's grace past its own alarm, which code that blocks SIGALRM would outlive.
 * 1: it ended; 0: it did not. Polled, not read from the pipe: a process the child left behind may
 * hold the pipe open long after the child is gone. */
static int child_ended(pid_t pid, unsigned seconds)
{
    const long tick_ms = 5;
    long ticks = ((long)seconds + 1) * 1000 / tick_ms;
    for (long t = 0; t <= ticks; t++) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        int r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 || si.si_pid == pid) return 1;
        struct timespec ts = {0, tick_ms * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* What the child wrote before it ended: everything is in the pipe by then (far below its size) */
static size_t drain(int fd, char *buf, size_t cap)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    size_t got = 0;
    ssize_t r;
    while (got < cap && ((r = read(fd, buf + got, cap - got)) > 0 || (r < 0 && errno == EINTR)))
        if (r > 0) got += (size_t)r;
    return got;
}

int pb_fork_run_out(const char *who, const char *doing, unsigned seconds, int (*fn)(void *arg, pb_err *e),
                    void *arg, void *out, size_t out_size, pb_err *e)
{
    int fds[2];
    if (pipe(fds) < 0) return pb_errf(e, "%s: pipe: %s", who, strerror(errno));
    fflush(NULL);   /* nothing buffered twice */
    /* what the child starts and sets free of its group (setsid, a daemon's double fork) comes
     * back to bench and is killed with the rest (reaper.h) */
    pb_reaper reaper;
    pb_reaper_begin(&reaper);
    pid_t pid = fork();
    if (pid < 0) {
        pb_reaper_end(&reaper);
        close(fds[0]);
        close(fds[1]);
        return pb_errf(e, "%s: fork: %s", who, strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        child(&(fork_call){seconds, fn, arg, out, out_size}, fds[1]);
    }
    setpgid(pid, pid);   /* as the child does: whichever runs first */
    close(fds[1]);
    int ended = child_ended(pid, seconds);
    kill(-pid, SIGKILL);   /* the child if it hangs, and whatever it started */
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            pb_reaper_end(&reaper);
            close(fds[0]);
            return pb_errf(e, "%s: waitpid: %s", who, strerror(errno));
        }
    pb_reaper_end(&reaper);
    size_t cap = 1 + (out_size > sizeof e->msg ? out_size : sizeof e->msg);
    char *msg = calloc(1, cap + 1);
    if (!msg) {
        close(fds[0]);
        return pb_errf(e, "%s: out of memory", who);
    }
    size_t got = drain(fds[0], msg, cap);
    close(fds[0]);
    int rc = report(who, doing, seconds, ended, status, msg, got, out, out_size, e);
    free(msg);
    return rc;
}

int pb_fork_run(const char *who, const char *doing, unsigned seconds, int (*fn)(void *arg, pb_err *e), void *arg,
                pb_err *e)
{
    return pb_fork_run_out(who, doing, seconds, fn, arg, NULL, 0, e);
}

int pb_fork_check(const char *who, unsigned seconds, int (*fn)(void *arg, pb_err *e), void *arg, pb_err *e)
{
    return pb_fork_run(who, "its self-test", seconds, fn, arg, e);
}
