/* suite_synthetic.c — a suite with a known answer, for testing the harness and the gate.
 *
 * `old` runs a chain of dependent adds of size_bytes steps per op; `new` runs
 * the same chain scaled by --shift (default 1.0: an A/A pair). Because the
 * work is a pure dependency chain, the true time ratio new/old is --shift on
 * any core speed, which makes the runner's pairing and the gate's statistics
 * checkable on real, noisy hardware. Options --fail-selftest IMPL and
 * --unavailable IMPL exercise the harness's refusal and unavailable paths. */
#include <stdlib.h>
#include <string.h>

#include "suite.h"

static double g_shift = 1.0;
static char g_fail[PB_NAME_MAX], g_unavail[PB_NAME_MAX];

typedef struct spin_ctx {
    uint64_t steps;
    uint64_t acc;
} spin_ctx;

static void spin_body(void *p, uint64_t iters)
{
    spin_ctx *c = p;
    uint64_t x = c->acc;
    for (uint64_t i = 0; i < iters; i++)
        for (uint64_t k = 0; k < c->steps; k++) __asm__ volatile("addq $1, %0" : "+r"(x));
    c->acc = x;
}

static int parse_opt(const char *name, const char *value, pb_err *e)
{
    if (!strcmp(name, "shift")) {
        if (!value) return 0;
        char *end;
        double v = strtod(value, &end);
        if (*end || !(v >= 0.1 && v <= 10)) return pb_errf(e, "--shift wants a factor from 0.1 to 10, got '%s'", value);
        g_shift = v;
        return 1;
    }
    if (!strcmp(name, "fail-selftest") || !strcmp(name, "unavailable")) {
        if (!value) return 0;
        snprintf(!strcmp(name, "unavailable") ? g_unavail : g_fail, PB_NAME_MAX, "%s", value);
        return 1;
    }
    return 0;
}

static int plan(const pb_plan_opts *o, pb_grid *g, pb_err *e)
{
    (void)o;
    static const uint64_t sizes[] = {1000, 10000};
    g->ncells = 2;
    g->cells = calloc(2, sizeof *g->cells);
    if (!g->cells) return pb_errf(e, "out of memory");
    for (int i = 0; i < 2; i++) {
        pb_cell *c = &g->cells[i];
        strcpy(c->variant, "chain");
        strcpy(c->op, "spin");
        c->size_bytes = sizes[i];
        c->nimpls = 2;
        strcpy(c->impls[0], "old");
        strcpy(c->impls[1], "new");
    }
    return 0;
}

static int setup_case(const pb_cell *cell, const char *impl, pb_case *c, pb_err *e)
{
    if (!strcmp(impl, g_unavail)) return pb_errf(e, "unavailable: --unavailable %s was given", impl);
    spin_ctx *s = calloc(1, sizeof *s);
    if (!s) return pb_errf(e, "out of memory");
    double f = strcmp(impl, "new") == 0 ? g_shift : 1.0;
    s->steps = (uint64_t)((double)cell->size_bytes * f + 0.5);
    c->body = spin_body;
    c->ctx = s;
    c->free_ctx = free;
    return 0;
}

static int selftest(const char *impl, pb_err *e)
{
    if (!strcmp(impl, g_fail)) return pb_errf(e, "--fail-selftest %s was given", impl);
    return 0;
}

static pb_claim claim(const pb_cell *cell, double doc_ratio)
{
    (void)cell; (void)doc_ratio;
    return PB_CLAIM_EQUAL;
}

const pb_suite pb_suite_synthetic = {
    .name = "synthetic",
    .title = "harness self-check: dependent-add chains with a known ratio (--shift)",
    .baseline = "old",
    .candidate = "new",
    .metrics = PB_M_NS_PER_OP | PB_M_TSC_PER_BYTE | PB_M_EST_CYCLES_PER_BYTE | PB_M_CYCLES_PER_BYTE,
    .primary_metric = "ns_per_op",
    .options_help = "  --shift F            new does F times the work of old (default 1.0, an A/A pair)\n"
                    "  --fail-selftest IMPL make IMPL fail its self-test (tests the refusal)\n"
                    "  --unavailable IMPL   make IMPL's set-up report 'unavailable'\n",
    .parse_opt = parse_opt,
    .plan = plan,
    .setup_case = setup_case,
    .selftest = selftest,
    .claim = claim,
    .plot_x = "size",
    .notes_md = "A synthetic pair: the true ratio is the --shift given; est_cycles_per_byte should be ~1 cycle/step.",
};
