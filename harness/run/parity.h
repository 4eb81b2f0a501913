/* SPDX-License-Identifier: GPL-2.0-only */
/* parity.h — the build-parity check: do two builds that are to be compared (old and new of a
 * gbench or exec run, two libgcrypt builds, or a plug-in and the lab's own impls it sits beside)
 * differ in how they were built, beyond the patch? Compiler, code-generation flags, linked
 * sonames and build type are compared; what differs is said, flag by flag.
 *
 * Flags are compared as the compiler records them (GCC's DW_AT_producer or .GCC.command.line):
 * GCC keeps every -O it was given and several -m/-f forms, so each side is first reduced to what
 * took effect, the last of each option ("-O3 ... -O2" is -O2, "-maes ... -mno-aes" is no AES).
 * An option one side does not give takes the compiler's default where it is known (x86-64 GCC:
 * -march=x86-64, -mtune=generic, -O0, -fasynchronous-unwind-tables, and under -march=x86-64 MMX,
 * SSE, SSE2, the x87 and the red zone on, AVX, AES, PCLMUL, 3DNow! off), else it reads "(not
 * given)" and differs. Options that do not change the code are not compared: -g*, -W*, -D/-U/-I,
 * -std=, -fPIC/-fpic/-fPIE/-fpie, -fvisibility=, -ffunction-sections/-fdata-sections (placement,
 * which the code layouts measure), -frecord-gcc-switches, -fdiagnostics-*, path maps. */
#ifndef PB_PARITY_H
#define PB_PARITY_H

#include <stddef.h>

#define PB_PARITY_TEXT_MAX 4096

/* One side of a comparison. NULL or "" fields are unknown: a field known on one side only is a
 * difference ("records no flags"), unknown on both is not compared. */
typedef struct pb_build_side {
    const char *name;         /* for the message: "old (build-a/my_bench)" */
    const char *compiler;     /* "gcc 12.2.0" */
    const char *flags;        /* switches as recorded, "-march=x86-64 -O2 ..." */
    const char *needed;       /* DT_NEEDED sonames, space-separated */
    const char *build_type;   /* "ELF64 PIE executable, no debug info" */
    /* needed is what this process has loaded (the lab's own impls' side): only a soname the other
     * side needs in another version ("libcrypto.so.1.1" against "libcrypto.so.3") differs */
    int needed_is_process;
} pb_build_side;

/* The differences of a and b as one warning per aspect, each "A and B differ in WHAT: ...",
 * appended to out (";\n"-separated, cut at cap with "..."). The number of aspects that differ. */
int pb_parity_compare(const pb_build_side *a, const pb_build_side *b, char *out, size_t cap);

/* The effective flags of a recorded switch line as text, "-march=x86-64 -mno-sse -O2 ..." in a
 * fixed order (for tests and messages). */
void pb_parity_effective(const char *flags, char *out, size_t cap);

/* From a producer ("GNU C11 12.2.0 -O2 ...", "Debian clang version 14.0.6") or a .comment string
 * ("GCC: (Debian 12.2.0-14) 12.2.0"): the compiler as "gcc 12.2.0" / "clang 14.0.6" in comp[cap],
 * and (may be NULL) the switches after it in flags[fcap] ("" when none). 0 when the text names no
 * compiler (an assembler, "Linker: LLD 14"). */
int pb_parity_compiler(const char *text, char *comp, size_t cap, const char **flags);

#endif
