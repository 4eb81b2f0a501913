/* SPDX-License-Identifier: GPL-2.0-only */
/* md_table.h — for the report tests: the shape of the first verdict table of a Markdown page. */
#ifndef PB_TEST_MD_TABLE_H
#define PB_TEST_MD_TABLE_H

#include <string.h>

/* The '|' of the header, the separator and the first row of the first table of md (the one whose
 * header begins "| verdict | variant |"), into cols[0..2]; 0 for a line that is not there. A Markdown table
 * is whole when the three agree. */
static inline void md_table_columns(const char *md, int cols[3])
{
    const char *hdr = strstr(md, "\n| verdict | variant |");
    cols[0] = cols[1] = cols[2] = 0;
    for (int l = 0; hdr && l < 3; l++) {
        hdr++;
        for (; *hdr && *hdr != '\n'; hdr++) cols[l] += *hdr == '|';
    }
}

#endif
