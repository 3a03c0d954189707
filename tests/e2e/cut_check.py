#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Captures cut at their start or end must not change what the analysis
engine says about the packets both files hold.

usage: cut_check.py ROCEWIRE_NOTES FILE.pcap...

For each capture, the whole file and copies of it cut at every record
boundary in its first 20 records (and at 5 more points, the same every run)
are run through rocewire-notes, which prints the engine's verdict on every
packet and its flows. For a cut at record k, packet j of the cut is packet
j+k of the whole file, and:
  (a) a response whose request is still in the cut pairs its flow, with the
      flow the whole file pairs it with; no pair the whole file lacks;
  (b) retransmission, go-back-N start, NAK kind and ACK/READ/atomic latency
      are the whole file's, except for packets the cut engine marks
      "unsynced" (it cannot know whether they resend pre-capture packets)
      and for resends the window shows as new by README-report's
      definition (a go-back-N run the cut starts inside, past the highest
      PSN the window saw, whose earlier copies lie before the cut);
  (c) no packet is out of order in the cut that the whole file calls a
      retransmission;
  (d) one flow of the cut is one flow of the whole file (no merging).
Cuts at the end (inside a multi-packet message): the packets' verdicts are
the whole file's, the last message is cut by the capture end, and no other
message becomes incomplete.
The truth is the whole file's verdict, and the whole file's verdicts on the
real Soft-RoCE captures are checked against tshark and the endpoints' own
records by test_report_softroce.sh.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import pcaprec  # noqa: E402 (tests/pcaprec.py)

MULTI_FIRST = {0x00, 0x06, 0x0d, 0x20, 0x26, 0x01, 0x07, 0x0e, 0x21, 0x27}  # FIRST/MIDDLE of SEND/WRITE/READ resp (RC, UC)


def read_pcap(path):
    head, _, recs = pcaprec.split(path)
    if head is None:
        raise SystemExit(f'{path}: not a pcap file (pcapng is not cut by this test)')
    return head, recs


def notes(tool, path):
    out = subprocess.run([tool, path], check=True, capture_output=True, text=True).stdout
    pkts, flows = [], []
    for line in out.splitlines():
        o = json.loads(line)
        if 'conform' in o:
            continue
        (flows.append(o['flow']) if 'flow' in o and isinstance(o['flow'], dict) else pkts.append(o))
    return pkts, flows


def psn_diff(a, b):
    return ((a - b + (1 << 23)) & 0xffffff) - (1 << 23)


def before_window(wp, k, cp, j):
    """README-report "retransmission" is what the window shows: a resend
    above the highest PSN the window saw on its flow, that no sequence NAK
    in the window asked for, counts as new (a go-back-N run the cut started
    inside, past what the window saw). True when packet j of the cut is
    such a resend: the whole file's evidence (its earlier copy, or a higher
    PSN it fills a hole below) lies before the cut, and the window has
    neither a copy at or above its PSN on its flow nor a NAK of it."""
    c, w = cp[j], wp[j + k]
    if c['flow'] < 0 or w['flow'] < 0:
        return False
    if not any(x['flow'] == w['flow'] and 'ack' not in x['flags'] and 'nak' not in x['flags']
               and psn_diff(x['psn'], w['psn']) >= 0 for x in wp[:k]):
        return False
    for x in cp[:j]:
        if x['flow'] == c['flow'] and psn_diff(x['psn'], c['psn']) >= 0:
            return False
        if 'nak' in x['flags'] and x['ack_psn'] == c['psn']:
            return False
    return True


def check_start_cut(name, k, whole, cut, errors, stats):
    wp, wf = whole
    cp, cf = cut
    wflow_of = {}
    # (d) one cut flow is one whole flow
    for j, c in enumerate(cp):
        w = wp[j + k]
        if c['flow'] < 0 or w['flow'] < 0:
            continue
        prev = wflow_of.setdefault(c['flow'], w['flow'])
        if prev != w['flow']:
            errors.append(f'{name} cut {k}: frame {j + 1}: cut flow {c["flow"]} holds whole flows {prev} and {w["flow"]}')
    # (a) pairs: a subset of the whole file's, and present where a request and its response survive
    for c in cf:
        if c['peer'] >= 0 and c['index'] in wflow_of and c['peer'] in wflow_of:
            wi, wpeer = wflow_of[c['index']], wflow_of[c['peer']]
            if wf[wi]['peer'] != wpeer:
                errors.append(f'{name} cut {k}: cut pairs {c["key"]} with {c["peer_key"]}; the whole file does not')
    for j, c in enumerate(cp):
        w = wp[j + k]
        wfl = set(w['flags'])
        if wfl & {'ack', 'read_match', 'atomic_match'} and w['req_frame'] > k and c['flow'] >= 0:
            stats['pair_checks'] += 1
            cflow = cf[c['flow']]
            if cflow['peer'] < 0:
                errors.append(f'{name} cut {k}: frame {j + 1} answers frame {w["req_frame"] - k} of the cut, but its flow {cflow["key"]} is not paired')
    # (b), (c) per packet
    for j, c in enumerate(cp):
        w = wp[j + k]
        cfl, wfl = set(c['flags']), set(w['flags'])
        if 'ooo' in cfl and 'retrans' in wfl:
            errors.append(f'{name} cut {k}: frame {j + 1} (whole {j + k + 1}) out of order in the cut, a retransmission in the whole file')
        if 'unsynced' in cfl or 'unsynced' in wfl:
            stats['unsynced'] += 1
            continue
        stats['compared'] += 1
        if 'retrans' in wfl and 'new' in cfl and 'retrans' not in cfl and before_window(wp, k, cp, j):
            # README-report "retransmission": the window shows nothing of it
            stats['window_new'] += 1
            continue
        for fl in ('retrans', 'gbn_start', 'nak', 'ack'):
            if (fl in cfl) != (fl in wfl):
                errors.append(f'{name} cut {k}: frame {j + 1} (whole {j + k + 1}): "{fl}" {"only in the cut" if fl in cfl else "only in the whole file"}')
        if 'nak' in wfl and 'nak' in cfl and c['nak'] != w['nak']:
            errors.append(f'{name} cut {k}: frame {j + 1}: NAK kind {c["nak"]} vs {w["nak"]}')
        if c['lat'] and c['lat'] != w['lat']:
            errors.append(f'{name} cut {k}: frame {j + 1}: latency {c["lat"]} vs {w["lat"]} in the whole file')
        if w['lat'] and w['req_frame'] > k and not c['lat']:
            errors.append(f'{name} cut {k}: frame {j + 1}: no latency, the whole file has {w["lat"]} from frame {w["req_frame"]} (in the cut)')


def check_end_cut(name, m, whole, cut, errors, stats):
    wp, wf = whole
    cp, cf = cut
    for j, c in enumerate(cp):
        if c != wp[j]:
            errors.append(f'{name} end cut {m}: frame {j + 1} differs from the whole file')
            break
    stats['end_cuts'] += 1
    last = cp[-1]
    fl = cf[last['flow']] if last['flow'] >= 0 else None
    # a packet of a message the capture started inside (cut_start: a
    # resend of one begun before it, too) is counted cut by the start,
    # once (README-report "cut by capture start" comes first)
    if fl and last['op'] in MULTI_FIRST and 'new' in last['flags'] and 'msg_done' not in last['flags'] and \
            'cut_start' not in last['flags'] and fl['msg_cut_end'] < 1:
        errors.append(f'{name} end cut {m}: the last message ({fl["key"]}) is not reported as cut by the capture end')
    broken = sum(1 for c in cp if 'msg_broken' in c['flags'])
    inc = sum(f['msg_incomplete'] for f in cf)
    if inc > broken:
        errors.append(f'{name} end cut {m}: {inc - broken} message(s) incomplete at the end besides the one the cut made')


def main():
    tool, files = sys.argv[1], sys.argv[2:]
    errors, tmp = [], tempfile.mkdtemp(prefix='rw-cut.')
    stats = dict(files=0, cuts=0, compared=0, unsynced=0, window_new=0, pair_checks=0, end_cuts=0)
    for path in files:
        name = os.path.basename(path)
        head, recs = read_pcap(path)
        whole = notes(tool, path)
        n = len(recs)
        rnd = random.Random(name)
        starts = list(range(1, min(21, n)))
        if n > 22:
            starts += sorted(rnd.sample(range(21, n - 1), min(5, n - 22)))
        for k in starts:
            cp = os.path.join(tmp, f'{name}.from{k}.pcap')
            with open(cp, 'wb') as f:
                f.write(head + b''.join(recs[k:]))
            check_start_cut(name, k, whole, notes(tool, cp), errors, stats)
            stats['cuts'] += 1
        ends = [m for m in range(2, n) if whole[0][m - 1]['op'] in MULTI_FIRST][-6:]
        for m in ends:
            cp = os.path.join(tmp, f'{name}.to{m}.pcap')
            with open(cp, 'wb') as f:
                f.write(head + b''.join(recs[:m]))
            check_end_cut(name, m, whole, notes(tool, cp), errors, stats)
        stats['files'] += 1
    for e in errors[:60]:
        print('FAIL', e)
    print('cut_check: {files} captures, {cuts} start cuts ({compared} packets compared, {unsynced} unsynced, {window_new} resends the window shows as new), '
          '{pair_checks} pairing checks, {end_cuts} end cuts'.format(**stats))
    print(f'{0 if errors else 1} passed, {1 if errors else 0} failed ({len(errors)} mismatches)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
