/* SPDX-License-Identifier: GPL-2.0-only */
/* dwarf_producers.h — the DW_AT_producer of every compilation unit of an ELF image (GCC writes its
 * version and switches there: "GNU C11 12.2.0 -march=x86-64 -O2 ..."), read with elfutils' libdw in a
 * forked child (pb_fork.h): the image is the user's and untrusted, and a reader that crashes or
 * loops on it costs the child, never bench. */
#ifndef PB_DWARF_PRODUCERS_H
#define PB_DWARF_PRODUCERS_H

#include <stddef.h>

#include "pb.h"

#define PB_DWARF_MAX_PRODUCERS 32
#define PB_DWARF_PRODUCER_MAX 2048
#define PB_DWARF_LIMIT_S 20

typedef struct pb_dwarf_producers {
    int n;                                  /* distinct producers, most units first */
    int units[PB_DWARF_MAX_PRODUCERS];      /* how many compilation units each */
    char text[PB_DWARF_MAX_PRODUCERS][PB_DWARF_PRODUCER_MAX];   /* printable ASCII only */
} pb_dwarf_producers;

/* buf[0..len-1], an ELF image (who names it in messages). 0 and *out (n 0: no DWARF, or no unit
 * names its producer), or -1 + e: the reader failed, crashed or ran past PB_DWARF_LIMIT_S. */
int pb_dwarf_producers_read(const char *who, const unsigned char *buf, size_t len, pb_dwarf_producers *out, pb_err *e);

#endif
