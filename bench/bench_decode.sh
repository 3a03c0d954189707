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
#        BENCH_RUNS          paired runs of each comparison (default 5, at least 5
#                            unless BENCH_SMALL=1); medians count
#        BENCH_BEFORE        another rocewire-cap (an earlier build) to compare
#                            each mode with, in the same paired way
#        TMPDIR              where the capture is written (about 350 MB)
#
# Measures: rocewire-cap -r FILE (one line per packet, ICRC verified), -q
# (summary only, ICRC verified), -v (every field) and --json, each run in
# turn with tshark -n -r FILE (summary lines) BENCH_RUNS times: packets/s
# from the median wall time, and the median of the pairwise tshark/ours
# ratios with their spread (smallest-largest). With BENCH_BEFORE, each mode
# again against that binary: after/before wall-time ratios (below 1:
# faster). Output goes to /dev/null. The machine has 2 cores shared with
# others: run this when nothing else builds.
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
n=${BENCH_PACKETS:-200000}
runs=${BENCH_RUNS:-5}
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
if [ "$runs" -lt 5 ] && [ "${BENCH_SMALL:-0}" != 1 ]; then
	echo "bench_decode.sh: BENCH_RUNS=$runs is below 5 (set BENCH_SMALL=1 to allow)" >&2
	exit 2
fi
before=${BENCH_BEFORE:-}
if [ -n "$before" ] && [ ! -x "$before" ]; then
	echo "bench_decode.sh: BENCH_BEFORE=$before is not an executable" >&2
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

printf '%-40s %12s %10s %22s\n' "command (output to /dev/null)" "packets/s" "seconds" "tshark/ours [spread]"
# mode LABEL 'TSHARK_ARGS' ARGS...: one rocewire-cap mode against tshark
# doing the same job (summary lines, -V every field, -T json)
mode() {
	label=$1
	targs=$2
	shift 2
	if [ "$have_tshark" = 1 ]; then
		set -- $(paired "$runs" "$cap -r $file $*" "tshark -n $targs -r $file")
		ratio=$(awk -v r="$3" -v lo="$4" -v hi="$5" 'BEGIN { printf "%.1fx [%.1f-%.1f]", 1 / r, 1 / hi, 1 / lo }')
		[ -n "$targs" ] || tshark_ns=$2
	else
		set -- $(paired "$runs" "$cap -r $file $*" "$cap -r $file $*")
		ratio="- (no tshark)"
	fi
	printf '%-40s %12s %10s %22s\n' "$label" "$(pps "$1")" \
		"$(awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }')" "$ratio"
}
tshark_ns=
mode "rocewire-cap -r FILE" ""
mode "rocewire-cap -r FILE -q" "" -q
mode "rocewire-cap -r FILE -v (vs tshark -V)" -V -v
mode "rocewire-cap -r FILE --json (vs -T json)" "-T json" --json
if [ -n "${tshark_ns:-}" ]; then
	printf '%-40s %12s %10s\n' "tshark -n -r FILE (median)" "$(pps "$tshark_ns")" \
		"$(awk -v ns="$tshark_ns" 'BEGIN { printf "%.3f", ns / 1e9 }')"
fi
if [ -n "$before" ]; then
	echo "against BENCH_BEFORE=$before (wall time after/before, median [spread] of $runs pairs):"
	for args in "" -q -v --json; do
		set -- $(paired "$runs" "$cap -r $file $args" "$before -r $file $args")
		printf '  %-32s %.3f s / %.3f s = %.2fx [%.2f-%.2f]\n' "rocewire-cap -r FILE $args" \
			"$(awk -v ns="$1" 'BEGIN { print ns / 1e9 }')" "$(awk -v ns="$2" 'BEGIN { print ns / 1e9 }')" "$3" "$4" "$5"
	done
fi
