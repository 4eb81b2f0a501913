/* SPDX-License-Identifier: GPL-2.0-only */
/* exec_words.c — an exec command's words (split without a shell), its {P} placeholders, the cells
 * --param makes and a one-command scan's impls: what suite_exec.c runs, ready to spawn. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exec_suite.h"
#include "pb_spawn.h"

/* Split s into words in t->buf (see the file comment; pb_spawn.h's pb_split_words). -1 + e on an
 * unterminated quote, too many words, or an empty command. */
int exec_split_words(const char *opt, const char *s, exec_tmpl *t, pb_err *e)
{
    int n = pb_split_words(opt, s, t->buf, sizeof t->buf, NULL, EXEC_MAX_WORDS, e);
    if (n < 0) return -1;
    t->nwords = n;
    if (n == 0) return pb_errf(e, "%s needs a command, e.g. %s 'gzip -9 -c data.bin'", opt, opt);
    return 0;
}

/* The placeholder at p ("{NAME}"): its name's length, or 0 when p starts none. A brace not
 * followed by a name and '}' is a plain character. */
size_t exec_placeholder_at(const char *p)
{
    if (p[0] != '{' || !(p[1] == '_' || (p[1] >= 'A' && p[1] <= 'Z') || (p[1] >= 'a' && p[1] <= 'z'))) return 0;
    size_t n = 1;
    while (p[1 + n] == '_' || (p[1 + n] >= 'A' && p[1 + n] <= 'Z') || (p[1 + n] >= 'a' && p[1 + n] <= 'z') ||
           (p[1 + n] >= '0' && p[1 + n] <= '9'))
        n++;
    return p[1 + n] == '}' ? n : 0;
}

/* The next word of t after w (NULL: the first), or NULL. */
static const char *next_word(const exec_tmpl *t, const char *w, int *i)
{
    if (!w) { *i = 0; return t->nwords ? t->buf : NULL; }
    if (++*i >= t->nwords) return NULL;
    return w + strlen(w) + 1;
}

/* The parameter a placeholder of n characters at name names: its index, or -1. */
int exec_param_named(const exec_opts *o, const char *name, size_t n)
{
    for (int i = 0; i < o->npar; i++)
        if (strlen(o->par[i].name) == n && !strncmp(o->par[i].name, name, n)) return i;
    return -1;
}

/* Is the placeholder of n characters at name the scanned parameter's? */
static int is_scan(const exec_opts *o, const char *name, size_t n)
{
    return o->scan && strlen(o->scan_name) == n && !strncmp(o->scan_name, name, n);
}

/* Which parameters t uses (uses[i] set for each). -1 + e when it has a placeholder of another
 * name, or the scanned parameter's where scan_ok is 0. Without --param braces are plain
 * characters, as they were before there were parameters (awk '{print}' stays a command). */
int exec_check_placeholders(const exec_opts *o, const exec_tmpl *t, int scan_ok, int *uses, pb_err *e)
{
    int i;
    if (!o->npar && !o->scan) return 0;
    for (const char *w = next_word(t, NULL, &i); w; w = next_word(t, w, &i))
        for (const char *p = w; *p; p++) {
            size_t n = exec_placeholder_at(p);
            if (!n) continue;
            if (is_scan(o, p + 1, n)) {
                if (scan_ok) continue;
                return pb_errf(e, "%s: {%s} differs by impl (one --cmd with --param: each value is one), and %s runs "
                               "once per cell, for all of them (--prepare, run before each run, may use it)",
                               t->opt, o->scan_name, t->opt);
            }
            int k = exec_param_named(o, p + 1, n);
            if (k < 0) {
                /* every parameter, the scanned one first, as given */
                const char *name[EXEC_MAX_PARAMS + 1];
                int m = 0;
                if (o->scan) name[m++] = o->scan_name;
                for (int j = 0; j < o->npar; j++) name[m++] = o->par[j].name;
                return pb_errf(e, "%s: unknown placeholder {%.*s} (the parameter is {%s}%s%s%s; with --param every "
                               "{NAME} in a word is one)", t->opt, (int)n, p + 1, name[0], m > 1 ? " or {" : "",
                               m > 1 ? name[1] : "", m > 1 ? "}" : "");
            }
            uses[k] = 1;
        }
    return 0;
}

/* The cells: one, or one per value of the first parameter times each of the second's. */
int exec_ncells(const exec_opts *o)
{
    int n = 1;
    for (int i = 0; i < o->npar; i++) n *= o->par[i].nvalues;
    return n;
}

/* Parameter k's value in cell c (c >= 0 with parameters): the first parameter's index outer. */
static const char *par_value(const exec_opts *o, int c, int k)
{
    int inner = o->npar > 1 ? o->par[1].nvalues : 1;
    return o->par[k].value[k == 0 ? c / inner : c % inner];
}

/* Cell c's variant: "command" without parameters, else "N=V" or "N=V,M=W". */
void exec_cell_variant(const exec_opts *o, int c, char *buf, size_t cap)
{
    if (c < 0 || !o->npar) {
        snprintf(buf, cap, "command");
        return;
    }
    if (o->npar == 1) snprintf(buf, cap, "%s=%s", o->par[0].name, par_value(o, c, 0));
    else snprintf(buf, cap, "%s=%s,%s=%s", o->par[0].name, par_value(o, c, 0), o->par[1].name, par_value(o, c, 1));
}

/* argv[0]: a path as given, or a bare name looked up in $PATH (as a shell would, without one). */
static int resolve(const char *opt, exec_cmd *c, pb_err *e)
{
    const char *name = c->argv[0];
    if (strchr(name, '/')) {
        snprintf(c->path, sizeof c->path, "%s", name);
    } else if (!pb_find_program(name, c->path, sizeof c->path)) {
        return pb_errf(e, "%s: '%s' is not in $PATH", opt, name);
    }
    if (access(c->path, X_OK) != 0) return pb_errf(e, "%s: %s: not executable: %s", opt, c->path, strerror(errno));
    c->argv[0] = c->path;
    return 0;
}

/* t with each {P} replaced by P's value in cell `cell` (-1: no parameters), the scanned parameter's
 * by scan, in c, argv[0] resolved. -1 + e. */
int exec_instantiate(const exec_opts *o, const exec_tmpl *t, int cell, const char *scan, exec_cmd *c, pb_err *e)
{
    memset(c, 0, sizeof *c);
    size_t at = 0;
    int i, n = 0;
    for (const char *w = next_word(t, NULL, &i); w; w = next_word(t, w, &i)) {
        c->argv[n++] = &c->buf[at];
        for (const char *p = w; *p;) {
            size_t k = cell >= 0 || o->scan ? exec_placeholder_at(p) : 0;
            int par = k ? exec_param_named(o, p + 1, k) : -1;
            const char *put = par >= 0 ? par_value(o, cell, par) : k && scan && *scan && is_scan(o, p + 1, k) ? scan : NULL;
            if (!put) k = 0;
            size_t len = k ? strlen(put) : 1;
            if (!k) put = p;
            if (at + len + 1 >= sizeof c->buf) {
                char v[PB_NAME_MAX];
                exec_cell_variant(o, cell, v, sizeof v);
                return pb_errf(e, "%s: command too long in cell %s", t->opt, v);
            }
            memcpy(&c->buf[at], put, len);
            at += len;
            p += k ? k + 2 : 1;
        }
        c->buf[at++] = 0;
    }
    c->argv[n] = NULL;
    return resolve(t->opt, c, e);
}

/* NAME of --cmd: what an impl name may hold everywhere it goes (--impl lists, X@P pairs,
 * benchmark names, file names of plots) */
int exec_good_name(const char *s, size_t n)
{
    if (!n || n >= PB_NAME_MAX) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_' || s[i] == '-' || s[i] == '.' || s[i] == '+'))
            return 0;
    return 1;
}

/* the index of the cell of this variant; -1: the cell of no parameter */
int exec_value_of(const exec_opts *o, const pb_cell *cell)
{
    if (!o->npar) return -1;
    char v[PB_NAME_MAX];
    for (int c = 0, n = exec_ncells(o); c < n; c++) {
        exec_cell_variant(o, c, v, sizeof v);
        if (!strcmp(v, cell->variant)) return c;
    }
    return -1;
}

/* " (N=V)" for messages about a cell of parameters, "" else */
const char *exec_cell_words(const exec_opts *o, int v, char *buf, size_t cap)
{
    char var[PB_NAME_MAX];
    exec_cell_variant(o, v, var, sizeof var);
    if (v < 0) snprintf(buf, cap, "%s", "");
    else snprintf(buf, cap, " (%s)", var);
    return buf;
}

/* One --cmd with --param (hyperfine's -L): the first parameter's values become the impls, each the
 * command with its value, named "P-V" (impl names take no '='), the first value the baseline; a
 * second parameter's values are the cells. o is rewritten once, the same way on every copy that
 * plans the run: -1 + e where a value cannot name an impl. */
int exec_expand_scan(exec_opts *o, pb_err *e)
{
    if (o->scan || o->oldnew || o->ncmds != 1 || !o->npar) return 0;
    const exec_param *p = &o->par[0];
    int uses[EXEC_MAX_PARAMS] = {0};
    if (exec_check_placeholders(o, &o->cmd[0], 1, uses, e) < 0) return -1;
    if (!uses[0])
        return pb_errf(e, "exec: --param %s: %s does not use {%s} (one --cmd with --param times it once per value "
                       "of the first parameter)", p->name, o->cmd[0].opt, p->name);
    if (p->nvalues < 2)
        return pb_errf(e, "exec: --param %s: one value; one --cmd with --param compares each value against the "
                       "first: give two or more", p->name);
    if (p->nvalues > EXEC_MAX_CMDS)
        return pb_errf(e, "exec: --param %s: %d values; one --cmd with --param makes each an impl: at most %d",
                       p->name, p->nvalues, EXEC_MAX_CMDS);
    for (int i = 0; i < p->nvalues; i++) {
        size_t n = strlen(p->name), v = strlen(p->value[i]);
        char name[2 * PB_NAME_MAX + 2];
        snprintf(name, sizeof name, "%s-%s", p->name, p->value[i]);
        if (!exec_good_name(name, n + 1 + v))
            return pb_errf(e, "exec: --param %s: value '%s' cannot name an impl, as one --cmd with --param makes each "
                           "value one ('%s': letters, digits, '_', '-', '.', '+')", p->name, p->value[i], name);
    }
    exec_tmpl base = o->cmd[0];
    for (int i = 0; i < p->nvalues; i++) {
        exec_tmpl *t = &o->cmd[i];
        *t = base;
        snprintf(t->name, sizeof t->name, "%s-%s", p->name, p->value[i]);
        snprintf(t->opt, sizeof t->opt, "%s (%s=%s)", base.opt, p->name, p->value[i]);
        snprintf(t->scan_value, sizeof t->scan_value, "%s", p->value[i]);
    }
    o->ncmds = p->nvalues;
    snprintf(o->scan_name, sizeof o->scan_name, "%s", p->name);
    for (int i = 1; i < o->npar; i++) o->par[i - 1] = o->par[i];
    o->npar--;
    memset(&o->par[o->npar], 0, sizeof o->par[o->npar]);
    o->scan = 1;
    return 0;
}
