#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pcapng as its standard defines it: the cases of the public pcapng test
suite (github.com/hadrielk/pcapng-test-generator: 24 files in each byte
order), written again here from draft-ietf-opsawg-pcapng with RoCE frames in
place of its DHCP ones, and a few more; each read by rocewire-cap and by
tshark, which must agree with each other and with what was written.

Block layouts (draft-ietf-opsawg-pcapng): 3.1 the block, 3.5 options, 4.1
Section Header, 4.2 Interface Description, 4.3 Enhanced Packet, 4.4 Simple
Packet, 4.5 Name Resolution, 4.6 Interface Statistics, 4.7 Systemd Journal
Export, 4.8 Decryption Secrets, 5.2 Custom (0x00000BAD, and 0x40000BAD not
to be copied), Appendix A the obsolete Packet Block (type 2). Nothing here
comes from rocewire's own writer.

Frames: RoCEv2 frames of samples/rocev2-all-opcodes.pcap (Ethernet),
native InfiniBand frames of samples/ib-native.pcap (link type 247) and ERF
records of samples/ib-erf.pcap (link type 197), every ICRC and VCRC right.
Where the suite puts its NULL (BSD loopback) interface, the InfiniBand one
stands, so that every frame decodes and decoding per interface is tested.

For each case, in each byte order, these must hold:
  - tshark reads it whole: the packets written, each on its interface (and
    section), at its time (none for a Simple Packet Block), of its lengths
    and bytes (the custom blocks and journal entries it also lists as frames,
    on no interface, are not packets);
  - rocewire-cap --json reads the same packets, each with its interface,
    its link type, time and lengths, decoded with the ICRC right (and the
    VCRC of native InfiniBand), and exits 0 (1 where the case cuts frames by
    the snapshot length, which it then says);
  - the same with the reader thread (ROCEWIRE_CAP_THREADS=2) as without.
Damaged files: one line naming the file, the packet, the byte offset of
the block and what was expected; the packets before it read.

Usage: pcapng_suite.py ROCEWIRE_CAP SOURCE_DIR [WORKDIR]; exit 0 when every
check passes. It prints one line per case: packets read, of how many."""
import json
import os
import struct
import subprocess
import sys
import tempfile

CAP, SRC = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SRC, "tests"))
import pcaprec  # noqa: E402 (tests/pcaprec.py)

SHB, IDB, PB, SPB, NRB, ISB, EPB, SJE, DSB = 0x0A0D0D0A, 1, 2, 3, 4, 5, 6, 9, 0x0A
CB, DCB = 0x00000BAD, 0x40000BAD
LOCAL_BLOCK = 0x80000F00  # a type of the local-use range (bit 31): unknown to any reader
BOM = 0x1A2B3C4D
PEN1, PEN2 = 32473, 36724  # the example PEN of RFC 5612, and another
ETH, ERF, IB = 1, 197, 247

# The suite's timestamp: UInt64(0x64ca47aa, 0x0004c397) is (low, high), in
# units of the interface's resolution (microseconds unless if_tsresol).
T = 0x0004C397 << 32 | 0x64CA47AA


def frames(name):
    _, lt, recs = pcaprec.split(os.path.join(SRC, "samples", name))
    return lt, [r[16:] for r in recs]


_, ETH_ALL = frames("rocev2-all-opcodes.pcap")
_, IB_ALL = frames("ib-native.pcap")
_, ERF_ALL = frames("ib-erf.pcap")
ETH_96 = [f for f in ETH_ALL if len(f) <= 96]      # fit a snapshot length of 96
ETH_128 = [f for f in ETH_ALL if 96 < len(f) <= 128]
ETH_BIG = [f for f in ETH_ALL if len(f) > 300]     # longer than case 012's snapshot length
IB_96 = [f for f in IB_ALL if len(f) <= 96]


def pick(pool, i):
    return pool[(i * 37) % len(pool)]


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


class Case:
    """Blocks in one byte order, and the packets a reader must find."""

    def __init__(self, order):
        self.e = order          # "<" or ">": of the section being written
        self.parts = []
        self.ifs = []           # the current section's: (linktype, snaplen, tsresol, tsoffset)
        self.section = 0
        self.packets = []       # (section, iface, linktype, time or None, caplen, len, data)
        self.cut = False        # a frame is cut by the snapshot length

    # ---- building blocks -----------------------------------------------------
    def block(self, btype, body):
        body = pad4(body)
        n = 12 + len(body)
        self.parts.append(struct.pack(self.e + "II", btype, n) + body + struct.pack(self.e + "I", n))

    def opt(self, code, value):
        return struct.pack(self.e + "HH", code, len(value)) + pad4(value)

    def opts(self, items):
        if not items:
            return b""
        return b"".join(self.opt(c, v) for c, v in items) + self.opt(0, b"")

    def custom_opts(self):
        """Custom options (3.5.1: 2988/2989 copied, 19372/19373 not), one of
        a code no one has assigned and one of the local-use range."""
        pen = struct.pack(self.e + "I", PEN1)
        return [(2988, pen + b"a fake string"), (2989, pen + b"some fake bytes"),
                (19372, pen + b"my fake string"), (19373, pen + b"my fake bytes"),
                (0x7FFE, b"try this one"), (0x8123, b"and this one")]

    # ---- sections and interfaces -----------------------------------------------
    def shb(self, order=None, opts=(), section_length=-1):
        if order:
            self.e = order
        self.section += 1
        self.ifs = []
        items = [(1, b"section %d" % self.section), (2, b"Apple MBP"), (3, b"OS-X 10.10.5"),
                 (4, b"pcapng_suite.py")] + list(opts)
        self.block(SHB, struct.pack(self.e + "IHHq", BOM, 1, 0, section_length) + self.opts(items))

    def idb(self, linktype, snaplen, name=b"eth0", tsresol=None, tsoffset=None, opts=()):
        items = [(2, name)] + list(opts)
        resol = 10**6
        if tsresol is not None:
            items.append((9, bytes([tsresol])))
            resol = 2 ** (tsresol & 0x7F) if tsresol & 0x80 else 10**tsresol
        if tsoffset is not None:
            items.append((14, struct.pack(self.e + "q", tsoffset)))
        self.block(IDB, struct.pack(self.e + "HHI", linktype, 0, snaplen) + self.opts(items))
        self.ifs.append((linktype, snaplen, resol, tsoffset or 0))
        return len(self.ifs) - 1

    def _expect(self, ifid, t, data, wirelen):
        lt, _, resol, off = self.ifs[ifid]
        when = None
        if t is not None:
            when = "%d.%09d" % (t // resol + off, (t % resol) * 10**9 // resol)
        self.packets.append((self.section, ifid, lt, when, len(data), wirelen, data))
        if len(data) < wirelen:
            self.cut = True

    # ---- packets ---------------------------------------------------------------
    def epb(self, ifid, t, frame, snap=None, opts=()):
        data = frame[:snap] if snap else frame
        self.block(EPB, struct.pack(self.e + "IIIII", ifid, t >> 32, t & 0xFFFFFFFF, len(data), len(frame))
                   + pad4(data) + self.opts(opts))
        self._expect(ifid, t, data, len(frame))

    def spb(self, frame):
        # 4.4: interface 0; the captured length is the original one, or the
        # interface's snapshot length when that is shorter.
        snap = self.ifs[0][1]
        data = frame[:snap] if snap and len(frame) > snap else frame
        self.block(SPB, struct.pack(self.e + "I", len(frame)) + pad4(data))
        self._expect(0, None, data, len(frame))

    def pb(self, ifid, t, frame, drops=0):
        self.block(PB, struct.pack(self.e + "HHIIII", ifid, drops, t >> 32, t & 0xFFFFFFFF,
                                   len(frame), len(frame)) + pad4(frame) + self.opts([(1, b"obsolete")]))
        self._expect(ifid, t, frame, len(frame))

    # ---- blocks a reader skips -------------------------------------------------------
    def isb(self, ifid, t=0, full=False, comment=None):
        items = []
        if full:
            items = [(2, struct.pack(self.e + "II", T >> 32, T & 0xFFFFFFFF)),
                     (3, struct.pack(self.e + "II", T >> 32, (T + 1000) & 0xFFFFFFFF)),
                     (4, struct.pack(self.e + "Q", 100)), (5, struct.pack(self.e + "Q", 1)),
                     (6, struct.pack(self.e + "Q", 9)), (7, struct.pack(self.e + "Q", 42)),
                     (8, struct.pack(self.e + "Q", 6))] + self.custom_opts()
        if comment:
            items.append((1, comment))
        self.block(ISB, struct.pack(self.e + "III", ifid, t >> 32, t & 0xFFFFFFFF) + self.opts(items))

    def nrb(self, records=(), opts=()):
        body = b""
        for rtype, value in records:
            body += struct.pack(self.e + "HH", rtype, len(value)) + pad4(value)
        body += struct.pack(self.e + "HH", 0, 0)  # nrb_record_end: even an empty NRB has it
        self.block(NRB, body + self.opts(list(opts)))

    def nrb_v4(self, addr, *names):
        return (1, bytes(int(x) for x in addr.split(".")) + b"".join(n + b"\0" for n in names))

    def nrb_v6(self, names):
        return (2, bytes.fromhex("fc01dead00000000000000000000beef") + b"".join(n + b"\0" for n in names))

    def nrb_full(self):
        self.nrb([self.nrb_v4("192.168.1.2", b"example.com"), self.nrb_v4("192.168.1.2", b"example.com"),
                  self.nrb_v6([b"example.com"]), self.nrb_v4("10.1.2.3", b"example.org"),
                  (0x7FFE, b"foobar"), (0x8001, b"unknown"), self.nrb_v4("10.1.2.4", b"bar.example.org")],
                 [(1, b"an NRB"), (2, b"dns.example"), (0x7FFE, b""), (0x8123, b"local")])

    def cb(self, pen, text, copy=True, comment=None):
        self.block(CB if copy else DCB, struct.pack(self.e + "I", pen) + pad4(text)
                   + self.opts([(1, comment)] if comment else []))

    def dsb(self):
        # 4.8: TLS key log (0x544c534b)
        keylog = b"CLIENT_RANDOM 00 11\n"
        self.block(DSB, struct.pack(self.e + "II", 0x544C534B, len(keylog)) + pad4(keylog))

    def sje(self):
        self.block(SJE, b"__CURSOR=s=1\nMESSAGE=hello\n")

    def local_block(self):
        self.block(LOCAL_BLOCK, b"a block of the local-use range, with no meaning here")

    def data(self):
        return b"".join(self.parts)


def idb_all_opts(c, name, reverse=False):
    e = c.e
    items = [(1, b"a comment, and more\nfoo\r\nbar"), (3, b"silly ethernet interface"),
             (4, bytes([10, 1, 2, 3, 255, 255, 255, 0])),
             (5, bytes.fromhex("21000db8000000000000000000001a2b") + b"\x40"),
             (6, bytes.fromhex("000102030405")), (7, bytes.fromhex("023456fffe789abc")),
             (8, struct.pack(e + "Q", 10**9)), (10, struct.pack(e + "I", 0)),
             (11, b"\0tcp port 23 and host 192.0.2.5"), (12, b"Windows for Workgroups 3.11b\npatch 42"),
             (13, b"\0"), (15, b"ConnectX-6 Dx"), (16, struct.pack(e + "Q", 10**11)),
             (17, struct.pack(e + "Q", 10**11))] + c.custom_opts()
    if reverse:
        items.reverse()
    return c.idb(ETH, 128 if reverse else 96, name=name, tsresol=9, tsoffset=0, opts=items)


# ---- the cases: (number, name, builder(case)) ------------------------------------------
def c001(c):
    c.shb()
    i = c.idb(ETH, 0)
    for k in range(4):
        c.epb(i, T + 1000 * k, pick(ETH_ALL, k))


def c002(c):
    c.shb()


def c003(c):
    c.shb()
    c.idb(ETH, 96)


def c004(c):
    c.shb()
    a, b = c.idb(ETH, 96, b"eth0"), c.idb(ETH, 128, b"en1")
    c.epb(a, T, pick(ETH_96, 1))
    c.epb(b, T + 1000, pick(ETH_128, 2))
    c.epb(a, T + 2000, pick(ETH_96, 3))
    c.epb(b, T + 3000, pick(ETH_128, 4))


def c005(c):
    c.shb()
    a = c.idb(ETH, 96, b"eth0")
    c.epb(a, T, pick(ETH_96, 1))
    b = c.idb(ETH, 128, b"en1")
    c.epb(b, T + 1000, pick(ETH_128, 2))
    c.epb(a, T + 2000, pick(ETH_96, 3))
    c.epb(b, T + 3000, pick(ETH_128, 4))


def c006(c):
    c.shb()
    a, b = c.idb(ETH, 96, b"eth0"), c.idb(IB, 0, b"ib0")
    c.epb(a, T, pick(ETH_96, 1))
    c.epb(b, T + 1000, pick(IB_ALL, 5))
    c.epb(a, T + 2000, pick(ETH_96, 2))
    c.epb(a, T + 3000, pick(ETH_96, 3))
    c.epb(a, T + 4000, pick(ETH_96, 4))


def c007(c):
    c.shb(opts=c.custom_opts())
    a = c.idb(ETH, 96)
    c.epb(a, T, pick(ETH_96, 1))


def c008(c):
    c.shb()
    a = idb_all_opts(c, b"eth-_0 foo")
    c.epb(a, T, pick(ETH_96, 1))
    b = idb_all_opts(c, b"en1", reverse=True)
    c.epb(b, T + 1000, pick(ETH_128, 2))
    c.epb(a, T + 2000, pick(ETH_96, 3))
    c.epb(b, T + 3000, pick(ETH_128, 4))


def c009(c):
    c.shb()
    a = c.idb(ETH, 0)
    e = c.e
    c.epb(a, T, pick(ETH_ALL, 1), opts=[(1, b"packet 1"), (2, struct.pack(e + "I", 0)),
                                         (4, struct.pack(e + "Q", 0))] + c.custom_opts())
    c.epb(a, T + 1000, pick(ETH_ALL, 2),
          opts=[(0x7FFE, b"try this one"), (1, b"packet 2"), (2, struct.pack(e + "I", 0x48000000)),
                (3, b"\x02" + bytes(4)), (4, struct.pack(e + "Q", 12345)),
                (5, struct.pack(e + "Q", 7)), (6, struct.pack(e + "I", 3)), (7, b"\x00verdict")]
          + c.custom_opts())


def c010(c):
    c.shb()
    c.idb(ETH, 0)
    for k in range(4):
        c.spb(pick(ETH_ALL, k))


def c011(c):
    c.shb()
    a = c.idb(ETH, 0)
    c.spb(pick(ETH_ALL, 1))
    c.epb(a, T, pick(ETH_ALL, 2))
    c.spb(pick(ETH_ALL, 3))
    c.epb(a, T + 2000, pick(ETH_ALL, 4))


def c012(c):
    # A snapshot length longer than some frames and shorter than others:
    # the Simple Packet Blocks' captured length is the shorter (4.4).
    c.shb()
    a = c.idb(ETH, 300)
    c.spb(pick(ETH_BIG, 1))
    c.spb(pick(ETH_96, 2))
    c.epb(a, T, pick(ETH_BIG, 3), snap=300)
    c.epb(a, T + 1000, pick(ETH_128, 4))


def c013(c):
    c.shb()
    a = c.idb(ETH, 96)
    c.isb(a)


def c014(c):
    c.shb()
    a, b = c.idb(ETH, 96), c.idb(IB, 0, b"ib0")
    c.isb(b, T)
    c.isb(a)
    d = c.idb(ETH, 128, b"eth1")
    c.isb(d, T - 1000)


def c015(c):
    c.shb()
    c.idb(ETH, 96, opts=[(1, b"an IDB")])
    c.nrb([c.nrb_v4("192.168.1.2", b"example.com"), c.nrb_v4("192.168.3.4", b"example.net"),
           c.nrb_v4("10.1.2.3", b"example.org")], [(1, b"an NRB")])


def c016(c):
    c.shb()
    a = c.idb(ETH, 0)
    c.nrb([c.nrb_v4("192.168.1.2", b"example.com")], [(1, b"an NRB")])
    c.spb(pick(ETH_ALL, 1))
    c.epb(a, T, pick(ETH_ALL, 2))
    c.nrb([c.nrb_v4("192.168.1.2", b"foo.example.com"), c.nrb_v4("10.1.2.3", b"foo.example.org")])
    c.spb(pick(ETH_ALL, 3))
    c.epb(a, T + 2000, pick(ETH_ALL, 4))
    c.nrb([c.nrb_v4("192.168.1.3", b"bar.example.com", b"baz.example.com")], [(1, b"an NRB")])


def c017(c):
    c.shb()
    a = c.idb(ETH, 0)
    c.nrb_full()
    c.spb(pick(ETH_ALL, 1))
    c.nrb(opts=[(1, b"an empty NRB")])
    c.nrb()
    c.epb(a, T, pick(ETH_ALL, 2))
    c.nrb([c.nrb_v6([b"foo.example.com", b"foo.example.net"])])
    c.spb(pick(ETH_ALL, 3))
    c.epb(a, T + 2000, pick(ETH_ALL, 4))
    c.nrb_full()


def c018(c):
    c.shb()
    a = c.idb(ETH, 0)
    c.cb(PEN1, b"an example Custom Block")
    c.spb(pick(ETH_ALL, 1))
    c.epb(a, T, pick(ETH_ALL, 2))
    c.cb(PEN1, b"an example Custom Block not to be copied", copy=False, comment=b"a DCB")
    c.spb(pick(ETH_ALL, 3))
    c.cb(PEN2, b"my Custom Block", comment=b"a CB")
    c.epb(a, T + 2000, pick(ETH_ALL, 4))
    c.cb(PEN2, b"all your block are belong to us", copy=False)


def c019(c):
    c.shb()
    c.cb(PEN1, b"an example Custom Block")
    c.cb(PEN2, b"not to be copied", copy=False, comment=b"a DCB")


def c100(c):
    for _ in range(3):
        c.shb()
        c.idb(ETH, 96)


def c101(c):
    c.shb()
    a, b = c.idb(ETH, 0), c.idb(IB, 0, b"ib0")
    c.isb(a, T)
    c.isb(a, T)
    c.spb(pick(ETH_ALL, 1))
    c.isb(b, T, full=True)
    c.isb(b, T, full=True)
    c.epb(b, T + 1000, pick(IB_ALL, 2))
    c.isb(a, T + 1000, comment=b"again")
    c.isb(a, T + 1000, comment=b"again")
    c.spb(pick(ETH_ALL, 3))
    c.epb(a, T + 2000, pick(ETH_ALL, 4))
    c.isb(b, T + 3000)
    c.isb(b, T + 3000)


def c102(c):
    c.shb()
    c.cb(PEN1, b"an example Custom Block")
    c.nrb_full()
    a, b = c.idb(ETH, 96, b"eth0"), c.idb(IB, 0, b"ib0")
    c.isb(b, T)
    c.epb(a, T, pick(ETH_96, 1))
    c.isb(a)
    c.isb(b, T - 1000)
    c.cb(PEN1, b"not to be copied", copy=False, comment=b"a DCB")
    d = c.idb(ETH, 0, b"silly!\r\nethernet interface 2")
    c.epb(d, T, pick(ETH_ALL, 2))
    c.isb(d, T + 1000, full=True)
    c.spb(pick(ETH_96, 3))
    c.nrb()
    c.epb(a, T + 2000, pick(ETH_96, 4))
    c.isb(a, full=True)
    c.epb(b, T + 3000, pick(IB_ALL, 5))
    c.cb(PEN2, b"all your block are belong to us", copy=False)
    c.nrb_full()
    c.isb(a)


def c200(c):
    c.shb()
    c.idb(ETH, 96)
    c.shb()
    c.idb(ETH, 0)
    c.shb()
    c.idb(IB, 128, b"ib0")


def c201(c):
    c.shb()
    a, b = c.idb(ETH, 96), c.idb(IB, 0, b"ib0")
    c.epb(a, T, pick(ETH_96, 1))
    c.isb(b, T)
    c.shb(opts=[(0x7FFE, b""), (0x8123, b"local")])
    d = c.idb(ETH, 128, b"silly ethernet interface 2")  # interface 0 of its section
    c.epb(d, T, pick(ETH_128, 2))
    c.isb(d, T + 1000, full=True)
    c.spb(pick(ETH_128, 3))
    c.shb()
    a, b = c.idb(ETH, 96), c.idb(IB, 0, b"ib0")
    c.isb(a, full=True)
    c.epb(b, T + 3000, pick(IB_ALL, 5))
    c.isb(a)


def c202(c):
    first = c.e
    other = ">" if first == "<" else "<"
    c.shb()
    a = c.idb(ETH, 96)
    c.nrb(opts=[(1, b"an empty NRB")])
    b = c.idb(IB, 0, b"ib0")
    c.cb(PEN1, b"an example Custom Block")
    c.nrb_full()
    c.epb(a, T, pick(ETH_96, 1))
    c.isb(b, T)
    c.epb(a, T, pick(ETH_96, 2))
    c.epb(b, T + 3000, pick(IB_ALL, 5))
    # the middle section in the other byte order
    c.shb(order=other, opts=[(0x7FFE, b""), (0x8123, b"local")])
    d = c.idb(ETH, 128, b"silly ethernet interface 2")
    c.spb(pick(ETH_96, 1))
    c.epb(d, T, pick(ETH_128, 2))
    c.cb(PEN1, b"not to be copied", copy=False, comment=b"a DCB")
    c.nrb()
    c.nrb_full()
    c.isb(d, T + 1000, full=True)
    c.spb(pick(ETH_128, 3))
    c.epb(d, T, pick(ETH_128, 4))
    c.shb(order=first)
    c.nrb_full()
    a = c.idb(ETH, 96)
    c.cb(PEN2, b"all your block are belong to us", copy=False)
    b = c.idb(IB, 0, b"ib0")
    c.isb(a)
    c.isb(a, full=True)
    c.epb(b, T + 3000, pick(IB_ALL, 5))


def c300(c):
    # Each interface its own link type and time base: nanoseconds; 2^-20 s
    # from an if_tsoffset of 1.7e9 s; microseconds from a negative offset.
    c.shb()
    a = c.idb(ETH, 0, b"eth2", tsresol=9)
    b = c.idb(IB, 0, b"ib0", tsresol=0x80 | 20, tsoffset=1700000000)
    d = c.idb(ERF, 0, b"erf0", tsoffset=-1000000)
    base = 1700000000
    for k in range(6):
        c.epb(a, (base + k) * 10**9 + 123456789, pick(ETH_ALL, k))
        c.epb(b, k * 2**20 + 3 * 2**18 + k, pick(IB_ALL, k))
        c.epb(d, (base + 1000000 + k) * 10**6 + 654321, pick(ERF_ALL, k))


def c301(c):
    # The obsolete Packet Block (Appendix A): a 16-bit interface and drop count.
    c.shb()
    a, b = c.idb(ETH, 0), c.idb(IB, 0, b"ib0")
    c.pb(a, T, pick(ETH_ALL, 1))
    c.pb(b, T + 1000, pick(IB_ALL, 2), drops=3)
    c.epb(a, T + 2000, pick(ETH_ALL, 3))


def c302(c):
    # A section length given (4.1), and the other block types a reader skips:
    # decryption secrets, a systemd journal entry, a local-use type.
    c.shb(section_length=0)  # fixed below
    start = len(c.parts) - 1
    a = c.idb(ETH, 0)
    c.dsb()
    c.epb(a, T, pick(ETH_ALL, 1))
    c.sje()
    c.local_block()
    c.epb(a, T + 1000, pick(ETH_ALL, 2))
    body_len = sum(len(p) for p in c.parts[start + 1:])
    shb = bytearray(c.parts[start])
    shb[16:24] = struct.pack(c.e + "q", body_len)
    c.parts[start] = bytes(shb)


CASES = [
    ("001", "Basic normal pcapng file", c001),
    ("002", "Empty - only SHB", c002),
    ("003", "Empty - only SHB and IDB", c003),
    ("004", "Two IDBs same linktype, different snaplen", c004),
    ("005", "2 IDBs separated by EPB", c005),
    ("006", "Two IDBs different linktype (Ethernet, InfiniBand 247)", c006),
    ("007", "SHB with all options", c007),
    ("008", "2 IDBs with all options", c008),
    ("009", "EPBs with all options", c009),
    ("010", "SPBs", c010),
    ("011", "Mix of SPBs and EPBs", c011),
    ("012", "SPBs and EPBs with IDB snaplen bigger than some, less than others", c012),
    ("013", "Empty - only SHB, IDB, and ISB", c013),
    ("014", "Empty - only SHB, multiple IDB and ISB", c014),
    ("015", "Empty - only SHB, IDB, and NRB", c015),
    ("016", "Multiple NRB among SPB/EPB", c016),
    ("017", "NRB with IPv4+6, unknown types, duplicate entries, etc.", c017),
    ("018", "Multiple CB/DCB among SPB/EPB", c018),
    ("019", "Empty - only SHB and CB/DCB", c019),
    ("100", "Empty - only SHB and IDB, but repeated so multiple SHB", c100),
    ("101", "Duplicate ISBs, intermixed in EPB/SPB", c101),
    ("102", "All block types, intermixed", c102),
    ("200", "Empty - only SHB and IDB, repeated, different linktypes and snaplens", c200),
    ("201", "ISBs with various options, in different SHB sections", c201),
    ("202", "Multiple SHB sections of different endianness, all other blocks", c202),
    ("300", "Ethernet, InfiniBand 247 and ERF, each its own if_tsresol and if_tsoffset", c300),
    ("301", "Obsolete Packet Blocks (type 2) beside EPBs", c301),
    ("302", "Section length given; DSB, SJE and a local-use block type", c302),
]


# ---- damaged files: (name, blocks, packets before the damage, message parts) ------------
def damaged_cases(order):
    out = []
    # an EPB on an interface its section does not describe
    c = Case(order)
    c.shb()
    a, b = c.idb(ETH, 0), c.idb(IB, 0, b"ib0")
    c.epb(a, T, pick(ETH_ALL, 1))
    c.epb(b, T, pick(IB_ALL, 1))
    off = len(c.data())
    f = pick(ETH_ALL, 2)
    c.block(EPB, struct.pack(c.e + "IIIII", 2, T >> 32, T & 0xFFFFFFFF, len(f), len(f)) + f)
    out.append(("bad_iface", c, off, ["enhanced packet block on interface 2", "describes 2", "expected 0 to 1"]))

    # a Simple Packet Block in a section with no interface yet
    c = Case(order)
    c.shb()
    a = c.idb(ETH, 0)
    c.epb(a, T, pick(ETH_ALL, 1))
    c.shb()
    off = len(c.data())
    c.block(SPB, struct.pack(c.e + "I", 60) + bytes(60))
    out.append(("spb_no_iface", c, off, ["simple packet block on interface 0", "no interface",
                                         "expected an interface description block"]))

    # lengths at a block's start and end that differ
    c = Case(order)
    c.shb()
    a = c.idb(ETH, 0)
    c.epb(a, T, pick(ETH_ALL, 1))
    off = len(c.data())
    c.epb(a, T, pick(ETH_ALL, 2))
    c.packets.pop()
    last = bytearray(c.parts[-1])
    last[-4:] = struct.pack(c.e + "I", len(last) + 4)
    c.parts[-1] = bytes(last)
    out.append(("bad_trailer", c, off, ["at its start", "at its end", "expected the same"]))

    # a second section whose byte-order magic is neither order's
    c = Case(order)
    c.shb()
    a = c.idb(ETH, 0)
    c.epb(a, T, pick(ETH_ALL, 1))
    off = len(c.data())
    c.shb()
    bad = bytearray(c.parts[-1])
    bad[8:12] = b"\x12\x34\x56\x78"
    c.parts[-1] = bytes(bad)
    out.append(("bad_bom", c, off, ["byte-order magic", "expected 0x1a2b3c4d"]))

    # captured length past the block's end
    c = Case(order)
    c.shb()
    a = c.idb(ETH, 0)
    c.epb(a, T, pick(ETH_ALL, 1))
    off = len(c.data())
    f = pick(ETH_ALL, 2)
    c.block(EPB, struct.pack(c.e + "IIIII", a, T >> 32, T & 0xFFFFFFFF, len(f) + 400, len(f) + 400) + f)
    out.append(("caplen_past_end", c, off, ["captured bytes", "expected the data inside the block"]))
    return out


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def tshark_packets(path):
    rc, out, err = run(["tshark", "-r", path, "-T", "json", "-x"])
    if rc != 0:
        return None, "tshark exit %d: %s" % (rc, err.strip().splitlines()[-1:] or "")
    got = []
    for p in json.loads(out or "[]"):
        layers = p["_source"]["layers"]
        fr = layers["frame"]
        # Wireshark 4.0 lists custom blocks and journal entries as frames
        # too, on no interface: they are not packets.
        if "frame.interface_id" not in fr:
            continue
        raw = layers["frame_raw"]
        raw = raw[0] if isinstance(raw, list) else raw
        got.append((int(fr["frame.section_number"]), int(fr["frame.interface_id"]), fr.get("frame.time_epoch"),
                    int(fr["frame.cap_len"]), int(fr["frame.len"]), bytes.fromhex(raw), int(fr["frame.encap_type"])))
    return got, None


def rocewire_packets(path, threads):
    env = dict(os.environ, ROCEWIRE_CAP_THREADS=threads)
    rc, out, err = run([CAP, "--json", "-r", path], env)
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    return rc, rows, err


def tshark_view(lt, caplen, wirelen, data):
    """The lengths and bytes tshark shows of a record: wiretap hands an ERF
    record's 16-byte header (these have no extension headers) over as a
    pseudo-header, not as frame bytes."""
    if lt == ERF:
        return caplen - 16, wirelen - 16, data[16:]
    return caplen, wirelen, data


def check_case(path, c):
    """Problems found (empty: none) and rocewire's packet count."""
    bad = []
    want = c.packets
    # tshark
    got, why = tshark_packets(path)
    if got is None:
        bad.append(why)
    else:
        if len(got) != len(want):
            bad.append("tshark reads %d packets, %d written" % (len(got), len(want)))
        for k, (g, w) in enumerate(zip(got, want)):
            sec, ifid, lt, when, caplen, wirelen, data = w
            if g[:2] != (sec, ifid):
                bad.append("tshark: packet %d on section %d interface %d, expected %d/%d" % (k + 1, g[0], g[1], sec, ifid))
            if g[2] != when:
                bad.append("tshark: packet %d at %s, expected %s" % (k + 1, g[2], when))
            if g[3:6] != tshark_view(lt, caplen, wirelen, data):
                bad.append("tshark: packet %d has %d of %d bytes (or other bytes), expected %d of %d"
                           % (k + 1, g[3], g[4], caplen, wirelen))
            if (g[6] == 1) != (lt == ETH):  # wiretap's encapsulation 1 is Ethernet
                bad.append("tshark: packet %d of encapsulation %d, expected link type %d" % (k + 1, g[6], lt))
    # rocewire-cap, with and without the reader thread
    rc, rows, err = rocewire_packets(path, "1")
    rc2, rows2, err2 = rocewire_packets(path, "2")
    if (rc2, rows2, err2) != (rc, rows, err):
        bad.append("rocewire-cap: the reader thread reads differently")
    want_rc = 1 if c.cut else 0
    if rc != want_rc:
        bad.append("rocewire-cap: exit status %d, expected %d" % (rc, want_rc))
    lines = [l for l in err.splitlines() if not l.startswith("  ")]
    warn = [l for l in lines if not l.startswith("rocewire-cap: ")]
    if len(warn) != sum(1 for w in want if w[4] < w[5]):
        bad.append("rocewire-cap: stderr: " + " | ".join(warn or lines))
    if len(rows) != len(want):
        bad.append("rocewire-cap reads %d packets, %d written" % (len(rows), len(want)))
    for k, (r, w) in enumerate(zip(rows, want)):
        sec, ifid, lt, when, caplen, wirelen, data = w
        have = (r.get("interface"), r.get("linktype"), r.get("time"), r.get("caplen"), r.get("len"))
        expect = (ifid, lt, when or "0.000000000", caplen, wirelen)
        if have != expect:
            bad.append("rocewire-cap: packet %d is %s, expected %s" % (k + 1, have, expect))
        if got is not None and k < len(got):
            g = got[k]
            if (r.get("interface"), r.get("time")) + tshark_view(lt, r.get("caplen"), r.get("len"), b"")[:2] != \
                    (g[1], g[2] or "0.000000000", g[3], g[4]):
                bad.append("rocewire-cap and tshark differ on packet %d" % (k + 1))
        if caplen == wirelen:
            carrier = "rocev2" if lt == ETH else "ib"
            icrc = r.get("icrc", {})
            if r.get("carrier") != carrier or icrc.get("status") != "ok" or "error" in r:
                bad.append("rocewire-cap: packet %d not decoded as %s with its ICRC right: %s"
                           % (k + 1, carrier, json.dumps(r)[:200]))
            elif bytes.fromhex(icrc["wire"][2:]) not in data:
                bad.append("rocewire-cap: packet %d: ICRC %s is not the frame's" % (k + 1, icrc["wire"]))
            if lt == IB and r.get("vcrc", {}).get("status") != "ok":
                bad.append("rocewire-cap: packet %d: VCRC not right" % (k + 1))
    return bad, len(rows), rc


def main():
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="pcapng_suite.")
    os.makedirs(work, exist_ok=True)
    fails = checks = 0
    total_read = total_files = whole = 0
    for order, tag in (("<", "le"), (">", "be")):
        for num, name, fn in CASES:
            c = Case(order)
            fn(c)
            path = os.path.join(work, "test%s_%s.pcapng" % (num, tag))
            with open(path, "wb") as f:
                f.write(c.data())
            bad, n, rc = check_case(path, c)
            checks += 1
            total_files += 1
            total_read += n
            ok = not bad
            whole += n == len(c.packets) and rc == (1 if c.cut else 0)
            print("%s test%s_%s: %d of %d packets, exit %d: %s" % ("ok  " if ok else "FAIL", num, tag, n,
                                                                   len(c.packets), rc, name))
            for b in bad[:40]:
                print("       " + b)
            fails += not ok
        for label, c, off, parts in damaged_cases(order):
            path = os.path.join(work, "damaged_%s_%s.pcapng" % (label, tag))
            with open(path, "wb") as f:
                f.write(c.data())
            checks += 1
            rc, rows, err = rocewire_packets(path, "1")
            lines = [l for l in err.splitlines() if not l.startswith("  ") and not l.startswith("rocewire-cap: ")]
            n = len(c.packets)
            head = "%s: packet %d at byte offset %d: " % (path, n + 1, off)
            bad = []
            if rc != 1:
                bad.append("exit status %d, expected 1" % rc)
            if len(rows) != n:
                bad.append("%d packets read before the damage, expected %d" % (len(rows), n))
            if len(lines) != 1 or not lines[0].startswith(head) or not all(p in lines[0] for p in parts):
                bad.append("stderr: %s; expected one line starting '%s' with %s" % (" | ".join(lines), head, parts))
            print("%s damaged_%s_%s: %d packet(s) before the damage%s" % ("ok  " if not bad else "FAIL", label, tag,
                                                                       len(rows), "" if bad else ", then: " + lines[0][len(head):]))
            for b in bad:
                print("       " + b)
            fails += bool(bad)
    # several files in one run, pcapng and pcap
    checks += 1
    two = [os.path.join(work, "test202_le.pcapng"), os.path.join(SRC, "samples", "rocev2-all-opcodes.pcap")]
    rc, out, err = run([CAP, "-q", "-r", two[0], "-r", two[1]])
    want = "rocewire-cap: %d packets read from 2 files" % (8 + len(ETH_ALL))
    if rc != 0 or want not in err:
        print("FAIL -r a.pcapng -r b.pcap: exit %d, %s" % (rc, err.splitlines()[:1]))
        fails += 1
    else:
        print("ok   -r test202_le.pcapng -r rocev2-all-opcodes.pcap: " + want)
    print("%d of %d checks passed; %d of %d case files read whole" % (checks - fails, checks, whole, total_files))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
