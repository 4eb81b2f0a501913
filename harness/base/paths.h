/* SPDX-License-Identifier: GPL-2.0-only */
/* paths.h — where bench finds what it did not compile in: its data and its source tree. */
#ifndef PB_PATHS_H
#define PB_PATHS_H

#include <limits.h>
#include <stddef.h>

/* A path the caller keeps: the functions below that find one write it here (no static buffer, so
 * two threads or two lookups never share one). */
typedef struct {
    char s[PATH_MAX + 16];
} pb_path;

/* The folder of the documents' tables and the verdict settings: $PB_DATADIR, else the one meson
 * installed beside this bench (share/patchbench, found from bench's own path), else the source
 * tree's data/ (a bench in its build tree). Returns $PB_DATADIR or buf->s. */
const char *pb_data_dir(pb_path *buf);
/* The thresholds file gates read when neither --thresholds nor ./ci/thresholds is there: the one
 * installed beside this bench, else the source tree's ci/thresholds. Returns buf->s. */
const char *pb_thresholds_default(pb_path *buf);
/* The folder of the suite modules installed beside this bench (lib/.../patchbench) into out, if
 * it holds the file `probe`, else "" (a bench in its build tree has them beside itself). */
const char *pb_installed_module_dir(char *out, size_t cap, const char *probe);
/* The source tree (scripts/kmod/, the git history of runs): $PB_SOURCE_ROOT, else the tree this
 * bench was built from. */
const char *pb_source_root(void);

/* path as a page a person reads (a pull request's comment, a CI annotation) shows it, with no
 * absolute path of the machine that ran bench: relative to the current folder when it lies inside
 * it, else its last two parts behind ".../" (/tmp/x/build/harness/libpbsuites.so:
 * .../harness/libpbsuites.so); a relative path as it is. Returns out. */
const char *pb_path_shown(char *out, size_t cap, const char *path);
/* text with each absolute path in it (a word that begins with '/', after a space, '(' , '=' or a
 * quote) shown as pb_path_shown shows it; a ":LINE" after it is kept. Returns out. */
const char *pb_text_paths_shown(char *out, size_t cap, const char *text);

#endif
