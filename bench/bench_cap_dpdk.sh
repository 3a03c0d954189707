#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap's DPDK source into a file on tmpfs, one core (issue 13's goal:
# >= 10 Mpps of 64-byte frames):
#  1. net_null (64-byte frames as fast as the PMD makes them), --all: the
#     source and the writer alone;
#  2. net_pcap replaying a RoCEv2 sample from memory (infinite_rx), the
#     default filter and every ICRC verified.
# dpdk-dumpcap is the peer to compare with, but it attaches as a secondary
# process to a primary's shared memory, which DPDK supports only on
# hugepages: this machine has none (--no-huge), so it cannot run here.
#
# usage: bench/bench_cap_dpdk.sh [BUILD_DIR] [SECONDS]   (default build 3)
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
secs=${2:-3}
cap=$build/capture/rocewire-cap
[ -x "$build/capture/rocewire-cap-dpdk" ] || { echo "bench_cap_dpdk.sh: no rocewire-cap-dpdk in $build (DPDK off?)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
out=${TMPDIR_SHM:-/dev/shm}/rw-bench-capdpdk.$$.pcap
trap 'rm -f "$out"' EXIT
eal="-l 0 --no-huge -m 1024 --no-pci --no-shconf --log-level=*:error"
run() {
	label=$1
	shift
	"$cap" "$@" --duration "$secs" -w "$out" -q 2>"$out.err" || [ $? -le 1 ]
	n=$(sed -n 's/^rocewire-cap: wrote \([0-9]*\) packets to .*/\1/p' "$out.err")
	printf '%-58s %12s packets %8.2f Mpps\n' "$label" "${n:-?}" "$(awk -v n="${n:-0}" -v s="$secs" 'BEGIN { print n / s / 1e6 }')"
	rm -f "$out" "$out.err"
}
echo "rocewire-cap -i dpdk:... -w $(dirname "$out")/FILE, $secs s, one lcore"
run "net_null, 64-byte frames, --all" -i "dpdk:$eal --vdev=net_null0,size=64" --all
run "net_pcap infinite_rx of rocev2-all-opcodes.pcap, ICRC verified" \
	-i "dpdk:$eal --vdev=net_pcap0,rx_pcap=$src/samples/rocev2-all-opcodes.pcap,infinite_rx=1"
echo "dpdk-dumpcap: not run (a secondary process needs hugepage-backed shared memory; this machine has no hugepages)"
