/* SPDX-License-Identifier: GPL-2.0-only */
/* verdict.c — a claim's verdict from a cell's CI (what the verdicts mean: verdict.h), the counts
 * and summary line over a table, and the verdict settings of data/verdict.tsv. */
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char V_HOLDS[] = "claim holds", V_SIZE[] = "direction holds, size differs",
                  V_NOT[] = "claim does not hold", V_INCONCLUSIVE[] = "inconclusive here", V_NONE[] = "no claim",
                  V_NODATA[] = "no data", CODEGEN_MARK[] = "depends on code generation",
                  LAYOUT_MARK[] = "depends on code layout", REAL_MARK[] = "differs from the real code",
                  SHARED_MARK[] = "core shared";
const char *const pb_verdict_no_data = V_NODATA, *const pb_codegen_mark = CODEGEN_MARK,
                  *const pb_layout_mark = LAYOUT_MARK, *const pb_real_mark = REAL_MARK,
                  *const pb_shared_mark = SHARED_MARK, *const pb_verdict_no_claim = V_NONE,
                  *const pb_verdict_inconclusive = V_INCONCLUSIVE, *const pb_verdict_holds = V_HOLDS,
                  *const pb_verdict_not = V_NOT;
static const char AB_FASTER[] = "faster", AB_SLOWER[] = "slower", AB_SAME[] = "no detectable change";

/* Does [lo, hi] meet the document's band [doc/(1+t), doc*(1+t)]? Touching counts. */
static int overlaps_band(double doc, double t, double lo, double hi)
{
    return lo <= doc * (1 + t) && hi >= doc / (1 + t);
}

const char *pb_verdict(pb_claim c, double doc, double t, double lo, double hi)
{
    if (c == PB_CLAIM_NONE) return V_NONE;
    if (isnan(lo) || isnan(hi) || lo > hi || !(t > 0) || !isfinite(t)) return V_INCONCLUSIVE;
    int sized = isfinite(doc) && doc > 0; /* NaN: direction only */
    switch (c) {
    case PB_CLAIM_FASTER:
        if (hi < 1.0) return !sized || overlaps_band(doc, t, lo, hi) ? V_HOLDS : V_SIZE;
        /* no gain shown, and none worth the name (1 %) possible, or, where the document gives the
         * size, none its band allows: the claimed speed-up is ruled out, which is a verdict on the
         * claim, not a want of data (docs/verdicts.md) */
        if (lo > 1.0 - PB_VERDICT_MIN_GAIN || (sized && lo > doc * (1 + t))) return V_NOT;
        return V_INCONCLUSIVE;
    case PB_CLAIM_NOT_SLOWER:
        if (hi <= 1.0 + t) return !sized || overlaps_band(doc, t, lo, hi) ? V_HOLDS : V_SIZE;
        if (lo > 1.0 + t) return V_NOT;
        return V_INCONCLUSIVE;
    case PB_CLAIM_EQUAL:
        if (lo >= 1.0 / (1 + t) && hi <= 1.0 + t) return V_HOLDS;
        if (hi < 1.0 / (1 + t) || lo > 1.0 + t) return V_NOT;
        return V_INCONCLUSIVE;
    default:
        return V_NONE;
    }
}

int pb_verdict_shared_most(int n, int shared)
{
    return n > 0 && 2 * (long)shared > n;
}

const char *pb_verdict_of_pairs(pb_claim c, double doc, double t, double lo, double hi, int n, int shared)
{
    if (c != PB_CLAIM_NONE && pb_verdict_shared_most(n, shared)) return V_INCONCLUSIVE;
    return pb_verdict(c, doc, t, lo, hi);
}

int pb_verdict_straddles(pb_claim c, double doc, double t, double lo, double hi)
{
    if (c == PB_CLAIM_NONE || !(lo < hi) || !(t > 0) || !isfinite(t)) return 0;
    /* every point where pb_verdict of a single value (lo = hi) can change */
    double b[6];
    int nb = 0;
    if (isfinite(doc) && doc > 0 && c != PB_CLAIM_EQUAL) {
        b[nb++] = doc / (1 + t);
        b[nb++] = doc * (1 + t);
    }
    switch (c) {
    case PB_CLAIM_FASTER:
        b[nb++] = 1.0;
        b[nb++] = 1.0 - PB_VERDICT_MIN_GAIN;
        break;
    case PB_CLAIM_NOT_SLOWER: b[nb++] = 1.0 + t; break;
    case PB_CLAIM_EQUAL:
        b[nb++] = 1.0 / (1 + t);
        b[nb++] = 1.0 + t;
        break;
    default: break;
    }
    /* the verdict of one value at each end, and on each side of every boundary inside (lo, hi) */
    const char *v0 = pb_verdict(c, doc, t, lo, lo);
    if (pb_verdict(c, doc, t, hi, hi) != v0) return 1;
    for (int i = 0; i < nb; i++) {
        if (!(lo < b[i] && b[i] < hi)) continue;
        double below = nextafter(b[i], lo), above = nextafter(b[i], hi);
        if (pb_verdict(c, doc, t, below, below) != v0 || pb_verdict(c, doc, t, b[i], b[i]) != v0 ||
            pb_verdict(c, doc, t, above, above) != v0)
            return 1;
    }
    return 0;
}

/* [lo, hi] widened to w times its width about est, on the log scale: does it straddle a boundary? */
static int straddles_widened(pb_claim c, double doc, double t, double est, double lo, double hi, double w)
{
    return pb_verdict_straddles(c, doc, t, est * pow(lo / est, w), est * pow(hi / est, w));
}

double pb_verdict_nearness(pb_claim c, double doc, double t, double est, double lo, double hi)
{
    if (!(lo > 0) || !(est >= lo) || !(hi >= est) || !isfinite(hi) || lo == hi ||
        !straddles_widened(c, doc, t, est, lo, hi, PB_VERDICT_NEAR_WIDTH))
        return INFINITY;
    /* the widened intervals are nested, so straddling is monotone in w: bisection */
    double a = 0, b = PB_VERDICT_NEAR_WIDTH;
    for (int i = 0; i < 50; i++) {
        double m = 0.5 * (a + b);
        if (straddles_widened(c, doc, t, est, lo, hi, m)) b = m;
        else a = m;
    }
    return b;
}

/* a CI that can be compared: finite or not, positive and in order */
static int usable_ci(double lo, double hi)
{
    return lo > 0 && hi >= lo;
}

int pb_verdict_apart(double alo, double ahi, double blo, double bhi, double c)
{
    if (!usable_ci(alo, ahi) || !usable_ci(blo, bhi) || !(c > 0) || !isfinite(c)) return 0;
    return alo > bhi * (1 + c) || ahi * (1 + c) < blo;
}

void pb_verdict_count(pb_verdict_counts *n, const char *v)
{
    n->cells++;
    if (v == V_HOLDS) n->holds++;
    else if (v == V_SIZE) n->size_differs++;
    else if (v == V_NOT) n->does_not_hold++;
    else if (v == V_INCONCLUSIVE) n->inconclusive++;
    else if (v == V_NONE) n->no_claim++;
    else n->no_data++;
}

void pb_verdict_summary(const pb_verdict_counts *c, char *buf, size_t len)
{
    /* every count that is not zero, in this order (a table where every cell holds says so alone) */
    const struct { const char *what; int n; } k[] = {
        {V_HOLDS, c->holds}, {V_SIZE, c->size_differs}, {V_NOT, c->does_not_hold}, {V_INCONCLUSIVE, c->inconclusive},
        {V_NONE, c->no_claim}, {V_NODATA, c->no_data}, {CODEGEN_MARK, c->codegen}, {LAYOUT_MARK, c->layout},
        {SHARED_MARK, c->shared}, {REAL_MARK, c->real ? c->real_differs : 0}};
    int n = snprintf(buf, len, "%d cell%s", c->cells, c->cells == 1 ? "" : "s");
    size_t off = n > 0 ? (size_t)n : 0;
    const char *joint = ": ";
    for (size_t i = 0; i < sizeof k / sizeof k[0] && off < len; i++) {
        if (!k[i].n) continue;
        n = snprintf(buf + off, len - off, "%s%s %d", joint, k[i].what, k[i].n);
        if (n < 0) break;
        off += (size_t)n;
        joint = "; ";
    }
}

/* The settings data/verdict.tsv may hold, in the order of cfg_slots. */
static const char *const SETTINGS[] = {"tolerance", "codegen_threshold", "real_code_threshold"};
#define NSETTINGS (sizeof SETTINGS / sizeof SETTINGS[0])

static void cfg_slots(pb_verdict_cfg *cfg, double *slot[NSETTINGS])
{
    slot[0] = &cfg->tolerance;
    slot[1] = &cfg->codegen_threshold;
    slot[2] = &cfg->real_code_threshold;
}

static int setting_index(const char *name)
{
    for (size_t i = 0; i < NSETTINGS; i++)
        if (!strcmp(SETTINGS[i], name)) return (int)i;
    return -1;
}

/* data/verdict.tsv: setting <TAB> suite|* <TAB> value */
int pb_verdict_cfg_load(const char *data_dir, const char *suite, pb_verdict_cfg *cfg, pb_err *e)
{
    double *slot[NSETTINGS];
    cfg_slots(cfg, slot);
    for (size_t i = 0; i < NSETTINGS; i++) *slot[i] = 0.10;
    char path[1024];
    snprintf(path, sizeof path, "%s/verdict.tsv", data_dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(cfg->source, sizeof cfg->source, "built-in defaults (%s: %s)", path, strerror(errno));
        return 0;
    }
    snprintf(cfg->source, sizeof cfg->source, "%s", path);
    int own[NSETTINGS] = {0}; /* a suite's own line wins over `*` whatever the order */
    char line[512];
    int ln = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char setting[PB_NAME_MAX], who[PB_NAME_MAX], rest[64];
        double v;
        int got = sscanf(line, "%47[^\t\n]\t%47[^\t\n]\t%lf%63s", setting, who, &v, rest);
        if (got != 3) {
            rc = pb_errf(e, "%s:%d: expected 3 tab-separated fields (setting suite|* value)", path, ln);
            break;
        }
        if (!(v > 0 && v < 1)) {
            rc = pb_errf(e, "%s:%d: %s wants a fraction between 0 and 1, got %g", path, ln, setting, v);
            break;
        }
        int k = setting_index(setting);
        if (k < 0) {
            rc = pb_errf(e, "%s:%d: unknown setting '%s' (tolerance, codegen_threshold, real_code_threshold)", path,
                         ln, setting);
            break;
        }
        int mine = !strcmp(who, suite);
        if (!mine && strcmp(who, "*")) continue; /* another suite's override */
        if (mine || !own[k]) *slot[k] = v;
        own[k] |= mine;
    }
    fclose(f);
    return rc;
}

const char *pb_claim_name(pb_claim c)
{
    switch (c) {
    case PB_CLAIM_FASTER: return "faster";
    case PB_CLAIM_EQUAL: return "equal";
    case PB_CLAIM_NOT_SLOWER: return "not slower";
    default: return "-";
    }
}

const char *pb_verdict_ab(double lo, double hi)
{
    if (!(lo >= 0) || !(hi >= lo)) return NULL;
    if (lo == 0 || !isfinite(hi)) return AB_SAME;   /* an unbounded CI (too few pairs) rules nothing out */
    if (hi < 1.0) return AB_FASTER;
    if (lo > 1.0) return AB_SLOWER;
    return AB_SAME;
}

/* a percentage with as many digits as reads: 32 %, 5.1 %, 0.42 % */
static const char *pct(char *b, size_t cap, double x, int sign)
{
    double a = fabs(x) * 100;
    const char *sg = sign ? (x < 0 ? "-" : "+") : (x < 0 ? "-" : "");
    if (a >= 9.95) snprintf(b, cap, "%s%.0f %%", sg, a);
    else if (a >= 0.995) snprintf(b, cap, "%s%.1f %%", sg, a);
    else snprintf(b, cap, "%s%.2f %%", sg, a);
    return b;
}

char *pb_verdict_ab_words(double est, double lo, double hi, char *buf, size_t len)
{
    const char *v = pb_verdict_ab(lo, hi);
    char a[24], b[24], c[24];
    if (!v || !(est > 0)) snprintf(buf, len, "%s", V_NODATA);
    else if (v == AB_FASTER)
        snprintf(buf, len, "faster by %s [%s, %s]", pct(a, sizeof a, 1 - est, 0), pct(b, sizeof b, 1 - hi, 0),
                 pct(c, sizeof c, 1 - lo, 0));
    else if (v == AB_SLOWER)
        snprintf(buf, len, "slower by %s [%s, %s]", pct(a, sizeof a, est - 1, 0), pct(b, sizeof b, lo - 1, 0),
                 pct(c, sizeof c, hi - 1, 0));
    else if (lo == 0 || !isfinite(hi)) snprintf(buf, len, "%s [unbounded: too few rounds]", AB_SAME);
    else snprintf(buf, len, "%s [%s, %s]", AB_SAME, pct(b, sizeof b, lo - 1, 1), pct(c, sizeof c, hi - 1, 1));
    return buf;
}

pb_verdict_look pb_verdict_look_of(const char *v)
{
    /* a user's A/B: no claim to hold or fail, so the neutral colour; the arrow says which way */
    if (v == AB_FASTER) return (pb_verdict_look){"v-none", "\u2193"};    /* downwards arrow: less time */
    if (v == AB_SLOWER) return (pb_verdict_look){"v-none", "\u2191"};    /* upwards arrow: more time */
    if (v == AB_SAME) return (pb_verdict_look){"v-none", "="};
    if (v == V_HOLDS) return (pb_verdict_look){"v-holds", "\u2714"};         /* heavy check mark */
    if (v == V_SIZE) return (pb_verdict_look){"v-size", "\u2248"};           /* almost equal to */
    if (v == V_NOT) return (pb_verdict_look){"v-not", "\u2718"};             /* heavy ballot x */
    if (v == V_INCONCLUSIVE) return (pb_verdict_look){"v-inconclusive", "?"};
    return (pb_verdict_look){"v-none", "\u2013"};                            /* en dash: no claim, no data */
}
