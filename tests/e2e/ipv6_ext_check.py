#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""A capture like an ordinary RoCE host's, IPv6 extension headers included,
read by rocewire-cap and by tshark.

Scapy lays out the frames: RoCEv2 over IPv4 and plain IPv6; RoCEv2 over IPv6
behind a Hop-by-Hop, a Routing, a Destination Options, an atomic Fragment
header and a chain of five; the MLD reports every Linux host sends (IPv6,
Hop-by-Hop with a Router Alert, ICMPv6 type 143); ARP; TCP over IPv4 and
IPv6; an IPv4 fragment and an IPv6 real fragment of UDP 4791; UDP 4791 under
AH; and an RC ACKNOWLEDGE sent from UDP source port 69 to 4791.

Every ICRC is computed here, per shared/notes/icrc.md: zlib's CRC-32 over 8
bytes of 0xFF, the IP header with its variant fields set to ones, the IPv6
extension headers as they are, UDP with its checksum set to ones, the BTH
with byte 4 set to ones, then the rest; stored least-significant byte first.
Scapy's own compute_icrc cannot be used: 2.5.0 writes 0 for IPv6 (and later
versions take UDP's underlayer, the last extension header, for the IP
header). The offsets of the parts come from Scapy's layers. The UDP checksum
is then made over the final bytes (tshark checks it), as a host sends it.

Then: rocewire-cap -r exits 0 with no decode error; every RoCE frame's ICRC
is "ok" and equals the one computed here; the per-frame fields of
rocewire-cap --json (carrier, opcode, destination QP, PSN, IPv6 addresses,
the extension headers' types and lengths) equal tshark's reading of the same
frames; the frames that are not RoCE are "other" (tshark finds no
InfiniBand in them either, but under AH, which it dissects and rocewire does
not); the port-69 ACK, which tshark reads as TFTP, is an RC_ACKNOWLEDGE with
its QP and PSN for rocewire; -v lists the chain's extension headers.

usage: ipv6_ext_check.py ROCEWIRE_CAP WORKDIR
Exit 0 all good, 1 a mismatch, 77 Scapy or tshark missing.
"""
import ipaddress
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

try:
    from scapy.all import Ether, ARP, IP, IPv6, UDP, TCP, Raw, raw, wrpcap
    from scapy.layers.inet6 import (IPv6ExtHdrHopByHop, IPv6ExtHdrDestOpt, IPv6ExtHdrRouting,
                                    IPv6ExtHdrFragment, RouterAlert, PadN, ICMPv6MLReport2,
                                    ICMPv6MLDMultAddrRec)
    from scapy.layers.ipsec import AH
    from scapy.contrib.roce import BTH
except ImportError as e:  # pragma: no cover
    print("SKIP: scapy is missing (%s): apt-get install python3-scapy" % e)
    sys.exit(77)
if not shutil.which("tshark"):
    print("SKIP: tshark is not installed (apt-get install tshark)")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tshark_xcheck import TSHARK_OPTS  # noqa: E402 (the payload heuristics turned off)

MAC_A, MAC_B = "b8:ce:f6:30:00:01", "b8:ce:f6:30:00:02"
V4_A, V4_B = "192.168.30.1", "192.168.30.2"
V6_A, V6_B = "2001:db8:30::1", "2001:db8:30::2"
LL_A = "fe80::bace:f6ff:fe30:1"

# Extension header types by the protocol name tshark gives them in frame.protocols.
TSHARK_EXT = {"ipv6.hopopts": 0, "ipv6.routing": 43, "ipv6.fraghdr": 44, "ipv6.dstopts": 60}
EXT_LAYERS = (IPv6ExtHdrHopByHop, IPv6ExtHdrDestOpt, IPv6ExtHdrRouting, IPv6ExtHdrFragment)


def icrc_of(frame, l3, udp):
    """The ICRC of shared/notes/icrc.md; l3 and udp: offsets of the IP and
    UDP headers in frame; the ICRC ends the UDP datagram."""
    udp_end = udp + struct.unpack("!H", frame[udp + 4:udp + 6])[0]
    if frame[l3] >> 4 == 4:
        ip = bytearray(frame[l3:udp])          # IPv4, with any options
        ip[1] = 0xFF                           # TOS: DSCP, ECN
        ip[8] = 0xFF                           # TTL
        ip[10:12] = b"\xff\xff"                # header checksum
    else:
        ip = bytearray(frame[l3:l3 + 40])
        ip[0] |= 0x0F                          # traffic class, high nibble
        ip[1:4] = b"\xff\xff\xff"              # its low nibble, flow label
        ip[7] = 0xFF                           # hop limit
        ip += frame[l3 + 40:udp]               # extension headers, unmasked
    u = bytearray(frame[udp:udp + 8])
    u[6:8] = b"\xff\xff"                       # UDP checksum
    bth = bytearray(frame[udp + 8:udp + 20])
    bth[4] = 0xFF                              # FECN, BECN, resv6
    rest = frame[udp + 20:udp_end - 4]
    return zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(u) + bytes(bth) + rest) & 0xFFFFFFFF


def udp_checksum(frame, l3, udp):
    """RFC 768 over the RFC 8200 8.1 / RFC 768 pseudo-header; the datagram's
    Routing headers here have no segments left, so the destination is the
    IPv6 header's."""
    ulen = struct.unpack("!H", frame[udp + 4:udp + 6])[0]
    if frame[l3] >> 4 == 4:
        pseudo = frame[l3 + 12:l3 + 20] + struct.pack("!BBH", 0, 17, ulen)
    else:
        pseudo = frame[l3 + 8:l3 + 40] + struct.pack("!IxxxB", ulen, 17)
    data = bytes(pseudo) + bytes(frame[udp:udp + 6]) + b"\0\0" + bytes(frame[udp + 8:udp + ulen])
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s & 0xFFFF) or 0xFFFF


def payload_bytes(n, seed):
    x, out = seed, bytearray()
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        out.append(x >> 24)
    return bytes(out)


class Capture:
    def __init__(self):
        self.pkts = []   # Scapy packets, in capture order
        self.want = []   # what each frame is, from the way it was made

    def add(self, pkt, **want):
        pkt.time = 1700000000 + len(self.pkts) / 1000.0
        self.pkts.append(pkt)
        self.want.append(want)

    def roce(self, l3, opcode, dqpn, psn, hdrs=b"", payload=b"", sport=49152, name=None):
        """RoCEv2 under l3 (an IP or IPv6 layer with any extension headers):
        the BTH, the transport headers hdrs, the payload and its pad, and the
        ICRC computed here."""
        padcnt = (4 - len(payload) % 4) % 4
        pkt = (Ether(src=MAC_A, dst=MAC_B) / l3 / UDP(sport=sport, dport=4791) /
               BTH(opcode=opcode, padcount=padcnt, pkey=0xFFFF, dqpn=dqpn, ackreq=1, psn=psn,
                   icrc=0) /
               Raw(hdrs + payload + b"\0" * padcnt))
        frame = bytearray(raw(pkt))
        udp = len(frame) - len(raw(pkt[UDP]))
        exts = []
        layer = pkt[IPv6] if IPv6 in pkt else None
        while layer is not None and not isinstance(layer, UDP):
            if isinstance(layer, EXT_LAYERS):
                exts.append((layer.__class__, len(raw(layer)) - len(raw(layer.payload))))
            layer = layer.payload
        icrc = icrc_of(frame, 14, udp)
        frame[-4:] = struct.pack("<I", icrc)
        # The UDP checksum covers the ICRC (the ICRC masks the checksum).
        frame[udp + 6:udp + 8] = struct.pack("!H", udp_checksum(frame, 14, udp))
        self.add(Ether(bytes(frame)), roce=True, opcode=opcode, dqpn=dqpn, psn=psn, udp=udp,
                 icrc=icrc, ext_lens=[n for _, n in exts], name=name)


def build(path):
    c = Capture()
    # RoCEv2 over IPv4 and plain IPv6: an RDMA WRITE ONLY (RETH), a SEND.
    reth = struct.pack("!QII", 0x7F0012340000, 0x1234, 64)
    c.roce(IP(src=V4_A, dst=V4_B, flags="DF", tos=0x6A), 0x0A, 0x000101, 1000, reth,
           payload_bytes(64, 1))
    c.roce(IPv6(src=V6_A, dst=V6_B, tc=0x6A, fl=0x12345), 0x04, 0x000102, 2000, b"",
           payload_bytes(37, 2))
    # Behind each extension header type.
    c.roce(IPv6(src=V6_A, dst=V6_B) / IPv6ExtHdrHopByHop(options=[RouterAlert(value=0)]),
           0x04, 0x000103, 3000, b"", payload_bytes(20, 3), name="hop-by-hop")
    c.roce(IPv6(src=V6_A, dst=V6_B) / IPv6ExtHdrRouting(addresses=["2001:db8:30::99"], segleft=0),
           0x0A, 0x000104, 4000, reth, payload_bytes(64, 4), name="routing")
    c.roce(IPv6(src=V6_A, dst=V6_B) / IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0" * 10)]),
           0x04, 0x000105, 5000, b"", payload_bytes(300, 5), name="destination-options")
    c.roce(IPv6(src=V6_A, dst=V6_B) / IPv6ExtHdrFragment(offset=0, m=0, id=0x1234),
           0x04, 0x000106, 6000, b"", payload_bytes(8, 6), name="atomic fragment")
    # RFC 8200 4.1's order: Hop-by-Hop, Destination, Routing, Fragment, Destination.
    c.roce(IPv6(src=V6_A, dst=V6_B) / IPv6ExtHdrHopByHop(options=[RouterAlert(value=0)]) /
           IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0" * 4)]) /
           IPv6ExtHdrRouting(addresses=["2001:db8:30::99"], segleft=0) /
           IPv6ExtHdrFragment(offset=0, m=0, id=0x5678) /
           IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0" * 12)]),
           0x11, 0x000107, 7000, struct.pack("!I", 0x1F000007), name="chain")
    # An RC ACKNOWLEDGE (AETH: ACK, credit code 31, MSN 7) from source port 69.
    c.roce(IP(src=V4_B, dst=V4_A, flags="DF"), 0x11, 0x000201, 1000,
           struct.pack("!I", 0x1F000007), sport=69, name="port 69")
    # What else a host sends: two MLD reports, ARP, TCP, fragments, AH.
    for grp in ("ff02::fb", "ff02::1:ff30:1"):
        c.add(Ether(src=MAC_A, dst="33:33:00:00:00:16") /
              IPv6(src=LL_A, dst="ff02::16", hlim=1) /
              IPv6ExtHdrHopByHop(options=[RouterAlert(value=0)]) /
              ICMPv6MLReport2(records=[ICMPv6MLDMultAddrRec(rtype=4, dst=grp)]), what="mld")
    c.add(Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc=V4_A, pdst=V4_B, hwsrc=MAC_A),
          what="arp")
    c.add(Ether(src=MAC_A, dst=MAC_B) / IP(src=V4_A, dst=V4_B) /
          TCP(sport=40000, dport=22, flags="S"), what="tcp4")
    c.add(Ether(src=MAC_A, dst=MAC_B) / IPv6(src=V6_A, dst=V6_B) /
          TCP(sport=40001, dport=22, flags="S"), what="tcp6")
    roce_bytes = raw(BTH(opcode=0x04, dqpn=0x300, psn=1, icrc=0) / Raw(b"\0" * 16))
    c.add(Ether(src=MAC_A, dst=MAC_B) / IP(src=V4_A, dst=V4_B, flags="MF", id=7) /
          UDP(sport=49152, dport=4791, len=8 + 1400) / Raw(roce_bytes), what="ipv4 first fragment")
    c.add(Ether(src=MAC_A, dst=MAC_B) / IP(src=V4_A, dst=V4_B, frag=185, id=8, proto=17) /
          Raw(b"\0" * 32), what="ipv4 last fragment")
    c.add(Ether(src=MAC_A, dst=MAC_B) / IPv6(src=V6_A, dst=V6_B) /
          IPv6ExtHdrFragment(offset=0, m=1, id=9) /
          UDP(sport=49152, dport=4791, len=8 + 1400) / Raw(roce_bytes), what="ipv6 first fragment")
    c.add(Ether(src=MAC_A, dst=MAC_B) / IPv6(src=V6_A, dst=V6_B) /
          AH(nh=17, payloadlen=4, spi=0x100, seq=1, icv=b"\0" * 12) /
          UDP(sport=49152, dport=4791) / Raw(roce_bytes), what="ah")
    wrpcap(path, c.pkts)
    return c


def tshark_rows(path):
    fields = ["frame.number", "frame.protocols", "_ws.col.Protocol", "_ws.col.Info",
              "_ws.malformed", "infiniband.bth.opcode", "infiniband.bth.destqp",
              "infiniband.bth.psn", "infiniband.invariant.crc", "ipv6.src", "ipv6.dst",
              "ip.src", "ip.dst", "ipv6.hopopts.len_oct", "ipv6.routing.len_oct",
              "ipv6.dstopts.len_oct", "udp.checksum.status"]
    cmd = ["tshark", "-n", "-r", path, "-T", "fields", "-E", "separator=/t", "-E", "quote=n",
           "-E", "occurrence=a", "-E", "aggregator=;", "-o", "udp.check_checksum:TRUE"] + \
        TSHARK_OPTS
    for f in fields:
        cmd += ["-e", f]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise SystemExit("tshark failed (exit %d): %s" % (r.returncode, r.stderr.decode()))
    rows = []
    for line in r.stdout.decode().splitlines():
        vals = line.split("\t")
        rows.append({f: (v.split(";") if v else []) for f, v in zip(fields, vals)})
    return rows


def num(v):
    return int(v, 16) if v.startswith("0x") else int(v)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    cap, work = sys.argv[1], sys.argv[2]
    pcap = os.path.join(work, "host-ipv6-ext.pcap")
    c = build(pcap)
    problems = []

    def check(cond, what):
        if not cond:
            problems.append(what)

    r = subprocess.run([cap, "-r", pcap], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = r.stderr.decode()
    check(r.returncode == 0, "rocewire-cap -r exited %d, expected 0: %s" % (r.returncode, err))
    check("decode errors: 0" in err, "rocewire-cap -r: not 'decode errors: 0' in: %s" % err)
    check("error" not in r.stdout.decode(), "rocewire-cap -r printed an error line")

    r = subprocess.run([cap, "-r", pcap, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(r.returncode == 0, "rocewire-cap --json exited %d" % r.returncode)
    recs = [json.loads(line) for line in r.stdout.decode().splitlines() if line.strip()]
    rows = tshark_rows(pcap)
    check(len(recs) == len(c.want) == len(rows),
          "frames: rocewire %d, tshark %d, made %d" % (len(recs), len(rows), len(c.want)))

    for i, (want, j, t) in enumerate(zip(c.want, recs, rows)):
        where = "frame %d (%s)" % (i + 1, want.get("name") or want.get("what") or "RoCE")
        protos = t["frame.protocols"][0].split(":") if t["frame.protocols"] else []
        check("error" not in j, "%s: rocewire error %r" % (where, j.get("error")))
        check(not t["_ws.malformed"], "%s: tshark says Malformed" % where)
        if not want.get("roce"):
            check(j["carrier"] == "other", "%s: carrier %r, expected other" % (where, j["carrier"]))
            check("bth" not in j and "icrc" not in j, "%s: rocewire decoded a BTH" % where)
            if want["what"] == "ah":
                # AH ends rocewire's walk (rocewire does not decode IPsec);
                # tshark dissects what AH authenticates, UDP 4791 included.
                check("ah" in protos, "%s: tshark protocols %s" % (where, protos))
            else:
                check("infiniband" not in protos,
                      "%s: tshark found InfiniBand: %s" % (where, protos))
            if want["what"] == "mld":
                check(protos[-2:] == ["ipv6.hopopts", "icmpv6"], "%s: tshark %s" % (where, protos))
                ext = j.get("ipv6_ext", [])
                check([e["type"] for e in ext] == [0] and ext[0]["next"] == 58,
                      "%s: ipv6_ext %r" % (where, ext))
            continue
        # RoCE: what we made, what tshark reads, what rocewire reads.
        check(j["carrier"] == "rocev2", "%s: carrier %r" % (where, j["carrier"]))
        # (a frame as a host sends it: tshark verifies the UDP checksum, 1 Good)
        check(t["udp.checksum.status"] == ["1"],
              "%s: UDP checksum status %s" % (where, t["udp.checksum.status"]))
        check(j.get("icrc", {}).get("status") == "ok", "%s: ICRC %r" % (where, j.get("icrc")))
        shown = "0x%08x" % struct.unpack(">I", struct.pack("<I", want["icrc"]))[0]
        check(j.get("icrc", {}).get("computed") == shown,
              "%s: rocewire computed %r, here %s" % (where, j.get("icrc"), shown))
        bth = j.get("bth", {})
        check((bth.get("opcode"), bth.get("dqpn"), bth.get("psn")) ==
              (want["opcode"], want["dqpn"], want["psn"]),
              "%s: bth %r, made opcode %#x QP %#x PSN %d" % (where, bth, want["opcode"],
                                                            want["dqpn"], want["psn"]))
        j_ext = j.get("ipv6_ext", [])
        check([e["len"] for e in j_ext] == want["ext_lens"],
              "%s: ipv6_ext lengths %r, Scapy's %r" % (where, j_ext, want["ext_lens"]))
        if want["name"] == "port 69":
            # tshark gives the datagram to TFTP (the lower port); rocewire
            # reads RoCE by the destination port, as RoCE NICs do (IBA A17.2).
            check("tftp" in protos and "infiniband" not in protos,
                  "%s: tshark protocols %s, expected TFTP" % (where, protos))
            check(bth.get("name") == "RC_ACKNOWLEDGE", "%s: %r" % (where, bth.get("name")))
            check(j.get("aeth", {}).get("msn") == 7, "%s: aeth %r" % (where, j.get("aeth")))
            continue
        check("infiniband" in protos, "%s: tshark did not find InfiniBand: %s" % (where, protos))
        if "infiniband" not in protos:
            continue
        check(num(t["infiniband.bth.opcode"][0]) == bth.get("opcode"),
              "%s: opcode tshark %s rocewire %r" % (where, t["infiniband.bth.opcode"], bth))
        check(num(t["infiniband.bth.destqp"][0]) == bth.get("dqpn"),
              "%s: dest QP tshark %s rocewire %r" % (where, t["infiniband.bth.destqp"], bth))
        check(num(t["infiniband.bth.psn"][0]) == bth.get("psn"),
              "%s: PSN tshark %s rocewire %r" % (where, t["infiniband.bth.psn"], bth))
        check(t["infiniband.invariant.crc"] and
              num(t["infiniband.invariant.crc"][0]) == int(j["icrc"]["wire"], 16),
              "%s: ICRC tshark %s rocewire %r" % (where, t["infiniband.invariant.crc"], j["icrc"]))
        ip = j.get("ipv6") or j.get("ipv4") or {}
        src, dst = (t["ipv6.src"], t["ipv6.dst"]) if ip.get("version") == 6 else \
            (t["ip.src"], t["ip.dst"])
        check(src and dst and
              ipaddress.ip_address(src[0]) == ipaddress.ip_address(ip.get("src")) and
              ipaddress.ip_address(dst[0]) == ipaddress.ip_address(ip.get("dst")),
              "%s: addresses tshark %s > %s, rocewire %r" % (where, src, dst, ip))
        # The extension headers, in wire order: tshark's protocol stack, and
        # its byte lengths of each one of a type (the Fragment header: 8).
        t_types = [TSHARK_EXT[p] for p in protos if p in TSHARK_EXT]
        check([e["type"] for e in j_ext] == t_types,
              "%s: ipv6_ext types %r, tshark %s" % (where, j_ext, protos))
        for ty, key in ((0, "ipv6.hopopts.len_oct"), (43, "ipv6.routing.len_oct"),
                        (60, "ipv6.dstopts.len_oct")):
            mine = [e["len"] for e in j_ext if e["type"] == ty]
            check(mine == [int(v) for v in t[key]],
                  "%s: %s tshark %s rocewire %s" % (where, key, t[key], mine))
        check(all(e["len"] == 8 for e in j_ext if e["type"] == 44), "%s: fragment len" % where)

    # -v shows each extension header of the chain, with Scapy's lengths.
    r = subprocess.run([cap, "-r", pcap, "-v"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    frames = r.stdout.decode().split("\nframe ")
    chain = next((k for k, w in enumerate(c.want) if w.get("name") == "chain"), None)
    text = frames[chain] if chain is not None and chain < len(frames) else ""
    names = ["hop-by-hop", "destination-options", "routing", "fragment", "destination-options"]
    codes = {"hop-by-hop": 0, "routing": 43, "fragment": 44, "destination-options": 60}
    want = [("%d (%s)" % (codes[n], n), str(ln))
            for n, ln in zip(names, c.want[chain]["ext_lens"])] if chain is not None else []
    # one "ipv6_ext" layer per extension header: "type 43 (routing)", ..., "len 24"
    got, cur = [], None
    for line in text.splitlines():
        if line == "  ipv6_ext":
            cur = {}
            got.append(cur)
        elif line.startswith("  ") and not line.startswith("    "):
            cur = None
        elif cur is not None and line.startswith("    "):
            k, _, v = line[4:].partition(" ")
            cur[k] = v
    check([(g.get("type"), g.get("len")) for g in got] == want and bool(want),
          "-v of the chain does not show %s:\n%s" % (want, text))

    for p in problems:
        print("MISMATCH " + p)
    n_roce = sum(1 for w in c.want if w.get("roce"))
    print("%d frames (%d RoCE, %d other): %d mismatches" %
          (len(c.want), n_roce, len(c.want) - n_roce, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
