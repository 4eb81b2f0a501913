/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_git.h — the few questions bench asks git about a repository (the user's, where a timed binary
 * lives; the lab's own, for history): git found on $PATH and run through pb_spawn (an argv, never a
 * shell), with a time limit, its stderr kept out of bench's, and core.fsmonitor off (a repository's
 * config could name a program for git to run). Every answer is NUL-terminated text; "not known"
 * is 0, never an error: a binary outside any repository simply has no revision. */
#ifndef PB_GIT_H
#define PB_GIT_H

#include <stddef.h>

#define PB_GIT_LIMIT_S 30.0

/* The repository folder dir is in: its top folder in top[tcap] (git rev-parse --show-toplevel) and
 * its revision in rev[rcap] (git describe --always --dirty). 1, or 0 when dir is in none (or git
 * is not there). */
int pb_git_describe(const char *dir, char *top, size_t tcap, char *rev, size_t rcap);

/* The commit a revision names in the repository at top ("v1.2-3-gabc1234-dirty": the trailing
 * -dirty is dropped; any name git rev-parse reads), 40 hex digits in out: 1, or 0 when unknown. */
int pb_git_commit(const char *top, const char *rev, char out[41]);

/* The commits n revisions name (as pb_git_commit reads each: "" when unknown) into out[i], asked of
 * one git log for them all (a second only when two names reach one commit), never one process a
 * revision: a store of 1,000 nightly runs names 1,000 revisions. 0, or -1 when out of memory. */
int pb_git_commits(const char *top, const char *const *revs, size_t n, char (*out)[41]);

/* The order of n commits (40 hex digits each) in the repository's history, oldest first:
 * order[i] = the position of commits[i] in `git rev-list --topo-order --reverse` of them all,
 * counted from their common ancestor (git merge-base --octopus), so that the repository's older
 * history is never listed. 0, or -1 when git cannot order them (no common ancestor, no git). */
int pb_git_order(const char *top, char (*commits)[41], size_t n, long *order);

#endif
