#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-replay into a pcap through DPDK's net_pcap (-w), checked with
# tools that share no code with rocewire (replay_check.py: Scapy, zlib,
# tshark):
#  - without rewrites every frame is sent byte for byte as captured;
#  - with rewrites every frame is exactly what Scapy makes of the original
#    with the same rules (QPN, PSN, P_Key, IP map, UDP port, R_Key, VA), and
#    tshark reads the new values;
#  - rewrites of masked fields (DSCP, ECN, TTL, UDP checksum) leave the
#    ICRC as it was, and recompute none;
#  - a bad ICRC stays bad through a rewrite, --fix-icrc makes it good,
#    --corrupt-icrc breaks as many as it says;
#  - RoCEv1 <-> RoCEv2 conversion, SLL2 to Ethernet, VLAN push/strip,
#    filters and --loop give the frames they should.
# Inputs are the real Soft-RoCE captures of samples/softroce and the
# tshark-checked samples/. Environment: ROCEWIRE_REPLAY, ROCEWIRE_SOURCE_DIR,
# ROCEWIRE_MKCAP (optional: ERF and SLL inputs).
set -u
R=${ROCEWIRE_REPLAY:-}
SRC=${ROCEWIRE_SOURCE_DIR:-}
PY=/usr/bin/python3
[ -x "$R" ] || { echo "FAIL: set ROCEWIRE_REPLAY to rocewire-replay (got '$R')"; exit 1; }
[ -x "$PY" ] || { echo "SKIP: $PY is missing"; exit 77; }
"$PY" -c 'import scapy.contrib.roce' 2>/dev/null || { echo "SKIP: Scapy is not installed for $PY (python3-scapy)"; exit 77; }
command -v tshark >/dev/null || { echo "SKIP: tshark is not installed"; exit 77; }
"$R" --help | grep -q -- "--write FILE" || true
S=$SRC/samples
CHECK="$PY $SRC/tests/replay/replay_check.py"
# shellcheck disable=SC1091 # sets $noheur
. "$SRC/tests/e2e/tshark_noheur.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/rw-replay.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
export HOME="$T" XDG_CONFIG_HOME="$T/.config"
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

# replay OUT [options] FILE: the file into OUT through net_pcap, topspeed
replay() {
	local out=$1
	shift
	if ! "$R" -w "$out" -t -q -j "$out.json" "$@" 2>"$out.err"; then
		fail "rocewire-replay -w $out $*: $(cat "$out.err")"
		return 1
	fi
}
if ! "$R" -w probe.pcap -t -q "$S/softroce/rc_write.pcap" 2>probe.err; then
	grep -q "built without DPDK" probe.err && { echo "SKIP: rocewire-replay was built without DPDK (-w)"; exit 77; }
	fail "first replay: $(cat probe.err)"
	exit 1
fi
json() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {'d': d}))" "$@"; }
# shellcheck disable=SC2154,SC2086 # noheur: from tshark_noheur.sh, a list of options
count() { tshark -r "$1" -n $noheur -Y "$2" 2>/dev/null | wc -l; }
same() {
	"$PY" - "$1" "$2" <<'EOF'
import sys
from scapy.utils import RawPcapReader
a = [bytes(d) for d, _ in RawPcapReader(sys.argv[1])]
b = [bytes(d) for d, _ in RawPcapReader(sys.argv[2])]
sys.exit(0 if a == b else 1)
EOF
}

# 1. no rewrite: byte for byte
for f in softroce/rc_write.pcap softroce/rc_read.pcap rocev2-all-opcodes.pcap rocev1.pcap rocev2-ipv6-vlan.pcap; do
	replay same.pcap "$S/$f" && { same "$S/$f" same.pcap && ok "$f replayed byte for byte" || fail "$f: frames changed without a rewrite"; }
done

# 2. rewrites of covered fields, checked against Scapy and tshark
A1="--map-qpn 21=0x123456 --map-qpn 22=77 --map-ip 192.0.2.0/24=10.7.0.0/24 --udp-sport 50000 --psn-offset 21:-5 --pkey 0x7fff --map-rkey 1678=0xdead --map-va 94332900966400+32768=0x10000"
replay rw.pcap $A1 "$S/softroce/rc_write.pcap" && { $CHECK frames "$S/softroce/rc_write.pcap" rw.pcap $A1 && ok "rc_write rewritten as Scapy does" || fail "rc_write rewrite"; }
A2="--map-qpn 0x11=0x123456 --map-ip 192.168.0.0/16=172.31.0.0/16 --udp-sport 4242 --psn-offset 100 --map-rkey 0x1000=0xdead --pkey 0x1234 --dst-mac 02:00:00:00:00:09"
replay a.pcap $A2 "$S/rocev2-all-opcodes.pcap" && { $CHECK frames "$S/rocev2-all-opcodes.pcap" a.pcap $A2 && ok "every opcode rewritten as Scapy does" || fail "all-opcodes rewrite"; }
n=$(json a.pcap.json "d['icrc_recomputed']")
[ "$n" = 334 ] && ok "334 ICRCs recomputed" || fail "icrc_recomputed $n, expected 334"
A3="--map-rkey 1678=0xdead --map-va 94332900966400=0x7000"
replay rd.pcap $A3 "$S/softroce/rc_read.pcap" && { $CHECK frames "$S/softroce/rc_read.pcap" rd.pcap $A3 && ok "READ requests' RETH rewritten" || fail "rc_read rewrite"; }

# 3. masked fields: the ICRC is left as it is
A4="--dscp 46 --ecn 3 --ttl 9"
replay m.pcap $A4 --udp-csum zero "$S/softroce/rc_write.pcap" && { $CHECK frames "$S/softroce/rc_write.pcap" m.pcap $A4 && ok "DSCP/ECN/TTL rewritten, ICRC and IPv4 checksum as Scapy says" || fail "masked rewrite"; }
n=$(json m.pcap.json "(d['icrc_recomputed'], d['rewrites']['dscp'], d['ipv4_checksums_fixed'])")
[ "$n" = "(0, 80, 80)" ] && ok "masked fields: 0 ICRCs recomputed, 80 DSCP rewrites, 80 IPv4 checksums" || fail "masked counters $n"
"$PY" - "$S/softroce/rc_write.pcap" m.pcap <<'EOF' && ok "every ICRC byte unchanged" || fail "an ICRC changed with masked fields"
import sys
from scapy.utils import RawPcapReader
a = [bytes(d) for d, _ in RawPcapReader(sys.argv[1])]
b = [bytes(d) for d, _ in RawPcapReader(sys.argv[2])]
sys.exit(0 if all(x[-4:] == y[-4:] for x, y in zip(a, b)) and len(a) == len(b) else 1)
EOF

# IPv6 (every frame in a VLAN): addresses mapped, tags retagged; ICRCs by
# the spec's CRC, values by tshark
replay v6.pcap --map-ip 2001:db8::/64=fd00:1:2:3::/64 --vlan-retag 7:3 --map-qpn 0x11=0x21 "$S/rocev2-ipv6-vlan.pcap" &&
	{ $CHECK icrc v6.pcap 0 334 && ok "IPv6: 334 frames re-signed" || fail "IPv6 rewrite ICRCs"; }
[ "$(count v6.pcap '((ipv6.src == fd00:1:2:3::a && ipv6.dst == fd00:1:2:3::b) || (ipv6.src == fd00:1:2:3::b && ipv6.dst == fd00:1:2:3::a)) && vlan.id == 7 && vlan.priority == 3')" = 334 ] &&
	ok "tshark: IPv6 addresses mapped and VLAN retagged on all 334" || fail "IPv6 map / retag values"
[ "$(count v6.pcap 'infiniband.bth.destqp == 0x21')" = "$(count "$S/rocev2-ipv6-vlan.pcap" 'infiniband.bth.destqp == 0x11')" ] &&
	ok "tshark: IPv6 frames' QPN mapped" || fail "IPv6 QPN map"

# 4. bad ICRCs: kept bad, fixed, corrupted (counted by the spec's CRC)
replay b.pcap --pkey 0x4321 "$S/bad-icrc.pcap" && { $CHECK icrc b.pcap 40 && ok "40 bad ICRCs stay bad through a P_Key rewrite" || fail "bad ICRCs after a rewrite"; }
replay fx.pcap --fix-icrc "$S/bad-icrc.pcap" && { $CHECK icrc fx.pcap 8 && ok "--fix-icrc: only the 8 undecodable frames keep theirs" || fail "--fix-icrc"; }
n=$(json fx.pcap.json "(d['icrc_fixed'], d['skipped']['snaplen_cut'])")
[ "$n" = "(32, 16)" ] && ok "--fix-icrc fixed 32; 16 snaplen-cut frames skipped" || fail "fix counters $n"
replay c.pcap --corrupt-icrc 0.25 --seed 7 "$S/rocev2-all-opcodes.pcap"
n=$(json c.pcap.json "d['icrc_corrupted']")
if [ "$n" -gt 40 ] && [ "$n" -lt 130 ]; then
	$CHECK icrc c.pcap "$n" && ok "--corrupt-icrc 0.25: $n of 334 bad, as counted" || fail "--corrupt-icrc count"
else
	fail "--corrupt-icrc 0.25 corrupted $n of 334"
fi

# 5. conversion, link types, VLAN
replay v2.pcap --to-v2 "$S/rocev1.pcap" && { $CHECK icrc v2.pcap 0 462 && ok "RoCEv1 -> v2: 462 frames, ICRCs good" || fail "--to-v2"; }
[ "$(count v2.pcap 'udp.dstport==4791 && infiniband.bth.opcode')" = "$(count "$S/rocev1.pcap" 'infiniband.bth.opcode')" ] &&
	ok "tshark: as many BTHs after --to-v2, all over UDP 4791" || fail "tshark BTH count after --to-v2"
replay v1.pcap --to-v1 "$S/rocev2-all-opcodes.pcap" && { $CHECK icrc v1.pcap 0 334 && ok "RoCEv2 -> v1: 334 frames, ICRCs good" || fail "--to-v1"; }
[ "$(count v1.pcap 'eth.type==0x8915 && infiniband.bth.opcode')" = 334 ] && ok "tshark: 334 RoCEv1 frames" || fail "tshark RoCEv1 count"
replay sll.pcap "$S/rocev2-sll2.pcap" && { $CHECK icrc sll.pcap 0 && ok "SLL2 capture sent as Ethernet, ICRCs good" || fail "SLL2"; }
[ "$(count sll.pcap 'infiniband.bth.opcode')" = "$(count "$S/rocev2-sll2.pcap" 'infiniband.bth.opcode')" ] &&
	ok "tshark: the SLL2 capture's RoCE frames all present" || fail "SLL2 frame count"
replay vl.pcap --vlan-add 100:5 "$S/softroce/rc_write.pcap" && { $CHECK icrc vl.pcap 0 80 && ok "VLAN pushed, ICRCs untouched and good" || fail "--vlan-add"; }
[ "$(count vl.pcap 'vlan.id==100 && vlan.priority==5')" = 80 ] && ok "tshark: 80 frames in VLAN 100 PCP 5" || fail "VLAN tags"
replay un.pcap --vlan-strip vl.pcap && { same "$S/softroce/rc_write.pcap" un.pcap && ok "--vlan-strip gives the original bytes back" || fail "--vlan-strip"; }

# ERF and Linux SLL records (rocewire-mkcap's, every opcode) sent as Ethernet
MK=${ROCEWIRE_MKCAP:-}
if [ -x "$MK" ]; then
	for lt in erf sll; do
		# ERF: the Ethernet carriers (native IB records have no Ethernet form)
		c=
		[ $lt = erf ] && c="--carriers v2,v2-vlan,v2-qinq,v2-opts,v2-ipv6,v2-ipv6-vlan,v1,v1-vlan"
		# shellcheck disable=SC2086 # $c is a list of options
		"$MK" --all-opcodes --linktype $lt $c -o "in-$lt.pcap" >/dev/null
		want=$(count "in-$lt.pcap" 'infiniband.bth.opcode')
		replay "out-$lt.pcap" --map-qpn 0x11=0x99 "in-$lt.pcap" &&
			{ $CHECK icrc "out-$lt.pcap" 0 "$want" && ok "$lt records sent as Ethernet, $want RoCE frames, ICRCs good" || fail "$lt to Ethernet"; }
	done
fi

# 6. filters and loops, counted against tshark on the original
replay q.pcap --qp 21 "$S/softroce/rc_write.pcap"
[ "$(json q.pcap.json "d['packets_sent']")" = "$(count "$S/softroce/rc_write.pcap" 'infiniband.bth.destqp==21')" ] && ok "--qp 21" || fail "--qp"
replay o.pcap --opcode RC_RDMA_WRITE_FIRST,0x11 "$S/softroce/rc_write.pcap"
[ "$(json o.pcap.json "d['packets_sent']")" = "$(count "$S/softroce/rc_write.pcap" 'infiniband.bth.opcode==6 || infiniband.bth.opcode==17')" ] && ok "--opcode" || fail "--opcode"
replay fr.pcap --frames 10-19 "$S/softroce/rc_write.pcap"
[ "$(json fr.pcap.json "(d['packets_sent'], d['skipped']['filtered'])")" = "(10, 70)" ] && ok "--frames 10-19" || fail "--frames"
# --filter takes Wireshark's field names: the same expression for both tools
for e in "infiniband.bth.destqp == 21 && infiniband.bth.opcode != 0x11" \
	"infiniband.bth.opcode == 17 or (infiniband.reth.r_key == 1678 and not infiniband.bth.psn < 4793460)" \
	"ip.src == 192.0.2.1" "infiniband.reth.va"; do
	replay fl.pcap --filter "$e" "$S/softroce/rc_write.pcap"
	[ "$(json fl.pcap.json "d['packets_sent']")" = "$(count "$S/softroce/rc_write.pcap" "$e")" ] &&
		ok "--filter '$e' keeps what tshark -Y keeps" || fail "--filter '$e'"
done
# (RC and UC opcodes: tshark 4.0 decodes no AETH/DETH on some RD and XRC ones)
e="infiniband.bth.destqp < 0x1000 && (ip.dsfield.ecn == 3 || (infiniband.bth.opcode >= 13 && infiniband.bth.opcode <= 17)) && !(udp.srcport == 0)"
replay fl.pcap --filter "$e" "$S/rocev2-all-opcodes.pcap"
[ "$(json fl.pcap.json "d['packets_sent']")" = "$(count "$S/rocev2-all-opcodes.pcap" "$e")" ] &&
	ok "--filter '$e' on every opcode" || fail "--filter '$e' on every opcode"
replay l.pcap --loop 3 --preload "$S/softroce/rc_write.pcap"
[ "$(json l.pcap.json "(d['packets_sent'], d['loops'])")" = "(240, 3)" ] && ok "--loop 3 --preload: 240 frames" || fail "--loop"

exit $FAILED
