#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The closed loop with a real responder: rocewire-gen's requester (RC,
# responder: external, closed-loop mode: it reads what its port brings)
# against `rocewire-gen --role responder` on a veth between two namespaces,
# with READ, WRITE, fetch-and-add and compare-and-swap on two QPs and every
# 61st request lost on its first send (responder-ops.yaml); rocewire-cap
# captures at the responder. Checked through Wireshark's own dissector
# against a responder written from the IBA (responder_ops_check.py): every
# READ response, atomic ACK (original values from a replayed memory) and
# NAK is one the spec asks for and none is missing, duplicates answered
# again, go-back-N recovered every loss driven by the NAKs, the requester
# completed every message, nothing malformed, and both summaries count what
# the capture holds.
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
	-e infiniband.atomiceth.cmpdt -e infiniband.atomicacketh.origremdt -e infiniband.aeth.syndrome \
	>"$work/fields.txt" 2>"$work/tshark.err" || { echo "FAIL: tshark:" >&2; cat "$work/tshark.err" >&2; exit 1; }
"$py" "$src/tests/e2e/responder_ops_check.py" "$work/fields.txt" "$work/resp.json" "$work/req.json"
