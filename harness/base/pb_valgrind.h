/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_valgrind.h — Valgrind's client requests where Debian's valgrind headers are installed
 * (pb_config.h: PB_HAVE_VALGRIND), no-ops otherwise, so that bench builds without them
 * (`--measure valgrind` then needs valgrind at run time anyway, and says so). */
#ifndef PB_VALGRIND_REQ_H
#define PB_VALGRIND_REQ_H

#include "pb_config.h"

#if PB_HAVE_VALGRIND
#include <valgrind/callgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#define CALLGRIND_START_INSTRUMENTATION ((void)0)
#define CALLGRIND_STOP_INSTRUMENTATION ((void)0)
#define CALLGRIND_ZERO_STATS ((void)0)
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

#endif
