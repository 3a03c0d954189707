# SPDX-License-Identifier: BSD-3-Clause
"""The two known-answer RoCEv2 frames of Scapy's RoCE test suite
(test/contrib/roce.uts), as recorded in shared/notes/icrc.md: whole Ethernet
frames whose last 4 bytes are a correct ICRC. Independent of rocewire's own
encoder, so tests build on them rather than on frames rocewire made."""
import binascii

# A ConnectX-4 Lx CNP (74 bytes).
CNP = binascii.unhexlify(
    "e41d2dab2bc27cfe90643b32080045c2003c718c400040119161"
    "0a0011010a001201000012b700280000"
    "8100ffff4000011800000000"
    "00000000000000000000000000000000"
    "82fd002a")

# A UC SEND_ONLY (78 bytes).
SEND = binascii.unhexlify(
    "248a07a8fa22248a07a8fa220800"
    "45010040047840004011b4d5c0a80007c0a80007"
    "c00012b7002caca2"
    "2460ffff000000d300cf1710"
    "4630818be28935d90e9a95505401be885e500000"
    "78f353f3")

assert len(CNP) == 74 and len(SEND) == 78
