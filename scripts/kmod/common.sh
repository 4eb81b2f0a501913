# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Shared by run-qemu.sh and run-host.sh (sourced, not run): option parsing,
# the module's parameters, building, and checking the results document.
#
# Exit codes of the scripts:
#   2 usage / environment (missing root, headers, packages)
#   3 module build failed
#   4 guest did not boot or timed out
#   5 a self-test failed (the results file is still written, for diagnosis)
#   6 results incomplete or malformed (no "pbk1 end", bad lines)
#   7 load/unload loop test failed or the kernel logged a warning

PBK_REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

pbk_die() { # CODE MESSAGE...
	local code=$1
	shift
	printf '%s: error: %s\n' "$PBK_PROG" "$*" >&2
	exit "$code"
}

pbk_log() { printf '%s: %s\n' "$PBK_PROG" "$*" >&2; }

# Help for the options pbk_parse_common handles; each script's pbk_usage
# prints its own first line, this, then its own options.
pbk_common_help() {
	cat <<'EOF'
  --out FILE          where to write the results (pbk1 lines)
  --quick             short benchmark: 2 rounds, 16 KiB per sample
  --rounds N          benchmark rounds (module default 20)
  --sample-bytes N    bytes per sample (module default 262144)
  --sigpool           also run the sigpool part (kmod-new needs Linux 6.4+)
  --suites LIST       the parts to run: xts, sigpool or xts,sigpool (default xts)
  --no-bench          self-tests only
  --loop-test N       then load and unload the module N times (bench off)
  --module-args STR   extra module parameters, e.g. 'sizes=512,4096 keys=256'
EOF
}

# Options common to both targets. Sets PBK_OUT, PBK_ROUNDS, PBK_SAMPLE_BYTES,
# PBK_SUITES, PBK_BENCH, PBK_LOOP, PBK_EXTRA_ARGS; leaves the rest in PBK_REST.
pbk_parse_common() {
	PBK_OUT='' PBK_ROUNDS='' PBK_SAMPLE_BYTES='' PBK_SUITES=xts PBK_BENCH=1
	PBK_LOOP=0 PBK_EXTRA_ARGS='' PBK_REST=()
	while (($#)); do
		case $1 in
		--out) PBK_OUT=${2:?--out needs a file}; shift ;;
		--quick) PBK_ROUNDS=${PBK_ROUNDS:-2} PBK_SAMPLE_BYTES=16384 ;;
		--rounds) PBK_ROUNDS=${2:?--rounds needs a number}; shift ;;
		--sample-bytes) PBK_SAMPLE_BYTES=${2:?--sample-bytes needs a number}; shift ;;
		--sigpool) PBK_SUITES=xts,sigpool ;;
		--suites)
			PBK_SUITES=${2:?--suites needs a list}
			[[ $PBK_SUITES =~ ^(xts|sigpool)(,(xts|sigpool))?$ ]] || pbk_die 2 "--suites takes xts, sigpool or xts,sigpool, not '$PBK_SUITES'"
			shift ;;
		--no-bench) PBK_BENCH=0 ;;
		--loop-test) PBK_LOOP=${2:?--loop-test needs a count}; shift ;;
		--module-args) PBK_EXTRA_ARGS=${2?--module-args needs a string}; shift ;;
		-h | --help) pbk_usage; exit 0 ;;
		*) PBK_REST+=("$1") ;;
		esac
		shift
	done
	[[ -n $PBK_OUT ]] || { pbk_usage >&2; pbk_die 2 "--out FILE is required"; }
	local n
	for n in "$PBK_ROUNDS" "$PBK_SAMPLE_BYTES" "$PBK_LOOP"; do
		[[ -z $n || $n =~ ^[0-9]+$ ]] || pbk_die 2 "not a number: '$n'"
	done
	if [[ -n $PBK_ROUNDS ]] && ((PBK_ROUNDS == 0)); then
		pbk_die 2 "--rounds must be at least 1"
	fi
}

# The module's parameters for the benchmark run.
pbk_module_args() {
	local a="bench=$PBK_BENCH suites=$PBK_SUITES"
	[[ -n $PBK_ROUNDS ]] && a+=" rounds=$PBK_ROUNDS"
	[[ -n $PBK_SAMPLE_BYTES ]] && a+=" sample_bytes=$PBK_SAMPLE_BYTES"
	[[ -n $PBK_EXTRA_ARGS ]] && a+=" $PBK_EXTRA_ARGS"
	printf '%s\n' "$a"
}

# Build kmod/ out of tree in BUILD_DIR (a copy, so that the source tree stays
# clean and several kernels can be built side by side) against HEADERS_DIR.
pbk_build_module() { # HEADERS_DIR BUILD_DIR
	local hdr=$1 dir=$2
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$PBK_REPO_ROOT"/kmod/Kbuild "$PBK_REPO_ROOT"/kmod/*.[ch] "$dir"/
	if ! make -C "$hdr" M="$dir" modules >"$dir/build.log" 2>&1; then
		tail -n 30 "$dir/build.log" >&2
		pbk_die 3 "module build failed against $hdr (full log: $dir/build.log)"
	fi
	[[ -f $dir/patchbench.ko ]] || pbk_die 3 "build produced no patchbench.ko (see $dir/build.log)"
}

# Check the raw results (RAW: whatever came back, CRs and noise included)
# and write OUT: the script's meta lines first, then the module's pbk1 lines.
# Returns (does not exit) 5 on a self-test failure, after writing OUT.
pbk_finalize() { # RAW OUT META_LINE...
	local raw=$1 out=$2
	shift 2
	local clean bad
	clean=$(tr -d '\r' <"$raw" | grep '^pbk1 ' || true)
	[[ -n $clean ]] || pbk_die 6 "no results lines (pbk1 ...) came back"
	bad=$(printf '%s\n' "$clean" | grep -Ev \
		-e '^pbk1 meta [a-z0-9_]+=[^ ]*$' \
		-e '^pbk1 selftest impl=[^ ]+ status=(pass|fail) detail=[^ ]+$' \
		-e '^pbk1 sample suite=[^ ]+ impl=[^ ]+ variant=[^ ]+ op=[^ ]+ size=[0-9]+ round=[0-9]+ iters=[0-9]+ ns=[0-9]+ cycles=[0-9]+$' \
		-e '^pbk1 unavailable suite=[^ ]+ impl=[^ ]+ variant=[^ ]+ reason=[^ ]+$' \
		-e '^pbk1 end$' || true)
	[[ -z $bad ]] || pbk_die 6 "malformed results lines:"$'\n'"$bad"
	[[ $(printf '%s\n' "$clean" | tail -n 1) == 'pbk1 end' ]] ||
		pbk_die 6 "results end without 'pbk1 end' (module run interrupted?)"

	mkdir -p "$(dirname "$out")"
	{
		local m
		for m in "$@"; do printf 'pbk1 meta %s\n' "$m"; done
		printf '%s\n' "$clean"
	} >"$out.tmp"
	mv "$out.tmp" "$out"

	local fails
	fails=$(grep '^pbk1 selftest .* status=fail' "$out" || true)
	if [[ -n $fails ]]; then
		pbk_log "self-test failures (those impls were not benchmarked):"
		printf '%s\n' "$fails" >&2
		return 5
	fi
	pbk_log "wrote $out ($(grep -c '^pbk1 sample ' "$out") samples)"
	return 0
}
