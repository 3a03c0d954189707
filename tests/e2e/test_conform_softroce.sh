#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Go-back-N and CNP conformance on the real Soft-RoCE captures: the engine's
# verdicts against an independent checker over tshark's decode
# (conform_softroce.py says what is checked).
# env: ROCEWIRE_NOTES, ROCEWIRE_SOURCE_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$here/../..}
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark not found (scripts/install-deps.sh installs it)"
	exit 77
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" "$here/conform_softroce.py" "$ROCEWIRE_NOTES" "$src"/samples/softroce/*.pcap
