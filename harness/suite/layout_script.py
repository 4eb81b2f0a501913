#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write lld's linker script for each code layout of the suite module (docs/layout.md).

Run by harness/meson.build at build time over the static libraries the module links:

    layout_script.py READELF LAYOUTS SEED BUILD_ROOT OUTDIR ARCHIVE...

For layout l = 4 o + j (order o, stratum j) it writes OUTDIR/layout_text_l.ld, which lists every
code section of the archives' objects, in an order of the layout's own, each behind as much padding
as puts its first byte at a chosen offset of its 64-byte line:

    offset = 16 q + 4 t + u
    q = (a(f, o) + j) mod 4     the 16-byte quarter: within an order, every quarter once
    t = tau(f)[o]               the 4-byte step within 16: a permutation over the orders
    u = (t + j + b(f)) mod 4    the byte within 4: every value once per order

so that over the 16 layouts every function starts at each of the 16 four-byte offsets of its line
once and at each byte of a 4-byte step four times, whatever its loops' alignment or code. a, tau, b
and the order are drawn from a hash of the function's section, object and archive (not its
address, not the other functions): two builds that differ by an added function place every other
function at the same offsets, and the same function lands at the same offsets in any checkout.
SEED (meson's -Dlayout_seed) is part of every draw's key but for 0: another seed is another sample
of the space of layouts, seed 0 the set every build of the lab places alike.
OUTDIR/layout_plan.tsv lists what was planned (layout, offset, section, object, archive) for the
placement test. Order 0 keeps the archives' order; a layout with o > 0 sorts the sections by the
hash. Code the archives do not hold (the module's own objects, the C runtime's) follows, on the
16-byte grid.

Nothing read here comes from outside the build: the names are the tree's own sections and object
files. A name a linker script could not carry verbatim is refused (exit 2), not escaped.
"""
import hashlib
import os
import re
import subprocess
import sys

STRATA = 4          # strata per order: a layout's j
ORDERS = 4          # orders: a layout's o (16 layouts at most)
SAFE = re.compile(r'^[A-Za-z0-9_.+\-/]+$')   # no glob, no space, no script syntax
FILE_RE = re.compile(r'^File: (\S+?)[\[(](\S+)[\])]$')
SEC_RE = re.compile(r'^\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+(\S*)')


def fail(what):
    print(f'layout_script.py: {what}', file=sys.stderr)
    sys.exit(2)


SEED = 0            # which set of layouts (main: SEED); 0 keys the draws on the names alone


def draw(*key):
    """64 bits from the key (and the seed): the same on every machine and in every checkout."""
    if SEED:
        key = ('seed', SEED) + key
    h = hashlib.sha256('\0'.join(str(k) for k in key).encode()).digest()
    return int.from_bytes(h[:8], 'little')


def code_sections(readelf, archive):
    """[(member pattern, section)] of every non-empty executable section, in archive order. lld
    names a member of a thin archive (meson's, `lib.a[dir/x.o]`) by its path and one of a regular
    archive (`lib.a(x.o)`) by its name: the pattern is `*/x.o` or `x.o`."""
    out = subprocess.run([readelf, '-S', '-W', archive], check=False, capture_output=True, text=True)
    if out.returncode != 0:
        fail(f'{archive}: readelf: {out.stderr.strip()}')
    found, member = [], None
    for line in out.stdout.splitlines():
        m = FILE_RE.match(line)
        if m:
            member = os.path.basename(m.group(2))
            if not SAFE.match(member):
                fail(f'{archive}: {member!r}: a name a linker script cannot carry verbatim')
            member = ('*/' if line.endswith(']') else '') + member
            continue
        m = SEC_RE.match(line)
        if not m or member is None:
            continue
        name, kind, size, flags = m.groups()
        if kind != 'PROGBITS' or 'X' not in flags or int(size, 16) == 0 or not name.startswith('.text'):
            continue
        for what in (name, archive):
            if not SAFE.match(what):
                fail(f'{archive}: {what!r}: a name a linker script cannot carry verbatim')
        found.append((member, name))
    return found


def main(argv):
    global SEED
    if len(argv) < 6:
        fail('usage: layout_script.py READELF LAYOUTS SEED BUILD_ROOT OUTDIR ARCHIVE...')
    readelf, layouts, seed, build_root, outdir = argv[:5]
    # the link names each archive by its path from the build's root: so must the scripts
    archives = [os.path.relpath(a, build_root) for a in argv[5:]]
    if not layouts.isdigit() or not 1 <= int(layouts) <= STRATA * ORDERS:
        fail(f'LAYOUTS {layouts!r}: 1 to {STRATA * ORDERS}')
    if not seed.isdigit() or len(seed) > 7:
        fail(f'SEED {seed!r}: 0 to 1000000')
    SEED = int(seed)
    layouts = int(layouts)
    first, funcs = [], []   # the retpoline thunks (aligned to 32, as the kernel aligns them) first
    for archive in archives:
        for member, name in code_sections(readelf, os.path.join(build_root, archive)):
            if 'retpoline' in member:
                first.append((archive, member, name))
                continue
            key = (archive, member, name)
            # drawn once per function: its step per order (tau) and its byte base (b)
            tau = sorted(range(ORDERS), key=lambda k: draw('tau', k, *key))
            funcs.append((archive, member, name, key, tau, draw('byte', *key)))
    if not funcs:
        fail('no code sections in the archives')

    plan = []
    for l in range(layouts):
        o, j = l // STRATA, l % STRATA
        order = funcs if o == 0 else sorted(funcs, key=lambda f: draw('order', o, *f[3]))
        lines = [f'/* layout {l} (order {o}, stratum {j}, seed {SEED}): written by harness/suite/layout_script.py */',
                 'SECTIONS', '{', '  .text : SUBALIGN(1)', '  {', '    . = ALIGN(64);']
        for archive, member, name in first:
            lines += ['    . = ALIGN(32);', f'    {archive}:{member}({name})']
        for archive, member, name, key, tau, b in order:
            t = tau[o]
            q = (draw('quarter', o, *key) + j) % 4
            u = (t + j + b) % 4
            offset = 16 * q + 4 * t + u
            lines += [f'    . = . + (({offset} - .) & 63);', f'    {archive}:{member}({name})']
            plan.append(f'{l}\t{offset}\t{name}\t{member}\t{archive}')
        lines += ['    . = ALIGN(16);', '    *(.text .text.*)', '  }', '}', 'INSERT BEFORE .init;', '']
        with open(os.path.join(outdir, f'layout_text_{l}.ld'), 'w') as f:
            f.write('\n'.join(lines))
    with open(os.path.join(outdir, 'layout_plan.tsv'), 'w') as f:
        f.write('layout\toffset\tsection\tobject\tarchive\n' + '\n'.join(plan) + '\n')


if __name__ == '__main__':
    main(sys.argv[1:])
