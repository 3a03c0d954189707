#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The generator's flow model through Wireshark and rocewire-cap: the built-in
# scenario of rocewire-genmodel (RC WRITE/READ/SEND/atomics, UC, UD, IPv6 with
# VLAN, one request dropped on its first send) written to a pcap by proto's
# builder, then checked against the IBA by tshark's own dissector (nothing
# malformed; opcodes, RETH placement and PSNs per QP as the spec orders them)
# and by rocewire-cap --report --json (per-flow packets and bytes equal the
# model's counters, every ICRC good, no gap or resend but the injected one).
# Env: ROCEWIRE_GENMODEL, ROCEWIRE_CAP. Exit 77 when tshark or python3 is
# missing.
set -u
py=/usr/bin/python3
# shellcheck source=tshark_env.sh
. "$(dirname "$0")/tshark_env.sh"
gm=${ROCEWIRE_GENMODEL:-}
cap=${ROCEWIRE_CAP:-}
for t in "$gm" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_GENMODEL and ROCEWIRE_CAP to the built tools (got \"$gm\", \"$cap\")" >&2
		exit 1
	fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-genmodel.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A clean profile: no user preference changes decoding.
export HOME="$work" XDG_CONFIG_HOME="$work/.config"
# shellcheck source=tshark_noheur.sh
. "$(dirname "$0")/tshark_noheur.sh"

set -e
"$gm" - "$work/gen.pcap" >"$work/model.json"
# shellcheck disable=SC2086
tshark -n $noheur -r "$work/gen.pcap" -Y _ws.malformed >"$work/malformed.txt" 2>"$work/tshark.err"
# shellcheck disable=SC2086
tshark -n $noheur -r "$work/gen.pcap" -T fields -E separator=, -E occurrence=f \
	-e frame.number -e ip.src -e ipv6.src -e ip.dst -e ipv6.dst -e vlan.priority \
	-e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn -e infiniband.bth.a \
	-e infiniband.reth.dmalen -e infiniband.aeth.syndrome >"$work/fields.csv" 2>>"$work/tshark.err"
"$cap" --report --json -r "$work/gen.pcap" >"$work/report.json" 2>"$work/cap.err"
set +e

if [ -s "$work/malformed.txt" ]; then
	echo "FAIL: tshark finds malformed frames:" >&2
	head -20 "$work/malformed.txt" >&2
	exit 1
fi

"$py" - "$work/model.json" "$work/fields.csv" "$work/report.json" <<'EOF'
import csv, json, sys

model = json.load(open(sys.argv[1]))["flows"]
rows = list(csv.reader(open(sys.argv[2])))
report = json.load(open(sys.argv[3]))
fails = []

def fail(msg):
    fails.append(msg)

# IBA Table 38, written down here from the spec: what each request opcode
# is, for the transport bits 7:5 = 0 (RC), 1 (UC), 3 (UD).
FIRST, MIDDLE, LAST, ONLY = "first", "middle", "last", "only"
REQ = {0x00: FIRST, 0x01: MIDDLE, 0x02: LAST, 0x03: LAST, 0x04: ONLY, 0x05: ONLY,
       0x06: FIRST, 0x07: MIDDLE, 0x08: LAST, 0x09: LAST, 0x0A: ONLY, 0x0B: ONLY,
       0x0C: ONLY, 0x13: ONLY, 0x14: ONLY, 0x16: LAST, 0x17: ONLY}
RETH = {0x06, 0x0A, 0x0B, 0x0C}          # WRITE FIRST/ONLY(+IMM), READ request
READ_RESP = {0x0D, 0x0E, 0x0F, 0x10}
AETH_KIND_NAK = 3

by_dqpn = {}
for f in model:
    for q in range(f["qps"]):
        by_dqpn[f["dst_qpn"] + q] = (f, "req")
        by_dqpn[f["src_qpn"] + q] = (f, "rsp")

state = {}   # request stream per destination QP: next new PSN, gaps, resends
naks = {}
vlan_seen = 0
for r in rows:
    frame, ip4s, ip6s, ip4d, ip6d, prio, opc, dqpn, psn, ackreq, dmalen, syn = r
    opc, dqpn, psn = int(opc, 0), int(dqpn, 0), int(psn, 0)
    f, side = by_dqpn.get(dqpn, (None, None))
    if f is None:
        fail("frame %s: destination QP 0x%x belongs to no flow" % (frame, dqpn))
        continue
    if ip6s:
        vlan_seen += 1
        if prio != "3":
            fail("frame %s: IPv6 flow without the hosts' VLAN priority 3 (%r)" % (frame, prio))
    low = opc & 0x1F
    if side == "req":
        tr = {"rc": 0, "uc": 1, "ud": 3}[f["transport"]]
        if opc >> 5 != tr or low not in REQ:
            fail("frame %s: opcode 0x%02x is not a %s request" % (frame, opc, f["transport"]))
            continue
        if (low in RETH) != (dmalen != ""):
            fail("frame %s: opcode 0x%02x with%s a RETH" % (frame, opc, "" if dmalen else "out"))
        s = state.setdefault(dqpn, {"next": None, "gaps": [], "resends": [], "pos": None, "f": f})
        if s["next"] is None:
            s["next"] = psn
        d = (psn - s["next"]) & 0xFFFFFF
        if d == 0:
            # PSNs the spec gives this request: a READ takes one per response.
            n = -(-int(dmalen) // f["mtu"]) if low == 0x0C else 1
            s["next"] = (psn + max(n, 1)) & 0xFFFFFF
            # Message order: FIRST then MIDDLEs then LAST, or ONLY.
            pos = REQ[low]
            if s["pos"] in (FIRST, MIDDLE) and pos not in (MIDDLE, LAST):
                fail("frame %s: %s after an unfinished message" % (frame, pos))
            if s["pos"] in (None, LAST, ONLY) and pos in (MIDDLE, LAST):
                fail("frame %s: %s with no FIRST" % (frame, pos))
            s["pos"] = pos
        elif d < 0x800000:
            s["gaps"].append(psn)
            s["next"] = (psn + 1) & 0xFFFFFF
            s["pos"] = REQ[low]
        else:
            s["resends"].append(psn)
    else:
        if opc >> 5 != 0:
            fail("frame %s: response opcode 0x%02x on a %s flow" % (frame, opc, f["transport"]))
        if syn and (int(syn, 0) >> 5) == AETH_KIND_NAK:
            naks.setdefault(dqpn, []).append((psn, int(syn, 0) & 0x1F))

if vlan_seen == 0:
    fail("no IPv6 frame in the capture")
for dqpn, s in state.items():
    f = s["f"]
    if f["drops"] == 0:
        if s["gaps"] or s["resends"]:
            fail("flow %s QP 0x%x: gaps %s, resends %d on a clean flow" %
                 (f["name"], dqpn, s["gaps"], len(s["resends"])))
        continue
    # The one drop: one gap right after it, one sequence NAK naming the lost
    # PSN, and the resends start there.
    if len(s["gaps"]) != 1:
        fail("flow %s: %d gaps, expected 1" % (f["name"], len(s["gaps"])))
        continue
    lost = (s["gaps"][0] - 1) & 0xFFFFFF
    rsp = naks.get(f["src_qpn"], [])
    if rsp != [(lost, 0)]:
        fail("flow %s: NAKs %s, expected one PSN sequence error for 0x%x" % (f["name"], rsp, lost))
    if not s["resends"] or s["resends"][0] != lost:
        fail("flow %s: resends start at %s, expected 0x%x" %
             (f["name"], hex(s["resends"][0]) if s["resends"] else "none", lost))
    if len(s["resends"]) != f["retransmissions"]:
        fail("flow %s: %d resends in the capture, the model says %d" %
             (f["name"], len(s["resends"]), f["retransmissions"]))

# rocewire-cap's per-QP flows against the model's per-flow counters.
sums = {}
for q in report["qps"]:
    f, side = by_dqpn.get(q["dqpn"], (None, None))
    if f is None:
        fail("rocewire-cap: flow to QP 0x%x belongs to no flow" % q["dqpn"])
        continue
    k = (f["name"], side)
    p, b = sums.get(k, (0, 0))
    sums[k] = (p + q["packets"], b + q["bytes"])
    if q["icrc_bad"]:
        fail("rocewire-cap: %d bad ICRCs on QP 0x%x" % (q["icrc_bad"], q["dqpn"]))
    if q["incomplete_messages"]:
        fail("rocewire-cap: %d incomplete messages on QP 0x%x" % (q["incomplete_messages"], q["dqpn"]))
    if side == "req" and f["drops"] == 0 and (q["psn_gaps"] or q["retransmissions"]):
        fail("rocewire-cap: QP 0x%x of clean flow %s: %d gaps, %d resends" %
             (q["dqpn"], f["name"], q["psn_gaps"], q["retransmissions"]))
    if side == "req" and f["drops"] and (q["psn_gaps"] != 1 or q["retransmissions"] != f["retransmissions"]):
        fail("rocewire-cap: lossy flow %s: %d gaps, %d resends (model: 1, %d)" %
             (f["name"], q["psn_gaps"], q["retransmissions"], f["retransmissions"]))
for f in model:
    for side, pk, by in (("req", "requests", "request_bytes"), ("rsp", "responses", "response_bytes")):
        got = sums.get((f["name"], side), (0, 0))
        if got != (f[pk], f[by]):
            fail("flow %s %s: rocewire-cap counts %d packets / %d bytes, the model %d / %d" %
                 (f["name"], pk, got[0], got[1], f[pk], f[by]))

for m in fails:
    print("FAIL: " + m, file=sys.stderr)
if fails:
    sys.exit(1)
print("ok: %d frames, %d flows, tshark and rocewire-cap agree with the model" % (len(rows), len(model)))
EOF
