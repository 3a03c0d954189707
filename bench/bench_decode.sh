#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Decode benchmark: rocewire-cap against tshark on one capture of a realistic
# RoCEv2 mix (rocewire-mkcap --mix: ~60% 1-4 KiB WRITE/SEND/READ-response
# data, ~30% ACKs and small packets, CNPs, PFC frames), all in the same run.
#
# usage: bench/bench_decode.sh [BUILD_DIR]
# env:   ROCEWIRE_BUILD_DIR  the build folder (if no argument; default ./build)
#        BENCH_PACKETS       packets in the capture (default 200000, at least 200000
#                            unless BENCH_SMALL=1, for trying the script out)
#        BENCH_MAX_PAYLOAD   --max-payload of the mix (default 4096: 1.65 KB per
#                            packet on average; 470: 389 bytes)
#        BENCH_RUNS          runs of each rocewire-cap mode; the best counts (default 3)
#        TMPDIR              where the capture is written (about 350 MB)
#
# Measures: tshark -r FILE (summary lines, 1 run: it is slow), rocewire-cap -r
# FILE (one line per packet, ICRC verified), rocewire-cap -r FILE -q (summary
# only, ICRC verified), rocewire-cap -r FILE --json. Output goes to
# /dev/null. Prints packets/s and the speed-up over tshark for each. The
# machine has 2 cores shared with others: run this when nothing else builds.
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
n=${BENCH_PACKETS:-200000}
runs=${BENCH_RUNS:-3}
maxp=${BENCH_MAX_PAYLOAD:-4096}
mkcap=$build/tests/e2e/rocewire-mkcap
cap=$build/capture/rocewire-cap

for t in "$mkcap" "$cap"; do
	if [ ! -x "$t" ]; then
		echo "bench_decode.sh: $t not found: build first, or pass the build folder" >&2
		exit 2
	fi
done
if [ "$n" -lt 200000 ] && [ "${BENCH_SMALL:-0}" != 1 ]; then
	echo "bench_decode.sh: BENCH_PACKETS=$n is below 200000 (set BENCH_SMALL=1 to allow)" >&2
	exit 2
fi
have_tshark=1
command -v tshark >/dev/null 2>&1 || have_tshark=0

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
file=$work/mix.pcap
"$mkcap" --mix "$n" --max-payload "$maxp" -o "$file"

bench=bench_decode.sh
. "$(dirname "$0")/lib.sh"
# Wall times from fork to exit (bench-stages --wall), not with date around.
wall_tool=
[ -x "$build/bench/bench-stages" ] && wall_tool=$build/bench/bench-stages

describe "$file"
# A first read so that every contender starts with the file in the page cache.
cat "$file" >/dev/null

tshark_ns=
if [ "$have_tshark" = 1 ]; then
	tshark_ns=$(best_of 1 tshark -n -r "$file")
fi
line_ns=$(best_of "$runs" "$cap" -r "$file")
quiet_ns=$(best_of "$runs" "$cap" -r "$file" -q)
json_ns=$(best_of "$runs" "$cap" -r "$file" --json)

printf '%-44s %14s %10s %12s\n' "command (output to /dev/null)" "packets/s" "seconds" "vs tshark"
row() {
	label=$1
	ns=$2
	if [ -n "$tshark_ns" ]; then
		ratio=$(awk -v a="$tshark_ns" -v b="$ns" 'BEGIN { printf "%.1fx", a / b }')
	else
		ratio="-"
	fi
	printf '%-44s %14s %10s %12s\n' "$label" "$(pps "$ns")" \
		"$(awk -v ns="$ns" 'BEGIN { printf "%.3f", ns / 1e9 }')" "$ratio"
}
if [ -n "$tshark_ns" ]; then
	row "tshark -r FILE (1 run)" "$tshark_ns"
else
	echo "tshark: not installed, no comparison"
fi
row "rocewire-cap -r FILE (best of $runs)" "$line_ns"
row "rocewire-cap -r FILE -q (best of $runs)" "$quiet_ns"
row "rocewire-cap -r FILE --json (best of $runs)" "$json_ns"
