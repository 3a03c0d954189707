#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent ICRC cross-check: Scapy builds RoCEv2 frames and computes their
ICRC (scapy.contrib.roce); rocewire-cap must report every one "ok", and
"bad" once a covered bit is flipped.

Scapy 2.5's RoCE layer computes the ICRC over IPv4 only (its IPv6 branch is a
TODO that writes 0). For IPv6 the ICRC is computed here the way Scapy does it
for IPv4, with the IPv6 variant fields of IBA A17.3.3 (traffic class, flow
label, hop limit) set to ones: Scapy's layers and zlib, nothing of rocewire.
The two known-answer frames of Scapy's own test suite (shared/notes/icrc.md)
are included as raw bytes.

usage: scapy_icrc.py ROCEWIRE_CAP WORKDIR
Standard library and Scapy only. Exit 0 all good, 1 mismatches, 77 skipped.
"""
import json
import os
import struct
import subprocess
import sys
import zlib

try:
    from scapy.all import Ether, Dot1Q, IP, IPv6, UDP, Raw, raw, IPOption_Router_Alert, \
        IPOption_NOP, IPOption_EOL
    from scapy.contrib.roce import BTH, AETH, cnp
except ImportError as e:  # pragma: no cover
    print("SKIP: scapy is missing (%s): apt-get install python3-scapy" % e)
    sys.exit(77)

# Scapy's test vectors (test/contrib/roce.uts), as recorded in shared/notes/icrc.md.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import icrc_vectors  # noqa: E402 (tests/icrc_vectors.py)
VECTORS = [
    ("scapy vector 1: ConnectX-4 Lx CNP", icrc_vectors.CNP.hex()),
    ("scapy vector 2: UC SEND_ONLY", icrc_vectors.SEND.hex()),
]

MAC_A, MAC_B = "b8:ce:f6:20:00:01", "b8:ce:f6:20:00:02"


def payload_bytes(n, seed):
    out = bytearray()
    x = seed & 0xffffffff
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0xffffffff
        out.append(x >> 24)
    return bytes(out)


def pad(data):
    padcnt = (4 - len(data) % 4) % 4
    return data + b"\0" * padcnt, padcnt


def reth(va, rkey, dmalen):
    return struct.pack("!QII", va, rkey, dmalen)


def icrc_ipv6(pkt):
    """ICRC of a frame whose RoCE layers ride on IPv6, computed as Scapy does
    for IPv4: 8 bytes of ones for the LRH, the IP header with its variant
    fields set to ones, UDP checksum ones, BTH byte 4 ones, the rest as is."""
    ip = pkt[IPv6].copy()
    ip.tc = 0xff
    ip.fl = 0xfffff
    ip.hlim = 0xff
    ip[UDP].chksum = 0xffff
    ip[BTH].fecn = 1
    ip[BTH].becn = 1
    ip[BTH].resv6 = 0x3f
    ip[BTH].icrc = 0  # placeholder; it is cut off below
    data = raw(ip)
    return zlib.crc32(b"\xff" * 8 + data[:-4]) & 0xffffffff


def set_icrc_v6(pkt):
    crc = icrc_ipv6(pkt)
    # BTH.icrc is packed big-endian; the wire carries the CRC least significant byte first.
    pkt[BTH].icrc = struct.unpack("!I", struct.pack("<I", crc))[0]
    return Ether(raw(pkt))


def scapy_icrc(frame):
    """The ICRC Scapy computes for a finished frame (IPv4 through BTH.compute_icrc)."""
    pkt = Ether(frame)
    if IPv6 in pkt:
        return icrc_ipv6(pkt)
    bth = pkt[BTH]
    bth.icrc = None
    wire = bth.compute_icrc(raw(bth))
    return struct.unpack("<I", wire)[0]


def build_frames():
    frames = []  # (description, bytes)

    def add(desc, pkt):
        frames.append((desc, raw(pkt)))

    n = 0
    for desc, l3 in [
        ("IPv4", lambda: IP(src="192.168.7.1", dst="192.168.7.2", tos=(26 << 2) | 2, ttl=64, flags="DF")),
        ("IPv4 CE tos", lambda: IP(src="192.168.7.2", dst="192.168.7.1", tos=(26 << 2) | 3, ttl=17)),
        ("IPv4 options (router alert)", lambda: IP(src="10.1.2.3", dst="10.3.2.1", tos=0x6a, ttl=200,
                                                   options=[IPOption_Router_Alert()])),
        ("IPv4 options (RA+NOP+EOL)", lambda: IP(src="10.1.2.3", dst="10.3.2.1", ttl=3,
                                                 options=[IPOption_Router_Alert(), IPOption_NOP(),
                                                          IPOption_NOP(), IPOption_NOP(), IPOption_EOL()])),
    ]:
        for vlan in (None, (100, 3), (4094, 7)):
            for plen in (0, 1, 2, 3, 4, 61, 1024, 4095):
                n += 1
                data, padcnt = pad(payload_bytes(plen, n))
                l2 = Ether(src=MAC_A, dst=MAC_B)
                if vlan:
                    l2 = l2 / Dot1Q(vlan=vlan[0], prio=vlan[1])
                pkt = l2 / l3() / UDP(sport=0xc000 + n, dport=4791, chksum=0x1234 * (n % 2)) / \
                    BTH(opcode=0x04, solicited=n % 2, migreq=1, padcount=padcnt, pkey=0xffff - n,
                        fecn=n % 2, becn=(n // 2) % 2, dqpn=0x10000 + n, ackreq=1,
                        psn=(0xfffffc + n) & 0xffffff) / Raw(data)
                add("%s%s RC SEND_ONLY %d B" % (desc, " vlan %d" % vlan[0] if vlan else "", plen), pkt)
        # WRITE_ONLY with a RETH, an ACK with an AETH, a CNP
        n += 1
        data, padcnt = pad(payload_bytes(37, n))
        add("%s RC RDMA_WRITE_ONLY" % desc,
            Ether(src=MAC_A, dst=MAC_B) / l3() / UDP(sport=0xd001, dport=4791) /
            BTH(opcode=0x0a, padcount=padcnt, dqpn=0x1a4, psn=77) /
            Raw(reth(0x00007f1234567000, 0xdeadbeef, 37) + data))
        add("%s RC ACKNOWLEDGE" % desc,
            Ether(src=MAC_B, dst=MAC_A) / l3() / UDP(sport=0xd002, dport=4791) /
            BTH(opcode=0x11, dqpn=0x1a4, psn=77) / AETH(syndrome=0x1f, msn=0x123456))
        add("%s CNP" % desc,
            Ether(src=MAC_B, dst=MAC_A) / l3() / UDP(sport=0xd003, dport=4791) / cnp(0x1a4))

    # IPv6, plain and tagged.
    for vlan in (None, (200, 5)):
        for plen in (0, 1, 2, 3, 4, 99, 2048):
            n += 1
            data, padcnt = pad(payload_bytes(plen, n))
            l2 = Ether(src=MAC_A, dst=MAC_B)
            if vlan:
                l2 = l2 / Dot1Q(vlan=vlan[0], prio=vlan[1])
            pkt = l2 / IPv6(src="2001:db8::1", dst="2001:db8::2", tc=(26 << 2) | (n % 4),
                            fl=0x12345 + n, hlim=64) / UDP(sport=0xc100 + n, dport=4791) / \
                BTH(opcode=0x0a, padcount=padcnt, pkey=0x8001, fecn=n % 2, dqpn=0xabcdef, ackreq=1,
                    psn=n) / Raw(reth(0x1000 * n, 0x42, plen) + data)
            add("IPv6%s RC RDMA_WRITE_ONLY %d B" % (" vlan %d" % vlan[0] if vlan else "", plen),
                set_icrc_v6(pkt))

    for desc, hexstr in VECTORS:
        frames.append((desc, bytes.fromhex(hexstr)))
    return frames


def variant_copy(frame):
    """The same frame with every field the ICRC masks changed (TOS/ECN, TTL,
    flow label, hop limit, UDP checksum, FECN/BECN); its ICRC must not change."""
    pkt = Ether(frame)
    if IPv6 in pkt:
        pkt[IPv6].tc ^= 0x03
        pkt[IPv6].hlim = (pkt[IPv6].hlim - 1) & 0xff
        pkt[IPv6].fl ^= 0x1
    else:
        pkt[IP].tos ^= 0x03  # CE marking by a switch
        pkt[IP].ttl = (pkt[IP].ttl - 1) & 0xff
        pkt[IP].chksum = None
    pkt[UDP].chksum = 0xbeef
    pkt[BTH].fecn ^= 1
    # keep the original ICRC bytes on the wire
    return raw(pkt)


def flipped_copy(frame):
    """The same frame with one covered bit flipped: the last byte before the
    ICRC (payload, pad, or an extension header), else the PSN's low bit."""
    b = bytearray(frame)
    b[-5] ^= 0x01
    return bytes(b)


def write_pcap(path, frames):
    """A classic pcap (link type 1) holding exactly these bytes."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, (_, b) in enumerate(frames):
            f.write(struct.pack("<IIII", 1700000000 + i, 0, len(b), len(b)))
            f.write(b)


def run_cap(cap, path):
    r = subprocess.run([cap, "-r", path, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = r.stdout.decode()
    try:
        doc = json.loads(out)
        recs = doc if isinstance(doc, list) else doc.get("packets", [doc])
    except ValueError:
        recs = [json.loads(line) for line in out.splitlines() if line.strip()]
    return recs, r.returncode, r.stderr.decode()


def bswap32(v):
    return struct.unpack(">I", struct.pack("<I", v))[0]


def as_int(v):
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        return int(v, 0)
    return None


def check(cap, path, frames, expect, what, problems):
    recs, rc, err = run_cap(cap, path)
    if len(recs) != len(frames):
        problems.append("%s: rocewire-cap printed %d records for %d frames (exit %d, stderr: %s)"
                        % (what, len(recs), len(frames), rc, err.strip()[:300]))
        return
    for i, ((desc, frame), rec) in enumerate(zip(frames, recs), 1):
        icrc = rec.get("icrc") or {}
        status = icrc.get("status")
        if status != expect:
            problems.append("%s frame %d (%s): icrc status %r, expected %r" % (what, i, desc, status, expect))
            continue
        # Scapy's value against ours. rocewire-cap shows ICRCs the way
        # Wireshark does: the four wire bytes read big-endian.
        want = bswap32(scapy_icrc(frame))
        wire = as_int(icrc.get("wire"))
        comp = as_int(icrc.get("computed"))
        wire_be = struct.unpack(">I", frame[-4:])[0]
        if wire != wire_be:
            problems.append("%s frame %d (%s): icrc.wire %s, the frame's last 4 bytes are %#010x"
                            % (what, i, desc, icrc.get("wire"), wire_be))
        elif comp != want:
            # Good or bad, both must compute the same ICRC over the same bytes.
            problems.append("%s frame %d (%s): icrc.computed %s, Scapy computes %#010x"
                            % (what, i, desc, icrc.get("computed"), want))
    print("%s: %d frames, expected icrc %s" % (what, len(frames), expect))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    cap, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    frames = build_frames()
    problems = []
    # Scapy must agree with itself on the frames it built, and the vectors must
    # carry the ICRC Scapy computes: a check of this script, before rocewire.
    for desc, frame in frames:
        want = scapy_icrc(frame)
        if struct.unpack("<I", frame[-4:])[0] != want:
            problems.append("script self-check: %s: the wire ICRC is not Scapy's %#010x" % (desc, want))
    sets = [
        ("good", frames, "ok"),
        ("masked fields changed", [(d + " (variant fields changed)", variant_copy(f)) for d, f in frames], "ok"),
        ("one bit flipped", [(d + " (bit flipped)", flipped_copy(f)) for d, f in frames], "bad"),
    ]
    for what, fs, expect in sets:
        if expect == "ok" and what != "good":
            for desc, f in fs:
                if struct.unpack("<I", f[-4:])[0] != scapy_icrc(f):
                    problems.append("script self-check: %s: Scapy's ICRC changed" % desc)
        path = os.path.join(work, what.replace(" ", "-") + ".pcap")
        write_pcap(path, fs)
        check(cap, path, fs, expect, what, problems)
    for p in problems:
        print("MISMATCH: " + p)
    total = sum(len(fs) for _, fs, _ in sets)
    failed = len({p.split(" (")[0] for p in problems})  # "<set> frame <n>"
    print("%d passed, %d failed" % (total - min(failed, total), min(failed, total)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
