#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A second copy of a suite's impls under other names, with no hand-kept list of names
(docs/build-profiles.md, "Native copies"):
    native_copy.py NM OBJCOPY AR SUFFIX IN.a OUT.a
Every global symbol IN.a defines becomes NAME + SUFFIX (old_alg -> old_alg_native) in every
object, definitions and references alike, and so does the section of a function compiled into a
section of its own (.text.NAME, .text.unlikely.NAME ...: the code layouts place and the placement
test names functions by their sections). The objects go into OUT.a, a regular archive. A symbol the
copy only references (the kernel-API glue, libc) keeps its name: one copy of it serves both.
Nothing read here comes from outside the build."""
import os
import re
import subprocess
import sys
import tempfile


def run(*cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"native_copy.py: {' '.join(cmd)}: {r.stderr.strip()}")
    return r.stdout


def members(ar, archive):
    """the objects of archive: the paths a thin archive lists, or the names of a regular one's"""
    names = run(ar, 't', archive).split()
    thin = open(archive, 'rb').read(8) == b'!<thin>\n'
    if thin:   # `ar t` names them from the current folder; older ar from the archive's
        here = os.path.dirname(os.path.abspath(archive))
        return [n if os.path.exists(n) else os.path.join(here, n) for n in names], None
    return names, archive


def main(argv):
    if len(argv) != 7:
        sys.exit(__doc__)
    nm, objcopy, ar, suffix, src, out = argv[1:]
    if not re.fullmatch(r'_[A-Za-z0-9_]+', suffix):
        sys.exit(f'native_copy.py: suffix {suffix!r}: want _ and letters, digits, _')
    defined = set()
    for line in run(nm, '-g', '--defined-only', src).splitlines():
        f = line.split()
        if len(f) == 3:
            defined.add(f[2])
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(out))) as tmp:
        objs, regular = members(ar, src)
        if regular:   # a regular archive: its members out first
            run(ar, 'x', '--output', tmp, regular)
            objs = [os.path.join(tmp, o) for o in objs]
        syms = os.path.join(tmp, 'symbols')
        with open(syms, 'w') as f:
            for s in sorted(defined):
                f.write(f'{s} {s}{suffix}\n')
        copies = []
        for i, obj in enumerate(objs):
            args = [objcopy, f'--redefine-syms={syms}']
            for sec in re.findall(r'^\s*\[\s*\d+\]\s+(\S+)', run('readelf', '-S', '-W', obj), re.M):
                m = re.fullmatch(r'(\.text\.(?:(?:unlikely|startup|exit|hot)\.)?)(.+)', sec)
                if m and m.group(2) in defined:
                    args.append(f'--rename-section={sec}={m.group(1)}{m.group(2)}{suffix}')
            copy = os.path.join(tmp, f'{i:03d}_{os.path.basename(obj)}')
            run(*args, obj, copy)
            copies.append(copy)
        part = out + '.part'
        if os.path.exists(part):
            os.unlink(part)
        run(ar, 'rcsD', part, *copies)
        os.replace(part, out)


if __name__ == '__main__':
    main(sys.argv)
