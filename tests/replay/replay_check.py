#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a capture that rocewire-replay sent against the capture it read,
with nothing of rocewire: Scapy applies the same rewrites to the original
frames field by field (scapy.contrib.roce recomputes the ICRC, Scapy the IPv4
and UDP checksums), and every frame sent must be byte for byte the frame
Scapy made; frames no rule touches must be the original bytes. tshark's own
dissector must then read the new values (IP addresses, UDP source port,
destination QP, PSN, P_Key) from the sent frames.

usage:
  replay_check.py frames ORIG OUT [rewrite options as given to rocewire-replay]
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
    from scapy.all import Ether, IP, UDP, Raw, raw
    from scapy.utils import RawPcapReader, RawPcapNgReader
    from scapy.contrib.roce import BTH
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


class Rules:
    def __init__(self, args):
        self.ip4, self.qpn, self.rkey, self.va, self.psn = [], {}, {}, [], []
        self.sport = self.dscp = self.ecn = self.ttl = self.pkey = None
        self.src_mac = self.dst_mac = None
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
            else:
                raise SystemExit("replay_check.py: option %s is not modelled here" % a)

    def map_ip(self, a):
        x = ipaddress.ip_address(a)
        for f, t in self.ip4:
            if x in f:
                host = int(x) & int(f.hostmask)
                return str(ipaddress.ip_address(int(t.network_address) | host))
        return a

    def apply(self, frame):
        """The frame as rocewire-replay should send it, built by Scapy."""
        p = Ether(frame)
        if self.dst_mac:
            p.dst = self.dst_mac
        if self.src_mac:
            p.src = self.src_mac
        if not (IP in p and UDP in p and BTH in p):
            return raw(p)
        ip, udp, bth = p[IP], p[UDP], p[BTH]
        covered = False
        for field in ("src", "dst"):
            n = self.map_ip(getattr(ip, field))
            if n != getattr(ip, field):
                setattr(ip, field, n)
                covered = True
        tos = ip.tos
        if self.dscp is not None:
            tos = (tos & 3) | (self.dscp << 2)
        if self.ecn is not None:
            tos = (tos & 0xFC) | self.ecn
        ip.tos = tos
        if self.ttl is not None:
            ip.ttl = self.ttl
        if self.sport is not None and udp.sport != self.sport:
            udp.sport = self.sport
            covered = True
        dq = bth.dqpn
        for q, off in self.psn:
            if q is None or q == dq:
                n = (bth.psn + off) % (1 << 24)
                covered |= n != bth.psn
                bth.psn = n
                break
        if dq in self.qpn and self.qpn[dq] != dq:
            bth.dqpn = self.qpn[dq]
            covered = True
        if self.pkey is not None and self.pkey != bth.pkey:
            bth.pkey = self.pkey
            covered = True
        if bth.opcode in RETH_OPS and Raw in bth:
            body = bytearray(bth[Raw].load)
            va, rkey = struct.unpack("!QI", bytes(body[:12]))
            for base, ln, to in self.va:
                if base <= va < base + ln:
                    body[:8] = struct.pack("!Q", to + va - base)
                    break
            if rkey in self.rkey:
                body[8:12] = struct.pack("!I", self.rkey[rkey])
            if bytes(body) != bth[Raw].load:
                bth[Raw].load = bytes(body)
                covered = True
        del ip.chksum
        nonzero = udp.chksum != 0
        if nonzero:
            del udp.chksum      # a non-zero UDP checksum follows; 0 stays 0
        if covered:
            # Scapy 2.5's own ICRC takes the Ethernet padding of short
            # frames in: the spec's computation (spec_icrc) instead
            c = spec_icrc(raw(p))[2]
            bth.icrc = struct.unpack("!I", struct.pack("<I", c))[0]
        return raw(p)


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
        if IP in p and BTH in p:
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
    if sys.argv[1] == "icrc":
        return check_icrc(*sys.argv[2:])
    if sys.argv[1] == "timing":
        return check_timing(*sys.argv[2:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
