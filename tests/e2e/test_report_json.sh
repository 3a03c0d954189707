#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The per-QP report on crafted scenarios whose truth is known by construction
# (rocewire-mkscenario writes each capture and its truth): for every scenario,
# `rocewire-cap -r FILE --report --json` must give the truth's numbers
# (report_check.py compares them), and `--report` must print its table.
#
# env: ROCEWIRE_MKSCENARIO  rocewire-mkscenario (required)
#      ROCEWIRE_CAP         rocewire-cap (required)
#      ROCEWIRE_SOURCE_DIR  the source tree (for report_check.py)
# Exit 77 (skip) when python3 is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$here/../..}
mkscn=${ROCEWIRE_MKSCENARIO:-}
cap=${ROCEWIRE_CAP:-}

if [ -z "$mkscn" ] || [ ! -x "$mkscn" ]; then
	echo "test_report_json: ROCEWIRE_MKSCENARIO is not an executable: '$mkscn'" >&2
	exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not found"
	exit 77
fi
if [ -z "$cap" ] || [ ! -x "$cap" ]; then
	echo "test_report_json: ROCEWIRE_CAP is not an executable: '$cap'" >&2
	exit 1
fi

# report FILE json|table: the report on standard output. rocewire-cap exits
# 1 when the capture has problems (none here are meant to) and 2 on errors.
report() {
	if [ "$2" = json ]; then
		"$cap" -r "$1" --report --json
	else
		"$cap" -r "$1" --report
	fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-report-json.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
n=0
for sc in $("$mkscn" --list | cut -f1); do
	n=$((n + 1))
	pcap=$work/$sc.pcap
	if ! "$mkscn" "$sc" -o "$pcap" -t "$work/$sc.truth.json"; then
		echo "FAIL $sc: rocewire-mkscenario failed"
		fail=1
		continue
	fi
	report "$pcap" json >"$work/$sc.json" 2>"$work/$sc.err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $sc: --report --json exited with $rc: $(head -3 "$work/$sc.err")"
		fail=1
		continue
	fi
	python3 "$src/tests/e2e/report_check.py" "$work/$sc.truth.json" "$work/$sc.json" || fail=1

	report "$pcap" table >"$work/$sc.txt" 2>"$work/$sc.err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $sc: --report exited with $rc: $(head -3 "$work/$sc.err")"
		fail=1
		continue
	fi
	for want in "Flows by bytes" "ACK us p50/p99/max" "Totals" "ICRC ok" "capture drops"; do
		if ! grep -q "$want" "$work/$sc.txt"; then
			echo "FAIL $sc: the table has no \"$want\""
			fail=1
		fi
	done
done
if [ "$n" -lt 10 ]; then
	echo "FAIL: rocewire-mkscenario --list gave $n scenarios, expected 10"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "PASS: $n scenarios"
exit "$fail"
