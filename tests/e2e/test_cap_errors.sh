#!/usr/bin/env bash
# rocewire-cap's handling of bad input and bad options: exit status, and one
# clear line on stderr naming the file, the packet and its byte offset.
#
# The valid capture is built here, byte by byte, from the two known-answer
# frames of Scapy's RoCE test suite quoted in /work/shared/notes/icrc.md (a
# ConnectX-4 Lx CNP and a UC SEND_ONLY), so nothing in it comes from
# rocewire's own encoder. Record offsets follow from the pcap format: a
# 24-byte file header, then a 16-byte header before each frame.
#
# Environment: ROCEWIRE_CAP (the rocewire-cap binary). Exit 77 (skip) when it
# or python3 is missing.
set -u

CAP=${ROCEWIRE_CAP:-}
if [ -z "$CAP" ] || [ ! -x "$CAP" ]; then
	echo "SKIP: ROCEWIRE_CAP is not set to the rocewire-cap binary (got '${CAP}')"
	exit 77
fi
PY=$(command -v python3 || true)
if [ -z "$PY" ]; then
	echo "SKIP: python3 is needed to write the test captures"
	exit 77
fi

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

# ---- captures -------------------------------------------------------------
"$PY" - <<'EOF' || { echo "FAIL: could not write the test captures"; exit 1; }
import struct, binascii

# Scapy test/contrib/roce.uts, via notes/icrc.md.
cnp = binascii.unhexlify(
    "e41d2dab2bc27cfe90643b32080045c2003c718c400040119161"
    "0a0011010a001201000012b700280000"
    "8100ffff4000011800000000"
    "00000000000000000000000000000000"
    "82fd002a")
send = binascii.unhexlify(
    "248a07a8fa22248a07a8fa220800"
    "45010040047840004011b4d5c0a80007c0a80007"
    "c00012b7002caca2"
    "2460ffff000000d300cf1710"
    "4630818be28935d90e9a95505401be885e500000"
    "78f353f3")
assert len(cnp) == 74 and len(send) == 78

def pcap(records, linktype=1, snaplen=65535):
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, snaplen, linktype)
    for i, (data, wirelen) in enumerate(records):
        out += struct.pack("<IIII", 1700000000 + i, 0, len(data), wirelen) + data
    return out

def write(name, data):
    with open(name, "wb") as f:
        f.write(data)

write("good.pcap", pcap([(cnp, 74), (send, 78)]))
# One payload byte flipped: the wire ICRC (78 f3 53 f3) no longer matches.
bad = bytearray(send); bad[60] ^= 0x01
write("badicrc.pcap", pcap([(cnp, 74), (bytes(bad), 78)]))
# Packet 2 cut by the snapshot length (its record says 78 bytes on the wire,
# fewer captured) inside its BTH (14+20+8 = 42 bytes of headers, then 6 of
# the BTH's 12), and inside its payload. The file's snaplen stays 65535:
# libpcap would cut packet 1 too if it were lower.
write("snap_bth.pcap", pcap([(cnp, 74), (send[:48], 78)]))
write("snap_payload.pcap", pcap([(cnp, 74), (send[:60], 78)]))
# A link type rocewire does not read: 101 (raw IP).
write("rawip.pcap", pcap([(send[14:], 64)], linktype=101))
EOF
printf 'this is not a capture\n' >notes.txt
: >empty.pcap
mkdir adir
# good.pcap is 24 + (16 + 74) + (16 + 78) = 208 bytes; record 2 starts at 114.
head -c 200 good.pcap >cut_data.pcap   # record 2's frame: 70 of 78 bytes
head -c 120 good.pcap >cut_header.pcap # record 2's header: 6 of 16 bytes
head -c 10 good.pcap >cut_filehdr.pcap # the file header itself

# ---- helpers --------------------------------------------------------------
FAILS=0
CHECKS=0
CASE="writing the captures"
CASE_FAILED=0
CMD=""

# A failed check: counted once per case, stderr shown once per case.
fail() {
	echo "FAIL: $CASE: $*"
	if [ "$CASE_FAILED" -eq 0 ]; then
		echo "  command: $CMD"
		sed 's/^/  stderr: /' err
		FAILS=$((FAILS + 1))
	fi
	CASE_FAILED=1
}

# run NAME ARGS...: runs rocewire-cap, keeps rc, out and err.
run() {
	CASE=$1
	CASE_FAILED=0
	shift
	CMD="rocewire-cap $*"
	"$CAP" "$@" >out 2>err
	RC=$?
	CHECKS=$((CHECKS + 1))
}

expect_rc() {
	[ "$RC" -eq "$1" ] || fail "exit status $RC, expected $1"
}

# One stderr line names the input NAME; it holds every PATTERN (fixed strings).
expect_one_line() {
	local name=$1 n line
	shift
	n=$(grep -cF -- "$name" err)
	if [ "$n" -ne 1 ]; then
		fail "$n stderr lines name '$name', expected exactly 1"
		return
	fi
	line=$(grep -F -- "$name" err)
	for pat in "$@"; do
		case "$line" in
		*"$pat"*) ;;
		*) fail "the stderr line does not say '$pat': $line" ;;
		esac
	done
}

# The whole of stderr is one line holding every PATTERN.
expect_only_line() {
	local n
	n=$(wc -l <err)
	[ "$n" -eq 1 ] || fail "stderr has $n lines, expected exactly 1"
	for pat in "$@"; do
		grep -qF -- "$pat" err || fail "stderr does not say '$pat'"
	done
}

expect_stdout_lines() {
	local n
	n=$(wc -l <out)
	[ "$n" -eq "$1" ] || fail "stdout has $n lines, expected $1"
}

expect_stdout_has() {
	grep -qF -- "$1" out || fail "stdout does not contain '$1'"
}

# ---- good input -------------------------------------------------------------
run "valid capture" -r good.pcap
expect_rc 0
expect_stdout_lines 2
expect_stdout_has "CNP qp 0x000118 psn 0 becn"
expect_stdout_has "UC_SEND_ONLY qp 0x0000d3 psn 13571856"
expect_stdout_has "icrc ok"
grep -qF "good.pcap" err && fail "stderr names the file of a valid capture"

run "bad ICRC" -r badicrc.pcap
expect_rc 1
expect_stdout_has "icrc BAD (wire 0x78f353f3, computed 0x"
grep -qF "badicrc.pcap" err && fail "a bad ICRC is reported on stdout, not as an error line"

run "--no-icrc ignores a bad ICRC" --no-icrc -r badicrc.pcap
expect_rc 0

# ---- unreadable inputs: exit 2, one line, no summary --------------------------
run "missing file" -r no_such_file.pcap
expect_rc 2
expect_only_line "no_such_file.pcap" "cannot open" "No such file"
expect_stdout_lines 0

run "text file" -r notes.txt
expect_rc 2
expect_only_line "notes.txt" "not a pcap or pcapng file" "byte offset 0"

run "empty file" -r empty.pcap
expect_rc 2
expect_only_line "empty.pcap" "empty" "byte offset 0"

run "directory" -r adir
expect_rc 2
expect_only_line "adir" "directory"

run "cut file header" -r cut_filehdr.pcap
expect_rc 2
expect_only_line "cut_filehdr.pcap" "file header" "byte offset 10"

run "unsupported link type" -r rawip.pcap
expect_rc 2
expect_only_line "rawip.pcap" "link type RAW" "not supported"

run "missing file among good ones" -q -r good.pcap -r no_such_file.pcap -r good.pcap
expect_rc 2
expect_one_line "no_such_file.pcap" "cannot open"
grep -qF "4 packets read from 2 files" err || fail "the other files were not decoded"

# ---- cut files: exit 1, the packets before the cut are decoded ----------------
run "file cut inside packet data" -r cut_data.pcap
expect_rc 1
expect_stdout_lines 1
expect_one_line "cut_data.pcap" "packet 2" "byte offset 114" "packet data" "78 bytes expected" "70 present"

run "file cut inside a record header" -r cut_header.pcap
expect_rc 1
expect_stdout_lines 1
expect_one_line "cut_header.pcap" "packet 2" "byte offset 114" "record header" "16 bytes expected" "6 present"

# ---- packets cut by the snapshot length: decoded as far as they go --------------
run "snaplen cut in the BTH" -r snap_bth.pcap
expect_rc 1
expect_stdout_lines 2
expect_one_line "snap_bth.pcap" "packet 2" "byte offset 114" "snaplen" "48 of 78" "BTH"
expect_stdout_has "cut by snaplen"
grep -qF "truncated packets: 1" err || fail "the summary does not count the truncated packet"

run "snaplen cut in the payload" -r snap_payload.pcap
expect_rc 1
expect_one_line "snap_payload.pcap" "packet 2" "byte offset 114" "snaplen" "60 of 78"
expect_stdout_has "UC_SEND_ONLY qp 0x0000d3 psn 13571856"

run "snaplen cut, JSON" --json -r snap_bth.pcap
expect_rc 1
"$PY" - out <<'EOF' || fail "JSON output of a cut packet is not as documented"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2, rows
p = rows[1]
assert p["frame"] == 2 and p["truncated"] is True and p["caplen"] == 48 and p["len"] == 78, p
assert "bth" not in p and "error" in p and "udp" in p, p
assert rows[0]["icrc"] == {"status": "ok", "wire": "0x82fd002a", "computed": "0x82fd002a"}, rows[0]
EOF

# ---- bad options: exit 2, one line naming the problem, a pointer to --help -------
run "unknown long option" --no-such-option -r good.pcap
expect_rc 2
expect_only_line "--no-such-option" "--help"
expect_stdout_lines 0

run "unknown short option" -Z -r good.pcap
expect_rc 2
expect_only_line "'-Z'" "--help"

run "ambiguous option" --ver -r good.pcap
expect_rc 2
expect_only_line "ambiguous" "--verbose" "--version"

run "missing argument" -r
expect_rc 2
expect_only_line "-r" "needs an argument" "--help"

run "bad count" -c abc -r good.pcap
expect_rc 2
expect_only_line "'abc'" "--count"

run "bad port" --port 70000 -r good.pcap
expect_rc 2
expect_only_line "'70000'" "--port"

run "option that takes no argument" --json=yes -r good.pcap
expect_rc 2
expect_only_line "--json" "takes no argument"

run "no input" -q
expect_rc 2
expect_only_line "-r FILE" "--help"

run "-v with --json" -v --json -r good.pcap
expect_rc 2
expect_only_line "-v" "--json"

run "--help" --help
expect_rc 0
expect_stdout_has "Exit status"
[ -s err ] && fail "--help wrote to stderr"

run "--version" --version
expect_rc 0
expect_stdout_lines 1

echo "$((CHECKS - FAILS)) of $CHECKS cases passed"
[ "$FAILS" -eq 0 ]
