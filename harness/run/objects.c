/* SPDX-License-Identifier: GPL-2.0-only */
/* objects.c — see objects.h. The file is read once, as it is when the run starts: hashed, its ELF
 * structure read with bounds checks (elf_read.h), its DWARF in a child (dwarf_producers.h). */
#include "objects.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dwarf_producers.h"
#include "elf_read.h"
#include "parity.h"
#include "pb_config.h"
#include "pb_git.h"

/* ---- the bytes: sha256, and the file in memory when it is small enough to parse ---- */

typedef struct file_bytes {
    unsigned char *buf;   /* NULL: too large to parse, or unreadable */
    size_t len;
} file_bytes;

static void hex(char *out, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* Reads fd to its end, hashing every byte, keeping them in fb when the file is at most
 * PB_OBJECT_PARSE_MAX. 0, or -1 + why. */
static int hash_fd(int fd, off_t size, pb_object_row *o, file_bytes *fb, char *why, size_t cap)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        return snprintf(why, cap, "cannot hash it (OpenSSL)"), -1;
    }
    int keep = (unsigned long long)size <= PB_OBJECT_PARSE_MAX;
    size_t cap_b = keep ? (size_t)size + 1 : 1u << 20, got = 0;
    unsigned char *buf = malloc(cap_b ? cap_b : 1);
    int rc = buf ? 0 : (snprintf(why, cap, "out of memory"), -1);
    while (rc == 0) {
        if (keep && got == cap_b) break;   /* grew while read: what was there at the size it had */
        ssize_t r = read(fd, buf + (keep ? got : 0), keep ? cap_b - got : cap_b);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) rc = (snprintf(why, cap, "read: %s", strerror(errno)), -1);
        if (r <= 0) break;
        EVP_DigestUpdate(ctx, buf + (keep ? got : 0), (size_t)r);
        if (keep) got += (size_t)r;
        o->size += r;
    }
    unsigned char md[32];
    unsigned int mdn = 0;
    if (rc == 0 && EVP_DigestFinal_ex(ctx, md, &mdn) == 1 && mdn == 32) hex(o->sha256, md, 32);
    EVP_MD_CTX_free(ctx);
    if (rc == 0 && keep) {
        fb->buf = buf;
        fb->len = got;
        return 0;
    }
    free(buf);
    return rc;
}

static void read_file(const char *path, pb_object_row *o, file_bytes *fb)
{
    char why[200];
    fb->buf = NULL;
    fb->len = 0;
    o->size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        snprintf(o->elf, sizeof o->elf, "cannot read: %s", strerror(errno));
        o->size = -1;
        if (fd >= 0) close(fd);
        return;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(o->elf, sizeof o->elf, "cannot read: not a regular file");
        o->size = -1;
    } else if (hash_fd(fd, sb.st_size, o, fb, why, sizeof why) < 0) {
        snprintf(o->elf, sizeof o->elf, "cannot read: %s", why);
    } else if (!fb->buf) {
        snprintf(o->elf, sizeof o->elf, "not parsed: larger than %llu MiB", PB_OBJECT_PARSE_MAX >> 20);
    }
    close(fd);
}

/* ---- how it was built ---- */

static void producers_text(pb_object_row *o, const pb_dwarf_producers *dp)
{
    for (int i = 0; i < dp->n; i++) {
        size_t k = strlen(o->producers);
        snprintf(o->producers + k, sizeof o->producers - k, "%s%d unit%s: %s", k ? "\n" : "", dp->units[i],
                 dp->units[i] == 1 ? "" : "s", dp->text[i]);
    }
}

/* The compiler and switches of the first producer that names a compiler (not an assembler). */
static void from_producers(pb_object_row *o, const pb_dwarf_producers *dp)
{
    for (int i = 0; i < dp->n; i++) {
        const char *flags;
        if (!pb_parity_compiler(dp->text[i], o->compiler, sizeof o->compiler, &flags)) continue;
        snprintf(o->flags, sizeof o->flags, "%s", flags);
        if (*flags) snprintf(o->flags_source, sizeof o->flags_source, "DW_AT_producer");
        return;
    }
}

/* .GCC.command.line's first record, where DWARF gave no switches */
static void from_cmdline(pb_object_row *o, const pb_elf_info *ei)
{
    if (o->flags[0] || !ei->cmdline[0]) return;
    char rec[PB_ELF_TEXT_MAX], comp[256];
    snprintf(rec, sizeof rec, "%.*s", (int)(strstr(ei->cmdline, " ; ") ? strstr(ei->cmdline, " ; ") - ei->cmdline
                                                                        : (long)strlen(ei->cmdline)), ei->cmdline);
    const char *flags = rec;
    if (pb_parity_compiler(rec, comp, sizeof comp, &flags) && !strncmp(rec, "GNU ", 4) && !o->compiler[0])
        snprintf(o->compiler, sizeof o->compiler, "%s", comp);
    if (strncmp(rec, "GNU ", 4)) flags = rec;   /* another compiler's record: its words as they are */
    snprintf(o->flags, sizeof o->flags, "%s", flags);
    snprintf(o->flags_source, sizeof o->flags_source, ".GCC.command.line");
}

/* .comment's compilers, where neither record names one: "gcc 12.2.0", or several */
static void from_comment(pb_object_row *o, const pb_elf_info *ei)
{
    if (o->compiler[0]) return;
    for (const char *p = ei->comment; *p;) {
        const char *q = strstr(p, "; ");
        char item[PB_ELF_TEXT_MAX], comp[256];
        snprintf(item, sizeof item, "%.*s", (int)(q ? q - p : (long)strlen(p)), p);
        if (pb_parity_compiler(item, comp, sizeof comp, NULL) && !strstr(o->compiler, comp)) {
            size_t k = strlen(o->compiler);
            snprintf(o->compiler + k, sizeof o->compiler - k, "%s%s", k ? ", " : "", comp);
        }
        if (!q) break;
        p = q + 2;
    }
}

static void elf_fields(pb_object_row *o, const file_bytes *fb)
{
    pb_elf_info *ei = malloc(sizeof *ei);
    if (!ei) { snprintf(o->elf, sizeof o->elf, "not parsed: out of memory"); return; }
    int r = pb_elf_read(fb->buf, fb->len, ei);
    if (r == 1) snprintf(o->elf, sizeof o->elf, "not an ELF file");
    if (r < 0) snprintf(o->elf, sizeof o->elf, "unreadable: %s", ei->error);
    if (r) { free(ei); return; }
    snprintf(o->elf, sizeof o->elf, "%s", pb_elf_kind(ei));
    snprintf(o->build_id, sizeof o->build_id, "%s", ei->build_id);
    snprintf(o->comment, sizeof o->comment, "%s", ei->comment);
    snprintf(o->needed, sizeof o->needed, "%s", ei->needed);
    snprintf(o->build_type, sizeof o->build_type, "%s, %s", pb_elf_kind(ei), ei->has_debug_info ? "debug info" : "no debug info");
    pb_dwarf_producers *dp = ei->has_debug_info ? calloc(1, sizeof *dp) : NULL;
    if (dp) {
        char who[1200];
        pb_err e = {{0}};
        snprintf(who, sizeof who, "%s (%s)", o->impl, o->path);
        if (pb_dwarf_producers_read(who, fb->buf, fb->len, dp, &e) < 0)
            snprintf(o->producers, sizeof o->producers, "unreadable: %s", e.msg);
        producers_text(o, dp);
        from_producers(o, dp);
        free(dp);
    }
    from_cmdline(o, ei);
    from_comment(o, ei);
    free(ei);
}

/* with_git 0: the file alone, no repository asked about it (bench itself: its revision is
 * compiled in, and an installed bench may sit in a git checkout that is not the lab's) */
static void identify(const char *impl, const char *path, pb_object_row *o, int with_git)
{
    memset(o, 0, sizeof *o);
    snprintf(o->impl, sizeof o->impl, "%s", impl);
    snprintf(o->path, sizeof o->path, "%s", path);
    char real[PATH_MAX];
    if (realpath(path, real)) snprintf(o->real_path, sizeof o->real_path, "%s", real);
    file_bytes fb;
    read_file(o->real_path[0] ? o->real_path : path, o, &fb);
    if (fb.buf) elf_fields(o, &fb);
    free(fb.buf);
    if (!o->real_path[0] || !with_git) return;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", o->real_path);
    pb_git_describe(dirname(dir), o->repo, sizeof o->repo, o->revision, sizeof o->revision);
}

void pb_object_identify(const char *impl, const char *path, pb_object_row *o) { identify(impl, path, o, 1); }

/* ---- every object of a run ---- */

static int add_row(pb_objects *out, const char *impl, const char *path, pb_err *e)
{
    for (int i = 0; i < out->n; i++)
        if (!strcmp(out->v[i].impl, impl)) return 0;
    pb_object_row *nv = realloc(out->v, (size_t)(out->n + 1) * sizeof *nv);
    if (!nv) return pb_errf(e, "out of memory");
    out->v = nv;
    pb_object_row *o = &out->v[out->n];
    for (int i = 0; i < out->n; i++)
        if (!strcmp(out->v[i].path, path)) {   /* one file behind two impls: read once */
            *o = out->v[i];
            snprintf(o->impl, sizeof o->impl, "%s", impl);
            out->n++;
            return 0;
        }
    pb_object_identify(impl, path, o);
    out->n++;
    return 0;
}

static int find_impl(const pb_objects *o, const char *impl)
{
    for (int i = 0; impl && i < o->n; i++)
        if (!strcmp(o->v[i].impl, impl)) return i;
    return -1;
}

static int readable(const pb_object_row *r)
{
    return r->elf[0] && strncmp(r->elf, "unreadable", 10) && strncmp(r->elf, "cannot", 6) && strncmp(r->elf, "not ", 4);
}

static void side_of(const pb_object_row *r, char *name, size_t cap, pb_build_side *s)
{
    snprintf(name, cap, "%s (%s)", r->impl, r->path);
    *s = (pb_build_side){.name = name, .compiler = r->compiler, .flags = r->flags,
                         .needed = readable(r) ? r->needed : NULL, .build_type = r->build_type};
}

static void check_pair(pb_objects *o, int a, int b, char *done)
{
    char na[1200], nb[1200];
    pb_build_side sa, sb;
    side_of(&o->v[a], na, sizeof na, &sa);
    side_of(&o->v[b], nb, sizeof nb, &sb);
    if (strcmp(o->v[a].path, o->v[b].path)) pb_parity_compare(&sa, &sb, o->parity, sizeof o->parity);
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->v[i].path, o->v[a].path) || !strcmp(o->v[i].path, o->v[b].path)) done[i] = 1;
}

/* the sonames bench itself links: what the lab's own impls run against */
static void process_needed(char *out, size_t cap)
{
    pb_object_row *self = malloc(sizeof *self);
    out[0] = 0;
    if (!self) return;
    identify("bench", "/proc/self/exe", self, 0);
    snprintf(out, cap, "%s", self->needed);
    free(self);
}

static void check_own(pb_objects *o, int i, const pb_suite *s, const char *needed, char *done)
{
    char na[1200], nb[300];
    pb_build_side sa, sb;
    side_of(&o->v[i], na, sizeof na, &sa);
    snprintf(nb, sizeof nb, "the lab's own %s impls (%s)", s->name, s->own_profile ? s->own_profile : "its profile");
    sb = (pb_build_side){.name = nb, .compiler = PB_COMPILER, .flags = s->own_cflags, .needed = needed,
                         .needed_is_process = 1};
    pb_parity_compare(&sa, &sb, o->parity, sizeof o->parity);
    for (int k = 0; k < o->n; k++)
        if (!strcmp(o->v[k].path, o->v[i].path)) done[k] = 1;
}

static void parity(const pb_suite *s, pb_objects *o)
{
    char *done = calloc((size_t)o->n + 1, 1);
    if (!done) return;
    const char *pairs[2][2] = {{s->baseline, s->candidate}, {s->real_baseline, s->real_candidate}};
    for (int p = 0; p < 2; p++) {
        int a = find_impl(o, pairs[p][0]), b = find_impl(o, pairs[p][1]);
        if (a >= 0 && b >= 0) check_pair(o, a, b, done);
    }
    char *needed = s->own_cflags ? malloc(PB_ELF_TEXT_MAX) : NULL;
    if (needed) process_needed(needed, PB_ELF_TEXT_MAX);
    for (int i = 0; needed && i < o->n; i++)
        if (!done[i]) check_own(o, i, s, needed, done);
    free(needed);
    free(done);
}

/* Two different files in one checkout at one revision: git describe names the checkout's state,
 * which at most one of them was built from (an old build kept beside a new one in the same tree).
 * The revision stays with the candidate, whose revision the run's is (pb_objects_user_revision),
 * and leaves every other side unknown rather than wrong: the old side's revision is never the new
 * checkout's (docs/your-code.md). */
static void own_revisions(const pb_suite *s, pb_objects *o)
{
    int c = find_impl(o, s->candidate);
    for (int i = 0; i < o->n; i++) {
        pb_object_row *x = &o->v[i];
        if (i == c || !x->revision[0]) continue;
        for (int k = 0; k < o->n; k++) {
            const pb_object_row *y = &o->v[k];
            if (k == i || strcmp(x->repo, y->repo) || strcmp(x->revision, y->revision) ||
                !strcmp(x->sha256, y->sha256) || (k != c && c >= 0))
                continue;
            x->revision[0] = 0;
            break;
        }
    }
}

int pb_objects_collect(const pb_suite *s, const void *opts, const pb_grid *g, pb_objects *out, pb_err *e)
{
    memset(out, 0, sizeof *out);
    for (int c = 0; c < g->ncells; c++)
        for (int k = 0; k < g->cells[c].nimpls; k++) {
            char path[1024];
            if (pb_suite_user_object(s, opts, g->cells[c].impls[k], path, sizeof path) != 1) continue;
            if (add_row(out, g->cells[c].impls[k], path, e) < 0) {
                pb_objects_free(out);
                return -1;
            }
        }
    own_revisions(s, out);
    parity(s, out);
    return 0;
}

void pb_objects_free(pb_objects *o)
{
    free(o->v);
    o->v = NULL;
    o->n = 0;
}

void pb_objects_user_revision(const pb_objects *o, const char *candidate, const char *rev_opt, char *rev, size_t rcap,
                              char *repo, size_t pcap)
{
    int c = find_impl(o, candidate);
    if (c >= 0 && !o->v[c].revision[0]) c = -1;
    for (int i = 0; i < o->n && c < 0; i++)
        if (o->v[i].revision[0]) c = i;
    snprintf(rev, rcap, "%s", rev_opt ? rev_opt : c >= 0 ? o->v[c].revision : "");
    snprintf(repo, pcap, "%s", c >= 0 ? o->v[c].repo : "");
}
