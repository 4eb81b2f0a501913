/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_synthetic.c — a suite with a known answer, for testing the harness and the gate.
 *
 * `old` runs a chain of dependent adds of size_bytes steps per op; `new` runs
 * the same chain scaled by --shift (default 1.0: an A/A pair). Because the
 * work is a pure dependency chain, the true time ratio new/old is --shift on
 * any core speed, which makes the runner's pairing and the gate's statistics
 * checkable on real, noisy hardware. Options --fail-selftest IMPL and
 * --unavailable IMPL exercise the harness's refusal and unavailable paths.
 *
 * --seed N replaces the clock by a seeded generator (for `meson test`, whose
 * answers must not depend on the machine's load): a sample of `old` takes
 * size_bytes/3.11 ns per op (one add per cycle at 3.11 GHz), `new` --shift
 * times that, each multiplied by
 *   - the round's core speed, shared by both impls of a round, as on a VM whose
 *     host flips the vCPU between two speeds (docs/measurements/gate-design.md):
 *     1.0, or 3.11/1.67 (the slow state) with probability 0.3;
 *   - its own noise: lognormal with sigma 0.02, and with probability 0.05 a
 *     preemption that adds an exponential tail of mean 0.5.
 * So the true ratio new/old is exactly --shift, the pairing matters, and the
 * noise has the shape the gate was built for. Same seed, same samples.
 *
 * --grow-tail P gives each op a second function, spin_tail, of a tenth of the op's steps in both
 * impls, and new's P % of the op's steps (chain and tail) more there: a regression in one known function, so that
 * the count gate can be shown to name it (docs/counts.md). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_valgrind.h"
#include "suite.h"

/* The suite's impls: what --fail-selftest and --unavailable may name. */
static const char *const impl_names[] = {"old", "new"};
#define NIMPLS (int)(sizeof impl_names / sizeof impl_names[0])

typedef struct synthetic_opts {
    double shift;                    /* --shift */
    double grow_tail;                /* --grow-tail, per cent; < 0: no tail function */
    int fail[NIMPLS];                /* --fail-selftest IMPL, repeatable: fail[i] for impl_names[i] */
    int unavail[NIMPLS];             /* --unavailable IMPL, repeatable */
    int seeded;                      /* --seed given */
    uint64_t seed;
    uint64_t cases_set_up;           /* seeded: every case set up gets its own noise key */
} synthetic_opts;

static void opts_init(void *p)
{
    synthetic_opts *o = p;
    o->shift = 1.0;
    o->grow_tail = -1;
}

typedef struct spin_ctx {
    uint64_t steps, tail_steps;
    uint64_t acc;
    /* seeded time source */
    uint64_t cell_key, impl_key;
    double ns_per_op;
} spin_ctx;

/* splitmix64: a well-mixed 64-bit hash, the same on every platform */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* uniform in (0, 1) from a key */
static double uniform(uint64_t key)
{
    return ((double)(mix(key) >> 11) + 0.5) * 0x1.0p-53;
}

static double seeded_ns(void *p, int round, int repetition, uint64_t iters)
{
    const spin_ctx *c = p;
    uint64_t round_key = mix(c->cell_key ^ mix((uint64_t)round));
    double speed = uniform(round_key) < 0.3 ? 3.11 / 1.67 : 1.0;
    uint64_t k = mix(round_key ^ c->impl_key) ^ mix((uint64_t)repetition + 0x5bd1e995u);
    double gauss = sqrt(-2 * log(uniform(k + 1))) * cos(2 * M_PI * uniform(k + 2));
    double noise = exp(0.02 * gauss);
    if (uniform(k + 3) < 0.05) noise += -0.5 * log(uniform(k + 4));
    return c->ns_per_op * speed * noise * (double)iters;
}

static void spin_body(void *p, uint64_t iters)
{
    spin_ctx *c = p;
    uint64_t x = c->acc;
    for (uint64_t i = 0; i < iters; i++)
        for (uint64_t k = 0; k < c->steps; k++) __asm__ volatile("addq $1, %0" : "+r"(x));
    c->acc = x;
}

/* the op's main chain and its tail (--grow-tail): functions of their own, each a chain of its own
 * instruction (so that the compiler cannot fold the two into one), so that callgrind counts each */
static __attribute__((noinline)) uint64_t spin_chain(uint64_t x, uint64_t steps)
{
    for (uint64_t k = 0; k < steps; k++) __asm__ volatile("addq $1, %0" : "+r"(x));
    return x;
}

static __attribute__((noinline)) uint64_t spin_tail(uint64_t x, uint64_t steps)
{
    for (uint64_t k = 0; k < steps; k++) __asm__ volatile("addq $3, %0" : "+r"(x));
    return x;
}

static void spin_tail_body(void *p, uint64_t iters)
{
    spin_ctx *c = p;
    uint64_t x = c->acc;
    for (uint64_t i = 0; i < iters; i++) x = spin_tail(spin_chain(x, c->steps), c->tail_steps);
    c->acc = x;
}

static int set_grow_tail(void *p, const char *value, pb_err *e)
{
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !(v >= 0 && v <= 100))
        return pb_errf(e, "--grow-tail wants a per cent from 0 to 100, got '%s'", value);
    ((synthetic_opts *)p)->grow_tail = v;
    return 0;
}

static int set_shift(void *p, const char *value, pb_err *e)
{
    char *end;
    double v = strtod(value, &end);
    if (*end || !(v >= 0.1 && v <= 10)) return pb_errf(e, "--shift wants a factor from 0.1 to 10, got '%s'", value);
    ((synthetic_opts *)p)->shift = v;
    return 0;
}

static int set_seed(void *p, const char *value, pb_err *e)
{
    synthetic_opts *o = p;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || end == value || *end || value[0] == '-')
        return pb_errf(e, "--seed wants a whole number from 0 to 2^64-1, got '%s'", value);
    o->seed = v;
    o->seeded = 1;
    return 0;
}

static int impl_index(const char *name)
{
    for (int i = 0; i < NIMPLS; i++)
        if (!strcmp(impl_names[i], name)) return i;
    return -1;
}

/* --fail-selftest and --unavailable take one impl each and are repeatable: each use adds its impl
 * (the last does not replace the others), and a name the suite has not is refused, not ignored. */
static int add_impl(int *marked, const char *value, const char *opt, pb_err *e)
{
    int i = impl_index(value);
    if (i < 0) return pb_errf(e, "--%s: unknown impl '%s' (synthetic has: old, new)", opt, value);
    marked[i] = 1;
    return 0;
}

static int set_fail(void *p, const char *value, pb_err *e)
{
    return add_impl(((synthetic_opts *)p)->fail, value, "fail-selftest", e);
}

static int set_unavail(void *p, const char *value, pb_err *e)
{
    return add_impl(((synthetic_opts *)p)->unavail, value, "unavailable", e);
}

/* impl marked by a repeatable impl option? (an impl of another name is no impl of this suite) */
static int marked(const int *marks, const char *impl)
{
    int i = impl_index(impl);
    return i >= 0 && marks[i];
}

static const pb_suite_opt options[] = {
    {"shift", "F", "new does F times the work of old (default 1.0, an A/A pair)", set_shift},
    {"grow-tail", "P", "end each op in a function of its own, spin_tail (a tenth of its steps), where new does\n"
                       "P % of the op's steps more: a regression in one known function (tests)", set_grow_tail},
    {"fail-selftest", "IMPL", "make IMPL fail its self-test (tests the refusal; repeatable)", set_fail},
    {"unavailable", "IMPL", "make IMPL's set-up report 'unavailable' (repeatable)", set_unavail},
    {"seed", "N", "do not time: draw each sample from a generator seeded with N\n"
                  "(true ratio exactly --shift; for tests, whose answers must be fixed)", set_seed},
    {NULL, NULL, NULL, NULL},
};

static int plan(void *opts, const pb_plan_opts *o, pb_grid *g, pb_err *e)
{
    (void)opts;
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
        c->nimpls = NIMPLS;
        for (int k = 0; k < NIMPLS; k++) strcpy(c->impls[k], impl_names[k]);
    }
    return 0;
}

/* Test-only: tests/gate/meson.build compiles this file a second time with a factor above 1 into a
 * suite module of its own, a build in which every impl does that much more work: the regressed
 * build of the commit gate's tests (tests/gate/module_gate_test.sh). 1 everywhere else. */
#ifndef PB_SYNTHETIC_BUILD_FACTOR
#define PB_SYNTHETIC_BUILD_FACTOR 1.0
#endif

static pb_setup_status setup_case(void *opts, const pb_cell *cell, const char *impl, pb_case *c, pb_err *e)
{
    synthetic_opts *o = opts;
    if (marked(o->unavail, impl)) {
        pb_errf(e, "--unavailable %s was given", impl);
        return PB_SETUP_UNAVAILABLE;
    }
    spin_ctx *s = calloc(1, sizeof *s);
    if (!s) return pb_errf(e, "out of memory");
    double f = (strcmp(impl, "new") == 0 ? o->shift : 1.0) * PB_SYNTHETIC_BUILD_FACTOR;
    s->steps = (uint64_t)((double)cell->size_bytes * f + 0.5);
    c->body = spin_body;
    if (o->grow_tail >= 0) {
        s->tail_steps = (uint64_t)((double)cell->size_bytes / 10 +
                                   (strcmp(impl, "new") == 0 ? 1.1 * (double)cell->size_bytes * o->grow_tail / 100 : 0) + 0.5);
        c->body = spin_tail_body;
    }
    c->ctx = s;
    c->free_ctx = free;
    if (o->seeded) {
        /* the time comes from the seed: the body has nothing to do, except under valgrind
         * (bench --measure valgrind/both), where its instruction count is what is measured */
        if (!RUNNING_ON_VALGRIND) s->steps = s->tail_steps = 0;
        s->cell_key = mix(o->seed ^ mix(cell->size_bytes));
        /* every case set up gets its own noise, also the second copy of an impl in an A/A gate;
         * the order of set-ups is fixed, so this is as repeatable as the seed */
        s->impl_key = mix(++o->cases_set_up);
        s->ns_per_op = (double)cell->size_bytes / 3.11 * f;
        c->seeded_ns = seeded_ns;
    }
    return PB_SETUP_OK;
}

static int selftest(const void *opts, const char *impl, pb_err *e)
{
    const synthetic_opts *o = opts;
    if (marked(o->fail, impl)) return pb_errf(e, "--fail-selftest %s was given", impl);
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
    /* mb_per_s (a step counted as a byte): a higher-is-better metric, so that the gate's cost
     * inversion is tested on a known ratio too */
    .metrics = PB_M_NS_PER_OP | PB_M_TSC_PER_BYTE | PB_M_EST_CYCLES_PER_BYTE | PB_M_CYCLES_PER_BYTE | PB_M_MB_PER_S,
    .primary_metric = "ns_per_op",
    .opts_size = sizeof(synthetic_opts),
    .opts_init = opts_init,
    .options = options,
    .plan = plan,
    .setup_case = setup_case,
    .selftest = selftest,
    .claim = claim,
    .plot_x = "size",
    .notes_md = "A synthetic pair: the true ratio is the --shift given; est_cycles_per_byte should be ~1 cycle/step.",
};
