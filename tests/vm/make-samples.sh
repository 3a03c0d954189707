#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# make-samples.sh RESULTS_DIR [DEST [NAME...]]: copy the sample scenarios of a
# VM run (`ctest -L vm` leaves its results in BUILD/tests/vm/out) to DEST
# (default samples/softroce/ of this tree), each as NAME.pcap with its records
# (NAME.client.json, NAME.server.json; NAME.qdisc.txt for the netem runs; for
# the rdma_cm run rc_rping_cm, rping's NAME.{server,client}.log and the
# kernel's NAME.trace.txt and NAME.res.txt), and write VERSIONS.txt, what made
# them.
#
# With NAMEs, only those are copied, and VERSIONS.txt keeps what it says of
# the others: each NAME gets a line "NAME: kernel ..., made ..." instead.
# The NAME "counters" copies only the runs with rxe's counters read around
# them (rc_write_loss, rc_write_ecn: scenarios/loss.sh and ecn.sh) to
# DEST/counters/: the capture, netem's counters and both devices' snapshots
# in both forms, which check_counters.py reads (rc_send_loss's capture, over
# 1 MB, stays out).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
res=${1:?usage: make-samples.sh RESULTS_DIR [DEST [NAME...]]}
dest=${2:-$here/../../samples/softroce}
all="rc_pingpong rc_write rc_read rc_send_imm rc_fadd uc_write_imm ud_send_imm
rc_write_loss rc_write_ecn rc_bad_rkey rc_rnr rc_rping_cm"
some=0
names=$all
if [ $# -gt 2 ]; then
	shift 2
	names=$*
	some=1
fi
mkdir -p "$dest"
counted=0
if [ "$names" = counters ]; then
	counted=1
	names=
fi
for n in $names; do
	[ -f "$res/$n.pcap" ] || { echo "make-samples: $res/$n.pcap: missing" >&2; exit 1; }
	size=$(wc -c <"$res/$n.pcap")
	[ "$size" -lt 204800 ] || { echo "make-samples: $res/$n.pcap: $size bytes, over 200 KB" >&2; exit 1; }
	extra=
	case $n in
	rc_rping_cm) extra="$n.server.log $n.client.log $n.trace.txt $n.res.txt" ;;
	esac
	for f in "$n.pcap" "$n.client.json" "$n.server.json" "$n.qdisc.txt" $extra; do
		[ -f "$res/$f" ] && cp "$res/$f" "$dest/$f"
	done
done
# The runs with rxe's counters read around them (verbs_capture_counted).
if [ $counted -eq 1 ] || [ $some -eq 0 ]; then
	for n in rc_write_loss rc_write_ecn; do
		[ -f "$res/$n.counters-before.rxe0.txt" ] ||
			{ echo "make-samples: $res/$n.counters-before.rxe0.txt: missing" >&2; exit 1; }
		size=$(wc -c <"$res/$n.pcap")
		[ "$size" -lt 204800 ] || { echo "make-samples: $res/$n.pcap: $size bytes, over 200 KB" >&2; exit 1; }
		mkdir -p "$dest/counters"
		for f in "$res/$n.pcap" "$res/$n.qdisc.txt" "$res/$n".counters-*.txt "$res/$n".rdma-*.txt; do
			[ -f "$f" ] && cp "$f" "$dest/counters/"
		done
	done
	[ $counted -eq 1 ] && names=counters
fi
kernel=$(sed -n 's/.*Linux version \([^ ]*\) .* Debian \([^ ]*\) .*/\1 (Debian \2)/p' "$res/dmesg.txt" | head -n1)
if [ $some -eq 1 ] && [ -f "$dest/VERSIONS.txt" ]; then
	for n in $names; do
		line="$n: kernel $kernel"
		for p in ibverbs-providers rdmacm-utils tcpdump; do
			line="$line, $p $(dpkg-query -W -f='${Version}' "$p" 2>/dev/null)"
		done
		line="$line, made $(date -u +%Y-%m-%d)"
		{ grep -v "^$n: " "$dest/VERSIONS.txt" || true; echo "$line"; } >"$dest/VERSIONS.txt.new"
		mv "$dest/VERSIONS.txt.new" "$dest/VERSIONS.txt"
	done
else
	{
		echo "kernel: $kernel"
		for p in ibverbs-providers ibverbs-utils rdmacm-utils tcpdump qemu-system-x86; do
			echo "$p: $(dpkg-query -W -f='${Version}' "$p" 2>/dev/null)"
		done
		echo "rocewire-verbs: $(sed -n 's/.*"tool_version": "\([^"]*\)".*/\1/p' "$res/rc_write.client.json" | head -n1)"
		echo "made: $(date -u +%Y-%m-%d)"
	} >"$dest/VERSIONS.txt"
fi
ls -l "$dest"
