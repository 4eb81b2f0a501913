/* SPDX-License-Identifier: GPL-2.0-only */
/* vg_vaes.c — a static program Valgrind cannot run: one VAES instruction, which Valgrind 3.19 does not
 * decode (it dies of SIGILL there, whatever the CPU). Never run natively by the tests. */
int main(void)
{
    __asm__ volatile(".byte 0xc4, 0xe2, 0x7d, 0xdc, 0xc0" ::: "xmm0");   /* vaesenc %ymm0,%ymm0,%ymm0 */
    return 0;
}
