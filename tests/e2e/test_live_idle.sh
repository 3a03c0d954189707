#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# An idle interface never hangs rocewire-cap: "-c 5" on a veth where nothing
# arrives ends promptly on SIGINT (and on SIGTERM), and --duration ends the
# capture by itself; each leaves a valid, empty pcap or pcapng file under its
# final name (no FILE.XXXXXX.part) that tshark and rocewire-cap read without error;
# two signals close together end it as cleanly as one.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/live_common.sh"
need_tools
ns_setup

now() { date +%s%N; }

# check_file FILE: complete, readable, empty
check_file() {
	local f=$1
	ls "$f".*.part >/dev/null 2>&1 && fail "$(ls "$f".*.part) was left behind"
	[ -s "$f" ] || { fail "$f is missing or empty"; return; }
	tshark_ok "$f" || return
	local n
	n=$(frames "$f")
	[ "$n" = 0 ] || fail "$f holds $n frames, expected none"
	"$CAP" -q -r "$f" 2>"$WORK/read.err"
	local rc=$?
	[ $rc = 0 ] || fail "rocewire-cap -r $f: status $rc: $(cat "$WORK/read.err")"
}

for sig in INT TERM; do
	for fmt in pcap pcapng; do
		f=idle-$sig.$fmt
		start_cap "e_$f" "o_$f" -i vB -c 5 -w "$f" -q || continue
		sleep 1
		t0=$(now)
		kill -$sig "$CAP_PID"
		wait_cap 5
		ms=$((($(now) - t0) / 1000000))
		if [ "$CAP_RC" = 0 ] && [ $ms -lt 2000 ]; then
			ok "-c 5 on an idle interface: SIG$sig ended it in $ms ms ($fmt)"
		else
			fail "SIG$sig: status $CAP_RC after $ms ms ($fmt): $(tail -n 2 "e_$f")"
		fi
		grep -q "0 packets received by filter, 0 dropped by kernel, 0 dropped by interface" "e_$f" ||
			fail "no final drop line after SIG$sig: $(tail -n 1 "e_$f")"
		check_file "$f"
	done
done

# The same under timeout(1), as a user would run it.
t0=$(now)
in_b timeout --preserve-status -s INT 1.5 "$CAP" -i vB -c 5 -w timeout.pcap -q 2>e_timeout
rc=$?
ms=$((($(now) - t0) / 1000000))
if [ $rc = 0 ] && [ $ms -lt 3500 ]; then
	ok "timeout -s INT 1.5: ended after $ms ms"
else
	fail "timeout -s INT 1.5: status $rc after $ms ms: $(tail -n 2 e_timeout)"
fi
check_file timeout.pcap

# Two signals close together are one: timeout(1) and a terminal's ^C signal
# the program and then its process group, and a loaded machine may deliver
# them apart (the second used to kill the capture and leave FILE.part).
start_cap e_twice o_twice -i vB -c 5 -w twice.pcap -q && {
	sleep 1
	kill -INT "$CAP_PID"
	sleep 0.05
	kill -INT "$CAP_PID" 2>/dev/null
	wait_cap 5
	if [ "$CAP_RC" = 0 ]; then
		ok "two SIGINTs 50 ms apart: a clean end"
	else
		fail "two SIGINTs 50 ms apart: status $CAP_RC: $(tail -n 2 e_twice)"
	fi
	check_file twice.pcap
}

# --duration stops by itself.
for fmt in pcap pcapng; do
	t0=$(now)
	in_b "$CAP" -i vB -c 5 --duration 1 -w "dur.$fmt" -q 2>"e_dur.$fmt"
	rc=$?
	ms=$((($(now) - t0) / 1000000))
	if [ $rc = 0 ] && [ $ms -ge 900 ] && [ $ms -lt 3000 ]; then
		ok "--duration 1 ended the capture after $ms ms ($fmt)"
	else
		fail "--duration 1: status $rc after $ms ms ($fmt): $(tail -n 2 "e_dur.$fmt")"
	fi
	check_file "dur.$fmt"
done

exit $FAILED
