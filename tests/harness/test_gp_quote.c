/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_gp_quote, the one function through which names and paths reach a gnuplot script: quotes
 * are doubled, backquotes, double quotes and control characters are refused, never mangled. */
#include <stdio.h>
#include <string.h>

#include "pb.h"
#include "report.h"
#include "../lib/check.h"

static void quotes_to(const char *in, const char *want)
{
    char out[256];
    pb_err e = {{0}};
    int rc = pb_gp_quote(out, sizeof out, in, &e);
    CHECK(rc == 0 && !strcmp(out, want), "'%s': rc %d, got '%s', want '%s' (%s)", in, rc, rc ? "" : out, want, e.msg);
}

static void refused(const char *in, size_t cap, const char *why)
{
    char out[256];
    pb_err e = {{0}};
    int rc = pb_gp_quote(out, cap, in, &e);
    CHECK(rc < 0 && strstr(e.msg, why), "'%s' (cap %zu): rc %d, message '%s', want '%s'", in, cap, rc, e.msg, why);
}

int main(void)
{
    quotes_to("kmod-old", "kmod-old");
    quotes_to("", "");
    quotes_to("o'ld", "o''ld");
    quotes_to("ab'", "ab''");
    quotes_to("a'b'c", "a''b''c");
    refused("''", 256, "repeated single quote");
    refused("'x", 256, "leading");
    refused("it''s", 256, "repeated single quote");
    quotes_to("z'$(touch X)'", "z''$(touch X)''");      /* no shell ever sees it; gnuplot reads $( as text */
    quotes_to("back\\slash", "back\\slash");             /* single-quoted gnuplot strings have no escapes */
    quotes_to("hmac(sha1) ünïcode", "hmac(sha1) ünïcode");
    refused("kmod-old'`touch${IFS}X`'", 256, "backquote");
    refused("`", 256, "backquote");
    refused("a\nb", 256, "control character 0x0a");
    refused("a\rb", 256, "control character 0x0d");
    refused("tab\there", 256, "control character 0x09");
    refused("del\x7f", 256, "control character 0x7f");
    refused("say \"hi\"", 256, "double quote");
    refused("abcd", 4, "too long");   /* 4 chars + NUL do not fit in 4 */
    refused("ab'", 4, "too long");    /* the doubled quote does not fit */
    quotes_to("abc", "abc");
    {
        char out[4];
        pb_err e = {{0}};
        CHECK(pb_gp_quote(out, sizeof out, "abc", &e) == 0 && !strcmp(out, "abc"), "exact fit");
        CHECK(pb_gp_quote(out, 0, "", &e) < 0, "cap 0 refused");
    }
    return check_summary();
}
