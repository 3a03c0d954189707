#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-replay's edge cases (issue 22, item 8), into pcaps through DPDK's
# net_pcap (-w), each checked against a computation that shares no code
# with rocewire: Scapy and zlib (replay_check.py, replay_inputs.py), tshark.
#  - conversions keep the rewrites asked with them: --to-v2 takes
#    --udp-sport and --udp-csum full (made over the final frame), --to-v1
#    carries --dscp/--ecn/--ttl into the GRH, and the summary counts what the
#    frames show;
#  - --corrupt-icrc leaves a non-zero UDP checksum right for the frame as
#    sent (IPv4 and IPv6), so that a receiver sees a bad ICRC only;
#  - every Ethernet frame gets the MAC and VLAN rewrites, the ones the
#    decode does not walk to their end too, and is counted; MAC control
#    (PFC, PAUSE) is never tagged;
#  - frames shorter than 60 bytes leave as captured unless a rewrite
#    shortened them;
#  - ERF Ethernet records leave as the Ethernet frame alone: no ERF pad,
#    record padding or FCS; a record cut short is skipped and counted.
# Inputs: samples/ and what replay_inputs.py makes with Scapy. Environment:
# ROCEWIRE_REPLAY, ROCEWIRE_SOURCE_DIR.
# shellcheck disable=SC2015,SC2086 # "check && ok || fail" on purpose; option lists split on purpose
set -u
R=${ROCEWIRE_REPLAY:-}
SRC=${ROCEWIRE_SOURCE_DIR:-}
PY=/usr/bin/python3
[ -x "$R" ] || { echo "FAIL: set ROCEWIRE_REPLAY to rocewire-replay (got '$R')"; exit 1; }
[ -x "$PY" ] || { echo "SKIP: $PY is missing"; exit 77; }
"$PY" -c 'import scapy.contrib.roce' 2>/dev/null || { echo "SKIP: Scapy is not installed for $PY (python3-scapy)"; exit 77; }
command -v tshark >/dev/null || { echo "SKIP: tshark is not installed"; exit 77; }
S=$SRC/samples
CHECK="$PY $SRC/tests/replay/replay_check.py"
# shellcheck disable=SC1091 # sets $noheur
. "$SRC/tests/e2e/tshark_noheur.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/rw-replay-edges.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
export HOME="$T" XDG_CONFIG_HOME="$T/.config"
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }

# replay OUT [options] FILE: the file into OUT through net_pcap, topspeed
replay() {
	local out=$1
	shift
	if ! "$R" -w "$out" -t -q -j "$out.json" "$@" 2>"$out.err"; then
		fail "rocewire-replay -w $out $*: $(cat "$out.err")"
		return 1
	fi
}
if ! "$R" -w probe.pcap -t -q "$S/softroce/rc_write.pcap" 2>probe.err; then
	grep -q "built without DPDK" probe.err && { echo "SKIP: rocewire-replay was built without DPDK (-w)"; exit 77; }
	fail "first replay: $(cat probe.err)"
	exit 1
fi
json() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {'d': d}))" "$@"; }
# shellcheck disable=SC2154,SC2086 # noheur: from tshark_noheur.sh, a list of options
count() { tshark -r "$1" -n $noheur -o udp.check_checksum:TRUE -Y "$2" 2>/dev/null | wc -l; }
"$PY" "$SRC/tests/replay/replay_inputs.py" "$T" "$S" || { fail "replay_inputs.py"; exit 1; }

# 1. --to-v2 with --udp-sport and --udp-csum full (samples/rocev1.pcap: 462
# frames with link-local GIDs, so IPv6)
a="--to-v2 --udp-sport 50000"
replay v2p.pcap $a "$S/rocev1.pcap" && { $CHECK frames "$S/rocev1.pcap" v2p.pcap $a && ok "--to-v2 --udp-sport: as Scapy converts them" || fail "--to-v2 --udp-sport frames"; }
n=$(count v2p.pcap 'udp.srcport == 50000 && infiniband.bth.opcode')
[ "$n" = 462 ] && ok "tshark: 462 of 462 converted frames from UDP port 50000" || fail "--to-v2 --udp-sport: $n of 462 frames from port 50000"
n=$(json v2p.pcap.json "(d['rewrites']['udp_sport'], d['rewrites']['convert'])")
[ "$n" = "(462, 462)" ] && ok "--to-v2 --udp-sport: 462 port rewrites counted" || fail "--to-v2 --udp-sport counters $n"
a="--to-v2 --udp-csum full"
replay v2c.pcap $a "$S/rocev1.pcap" && { $CHECK frames "$S/rocev1.pcap" v2c.pcap $a && ok "--to-v2 --udp-csum full: as Scapy converts them" || fail "--to-v2 --udp-csum full frames"; }
n=$(count v2c.pcap 'udp.checksum.status == 1 && udp.checksum != 0')
[ "$n" = 462 ] && ok "tshark: 462 of 462 UDP checksums right after --to-v2 --udp-csum full" || fail "--to-v2 --udp-csum full: $n of 462 UDP checksums right"
n=$(json v2c.pcap.json "d['rewrites']['udp_csum']")
[ "$n" = 462 ] && ok "--to-v2 --udp-csum full: 462 counted" || fail "--to-v2 --udp-csum full counted $n"

# 2. --to-v1 keeps --dscp/--ecn/--ttl, and counts only what the frames show
a="--to-v1 --dscp 46 --ecn 1 --ttl 9 --udp-sport 7 --udp-csum full"
for f in rocev2-all-opcodes.pcap rocev2-ipv6-vlan.pcap; do
	replay v1.pcap $a "$S/$f" || continue
	$CHECK frames "$S/$f" v1.pcap $a && ok "$f --to-v1 with DSCP/ECN/TTL: as Scapy converts them" || fail "$f --to-v1 with DSCP/ECN/TTL frames"
	n=$(count v1.pcap 'infiniband.grh.tclass == 185 && infiniband.grh.hoplmt == 9 && !ip && !ipv6 && !udp')
	[ "$n" = 334 ] && ok "tshark: 334 GRHs of class 46/1, hop limit 9" || fail "$f --to-v1: $n of 334 GRHs carry DSCP 46, ECN 1, hop limit 9"
	if [ $f = rocev2-all-opcodes.pcap ]; then
		want="($(count "$S/$f" 'ip.dsfield.dscp != 46'), $(count "$S/$f" 'ip.dsfield.ecn != 1'), $(count "$S/$f" 'ip.ttl != 9'), 0, 0, 0)"
	else
		want="($(count "$S/$f" 'ipv6.tclass.dscp != 46'), $(count "$S/$f" 'ipv6.tclass.ecn != 1'), $(count "$S/$f" 'ipv6.hlim != 9'), 0, 0, 0)"
	fi
	n=$(json v1.pcap.json "(d['rewrites']['dscp'], d['rewrites']['ecn'], d['rewrites']['ttl'], d['rewrites']['udp_sport'], d['rewrites']['udp_csum'], d['ipv4_checksums_fixed'])")
	[ "$n" = "$want" ] && ok "$f --to-v1: DSCP/ECN/TTL counted as tshark finds them changed $want, no UDP or IPv4 work counted" ||
		fail "$f --to-v1 counters $n, expected $want"
done

# 3. --corrupt-icrc over non-zero UDP checksums, IPv4 and IPv6 (334 + 334):
# the ICRC bad (zlib), the UDP checksum right for the frame as sent (tshark)
for a in "" "--map-qpn 0x11=0x22 --dscp 3" "--udp-csum full"; do
	replay cor.pcap --corrupt-icrc 1 $a csum.pcap || continue
	$CHECK icrc cor.pcap 668 668 >/dev/null && ok "--corrupt-icrc 1 $a: 668 of 668 ICRCs bad" || fail "--corrupt-icrc 1 $a: ICRCs"
	n="$(count cor.pcap 'ip && udp.checksum.status == 1 && udp.checksum != 0') $(count cor.pcap 'ipv6 && udp.checksum.status == 1 && udp.checksum != 0')"
	[ "$n" = "334 334" ] && ok "tshark: --corrupt-icrc 1 $a: every UDP checksum right for the frame as sent (IPv4 334, IPv6 334)" ||
		fail "--corrupt-icrc 1 $a: right UDP checksums (IPv4, IPv6): $n of 334 334"
	n=$(json cor.pcap.json "d['icrc_corrupted']")
	[ "$n" = 668 ] || fail "--corrupt-icrc 1 $a counted $n"
done

# 4. every Ethernet frame gets the Ethernet rewrites and is counted, those
# the decode stops in too; MAC control gets no tag
a="--src-mac 02:00:00:00:00:01 --dst-mac 02:00:00:00:00:02 --vlan-add 100:3"
replay mx.pcap $a mixed.pcap && { $CHECK frames mixed.pcap mx.pcap $a && ok "mixed frames: MACs and a tag on each, as Scapy does it" || fail "mixed frames' Ethernet rewrites"; }
n=$(json mx.pcap.json "(d['packets_rewritten'], d['rewrites']['mac'], d['rewrites']['vlan'], d['undecodable_sent_as_captured'])")
[ "$n" = "(17, 17, 15, 1)" ] && ok "mixed frames: 17 rewritten, 17 MAC, 15 VLAN (not the 2 MAC control), 1 undecodable RoCE" ||
	fail "mixed frames' counters $n, expected (17, 17, 15, 1)"
[ "$(count mx.pcap 'vlan.id == 100')" = 15 ] && [ "$(count mx.pcap 'macc')" = 2 ] && [ "$(count mx.pcap 'macc && vlan')" = 0 ] &&
	ok "tshark: 15 frames in VLAN 100, the 2 MAC control frames untagged" || fail "tshark: VLAN tags of the mixed frames"
replay pfc.pcap --vlan-add 7 "$S/pfc-pause.pcap" && { $CHECK same "$S/pfc-pause.pcap" pfc.pcap && ok "--vlan-add: PFC/PAUSE frames untagged" || fail "--vlan-add tagged MAC control frames"; }
[ "$(json pfc.pcap.json "d['rewrites']['vlan']")" = 0 ] && ok "--vlan-add on PFC/PAUSE: none counted" || fail "--vlan-add on PFC/PAUSE counted"

# 5. short frames: as captured without a rewrite, and with one that does
# not touch them
replay sh.pcap mixed.pcap && { $CHECK same mixed.pcap sh.pcap && ok "no rewrite: frames under 60 bytes sent as captured" || fail "no rewrite: frames changed"; }
replay sh2.pcap --map-qpn 0x999999=1 mixed.pcap && { $CHECK same mixed.pcap sh2.pcap && ok "a rewrite that matches nothing: frames under 60 bytes as captured" || fail "an idle rewrite changed frames"; }

# 6. ERF Ethernet records: the frame alone, whatever the record carries
replay erf-out.pcap erf.pcap && { $CHECK same erf-want.pcap erf-out.pcap && ok "ERF: frames without ERF pad, extension headers, record padding or FCS" || fail "ERF records to Ethernet"; }
n=$(json erf-out.pcap.json "(d['packets_sent'], d['skipped']['snaplen_cut'])")
[ "$n" = "(25, 1)" ] && ok "ERF: 25 sent, the cut record skipped and counted" || fail "ERF counters $n, expected (25, 1)"
$CHECK icrc erf-out.pcap 0 20 >/dev/null && ok "ERF: 20 RoCE frames, ICRCs good" || fail "ERF: RoCE frames' ICRCs"
a="--map-qpn 0x15=0x16 --dst-mac 02:00:00:00:00:02"
replay erf-rw.pcap $a erf.pcap && { $CHECK frames erf-want.pcap erf-rw.pcap $a && ok "ERF with rewrites: as Scapy rewrites the frames" || fail "ERF with rewrites"; }

exit $FAILED
