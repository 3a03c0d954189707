#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The main job on built-in defaults: decode every sample capture, show its
# first packets one line each, then its summary (packets per carrier and
# opcode, ICRC/VCRC results, decode errors). samples/bad-icrc.pcap is made
# of broken packets on purpose, so its errors are the expected answer.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
CAP="$BUILD_DIR/capture/rocewire-cap"
LINES=${LINES_PER_FILE:-6}
# Good captures first, the broken ones last.
files=$(ls samples/*.pcap samples/softroce/*.pcap 2>/dev/null | grep -v bad-icrc)
for f in $files samples/bad-icrc.pcap; do
	[ -e "$f" ] || continue
	echo "=== $f"
	"$CAP" -r "$f" 2>/dev/null | head -n "$LINES" || true
	echo "..."
	# The summary goes to stderr; exit status 1 means the file held bad
	# packets, which the listing above and the summary explain.
	"$CAP" -q -r "$f" 2>&1 || true
	echo
done

# The per-QP analysis of a real Soft-RoCE run with 10% loss on the wire.
f=samples/softroce/rc_write_loss.pcap
if [ -e "$f" ]; then
	echo "=== per-QP report of $f"
	"$CAP" -q -r "$f" --report 2>/dev/null || true
fi
