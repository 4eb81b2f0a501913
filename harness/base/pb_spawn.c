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
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reaper.h"

extern char **environ;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One of the program's output pipes as pb_spawn reads it: every byte counted, the first ones kept
 * in head (stderr's, for messages), each chunk handed to sink until it declines. */
typedef struct stream {
    int fd;                  /* the read end; -1: none, or closed at EOF */
    pb_spawn_sink sink;
    void *ctx;
    size_t bytes;
    char *head;
    size_t head_cap, head_len;
} stream;

/* Read what s has now; 1 at EOF (or an error), else 0. */
static int drain_some(stream *s)
{
    char buf[1 << 16];
    ssize_t r = read(s->fd, buf, sizeof buf);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (r <= 0) return 1;
    size_t n = (size_t)r;
    s->bytes += n;
    if (s->head && s->head_len < s->head_cap) {
        size_t k = s->head_cap - s->head_len < n ? s->head_cap - s->head_len : n;
        memcpy(s->head + s->head_len, buf, k);
        s->head_len += k;
    }
    if (s->sink && s->sink(s->ctx, buf, n) < 0) s->sink = NULL;
    return 0;
}

/* Wait for the child (pidfd) to end and its pipes s[0..2) to close, until limit_s (0: no limit).
 * Past the limit, or when a signal bench handles interrupts the wait, the child's process group is
 * killed: *why says which (0: it ended by itself); a stopped child is killed as a running one is
 * (the deadline is the poll's, whatever the child's state). *end_ns is when it ended. Something it
 * left behind that keeps a pipe open is waited for 200 ms, then left to the sweep. */
static void wait_child(pid_t pid, int pidfd, stream *s, double limit_s, int *why, double *end_ns)
{
    double deadline = limit_s > 0 ? now_ns() + limit_s * 1e9 : INFINITY, exited_at = now_ns();
    int exited = pidfd < 0, killed = 0;
    *why = 0;
    for (;;) {
        struct pollfd p[3];
        int n = 0, ip = -1, io[2] = {-1, -1};
        if (!exited) p[ip = n++] = (struct pollfd){.fd = pidfd, .events = POLLIN};
        for (int i = 0; i < 2; i++)
            if (s[i].fd >= 0) p[io[i] = n++] = (struct pollfd){.fd = s[i].fd, .events = POLLIN};
        if (!n) break;
        double left = (deadline - now_ns()) * 1e-6;
        if (exited) {
            double grace = 200 - (now_ns() - exited_at) * 1e-6;   /* pipes held by what it left */
            if (left > grace) left = grace;
        }
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
        if (r == 0) break;   /* killed and still nothing: the sweep does the rest */
        if (ip >= 0 && p[ip].revents) {
            exited = 1;
            exited_at = *end_ns = now_ns();
        }
        for (int i = 0; i < 2; i++)
            if (io[i] >= 0 && p[io[i]].revents && drain_some(&s[i])) {
                close(s[i].fd);
                s[i].fd = -1;
            }
    }
}


/* The collecting sink of pb_spawn: stdout into a growing buffer, declined past
 * PB_SPAWN_OUTPUT_MAX (toobig) or when memory runs out (nomem). */
typedef struct collect {
    char *buf;
    size_t len, cap;
    int toobig, nomem;
} collect;

static int collect_some(void *ctx, const char *b, size_t n)
{
    collect *c = ctx;
    if (c->len + n + 1 > PB_SPAWN_OUTPUT_MAX) return c->toobig = 1, -1;
    if (c->len + n + 1 > c->cap) {
        size_t cap = c->cap ? c->cap : 1 << 16;
        while (cap < c->len + n + 1) cap *= 2;
        char *nb = realloc(c->buf, cap);
        if (!nb) return c->nomem = 1, -1;
        c->buf = nb, c->cap = cap;
    }
    memcpy(c->buf + c->len, b, n);
    c->len += n;
    return 0;
}

int pb_spawn(char *const argv[], char **out, double limit_s, pb_proc *p, pb_err *e)
{
    if (!out) return pb_spawn_to(argv, NULL, NULL, limit_s, p, e);
    collect col = {0};
    *out = NULL;
    if (pb_spawn_to(argv, collect_some, &col, limit_s, p, e) < 0) {
        free(col.buf);
        return -1;
    }
    if (col.toobig || col.nomem || (!col.buf && !(col.buf = malloc(1)))) {
        free(col.buf);
        return col.toobig ? pb_errf(e, "%s wrote more than %u bytes to stdout", argv[0], PB_SPAWN_OUTPUT_MAX)
                          : pb_errf(e, "out of memory reading %s's output", argv[0]);
    }
    col.buf[col.len] = 0;
    *out = col.buf;
    return 0;
}

/* posix_spawn of argv in a session of its own, stdin from /dev/null, stdout to po[1] (or
 * /dev/null, po[1] < 0), stderr to pe[1]: 0 or an errno */
static int start(char *const argv[], const int *po, const int *pe, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (po[1] >= 0) posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    else posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    /* a session of its own (and so a process group whose id is its pid): a limit kills whatever it
     * started in it, and nothing it starts can belong to bench's terminal */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID);
    int err = posix_spawn(pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return err;
}

int pb_spawn_to(char *const argv[], pb_spawn_sink sink, void *ctx, double limit_s, pb_proc *p, pb_err *e)
{
    memset(p, 0, sizeof *p);
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    if (pipe2(pe, O_CLOEXEC) < 0 || (sink && pipe2(po, O_CLOEXEC) < 0)) {
        int err = errno;
        for (int i = 0; i < 2; i++) {
            if (pe[i] >= 0) close(pe[i]);
            if (po[i] >= 0) close(po[i]);
        }
        return pb_errf(e, "%s: cannot set up its output: %s", argv[0], strerror(err));
    }
    /* bench reaps what the program leaves behind (pb_spawn.h) */
    pb_reaper reaper;
    pb_reaper_begin(&reaper);
    pid_t pid;
    const double t0 = now_ns();
    int err = start(argv, po, pe, &pid);
    close(pe[1]);
    if (po[1] >= 0) close(po[1]);
    if (err) {
        close(pe[0]);
        if (po[0] >= 0) close(po[0]);
        pb_reaper_end(&reaper);
        return pb_errf(e, "cannot start %s: %s", argv[0], strerror(err));
    }
    stream s[2] = {{.fd = po[0], .sink = sink, .ctx = ctx},
                   {.fd = pe[0], .head = p->stderr_head, .head_cap = sizeof p->stderr_head - 1}};
    int pidfd = pidfd_open(pid, 0);
    int why = 0;
    double end_ns = 0;
    wait_child(pid, pidfd, s, limit_s, &why, &end_ns);
    /* what it left running in its group goes with it, before the next sample: the group lives on
     * while the child is an unreaped zombie, so this cannot reach another's */
    kill(-pid, SIGKILL);
    if (pidfd >= 0) close(pidfd);
    for (int i = 0; i < 2; i++)
        if (s[i].fd >= 0) close(s[i].fd);
    struct rusage ru;
    while (wait4(pid, &p->status, 0, &ru) < 0)
        if (errno != EINTR) {
            memset(&ru, 0, sizeof ru);
            break;
        }
    p->wall_ns = (end_ns ? end_ns : now_ns()) - t0;
    /* and what left its group (setsid, a daemon's double fork), reparented to bench by now */
    p->left_behind = pb_reaper_end(&reaper);
    p->timed_out = why == ETIMEDOUT;
    p->interrupted = why == EINTR;
    p->limit_s = limit_s;
    p->stdout_bytes = s[0].bytes;
    p->user_ns = (double)ru.ru_utime.tv_sec * 1e9 + (double)ru.ru_utime.tv_usec * 1e3;
    p->sys_ns = (double)ru.ru_stime.tv_sec * 1e9 + (double)ru.ru_stime.tv_usec * 1e3;
    p->cpu_ns = p->user_ns + p->sys_ns;
    p->stderr_bytes = s[1].bytes;
    p->stderr_head[s[1].head_len] = 0;
    p->stderr_head[strcspn(p->stderr_head, "\n")] = 0;
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

int pb_split_words(const char *opt, const char *s, char *buf, size_t cap, char **argv, int max, pb_err *e)
{
    size_t o = 0;
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n') s++;
        if (!*s) break;
        if (n == max) return pb_errf(e, "%s: more than %d words", opt, max);
        if (argv) argv[n] = buf + o;
        n++;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
            char q = *s;
            if (q == '\'' || q == '"') {
                for (s++; *s && *s != q; s++) {
                    if (q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\')) s++;
                    if (o + 1 >= cap) return pb_errf(e, "%s: command too long", opt);
                    buf[o++] = *s;
                }
                if (!*s) return pb_errf(e, "%s: unterminated %c quote", opt, q);
                s++;
                continue;
            }
            if (q == '\\' && s[1]) s++;
            if (o + 1 >= cap) return pb_errf(e, "%s: command too long", opt);
            buf[o++] = *s++;
        }
        buf[o++] = 0;
    }
    if (argv) argv[n] = NULL;
    return n;
}
