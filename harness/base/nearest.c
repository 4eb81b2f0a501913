/* SPDX-License-Identifier: GPL-2.0-only */
/* nearest.c — the nearest name to a mistyped one (nearest.h). */
#include "nearest.h"

#include <stdio.h>
#include <string.h>

/* Optimal string alignment distance between a and b (each at most 63 bytes; longer: "far"). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return (size_t)-1;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *pb_nearest(const char *typed, const char *const *names, size_t n)
{
    size_t len = strlen(typed), limit = len > 6 ? len / 3 : 1, best = (size_t)-1;
    const char *hit = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!names[i]) continue;
        size_t dist = edit_distance(typed, names[i]);
        /* a tie goes to a name that starts as typed: first letters are mistyped least */
        if (dist < best || (dist == best && hit && hit[0] != typed[0] && names[i][0] == typed[0])) {
            best = dist;
            hit = names[i];
        }
    }
    return best <= limit ? hit : NULL;
}

const char *pb_did_you_mean(char *buf, size_t cap, const char *typed, const char *list)
{
    char copy[2048];
    const char *names[256];
    size_t n = 0;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *t = strtok_r(copy, " ,", &save); t && n < sizeof names / sizeof names[0];
         t = strtok_r(NULL, " ,", &save))
        names[n++] = t;
    const char *hit = pb_nearest(typed, names, n);
    if (hit) snprintf(buf, cap, "did you mean %s?; ", hit);
    else if (cap) buf[0] = 0;
    return buf;
}
