#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds rocewire's Debian packages: an optimised build (RelWithDebInfo, the
# tested flags; cpack strips the binaries) in ${PKG_BUILD_DIR:-build-pkg}
# (installed under /usr), then cpack -G DEB. Prints the absolute paths of the
# .deb files, one a line, on stdout. Run again, it rebuilds what changed only.
#   PKG_BUILD_DIR            the build folder: absolute, or relative to the
#                            source tree (the default, build-pkg, is there);
#                            its logs are DIR.configure.log, DIR.build.log and
#                            DIR.cpack.log beside it
#   ROCEWIRE_DEB_MAINTAINER  the packages' Maintainer field; unset or empty,
#                            the project's own role address of
#                            cmake/Packaging.cmake (each run sets it afresh:
#                            an override does not stick to the build folder)
#   JOBS                     parallel build jobs (2)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${PKG_BUILD_DIR:-build-pkg}
# One absolute path from here on (relative to the source tree, without ..
# or a trailing /): cpack runs in the folder, and the .deb paths printed are
# the same whichever form was given.
dir=$(realpath -m -- "$dir")
jobs=${JOBS:-2}
maint=(-UROCEWIRE_DEB_MAINTAINER)
if [ -n "${ROCEWIRE_DEB_MAINTAINER:-}" ]; then
	maint=("-DROCEWIRE_DEB_MAINTAINER=$ROCEWIRE_DEB_MAINTAINER")
fi

for tool in cmake cpack dpkg-deb dpkg-shlibdeps; do
	if ! command -v "$tool" >/dev/null; then
		echo "package.sh: $tool not found (Debian: apt-get install cmake dpkg-dev)" >&2
		exit 1
	fi
done
if ! cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
	-DROCEWIRE_BUILD_TESTS=OFF -DROCEWIRE_BUILD_BENCH=OFF "${maint[@]}" >"$dir.configure.log" 2>&1; then
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
debs=("$dir"/packages/*.deb)
if [ ${#debs[@]} -eq 0 ]; then
	echo "package.sh: cpack made no .deb (see $dir.cpack.log)" >&2
	exit 1
fi
printf '%s\n' "${debs[@]}"
