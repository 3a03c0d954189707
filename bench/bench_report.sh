#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Report benchmark: `rocewire-cap -r FILE --report` (per-QP analysis and its
# table, ICRC verified) against `tshark -n -r FILE` on one capture of a
# realistic RoCEv2 mix (rocewire-mkcap --mix: WRITE/SEND/READ data, ACKs and
# small packets, CNPs, PFC frames), in the same run, with the cost of each
# stage per packet.
#
# usage: bench/bench_report.sh [BUILD_DIR]
# env:   ROCEWIRE_BUILD_DIR  the build folder (if no argument; default ./build)
#        BENCH_BASELINE      an older build folder: its rocewire-cap (and its
#                            bench-stages, if it has one) measured in the same
#                            run, as "before"
#        BENCH_PACKETS       packets in the capture (default 200000; at least
#                            200000 unless BENCH_SMALL=1, for trying it out)
#        BENCH_MAX_PAYLOAD   --max-payload of the mix (default 470: 389 bytes
#                            per packet on average; 4096: the 1.65 KB mix)
#        BENCH_RUNS          runs of each measurement; the best counts (default 5)
#        TMPDIR              where the capture is written (78 MB by default)
#
# Prints, for the build (and the baseline):
#  - per packet, on one thread, by CPU time (bench-stages, and rocewire-cap
#    with ROCEWIRE_CAP_THREADS=1): read, + decode with the ICRC, + the
#    analysis engine, + the report (time series, counters, tables, start-up);
#    the baseline's read is libpcap's (bench-stages --libpcap); and the CPU
#    work of the reader thread's hand-over (packing and unpacking);
#  - packets/s and the ratio to tshark of rocewire-cap --report (as it
#    chooses, then forced on one thread and with the reader thread), -q,
#    --report --json and --html, by wall time.
# The machine may be shared: run this when nothing else builds; the CPU-time
# stages move less than the wall times when it is not.
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
base=${BENCH_BASELINE:-}
n=${BENCH_PACKETS:-200000}
maxp=${BENCH_MAX_PAYLOAD:-470}
runs=${BENCH_RUNS:-5}
mkcap=$build/tests/e2e/rocewire-mkcap
cap=$build/capture/rocewire-cap

for t in "$mkcap" "$cap"; do
	if [ ! -x "$t" ]; then
		echo "bench_report.sh: $t not found: build first, or pass the build folder" >&2
		exit 2
	fi
done
if [ -n "$base" ] && [ ! -x "$base/capture/rocewire-cap" ]; then
	echo "bench_report.sh: BENCH_BASELINE=$base has no capture/rocewire-cap" >&2
	exit 2
fi
if [ "$n" -lt 200000 ] && [ "${BENCH_SMALL:-0}" != 1 ]; then
	echo "bench_report.sh: BENCH_PACKETS=$n is below 200000 (set BENCH_SMALL=1 to allow)" >&2
	exit 2
fi
have_tshark=1
command -v tshark >/dev/null 2>&1 || have_tshark=0

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-report.XXXXXX")
trap 'rm -rf "$work"' EXIT
file=$work/mix.pcap
"$mkcap" --mix "$n" --max-payload "$maxp" -o "$file"

bench=bench_report.sh
. "$(dirname "$0")/lib.sh"
# Wall times from fork to exit (bench-stages --wall), not with date around.
wall_tool=
[ -x "$build/bench/bench-stages" ] && wall_tool=$build/bench/bench-stages

describe "$file"
cat "$file" >/dev/null # every contender starts with the file in the page cache

# cpu_ns DIR CMD...: the least CPU time (user + system, all threads) of
# $runs runs, in nanoseconds, as DIR/bench/bench-stages --cpu measures it.
cpu_ns() {
	st=$1/bench/bench-stages
	shift
	best=
	i=0
	while [ "$i" -lt "$runs" ]; do
		ns=$("$st" --cpu "$@")
		if [ -z "$best" ] || [ "$ns" -lt "$best" ]; then best=$ns; fi
		i=$((i + 1))
	done
	echo "$best"
}

# stages DIR [--libpcap]: "read decode engine report pack" ns/packet, the
# first four cumulative, one thread; pack (decode, then packing for the
# reader thread's hand-over and unpacking) is "-" where bench-stages does not
# measure it; empty when DIR has no bench-stages.
stages() {
	dir=$1
	shift
	if [ ! -x "$dir/bench/bench-stages" ]; then
		echo ""
		return
	fi
	s=$("$dir/bench/bench-stages" --runs "$runs" "$@" "$file" |
		awk '{ v[$1] = $2 } END { printf "%s %s %s ", v["read"], v["decode"], v["engine"]; p = v["pack"] }
		     END { pack = p == "" ? "-" : p; print pack }')
	one=$(cpu_ns "$dir" env ROCEWIRE_CAP_THREADS=1 "$dir/capture/rocewire-cap" -r "$file" --report)
	echo "$s" | awk -v ns="$one" -v n="$n" '{ printf "%s %s %s %.1f %s", $1, $2, $3, ns / n, $4 }'
}

tshark_ns=
if [ "$have_tshark" = 1 ]; then
	tshark_ns=$(best_of 1 tshark -n -r "$file")
fi

after_st=$(stages "$build")
before_st=
before_coarse=0
if [ -n "$base" ]; then
	before_st=$(stages "$base" --libpcap)
	if [ -z "$before_st" ] && [ -x "$build/bench/bench-stages" ]; then
		# A baseline older than bench-stages: its stages measured from
		# outside, by CPU time on one thread: libpcap's read (what it used),
		# then its `-q` (read, decode with the ICRC, summary), then its
		# --report; the engine and the report cannot be told apart there.
		rd=$("$build/bench/bench-stages" --runs "$runs" --libpcap "$file" | awk '$1 == "read" { print $2 }')
		q=$(cpu_ns "$build" "$base/capture/rocewire-cap" -q -r "$file")
		r=$(cpu_ns "$build" "$base/capture/rocewire-cap" -r "$file" --report)
		before_st=$(awk -v rd="$rd" -v q="$q" -v r="$r" -v n="$n" \
			'BEGIN { printf "%s %.1f - %.1f -", rd, q / n, r / n }')
		before_coarse=1
	fi
fi

# Wall times, the two builds interleaved run by run.
report_ns=
base_ns=
i=0
while [ "$i" -lt "$runs" ]; do
	t=$(best_of 1 "$cap" -r "$file" --report)
	if [ -z "$report_ns" ] || [ "$t" -lt "$report_ns" ]; then report_ns=$t; fi
	if [ -n "$base" ]; then
		t=$(best_of 1 "$base/capture/rocewire-cap" -r "$file" --report)
		if [ -z "$base_ns" ] || [ "$t" -lt "$base_ns" ]; then base_ns=$t; fi
	fi
	i=$((i + 1))
done
one_ns=$(ROCEWIRE_CAP_THREADS=1 best_of "$runs" "$cap" -r "$file" --report)
two_ns=$(ROCEWIRE_CAP_THREADS=2 best_of "$runs" "$cap" -r "$file" --report)
quiet_ns=$(best_of "$runs" "$cap" -q -r "$file")
json_ns=$(best_of "$runs" "$cap" -r "$file" --report --json)
html_ns=$(best_of "$runs" "$cap" -r "$file" --html "$work/r.html")

if [ -n "$after_st" ]; then
	echo
	echo "per packet, one thread, CPU time (ns; each stage adds to the ones above):"
	printf '%-44s %10s %10s\n' "stage" "before" "after"
	for k in 1 2 3 4; do
		name=$(echo "read|+ decode, ICRC verified|+ analysis engine|+ report (series, counters, output, start-up)" | cut -d'|' -f"$k")
		a=$(echo "$after_st" | awk -v k="$k" '{ prev = k > 1 ? $(k - 1) : 0; printf "%.0f", $k - prev }')
		b=-
		if [ -n "$before_st" ]; then
			b=$(echo "$before_st" | awk -v k="$k" '
				$k == "-" { print "-"; next }
				{ prev = 0; for (j = k - 1; j >= 1; j--) if ($j != "-") { prev = $j; break }
				  printf "%.0f", $k - prev }')
		fi
		printf '%-44s %10s %10s\n' "$name" "$b" "$a"
	done
	b=-
	[ -n "$before_st" ] && b=$(echo "$before_st" | awk '{ printf "%.0f", $4 }')
	printf '%-44s %10s %10s\n' "total on one thread" "$b" "$(echo "$after_st" | awk '{ printf "%.0f", $4 }')"
	# The reader thread's hand-over, as CPU work on one thread (without the
	# moves between cores): decode + pack + unpack, less decode.
	a=$(echo "$after_st" | awk '$5 == "-" { print "-"; next } { printf "%.0f", $5 - $2 }')
	b=-
	[ -n "$before_st" ] && b=$(echo "$before_st" | awk '$5 == "-" { print "-"; next } { printf "%.0f", $5 - $2 }')
	printf '%-44s %10s %10s\n' "(hand-over to the engine's thread: pack+unpack)" "$b" "$a"
	[ -z "$before_st" ] && [ -n "$base" ] && echo "(the baseline has no bench-stages)"
	[ "$before_coarse" = 1 ] && echo "(before: measured from outside, its decode row with -q's summary, its report row with the engine)"
fi

echo
printf '%-54s %12s %9s %10s\n' "command (output to /dev/null)" "packets/s" "seconds" "vs tshark"
row() {
	if [ -n "$tshark_ns" ]; then
		ratio=$(awk -v a="$tshark_ns" -v b="$2" 'BEGIN { printf "%.1fx", a / b }')
	else
		ratio="-"
	fi
	printf '%-54s %12s %9s %10s\n' "$1" "$(pps "$2")" \
		"$(awk -v ns="$2" 'BEGIN { printf "%.3f", ns / 1e9 }')" "$ratio"
}
if [ -n "$tshark_ns" ]; then
	row "tshark -n -r FILE (1 run)" "$tshark_ns"
else
	echo "tshark: not installed, no comparison"
fi
if [ -n "$base_ns" ]; then
	row "before: rocewire-cap -r FILE --report (best of $runs)" "$base_ns"
fi
row "rocewire-cap -r FILE --report (best of $runs)" "$report_ns"
row "  the same on one thread (ROCEWIRE_CAP_THREADS=1)" "$one_ns"
row "  the same with the reader thread (=2)" "$two_ns"
row "rocewire-cap -q -r FILE (best of $runs)" "$quiet_ns"
row "rocewire-cap -r FILE --report --json (best of $runs)" "$json_ns"
row "rocewire-cap -r FILE --html F (best of $runs)" "$html_ns"
if [ -n "$base_ns" ]; then
	echo "--report: $(awk -v a="$base_ns" -v b="$report_ns" 'BEGIN { printf "%.2fx", a / b }') the baseline's packet rate"
fi
if command -v /usr/bin/time >/dev/null 2>&1; then
	rss=$(/usr/bin/time -f %M "$cap" -r "$file" --report 2>&1 >/dev/null | tail -1)
	echo "rocewire-cap --report: maximum resident set size $rss kB"
fi
echo "HTML page: $(wc -c <"$work/r.html") bytes"
