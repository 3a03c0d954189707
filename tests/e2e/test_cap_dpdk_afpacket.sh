#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap's DPDK source on net_af_packet, on a veth pair inside two
# network namespaces the test makes and deletes (nothing is sent anywhere
# else): frames of a RoCEv2 mix (16 connections, up to 1 KiB payloads) are
# injected with tcpreplay on one end and captured on the other. tcpreplay
# runs on one CPU (veth hands a frame to the receiving side on the sending
# CPU's backlog: one CPU keeps them in order) at 2,000 frames/s: DPDK
# 22.11's net_af_packet does not count what its packet socket's ring drops,
# so the rate is kept where a loaded 2-core machine loses nothing. The mix
# has no 802.1ad outer tags: the kernel takes the outer tag out of the frame
# and net_af_packet puts it back as 802.1Q (TPID 0x8100).
#  1. one RX queue: -c N ends the capture, the file holds the injected frames
#     byte for byte and in order, the port reports no drop;
#  2. qpairs=2 and --rx-queues 2 on two lcores (the PMD's two packet sockets
#     share the frames by flow hash, PACKET_FANOUT_HASH): each queue's file
#     holds injected frames in their order, both queues got some, together
#     they hold every injected frame once, and tshark reads each file with
#     as many packets as the capture says it wrote.
# Root (namespaces). Env: ROCEWIRE_CAP, ROCEWIRE_MKCAP, ROCEWIRE_SOURCE_DIR.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/live_common.sh"
need_tools
[ -x "$(dirname "$CAP")/rocewire-cap-dpdk" ] || skip "rocewire-cap-dpdk was not built (no DPDK)"
command -v taskset >/dev/null 2>&1 || skip "taskset is not installed"
ns_setup
check="$here/dpdk_queues_check.py"
eal="--no-huge -m 1024 --no-pci --no-shconf --log-level=*:error"

n=2000
inject_paced() {
	in_a taskset -c 1 tcpreplay -q --pps=2000 -i vA mix.pcap >"$WORK/tcpreplay.out" 2>&1 ||
		fail "tcpreplay failed: $(tr '\n' ' ' <"$WORK/tcpreplay.out")"
}
"$MKCAP" --mix "$n" --max-payload 1024 --carriers v2,v2-vlan,v2-opts,v2-ipv6,v2-ipv6-vlan -o mix.pcap >/dev/null || { echo "FAIL: rocewire-mkcap --mix"; exit 1; }

# 1. one queue
start_cap e1 o1 -i "dpdk:-l 0 $eal --file-prefix rwafp1-$$ --vdev=net_af_packet0,iface=vB" -c "$n" -w one.pcap -q ||
	exit 1
inject_paced
wait_cap 30
[ "$CAP_RC" = 0 ] || fail "one queue: exit $CAP_RC: $(tail -n 2 e1)"
if msg=$(same_frames one.pcap mix.pcap); then
	ok "net_af_packet, one queue: one.pcap holds the $n injected frames, byte for byte"
else
	fail "net_af_packet, one queue: $msg"
fi
grep -q "0 dropped by kernel, 0 dropped by interface" e1 || fail "one queue: drops: $(grep dropped e1)"

# 2. two queue pairs, two lcores
start_cap e2 o2 -i "dpdk:-l 0-1 $eal --file-prefix rwafp2-$$ --vdev=net_af_packet0,iface=vB,qpairs=2" \
	--rx-queues 2 -c "$n" -w two.pcap || exit 1
inject_paced
wait_cap 30
[ "$CAP_RC" = 0 ] || fail "two queues: exit $CAP_RC: $(tail -n 2 e2)"
if "$PY" "$check" split mix.pcap two.q0.pcap two.q1.pcap; then
	ok "net_af_packet, 2 queues: the frames are split between the files, each once"
else
	fail "net_af_packet, 2 queues: the files are not the injected frames"
fi
sum=0
for q in 0 1; do
	c=$(tshark -r two.q$q.pcap 2>/dev/null | wc -l)
	w=$(sed -n "s/^rocewire-cap: queue $q (lcore [0-9]*): wrote \([0-9]*\) packets to two.q$q.pcap.*/\1/p" e2)
	[ "$c" = "${w:-x}" ] || fail "queue $q: tshark reads $c packets, the capture says it wrote '${w:-?}'"
	[ "$c" -gt 0 ] || fail "queue $q got no frame (the fanout should spread 16 connections)"
	sum=$((sum + c))
	echo "queue $q: $c frames"
done
[ "$sum" = "$n" ] && ok "net_af_packet, 2 queues: $sum frames in the two files, $n injected" ||
	fail "net_af_packet, 2 queues: $sum frames in the files, $n injected"
grep -q "^rocewire-cap: $n packets captured on" e2 || fail "no '$n packets captured' in the summary: $(grep captured e2)"
grep -q "port 0 (net_af_packet), 2 RX queues; timestamps: the TSC" e2 || fail "clock line: $(grep timestamps: e2)"
exit $FAILED
