#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Inputs for rocewire-replay's edge cases, made with Scapy and zlib alone
(nothing of rocewire), with the frames rocewire-replay should send from them
where that is not a rule of replay_check.py:

  mixed.pcap     frames the decode does not walk to their end or that are
                 short: ARP and a small UDP datagram as a sender captures them
                 (before its NIC pads them to 60 bytes), IPv6 behind extension
                 headers, an IPv4 fragment, IPv4 and IPv6 headers whose lengths
                 are wrong, a UDP datagram to 4791 too short for a BTH, PFC and
                 PAUSE, and RoCE frames of a real capture
  csum.pcap      RoCEv2 frames over IPv4 and IPv6 (samples/) with their UDP
                 checksum made non-zero and right (Scapy); the ICRC masks it
  erf.pcap       ERF Ethernet records (link type 197) of mixed.pcap's and
                 csum.pcap's frames as capture cards write them: the 2-byte
                 pad, extension headers, the FCS (zlib's CRC-32) or none, the
                 record padded to 8 bytes or to a fixed length, a record cut
                 by the snap length, one with the RX-error flag and a bad FCS,
                 one whose FCS is counted by wlen but not captured
  erf-want.pcap  the Ethernet frames those records carry, the cut one left out

usage: replay_inputs.py DIR SAMPLES
"""
import os
import struct
import sys
import zlib

try:
    from scapy.all import (ARP, IP, UDP, Ether, ICMPv6EchoRequest, IPv6, IPv6ExtHdrDestOpt,
                           IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, raw)
    from scapy.utils import RawPcapReader
except ImportError as e:  # pragma: no cover
    print("SKIP: scapy is missing (%s): apt-get install python3-scapy" % e)
    sys.exit(77)

A, B = "02:00:00:00:00:0a", "02:00:00:00:00:0b"


def frames(path):
    return [bytes(d) for d, _ in RawPcapReader(path)]


def write(path, pkts, linktype=1):
    """A classic pcap file (microsecond stamps, one second apart)."""
    with open(path, "wb") as w:
        w.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for i, p in enumerate(pkts):
            w.write(struct.pack("<IIII", 1700000000 + i, 0, len(p), len(p)) + p)


def mixed(samples):
    f = []
    # as a sender's own capture has them: shorter than 60, not yet padded
    f.append(raw(Ether(dst="ff:ff:ff:ff:ff:ff", src=A) / ARP(psrc="192.0.2.1", pdst="192.0.2.2")))
    f.append(raw(Ether(dst=B, src=A) / IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=9, dport=9) / b"hi"))
    # IPv6 with extension headers, not RoCE
    f.append(raw(Ether(dst=B, src=A) / IPv6(src="2001:db8::1", dst="2001:db8::2") / IPv6ExtHdrHopByHop()
                 / IPv6ExtHdrDestOpt() / ICMPv6EchoRequest(data=b"x" * 20)))
    f.append(raw(Ether(dst=B, src=A) / IPv6(src="2001:db8::1", dst="2001:db8::2")
                 / IPv6ExtHdrFragment(nh=17, offset=0, m=1, id=7) / UDP(sport=1, dport=4791) / (b"\0" * 40)))
    # an IPv4 fragment (MF set), the first of a datagram to RoCE's port
    f.append(raw(Ether(dst=B, src=A) / IP(src="192.0.2.1", dst="192.0.2.2", flags="MF", id=9)
                 / UDP(sport=1, dport=4791, len=200) / (b"\0" * 40)))
    # an IPv4 total length past the frame's end; an IHL of 4
    bad = bytearray(raw(Ether(dst=B, src=A) / IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=1, dport=2) / (b"\0" * 30)))
    bad[16:18] = struct.pack("!H", 400)
    f.append(bytes(bad))
    bad = bytearray(raw(Ether(dst=B, src=A) / IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=1, dport=2) / (b"\0" * 30)))
    bad[14] = 0x44
    f.append(bytes(bad))
    # IPv6 whose payload length ends inside its Hop-by-Hop header
    bad = bytearray(raw(Ether(dst=B, src=A) / IPv6(src="2001:db8::1", dst="2001:db8::2") / IPv6ExtHdrHopByHop()
                        / ICMPv6EchoRequest()))
    bad[18:20] = struct.pack("!H", 4)
    f.append(bytes(bad))
    # UDP to 4791 whose length leaves no room for a BTH
    f.append(raw(Ether(dst=B, src=A) / IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=1, dport=4791) / (b"\0" * 6)))
    # MAC control: PFC (opcode 0x0101) and PAUSE (0x0001), padded to 60
    f += frames(os.path.join(samples, "pfc-pause.pcap"))[:2]
    f += frames(os.path.join(samples, "softroce", "rc_write.pcap"))[:6]
    return f


def with_udp_csum(f):
    """The frame with a right, non-zero UDP checksum (RFC 768 / RFC 8200
    8.1, computed by Scapy)."""
    p = Ether(f)
    del p[UDP].chksum
    g = raw(p)
    assert len(g) == len(f)
    return g


def csum(samples):
    v4 = frames(os.path.join(samples, "rocev2-all-opcodes.pcap"))
    v6 = frames(os.path.join(samples, "rocev2-ipv6-vlan.pcap"))
    return [with_udp_csum(f) for f in v4 + v6]


def fcs(f):
    """IEEE 802.3 3.2.9: the CRC-32 of the frame, least significant byte
    first."""
    return struct.pack("<I", zlib.crc32(f) & 0xFFFFFFFF)


def erf_record(frame, i, with_fcs=True, n_ext=0, rlen_to=None, cut=0, rxe=False, fcs_uncaptured=False):
    """An ERF type 2 (ETH) record: 16-byte header, extension headers, the
    2-byte offset/pad, the frame and its FCS, padding to 8 bytes (or to
    rlen_to); wlen counts the FCS as the cards do."""
    body = frame + (fcs(frame) if with_fcs else b"")
    if rxe:
        body = body[:-1] + bytes([body[-1] ^ 0xFF])   # received with a bad FCS
    wlen = len(body)
    if fcs_uncaptured:
        wlen, body = len(frame) + 4, frame
    body = body[:len(body) - cut] if cut else body
    ext = b"".join(struct.pack("!BxxxI", (0x80 if k + 1 < n_ext else 0) | 16, 0x1000 + k) for k in range(n_ext))
    rec = ext + b"\0\0" + body
    rlen = 16 + len(rec)
    if not fcs_uncaptured:   # (padding there would pass for the frame's end)
        rlen = rlen_to if rlen_to else (rlen + 7) // 8 * 8
    rec += b"\0" * (rlen - 16 - len(rec))
    ts = (1700000000 + i) << 32
    flags = 0x04 | (0x10 if rxe else 0)   # vlen, RX error
    hdr = struct.pack("<Q", ts) + struct.pack("!BBHHH", 2 | (0x80 if n_ext else 0), flags, rlen, 0, wlen)
    return hdr + rec


def erf(mix, cs):
    recs, want = [], []
    src = mix[:3] + mix[9:11] + mix[11:17] + cs[:8] + cs[334:340]
    for i, fr in enumerate(src):
        kind = i % 6
        if kind == 0:
            recs.append(erf_record(fr, i))
        elif kind == 1:
            recs.append(erf_record(fr, i, n_ext=2))
        elif kind == 2:
            recs.append(erf_record(fr, i, with_fcs=False))     # as rocewire-mkcap writes them
        elif kind == 3:
            recs.append(erf_record(fr, i, n_ext=1, rlen_to=2048))  # fixed length (no vlen)
        elif kind == 4:
            recs.append(erf_record(fr, i, rxe=True))
        else:
            recs.append(erf_record(fr, i, fcs_uncaptured=True))
        want.append(fr)
    # cut by the snap length: more than the FCS is missing
    recs.append(erf_record(src[-1], len(src), cut=10))
    return recs, want


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    out, samples = sys.argv[1], sys.argv[2]
    mix, cs = mixed(samples), csum(samples)
    write(os.path.join(out, "mixed.pcap"), mix)
    write(os.path.join(out, "csum.pcap"), cs)
    recs, want = erf(mix, cs)
    write(os.path.join(out, "erf.pcap"), recs, linktype=197)
    write(os.path.join(out, "erf-want.pcap"), want)
    print("%s: mixed.pcap %d, csum.pcap %d, erf.pcap %d records (%d whole)"
          % (out, len(mix), len(cs), len(recs), len(want)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
