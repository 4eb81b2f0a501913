/* SPDX-License-Identifier: GPL-2.0-only */
/* fmt.h — numbers and sizes as people read them, for every table and plot label: fixed notation
 * (never 1.066e+04 beside 5972) and byte counts in binary units ("32 KiB", never "33kB"). */
#ifndef PB_FMT_H
#define PB_FMT_H

#include <stddef.h>
#include <stdint.h>

/* x in fixed notation with sig significant digits (1 <= sig <= 9), no exponent: 10660.3 -> "10660",
 * 5972.4 -> "5972", 0.012345 -> "0.01235", 0 -> "0"; NaN/inf -> "-". Returns buf. */
char *pb_fmt_sig(char *buf, size_t len, double x, int sig);

/* A byte count in binary units: 64 -> "64 B", 1024 -> "1 KiB", 1536 -> "1.5 KiB", 32768 -> "32 KiB",
 * 1048576 -> "1 MiB"; a count that is not a whole multiple of 1/2 unit stays in the smaller unit
 * (1000 -> "1000 B"). Negative -> "-". Returns buf. */
char *pb_fmt_bytes(char *buf, size_t len, int64_t n);

/* A cell as messages name it: "VARIANT OP N B" (the bytes exact, as --sizes takes them), or
 * "VARIANT OP" for a cell without a size (gbench, exec: 0), never "BM_fnv/4096 run 0 B". Returns buf. */
char *pb_fmt_cell(char *buf, size_t len, const char *variant, const char *op, uint64_t size);

/* A duration in ns in the unit that reads best, with three significant digits as hyperfine shows
 * them: 48 -> "48.0 ns", 7812 -> "7.81 µs", 32612345 -> "32.6 ms", 1.5e9 -> "1.50 s"; a value
 * that rounds up to 1000 of a unit moves to the next (999.7 ns -> "1.00 µs"). Negative values
 * keep their sign; NaN/inf -> "-". Returns buf. */
char *pb_fmt_ns(char *buf, size_t len, double ns);

#endif
