/* SPDX-License-Identifier: GPL-2.0-only */
/* The identity of the user's code (issue 23, item 3): the bounds-checked ELF reader on a real binary
 * and on hand-made images of both classes and byte orders, on every truncation and on thousands of
 * seeded mutations (each image an exact-size copy, so that a read past its end is a sanitizer
 * error); the DWARF reader in its child on a real -g binary and on a damaged one; the build-parity
 * comparison's flags, sonames and compilers. No timing.
 *
 *   test_elf_read PLAIN_ELF DEBUG_ELF      (PLAIN_ELF: any binary; DEBUG_ELF: built with -g) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_producers.h"
#include "elf_read.h"
#include "parity.h"
#include "pb.h"
#include "../lib/check.h"

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    fclose(f);
    *len = b ? (size_t)n : 0;
    return b;
}

/* pb_elf_read on an exact-size heap copy of buf[0..len-1] */
static int read_copy(const unsigned char *buf, size_t len, pb_elf_info *out)
{
    unsigned char *c = malloc(len ? len : 1);
    if (!c) return -2;
    memcpy(c, buf, len);
    int r = pb_elf_read(c, len, out);
    free(c);
    return r;
}

/* ---- hand-made images: header, .shstrtab, a build-id note, .comment, section headers ---- */

typedef struct img {
    unsigned char b[1024];
    size_t n;
    int is64, be;
} img;

static void put(img *m, size_t off, unsigned w, uint64_t v)
{
    for (unsigned k = 0; k < w; k++) m->b[off + (m->be ? w - 1 - k : k)] = (unsigned char)(v >> (8 * k));
}

static void add_section(img *m, size_t shoff, int i, uint32_t name, uint32_t type, uint64_t off, uint64_t size, uint64_t align)
{
    size_t s = shoff + (size_t)i * (m->is64 ? 64 : 40);
    put(m, s, 4, name);
    put(m, s + 4, 4, type);
    put(m, s + (m->is64 ? 24 : 16), m->is64 ? 8 : 4, off);
    put(m, s + (m->is64 ? 32 : 20), m->is64 ? 8 : 4, size);
    put(m, s + (m->is64 ? 48 : 32), m->is64 ? 8 : 4, align);
}

static void make_image(img *m, int is64, int be)
{
    memset(m, 0, sizeof *m);
    m->is64 = is64;
    m->be = be;
    memcpy(m->b, "\177ELF", 4);
    m->b[4] = is64 ? 2 : 1;
    m->b[5] = be ? 2 : 1;
    m->b[6] = 1;
    put(m, 16, 2, 3);   /* ET_DYN */
    static const char names[] = "\0.shstrtab\0.note.gnu.build-id\0.comment";
    size_t strtab = 128, note = 192, comment = 240, shoff = 320;
    memcpy(m->b + strtab, names, sizeof names);
    put(m, note, 4, 4);
    put(m, note + 4, 4, 8);
    put(m, note + 8, 4, 3);
    memcpy(m->b + note + 12, "GNU", 4);
    for (int i = 0; i < 8; i++) m->b[note + 16 + i] = (unsigned char)(0xa0 + i);
    static const char cm[] = "GCC: (Test 1.0) 12.2.0\0clang version 14.0.6";
    memcpy(m->b + comment, cm, sizeof cm);
    add_section(m, shoff, 1, 1, 3, strtab, sizeof names, 1);
    add_section(m, shoff, 2, 11, 7, note, 24, 4);
    add_section(m, shoff, 3, 30, 1, comment, sizeof cm, 1);
    put(m, is64 ? 40 : 32, is64 ? 8 : 4, shoff);
    put(m, is64 ? 58 : 46, 2, is64 ? 64 : 40);
    put(m, is64 ? 60 : 48, 2, 4);
    put(m, is64 ? 62 : 50, 2, 1);
    m->n = shoff + 4 * (is64 ? 64 : 40);
}

static void hand_made(void)
{
    for (int is64 = 0; is64 < 2; is64++)
        for (int be = 0; be < 2; be++) {
            img m;
            make_image(&m, is64, be);
            pb_elf_info ei;
            int r = read_copy(m.b, m.n, &ei);
            CHECK(r == 0, "ELF%d %s: read %d (%s)", is64 ? 64 : 32, be ? "BE" : "LE", r, ei.error);
            CHECK(!strcmp(ei.build_id, "a0a1a2a3a4a5a6a7"), "ELF%d %s: build-id '%s'", is64 ? 64 : 32, be ? "BE" : "LE",
                  ei.build_id);
            CHECK(!strcmp(ei.comment, "GCC: (Test 1.0) 12.2.0; clang version 14.0.6"), "comment '%s'", ei.comment);
            CHECK(!strcmp(pb_elf_kind(&ei), is64 ? "ELF64 shared object" : "ELF32 shared object"), "kind %s",
                  pb_elf_kind(&ei));
            /* each damage is refused in words, never read past */
            struct { size_t off; unsigned w; uint64_t v; const char *words; } bad[] = {
                {is64 ? 40u : 32u, is64 ? 8u : 4u, 0xfffffff0u, "section header table lies past the end"},
                {is64 ? 60u : 48u, 2, 0xff00, "section header table ends past the end of the file"},
                {is64 ? 62u : 50u, 2, 9, "section-name table index is not a section"},
                {is64 ? 58u : 46u, 2, 8, "shorter than the class's"},
                {320 + 2 * (is64 ? 64u : 40u) + (is64 ? 32u : 20u), is64 ? 8u : 4u, 100000, "ends past the end of the file"},
                {192, 4, 0x7fffffff, "a note in section 2"},
                {192 + 4, 4, 0x40000000, "a note in section 2"},
                {320 + 3 * (is64 ? 64u : 40u), 4, 5000, "name lies outside the section-name table"},
            };
            for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
                img d = m;
                put(&d, bad[k].off, bad[k].w, bad[k].v);
                r = read_copy(d.b, d.n, &ei);
                CHECK(r == -1 && strstr(ei.error, bad[k].words), "damage %zu: %d '%s', want '%s'", k, r, ei.error,
                      bad[k].words);
                CHECK(!ei.build_id[0] && !ei.comment[0], "damage %zu: something half-read is reported", k);
            }
        }
    unsigned char text[] = "#!/bin/sh\necho hello\n";
    pb_elf_info ei;
    CHECK(read_copy(text, sizeof text, &ei) == 1 && !ei.is_elf, "a script is not an ELF file");
    CHECK(read_copy(text, 3, &ei) == 1, "three bytes are not an ELF file");
    unsigned char odd[64] = "\177ELF\003\001";
    CHECK(read_copy(odd, sizeof odd, &ei) == -1 && strstr(ei.error, "unknown ELF class"), "class 3: '%s'", ei.error);
}

/* ---- a real binary: whole, every truncation, seeded mutations ---- */

static void real_binary(const char *path)
{
    size_t len;
    unsigned char *b = slurp(path, &len);
    CHECK(b != NULL, "cannot read %s", path);
    if (!b) return;
    pb_elf_info ei;
    CHECK(read_copy(b, len, &ei) == 0, "%s: %s", path, ei.error);
    CHECK(strlen(ei.build_id) == 40, "%s: build-id '%s'", path, ei.build_id);
    CHECK(strstr(ei.needed, "libc.so.6") != NULL, "%s: needed '%s'", path, ei.needed);
    CHECK(ei.pie && ei.is64, "%s: a PIE executable (%s)", path, pb_elf_kind(&ei));
    size_t refused = 0, tried = 0;
    for (size_t n = 0; n < len; n += n < 4096 ? 1 : 61) {
        int r = read_copy(b, n, &ei);
        tried++;
        refused += r == -1;
        CHECK(r != 0, "truncated to %zu of %zu bytes: read as whole", n, len);
    }
    CHECK(refused > tried / 2, "truncations refused: %zu of %zu", refused, tried);
    pb_rng rng;
    pb_rng_seed(&rng, 20230023);
    unsigned char *c = malloc(len);
    for (int i = 0; c && i < 4000; i++) {
        memcpy(c, b, len);
        int k = 1 + (int)(pb_rng_next(&rng) % 4);
        for (int j = 0; j < k; j++) {
            /* mostly the headers and the section table, where offsets and counts live */
            uint64_t x = pb_rng_next(&rng);
            size_t at = x & 1 ? (size_t)(x >> 8) % (len < 64 ? len : 64) : (size_t)(x >> 8) % len;
            if (x & 2) at = len - 1 - (size_t)(x >> 16) % (len < 4096 ? len : 4096);
            c[at] = (unsigned char)(pb_rng_next(&rng) >> 3);
        }
        size_t n = pb_rng_next(&rng) % 8 ? len : (size_t)(pb_rng_next(&rng) % len);
        read_copy(c, n, &ei);   /* any answer but a crash or a read past the copy */
    }
    free(c);
    free(b);
}

/* ---- DWARF, in a child ---- */

static void dwarf(const char *plain, const char *debug)
{
    size_t len;
    unsigned char *b = slurp(debug, &len);
    CHECK(b != NULL, "cannot read %s", debug);
    if (!b) return;
    pb_dwarf_producers *dp = calloc(1, sizeof *dp);
    pb_err e = {{0}};
    CHECK(pb_dwarf_producers_read("debug", b, len, dp, &e) == 0, "producers: %s", e.msg);
    int gnu = 0;
    for (int i = 0; i < dp->n; i++) gnu |= !strncmp(dp->text[i], "GNU C", 5) && strstr(dp->text[i], " -g") != NULL;
    CHECK(gnu, "no 'GNU C... -g' producer among %d", dp->n);
    /* its .debug_info overwritten: an answer or a refusal from the child, bench goes on */
    pb_elf_info ei;
    read_copy(b, len, &ei);
    pb_rng rng;
    pb_rng_seed(&rng, 7);
    for (int i = 0; i < 20; i++) {
        unsigned char *c = malloc(len);
        memcpy(c, b, len);
        for (int j = 0; j < 64; j++) c[len / 2 + pb_rng_next(&rng) % (len / 2)] = (unsigned char)pb_rng_next(&rng);
        int r = pb_dwarf_producers_read("damaged", c, len, dp, &e);
        CHECK(r == 0 || e.msg[0], "damaged %d: refused without a word", i);
        free(c);
    }
    free(b);
    b = slurp(plain, &len);
    if (b) {
        CHECK(pb_dwarf_producers_read("plain", b, len, dp, &e) == 0, "plain: %s", e.msg);
        free(b);
    }
    free(dp);
}

/* ---- the comparison ---- */

static void flags(void)
{
    char eff[1024], out[PB_PARITY_TEXT_MAX];
    pb_parity_effective("-march=x86-64-v2 -maes -O3 -march=x86-64 -mno-aes -O2 -g -Wall -fPIC -fno-stack-check -fstack-check=no"
                        " -fstack-protector-strong -DX=1 -std=c11", eff, sizeof eff);
    CHECK(!strcmp(eff, "-march=x86-64 -mno-aes -O2 -fno-stack-check -fstack-protector-strong"), "effective: '%s'", eff);
    pb_build_side a = {.name = "old", .compiler = "gcc 12.2.0", .flags = "-O3 -O2 -mno-sse -fno-strict-aliasing",
                       .needed = "libc.so.6 libfoo.so.1", .build_type = "ELF64 PIE executable, no debug info"};
    pb_build_side b = {.name = "new", .compiler = "gcc 12.2.0", .flags = "-O2 -mtune=generic -march=x86-64",
                       .needed = "libc.so.6 libfoo.so.2 libbar.so.0", .build_type = "ELF64 PIE executable, debug info"};
    out[0] = 0;
    int n = pb_parity_compare(&a, &b, out, sizeof out);
    CHECK(n == 3, "three aspects differ, got %d: %s", n, out);
    CHECK(strstr(out, "old and new were built with different flags: -mno-sse / -msse (default), "
                      "-fno-strict-aliasing / (not given)") != NULL, "flags: %s", out);
    CHECK(strstr(out, "link different libraries: libfoo.so.1 / libfoo.so.2, (not linked) / libbar.so.0") != NULL,
          "sonames: %s", out);
    CHECK(strstr(out, "differ in build type: ELF64 PIE executable, no debug info / ELF64 PIE executable, debug info"),
          "build type: %s", out);
    CHECK(!strstr(out, "-O2 /") && !strstr(out, "compilers"), "the same -O and compiler differ: %s", out);
    b = a;
    b.name = "same";
    out[0] = 0;
    CHECK(pb_parity_compare(&a, &b, out, sizeof out) == 0 && !out[0], "identical builds differ: %s", out);
    /* the process side: only another version of a soname counts */
    pb_build_side own = {.name = "own", .compiler = "clang 14.0.6", .flags = "-O2 -mno-sse -fno-strict-aliasing",
                         .needed = "libc.so.6 libfoo.so.2 libsqlite3.so.0", .needed_is_process = 1};
    a.build_type = NULL;
    out[0] = 0;
    n = pb_parity_compare(&a, &own, out, sizeof out);
    CHECK(n == 2 && strstr(out, "compilers: gcc 12.2.0 / clang 14.0.6") && strstr(out, "libfoo.so.1 / libfoo.so.2") &&
          !strstr(out, "sqlite"), "against the process: %d: %s", n, out);
    a.flags = "";
    out[0] = 0;
    pb_parity_compare(&a, &own, out, sizeof out);
    CHECK(strstr(out, "old records no compiler flags") && strstr(out, "own: -O2 -mno-sse -fno-strict-aliasing"),
          "unrecorded flags: %s", out);
    char comp[64];
    const char *f;
    CHECK(pb_parity_compiler("GNU C11 12.2.0 -O2 -g", comp, sizeof comp, &f) && !strcmp(comp, "gcc 12.2.0") &&
          !strcmp(f, "-O2 -g"), "producer: %s / %s", comp, f);
    CHECK(pb_parity_compiler("GCC: (Debian 12.2.0-14+deb12u1) 12.2.0", comp, sizeof comp, NULL) &&
          !strcmp(comp, "gcc 12.2.0"), "comment: %s", comp);
    CHECK(pb_parity_compiler("Debian clang version 14.0.6", comp, sizeof comp, NULL) && !strcmp(comp, "clang 14.0.6"),
          "clang: %s", comp);
    CHECK(!pb_parity_compiler("GNU AS 2.40", comp, sizeof comp, NULL), "an assembler is no compiler");
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_elf_read PLAIN_ELF DEBUG_ELF\n");
        return 2;
    }
    hand_made();
    real_binary(argv[1]);
    dwarf(argv[1], argv[2]);
    flags();
    return check_summary();
}
