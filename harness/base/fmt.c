/* SPDX-License-Identifier: GPL-2.0-only */
/* fmt.c — numbers and sizes as people read them (fmt.h). */
#include "fmt.h"

#include <math.h>
#include <stdio.h>

char *pb_fmt_sig(char *buf, size_t len, double x, int sig)
{
    if (!isfinite(x)) { snprintf(buf, len, "-"); return buf; }
    if (x == 0) { snprintf(buf, len, "0"); return buf; }
    if (sig < 1) sig = 1;
    if (sig > 9) sig = 9;
    /* digits after the point so that sig digits show; rounding may carry into a new leading digit
     * (9.9996 -> 10.000), which one fewer decimal then absorbs */
    int mag = (int)floor(log10(fabs(x)));
    int dec = sig - 1 - mag;
    if (dec < 0) dec = 0;
    double rounded = dec > 0 ? x : round(x);
    if (dec > 0 && fabs(rounded) >= pow(10, mag + 1) - 0.5 * pow(10, -dec)) dec--;
    snprintf(buf, len, "%.*f", dec, dec > 0 ? x : rounded);
    return buf;
}

char *pb_fmt_bytes(char *buf, size_t len, int64_t n)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
    if (n < 0) { snprintf(buf, len, "-"); return buf; }
    int u = 0;
    int64_t div = 1;
    /* the larger unit only when it reads exactly: whole or half units */
    while (u < 3 && n >= div * 1024 && (n * 2) % (div * 1024) == 0) {
        div *= 1024;
        u++;
    }
    if (n % div == 0) snprintf(buf, len, "%lld %s", (long long)(n / div), units[u]);
    else snprintf(buf, len, "%.1f %s", (double)n / (double)div, units[u]);
    return buf;
}

char *pb_fmt_cell(char *buf, size_t len, const char *variant, const char *op, uint64_t size)
{
    if (size) snprintf(buf, len, "%s %s %llu B", variant, op, (unsigned long long)size);
    else snprintf(buf, len, "%s %s", variant, op);
    return buf;
}

char *pb_fmt_ns(char *buf, size_t len, double ns)
{
    static const char *const units[] = {"ns", "\u00b5s", "ms", "s"};
    if (!isfinite(ns)) { snprintf(buf, len, "-"); return buf; }
    double a = fabs(ns);
    int u = 0;
    /* 999.5 and up prints as 1000 with three digits: the next unit reads 1.00 */
    while (u < 3 && a >= 999.5) {
        a /= 1000;
        ns /= 1000;
        u++;
    }
    char num[32];
    if (a == 0) snprintf(num, sizeof num, "0");
    else pb_fmt_sig(num, sizeof num, ns, 3);
    snprintf(buf, len, "%s %s", num, units[u]);
    return buf;
}
