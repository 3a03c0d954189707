#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The differential test: rocewire-gen's ground truth against the report.

usage: diff_run.py [--samples DIR] [--seeds N] [--first S] [--seed-list FILE]
                   [--jobs J] [--keep DIR] [--max-lines N]

For every sample scenario of DIR and for N seeded random scenarios
(diff_scenario.py), rocewire-gen writes a pcap and its ground truth
(--truth-jsonl); the capture is read whole and, for most cases, cut at
random points (a start, an end, or both); rocewire-cap --report --json and
rocewire-diff-notes (the engine's verdict per packet) read the cut; and
every per-flow figure and every per-packet verdict is compared with what
the truth implies (diff_oracle.py), field by field, with no exemption.
Samples also check that the truth changes nothing: the pcap written with
--truth-jsonl is the one written without it.

A mismatch prints the seed (or sample), the scenario, the cut, the flow,
the field, the truth's figure and the report's. With --keep DIR every
failing case's files (scenario, pcap, truth, cut, report, notes) are kept
in DIR/CASE/. Exit status: 0 no mismatch, 1 mismatches, 2 a tool failed.
Programs come from ROCEWIRE_GEN, ROCEWIRE_CAP and ROCEWIRE_DIFF_NOTES.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import random
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import diff_oracle  # noqa: E402
import diff_scenario  # noqa: E402

GEN = os.environ.get("ROCEWIRE_GEN", "rocewire-gen")
CAP = os.environ.get("ROCEWIRE_CAP", "rocewire-cap")
NOTES = os.environ.get("ROCEWIRE_DIFF_NOTES", "rocewire-diff-notes")

# big samples are cut short with -n (the run still ends on whole messages)
SAMPLE_PACKETS = {"line-rate": 3000, "ud-flood": 3000, "lossy-incast": 4000, "clean-mix": 4000,
                  "lossy-gbn": 6000, "incast-dcqcn": 6000, "incast-pfc": 6000, "pfc-storm": 6000}

FLOW_FIELDS = ("packets", "bytes", "payload_bytes", "transport", "requests", "responses", "messages",
               "incomplete_messages", "orphan_packets", "psn_gaps", "missing_psns", "retransmissions",
               "gbn_episodes", "out_of_order", "acks", "cnps", "pkts_while_paused", "icrc_bad",
               "unsynced_packets", "precapture_resends", "messages_cut_by_capture_start",
               "messages_cut_by_capture_end", "first_seen_mid_message")
PROTOCOL_VIOLATIONS = ("dup_nak", "nak_wrong_psn", "ack_backwards", "msn_backwards", "resend_wrong_start",
                       "read_resume_wrong")


def pcap_records(path):
    with open(path, "rb") as f:
        d = f.read()
    e = "<" if d[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    nano = d[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    out, o = [], 24
    while o + 16 <= len(d):
        s, fr, incl, _ = struct.unpack(e + "IIII", d[o:o + 16])
        out.append((s * 10**9 + (fr if nano else fr * 1000), d[o:o + 16 + incl]))
        o += 16 + incl
    return d[:24], out


def cut_pcap(src, dst, a, b):
    """Frames a..b (from 1) of src into dst, as editcap -r keeps them."""
    hdr, recs = pcap_records(src)
    with open(dst, "wb") as f:
        f.write(hdr)
        for _, rec in recs[a - 1:b]:
            f.write(rec)


def same_capture(p1, p2):
    """The same frames at the same times from the first (the base of the
    times is the wall clock at the end of the run)."""
    _, r1 = pcap_records(p1)
    _, r2 = pcap_records(p2)
    if len(r1) != len(r2):
        return "%d frames with --truth-jsonl, %d without" % (len(r1), len(r2))
    t1, t2 = (r1[0][0] if r1 else 0), (r2[0][0] if r2 else 0)
    for i, ((a, x), (b, y)) in enumerate(zip(r1, r2)):
        if x[16:] != y[16:] or a - t1 != b - t2:
            return "frame %d differs with --truth-jsonl" % (i + 1)
    return None


def limits():
    # a scenario that never ends (it should not: diff_scenario.py bounds
    # them) must not fill the disk: 1 GiB per file (EAL's memory, -m 512
    # without hugepages, is a file too)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 30, 1 << 30))


def run(cmd, out=None, ok=(0,), cwd=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE if out is None else open(out, "w"), stderr=subprocess.PIPE,
                       timeout=300, preexec_fn=limits, cwd=cwd)
    if p.returncode not in ok:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode()[-400:]))
    return p.stdout


def report_flows(rep):
    out = {}
    for q in rep["qps"]:
        key = "%s>%s/%d" % (diff_oracle.norm_ip(q["src"]), diff_oracle.norm_ip(q["dst"]), q["dqpn"])
        if key in out:
            out[key + "#%d" % q["conversation"]] = q
        else:
            out[key] = q
    return out


def compare(case, truth, a, b, rep, notes, link_gbps):
    """Every mismatch as (field, flow, truth value, report value)."""
    exp, pkts, top = diff_oracle.expect(truth, a, b, link_gbps)
    got = report_flows(rep)
    by_index = {q["index"]: k for k, q in got.items()}
    mm = []

    def diff(field, flow, want, have):
        if want != have:
            mm.append((field, flow, want, have))

    for k in sorted(set(exp) | set(got)):
        e, g = exp.get(k), got.get(k)
        if e is None or g is None:
            diff("flow", k, "present" if e else "absent", "present" if g else "absent")
            continue
        for fld in FLOW_FIELDS:
            diff(fld, k, e[fld], g.get(fld))
        for sub in ("naks",):
            for kk, vv in e[sub].items():
                diff("%s.%s" % (sub, kk), k, vv, g[sub].get(kk))
        for i, name in enumerate(("not_ect", "ect1", "ect0", "ce")):
            diff("ecn." + name, k, e["ecn"][i], g["ecn"][name])
        for kk, vv in e["msgs_by_op"].items():
            diff("msgs_by_op." + kk, k, vv, g["msgs_by_op"].get(kk))
        peer = by_index.get(g["peer"]) if g.get("peer") is not None else None
        diff("peer", k, e["peer"], peer)
        ci, gi = e["cnp_min_interval_us"], g.get("cnp_min_interval_us")
        if (ci is None) != (gi is None) or (ci is not None and abs(ci - gi) > 0.0015):
            mm.append(("cnp_min_interval_us", k, ci, gi))
        conf = g.get("conformance") or {}
        viol = conf.get("violations") or {}
        for v in PROTOCOL_VIOLATIONS:
            diff("conformance.violations." + v, k, 0, (viol.get(v) or {}).get("count", 0))
        res = conf.get("resends") or {}
        if e["qp"] and e["qp"][1] == "request":
            for c in ("nak", "rnr", "timeout", "implied"):
                diff("conformance.resends." + c, k, e["resends"][c], res.get(c, 0))
    diff("total.packets", "-", top["packets"], rep["packets"])
    diff("total.bytes", "-", top["bytes"], rep["bytes"])
    diff("total.icrc_bad", "-", top["icrc_bad"], rep["icrc"]["bad"])
    diff("total.carriers.pfc", "-", top["pfc_frames"], rep["carriers"]["pfc"])
    diff("total.carriers.rocev2", "-", top["rocev2"], rep["carriers"]["rocev2"])
    diff("total.cnps_unlinked", "-", top["cnps_unlinked"], rep["cnps_unlinked"])
    ncnp = sum(1 for v in pkts.values() if v["truth"].get("op") == "CNP")
    if ncnp - top["cnps_unlinked"] < top["cnps_linked_truth"]:
        # the definition's linking must link at least the CNPs whose own
        # mark (the truth's) the window holds on the flow they slow
        mm.append(("oracle.cnps_linked", "-", "at least %d" % top["cnps_linked_truth"],
                   ncnp - top["cnps_unlinked"]))
    for p in map(str, range(8)):
        e, g = top["pfc"].get(p), rep["pfc"].get(p) or {}
        for fld in ("frames", "xoff", "xon", "storms"):
            diff("pfc.%s.%s" % (p, fld), "-", (e or {}).get(fld, 0), g.get(fld, 0))
        for fld in ("paused_us", "longest_us"):
            ev, gv = (e or {}).get(fld, 0.0), g.get(fld, 0.0) or 0.0
            if abs(ev - gv) > 0.002 * max(1, ev / 1000):
                mm.append(("pfc.%s.%s" % (p, fld), "-", round(ev, 3), gv))

    # per packet: the flow, the compared verdicts, CNP links
    seen = set()
    for n in notes:
        fr = n["frame"]
        v = pkts.get(fr)
        if v is None:
            mm.append(("packet.frame", "frame %d" % fr, "absent", "present"))
            continue
        seen.add(fr)
        key = v["key"]
        nk = n["key"]
        if nk is not None:
            nk = "%s>%s/%s" % tuple([diff_oracle.norm_ip(x) for x in nk.split("/")[0].split(">")] +
                                    [nk.split("/")[1]])
        if nk != key:
            mm.append(("packet.flow", "frame %d" % fr, key, nk))
        r = v["truth"]
        for fl in diff_oracle.COMPARED_FLAGS:
            want, have = fl in v["flags"], fl in n["flags"]
            if want != have:
                mm.append(("packet." + fl, "frame %d (%s)" % (fr, key), want, have))
        if "truth_says_new" in v["flags"]:
            mm.append(("oracle.truth_says_new", "frame %d (%s)" % (fr, key), "new", "seen before"))
        if r["kind"] == "roce" and r["op"] == "CNP":
            ck = n["cnp_key"]
            if ck is not None:
                ck = "%s>%s/%s" % tuple([diff_oracle.norm_ip(x) for x in ck.split("/")[0].split(">")] +
                                        [ck.split("/")[1]])
            if ck != v["cnp_key"]:
                mm.append(("packet.cnp_flow", "frame %d" % fr, v["cnp_key"], ck))
            # the CE mark the definition links it to (README "CNPs and CE
            # marks": the oldest still waiting, one mark per CNP); 0: a mark
            # beyond those timed, which names no frame
            if v["ce_frame"] and "cnp_linked" in n["flags"] and \
                    (n["ce_frame"] != v["ce_frame"] or n["ce_count"] != 1):
                mm.append(("packet.cnp_ce_frame", "frame %d" % fr, v["ce_frame"],
                           "%d marks from frame %d" % (n["ce_count"], n["ce_frame"])))
    for fr in sorted(set(pkts) - seen):
        mm.append(("packet.frame", "frame %d" % fr, "present", "absent"))
    return mm


def link_gbps_of(truth):
    for r in truth:
        if r["kind"] == "pfc" and r.get("link_bps"):
            return r["link_bps"] / 1e9
    return 100.0


def one_case(case, workdir, keep):
    """case: dict(name, yaml, desc, nargs, cut_seed). Returns (case, mismatches, error, files dir)."""
    d = tempfile.mkdtemp(prefix="diff-", dir=workdir)
    try:
        scen = case["yaml"]
        if case.get("text"):
            scen = os.path.join(d, "scenario.yaml")
            with open(scen, "w") as f:
                f.write(case["text"])
        g, t = os.path.join(d, "gen.pcap"), os.path.join(d, "gen.truth")
        # in the case's directory: a scenario's fct/pfc/qlen files are relative
        run([GEN, "-Q", "-w", g, "--truth-jsonl", t] + case["nargs"] + [scen], cwd=d)
        if case.get("check_same"):
            g2 = os.path.join(d, "plain.pcap")
            run([GEN, "-Q", "-w", g2] + case["nargs"] + [scen], cwd=d)
            why = same_capture(g, g2)
            if why:
                return case, [("truth_changes_capture", "-", "same pcap", why)], None, d
        truth = [json.loads(x) for x in open(t)]
        nframes = sum(1 for r in truth if r.get("frame"))
        r = random.Random(case["cut_seed"])
        a, b = 1, nframes
        modes = ["start", "end", "both"] if case.get("force_cut") else ["whole", "whole", "start", "end", "both"]
        mode = r.choice(modes) if nframes > 4 else "whole"
        if mode in ("start", "both"):
            a = r.randint(2, max(2, nframes // 2))
        if mode in ("end", "both"):
            b = r.randint(max(a, nframes // 2), nframes - 1)
        c = os.path.join(d, "cut.pcap")
        if (a, b) == (1, nframes):
            shutil.copyfile(g, c)
        else:
            cut_pcap(g, c, a, b)
        case["cut"] = "whole" if (a, b) == (1, nframes) else "frames %d-%d of %d" % (a, b, nframes)
        lg = link_gbps_of(truth)
        rep_p, notes_p = os.path.join(d, "report.json"), os.path.join(d, "notes.jsonl")
        # exit 1: a bad ICRC was seen (corrupt faults): the report is whole
        run([CAP, "-q", "-r", c, "--report", "--json", "--link-gbps", "%g" % lg], rep_p, ok=(0, 1))
        run([NOTES, "-l", "%g" % lg, c], notes_p)
        rep = json.load(open(rep_p))
        notes = [json.loads(x) for x in open(notes_p)]
        mm = compare(case, truth, a, b, rep, notes, lg)
        return case, mm, None, d
    except Exception as e:  # a tool failed: say which and keep going
        return case, [], str(e), d


def cases(args):
    out = []
    if args.samples:
        for y in sorted(glob.glob(os.path.join(os.path.abspath(args.samples), "*.yaml"))):
            name = os.path.basename(y)[:-5]
            n = SAMPLE_PACKETS.get(name, 5000)
            out.append({"name": "sample " + name, "yaml": y, "desc": name, "nargs": ["-n", str(n)],
                        "cut_seed": zlib.crc32(name.encode()), "check_same": True})
            out.append({"name": "sample %s (cut)" % name, "yaml": y, "desc": name, "nargs": ["-n", str(n)],
                        "cut_seed": 1 + len(name), "force_cut": True})
    seeds = list(range(args.first, args.first + args.seeds))
    if args.seed_list:
        for line in open(args.seed_list):
            line = line.split("#")[0].strip()
            if line and int(line) not in seeds:
                seeds.append(int(line))
    for s in seeds:
        text, desc = diff_scenario.make(s)
        out.append({"name": "seed %d" % s, "yaml": None, "text": text, "desc": desc, "nargs": [],
                    "cut_seed": s * 7919, "check_same": s % 25 == 0})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples")
    ap.add_argument("--seeds", type=int, default=0)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--seed-list", help="a file of more seeds, one per line (# comments)")
    ap.add_argument("--jobs", type=int, default=3)
    ap.add_argument("--keep")
    ap.add_argument("--max-lines", type=int, default=6, help="mismatch lines printed per case")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="rocewire-diff-")
    t0 = time.time()
    classes = collections.OrderedDict()
    failed_cases, errors, n = 0, 0, 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(one_case, c, work, args.keep) for c in cases(args)]
        for fu in concurrent.futures.as_completed(futs):
            case, mm, err, d = fu.result()
            n += 1
            where = "%s [%s] %s" % (case["name"], case["desc"], case.get("cut", ""))
            if err:
                errors += 1
                print("ERROR %s: %s" % (where, err))
            if mm:
                failed_cases += 1
                print("MISMATCH %s: %d fields" % (where, len(mm)))
                for fld, flow, want, have in mm[:args.max_lines]:
                    print("  %s  flow %s: truth %s, report %s" % (fld, flow, want, have))
                if len(mm) > args.max_lines:
                    print("  ... %d more" % (len(mm) - args.max_lines))
                kinds = "incast" if case["desc"].startswith("incast") else case["desc"].split(" ")[0]
                for fld, flow, want, have in mm:
                    c = classes.setdefault(fld, {"cases": 0, "example": None, "kinds": set(), "seen": set()})
                    if case["name"] not in c["seen"]:
                        c["seen"].add(case["name"])
                        c["cases"] += 1
                        c["kinds"].add(kinds)
                    if c["example"] is None:
                        c["example"] = "%s %s: flow %s truth %s report %s" % (case["name"], case.get("cut", ""),
                                                                              flow, want, have)
            if (mm or err) and args.keep:
                dst = os.path.join(args.keep, case["name"].replace(" ", "-").replace("(", "").replace(")", ""))
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(d, dst)
            shutil.rmtree(d, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    print("\n%d cases in %.0f s: %d with mismatches, %d tool errors" % (n, time.time() - t0, failed_cases, errors))
    if classes:
        print("mismatch classes (field: cases, scenario kinds, first example):")
        for fld, c in sorted(classes.items(), key=lambda x: -x[1]["cases"]):
            print("  %-40s %4d  %-24s %s" % (fld, c["cases"], ",".join(sorted(c["kinds"])), c["example"]))
    if args.keep and (failed_cases or errors):
        print("files of the failing cases kept in %s" % args.keep)
    return 2 if errors else 1 if failed_cases else 0


if __name__ == "__main__":
    sys.exit(main())
