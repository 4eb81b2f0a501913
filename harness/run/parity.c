/* SPDX-License-Identifier: GPL-2.0-only */
/* parity.c — see parity.h. */
#include "parity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FLAGS 256

typedef struct flag {
    char key[64], val[128];
} flag;

typedef struct flagset {
    int n;
    flag v[MAX_FLAGS];
} flagset;

/* Options that do not change the code (parity.h), by prefix; those marked take a separate argument. */
static const struct { const char *prefix; int exact, takes_arg; } IGNORED[] = {
    {"-g", 0, 0}, {"-W", 0, 0}, {"-D", 0, 0}, {"-U", 0, 0}, {"-I", 0, 0}, {"-std=", 0, 0},
    {"-fPIC", 1, 0}, {"-fpic", 1, 0}, {"-fPIE", 1, 0}, {"-fpie", 1, 0}, {"-fvisibility", 0, 0},
    {"-ffunction-sections", 1, 0}, {"-fdata-sections", 1, 0}, {"-frecord-gcc-switches", 1, 0},
    {"-fdiagnostics", 0, 0}, {"-fmessage-length", 0, 0}, {"-fdebug-prefix-map", 0, 0}, {"-ffile-prefix-map", 0, 0},
    {"-fmacro-prefix-map", 0, 0}, {"-pedantic", 0, 0}, {"-pipe", 1, 0}, {"-quiet", 1, 0}, {"-c", 1, 0},
    {"-M", 0, 0}, {"-o", 1, 1}, {"-imultiarch", 1, 1}, {"-dumpbase", 1, 1}, {"-dumpdir", 1, 1}, {"-dumpbase-ext", 1, 1},
    {"-auxbase", 1, 1}, {"-auxbase-strip", 1, 1}, {"-isystem", 1, 1}, {"-iquote", 1, 1}, {"-include", 1, 1},
    {"-idirafter", 1, 1}, {"-MF", 1, 1}, {"-MQ", 1, 1}, {"-MT", 1, 1},
};

/* 0: compared; 1: ignored; 2: ignored with the next word */
static int ignored(const char *tok)
{
    for (size_t i = 0; i < sizeof IGNORED / sizeof IGNORED[0]; i++) {
        size_t n = strlen(IGNORED[i].prefix);
        if (IGNORED[i].exact ? !strcmp(tok, IGNORED[i].prefix) : !strncmp(tok, IGNORED[i].prefix, n))
            return IGNORED[i].takes_arg ? 2 : 1;
    }
    return 0;
}

/* "-O2" -> (-O, 2); "-fno-x" -> (-fx, no); "-mx=v" -> (-mx, v); "-fstack-protector-strong" ->
 * (-fstack-protector, strong): one key per option, whatever form set it. */
static void split_flag(const char *tok, char *key, size_t kc, char *val, size_t vc)
{
    const char *eq = strchr(tok, '=');
    if (tok[1] == 'O') {
        snprintf(key, kc, "-O");
        snprintf(val, vc, "%s", tok[2] ? tok + 2 : "1");
        return;
    }
    if (!strncmp(tok, "-fstack-protector", 17) || !strncmp(tok, "-fno-stack-protector", 20)) {
        snprintf(key, kc, "-fstack-protector");
        snprintf(val, vc, "%s", tok[2] == 'n' ? "no" : tok[17] == '-' ? tok + 18 : "yes");
        return;
    }
    if (!strncmp(tok, "--param", 7)) {   /* one key per parameter: --param=NAME=VALUE */
        const char *last = strrchr(tok, '=');
        snprintf(key, kc, "%.*s", (int)(last && last > tok + 8 ? last - tok : (long)strlen(tok)), tok);
        snprintf(val, vc, "%s", last && last > tok + 8 ? last + 1 : "yes");
        return;
    }
    int neg = (tok[1] == 'f' || tok[1] == 'm') && !strncmp(tok + 2, "no-", 3);
    const char *name = neg ? tok + 5 : tok + 2;
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    snprintf(key, kc, "-%c%.*s", tok[1], (int)len, name);
    snprintf(val, vc, "%s", neg ? "no" : eq ? eq + 1 : "yes");
}

static void set_flag(flagset *s, const char *key, const char *val)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].key, key)) {
            snprintf(s->v[i].val, sizeof s->v[i].val, "%s", val);   /* the last one wins */
            return;
        }
    if (s->n == MAX_FLAGS) return;
    snprintf(s->v[s->n].key, sizeof s->v[0].key, "%s", key);
    snprintf(s->v[s->n++].val, sizeof s->v[0].val, "%s", val);
}

static void parse_flags(const char *text, flagset *s)
{
    s->n = 0;
    char tok[256];
    int skip = 0;
    for (const char *p = text ? text : ""; *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (!n) break;
        snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), p);
        p += n;
        if (skip) { skip = 0; continue; }
        if (tok[0] != '-' || !tok[1]) continue;   /* a file name, a producer's words */
        int ig = ignored(tok);
        if (ig) { skip = ig == 2; continue; }
        char key[64], val[128];
        split_flag(tok, key, sizeof key, val, sizeof val);
        set_flag(s, key, val);
    }
}

static const char *get_flag(const flagset *s, const char *key)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].key, key)) return s->v[i].val;
    return NULL;
}

/* x86-64 GCC's values for options not given (parity.h); march: only under that -march */
static const struct { const char *key, *val, *march; } DEFAULTS[] = {
    {"-march", "x86-64", NULL}, {"-mtune", "generic", NULL}, {"-O", "0", NULL},
    {"-fasynchronous-unwind-tables", "yes", NULL}, {"-mred-zone", "yes", NULL}, {"-m80387", "yes", NULL},
    {"-mfp-ret-in-387", "yes", NULL}, {"-mmmx", "yes", "x86-64"}, {"-msse", "yes", "x86-64"},
    {"-msse2", "yes", "x86-64"}, {"-mavx", "no", "x86-64"}, {"-maes", "no", "x86-64"}, {"-mpclmul", "no", "x86-64"},
    {"-m3dnow", "no", "x86-64"},
};

static const char *default_of(const flagset *s, const char *key)
{
    const char *march = get_flag(s, "-march");
    for (size_t i = 0; i < sizeof DEFAULTS / sizeof DEFAULTS[0]; i++)
        if (!strcmp(DEFAULTS[i].key, key) && (!DEFAULTS[i].march || !strcmp(march ? march : "x86-64", DEFAULTS[i].march)))
            return DEFAULTS[i].val;
    return NULL;
}

/* key=val as the compiler takes it; NULL val: "(not given)"; dflt: the compiler's default */
static void flag_form(char *out, size_t cap, const char *key, const char *val, int dflt)
{
    const char *d = dflt ? " (default)" : "";
    if (!val) snprintf(out, cap, "(not given)");
    else if (!strcmp(key, "-O")) snprintf(out, cap, "-O%s%s", val, d);
    else if (!strcmp(key, "-fstack-protector") && strcmp(val, "yes") && strcmp(val, "no"))
        snprintf(out, cap, "%s-%s%s", key, val, d);
    else if (!strcmp(val, "yes")) snprintf(out, cap, "%s%s", key, d);
    else if (!strcmp(val, "no")) snprintf(out, cap, "-%cno-%s%s", key[1], key + 2, d);
    else snprintf(out, cap, "%s=%s%s", key, val, d);
}

static void append(char *out, size_t cap, const char *fmt, const char *a, const char *b)
{
    size_t k = strlen(out);
    if (k + 1 < cap) snprintf(out + k, cap - k, fmt, a, b);
    k = strlen(out);
    if (k + 1 >= cap && cap > 4) memcpy(out + cap - 4, "...", 4);
}

/* One key of both sides; 1 if it differs (and its words are appended to out). */
static int diff_key(const flagset *a, const flagset *b, const char *key, char *out, size_t cap)
{
    const char *va = get_flag(a, key), *vb = get_flag(b, key);
    int da = !va, db = !vb;
    if (!va) va = default_of(a, key);
    if (!vb) vb = default_of(b, key);
    if (va && vb && !strcmp(va, vb)) return 0;
    if (!va && !vb) return 0;
    char fa[200], fb[200];
    flag_form(fa, sizeof fa, key, va, da && va);
    flag_form(fb, sizeof fb, key, vb, db && vb);
    append(out, cap, *out ? ", %s / %s" : "%s / %s", fa, fb);
    return 1;
}

static int has_key_before(const flagset *s, int upto, const char *key)
{
    for (int i = 0; i < upto; i++)
        if (!strcmp(s->v[i].key, key)) return 1;
    return 0;
}

/* "x / y, ..." for every option whose effective value differs; how many */
static int diff_flags(const char *fa, const char *fb, char *out, size_t cap)
{
    flagset *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    int n = 0;
    out[0] = 0;
    if (!a || !b) {
        free(a);
        free(b);
        snprintf(out, cap, "(out of memory comparing them)");
        return 1;
    }
    parse_flags(fa, a);
    parse_flags(fb, b);
    for (int i = 0; i < a->n; i++) n += diff_key(a, b, a->v[i].key, out, cap);
    for (int i = 0; i < b->n; i++)
        if (!get_flag(a, b->v[i].key) && !has_key_before(b, i, b->v[i].key)) n += diff_key(a, b, b->v[i].key, out, cap);
    free(a);
    free(b);
    return n;
}

void pb_parity_effective(const char *flags, char *out, size_t cap)
{
    flagset *s = malloc(sizeof *s);
    out[0] = 0;
    if (!s) return;
    parse_flags(flags, s);
    for (int i = 0; i < s->n; i++) {
        char f[200];
        flag_form(f, sizeof f, s->v[i].key, s->v[i].val, 0);
        append(out, cap, *out ? " %s%s" : "%s%s", f, "");
    }
    free(s);
}

/* ---- sonames ---- */

/* "libfoo.so.1.2" -> length of "libfoo.so" (the name without its version), or its whole length */
static size_t soname_base(const char *s, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i++)
        if (!strncmp(s + i, ".so", 3) && (i + 3 == n || s[i + 3] == '.')) return i + 3;
    return n;
}

/* Is there a word in list with the same base as w (w's own length n); which one, in *hit */
static int same_base(const char *list, const char *w, size_t n, const char **hit, size_t *hn)
{
    size_t bw = soname_base(w, n);
    for (const char *p = list ? list : ""; *p;) {
        while (*p == ' ') p++;
        size_t m = strcspn(p, " ");
        if (!m) break;
        if (soname_base(p, m) == bw && !strncmp(p, w, bw)) {
            *hit = p;
            *hn = m;
            return 1;
        }
        p += m;
    }
    return 0;
}

/* a's sonames against b's: another version of one, or (unless b is the process) one missing */
static int diff_needed_one_way(const pb_build_side *a, const pb_build_side *b, int reverse, char *out, size_t cap)
{
    int n = 0;
    for (const char *p = a->needed ? a->needed : ""; *p;) {
        while (*p == ' ') p++;
        size_t m = strcspn(p, " ");
        if (!m) break;
        const char *hit;
        size_t hn;
        char wa[256], wb[256];
        snprintf(wa, sizeof wa, "%.*s", (int)m, p);
        int found = same_base(b->needed, p, m, &hit, &hn);
        if (found) snprintf(wb, sizeof wb, "%.*s", (int)hn, hit);
        p += m;
        if (found ? !strcmp(wa, wb) || reverse : b->needed_is_process) continue;
        if (!found) snprintf(wb, sizeof wb, "(not linked)");
        append(out, cap, *out ? ", %s / %s" : "%s / %s", reverse ? wb : wa, reverse ? wa : wb);
        n++;
    }
    return n;
}

/* ---- the comparison ---- */

static const char *known(const char *s) { return s && *s ? s : NULL; }

static void warn(char *out, size_t cap, const pb_build_side *a, const pb_build_side *b, const char *what,
                 const char *detail)
{
    size_t k = strlen(out);
    if (k + 1 >= cap) return;
    snprintf(out + k, cap - k, "%s%s and %s %s: %s", k ? "\n" : "", a->name, b->name, what, detail);
    k = strlen(out);
    if (k + 1 >= cap && cap > 4) memcpy(out + cap - 4, "...", 4);
}

static int compare_compilers(const pb_build_side *a, const pb_build_side *b, char *out, size_t cap)
{
    const char *ca = known(a->compiler), *cb = known(b->compiler);
    if (!ca && !cb) return 0;
    if (ca && cb && !strcmp(ca, cb)) return 0;
    char d[400];
    snprintf(d, sizeof d, "%s / %s", ca ? ca : "(not recorded)", cb ? cb : "(not recorded)");
    warn(out, cap, a, b, "were built by different compilers", d);
    return 1;
}

static int compare_flags(const pb_build_side *a, const pb_build_side *b, char *out, size_t cap)
{
    const char *fa = known(a->flags), *fb = known(b->flags);
    if (!fa && !fb) return 0;
    char d[PB_PARITY_TEXT_MAX];
    if (!fa || !fb) {
        char eff[PB_PARITY_TEXT_MAX / 2];
        pb_parity_effective(fa ? fa : fb, eff, sizeof eff);
        snprintf(d, sizeof d, "%s records no compiler flags (build it with -frecord-gcc-switches or -g to record "
                 "them); %s: %s", fa ? b->name : a->name, fa ? a->name : b->name, eff);
        warn(out, cap, a, b, "cannot be checked for the same flags", d);
        return 1;
    }
    if (!diff_flags(fa, fb, d, sizeof d)) return 0;
    warn(out, cap, a, b, "were built with different flags", d);
    return 1;
}

static int compare_needed(const pb_build_side *a, const pb_build_side *b, char *out, size_t cap)
{
    if (!a->needed || !b->needed) return 0;
    char d[PB_PARITY_TEXT_MAX] = "";
    int n = diff_needed_one_way(a, b, 0, d, sizeof d);
    if (!b->needed_is_process) n += diff_needed_one_way(b, a, 1, d, sizeof d);
    if (n) warn(out, cap, a, b, "link different libraries", d);
    return n > 0;
}

static int compare_build_type(const pb_build_side *a, const pb_build_side *b, char *out, size_t cap)
{
    const char *ta = known(a->build_type), *tb = known(b->build_type);
    if (!ta || !tb || !strcmp(ta, tb)) return 0;
    char d[600];
    snprintf(d, sizeof d, "%s / %s", ta, tb);
    warn(out, cap, a, b, "differ in build type", d);
    return 1;
}

int pb_parity_compare(const pb_build_side *a, const pb_build_side *b, char *out, size_t cap)
{
    return compare_compilers(a, b, out, cap) + compare_flags(a, b, out, cap) + compare_needed(a, b, out, cap) +
           compare_build_type(a, b, out, cap);
}

/* ---- compilers ---- */

static const char *word(const char *p, int k, size_t *len)
{
    for (int i = 0; *p; i++) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (i == k) {
            *len = n;
            return n ? p : NULL;
        }
        p += n;
    }
    return NULL;
}

int pb_parity_compiler(const char *text, char *comp, size_t cap, const char **flags)
{
    size_t n;
    const char *w, *clang = strstr(text, "clang version ");
    if (flags) *flags = "";
    comp[0] = 0;
    if (!strncmp(text, "GNU AS", 6) || !strncmp(text, "Linker:", 7)) return 0;
    if (!strncmp(text, "GNU ", 4) && (w = word(text, 2, &n))) {
        snprintf(comp, cap, "gcc %.*s", (int)n, w);
        if (flags) *flags = w + n + strspn(w + n, " ");
        return 1;
    }
    if (clang && (w = word(clang, 2, &n))) {
        snprintf(comp, cap, "clang %.*s", (int)n, w);
        return 1;
    }
    if (!strncmp(text, "GCC: ", 5)) {
        const char *last = strrchr(text, ' ');
        snprintf(comp, cap, "gcc %s", last ? last + 1 : text + 5);
        return 1;
    }
    snprintf(comp, cap, "%.60s", text);
    return *comp != 0;
}
