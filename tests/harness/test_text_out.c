/* SPDX-License-Identifier: GPL-2.0-only */
/* text_out.h: store text as Markdown text, as a Markdown code span and as a CSV field stays text,
 * with the hostile names of issue 21 (a backquote ending the span, HTML after it, links, table
 * cells ended by '|', spreadsheet formulas): the exact output of each, so that a change shows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "text_out.h"
#include "../lib/check.h"

static void want(void (*put)(FILE *, const char *), const char *what, const char *in, const char *exp)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) { printf("FAIL open_memstream\n"); exit(1); }
    put(f, in);
    fclose(f);
    CHECK(!strcmp(buf, exp), "%s '%s': got '%s', want '%s'", what, in, buf, exp);
    free(buf);
}

/* pb_text_paths_shown: no absolute path of this machine in what a person reads */
static void want_shown(const char *in, const char *exp)
{
    char out[512];
    pb_text_paths_shown(out, sizeof out, in);
    CHECK(!strcmp(out, exp), "paths '%s': got '%s', want '%s'", in, out, exp);
}

static void paths(void)
{
    want_shown("threshold 15% (/src/pb/ci/thresholds:17); alpha 0.05", "threshold 15% (.../ci/thresholds:17); alpha 0.05");
    want_shown("baseline build x (/tmp/w/abc/build/harness/libpbsuites.so), candidate",
               "baseline build x (.../harness/libpbsuites.so), candidate");
    want_shown("cost B/A, 1/mb_per_s, a/b and /x", "cost B/A, 1/mb_per_s, a/b and .../x");
    want_shown("file=/etc/passwd,'/root/k'", "file=.../etc/passwd,'.../root/k'");
    char cwd[400], in[512];
    if (getcwd(cwd, sizeof cwd)) {
        snprintf(in, sizeof in, "(%s/ci/thresholds:3)", cwd);
        want_shown(in, "(ci/thresholds:3)");
    }
}

int main(void)
{
    paths();
    /* Markdown: the fence is longer than any backquote run inside, so the span ends only at its end */
    want(pb_md_code_fputs, "md", "bench run --suite xts", "`bench run --suite xts`");
    want(pb_md_code_fputs, "md", "a`b <img src=x onerror=alert(1)>", "``a`b <img src=x onerror=alert(1)>``");
    want(pb_md_code_fputs, "md", "x ``` y", "````x ``` y````");
    want(pb_md_code_fputs, "md", "`start", "`` `start ``");
    want(pb_md_code_fputs, "md", "end`", "`` end` ``");
    want(pb_md_code_fputs, "md", " padded ", "`  padded  `");
    /* a blank line would end the paragraph, and the span with it */
    want(pb_md_code_fputs, "md", "a\n\n<script>x</script>", "`a  <script>x</script>`");
    want(pb_md_code_fputs, "md", "tab\there\r\x7f", "`tab here  `");
    want(pb_md_code_fputs, "md", "kB \xc2\xb1", "`kB \xc2\xb1`");
    /* what the reader sees decides the padding: control characters count as the spaces they become */
    want(pb_md_code_fputs, "md", "\x01x\x1b", "`  x  `");
    want(pb_md_code_fputs, "md", "end ", "`end `");
    /* no empty code span in CommonMark ("``" shows two backquotes), and spaces only are kept */
    want(pb_md_code_fputs, "md", "", "` `");
    want(pb_md_code_fputs, "md", "   ", "`   `");
    /* Markdown text: entities for & < >, a backslash before what opens markup or ends a cell */
    want(pb_md_text_fputs, "md text", "kmod-old (hmac(sha1))", "kmod-old (hmac(sha1))");
    want(pb_md_text_fputs, "md text", "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;");
    want(pb_md_text_fputs, "md text", "[l](javascript:x) *b* _e_ ~~s~~", "\\[l\\](javascript:x) \\*b\\* \\_e\\_ \\~\\~s\\~\\~");
    want(pb_md_text_fputs, "md text", "a | b `c` # \\", "a \\| b \\`c\\` \\# \\\\");
    want(pb_md_text_fputs, "md text", "&amp;\n\nx\t\x7f", "&amp;amp;  x  ");
    /* CSV: RFC 4180 quoting, and OWASP's neutralising quote before a formula's first character */
    want(pb_csv_fputs, "csv", "old-nomem", "old-nomem");
    want(pb_csv_fputs, "csv", "@SUM(A1)", "\"'@SUM(A1)\"");
    want(pb_csv_fputs, "csv", "=1+2", "\"'=1+2\"");
    want(pb_csv_fputs, "csv", "+cmd|' /C calc'!A0", "\"'+cmd|' /C calc'!A0\"");
    want(pb_csv_fputs, "csv", "-2+3", "\"'-2+3\"");
    want(pb_csv_fputs, "csv", "\t=x", "\"'\t=x\"");
    want(pb_csv_fputs, "csv", "\r=x", "\"'\r=x\"");
    want(pb_csv_fputs, "csv", "a,b", "\"a,b\"");
    want(pb_csv_fputs, "csv", "say \"hi\"", "\"say \"\"hi\"\"\"");
    want(pb_csv_fputs, "csv", "=\"x\",y", "\"'=\"\"x\"\",y\"");
    want(pb_csv_fputs, "csv", "", "");
    want(pb_csv_fputs, "csv", "a=b", "a=b");
    /* text for a terminal: no control byte gets through (an ESC would start a sequence) */
    {
        static const char *const in[][2] = {
            {"\033[31mred\033[0m", "?[31mred?[0m"}, {"a\rb", "a?b"}, {"tab\there", "tab?here"},
            {"del\x7f", "del?"}, {"plain <b> \xc3\xa9", "plain <b> \xc3\xa9"}, {"", ""},
        };
        for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
            char out[64];
            CHECK(!strcmp(pb_term_text(out, sizeof out, in[i][0]), in[i][1]), "terminal text '%s': got '%s'", in[i][1],
                  out);
        }
        char small[4];
        CHECK(!strcmp(pb_term_text(small, sizeof small, "abcdef"), "abc"), "terminal text cut");
    }
    return check_summary();
}
