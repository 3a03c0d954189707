#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check one rocewire-gen -> Soft-RoCE case of the VM (scenarios/gen.sh).

    check_gen.py --cap ROCEWIRE-CAP DIR NAME --op OP --size N --messages M
                 --pattern HEX [--imm V] [--corrupt I | --drop I]

DIR is the results directory of rxe-vm.sh. rocewire-gen sent M messages of
OP (write, write_imm, send, read) of N bytes, each carrying HEX repeated from
its first byte, to rocewire-verbs server --fixed-peer on rxe0. The known
answers come from these scenario inputs, from the server's record
(NAME.server.json: its QPN, the PSN it expected, its rkey and buffer, its
completions and data check) and from what Soft-RoCE does (README.md); never
from the generator's own summary. Checked:

- the capture (NAME.pcap, veth0): every frame is RoCE v2, decoded to its end
  by rocewire-cap, whose ICRC verdicts agree with a zlib recomputation here;
  the requests go from 192.0.2.2 to the server's QPN, the responses from
  192.0.2.1 to the peer QPN the server was given, and nothing else is there;
- the requests: one per PSN, consecutive from the server's expected PSN (mod
  2^24), segmented at MTU 1024 (IBA 9.7.4: FIRST/MIDDLE/LAST or ONLY, the
  _IMM form with ImmDt V last), RETH with the server's rkey, the message
  length and the server's address of iteration i (addr + (i % slots) *
  slot_size), AckReq on every last packet, payloads HEX repeated, every ICRC
  good except request I's (--corrupt), which is bad;
- rxe's answers: every ICRC good; clean runs: one ACK (AETH kind 0) for each
  request with AckReq, same PSN, MSN counting the messages, no NAK; READ:
  the responses of each request at its PSNs (FIRST/MIDDLE/LAST or ONLY),
  MSN on the first and last, carrying the server's buffer at the RETH's
  address (its slots filled with HEX) byte for byte;
- rxe0's hw_counters (NAME.rxe0.before/after): rcvd_pkts grew by the
  requests with a good ICRC, sent_pkts by rxe's packets in the capture;
  clean: no out_of_seq_request nor duplicate_request;
- the server's record: a clean run passes its data check with M receives
  (SEND, WRITE_IMM) of N bytes each;
- rocewire-cap --report --json: the request QP's messages, bytes by
  operation, ACKs and NAKs, and no gap, resend or incomplete message;
- --corrupt I (one-packet WRITEs): rxe drops request I without a word; the
  next one (PSN one ahead) gets one NAK PSN sequence error (AETH 0x60) with
  request I's PSN and MSN I; rxe ignores the rest (out of sequence, after a
  NAK); ACKs only for requests 0..I-1; counters: rcvd_pkts grew by M - 1
  (the bad ICRC is dropped before it is counted), out_of_seq_request by 1;
  the server's data check fails first at iteration I with the M - I slots
  from I on not written;
- --drop I (one-packet WRITEs): request I never reaches the wire (the
  generator's drop fault; the capture has no packet with its PSN); rxe
  answers the next one with the same NAK PSN sequence error and accepts
  nothing after it, as above; counters: rcvd_pkts grew by M - 1 (all that
  came), out_of_seq_request by 1; the server's data check fails from
  iteration I on; rocewire-cap's report sees the one PSN gap;
- --corrupt I and --drop I: the report counts the I messages before the
  lost request (after it nothing is accepted, as at rxe).

Exit 0 when all checks pass, 1 otherwise (one line per failed check), 77
when the VM run was skipped (DIR/SKIPPED holds the reason).
"""
import argparse
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check as vm  # noqa: E402  (the VM checker's pcap reader and ICRC)

MTU = 1024
GEN_IP, SERVER_IP = "192.0.2.2", "192.0.2.1"
PSN_MOD = 1 << 24
# The record's operation names.
RECORD_OP = {"write": "WRITE", "write_imm": "WRITE_IMM", "send": "SEND", "read": "READ"}
# RC request opcodes (IBA Table 38) by operation: (first, middle, last, only).
REQ_OPCODES = {
    "write": (0x06, 0x07, 0x08, 0x0A),
    "write_imm": (0x06, 0x07, 0x09, 0x0B),
    "send": (0x00, 0x01, 0x02, 0x04),
}
READ_REQ, ACK = 0x0C, 0x11
READ_RESP = (0x0D, 0x0E, 0x0F, 0x10)
NAK_PSN_SEQ = 0x60

fail = vm.fail
note = vm.note


def lost(args):
    """The index of the request rxe never accepted (--corrupt or --drop), or None."""
    return args.corrupt if args.corrupt is not None else args.drop


def segments(size):
    return max(1, -(-size // MTU))


def opcode_of(ops, k, n):
    """The opcode of packet k of an n-packet message (IBA 9.7.4)."""
    first, middle, last, only = ops
    if n == 1:
        return only
    return first if k == 0 else last if k == n - 1 else middle


def counters(path):
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 2:
                out[p[0]] = int(p[1])
    return out


def read_file(args, suffix):
    with open(os.path.join(args.dir, args.name + suffix)) as f:
        return f.read().strip()


def packets(args):
    path = os.path.join(args.dir, args.name + ".pcap")
    frames = vm.read_pcap(path)
    p = subprocess.run([args.cap, "-r", path, "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        raise ValueError("%s -r %s --json exited %d: %s" % (args.cap, path, p.returncode,
                                                            p.stderr.strip()))
    pkts = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    if len(frames) != len(pkts):
        fail("the pcap holds %d frames, rocewire-cap printed %d" % (len(frames), len(pkts)))
    out = []
    for (ecn, dport, icrc_here, raw), j in zip(frames, pkts):
        n = j.get("frame")
        if dport != vm.ROCEV2_PORT or j.get("carrier") != "rocev2" or "bth" not in j:
            fail("frame %s: not a RoCE v2 packet (UDP port %s, carrier %s)" % (n, dport, j.get("carrier")))
            continue
        if "error" in j:
            fail("frame %s: decode error: %s" % (n, j["error"]))
        good = j.get("icrc", {}).get("status") == "ok"
        if good != (icrc_here is True):
            fail("frame %s: rocewire-cap says ICRC %s, zlib here says %s" % (n, j.get("icrc"), icrc_here))
        j["_good"] = good and icrc_here is True
        j["_payload"] = vm.payload_bytes(raw, j)
        out.append(j)
    if p.returncode == 1 and all(j["_good"] for j in out):
        fail("rocewire-cap exited 1 but every ICRC is good")
    return out


def check_requests(args, srv, reqs):
    """The generated requests against the server's QP and the scenario."""
    q = srv["qp"][0]
    loc, run = q["local"], srv["run"]
    m, size, psn0 = args.messages, args.size, q["remote_psn"]
    k = 1 if args.op == "read" else segments(size)
    sent = m - (1 if args.drop is not None else 0)
    want = sent * k
    if len(reqs) != want:
        fail("%d request packets, expected %d (%d messages x %d)" % (len(reqs), want, sent, k))
    pat = bytes.fromhex(args.pattern)
    bad = []
    i = 0
    for msg in range(m):
        if msg == args.drop:
            continue  # never sent: its PSNs are missing from the capture
        first = reqs[i] if i < len(reqs) else None
        data = b""
        for seg in range(k):
            if i >= len(reqs):
                break
            j = reqs[i]
            b = j["bth"]
            # a READ request takes the PSNs of its responses (IBA 9.7.4.1.4)
            exp_psn = (psn0 + msg * segments(size) + seg) % PSN_MOD
            if b["psn"] != exp_psn:
                fail("request %d (frame %d): PSN %d, expected %d" % (i, j["frame"], b["psn"], exp_psn))
            exp_op = READ_REQ if args.op == "read" else opcode_of(REQ_OPCODES[args.op], seg, k)
            if b["opcode"] != exp_op:
                fail("request %d (frame %d): opcode 0x%02x, expected 0x%02x" % (i, j["frame"], b["opcode"], exp_op))
            if seg == k - 1 and not b["ackreq"]:
                fail("request %d (frame %d): last packet of a message without AckReq" % (i, j["frame"]))
            if not j["_good"]:
                bad.append(i)
            data += j["_payload"]
            want_imm = msg if args.imm == "sequence" else int(args.imm, 0)
            imm = (j.get("immdt") or {}).get("data")
            if args.op == "write_imm" and seg == k - 1 and imm != want_imm:
                fail("request %d (frame %d): ImmDt %s, expected %d" % (i, j["frame"], imm, want_imm))
            i += 1
        if first is None:
            break
        if args.op in ("write", "write_imm", "read"):
            r = first.get("reth")
            va = loc["addr"] + (msg % run["slots"]) * run["slot_size"]
            if r is None:
                fail("message %d (frame %d): no RETH" % (msg, first["frame"]))
            elif (int(r["va"], 16), r["rkey"], r["len"]) != (va, loc["rkey"], size):
                fail("message %d (frame %d): RETH va %s rkey %d len %d, expected va 0x%x rkey %d len %d "
                     "(the server's buffer)" % (msg, first["frame"], r["va"], r["rkey"], r["len"],
                                                va, loc["rkey"], size))
        if args.op != "read":
            exp = (pat * (size // len(pat) + 1))[:size]
            if data != exp:
                off = next((x for x in range(min(len(data), len(exp))) if data[x] != exp[x]),
                           min(len(data), len(exp)))
                fail("message %d: %d payload bytes, not the pattern %s repeated (first difference at "
                     "byte %d)" % (msg, len(data), args.pattern, off))
    want_bad = [args.corrupt] if args.corrupt is not None else []
    if bad != want_bad:
        fail("requests with a bad ICRC: %s, expected %s" % (bad, want_bad))
    note("%d requests from PSN %d (%d messages of %d B), bad ICRC at %s"
         % (len(reqs), psn0, m, size, bad or "none"))
    return len(reqs) - len(bad)


def check_acks(args, srv, reqs, resps):
    """Clean WRITE/SEND: one ACK per AckReq request, in order, MSN counting
    messages (rxe answers every AckReq and nothing else)."""
    acked = [j for j in reqs if j["bth"]["ackreq"]]
    if len(resps) != len(acked):
        fail("%d responses, expected one ACK for each of the %d requests with AckReq"
             % (len(resps), len(acked)))
    k = segments(args.size)
    for n, (a, r) in enumerate(zip(resps, acked)):
        ae = a.get("aeth")
        # the messages complete up to and with this packet
        msn = ((reqs.index(r) + 1) // k) % PSN_MOD
        if a["bth"]["opcode"] != ACK or ae is None or ae["syndrome"] >> 5 != 0:
            fail("response %d (frame %d): %s syndrome %s, expected an ACK" % (
                n, a["frame"], a["bth"]["name"], ae and hex(ae["syndrome"])))
        elif a["bth"]["psn"] != r["bth"]["psn"] or ae["msn"] != msn:
            fail("ACK %d (frame %d): PSN %d MSN %d, expected PSN %d MSN %d" % (
                n, a["frame"], a["bth"]["psn"], ae["msn"], r["bth"]["psn"], msn))
    note("%d ACKs, the last MSN %s" % (len(resps), resps[-1]["aeth"]["msn"] if resps else None))


def check_read(args, srv, reqs, resps):
    """READ: rxe answers each request with the server's buffer."""
    q = srv["qp"][0]
    loc, run = q["local"], srv["run"]
    pat = bytes.fromhex(args.pattern)
    k = segments(args.size)
    if len(resps) != len(reqs) * k:
        fail("%d READ response packets, expected %d (%d requests x %d)" % (len(resps), len(reqs) * k, len(reqs), k))
    # The server fills each slot with the pattern from the slot's first byte.
    slot = run["slot_size"]
    for n, rq in enumerate(reqs):
        got = resps[n * k:(n + 1) * k]
        data = b""
        for seg, a in enumerate(got):
            exp_op = opcode_of(READ_RESP, seg, k)
            psn = (rq["bth"]["psn"] + seg) % PSN_MOD
            if a["bth"]["opcode"] != exp_op or a["bth"]["psn"] != psn:
                fail("READ %d response %d (frame %d): opcode 0x%02x PSN %d, expected 0x%02x PSN %d" % (
                    n, seg, a["frame"], a["bth"]["opcode"], a["bth"]["psn"], exp_op, psn))
            ae = a.get("aeth")
            if exp_op in (0x0D, 0x0F, 0x10):
                if ae is None or ae["syndrome"] >> 5 != 0 or ae["msn"] != n + 1:
                    fail("READ %d response %d (frame %d): AETH %s, expected an ACK with MSN %d" % (
                        n, seg, a["frame"], ae, n + 1))
            data += a["_payload"]
        va = int(rq["reth"]["va"], 16) if "reth" in rq else loc["addr"]
        exp = bytes(pat[((va - loc["addr"] + x) % slot) % len(pat)] for x in range(args.size))
        if data != exp:
            fail("READ %d: %d bytes came back, not the server's buffer at 0x%x" % (n, len(data), va))
    note("%d READ responses, %d bytes, all the server's pattern" % (len(resps), sum(len(a["_payload"]) for a in resps)))


def check_lost(args, srv, reqs, resps):
    """One request lost (dropped by rxe for its ICRC, or never sent): rxe
    NAKs the next one once and accepts nothing after it."""
    i = lost(args)
    k = segments(args.size)
    psn0 = srv["qp"][0]["remote_psn"]
    # the request after the lost one: reqs[i + 1] when the lost one is in
    # the capture (corrupted), reqs[i] when it never went out (dropped)
    nxt = i + 1 if args.drop is None else i
    if k != 1:
        fail("--corrupt and --drop expect one-packet messages, --size %d is %d packets" % (args.size, k))
    acks = [a for a in resps if a.get("aeth") and a["aeth"]["syndrome"] >> 5 == 0]
    naks = [a for a in resps if a.get("aeth") and a["aeth"]["syndrome"] >> 5 != 0]
    if [a["bth"]["psn"] for a in acks] != [r["bth"]["psn"] for r in reqs[:i]]:
        fail("ACKs for PSNs %s, expected those of requests 0..%d: %s" % (
            [a["bth"]["psn"] for a in acks], i - 1, [r["bth"]["psn"] for r in reqs[:i]]))
    if [a["aeth"]["msn"] for a in acks] != list(range(1, i + 1)):
        fail("ACK MSNs %s, expected 1..%d" % ([a["aeth"]["msn"] for a in acks], i))
    if len(naks) != 1:
        fail("%d NAKs, expected exactly one (PSN sequence error)" % len(naks))
    else:
        nk = naks[0]
        want = (NAK_PSN_SEQ, (psn0 + i) % PSN_MOD, i)
        got = (nk["aeth"]["syndrome"], nk["bth"]["psn"], nk["aeth"]["msn"])
        if got != want:
            fail("NAK (frame %d): syndrome 0x%02x PSN %d MSN %d, expected 0x%02x (PSN sequence error) "
                 "PSN %d (the lost request's) MSN %d" % ((nk["frame"],) + got + want))
        if nxt < len(reqs) and nk["frame"] < reqs[nxt]["frame"]:
            fail("NAK (frame %d) before the request after the lost one (frame %d)" % (
                nk["frame"], reqs[nxt]["frame"]))
        later = [a["frame"] for a in resps if a["frame"] > nk["frame"]]
        if later:
            fail("rxe answered after its NAK (frames %s); it should ignore the out-of-sequence rest" % later)
        note("NAK PSN sequence error for PSN %d, MSN %d; %d ACKs before it" % (
            nk["bth"]["psn"], nk["aeth"]["msn"], len(acks)))


def check_counters(args, n_good, n_resp):
    before = counters(os.path.join(args.dir, args.name + ".rxe0.before"))
    after = counters(os.path.join(args.dir, args.name + ".rxe0.after"))
    d = {c: after.get(c, 0) - before.get(c, 0) for c in after}
    want = {"rcvd_pkts": n_good, "sent_pkts": n_resp, "duplicate_request": 0,
            "out_of_seq_request": 1 if lost(args) is not None else 0}
    for c, v in want.items():
        if c not in after:
            fail("rxe0 has no hw_counter %s" % c)
        elif d[c] != v:
            fail("rxe0 %s grew by %d, expected %d" % (c, d[c], v))
    note("rxe0 counters grew: %s" % ", ".join("%s +%d" % (c, v) for c, v in sorted(d.items()) if v))


def check_record(args, srv):
    run, q = srv["run"], srv["qp"][0]
    if (srv.get("role"), srv.get("mode")) != ("server", "fixed-peer"):
        fail("the record is of a %s %s, expected a fixed-peer server" % (srv.get("mode"), srv.get("role")))
    if (run["op"], run["size"], run["iterations"], run["mtu"]) != (RECORD_OP[args.op], args.size, args.messages, MTU):
        fail("the server ran %s size %d iterations %d MTU %d, the check expects %s %d %d %d" % (
            run["op"], run["size"], run["iterations"], run["mtu"], RECORD_OP[args.op], args.size,
            args.messages, MTU))
    dc = q["data_check"]
    if lost(args) is None:
        if srv["result"] != "pass" or srv["data_check"]["result"] != ("none" if args.op == "read" else "pass"):
            fail("server record: result %s, data check %s (%s)" % (srv["result"], srv["data_check"]["result"], srv["error"]))
        if q["completions"]["error"]:
            fail("server record: %d completion errors" % q["completions"]["error"])
        if args.op in ("send", "write_imm"):
            rc = q["recv"]
            if (rc["completed"], rc["bytes"], rc["failed"]) != (args.messages, args.messages * args.size, 0):
                fail("server receives: %d completed, %d bytes, %d failed; expected %d, %d, 0" % (
                    rc["completed"], rc["bytes"], rc["failed"], args.messages, args.messages * args.size))
            if dc["checked"] < args.messages or dc["out_of_order"] or dc["missing"]:
                fail("server data check: %s" % dc)
        note("server: %s, data check %s, %d checked, %s receives" % (
            srv["result"], srv["data_check"]["result"], dc["checked"], q.get("recv", {}).get("completed")))
    else:
        i = lost(args)
        fm = dc.get("first_mismatch") or {}
        slots = run["slots"]
        if srv["data_check"]["result"] != "fail" or fm.get("iteration") != i or dc["mismatched"] != slots - i:
            fail("server data check %s, first mismatch %s, %d mismatched; expected fail at iteration %d "
                 "with %d slots not written" % (srv["data_check"]["result"], fm, dc["mismatched"], i, slots - i))
        note("server: data check %s from iteration %s, %d of %d slots not written" % (
            srv["data_check"]["result"], fm.get("iteration"), dc["mismatched"], slots))


def check_report(args, srv, n_acks, n_naks):
    """rocewire-cap's own analysis of the capture."""
    path = os.path.join(args.dir, args.name + ".pcap")
    p = subprocess.run([args.cap, "-r", path, "--report", "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        fail("rocewire-cap --report --json exited %d: %s" % (p.returncode, p.stderr.strip()))
        return
    rep = json.loads(p.stdout)
    q = srv["qp"][0]
    mine = [x for x in rep["qps"] if x["requests"] and x["dqpn"] == q["local_qpn"]]
    if len(mine) != 1:
        fail("report: %d request QPs to QPN %d, expected 1" % (len(mine), q["local_qpn"]))
        return
    x = mine[0]
    bucket = {"write": "write", "write_imm": "write", "send": "send", "read": "read"}[args.op]
    # The analyser counts a READ's message where its data travels: on the
    # response QP (its bytes by operation on the request QP).
    # A lost request (a bad ICRC completes nothing; a dropped one leaves one
    # PSN gap): the messages after it are not accepted either (nothing
    # resends it), only those before it count, as at rxe.
    msgs = args.messages if lost(args) is None else lost(args)
    want = {
        "messages": 0 if args.op == "read" else msgs,
        "incomplete_messages": 0, "psn_gaps": 0 if args.drop is None else 1,
        "retransmissions": 0, "out_of_order": 0,
        "icrc_bad": 1 if args.corrupt is not None else 0,
    }
    got = {c: x[c] for c in want}
    if got != want:
        fail("report: %s, expected %s" % (got, want))
    if args.op == "read":
        back = [y for y in rep["qps"] if y["responses"] and y["dqpn"] == q["remote_qpn"]]
        got = [(y["messages"], y["incomplete_messages"], y["icrc_bad"]) for y in back]
        if got != [(args.messages, 0, 0)] or x["read_latency_us"]["count"] != args.messages:
            fail("report: READ response QP (messages, incomplete, bad ICRC) %s, %d READs answered; "
                 "expected [(%d, 0, 0)] and %d" % (got, x["read_latency_us"]["count"], args.messages,
                                                  args.messages))
    if x["msgs_by_op"][bucket] != msgs or x["bytes_by_op"][bucket] != msgs * args.size:
        fail("report: %s messages %d bytes %d, expected %d and %d" % (
            bucket, x["msgs_by_op"][bucket], x["bytes_by_op"][bucket], msgs, msgs * args.size))
    naks = x["naks"]
    want_naks = {c: 0 for c in naks}
    if n_naks:
        want_naks["psn_seq"] = n_naks
    if naks != want_naks:
        fail("report: NAKs %s, expected %s" % (naks, want_naks))
    if args.op != "read" and x["acks"] != n_acks:
        fail("report: %d ACKs, the capture has %d" % (x["acks"], n_acks))
    note("report: %d %s messages, %d ACKs, NAKs %s" % (x["msgs_by_op"][bucket], bucket, x["acks"],
                                                   {c: v for c, v in naks.items() if v} or "none"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cap", required=True, help="the rocewire-cap program")
    ap.add_argument("dir")
    ap.add_argument("name")
    ap.add_argument("--op", required=True, choices=sorted(RECORD_OP))
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--messages", type=int, required=True)
    ap.add_argument("--pattern", required=True)
    ap.add_argument("--imm", default="0", help="the ImmDt of every WRITE_IMM, or 'sequence' (message i carries i)")
    lost_one = ap.add_mutually_exclusive_group()
    lost_one.add_argument("--corrupt", type=int, help="index of the request sent with a bad ICRC")
    lost_one.add_argument("--drop", type=int, help="index of the request the generator dropped")
    args = ap.parse_args()

    skipped = os.path.join(args.dir, "SKIPPED")
    if os.path.exists(skipped):
        with open(skipped) as f:
            print("SKIP: " + f.read().strip())
        return 77
    pcap = os.path.join(args.dir, args.name + ".pcap")
    if not os.path.exists(pcap):
        print("FAIL: %s missing (did vm_run run %s? see %s)" % (pcap, args.name, os.path.join(args.dir, "gen.log")))
        return 1
    print("%s: %s x %d of %d B" % (args.name, args.op, args.messages, args.size))
    if read_file(args, ".gen.exit") != "0":
        fail("rocewire-gen exited %s (%s.gen.log)" % (read_file(args, ".gen.exit"), args.name))
    srv_exit = read_file(args, ".server.exit")
    if srv_exit != ("1" if lost(args) is not None else "0"):
        fail("the server exited %s (%s.server.log)" % (srv_exit, args.name))
    srv = vm.load(os.path.join(args.dir, args.name + ".server.json"))
    q = srv["qp"][0]
    check_record(args, srv)

    pk = packets(args)
    reqs = [j for j in pk if j["ipv4"]["src"] == GEN_IP and j["bth"]["dqpn"] == q["local_qpn"]]
    resps = [j for j in pk if j["ipv4"]["src"] == SERVER_IP and j["bth"]["dqpn"] == q["remote_qpn"]]
    if len(reqs) + len(resps) != len(pk):
        fail("%d packets neither requests to QPN %d nor responses to QPN %d" % (
            len(pk) - len(reqs) - len(resps), q["local_qpn"], q["remote_qpn"]))
    for a in resps:
        if not a["_good"]:
            fail("rxe's packet (frame %d) has a bad ICRC" % a["frame"])
    n_good = check_requests(args, srv, reqs)
    if lost(args) is not None:
        check_lost(args, srv, reqs, resps)
    elif args.op == "read":
        check_read(args, srv, reqs, resps)
    else:
        check_acks(args, srv, reqs, resps)
    check_counters(args, n_good, len(resps))
    n_acks = sum(1 for a in resps if a["bth"]["opcode"] == ACK and a["aeth"]["syndrome"] >> 5 == 0)
    n_naks = sum(1 for a in resps if a.get("aeth") and a["aeth"]["syndrome"] == NAK_PSN_SEQ)
    check_report(args, srv, n_acks, n_naks)
    if vm.failures:
        print("%s: %d check(s) failed" % (args.name, len(vm.failures)))
        return 1
    print("%s: all checks passed" % args.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
