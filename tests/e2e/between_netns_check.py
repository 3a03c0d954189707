#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks `rocewire-cap --between A B --json` on two real taps of a routed
path (test_between_netns.sh) against truth that does not come from
rocewire: what the traffic script sent (TRUTH.json), the BPF rule's fate
of each packet recomputed here (k = PSN + QP: dropped when k % DROP_MOD ==
DROP_REM, else CE-marked when ECT and k % MARK_MOD == MARK_REM, and sent
twice when k % DUP_MOD == DUP_REM), and both
capture files read here with the standard library (frame numbers and
timestamps). First it checks that the path did what the rule says (each
packet in its first tap once; in the second once, TTL 63, MACs rewritten,
CE where marked, twice where duplicated; or absent where dropped), then
every figure of the tool: every lost packet named with its frame, and
every second copy (only in the second tap) with its frame (each frame, by
tshark's own dissector when tshark is installed, is that packet), in the
JSON and in the text form; matched, CE marks, changes, per flow, and the delays both
ways: min and max equal to the taps' own timestamp differences (to the
capture clock's resolution: 1 ns for nanosecond files), p50/p99 within the
stated error, min >= 0 (one host clock: a packet reaches the second tap
after the first), and under a sane bound for a veth path; with
--estimate-offset, the offset NTP's estimate of the taps' own times. Last,
every ICRC in both taps is still right (the path changes only what it
masks).

usage: between_netns_check.py CAP A B TRUTH DROP_MOD DROP_REM MARK_MOD MARK_REM DUP_MOD DUP_REM
                              [rocewire-cap options...]"""
import json
import re
import shutil
import struct
import subprocess
import sys

from between_common import Errors, reordered as rfc4737_reordered

cap, fa, fb, ftruth = sys.argv[1:5]
drop_mod, drop_rem, mark_mod, mark_rem, dup_mod, dup_rem = (int(x) for x in sys.argv[5:11])
extra = sys.argv[11:]
# the path is a few microseconds long; these leave room for a loaded machine
P50_BOUND_NS = 20_000_000
MAX_BOUND_NS = 500_000_000
errors = Errors()
check = errors.check




def check_list(what, got, want):
    if got != want:
        errors.append("%s: %d listed, want %d; missing %s; unexpected %s"
                      % (what, len(got), len(want), sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]))


def read_pcap(path):
    """[(frame number from 1, time in ns, bytes)] and the timestamps'
    resolution in ns, from a classic pcap file (what tcpdump -w writes)."""
    with open(path, "rb") as f:
        data = f.read()
    magics = {b"\xd4\xc3\xb2\xa1": ("<", 1000), b"\x4d\x3c\xb2\xa1": ("<", 1),
              b"\xa1\xb2\xc3\xd4": (">", 1000), b"\xa1\xb2\x3c\x4d": (">", 1)}
    if data[:4] not in magics:
        sys.exit("FAIL: %s is not a classic pcap file" % path)
    e, unit = magics[data[:4]]
    if struct.unpack(e + "I", data[20:24])[0] & 0x0fffffff != 1:
        sys.exit("FAIL: %s is not Ethernet" % path)
    recs, off = [], 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(e + "IIII", data[off:off + 16])
        recs.append((len(recs) + 1, sec * 1_000_000_000 + frac * unit, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return recs, unit


def roce_key(b):
    """(UDP payload: BTH to ICRC, the part no router touches) of an
    Ethernet/IPv4/UDP frame to port 4791, else None."""
    if len(b) < 14 + 20 + 8 + 12 or b[12:14] != b"\x08\x00" or b[14] >> 4 != 4 or b[23] != 17:
        return None
    ihl = (b[14] & 15) * 4
    udp = 14 + ihl
    if b[udp + 2:udp + 4] != b"\x12\xb7":
        return None
    return b[udp + 8:]


recs = {}
res = {}
for tap, path in (("a", fa), ("b", fb)):
    recs[tap], res[tap] = read_pcap(path)
index = {"a": {}, "b": {}}
for tap in ("a", "b"):
    for n, t, b in recs[tap]:
        k = roce_key(b)
        if k is not None:
            index[tap].setdefault(k, []).append((n, t, b))

truth = json.load(open(ftruth))
pk = truth["packets"]
setup = []  # the path not doing what the rule says: the test's truth is void
for p in pk:
    f = bytes.fromhex(p["frame"])
    k = (p["psn"] + p["dqpn"]) & 0xffffffff
    p["dropped"] = k % drop_mod == drop_rem
    p["marked"] = not p["dropped"] and p["tos"] & 3 in (1, 2) and k % mark_mod == mark_rem
    p["dup"] = not p["dropped"] and k % dup_mod == dup_rem
    first, second = ("a", "b") if p["dir"] == "a_to_b" else ("b", "a")
    key = roce_key(f)
    what = "%s dqpn %#x psn %#x opcode %d" % (p["dir"], p["dqpn"], p["psn"], p["opcode"])
    seen1 = index[first].get(key, [])
    seen2 = index[second].get(key, [])
    if len(seen1) != 1 or seen1[0][2] != f:
        setup.append("%s: %d times in tap %s as sent, want once" % (what, len(seen1), first))
        continue
    p["frame_" + first], p["t_" + first] = seen1[0][:2]
    p["n_" + first], p["n_" + second] = 1, len(seen2)
    if p["dropped"]:
        if seen2:
            setup.append("%s: the rule drops it, yet tap %s has it (frame %d)" % (what, second, seen2[0][0]))
        continue
    if len(seen2) != 1 + p["dup"] or p["dup"] and seen2[0][2] != seen2[1][2]:
        setup.append("%s: %d times in tap %s, want %s (the rule forwards it%s)"
                     % (what, len(seen2), second, "twice" if p["dup"] else "once",
                        " and sends it again" if p["dup"] else ""))
        continue
    n2, t2, b2 = seen2[0]
    p["frame_" + second], p["t_" + second] = n2, t2
    if p["dup"]:
        # the later copy is the one without a twin in the first tap
        p["again_" + second] = seen2[1][0]
    want_tos = p["tos"] | 3 if p["marked"] else p["tos"]
    if b2[15] != want_tos or b2[22] != f[22] - 1 or b2[0:12] == f[0:12] or b2[0:6] == f[0:6] or b2[6:12] == f[6:12]:
        setup.append("%s: in tap %s TOS %#x TTL %d MACs %s, want TOS %#x TTL %d and both MACs rewritten"
                     % (what, second, b2[15], b2[22], b2[0:12].hex(), want_tos, f[22] - 1))
if setup:
    print("FAIL: the namespace path did not do what the BPF rule says (not rocewire's fault):")
    for e in setup[:20]:
        print("  " + e)
    sys.exit(1)
fwd = [p for p in pk if not p["dropped"]]
both = ("a_to_b", "b_to_a")
if not all(any(p[what] for p in pk if p["dir"] == d) for what in ("dropped", "dup") for d in both) \
        or not any(p["marked"] for p in pk):
    sys.exit("FAIL: the rule drops, marks or repeats nothing in a direction: the test proves less than it says")

run = subprocess.run([cap, "--between", fa, fb, "--json"] + extra, capture_output=True, text=True)
if run.returncode != 0:
    sys.exit("FAIL: rocewire-cap --between %s exited %d: %s" % (" ".join(extra), run.returncode, run.stderr.strip()))
out = json.loads(run.stdout)
off = out["offset_ns"]
if "--estimate-offset" in extra:
    check("offset_estimated", out["offset_estimated"], True)
    dmin = min(p["t_b"] - p["t_a"] for p in fwd if p["dir"] == "a_to_b")
    rmin = min(p["t_a"] - p["t_b"] for p in fwd if p["dir"] == "b_to_a")
    # NTP's estimate (README-report.md, "Offset") from the taps' own times
    if abs(off - (dmin - rmin) / 2) > 1:
        errors.append("offset_ns %d, want (min B-A %d - min A-B %d) / 2 = %.1f" % (off, dmin, rmin, (dmin - rmin) / 2))
else:
    check("offset_ns", off, 0)
    check("offset_estimated", out["offset_estimated"], False)


def delays(ps, direction):
    # the taps' own times, with B's corrected by the tool's offset
    return sorted(p["t_b"] - off - p["t_a"] if direction == "a_to_b" else p["t_a"] - (p["t_b"] - off)
                  for p in ps if not p["dropped"] and p["dir"] == direction)


def check_delay(what, got, v):
    errors.delay(what, got, v, out["percentile_max_rel_error"])


def reordered(ps):
    # RFC 4737, from the frame orders in the taps
    flows = {}
    for p in ps:
        if not p["dropped"]:
            flows.setdefault((p["src"], p["dst"], p["dqpn"]), (p["dir"], []))[1].append(p)
    return rfc4737_reordered(flows)


def figures(ps, o, where):
    m = [p for p in ps if not p["dropped"]]
    marked = sum(p["marked"] for p in m)
    check(where + "matched", o["matched"], len(m))
    check(where + "ce_marked", o["ce_marked"], marked)
    # every forwarded packet crossed the router: TTL - 1, both MACs new
    want = dict(ttl=len(m), mac=len(m), ecn=marked, dscp=0, vlan=0)
    for f in want:
        check(where + "changed." + f, o["changed"][f], want[f])
    check(where + "reordered", o["reordered"], reordered(ps))
    check(where + "unmatched_unknown_direction", o["unmatched_unknown_direction"], 0)
    check_delay(where + "delay_ns", o["delay_ns"], delays(m, "a_to_b"))
    check_delay(where + "reverse_delay_ns", o["reverse_delay_ns"], delays(m, "b_to_a"))


figures(pk, out, "")
for tap in ("a", "b"):
    check("tap_%s.frames" % tap, out["tap_" + tap]["frames"], len(recs[tap]))
    check("tap_%s.compared" % tap, out["tap_" + tap]["compared"], sum(len(v) for v in index[tap].values()))
lost = sorted((p["src"], p["dst"], p["dqpn"], p["psn"], p["opcode"],
               p["frame_a"] if p["dir"] == "a_to_b" else p["frame_b"], p["dir"]) for p in pk if p["dropped"])
check("lost_count", out["lost_count"], len(lost))
check("lost_truncated", out["lost_truncated"], False)
got_lost = sorted((x["src"], x["dst"], x["dqpn"], x["psn"], x["opcode"],
                   x.get("frame_a") if x["direction"] == "a_to_b" else x.get("frame_b"), x["direction"])
                  for x in out["lost"])
check_list("lost (src, dst, dqpn, psn, opcode, frame, direction)", got_lost, lost)
for key, direction, tap in (("only_in_b", "a_to_b", "b"), ("only_in_a", "b_to_a", "a")):
    fr = "frame_" + tap
    want = sorted((p["src"], p["dst"], p["dqpn"], p["psn"], p["opcode"], p["again_" + tap])
                  for p in pk if p["dup"] and p["dir"] == direction)
    check(key + ".count", out[key]["count"], len(want))
    check(key + ".truncated", out[key]["truncated"], False)
    check_list(key + ".list (src, dst, dqpn, psn, opcode, %s)" % fr,
               sorted((x["src"], x["dst"], x["dqpn"], x["psn"], x["opcode"], x.get(fr)) for x in out[key]["list"]),
               want)
for key in ("window_overflow", "untracked"):
    check(key, out[key], 0)
flows = {}
for p in pk:
    flows.setdefault((p["src"], p["dst"], p["dqpn"]), []).append(p)
check("flows", len(out["flows"]), len(flows))
for f in out["flows"]:
    where = "flow %s -> %s qp %#x: " % (f["src"], f["dst"], f["dqpn"])
    ps = flows.get((f["src"], f["dst"], f["dqpn"]))
    if not ps:
        errors.append(where + "not sent")
        continue
    figures(ps, f, where)
    check(where + "direction", f["direction"], ps[0]["dir"])
    check(where + "packets_a", f["packets_a"], sum(p.get("n_a", 0) for p in ps))
    check(where + "packets_b", f["packets_b"], sum(p.get("n_b", 0) for p in ps))
    check(where + "lost_count", f["lost_count"], sum(p["dropped"] for p in ps))
    check(where + "only_in_b", f["only_in_b"], sum(p["dup"] for p in ps if p["dir"] == "a_to_b"))
    check(where + "only_in_a", f["only_in_a"], sum(p["dup"] for p in ps if p["dir"] == "b_to_a"))

# sanity: one host clock, so a packet reaches its second tap after its
# first; and a veth path is short
for key, direction in (("delay_ns", "a_to_b"), ("reverse_delay_ns", "b_to_a")):
    d = out[key]
    if d is None:
        continue
    if "--estimate-offset" not in extra and d["min"] < 0:
        errors.append("%s.min %d < 0 with both taps on one clock" % (key, d["min"]))
    if d["p50"] > P50_BOUND_NS or d["max"] > MAX_BOUND_NS:
        errors.append("%s: p50 %d ns, max %d ns: above %d / %d ns for a veth path"
                      % (key, d["p50"], d["max"], P50_BOUND_NS, MAX_BOUND_NS))
if "--estimate-offset" in extra and out["delay_ns"] and out["reverse_delay_ns"]:
    # the estimate makes both directions' minimum delays equal (to rounding)
    if abs(out["delay_ns"]["min"] - out["reverse_delay_ns"]["min"]) > 1:
        errors.append("with the estimated offset, min delays %d and %d differ"
                      % (out["delay_ns"]["min"], out["reverse_delay_ns"]["min"]))

# the text form names lost packets as the JSON does, each with the frame
# of the tap it was seen in: the first 20, then "... N more"
# (README-report.md, "Two taps")
run = subprocess.run([cap, "--between", fa, fb] + extra, capture_output=True, text=True)
text_lost = set()
head = more = None
for line in run.stdout.splitlines():
    if line.startswith("Lost between the taps:"):
        head = int(line.split(":")[1])
    elif head is not None and more is None:
        m = re.match(r"^\s+(\S+) -> (\S+)\s+qp 0x([0-9a-f]+)\s+psn (\d+)\s+\S+\s+([AB]) frame (\d+)$", line)
        if m:
            text_lost.add((m[1], m[2], int(m[3], 16), int(m[4]), int(m[6]), "a_to_b" if m[5] == "A" else "b_to_a"))
        m = re.match(r"^\s+\.\.\. (\d+) more$", line)
        if m:
            more = int(m[1])
want_text = {(x[0], x[1], x[2], x[3], x[5], x[6]) for x in lost}
shown = min(20, len(lost))
if run.returncode != 0 or head != len(lost) or len(text_lost) != shown or not text_lost <= want_text \
        or (more or 0) != len(lost) - shown:
    errors.append("text form (status %d): 'Lost between the taps: %s', %d lines, '... %s more'; want %d, %d, %d; "
                  "not lost: %s" % (run.returncode, head, len(text_lost), more, len(lost), shown,
                                    len(lost) - shown, sorted(text_lost - want_text)[:3]))
# frame numbers as Wireshark counts them: each lost packet's frame, in the
# tap it was seen in, is that packet by tshark's InfiniBand dissector
if shutil.which("tshark"):
    by_tshark = {}
    for tap, path in (("a", fa), ("b", fb)):
        run = subprocess.run(["tshark", "-r", path, "-Y", "infiniband", "-T", "fields", "-e", "frame.number",
                              "-e", "infiniband.bth.destqp", "-e", "infiniband.bth.psn", "-e", "infiniband.bth.opcode"],
                             capture_output=True, text=True)
        for line in run.stdout.splitlines():
            n, q, psn, op = line.split("\t")
            by_tshark[(tap, int(n))] = (int(q, 0), int(psn), int(op))
    named = [("a" if x[6] == "a_to_b" else "b", x[5], x[2], x[3], x[4]) for x in lost]
    named += [("b" if p["dir"] == "a_to_b" else "a", p["again_b"] if p["dir"] == "a_to_b" else p["again_a"],
               p["dqpn"], p["psn"], p["opcode"]) for p in pk if p["dup"]]
    for tap, n, q, psn, op in named:
        if by_tshark.get((tap, n)) != (q, psn, op):
            errors.append("tshark's frame %d of tap %s is %s, not dqpn %d psn %d opcode %d"
                          % (n, tap, by_tshark.get((tap, n)), q, psn, op))
else:
    print("note: no tshark: lost frames numbered by this script's pcap reader only")
# the path kept every ICRC right (TTL and ECN are masked out of it)
for tap, path in (("a", fa), ("b", fb)):
    run = subprocess.run([cap, "-r", path, "--json"], capture_output=True, text=True)
    st = [json.loads(line).get("icrc", {}).get("status") for line in run.stdout.splitlines() if line.strip()]
    if st.count("ok") != out["tap_" + tap]["compared"]:
        errors.append("tap %s: %d ICRCs ok of %d RoCE packets (statuses %s)"
                      % (tap, st.count("ok"), out["tap_" + tap]["compared"], sorted(set(map(str, st)))))

if errors:
    print("FAIL: --between %s on the namespace path's taps:" % " ".join(extra))
    for e in errors[:30]:
        print("  " + e)
    sys.exit(1)
print("ok: --between %s: %d sent, %d matched, %d lost (%d requests, %d ACKs) each named with its frame, "
      "%d sent twice, %d CE-marked; delay min/p50/max %d/%d/%d ns, reverse %d/%d/%d ns, offset %d ns; "
      "clock resolution %d ns (A) / %d ns (B)"
      % (" ".join(extra) or "(synchronised)", len(pk), out["matched"], out["lost_count"],
         sum(p["dropped"] for p in pk if p["dir"] == "a_to_b"), sum(p["dropped"] for p in pk if p["dir"] == "b_to_a"),
         sum(p["dup"] for p in pk), out["ce_marked"],
         out["delay_ns"]["min"], out["delay_ns"]["p50"], out["delay_ns"]["max"],
         out["reverse_delay_ns"]["min"], out["reverse_delay_ns"]["p50"], out["reverse_delay_ns"]["max"], off,
         res["a"], res["b"]))
