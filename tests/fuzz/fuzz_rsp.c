/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_rsp.c — libFuzzer target for the .rsp reader (harness/base/rsp.c).
 *
 * Reads every record and decodes every field as hex. Beyond "no crash": a
 * record never holds a field name twice unless it was allowed to repeat, no
 * name is empty, and a refusal always carries a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
    if (!f) return 0;
    pb_err e = {{0}};
    pb_rsp *r = pb_rsp_open_stream(f, "fuzz.rsp", &e);
    if (!r) return 0;
    pb_rsp_allow_repeat(r, "AdditionalInput");
    pb_rsp_rec rec;
    int rc;
    while ((rc = pb_rsp_next(r, &rec, &e)) > 0) {
        if (rec.nfields < 1 || rec.line < 1) abort();
        for (int i = 0; i < rec.nfields; i++) {
            if (!rec.f[i].name[0] || strchr(rec.f[i].name, '\r')) abort();
            if (strcmp(rec.f[i].name, "AdditionalInput"))
                for (int j = 0; j < i; j++)
                    if (!strcmp(rec.f[i].name, rec.f[j].name)) abort();
            uint8_t *bytes = NULL;
            pb_err he = {{0}};
            if (pb_rsp_hex(r, &rec, rec.f[i].name, 0, &bytes, &he) >= 0) free(bytes);
            else if (!he.msg[0]) abort();
        }
        for (int i = 0; i < rec.nhdrs; i++)
            if (!rec.hdr[i]) abort();
    }
    if (rc < 0 && !e.msg[0]) abort();
    pb_rsp_close(r);
    return 0;
}
