#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The per-QP report on real Soft-RoCE captures, checked against truths from
outside rocewire: the endpoints' own records (libibverbs completions) and
Wireshark's dissector (tshark counts AETH syndromes and ECN marks).

usage: report_softroce.py ROCEWIRE_CAP SAMPLES_DIR
"""
import json
import os
import subprocess
import sys

cap, samples = sys.argv[1], sys.argv[2]
failures = 0
checks = 0


def check(what, got, want):
    global failures, checks
    checks += 1
    if got != want:
        failures += 1
        print("MISMATCH %s: report %r, truth %r" % (what, got, want))


def report(pcap):
    out = subprocess.run([cap, "-r", pcap, "--report", "--json"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit("rocewire-cap failed on %s: %s" % (pcap, out.stderr.strip()))
    return json.loads(out.stdout)


def tshark_count(pcap, flt):
    out = subprocess.run(["tshark", "-n", "-r", pcap, "-Y", flt, "-T", "fields", "-e", "frame.number"],
                         capture_output=True, text=True, check=True)
    return len([l for l in out.stdout.splitlines() if l.strip()])


def ip_of_gid(gid):
    return gid.rsplit(":", 1)[1] if gid.startswith("::ffff:") else gid


OPS = {"SEND": "send", "SEND_IMM": "send", "WRITE": "write", "WRITE_IMM": "write",
       "READ": "read", "CAS": "atomic", "FADD": "atomic"}

names = sorted(f[:-len(".client.json")] for f in os.listdir(samples) if f.endswith(".client.json"))
for name in names:
    pcap = os.path.join(samples, name + ".pcap")
    rec = json.load(open(os.path.join(samples, name + ".client.json")))
    rep = report(pcap)
    src, dst = ip_of_gid(rec["gid"]["local"]), ip_of_gid(rec["gid"]["remote"])
    flows = {(q["src"], q["dst"], q["dqpn"]): q for q in rep["qps"]}
    check("%s icrc bad" % name, rep["icrc"]["bad"], 0)
    for qp in rec["qp"]:
        key = (src, dst, qp["remote_qpn"])
        if rec["run"]["transport"] == "UD":
            continue  # UD flows are keyed by the shared destination QP
        f = flows.get(key)
        if f is None:
            check("%s qp %d flow present" % (name, qp["remote_qpn"]), None, "present")
            continue
        for op, o in qp["ops"].items():
            kind = OPS[op]
            # The requester's completions are the truth of what the
            # responder assembled when nothing failed.
            if qp["completions"]["error"] == 0:
                check("%s qp %d %s messages" % (name, qp["remote_qpn"], kind),
                      f["msgs_by_op"][kind], o["completed"])
                if kind != "atomic":
                    check("%s qp %d %s bytes" % (name, qp["remote_qpn"], kind),
                          f["bytes_by_op"][kind], o["completed_bytes"])
    naks = {k: sum(q["naks"][k] for q in rep["qps"]) for k in rep["qps"][0]["naks"]}
    # AETH syndrome 0x60: NAK, PSN sequence error; 0x62 remote access
    # error; 0x20-0x3f RNR NAK (IBA 9.7.5.2.2), as Wireshark reads them.
    check("%s NAK psn_seq" % name, naks["psn_seq"], tshark_count(pcap, "infiniband.aeth.syndrome == 0x60"))
    check("%s NAK remote_access" % name, naks["remote_access"],
          tshark_count(pcap, "infiniband.aeth.syndrome == 0x62"))
    check("%s RNR NAK" % name, naks["rnr"],
          tshark_count(pcap, "infiniband.aeth.syndrome >= 0x20 && infiniband.aeth.syndrome <= 0x3f"))
    ce = sum(q["ecn"]["ce"] for q in rep["qps"])
    check("%s CE" % name, ce, tshark_count(pcap, "ip.dsfield.ecn == 3 && udp.dstport == 4791"))
    if name.endswith("_loss"):
        req = flows[(src, dst, rec["qp"][0]["remote_qpn"])]
        checks += 1
        if not (req["retransmissions"] > 0 and req["gbn_episodes"] >= naks["psn_seq"] > 0):
            failures += 1
            print("MISMATCH %s: a lossy run shows no go-back-N: %r" % (name, req))

print("%d checks, %d mismatches over %d captures" % (checks, failures, len(names)))
sys.exit(1 if failures else 0)
