#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a capture that rocewire-replay sent against the capture it read,
with nothing of rocewire: the same rewrites are applied to the original
frames from the spec's byte offsets (BTH, RETH, GRH), Scapy's IP, IPv6 and
UDP (their checksums), and zlib for the ICRC; RoCEv1 <-> RoCEv2 conversions
are rebuilt the same way, and every Ethernet frame gets the MAC and VLAN
rules (MAC control keeps its destination and gets no tag). Every frame sent
must be byte for byte the frame made here; frames no rule touches must be
the original bytes. tshark's own dissector must then read the new values
(IP addresses, UDP source port, destination QP, PSN, P_Key) from the sent
frames.

usage:
  replay_check.py frames ORIG OUT [rewrite options as given to rocewire-replay]
  replay_check.py same WANT OUT
  replay_check.py icrc OUT BAD [ROCE]
  replay_check.py timing OUT SUMMARY.json pps RATE | captured ORIG MULT
Exit 0 good, 1 a difference (printed), 77 skipped (the reason printed).
"""
import ipaddress
import json
import os
import struct
import subprocess
import sys
import zlib

try:
    from scapy.all import Ether, IP, IPv6, UDP, Raw, raw
    from scapy.utils import RawPcapReader, RawPcapNgReader
    from scapy.contrib.roce import BTH, GRH
except ImportError as e:  # pragma: no cover
    print("SKIP: scapy is missing (%s): apt-get install python3-scapy" % e)
    sys.exit(77)

# IBA 9.2 Table 38: opcodes whose first extension header is a RETH or an
# AtomicETH (both start with VA, 8 bytes, then R_Key, 4 bytes).
RETH_OPS = {0x06, 0x0A, 0x0B, 0x0C, 0x26, 0x2A, 0x2B, 0x13, 0x14}


def frames(path):
    with open(path, "rb") as f:
        magic = f.read(4)
    rdr = RawPcapNgReader if magic == b"\x0a\x0d\x0d\x0a" else RawPcapReader
    return [bytes(d) for d, _ in rdr(path)]


def pcap_times(path):
    """Timestamps read straight from the classic pcap record headers."""
    with open(path, "rb") as f:
        d = f.read()
    magic = struct.unpack("<I", d[:4])[0]
    endian = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    nano = struct.unpack(endian + "I", d[:4])[0] == 0xa1b23c4d
    off, out = 24, []
    while off + 16 <= len(d):
        s, frac, incl, _ = struct.unpack(endian + "IIII", d[off:off + 16])
        out.append(s + frac / (1e9 if nano else 1e6))
        off += 16 + incl
    return out


def l3_of(f):
    """(offset, ethertype) of what follows the Ethernet header and its
    802.1Q / 802.1ad tags."""
    off = 12
    et = struct.unpack("!H", f[off:off + 2])[0]
    while et in (0x8100, 0x88A8, 0x9100):
        off += 4
        et = struct.unpack("!H", f[off:off + 2])[0]
    return off + 2, et


def ib_span(f):
    """(l3, ethertype, bth, end) of a RoCE frame: where the IP header or
    GRH, the BTH and the end of the ICRC are, from the carriers' own length
    fields (the Ethernet padding after them is not RoCE's), or None."""
    l3, et = l3_of(f)
    if spec_icrc(f) is None:
        return None
    if et == 0x0800:
        ihl = (f[l3] & 15) * 4
        return l3, et, l3 + ihl + 8, l3 + struct.unpack("!H", f[l3 + 2:l3 + 4])[0]
    plen = struct.unpack("!H", f[l3 + 4:l3 + 6])[0]
    return l3, et, l3 + 40 + (8 if et == 0x86DD else 0), l3 + 40 + plen


def v4mapped(a):
    return a[:12] == b"\0" * 10 + b"\xff\xff"


class Rules:
    """rocewire-replay's rewrite options, applied to a frame from the spec
    and the RFCs: header fields by their byte offsets (IBA 9.3.1 BTH, 9.3.3
    RETH, A16 GRH, A17 RoCEv2), the ICRC by spec_icrc (zlib), the IPv4 and
    UDP checksums by Scapy."""

    def __init__(self, args):
        self.ip4, self.qpn, self.rkey, self.va, self.psn = [], {}, {}, [], []
        self.sport = self.dscp = self.ecn = self.ttl = self.pkey = None
        self.src_mac = self.dst_mac = self.vlan_add = self.convert = None
        self.csum = "keep"
        it = iter(args)
        for a in it:
            if a == "--map-ip":
                f, t = next(it).split("=")
                self.ip4.append((ipaddress.ip_network(f, strict=False), ipaddress.ip_network(t, strict=False)))
            elif a == "--map-qpn":
                f, t = next(it).split("=")
                self.qpn[int(f, 0)] = int(t, 0)
            elif a == "--map-rkey":
                f, t = next(it).split("=")
                self.rkey[int(f, 0)] = int(t, 0)
            elif a == "--map-va":
                f, t = next(it).split("=")
                base, _, ln = f.partition("+")
                base = int(base, 0)
                self.va.append((base, int(ln, 0) if ln else 2**64 - base, int(t, 0)))
            elif a == "--psn-offset":
                v = next(it)
                q, _, o = v.rpartition(":")
                self.psn.append((int(q, 0) if q else None, int(o, 0)))
            elif a == "--udp-sport":
                self.sport = int(next(it), 0)
            elif a == "--dscp":
                self.dscp = int(next(it), 0)
            elif a == "--ecn":
                self.ecn = int(next(it), 0)
            elif a == "--ttl":
                self.ttl = int(next(it), 0)
            elif a == "--pkey":
                self.pkey = int(next(it), 0)
            elif a == "--src-mac":
                self.src_mac = next(it)
            elif a == "--dst-mac":
                self.dst_mac = next(it)
            elif a == "--udp-csum":
                self.csum = next(it)
            elif a == "--vlan-add":
                vid, _, pcp = next(it).partition(":")
                self.vlan_add = int(pcp or "0", 0) << 13 | int(vid, 0)
            elif a in ("--to-v1", "--to-v2"):
                self.convert = a[2:]
            else:
                raise SystemExit("replay_check.py: option %s is not modelled here" % a)

    def map_ip(self, a):
        x = ipaddress.ip_address(a)
        for f, t in self.ip4:
            if x.version == f.version and x in f:
                host = int(x) & int(f.hostmask)
                return str(ipaddress.ip_address(int(t.network_address) | host))
        return a

    def tclass(self, tc):
        if self.dscp is not None:
            tc = (tc & 3) | (self.dscp << 2)
        if self.ecn is not None:
            tc = (tc & 0xFC) | self.ecn
        return tc

    def transport(self, f, bth):
        """The BTH (P_Key, PSN by the original QP, then the QP) and a RETH
        or AtomicETH (VA, R_Key) right after it, in place."""
        op, dq = f[bth], struct.unpack("!I", f[bth + 4:bth + 8])[0] & 0xFFFFFF
        if self.pkey is not None:
            f[bth + 2:bth + 4] = struct.pack("!H", self.pkey)
        for q, off in self.psn:
            if q is None or q == dq:
                psn = struct.unpack("!I", b"\0" + f[bth + 9:bth + 12])[0]
                f[bth + 9:bth + 12] = struct.pack("!I", (psn + off) % (1 << 24))[1:]
                break
        if dq in self.qpn:
            f[bth + 5:bth + 8] = struct.pack("!I", self.qpn[dq])[1:]
        if op in RETH_OPS:
            h = bth + 12
            va, rkey = struct.unpack("!QI", bytes(f[h:h + 12]))
            for base, ln, to in self.va:
                if base <= va < base + ln:
                    f[h:h + 8] = struct.pack("!Q", to + va - base)
                    break
            if rkey in self.rkey:
                f[h + 8:h + 12] = struct.pack("!I", self.rkey[rkey])

    def roce(self, f):
        """The RoCE part of a frame: the covered and masked fields, a
        conversion, the ICRC (a capture's error kept), then the UDP
        checksum over the final bytes."""
        _, wire, good = spec_icrc(f)
        err = wire ^ good
        l3, et, bth, end = ib_span(f)
        orig_csum = 0
        g = bytearray(f[:end])
        if et == 0x0800:
            ip = IP(bytes(g[l3:]))
            ip.src, ip.dst = self.map_ip(ip.src), self.map_ip(ip.dst)
            ip.tos = self.tclass(ip.tos)
            if self.ttl is not None:
                ip.ttl = self.ttl
            del ip.chksum
            g[l3:bth - 8] = raw(ip)[:bth - 8 - l3]
        elif et == 0x86DD:
            ip = IPv6(bytes(g[l3:]))
            ip.src, ip.dst = self.map_ip(ip.src), self.map_ip(ip.dst)
            ip.tc = self.tclass(ip.tc)
            if self.ttl is not None:
                ip.hlim = self.ttl
            g[l3:l3 + 40] = raw(ip)[:40]
        else:
            grh = GRH(bytes(g[l3:l3 + 40]))
            grh.tclass = self.tclass(grh.tclass)
            if self.ttl is not None:
                grh.hoplmt = self.ttl
            for k in ("sgid", "dgid"):
                a = struct.pack("!QQ", getattr(grh, k) >> 64, getattr(grh, k) & (2**64 - 1))
                a = ipaddress.ip_address(a[12:]).packed if v4mapped(a) else a
                a = ipaddress.ip_address(self.map_ip(str(ipaddress.ip_address(a)))).packed
                if len(a) == 4:
                    a = b"\0" * 10 + b"\xff\xff" + a
                setattr(grh, k, int.from_bytes(a, "big"))
            g[l3:l3 + 40] = raw(grh)[:40]
        if et != 0x8915:
            orig_csum = struct.unpack("!H", g[bth - 2:bth])[0]
            if self.sport is not None:
                g[bth - 8:bth - 6] = struct.pack("!H", self.sport)
        self.transport(g, bth)
        conv = self.convert == "to-v1" and et != 0x8915 or self.convert == "to-v2" and et == 0x8915
        if conv:
            g, et, bth = self.converted(g, l3, et, bth, end)
            orig_csum = 0
        # the ICRC (IBA A17.3.3 / A16), the capture's error kept
        g[-4:] = struct.pack("<I", spec_icrc(bytes(g))[2] ^ err)
        # the UDP checksum last: it covers the ICRC
        if et != 0x8915:
            if self.csum == "zero" or (self.csum == "keep" and orig_csum == 0):
                g[bth - 2:bth] = b"\0\0"
            else:
                e = Ether(bytes(g))
                del e[UDP].chksum
                g = bytearray(raw(e)[:len(g)])
        return bytes(g) + bytes(f[end:]) if not conv else bytes(g)

    def converted(self, g, l3, et, bth, end):
        """RoCEv2 <-> RoCEv1: the Ethernet header kept (its last ethertype
        changed), the new carrier built from the old one's fields, the IB
        transport packet (BTH through ICRC) kept."""
        ib = bytes(g[bth:end])
        eth = bytearray(g[:l3])
        if et == 0x8915:  # to RoCEv2 (Annex A17)
            grh = GRH(bytes(g[l3:l3 + 40]))
            sg, dg = grh.sgid.to_bytes(16, "big"), grh.dgid.to_bytes(16, "big")
            sport = self.sport if self.sport is not None else 0xC000 | (grh.flowlabel & 0x3FFF)
            udp = UDP(sport=sport, dport=4791, chksum=0) / Raw(ib)
            if v4mapped(sg) and v4mapped(dg):
                ip = IP(tos=grh.tclass, id=0, flags="DF", ttl=grh.hoplmt, proto=17,
                        src=str(ipaddress.ip_address(sg[12:])), dst=str(ipaddress.ip_address(dg[12:])))
                et = 0x0800
            else:
                ip = IPv6(tc=grh.tclass, fl=grh.flowlabel, nh=17, hlim=grh.hoplmt,
                          src=str(ipaddress.ip_address(sg)), dst=str(ipaddress.ip_address(dg)))
                et = 0x86DD
            pkt = raw(ip / udp)
            eth[-2:] = struct.pack("!H", et)
            return bytearray(eth + pkt), et, l3 + len(pkt) - len(ib)
        if et == 0x0800:  # to RoCEv1 (Annex A16): IPv4-mapped GIDs
            tc, hop = g[l3 + 1], g[l3 + 8]
            fl = 0
            sg = b"\0" * 10 + b"\xff\xff" + bytes(g[l3 + 12:l3 + 16])
            dg = b"\0" * 10 + b"\xff\xff" + bytes(g[l3 + 16:l3 + 20])
        else:
            ip = IPv6(bytes(g[l3:l3 + 40]))
            tc, fl, hop = ip.tc, ip.fl, ip.hlim
            sg, dg = bytes(g[l3 + 8:l3 + 24]), bytes(g[l3 + 24:l3 + 40])
        grh = GRH(ipver=6, tclass=tc, flowlabel=fl, paylen=len(ib), nexthdr=0x1B, hoplmt=hop,
                  sgid=int.from_bytes(sg, "big"), dgid=int.from_bytes(dg, "big"))
        eth[-2:] = struct.pack("!H", 0x8915)
        hdr = raw(grh)[:40]
        return bytearray(eth + hdr + ib), 0x8915, l3 + 40

    def apply(self, frame):
        """The frame as rocewire-replay should send it."""
        f = bytes(frame)
        if ib_span(f) is not None:
            f = self.roce(f)
        # every Ethernet frame: the MACs (MAC control keeps its reserved
        # destination, 802.3 Annex 31B) and a tag (never on MAC control)
        macctl = l3_of(f)[1] == 0x8808
        if self.dst_mac and not macctl:
            f = bytes.fromhex(self.dst_mac.replace(":", "")) + f[6:]
        if self.src_mac:
            f = f[:6] + bytes.fromhex(self.src_mac.replace(":", "")) + f[12:]
        if self.vlan_add is not None and not macctl:
            f = f[:12] + struct.pack("!HH", 0x8100, self.vlan_add) + f[12:]
        # a frame a rewrite shortened below Ethernet's minimum is padded back
        if len(f) < 60 <= len(frame):
            f += bytes(60 - len(f))
        return f


def tshark_fields(path):
    here = os.path.dirname(os.path.abspath(__file__))
    noheur = subprocess.run(["sh", "-c", ". %s/../e2e/tshark_noheur.sh; echo $noheur" % here],
                            capture_output=True, text=True).stdout.split()
    cmd = ["tshark", "-r", path, "-n"] + noheur + [
        "-T", "fields", "-E", "separator=,", "-e", "ip.src", "-e", "ip.dst", "-e", "udp.srcport",
        "-e", "infiniband.bth.destqp", "-e", "infiniband.bth.psn", "-e", "infiniband.bth.p_key"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("tshark failed: %s" % r.stderr)
    return [ln.split(",") for ln in r.stdout.splitlines()]


def check_frames(orig, out, args):
    rules = Rules(args)
    a, b = frames(orig), frames(out)
    if len(a) != len(b):
        print("FAIL: %s has %d frames, %s %d" % (out, len(b), orig, len(a)))
        return 1
    bad = 0
    want_fields = []
    for i, (fa, fb) in enumerate(zip(a, b)):
        want = rules.apply(fa)
        if want != fb:
            diff = next(k for k in range(min(len(want), len(fb)) + 1)
                        if k >= min(len(want), len(fb)) or want[k] != fb[k])
            lo = max(0, diff - 16)
            print("FAIL: frame %d differs from Scapy's rewrite at byte %d (from byte %d):\n"
                  "  want %s\n  got  %s" % (i + 1, diff, lo, want[lo:diff + 32].hex(),
                                             fb[lo:diff + 32].hex()))
            bad += 1
            if bad > 3:
                break
        p = Ether(want)
        if ib_span(want) is not None and IP in p and BTH in p:
            want_fields.append([p[IP].src, p[IP].dst, str(p[UDP].sport), str(p[BTH].dqpn),
                                str(p[BTH].psn), str(p[BTH].pkey)])
        else:
            want_fields.append(None)
    got = tshark_fields(out)
    for i, w in enumerate(want_fields):
        if w is None:
            continue
        g = [int(x, 0) if k >= 3 and x else x for k, x in enumerate(got[i])]
        wv = [int(x) if k >= 3 else x for k, x in enumerate(w)]
        if g != wv:
            print("FAIL: frame %d: tshark reads %s, expected %s" % (i + 1, g, wv))
            bad += 1
    changed = sum(1 for fa, fb in zip(a, b) if fa != fb)
    print("%s: %d frames, %d changed, all as Scapy rewrites them, tshark agrees"
          % (out, len(b), changed) if not bad else "%d differences" % bad)
    return 1 if bad else 0


def check_same(want, out):
    """OUT holds WANT's frames byte for byte."""
    a, b = frames(want), frames(out)
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print("FAIL: frame %d of %s differs from %s's:\n  want %s (%d bytes)\n  got  %s (%d bytes)"
                  % (i + 1, out, want, x.hex(), len(x), y.hex(), len(y)))
            return 1
    if len(a) != len(b):
        print("FAIL: %s has %d frames, %s %d" % (out, len(b), want, len(a)))
        return 1
    print("%s: %d frames, byte for byte those of %s" % (out, len(b), want))
    return 0


def check_timing(out, summary, mode, *rest):
    s = json.load(open(summary))
    t = pcap_times(out)
    if mode == "pps":
        rate = float(rest[0])
        want = [i / rate for i in range(len(t))]
    else:
        mult = float(rest[1])
        o = pcap_times(rest[0])
        want = [(x - o[0]) / mult for x in o]
    got = [x - t[0] for x in t]
    # the first frame's own error moves every offset: allow the largest
    # error reported, twice, and net_pcap's stamping after the send (0.5 ms)
    tol = 2 * s["pacing"]["max_us"] / 1e6 + 0.0005
    worst = max(abs(g - w) for g, w in zip(got, want))
    span = want[-1]
    print("%d frames over %.3f s: worst offset error %.1f us, reported p99 %.1f us max %.1f us, "
          "tolerance %.1f us" % (len(t), span, worst * 1e6, s["pacing"]["p99_us"],
                                 s["pacing"]["max_us"], tol * 1e6))
    if len(t) != len(want) or worst > tol:
        print("FAIL: timestamps are not within the reported pacing error")
        return 1
    return 0


def spec_icrc(f):
    """(carrier, wire ICRC, ICRC by IBA A16/A17.3.3 with zlib) of a RoCE
    frame, or None. Written from the spec: 8 bytes of ones for the LRH,
    the variant fields of IPv4/IPv6/GRH and the UDP checksum and BTH byte 4
    as ones."""
    off = 12
    et = struct.unpack("!H", f[off:off + 2])[0]
    while et in (0x8100, 0x88A8, 0x9100):
        off += 4
        et = struct.unpack("!H", f[off:off + 2])[0]
    l3 = off + 2
    if et == 0x0800:
        ihl = (f[l3] & 15) * 4
        if f[l3 + 9] != 17 or struct.unpack("!H", f[l3 + ihl + 2:l3 + ihl + 4])[0] != 4791:
            return None
        if struct.unpack("!H", f[l3 + 6:l3 + 8])[0] & 0x3FFF:
            return None     # a fragment (MF or an offset): RoCE never fragments
        end = l3 + struct.unpack("!H", f[l3 + 2:l3 + 4])[0]
        if end > len(f) or end - l3 < ihl + 8 + 12 + 4:
            return None
        m = bytearray(f[l3:end])
        m[1] = m[8] = m[10] = m[11] = 0xFF
        m[ihl + 6] = m[ihl + 7] = 0xFF
        m[ihl + 8 + 4] = 0xFF
        kind = "v2-ipv4"
    elif et in (0x86DD, 0x8915):
        plen = struct.unpack("!H", f[l3 + 4:l3 + 6])[0]
        end = l3 + 40 + plen
        if end > len(f) or plen < 12 + 4 + (8 if et == 0x86DD else 0):
            return None
        m = bytearray(f[l3:end])
        m[0] |= 0x0F
        m[1:4] = b"\xff\xff\xff"
        m[7] = 0xFF
        if et == 0x86DD:
            if m[6] != 17 or struct.unpack("!H", f[l3 + 42:l3 + 44])[0] != 4791:
                return None
            m[46] = m[47] = 0xFF
            m[48 + 4] = 0xFF
            kind = "v2-ipv6"
        else:
            m[40 + 4] = 0xFF
            kind = "v1"
    else:
        return None
    if end > len(f) or end - 4 <= l3:
        return None
    wire = struct.unpack("<I", f[end - 4:end])[0]
    return kind, wire, zlib.crc32(b"\xff" * 8 + bytes(m[:-4])) & 0xFFFFFFFF


def check_icrc(out, want_bad, want_roce=None):
    """Every RoCE frame's ICRC against the spec's computation; the number
    of bad ones must be want_bad (and of RoCE frames want_roce)."""
    roce = bad = 0
    kinds = {}
    for f in frames(out):
        r = spec_icrc(f)
        if r is None:
            continue
        roce += 1
        kinds[r[0]] = kinds.get(r[0], 0) + 1
        bad += r[1] != r[2]
    print("%s: %d RoCE frames %s, %d with a bad ICRC, expected %s"
          % (out, roce, kinds, bad, want_bad))
    if bad != int(want_bad) or (want_roce is not None and roce != int(want_roce)):
        print("FAIL: ICRC count")
        return 1
    return 0


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    if sys.argv[1] == "frames":
        return check_frames(sys.argv[2], sys.argv[3], sys.argv[4:])
    if sys.argv[1] == "same":
        return check_same(*sys.argv[2:])
    if sys.argv[1] == "icrc":
        return check_icrc(*sys.argv[2:])
    if sys.argv[1] == "timing":
        return check_timing(*sys.argv[2:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
