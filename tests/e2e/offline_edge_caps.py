#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the captures of test_cap_offline_edge.sh into the current folder,
and offsets.sh: the byte offsets the expected messages name, as shell
variables.

Frames: the two known-answer frames of Scapy's RoCE test suite (a
ConnectX-4 Lx CNP and a UC SEND_ONLY, quoted in /work/shared/notes/icrc.md),
so nothing here comes from rocewire's own encoder. Layouts: pcap
(pcap-savefile(5)); pcapng (draft-ietf-opsawg-pcapng: 4.1 SHB, 4.2 IDB with
if_tsresol 9 and if_tsoffset 14, 4.3 EPB, 4.4 SPB, 4.5 NRB, 4.6 ISB, 5.2
custom blocks)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from icrc_vectors import CNP, SEND  # noqa: E402 (tests/icrc_vectors.py)


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def block(btype, body):
    body = pad4(body)
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def shb():
    return block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))


def option(code, value):
    return struct.pack("<HH", code, len(value)) + pad4(value)


def idb(tsresol=None, tsoffset=None, linktype=1, snaplen=0):
    opts = b""
    if tsresol is not None:
        opts += option(9, bytes([tsresol]))
    if tsoffset is not None:
        opts += option(14, struct.pack("<q", tsoffset))
    if opts:
        opts += option(0, b"")
    return block(1, struct.pack("<HHI", linktype, 0, snaplen) + opts)


def epb(t, data, wirelen=None):
    wirelen = len(data) if wirelen is None else wirelen
    return block(6, struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(data), wirelen) + data)


def spb(data):
    return block(3, struct.pack("<I", len(data)) + data)


def isb():
    # Interface Statistics Block: interface 0, timestamp 0, no options.
    return block(5, struct.pack("<III", 0, 0, 0))


class pcapng_be_blocks:
    """Blocks of a big-endian section."""
    @staticmethod
    def blk(btype, body):
        body = pad4(body)
        n = 12 + len(body)
        return struct.pack(">II", btype, n) + body + struct.pack(">I", n)

    def shb(self):
        return self.blk(0x0A0D0D0A, struct.pack(">IHHq", 0x1A2B3C4D, 1, 0, -1))

    def idb(self):
        return self.blk(1, struct.pack(">HHI", 1, 0, 0) + struct.pack(">HH", 9, 1) + pad4(b"\x09")
                        + struct.pack(">HH", 0, 0))

    def epb(self, t, data):
        return self.blk(6, struct.pack(">IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(data), len(data)) + data)

    def cb(self, n):
        return self.blk(0x40000BAD, struct.pack(">I", 32473) + bytes(n))


def pcap(records, nsec=False):
    magic = 0xA1B23C4D if nsec else 0xA1B2C3D4
    out = struct.pack("<IHHiIII", magic, 2, 4, 0, 0, 65535, 1)
    for sec, frac, data in records:
        out += struct.pack("<IIII", sec, frac, len(data), len(data)) + data
    return out


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


offsets = {}

# ---- timestamps --------------------------------------------------------------
# 2^64 - 1 ns after 1970: the last instant the engine's clock holds.
write("ts_max.pcapng", shb() + idb(tsresol=9) + epb(2**64 - 1, CNP))
# One second later (if_tsoffset 1): out of range.
head = shb() + idb(tsresol=9, tsoffset=1)
offsets["TS_OVER"] = len(head)
write("ts_over.pcapng", head + epb(2**64 - 1, CNP))
# A huge if_tsoffset (2^63 - 1 s) on a small time.
head = shb() + idb(tsresol=9, tsoffset=2**63 - 1)
offsets["TS_HUGE"] = len(head)
write("ts_huge.pcapng", head + epb(5, CNP))
# A negative one that lands before 1970, after a good packet.
head = shb() + idb(tsresol=6, tsoffset=-1700000000) + epb(1700000000 * 10**6, CNP)
offsets["TS_NEG"] = len(head)
write("ts_neg.pcapng", head + epb(1699999999 * 10**6, SEND))
# Seconds resolution (10^0) with a raw value near 2^64: out of range.
head = shb() + idb(tsresol=0)
offsets["TS_SEC"] = len(head)
write("ts_sec.pcapng", head + epb(2**64 - 2, CNP))
# A binary resolution of 2^-40 from an if_tsoffset of 1700000000 s:
# 1700000000.5 s and 1700000001.75 s exactly (libpcap's own arithmetic
# overflows for resolutions above 2^-34).
write("ts_bin.pcapng", shb() + idb(tsresol=0x80 | 40, tsoffset=1700000000)
      + epb(2**39, CNP) + epb(2**40 + 3 * 2**38, SEND))
# 10^-12: picoseconds, cut to nanoseconds.
write("ts_pico.pcapng", shb() + idb(tsresol=12, tsoffset=1700000000) + epb(123456789987, CNP))
# Classic pcap with a fraction field of a second or more: carried.
write("usec_over.pcap", pcap([(1700000000, 1500000, CNP)]))
write("nsec_over.pcap", pcap([(1700000000, 4294967295, CNP)], nsec=True))

# ---- offsets in a file larger than 8 MiB ----------------------------------------
# 120000 CNPs (108-byte blocks, 12.96 MB); an ISB before packet 100000, which
# is SEND cut by the snapshot length (a decode warning); then an ISB and a
# last EPB cut in the middle.
N = 120000
parts = [shb(), idb(tsresol=9)]
pos = sum(len(p) for p in parts)
t0 = 1700000000 * 10**9
for i in range(1, N + 1):
    if i == 100000:
        b = isb()
        parts.append(b)
        pos += len(b)
        offsets["BIG_WARN"] = pos
        b = epb(t0 + i * 1000, SEND[:48], 78)
    else:
        b = epb(t0 + i * 1000, CNP)
    parts.append(b)
    pos += len(b)
b = isb()
parts.append(b)
pos += len(b)
offsets["BIG_CUT"] = pos
last = epb(t0 + (N + 1) * 1000, CNP)
parts.append(last[:60])
offsets["BIG_CUT_WANT"] = len(last) - 8
offsets["BIG_CUT_GOT"] = 60 - 8
write("big.pcapng", b"".join(parts))

# ---- Simple Packet Blocks, and what the mapped reader leaves to libpcap --------
# A Simple Packet Block (no timestamp: 1970, as libpcap gives it) after two
# EPBs; the last packet, cut by the snapshot length, is warned about at its
# exact offset.
parts = [shb(), idb(tsresol=9), epb(t0, CNP), epb(t0 + 1000, SEND), spb(CNP), isb()]
offsets["SPB_WARN"] = sum(len(p) for p in parts)
parts.append(epb(t0 + 3000, SEND[:48], 78))
write("spb.pcapng", b"".join(parts))

# A packet block longer than the reader's ring (128 KiB): libpcap reads on
# from it, and the offsets of the records after it stay exact. The frame is
# Ethernet of a local experimental type (0x88b5): not RoCE, no warning.
BIGF = CNP[:12] + b"\x88\xb5" + bytes(140000 - 14)
parts = [shb(), idb(tsresol=9), epb(t0, CNP), epb(t0 + 1000, SEND), epb(t0 + 2000, BIGF), isb()]
offsets["BIG_READON_WARN"] = sum(len(p) for p in parts)
parts.append(epb(t0 + 3000, SEND[:48], 78))
write("bigepb.pcapng", b"".join(parts))

# The same block in a file of two link types, which libpcap cannot read:
# one line that says so, at the block's offset.
parts = [shb(), idb(tsresol=9), idb(tsresol=9, linktype=247), epb(t0, CNP)]
offsets["BIG_MIXED"] = sum(len(p) for p in parts)
parts.append(epb(t0 + 2000, BIGF))
write("bigepb_mixed.pcapng", b"".join(parts))

# Other blocks longer than the ring (a 1 MiB custom block, a 240 KB name
# resolution block) are skipped unread, in a file libpcap cannot read (a
# second section in the other byte order): every packet is read.
def cb(n):
    return block(0x00000BAD, struct.pack("<I", 32473) + bytes(n))
def nrb_big(records):
    return block(4, (struct.pack("<HH", 0x7FFE, 60000) + bytes(60000)) * records + struct.pack("<HH", 0, 0))
parts = [shb(), idb(tsresol=9), epb(t0, CNP), cb(1 << 20), epb(t0 + 1000, SEND), nrb_big(4)]
be = pcapng_be_blocks()
parts += [be.shb(), be.idb(), be.epb(t0 + 2000, CNP), be.cb(300000), be.epb(t0 + 3000, SEND)]
write("bigskip.pcapng", b"".join(parts))

# ---- what both readers must agree on -------------------------------------------
# 40 records in each byte order, pcap (microsecond and nanosecond magic) and
# pcapng, for the test to cut at many places and compare rocewire-cap's own
# reader (a file) with libpcap's (the same bytes on standard input).
def pcap_order(records, order, nsec):
    magic = 0xA1B23C4D if nsec else 0xA1B2C3D4
    out = struct.pack(order + "IHHiIII", magic, 2, 4, 0, 0, 65535, 1)
    for sec, frac, data, wirelen in records:
        out += struct.pack(order + "IIII", sec, frac, len(data), wirelen) + data
    return out


def pcapng_be(records):
    def blk(btype, body):
        body = pad4(body)
        n = 12 + len(body)
        return struct.pack(">II", btype, n) + body + struct.pack(">I", n)
    out = blk(0x0A0D0D0A, struct.pack(">IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += blk(1, struct.pack(">HHI", 1, 0, 0) + struct.pack(">HH", 9, 1) + pad4(b"\x09")
               + struct.pack(">HH", 0, 0))
    for t, data, wirelen in records:
        out += blk(6, struct.pack(">IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(data), wirelen) + data)
    return out


recs = []
for i in range(40):
    data = CNP if i % 3 else SEND
    if i == 17:
        data = SEND[:48]  # cut by the snapshot length: a warning with an offset
    recs.append((1700000000 + i, 1000 * i, data, 78 if data is not CNP else 74))
write("agree_le.pcap", pcap_order(recs, "<", False))
write("agree_be.pcap", pcap_order(recs, ">", True))
write("agree_le.pcapng", shb() + idb(tsresol=9)
      + b"".join(epb(t0 + 1000 * i, d, w) for i, (_, _, d, w) in enumerate(recs)))
write("agree_be.pcapng", pcapng_be([(t0 + 1000 * i, d, w) for i, (_, _, d, w) in enumerate(recs)]))

# ---- the reader thread at its limits -----------------------------------------------
# 80,000 statistics blocks (2 MB) between packets: the skipped blocks fill the
# reader's ring; and 40 frames of 100,000 bytes (a segmentation-offload
# super-packet each): a few fill it.
parts = [shb(), idb(tsresol=9)]
for i in range(300):
    parts.append(epb(t0 + i * 1000, CNP if i % 2 else SEND))
parts.append(isb() * 80000)
for i in range(300):
    parts.append(epb(t0 + (1000 + i) * 1000, CNP if i % 3 else SEND))
write("manyblocks.pcapng", b"".join(parts))
# Custom blocks of 200 KB (longer than the ring: skipped unread) every 50
# packets: the reader skips past records still in use.
parts = [shb(), idb(tsresol=9)]
for i in range(2000):
    parts.append(epb(t0 + i * 1000, CNP if i % 3 else SEND))
    if i % 50 == 49:
        parts.append(cb(200000))
write("bigskips.pcapng", b"".join(parts))
big = SEND + b"\0" * (100000 - len(SEND))
write("bigframes.pcap", pcap_order([(1700000000 + i, 0, big if i % 2 else CNP, 100000 if i % 2 else 74)
                                    for i in range(40)], "<", False))

with open("offsets.sh", "w") as f:
    for k, v in sorted(offsets.items()):
        f.write("%s=%d\n" % (k, v))
