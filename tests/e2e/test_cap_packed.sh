#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The offline pipeline's hand-over (lib/report/packed.h, capture/pipeline.c):
#  1. rocewire-packed-check: the engine and the report give the same verdicts
#     and outputs on packets unpacked over garbage as on decoded ones, on
#     every sample and on a generated mix (every field they read travels);
#  2. rocewire-cap with the reader thread (packed slots without per-packet
#     output, whole ones with) writes byte for byte what one thread writes:
#     table, JSON, HTML, lines, verbose, and the summary on stderr.
set -u
: "${ROCEWIRE_CAP:?}" "${ROCEWIRE_PACKED_CHECK:?}" "${ROCEWIRE_MKCAP:?}" "${ROCEWIRE_MKSCENARIO:?}"
: "${ROCEWIRE_SOURCE_DIR:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-packed.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

"$ROCEWIRE_MKCAP" --mix 20000 --max-payload 470 -o mix.pcap >/dev/null || exit 2
# every opcode on every carrier, PFC, and bad frames (cut, malformed: they travel whole)
"$ROCEWIRE_MKCAP" --all-opcodes -o all-eth.pcap >/dev/null || exit 2
"$ROCEWIRE_MKCAP" --all-opcodes --linktype 247 -o all-ib.pcap >/dev/null || exit 2
"$ROCEWIRE_MKCAP" --pfc -o pfc.pcap >/dev/null || exit 2
"$ROCEWIRE_MKCAP" --bad -o bad.pcap >/dev/null || exit 2
files=("$ROCEWIRE_SOURCE_DIR"/samples/*.pcap "$ROCEWIRE_SOURCE_DIR"/samples/softroce/*.pcap
	mix.pcap all-eth.pcap all-ib.pcap pfc.pcap bad.pcap)
# the report tests' scenarios: every verdict of the engine (re-issued READs, NAKs, pauses, ...)
for sc in $("$ROCEWIRE_MKSCENARIO" --list | cut -f1); do
	"$ROCEWIRE_MKSCENARIO" "$sc" -o "sc-$sc.pcap" >/dev/null || exit 2
	files+=("sc-$sc.pcap")
done

FAILS=0
CHECKS=1
if ! TMPDIR=$work "$ROCEWIRE_PACKED_CHECK" "${files[@]}"; then
	echo "FAIL: unpacked packets give other verdicts or outputs"
	FAILS=1
fi
# The same over undefined memory under memcheck: a branch on a field that did
# not travel is caught even where garbage gives the true verdict. (Not in a
# sanitizer build: valgrind cannot run those.)
if ! command -v valgrind >/dev/null 2>&1; then
	echo "note: valgrind is not installed: the undefined-memory pass is skipped"
elif grep -qa __asan_init "$ROCEWIRE_PACKED_CHECK"; then
	echo "note: a sanitizer build: the undefined-memory pass is skipped"
else
	CHECKS=$((CHECKS + 1))
	small=()
	for f in "${files[@]}"; do [ "$f" = mix.pcap ] || small+=("$f"); done
	if ! TMPDIR=$work valgrind -q --error-exitcode=3 "$ROCEWIRE_PACKED_CHECK" --undefined \
		"${small[@]}" 2>vg.err; then
		echo "FAIL: the engine or the report reads a field that does not travel:"
		head -20 vg.err | sed 's/^/  /'
		FAILS=$((FAILS + 1))
	fi
fi

for f in "${files[@]}"; do
	for args in "--report" "--report --json" "--html page.html" "-q" "" "-v"; do
		case "$args" in -v | "") [ "$f" = mix.pcap ] && continue ;; esac
		CHECKS=$((CHECKS + 1))
		for t in 1 2; do
			# shellcheck disable=SC2086
			ROCEWIRE_CAP_THREADS=$t timeout 120 "$ROCEWIRE_CAP" -r "$f" $args >out.$t 2>err.$t
			echo "rc=$?" >>err.$t
			[ -f page.html ] && mv page.html page.$t
		done
		if ! cmp -s out.1 out.2 || ! cmp -s err.1 err.2 ||
			{ [ -f page.1 ] && ! cmp -s page.1 page.2; }; then
			echo "FAIL: $f $args: the reader thread and one thread differ"
			diff out.1 out.2 | head -4 | sed 's/^/  /'
			diff err.1 err.2 | head -4 | sed 's/^/  /'
			FAILS=$((FAILS + 1))
		fi
		rm -f page.1 page.2
	done
done
echo "$((CHECKS - FAILS)) of $CHECKS cases passed"
[ "$FAILS" -eq 0 ]
