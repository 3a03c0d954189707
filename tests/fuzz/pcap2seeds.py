#!/usr/bin/python3
"""Splits classic pcap files into fuzz_packet seeds: one file per record,
the first byte naming the link type as fuzz_packet.c expects (low 3 bits:
0 Ethernet, 1 InfiniBand, 2 ERF, 3 SLL, 4 SLL2; high nibble 0: complete
capture), then the captured bytes.

usage: pcap2seeds.py OUTDIR FILE.pcap...   (standard library only)
"""
import hashlib
import os
import struct
import sys

LT_INDEX = {1: 0, 247: 1, 197: 2, 113: 3, 276: 4}


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return None, []
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        return None, []  # pcapng and others: fuzz_pcap takes them whole
    linktype = struct.unpack(end + "I", data[20:24])[0] & 0x0fffffff
    out, off = [], 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        off += 16
        out.append(data[off:off + incl])
        off += incl
    return linktype, out


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for path in sys.argv[2:]:
        lt, recs = records(path)
        if lt not in LT_INDEX:
            continue
        for r in recs:
            seed = bytes([LT_INDEX[lt]]) + r
            name = hashlib.sha1(seed).hexdigest()
            with open(os.path.join(outdir, name), "wb") as f:
                f.write(seed)
            n += 1
    print("pcap2seeds: %d seeds in %s" % (n, outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
