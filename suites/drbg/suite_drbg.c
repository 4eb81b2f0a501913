/* Placeholder until the drbg suite lands: registered so that bench lists it. */
#include "suite.h"

const pb_suite pb_suite_drbg = {
    .name = "drbg",
    .title = "(not implemented yet)",
    .baseline = "old",
    .candidate = "new",
};
