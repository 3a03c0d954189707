#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-verbs' command line without an RDMA device: --help and --version,
# usage errors (exit 2, one line on stderr), a device that is not there (exit
# 3, one line, and a record saying so), and a man page that documents every
# option --help lists.
#   test_cli.sh BINARY MANPAGE
bin=$1
man=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS NAME ARGS...: exit status STATUS, and for 2/3 exactly one
# line on stderr starting "rocewire-verbs: ".
expect() {
	want=$1 name=$2
	shift 2
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$name: exit $rc, expected $want; stderr: $(cat "$tmp/err")"
		return
	fi
	if [ "$want" -ge 2 ]; then
		n=$(wc -l <"$tmp/err")
		if [ "$n" -ne 1 ] || ! grep -q '^rocewire-verbs: ' "$tmp/err"; then
			bad "$name: expected one 'rocewire-verbs: ' line on stderr, got: $(cat "$tmp/err")"
			return
		fi
	fi
	ok
}

expect 0 help --help
grep -q '^Usage: rocewire-verbs server' "$tmp/out" || bad "--help has no Usage line"
grep -q '^Exit status: 0' "$tmp/out" || bad "--help does not document the exit status"
expect 0 server-help server --help
expect 0 version --version
grep -q '^rocewire-verbs [0-9]' "$tmp/out" || bad "--version prints '$(cat "$tmp/out")'"

expect 2 no-mode
expect 2 bad-mode serve
expect 2 client-no-host client
expect 2 bad-op client 192.0.2.1 -o frob
expect 2 read-uc client 192.0.2.1 -o read -c UC
grep -q 'needs --transport RC' "$tmp/err" || bad "read-uc: $(cat "$tmp/err")"
expect 2 write-ud client 192.0.2.1 -o write -c UD
expect 2 ud-too-big client 192.0.2.1 -c UD -s 8192
expect 2 bad-mtu server -m 1500
expect 2 bad-rkey-server server -o write --bad-rkey
expect 2 no-recv-write server -o write --no-recv
expect 2 fixed-no-qpn server --fixed-peer --remote-psn 0 --remote-gid 192.0.2.2
expect 2 unknown-option server --frobnicate

# No such device, wherever this runs: a setup error, recorded.
expect 3 no-device server --dev rwv-no-such-device --timeout 1 --record "$tmp/r.json"
grep -qi 'RDMA' "$tmp/err" || bad "no-device: the message does not say what is missing: $(cat "$tmp/err")"
if [ ! -s "$tmp/r.json" ]; then
	bad "no-device: no record written"
elif command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/r.json" <<'PY' || bad "no-device: record check failed"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["format"] == "rocewire-verbs-record", r["format"]
assert r["result"] == "setup-error" and r["exit_status"] == 3, (r["result"], r["exit_status"])
assert r["error"] and "RDMA" in r["error"], r["error"]
assert r["role"] == "server" and r["qp"] == [], r["qp"]
PY
	[ $? -eq 0 ] && ok
fi
expect 3 no-device-client client 192.0.2.1 --dev rwv-no-such-device --timeout 1

# Every long option of --help is in the man page.
"$bin" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/opts"
missing=
while read -r o; do
	grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "$man" || grep -qF -- "$o" "$man" || missing="$missing $o"
done <"$tmp/opts"
[ -z "$missing" ] && ok || bad "options missing from $man:$missing"

echo "verbs cli: $passes passed, $fails failed"
[ $fails -eq 0 ]
