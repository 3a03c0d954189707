# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=dash
# rocewire-replay into a live Soft-RoCE endpoint (run inside the VM by
# tests/replay/test_replay_vm.sh through tests/vm/rxe-vm.sh; helpers from
# tests/vm/guest/lib.sh).
#
# 1. Record: rocewire-verbs client (rxe1, 192.0.2.2) writes / sends to the
#    server (rxe0, 192.0.2.1); tcpdump on veth0 keeps rec_OP.pcap.
# 2. Replay: a new fixed-peer server on rxe0 waits with its own QPN, PSN,
#    rkey and buffer ("ready" line); rocewire-replay --target re-targets the
#    recorded requester stream to it and sends it out of veth1 through its
#    AF_PACKET ring. The server must find the recorded data (its --check of
#    the built-in pattern of QP index 0) and its receive completions, and
#    rxe's ACKs must come back (capture rep_OP.pcap on veth0).
# 3. The same with every ICRC corrupted (--corrupt-icrc 1): rxe drops all.
# Each replay case leaves NAME.{ready.json,server.out,server.log,server.exit,
# server.json,replay.log,replay.exit,replay.json,pcap,rxe0.before,rxe0.after}.

REPLAY_QPN=4660   # the server's peer QPN: no QP on rxe1, so rxe1 drops the ACKs

counters() {
	local f
	for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
		echo "${f##*/} $(cat "$f")"
	done >"$1"
}

# replay_case NAME OP SIZE ITERS RECORDING TIMEOUT [replay options]
replay_case() {
	local n=$1 op=$2 size=$3 iters=$4 rec=$5 to=$6 g0 mac0 mac1 spid i=0
	shift 6
	g0=$(rw_gid rxe0)
	mac0=$(cat /sys/class/net/veth0/address)
	mac1=$(cat /sys/class/net/veth1/address)
	rocewire-verbs server --fixed-peer --device rxe0 --gid-index "$g0" --op "$op" --size "$size" \
		--iters "$iters" --mtu 1024 --remote-qpn $REPLAY_QPN --remote-psn 777 --remote-gid "$RW_B" \
		--remote-mac "$mac1" --check --record "$n.server.json" --timeout "$to" \
		>"$n.server.out" 2>"$n.server.log" &
	spid=$!
	until [ -s "$n.server.out" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 $spid 2>/dev/null; then
			rw_log "replay $n: no ready line from the server: $(cat "$n.server.log")"
			kill -TERM $spid 2>/dev/null
			wait $spid
			echo $? >"$n.server.exit"
			return 1
		fi
		sleep 0.05
	done
	head -n 1 "$n.server.out" >"$n.ready.json"
	rw_log "replay $n: server ready: $(cat "$n.ready.json")"
	counters "$n.rxe0.before"
	capture_start "$n" || return 1
	run_logged "$n.replay" rocewire-replay -i veth1 --no-progress --target "$n.ready.json" \
		--src-mac "$mac1" --dst-mac "$mac0" --pps 2000 -j "$n.replay.json" "$@" "$rec"
	rw_log "replay $n: rocewire-replay exit $(cat "$n.replay.exit"): $(tr '\n' ' ' <"$n.replay.log")"
	i=0
	while kill -0 $spid 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt $((to * 20 + 40)) ] && break
		sleep 0.05
	done
	kill -TERM $spid 2>/dev/null
	wait $spid
	echo $? >"$n.server.exit"
	capture_stop
	counters "$n.rxe0.after"
	rw_log "replay $n: server exit $(cat "$n.server.exit"): $(tail -n 1 "$n.server.out")"
}

status=0
verbs_capture rec_write --transport rc --op write --size 4096 --iters 8 --timeout-exp 18 || status=1
verbs_capture rec_send --transport rc --op send --size 3001 --iters 8 --timeout-exp 18 || status=1
replay_case rep_write write 4096 8 rec_write.pcap 20 || status=1
replay_case rep_send send 3001 8 rec_send.pcap 20 || status=1
replay_case rep_corrupt write 4096 8 rec_write.pcap 4 --corrupt-icrc 1 || status=1
exit $status
