#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_check_counters_negative.sh PYTHON ROCEWIRE_CAP SAMPLES_COUNTERS_DIR:
# check_counters.py passes on the kept samples and fails on tampered copies:
# one more received packet in rxe0's after snapshot, one more netem drop than
# rxe1's sent_pkts shows, a counter missing from the after snapshot.
set -u
py=$1 cap=$2 dir=$3
n=rc_write_loss
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-ctr-neg.XXXXXX")
trap 'rm -rf "$work"' EXIT
fresh() {
	rm -rf "$work/d"
	mkdir "$work/d"
	cp "$dir/$n".* "$work/d/"
}
expect() { # expect pass|fail WHAT
	"$py" "$(dirname "$0")/check_counters.py" --cap "$cap" "$work/d" $n >"$work/out" 2>&1
	rc=$?
	if { [ "$1" = pass ] && [ $rc -ne 0 ]; } || { [ "$1" = fail ] && [ $rc -eq 0 ]; }; then
		echo "FAIL: $2: check_counters.py exit $rc"
		cat "$work/out"
		exit 1
	fi
	echo "ok: $2 ($1)"
}
fresh
expect pass "the samples"
fresh
awk -F: '/hw_counters\/rcvd_pkts:/ { print $1 ":" $2 + 1; next } { print }' \
	"$dir/$n.counters-after.rxe0.txt" >"$work/d/$n.counters-after.rxe0.txt"
expect fail "rxe0 rcvd_pkts one more"
fresh
sed 's/(dropped \([0-9]*\),/(dropped 1\1,/' "$dir/$n.qdisc.txt" >"$work/d/$n.qdisc.txt"
expect fail "netem's drop counter changed"
fresh
grep -v 'hw_counters/rcvd_seq_err:' "$dir/$n.counters-after.rxe1.txt" >"$work/d/$n.counters-after.rxe1.txt"
expect fail "rcvd_seq_err missing after"
