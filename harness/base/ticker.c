/* SPDX-License-Identifier: GPL-2.0-only */
/* ticker.c — live progress lines (ticker.h): their text, from the plan's numbers, and when and how
 * they are shown (in place on a terminal, plain lines otherwise). */
#include "ticker.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "term.h"

char *pb_fmt_duration(char *buf, size_t cap, double s)
{
    if (!(s >= 0) || !isfinite(s)) s = 0;
    long t = (long)(s + 0.5);
    if (t < 100) snprintf(buf, cap, "%ld s", t);
    else if (t < 3600) snprintf(buf, cap, "%ld min %02ld s", t / 60, t % 60);
    else snprintf(buf, cap, "%ld h %02ld min", t / 3600, t / 60 % 60);
    return buf;
}

/* The levels of detail of a progress line: each leaves out one more of the least needed parts. */
enum {
    TICK_ALL,         /* every part */
    TICK_SHORT_MORE,  /* "ETA 47 s+" where the plan may grow */
    TICK_NO_CELL,     /* without "cell i of n" */
    TICK_NO_PASS,     /* without the pass */
    TICK_NO_ELAPSED,  /* without the time so far */
    TICK_COUNT
};

static void compose(const pb_progress *p, int level, char *buf, size_t cap)
{
    double pct = p->total > 0 ? 100.0 * p->done / p->total : 0;
    if (pct > 99 && p->done < p->total) pct = 99;   /* 100% only once it is all done */
    if (pct > 100) pct = 100;
    char where[96] = "", el[32], eta[64];
    int pass = p->passes > 1 && level < TICK_NO_PASS, cell = p->ncells > 0 && level < TICK_NO_CELL;
    if (pass && cell) snprintf(where, sizeof where, " (pass %d of %d, cell %d of %d)", p->pass, p->passes, p->cell, p->ncells);
    else if (pass) snprintf(where, sizeof where, " (pass %d of %d)", p->pass, p->passes);
    else if (cell) snprintf(where, sizeof where, " (cell %d of %d)", p->cell, p->ncells);
    char elapsed[48] = "";
    if (level < TICK_NO_ELAPSED) snprintf(elapsed, sizeof elapsed, ", %s", pb_fmt_duration(el, sizeof el, p->elapsed_s));
    if (p->eta_s < 0) snprintf(eta, sizeof eta, "ETA not known yet");
    else {
        char d[32];
        /* under half a second left of a plan not done yet: "< 1 s", never an "ETA 0 s" that the
         * run's last statistics then outlast */
        if (p->eta_s < 0.5 && p->done < p->total) snprintf(d, sizeof d, "< 1 s");
        else pb_fmt_duration(d, sizeof d, p->eta_s);
        if (!p->more) snprintf(eta, sizeof eta, "ETA %s", d);
        else if (level < TICK_SHORT_MORE) snprintf(eta, sizeof eta, "ETA %s + %s if any", d, p->more);
        else snprintf(eta, sizeof eta, "ETA %s+", d);
    }
    snprintf(buf, cap, "bench: %s %.0f%%%s%s, %s", p->what, floor(pct), where, elapsed, eta);
}

void pb_progress_text(const pb_progress *p, int width, char *buf, size_t cap)
{
    for (int level = TICK_ALL; level < TICK_COUNT; level++) {
        compose(p, level, buf, cap);
        if (width <= 0 || pb_utf8_cols(buf) <= (size_t)width) return;
    }
    pb_utf8_fit(buf, cap, width);
}

void pb_ticker_init(pb_ticker *t, FILE *f, int on, int width, uint64_t now_ns)
{
    memset(t, 0, sizeof *t);
    t->f = f;
    t->on = on;
    t->width = width;
    t->tty = isatty(fileno(f));
    /* a line rewritten in place must fit the terminal even where lines are unbounded (--wide, a
     * caller without a width): one that wraps is rewritten from its second row on */
    if (t->tty && width <= 0) t->width = pb_term_width();
    t->start_ns = now_ns;
    const char *e = getenv("PB_TEST_TICK");
    t->every_sample = e && !strcmp(e, "1");
}

int pb_ticker_due(const pb_ticker *t, uint64_t now_ns)
{
    if (!t->on) return 0;
    if (t->every_sample) return 1;
    uint64_t since = now_ns - (t->last_ns ? t->last_ns : t->start_ns);
    return (double)since * 1e-9 >= (t->tty ? PB_TICK_EVERY_S : PB_TICK_EVERY_PLAIN_S);
}

void pb_ticker_show(pb_ticker *t, const char *text, uint64_t now_ns)
{
    if (!t->on) return;
    t->last_ns = now_ns;
    if (!t->tty) {
        pb_term_line(t->f, t->width, text);
        return;
    }
    /* one column short of the width: a line that fills the last column wraps on some terminals,
     * and "\r" would then rewrite only its second half */
    char line[512];
    snprintf(line, sizeof line, "%s", text);
    if (t->width > 1) pb_utf8_fit(line, sizeof line, t->width - 1);
    fprintf(t->f, "\r%s\033[K", line);
    fflush(t->f);
    t->shown = 1;
}

void pb_ticker_clear(pb_ticker *t)
{
    if (!t->shown) return;
    fputs("\r\033[K", t->f);
    fflush(t->f);
    t->shown = 0;
}
