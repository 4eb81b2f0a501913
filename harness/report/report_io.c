/* SPDX-License-Identifier: GPL-2.0-only */
/* report_io.c — the report's file helpers that every renderer uses: a checked close, and removing
 * a failed report's outputs. */
#include "report_data.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* a report that failed leaves no plot or table behind that could pass for a whole one */
void pb_report_remove_outputs(const pb_report_paths *p)
{
    unlink(p->ratio_png);
    unlink(p->ratio_svg);
    unlink(p->png);
    unlink(p->svg);
    unlink(p->md);
}

/* fclose that reports any earlier failed write too (stdio keeps the error flag) */
int pb_report_close_checked(FILE *f, const char *name, pb_err *e)
{
    int failed = ferror(f);
    int err = errno;
    if (fclose(f) != 0) { failed = 1; err = errno; }
    return failed ? pb_errf(e, "cannot write %s: %s", name, strerror(err)) : 0;
}
