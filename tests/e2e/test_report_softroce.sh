#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap --report on the real Soft-RoCE captures of samples/softroce,
# against the endpoints' records and tshark's AETH/ECN counts.
set -eu
: "${ROCEWIRE_CAP:?}" "${ROCEWIRE_SOURCE_DIR:?}"
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark is not installed (Debian: tshark)"
	exit 77
fi
if [ ! -x /usr/bin/python3 ]; then
	echo "SKIP: /usr/bin/python3 is missing"
	exit 77
fi
exec /usr/bin/python3 "$ROCEWIRE_SOURCE_DIR/tests/e2e/report_softroce.py" "$ROCEWIRE_CAP" \
	"$ROCEWIRE_SOURCE_DIR/samples/softroce"
