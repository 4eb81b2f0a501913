/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The results document, read from debugfs (<debugfs>/patchbench/results).
 *
 * Plain text, one fact per line, every line starting with "pbk1 " (the
 * format version; `bench import` ignores all other lines):
 *
 *   pbk1 meta KEY=VALUE
 *   pbk1 selftest impl=IMPL status=pass|fail detail=TEXT
 *   pbk1 sample suite=S impl=IMPL variant=V op=OP size=BYTES round=N iters=N ns=NS cycles=TICKS
 *   pbk1 unavailable suite=S impl=IMPL variant=V reason=TEXT
 *   pbk1 end
 *
 * Values never contain spaces (pb_token() replaces them). A document is
 * complete only once "pbk1 end" is present; each run starts a new one.
 */
#ifndef PB_KMOD_RESULTS_H
#define PB_KMOD_RESULTS_H

#include <linux/compiler.h>
#include <linux/types.h>

/* Free the buffer (module exit). */
void pb_results_exit(void);

/* Drop the previous document and start a new one. */
void pb_results_begin(void);

/* debugfs read of the current document. */
ssize_t pb_results_read(char __user *ubuf, size_t count, loff_t *ppos);

/* Append one line; "pbk1 " and the newline are added. */
__printf(1, 2) void pb_emit(const char *fmt, ...);

/*
 * Copy @in into @out (of @size bytes) with every character that is not
 * printable ASCII or is a space replaced by '_': a token safe in a line.
 */
const char *pb_token(char *out, size_t size, const char *in);

#endif /* PB_KMOD_RESULTS_H */
