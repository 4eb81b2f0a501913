/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_gcrypt_lib.c — a libgcrypt build by path, in its own link-map namespace (drbg_gcrypt_lib.h). */
#include <dlfcn.h>
#include <errno.h>
#include <gnu/lib-names.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <gcrypt.h>   /* the control codes and enums only: every call goes through dlsym'd pointers */

#include "drbg_gcrypt_lib.h"
#include "common/gcry_prims.h"
#include "drbg_selftest.h"
#include "pb_fork.h"
#include "peers/drbg_peers.h"

#define SELFTEST_SECONDS 60
#define MIN_VERSION "1.7.0"   /* GCRYCTL_DRBG_REINIT as used here; the 2016 patch's parent is 1.7.x */

typedef const char *(*check_version_fn)(const char *);
typedef gcry_error_t (*control_fn)(enum gcry_ctl_cmds, ...);
typedef void (*randomize_fn)(void *, size_t, enum gcry_random_level);

struct drbg_gcrypt_lib {
    char name[DRBG_GCRYPT_LIB_NAME_MAX];
    char path[1024];
    char version[32];
    void *handle;
    control_fn control;
    randomize_fn randomize;
    int current;
    char origin[96];       /* where it came from, when known ("commit 20886fdc…") */
    pb_gcry_prims prims;   /* its cipher and digest calls, for old/new on its primitives */
    const char *prims_missing;   /* NULL, or the first of them it lacks (then no --primitives) */
    /* 1: known from its discovery child only (drbg_gcrypt_lib_load), loaded into this process at
     * its first call (ready): a cage's child, or bench itself only under --cage none */
    int deferred;
    char load_error[PB_ERR_MAX];   /* why that loading failed, once it has */
    /* its namespace, made by bench at discovery with only the C library in it (reserve_namespace) */
    Lmid_t lmid;
    int has_lmid;
};

/* The builds loaded into this process. Loaded code, not options: like the xts plug-in registry,
 * it outlives one run's options object, and a handle is never closed. A copy of this suite in a
 * code layout uses the run's registry (drbg_gcrypt_lib_use_registry), so that one namespace serves
 * every layout and what `current` says holds for all of them. */
struct drbg_gcrypt_lib_registry {
    drbg_gcrypt_lib libs[DRBG_GCRYPT_LIB_MAX];
    int n;
};
static drbg_gcrypt_lib_registry own_registry;
static drbg_gcrypt_lib_registry *reg = &own_registry;
#define libs (reg->libs)
#define nlibs (reg->n)

drbg_gcrypt_lib_registry *drbg_gcrypt_lib_registry_of_this_copy(void)
{
    return reg;
}

void drbg_gcrypt_lib_use_registry(drbg_gcrypt_lib_registry *r)
{
    reg = r;
}

int drbg_gcrypt_lib_check_name(const char *name, pb_err *e)
{
    size_t n = strlen(name);
    if (n == 0 || n >= DRBG_GCRYPT_LIB_NAME_MAX ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.@") != n)
        return pb_errf(e, "--gcrypt-lib: name '%s' must be 1 to %d characters of A-Z a-z 0-9 _ - . @", name,
                       DRBG_GCRYPT_LIB_NAME_MAX - 1);
    return 0;
}

drbg_gcrypt_lib *drbg_gcrypt_lib_find(const char *impl)
{
    size_t np = strlen(DRBG_GCRYPT_LIB_PREFIX);
    if (strncmp(impl, DRBG_GCRYPT_LIB_PREFIX, np)) return NULL;
    for (int i = 0; i < nlibs; i++)
        if (!strcmp(libs[i].name, impl + np)) return &libs[i];
    return NULL;
}

static void *sym(void *h, const char *s)
{
    return dlsym(h, s);
}

/* The build's functions that the DRBG backends call (gcry_prims.h), in the table's order: 1, or 0
 * with the first one missing in *missing (then only its own DRBG can be timed, not --primitives). */
static int resolve_prims(void *h, pb_gcry_prims *p, const char **missing)
{
    static const char *const names[] = { PB_GCRY_PRIMS_SYMBOLS };
    void *fns[sizeof names / sizeof names[0]];
    _Static_assert(sizeof fns == sizeof *p, "one symbol per pb_gcry_prims member");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!(fns[i] = sym(h, names[i]))) return *missing = names[i], 0;
    memcpy(p, fns, sizeof *p);   /* object to function pointers, as POSIX allows (dlsym) */
    return 1;
}

/* dlmopen PATH into a new namespace, resolve, select the FIPS DRBG, initialise, fill *l. */
static int open_into(drbg_gcrypt_lib *l, const char *name, const char *path, pb_err *e)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return pb_errf(e, "--gcrypt-lib %s: %s: %s", name, path, strerror(errno));
    if (!S_ISREG(st.st_mode)) return pb_errf(e, "--gcrypt-lib %s: %s: not a regular file", name, path);
    char where[1100];
    /* a bare file name would be looked up in the library path: take it as ./NAME, as written */
    snprintf(where, sizeof where, "%s%s", strchr(path, '/') ? "" : "./", path);
    void *h = dlmopen(l->has_lmid ? l->lmid : LM_ID_NEWLM, where, RTLD_NOW | RTLD_LOCAL);
    if (!h) return pb_errf(e, "--gcrypt-lib %s: cannot load %s: %s", name, path, dlerror());
    check_version_fn check_version;
    control_fn control;
    randomize_fn randomize;
    void *s1 = sym(h, "gcry_check_version"), *s2 = sym(h, "gcry_control"), *s3 = sym(h, "gcry_randomize");
    if (!s1 || !s2 || !s3)
        return pb_errf(e, "--gcrypt-lib %s: %s is not a libgcrypt: no symbol %s", name, path,
                       !s1 ? "gcry_check_version" : !s2 ? "gcry_control" : "gcry_randomize");
    memcpy(&check_version, &s1, sizeof s1);   /* object to function pointer, as POSIX allows */
    memcpy(&control, &s2, sizeof s2);
    memcpy(&randomize, &s3, sizeof s3);
    /* the RNG type must be chosen before the library initialises (gcry_check_version does that) */
    if (control(GCRYCTL_SET_PREFERRED_RNG_TYPE, GCRY_RNG_TYPE_FIPS))
        return pb_errf(e, "--gcrypt-lib %s: %s refused GCRYCTL_SET_PREFERRED_RNG_TYPE", name, path);
    const char *v = check_version(NULL);
    if (!v) return pb_errf(e, "--gcrypt-lib %s: %s: gcry_check_version gives no version", name, path);
    if (!check_version(MIN_VERSION))
        return pb_errf(e, "--gcrypt-lib %s: %s is libgcrypt %s, older than %s", name, path, v, MIN_VERSION);
    control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    int type = 0;
    if (control(GCRYCTL_GET_CURRENT_RNG_TYPE, &type) || type != GCRY_RNG_TYPE_FIPS)
        return pb_errf(e, "--gcrypt-lib %s: %s: its DRBG (GCRY_RNG_TYPE_FIPS) did not become the active RNG",
                       name, path);
    pb_gcry_prims prims = { 0 };
    const char *missing = NULL;
    int has_prims = resolve_prims(h, &prims, &missing);
    l->prims = prims;
    l->prims_missing = has_prims ? NULL : missing;
    snprintf(l->name, sizeof l->name, "%s", name);
    snprintf(l->path, sizeof l->path, "%s", path);
    snprintf(l->version, sizeof l->version, "%s", v);
    l->handle = h;
    l->control = control;
    l->randomize = randomize;
    l->current = -1;
    l->deferred = 0;
    return 0;
}

/* open_into the registry's next entry */
static int open_lib(const char *name, const char *path, pb_err *e)
{
    if (nlibs == DRBG_GCRYPT_LIB_MAX) return pb_errf(e, "--gcrypt-lib: at most %d builds", DRBG_GCRYPT_LIB_MAX);
    drbg_gcrypt_lib *l = &libs[nlibs];
    memset(l, 0, sizeof *l);
    if (open_into(l, name, path, e) < 0) return -1;
    nlibs++;
    return 0;
}

/* A deferred build loaded into this process now (its first call): 0, or -1 with why it failed
 * in l->load_error (said once on stderr). */
static int ready(drbg_gcrypt_lib *l)
{
    if (!l->deferred) return 0;
    if (l->load_error[0]) return -1;
    pb_err e = {{0}};
    char name[sizeof l->name], path[sizeof l->path];   /* open_into writes both */
    snprintf(name, sizeof name, "%s", l->name);
    snprintf(path, sizeof path, "%s", l->path);
    if (open_into(l, name, path, &e) < 0) {
        snprintf(l->load_error, sizeof l->load_error, "%s", e.msg);
        fprintf(stderr, "bench: %s\n", e.msg);
        return -1;
    }
    return 0;
}

typedef struct discovery {
    const char *name, *path;
    drbg_gcrypt_lib found;   /* the child's entry, sent back */
} discovery;

/* The suite's selftest of the build loaded as NAME (impl "gcrypt:NAME"). */
static int selftest_lib(const char *name, pb_err *e)
{
    char impl[64];
    snprintf(impl, sizeof impl, "%s%s", DRBG_GCRYPT_LIB_PREFIX, name);
    return drbg_selftest(impl, e);
}

/* A namespace for a build, made in bench with nothing but the system's C library in it, so that
 * the static TLS its C library needs is taken now, before bench loads its code layouts (each copy
 * of the suites takes some while there is room; docs/layout.md), as it was when bench loaded the
 * build itself. The process that runs the build (a cage's child) loads it into this namespace. */
static void reserve_namespace(drbg_gcrypt_lib *l)
{
    void *ns = dlmopen(LM_ID_NEWLM, LIBC_SO, RTLD_NOW | RTLD_LOCAL);
    l->has_lmid = ns && dlinfo(ns, RTLD_DI_LMID, &l->lmid) == 0;
}

/* in the discovery child: load it there, its self-test, then its entry for bench */
static int discover(void *arg, pb_err *e)
{
    discovery *d = arg;
    if (open_lib(d->name, d->path, e) < 0 || selftest_lib(d->name, e) < 0) return -1;
    d->found = libs[nlibs - 1];
    return 0;
}

int drbg_gcrypt_lib_load(const char *name, const char *path, const char *origin, pb_err *e)
{
    if (drbg_gcrypt_lib_check_name(name, e) < 0) return -1;
    char impl[64];
    snprintf(impl, sizeof impl, "%s%s", DRBG_GCRYPT_LIB_PREFIX, name);
    if (drbg_gcrypt_lib_find(impl)) return 0;
    if (nlibs == DRBG_GCRYPT_LIB_MAX) return pb_errf(e, "--gcrypt-lib: at most %d builds", DRBG_GCRYPT_LIB_MAX);
    char who[1200];
    snprintf(who, sizeof who, "--gcrypt-lib %s (%s)", name, path);
    discovery d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.path = path;
    if (pb_fork_run_out(who, "its self-test", SELFTEST_SECONDS, discover, &d, &d.found, sizeof d.found, e) < 0)
        return -1;
    /* what bench keeps of it: its name, path, version and which primitives it lacks (a pointer
     * into this suite's own table of names, the same in the child's copy); none of its functions */
    drbg_gcrypt_lib *l = &libs[nlibs++];
    *l = d.found;
    l->handle = NULL;
    l->control = NULL;
    l->randomize = NULL;
    memset(&l->prims, 0, sizeof l->prims);
    l->current = -1;
    l->deferred = 1;
    reserve_namespace(l);
    if (origin) snprintf(l->origin, sizeof l->origin, "%s", origin);
    return 0;
}

int drbg_gcrypt_lib_reinit(drbg_gcrypt_lib *l, pb_drbg_mech mech, const char **why)
{
    const char *flags = pb_drbg_gcrypt_flags(mech);
    if (!flags) return *why = "invalid mechanism", -1;
    if (ready(l) < 0) return *why = l->load_error, -1;
    l->current = -1;
    /* GCRYCTL_DRBG_REINIT: flag string, personalization buffers, their count, NULL guard. */
    if (l->control(GCRYCTL_DRBG_REINIT, flags, (gcry_buffer_t *)NULL, 0, (void *)NULL))
        return *why = "GCRYCTL_DRBG_REINIT refused the flags", -1;
    l->current = (int)mech;
    *why = NULL;
    return 0;
}

const pb_gcry_prims *drbg_gcrypt_lib_prims(drbg_gcrypt_lib *l)
{
    return l->prims_missing || ready(l) < 0 ? NULL : &l->prims;
}

const char *drbg_gcrypt_lib_prims_missing(const drbg_gcrypt_lib *l)
{
    return l->prims_missing;
}

int drbg_gcrypt_lib_current(const drbg_gcrypt_lib *l)
{
    return l->current;
}

void drbg_gcrypt_lib_generate(drbg_gcrypt_lib *l, uint8_t *out, size_t n)
{
    if (ready(l) < 0) {
        memset(out, 0, n);   /* never reached: reinit, which loads it, comes first */
        return;
    }
    l->randomize(out, n, GCRY_STRONG_RANDOM);
}

int drbg_gcrypt_lib_selftest_ctl(drbg_gcrypt_lib *l, pb_err *e)
{
    if (ready(l) < 0) return pb_errf(e, "%s", l->load_error);
    gcry_error_t err = l->control(GCRYCTL_SELFTEST);
    if (err) return pb_errf(e, "drbg selftest gcrypt:%s: GCRYCTL_SELFTEST failed (error %u)", l->name, (unsigned)err);
    return 0;
}

const char *drbg_gcrypt_lib_describe(void)
{
    static char text[DRBG_GCRYPT_LIB_MAX * 1100];
    size_t at = 0;
    text[0] = 0;
    for (int i = 0; i < nlibs && at < sizeof text; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, "%s%s%s=%s (libgcrypt %s%s%s)", i ? "; " : "",
                               DRBG_GCRYPT_LIB_PREFIX, libs[i].name, libs[i].path, libs[i].version,
                               *libs[i].origin ? ", " : "", libs[i].origin);
    return text;
}
