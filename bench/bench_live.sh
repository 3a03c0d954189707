#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Live capture against tcpdump, in one run (issue 13): two network
# namespaces joined by a veth pair, dpdk-testpmd (txonly, net_af_packet) in
# one flooding UDP 4791 frames for SECONDS, and in the other first tcpdump
# (-B 32768 -s 16000 -w FILE 'udp port 4791'), then rocewire-cap
# (-i IF -w FILE -q: its default filter, every ICRC verified), each with the
# same flood. Prints per tool the packets captured and lost (the kernel's
# counts as each tool reports them) and the CPU time (user + system) per
# captured packet; the ratio of the two CPU costs, each tool's best of
# BENCH_ROUNDS (default 3) alternating rounds.
#
# usage: bench/bench_live.sh [BUILD_DIR] [FRAME_BYTES] [SECONDS]   (default build 128 6)
# Root (namespaces). The machine may be shared: run this when nothing else runs.
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
frame=${2:-128}
secs=${3:-6}
cap=$build/capture/rocewire-cap
[ -x "$cap" ] || { echo "bench_live.sh: $cap not found: build first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench_live.sh: needs root (network namespaces)" >&2; exit 2; }
for t in dpdk-testpmd tcpdump; do
	command -v "$t" >/dev/null 2>&1 || { echo "bench_live.sh: $t is not installed" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-live.XXXXXX")
na=rwbl-a$$
nb=rwbl-b$$
cleanup() {
	ip netns del "$na" 2>/dev/null || true
	ip netns del "$nb" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$na"
ip netns add "$nb"
ip -n "$na" link add vA type veth peer name vB netns "$nb"
ip -n "$na" link set vA up
ip -n "$nb" link set vB up
# room for 4 KiB frames
ip -n "$na" link set vA mtu 9000
ip -n "$nb" link set vB mtu 9000

mbuf=$((frame + 256 > 2176 ? frame + 256 : 2176))
# net_af_packet's ring frames are 2 KiB unless told: 4 KiB frames need more
ring=""
if [ "$frame" -gt 1900 ]; then
	ring=",blocksz=16384,framesz=8192,framecnt=1024"
	mbuf=8448 # the PMD checks that a ring frame fits an mbuf
fi
flood() {
	# stdin kept open and silent: testpmd stops at end of file on it
	sleep $((secs + 2)) | ip netns exec "$na" timeout -s INT "$secs" dpdk-testpmd -l 0-1 --no-huge -m 1024 \
		--no-pci --no-shconf --file-prefix "$na" --log-level='*:error' \
		--vdev=net_af_packet0,iface=vA,qdisc_bypass=1$ring -- --forward-mode=txonly --auto-start --total-num-mbufs=16384 \
		--mbuf-size="$mbuf" --txpkts="$frame" --tx-udp=4791,4791 --burst=32 >"$work/testpmd.out" 2>&1 || true
	tr '\r' '\n' <"$work/testpmd.out" | sed -n 's/.*TX-packets: *\([0-9]*\).*/\1/p' | tail -n 1
}

# run NAME CMD...: the capture in the receiving namespace during one flood;
# prints "sent captured lost cpu_s"
run() {
	name=$1
	shift
	# Each tool starts with no dirty page cache: at 4 KiB frames each writes
	# gigabytes, and the file of the tool before, still being written back,
	# would throttle the next one's writes (whichever ran first captured up
	# to 2.5x more, at 0.35x or 2.1x the other's CPU per packet).
	rm -f "$work"/*.pcap
	sync
	ip netns exec "$nb" /usr/bin/time -f '%U %S' -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" &
	pid=$!
	sleep 1
	sent=$(flood)
	sleep 1
	kill -INT "$pid" 2>/dev/null || true
	# /usr/bin/time forwards nothing: signal its child
	pkill -INT -f "$work/$name.pcap" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	cpu=$(tail -n 1 "$work/$name.time" | awk '{ printf "%.3f", $1 + $2 }')
	echo "${sent:-0} $cpu"
}

# Rounds alternate the two tools, and each tool's best round counts (the
# lowest CPU per captured packet): on a virtual machine the kernel's copy of
# a file's pages costs up to ten times more in one run than in the next
# (fresh guest pages), whichever tool it falls on.
rounds=${BENCH_ROUNDS:-3}
printf '%s-byte frames, %s s flood from dpdk-testpmd txonly (net_af_packet on a veth), %s rounds\n' \
	"$frame" "$secs" "$rounds"
printf '%-6s %-10s %10s %10s %8s %8s %12s\n' round tool sent captured lost cpu_s "ns/packet"
best_t="" best_r=""
for i in $(seq "$rounds"); do
	t_line=$(run tcpdump tcpdump -i vB -B 32768 -s 16000 -w "$work/tcpdump.pcap" 'udp port 4791')
	t_cap=$(sed -n 's/^\([0-9]*\) packets captured$/\1/p' "$work/tcpdump.err")
	t_lost=$(sed -n 's/^\([0-9]*\) packets dropped by kernel$/\1/p' "$work/tcpdump.err")
	r_line=$(run rocewire "$cap" -i vB -w "$work/rocewire.pcap" -q)
	r_cap=$(sed -n 's/^rocewire-cap: wrote \([0-9]*\) packets to .*/\1/p' "$work/rocewire.err")
	r_lost=$(sed -n 's/^rocewire-cap: vB: [0-9]* packets received by filter, \([0-9]*\) dropped by kernel.*/\1/p' "$work/rocewire.err")
	undec=$(sed -n 's/^  not decoded: \([0-9]*\) packets.*/\1/p' "$work/rocewire.err")
	for t in tcpdump rocewire; do
		if [ "$t" = tcpdump ]; then line=$t_line c=$t_cap l=$t_lost; else line=$r_line c=$r_cap l=$r_lost; fi
		sent=${line% *}
		cpu=${line#* }
		ns=$(awk -v c="$cpu" -v n="${c:-0}" 'BEGIN { if (n > 0) printf "%.0f", c * 1e9 / n; else print "-" }')
		printf '%-6s %-10s %10s %10s %8s %8s %12s\n' "$i" "$t" "$sent" "${c:-?}" "${l:-?}" "$cpu" "$ns"
		[ "$ns" = - ] && continue
		if [ "$t" = tcpdump ]; then
			{ [ -z "$best_t" ] || [ "$ns" -lt "$best_t" ]; } && best_t=$ns
		else
			{ [ -z "$best_r" ] || [ "$ns" -lt "$best_r" ]; } && best_r=$ns
		fi
	done
	[ "${undec:-0}" -gt 0 ] && echo "       (rocewire-cap wrote $undec of them undecoded: its decoder was behind)"
done
[ -n "$best_t" ] && [ -n "$best_r" ] &&
	awk -v a="$best_t" -v b="$best_r" 'BEGIN {
	printf "best round of each: tcpdump %d ns, rocewire-cap %d ns per captured packet\n", a, b
	printf "CPU per captured packet, rocewire-cap / tcpdump: %.2fx (goal <= 1.0x)\n", b / a }'
