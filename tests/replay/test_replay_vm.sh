#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-replay --target into a live Soft-RoCE endpoint in the qemu VM of
# tests/vm (rxe-vm.sh; vm/replay.sh runs inside), then vm_check.py on what
# came back. Environment: ROCEWIRE_REPLAY, ROCEWIRE_VERBS, ROCEWIRE_SOURCE_DIR,
# ROCEWIRE_VM_OUT (the results folder). Exit 77 when no VM can be had here.
set -u
R=${ROCEWIRE_REPLAY:-}
V=${ROCEWIRE_VERBS:-}
SRC=${ROCEWIRE_SOURCE_DIR:-}
OUT=${ROCEWIRE_VM_OUT:-}
[ -x "$R" ] || { echo "FAIL: set ROCEWIRE_REPLAY"; exit 1; }
[ -x "$V" ] || { echo "SKIP: rocewire-verbs is not built (libibverbs-dev)"; exit 77; }
[ -n "$OUT" ] || { echo "FAIL: set ROCEWIRE_VM_OUT"; exit 1; }
"$SRC/tests/vm/rxe-vm.sh" --out "$OUT" --timeout 300 --boot-timeout 60 --bin "$V" --bin "$R" \
	"$SRC/tests/replay/vm/replay.sh"
rc=$?
[ $rc = 77 ] && exit 77
if [ $rc != 0 ]; then
	echo "FAIL: rxe-vm.sh exited $rc (results in $OUT)"
	tail -n 40 "$OUT"/*.log 2>/dev/null | tail -n 60
fi
/usr/bin/python3 "$SRC/tests/replay/vm_check.py" "$OUT" || rc=1
exit $rc
