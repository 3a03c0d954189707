#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# proto's MAD encoders (mad.h) against Wireshark's own MAD, CM, SMP, SA and
# PerfMgt dissectors: rocewire-madcap writes a CM handshake (REQ MRA REP RTU
# DREQ DREP REJ), directed-route and LID-routed SMPs, an SA PathRecord Get
# and a PerfMgt PortCounters GetResp as UD SEND Only to QP 0/1, over RoCEv2
# and over native IB (ERF records: tshark 4.0 reads no LINKTYPE 247 pcap;
# madcap decodes the bare 247 frames itself), and lists the values put in;
# tshark must show each one (class, method, attribute, TID, the CM fields,
# ...) and find nothing malformed.
# The decoded attribute payloads, one MAD each: SubnGetResp of NodeInfo,
# SwitchInfo, GUIDInfo, PortInfo, P_KeyTable and SMInfo (IB only: QP 0),
# SubnAdm NodeRecord, ServiceRecord and MCMemberRecord, PerfMgt
# PortCountersExtended. For these madcap also reads each value through our
# field table (rw_mad_attr_hd: what -v and --json print) and stops if it
# differs from what was put in, so tshark's value, ours and the input agree.
# tshark 4.0 has no field for SwitchInfo's MulticastFDBTop, PortInfo's
# MulticastPKeyTrapSuppressionEnabled, CapabilityMask2 and LinkSpeedExt*
# (IBA 1.2.1, 1.3) or ServiceRecord's ServiceData as numbers (one bytes
# field for all four arrays); it splits a P_Key into membership and base and
# calls GUIDInfo's GUID "switchinfo.guid", PortInfo's GidPrefix
# "portinfo.guid" and the ServiceRecord fields "linkrecord.service*".
# unit_mad checks those fields against the IBA's bit positions instead.
# Env: ROCEWIRE_MADCAP. Exit 77 when tshark or python3 is missing.
set -u
py=/usr/bin/python3
# shellcheck source=tshark_env.sh
. "$(dirname "$0")/tshark_env.sh"
madcap=${ROCEWIRE_MADCAP:-}
if [ -z "$madcap" ] || [ ! -x "$madcap" ]; then
	echo "FAIL: set ROCEWIRE_MADCAP to the built rocewire-madcap (got \"$madcap\")" >&2
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-mad.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A clean profile: no user preference changes decoding.
export HOME="$work" XDG_CONFIG_HOME="$work/.config"
# shellcheck source=tshark_noheur.sh
. "$(dirname "$0")/tshark_noheur.sh"

set -e
"$madcap" "$work" >"$work/expected.txt"
fields=$(awk '{print $3}' "$work/expected.txt" | sort -u)
for f in roce ib; do
	# shellcheck disable=SC2086
	tshark -n $noheur -r "$work/$f.pcap" -Y _ws.malformed >"$work/$f.malformed" 2>"$work/tshark.err"
	args="-e frame.number"
	for x in $fields; do
		args="$args -e $x"
	done
	# shellcheck disable=SC2086
	tshark -n $noheur -r "$work/$f.pcap" -T fields -E header=y -E separator=/t -E occurrence=f \
		$args >"$work/$f.tsv" 2>>"$work/tshark.err"
done
set +e
for f in roce ib; do
	if [ -s "$work/$f.malformed" ]; then
		echo "FAIL: tshark finds malformed frames in $f.pcap:" >&2
		head -20 "$work/$f.malformed" >&2
		exit 1
	fi
done

"$py" - "$work" <<'PYEOF'
import csv, ipaddress, sys

work = sys.argv[1]
got = {}
for f in ("roce", "ib"):
    with open("%s/%s.tsv" % (work, f)) as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            got[(f, row["frame.number"])] = row

def value(s):
    s = s.strip()
    try:
        return int(s, 0)
    except ValueError:
        pass
    try:
        return ipaddress.ip_address(s)
    except ValueError:
        return s

fails, n = [], 0
frames = set()
with open(work + "/expected.txt") as fh:
    for line in fh:
        f, frame, field, want = line.split()
        frames.add((f, frame))
        row = got.get((f, frame))
        if row is None:
            fails.append("%s frame %s: not in tshark's output" % (f, frame))
            continue
        have = row.get(field, "")
        n += 1
        if have == "":
            fails.append("%s frame %s: tshark shows no %s (expected %s)" % (f, frame, field, want))
        elif value(have) != value(want):
            fails.append("%s frame %s: %s is %s in tshark, %s put in" % (f, frame, field, have, want))
for m in fails:
    print("FAIL: " + m, file=sys.stderr)
if fails:
    sys.exit(1)
print("ok: %d values in %d MADs agree with tshark" % (n, len(frames)))
PYEOF
