/* SPDX-License-Identifier: GPL-2.0-only */
/* gz.c — see gz.h. deflate's own gzip wrapper (windowBits 15 + 16) writes the header: no name, no
 * comment, mtime 0 unless deflateSetHeader says otherwise, which nothing here does. */
#include "gz.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { GZ_CHUNK = 64 * 1024 };

int pb_gz_open(pb_gz_writer *w, FILE *f, pb_err *e)
{
    *w = (pb_gz_writer){.f = f};
    z_stream *z = calloc(1, sizeof *z);
    if (!z) return pb_errf(e, "out of memory");
    /* level 9: written once (a published file), read many times; memLevel 8 is zlib's default */
    if (deflateInit2(z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(z);
        return pb_errf(e, "cannot start zlib's deflate");
    }
    w->z = z;
    return 0;
}

/* what zlib has for f with flush (Z_NO_FLUSH or Z_FINISH): 0, or -1 where it cannot be written */
static int drain(pb_gz_writer *w, int flush)
{
    z_stream *z = w->z;
    unsigned char out[GZ_CHUNK];
    int rc;
    do {
        z->next_out = out;
        z->avail_out = sizeof out;
        rc = deflate(z, flush);
        if (rc == Z_STREAM_ERROR) return -1;
        size_t have = sizeof out - z->avail_out;
        if (have && fwrite(out, 1, have, w->f) != have) return -1;
    } while (z->avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    return 0;
}

int pb_gz_write(pb_gz_writer *w, const void *buf, size_t size)
{
    if (!w->z || w->failed) return -1;
    z_stream *z = w->z;
    const unsigned char *p = buf;
    while (size) {   /* avail_in is a uInt: a huge buffer goes in parts */
        uInt n = size > GZ_CHUNK ? GZ_CHUNK : (uInt)size;
        z->next_in = (unsigned char *)p;
        z->avail_in = n;
        if (drain(w, Z_NO_FLUSH) < 0) return w->failed = 1, -1;
        p += n;
        size -= n;
    }
    return 0;
}

int pb_gz_close(pb_gz_writer *w, pb_err *e)
{
    if (!w->z) return pb_errf(e, "no gzip stream");
    z_stream *z = w->z;
    int rc = w->failed ? -1 : 0;
    if (rc == 0) {
        z->next_in = NULL;
        z->avail_in = 0;
        rc = drain(w, Z_FINISH);
    }
    deflateEnd(z);
    free(z);
    w->z = NULL;
    return rc < 0 ? pb_errf(e, "cannot write the gzip stream") : 0;
}

int pb_gz_is_gzip(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    unsigned char m[2];
    size_t n = fread(m, 1, 2, f);
    int err = ferror(f) ? errno : 0;   /* a folder: EISDIR, said as such */
    fclose(f);
    if (err) return errno = err, -1;
    return n == 2 && m[0] == 0x1f && m[1] == 0x8b;
}

/* out grown to hold at least need bytes (and a NUL), never past limit + 1: 0, or -1 */
static int grow(char **out, size_t *cap, size_t need, size_t limit)
{
    if (need + 1 <= *cap) return 0;
    size_t c = *cap ? *cap : GZ_CHUNK;
    while (c < need + 1) c *= 2;
    if (c > limit + 2) c = limit + 2;
    char *p = realloc(*out, c);
    if (!p) return -1;
    *out = p;
    *cap = c;
    return 0;
}

typedef struct gz_in {
    const char *path;
    FILE *f;
    z_stream z;
    char *out;
    size_t len, cap, limit;
    unsigned char in[GZ_CHUNK];
} gz_in;

/* Inflate until the input ends: every member (gzip -c a b > ab.gz is one file), none cut short.
 * zlib may hold output back when the buffer fills: inflate is called again before reading more. */
static int inflate_all(gz_in *g, pb_err *e)
{
    int rc = Z_OK, full = 0;
    for (;;) {
        if (g->z.avail_in == 0 && !full) {
            g->z.avail_in = (uInt)fread(g->in, 1, sizeof g->in, g->f);
            g->z.next_in = g->in;
            if (ferror(g->f)) return pb_errf(e, "%s: cannot read: %s", g->path, strerror(errno));
            if (g->z.avail_in == 0) break;
        }
        if (rc == Z_STREAM_END && inflateReset(&g->z) != Z_OK) break;   /* the next member */
        if (grow(&g->out, &g->cap, g->len + GZ_CHUNK, g->limit) < 0) return pb_errf(e, "%s: out of memory", g->path);
        size_t room = g->cap - 1 - g->len;   /* at most limit + 1 - len: one byte past tells */
        g->z.next_out = (unsigned char *)g->out + g->len;
        g->z.avail_out = room > GZ_CHUNK ? GZ_CHUNK : (uInt)room;
        uInt before = g->z.avail_out;
        rc = inflate(&g->z, Z_NO_FLUSH);
        g->len += before - g->z.avail_out;
        full = g->z.avail_out == 0;
        if (g->len > g->limit) break;
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            return pb_errf(e, "%s: not a whole gzip stream (%s)", g->path, g->z.msg ? g->z.msg : zError(rc));
        if (rc == Z_BUF_ERROR || rc == Z_STREAM_END) full = 0;   /* nothing held back: read on */
    }
    if (g->len > g->limit) return pb_errf(e, "%s: more than %zu bytes once decompressed", g->path, g->limit);
    if (rc != Z_STREAM_END) return pb_errf(e, "%s: not a whole gzip stream (%s)", g->path, g->z.msg ? g->z.msg : "it ends early");
    return 0;
}

int pb_gz_read_file(const char *path, size_t limit, char **buf, size_t *len, pb_err *e)
{
    *buf = NULL;
    *len = 0;
    gz_in *g = calloc(1, sizeof *g);
    if (!g) return pb_errf(e, "%s: out of memory", path);
    g->path = path;
    g->limit = limit;
    int rc = -1;
    if (!(g->f = fopen(path, "rb"))) pb_errf(e, "%s: cannot open: %s", path, strerror(errno));
    else if (inflateInit2(&g->z, 15 + 32) != Z_OK) pb_errf(e, "%s: cannot start zlib's inflate", path);
    else {
        rc = inflate_all(g, e);
        inflateEnd(&g->z);
    }
    if (g->f) fclose(g->f);
    if (rc == 0) {
        if (!g->out && grow(&g->out, &g->cap, 0, limit) < 0) rc = pb_errf(e, "%s: out of memory", path);
        else {
            g->out[g->len] = '\0';
            *buf = g->out;
            *len = g->len;
            g->out = NULL;
        }
    }
    free(g->out);
    free(g);
    return rc;
}
