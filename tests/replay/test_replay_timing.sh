#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-replay's timing modes, into a pcap through net_pcap (which stamps
# each frame when the port takes it): --pps and as-captured with
# --multiplier give frame times within the pacing error rocewire-replay
# reports (replay_check.py timing reads the record headers with Python's
# struct). Environment: ROCEWIRE_REPLAY, ROCEWIRE_SOURCE_DIR.
set -u
R=${ROCEWIRE_REPLAY:-}
SRC=${ROCEWIRE_SOURCE_DIR:-}
PY=/usr/bin/python3
[ -x "$R" ] || { echo "FAIL: set ROCEWIRE_REPLAY to rocewire-replay (got '$R')"; exit 1; }
"$PY" -c 'import scapy.utils' 2>/dev/null || { echo "SKIP: Scapy is not installed for $PY (python3-scapy)"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/rw-replay-time.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
S=$SRC/samples/softroce
CHECK="$PY $SRC/tests/replay/replay_check.py"
FAILED=0
if ! "$R" -w probe.pcap -t -q "$S/rc_write.pcap" 2>probe.err; then
	grep -q "built without DPDK" probe.err && { echo "SKIP: rocewire-replay was built without DPDK (-w)"; exit 77; }
	echo "FAIL: $(cat probe.err)"
	exit 1
fi
# 80 frames at 2000 pps: 39.5 ms
"$R" -w pps.pcap --pps 2000 -q -j pps.json "$S/rc_write.pcap" || FAILED=1
$CHECK timing pps.pcap pps.json pps 2000 || FAILED=1
# as captured, 4 times as fast
"$R" -w cap.pcap -x 4 -q -j cap.json "$S/rc_read.pcap" || FAILED=1
$CHECK timing cap.pcap cap.json captured "$S/rc_read.pcap" 4 || FAILED=1
# --mbps: 70496 bytes of rc_write at 20 Mbit/s: 28 ms
"$R" -w mb.pcap --mbps 20 -q -j mb.json "$S/rc_write.pcap" || FAILED=1
"$PY" - mb.json <<'PYEOF' || FAILED=1
import json, sys
d = json.load(open(sys.argv[1]))
# the last frame leaves when the bytes before it have had their time
ok = 0.024 < d["duration_s"] < 0.040 and d["pacing"]["samples"] == 80
print("--mbps 20: %.4f s for %d bytes, pacing p99 %.1f us" % (d["duration_s"], d["bytes_sent"], d["pacing"]["p99_us"]))
sys.exit(0 if ok else 1)
PYEOF
[ $FAILED = 0 ] && echo "ok: timing modes within the reported pacing error"
exit $FAILED
