/* SPDX-License-Identifier: GPL-2.0-only */
/* render.c — the table of the report floor's formats (render.h) and the look-ups on it. */
#include "render.h"

#include <string.h>

static const char *const FIGURES_LISTED[] = {"_ratio.png (.svg)", ".png (.svg)", NULL};

const pb_renderer pb_renderers[] = {
    /* the figures (<suite>.png, <suite>_ratio.png and their .svg twins) first: the page inlines them */
    {"gnuplot", ".png", PB_RENDER_SUITE, pb_render_plots, FIGURES_LISTED},
    {"md", ".md", PB_RENDER_SUITE, pb_render_markdown, NULL},
    {"html", ".html", PB_RENDER_PAGE, pb_render_html, NULL},
    {"json", ".json", PB_RENDER_EXPORT, pb_render_json, NULL},
    {"csv", ".csv", PB_RENDER_EXPORT, pb_render_csv, NULL},
    {"gbench", ".json", PB_RENDER_EXPORT, pb_render_gbench, NULL},
    {NULL, NULL, 0, NULL, NULL},
};

const pb_renderer *pb_renderer_find(pb_render_kind kind, const char *name)
{
    for (const pb_renderer *r = pb_renderers; r->name; r++)
        if (r->kind == kind && !strcmp(r->name, name)) return r;
    return NULL;
}

void pb_render_join_names(const char *const *names, size_t n, char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && off < cap; i++)
        off += (size_t)snprintf(buf + off, cap - off, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
}

void pb_renderer_names(pb_render_kind kind, char *buf, size_t cap)
{
    const char *names[sizeof pb_renderers / sizeof pb_renderers[0]];
    size_t n = 0;
    for (const pb_renderer *r = pb_renderers; r->name; r++)
        if (r->kind == kind) names[n++] = r->name;
    pb_render_join_names(names, n, buf, cap);
}

void pb_renderer_file(const pb_renderer *r, const char *suite, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", suite, r->suffix);
}

void pb_renderer_listed(const char *out_dir, const char *suite, char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = 0;
    for (const pb_renderer *r = pb_renderers; r->name && off < cap; r++) {
        if (r->kind != PB_RENDER_SUITE) continue;
        const char *const just_suffix[] = {r->suffix, NULL};
        for (const char *const *l = r->listed ? r->listed : just_suffix; *l && off < cap; l++)
            off += (size_t)snprintf(buf + off, cap - off, "%s%s/%s%s", off ? ", " : "", out_dir, suite, *l);
    }
}
