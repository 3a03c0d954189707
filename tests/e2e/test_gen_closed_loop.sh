#!/bin/sh
# rocewire-gen's closed loop on a real (virtual) wire: two network namespaces
# joined by a veth pair, a requester process (net_af_packet on one end) and a
# `--role responder` process (on the other end), rocewire-cap capturing on
# the responder's side. The congestion point is in the kernel's datapath on
# the requester's veth: ecn_marker.bpf.c, a tc egress program marking CE as
# RED does on a phantom queue drained at 100 Mb/s (the host kernel has no
# ECN-marking qdisc: CONFIG_NET_SCH_RED, fq_codel and pie are not set). The
# responder's notification point sends CNPs back, and the requester's DCQCN
# reaction points, fed by its RX path, cut the rates. Checked from the
# capture alone (closed_loop_check.py): CE marks, CNPs to the requester's
# QPs with good ICRCs, paced, and a send rate that falls from the offered
# 500 Mb/s to around the phantom queue's 100 Mb/s.
# Env: ROCEWIRE_GEN, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR. Root (namespaces).
set -u
py=/usr/bin/python3
gen=${ROCEWIRE_GEN:-}
cap=${ROCEWIRE_CAP:-}
src=${ROCEWIRE_SOURCE_DIR:-}
for t in "$gen" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_GEN and ROCEWIRE_CAP (got \"$gen\", \"$cap\")" >&2
		exit 1
	fi
done
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "the closed loop needs root (network namespaces, packet sockets)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
[ -x "$py" ] || skip "$py is missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-gencl.XXXXXX")
nsa=rwcla$$
nsb=rwclb$$
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
[ -n "${ROCEWIRE_KEEP:-}" ] && trap "cp $work/cl.pcap $ROCEWIRE_KEEP; cleanup" EXIT
ip netns add "$nsa" && ip netns add "$nsb" || skip "cannot create network namespaces"
ip -n "$nsa" link add va type veth peer name vb netns "$nsb" || skip "cannot create a veth pair"
ip -n "$nsa" link set va up && ip -n "$nsb" link set vb up

command -v clang >/dev/null 2>&1 || skip "clang is not installed (it builds the marking program)"
command -v tc >/dev/null 2>&1 || skip "tc (iproute2) is not installed"
march=$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)
if ! clang -O2 -g -target bpf -I"/usr/include/$march" -DRATE_BPS=100000000ULL -DKMIN=64000 -DKMAX=256000 \
	-c "$src/tests/e2e/ecn_marker.bpf.c" -o "$work/marker.o" 2>"$work/clang.err"; then
	skip "cannot build the BPF marker (libbpf-dev headers?): $(head -n 1 "$work/clang.err")"
fi
ip netns exec "$nsa" tc qdisc add dev va clsact 2>"$work/tc.err" &&
	ip netns exec "$nsa" tc filter add dev va egress bpf da obj "$work/marker.o" sec tc 2>>"$work/tc.err" ||
	skip "cannot attach the BPF marker to the veth: $(grep -v '^libbpf' "$work/tc.err" | head -n 1)"

scen=$src/tests/e2e/closed-loop.yaml
eal="--no-huge -m 256 --no-pci --no-shconf --log-level=*:error"
# each process on its own core: a responder starved of the CPU sends its CNPs
# late, and the capture would show them closer than its pacing decided
ip netns exec "$nsb" "$cap" -i vb -w "$work/cl.pcap" -q 2>"$work/cap.err" &
pids="$pids $!"
# shellcheck disable=SC2086
ip netns exec "$nsb" "$gen" $eal -l 0 --file-prefix "$nsb" --vdev=net_af_packet0,iface=vb,qdisc_bypass=0 -- \
	--role responder -d 4s -Q -j "$work/resp.json" "$scen" 2>"$work/resp.err" &
rpid=$!
sleep 1.5
# shellcheck disable=SC2086
if ! ip netns exec "$nsa" "$gen" $eal -l 1 --file-prefix "$nsa" --vdev=net_af_packet0,iface=va,qdisc_bypass=0 -- \
	-Q -j "$work/req.json" "$scen" 2>"$work/req.err"; then
	echo "FAIL: the requester exited non-zero:" >&2
	cat "$work/req.err" >&2
	exit 1
fi
if ! wait "$rpid"; then
	echo "FAIL: the responder exited non-zero:" >&2
	cat "$work/resp.err" >&2
	exit 1
fi
sleep 0.5
for p in $pids; do kill -INT "$p" 2>/dev/null; done
for p in $pids; do wait "$p" 2>/dev/null; done
pids=""
"$cap" -r "$work/cl.pcap" --report --json >"$work/report.json" 2>"$work/report.err"
[ $? -le 1 ] || { echo "FAIL: rocewire-cap cannot read the capture:" >&2; cat "$work/report.err" >&2; exit 1; }
"$py" "$src/tests/e2e/closed_loop_check.py" "$work/cl.pcap" "$work/report.json"
