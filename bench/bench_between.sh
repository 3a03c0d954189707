#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Two-tap benchmark: `rocewire-cap --between A B` (every packet of both taps
# decoded, matched by identity, the comparison printed) against
# `rocewire-cap -r A --report` on tap A, in the same run, alternating.
# Tap A is rocewire-mkcap --mix N; tap B is made from it by rocewire-mktaps
# (drops, CE marks, TTL and MAC rewrites, delay and jitter, reordering,
# duplicates: the e2e test's model).
#
# usage: bench/bench_between.sh [BUILD_DIR]
# env:   ROCEWIRE_BUILD_DIR  the build folder (if no argument; default ./build)
#        BENCH_PACKETS       packets of tap A (default 2000000)
#        BENCH_MAX_PAYLOAD   --max-payload of the mix (default 256)
#        BENCH_RUNS          alternating runs (default 5; the median counts)
#        TMPDIR              where the taps are written (about 0.9 GB by default)
#
# Prints matched packets per second of --between (median wall time, with the
# smallest and largest of the runs' ratios to --report), and packets per
# second of each tap read. Target: 2 M matched packets/s on one core
# (--between reads both files on one thread).
set -eu
bench=bench_between.sh
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
n=${BENCH_PACKETS:-2000000}
maxp=${BENCH_MAX_PAYLOAD:-256}
runs=${BENCH_RUNS:-5}
mkcap=$build/tests/e2e/rocewire-mkcap
mktaps=$build/tests/e2e/rocewire-mktaps
cap=$build/capture/rocewire-cap
for t in "$mkcap" "$mktaps" "$cap"; do
	if [ ! -x "$t" ]; then
		echo "$bench: $t not found: build first, or pass the build folder" >&2
		exit 2
	fi
done
here=$(dirname "$0")
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
wall_tool=
[ -x "$build/bench/bench-stages" ] && wall_tool=$build/bench/bench-stages

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-between.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$mkcap" --mix "$n" --max-payload "$maxp" -o "$work/mix.pcap" >/dev/null
"$mktaps" "$work/mix.pcap" "$work/a.pcap" "$work/b.pcap" "$work/truth.json" >/dev/null
rm -f "$work/mix.pcap"
describe "$work/a.pcap"
json=$("$cap" --between "$work/a.pcap" "$work/b.pcap" --json)
matched=$(printf '%s' "$json" | awk -F'[:,]' '/^  "matched"/ { gsub(/ /, "", $2); print $2; exit }')
fa=$(printf '%s' "$json" | awk -F'[:,]' '/"frames"/ { gsub(/ /, "", $2); print $2; exit }')
fb=$(printf '%s' "$json" | awk -F'[:,]' '/"frames"/ { gsub(/ /, "", $2); v = $2 } END { print v }')
echo "taps: A $fa frames, B $fb frames, $matched matched"
mps() { awk -v m="$1" -v ns="$2" 'BEGIN { printf "%.2f", m / (ns / 1e9) / 1e6 }'; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }'; }
# The default window (10 ms) holds a third of the mix (2 M packets in about
# 60 ms); 1 ms far less; 1 s every packet of both files, the matcher's
# memory as large as the files: the worst case, for a long window at line
# rate.
for win in "" 1000000 1000000000; do
	opt=${win:+--window $win}
	# shellcheck disable=SC2086
	set -- $(paired "$runs" "$cap --between $work/a.pcap $work/b.pcap $opt" "$cap -r $work/a.pcap --report")
	med_btw=$1 med_rep=$2 ratio=$3 lo=$4 hi=$5
	echo "--between A B ${opt:-(window 10 ms, the default)}: median $(secs "$med_btw") s wall, $(mps "$matched" "$med_btw") M matched/s, $(mps $((fa + fb)) "$med_btw") M packets read/s"
	echo "  -r A --report: median $(secs "$med_rep") s wall, $(mps "$fa" "$med_rep") M packets/s"
	echo "  --between / --report wall time: median ${ratio}x (runs $lo-$hi, $runs alternating pairs)"
	if [ -n "$wall_tool" ]; then
		# CPU time (user + system; --between runs on one thread, --report
		# on several): medians of alternating runs as for the wall times
		# shellcheck disable=SC2086
		set -- $(bench_measure=--cpu paired "$runs" "$cap --between $work/a.pcap $work/b.pcap $opt" "$cap -r $work/a.pcap --report")
		echo "  CPU time, medians: --between $(secs "$1") s ($(mps "$matched" "$1") M matched/s), --report $(secs "$2") s ($(mps "$fa" "$2") M packets/s)"
	fi
done
