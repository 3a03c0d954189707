# SPDX-License-Identifier: BSD-3-Clause
# Shared by the tests that run rocewire-gen on a veth between two network
# namespaces (test_gen_closed_loop.sh, test_gen_responder_ops.sh); sourced,
# not run. Checks the environment (ROCEWIRE_GEN, ROCEWIRE_CAP, root, ip),
# makes $work, the namespaces $nsa and $nsb and the veth pair vA (in $nsa) -
# vB (in $nsb) with live_common.sh's ns_setup, and removes them all at
# exit, with the background processes listed in $BG_PIDS. Exit 77 (skip)
# with the reason when it cannot.
# It sets $py, $gen, $cap, $src and $eal (the EAL options of both processes).
. "$(dirname "$0")/gen_env.sh"
. "$(dirname "$0")/live_common.sh"
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, packet sockets)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
ns_setup # live_common.sh: $NS_A (vA) and $NS_B (vB), $WORK, removed at exit
nsa=$NS_A
nsb=$NS_B
work=$WORK
eal="--no-huge -m 256 --no-pci --no-shconf --log-level=*:error"

# gen_capture_start: rocewire-cap on vB writing $work/cap.pcap, in the
# background (stopped by gen_stop_bg).
gen_capture_start() {
	ip netns exec "$nsb" "$cap" -i vB -w "$work/cap.pcap" -q 2>"$work/cap.err" &
	BG_PIDS="$BG_PIDS $!"
}

# gen_responder_start SCENARIO SECONDS: `--role responder` on vB in the
# background ($rpid), summary in $work/resp.json. Each side runs on its own
# core: a responder starved of the CPU answers late, and the capture would
# show it.
gen_responder_start() {
	# shellcheck disable=SC2086
	ip netns exec "$nsb" "$gen" $eal -l 0 --file-prefix "$nsb" --vdev=net_af_packet0,iface=vB,qdisc_bypass=0 -- \
		--role responder -d "$2" -Q -j "$work/resp.json" "$1" 2>"$work/resp.err" &
	rpid=$!
}

# gen_responder_wait: fails the test when the responder exited non-zero.
gen_responder_wait() {
	if ! wait "$rpid"; then
		echo "FAIL: the responder exited non-zero:" >&2
		cat "$work/resp.err" >&2
		exit 1
	fi
}

# gen_requester NAME SCENARIO: rocewire-gen on vA, summary in
# $work/NAME.json, stderr in $work/NAME.err; fails the test when it exits
# non-zero.
gen_requester() {
	# shellcheck disable=SC2086
	if ! ip netns exec "$nsa" "$gen" $eal -l 1 --file-prefix "$nsa" --vdev=net_af_packet0,iface=vA,qdisc_bypass=0 \
		-- -Q -j "$work/$1.json" "$2" 2>"$work/$1.err"; then
		echo "FAIL: the requester of $2 exited non-zero:" >&2
		cat "$work/$1.err" >&2
		exit 1
	fi
}

# gen_stop_bg: the background processes ($BG_PIDS) stopped with SIGINT (the
# capture closes its file) and waited for.
gen_stop_bg() {
	sleep 0.5
	for p in $BG_PIDS; do kill -INT "$p" 2>/dev/null; done
	for p in $BG_PIDS; do wait "$p" 2>/dev/null; done
	BG_PIDS=""
}

# gen_pair SCENARIO RESPONDER-SECONDS: the capture, the responder, then the
# requester (summary $work/req.json); fails the test when either exits
# non-zero.
gen_pair() {
	gen_capture_start
	gen_responder_start "$1" "$2"
	sleep 1.5
	gen_requester req "$1"
	gen_responder_wait
	gen_stop_bg
}
