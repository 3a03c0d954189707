#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Scale benchmark: how `rocewire-cap --report` (table) and `--report --json`
# grow with the number of queue pairs. Two captures of many small RC
# connections (rocewire-mkcap --connections N --host-pairs 8 --rounds 2:
# each connection one RDMA WRITE and its ACK, twice; 2 flows and 4 packets
# per connection), the second with 4x the connections of the first.
#
# usage: bench/bench_scale.sh [BUILD_DIR]
# env:   ROCEWIRE_BUILD_DIR  the build folder (if no argument; default ./build)
#        SCALE_CONNECTIONS   connections of the smaller capture (default 25000;
#                            the larger has 4x as many)
#        BENCH_RUNS          runs of each command; the fastest counts (default 1)
#        TMPDIR              where the captures are written (about 60 MB)
#
# Prints, for each capture and output: wall time, CPU time (user + system:
# what a shared machine's load does not inflate as much) and peak resident
# memory (/usr/bin/time, else python3's getrusage), per flow, and the ratio
# time(4x) / time(1x) of each output; then the goals of the 100k-connection
# capture (table <= 3 s and <= 512 MiB, JSON <= 5 s and <= 1 GiB, 4x the
# connections <= 5x the time) as met or missed. A benchmark, not a test: it
# exits 0 whatever the figures, and non-zero only when a command fails. The
# machine may be shared: run this when nothing else builds.
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
n1=${SCALE_CONNECTIONS:-25000}
runs=${BENCH_RUNS:-1}
mkcap=$build/tests/e2e/rocewire-mkcap
cap=$build/capture/rocewire-cap
bench=bench_scale.sh

for t in "$mkcap" "$cap"; do
	if [ ! -x "$t" ]; then
		echo "$bench: $t not found: build first, or pass the build folder" >&2
		exit 2
	fi
done
if ! "$mkcap" --help 2>&1 | grep -q -- '--connections'; then
	echo "$bench: $mkcap has no --connections" >&2
	exit 2
fi
n4=$((4 * n1))

# How to measure a run: GNU time prints "wall-seconds kilobytes cpu-seconds";
# without it, a python3 wrapper reads the same from wait4()'s rusage.
if [ -x /usr/bin/time ] && /usr/bin/time -f '%e %M' true >/dev/null 2>&1; then
	measure() {
		/usr/bin/time -o "$work/time" -f '%e %M %U %S' "$@" || return
		awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$work/time" >"$work/time.1"
		mv "$work/time.1" "$work/time"
	}
elif command -v python3 >/dev/null 2>&1; then
	measure() {
		python3 - "$work/time" "$@" <<'EOF'
import os, sys, time
out, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os.execvp(argv[0], argv)
_, status, ru = os.wait4(pid, 0)
with open(out, "w") as f:
    f.write("%.2f %d %.2f\n" % (time.monotonic() - t0, ru.ru_maxrss, ru.ru_utime + ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status) & 0xff)
EOF
	}
else
	echo "$bench: needs /usr/bin/time (Debian: time) or python3 to measure memory" >&2
	exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The flow limit, when this build has one: enough for every flow, so that
# nothing is left out of the analysis.
has_limit=0
"$cap" --help 2>&1 | grep -q -- '--max-flows' && has_limit=1
limit_for() {
	if [ "$has_limit" = 1 ]; then echo "--max-flows $((2 * $1))"; fi
}

# run N MODE: the best "seconds kilobytes cpu-seconds" of $runs runs of the report on
# the capture of N connections; MODE is table or json. A run that leaves
# flows out of the analysis measures something else: it fails the benchmark.
run() {
	json=
	if [ "$2" = json ]; then json=--json; fi
	best=
	i=0
	while [ "$i" -lt "$runs" ]; do
		# shellcheck disable=SC2046,SC2086 # options of zero, one or two words
		if ! measure "$cap" -r "$work/c$1.pcap" --report $json $(limit_for "$1") \
			>/dev/null 2>"$work/err"; then
			echo "$bench: failed: $cap -r c$1.pcap --report $json: $(tail -1 "$work/err")" >&2
			exit 1
		fi
		if grep -q 'incomplete report' "$work/err"; then
			echo "$bench: the report left flows out: $(grep 'incomplete report' "$work/err")" >&2
			exit 1
		fi
		read -r s kb cpu <"$work/time"
		if [ -z "$best" ] || awk -v a="$s" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
			best="$s $kb $cpu"
		fi
		i=$((i + 1))
	done
	echo "$best"
}

for n in "$n1" "$n4"; do
	"$mkcap" --connections "$n" --host-pairs 8 --rounds 2 -o "$work/c$n.pcap"
	cat "$work/c$n.pcap" >/dev/null # in the page cache before the first run
done
echo "captures: rocewire-mkcap --connections N --host-pairs 8 --rounds 2 (2N flows, 4N packets);" \
	"N = $n1: $(wc -c <"$work/c$n1.pcap") bytes, N = $n4: $(wc -c <"$work/c$n4.pcap") bytes"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores;" \
	"best of $runs run(s); output to /dev/null"

t1=$(run "$n1" table)
t4=$(run "$n4" table)
j1=$(run "$n1" json)
j4=$(run "$n4" json)

printf '%-18s %11s %8s %8s %8s %9s %9s %9s\n' "output" "connections" "flows" "wall s" "cpu s" \
	"peak MiB" "us/flow" "KiB/flow"
row() {
	echo "$3" | awk -v name="$1" -v n="$2" '{
		f = 2 * n
		printf "%-18s %11d %8d %8.2f %8.2f %9.1f %9.2f %9.2f\n", name, n, f, $1, $3, $2 / 1024,
			$1 / f * 1e6, $2 / f
	}'
}
row "--report (table)" "$n1" "$t1"
row "--report (table)" "$n4" "$t4"
row "--report --json" "$n1" "$j1"
row "--report --json" "$n4" "$j4"

# The growth from the smaller capture to the larger: the time ratios (wall
# and CPU; linear is 4.0), and what each added flow costs.
growth() {
	awk -v name="$1" -v n1="$n1" -v n4="$n4" -v a="$2" -v b="$3" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		printf "%-18s time(4x)/time(1x) %.2f (cpu %.2f); each added flow: %.2f us, %.2f KiB\n",
			name, y[1] / x[1], y[3] / x[3], (y[1] - x[1]) / (2 * (n4 - n1)) * 1e6,
			(y[2] - x[2]) / (2 * (n4 - n1))
	}'
}
growth "--report (table)" "$t1" "$t4"
growth "--report --json" "$j1" "$j4"

# The goals, set for 100k connections: only said when that is the larger
# capture.
if [ "$n4" -eq 100000 ]; then
	goal() {
		echo "$2" | awk -v name="$1" -v smax="$3" -v mmax="$4" -v r="$5" '{
			ok = $1 <= smax && $2 / 1024 <= mmax && r <= 5
			printf "goal %-18s <= %g s, <= %g MiB, ratio <= 5: %s (%.2f s, %.0f MiB, ratio %.2f)\n",
				name, smax, mmax, ok ? "met" : "MISSED", $1, $2 / 1024, r
		}'
	}
	ratio() { awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { printf "%.2f", b / a }'; }
	goal "--report (table)" "$t4" 3 512 "$(ratio "$t1" "$t4")"
	goal "--report --json" "$j4" 5 1024 "$(ratio "$j1" "$j4")"
fi
