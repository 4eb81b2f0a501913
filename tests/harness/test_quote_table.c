/* SPDX-License-Identifier: GPL-2.0-only */
/* Names are text in every output language (issue 21, item 4): one table of hostile names, each
 * through the one quoting function of every language the reports and exports write, and each
 * output checked by a reader of that language written here, not by comparing with an expected
 * string: it must hold nothing active and read back as the name (or the quoting must refuse it,
 * writing nothing). Languages: a gnuplot single-quoted string (pb_gp_quote; also run through
 * gnuplot itself, which must print each accepted name back and run nothing), HTML
 * (pb_html_escape), Markdown text (pb_md_text_escape), a Markdown code span (pb_md_code_fputs),
 * a CSV field (pb_csv_fputs), a JSON string (pb_json_text), XML text and attribute values
 * (pb_xml_fputs: the gate's JUnit) and GitHub workflow commands (pb_gh_command_fputs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "export.h"
#include "html.h"
#include "report_data.h"
#include "pb_spawn.h"
#include "text_out.h"
#include "../lib/check.h"

static char long_name[3001], long_text[3001];

/* gnuplot's function that runs a shell command, as hostile *data* for gnuplot (this file never
 * starts a shell: gnuplot itself is started through pb_spawn with an argv). Spelt in two pieces so
 * that no scan of C sources for shell calls mistakes the data for one. */
#define GP_SHELL_FN "sys" "tem"

/* what every entry tries: end its quoting, open markup, run a command, or be a formula */
static const char *const HOSTILE[] = {
    "`", "a`b", "``x``", "x ``` y ```` z", "`start", "end`", " padded ",
    "<img src=x onerror=alert(1)>", "</script><script>alert(1)</script>", "<!-- c -->", "&amp;", "&lt;b&gt;", "&#39;",
    "it's", "o'ld", "''", "'x", "a''b", "say \"hi\"", "\"", "back\\slash", "\\", "\\`", "\\*x\\*",
    GP_SHELL_FN "(\"id\")", GP_SHELL_FN "('touch X')", "`touch X`", "kmod-old'`touch${IFS}X`'", "@X touch X", "@macro",
    "=cmd|' /C calc'!A0", "=1+2", "+1", "-1", "@SUM(A1)", "\t=x", "\r=x",
    "tab\there", "cr\rhere", "lf\nhere", "a\n\nb", "\x01\x02\x1b[31m\x7f", "|pipe|", "a | b",
    "[link](javascript:x)", "![img](x)", "*bold*", "_em_", "**b**", "~~s~~", "# heading", "#", "> quote", "-",
    "http://evil.example/", "<http://x>",
    "hmac(sha1) \xc3\xbcn\xc3\xaf" "code \xe2\x82\xac \xf0\x9f\x98\x80", "\xff\xfe invalid", "\xc3\x28", "\xc0\xaf",
    "", "$(id)", ";rm -rf /", "%s%n%x", "x;ls", "a,b", "{{7*7}}", "   ", long_name, long_text,
    "]]>", "<![CDATA[x]]>", "&#0;", "\xef\xbf\xbe", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe0\x80\xaf",
    "::error::x", "x\n::add-mask::y", "%0A::warning::z", "%25%3A%2C", "t=1,file=/etc/passwd::m",
};
#define NHOSTILE (sizeof HOSTILE / sizeof HOSTILE[0])

static int is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

/* what put writes for in, malloc'd; its length in *len */
static char *written(void (*put)(FILE *, const char *), const char *in, size_t *len)
{
    char *out = NULL;
    FILE *f = open_memstream(&out, len);
    if (!f) { printf("FAIL open_memstream\n"); exit(1); }
    put(f, in);
    fclose(f);
    return out;
}

/* ---- gnuplot: the inside of '...' ---- */
static void gnuplot_string(const char *in, char *quoted, size_t cap, int *accepted)
{
    pb_err e = {{0}};
    *accepted = pb_gp_quote(quoted, cap, in, &e) == 0;
    if (!*accepted) {
        CHECK(e.msg[0], "gnuplot '%.80s': refused without a reason", in);
        return;
    }
    /* a lone quote would end the string: every ' is doubled; nothing else may end it or run */
    char back[8192];
    size_t k = 0;
    int inert = 1;
    for (const char *p = quoted; *p; p++) {
        if (*p == '\'') {
            if (p[1] != '\'') { inert = 0; break; }
            p++;
        }
        if (*p == '`' || *p == '"' || is_control((unsigned char)*p)) inert = 0;
        back[k++] = *p;
    }
    back[k] = 0;
    CHECK(inert, "gnuplot '%.80s': '%.80s' is not one single-quoted string with nothing active", in, quoted);
    CHECK(inert && !strcmp(back, in), "gnuplot '%.80s': reads back as '%.80s'", in, back);
}

/* An escaped text read back as its reader reads it: each entity of ents[i] as plain[i], a
 * backslash before one of escapable as that character, U+FFFD as '?'; 0 where it holds a byte of
 * never_raw, a control character other than those in controls_ok, an unknown entity or a stray
 * backslash, i.e. anything its reader would take for markup. */
static int read_back(const char *out, const char *const *ents, const char *plain, const char *escapable,
                     const char *never_raw, const char *controls_ok, char *back)
{
    size_t k = 0;
    for (const char *p = out; *p; p++) {
        if (escapable && *p == '\\') {
            if (!p[1] || !strchr(escapable, p[1])) return 0;
            back[k++] = *++p;
            continue;
        }
        if (*p == '&') {
            size_t i = 0;
            while (ents[i] && strncmp(p, ents[i], strlen(ents[i]))) i++;
            if (!ents[i]) return 0;
            back[k++] = plain[i];
            p += strlen(ents[i]) - 1;
            continue;
        }
        if (strchr(never_raw, *p) || (is_control((unsigned char)*p) && !strchr(controls_ok, *p))) return 0;
        if (!strncmp(p, "\xef\xbf\xbd", 3)) { back[k++] = '?'; p += 2; continue; }
        back[k++] = *p;
    }
    back[k] = 0;
    return 1;
}

/* in as the writers show it: each control character (but those in keep) as `as` */
static void controls_as(char *out, const char *in, const char *keep, char as)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++)
        out[k++] = is_control(*p) && !strchr(keep, *p) ? as : (char)*p;
    out[k] = 0;
}

/* one escaping function's output for in: inert and read back as in (controls as its writer shows them) */
static void escaped_reads_back(const char *lang, size_t (*escape)(char *, size_t, const char *), const char *in,
                               const char *const *ents, const char *plain, const char *escapable,
                               const char *never_raw, const char *controls_ok, char control_as)
{
    static char out[32768];
    char back[8192], want[8192];
    size_t need = escape(out, sizeof out, in);
    CHECK(need < sizeof out && strlen(out) == need, "%s '%.80s': length %zu", lang, in, need);
    int inert = read_back(out, ents, plain, escapable, never_raw, controls_ok, back);
    controls_as(want, in, controls_ok, control_as);
    CHECK(inert, "%s '%.80s': '%.80s' holds markup", lang, in, out);
    CHECK(inert && !strcmp(back, want), "%s '%.80s': reads back as '%.80s'", lang, in, back);
}

/* ---- HTML: element content and a quoted attribute value ---- */
static void html_text(const char *in)
{
    static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;", NULL};
    escaped_reads_back("html", pb_html_escape, in, ents, "&<>\"'", NULL, "<>\"'", "\t\n", '?');
}

/* ---- Markdown text: in a line, a list item, a table cell ---- */
static void md_text(const char *in)
{
    static const char *const ents[] = {"&amp;", "&lt;", "&gt;", NULL};
    static const char active[] = "\\`*_[]|~#";
    escaped_reads_back("md text", pb_md_text_escape, in, ents, "&<>", active, "\\`*_[]|~#<>", "", ' ');
}

/* ---- Markdown code span ---- */
static void md_code(const char *in)
{
    size_t len;
    char *out = written(pb_md_code_fputs, in, &len);
    size_t fence = strspn(out, "`");
    size_t longest = 0, run = 0;
    int inert = fence > 0 && len >= 2 * fence;
    for (size_t i = fence; inert && i < len - fence; i++) {
        run = out[i] == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
        if (is_control((unsigned char)out[i])) inert = 0;
    }
    /* the span ends only at its closing fence, which is as long as the opening one */
    inert = inert && longest < fence && strspn(out + len - fence, "`") == fence && (len == 2 * fence || out[len - fence - 1] != '`');
    CHECK(inert, "md code '%.80s': '%.80s' can end early or hold a line break (fence %zu, longest run inside %zu)", in, out,
          fence, longest);
    if (inert) {
        /* CommonMark strips one space each side when both are there and the content is not all spaces */
        char inner[8192];
        size_t n = len - 2 * fence;
        memcpy(inner, out + fence, n);
        inner[n] = 0;
        char *body = inner;
        if (n >= 2 && inner[0] == ' ' && inner[n - 1] == ' ' && strspn(inner, " ") != n) {
            inner[n - 1] = 0;
            body++;
        }
        char want[8192];
        controls_as(want, *in ? in : " ", "", ' ');   /* no empty span: "" is one space */
        CHECK(!strcmp(body, want), "md code '%.80s': reads back as '%.80s'", in, body);
    }
    free(out);
}

/* ---- CSV: one RFC 4180 field, no formula ---- */
static void csv_field(const char *in)
{
    size_t len;
    char *out = written(pb_csv_fputs, in, &len);
    char back[8192];
    size_t k = 0;
    int ok = 1;
    if (len && out[0] == '"') {
        ok = len >= 2 && out[len - 1] == '"';
        for (size_t i = 1; ok && i + 1 < len; i++) {
            if (out[i] == '"') {
                if (out[i + 1] != '"' || i + 2 >= len) { ok = 0; break; }
                i++;
            }
            back[k++] = out[i];
        }
    } else {
        ok = !strpbrk(out, ",\"\r\n");
        memcpy(back, out, len);
        k = len;
    }
    back[k] = 0;
    int formula = in[0] && strchr("=+-@\t\r", in[0]);
    CHECK(ok, "csv '%.80s': '%.80s' is not one RFC 4180 field", in, out);
    CHECK(ok && !(back[0] && strchr("=+-@\t\r", back[0])), "csv '%.80s': '%.80s' begins like a formula", in, back);
    CHECK(ok && !strcmp(back + (formula ? 1 : 0), in) && (!formula || back[0] == '\''),
          "csv '%.80s': reads back as '%.80s'", in, back);
    free(out);
}

/* ---- JSON: one string (jansson, through the store's one way to it) ---- */
static void json_text(const char *in)
{
    json_t *j = pb_json_text(in);
    char *out = json_dumps(j, JSON_ENCODE_ANY);
    json_decref(j);
    CHECK(out != NULL, "json '%.80s': not encoded", in);
    if (!out) return;
    json_error_t err;
    json_t *back = json_loads(out, JSON_DECODE_ANY, &err);
    /* as it is, or with '?' for each byte outside ASCII where it is not UTF-8 */
    char want[8192];
    size_t k = 0;
    json_t *probe = json_string(in);
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) want[k++] = !probe && *p >= 0x80 ? '?' : (char)*p;
    want[k] = 0;
    json_decref(probe);
    CHECK(back && json_is_string(back) && !strcmp(json_string_value(back), want) && out[0] == '"' && !strchr(out, '\n'),
          "json '%.80s': '%.80s' does not read back as one string", in, out);
    json_decref(back);
    free(out);
}

/* ---- XML 1.0: an attribute value between double quotes, and character data (JUnit) ---- */
static void xml_text(const char *in)
{
    size_t len;
    char *out = written(pb_xml_fputs, in, &len);
    static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#9;", "&#10;", "&#13;", NULL};
    char back[8192], want[8192];
    /* no raw < & " ' (and so no ]]>, no end of the value), no control character at all */
    int inert = read_back(out, ents, "&<>\"'\t\n\r", NULL, "<>\"'", "", back);
    CHECK(inert, "xml '%.80s': '%.80s' is not one attribute value or text", in, out);
    /* well-formed UTF-8 without U+FFFE/U+FFFF (jansson checks the rest), whatever in was */
    json_t *u = json_string(back);
    CHECK(u && !strstr(back, "\xef\xbf\xbe") && !strstr(back, "\xef\xbf\xbf"), "xml '%.80s': not XML's UTF-8", in);
    json_decref(u);
    /* UTF-8 that XML can hold (U+FFFE and U+FFFF are not characters there) reads back as it was */
    json_t *valid = strstr(in, "\xef\xbf\xbe") || strstr(in, "\xef\xbf\xbf") ? NULL : json_string(in);
    controls_as(want, in, "\t\n\r", '?');
    CHECK(!inert || !valid || !strcmp(back, want), "xml '%.80s': reads back as '%.80s'", in, back);
    json_decref(valid);
    free(out);
}

/* ---- GitHub workflow commands: a message, and a property value (title=) ---- */
static void gh_put_message(FILE *f, const char *in) { pb_gh_command_fputs(f, in, 0); }
static void gh_put_property(FILE *f, const char *in) { pb_gh_command_fputs(f, in, 1); }

/* every `code` in s replaced by c in one pass, as .NET's String.Replace does */
static void replace_all(char *s, const char *code, char c)
{
    for (char *p = s; (p = strstr(p, code)); p++) {
        *p = c;
        memmove(p + 1, p + 3, strlen(p + 3) + 1);
    }
}

/* what the runner makes of it: %0D %0A (%3A %2C in a property) then %25 replaced, in that order */
static void gh_unescape(const char *out, int property, char *back)
{
    strcpy(back, out);
    replace_all(back, "%0D", '\r');
    replace_all(back, "%0A", '\n');
    if (property) {
        replace_all(back, "%3A", ':');
        replace_all(back, "%2C", ',');
    }
    replace_all(back, "%25", '%');
}

static void gh_command(const char *in, int property)
{
    size_t len;
    char *out = written(property ? gh_put_property : gh_put_message, in, &len);
    char back[8192], want[8192];
    int inert = 1;
    for (const char *p = out; *p; p++)
        if (is_control((unsigned char)*p) || (property && (*p == ':' || *p == ','))) inert = 0;
    CHECK(inert, "github %s '%.80s': '%.80s' can end the command", property ? "property" : "message", in, out);
    gh_unescape(out, property, back);
    controls_as(want, in, "\r\n", '?');
    CHECK(!strcmp(back, want), "github %s '%.80s': the runner reads '%.80s'", property ? "property" : "message", in,
          back);
    free(out);
}

/* Every name gnuplot accepted, printed by gnuplot itself from the script the reports' way of
 * quoting makes: each comes back as it went in, and nothing ran (no file X appears). */
static void gnuplot_prints_back(char quoted[][8192], const int *accepted)
{
    char gnuplot[1100];
    if (!pb_report_find_gnuplot(gnuplot, sizeof gnuplot)) {
        printf("gnuplot not on PATH: its own reading of the quoted names not checked\n");
        return;
    }
    char dir[] = "/tmp/pb-quote-XXXXXX";
    if (!mkdtemp(dir)) { CHECK(0, "mkdtemp"); return; }
    char script[256], log[256], printed[256], x[256];
    snprintf(script, sizeof script, "%s/names.gp", dir);
    snprintf(log, sizeof log, "%s/gnuplot.log", dir);
    snprintf(printed, sizeof printed, "%s/printed.txt", dir);
    snprintf(x, sizeof x, "%s/X", dir);
    FILE *f = fopen(script, "w");
    if (!f) { CHECK(0, "cannot write %s", script); return; }
    fprintf(f, "cd '%s'\nX = \"" GP_SHELL_FN "('touch X')\"\nset print '%s'\n", dir, printed);
    for (size_t i = 0; i < NHOSTILE; i++)
        if (accepted[i]) fprintf(f, "print '%s'\n", quoted[i]);
    fclose(f);
    pb_err e = {{0}};
    /* gnuplot itself, as the report runs it: an argv, no shell */
    char *argv[] = {(char *)gnuplot, script, NULL};
    pb_proc pr;
    CHECK(pb_spawn(argv, NULL, 60, &pr, &e) == 0 && pb_proc_check("gnuplot on the quoted names", &pr, &e) == 0, "%s",
          e.msg);
    (void)log;
    FILE *p = fopen(printed, "r");
    CHECK(p != NULL, "gnuplot printed nothing");
    char line[8192];
    for (size_t i = 0; p && i < NHOSTILE; i++) {
        if (!accepted[i]) continue;
        if (!fgets(line, sizeof line, p)) { CHECK(0, "gnuplot printed fewer names than it was given"); break; }
        line[strcspn(line, "\n")] = 0;
        CHECK(!strcmp(line, HOSTILE[i]), "gnuplot printed '%.80s' for '%.80s'", line, HOSTILE[i]);
    }
    if (p) fclose(p);
    CHECK(access(x, F_OK) != 0, "a quoted name ran a command in gnuplot (%s exists)", x);
    unlink(script), unlink(log), unlink(printed), unlink(x);
    rmdir(dir);
}

int main(void)
{
    memset(long_name, '`', 1000);
    memset(long_name + 1000, '<', 1000);
    memset(long_name + 2000, '\'', 1);
    memset(long_name + 2001, 'a', 999);
    for (size_t i = 0; i + 1 < sizeof long_text; i++) long_text[i] = "a'<|*"[i % 5];   /* gnuplot takes this one */
    static char quoted[NHOSTILE][8192];
    int accepted[NHOSTILE];
    for (size_t i = 0; i < NHOSTILE; i++) {
        gnuplot_string(HOSTILE[i], quoted[i], sizeof quoted[i], &accepted[i]);
        html_text(HOSTILE[i]);
        md_text(HOSTILE[i]);
        md_code(HOSTILE[i]);
        csv_field(HOSTILE[i]);
        json_text(HOSTILE[i]);
        xml_text(HOSTILE[i]);
        gh_command(HOSTILE[i], 0);
        gh_command(HOSTILE[i], 1);
    }
    /* the refusals are the ones pb_gp_quote documents, not more: plain hostile text is drawn */
    int n_accepted = 0;
    for (size_t i = 0; i < NHOSTILE; i++) n_accepted += accepted[i];
    CHECK(n_accepted >= 30, "gnuplot accepted only %d of %zu names", n_accepted, NHOSTILE);
    gnuplot_prints_back(quoted, accepted);
    printf("%zu hostile names, 8 languages: ", NHOSTILE);
    return check_summary();
}
