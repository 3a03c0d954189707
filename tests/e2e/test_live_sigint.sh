#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# SIGINT in the middle of a stream of RoCE traffic leaves a complete file,
# pcap and pcapng: it is under its final name (no FILE.XXXXXX.part), tshark reads it
# to the end with no error, Scapy finds as many frames as rocewire-cap says
# it wrote, every one of them a frame that was sent, and rocewire-cap -r
# decodes them all (exit 0: every ICRC correct, nothing cut). A capture with
# --report prints its report after the signal.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/live_common.sh"
need_tools
ns_setup

"$MKCAP" --mix 2000 -o mix.pcap >/dev/null || { echo "FAIL: rocewire-mkcap"; exit 1; }
# A stream that outlasts the captures: 2000 frames at 5000/s, looped.
# (ip netns exec execs tcpreplay: $! is its pid, killed by cleanup)
ip netns exec "$NS_A" tcpreplay -q --pps 5000 --loop 0 -i vA mix.pcap >/dev/null 2>&1 &
BG_PIDS="$BG_PIDS $!"

for fmt in pcap pcapng; do
	f=sig.$fmt
	start_cap "e_$f" "o_$f" -i vB -w "$f" -q || continue
	sleep 1.5
	kill -INT "$CAP_PID"
	wait_cap 5
	[ "$CAP_RC" = 0 ] || fail "$fmt: status $CAP_RC after SIGINT: $(tail -n 2 "e_$f")"
	ls "$f".*.part >/dev/null 2>&1 && fail "$(ls "$f".*.part) was left behind"
	wrote=$(sed -n "s/^rocewire-cap: wrote \([0-9]*\) packets to $f\$/\1/p" "e_$f")
	if [ -z "$wrote" ] || [ "$wrote" -lt 1000 ]; then
		fail "$fmt: expected a 'wrote N packets' line with N >= 1000: $(cat "e_$f")"
		continue
	fi
	tshark_ok "$f" || continue
	n=$(frames "$f")
	[ "$n" = "$wrote" ] || fail "$f: Scapy reads $n frames, rocewire-cap wrote $wrote"
	# every frame is one of the frames sent
	"$PY" - "$f" mix.pcap <<'EOF' || fail "$f holds frames that were not sent"
import sys
from scapy.utils import RawPcapReader, RawPcapNgReader
def frames(p):
    with open(p, "rb") as fh:
        magic = fh.read(4)
    R = RawPcapNgReader if magic == b"\x0a\x0d\x0d\x0a" else RawPcapReader
    return [bytes(d) for d, _ in R(p)]
sent = set(frames(sys.argv[2]))
got = frames(sys.argv[1])
bad = [i + 1 for i, d in enumerate(got) if d not in sent]
if bad:
    sys.exit("frames not sent: %s" % bad[:10])
EOF
	"$CAP" -q -r "$f" 2>"e_read_$f"
	rc=$?
	if [ $rc = 0 ] && grep -q "^rocewire-cap: $wrote packets read from 1 file" "e_read_$f"; then
		ok "$fmt: SIGINT left a complete file of $wrote packets"
	else
		fail "rocewire-cap -r $f: status $rc: $(head -n 3 "e_read_$f")"
	fi
done

# --report after SIGINT: the table comes out on standard output.
start_cap e_rep o_rep -i vB --report || exit 1
sleep 1
kill -INT "$CAP_PID"
wait_cap 5
if [ "$CAP_RC" = 0 ] && [ -s o_rep ] && grep -q "packets" o_rep; then
	ok "--report printed the report after SIGINT ($(wc -l <o_rep) lines)"
else
	fail "--report after SIGINT: status $CAP_RC, output: $(head -n 3 o_rep)"
fi

exit $FAILED
