#!/usr/bin/env python3
"""The closed loop's capture (test_gen_closed_loop.sh): CNPs and rates.

usage: closed_loop_check.py CAPTURE REPORT.json

From closed-loop-ce.yaml: the requester's QPs are 0x101 and 0x102 (to
0x201, 0x202), 2 x 500 Mb/s offered, every request CE-marked; the
responder's notification point sends at most one CNP per QP per 5 ms; the
reaction points' floor is 10 Mb/s per QP. On a shared machine the
responder may be descheduled between deciding a CNP and sending it, so its
pacing is checked as the capture can show it whatever the scheduling: per
QP no more CNPs than the run's length allows (a CNP per CE mark would be
ten times more).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_cc_check as g  # noqa: E402  (its pcap reader)

OFFERED = 1000e6
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
    last = {}
    for t, x in cnp:
        if x[4] not in (0x101, 0x102):
            fails.append("a CNP to QP 0x%x, not one of the requester's" % x[4])
            continue
        last[x[4]] = t
    span = fr[-1][0] - fr[0][0] if fr else 0
    for qpn in (0x101, 0x102):
        n = sum(1 for _, x in cnp if x[4] == qpn)
        if n > span / INTERVAL + 2:
            fails.append("%d CNPs to QP 0x%x in %.3f s: more than one per %d ns" % (n, qpn, span / 1e9, INTERVAL))
    if req:
        t0, t1 = req[0][0], req[-1][0]

        def rate(a, b):
            return sum(ln for t, ln, _ in req if a <= t < b) * 8 / ((b - a) / 1e9)
        # 10 ms: the requester paces on the wall clock and catches up after
        # being descheduled; by then the first CNPs (5 ms apart) cut at most twice
        start = rate(t0, t0 + 10000000)
        end = rate(t1 - 500000000, t1 - 10000000)
        # the first CNP answers the first CE at once, so the first 10 ms are
        # already below the offered rate; the rate must fall from there to
        # the two reaction points' floor (2 x 10 Mb/s)
        if not end < start / 5:
            fails.append("%.0f Mb/s in the first 10 ms, %.0f Mb/s in the last half second: no fall" %
                         (start / 1e6, end / 1e6))
        if end > 2 * 20e6:
            fails.append("%.0f Mb/s in the last half second: the floor of 20 Mb/s expected" % (end / 1e6))
    for m in fails:
        print("FAIL: " + m, file=sys.stderr)
    if fails:
        return 1
    print("ok: %d requests, %d CNPs; %.0f Mb/s at the start, %.1f Mb/s at the end" %
          (len(req), len(cnp), start / 1e6, end / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
