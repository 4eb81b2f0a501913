/* SPDX-License-Identifier: GPL-2.0-only */
/* migrate.h — inside store/ (store.c opens with it): the schema a store holds. Its version, what
 * that version requires (schema_check.c), and bringing it to PB_SCHEMA_VERSION (migrate.c). */
#ifndef PB_MIGRATE_H
#define PB_MIGRATE_H

#include "store.h"

/* The schema version of an open store (its back end's schema_version, db_impl.h): 0 for an empty
 * store, PB_STORE_REFUSED + e for one that is not ours, -1 + e where it cannot be read. */
int pb_schema_version(pb_store *s, pb_err *e);
/* Does the store hold what schema version `version` requires? At PB_SCHEMA_VERSION: every table
 * and view of the schema with every column. Older (before a migration): the relations only, by
 * name (their columns are what the migration adds); version 1 may lack the gate's tables, which
 * migration 1 -> 2 creates. `found`: the version the store said it was, for the message (it
 * differs where a migration in the open transaction made `version`). 0, or PB_STORE_REFUSED or -1, + e. */
int pb_schema_check(pb_store *s, int found, int version, pb_err *e);
/* Before anything writes: refuse a store that is not ours, is newer than this bench or lacks what
 * its version requires, and leave it exactly as it was. 0, -1 (unreadable) or PB_STORE_REFUSED, + e. */
int pb_schema_check_ours(pb_store *s, pb_err *e);
/* Brings the store to PB_SCHEMA_VERSION (or makes the schema of a new one) in one transaction,
 * checked whole before it commits: 0, PB_STORE_REFUSED or -1, + e. */
int pb_schema_ensure(pb_store *s, pb_err *e);

#endif
