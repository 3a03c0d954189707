#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap's DPDK source on vdevs that need no root and no network:
#  1. net_ring, one RX queue: a mix of 3,000 RoCEv2 frames (up to 4 KiB, more
#     than the ring's 1,024 slots) is sent into the ring as the capture runs
#     (ROCEWIRE_CAP_DPDK_FEED: net_ring returns on RX queue i what is sent on
#     TX queue i); -c 3000 ends the capture; the file holds the frames byte
#     for byte, in order, and the summary's ICRC counts are those of reading
#     the input file;
#  2. net_ring, --rx-queues 3 on two lcores: frame i goes to queue i mod 3;
#     each queue's file (FILE.q0.pcap ...) holds exactly its frames in order,
#     the per-queue lines and the port's per-queue counters add up to 3,000,
#     tshark reads every file, the summary adds the queues' decode and ICRC
#     counts up to those of the input, and names the TSC as the clock;
#  3. the same into pcapng (FILE.q0.pcapng ...): tshark reads them, and the
#     packets add up;
#  4. net_pcap, whose PMD stamps each frame with its record's time: the
#     written file has the input's timestamps, and the summary says so;
#  5. --rx-queues beyond what the port has, or with per-packet output: one
#     line, exit 2.
# Env: ROCEWIRE_CAP, ROCEWIRE_MKCAP, ROCEWIRE_SOURCE_DIR.
set -u
cap=${ROCEWIRE_CAP:-}
mkcap=${ROCEWIRE_MKCAP:-}
src=${ROCEWIRE_SOURCE_DIR:-}
py=/usr/bin/python3
check="$src/tests/e2e/dpdk_queues_check.py"
[ -n "$cap" ] && [ -x "$cap" ] || { echo "FAIL: set ROCEWIRE_CAP (got '$cap')"; exit 1; }
[ -n "$mkcap" ] && [ -x "$mkcap" ] || { echo "FAIL: set ROCEWIRE_MKCAP (got '$mkcap')"; exit 1; }
[ -x "$(dirname "$cap")/rocewire-cap-dpdk" ] || { echo "SKIP: rocewire-cap-dpdk was not built (no DPDK)"; exit 77; }
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark is not installed (it checks the written files)"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-capring.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export HOME="$work" # a clean tshark profile
# each run its own --file-prefix: two tests may run at once
eal="--no-huge -m 1024 --no-pci --no-shconf --log-level=*:error"
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
ok() {
	echo "ok: $*"
}
# the summary's ICRC line and decode-error count, as reading a file gives them
crc_lines() {
	grep -E '^  (icrc|vcrc|decode errors):' "$1"
}
tshark_count() {
	tshark -r "$1" 2>/dev/null | wc -l
}

n=3000
"$mkcap" --mix "$n" -o mix.pcap >/dev/null || { echo "FAIL: rocewire-mkcap --mix"; exit 1; }
"$cap" -r mix.pcap -q 2>offline.err
crc_lines offline.err >offline.crc

# 1. one queue
ROCEWIRE_CAP_DPDK_FEED=mix.pcap timeout 60 "$cap" -i "dpdk:-l 0 $eal --file-prefix rwring1-$$ --vdev=net_ring0" \
	--all -c "$n" -w one.pcap -q 2>one.err
rc=$?
if [ "$rc" != 0 ]; then
	fail "net_ring, one queue: exit $rc: $(tail -n 2 one.err)"
elif msg=$("$py" "$check" rr mix.pcap one.pcap); then
	ok "net_ring, one queue: ${msg#ok: }"
else
	fail "net_ring, one queue: $msg"
fi
crc_lines one.err | cmp -s - offline.crc && ok "net_ring, one queue: the summary's ICRC counts are the input file's" ||
	fail "net_ring, one queue: ICRC counts $(crc_lines one.err | tr '\n' ' ') vs the file's $(tr '\n' ' ' <offline.crc)"

# 2. three queues on two lcores, pcap
ROCEWIRE_CAP_DPDK_FEED=mix.pcap timeout 60 "$cap" -i "dpdk:-l 0-1 $eal --file-prefix rwring3-$$ --vdev=net_ring0" \
	--all --rx-queues 3 -c "$n" -w three.pcap 2>three.err
rc=$?
if [ "$rc" != 0 ]; then
	fail "net_ring, 3 queues: exit $rc: $(tail -n 2 three.err)"
else
	"$py" "$check" rr mix.pcap three.q0.pcap three.q1.pcap three.q2.pcap || fails=$((fails + 1))
	sum=0
	port=0
	for q in 0 1 2; do
		c=$(tshark_count three.q$q.pcap)
		w=$(sed -n "s/^rocewire-cap: queue $q (lcore [0-9]*): wrote \([0-9]*\) packets to three.q$q.pcap.*/\1/p" three.err)
		p=$(sed -n "s/^rocewire-cap: queue $q .*the port counted \([0-9]*\) received, 0 errors$/\1/p" three.err)
		[ "$c" = "${w:-x}" ] || fail "queue $q: tshark reads $c packets in three.q$q.pcap, the capture says '${w:-?}'"
		sum=$((sum + c))
		port=$((port + ${p:-0}))
	done
	[ "$sum" = "$n" ] && ok "net_ring, 3 queues: tshark reads $sum packets in the three files, as sent" ||
		fail "net_ring, 3 queues: $sum packets in the files, $n sent"
	[ "$port" = "$n" ] && ok "net_ring, 3 queues: the port's per-queue counters add up to $n" ||
		fail "net_ring, 3 queues: the port's per-queue counters add up to $port: $(grep queue three.err)"
	grep -q "^rocewire-cap: $n packets captured on" three.err || fail "no '$n packets captured' in the summary"
	crc_lines three.err | cmp -s - offline.crc && ok "net_ring, 3 queues: the summary adds the queues' ICRC counts up to the file's" ||
		fail "net_ring, 3 queues: ICRC counts $(crc_lines three.err | tr '\n' ' ') vs the file's $(tr '\n' ' ' <offline.crc)"
	grep -q "port 0 (net_ring), 3 RX queues; timestamps: the TSC at each burst, for all $n packets" three.err &&
		ok "net_ring, 3 queues: the summary names the clock (the TSC)" ||
		fail "the clock line: $(grep timestamps: three.err)"
	ls three*.part >/dev/null 2>&1 && fail "a .part file was left behind: $(ls three*.part)"
fi

# 3. pcapng per queue
ROCEWIRE_CAP_DPDK_FEED=mix.pcap timeout 60 "$cap" -i "dpdk:-l 0-1 $eal --file-prefix rwring2-$$ --vdev=net_ring0" \
	--all --rx-queues 2 -c "$n" -w two.pcapng 2>two.err
rc=$?
c0=$(tshark_count two.q0.pcapng)
c1=$(tshark_count two.q1.pcapng)
if [ "$rc" = 0 ] && [ "$c0" = $((n / 2)) ] && [ "$c1" = $((n / 2)) ] &&
	[ -z "$(tshark -r two.q0.pcapng 2>&1 >/dev/null | grep -v 'Running as')" ]; then
	ok "net_ring, 2 queues into pcapng: tshark reads $c0 + $c1 packets"
else
	fail "net_ring, 2 queues into pcapng: exit $rc, tshark reads $c0 + $c1 packets (want $((n / 2)) each)"
fi

# 4. net_pcap's timestamps
f="$src/samples/rocev2-all-opcodes.pcap"
[ -f "$f" ] || f=$(ls "$src"/samples/*.pcap | head -n 1)
cnt=$("$py" -c 'import sys; sys.path.insert(0, sys.argv[2]); import pcaprec; print(len(pcaprec.split(sys.argv[1])[2]))' "$f" "$src/tests")
timeout 60 "$cap" -i "dpdk:-l 0 $eal --file-prefix rwpcap-$$ --vdev=net_pcap0,rx_pcap=$f" --all -c "$cnt" -w ts.pcap -q 2>ts.err
rc=$?
if [ "$rc" -gt 1 ]; then
	fail "net_pcap: exit $rc: $(tail -n 1 ts.err)"
else
	"$py" "$check" ts "$f" ts.pcap || fails=$((fails + 1))
	grep -q "timestamps: net_pcap's, the input file's own (microseconds) for $cnt packets" ts.err &&
		ok "net_pcap: the summary names the clock (the file's)" || fail "net_pcap clock line: $(grep timestamps: ts.err)"
fi

# 5. refused
"$cap" -i "dpdk:-l 0 $eal --file-prefix rwbad-$$ --vdev=net_ring0" --rx-queues 17 -w bad.pcap -q >/dev/null 2>bad.err
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <bad.err)" = 1 ] && grep -q 'at most 16 RX queues' bad.err && ! ls bad* 2>/dev/null | grep -q pcap &&
	ok "--rx-queues 17 on net_ring: $(sed 's/.*: --rx/--rx/' bad.err)" ||
	fail "--rx-queues 17 on net_ring: exit $rc: $(cat bad.err)"
"$cap" -i "dpdk:-l 0 $eal --vdev=net_ring0" --rx-queues 2 -w bad.pcap --lines >/dev/null 2>bad.err
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <bad.err)" = 1 ] && ok "--rx-queues 2 --lines: $(cat bad.err)" ||
	fail "--rx-queues 2 --lines: exit $rc: $(cat bad.err)"
exit $((fails > 0))
