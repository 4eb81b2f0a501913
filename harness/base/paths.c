/* SPDX-License-Identifier: GPL-2.0-only */
#include "paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "pb.h"
#include "pb_config.h"

/* The build's own paths are writable arrays of a fixed size, in .data and not .rodata: the suite
 * module links this file, and the code layouts place .rodata ahead of the code and .bss behind
 * .data, so a constant as long as the checkout's path would set two builds' functions (or their
 * static data) apart by the difference of their paths (docs/layout.md). */
#define BUILT_PATH_MAX 4096
_Static_assert(sizeof PB_SOURCE_ROOT + sizeof "/data" <= BUILT_PATH_MAX, "the source tree's path is too long");
static PB_LAYOUT_DATA char built_data_dir[BUILT_PATH_MAX] = PB_SOURCE_ROOT "/data";
static PB_LAYOUT_DATA char built_source_root[BUILT_PATH_MAX] = PB_SOURCE_ROOT;

/* An installed bench finds what meson installed beside it, relative to its own path (so an
 * installed tree can move, and never reads the build or source tree): PB_INSTALLED_DATADIR and
 * PB_INSTALLED_MODULEDIR are relative to the folder bench is installed in (pb_config.h, set from
 * the install dirs), or absolute when meson was given dirs outside the prefix. *out is that folder
 * if `probe` is readable in it, else "". */
static const char *installed(char *out, size_t cap, const char *rel, const char *probe)
{
    out[0] = 0;
    char exe[PATH_MAX], p[PATH_MAX + 256];
    if (rel[0] == '/') snprintf(exe, sizeof exe, "%s", rel);
    else {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) return out;
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (!slash) return out;
        snprintf(slash + 1, sizeof exe - (size_t)(slash + 1 - exe), "%s", rel);
    }
    char real[PATH_MAX];
    if ((size_t)snprintf(p, sizeof p, "%s/%s", exe, probe) < sizeof p && access(p, R_OK) == 0)
        snprintf(out, cap, "%s", realpath(exe, real) ? real : exe);   /* no "bin/../" in what is shown */
    return out;
}

const char *pb_data_dir(pb_path *buf)
{
    const char *d = getenv("PB_DATADIR");
    if (d) return d;
    if (!installed(buf->s, sizeof buf->s, PB_INSTALLED_DATADIR, "xts_doc.tsv")[0])
        snprintf(buf->s, sizeof buf->s, "%s", built_data_dir);
    return buf->s;
}

const char *pb_thresholds_default(pb_path *buf)
{
    char dir[PATH_MAX];
    if (installed(dir, sizeof dir, PB_INSTALLED_DATADIR, "thresholds")[0])
        snprintf(buf->s, sizeof buf->s, "%.*s/thresholds", (int)sizeof dir, dir);
    else snprintf(buf->s, sizeof buf->s, "%s/ci/thresholds", built_source_root);
    return buf->s;
}

const char *pb_installed_module_dir(char *out, size_t cap, const char *probe)
{
    return installed(out, cap, PB_INSTALLED_MODULEDIR, probe);
}

const char *pb_source_root(void)
{
    const char *r = getenv("PB_SOURCE_ROOT");
    return r ? r : built_source_root;
}

const char *pb_path_shown(char *out, size_t cap, const char *path)
{
    char cwd[4096];
    size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
    if (path[0] != '/') snprintf(out, cap, "%s", path);
    else if (n > 1 && !strncmp(path, cwd, n) && path[n] == '/' && path[n + 1]) snprintf(out, cap, "%s", path + n + 1);
    else {
        /* the last two parts: from the slash before the last slash */
        const char *last = strrchr(path, '/'), *prev = NULL;
        for (const char *p = last; !prev && p > path;)
            if (*--p == '/') prev = p;
        snprintf(out, cap, ".../%s", (prev ? prev : last) + 1);
    }
    return out;
}

/* where a path in a text may begin, and what ends it */
static int path_starts_after(char c) { return strchr(" \t\n(='\"[", c) != NULL; }
static int path_ends_at(char c) { return !c || strchr(" \t\n)'\",;]", c) != NULL; }

const char *pb_text_paths_shown(char *out, size_t cap, const char *text)
{
    size_t w = 0;
    if (!cap) return out;
    out[0] = 0;
    for (const char *p = text ? text : ""; *p && w + 1 < cap;) {
        if (*p != '/' || (p > text && !path_starts_after(p[-1]))) {
            out[w++] = *p++;
            continue;
        }
        size_t len = 0;
        while (!path_ends_at(p[len])) len++;
        /* a ":LINE" at its end is the line of a file, not part of its name */
        size_t name = len;
        while (name > 0 && p[name - 1] >= '0' && p[name - 1] <= '9') name--;
        if (name == len || name == 0 || p[name - 1] != ':') name = len;
        else name--;
        char path[4096], shown[4096];
        snprintf(path, sizeof path, "%.*s", (int)(name < sizeof path ? name : sizeof path - 1), p);
        pb_path_shown(shown, sizeof shown, path);
        int k = snprintf(out + w, cap - w, "%s%.*s", shown, (int)(len - name), p + name);
        w += k > 0 ? ((size_t)k < cap - w ? (size_t)k : cap - w - 1) : 0;
        p += len;
    }
    out[w] = 0;
    return out;
}
