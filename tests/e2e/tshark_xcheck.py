#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Field-by-field cross-check of rocewire-cap --json against tshark (Wireshark's
own InfiniBand, Ethernet, VLAN, IP, UDP, ERF, SLL and MAC-control dissectors).

usage: tshark_xcheck.py ROCEWIRE_CAP FILE... [--clean-only FILE...]
A FILE is a capture both decode, or ERF.pcap=IB.pcap: tshark decodes the
ERF capture, rocewire-cap the same frames written bare with link type 247
(which Wireshark 4.0 cannot read), frame by frame.
Every frame of every file is compared; every difference is printed. The
known answers come from tshark only. After --clean-only, the frames that
rocewire-cap reports an error for or tshark marks Malformed are left out (for
captures of deliberately broken frames; the count is printed).

Wireshark 4.0 quirks, handled narrowly and counted in the summary (see also
shared/notes/wireshark.md):
  Q1 Payload heuristics. Wireshark hands IB payloads to heuristic dissectors
     (RPC-over-RDMA, EoIB, SDP, iSER, ...), which throw "Malformed Packet" on
     our payload bytes (e.g. on short SEND payloads, or a payload that starts
     like an ethertype) and then hide the ICRC. tshark runs with those
     heuristics disabled (TSHARK_OPTS below); payload contents are not
     compared anyway. After that, a Malformed frame is a failure unless Q3
     explains it.
  Q2 Opcodes Wireshark 4.0 has no header sequence for: the RoCEv2 CNP (0x81,
     "Unknown" as the notes say), RC FLUSH and ATOMIC WRITE (IBA 1.5: 0x1C,
     0x1D) and all of XRC (0xA0-0xBF). tshark shows the BTH and "Unknown
     OpCode", then no extension header and no ICRC. For those frames (the
     opcode in that set AND tshark saying "Unknown OpCode") the BTH and
     everything below it are compared, and tshark must show no extension
     header and no Malformed (checked); rocewire's extension headers and ICRC
     of those frames are not cross-checked here (Scapy checks CNP ICRCs).
  Q3 Reliable Datagram (0x40-0x5F): Wireshark 4.0 dissects this range as
     Mellanox DC ("DC Send Only" in its summary), reading 8 bytes after the
     BTH before the RDETH, so every RD extension header it shows is the one
     8 bytes further on, and short RD frames end Malformed. For RD frames the
     BTH and everything below it are compared, and the shift itself is
     checked: where rocewire finds RDETH+DETH, tshark's RDETH E2E context
     must equal rocewire's DETH source QP (the 24 bits 8 bytes later).
Standard library only.
"""
import ipaddress
import json
import subprocess
import sys

# Q1: the heuristic dissectors registered on infiniband.payload in 4.0.
PAYLOAD_HEURISTICS = [
    "rpcrdma_infiniband", "eth_over_ib", "fc_infiniband", "sdp_infiniband", "iser_infiniband",
    "lnet_ib", "smb_direct_infiniband", "smcr_infiniband",
]
TSHARK_OPTS = []
for _h in PAYLOAD_HEURISTICS:
    TSHARK_OPTS += ["--disable-heuristic", _h]

# Q2: opcodes tshark 4.0 shows as "Unknown OpCode".
Q2_OPCODES = {0x1C, 0x1D, 0x81} | set(range(0xA0, 0xC0))

FIELDS = [
    "frame.number", "frame.len", "frame.cap_len", "frame.protocols", "_ws.col.Info", "_ws.malformed",
    # capture framings
    "erf.types.type", "erf.flags", "erf.rlen", "erf.lctr", "erf.wlen",
    "sll.pkttype", "sll.hatype", "sll.halen", "sll.src.eth", "sll.ltype", "sll.etype", "sll.ifindex",
    # Ethernet, tags
    "eth.src", "eth.dst", "eth.type",
    "ieee8021ad.id", "ieee8021ad.svid", "ieee8021ad.priority", "ieee8021ad.dei",
    "vlan.id", "vlan.priority", "vlan.dei",
    # MAC control
    "macc.opcode", "macc.pause_time", "macc.cbfc.enbv",
] + ["macc.cbfc.pause_time.c%d" % i for i in range(8)] + [
    # IP, UDP
    "ip.src", "ip.dst", "ip.dsfield.dscp", "ip.dsfield.ecn", "ip.ttl", "ip.id", "ip.len", "ip.proto",
    "ip.flags.df",
    "ipv6.src", "ipv6.dst", "ipv6.tclass.dscp", "ipv6.tclass.ecn", "ipv6.hlim", "ipv6.flow",
    "ipv6.plen", "ipv6.nxt",
    "udp.srcport", "udp.dstport", "udp.length", "udp.checksum",
    # InfiniBand
    "infiniband.lrh.vl", "infiniband.lrh.lver", "infiniband.lrh.sl", "infiniband.lrh.lnh",
    "infiniband.lrh.dlid", "infiniband.lrh.pktlen", "infiniband.lrh.slid",
    "infiniband.grh.ipver", "infiniband.grh.tclass", "infiniband.grh.flowlabel",
    "infiniband.grh.paylen", "infiniband.grh.nxthdr", "infiniband.grh.hoplmt",
    "infiniband.grh.sgid", "infiniband.grh.dgid",
    "infiniband.bth.opcode", "infiniband.bth.se", "infiniband.bth.m", "infiniband.bth.padcnt",
    "infiniband.bth.tver", "infiniband.bth.p_key", "infiniband.bth.destqp", "infiniband.bth.a",
    "infiniband.bth.psn", "infiniband.reserved",
    "infiniband.rdeth", "infiniband.rdeth.eecnxt",
    "infiniband.deth", "infiniband.deth.q_key", "infiniband.deth.srcqp",
    "infiniband.reth", "infiniband.reth.va", "infiniband.reth.r_key", "infiniband.reth.dmalen",
    "infiniband.atomiceth", "infiniband.atomiceth.swapdt", "infiniband.atomiceth.cmpdt",
    "infiniband.aeth", "infiniband.aeth.syndrome", "infiniband.aeth.syndrome.opcode",
    "infiniband.aeth.syndrome.credit_count", "infiniband.aeth.syndrome.timer",
    "infiniband.aeth.syndrome.error_code", "infiniband.aeth.msn",
    "infiniband.atomicacketh", "infiniband.atomicacketh.origremdt",
    "infiniband.immdt", "infiniband.ieth", "infiniband.vendor",
    "data.len", "infiniband.invariant.crc", "infiniband.variant.crc",
]

EXT_FIELDS = {  # tshark header item -> rocewire JSON key
    "infiniband.rdeth": "rdeth", "infiniband.deth": "deth", "infiniband.reth": "reth",
    "infiniband.atomiceth": "atomiceth", "infiniband.aeth": "aeth",
    "infiniband.atomicacketh": "atomicacketh", "infiniband.immdt": "immdt",
    "infiniband.ieth": "ieth",
}
AGG = ";"  # between occurrences of one field; only the Info column may hold one
SEP = "\t"


def run_tshark(path):
    cmd = ["tshark", "-n", "-r", path, "-T", "fields", "-E", "separator=/t", "-E",
           "aggregator=" + AGG, "-E", "quote=n", "-E", "occurrence=a"] + TSHARK_OPTS
    for f in FIELDS:
        cmd += ["-e", f]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = "\n".join(l for l in r.stderr.decode().splitlines() if "Running as user" not in l)
    if r.returncode != 0:
        raise SystemExit("tshark failed on %s (exit %d): %s" % (path, r.returncode, err.strip()))
    rows = []
    for line in r.stdout.decode().splitlines():
        vals = line.split(SEP)
        if len(vals) != len(FIELDS):
            raise SystemExit("tshark printed %d fields, expected %d: %r" % (len(vals), len(FIELDS), line))
        row = {f: (v.split(AGG) if v != "" else []) for f, v in zip(FIELDS, vals)}
        row["_ws.col.Info"] = [AGG.join(row["_ws.col.Info"])]
        rows.append(row)
    return rows


def run_cap(cap, path):
    r = subprocess.run([cap, "-r", path, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    recs = [json.loads(l) for l in r.stdout.decode().splitlines() if l.strip()]
    return recs, r.returncode, r.stderr.decode()


def num(v):
    """tshark and JSON values to int: decimal, 0x hex, booleans, hex bytes."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    s = str(v).strip()
    if s in ("True", "true"):
        return 1
    if s in ("False", "false"):
        return 0
    if s.lower().startswith("0x"):
        return int(s, 16)
    return int(s, 10)


def hexbytes(v):
    """An FT_BYTES field (ImmDt, IETH) as an integer, big-endian."""
    return int(v.replace(":", ""), 16)


def norm_ip(v):
    return ipaddress.ip_address(v)


def norm_mac(v):
    return v.lower()


class Checker:
    def __init__(self):
        self.problems = []
        self.frames = 0
        self.fields = 0
        self.quirks = {"Q2 opcode unknown to tshark: BTH and below compared": 0,
                       "Q3 RD as DC: BTH and below compared, 8-byte shift confirmed": 0}

    def bad(self, where, msg):
        self.problems.append("%s: %s" % (where, msg))

    def eq(self, where, name, tval, jval, conv=num):
        """Compares one field; tval is tshark's list of occurrences."""
        self.fields += 1
        if jval is None:
            self.bad(where, "%s: tshark %s, rocewire-cap has none" % (name, tval))
            return
        try:
            t = conv(tval[0]) if isinstance(tval, list) else conv(tval)
            j = conv(jval)
        except (ValueError, IndexError) as e:
            self.bad(where, "%s: cannot compare tshark %r with rocewire %r (%s)" % (name, tval, jval, e))
            return
        if t != j:
            self.bad(where, "%s: tshark %s, rocewire-cap %s" % (name, tval[0] if isinstance(tval, list) else tval, jval))

    def present_both(self, where, name, t_has, j_has):
        self.fields += 1
        if t_has != j_has:
            self.bad(where, "%s: tshark %s it, rocewire-cap %s it" % (
                name, "shows" if t_has else "does not show", "shows" if j_has else "does not show"))
        return t_has and j_has

    def check_frame(self, where, t, j, unwrapped=False):
        """unwrapped: tshark read the frame inside an ERF record, rocewire-cap
        the same frame bare (link type 247)."""
        self.frames += 1
        T = lambda f: t[f]
        has = lambda f: len(t[f]) > 0
        self.eq(where, "frame number", T("frame.number"), j.get("frame"))
        protos = T("frame.protocols")[0].split(":")
        if unwrapped:
            if protos[0] != "erf":
                self.bad(where, "the tshark side of a pair is not an ERF capture")
            protos = protos[1:]
            t = dict(t)
            for f in ("erf.rlen", "erf.types.type", "erf.flags", "erf.lctr", "erf.wlen"):
                t[f] = []
            T = lambda f: t[f]
            has = lambda f: len(t[f]) > 0
            self.eq(where, "frame.len", T("frame.len"), j.get("len"))
            self.eq(where, "frame.cap_len", T("frame.cap_len"), j.get("caplen"))
        elif protos[0] == "erf":
            # Wireshark's ERF reader gives the carried frame's lengths (the
            # record's wlen), rocewire-cap the pcap record's (header included).
            self.eq(where, "frame.len (ERF wlen)", T("frame.len"), (j.get("erf") or {}).get("wlen"))
        else:
            self.eq(where, "frame.len", T("frame.len"), j.get("len"))
            self.eq(where, "frame.cap_len", T("frame.cap_len"), j.get("caplen"))

        # carrier, as tshark's protocol stack says
        if "infiniband" in protos and "udp" in protos:
            carrier = "rocev2"
        elif "infiniband" in protos and "ethertype" in protos:
            carrier = "rocev1"  # ethertype 0x8915 after Ethernet or SLL
        elif "infiniband" in protos:
            carrier = "ib"
        elif "macc" in protos and has("macc.opcode"):
            carrier = {0x0101: "pfc", 0x0001: "pause"}.get(num(T("macc.opcode")[0]), "other")
        else:
            carrier = "other"
        self.fields += 1
        if carrier != j.get("carrier"):
            self.bad(where, "carrier: tshark's stack %s means %s, rocewire-cap says %s"
                     % (":".join(protos), carrier, j.get("carrier")))

        # ERF
        if self.present_both(where, "ERF header", has("erf.rlen"), "erf" in j):
            e = j["erf"]
            self.eq(where, "erf.type", T("erf.types.type"), e.get("type"))
            self.eq(where, "erf.flags", T("erf.flags"), e.get("flags"))
            self.eq(where, "erf.rlen", T("erf.rlen"), e.get("rlen"))
            self.eq(where, "erf.lctr", T("erf.lctr"), e.get("lctr"))
            self.eq(where, "erf.wlen", T("erf.wlen"), e.get("wlen"))
        # SLL / SLL2
        if self.present_both(where, "SLL header", has("sll.pkttype"), "sll" in j):
            s = j["sll"]
            self.eq(where, "sll.pkttype", T("sll.pkttype"), s.get("pkttype"))
            self.eq(where, "sll.hatype", T("sll.hatype"), s.get("hatype"))
            proto = T("sll.etype") or T("sll.ltype")
            self.eq(where, "sll protocol", proto, s.get("protocol"))
            if has("sll.src.eth"):
                self.eq(where, "sll.src", T("sll.src.eth"), s.get("addr", "").replace(":", "")[:12],
                        conv=lambda v: v.replace(":", "").lower())
            if has("sll.ifindex"):
                self.eq(where, "sll.ifindex", T("sll.ifindex"), s.get("ifindex"))
        # Ethernet
        if self.present_both(where, "Ethernet header", has("eth.src"), "eth" in j):
            self.eq(where, "eth.src", T("eth.src"), j["eth"].get("src"), conv=norm_mac)
            self.eq(where, "eth.dst", T("eth.dst"), j["eth"].get("dst"), conv=norm_mac)
            self.eq(where, "eth.type", T("eth.type"), j["eth"].get("type"))
        # VLAN tags, outermost first: the 802.1ad S-tag (tshark: ieee8021ad),
        # then 802.1Q tags (tshark: vlan).
        t_tags = []
        for i, vid in enumerate(T("ieee8021ad.svid") or T("ieee8021ad.id")):
            t_tags.append((num(vid), num(T("ieee8021ad.priority")[i]), num(T("ieee8021ad.dei")[i])))
        for i, vid in enumerate(T("vlan.id")):
            t_tags.append((num(vid), num(T("vlan.priority")[i]), num(T("vlan.dei")[i])))
        j_tags = [(v.get("id"), v.get("pcp"), v.get("dei")) for v in j.get("vlan", [])]
        self.fields += 1
        if t_tags != j_tags:
            self.bad(where, "VLAN tags (id, pcp, dei): tshark %s, rocewire-cap %s" % (t_tags, j_tags))
        # MAC control
        if carrier == "pfc":
            p = j.get("pfc") or {}
            self.eq(where, "pfc.cev", T("macc.cbfc.enbv"), p.get("cev"))
            q = p.get("quanta") or []
            for i in range(8):
                self.eq(where, "pfc.quanta[%d]" % i, T("macc.cbfc.pause_time.c%d" % i),
                        q[i] if i < len(q) else None)
        elif carrier == "pause":
            self.eq(where, "pause.quanta", T("macc.pause_time"), (j.get("pause") or {}).get("quanta"))
        # IP
        ip = j.get("ipv4")
        if self.present_both(where, "IPv4 header", has("ip.src"), ip is not None):
            self.eq(where, "ip.src", T("ip.src"), ip.get("src"), conv=norm_ip)
            self.eq(where, "ip.dst", T("ip.dst"), ip.get("dst"), conv=norm_ip)
            self.eq(where, "ip.dscp", T("ip.dsfield.dscp"), ip.get("dscp"))
            self.eq(where, "ip.ecn", T("ip.dsfield.ecn"), ip.get("ecn"))
            self.eq(where, "ip.ttl", T("ip.ttl"), ip.get("ttl"))
            self.eq(where, "ip.id", T("ip.id"), ip.get("id"))
            self.eq(where, "ip.len", T("ip.len"), ip.get("len"))
            self.eq(where, "ip.proto", T("ip.proto"), ip.get("proto"))
            self.eq(where, "ip.df", T("ip.flags.df"), ip.get("df"))
        ip = j.get("ipv6")
        if self.present_both(where, "IPv6 header", has("ipv6.src"), ip is not None):
            self.eq(where, "ipv6.src", T("ipv6.src"), ip.get("src"), conv=norm_ip)
            self.eq(where, "ipv6.dst", T("ipv6.dst"), ip.get("dst"), conv=norm_ip)
            self.eq(where, "ipv6.dscp", T("ipv6.tclass.dscp"), ip.get("dscp"))
            self.eq(where, "ipv6.ecn", T("ipv6.tclass.ecn"), ip.get("ecn"))
            self.eq(where, "ipv6.hop_limit", T("ipv6.hlim"), ip.get("hop_limit"))
            self.eq(where, "ipv6.flow_label", T("ipv6.flow"), ip.get("flow_label"))
            self.eq(where, "ipv6.payload_len", T("ipv6.plen"), ip.get("payload_len"))
            self.eq(where, "ipv6.next_header", T("ipv6.nxt"), ip.get("next_header"))
        # UDP
        if self.present_both(where, "UDP header", has("udp.srcport"), "udp" in j):
            u = j["udp"]
            self.eq(where, "udp.sport", T("udp.srcport"), u.get("sport"))
            self.eq(where, "udp.dport", T("udp.dstport"), u.get("dport"))
            self.eq(where, "udp.len", T("udp.length"), u.get("len"))
            self.eq(where, "udp.checksum", T("udp.checksum"), u.get("checksum"))
        # LRH, GRH
        if self.present_both(where, "LRH", has("infiniband.lrh.vl"), "lrh" in j):
            l = j["lrh"]
            for tf, jf in (("vl", "vl"), ("lver", "lver"), ("sl", "sl"), ("lnh", "lnh"),
                           ("dlid", "dlid"), ("pktlen", "pktlen"), ("slid", "slid")):
                self.eq(where, "lrh." + jf, T("infiniband.lrh." + tf), l.get(jf))
        if self.present_both(where, "GRH", has("infiniband.grh.ipver"), "grh" in j):
            g = j["grh"]
            for tf, jf in (("ipver", "ipver"), ("tclass", "tclass"), ("flowlabel", "flow_label"),
                           ("paylen", "paylen"), ("nxthdr", "nxthdr"), ("hoplmt", "hoplmt")):
                self.eq(where, "grh." + jf, T("infiniband.grh." + tf), g.get(jf))
            self.eq(where, "grh.sgid", T("infiniband.grh.sgid"), g.get("sgid"), conv=norm_ip)
            self.eq(where, "grh.dgid", T("infiniband.grh.dgid"), g.get("dgid"), conv=norm_ip)
        # BTH
        if not self.present_both(where, "BTH", has("infiniband.bth.opcode"), "bth" in j):
            if has("_ws.malformed"):
                self.bad(where, "tshark marks the frame Malformed")
            return
        b = j["bth"]
        for tf, jf in (("opcode", "opcode"), ("se", "se"), ("m", "m"), ("padcnt", "pad"),
                       ("tver", "tver"), ("p_key", "pkey"), ("destqp", "dqpn"), ("a", "ackreq"),
                       ("psn", "psn")):
            self.eq(where, "bth." + jf, T("infiniband.bth." + tf), b.get(jf))
        # BTH byte 4: Wireshark 4.0 names no FECN/BECN field but shows the
        # byte as the first "Reserved" item after the P_Key.
        if has("infiniband.reserved"):
            byte4 = int(T("infiniband.reserved")[0], 16)
            self.eq(where, "bth.fecn", [byte4 >> 7 & 1], b.get("fecn"))
            self.eq(where, "bth.becn", [byte4 >> 6 & 1], b.get("becn"))
        else:
            self.bad(where, "tshark shows no BTH reserved byte (FECN/BECN)")
        opcode = num(T("infiniband.bth.opcode")[0])

        if opcode in Q2_OPCODES and "Unknown OpCode" in T("_ws.col.Info")[0]:
            self.quirks["Q2 opcode unknown to tshark: BTH and below compared"] += 1
            shown = [f for f in EXT_FIELDS if has(f)]
            if shown or has("_ws.malformed"):
                self.bad(where, "Q2 opcode 0x%02x: tshark unexpectedly shows %s" % (
                    opcode, shown or "Malformed"))
            return
        if 0x40 <= opcode < 0x60:
            self.quirks["Q3 RD as DC: BTH and below compared, 8-byte shift confirmed"] += 1
            if "rdeth" in j and "deth" in j and has("infiniband.rdeth.eecnxt"):
                self.eq(where, "Q3 shift: tshark rdeth.eecnxt vs rocewire deth.sqpn",
                        T("infiniband.rdeth.eecnxt"), j["deth"].get("sqpn"))
            return
        if has("_ws.malformed"):
            self.bad(where, "tshark marks the frame Malformed (opcode 0x%02x)" % opcode)

        # Extension headers: the same set, then every field.
        for tf, jk in EXT_FIELDS.items():
            self.present_both(where, jk.upper(), has(tf), jk in j)
        for jk in ("xrceth", "feth"):
            if jk in j:
                self.bad(where, "%s: rocewire-cap shows it, tshark 4.0 has no such header" % jk)
        if has("infiniband.rdeth") and "rdeth" in j:
            self.eq(where, "rdeth.een", T("infiniband.rdeth.eecnxt"), j["rdeth"].get("een"))
        if has("infiniband.deth") and "deth" in j:
            self.eq(where, "deth.qkey", T("infiniband.deth.q_key"), j["deth"].get("qkey"))
            self.eq(where, "deth.sqpn", T("infiniband.deth.srcqp"), j["deth"].get("sqpn"))
        if has("infiniband.reth") and "reth" in j:
            self.eq(where, "reth.va", T("infiniband.reth.va"), j["reth"].get("va"))
            self.eq(where, "reth.rkey", T("infiniband.reth.r_key"), j["reth"].get("rkey"))
            self.eq(where, "reth.len", T("infiniband.reth.dmalen"), j["reth"].get("len"))
        if has("infiniband.atomiceth") and "atomiceth" in j:
            a = j["atomiceth"]
            # Wireshark shows the AtomicETH VA and R_Key with the RETH's fields.
            self.eq(where, "atomiceth.va", T("infiniband.reth.va"), a.get("va"))
            self.eq(where, "atomiceth.rkey", T("infiniband.reth.r_key"), a.get("rkey"))
            self.eq(where, "atomiceth.swap_add", T("infiniband.atomiceth.swapdt"), a.get("swap_add"))
            self.eq(where, "atomiceth.compare", T("infiniband.atomiceth.cmpdt"), a.get("compare"))
        if has("infiniband.aeth") and "aeth" in j:
            a = j["aeth"]
            self.eq(where, "aeth.syndrome", T("infiniband.aeth.syndrome"), a.get("syndrome"))
            self.eq(where, "aeth.msn", T("infiniband.aeth.msn"), a.get("msn"))
            kind = num(T("infiniband.aeth.syndrome.opcode")[0])
            self.fields += 1
            if {0: "ack", 1: "rnr_nak", 2: "reserved", 3: "nak"}[kind] != a.get("kind"):
                self.bad(where, "aeth.kind: tshark opcode %d, rocewire-cap %s" % (kind, a.get("kind")))
            if kind == 0:
                self.eq(where, "aeth.credit_code", T("infiniband.aeth.syndrome.credit_count"), a.get("credit_code"))
            elif kind == 1:
                self.eq(where, "aeth.rnr_code", T("infiniband.aeth.syndrome.timer"), a.get("rnr_code"))
            elif kind == 3:
                self.eq(where, "aeth.nak_code", T("infiniband.aeth.syndrome.error_code"), a.get("nak_code"))
        if has("infiniband.atomicacketh") and "atomicacketh" in j:
            self.eq(where, "atomicacketh.orig", T("infiniband.atomicacketh.origremdt"),
                    j["atomicacketh"].get("orig"))
        # ImmDt and IETH are byte fields, shown twice (header and value).
        if has("infiniband.immdt") and "immdt" in j:
            self.eq(where, "immdt", T("infiniband.immdt"), (j.get("immdt") or {}).get("data"), conv=lambda v: v if isinstance(v, int) else hexbytes(v))
        if has("infiniband.ieth") and "ieth" in j:
            self.eq(where, "ieth", T("infiniband.ieth"), (j.get("ieth") or {}).get("rkey"), conv=lambda v: v if isinstance(v, int) else hexbytes(v))
        # Payload length where tshark shows one: Wireshark's Data item holds
        # the payload and the pad bytes.
        if has("data.len"):
            pl = (j.get("payload") or {}).get("len")
            self.eq(where, "payload.len + bth.pad", T("data.len"),
                    None if pl is None else pl + b.get("pad", 0))
        elif (j.get("payload") or {}).get("len"):
            # tshark shows no Data item for an empty payload only
            self.bad(where, "payload: rocewire-cap has %d bytes, tshark shows none" % j["payload"]["len"])
        # ICRC / VCRC as tshark shows them (wire bytes read big-endian)
        if self.present_both(where, "ICRC", has("infiniband.invariant.crc"),
                             "wire" in (j.get("icrc") or {})):
            self.eq(where, "icrc.wire", T("infiniband.invariant.crc"), j["icrc"].get("wire"))
        if self.present_both(where, "VCRC", has("infiniband.variant.crc"),
                             "wire" in (j.get("vcrc") or {})):
            self.eq(where, "vcrc.wire", T("infiniband.variant.crc"), j["vcrc"].get("wire"))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    cap = sys.argv[1]
    ck = Checker()
    clean_only = False
    for path in sys.argv[2:]:
        if path == "--clean-only":
            clean_only = True
            continue
        # ERF=BARE: tshark reads the ERF file, rocewire-cap the same frames
        # bare (link type 247, which Wireshark 4.0 cannot read).
        tpath, cpath = path.split("=", 1) if "=" in path else (path, path)
        rows = run_tshark(tpath)
        recs, rc, err = run_cap(cap, cpath)
        if len(rows) != len(recs):
            ck.bad(path, "tshark shows %d frames, rocewire-cap --json printed %d (exit %d: %s)"
                   % (len(rows), len(recs), rc, err.strip()[:200]))
        n = skipped = 0
        for t, j in zip(rows, recs):
            if clean_only and ("error" in j or t["_ws.malformed"]):
                # A deliberately broken frame: the two decoders stop at
                # different places by design; the error paths have their own tests.
                skipped += 1
                continue
            ck.check_frame("%s frame %s" % (cpath.rsplit("/", 1)[-1], t["frame.number"][0]), t, j,
                           unwrapped=tpath != cpath)
            n += 1
        print("%s: %d frames compared%s" % (path, n, ", %d broken frames left out (--clean-only)"
                                            % skipped if clean_only else ""))
    for q, n in ck.quirks.items():
        print("quirk %s: %d frames" % (q, n))
    for p in ck.problems[:400]:
        print("MISMATCH " + p)
    if len(ck.problems) > 400:
        print("... and %d more mismatches" % (len(ck.problems) - 400))
    print("%d fields compared in %d frames" % (ck.fields, ck.frames))
    failed = len(ck.problems)
    print("%d passed, %d failed" % (ck.fields - failed if ck.fields > failed else 0, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
