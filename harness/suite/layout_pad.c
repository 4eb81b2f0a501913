/* SPDX-License-Identifier: GPL-2.0-only */
/* layout_pad.c — linked into copy N of the suite module (libpbsuites.so for N = 0,
 * libpbsuites-layoutN.so, docs/layout.md). Without lld it is the layouts: PB_LAYOUT_PAD_BYTES bytes
 * (16 x (N % 4)) of never-executed code, first in GNU ld's link, so that the code after it starts
 * that many bytes further on (up to the first function aligned above 16 bytes). With lld each
 * layout's own script places every function (layout_script.py) and the padding is empty. Aligned
 * as the functions are (16 bytes), so the shift is exactly its size. The copies are otherwise the
 * same objects: they differ in placement only. */
#ifndef PB_LAYOUT_PAD_BYTES
#error "PB_LAYOUT_PAD_BYTES: set by harness/meson.build"
#endif

#define PB_STR2(x) #x
#define PB_STR(x) PB_STR2(x)

/* int3 (0xcc), so that a stray jump into it traps; a symbol, so that a disassembly names it. An
 * empty pad has no .skip: the assembler warns of a zero repeat count in every copy's build. */
#if PB_LAYOUT_PAD_BYTES > 0
#define PB_LAYOUT_PAD_FILL ".skip " PB_STR(PB_LAYOUT_PAD_BYTES) ", 0xcc\n"
#else
#define PB_LAYOUT_PAD_FILL ""
#endif
__asm__(".text\n"
        ".balign 16\n"
        ".globl pb_layout_pad\n"
        ".hidden pb_layout_pad\n"
        "pb_layout_pad:\n" PB_LAYOUT_PAD_FILL);
