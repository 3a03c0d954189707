#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap's live-capture and report options, without capturing:
#  - the default filter compiles (libpcap) for Ethernet, Linux SLL and Linux
#    SLL2 (-i any), for the default and another RoCEv2 port, and a bad -f
#    expression is one clear error;
#  - options that need -i, -w or each other are refused with one line and
#    status 2, before anything is opened or created;
#  - -i rdma:DEVICE for a device that does not exist (or a build without
#    libibverbs) is one clear error, status 2, and creates no file;
#  - -r FILE --report / --report --json / --html: the report goes where it
#    should (JSON parsed by Python; no capture drops recorded for a file).
# Needs no root. Environment: ROCEWIRE_CAP, ROCEWIRE_MKCAP.
set -u
CAP=${ROCEWIRE_CAP:-}
MKCAP=${ROCEWIRE_MKCAP:-}
PY=/usr/bin/python3
for t in "$CAP" "$MKCAP"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_CAP and ROCEWIRE_MKCAP to the built tools (got '$CAP', '$MKCAP')"
		exit 1
	fi
done
[ -x "$PY" ] || { echo "SKIP: $PY is missing"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/rw-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

# ---- the default filter ----------------------------------------------------
for lt in EN10MB LINUX_SLL LINUX_SLL2; do
	for port in "" 4792; do
		"$CAP" -d -y $lt ${port:+--port $port} >prog 2>err
		rc=$?
		p=${port:-4791}
		hex=$(printf '0x%x' "$p")
		if [ $rc = 0 ] && grep -q "ret " prog && grep -q "#$hex" prog && grep -q "#0x8915" prog &&
			grep -q "#0x8808" prog; then
			ok "default filter compiles for $lt, port $p ($(wc -l <prog) instructions)"
		else
			fail "-d -y $lt port $p: status $rc: $(head -n 2 err)"
		fi
	done
done
# VLAN: the Ethernet program tests the VLAN ethertypes; the cooked ones too
for lt in EN10MB LINUX_SLL LINUX_SLL2; do
	"$CAP" -d -y $lt >prog 2>/dev/null
	grep -q "#0x8100" prog && grep -q "#0x88a8" prog || fail "$lt: the filter does not look behind VLAN tags"
done
"$CAP" -d -f "udp port 4791 and" >out 2>err
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <err)" = 1 ] && grep -q "cannot compile the filter" err; then
	ok "a bad -f expression: $(cat err)"
else
	fail "bad -f: status $rc: $(cat err)"
fi

# ---- option checks -----------------------------------------------------------
"$MKCAP" --mix 200 -o mix.pcap >/dev/null || { echo "FAIL: rocewire-mkcap"; exit 1; }
check_usage() { # expected-words args...
	local want=$1
	shift
	"$CAP" "$@" >out 2>err
	local rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <err)" = 1 ] && grep -q -- "$want" err; then
		ok "$* -> $(cat err)"
	else
		fail "$*: status $rc, stderr: $(cat err)"
	fi
}
check_usage "applies to a live capture" -r mix.pcap -w x.pcap
check_usage "applies to a live capture" -r mix.pcap -G 10
check_usage "applies to a live capture" -r mix.pcap --all
check_usage "applies to a live capture" -r mix.pcap -B 1024
check_usage "not both" -r mix.pcap -i lo
check_usage "needs -w FILE" -i lo -C 10
check_usage "needs -w FILE" -i lo --pcapng
check_usage "cannot be rotated" -i lo -w - -C 1
check_usage "cannot go there too" -i lo -w - --lines
check_usage "choose one" -i lo -f "udp" --all
check_usage "not a snapshot length" -i lo -s 300000
check_usage "not a size in millions of bytes" -i lo -w x.pcap -C 0
check_usage "not a link type" -d -y NOSUCHTYPE
check_usage "per-packet output" -r mix.pcap --report --json -l
{ [ -e x.pcap ] || ls x.pcap.*.part >/dev/null 2>&1; } && fail "a refused command created a file"

# ---- rdma: ---------------------------------------------------------------------
"$CAP" -i rdma:rw_no_such_dev0 -w r.pcap >out 2>err
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <err)" = 1 ] && grep -q "^rdma:rw_no_such_dev0: " err &&
	grep -Eq "no RDMA device|built without libibverbs" err && [ ! -e r.pcap ] && ! ls r.pcap.*.part >/dev/null 2>&1; then
	ok "-i rdma: without such a device: $(cat err)"
else
	fail "-i rdma:rw_no_such_dev0: status $rc, stderr: $(cat err)"
fi
check_usage "not a port number" -i rdma:mlx5_0:0

# ---- offline report wiring -------------------------------------------------------
"$CAP" -r mix.pcap --report >rep.txt 2>rep.err
rc=$?
if [ $rc -le 1 ] && [ -s rep.txt ] && ! grep -q "^[0-9:.]* rocev2 " rep.txt; then
	ok "--report: $(wc -l <rep.txt) lines of report, no per-packet lines"
else
	fail "--report: status $rc, $(wc -l <rep.txt) lines"
fi
"$CAP" -r mix.pcap --report -l >rep2.txt 2>/dev/null
[ "$(grep -c " rocev2 \| pfc " rep2.txt)" -ge 200 ] || fail "--report -l: the per-packet lines are missing"
"$CAP" -r mix.pcap --report --json --html rep.html >rep.json 2>/dev/null
rc=$?
"$PY" - rep.json <<'EOF' && ok "--report --json: one JSON document, capture_drops not recorded" || fail "--report --json: $(head -c 200 rep.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["packets"] == 200, d["packets"]
assert d["capture_drops"]["recorded"] is False, d["capture_drops"]
EOF
"$CAP" -r mix.pcap --report --json --link-gbps 25 --storm-ms 2.5 --cnp-window-us 50 --max-flows 3 \
	>rep3.json 2>/dev/null
if "$PY" - rep3.json <<'EOF'; then
import json, sys
d = json.load(open(sys.argv[1]))
want = {"link_gbps": 25, "storm_threshold_us": 2500, "cnp_window_us": 50, "max_flows": 3}
got = {k: d.get(k) for k in want}
assert got == want, got
assert d["flows"] <= 3 and d["untracked"] > 0, (d["flows"], d["untracked"])
EOF
	ok "--link-gbps, --storm-ms, --cnp-window-us, --max-flows reach the report"
else
	fail "report options: $(head -c 300 rep3.json)"
fi
if [ -s rep.html ] && grep -qi "<html" rep.html; then
	ok "--html wrote $(wc -c <rep.html) bytes"
else
	fail "--html: no HTML page written"
fi
"$CAP" -r mix.pcap --html /nonexistent-dir/r.html >/dev/null 2>err
rc=$?
[ $rc = 2 ] && grep -q "/nonexistent-dir/r.html" err || fail "--html into a missing directory: status $rc: $(cat err)"

exit $FAILED
