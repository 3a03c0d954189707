#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Forged and broken RoCEv2 frames at one end of test_gen_hostile.sh's link.

usage: hostile_flood.py IFACE requester|responder SECONDS RATE SEED [GO-FILE]

Sends, out of IFACE (a veth end inside a test namespace: nothing else),
RATE frames a second for SECONDS, drawn from a pool of frames built with
Scapy (its BTH computes the ICRC) for the side named, with
tests/e2e/hostile.yaml's addresses and QPNs:

  responder: requests to QPNs no flow has; WRITEs and SENDs to the flow's
    QPs with PSNs far ahead of or far behind the window; READs of 4 GiB;
    ACKs and CNPs (a responder answers requests only); CM REQs and DREQs
    with garbage bodies;
  requester: ACKs and NAKs to QPNs no flow has; sequence NAKs and ACKs
    for PSNs never sent; READ responses of the wrong length and atomic
    ACKs for no request; CNPs to unknown QPs; PFC frames with quanta
    0xffff on classes 1-7 (the flow's class, 0, is left alone: a PFC
    frame on it would pause the flow as it pauses a NIC), PAUSE frames
    with quanta 0; CM REPs, DREPs, REJs and REQs with garbage bodies;

and on both sides the same frames cut short, with a bad ICRC, and random
bytes after valid Ethernet/IPv4/UDP headers to port 4791. Prints what it
sent, by kind, as one JSON line. With GO-FILE, prints "ready" once its
frames are built and starts when that file exists (up to 60 s)."""
import json
import os
import random
import socket
import struct
import sys
import time

from scapy.all import Ether, IP, UDP, Raw  # noqa: E402
from scapy.contrib.roce import BTH  # noqa: E402

MAC = {"s": "02:00:00:00:01:01", "r": "02:00:00:00:02:01"}
IPS = {"s": "10.9.3.1", "r": "10.9.3.2"}
REQ_QPNS = [0x151, 0x152]
RSP_QPNS = [0x251, 0x252]
SEND_ONLY, WRITE_ONLY, READ_REQ = 0x04, 0x0A, 0x0C
READ_FIRST, READ_MIDDLE, READ_LAST, READ_ONLY = 0x0D, 0x0E, 0x0F, 0x10
ACK, ATOMIC_ACK, CMP_SWAP, FETCH_ADD = 0x11, 0x12, 0x13, 0x14
UD_SEND_ONLY, CNP = 0x64, 0x81
CM_ATTR = {"REQ": 0x0010, "REP": 0x0013, "REJ": 0x0012, "DREQ": 0x0015, "DREP": 0x0016, "RTU": 0x0014}


def far_psn(rng):
    """A PSN far from the flow's (initial_psn 0x1000, a few thousand on):
    ahead (0x400000..0x7fffff) or behind (0x900000..0xbfffff)."""
    return rng.randrange(0x400000, 0x800000) if rng.random() < 0.5 else rng.randrange(0x900000, 0xC00000)


def other_qpn(rng):
    while True:
        q = rng.randrange(2, 1 << 24)
        if q not in REQ_QPNS and q not in RSP_QPNS:
            return q


def roce(rng, frm, to, opcode, dqpn, psn, body=b"", ackreq=0, becn=0):
    pad = (4 - len(body) % 4) % 4
    p = (Ether(src=MAC[frm], dst=MAC[to]) / IP(src=IPS[frm], dst=IPS[to], flags="DF") /
         UDP(sport=rng.randrange(49152, 65536), dport=4791) /
         BTH(opcode=opcode, pkey=0xFFFF, dqpn=dqpn, psn=psn & 0xFFFFFF, ackreq=ackreq, padcount=pad, becn=becn) /
         Raw(body + b"\0" * pad))
    return bytes(p)


def reth(va, rkey, dmalen):
    return struct.pack(">QII", va, rkey, dmalen)


def aeth(syndrome, msn):
    return struct.pack(">I", (syndrome & 0xFF) << 24 | (msn & 0xFFFFFF))


def mad_cm(rng, attr):
    hdr = struct.pack(">BBBBHHQHHI", 1, 0x07, 2, 0x03, 0, 0, rng.getrandbits(64), CM_ATTR[attr], 0, 0)
    return hdr + bytes(rng.getrandbits(8) for _ in range(256 - len(hdr)))


def cm(rng, frm, to, attr):
    deth = struct.pack(">II", 0x80010000, 1)
    return roce(rng, frm, to, UD_SEND_ONLY, 1, rng.getrandbits(24), deth + mad_cm(rng, attr))


def pfc(rng, frm, cev, quanta):
    body = struct.pack(">HH8H", 0x0101, cev, *quanta)
    return bytes(Ether(src=MAC[frm], dst="01:80:c2:00:00:01", type=0x8808) / Raw(body + b"\0" * (46 - len(body))))


def pause(frm):
    body = struct.pack(">HH", 0x0001, 0)
    return bytes(Ether(src=MAC[frm], dst="01:80:c2:00:00:01", type=0x8808) / Raw(body + b"\0" * 42))


def at_responder(rng):
    """(kind, frame) for the responder: it is at r, the forgeries come from s."""
    k = rng.randrange(9)
    if k == 0:
        op = rng.choice([SEND_ONLY, WRITE_ONLY, READ_REQ, FETCH_ADD])
        body = reth(0, 0, 64) + b"x" * 64 if op == WRITE_ONLY else reth(0, 0, 64) if op == READ_REQ else \
            struct.pack(">QIQQ", 0, 0, 1, 0) if op == FETCH_ADD else b"y" * 32
        return "request_wrong_qpn", roce(rng, "s", "r", op, other_qpn(rng), rng.getrandbits(24), body, ackreq=1)
    if k in (1, 2):
        op = rng.choice([SEND_ONLY, WRITE_ONLY])
        body = reth(0, 0, 32) + b"z" * 32 if op == WRITE_ONLY else b"z" * 32
        return "request_psn_far", roce(rng, "s", "r", op, rng.choice(RSP_QPNS), far_psn(rng), body, ackreq=1)
    if k == 3:
        return "read_4gib", roce(rng, "s", "r", READ_REQ, rng.choice(RSP_QPNS), far_psn(rng),
                                 reth(0x1000, 0, 0xFFFFFFFF))
    if k == 4:
        return "ack_to_responder", roce(rng, "s", "r", ACK, rng.choice(RSP_QPNS), far_psn(rng), aeth(0x1F, 0))
    if k == 5:
        return "cnp_to_responder", roce(rng, "s", "r", CNP, rng.choice(RSP_QPNS), 0, b"\0" * 16, becn=1)
    if k == 6:
        return "cm_garbage", cm(rng, "s", "r", rng.choice(["REQ", "DREQ", "RTU"]))
    if k == 7:
        return "read_req_wrong_qpn", roce(rng, "s", "r", READ_REQ, other_qpn(rng), rng.getrandbits(24),
                                          reth(0, 0, rng.choice([0, 1, 4096, 65536])))
    return "atomic_psn_far", roce(rng, "s", "r", rng.choice([CMP_SWAP, FETCH_ADD]), rng.choice(RSP_QPNS),
                                  far_psn(rng), struct.pack(">QIQQ", 8, 0, 1, 2))


def at_requester(rng):
    """(kind, frame) for the requester: it is at s, the forgeries come from r."""
    k = rng.randrange(10)
    if k == 0:
        return "ack_wrong_qpn", roce(rng, "r", "s", ACK, other_qpn(rng), rng.getrandbits(24),
                                    aeth(rng.choice([0x1F, 0x60, 0x20, 0x63]), rng.getrandbits(24)))
    if k == 1:
        return "nak_unsent_psn", roce(rng, "r", "s", ACK, rng.choice(REQ_QPNS), far_psn(rng), aeth(0x60, 0))
    if k == 2:
        return "ack_unsent_psn", roce(rng, "r", "s", ACK, rng.choice(REQ_QPNS), far_psn(rng), aeth(0x1F, 0))
    if k == 3:
        op = rng.choice([READ_FIRST, READ_MIDDLE, READ_LAST, READ_ONLY])
        n = rng.choice([0, 3, 100, 1000, 1500, 4000])
        body = (aeth(0x1F, 0) if op in (READ_FIRST, READ_LAST, READ_ONLY) else b"") + bytes(n)
        return "read_resp_wrong_len", roce(rng, "r", "s", op, rng.choice(REQ_QPNS + [other_qpn(rng)]),
                                           far_psn(rng), body)
    if k == 4:
        return "atomic_ack_unsent", roce(rng, "r", "s", ATOMIC_ACK, rng.choice(REQ_QPNS), far_psn(rng),
                                         aeth(0x1F, 0) + struct.pack(">Q", rng.getrandbits(64)))
    if k == 5:
        return "cnp_unknown_qp", roce(rng, "r", "s", CNP, other_qpn(rng), 0, b"\0" * 16, becn=1)
    if k == 6:
        return "pfc_ffff", pfc(rng, "r", 0xFE, [0] + [0xFFFF] * 7)
    if k == 7:
        return "pause_zero", pause("r")
    if k == 8:
        return "cm_garbage", cm(rng, "r", "s", rng.choice(["REP", "DREP", "REJ", "REQ"]))
    return "nak_wrong_qpn", roce(rng, "r", "s", ACK, other_qpn(rng), far_psn(rng), aeth(0x60, 0))


def damage(rng, kind, f):
    """Some frames cut short, with a bad ICRC, or random after the UDP header."""
    r = rng.random()
    if r < 0.12 and len(f) > 20:
        return "truncated", f[:rng.randrange(14, len(f))]
    if r < 0.24 and kind not in ("pfc_ffff", "pause_zero"):
        return "bad_icrc", f[:-4] + bytes(b ^ 0x5A for b in f[-4:])
    if r < 0.30:
        return "garbage_after_udp", f[:42] + bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 200)))
    return kind, f


def main():
    if len(sys.argv) not in (6, 7) or sys.argv[2] not in ("requester", "responder"):
        print(__doc__)
        return 2
    iface, side, secs, rate, seed = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    rng = random.Random(seed)
    make = at_requester if side == "requester" else at_responder
    pool = [damage(rng, *make(rng)) for _ in range(1500)]
    if len(sys.argv) == 7:
        print("ready", flush=True)
        t = time.monotonic()
        while not os.path.exists(sys.argv[6]):
            if time.monotonic() - t > 60:
                print("no go file", sys.argv[6], file=sys.stderr)
                return 1
            time.sleep(0.01)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    sent, errors = {}, 0
    t0 = time.monotonic()
    i = 0
    while True:
        now = time.monotonic() - t0
        if now >= secs:
            break
        due = int(now * rate)
        while i < due:
            kind, f = pool[rng.randrange(len(pool))]
            try:
                s.send(f)
                sent[kind] = sent.get(kind, 0) + 1
            except OSError:
                errors += 1
            i += 1
        time.sleep(0.002)
    print(json.dumps({"side": side, "sent": sum(sent.values()), "errors": errors, "by_kind": sent}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
