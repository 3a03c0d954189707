#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A seeded random rocewire-gen scenario for the differential test.

usage: diff_scenario.py SEED OUT.yaml      (prints a one-line description)

The same seed gives the same file. Scenarios are small (a few hundred to a
few thousand packets) and use every kind of thing gen/README-scenario.md and
gen/README-congestion.md describe that changes what goes on the wire and
what the report must find in it: RC, UC and UD with every operation their
transport allows, fixed, uniform and choice sizes across MTUs, several QPs,
PSNs near the 24-bit wrap, drop/corrupt/ECN/RNR faults chosen by PSN,
opcode, direction, probability, window and transmission, and incasts
through the simulated switch with lossy (tail-drop) or lossless (PFC)
queues, RED/ECN, CNP pacing (compliant or a CNP per CE) and storms.
"""
import random
import sys

OPS = {
    "rc": ["send", "send_imm", "send_inv", "write", "write_imm", "read", "cmp_swap", "fetch_add"],
    "uc": ["send", "send_imm", "write", "write_imm"],
    "ud": ["send", "send_imm"],
}
MTUS = [256, 512, 1024, 2048, 4096]
RC_ONLY_OPCODES = ["RC_RDMA_WRITE_FIRST", "RC_RDMA_WRITE_MIDDLE", "RC_RDMA_WRITE_LAST", "RC_SEND_ONLY",
                   "RC_RDMA_READ_REQUEST", "RC_RDMA_READ_RESPONSE_FIRST", "RC_RDMA_READ_RESPONSE_MIDDLE",
                   "RC_RDMA_READ_RESPONSE_LAST", "RC_RDMA_READ_RESPONSE_ONLY", "RC_ACKNOWLEDGE",
                   "RC_ATOMIC_ACKNOWLEDGE", "RC_COMPARE_SWAP", "RC_FETCH_ADD"]


def size_of(r, transport, mtu, ops):
    top = mtu if transport == "ud" else r.choice([mtu, 2 * mtu, 4 * mtu, 16384])
    k = r.random()
    if k < 0.4:
        return str(r.choice([0, 1, 8, 64, mtu // 2, mtu, mtu + 1, top]) if transport != "ud"
                   else r.choice([1, 8, 64, mtu // 2, mtu]))
    if k < 0.7:
        lo = r.randint(0, top // 2)
        return "{uniform: [%d, %d]}" % (lo, r.randint(lo, top))
    vals = sorted(set(r.randint(1, top) for _ in range(r.randint(2, 4))))
    return "{choice: {%s}}" % ", ".join("%d: %d" % (v, r.randint(1, 5)) for v in vals)


def flow_text(r, i, transport, src, dst, cc, hosts_pcp):
    mtu = r.choice(MTUS)
    ops = r.sample(OPS[transport], r.randint(1, min(4, len(OPS[transport]))))
    lines = ["  - name: f%d" % i, "    from: h%d" % src, "    to: h%d" % dst, "    transport: %s" % transport,
             "    ops: {%s}" % ", ".join("%s: %d" % (o, r.randint(1, 4)) for o in ops),
             "    size: %s" % size_of(r, transport, mtu, ops), "    mtu: %d" % mtu,
             "    qps: %d" % r.choice([1, 1, 2, 3]),
             "    messages: %d" % r.randint(2, 25)]
    if cc:
        lines.append("    rate: %dGbps" % r.choice([25, 50, 100]))
    else:
        lines.append("    rate: %s" % r.choice(["10Gbps", "40Gbps", "100Gbps", "50%", "2Mpps"]))
    if r.random() < 0.3:
        lines.append("    initial_psn: 0x%x" % r.choice([0xFFFFF0, 0xFFFFFE, r.randint(0, 0xFFFFFF)]))
    if r.random() < 0.3:
        lines.append("    psn_stride: %d" % r.choice([0, 1, 100, 0x1000]))
    if r.random() < 0.3:
        lines.append("    ecn: %s" % r.choice(["not-ect", "ect0", "ect1"]))
    if transport == "rc":
        lines.append("    ack_request_interval: %d" % r.choice([0, 1, 4, 16, 32]))
        lines.append("    retransmission_timeout: %s" % r.choice(["50us", "200us", "1ms"]))
        lines.append("    max_rd_atomic: %d" % r.choice([1, 2, 4, 16]))
        if r.random() < 0.3:
            lines.append("    rnr_retry: %d" % r.choice([1, 3, 7]))
        lines.append("    min_rnr_timer: %d" % r.choice([1, 2, 4]))
        if r.random() < 0.2:
            lines.append("    recv_credits: %d" % r.choice([1, 8, 64]))
    if r.random() < 0.2:
        lines.append("    start: %dus" % r.randint(0, 20))
    return lines, ops


def fault_text(r, flows):
    fi, (transport, ops) = r.choice(list(enumerate(flows)))
    action = r.choice(["drop", "drop", "drop", "corrupt", "ecn_mark"] +
                      (["rnr"] if transport == "rc" and any(o in ("send", "send_imm", "send_inv", "write_imm")
                                                            for o in ops) else []))
    f = ["action: %s" % action, "flow: f%d" % fi]
    if action == "rnr":
        f.append("opcode: %s" % r.choice(["RC_SEND_ONLY", "RC_SEND_FIRST", "RC_SEND_ONLY_WITH_IMMEDIATE",
                                           "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE"]))
        # always counted: an RNR NAK on every send with rnr_retry 7
        # (unlimited, IBA) would never let the run end
        f.append("count: %d" % r.randint(1, 3))
        return "{%s}" % ", ".join(f)
    k = r.random()
    if k < 0.35:
        lo = r.randint(0, 40)
        f.append("psn: [%d, %d]" % (lo, lo + r.randint(0, 6)))
    elif k < 0.6:
        f.append("probability: %s" % r.choice(["1%", "3%", "10%"]))
    elif k < 0.8 and transport == "rc":
        f.append("opcode: %s" % r.choice(RC_ONLY_OPCODES))
    else:
        f.append("every: %d" % r.randint(3, 20))
    if r.random() < 0.5 and not any(x.startswith("opcode:") for x in f):
        # (an opcode says its direction itself)
        f.append("dir: %s" % r.choice(["request", "response"]))
    if r.random() < 0.5 and action in ("drop", "corrupt"):
        f.append("transmission: %d" % r.choice([1, 1, 2]))
    if r.random() < 0.4:
        f.append("count: %d" % r.randint(1, 4))
    if r.random() < 0.2:
        f.append("after: %dus" % r.randint(0, 30))
    return "{%s}" % ", ".join(f)


def congestion_text(r, pcps):
    lines = ["congestion:", "  mode: simulated", "  switch:",
             "    link_rate: %s" % r.choice(["25Gbps", "40Gbps", "100Gbps"]),
             "    buffer: %s" % r.choice(["20KB", "50KB", "200KB", "12MB"])]
    lossless = r.random() < 0.5
    lines.append("    priorities:")
    for p in sorted(set(pcps)):
        attrs = []
        if lossless:
            xoff = r.choice([4, 10, 30])
            attrs += ["lossless: true", "xoff: %dKB" % xoff, "xon: %dKB" % r.randint(1, xoff - 1)]
        if r.random() < 0.8:
            kmin = r.choice([1, 2, 5])
            attrs += ["kmin: %dKB" % kmin, "kmax: %dKB" % (kmin + r.choice([5, 20])),
                      "pmax: %s" % r.choice(["10%", "50%", "100%"])]
        else:
            attrs.append("ecn: false")
        lines.append("      %d: {%s}" % (p, ", ".join(attrs)))
    if lossless and r.random() < 0.3:
        lines.append("    storms:")
        lines.append("      - {priority: %d, start: %dus, duration: %dus}" %
                     (r.choice(pcps), r.randint(0, 30), r.randint(20, 400)))
    if r.random() < 0.5:
        lines.append("    pause_quanta: %s" % r.choice(["computed", "0x100", "0xFFFF"]))
    lines.append("  np:")
    lines.append("    preset: %s" % r.choice(["paper", "mlx5"]))
    lines.append("    behaviour: %s" % r.choice(["compliant", "compliant", "every_ce"]))
    lines.append("  dcqcn: {preset: %s}" % r.choice(["paper", "mlx5"]))
    return lines


def make(seed):
    r = random.Random(seed)
    cc = r.random() < 0.3
    v6 = r.random() < 0.2
    nhosts = r.randint(3, 5) if cc else r.randint(2, 3)
    pcps = []
    hosts = []
    vlan = r.random() < 0.3 or cc
    for h in range(nhosts):
        ip = '"fd00::%x"' % (h + 1) if v6 else "10.0.0.%d" % (h + 1)
        pcp = r.choice([0, 3, 3, 5]) if cc else r.randint(0, 7)
        pcps.append(pcp)
        hosts.append('  - {name: h%d, mac: "02:00:00:00:00:%02x", ip: %s%s}' %
                     (h, h + 1, ip, (", vlan: 100, pcp: %d" % pcp) if vlan else ""))
    nflows = r.randint(2, 4) if cc else r.randint(1, 3)
    flows, fl_lines = [], []
    sink = r.randrange(nhosts)
    for i in range(nflows):
        transport = r.choice(["rc", "rc", "rc", "uc", "ud"])
        if cc:  # an incast: every flow into one receiver
            src = r.choice([h for h in range(nhosts) if h != sink])
            dst = sink
        else:
            src, dst = r.sample(range(nhosts), 2)
        lines, ops = flow_text(r, i, transport, src, dst, cc, pcps)
        fl_lines += lines
        flows.append((transport, ops))
    faults = [fault_text(r, flows) for _ in range(r.choice([0, 1, 1, 2, 3, 4]))]
    out = ["# SPDX-License-Identifier: BSD-3-Clause",
           "# diff_scenario.py seed %d" % seed,
           "name: diff-%d" % seed, "seed: %d" % (seed & 0xFFFFFFFF),
           "packets: %d" % r.choice([300, 800, 2000]),
           "link_delay: %s" % r.choice(["500ns", "1us", "3us"]),
           "hosts:"] + hosts + ["flows:"] + fl_lines
    used_pcps = [pcps[i] for i in range(nhosts)]
    if faults:
        out += ["faults:"] + ["  - " + f for f in faults]
    if cc:
        out += congestion_text(r, used_pcps)
    desc = "%s%s %d flows (%s), %d faults" % ("incast " if cc else "", "v6" if v6 else "v4", nflows,
                                            "/".join(t for t, _ in flows), len(faults))
    return "\n".join(out) + "\n", desc


def main():
    seed = int(sys.argv[1])
    text, desc = make(seed)
    with open(sys.argv[2], "w") as f:
        f.write(text)
    print(desc)


if __name__ == "__main__":
    main()
