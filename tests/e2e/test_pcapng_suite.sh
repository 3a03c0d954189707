#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# pcapng as its standard defines it: the cases of the public pcapng test
# suite (pcapng-test-generator) and a few more, in both byte orders, with
# RoCEv2 and InfiniBand frames, read by rocewire-cap and by tshark, which
# must agree packet by packet (interface, link type, time, lengths, bytes);
# damaged files answered in one line. See pcapng_suite.py.
#
# Environment: ROCEWIRE_CAP (the rocewire-cap binary), ROCEWIRE_SOURCE_DIR.
# Exit 77 (skip), saying why, when either, python3 or tshark is missing.
set -u

CAP=${ROCEWIRE_CAP:-}
SRC=${ROCEWIRE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ -z "$CAP" ] || [ ! -x "$CAP" ]; then
	echo "SKIP: ROCEWIRE_CAP is not set to the rocewire-cap binary (got '${CAP}')"
	exit 77
fi
PY=$(command -v python3 || true)
if [ -z "$PY" ]; then
	echo "SKIP: python3 is needed to write the test captures"
	exit 77
fi
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark (Debian package tshark) is needed to cross-check the pcapng cases"
	exit 77
fi

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$PY" "$(dirname "$0")/pcapng_suite.py" "$CAP" "$SRC" "$T"
