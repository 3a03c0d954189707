#!/usr/bin/env python3
"""Checks the responder role's READ and atomic answers from Wireshark's own
dissection of the capture (test_gen_responder_ops.sh).

    responder_ops_check.py FIELDS.txt RESPONDER.json REQUESTER.json

FIELDS.txt: tshark -T fields, '|'-separated: opcode, destination QP, PSN,
pad count, UDP length, RETH VA, RETH DMA length, AtomicETH swap/add,
AtomicETH compare, AtomicAckETH original data, AETH MSN.

The expected answers come from the IBA, not from rocewire: a READ of L bytes
at PSN p on a path MTU of 1024 is answered by ceil(L / 1024) packets (at
least one) at PSNs p, p+1, ... with opcodes READ_RESPONSE_FIRST (0x0D),
MIDDLE (0x0E), LAST (0x0F), or ONLY (0x10) alone, their payloads adding up
to L (IBA 9.4.3, 9.7.4.1.5); an atomic at PSN p is answered by one
ATOMIC_ACKNOWLEDGE (0x12) at p carrying the 64-bit value the word held
before (IBA 9.4.5): fetch-and-add adds, compare-and-swap swaps when equal,
every word zero at first, replayed here in the order the requests came.
"""
import json
import sys

MTU = 1024
REQ_QPN = 0x211   # the responder's QPs (requests go to them)
RSP_QPN = 0x111   # the requester's QPs (responses go to them)
QPS = 2


def num(s):
    s = s.strip()
    if not s:
        return None
    return int(s, 16) if s.lower().startswith("0x") else int(s)


def main():
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            c = line.rstrip("\n").split("|")
            c += [""] * (11 - len(c))
            rows.append(dict(op=num(c[0]), qp=num(c[1]), psn=num(c[2]), pad=num(c[3]) or 0,
                             udplen=num(c[4]), va=num(c[5].split(",")[0]), dmalen=num(c[6]),
                             swap=num(c[7]), cmp=num(c[8]), orig=num(c[9]), msn=num(c[10])))
    fails = []
    reads = atomics = 0
    # responses by (requester QP, PSN)
    rsp = {}
    for r in rows:
        if r["qp"] is not None and RSP_QPN <= r["qp"] < RSP_QPN + QPS and r["op"] in (0x0D, 0x0E, 0x0F, 0x10, 0x12):
            key = (r["qp"] - RSP_QPN, r["psn"])
            if key in rsp:
                fails.append(f"two responses at QP {key[0]} PSN {key[1]}")
            rsp[key] = r
    mem = [dict() for _ in range(QPS)]
    n_read_rsp = n_atomic_ack = 0
    for r in rows:
        if r["qp"] is None or not (REQ_QPN <= r["qp"] < REQ_QPN + QPS):
            continue
        q = r["qp"] - REQ_QPN
        if r["op"] == 0x0C:  # RDMA READ request
            reads += 1
            length = r["dmalen"]
            n = max(1, -(-length // MTU))
            got = 0
            for k in range(n):
                a = rsp.get((q, (r["psn"] + k) & 0xFFFFFF))
                want = 0x10 if n == 1 else 0x0D if k == 0 else 0x0F if k == n - 1 else 0x0E
                if a is None:
                    fails.append(f"READ at QP {q} PSN {r['psn']}: no response at PSN {r['psn'] + k}")
                    break
                if a["op"] != want:
                    fails.append(f"READ at QP {q} PSN {r['psn']}: response {k} has opcode {a['op']:#04x}, want {want:#04x}")
                aeth = 4 if want != 0x0E else 0
                got += a["udplen"] - 8 - 12 - aeth - 4 - a["pad"]
                n_read_rsp += 1
            if got != length:
                fails.append(f"READ at QP {q} PSN {r['psn']}: {got} bytes answered, {length} asked")
        elif r["op"] in (0x13, 0x14):  # compare-and-swap, fetch-and-add
            atomics += 1
            word = mem[q].get(r["va"], 0)
            if r["op"] == 0x14:
                mem[q][r["va"]] = (word + r["swap"]) & (2**64 - 1)
            elif word == r["cmp"]:
                mem[q][r["va"]] = r["swap"]
            a = rsp.get((q, r["psn"]))
            if a is None or a["op"] != 0x12:
                fails.append(f"atomic at QP {q} PSN {r['psn']}: no atomic ACK")
                continue
            n_atomic_ack += 1
            if a["orig"] != word:
                fails.append(f"atomic at QP {q} PSN {r['psn']} (VA {r['va']:#x}): original {a['orig']:#x}, the memory held {word:#x}")
    with open(sys.argv[2]) as f:
        resp = json.load(f)["responder"]
    with open(sys.argv[3]) as f:
        req = json.load(f)
    if reads < 5 or atomics < 5:
        fails.append(f"too few requests captured to say anything: {reads} READs, {atomics} atomics")
    if resp["read_responses"] != n_read_rsp:
        fails.append(f"responder says {resp['read_responses']} READ response packets, the capture holds {n_read_rsp}")
    if resp["atomic_acks"] != n_atomic_ack:
        fails.append(f"responder says {resp['atomic_acks']} atomic ACKs, the capture holds {n_atomic_ack}")
    for line in fails[:20]:
        print("FAIL:", line)
    if fails:
        return 1
    print(f"ok: {reads} READs answered by {n_read_rsp} response packets, {atomics} atomics by ACKs with "
          f"the original values, the responder's counts as captured ({req.get('packets', '?')} requests sent)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
