#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap --between against rocewire-mktaps' truth: for every sample
# capture that holds RoCE or IB traffic (RoCEv2 over IPv4, IPv6 with VLAN,
# SLL2, RoCEv1, native IB, ERF, Soft-RoCE's real captures), two taps made
# with drops, CE marks, TTL and MAC rewrites, delay and jitter, reordering,
# duplicates and injected frames; then with B's clock shifted, told
# (--offset) and estimated (--estimate-offset, on captures with both
# directions). between_check.py checks every figure against the truth.
set -u
: "${ROCEWIRE_MKTAPS:?}" "${ROCEWIRE_CAP:?}" "${ROCEWIRE_SOURCE_DIR:?}"
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
check=$ROCEWIRE_SOURCE_DIR/tests/e2e/between_check.py
status=0
n=0
for f in "$ROCEWIRE_SOURCE_DIR"/samples/*.pcap "$ROCEWIRE_SOURCE_DIR"/samples/softroce/*.pcap; do
	name=$(basename "$f" .pcap)
	seed=$((n + 1))
	n=$((n + 1))
	"$ROCEWIRE_MKTAPS" "$f" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --seed $seed ||
		{ echo "FAIL: mktaps on $name"; status=1; continue; }
	python3 "$check" "$ROCEWIRE_CAP" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" || status=1
	# B's clock 3 ms ahead, told
	"$ROCEWIRE_MKTAPS" "$f" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --seed $seed --shift 3000000 \
		--delay 7000 --jitter 500 || { status=1; continue; }
	python3 "$check" "$ROCEWIRE_CAP" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --offset 3000000 || status=1
	# and estimated, where both directions carry packets
	if grep -q '"b_to_a", "fate": "matched"' "$dir/t.json" && grep -q '"a_to_b", "fate": "matched"' "$dir/t.json"; then
		"$ROCEWIRE_MKTAPS" "$f" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --seed $seed --shift -2500000 \
			--delay 7000 --jitter 500 || { status=1; continue; }
		python3 "$check" "$ROCEWIRE_CAP" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --estimate-offset \
			--offset -2000000 || status=1
	fi
done
# a short window: late packets are settled unmatched (the truth's delays
# are far above it, so nothing matches; every packet is unknown-direction)
"$ROCEWIRE_MKTAPS" "$ROCEWIRE_SOURCE_DIR/samples/softroce/rc_read.pcap" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" \
	--delay 50000
out=$("$ROCEWIRE_CAP" --between "$dir/a.pcap" "$dir/b.pcap" --json --window 1000)
python3 - "$out" <<'PY' || status=1
import json, sys
o = json.loads(sys.argv[1])
if o["matched"] != 0 or o["unmatched_unknown_direction"] != o["tap_a"]["compared"] + o["tap_b"]["compared"]:
    sys.exit("FAIL: --window 1000 with 50 us delays: %d matched, %d unknown" % (o["matched"], o["unmatched_unknown_direction"]))
print("ok: --window 1000: nothing matched, %d packets of unknown direction" % o["unmatched_unknown_direction"])
PY
# bad input: one line on standard error, a non-zero status, nothing on
# standard output
a=$ROCEWIRE_SOURCE_DIR/samples/softroce/rc_read.pcap
head -c 1000 "$a" >"$dir/cut.pcap"
printf 'not a capture\n' >"$dir/text.pcap"
bad() { # WANT_STATUS WHAT ARGS...
	want=$1 what=$2
	shift 2
	"$ROCEWIRE_CAP" "$@" >"$dir/out" 2>"$dir/err"
	st=$?
	if [ $st -ne "$want" ] || [ -s "$dir/out" ] || [ "$(wc -l <"$dir/err")" -ne 1 ] ||
		! grep -q "$what" "$dir/err"; then
		echo "FAIL: rocewire-cap $*: status $st (want $want), stdout $(wc -c <"$dir/out") bytes, stderr:"
		cat "$dir/err"
		status=1
	else
		echo "ok: $* -> $st: $(cat "$dir/err")"
	fi
}
bad 2 "cannot open" --between "$a" "$dir/missing.pcap"
bad 2 "not a pcap" --between "$dir/text.pcap" "$a"
bad 1 "file ends inside" --between "$a" "$dir/cut.pcap"
bad 2 "needs two capture files" --between "$a"
bad 2 "needs two capture files" --between "$a" "$a" "$a"
bad 2 "give --between" -r "$a" --offset 5
bad 2 "is not a time" --between "$a" "$a" --window 0
bad 2 "is not a time" --between "$a" "$a" --offset 12x
bad 2 "cannot be added" --between "$a" "$a" --report
bad 2 "standard input" --between - "$a" --estimate-offset
bad 2 "cannot be added" --between "$a" "$a" --qlen "$dir/q.csv"
exit $status
