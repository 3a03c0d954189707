# SPDX-License-Identifier: BSD-3-Clause
"""Classic pcap files split into their records, for the test scripts that
cut, copy or reseed captures (standard library only; pcapng is not split)."""
import struct

MAGICS = {b"\xd4\xc3\xb2\xa1": "<", b"\x4d\x3c\xb2\xa1": "<",   # us, ns; little-endian
          b"\xa1\xb2\xc3\xd4": ">", b"\xa1\xb2\x3c\x4d": ">"}


def split(path):
    """(file header, link type, [records, each its 16-byte header and its
    captured bytes]); (None, None, []) when the file is not classic pcap."""
    with open(path, "rb") as f:
        data = f.read()
    e = MAGICS.get(data[:4]) if len(data) >= 24 else None
    if e is None:
        return None, None, []
    linktype = struct.unpack(e + "I", data[20:24])[0] & 0x0fffffff
    recs, off = [], 24
    while off + 16 <= len(data):
        incl = struct.unpack(e + "I", data[off + 8:off + 12])[0]
        recs.append(data[off:off + 16 + incl])
        off += 16 + incl
    return data[:24], linktype, recs
