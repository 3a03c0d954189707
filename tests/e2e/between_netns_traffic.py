#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""RoCEv2 RC traffic for test_between_netns.sh, built by Scapy (its RoCE
layer computes the ICRC over IPv4) and sent from both ends of a routed path:
requests of several QPs from the sender's namespace, ACKs back from the
receiver's, interleaved in one order by one process (a packet socket opened
inside each namespace). It writes what it sent, packet by packet, as JSON:
the truth the checker starts from.

usage: between_netns_traffic.py TRUTH.json NS_A IF_A MAC_A IP_A GW_MAC_A NS_B IF_B MAC_B IP_B GW_MAC_B
Standard library and Scapy only. Exit 77 when Scapy is missing."""
import ctypes
import json
import os
import socket
import struct
import sys
import time

try:
    from scapy.all import Ether, IP, UDP, Raw, raw
    from scapy.contrib.roce import BTH, AETH
except ImportError as e:  # pragma: no cover
    print("SKIP: scapy is missing (%s): apt-get install python3-scapy" % e)
    sys.exit(77)

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)

(truth_path, ns_a, if_a, mac_a, ip_a, gw_a, ns_b, if_b, mac_b, ip_b, gw_b) = sys.argv[1:12]


def in_netns(ns, make):
    """make() run with this thread in network namespace NS: a socket keeps
    the namespace it was created in."""
    own = os.open("/proc/self/ns/net", os.O_RDONLY)
    fd = os.open("/run/netns/" + ns, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            sys.exit("cannot enter network namespace %s: %s" % (ns, os.strerror(ctypes.get_errno())))
        return make()
    finally:
        libc.setns(own, CLONE_NEWNET)
        os.close(fd)
        os.close(own)


def packet_socket(ifname):
    # protocol 0: sends only, receives nothing
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
    s.bind((ifname, 0))
    return s


def sink():
    # a socket on the RoCEv2 port, so that the kernel answers no datagram
    # with an ICMP port unreachable (noise in both taps)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", 4791))
    return s


tx_a = in_netns(ns_a, lambda: packet_socket(if_a))
tx_b = in_netns(ns_b, lambda: packet_socket(if_b))
sinks = [in_netns(ns_a, sink), in_netns(ns_b, sink)]


def payload(n, seed):
    x = seed & 0xffffffff
    out = bytearray()
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0xffffffff
        out.append(x >> 24)
    return bytes(out)


# Per connection: the requester's QP (on A's side), the responder's (on B's
# side), the first PSN (one near the 24-bit wrap), the requests' TOS (DSCP
# 26, ECT(0) but one connection Not-ECT) and the ACKs' TOS.
CONNS = [
    dict(qa=0x000111, qb=0x000a21, psn=0, tos=0x6a, ack_tos=0x6a),
    dict(qa=0x000112, qb=0x000a22, psn=0xffffe0, tos=0x6a, ack_tos=0xc0),
    dict(qa=0x000113, qb=0x000a23, psn=0x4242, tos=0x68, ack_tos=0x6a),
    dict(qa=0x012345, qb=0xabcdef, psn=0x7ffff0, tos=0x6a, ack_tos=0x6a),
]
# Messages, as the opcodes of their packets (IBA 9.2: RC SEND and RDMA
# WRITE, first/middle/last/only, with RETH or immediate where they carry one)
MESSAGES = [
    [0x04],                      # SEND_ONLY
    [0x00, 0x01, 0x01, 0x02],    # SEND_FIRST, MIDDLE, MIDDLE, LAST
    [0x0a],                      # RDMA_WRITE_ONLY (RETH)
    [0x06, 0x07, 0x08],          # RDMA_WRITE_FIRST (RETH), MIDDLE, LAST
    [0x05],                      # SEND_ONLY_WITH_IMMEDIATE
    [0x00, 0x03],                # SEND_FIRST, SEND_LAST_WITH_IMMEDIATE
]
ROUNDS = 4
MTU_PAYLOAD = 256

ip_id = [0, 0]


def frame(side, tos, sport, opcode, dqpn, psn, body, ackreq):
    src_mac, gw, src, dst = (mac_a, gw_a, ip_a, ip_b) if side == 0 else (mac_b, gw_b, ip_b, ip_a)
    ip_id[side] += 1
    padcnt = (4 - len(body) % 4) % 4
    pkt = Ether(src=src_mac, dst=gw) / \
        IP(src=src, dst=dst, tos=tos, ttl=64, id=ip_id[side], flags="DF") / \
        UDP(sport=sport, dport=4791, chksum=0) / \
        BTH(opcode=opcode, solicited=0, migreq=1, padcount=padcnt, pkey=0xffff, dqpn=dqpn,
            ackreq=ackreq, psn=psn) / Raw(body + b"\0" * padcnt)
    return raw(pkt)


def request_body(opcode, length, seed, va):
    data = payload(length, seed)
    if opcode in (0x06, 0x0a):  # RETH: VA, R_Key, DMA length
        return struct.pack("!QII", va, 0x1234abcd, length) + data
    if opcode in (0x03, 0x05):  # ImmDt
        return struct.pack("!I", 0xc0ffee00 | (seed & 0xff)) + data
    return data


sent = []
seq = 0
psn = [c["psn"] for c in CONNS]
msn = [0] * len(CONNS)
for r in range(ROUNDS):
    for m, opcodes in enumerate(MESSAGES):
        for ci, c in enumerate(CONNS):
            sport = 0xc000 + ci
            for j, op in enumerate(opcodes):
                last = j == len(opcodes) - 1
                # middle and first packets are full; the last is short and
                # needs padding on some rounds
                length = MTU_PAYLOAD if not last or len(opcodes) == 1 and r % 2 == 0 else 100 + r + m
                seq += 1
                body = request_body(op, length, seq, 0x7f0000000000 + 0x10000 * seq)
                sent.append(dict(side=0, tos=c["tos"], frame=frame(0, c["tos"], sport, op, c["qb"], psn[ci],
                                                                      body, 1 if last else 0),
                                 dqpn=c["qb"], psn=psn[ci], opcode=op))
                last_psn = psn[ci]
                psn[ci] = (psn[ci] + 1) & 0xffffff
            # the responder's ACK of the message (AETH syndrome 0x1f: ACK,
            # credits invalid), to the requester's QP, with the last PSN
            msn[ci] += 1
            body = raw(AETH(syndrome=0x1f, msn=msn[ci]))
            sent.append(dict(side=1, tos=c["ack_tos"], frame=frame(1, c["ack_tos"], 0xd000 + ci, 0x11, c["qa"],
                                                                   last_psn, body, 0),
                             dqpn=c["qa"], psn=last_psn, opcode=0x11))

# send, paced: the veths' backlog and the taps' buffers never fill
for p in sent:
    (tx_a if p["side"] == 0 else tx_b).send(p["frame"])
    time.sleep(0.0005)
time.sleep(0.2)

with open(truth_path, "w") as f:
    json.dump(dict(ip_a=ip_a, ip_b=ip_b, packets=[
        dict(dir="a_to_b" if p["side"] == 0 else "b_to_a", src=ip_a if p["side"] == 0 else ip_b,
             dst=ip_b if p["side"] == 0 else ip_a, dqpn=p["dqpn"], psn=p["psn"], opcode=p["opcode"],
             tos=p["tos"], frame=p["frame"].hex()) for p in sent]), f, indent=1)
print("sent %d requests and %d ACKs" % (sum(1 for p in sent if p["side"] == 0),
                                         sum(1 for p in sent if p["side"] == 1)))
