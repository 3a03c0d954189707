#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_counters.py --cap ROCEWIRE_CAP DIR NAME: rxe's own counters against
the capture of the same run.

counters_snapshot (guest/lib.sh) read each rxe device's hw_counters before the
capture started and after it stopped, in two forms (`grep .` of sysfs and
`rdma statistic show link DEV/1`). For each device -- rxe0 is 192.0.2.1 (the
responder), rxe1 192.0.2.2 (the requester) -- and each form, `rocewire-cap
--report --json --counters-before --counters-after --counters-host` must:

- parse both forms to the same changes, detect "rxe", find the host;
- say "agree" for every counter that rxe and the capture both see, with one
  exception accounted for exactly: netem sits on the requester's egress
  (veth1), in front of the capture point (veth0), so every packet it dropped
  was counted in rxe1's sent_pkts but never captured. rxe1's sent_pkts must
  exceed the capture by exactly netem's drops: its "dropped" counter
  (NAME.qdisc.txt) minus the packets it marked CE instead (netem counts an
  ECN mark as a drop; the marks are the requester's CE packets in the
  capture, counted here from the pcap);
- give not_comparable only for counters whose event is not on the wire
  (figure "none"), never for a counter missing or going backwards;
- show traffic: sent_pkts and rcvd_pkts moved on both devices, and with netem
  loss the sequence NAKs moved (out_of_seq_request on rxe0).
"""
import argparse
import json
import os
import struct
import subprocess
import sys

HOSTS = {"rxe0": "192.0.2.1", "rxe1": "192.0.2.2"}
failed = False


def fail(msg):
    global failed
    failed = True
    print("FAIL " + msg)


def note(msg):
    print("ok   " + msg)


def ce_from(pcap, src):
    """IPv4 packets from src with ECN CE, from the pcap (Ethernet, maybe VLAN)."""
    with open(pcap, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    off, n = 24, 0
    want = bytes(int(x) for x in src.split("."))
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(endian + "IIII", data[off:off + 16])
        pkt = data[off + 16:off + 16 + incl]
        off += 16 + incl
        l3, et = 14, pkt[12:14]
        while et == b"\x81\x00":
            et = pkt[l3 + 2:l3 + 4]
            l3 += 4
        if et == b"\x08\x00" and len(pkt) >= l3 + 20 and pkt[l3 + 12:l3 + 16] == want:
            n += (pkt[l3 + 1] & 3) == 3
    return n


def netem_dropped(path):
    """netem's "dropped" counter (drops and ECN marks) in NAME.qdisc.txt."""
    with open(path) as f:
        lines = f.read().splitlines()
    for i, l in enumerate(lines):
        if "qdisc netem" in l:
            for m in lines[i + 1:i + 3]:
                if " Sent " in m and "dropped" in m:
                    return int(m.split("dropped")[1].split(",")[0])
    return None


def run(cap, pcap, before, after, host):
    p = subprocess.run([cap, "-r", pcap, "--report", "--json", "--counters-before", before,
                        "--counters-after", after] + (["--counters-host", host] if host else []),
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        fail("rocewire-cap exited %d: %s" % (p.returncode, p.stderr.strip()[:300]))
        return None
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap", required=True)
    ap.add_argument("dir")
    ap.add_argument("name")
    a = ap.parse_args()
    base = os.path.join(a.dir, a.name)
    pcap = base + ".pcap"
    if not os.path.exists(base + ".counters-before.rxe0.txt"):
        fail("%s: no counter snapshots (%s.counters-before.rxe0.txt)" % (a.name, base))
        sys.exit(1)
    drops = None
    if os.path.exists(base + ".qdisc.txt"):
        dropped = netem_dropped(base + ".qdisc.txt")
        marks = ce_from(pcap, HOSTS["rxe1"])
        if dropped is None:
            fail("%s: no netem counters in %s.qdisc.txt" % (a.name, a.name))
        else:
            drops = dropped - marks
            note("%s: netem dropped %d of the requester's packets (its counter %d minus %d CE marks)"
                 % (a.name, drops, dropped, marks))
    for dev, host in sorted(HOSTS.items()):
        seen = {}
        for form, stem in (("sysfs", "counters"), ("rdma", "rdma")):
            b = "%s.%s-before.%s.txt" % (base, stem, dev)
            f = "%s.%s-after.%s.txt" % (base, stem, dev)
            doc = run(a.cap, pcap, b, f, host)
            if doc is None:
                continue
            src = doc["nic_counters_source"]
            if src["vendor"] != "rxe" or src["host"] != host or src["before"]["format"] != form:
                fail("%s %s %s: source %s" % (a.name, dev, form, src))
            rows = {e["counter"]: e for e in doc["nic_counters"]}
            seen[form] = {k: e["nic"] for k, e in rows.items()}
            for k, e in rows.items():
                if e["verdict"] == "not_comparable":
                    if e["figure"] != "none":
                        fail("%s %s %s: %s not comparable: %s" % (a.name, dev, form, k, e.get("reason")))
                    continue
                if dev == "rxe1" and k == "sent_pkts" and drops is not None:
                    if e["nic"] != e["capture"] + drops:
                        fail("%s %s %s: sent_pkts %d, capture %d + netem drops %d"
                             % (a.name, dev, form, e["nic"], e["capture"], drops))
                    else:
                        note("%s %s %s: sent_pkts %d = capture %d + netem's %d drops"
                             % (a.name, dev, form, e["nic"], e["capture"], drops))
                    continue
                if e["verdict"] != "agree":
                    fail("%s %s %s: %s: NIC %s, capture %s (%s)" % (a.name, dev, form, k, e["nic"],
                                                                   e["capture"], e["verdict"]))
                else:
                    note("%s %s %s: %s %d agrees" % (a.name, dev, form, k, e["nic"]))
            for k in ("sent_pkts", "rcvd_pkts"):
                if not rows.get(k) or not rows[k]["nic"]:
                    fail("%s %s %s: %s did not move" % (a.name, dev, form, k))
            if drops and dev == "rxe0" and not (rows.get("out_of_seq_request") or {}).get("nic"):
                fail("%s %s %s: netem dropped packets but out_of_seq_request did not move" % (a.name, dev, form))
        # without --counters-host: the busiest host is a coin toss between
        # the two peers; when it is the other one, the report must name this
        # device's host as the one the counters fit
        doc = run(a.cap, pcap, "%s.counters-before.%s.txt" % (base, dev), "%s.counters-after.%s.txt" % (base, dev),
                  None)
        if doc is not None:
            src = doc["nic_counters_source"]
            if src["host_chosen"] != "busiest":
                fail("%s %s: host_chosen %s without --counters-host" % (a.name, dev, src["host_chosen"]))
            elif src["host"] == host and "better_host" in src:
                fail("%s %s: the right host, yet better_host %s" % (a.name, dev, src["better_host"]))
            elif src["host"] != host and src.get("better_host") != host:
                fail("%s %s: counters of %s compared with %s and no better_host naming it (%s)"
                     % (a.name, dev, host, src["host"], src.get("better_host")))
            else:
                note("%s %s: without --counters-host: %s%s" % (a.name, dev, src["host"],
                                                             ", better_host " + src["better_host"]
                                                             if "better_host" in src else ""))
        if len(seen) == 2 and seen["sysfs"] != seen["rdma"]:
            fail("%s %s: sysfs and rdma forms differ: %s / %s" % (a.name, dev, seen["sysfs"], seen["rdma"]))
    sys.exit(1 if failed else 0)


main()
