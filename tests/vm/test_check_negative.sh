#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check.py must fail on what it is there to catch: a capture with one bit
# flipped (both ICRC verifiers and the data pattern check say so), and a
# record that disagrees with the capture by one message. Uses the real capture samples/softroce/rc_write.pcap.
# usage: test_check_negative.sh PYTHON ROCEWIRE-CAP SAMPLES-DIR
set -u
py=$1 cap=$2 samples=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-vmcheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
expect_fail() { # DESCRIPTION PATTERN
	if "$py" "$here/check.py" --cap "$cap" "$work" rc_write >"$work/out" 2>&1; then
		echo "FAIL: $1: check.py passed"; fail=$((fail + 1))
	elif ! grep -q "$2" "$work/out"; then
		echo "FAIL: $1: no line matching '$2' in:"; cat "$work/out"; fail=$((fail + 1))
	else
		echo "ok: $1"; pass=$((pass + 1))
	fi
}
cp "$samples/rc_write.pcap" "$samples/rc_write.client.json" "$samples/rc_write.server.json" "$work/" || exit 1
"$py" "$here/check.py" --cap "$cap" "$work" rc_write >"$work/out" 2>&1 ||
	{ echo "FAIL: the unmodified sample does not pass:"; cat "$work/out"; exit 1; }
# Byte 100 of the first frame (pcap header 24 + record header 16): inside the
# payload, covered by the ICRC.
"$py" -c "import sys; p=sys.argv[1]; d=bytearray(open(p,'rb').read()); d[24+16+100]^=1; open(p,'wb').write(d)" "$work/rc_write.pcap"
expect_fail "one flipped payload bit" "ICRC computed here with zlib does not match"
expect_fail "one flipped payload bit (rocewire-cap)" "ICRC bad"
expect_fail "one flipped payload bit (data pattern)" "message 0 differs from the pattern at byte 30"
cp "$samples/rc_write.pcap" "$work/"
"$py" -c "
import json, sys
p = sys.argv[1]; r = json.load(open(p)); r['qp'][0]['ops']['WRITE']['completed'] -= 1
json.dump(r, open(p, 'w'))" "$work/rc_write.client.json"
expect_fail "a record one message short" "messages in the capture, the client record completed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
