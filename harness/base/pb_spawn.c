/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_spawn.c — see pb_spawn.h. */
#include "pb_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Read fd to EOF into a growing buffer; past PB_SPAWN_OUTPUT_MAX keep draining, set *toobig. */
static char *drain(int fd, size_t *len, int *toobig)
{
    size_t cap = 1 << 16;
    char *buf = malloc(cap), sink[4096];
    *len = 0;
    for (;;) {
        if (buf && !*toobig && *len + 1 >= cap) {
            char *nb = cap < PB_SPAWN_OUTPUT_MAX ? realloc(buf, cap * 2) : NULL;
            if (nb) buf = nb, cap *= 2;
            else *toobig = 1;
        }
        int keep = buf && !*toobig;
        ssize_t r = read(fd, keep ? buf + *len : sink, keep ? cap - *len - 1 : sizeof sink);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        if (keep) *len += (size_t)r;
    }
    if (buf) buf[*len] = 0;
    return buf;
}

int pb_spawn(char *const argv[], char **out, pb_proc *p, pb_err *e)
{
    memset(p, 0, sizeof *p);
    int pfd[2] = {-1, -1}, efd = memfd_create("pb-spawn-stderr", MFD_CLOEXEC);
    if (efd < 0 || (out && pipe2(pfd, O_CLOEXEC) < 0)) {
        int err = errno;
        if (efd >= 0) close(efd);
        return pb_errf(e, "%s: cannot set up its output: %s", argv[0], strerror(err));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (out) posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    else posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    pid_t pid;
    const double t0 = now_ns();
    int err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (out) close(pfd[1]);
    if (err) {
        if (out) close(pfd[0]);
        close(efd);
        return pb_errf(e, "cannot start %s: %s", argv[0], strerror(err));
    }
    size_t len = 0;
    int toobig = 0;
    char *buf = out ? drain(pfd[0], &len, &toobig) : NULL;
    if (out) close(pfd[0]);
    struct rusage ru;
    while (wait4(pid, &p->status, 0, &ru) < 0)
        if (errno != EINTR) {
            memset(&ru, 0, sizeof ru);
            break;
        }
    p->wall_ns = now_ns() - t0;
    p->cpu_ns = ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1e9 +
                ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e3;
    off_t eb = lseek(efd, 0, SEEK_END);
    p->stderr_bytes = eb > 0 ? (size_t)eb : 0;
    ssize_t hn = pread(efd, p->stderr_head, sizeof p->stderr_head - 1, 0);
    close(efd);
    p->stderr_head[hn > 0 ? hn : 0] = 0;
    p->stderr_head[strcspn(p->stderr_head, "\n")] = 0;
    if (out && (!buf || toobig)) {
        free(buf);
        return toobig ? pb_errf(e, "%s wrote more than %u bytes to stdout", argv[0], PB_SPAWN_OUTPUT_MAX)
                      : pb_errf(e, "out of memory reading %s's output", argv[0]);
    }
    if (out) *out = buf;
    return 0;
}

int pb_proc_check(const char *what, const pb_proc *p, pb_err *e)
{
    const char *sep = p->stderr_head[0] ? ": " : "";
    if (WIFSIGNALED(p->status))
        return pb_errf(e, "%s died of signal %d (%s)%s%s", what, WTERMSIG(p->status), strsignal(WTERMSIG(p->status)),
                       sep, p->stderr_head);
    if (!WIFEXITED(p->status) || WEXITSTATUS(p->status))
        return pb_errf(e, "%s exited with status %d%s%s", what, WIFEXITED(p->status) ? WEXITSTATUS(p->status) : -1,
                       sep, p->stderr_head);
    return 0;
}
