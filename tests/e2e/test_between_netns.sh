#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap --between on two real captures of one routed path: three
# network namespaces, sender (vS) - router (rS, rD) - receiver (vD), joined
# by two veth pairs. The router forwards IPv4 (TTL decremented, MACs
# rewritten) and runs between_rule.bpf.c on both its egresses (tc clsact):
# RoCEv2 packets dropped, CE-marked or sent twice by a pure function of PSN
# and QP. Tap A is tcpdump on vS, tap B tcpdump on vD, both with nanosecond
# timestamps from the one host clock. Scapy (between_netns_traffic.py)
# sends RC requests of four QPs from the sender and ACKs back from the
# receiver, and writes what it sent; between_netns_check.py recomputes
# every packet's fate from the rule, reads both taps itself, and checks
# `rocewire-cap --between A B --json` (and its text): every lost packet
# named with its frame, the second copies seen in one tap only, CE marks,
# TTL/MAC rewrites, the delays both ways to the nanosecond, per flow; then
# again with --estimate-offset. The path does not reorder (no netem here):
# `reordered` is checked against the taps' own order, which is 0.
# Env: ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR; ROCEWIRE_KEEP=DIR keeps both
# taps, the truth and the output there. Root (namespaces); exit 77 (skip)
# with the reason when something it needs is missing.
set -u
: "${ROCEWIRE_CAP:?}" "${ROCEWIRE_SOURCE_DIR:?}"
cap=$ROCEWIRE_CAP
src=$ROCEWIRE_SOURCE_DIR
py=/usr/bin/python3
# the rule, given to the BPF program and to the checker alike
DROP_MOD=7 DROP_REM=3 MARK_MOD=5 MARK_REM=1 DUP_MOD=11 DUP_REM=6

skip() {
	echo "SKIP: $*"
	exit 77
}

[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, tc, packet sockets)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
command -v tc >/dev/null 2>&1 || skip "tc (iproute2) is not installed"
command -v clang >/dev/null 2>&1 || skip "clang is not installed (it builds the BPF rule)"
command -v tcpdump >/dev/null 2>&1 || skip "tcpdump is not installed (it makes the two taps)"
[ -x "$py" ] || skip "$py is missing"
"$py" -c 'import scapy.contrib.roce' 2>/dev/null || skip "Scapy is not installed for $py (python3-scapy)"

ns_s=rwbtw-s-$$
ns_r=rwbtw-r-$$
ns_d=rwbtw-d-$$
made=""
bg=""
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-btwnet.XXXXXX")
export HOME="$work" XDG_CONFIG_HOME="$work/.config" # a clean tshark profile
cleanup() {
	for p in $bg; do
		kill "$p" 2>/dev/null
	done
	for p in $bg; do
		wait "$p" 2>/dev/null
	done
	for ns in $made; do
		ip netns del "$ns" 2>/dev/null
	done
	if [ -n "${ROCEWIRE_KEEP:-}" ]; then
		mkdir -p "$ROCEWIRE_KEEP" && cp "$work"/*.pcap "$work"/*.json "$work"/*.err "$ROCEWIRE_KEEP"/ 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

march=$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)
clang -O2 -g -target bpf -I"/usr/include/$march" -DDROP_MOD=$DROP_MOD -DDROP_REM=$DROP_REM \
	-DMARK_MOD=$MARK_MOD -DMARK_REM=$MARK_REM -DDUP_MOD=$DUP_MOD -DDUP_REM=$DUP_REM \
	-c "$src/tests/e2e/between_rule.bpf.c" -o "$work/rule.o" \
	2>"$work/clang.err" || skip "cannot build the BPF rule (libbpf-dev headers?): $(head -n 1 "$work/clang.err")"

for ns in "$ns_s" "$ns_r" "$ns_d"; do
	ip netns add "$ns" 2>"$work/netns.err" || skip "cannot create a network namespace: $(cat "$work/netns.err")"
	made="$made $ns"
	# no IPv6: no router solicitation or DAD frame in the taps
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
		>/dev/null 2>&1
	ip netns exec "$ns" ip link set lo up
done
in_s() { ip netns exec "$ns_s" "$@"; }
in_r() { ip netns exec "$ns_r" "$@"; }
in_d() { ip netns exec "$ns_d" "$@"; }
ip link add vS netns "$ns_s" type veth peer name rS netns "$ns_r" &&
	ip link add vD netns "$ns_d" type veth peer name rD netns "$ns_r" ||
	skip "cannot create veth pairs inside the namespaces"
in_s ip addr add 10.211.1.1/24 dev vS
in_r ip addr add 10.211.1.2/24 dev rS
in_r ip addr add 10.211.2.1/24 dev rD
in_d ip addr add 10.211.2.2/24 dev vD
in_s ip link set vS up
in_r ip link set rS up
in_r ip link set rD up
in_d ip link set vD up
in_s ip route add 10.211.2.0/24 via 10.211.1.2
in_d ip route add 10.211.1.0/24 via 10.211.2.1
in_r sysctl -qw net.ipv4.ip_forward=1 || skip "cannot turn on IPv4 forwarding in the router's namespace"
mac() { ip netns exec "$1" cat "/sys/class/net/$2/address"; }
mac_s=$(mac "$ns_s" vS) mac_rs=$(mac "$ns_r" rS) mac_rd=$(mac "$ns_r" rD) mac_d=$(mac "$ns_d" vD)
# the router's neighbours fixed: no ARP exchange while the taps run
in_r ip neigh replace 10.211.1.1 lladdr "$mac_s" nud permanent dev rS
in_r ip neigh replace 10.211.2.2 lladdr "$mac_d" nud permanent dev rD
for dev in rD rS; do
	in_r tc qdisc add dev $dev clsact 2>"$work/tc.err" &&
		in_r tc filter add dev $dev egress bpf da obj "$work/rule.o" sec tc 2>>"$work/tc.err" ||
		skip "cannot attach the BPF rule to $dev: $(grep -v '^libbpf' "$work/tc.err" | head -n 1)"
done

# tap NS IF FILE: tcpdump in the background, nanosecond timestamps, every
# frame whole, each handed over and written as it comes (--immediate-mode,
# -U: with TPACKET_V3's blocks, a block not yet handed over when tcpdump is
# stopped is lost); waits for it to listen.
tap() {
	ip netns exec "$1" tcpdump -i "$2" -n -s 0 --immediate-mode -U -Z root --time-stamp-precision=nano -w "$3" \
		2>"$3.err" &
	bg="$bg $!"
	for _ in $(seq 1 100); do
		grep -q "listening on" "$3.err" 2>/dev/null && return 0
		sleep 0.05
	done
	skip "tcpdump cannot capture on $2 here: $(tr '\n' ' ' <"$3.err")"
}
tap "$ns_s" vS "$work/a.pcap"
tap "$ns_d" vD "$work/b.pcap"
taps=$bg
"$py" "$src/tests/e2e/between_netns_traffic.py" "$work/truth.json" \
	"$ns_s" vS "$mac_s" 10.211.1.1 "$mac_rs" "$ns_d" vD "$mac_d" 10.211.2.2 "$mac_rd" ||
	{
		st=$?
		[ $st -eq 77 ] && exit 77
		echo "FAIL: the traffic script exited $st"
		exit 1
	}
sleep 1 # past libpcap's 1 s block timeout, should a block still be held
for p in $taps; do
	kill -INT "$p"
done
for p in $taps; do
	wait "$p"
done
bg=""
for t in a b; do
	grep -E "packets? dropped by kernel" "$work/$t.pcap.err" | grep -qv "^0 " &&
		{ echo "FAIL: tap $t dropped packets: $(tr '\n' ' ' <"$work/$t.pcap.err")"; exit 1; }
done

status=0
check() {
	"$py" "$src/tests/e2e/between_netns_check.py" "$cap" "$work/a.pcap" "$work/b.pcap" "$work/truth.json" \
		"$DROP_MOD" "$DROP_REM" "$MARK_MOD" "$MARK_REM" "$DUP_MOD" "$DUP_REM" "$@" || status=1
}
check
check --estimate-offset
exit $status
