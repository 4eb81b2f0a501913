#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fake_gb.sh REAL CPU LOG [GB flags...]: a stand-in for a Google Benchmark binary with fixed times, so
# that what bench stores and derives from it is known in advance (tests never depend on timing).
# Three benchmarks; --benchmark_list_tests=true lists those --benchmark_filter matches; any other call
# prints GB's JSON for the filtered benchmarks, each REAL ns real time and CPU ns cpu time per
# iteration over 1000 iterations. Every call's flags are appended to LOG, one line per call.
real=$1 cpu=$2 log=$3
shift 3
echo "$*" >>"$log"
filter=. list=0
for a in "$@"; do
    case $a in
    --benchmark_list_tests=true) list=1 ;;
    --benchmark_filter=*) filter=${a#--benchmark_filter=} ;;
    --benchmark_format=json | --benchmark_min_time=* | --benchmark_min_warmup_time=*) ;;
    *) echo "fake_gb: unknown argument $a" >&2; exit 1 ;;
    esac
done
names=()
for n in BM_copy/64 BM_copy/4096 BM_hash; do
    [[ $n =~ $filter ]] && names+=("$n")
done
if ((list)); then
    printf '%s\n' "${names[@]}"
    exit 0
fi
printf '{"context": {"executable": "fake_gb"}, "benchmarks": ['
sep=
for n in "${names[@]}"; do
    printf '%s{"name": "%s", "run_type": "iteration", "iterations": 1000, "real_time": %s, "cpu_time": %s, "time_unit": "ns"}' \
        "$sep" "$n" "$real" "$cpu"
    sep=,
done
printf ']}\n'
