#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-replay's AF_PACKET TX ring on a veth inside a network namespace
# made here (nothing appears in the caller's namespace), captured on the
# other end of the veth by rocewire-cap:
#  - without rewrites the frames arrive byte for byte as captured;
#  - rewritten, they are exactly what Scapy makes of the originals with the
#    same rules, and tshark reads the new values (replay_check.py frames);
#  - --pps: arrival times within the pacing error rocewire-replay reports;
#  - the same rewrites through DPDK's net_af_packet PMD on the veth (when
#    rocewire-replay was built with DPDK).
# Environment: ROCEWIRE_REPLAY, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR.
set -u
R=${ROCEWIRE_REPLAY:-}
CAP=${ROCEWIRE_CAP:-}
SRC=${ROCEWIRE_SOURCE_DIR:-}
PY=/usr/bin/python3
for t in "$R" "$CAP"; do
	[ -x "$t" ] || { echo "FAIL: set ROCEWIRE_REPLAY and ROCEWIRE_CAP to the built tools"; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (a network namespace, packet sockets)"; exit 77; }
command -v ip >/dev/null || { echo "SKIP: ip (iproute2) is not installed"; exit 77; }
command -v tshark >/dev/null || { echo "SKIP: tshark is not installed"; exit 77; }
"$PY" -c 'import scapy.contrib.roce' 2>/dev/null || { echo "SKIP: Scapy is not installed for $PY"; exit 77; }
NS=rwreplay-$$
T=$(mktemp -d "${TMPDIR:-/tmp}/rw-replay-afp.XXXXXX")
CAP_PID=""
cleanup() {
	[ -n "$CAP_PID" ] && kill "$CAP_PID" 2>/dev/null && wait "$CAP_PID" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T" || exit 1
export HOME="$T" XDG_CONFIG_HOME="$T/.config"
ip netns add "$NS" 2>ns.err || { echo "SKIP: cannot create a network namespace: $(cat ns.err)"; exit 77; }
ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 >/dev/null 2>&1
ip -n "$NS" link add rA mtu 9000 type veth peer name rB mtu 9000 || { echo "SKIP: cannot create a veth pair"; exit 77; }
ip -n "$NS" link set rA up && ip -n "$NS" link set rB up && ip -n "$NS" link set lo up
S=$SRC/samples
CHECK="$PY $SRC/tests/replay/replay_check.py"
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

# run NAME N FILE [replay options]: capture N frames on rB while
# rocewire-replay sends FILE on rA; NAME.pcap, NAME.json
run() {
	local name=$1 n=$2 f=$3
	shift 3
	ip netns exec "$NS" "$CAP" -i rB -w "$name.pcap" -c "$n" -q >"$name.cap.out" 2>"$name.cap.err" &
	CAP_PID=$!
	for _ in $(seq 1 100); do
		grep -q "listening on" "$name.cap.err" 2>/dev/null && break
		sleep 0.05
	done
	local out="-i rA"
	if [ "$1" = dpdk ]; then
		shift
		out="--no-huge --no-pci --no-shconf -m 256 -l 0 --no-telemetry --log-level=*:warning --vdev=net_af_packet0,iface=rA --"
	fi
	# shellcheck disable=SC2086 # $out is a list of options
	if ! ip netns exec "$NS" "$R" $out -q -j "$name.json" "$@" "$f" 2>"$name.err"; then
		fail "rocewire-replay $out $*: $(cat "$name.err")"
	fi
	for _ in $(seq 1 100); do
		kill -0 "$CAP_PID" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$CAP_PID" 2>/dev/null; then
		kill -INT "$CAP_PID"
		fail "$name: rocewire-cap did not see $n frames: $(cat "$name.cap.err")"
	fi
	wait "$CAP_PID"
	CAP_PID=""
}

run same 80 "$S/softroce/rc_write.pcap" -t
$CHECK frames "$S/softroce/rc_write.pcap" same.pcap && ok "AF_PACKET: 80 frames byte for byte" || fail "AF_PACKET without rewrites"
A="--map-qpn 21=0x123456 --map-ip 192.0.2.0/24=10.7.0.0/24 --udp-sport 50000 --psn-offset 22:7 --map-rkey 1678=0xdead --dst-mac 02:00:00:00:00:09 --dscp 26"
run rw 80 "$S/softroce/rc_write.pcap" -t $A
$CHECK frames "$S/softroce/rc_write.pcap" rw.pcap $A && ok "AF_PACKET: rewritten frames as Scapy makes them" || fail "AF_PACKET rewrites"
A2="--map-qpn 0x11=0x22 --psn-offset 0x11:1000 --pkey 0x8001"
run all 334 "$S/rocev2-all-opcodes.pcap" -t --preload $A2
$CHECK frames "$S/rocev2-all-opcodes.pcap" all.pcap $A2 && ok "AF_PACKET: every opcode (334 frames), rewritten as Scapy makes them" || fail "AF_PACKET all opcodes"
run pps 80 "$S/softroce/rc_write.pcap" --pps 1000
$CHECK timing pps.pcap pps.json pps 1000 && ok "AF_PACKET --pps 1000: arrival times within the reported error" || fail "AF_PACKET timing"
# frames over the MTU (300 now; the sample's frames are up to 342 bytes):
# skipped and counted, the others sent
ip -n "$NS" link set rA mtu 300
ip -n "$NS" link set rB mtu 300
long=$(tshark -r "$S/rocev2-all-opcodes.pcap" -n -Y '(vlan && frame.len > 318) || (!vlan && frame.len > 314)' 2>/dev/null | wc -l)
run mtu $((334 - long)) "$S/rocev2-all-opcodes.pcap" -t
n=$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["skipped"]["longer_than_mtu"], d["packets_sent"])' mtu.json)
[ "$n" = "$long $((334 - long))" ] && [ "$long" -gt 0 ] && ok "MTU 300: $long frames skipped as longer, the rest received" ||
	fail "MTU 300: skipped/sent $n, expected $long $((334 - long))"
ip -n "$NS" link set rA mtu 9000
ip -n "$NS" link set rB mtu 9000
if "$R" -w probe.pcap -t -q "$S/softroce/rc_write.pcap" 2>probe.err || ! grep -q "without DPDK" probe.err; then
	run dpdk 80 "$S/softroce/rc_write.pcap" dpdk -t $A
	$CHECK frames "$S/softroce/rc_write.pcap" dpdk.pcap $A && ok "DPDK net_af_packet: rewritten frames as Scapy makes them" ||
		fail "DPDK net_af_packet rewrites"
fi
exit $FAILED
