/* SPDX-License-Identifier: GPL-2.0-only */
#include "runenv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The online CPUs as a set, from the kernel's list ("0-3,6"); 0 if it cannot be read. */
static int online_set(cpu_set_t *set, char *list, size_t len)
{
    CPU_ZERO(set);
    if (list && len) list[0] = 0;
    FILE *f = fopen("/sys/devices/system/cpu/online", "r");
    char buf[512] = "";
    if (f) {
        if (!fgets(buf, sizeof buf, f)) buf[0] = 0;
        fclose(f);
    }
    buf[strcspn(buf, "\n")] = 0;
    int n = 0;
    for (char *p = buf; *p;) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p) break;
        if (*end == '-') {
            p = end + 1;
            b = strtol(p, &end, 10);
            if (end == p) break;
        }
        for (long c = a; c <= b && c >= 0 && c < CPU_SETSIZE; c++)
            if (!CPU_ISSET((int)c, set)) { CPU_SET((int)c, set); n++; }
        p = *end == ',' ? end + 1 : end;
        if (end == p && *p) break;
    }
    if (n == 0) { /* no sysfs: CPUs 0 .. n-1 */
        long k = sysconf(_SC_NPROCESSORS_ONLN);
        for (long c = 0; c < k && c < CPU_SETSIZE; c++) { CPU_SET((int)c, set); n++; }
        if (list && len && k > 0) snprintf(list, len, "0-%ld", k - 1);
    } else if (list && len) {
        snprintf(list, len, "%s", buf);
    }
    return n;
}

int pb_online_cpus(void)
{
    cpu_set_t s;
    return online_set(&s, NULL, 0);
}

int pb_cpu_parse(const char *v, int *cpu, pb_err *e)
{
    if (!v) { *cpu = PB_CPU_DEFAULT; return 0; }
    if (!strcmp(v, "none")) { *cpu = PB_CPU_NONE; return 0; }
    char *end;
    errno = 0;
    long c = strtol(v, &end, 10);
    if (errno || end == v || *end || v[0] < '0' || v[0] > '9')
        return pb_errf(e, "--cpu '%.40s': want the number of an online CPU, or none", v);
    cpu_set_t on;
    char list[128];
    online_set(&on, list, sizeof list);
    if (c >= CPU_SETSIZE || !CPU_ISSET((int)c, &on))
        return pb_errf(e, "--cpu %ld: no such online CPU (online: %s)", c, list[0] ? list : "unknown");
    *cpu = (int)c;
    return 0;
}

void pb_pin_apply(int cpu, pb_pin *p)
{
    memset(p, 0, sizeof *p);
    if (cpu == PB_CPU_NONE) {
        snprintf(p->desc, sizeof p->desc, "not pinned: --cpu none");
        return;
    }
    cpu_set_t on;
    int n = online_set(&on, NULL, 0);
    if (n <= 1) {
        snprintf(p->desc, sizeof p->desc, "not pinned: %d online CPU", n);
        return;
    }
    p->have_old = pthread_getaffinity_np(pthread_self(), sizeof p->old, &p->old) == 0;
    const char *why = "--cpu";
    if (cpu == PB_CPU_DEFAULT) {
        /* the last online CPU this thread may run on; the last online one if it may run on none */
        why = "default: the last online CPU";
        for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; c--)
            if (CPU_ISSET(c, &on) && (!p->have_old || CPU_ISSET(c, &p->old))) cpu = c;
        for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; c--)
            if (CPU_ISSET(c, &on)) cpu = c;
    }
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    int err = pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    if (err) {
        snprintf(p->desc, sizeof p->desc, "not pinned: the kernel refused CPU %d (%s; a cgroup cpuset may exclude it)",
                 cpu, strerror(err));
        fprintf(stderr, "bench: warning: %s\n", p->desc);
        return;
    }
    p->pinned = 1;
    snprintf(p->desc, sizeof p->desc, "cpu %d (%s; %d online)", cpu, why, n);
}

void pb_pin_restore(pb_pin *p)
{
    if (p->pinned && p->have_old) pthread_setaffinity_np(pthread_self(), sizeof p->old, &p->old);
    p->pinned = 0;
}

double pb_loadavg(void)
{
    const char *t = getenv("PB_TEST_LOADAVG");
    if (t && *t) {
        char *end;
        double v = strtod(t, &end);
        if (end != t && !*end && v >= 0) return v;
    }
    double la[1];
    return getloadavg(la, 1) == 1 ? la[0] : -1;
}

void pb_noise_text(long n_fast, long n_probed, char *buf, size_t len)
{
    buf[0] = 0;
    if (n_probed > 0 && (double)n_fast < PB_NOISE_FAST_MIN * (double)n_probed)
        snprintf(buf, len, "only %ld of %ld samples (%.0f %%) in the fast core state (limit %.0f %%)", n_fast, n_probed,
                 100.0 * (double)n_fast / (double)n_probed, 100 * PB_NOISE_FAST_MIN);
}

/* one pread of a /proc file kept open in *fd (opened on first use, by the thread that reads it) */
static int proc_read(int *fd, const char *path, char *buf, size_t cap)
{
    if (*fd == -2) return -1;                 /* known unreadable */
    if (*fd < 0 && (*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) { *fd = -2; return -1; }
    ssize_t n = pread(*fd, buf, cap - 1, 0);
    if (n <= 0) return -1;
    buf[n] = 0;
    return 0;
}

void pb_waits_read(pb_waits_files *f, pb_waits *w)
{
    char buf[512];
    w->run_delay_ns = w->steal_ns = -1;
    unsigned long long run_ns, wait_ns;
    if (proc_read(&f->sched_fd, "/proc/thread-self/schedstat", buf, sizeof buf) == 0 &&
        sscanf(buf, "%llu %llu", &run_ns, &wait_ns) == 2)
        w->run_delay_ns = (double)wait_ns;
    /* "cpu  user nice system idle iowait irq softirq steal ...", in clock ticks */
    unsigned long long v[8];
    long hz = sysconf(_SC_CLK_TCK);
    if (hz > 0 && proc_read(&f->stat_fd, "/proc/stat", buf, sizeof buf) == 0 &&
        sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
               &v[7]) == 8)
        w->steal_ns = (double)v[7] * 1e9 / (double)hz;
}

void pb_waits_files_close(pb_waits_files *f)
{
    if (f->sched_fd >= 0) close(f->sched_fd);
    if (f->stat_fd >= 0) close(f->stat_fd);
    *f = PB_WAITS_FILES_INIT;
}

void pb_waits_text(long waited, long rounds, double move, const char *where, double r_all, double r_without, char *buf,
                   size_t len)
{
    buf[0] = 0;
    if (waited <= 0 || rounds <= 0) return;
    int k = snprintf(buf, len, "%ld of %ld rounds waited (run-queue delay or steal over %.0f %% of a sample)", waited,
                     rounds, 100 * PB_WAIT_FRACTION);
    if (k < 0 || (size_t)k >= len) return;
    if (isfinite(move))
        snprintf(buf + k, len - (size_t)k, "; without them the ratios move by up to %.1f %% (%s: %.3f, %.3f without)",
                 100 * move, where && *where ? where : "?", r_all, r_without);
    else
        snprintf(buf + k, len - (size_t)k, "; too few rounds without them to say how far the ratios move");
}
