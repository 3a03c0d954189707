#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-gen's closed loop on a real (virtual) wire: two network namespaces
# joined by a veth pair, a requester process (net_af_packet on one end) and a
# `--role responder` process (on the other end), rocewire-cap capturing on
# the responder's side. The congestion point is in the kernel's datapath on
# the requester's veth: ecn_marker.bpf.c, a tc egress program marking CE as
# RED does on a phantom queue drained at 100 Mb/s (the host kernel has no
# ECN-marking qdisc: CONFIG_NET_SCH_RED, fq_codel and pie are not set). The
# responder's notification point sends CNPs back, and the requester's DCQCN
# reaction points, fed by its RX path, cut the rates. Checked from the
# capture alone (closed_loop_check.py): CE marks, CNPs to the requester's
# QPs with good ICRCs, paced, and a send rate that falls from the offered
# 500 Mb/s to around the phantom queue's 100 Mb/s.
# Env: ROCEWIRE_GEN, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR; ROCEWIRE_KEEP=DIR keeps the
# capture and both summaries there. Root (namespaces).
. "$(dirname "$0")/gen_netns.sh"
[ -n "${ROCEWIRE_KEEP:-}" ] && trap 'cp "$WORK/cap.pcap" "$WORK/req.json" "$WORK/resp.json" "$WORK/req.err" "$ROCEWIRE_KEEP"; cleanup' EXIT

command -v clang >/dev/null 2>&1 || skip "clang is not installed (it builds the marking program)"
command -v tc >/dev/null 2>&1 || skip "tc (iproute2) is not installed"
march=$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)
if ! clang -O2 -g -target bpf -I"/usr/include/$march" -DRATE_BPS=100000000ULL -DKMIN=64000 -DKMAX=256000 \
	-c "$src/tests/e2e/ecn_marker.bpf.c" -o "$work/marker.o" 2>"$work/clang.err"; then
	skip "cannot build the BPF marker (libbpf-dev headers?): $(head -n 1 "$work/clang.err")"
fi
ip netns exec "$nsa" tc qdisc add dev vA clsact 2>"$work/tc.err" &&
	ip netns exec "$nsa" tc filter add dev vA egress bpf da obj "$work/marker.o" sec tc 2>>"$work/tc.err" ||
	skip "cannot attach the BPF marker to the veth: $(grep -v '^libbpf' "$work/tc.err" | head -n 1)"

gen_pair "$src/tests/e2e/closed-loop.yaml" 4s
"$cap" -r "$work/cap.pcap" --report --json >"$work/report.json" 2>"$work/report.err"
[ $? -le 1 ] || { echo "FAIL: rocewire-cap cannot read the capture:" >&2; cat "$work/report.err" >&2; exit 1; }
"$py" "$src/tests/e2e/closed_loop_check.py" "$work/cap.pcap" "$work/report.json"
