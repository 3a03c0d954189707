#!/bin/sh
# The responder role (`rocewire-gen --role responder`) answers RDMA READs
# and atomics as an RC responder does: two network namespaces joined by a
# veth, a requester process sending READ, WRITE, fetch-and-add and
# compare-and-swap on two RC QPs (responder-ops.yaml), the responder on the
# other end, rocewire-cap capturing there. Checked from the capture through
# Wireshark's own dissector (responder_ops_check.py): every READ answered by
# ceil(length / MTU) response packets at the request's PSNs with the right
# FIRST/MIDDLE/LAST/ONLY opcodes and as many payload bytes as it asked;
# every atomic by an atomic ACK at its PSN whose original value is what a
# 64-bit memory (each word zero at first) held, replayed in request order;
# nothing malformed; the responder's summary counts what the capture shows.
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
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, packet sockets)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
command -v tshark >/dev/null 2>&1 || skip "tshark is not installed"
[ -x "$py" ] || skip "$py is missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-genops.XXXXXX")
nsa=rwopa$$
nsb=rwopb$$
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$nsa" && ip netns add "$nsb" || skip "cannot create network namespaces"
ip -n "$nsa" link add va type veth peer name vb netns "$nsb" || skip "cannot create a veth pair"
ip -n "$nsa" link set va up && ip -n "$nsb" link set vb up

scen=$src/tests/e2e/responder-ops.yaml
eal="--no-huge -m 256 --no-pci --no-shconf --log-level=*:error"
ip netns exec "$nsb" "$cap" -i vb -w "$work/ops.pcap" -q 2>"$work/cap.err" &
pids="$pids $!"
# shellcheck disable=SC2086
ip netns exec "$nsb" "$gen" $eal -l 0 --file-prefix "$nsb" --vdev=net_af_packet0,iface=vb,qdisc_bypass=0 -- \
	--role responder -d 3s -Q -j "$work/resp.json" "$scen" 2>"$work/resp.err" &
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
. "$src/tests/e2e/tshark_noheur.sh"
# shellcheck disable=SC2086
malformed=$(tshark -n -r "$work/ops.pcap" $noheur -Y _ws.malformed 2>/dev/null | wc -l)
if [ "$malformed" != 0 ]; then
	echo "FAIL: tshark finds $malformed malformed packets" >&2
	exit 1
fi
# shellcheck disable=SC2086
tshark -n -r "$work/ops.pcap" $noheur -Y infiniband -T fields -E separator='|' \
	-e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn -e infiniband.bth.padcnt \
	-e udp.length -e infiniband.reth.va -e infiniband.reth.dmalen -e infiniband.atomiceth.swapdt \
	-e infiniband.atomiceth.cmpdt -e infiniband.atomicacketh.origremdt -e infiniband.aeth.msn \
	>"$work/fields.txt" 2>"$work/tshark.err" || { echo "FAIL: tshark:" >&2; cat "$work/tshark.err" >&2; exit 1; }
"$py" "$src/tests/e2e/responder_ops_check.py" "$work/fields.txt" "$work/resp.json" "$work/req.json"
