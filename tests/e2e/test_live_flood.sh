#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Live capture under a flood (issue 13): dpdk-testpmd (txonly, net_af_packet)
# floods 128-byte UDP 4791 frames into a veth pair made in two namespaces.
#  1. tcpdump -B 32768 takes the flood: the rate it can take without loss
#     on this machine in this run (when it loses packets too, the
#     comparison is void and the test says so and skips);
#  2. rocewire-cap -w under the same flood loses nothing either (the
#     kernel's drop count on its final line is 0), and its file holds every
#     packet its summary says it wrote (read here by Python's struct);
#  3. SIGINT in the middle of a flood: the file is whole (every record
#     complete) and holds what the summary says;
#  4. a decoder slower than the flood (a test hook makes each decode take
#     3 us, a third of the flood's rate): without -w -q's shedding the
#     kernel drops packets (the control); with it nothing is lost (in one
#     of two runs: a loaded host may hold the capture off the CPU), the file
#     holds every packet, and the summary says how many were not decoded
#     (decoded + not decoded = written).
# Env: ROCEWIRE_CAP. Root.
set -u
cap=${ROCEWIRE_CAP:-}
[ -n "$cap" ] && [ -x "$cap" ] || { echo "FAIL: set ROCEWIRE_CAP (got '$cap')"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, packet sockets)"
for t in dpdk-testpmd tcpdump ip; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
py=/usr/bin/python3
[ -x "$py" ] || skip "$py is missing"
. "$(dirname "$0")/live_common.sh"
ns_setup # $NS_A (vA) and $NS_B (vB), $WORK, removed at exit
na=$NS_A
nb=$NS_B
work=$WORK
fails=0

# flood SECONDS: testpmd's TX count
flood() {
	sleep $(($1 + 2)) | ip netns exec "$na" timeout -s INT "$1" dpdk-testpmd -l 0-1 --no-huge -m 1024 \
		--no-pci --no-shconf --file-prefix "$na" --log-level='*:error' \
		--vdev=net_af_packet0,iface=vA,qdisc_bypass=1 -- --forward-mode=txonly --auto-start \
		--total-num-mbufs=16384 --mbuf-size=2176 --txpkts=128 --tx-udp=4791,4791 --burst=32 \
		>"$work/testpmd.out" 2>&1
	tr '\r' '\n' <"$work/testpmd.out" | sed -n 's/.*TX-packets: *\([0-9]*\).*/\1/p' | tail -n 1
}

# records FILE: complete records in a classic pcap file, or "bad"
records() {
	"$py" - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
e = "<" if d[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">" if d[:4] in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d") else None
if e is None or len(d) < 24:
    print("bad"); sys.exit()
off, n = 24, 0
while off < len(d):
    if off + 16 > len(d):
        print("bad"); sys.exit()
    incl = struct.unpack(e + "I", d[off + 8:off + 12])[0]
    if off + 16 + incl > len(d):
        print("bad"); sys.exit()
    off += 16 + incl
    n += 1
print(n)
PY
}

# during_flood NAME CMD...: CMD in the capture namespace (its standard
# error in $work/NAME.err) for a 3 s flood, then SIGINT; sets sent.
during_flood() {
	n=$1
	shift
	ip netns exec "$nb" "$@" 2>"$work/$n.err" &
	cp_pid=$!
	sleep 1
	sent=$(flood 3)
	sleep 1
	kill -INT "$cp_pid"
	wait "$cp_pid"
}

# 1. tcpdump
during_flood t tcpdump -i vB -B 32768 -s 16000 -w "$work/t.pcap" 'udp port 4791'
t_lost=$(sed -n 's/^\([0-9]*\) packets dropped by kernel$/\1/p' "$work/t.err")
[ -n "$sent" ] && [ "$sent" -gt 100000 ] || skip "dpdk-testpmd sent ${sent:-nothing} (no flood here)"
[ "${t_lost:-1}" = 0 ] || skip "tcpdump itself lost ${t_lost:-?} of $sent packets at this rate here: no rate to compare at"
echo "tcpdump: $sent sent, none lost"

# cap_flood NAME [ENV=VALUE...]: rocewire-cap -w $work/NAME.pcap -q (with
# those variables) under a 3 s flood; sets sent, lost, wrote, undec (packets
# written undecoded) and dec (decoded) from its summary.
cap_flood() {
	n=$1
	shift
	during_flood "$n" env "$@" "$cap" -i vB -w "$work/$n.pcap" -q
	lost=$(sed -n 's/^rocewire-cap: vB: [0-9]* packets received by filter, \([0-9]*\) dropped by kernel.*/\1/p' "$work/$n.err")
	wrote=$(sed -n 's/^rocewire-cap: wrote \([0-9]*\) packets to .*/\1/p' "$work/$n.err")
	undec=$(sed -n 's/^  not decoded: \([0-9]*\) packets.*/\1/p' "$work/$n.err")
	dec=$(sed -n 's/^  carriers: rocev2 \([0-9]*\)$/\1/p' "$work/$n.err")
}

# 2. rocewire-cap, the same flood
cap_flood r
got=$(records "$work/r.pcap")
if [ "${lost:-x}" != 0 ] || [ -z "$wrote" ] || [ "$got" != "$wrote" ] || [ "$wrote" -lt "$sent" ]; then
	echo "FAIL: rocewire-cap under the flood tcpdump took: $sent sent, ${lost:-?} lost, wrote ${wrote:-?}, file holds $got"
	sed 's/^/    /' "$work/r.err" | tail -5
	fails=$((fails + 1))
else
	echo "ok: rocewire-cap: $sent sent, none lost, $wrote written and in the file"
fi

# 3. SIGINT in the middle of a flood
ip netns exec "$nb" "$cap" -i vB -w "$work/s.pcap" -q 2>"$work/s.err" &
sp=$!
sleep 1
rm -f "$work/testpmd.out"
flood 4 >/dev/null &
fp=$!
# testpmd's start (EAL, a gigabyte of memory without hugepages) takes
# seconds on a busy host: the signal comes a second into the flood itself
for _ in $(seq 100); do
	grep -q 'Press enter to exit' "$work/testpmd.out" 2>/dev/null && break
	sleep 0.1
done
sleep 1
kill -INT "$sp"
wait "$sp"
wait "$fp"
wrote=$(sed -n 's/^rocewire-cap: wrote \([0-9]*\) packets to .*/\1/p' "$work/s.err")
got=$(records "$work/s.pcap")
if [ -z "$wrote" ] || [ "$got" != "$wrote" ] || [ "$wrote" -lt 1000 ] || ls "$work"/s.pcap.* >/dev/null 2>&1; then
	echo "FAIL: SIGINT mid-flood: summary says ${wrote:-?} written, the file holds $got"
	fails=$((fails + 1))
else
	echo "ok: SIGINT mid-flood: $wrote packets, the file whole and holding them all"
fi
# 4. a decoder slower than the link
cap_flood d ROCEWIRE_CAP_TEST_SLOW_DECODE_NS=3000 ROCEWIRE_CAP_NO_SHED=1
if [ "${lost:-0}" = 0 ]; then
	echo "note: with a 3 us decode and no shedding nothing was lost here ($sent sent): the control shows nothing"
else
	echo "control: a 3 us decode without shedding loses $lost of $sent"
fi
cap_flood d ROCEWIRE_CAP_TEST_SLOW_DECODE_NS=3000
if [ "${lost:-x}" != 0 ] && [ "${lost:-x}" != x ]; then
	# Shedding leaves three quarters of the ring for the writer's own
	# stalls; a machine that holds the capture off the CPU longer than
	# that (a loaded CI host) loses a few packets once, where no shedding
	# loses a third every time: one more run tells the two apart.
	echo "note: slow decoder with shedding lost $lost of $sent on the first run: running it again"
	cap_flood d ROCEWIRE_CAP_TEST_SLOW_DECODE_NS=3000
fi
got=$(records "$work/d.pcap")
if [ "${lost:-x}" != 0 ] || [ -z "$wrote" ] || [ "$got" != "$wrote" ] || [ "$wrote" -lt "$sent" ] ||
	[ "${undec:-0}" -le 0 ] || [ $((${dec:-0} + ${undec:-0})) != "$wrote" ]; then
	echo "FAIL: slow decoder with shedding: $sent sent, ${lost:-?} lost, wrote ${wrote:-?}, file holds $got, decoded ${dec:-?}, not decoded ${undec:-?}"
	sed 's/^/    /' "$work/d.err" | tail -12
	fails=$((fails + 1))
else
	echo "ok: slow decoder: $sent sent, none lost, $wrote in the file, $dec decoded and $undec written undecoded, as the summary says"
fi
exit $((fails > 0))
