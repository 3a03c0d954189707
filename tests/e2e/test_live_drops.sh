#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Packets the capture loses are reported, never hidden:
#  1. a tiny kernel buffer (-B 1) and a burst of 10000 frames at full speed:
#     the final line counts the drops, the exit status is 1, --report --json
#     carries the same count in capture_drops, and the pcapng statistics
#     block (read here with Python's struct) records it too;
#  2. a slow consumer: per-packet JSON into a pipe that is not read for two
#     seconds, during the same burst: drops in the final line, status 1.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/live_common.sh"
need_tools
ns_setup

"$MKCAP" --mix 2000 -o mix.pcap >/dev/null || { echo "FAIL: rocewire-mkcap"; exit 1; }

# drops_of ERRFILE: kernel drops on the final line ("" when absent)
drops_of() {
	sed -n 's/^rocewire-cap: vB: \([0-9]*\) packets received by filter, \([0-9]*\) dropped by kernel, \([0-9]*\) dropped by interface$/\2/p' "$1"
}
recv_of() {
	sed -n 's/^rocewire-cap: vB: \([0-9]*\) packets received by filter, .*/\1/p' "$1"
}

# 1. tiny buffer
start_cap e1 o1 -i vB -B 1 -w d.pcapng --report --json --duration 3 || exit 1
inject mix.pcap --topspeed --loop 5
wait_cap 10
k=$(drops_of e1)
r=$(recv_of e1)
if [ -z "$k" ]; then
	fail "-B 1: no final line with the drops: $(tail -n 3 e1)"
elif [ "$k" -gt 0 ]; then
	ok "-B 1: $k of $r packets dropped by the kernel, reported on the final line"
else
	fail "-B 1: no drops with a 1 KiB buffer and a 10000-frame burst (received $r)"
fi
[ "$CAP_RC" = 1 ] || fail "-B 1: exit status $CAP_RC, expected 1 (packets lost)"
grep -q "the capture is incomplete: $k packets were lost" e1 || fail "-B 1: no warning line: $(tail -n 2 e1)"
if [ -n "$k" ]; then
	"$PY" - o1 "$k" <<'EOF' && ok "--report --json: capture_drops.kernel = $k" || fail "--report --json capture_drops"
import json, sys
d = json.load(open(sys.argv[1]))["capture_drops"]
if d.get("kernel") != int(sys.argv[2]) or d.get("recorded") is not True:
    sys.exit("capture_drops is %r, expected kernel %s" % (d, sys.argv[2]))
EOF
	# pcapng: the interface statistics block (type 5), isb_osdrop (7)
	"$PY" - d.pcapng "$k" "$r" <<'EOF' && ok "d.pcapng statistics block: osdrop $k" || fail "d.pcapng statistics block"
import struct, sys
b = open(sys.argv[1], "rb").read()
want_drop, want_recv = int(sys.argv[2]), int(sys.argv[3])
off, isb, epb = 0, None, 0
while off < len(b):
    t, ln = struct.unpack_from("<II", b, off)
    if t == 6:
        epb += 1
    if t == 5:
        isb = {}
        o = off + 20
        while o < off + ln - 4:
            code, ol = struct.unpack_from("<HH", b, o)
            if code == 0:
                break
            isb[code] = b[o + 4:o + 4 + ol]
            o += 4 + ol + (-ol % 4)
    off += ln
if isb is None:
    sys.exit("no statistics block")
osdrop = struct.unpack("<Q", isb[7])[0]
accept = struct.unpack("<Q", isb[6])[0]
deliv = struct.unpack("<Q", isb[8])[0]
if osdrop != want_drop or accept != want_recv or deliv != epb:
    sys.exit("osdrop %d filteraccept %d usrdeliv %d (%d packets); expected %d %d" %
             (osdrop, accept, deliv, epb, want_drop, want_recv))
# the packets not dropped are the packets written
if epb + osdrop != accept:
    sys.exit("%d written + %d dropped != %d received" % (epb, osdrop, accept))
EOF
fi
tshark_ok d.pcapng

# 2. slow consumer: nothing reads the JSON for 2 s while the burst arrives.
ip netns exec "$NS_B" bash -c "\"$CAP\" -i vB -B 64 --json --duration 4 2>e2; echo \$? >rc2" |
	(sleep 2; cat >/dev/null) &
slow=$!
for _ in $(seq 1 100); do grep -q "listening on" e2 2>/dev/null && break; sleep 0.05; done
inject mix.pcap --topspeed --loop 5
wait $slow
rc=$(cat rc2 2>/dev/null)
k=$(drops_of e2)
if [ -n "$k" ] && [ "$k" -gt 0 ] && [ "$rc" = 1 ]; then
	ok "slow consumer: $k packets dropped by the kernel, reported; status 1"
else
	fail "slow consumer: status '$rc', drops '$k': $(tail -n 3 e2)"
fi

exit $FAILED
