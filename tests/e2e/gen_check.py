#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks one rocewire-gen run against the slow reference and rocewire-cap.

usage: gen_check.py GEN.pcap REF.pcap MODEL.json SUMMARY.json REPORT.json

GEN.pcap      what rocewire-gen sent through DPDK (templates, patched ICRCs)
REF.pcap      rocewire-genmodel's file for the same scenario: every frame
              built whole by proto's builder (ICRC over every byte)
MODEL.json    rocewire-genmodel's per-flow counters and QP numbers
SUMMARY.json  rocewire-gen --summary-json
REPORT.json   rocewire-cap --report --json of GEN.pcap

The TX path must give the reference's bytes frame for frame and the model's
times; rocewire-cap, reading the capture on its own, must count per flow
what the generator's summary says it sent, find every ICRC good but the
corrupted ones, and no gap, resend or incomplete message on a flow with no
fault.
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcaprec  # noqa: E402

fails = []


def fail(msg):
    fails.append(msg)


def times_and_frames(path):
    hdr, lt, recs = pcaprec.split(path)
    if hdr is None:
        fail("%s: not a classic pcap file" % path)
        return [], []
    e = "<" if hdr[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    nano = hdr[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    ts, frames = [], []
    for r in recs:
        sec, frac, incl, orig = struct.unpack(e + "IIII", r[:16])
        ts.append(sec * 10**9 + (frac if nano else frac * 1000))
        frames.append(r[16:16 + incl])
        if incl != orig:
            fail("%s: a record cut to %d of %d bytes" % (path, incl, orig))
    return ts, frames


def roce_fields(f):
    """(IP ECN, BTH opcode, destination QP) of a RoCEv2 frame over IPv4 or
    IPv6 (802.1Q tags skipped), else None."""
    off, et = 14, struct.unpack(">H", f[12:14])[0]
    while et == 0x8100 and len(f) >= off + 4:
        et = struct.unpack(">H", f[off + 2:off + 4])[0]
        off += 4
    if et == 0x0800 and len(f) >= off + 20 and f[off + 9] == 17:
        ecn, l4 = f[off + 1] & 3, off + (f[off] & 15) * 4
    elif et == 0x86DD and len(f) >= off + 40 and f[off + 6] == 17:
        ecn, l4 = (f[off + 1] >> 4) & 3, off + 40
    else:
        return None
    if len(f) < l4 + 20 or struct.unpack(">H", f[l4 + 2:l4 + 4])[0] != 4791:
        return None
    bth = l4 + 8
    return ecn, f[bth], struct.unpack(">I", f[bth + 4:bth + 8])[0] & 0xFFFFFF


def main():
    gen_pcap, ref_pcap, model_p, summary_p, report_p = sys.argv[1:6]
    gt, gf = times_and_frames(gen_pcap)
    rt, rf = times_and_frames(ref_pcap)
    if len(gf) != len(rf):
        fail("%d frames sent, the reference has %d" % (len(gf), len(rf)))
    for i, (a, b) in enumerate(zip(gf, rf)):
        if a != b:
            at = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            fail("frame %d differs from the reference at byte %d (%d vs %d bytes)" %
                 (i + 1, at, len(a), len(b)))
            break
    if gt and rt:
        for i in range(min(len(gt), len(rt))):
            if gt[i] - gt[0] != rt[i] - rt[0]:
                fail("frame %d at %+d ns from the first, the model says %+d" %
                     (i + 1, gt[i] - gt[0], rt[i] - rt[0]))
                break

    model = json.load(open(model_p))["flows"]
    summary = json.load(open(summary_p))
    report = json.load(open(report_p))

    # The summary against the model (same scenario, same seed).
    sflows = {f["name"]: f for f in summary["flows"]}
    for m in model:
        s = sflows.get(m["name"])
        if s is None:
            fail("summary: no flow %s" % m["name"])
            continue
        for sk, mk in (("request_packets", "requests"), ("response_packets", "responses"),
                       ("request_bytes", "request_bytes"), ("response_bytes", "response_bytes"),
                       ("messages_total", "messages"), ("retransmissions", "retransmissions")):
            if s[sk] != m[mk]:
                fail("summary flow %s: %s %d, the model %d" % (m["name"], sk, s[sk], m[mk]))
    if summary["packets"] != len(gf):
        fail("summary: %d packets, the file holds %d" % (summary["packets"], len(gf)))
    if summary["bytes"] != sum(len(f) for f in gf):
        fail("summary: %d bytes, the file holds %d" % (summary["bytes"], sum(len(f) for f in gf)))

    # rocewire-cap on the capture against the summary.
    by_dqpn = {}
    for m in model:
        for q in range(m["qps"]):
            by_dqpn[(m["dst_qpn"] + q) & 0xFFFFFF] = (m["name"], "req")
            if m["transport"] == "rc":
                by_dqpn[(m["src_qpn"] + q) & 0xFFFFFF] = (m["name"], "rsp")
    sums = {}
    rec = {}  # per flow: resent packets and NAKs by kind, as rocewire-cap sees them
    cm = [0, 0]  # CM messages (`cm: true`): UD SENDs to QP 1, of no flow's QPs
    for q in report["qps"]:
        if q["dqpn"] == 1 and any(f.get("cm_messages") for f in summary["flows"]):
            cm[0] += q["packets"]
            cm[1] += q["bytes"]
            continue
        name, side = by_dqpn.get(q["dqpn"], (None, None))
        if name is None:
            fail("rocewire-cap: a flow to QP 0x%x that no scenario flow has" % q["dqpn"])
            continue
        p, b = sums.get((name, side), (0, 0))
        sums[(name, side)] = (p + q["packets"], b + q["bytes"])
        r = rec.setdefault(name, {"retransmissions": 0, "sequence": 0, "rnr": 0, "remote_access": 0})
        r["retransmissions"] += q["retransmissions"]
        r["sequence"] += q["naks"]["psn_seq"]
        r["rnr"] += q["naks"]["rnr"]
        r["remote_access"] += q["naks"]["remote_access"]
        s = sflows[name]
        clean = sum(s["faults"].values()) == 0
        # Through a simulated switch, drops, timeouts and resends are the
        # scenario's point: test_gen_congestion.sh checks those runs.
        if clean and "congestion" in summary and q["icrc_bad"]:
            fail("rocewire-cap: QP 0x%x of flow %s: %d bad ICRCs with no fault" % (q["dqpn"], name, q["icrc_bad"]))
        if "congestion" in summary:
            clean = False
        if clean and (q["psn_gaps"] or q["retransmissions"] or q["incomplete_messages"] or
                      q["orphan_packets"] or q["icrc_bad"] or q["messages_cut_by_capture_end"]):
            fail("rocewire-cap: QP 0x%x of fault-free flow %s: gaps %d, resends %d, incomplete %d, "
                 "orphans %d, bad ICRC %d, cut by the end %d" %
                 (q["dqpn"], name, q["psn_gaps"], q["retransmissions"], q["incomplete_messages"],
                  q["orphan_packets"], q["icrc_bad"], q["messages_cut_by_capture_end"]))
        if q["messages_cut_by_capture_start"] or q["first_seen_mid_message"]:
            fail("rocewire-cap: QP 0x%x of flow %s: the capture starts inside a message" % (q["dqpn"], name))
    want_cm = [sum(f.get("cm_messages", 0) for f in summary["flows"]),
               sum(f.get("cm_bytes", 0) for f in summary["flows"])]
    if cm != want_cm:
        fail("rocewire-cap counts %d packets / %d bytes to QP 1, the summary %d CM messages / %d bytes" %
             (cm[0], cm[1], want_cm[0], want_cm[1]))
    for name, s in sflows.items():
        for side, pk, by in (("req", "request_packets", "request_bytes"),
                             ("rsp", "response_packets", "response_bytes")):
            got = sums.get((name, side), (0, 0))
            if got != (s[pk], s[by]):
                fail("flow %s: rocewire-cap counts %d packets / %d bytes of %s, the summary %d / %d" %
                     (name, got[0], got[1], pk.split("_")[0], s[pk], s[by]))
    # Recoveries: the NAKs the generator says its responders sent are the
    # ones the capture shows, by kind, and so are the resent packets: a
    # resend whose first copy a fault dropped before the capture point is
    # the first copy the capture shows, and rocewire-cap counts it as a
    # resend all the same (its PSN is below the highest the flow had shown).
    # Not through a simulated switch that drops: the generator counts the
    # resends the switch then dropped too, which never reach the capture.
    for name, s in sflows.items():
        r = rec.get(name, {"retransmissions": 0, "sequence": 0, "rnr": 0, "remote_access": 0})
        sw_drops = summary.get("congestion", {}).get("switch_dropped", 0)
        if sw_drops == 0 and r["retransmissions"] != s["retransmissions"]:
            fail("flow %s: rocewire-cap counts %d resent packets, the summary %d" %
                 (name, r["retransmissions"], s["retransmissions"]))
        for k in ("sequence", "rnr", "remote_access"):
            if r[k] != s["naks"][k]:
                fail("flow %s: rocewire-cap counts %d %s NAKs, the summary %d" % (name, r[k], k, s["naks"][k]))
    # CE marks with no notification point (an ecn_mark fault outside a
    # simulated switch): no CNP ever comes, so every CE-marked request is
    # one the pacing allowed a CNP for, and each whose 1 ms window the
    # capture saw to its end is a ce_without_cnp of its flow.
    if "congestion" not in summary and gf:
        end, marks, cnps = gt[-1], {}, 0
        for t, f in zip(gt, gf):
            roce = roce_fields(f)
            if roce is None:
                continue
            ecn, opcode, dqpn = roce
            cnps += opcode == 0x81
            if ecn == 3 and end - t > 1000000:
                marks[dqpn] = marks.get(dqpn, 0) + 1
        for q in report["qps"]:
            if cnps or not q["requests"]:
                continue
            got = ((q["conformance"] or {}).get("violations", {}).get("ce_without_cnp", {})
                   .get("count", 0))
            if got != marks.get(q["dqpn"], 0):
                fail("rocewire-cap: QP 0x%x: %d CE marks without a CNP, the capture shows %d" %
                     (q["dqpn"], got, marks.get(q["dqpn"], 0)))
    corrupt = sum(f["faults"]["corrupt"] for f in summary["flows"])
    if report["icrc"]["bad"] != corrupt:
        fail("rocewire-cap: %d bad ICRCs, %d packets corrupted on purpose" % (report["icrc"]["bad"], corrupt))
    if report["decode_errors"]:
        fail("rocewire-cap: %d decode errors" % report["decode_errors"])

    for m in fails:
        print("FAIL: " + m, file=sys.stderr)
    if fails:
        return 1
    print("ok: %d frames equal the reference; %d flows as the summary says; %d bad ICRCs, all injected" %
          (len(gf), len(sflows), corrupt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
