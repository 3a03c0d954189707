# SPDX-License-Identifier: BSD-3-Clause
# Helpers for the command files run inside the Soft-RoCE VM (busybox sh).
# Sourced by /init before each command file; the working directory is
# /tmp/out (tmpfs), whose content is copied to the host after the file ran.
#
#   A side: veth0 192.0.2.1, rxe0      B side: veth1 192.0.2.2, rxe1
#
#   capture_start NAME [DEV [FILTER]]   tcpdump to NAME.pcap (default veth0,
#                                       "udp port 4791")
#   capture_stop                        stop it, wait until the file is complete
#   netem DEV ARGS...                   netem ARGS on DEV's egress, for RoCE v2
#                                       packets only (prio + u32 on UDP 4791)
#   netem_clear [NAME]                  remove it from both veths (statistics
#                                       in NAME.qdisc.txt)
#   verbs_pair NAME ARGS... [--server ARGS...] [--client ARGS...]
#                                       rocewire-verbs server on rxe0, client on
#                                       rxe1; ARGS to both, the others to one
#                                       side; NAME.{server,client}.{json,log,exit}
#   verbs_capture NAME ARGS...          verbs_pair NAME ARGS... inside capture NAME
#   counters_snapshot NAME WHEN         rxe0's and rxe1's hw_counters to
#                                       NAME.counters-WHEN.rxeN.txt (sysfs form)
#                                       and NAME.rdma-WHEN.rxeN.txt (rdma form)
#   verbs_capture_counted NAME ARGS...  verbs_capture between two snapshots
#   rw_gid DEV                          the IPv4-mapped RoCE v2 GID index of DEV
#   run_logged NAME CMD...              run CMD with a timeout, log + exit file
#
# iproute2's ip/tc, rdma and tcpdump are real binaries; busybox would run its
# own ip/tc applets whatever PATH says, hence these functions.

RW_A=192.0.2.1
RW_B=192.0.2.2
RW_TIMEOUT=${RW_TIMEOUT:-60}

ip() { /usr/sbin/ip "$@"; }
tc() { /usr/sbin/tc "$@"; }
rdma() { /usr/bin/rdma "$@"; }
tcpdump() { /usr/bin/tcpdump "$@"; }

# rw_log MESSAGE: to the command file's log and, for live progress and
# post-mortems of hung runs, to the serial console.
rw_log() {
	echo "[$(cut -d' ' -f1 /proc/uptime)] $*"
	echo "[$(cut -d' ' -f1 /proc/uptime)] $*" >/dev/console
}

rw_net_setup() {
	local mac0 mac1 i=0 d
	set -e
	ip link set lo up
	ip link add veth0 type veth peer name veth1
	for d in veth0 veth1; do
		# No IPv6 on the veths: no router solicitations or MLD reports in the
		# captures, and no GIDs other than the MAC-derived and IPv4 ones.
		echo 1 >/proc/sys/net/ipv6/conf/$d/disable_ipv6
		echo 1 >/proc/sys/net/ipv4/conf/$d/accept_local
		echo 0 >/proc/sys/net/ipv4/conf/$d/rp_filter
	done
	echo 0 >/proc/sys/net/ipv4/conf/all/rp_filter
	echo 1 >/proc/sys/net/ipv4/conf/all/accept_local
	ip addr add $RW_A/32 dev veth0
	ip addr add $RW_B/32 dev veth1
	ip link set veth0 up
	ip link set veth1 up
	# Both addresses are local to the one namespace, so the kernel would
	# deliver A->B through lo. Consult per-peer tables before the local table
	# for locally generated traffic (iif lo), so it leaves through the veth.
	ip rule add pref 100 lookup local
	ip rule del pref 0 lookup local
	ip rule add pref 10 iif lo to $RW_B lookup 10
	ip route add $RW_B dev veth0 src $RW_A table 10
	ip rule add pref 11 iif lo to $RW_A lookup 11
	ip route add $RW_A dev veth1 src $RW_B table 11
	# rdma_cm's passive side accepts a REQ only if the reverse route leaves
	# through the netdev it came in on (validate_ipv4_net_dev: a fib lookup
	# with that oif and no iif, so the rules above do not apply and the local
	# table skips the peer's address, which is on the other veth): the same
	# tables answer it.
	ip rule add pref 12 oif veth0 to $RW_B lookup 10
	ip rule add pref 13 oif veth1 to $RW_A lookup 11
	mac0=$(cat /sys/class/net/veth0/address)
	mac1=$(cat /sys/class/net/veth1/address)
	ip neigh replace $RW_B lladdr "$mac1" dev veth0 nud permanent
	ip neigh replace $RW_A lladdr "$mac0" dev veth1 nud permanent
	rdma link add rxe0 type rxe netdev veth0
	rdma link add rxe1 type rxe netdev veth1
	# The IPv4 GIDs appear shortly after the link is added.
	while [ -z "$(rw_gid rxe0)" ] || [ -z "$(rw_gid rxe1)" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && { echo "no IPv4 RoCE v2 GID on rxe0/rxe1"; return 1; }
		sleep 0.1
	done
	set +e
	ip -d link show
	ip rule show
	ip route show table 10
	ip route show table 11
	rdma link show
	for d in rxe0 rxe1; do
		echo "$d: IPv4 RoCE v2 GID index $(rw_gid $d)"
		grep -H . /sys/class/infiniband/$d/ports/1/gids/* 2>/dev/null | grep -v ':0000:0000:0000:0000:0000:0000:0000:0000$'
	done
	return 0
}

# rw_gid DEV: index of the ::ffff:a.b.c.d GID whose type is RoCE v2.
rw_gid() {
	local p=/sys/class/infiniband/$1/ports/1 g n t
	for g in "$p"/gids/*; do
		n=${g##*/}
		case "$(cat "$g" 2>/dev/null)" in
		0000:0000:0000:0000:0000:ffff:*)
			t=$(cat "$p/gid_attrs/types/$n" 2>/dev/null)
			[ "$t" = "RoCE v2" ] && { echo "$n"; return 0; }
			;;
		esac
	done
	return 1
}

RW_CAP_PID=
RW_CAP_NAME=
capture_start() {
	local dev=${2:-veth0} filter=${3:-udp port 4791} i=0
	RW_CAP_NAME=$1
	# Immediate mode and a packet-buffered file: a capture shorter than about
	# a second is otherwise lost on SIGINT. Snaplen above the veth MTU.
	# A non-interactive shell starts background jobs with SIGINT ignored, and
	# tcpdump then leaves it so: reset it, so that SIGINT stops the capture
	# cleanly (with its "N packets captured" statistics).
	(trap - INT; exec /usr/bin/tcpdump -i "$dev" -n -s 2048 -B 8192 --immediate-mode -U -Z root \
		-w "$RW_CAP_NAME.pcap" "$filter" 2>"$RW_CAP_NAME.tcpdump.log") &
	RW_CAP_PID=$!
	until grep -q "listening on" "$RW_CAP_NAME.tcpdump.log" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 $RW_CAP_PID 2>/dev/null; then
			rw_log "capture $RW_CAP_NAME: tcpdump did not start"
			cat "$RW_CAP_NAME.tcpdump.log"
			return 1
		fi
		sleep 0.05
	done
	rw_log "capture $RW_CAP_NAME started on $dev"
}

capture_stop() {
	[ -n "$RW_CAP_PID" ] || return 0
	# Let the last ACKs reach the capture before stopping it.
	sleep 0.5
	kill -INT $RW_CAP_PID 2>/dev/null
	wait $RW_CAP_PID
	RW_CAP_PID=
	rw_log "capture $RW_CAP_NAME stopped: $(tail -n 3 "$RW_CAP_NAME.tcpdump.log" | tr '\n' ' ')"
}

netem() {
	local dev=$1
	shift
	# netem on RoCE v2 packets only (UDP port 4791): the TCP exchange of the
	# endpoints must not lose packets (a lost SYN costs a 1 s retransmission)
	# and the netem counters then count RoCE packets alone. prio's default
	# priomap sends everything else to bands 1:1/1:2.
	tc qdisc del dev "$dev" root 2>/dev/null
	tc qdisc add dev "$dev" root handle 1: prio &&
		tc qdisc add dev "$dev" parent 1:3 handle 30: netem "$@" &&
		tc filter add dev "$dev" parent 1: protocol ip prio 1 u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:3 ||
		{ rw_log "netem on $dev: cannot set up 'netem $*'"; return 1; }
	rw_log "netem on $dev (RoCE v2 packets only): $*"
}

# netem_clear [NAME]: remove netem from both veths; with NAME, keep the final
# qdisc statistics in NAME.qdisc.txt (netem's "dropped" counts ECN marks too).
netem_clear() {
	local d
	for d in veth0 veth1; do
		tc qdisc show dev $d | grep -q netem || continue
		tc -s qdisc show dev $d | sed "s/^/$d: /" >>"${1:-netem}.qdisc.txt"
		rw_log "netem on $d: $(tc -s qdisc show dev $d | grep -A2 netem | tr '\n' ' ')"
		tc qdisc del dev $d root
	done
	return 0
}

# run_logged NAME CMD...: CMD bounded by RW_TIMEOUT, output in NAME.log, exit
# status in NAME.exit.
run_logged() {
	local n=$1 rc
	shift
	timeout "$RW_TIMEOUT" "$@" >"$n.log" 2>&1
	rc=$?
	echo $rc >"$n.exit"
	return $rc
}

# wait_listen PORT: wait until something listens on TCP PORT (at most 10 s).
wait_listen() {
	local hex i=0
	hex=$(printf '%04X' "$1")
	until grep -Eq ":$hex 0+:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 200 ] && return 1
		sleep 0.05
	done
}

RW_PORT=${RW_PORT:-18515}
# verbs_pair NAME ARGS... [--server ARGS...] [--client ARGS...]: ARGS go to
# both sides, those after --server (--client) to that side only (e.g. the
# server's --no-recv, the client's --bad-rkey).
verbs_pair() {
	local n=$1 both='' srv='' cli='' to=both a g0 g1 spid
	shift
	for a in "$@"; do
		case "$a" in
		--server) to=srv ;;
		--client) to=cli ;;
		*) eval "$to=\"\$$to \$a\"" ;;
		esac
	done
	g0=$(rw_gid rxe0)
	g1=$(rw_gid rxe1)
	rw_log "verbs $n: $both${srv:+ | server:$srv}${cli:+ | client:$cli}"
	# shellcheck disable=SC2086 # word splitting of the option lists is wanted
	run_logged "$n.server" rocewire-verbs server --device rxe0 --gid-index "$g0" \
		--port "$RW_PORT" --record "$n.server.json" --timeout "$RW_TIMEOUT" $both $srv &
	spid=$!
	wait_listen "$RW_PORT" || rw_log "verbs $n: server not listening on $RW_PORT"
	# shellcheck disable=SC2086
	run_logged "$n.client" rocewire-verbs client "$RW_A" --device rxe1 --gid-index "$g1" \
		--port "$RW_PORT" --record "$n.client.json" --timeout "$RW_TIMEOUT" $both $cli
	wait $spid
	rw_log "verbs $n: server exit $(cat "$n.server.exit"), client exit $(cat "$n.client.exit")"
	# A new port per pair: no TIME_WAIT or half-closed listener to trip on.
	RW_PORT=$((RW_PORT + 1))
}

# verbs_capture NAME ARGS...: verbs_pair NAME ARGS... inside capture NAME.
verbs_capture() {
	capture_start "$1" || return 1
	verbs_pair "$@"
	capture_stop
}

# counters_snapshot NAME WHEN: each rxe device's port counters, as people
# save them: `grep . .../hw_counters/*` (PATH:VALUE) and `rdma statistic show
# link DEV/1`. The kernel caches the values for hw_counters/lifespan ms (10):
# the snapshots are taken well apart from any other read.
counters_snapshot() {
	local d
	for d in rxe0 rxe1; do
		grep . /sys/class/infiniband/$d/ports/1/hw_counters/* >"$1.counters-$2.$d.txt"
		rdma statistic show link $d/1 >"$1.rdma-$2.$d.txt" 2>&1
	done
}

# verbs_capture_counted NAME ARGS...: verbs_capture NAME ARGS... with the
# counters read before the capture starts and after it stopped, so that
# every packet rxe counted in between is one the capture could see
# (check_counters.py compares them).
verbs_capture_counted() {
	counters_snapshot "$1" before
	verbs_capture "$@"
	sleep 0.1
	counters_snapshot "$1" after
}
