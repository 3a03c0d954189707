# SPDX-License-Identifier: BSD-3-Clause
# Shared by the benchmark scripts (sourced, POSIX sh). Expects $bench (the
# script's name, for messages) and $n (packets in the capture).

now() { date +%s%N; }

# best_of K CMD...: the best wall time of K runs in nanoseconds, output to
# /dev/null. The benchmark captures hold no bad packet, so any non-zero exit
# status of rocewire-cap is a failure. With $wall_tool (bench-stages, when
# the script found one) the time is taken from fork to exit by that tool;
# without, by `date` before and after (which adds date's own start-up).
best_of() {
	k=$1
	shift
	best=
	i=0
	while [ "$i" -lt "$k" ]; do
		if [ -n "${wall_tool:-}" ]; then
			if ! d=$("$wall_tool" --wall "$@"); then
				echo "$bench: failed: $*" >&2
				exit 1
			fi
		else
			t0=$(now)
			if ! "$@" >/dev/null 2>&1; then
				echo "$bench: failed: $*" >&2
				exit 1
			fi
			t1=$(now)
			d=$((t1 - t0))
		fi
		if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
		i=$((i + 1))
	done
	echo "$best"
}

# pps NS: packets per second for $n packets in NS nanoseconds.
pps() { awk -v n="$n" -v ns="$1" 'BEGIN { printf "%.0f", n / (ns / 1e9) }'; }

# describe FILE: the capture and the CPU, the first lines of every report.
describe() {
	bytes=$(wc -c <"$1")
	echo "capture: $n packets, $bytes bytes ($(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.0f", b / n }') bytes/packet), rocewire-mkcap --mix $n${maxp:+ --max-payload $maxp}"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
}
