# SPDX-License-Identifier: BSD-3-Clause
# Shared by the live-capture tests (test_live_*.sh); sourced, not run.
#
# Each test makes two network namespaces joined by a veth pair created
# directly inside them (no interface and no address ever appears in the
# caller's namespace), injects frames on one side with tcpreplay and
# captures them on the other with rocewire-cap. Frames come from
# rocewire-mkcap; what was captured is checked with tools that share no code
# with rocewire: Scapy's raw pcap/pcapng readers (frame bytes), tshark
# (file validity, protocol counts) and Python's struct (pcapng blocks).
#
# Environment: ROCEWIRE_CAP, ROCEWIRE_MKCAP. Exit 77 (skip) with the reason
# when a test cannot run here.
set -u

CAP=${ROCEWIRE_CAP:-}
MKCAP=${ROCEWIRE_MKCAP:-}
PY=/usr/bin/python3
FAILED=0
NS_A=""
NS_B=""
BG_PIDS=""
WORK=""

skip() {
	echo "SKIP: $*"
	exit 77
}

fail() {
	echo "FAIL: $*"
	FAILED=1
}

ok() {
	echo "ok: $*"
}

need_tools() {
	# tools, then what the test needs: root, netns, tcpreplay, tshark, scapy
	for t in "$CAP" "$MKCAP"; do
		if [ -z "$t" ] || [ ! -x "$t" ]; then
			echo "FAIL: set ROCEWIRE_CAP and ROCEWIRE_MKCAP to the built tools (got '$CAP', '$MKCAP')"
			exit 1
		fi
	done
	[ "$(id -u)" = 0 ] || skip "live capture needs root (network namespaces, packet sockets)"
	command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
	command -v tcpreplay >/dev/null 2>&1 || skip "tcpreplay is not installed (it injects the test frames)"
	command -v tshark >/dev/null 2>&1 || skip "tshark is not installed (it checks the written files)"
	[ -x "$PY" ] || skip "$PY is missing"
	"$PY" -c 'import scapy.utils' 2>/dev/null || skip "Scapy is not installed for $PY (python3-scapy)"
}

cleanup() {
	for p in $BG_PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $BG_PIDS; do
		wait "$p" 2>/dev/null
	done
	[ -n "$NS_A" ] && ip netns del "$NS_A" 2>/dev/null
	[ -n "$NS_B" ] && ip netns del "$NS_B" 2>/dev/null
	[ -n "$WORK" ] && rm -rf "$WORK"
}

# Namespaces $NS_A (sender, veth vA, 10.201.0.1) and $NS_B (capture side,
# veth vB, 10.201.0.2), MTU 9000 so that 4 KiB RoCE payloads fit. IPv6 is
# off inside them so that no router solicitation or DAD frame is sent.
ns_setup() {
	NS_A=rwlive-a-$$
	NS_B=rwlive-b-$$
	trap cleanup EXIT
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/rw-live.XXXXXX")
	export HOME="$WORK" XDG_CONFIG_HOME="$WORK/.config" # a clean tshark profile
	if ! ip netns add "$NS_A" 2>"$WORK/netns.err"; then
		NS_A=""
		skip "cannot create a network namespace: $(cat "$WORK/netns.err")"
	fi
	ip netns add "$NS_B" || skip "cannot create a second network namespace"
	ip link add vA netns "$NS_A" mtu 9000 type veth peer name vB netns "$NS_B" mtu 9000 ||
		skip "cannot create a veth pair inside the namespaces"
	for side in A B; do
		local ns
		if [ $side = A ]; then ns=$NS_A; else ns=$NS_B; fi
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 >/dev/null 2>&1
		ip netns exec "$ns" ip link set lo up
		ip netns exec "$ns" ip link set "v$side" up || skip "cannot bring v$side up"
	done
	ip netns exec "$NS_A" ip addr add 10.201.0.1/24 dev vA
	ip netns exec "$NS_B" ip addr add 10.201.0.2/24 dev vB
	cd "$WORK" || exit 1
}

in_a() { ip netns exec "$NS_A" "$@"; }
in_b() { ip netns exec "$NS_B" "$@"; }

# inject FILE [tcpreplay options...]: frames of FILE out of vA, into vB.
inject() {
	local f=$1
	shift
	if ! in_a tcpreplay -q "$@" -i vA "$f" >"$WORK/tcpreplay.out" 2>&1; then
		fail "tcpreplay of $f failed: $(tr '\n' ' ' <"$WORK/tcpreplay.out")"
	fi
}

# Non-RoCE traffic from the kernel's own stack: UDP datagrams to port 9
# (closed: the receiver answers with ICMP port unreachable), after an ARP
# exchange.
noise() {
	in_a "$PY" -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(3):
    s.sendto(b"not roce", ("10.201.0.2", 9))
    time.sleep(0.05)
'
}

# start_cap ERRFILE OUTFILE ARGS...: rocewire-cap in $NS_B in the
# background; CAP_PID is its pid. Waits for its "listening on" line.
start_cap() {
	local err=$1 out=$2
	shift 2
	# ip netns exec execs the command: $! is rocewire-cap itself, for kill.
	ip netns exec "$NS_B" "$CAP" "$@" >"$out" 2>"$err" &
	CAP_PID=$!
	BG_PIDS="$BG_PIDS $CAP_PID"
	for _ in $(seq 1 100); do
		grep -q "listening on" "$err" 2>/dev/null && return 0
		kill -0 "$CAP_PID" 2>/dev/null || break
		sleep 0.05
	done
	fail "rocewire-cap $* did not start listening: $(cat "$err")"
	return 1
}

# wait_cap SECONDS: waits for CAP_PID to exit by itself; CAP_RC is its status.
wait_cap() {
	local limit=$1 i
	for i in $(seq 1 $((limit * 20))); do
		kill -0 "$CAP_PID" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$CAP_PID" 2>/dev/null; then
		fail "rocewire-cap did not exit within ${limit}s"
		kill -KILL "$CAP_PID" 2>/dev/null
	fi
	wait "$CAP_PID"
	CAP_RC=$?
}

# frames FILE: number of frames, as Scapy's raw readers count them.
frames() {
	"$PY" - "$1" <<'EOF'
import sys
from scapy.utils import RawPcapReader, RawPcapNgReader
p = sys.argv[1]
with open(p, "rb") as f:
    magic = f.read(4)
R = RawPcapNgReader if magic == b"\x0a\x0d\x0d\x0a" else RawPcapReader
print(sum(1 for _ in R(p)))
EOF
}

# same_frames OUT IN...: the frames of OUT are exactly those of the IN files,
# in order, byte for byte (Scapy's readers).
same_frames() {
	"$PY" - "$@" <<'EOF'
import sys
from scapy.utils import RawPcapReader, RawPcapNgReader
def frames(p):
    with open(p, "rb") as f:
        magic = f.read(4)
    R = RawPcapNgReader if magic == b"\x0a\x0d\x0d\x0a" else RawPcapReader
    return [bytes(d) for d, _ in R(p)]
out = frames(sys.argv[1])
want = [f for p in sys.argv[2:] for f in frames(p)]
if out != want:
    n = next((i for i, (a, b) in enumerate(zip(out, want)) if a != b), min(len(out), len(want)))
    print("%s: %d frames, expected %d; first difference at frame %d" % (sys.argv[1], len(out), len(want), n + 1))
    sys.exit(1)
EOF
}

# tshark_ok FILE: tshark reads FILE to its end without a complaint.
tshark_ok() {
	local rc msg
	tshark -r "$1" >/dev/null 2>"$WORK/tshark.err"
	rc=$?
	msg=$(grep -v "Running as user" "$WORK/tshark.err")
	if [ $rc -ne 0 ] || [ -n "$msg" ]; then
		fail "tshark on $1 (status $rc): $msg"
		return 1
	fi
	return 0
}

# tshark_count FILE FILTER
tshark_count() {
	tshark -r "$1" -Y "$2" 2>/dev/null | wc -l
}
