#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Live capture on a veth inside network namespaces:
#  - with the default filter, the pcap and the pcapng written hold exactly the
#    RoCE and PFC frames injected (every opcode on RoCEv2/IPv4, IPv4 with
#    options, IPv6, RoCEv1, untagged, with one 802.1Q tag and with 802.1ad +
#    802.1Q tags; PFC and PAUSE), byte for byte and in order, and none of
#    the kernel's own non-RoCE traffic (ARP, UDP, ICMP) sent around them;
#  - with --all that traffic is captured too;
#  - on "any" (Linux cooked capture, SLL and SLL2) the default filter keeps
#    every RoCE frame, and the cooked records carry the frames' bytes.
# Frame bytes are compared with Scapy's readers, protocols counted by tshark.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/live_common.sh"
need_tools
ns_setup

"$MKCAP" --all-opcodes -o roce.pcap >/dev/null || { echo "FAIL: rocewire-mkcap"; exit 1; }
"$MKCAP" --pfc -o pfc.pcap >/dev/null || { echo "FAIL: rocewire-mkcap --pfc"; exit 1; }
n_roce=$(frames roce.pcap)
n_pfc=$(frames pfc.pcap)
n=$((n_roce + n_pfc))
echo "injecting $n_roce RoCE frames and $n_pfc PFC/PAUSE frames, with ARP/UDP/ICMP around them"

# Three captures at once on vB: pcap and pcapng with the default filter (they
# stop by themselves at -c), and --all (stopped with SIGINT).
start_cap e1 o1 -i vB -w def.pcap -c "$n" -q || exit 1
pid1=$CAP_PID
start_cap e2 o2 -i vB -w def.pcapng -c "$n" -q || exit 1
pid2=$CAP_PID
start_cap e3 o3 -i vB --all -w all.pcap -q || exit 1
pid3=$CAP_PID
noise
inject roce.pcap
noise
inject pfc.pcap
noise
sleep 0.3
for p in $pid1 $pid2; do
	CAP_PID=$p
	wait_cap 15
	[ "$CAP_RC" = 0 ] || fail "capture (pid $p) exited with status $CAP_RC"
done
kill -INT "$pid3"
CAP_PID=$pid3
wait_cap 10
[ "$CAP_RC" = 0 ] || fail "--all capture exited with status $CAP_RC: $(tail -n 3 e3)"

for f in def.pcap def.pcapng; do
	ls "$f".*.part >/dev/null 2>&1 && fail "$(ls "$f".*.part) was left behind"
	if msg=$(same_frames "$f" roce.pcap pfc.pcap); then
		ok "$f holds exactly the $n injected frames"
	else
		fail "$msg"
	fi
	tshark_ok "$f" && ok "tshark reads $f"
done
grep -q "wrote $n packets to def.pcap" e1 || fail "no 'wrote $n packets' line: $(cat e1)"
grep -q "$n packets received by filter, 0 dropped by kernel, 0 dropped by interface" e1 ||
	fail "final line of the pcap capture: $(tail -n 1 e1)"
# the pcapng records the interface name and nanosecond resolution
"$PY" - def.pcapng <<'EOF' || fail "def.pcapng interface block"
import struct, sys
b = open(sys.argv[1], "rb").read()
off = struct.unpack_from("<I", b, 4)[0]          # after the section header
btype, blen = struct.unpack_from("<II", b, off)
assert btype == 1, btype                          # interface description
link, _, snap = struct.unpack_from("<HHI", b, off + 8)
opts, end, seen = off + 16, off + blen - 4, {}
while opts < end:
    code, ln = struct.unpack_from("<HH", b, opts)
    if code == 0:
        break
    seen[code] = b[opts + 4:opts + 4 + ln]
    opts += 4 + ln + (-ln % 4)
assert link == 1, link
assert seen.get(2) == b"vB", seen                 # if_name
assert seen.get(9) == b"\x09", seen               # if_tsresol: 10^-9
EOF

# --all: the same RoCE and PFC frames, plus the stack's traffic.
roce_all=$(tshark_count all.pcap "infiniband || macc")
roce_src=$(($(tshark_count roce.pcap "infiniband || macc") + $(tshark_count pfc.pcap "infiniband || macc")))
[ "$roce_all" = "$roce_src" ] || fail "--all: $roce_all RoCE/PFC frames, expected $roce_src"
arp=$(tshark_count all.pcap arp)
udp9=$(tshark_count all.pcap "udp.dstport == 9 && !icmp")
icmp=$(tshark_count all.pcap "icmp.type == 3")
if [ "$arp" -ge 1 ] && [ "$udp9" -ge 9 ] && [ "$icmp" -ge 1 ]; then
	ok "--all also captured $arp ARP, $udp9 UDP and $icmp ICMP frames"
else
	fail "--all: $arp ARP, $udp9 UDP to port 9, $icmp ICMP unreachable (expected >= 1, 9, 1)"
fi
[ "$(tshark_count def.pcap "arp || icmp || udp.dstport == 9")" = 0 ] ||
	fail "the default filter let non-RoCE frames through"

# "any": cooked headers. Two VLAN tags are left out: Linux hands cooked
# sockets the inner tag inside the data under the inner protocol.
"$MKCAP" --all-opcodes --carriers v2,v2-vlan,v2-opts,v2-ipv6,v2-ipv6-vlan,v1,v1-vlan \
	-o anysrc.pcap >/dev/null || { echo "FAIL: rocewire-mkcap"; exit 1; }
m=$(frames anysrc.pcap)
for lt in LINUX_SLL LINUX_SLL2; do
	start_cap "e_$lt" "o_$lt" -i any -y "$lt" -w "any_$lt.pcap" -c "$m" -q || continue
	noise
	inject anysrc.pcap
	wait_cap 15
	[ "$CAP_RC" = 0 ] || fail "-i any -y $lt exited with status $CAP_RC: $(tail -n 2 "e_$lt")"
	if msg=$("$PY" - "any_$lt.pcap" anysrc.pcap "$lt" <<'EOF'
import sys
from scapy.utils import RawPcapReader
got = [bytes(d) for d, _ in RawPcapReader(sys.argv[1])]
want = [bytes(d) for d, _ in RawPcapReader(sys.argv[2])]
sll2 = sys.argv[3] == "LINUX_SLL2"
if len(got) != len(want):
    sys.exit("%d frames captured, %d sent" % (len(got), len(want)))
tpids = (b"\x81\x00", b"\x88\xa8")
for i, (c, e) in enumerate(zip(got, want), 1):
    # Ethernet: dst(6) src(6) type(2) data. SLL: pkttype hatype alen addr(8)
    # protocol(2) data; SLL2: protocol(2) rsv(2) ifindex(4) hatype pkttype
    # alen addr(8) data. libpcap puts a VLAN tag back into SLL data; SLL2
    # records may carry the frame without its tag.
    if sll2:
        proto, data, addr = c[0:2], c[20:], c[12:18]
    else:
        proto, data, addr = c[14:16], c[16:], c[6:12]
    with_tag = proto == e[12:14] and data == e[14:]
    untagged = e[12:14] in tpids and proto == e[16:18] and data == e[18:]
    if addr != e[6:12] or not (with_tag or (sll2 and untagged)):
        sys.exit("frame %d differs from the one sent" % i)
EOF
	); then
		ok "-i any -y $lt: the $m frames, cooked"
	else
		fail "-i any -y $lt: $msg"
	fi
done

exit $FAILED
