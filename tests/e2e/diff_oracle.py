#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What rocewire-cap's report must say about a capture, from rocewire-gen's
ground truth (--truth-jsonl).

expect(truth, a, b, link_gbps) takes the truth records and the window of
the capture the report read (frames a..b of the generator's pcap: the whole
file, or a cut) and returns the per-flow figures and the per-packet verdicts
the report owes, by the definitions of capture/README-report.md: where the
truth holds something the capture cannot show (a packet dropped before the
tap, anything outside the window), the section "What a capture can know"
there says what the report counts instead, and this file follows it rule by
rule (the comments name the rule). Nothing here copies the engine: every
figure is worked out from what happened, as the model recorded it.
"""
import ipaddress

PSN_MOD = 1 << 24
# per-packet verdicts the test compares (rocewire-diff-notes names)
COMPARED_FLAGS = ("gap", "retrans", "gbn_start", "ooo", "msg_done", "orphan", "unsynced", "precapture",
                  "ce", "paused", "ack", "nak", "cnp_linked")
NAK_KEYS = {"nak_psn_seq": "psn_seq", "rnr_nak": "rnr", "nak_remote_access": "remote_access",
            "nak_other": "invalid_request"}
PSN_WINDOW = 1024            # README "pairing"
LOST_FIRST = 8               # README "pairing": PSNs before a flow's first a NAK may name
NAK_SKIP_MAX = 8             # README "pairing": PSNs a go-back seen may start past its NAK's
NAK_OFFER_NS = 1000000       # README "pairing": a NAK before a flow's first request is its within
CNP_WINDOW_NS = 1000000      # rocewire-cap's default --cnp-window-us 1000
CE_TIMED = 1024              # README "CNPs and CE marks": marks that wait per flow with their time
STORM_NS = 10000000          # --storm-ms 10


def norm_ip(s):
    return str(ipaddress.ip_address(s))


def key_of(r):
    return "%s>%s/%d" % (norm_ip(r["src"]), norm_ip(r["dst"]), r["dqpn"])


def op_kind(name):
    """(message kind, position) of an opcode name: kind send/write/read_req/
    read_resp/atomic/ack/atomic_ack/cnp; position first/middle/last/only."""
    n = name.upper()
    if n == "CNP":
        return "cnp", "only"
    if n.endswith("ACKNOWLEDGE") and "ATOMIC" in n:
        return "atomic_ack", "only"
    if n.endswith("ACKNOWLEDGE"):
        return "ack", "only"
    if "COMPARE_SWAP" in n or "FETCH_ADD" in n:
        return "atomic", "only"
    if "READ_REQUEST" in n:
        return "read_req", "only"
    pos = "only"
    for p in ("FIRST", "MIDDLE", "LAST", "ONLY"):
        if "_" + p in n:
            pos = p.lower()
    if "READ_RESPONSE" in n:
        return "read_resp", pos
    if "SEND" in n:
        return "send", pos
    if "WRITE" in n:
        return "write", pos
    return "other", pos


def req_span(r, kind, mtu_known, floor=0):
    """(PSNs, slack) a request takes as a tap can know it: one, or for a
    READ its responses' PSNs. README "PSN gap": with the QP's path MTU not
    yet shown (no full FIRST or MIDDLE), a READ's span is 4096-byte
    segments at least, and at most segments of the smallest MTU the QP's
    packets leave possible (floor: the largest payload seen, rounded up to
    an IBA MTU; 256 without one) (slack: the PSNs more it may take)."""
    if kind != "read_req":
        return 1, 0
    if mtu_known:
        return r.get("psns", 1), 0
    dl = r.get("dmalen", 0)
    cover = max(1, -(-dl // 4096))
    least = max(256, floor)
    return cover, max(1, -(-dl // least)) - cover


def floor_note(floors, key, payload):
    """README "PSN gap": no packet carries more than the path MTU, so a
    payload of n bytes says the MTU is at least n rounded up to an IBA MTU."""
    m = 256
    while m < payload and m < 4096:
        m *= 2
    if payload and m > floors.get(key, 0):
        floors[key] = m


class Unwrap:
    """24-bit PSNs as integers that keep growing across the wrap."""

    def __init__(self):
        self.last = None

    def __call__(self, psn):
        if self.last is None:
            self.last = psn
            return psn
        d = (psn - (self.last % PSN_MOD) + (PSN_MOD >> 1)) % PSN_MOD - (PSN_MOD >> 1)
        self.last += d
        return self.last


class Stream:
    """One PSN sequence as the capture sees it: a flow's requests, or the
    READ responses of the flow that answers them."""

    def __init__(self, reliable):
        self.reliable = reliable
        self.unwrap = Unwrap()
        self.valid = False
        self.first = self.high = None
        self.seen = set()
        self.synced = not reliable
        self.next = None          # the PSN that continues the previous packet (past a READ's responses)
        self.nak_asked = set()    # PSNs a captured sequence NAK asked to resend
        self.last_ep = 0          # the latest truth episode counted (README "resends")
        self.slack = 0            # PSNs a READ of unknown MTU may have used past high


def new_flow(key):
    return {"key": key, "packets": 0, "bytes": 0, "payload_bytes": 0, "ecn": [0, 0, 0, 0], "icrc_bad": 0,
            "psn_gaps": 0, "missing_psns": 0, "retransmissions": 0, "gbn_episodes": 0, "out_of_order": 0,
            "unsynced_packets": 0, "precapture_resends": 0, "acks": 0,
            "naks": {"psn_seq": 0, "invalid_request": 0, "remote_access": 0, "remote_op": 0, "invalid_rd": 0,
                     "rnr": 0, "reserved": 0},
            "cnps": 0, "cnp_times": [], "pkts_while_paused": 0, "messages": 0, "incomplete_messages": 0,
            "orphan_packets": 0, "messages_cut_by_capture_start": 0, "messages_cut_by_capture_end": 0,
            "msgs_by_op": {"send": 0, "write": 0, "read": 0, "atomic": 0},
            "first_seen_mid_message": None, "requests": False, "responses": False, "kinds": set(),
            "peer": None, "resends": {"nak": 0, "rnr": 0, "timeout": 0, "implied": 0},
            "qp": None}


ECN_INDEX = {"not_ect": 0, "ect1": 1, "ect0": 2, "ce": 3}
CAUSE_BUCKET = {"nak": "nak", "rnr": "rnr", "timeout": "timeout", "read_gap": "implied", "read_acked": "implied"}


def cm_as_ud(truth):
    """The truth with each CM message (kind "cm": rocewire-gen's `cm: true`)
    as what a capture shows of it: a one-packet UD SEND from QP 1 to QP 1,
    a whole message of its own. The CM messages between two hosts, of any
    flow and in either role, are one conversation per direction (the key
    src>dst/1), which the records name "cm:SRC>DST" (no responses)."""
    out, n = [], {}
    for r in truth:
        if r.get("kind") != "cm":
            out.append(r)
            continue
        name = "cm:%s>%s" % (norm_ip(r["src"]), norm_ip(r["dst"]))
        n[name] = n.get(name, 0) + 1
        out.append(dict(r, kind="roce", flow=name, qp=0, dir="request", ackreq=False, corrupt=False, lost=False,
                        drop=None, resend=None, tx=1, episode=0, msg=n[name], completes=True, taken=True,
                        paused=False, ce_frame=None))
    return out


def expect(truth, a, b, link_gbps=100.0):
    """Returns (flows: key -> dict, packets: window frame -> dict, top: dict)."""
    recs = cm_as_ud(truth)
    by_frame = {r["frame"]: r for r in recs if r.get("frame")}
    win = [by_frame[f] for f in range(a, b + 1) if f in by_frame]
    wf = lambda r: r["frame"] - a + 1  # noqa: E731  frame numbers of the window's file
    in_w = lambda r: r.get("frame") is not None and a <= r["frame"] <= b  # noqa: E731

    flows, pk = {}, {}
    top = {"packets": len(win), "bytes": sum(r["len"] for r in win),
           "rocev2": sum(1 for r in win if r["kind"] == "roce"),
           "pfc_frames": sum(1 for r in win if r["kind"] == "pfc"),
           "icrc_bad": sum(1 for r in win if r.get("corrupt")), "cnps_unlinked": 0,
           "cnps_linked_truth": 0}

    # which flow key is whose: the request flow of a (flow, QP) and the flow
    # of its answers (ACKs, NAKs, READ responses, atomic ACKs, CNPs)
    req_key, rsp_key = {}, {}
    for r in recs:
        if r["kind"] != "roce":
            continue
        qp = (r["flow"], r["qp"])
        if r["dir"] == "request":
            req_key[qp] = key_of(r)
        else:
            rsp_key[qp] = key_of(r)
    for qp in req_key:
        if qp not in rsp_key and not qp[0].startswith("cm:"):
            # a flow that answered nothing: its key, had it answered
            r = next(x for x in recs if x["kind"] == "roce" and (x["flow"], x["qp"]) == qp)
            rsp_key[qp] = "%s>%s/%d" % (norm_ip(r["dst"]), norm_ip(r["src"]), r["sqpn"])
    owner_of_key = {}
    for qp, k in req_key.items():
        owner_of_key[k] = (qp, "request")
    for qp, k in rsp_key.items():
        owner_of_key[k] = (qp, "response")

    def flow(key):
        if key not in flows:
            flows[key] = new_flow(key)
            if key in owner_of_key:
                flows[key]["qp"] = owner_of_key[key]
        return flows[key]

    # ---- messages, from the whole truth: every copy of every packet of
    # every message, so that what the window lacks is known ----
    msgs = {}   # (qp, "req"|"rsp", msg) -> info
    for r in recs:
        if r["kind"] != "roce" or not r.get("msg"):
            continue
        kind, pos = op_kind(r["op"])
        if kind in ("read_req", "atomic_ack", "ack", "cnp"):
            continue
        side = "rsp" if kind == "read_resp" else "req"
        m = msgs.setdefault(((r["flow"], r["qp"]), side, r["msg"]),
                            {"copies": [], "psns": set(), "first_psn": None, "done": None, "kind": kind,
                             "transport": None})
        m["copies"].append(r)
        m["psns"].add(r["psn"])
        if pos in ("first", "only") and m["first_psn"] is None:
            m["first_psn"] = r["psn"]
        if r.get("completes") and m["done"] is None:
            m["done"] = r
        if r.get("completes") is None and r.get("frame"):
            m["unknown"] = True   # the run ended before its receiver got this copy
    # a READ's responses: every PSN of its range, whatever copies came
    read_range = {}
    for r in recs:
        if r["kind"] == "roce" and op_kind(r["op"])[0] == "read_req" and r["tx"] == 1 and r.get("msg"):
            read_range[((r["flow"], r["qp"]), r["msg"])] = (r["psn"], r.get("psns", 1))
    for (qp, side, n), m in msgs.items():
        if side == "rsp" and (qp, n) in read_range:
            p0, k = read_range[(qp, n)]
            m["psns"] = set((p0 + i) % PSN_MOD for i in range(k))
            m["first_psn"] = p0

    # ---- pairing (README "pairing"), CNP owners, PSN streams, in window order ----
    streams = {}
    paired = {}         # response key -> request key
    paired_t = {}       # response key -> time of the response that paired it
    paired_by = {}      # response key -> (kind of response, PSN) that paired it
    twins = set()       # (request key, PSN): two response flows answered it (README "pairing")
    solo = {}           # response key -> last PSN it answered as an atomic or READ while unpaired
    req_first = {}      # request key -> the PSN before its first packet when that continues a message
    gbns = []           # counted go-backs of request flows: (flow, qp, previous truth episode, episode)
    sent_psns = {}      # request key -> {psn: kind} sent in the window (unwrapped per stream)
    asked = {}          # request key -> {psn: an ACK of its first send is expected}
    open_atomics = {}   # request key -> PSNs of its atomics not answered yet (as the engine's pending ones)
    read_spans = {}     # request key -> {READ psn: its responses' PSNs, None with the MTU not shown}
    addr_reqs = {}      # (src, dst) -> request keys in order of their latest request
    rc_reqs = set()     # the request keys of RC flows (the only ones answered)
    last_ce = {}        # (src, dst) -> request key with the latest CE mark
    ce_seen = {}        # frame -> record, CE marks in the window
    ce_wait = {}        # flow key -> [waiting marks (t_ns, window frame)], README "CNPs and CE marks"
    ce_over = {}        # flow key -> [count, time of the newest]: marks beyond CE_TIMED, no longer timed

    def ce_expire(k, t):
        # a mark leaves once its window has passed
        ov = ce_over.get(k)
        if ov and t - ov[1] > CNP_WINDOW_NS:
            del ce_over[k]
        w = ce_wait.setdefault(k, [])
        while w and t - w[0][0] > CNP_WINDOW_NS:
            w.pop(0)
        return w
    mtu_seen = set()     # request keys whose path MTU a full FIRST or MIDDLE showed
    mtu_floor = {}       # request key -> the path MTU at least (floor_note)
    msg_start_seen = {}  # flow key -> a message start was seen (README "messages cut by capture start")

    def stream(key, reliable):
        if key not in streams:
            streams[key] = Stream(reliable)
        return streams[key]

    # README "pairing by the CM handshake": a QP whose REQ and REP the
    # window holds starts synced at its first PSN (the REP's starting PSN:
    # the requester's first), a first PSN captured after it being a gap.
    cm_seen = {}
    for r in truth:  # (recs name CM messages by their UD conversation)
        if r.get("kind") == "cm" and r.get("cm") in ("REQ", "REP") and in_w(r):
            cm_seen.setdefault((r["flow"], r["qp"]), set()).add(r["cm"])
    first_psn = {}
    for r in recs:
        if r.get("kind") == "roce" and r.get("dir") == "request" and (r["flow"], r["qp"]) not in first_psn:
            first_psn[(r["flow"], r["qp"])] = r["psn"]
    cm_synced = {fq for fq, m in cm_seen.items() if m == {"REQ", "REP"} and fq in first_psn}

    def classify(f, s, r, v, psn, cover, is_resend, episode, cause, slack=0):
        """README "PSN gap", "retransmission", "go-back-N episode", "out of
        order", "unsynced packets", "pre-capture resends" for one packet."""
        u = s.unwrap(psn)
        flags = set()
        if not s.valid:
            s.valid = True
            s.first, s.high = u, u + cover
            s.seen.update(range(u, u + cover))
            s.slack = slack
            if not s.synced:
                flags.add("unsynced")
                f["unsynced_packets"] += 1
        elif u >= s.high:
            if 0 < u - s.high <= s.slack:
                # README "PSN gap": inside what a READ of unknown MTU
                # may have used (responses of 256 to 4096 bytes)
                s.seen.update(range(s.high, u))
            elif u > s.high:
                flags.add("gap")
                f["psn_gaps"] += 1
                f["missing_psns"] += u - s.high
            s.seen.update(range(u, u + cover))
            s.high = u + cover
            s.slack = slack
            if not s.synced:
                flags.add("unsynced")
                f["unsynced_packets"] += 1
            # README "retransmission": above the highest PSN seen, only a
            # PSN a sequence NAK in the window asked for is told a resend.
            # A resend run that goes on past the highest PSN seen (the
            # originals of its last PSNs dropped before the tap) shows the
            # same as the new data that follows a run: it counts as new
            elif psn in s.nak_asked:
                flags.add("retrans")
        else:
            if s.reliable and u < s.first:
                flags.update(("retrans", "precapture"))
                f["precapture_resends"] += 1
            else:
                # seen before, or a hole filled: the model never reorders, so
                # a hole is filled by a resend (README: the sender went back)
                flags.add("retrans")
                if not is_resend:
                    flags.add("truth_says_new")
            s.seen.update(range(u, u + cover))
            if u + cover >= s.high:
                # a READ sent again whose span (its MTU known since) goes
                # past what the flow has shown: its PSNs are used
                s.high = u + cover
                s.slack = slack
        if "retrans" in flags:
            s.nak_asked.discard(psn)
            f["retransmissions"] += 1
            # README "go-back-N episode": one starts where the PSN goes
            # back, below the PSN that continues the previous packet. The
            # truth's episodes are not what a capture shows: a resend run
            # that skips ahead (resends dropped before the tap) may be a
            # new go-back of the sender's or the same one, alike on the wire
            if s.next is not None and u < s.next:
                flags.add("gbn_start")
                f["gbn_episodes"] += 1
                if is_resend and f["qp"] and f["qp"][1] == "request":
                    # the cause is worked out once the window's pairings
                    # are known (a NAK before the pairing counts from it)
                    gbns.append((f, f["qp"][0], s.last_ep, episode))
                    s.last_ep = max(s.last_ep, episode)
        s.next = u + cover
        return flags

    # README "conformance", resends: the cause of a go-back as the window
    # shows it. Each truth episode's trigger is the answer the requester
    # acted on: the latest good NAK (RNR NAK) of its QP before the
    # episode's first packet, or for a READ or atomic re-issued because a
    # response showed one missing, the latest good response; the cause
    # is visible when the window holds that trigger. A counted go-back
    # stands for the episodes since the previous counted one (those in
    # between had every packet dropped before the tap): it is a NAK's
    # (RNR NAK's) when one of them has its NAK in the window (the latest
    # wins), else implied when one has its response in the window, else
    # the requester's timer's (a NAK before the window asked for nothing
    # the window shows).
    ep_info = {}     # (qp, episode) -> (cause, first record)
    qp_rsps = {}     # qp -> good captured responses, in time order
    for r in recs:
        if r["kind"] != "roce":
            continue
        qp = (r["flow"], r["qp"])
        if r["dir"] == "request" and r.get("resend") and (qp, r["episode"]) not in ep_info:
            ep_info[(qp, r["episode"])] = (r["resend"], r)
        elif r["dir"] == "response" and r.get("frame") and not r.get("corrupt") and op_kind(r["op"])[0] != "cnp":
            qp_rsps.setdefault(qp, []).append(r)

    first_req_w = {}   # qp -> its first request in the window
    for r in recs:
        if r["kind"] == "roce" and r["dir"] == "request" and in_w(r):
            first_req_w.setdefault((r["flow"], r["qp"]), r)

    def trigger(qp, cause, first):
        best = None
        for x in qp_rsps.get(qp, []):
            if x["t_ns"] > first["t_ns"]:
                break
            if cause == "nak" and x.get("aeth") != "nak_psn_seq":
                continue
            if cause == "rnr" and x.get("aeth") != "rnr_nak":
                continue
            best = x
        return best

    def shown_cause(qp, after, upto):
        nak, implied = None, False
        for e in range(after + 1, upto + 1):
            info = ep_info.get((qp, e))
            if not info:
                continue
            cause, first = info
            if cause not in CAUSE_BUCKET or cause == "timeout":
                continue
            t = trigger(qp, cause, first)
            if t is None or not in_w(t):
                continue
            if cause in ("nak", "rnr") and first_req_w.get(qp) is first and t["psn"] == first["psn"]:
                # README "conformance", resends: a NAK of the PSN the flow's
                # first request in the window carries, before it, was
                # answered by that request (no go-back the window shows)
                continue
            # README "conformance", resends: the window shows the trigger
            # as the requester's only once it pairs the two directions: a
            # NAK carried before the pairing counts from it on, a response
            # that showed an answer missing only once paired
            rk = key_of(t)
            if paired.get(rk) != req_key.get(qp) or \
                    (cause not in ("nak", "rnr") and paired_t[rk] > t["t_ns"]):
                continue
            if cause in ("nak", "rnr"):
                nak = cause
            else:
                implied = True
        if not nak and not implied:
            # README "conformance", resends: a NAK (good ICRC) the window
            # shows since the previous go-back, once paired, is what the
            # go-back answers: the capture cannot tell that the
            # requester's timer fired first
            start = ep_info[(qp, upto)][1]["t_ns"] if (qp, upto) in ep_info else None
            prev = ep_info.get((qp, after), (None, None))[1] if after else None
            for x in qp_rsps.get(qp, []):
                if start is None or x["t_ns"] >= start:
                    break
                if prev is not None and x["t_ns"] <= prev["t_ns"]:
                    continue
                if x.get("aeth") not in ("nak_psn_seq", "rnr_nak") or not in_w(x):
                    continue
                rk = key_of(x)
                if paired.get(rk) == req_key.get(qp) and paired_t[rk] <= x["t_ns"]:
                    nak = "nak" if x["aeth"] == "nak_psn_seq" else "rnr"
        return nak or ("implied" if implied else "timeout")

    sent_copy = {}  # request flow -> PSNs the window showed it send

    def try_pair(rk, r, kind):
        """README "pairing": a response pairs its flow with the one unpaired
        request flow of the reverse address pair that sent the PSN it echoes."""
        if rk in paired:
            return
        if kind not in ("ack", "read_resp", "atomic_ack"):
            return
        want = {"read_resp": "read_req", "atomic_ack": "atomic"}.get(kind)
        cands = []
        ambiguous = False
        inside = kind == "read_resp" and op_kind(r["op"])[1] in ("middle", "last")
        for qk in addr_reqs.get((norm_ip(r["dst"]), norm_ip(r["src"])), []):
            if qk in paired.values():
                continue
            if not inside and (qk, r["psn"]) in twins:
                # README "pairing": two response flows answered that PSN
                ambiguous = True
                continue
            if not inside and rk in solo and req_first.get(qk) == solo[rk]:
                # README "pairing": the flow answered an atomic or a READ
                # where this one sent part of a SEND or WRITE
                continue
            if inside:
                # README "pairing": a MIDDLE or LAST names the flow whose
                # READ takes its PSN by the READ's exact span (the MTU
                # shown when it was sent, or the next request sent since,
                # within the PSNs it may take, ends it); a whole MIDDLE
                # also by the span its length as the MTU gives the READ,
                # not its last PSN
                sp = sent_psns.get(qk, {})
                mid = op_kind(r["op"])[1] == "middle" and r["payload"] and not r.get("corrupt")
                if any(0 < (r["psn"] - p) % PSN_MOD < n and
                       (ex or any(n <= (x - p) % PSN_MOD <= most and (r["psn"] - x) % PSN_MOD >= PSN_MOD >> 1
                                  for x in sp) or
                        (mid and dl and (r["psn"] - p) % PSN_MOD + 1 < -(-dl // r["payload"])))
                       for p, (n, ex, most, dl) in read_spans.get(qk, {}).items()):
                    cands.append(qk)
                continue
            sp = sent_psns.get(qk, {})
            if r["psn"] in sp and (want is None or sp[r["psn"]] == want) and \
                    (kind != "read_resp" or op_kind(r["op"])[1] in ("first", "only")) and \
                    (r.get("aeth") != "ack" or kind != "ack" or
                     (sp[r["psn"]] in ("send", "write") and asked.get(qk, {}).get(r["psn"], True))):
                # README "pairing": of the READ responses only a FIRST or
                # ONLY carries its READ's own PSN; a plain ACK names a SEND
                # or WRITE, one it was asked to acknowledge
                cands.append(qk)
        if len(cands) < 2 and kind == "ack" and r.get("aeth") == "nak_psn_seq":
            # (a flow that sent the PSN, lost after the capture point, and
            # another with a hole there: either may be it)
            for qk in addr_reqs.get((norm_ip(r["dst"]), norm_ip(r["src"])), []):
                s = streams.get(qk)
                if qk in paired.values() or not s or not s.valid or qk in cands or qk not in rc_reqs:
                    continue
                u = s.unwrap.last + ((r["psn"] - s.unwrap.last) % PSN_MOD + (PSN_MOD >> 1)) % PSN_MOD \
                    - (PSN_MOD >> 1)
                if (s.first < u < s.high and u not in s.seen) or s.first - LOST_FIRST <= u < s.first:
                    # README "pairing": the PSN is a hole of the flow, or
                    # one of the few just before its first (its first
                    # requests lost before the capture point)
                    cands.append(qk)
        by_kind = kind if kind != "ack" or r.get("aeth") == "ack" else "nak"
        if not cands and not ambiguous and not inside and by_kind != "nak":
            # README "pairing": a second response flow answers the PSN that
            # made a pair, which no unpaired flow sent: that pair was a guess
            for rk2 in [x for x, by in paired_by.items() if by == (by_kind, r["psn"]) and x != rk]:
                if rk2 in paired and paired[rk2] in addr_reqs.get((norm_ip(r["dst"]), norm_ip(r["src"])), []):
                    twins.add((paired[rk2], r["psn"]))
                    del paired[rk2], paired_t[rk2]
                    break
        if ambiguous:
            return
        if len(cands) == 1:
            # README "pairing": another unpaired flow whose first PSN in the
            # window comes just after it may have sent it before the window
            for qk in addr_reqs.get((norm_ip(r["dst"]), norm_ip(r["src"])), []):
                s = streams.get(qk)
                if qk == cands[0] or qk in paired.values() or not s or not s.valid or qk not in rc_reqs:
                    # (README "pairing": a UC flow is answered by nothing)
                    continue
                u = s.unwrap.last + ((r["psn"] - s.unwrap.last) % PSN_MOD + (PSN_MOD >> 1)) % PSN_MOD \
                    - (PSN_MOD >> 1)
                if s.first - PSN_WINDOW <= u < s.first:
                    return
            paired[rk] = cands[0]
            paired_t[rk] = r["t_ns"]
            paired_by[rk] = (by_kind, r["psn"])

    for r in win:
        v = {"frame": wf(r), "key": None, "flags": set(), "cnp_key": None, "ce_frame": 0, "truth": r}
        pk[v["frame"]] = v
        if r["kind"] == "pfc":
            continue
        key = key_of(r)
        v["key"] = key
        f = flow(key)
        kind, pos = op_kind(r["op"])
        f["packets"] += 1
        f["bytes"] += r["len"]
        f["payload_bytes"] += r["payload"]
        f["ecn"][ECN_INDEX[r["ecn"]]] += 1
        f["kinds"].add(kind)
        f["last_kind"] = kind
        f["transport_last"] = r["op"].split("_")[0] if kind != "cnp" else "CNP"
        if r.get("corrupt"):
            f["icrc_bad"] += 1
        if r["ecn"] == "ce":
            v["flags"].add("ce")
            ce_seen[r["frame"]] = r
            w = ce_expire(key, r["t_ns"])
            if len(w) == CE_TIMED:
                t0, _ = w.pop(0)
                ov = ce_over.setdefault(key, [0, 0])
                ov[0] += 1
                ov[1] = t0
            w.append((r["t_ns"], wf(r)))
        if r.get("paused"):
            v["flags"].add("paused")
            f["pkts_while_paused"] += 1
        if f["first_seen_mid_message"] is None:
            f["first_seen_mid_message"] = pos in ("middle", "last") and kind in ("send", "write", "read_resp")
        transport = r["op"].split("_")[0]
        if r["dir"] == "request":
            f["requests"] = True
            apk = (norm_ip(r["src"]), norm_ip(r["dst"]))
            lst = addr_reqs.setdefault(apk, [])
            if key in lst:
                lst.remove(key)
            lst.append(key)
            if r["ecn"] == "ce":
                last_ce[apk] = key
            if transport == "UD":
                continue
            s = stream(key, transport == "RC")
            if not s.valid and (r["flow"], r["qp"]) in cm_synced:
                s.valid = s.synced = True
                s.first = s.high = s.unwrap(first_psn[(r["flow"], r["qp"])])
            if r["payload"] and not r.get("corrupt"):
                floor_note(mtu_floor, key, r["payload"])
            cover, slack = req_span(r, kind, key in mtu_seen, mtu_floor.get(key, 0))
            v["flags"] |= classify(f, s, r, v, r["psn"], cover, r["resend"] is not None, r["episode"],
                                   r["resend"], slack)
            if pos in ("first", "middle") and r["payload"] and not r.get("corrupt"):
                mtu_seen.add(key)
            if transport == "RC":  # only a reliable flow is answered: the others are no peer
                rc_reqs.add(key)
                # README "pairing": the PSN before a first packet that
                # continues a message was sent inside that message
                req_first.setdefault(key, (r["psn"] - 1) % PSN_MOD if pos in ("middle", "last") else None)
                sent_psns.setdefault(key, {})[r["psn"]] = kind
                if kind == "atomic":
                    open_atomics.setdefault(key, set()).add(r["psn"])
                if r["psn"] not in sent_copy.setdefault(key, set()):
                    # README "pairing": an ACK is expected of AckReq and of
                    # a message's end (the engine indexes the PSNs new to
                    # the capture, as their first copy there asks, a resend
                    # of one sent before the capture too)
                    sent_copy[key].add(r["psn"])
                    asked.setdefault(key, {})[r["psn"]] = r.get("ackreq") or pos in ("last", "only")
                if kind == "read_req":
                    read_spans.setdefault(key, {})[r["psn"]] = (r.get("psns", 1), not slack, cover + slack,
                                                                 r.get("dmalen", 0))
            continue
        # answers: pairing first (the engine's order), then what they say
        if kind == "cnp":
            apk = (norm_ip(r["dst"]), norm_ip(r["src"]))
            if key in paired:
                okey = paired[key]
            else:
                # README "CNP": unpaired, the request flow of the reverse
                # address pair with the latest CE mark (else the latest request)
                okey = last_ce.get(apk) or (addr_reqs.get(apk) or [None])[-1]
            v["cnp_key"] = okey or key
            of = flow(okey or key)
            of["cnps"] += 1
            of["cnp_times"].append(r["t_ns"])
            # README "CNPs and CE marks": a CNP answers one CE mark of the
            # request flow it slows, the oldest still waiting within the
            # window before it; each mark answers one CNP. Without a request
            # flow to slow it answers none (the marks of its own flow, NP to
            # RP, are not what it answers). Which mark caused a CNP is not on
            # the wire when the notification point paces (the switch's
            # queueing between the tap and the NP varies): the report is
            # held to this linking, and the truth only to its size below.
            link = None
            if okey:
                w = ce_expire(okey, r["t_ns"])
                ov = ce_over.get(okey)
                if ov:
                    link = "untimed"   # README: counted but no longer timed: no frame to compare
                    ov[0] -= 1
                    if not ov[0]:
                        del ce_over[okey]
                elif w and w[0][0] <= r["t_ns"]:
                    link = w.pop(0)[1]
            if link is not None:
                v["flags"].add("cnp_linked")
                v["ce_frame"] = link if link != "untimed" else 0
            else:
                top["cnps_unlinked"] += 1
            # the truth's own matching (each CNP to the mark that caused
            # it, one to one) is a valid linking: oldest-first links at
            # least as many (it is a largest matching when every mark has
            # the same window)
            ce = by_frame.get(r.get("ce_frame")) if r.get("ce_frame") else None
            if ce and okey and in_w(ce) and key_of(ce) == okey and 0 <= r["t_ns"] - ce["t_ns"] <= CNP_WINDOW_NS:
                top["cnps_linked_truth"] += 1
            continue
        f["responses"] = True
        if key in paired and (kind == "atomic_ack" or (kind == "ack" and r.get("aeth") == "ack")):
            # README "pairing": an acknowledgement of a PSN the paired flow
            # never sent (at or past its highest, past any READ it may
            # have taken), or a plain ACK of one of its atomics, undoes
            # the pair; the response pairs again
            s = streams.get(paired[key])
            if kind == "ack" and r["psn"] in open_atomics.get(paired[key], set()) and \
                    not flows[paired[key]]["retransmissions"]:
                # (a plain ACK names no atomic, IBA 9.7.5.1, but the
                # responder's ACK of a duplicate request names the last
                # PSN it took: once the flow sent anything again, it may)
                del paired[key], paired_t[key]
            elif s and s.valid:
                u = s.unwrap.last + ((r["psn"] - s.unwrap.last) % PSN_MOD + (PSN_MOD >> 1)) % PSN_MOD \
                    - (PSN_MOD >> 1)
                if s.high + s.slack <= u < s.high + PSN_WINDOW:
                    del paired[key], paired_t[key]
        try_pair(key, r, kind)
        qkey = paired.get(key)
        if qkey is None and (kind == "atomic_ack" or (kind == "read_resp" and pos in ("first", "only"))):
            solo[key] = r["psn"]
        if qkey in open_atomics:
            # the engine's pending atomics: an atomic ACK answers its own,
            # an ACK every one up to its PSN, a sequence NAK those before
            oa = open_atomics[qkey]
            if kind == "atomic_ack":
                oa.discard(r["psn"])
            elif kind == "ack" and r.get("aeth") in ("ack", "nak_psn_seq"):
                upto = r["psn"] if r["aeth"] == "ack" else r["psn"] - 1
                oa -= set(x for x in oa if (upto - x) % PSN_MOD < PSN_MOD >> 1)
        if kind == "ack":
            # counted on the answering flow until it is paired, then moved
            # (README "pairing": they answered that flow's requests)
            if r["aeth"] == "ack":
                v["flags"].add("ack")
                f["acks"] += 1
            else:
                v["flags"].add("nak")
                f["naks"][NAK_KEYS[r["aeth"]]] += 1
        if qkey and r.get("aeth") in ("ack", "nak_psn_seq", "rnr_nak", "nak_remote_access", "nak_other"):
            # README "unsynced packets": a response that acknowledges a PSN
            # the capture saw the requester send makes the stream known
            s = streams.get(qkey)
            if s and s.valid:
                acked = r["psn"] if r["aeth"] == "ack" else r["psn"] - 1
                u = s.unwrap.last + ((acked - s.unwrap.last) % PSN_MOD + (PSN_MOD >> 1)) % PSN_MOD \
                    - (PSN_MOD >> 1)
                if s.first <= u < s.high:
                    s.synced = True
                if r["aeth"] == "nak_psn_seq":
                    s.nak_asked.add(r["psn"])
        if kind == "read_resp":
            if qkey and pos in ("first", "middle") and r["payload"] and not r.get("corrupt"):
                mtu_seen.add(qkey)
            if qkey and r["payload"] and not r.get("corrupt"):
                floor_note(mtu_floor, qkey, r["payload"])
            s = stream(key, True)
            # the first response of a READ the capture saw requested makes
            # the response stream known; the PSNs before that READ's first
            # response were other requests, answered by ACKs: no gap
            rq = None
            if qkey:
                for x in reversed(win[:win.index(r)]):
                    if x["kind"] == "roce" and key_of(x) == qkey and op_kind(x["op"])[0] == "read_req":
                        d = (r["psn"] - x["psn"]) % PSN_MOD
                        if d < x.get("psns", 1):
                            rq = x
                            break
            if rq is not None:
                if r["psn"] == rq["psn"]:
                    s.synced = True
                if s.valid:
                    u0 = s.unwrap.last + ((rq["psn"] - s.unwrap.last) % PSN_MOD + (PSN_MOD >> 1)) % PSN_MOD \
                        - (PSN_MOD >> 1)
                    if u0 > s.high:
                        s.high = u0
                        s.next = u0
            v["flags"] |= classify(f, s, r, v, r["psn"], 1, r["resend"] is not None, r["episode"], r["resend"])

    for f, qp, after, upto in gbns:
        f["resends"][shown_cause(qp, after, upto)] += 1
    for rk, qk in paired.items():
        a_, q_ = flows[rk], flows[qk]
        q_["acks"] += a_["acks"]
        a_["acks"] = 0
        for kk in q_["naks"]:
            q_["naks"][kk] += a_["naks"][kk]
            a_["naks"][kk] = 0
    for k, f in flows.items():
        f["peer"] = paired.get(k) or next((rk for rk, qk in paired.items() if qk == k), None)
        if f["peer"] is not None and f["qp"] is not None:
            # paired by what the capture shows: it must be the QP's own
            # other direction (several QPs sending the same PSNs can leave
            # one candidate by elimination, and a wrong one)
            qp, side = f["qp"]
            f["peer"] = (rsp_key if side == "request" else req_key).get(qp)
        ts = f.pop("cnp_times")
        f["cnp_min_interval_us"] = (min(b2 - a2 for a2, b2 in zip(ts, ts[1:])) / 1000.0) if len(ts) > 1 else None
        f["transport"] = ("CNP" if f["kinds"] == {"cnp"} else
                          next(iter(sorted(t for t in [f.get("transport_last")] if t != "CNP")), None))
        if f["transport"] is None:
            # the last packet was a CNP on a flow that carries other kinds
            for r in reversed(win):
                if r["kind"] == "roce" and key_of(r) == k and op_kind(r["op"])[0] != "cnp":
                    f["transport"] = r["op"].split("_")[0]
                    break

    # ---- messages (README "messages", "incomplete", "orphan", "messages
    # cut by capture start/end"), message by message ----
    win_order = {r["frame"]: i for i, r in enumerate(win)}
    last_frame = max(by_frame) if by_frame else 0
    starts = {}   # flow key -> window index of its first message start
    ends = {}     # flow key -> window index of its first new SEND or WRITE end (LAST or ONLY)
    for r in win:
        if r["kind"] != "roce" or r.get("corrupt"):
            continue
        kind, pos = op_kind(r["op"])
        if pos in ("first", "only") and kind in ("send", "write", "atomic", "read_resp", "read_req"):
            starts.setdefault(key_of(r), win_order[r["frame"]])
        if pos in ("last", "only") and kind in ("send", "write") and r["dir"] == "request" and \
                "retrans" not in pk[wf(r)]["flags"]:
            ends.setdefault(key_of(r), win_order[r["frame"]])
    # README "messages", msg_done: a message is also seen complete at an
    # earlier good copy of its completing packet that the responder refused
    # for a reason the window shows only after it (an RNR NAK, or a
    # sequence NAK naming a PSN lost before the window): the window shows
    # each PSN of the message in sequence up to it. "In sequence as the
    # window shows it": an RC QP's good requests in window order, from its
    # first, each taken when it is the PSN after the last one taken (the
    # first copy of a PSN past a hole waits for the go-back), a sequence or
    # RNR NAK moving the sequence back to its PSN. The counts stay the
    # truth's: the NAK takes the message back and its resend completes it.
    seen_done = set()   # frames
    seq_exp, seq_took = {}, {}
    # README "messages": a hole is given up when the responder acknowledges
    # its PSN (it took what the capture lost there): at the flow's next
    # request above the hole, the requests held past it are taken in PSN
    # order, done at that request's frame
    seq_held, seq_acked, seq_high = {}, {}, {}
    drain_mark = {}     # (flow, QP), message -> the request it completed at
    nak_pend = {}       # (flow, QP) -> PSN of a NAK not yet attributed
    nak_early = {}      # (flow, QP) -> (PSN, time) of a NAK before its first request in the window

    def seq_back(qk, psn):
        d = (seq_exp[qk] - psn) % PSN_MOD
        if d and in_span(qk, psn):
            # inside the span of a READ whose MTU is unknown: it ended there
            seq_exp[qk], seq_slack[qk] = psn, 0
        if 0 < d < PSN_MOD >> 1:
            seq_exp[qk] = psn
            seq_slack[qk] = 0
            if 0 < (seq_lo[qk] - psn) % PSN_MOD < PSN_MOD >> 1:
                seq_lo[qk] = psn
            took = seq_took[qk]
            for x in [x for x in took if 0 <= (x - psn) % PSN_MOD < d]:
                del took[x]
            h = seq_held.get(qk, {})
            for x in [x for x in h if (x - psn) % PSN_MOD < PSN_MOD >> 1]:
                del h[x]
    seq_lo = {}         # the lowest PSN the sequence started at or a NAK moved it back to
    # README "PSN gap": with the QP's path MTU not yet shown in the window
    # (no full FIRST or MIDDLE of either direction), a READ takes anything
    # from 4096- to 256-byte segments: the next request is in sequence
    # anywhere in that span, and a PSN the window shows used (even by a
    # packet its receiver dropped) ends it
    seq_slack, seq_mtu, seq_floor = {}, set(), {}
    seq_rd = {}         # (flow, QP) -> the request taken last (its span may have slack)

    def in_span(qk, psn):
        d = (psn - seq_exp[qk]) % PSN_MOD
        return d <= seq_slack.get(qk, 0)
    for r in win:
        if r["kind"] != "roce" or not r["op"].startswith("RC_"):
            continue
        qk = (r["flow"], r["qp"])
        kind, pos = op_kind(r["op"])
        if pos in ("first", "middle") and r["payload"] and not r.get("corrupt"):
            if qk not in seq_mtu and seq_slack.get(qk, 0) and qk in seq_rd:
                # README "PSN gap": the MTU shown after a READ fixes its
                # span from then on (nothing was taken in its slack yet)
                seq_exp[qk] = (seq_rd[qk]["psn"] + seq_rd[qk].get("psns", 1)) % PSN_MOD
                seq_slack[qk] = 0
            seq_mtu.add(qk)
        if r["payload"] and not r.get("corrupt"):
            floor_note(seq_floor, qk, r["payload"])
        if r["dir"] == "request":
            hi = (r["psn"] + 1) % PSN_MOD
            if qk not in seq_high or 0 < (hi - seq_high[qk]) % PSN_MOD < PSN_MOD >> 1:
                seq_high[qk] = hi
        elif r.get("aeth") and qk in seq_exp and key_of(r) in paired and paired_t[key_of(r)] <= r["t_ns"]:
            # what the responder took, as its answers (corrupted ones too:
            # the tap saw the responder send them) say: an ACK its PSN, a
            # NAK the one before
            upto = r["psn"] if r["aeth"] == "ack" else (r["psn"] - 1) % PSN_MOD
            if 0 < (seq_high[qk] - upto) % PSN_MOD < PSN_MOD >> 1 and \
                    (qk not in seq_acked or 0 < (upto - seq_acked[qk]) % PSN_MOD < PSN_MOD >> 1):
                seq_acked[qk] = upto
        if r["dir"] == "response" and r.get("aeth") in ("nak_psn_seq", "rnr_nak") and qk not in seq_exp and \
                not (key_of(r) in paired and paired_t[key_of(r)] <= r["t_ns"]):
            # README "pairing": a NAK before the window shows its flow's
            # first request is offered to that flow when it comes within
            # NAK_OFFER_NS
            nak_early[qk] = (r["psn"], r["t_ns"])
            continue
        if r["dir"] == "response" and r.get("aeth") in ("nak_psn_seq", "rnr_nak") and qk in seq_exp:
            # (README "bad ICRC": one the requester dropped too: the tap
            # saw the responder send it, refusing what it names)
            rk = key_of(r)
            if rk in paired and paired_t[rk] <= r["t_ns"]:
                seq_back(qk, r["psn"])
            else:
                # README "pairing": a NAK whose flow is not paired yet
                # takes effect at the go-back to its PSN, which says
                # whose requests it refused
                nak_pend[qk] = r["psn"]
            continue
        if r.get("corrupt"):
            if r["dir"] == "request" and qk not in seq_exp:
                # the flow's first request, dropped by its receiver: the
                # sequence starts at it all the same (it waits for its resend)
                seq_exp[qk], seq_took[qk], seq_lo[qk] = r["psn"], {}, r["psn"]
            elif r["dir"] == "request" and in_span(qk, r["psn"]):
                seq_exp[qk], seq_slack[qk] = r["psn"], 0
            continue
        if r["dir"] == "response":
            continue
        if r["dir"] != "request":
            continue
        if qk not in seq_exp:
            seq_exp[qk], seq_took[qk] = r["psn"], {}
            seq_lo[qk] = r["psn"]
            ne = nak_early.pop(qk, None)
            if ne and r["t_ns"] - ne[1] < NAK_OFFER_NS and (r["psn"] - ne[0]) % PSN_MOD <= PSN_WINDOW:
                nak_pend[qk] = ne[0]
        if nak_pend.get(qk) == r["psn"] and r.get("resend"):
            seq_back(qk, nak_pend.pop(qk))
        elif qk in nak_pend and r.get("resend") and "gbn_start" in pk[wf(r)]["flags"] and \
                0 < (r["psn"] - nak_pend[qk]) % PSN_MOD <= NAK_SKIP_MAX:
            # README "pairing": a go-back seen starting a few PSNs past it
            # started at it, its first resends lost before the capture point
            seq_back(qk, nak_pend.pop(qk))
        units, slack = req_span(r, kind, qk in seq_mtu, seq_floor.get(qk, 0))
        h = seq_held.setdefault(qk, {})
        ah = (r["psn"] - seq_exp[qk]) % PSN_MOD
        if h and qk in seq_acked and (seq_acked[qk] - seq_exp[qk]) % PSN_MOD < PSN_MOD >> 1 and \
                0 < ah < PSN_MOD >> 1:
            # the responder acknowledged past the hole: given up
            while h:
                lo = min(h, key=lambda x: (x - seq_exp[qk]) % PSN_MOD)
                seq_exp[qk] = lo
                while seq_exp[qk] in h:
                    q = h.pop(seq_exp[qk])
                    qkind = op_kind(q["op"])[0]
                    qunits, qslack = req_span(q, qkind, qk in seq_mtu, seq_floor.get(qk, 0))
                    seq_exp[qk] = (q["psn"] + qunits) % PSN_MOD
                    seq_slack[qk] = qslack
                    seq_rd[qk] = q
                    seq_took[qk][q["psn"]] = q
                    m = msgs.get((qk, "req", q.get("msg")))
                    if m and op_kind(q["op"])[1] in ("last", "only") and not q.get("taken") and \
                            qkind != "read_req" and all(x in seq_took[qk] for x in m["psns"]):
                        drain_mark[(qk, q.get("msg"))] = r
        d = (r["psn"] - seq_exp[qk]) % PSN_MOD
        if in_span(qk, r["psn"]) and d > 0 and pos in ("middle", "last"):
            # README "PSN gap": inside a READ's open span, a MIDDLE or
            # LAST (no message is open after a READ) is past a hole: its
            # FIRST, after the READ's end, was lost; the READ ended before
            seq_slack[qk] = d - 1
            h[r["psn"]] = r
            continue
        if not in_span(qk, r["psn"]):
            if 0 < d < PSN_MOD >> 1:
                h[r["psn"]] = r
            continue
        h.pop(r["psn"], None)
        seq_exp[qk] = (r["psn"] + units) % PSN_MOD
        seq_slack[qk] = slack
        seq_rd[qk] = r
        seq_took[qk][r["psn"]] = r
        m = msgs.get((qk, "req", r.get("msg")))
        if m and pos in ("last", "only") and not r.get("taken") and kind != "read_req" and \
                all(x in seq_took[qk] for x in m["psns"]):
            seen_done.add(r["frame"])

    # README "cut by capture end", past a hole: requests of an RC flow the
    # window holds past a PSN it never shows taken are counted as the
    # capture shows them (flow key, QP) -> {PSN: position}
    held, open_at_end = {}, set()
    last_req = {}   # (flow, QP) -> its last request frame in the window, good or not
    for r in win:
        if r["kind"] == "roce" and r["dir"] == "request" and r.get("qp") is not None:
            last_req[(r["flow"], r["qp"])] = r["frame"]

    # README "messages", UC: after a hole broke a message, the MIDDLE and
    # LAST packets of its operation up to a LAST (and not past its last PSN,
    # where a WRITE's FIRST showed it) are the rest of it, not orphans: the
    # capture cannot tell them from a next message's whose FIRST was lost
    uc_rest = set()   # frames
    uc = {}
    for r in win:
        if r["kind"] != "roce" or r["dir"] != "request" or not r["op"].startswith("UC_"):
            continue
        kind, pos = op_kind(r["op"])
        st = uc.setdefault((r["flow"], r["qp"]), {"exp": None, "open": False, "broken": False, "op": None,
                                                  "end": None})
        ahead = st["exp"] is None or (r["psn"] - st["exp"]) % PSN_MOD < PSN_MOD >> 1
        if r.get("corrupt"):
            if st["exp"] is not None and ahead:
                if st["open"]:
                    st["open"], st["broken"] = False, True
                if pos != "middle":
                    st["broken"] = False
                st["exp"] = (r["psn"] + 1) % PSN_MOD
            continue
        if st["exp"] is not None and not ahead:
            continue   # late: dropped
        if st["exp"] is not None and r["psn"] != st["exp"] and st["open"]:
            st["open"], st["broken"] = False, True
        st["exp"] = (r["psn"] + 1) % PSN_MOD
        if pos in ("first", "only"):
            st.update(open=pos == "first", broken=False, op=kind, end=None)
            if pos == "first" and kind == "write" and r.get("dmalen", 0) > r.get("payload", 0) > 0:
                st["end"] = (r["psn"] + (r["dmalen"] + r["payload"] - 1) // r["payload"] - 1) % PSN_MOD
        elif not st["open"]:
            if st["broken"] and kind == st["op"] and \
                    (st["end"] is None or (st["end"] - r["psn"]) % PSN_MOD < PSN_MOD >> 1):
                uc_rest.add(r["frame"])
                if pos == "last":
                    st["broken"] = False
            else:
                st["broken"] = False
        elif pos == "last":
            st["open"] = False

    def cut_at_start(m, good):
        qk = (good[0]["flow"], good[0]["qp"])
        if qk not in seq_lo:
            return False
        lo, took = seq_lo[qk], seq_took[qk]

        def below(x):
            return 0 < (lo - x) % PSN_MOD < PSN_MOD >> 1
        if all(below(c["psn"]) for c in good):
            return True
        rest = [x for x in m["psns"] if not below(x)]
        return lo in m["psns"] and lo != m["first_psn"] and rest and all(x in took for x in rest)

    def first_bad_in_w(m):
        """README "messages cut by the capture": the window shows its FIRST
        (or ONLY), with a bad ICRC, before any other packet of it: the
        capture saw it begin, not a message it started inside."""
        fc = [c for c in m["copies"] if in_w(c) and c["psn"] == m["first_psn"] and c.get("corrupt")]
        return bool(fc) and min(c["frame"] for c in fc) <= min(c["frame"] for c in m["copies"] if in_w(c))

    def uc_broken_in_window(m, good):
        """README "incomplete": its receiver took its FIRST in the window and
        the window shows a later packet of its flow after the last one
        taken (the message can no longer complete)."""
        tk = [c["frame"] for c in good if c.get("taken")]
        if not any(c["psn"] == m["first_psn"] and c.get("taken") for c in good) or not tk:
            return False
        return last_req.get((good[0]["flow"], good[0]["qp"]), 0) > max(tk)

    def wholly_below(m, good):
        """README "messages cut by the capture": every PSN of it below where
        the window's sequence starts (or a refusal in it moved it back to)."""
        qk = (good[0]["flow"], good[0]["qp"])
        if qk not in seq_lo:
            return False
        lo = seq_lo[qk]
        return all(0 < (lo - x) % PSN_MOD < PSN_MOD >> 1 for x in m["psns"])

    def read_waited(qp, n, fk, upto):
        """README "messages cut by the capture": a READ request of message
        n the window showed before frame upto (its answer's end) waits for
        its answer: it came
        before its responder's flow fk acknowledged past it, or that flow
        showed the READ's answer stop just below its PSN (the response
        before it came, its own never)."""
        for q in win:
            if q["frame"] >= upto:
                break
            if q["kind"] != "roce" or (q["flow"], q["qp"]) != qp or op_kind(q["op"])[0] != "read_req" or \
                    q.get("msg") != n or q.get("corrupt"):
                continue
            rs = [x for x in win if x["frame"] < q["frame"] and x["kind"] == "roce" and key_of(x) == fk and
                  not x.get("corrupt")]
            if not any(x.get("aeth") == "ack" and (x["psn"] - q["psn"]) % PSN_MOD < PSN_MOD >> 1 for x in rs):
                return True
            rd = set(x["psn"] for x in rs if op_kind(x["op"])[0] == "read_resp")
            if (q["psn"] - 1) % PSN_MOD in rd and q["psn"] not in rd:
                return True
        return False

    def shown_above(before, first):
        """A response PSN above first's, or an MSN not below its, among the
        packets of its flow the window showed before it."""
        return any(op_kind(r["op"])[0] == "read_resp" and 0 < (r["psn"] - first["psn"]) % PSN_MOD < PSN_MOD >> 1
                   for r in before) or \
            any(r.get("msn") is not None and r["msn"] >= first.get("msn", 0) for r in before)

    def read_again_whole(m, good, fk, qp, n):
        """README "messages cut by the capture": a READ answered before the
        window, answered again whole in it (its first whole run of
        responses, FIRST to LAST in PSN order). A message when a READ
        request the window showed waits for that answer (seen before it,
        before its responder acknowledged past it), or when the window shows
        no MSN before it to compare and no response PSN above its FIRST (the
        capture cannot tell it from a first answer); else cut by the capture
        start. (True, its LAST), (False, None), or None: no whole answer."""
        if m["first_psn"] is None:
            return None
        run = []
        for c in sorted(good, key=lambda c: c["frame"]):
            if c["psn"] == m["first_psn"] and op_kind(c["op"])[1] in ("first", "only"):
                run = [c]
            elif run and c["psn"] == (run[-1]["psn"] + 1) % PSN_MOD:
                run.append(c)
            else:
                run = []
            if run and op_kind(run[-1]["op"])[1] in ("last", "only"):
                break
        if not run or op_kind(run[-1]["op"])[1] not in ("last", "only") or \
                set(c["psn"] for c in run) != m["psns"]:
            return None
        before = [r for r in win if r["frame"] < run[0]["frame"] and r["kind"] == "roce" and key_of(r) == fk]
        reqs = [r for r in win if r["kind"] == "roce" and (r["flow"], r["qp"]) == qp and
                op_kind(r["op"])[0] == "read_req" and r.get("msg") == n and r["psn"] == m["first_psn"] and
                r["frame"] < run[0]["frame"]]
        if any(not any(r["frame"] < q["frame"] and (r["psn"] - q["psn"]) % PSN_MOD < PSN_MOD >> 1 for r in before)
               for q in reqs):
            return True, run[-1]
        if shown_above(before, run[0]):
            return False, None
        return True, run[-1]

    def first_in_hole(m, good, side, transport):
        """README "held": its FIRST lies at or past the PSN the window's
        sequence waits for at the end (the hole, after the last message
        end it took), and the window shows none of it taken: the message
        the hole broke, not one the capture started inside (its FIRST went
        by before the window, and the go-back's copy of it was lost)."""
        if side != "req" or transport != "RC" or m["first_psn"] is None:
            return False
        qk = (good[0]["flow"], good[0]["qp"])
        if qk not in seq_exp:
            return False
        took = seq_took[qk]
        return (m["first_psn"] - seq_exp[qk]) % PSN_MOD < PSN_MOD >> 1 and not any(c["psn"] in took for c in good)

    def past_hole(m, good, side, transport):
        """The cut message's good copies wait past the hole (none taken)."""
        if side != "req" or transport != "RC":
            return False
        qk = (good[0]["flow"], good[0]["qp"])
        if qk not in seq_exp:
            return False
        took = seq_took[qk]
        if any(c["psn"] in took for c in good):
            open_at_end.add((key_of(good[0]), qk))
            # (its packets past the hole are held too: its LAST among
            # them ends it, and a MIDDLE after that begins another)
            h = held.setdefault((key_of(good[0]), qk), {})
            for c in good:
                if c["psn"] not in took and (c["psn"] - seq_exp[qk]) % PSN_MOD < PSN_MOD >> 1:
                    h[c["psn"]] = op_kind(c["op"])[1]
            return False
        h = held.setdefault((key_of(good[0]), qk), {})
        for c in good:
            h[c["psn"]] = op_kind(c["op"])[1]
        return True

    cut_seen = {}   # (qp, side) -> {msg: (info, PSNs the window shows, flow key)} cut by the capture start
    read_req_in_w = {}  # (qp, msg) -> the frame of its first READ request in the window
    for r in win:
        if r["kind"] == "roce" and op_kind(r["op"])[0] == "read_req":
            read_req_in_w.setdefault(((r["flow"], r["qp"]), r.get("msg")), r["frame"])
    for (qp, side, n), m in sorted(msgs.items(), key=lambda x: (x[0][0], x[0][1], x[0][2])):
        for c in m["copies"]:
            if c.get("frame") in seen_done:
                pk[wf(c)]["flags"].add("msg_done")
        good = [c for c in m["copies"] if in_w(c) and not c.get("corrupt")]
        if not good:
            continue
        fk = key_of(good[0])
        f = flow(fk)
        # README "msgs_by_op": credited to the requester's flow, once the
        # capture has paired the two (else the flow that carried it)
        owner = flow(paired[fk]) if side == "rsp" and fk in paired else f
        transport = good[0]["op"].split("_")[0]
        have = set(c["psn"] for c in good)
        done = m["done"]
        first_in = m["first_psn"] is not None and m["first_psn"] in have
        op = {"send": "send", "write": "write", "atomic": "atomic", "read_resp": "read"}[m["kind"]]
        mark = None
        first_copy = min(win_order[c["frame"]] for c in good)
        first_before = any(c.get("frame") and c["frame"] < a and c["psn"] == m["first_psn"] for c in m["copies"])
        later = any(c.get("frame") and c["frame"] > b for c in m["copies"])
        first_taken = next((c for c in m["copies"] if c["psn"] == m["first_psn"] and c.get("taken") and
                            c.get("frame") and not c.get("corrupt")), None)
        if transport == "UD":
            # every UD packet is a message of its own
            if done is not None and in_w(done):
                f["messages"] += 1
                owner["msgs_by_op"][op] += 1
                mark = done
        elif side == "rsp" and transport == "RC" and m["kind"] == "read_resp" and \
                all("precapture" in pk[wf(c)]["flags"] for c in good if op_kind(c["op"])[1] in ("first", "only")) and \
                any(op_kind(c["op"])[1] in ("first", "only") for c in good) and \
                ((qp, n) not in read_req_in_w or
                 not read_waited(qp, n, fk, min([c["frame"] for c in good if op_kind(c["op"])[1] in ("last", "only")] +
                                                [1 << 62])) or
                 min([c["frame"] for c in good if op_kind(c["op"])[1] in ("middle", "last")] + [1 << 62]) <
                 min([c["frame"] for c in good if op_kind(c["op"])[1] in ("first", "only")] +
                     [read_req_in_w[(qp, n)]])):
            # README "messages cut by the capture": a READ whose FIRST
            # response lies below the first response PSN the window shows,
            # its request not in the window (or seen only after its
            # responder acknowledged past it, or the window showed a tail
            # of an earlier answer to it before its FIRST and before its
            # request: begun before the window), was answered before the
            # window; whether its requester took it then, the capture
            # cannot tell
            f["messages_cut_by_capture_start"] += 1
        elif done is not None and in_w(done) and m["psns"] <= have and not (first_taken and first_taken["frame"] < a) \
                and not (side == "req" and transport == "RC" and (wholly_below(m, good) or cut_at_start(m, good))):
            f["messages"] += 1
            owner["msgs_by_op"][op] += 1
            mark = done
            tk = seq_took.get((good[0]["flow"], good[0]["qp"]), {}).get(done["psn"]) \
                if side == "req" and transport == "RC" else None
            if tk is not None and tk["frame"] in seen_done and tk["frame"] < done["frame"]:
                # README "messages": the window showed it complete in
                # sequence at an earlier copy and nothing in it refused
                # that copy: done there (the later one is a duplicate)
                mark = tk
        elif side == "req" and transport == "RC" and (any(c.get("frame") in seen_done for c in good) or
                                                       (qp, n) in drain_mark or
                                                       (done is not None and in_w(done) and
                                                        seq_took.get((good[0]["flow"], good[0]["qp"]), {})
                                                        .get(done["psn"], {}).get("frame") == done["frame"])) and \
                all(x in seq_took.get((good[0]["flow"], good[0]["qp"]), {}) for x in m["psns"]):
            # README "messages": the window shows it whole and in sequence,
            # and nothing in the window refuses it: done at that copy (its
            # receiver may have taken it, or its FIRST, before the window; a
            # copy the window shows of a FIRST taken before it looks new;
            # or its receiver refused it
            # for a hole before the window with a NAK after it: the capture
            # cannot tell)
            f["messages"] += 1
            owner["msgs_by_op"][op] += 1
            mark = next((c for c in good if c.get("frame") in seen_done), None) or drain_mark.get((qp, n)) or done
        elif done is None and m.get("unknown") and m["psns"] <= have and b == last_frame:
            # the run ended with it on its way (in a paused switch): what the
            # receiver would have done is not known, and the capture shows it
            # whole (README "what the counts are of")
            f["messages"] += 1
            owner["msgs_by_op"][op] += 1
            mark = max((c for c in good), key=lambda c: c["frame"])
        elif side == "rsp" and transport == "RC" and m["kind"] == "read_resp" and first_taken and \
                first_taken["frame"] < a and read_again_whole(m, good, fk, qp, n) is not None:
            # README "messages cut by the capture": a READ its requester
            # took the answer to before the window, answered again whole in
            # it: the capture counts what it shows
            whole, last = read_again_whole(m, good, fk, qp, n)
            if whole:
                f["messages"] += 1
                owner["msgs_by_op"][op] += 1
                mark = last
            else:
                f["messages_cut_by_capture_start"] += 1
                cut_seen.setdefault((qp, side), {})[n] = (m, have, fk)
        elif (first_taken and first_taken["frame"] < a and (done is not None or transport != "RC")) or \
                (not first_in and ((first_before and not first_in_hole(m, good, side, transport)) or
                                   ((starts.get(fk) is None or starts[fk] > first_copy) and
                                                    not (transport == "RC" and ends.get(fk, first_copy) < first_copy) and
                                                    not first_bad_in_w(m)))):
            # its receiver began it before the window (a copy of its FIRST
            # the window holds is a duplicate; an RC one never completed
            # is cut by the capture end, below, whether or not its receiver
            # took its FIRST), or
            # MIDDLE/LAST of a message the capture started inside, or before
            # the flow's first message start in the window (on RC, not
            # after a message end the window showed: its FIRST, at a PSN
            # past that end, went by after the capture started)
            f["messages_cut_by_capture_start"] += 1
            cut_seen.setdefault((qp, side), {})[n] = (m, have, fk)
        elif ((done is not None and done["frame"] > b) or (done is None and later) or transport == "RC") \
                and side == "req" and transport == "RC" and cut_at_start(m, good):
            # README "messages cut by the capture": the window's sequence
            # starts inside it and shows the rest of it taken, or it lies
            # wholly below where the sequence starts (its resends are of
            # packets that went by before the capture): the capture cannot
            # tell that its receiver never took it
            f["messages_cut_by_capture_start"] += 1
            cut_seen.setdefault((qp, side), {})[n] = (m, have, fk)
        elif ((done is not None and done["frame"] > b) or (done is None and later) or
              transport == "RC") and past_hole(m, good, side, transport):
            pass
        elif ((done is not None and done["frame"] > b) or (done is None and later)) and \
                not (transport == "UC" and done is None and uc_broken_in_window(m, good)) and \
                not (transport == "UC" and done is None and
                     (any(in_w(c) and c.get("corrupt") and c["psn"] == m["first_psn"] for c in m["copies"]) or
                      not first_in) and
                     not any(c.get("taken") and c["psn"] == m["first_psn"] for c in m["copies"])):
            # its receiver completed it (or went on with it) after the window
            # (a UC message the window shows broken is incomplete: below;
            # one whose FIRST the window shows with a bad ICRC, or does not
            # show, lost before the tap, its receiver never began: its
            # MIDDLEs and LAST are orphans, below)
            f["messages_cut_by_capture_end"] += 1
        elif transport == "RC":
            # never completed: its QP failed, its retries exhausted (the
            # model's RC QPs fail no other way) while the sender was still
            # resending it, begun by the receiver or not. README "cut by
            # capture end": a capture cannot tell that from a capture that
            # ended before the next resend; the hole's resend was under way
            f["messages_cut_by_capture_end"] += 1
        elif any(c["psn"] == m["first_psn"] and c.get("taken") for c in good) and \
                last_req.get((good[0]["flow"], good[0]["qp"]), 0) <= \
                max(c["frame"] for c in good if c.get("taken")):
            # its receiver began it, and the window ends with the last packet
            # it took: README "cut by capture end" (the rest lost or not
            # sent yet, the capture cannot tell)
            f["messages_cut_by_capture_end"] += 1
        elif any(c["psn"] == m["first_psn"] and c.get("taken") for c in good):
            # its receiver began it and never completed it: a UC packet lost
            # inside it (the window shows a later packet of its flow, or the
            # next one's copy with a bad ICRC)
            f["incomplete_messages"] += 1
        else:
            # its FIRST never reached the receiver (UC)
            for c in good:
                if op_kind(c["op"])[1] in ("middle", "last") and c["frame"] not in uc_rest:
                    f["orphan_packets"] += 1
                    pk[wf(c)]["flags"].add("orphan")
        if mark is not None:
            pk[wf(mark)]["flags"].add("msg_done")

    # README "messages cut by the capture": two messages cut by the capture
    # start whose packets between them the window never shows (the LAST of
    # the one, the FIRST of the next) look like one and count as one
    # (the messages between them, if any, the window shows nothing of)
    for (qp, side), cm in cut_seen.items():
        order = sorted(cm)
        for pn, n in zip(order, order[1:]):
            m, have, fk = cm[n]
            prev = cm[pn]
            if prev[2] != fk or prev[0]["kind"] != m["kind"] or m["kind"] not in ("send", "write"):
                continue
            if any(in_w(c) for k in range(pn + 1, n) for c in msgs.get((qp, side, k), {"copies": []})["copies"]):
                continue
            last_prev = max(prev[0]["psns"], key=lambda x: (x - prev[0]["first_psn"]) % PSN_MOD)
            if m["first_psn"] not in have and last_prev not in prev[1] and have and prev[1]:
                flows[fk]["messages_cut_by_capture_start"] -= 1

    # README "messages cut by the capture": a READ answered whole before the
    # window and answered again whole in it, its requests all before the
    # window, the MSN of the answer again new to the window and its FIRST
    # not below a response PSN the window showed before it: the capture
    # cannot tell it from the first answer, and counts a message
    for (qp, side, n), m in msgs.items():
        if side != "rsp" or m["kind"] != "read_resp" or m["done"] is None or in_w(m["done"]) or \
                m["done"].get("frame") is None or m["done"]["frame"] >= a or m["first_psn"] is None:
            continue
        if (qp, n) in read_req_in_w or any(in_w(c) for c in m["copies"]):
            continue
        again = [r for r in win if r["kind"] == "roce" and (r["flow"], r["qp"]) == qp and
                 op_kind(r["op"])[0] == "read_resp" and r.get("msg") is None and
                 r.get("resend") == "duplicate_read" and r["psn"] in m["psns"]]
        if not again:
            continue
        fk = key_of(again[0])
        before = [r for r in win if r["frame"] < again[0]["frame"] and r["kind"] == "roce" and key_of(r) == fk]
        if again[0]["psn"] != m["first_psn"] or op_kind(again[0]["op"])[1] not in ("first", "only"):
            # README "messages cut by the capture": the window starts
            # inside that answer again (its flow's first packet a MIDDLE
            # or LAST): the READ the capture started inside
            if not before and op_kind(again[0]["op"])[1] in ("middle", "last") and not again[0].get("corrupt"):
                flow(fk)["messages_cut_by_capture_start"] += 1
            elif op_kind(again[0]["op"])[1] == "first" and not again[0].get("corrupt") and \
                    shown_above(before, again[0]):
                # the answer to its re-issue from inside it (IBA
                # 9.7.5.1.4), answered again below a response PSN the
                # window showed before: a READ answered before the
                # capture, counted once
                flow(fk)["messages_cut_by_capture_start"] += 1
            continue
        if shown_above(before, again[0]):
            # README "messages cut by the capture": answered again, its
            # FIRST below a response PSN the window showed before it, or
            # its first response with no new MSN, no request in the
            # window waiting for it: its first answer went by before the
            # capture; counted once, cut by the capture start
            flow(fk)["messages_cut_by_capture_start"] += 1
            continue
        run = []
        for r in again:
            if r.get("corrupt"):
                continue
            if r["psn"] == m["first_psn"] and run:
                break
            run.append(r)
        if set(r["psn"] for r in run) != m["psns"] or op_kind(run[-1]["op"])[1] not in ("last", "only"):
            continue
        owner = flow(paired[fk]) if fk in paired else flow(fk)
        flow(fk)["messages"] += 1
        owner["msgs_by_op"]["read"] += 1
        pk[wf(run[-1])]["flags"].add("msg_done")

    # README "messages cut by the capture": a READ whose answer began before
    # the window, re-issued in it from inside (IBA 9.7.5.1.4: from the first
    # response missing, address and length advanced) and the rest answered
    # whole in it from that PSN: the window shows a READ request and its
    # whole answer, which the capture cannot tell from a READ of its own,
    # when the answer's MSN is new to the window and no response PSN the
    # window showed before it lies above it: a message
    for (qp, side), cm in cut_seen.items():
        if side != "rsp":
            continue
        for n, (m, have, fk) in list(cm.items()):
            if m["kind"] != "read_resp" or m["done"] is None or not in_w(m["done"]):
                continue
            good = sorted((c for c in m["copies"] if in_w(c) and not c.get("corrupt")),
                          key=lambda c: c["frame"])
            if not good or op_kind(good[0]["op"])[1] not in ("first", "only") or \
                    good[0]["psn"] == m["first_psn"]:
                continue
            rq = [r for r in win if r["kind"] == "roce" and (r["flow"], r["qp"]) == qp and
                  op_kind(r["op"])[0] == "read_req" and r.get("msg") == n and r["psn"] == good[0]["psn"] and
                  r["frame"] < good[0]["frame"]]
            psns = set(c["psn"] for c in good)
            rest = set(x for x in m["psns"] if (x - good[0]["psn"]) % PSN_MOD < PSN_MOD >> 1)
            if not rq or psns != rest or m["done"] is not good[-1] and m["done"]["frame"] != good[-1]["frame"]:
                continue
            before = [r for r in win if r["frame"] < good[0]["frame"] and r["kind"] == "roce" and key_of(r) == fk]
            if any(r.get("msn") is not None and r["msn"] >= good[0].get("msn", 0) for r in before) or \
                    any(op_kind(r["op"])[0] == "read_resp" and
                        0 < (r["psn"] - good[0]["psn"]) % PSN_MOD < PSN_MOD >> 1 for r in before):
                continue
            owner = flow(paired[fk]) if fk in paired else flow(fk)
            flow(fk)["messages_cut_by_capture_start"] -= 1
            flow(fk)["messages"] += 1
            owner["msgs_by_op"]["read"] += 1
            pk[wf(good[-1])]["flags"].add("msg_done")
            del cm[n]

    # the held requests in PSN order from the hole: a FIRST or ONLY starts
    # a message, and so does a MIDDLE or LAST when no message is open
    # before it (the one the hole broke, or one a held FIRST began)
    for (fk, qk), h in held.items():
        cur = (fk, qk) in open_at_end
        for psn in sorted(h, key=lambda x: (x - seq_exp[qk]) % PSN_MOD):
            pos = h[psn]
            first = pos in ("first", "only")
            if first or not cur:
                flows[fk]["messages_cut_by_capture_end"] += 1
            cur = pos in ("first", "middle")

    # ---- PFC per priority (README "paused", "storm"): a pause frame
    # pauses the traffic towards its sender, each sender's pause its own (a
    # frame reloads that sender's timer, an XON ends it); the class is paused
    # while any sender's pause holds ----
    pfc = {}
    end_ns = win[-1]["t_ns"] if win else 0
    for p in range(8):
        frames = [r for r in win if r["kind"] == "pfc" and r["cev"] >> p & 1]
        st = {"frames": len(frames), "xoff": sum(1 for r in frames if r["quanta"][p]),
              "xon": sum(1 for r in frames if not r["quanta"][p])}
        if not frames:
            continue
        spans = []
        for sender in set(r["dir"] for r in frames):
            start_t, until = None, None
            for r in (x for x in frames if x["dir"] == sender):
                t, qn = r["t_ns"], r["quanta"][p]
                if until is not None and until <= t:
                    spans.append((start_t, until))
                    start_t = until = None
                if qn == 0:
                    if until is not None:
                        spans.append((start_t, t))
                        start_t = until = None
                    continue
                if until is None:
                    start_t = t
                until = t + int(qn * 512 / link_gbps + 0.5)
            if until is not None:
                spans.append((start_t, min(until, end_ns)))
        spans = sorted((a_, min(b_, end_ns)) for a_, b_ in spans if a_ < end_ns)
        runs = []
        for a_, b_ in spans:
            if runs and a_ <= runs[-1][1]:
                runs[-1][1] = max(runs[-1][1], b_)
            else:
                runs.append([a_, b_])
        st.update(paused_us=sum(b_ - a_ for a_, b_ in runs) / 1000.0,
                  storms=sum(1 for a_, b_ in runs if b_ - a_ > STORM_NS),
                  longest_us=max((b_ - a_ for a_, b_ in runs), default=0) / 1000.0)
        pfc[str(p)] = st
    top["pfc"] = pfc
    for f in flows.values():
        f.pop("kinds", None)
        f.pop("last_kind", None)
        f.pop("transport_last", None)
    return flows, pk, top
