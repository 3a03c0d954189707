#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds rocewire's Debian packages: an optimised build (RelWithDebInfo, the
# tested flags; cpack strips the binaries) in ${PKG_BUILD_DIR:-build-pkg}
# (installed under /usr), then cpack -G DEB. Prints the paths of the .deb
# files, one a line, on stdout. Run again, it rebuilds what changed only.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${PKG_BUILD_DIR:-build-pkg}
jobs=${JOBS:-2}

for tool in cmake cpack dpkg-deb dpkg-shlibdeps; do
	if ! command -v "$tool" >/dev/null; then
		echo "package.sh: $tool not found (Debian: apt-get install cmake dpkg-dev)" >&2
		exit 1
	fi
done
if ! cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
	-DROCEWIRE_BUILD_TESTS=OFF -DROCEWIRE_BUILD_BENCH=OFF >"$dir.configure.log" 2>&1; then
	echo "package.sh: configure failed; the end of $dir.configure.log:" >&2
	tail -30 "$dir.configure.log" >&2
	exit 1
fi
grep -m1 'rocewire: proto=' "$dir.configure.log" >&2 || true
if ! cmake --build "$dir" -j"$jobs" >"$dir.build.log" 2>&1; then
	echo "package.sh: build failed; the end of $dir.build.log:" >&2
	tail -40 "$dir.build.log" >&2
	exit 1
fi
rm -rf "$dir/packages"
if ! (cd "$dir" && cpack -G DEB) >"$dir.cpack.log" 2>&1; then
	echo "package.sh: cpack failed; the end of $dir.cpack.log:" >&2
	tail -40 "$dir.cpack.log" >&2
	exit 1
fi
shopt -s nullglob
debs=("$PWD/$dir"/packages/*.deb)
if [ ${#debs[@]} -eq 0 ]; then
	echo "package.sh: cpack made no .deb (see $dir.cpack.log)" >&2
	exit 1
fi
printf '%s\n' "${debs[@]}"
