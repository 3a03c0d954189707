#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A NAK nobody answered, on real Soft-RoCE traffic: nak_ignored_pcap.py
makes, from a real rxe loss capture, the capture of a requester that never
resends a NAKed PSN and goes on with new requests; rocewire-cap --report
(text, --json, --html) must flag that NAK as nak_ignored, and nothing where
the capture shows no such thing.

The answers come from tshark's decode, not from rocewire: the NAK is the
PSN-sequence NAK (AETH opcode 3, error code 0) whose PSN no later request
carries; the first new request past the timeout is the first request sent
more than the timeout after it; the timeout is --rto, or the largest time
between a request's first copy and a later one of the same PSN when larger.
Checked on the derived capture at the default timeout and at several --rto
values, on the same capture cut 60 ms after the NAK (the capture ends before
the timer could fire), on a derivation at a later NAK whose new requests
stop sooner than the timeout, and on the original capture (rxe answered
every NAK: nothing is flagged).

usage: nak_ignored_check.py ROCEWIRE_CAP SAMPLE.pcap WORKDIR
"""
import json
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import pcaprec  # noqa: E402

DEFAULT_RTO_NS = 67108864  # 4.096 us x 2^14
REQ_OPCODES = "infiniband.bth.opcode <= 12 || infiniband.bth.opcode == 19 || infiniband.bth.opcode == 20"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def epoch_ns(text):
    s, _, frac = text.partition(".")
    return int(s) * 1000000000 + int((frac + "000000000")[:9])


def tshark(path, filt, fields):
    out = subprocess.run(["tshark", "-n", "-r", path, "-Y", filt, "-T", "fields"] +
                         [a for f in fields for a in ("-e", f)],
                         check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line.strip()]


def truth(path, rto_ns):
    """(NAK frame, first new request frame past the timeout, timeout) by
    tshark; (None, None, timeout) when no NAK is left unanswered with a
    request past the timeout."""
    naks = [(int(f), epoch_ns(t), int(p)) for f, t, p in tshark(
        path, "infiniband.aeth.syndrome.opcode == 3 && infiniband.aeth.syndrome.error_code == 0",
        ["frame.number", "frame.time_epoch", "infiniband.bth.psn"])]
    reqs = [(int(f), epoch_ns(t), int(p)) for f, t, p in tshark(
        path, REQ_OPCODES, ["frame.number", "frame.time_epoch", "infiniband.bth.psn"])]
    first, gap = {}, 0
    for _, t, p in reqs:
        if p in first:
            gap = max(gap, t - first[p])
        else:
            first[p] = t
    rto = max(rto_ns, gap)
    open_naks = [n for n in naks if not any(f > n[0] and p == n[2] for f, _, p in reqs)]
    if len(open_naks) > 1:
        fail("%s: %d NAKs never answered: the derivation should leave one" % (path, len(open_naks)))
    for nf, nt, _ in open_naks:
        past = [f for f, t, _ in reqs if f > nf and t - nt > rto]
        if past:
            return nf, past[0], rto
    return None, None, rto


def cap(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        fail("%s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()[:300]))
    return r.stdout


def check(rwcap, path, label, rto_ns=None, work="."):
    opt = ["--rto", "%dns" % rto_ns] if rto_ns else []
    nak, req, rto = truth(path, rto_ns or DEFAULT_RTO_NS)
    doc = json.loads(cap([rwcap, "-r", path, "--report", "--json"] + opt))
    if abs(doc["rto_us"] - (rto_ns or DEFAULT_RTO_NS) / 1e3) > 1e-6:
        fail("%s: rto_us %r, asked %r ns" % (label, doc["rto_us"], rto_ns or DEFAULT_RTO_NS))
    got = [q["conformance"]["violations"]["nak_ignored"] for q in doc["qps"] if q["conformance"]]
    got = [v for v in got if v["count"]]
    if nak is None:
        if got:
            fail("%s: nak_ignored %r where tshark shows none" % (label, got))
        else:
            print("%s: no NAK ignored (as tshark shows)" % label)
        return
    want = {"count": 1, "frames": [nak], "requests": [req], "rto_us": rto / 1e3}
    if len(got) != 1 or {k: got[0][k] for k in want} != want:
        fail("%s: nak_ignored %r, tshark says %r" % (label, got, want))
        return
    text = cap([rwcap, "-r", path, "--report"] + opt)
    if not re.search(r"\bnak-ignored 1 @%d\b" % nak, text) or \
            ("NAK frame %d never answered, new requests from frame %d " % (nak, req)) not in text:
        fail("%s: the text report does not name NAK frame %d and request frame %d:\n%s" %
             (label, nak, req, "\n".join(l for l in text.splitlines() if "nak" in l.lower())))
    html = os.path.join(work, "report.html")
    cap([rwcap, "-r", path, "-q", "--html", html] + opt)
    with open(html, encoding="utf-8") as f:
        page = f.read()
    if ('data-nak-frame="%d" data-request-frame="%d"' % (nak, req)) not in page or \
            not re.search(r"<td[^>]*>nak-ignored 1 @%d</td>" % nak, page):
        fail("%s: the HTML report does not show NAK frame %d (request %d)" % (label, nak, req))
    print("%s: NAK frame %d ignored, new requests from frame %d past %.3f ms: text, JSON, HTML agree"
          % (label, nak, req, rto / 1e6))


def derive(sample, out, which):
    subprocess.run([sys.executable, os.path.join(HERE, "nak_ignored_pcap.py"), sample, out, str(which)],
                   check=True)


def cut_after(path, out, until_ns):
    head, _, recs = pcaprec.split(path)
    nano = head[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    e = "<" if head[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    with open(out, "wb") as f:
        f.write(head)
        for r in recs:
            s, sub = struct.unpack(e + "II", r[:8])
            if s * 1000000000 + sub * (1 if nano else 1000) <= until_ns:
                f.write(r)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    rwcap, sample, work = sys.argv[1:]
    derived = os.path.join(work, "nak-ignored.pcap")
    derive(sample, derived, 2)
    nak, req, _ = truth(derived, DEFAULT_RTO_NS)
    if nak is None:
        fail("the derived capture has no NAK ignored past the default timeout: the test shows nothing")
    check(rwcap, derived, "derived", work=work)
    for rto in (10000000, 100000000, 200000000, 1000000000):
        check(rwcap, derived, "derived --rto %gms" % (rto / 1e6), rto, work)
    nak_ns = [epoch_ns(t) for f, t in tshark(derived, "frame.number == %d" % nak,
                                               ["frame.number", "frame.time_epoch"])][0]
    cut = os.path.join(work, "nak-ignored-cut.pcap")
    cut_after(derived, cut, nak_ns + 60000000)
    check(rwcap, cut, "derived, cut 60 ms after the NAK")
    late = os.path.join(work, "nak-ignored-late.pcap")
    derive(sample, late, 5)
    check(rwcap, late, "derived at the 5th NAK")
    check(rwcap, sample, "original")
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
