#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Rotation of -w files:
#  -C MB: FILE, FILE1, FILE2, ... each at most MB million bytes, each a valid
#         file (tshark), together exactly the frames sent, in order (pcap and
#         pcapng);
#  -G S with a strftime pattern: one file per period, named by the pattern,
#         each valid, together as many frames as rocewire-cap wrote, all of
#         them sent;
#  -G S without '%': FILE, FILE1, ... (nothing overwritten).
# No FILE.XXXXXX.part is left anywhere.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/live_common.sh"
need_tools
ns_setup

"$MKCAP" --all-opcodes -o roce.pcap >/dev/null || { echo "FAIL: rocewire-mkcap"; exit 1; }
"$MKCAP" --mix 2000 -o mix.pcap >/dev/null || { echo "FAIL: rocewire-mkcap"; exit 1; }
n=$(frames roce.pcap)
mkdir -p c g h

# -C 0.2: files of at most 200000 bytes
for fmt in pcap pcapng; do
	start_cap "e_c_$fmt" "o_c_$fmt" -i vB -w "c/r.$fmt" -C 0.2 -c "$n" -q || continue
	inject roce.pcap
	wait_cap 15
	[ "$CAP_RC" = 0 ] || fail "-C ($fmt): status $CAP_RC: $(tail -n 2 "e_c_$fmt")"
	files=$(cd c && ls "r.$fmt"* | sort -V)
	count=$(echo "$files" | wc -l)
	expect="r.$fmt"
	for i in $(seq 1 $((count - 1))); do expect="$expect r.$fmt$i"; done
	[ "$(echo $files)" = "$expect" ] || fail "-C ($fmt): files $(echo $files), expected $expect"
	[ "$count" -ge 4 ] || fail "-C ($fmt): $count files for $(stat -c %s roce.pcap) bytes at 200000 each"
	paths=""
	for f in $files; do
		s=$(stat -c %s "c/$f")
		[ "$s" -le 200000 ] || fail "-C ($fmt): c/$f is $s bytes, over 200000"
		tshark_ok "c/$f"
		paths="$paths c/$f"
	done
	if msg=$("$PY" - $paths <<'EOF'
import sys
from scapy.utils import RawPcapReader, RawPcapNgReader
def frames(p):
    with open(p, "rb") as fh:
        magic = fh.read(4)
    R = RawPcapNgReader if magic == b"\x0a\x0d\x0d\x0a" else RawPcapReader
    return [bytes(d) for d, _ in R(p)]
got = [f for p in sys.argv[1:] for f in frames(p)]
want = frames("roce.pcap")
if got != want:
    sys.exit("%d frames in the files, %d sent, or not in order" % (len(got), len(want)))
EOF
	); then
		ok "-C 0.2 ($fmt): $count files, each <= 200000 bytes, together the $n frames in order"
	else
		fail "-C ($fmt): $msg"
	fi
	grep -q "wrote $n packets to $count files, c/r.$fmt to c/r.$fmt$((count - 1))" "e_c_$fmt" ||
		fail "-C ($fmt): closing line: $(grep wrote "e_c_$fmt")"
done

# -G 1 with a strftime pattern, traffic at 500 frames/s for ~3.5 s
start_cap e_g o_g -i vB -w 'g/t-%H%M%S.pcapng' -G 1 --duration 3.5 -q || exit 1
inject mix.pcap --pps 500 --limit 1700
wait_cap 10
[ "$CAP_RC" = 0 ] || fail "-G: status $CAP_RC: $(tail -n 2 e_g)"
wrote=$(sed -n 's/^rocewire-cap: wrote \([0-9]*\) packets to .*/\1/p' e_g)
files=$(ls g)
count=$(echo "$files" | wc -l)
total=0
for f in $files; do
	case $f in
	t-[0-9][0-9][0-9][0-9][0-9][0-9].pcapng) ;;
	*) fail "-G: unexpected file name g/$f" ;;
	esac
	tshark_ok "g/$f"
	total=$((total + $(frames "g/$f")))
done
if [ "$count" -ge 3 ] && [ "$count" -le 5 ] && [ "$total" = "$wrote" ] && [ "$total" -gt 1000 ]; then
	ok "-G 1 over 3.5 s: $count files named by the pattern, $total frames in all"
else
	fail "-G 1: $count files ($(echo $files)), $total frames, rocewire-cap wrote '$wrote'"
fi

# -G 1 without '%': numbered
# 3.5 s: a file opens with its first packet and closes at the first
# once-a-second check past 1 s, so 2.5 s may hold only two periods
start_cap e_h o_h -i vB -w h/t.pcap -G 1 --duration 3.5 -q || exit 1
inject mix.pcap --pps 500 --limit 1700
wait_cap 10
files=$(cd h && ls | sort -V)
case "$(echo $files)" in
"t.pcap t.pcap1 t.pcap2"*) ok "-G 1 without a pattern: $(echo $files)" ;;
*) fail "-G 1 without a pattern: files $(echo $files)" ;;
esac
for f in $files; do tshark_ok "h/$f"; done

leftover=$(find c g h -name '*.part')
[ -z "$leftover" ] || fail "left behind: $leftover"

exit $FAILED
