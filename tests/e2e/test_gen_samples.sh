#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-gen end to end, on the built-in default and every scenario of
# samples/scenarios/: each run goes through DPDK's net_pcap into a file, then
#  - frame for frame, byte for byte, the file equals rocewire-genmodel's (the
#    same flow model with every frame built whole by proto's builder, its
#    ICRC computed over every byte): the TX path's templates, patched
#    headers and patched ICRCs change nothing;
#  - rocewire-cap --report --json, reading the capture on its own, counts
#    per flow and direction the packets and bytes the summary says were
#    sent, the NAKs by kind, a bad ICRC exactly for each corrupted packet,
#    and on fault-free flows no gap, resend, incomplete message or message
#    cut by the end of the capture (gen_check.py);
#  - Wireshark's own dissector finds nothing malformed.
# line-rate.yaml and ud-flood.yaml go through the lockstep stream (frames
# stamped once and patched in place), the others through the model's clock.
# Env: ROCEWIRE_GEN, ROCEWIRE_GENMODEL, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR.
set -u
py=/usr/bin/python3
gen=${ROCEWIRE_GEN:-}
gm=${ROCEWIRE_GENMODEL:-}
cap=${ROCEWIRE_CAP:-}
src=${ROCEWIRE_SOURCE_DIR:-}
for t in "$gen" "$gm" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_GEN, ROCEWIRE_GENMODEL and ROCEWIRE_CAP (got \"$gen\", \"$gm\", \"$cap\")" >&2
		exit 1
	fi
done
if [ ! -x "$py" ]; then
	echo "SKIP: $py is missing"
	exit 77
fi
have_tshark=1
command -v tshark >/dev/null 2>&1 || have_tshark=0
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-gen.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work" XDG_CONFIG_HOME="$work/.config"
cd "$work" || exit 1 # the scenarios' output files (fct, pfc, qlen) are relative to here
# shellcheck source=tshark_noheur.sh
. "$(dirname "$0")/tshark_noheur.sh"

fails=0
for s in default "$src"/samples/scenarios/*.yaml; do
	b=$(basename "$s" .yaml)
	arg=$s
	[ "$s" = default ] && arg=""
	# shellcheck disable=SC2086
	if ! "$gen" -w "$work/$b.pcap" --summary-json "$work/$b.json" --no-status -Q $arg 2>"$work/$b.err"; then
		echo "FAIL: $b: rocewire-gen exited non-zero:" >&2
		cat "$work/$b.err" >&2
		fails=$((fails + 1))
		continue
	fi
	if [ -e "$work/$b.pcap.part" ] || ls "$work/$b.pcap."* >/dev/null 2>&1; then
		echo "FAIL: $b: a temporary file was left next to the pcap" >&2
		fails=$((fails + 1))
	fi
	# the samples made for the lockstep stream must be sent by it (what
	# the reference comparison below then proves right), the others not
	case $b in line-rate | ud-flood) want=1 ;; *) want=0 ;; esac
	got=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["lockstep_queues"])' "$work/$b.json")
	if [ "$got" != "$want" ]; then
		echo "FAIL: $b: $got queue(s) in lockstep, expected $want" >&2
		fails=$((fails + 1))
	fi
	"$gm" "$s" "$work/$b.ref.pcap" >"$work/$b.model.json" || { fails=$((fails + 1)); continue; }
	# rocewire-cap exits 1 when it found a bad ICRC: expected where the
	# scenario corrupts packets (gen_check.py counts them), never 2 or more.
	"$cap" -r "$work/$b.pcap" --report --json >"$work/$b.report.json" 2>"$work/$b.cap.err"
	rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "FAIL: $b: rocewire-cap exited $rc" >&2
		cat "$work/$b.cap.err" >&2
		fails=$((fails + 1))
		continue
	fi
	printf '%s: ' "$b"
	"$py" "$src/tests/e2e/gen_check.py" "$work/$b.pcap" "$work/$b.ref.pcap" "$work/$b.model.json" \
		"$work/$b.json" "$work/$b.report.json" || fails=$((fails + 1))
	if [ "$have_tshark" = 1 ]; then
		# shellcheck disable=SC2086
		tshark -n $noheur -r "$work/$b.pcap" -Y _ws.malformed >"$work/$b.malformed" 2>/dev/null
		if [ -s "$work/$b.malformed" ]; then
			echo "FAIL: $b: tshark finds malformed frames:" >&2
			head -5 "$work/$b.malformed" >&2
			fails=$((fails + 1))
		fi
	fi
done
# Two TX queues on two worker lcores (net_null, lcores mapped onto the CPUs
# there are): each lcore runs its own shard of the flows, and every flow
# sends exactly what the one-shard reference model sends.
s="$src/samples/scenarios/ud-uc.yaml"
if "$gen" --no-huge --no-pci --no-shconf -m 512 --no-telemetry --log-level='*:error' \
	--lcores '0@0,1@0,2@0' --vdev=net_null0 -- -q 2 -Q --no-status \
	--summary-json "$work/q2.json" "$s" 2>"$work/q2.err"; then
	"$py" - "$work/q2.json" "$work/ud-uc.model.json" <<'PY' || fails=$((fails + 1))
import json, sys
s = json.load(open(sys.argv[1]))
m = {f["name"]: f for f in json.load(open(sys.argv[2]))["flows"]}
bad = [f["name"] for f in s["flows"]
       if (f["request_packets"], f["request_bytes"], f["messages_total"]) !=
          (m[f["name"]]["requests"], m[f["name"]]["request_bytes"], m[f["name"]]["messages"])]
if s["queues"] != 2 or bad:
    print("FAIL: two queues: %d queues, flows differing from the model: %s" % (s["queues"], bad),
          file=sys.stderr)
    sys.exit(1)
print("two queues: every flow as the one-shard model")
PY
else
	echo "FAIL: rocewire-gen on two queues:" >&2
	cat "$work/q2.err" >&2
	fails=$((fails + 1))
fi

# The lockstep sample again through the model's clock (ROCEWIRE_GEN_LOCKSTEP=0):
# the same frames, the same counts.
b=line-rate
if ROCEWIRE_GEN_LOCKSTEP=0 "$gen" -w "$work/$b.clock.pcap" --summary-json "$work/$b.clock.json" --no-status -Q \
	"$src/samples/scenarios/$b.yaml" 2>"$work/$b.clock.err"; then
	"$cap" -r "$work/$b.clock.pcap" --report --json >"$work/$b.clock.report.json" 2>/dev/null
	printf '%s through the clock: ' "$b"
	"$py" "$src/tests/e2e/gen_check.py" "$work/$b.clock.pcap" "$work/$b.ref.pcap" "$work/$b.model.json" \
		"$work/$b.clock.json" "$work/$b.clock.report.json" || fails=$((fails + 1))
	if ! grep -q '"lockstep_queues": 0' "$work/$b.clock.json"; then
		echo "FAIL: ROCEWIRE_GEN_LOCKSTEP=0 still sent in lockstep" >&2
		fails=$((fails + 1))
	fi
else
	echo "FAIL: $b through the clock:" >&2
	cat "$work/$b.clock.err" >&2
	fails=$((fails + 1))
fi

[ "$have_tshark" = 1 ] || echo "note: tshark not installed: the Wireshark check was left out"
if [ "$fails" -ne 0 ]; then
	echo "FAIL: $fails check(s) failed" >&2
	exit 1
fi
echo "ok: every scenario"
