#!/usr/bin/env bash
# The main job on built-in defaults: decode the sample captures and print
# what they hold (one line per packet, then the summary).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
status=0
for f in samples/*.pcap samples/*.pcapng; do
	[ -e "$f" ] || continue
	echo "== $f"
	"$BUILD_DIR/capture/rocewire-cap" -r "$f" || status=$?
done
# bad-icrc.pcap is meant to show failures: exit 1 there is the expected answer.
exit 0
