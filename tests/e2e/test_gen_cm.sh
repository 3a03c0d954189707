#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-gen's CM handshake (`cm: true`) read back by Wireshark's own CM
# dissector: samples/scenarios/cm-handshake.yaml goes through DPDK's net_pcap
# into a file, and gen_cm_check.py asserts, from tshark's fields alone, that
# every RC connection opens with REQ, REP, RTU before its first request and
# closes with DREQ, DREP after its last packet, that the QPNs and PSNs the
# REQ and REP announce are those the data then uses, that the comm IDs echo
# and the TIDs pair as a CM's do, and that the ground truth and the summary
# count the same messages.
# Env: ROCEWIRE_GEN, ROCEWIRE_SOURCE_DIR. Exit 77 when tshark, python3 or the
# generator is missing.
set -u
py=/usr/bin/python3
gen=${ROCEWIRE_GEN:-}
src=${ROCEWIRE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tshark_env.sh
. "$(dirname "$0")/tshark_env.sh"
if [ -z "$gen" ] || [ ! -x "$gen" ]; then
	echo "SKIP: rocewire-gen is not built (set ROCEWIRE_GEN; got \"$gen\")"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-gen-cm.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work" XDG_CONFIG_HOME="$work/.config"
# shellcheck source=tshark_noheur.sh
. "$(dirname "$0")/tshark_noheur.sh"

s="$src/samples/scenarios/cm-handshake.yaml"
if ! "$gen" -w "$work/cm.pcap" --truth-jsonl "$work/cm.jsonl" --summary-json "$work/cm.json" --no-status -Q \
	"$s" 2>"$work/gen.err"; then
	echo "FAIL: rocewire-gen exited non-zero:" >&2
	cat "$work/gen.err" >&2
	exit 1
fi
# shellcheck disable=SC2086
tshark -n $noheur -r "$work/cm.pcap" -Y _ws.malformed >"$work/malformed" 2>/dev/null
if [ -s "$work/malformed" ]; then
	echo "FAIL: tshark finds malformed frames:" >&2
	head -5 "$work/malformed" >&2
	exit 1
fi
fields="frame.number ip.src ip.dst vlan.id ip.dsfield.dscp infiniband.bth.opcode infiniband.bth.destqp
infiniband.bth.psn infiniband.deth.srcqp infiniband.deth.q_key infiniband.mad.mgmtclass infiniband.mad.attributeid
infiniband.mad.transactionid infiniband.cm.req infiniband.cm.req.localqpn infiniband.cm.req.startpsn
infiniband.cm.req.pppmtu infiniband.cm.req.retrcount infiniband.cm.req.rnrretrcount infiniband.cm.req.transpsvctype
infiniband.cm.req.pkey infiniband.cm.req.prim_localgid_ipv4 infiniband.cm.req.prim_remotegid_ipv4
infiniband.cm.req.ip_cm.sip4 infiniband.cm.req.ip_cm.dip4
infiniband.cm.rep infiniband.cm.rep.remotecommid infiniband.cm.rep.localqpn infiniband.cm.rep.startpsn
infiniband.cm.rtu.localcommid infiniband.cm.rtu.remotecommid infiniband.cm.dreq.localcommid
infiniband.cm.dreq.remotecommid infiniband.cm.req.remoteqpneecn infiniband.cm.drsp.localcommid
infiniband.cm.drsp.remotecommid"
args=""
for f in $fields; do
	args="$args -e $f"
done
# shellcheck disable=SC2086
if ! tshark -n $noheur -r "$work/cm.pcap" -T fields -E header=y -E separator=/t -E occurrence=f $args \
	>"$work/cm.tsv" 2>"$work/tshark.err"; then
	echo "FAIL: tshark could not read the capture:" >&2
	cat "$work/tshark.err" >&2
	exit 1
fi
"$py" "$src/tests/e2e/gen_cm_check.py" "$work/cm.tsv" "$work/cm.jsonl" "$work/cm.json" || exit 1
# The engine reads the same handshakes: every RC flow paired by CM at its
# connection's REP (tshark's frame numbers), no packet unsynced.
cap=${ROCEWIRE_CAP:-}
if [ -z "$cap" ] || [ ! -x "$cap" ]; then
	echo "note: rocewire-cap not built (ROCEWIRE_CAP): the engine's CM pairing is not checked"
	exit 0
fi
if ! "$cap" -r "$work/cm.pcap" --report --json --html "$work/report.html" >"$work/report.json" \
	2>"$work/cap.err"; then
	echo "FAIL: rocewire-cap --report --json exited non-zero:" >&2
	cat "$work/cap.err" >&2
	exit 1
fi
exec "$py" - "$work/cm.tsv" "$work/report.json" "$work/report.html" <<'PYEOF'
import csv, json, re, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
rep = json.load(open(sys.argv[2]))
html = open(sys.argv[3]).read()
# tshark: each REP's frame, by the QPN it announces (the requests' QP)
reps = {int(r["infiniband.cm.rep.localqpn"], 0): int(r["frame.number"])
        for r in rows if r["infiniband.cm.rep.localqpn"]}
reqs = {int(r["infiniband.cm.req.localqpn"], 0) for r in rows if r["infiniband.cm.req.localqpn"]}
fails = []
rc = [q for q in rep["qps"] if q["transport"] == "RC"]
for q in rc:
    how, frame = q["pairing"]["how"], q["pairing"]["frame"]
    want = reps.get(q["dqpn"])
    if want is None and q["dqpn"] in reqs:
        # the responder's flow: paired at the REP of its peer
        peer = next((p for p in rep["qps"] if p["index"] == q["peer"]), None)
        want = reps.get(peer["dqpn"]) if peer else None
    if how != "cm" or frame != want:
        fails.append("flow %d (QP 0x%06x): pairing %s at frame %s, expected cm at %s" %
                     (q["index"], q["dqpn"], how, frame, want))
    if q["unsynced_packets"]:
        fails.append("flow %d: %d unsynced packets" % (q["index"], q["unsynced_packets"]))
if len(rep["handshakes"]) != len(reps):
    fails.append("%d handshakes in the report, %d REPs in the capture" % (len(rep["handshakes"]), len(reps)))
for h in rep["handshakes"]:
    if h["state"] != "disconnected":
        fails.append("handshake %s: state %s" % (h["local_comm_id"], h["state"]))
# the HTML page's table: one row per handshake, each "disconnected"
m = re.search(r'<table id="handshakes">.*?<tbody>(.*?)</tbody>', html, re.S)
if not m or m.group(1).count("<tr>") != len(reps) or m.group(1).count("disconnected") != len(reps):
    fails.append("the HTML page's handshakes table does not list the %d connections" % len(reps))
for f in fails:
    print("FAIL: " + f, file=sys.stderr)
if fails or not rc:
    sys.exit(1)
print("ok: %d RC flows paired by CM, %d handshakes, nothing unsynced" % (len(rc), len(rep["handshakes"])))
PYEOF
