#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap's offline reader at its edges: extreme pcap/pcapng timestamps
# (printed exactly, or refused in one line naming the file, the packet and
# its byte offset), exact byte offsets in a pcapng file larger than 8 MiB
# with other blocks between the packets, Simple Packet Blocks, a file the
# mapped reader hands to libpcap halfway (a packet block longer than its
# ring), and blocks longer than the ring skipped unread. The captures are
# written by offline_edge_caps.py from Scapy's known-answer frames; every
# case asserts the exact output.
#
# Environment: ROCEWIRE_CAP (the rocewire-cap binary). Exit 77 (skip) when it
# or python3 is missing.
set -u

CAP=${ROCEWIRE_CAP:-}
if [ -z "$CAP" ] || [ ! -x "$CAP" ]; then
	echo "SKIP: ROCEWIRE_CAP is not set to the rocewire-cap binary (got '${CAP}')"
	exit 77
fi
PY=$(command -v python3 || true)
if [ -z "$PY" ]; then
	echo "SKIP: python3 is needed to write the test captures"
	exit 77
fi
HERE=$(cd "$(dirname "$0")" && pwd)

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
"$PY" "$HERE/offline_edge_caps.py" || { echo "FAIL: could not write the test captures"; exit 1; }
# shellcheck disable=SC1091
. ./offsets.sh
export TZ=UTC # line output shows local time

FAILS=0
CHECKS=0
RANGE="expected a time from 1970-01-01 to 2554-07-21 UTC"
CNP_LINE="rocev2 10.0.17.1 > 10.0.18.1: CNP dqpn 0x000118 psn 0 becn ecn ECT(0) icrc ok"
SEND_LINE="rocev2 192.168.0.7 > 192.168.0.7: UC_SEND_ONLY dqpn 0x0000d3 psn 13571856 payload 18 ecn ECT(1) icrc ok"

# check NAME EXPECTED_RC EXPECTED_STDOUT EXPECTED_STDERR_LINES -- ARGS...:
# runs rocewire-cap ARGS; stdout (only its JSON "time" members when JSON=1)
# must equal EXPECTED_STDOUT, and stderr, less the closing summary's
# indented lines, EXPECTED_STDERR_LINES.
JSON=0
check() {
	local name=$1 want_rc=$2 want_out=$3 want_err=$4
	shift 5
	CHECKS=$((CHECKS + 1))
	"$CAP" "$@" >out 2>err
	local rc=$? bad=0
	grep -v '^  ' err >err.main
	if [ "$JSON" = 1 ]; then
		sed -n 's/.*"time":"\([^"]*\)".*/\1/p' out >out.json
		mv out.json out
	fi
	if [ "$rc" -ne "$want_rc" ]; then
		echo "FAIL: $name: exit status $rc, expected $want_rc"
		bad=1
	fi
	if [ "$(cat out)" != "$want_out" ]; then
		echo "FAIL: $name: stdout differs"
		diff <(printf '%s\n' "$want_out") out | sed 's/^/  /'
		bad=1
	fi
	if [ "$(cat err.main)" != "$want_err" ]; then
		echo "FAIL: $name: stderr differs"
		diff <(printf '%s\n' "$want_err") err.main | sed 's/^/  /'
		bad=1
	fi
	FAILS=$((FAILS + bad))
}

# ---- timestamps ---------------------------------------------------------------
check "2^64-1 ns (the last representable instant), lines" 0 \
	"23:34:33.709551615 $CNP_LINE" \
	"rocewire-cap: 1 packet read from 1 file" -- -r ts_max.pcapng

JSON=1 check "2^64-1 ns, JSON time" 0 \
	"18446744073.709551615" \
	"rocewire-cap: 1 packet read from 1 file" -- --json -r ts_max.pcapng

check "2^64-1 ns + if_tsoffset 1 s" 1 "" \
	"ts_over.pcapng: packet 1 at byte offset $TS_OVER: timestamp out of range: 18446744074 s since 1970-01-01 UTC (18446744073709551615 units of 10^-9 s, if_tsoffset 1 s); $RANGE
rocewire-cap: 0 packets read from 1 file" -- -r ts_over.pcapng

check "if_tsoffset 2^63-1 s" 1 "" \
	"ts_huge.pcapng: packet 1 at byte offset $TS_HUGE: timestamp out of range: 9223372036854775807 s since 1970-01-01 UTC (5 units of 10^-9 s, if_tsoffset 9223372036854775807 s); $RANGE
rocewire-cap: 0 packets read from 1 file" -- -r ts_huge.pcapng

check "negative if_tsoffset: before 1970 on packet 2" 1 \
	"00:00:00.000000000 $CNP_LINE" \
	"ts_neg.pcapng: packet 2 at byte offset $TS_NEG: timestamp out of range: -1 s since 1970-01-01 UTC (1699999999000000 units of 10^-6 s, if_tsoffset -1700000000 s); $RANGE
rocewire-cap: 1 packet read from 1 file" -- -r ts_neg.pcapng

check "seconds resolution, a raw time near 2^64" 1 "" \
	"ts_sec.pcapng: packet 1 at byte offset $TS_SEC: timestamp out of range: 18446744073709551614 s since 1970-01-01 UTC (18446744073709551614 units of 1 s, if_tsoffset 0 s); $RANGE
rocewire-cap: 0 packets read from 1 file" -- -r ts_sec.pcapng

JSON=1 check "if_tsresol 2^-40: exact fractions" 0 \
	"1700000000.500000000
1700000001.750000000" \
	"rocewire-cap: 2 packets read from 1 file" -- --json -r ts_bin.pcapng

check "if_tsresol 10^-12: picoseconds cut to nanoseconds" 0 \
	"22:13:20.123456789 $CNP_LINE" \
	"rocewire-cap: 1 packet read from 1 file" -- -r ts_pico.pcapng

check "pcap: 1500000 us carried into the seconds" 0 \
	"22:13:21.500000000 $CNP_LINE" \
	"rocewire-cap: 1 packet read from 1 file" -- -r usec_over.pcap

check "pcap: 4294967295 ns carried into the seconds" 0 \
	"22:13:24.294967295 $CNP_LINE" \
	"rocewire-cap: 1 packet read from 1 file" -- -r nsec_over.pcap

# ---- offsets past 8 MiB ------------------------------------------------------------
check "pcapng of 13 MB: a warning and a cut, each after a statistics block" 1 "" \
	"big.pcapng: packet 100000 at byte offset $BIG_WARN: cut by snaplen to 48 of 78 bytes: BTH truncated at byte 42: 12 bytes needed, 6 captured (cut by the capture's snapshot length)
big.pcapng: packet 120001 at byte offset $BIG_CUT: file ends inside a pcapng block: $BIG_CUT_WANT bytes expected, $BIG_CUT_GOT present
rocewire-cap: 120000 packets read from 1 file" -- -q -r big.pcapng

check "the same offsets with -c stopping before the cut" 1 "" \
	"big.pcapng: packet 100000 at byte offset $BIG_WARN: cut by snaplen to 48 of 78 bytes: BTH truncated at byte 42: 12 bytes needed, 6 captured (cut by the capture's snapshot length)
rocewire-cap: 100001 packets read from 1 file" -- -q -c 100001 -r big.pcapng

# ---- Simple Packet Blocks; libpcap reads on -----------------------------------------
check "a Simple Packet Block (no timestamp), offsets stay exact" 1 \
	"22:13:20.000000000 $CNP_LINE
22:13:20.000001000 $SEND_LINE
00:00:00.000000000 $CNP_LINE
22:13:20.000003000 rocev2 192.168.0.7 > 192.168.0.7: ecn ECT(1) [cut by snaplen to 48 of 78 bytes: BTH truncated at byte 42: 12 bytes needed, 6 captured (cut by the capture's snapshot length)]" \
	"spb.pcapng: packet 4 at byte offset $SPB_WARN: cut by snaplen to 48 of 78 bytes: BTH truncated at byte 42: 12 bytes needed, 6 captured (cut by the capture's snapshot length)
rocewire-cap: 4 packets read from 1 file" -- -r spb.pcapng

check "the same file from standard input (libpcap throughout)" 1 \
	"22:13:20.000000000 $CNP_LINE
22:13:20.000001000 $SEND_LINE
00:00:00.000000000 $CNP_LINE
22:13:20.000003000 rocev2 192.168.0.7 > 192.168.0.7: ecn ECT(1) [cut by snaplen to 48 of 78 bytes: BTH truncated at byte 42: 12 bytes needed, 6 captured (cut by the capture's snapshot length)]" \
	"-: packet 4 at byte offset $SPB_WARN: cut by snaplen to 48 of 78 bytes: BTH truncated at byte 42: 12 bytes needed, 6 captured (cut by the capture's snapshot length)
rocewire-cap: 4 packets read from 1 file" -- -r - <spb.pcapng

BIG_LINES="22:13:20.000000000 $CNP_LINE
22:13:20.000001000 $SEND_LINE
22:13:20.000002000 other 7c:fe:90:64:3b:32 > e4:1d:2d:ab:2b:c2: eth type 0x88b5
22:13:20.000003000 rocev2 192.168.0.7 > 192.168.0.7: ecn ECT(1) [cut by snaplen to 48 of 78 bytes: BTH truncated at byte 42: 12 bytes needed, 6 captured (cut by the capture's snapshot length)]"
check "a packet block longer than the ring: libpcap reads on, offsets stay exact" 1 \
	"$BIG_LINES" \
	"bigepb.pcapng: packet 4 at byte offset $BIG_READON_WARN: cut by snaplen to 48 of 78 bytes: BTH truncated at byte 42: 12 bytes needed, 6 captured (cut by the capture's snapshot length)
rocewire-cap: 4 packets read from 1 file" -- -r bigepb.pcapng

check "the same block in a file of two link types, which libpcap cannot read" 1 \
	"22:13:20.000000000 $CNP_LINE" \
	"bigepb_mixed.pcapng: packet 2 at byte offset $BIG_MIXED: a packet block of 140032 bytes: rocewire-cap reads blocks of up to 131072 bytes and leaves longer ones to libpcap, which cannot read this file (its interfaces differ in link type or snapshot length)
rocewire-cap: 1 packet read from 1 file" -- -r bigepb_mixed.pcapng

check "blocks longer than the ring skipped unread, over two sections of two byte orders" 0 \
	"22:13:20.000000000 $CNP_LINE
22:13:20.000001000 $SEND_LINE
22:13:20.000002000 $CNP_LINE
22:13:20.000003000 $SEND_LINE" \
	"rocewire-cap: 4 packets read from 1 file" -- -r bigskip.pcapng

# ---- the two readers agree --------------------------------------------------------
# Every cut of four captures (both byte orders, pcap and pcapng) read from a
# file (rocewire-cap's own reader) and from standard input (libpcap): the
# same lines, the same messages (the name aside), the same exit status.
for f in agree_le.pcap agree_be.pcap agree_le.pcapng agree_be.pcapng; do
	size=$(wc -c <"$f")
	CHECKS=$((CHECKS + 1))
	bad=0
	ext=${f##*.}
	# every 5th byte in the headers, then 30 places over the records
	for cut in $(seq 0 5 120) $(seq 121 $((size / 30)) "$size") "$size"; do
		head -c "$cut" "$f" >"cut.$ext"
		"$CAP" -v -r "cut.$ext" >own.out 2>&1
		echo "rc=$?" >>own.out
		"$CAP" -v -r - <"cut.$ext" 2>&1 | sed "s|^-: |cut.$ext: |" >pcap.out
		echo "rc=${PIPESTATUS[0]}" >>pcap.out
		if ! cmp -s own.out pcap.out; then
			[ "$bad" -eq 0 ] && { echo "FAIL: $f cut to $cut bytes: the readers differ"; diff own.out pcap.out | head -6 | sed 's/^/  /'; }
			bad=1
		fi
	done
	FAILS=$((FAILS + bad))
done

# ---- the reader thread at its limits ---------------------------------------------
# Skipped blocks that fill the reader's ring, blocks longer than the ring
# skipped unread past records still in use, and frames of 100,000 bytes: the
# same output with the reader thread, on one thread, and through libpcap.
for f in manyblocks.pcapng bigskips.pcapng bigframes.pcap; do
	for args in "-v" "--report"; do
		CHECKS=$((CHECKS + 1))
		# shellcheck disable=SC2086
		ROCEWIRE_CAP_THREADS=2 timeout 120 "$CAP" $args -r "$f" >two.out 2>&1
		echo "rc=$?" >>two.out
		# shellcheck disable=SC2086
		ROCEWIRE_CAP_THREADS=1 timeout 120 "$CAP" $args -r "$f" >one.out 2>&1
		echo "rc=$?" >>one.out
		# shellcheck disable=SC2086
		timeout 120 "$CAP" $args -r - <"$f" 2>&1 | sed "s|^-: |$f: |; s|report: -\$|report: $f|" >pcap.out
		echo "rc=${PIPESTATUS[0]}" >>pcap.out
		if ! cmp -s two.out one.out || ! cmp -s two.out pcap.out; then
			echo "FAIL: $f $args: the reader thread, one thread and libpcap differ"
			diff two.out one.out | head -4 | sed 's/^/  /'
			diff two.out pcap.out | head -4 | sed 's/^/  /'
			FAILS=$((FAILS + 1))
		fi
	done
done

echo "$((CHECKS - FAILS)) of $CHECKS cases passed"
[ "$FAILS" -eq 0 ]
