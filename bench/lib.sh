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

# one_run CMD...: one wall time in nanoseconds, as best_of takes it.
one_run() {
	if [ -n "${wall_tool:-}" ]; then
		# bench_measure=--cpu: user + system time instead of wall
		"$wall_tool" "${bench_measure:---wall}" "$@" || { echo "$bench: failed: $*" >&2; exit 1; }
		return
	fi
	t0=$(now)
	"$@" >/dev/null 2>&1 || { echo "$bench: failed: $*" >&2; exit 1; }
	t1=$(now)
	echo $((t1 - t0))
}

# paired K 'CMD_A' 'CMD_B': A and B run in turn K times (A B A B ..., after
# one unmeasured run of each); prints "MED_A MED_B RATIO MIN MAX": the
# median wall times (ns) and the median, smallest and largest of the K
# pairwise ratios A/B. Pairing keeps the ratio honest when the machine's
# speed drifts; the median keeps one lucky or slow run from moving it. The
# commands are word-split (no quoting inside them).
paired() {
	k=$1
	a=$2
	b=$3
	# shellcheck disable=SC2086
	one_run $a >/dev/null
	# shellcheck disable=SC2086
	one_run $b >/dev/null
	i=0
	pair_times= # (not "runs": the scripts' own variable; sh has no locals)
	while [ "$i" -lt "$k" ]; do
		# shellcheck disable=SC2086
		ta=$(one_run $a)
		# shellcheck disable=SC2086
		tb=$(one_run $b)
		pair_times="$pair_times$ta $tb
"
		i=$((i + 1))
	done
	printf '%s' "$pair_times" | awk '
		function med(v, n,   i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
			return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		}
		NF == 2 { n++; A[n] = $1; B[n] = $2; R[n] = $1 / $2; if (n == 1 || R[n] < lo) lo = R[n]; if (n == 1 || R[n] > hi) hi = R[n] }
		END { printf "%.0f %.0f %.4f %.4f %.4f\n", med(A, n), med(B, n), med(R, n), lo, hi }'
}

# pps NS: packets per second for $n packets in NS nanoseconds.
pps() { awk -v n="$n" -v ns="$1" 'BEGIN { printf "%.0f", n / (ns / 1e9) }'; }

# describe FILE: the capture and the CPU, the first lines of every report.
describe() {
	bytes=$(wc -c <"$1")
	echo "capture: $n packets, $bytes bytes ($(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.0f", b / n }') bytes/packet), rocewire-mkcap --mix $n${maxp:+ --max-payload $maxp}"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
}
