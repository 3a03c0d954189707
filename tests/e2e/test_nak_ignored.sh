#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A NAK nobody answered (nak_ignored) on a capture derived from the real
# Soft-RoCE loss capture: rocewire-cap's text, JSON and HTML reports against
# tshark's decode (nak_ignored_check.py says what is checked).
# env: ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$here/../..}
# shellcheck source=tshark_env.sh
. "$here/tshark_env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-nak-ignored.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$py" "$here/nak_ignored_check.py" "$ROCEWIRE_CAP" "$src/samples/softroce/rc_write_loss.pcap" "$work"
