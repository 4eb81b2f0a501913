/* SPDX-License-Identifier: GPL-2.0-only */
/* reaper.c — see reaper.h */
#include "reaper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* bench's children now, into pids[cap]: their number (up to cap). From the kernel's list of each
 * thread's children, or, where the kernel keeps none (CONFIG_PROC_CHILDREN), from every process's
 * parent in /proc. */
static int list_children(pid_t *pids, int cap)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *de;
    int listed = 0;
    while (d && (de = readdir(d)) && n < cap) {
        if (de->d_name[0] == '.') continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/children", de->d_name);
        FILE *f = fopen(path, "re");
        if (!f) continue;
        listed = 1;
        long v;
        while (n < cap && fscanf(f, "%ld", &v) == 1) pids[n++] = (pid_t)v;
        fclose(f);
    }
    if (d) closedir(d);
    if (listed) return n;
    pid_t me = getpid();
    d = opendir("/proc");
    while (d && (de = readdir(d)) && n < cap) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9') continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%.20s/stat", de->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t r = read(fd, buf, sizeof buf - 1);
        close(fd);
        buf[r > 0 ? r : 0] = 0;
        const char *rp = strrchr(buf, ')');   /* the name may hold spaces and parentheses */
        long ppid;
        if (rp && sscanf(rp + 1, " %*c %ld", &ppid) == 1 && ppid == me) pids[n++] = (pid_t)atol(de->d_name);
    }
    if (d) closedir(d);
    return n;
}

#define PB_REAPER_CHILDREN_MAX 1024

/* Kill and reap every child of bench that is not in before[0..nb): what the program left running,
 * reparented to bench (the subreaper) when its parent ended. Each round's dead reparent their own
 * children to bench in turn, so rounds go on until none is new. The number killed. */
static int sweep(const pid_t *before, int nb)
{
    int total = 0;
    for (int round = 0; round < 10000; round++) {
        pid_t now[PB_REAPER_CHILDREN_MAX], gone[PB_REAPER_CHILDREN_MAX];
        int n = list_children(now, PB_REAPER_CHILDREN_MAX), k = 0;
        for (int i = 0; i < n; i++) {
            int known = 0;
            for (int j = 0; j < nb && !known; j++) known = now[i] == before[j];
            if (!known && kill(now[i], SIGKILL) == 0) gone[k++] = now[i];
        }
        if (!k) break;
        for (int i = 0; i < k; i++)
            while (waitpid(gone[i], NULL, 0) < 0 && errno == EINTR) {}
        total += k;
    }
    return total;
}

void pb_reaper_begin(pb_reaper *r)
{
    r->was_reaper = 0;
    prctl(PR_GET_CHILD_SUBREAPER, &r->was_reaper, 0, 0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    r->nbefore = list_children(r->before, PB_REAPER_CHILDREN_MAX);
}

int pb_reaper_end(pb_reaper *r)
{
    int n = sweep(r->before, r->nbefore);
    prctl(PR_SET_CHILD_SUBREAPER, r->was_reaper, 0, 0, 0);
    return n;
}
