#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The closed loop's capture (test_gen_closed_loop.sh): marks, CNPs, rates.

usage: closed_loop_check.py CAPTURE REPORT.json

From closed-loop.yaml: an incast of the requester's QPs 0x101-0x104 (to
0x201-0x204), 4 x 125 Mb/s of ECT(0) offered; a kernel program marks CE on a
100 Mb/s phantom queue; the responder's notification point sends at most
one CNP per QP per 5 ms; the reaction points' floor is 10 Mb/s per QP. On a
shared machine the responder may be descheduled between deciding a CNP and
sending it, so its pacing is checked as the capture can show it whatever
the scheduling: per QP no more CNPs than the run's length allows (a CNP per
CE mark would be many more).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_cc_check as g  # noqa: E402  (its pcap reader)

OFFERED = 500e6
PHANTOM = 100e6
QPS = (0x101, 0x102, 0x103, 0x104)
INTERVAL = 5000000


def main():
    fr = g.frames(sys.argv[1])
    rep = json.load(open(sys.argv[2]))
    fails = list(g.fails)
    req = [(t, ln, x) for t, ln, _, k, x in fr if k == "roce" and x[3] != g.CNP]
    cnp = [(t, x) for t, _, _, k, x in fr if k == "roce" and x[3] == g.CNP]
    if len(req) < 100 or not cnp:
        fails.append("%d requests and %d CNPs captured: both expected" % (len(req), len(cnp)))
    if rep["icrc"]["bad"]:
        fails.append("%d bad ICRCs in the capture" % rep["icrc"]["bad"])
    # the responder acknowledges as an RC responder: every request flow is
    # paired with its ACK flow by rocewire-cap, with ACK latencies
    for q in rep["qps"]:
        if q["requests"] and q["dqpn"] in (0x201, 0x202, 0x203, 0x204):
            if q["acks"] == 0 or q["peer"] is None:
                fails.append("flow to QP 0x%x: %d ACKs, peer %s: the responder's ACKs expected" %
                             (q["dqpn"], q["acks"], q["peer"]))
    last = {}
    for t, x in cnp:
        if x[4] not in QPS:
            fails.append("a CNP to QP 0x%x, not one of the requester's" % x[4])
            continue
        last[x[4]] = t
    span = fr[-1][0] - fr[0][0] if fr else 0
    for qpn in QPS:
        n = sum(1 for _, x in cnp if x[4] == qpn)
        if n > span / INTERVAL + 2:
            fails.append("%d CNPs to QP 0x%x in %.3f s: more than one per %d ns" % (n, qpn, span / 1e9, INTERVAL))
    if req:
        t0, t1 = req[0][0], req[-1][0]

        def rate(a, b):
            return sum(ln for t, ln, _ in req if a <= t < b) * 8 / ((b - a) / 1e9)
        # 10 ms: the requester paces on the wall clock and catches up after
        # being descheduled; by then the first CNPs (5 ms apart) cut at most twice
        # the busiest 10 ms of the first 200 ms (the sender's start-up may
        # trickle on a loaded machine)
        start = max(rate(t0 + i * 10000000, t0 + (i + 1) * 10000000) for i in range(20))
        end = rate(t1 - 500000000, t1 - 10000000)
        # the first 10 ms are sent near the offered rate (the first marks
        # need the phantom queue to fill); then the rate falls to around
        # the phantom queue's drain rate, neither stuck above it nor
        # collapsed to the reaction points' floor
        if start < 2 * PHANTOM:
            fails.append("%.0f Mb/s at most in the first 200 ms: near the offered %.0f Mb/s expected" %
                         (start / 1e6, OFFERED / 1e6))
        if not 0.3 * PHANTOM <= end <= 1.5 * PHANTOM:
            fails.append("%.0f Mb/s in the last half second: around the phantom queue's %.0f Mb/s expected" %
                         (end / 1e6, PHANTOM / 1e6))
        ce = sum(1 for t, ln, x in req if x[2] == 3)
        if ce == 0:
            fails.append("no CE mark in the capture: the kernel's marker never marked")
    for m in fails:
        print("FAIL: " + m, file=sys.stderr)
    if fails:
        return 1
    print("ok: %d requests (%d CE), %d CNPs; %.0f Mb/s at the start, %.1f Mb/s in the last half second" %
          (len(req), ce, len(cnp), start / 1e6, end / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
