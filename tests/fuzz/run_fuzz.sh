#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Builds a libFuzzer target with clang (compiling proto/src/*.c directly, so
# the library is instrumented too, and the gen/ or replay/ sources the
# target parses with: the scenario parser with -lyaml, replay's option
# parser and filters, the generator's model and responder for gen_rx) in a scratch folder and runs it for a bounded time,
# seeded from samples/, tests/fuzz/regressions/, tests/fuzz/seeds/
# (fuzz_packet's build mode), tests/fuzz/seeds-<target>/ (for gen_rx: runs of
# frames from a real run, tests/fuzz/pcap2records.py), the sample and bad
# scenarios (fuzz_scenario) and, when ROCEWIRE_MKCAP names rocewire-mkcap, a
# few fresh captures.
#
# usage: run_fuzz.sh [packet|pcap|mad|scenario|replay_rules|gen_rx]...  (default: all six)
# env:   FUZZ_SECONDS   run time per target (default 30)
#        FUZZ_RUNS      stop a target after this many inputs, if sooner
#                       (long runs: FUZZ_RUNS=10000000 FUZZ_SECONDS=7200)
#        FUZZ_CORPUS    folder that keeps each target's grown corpus
#                       (FUZZ_CORPUS/<target>), so that a long campaign
#                       goes on where the last run stopped (default: the
#                       scratch folder)
#        FUZZ_ARTIFACTS folder that keeps crash inputs (default: the scratch
#                       folder, removed at the end unless a crash was found)
#        CLANG          the compiler (default clang, then clang-14)
#        ROCEWIRE_SOURCE_DIR, ROCEWIRE_MKCAP
# Exit: 0 no crash, 1 a crash (its input is kept and printed in hex) or an
# interrupted run (said as such), 77
# clang or the libFuzzer runtime is missing.
set -u
src=${ROCEWIRE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
secs=${FUZZ_SECONDS:-30}
runs=${FUZZ_RUNS:--1}
targets=${*:-packet pcap mad scenario replay_rules gen_rx}

cc=${CLANG:-}
if [ -z "$cc" ]; then
	for c in clang clang-14; do
		if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
	done
fi
if [ -z "$cc" ]; then
	echo "SKIP: clang not found (apt-get install clang libclang-rt-14-dev)"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-fuzz.XXXXXX")
keep=0
cleanup() { [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT

printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$work/probe.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$work/probe.c" -o "$work/probe" 2>"$work/probe.err"; then
	echo "SKIP: $cc cannot link a libFuzzer target (libclang-rt-dev missing?): $(head -n 1 "$work/probe.err")"
	exit 77
fi

cflags="-g -O1 -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
	-I$src/proto/include -I$src/proto/src"

# Seeds: the samples and the regressions, plus fresh captures when possible.
mkdir -p "$work/seeds-pcap" "$work/seeds-packet"
for f in "$src"/samples/*.pcap "$src"/samples/*.pcapng; do
	[ -f "$f" ] && cp "$f" "$work/seeds-pcap/"
done
if [ -n "${ROCEWIRE_MKCAP:-}" ] && [ -x "$ROCEWIRE_MKCAP" ]; then
	"$ROCEWIRE_MKCAP" --all-opcodes --max-payload 64 -o "$work/seeds-pcap/mk-eth.pcap"
	"$ROCEWIRE_MKCAP" --all-opcodes --max-payload 64 --linktype erf -o "$work/seeds-pcap/mk-erf.pcap"
	"$ROCEWIRE_MKCAP" --all-opcodes --max-payload 64 --linktype 247 -o "$work/seeds-pcap/mk-ib.pcap"
	"$ROCEWIRE_MKCAP" --all-opcodes --max-payload 16 --linktype sll2 -o "$work/seeds-pcap/mk-sll2.pcap"
	"$ROCEWIRE_MKCAP" --all-opcodes --max-payload 16 --linktype sll -o "$work/seeds-pcap/mk-sll.pcap"
	"$ROCEWIRE_MKCAP" --bad -o "$work/seeds-pcap/mk-bad.pcap"
	"$ROCEWIRE_MKCAP" --pfc -o "$work/seeds-pcap/mk-pfc.pcap"
fi
# A pcapng seed too, when Wireshark's editcap is there to convert one.
if command -v editcap >/dev/null 2>&1; then
	for f in "$work/seeds-pcap"/*.pcap; do
		[ -f "$f" ] || continue
		editcap -F pcapng "$f" "$work/seeds-pcap/$(basename "$f" .pcap).pcapng" >/dev/null 2>&1 || true
		break
	done
fi
if [ -x /usr/bin/python3 ]; then
	/usr/bin/python3 "$src/tests/fuzz/pcap2seeds.py" "$work/seeds-packet" "$work/seeds-pcap"/*.pcap >/dev/null
fi

status=0
for t in $targets; do
	# What each target compiles beside proto/src/*.c: the same files as
	# gen/CMakeLists.txt's rocewire_scenario and replay/CMakeLists.txt's
	# rwreplay_opts.
	more=""
	extra=""
	# The longest input: a frame or a capture can be 64 KiB; a run of
	# MADs or of frames to the generator needs no more than 8 KiB (32 MADs,
	# a few dozen frames) to reach any state, and shorter inputs run faster.
	maxlen=70000
	case $t in
	packet) libs=""; extra=$src/tests/fuzz/seeds ;;
	pcap) libs="-lpcap" ;;
	mad) libs=""; maxlen=8192; extra=$src/tests/fuzz/seeds-mad ;;
	scenario)
		more="-I$src/gen $src/gen/scenario*.c $src/gen/cc_dcqcn.c $src/gen/cc_np.c $src/gen/cc_switch.c"
		libs="-lyaml -lm"
		extra="$src/tests/fuzz/seeds-scenario $src/samples/scenarios $src/tests/e2e/bad-scenarios" ;;
	gen_rx)
		# gen/CMakeLists.txt's rwgen_model over rocewire_scenario, and
		# rocewire_io's temporary files (cc_out.c)
		more="-I$src/gen -I$src/lib/io $src/gen/scenario*.c $src/gen/cc_dcqcn.c $src/gen/cc_np.c
			$src/gen/cc_switch.c $src/gen/flow*.c $src/gen/answer.c $src/gen/cc_out.c $src/gen/tx_frame.c
			$src/lib/io/tmpfile.c"
		libs="-lyaml -lm"
		maxlen=8192
		extra=$src/tests/fuzz/seeds-gen_rx ;;
	replay_rules)
		more="-I$src/replay $src/replay/opts.c $src/replay/filter.c $src/replay/pace.c"
		libs="-lm"
		extra=$src/tests/fuzz/seeds-replay_rules ;;
	*) echo "run_fuzz.sh: unknown target \"$t\" (expected packet, pcap, mad, scenario, replay_rules or gen_rx)" >&2; exit 2 ;;
	esac
	echo "== fuzz_$t: building with $cc"
	# shellcheck disable=SC2086
	if ! "$cc" $cflags "$src/tests/fuzz/fuzz_$t.c" "$src"/proto/src/*.c $more $libs -o "$work/fuzz_$t"; then
		echo "FAIL: fuzz_$t did not build" >&2
		exit 1
	fi
	art=${FUZZ_ARTIFACTS:-$work/artifacts}
	corpus=$work/corpus-$t
	[ -n "${FUZZ_CORPUS:-}" ] && corpus=$FUZZ_CORPUS/$t
	mkdir -p "$art" "$corpus"
	if [ "$runs" -ge 0 ]; then
		echo "== fuzz_$t: running ${secs}s or $runs inputs"
	else
		echo "== fuzz_$t: running ${secs}s"
	fi
	# New inputs go to the first folder (scratch); the seeds are only read.
	mkdir -p "$work/seeds-$t"
	# shellcheck disable=SC2086
	"$work/fuzz_$t" -max_total_time="$secs" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len="$maxlen" \
		-print_final_stats=1 -artifact_prefix="$art/$t-" "$corpus" "$work/seeds-$t" \
		"$src/tests/fuzz/regressions" $extra >"$work/fuzz_$t.log" 2>&1
	rc=$?
	grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done )' "$work/fuzz_$t.log"
	if [ $rc -eq 72 ]; then
		# libFuzzer's exit on SIGINT/SIGTERM (-interrupted_exitcode): the
		# run was stopped from outside, it found nothing
		status=1
		echo "STOPPED: fuzz_$t was interrupted before its time or input count (no crash found); log: $work/fuzz_$t.log"
		keep=1
	elif [ $rc -ne 0 ]; then
		status=1
		keep=1
		echo "FAIL: fuzz_$t found a crash (exit $rc); log: $work/fuzz_$t.log"
		grep -E 'ERROR|SUMMARY|runtime error|round trip' "$work/fuzz_$t.log" | head -n 5
		for f in "$art/$t"-*; do
			[ -f "$f" ] || continue
			echo "input $f ($(wc -c <"$f") bytes), hex:"
			od -An -tx1 -v "$f" | tr -d ' \n' | fold -w 128
			echo
			echo "keep it: cp $f $src/tests/fuzz/regressions/$t-<what-it-hits>"
		done
	else
		echo "ok: fuzz_$t ran without a crash"
	fi
done
exit $status
