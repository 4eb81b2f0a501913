/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPU identity (identity.h) read from fake machines: a /proc/cpuinfo and a sysfs tree written
 * here, so that every field is checked whatever the machine running the test is; then the words
 * and the grouping key, and the hypervisor names. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "identity.h"
#include "../lib/check.h"

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void want_s(const char *got, const char *exp, const char *what)
{
    CHECK(!strcmp(got, exp), "%s: got '%s', want '%s'", what, got, exp);
}

/* The fake machine at root read: its grouping key and its words as wanted. */
static void check_machine(const char *root, const char *key, const char *words, const char *what)
{
    pb_cpu_identity id;
    char out[700], label[300];
    pb_cpu_identity_read(&id, root);
    pb_cpu_identity_key(&id, out, sizeof out);
    snprintf(label, sizeof label, "%s: key", what);
    want_s(out, key, label);
    pb_cpu_identity_describe(&id, out, sizeof out);
    snprintf(label, sizeof label, "%s: words", what);
    want_s(out, words, label);
}

/* ROOT/path with text, its folders made */
static void put(const char *root, const char *path, const char *text)
{
    char full[1024];
    snprintf(full, sizeof full, "%s/%s", root, path);
    for (char *p = full + strlen(root) + 1; *p; p++)
        if (*p == '/') { *p = 0; mkdir(full, 0755); *p = '/'; }
    FILE *f = fopen(full, "w");
    if (!f) { perror(full); exit(2); }
    fputs(text, f);
    fclose(f);
}

static void cache(const char *root, int index, const char *level, const char *type, const char *size)
{
    char p[160];
    static const char *const names[] = {"level", "type", "size"};
    const char *v[] = {level, type, size};
    for (int i = 0; i < 3; i++) {
        char line[64];
        snprintf(p, sizeof p, "sys/devices/system/cpu/cpu0/cache/index%d/%s", index, names[i]);
        snprintf(line, sizeof line, "%s\n", v[i]);
        put(root, p, line);
    }
}

/* an AMD guest: two processors (the first is read), no SMT, a hypervisor flag */
static void amd_guest(const char *root)
{
    put(root, "proc/cpuinfo",
        "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n"
        "stepping\t: 1\nmicrocode\t: 0x1000065\nflags\t\t: fpu aes hypervisor avx2\n\n"
        "processor\t: 1\nvendor_id\t: Other\ncpu family\t: 99\nmodel\t\t: 99\nstepping\t: 9\n\n");
    cache(root, 0, "1", "Data", "32K");
    cache(root, 1, "1", "Instruction", "32K");
    cache(root, 2, "2", "Unified", "512K");
    cache(root, 3, "3", "Unified", "32768K");
    put(root, "sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0\n");
}

/* an Intel host with SMT (siblings 0 and 4), no microcode line, an unknown stepping, a Xen sysfs */
static void intel_host(const char *root)
{
    put(root, "proc/cpuinfo",
        "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\nmodel name\t: Intel Xeon\n"
        "stepping\t: unknown\nflags\t\t: fpu aes avx2\n");
    cache(root, 0, "1", "Data", "48K");
    cache(root, 2, "2", "Unified", "2M");
    put(root, "sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,4\n");
    put(root, "sys/hypervisor/type", "xen\n");
}

int main(void)
{
    char tmpl[] = "/tmp/pb-identity-XXXXXX", a[64], b[64], out[700];
    if (!mkdtemp(tmpl)) { perror("mkdtemp"); return 2; }
    snprintf(a, sizeof a, "%s/amd", tmpl);
    snprintf(b, sizeof b, "%s/intel", tmpl);
    mkdir(a, 0755);
    mkdir(b, 0755);
    amd_guest(a);
    intel_host(b);

    /* the words name every field, so they check every field read */
    check_machine(a, "AuthenticAMD family 25 model 1 stepping 1",
                  "AuthenticAMD family 25 model 1 stepping 1, microcode 0x1000065; L1d 32 KiB, L1i 32 KiB, L2 512 KiB, "
                  "L3 32 MiB; 1 thread per core; hypervisor present (hypervisor flag in /proc/cpuinfo)",
                  "an AMD guest (the first processor's block; 'model', not 'model name'; no CPUID on a fake root)");
    check_machine(b, "GenuineIntel family 6 model 85 stepping ?",
                  "GenuineIntel family 6 model 85 stepping ?, microcode unknown; L1d 48 KiB, L1i unknown, L2 2 MiB, "
                  "L3 unknown; 2 threads per core; hypervisor xen (/sys/hypervisor/type)",
                  "an Intel host (stepping 'unknown', no microcode, sizes in M, SMT 0,4, Xen in sysfs)");
    pb_cpu_identity id;
    /* nothing readable: every part unknown, "not recorded", no key */
    snprintf(out, sizeof out, "%s/none", tmpl);
    pb_cpu_identity_read(&id, out);
    want_s(id.hypervisor, "none (no hypervisor flag in /proc/cpuinfo)", "no cpuinfo: no flag");
    pb_cpu_identity_unknown(&id);
    pb_cpu_identity_key(&id, out, sizeof out);
    want_s(out, "", "unknown key");
    pb_cpu_identity_describe(&id, out, sizeof out);
    want_s(out, "not recorded", "unknown words");

    pb_hypervisor_name("KVMKVMKVM", out, sizeof out);
    want_s(out, "KVM (CPUID 0x40000000: KVMKVMKVM)", "kvm");
    pb_hypervisor_name("Microsoft Hv", out, sizeof out);
    want_s(out, "Hyper-V (CPUID 0x40000000: Microsoft Hv)", "hyper-v");
    pb_hypervisor_name("odd\x01sig", out, sizeof out);
    want_s(out, "unknown (CPUID 0x40000000: 'odd?sig')", "unknown signature, unprintable shown as ?");

    if (nftw(tmpl, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0) printf("warning: %s left behind\n", tmpl);
    return check_summary();
}
