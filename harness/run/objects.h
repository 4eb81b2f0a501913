/* SPDX-License-Identifier: GPL-2.0-only */
/* objects.h — the identity of the user's code a run times (docs/your-code.md): for every binary or
 * shared object a suite names for an impl (suite.h user_object: a gbench or exec side's program, a
 * plug-in, a libgcrypt build by path), what it is byte for byte (sha256, size, the ELF build-id),
 * how it was built where it records that (the compiler and switches of DW_AT_producer or
 * .GCC.command.line, .comment, the sonames it links, its build type) and which revision of which
 * repository it lives in (git describe). Then the build-parity check (parity.h) of the sides that
 * are compared, before anything is timed; both are stored with the run (store.h). */
#ifndef PB_OBJECTS_H
#define PB_OBJECTS_H

#include <stdint.h>

#include "pb.h"
#include "store.h"
#include "suite.h"

/* Files larger than this are hashed but not parsed. */
#define PB_OBJECT_PARSE_MAX (1024ull << 20)

/* Identifies path as impl's object into *o (store.h pb_object_row): never fails; what cannot be
 * read is said in o->elf ("unreadable: ..."; "cannot read: ..."). */
void pb_object_identify(const char *impl, const char *path, pb_object_row *o);

/* The user's objects of a run: one row per impl of the grid that the suite names a file for. */
typedef struct pb_objects {
    pb_object_row *v;
    int n;
    char parity[PB_PARITY_MAX];   /* the build-parity warnings, one a line; "" none */
} pb_objects;

/* Every impl of g that is user code with a file (suite.h user_object), identified; then the
 * build-parity check: the suite's baseline against its candidate and real_baseline against
 * real_candidate where both are user objects, and every other object against the suite's own
 * build profile (own_cflags), if it has one. 0, or -1 + e (out of memory). */
int pb_objects_collect(const pb_suite *s, const void *opts, const pb_grid *g, pb_objects *out, pb_err *e);
void pb_objects_free(pb_objects *o);

/* The run's user revision: rev_opt (--revision) if given, else the revision of the candidate's
 * object, else of the first object that has one; its repository in repo (may stay ""). */
void pb_objects_user_revision(const pb_objects *o, const char *candidate, const char *rev_opt, char *rev, size_t rcap,
                              char *repo, size_t pcap);

#endif
