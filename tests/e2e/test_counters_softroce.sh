#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap --counters-before/--counters-after on the real Soft-RoCE
# captures of samples/softroce, each counter's change set to tshark's count
# of the same event (counters_softroce.py).
set -eu
: "${ROCEWIRE_CAP:?}" "${ROCEWIRE_SOURCE_DIR:?}"
py=/usr/bin/python3
. "$ROCEWIRE_SOURCE_DIR/tests/e2e/tshark_env.sh"
exec "$py" "$ROCEWIRE_SOURCE_DIR/tests/e2e/counters_softroce.py" "$ROCEWIRE_CAP" \
	"$ROCEWIRE_SOURCE_DIR/samples/softroce"
