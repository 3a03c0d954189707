#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The Wireshark plugin's cost: tshark -r on a realistic RoCEv2 mix
# (rocewire-mkcap --mix, >= 200k packets) with and without the plugin, in
# the same run, alternating so that both see the same machine. Goal: with
# the plugin at most 1.3x the time without (the plugin decodes each frame
# once more with librocewire, ICRC included, and runs the analysis engine:
# a fraction of tshark's own per-packet work).
#
# usage: bench/bench_plugin.sh [BUILD_DIR]     (default ./build-ws, else ./build)
# env:   BENCH_PACKETS  packets in the capture (default 200000; below needs BENCH_SMALL=1)
#        BENCH_RUNS     runs of each mode, the best counts (default 3)
#        TMPDIR         where the capture is written (~350 MB)
# tshark runs as nobody when started as root (as root it ignores plugin
# folders) with a scratch HOME; output goes to /dev/null. Modes: summary
# lines (tshark -r FILE), and a display filter on a rocewire field (which
# makes tshark build the tree: -Y rocewire.icrc.bad, against -Y
# infiniband.invariant.crc without the plugin).
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-}}
if [ -z "$build" ]; then
	build=build-ws
	[ -d "$build/wireshark-plugin" ] || build=build
fi
n=${BENCH_PACKETS:-200000}
runs=${BENCH_RUNS:-3}
mkcap=$build/tests/e2e/rocewire-mkcap
plugins=$(cd "$build/wireshark-plugin/plugins" 2>/dev/null && pwd) || plugins=
bench=bench_plugin.sh
if [ ! -x "$mkcap" ] || [ -z "$plugins" ] || [ ! -f "$plugins"/*/epan/rocewire.so ]; then
	echo "$bench: $mkcap or the plugin in $build/wireshark-plugin/plugins is missing: build first" >&2
	exit 2
fi
if ! command -v tshark >/dev/null 2>&1; then
	echo "$bench: tshark is not installed" >&2
	exit 2
fi
if [ "$n" -lt 200000 ] && [ "${BENCH_SMALL:-0}" != 1 ]; then
	echo "$bench: BENCH_PACKETS=$n is below 200000 (set BENCH_SMALL=1 to allow)" >&2
	exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-plugin.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir "$work/home" "$work/none"
chmod 777 "$work/home"
file=$work/mix.pcap
"$mkcap" --mix "$n" -o "$file"
chmod 644 "$file"

as_user=
[ "$(id -u)" = 0 ] && as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
. "$(dirname "$0")/../tests/e2e/tshark_noheur.sh"

# ts_run PLUGIN_DIR ARGS...: one tshark run; prints "WALL_NS CPU_NS" (CPU:
# user + system of tshark, from /usr/bin/time: less disturbed than the wall
# clock by other work on a shared machine).
ts_run() {
	dir=$1
	shift
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	if ! $timer env HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" \
		WIRESHARK_PLUGIN_DIR="$dir" $as_user tshark -r "$file" $noheur "$@" >/dev/null 2>"$work/err"; then
		echo "$bench: tshark failed: $(head -3 "$work/err")" >&2
		exit 1
	fi
	t1=$(date +%s%N)
	cpu=0
	[ -n "$timer" ] && cpu=$(tail -1 "$work/err" | awk -F+ '{ printf "%.0f", ($1 + $2) * 1e9 }')
	echo "$((t1 - t0)) $cpu"
}

# measure LABEL ARGS_WITHOUT -- ARGS_WITH: best of $runs each, alternating.
measure() {
	label=$1
	shift
	without=
	while [ "$1" != -- ]; do without="$without $1"; shift; done
	shift
	w0= w1= c0= c1=
	i=0
	while [ "$i" -lt "$runs" ]; do
		# shellcheck disable=SC2086
		r0=$(ts_run "$work/none" $without)
		r1=$(ts_run "$plugins" "$@")
		w0=$(min "$w0" "${r0% *}") c0=$(min "$c0" "${r0#* }")
		w1=$(min "$w1" "${r1% *}") c1=$(min "$c1" "${r1#* }")
		i=$((i + 1))
	done
	awk -v l="$label" -v a="$w0" -v b="$w1" -v ca="$c0" -v cb="$c1" -v n="$n" 'BEGIN {
		r = ca > 0 ? cb / ca : b / a
		printf "%-36s %8.2f s %8.2f s %10.2f s %8.2f s %10.2fx %5.2fx  %s\n", l, a / 1e9,
		       ca / 1e9, b / 1e9, cb / 1e9, b / a, (ca > 0 ? cb / ca : 0),
		       (r <= 1.3 ? "ok (<= 1.3x)" : "OVER 1.3x") }'
}
min() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }

timer=
[ -x /usr/bin/time ] && timer="/usr/bin/time -f %U+%S"

echo "$bench: $n packets ($(du -h "$file" | cut -f1)), $(tshark --version 2>/dev/null | head -1), best of $runs"
echo "$bench: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs"
printf "%-36s %21s %23s %19s\n" "mode (best of each)" "without: wall, CPU" "with: wall, CPU" "ratio: wall, CPU"
measure "tshark -r (summary lines)" -- 
measure "tshark -r -Y (a field, tree built)" -Y infiniband.invariant.crc -- -Y rocewire.icrc.bad
