/* SPDX-License-Identifier: GPL-2.0-only */
/* identity.h — which CPU a run ran on, beyond its model name: "AMD EPYC" names several
 * generations, so a run records the vendor, family, model and stepping (what tells them apart),
 * the microcode, the cache sizes, SMT and the hypervisor (runs columns of schema 5,
 * docs/schema.md). Read from /proc/cpuinfo, sysfs (/sys/devices/system/cpu/cpu0/cache,
 * .../topology, /sys/hypervisor) and, for the hypervisor's name, CPUID leaf 0x40000000.
 * `bench report --machines` groups machines by vendor/family/model/stepping (pb_cpu_identity_key). */
#ifndef PB_IDENTITY_H
#define PB_IDENTITY_H

#include <stddef.h>
#include <stdint.h>

enum { PB_CACHE_L1D, PB_CACHE_L1I, PB_CACHE_L2, PB_CACHE_L3, PB_NCACHES };

typedef struct pb_cpu_identity {
    char vendor[32];               /* vendor_id: "AuthenticAMD", "GenuineIntel"; "" unknown */
    int family, model, stepping;   /* cpu family, model, stepping as /proc/cpuinfo gives them; -1 unknown */
    char microcode[32];            /* "0x1000065"; "" unknown (many VMs show none) */
    int64_t cache[PB_NCACHES];     /* bytes of one L1d, L1i, L2, L3 cache of cpu0 (sysfs); -1 unknown */
    int threads_per_core;          /* SMT: the CPUs that share cpu0's core (its thread siblings); -1 unknown */
    char hypervisor[128];          /* "KVM (CPUID 0x40000000: KVMKVMKVM)", "none (...)"; "" unknown */
} pb_cpu_identity;

/* Everything unknown (a run from before schema 5, an import whose file says nothing). */
void pb_cpu_identity_unknown(pb_cpu_identity *id);

/* This machine's identity. root "" reads the machine's own /proc and /sys (and asks CPUID for the
 * hypervisor's name); another root reads ROOT/proc/cpuinfo, ROOT/sys/... instead (the tests' fake
 * machines), without CPUID. Whatever cannot be read stays unknown. */
void pb_cpu_identity_read(pb_cpu_identity *id, const char *root);

/* The name of a hypervisor from its CPUID 0x40000000 signature (12 characters, "KVMKVMKVM\0\0\0"
 * as "KVMKVMKVM"), as "KVM (CPUID 0x40000000: KVMKVMKVM)" into out; an unknown one as
 * "unknown (CPUID 0x40000000: SIG)". */
void pb_hypervisor_name(const char *signature, char *out, size_t cap);

/* What tells CPU generations apart, for grouping: "AuthenticAMD family 25 model 1 stepping 1" (an
 * unknown part as "?"), or "" when neither vendor, family nor model is known. */
void pb_cpu_identity_key(const pb_cpu_identity *id, char *out, size_t cap);

/* The whole identity in one line for a report's header: the key, "microcode 0x...", "L1d 32 KiB,
 * L1i 32 KiB, L2 512 KiB, L3 32 MiB", "1 thread per core", "hypervisor ...", "unknown" for what is
 * unknown; "not recorded" when all of it is (a run from before schema 5). */
void pb_cpu_identity_describe(const pb_cpu_identity *id, char *out, size_t cap);

#endif
