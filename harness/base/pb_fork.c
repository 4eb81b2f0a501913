/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_fork.c — a check in a forked child (pb_fork.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pb_fork.h"

/* The child's report: 'P' (fn returned 0) or 'F' and fn's message. A child that ends without
 * one (it called exit or _exit itself) has not passed, whatever its exit status says. */
static _Noreturn void child(unsigned seconds, int (*fn)(void *, pb_err *), void *arg, int fd)
{
    pb_err e = {{0}};
    alarm(seconds);
    int rc = fn(arg, &e) < 0;
    {
        char mark = rc ? 'F' : 'P';
        size_t n = 1 + (rc ? strlen(e.msg) : 0);
        char buf[1 + sizeof e.msg];
        buf[0] = mark;
        memcpy(buf + 1, e.msg, n - 1);
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

int pb_fork_run(const char *who, const char *doing, unsigned seconds, int (*fn)(void *arg, pb_err *e), void *arg,
                pb_err *e)
{
    int fds[2];
    if (pipe(fds) < 0) return pb_errf(e, "%s: pipe: %s", who, strerror(errno));
    fflush(NULL);   /* nothing buffered twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return pb_errf(e, "%s: fork: %s", who, strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        child(seconds, fn, arg, fds[1]);
    }
    close(fds[1]);
    char msg[sizeof e->msg + 1];
    size_t got = 0;
    ssize_t r;
    while ((r = read(fds[0], msg + got, sizeof msg - 1 - got)) > 0 || (r < 0 && errno == EINTR))
        if (r > 0) got += (size_t)r;
    msg[got] = 0;
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return pb_errf(e, "%s: waitpid: %s", who, strerror(errno));
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        return pb_errf(e, "%s: %s did not finish in %u s", who, doing, seconds);
    if (WIFSIGNALED(status))
        return pb_errf(e, "%s: crashed in %s: signal %d (%s)", who, doing, WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
    if (got && msg[0] == 'P' && WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    if (got > 1 && msg[0] == 'F') return pb_errf(e, "%s", msg + 1);
    if (!got && WIFEXITED(status))
        return pb_errf(e, "%s: exited with status %d in %s (code under test must return, not exit)", who,
                       WEXITSTATUS(status), doing);
    return pb_errf(e, "%s: %s failed without saying why", who, doing);
}

int pb_fork_check(const char *who, unsigned seconds, int (*fn)(void *arg, pb_err *e), void *arg, pb_err *e)
{
    return pb_fork_run(who, "its self-test", seconds, fn, arg, e);
}

typedef struct load_ref {
    const char *name, *path;
    pb_fork_load_fn load;
    pb_fork_selftest_fn selftest;
} load_ref;

static int load_and_selftest(void *arg, pb_err *e)
{
    const load_ref *r = arg;
    return r->load(r->name, r->path, e) < 0 || r->selftest(r->name, e) < 0 ? -1 : 0;
}

int pb_fork_load_checked(const char *what, const char *name, const char *path, unsigned seconds,
                         pb_fork_load_fn load, pb_fork_selftest_fn selftest, pb_err *e)
{
    char who[1200];
    snprintf(who, sizeof who, "%s %s (%s)", what, name, path);
    load_ref ref = {name, path, load, selftest};
    if (pb_fork_check(who, seconds, load_and_selftest, &ref, e) < 0) return -1;
    return load(name, path, e);
}
