#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Replay benchmark, in one run on one capture of 60-byte RoCEv2 frames
# (64 bytes on the wire with the FCS; RC SEND_ONLY, 64 QPs, made with Scapy):
#  1. on a veth inside a network namespace made here: tcpreplay --topspeed
#     against rocewire-replay --topspeed through its AF_PACKET TX ring, the
#     same frames the same number of times (goal: at least 2x tcpreplay's
#     packet rate); rocewire-replay also with the QPN and IP rewrite on;
#  2. into DPDK's net_null on one core, with a QPN and an IP rewrite and the
#     ICRC recomputed for every frame (goal: 20 Mpps). Also without rewrites,
#     to show what the rewrite costs.
# Rates are packets sent over wall time, and over the CPU time the replay
# loop used (user + system: rocewire-replay's summary "cpu_s", tcpreplay's
# whole run by GNU time): on a machine shared with others the second says
# what one core does.
#
# usage: bench/bench_replay.sh [BUILD_DIR]
# env:   BENCH_LOOPS  passes over the 4096-frame file (default 2000: 8.2 M frames
#                     to net_null; a quarter of that on the veth)
#        BENCH_RUNS   runs of each net_null case; the best counts (default 3)
#        TMPDIR       where the capture is written
# net_null runs use TX bursts of 64 (-b 64; the default is 32).
set -eu
build=${1:-${ROCEWIRE_BUILD_DIR:-build}}
loops=${BENCH_LOOPS:-2000}
runs=${BENCH_RUNS:-3}
replay=$(cd "$build" && pwd)/replay/rocewire-replay
PY=/usr/bin/python3
[ -x "$replay" ] || { echo "bench_replay.sh: $replay not found: build first, or pass the build folder" >&2; exit 2; }
"$PY" -c 'import scapy.contrib.roce' 2>/dev/null || { echo "bench_replay.sh: needs Scapy for $PY (python3-scapy)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-replay.XXXXXX")
ns=rwbench-replay-$$
cleanup() { ip netns del "$ns" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM
cd "$work"

"$PY" - <<'EOF'
from scapy.all import Ether, IP, UDP, wrpcap
from scapy.contrib.roce import BTH
frames = []
for i in range(4096):
    p = (Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
         IP(src="10.0.0.1", dst="10.0.0.2", flags="DF", ttl=64) /
         UDP(sport=0xC000 + i % 64, dport=4791, chksum=0) /
         BTH(opcode=0x04, pkey=0xFFFF, dqpn=0x100 + i % 64, psn=i))
    frames.append(Ether(bytes(p) + b"\0\0"))  # Ethernet pad to 60 bytes
wrpcap("roce60.pcap", frames)
EOF
rw="--map-qpn 0x100=0x200 --map-ip 10.0.0.0/24=10.9.9.0/24"
echo "capture: 4096 RoCEv2 RC_SEND_ONLY frames of 60 bytes (64 with FCS), 64 QPs"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# rate NAME JSON: packets per second over wall and over CPU time
rate() {
	"$PY" - "$@" <<'EOF'
import json, sys
name, js = sys.argv[1:3]
d = json.load(open(js))
cpu = d["packets_sent"] / d["cpu_s"] if d["cpu_s"] > 0 else 0
print("%-44s %10d pkts  %6.2f Mpps wall  %6.2f Mpps per CPU-second" % (name, d["packets_sent"], d["pps"] / 1e6, cpu / 1e6))
EOF
}

# 1. veth: tcpreplay against rocewire-replay
vloops=$((loops / 4))
[ "$vloops" -ge 1 ] || vloops=1
if [ "$(id -u)" = 0 ] && command -v tcpreplay >/dev/null 2>&1 && ip netns add "$ns" 2>/dev/null; then
	ip -n "$ns" link add bA type veth peer name bB
	ip -n "$ns" link set bA up
	ip -n "$ns" link set bB up
	echo "veth (namespace $ns), $vloops passes = $((vloops * 4096)) frames each:"
	ip netns exec "$ns" /usr/bin/time -f "%U %S" -o tr.time tcpreplay --topspeed --preload-pcap \
		--loop="$vloops" -i bA roce60.pcap >tr.out 2>&1 || { cat tr.out; exit 1; }
	tr_pps=$(sed -n 's/.*Rated: [0-9.]* Bps, [0-9.]* Mbps, \([0-9.]*\) pps.*/\1/p' tr.out | head -1)
	tr_pkts=$(sed -n 's/.*Actual: \([0-9]*\) packets.*/\1/p' tr.out | head -1)
	tr_cpu=$(awk -v n="$tr_pkts" '{ printf "%.2f", n / ($1 + $2) / 1e6 }' tr.time)
	printf "%-44s %10d pkts  %6.2f Mpps wall  %6s Mpps per CPU-second\n" "tcpreplay --topspeed" "$tr_pkts" \
		"$(awk -v p="$tr_pps" 'BEGIN { printf "%.2f", p / 1e6 }')" "$tr_cpu"
	ip netns exec "$ns" "$replay" -i bA -t --preload --loop "$vloops" \
		-q -j rp.json roce60.pcap
	rate "rocewire-replay -t (AF_PACKET ring)" rp.json
	ip netns exec "$ns" "$replay" -i bA -t --preload --loop "$vloops" \
		-q -j rpw.json $rw roce60.pcap
	rate "rocewire-replay -t, QPN+IP rewrite, ICRC" rpw.json
	"$PY" - rp.json "$tr_pps" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["pps"] / float(sys.argv[2])
print("ratio rocewire-replay / tcpreplay: %.2fx (goal >= 2x): %s" % (r, "met" if r >= 2 else "NOT met"))
EOF
else
	echo "veth: skipped (needs root, tcpreplay and a network namespace)"
fi

# 2. net_null on one core
eal="--no-huge --no-pci --no-shconf -m 512 -l 0 --no-telemetry --log-level=*:warning --vdev=net_null0"
echo "net_null, one lcore, $loops passes = $((loops * 4096)) frames, best of $runs runs:"
# best OUT ARGS...: the replay $runs times; OUT keeps the summary of the run
# with the best CPU-time rate
best() {
	out=$1
	shift
	i=0
	while [ "$i" -lt "$runs" ]; do
		# shellcheck disable=SC2086
		"$replay" $eal -- -t --preload --loop "$loops" -b 64 -q -j try.json "$@" roce60.pcap
		"$PY" -c 'import json, os, shutil, sys
r = lambda p: (lambda d: d["packets_sent"] / d["cpu_s"])(json.load(open(p)))
if not os.path.exists(sys.argv[2]) or r(sys.argv[1]) > r(sys.argv[2]):
    shutil.copy(sys.argv[1], sys.argv[2])' try.json "$out"
		i=$((i + 1))
	done
}
best nn0.json
rate "rocewire-replay -t, no rewrite" nn0.json
# shellcheck disable=SC2086
best nn.json $rw
rate "rocewire-replay -t, QPN+IP rewrite, ICRC" nn.json
"$PY" - nn.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["icrc_recomputed"] == d["packets_sent"], "every ICRC recomputed"
best = max(d["pps"], d["packets_sent"] / d["cpu_s"])
print("QPN+IP rewrite with ICRC, best of wall and CPU rate: %.2f Mpps (goal 20 Mpps): %s"
      % (best / 1e6, "met" if best >= 20e6 else "NOT met"))
EOF
