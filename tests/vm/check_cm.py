#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check the rdma_cm scenario (scenarios/cm.sh): rping's connection over RoCE v2.

    check_cm.py [--tshark TSHARK] [--count N] DIR NAME
    check_cm.py [--tshark TSHARK] --cap ROCEWIRE-CAP --check-cm-pairing DIR NAME

DIR is a results directory of rxe-vm.sh (or samples/softroce/), NAME.pcap the
capture, NAME.{server,client}.log rping -v's output, NAME.trace.txt the
kernel's rdma_cma trace events and NAME.res.txt the `rdma res` samples.

The known answers come from outside rocewire: the CM messages and the BTH
fields as Wireshark's own dissectors read them (tshark), the ICRCs recomputed
with zlib (check.py's reader), rping's output and the kernel's records.

Default (vm_cm_tshark, e2e_softroce_cm_tshark): the connection is made and
ended by CM MADs (class 0x07, UD SEND ONLY to QP 1 from QP 1): one REQ from
the client (192.0.2.2) to the server (192.0.2.1), a REP, an RTU, and after the
last RC packet a DREQ and its DREP, with matching communication IDs; nothing
malformed, every ICRC good. The RC traffic between them: every client->server
packet is addressed to the REP's local QPN and every server->client packet to
the REQ's; a Starting PSN is the PSN its sender expects to receive first
(IBA 12.7; Linux's ib_cm sets the active side's rq_psn and the passive side's
sq_psn from the REQ's), so the first request PSN server->client is the REQ's
Starting PSN and client->server the REP's (requests only: ACKs and READ
responses carry the other side's PSNs), and each side's request PSNs follow
on from it; the DREQ names the peer's QPN; rping's operations are there
(per ping: the client's 2 SENDs, the server's READ, WRITE and 2 SENDs, each
PSN counted once), every SEND and WRITE acknowledged and every READ answered. The kernel agrees:
its trace's cm_send_req / cm_send_rep carry the same QPNs for the same
addresses, and each `rdma res` sample of an rping QP the same lqpn/rqpn.

--check-cm-pairing (vm_cm_pairing; env RW_CHECK_CM_PAIRING=1 does the same):
the answers above, taken from tshark, against `rocewire-cap -r PCAP --report
--json` (capture/README-report.md): each of the connection's two RC flows has
`pairing.how` "cm", `pairing.frame` the REP's frame number (1-based) and the
other as `peer`; the top-level `handshakes` array has an entry whose
`local_qpn`/`remote_qpn` are the REQ's and REP's local QPNs and
`req_starting_psn`/`rep_starting_psn` their starting PSNs; no flow has
`unsynced_packets` (the CM told the engine where each PSN sequence starts).

Exit 0 when all checks pass, 1 otherwise (one line per failed check), 77
when the VM run was skipped (DIR/SKIPPED) or tshark is missing.
"""
import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import read_pcap, ROCEV2_PORT  # noqa: E402 (the same pcap reader + zlib ICRC)

CLIENT, SERVER = "192.0.2.2", "192.0.2.1"
CM_CLASS = 0x07
# IBA 12.6: the CM attribute IDs.
ATTR = {0x0010: "REQ", 0x0011: "MRA", 0x0012: "REJ", 0x0013: "REP", 0x0014: "RTU",
        0x0015: "DREQ", 0x0016: "DREP", 0x0017: "SIDR_REQ", 0x0018: "SIDR_REP", 0x0019: "LAP",
        0x001A: "APR"}
UD_SEND_ONLY = 0x64
# RC opcodes (IBA Table 38) by what they are.
RC_ACK, RC_ATOMIC_ACK = 0x11, 0x12
RC_READ_RESP = {0x0D, 0x0E, 0x0F, 0x10}
RC_SEND = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x16, 0x17}
RC_WRITE = {0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B}
RC_READ_REQ = {0x0C}
RC_ATOMIC = {0x13, 0x14}
# Wireshark's field names (tshark -G fields | grep infiniband, Wireshark 4.0).
# infiniband.cm.req / .rep are the Local Communication ID of REQ / REP; the
# DREQ's "Remote QPN/EECN" is registered as infiniband.cm.req.remoteqpneecn.
FIELDS = [
    "frame.number", "ip.src", "ip.dst", "udp.dstport",
    "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
    "infiniband.deth.srcqp",
    "infiniband.mad.mgmtclass", "infiniband.mad.method", "infiniband.mad.attributeid",
    "infiniband.cm.req", "infiniband.cm.req.localqpn", "infiniband.cm.req.startpsn",
    "infiniband.cm.req.transpsvctype", "infiniband.cm.req.ip_cm.sip4",
    "infiniband.cm.req.ip_cm.dip4",
    "infiniband.cm.rep", "infiniband.cm.rep.remotecommid", "infiniband.cm.rep.localqpn",
    "infiniband.cm.rep.startpsn",
    "infiniband.cm.rtu.localcommid", "infiniband.cm.rtu.remotecommid",
    "infiniband.cm.dreq.localcommid", "infiniband.cm.dreq.remotecommid",
    "infiniband.cm.req.remoteqpneecn",
    "infiniband.cm.drsp.localcommid", "infiniband.cm.drsp.remotecommid",
    "infiniband.cm.rej.reason",
]
# Wireshark 4.0's heuristics on infiniband.payload take RoCE payloads for
# other protocols (tests/e2e/tshark_noheur.sh turns off the same).
NOHEUR = ["rpcrdma_infiniband", "eth_over_ib", "fc_infiniband", "sdp_infiniband",
          "iser_infiniband", "lnet_ib", "smb_direct_infiniband", "smcr_infiniband", "nvme_rdma"]

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def note(msg):
    print("  " + msg)


def num(s):
    s = (s or "").strip()
    if s == "":
        return None
    return int(s, 0)


def tshark_run(tshark, pcap, args):
    """tshark with a clean profile (no user preference or personal plugin
    changes decoding) and the heuristics off."""
    home = tempfile.mkdtemp(prefix="rw-cm-tshark.")
    try:
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"))
        cmd = [tshark, "-n", "-r", pcap]
        for h in NOHEUR:
            cmd += ["--disable-heuristic", h]
        p = subprocess.run(cmd + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if p.returncode != 0:
        raise RuntimeError("%s %s exited %d: %s" % (tshark, " ".join(args), p.returncode,
                                                    p.stderr.strip()[:500]))
    return p.stdout


def tshark_rows(tshark, pcap):
    args = ["-T", "fields", "-E", "header=y", "-E", "separator=/t", "-E", "occurrence=f"]
    for f in FIELDS:
        args += ["-e", f]
    out = tshark_run(tshark, pcap, args)
    rows = []
    for r in csv.DictReader(io.StringIO(out), delimiter="\t"):
        rows.append({k: (r.get(k) or "").strip() for k in FIELDS})
    return rows


class Conn:
    """What the capture says about the connection, as tshark reads it."""

    def __init__(self):
        self.mads = []      # (frame, kind, row)
        self.rc = []        # (frame, direction "c2s"/"s2c", opcode, destqp, psn)
        self.req = self.rep = self.rtu = self.dreq = self.drep = None


def classify(rows):
    c = Conn()
    for r in rows:
        fr = int(r["frame.number"])
        op = num(r["infiniband.bth.opcode"])
        if op is None:
            fail("frame %d: tshark finds no BTH (not RoCE v2?)" % fr)
            continue
        src, dst = r["ip.src"], r["ip.dst"]
        if (src, dst) == (CLIENT, SERVER):
            d = "c2s"
        elif (src, dst) == (SERVER, CLIENT):
            d = "s2c"
        else:
            fail("frame %d: %s -> %s, neither side of the connection" % (fr, src, dst))
            continue
        if num(r["infiniband.mad.mgmtclass"]) is not None:
            attr = num(r["infiniband.mad.attributeid"])
            kind = ATTR.get(attr, "attr 0x%04x" % (attr or 0))
            if num(r["infiniband.mad.mgmtclass"]) != CM_CLASS:
                fail("frame %d: MAD class 0x%02x, not CM (0x07)" % (fr, num(r["infiniband.mad.mgmtclass"])))
            if op != UD_SEND_ONLY or num(r["infiniband.bth.destqp"]) != 1 \
                    or num(r["infiniband.deth.srcqp"]) != 1:
                fail("frame %d: %s is opcode 0x%02x from QP %s to QP %s, expected UD SEND ONLY "
                     "from QP 1 to QP 1" % (fr, kind, op, r["infiniband.deth.srcqp"],
                                            r["infiniband.bth.destqp"]))
            c.mads.append((fr, kind, d, r))
            continue
        if op >> 5 != 0:
            fail("frame %d: opcode 0x%02x is not RC and not a MAD" % (fr, op))
            continue
        c.rc.append((fr, d, op & 0x1F, num(r["infiniband.bth.destqp"]), num(r["infiniband.bth.psn"])))
    return c


def one(c, kind, d):
    """The first MAD of KIND, which must go in direction D; resends (same
    kind, same fields) are allowed and said."""
    got = [(fr, dd, r) for fr, k, dd, r in c.mads if k == kind]
    if not got:
        fail("no CM %s in the capture" % kind)
        return None
    fr, dd, r = got[0]
    if dd != d:
        fail("frame %d: the %s goes %s, expected %s" % (fr, kind, dd, d))
    if len(got) > 1:
        note("%s sent %d times (frames %s): CM resends" % (kind, len(got), [g[0] for g in got]))
    return fr, r


def cm_answers(c):
    """REQ, REP, RTU, DREQ, DREP (frame, row) and the figures check_pairing
    needs. Who sends the DREQ is rping's choice (the client, which ends
    first): the DREP goes back the other way."""
    c.req = one(c, "REQ", "c2s")
    c.rep = one(c, "REP", "s2c")
    c.rtu = one(c, "RTU", "c2s")
    dreqs = [(fr, d, r) for fr, k, d, r in c.mads if k == "DREQ"]
    c.dreq = (dreqs[0][0], dreqs[0][2]) if dreqs else None
    c.dreq_dir = dreqs[0][1] if dreqs else None
    dreps = [(fr, d, r) for fr, k, d, r in c.mads if k == "DREP"]
    c.drep = (dreps[0][0], dreps[0][2]) if dreps else None
    if not c.dreq:
        fail("no CM DREQ in the capture")
    if not c.drep:
        fail("no CM DREP in the capture")
    for fr, k, d, r in c.mads:
        if k == "REJ":
            fail("frame %d: CM REJ, reason %s" % (fr, r["infiniband.cm.rej.reason"]))
        elif k not in ("REQ", "REP", "RTU", "DREQ", "DREP", "MRA"):
            fail("frame %d: unexpected CM %s" % (fr, k))
    if not (c.req and c.rep):
        return None
    a = {
        "req_frame": c.req[0], "rep_frame": c.rep[0],
        "req_qpn": num(c.req[1]["infiniband.cm.req.localqpn"]),
        "req_psn": num(c.req[1]["infiniband.cm.req.startpsn"]),
        "rep_qpn": num(c.rep[1]["infiniband.cm.rep.localqpn"]),
        "rep_psn": num(c.rep[1]["infiniband.cm.rep.startpsn"]),
        "req_comm": num(c.req[1]["infiniband.cm.req"]),
        "rep_comm": num(c.rep[1]["infiniband.cm.rep"]),
    }
    for k in ("req_qpn", "req_psn", "rep_qpn", "rep_psn", "req_comm", "rep_comm"):
        if a[k] is None:
            fail("tshark shows no %s in the %s" % (k, "REQ" if k.startswith("req") else "REP"))
            return None
    return a


def check_tshark(args, pcap, c, a):
    # Every frame: RoCE v2, ICRC good (the kernel computed it; zlib here).
    frames = read_pcap(pcap)
    for i, (_ecn, dport, icrc, _pkt) in enumerate(frames, 1):
        if dport != ROCEV2_PORT:
            fail("frame %d: not UDP port %d" % (i, ROCEV2_PORT))
        elif icrc is not True:
            fail("frame %d: ICRC %s" % (i, "bad" if icrc is False else "not verifiable"))
    mal = tshark_run(args.tshark, pcap, ["-Y", "_ws.malformed || _ws.expert.severity >= error"])
    if mal.strip():
        fail("tshark finds malformed frames or errors:\n" + mal.strip()[:2000])
    if a is None:
        return
    note("REQ frame %d: comm ID 0x%08x, local QPN 0x%06x, starting PSN %d (0x%06x)"
         % (a["req_frame"], a["req_comm"], a["req_qpn"], a["req_psn"], a["req_psn"]))
    note("REP frame %d: comm ID 0x%08x, local QPN 0x%06x, starting PSN %d (0x%06x)"
         % (a["rep_frame"], a["rep_comm"], a["rep_qpn"], a["rep_psn"], a["rep_psn"]))
    req = c.req[1]
    if num(req["infiniband.cm.req.transpsvctype"]) != 0:
        fail("REQ: transport service type %s, expected 0 (RC)" % req["infiniband.cm.req.transpsvctype"])
    if (req["infiniband.cm.req.ip_cm.sip4"], req["infiniband.cm.req.ip_cm.dip4"]) != (CLIENT, SERVER):
        fail("REQ: rdma_cm's IP private data says %s -> %s, expected %s -> %s"
             % (req["infiniband.cm.req.ip_cm.sip4"], req["infiniband.cm.req.ip_cm.dip4"], CLIENT, SERVER))
    if a["req_qpn"] == a["rep_qpn"]:
        fail("REQ and REP carry the same QPN 0x%06x: the scenario holds a QP on rxe0 to keep "
             "them apart" % a["req_qpn"])
    rep = c.rep[1]
    if num(rep["infiniband.cm.rep.remotecommid"]) != a["req_comm"]:
        fail("REP: remote comm ID %s, the REQ's is 0x%08x" % (rep["infiniband.cm.rep.remotecommid"], a["req_comm"]))
    if c.rtu:
        fr, rtu = c.rtu
        if (num(rtu["infiniband.cm.rtu.localcommid"]), num(rtu["infiniband.cm.rtu.remotecommid"])) \
                != (a["req_comm"], a["rep_comm"]):
            fail("frame %d: RTU comm IDs %s/%s, expected 0x%08x/0x%08x" % (
                fr, rtu["infiniband.cm.rtu.localcommid"], rtu["infiniband.cm.rtu.remotecommid"],
                a["req_comm"], a["rep_comm"]))
        if fr < a["rep_frame"] or a["rep_frame"] < a["req_frame"]:
            fail("REQ, REP, RTU in frames %d, %d, %d: not in that order" % (a["req_frame"], a["rep_frame"], fr))
    # The RC traffic: between the RTU and the DREQ, addressed to the QPNs the
    # CM exchanged.
    if not c.rc:
        fail("no RC packets between the handshake and the disconnect")
        return
    want = {"c2s": a["rep_qpn"], "s2c": a["req_qpn"]}
    bad = [(fr, d, q) for fr, d, _op, q, _psn in c.rc if q != want[d]]
    for fr, d, q in bad[:5]:
        fail("frame %d (%s): BTH destqp 0x%06x, the CM said 0x%06x" % (fr, d, q, want[d]))
    first_rc, last_rc = c.rc[0][0], c.rc[-1][0]
    if c.rtu and first_rc < c.rep[0]:
        fail("frame %d: RC traffic before the REP (frame %d)" % (first_rc, c.rep[0]))
    if c.dreq and c.dreq[0] < last_rc:
        fail("DREQ in frame %d before the last RC packet (frame %d)" % (c.dreq[0], last_rc))
    if c.dreq and c.drep:
        dq, dp = c.dreq[1], c.drep[1]
        ids = {"c2s": (a["req_comm"], a["rep_comm"]), "s2c": (a["rep_comm"], a["req_comm"])}[c.dreq_dir]
        if (num(dq["infiniband.cm.dreq.localcommid"]), num(dq["infiniband.cm.dreq.remotecommid"])) != ids:
            fail("DREQ (frame %d) comm IDs %s/%s, expected 0x%08x/0x%08x" % (
                c.dreq[0], dq["infiniband.cm.dreq.localcommid"], dq["infiniband.cm.dreq.remotecommid"], *ids))
        # The DREQ's Remote QPN is the QP of its receiver.
        peer = a["rep_qpn"] if c.dreq_dir == "c2s" else a["req_qpn"]
        if num(dq["infiniband.cm.req.remoteqpneecn"]) != peer:
            fail("DREQ (frame %d): remote QPN %s, expected 0x%06x" % (c.dreq[0], dq["infiniband.cm.req.remoteqpneecn"], peer))
        if (num(dp["infiniband.cm.drsp.localcommid"]), num(dp["infiniband.cm.drsp.remotecommid"])) != ids[::-1]:
            fail("DREP (frame %d) comm IDs %s/%s, expected 0x%08x/0x%08x" % (
                c.drep[0], dp["infiniband.cm.drsp.localcommid"], dp["infiniband.cm.drsp.remotecommid"], *ids[::-1]))
        if c.drep[0] < c.dreq[0]:
            fail("DREP (frame %d) before the DREQ (frame %d)" % (c.drep[0], c.dreq[0]))
        note("DREQ frame %d (%s), DREP frame %d" % (c.dreq[0], c.dreq_dir, c.drep[0]))
    # Starting PSNs: each side's first request (not its ACKs or READ
    # responses, which carry the other side's PSNs). A REQ's or REP's
    # Starting PSN is the PSN its sender's receive queue expects first, the
    # one its peer starts sending with (IBA 12.7; Linux's ib_send_cm_req sets
    # the active side's rq_psn from it, cm_req_handler the passive side's
    # sq_psn): the REQ's starts server->client, the REP's client->server.
    responses = {RC_ACK, RC_ATOMIC_ACK} | RC_READ_RESP
    for d, key, who in (("s2c", "req_psn", "REQ"), ("c2s", "rep_psn", "REP")):
        reqs = [(fr, op, psn) for fr, dd, op, _q, psn in c.rc if dd == d and op not in responses]
        if not reqs:
            fail("no RC request %s" % d)
            continue
        fr, op, psn = reqs[0]
        if psn != a[key]:
            fail("frame %d: the first RC request %s has PSN %d, the %s's starting PSN is %d"
                 % (fr, d, psn, who, a[key]))
        else:
            note("first RC request %s: frame %d, opcode 0x%02x, PSN %d = the %s's starting PSN"
                 % (d, fr, op, psn, who))
        # rping's requests are one packet each: consecutive PSNs (a resend,
        # seldom under TCG, repeats one: each PSN counts once).
        psns = []
        for f, _op, p in reqs:
            if p not in psns:
                psns.append(p)
        for i, p in enumerate(psns):
            if p != (a[key] + i) & 0xFFFFFF:
                fail("request PSN %d %s where %d was next" % (p, d, (a[key] + i) & 0xFFFFFF))
                break
    # rping: per ping the client SENDs its buffer twice (for the READ, for
    # the WRITE); the server READs, SENDs, WRITEs, SENDs. Each PSN once.
    n = args.count
    kinds = {}
    for _fr, d, op, _q, psn in c.rc:
        k = ("SEND" if op in RC_SEND else "WRITE" if op in RC_WRITE else "READ" if op in RC_READ_REQ
             else "READ_RESP" if op in RC_READ_RESP else "ACK" if op == RC_ACK else "ATOMIC"
             if op in RC_ATOMIC or op == RC_ATOMIC_ACK else "0x%02x" % op)
        kinds.setdefault((d, k), set()).add(psn)
    want_cnt = {("c2s", "SEND"): 2 * n, ("s2c", "READ"): n, ("c2s", "READ_RESP"): n,
                ("s2c", "WRITE"): n, ("s2c", "SEND"): 2 * n,
                ("s2c", "ACK"): 2 * n, ("c2s", "ACK"): 3 * n}
    for k in sorted(set(kinds) | set(want_cnt)):
        if len(kinds.get(k, ())) != want_cnt.get(k, 0):
            fail("%s %s: %d PSNs, rping -C %d makes %d" % (k[0], k[1], len(kinds.get(k, ())), n,
                                                            want_cnt.get(k, 0)))
    # Every SEND and WRITE acknowledged, every READ answered, by the other side.
    other = {"c2s": "s2c", "s2c": "c2s"}
    for d in ("c2s", "s2c"):
        sent = kinds.get((d, "SEND"), set()) | kinds.get((d, "WRITE"), set())
        if not sent <= kinds.get((other[d], "ACK"), set()):
            fail("%s SEND/WRITE PSNs not acknowledged: %s" % (d, sorted(sent - kinds.get((other[d], "ACK"), set()))))
        rd = kinds.get((d, "READ"), set())
        if not rd <= kinds.get((other[d], "READ_RESP"), set()):
            fail("%s READs not answered: %s" % (d, sorted(rd - kinds.get((other[d], "READ_RESP"), set()))))
    note("RC PSNs: %s" % ", ".join("%s %s %d" % (d, k, len(v)) for (d, k), v in sorted(kinds.items())))


def check_rping_logs(args, d, name):
    n = args.count
    for side, prefix in (("client", "ping data: "), ("server", "server ping data: ")):
        p = os.path.join(d, "%s.%s.log" % (name, side))
        if not os.path.exists(p):
            note("%s: missing (no rping -v output to compare)" % p)
            continue
        with open(p, errors="replace") as f:
            lines = [x for x in f.read().splitlines() if x.startswith(prefix)]
        if len(lines) != n:
            fail("%s: %d '%s' lines, rping -C %d prints %d" % (p, len(lines), prefix.strip(), n, n))
        ex = os.path.join(d, "%s.%s.exit" % (name, side))
        if os.path.exists(ex):
            with open(ex) as f:
                rc = f.read().strip()
            if rc != "0":
                fail("rping %s exited %s" % (side, rc))


def check_kernel(d, name, a):
    """The kernel's view: rdma_cma's trace events (cm_send_req on the client,
    cm_send_rep on the server, with qp_num) and the rdma res samples."""
    p = os.path.join(d, name + ".trace.txt")
    if not os.path.exists(p):
        fail("%s: missing (the rdma_cma trace of the run)" % p)
    else:
        with open(p) as f:
            text = f.read()
        seen = {}
        for ev, src, dst, qpn in re.findall(
                r"(cm_send_req|cm_send_rep): cm\.id=\d+ src=([\d.]+):\d+ dst=([\d.]+):\d+ .*qp_num=(\d+)", text):
            seen.setdefault(ev, []).append((src, dst, int(qpn)))
        for ev, src, dst, qpn in (("cm_send_req", CLIENT, SERVER, a["req_qpn"]),
                                  ("cm_send_rep", SERVER, CLIENT, a["rep_qpn"])):
            got = seen.get(ev, [])
            if [(src, dst, qpn)] != got[:1] or len(set(got)) != 1:
                fail("%s: %s events %s, expected %s -> %s qp_num %d" % (p, ev, got, src, dst, qpn))
            else:
                note("kernel trace: %s %s -> %s qp_num %d, as in the capture" % (ev, src, dst, qpn))
        for ev in ("cm_sent_dreq", "cm_sent_drep"):
            if ev not in text:
                fail("%s: no %s event" % (p, ev))
    p = os.path.join(d, name + ".res.txt")
    if not os.path.exists(p):
        fail("%s: missing (the rdma res samples)" % p)
        return
    want = {"rxe1": (a["req_qpn"], a["rep_qpn"]), "rxe0": (a["rep_qpn"], a["req_qpn"])}
    sampled = 0
    with open(p) as f:
        for line in f:
            parts = line.split(" ", 2)
            if len(parts) < 3 or parts[1] != "qp":
                continue
            try:
                qps = json.loads(parts[2])
            except ValueError:
                continue
            for q in qps:
                # Before RTR (RESET, INIT) a QP has no remote QPN yet.
                if q.get("comm") != "rping" or q.get("type") != "RC" \
                        or q.get("state") in ("RESET", "INIT"):
                    continue
                sampled += 1
                w = want.get(q.get("ifname"))
                if w is None or (q.get("lqpn"), q.get("rqpn")) != w:
                    fail("%s: at %s s %s has rping's QP lqpn %s rqpn %s, expected %s"
                         % (p, parts[0], q.get("ifname"), q.get("lqpn"), q.get("rqpn"), w))
    note("rdma res: %d samples of rping's QPs (each lqpn/rqpn as the CM said)" % sampled)


def check_pairing(args, pcap, a):
    if not args.cap or not os.access(args.cap, os.X_OK):
        fail("--check-cm-pairing needs rocewire-cap (--cap): %r is not an executable" % args.cap)
        return
    p = subprocess.run([args.cap, "-r", pcap, "--report", "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        fail("rocewire-cap -r %s --report --json exited %d: %s" % (pcap, p.returncode, p.stderr.strip()[:500]))
        return
    try:
        rep = json.loads(p.stdout)
    except ValueError as e:
        fail("rocewire-cap --report --json: not JSON (%s)" % e)
        return
    qps = rep.get("qps") or []
    flows = {}
    for q in qps:
        key = (q.get("src"), q.get("dst"), q.get("dqpn"))
        if q.get("transport") == "RC":
            flows.setdefault(key, []).append(q)
    byindex = {q.get("index"): q for q in qps}
    ends = {"client->server": (CLIENT, SERVER, a["rep_qpn"]), "server->client": (SERVER, CLIENT, a["req_qpn"])}
    found = {}
    for what, key in ends.items():
        got = flows.get(key, [])
        if len(got) != 1:
            fail("report: %d RC flows %s -> %s QP 0x%06x (%s), expected 1" % (len(got), key[0], key[1], key[2], what))
            continue
        q = found[what] = got[0]
        pr = q.get("pairing") or {}
        if pr.get("how") != "cm":
            fail("report: flow %d (%s, QP 0x%06x): pairing.how is %r, expected \"cm\" (the REP in frame %d "
                 "pairs the connection; CM pairing not implemented yet?)" % (q.get("index"), what, key[2],
                                                                           pr.get("how"), a["rep_frame"]))
        if pr.get("frame") != a["rep_frame"]:
            fail("report: flow %d (%s): pairing.frame is %r, the REP is frame %d"
                 % (q.get("index"), what, pr.get("frame"), a["rep_frame"]))
    if len(found) == 2:
        c2s, s2c = found["client->server"], found["server->client"]
        if c2s.get("peer") != s2c.get("index") or s2c.get("peer") != c2s.get("index"):
            fail("report: the two RC flows are not each other's peer (%r <-> %r, peers %r, %r)"
                 % (c2s.get("index"), s2c.get("index"), c2s.get("peer"), s2c.get("peer")))
    hs = rep.get("handshakes")
    if not isinstance(hs, list):
        fail("report: no top-level 'handshakes' array (%s; CM handshakes not reported yet?)"
             % ("absent" if hs is None else type(hs).__name__))
    else:
        want = {"local_qpn": a["req_qpn"], "remote_qpn": a["rep_qpn"],
                "req_starting_psn": a["req_psn"], "rep_starting_psn": a["rep_psn"]}
        match = [h for h in hs if isinstance(h, dict) and h.get("local_qpn") == a["req_qpn"]]
        if len(match) != 1:
            fail("report: %d handshakes with local_qpn 0x%06x (of %d), expected 1: %s"
                 % (len(match), a["req_qpn"], len(hs), json.dumps(hs)[:500]))
        else:
            h = match[0]
            for k, v in want.items():
                if h.get(k) != v:
                    fail("report: handshakes[].%s is %r, tshark reads %d" % (k, h.get(k), v))
            note("report: handshake %s" % json.dumps(h, sort_keys=True)[:300])
    for q in qps:
        u = q.get("unsynced_packets")
        if u is None:
            fail("report: flow %r has no 'unsynced_packets'" % q.get("index"))
        elif u != 0:
            fail("report: flow %r (%s -> %s QP %r) has %d unsynced packets: the CM gave its starting PSN"
                 % (q.get("index"), q.get("src"), q.get("dst"), q.get("dqpn"), u))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("name")
    ap.add_argument("--tshark", default=shutil.which("tshark"))
    ap.add_argument("--cap", help="rocewire-cap, for --check-cm-pairing")
    ap.add_argument("--count", type=int, default=4, help="rping -C (4)")
    ap.add_argument("--check-cm-pairing", action="store_true",
                    help="check rocewire-cap's CM pairing instead (env RW_CHECK_CM_PAIRING=1)")
    ap.add_argument("--no-kernel", action="store_true", help="skip the trace and rdma res checks")
    args = ap.parse_args()
    pairing = args.check_cm_pairing or os.environ.get("RW_CHECK_CM_PAIRING") == "1"
    skipped = os.path.join(args.dir, "SKIPPED")
    if os.path.exists(skipped):
        with open(skipped) as f:
            print("SKIP: the VM run was skipped: " + f.read().strip())
        return 77
    if not args.tshark:
        print("SKIP: tshark is not installed (apt-get install tshark): it is the independent decoder")
        return 77
    pcap = os.path.join(args.dir, args.name + ".pcap")
    if not os.path.exists(pcap):
        print("FAIL: %s: missing (did cm.sh run? see %s/cm.log)" % (pcap, args.dir))
        return 1
    try:
        c = classify(tshark_rows(args.tshark, pcap))
    except (RuntimeError, OSError, ValueError) as e:
        print("FAIL: %s" % e)
        return 1
    a = cm_answers(c)
    if pairing:
        if a is None:
            fail("no REQ/REP read by tshark: nothing to check rocewire-cap's pairing against")
        else:
            check_pairing(args, pcap, a)
    else:
        try:
            check_tshark(args, pcap, c, a)
        except (RuntimeError, OSError, ValueError) as e:
            fail(str(e))
        check_rping_logs(args, args.dir, args.name)
        if a is not None and not args.no_kernel:
            check_kernel(args.dir, args.name, a)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("ok: %s%s" % (args.name, " (rocewire-cap's CM pairing)" if pairing else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
