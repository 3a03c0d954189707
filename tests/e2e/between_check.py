#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks `rocewire-cap --between A B --json` against rocewire-mktaps' truth
(what it did to each packet, its own decisions): every lost packet named
with its frame, only-in-B/only-in-A packets, matched count, CE marks,
rewrites, reordering (RFC 4737, recomputed from the truth's times), the
delays (min and max exact, percentiles within the stated error) both ways,
per flow too, and the clock offset (the estimate within the jitter).
usage: between_check.py CAP A B TRUTH [rocewire-cap options...]"""
import json
import subprocess
import sys

from between_common import Errors, mktaps_addr as addr, norm, reordered as rfc4737_reordered

cap, fa, fb, ftruth = sys.argv[1:5]
extra = sys.argv[5:]
truth = json.load(open(ftruth))
run = subprocess.run([cap, "--between", fa, fb, "--json"] + extra, capture_output=True, text=True)
if run.returncode != 0:
    sys.exit("FAIL: rocewire-cap exited %d: %s" % (run.returncode, run.stderr.strip()))
out = json.loads(run.stdout)
errors = Errors()
check = errors.check


def check_delay(what, got, v):
    errors.delay(what, got, v, out["percentile_max_rel_error"])








pk = truth["packets"]
for p in pk:
    p["s"], p["d"] = addr(p["src"]), addr(p["dst"])
known = {(p["s"], p["d"]) for p in pk if p["fate"] == "matched"}
resid = truth["shift_ns"] - out["offset_ns"]  # what the tool's correction missed
if "--estimate-offset" in extra:
    check("offset_estimated", out["offset_estimated"], True)
    if abs(resid) > truth["jitter_ns"]:
        errors.append("offset %d is %d ns from the shift %d, more than the jitter %d"
                      % (out["offset_ns"], resid, truth["shift_ns"], truth["jitter_ns"]))


def fate(p):
    return p["fate"] if (p["s"], p["d"]) in known else "unknown"


def frame(p):
    return p["frame_a"] if p["t_a"] >= 0 else p["frame_b"]


def delays(ps, direction):
    # what the tool can see: the true delay plus the offset it did not correct
    return sorted(p["t_b"] - p["t_a"] + resid if direction == "a_to_b" else p["t_a"] - p["t_b"] - resid
                  for p in ps if p["fate"] == "matched" and p["dir"] == direction)




def reordered(ps):
    flows = {}
    for p in ps:
        if p["fate"] == "matched":
            flows.setdefault((p["s"], p["d"], p["dqpn"], p["dir"]), (p["dir"], []))[1].append(p)
    return rfc4737_reordered(flows)


def figures(ps, o, where):
    m = [p for p in ps if fate(p) == "matched"]
    check(where + "matched", o["matched"], len(m))
    check(where + "ce_marked", o["ce_marked"], sum(p["ce"] for p in m))
    for f in ("ttl", "ecn", "mac"):
        check(where + "changed." + f, o["changed"][f], sum(p[f] for p in m))
    check(where + "changed.dscp", o["changed"]["dscp"], 0)
    check(where + "changed.vlan", o["changed"]["vlan"], 0)
    check(where + "reordered", o["reordered"], reordered(ps))
    check(where + "unmatched_unknown_direction", o["unmatched_unknown_direction"],
          sum(1 for p in ps if fate(p) == "unknown"))
    check_delay(where + "delay_ns", o["delay_ns"], delays(m, "a_to_b"))
    check_delay(where + "reverse_delay_ns", o["reverse_delay_ns"], delays(m, "b_to_a"))


figures(pk, out, "")
lost = {(p["dqpn"], p["psn"], p["opcode"], frame(p), p["dir"]) for p in pk if fate(p) == "lost"}
check("lost_count", out["lost_count"], len(lost))
check("lost_truncated", out["lost_truncated"], False)
check("lost (dqpn, psn, opcode, frame, direction)",
      sorted((x["dqpn"], x["psn"], x["opcode"], x.get("frame_a", x.get("frame_b")), x["direction"])
             for x in out["lost"]), sorted(lost))
for key, fr in (("only_in_b", "frame_b"), ("only_in_a", "frame_a")):
    want = sorted((p["dqpn"], p["psn"], p[fr]) for p in pk if fate(p) == key)
    check(key + ".count", out[key]["count"], len(want))
    check(key + ".list", sorted((x["dqpn"], x["psn"], x[fr]) for x in out[key]["list"]), want)
# per flow
for f in out["flows"]:
    key = (norm(f["src"]), norm(f["dst"]), f["dqpn"])
    ps = [p for p in pk if (p["s"], p["d"], p["dqpn"]) == key]
    where = "flow %s -> %s qp %d: " % (f["src"], f["dst"], f["dqpn"])
    if not ps:
        errors.append(where + "not in the truth")
        continue
    figures(ps, f, where)
    check(where + "lost_count", f["lost_count"], sum(1 for p in ps if fate(p) == "lost"))
    check(where + "only_in_b", f["only_in_b"], sum(1 for p in ps if fate(p) == "only_in_b"))
    check(where + "only_in_a", f["only_in_a"], sum(1 for p in ps if fate(p) == "only_in_a"))
    want_dir = ps[0]["dir"] if (ps[0]["s"], ps[0]["d"]) in known else "unknown"
    check(where + "direction", f["direction"], want_dir)
check("flows", len(out["flows"]), len({(p["s"], p["d"], p["dqpn"]) for p in pk}))
check("tap_a.frames", out["tap_a"]["frames"], truth["frames_a"])
check("tap_b.frames", out["tap_b"]["frames"], truth["frames_b"])
if errors:
    print("FAIL: %s vs %s (%s):" % (fa, fb, " ".join(extra)))
    for e in errors[:30]:
        print("  " + e)
    sys.exit(1)
print("ok: %s: %d matched, %d lost, %d only in B, %d only in A, offset %d%s"
      % (fb, out["matched"], out["lost_count"], out["only_in_b"]["count"], out["only_in_a"]["count"],
         out["offset_ns"], " (estimated)" if out["offset_estimated"] else ""))
