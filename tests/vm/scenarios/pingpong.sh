# SPDX-License-Identifier: BSD-3-Clause
# The VM part alone, with rdma-core's own ibv_rc_pingpong (no rocewire code
# on the wire): 8 round trips of 2048-byte RC SENDs between rxe1 and rxe0.
capture_start rc_pingpong
run_logged rc_pingpong.server ibv_rc_pingpong -d rxe0 -g "$(rw_gid rxe0)" -p 18400 -n 8 -s 2048 &
spid=$!
wait_listen 18400
run_logged rc_pingpong.client ibv_rc_pingpong -d rxe1 -g "$(rw_gid rxe1)" -p 18400 -n 8 -s 2048 "$RW_A"
wait $spid
capture_stop
