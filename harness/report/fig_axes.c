/* SPDX-License-Identifier: GPL-2.0-only */
/* fig_axes.c — the figures' y axes as a reader reads them: a ratio axis (log 2) ticked 1/4, 1/2,
 * 0.8, 1, 1.25, 2 rather than gnuplot's 0.015625, and a time axis in the unit its values are
 * read in (ms, not 7e+08 ns). Shared by the report's figures (report_gnuplot.c) and the machines'
 * (machines_plot.c). */
#include "report_data.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics.h"

/* A ratio axis narrower than this factor (largest over smallest) gets the decimal tics between
 * the powers of 2 too: within 0.6 to 1.6 the powers alone leave the 1 on its own. */
#define FIG_NARROW_SPAN 8.0

void pb_fig_ratio_tics(FILE *gp, double lo, double hi)
{
    static const double between[] = {0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 1.1, 1.25, 1.5, 3};
    int narrow = lo > 0 && hi > lo && hi / lo <= FIG_NARROW_SPAN, first = 1;
    fputs("set ytics (", gp);
    for (int k = -12; k <= 12; k++) {
        if (k < 0) fprintf(gp, "%s'1/%d' %.10g", first ? "" : ", ", 1 << -k, ldexp(1, k));
        else fprintf(gp, "%s'%d' %d", first ? "" : ", ", 1 << k, 1 << k);
        first = 0;
    }
    for (size_t i = 0; narrow && i < sizeof between / sizeof between[0]; i++)
        fprintf(gp, ", '%g' %g", between[i], between[i]);
    fputs(")\nset mytics default\n", gp);
}

double pb_fig_time_unit(const char *metric, double hi, const char **unit)
{
    static const struct { double div; const char *name; } units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "\u00b5s"}};
    const pb_metric *pm = pb_metric_find(metric);
    *unit = NULL;
    if (!pm || strcmp(pm->unit, "ns")) return 1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (hi >= units[i].div) { *unit = units[i].name; return units[i].div; }
    *unit = "ns";
    return 1;
}
