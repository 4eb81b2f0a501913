/* SPDX-License-Identifier: GPL-2.0-only */
/* gz.h — gzip files (RFC 1952) through zlib, for the lab's JSON export (bench export --out FILE.gz)
 * and its import (bench import FILE.gz): one published run with every sample is tens of MB of
 * indented JSON, a tenth of that compressed. */
#ifndef PB_GZ_H
#define PB_GZ_H

#include <stddef.h>
#include <stdio.h>

#include "pb.h"

/* The most bytes a gzip file may hold once decompressed (bench import's limit): past it, refused. */
#define PB_GZ_MAX ((size_t)2 << 30)

/* A gzip stream written into f as it comes. Its header has no name and mtime 0, so that the same
 * bytes in give the same file out. */
typedef struct pb_gz_writer {
    FILE *f;
    void *z;       /* zlib's z_stream, NULL before pb_gz_open or after a failure */
    int failed;
} pb_gz_writer;

int pb_gz_open(pb_gz_writer *w, FILE *f, pb_err *e);
/* size bytes of buf compressed into f: 0, or -1 (the writer stays failed; pb_gz_close says so) */
int pb_gz_write(pb_gz_writer *w, const void *buf, size_t size);
/* the stream's end and trailer written: 0, or -1 + e; frees the writer's state either way */
int pb_gz_close(pb_gz_writer *w, pb_err *e);

/* 1 where the file starts with gzip's magic (1f 8b), 0 where not, -1 + errno where it cannot be read. */
int pb_gz_is_gzip(const char *path);

/* The whole decompressed content of gzip file path (every member), in *buf (malloc'd, NUL after it)
 * of *len bytes: 0, or -1 + e ("path: ...") where it cannot be read, is not a whole gzip stream or
 * holds more than limit bytes once decompressed. */
int pb_gz_read_file(const char *path, size_t limit, char **buf, size_t *len, pb_err *e);

#endif
