# Shared by the tests that run rocewire-gen on a veth between two network
# namespaces (test_gen_closed_loop.sh, test_gen_responder_ops.sh); sourced,
# not run. Checks the environment (ROCEWIRE_GEN, ROCEWIRE_CAP, root, ip),
# makes $work, the namespaces $nsa and $nsb and the veth pair va (in $nsa) -
# vb (in $nsb), both up, and removes them all at exit, with the background
# processes listed in $pids. Exit 77 (skip) with the reason when it cannot.
# It sets $py, $gen, $cap, $src and $eal (the EAL options of both processes).
. "$(dirname "$0")/gen_env.sh"
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, packet sockets)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-gennet.XXXXXX")
nsa=rwgna$$
nsb=rwgnb$$
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$nsa" && ip netns add "$nsb" || skip "cannot create network namespaces"
ip -n "$nsa" link add va type veth peer name vb netns "$nsb" || skip "cannot create a veth pair"
ip -n "$nsa" link set va up && ip -n "$nsb" link set vb up
eal="--no-huge -m 256 --no-pci --no-shconf --log-level=*:error"

# gen_pair SCENARIO RESPONDER-SECONDS: rocewire-cap on vb writing
# $work/cap.pcap, `--role responder` on vb, then the requester on va; both
# summaries in $work/resp.json and $work/req.json. Fails the test when either
# exits non-zero.
gen_pair() {
	ip netns exec "$nsb" "$cap" -i vb -w "$work/cap.pcap" -q 2>"$work/cap.err" &
	pids="$pids $!"
	# each process on its own core: a responder starved of the CPU answers
	# late, and the capture would show it
	# shellcheck disable=SC2086
	ip netns exec "$nsb" "$gen" $eal -l 0 --file-prefix "$nsb" --vdev=net_af_packet0,iface=vb,qdisc_bypass=0 -- \
		--role responder -d "$2" -Q -j "$work/resp.json" "$1" 2>"$work/resp.err" &
	rpid=$!
	sleep 1.5
	# shellcheck disable=SC2086
	if ! ip netns exec "$nsa" "$gen" $eal -l 1 --file-prefix "$nsa" --vdev=net_af_packet0,iface=va,qdisc_bypass=0 -- \
		-Q -j "$work/req.json" "$1" 2>"$work/req.err"; then
		echo "FAIL: the requester exited non-zero:" >&2
		cat "$work/req.err" >&2
		exit 1
	fi
	if ! wait "$rpid"; then
		echo "FAIL: the responder exited non-zero:" >&2
		cat "$work/resp.err" >&2
		exit 1
	fi
	sleep 0.5
	for p in $pids; do kill -INT "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	pids=""
}
