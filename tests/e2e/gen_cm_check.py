#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks rocewire-gen's CM handshakes (samples/scenarios/cm-handshake.yaml)
from what tshark decodes, not from what the generator says it did.

usage: gen_cm_check.py TSHARK.tsv TRUTH.jsonl SUMMARY.json

TSHARK.tsv  tshark -T fields (header line, tab-separated, first occurrence)
            of the capture: frame, IP, VLAN, DSCP, BTH, DETH, MAD and CM fields
TRUTH.jsonl rocewire-gen --truth-jsonl of the same run
SUMMARY.json rocewire-gen --summary-json

Per RC connection (one per QP of an RC flow): REQ, REP, RTU in that order
before its first request; DREQ, DREP after its last request and response;
the QPN the REQ announces is the one the responder's answers go to, the
QPN the REP announces the one the requests go to; the REP's starting PSN is
the first request's PSN and the first READ response's (a starting PSN is what
its sender expects to receive, and the responder answers in the requester's
PSN space: IBA 9.7.5.1), the REQ's another; comm IDs echo, and are
distinct per connection; REQ, REP, RTU share a TID, DREQ and DREP another.
Every RC frame belongs to a connection so announced. Every MAD goes from
QP 1 to QP 1 with the GSI Q_Key, on its flow's addresses, VLAN and DSCP.
"""
import csv
import json
import sys

# What the sample's RC flows set, by the requester's IP (the UD flow, from
# 10.0.0.2, has no CM).
FLOWS = {
    "10.0.0.1": {"dst": "10.0.0.2", "qps": 1, "mtu": 5, "retry": 7, "rnr": 7, "vlan": None, "first_op": "write"},
    "10.0.0.3": {"dst": "10.0.0.2", "qps": 2, "mtu": 3, "retry": 5, "rnr": 3, "vlan": 10, "first_op": "read"},
}
GSI_QKEY = 0x80010000
CM_CLASS = 7
ATTR = {0x10: "REQ", 0x13: "REP", 0x14: "RTU", 0x15: "DREQ", 0x16: "DREP"}
READ_RESP_FIRST_ONLY = (0x0D, 0x10)
ACK = 0x11
fails = []


def fail(msg):
    fails.append(msg)


def num(v):
    return int(v, 0) if v not in ("", None) else None


def main():
    tsv, truth_p, summary_p = sys.argv[1:4]
    rows = list(csv.DictReader(open(tsv), delimiter="\t"))
    f = lambda r, k: r.get(k, "")  # noqa: E731
    cms, rc = [], []
    for r in rows:
        r["n"] = int(r["frame.number"])
        op = num(f(r, "infiniband.bth.opcode"))
        if op is None:
            fail("frame %d: not RoCE" % r["n"])
            continue
        r["op"] = op
        r["dqp"] = num(f(r, "infiniband.bth.destqp"))
        r["psn"] = num(f(r, "infiniband.bth.psn"))
        if num(f(r, "infiniband.mad.mgmtclass")) == CM_CLASS:
            r["cm"] = ATTR.get(num(f(r, "infiniband.mad.attributeid")), "?")
            cms.append(r)
        elif op < 0x20:
            rc.append(r)
    # every MAD: UD SEND Only, QP 1 to QP 1, the GSI Q_Key, the flow's VLAN and DSCP
    for r in cms:
        if r["op"] != 0x64 or r["dqp"] != 1 or num(f(r, "infiniband.deth.srcqp")) != 1 or \
                num(f(r, "infiniband.deth.q_key")) != GSI_QKEY:
            fail("frame %d (%s): opcode 0x%x, QP %s <- %s, Q_Key %s: expected UD SEND Only, QP 1 <- 1, Q_Key "
                 "0x80010000" % (r["n"], r["cm"], r["op"], r["dqp"], f(r, "infiniband.deth.srcqp"),
                                 f(r, "infiniband.deth.q_key")))
        if f(r, "ip.dsfield.dscp") != "26":
            fail("frame %d (%s): DSCP %s, the flow's is 26" % (r["n"], r["cm"], f(r, "ip.dsfield.dscp")))
        host = r["ip.src"] if r["ip.src"] in FLOWS else r["ip.dst"]
        want_vlan = FLOWS.get(host, {}).get("vlan") if r["ip.src"] == host else None
        if num(f(r, "vlan.id")) != want_vlan:
            fail("frame %d (%s) from %s: VLAN %s, expected %s" % (r["n"], r["cm"], r["ip.src"],
                                                                 f(r, "vlan.id") or "none", want_vlan))

    reqs = [r for r in cms if r["cm"] == "REQ"]
    by = {k: [r for r in cms if r["cm"] == k] for k in ("REP", "RTU", "DREQ", "DREP")}
    want_conns = sum(v["qps"] for v in FLOWS.values())
    if len(reqs) != want_conns or any(len(v) != want_conns for v in by.values()):
        fail("%d REQ, %s: expected %d of each (one per RC QP)" %
             (len(reqs), ", ".join("%d %s" % (len(v), k) for k, v in by.items()), want_conns))
    covered = set()
    lids, rids = set(), set()
    for q in reqs:
        a, b = q["ip.src"], q["ip.dst"]
        fl = FLOWS.get(a)
        if fl is None or fl["dst"] != b:
            fail("frame %d: a REQ from %s to %s, which no RC flow of the sample connects" % (q["n"], a, b))
            continue
        lid = num(f(q, "infiniband.cm.req"))
        name = "connection %s>%s comm ID 0x%x" % (a, b, lid)
        if lid in lids:
            fail("%s: REQ local comm ID used twice" % name)
        lids.add(lid)
        # the REQ's own fields
        for key, want in (("pppmtu", fl["mtu"]), ("retrcount", fl["retry"]), ("rnrretrcount", fl["rnr"]),
                          ("transpsvctype", 0), ("pkey", 0xFFFF)):
            got = num(f(q, "infiniband.cm.req." + key))
            if got != want:
                fail("%s: REQ %s %s, expected %s" % (name, key, got, want))
        for key, want in (("prim_localgid_ipv4", a), ("prim_remotegid_ipv4", b), ("ip_cm.sip4", a),
                          ("ip_cm.dip4", b)):
            if f(q, "infiniband.cm.req." + key) != want:
                fail("%s: REQ %s %s, expected %s" % (name, key, f(q, "infiniband.cm.req." + key), want))
        rep = next((r for r in by["REP"] if num(f(r, "infiniband.cm.rep.remotecommid")) == lid), None)
        if rep is None:
            fail("%s: no REP whose remote comm ID is the REQ's local one" % name)
            continue
        rid = num(f(rep, "infiniband.cm.rep"))
        if rid in rids or rid == lid:
            fail("%s: REP local comm ID 0x%x not distinct" % (name, rid))
        rids.add(rid)
        pair = lambda k, lk, rk, l_, r_: next((r for r in by[k] if num(f(r, lk)) == l_ and  # noqa: E731
                                                num(f(r, rk)) == r_), None)
        rtu = pair("RTU", "infiniband.cm.rtu.localcommid", "infiniband.cm.rtu.remotecommid", lid, rid)
        dreq = pair("DREQ", "infiniband.cm.dreq.localcommid", "infiniband.cm.dreq.remotecommid", lid, rid)
        drep = pair("DREP", "infiniband.cm.drsp.localcommid", "infiniband.cm.drsp.remotecommid", rid, lid)
        if not (rtu and dreq and drep):
            fail("%s: RTU %s, DREQ %s, DREP %s with the echoed comm IDs" %
                 (name, bool(rtu), bool(dreq), bool(drep)))
            continue
        if (rep["ip.src"], rep["ip.dst"], drep["ip.src"]) != (b, a, b) or \
                (rtu["ip.src"], dreq["ip.src"]) != (a, a):
            fail("%s: REP and DREP must come from the responder, RTU and DREQ from the requester" % name)
        tids = [f(r, "infiniband.mad.transactionid") for r in (q, rep, rtu, dreq, drep)]
        if not (tids[0] == tids[1] == tids[2] and tids[3] == tids[4] and tids[0] != tids[3]):
            fail("%s: TIDs REQ/REP/RTU %s/%s/%s, DREQ/DREP %s/%s: expected one for the set-up, another for "
                 "the tear-down" % (name, *tids))
        req_qpn = num(f(q, "infiniband.cm.req.localqpn"))
        rep_qpn = num(f(rep, "infiniband.cm.rep.localqpn"))
        if num(f(dreq, "infiniband.cm.req.remoteqpneecn")) != rep_qpn:
            fail("%s: DREQ remote QPN %s, the REP's QPN 0x%x" % (name, f(dreq, "infiniband.cm.req.remoteqpneecn"),
                                                                 rep_qpn))
        # the data: requests to the REP's QPN, answers to the REQ's
        requests = [r for r in rc if r["ip.src"] == a and r["ip.dst"] == b and r["dqp"] == rep_qpn]
        answers = [r for r in rc if r["ip.src"] == b and r["ip.dst"] == a and r["dqp"] == req_qpn]
        if not requests or not answers:
            fail("%s: %d requests to the REP's QPN 0x%x, %d answers to the REQ's QPN 0x%x: expected both" %
                 (name, len(requests), rep_qpn, len(answers), req_qpn))
            continue
        covered.update(r["n"] for r in requests + answers)
        first = min(r["n"] for r in requests)
        last = max(r["n"] for r in requests + answers)
        if not q["n"] < rep["n"] < rtu["n"] < first:
            fail("%s: REQ %d, REP %d, RTU %d, first request %d: expected in that order" %
                 (name, q["n"], rep["n"], rtu["n"], first))
        if not last < dreq["n"] < drep["n"]:
            fail("%s: last data frame %d, DREQ %d, DREP %d: expected in that order" %
                 (name, last, dreq["n"], drep["n"]))
        # A starting PSN is what its sender expects to receive (Linux's
        # CM; samples/softroce/rc_rping_cm.pcap): the REP's is the first
        # request's PSN; the REQ's the responder's own requests' (none).
        spsn = num(f(q, "infiniband.cm.req.startpsn"))
        rpsn = num(f(rep, "infiniband.cm.rep.startpsn"))
        if requests[0]["psn"] != rpsn:
            fail("%s: REP starting PSN 0x%x, the first request's 0x%x" % (name, rpsn, requests[0]["psn"]))
        if spsn == rpsn:
            fail("%s: REQ starting PSN 0x%x equals the REP's: the responder's PSN space is its own" %
                 (name, spsn))
        a0 = answers[0]
        if fl["first_op"] == "read":
            if a0["op"] not in READ_RESP_FIRST_ONLY or a0["psn"] != rpsn:
                fail("%s: the first READ response (opcode 0x%x) PSN 0x%x, not the REP's starting PSN 0x%x" %
                     (name, a0["op"], a0["psn"], rpsn))
        elif a0["op"] != ACK or not 0 <= (a0["psn"] - rpsn) % (1 << 24) < len(requests):
            fail("%s: REP starting PSN 0x%x, first ACK (opcode 0x%x) PSN 0x%x: expected an ACK in the "
                 "requests' PSNs from there" % (name, rpsn, a0["op"], a0["psn"]))
    stray = [r["n"] for r in rc if r["n"] not in covered]
    if stray:
        fail("RC frames %s belong to no connection a REQ and REP announced" % stray[:10])

    # the ground truth marks the same frames, the summary counts them
    truth = [json.loads(line) for line in open(truth_p)]
    tcm = {t["frame"]: t["cm"] for t in truth if t.get("kind") == "cm"}
    got = {r["n"]: r["cm"] for r in cms}
    if tcm != got:
        diff = sorted(set(tcm.items()) ^ set(got.items()))[:6]
        fail("truth marks CM frames %s, tshark decodes %s (first differences %s)" % (len(tcm), len(got), diff))
    summary = json.load(open(summary_p))
    n = sum(fl.get("cm_messages", 0) for fl in summary["flows"])
    if n != len(cms) or summary["total"]["cm_messages"] != len(cms):
        fail("summary: %d CM messages (totals %s), the capture holds %d" %
             (n, summary["total"].get("cm_messages"), len(cms)))
    if fails:
        for m in fails:
            print("FAIL: " + m, file=sys.stderr)
        return 1
    print("ok: %d connections, %d CM messages, %d RC frames all on announced QPs" % (len(reqs), len(cms), len(rc)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
