#!/bin/sh
# Report benchmark: `rocewire-cap -r FILE --report` (per-QP analysis and its
# table, ICRC verified) against `tshark -r FILE` on one capture of a realistic
# RoCEv2 mix (rocewire-mkcap --mix: ~60% 1-4 KiB data, ~30% ACKs and small
# packets, CNPs, PFC frames), in the same run.
#
# usage: bench/bench_report.sh [BUILD_DIR]
# env:   ROCEWIRE_BUILD_DIR  the build folder (if no argument; default ./build)
#        BENCH_PACKETS       packets in the capture (default 1000000; at least
#                            1000000 unless BENCH_SMALL=1, for trying it out)
#        BENCH_RUNS          runs of each rocewire-cap mode; the best counts (default 3)
#        TMPDIR              where the capture is written (about 1.7 GB)
#
# Prints packets/s and the ratio to tshark for: tshark -r FILE (1 run: it is
# slow), rocewire-cap -r FILE -q (decode and summary only), --report,
# --report --json and --html. When the test front end rocewire-report-driver
# is built, it also splits the per-packet cost into reading + decoding, the
# analysis engine, and the report's time series (the part the report adds).
# The machine may be shared: run this when nothing else builds.
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
n=${BENCH_PACKETS:-1000000}
runs=${BENCH_RUNS:-3}
mkcap=$build/tests/e2e/rocewire-mkcap
cap=$build/capture/rocewire-cap
driver=$build/tests/e2e/rocewire-report-driver

for t in "$mkcap" "$cap"; do
	if [ ! -x "$t" ]; then
		echo "bench_report.sh: $t not found: build first, or pass the build folder" >&2
		exit 2
	fi
done
if [ "$n" -lt 1000000 ] && [ "${BENCH_SMALL:-0}" != 1 ]; then
	echo "bench_report.sh: BENCH_PACKETS=$n is below 1000000 (set BENCH_SMALL=1 to allow)" >&2
	exit 2
fi
if ! "$cap" --help 2>&1 | grep -q -- '--report'; then
	echo "bench_report.sh: $cap has no --report" >&2
	exit 2
fi
have_tshark=1
command -v tshark >/dev/null 2>&1 || have_tshark=0

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-report.XXXXXX")
trap 'rm -rf "$work"' EXIT
file=$work/mix.pcap
"$mkcap" --mix "$n" -o "$file"

bench=bench_report.sh
. "$(dirname "$0")/lib.sh"

describe "$file"
cat "$file" >/dev/null # every contender starts with the file in the page cache

tshark_ns=
if [ "$have_tshark" = 1 ]; then
	tshark_ns=$(best_of 1 tshark -n -r "$file")
fi
quiet_ns=$(best_of "$runs" "$cap" -q -r "$file")
report_ns=$(best_of "$runs" "$cap" -r "$file" --report)
json_ns=$(best_of "$runs" "$cap" -r "$file" --report --json)
html_ns=$(best_of "$runs" "$cap" -r "$file" --html "$work/r.html")

printf '%-52s %12s %9s %10s\n' "command (output to /dev/null)" "packets/s" "seconds" "vs tshark"
row() {
	if [ -n "$tshark_ns" ]; then
		ratio=$(awk -v a="$tshark_ns" -v b="$2" 'BEGIN { printf "%.1fx", a / b }')
	else
		ratio="-"
	fi
	printf '%-52s %12s %9s %10s\n' "$1" "$(pps "$2")" \
		"$(awk -v ns="$2" 'BEGIN { printf "%.3f", ns / 1e9 }')" "$ratio"
}
if [ -n "$tshark_ns" ]; then
	row "tshark -n -r FILE (1 run)" "$tshark_ns"
else
	echo "tshark: not installed, no comparison"
fi
row "rocewire-cap -q -r FILE (best of $runs)" "$quiet_ns"
row "rocewire-cap -r FILE --report (best of $runs)" "$report_ns"
row "rocewire-cap -r FILE --report --json (best of $runs)" "$json_ns"
row "rocewire-cap -r FILE --html F (best of $runs)" "$html_ns"
if command -v /usr/bin/time >/dev/null 2>&1; then
	rss=$(/usr/bin/time -f %M "$cap" -r "$file" --report 2>&1 >/dev/null | tail -1)
	echo "rocewire-cap --report: maximum resident set size $rss kB"
fi
echo "HTML page: $(wc -c <"$work/r.html") bytes"

# The cost of each layer per packet, from the test front end's own clock
# (reading and decoding, the analysis engine, the report's series).
if [ -x "$driver" ]; then
	layer() {
		best=
		i=0
		while [ "$i" -lt "$runs" ]; do
			s=$("$driver" --time --none --mode "$1" "$file" 2>&1 >/dev/null |
				sed -n 's/.* in \([0-9.]*\) s:.*/\1/p')
			if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then
				best=$s
			fi
			i=$((i + 1))
		done
		echo "$best"
	}
	dec=$(layer decode)
	ana=$(layer analyze)
	rep=$(layer report)
	awk -v n="$n" -v d="$dec" -v a="$ana" -v r="$rep" 'BEGIN {
		printf "per packet (rocewire-report-driver, best of runs): read+decode %.0f ns, ", d / n * 1e9
		printf "analysis engine +%.0f ns, report series +%.0f ns (total %.0f ns)\n",
			(a - d) / n * 1e9, (r - a) / n * 1e9, r / n * 1e9
	}'
fi
