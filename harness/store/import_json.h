/* SPDX-License-Identifier: GPL-2.0-only */
/* import_json.h — `bench import` of the lab's own JSON (`bench export --format json --full`): every
 * row of every run the file holds, written back into a store (dump.h's tree). The whole file is
 * read and checked before the store is opened, and every run of it goes in one transaction: a bad
 * file stores nothing. A run whose uuid the store holds already is skipped and counted, as `bench
 * merge` does. docs/outputs.md. */
#ifndef PB_IMPORT_JSON_H
#define PB_IMPORT_JSON_H

#include <stdint.h>

#include "pb.h"

/* Does the file look like JSON (its first byte after white space is '{', or it is gzip: bench export
 * --out FILE.gz)? 1, 0, -1 unreadable. */
int pb_import_is_json(const char *file);

typedef struct pb_import_json_counts {
    int imported, skipped;
    int64_t samples;
    int refused;            /* the file was at fault (exit 2), not the store */
} pb_import_json_counts;
/* The runs of file into the store at db (created or migrated as every storing command does).
 * 0, or -1 + e: "FILE:LINE: what" where the JSON does not parse, "FILE: store.runs[0].cases[2].ns:
 * what" where a field is not what the schema holds. */
int pb_import_json(const char *db, const char *file, pb_import_json_counts *n, pb_err *e);

#endif
