#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Wireshark cross-check: captures made by rocewire-mkcap (every opcode on
# every carrier and capture framing, PFC/PAUSE, a realistic mix) plus the
# samples/ tshark can read, decoded by tshark and by rocewire-cap --json, and
# compared field by field (tshark_xcheck.py).
# Env: ROCEWIRE_MKCAP, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR. Exit 77 when tshark
# or /usr/bin/python3 is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
mkcap=${ROCEWIRE_MKCAP:-}
cap=${ROCEWIRE_CAP:-}
py=/usr/bin/python3

# shellcheck source=tshark_env.sh
. "$(dirname "$0")/tshark_env.sh"
for t in "$mkcap" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_MKCAP and ROCEWIRE_CAP to the built tools (got \"$mkcap\", \"$cap\")" >&2
		exit 1
	fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-tshark.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A clean profile: no user preference or disabled protocol changes decoding.
export HOME="$work" XDG_CONFIG_HOME="$work/.config"

set -e
"$mkcap" --all-opcodes -o "$work/all-ethernet.pcap"
"$mkcap" --all-opcodes --linktype erf -o "$work/all-erf.pcap"
"$mkcap" --all-opcodes --linktype sll2 -o "$work/all-sll2.pcap"
"$mkcap" --all-opcodes --linktype sll -o "$work/all-sll.pcap"
"$mkcap" --pfc -o "$work/pfc.pcap"
"$mkcap" --mix 3000 -o "$work/mix.pcap"
# The same native IB frames twice: in ERF records for tshark, bare (link
# type 247) for rocewire-cap.
"$mkcap" --all-opcodes --linktype erf --carriers ib,ib-grh -o "$work/ib.erf.pcap"
"$mkcap" --all-opcodes --linktype infiniband -o "$work/ib.247.pcap"
"$mkcap" --bad -o "$work/bad-ethernet.pcap"
"$mkcap" --bad --linktype erf -o "$work/bad-erf.pcap"
set +e
files="$work/all-ethernet.pcap $work/all-erf.pcap $work/all-sll2.pcap $work/all-sll.pcap $work/pfc.pcap $work/mix.pcap $work/ib.erf.pcap=$work/ib.247.pcap"
# The samples tshark can read: not link type 247 (Wireshark 4.0's pcap reader
# does not know it). The deliberately broken ones come last, after
# --clean-only: only their frames that both decoders walk to the end are
# compared (good frames and bad ICRCs, not cut or malformed ones).
broken="$work/bad-ethernet.pcap $work/bad-erf.pcap"
for f in "$src"/samples/*.pcap; do
	[ -f "$f" ] || continue
	case $(basename "$f") in
	ib-native.pcap) continue ;;
	bad-*.pcap) broken="$broken $f" ;;
	*) files="$files $f" ;;
	esac
done
# samples/ib-native.pcap holds the frames of samples/ib-erf.pcap, bare.
if [ -f "$src/samples/ib-erf.pcap" ] && [ -f "$src/samples/ib-native.pcap" ]; then
	files="$files $src/samples/ib-erf.pcap=$src/samples/ib-native.pcap"
fi
files="$files --clean-only $broken"
# shellcheck disable=SC2086
"$py" "$here/tshark_xcheck.py" "$cap" $files
