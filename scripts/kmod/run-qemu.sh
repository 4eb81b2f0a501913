#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build patchbench.ko against a Debian kernel, boot that kernel under QEMU
# (TCG software emulation), run the module's self-tests and benchmark there,
# and write its results document to --out. See docs/kmod.md.
#
# Nothing is installed into the host's kernel: the kernel image package is
# downloaded and unpacked into the work folder (cached between runs).
set -euo pipefail

PBK_PROG=run-qemu.sh
# shellcheck source=scripts/kmod/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

pbk_usage() {
	echo 'usage: run-qemu.sh --out FILE [options]'
	pbk_common_help
	cat <<'EOF'
  --kernel K          bookworm (default: Debian 12's kernel, as linux-headers-amd64)
                      or bpo (bookworm-backports, 6.12)
  --timeout S         limit for the guest run in seconds (default 1200)
  --work DIR          work folder (default $PB_KMOD_WORK or <repo>/work-kmod)
Environment: PB_DEBIAN_MIRROR overrides the mirror used for --kernel bpo.
EOF
}

pbk_parse_common "$@"
KERNEL=bookworm
TIMEOUT=1200
WORK=${PB_KMOD_WORK:-$PBK_REPO_ROOT/work-kmod}
set -- "${PBK_REST[@]+"${PBK_REST[@]}"}"
while (($#)); do
	case $1 in
	--kernel) KERNEL=${2:?--kernel needs bookworm or bpo}; shift ;;
	--timeout) TIMEOUT=${2:?--timeout needs seconds}; shift ;;
	--work) WORK=${2:?--work needs a folder}; shift ;;
	*) pbk_usage >&2; pbk_die 2 "unknown option: $1" ;;
	esac
	shift
done
[[ $KERNEL == bookworm || $KERNEL == bpo ]] || pbk_die 2 "--kernel must be bookworm or bpo, not '$KERNEL'"
[[ $TIMEOUT =~ ^[0-9]+$ ]] || pbk_die 2 "--timeout: not a number: '$TIMEOUT'"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
T0=$SECONDS

# --- packages ---------------------------------------------------------------
PACKAGES=(linux-headers-amd64 qemu-system-x86 busybox-static cpio kmod make gcc xz-utils dwarves)
ensure_packages() {
	local p need=()
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
	done
	((${#need[@]})) || return 0
	[[ $EUID -eq 0 ]] || pbk_die 2 "missing packages: ${need[*]} (run as root or install them)"
	pbk_log "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y --no-install-recommends "${need[@]}" >"$WORK/apt.log" 2>&1; then
		apt-get update >>"$WORK/apt.log" 2>&1 || true
		apt-get install -y --no-install-recommends "${need[@]}" >>"$WORK/apt.log" 2>&1 ||
			pbk_die 2 "apt-get install ${need[*]} failed (see $WORK/apt.log)"
	fi
}

# --- the kernel: version, headers, image ------------------------------------
APT_OPTS=(-o APT::Sandbox::User=root)

debian_mirror() {
	if [[ -n ${PB_DEBIAN_MIRROR:-} ]]; then
		echo "$PB_DEBIAN_MIRROR"
		return
	fi
	local uri
	uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }')
	[[ -n $uri ]] || uri=$(awk '/^deb / && $2 ~ /\/debian\/?$/ { print $2; exit }' \
		/etc/apt/sources.list 2>/dev/null)
	echo "${uri:-http://deb.debian.org/debian}"
}

# bookworm-backports through apt lists of our own: /etc/apt stays untouched.
setup_bpo_apt() {
	local d=$WORK/apt-bpo
	mkdir -p "$d/lists/partial"
	echo "deb $(debian_mirror) bookworm-backports main" >"$d/sources.list"
	APT_OPTS+=(-o "Dir::Etc::sourcelist=$d/sources.list" -o Dir::Etc::sourceparts=-
		-o "Dir::State::Lists=$d/lists")
	if [[ -z $(find "$d/lists" -name '*Packages*' -mmin -1440 2>/dev/null | head -n 1) ]]; then
		pbk_log "fetching bookworm-backports package lists"
		apt-get "${APT_OPTS[@]}" update >"$d/update.log" 2>&1 ||
			pbk_die 2 "apt-get update for bookworm-backports failed (see $d/update.log)"
	fi
}

resolve_kernel() {
	if [[ $KERNEL == bookworm ]]; then
		KVER=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 |
			sed -n 's/.*linux-headers-\([^ ,]*-amd64\).*/\1/p')
		[[ -n $KVER ]] || pbk_die 2 "cannot tell the kernel version from linux-headers-amd64"
		HDR=/usr/src/linux-headers-$KVER
		DEBS=("linux-image-$KVER")
	else
		setup_bpo_apt
		KVER=$(apt-cache "${APT_OPTS[@]}" depends linux-image-amd64 |
			sed -n 's/.*Depends: linux-image-\([^ ]*-amd64\)$/\1/p' | head -n 1)
		[[ -n $KVER ]] || pbk_die 2 "no linux-image-amd64 in bookworm-backports"
		local base=${KVER%-amd64}
		DEBS=("linux-image-$KVER" "linux-headers-$KVER" "linux-headers-$base-common" "linux-kbuild-$base")
	fi
	KDIR=$WORK/$KVER
	ROOT=$KDIR/root
	[[ $KERNEL == bookworm ]] || HDR=$ROOT/usr/src/linux-headers-$KVER
}

fetch_kernel() {
	if [[ -f $KDIR/.extracted && -f $ROOT/boot/vmlinuz-$KVER ]]; then
		pbk_log "kernel $KVER: cached in $KDIR"
		return
	fi
	pbk_log "kernel $KVER: downloading ${DEBS[*]}"
	rm -rf "$KDIR/deb" "$ROOT" "$KDIR/.extracted"
	mkdir -p "$KDIR/deb" "$ROOT"
	if ! (cd "$KDIR/deb" && apt-get "${APT_OPTS[@]}" download "${DEBS[@]}") >"$KDIR/download.log" 2>&1; then
		[[ $KERNEL == bookworm ]] && apt-get update >>"$KDIR/download.log" 2>&1
		(cd "$KDIR/deb" && apt-get "${APT_OPTS[@]}" download "${DEBS[@]}") >>"$KDIR/download.log" 2>&1 ||
			pbk_die 2 "apt-get download ${DEBS[*]} failed (see $KDIR/download.log)"
	fi
	local deb
	for deb in "$KDIR"/deb/*.deb; do dpkg-deb -x "$deb" "$ROOT"; done
	rm -rf "$KDIR/deb"
	[[ -f $ROOT/boot/vmlinuz-$KVER ]] || pbk_die 2 "no boot/vmlinuz-$KVER in the image package"
	# The package's postinst would run depmod; we only unpacked it.
	depmod -b "$ROOT" "$KVER" || pbk_die 2 "depmod failed for $ROOT/lib/modules/$KVER"
	if [[ $KERNEL != bookworm ]]; then
		# The headers' Makefile includes the -common tree by absolute path.
		sed -i "s|^include /usr/src/|include $ROOT/usr/src/|" "$HDR/Makefile"
	fi
	touch "$KDIR/.extracted"
}

# --- initramfs ----------------------------------------------------------------
# Crypto modules the guest needs besides what is built in; dependencies are
# added from modules.dep. Names as in lsmod (underscores).
WANT_MODULES=(ecb cryptd crypto_simd aesni_intel aes_generic xts
	sha1_ssse3 sha256_ssse3 sha512_ssse3 sha512_generic sha3_generic
	md5 hmac cmac rmd160)

make_initramfs() {
	local mods=$ROOT/lib/modules/$KVER stage=$KDIR/initramfs
	[[ -f $mods/modules.dep ]] || pbk_die 2 "no modules.dep in $mods"
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,sbin,proc,sys,dev,tmp,lib/modules/"$KVER"}

	# module name -> path in modules.dep
	declare -A path_of=()
	local p name
	while read -r p; do
		name=${p##*/}
		name=${name%%.ko*}
		path_of[${name//-/_}]=$p
	done < <(cut -d: -f1 "$mods/modules.dep")

	declare -A seen=()
	local order=()
	visit() {
		local m=$1 d
		[[ -n ${seen[$m]:-} ]] && return 0
		seen[$m]=1
		# shellcheck disable=SC2013 # the dependencies are words on one line
		for d in $(awk -F': *' -v m="$m" '$1 == m { print $2 }' "$mods/modules.dep"); do
			visit "$d"
		done
		order+=("$m")
	}
	for name in "${WANT_MODULES[@]}"; do
		if [[ -n ${path_of[$name]:-} ]]; then
			visit "${path_of[$name]}"
		elif ! grep -q "/${name//_/[-_]}\.ko" "$mods/modules.builtin" 2>/dev/null; then
			pbk_log "note: module $name is neither built in nor in modules.dep"
		fi
	done

	: >"$stage/modules.load"
	for p in "${order[@]}"; do
		mkdir -p "$stage/lib/modules/$KVER/$(dirname "$p")"
		case $p in
		*.ko.xz) xz -dc "$mods/$p" >"$stage/lib/modules/$KVER/${p%.xz}"; p=${p%.xz} ;;
		*.ko) cp "$mods/$p" "$stage/lib/modules/$KVER/$p" ;;
		*) pbk_die 2 "unsupported module compression: $p" ;;
		esac
		echo "$p" >>"$stage/modules.load"
	done
	sed 's/\.ko\.xz/.ko/g' "$mods/modules.dep" >"$stage/lib/modules/$KVER/modules.dep"
	cp "$mods"/modules.{alias,builtin} "$stage/lib/modules/$KVER/" 2>/dev/null || true

	cp /bin/busybox "$stage/bin/busybox"
	ln -s busybox "$stage/bin/sh"
	cp "$KDIR/build/patchbench.ko" "$stage/patchbench.ko"
	install -m 755 "$PBK_REPO_ROOT/scripts/kmod/guest-init.sh" "$stage/init"
	MARK="@@pbk-$(date +%s)-$$-$RANDOM@@"
	{
		printf "MARK='%s'\n" "$MARK"
		printf "KVER='%s'\n" "$KVER"
		printf "MODARGS='%s'\n" "$(pbk_module_args)"
		printf "LOOP=%d\n" "$PBK_LOOP"
	} >"$stage/pbk.conf"
	(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$KDIR/initrd.cpio.gz"
}

# --- boot and collect -----------------------------------------------------------
section() { # NAME FILE: the lines between "$MARK NAME" and "$MARK /NAME"
	awk -v b="$MARK $1" -v e="$MARK /$1" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' "$2"
}

boot_guest() {
	local console=$KDIR/console.log data=$KDIR/data.raw rc=0
	rm -f "$console" "$data"
	pbk_log "booting $KVER under QEMU TCG (limit ${TIMEOUT}s)"
	timeout -k 10 "$TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 1024M -smp 1 \
		-kernel "$ROOT/boot/vmlinuz-$KVER" -initrd "$KDIR/initrd.cpio.gz" \
		-append 'console=ttyS0 panic=-1 loglevel=4' \
		-display none -monitor none -no-reboot \
		-serial "file:$console" -serial "file:$data" </dev/null >"$KDIR/qemu.log" 2>&1 || rc=$?
	tr -d '\r' <"$data" >"$data.txt" 2>/dev/null || : >"$data.txt"
	if ((rc == 124 || rc == 137)); then
		tail -n 20 "$console" >&2 || true
		pbk_die 4 "guest timed out after ${TIMEOUT}s (console: $console)"
	fi
	((rc == 0)) || { cat "$KDIR/qemu.log" >&2; pbk_die 4 "qemu failed (exit $rc)"; }
	if ! grep -qxF "$MARK END" "$data.txt"; then
		tail -n 30 "$console" >&2 || true
		pbk_die 4 "guest stopped before the end of its script (panic or boot failure; console: $console)"
	fi
	DATA=$data.txt
}

ensure_packages
resolve_kernel
fetch_kernel
pbk_log "building patchbench.ko against $HDR"
pbk_build_module "$HDR" "$KDIR/build"
make_initramfs
T1=$SECONDS
boot_guest
T2=$SECONDS

section RESULTS "$DATA" >"$KDIR/results.raw"
section DMESG "$DATA" >"$KDIR/dmesg.log"
info=$(section INFO "$DATA")
info_get() { printf '%s\n' "$info" | sed -n "s/^$1=//p"; }

meta=(target=qemu-tcg "guest_kernel=$KVER" qemu_cpu=max
	"qemu_version=$(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')"
	"guest_clocksource=$(info_get guest_clocksource)")
((PBK_LOOP > 0)) && meta+=("loop_test=$(info_get loop_ok)/$PBK_LOOP")
rc=0
pbk_finalize "$KDIR/results.raw" "$PBK_OUT" "${meta[@]}" || rc=$?

# A kernel warning, oops or bad page during the run taints the kernel.
tainted=$(info_get tainted)
if [[ -n $tainted ]] && ((tainted & (32 | 128 | 512 | 16384))); then
	grep -E 'WARNING|BUG|Oops|Call Trace' "$KDIR/dmesg.log" | head -n 20 >&2 || true
	pbk_die 7 "the guest kernel logged a warning or oops (tainted=$tainted; dmesg: $KDIR/dmesg.log)"
fi
if ((PBK_LOOP > 0)) && [[ $(info_get loop_ok) != "$PBK_LOOP" ]]; then
	grep -F "$MARK LOOP" "$KDIR/console.log" >&2 || true
	pbk_die 7 "load/unload loop: only $(info_get loop_ok) of $PBK_LOOP cycles were clean"
fi
pbk_log "done in $((SECONDS - T0))s (prepare $((T1 - T0))s, guest $((T2 - T1))s)"
exit "$rc"
