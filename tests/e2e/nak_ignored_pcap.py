#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Derives, from a real Soft-RoCE loss capture, the capture of a requester
that ignores a NAK: the first packets are kept as they were up to and
including the Nth PSN-sequence NAK (AETH syndrome 0x60); after it, as rxe's
responder does once it has NAKed a hole (it discards every request until
the NAKed PSN comes, answering nothing), no response is kept, and of the
requests only those that go forward (a PSN above every one sent before),
so the NAKed PSN is never sent again while new requests go on. Times are
kept, so the new requests run as long past the NAK as they did in the
original.

usage: nak_ignored_pcap.py IN.pcap OUT.pcap [N]   (N: which NAK, from 1; default 2)

Classic pcap of Ethernet/IPv4 RoCEv2 only (the samples/softroce captures);
records are copied byte for byte, never re-encoded.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcaprec  # noqa: E402

ROCEV2_PORT = 4791
PSN_MASK = 0xFFFFFF


def bth_of(rec):
    """(opcode, psn, aeth syndrome or None) of a RoCEv2 record, else None."""
    pkt = rec[16:]
    if len(pkt) < 14 + 20 + 8 + 12 or pkt[12:14] != b"\x08\x00":
        return None
    ihl = (pkt[14] & 0x0F) * 4
    if pkt[14 + 9] != 17:
        return None
    udp = 14 + ihl
    if struct.unpack(">H", pkt[udp + 2:udp + 4])[0] != ROCEV2_PORT:
        return None
    bth = udp + 8
    opcode = pkt[bth]
    psn = struct.unpack(">I", pkt[bth + 8:bth + 12])[0] & PSN_MASK
    syn = pkt[bth + 12] if 0x0D <= opcode <= 0x12 and len(pkt) > bth + 12 else None
    return opcode, psn, syn


def psn_after(a, b):
    """a comes after b in the 24-bit PSN space."""
    d = (a - b) & PSN_MASK
    return 0 < d < (1 << 23)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    want = int(sys.argv[3]) if len(sys.argv) == 4 else 2
    head, linktype, recs = pcaprec.split(sys.argv[1])
    if head is None or linktype != 1:
        sys.exit("%s: not a classic pcap of Ethernet frames" % sys.argv[1])
    out, naks, high, cut = [], 0, None, False
    for rec in recs:
        b = bth_of(rec)
        if b is None:
            out.append(rec)
            continue
        opcode, psn, syn = b
        response = 0x0D <= opcode <= 0x12
        if not cut:
            out.append(rec)
            if not response and (high is None or psn_after(psn, high)):
                high = psn
            if opcode == 0x11 and syn == 0x60:
                naks += 1
                cut = naks == want
            continue
        if response:
            continue  # the responder discards and answers nothing
        if psn_after(psn, high):
            high = psn
            out.append(rec)
    if not cut:
        sys.exit("%s: fewer than %d PSN-sequence NAKs" % (sys.argv[1], want))
    with open(sys.argv[2], "wb") as f:
        f.write(head)
        for rec in out:
            f.write(rec)


if __name__ == "__main__":
    main()
