/* Placeholder until the xts suite lands: registered so that bench lists it. */
#include "suite.h"

const pb_suite pb_suite_xts = {
    .name = "xts",
    .title = "(not implemented yet)",
    .baseline = "old",
    .candidate = "new",
};
