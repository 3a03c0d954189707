#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""rocewire-cap --counters-before/--counters-after on real Soft-RoCE captures
(samples/softroce) with snapshots made here: each counter's "after" is its
"before" plus the figure tshark's own dissector gives for the same event on
that host (packets sent and received, CE marks, CNPs, PSN-sequence and RNR
NAKs each way), so rocewire-cap must say "agree"; a counter set off by a
known amount must say capture_fewer or nic_fewer with exactly those numbers.
Every snapshot form (sysfs, plain, rdma statistic, ethtool) and the rxe,
mlx5, irdma and bnxt_re tables are used, and the bad inputs must end in one
line and exit 2 (or a per-counter not_comparable).

usage: counters_softroce.py ROCEWIRE_CAP SAMPLES_DIR"""
import json
import os
import subprocess
import sys
import tempfile

CAP, SAMPLES = sys.argv[1], sys.argv[2]
REQ, RSP = "192.0.2.2", "192.0.2.1"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def tshark_figures(pcap, host):
    """The figures for host, from tshark's InfiniBand dissector alone."""
    out = subprocess.run(
        ["tshark", "-r", pcap, "-Y", "infiniband", "-T", "fields", "-e", "ip.src", "-e", "ip.dst",
         "-e", "infiniband.bth.opcode", "-e", "infiniband.aeth.syndrome", "-e", "ip.dsfield.ecn",
         "-e", "infiniband.bth.psn", "-e", "infiniband.bth.destqp"],
        check=True, capture_output=True, text=True).stdout
    f = dict.fromkeys(["sent", "rcvd", "ce_rcvd", "cnp_sent", "cnp_rcvd", "seq_sent", "seq_rcvd",
                       "seq_rcvd_adv", "rnr_sent", "rnr_rcvd"], 0)
    first_req = {}  # (requester, responder) -> first request PSN
    comp = {}       # response flow -> the requester completer's PSN (rxe's comp.psn)

    def after(a, b):
        d = (a - b) & 0xFFFFFF
        return 0 < d < 0x800000

    for line in out.splitlines():
        src, dst, op, syn, ecn, psn, dqp = (line.split("\t") + [""] * 7)[:7]
        psn = int(psn, 0) if psn else 0
        opn = int(op) if op else -1
        # responses: the RC ACK 17, READ responses 13-16, atomic ACK 18 (IBA Table 38)
        if opn in (13, 14, 15, 16, 17, 18):
            key = (src, dst, dqp)
            nak = syn and int(syn, 0) == 0x60
            if not nak:
                nxt = (psn + 1) & 0xFFFFFF
                if key not in comp or after(nxt, comp[key]):
                    comp[key] = nxt
            else:
                base = comp.get(key, first_req.get((dst, src)))
                if base is None or after(psn, base):
                    f["seq_rcvd_adv"] += dst == host
                    comp[key] = psn
        elif 0 <= opn < 0x20:
            first_req.setdefault((src, dst), psn)
        syn = int(syn, 0) if syn else None
        seq = syn is not None and syn == 0x60        # NAK, code 0: PSN sequence error (IBA 9.7.5.2.4)
        rnr = syn is not None and (syn >> 5) == 1    # RNR NAK
        cnp = op == "129"
        if src == host:
            f["sent"] += 1
            f["cnp_sent"] += cnp
            f["seq_sent"] += seq
            f["rnr_sent"] += rnr
        if dst == host:
            f["rcvd"] += 1
            f["ce_rcvd"] += ecn == "3"
            f["cnp_rcvd"] += cnp
            f["seq_rcvd"] += seq
            f["rnr_rcvd"] += rnr
    return f


def write_snapshot(path, form, counters, dev="rxe0"):
    with open(path, "w") as fh:
        if form == "sysfs":
            for k, v in counters.items():
                fh.write("/sys/class/infiniband/%s/ports/1/hw_counters/%s:%d\n" % (dev, k, v))
            fh.write("/sys/class/infiniband/%s/ports/1/hw_counters/lifespan:10\n" % dev)
        elif form == "plain":
            for k, v in counters.items():
                fh.write("%s %d\n" % (k, v))
        elif form == "rdma":
            items = list(counters.items())
            fh.write("link %s/1 " % dev + " ".join("%s %d" % kv for kv in items[:3]) + "\n")
            if items[3:]:
                fh.write("    " + " ".join("%s %d" % kv for kv in items[3:]) + "\n")
        elif form == "ethtool":
            fh.write("NIC statistics:\n")
            for k, v in counters.items():
                fh.write("     %s: %d\n" % (k, v))


def run(pcap, before, after, host=None, expect_rc=(0, 1)):
    cmd = [CAP, "-r", pcap, "--report", "--json", "--counters-before", before, "--counters-after", after]
    if host:
        cmd += ["--counters-host", host]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in expect_rc:
        fail("%s: exit %d: %s" % (" ".join(cmd[1:]), p.returncode, p.stderr.strip()[:300]))
        return None
    return json.loads(p.stdout)


def verdicts(doc):
    return {e["counter"]: (e["nic"], e["capture"], e["verdict"]) for e in doc["nic_counters"]}


def case(name, pcap, host, form, vendor, want, dev="rxe0"):
    """want: counter -> (delta, expected capture figure or None, verdict)."""
    with tempfile.TemporaryDirectory() as d:
        base = {k: 1000 + 17 * i for i, k in enumerate(want)}
        after = {k: base[k] + want[k][0] for k in want}
        b, a = os.path.join(d, "before"), os.path.join(d, "after")
        write_snapshot(b, form, base, dev)
        write_snapshot(a, form, after, dev)
        doc = run(pcap, b, a, host)
        if doc is None:
            return
        src = doc["nic_counters_source"]
        if src["vendor"] != vendor or src["host"] != host or src["before"]["format"] != form:
            fail("%s: source %s" % (name, src))
        got = verdicts(doc)
        for k, (delta, capf, verdict) in want.items():
            if got.get(k) != (delta, capf, verdict):
                fail("%s: %s is %s, expected %s" % (name, k, got.get(k), (delta, capf, verdict)))
        if not failures:
            print("ok %s (%d counters)" % (name, len(want)))


def main():
    loss = os.path.join(SAMPLES, "rc_write_loss.pcap")
    ecn = os.path.join(SAMPLES, "rc_write_ecn.pcap")
    rnr = os.path.join(SAMPLES, "rc_rnr.pcap")
    for p in (loss, ecn, rnr):
        if not os.path.exists(p):
            print("SKIP: %s is missing" % p)
            sys.exit(77)

    t = tshark_figures(loss, REQ)
    if t["seq_rcvd"] == 0 or t["sent"] == 0 or not 0 < t["seq_rcvd_adv"] < t["seq_rcvd"]:
        fail("tshark sees no NAK or packet in %s, or every NAK moves the PSN on: %s" % (loss, t))
    nc = "not_comparable"
    # the requester's rxe, sysfs: its sent_pkts 3 above the wire (netem's
    # drops, say), the rest as tshark counts them
    case("rxe requester sysfs", loss, REQ, "sysfs", "rxe", {
        "sent_pkts": (t["sent"] + 3, t["sent"], "capture_fewer"),
        "rcvd_pkts": (t["rcvd"], t["rcvd"], "agree"),
        "rcvd_seq_err": (t["seq_rcvd_adv"], t["seq_rcvd_adv"], "agree"),
        "out_of_seq_request": (t["seq_sent"], t["seq_sent"], "agree"),
        "rcvd_rnr_err": (t["rnr_rcvd"], t["rnr_rcvd"], "agree"),
        "duplicate_request": (2, None, nc),
        "rdma_sends": (32, None, nc),
    })
    r = tshark_figures(loss, RSP)
    case("rxe responder rdma", loss, RSP, "rdma", "rxe", {
        "sent_pkts": (r["sent"], r["sent"], "agree"),
        "rcvd_pkts": (r["rcvd"] - 1, r["rcvd"], "nic_fewer"),
        "out_of_seq_request": (r["seq_sent"], r["seq_sent"], "agree"),
        "rcvd_seq_err": (r["seq_rcvd_adv"], r["seq_rcvd_adv"], "agree"),
        "send_rnr_err": (0, 0, "agree"),
    })
    n = tshark_figures(rnr, RSP)
    q = tshark_figures(rnr, REQ)
    if n["rnr_sent"] == 0:
        fail("tshark sees no RNR NAK in %s" % rnr)
    case("rxe rnr responder plain", rnr, RSP, "plain", "rxe", {
        "send_rnr_err": (n["rnr_sent"], n["rnr_sent"], "agree"),
        "out_of_seq_request": (n["seq_sent"], n["seq_sent"], "agree"),
        "sent_pkts": (n["sent"], n["sent"], "agree"),
    })
    case("rxe rnr requester plain", rnr, REQ, "plain", "rxe", {
        "rcvd_rnr_err": (q["rnr_rcvd"], q["rnr_rcvd"], "agree"),
        "rcvd_seq_err": (q["seq_rcvd_adv"], q["seq_rcvd_adv"], "agree"),
        "retry_rnr_exceeded_err": (1, None, nc),
    })
    e = tshark_figures(ecn, RSP)
    if e["ce_rcvd"] == 0:
        fail("tshark sees no CE mark in %s" % ecn)
    case("mlx5 responder sysfs", ecn, RSP, "sysfs", "mlx5", {
        "np_ecn_marked_roce_packets": (e["ce_rcvd"], e["ce_rcvd"], "agree"),
        "np_cnp_sent": (e["cnp_sent"], e["cnp_sent"], "agree"),
        "rp_cnp_handled": (e["cnp_rcvd"], e["cnp_rcvd"], "agree"),
        "packet_seq_err": (e["seq_rcvd"], e["seq_rcvd"], "agree"),
        "out_of_sequence": (0, None, nc),
    }, dev="mlx5_0")
    case("mlx5 ethtool", ecn, RSP, "ethtool", "mlx5", {
        "rx_vport_rdma_unicast_packets": (e["rcvd"], e["rcvd"], "agree"),
        "tx_vport_rdma_unicast_packets": (e["sent"], e["sent"], "agree"),
        "rx_prio3_pause": (0, 0, "agree"),   # the capture has no PFC frame
        "tx_prio3_pause": (0, None, nc),
    })
    case("irdma plain", ecn, RSP, "plain", "irdma", {
        "RxECNMrkd": (e["ce_rcvd"] + 2, e["ce_rcvd"], "capture_fewer"),
        "cnpSent": (e["cnp_sent"], e["cnp_sent"], "agree"),
        "RNR sent": (0, 0, "agree"),
    })
    case("bnxt_re sysfs", loss, REQ, "sysfs", "bnxt_re", {
        "seq_err_naks_rcvd": (t["seq_rcvd"], t["seq_rcvd"], "agree"),
        "rx_ecn_marked_pkts": (0, 0, "agree"),
        "tx_cnp_pkts": (0, 0, "agree"),
    }, dev="bnxt_re0")

    # the default host: the one that sent or received most packets
    with tempfile.TemporaryDirectory() as d:
        b, a = os.path.join(d, "b"), os.path.join(d, "a")
        write_snapshot(b, "plain", {"sent_pkts": 5, "rcvd_pkts": 9, "rcvd_seq_err": 4})
        write_snapshot(a, "plain", {"sent_pkts": 3, "rcvd_pkts": 9, "weird_one": 4})
        doc = run(loss, b, a)
        busiest = REQ if t["sent"] + t["rcvd"] >= r["sent"] + r["rcvd"] else RSP
        if doc and (doc["nic_counters_source"]["host"] != busiest or
                    doc["nic_counters_source"]["host_chosen"] != "busiest"):
            fail("default host: %s, expected %s" % (doc["nic_counters_source"], busiest))
        # reset counter, counter gone, counter new: per-counter, no crash
        if doc:
            g = verdicts(doc)
            if g.get("sent_pkts", (0, 0, ""))[2] != nc or g.get("rcvd_seq_err", (0, 0, ""))[2] != nc:
                fail("backwards / missing counters: %s" % g)
            reasons = {e["counter"]: e.get("reason", "") for e in doc["nic_counters"]}
            if "backwards" not in reasons.get("sent_pkts", "") or "after" not in reasons.get("rcvd_seq_err", ""):
                fail("reasons: %s" % reasons)
            un = {e["counter"]: e for e in doc["nic_counters_unmapped"]}
            if "weird_one" not in un or un["weird_one"]["nic"] is not None:
                fail("unmapped: %s" % doc["nic_counters_unmapped"])

        # bad inputs: one line on stderr, exit 2, no report
        bad = os.path.join(d, "bad")
        with open(bad, "w") as fh:
            fh.write("sent_pkts 12\nrcvd_pkts lots\n")
        for args, words in (
            (["--counters-before", os.path.join(d, "nope"), "--counters-after", a], "cannot read"),
            (["--counters-before", bad, "--counters-after", a], "bad:2:"),
            (["--counters-before", b], "--counters-after"),
            (["--counters-before", b, "--counters-after", a, "--counters-host", "not-an-ip"], "not an IPv4"),
        ):
            p = subprocess.run([CAP, "-r", loss, "--report"] + args, capture_output=True, text=True)
            lines = p.stderr.strip().splitlines()
            if p.returncode != 2 or not lines or words not in lines[0] or p.stdout:
                fail("bad input %s: exit %d, stderr %r" % (args, p.returncode, p.stderr[:200]))
        p = subprocess.run([CAP, "-r", loss, "--counters-before", b, "--counters-after", a],
                           capture_output=True, text=True)
        if p.returncode != 2 or "--report" not in p.stderr:
            fail("--counters-* without --report: exit %d %r" % (p.returncode, p.stderr[:200]))
        # the text report's section
        p = subprocess.run([CAP, "-r", loss, "--report", "--counters-before", b, "--counters-after", a,
                            "--counters-host", RSP], capture_output=True, text=True)
        if "NIC counters (rxe) of 192.0.2.1" not in p.stdout or "not mapped: weird_one" not in p.stdout:
            fail("text report: %r" % p.stdout[-600:])
        # the HTML page's card: the same rows
        page = os.path.join(d, "r.html")
        p = subprocess.run([CAP, "-r", loss, "--html", page, "--counters-before", b, "--counters-after", a,
                            "--counters-host", RSP], capture_output=True, text=True)
        text = open(page).read() if p.returncode in (0, 1) and os.path.exists(page) else ""
        if ('<table id="nic_counters">' not in text or
                "<tr><td>rcvd_pkts</td><td class=\"r\">0</td><td class=\"r\">%d</td><td>nic_fewer</td>" % r["rcvd"]
                not in text):
            fail("HTML card: exit %d %r" % (p.returncode, text[text.find("NIC counters"):][:400]))
    if failures:
        sys.exit(1)
    print("all counter cases agree with tshark")


main()
