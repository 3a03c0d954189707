#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""-v and --json print the same headers, fields and values (issue 24).

For each capture given, runs `rocewire-cap -v` and `rocewire-cap --json` and
checks, frame by frame, that every (header, field) -v prints is in the JSON
object with the same header name, field name and value, and the other way
round. Values compare as numbers when both read as numbers (-v's "0x..." hex,
JSON's integers, booleans and "0x..." strings); a JSON string matches -v's
value or the value's name -v prints in parentheses; JSON null matches a -v
word that is not a number ("invalid"). Repeated headers (vlan, ipv6_ext) are
matched in order; a JSON array of numbers (pfc.quanta) is -v's quanta[i].

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


def main():
    cap, files = sys.argv[1], sys.argv[2:]
    bad = 0
    pairs = set()
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
    print("%d files, %d (header, field) pairs, %d mismatches" % (len(files), len(pairs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
