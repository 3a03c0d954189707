#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Cuts classic pcap files (Ethernet) into fuzz_gen_rx seeds: runs of up to
N consecutive frames, each frame a 2-byte big-endian prefix and its bytes,
as fuzz_gen_rx.c reads them (low 14 bits: the length; bit 15: the clock
moves 1 ms before the frame instead of 2 us, set when the capture's gap
before it is 500 us or more; bit 14, the requester only, is left clear).
Of each file the first K runs and its last run are kept.

usage: pcap2records.py [-n N] [-k K] OUTDIR FILE.pcap...
       (default N 48, K 6; standard library only)
"""
import argparse
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import pcaprec  # noqa: E402 (tests/pcaprec.py)


def frames(path):
    """[(time in ns, frame bytes)] of an Ethernet pcap, or []."""
    hdr, linktype, recs = pcaprec.split(path)
    if linktype != 1:
        return []
    e = "<" if hdr[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    nano = hdr[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    out = []
    for r in recs:
        sec, frac = struct.unpack(e + "II", r[:8])
        out.append((sec * 10**9 + (frac if nano else frac * 1000), r[16:16 + 0x3fff]))
    return out


def record(run):
    b = bytearray()
    prev = None
    for t, f in run:
        v = len(f)
        if prev is not None and t - prev >= 500000:
            v |= 0x8000
        prev = t
        b += struct.pack(">H", v) + f
    return bytes(b)


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("-n", type=int, default=48)
    ap.add_argument("-k", type=int, default=6)
    ap.add_argument("outdir")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    n = 0
    for path in a.files:
        fr = frames(path)
        runs = [fr[i:i + a.n] for i in range(0, len(fr), a.n)]
        keep = runs[:a.k] + (runs[-1:] if len(runs) > a.k else [])
        for run in keep:
            seed = record(run)
            with open(os.path.join(a.outdir, hashlib.sha1(seed).hexdigest()), "wb") as f:
                f.write(seed)
            n += 1
    print("pcap2records: %d seeds in %s" % (n, a.outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
