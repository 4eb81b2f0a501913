/* SPDX-License-Identifier: GPL-2.0-only */
/* rsp.h — reader for NIST CAVP/CAVS-style .rsp files, shared by every suite's `bench kat`.
 *
 * Format: '#' comment lines; "[...]" section headers (a run of consecutive
 * headers forms one section: "[AES-128 use df]" "[PredictionResistance = False]");
 * "Name = value" lines; records separated by blank lines. A name may repeat
 * within a record (DRBG's two AdditionalInput lines): fields keep file order.
 *
 * Usage:
 *   pb_rsp *r = pb_rsp_open(path, &e);           // NULL + e on unreadable file
 *   pb_rsp_rec rec;
 *   while ((rc = pb_rsp_next(r, &rec, &e)) > 0) { ... pb_rsp_get(&rec, "Key", 0) ... }
 *   // rc == 0: end of file; rc < 0: malformed line or read error, e = "file:line: ..."
 *   pb_rsp_close(r);
 *
 * Strict by contract (one rule: refuse or read exactly): a line longer than
 * PB_LINE_MAX, a NUL byte, a carriage return inside a line (old Mac line
 * endings would otherwise hide every record in one comment line), a read error
 * (ENOMEM included: never taken for end of file) and a field name given twice
 * in one record (unless pb_rsp_allow_repeat named it) are errors, not guesses.
 * The reader never seeks, so it reads pipes as well as files.
 */
#ifndef PB_RSP_H
#define PB_RSP_H

#include <stdio.h>

#include "pb.h"

#define PB_RSP_MAX_FIELDS 64
#define PB_RSP_MAX_HDRS 16

typedef struct pb_rsp_field {
    char *name, *value;      /* trimmed; value may be "" */
    int line;
} pb_rsp_field;

typedef struct pb_rsp_rec {
    int line;                /* first line of the record */
    int nfields;
    pb_rsp_field f[PB_RSP_MAX_FIELDS];
    int nhdrs;               /* section headers in force, without brackets */
    const char *hdr[PB_RSP_MAX_HDRS];
} pb_rsp_rec;

typedef struct pb_rsp pb_rsp;

/* Longest line any of our text parsers accepts (bytes, without the newline). */
#define PB_LINE_MAX (1u << 20)

/* Read one line of any length up to `max` bytes into *buf (grown as needed).
 * The newline, and one carriage return before it, are removed; *len is the
 * length of what is left, which may contain NUL bytes (callers refuse them).
 * Returns 1 a line, 0 end of file, -1 read error or out of memory (errno set),
 * -2 the line is longer than max (the rest of it is not read). */
int pb_read_line(FILE *f, char **buf, size_t *cap, size_t max, size_t *len);

pb_rsp *pb_rsp_open(const char *path, pb_err *e);
/* Read from an open stream (taken over: pb_rsp_close closes it); `name` is
 * what messages call it. */
pb_rsp *pb_rsp_open_stream(FILE *f, const char *name, pb_err *e);
/* Let `name` repeat within a record (DRBG's AdditionalInput): it must be a
 * literal or outlive r. At most 8 names. */
void pb_rsp_allow_repeat(pb_rsp *r, const char *name);
int pb_rsp_next(pb_rsp *r, pb_rsp_rec *rec, pb_err *e);
void pb_rsp_close(pb_rsp *r);
const char *pb_rsp_path(const pb_rsp *r);

/* n-th (0-based) field called `name` in the record, or NULL. */
const char *pb_rsp_get(const pb_rsp_rec *rec, const char *name, int nth);
const pb_rsp_field *pb_rsp_field_of(const pb_rsp_rec *rec, const char *name, int nth);
/* Section header containing `prefix` at its start (e.g. "PredictionResistance"), or NULL. */
const char *pb_rsp_hdr(const pb_rsp_rec *rec, const char *prefix);
/* Decode a hex field; -1 + e ("file:line: field X is not hex") on failure. */
long pb_rsp_hex(const pb_rsp *r, const pb_rsp_rec *rec, const char *name, int nth,
                uint8_t **out, pb_err *e);

/* True if the file's comment or header lines contain `needle` in its first 4 KiB. */
int pb_rsp_sniff(const char *path, const char *needle);

#endif
