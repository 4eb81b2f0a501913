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
