/* SPDX-License-Identifier: GPL-2.0-only */
/* provenance.h — what a number needs to be traced: which code, built how, on what machine. */
#ifndef PB_PROVENANCE_H
#define PB_PROVENANCE_H

#include "identity.h"
#include "suite.h"

typedef struct pb_provenance {
    char git_sha[64];      /* of the source tree bench was built from ("unknown" outside git) */
    int git_dirty;         /* uncommitted changes at build time */
    char version[32];
    char compiler[96];
    char cflags[2048];     /* per build profile: which code, which flags (docs/build-profiles.md) */
    char buildtype[32];
    char libs[8448];       /* the suite's libraries (libgcrypt / OpenSSL, every build loaded by path) and sqlite's version */
    char cpu_model[128];
    char cpu_flags[256];   /* the flags that matter here: aes, pclmulqdq, avx2, vaes, sha_ni, ... */
    int online_cpus;
    char kernel[160];      /* uname -r and -v */
    char hostname[96];
    char clock_source[64]; /* /sys/.../clocksource0/current_clocksource */
    char governor[64];     /* cpufreq governor of cpu0, or "unreadable (...)" */
    char boost[64];        /* cpufreq boost / intel_pstate no_turbo, or "unreadable" */
    char virt[64];         /* DMI product name (/sys/class/dmi/id/product_name), to tell VMs apart */
    char machine_id[64];   /* /etc/machine-id: comparisons across machines are refused */
    pb_cpu_identity cpu;   /* vendor, family, model, stepping, microcode, caches, SMT, hypervisor */
} pb_provenance;

/* s: the suite measured, whose library_versions go into libs (NULL: none, e.g. an import
 * of kernel-module results, which no userspace library computed). */
void pb_provenance_collect(pb_provenance *p, const pb_suite *s);

#endif
