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
. "$(dirname "$0")/gen_netns.sh"
command -v tshark >/dev/null 2>&1 || skip "tshark is not installed"
gen_pair "$src/tests/e2e/responder-ops.yaml" 3s
. "$src/tests/e2e/tshark_noheur.sh"
# shellcheck disable=SC2086
malformed=$(tshark -n -r "$work/cap.pcap" $noheur -Y _ws.malformed 2>/dev/null | wc -l)
if [ "$malformed" != 0 ]; then
	echo "FAIL: tshark finds $malformed malformed packets" >&2
	exit 1
fi
# shellcheck disable=SC2086
tshark -n -r "$work/cap.pcap" $noheur -Y infiniband -T fields -E separator='|' \
	-e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn -e infiniband.bth.padcnt \
	-e udp.length -e infiniband.reth.va -e infiniband.reth.dmalen -e infiniband.atomiceth.swapdt \
	-e infiniband.atomiceth.cmpdt -e infiniband.atomicacketh.origremdt -e infiniband.aeth.msn \
	>"$work/fields.txt" 2>"$work/tshark.err" || { echo "FAIL: tshark:" >&2; cat "$work/tshark.err" >&2; exit 1; }
"$py" "$src/tests/e2e/responder_ops_check.py" "$work/fields.txt" "$work/resp.json" "$work/req.json"
