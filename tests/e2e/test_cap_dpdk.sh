#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap's DPDK source (-i dpdk:EAL-OPTIONS, run by rocewire-cap-dpdk):
#  1. every sample capture of Ethernet link type read by DPDK's net_pcap
#     (rx_pcap=) and written again with -c (its packet count): the file holds
#     the input's frames, byte for byte, in order (Scapy's raw reader);
#  2. --duration: a port that never runs dry (net_null) is captured for 1 s
#     and the run ends within a few seconds, exit 0, its file whole;
#  3. -c on a port that never runs dry: exactly that many packets written
#     (the file's size says so), exit 0;
#  4. bad EAL options: one line naming the problem, exit 2, no file left.
# Env: ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR.
set -u
cap=${ROCEWIRE_CAP:-}
src=${ROCEWIRE_SOURCE_DIR:-}
py=/usr/bin/python3
[ -n "$cap" ] && [ -x "$cap" ] || { echo "FAIL: set ROCEWIRE_CAP (got '$cap')"; exit 1; }
[ -x "$(dirname "$cap")/rocewire-cap-dpdk" ] || { echo "SKIP: rocewire-cap-dpdk was not built (no DPDK)"; exit 77; }
"$py" -c 'import scapy.utils' 2>/dev/null || { echo "SKIP: Scapy is not installed for $py"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-capdpdk.XXXXXX")
trap 'rm -rf "$work"' EXIT
eal="-l 0 --no-huge -m 512 --no-pci --no-shconf --log-level=*:error"
fails=0
n=0
for f in "$src"/samples/*.pcap "$src"/samples/softroce/*.pcap; do
	lt=$("$py" -c 'import sys; from scapy.utils import RawPcapReader as R; r = R(sys.argv[1]); print(r.linktype)' "$f" 2>/dev/null)
	[ "$lt" = 1 ] || continue # net_pcap gives Ethernet frames
	count=$("$py" -c 'import sys; from scapy.utils import RawPcapReader as R; print(sum(1 for _ in R(sys.argv[1])))' "$f")
	[ "$count" -gt 0 ] || continue
	b=$(basename "$f" .pcap)
	if ! "$cap" -i "dpdk:$eal --vdev=net_pcap0,rx_pcap=$f" --all -c "$count" -w "$work/$b.pcap" -q \
		2>"$work/$b.err"; then
		# a sample with bad ICRCs makes the exit status 1; 2 and more are failures
		[ $? -le 1 ] || { echo "FAIL: $b: $(tail -n 1 "$work/$b.err")"; fails=$((fails + 1)); continue; }
	fi
	if "$py" - "$f" "$work/$b.pcap" <<'PY'
import sys
from scapy.utils import RawPcapReader
a = [bytes(d) for d, _ in RawPcapReader(sys.argv[1])]
b = [bytes(d) for d, _ in RawPcapReader(sys.argv[2])]
sys.exit(0 if a == b else 1)
PY
	then
		n=$((n + 1))
	else
		echo "FAIL: $b: the written file is not the input, frame for frame"
		fails=$((fails + 1))
	fi
done
[ "$n" -ge 5 ] && echo "ok: $n samples through net_pcap, byte for byte" || { echo "FAIL: only $n samples compared"; fails=$((fails + 1)); }

start=$(date +%s)
"$cap" -i "dpdk:$eal --vdev=net_null0,size=64" --all --duration 1 -w "$work/null.pcap" -q 2>"$work/null.err"
rc=$?
end=$(date +%s)
wrote=$(sed -n 's/^rocewire-cap: wrote \([0-9]*\) packets to .*/\1/p' "$work/null.err")
if [ "$rc" = 0 ] && [ $((end - start)) -le 6 ] && [ -n "$wrote" ] && [ "$wrote" -gt 1000 ] &&
	[ "$(stat -c %s "$work/null.pcap")" = $((24 + wrote * 80)) ]; then
	echo "ok: --duration 1 on net_null: $wrote frames of 64 bytes, the file whole"
else
	echo "FAIL: --duration 1 on net_null: exit $rc after $((end - start)) s, wrote '${wrote:-?}'"
	tail -n 3 "$work/null.err"
	fails=$((fails + 1))
fi

"$cap" -i "dpdk:$eal --vdev=net_null0,size=64" --all -c 123457 -w "$work/count.pcap" -q 2>"$work/count.err"
rc=$?
wrote=$(sed -n 's/^rocewire-cap: wrote \([0-9]*\) packets to .*/\1/p' "$work/count.err")
if [ "$rc" = 0 ] && [ "$wrote" = 123457 ] && [ "$(stat -c %s "$work/count.pcap")" = $((24 + 123457 * 80)) ]; then
	echo "ok: -c 123457 on net_null: exactly 123457 frames written"
else
	echo "FAIL: -c 123457 on net_null: exit $rc, wrote '${wrote:-?}', file of $(stat -c %s "$work/count.pcap" 2>/dev/null) bytes"
	tail -n 3 "$work/count.err"
	fails=$((fails + 1))
fi

for spec in "dpdk:" "dpdk:--no-such-eal-option" "dpdk:$eal"; do
	"$cap" -i "$spec" -w "$work/bad.pcap" -q >/dev/null 2>"$work/bad.err"
	rc=$?
	# one line, naming the source as live errors do ("IFACE: problem")
	if [ "$rc" != 2 ] || [ "$(wc -l <"$work/bad.err")" != 1 ] || ! grep -q '^dpdk:' "$work/bad.err" ||
		ls "$work"/bad.pcap* >/dev/null 2>&1; then
		echo "FAIL: -i '$spec': exit $rc (want 2), $(wc -l <"$work/bad.err") line(s)"
		sed 's/^/    /' "$work/bad.err" | head -3
		fails=$((fails + 1))
	else
		echo "ok: -i '$spec': $(cut -c1-140 "$work/bad.err")"
	fi
done
exit $((fails > 0))
