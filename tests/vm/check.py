#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check one Soft-RoCE VM scenario: its capture against its verbs records.

    check.py --cap ROCEWIRE-CAP DIR NAME [--loss] [--ce] [--error STATUS --nak SYN]
    check.py --cap ROCEWIRE-CAP DIR NAME --pingpong ITERS SIZE

DIR is the results directory of rxe-vm.sh; NAME.pcap is the capture and
NAME.{client,server}.json the records of rocewire-verbs. Every check uses
knowledge independent of proto/: the frames are re-read from the pcap here
(IPv4 TOS byte, UDP port) and the opcodes are classified with the IBTA table
below (IBA 9.2, Table 38), which must agree with the decoder's names.

Always: every RoCE v2 packet decodes without error and its ICRC verifies,
  both in rocewire-cap and recomputed here with zlib; rocewire-cap sees the
  same frames, ECN bits and ports as the raw pcap.
Default (a clean run): both records pass; per QP, the messages (first/only
  opcodes) and bytes (payload lengths) in the capture equal the record's
  completions, on the client and, for receive-consuming operations, on the
  server; the distinct PSNs (and, without retransmissions, the packets)
  equal the client's expected_wire; every message reassembled from the capture
  is rocewire-verbs' data pattern (gen/verbs/pattern.h, recomputed here) byte
  for byte, and atomics carry its operands and return its values.
--loss: PSN-sequence-error NAKs (AETH 0x60) and retransmissions are present;
  counted without duplicates, messages and bytes still equal the records,
  and the data check passed.
--ce: every RoCE packet is ECN-capable, some are CE (ip.ecn 3), and the CE
  count equals netem's marks (its "dropped" counter in NAME.qdisc.txt).
--error STATUS --nak SYN: the client record has a completion with STATUS
  (ibv_wc_status_str) and the capture an AETH syndrome SYN ("0x62", or
  "rnr" for any RNR NAK).
--pingpong ITERS SIZE: ibv_rc_pingpong traffic (no records): 2*ITERS SEND
  messages of SIZE bytes.

Exit 0 when all checks pass, 1 otherwise (one line per failed check), 77
when the VM run was skipped (DIR/SKIPPED holds the reason).
"""
import argparse
import collections
import json
import os
import struct
import subprocess
import sys
import zlib

# IBA Table 38: the low five bits of the opcode, per transport (the high
# three: 0 RC, 1 UC, 2 RD, 3 UD, 4 CNP, 5 XRC).
OPS = {
    0x00: ("SEND", "first"), 0x01: ("SEND", "middle"), 0x02: ("SEND", "last"),
    0x03: ("SEND", "last"), 0x04: ("SEND", "only"), 0x05: ("SEND", "only"),
    0x06: ("WRITE", "first"), 0x07: ("WRITE", "middle"), 0x08: ("WRITE", "last"),
    0x09: ("WRITE", "last"), 0x0A: ("WRITE", "only"), 0x0B: ("WRITE", "only"),
    0x0C: ("READ_REQ", "only"), 0x0D: ("READ_RESP", "first"),
    0x0E: ("READ_RESP", "middle"), 0x0F: ("READ_RESP", "last"),
    0x10: ("READ_RESP", "only"), 0x11: ("ACK", None), 0x12: ("ATOMIC_ACK", None),
    0x13: ("CAS", "only"), 0x14: ("FADD", "only"),
    0x16: ("SEND", "last"), 0x17: ("SEND", "only"),
}
TRANSPORTS = {0: "RC", 1: "UC", 2: "RD", 3: "UD", 5: "XRC"}
# rdma-core's <infiniband/opcode.h> spelling of the same opcodes, to check the
# decoder's names against.
NAMES = {
    0x00: "SEND_FIRST", 0x01: "SEND_MIDDLE", 0x02: "SEND_LAST",
    0x03: "SEND_LAST_WITH_IMMEDIATE", 0x04: "SEND_ONLY", 0x05: "SEND_ONLY_WITH_IMMEDIATE",
    0x06: "RDMA_WRITE_FIRST", 0x07: "RDMA_WRITE_MIDDLE", 0x08: "RDMA_WRITE_LAST",
    0x09: "RDMA_WRITE_LAST_WITH_IMMEDIATE", 0x0A: "RDMA_WRITE_ONLY",
    0x0B: "RDMA_WRITE_ONLY_WITH_IMMEDIATE", 0x0C: "RDMA_READ_REQUEST",
    0x0D: "RDMA_READ_RESPONSE_FIRST", 0x0E: "RDMA_READ_RESPONSE_MIDDLE",
    0x0F: "RDMA_READ_RESPONSE_LAST", 0x10: "RDMA_READ_RESPONSE_ONLY",
    0x11: "ACKNOWLEDGE", 0x12: "ATOMIC_ACKNOWLEDGE", 0x13: "COMPARE_SWAP",
    0x14: "FETCH_ADD",
}
# The record's operation -> the request kinds that carry it.
REQ_KIND = {"SEND": "SEND", "SEND_IMM": "SEND", "WRITE": "WRITE", "WRITE_IMM": "WRITE",
            "READ": "READ_REQ", "CAS": "CAS", "FADD": "FADD"}
RECV_OPS = {"SEND", "SEND_IMM", "WRITE_IMM"}
ROCEV2_PORT = 4791

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def note(msg):
    print("  " + msg)


def icrc_ok(pkt, ihl):
    """IBA A17.3.3 for RoCE v2 over IPv4, with zlib's CRC-32 (shared/notes/
    icrc.md): 8 bytes of ones for the LRH, the IPv4 header with TOS, TTL and
    checksum set to ones, the UDP header with its checksum set to ones, the
    BTH with byte 4 set to ones, the rest up to the ICRC, stored LSB first."""
    end = 14 + struct.unpack(">H", pkt[16:18])[0]
    if end > len(pkt) or end < 14 + ihl + 8 + 12 + 4:
        return None
    ip = bytearray(pkt[14:14 + ihl])
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b"\xff\xff"
    udp = bytearray(pkt[14 + ihl:14 + ihl + 8])
    udp[6:8] = b"\xff\xff"
    rest = bytearray(pkt[14 + ihl + 8:end - 4])
    rest[4] = 0xFF
    crc = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(rest)) & 0xFFFFFFFF
    return crc == struct.unpack("<I", pkt[end - 4:end])[0]


def payload_bytes(raw, j):
    """The payload of a RoCE v2 frame: it ends before the pad and the ICRC,
    where the IPv4 total length says the packet ends."""
    if "payload" not in j:
        return b""
    end = 14 + struct.unpack(">H", raw[16:18])[0] - 4 - j["bth"]["pad"]
    return raw[end - j["payload"]["len"]:end]


M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64_mix(z):
    """The output function of Vigna's SplitMix64 (splitmix64.c)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def pattern_word0(qp, it):
    return (0x5257 << 48) | ((qp & 0xFFFF) << 32) | (it & 0xFFFFFFFF)


def pattern_word(qp, it, w):
    w0 = pattern_word0(qp, it)
    return w0 if w == 0 else splitmix64_mix((w0 + w * GOLDEN) & M64)


def pattern(qp, it, n):
    """rocewire-verbs' data pattern (gen/verbs/pattern.h): 64-bit words,
    big-endian; word 0 is "RW", the QP index and the iteration."""
    return b"".join(struct.pack(">Q", pattern_word(qp, it, w)) for w in range((n + 7) // 8))[:n]


def atomic_value(qp, it):
    """A(qp, it) of pattern.h: A(qp, 0) = word0(qp, 0), A(qp, i + 1) =
    A(qp, i) + word1(qp, i)."""
    a = pattern_word0(qp, 0)
    for i in range(it):
        a = (a + pattern_word(qp, i, 1)) & M64
    return a


def read_pcap(path):
    """Frames of a classic pcap file: (ecn or None, udp dport or None, ICRC
    verdict for RoCE v2 or None)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError("%s: %d bytes, shorter than a pcap header" % (path, len(data)))
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise ValueError("%s: not a classic pcap file (magic %s)" % (path, magic.hex()))
    linktype = struct.unpack(e + "I", data[20:24])[0] & 0xFFFF
    if linktype != 1:
        raise ValueError("%s: link type %d, expected 1 (Ethernet)" % (path, linktype))
    frames, off = [], 24
    while off + 16 <= len(data):
        incl = struct.unpack(e + "I", data[off + 8:off + 12])[0]
        pkt = data[off + 16:off + 16 + incl]
        off += 16 + incl
        ecn = dport = icrc = None
        if len(pkt) >= 34 and pkt[12:14] == b"\x08\x00" and pkt[14] >> 4 == 4:
            ihl = (pkt[14] & 0xF) * 4
            ecn = pkt[15] & 3
            if pkt[23] == 17 and len(pkt) >= 14 + ihl + 4:
                dport = struct.unpack(">H", pkt[14 + ihl + 2:14 + ihl + 4])[0]
                if dport == ROCEV2_PORT:
                    icrc = icrc_ok(pkt, ihl)
        frames.append((ecn, dport, icrc, pkt))
    if off != len(data):
        raise ValueError("%s: %d bytes left after the last whole record" % (path, len(data) - off))
    return frames


def decode(cap, path):
    p = subprocess.run([cap, "-r", path, "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    # Exit status 1 means a bad CRC or a packet not decoded to its end: the
    # per-packet checks say which. Anything else is the tool failing.
    if p.returncode not in (0, 1):
        raise ValueError("%s -r %s --json exited %d: %s" % (cap, path, p.returncode,
                                                            p.stderr.strip()))
    if p.returncode == 1:
        fail("%s: rocewire-cap exited 1 (a bad CRC or a packet not decoded to its end)" % path)
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def check_packets(name, frames, pkts):
    """Frame-level checks; returns the RoCE v2 packets as (json, class)."""
    if len(frames) != len(pkts):
        fail("%s: the pcap holds %d frames, rocewire-cap printed %d" % (name, len(frames), len(pkts)))
    roce = []
    for (ecn, dport, icrc_here, raw), j in zip(frames, pkts):
        n = j.get("frame")
        if ecn is not None and (j.get("ipv4") or j.get("ipv6") or {}).get("ecn") != ecn:
            fail("%s: frame %s: ECN %s in the IPv4 header, decoded as %s" % (name, n, ecn, (j.get("ipv4") or j.get("ipv6") or {}).get("ecn")))
        if dport != ROCEV2_PORT:
            continue
        if j.get("carrier") != "rocev2":
            fail("%s: frame %s: UDP port 4791 but carrier %s" % (name, n, j.get("carrier")))
            continue
        if "error" in j:
            fail("%s: frame %s: decode error: %s" % (name, n, j["error"]))
        if icrc_here is not True:
            fail("%s: frame %s: the ICRC computed here with zlib does not match the wire" % (name, n))
        icrc = j.get("icrc", {}).get("status")
        if icrc != "ok":
            fail("%s: frame %s: ICRC %s (wire %s, computed %s)" % (name, n, icrc, j.get("icrc", {}).get("wire"), j.get("icrc", {}).get("computed")))
        bth = j.get("bth")
        if bth is None:
            fail("%s: frame %s: no BTH decoded" % (name, n))
            continue
        op = bth["opcode"]
        tr = TRANSPORTS.get(op >> 5)
        kind = OPS.get(op & 0x1F)
        if tr is None or kind is None:
            fail("%s: frame %s: opcode 0x%02x is not one Soft-RoCE sends here" % (name, n, op))
            continue
        want = "%s_%s" % (tr, NAMES.get(op & 0x1F, "?"))
        if bth.get("name") != want:
            fail("%s: frame %s: opcode 0x%02x decoded as %s, IBTA name %s" % (name, n, op, bth.get("name"), want))
        plen = j.get("payload", {}).get("len", 0)
        j["_payload"] = payload_bytes(raw, j)
        roce.append((j, tr, kind[0], kind[1], plen))
    if not roce:
        fail("%s: no RoCE v2 packet in the capture" % name)
    return roce


def count_requests(roce, dqpn, kinds):
    """Messages, bytes, packets and duplicate PSNs of the requests sent to
    dqpn. A PSN seen again is a retransmission and is counted once."""
    seen, msgs, nbytes, pkts, dups = set(), 0, 0, 0, 0
    for j, tr, k, pos, plen in roce:
        if j["bth"]["dqpn"] != dqpn or k not in kinds:
            continue
        pkts += 1
        psn = j["bth"]["psn"]
        if psn in seen:
            dups += 1
            continue
        seen.add(psn)
        if pos in ("first", "only"):
            msgs += 1
        nbytes += plen
    return msgs, nbytes, pkts, dups


def count_read_responses(roce, dqpn):
    """Bytes, packets and distinct PSNs of the READ responses sent to dqpn."""
    seen, nbytes, pkts = set(), 0, 0
    for j, tr, k, pos, plen in roce:
        if j["bth"]["dqpn"] != dqpn or k != "READ_RESP":
            continue
        pkts += 1
        if j["bth"]["psn"] not in seen:
            seen.add(j["bth"]["psn"])
            nbytes += plen
    return nbytes, pkts, len(seen)


def aeths(roce):
    return [j["aeth"] for j, *_ in roce if "aeth" in j]


def load(path):
    with open(path) as f:
        return json.load(f)


def check_verbs(args, roce):
    name = args.name
    cli = load(os.path.join(args.dir, name + ".client.json"))
    srv = load(os.path.join(args.dir, name + ".server.json"))
    op = cli["run"]["op"]
    transport = cli["run"]["transport"]
    note("%s: %s %s, %d QP(s), %d packets of RoCE v2" % (name, transport, op, len(cli["qp"]), len(roce)))
    for j, tr, *_ in roce:
        if tr != transport:
            fail("%s: frame %s: %s opcode in a %s run" % (name, j["frame"], tr, transport))
            break

    if args.error:
        return check_error(args, cli, roce)

    for side, rec in (("client", cli), ("server", srv)):
        if rec.get("result") != "pass":
            fail("%s: %s record: result %s (%s)" % (name, side, rec.get("result"), rec.get("error")))
    if "fail" in (cli["data_check"]["result"], srv["data_check"]["result"]):
        fail("%s: data check failed: client %s, server %s" % (name, cli["data_check"]["result"], srv["data_check"]["result"]))
    if args.loss and "pass" not in (cli["data_check"]["result"], srv["data_check"]["result"]):
        fail("%s: no side's data check passed (client %s, server %s)" % (name, cli["data_check"]["result"], srv["data_check"]["result"]))

    srv_qps = {q["local_qpn"]: q for q in srv["qp"]}
    total_dups = 0
    for q in cli["qp"]:
        rq = q["remote_qpn"]
        rec = q["ops"][op]
        msgs, nbytes, pkts, dups = count_requests(roce, rq, {REQ_KIND[op]})
        total_dups += dups
        psns = pkts - dups
        if op == "READ":
            nbytes, rpkts, psns = count_read_responses(roce, q["local_qpn"])
        elif op in ("CAS", "FADD"):
            # An atomic moves the 8-byte original value back (IBA 9.4.5):
            # the AtomicAckETH, which is not payload.
            nbytes = 8 * msgs
        what = "QP %d (QPN 0x%06x -> 0x%06x)" % (q["index"], q["local_qpn"], rq)
        note("%s: capture %d messages, %d bytes, %d request packets (%d retransmitted); "
             "record %d completed, %d bytes" % (what, msgs, nbytes, pkts, dups, rec["completed"], rec["completed_bytes"]))
        if msgs != rec["completed"]:
            fail("%s: %s: %d messages in the capture, the client record completed %d" % (name, what, msgs, rec["completed"]))
        if nbytes != rec["completed_bytes"]:
            fail("%s: %s: %d bytes in the capture, the client record completed %d" % (name, what, nbytes, rec["completed_bytes"]))
        if msgs != cli["run"]["iterations"]:
            fail("%s: %s: %d messages in the capture, the run asked for %d" % (name, what, msgs, cli["run"]["iterations"]))
        # The PSNs the requester used (READ: those of the responses) are the
        # client's prediction. Packet counts are only without retransmissions:
        # rxe sometimes resends a READ request with no loss at all (its
        # completer racing the requester under TCG), and loss runs resend.
        ew = q.get("expected_wire")
        if ew and psns != ew["psns"]:
            fail("%s: %s: %d distinct PSNs, the client predicted %d" % (name, what, psns, ew["psns"]))
        if ew and dups == 0 and pkts != ew["request_packets"]:
            fail("%s: %s: %d request packets, the client predicted %d" % (name, what, pkts, ew["request_packets"]))
        if ew and op == "READ" and dups == 0 and rpkts != ew["response_packets"]:
            fail("%s: %s: %d READ response packets, the client predicted %d" % (name, what, rpkts, ew["response_packets"]))
        if dups and not args.loss:
            note("%s: %d request packets resent in a run without loss" % (what, dups))
        if op in RECV_OPS:
            s = srv_qps.get(rq)
            if s is None:
                fail("%s: %s: no QPN 0x%06x in the server record" % (name, what, rq))
                continue
            r = s.get("recv", {})
            note("%s: server received %d messages, %d bytes" % (what, r.get("completed", 0), r.get("bytes", 0)))
            if r.get("completed") != msgs:
                fail("%s: %s: %d messages in the capture, the server record received %d" % (name, what, msgs, r.get("completed")))
            if r.get("bytes") != nbytes:
                fail("%s: %s: %d bytes in the capture, the server record received %d" % (name, what, nbytes, r.get("bytes")))

    check_data(args, cli, roce)
    if args.loss:
        naks = [a for a in aeths(roce) if a["syndrome"] == 0x60]
        note("%s: %d NAK PSN sequence errors, %d retransmitted request packets" % (name, len(naks), total_dups))
        if not naks:
            fail("%s: no NAK PSN sequence error (AETH syndrome 0x60) under loss" % name)
        for a in naks:
            if a.get("kind") != "nak" or a.get("nak") != "PSN sequence error":
                fail("%s: AETH 0x60 decoded as %s/%s" % (name, a.get("kind"), a.get("nak")))
                break
        if total_dups == 0:
            fail("%s: no retransmission under loss" % name)
    if args.ce:
        check_ce(args, cli, roce)
    if args.loss or args.ce:
        check_netem_sent(args, cli, roce)


def check_ce(args, cli, roce):
    name = args.name
    tc = cli["run"].get("traffic_class")
    if tc is None or tc & 3 != 2:
        fail("%s: the run's traffic class is %s, not ECT(0)" % (name, tc))
    ecns = collections.Counter(j["ipv4"]["ecn"] for j, *_ in roce)
    note("%s: ECN of the RoCE packets: %s" % (name, dict(sorted(ecns.items()))))
    if set(ecns) - {2, 3}:
        fail("%s: RoCE packets that are not ECT(0) or CE: %s" % (name, dict(ecns)))
    ce = ecns.get(3, 0)
    if ce == 0:
        fail("%s: no CE-marked packet (ip.ecn 3)" % name)
    sent, marked = netem_stats(args)
    note("%s: %d CE packets in the capture, netem marked %s" % (name, ce, marked))
    if marked is not None and marked != ce:
        fail("%s: %d CE packets in the capture, netem counted %d marks" % (name, ce, marked))
    if any(j["bth"]["opcode"] == 0x81 for j, *_ in roce):
        note("%s: CNPs present" % name)


def check_data(args, cli, roce):
    """Reassemble every message of the capture (each PSN once, in PSN
    order) and compare it with the pattern the verbs endpoints use; for
    atomics, the operands and the original values returned."""
    name, op, size = args.name, cli["run"]["op"], cli["run"]["size"]
    iters = cli["run"]["iterations"]
    for q in cli["qp"]:
        what = "QP %d" % q["index"]
        if op in ("CAS", "FADD"):
            reqs, acks, seen = {}, {}, set()
            for j, tr, k, pos, plen in roce:
                psn = j["bth"]["psn"]
                if j["bth"]["dqpn"] == q["remote_qpn"] and k == op and psn not in seen:
                    seen.add(psn)
                    reqs[psn] = j["atomiceth"]
                elif j["bth"]["dqpn"] == q["local_qpn"] and k == "ATOMIC_ACK":
                    acks[psn] = int(j["atomicacketh"]["orig"], 16)
            for i, psn in enumerate(sorted(reqs, key=lambda p: (p - q["local_psn"]) % (1 << 24))):
                a, e = atomic_value(q["index"], i), reqs[psn]
                if op == "FADD":
                    want = {"swap_add": pattern_word(q["index"], i, 1)}
                else:
                    want = {"compare": a, "swap_add": (a + pattern_word(q["index"], i, 1)) & M64}
                for key, v in want.items():
                    if int(e[key], 16) != v:
                        fail("%s: %s: atomic %d: %s %s, the pattern says 0x%x" % (name, what, i, key, e[key], v))
                if acks.get(psn) != a:
                    fail("%s: %s: atomic %d: original value %s returned, the pattern says 0x%x" % (
                        name, what, i, hex(acks[psn]) if psn in acks else None, a))
            continue
        if op == "READ":
            dqpn, kinds = q["local_qpn"], {"READ_RESP"}
        else:
            dqpn, kinds = q["remote_qpn"], {REQ_KIND[op]}
        # Each PSN once, in PSN order (a retransmission arrives after the
        # packets that overtook the lost one).
        uniq = {}
        for r in roce:
            if r[0]["bth"]["dqpn"] == dqpn and r[2] in kinds:
                uniq.setdefault(r[0]["bth"]["psn"], r)
        msgs, cur = [], None
        for psn in sorted(uniq, key=lambda p: (p - q["local_psn"]) % (1 << 24)):
            j, tr, k, pos, plen = uniq[psn]
            if pos in ("first", "only"):
                cur = bytearray()
                msgs.append(cur)
            if cur is None:
                fail("%s: %s: frame %s: a %s packet before any first" % (name, what, j["frame"], pos))
                continue
            cur += j["_payload"]
        got = set()
        for m in msgs:
            if len(m) != size:
                fail("%s: %s: a message of %d bytes, the run's size is %d" % (name, what, len(m), size))
                continue
            w0 = struct.unpack(">Q", bytes(m[:8]))[0]
            qp, it = (w0 >> 32) & 0xFFFF, w0 & 0xFFFFFFFF
            if w0 >> 48 != 0x5257 or qp != q["index"]:
                fail("%s: %s: a message whose header is 0x%016x, not \"RW\" and QP %d" % (name, what, w0, q["index"]))
                continue
            want = pattern(qp, it, size)
            if bytes(m) != want:
                off = next(i for i in range(size) if m[i] != want[i])
                fail("%s: %s: message %d differs from the pattern at byte %d" % (name, what, it, off))
            got.add(it)
        if got != set(range(iters)):
            fail("%s: %s: messages %s in the capture, expected 0..%d" % (name, what, sorted(got)[:20], iters - 1))
        else:
            note("%s: %s: all %d messages carry the data pattern byte for byte" % (name, what, iters))


def netem_stats(args):
    """(packets sent, packets dropped or marked) of the netem qdisc, from the
    "tc -s qdisc show" text netem_clear left in NAME.qdisc.txt."""
    try:
        with open(os.path.join(args.dir, args.name + ".qdisc.txt")) as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail("%s: no netem statistics: %s" % (args.name, e))
        return None, None
    for i, l in enumerate(lines):
        if "qdisc netem" in l:
            for m in lines[i + 1:i + 3]:
                if " Sent " in m and "dropped" in m:
                    w = m.split()
                    return (int(w[w.index("pkt") - 1]),
                            int(m.split("dropped")[1].split(",")[0]))
    fail("%s: no netem counters in %s.qdisc.txt" % (args.name, args.name))
    return None, None


def check_netem_sent(args, cli, roce):
    """netem sits on the requester's veth, in front of the capture point: the
    packets it let through are the requester's packets in the capture."""
    src = (cli.get("gid", {}).get("local") or "").replace("::ffff:", "")
    mine = sum(1 for j, *_ in roce if j["ipv4"]["src"] == src)
    sent, _ = netem_stats(args)
    note("%s: %d packets from the requester %s in the capture, netem sent %s" % (args.name, mine, src, sent))
    if sent is not None and sent != mine:
        fail("%s: %d packets from %s in the capture, netem let %d through" % (args.name, mine, src, sent))


def check_error(args, cli, roce):
    name = args.name
    statuses = cli["qp"][0]["completions"]["by_status"]
    note("%s: client completions %s, AETH syndromes %s" % (
        name, statuses, sorted({"0x%02x" % a["syndrome"] for a in aeths(roce)})))
    errs = [e["status_str"] for q in cli["qp"] for e in q["completion_errors"]]
    if not errs or errs[0] != args.error:
        fail("%s: first completion error %r, expected %r" % (name, errs[0] if errs else None, args.error))
    if cli.get("result") != "fail":
        fail("%s: client record result %s, expected fail" % (name, cli.get("result")))
    a = aeths(roce)
    if args.nak == "rnr":
        rnr = [x for x in a if x["syndrome"] & 0xE0 == 0x20]
        if not rnr:
            fail("%s: no RNR NAK (AETH syndrome 001xxxxx) in the capture" % name)
        for x in rnr:
            if x.get("kind") != "rnr_nak":
                fail("%s: AETH 0x%02x decoded as %s, not rnr_nak" % (name, x["syndrome"], x.get("kind")))
                break
        # rnr_retry retries, then the error: rnr_retry + 1 RNR NAKs (IBA 9.7.5.2.8).
        want = cli["qp_attr"]["rnr_retry"] + 1
        note("%s: %d RNR NAKs, rnr_retry %d" % (name, len(rnr), want - 1))
        if len(rnr) != want:
            fail("%s: %d RNR NAKs, expected rnr_retry + 1 = %d" % (name, len(rnr), want))
    else:
        syn = int(args.nak, 0)
        if not any(x["syndrome"] == syn for x in a):
            fail("%s: no AETH syndrome 0x%02x in the capture" % (name, syn))
        for x in a:
            if x["syndrome"] == syn and x.get("kind") != "nak":
                fail("%s: AETH 0x%02x decoded as %s" % (name, syn, x.get("kind")))
                break


def check_pingpong(args, roce):
    iters, size = args.pingpong
    sends = [r for r in roce if r[2] == "SEND"]
    seen = {}
    for j, tr, k, pos, plen in sends:
        seen.setdefault((j["bth"]["dqpn"], j["ipv4"]["dst"]), []).append((pos, plen))
    msgs = sum(1 for r in sends if r[3] in ("first", "only"))
    nbytes = sum(r[4] for r in sends)
    note("%s: %d SEND messages, %d bytes between %d QPs" % (args.name, msgs, nbytes, len(seen)))
    if msgs != 2 * iters or nbytes != 2 * iters * size:
        fail("%s: %d SEND messages of %d bytes in all; ibv_rc_pingpong -n %d -s %d makes %d of %d" % (
            args.name, msgs, nbytes, iters, size, 2 * iters, 2 * iters * size))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cap", required=True, help="the rocewire-cap program")
    ap.add_argument("dir")
    ap.add_argument("name")
    ap.add_argument("--loss", action="store_true")
    ap.add_argument("--ce", action="store_true")
    ap.add_argument("--error")
    ap.add_argument("--nak")
    ap.add_argument("--pingpong", nargs=2, type=int, metavar=("ITERS", "SIZE"))
    args = ap.parse_args()

    skipped = os.path.join(args.dir, "SKIPPED")
    if os.path.exists(skipped):
        with open(skipped) as f:
            print("SKIP: the VM run was skipped: " + f.read().strip())
        return 77
    pcap = os.path.join(args.dir, args.name + ".pcap")
    if not os.path.exists(pcap):
        print("FAIL: %s: no capture (did the VM run? see %s/console.log and the command file's log)" % (pcap, args.dir))
        return 1
    try:
        frames = read_pcap(pcap)
        pkts = decode(args.cap, pcap)
    except (OSError, ValueError) as e:
        print("FAIL: %s" % e)
        return 1
    roce = check_packets(args.name, frames, pkts)
    note("%s: %d frames, %d RoCE v2, ICRC ok on %d" % (args.name, len(frames), len(roce),
                                                       sum(1 for r in roce if r[0].get("icrc", {}).get("status") == "ok")))
    try:
        if args.pingpong:
            check_pingpong(args, roce)
        else:
            check_verbs(args, roce)
    except (OSError, ValueError, KeyError) as e:
        fail("%s: record: %s: %s" % (args.name, type(e).__name__, e))
    if failures:
        print("%s: %d check(s) failed" % (args.name, len(failures)))
        return 1
    print("%s: all checks passed" % args.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
