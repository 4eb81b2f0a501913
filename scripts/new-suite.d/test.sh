#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The @NAME@ suite (scripts/new-suite): bench lists it, its impls pass their self-test (bench run
# refuses one that does not), a quick run completes in as many code layouts as the build has, and
# bench report writes its table. Asserts no time.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
[[ "$("$BENCH" list --names)" == *@NAME@* ]] && ok || bad "bench list --names lacks @NAME@"
expect 0 "complete" "$BENCH" run --suite @NAME@ --quick --db s.db
grep -q 'code layouts' "$T/err" 2>/dev/null || true
"$BENCH" run --suite @NAME@ --quick --db s2.db 2>err.txt >/dev/null
grep -qE '@NAME@: [0-9]+ cells, [0-9]+ rounds in [0-9]+ code layouts' err.txt && ok || bad "no layouts said: $(head -3 err.txt)"
expect 0 "" "$BENCH" report --suite @NAME@ --db s.db --out plots
[[ -s plots/@NAME@.md ]] && ok || bad "no plots/@NAME@.md"
finish
