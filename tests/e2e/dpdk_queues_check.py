# SPDX-License-Identifier: BSD-3-Clause
"""Checks the per-queue files of rocewire-cap --rx-queues against the frames
that were sent (classic pcap only; standard library and tests/pcaprec.py).

  dpdk_queues_check.py rr IN OUT0 OUT1 ...
      frame i of IN went to queue i mod N (net_ring fed round-robin): OUTq
      holds exactly those frames, byte for byte, in order.
  dpdk_queues_check.py split IN OUT0 OUT1 ...
      the port spread IN's frames over the queues by its own hash: each OUTq
      is IN's frames in IN's order with some left out, and together the
      OUTs hold every frame of IN once (as a multiset).
  dpdk_queues_check.py ts IN OUT
      OUT has IN's frames and IN's timestamps (to the microsecond).
Prints one line per file; exit 1 on the first mismatch."""
import os
import struct
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcaprec  # noqa: E402


def records(path):
    hdr, lt, recs = pcaprec.split(path)
    if hdr is None:
        sys.exit("FAIL: %s is not a classic pcap file" % path)
    e = "<" if hdr[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    nano = hdr[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    out = []
    for r in recs:
        sec, frac, incl, orig = struct.unpack(e + "IIII", r[:16])
        if len(r) != 16 + incl:
            sys.exit("FAIL: %s: a record is cut short (the file ends inside it)" % path)
        out.append((sec * 10**9 + (frac if nano else frac * 1000), r[16:]))
    return out


def frames(path):
    return [d for _, d in records(path)]


def is_subsequence(sub, seq):
    it = iter(seq)
    return all(any(x == y for y in it) for x in sub)


def main():
    mode, inp, outs = sys.argv[1], sys.argv[2], sys.argv[3:]
    want = frames(inp)
    if mode == "rr":
        n = len(outs)
        for q, o in enumerate(outs):
            got, exp = frames(o), want[q::n]
            if got != exp:
                k = next((i for i, (a, b) in enumerate(zip(got, exp)) if a != b), min(len(got), len(exp)))
                sys.exit("FAIL: %s: %d frames, expected %d (frames %d mod %d of %s); first difference at %d"
                         % (o, len(got), len(exp), q, n, inp, k + 1))
            print("ok: %s: its %d frames are frames %d mod %d of the input, byte for byte" % (o, len(got), q, n))
    elif mode == "split":
        total = Counter()
        for o in outs:
            got = frames(o)
            if not is_subsequence(got, want):
                sys.exit("FAIL: %s: its %d frames are not the input's in the input's order" % (o, len(got)))
            total.update(got)
            print("ok: %s: %d frames, in the input's order" % (o, len(got)))
        if total != Counter(want):
            sys.exit("FAIL: the queues hold %d frames together, the input %d (or other frames)"
                     % (sum(total.values()), len(want)))
        print("ok: together the %d files hold the %d input frames, each once" % (len(outs), len(want)))
    elif mode == "ts":
        a, b = records(inp), records(outs[0])
        if [d for _, d in a] != [d for _, d in b]:
            sys.exit("FAIL: %s: not the frames of %s" % (outs[0], inp))
        bad = [i for i, (x, y) in enumerate(zip(a, b)) if x[0] // 1000 != y[0] // 1000]
        if bad:
            sys.exit("FAIL: %s: timestamp of frame %d is %d ns, the input's %d ns"
                     % (outs[0], bad[0] + 1, b[bad[0]][0], a[bad[0]][0]))
        print("ok: %s: %d frames with the input's timestamps" % (outs[0], len(b)))
    else:
        sys.exit("usage: dpdk_queues_check.py rr|split|ts IN OUT...")


main()
