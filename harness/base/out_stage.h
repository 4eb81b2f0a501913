/* SPDX-License-Identifier: GPL-2.0-only */
/* out_stage.h — how bench writes every file whose place a user names (bench report, history and
 * export --out): never through a symbolic link, never over a device, FIFO, socket or folder, never
 * half-way (docs/outputs.md).
 *
 * A command's files are made in a private folder of its own (.bench-XXXXXXXX, mode 0700) inside the
 * target folder, each created O_EXCL|O_NOFOLLOW, and renamed into the target folder when all of
 * them are whole, each only where its name is free or holds a regular file (checked with fstatat,
 * AT_SYMLINK_NOFOLLOW, when the file is staged and again just before the rename). The private
 * folder is on the target's own file system, so the rename replaces the old file in one step, and
 * nothing but this process writes in it, so a program bench starts (gnuplot) may write there by
 * name. A refused or failed command leaves the target folder as it was: its old files, and no
 * temporary one.
 *
 *   pb_stage st;
 *   if (pb_stage_open(&st, "plots", "--out", PB_STAGE_MKDIR, &e) < 0) ...  // st.refused: exit 2
 *   FILE *f = pb_stage_fopen(&st, "xts.md", &e);        // NULL + e; the target checked first
 *   ... write f, pb_stage_close_file(&st, f, "xts.md", &e) ...
 *   rc = pb_stage_commit(&st, &e);                      // every staged file renamed into place
 *   pb_stage_close(&st);                                // what was not committed is removed
 */
#ifndef PB_OUT_STAGE_H
#define PB_OUT_STAGE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "pb.h"

enum {
    PB_STAGE_MKDIR = 1,   /* create the target folder (one level) when it does not exist */
};

typedef struct pb_stage {
    int dirfd;           /* the target folder, opened O_DIRECTORY; -1 when not open */
    int fd;              /* the private folder in it; -1 until the first file is staged */
    const char *opt;     /* the option that named the place, for messages ("--out") */
    char dir[1024];      /* the target folder as the user named it */
    char shown[1030];    /* what messages put before a file's name: "dir/", or "" for the current folder */
    char name[32];       /* the private folder's name in dir */
    char path[1100];     /* dir/name: where a program started by bench writes, and readers read back */
    char (*files)[256];  /* the names staged, not yet committed */
    size_t n, cap;
    int refused;         /* a place was refused (not a folder, not a regular file): bad input, exit 2 */
    int made;            /* pb_stage_open created the target folder (PB_STAGE_MKDIR) */
    int committed;       /* files renamed into it so far */
} pb_stage;

/* Opens the target folder dir (a symbolic link to a folder, as the user named it, is followed: that
 * is the folder meant; inside it no link is ever followed). "", "-" or anything that is not a
 * folder is refused. 0, or -1 + e (refused set). opt names the option in messages. */
int pb_stage_open(pb_stage *s, const char *dir, const char *opt, int flags, pb_err *e);
/* The same for one file's path: its folder (which must exist) and, in *name, its last part; the
 * target is checked at once, so that a refused one creates nothing at all. */
int pb_stage_open_file(pb_stage *s, const char *path, const char *opt, const char **name, pb_err *e);

/* Whether name's place in the target folder may take a file: free, or a regular file (a link is
 * never followed). 0, or -1 + e with refused set. Nothing is made. */
int pb_stage_check(pb_stage *s, const char *name, pb_err *e);
/* A file another program writes into s->path under name: its target checked, the name recorded
 * for pb_stage_commit. 0, or -1 + e (refused set when the target is not a regular file). */
int pb_stage_add(pb_stage *s, const char *name, pb_err *e);
/* pb_stage_add, and the staged file created (O_CREAT|O_EXCL|O_NOFOLLOW, 0644): its descriptor, or -1 + e. */
int pb_stage_create(pb_stage *s, const char *name, pb_err *e);
/* pb_stage_create as a stdio stream; NULL + e. */
FILE *pb_stage_fopen(pb_stage *s, const char *name, pb_err *e);
/* fclose that reports any earlier failed write too (stdio keeps the error flag), naming the file
 * where it will be: 0, or -1 + e. */
int pb_stage_fclose(pb_stage *s, FILE *f, const char *name, pb_err *e);

/* Renames every staged file into the target folder, after checking that each was written and that
 * each target is still free or a regular file (if any is not, none is renamed). 0, or -1 + e. */
int pb_stage_commit(pb_stage *s, pb_err *e);
/* The same for one staged file only (a failed gnuplot's log, kept to be read). */
int pb_stage_commit_one(pb_stage *s, const char *name, pb_err *e);
/* Removes every staged file not yet committed. */
void pb_stage_discard(pb_stage *s);
/* pb_stage_discard, then the private folder with anything else in it, and the descriptors; and the
 * target folder too when pb_stage_open made it and nothing was committed into it (a refused or
 * failed command leaves no empty folder behind). */
void pb_stage_close(pb_stage *s);

/* Appends n bytes of buf to the file at path, which is created (0644 less the umask) when missing:
 * what is there stays, and this follows it ($GITHUB_STEP_SUMMARY, which the CI runner made and
 * other steps append to: docs/outputs.md). Never through a symbolic link (the last part of path is
 * not followed), never to a device, FIFO, socket or folder (a FIFO is not even waited on). what
 * names the place in messages ("$GITHUB_STEP_SUMMARY"). 0, or -1 + e, with *refused set when the
 * place is refused (exit 2) rather than a write failed (exit 1). An append cannot be made whole
 * or nothing: a write that fails part-way leaves what it wrote. */
int pb_append_file(const char *path, const char *what, const void *buf, size_t n, int *refused, pb_err *e);

/* What a file of mode m is, for a message that refuses it: "a symbolic link", "a FIFO", "a folder",
 * "a character device", ... */
const char *pb_file_kind(mode_t m);

/* "dir/name" as messages name a file of the target folder, into buf. */
const char *pb_stage_shown(const pb_stage *s, const char *name, char *buf, size_t cap);
/* Where the staged file name is now, for reading it back (the HTML page inlines an SVG). */
const char *pb_stage_staged_path(const pb_stage *s, const char *name, char *buf, size_t cap);

#endif
