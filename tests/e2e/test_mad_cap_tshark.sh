#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What rocewire-cap shows of management datagrams, against Wireshark's own
# MAD and CM dissectors, on every MAD of: rocewire-madcap's captures (a CM
# handshake with MRA and REJ, SMPs, an SA PathRecord, a PerfMgt
# PortCounters, over RoCEv2 and native IB) and every capture in samples/
# that holds one (the real rdma_cm handshake of Soft-RoCE among them).
# For each frame tshark calls a MAD, rocewire-cap --json must have a `mad`
# object whose class, method, attribute, modifier, status and TID are
# tshark's, and for a CM message a `cm` object whose message and fields
# (comm IDs, QPNs, starting PSNs, path MTU, retry counts, REJ reason) are
# tshark's; its default line must name the message ("cm message REQ") or the
# method and attribute. No frame may be a MAD for one and not the other.
# Env: ROCEWIRE_MADCAP, ROCEWIRE_CAP, SOURCE_DIR. Exit 77 when tshark or
# python3 is missing.
set -u
py=/usr/bin/python3
# shellcheck source=tshark_env.sh
. "$(dirname "$0")/tshark_env.sh"
for v in ROCEWIRE_MADCAP ROCEWIRE_CAP SOURCE_DIR; do
	eval "x=\${$v:-}"
	if [ -z "$x" ]; then
		echo "FAIL: set $v" >&2
		exit 1
	fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-madcap.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work" XDG_CONFIG_HOME="$work/.config"
# shellcheck source=tshark_noheur.sh
. "$(dirname "$0")/tshark_noheur.sh"

"$ROCEWIRE_MADCAP" "$work" >/dev/null || exit 1
set -- "$work/roce.pcap" "$work/ib.pcap"
for f in "$SOURCE_DIR"/samples/*.pcap "$SOURCE_DIR"/samples/*/*.pcap; do
	[ -f "$f" ] && set -- "$@" "$f"
done
fields="frame.number infiniband.mad.mgmtclass infiniband.mad.method infiniband.mad.attributeid
infiniband.mad.attributemodifier infiniband.mad.status infiniband.mad.transactionid
infiniband.cm.req infiniband.cm.req.localqpn infiniband.cm.req.startpsn infiniband.cm.req.pppmtu
infiniband.cm.req.retrcount infiniband.cm.req.rnrretrcount infiniband.cm.req.serviceid
infiniband.cm.rep infiniband.cm.rep.remotecommid infiniband.cm.rep.localqpn
infiniband.cm.rep.startpsn infiniband.cm.rtu.localcommid infiniband.cm.rtu.remotecommid
infiniband.cm.dreq.localcommid infiniband.cm.dreq.remotecommid infiniband.cm.req.remoteqpneecn
infiniband.cm.drsp.localcommid infiniband.cm.drsp.remotecommid infiniband.cm.rej.localcommid
infiniband.cm.rej.remotecommid infiniband.cm.rej.reason"
n=0
for pcap in "$@"; do
	n=$((n + 1))
	args=""
	for x in $fields; do
		args="$args -e $x"
	done
	# shellcheck disable=SC2086
	tshark -n $noheur -r "$pcap" -T fields -E header=y -E separator=/t -E occurrence=f $args \
		>"$work/$n.tsv" 2>"$work/$n.err"
	if grep -q "unknown or unsupported" "$work/$n.err"; then
		# tshark 4.0 reads no LINKTYPE_INFINIBAND (247) pcap
		echo "note: tshark cannot read $pcap (link type), not compared"
		n=$((n - 1))
		continue
	fi
	if ! [ -s "$work/$n.tsv" ]; then
		cat "$work/$n.err" >&2
		exit 1
	fi
	"$ROCEWIRE_CAP" -r "$pcap" --json >"$work/$n.json" 2>"$work/$n.caperr" || true
	"$ROCEWIRE_CAP" -r "$pcap" >"$work/$n.lines" 2>/dev/null || true
	echo "$pcap" >"$work/$n.name"
done

"$py" - "$work" "$n" <<'PYEOF'
import csv, json, sys

work, n = sys.argv[1], int(sys.argv[2])

def num(s):
    s = s.strip()
    return int(s, 0) if s else None

# tshark field -> (our object, our key), by CM message (attribute ID)
HDR = [("infiniband.mad.mgmtclass", "class"), ("infiniband.mad.method", "method"),
       ("infiniband.mad.attributeid", "attribute"),
       ("infiniband.mad.attributemodifier", "attribute_modifier"),
       ("infiniband.mad.status", "status"), ("infiniband.mad.transactionid", "tid")]
CM = {
    0x10: ("REQ", [("infiniband.cm.req", "local_comm_id"), ("infiniband.cm.req.localqpn", "local_qpn"),
                   ("infiniband.cm.req.startpsn", "starting_psn"), ("infiniband.cm.req.pppmtu", "path_mtu"),
                   ("infiniband.cm.req.retrcount", "retry_count"),
                   ("infiniband.cm.req.rnrretrcount", "rnr_retry_count"),
                   ("infiniband.cm.req.serviceid", "service_id")]),
    0x13: ("REP", [("infiniband.cm.rep", "local_comm_id"), ("infiniband.cm.rep.remotecommid", "remote_comm_id"),
                   ("infiniband.cm.rep.localqpn", "local_qpn"), ("infiniband.cm.rep.startpsn", "starting_psn")]),
    0x14: ("RTU", [("infiniband.cm.rtu.localcommid", "local_comm_id"),
                   ("infiniband.cm.rtu.remotecommid", "remote_comm_id")]),
    0x15: ("DREQ", [("infiniband.cm.dreq.localcommid", "local_comm_id"),
                    ("infiniband.cm.dreq.remotecommid", "remote_comm_id"),
                    ("infiniband.cm.req.remoteqpneecn", "remote_qpn")]),
    0x16: ("DREP", [("infiniband.cm.drsp.localcommid", "local_comm_id"),
                    ("infiniband.cm.drsp.remotecommid", "remote_comm_id")]),
    0x12: ("REJ", [("infiniband.cm.rej.localcommid", "local_comm_id"),
                   ("infiniband.cm.rej.remotecommid", "remote_comm_id"),
                   ("infiniband.cm.rej.reason", "reason")]),
    0x11: ("MRA", []),
}

def ours(v):
    if isinstance(v, str):
        return int(v, 0)
    return v

fails, mads, values, files = [], 0, 0, 0
for i in range(1, n + 1):
    name = open("%s/%d.name" % (work, i)).read().strip()
    rows = {}
    with open("%s/%d.tsv" % (work, i)) as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            rows[int(row["frame.number"])] = row
    recs = {}
    with open("%s/%d.json" % (work, i)) as fh:
        for line in fh:
            line = line.strip()
            if line.startswith("{"):
                r = json.loads(line)
                recs[r["frame"]] = r
    lines = open("%s/%d.lines" % (work, i)).read().splitlines()
    seen = False
    for fr, row in sorted(rows.items()):
        r = recs.get(fr, {})
        theirs = row["infiniband.mad.mgmtclass"] != ""
        if theirs != ("mad" in r):
            fails.append("%s frame %d: a MAD for %s only" % (name, fr, "tshark" if theirs else "rocewire"))
            continue
        if not theirs:
            continue
        seen = True
        mads += 1
        m = r["mad"]
        for tf, key in HDR:
            if row.get(tf, "") == "":
                continue
            values += 1
            if num(row[tf]) != ours(m[key]):
                fails.append("%s frame %d: mad.%s %s, tshark %s" % (name, fr, key, m[key], row[tf]))
        attr = num(row["infiniband.mad.attributeid"])
        line = lines[fr - 1] if fr - 1 < len(lines) else ""
        if m["class"] == 7 and attr in CM:
            msg, pairs = CM[attr]
            c = r.get("cm")
            if c is None or c.get("message") != msg:
                fails.append("%s frame %d: no cm object for %s" % (name, fr, msg))
                continue
            if (" cm message %s " % msg) not in line:
                fails.append("%s frame %d: the line does not say cm message %s: %s" % (name, fr, msg, line))
            for tf, key in pairs:
                if row.get(tf, "") == "":
                    fails.append("%s frame %d: tshark shows no %s" % (name, fr, tf))
                    continue
                values += 1
                if num(row[tf]) != ours(c[key]):
                    fails.append("%s frame %d: cm.%s %s, tshark %s" % (name, fr, key, c[key], row[tf]))
        elif m.get("attribute_name") and ("(%s)" % m["attribute_name"]) not in line:
            fails.append("%s frame %d: the line does not name %s: %s" % (name, fr, m["attribute_name"], line))
    files += seen
for f in fails:
    print("FAIL: " + f, file=sys.stderr)
if fails:
    sys.exit(1)
if mads < 20:
    print("FAIL: only %d MADs compared" % mads, file=sys.stderr)
    sys.exit(1)
print("ok: %d values of %d MADs in %d captures agree with tshark" % (values, mads, files))
PYEOF
