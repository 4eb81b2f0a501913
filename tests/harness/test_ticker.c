/* SPDX-License-Identifier: GPL-2.0-only */
/* ticker.h: the live progress line from fixed numbers (done, total, elapsed, ETA -> its text), its
 * parts left out until it fits 80 columns and less, and when and how a line is shown (the clock is
 * an argument: no test here reads it): in place on a terminal, cleared before anything else, plain
 * lines otherwise, nothing with --quiet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term.h"
#include "ticker.h"
#include "../lib/check.h"

#define S 1000000000ull

static void text(const pb_progress *p, int width, const char *exp)
{
    char buf[256];
    pb_progress_text(p, width, buf, sizeof buf);
    CHECK(!strcmp(buf, exp), "width %d: got '%s', want '%s'", width, buf, exp);
    CHECK(width <= 0 || pb_utf8_cols(buf) <= (size_t)width, "width %d: '%s' is wider", width, buf);
}

static void texts(void)
{
    pb_progress p = {.what = "measuring", .done = 41, .total = 100, .pass = 2, .passes = 4, .cell = 12, .ncells = 64,
                     .elapsed_s = 33.4, .eta_s = 47.2, .more = "make-up/boundary rounds"};
    text(&p, 0, "bench: measuring 41% (pass 2 of 4, cell 12 of 64), 33 s, ETA 47 s + make-up/boundary rounds if any");
    text(&p, 80, "bench: measuring 41% (pass 2 of 4, cell 12 of 64), 33 s, ETA 47 s+");
    text(&p, 60, "bench: measuring 41% (pass 2 of 4), 33 s, ETA 47 s+");
    text(&p, 40, "bench: measuring 41%, 33 s, ETA 47 s+");
    text(&p, 34, "bench: measuring 41%, ETA 47 s+");
    text(&p, 20, "bench: measuring 41…");
    p.more = NULL;
    p.passes = 1;
    p.eta_s = 200;
    p.elapsed_s = 3725;
    text(&p, 80, "bench: measuring 41% (cell 12 of 64), 1 h 02 min, ETA 3 min 20 s");
    /* not 100% before the end, 100% at it */
    p.done = 99.9;
    text(&p, 0, "bench: measuring 99% (cell 12 of 64), 1 h 02 min, ETA 3 min 20 s");
    /* under half a second left before the end: "< 1 s", not "0 s"; at the end, 0 s */
    p = (pb_progress){.what = "measuring", .done = 8, .total = 10, .elapsed_s = 2, .eta_s = 0.3};
    text(&p, 80, "bench: measuring 80%, 2 s, ETA < 1 s");
    p.done = 10, p.eta_s = 0;
    text(&p, 80, "bench: measuring 100%, 2 s, ETA 0 s");
    p = (pb_progress){.what = "make-up rounds", .done = 0, .total = 10, .elapsed_s = 2, .eta_s = -1};
    text(&p, 80, "bench: make-up rounds 0%, 2 s, ETA not known yet");
    char d[32];
    CHECK(!strcmp(pb_fmt_duration(d, sizeof d, 99.4), "99 s"), "99.4 s: %s", d);
    CHECK(!strcmp(pb_fmt_duration(d, sizeof d, 100), "1 min 40 s"), "100 s: %s", d);
    CHECK(!strcmp(pb_fmt_duration(d, sizeof d, -3), "0 s"), "-3 s: %s", d);
}

/* what a ticker writes to a memory stream, shown as a terminal or not */
static void shown(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) { printf("FAIL open_memstream\n"); exit(1); }
    pb_ticker t;
    unsetenv("PB_TEST_TICK");
    pb_ticker_init(&t, f, 1, 20, 100 * S);
    CHECK(!t.tty, "a memory stream is no terminal");
    CHECK(!pb_ticker_due(&t, 101 * S), "due in the first second");
    CHECK(pb_ticker_due(&t, 100 * S + (uint64_t)(PB_TICK_EVERY_PLAIN_S * 1e9)), "not due after the plain interval");
    pb_ticker_show(&t, "bench: measuring 50%, ETA 10 s", 105 * S);
    CHECK(!pb_ticker_due(&t, 106 * S), "due a second after a line");
    pb_ticker_clear(&t);   /* nothing to clear on a plain stream */
    fflush(f);
    CHECK(!strcmp(buf, "bench: measuring 50…\n"), "plain: got '%s'", buf);
    /* as a terminal: rewritten in place, one column short of the width, erased by clear */
    t.tty = 1;
    pb_ticker_show(&t, "bench: measuring 60%", 110 * S);
    pb_ticker_show(&t, "bench: measuring 70%", 112 * S);
    pb_ticker_clear(&t);
    pb_ticker_clear(&t);
    fflush(f);
    CHECK(!strcmp(buf, "bench: measuring 50…\n\rbench: measuring 6…\033[K\rbench: measuring 7…\033[K\r\033[K"),
          "terminal: got '%s'", buf);
    /* quiet: never due, nothing written */
    size_t before = len;
    pb_ticker_init(&t, f, 0, 80, 0);
    CHECK(!pb_ticker_due(&t, 1000 * S), "quiet: due");
    pb_ticker_show(&t, "x", 1000 * S);
    fflush(f);
    CHECK(len == before, "quiet: wrote '%s'", buf + before);
    fclose(f);
    free(buf);
}

int main(void)
{
    texts();
    shown();
    return check_summary();
}
