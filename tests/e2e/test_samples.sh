#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# samples/ stays what samples/README.md says: every capture is remade by
# samples/make-samples.sh byte for byte, and each is under 100 KB.
# Env: ROCEWIRE_MKCAP, ROCEWIRE_SOURCE_DIR.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
mkcap=${ROCEWIRE_MKCAP:?set ROCEWIRE_MKCAP to rocewire-mkcap}
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-samples.XXXXXX")
trap 'rm -rf "$work"' EXIT
sh "$src/samples/make-samples.sh" "$mkcap" "$work" || exit 1
pass=0
fail=0
for f in "$work"/*.pcap; do
	name=$(basename "$f")
	if ! cmp -s "$f" "$src/samples/$name"; then
		echo "FAIL: samples/$name differs from what make-samples.sh writes now (rerun: samples/make-samples.sh $mkcap)"
		fail=$((fail + 1))
	elif [ "$(wc -c <"$f")" -ge 102400 ]; then
		echo "FAIL: samples/$name is $(wc -c <"$f") bytes, over 100 KB"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
