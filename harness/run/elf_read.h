/* SPDX-License-Identifier: GPL-2.0-only */
/* elf_read.h — what an ELF file says about how it was built, read from its bytes with every offset,
 * size and count checked against the file (the file is the user's and untrusted: a truncated or
 * hostile one is "unreadable", never a crash or a read past the buffer). Nothing here runs,
 * loads or maps the file. Both classes (ELF32, ELF64) and both byte orders. */
#ifndef PB_ELF_READ_H
#define PB_ELF_READ_H

#include <stddef.h>

#define PB_ELF_TEXT_MAX 2048

typedef struct pb_elf_info {
    int is_elf;               /* 0: not an ELF file (a script, data): nothing below is set */
    char error[200];          /* an ELF file whose structure does not hold: why ("" when readable) */
    int is64, big_endian;
    int type;                 /* e_type: 1 relocatable, 2 executable, 3 shared object or PIE */
    int pie;                  /* e_type 3 with an interpreter (PT_INTERP) or DF_1_PIE: an executable */
    char build_id[129];       /* NT_GNU_BUILD_ID as lower-case hex; "" none */
    char comment[PB_ELF_TEXT_MAX];   /* .comment's distinct strings, "; " between them */
    char cmdline[PB_ELF_TEXT_MAX];   /* .GCC.command.line (-frecord-gcc-switches): its strings, " ; " between
                                      * records, its switches as one line where each is a string of its own */
    char needed[PB_ELF_TEXT_MAX];    /* DT_NEEDED sonames, one space between them, in file order */
    char soname[256];         /* DT_SONAME */
    int has_debug_info;       /* a .debug_info (or .zdebug_info) section with bytes in it */
    int has_symtab;           /* .symtab: not stripped */
} pb_elf_info;

/* Reads buf[0 .. len-1]. Always fills *out (zeroed first); returns 0 when the file is an ELF file
 * that could be read whole, 1 when it is not an ELF file, -1 when it is one whose headers do not
 * hold (out->error says where: "section 12 (.dynstr) ends past the end of the file"). Text taken
 * from the file is kept printable ASCII (anything else becomes '?'). */
int pb_elf_read(const unsigned char *buf, size_t len, pb_elf_info *out);

/* "ELF64 PIE executable", "ELF32 shared object", ... for a readable file. */
const char *pb_elf_kind(const pb_elf_info *e);

#endif
