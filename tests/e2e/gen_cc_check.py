#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What each congestion sample must show in its capture.

usage: gen_cc_check.py SCENARIO DIR   (DIR holds SCENARIO.pcap, .json, .report.json)

Facts come from rocewire-cap's report of the capture and from the frames
themselves, read here (Ethernet, 802.1Q, IPv4 ECN, UDP 4791, BTH opcode and
destination QP, MAC control); the generator's summary is read for the paused
time of its switch model, which the report must equal, and for what the lossy
run recovered (messages, NAKs, timeouts, resends), which the report must
count the same from the capture.
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcaprec  # noqa: E402

fails = []
CNP = 0x81
LINK = 100e9


def fail(msg):
    fails.append(msg)


def frames(path):
    """[(t_ns, wire length, src MAC, kind, fields)] where kind is 'roce'
    (fields: src ip, dst ip, ecn, opcode, dqpn) or 'pfc' (fields: cev, quanta)."""
    hdr, lt, recs = pcaprec.split(path)
    if hdr is None:
        fail("%s: not a classic pcap" % path)
        return []
    e = "<" if hdr[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    nano = hdr[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    out = []
    for r in recs:
        sec, frac, incl, orig = struct.unpack(e + "IIII", r[:16])
        t = sec * 10**9 + (frac if nano else frac * 1000)
        f = r[16:16 + incl]
        src = f[6:12]
        off, et = 14, struct.unpack(">H", f[12:14])[0]
        while et == 0x8100:
            et = struct.unpack(">H", f[off + 2:off + 4])[0]
            off += 4
        if et == 0x8808 and struct.unpack(">H", f[off:off + 2])[0] == 0x0101:
            cev = struct.unpack(">H", f[off + 2:off + 4])[0]
            quanta = struct.unpack(">8H", f[off + 4:off + 20])
            out.append((t, orig, src, "pfc", (cev, quanta)))
        elif et == 0x0800 and f[off + 9] == 17 and struct.unpack(">H", f[off + 22:off + 24])[0] == 4791:
            ihl = (f[off] & 15) * 4
            bth = off + ihl + 8
            dqpn = struct.unpack(">I", f[bth + 4:bth + 8])[0] & 0xFFFFFF
            out.append((t, orig, src, "roce", (bytes(f[off + 12:off + 16]), bytes(f[off + 16:off + 20]),
                                               f[off + 1] & 3, f[bth], dqpn)))
    return out


def window_rates(fr, senders, win_ns):
    """{sender ip: [Gb/s per window]} of the requests (not CNPs) each sender sent."""
    if not fr:
        return {}
    t0 = fr[0][0]
    n = int((fr[-1][0] - t0) // win_ns)  # full windows only
    rates = {s: [0.0] * n for s in senders}
    for t, ln, _, kind, x in fr:
        if kind != "roce" or x[0] not in rates or x[3] == CNP:
            continue
        w = int((t - t0) // win_ns)
        if w < n:
            rates[x[0]][w] += ln * 8 / (win_ns * 1e-9) / 1e9
    return rates


def ip(s):
    return bytes(int(x) for x in s.split("."))


SENDERS = [ip("10.0.1.%d" % i) for i in range(1, 5)]
RECEIVER_MAC = bytes.fromhex("020000000201")


def req_flows(rep):
    return [q for q in rep["qps"] if q["requests"]]


def nothing_sent_while_paused(rep):
    """A pause applies to the traffic towards its sender: the samples' senders
    obey the port's XOFF at once, and the receivers are paused by no one."""
    for q in rep["qps"]:
        if q["pkts_while_paused"]:
            fail("flow %s -> %s QP 0x%x: %d packets sent while paused; none was" %
                 (q["src"], q["dst"], q["dqpn"], q["pkts_while_paused"]))


def pause_union_ns(fr, prio):
    """The time class prio was paused by at least one PFC sender (each its own
    timer, reloaded by each of its frames), from the frames: the report's
    paused time."""
    until, total, run_end = {}, 0, 0
    for t, _, src, k, x in fr:
        if k != "pfc" or not x[0] >> prio & 1:
            continue
        q = x[1][prio]
        before = max([u for u in until.values() if u > t], default=0)
        until[src] = t + int(q * 512 / (LINK / 1e9) + 0.5) if q else 0
        after = max([u for u in until.values() if u > t], default=0)
        if before:
            total += (after if after else t) - before
        elif after:
            total += after - t
        run_end = after
    if run_end > fr[-1][0]:
        total -= run_end - fr[-1][0]
    return total


def check_incast_dcqcn(fr, rep, summ):
    for q in req_flows(rep):
        if q["ecn"]["ce"] == 0 or q["cnps"] == 0:
            fail("flow to QP 0x%x: %d CE marks, %d CNPs: marking and notification expected" %
                 (q["dqpn"], q["ecn"]["ce"], q["cnps"]))
        if q["missing_psns"] or q["retransmissions"] or q["psn_gaps"]:
            fail("flow to QP 0x%x: lossless by ECN, yet %d missing PSNs, %d resends" %
                 (q["dqpn"], q["missing_psns"], q["retransmissions"]))
    if rep["pfc"]["3"]["frames"]:
        fail("PFC frames in an ECN-only scenario")
    # Notification point (np preset paper: 50 us per QP): at most one CNP
    # per QP per interval, and each within one interval (plus the time its
    # CE-marked packet can wait in the 12 MB buffer, and the links) of a CE
    # mark of that QP's requests.
    interval, slack = 50000, 50000 + int(12e6 * 8 / LINK * 1e9) + 2000
    last_cnp, last_ce = {}, {}
    for t, _, _, kind, x in fr:
        if kind != "roce":
            continue
        if x[3] == CNP:
            # the CNP names the requester's QP: 0x101.. answers 0x201..
            req = x[4] + 0x100
            if req in last_cnp and t - last_cnp[req] < interval:
                fail("two CNPs for QP 0x%x %d ns apart (interval %d)" % (x[4], t - last_cnp[req], interval))
            last_cnp[req] = t
            if req not in last_ce or t - last_ce[req] > slack:
                fail("CNP for QP 0x%x at %d ns: no CE mark of its flow in the %d ns before" % (x[4], t, slack))
        elif x[2] == 3:
            last_ce[x[4]] = t
    # Reaction points, from the capture's frames: each sender starts at its
    # offered 100 Gb/s, falls below half of it after the CNPs, and the four
    # settle within 20 % of the fair share C/N from 14 ms until senders 2-4
    # stop at 20 ms; then marking stops and sender 1 climbs back to its
    # offered rate (rates in frame bytes: C is 100 Gb/s of wire time, a
    # 4170-byte frame takes 4194 bytes of it).
    offered = 100.0 * 4170 / 4194
    fair = offered / 4
    first = window_rates(fr, SENDERS, 20000)
    for s in SENDERS:
        if not first[s] or first[s][0] < 0.8 * offered:
            fail("sender %s: %.1f Gb/s in the first 20 us, not its offered rate" %
                 (".".join(map(str, s)), first[s][0] if first[s] else 0))
    r2 = window_rates(fr, SENDERS, 2000000)
    r500 = window_rates(fr, SENDERS, 500000)
    for s in SENDERS:
        name = ".".join(map(str, s))
        if not min(r500[s][:28]) < offered / 2:
            fail("sender %s: its rate never fell below half the offered rate" % name)
        for w in (7, 8, 9):  # 14-20 ms
            if not 0.8 * fair <= r2[s][w] <= 1.2 * fair:
                fail("sender %s: %.1f Gb/s at %d-%d ms, fair share %.1f +- 20 %%" %
                     (name, r2[s][w], 2 * w, 2 * w + 2, fair))
    for w in (12, 13):  # 24-28 ms, sender 1 alone
        if r2[SENDERS[0]][w] < 0.9 * offered:
            fail("sender 10.0.1.1 alone: %.1f Gb/s at %d-%d ms, not back to its offered %.1f" %
                 (r2[SENDERS[0]][w], 2 * w, 2 * w + 2, offered))
    # The queue from the model's qlen output: in the steady state (14-20 ms)
    # around Kmin, rarely above Kmax.
    q = sorted(int(r.split(",")[2]) for r in open("incast-dcqcn.qlen.csv").read().splitlines()[1:]
               if 14000000 <= int(r.split(",")[0]) < 20000000)
    if not q or q[len(q) // 2] < 5000 or q[9 * len(q) // 10] > 200000:
        fail("queue at 14-20 ms: median %s, 90th percentile %s bytes; Kmin 5000, Kmax 200000 expected around" %
             (q[len(q) // 2] if q else None, q[9 * len(q) // 10] if q else None))


def check_incast_pfc(fr, rep, summ):
    p3 = rep["pfc"]["3"]
    if p3["xoff"] == 0 or p3["xon"] == 0:
        fail("priority 3: %d XOFF, %d XON: pause frames expected" % (p3["xoff"], p3["xon"]))
    nothing_sent_while_paused(rep)
    for q in req_flows(rep):
        if q["missing_psns"] or q["retransmissions"] or q["ecn"]["ce"]:
            fail("flow to QP 0x%x: lossless by PFC, yet %d missing PSNs, %d resends, %d CE" %
                 (q["dqpn"], q["missing_psns"], q["retransmissions"], q["ecn"]["ce"]))
    model_us = summ["congestion"]["senders_paused_ns"][3] / 1000.0
    # the report rounds each pause to the ns: one ns per frame at most
    if abs(p3["paused_us"] - model_us) > p3["frames"] / 1000.0 + 0.001:
        fail("paused time: the report %.3f us, the switch model %.3f us" % (p3["paused_us"], model_us))
    # the run's pfc output has one record per PFC frame class, the same count
    rows = open("incast-pfc.pfc.csv").read().splitlines()
    if rows[0] != "time_ns,dir,prio,event,quanta" or len(rows) - 1 != p3["frames"]:
        fail("incast-pfc.pfc.csv: %d records, the capture has %d PFC frames" % (len(rows) - 1, p3["frames"]))
    # fct: one record per message the capture shows completed, none faster
    # than the message alone on the bottleneck
    fct = [r.split(",") for r in open("incast-pfc.fct.csv").read().splitlines()[1:]]
    done = sum(q["messages"] for q in req_flows(rep))
    if len(fct) != done:
        fail("incast-pfc.fct.csv: %d messages, the capture shows %d completed" % (len(fct), done))
    slow = [r for r in fct if int(r[9]) < int(r[10]) or int(r[9]) != int(r[8]) - int(r[7])]
    if slow:
        fail("incast-pfc.fct.csv: %d records faster than ideal or inconsistent, e.g. %s" % (len(slow), slow[0]))
    q = [int(r.split(",")[2]) for r in open("incast-pfc.qlen.csv").read().splitlines()[1:]]
    if not q or max(q) < 200000:
        fail("incast-pfc.qlen.csv: the queue never reached XOFF (200 KB): max %s" % (max(q) if q else None))


def check_lossy(fr, rep, summ):
    fl = req_flows(rep)
    tot = {k: sum(q[k] for q in fl) for k in ("psn_gaps", "retransmissions", "gbn_episodes", "missing_psns")}
    naks = sum(q["naks"]["psn_seq"] for q in fl)
    if not (tot["psn_gaps"] and tot["retransmissions"] and tot["gbn_episodes"] and naks):
        fail("lossy: gaps %d, resends %d, go-back-N %d, sequence NAKs %d: all expected" %
             (tot["psn_gaps"], tot["retransmissions"], tot["gbn_episodes"], naks))
    if any(k == "pfc" for _, _, _, k, _ in fr) or any(q["ecn"]["ce"] for q in fl):
        fail("lossy: PFC frames or CE marks in a scenario with neither")
    # What the senders recovered, counted from the capture (one tap behind
    # the port, FIFO): every message the responders completed; one go-back-N
    # episode per NAK or timeout, by cause; no packet out of order; and no
    # more resends than the generator sent (the port dropped some of them
    # before the tap).
    t = summ["total"]
    got = {"messages": sum(q["messages"] for q in fl),
           "gbn": tot["gbn_episodes"],
           "nak": sum((q["conformance"] or {}).get("resends", {}).get("nak", 0) for q in fl),
           "timeout": sum((q["conformance"] or {}).get("resends", {}).get("timeout", 0) for q in fl),
           "ooo": sum(q["out_of_order"] for q in fl),
           "incomplete": sum(q["incomplete_messages"] + q["orphan_packets"] for q in fl)}
    want = {"messages": t["messages"], "gbn": t["naks"] + t["timeouts"], "nak": t["naks"],
            "timeout": t["timeouts"], "ooo": 0, "incomplete": 0}
    for k in want:
        if got[k] != want[k]:
            fail("lossy: the report counts %s %d, the generator %d" % (k, got[k], want[k]))
    if tot["retransmissions"] > t["retransmissions"]:
        fail("lossy: the report counts %d resends, the generator sent %d" %
             (tot["retransmissions"], t["retransmissions"]))
    # throughput collapse: messages completed per second against the same
    # flows made lossless by PFC (the report's counts of both captures)
    pfc = json.load(open("incast-pfc.report.json"))
    a = sum(q["messages"] for q in fl) / rep["duration_s"]
    b = sum(q["messages"] for q in req_flows(pfc)) / pfc["duration_s"]
    if not a < 0.8 * b:
        fail("lossy: %.0f messages/s, lossless %.0f: no collapse" % (a, b))


def check_pfc_storm(fr, rep, summ):
    p3 = rep["pfc"]["3"]
    if p3["storms"] < 1 or p3["longest_us"] < 11000:
        fail("priority 3: %d storms, longest pause %.0f us: a 12 ms storm expected" % (p3["storms"], p3["longest_us"]))
    down = [t for t, _, src, k, _ in fr if k == "pfc" and src == RECEIVER_MAC]
    if not down:
        fail("no PFC frame from the stuck receiver")
        return
    up = [t for t, _, src, k, _ in fr if k == "pfc" and src != RECEIVER_MAC]
    if not up or up[0] < down[0]:
        fail("the storm did not spread to the senders' side")
    # The receiver's XOFF pauses the port's output towards it, which the
    # tap at the port's input does not show; the port's own XOFF pauses the
    # senders, who obey it until the port's XON (after the receiver's).
    nothing_sent_while_paused(rep)
    union = pause_union_ns(fr, 3)
    if abs(p3["paused_us"] * 1000 - union) > p3["frames"]:
        fail("paused time: the report %.3f us, the frames %.3f us" % (p3["paused_us"], union / 1000.0))
    # Head-of-line blocking: flow g goes to r2 (10.0.2.2), which sends no
    # PFC, yet none of its requests passes while the storm lasts.
    r2 = ip("10.0.2.2")
    start, end = down[0], down[-1]
    g = [t for t, _, _, k, x in fr if k == "roce" and x[1] == r2 and x[3] != CNP]
    if not g or g[0] > start:
        fail("flow g sent nothing before the storm")
    during = [t for t in g if start + 1000000 < t < end]
    if during:
        fail("flow g sent %d requests during the storm: no head-of-line blocking" % len(during))


def check_np_every_ce(fr, rep, summ):
    # Each CNP answers one CE mark of its flow, the oldest still waiting
    # in the 1 ms before it (the notification point answers every mark, and
    # lags: up to 60 marks wait).
    waiting, unlinked, most = {}, 0, 0
    for t, _, _, kind, x in fr:
        if kind != "roce":
            continue
        if x[3] == CNP:
            w = waiting.setdefault(x[4] + 0x100, [])
            while w and t - w[0] > 1000000:
                w.pop(0)
            if w:
                w.pop(0)
            else:
                unlinked += 1
        elif x[2] == 3:
            waiting.setdefault(x[4], []).append(t)
            most = max(most, len(waiting[x[4]]))
    if unlinked or rep["cnps_unlinked"] != unlinked:
        fail("CNPs without a CE mark to answer: the report %d, the frames %d" % (rep["cnps_unlinked"], unlinked))
    if most < 17:
        fail("at most %d CE marks waited for their CNP: the sample should lag further" % most)
    if rep["cnp_pacing"]["too_often"]["qp"] == 0:
        fail("rocewire-cap did not flag CNPs sent too often per QP")
    if not any(q["cnp_min_interval_us"] is not None and q["cnp_min_interval_us"] < 4 for q in req_flows(rep)):
        fail("no flow has CNPs closer than the 4 us the report checks")


def main():
    name, d = sys.argv[1], sys.argv[2]
    fr = frames(os.path.join(d, name + ".pcap"))
    rep = json.load(open(os.path.join(d, name + ".report.json")))
    summ = json.load(open(os.path.join(d, name + ".json")))
    if rep["icrc"]["bad"]:
        fail("%d bad ICRCs" % rep["icrc"]["bad"])
    back = [i for i in range(1, len(fr)) if fr[i][0] < fr[i - 1][0]]
    if back:
        fail("%d frames earlier than the frame before them (first: frame %d)" % (len(back), back[0] + 1))
    {"incast-dcqcn": check_incast_dcqcn, "incast-pfc": check_incast_pfc, "lossy-incast": check_lossy,
     "pfc-storm": check_pfc_storm, "np-every-ce": check_np_every_ce}[name](fr, rep, summ)
    for m in fails:
        print("FAIL: " + m, file=sys.stderr)
    if fails:
        return 1
    print("ok (%d frames)" % len(fr))
    return 0


if __name__ == "__main__":
    sys.exit(main())
