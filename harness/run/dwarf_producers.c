/* SPDX-License-Identifier: GPL-2.0-only */
/* dwarf_producers.c — see dwarf_producers.h. The child fills a pb_dwarf_producers and writes it
 * whole into a memfd it shares with bench; bench reads it back and trusts nothing in it but what it
 * checks (the count, the units, each text's terminating NUL). */
#include "dwarf_producers.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pb_fork.h"

typedef struct dw_job {
    const unsigned char *buf;
    size_t len;
    int fd;
} dw_job;

static void add_producer(pb_dwarf_producers *r, const char *p)
{
    char t[PB_DWARF_PRODUCER_MAX];
    size_t k = 0;
    for (const unsigned char *s = (const unsigned char *)p; *s && k + 1 < sizeof t; s++)
        t[k++] = *s >= 0x20 && *s < 0x7f ? (char)*s : '?';
    t[k] = 0;
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->text[i], t)) {
            r->units[i]++;
            return;
        }
    if (r->n == PB_DWARF_MAX_PRODUCERS) return;   /* the most frequent are the first ones met, mostly */
    snprintf(r->text[r->n], sizeof r->text[0], "%s", t);
    r->units[r->n++] = 1;
}

/* most units first; equal counts keep the order they were met in */
static void sort_producers(pb_dwarf_producers *r)
{
    for (int i = 1; i < r->n; i++)
        for (int j = i; j > 0 && r->units[j] > r->units[j - 1]; j--) {
            int u = r->units[j];
            r->units[j] = r->units[j - 1];
            r->units[j - 1] = u;
            char t[PB_DWARF_PRODUCER_MAX];
            memcpy(t, r->text[j], sizeof t);
            memcpy(r->text[j], r->text[j - 1], sizeof t);
            memcpy(r->text[j - 1], t, sizeof t);
        }
}

static int read_units(Dwarf *dw, pb_dwarf_producers *r, pb_err *e)
{
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie;
    uint8_t unit_type;
    int rc;
    while ((rc = dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, NULL)) == 0) {
        Dwarf_Attribute a;
        const char *p = dwarf_attr(&cudie, DW_AT_producer, &a) ? dwarf_formstring(&a) : NULL;
        if (p) add_producer(r, p);
    }
    return rc < 0 ? pb_errf(e, "libdw: %s", dwarf_errmsg(-1)) : 0;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* in the child */
static int dw_child(void *arg, pb_err *e)
{
    const dw_job *j = arg;
    pb_dwarf_producers *r = calloc(1, sizeof *r);
    if (!r) return pb_errf(e, "out of memory");
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory((char *)j->buf, j->len);
    if (!elf) {
        free(r);
        return pb_errf(e, "libelf: %s", elf_errmsg(-1));
    }
    Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    int rc = dw ? read_units(dw, r, e) : 0;   /* no DWARF at all: no producer */
    if (dw) dwarf_end(dw);
    elf_end(elf);
    sort_producers(r);
    if (rc == 0 && write_all(j->fd, r, sizeof *r) < 0) rc = pb_errf(e, "cannot hand the producers back");
    free(r);
    return rc;
}

static int check_back(pb_dwarf_producers *out)
{
    if (out->n < 0 || out->n > PB_DWARF_MAX_PRODUCERS) return -1;
    for (int i = 0; i < out->n; i++) {
        if (out->units[i] < 1) return -1;
        out->text[i][PB_DWARF_PRODUCER_MAX - 1] = 0;
    }
    return 0;
}

int pb_dwarf_producers_read(const char *who, const unsigned char *buf, size_t len, pb_dwarf_producers *out, pb_err *e)
{
    memset(out, 0, sizeof *out);
    int fd = memfd_create("pb-dwarf-producers", MFD_CLOEXEC);
    if (fd < 0) return pb_errf(e, "%s: memfd_create: %s", who, strerror(errno));
    dw_job j = {buf, len, fd};
    int rc = pb_fork_run(who, "reading its DWARF", PB_DWARF_LIMIT_S, dw_child, &j, e);
    if (rc == 0 && (pread(fd, out, sizeof *out, 0) != (ssize_t)sizeof *out || check_back(out) < 0)) {
        memset(out, 0, sizeof *out);
        rc = pb_errf(e, "%s: the DWARF reader handed back nothing readable", who);
    }
    close(fd);
    return rc;
}
