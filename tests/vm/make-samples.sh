#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# make-samples.sh RESULTS_DIR [DEST]: copy the sample scenarios of a VM run
# (`ctest -L vm` leaves its results in BUILD/tests/vm/out) to DEST (default
# samples/softroce/ of this tree), each as NAME.pcap with its records
# (NAME.client.json, NAME.server.json; NAME.qdisc.txt for the netem runs), and
# write VERSIONS.txt, what made them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
res=${1:?usage: make-samples.sh RESULTS_DIR [DEST]}
dest=${2:-$here/../../samples/softroce}
names="rc_pingpong rc_write rc_read rc_send_imm rc_fadd uc_write_imm ud_send_imm
rc_write_loss rc_write_ecn rc_bad_rkey rc_rnr"
mkdir -p "$dest"
for n in $names; do
	[ -f "$res/$n.pcap" ] || { echo "make-samples: $res/$n.pcap: missing" >&2; exit 1; }
	size=$(wc -c <"$res/$n.pcap")
	[ "$size" -lt 204800 ] || { echo "make-samples: $res/$n.pcap: $size bytes, over 200 KB" >&2; exit 1; }
	for f in "$n.pcap" "$n.client.json" "$n.server.json" "$n.qdisc.txt"; do
		[ -f "$res/$f" ] && cp "$res/$f" "$dest/$f"
	done
done
{
	echo "kernel: $(sed -n 's/.*Linux version \([^ ]*\) .* Debian \([^ ]*\) .*/\1 (Debian \2)/p' "$res/dmesg.txt" | head -n1)"
	for p in ibverbs-providers ibverbs-utils tcpdump qemu-system-x86; do
		echo "$p: $(dpkg-query -W -f='${Version}' "$p" 2>/dev/null)"
	done
	echo "rocewire-verbs: $(sed -n 's/.*"tool_version": "\([^"]*\)".*/\1/p' "$res/rc_write.client.json" | head -n1)"
	echo "made: $(date -u +%Y-%m-%d)"
} >"$dest/VERSIONS.txt"
ls -l "$dest"
