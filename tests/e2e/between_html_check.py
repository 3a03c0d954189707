#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the page of `rocewire-cap --between A B --json --html OUT`
against rocewire-mktaps' truth (what it did to each packet, its own
decisions), and that the JSON still reaches standard output beside it.

- the page is well-formed (every element closed in order, stdlib
  html.parser), self-contained (no script, nothing with src= or href=, no
  url() or @import) and left no temporary file;
- the summary's counts (matched, lost, only in B/A, direction unknown, CE
  marked) and the delays' exact minimum and maximum equal the truth's;
- every flow of the truth has a section (when there are at most 24), with
  its direction, lost count, and the list of its lost packets (PSN, tap,
  frame) equal to the truth's;
- its PSN timeline marks each lost packet (class "lost") at the pixel where
  the truth's time at the tap that saw it and its PSN fall on the plot's
  axes, and no other; each point of the PSN line and of the delay plot is
  a matched packet of the truth at its upstream time with its PSN or delay;
  when the plot says nothing was thinned, there are as many as the truth's.
usage: between_html_check.py CAP A B TRUTH OUT.html [rocewire-cap options...]"""
import glob
import html.parser
import json
import os
import re
import subprocess
import sys

from between_common import Errors, mktaps_addr as addr, norm

cap, fa, fb, ftruth, out_html = sys.argv[1:6]
extra = sys.argv[6:]
truth = json.load(open(ftruth))
run = subprocess.run([cap, "--between", fa, fb, "--json", "--html", out_html] + extra,
                     capture_output=True, text=True)
if run.returncode != 0:
    sys.exit("FAIL: rocewire-cap exited %d: %s" % (run.returncode, run.stderr.strip()))
out = json.loads(run.stdout)  # the JSON beside the page
errors = Errors()
check = errors.check
TOL = 0.02  # pixels: the page writes two decimals








pk = truth["packets"]
for p in pk:
    p["s"], p["d"] = addr(p["src"]), addr(p["dst"])
known = {(p["s"], p["d"]) for p in pk if p["fate"] == "matched"}
resid = truth["shift_ns"] - out["offset_ns"]  # B's times on the merged clock: t_b + resid


def fate(p):
    return p["fate"] if (p["s"], p["d"]) in known else "unknown"


def t_merged(p, side):
    return p["t_a"] if side == "A" else p["t_b"] + resid


def seen_side(p):
    return "A" if p["t_a"] >= 0 else "B"


# ---- parse the page ---------------------------------------------------------------
VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "embed", "source", "track", "wbr"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems = [], []
        self.kv = {}            # summary rows by data-key: (attrs, text)
        self.sections = []      # flow sections
        self.cur = None         # the flow section being read
        self.svg = None         # the svg being read (within a section)
        self.row = None
        self.cell = None
        self.kvrow = None
        self.count_id = None
        self.in_style = False
        self.style = ""
        self.mark = None

    def handle_startendtag(self, tag, attrs):
        self.start(tag, dict(attrs), True)

    def handle_starttag(self, tag, attrs):
        self.start(tag, dict(attrs), tag in VOID)

    def start(self, tag, a, closed):
        for k, v in a.items():
            if k in ("src", "href") or (k.startswith("on")):
                self.problems.append("<%s %s=%r>: loads or runs something" % (tag, k, v))
        if tag == "script":
            self.problems.append("a <script>")
        if tag == "style":
            self.in_style = True
        cls = a.get("class", "") or ""
        if tag == "section" and "flow" in cls.split():
            self.cur = {"attrs": a, "svgs": {}, "lost_rows": [], "count": None, "has_table": False}
            self.sections.append(self.cur)
        if self.cur is not None:
            if tag == "svg":
                self.svg = {"id": a.get("id", ""), "map": None, "polyline": [], "lost": [], "extra": [],
                            "delay": [], "thinned": False, "ns_per_y": None,
                            "exact_lost": [], "exact_extra": []}
                self.cur["svgs"][self.svg["id"]] = self.svg
            elif self.svg is not None:
                if cls == "axis-map":
                    self.svg["map"] = {k[5:]: int(v) if k in ("data-t0-ns", "data-y-base") else float(v)
                                       for k, v in a.items() if k.startswith("data-")}
                elif cls == "delay-unit":
                    self.svg["ns_per_y"] = float(a["data-ns-per-y"])
                elif tag == "polyline" and cls == "psn":
                    self.svg["polyline"] = [tuple(map(float, q.split(","))) for q in a["points"].split()]
                elif tag == "path" and cls == "delay":
                    self.svg["delay"] = [(float(x), float(y)) for x, y in
                                         re.findall(r"M(-?[\d.]+) (-?[\d.]+)h0", a["d"])]
                elif tag == "g" and cls in ("lost", "extra", "oneside"):
                    m = re.fullmatch(r"translate\((-?[\d.]+) (-?[\d.]+)\)", a.get("transform", ""))
                    self.mark = (float(m.group(1)), float(m.group(2)))
                    self.svg["lost" if cls == "lost" else "extra"].append(self.mark)
                    self.svg["exact_" + ("lost" if cls == "lost" else "extra")].append(None)
                elif tag == "desc" and "data-t-ns" in a:
                    k = "exact_lost" if self.svg["lost"] and self.svg["lost"][-1] is self.mark else "exact_extra"
                    self.svg[k][-1] = (int(a["data-t-ns"]), int(a["data-psn"]) & 0xffffff, int(a["data-frame"]))
                elif tag == "text" and cls == "thinned":
                    self.svg["thinned"] = True
            if tag == "table" and "lost" in cls.split():
                self.cur["has_table"] = True
            if tag == "span" and cls == "count":
                self.count_id = True
            if tag == "tr" and self.cur["has_table"] and self.svg is None:
                self.row = []
            if tag == "td" and self.row is not None:
                self.cell = ""
        if tag == "tr" and "data-key" in a:
            self.kvrow = [a, ""]
            self.kv[a["data-key"]] = self.kvrow
        if not closed:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "style":
            self.in_style = False
        if tag == "svg":
            self.svg = None
        if tag == "section":
            self.cur = None
        if tag == "td" and self.row is not None:
            self.row.append(self.cell)
            self.cell = None
        if tag == "tr":
            if self.row:
                self.cur["lost_rows"].append(self.row)
            self.row = None
            self.kvrow = None
        if tag == "span":
            self.count_id = None

    def handle_data(self, data):
        if self.in_style:
            self.style += data
        if self.cell is not None:
            self.cell += data
        if self.kvrow is not None:
            self.kvrow[1] += data
        if self.count_id and self.cur is not None:
            self.cur["count"] = int(data)


src = open(out_html, encoding="utf-8").read()
pg = Page()
pg.feed(src)
pg.close()
for prob in pg.problems:
    errors.append("page: " + prob)
if pg.stack:
    errors.append("page: elements left open: %s" % pg.stack)
if not src.startswith("<!DOCTYPE html>") or not src.rstrip().endswith("</html>"):
    errors.append("page: not a whole document")
if re.search(r"@import|url\(", pg.style, re.I):
    errors.append("page: the CSS loads a resource")
left = glob.glob(out_html + ".*.tmp")
if left:
    errors.append("temporary files left: %s" % left)

# ---- the summary ------------------------------------------------------------------
m = [p for p in pk if fate(p) == "matched"]
want = {"matched": len(m), "lost": sum(fate(p) == "lost" for p in pk),
        "only_in_b": sum(fate(p) == "only_in_b" for p in pk), "only_in_a": sum(fate(p) == "only_in_a" for p in pk),
        "unknown_dir": sum(fate(p) == "unknown" for p in pk), "ce_marked": sum(p["ce"] for p in m)}
for k, v in want.items():
    if k not in pg.kv:
        errors.append("summary: no row %s" % k)
        continue
    check("summary " + k, int(pg.kv[k][0]["data-value"]), v)
    check("summary " + k + " (shown)", pg.kv[k][1].endswith(str(v)), True)
for key, direction in (("delay", "a_to_b"), ("reverse_delay", "b_to_a")):
    ds = sorted(p["t_b"] + resid - p["t_a"] if direction == "a_to_b" else p["t_a"] - p["t_b"] - resid
                for p in m if p["dir"] == direction)
    a = pg.kv.get(key, [{}])[0]
    if ds:
        check("summary %s count" % key, int(a.get("data-count", -1)), len(ds))
        check("summary %s min" % key, int(a.get("data-min", -1)), ds[0])
        check("summary %s max" % key, int(a.get("data-max", -1)), ds[-1])
    else:
        check("summary %s" % key, a.get("data-count"), None)
check("summary offset", int(pg.kv["offset"][0]["data-offset-ns"]), out["offset_ns"])
check("summary tap_a frames", int(pg.kv["tap_a"][0]["data-frames"]), truth["frames_a"])
check("summary tap_b frames", int(pg.kv["tap_b"][0]["data-frames"]), truth["frames_b"])

# ---- per flow ---------------------------------------------------------------------
flows = {}
for p in pk:
    flows.setdefault((p["s"], p["d"], p["dqpn"]), []).append(p)
if len(flows) <= 24:
    check("flow sections", len(pg.sections), len(flows))
t0 = min([t_merged(p, "A") for p in pk if p["t_a"] >= 0] + [t_merged(p, "B") for p in pk if p["t_b"] >= 0],
         default=None)


def px(mp, t_ns):
    v = (t_ns - mp["t0-ns"]) / mp["ns-per-x"]
    x = mp["px"] + (v - mp["x0"]) / (mp["x1"] - mp["x0"]) * mp["pw"]
    return min(max(x, mp["px"]), mp["px"] + mp["pw"])


def py(mp, v):
    y = mp["py"] + mp["ph"] - (v - mp["y0"]) / (mp["y1"] - mp["y0"]) * mp["ph"]
    return min(max(y, mp["py"]), mp["py"] + mp["ph"])


def near(a, b):
    """b: (x, [y...]): a PSN may be drawn unwrapped, one 2^24 up or down."""
    return abs(a[0] - b[0]) <= TOL and any(abs(a[1] - y) <= TOL for y in b[1])


def same_points(what, drawn, expected, exact):
    """Every drawn point is one of the expected (each used once); all of
    them when nothing was thinned."""
    pool = expected
    used = [False] * len(pool)
    for d in drawn:
        hit = False
        for i, e in enumerate(pool):
            if not used[i] and near(d, e):
                used[i] = hit = True
                break
        if not hit:
            errors.append("%s: a point at (%.2f, %.2f) is no packet of the truth" % (what, d[0], d[1]))
            return
    if exact and len(drawn) != len(expected):
        errors.append("%s: %d points drawn, the truth has %d" % (what, len(drawn), len(expected)))


checked_marks = 0
for sec in pg.sections:
    a = sec["attrs"]
    key = (norm(a["data-from"]), norm(a["data-to"]), int(a["data-dqpn"]))
    where = "flow %s -> %s qp %s" % (a["data-from"], a["data-to"], a["data-dqpn"])
    ps = flows.get(key)
    if not ps:
        errors.append(where + ": not in the truth")
        continue
    direction = ps[0]["dir"] if (ps[0]["s"], ps[0]["d"]) in known else "unknown"
    check(where + " direction", a["data-dir"], direction)
    lost = [p for p in ps if fate(p) == ("lost" if direction != "unknown" else "unknown")]
    check(where + " lost count", sec["count"], len(lost))
    want_rows = sorted((p["psn"], seen_side(p), p["frame_a"] if seen_side(p) == "A" else p["frame_b"])
                       for p in lost)
    got_rows = sorted((int(r[0]), r[2], int(r[3])) for r in sec["lost_rows"])
    if len(lost) <= 100:
        check(where + " lost list (psn, tap, frame)", got_rows, want_rows)
    else:
        check(where + " lost list rows", len(got_rows), 100)
    sid = a["data-flow"]
    psn_svg, delay_svg = sec["svgs"].get("psn-" + sid), sec["svgs"].get("delay-" + sid)
    if not psn_svg or not delay_svg or not psn_svg["map"] or not delay_svg["map"]:
        errors.append(where + ": no PSN timeline or no delay plot (or no axis map)")
        continue
    mp = psn_svg["map"]
    check(where + " t0", int(mp["t0-ns"]), t0)
    # lost marks where the truth puts them: time at the tap that saw it, PSN
    def ys(psn):
        return [py(mp, psn + k * (1 << 24) - mp["y-base"]) for k in (-1, 0, 1)]
    if direction == "unknown":
        # nothing is lost or extra: every packet is seen in one tap only
        check(where + " lost marks of a flow of unknown direction", len(psn_svg["lost"]), 0)
        same_points(where + " one-tap-only marks", psn_svg["extra"],
                    [(px(mp, t_merged(p, seen_side(p))), ys(p["psn"])) for p in lost], not psn_svg["thinned"])
        lost = []
    expect_lost = [(px(mp, t_merged(p, seen_side(p))), ys(p["psn"])) for p in lost]
    same_points(where + " lost marks", psn_svg["lost"], expect_lost, not psn_svg["thinned"])
    # each mark's exact time, PSN and frame: one lost packet of the truth
    exact = sorted((t_merged(p, seen_side(p)), p["psn"], p["frame_a"] if seen_side(p) == "A" else p["frame_b"])
                   for p in lost)
    got = sorted(e for e in psn_svg["exact_lost"] if e)
    if not psn_svg["thinned"]:
        check(where + " lost marks (time, psn, frame)", got, exact)
    elif not set(got) <= set(exact):
        errors.append(where + " lost marks: some are no lost packet of the truth")
    checked_marks += len(psn_svg["lost"])
    others = [p for p in ps if fate(p) in ("only_in_b", "only_in_a")]
    if direction != "unknown":
        expect_x = [(px(mp, t_merged(p, seen_side(p))), ys(p["psn"])) for p in others]
        same_points(where + " seen-downstream-only marks", psn_svg["extra"], expect_x, not psn_svg["thinned"])
    mt = [p for p in ps if fate(p) == "matched"]
    up = "B" if direction == "b_to_a" else "A"
    same_points(where + " PSN line", psn_svg["polyline"],
                [(px(mp, t_merged(p, up)), ys(p["psn"])) for p in mt], not psn_svg["thinned"])
    dm = delay_svg["map"]
    nsy = delay_svg["ns_per_y"]

    def dly(p):
        d = t_merged(p, "B") - p["t_a"]
        return -d if direction == "b_to_a" else d
    same_points(where + " delay points", delay_svg["delay"],
                [(px(dm, t_merged(p, up)), [py(dm, dly(p) / nsy)]) for p in mt], not delay_svg["thinned"])

if errors:
    print("FAIL: HTML of %s vs %s (%s):" % (fa, fb, " ".join(extra)))
    for e in errors[:30]:
        print("  " + e)
    sys.exit(1)
print("ok: %s: page %d bytes, %d flow sections, %d lost marks placed, %d matched, %d lost"
      % (os.path.basename(fb), len(src), len(pg.sections), checked_marks, want["matched"], want["lost"]))
