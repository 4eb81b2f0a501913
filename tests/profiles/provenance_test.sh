#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A run's stored cflags name every build profile, the code it builds and its
# flags (docs/build-profiles.md). Uses the synthetic suite; asserts no time. A suite added later
# adds its words to a profile's list (its declaration): the lists are matched by their start.
BENCH=$1
source "$(dirname "$0")/../lib.sh"

DB=$T/p.db
expect 0 "complete" "$BENCH" run --suite synthetic --quick --quiet --rounds 2 --db "$DB"
cflags=$(q "$DB" "SELECT cflags FROM runs WHERE id = 1")
for want in 'harness/suites/peers: ' \
            'kernel profile [xts templates+glue, sigpool pools+tcp' '-mno-sse -mno-sse2' '-mno-red-zone' \
            '-fno-strict-aliasing' '-mindirect-branch=' \
            'libgcrypt profile [drbg' '-D_FORTIFY_SOURCE=2' \
            'native profile [old@native, new@native]: ' '-march=x86-64-v2'; do
    [[ $cflags == *"$want"* ]] && ok || bad "runs.cflags lacks '$want': $cflags"
done
# each profile's own -O level, in its own clause
kernel=${cflags#*kernel profile}; kernel=${kernel%%;*}
[[ $kernel == *' -O2 '* && $kernel != *'-msse'* ]] && ok || bad "kernel clause: $kernel"
finish
