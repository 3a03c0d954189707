#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_check_cm_negative.sh PYTHON DIR: check_cm.py passes on DIR's
# rc_rping_cm (the sample) and fails on tampered copies: a client packet sent
# to another QPN (its ICRC then bad too), the capture cut before the DREP, a
# kernel trace naming another QP. Exit 77 without tshark.
set -u
py=${1:?usage: test_check_cm_negative.sh PYTHON DIR}
src=${2:?usage: test_check_cm_negative.sh PYTHON DIR}
here=$(cd "$(dirname "$0")" && pwd)
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark is not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-cm-neg.XXXXXX")
trap 'rm -rf "$work"' EXIT
n=rc_rping_cm
status=0

fresh() {
	rm -rf "${work:?}/${1:?}" && mkdir -p "$work/$1" && cp "$src/$n".* "$work/$1/"
}
# expect WHAT PASS|FAIL CASE: check_cm.py on $work/CASE.
expect() {
	"$py" "$here/check_cm.py" "$work/$3" $n >"$work/$3.out" 2>&1
	rc=$?
	if { [ "$2" = PASS ] && [ $rc -ne 0 ]; } || { [ "$2" = FAIL ] && [ $rc -ne 1 ]; }; then
		echo "FAIL: $1: check_cm.py exited $rc, expected ${2}:"
		tail -n 5 "$work/$3.out"
		status=1
	else
		echo "ok: $1 ($(grep -m1 '^FAIL' "$work/$3.out" || echo passes))"
	fi
}
# pcap_edit CASE PYTHON-STATEMENTS: edit frame list f (bytearrays) of CASE's capture.
pcap_edit() {
	"$py" - "$work/$1/$n.pcap" "$2" <<'EOF'
import struct, sys
p, code = sys.argv[1], sys.argv[2]
d = open(p, "rb").read()
hdr, f, off = d[:24], [], 24
while off < len(d):
    incl = struct.unpack("<I", d[off + 8:off + 12])[0]
    f.append((bytearray(d[off:off + 16]), bytearray(d[off + 16:off + 16 + incl])))
    off += 16 + incl
exec(code)
open(p, "wb").write(hdr + b"".join(bytes(h) + bytes(b) for h, b in f))
EOF
}

fresh orig
expect "the sample" PASS orig
fresh destqp
pcap_edit destqp 'f[3][1][14 + 20 + 8 + 7] ^= 1'
expect "a client SEND to another QPN" FAIL destqp
fresh nodrep
pcap_edit nodrep 'del f[-1]'
expect "the capture cut before the DREP" FAIL nodrep
fresh trace
sed -i 's/\(cm_send_rep: .*qp_num=\)\([0-9]*\)/\1999/' "$work/trace/$n.trace.txt"
expect "a trace naming another QP" FAIL trace
exit $status
