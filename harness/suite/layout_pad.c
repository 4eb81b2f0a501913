/* SPDX-License-Identifier: GPL-2.0-only */
/* layout_pad.c — linked into layout copy N of the suite module (libpbsuites-layoutN.so,
 * docs/layout.md): PB_LAYOUT_PAD_BYTES bytes of never-executed code in .text, so that all code
 * placed after it starts that many bytes further on. Where lld shuffles the copy's functions
 * (harness/meson.build) the pad lands wherever the shuffle puts it; without lld it is first, and
 * moves every function. The copies are otherwise the same objects: they differ in placement only. */
#ifndef PB_LAYOUT_PAD_BYTES
#error "PB_LAYOUT_PAD_BYTES: set by harness/meson.build"
#endif

#define PB_STR2(x) #x
#define PB_STR(x) PB_STR2(x)

/* used: kept although nothing calls it; int3 (0xcc) so that a stray jump into it traps */
__attribute__((used)) void pb_layout_pad(void)
{
    __asm__ volatile(".skip " PB_STR(PB_LAYOUT_PAD_BYTES) ", 0xcc");
}
