#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-gen on bad input: every bad scenario of tests/e2e/bad-scenarios/
# (its first line says "# expect: LINE:COL: message") and bad options give
# exactly one line on stderr naming what and where, exit status 2, and no
# file; a run with no DPDK port, or an output it cannot create, exit 1 with
# one line and leave nothing behind; SIGINT in the middle of a run leaves a
# whole pcap and a summary that says it was interrupted and counts what the
# file holds.
# Env: ROCEWIRE_GEN, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR.
set -u
gen=${ROCEWIRE_GEN:-}
cap=${ROCEWIRE_CAP:-}
src=${ROCEWIRE_SOURCE_DIR:-}
if [ -z "$gen" ] || [ ! -x "$gen" ] || [ -z "$cap" ] || [ ! -x "$cap" ]; then
	echo "FAIL: set ROCEWIRE_GEN and ROCEWIRE_CAP" >&2
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-gen-err.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
checks=0

# expect STATUS PATTERN CMD...: exit STATUS, one stderr line matching the
# grep -E PATTERN, nothing new in the work directory.
expect() {
	want=$1
	pat=$2
	shift 2
	checks=$((checks + 1))
	before=$(ls -A "$work" | sort)
	"$@" >"$work/.out" 2>"$work/.err"
	rc=$?
	lines=$(wc -l <"$work/.err")
	after=$(ls -A "$work" | grep -v '^\.\(out\|err\)$' | sort)
	before=$(printf '%s\n' "$before" | grep -v '^\.\(out\|err\)$')
	if [ "$rc" -ne "$want" ] || [ "$lines" -ne 1 ] || ! grep -Eq -- "$pat" "$work/.err" ||
		[ "$before" != "$after" ]; then
		echo "FAIL: $*: exit $rc (want $want), $lines stderr line(s) (want 1 matching '$pat'):" >&2
		sed 's/^/    /' "$work/.err" >&2
		[ "$before" != "$after" ] && echo "    files left: $after" >&2
		fails=$((fails + 1))
	fi
}

# Every bad scenario: its expected position and message, exit 2.
for f in "$src"/tests/e2e/bad-scenarios/*.yaml; do
	want=$(sed -n '1s/^# expect: //p' "$f")
	pos=${want%%: *}
	msg=${want#*: }
	# the message as a fixed string inside the one line
	esc=$(printf '%s' "$msg" | sed 's/[][\.*^$()+?{}|]/\\&/g')
	expect 2 "^rocewire-gen: $f:$pos: $esc\$" "$gen" --check "$f"
done

# Options.
expect 2 "unknown option '--frobnicate'" "$gen" --frobnicate
expect 2 "--duration: expected a time" "$gen" --duration 10parsecs
expect 2 "--duration: expected a time" "$gen" -d 0
expect 2 "--pace: expected real, none or auto, got 'fast'" "$gen" --pace fast
expect 2 "--burst: expected 1..512, got '0'" "$gen" --burst 0
expect 2 "--role: expected responder or both, got 'switch'" "$gen" --role switch
expect 2 "--role responder: the built-in scenario has no congestion section in mode closed_loop" "$gen" --role responder
expect 2 "congestion mode closed_loop needs a real port" "$gen" "$src/tests/e2e/closed-loop.yaml"
expect 2 "--packets: expected a count above 0" "$gen" -n -5
expect 2 "option '-w' needs a value" "$gen" -w
expect 2 "one scenario file at most" "$gen" a.yaml b.yaml
expect 2 "no-such.yaml: cannot open" "$gen" no-such.yaml
expect 2 "--write: a file name with ','" "$gen" -w "a,b.pcap"
printf 'hosts: [\n' >"$work/broken.yaml"
checks=$((checks + 1))
"$gen" --check "$work/broken.yaml" 2>"$work/.err"
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "broken.yaml:[0-9]*:[0-9]*: " "$work/.err"; then
	echo "FAIL: a YAML syntax error: exit $rc, $(cat "$work/.err")" >&2
	fails=$((fails + 1))
fi
rm -f "$work/broken.yaml"

# Run-time failures: exit 1, one line, nothing left.
expect 1 "no DPDK port" "$gen" --no-huge --no-pci --no-shconf -m 256 --no-telemetry \
	--log-level='*:critical' -- -n 10
expect 1 "/no/such/dir/x.pcap: No such file or directory" "$gen" -w /no/such/dir/x.pcap -n 10

# SIGINT in the middle: a whole pcap, an honest summary. 200 Mb/s in real
# time, a few MB in the three seconds.
checks=$((checks + 1))
cat >"$work/slow.yaml" <<'YAML'
name: slow
hosts:
  - {name: a, mac: "02:00:00:00:00:01", ip: 10.0.0.1}
  - {name: b, mac: "02:00:00:00:00:02", ip: 10.0.0.2}
flows:
  - {name: w, from: a, to: b, transport: rc, ops: {write: 1, read: 1}, size: 8KiB, rate: 200Mbps, qps: 2}
YAML
"$gen" -w "$work/int.pcap" --pace real --summary-json "$work/int.json" -Q "$work/slow.yaml" \
	2>"$work/int.err" &
pid=$!
sleep 3
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -ne 0 ] || [ ! -s "$work/int.pcap" ] || [ ! -s "$work/int.json" ]; then
	echo "FAIL: SIGINT: exit $rc, pcap/summary missing: $(cat "$work/int.err")" >&2
	fails=$((fails + 1))
else
	n=$("$cap" -q -r "$work/int.pcap" 2>&1 | sed -n 's/^rocewire-cap: \([0-9]*\) packets read.*/\1/p')
	crc=$?
	/usr/bin/python3 - "$work/int.json" "$n" <<'PY' || fails=$((fails + 1))
import json, sys
s = json.load(open(sys.argv[1]))
n = int(sys.argv[2] or -1)
if not s["interrupted"] or s["packets"] != n or n <= 0:
    print("FAIL: SIGINT: summary interrupted=%s packets=%d, the file holds %d" %
          (s["interrupted"], s["packets"], n), file=sys.stderr)
    sys.exit(1)
PY
	ls "$work"/int.pcap.* >/dev/null 2>&1 && { echo "FAIL: SIGINT left a temporary file" >&2; fails=$((fails + 1)); }
	: "$crc"
fi

if [ "$fails" -ne 0 ]; then
	echo "FAIL: $fails of $checks checks" >&2
	exit 1
fi
echo "ok: $checks checks"
