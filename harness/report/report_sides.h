/* SPDX-License-Identifier: GPL-2.0-only */
/* report_sides.h — whose code a run timed, in the md and HTML reports (docs/your-code.md): one line
 * per side (sha256, build-id, revision, label) and the build-parity verdict in one line. */
#ifndef PB_REPORT_SIDES_H
#define PB_REPORT_SIDES_H

#include <stdio.h>

#include "report_data.h"

/* Nothing where the run timed no user's file (the lab's own code: its identity is bench's). */
void pb_report_sides_md(FILE *md, const pb_report_data *d);
void pb_report_sides_html(FILE *f, const pb_report_data *d);

#endif
