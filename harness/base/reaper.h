/* SPDX-License-Identifier: GPL-2.0-only */
/* reaper.h — nothing foreign code starts outlives it. While bench runs such code (a spawned
 * program, pb_spawn.h; a forked child that loads a plug-in, pb_fork.h), bench is its descendants'
 * subreaper (prctl PR_SET_CHILD_SUBREAPER): whatever they leave behind, even after setsid() or a
 * double fork (a daemon), is reparented to bench when its parent ends, and is killed and reaped at
 * pb_reaper_end. A cgroup would do the same with cgroup.kill, but it needs a cgroup v2 tree bench
 * may write to, which an unprivileged user or a container often lacks; the subreaper needs no
 * privilege. It assumes no other thread of bench starts processes meanwhile (a child bench did not
 * have at pb_reaper_begin is taken for the foreign code's). */
#ifndef PB_REAPER_H
#define PB_REAPER_H

#include <sys/types.h>

#define PB_REAPER_CHILDREN_MAX 1024

typedef struct pb_reaper {
    int was_reaper;                          /* restored at the end: a caller's own setting */
    int nbefore;
    pid_t before[PB_REAPER_CHILDREN_MAX];    /* bench's children of before: not the code's */
} pb_reaper;

/* bench becomes the subreaper; its children now are remembered as its own */
void pb_reaper_begin(pb_reaper *r);
/* Kill and reap every child of bench that is not one of before (what the code left behind), and
 * restore the subreaper setting: the number killed. Call it once the code's own child is reaped. */
int pb_reaper_end(pb_reaper *r);

#endif
