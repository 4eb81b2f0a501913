/* SPDX-License-Identifier: GPL-2.0-only */
/* text_out.c — Markdown code spans and CSV fields for store text (text_out.h). */
#include "text_out.h"

#include <string.h>

void pb_md_code_fputs(FILE *f, const char *in)
{
    size_t longest = 0, run = 0, n = strlen(in);
    for (const char *p = in; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    int pad = n && (in[0] == '`' || in[n - 1] == '`' || in[0] == ' ' || in[n - 1] == ' ');
    for (size_t i = 0; i <= longest; i++) fputc('`', f);
    if (pad) fputc(' ', f);
    for (const unsigned char *p = (const unsigned char *)in; *p; p++)
        fputc(*p < 0x20 || *p == 0x7f ? ' ' : *p, f);
    if (pad) fputc(' ', f);
    for (size_t i = 0; i <= longest; i++) fputc('`', f);
}

void pb_csv_fputs(FILE *f, const char *in)
{
    int formula = strchr("=+-@\t\r", in[0]) && in[0];
    if (!formula && !strpbrk(in, ",\"\r\n")) {
        fputs(in, f);
        return;
    }
    fputc('"', f);
    if (formula) fputc('\'', f);
    for (const char *p = in; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}
