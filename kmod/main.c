// SPDX-License-Identifier: GPL-2.0-only
/*
 * patchbench.ko: old and new Linux XTS as crypto templates (xts_buffered,
 * xts_recompute), self-tested at load, and an in-kernel benchmark of them
 * against the kernel's own xts(aes) and its own xts template over the same
 * child; optionally the tcp_sigpool pair.
 *
 *   insmod patchbench.ko                       self-tests only
 *   insmod patchbench.ko bench=1               + XTS benchmark
 *   insmod patchbench.ko bench=1 suites=xts,sigpool
 *   echo bench > /sys/kernel/debug/patchbench/run      (again, any time)
 *   cat /sys/kernel/debug/patchbench/results
 *
 * The results format is described in results.h and docs/kmod.md.
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <crypto/algapi.h>
#ifdef CONFIG_X86
#include <asm/processor.h>
#include <asm/tsc.h>
#endif

#include "compat.h"
#include "pb_kmod.h"
#include "results.h"
#include "xts_tmpl.h"

static bool pb_param_bench;
module_param_named(bench, pb_param_bench, bool, 0444);
MODULE_PARM_DESC(bench, "Run the benchmark at load (default 0: self-tests only)");

static char *pb_param_suites = "xts";
module_param_named(suites, pb_param_suites, charp, 0444);
MODULE_PARM_DESC(suites, "Parts to run, comma-separated: xts, sigpool (default xts)");

unsigned int pb_param_rounds = 20;
module_param_named(rounds, pb_param_rounds, uint, 0644);
MODULE_PARM_DESC(rounds, "Benchmark rounds; each round has one sample per impl and cell (default 20)");

unsigned int pb_param_iters;
module_param_named(iters, pb_param_iters, uint, 0644);
MODULE_PARM_DESC(iters, "Operations per sample; 0 = sample_bytes / bytes per operation (default 0)");

unsigned int pb_param_sample_bytes = 256 * 1024;
module_param_named(sample_bytes, pb_param_sample_bytes, uint, 0644);
MODULE_PARM_DESC(sample_bytes, "Bytes processed per sample when iters=0 (default 262144)");

unsigned int pb_param_sizes[PB_MAX_SIZES] = { 64, 512, 4096, 16384, 32768 };
unsigned int pb_param_nsizes = 5;
module_param_array_named(sizes, pb_param_sizes, uint, &pb_param_nsizes, 0644);
MODULE_PARM_DESC(sizes, "XTS request sizes in bytes, multiples of 16 (default 64,512,4096,16384,32768)");

unsigned int pb_param_keys[PB_MAX_KEYS] = { 256, 384, 512 };
unsigned int pb_param_nkeys = 3;
module_param_array_named(keys, pb_param_keys, uint, &pb_param_nkeys, 0644);
MODULE_PARM_DESC(keys, "XTS key sizes in bits: 256, 384, 512 (default all three)");

bool pb_param_old_nomem;
module_param_named(old_nomem, pb_param_old_nomem, bool, 0644);
MODULE_PARM_DESC(old_nomem, "Make every xts_buffered tweak-buffer allocation fail (128-byte fallback)");

unsigned int pb_param_payload = 1448;
module_param_named(sigpool_payload, pb_param_payload, uint, 0644);
MODULE_PARM_DESC(sigpool_payload, "sigpool: TCP payload bytes per segment (default 1448)");

char *pb_param_algs = "md5,hmac(md5),hmac(sha1),hmac(sha224),hmac(sha256),hmac(sha384),hmac(sha512),hmac(sha3-512),hmac(rmd160),cmac(aes)";
module_param_named(sigpool_algs, pb_param_algs, charp, 0444);
MODULE_PARM_DESC(sigpool_algs, "sigpool: algorithms, comma-separated (md5 = TCP-MD5, others keyed as TCP-AO)");

static DEFINE_MUTEX(pb_run_lock);
static struct dentry *pb_debugfs;

unsigned int pb_iters_for(unsigned int bytes_per_op)
{
	unsigned int iters = READ_ONCE(pb_param_iters);

	if (iters)
		return iters;
	return max(1u, READ_ONCE(pb_param_sample_bytes) / max(1u, bytes_per_op));
}

void pb_pause(void)
{
	cond_resched();
}

/* Is @part one of the comma-separated names in the suites parameter? */
static bool pb_suite_selected(const char *part)
{
	const char *p = pb_param_suites;
	size_t n = strlen(part);

	while (p && *p) {
		if (!strncmp(p, part, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

#ifdef CONFIG_X86
/*
 * The CPU's identity beside its model name (bench import stores it, harness/store/identity.h):
 * vendor, family, model, stepping, microcode, threads per core, and the hypervisor's CPUID
 * 0x40000000 signature as hex (it may hold spaces and NULs), or none without the hypervisor bit.
 */
static void pb_emit_cpu_identity(void)
{
	char tok[80], hex[25];
	unsigned int eax, sig[3];
	int i;

	pb_emit("meta cpu_vendor=%s", pb_token(tok, sizeof(tok), boot_cpu_data.x86_vendor_id));
	pb_emit("meta cpu_family=%u", boot_cpu_data.x86);
	pb_emit("meta cpu_model_number=%u", boot_cpu_data.x86_model);
	pb_emit("meta cpu_stepping=%u", boot_cpu_data.x86_stepping);
	pb_emit("meta microcode=0x%x", boot_cpu_data.microcode);
	pb_emit("meta threads_per_core=%u", cpumask_weight(topology_sibling_cpumask(0)));
	if (!boot_cpu_has(X86_FEATURE_HYPERVISOR)) {
		pb_emit("meta hypervisor_cpuid=none");
		return;
	}
	cpuid(0x40000000, &eax, &sig[0], &sig[1], &sig[2]);
	for (i = 0; i < 12; i++)
		snprintf(hex + 2 * i, 3, "%02x", ((unsigned char *)sig)[i]);
	pb_emit("meta hypervisor_cpuid=%s", hex);
}
#endif

static void pb_emit_meta(bool bench)
{
	char tok[80];

	pb_emit("meta module_version=%s", PB_KMOD_VERSION);
	pb_emit("meta kernel=%s", pb_token(tok, sizeof(tok), init_utsname()->release));
	pb_emit("meta hz=%d", HZ);
#ifdef CONFIG_X86
	pb_emit("meta tsc_khz=%u", tsc_khz);
	pb_emit("meta cpu=%s", pb_token(tok, sizeof(tok), boot_cpu_data.x86_model_id));
	pb_emit_cpu_identity();
#endif
	pb_emit("meta cycles_source=get_cycles");
	pb_emit("meta online_cpus=%u", num_online_cpus());
	pb_emit("meta bench=%d", bench);
	pb_emit("meta suites=%s", pb_token(tok, sizeof(tok), pb_param_suites));
	if (bench) {
		pb_emit("meta rounds=%u", pb_param_rounds);
		pb_emit("meta iters=%u", pb_param_iters);
		pb_emit("meta sample_bytes=%u", pb_param_sample_bytes);
	}
}

/* One run: a complete results document. The caller holds pb_run_lock. */
static void pb_run(bool bench)
{
	pb_results_begin();
	pb_emit_meta(bench);
	if (pb_suite_selected("xts"))
		pb_xts_part(bench);
	if (pb_suite_selected("sigpool"))
		pb_sigpool_part(bench);
	pb_emit("end");
	pr_info("patchbench: run finished (bench=%d); results in debugfs patchbench/results\n",
		bench);
}

static ssize_t pb_results_fop_read(struct file *f, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return pb_results_read(ubuf, count, ppos);
}

static const struct file_operations pb_results_fops = {
	.owner = THIS_MODULE,
	.read = pb_results_fop_read,
	.llseek = default_llseek,
};

/* "bench" (or "1"): self-tests and benchmark; "selftest": self-tests only. */
static ssize_t pb_run_fop_write(struct file *f, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char cmd[16];
	size_t n = min(count, sizeof(cmd) - 1);
	bool bench;

	if (copy_from_user(cmd, ubuf, n))
		return -EFAULT;
	cmd[n] = '\0';
	strim(cmd);
	if (!strcmp(cmd, "bench") || !strcmp(cmd, "1"))
		bench = true;
	else if (!strcmp(cmd, "selftest"))
		bench = false;
	else
		return -EINVAL;

	if (!mutex_trylock(&pb_run_lock))
		return -EBUSY;
	pb_run(bench);
	mutex_unlock(&pb_run_lock);
	return count;
}

static const struct file_operations pb_run_fops = {
	.owner = THIS_MODULE,
	.write = pb_run_fop_write,
	.llseek = noop_llseek,
};

static struct crypto_template *pb_templates[] = {
	&xts_buffered_tmpl,
	&xts_recompute_tmpl,
};

static int __init pb_init(void)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(pb_templates); i++) {
		err = crypto_register_template(pb_templates[i]);
		if (err) {
			while (i--)
				crypto_unregister_template(pb_templates[i]);
			return err;
		}
	}

	pb_debugfs = debugfs_create_dir("patchbench", NULL);
	debugfs_create_file("results", 0444, pb_debugfs, NULL, &pb_results_fops);
	debugfs_create_file("run", 0200, pb_debugfs, NULL, &pb_run_fops);

	mutex_lock(&pb_run_lock);
	pb_run(pb_param_bench);
	mutex_unlock(&pb_run_lock);
	return 0;
}

static void __exit pb_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(pb_debugfs);
	for (i = 0; i < ARRAY_SIZE(pb_templates); i++)
		crypto_unregister_template(pb_templates[i]);
	pb_results_exit();
}

module_init(pb_init);
module_exit(pb_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("patchbench: old vs new XTS templates and tcp_sigpool, measured in-kernel");
MODULE_VERSION(PB_KMOD_VERSION);
MODULE_ALIAS_CRYPTO("xts_buffered");
MODULE_ALIAS_CRYPTO("xts_recompute");
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
MODULE_IMPORT_NS("CRYPTO_INTERNAL");
#else
MODULE_IMPORT_NS(CRYPTO_INTERNAL);
#endif
