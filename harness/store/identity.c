/* SPDX-License-Identifier: GPL-2.0-only */
/* identity.c — see identity.h */
#include "identity.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

void pb_cpu_identity_unknown(pb_cpu_identity *id)
{
    memset(id, 0, sizeof *id);
    id->family = id->model = id->stepping = id->threads_per_core = -1;
    for (int i = 0; i < PB_NCACHES; i++) id->cache[i] = -1;
}

/* The first line of ROOT/path, without its newline; 0, or -1 when it cannot be read. */
static int first_line(const char *root, const char *path, char *out, size_t cap)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s", root, path);
    FILE *f = fopen(full, "r");
    if (!f) return -1;
    int ok = fgets(out, (int)cap, f) != NULL;
    fclose(f);
    if (!ok) return -1;
    out[strcspn(out, "\n")] = 0;
    return 0;
}

/* A whole number of at most 9 digits, else -1 (so that "unknown" or "" stays unknown). */
static int small_number(const char *s)
{
    size_t n = strspn(s, "0123456789");
    return n && n <= 9 && !s[n] ? atoi(s) : -1;
}

/* The value of line "KEY<tabs/spaces>: VALUE" when its key is key (whole), else NULL. */
static char *cpuinfo_value(char *line, const char *key)
{
    char *colon = strchr(line, ':');
    if (!colon) return NULL;
    size_t n = (size_t)(colon - line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t')) n--;
    if (n != strlen(key) || strncmp(line, key, n)) return NULL;
    char *v = colon + 1;
    v += strspn(v, " \t");
    v[strcspn(v, "\n")] = 0;
    return v;
}

/* printable, no space: what a vendor or microcode field holds, else unknown ("") */
static void copy_token(char *out, size_t cap, const char *v)
{
    out[0] = 0;
    for (const char *c = v; *c; c++)
        if (!isgraph((unsigned char)*c)) return;
    if (strlen(v) < cap) snprintf(out, cap, "%s", v);
}

/* The first processor's block of ROOT/proc/cpuinfo; *flag: its flags list the hypervisor bit. */
static void read_cpuinfo(pb_cpu_identity *id, const char *root, int *flag)
{
    char path[1024], line[8192];
    snprintf(path, sizeof path, "%s/proc/cpuinfo", root);
    FILE *f = fopen(path, "r");
    *flag = 0;
    if (!f) return;
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n') {
            if (seen) break;   /* the end of the first processor's block */
            continue;
        }
        seen = 1;
        char *v;
        if ((v = cpuinfo_value(line, "vendor_id"))) copy_token(id->vendor, sizeof id->vendor, v);
        else if ((v = cpuinfo_value(line, "cpu family"))) id->family = small_number(v);
        else if ((v = cpuinfo_value(line, "model"))) id->model = small_number(v);
        else if ((v = cpuinfo_value(line, "stepping"))) id->stepping = small_number(v);
        else if ((v = cpuinfo_value(line, "microcode"))) copy_token(id->microcode, sizeof id->microcode, v);
        else if ((v = cpuinfo_value(line, "flags"))) {
            char padded[8200];
            snprintf(padded, sizeof padded, " %s ", v);
            *flag = strstr(padded, " hypervisor ") != NULL;
        }
    }
    fclose(f);
}

/* "32K", "512K", "1M" (sysfs cache size) in bytes, -1 if not one */
static int64_t cache_bytes(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < 0) return -1;
    int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : *end == 0 ? 0 : -1;
    if (shift < 0 || (*end && end[1]) || v > (1ll << 40)) return -1;
    return (int64_t)v << shift;
}

/* cpu0's caches: every index* folder's level, type and size */
static void read_caches(pb_cpu_identity *id, const char *root)
{
    for (int i = 0; i < 16; i++) {
        char dir[128], path[192], level[32], type[32], size[32];
        snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
        snprintf(path, sizeof path, "%s/level", dir);
        if (first_line(root, path, level, sizeof level) < 0) continue;
        snprintf(path, sizeof path, "%s/type", dir);
        if (first_line(root, path, type, sizeof type) < 0) continue;
        snprintf(path, sizeof path, "%s/size", dir);
        if (first_line(root, path, size, sizeof size) < 0) continue;
        int lv = small_number(level), which = -1;
        if (lv == 1 && !strcmp(type, "Data")) which = PB_CACHE_L1D;
        else if (lv == 1 && !strcmp(type, "Instruction")) which = PB_CACHE_L1I;
        else if (lv == 2 && strcmp(type, "Instruction")) which = PB_CACHE_L2;
        else if (lv == 3 && strcmp(type, "Instruction")) which = PB_CACHE_L3;
        if (which >= 0) id->cache[which] = cache_bytes(size);
    }
}

/* How many CPUs a sysfs CPU list names ("0", "0-1", "0,4", "0-1,8-9"); -1 if it is not one. */
static int list_count(const char *s)
{
    int n = 0;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s) return -1;
        if (*end == '-') {
            const char *p = end + 1;
            b = strtol(p, &end, 10);
            if (end == p || b < a) return -1;
        }
        n += (int)(b - a + 1);
        if (*end == ',') end++;
        else if (*end) return -1;
        s = end;
    }
    return n ? n : -1;
}

static void read_smt(pb_cpu_identity *id, const char *root)
{
    char list[256];
    if (first_line(root, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", list, sizeof list) == 0)
        id->threads_per_core = list_count(list);
}

void pb_hypervisor_name(const char *signature, char *out, size_t cap)
{
    static const struct { const char *sig, *name; } known[] = {
        {"KVMKVMKVM", "KVM"}, {"Microsoft Hv", "Hyper-V"}, {"VMwareVMware", "VMware"}, {"XenVMMXenVMM", "Xen"},
        {"TCGTCGTCGTCG", "QEMU TCG"}, {"ACRNACRNACRN", "ACRN"}, {"bhyve bhyve ", "bhyve"},
        {"VBoxVBoxVBox", "VirtualBox"}, {" lrpepyh  vr", "Parallels"}, {"QNXQVMBSQG", "QNX"},
        {"Jailhouse", "Jailhouse"}, {"EVMMEVMMEVMM", "Intel EVMM"},
    };
    char shown[13];
    size_t k = 0;
    for (const char *c = signature; *c && k < 12; c++) shown[k++] = isprint((unsigned char)*c) ? *c : '?';
    shown[k] = 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(shown, known[i].sig)) {
            snprintf(out, cap, "%s (CPUID 0x40000000: %s)", known[i].name, shown);
            return;
        }
    snprintf(out, cap, "unknown (CPUID 0x40000000: '%s')", shown);
}

/* The hypervisor's own signature, asked of CPUID (only where the hypervisor bit says one answers). */
static void cpuid_hypervisor(char *out, size_t cap)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, regs[3];
    __cpuid(0x40000000, a, regs[0], regs[1], regs[2]);
    (void)a;
    char sig[13];
    memcpy(sig, regs, 12);
    sig[12] = 0;
    pb_hypervisor_name(sig, out, cap);
#else
    snprintf(out, cap, "present (hypervisor flag; its name is asked of CPUID on x86 only)");
#endif
}

static void read_hypervisor(pb_cpu_identity *id, const char *root, int flag)
{
    char type[64];
    if (first_line(root, "/sys/hypervisor/type", type, sizeof type) == 0 && type[0])
        snprintf(id->hypervisor, sizeof id->hypervisor, "%.40s (/sys/hypervisor/type)", type);
    else if (flag && !*root)
        cpuid_hypervisor(id->hypervisor, sizeof id->hypervisor);
    else if (flag)
        snprintf(id->hypervisor, sizeof id->hypervisor, "present (hypervisor flag in /proc/cpuinfo)");
    else
        snprintf(id->hypervisor, sizeof id->hypervisor, "none (no hypervisor flag in /proc/cpuinfo)");
}

void pb_cpu_identity_read(pb_cpu_identity *id, const char *root)
{
    pb_cpu_identity_unknown(id);
    int flag;
    read_cpuinfo(id, root, &flag);
    read_caches(id, root);
    read_smt(id, root);
    read_hypervisor(id, root, flag);
}

static void number_or_unknown(char *out, size_t cap, int v)
{
    if (v >= 0) snprintf(out, cap, "%d", v);
    else snprintf(out, cap, "?");
}

void pb_cpu_identity_key(const pb_cpu_identity *id, char *out, size_t cap)
{
    if (!id->vendor[0] && id->family < 0 && id->model < 0) {
        out[0] = 0;
        return;
    }
    char f[16], m[16], s[16];
    number_or_unknown(f, sizeof f, id->family);
    number_or_unknown(m, sizeof m, id->model);
    number_or_unknown(s, sizeof s, id->stepping);
    snprintf(out, cap, "%s family %s model %s stepping %s", id->vendor[0] ? id->vendor : "?", f, m, s);
}

static int all_unknown(const pb_cpu_identity *id)
{
    pb_cpu_identity u;
    pb_cpu_identity_unknown(&u);
    return !memcmp(id, &u, sizeof u);
}

void pb_cpu_identity_describe(const pb_cpu_identity *id, char *out, size_t cap)
{
    if (all_unknown(id)) {
        snprintf(out, cap, "not recorded");
        return;
    }
    char key[160], c[PB_NCACHES][32], smt[48];
    pb_cpu_identity_key(id, key, sizeof key);
    for (int i = 0; i < PB_NCACHES; i++) {
        if (id->cache[i] >= 0) pb_fmt_bytes(c[i], sizeof c[i], id->cache[i]);
        else snprintf(c[i], sizeof c[i], "unknown");
    }
    if (id->threads_per_core > 0)
        snprintf(smt, sizeof smt, "%d thread%s per core", id->threads_per_core, id->threads_per_core == 1 ? "" : "s");
    else
        snprintf(smt, sizeof smt, "threads per core unknown");
    snprintf(out, cap, "%s, microcode %s; L1d %s, L1i %s, L2 %s, L3 %s; %s; hypervisor %s",
             key[0] ? key : "family/model/stepping not recorded", id->microcode[0] ? id->microcode : "unknown",
             c[PB_CACHE_L1D], c[PB_CACHE_L1I], c[PB_CACHE_L2], c[PB_CACHE_L3], smt,
             id->hypervisor[0] ? id->hypervisor : "unknown");
}
