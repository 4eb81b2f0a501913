/* SPDX-License-Identifier: GPL-2.0-only */
#include "counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

static inline uint64_t tsc_begin(void)
{
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

static inline uint64_t tsc_end(void)
{
    unsigned aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}

static int cpu_has_flag(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    char line[8192];
    int found = 0;
    size_t fl = strlen(flag);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5)) continue;
        for (char *p = strstr(line, flag); p; p = strstr(p + 1, flag))
            if (p[-1] == ' ' && (p[fl] == ' ' || p[fl] == '\n')) { found = 1; break; }
        break;
    }
    fclose(f);
    return found;
}

static long perf_open(struct perf_event_attr *a)
{
    return syscall(SYS_perf_event_open, a, 0 /* this thread */, -1, -1, 0);
}

/* Why perf_event_open failed, in the words a header has room for: a VM without a PMU (or a CPU
 * without the event) says ENOENT, EOPNOTSUPP or ENODEV; perf_event_paranoid EACCES or EPERM. */
static const char *open_failure_words(int err)
{
    if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) return "no PMU";
    if (err == EACCES || err == EPERM) return "not permitted";
    return "unavailable";
}

static int open_hw(pb_hw_event *ev, pb_err *e)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    pfm_perf_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    arg.attr = &attr;
    arg.size = sizeof arg;
    char *fstr = NULL;
    arg.fstr = &fstr;
    int ret = pfm_get_os_event_encoding(ev->name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
    if (ret != PFM_SUCCESS) {
        if (ret == PFM_ERR_NOTFOUND)
            return pb_errf(e, "unknown counter '%s' (libpfm4 does not know this event name)", ev->name);
        snprintf(ev->status, sizeof ev->status, "unavailable: libpfm4: %s", pfm_strerror(ret));
        snprintf(ev->brief, sizeof ev->brief, "libpfm4 cannot encode");
        ev->fd = -1;
        return 0;
    }
    attr.size = sizeof attr;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    long fd = perf_open(&attr);
    if (fd < 0) {
        snprintf(ev->status, sizeof ev->status, "unavailable: perf_event_open(%s): %s", fstr ? fstr : ev->name,
                 strerror(errno));
        snprintf(ev->brief, sizeof ev->brief, "%s", open_failure_words(errno));
        ev->fd = -1;
    } else {
        char name[sizeof ev->name];
        memcpy(name, ev->name, sizeof name);
        snprintf(ev->status, sizeof ev->status, "perf:%s (%s)", name, fstr ? fstr : "");
        snprintf(ev->brief, sizeof ev->brief, "perf");
        ev->fd = (int)fd;
        ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0);
    }
    free(fstr);
    return 0;
}

static double measure_tsc_hz(void)
{
    /* 20 ms against CLOCK_MONOTONIC_RAW: enough for 4 significant digits */
    uint64_t n0 = pb_now_ns(), t0 = tsc_begin();
    while (pb_now_ns() - n0 < 20000000ull) {}
    uint64_t n1 = pb_now_ns(), t1 = tsc_end();
    return (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
}

static uint64_t probe_once(int empty)
{
    uint64_t x = 0, t0 = tsc_begin();
    if (!empty) __asm__ volatile(".rept 1000\n\taddq $1, %0\n\t.endr" : "+r"(x));
    else __asm__ volatile("" : "+r"(x));
    uint64_t t1 = tsc_end();
    pb_sink(&x);
    return t1 - t0;
}

/* Six independent chains of adds in a loop: as many ALU operations a cycle as the core issues, so
 * that a busy other hardware thread on the core, which takes issue slots and ALUs, slows it by a
 * third to a half, where the dependent chain above, one add a cycle, hardly moves. */
static uint64_t tprobe_once(void)
{
    uint64_t a = 0, b = 0, c = 0, d = 0, f = 0, g = 0, n = 500, t0 = tsc_begin();
    __asm__ volatile("1:\n\taddq $1, %0\n\taddq $1, %1\n\taddq $1, %2\n\taddq $1, %3\n\taddq $1, %4\n\t"
                     "addq $1, %5\n\tsubq $1, %6\n\tjnz 1b"
                     : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(f), "+r"(g), "+r"(n));
    uint64_t t1 = tsc_end();
    a += b + c + d + f + g;
    pb_sink(&a);
    return t1 - t0;
}

int pb_counters_open(pb_counters *c, const char *names, pb_err *e)
{
    memset(c, 0, sizeof *c);
    int ret = pfm_initialize();
    if (!names) names = "cycles,instructions";
    char buf[256];
    snprintf(buf, sizeof buf, "%s", names);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!*tok) continue;
        if (c->nhw == PB_MAX_HW) return pb_errf(e, "at most %d counters (--counters)", PB_MAX_HW);
        pb_hw_event *ev = &c->hw[c->nhw++];
        snprintf(ev->name, sizeof ev->name, "%s", tok);
        ev->fd = -1;
        if (ret != PFM_SUCCESS) {
            snprintf(ev->status, sizeof ev->status, "unavailable: pfm_initialize: %s", pfm_strerror(ret));
            snprintf(ev->brief, sizeof ev->brief, "no libpfm4");
            continue;
        }
        if (open_hw(ev, e) < 0) return -1;
    }
    c->tsc_ok = cpu_has_flag("constant_tsc") && cpu_has_flag("nonstop_tsc");
    if (c->tsc_ok) {
        c->tsc_hz = measure_tsc_hz();
        uint64_t best = UINT64_MAX;
        for (int i = 0; i < 200; i++) {
            uint64_t t = probe_once(1);
            if (t < best) best = t;
        }
        c->probe_overhead = (double)best;
        snprintf(c->tick_source, sizeof c->tick_source, "tsc (invariant, rdtsc/rdtscp+lfence, %.4f GHz)",
                 c->tsc_hz / 1e9);
    } else {
        snprintf(c->tick_source, sizeof c->tick_source,
                 "clock (CLOCK_MONOTONIC_RAW ns: the TSC is not invariant here)");
    }
    return 0;
}

void pb_counters_close(pb_counters *c)
{
    for (int i = 0; i < c->nhw; i++)
        if (c->hw[i].fd >= 0) close(c->hw[i].fd);
    c->nhw = 0;
}

int pb_counters_find(const pb_counters *c, const char *name)
{
    for (int i = 0; i < c->nhw; i++)
        if (c->hw[i].fd >= 0 && !strcmp(c->hw[i].name, name)) return i;
    return -1;
}

static uint64_t read_fd(int fd)
{
    uint64_t v = 0;
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v) return 0;
    return v;
}

void pb_counters_start(const pb_counters *c, pb_reading *r)
{
    for (int i = 0; i < c->nhw; i++) r->hw[i] = read_fd(c->hw[i].fd);
    r->tsc = c->tsc_ok ? tsc_begin() : pb_now_ns();
}

void pb_counters_stop(const pb_counters *c, pb_reading *r)
{
    uint64_t t = c->tsc_ok ? tsc_end() : pb_now_ns();
    r->tsc = t - r->tsc;
    for (int i = 0; i < c->nhw; i++) r->hw[i] = read_fd(c->hw[i].fd) - r->hw[i];
}

double pb_probe_ticks(const pb_counters *c)
{
    if (!c->tsc_ok) return 0;
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t t = probe_once(0);
        if (t < best) best = t;
    }
    double v = (double)best - c->probe_overhead;
    return v > 0 ? v : (double)best;
}

double pb_tprobe_ticks(const pb_counters *c)
{
    if (!c->tsc_ok) return 0;
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        uint64_t t = tprobe_once();
        if (t < best) best = t;
    }
    double v = (double)best - c->probe_overhead;
    return v > 0 ? v : (double)best;
}

void pb_counters_describe(const pb_counters *c, char *buf, size_t len)
{
    size_t off = (size_t)snprintf(buf, len, "ticks: %s", c->tick_source);
    for (int i = 0; i < c->nhw && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "; %s: %s", c->hw[i].name, c->hw[i].status);
}

void pb_counters_brief(const pb_counters *c, char *buf, size_t len)
{
    size_t off;
    if (c->tsc_ok) off = (size_t)snprintf(buf, len, "ticks: TSC %.2f GHz (invariant)", c->tsc_hz / 1e9);
    else off = (size_t)snprintf(buf, len, "ticks: clock (the TSC is not invariant)");
    /* the counters grouped by what became of them, in the order asked: "cycles, instructions: no PMU" */
    for (int i = 0; i < c->nhw && off < len; i++) {
        int first = 1;
        for (int j = 0; j < i; j++) first &= strcmp(c->hw[j].brief, c->hw[i].brief) != 0;
        if (!first) continue;
        off += (size_t)snprintf(buf + off, len - off, "; %s", c->hw[i].name);
        for (int j = i + 1; j < c->nhw && off < len; j++)
            if (!strcmp(c->hw[j].brief, c->hw[i].brief))
                off += (size_t)snprintf(buf + off, len - off, ", %s", c->hw[j].name);
        if (off < len) off += (size_t)snprintf(buf + off, len - off, ": %s", c->hw[i].brief);
    }
}
