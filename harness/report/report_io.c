/* SPDX-License-Identifier: GPL-2.0-only */
/* report_io.c — the report's file helpers that every renderer uses: a checked close, and removing
 * a failed report's outputs. */
#include "report_data.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* a report that failed leaves no figure or table behind that could pass for a whole one */
void pb_report_remove_outputs(const pb_report_figures *fig, const char *out_dir, const char *suite)
{
    unlink(fig->ratio_png);
    unlink(fig->ratio_svg);
    unlink(fig->png);
    unlink(fig->svg);
    for (const pb_renderer *r = pb_renderers; r->name; r++) {
        if (r->kind != PB_RENDER_SUITE) continue;
        char path[1100];
        pb_renderer_path(r, out_dir, suite, path, sizeof path);
        unlink(path);
    }
}

/* fclose that reports any earlier failed write too (stdio keeps the error flag) */
int pb_report_close_checked(FILE *f, const char *name, pb_err *e)
{
    int failed = ferror(f);
    int err = errno;
    if (fclose(f) != 0) { failed = 1; err = errno; }
    return failed ? pb_errf(e, "cannot write %s: %s", name, strerror(err)) : 0;
}
