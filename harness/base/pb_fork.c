/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_fork.c — a check in a forked child (pb_fork.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pb_fork.h"

static _Noreturn void child(unsigned seconds, int (*fn)(void *, pb_err *), void *arg, int fd)
{
    pb_err e = {{0}};
    alarm(seconds);
    int rc = fn(arg, &e) < 0;
    if (rc) {
        size_t n = strlen(e.msg);
        const char *p = e.msg;
        while (n > 0) {
            ssize_t w = write(fd, p, n);
            if (w <= 0) break;
            n -= (size_t)w;
            p += w;
        }
    }
    _exit(rc);
}

int pb_fork_check(const char *who, unsigned seconds, int (*fn)(void *arg, pb_err *e), void *arg, pb_err *e)
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
    char msg[sizeof e->msg];
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
        return pb_errf(e, "%s: self-test did not finish in %u s", who, seconds);
    if (WIFSIGNALED(status))
        return pb_errf(e, "%s: crashed in its self-test: signal %d (%s)", who, WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return got ? pb_errf(e, "%s", msg) : pb_errf(e, "%s: self-test failed without saying why", who);
    return 0;
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
