/* SPDX-License-Identifier: GPL-2.0-only */
#include "paths.h"

#include <stdlib.h>

#include "pb_config.h"

const char *pb_data_dir(void)
{
    const char *d = getenv("PB_DATADIR");
    return d ? d : PB_SOURCE_ROOT "/data";
}

const char *pb_source_root(void)
{
    const char *r = getenv("PB_SOURCE_ROOT");
    return r ? r : PB_SOURCE_ROOT;
}
