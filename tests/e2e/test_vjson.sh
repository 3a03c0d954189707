#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap -v and --json print the same (header, field) pairs with the
# same values, and the default line's words are those headers and fields
# with those values (issue 24: all three are made from proto's field
# tables), on the samples and on rocewire-mkcap's captures of every opcode
# on every link type, PFC, a mix and damaged packets.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
mkcap=${ROCEWIRE_MKCAP:-}
cap=${ROCEWIRE_CAP:-}
py=/usr/bin/python3

if [ ! -x "$py" ]; then
	echo "SKIP: $py is missing"
	exit 77
fi
for t in "$mkcap" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_MKCAP and ROCEWIRE_CAP to the built tools (got \"$mkcap\", \"$cap\")" >&2
		exit 1
	fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-vjson.XXXXXX")
trap 'rm -rf "$work"' EXIT

set -e
"$mkcap" --all-opcodes -o "$work/all-ethernet.pcap"
"$mkcap" --all-opcodes --linktype erf -o "$work/all-erf.pcap"
"$mkcap" --all-opcodes --linktype sll2 -o "$work/all-sll2.pcap"
"$mkcap" --all-opcodes --linktype sll -o "$work/all-sll.pcap"
"$mkcap" --pfc -o "$work/pfc.pcap"
"$mkcap" --mix 2000 -o "$work/mix.pcap"
"$mkcap" --all-opcodes --linktype erf --carriers ib,ib-grh -o "$work/ib.erf.pcap"
"$mkcap" --all-opcodes --linktype infiniband -o "$work/ib.247.pcap"
"$mkcap" --bad -o "$work/bad-ethernet.pcap"
"$mkcap" --bad --linktype erf -o "$work/bad-erf.pcap"
# What rocewire-mkcap does not make, for the line's words: frames that are
# not RoCE (ARP, tagged or not, over Ethernet and both SLLs; TCP; UDP; IPv6
# with and without a hop-by-hop header), a CNP with a reserved byte set and
# an AETH of the reserved kind (their ICRCs are not made: "icrc BAD").
"$py" - "$work" <<'PY'
import struct, sys

def ip4sum(h):
    s = sum(struct.unpack("!10H", h))
    s = (s & 0xFFFF) + (s >> 16)
    return (~((s & 0xFFFF) + (s >> 16))) & 0xFFFF

def ipv4(proto, payload):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0x02, 20 + len(payload), 1, 0x4000, 64, proto, 0,
                    bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2]))
    return h[:10] + struct.pack("!H", ip4sum(h)) + h[12:] + payload

def ipv6(nh, payload):
    return struct.pack("!IHBB16s16s", 6 << 28, len(payload), nh, 64, bytes(15) + b"\x01",
                       bytes(15) + b"\x02") + payload

def roce(bth_ext):
    bth = bytes([bth_ext[0], 0, 0xFF, 0xFF, 0, 0, 0, 0x11, 0, 0, 0, 7]) + bth_ext[1] + bytes(4)
    return ipv4(17, struct.pack("!HHHH", 49152, 4791, 8 + len(bth), 0) + bth)

MACS = bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1])
ARP = bytes.fromhex("0001080006040001") + MACS[6:] + bytes([192, 0, 2, 1]) + bytes(6) + bytes([192, 0, 2, 2])
eth = lambda t, p: MACS + struct.pack("!H", t) + p
frames = [
    eth(0x0806, ARP),
    eth(0x8100, struct.pack("!HH", 3 << 13 | 42, 0x0806) + ARP),
    eth(0x0800, ipv4(6, bytes(20))),
    eth(0x0800, ipv4(17, struct.pack("!HHHH", 1234, 53, 12, 0) + b"abcd")),
    eth(0x86DD, ipv6(0, bytes([58, 0, 1, 4, 0, 0, 0, 0]) + bytes([143, 0, 0, 0]))),
    eth(0x86DD, ipv6(58, bytes([128, 0, 0, 0]))),
    eth(0x0800, roce((0x81, bytes(15) + b"\x01"))),
    eth(0x0800, roce((0x11, bytes([0x45, 0, 0, 9])))),
]
sll = struct.pack("!HHH8sH", 0, 1, 6, MACS[6:] + bytes(2), 0x0806) + ARP
sll2 = struct.pack("!HHIHBB8s", 0x0806, 0, 2, 1, 0, 6, MACS[6:] + bytes(2)) + ARP

def write(name, linktype, fs):
    with open("%s/%s" % (sys.argv[1], name), "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for n, x in enumerate(fs):
            f.write(struct.pack("<IIII", 1700000000, n, len(x), len(x)) + x)

write("edges.pcap", 1, frames)
write("edges-sll.pcap", 113, [sll])
write("edges-sll2.pcap", 276, [sll2])
PY
set +e
exec "$py" "$here/vjson_check.py" "$cap" "$src"/samples/*.pcap "$src"/samples/softroce/*.pcap "$work"/*.pcap
