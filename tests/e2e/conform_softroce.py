#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Go-back-N conformance of real Soft-RoCE (rxe) traffic: the engine's
verdicts against a second, independent checker written here from the IBA
rules Lumina's gbn_check.py tests, over Wireshark's own decode (tshark).

usage: conform_softroce.py ROCEWIRE_NOTES FILE.pcap...

Per capture, from tshark's fields alone:
  - dup_nak: a second PSN-sequence NAK (AETH 0x60) naming the same PSN before
    any request with that PSN was sent again;
  - resend_wrong_start: after such a NAK for PSN p, the first request that
    goes back (a PSN sent before, not following the previous request) or is
    p itself, is below p, or is above p on a flow that never skipped a PSN
    (where the network drops before the capture point, a skipped PSN shows
    it, the resend of p may be dropped there too);
  - nak_wrong_psn: a sequence NAK naming a PSN at or below the last ACKed
    PSN, or beyond every PSN sent;
  - ack_backwards / msn_backwards: an ACK (AETH 0x00-0x1f) whose PSN or MSN
    is below the previous ACK's (an ACK of a resent duplicate excepted);
  - CE marks with no CNP at all in the capture.
The engine must report the same counts and the same first frames. In
rc_write_loss one resend after a NAK for 795 is first seen at 796: netem
drops before the capture point there (14 drops, 11 first copies missing, so
3 resends lost), 797 of the same run is missing too and 795 comes again
later; neither checker may call that rxe's fault.
"""
import json
import subprocess
import sys

REQ = set(range(0x00, 0x0d)) | {0x13, 0x14}


def tshark(path):
    out = subprocess.run(['tshark', '-n', '-r', path, '-T', 'fields', '-e', 'frame.number',
                          '-e', 'ip.src', '-e', 'ip.dst', '-e', 'infiniband.bth.destqp',
                          '-e', 'infiniband.bth.opcode', '-e', 'infiniband.bth.psn',
                          '-e', 'infiniband.aeth.syndrome', '-e', 'infiniband.aeth.msn',
                          '-e', 'ip.dsfield.ecn'],
                         check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split('\t')
        if len(f) < 6 or not f[4]:
            continue
        rows.append(dict(frame=int(f[0]), src=f[1], dst=f[2], qp=f[3], op=int(f[4]), psn=int(f[5]),
                         syn=int(f[6], 0) if f[6] else None, msn=int(f[7]) if f[7] else None,
                         ecn=int(f[8]) if len(f) > 8 and f[8] else 0))
    return rows


def by_connection(rows):
    """Splits the rows by connection: requests by (src, dst, QP); a response
    goes with the request flow of the reverse addresses that sent the PSN it
    names (or, for a NAK of a PSN lost before the capture, whose PSN range
    holds it)."""
    conns, sent = {}, {}
    for r in rows:
        if r['op'] in REQ:
            key = (r['src'], r['dst'], r['qp'])
            sent.setdefault(key, set()).add(r['psn'])
            conns.setdefault(key, []).append(r)
        else:
            cands = [k for k in sent if k[0] == r['dst'] and k[1] == r['src'] and r['psn'] in sent[k]]
            if not cands:
                cands = [k for k in sent if k[0] == r['dst'] and k[1] == r['src'] and
                         min(sent[k]) <= r['psn'] <= max(sent[k]) + 1]
            if len(cands) == 1:
                conns[cands[0]].append(r)
            elif r['op'] == 0x81:
                conns.setdefault(('cnp',), []).append(r)
    return conns.values()


def expect(rows):
    v = {k: [] for k in ('dup_nak', 'resend_wrong_start', 'nak_wrong_psn', 'ack_backwards',
                         'msn_backwards')}
    max_sent = None
    prev_req = None
    nak_psn = None   # waiting for the resend of this PSN
    skipped = False  # a PSN was skipped: the network drops before the capture point
    last_ack = last_msn = None
    resend_pending = set()
    ce = cnp = 0
    for r in rows:
        op = r['op']
        if op in REQ:
            psn = r['psn']
            if r['ecn'] == 3:
                ce += 1
            back = max_sent is not None and psn <= max_sent
            if max_sent is not None and psn > max_sent + 1:
                skipped = True
            if nak_psn is not None and (psn == nak_psn or (back and psn != (prev_req + 1))):
                if psn < nak_psn or (psn > nak_psn and not skipped):
                    v['resend_wrong_start'].append(r['frame'])
                nak_psn = None
            if back:
                resend_pending.add(psn)
            if max_sent is None or psn > max_sent:
                max_sent = psn
            prev_req = psn
        elif op == 0x81:
            cnp += 1
        elif op == 0x11 and r['syn'] is not None:
            syn, psn = r['syn'], r['psn']
            if syn >> 5 == 0:          # ACK
                if last_ack is not None and psn < last_ack and psn not in resend_pending:
                    v['ack_backwards'].append(r['frame'])
                else:
                    last_ack = psn
                if last_msn is not None and r['msn'] < last_msn:
                    v['msn_backwards'].append(r['frame'])
                last_msn = r['msn']
            elif syn == 0x60:          # PSN sequence error
                if nak_psn == psn:
                    v['dup_nak'].append(r['frame'])
                    continue
                if (last_ack is not None and psn <= last_ack) or (max_sent is not None and psn > max_sent + 1):
                    v['nak_wrong_psn'].append(r['frame'])
                nak_psn = psn
            if r['msn'] is not None and syn >> 5 != 0:
                if last_msn is not None and r['msn'] < last_msn:
                    v['msn_backwards'].append(r['frame'])
                last_msn = r['msn']
    return v, ce, cnp


def engine(tool, path):
    out = subprocess.run([tool, path], check=True, capture_output=True, text=True).stdout
    conf = {}
    for line in out.splitlines():
        o = json.loads(line)
        if 'conform' in o:
            for k, n in o['conform'].items():
                if isinstance(n, int) and k != 'index':
                    conf[k] = conf.get(k, 0) + n
            for k, fr in o['conform']['first_frames'].items():
                conf.setdefault('first_' + k, fr[0])
    return conf


def main():
    tool, files = sys.argv[1], sys.argv[2:]
    failed = checks = 0
    for path in files:
        name = path.rsplit('/', 1)[-1]
        want, ce, cnp = {}, 0, 0
        for rows in by_connection(tshark(path)):
            w, c1, c2 = expect(rows)
            ce, cnp = ce + c1, cnp + c2
            for k, fr in w.items():
                want[k] = sorted(want.get(k, []) + fr)
        got = engine(tool, path)
        for k, frames in want.items():
            checks += 1
            ok = got.get(k, 0) == len(frames) and (not frames or got.get('first_' + k) == frames[0])
            if not ok:
                failed += 1
                print(f'FAIL {name} {k}: engine {got.get(k, 0)} (first frame {got.get("first_" + k)}), '
                      f'tshark-side checker {len(frames)} {frames[:4]}')
            elif frames:
                print(f'ok   {name} {k}: {len(frames)} at frames {frames[:4]} (rxe is not conformant here)')
        if ce and not cnp:
            checks += 1
            if got.get('ce_without_cnp', 0) < 1:
                failed += 1
                print(f'FAIL {name}: {ce} CE marks and no CNP in the capture, engine reports no CE mark left unanswered')
            else:
                print(f'ok   {name}: {ce} CE marks, no CNP (rxe in Linux 6.1 sends none): '
                      f'{got["ce_without_cnp"]} eligible CE marks reported unanswered')
    print(f'{checks - failed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
