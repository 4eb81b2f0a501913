/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_spawn.c — see pb_spawn.h. */
#include "pb_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

/* What one pb_spawn collects while it waits: stdout into a growing buffer (past
 * PB_SPAWN_OUTPUT_MAX drained and dropped, toobig set). */
typedef struct collect {
    char *buf;
    size_t len, cap;
    int toobig;
} collect;

/* Read what fd has now; 1 at EOF (or an error), else 0. */
static int drain_some(int fd, collect *c)
{
    char sink[4096];
    if (c->buf && !c->toobig && c->len + 1 >= c->cap) {
        char *nb = c->cap < PB_SPAWN_OUTPUT_MAX ? realloc(c->buf, c->cap * 2) : NULL;
        if (nb) c->buf = nb, c->cap *= 2;
        else c->toobig = 1;
    }
    int keep = c->buf && !c->toobig;
    ssize_t r = read(fd, keep ? c->buf + c->len : sink, keep ? c->cap - c->len - 1 : sizeof sink);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (r <= 0) return 1;
    if (keep) c->len += (size_t)r;
    return 0;
}

/* Wait for the child (pidfd) to end and its stdout (fd, -1: none) to close, until limit_s (0: no
 * limit). Past the limit, or when a signal bench handles interrupts the wait, the child's whole
 * process group is killed: *why says which (0: it ended by itself). A grandchild that keeps stdout
 * open after the child ended is killed with it (200 ms on). */
static void wait_child(pid_t pid, int pidfd, int fd, collect *c, double limit_s, int *why)
{
    double deadline = limit_s > 0 ? now_ns() + limit_s * 1e9 : INFINITY;
    int exited = pidfd < 0, eof = fd < 0, killed = 0;
    *why = 0;
    while (!exited || !eof) {
        struct pollfd p[2];
        int n = 0, ip = -1, io = -1;
        if (!exited) p[ip = n++] = (struct pollfd){.fd = pidfd, .events = POLLIN};
        if (!eof) p[io = n++] = (struct pollfd){.fd = fd, .events = POLLIN};
        double left = (deadline - now_ns()) * 1e-6;
        if (exited && !killed && left > 200) left = 200;   /* stdout held open by what it left behind */
        int ms = isinf(left) ? -1 : left <= 0 ? 0 : left > 1e9 ? 1000000000 : (int)ceil(left);
        int r = poll(p, (nfds_t)n, ms);
        if (r < 0 && errno != EINTR) break;
        if (r < 0 || (r == 0 && !killed)) {
            if (!exited && !*why) *why = r < 0 ? EINTR : ETIMEDOUT;
            kill(-pid, SIGKILL);   /* its process group: what it started goes too */
            killed = 1;
            if (pidfd < 0) break;
            continue;
        }
        if (r == 0) break;   /* killed and still nothing: give up on the pipe */
        if (ip >= 0 && p[ip].revents) exited = 1;
        if (io >= 0 && p[io].revents && drain_some(fd, c)) eof = 1;
    }
}

int pb_spawn(char *const argv[], char **out, double limit_s, pb_proc *p, pb_err *e)
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
    /* a process group of its own, so that a limit kills whatever it started as well */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    pid_t pid;
    const double t0 = now_ns();
    int err = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (out) close(pfd[1]);
    if (err) {
        if (out) close(pfd[0]);
        close(efd);
        return pb_errf(e, "cannot start %s: %s", argv[0], strerror(err));
    }
    collect col = {out ? malloc(1 << 16) : NULL, 0, 1 << 16, 0};
    int pidfd = pidfd_open(pid, 0);
    int why = 0;
    wait_child(pid, pidfd, out ? pfd[0] : -1, &col, limit_s, &why);
    /* what it left running (a daemon, a stray child) goes with it, before the next sample: the
     * group lives on while the child is an unreaped zombie, so this cannot reach another's */
    kill(-pid, SIGKILL);
    if (pidfd >= 0) close(pidfd);
    if (out) close(pfd[0]);
    p->timed_out = why == ETIMEDOUT;
    p->interrupted = why == EINTR;
    p->limit_s = limit_s;
    char *buf = col.buf;
    size_t len = col.len;
    int toobig = col.toobig;
    if (buf) buf[len] = 0;
    p->stdout_bytes = buf ? len : 0;
    struct rusage ru;
    while (wait4(pid, &p->status, 0, &ru) < 0)
        if (errno != EINTR) {
            memset(&ru, 0, sizeof ru);
            break;
        }
    p->wall_ns = now_ns() - t0;
    p->user_ns = (double)ru.ru_utime.tv_sec * 1e9 + (double)ru.ru_utime.tv_usec * 1e3;
    p->sys_ns = (double)ru.ru_stime.tv_sec * 1e9 + (double)ru.ru_stime.tv_usec * 1e3;
    p->cpu_ns = p->user_ns + p->sys_ns;
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
    if (p->timed_out)
        return pb_errf(e, "%s did not finish in %g s (killed with what it started; --timeout sets the limit)%s%s", what,
                       p->limit_s, sep, p->stderr_head);
    if (p->interrupted) return pb_errf(e, "%s: interrupted (killed with what it started)", what);
    if (WIFSIGNALED(p->status))
        return pb_errf(e, "%s died of signal %d (%s)%s%s", what, WTERMSIG(p->status), strsignal(WTERMSIG(p->status)),
                       sep, p->stderr_head);
    if (!WIFEXITED(p->status) || WEXITSTATUS(p->status))
        return pb_errf(e, "%s exited with status %d%s%s", what, WIFEXITED(p->status) ? WEXITSTATUS(p->status) : -1,
                       sep, p->stderr_head);
    return 0;
}

int pb_parse_timeout(const char *value, double *out, pb_err *e)
{
    char *end;
    errno = 0;
    double x = strtod(value, &end);
    if (end == value || *end || errno || !(x >= 0.001 && x <= 86400))
        return pb_errf(e, "--timeout wants seconds from 0.001 to 86400, got '%s'", value);
    *out = x;
    return 0;
}

int pb_find_program(const char *name, char *path, size_t cap)
{
    const char *env = getenv("PATH");
    if (!env || !*env) return 0;
    for (const char *p = env;;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        int n = len ? snprintf(path, cap, "%.*s/%s", (int)len, p, name) : snprintf(path, cap, "./%s", name);
        struct stat sb;
        if (n > 0 && (size_t)n < cap && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0)
            return 1;
        if (!c) return 0;
        p = c + 1;
    }
}
