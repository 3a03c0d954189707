#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap -v and --json print the same (header, field) pairs with the
# same values (issue 24: both walk proto's field tables), on the samples and
# on rocewire-mkcap's captures of every opcode on every link type, PFC, a
# mix and damaged packets.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
mkcap=${ROCEWIRE_MKCAP:-}
cap=${ROCEWIRE_CAP:-}
py=/usr/bin/python3

if [ ! -x "$py" ]; then
	echo "SKIP: $py is missing"
	exit 77
fi
for t in "$mkcap" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_MKCAP and ROCEWIRE_CAP to the built tools (got \"$mkcap\", \"$cap\")" >&2
		exit 1
	fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-vjson.XXXXXX")
trap 'rm -rf "$work"' EXIT

set -e
"$mkcap" --all-opcodes -o "$work/all-ethernet.pcap"
"$mkcap" --all-opcodes --linktype erf -o "$work/all-erf.pcap"
"$mkcap" --all-opcodes --linktype sll2 -o "$work/all-sll2.pcap"
"$mkcap" --all-opcodes --linktype sll -o "$work/all-sll.pcap"
"$mkcap" --pfc -o "$work/pfc.pcap"
"$mkcap" --mix 2000 -o "$work/mix.pcap"
"$mkcap" --all-opcodes --linktype erf --carriers ib,ib-grh -o "$work/ib.erf.pcap"
"$mkcap" --all-opcodes --linktype infiniband -o "$work/ib.247.pcap"
"$mkcap" --bad -o "$work/bad-ethernet.pcap"
"$mkcap" --bad --linktype erf -o "$work/bad-erf.pcap"
set +e
exec "$py" "$here/vjson_check.py" "$cap" "$src"/samples/*.pcap "$src"/samples/softroce/*.pcap "$work"/*.pcap
