#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What the simulated congestion costs the generator: the incast sample
# (samples/scenarios/incast-dcqcn.yaml: switch port, RED/ECN, CNPs, DCQCN)
# to net_null against the same flows with `congestion: {mode: off}`, in the
# same run, one worker lcore each, no pacing (--pace none: as fast as the
# model and the TX path go). Goal (issue 10): >= 0.8x.
#
# usage: bench/bench_gen_cc.sh [BUILD_DIR] [PACKETS]   (default build, 2000000)
# Each rate is packets over the run's wall time from the summary; the best
# of BENCH_ROUNDS (default 5) alternating rounds.
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
n=${2:-2000000}
rounds=${BENCH_ROUNDS:-5}
gen=$build/gen/rocewire-gen
src=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$gen" ] || { echo "bench_gen_cc.sh: $gen not found: build first" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-gencc.XXXXXX")
trap 'rm -rf "$work"' EXIT
# no duration: the packet limit ends both runs at the same count
sed -e '/^duration:/d' -e '/^  outputs:/d' "$src/samples/scenarios/incast-dcqcn.yaml" >"$work/on.yaml"
sed -e 's/^  mode: simulated/  mode: off/' "$work/on.yaml" >"$work/off.yaml"
EAL="--no-huge -m 1024 --no-pci --no-shconf -l 0-1 --log-level=*:error --vdev=net_null0"
rate() {
	# shellcheck disable=SC2086
	"$gen" $EAL -- --pace none -n "$n" --no-status -Q -j "$work/s.json" "$1" >/dev/null 2>&1 ||
		{ echo "bench_gen_cc.sh: rocewire-gen failed on $1" >&2; exit 1; }
	/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mpps"])' "$work/s.json"
}
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a ? b : a) }'; }
# The two alternate, round after round, so that a load that comes and goes
# on a shared machine falls on both alike; the best round of each counts.
off=0 on=0
for i in $(seq "$rounds"); do
	off=$(max "$off" "$(rate "$work/off.yaml")")
	on=$(max "$on" "$(rate "$work/on.yaml")")
done
printf '| incast-dcqcn to net_null, %s packets | Mpps |\n| --- | --- |\n' "$n"
printf '| congestion off | %.3f |\n| simulated switch + DCQCN | %.3f |\n' "$off" "$on"
awk -v a="$on" -v b="$off" 'BEGIN { printf "ratio: %.2fx (goal >= 0.8x)\n", a / b }'
