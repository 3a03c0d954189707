#!/bin/sh
# rocewire-gen's simulated congestion scenarios (samples/scenarios/ with a
# `congestion:` section), each run into a pcap through DPDK's net_pcap and
# checked from the capture alone: rocewire-cap --report --json, and the
# frames read by gen_cc_check.py's own pcap reader (times, MACs, ECN bits,
# opcodes) — never from the generator's counters, except the paused time
# the model reports, which the report must equal. gen_cc_check.py says what
# each scenario must show.
# Env: ROCEWIRE_GEN, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR.
set -u
py=/usr/bin/python3
gen=${ROCEWIRE_GEN:-}
cap=${ROCEWIRE_CAP:-}
src=${ROCEWIRE_SOURCE_DIR:-}
for t in "$gen" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_GEN and ROCEWIRE_CAP (got \"$gen\", \"$cap\")" >&2
		exit 1
	fi
done
if [ ! -x "$py" ]; then
	echo "SKIP: $py is missing"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-gencc.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1 # the scenarios' output files are relative to here

fails=0
for b in incast-dcqcn incast-pfc lossy-incast pfc-storm np-every-ce; do
	s=$src/samples/scenarios/$b.yaml
	if ! "$gen" -w "$work/$b.pcap" --summary-json "$work/$b.json" --no-status -Q "$s" 2>"$work/$b.err"; then
		echo "FAIL: $b: rocewire-gen exited non-zero:" >&2
		cat "$work/$b.err" >&2
		fails=$((fails + 1))
		continue
	fi
	"$cap" -r "$work/$b.pcap" --report --json >"$work/$b.report.json" 2>"$work/$b.cap.err"
	if [ $? -gt 1 ]; then
		echo "FAIL: $b: rocewire-cap failed:" >&2
		cat "$work/$b.cap.err" >&2
		fails=$((fails + 1))
		continue
	fi
	printf '%s: ' "$b"
	"$py" "$src/tests/e2e/gen_cc_check.py" "$b" "$work" || fails=$((fails + 1))
done
[ "$fails" -eq 0 ] || { echo "$fails scenario(s) failed" >&2; exit 1; }
echo "all congestion scenarios as expected"
