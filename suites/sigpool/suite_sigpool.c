/* Placeholder until the sigpool suite lands: registered so that bench lists it. */
#include "suite.h"

const pb_suite pb_suite_sigpool = {
    .name = "sigpool",
    .title = "(not implemented yet)",
    .baseline = "old",
    .candidate = "new",
};
