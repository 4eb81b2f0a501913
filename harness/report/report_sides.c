/* SPDX-License-Identifier: GPL-2.0-only */
/* report_sides.c — whose code a run timed, in the reports (report_sides.h). Its own file, apart from
 * the tables, so that the identity block changes without them. */
#include "report_sides.h"

#include "html.h"
#include "text_out.h"

/* one output language's frame of the block: its quoting of text and code, and the markup around */
typedef struct sides_lang {
    void (*text)(FILE *f, const char *s);
    void (*code)(FILE *f, const char *s);
    const char *open, *item, *code_open, *code_close, *item_end, *close;
} sides_lang;

static void sides(FILE *f, const pb_report_data *d, const sides_lang *L)
{
    if (!d->sides.n) return;
    fputs(L->open, f);
    /* the digests whole: a reader compares them with sha256sum and file's build-id */
    char line[1024];
    for (int i = 0; i < d->sides.n; i++) {
        pb_side_line(&d->sides.v[i], 1, line, sizeof line);
        fputs(L->item, f);
        L->text(f, line);
        fputs(L->code_open, f);
        L->code(f, d->sides.v[i].path);
        fputs(L->code_close, f);
        fputs(L->item_end, f);
    }
    pb_parity_verdict(d->sides.parity, line, sizeof line);
    fputs(L->item, f);
    fputs("build parity: ", f);
    L->text(f, line);
    fputs(L->item_end, f);
    fputs(L->close, f);
}

void pb_report_sides_md(FILE *md, const pb_report_data *d)
{
    static const sides_lang L = {pb_md_text_fputs, pb_md_code_fputs,
                                 "**Whose code** (the files timed; the build-parity check compares the sides):\n\n",
                                 "- ", " (", ")", "\n", "\n"};
    sides(md, d, &L);
}

void pb_report_sides_html(FILE *f, const pb_report_data *d)
{
    static const sides_lang L = {pb_html_fputs, pb_html_fputs, "<div class=\"sides\"><strong>Whose code</strong><ul>\n",
                                 "<li>", " (<code>", "</code>)", "</li>\n", "</ul></div>\n"};
    sides(f, d, &L);
}
