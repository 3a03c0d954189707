#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Independent ICRC cross-check with Scapy (see scapy_icrc.py).
# Env: ROCEWIRE_CAP (path of rocewire-cap). Exit 77 when Scapy is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cap=${ROCEWIRE_CAP:-${1:-}}
py=/usr/bin/python3
if [ -z "$cap" ] || [ ! -x "$cap" ]; then
	echo "FAIL: rocewire-cap not found: set ROCEWIRE_CAP or pass its path" >&2
	exit 1
fi
if [ ! -x "$py" ]; then
	echo "SKIP: $py is missing (the Debian python3 with python3-scapy is needed)"
	exit 77
fi
if ! "$py" -c 'import scapy.contrib.roce' 2>/dev/null; then
	echo "SKIP: Scapy is missing for $py: apt-get install python3-scapy"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-scapy.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$py" "$here/scapy_icrc.py" "$cap" "$work"
