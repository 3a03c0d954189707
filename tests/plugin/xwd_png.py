#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Screenshots of an Xvfb screen (its -fbdir file, XWD format): convert to
PNG and compare, with the standard library only.

usage: xwd_png.py png XWD OUT.png         write the screen as PNG
       xwd_png.py check XWD_WITH XWD_WITHOUT
           exit 0 when the first is not blank (many colours, most of the
           screen drawn) and differs from the second in a good part of the
           screen; prints what it measured either way.
"""
import struct
import sys
import zlib


def read_xwd(path):
    data = open(path, "rb").read()
    h = struct.unpack(">25I", data[:100])
    header_size, width, height = h[0], h[4], h[5]
    bits_per_pixel, bytes_per_line, ncolors = h[11], h[12], h[19]
    if bits_per_pixel != 32:
        raise SystemExit("xwd_png: %s: %d bits per pixel, only 32 handled" % (path, bits_per_pixel))
    off = header_size + ncolors * 12
    byte_order = h[7]  # 0: LSBFirst
    rows = []
    for y in range(height):
        line = data[off + y * bytes_per_line:off + y * bytes_per_line + width * 4]
        rows.append(line)
    return width, height, rows, byte_order


def rgb_rows(width, rows, byte_order):
    out = []
    for line in rows:
        if byte_order == 0:  # B G R X
            b, g, r = line[0::4], line[1::4], line[2::4]
        else:  # X R G B
            r, g, b = line[1::4], line[2::4], line[3::4]
        px = bytearray(width * 3)
        px[0::3], px[1::3], px[2::3] = r, g, b
        out.append(bytes(px))
    return out


def write_png(path, width, height, rgb):
    raw = b"".join(b"\x00" + row for row in rgb)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(png)


def main():
    if sys.argv[1] == "png":
        w, h, rows, bo = read_xwd(sys.argv[2])
        write_png(sys.argv[3], w, h, rgb_rows(w, rows, bo))
        return 0
    w, h, a, bo = read_xwd(sys.argv[2])
    _, _, b, _ = read_xwd(sys.argv[3])
    ra, rb = rgb_rows(w, a, bo), rgb_rows(w, b, bo)
    colours = set()
    background = {}
    for row in ra[::4]:
        for x in range(0, len(row), 12):
            px = row[x:x + 3]
            colours.add(px)
            background[px] = background.get(px, 0) + 1
    most = max(background.values()) / sum(background.values())
    diff_rows = sum(1 for x, y in zip(ra, rb) if x != y)
    print("screen %dx%d: %d colours sampled, the commonest covers %.0f%%; %d of %d rows differ "
          "from the run without the plugin" % (w, h, len(colours), most * 100, diff_rows, h))
    ok = len(colours) >= 16 and most < 0.95 and diff_rows >= h // 20
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
