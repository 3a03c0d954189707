# SPDX-License-Identifier: BSD-3-Clause
# Shared by the rocewire-gen end-to-end tests that run both tools; sourced,
# not run. Sets $py, $gen, $cap and $src from the environment (ROCEWIRE_GEN,
# ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR), fails when a tool is missing and
# skips (exit 77, the reason printed) without /usr/bin/python3.
set -u
py=/usr/bin/python3
gen=${ROCEWIRE_GEN:-}
cap=${ROCEWIRE_CAP:-}
src=${ROCEWIRE_SOURCE_DIR:-}
for t in "$gen" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_GEN and ROCEWIRE_CAP (got \"$gen\", \"$cap\")" >&2
		exit 1
	fi
done
skip() { echo "SKIP: $*"; exit 77; }
[ -x "$py" ] || skip "$py is missing"
