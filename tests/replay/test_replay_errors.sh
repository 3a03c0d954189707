#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-replay on bad input and bad options: exit status 2 and one line on
# stderr that names the input and what was expected; frames cut by the
# snapshot length are skipped and counted, never sent half.
# The captures are written here byte by byte (pcap format: a 24-byte file
# header, 16 bytes before each record) around the UC SEND_ONLY known-answer
# frame of /work/shared/notes/icrc.md, so nothing comes from rocewire.
# Environment: ROCEWIRE_REPLAY.
set -u
R=${ROCEWIRE_REPLAY:-}
[ -x "$R" ] || { echo "FAIL: set ROCEWIRE_REPLAY to rocewire-replay (got '$R')"; exit 1; }
PY=$(command -v python3 || true)
[ -n "$PY" ] || { echo "SKIP: python3 is needed to write the test captures"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/rw-replay-err.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

"$PY" - <<'EOF'
import struct
send = bytes.fromhex(
    "248a07a8fa22248a07a8fa22" "0800" "45010040047840004011b4d5c0a80007c0a80007" "c00012b7002caca2"
    "2460ffff000000d300cf1710" "4630818be28935d90e9a95505401be885e500000" "78f353f3")
def pcap(path, recs, linktype=1, cut_tail=0):
    d = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype)
    for i, (frame, orig) in enumerate(recs):
        d += struct.pack("<IIII", 1000 + i, 0, len(frame), orig) + frame
    open(path, "wb").write(d[:len(d) - cut_tail])
pcap("good.pcap", [(send, len(send))] * 3)
# record 2 cut by a snapshot length of 60: 18 bytes missing on the wire
pcap("snap.pcap", [(send, len(send)), (send[:60], len(send)), (send, len(send))])
# the file ends inside record 3's data
pcap("trunc.pcap", [(send, len(send))] * 3, cut_tail=10)
# raw IP (LINKTYPE_RAW 101)
pcap("rawip.pcap", [(send[14:], len(send) - 14)], linktype=101)
open("notpcap.pcap", "wb").write(b"hello, not a capture file\n" * 4)
EOF

# expect STATUS PATTERN ARGS...: exit status STATUS, exactly one stderr line
# (statistics off with -q) matching PATTERN
expect() {
	local want=$1 pat=$2
	shift 2
	"$R" "$@" >out 2>err
	local rc=$?
	local lines
	lines=$(wc -l <err)
	if [ "$rc" != "$want" ]; then
		fail "rocewire-replay $*: status $rc, expected $want: $(cat err)"
	elif ! grep -qE "$pat" err; then
		fail "rocewire-replay $*: message '$(cat err)' does not match '$pat'"
	elif [ "$lines" != 1 ]; then
		fail "rocewire-replay $*: $lines lines on stderr, expected one: $(cat err)"
	else
		ok "$* -> $want: $(cat err)"
	fi
}

expect 2 "missing.pcap: cannot open: No such file" -q -i lo missing.pcap
expect 2 "notpcap.pcap: not a pcap or pcapng file" -q -i lo notpcap.pcap
expect 2 "rawip.pcap: link type .* is not supported; expected Ethernet" -q -i lo rawip.pcap
expect 2 "^rocewire-replay: -i rw-no-such-if0: no such network interface" -q -i rw-no-such-if0 good.pcap
expect 2 "^rocewire-replay: --map-ip: '10.0.0.0/8=1.2.3': expected FROM/LEN=TO/LEN" -q -i lo --map-ip 10.0.0.0/8=1.2.3 good.pcap
expect 2 "^rocewire-replay: --map-ip: '10.0.0.0/8=10.1.0.0/16': both sides need the same family and prefix length" -q -i lo --map-ip 10.0.0.0/8=10.1.0.0/16 good.pcap
expect 2 "^rocewire-replay: --map-qpn: '21': expected FROM=TO" -q -i lo --map-qpn 21 good.pcap
expect 2 "^rocewire-replay: --map-qpn: '1=0x1000000': expected FROM=TO, numbers from 0 to 16777215" -q -i lo --map-qpn 1=0x1000000 good.pcap
expect 2 "^rocewire-replay: --dst-mac: 'zz': expected a MAC address" -q -i lo --dst-mac zz good.pcap
expect 2 "^rocewire-replay: --vlan-add: '5000': expected VID\[:PCP\]" -q -i lo --vlan-add 5000 good.pcap
expect 2 "^rocewire-replay: --corrupt-icrc: '2': expected a fraction" -q -i lo --corrupt-icrc 2 good.pcap
expect 2 "^rocewire-replay: --opcode: 'RC_FOO': expected opcode names" -q -i lo --opcode RC_FOO good.pcap
expect 2 "^rocewire-replay: unknown option --frobnicate" -q -i lo --frobnicate good.pcap
expect 2 "^rocewire-replay: no output: give -i IF, -w FILE" -q good.pcap
expect 2 "^rocewire-replay: no capture file given" -q -i lo
expect 2 "^rocewire-replay: --target missing.json: unable to open" -q -i lo --target missing.json good.pcap
echo "{\"qpn\": 1}" >bad.json
expect 2 "^rocewire-replay: --target bad.json: expected rocewire-verbs. fixed-peer server JSON" -q -i lo --target bad.json good.pcap

# a DPDK vdev on a missing interface: one line before EAL starts
if ! "$R" --no-huge -- -q good.pcap 2>&1 | grep -q "without DPDK"; then
	expect 2 "^rocewire-replay: rw-no-such-if0: no such network interface \(EAL option --vdev=net_af_packet0,iface=rw-no-such-if0\)" \
		--no-huge --no-pci --no-shconf -m 256 -l 0 --vdev=net_af_packet0,iface=rw-no-such-if0 -- -q good.pcap
fi

# Loopback is a real interface: with root these send, on lo only.
if [ "$(id -u)" = 0 ]; then
	expect 2 "trunc.pcap: packet 3 at byte offset 212: file ends inside the packet data" -q -t -i lo trunc.pcap
	expect 2 "trunc.pcap: packet 3 at byte offset 212: file ends inside the packet data" -q -t -i lo --preload trunc.pcap
	"$R" -t -i lo -j snap.json snap.pcap >out 2>err
	rc=$?
	if [ "$rc" = 0 ] && grep -q '"packets_sent": 2' snap.json && grep -q '"snaplen_cut": 1' snap.json &&
		grep -q "skipped snaplen_cut 1" err; then
		ok "snaplen-cut record skipped and counted; 2 whole ones sent"
	else
		fail "snap.pcap: status $rc, $(cat err) $(cat snap.json)"
	fi
else
	echo "note: not root; the AF_PACKET cases on lo are left out"
fi
exit $FAILED
