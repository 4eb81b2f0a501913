/* SPDX-License-Identifier: GPL-2.0-only */
/* paths.h — where bench finds what it did not compile in: its data and its source tree. */
#ifndef PB_PATHS_H
#define PB_PATHS_H

/* The folder of the documents' tables and the verdict settings: $PB_DATADIR, else the source
 * tree's data/. */
const char *pb_data_dir(void);
/* The source tree (scripts/kmod/, the git history of runs): $PB_SOURCE_ROOT, else the tree this
 * bench was built from. */
const char *pb_source_root(void);

#endif
