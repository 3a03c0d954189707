#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The HTML report (`rocewire-cap -r FILE --html OUT`) as a browser shows it:
# headless Chromium renders the page of the "showcase" scenario and of a
# 300,000-packet mix; report_html_check.py checks that the page loads nothing
# and runs no script, that the rendered DOM shows the titles, and that each
# of the four plots, rendered on its own, is not blank. Then: the page of a
# big capture stays small (the series are bounded), and a report that
# cannot be written fails cleanly without leaving OUT.XXXXXX.tmp behind.
#
# env: ROCEWIRE_MKSCENARIO, ROCEWIRE_MKCAP, ROCEWIRE_CAP, ROCEWIRE_SOURCE_DIR,
#      CHROMIUM (default: chromium, then chromium-browser),
#      KEEP_DIR (if set, the pages and screenshots are copied there).
# Exit 77 (skip) when Chromium or python3 is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$here/../..}
mkscn=${ROCEWIRE_MKSCENARIO:-}
mkcap=${ROCEWIRE_MKCAP:-}
cap=${ROCEWIRE_CAP:-}

for t in "$mkscn" "$mkcap" "$cap"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "test_report_html: ROCEWIRE_MKSCENARIO, ROCEWIRE_MKCAP and ROCEWIRE_CAP must be executables" >&2
		exit 1
	fi
done
chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
	chromium=$(command -v chromium || command -v chromium-browser || true)
fi
if [ -z "$chromium" ]; then
	echo "SKIP: Chromium not found (Debian: apt-get install chromium)"
	exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not found"
	exit 77
fi

# html PCAP OUT: standard error (rocewire-cap's summary, or the error) goes
# to $work/html.err.
html() {
	"$cap" -r "$1" --html "$2" >/dev/null 2>"$work/html.err"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-report-html.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "browser: $chromium"
fail=0

chrome() {
	prof=$(mktemp -d "$work/profile.XXXXXX")
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--hide-scrollbars --user-data-dir="$prof" "$@" 2>/dev/null
	rc=$?
	rm -rf "$prof"
	return $rc
}

titles="Throughput per flow over time|PSN versus time per flow|ECN CE marks and CNPs per flow|PFC and PAUSE pause intervals per priority|Flows|Totals"

check_page() { # name pcap max_bytes
	name=$1
	out=$work/$name.html
	if ! html "$2" "$out"; then
		echo "FAIL $name: the HTML report was not written: $(tail -1 "$work/html.err")"
		fail=1
		return
	fi
	if ls "$out".*.tmp >/dev/null 2>&1; then
		echo "FAIL $name: $(ls "$out".*.tmp) left behind"
		fail=1
	fi
	size=$(wc -c <"$out")
	echo "$name: $size bytes of HTML"
	if [ "$size" -gt "$3" ]; then
		echo "FAIL $name: the page is $size bytes, more than $3: are the series bounded?"
		fail=1
	fi
	chrome --dump-dom "file://$out" >"$work/$name.dom.html"
	chrome --screenshot="$work/$name.png" --window-size=1400,3000 "file://$out" >/dev/null
	if [ ! -s "$work/$name.png" ]; then
		echo "FAIL $name: Chromium made no screenshot of the page"
		fail=1
	fi
	mkdir -p "$work/$name.plots"
	old_ifs=$IFS
	IFS='|'
	# shellcheck disable=SC2086
	set -- $titles
	IFS=$old_ifs
	python3 "$src/tests/e2e/report_html_check.py" "$out" "$work/$name.dom.html" \
		"$work/$name.plots" "$chromium" "$@" || fail=1
	if [ -n "${KEEP_DIR:-}" ]; then
		mkdir -p "$KEEP_DIR"
		cp -r "$out" "$work/$name.png" "$work/$name.plots" "$KEEP_DIR/"
	fi
}

"$mkscn" showcase -o "$work/showcase.pcap" -t "$work/showcase.truth.json" || exit 1
check_page showcase "$work/showcase.pcap" 400000

"$mkcap" --mix 300000 -o "$work/mix.pcap" || exit 1
check_page mix "$work/mix.pcap" 1500000
rm -f "$work/mix.pcap"

# A report that cannot be written: into a folder that does not exist, and
# onto a folder (the temporary file is written, the rename fails).
if html "$work/showcase.pcap" "$work/no/such/dir/r.html"; then
	echo "FAIL: writing into a missing folder succeeded"
	fail=1
fi
mkdir -p "$work/isdir.html"
if html "$work/showcase.pcap" "$work/isdir.html"; then
	echo "FAIL: writing onto a folder succeeded"
	fail=1
fi
if ls "$work"/isdir.html.*.tmp >/dev/null 2>&1; then
	echo "FAIL: a failed report left $(ls "$work"/isdir.html.*.tmp) behind"
	fail=1
fi
if ! grep -q "isdir.html" "$work/html.err"; then
	echo "FAIL: a failed report did not name the file on standard error"
	fail=1
else
	echo "failed write reported as: $(grep "isdir.html" "$work/html.err" | head -1)"
fi

[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
