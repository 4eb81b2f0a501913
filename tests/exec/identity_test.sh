#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# identity_test.sh BENCH CC: whose code an exec run timed (issue 23, item 3). Each side's program is
# stored with its sha256 and build-id (equal to sha256sum's and readelf -n's), the compiler and
# switches it records, and the revision of the repository it is in (or --revision) and --label;
# two builds with different flags draw a build-parity warning naming them, stored with the run; a
# hostile ELF (section table past the end, or counts that do not fit) is timed as any program and
# recorded as unreadable, never a crash; `bench history --suite exec` over three revisions of the
# user's repository, run in another order, reads in git's. Asserts no time.
. "$(dirname "$0")/../lib.sh"
bench=$1 cc=$2
quick=(--rounds 2 --warmup 1 --counters '' --quiet)
printf '#include <stdio.h>\nint main(void) { volatile unsigned x = 0; for (int i = 0; i < 1000; i++) x += i; return (int)(x & 0); }\n' >"$T/prog.c"
"$cc" -O2 -g "$T/prog.c" -o "$T/o2" && "$cc" -O0 -g "$T/prog.c" -o "$T/o0" && "$cc" -O2 -g "$T/prog.c" -o "$T/o2b" ||
    bad "cannot build the test programs"

# sha256, build-id and size of impl in db are path's
identity() { # identity DB IMPL PATH
    is "$2: sha256" "$(q "$1" "SELECT sha256 FROM objects WHERE impl = '$2'")" "$(sha256sum "$3" | cut -d' ' -f1)"
    is "$2: build-id" "$(q "$1" "SELECT build_id FROM objects WHERE impl = '$2'")" "$(readelf -n "$3" | sed -n 's/^ *Build ID: *//p')"
    is "$2: size" "$(q "$1" "SELECT size_bytes FROM objects WHERE impl = '$2'")" "$(stat -c %s "$3")"
    is "$2: real path" "$(q "$1" "SELECT real_path FROM objects WHERE impl = '$2'")" "$(realpath "$3")"
}

# -O2 against -O0: named, stored; the switches each records
db=$T/flags.db
"$bench" run --suite exec --old "$T/o2" --new "$T/o0" "${quick[@]}" --db "$db" >"$T/flags.out" 2>&1 || bad "-O2/-O0 run: $(cat "$T/flags.out")"
identity "$db" old "$T/o2"
identity "$db" new "$T/o0"
grep -q "bench: warning: build parity: old ($T/o2) and new ($T/o0) were built with different flags: -O2 / -O0" "$T/flags.out" &&
    ok || bad "-O2/-O0: not named: $(cat "$T/flags.out")"
is "-O2/-O0: stored" "$(q "$db" "SELECT build_parity LIKE '%different flags: -O2 / -O0%' FROM runs")" "1"
is "-O2/-O0: the switches recorded" \
   "$(q "$db" "SELECT group_concat(impl || ':' || flags_source || ':' || (flags LIKE CASE impl WHEN 'old' THEN '%-O2%' ELSE '%-O0%' END), ' ')
               FROM (SELECT * FROM objects ORDER BY impl DESC)")" "old:DW_AT_producer:1 new:DW_AT_producer:1"
is "-O2/-O0: the build type" "$(q "$db" "SELECT DISTINCT build_type FROM objects")" "ELF64 PIE executable, debug info"
is "-O2/-O0: outside a repository, no revision" "$(q "$db" "SELECT count(*) FROM objects WHERE revision IS NULL")" "2"
is "-O2/-O0: no user's revision" "$(q "$db" "SELECT user_revision IS NULL FROM runs")" "1"

# two builds of the same flags: no warning
"$bench" run --suite exec --old "$T/o2" --new "$T/o2b" "${quick[@]}" --db "$T/same.db" >"$T/same.out" 2>&1 || bad "same-flags run: $(cat "$T/same.out")"
grep -q "build parity" "$T/same.out" && bad "the same flags drew a warning: $(cat "$T/same.out")" || ok
is "same flags: nothing stored" "$(q "$T/same.db" "SELECT build_parity IS NULL FROM runs")" "1"

# hostile ELF files that still run: the kernel needs the program headers only
python3 - "$(type -P true)" "$T" <<'EOF'
import struct, sys
src, out = sys.argv[1], sys.argv[2]
b = bytearray(open(src, 'rb').read())
shoff = bytearray(b); struct.pack_into('<Q', shoff, 0x28, len(b) + (1 << 40))   # e_shoff far past the end
shnum = bytearray(b); struct.pack_into('<H', shnum, 0x3c, 0xfff0)               # e_shnum past the end
for name, data in (('shoff', shoff), ('shnum', shnum)):
    open(out + '/hostile-' + name, 'wb').write(data)
EOF
chmod +x "$T/hostile-shoff" "$T/hostile-shnum"
for h in shoff shnum; do
    "$bench" run --suite exec --old "$(type -P true)" --new "$T/hostile-$h" "${quick[@]}" --db "$T/h.db" >"$T/h.out" 2>&1
    rc=$?
    [[ $rc -eq 0 ]] && ok || bad "hostile-$h: exit $rc: $(cat "$T/h.out")"
    is "hostile-$h: recorded as unreadable" \
       "$(q "$T/h.db" "SELECT elf LIKE 'unreadable: %section header table%' FROM objects WHERE impl = 'new' AND run_id = (SELECT max(id) FROM runs)")" "1"
    is "hostile-$h: its sha256 still" \
       "$(q "$T/h.db" "SELECT sha256 FROM objects WHERE impl = 'new' AND run_id = (SELECT max(id) FROM runs)")" \
       "$(sha256sum "$T/hostile-$h" | cut -d' ' -f1)"
done

# a repository: its revision, or --revision; --label; and history in the user's git order
git init -q "$T/repo" && cp "$T/o2" "$T/repo/prog"
for i in 1 2 3; do git -C "$T/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "c$i"; done
mapfile -t commits < <(git -C "$T/repo" rev-list --topo-order --reverse HEAD)
commit() { echo "${commits[$(($1 - 1))]}"; }
rev() { git -C "$T/repo" describe --always "$(commit "$1")"; }
hdb=$T/hist.db
for i in 3 1 2; do   # run in another order than git's
    git -C "$T/repo" checkout -q --detach "$(commit $i)"
    "$bench" run --suite exec --old "$(type -P true)" --new "$T/repo/prog" "${quick[@]}" --db "$hdb" >"$T/r.out" 2>&1 ||
        bad "run at c$i: $(cat "$T/r.out")"
done
is "the revision of the binary's repository, as git describe says" \
   "$(q "$hdb" "SELECT group_concat(user_revision, ' ') FROM (SELECT user_revision FROM runs ORDER BY id)")" \
   "$(rev 3) $(rev 1) $(rev 2)"
is "its repository" "$(q "$hdb" "SELECT DISTINCT user_repo FROM runs")" "$(realpath "$T/repo")"
"$bench" history --suite exec --db "$hdb" --no-plots >"$T/hist.txt" 2>&1 || bad "history: $(cat "$T/hist.txt")"
grep -q "ordered by your revision, git order in $(realpath "$T/repo")" "$T/hist.txt" && ok || bad "history not in your order: $(cat "$T/hist.txt")"
is "history in the user's git order" "$(awk '/^  run /{getline; a=$1; getline; b=$1; getline; print a, b, $1; exit}' "$T/hist.txt")" "2 3 1"
"$bench" run --suite exec --old "$T/o2" --new "$T/repo/prog" --revision v9.9 --label 'PR 42' "${quick[@]}" --db "$T/l.db" >"$T/l.out" 2>&1 ||
    bad "--revision --label: $(cat "$T/l.out")"
is "--revision and --label stored" "$(q "$T/l.db" "SELECT user_revision || '|' || user_label FROM runs")" "v9.9|PR 42"

# refusals: exit 2, the option named, nothing stored
expect 2 "--revision: this run times no code of yours" "$bench" run --suite synthetic --quick --quiet --revision v1 --db "$T/no.db"
expect 2 "--label: character 3 is not printable ASCII" "$bench" run --suite exec --old true --new true --label $'PR\e[31m' --db "$T/no.db"
expect 2 "--revision '-x': a value cannot start with '-'" "$bench" run --suite exec --old true --new true --revision=-x --db "$T/no.db"
expect 2 "--revision wants 1 to 200 characters" "$bench" run --suite exec --old true --new true --revision= --db "$T/no.db"
expect 2 "--label given twice ('a', then 'b')" "$bench" run --suite exec --old true --new true --label a --label b --db "$T/no.db"
[[ -e $T/no.db ]] && bad "a refused run left a database" || ok
finish
