/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_hostile.c — xts plug-ins whose code runs where it is loaded, before or after any call of
 * bench's: a constructor or destructor each (tests/xts/hostile_test.sh), chosen by -DHOSTILE_...,
 * over xts_faulty.c (a good template unless a FAULT_ is given too):
 *   HOSTILE_CTOR_EXIT       exit(0) in its constructor; with PB_TEST_MARK set, only from its second
 *                           load on (the first creates that file): it passes its self-test first
 *   HOSTILE_CTOR_PRINT      prints a line to stdout in its constructor
 *   HOSTILE_CTOR_CHDIR      chdir("/") in its constructor
 *   HOSTILE_CTOR_FORK       forks a process that sleeps 30 s with stdout and stderr open
 *   HOSTILE_CTOR_SETSID     the same, which leaves its process group (setsid) and writes its pid to
 *                           the file PB_TEST_PIDS names, one line per load
 *   HOSTILE_DTOR_EXIT       _exit(0) in its destructor
 *   HOSTILE_DTOR_CRASH      SIGSEGV in its destructor
 * bench must never load one into its own process: none of these may reach bench's output, its
 * working directory or its exit status. */
#include <fcntl.h>
#include <stdio.h>

#include "xts_faulty.c"

#if defined HOSTILE_CTOR_EXIT || defined HOSTILE_CTOR_PRINT || defined HOSTILE_CTOR_CHDIR ||                      \
    defined HOSTILE_CTOR_FORK || defined HOSTILE_CTOR_SETSID
__attribute__((constructor)) static void hostile_ctor(void)
{
#if defined HOSTILE_CTOR_EXIT
    const char *mark = getenv("PB_TEST_MARK");
    if (mark) {
        int fd = open(mark, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd >= 0) {
            close(fd);
            return;
        }
    }
    exit(0);
#elif defined HOSTILE_CTOR_PRINT
    printf("hostile constructor output\n");
    fflush(stdout);
#elif defined HOSTILE_CTOR_CHDIR
    if (chdir("/") != 0) abort();
#else
    if (fork() == 0) {
#if defined HOSTILE_CTOR_SETSID
        setsid();
        const char *pids = getenv("PB_TEST_PIDS");
        FILE *f = pids ? fopen(pids, "a") : NULL;
        if (f) {
            fprintf(f, "%ld\n", (long)getpid());
            fclose(f);
        }
#endif
        struct timespec ts = {30, 0};
        nanosleep(&ts, NULL);
        _exit(0);
    }
#endif
}
#endif

#if defined HOSTILE_DTOR_EXIT || defined HOSTILE_DTOR_CRASH
__attribute__((destructor)) static void hostile_dtor(void)
{
#if defined HOSTILE_DTOR_EXIT
    _exit(0);
#else
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
#endif
}
#endif
