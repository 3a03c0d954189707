#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
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

TESTS=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

# ---- captures -------------------------------------------------------------
RW_TESTS=$TESTS "$PY" - <<'EOF' || { echo "FAIL: could not write the test captures"; exit 1; }
import os, struct, sys

# Scapy test/contrib/roce.uts, via notes/icrc.md.
sys.path.insert(0, os.environ["RW_TESTS"])
from icrc_vectors import CNP as cnp, SEND as send

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

# ERF (link type 197) InfiniBand records (type 21, bit 7: extension headers
# follow) with 300 extension headers, each with bit 7 set but the last:
# more than the 254 rocewire reads. Whole, and captured up to the 260th
# (16 + 260 * 8 bytes of 2448): malformed either way, not truncated.
def erf(n_ext, frame=bytes(32)):
    rlen = 16 + 8 * n_ext + len(frame)
    hdr = struct.pack("<Q", 0) + struct.pack(">BBHHH", 0x95, 0, rlen, 0, len(frame))
    ext = b"".join(bytes([(0x80 if i + 1 < n_ext else 0) | 0x04]) + bytes(7) for i in range(n_ext))
    return hdr + ext + frame
many = erf(300)
write("erf_many.pcap", pcap([(many, len(many))], linktype=197))
write("erf_many_cut.pcap", pcap([(many[:16 + 260 * 8], len(many))], linktype=197))

# pcapng whose strings carry terminal escapes and line breaks: the SHB's
# comment, hardware, OS and application, the IDB's name, description and
# comment, the EPB's comment. None of them may reach the terminal raw.
def opt(code, val):
    return struct.pack("<HH", code, len(val)) + val + bytes(-len(val) % 4)
def block(btype, body):
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)
evil = b"\x1b]0;owned\x07\x1b[2J\r\nforged line\x1b[31m\x9b31m\xc2\x9b31m"
shb = struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) + opt(1, b"shb " + evil) + \
    opt(2, b"hw " + evil) + opt(3, b"os " + evil) + opt(4, b"app " + evil) + opt(0, b"")
idb = struct.pack("<HHI", 1, 0, 65535) + opt(2, b"eth" + evil) + opt(3, b"desc " + evil) + \
    opt(1, b"idb " + evil) + opt(0, b"")
epb = struct.pack("<IIIII", 0, 0, 0, len(send), len(send)) + send + bytes(-len(send) % 4) + \
    opt(1, b"pkt " + evil) + opt(0, b"")
write("evil.pcapng", block(0x0A0D0D0A, shb) + block(1, idb) + block(6, epb))
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

# Neither stdout nor stderr holds a byte a terminal acts on: C0 controls but
# the newline, DEL, C1 controls as UTF-8; and both are valid UTF-8, so no
# raw C1 byte (0x9b is CSI on an 8-bit terminal) either.
expect_no_control() {
	local f
	for f in out err; do
		if LC_ALL=C grep -qaP '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$f"; then
			fail "$f holds a raw control byte: $(LC_ALL=C grep -naP \
				'[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$f" | head -1 | od -c | head -3)"
		fi
		iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 || fail "$f is not valid UTF-8 (a raw byte)"
	done
}

# run_live NAME ARGS...: run, bounded in time (a live capture).
run_live() {
	CASE=$1
	CASE_FAILED=0
	shift
	CMD="rocewire-cap $*"
	timeout 60 "$CAP" "$@" >out 2>err
	RC=$?
	CHECKS=$((CHECKS + 1))
}

expect_victim_intact() {
	cmp -s victim victim.orig || fail "the file behind the planted symlink was changed"
}

# No temporary file of FINAL (FINAL.XXXXXX.SUFFIX) is left.
expect_no_temp() {
	local t
	for t in "$1".*"$2"; do
		[ -e "$t" ] || [ -L "$t" ] || continue
		[ -L "$t" ] && [ "$(readlink "$t")" = victim ] && continue # the planted one
		fail "a temporary file was left behind: $t"
	done
}

# ---- good input -------------------------------------------------------------
run "valid capture" -r good.pcap
expect_rc 0
expect_stdout_lines 2
expect_stdout_has "CNP dqpn 0x000118 psn 0 becn"
expect_stdout_has "UC_SEND_ONLY dqpn 0x0000d3 psn 13571856"
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
expect_stdout_has "UC_SEND_ONLY dqpn 0x0000d3 psn 13571856"

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

run "unknown short option" -J -r good.pcap
expect_rc 2
expect_only_line "'-J'" "--help"

run "-Z reading a file" -Z nobody -r good.pcap
expect_rc 2
expect_only_line "-Z/--relinquish-privileges applies to a live capture" "--help"

run "-Z with an empty user" -i lo -Z ""
expect_rc 2
expect_only_line "-Z/--relinquish-privileges: empty user name" "--help"

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

for bad in 67 0ms -5ms 5ks 9000s ms "67 ms"; do
	run "bad --rto $bad" -q --report --rto "$bad" -r good.pcap
	expect_rc 2
	expect_only_line "--rto: '$bad'" "a time with a unit" "--help"
	expect_stdout_lines 0
done

for good in 67ms 500us 1s 1.5µs 250000000ns; do
	run "--rto $good" -q --report --json --rto "$good" -r good.pcap
	expect_rc 0
done
run "--rto reaches the report" -q --report --json --rto 1.5ms -r good.pcap
expect_rc 0
expect_stdout_has '"rto_us": 1500'

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

# ---- ERF records with more extension headers than rocewire reads -------------
run "ERF record with 300 extension headers" -r erf_many.pcap
expect_rc 1
expect_stdout_lines 1
expect_one_line "erf_many.pcap" "packet 1" "byte offset 24" "ERF malformed at byte 2048" \
	"too many extension headers" "(300;" "at most 254"
grep -qF "record length" err && fail "the record length is blamed for too many extension headers"
grep -qF "decode errors: 1 (malformed ERF 1)" err || fail "the summary does not count one malformed ERF"

run "ERF record cut inside its 300 extension headers" -r erf_many_cut.pcap
expect_rc 1
expect_stdout_lines 1
expect_one_line "erf_many_cut.pcap" "packet 1" "byte offset 24" "too many extension headers" \
	"(at least 260;" "at most 254"
grep -qF "truncated at" err && fail "reported as truncated rather than as too many extension headers"

# ---- names and strings with control characters: escaped (\xHH), never raw -----
run "missing file named with ESC and a newline" -r $'miss\x1b[2J\nline.pcap'
expect_rc 2
expect_only_line 'miss\x1b[2J\x0aline.pcap: cannot open' "No such file"
expect_no_control

cp snap_bth.pcap $'cut\x1b]0;t\x07\nname.pcap'
run "cut packet in a file named with control characters" -r $'cut\x1b]0;t\x07\nname.pcap'
expect_rc 1
expect_stdout_lines 2
expect_one_line 'cut\x1b]0;t\x07\x0aname.pcap: packet 2 at byte offset 114' "snaplen" "48 of 78"
expect_no_control

run "--report title of a file named with control characters" -q --report \
	-r $'cut\x1b]0;t\x07\nname.pcap'
expect_rc 1
expect_stdout_has 'rocewire report: cut\x1b]0;t\x07\x0aname.pcap'
expect_no_control

cp good.pcap $'good\x1b[31m\\\n.pcap'
run "JSON names the file exactly (JSON escapes)" --json -r $'good\x1b[31m\\\n.pcap' -r good.pcap
expect_rc 0
expect_stdout_lines 4
expect_no_control
"$PY" - out <<'EOF' || fail "the JSON \"file\" is not the file's name"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows[0]["file"] == "good\x1b[31m\\\n.pcap", rows[0]
assert rows[3]["file"] == "good.pcap", rows[3]
EOF

# Several files and --json: the JSON's "file" is the raw name, the warning on
# stderr about a cut packet the escaped one.
run "JSON over several files, a cut packet in a file named with control characters" \
	--json -r $'cut\x1b]0;t\x07\nname.pcap' -r good.pcap
expect_rc 1
expect_one_line 'cut\x1b]0;t\x07\x0aname.pcap: packet 2 at byte offset 114' "snaplen"
expect_no_control

run "--html into a missing folder named with ESC" -q -r good.pcap --html $'no\x1b[31m/r.html'
expect_rc 2
expect_one_line 'no\x1b[31m/r.html: cannot write the HTML report' "No such file"
expect_no_control

run "option value with control characters" --port $'\x1b[31m\n' -r good.pcap
expect_rc 2
expect_only_line "'\x1b[31m\x0a'" "--port"
expect_no_control

run "unknown option with control characters" $'--\x1b[2Jx' -r good.pcap
expect_rc 2
expect_only_line "'--\x1b[2Jx'" "--help"
expect_no_control

run "unknown short option that is a control character" $'-\x1b' -r good.pcap
expect_rc 2
expect_only_line "'-\x1b'" "--help"
expect_no_control

for mode in -l -v --json --report; do
	run "pcapng strings with control characters ($mode)" $mode -r evil.pcapng
	expect_rc 0
	[ "$mode" = --report ] || expect_stdout_has "13571856"
	expect_no_control
done

# ---- temporary files: never through a planted symlink, never left behind ------
printf 'precious\n' >victim
cp victim victim.orig

ln -s victim r.html.tmp
run "--html with a symlink planted at OUT.tmp" -q -r good.pcap --html r.html
expect_rc 0
expect_victim_intact
[ -f r.html ] && [ ! -L r.html ] && grep -qF "</html>" r.html || fail "r.html is not a complete page"
expect_no_temp r.html .tmp

ln -s victim r2.html
run "--html onto a symlink at OUT" -q -r good.pcap --html r2.html
expect_rc 0
expect_victim_intact
[ -f r2.html ] && [ ! -L r2.html ] && grep -qF "</html>" r2.html || fail "r2.html did not replace the link"
expect_no_temp r2.html .tmp

mkdir isdir.html
run "--html onto a directory" -q -r good.pcap --html isdir.html
expect_rc 2
expect_one_line "isdir.html" "cannot write the HTML report" "Is a directory"
expect_no_temp isdir.html .tmp
[ -z "$(ls -A isdir.html)" ] || fail "something was written into the directory"

# -w needs a live capture: on lo, when this process may capture (root).
if timeout 60 "$CAP" -i lo --duration 0.1 -q >/dev/null 2>&1; then
	ln -s victim w.pcap.part
	run_live "-w with a symlink planted at FILE.part" -i lo --duration 0.2 -q -w w.pcap
	expect_rc 0
	expect_victim_intact
	expect_one_line "w.pcap" "wrote" "packets to w.pcap"
	"$CAP" -q -r w.pcap >/dev/null 2>&1 || fail "w.pcap is not a readable capture"
	expect_no_temp w.pcap .part

	run_live "-w into a missing folder" -i lo --duration 0.2 -q -w nodir/w.pcap
	expect_rc 2
	expect_only_line "nodir/w.pcap: cannot create" "No such file"
	[ -e nodir ] && fail "nodir was created"

	run_live "-w named with control characters, into a missing folder" -i lo --duration 0.2 \
		-q -w $'no\x1b[2J/w.pcap'
	expect_rc 2
	expect_only_line 'no\x1b[2J/w.pcap: cannot create' "No such file"
	expect_no_control
else
	echo "SKIP: cannot capture on lo (not root?): the -w cases"
fi

echo "$((CHECKS - FAILS)) of $CHECKS cases passed"
[ "$FAILS" -eq 0 ]
