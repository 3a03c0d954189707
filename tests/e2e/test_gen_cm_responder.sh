#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# CM with a real responder on the wire: rocewire-gen's requester (RC flows
# with cm: true and responder: external, closed-loop mode: it reads the REP
# and DREP from its port) against `rocewire-gen --role responder` on a veth
# between two namespaces (net_af_packet), cm-responder.yaml; rocewire-cap
# captures at the responder. Then a requester with a QP the responder's
# scenario does not have (cm-responder-stranger.yaml) gets a REJ, and the
# same with no responder running sends its REQ 16 times and fails the QP.
# The first REQ, taken by tcpdump, is sent again with tcpreplay once its
# connection is over: the responder answers it with the same REP.
# Checked through Wireshark's own CM dissector (cm_responder_check.py):
# every connection opens with REQ, REP, RTU before its first data packet
# and closes with DREQ, DREP after its last; the REP announces the QP the
# requests go to and the first request's PSN, echoes the REQ's comm ID and
# TID (the REQ sent again: the same REP); the REJ answers the stranger's REQ (reason 8, IDs and TID echoed);
# both summaries count what the capture holds. Then the engine
# (rocewire-cap --report --json) pairs every RC flow by CM, nothing unsynced.
# Env: ROCEWIRE_GEN, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR. Root (namespaces).
. "$(dirname "$0")/gen_netns.sh"
command -v tshark >/dev/null 2>&1 || skip "tshark is not installed"
[ -n "${ROCEWIRE_KEEP:-}" ] && trap 'cp "$work"/*.pcap "$work"/*.json "$work"/*.err "$ROCEWIRE_KEEP"; cleanup' EXIT

s=$src/tests/e2e/cm-responder.yaml
gen_capture_start
# the first REQ as it came, to send again once the connection is over (a REQ
# sent again gets the same REP again); without tcpdump and tcpreplay not
if command -v tcpdump >/dev/null 2>&1 && command -v tcpreplay >/dev/null 2>&1; then
	ip netns exec "$nsb" tcpdump -i vB -Q in -c 1 -w "$work/req1.pcap" udp port 4791 >/dev/null 2>&1 &
	dpid=$!
	BG_PIDS="$BG_PIDS $dpid"
else
	echo "note: tcpdump or tcpreplay missing: no REQ is sent again"
	dpid=""
fi
gen_responder_start "$s" 4s
sleep 1.5
gen_requester req "$s"
again=0
if [ -n "$dpid" ] && [ -s "$work/req1.pcap" ]; then
	ip netns exec "$nsa" tcpreplay -q -i vA "$work/req1.pcap" >"$work/tcpreplay.err" 2>&1 && again=1
fi
gen_requester str "$src/tests/e2e/cm-responder-stranger.yaml"
gen_responder_wait
gen_stop_bg
# nobody answers now: the REQ goes out 16 times, then the QP fails
gen_requester alone "$src/tests/e2e/cm-responder-stranger.yaml"

. "$src/tests/e2e/tshark_noheur.sh"
# shellcheck disable=SC2086
malformed=$(tshark -n -r "$work/cap.pcap" $noheur -Y _ws.malformed 2>/dev/null | wc -l)
if [ "$malformed" != 0 ]; then
	echo "FAIL: tshark finds $malformed malformed packets" >&2
	exit 1
fi
fields="frame.number ip.src ip.dst infiniband.bth.opcode infiniband.bth.destqp infiniband.bth.psn
infiniband.deth.srcqp infiniband.mad.mgmtclass infiniband.mad.attributeid infiniband.mad.transactionid
infiniband.cm.req infiniband.cm.req.localqpn infiniband.cm.req.startpsn infiniband.cm.rep
infiniband.cm.rep.remotecommid infiniband.cm.rep.localqpn infiniband.cm.rep.startpsn infiniband.cm.rtu.localcommid
infiniband.cm.rtu.remotecommid infiniband.cm.dreq.localcommid infiniband.cm.dreq.remotecommid
infiniband.cm.req.remoteqpneecn infiniband.cm.drsp.localcommid infiniband.cm.drsp.remotecommid
infiniband.cm.rej.localcommid infiniband.cm.rej.remotecommid infiniband.cm.rej.msgrej infiniband.cm.rej.reason"
args=""
for f in $fields; do
	args="$args -e $f"
done
# shellcheck disable=SC2086
if ! tshark -n $noheur -r "$work/cap.pcap" -Y infiniband -T fields -E header=y -E separator=/t -E occurrence=f \
	$args >"$work/cm.tsv" 2>"$work/tshark.err"; then
	echo "FAIL: tshark could not read the capture:" >&2
	cat "$work/tshark.err" >&2
	exit 1
fi
"$cap" -r "$work/cap.pcap" --report --json >"$work/report.json" 2>"$work/report.err"
[ $? -le 1 ] || { echo "FAIL: rocewire-cap cannot read the capture:" >&2; cat "$work/report.err" >&2; exit 1; }
"$py" "$src/tests/e2e/cm_responder_check.py" "$work/cm.tsv" "$work/report.json" "$work/resp.json" \
	"$work/req.json" "$work/str.json" "$work/str.err" "$work/alone.json" "$work/alone.err" "$again"
