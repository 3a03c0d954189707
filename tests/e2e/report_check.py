#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares a `rocewire-cap --report --json` document with the truth that
rocewire-mkscenario wrote for the same capture.

usage: report_check.py TRUTH.json REPORT.json

Truth values: a number or string must be equal (reals within 1e-9 relative);
{"min": a, "max": b} is a closed range; {"value": v, "known_bug": why} is an
expectation known to fail because of a bug elsewhere: it is listed as an
expected failure, and becomes an error once it passes (so the marker is
removed when the bug is fixed). "peer_of": QPN says the flow is paired with
the flow that has the reversed addresses and that destination QP. A truth
flow with "conversation" N (a QP number reused) matches the report's flow of
that key and conversation.
Exit status 0 when everything matches, 1 otherwise."""
import json
import sys

MISSING = object()


def fmt(v):
    return "missing" if v is MISSING else json.dumps(v)


def same(exp, got):
    if got is MISSING or isinstance(got, bool) != isinstance(exp, bool):
        return False
    if isinstance(exp, float) or isinstance(got, float):
        if not isinstance(got, (int, float)) or not isinstance(exp, (int, float)):
            return False
        return abs(got - exp) <= 1e-9 * max(1.0, abs(exp))
    return exp == got


def check(path, exp, got, errs, xfails, count):
    if isinstance(exp, dict) and "known_bug" in exp:
        count[0] += 1
        ok = check_quiet(exp["value"], got)
        if ok:
            errs.append("%s: %s matches now, but it is marked as a known bug (%s): remove the "
                        "marker" % (path, fmt(got), exp["known_bug"]))
        else:
            xfails.append("%s: %s, truth %s: known bug: %s"
                          % (path, fmt(got), fmt(exp["value"]), exp["known_bug"]))
        return
    if isinstance(exp, dict) and set(exp) == {"min", "max"}:
        count[0] += 1
        if got is MISSING or isinstance(got, bool) or not isinstance(got, (int, float)) \
                or not exp["min"] <= got <= exp["max"]:
            errs.append("%s: %s, truth between %s and %s" % (path, fmt(got), exp["min"], exp["max"]))
        return
    if isinstance(exp, dict):
        if not isinstance(got, dict):
            count[0] += 1
            errs.append("%s: %s, truth an object" % (path, fmt(got)))
            return
        for k, v in exp.items():
            check("%s.%s" % (path, k), v, got.get(k, MISSING), errs, xfails, count)
        return
    count[0] += 1
    if not same(exp, got):
        errs.append("%s: %s, truth %s" % (path, fmt(got), fmt(exp)))


def check_quiet(exp, got):
    errs, xf, n = [], [], [0]
    check("", exp, got, errs, xf, n)
    return not errs and not xf


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        truth = json.load(f)
    try:
        with open(sys.argv[2]) as f:
            rep = json.load(f)
    except ValueError as e:
        print("%s: not JSON: %s" % (sys.argv[2], e))
        return 1
    name = truth.get("scenario", sys.argv[1])
    errs, xfails, count = [], [], [0]
    check(name, truth.get("expect", {}), rep, errs, xfails, count)
    qps = rep.get("qps", [])
    for q in truth.get("qps", []):
        conv = q.get("conversation", 1)
        key = "%s %s>%s qp %#x" % (name, q["src"], q["dst"], q["dqpn"])
        if conv != 1:
            key += " (conversation %d)" % conv
        found = [r for r in qps if r.get("src") == q["src"] and r.get("dst") == q["dst"]
                 and r.get("dqpn") == q["dqpn"] and r.get("conversation", 1) == conv]
        if len(found) != 1:
            errs.append("%s: %d flows in the report, truth 1" % (key, len(found)))
            continue
        exp = dict(q["expect"])
        peer_of = exp.pop("peer_of", None)
        check(key, exp, found[0], errs, xfails, count)
        if peer_of is not None:
            count[0] += 1
            other = [r for r in qps if r.get("src") == q["dst"] and r.get("dst") == q["src"]
                     and r.get("dqpn") == peer_of and r.get("conversation", 1) == conv]
            if len(other) != 1 or found[0].get("peer") != other[0].get("index"):
                errs.append("%s: peer %s, truth the flow to QP %#x (index %s)"
                            % (key, fmt(found[0].get("peer", MISSING)), peer_of,
                               other[0].get("index") if len(other) == 1 else "?"))
    for e in errs:
        print("MISMATCH " + e)
    for x in xfails:
        print("XFAIL " + x)
    print("%s: %d checks, %d mismatches, %d expected failures"
          % (name, count[0], len(errs), len(xfails)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
