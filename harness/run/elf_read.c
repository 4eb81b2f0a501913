/* SPDX-License-Identifier: GPL-2.0-only */
/* elf_read.c — see elf_read.h. Every read goes through get(), which refuses a range that does not
 * lie inside the buffer; every count is bounded by the bytes it claims to occupy. */
#include "elf_read.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { ET_EXEC_ = 2, ET_DYN_ = 3 };
enum { PT_DYNAMIC_ = 2, PT_INTERP_ = 3, PT_NOTE_ = 4 };
enum { SHT_SYMTAB_ = 2, SHT_DYNAMIC_ = 6, SHT_NOTE_ = 7, SHT_NOBITS_ = 8 };
enum { DT_NULL_ = 0, DT_NEEDED_ = 1, DT_SONAME_ = 14 };
#define DT_FLAGS_1_ 0x6ffffffbu
#define DF_1_PIE_ 0x08000000u
#define NT_GNU_BUILD_ID_ 3

typedef struct view {
    const unsigned char *p;
    size_t n;
    int be, is64;
} view;

/* w bytes at off in the file's byte order; -1 when they do not lie inside the buffer */
static int get(const view *v, uint64_t off, unsigned w, uint64_t *out)
{
    if (off > v->n || w > v->n - off) return -1;
    uint64_t x = 0;
    for (unsigned k = 0; k < w; k++) x = x << 8 | v->p[off + (v->be ? k : w - 1 - k)];
    *out = x;
    return 0;
}

/* a field whose offset and width depend on the class */
static int field(const view *v, uint64_t base, unsigned off32, unsigned w32, unsigned off64, unsigned w64, uint64_t *out)
{
    return v->is64 ? get(v, base + off64, w64, out) : get(v, base + off32, w32, out);
}

typedef struct sect {
    uint64_t name, type, offset, size, link, align, entsize;
} sect;

typedef struct hdr {
    uint64_t type, phoff, shoff, phentsize, phnum, shentsize, shnum, shstrndx;
} hdr;

static int fail(pb_elf_info *o, const char *what)
{
    if (!o->error[0]) snprintf(o->error, sizeof o->error, "%s", what);
    return -1;
}

static int read_hdr(const view *v, hdr *h, pb_elf_info *o)
{
    if (v->n < (v->is64 ? 64u : 52u)) return fail(o, "truncated: the file ends inside the ELF header");
    int bad = get(v, 16, 2, &h->type) | field(v, 0, 28, 4, 32, 8, &h->phoff) | field(v, 0, 32, 4, 40, 8, &h->shoff) |
              field(v, 0, 42, 2, 54, 2, &h->phentsize) | field(v, 0, 44, 2, 56, 2, &h->phnum) |
              field(v, 0, 46, 2, 58, 2, &h->shentsize) | field(v, 0, 48, 2, 60, 2, &h->shnum) |
              field(v, 0, 50, 2, 62, 2, &h->shstrndx);
    return bad ? fail(o, "truncated: the file ends inside the ELF header") : 0;
}

static int read_sect(const view *v, const hdr *h, uint64_t i, sect *s)
{
    uint64_t b = h->shoff + i * h->shentsize;   /* i < shnum, the table checked to fit: no overflow */
    return field(v, b, 0, 4, 0, 4, &s->name) | field(v, b, 4, 4, 4, 4, &s->type) |
           field(v, b, 16, 4, 24, 8, &s->offset) | field(v, b, 20, 4, 32, 8, &s->size) |
           field(v, b, 24, 4, 40, 4, &s->link) | field(v, b, 32, 4, 48, 8, &s->align) |
           field(v, b, 36, 4, 56, 8, &s->entsize);
}

/* Does a table of n entries of size w at off fit in the file? */
static int table_fits(const view *v, uint64_t off, uint64_t n, uint64_t w)
{
    return off <= v->n && (n == 0 || (w && n <= (v->n - off) / w));
}

/* The bytes of a section in the file (none for SHT_NOBITS); -1 when they do not lie inside it. */
static int sect_bytes(const view *v, const sect *s, const unsigned char **p, size_t *n)
{
    *p = NULL;
    *n = 0;
    if (s->type == SHT_NOBITS_) return 0;
    if (s->offset > v->n || s->size > v->n - s->offset) return -1;
    *p = v->p + s->offset;
    *n = (size_t)s->size;
    return 0;
}

/* ---- text from the file: printable ASCII only ---- */

static void clean(char *dst, size_t cap, const unsigned char *src, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) dst[k++] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
    dst[k] = 0;
}

/* Is item one of the sep-separated items of list? */
static int has_item(const char *list, const char *item, const char *sep)
{
    size_t il = strlen(item), sl = strlen(sep);
    for (const char *p = list; *p;) {
        const char *q = strstr(p, sep);
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len == il && !strncmp(p, item, il)) return 1;
        if (!q) break;
        p = q + sl;
    }
    return 0;
}

static void add_item(char *list, size_t cap, const char *item, const char *sep)
{
    if (!*item || has_item(list, item, sep)) return;
    size_t k = strlen(list);
    snprintf(list + k, cap - k, "%s%s", k ? sep : "", item);
}

/* Each NUL-terminated string of a section (the last may lack its NUL) through fn. */
static void each_string(const unsigned char *p, size_t n, void (*fn)(void *ctx, const char *s), void *ctx)
{
    for (size_t pos = 0; pos < n;) {
        const unsigned char *nul = memchr(p + pos, 0, n - pos);
        size_t len = nul ? (size_t)(nul - (p + pos)) : n - pos;
        char s[PB_ELF_TEXT_MAX];
        clean(s, sizeof s, p + pos, len);
        if (*s) fn(ctx, s);
        pos += len + 1;
    }
}

static void comment_string(void *ctx, const char *s)
{
    pb_elf_info *o = ctx;
    add_item(o->comment, sizeof o->comment, s, "; ");
}

/* GCC 11 on writes one record per translation unit ("GNU C11 12.2.0 -O2 ..."); older GCCs one string
 * per switch: those are joined into one record. */
typedef struct cmdline_acc {
    pb_elf_info *o;
    char cur[PB_ELF_TEXT_MAX];
} cmdline_acc;

static void cmdline_string(void *ctx, const char *s)
{
    cmdline_acc *a = ctx;
    if (strchr(s, ' ')) {
        add_item(a->o->cmdline, sizeof a->o->cmdline, s, " ; ");
        return;
    }
    size_t k = strlen(a->cur);
    snprintf(a->cur + k, sizeof a->cur - k, "%s%s", k ? " " : "", s);
}

static int parse_strings(const unsigned char *p, size_t n, pb_elf_info *o, int cmdline)
{
    if (!cmdline) {
        each_string(p, n, comment_string, o);
        return 0;
    }
    cmdline_acc a = {.o = o};
    each_string(p, n, cmdline_string, &a);
    add_item(o->cmdline, sizeof o->cmdline, a.cur, " ; ");
    return 0;
}

/* ---- notes: the GNU build-id ---- */

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* The notes in bytes [off, off + n) of the file, 4- or 8-byte aligned. -1 when one runs past them. */
static int parse_notes(const view *v, uint64_t off, uint64_t n, uint64_t align, pb_elf_info *o)
{
    uint64_t a = align == 8 ? 8 : 4, pos = 0;
    while (n - pos >= 12) {
        uint64_t namesz, descsz, type;
        if (get(v, off + pos, 4, &namesz) || get(v, off + pos + 4, 4, &descsz) || get(v, off + pos + 8, 4, &type))
            return -1;
        /* the descriptor starts, and the next note, at the next multiple of the alignment */
        if (namesz > n || descsz > n) return -1;
        uint64_t name = pos + 12, desc = align_up(name + namesz, a), end = align_up(desc + descsz, a);
        if (desc > n || desc + descsz > n) return -1;
        if (end > n) end = n;   /* the last note's padding may lie past the section */
        const unsigned char *d = v->p + off + desc;
        if (type == NT_GNU_BUILD_ID_ && namesz == 4 && !memcmp(v->p + off + name, "GNU", 4)) {
            if (descsz == 0 || descsz > 64) return -1;
            for (uint64_t i = 0; i < descsz; i++) snprintf(o->build_id + 2 * i, 3, "%02x", d[i]);
        }
        pos = end;
    }
    return 0;
}

/* ---- the dynamic section: DT_NEEDED, DT_SONAME, DF_1_PIE ---- */

static int dyn_string(const unsigned char *str, size_t strn, uint64_t at, char *out, size_t cap)
{
    if (at >= strn) return -1;
    const unsigned char *nul = memchr(str + at, 0, strn - at);
    if (!nul) return -1;
    clean(out, cap, str + at, (size_t)(nul - (str + at)));
    return 0;
}

static int parse_dynamic(const view *v, const hdr *h, const sect *dyn, int *pie, pb_elf_info *o)
{
    sect strs;
    const unsigned char *str;
    size_t strn;
    if (dyn->link >= h->shnum || read_sect(v, h, dyn->link, &strs) || sect_bytes(v, &strs, &str, &strn))
        return fail(o, "the dynamic section's string table is outside the file");
    uint64_t w = v->is64 ? 16 : 8, n = dyn->size / w;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t tag, val;
        if (get(v, dyn->offset + i * w, (unsigned)w / 2, &tag) || get(v, dyn->offset + i * w + w / 2, (unsigned)w / 2, &val))
            return fail(o, "the dynamic section runs past the end of the file");
        if (tag == DT_NULL_) break;
        char s[256];
        if ((tag == DT_NEEDED_ || tag == DT_SONAME_) && dyn_string(str, strn, val, s, sizeof s) < 0)
            return fail(o, "a DT_NEEDED or DT_SONAME name lies outside the dynamic string table");
        if (tag == DT_NEEDED_) add_item(o->needed, sizeof o->needed, s, " ");
        if (tag == DT_SONAME_) snprintf(o->soname, sizeof o->soname, "%s", s);
        if (tag == DT_FLAGS_1_ && (val & DF_1_PIE_)) *pie = 1;
    }
    return 0;
}

/* ---- sections ---- */

static const char *sect_name(const unsigned char *names, size_t nn, uint64_t at)
{
    if (at >= nn || !memchr(names + at, 0, nn - at)) return NULL;
    return (const char *)names + at;
}

/* What one section holds, by name and type. */
static int one_section(const view *v, const hdr *h, uint64_t i, const sect *s, const char *name, int *pie,
                       pb_elf_info *o)
{
    const unsigned char *p;
    size_t n;
    char why[160];
    if (sect_bytes(v, s, &p, &n)) {
        snprintf(why, sizeof why, "section %llu (%.60s) ends past the end of the file", (unsigned long long)i, name);
        return fail(o, why);
    }
    if (s->type == SHT_NOTE_ && parse_notes(v, s->offset, s->size, s->align, o) < 0) {
        snprintf(why, sizeof why, "a note in section %llu (%.60s) runs past its section", (unsigned long long)i, name);
        return fail(o, why);
    }
    if (!strcmp(name, ".comment")) parse_strings(p, n, o, 0);
    if (!strcmp(name, ".GCC.command.line")) parse_strings(p, n, o, 1);
    if ((!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")) && n) o->has_debug_info = 1;
    if (s->type == SHT_SYMTAB_) o->has_symtab = 1;
    if (s->type == SHT_DYNAMIC_) return parse_dynamic(v, h, s, pie, o);
    return 0;
}

/* The section count and the name table's index, with their escapes into section 0 (more than
 * 0xff00 sections). */
static int section_table(const view *v, hdr *h, pb_elf_info *o)
{
    if (h->shentsize < (v->is64 ? 64u : 40u)) return fail(o, "section header entries are shorter than the class's");
    sect s0 = {0};
    if (!table_fits(v, h->shoff, 1, h->shentsize) || read_sect(v, h, 0, &s0))
        return fail(o, "the section header table lies past the end of the file");
    if (h->shnum == 0) h->shnum = s0.size;
    if (h->shstrndx == 0xffff) h->shstrndx = s0.link;
    if (!table_fits(v, h->shoff, h->shnum, h->shentsize))
        return fail(o, "truncated: the section header table ends past the end of the file");
    if (h->shstrndx >= h->shnum) return fail(o, "the section-name table index is not a section");
    return 0;
}

static int read_sections(const view *v, hdr *h, int *pie, pb_elf_info *o)
{
    if (h->shoff == 0) return 0;   /* no section table (sstrip): what the program headers say only */
    if (section_table(v, h, o) < 0) return -1;
    sect ns;
    const unsigned char *names;
    size_t nn;
    if (read_sect(v, h, h->shstrndx, &ns) || sect_bytes(v, &ns, &names, &nn))
        return fail(o, "the section-name table lies outside the file");
    for (uint64_t i = 1; i < h->shnum; i++) {
        sect s;
        if (read_sect(v, h, i, &s)) return fail(o, "truncated: the section header table ends past the end of the file");
        const char *name = sect_name(names, nn, s.name);
        if (!name) {
            char why[120];
            snprintf(why, sizeof why, "section %llu's name lies outside the section-name table", (unsigned long long)i);
            return fail(o, why);
        }
        if (one_section(v, h, i, &s, name, pie, o) < 0) return -1;
    }
    return 0;
}

/* ---- program headers: the interpreter, and the notes when there is no section table ---- */

static int read_segments(const view *v, const hdr *h, int *interp, pb_elf_info *o)
{
    if (h->phnum == 0) return 0;
    if (h->phentsize < (v->is64 ? 56u : 32u)) return fail(o, "program header entries are shorter than the class's");
    if (!table_fits(v, h->phoff, h->phnum, h->phentsize))
        return fail(o, "truncated: the program header table ends past the end of the file");
    for (uint64_t i = 0; i < h->phnum; i++) {
        uint64_t b = h->phoff + i * h->phentsize, type, off, size, align;
        if (get(v, b, 4, &type) || field(v, b, 4, 4, 8, 8, &off) || field(v, b, 16, 4, 32, 8, &size) ||
            field(v, b, 28, 4, 48, 8, &align))
            return fail(o, "truncated: the program header table ends past the end of the file");
        if (type == PT_INTERP_) *interp = 1;
        if (type != PT_NOTE_ || h->shoff) continue;
        if (off > v->n || size > v->n - off) return fail(o, "a note segment lies past the end of the file");
        if (parse_notes(v, off, size, align, o) < 0) return fail(o, "a note in a note segment runs past its segment");
    }
    return 0;
}

int pb_elf_read(const unsigned char *buf, size_t len, pb_elf_info *out)
{
    memset(out, 0, sizeof *out);
    if (len < 16 || memcmp(buf, "\177ELF", 4)) return 1;
    out->is_elf = 1;
    if ((buf[4] != 1 && buf[4] != 2) || (buf[5] != 1 && buf[5] != 2))
        return fail(out, "unknown ELF class or byte order");
    view v = {.p = buf, .n = len, .be = buf[5] == 2, .is64 = buf[4] == 2};
    out->is64 = v.is64;
    out->big_endian = v.be;
    hdr h;
    int interp = 0, pie = 0;
    if (read_hdr(&v, &h, out) < 0 || read_segments(&v, &h, &interp, out) < 0 || read_sections(&v, &h, &pie, out) < 0) {
        char why[sizeof out->error];
        snprintf(why, sizeof why, "%s", out->error);
        int is64 = out->is64, be = out->big_endian;
        memset(out, 0, sizeof *out);   /* nothing half-read is reported */
        out->is_elf = 1;
        out->is64 = is64;
        out->big_endian = be;
        snprintf(out->error, sizeof out->error, "%s", why);
        return -1;
    }
    out->type = (int)h.type;
    out->pie = h.type == ET_DYN_ && (interp || pie);
    return 0;
}

const char *pb_elf_kind(const pb_elf_info *e)
{
    static const char *const kinds[2][5] = {
        {"ELF32 file", "ELF32 relocatable object", "ELF32 executable", "ELF32 shared object", "ELF32 PIE executable"},
        {"ELF64 file", "ELF64 relocatable object", "ELF64 executable", "ELF64 shared object", "ELF64 PIE executable"}};
    int k = e->type == 1 ? 1 : e->type == ET_EXEC_ ? 2 : e->type == ET_DYN_ ? (e->pie ? 4 : 3) : 0;
    return kinds[e->is64 ? 1 : 0][k];
}
