#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Per-call cost of the XTS templates' child, from a kernel module results file.

Usage: child_call_cost.py RESULTS [--tsv SOURCE-TEXT]

RESULTS holds the module's pbk1 lines (docs/kmod.md). Two estimates per XTS
key size, each from the medians over rounds of ns per operation:

  direct   the child alone (impl kmod-child-ecb, the ecb(aes) driver the
           templates use) on 16-byte and 4096-byte requests:
             b = (t(4096) - t(16)) / (4096 - 16)     per-byte cost, ns/B
             c = t(16) - 16 b                         per-call cost, ns
             K = c / b                                bytes-equivalent
  nomem    kmod-old-nomem against kmod-old at 4096 bytes, both directions:
           32 child calls against 1, so c' = (t_nomem - t_old) / 31 and
           K' = c' / b (b from the direct estimate). It includes whatever
           else the fallback's extra chunks cost (loop, re-walk), so it is an
           upper bound of c in that sense.

Prints one table; with --tsv, prints instead the line for
data/xts_child_call.tsv from the 256-bit (2 x AES-128) direct estimate:
K, the source text given, b, c. Exit 2 on a file without the samples.
"""
import statistics
import sys
from collections import defaultdict


def load(path):
    per_op = defaultdict(list)  # (impl, variant, op, size) -> [ns per op]
    meta = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            i = line.find("pbk1 ")
            if i < 0:
                continue
            words = line[i + 5:].split()
            if not words:
                continue
            kind, fields = words[0], dict(w.split("=", 1) for w in words[1:] if "=" in w)
            if kind == "meta":
                meta.update(fields)
            elif kind == "sample" and fields.get("suite") == "xts":
                key = (fields["impl"], fields["variant"], fields["op"], int(fields["size"]))
                per_op[key].append(int(fields["ns"]) / int(fields["iters"]))
    return {k: statistics.median(v) for k, v in per_op.items()}, meta


def estimates(med):
    out = []
    for variant in sorted({k[1] for k in med if k[0] == "kmod-child-ecb"}, key=int):
        t16 = med.get(("kmod-child-ecb", variant, "enc", 16))
        t4k = med.get(("kmod-child-ecb", variant, "enc", 4096))
        if t16 is None or t4k is None:
            continue
        b = (t4k - t16) / (4096 - 16)
        c = t16 - 16 * b
        row = {"variant": variant, "t16": t16, "t4096": t4k, "b": b, "c": c, "K": c / b}
        for op in ("enc", "dec"):
            old = med.get(("kmod-old", variant, op, 4096))
            nomem = med.get(("kmod-old-nomem", variant, op, 4096))
            if old is not None and nomem is not None:
                row["c_nomem_" + op] = (nomem - old) / 31
                row["K_nomem_" + op] = row["c_nomem_" + op] / b
        out.append(row)
    return out


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--tsv"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    med, meta = load(argv[1])
    rows = estimates(med)
    if not rows:
        print(f"{argv[1]}: no kmod-child-ecb samples at 16 and 4096 bytes "
              "(module older than the child benchmark, or xts not run)", file=sys.stderr)
        return 2
    if len(argv) == 4:
        r = next((r for r in rows if r["variant"] == "256"), None)
        if r is None:
            print(f"{argv[1]}: no 256-bit child samples", file=sys.stderr)
            return 2
        print(f"{r['K']:.1f}\t{argv[3]}; b={r['b']:.4g} ns/B c={r['c']:.4g} ns")
        return 0
    print(f"# {argv[1]}: target={meta.get('target', '?')} kernel={meta.get('kernel', '?')} "
          f"child_driver={meta.get('child_driver', '?')} rounds={meta.get('rounds', '?')}")
    print("variant\tt16_ns\tt4096_ns\tb_ns_per_B\tc_ns\tK_bytes\tK_nomem_enc\tK_nomem_dec")
    for r in rows:
        ke = r.get("K_nomem_enc", float("nan"))
        kd = r.get("K_nomem_dec", float("nan"))
        print(f"{r['variant']}\t{r['t16']:.1f}\t{r['t4096']:.1f}\t{r['b']:.4g}\t{r['c']:.1f}\t"
              f"{r['K']:.1f}\t{ke:.1f}\t{kd:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
