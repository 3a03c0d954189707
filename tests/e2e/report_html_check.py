#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks an HTML report of rocewire-cap (--html) as a browser shows it.

usage: report_html_check.py REPORT.html DOM.html WORKDIR CHROMIUM [TITLE...]

- the page is self-contained: no <script>, no external resource (src= or
  href= to http(s)/file, @import, url() in CSS);
- the DOM that headless Chromium built (DOM.html, from --dump-dom) holds
  the titles given (the plots' and the tables');
- every plot (<svg class="plot">) is cut out of the page into a page of its
  own and rendered by Chromium to a PNG twice, as it is and without what it
  draws from the data (its <g class="data"> groups); the PNGs are decoded
  here (zlib, no PIL): the data must add pixels of data colours (saturated,
  not the greys of grid, axes and text) in a share of at least MIN_INK of
  the plot, so that frame, axes, legend and titles alone do not pass;
  a plot that looks blank is rendered again (up to RENDER_TRIES times)
  before it counts as blank: a loaded machine may screenshot a page
  Chromium has not painted whole, while a blank plot is blank every time.
PNG decoding: 8-bit RGB/RGBA, non-interlaced (what Chromium writes)."""
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

MIN_INK = 0.001  # share of the plot's pixels in a data colour, drawn from the data
RENDER_TRIES = 3  # renders of a plot that looks blank before it counts as blank


def png_decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    pos, idat, w = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("%s: PNG type %d/%d not handled" % (path, depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def ink(path):
    """Share of pixels in a saturated colour (data), and of non-white ones."""
    w, h, bpp, rows = png_decode(path)
    colour = nonwhite = 0
    for row in rows:
        for x in range(0, w * bpp, bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            if max(r, g, b) - min(r, g, b) > 60:
                colour += 1
            if r < 245 or g < 245 or b < 245:
                nonwhite += 1
    return colour / float(w * h), nonwhite / float(w * h), w, h


def chromium_png(chromium, html_path, png_path, w, h):
    with tempfile.TemporaryDirectory() as prof:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + prof,
               "--screenshot=" + png_path, "--window-size=%d,%d" % (w, h),
               "file://" + os.path.abspath(html_path)]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
                       check=False)
    return os.path.exists(png_path)


def render_pair(chromium, work, pid, w, h, block, errs):
    """Ink of the plot as it is and without its data, or None (error noted)."""
    shares = []
    for variant, svg in (("", block),
                         ("-nodata", re.sub(r"<g class=\"data\">.*?<!--/data-->", "",
                                            block, flags=re.S))):
        page = os.path.join(work, pid + variant + ".html")
        png = os.path.join(work, pid + variant + ".png")
        if os.path.exists(png):
            os.unlink(png)
        with open(page, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>"
                    "html,body{margin:0;background:#fff}</style></head><body>%s</body></html>"
                    % svg)
        if not chromium_png(chromium, page, png, w, h):
            errs.append("%s%s: Chromium wrote no screenshot" % (pid, variant))
            return None
        shares.append(ink(png))
    return shares


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    report, dom_path, work, chromium = sys.argv[1:5]
    titles = sys.argv[5:]
    html = open(report, encoding="utf-8").read()
    errs = []

    if re.search(r"<script", html, re.I):
        errs.append("the page has a <script>")
    for m in re.finditer(r"""(?:src|href)\s*=\s*["']?([^"' >]+)""", html, re.I):
        errs.append("the page loads %s" % m.group(1))
    if re.search(r"@import|url\(", html, re.I):
        errs.append("the CSS loads a resource (@import or url())")

    dom = open(dom_path, encoding="utf-8").read()
    text = re.sub(r"<[^>]+>", " ", dom)
    text = re.sub(r"\s+", " ", text.replace("&amp;", "&"))
    for t in titles:
        if t not in text:
            errs.append("the rendered page does not show the title \"%s\"" % t)

    svgs = re.findall(r"<svg id=\"([^\"]+)\" class=\"plot\"[^>]*viewBox=\"0 0 (\d+) (\d+)\".*?</svg>",
                      html, re.S)
    blocks = re.findall(r"(<svg id=\"[^\"]+\" class=\"plot\".*?</svg>)", html, re.S)
    if len(svgs) < 4:
        errs.append("%d plots in the page, expected 4" % len(svgs))
    for (pid, w, h), block in zip(svgs, blocks):
        # A loaded machine (CI runs tests in parallel) sometimes gets a
        # screenshot of a page Chromium has not painted whole: the legend's
        # swatches are missing too. The page is the same every time, so a
        # blank plot is blank on every try; a paint cut short is not.
        for attempt in range(1, RENDER_TRIES + 1):
            shares = render_pair(chromium, work, pid, int(w), int(h), block, errs)
            if shares is None:
                break
            (c, nw, pw, ph), (c0, _, _, _) = shares
            print("%s: %dx%d, %.2f%% in data colours, %.2f%% without the data, %.2f%% not white%s"
                  % (pid, pw, ph, 100 * c, 100 * c0, 100 * nw,
                     "" if attempt == 1 else " (render %d)" % attempt))
            if c - c0 >= MIN_INK:
                break
        if shares is None:
            continue
        if c - c0 < MIN_INK:
            errs.append("%s: the data add %.3f%% of the plot in data colours: it looks blank"
                        % (pid, 100 * (c - c0)))
    for e in errs:
        print("FAIL " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
