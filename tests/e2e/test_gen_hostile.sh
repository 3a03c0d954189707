#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A hostile peer on the closed loop's link: `rocewire-gen --role responder`
# on vB and the requester (responder: external, closed-loop mode) on vA, a
# veth between two namespaces, with a legitimate flow (hostile.yaml: RC, CM,
# WRITE/READ/atomics, 10 s at 4 Mb/s), while hostile_flood.py sends forged
# and broken frames at both for ~10 s: out of vA at the responder, out of vB
# at the requester (the same link: every frame stays inside the two test
# namespaces), 600 a second each way. net_af_packet also reads what other
# sockets send out of its interface, so each process gets both floods. See hostile_flood.py for the kinds:
# wrong QPNs, PSNs far outside the window, NAKs and ACKs for unsent PSNs,
# READ responses of the wrong length, 4 GiB READs, CNPs for unknown QPs, PFC
# with quanta 0xffff, truncated frames, bad ICRCs, CM messages with garbage.
#
# PFC: a PFC frame with quanta 0xffff on the flow's class would pause the
# requester legitimately (3.4 ms at 10 Gb/s each, as a NIC); the flooder
# sends them on classes 1-7, which the flow (no VLAN, class 0) does not use,
# so the flow's completion does not depend on the flood's timing.
#
# Checked: neither process ends on a signal or non-zero; the VmRSS of each,
# sampled from /proc every 0.5 s during the flood, does not grow after a
# warm-up second (last sample <= first + 1 MiB); the legitimate flow
# completed every message it started with no failed QP; and both summaries
# count what they ignored, by reason (responder.ignored, congestion.ignored,
# bad ICRCs, PFC frames received, REJs to the garbage REQs).
# Env: ROCEWIRE_GEN, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR. Root (namespaces),
# Debian's /usr/bin/python3 with Scapy, DPDK's net_af_packet plugin; exit
# 77 with the reason without them.
. "$(dirname "$0")/gen_netns.sh"
"$py" -c 'import scapy.all, scapy.contrib.roce' 2>/dev/null || skip "python3-scapy is not installed for $py"
pmd=$(ls /usr/lib/*/dpdk/pmds-*/librte_net_af_packet.so* /usr/local/lib/*/dpdk/pmds-*/librte_net_af_packet.so* 2>/dev/null | head -n 1)
[ -n "$pmd" ] || skip "DPDK's net_af_packet plugin (librte_net_af_packet.so) is not installed"
[ -n "${ROCEWIRE_KEEP:-}" ] && trap 'cp "$work"/*.json "$work"/*.err "$work"/*.txt "$ROCEWIRE_KEEP" 2>/dev/null; cleanup' EXIT

s=$src/tests/e2e/hostile.yaml
flood_s=9
# the flooders first: they take a few seconds to build their frames, then
# wait for $work/go
ip netns exec "$nsa" "$py" "$src/tests/e2e/hostile_flood.py" vA responder $flood_s 600 1 "$work/go" \
	>"$work/flood-a.txt" 2>&1 &
fa=$!
ip netns exec "$nsb" "$py" "$src/tests/e2e/hostile_flood.py" vB requester $flood_s 600 2 "$work/go" \
	>"$work/flood-b.txt" 2>&1 &
fb=$!
BG_PIDS="$BG_PIDS $fa $fb"
i=0
until grep -q ready "$work/flood-a.txt" && grep -q ready "$work/flood-b.txt"; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 "$fa" 2>/dev/null || ! kill -0 "$fb" 2>/dev/null; then
		echo "FAIL: the flooders did not get ready:" >&2
		cat "$work/flood-a.txt" "$work/flood-b.txt" >&2
		exit 1
	fi
	sleep 0.1
done
# shellcheck disable=SC2086
ip netns exec "$nsb" "$gen" $eal -l 0 --file-prefix "$nsb" --vdev=net_af_packet0,iface=vB,qdisc_bypass=0 -- \
	--role responder -d 13s -Q -j "$work/resp.json" "$s" 2>"$work/resp.err" &
rpid=$!
sleep 1.5
# shellcheck disable=SC2086
ip netns exec "$nsa" "$gen" $eal -l 1 --file-prefix "$nsa" --vdev=net_af_packet0,iface=vA,qdisc_bypass=0 -- \
	-Q -j "$work/req.json" "$s" 2>"$work/req.err" &
qpid=$!
sleep 0.5
touch "$work/go"

# VmRSS (kB) of both every 0.5 s while the flood lasts
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
: >"$work/rss.txt"
i=0
while [ $i -lt 24 ] && kill -0 "$fa" 2>/dev/null; do
	echo "$(rss "$rpid") $(rss "$qpid")" >>"$work/rss.txt"
	sleep 0.5
	i=$((i + 1))
done
wait "$fa"
fa_rc=$?
wait "$fb"
fb_rc=$?
BG_PIDS=""
if [ $fa_rc != 0 ] || [ $fb_rc != 0 ]; then
	echo "FAIL: a flooder failed:" >&2
	cat "$work/flood-a.txt" "$work/flood-b.txt" >&2
	exit 1
fi
wait "$qpid"
qrc=$?
wait "$rpid"
rrc=$?
if [ $qrc != 0 ]; then
	echo "FAIL: the requester exited with status $qrc (a signal: > 128):" >&2
	cat "$work/req.err" >&2
	exit 1
fi
if [ $rrc != 0 ]; then
	echo "FAIL: the responder exited with status $rrc (a signal: > 128):" >&2
	cat "$work/resp.err" >&2
	exit 1
fi
"$py" - "$work/resp.json" "$work/req.json" "$work/rss.txt" "$work/flood-a.txt" "$work/flood-b.txt" <<'EOF'
import json
import sys

resp = json.load(open(sys.argv[1]))["responder"]
req = json.load(open(sys.argv[2]))
rss = [tuple(int(x) for x in l.split()) for l in open(sys.argv[3]) if l.split()]
floods = [json.loads(open(p).read().strip().splitlines()[-1]) for p in sys.argv[4:6]]
fails = []
# warm-up: the first two samples (1 s) are left out
if len(rss) < 8:
    fails.append(f"only {len(rss)} RSS samples during the flood")
else:
    for i, who in enumerate(("responder", "requester")):
        first, last = rss[2][i], rss[-1][i]
        if first == 0 or last == 0:
            fails.append(f"the {who} was gone during the flood (VmRSS samples {[r[i] for r in rss]})")
        elif last > first + 1024:
            fails.append(f"the {who}'s VmRSS grew from {first} to {last} kB under the flood")
fl = req["flows"][0]
started, done = fl.get("messages_started", {}), fl.get("messages", {})
if not started or sum(started.values()) < 100:
    fails.append(f"the legitimate flow started too few messages: {started}")
if started != done:
    fails.append(f"the legitimate flow completed {done} of the messages it started ({started})")
if fl.get("qps_failed", 0):
    fails.append(f"the legitimate flow lost {fl['qps_failed']} QPs")
ign = resp["ignored"]
for k in ("not_roce", "not_request", "unknown_qp", "read_length"):
    if not ign.get(k):
        fails.append(f"the responder counts no frame ignored as {k}: {ign}")
if not resp["bad_icrc"]:
    fails.append("the responder counts no bad ICRC")
if not resp["cm_rejects"]:
    fails.append("the responder sent no REJ to the garbage REQs")
cc = req["congestion"]
for k in ("bad_icrc", "unknown_qp", "stale", "other"):
    if not cc["ignored"].get(k):
        fails.append(f"the requester counts no frame ignored as {k}: {cc['ignored']}")
if not cc["pfc_received"]:
    fails.append("the requester counts no PFC frame")
sent = sum(f["sent"] for f in floods)
if sent < 8000:
    fails.append(f"the flooders sent only {sent} frames")
for line in fails:
    print("FAIL:", line)
if fails:
    sys.exit(1)
print(f"ok: {sent} hostile frames; legitimate flow {sum(done.values())} messages, all done; VmRSS responder "
      f"{rss[2][0]} -> {rss[-1][0]} kB, requester {rss[2][1]} -> {rss[-1][1]} kB; responder ignored {ign}, "
      f"bad ICRC {resp['bad_icrc']}, REJs {resp['cm_rejects']}; requester ignored {cc['ignored']} of "
      f"{cc['frames_received']}, PFC {cc['pfc_received']}")
EOF
