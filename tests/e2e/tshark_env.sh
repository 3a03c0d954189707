# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the shell tests that compare with tshark through a python3
# check: exits 77 (ctest's skip) with the reason when tshark or Debian's
# /usr/bin/python3 (the one python3-scapy and the checks run under) is
# missing, and sets $py to it.
py=${py:-/usr/bin/python3}
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark is not installed (apt-get install tshark)"
	exit 77
fi
if [ ! -x "$py" ]; then
	echo "SKIP: $py is missing"
	exit 77
fi
