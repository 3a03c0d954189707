#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Captures that start or end mid-conversation: the real Soft-RoCE captures
# in samples/softroce and every crafted scenario of rocewire-mkscenario, cut
# at every record boundary of their first 20 records (and 5 more points) and
# near their end, must keep the whole file's verdicts (cut_check.py says
# exactly what is compared).
#
# env: ROCEWIRE_NOTES, ROCEWIRE_MKSCENARIO, ROCEWIRE_SOURCE_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$here/../..}
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
if [ -z "$py" ]; then
	echo "SKIP: python3 not found"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-cut.XXXXXX")
trap 'rm -rf "$work"' EXIT
for s in $("$ROCEWIRE_MKSCENARIO" --list | cut -f1); do
	"$ROCEWIRE_MKSCENARIO" "$s" -o "$work/$s.pcap" -t "$work/$s.json"
done
"$py" "$here/cut_check.py" "$ROCEWIRE_NOTES" "$src"/samples/softroce/*.pcap "$src"/samples/softroce/counters/*.pcap "$work"/*.pcap
