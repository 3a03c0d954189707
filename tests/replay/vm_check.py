#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks what vm/replay.sh left: rocewire-replay re-targeted a recorded
requester stream to a live Soft-RoCE fixed-peer server.

rep_write, rep_send (good replays):
  - the server's verdict is "pass": WRITE: its --check found the recorded
    pattern in all 8 slots; SEND: 8 receive completions, data checked;
  - the capture on veth0 holds the replayed requests, every one with the
    server's QPN, PSNs from its expected PSN on, the server's rkey and VAs
    inside its buffer (WRITE), and an ICRC right by the spec (zlib here);
  - rxe answered: ACKs (opcode 0x11) from the server to the peer QPN;
  - rxe0's rcvd_pkts grew by the number of requests.
rep_corrupt (every ICRC flipped): no ACK, rcvd_pkts unchanged, data missing.
Frames are read with Python's struct; nothing of rocewire.
usage: vm_check.py RESULTS_DIR
"""
import json
import os
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_check import spec_icrc  # noqa: E402 (zlib over the spec's masks)

FAILED = []


def fail(msg):
    print("FAIL: " + msg)
    FAILED.append(msg)


def pcap_frames(path):
    d = open(path, "rb").read()
    magic = struct.unpack("<I", d[:4])[0]
    e = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    off, out = 24, []
    while off + 16 <= len(d):
        _, _, incl, _ = struct.unpack(e + "IIII", d[off:off + 16])
        out.append(d[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


def roce(f):
    """(src ip, dst ip, opcode, dqpn, psn, reth (va, rkey) or None, icrc ok)"""
    if struct.unpack("!H", f[12:14])[0] != 0x0800 or f[23] != 17:
        return None
    ihl = (f[14] & 15) * 4
    u = 14 + ihl
    if struct.unpack("!H", f[u + 2:u + 4])[0] != 4791:
        return None
    b = u + 8
    op = f[b]
    dqpn = struct.unpack("!I", b"\0" + f[b + 5:b + 8])[0]
    psn = struct.unpack("!I", b"\0" + f[b + 9:b + 12])[0]
    reth = None
    if op in (0x06, 0x0A, 0x0B, 0x0C):
        reth = struct.unpack("!QI", f[b + 12:b + 24])
    r = spec_icrc(f)
    return (".".join(map(str, f[26:30])), ".".join(map(str, f[30:34])), op, dqpn, psn, reth,
            r is not None and r[1] == r[2])


def counters(path):
    return dict((ln.split()[0], int(ln.split()[1])) for ln in open(path) if len(ln.split()) == 2)


def lines(path):
    out = []
    for ln in open(path):
        ln = ln.strip()
        if ln.startswith("{"):
            out.append(json.loads(ln))
    return out


def check_case(d, name, op, good):
    p = lambda s: os.path.join(d, name + s)  # noqa: E731
    for s in (".ready.json", ".server.out", ".replay.json", ".pcap"):
        if not os.path.exists(p(s)):
            fail("%s%s missing" % (name, s))
            return
    ready = json.load(open(p(".ready.json")))
    outl = lines(p(".server.out"))
    verdict = [x for x in outl if x.get("event") == "verdict"]
    summ = json.load(open(p(".replay.json")))
    frames = [roce(f) for f in pcap_frames(p(".pcap"))]
    frames = [x for x in frames if x]
    reqs = [x for x in frames if x[1] == "192.0.2.1"]
    acks = [x for x in frames if x[1] == "192.0.2.2" and x[2] == 0x11]
    c0, c1 = counters(p(".rxe0.before")), counters(p(".rxe0.after"))
    rcvd = c1.get("rcvd_pkts", 0) - c0.get("rcvd_pkts", 0)
    sent = summ["packets_sent"]
    print("%s: replay sent %d, capture %d requests %d ACKs, rxe0 rcvd_pkts +%d, verdict %s"
          % (name, sent, len(reqs), len(acks), rcvd, verdict[0] if verdict else None))
    if sent == 0 or len(reqs) != sent:
        fail("%s: %d requests captured, the replay sent %d" % (name, len(reqs), sent))
    if any(r[3] != ready["qpn"] for r in reqs):
        fail("%s: a request not to the server's QPN %d" % (name, ready["qpn"]))
    psns = sorted(set(r[4] for r in reqs))
    want = [(ready["expected_psn"] + i) % (1 << 24) for i in range(len(psns))]
    if sorted(psns) != sorted(want):
        fail("%s: PSNs %s..., expected from %d on" % (name, psns[:4], ready["expected_psn"]))
    for r in reqs:
        if r[5] and (r[5][1] != ready["rkey"] or not ready["addr"] <= r[5][0] < ready["addr"] + ready["len"]):
            fail("%s: RETH %s outside the server's rkey %d / buffer" % (name, r[5], ready["rkey"]))
            break
    if good:
        if not all(r[6] for r in reqs):
            fail("%s: a replayed request has a bad ICRC" % name)
        if not verdict or verdict[0].get("result") != "pass" or verdict[0].get("data_check") != "pass":
            fail("%s: the server's verdict is not a pass: %s" % (name, verdict))
        if op == "send" and verdict and verdict[0].get("recv_completed") != 8:
            fail("%s: %s receive completions, expected 8" % (name, verdict[0].get("recv_completed")))
        if not acks or any(a[3] != 4660 for a in acks):
            fail("%s: no ACK from rxe to the peer QPN 4660" % name)
        if rcvd != sent:
            fail("%s: rxe0 rcvd_pkts +%d, the replay sent %d" % (name, rcvd, sent))
    else:
        if any(r[6] for r in reqs):
            fail("%s: a request's ICRC is good although all were corrupted" % name)
        if acks:
            fail("%s: rxe answered %d corrupted requests" % (name, len(acks)))
        if rcvd != 0:
            fail("%s: rxe0 counted %d received packets" % (name, rcvd))
        if verdict and verdict[0].get("result") == "pass":
            fail("%s: the server passed without the data" % name)


def check_retargeted(d, rec, name):
    """The recorded stream was aimed elsewhere: the rewrite did the work."""
    r = [x for x in (roce(f) for f in pcap_frames(os.path.join(d, rec))) if x and x[1] == "192.0.2.1"]
    ready = json.load(open(os.path.join(d, name + ".ready.json")))
    if not r:
        fail("%s: no recorded request" % rec)
    elif r[0][3] == ready["qpn"] and r[0][4] == ready["expected_psn"]:
        fail("%s: recorded with the live server's own QPN and PSN: nothing to re-target" % rec)
    else:
        print("%s: recorded QPN %d PSN %d -> live QPN %d PSN %d" % (rec, r[0][3], r[0][4], ready["qpn"],
                                                                   ready["expected_psn"]))


def main():
    d = sys.argv[1]
    check_retargeted(d, "rec_write.pcap", "rep_write")
    check_retargeted(d, "rec_send.pcap", "rep_send")
    check_case(d, "rep_write", "write", True)
    check_case(d, "rep_send", "send", True)
    check_case(d, "rep_corrupt", "write", False)
    if FAILED:
        return 1
    print("ok: re-targeted WRITEs and SENDs landed in the live server; corrupted ones were dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
