#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scripts/package.sh and what it puts in the packages, on one build folder
# (built once, then each run only packs again):
#   1. PKG_BUILD_DIR absolute: the .deb files are made there and printed;
#      the Maintainer of each is the project's role address, and each
#      carries the DEP-5 copyright file: BSD-3-Clause for the tree, its text
#      that of LICENSE, GPL-2.0-or-later for wireshark-plugin/ by reference
#      to /usr/share/common-licenses/GPL-2, every licence named in a Files
#      paragraph given in a License paragraph
#   2. PKG_BUILD_DIR relative (to the source tree), run from another folder,
#      with ROCEWIRE_DEB_MAINTAINER in the environment: that Maintainer
#   3. cmake -DROCEWIRE_DEB_MAINTAINER=... then cpack: that Maintainer
#   4. package.sh again without the variable: the default again (an
#      override does not stick to the folder)
# usage: test_package_script.sh SOURCE_DIR BUILD_DIR (absolute)
# Exit 77 (skip) with the reason when the machine cannot build packages.
set -u
src=$(cd "$1" && pwd -P)
abs=$2
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
for t in cmake cpack dpkg-deb dpkg-shlibdeps; do
	command -v $t >/dev/null || skip "$t is missing (Debian: apt-get install cmake dpkg-dev)"
done
case $abs in /*) ;; *) fail "BUILD_DIR must be absolute: $abs" ;; esac
mkdir -p "$(dirname "$abs")"
abs=$(cd "$(dirname "$abs")" && pwd -P)/$(basename "$abs")
rel=$(realpath -m --relative-to="$src" "$abs")
case $rel in /* | '') fail "no relative path from $src to $abs" ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-package-script.XXXXXX")
trap 'rm -rf "$work"' EXIT
default="rocewire maintainers <rocewire-maintainers@lists.invalid>"
status=0
bad() { echo "FAIL: $*"; status=1; }

# debs_ok WHAT: $work/debs lists .deb files, absolute, in $abs/packages,
# each made after $work/stamp; at least the library, -dev and tools ones
debs_ok() {
	mapfile -t debs <"$work/debs"
	[ ${#debs[@]} -ge 3 ] || fail "$1: ${#debs[@]} .deb files, want 3 or 4: ${debs[*]}"
	for d in "${debs[@]}"; do
		[ "$(dirname "$d")" = "$abs/packages" ] || fail "$1: $d is not in $abs/packages"
		[ -f "$d" ] || fail "$1: printed $d, which is not there"
		[ "$d" -nt "$work/stamp" ] || fail "$1: $d is older than this run"
	done
	echo "ok: $1: ${#debs[@]} packages in $abs/packages"
}

# package WHAT DIR [VAR=VALUE...]: scripts/package.sh from $work, with
# PKG_BUILD_DIR=DIR and without ROCEWIRE_DEB_MAINTAINER unless given
package() {
	local what=$1 dir=$2
	shift 2
	touch "$work/stamp"
	sleep 1 # -nt compares whole seconds on some file systems
	if ! (cd "$work" && env -u ROCEWIRE_DEB_MAINTAINER PKG_BUILD_DIR="$dir" "$@" \
		"$src/scripts/package.sh") >"$work/debs" 2>"$work/package.log"; then
		cat "$work/package.log"
		fail "$what: scripts/package.sh failed"
	fi
	debs_ok "$what"
}

# maintainer_is WHAT WANT: the Maintainer field of each .deb, and the
# signature of its changelog.Debian
maintainer_is() {
	local d p got was=$status
	status=0
	for d in "${debs[@]}"; do
		p=$(dpkg-deb -f "$d" Package)
		got=$(dpkg-deb -f "$d" Maintainer)
		[ "$got" = "$2" ] || bad "$1: $p: Maintainer: $got (want $2)"
		dpkg-deb --fsys-tarfile "$d" | tar -xOf - "./usr/share/doc/$p/changelog.Debian.gz" | gzip -dc |
			grep -qF -- " -- $2  " || bad "$1: $p: changelog.Debian is not signed by $2"
	done
	[ $status -eq 0 ] && echo "ok: $1: Maintainer: $2 in each"
	[ $was -eq 0 ] || status=$was
}

# copyright_ok: the DEP-5 copyright file of each package
copyright_ok() {
	local d p f first='' plugin=no was=$status
	status=0
	for d in "${debs[@]}"; do
		p=$(dpkg-deb -f "$d" Package)
		f=$work/copyright.$p
		dpkg-deb --fsys-tarfile "$d" | tar -xOf - "./usr/share/doc/$p/copyright" >"$f" ||
			{ bad "$p: no /usr/share/doc/$p/copyright"; continue; }
		if [ -z "$first" ]; then
			first=$f
		elif ! cmp -s "$first" "$f"; then
			bad "$p: its copyright file differs from that of ${first##*.}"
		fi
		if dpkg-deb -c "$d" | grep '/wireshark/plugins/.*/rocewire\.so$' >/dev/null; then
			plugin=yes
		fi
	done
	[ -n "$first" ] || return
	f=$first
	[ "$(head -n1 "$f")" = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ] ||
		bad "copyright: the first line is not DEP-5's Format: $(head -n1 "$f")"
	! grep -qi 'unstated' "$f" || bad "copyright: says UNSTATED"
	# Paragraphs as records: FILES<TAB>LICENSE, and one line per License
	# paragraph: "text NAME LINES"
	awk 'BEGIN { RS = ""; FS = "\n" }
		{
			files = ""; lic = ""; body = 0; inlic = 0
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^Files: /) files = substr($i, 8)
				else if ($i ~ /^License: /) { lic = substr($i, 10); body = 0; inlic = 1 }
				else if ($i ~ /^ / && inlic) body++
				else inlic = 0
			}
			if (files != "") print "files\t" files "\t" lic
			else if (lic != "") print "text\t" lic "\t" body
		}' "$f" >"$work/paragraphs"
	grep -qxF "$(printf 'files\t*\tBSD-3-Clause')" "$work/paragraphs" ||
		bad "copyright: no 'Files: *' paragraph under BSD-3-Clause"
	grep -qxF "$(printf 'files\twireshark-plugin/*\tGPL-2.0-or-later')" "$work/paragraphs" ||
		bad "copyright: no 'Files: wireshark-plugin/*' paragraph under GPL-2.0-or-later"
	# every licence named (a or b) has its text, and no text is there twice
	local name
	while read -r name; do
		[ "$(awk -F'\t' -v n="$name" '$1 == "text" && $2 == n && $3 > 0' "$work/paragraphs" | wc -l)" -eq 1 ] ||
			bad "copyright: licence $name is named but not given once in a License paragraph with its text"
	done < <(awk -F'\t' '$1 == "files" { print $3 }' "$work/paragraphs" | sed 's/ or /\n/g; s/ and /\n/g' | sort -u)
	# the BSD-3-Clause text is LICENSE's conditions, word for word
	awk '/^License: BSD-3-Clause$/ { on = 1; next } on && /^ / { print; next } { on = 0 }' "$f" |
		sed 's/^ //; s/^\.$//' >"$work/bsd.text"
	sed -n '/^Redistribution and use/,$p' "$src/LICENSE" >"$work/bsd.want"
	if ! diff <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$work/bsd.want") "$work/bsd.text" >"$work/bsd.diff"; then
		bad "copyright: the BSD-3-Clause text differs from LICENSE's:"
		cat "$work/bsd.diff"
	fi
	awk '/^License: GPL-2.0-or-later$/ { on = 1; next } on && /^ / { print; next } { on = 0 }' "$f" >"$work/gpl.text"
	if ! grep -q 'either version 2 of the License, or (at your option)' "$work/gpl.text" ||
		! grep -q '/usr/share/common-licenses/GPL-2' "$work/gpl.text"; then
		bad "copyright: the GPL-2.0-or-later paragraph lacks 'version 2 ... or (at your option)' or its /usr/share/common-licenses/GPL-2"
	fi
	grep -Eq '^Copyright: .*[0-9]{4}' "$f" || bad "copyright: no Copyright: field with a year"
	[ $status -eq 0 ] && echo "ok: DEP-5 copyright, the same in each package (the plugin's package among them: $plugin)"
	[ $was -eq 0 ] || status=$was
}

echo "build folder: $abs (relative to the source tree: $rel)"
package "absolute PKG_BUILD_DIR" "$abs"
maintainer_is "default" "$default"
copyright_ok

override="Override Tester <override@example.org>"
package "relative PKG_BUILD_DIR, run from another folder" "$rel" ROCEWIRE_DEB_MAINTAINER="$override"
maintainer_is "ROCEWIRE_DEB_MAINTAINER in package.sh's environment" "$override"

cache="Cache Tester <cache@example.org>"
touch "$work/stamp"
sleep 1
rm -rf "$abs/packages"
if ! cmake -S "$src" -B "$abs" "-DROCEWIRE_DEB_MAINTAINER=$cache" >"$work/cmake.log" 2>&1 ||
	! (cd "$abs" && cpack -G DEB) >"$work/cpack.log" 2>&1; then
	cat "$work/cmake.log" "$work/cpack.log"
	fail "cmake -DROCEWIRE_DEB_MAINTAINER=... && cpack failed"
fi
ls "$abs"/packages/*.deb >"$work/debs" 2>/dev/null
debs_ok "cmake -DROCEWIRE_DEB_MAINTAINER, then cpack"
maintainer_is "the cache variable ROCEWIRE_DEB_MAINTAINER" "$cache"

package "package.sh again without ROCEWIRE_DEB_MAINTAINER" "$rel"
maintainer_is "the override did not stick: default" "$default"
exit $status
