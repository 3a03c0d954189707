#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-gen's simulated congestion scenarios (samples/scenarios/ with a
# `congestion:` section), each run into a pcap through DPDK's net_pcap and
# checked from the capture alone: rocewire-cap --report --json, and the
# frames read by gen_cc_check.py's own pcap reader (times, MACs, ECN bits,
# opcodes) — never from the generator's counters, except the paused time
# the model reports, which the report must equal. gen_cc_check.py says what
# each scenario must show.
# Env: ROCEWIRE_GEN, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR.
. "$(dirname "$0")/gen_env.sh"
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
# The HTML report of the incast capture with the run's queue-length trace:
# the queue's lane is drawn, with one point per sample at most.
if [ -s "$work/incast-dcqcn.pcap" ]; then
	if ! "$cap" -r "$work/incast-dcqcn.pcap" --html "$work/incast.html" --qlen "$work/incast-dcqcn.qlen.csv" \
		>/dev/null 2>"$work/html.err"; then
		echo "FAIL: rocewire-cap --html --qlen:" >&2
		cat "$work/html.err" >&2
		fails=$((fails + 1))
	else
		n=$(sed -n 's/.*stroke="#7048e8" stroke-width="1.4" points="\([^"]*\)".*/\1/p' "$work/incast.html" | wc -w)
		rows=$(($(wc -l <"$work/incast-dcqcn.qlen.csv") - 1))
		if ! grep -q 'bottleneck queue' "$work/incast.html" || [ "$n" -lt 100 ] || [ "$n" -gt "$rows" ]; then
			echo "FAIL: the HTML page's queue lane has $n points for $rows samples" >&2
			fails=$((fails + 1))
		else
			echo "incast HTML: the queue lane drawn ($n points from $rows samples)"
		fi
	fi
	# --qlen needs --html, and a bad trace is one line naming its line
	printf 'time_ns,prio,bytes\n0,3,10\n5,9,10\n' >"$work/bad.csv"
	for args in "--qlen $work/incast-dcqcn.qlen.csv" "--html $work/x.html --qlen $work/bad.csv"; do
		# shellcheck disable=SC2086
		"$cap" -r "$work/incast-dcqcn.pcap" $args >/dev/null 2>"$work/q.err"
		rc=$?
		if [ "$rc" -ne 2 ] || [ "$(wc -l <"$work/q.err")" -ne 1 ] || [ -e "$work/x.html" ]; then
			echo "FAIL: rocewire-cap $args: exit $rc (want 2), $(wc -l <"$work/q.err") lines, page left: $(ls "$work/x.html" 2>/dev/null)" >&2
			fails=$((fails + 1))
		fi
	done
	grep -q 'bad.csv:3: priority 9 is not 0..7' "$work/q.err" ||
		{ echo "FAIL: bad trace message: $(cat "$work/q.err")" >&2; fails=$((fails + 1)); }
fi
# A port used by one class is run with early departures (each request's
# departure fixed at its arrival, no event per departure); with a second
# class it is the general port. Adding a flow on another class that starts
# after the run must change nothing: the same frames at the same model
# times (from each capture's first), the same fct/pfc/qlen outputs.
mkdir -p "$work/two"
for b in incast-dcqcn incast-pfc lossy-incast; do
	"$py" - "$src/samples/scenarios/$b.yaml" "$work/two/$b.yaml" <<'PY'
import sys
t = open(sys.argv[1]).read()
t = t.replace("hosts:\n", "hosts:\n  - {name: idle, mac: \"02:00:00:00:0e:01\", ip: 10.0.9.1, vlan: 10, pcp: 5}\n", 1)
t = t.replace("flows:\n", "flows:\n  - {name: idle, from: idle, to: r, src_qpn: 0x1e1, dst_qpn: 0x2e1, start: 10s}\n", 1)
open(sys.argv[2], "w").write(t)
PY
	if ! (cd "$work/two" && "$gen" -w "$work/two/$b.pcap" --no-status -Q "$work/two/$b.yaml" 2>"$work/two/$b.err"); then
		echo "FAIL: $b with a second class: rocewire-gen exited non-zero:" >&2
		cat "$work/two/$b.err" >&2
		fails=$((fails + 1))
		continue
	fi
	if ! "$py" - "$work/$b.pcap" "$work/two/$b.pcap" <<'PY'
import struct, sys
def records(path):
    with open(path, "rb") as f:
        data = f.read()
    out, off = [], 24
    while off + 16 <= len(data):
        s, frac, cl, _ = struct.unpack_from("<IIII", data, off)
        out.append((s * 10**9 + frac, data[off + 16:off + 16 + cl]))
        off += 16 + cl
    # the capture starts at the wall clock's time; the model's times follow
    return [(t - out[0][0], d) for t, d in out] if out else out
a, b = records(sys.argv[1]), records(sys.argv[2])
bad = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), None)
if len(a) != len(b) or bad is not None:
    sys.exit(f"{len(a)} and {len(b)} records, first difference at {bad}")
PY
	then
		echo "FAIL: $b: the early-departure port and the general one differ" >&2
		fails=$((fails + 1))
		continue
	fi
	same=1
	for o in fct pfc qlen; do
		[ -e "$work/$b.$o.csv" ] || continue
		# the queue-length series has rows for every class in use: the idle
		# flow's priority 5 adds its own, always empty
		if [ "$o" = qlen ]; then
			if awk -F, '$2 == 5 && $3 != 0' "$work/two/$b.$o.csv" | grep -q .; then
				echo "FAIL: $b: the idle class's queue is not empty" >&2
				same=0
			fi
			awk -F, '$2 != 5' "$work/two/$b.$o.csv" >"$work/two/$b.$o.csv.cmp"
		else
			cp "$work/two/$b.$o.csv" "$work/two/$b.$o.csv.cmp"
		fi
		cmp -s "$work/$b.$o.csv" "$work/two/$b.$o.csv.cmp" ||
			{ echo "FAIL: $b: $o output differs with the general port" >&2; same=0; }
	done
	if [ "$same" = 1 ]; then
		echo "$b: the early-departure port and the general one give the same capture and outputs"
	else
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ] || { echo "$fails scenario(s) failed" >&2; exit 1; }
echo "all congestion scenarios as expected"
