/* SPDX-License-Identifier: GPL-2.0-only */
#include "provenance.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "pb_config.h"
#include "pb_suite_list.h"
#include "pb_vcs.h"

static void read_line(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        const char *base = strrchr(path, '/');
        snprintf(out, len, "unreadable (no %s)", base ? base + 1 : path);
        return;
    }
    if (!fgets(out, (int)len, f)) snprintf(out, len, "empty (%s)", path);
    fclose(f);
    out[strcspn(out, "\n")] = 0;
}

static void cpuinfo(pb_provenance *p)
{
    snprintf(p->cpu_model, sizeof p->cpu_model, "unknown");
    p->cpu_flags[0] = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[8192];
    int got_model = 0, got_flags = 0;
    while (fgets(line, sizeof line, f) && !(got_model && got_flags)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *val = colon + 1 + (colon[1] == ' ');
        val[strcspn(val, "\n")] = 0;
        if (!got_model && !strncmp(line, "model name", 10)) {
            snprintf(p->cpu_model, sizeof p->cpu_model, "%s", val);
            got_model = 1;
        } else if (!got_flags && !strncmp(line, "flags", 5)) {
            static const char *const want[] = {"aes", "pclmulqdq", "avx", "avx2", "avx512f", "vaes", "vpclmulqdq",
                                         "sha_ni", "constant_tsc", "nonstop_tsc", "hypervisor", NULL};
            size_t off = 0;
            for (int i = 0; want[i]; i++) {
                char pat[32];
                snprintf(pat, sizeof pat, " %s ", want[i]);
                char padded[8200];
                snprintf(padded, sizeof padded, " %s ", val);
                if (strstr(padded, pat))
                    off += (size_t)snprintf(p->cpu_flags + off, sizeof p->cpu_flags - off, "%s%s", off ? " " : "",
                                            want[i]);
            }
            got_flags = 1;
        }
    }
    fclose(f);
}

void pb_provenance_collect(pb_provenance *p, const pb_suite *s)
{
    memset(p, 0, sizeof *p);
    snprintf(p->git_sha, sizeof p->git_sha, "%s", PB_VCS_SHA);
    p->git_dirty = strstr(PB_VCS_SHA, "dirty") != NULL;
    snprintf(p->version, sizeof p->version, "%s", PB_VERSION);
    snprintf(p->compiler, sizeof p->compiler, "%s", PB_COMPILER);
    snprintf(p->cflags, sizeof p->cflags, "%s", PB_CFLAGS);
    snprintf(p->buildtype, sizeof p->buildtype, "%s", PB_BUILDTYPE);
    /* the suite's libraries from the suite: the core links no crypto library */
    const char *suite_libs = pb_suite_library_versions(s);
    snprintf(p->libs, sizeof p->libs, "%s%ssqlite %s", suite_libs ? suite_libs : "", suite_libs ? "; " : "",
             sqlite3_libversion());
    cpuinfo(p);
    pb_cpu_identity_read(&p->cpu, "");
    p->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(p->kernel, sizeof p->kernel, "%s %s", u.release, u.version);
        snprintf(p->hostname, sizeof p->hostname, "%s", u.nodename);
    }
    read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", p->clock_source,
              sizeof p->clock_source);
    read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", p->governor, sizeof p->governor);
    char b[64];
    read_line("/sys/devices/system/cpu/cpufreq/boost", b, sizeof b);
    if (!strncmp(b, "unreadable", 10)) {
        char nt[64];
        read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", nt, sizeof nt);
        if (strncmp(nt, "unreadable", 10)) snprintf(b, sizeof b, "intel_pstate no_turbo=%s", nt);
        else snprintf(b, sizeof b, "unreadable (no cpufreq boost or intel_pstate in this VM)");
    }
    snprintf(p->boost, sizeof p->boost, "%s", b);
    read_line("/sys/class/dmi/id/product_name", p->virt, sizeof p->virt);
    read_line("/etc/machine-id", p->machine_id, sizeof p->machine_id);
    /* for tests only (docs/fleet.md): stores of several "machines" made on one */
    const char *fake = getenv("PB_MACHINE_ID");
    if (fake && *fake) snprintf(p->machine_id, sizeof p->machine_id, "%s", fake);
}
