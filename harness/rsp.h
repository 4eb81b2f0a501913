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
 *   // rc == 0: end of file; rc < 0: malformed line, e = "file:line: ..."
 *   pb_rsp_close(r);
 */
#ifndef PB_RSP_H
#define PB_RSP_H

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

pb_rsp *pb_rsp_open(const char *path, pb_err *e);
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
