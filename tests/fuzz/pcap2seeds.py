#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Splits classic pcap files into fuzz_packet seeds: one file per record,
the first byte naming the link type as fuzz_packet.c expects (low 3 bits:
0 Ethernet, 1 InfiniBand, 2 ERF, 3 SLL, 4 SLL2; high nibble 0: complete
capture), then the captured bytes.

usage: pcap2seeds.py OUTDIR FILE.pcap...   (standard library only)
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import pcaprec  # noqa: E402 (tests/pcaprec.py)

LT_INDEX = {1: 0, 247: 1, 197: 2, 113: 3, 276: 4}


def records(path):
    _, linktype, recs = pcaprec.split(path)  # pcapng and others: fuzz_pcap takes them whole
    return linktype, [r[16:] for r in recs]


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
