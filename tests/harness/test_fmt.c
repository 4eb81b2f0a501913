/* SPDX-License-Identifier: GPL-2.0-only */
/* Numbers and sizes as the report prints them (fmt.h): fixed notation, binary units. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "../lib/check.h"

static void want(const char *got, const char *exp, const char *what)
{
    CHECK(!strcmp(got, exp), "%s: got '%s', want '%s'", what, got, exp);
}

int main(void)
{
    char b[64];
    /* the pair: never 1.066e+04 beside 5972 */
    want(pb_fmt_sig(b, sizeof b, 10660.3, 4), "10660", "10660.3");
    want(pb_fmt_sig(b, sizeof b, 5972.4, 4), "5972", "5972.4");
    want(pb_fmt_sig(b, sizeof b, 1234567.8, 4), "1234568", "large stays fixed");
    want(pb_fmt_sig(b, sizeof b, 0.5, 4), "0.5000", "0.5");
    want(pb_fmt_sig(b, sizeof b, 0.00012346, 4), "0.0001235", "small stays fixed");
    want(pb_fmt_sig(b, sizeof b, 9.9996, 4), "10.00", "rounding carries into a new digit");
    want(pb_fmt_sig(b, sizeof b, -2.5, 3), "-2.50", "negative");
    want(pb_fmt_sig(b, sizeof b, 0, 4), "0", "zero");
    want(pb_fmt_sig(b, sizeof b, NAN, 4), "-", "NaN");
    want(pb_fmt_bytes(b, sizeof b, 64), "64 B", "64");
    want(pb_fmt_bytes(b, sizeof b, 512), "512 B", "512");
    want(pb_fmt_bytes(b, sizeof b, 1000), "1000 B", "1000");
    want(pb_fmt_bytes(b, sizeof b, 1536), "1.5 KiB", "1536");
    want(pb_fmt_bytes(b, sizeof b, 32768), "32 KiB", "32768, not 33kB");
    want(pb_fmt_bytes(b, sizeof b, 1048576), "1 MiB", "1 MiB");
    want(pb_fmt_bytes(b, sizeof b, -1), "-", "negative");
    want(pb_fmt_ns(b, sizeof b, 48), "48.0 ns", "48 ns");
    want(pb_fmt_ns(b, sizeof b, 7812), "7.81 \u00b5s", "7.8 us");
    want(pb_fmt_ns(b, sizeof b, 32612345), "32.6 ms", "hyperfine's 32.6 ms");
    want(pb_fmt_ns(b, sizeof b, 30288489), "30.3 ms", "the issue's raw 30288489 ns");
    want(pb_fmt_ns(b, sizeof b, 1.5e9), "1.50 s", "seconds");
    want(pb_fmt_ns(b, sizeof b, 999.7), "1.00 \u00b5s", "rounding moves to the next unit");
    want(pb_fmt_ns(b, sizeof b, 2.5e12), "2500 s", "no unit past seconds");
    want(pb_fmt_ns(b, sizeof b, -2e6), "-2.00 ms", "negative");
    want(pb_fmt_ns(b, sizeof b, 0), "0 ns", "zero");
    want(pb_fmt_ns(b, sizeof b, NAN), "-", "NaN ns");
    return check_summary();
}
