#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's command 1 as a newcomer runs it on a fresh Debian 12 machine,
# proved on a machine that has everything: a clean copy of the tree (the
# files a clone of it holds), then, in a private mount namespace where every
# test-only package of scripts/install-deps.sh is hidden (its programs,
# pkg-config files and Python modules bind-mounted over), command 1 exactly
# as the README's first code block gives it. Passes when the configure step
# said what it left out instead of failing, and the demo wrote the capture,
# the generator's summary and the HTML report, with the capture's summary
# printed once. scripts/test.sh runs it first; CI runs scripts/test.sh.
#
#   scripts/check-first-run.sh      needs root (unshare -m, mount --bind)
#   FIRST_RUN_KEEP=1                keep the work folder (its path is printed)
#
# A test-only package is one of `install-deps.sh --list-test` that no build
# package needs (apt-cache depends) and that a minimal Debian installs anyway
# (priority required or important: kmod, cpio, iproute2 are on every host).
# Exit status: 0 pass, 1 fail, 77 skipped (not root, or no unshare).
set -euo pipefail
cd "$(dirname "$0")/.."
me="check-first-run"

# check_demo_out DIR LOG: the demo's files in DIR and its output LOG are what
# command 1 promises. Prints what is wrong and returns 1.
check_demo_out() {
	local dir=$1 log=$2 bad=0 f
	for f in rocewire-gen.pcap summary.json report.html; do
		if [ ! -s "$dir/$f" ]; then
			echo "$me: FAIL: $dir/$f is missing or empty" >&2
			bad=1
		fi
	done
	if [ -s "$dir/rocewire-gen.pcap" ]; then
		# a pcap's magic, either byte order or nanosecond resolution
		case "$(od -An -tx1 -N4 "$dir/rocewire-gen.pcap" | tr -d ' ')" in
		d4c3b2a1 | a1b2c3d4 | 4d3cb2a1 | a1b23c4d) ;;
		*)
			echo "$me: FAIL: $dir/rocewire-gen.pcap is not a pcap file" >&2
			bad=1
			;;
		esac
	fi
	if [ -s "$dir/report.html" ] && ! grep -q '</html>' "$dir/report.html"; then
		echo "$me: FAIL: $dir/report.html is not a whole HTML page" >&2
		bad=1
	fi
	if [ -s "$dir/report.html" ] && ! grep -q '0x000200' "$dir/report.html"; then
		echo "$me: FAIL: $dir/report.html does not show the default scenario's QP 0x000200" >&2
		bad=1
	fi
	local n
	n=$(grep -c 'packets read from 1 file' "$log" || true)
	if [ "$n" -ne 1 ]; then
		echo "$me: FAIL: the demo printed the capture's summary $n times (want once)" >&2
		bad=1
	fi
	if grep -q 'decoding the sample captures instead' "$log"; then
		echo "$me: FAIL: the generator was not built, the demo fell back to the samples" >&2
		bad=1
	fi
	return "$bad"
}

# Inside the namespace: hide, prove it hidden, run command 1.
if [ "${1:-}" = --inside ]; then
	work=$2
	mapfile -t build_pkgs < <(scripts/install-deps.sh --list-build)
	mapfile -t test_pkgs < <(scripts/install-deps.sh --list-test)
	needed=$(apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "${build_pkgs[@]}" 2>/dev/null |
		grep -v '^ ' | sed 's/^<\(.*\)>$/\1/' | sort -u)
	hidden_pkgs=()
	nfiles=0
	mkdir -p "$work/hidden-module"
	echo 'raise ImportError("hidden by scripts/check-first-run.sh")' >"$work/hidden-module/__init__.py"
	for p in "${test_pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || continue
		grep -qxF "$p" <<<"$needed" && continue
		case "$(dpkg-query -W -f='${Priority}' "$p")" in required | important) continue ;; esac
		hidden_pkgs+=("$p")
		while IFS= read -r f; do
			case "$f" in
			*/bin/* | */sbin/* | *.pc)
				if [ -f "$f" ] && { [ -x "$f" ] || [ "${f%.pc}" != "$f" ]; }; then
					mount --bind /dev/null "$f"
					nfiles=$((nfiles + 1))
				fi
				;;
			/usr/lib/python3/dist-packages/*/__init__.py)
				d=${f%/__init__.py}
				# a package's top folder only
				# (an empty folder would still import, as a namespace package)
				if [ "$(dirname "$d")" = /usr/lib/python3/dist-packages ]; then
					mount --bind "$work/hidden-module" "$d"
					nfiles=$((nfiles + 1))
				fi
				;;
			esac
		done < <(dpkg -L "$p" 2>/dev/null)
	done
	echo "$me: hidden: ${hidden_pkgs[*]:-nothing} ($nfiles files and folders)"
	# What must be gone, or this check proves nothing. (bash's command -v
	# still names a file it cannot run: look for a runnable one.)
	runnable() {
		local d
		local IFS=:
		for d in $PATH; do
			[ -f "$d/$1" ] && [ -x "$d/$1" ] && return 0
		done
		return 1
	}
	for prog in tshark tcpdump clang jq; do
		if runnable "$prog"; then
			echo "$me: FAIL: $prog is still runnable inside the namespace" >&2
			exit 1
		fi
	done
	for mod in cmocka libdeflate; do
		if pkg-config --exists "$mod" 2>/dev/null; then
			echo "$me: FAIL: pkg-config still finds $mod inside the namespace" >&2
			exit 1
		fi
	done
	if /usr/bin/python3 -c 'import scapy' 2>/dev/null; then
		echo "$me: FAIL: python3 still imports scapy inside the namespace" >&2
		exit 1
	fi
	cd "$work/src"
	cmd=$(awk '/^# 1\./ { getline; print; exit }' README.md)
	if [ -z "$cmd" ]; then
		echo "$me: FAIL: README.md has no '# 1.' command" >&2
		exit 1
	fi
	echo "$me: running command 1 in $work/src: $cmd"
	unset BUILD_DIR OUT_DIR BUILD_TYPE CC CFLAGS
	set +e
	bash -c "$cmd" >"$work/command1.log" 2>&1
	rc=$?
	set -e
	if [ "$rc" -ne 0 ]; then
		echo "$me: FAIL: command 1 exited $rc; the end of its output:" >&2
		tail -40 "$work/command1.log" >&2
		exit 1
	fi
	bad=0
	if ! grep -q 'rocewire: unit tests off (cmocka not found' build.configure.log; then
		echo "$me: FAIL: configure did not say the unit tests are off without cmocka" >&2
		bad=1
	fi
	check_demo_out demo-out "$work/command1.log" || bad=1
	exit "$bad"
fi

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
	echo "$me: SKIP: needs root and unshare(1) to hide the test-only packages" >&2
	exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-first-run.XXXXXX")
if [ -n "${FIRST_RUN_KEEP:-}" ]; then
	echo "$me: work folder $work (kept)"
else
	trap 'rm -rf "$work"' EXIT
fi

# The check of the demo's output must itself fail on a missing file.
mkdir -p "$work/selftest"
echo "rocewire-cap: 1 packets read from 1 file" >"$work/selftest/log"
if check_demo_out "$work/selftest" "$work/selftest/log" 2>/dev/null; then
	echo "$me: FAIL: the output check passes an empty folder" >&2
	exit 1
fi
printf '\xd4\xc3\xb2\xa1' >"$work/selftest/rocewire-gen.pcap"
echo '{}' >"$work/selftest/summary.json"
if check_demo_out "$work/selftest" "$work/selftest/log" 2>/dev/null; then
	echo "$me: FAIL: the output check passes a folder with no report.html" >&2
	exit 1
fi

# A clean copy: what git tracks (and new files it does not ignore), as they
# are in the work tree; never the build folders or demo-out.
mkdir -p "$work/src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$work/src"
else
	tar --exclude='./build*' --exclude=./demo-out -cf - . | tar -xf - -C "$work/src"
fi

echo "$me: the README's command 1 from a clean copy, test-only packages hidden"
if unshare -m --propagation private "$PWD/scripts/check-first-run.sh" --inside "$work"; then
	echo "$me: PASS: command 1 builds and runs the demo with only --build's packages"
else
	echo "$me: the work folder is $work (FIRST_RUN_KEEP=1 keeps it)" >&2
	exit 1
fi
