# Proves the VM part alone, with rdma-core's own ibv_rc_pingpong: a capture of
# an RC SEND exchange between rxe1 (client) and rxe0 (server).
capture_start selftest
g0=$(rw_gid rxe0)
g1=$(rw_gid rxe1)
run_logged selftest.server ibv_rc_pingpong -d rxe0 -g "$g0" -p 18400 -n 8 -s 2048 &
spid=$!
wait_listen 18400
run_logged selftest.client ibv_rc_pingpong -d rxe1 -g "$g1" -p 18400 -n 8 -s 2048 $RW_A
wait $spid
capture_stop
tcpdump -n -r selftest.pcap 2>&1 | head -n 5
cat selftest.server.log selftest.client.log
