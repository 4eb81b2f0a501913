#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Install what is missing (Debian 12 packages), then configure and build patchbench in build/.
# Safe to re-run: it installs nothing that is already there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(
  gcc g++ make pkg-config git meson ninja-build
  # the sanitizer build's runtimes (ci/run-tests); gcc-12 pulls them in, named for clarity
  libasan8 libubsan1
  libbenchmark-dev libjansson-dev zlib1g-dev libpfm4-dev libsqlite3-dev sqlite3 libgcrypt20-dev libssl-dev gnuplot-nox
  # the compiler and flags a timed binary records (DW_AT_producer): elfutils' libdw (docs/your-code.md)
  libdw-dev
  # --measure valgrind: callgrind and its client-request headers (docs/gate.md)
  valgrind
  # the code layouts' per-copy function order (lld --shuffle-sections, docs/layout.md)
  lld
  # bench export's test: GB's compare.py and what it imports
  libbenchmark-tools python3-scipy python3-numpy
  # scripts/upstream-libgcrypt: libgcrypt's own build at the drbg patch and its parent (docs/your-code.md)
  autoconf automake libtool libgpg-error-dev
  # the kernel-module variant: build against Debian's headers, boot in QEMU (docs/kmod.md)
  linux-headers-amd64 qemu-system-x86 busybox-static cpio kmod xz-utils dwarves
  # bench report --html is checked in a real browser (tests/harness/report_html_test.sh)
  chromium
  # the PostgreSQL store (docs/fleet.md): libpq to build with; the server and psql for its tests,
  # which start a throwaway server of their own (tests/pg_server.sh)
  libpq-dev postgresql
  # meson install's test (tests/install): the installed bench traced for what it opens, its man
  # pages rendered
  strace man-db
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=
  [[ $(id -u) -eq 0 ]] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ ! -f build/build.ninja ]]; then
  meson setup build >/dev/null
fi
ninja -C build >/dev/null
echo "setup: built build/harness/bench" >&2
