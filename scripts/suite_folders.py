#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The suites of the tree: every folder of suites/ that holds a meson.build, one name a line,
sorted. The top-level meson.build reads it at configure time and subdir()s each; a suite then
declares itself once at the end of its meson.build (pb_suite_decls, docs/adding-a-suite.md).
Nothing else lists suites by hand."""
import os
import sys

root = sys.argv[1]
for name in sorted(os.listdir(root)):
    if os.path.isfile(os.path.join(root, name, "meson.build")) and not name.startswith("."):
        print(name)
