#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The plugin fuzzed with corrupted captures under ASan and UBSan
# (plugin_corrupt.py has the details and the environment it reads).
#
# usage: test_plugin_corrupt.sh [--long]
#   normal  480 files (editcap -E 0.02, seeds 1..480), and the regressions
#   --long  PLUGIN_FUZZ_FILES files from seed 100000 (skipped without it)
# Exit 77 (skip) when tshark, editcap, python3, the ASan runtime or (as
# root) setpriv is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
# shellcheck source=../e2e/tshark_env.sh
. "$here/../e2e/tshark_env.sh"
exec "$py" "$here/plugin_corrupt.py" "$@"
