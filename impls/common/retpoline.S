/* SPDX-License-Identifier: GPL-2.0-only */
/* retpoline.S — __x86_indirect_thunk_<reg> for the kernel build profile.
 *
 * Kernel-profile code is compiled with -mindirect-branch=thunk-extern, as
 * kbuild compiles it when the kernel uses retpolines (this host's spectre_v2
 * line reads "Mitigation: Retpolines"): every indirect call or jump through
 * register <reg> becomes `call/jmp __x86_indirect_thunk_<reg>`. The thunk is
 * the generic retpoline: the call pushes a return address whose speculative
 * target is a harmless pause/lfence loop, the real target overwrites it on
 * the stack, and `ret` goes there. Returns are followed by int3 as
 * -mharden-sls=all does in C. Hidden, so the PIE link binds them directly. */
        .text
        .macro PB_RETPOLINE reg
        .globl  __x86_indirect_thunk_\reg
        .hidden __x86_indirect_thunk_\reg
        .type   __x86_indirect_thunk_\reg, @function
        .p2align 5
__x86_indirect_thunk_\reg:
        call    1f
2:      pause
        lfence
        jmp     2b
1:      mov     %\reg, (%rsp)
        ret
        int3
        .size   __x86_indirect_thunk_\reg, . - __x86_indirect_thunk_\reg
        .endm

        PB_RETPOLINE rax
        PB_RETPOLINE rbx
        PB_RETPOLINE rcx
        PB_RETPOLINE rdx
        PB_RETPOLINE rsi
        PB_RETPOLINE rdi
        PB_RETPOLINE rbp
        PB_RETPOLINE r8
        PB_RETPOLINE r9
        PB_RETPOLINE r10
        PB_RETPOLINE r11
        PB_RETPOLINE r12
        PB_RETPOLINE r13
        PB_RETPOLINE r14
        PB_RETPOLINE r15

        .section .note.GNU-stack, "", @progbits
