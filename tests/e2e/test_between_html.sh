#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rocewire-cap --between A B --html OUT against rocewire-mktaps' truth: for
# every sample capture that holds RoCE or IB traffic, two taps with drops,
# CE marks, delay and jitter, reordering, duplicates and injected frames;
# between_html_check.py checks the page's counts, lost lists and the place
# of every lost mark and plotted point against the truth (and the JSON
# written beside it). Then: B's clock shifted and told, and estimated; a
# large capture (the series are thinned, the page stays small, the flows
# drawn are capped and the page says so); a page that cannot be written
# (one line naming it, exit 2, no temporary file left); and, when Chromium
# is installed, the page rendered (report_html_check.py: nothing loaded,
# the titles shown, no plot blank).
set -u
: "${ROCEWIRE_MKTAPS:?}" "${ROCEWIRE_CAP:?}" "${ROCEWIRE_SOURCE_DIR:?}"
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
check=$ROCEWIRE_SOURCE_DIR/tests/e2e/between_html_check.py
status=0
n=0
for f in "$ROCEWIRE_SOURCE_DIR"/samples/*.pcap "$ROCEWIRE_SOURCE_DIR"/samples/softroce/*.pcap; do
	name=$(basename "$f" .pcap)
	n=$((n + 1))
	"$ROCEWIRE_MKTAPS" "$f" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --seed $n ||
		{ echo "FAIL: mktaps on $name"; status=1; continue; }
	python3 "$check" "$ROCEWIRE_CAP" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" "$dir/$name.html" || status=1
done

# B's clock 3 ms ahead, told; then 2.5 ms behind, estimated (both directions)
s=$ROCEWIRE_SOURCE_DIR/samples/softroce/rc_write_loss.pcap
"$ROCEWIRE_MKTAPS" "$s" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --seed 7 --shift 3000000 --delay 7000 \
	--jitter 500 && python3 "$check" "$ROCEWIRE_CAP" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" "$dir/o.html" \
	--offset 3000000 || status=1
"$ROCEWIRE_MKTAPS" "$s" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --seed 8 --shift -2500000 --delay 7000 \
	--jitter 500 && python3 "$check" "$ROCEWIRE_CAP" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" "$dir/o.html" \
	--estimate-offset --offset -2000000 || status=1

# every packet dropped: no pair has a matched packet, every flow's
# direction is unknown and its packets are marked as seen in one tap only
"$ROCEWIRE_MKTAPS" "$ROCEWIRE_SOURCE_DIR/samples/softroce/rc_read.pcap" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" \
	--seed 4 --drop-every 1 && python3 "$check" "$ROCEWIRE_CAP" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" \
	"$dir/u.html" || status=1
if ! grep -q 'id="dir-unknown"' "$dir/u.html" || grep -q '<g class="lost"' "$dir/u.html"; then
	echo "FAIL: every packet dropped: no section of unknown direction, or packets marked lost"
	status=1
fi

# a large capture: more packets per flow than the series keep, more flows
# than the page draws
if [ -n "${ROCEWIRE_MKCAP:-}" ] && [ -x "$ROCEWIRE_MKCAP" ]; then
	"$ROCEWIRE_MKCAP" --mix 40000 -o "$dir/mix.pcap" >/dev/null || status=1
	"$ROCEWIRE_MKTAPS" "$dir/mix.pcap" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --seed 9 --drop-every 50 ||
		status=1
	python3 "$check" "$ROCEWIRE_CAP" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" "$dir/big.html" || status=1
	size=$(wc -c <"$dir/big.html")
	if [ "$size" -gt 3000000 ]; then
		echo "FAIL: the page of 40000 packets is $size bytes: are the series bounded?"
		status=1
	fi
	if ! grep -q 'class="thinned"' "$dir/big.html"; then
		echo "FAIL: the page of 40000 packets says nothing was thinned"
		status=1
	fi
	flows=$(grep -c 'class="card flow"' "$dir/big.html")
	if [ "$flows" -gt 24 ]; then
		echo "FAIL: $flows flow sections drawn, more than 24"
		status=1
	fi
	grep -o 'id="drawn-note">[^<]*' "$dir/big.html" | head -1
	echo "ok: 40000 packets: page $size bytes, $flows flow sections"
else
	echo "note: ROCEWIRE_MKCAP not set: the large capture is not checked"
fi

# a page that cannot be written: into a missing folder, onto a folder
"$ROCEWIRE_MKTAPS" "$s" "$dir/a.pcap" "$dir/b.pcap" "$dir/t.json" --seed 3 >/dev/null || status=1
mkdir -p "$dir/isdir.html"
for out in "$dir/no/such/dir/x.html" "$dir/isdir.html"; do
	"$ROCEWIRE_CAP" --between "$dir/a.pcap" "$dir/b.pcap" --html "$out" >/dev/null 2>"$dir/err"
	st=$?
	if [ $st -ne 2 ] || [ "$(wc -l <"$dir/err")" -ne 1 ] || ! grep -q "$(basename "$out").*cannot write" "$dir/err"; then
		echo "FAIL: --html $out: status $st (want 2), stderr:"
		cat "$dir/err"
		status=1
	else
		echo "ok: --html $out -> $st: $(cat "$dir/err")"
	fi
done
if ls "$dir"/isdir.html.*.tmp >/dev/null 2>&1; then
	echo "FAIL: a failed page left $(ls "$dir"/isdir.html.*.tmp) behind"
	status=1
fi

# as a browser shows it
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
	echo "SKIP (render only): Chromium not found (Debian: apt-get install chromium)"
else
	"$ROCEWIRE_CAP" --between "$dir/a.pcap" "$dir/b.pcap" --html "$dir/r.html" >/dev/null || status=1
	prof=$(mktemp -d "$dir/profile.XXXXXX")
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --dump-dom "file://$dir/r.html" >"$dir/r.dom.html" 2>/dev/null
	mkdir -p "$dir/plots"
	python3 "$ROCEWIRE_SOURCE_DIR/tests/e2e/report_html_check.py" "$dir/r.html" "$dir/r.dom.html" "$dir/plots" \
		"$chromium" "rocewire: between two taps" "Summary" "Flows travelling A → B" \
		"Flows travelling B → A" "PSN timeline: matched and lost packets" "Lost between the taps" || status=1
fi
exit $status
