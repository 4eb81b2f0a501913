/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_xts.c — the xts suite: Linux "crypto: xts - Drop use of auxiliary
 * buffer" (78105c7e769b) re-run old-vs-new in userspace.
 *
 * Grid (the document's): key sizes 256/384/512 bits x data 64 B .. 32 KiB x
 * enc/dec; impls old, new, old-nomem (old with kmalloc forced to fail), the
 * peers openssl (no 2 x 192) and gcrypt, and old@native, new@native (the same
 * templates built -O3 -march=x86-64-v2: the code-generation cross-check,
 * docs/build-profiles.md).
 *
 * A timed case owns one keyed transform, one request and a src and a dst
 * buffer of size_bytes; body() performs `iters` requests src -> dst. The IV
 * changes per request, as a disk's would: it is the dm-crypt "plain64" IV,
 * the sector number little-endian, counting up from 0. The key is random from
 * a fixed seed (the same for every impl of a cell). */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lib_versions.h"
#include "common/xts.h"
#include "common/xts_aes.h"
#include "paths.h"
#include "pb_config.h"
#include "pb_plugin.h"
#include "pb_valgrind.h"
#include "xts_impls.h"
#include "xts_suite.h"

#define XTS_SEED 0x5854532d32303138ull   /* "XTS-2018" */

static const uint64_t grid_sizes[] = { 64, 512, 4096, 16384, 32768 };
static const unsigned grid_keys[] = { 256, 384, 512 };
#define NKEYS (sizeof grid_keys / sizeof grid_keys[0])


int xts_suite_check_impl(const char *impl, pb_err *e)
{
    if (xts_impls_find(impl)) return 0;
    char list[128] = "";
    for (size_t i = 0; i < xts_impls_count(); i++) {
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, xts_impls_at(i)->name, sizeof list - strlen(list) - 1);
    }
    return pb_errf(e, "xts: unknown implementation '%s' (xts has: %s)", impl, list);
}

static int key_index(const char *s, size_t n)
{
    for (size_t k = 0; k < NKEYS; k++) {
        char buf[8];
        int len = snprintf(buf, sizeof buf, "%u", grid_keys[k]);
        if ((size_t)len == n && memcmp(buf, s, n) == 0) return (int)k;
    }
    return -1;
}

/* The modelled per-call cost of the child (xts_aes.h). How it was asked for: */
enum child_cost_how { CHILD_COST_DEFAULT, CHILD_COST_BYTES, CHILD_COST_NS, CHILD_COST_SPINS };

/* The suite's options object (suite.h). */
typedef struct xts_opts {
    unsigned keys_mask;                /* --keys: which of grid_keys to plan (bit i = grid_keys[i]) */
    enum child_cost_how child_cost_how;
    double child_cost_value;           /* bytes-equivalent or ns, by child_cost_how */
    /* what plan() calibrated: setup_case applies it to the child (process-wide in xts_aes.c) */
    uint64_t child_spins;
    unsigned child_every;
    char child_cost_effective[512];    /* what plan() applied, for runs.options */
    char child_cost_calibrated[64];    /* the same as options: "child-call-spins=SPINS/EVERY" */
    /* --plugin NAME=PATH, in the order given; plan() loads them */
    int nplugins;
    char plugin_name[XTS_IMPLS_MAX_PLUGINS][XTS_IMPLS_NAME_MAX];
    char plugin_path[XTS_IMPLS_MAX_PLUGINS][1024];
} xts_opts;

static void opts_init(void *p)
{
    xts_opts *o = p;
    o->keys_mask = (1u << NKEYS) - 1;
    o->child_every = 1;
}

#define CHILD_COST_MAX 1e6            /* bytes or ns: far above anything a call costs */
#define CHILD_COST_FILE "xts_child_call.tsv"

static int parse_child_cost(xts_opts *o, const char *name, const char *value, enum child_cost_how how, pb_err *e)
{
    const char *unit = how == CHILD_COST_BYTES ? "BYTES" : "NS";
    if (!*value)
        return pb_errf(e, "--%s needs a value: %s, a number from 0 (off) to %g", name, unit, CHILD_COST_MAX);
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || *end || !(v >= 0 && v <= CHILD_COST_MAX))
        return pb_errf(e, "--%s: '%s' is not a number from 0 (off) to %g", name, value, CHILD_COST_MAX);
    if (o->child_cost_how == CHILD_COST_SPINS) return 0;   /* --child-call-spins wins (set_child_spins) */
    if (o->child_cost_how != CHILD_COST_DEFAULT && o->child_cost_how != how)
        return pb_errf(e, "--%s: give either --child-call-cost or --child-call-ns, not both", name);
    o->child_cost_how = how;
    o->child_cost_value = v;
    return 0;
}

static int set_child_cost(void *o, const char *value, pb_err *e)
{
    return parse_child_cost(o, "child-call-cost", value, CHILD_COST_BYTES, e);
}

static int set_child_ns(void *o, const char *value, pb_err *e)
{
    return parse_child_cost(o, "child-call-ns", value, CHILD_COST_NS, e);
}

/* --child-call-spins SPINS[/EVERY]: the busy-wait itself, not calibrated: the same loop in two
 * builds costs the same, where two calibrations a moment apart can differ by several ns per call on
 * a shared machine (the commit gate in one process sets it on the baseline build: suite.h
 * calibrated_options). Given with --child-call-cost/-ns, it wins: it is what they come to. */
static int set_child_spins(void *p, const char *value, pb_err *e)
{
    xts_opts *o = p;
    char *end;
    errno = 0;
    unsigned long long spins = strtoull(value, &end, 10);
    unsigned long every = 1;
    if (!errno && end != value && *end == '/') {
        const char *ev = end + 1;
        every = strtoul(ev, &end, 10);
        if (end == ev) every = 0;
    }
    if (errno || end == value || *end || value[0] == '-' || spins > 1000000000ull || every < 1 || every > 1000)
        return pb_errf(e, "--child-call-spins: '%s' is not SPINS[/EVERY] (SPINS 0 to 1e9, EVERY 1 to 1000)", value);
    o->child_cost_how = CHILD_COST_SPINS;
    o->child_spins = spins;
    o->child_every = (unsigned)every;
    return 0;
}

static int set_keys(void *o, const char *value, pb_err *e)
{
    if (!*value)
        return pb_errf(e, "--keys needs a value, e.g. --keys 256,512 (XTS key sizes in bits: 256, 384, 512)");
    unsigned mask = 0;
    for (const char *p = value; *p;) {
        size_t n = strcspn(p, ",");
        int k = key_index(p, n);
        if (k < 0)
            return pb_errf(e, "--keys: unknown key size '%.*s' (XTS key sizes in bits: 256, 384, 512 = 2 x AES-128/192/256)",
                           (int)n, p);
        mask |= 1u << k;
        p += n;
        if (*p == ',') p++;
    }
    ((xts_opts *)o)->keys_mask = mask;
    return 0;
}

PB_PLUGIN_OPTION_GLUE("xts", xts_opts, XTS_IMPLS_MAX_PLUGINS, xts_plugin_check_name)

static const pb_suite_opt options[] = {
    {"keys", "LIST", "XTS key sizes in bits to run, comma-separated: 256,384,512 (default all)\n"
                     "(256/384/512 = Key1||Key2 of 2 x AES-128/192/256; openssl has no 384)", set_keys},
    {"child-call-cost", "BYTES", "modelled cost of one child ECB request (the kernel's skcipher walk +\n"
                     "kernel_fpu_begin/end), in bytes of this machine's own AES-128 ECB time,\n"
                     "calibrated at set-up and paid as a busy-wait by old, new and old-nomem on\n"
                     "every child call; 0 = off. Default: data/xts_child_call.tsv (measured in\n"
                     "the kernel module, see docs/kmod.md)", set_child_cost},
    {"child-call-ns", "NS", "the same cost given in nanoseconds instead (0 = off)", set_child_ns},
    {"child-call-spins", "SPINS[/EVERY]", "the busy-wait itself, not calibrated: SPINS loop turns before\n"
                     "every EVERY-th child call (0 = off); wins over the two above. What a run\n"
                     "calibrated is in its suite_settings; the commit gate in one process gives\n"
                     "the baseline build the candidate build's", set_child_spins},
    {"plugin", "NAME=PATH.so", "also time the XTS template in this shared object as impl NAME\n"
                     "(repeatable, at most 4; ABI: include/patchbench/xts_plugin.h). It must pass\n"
                     "the suite's self-test, run in a child process, before it is timed", set_plugin},
    {NULL, NULL, NULL, NULL},
};

static int impl_has_keybits(const char *impl, unsigned bits)
{
    /* OpenSSL has no AES-192-XTS: that cell is simply not planned for it; nor for a plug-in
     * without the key size */
    const unsigned bit = bits == 256 ? XTS_KEYS_256 : bits == 384 ? XTS_KEYS_384 : XTS_KEYS_512;
    return !(bits == 384 && strcmp(impl, "openssl") == 0) && (xts_impls_find(impl)->alg->key_sizes & bit);
}

/* data/xts_child_call.tsv: '#' comments, then one line "BYTES<TAB>where it came from".
 * Fills *bytes and source (a line of text without tabs). */
static int read_child_cost_file(double *bytes, char *source, size_t source_size, pb_err *e)
{
    pb_path data;
    const char *dir = pb_data_dir(&data);
    char path[sizeof data.s + 64], line[1024];
    snprintf(path, sizeof path, "%s/%s", dir, CHILD_COST_FILE);
    FILE *f = fopen(path, "r");
    if (!f)
        return pb_errf(e, "xts: %s: cannot open: %s (the default child-call cost; or give --child-call-cost "
                       "or --child-call-ns)", path, strerror(errno));
    int ln = 0, rc = -2;   /* -2: no data line yet */
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == '#' || line[0] == 0) continue;
        char *tab = strchr(line, '\t'), *end;
        if (tab) *tab = 0;
        errno = 0;
        double v = strtod(line, &end);
        if (!tab || end == line || *end || errno || !(v >= 0 && v <= CHILD_COST_MAX) || !tab[1] ||
            strchr(tab + 1, '\t'))
            rc = pb_errf(e, "%s:%d: expected 'BYTES<TAB>source', BYTES from 0 to %g", path, ln, CHILD_COST_MAX);
        else {
            *bytes = v;
            snprintf(source, source_size, "%s", tab + 1);
            rc = 0;
        }
        break;
    }
    if (rc == -2) rc = pb_errf(e, "%s: no data line (expected 'BYTES<TAB>source')", path);
    fclose(f);
    return rc;
}

/* The fastest of 31 timings (after 3 warm-ups) of `reps` child requests of `len` bytes, in ns
 * per request: AES-128 ECB, the child of 256-bit XTS (the key size the default was measured at),
 * with whatever modelled cost is set. */
static int time_child(size_t len, int reps, double *ns, pb_err *e)
{
    static uint8_t buf[32768];
    uint8_t key[16];
    xts_stats stats = {0};
    xts_ecb ecb;
    xts_ecb_request rq;
    memset(key, 0x42, sizeof key);
    if (xts_ecb_init(&ecb, &stats) || xts_ecb_setkey(&ecb, key, sizeof key)) {
        xts_ecb_exit(&ecb);
        return pb_errf(e, "xts: cannot set up AES-128 ECB to calibrate the child-call cost");
    }
    xts_ecb_request_set_crypt(&rq, &ecb, buf, buf, len < sizeof buf ? len : sizeof buf);
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 34; i++) {
        const uint64_t t0 = pb_now_ns();
        for (int r = 0; r < reps; r++) xts_ecb_encrypt(&rq);
        const uint64_t dt = pb_now_ns() - t0;
        if (i >= 3 && dt < best) best = dt;
    }
    xts_ecb_exit(&ecb);
    *ns = (double)best / reps;
    return 0;
}

/* What the model with (spins, every) adds to a 16-byte child call, in ns on average: the
 * fastest of three alternations of off and on, each the fastest of 31 batches of `reps` calls,
 * so that another process's burst on a shared machine does not land in one side only. */
static int added_ns(uint64_t spins, unsigned every, int reps, double *added, pb_err *e)
{
    double off = INFINITY, on = INFINITY, t;
    for (int i = 0; i < 3; i++) {
        xts_child_cost_set(0, 1);
        if (time_child(16, reps, &t, e) < 0) return -1;
        off = fmin(off, t);
        xts_child_cost_set(spins, every);
        if (time_child(16, reps, &t, e) < 0) return -1;
        on = fmin(on, t);
    }
    xts_child_cost_set(0, 1);
    *added = on - off;
    return 0;
}

/* Turn the options (or the data file's default) into loop spins per child call, record them in
 * o for setup_case and say what was applied in o->child_cost_effective. Timing-dependent only
 * through the calibration, which leaves the calibrated cost set. */
static int apply_child_cost(xts_opts *o, pb_err *e)
{
    char source[400] = "";
    double bytes = 0, ns = 0, b = 0;
    enum child_cost_how how = o->child_cost_how;
    char *child_cost_effective = o->child_cost_effective;
    const size_t effective_size = sizeof o->child_cost_effective;
    xts_child_cost_set(0, 1);
    o->child_cost_calibrated[0] = 0;
    if (RUNNING_ON_VALGRIND) {
        /* bench --measure valgrind: the model's busy-wait is calibrated in time, so its instruction
         * count would change from run to run (and Valgrind's slowdown would size it): off */
        snprintf(child_cost_effective, effective_size,
                 "child_call_cost=off under valgrind (a busy-wait calibrated in time has no fixed instruction "
                 "count): old, new, old-nomem counts leave out the modelled child-call cost that their "
                 "wall-time rows pay");
        return 0;
    }
    if (how == CHILD_COST_SPINS) {
        double paid = 0;
        if (o->child_spins && added_ns(o->child_spins, o->child_every, 1000, &paid, e) < 0) return -1;
        xts_child_cost_set(o->child_spins, o->child_every);
        snprintf(child_cost_effective, effective_size,
                 "child_call_cost=%llu spins per %u child call(s) (--child-call-spins, not calibrated), measured "
                 "+%.1fns per call", (unsigned long long)o->child_spins, o->child_every, paid);
        snprintf(o->child_cost_calibrated, sizeof o->child_cost_calibrated, "child-call-spins=%llu/%u",
                 (unsigned long long)o->child_spins, o->child_every);
        return 0;
    }
    if (how == CHILD_COST_DEFAULT && read_child_cost_file(&bytes, source, sizeof source, e) < 0) return -1;
    if (how == CHILD_COST_BYTES) bytes = o->child_cost_value;
    if (how == CHILD_COST_NS) ns = o->child_cost_value;
    if (how != CHILD_COST_NS && bytes > 0) {
        if (time_child(32768, 8, &b, e) < 0) return -1;
        b /= 32768;   /* this machine's per-byte cost of the child */
        ns = bytes * b;
    }
    uint64_t spins = 0;
    unsigned every = 1;
    double paid = 0;  /* what the model really adds per 16-byte call, on average */
    if (ns > 0) {
        /* The fenced loop has a floor (the fences' own cost). Measure it, and where the target
         * is below 1.5 floors, pay every `every`-th call for `every` calls at once. Then spins
         * per ns from what 2^12 spins add, and correction passes from what is really added:
         * the loop's rate depends on the core. */
        double floor_ns, big;
        if (added_ns(1, 1, 1000, &floor_ns, e) < 0 || added_ns(1u << 12, 1, 50, &big, e) < 0) return -1;
        if (floor_ns < 0) floor_ns = 0;
        if (ns < 1.5 * floor_ns) every = (unsigned)ceil(1.5 * floor_ns / ns);
        const double per_ns = big > 0 ? (double)(1u << 12) / big : 1;
        double target = ns * every - floor_ns;   /* spin time per paying call */
        for (int pass = 0; pass < 3; pass++) {
            const double n = target * per_ns;
            spins = n < 1 ? 1 : (uint64_t)llround(n);
            if (added_ns(spins, every, 1000, &paid, e) < 0) return -1;
            target += (ns - paid) * every;
        }
    }
    xts_child_cost_set(spins, every);
    o->child_spins = spins;
    o->child_every = every;
    snprintf(o->child_cost_calibrated, sizeof o->child_cost_calibrated, "child-call-spins=%llu/%u",
             (unsigned long long)spins, every);
    if (spins == 0)
        snprintf(child_cost_effective, effective_size, "child_call_cost=off (%s)",
                 how == CHILD_COST_DEFAULT ? "data/" CHILD_COST_FILE " says 0" :
                 how == CHILD_COST_BYTES ? "--child-call-cost 0" : "--child-call-ns 0");
    else if (how == CHILD_COST_NS)
        snprintf(child_cost_effective, effective_size,
                 "child_call_cost=%.1fns (--child-call-ns) = %llu spins per %u child call(s), measured +%.1fns per call", ns,
                 (unsigned long long)spins, every, paid);
    else
        snprintf(child_cost_effective, effective_size,
                 "child_call_cost=%.1fB x %.4gns/B (AES-128 ECB here) = %.1fns = %llu spins per %u child call(s), "
                 "measured +%.1fns per call (%s%s)", bytes, b, ns, (unsigned long long)spins, every, paid,
                 how == CHILD_COST_BYTES ? "--child-call-cost" : "default, data/" CHILD_COST_FILE ": ", source);
    return 0;
}

static const char *effective_options(const void *opts)
{
    return ((const xts_opts *)opts)->child_cost_effective;
}

static const char *calibrated_options(const void *opts)
{
    const xts_opts *o = opts;
    return o->child_cost_calibrated[0] ? o->child_cost_calibrated : NULL;
}

static int plan(void *opts, const pb_plan_opts *o, pb_grid *g, pb_err *e)
{
    static const char *const ops[] = { "enc", "dec" };
    const size_t nsizes = sizeof grid_sizes / sizeof grid_sizes[0];
    const unsigned keys_mask = ((const xts_opts *)opts)->keys_mask;
    (void)o;   /* --quick: same grid, the harness shortens the samples */

    const xts_opts *xo = opts;
    for (int i = 0; i < xo->nplugins; i++)
        if (!xts_impls_find(xo->plugin_name[i]) && xts_plugin_load(xo->plugin_name[i], xo->plugin_path[i], e) < 0)
            return -1;
    if (apply_child_cost(opts, e) < 0) return -1;

    g->ncells = 0;
    g->cells = calloc(NKEYS * 2 * nsizes, sizeof *g->cells);
    if (!g->cells) return pb_errf(e, "xts: out of memory");
    for (size_t k = 0; k < NKEYS; k++) {
        if (!(keys_mask & (1u << k))) continue;
        for (size_t op = 0; op < 2; op++)
            for (size_t s = 0; s < nsizes; s++) {
                pb_cell *c = &g->cells[g->ncells++];
                snprintf(c->variant, sizeof c->variant, "%u", grid_keys[k]);
                snprintf(c->op, sizeof c->op, "%s", ops[op]);
                c->size_bytes = grid_sizes[s];
                for (size_t i = 0; i < xts_impls_count(); i++)
                    if (impl_has_keybits(xts_impls_at(i)->name, grid_keys[k]))
                        snprintf(c->impls[c->nimpls++], PB_NAME_MAX, "%s", xts_impls_at(i)->name);
            }
    }
    return 0;
}

typedef struct xts_case {
    xts_tfm *tfm;
    xts_request *req;
    int (*crypt)(xts_request *req);
    uint8_t *src, *dst;
    uint8_t iv[XTS_IV_SIZE];
    uint64_t sector;
    uint64_t errors;
    uint64_t extra_pct_x100, extra_credit;   /* PB_XTS_TEST_SLOWDOWN: hundredths of a per cent */
    /* check_output's (a caged case's): the input as set up, the key, and the reference */
    int enc;
    unsigned bits;
    size_t len;
    uint8_t *src0, *ref;
    xts_tfm *ref_tfm;
    xts_request *ref_req;
} xts_case;

static void case_body(void *p, uint64_t iters)
{
    xts_case *c = p;
    for (uint64_t i = 0; i < iters; i++) {
        uint64_t sector = htole64(c->sector++);
        memcpy(c->iv, &sector, sizeof sector);
        if (c->crypt(c->req)) c->errors++;
        /* test-only slowdown (PB_XTS_TEST_SLOWDOWN): an op done twice whenever the per cent owed
         * reaches a whole op, so that P % more ops are done in all */
        if (c->extra_pct_x100 && (c->extra_credit += c->extra_pct_x100) >= 10000) {
            c->extra_credit -= 10000;
            if (c->crypt(c->req)) c->errors++;
        }
    }
}

static void case_free(void *p)
{
    xts_case *c = p;
    if (!c) return;
    xts_request_free(c->req);
    xts_free_tfm(c->tfm);
    xts_request_free(c->ref_req);
    xts_free_tfm(c->ref_tfm);
    free(c->src);
    free(c->dst);
    free(c->src0);
    free(c->ref);
    free(c);
}

/* Page-aligned, as dm-crypt's pages are, and for the same reason as the kernel's numbers are
 * comparable: every case of every impl sees the same page offsets for src and dst. Buffers at
 * whatever offset malloc returns made two set-ups of one impl differ by 15-25 % at 64 B (4K
 * aliasing between the src and dst streams), which would leak into old/new ratios. */
static uint8_t *alloc_buffer(size_t n)
{
    return aligned_alloc(4096, (n + 4095) & ~(size_t)4095);
}

static int check_size(uint64_t len, pb_err *e)
{
    if (len < XTS_BLOCK_SIZE || len % XTS_BLOCK_SIZE)
        return pb_errf(e, "xts: size %llu is not a multiple of 16 bytes (2018 XTS has no ciphertext stealing)",
                       (unsigned long long)len);
    return 0;
}

static pb_setup_status setup_case(void *opts, const pb_cell *cell, const char *impl, pb_case *out, pb_err *e)
{
    const xts_opts *o = opts;
    char *end;
    unsigned long bits = strtoul(cell->variant, &end, 10);
    size_t len = cell->size_bytes;
    int enc = strcmp(cell->op, "enc") == 0;
    int err;

    if (xts_suite_check_impl(impl, e)) return -1;
    if (*end || key_index(cell->variant, strlen(cell->variant)) < 0)
        return pb_errf(e, "xts: unknown variant '%s' (key sizes in bits: 256, 384, 512)", cell->variant);
    if (!enc && strcmp(cell->op, "dec") != 0)
        return pb_errf(e, "xts: unknown op '%s' (enc or dec)", cell->op);
    if (check_size(len, e) < 0) return -1;

    /* the child's modelled cost is process-wide (xts_aes.c): this run's, as plan() calibrated it */
    xts_child_cost_set(o->child_spins, o->child_every);
    xts_case *c = calloc(1, sizeof *c);
    if (!c) return pb_errf(e, "xts: out of memory");
    c->tfm = xts_impls_alloc_tfm(impl, &err);
    if (!c->tfm) {
        free(c);
        return pb_errf(e, "xts: %s: cannot create transform: %s", impl, strerror(-err));
    }
    c->req = xts_request_alloc(c->tfm);
    c->src = alloc_buffer(len);
    c->dst = alloc_buffer(len);
    if (!c->req || !c->src || !c->dst) {
        case_free(c);
        return pb_errf(e, "xts: out of memory for a %zu-byte case", len);
    }

    uint8_t key[XTS_MAX_KEY_SIZE];
    pb_rng rng;
    pb_rng_seed(&rng, XTS_SEED ^ bits);
    pb_rng_bytes(&rng, key, bits / 8);
    pb_rng_bytes(&rng, c->src, len);
    err = xts_setkey(c->tfm, key, bits / 8);
    explicit_bzero(key, sizeof key);
    if (err) {
        case_free(c);
        return pb_errf(e, "xts: %s: setkey with a %lu-bit key failed: %s", impl, bits, strerror(-err));
    }

    c->crypt = enc ? xts_encrypt : xts_decrypt;
    c->enc = enc;
    c->bits = (unsigned)bits;
    c->len = len;
    /* Test-only: PB_XTS_TEST_SLOWDOWN=IMPL[:PERCENT] makes IMPL do PERCENT % more ops, in whole ops
     * (default 2: one op in 50 twice, exactly so under --measure valgrind, whose 50 counted ops hold
     * one such op; a PERCENT that is not a multiple of 2 is rounded down there: 5 gives 4),
     * so that the gates can be shown to catch a regression of that size in a real implementation.
     * Never set in a real run. */
    const char *slow = getenv("PB_XTS_TEST_SLOWDOWN");
    size_t nl = strlen(impl);
    if (slow && !strncmp(slow, impl, nl) && (slow[nl] == 0 || slow[nl] == ':')) {
        double pct = 2;
        if (slow[nl] == ':') {
            char *end;
            pct = strtod(slow + nl + 1, &end);
            if (end == slow + nl + 1 || *end || !(pct > 0 && pct <= 100)) {
                case_free(c);
                return pb_errf(e, "PB_XTS_TEST_SLOWDOWN=%.60s: the per cent after ':' must be a number in (0, 100]", slow);
            }
        }
        c->extra_pct_x100 = (uint64_t)(pct * 100 + 0.5);
    }
    xts_request_set_crypt(c->req, c->src, c->dst, len, c->iv);
    /* one request now, so that a failing case is refused here, not counted in body() */
    if ((err = c->crypt(c->req)) != 0) {
        case_free(c);
        return pb_errf(e, "xts: %s: %s of %zu bytes failed: %s", impl, cell->op, len, strerror(-err));
    }

    out->body = case_body;
    out->ctx = c;
    out->free_ctx = case_free;
    out->error_count = &c->errors;
    return PB_SETUP_OK;
}

/* Caged code's output after a sample: the last request (sector c->sector - 1, whose IV is still
 * in c->iv) done again by the built-in "old" template on the input as set up, compared with what
 * the impl left in dst; and its input must be as set up. The reference is made on first use, in
 * the cage's child only (a case timed in bench is never checked). */
static int check_output(void *ctx, pb_err *e)
{
    xts_case *c = ctx;
    if (!c->src0) {
        int err = 0;
        uint8_t key[XTS_MAX_KEY_SIZE];
        pb_rng rng;
        pb_rng_seed(&rng, XTS_SEED ^ c->bits);
        pb_rng_bytes(&rng, key, c->bits / 8);
        c->src0 = alloc_buffer(c->len);
        c->ref = alloc_buffer(c->len);
        if (c->src0) pb_rng_bytes(&rng, c->src0, c->len);
        c->ref_tfm = xts_impls_alloc_tfm("old", &err);
        c->ref_req = c->ref_tfm ? xts_request_alloc(c->ref_tfm) : NULL;
        if (!err && c->ref_tfm) err = xts_setkey(c->ref_tfm, key, c->bits / 8);
        explicit_bzero(key, sizeof key);
        if (err || !c->src0 || !c->ref || !c->ref_req) {
            free(c->src0);
            c->src0 = NULL;
            return pb_errf(e, "xts: cannot set up the reference to check the output against: %s",
                           err ? strerror(-err) : "out of memory");
        }
    }
    if (memcmp(c->src, c->src0, c->len))
        return pb_errf(e, "xts: it changed its %zu-byte input (src)", c->len);
    uint8_t iv[XTS_IV_SIZE];
    memcpy(iv, c->iv, sizeof iv);
    xts_request_set_crypt(c->ref_req, c->src0, c->ref, c->len, iv);
    int err = c->enc ? xts_encrypt(c->ref_req) : xts_decrypt(c->ref_req);
    if (err) return pb_errf(e, "xts: the reference failed: %s", strerror(-err));
    for (size_t i = 0; i < c->len; i++)
        if (c->dst[i] != c->ref[i])
            return pb_errf(e, "xts %u %s of %zu bytes: output differs from the built-in template's from byte %zu",
                           c->bits, c->enc ? "enc" : "dec", c->len, i);
    return 0;
}

static int selftest(const void *opts, const char *impl, pb_err *e)
{
    (void)opts;   /* the known answers do not depend on the options */
    return xts_suite_selftest(impl, e);
}

static pb_claim claim(const pb_cell *cell, double doc_ratio)
{
    (void)cell;
    if (isnan(doc_ratio)) return PB_CLAIM_NONE;
    /* the document: "either better or comparable for both small and large buffers" */
    return doc_ratio < 0.95 ? PB_CLAIM_FASTER : PB_CLAIM_NOT_SLOWER;
}

/* what kmod/xts_bench.c reports */
static const char *const kmod_impls[] = { "kmod-old", "kmod-new", "kmod-old-nomem", "kmod-builtin",
                                          "kmod-kernel-xts", "kmod-child-ecb", NULL };

/* the re-implemented new template against the kernel's own crypto/xts.c over the same child, in the
 * same kernel and boot: {candidate, baseline, NULL} (suite.h kmod_ratio_pairs) */
static const char *const kmod_ratio_pairs[] = { "kmod-new", "kmod-kernel-xts", NULL };

/* --keys is one comma list: a second --keys would replace the first (suite.h once_options) */
static const char *const once_options[] = { "keys", NULL };

/* the options that name the code under test: a baseline's configuration is the rest (suite.h) */
static const char *const code_options[] = {"plugin", NULL};

const pb_suite pb_suite_xts = {
    .name = "xts",
    .title = "Linux crypto/xts.c: drop the tweak buffer (78105c7e769b), old vs new template",
    .baseline = "old",
    .candidate = "new",
    .metrics = PB_M_NS_PER_OP | PB_M_TSC_PER_BYTE | PB_M_CYCLES_PER_BYTE | PB_M_EST_CYCLES_PER_BYTE,
    .primary_metric = "ns_per_op",
    .kat_help =
        "NIST CAVP XTSGen-style .rsp ([ENCRYPT]/[DECRYPT]; Key = Key1||Key2; i = tweak bytes or "
        "DataUnitSeqNumber = LE128 tweak; DataUnitLen in bits; PT; CT). Data units that are not a "
        "multiple of 128 bits are skipped (2018 XTS has no ciphertext stealing); openssl skips "
        "2 x 192-bit keys and K1 == K2 (it refuses both).",
    .opts_size = sizeof(xts_opts),
    .opts_init = opts_init,
    .options = options,
    .plan = plan,
    .check_size = check_size,
    .setup_case = setup_case,
    .selftest = selftest,
    .kat_accepts = xts_suite_kat_accepts,
    .kat_file = xts_suite_kat_file,
    .plugin_load = xts_plugin_load,
    .claim = claim,
    .effective_options = effective_options,
    .calibrated_options = calibrated_options,
    .library_versions = pb_lib_versions_gcrypt_openssl,
    .kmod_impls = kmod_impls,
    .user_code = plugin_user_code,
    .user_object = plugin_user_object,
    .code_options = code_options,
    .own_profile = "kernel profile",
    .own_cflags = PB_KERNEL_PROFILE_CFLAGS,
    .check_output = check_output,
    .kmod_baseline = "kmod-old",
    .kmod_candidate = "kmod-new",
    .kmod_ratio_pairs = kmod_ratio_pairs,
    .kmod_real = "kmod-kernel-xts",
    .once_options = once_options,
    .plot_x = "size",
    .notes_md =
        "This is a userspace re-run of the kernel template, not the kernel: old and new are the "
        "pre- and post-78105c7e769b `crypto/xts.c` request paths over the same child `ecb(aes)`, "
        "compiled as kbuild compiles x86-64 kernel C (no SSE/x87, -O2, retpolines: "
        "docs/build-profiles.md); `old@native` and `new@native` are the same two files built plain "
        "-O3 -march=x86-64-v2, measured in the same cells, so the code-generation column shows which "
        "ratios are the compiler's (built with SSE, the old template's tweak-cache store and reload "
        "stall store forwarding, which once made this table say new/old = 0.5). The child is "
        "OpenSSL's EVP aes-*-ecb (pipelined AES-NI like the kernel's ecb-aes-aesni; one child "
        "request = one EVP_CipherUpdate). Because one EVP call costs far less than the kernel's walk and FPU "
        "save/restore, old, new and old-nomem also pay a modelled per-call cost on every child "
        "request, a busy-wait of K bytes' worth of this machine's own AES-128 ECB time: by default K "
        "from data/xts_child_call.tsv, measured in patchbench.ko as the kernel's ecb(aes) child on "
        "16-byte against 4096-byte requests (under QEMU/TCG, which emulates AES-NI and so probably "
        "understates K); the run header's suite settings say the value applied (`--child-call-cost 0` "
        "turns it off). kmalloc/kzfree are glibc malloc and explicit_bzero+free, which are cheaper "
        "than the kernel's; old calls them directly, as the 2018 template did. `old-nomem` is the old "
        "code built with every kmalloc failing: 128-byte "
        "chunks, 32 child calls per 4 KiB. The peers are whole XTS implementations, not templates: "
        "OpenSSL EVP aes-xts (it has no AES-192-XTS, so no 384-bit cells) and libgcrypt's XTS mode. "
        "Every request uses a new IV (the sector number, as dm-crypt plain64); 2018 semantics: "
        "lengths must be whole 16-byte blocks.",
};
