#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the closed loop with a real responder from Wireshark's own
dissection of the capture taken at the responder (test_gen_responder_ops.sh).

    responder_ops_check.py FIELDS.txt RESPONDER.json REQUESTER.json

FIELDS.txt: tshark -T fields, '|'-separated: opcode, destination QP, PSN,
pad count, UDP length, RETH VA, RETH DMA length, AtomicETH swap/add,
AtomicETH compare, AtomicAckETH original data, AETH syndrome.

The expected answers come from the IBA, replayed here by a responder written
from the spec, not from rocewire's code (9.7.4, 9.7.5.1): per QP the
expected PSN is learnt from the first request; a request at it is executed
(a READ of L bytes at PSN p takes ceil(L / 1024) PSNs, at least one, and is
answered by READ_RESPONSE_FIRST/MIDDLE/LAST or ONLY alone, 1024 bytes each
but the last; an atomic is answered by ATOMIC_ACKNOWLEDGE with the value
the 64-bit word held, each word zero at first); a request past it is a hole,
whose first request gets a PSN sequence error NAK naming the expected PSN; a
request behind it is a duplicate: a READ is answered again, an atomic with
the value it had the first time. Then:
  - every answer the capture holds is one the spec asks for, and the other
    way round (READ responses and atomic ACKs counted per PSN, values
    compared; NAKs only at holes);
  - go-back-N recovered every loss: at the end each QP's expected PSN is
    past the last PSN its requester sent, with holes and resends seen on the
    way;
  - the requester completed every message it started, the NAKs and not its
    retransmission timer drove the recovery (its summary counts no
    timeout), and the responder's counts are what the capture holds.
"""
import collections
import json
import sys

MTU = 1024
REQ_QPN = 0x211   # the responder's QPs (requests go to them)
RSP_QPN = 0x111   # the requester's QPs (answers go to them)
QPS = 2
M24 = 0xFFFFFF


def num(s):
    s = s.strip()
    if not s:
        return None
    s = s.split(",")[0]
    return int(s, 16) if s.lower().startswith("0x") else int(s)


def main():
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            c = line.rstrip("\n").split("|")
            c += [""] * (11 - len(c))
            rows.append(dict(op=num(c[0]), qp=num(c[1]), psn=num(c[2]), pad=num(c[3]) or 0,
                             udplen=num(c[4]), va=num(c[5]), dmalen=num(c[6]), swap=num(c[7]),
                             cmp=num(c[8]), orig=num(c[9]), syn=num(c[10])))
    fails = []
    # what the spec's responder owes, per requester QP index
    want_rd = collections.Counter()     # (q, psn) -> READ response packets owed
    want_rd_len = {}                    # (q, psn) -> (opcode, payload bytes)
    want_at = {}                        # (q, psn) -> original value
    want_at_n = collections.Counter()
    nak_ok = set()                      # (q, psn) a NAK may name
    epsn = [None] * QPS
    mem = [dict() for _ in range(QPS)]
    holes = resends = reqs = 0
    seen = [set() for _ in range(QPS)]
    last_end = [None] * QPS
    for r in rows:
        if r["qp"] is None or not (REQ_QPN <= r["qp"] < REQ_QPN + QPS) or r["op"] is None or r["op"] > 0x14:
            continue
        q = r["qp"] - REQ_QPN
        reqs += 1
        psn = r["psn"]
        if psn in seen[q]:
            resends += 1
        seen[q].add(psn)
        read, atomic = r["op"] == 0x0C, r["op"] in (0x13, 0x14)
        n = max(1, -(-r["dmalen"] // MTU)) if read else 1
        end = (psn + n) & M24
        if last_end[q] is None or ((end - last_end[q]) & M24) < 0x800000:
            last_end[q] = end
        if epsn[q] is None:
            epsn[q] = psn
        d = (psn - epsn[q]) & M24
        if d >= 0x800000:
            d -= 0x1000000
        if d > 0:
            holes += 1
            nak_ok.add((q, epsn[q]))
            continue
        if read:
            for k in range(n):
                p = (psn + k) & M24
                want_rd[(q, p)] += 1
                op = 0x10 if n == 1 else 0x0D if k == 0 else 0x0F if k == n - 1 else 0x0E
                want_rd_len[(q, p)] = (op, min(MTU, r["dmalen"] - k * MTU))
        elif atomic:
            if d == 0:
                word = mem[q].get(r["va"], 0)
                if r["op"] == 0x14:
                    mem[q][r["va"]] = (word + r["swap"]) & (2**64 - 1)
                elif word == r["cmp"]:
                    mem[q][r["va"]] = r["swap"]
                want_at[(q, psn)] = word
            want_at_n[(q, psn)] += 1
        if d == 0:
            epsn[q] = end
    got_rd = collections.Counter()
    got_at = collections.Counter()
    naks = 0
    for r in rows:
        if r["qp"] is None or not (RSP_QPN <= r["qp"] < RSP_QPN + QPS):
            continue
        q, p = r["qp"] - RSP_QPN, r["psn"]
        if r["op"] in (0x0D, 0x0E, 0x0F, 0x10):
            got_rd[(q, p)] += 1
            w = want_rd_len.get((q, p))
            aeth = 0 if r["op"] == 0x0E else 4
            pay = r["udplen"] - 8 - 12 - aeth - 4 - r["pad"]
            if w is None:
                fails.append(f"READ response at QP {q} PSN {p}: no READ asked for it")
            elif w != (r["op"], pay):
                fails.append(f"READ response at QP {q} PSN {p}: opcode {r['op']:#04x} with {pay} bytes, "
                             f"want {w[0]:#04x} with {w[1]}")
        elif r["op"] == 0x12:
            got_at[(q, p)] += 1
            if want_at.get((q, p)) != r["orig"]:
                fails.append(f"atomic ACK at QP {q} PSN {p}: original {r['orig']}, the memory held "
                             f"{want_at.get((q, p))}")
        elif r["op"] == 0x11 and r["syn"] is not None and r["syn"] >> 5 == 3:
            naks += 1
            if r["syn"] & 31 != 0 or (q, p) not in nak_ok:
                fails.append(f"NAK (syndrome {r['syn']:#04x}) at QP {q} PSN {p}: not a sequence error at a hole")
    if got_rd != want_rd:
        diff = [(k, want_rd[k], got_rd[k]) for k in set(want_rd) | set(got_rd) if want_rd[k] != got_rd[k]]
        fails.append(f"READ responses owed and sent differ at {len(diff)} PSNs, e.g. {sorted(diff)[:3]} "
                     "((QP, PSN), owed, sent)")
    if got_at != want_at_n:
        diff = [(k, want_at_n[k], got_at[k]) for k in set(want_at_n) | set(got_at) if want_at_n[k] != got_at[k]]
        fails.append(f"atomic ACKs owed and sent differ at {len(diff)} PSNs, e.g. {sorted(diff)[:3]}")
    for q in range(QPS):
        if epsn[q] != last_end[q]:
            fails.append(f"QP {q}: the responder expects PSN {epsn[q]} at the end, the requester went up to "
                         f"{last_end[q]}: a loss was never recovered")
    if holes == 0 or resends == 0 or naks == 0:
        fails.append(f"no loss to recover seen ({holes} requests past a hole, {resends} resent, {naks} NAKs)")
    if sum(want_rd.values()) < 20 or sum(want_at_n.values()) < 20:
        fails.append("too few READs and atomics captured to say anything")
    with open(sys.argv[2]) as f:
        resp = json.load(f)["responder"]
    with open(sys.argv[3]) as f:
        req = json.load(f)
    if resp["read_responses"] != sum(got_rd.values()):
        fails.append(f"responder says {resp['read_responses']} READ response packets, the capture holds "
                     f"{sum(got_rd.values())}")
    if resp["atomic_acks"] != sum(got_at.values()):
        fails.append(f"responder says {resp['atomic_acks']} atomic ACKs, the capture holds {sum(got_at.values())}")
    fl = req["flows"][0]
    if fl.get("timeouts", 0) != 0:
        fails.append(f"the requester timed out {fl['timeouts']} times: the NAKs should have driven every "
                     "recovery (the timeout is 500 ms)")
    started, done = fl.get("messages_started", {}), fl.get("messages", {})
    if started != done:
        fails.append(f"the requester completed {done} of the messages it started ({started})")
    for line in fails[:20]:
        print("FAIL:", line)
    if fails:
        return 1
    print(f"ok: {reqs} requests, {holes} past a hole, {naks} sequence NAKs, {resends} resent; "
          f"{sum(got_rd.values())} READ response packets and {sum(got_at.values())} atomic ACKs as the spec's "
          f"responder owes them; every loss recovered; every message started completed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
