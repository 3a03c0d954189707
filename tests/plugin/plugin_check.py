#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Wireshark plugin checked against answers it did not make.

Each check runs tshark with the plugin (unprivileged, a scratch HOME,
WIRESHARK_PLUGIN_DIR at the plugin folder: as root tshark ignores plugin
folders) and compares its rocewire.* fields with:
  icrc     the built-in dissector (where the ICRC lies, to corrupt copies of
           the samples) and rocewire-cap --json (the ICRC of every sample);
  fields   rocewire-cap --json (per-frame decode) and rocewire-notes (the
           engine's per-packet verdicts, driven without the plugin);
  flows    rocewire-cap --report --json (per-flow totals);
  twopass  tshark -2 against one pass;
  tap      tshark -q -z rocewire,qp against rocewire-cap --report;
  stats    per QP, the stats tree (-z rocewire_qp,tree), the -z rocewire,qp
           table and rocewire-cap --report --json give the same figures, on
           the whole capture and on copies cut at several points;
  load     the plugin listed by tshark -G plugins from the given folder;
  nak_ignored  on captures derived from the given real loss capture by
           tests/e2e/nak_ignored_pcap.py (a requester that never resends a
           NAKed PSN): tshark -2 shows rocewire.nak_ignored and its expert
           info on exactly the NAK the built-in dissector's fields show
           unanswered, naming the first request past the timeout (the
           rto_us preference too); one pass, and the original, show none.

usage: plugin_check.py CHECK FILE...   (env: see test_plugin.sh)
Exit 0 pass, 1 fail, 77 skip (with the reason on stdout).
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

CAP = os.environ.get("ROCEWIRE_CAP", "")
NOTES = os.environ.get("ROCEWIRE_NOTES", "")
PLUGIN_DIR = os.environ.get("ROCEWIRE_PLUGIN_DIR", "")
SRC = os.environ.get("ROCEWIRE_SOURCE_DIR", "")

# The engine's per-packet flags (rocewire/analyze.h RW_N_*), in bit order, as
# rocewire-notes names them.
FLAG_NAMES = ["new", "gap", "retrans", "gbn_start", "ooo", "msg_done", "msg_broken", "ack", "nak",
              "read_match", "atomic_match", "cnp_linked", "ce", "paused", "pfc", "msn_regress",
              "orphan", "unsynced", "precapture", "cut_start", "paired", "new_conv"]

# The transport header fields and the rocewire-cap --json key each equals.
HEADER_KEYS = [("bth.dqpn", "bth.dqpn"), ("bth.pkey", "bth.pkey"), ("rdeth.een", "rdeth.een"),
               ("deth.qkey", "deth.qkey"), ("deth.sqpn", "deth.sqpn"),
               ("xrceth.xrcsrq", "xrceth.xrcsrq"), ("reth.va", "reth.va"),
               ("reth.rkey", "reth.rkey"), ("reth.len", "reth.len"),
               ("atomiceth.va", "atomiceth.va"), ("atomiceth.rkey", "atomiceth.rkey"),
               ("atomiceth.swap_add", "atomiceth.swap_add"),
               ("atomiceth.compare", "atomiceth.compare"), ("aeth.syndrome", "aeth.syndrome"),
               ("aeth.msn", "aeth.msn"), ("atomicacketh.orig", "atomicacketh.orig"),
               ("immdt.data", "immdt.data"), ("ieth.rkey", "ieth.rkey")]

FIELDS = ["frame.number", "frame.cap_len", "frame.time_epoch", "rocewire.cnp.too_often", "rocewire.carrier", "rocewire.bth.name", "rocewire.bth.psn",
          "rocewire.icrc.status", "rocewire.icrc.wire", "rocewire.icrc.computed",
          "rocewire.icrc.bad", "rocewire.vcrc.status", "rocewire.vcrc.wire",
          "rocewire.vcrc.computed", "rocewire.vcrc.bad", "rocewire.flow", "rocewire.peer_flow",
          "rocewire.verdicts", "rocewire.psn.expected", "rocewire.psn.gap",
          "rocewire.retransmission", "rocewire.gbn_start", "rocewire.out_of_order",
          "rocewire.msg.number", "rocewire.msg.first_frame", "rocewire.msg.bytes", "rocewire.msg.incomplete",
          "rocewire.ack.psn", "rocewire.ack.covers", "rocewire.ack.request_frame",
          "rocewire.ack.latency", "rocewire.nak.kind", "rocewire.rnr.timer_us",
          "rocewire.read.request_frame", "rocewire.read.latency",
          "rocewire.atomic.request_frame", "rocewire.atomic.latency", "rocewire.cnp.ce_frame",
          "rocewire.cnp.flow", "rocewire.cnp.interval", "rocewire.ipv4.ecn", "rocewire.ipv6.ecn", "rocewire.ce",
          "rocewire.pfc.priority", "rocewire.pfc.pause_us", "rocewire.pfc.storm",
          "rocewire.paused", "rocewire.error", "_ws.expert.message"] + [
              "rocewire." + k for k, _ in HEADER_KEYS]

failures = []


def fail(msg):
    failures.append(msg)
    if len(failures) <= 40:
        print("FAIL " + msg)


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


class Tshark:
    """tshark as an unprivileged user with a scratch HOME."""

    def __init__(self, plugin_dir):
        self.work = tempfile.mkdtemp(prefix="rw-plugin.")
        os.chmod(self.work, 0o777)
        self.plugin_dir = plugin_dir
        self.prefix = []
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                skip("running as root and setpriv (util-linux) is missing: tshark as root "
                     "ignores plugin folders")
            self.prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        self.noheur = []
        # The heuristics on infiniband.payload call valid RoCE malformed
        # (tests/e2e/tshark_noheur.sh has the same list).
        for h in ("rpcrdma_infiniband eth_over_ib fc_infiniband sdp_infiniband iser_infiniband "
                  "lnet_ib smb_direct_infiniband smcr_infiniband nvme_rdma").split():
            self.noheur += ["--disable-heuristic", h]

    def readable(self, path):
        """A copy of path that the unprivileged user can read."""
        dst = os.path.join(self.work, os.path.basename(path))
        if os.path.abspath(path) != dst:
            shutil.copyfile(path, dst)
        os.chmod(dst, 0o644)
        return dst

    def run(self, args, plugin=True):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.work,
               "XDG_CONFIG_HOME": os.path.join(self.work, ".config"), "LC_ALL": "C"}
        if plugin:
            env["WIRESHARK_PLUGIN_DIR"] = self.plugin_dir
        else:
            env["WIRESHARK_PLUGIN_DIR"] = os.path.join(self.work, "no-plugins")
        r = subprocess.run(self.prefix + ["tshark"] + args, env=env, capture_output=True,
                           text=True, cwd=self.work)
        return r

    def fields(self, path, extra=(), names=FIELDS):
        args = ["-r", self.readable(path), "-T", "fields", "-E", "occurrence=a",
                "-E", "aggregator=;", "-E", "separator=\t"] + self.noheur + list(extra)
        for f in names:
            args += ["-e", f]
        r = self.run(args)
        if r.returncode != 0:
            fail("%s: tshark exited with %d: %s" % (path, r.returncode, r.stderr.strip()[:300]))
            return []
        rows = []
        for line in r.stdout.splitlines():
            vals = line.split("\t")
            vals += [""] * (len(names) - len(vals))
            rows.append(dict(zip(names, vals)))
        return rows


def cap_json(path, extra=()):
    r = subprocess.run([CAP, "--json", "-r", path] + list(extra), capture_output=True, text=True)
    if r.returncode not in (0, 1):
        fail("%s: rocewire-cap --json exited with %d" % (path, r.returncode))
    return {o["frame"]: o for o in map(json.loads, r.stdout.splitlines())}


def notes(path):
    r = subprocess.run([NOTES, path], capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s: rocewire-notes exited with %d" % (path, r.returncode))
    out = {}
    for o in map(json.loads, r.stdout.splitlines()):
        if "frame" in o:
            out[o["frame"]] = o
    return out


def ns(text):
    """A tshark relative time ("0.000012000") in nanoseconds."""
    s, _, frac = text.partition(".")
    return int(s) * 1000000000 + int((frac + "000000000")[:9])


STATUS = {"ok": "good", "bad": "bad", "none": "absent"}


def check_crc(name, path, frame, row, js):
    """rocewire.icrc.* / vcrc.* against rocewire-cap --json's icrc / vcrc."""
    want = js.get(name)
    got = row["rocewire.%s.status" % name]
    if want is None:
        if got not in ("", "absent"):
            fail("%s frame %d: %s %s, rocewire-cap has none" % (path, frame, name, got))
        return
    if got != STATUS[want["status"]]:
        fail("%s frame %d: %s status %r, rocewire-cap %r" % (path, frame, name, got, want["status"]))
    for k in ("wire", "computed"):
        w = want.get(k)
        g = row["rocewire.%s.%s" % (name, k)]
        if (w is None) != (g == "") or (w is not None and int(w, 16) != int(g, 16)):
            fail("%s frame %d: %s.%s %r, rocewire-cap %r" % (path, frame, name, k, g, w))
    if (row["rocewire.%s.bad" % name] != "") != (want["status"] == "bad"):
        fail("%s frame %d: %s.bad present=%s" % (path, frame, name, row["rocewire.%s.bad" % name]))


def check_decode(ts, path, ts_opts=(), cap_opts=()):
    """Per-frame fields against rocewire-cap --json: carrier, opcode, PSN, CRCs."""
    js = cap_json(path, cap_opts)
    rows = ts.fields(path, extra=ts_opts)
    if len(rows) != len(js):
        fail("%s: %d frames from tshark, %d from rocewire-cap" % (path, len(rows), len(js)))
    for row in rows:
        fr = int(row["frame.number"])
        j = js.get(fr, {})
        carrier = j.get("carrier", "other")
        if carrier == "other":
            if row["rocewire.carrier"]:
                fail("%s frame %d: a rocewire tree on a frame rocewire-cap calls other" % (path, fr))
            continue
        if row["rocewire.carrier"] != carrier:
            fail("%s frame %d: carrier %r, rocewire-cap %r" % (path, fr, row["rocewire.carrier"], carrier))
        bth = j.get("bth")
        if bth:
            if row["rocewire.bth.name"] != bth["name"] or row["rocewire.bth.psn"] != str(bth["psn"]):
                fail("%s frame %d: opcode/psn %s/%s, rocewire-cap %s/%s" % (
                    path, fr, row["rocewire.bth.name"], row["rocewire.bth.psn"], bth["name"], bth["psn"]))
        for ip in ("ipv4", "ipv6"):
            ecn = (j.get(ip) or {}).get("ecn")
            got = row["rocewire.%s.ecn" % ip]
            if (ecn is None and got) or (ecn is not None and got != str(ecn)):
                fail("%s frame %d: %s.ecn %r, rocewire-cap %r" % (path, fr, ip, got, ecn))
        if ("error" in j) != (row["rocewire.error"] != ""):
            fail("%s frame %d: decode error %r, rocewire-cap %r" % (path, fr, row["rocewire.error"], j.get("error")))
        # PFC/PAUSE: the pause asked per priority, from the frame's quanta
        # (IEEE 802.1Qbb/802.3x: 512 bit times each) at the default 100 Gb/s.
        want_pause = {}
        if "pfc" in j:
            for i, q in enumerate(j["pfc"]["quanta"]):
                if j["pfc"]["cev"] >> i & 1 and q:
                    want_pause[i] = q * 512 / 100 / 1000
        if "pause" in j and j["pause"]["quanta"]:
            want_pause[8] = j["pause"]["quanta"] * 512 / 100 / 1000
        prios = [int(v) for v in row["rocewire.pfc.priority"].split(";") if v]
        pauses = [float(v) for v in row["rocewire.pfc.pause_us"].split(";") if v]
        got_pause = dict(zip(prios, pauses))
        if set(got_pause) != set(want_pause) or any(
                abs(got_pause[k] - v) > 1e-3 for k, v in want_pause.items()):
            fail("%s frame %d: pause per priority %r, from the quanta %r" % (path, fr, got_pause, want_pause))
        for field, key in HEADER_KEYS:
            obj = j
            for part in key.split("."):
                obj = obj.get(part) if isinstance(obj, dict) else None
            got = row["rocewire." + field]
            if obj is None:
                if got:
                    fail("%s frame %d: rocewire.%s %r, rocewire-cap has none" % (path, fr, field, got))
                continue
            want = int(obj, 16) if isinstance(obj, str) else int(obj)
            if not got or int(got, 0) != want:
                fail("%s frame %d: rocewire.%s %r, rocewire-cap %r" % (path, fr, field, got, obj))
        if bth:
            check_crc("icrc", path, fr, row, j)
        if carrier == "ib" and bth:
            check_crc("vcrc", path, fr, row, j)
    return rows


# The expert infos a frame must carry, by the engine's flag (rocewire-notes)
# or the decode (rocewire-cap --json): the start of each message.
EXPERT_BY_FLAG = [("gap", "PSN gap"), ("retrans", "Retransmission"), ("gbn_start", "Go-back-N"),
                  ("ooo", "Out of order"), ("ce", "CE mark"), ("paused", "Sent while")]


def check_expert(path, fr, row, flags, js):
    msgs = [m for m in row["_ws.expert.message"].split(";") if m]
    want = [text for flag, text in EXPERT_BY_FLAG if flag in flags]
    if "nak" in flags:
        want.append("RNR NAK" if js.get("aeth", {}).get("kind") == "rnr_nak" else "NAK (")
    if js.get("bth", {}).get("name") == "CNP":
        want.append("Congestion notification")
    if js.get("icrc", {}).get("status") == "bad":
        want.append("Bad ICRC")
    if js.get("vcrc", {}).get("status") == "bad":
        want.append("Bad VCRC")
    if row["rocewire.error"]:
        want.append(row["rocewire.error"])
    for w in want:
        if not any(m.startswith(w) for m in msgs):
            fail("%s frame %d: no expert info %r (has %r)" % (path, fr, w, msgs))
    # And none of rocewire's that nothing asked for (storms and CNP pacing
    # aside: the engine's per-frame flags do not carry them). The built-in
    # dissectors' own expert infos are in the same field: only rocewire's
    # messages are looked at.
    ours = ("Bad ICRC", "Bad VCRC", "PSN gap", "Retransmission", "Go-back-N", "Out of order",
            "NAK (", "RNR NAK", "CE mark", "Congestion notification", "Sent while", "NAK ignored")
    extra = [m for m in msgs if m.startswith(ours) and not any(m.startswith(w) for w in want)]
    if extra:
        fail("%s frame %d: expert infos %r the engine did not ask for" % (path, fr, extra))


def check_verdicts(path, rows):
    """Per-frame analysis fields against rocewire-notes (the engine without
    the plugin), and the expert infos they call for."""
    nt = notes(path)
    js = cap_json(path)
    for row in rows:
        fr = int(row["frame.number"])
        n = nt.get(fr)
        if n is None:
            fail("%s frame %d: rocewire-notes has no such frame" % (path, fr))
            continue
        flags = sum(1 << FLAG_NAMES.index(f) for f in n["flags"])
        got_flags = int(row["rocewire.verdicts"], 16) if row["rocewire.verdicts"] else 0
        if not row["rocewire.carrier"] and not row["rocewire.verdicts"]:
            continue  # a frame with no rocewire tree (not RoCE/IB/PFC)
        check_expert(path, fr, row, set(n["flags"]), js.get(fr, {}))
        if got_flags != flags:
            fail("%s frame %d: verdicts 0x%x, engine 0x%x (%s)" % (path, fr, got_flags, flags, n["flags"]))
        flow = row["rocewire.flow"]
        if (flow or "-1") != str(n["flow"]):
            fail("%s frame %d: flow %r, engine %d" % (path, fr, flow, n["flow"]))
        f = set(n["flags"])
        checks = []
        if f & {"new", "retrans"}:
            checks.append(("rocewire.psn.expected", str(n["expected"])))
        for flag, field in (("retrans", "rocewire.retransmission"), ("gbn_start", "rocewire.gbn_start"),
                            ("ooo", "rocewire.out_of_order"), ("msg_broken", "rocewire.msg.incomplete"),
                            ("ce", "rocewire.ce"), ("paused", "rocewire.paused")):
            if (flag in f) != (row[field] != ""):
                fail("%s frame %d: %s present=%r, engine flag %s=%s" % (
                    path, fr, field, row[field], flag, flag in f))
        if ("gap" in f) != (row["rocewire.psn.gap"] != ""):
            fail("%s frame %d: psn.gap %r with engine flags %s" % (path, fr, row["rocewire.psn.gap"], n["flags"]))
        if f & {"ack", "nak"}:
            checks.append(("rocewire.ack.psn", str(n["ack_psn"])))
        if "ack" in f and n["req_frame"]:
            checks.append(("rocewire.ack.request_frame", str(n["req_frame"])))
            checks.append(("rocewire.ack.latency", n["lat"]))
        for flag, field in (("read_match", "rocewire.read"), ("atomic_match", "rocewire.atomic")):
            if flag in f:
                checks.append((field + ".request_frame", str(n["req_frame"])))
                checks.append((field + ".latency", n["lat"]))
            elif row[field + ".request_frame"]:
                fail("%s frame %d: %s.request_frame without the engine's %s" % (path, fr, field, flag))
        kinds = ["psn_seq", "invalid_request", "remote_access", "remote_op", "invalid_rd", "rnr", "reserved"]
        if "nak" in f:
            checks.append(("rocewire.nak.kind", kinds[n["nak"]]))
        for field, want in checks:
            got = row[field]
            if isinstance(want, int):
                got = ns(got) if got else None
            if got != want:
                fail("%s frame %d: %s %r, engine %r" % (path, fr, field, got, want))


def check_flows(ts, path):
    """Per-flow totals from the plugin's per-frame fields against
    rocewire-cap --report --json."""
    r = subprocess.run([CAP, "-r", path, "--report", "--json"], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        fail("%s: rocewire-cap --report --json exited with %d" % (path, r.returncode))
        return
    rep = json.loads(r.stdout)
    rows = ts.fields(path)
    tot = {}
    peers = {}
    for row in rows:
        if not row["rocewire.flow"]:
            continue
        i = int(row["rocewire.flow"])
        t = tot.setdefault(i, {"packets": 0, "retransmissions": 0, "gbn_episodes": 0,
                               "out_of_order": 0, "psn_gaps": 0, "ce": 0,
                               "pkts_while_paused": 0, "icrc_bad": 0})
        t["packets"] += 1
        t["retransmissions"] += row["rocewire.retransmission"] != ""
        t["gbn_episodes"] += row["rocewire.gbn_start"] != ""
        t["out_of_order"] += row["rocewire.out_of_order"] != ""
        t["psn_gaps"] += row["rocewire.psn.gap"] != ""
        t["ce"] += row["rocewire.ce"] != ""
        t["pkts_while_paused"] += row["rocewire.paused"] != ""
        t["icrc_bad"] += row["rocewire.icrc.bad"] != ""
        if row["rocewire.peer_flow"]:
            peers[i] = int(row["rocewire.peer_flow"])
    check_messages(path, rows, rep)
    check_links(path, rows)
    too_often = sum(1 for r in rows if r["rocewire.cnp.too_often"])
    want = rep["cnp_pacing"]["too_often"][rep["cnp_pacing"]["mode"]]
    if too_often != want:
        fail("%s: %d frames with cnp.too_often, the report counts %d" % (path, too_often, want))
    qps = {q["index"]: q for q in rep["qps"]}
    if set(qps) != set(tot):
        fail("%s: flows %s in the plugin, %s in the report" % (path, sorted(tot), sorted(qps)))
    for i, q in qps.items():
        t = tot.get(i)
        if t is None:
            continue
        want = dict((k, q[k]) for k in ("packets", "retransmissions", "gbn_episodes", "out_of_order",
                                          "psn_gaps", "pkts_while_paused", "icrc_bad"))
        want["ce"] = q["ecn"]["ce"]
        for k, v in want.items():
            if t[k] != v:
                fail("%s flow %d: %s %d from the plugin's frames, %d in the report" % (path, i, k, t[k], v))
        # A flow is often paired by a response after its own last packet:
        # then its peer's frames name it.
        peer = peers.get(i)
        if peer is None:
            peer = next((j for j, p in peers.items() if p == i), None)
        if peer != q["peer"]:
            fail("%s flow %d: peer_flow %r, report peer %r" % (path, i, peer, q["peer"]))
    print("flows %s: %d flows, %d frames" % (os.path.basename(path), len(qps), len(rows)))


def check_messages(path, rows, rep):
    """rocewire.msg.*: a completed message's first frame is an earlier
    FIRST/ONLY packet of the same flow (opcode names from rocewire-cap
    --json). A number is the flow's count as known at that packet: it grows
    with each completed message (by several at a packet that fills a hole
    behind held ones), and a NAK that refuses messages already counted takes
    the count back (README-report.md, "messages"), so a later number may be
    lower. The report's final count never passes the highest number."""
    js = cap_json(path)
    high = {}
    msgs = {q["index"]: q["messages"] for q in rep["qps"]}
    for row in rows:
        if not row["rocewire.msg.number"]:
            continue
        fr, flow = int(row["frame.number"]), int(row["rocewire.flow"])
        num = int(row["rocewire.msg.number"])
        if num < 1:
            fail("%s frame %d: msg.number %d" % (path, fr, num))
        high[flow] = max(high.get(flow, 0), num)
        first = row["rocewire.msg.first_frame"]
        if not first:
            fail("%s frame %d: a message with no first_frame" % (path, fr))
            continue
        first = int(first)
        name = js.get(first, {}).get("bth", {}).get("name", "")
        same = rows[first - 1]["rocewire.flow"] == row["rocewire.flow"] if first <= len(rows) else False
        if first > fr or not same or not any(w in name for w in ("FIRST", "ONLY", "COMPARE", "FETCH")):
            fail("%s frame %d: msg.first_frame %d (%s, flow %s)" % (path, fr, first, name, rows[first - 1]["rocewire.flow"] if first <= len(rows) else "?"))
    for flow, n in msgs.items():
        if n > high.get(flow, 0):
            fail("%s flow %d: the report counts %d messages, the frames number %d at most" % (path, flow, n, high.get(flow, 0)))


def check_links(path, rows):
    """Frame references and CNP intervals, from the frames themselves: a
    CNP's CE frame is an earlier CE-marked frame; an ACK's, READ
    response's or atomic ACK's request frame is an earlier frame of the
    flow it answers (the responder flow's peer, or the flow the report
    pairs it with); a CNP's interval is the time since the previous CNP of
    the same flow (frame times)."""
    last_cnp = {}
    for row in rows:
        fr = int(row["frame.number"])
        ce = row["rocewire.cnp.ce_frame"]
        if ce:
            c = int(ce)
            if c >= fr or not rows[c - 1]["rocewire.ce"]:
                fail("%s frame %d: cnp.ce_frame %d is not an earlier CE mark" % (path, fr, c))
        for field in ("rocewire.ack.request_frame", "rocewire.read.request_frame",
                      "rocewire.atomic.request_frame"):
            if not row[field]:
                continue
            q = int(row[field])
            req = rows[q - 1] if 0 < q <= len(rows) else {}
            if q >= fr or req.get("rocewire.flow", "") in ("", row["rocewire.flow"]):
                fail("%s frame %d: %s %d is not an earlier frame of the other flow" % (path, fr, field, q))
            elif row["rocewire.peer_flow"] and req["rocewire.flow"] != row["rocewire.peer_flow"]:
                fail("%s frame %d: %s %d is on flow %s, the peer is %s" % (
                    path, fr, field, q, req["rocewire.flow"], row["rocewire.peer_flow"]))
        flow = row["rocewire.cnp.flow"]
        if flow:
            t = row["frame.time_epoch"]
            s_, _, f_ = t.partition(".")
            t_ns = int(s_) * 1000000000 + int((f_ + "000000000")[:9])
            got = row["rocewire.cnp.interval"]
            if flow in last_cnp:
                if not got or ns(got) != t_ns - last_cnp[flow]:
                    fail("%s frame %d: cnp.interval %r, frames say %d ns" % (path, fr, got, t_ns - last_cnp[flow]))
            elif got:
                fail("%s frame %d: cnp.interval %r on the flow's first CNP" % (path, fr, got))
            last_cnp[flow] = t_ns


def check_port(ts, path):
    """The RoCEv2 port preference: a copy of path with every UDP
    destination port 4791 made 4792 (where the built-in dissector finds
    it) decodes with -o rocewire.rocev2_port:4792 as rocewire-cap --port
    4792 decodes it (the ICRC covers the port: bad everywhere), and without
    the preference not at all."""
    pd = ts.run(["-r", ts.readable(path), "-T", "pdml"] + ts.noheur, plugin=False).stdout
    data = bytearray(open(path, "rb").read())
    recs = pcap_records(data)
    frame, n = 0, 0
    for line in pd.splitlines():
        if '<field name="num"' in line:
            frame = int(line.split('show="')[1].split('"')[0])
        elif 'name="udp.dstport"' in line and 'show="4791"' in line:
            pos = int(line.split('pos="')[1].split('"')[0])
            start, _ = recs[frame - 1]
            data[start + pos:start + pos + 2] = (4792).to_bytes(2, "big")
            n += 1
    out = os.path.join(ts.work, "port4792-" + os.path.basename(path))
    open(out, "wb").write(data)
    os.chmod(out, 0o644)
    rows = check_decode(ts, out, ["-o", "rocewire.rocev2_port:4792"], ["--port", "4792"])
    bad = sum(1 for r in rows if r["rocewire.icrc.status"] == "bad")
    plain = [r for r in ts.fields(out) if r["rocewire.carrier"] == "rocev2"]
    if plain or not bad:
        fail("%s: %d frames moved to port 4792, %d bad ICRCs with the preference, %d RoCEv2 "
             "frames without it" % (out, n, bad, len(plain)))
    print("port %s: %d frames on UDP port 4792, %d bad ICRCs" % (os.path.basename(path), n, bad))


def pcap_records(data):
    """(offset of the record's data, caplen) of each record of a pcap file."""
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    off, out = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack(end + "I", data[off + 8:off + 12])[0]
        out.append((off + 16, incl))
        off += 16 + incl
    return out


def check_icrc_corrupted(ts, path):
    """A copy of a clean sample with one bit of the ICRC flipped in every
    fifth frame that has one (where the built-in dissector finds it): the
    plugin must say bad on exactly those frames and good on every other."""
    r = ts.run(["-r", ts.readable(path)] + ts.noheur + ["-T", "fields", "-e", "frame.number",
               "-e", "frame.cap_len", "-e", "infiniband.invariant.crc", "-E", "occurrence=f"],
               plugin=False)
    # Field positions: -T pdml gives them; only the ICRC's is needed.
    pd = ts.run(["-r", ts.readable(path)] + ts.noheur + ["-T", "pdml"], plugin=False).stdout
    pos = {}
    frame = 0
    for line in pd.splitlines():
        if '<field name="num"' in line:
            frame = int(line.split('show="')[1].split('"')[0])
        elif 'name="infiniband.invariant.crc"' in line and frame not in pos:
            pos[frame] = int(line.split('pos="')[1].split('"')[0])
    caplen = {}
    for line in r.stdout.splitlines():
        v = line.split("\t")
        caplen[int(v[0])] = int(v[1])
    data = bytearray(open(path, "rb").read())
    recs = pcap_records(data)
    bad = set()
    for k, fr in enumerate(sorted(pos)):
        if k % 5 == 2:
            start, incl = recs[fr - 1]
            # The frame Wireshark dissects may start after a record header
            # it took as pseudo-header (ERF): skip what it did not show.
            data[start + incl - caplen[fr] + pos[fr]] ^= 0x01
            bad.add(fr)
    out = os.path.join(ts.work, "corrupt-" + os.path.basename(path))
    open(out, "wb").write(data)
    os.chmod(out, 0o644)
    rows = ts.fields(out)
    seen_bad = set()
    for row in rows:
        fr = int(row["frame.number"])
        st = row["rocewire.icrc.status"]
        if fr in pos:
            want = "bad" if fr in bad else "good"
            if st != want:
                fail("%s frame %d: ICRC %r, expected %s" % (out, fr, st, want))
            if st == "bad":
                seen_bad.add(fr)
            if row["rocewire.carrier"] == "ib" and row["rocewire.vcrc.status"] != want:
                # The VCRC covers the ICRC bytes: it breaks with them.
                fail("%s frame %d: VCRC %r, expected %s" % (out, fr, row["rocewire.vcrc.status"], want))
        elif st == "bad":
            # The built-in dissector gave up before the ICRC (RD opcodes,
            # its malformed ones): no frame without a flipped bit is bad.
            fail("%s frame %d: ICRC bad, not corrupted" % (out, fr))
    if not bad and any(r["rocewire.bth.name"] for r in rows):
        fail("%s: no ICRC found by the built-in dissector" % path)
    print("icrc %s: %d frames, %d corrupted, %d found bad" % (os.path.basename(path), len(rows),
                                                            len(bad), len(seen_bad)))


def tap_text(text):
    """The table between the ==== lines of -z rocewire,qp."""
    lines = text.splitlines()
    marks = [i for i, l in enumerate(lines) if l.startswith("=" * 20)]
    if len(marks) < 2:
        return None
    return lines[marks[0] + 1:marks[1]]


# The plugin's preferences and the rocewire-cap options they stand for.
PREFS = [("rocewire.link_gbps:25", "--link-gbps=25"), ("rocewire.storm_ms:2", "--storm-ms=2"),
         ("rocewire.cnp_interval_us:50", "--cnp-min-us=50"), ("rocewire.rto_us:100000", "--rto=100ms")]


def check_tap(ts, path, prefs=False, two_pass=False):
    """-z rocewire,qp against --report; with prefs, each preference set
    against the rocewire-cap option of the same meaning; two_pass: tshark -2."""
    opts, cli = ["-2"] if two_pass else [], []
    if prefs:
        for o, c in PREFS:
            opts += ["-o", o]
            cli.append(c)
    r = ts.run(["-r", ts.readable(path), "-q", "-z", "rocewire,qp"] + ts.noheur + opts)
    got = tap_text(r.stdout)
    c = subprocess.run([CAP, "-r", path, "--report"] + cli, capture_output=True, text=True)
    want = c.stdout.splitlines()
    if got is None:
        fail("%s: no rocewire,qp table in tshark's output: %s %s" % (path, r.stdout[:200], r.stderr[:300]))
        return
    # The first line names the input: rocewire-cap's path, none from tshark.
    if not got or not got[0].startswith("rocewire report") or got[1:] != want[1:]:
        import difflib
        diff = "\n".join(list(difflib.unified_diff(want, got, "rocewire-cap --report", "tshark -z rocewire,qp", lineterm=""))[:30])
        fail("%s: -z rocewire,qp differs from rocewire-cap --report:\n%s" % (path, diff))
    else:
        print("tap %s%s%s: %d lines equal" % (os.path.basename(path), " with preferences" if prefs else "",
                                              " (-2)" if two_pass else "", len(want)))


# The -z rocewire,qp table's columns and the --report --json keys each
# cell holds ("a/b" cells: two keys); "-" is zero.
TAP_COLS = [("packets", ["packets"]), ("msgs", ["messages"]),
            ("inc/orph", ["incomplete_messages", "orphan_packets"]),
            ("gaps/miss", ["psn_gaps", "missing_psns"]), ("retx", ["retransmissions"]),
            ("gbn", ["gbn_episodes"]), ("ooo", ["out_of_order"]),
            ("ect0/ect1/ce", ["ecn.ect0", "ecn.ect1", "ecn.ce"]), ("CNPs", ["cnps"]),
            ("paused", ["pkts_while_paused"])]
TAP_NAKS = {"seq": "psn_seq", "inv": "invalid_request", "acc": "remote_access", "op": "remote_op",
            "rd": "invalid_rd", "rnr": "rnr", "res": "reserved"}
# Every figure the tree shows per flow, by its --report --json key.
TREE_KEYS = ["packets", "messages", "incomplete_messages", "orphan_packets",
             "messages_cut_by_capture_start", "messages_cut_by_capture_end", "psn_gaps",
             "missing_psns", "retransmissions", "gbn_episodes", "out_of_order", "unsynced_packets",
             "precapture_resends", "acks", "ecn.not_ect", "ecn.ect0", "ecn.ect1", "ecn.ce", "cnps",
             "pkts_while_paused", "icrc_bad", "vcrc_bad"] + ["naks." + k for k in TAP_NAKS.values()]


def json_key(flow, key):
    v = flow
    for part in key.split("."):
        v = v[part]
    return v


def tree_flows(text):
    """{flow index: {figure: count}} from tshark -q -z rocewire_qp,tree."""
    import re
    flows, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^ flow (\d+): .*? QP 0x[0-9a-f]+\s+(\d+)\s", line)
        if m:
            cur = flows.setdefault(int(m.group(1)), {})
            cur["(node)"] = int(m.group(2))
            continue
        m = re.match(r"^  (\S+)\s+(\d+)\s", line)
        if m and cur is not None:
            cur[m.group(1)] = int(m.group(2))
        elif not line.startswith("  "):
            cur = None
    return flows


def tap_flows(lines):
    """{flow index: {json key: count}} from the -z rocewire,qp table: the
    flows table (every flow) and the capture edges table (the flows the
    capture's edges cut: its last three cells)."""
    import re
    flows, heads, edges = {}, None, False
    for line in lines:
        cells = re.split(r"\s{2,}", line.strip())
        if cells[:2] == ["#", "src"]:
            heads, edges = cells, "cut start/end" in cells
            if not edges and "packets" not in cells:
                heads = None
            continue
        if heads is None or not cells or not cells[0].isdigit():
            heads = None
            continue
        i = int(cells[0])
        if edges:
            f = flows.setdefault(i, {})
            unsynced, pre, cut = cells[-3:]
            f["unsynced_packets"] = 0 if unsynced == "-" else int(unsynced)
            f["precapture_resends"] = 0 if pre == "-" else int(pre)
            a, b = (0, 0) if cut == "-" else map(int, cut.split("/"))
            f["messages_cut_by_capture_start"], f["messages_cut_by_capture_end"] = a, b
            continue
        if len(cells) != len(heads):
            fail("tap row of %d cells under %d heads: %r" % (len(cells), len(heads), line))
            continue
        row = dict(zip(heads, cells))
        f = flows.setdefault(i, {})
        for col, keys in TAP_COLS:
            vals = [0] * len(keys) if row[col] == "-" else [int(v) for v in row[col].split("/")]
            if len(vals) != len(keys):
                fail("tap column %s: %r" % (col, row[col]))
                continue
            f.update(zip(keys, vals))
        for k in TAP_NAKS.values():
            f["naks." + k] = 0
        if row["NAKs"] != "-":
            for part in row["NAKs"].split(","):
                short, n = part.split()
                f["naks." + TAP_NAKS[short]] = int(n)
    return flows


# What the whole run met: a check that never saw a capture cut inside a
# message or an orphan would not show the tree's old per-frame counts wrong.
stats_seen = {"compared": 0, "cut_end": 0, "orphans": 0, "incomplete": 0}


def report_section(text):
    """The -z rocewire,qp table's lines in output that may hold the stats
    tree too: the section between two ==== lines that starts with it."""
    lines = text.splitlines()
    marks = [i for i, l in enumerate(lines) if l.startswith("=" * 20)]
    for a, b in zip(marks, marks[1:]):
        if a + 1 < b and lines[a + 1].startswith("rocewire report"):
            return lines[a + 1:b]
    return None


def check_stats_one(ts, path, label, alone=False):
    c = subprocess.run([CAP, "-r", path, "--report", "--json"], capture_output=True, text=True)
    if c.returncode not in (0, 1):
        fail("%s: rocewire-cap --report --json exited with %d" % (label, c.returncode))
        return
    rep = {q["index"]: q for q in json.loads(c.stdout)["qps"]}
    # One tshark for both (the table's -z first: its listener is drawn
    # last, so the tree's own draw ends the capture); alone, the tree
    # without the table, which could otherwise have ended it.
    r = ts.run(["-r", ts.readable(path), "-q", "-z", "rocewire,qp", "-z", "rocewire_qp,tree"] + ts.noheur)
    lines = report_section(r.stdout)
    if alone:
        r1 = ts.run(["-r", ts.readable(path), "-q", "-z", "rocewire_qp,tree"] + ts.noheur)
        if tree_flows(r1.stdout) != tree_flows(r.stdout):
            fail("%s: the stats tree alone differs from the tree beside -z rocewire,qp" % label)
    tree = tree_flows(r.stdout)
    if r.returncode != 0 or lines is None:
        fail("%s: tshark failed: %s" % (label, r.stderr[:300]))
        return
    tap = tap_flows(lines)
    if set(tree) != set(rep) or set(tap) != set(rep):
        fail("%s: flows: tree %s, tap %s, --report --json %s" % (label, sorted(tree), sorted(tap), sorted(rep)))
        return
    for i, q in rep.items():
        for k in TREE_KEYS:
            want = json_key(q, k)
            if tree[i].get(k) != want:
                fail("%s flow %d: %s %r in the stats tree, %r in --report --json" % (label, i, k, tree[i].get(k), want))
            if k in tap[i] and tap[i][k] != want:
                fail("%s flow %d: %s %r in -z rocewire,qp, %r in --report --json" % (label, i, k, tap[i][k], want))
        if tree[i].get("(node)") != q["packets"]:
            fail("%s flow %d: the flow's node says %r, packets %r" % (label, i, tree[i].get("(node)"), q["packets"]))
        stats_seen["compared"] += 1
        stats_seen["cut_end"] += q["messages_cut_by_capture_end"]
        stats_seen["orphans"] += q["orphan_packets"]
        stats_seen["incomplete"] += q["incomplete_messages"]


def check_stats(ts, path):
    """The stats tree, the tap and --report --json on the capture and on
    copies cut at its start (records 1, 5, a third in) and end
    (at a half, and before its last record), as e2e_cut_capture cuts
    (records dropped whole; pcapng through editcap)."""
    name = os.path.basename(path)
    ts_probe = ts.run(["-r", ts.readable(path), "-c", "1", "-T", "fields", "-e", "frame.number"])
    if ts_probe.returncode != 0:
        print("SKIP %s: tshark cannot read it: %s" % (name, ts_probe.stderr.strip()[:120]))
        return
    sys.path.insert(0, os.path.join(SRC, "tests"))
    import pcaprec
    head, _, recs = pcaprec.split(path)
    n = len(recs)
    if head is None:
        if not shutil.which("editcap"):
            print("SKIP cuts of %s: pcapng and no editcap" % name)
            n = 0
        else:
            r = ts.run(["-r", ts.readable(path), "-T", "fields", "-e", "frame.number"])
            n = len(r.stdout.splitlines())
    check_stats_one(ts, path, name, alone=True)
    cuts = sorted({(k, n) for k in (1, 5, n // 3) if 0 < k < n - 1} |
                  {(0, m) for m in (n // 2, n - 1) if m > 1})
    for a, b in cuts:
        cp = os.path.join(ts.work, "%s.cut%d-%d%s" % (name, a, b, ".pcap" if head else ".pcapng"))
        if head is not None:
            with open(cp, "wb") as f:
                f.write(head + b"".join(recs[a:b]))
        else:
            subprocess.run(["editcap", "-r", path, cp, "%d-%d" % (a + 1, b)], check=True)
        check_stats_one(ts, cp, "%s records %d-%d" % (name, a + 1, b))
    print("stats %s: whole and %d cuts agree" % (name, len(cuts)))


def check_twopass(ts, path):
    one = ts.fields(path)
    two = ts.fields(path, extra=["-2"])
    if one != two:
        n = sum(1 for a, b in zip(one, two) if a != b)
        first = next((a["frame.number"] for a, b in zip(one, two) if a != b), "?")
        fail("%s: -2 differs from one pass on %d frames (first: %s)" % (path, n, first))
    # A display filter on the second pass keeps the first pass's verdicts.
    filt = ts.fields(path, extra=["-2", "-Y", "rocewire.flow"])
    want = [r for r in one if r["rocewire.flow"] != ""]
    if filt != want:
        fail("%s: -2 -Y rocewire.flow differs from the unfiltered frames" % path)
    print("twopass %s: %d frames equal" % (os.path.basename(path), len(one)))


def check_nak_ignored(ts, sample):
    """rocewire.nak_ignored against tshark's built-in decode (the truth of
    tests/e2e/nak_ignored_check.py)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
    import nak_ignored_check as nic
    derived = os.path.join(ts.work, "nak-ignored.pcap")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(nic.__file__), "nak_ignored_pcap.py"),
                    sample, derived, "2"], check=True)
    names = ["frame.number", "rocewire.nak_ignored", "rocewire.nak_ignored.rto", "_ws.expert.message"]
    runs = [(derived, None, True), (derived, 100000, True), (derived, 200000, True),
            (derived, None, False), (sample, None, True)]
    flagged = 0
    for path, rto_us, two in runs:
        label = "%s%s%s" % (os.path.basename(path), " rto_us:%d" % rto_us if rto_us else "",
                            " -2" if two else " one pass")
        nak, req, rto = nic.truth(path, (rto_us or 67108.864) * 1000)
        if not two:
            nak = None  # the verdict needs the frames after the NAK
        extra = (["-2"] if two else []) + (["-o", "rocewire.rto_us:%d" % rto_us] if rto_us else [])
        rows = ts.fields(path, extra=extra, names=names)
        got = [(int(r["frame.number"]), r["rocewire.nak_ignored"], r["rocewire.nak_ignored.rto"])
               for r in rows if r["rocewire.nak_ignored"]]
        experts = [int(r["frame.number"]) for r in rows
                   if any(m.startswith("NAK ignored") for m in r["_ws.expert.message"].split(";"))]
        want = [] if nak is None else [(nak, str(req), "%.9f" % (rto / 1e9))]
        if got != want or experts != [w[0] for w in want]:
            fail("%s: rocewire.nak_ignored %r (expert infos on %r), tshark's decode says %r" %
                 (label, got, experts, want))
            continue
        if want:
            flagged += 1
            msg = [m for r in rows if int(r["frame.number"]) == nak
                   for m in r["_ws.expert.message"].split(";") if m.startswith("NAK ignored")][0]
            if "frame %d " % req not in msg:
                fail("%s: the expert info does not name request frame %d: %r" % (label, req, msg))
        print("nak_ignored %s: %s" % (label, "NAK frame %d, request frame %d" % (nak, req) if want
                                      else "none, as tshark's decode shows"))
    if flagged < 2:
        fail("nak_ignored: fewer than two runs flagged a NAK: the check shows nothing")


def check_load(ts):
    r = ts.run(["-G", "plugins"])
    line = [l for l in r.stdout.splitlines() if l.startswith("rocewire.so")]
    if not line or os.path.realpath(PLUGIN_DIR) not in os.path.realpath(line[0].split("\t")[-1]) and \
            PLUGIN_DIR not in line[0]:
        fail("tshark -G plugins does not list rocewire.so from %s: %r" % (PLUGIN_DIR, line))
    else:
        print("load: " + line[0])
    r = ts.run(["-G", "fields"])
    if "rocewire.icrc.status" not in r.stdout:
        fail("tshark -G fields has no rocewire.icrc.status")
    # The statistics: the report table, and the stats tree the GUI's
    # Statistics menu shows.
    r = ts.run(["-z", "help"])
    for z in ("rocewire,qp", "rocewire_qp,tree"):
        if z not in (r.stdout + r.stderr).split():
            fail("tshark -z help does not list %s" % z)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    check, files = sys.argv[1], sys.argv[2:]
    if not shutil.which("tshark"):
        skip("tshark is not installed (apt-get install tshark)")
    if not os.path.isdir(PLUGIN_DIR):
        print("FAIL: ROCEWIRE_PLUGIN_DIR is not a folder: %r" % PLUGIN_DIR)
        return 1
    ts = Tshark(PLUGIN_DIR)
    try:
        if check == "load":
            check_load(ts)
        for f in files:
            if check == "icrc":
                check_decode(ts, f)
                if not os.path.basename(f).startswith("bad-"):
                    check_icrc_corrupted(ts, f)
            elif check == "fields":
                if os.path.basename(f) == "rocev2-all-opcodes.pcap":
                    check_port(ts, f)
                rows = check_decode(ts, f)
                check_verdicts(f, rows)
                print("fields %s: %d frames" % (os.path.basename(f), len(rows)))
            elif check == "flows":
                check_flows(ts, f)
            elif check == "twopass":
                check_twopass(ts, f)
            elif check == "stats":
                check_stats(ts, f)
            elif check == "tap":
                check_tap(ts, f)
                check_tap(ts, f, two_pass=True)
                if "scenario-pfc" in f or "scenario-cecnp" in f or "pfc-pause" in f:
                    check_tap(ts, f, prefs=True)
            elif check == "load":
                # Decoding through the plugin found there: the ICRCs agree.
                check_decode(ts, f)
            elif check == "nak_ignored":
                check_nak_ignored(ts, f)
        if check == "stats":
            print("stats: %(compared)d flow views compared; messages cut by the capture end %(cut_end)d, "
                  "orphan packets %(orphans)d, incomplete messages %(incomplete)d" % stats_seen)
            if not (stats_seen["cut_end"] and stats_seen["orphans"] and stats_seen["incomplete"]):
                fail("stats: no capture or cut had messages cut by the end, orphans and incomplete "
                     "messages: the check would not show per-frame counts wrong")
    finally:
        shutil.rmtree(ts.work, ignore_errors=True)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
