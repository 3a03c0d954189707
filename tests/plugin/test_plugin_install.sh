#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# cmake --install of the plugin's build folder into a scratch DESTDIR: the
# plugin must land in DESTDIR + Wireshark's global plugin folder, under
# epan/, and tshark must load it from there (WIRESHARK_PLUGIN_DIR at the
# installed folder) and decode with it.
# usage: test_plugin_install.sh BUILD/wireshark-plugin PLUGIN_INSTALL_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$1
dir=$2
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark is not installed (apt-get install tshark)"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-plugin-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
if ! DESTDIR="$work/dest" cmake --install "$build" >"$work/install.log" 2>&1; then
	echo "FAIL: cmake --install $build:"
	cat "$work/install.log"
	exit 1
fi
so="$work/dest$dir/epan/rocewire.so"
if [ ! -f "$so" ]; then
	echo "FAIL: $so was not installed; installed:"
	find "$work/dest" -type f
	exit 1
fi
echo "installed: $so"
ROCEWIRE_PLUGIN_DIR="$work/dest$dir/.." "$here/test_plugin.sh" load
