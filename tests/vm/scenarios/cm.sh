# SPDX-License-Identifier: BSD-3-Clause
# rdma_cm over RoCE v2, with rdmacm-utils' rping (no rocewire code on the
# wire): rping -s listens on 192.0.2.1 (rxe0), rping -c on 192.0.2.2 (rxe1)
# connects, pings 4 times with 64 bytes and disconnects. The capture holds
# the CM handshake (REQ, REP, RTU: MADs to QP 1), rping's RC traffic (SEND
# both ways, the server's READ and WRITE) and the disconnect (DREQ, DREP).
#
# What the kernel knows, for tests/vm/check_cm.py to compare with the capture:
#   rc_rping_cm.trace.txt  the rdma_cma and ib_cm trace events of the run
#                          (cm_qp_create: each side's QP number with its
#                          addresses; ib_cm's communication IDs)
#   rc_rping_cm.res.txt    "UPTIME qp JSON" / "UPTIME cm_id JSON" lines: rdma -j
#                          res show qp / cm_id, polled while the client runs
#                          (a poll takes longer than the connection lives
#                          under TCG: the samples catch what they catch)
# rping -v's output is in rc_rping_cm.{server,client}.log.
CM_PORT=7174
n=rc_rping_cm
T=/sys/kernel/tracing

# cm_listening: rping's listening cm_id is known to the kernel (rdma_cm
# listens on no TCP port: wait_listen does not apply).
cm_listening() {
	rdma res show cm_id 2>/dev/null | grep -q "state LISTEN.*src-addr $RW_A:$CM_PORT"
}

# Both rxe devices number their first QP 17: a QP held on rxe0 during the
# run (ibv_rc_pingpong waiting for a peer that never comes) makes the two
# sides' QP numbers differ, so that the checks can tell them apart.
run_logged $n.hold ibv_rc_pingpong -d rxe0 -g "$(rw_gid rxe0)" -p 18409 &
hpid=$!
wait_listen 18409 || rw_log "cm $n: ibv_rc_pingpong (the QP held on rxe0) not listening"

[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
if [ -d $T/events/rdma_cma ]; then
	echo >$T/trace
	echo 1 >$T/events/rdma_cma/enable
	[ -d $T/events/ib_cm ] && echo 1 >$T/events/ib_cm/enable
	echo 1 >$T/tracing_on
else
	rw_log "cm $n: no rdma_cma trace events ($T)"
fi

capture_start $n || exit 1
rw_log "cm $n: rping -s on $RW_A (rxe0), rping -c from $RW_B (rxe1)"
run_logged $n.server rping -s -v -V -a "$RW_A" -p $CM_PORT -C 4 -S 64 &
spid=$!
i=0
until cm_listening; do
	i=$((i + 1))
	if [ $i -gt 200 ] || ! kill -0 $spid 2>/dev/null; then
		rw_log "cm $n: rping -s is not listening"
		break
	fi
	sleep 0.05
done
rw_log "cm $n: server listening"
: >$n.res.txt
(
	while [ ! -e $n.client.exit ]; do
		t=$(cut -d' ' -f1 /proc/uptime)
		echo "$t qp $(rdma -j res show qp 2>&1)"
		echo "$t cm_id $(rdma -j res show cm_id 2>&1)"
	done >>$n.res.txt
) &
rpid=$!
run_logged $n.client rping -c -v -V -I "$RW_B" -a "$RW_A" -p $CM_PORT -C 4 -S 64
wait $spid
wait $rpid
capture_stop
if [ -d $T/events/rdma_cma ]; then
	echo 0 >$T/tracing_on
	echo 0 >$T/events/rdma_cma/enable
	[ -d $T/events/ib_cm ] && echo 0 >$T/events/ib_cm/enable
	cat $T/trace >$n.trace.txt
fi
kill $hpid 2>/dev/null
wait $hpid
rw_log "cm $n: server exit $(cat $n.server.exit), client exit $(cat $n.client.exit); $(grep -c cm_qp_create $n.trace.txt 2>/dev/null) QPs traced, $(wc -l <$n.res.txt) sample lines"
[ "$(cat $n.server.exit)" = 0 ] && [ "$(cat $n.client.exit)" = 0 ]
