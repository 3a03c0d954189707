# SPDX-License-Identifier: BSD-3-Clause
# rocewire-gen against a real RoCE v2 responder (README.md, "rocewire-gen
# into rxe"): rocewire-verbs server --fixed-peer waits on rxe0 (192.0.2.1);
# rocewire-gen, through DPDK's net_af_packet on veth1, plays the requester of
# host 192.0.2.2 (responder "external": open loop, it reads no response),
# aimed at the server's QPN, PSN, rkey and buffer from its "ready" line.
# tcpdump on veth0 sees the generated requests and rxe's answers.
#
# Run by vm_run only when rocewire-gen is built, with the DPDK plugins it
# needs (librte_net_af_packet, librte_bus_vdev, librte_mempool_ring: EAL
# dlopens them, ldd does not list them) in /usr/local/lib/dpdk-pmds, which
# EAL is given with -d.
#
# Each case NAME leaves NAME.pcap, NAME.yaml (the scenario as sent),
# NAME.server.{json,out,log,exit}, NAME.gen.{log,exit,json} and
# NAME.rxe0.{before,after} (rxe0's hw_counters); tests/vm/check_gen.py checks
# them with the same pattern and the case's OP, SIZE, MESSAGES and fault:
# the cases are gen-cases.txt's, which CMakeLists.txt reads too (vm_run
# copies it to /rw/gen-cases.txt).

GEN_QPN=4660        # 0x1234, the generator's QPN: rxe1 has no such QP
GEN_PAT=a55a0102    # the flow's pattern and the server's --expect-pattern
GEN_RATE=50Mbps     # a few thousand packets per second: rxe under TCG keeps up
GEN_EAL="-l 0 --no-huge --no-pci --no-shconf -m 256 -d /usr/local/lib/dpdk-pmds --vdev=net_af_packet0,iface=veth1"

# EAL keeps its run-time directory in /var/run when root.
mkdir -p /var/run

gen_counters() {
	local f
	for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
		echo "${f##*/} $(cat "$f")"
	done >"$1"
}

# gen_ready_field NAME KEY: an integer of the server's "ready" line.
gen_ready_field() {
	head -n 1 "$1.server.out" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"
}

# gen_case NAME OP SIZE MESSAGES PSN SELF-ENDING [YAML-LINE...]: the server
# for OP (rocewire-verbs spelling), SIZE, MESSAGES expecting PSN first; a
# flow at it; the YAML lines are added to the flow (or, from "faults:" on,
# after it). SELF-ENDING 1: the server ends when all of it has arrived; 0:
# it is stopped with SIGTERM a second after the generator ended (READ, a
# run that cannot complete).
gen_case() {
	local n="$1" op="$2" size="$3" msgs="$4" psn="$5" selfend="$6" g0 mac0 mac1 spid i=0 gop a
	local qpn epsn rkey addr len l
	shift 6
	g0=$(rw_gid rxe0)
	mac0=$(cat /sys/class/net/veth0/address)
	mac1=$(cat /sys/class/net/veth1/address)
	rw_log "gen $n: server --op $op --size $size --iters $msgs, expects PSN $psn from QPN $GEN_QPN"
	rocewire-verbs server --fixed-peer --device rxe0 --gid-index "$g0" --op "$op" \
		--size "$size" --iters "$msgs" --mtu 1024 --remote-qpn $GEN_QPN --remote-psn "$psn" \
		--remote-gid "$RW_B" --remote-mac "$mac1" --expect-pattern $GEN_PAT \
		--record "$n.server.json" --timeout 30 >"$n.server.out" 2>"$n.server.log" &
	spid=$!
	until [ -s "$n.server.out" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 $spid 2>/dev/null; then
			rw_log "gen $n: no ready line from the server"
			cat "$n.server.log"
			kill -TERM $spid 2>/dev/null
			wait $spid
			echo $? >"$n.server.exit"
			return 1
		fi
		sleep 0.05
	done
	qpn=$(gen_ready_field "$n" qpn)
	epsn=$(gen_ready_field "$n" expected_psn)
	rkey=$(gen_ready_field "$n" rkey)
	addr=$(gen_ready_field "$n" addr)
	len=$(gen_ready_field "$n" len)
	rw_log "gen $n: server QPN $qpn expects PSN $epsn, rkey $rkey addr $addr len $len"
	case "$op" in
	write_imm) gop=write_imm ;;
	*) gop=$op ;;
	esac
	{
		echo "name: $n"
		echo "hosts:"
		echo "  - {name: a, mac: \"$mac1\", ip: $RW_B}"
		echo "  - {name: b, mac: \"$mac0\", ip: $RW_A}"
		echo "flows:"
		echo "  - name: $n"
		echo "    from: a"
		echo "    to: b"
		echo "    transport: rc"
		echo "    responder: external"
		echo "    ops: $gop"
		echo "    size: $size"
		echo "    mtu: 1024"
		echo "    messages: $msgs"
		echo "    rate: $GEN_RATE"
		echo "    src_qpn: $GEN_QPN"
		echo "    dst_qpn: $qpn"
		echo "    initial_psn: $epsn"
		echo "    rkey: $rkey"
		echo "    va: $addr"
		echo "    remote_len: $len"
		echo "    pattern: \"$GEN_PAT\""
		l=flow
		for a in "$@"; do
			case "$a" in faults:*) l=top ;; esac
			if [ $l = flow ]; then echo "    $a"; else echo "$a"; fi
		done
	} >"$n.yaml"
	gen_counters "$n.rxe0.before"
	capture_start "$n" || return 1
	# shellcheck disable=SC2086 # GEN_EAL is a list of options
	run_logged "$n.gen" rocewire-gen $GEN_EAL -- --pace real --no-status \
		--summary-json "$n.gen.json" "$n.yaml"
	rw_log "gen $n: rocewire-gen exit $(cat "$n.gen.exit"): $(tail -n 2 "$n.gen.log" | tr '\n' ' ')"
	# Wait for the server: it ends by itself when everything arrived, or is
	# stopped once rxe has had time to answer (READ responses, the last ACK).
	i=0
	while kill -0 $spid 2>/dev/null; do
		i=$((i + 1))
		[ "$selfend" = 1 ] && [ $i -gt 200 ] && break
		[ "$selfend" = 0 ] && [ $i -gt 20 ] && break
		sleep 0.05
	done
	kill -TERM $spid 2>/dev/null
	wait $spid
	echo $? >"$n.server.exit"
	capture_stop
	gen_counters "$n.rxe0.after"
	dmesg | grep -i icrc >"$n.dmesg.txt"
	rw_log "gen $n: server exit $(cat "$n.server.exit"): $(tail -n 1 "$n.server.out")"
	return 0
}

# gen_fault NAME PSN KIND=I: the fault line of case NAME for its request I
# (the case's first PSN is PSN).
gen_fault() {
	local k="${3%%=*}" i="${3#*=}" a
	a=$k
	[ "$k" = drop ] && a="drop, dir: request"
	echo "  - {action: $a, flow: $1, psn: $((($2 + i) % 16777216))}"
}

# The cases, one a line of gen-cases.txt (read on fd 3: the programs keep
# stdin): NAME OP SIZE MESSAGES FIRST-PSN [imm=V] [corrupt=I | drop=I].
status=0
while read -r n op size msgs psn extra <&3; do
	case "$n" in '' | '#'*) continue ;; esac
	case "$op $extra" in
	*imm=*) gen_case "$n" "$op" "$size" "$msgs" "$psn" 1 "immediate: ${extra#imm=}" || status=1 ;;
	*corrupt=* | *drop=*)
		gen_case "$n" "$op" "$size" "$msgs" "$psn" 0 "faults:" "$(gen_fault "$n" "$psn" "$extra")" ||
			status=1 ;;
	read*) gen_case "$n" "$op" "$size" "$msgs" "$psn" 0 || status=1 ;;
	*) gen_case "$n" "$op" "$size" "$msgs" "$psn" 1 || status=1 ;;
	esac
done 3<"${RW_GEN_CASES:-/rw/gen-cases.txt}"
exit $status
