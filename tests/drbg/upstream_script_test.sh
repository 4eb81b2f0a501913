#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# upstream_script_test.sh SCRIPT
# scripts/upstream-libgcrypt against a tiny fake libgcrypt repository (no network, seconds): its
# autogen.sh, configure and Makefile only build src/.libs/libgcrypt.so.20 from one C file. Checked:
# the document's commit and its parent are built into OUT/<commit>, the two library paths printed
# and written to OUT/upstream.tsv, logs kept, the caller's CFLAGS not passed on, the GPG_ERROR_CONFIG
# shim answers, a second run reuses the builds; refused with exit 2 and nothing replaced: SRC not a
# git checkout, the commit or its parent missing, a failed build (its log kept, no folder left), an
# OUT entry or manifest the script did not make, a missing tool.
. "$(dirname "$0")/../lib.sh"
[[ -n ${PB_KEEP_T-} ]] && trap - EXIT && echo "T=$T"
script=$1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
src=$T/src
mkdir -p "$src" && git -C "$src" init -q
cat >"$src/autogen.sh" <<'S'
#!/bin/sh
echo autogen >autogen.ran
S
cat >"$src/configure" <<'S'
#!/bin/sh
# the fake configure: what it was given, and the shim (VAR=VALUE, as autoconf takes it) must answer
echo "args: $* CFLAGS=${CFLAGS-unset}" >configure.ran
for a; do case $a in GPG_ERROR_CONFIG=*) shim=${a#*=} ;; esac; done
"$shim" --version >>configure.ran || exit 1
S
cat >"$src/Makefile" <<'S'
all:
	mkdir -p src/.libs
	$(CC) -shared -fPIC -o src/.libs/libgcrypt.so.20 fake.c
S
chmod +x "$src/autogen.sh" "$src/configure"
echo 'const char *fake_side = "parent";' >"$src/fake.c"
git -C "$src" add -A && git -C "$src" commit -qm parent
parent=$(git -C "$src" rev-parse HEAD)
echo 'const char *fake_side = "patch";' >"$src/fake.c"
git -C "$src" commit -qam patch
patch=$(git -C "$src" rev-parse HEAD)
echo 'this does not compile' >"$src/fake.c"
git -C "$src" commit -qam broken
broken=$(git -C "$src" rev-parse HEAD)
doc() { printf 'impl\tvariant\top\tsize_bytes\tmetric\tvalue\n# commit\t%s\tfake\n' "$1" >"$T/doc.tsv"; }
export PB_DRBG_DOC=$T/doc.tsv

doc "$patch"
out=$T/out
if CFLAGS=-DFROM_CALLER "$script" "$src" "$out" >"$T/o" 2>"$T/e"; then ok; else bad "build: $(cat "$T/e")"; fi
is "printed" "$(cat "$T/o")" "upstream-old=$out/$parent/src/.libs/libgcrypt.so.20
upstream-new=$out/$patch/src/.libs/libgcrypt.so.20"
is "manifest" "$(cat "$out/upstream.tsv")" "$(printf 'role\tcommit\tlibrary\nupstream-old\t%s\t%s\nupstream-new\t%s\t%s' \
    "$parent" "$parent/src/.libs/libgcrypt.so.20" "$patch" "$patch/src/.libs/libgcrypt.so.20")"
for c in "$parent" "$patch"; do
    if [[ -f $out/$c/src/.libs/libgcrypt.so.20 && -s $out/logs/$c.log ]]; then ok; else bad "$c: no library or no log"; fi
    if grep -q "CFLAGS=unset" "$out/$c/configure.ran" && grep -q -- "--disable-doc" "$out/$c/configure.ran"; then ok
    else bad "$c: configure got $(cat "$out/$c/configure.ran")"; fi
    is "$c: the shim gives libgpg-error's version" "$(sed -n 2p "$out/$c/configure.ran")" "$(pkg-config --modversion gpg-error)"
done
if strings "$out/$patch/src/.libs/libgcrypt.so.20" | grep -q patch && strings "$out/$parent/src/.libs/libgcrypt.so.20" | grep -q parent
then ok; else bad "the two builds are not of their own commits"; fi
if "$script" "$src" "$out" >"$T/o2" 2>"$T/e2" && grep -q "upstream-old $(cut -c1-12 <<<"$parent"): already built" "$T/e2" &&
    cmp -s "$T/o" "$T/o2"; then ok; else bad "second run: $(cat "$T/e2")"; fi

# refusals
expect 2 "not a git checkout" "$script" "$T" "$T/o3"
doc 0123456789abcdef0123456789abcdef01234567
expect 2 "has no commit 0123456789abcdef0123456789abcdef01234567" "$script" "$src" "$T/o3"
doc "$parent"
git -C "$src" checkout -q "$parent"
git clone -q --depth 1 "file://$src" "$T/shallow"
git -C "$src" checkout -q -
expect 2 "has no parent of $parent" "$script" "$T/shallow" "$T/o3"
printf 'no commit line\n' >"$T/doc.tsv"
expect 2 "no '# commit<TAB>SHA-1' line" "$script" "$src" "$T/o3"
doc "$broken"
expect 2 "building upstream-new ($broken) failed: the whole log is $out/logs/$broken.log" "$script" "$src" "$out"
if [[ -s $out/logs/$broken.log && ! -e $out/$broken ]] && ! compgen -G "$out/.building-*" >/dev/null; then ok
else bad "a failed build left a folder or no log: $(ls -a "$out")"; fi
if grep -q "upstream-new" "$out/upstream.tsv" && grep -q "$patch" "$out/upstream.tsv"; then ok
else bad "a failed build replaced the manifest"; fi
doc "$patch"
mkdir -p "$T/o4/$parent" && echo mine >"$T/o4/$parent/keep"
expect 2 "$T/o4/$parent: exists and is not a build this script finished" "$script" "$src" "$T/o4"
is "a foreign folder is untouched" "$(cat "$T/o4/$parent/keep")" mine
cp -r "$out" "$T/o5" && echo mine >"$T/o5/upstream.tsv"
expect 2 "upstream.tsv: exists and is not this script's manifest" "$script" "$src" "$T/o5"
is "a foreign manifest is untouched" "$(cat "$T/o5/upstream.tsv")" mine
# a missing tool: a PATH with everything the script needs but autoconf
mkdir "$T/bin"
for t in bash env dirname awk git make cc gcc automake libtoolize pkg-config mkdir mktemp cat chmod rm mv tail head nproc; do
    p=$(command -v "$t") && ln -s "$p" "$T/bin/$t"
done
expect 2 "needs 'autoconf' on PATH" env PATH="$T/bin" "$script" "$src" "$T/o6"
expect 2 "usage: scripts/upstream-libgcrypt SRC OUT" "$script" "$src"
finish
