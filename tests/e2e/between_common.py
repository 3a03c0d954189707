# SPDX-License-Identifier: BSD-3-Clause
"""What the checkers of `rocewire-cap --between` share: the error list they
fill, the delay figures' rule (count, min and max exact, p50 and p99 within
the relative error the JSON states), and rocewire-mktaps' address form."""
import ipaddress
import math


class Errors(list):
    """The failures found so far, as one line each."""

    def check(self, what, got, want):
        if got != want:
            self.append("%s: got %r, want %r" % (what, got, want))

    def delay(self, what, got, v, rel_err):
        """got: the JSON's delay object (or null); v: the true delays, sorted."""
        if not v:
            self.check(what, got, None)
            return
        if got is None:
            self.append("%s: null, want %d values" % (what, len(v)))
            return
        self.check(what + ".count", got["count"], len(v))
        self.check(what + ".min", got["min"], v[0])
        self.check(what + ".max", got["max"], v[-1])
        for q, key in ((0.5, "p50"), (0.99, "p99")):
            want = v[max(1, math.ceil(q * len(v))) - 1]
            tol = abs(want) * rel_err + 1
            if abs(got[key] - want) > tol:
                self.append("%s.%s: got %d, want %d within %.1f" % (what, key, got[key], want, tol))


def mktaps_addr(h):
    """An address as rocewire-mktaps' truth writes it (hex: kind, 16 bytes),
    in the form rocewire-cap prints it (IPv6 as packed bytes: see norm)."""
    b = bytes.fromhex(h)
    if b[0] == 4:
        return str(ipaddress.IPv4Address(b[13:17]))
    if b[0] == 6:
        return ipaddress.IPv6Address(b[1:17]).packed
    return "lid %d" % (b[15] << 8 | b[16])


def norm(a):
    """rocewire-cap's printed address, comparable with mktaps_addr()."""
    if a.startswith("lid ") or a.count(".") == 3 and ":" not in a:
        return a
    return ipaddress.IPv6Address(a).packed


def reordered(flows):
    """RFC 4737's count over matched packets grouped by flow: flows maps
    anything to (direction, packets), each packet with frame_a and frame_b;
    a packet is reordered when it reaches the second tap after one of its
    flow that followed it at the first."""
    n = 0
    for direction, fl in flows.values():
        first, second = ("frame_a", "frame_b") if direction == "a_to_b" else ("frame_b", "frame_a")
        hi = 0
        for p in sorted(fl, key=lambda p: p[second]):
            if p[first] < hi:
                n += 1
            else:
                hi = p[first]
    return n
