/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_module.c — load another build's suites (suite_module.h) into this process. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "suite_module.h"

/* Copy path to a fresh private file: dlopen keys loaded objects by file, so opening the same module
 * twice (the A/A form of the gate) would otherwise return the first copy again; a copy also stays
 * what it was if the build rewrites the file meanwhile. The copy is unlinked once loaded. */
static int private_copy(const char *path, char *out, size_t cap, pb_err *e)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    if ((size_t)snprintf(out, cap, "%s/pbsuites-XXXXXX.so", dir) >= cap) return pb_errf(e, "TMPDIR is too long");
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0) return pb_errf(e, "%s: %s", path, strerror(errno));
    int fd = mkstemps(out, 3);
    if (fd < 0) {
        int err = errno;
        close(in);
        return pb_errf(e, "cannot create a copy of %s in %s: %s", path, dir, strerror(err));
    }
    char buf[1 << 16];
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR) continue;
            rc = pb_errf(e, "%s: %s", path, strerror(errno));
            break;
        }
        for (ssize_t off = 0; off < n && rc == 0;) {
            ssize_t w = write(fd, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) rc = pb_errf(e, "%s: %s", out, w < 0 ? strerror(errno) : "short write");
            else off += w;
        }
    }
    close(in);
    if (close(fd) < 0 && rc == 0) rc = pb_errf(e, "%s: %s", out, strerror(errno));
    if (rc < 0) unlink(out);
    return rc;
}

int pb_suite_module_open(pb_suite_module *m, const char *path, pb_err *e)
{
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
    char copy[1100];
    if (private_copy(path, copy, sizeof copy, e) < 0) return -1;
    /* RTLD_LOCAL: the module's symbols (all but the entry are local anyway) join no global scope */
    m->handle = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
    const char *why = m->handle ? NULL : dlerror();
    unlink(copy);
    if (!m->handle) return pb_errf(e, "suite module %s: cannot load: %s", path, why ? why : "?");
    m->info = dlsym(m->handle, PB_SUITE_MODULE_SYMBOL);
    if (!m->info && dlsym(m->handle, PB_SUITE_MODULE_SYMBOL_V1)) {
        pb_suite_module_close(m);
        return pb_errf(e, "suite module %s: an older layout (%s, its suite ABI a hash of the headers' text), not "
                          "%s: its suites cannot be run in this process", path, PB_SUITE_MODULE_SYMBOL_V1,
                       PB_SUITE_MODULE_SYMBOL);
    }
    if (!m->info || !m->info->suites) {
        pb_suite_module_close(m);
        return pb_errf(e, "suite module %s: no %s: not a patchbench suite module of this version", path,
                       PB_SUITE_MODULE_SYMBOL);
    }
    if (m->info->abi_version != PB_SUITE_ABI_VERSION) {
        const char *vcs = m->info->vcs ? m->info->vcs : "?";
        pb_errf(e, "suite module %s (build %.12s): suite ABI version %d differs from this bench's %d "
                   "(harness/suite/suite.h, pb.h or suite_module.h changed their types between the builds): its "
                   "suites cannot be run in this process", path, vcs, m->info->abi_version, PB_SUITE_ABI_VERSION);
        pb_suite_module_close(m);
        return -1;
    }
    /* this bench's pb_suite, of which the module's build may have fewer trailing hooks (NULL here) */
    size_t size = m->info->suite_size < sizeof(pb_suite) ? m->info->suite_size : sizeof(pb_suite);
    for (; m->info->suites[m->nsuites]; m->nsuites++) {
        if (m->nsuites == PB_SUITE_MODULE_MAX_SUITES) {
            pb_suite_module_close(m);
            return pb_errf(e, "suite module %s: more than %d suites", path, PB_SUITE_MODULE_MAX_SUITES);
        }
        memcpy(&m->suites[m->nsuites], m->info->suites[m->nsuites], size);
        if (pb_suite_prepare(&m->suites[m->nsuites], e) < 0) {
            char why[sizeof e->msg];
            snprintf(why, sizeof why, "%s", e->msg);
            pb_suite_module_close(m);
            return pb_errf(e, "suite module %s: %s", path, why);
        }
    }
    return 0;
}

const pb_suite *pb_suite_module_find(const pb_suite_module *m, const char *name)
{
    for (int i = 0; i < m->nsuites; i++)
        if (!strcmp(m->suites[i].name, name)) return &m->suites[i];
    return NULL;
}

void pb_suite_module_close(pb_suite_module *m)
{
    /* Not dlclose: what the module's suites keep in their own globals (a libgcrypt handle cached
     * by a DRBG, a loaded plug-in) would become unreachable and read as leaks, and nothing is
     * gained by unmapping a few hundred KiB before bench exits. */
    m->handle = NULL;
    m->info = NULL;
}

int pb_suite_module_own_path(char *buf, size_t cap, pb_err *e)
{
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return pb_errf(e, "cannot find this bench's own path (/proc/self/exe): %s", strerror(errno));
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    if ((size_t)snprintf(buf, cap, "%s/%s", slash ? exe : ".", PB_SUITE_MODULE_FILE) >= cap)
        return pb_errf(e, "path too long");
    char inst[1024];
    /* installed: the modules are not beside bench but in lib/.../patchbench (meson.build) */
    if (access(buf, R_OK) != 0 && pb_installed_module_dir(inst, sizeof inst, PB_SUITE_MODULE_FILE)[0] &&
        (size_t)snprintf(buf, cap, "%s/%s", inst, PB_SUITE_MODULE_FILE) >= cap)
        return pb_errf(e, "path too long");
    if (access(buf, R_OK) != 0)
        return pb_errf(e, "this bench has no suite module beside it (%s: %s); give --candidate-module PATH", buf,
                       strerror(errno));
    return 0;
}
