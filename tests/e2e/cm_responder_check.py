#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks CM with a real responder (test_gen_cm_responder.sh) from what
tshark decodes of the capture taken at the responder, and what the engine
and both summaries say.

usage: cm_responder_check.py CM.tsv REPORT.json RESP.json REQ.json
                             STR.json STR.err ALONE.json ALONE.err AGAIN

CM.tsv      tshark -T fields (header line, tab-separated, first occurrence)
REPORT.json rocewire-cap --report --json of the capture
RESP.json   the --role responder's summary; REQ.json the requester's of
            cm-responder.yaml; STR.json/.err the requester of
            cm-responder-stranger.yaml while the responder ran (REJ),
            ALONE.json/.err the same with nothing answering
AGAIN       1 when the first REQ (QPN 0x131) was sent again at the end

Per connection of cm-responder.yaml (REQ local QPN 0x131, 0x132, 0x141):
REQ, REP, RTU before its first data packet (either way), DREQ, DREP after
its last; the REP's local QPN is the QP the requests go to (dst_qpn + i),
its starting PSN the first request's (a starting PSN is what its sender
expects to receive), its remote comm ID the REQ's local one, its TID the
REQ's; RTU and DREQ echo the REP's comm ID; the DREP answers the DREQ
(TID, IDs echoed). The stranger's REQ (QPN 0x151) gets a REJ per REQ:
reason 8 (Invalid Service ID), message rejected 0 (REQ), its comm ID as
the remote one, its TID; no data goes to it. The engine pairs every RC flow
by CM with nothing unsynced (those that carry packets: the REQ sent again
opens a handshake whose flows carry none).
"""
import csv
import json
import sys

# requester QPN -> (responder QPN, first PSN), from cm-responder.yaml
CONNS = {0x131: (0x231, 0x123456), 0x132: (0x232, 0x124456), 0x141: (0x241, 77)}
STRANGER = 0x151
CM_CLASS = 7
ATTR = {0x10: "REQ", 0x12: "REJ", 0x13: "REP", 0x14: "RTU", 0x15: "DREQ", 0x16: "DREP"}
fails = []


def fail(msg):
    fails.append(msg)


def num(v):
    v = (v or "").split(",")[0]
    return int(v, 0) if v else None


def main():
    tsv, report_p, resp_p, req_p, str_p, str_err, alone_p, alone_err, again = sys.argv[1:10]
    rows = list(csv.DictReader(open(tsv), delimiter="\t"))
    cms, data = [], []
    for r in rows:
        r["n"] = int(r["frame.number"])
        r["op"] = num(r["infiniband.bth.opcode"])
        r["dqp"] = num(r["infiniband.bth.destqp"])
        r["psn"] = num(r["infiniband.bth.psn"])
        if num(r["infiniband.mad.mgmtclass"]) == CM_CLASS:
            r["cm"] = ATTR.get(num(r["infiniband.mad.attributeid"]), "?")
            r["tid"] = num(r["infiniband.mad.transactionid"])
            cms.append(r)
        elif r["op"] is not None and r["op"] < 0x20:
            data.append(r)
    ok = 0
    for lq, (rq, psn0) in sorted(CONNS.items()):
        name = "connection 0x%x" % lq
        reqs = [r for r in cms if r["cm"] == "REQ" and num(r["infiniband.cm.req.localqpn"]) == lq]
        if not reqs:
            fail("%s: no REQ" % name)
            continue
        req = reqs[0]
        lid = num(req["infiniband.cm.req"])
        reps = [r for r in cms if r["cm"] == "REP" and num(r["infiniband.cm.rep.remotecommid"]) == lid]
        if not reps:
            fail("%s: no REP to the REQ of frame %d" % (name, req["n"]))
            continue
        rep = reps[0]
        rid = num(rep["infiniband.cm.rep"])
        if len({(num(r["infiniband.cm.rep.localqpn"]), num(r["infiniband.cm.rep.startpsn"]), rid, r["tid"])
                for r in reps}) != 1 or len({num(r["infiniband.cm.rep"]) for r in reps}) != 1:
            fail("%s: the REPs to a REQ sent again differ" % name)
        if len(reps) > len(reqs):
            fail("%s: %d REPs to %d REQs" % (name, len(reps), len(reqs)))
        if again == "1" and lq == 0x131 and (len(reqs) < 2 or len(reps) != len(reqs) or reps[-1]["n"] < reqs[-1]["n"]):
            fail("%s: the REQ sent again (%d REQs) got %d REPs" % (name, len(reqs), len(reps)))
        rtu = next((r for r in cms if r["cm"] == "RTU" and num(r["infiniband.cm.rtu.localcommid"]) == lid), None)
        dreq = next((r for r in cms if r["cm"] == "DREQ" and num(r["infiniband.cm.dreq.localcommid"]) == lid), None)
        drep = next((r for r in cms if r["cm"] == "DREP" and num(r["infiniband.cm.drsp.remotecommid"]) == lid),
                    None)
        mine = [r for r in data if r["dqp"] in (lq, rq)]
        reqdata = [r for r in data if r["dqp"] == rq]
        if not reqdata:
            fail("%s: no request to QP 0x%x" % (name, rq))
            continue
        if rep["tid"] != req["tid"]:
            fail("%s: REP TID 0x%x, the REQ's 0x%x" % (name, rep["tid"], req["tid"]))
        if num(rep["infiniband.cm.rep.localqpn"]) != rq:
            fail("%s: REP local QPN %s, the requests go to 0x%x" % (name, rep["infiniband.cm.rep.localqpn"], rq))
        if num(rep["infiniband.cm.rep.startpsn"]) != reqdata[0]["psn"] or reqdata[0]["psn"] != psn0:
            fail("%s: REP starting PSN %s, first request PSN %s, the scenario's 0x%x" %
                 (name, rep["infiniband.cm.rep.startpsn"], reqdata[0]["psn"], psn0))
        if rtu is None or num(rtu["infiniband.cm.rtu.remotecommid"]) != rid or rtu["tid"] != req["tid"]:
            fail("%s: no RTU echoing the REP's comm ID 0x%x with the REQ's TID" % (name, rid))
            continue
        if not (req["n"] < rep["n"] < rtu["n"] < mine[0]["n"]):
            fail("%s: REQ %d, REP %d, RTU %d, first data packet %d: out of order" %
                 (name, req["n"], rep["n"], rtu["n"], mine[0]["n"]))
        if dreq is None or drep is None:
            fail("%s: DREQ %s, DREP %s" % (name, dreq and dreq["n"], drep and drep["n"]))
            continue
        if num(dreq["infiniband.cm.dreq.remotecommid"]) != rid or \
                num(dreq["infiniband.cm.req.remoteqpneecn"] or "") not in (None, rq):
            fail("%s: DREQ of frame %d does not name the REP's comm ID" % (name, dreq["n"]))
        if drep["tid"] != dreq["tid"] or num(drep["infiniband.cm.drsp.localcommid"]) != rid:
            fail("%s: DREP of frame %d: TID 0x%x (DREQ 0x%x), local comm ID %s (0x%x)" %
                 (name, drep["n"], drep["tid"], dreq["tid"], drep["infiniband.cm.drsp.localcommid"], rid))
        if not (mine[-1]["n"] < dreq["n"] < drep["n"]):
            fail("%s: last data packet %d, DREQ %d, DREP %d: out of order" %
                 (name, mine[-1]["n"], dreq["n"], drep["n"]))
        ok += 1
    # the stranger: one REJ per REQ, reason 8, IDs and TID echoed, no data
    sreqs = [r for r in cms if r["cm"] == "REQ" and num(r["infiniband.cm.req.localqpn"]) == STRANGER]
    rejs = [r for r in cms if r["cm"] == "REJ"]
    if not sreqs or len(rejs) != len(sreqs):
        fail("stranger: %d REQs, %d REJs" % (len(sreqs), len(rejs)))
    for r in rejs:
        want = sreqs[0] if sreqs else None
        if want is None or num(r["infiniband.cm.rej.reason"]) != 8 or num(r["infiniband.cm.rej.msgrej"]) != 0 or \
                num(r["infiniband.cm.rej.remotecommid"]) != num(want["infiniband.cm.req"]) or \
                num(r["infiniband.cm.rej.localcommid"]) != 0 or r["tid"] != want["tid"] or \
                r["ip.src"] != want["ip.dst"] or r["ip.dst"] != want["ip.src"]:
            fail("stranger: REJ of frame %d: reason %s, message %s, IDs %s/%s, TID 0x%x, %s -> %s" %
                 (r["n"], r["infiniband.cm.rej.reason"], r["infiniband.cm.rej.msgrej"],
                  r["infiniband.cm.rej.localcommid"], r["infiniband.cm.rej.remotecommid"], r["tid"],
                  r["ip.src"], r["ip.dst"]))
    if any(r["dqp"] in (0x251, STRANGER) for r in data):
        fail("stranger: data packets of a connection never made")
    # the summaries
    resp = json.load(open(resp_p))["responder"]
    counts = {k: sum(1 for r in cms if r["cm"] == k) for k in ATTR.values()}
    for key, cm in (("cm_reps", "REP"), ("cm_dreps", "DREP"), ("cm_rejects", "REJ")):
        if resp.get(key) != counts[cm]:
            fail("responder summary: %s %s, the capture holds %d %ss" % (key, resp.get(key), counts[cm], cm))
    req = json.load(open(req_p))
    for f in req["flows"]:
        if f["cm_failed"] or f["qps_failed"] or not f["messages_total"]:
            fail("requester flow %s: %d connections failed, %d QPs failed, %d messages" %
                 (f["name"], f["cm_failed"], f["qps_failed"], f["messages_total"]))
    for what, p, e, sends in (("stranger (REJ)", str_p, str_err, None), ("alone (no REP)", alone_p, alone_err, 16)):
        f = json.load(open(p))["flows"][0]
        line = open(e).read()
        if f["cm_failed"] != 1 or f["qps_failed"] != 1 or f["messages_total"] or \
                (sends and f["cm_request_messages"] != sends) or "stranger: 1 QP failed" not in line:
            fail("%s: cm_failed %d, qps_failed %d, %d messages, %d REQs; stderr %r" %
                 (what, f["cm_failed"], f["qps_failed"], f["messages_total"], f["cm_request_messages"], line))
    # the engine: every RC flow paired by CM, nothing unsynced
    rep = json.load(open(report_p))
    # (the REQ sent again opens a handshake of its own, whose flows carry nothing)
    rc = [q for q in rep["qps"] if q["transport"] == "RC" and q["packets"]]
    if len(rc) != 2 * len(CONNS):
        fail("report: %d RC flows, expected %d" % (len(rc), 2 * len(CONNS)))
    for q in rc:
        if q["pairing"]["how"] != "cm" or q["unsynced_packets"]:
            fail("report: flow %d (QP 0x%06x): pairing %s, %d unsynced packets" %
                 (q["index"], q["dqpn"], q["pairing"]["how"], q["unsynced_packets"]))
    for f in fails:
        print("FAIL: " + f, file=sys.stderr)
    if fails:
        sys.exit(1)
    print("ok: %d connections by CM with a real responder (REQ, REP, RTU, data, DREQ, DREP), %d REJs, "
          "%d RC flows paired by CM" % (ok, len(rejs), len(rc)))


main()
