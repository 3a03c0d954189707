#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""-v, --json and the default line print the same headers, fields and values
(issue 24).

For each capture given, runs `rocewire-cap -v` and `rocewire-cap --json` and
checks, frame by frame, that every (header, field) -v prints is in the JSON
object with the same header name, field name and value, and the other way
round. Values compare as numbers when both read as numbers (-v's "0x..." hex,
JSON's integers, booleans and "0x..." strings); a JSON string matches -v's
value or the value's name -v prints in parentheses; JSON null matches a -v
word that is not a number ("invalid"). Repeated headers (vlan, ipv6_ext) are
matched in order; a JSON array of numbers (pfc.quanta) is -v's quanta[i].

Then the default line (`rocewire-cap -r`, print_line.c's format): every word
after the addresses, and the VLAN tags before them, must be a header or field
name -v prints for that frame, each field followed by its value as -v shows it
(its number, its name, or both as "17 (UDP)"): the line's words come from the
same field tables. A header's fields follow its name; the BTH's follow the
opcode's name, the IP header's (ecn, proto, next_header) the addresses, the
AETH's the name of its kind. The exceptions the line documents are allowed:
"payload N" (-v's payload len), the CRC results and the error in brackets, a
flag's name alone (set: -v prints 1; and a set BTH flag is on the line), and
the CNP's resv as "nonzero".

Usage: vjson_check.py ROCEWIRE_CAP FILE...   (exit 0 ok, 1 mismatches)"""
import json
import re
import subprocess
import sys

# Top-level JSON members that are the record's, not a header's (and the
# error sentence, which -v prints as its own "error" layer of two lines).
RECORD_KEYS = {"frame", "file", "time", "caplen", "len", "interface", "linktype", "carrier",
               "truncated", "error"}
VERBOSE_ONLY_LAYERS = {"error"}
NUM = re.compile(r"^(0x[0-9a-fA-F]+|[0-9]+)$")
NAMED = re.compile(r"^(\S+) \((.*)\)$")


def verbose_frames(text):
    """{frame: {(layer, instance, field): value text}}"""
    frames, cur, layer, count = {}, None, None, {}
    for line in text.splitlines():
        if line.startswith("frame "):
            n = int(line.split()[1].rstrip(":"))
            cur = frames.setdefault(n, {})
            count = {}
        elif line.startswith("    "):
            k, _, v = line[4:].partition(" ")
            cur[(layer, count[layer] - 1, k)] = v
        elif line.startswith("  "):
            layer = line[2:]
            count[layer] = count.get(layer, 0) + 1
    return frames


def json_fields(obj):
    out = {}
    for h, v in obj.items():
        if h in RECORD_KEYS:
            continue
        objs = v if isinstance(v, list) else [v]
        for i, o in enumerate(objs):
            if not isinstance(o, dict):
                out[(h, i, "?")] = o
                continue
            for k, x in o.items():
                if isinstance(x, list):
                    for e, y in enumerate(x):
                        out[(h, i, "%s[%d]" % (k, e))] = y
                else:
                    out[(h, i, k)] = x
    return out


def as_num(x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    if isinstance(x, str) and NUM.match(x):
        return int(x, 16) if x.startswith("0x") else int(x)
    return None


def same(jv, vv):
    m = NAMED.match(vv)
    value, name = (m.group(1), m.group(2)) if m else (vv, None)
    if jv is None:
        return as_num(value) is None
    if isinstance(jv, str) and (jv == vv or jv == value or jv == name):
        return True
    a, b = as_num(jv), as_num(value)
    return a is not None and a == b


CRC = re.compile(r" (icrc|vcrc) (ok|BAD \(wire 0x[0-9a-f]+, computed 0x[0-9a-f]+\))")
TOKEN = re.compile(r"\([^)]*\)|\S+")
BTH_FLAGS = ("ackreq", "se", "fecn", "becn")


def v_values(vf, layer, field):
    """-v's value texts of field in every instance of layer."""
    return [x for (l, _, k), x in vf.items() if l == layer and k == field]


def v_has(vf, layer, field):
    """-v prints field (or, for an array, its element 0) in layer."""
    return any(l == layer and k in (field, field + "[0]") for (l, _, k) in vf)


def line_value_ok(value, name, vtext):
    """The line's value (and its name in parentheses, or None) against -v's
    text of the field: the same number, or the name -v gives it."""
    m = NAMED.match(vtext)
    vnum, vname = (m.group(1), m.group(2)) if m else (vtext, None)
    if as_num(value) is not None:
        return as_num(value) == as_num(vnum) and (name is None or name == vname)
    return name is None and (value == vname or value == vtext)


def line_check(line, vf, seen):
    """Mismatches of one line against its frame's -v fields."""
    bad = []
    cut = line.find(" [")
    if cut >= 0 and line.endswith("]"):
        line = line[:cut]
    line = CRC.sub("", line)
    at = line.rfind(": ")
    prefix, rest = (line[:at], line[at + 2:]) if at >= 0 else (line.rstrip(":"), "")
    words = prefix.split()[2:]  # after the time and the carrier
    tag = 0
    while words[:1] == ["vlan"]:
        if len(words) < 5 or words[1] != "id" or words[3] != "pcp":
            bad.append("VLAN tag not 'vlan id ID pcp PCP': %r" % " ".join(words[:5]))
            break
        for f, x in (("id", words[2]), ("pcp", words[4])):
            seen.add(("vlan", f))
            vv = vf.get(("vlan", tag, f))
            if vv is None or not line_value_ok(x, None, vv):
                bad.append("vlan[%d] %s %s, -v %r" % (tag, f, x, vv))
        words = words[5:]
        tag += 1

    t = TOKEN.findall(rest)
    i, cur = 0, None
    if t and v_has(vf, "bth", "name"):
        names = v_values(vf, "bth", "name")
        if t[0].split("(")[0] not in names:
            bad.append("opcode %r, -v bth name %r" % (t[0], names))
        i, cur = 1, "bth"
        for f in BTH_FLAGS:
            if (f in t) != (v_values(vf, "bth", f) == ["1"]):
                bad.append("bth %s: on the line %s, -v %r" % (f, f in t, v_values(vf, "bth", f)))
    ip = "ipv4" if v_has(vf, "ipv4", "ecn") else "ipv6" if v_has(vf, "ipv6", "ecn") else None
    layers = {l for (l, _, _) in vf}
    while i < len(t):
        w = t[i]
        nxt = t[i + 1] if i + 1 < len(t) else None
        after = t[i + 2] if i + 2 < len(t) else None
        if w == "payload":
            if nxt is None or not any(line_value_ok(nxt, None, x) for x in v_values(vf, "payload", "len")):
                bad.append("payload %r, -v payload len %r" % (nxt, v_values(vf, "payload", "len")))
            i += 2
            continue
        if w in layers and not (cur and v_has(vf, cur, w)):
            cur = w
            i += 1
            if cur == "aeth":  # the name of its kind
                if nxt is None or not any(line_value_ok(nxt, None, x) for x in v_values(vf, "aeth", "kind")):
                    bad.append("aeth kind %r, -v %r" % (nxt, v_values(vf, "aeth", "kind")))
                seen.add(("aeth", "kind"))
                i += 1
            continue
        layer = cur if cur and v_has(vf, cur, w) else ip if ip and v_has(vf, ip, w) else None
        if layer is None:
            bad.append("%r is no field of %s (-v) in %r" % (w, cur or "any header", rest))
            i += 1
            continue
        seen.add((layer, w))
        vals = v_values(vf, layer, w)
        if layer == "bth" and w in BTH_FLAGS:
            i += 1  # checked above
            continue
        if not vals:  # an array: the line's comma-separated, -v's w[0], w[1], ...
            want, n = [], 0
            while (layer, 0, "%s[%d]" % (w, n)) in vf:
                want.append(vf[(layer, 0, "%s[%d]" % (w, n))])
                n += 1
            if nxt is None or nxt.split(",") != want:
                bad.append("%s %s %r, -v %r" % (layer, w, nxt, want))
            i += 2
            continue
        name = after[1:-1] if after and after.startswith("(") else None
        if layer == "cnp" and w == "resv":
            ok = nxt == "nonzero" and any(re.search("[1-9a-f]", x) for x in vals)
        else:
            ok = nxt is not None and any(line_value_ok(nxt, name, x) for x in vals)
        if not ok:
            bad.append("%s %s %r%s, -v %r" % (layer, w, nxt, " (%s)" % name if name else "", vals))
        i += 3 if name is not None else 2
    return bad


def check_lines(cap, f, vf):
    """The default line of each frame against -v's fields; mismatch count."""
    r = subprocess.run([cap, "-r", f], capture_output=True, text=True)
    lines = r.stdout.splitlines()
    if len(lines) != len(vf):
        print("FAIL %s: %d lines, -v frames %d" % (f, len(lines), len(vf)))
        return 1, set()
    bad, seen = 0, set()
    for n, line in zip(sorted(vf), lines):
        for msg in line_check(line, vf[n], seen):
            bad += 1
            if bad <= 40:
                print("FAIL %s frame %d line: %s\n  %s" % (f, n, msg, line))
    return bad, seen


def main():
    cap, files = sys.argv[1], sys.argv[2:]
    bad = line_bad = 0
    pairs, line_pairs = set(), set()
    for f in files:
        v = subprocess.run([cap, "-v", "-r", f], capture_output=True, text=True)
        j = subprocess.run([cap, "--json", "-r", f], capture_output=True, text=True)
        vf = verbose_frames(v.stdout)
        jf = {o["frame"]: o for o in map(json.loads, j.stdout.splitlines())}
        if sorted(vf) != sorted(jf) or not vf:
            print("FAIL %s: -v frames %d, --json frames %d" % (f, len(vf), len(jf)))
            bad += 1
            continue
        for n in sorted(vf):
            vv = {k: x for k, x in vf[n].items() if k[0] not in VERBOSE_ONLY_LAYERS}
            jj = json_fields(jf[n])
            for k in sorted(set(vv) | set(jj), key=str):
                pairs.add((k[0], k[2]))
                if k not in jj:
                    msg = "-v prints %s[%d].%s %r, --json has none" % (k[0], k[1], k[2], vv[k])
                elif k not in vv:
                    msg = "--json has %s[%d].%s %r, -v prints none" % (k[0], k[1], k[2], jj[k])
                elif not same(jj[k], vv[k]):
                    msg = "%s[%d].%s: -v %r, --json %r" % (k[0], k[1], k[2], vv[k], jj[k])
                else:
                    continue
                bad += 1
                if bad <= 40:
                    print("FAIL %s frame %d: %s" % (f, n, msg))
        b, seen = check_lines(cap, f, vf)
        line_bad += b
        line_pairs |= seen
    print("%d files, %d (header, field) pairs, %d mismatches" % (len(files), len(pairs), bad))
    print("the line: %d (header, field) pairs, %d mismatches: %s" %
          (len(line_pairs), line_bad, " ".join(sorted("%s.%s" % x for x in line_pairs))))
    return 1 if bad or line_bad else 0


if __name__ == "__main__":
    sys.exit(main())
