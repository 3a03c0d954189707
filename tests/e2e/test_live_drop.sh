#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# -Z USER (--relinquish-privileges), as user nobody, in network namespaces:
#  1. -w FILE: while rocewire-cap captures, /proc/PID/status shows nobody's
#     uid (real, effective, saved, filesystem), gid (all four) and groups;
#     FILE holds the injected frames byte for byte, is nobody's, and decodes
#     (rocewire-cap -r, tshark);
#  2. -C rotation into a folder owned by nobody: several files, nobody's,
#     together the frames in order, no .part left;
#  3. a folder nobody cannot write in: one line naming the folder and the
#     user, exit 2, before any capture, nothing left in the folder;
#  4. an unknown user: one line, exit 2; run as nobody, -Z another user: one
#     line, exit 2; root of a user namespace where setgroups is refused: one
#     line naming the step, exit 2, no file;
#  5. rocewire-cap-dpdk (when built) on net_af_packet: one queue, and
#     --rx-queues 2 (the queues' files created after the drop): nobody's ids
#     while capturing, the frames in the files.
# Root (namespaces). Env: ROCEWIRE_CAP, ROCEWIRE_MKCAP.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/live_common.sh"
need_tools
getent passwd nobody >/dev/null || skip "no user nobody"
ns_setup
chmod 711 "$WORK" # nobody reaches the folders below, and writes only where allowed
uid=$(id -u nobody)
gid=$(id -g nobody)
groups=$(id -G nobody | tr ' ' '\n' | sort -n | tr '\n' ' ')

"$MKCAP" --all-opcodes -o roce.pcap >/dev/null || { echo "FAIL: rocewire-mkcap"; exit 1; }
n=$(frames roce.pcap)

# ids PID WHAT: the Uid, Gid and Groups lines of every thread of PID (DPDK's
# lcores too) are nobody's.
ids() {
	local st got_g t bad="" nt=0
	for t in /proc/"$1"/task/*; do
		st=$(cat "$t/status" 2>/dev/null) || continue
		nt=$((nt + 1))
		got_g=$(sed -n 's/^Groups:\s*//p' <<<"$st" | tr ' \t' '\n\n' | grep . | sort -n | tr '\n' ' ')
		if ! grep -qP "^Uid:\t$uid\t$uid\t$uid\t$uid$" <<<"$st" ||
			! grep -qP "^Gid:\t$gid\t$gid\t$gid\t$gid$" <<<"$st" || [ "$got_g" != "$groups" ]; then
			bad="$bad ${t##*/}: $(grep -E '^(Uid|Gid|Groups)' <<<"$st" | tr '\t\n' '  ')"
		fi
	done
	if [ "$nt" = 0 ]; then
		fail "$2: /proc/$1 is gone"
	elif [ -n "$bad" ]; then
		fail "$2: not nobody's ids:$bad"
	else
		ok "$2: while capturing, $nt thread(s): $(grep -E '^(Uid|Gid|Groups)' /proc/"$1"/status | tr '\t\n' '  ')"
	fi
}

# owned FILE...: every FILE is nobody's.
owned() {
	local f
	for f in "$@"; do
		[ "$(stat -c %U "$f")" = nobody ] || fail "$f belongs to $(stat -c %U "$f"), not nobody"
	done
}

# 1. one file, in a sticky folder anybody writes in (as /tmp)
mkdir -m 1777 sticky
start_cap e1 o1 -Z nobody -i vB -w sticky/one.pcap -c "$n" -q || exit 1
ids "$CAP_PID" "-Z nobody -w FILE"
inject roce.pcap
wait_cap 15
[ "$CAP_RC" = 0 ] || fail "-w: status $CAP_RC: $(tail -n 2 e1)"
if msg=$(same_frames sticky/one.pcap roce.pcap); then
	ok "-Z nobody -w: the file holds the $n injected frames, byte for byte"
else
	fail "-Z nobody -w: $msg"
fi
owned sticky/one.pcap
tshark_ok sticky/one.pcap
if "$CAP" -q -r sticky/one.pcap 2>dec.err; then
	ok "rocewire-cap -r decodes the file: $(head -n 1 dec.err)"
else
	fail "rocewire-cap -r sticky/one.pcap: $(tail -n 3 dec.err)"
fi

# 2. -C rotation into a folder of nobody's
mkdir rot && chown nobody rot && chmod 700 rot
start_cap e2 o2 -Z nobody -i vB -w rot/r.pcapng -C 0.2 -c "$n" -q || exit 1
ids "$CAP_PID" "-Z nobody -C 0.2"
inject roce.pcap
wait_cap 15
[ "$CAP_RC" = 0 ] || fail "-C: status $CAP_RC: $(tail -n 2 e2)"
files=$(cd rot && ls r.pcapng* | sort -V)
count=$(echo "$files" | wc -l)
paths=$(for f in $files; do echo "rot/$f"; done)
[ "$count" -ge 3 ] || fail "-C: only $count files"
# shellcheck disable=SC2086
owned $paths
for f in $paths; do tshark_ok "$f"; done
if "$PY" - roce.pcap $paths <<'EOF2'
import sys
from scapy.utils import RawPcapReader, RawPcapNgReader
def frames(p):
    with open(p, "rb") as fh:
        magic = fh.read(4)
    R = RawPcapNgReader if magic == b"\x0a\x0d\x0d\x0a" else RawPcapReader
    return [bytes(d) for d, _ in R(p)]
got = [f for p in sys.argv[2:] for f in frames(p)]
if got != frames(sys.argv[1]):
    sys.exit("%d frames in the files, not the ones sent in order" % len(got))
EOF2
then
	ok "-Z nobody -C 0.2: $count files, nobody's, together the $n frames in order"
else
	fail "-Z nobody -C 0.2: the files are not the frames sent"
fi
[ -z "$(find sticky rot -name '*.part')" ] || fail "left behind: $(find sticky rot -name '*.part')"

# 3. a folder nobody cannot write in: refused before capturing
mkdir -m 755 rootdir
for args in "-w rootdir/x.pcap" "-w rootdir/x.pcap -G 60"; do
	# shellcheck disable=SC2086
	in_b "$CAP" -Z nobody -i vB $args -q --duration 5 >o3 2>e3
	rc=$?
	lines=$(wc -l <e3)
	if [ "$rc" = 2 ] && [ "$lines" = 1 ] && grep -q "user nobody cannot create files in rootdir" e3 &&
		! grep -q "listening on" e3; then
		ok "-Z nobody $args, folder not nobody's: exit 2, one line: $(cat e3)"
	else
		fail "-Z nobody $args, folder not nobody's: exit $rc, $lines lines: $(cat e3)"
	fi
	[ -z "$(ls -A rootdir)" ] || fail "left in rootdir: $(ls -A rootdir)"
done

# 4. an unknown user; a user that is not root asking for another user
in_b "$CAP" -Z no-such-user-rw -i vB -w sticky/u.pcap -q >o4 2>e4
rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <e4)" = 1 ] && grep -q "no user named 'no-such-user-rw'" e4; then
	ok "-Z unknown user: exit 2, one line: $(cat e4)"
else
	fail "-Z unknown user: exit $rc: $(cat e4)"
fi
[ ! -e sticky/u.pcap ] && [ -z "$(find sticky -name 'u.pcap*')" ] || fail "-Z unknown user left a file"
if command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid="$gid" --clear-groups "$CAP" -Z root -i vB -q >o5 2>e5
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <e5)" = 1 ] && grep -q "only root can change to another user" e5; then
		ok "as nobody, -Z root: exit 2, one line: $(cat e5)"
	else
		fail "as nobody, -Z root: exit $rc: $(cat e5)"
	fi
fi

# root in a user namespace of its own (no other id mapped): the change
# itself fails, one line naming the step, and no file is left
if command -v unshare >/dev/null 2>&1 && unshare -U -r -n true 2>/dev/null; then
	mkdir -m 1777 userns
	unshare -U -r -n sh -c 'ip link set lo up; exec "$1" -Z nobody -i lo -w userns/u.pcap -q --duration 5' \
		sh "$CAP" >o8 2>e8
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <e8)" = 1 ] && grep -q "cannot change to user nobody.*: setgroups: " e8 &&
		[ -z "$(ls -A userns)" ]; then
		ok "-Z where setgroups is refused: exit 2, one line, no file: $(cat e8)"
	else
		fail "-Z where setgroups is refused: exit $rc, files: $(ls -A userns): $(cat e8)"
	fi
fi

# 5. the DPDK source
dpdk="$(dirname "$CAP")/rocewire-cap-dpdk"
if [ -x "$dpdk" ] && command -v taskset >/dev/null 2>&1; then
	eal="--no-huge -m 512 --no-pci --no-shconf --log-level=*:error"
	"$MKCAP" --mix 1000 --max-payload 1024 --carriers v2,v2-vlan,v2-ipv6 -o mix.pcap >/dev/null ||
		{ echo "FAIL: rocewire-mkcap --mix"; exit 1; }
	m=$(frames mix.pcap)
	mkdir dp && chown nobody dp
	start_cap e6 o6 -Z nobody -i "dpdk:-l 0 $eal --file-prefix rwz1-$$ --vdev=net_af_packet0,iface=vB" \
		-w dp/one.pcap -c "$m" -q || exit 1
	ids "$CAP_PID" "dpdk: -Z nobody"
	in_a taskset -c 1 tcpreplay -q --pps=2000 -i vA mix.pcap >tcpreplay.out 2>&1 || fail "tcpreplay: $(cat tcpreplay.out)"
	wait_cap 30
	[ "$CAP_RC" = 0 ] || fail "dpdk -Z: status $CAP_RC: $(tail -n 2 e6)"
	if msg=$(same_frames dp/one.pcap mix.pcap); then
		ok "dpdk: net_af_packet -Z nobody: the file holds the $m frames"
	else
		fail "dpdk -Z: $msg"
	fi
	owned dp/one.pcap
	start_cap e7 o7 -Z nobody -i "dpdk:-l 0-1 $eal --file-prefix rwz2-$$ --vdev=net_af_packet0,iface=vB,qpairs=2" \
		--rx-queues 2 -w dp/two.pcap -c "$m" || exit 1
	ids "$CAP_PID" "dpdk: -Z nobody --rx-queues 2"
	in_a taskset -c 1 tcpreplay -q --pps=2000 -i vA mix.pcap >tcpreplay.out 2>&1 || fail "tcpreplay: $(cat tcpreplay.out)"
	wait_cap 30
	[ "$CAP_RC" = 0 ] || fail "dpdk -Z --rx-queues 2: status $CAP_RC: $(tail -n 2 e7)"
	if "$PY" "$here/dpdk_queues_check.py" split mix.pcap dp/two.q0.pcap dp/two.q1.pcap; then
		ok "dpdk: --rx-queues 2 -Z nobody: the frames split between the queues' files, each once"
	else
		fail "dpdk: --rx-queues 2 -Z nobody: the files are not the frames sent"
	fi
	owned dp/two.q0.pcap dp/two.q1.pcap
else
	echo "note: rocewire-cap-dpdk not built (or no taskset): the DPDK cases were not run"
fi
exit $FAILED
