#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Kernel-profile code must not touch an SSE/AVX/AVX-512 (xmm/ymm/zmm), MMX or
# x87 register: the kernel builds its C without them (docs/build-profiles.md),
# and the XTS headline was once an artefact of SSE code generation.
# usage: no_fpu_registers_test.sh OBJDUMP LIB.a...   (the kernel-profile static libraries: every
# suite's 'kernel' archives, from its declaration)
OBJDUMP=$1
shift
source "$(dirname "$0")/../lib.sh"

# One objdump line per instruction; prints the offending ones.
fpu_lines() {
    grep -E '%[xyz]mm[0-9]|%mm[0-7]\b|%st\b|%st\([0-7]\)|mxcsr|^ +[0-9a-f]+:\s+(emms|f[a-z0-9]+)\b'
}

# The detector itself, on fixed objdump lines: it must see each kind, and not
# flag plain integer code.
for line in '   4:	movdqa (%rax),%xmm0' '   8:	vmovdqu %ymm1,(%rdi)' '   c:	vpxorq %zmm2,%zmm2,%zmm2' \
            '  10:	movq   %mm0,%rax' '  14:	fldt   0x8(%rsp)' '  18:	fstp   %st(1)' '  1c:	ldmxcsr (%rsp)' \
            '  20:	emms'; do
    [[ -n $(printf '%s\n' "$line" | fpu_lines) ]] && ok || bad "detector misses: $line"
done
for line in '   0:	mov    (%rsi),%rax' '   3:	xor    %r8,%rdx' '   7:	add    $0x10,%rax' '   9:	cs call 0 <__x86_indirect_thunk_r11>'; do
    [[ -z $(printf '%s\n' "$line" | fpu_lines) ]] && ok || bad "detector flags integer code: $line"
done

for lib in "$@"; do
    dis=$("$OBJDUMP" -d --no-show-raw-insn "$lib") || { bad "$OBJDUMP -d $lib failed"; continue; }
    n=$(printf '%s\n' "$dis" | grep -cE '^ +[0-9a-f]+:')
    # something was read (a new suite's library may be small: the archives come from the suites'
    # declarations, 'kernel')
    (( n > 0 )) && ok || bad "$lib: no instructions disassembled"
    hits=$(printf '%s\n' "$dis" | fpu_lines)
    if [[ -z $hits ]]; then
        ok
    else
        bad "$(basename "$lib"): $(printf '%s\n' "$hits" | wc -l) instructions use FPU/vector registers, e.g.:"
        printf '%s\n' "$hits" | head -5
    fi
done
finish
