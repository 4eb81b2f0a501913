// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results document: a growing text buffer behind a mutex. See results.h.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "results.h"

#define PB_LINE_MAX 256

static DEFINE_MUTEX(pb_results_lock);
static char *pb_buf;
static size_t pb_len, pb_cap;

void pb_results_exit(void)
{
	mutex_lock(&pb_results_lock);
	kvfree(pb_buf);
	pb_buf = NULL;
	pb_len = pb_cap = 0;
	mutex_unlock(&pb_results_lock);
}

void pb_results_begin(void)
{
	mutex_lock(&pb_results_lock);
	pb_len = 0;
	mutex_unlock(&pb_results_lock);
}

/* Make room for @more bytes; the caller holds the lock. */
static bool pb_reserve(size_t more)
{
	size_t cap = pb_cap ? pb_cap : 64 * 1024;
	char *nbuf;

	if (pb_len + more <= pb_cap)
		return true;
	while (cap < pb_len + more)
		cap *= 2;
	nbuf = kvmalloc(cap, GFP_KERNEL);
	if (!nbuf)
		return false;
	if (pb_buf)
		memcpy(nbuf, pb_buf, pb_len);
	kvfree(pb_buf);
	pb_buf = nbuf;
	pb_cap = cap;
	return true;
}

void pb_emit(const char *fmt, ...)
{
	char line[PB_LINE_MAX];
	va_list ap;
	int n;

	n = scnprintf(line, sizeof(line), "pbk1 ");
	va_start(ap, fmt);
	n += vscnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	line[n++] = '\n';

	mutex_lock(&pb_results_lock);
	if (pb_reserve(n)) {
		memcpy(pb_buf + pb_len, line, n);
		pb_len += n;
	} else {
		pr_err("patchbench: out of memory for results, line lost\n");
	}
	mutex_unlock(&pb_results_lock);
}

ssize_t pb_results_read(char __user *ubuf, size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&pb_results_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, pb_buf, pb_len);
	mutex_unlock(&pb_results_lock);
	return ret;
}

const char *pb_token(char *out, size_t size, const char *in)
{
	size_t i;

	for (i = 0; i + 1 < size && in[i]; i++)
		out[i] = (in[i] > ' ' && in[i] < 0x7f) ? in[i] : '_';
	out[i] = '\0';
	return out;
}
