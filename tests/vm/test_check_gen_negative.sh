#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check_gen.py must fail on what it is there to catch, shown on vm_run's real
# gen_write, gen_corrupt and gen_drop results: a flipped payload bit in a
# request (a bad ICRC that rxe would have dropped, and data that is not the
# pattern), a server record that failed, a scenario input that differs (the
# pattern, the message count), a corrupted or a dropped run checked as a
# clean one, and the lost request placed elsewhere.
# usage: test_check_gen_negative.sh PYTHON ROCEWIRE-CAP VM-RESULTS-DIR
set -u
py=$1 cap=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$dir/SKIPPED" ] && { echo "SKIP: $(cat "$dir/SKIPPED")"; exit 77; }
[ -f "$dir/gen_write.pcap" ] || { echo "FAIL: $dir/gen_write.pcap missing (did vm_run run gen.sh?)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-vmcheck-gen.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
W="gen_write --op write --size 4096 --messages 8 --pattern a55a0102"
C="gen_corrupt --op write --size 1024 --messages 8 --pattern a55a0102"
D="gen_drop --op write --size 1024 --messages 8 --pattern a55a0102"
expect_fail() { # DESCRIPTION PATTERN CHECK-ARGS...
	d=$1 pat=$2
	shift 2
	# shellcheck disable=SC2086 # $* holds the checker's arguments
	if "$py" "$here/check_gen.py" --cap "$cap" "$work" "$@" >"$work/out" 2>&1; then
		echo "FAIL: $d: check_gen.py passed"; fail=$((fail + 1))
	elif ! grep -q "$pat" "$work/out"; then
		echo "FAIL: $d: no line matching '$pat' in:"; cat "$work/out"; fail=$((fail + 1))
	else
		echo "ok: $d"; pass=$((pass + 1))
	fi
}
for c in gen_write gen_corrupt gen_drop; do
	cp "$dir/$c".* "$work/" || exit 1
done
for args in "$W" "$C --corrupt 3" "$D --drop 3"; do
	# shellcheck disable=SC2086
	"$py" "$here/check_gen.py" --cap "$cap" "$work" $args >"$work/out" 2>&1 ||
		{ echo "FAIL: the unmodified results do not pass ($args):"; cat "$work/out"; exit 1; }
done
# shellcheck disable=SC2086
expect_fail "another pattern" "not the pattern" $W --pattern a55a0103
# shellcheck disable=SC2086
expect_fail "one message more" "request packets, expected 36" gen_write --op write --size 4096 --messages 9 --pattern a55a0102
# shellcheck disable=SC2086
expect_fail "a corrupted run taken for a clean one" "requests with a bad ICRC: \[3\], expected \[\]" $C
# shellcheck disable=SC2086
expect_fail "the corrupted request elsewhere" "NAK (frame" $C --corrupt 2
# shellcheck disable=SC2086
expect_fail "a dropped run taken for a clean one" "7 request packets, expected 8" $D
# shellcheck disable=SC2086
expect_fail "the dropped request elsewhere" "NAK (frame" $D --drop 2
# shellcheck disable=SC2086
expect_fail "a dropped request taken for a corrupted one" "requests with a bad ICRC: \[\], expected \[3\]" $D --corrupt 3
# Byte 100 of the first frame (pcap header 24 + record header 16): inside the
# first request's payload, covered by the ICRC.
"$py" -c "import sys; p=sys.argv[1]; d=bytearray(open(p,'rb').read()); d[24+16+100]^=1; open(p,'wb').write(d)" "$work/gen_write.pcap"
# shellcheck disable=SC2086
expect_fail "one flipped payload bit (ICRC)" "requests with a bad ICRC: \[0\]" $W
# shellcheck disable=SC2086
expect_fail "one flipped payload bit (data)" "message 0: 4096 payload bytes, not the pattern" $W
cp "$dir/gen_write.pcap" "$work/"
"$py" -c "
import json, sys
p = sys.argv[1]; r = json.load(open(p)); r['result'] = 'fail'; r['data_check']['result'] = 'fail'
json.dump(r, open(p, 'w'))" "$work/gen_write.server.json"
# shellcheck disable=SC2086
expect_fail "a server record that failed" "server record: result fail" $W
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
