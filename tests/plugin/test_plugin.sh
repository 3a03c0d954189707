#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The Wireshark plugin's checks (plugin_check.py CHECK) over every sample
# tshark can read and, for the analysis checks, every crafted report
# scenario (rocewire-mkscenario).
#
# usage: test_plugin.sh CHECK     (icrc, fields, flows, twopass, tap, stats, load, nak_ignored)
# env: ROCEWIRE_CAP, ROCEWIRE_NOTES, ROCEWIRE_MKSCENARIO  the built tools
#      ROCEWIRE_PLUGIN_DIR  the folder holding 4.0/epan/rocewire.so
#      ROCEWIRE_SOURCE_DIR  the source tree
# Exit 77 (skip) when tshark or python3 is missing.
set -u
check=$1
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$here/../..}
py=/usr/bin/python3
# shellcheck source=../e2e/tshark_env.sh
. "$here/../e2e/tshark_env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-plugin-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Samples: all but ib-native.pcap (link type 247, which Wireshark 4.0 cannot
# open; ib-erf.pcap holds the same frames).
files=""
for f in "$src"/samples/*.pcap; do
	case $(basename "$f") in
	ib-native.pcap) ;;
	*) files="$files $f" ;;
	esac
done
case $check in
fields | flows | twopass | tap)
	if [ -z "${ROCEWIRE_MKSCENARIO:-}" ] || [ ! -x "$ROCEWIRE_MKSCENARIO" ]; then
		echo "FAIL: ROCEWIRE_MKSCENARIO is not an executable: '${ROCEWIRE_MKSCENARIO:-}'"
		exit 1
	fi
	for sc in $("$ROCEWIRE_MKSCENARIO" --list | cut -f1); do
		"$ROCEWIRE_MKSCENARIO" "$sc" -o "$work/scenario-$sc.pcap" -t "$work/$sc.truth.json" || exit 1
		files="$files $work/scenario-$sc.pcap"
	done
	;;
load) files="$src/samples/rocev2-all-opcodes.pcap $src/samples/ib-erf.pcap" ;;
nak_ignored) files="$src/samples/softroce/rc_write_loss.pcap" ;;
stats)
	# Every capture under samples/ (ib-native.pcap too: the check says
	# it skips what tshark cannot open).
	files=$(find "$src/samples" \( -name '*.pcap' -o -name '*.pcapng' \) | sort | tr '\n' ' ') ;;
esac
# shellcheck disable=SC2086
exec "$py" "$here/plugin_check.py" "$check" $files
