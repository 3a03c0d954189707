#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The main job on built-in defaults: rocewire-gen runs its default scenario
# (a clean RC mix of RDMA WRITE, READ and SEND between two hosts, both ends
# of every conversation, every ICRC valid) through DPDK's net_pcap into a
# pcap, then rocewire-cap analyses that capture per queue pair: the report
# on the terminal and as an HTML page.
#   OUT_DIR   where the files go (default: demo-out)
#   BUILD_DIR the build (default: build)
# Without the generator (DPDK not built) it decodes the sample captures
# instead (scripts/demo-samples.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT_DIR=${OUT_DIR:-demo-out}
GEN="$BUILD_DIR/gen/rocewire-gen"
CAP="$BUILD_DIR/capture/rocewire-cap"
if [ ! -x "$GEN" ]; then
	echo "demo: $GEN is not built (DPDK off); decoding the sample captures instead" >&2
	exec scripts/demo-samples.sh
fi
mkdir -p "$OUT_DIR"
pcap="$OUT_DIR/rocewire-gen.pcap"
echo "=== rocewire-gen: the default scenario into $pcap"
"$GEN" -w "$pcap" --summary-json "$OUT_DIR/summary.json"
echo
echo "=== rocewire-cap --report --html $OUT_DIR/report.html $pcap"
# One pass writes the report on the terminal and the HTML page (and the
# capture's summary once). Exit status 1 would mean a bad ICRC or a packet
# it could not decode: the default scenario has none, so any such status is
# an error here.
"$CAP" -q -r "$pcap" --report --html "$OUT_DIR/report.html"
echo
echo "files: $pcap (the capture), $OUT_DIR/summary.json (what the generator sent),"
echo "       $OUT_DIR/report.html (the per-QP report: open it in a browser)"
