#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The plugin in Debian's Wireshark GUI: under Xvfb, wireshark opens
# samples/bad-icrc.pcap on frame 2 (a bad ICRC) with a profile made here
# (preferences: rocewire.expand_tree, stacked panes; recent: window size, no
# bytes pane), once with the plugin folder and once without. The screens
# (Xvfb's -fbdir framebuffer) must not be blank and must differ; the one
# with the plugin is kept as PNG in ROCEWIRE_GUI_SHOT (default: the test's
# working folder, plugin-gui.png).
# env: ROCEWIRE_PLUGIN_DIR, ROCEWIRE_SOURCE_DIR; exit 77 when wireshark,
# Xvfb or setpriv (as root) is missing, or the GUI does not come up.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${ROCEWIRE_SOURCE_DIR:-$here/../..}
plugins=${ROCEWIRE_PLUGIN_DIR:-}
shot=${ROCEWIRE_GUI_SHOT:-$PWD/plugin-gui.png}
wait_s=${ROCEWIRE_GUI_WAIT:-15}
for t in wireshark Xvfb; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "SKIP: $t is not installed (Debian: apt-get install --no-install-recommends wireshark xvfb)"
		exit 77
	fi
done
as_user=
if [ "$(id -u)" = 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		echo "SKIP: running as root without setpriv: Wireshark as root ignores plugin folders"
		exit 77
	fi
	as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-plugin-gui.XXXXXX")
xpid= wpid=
cleanup() {
	[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
	[ -n "$xpid" ] && kill "$xpid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
cp "$src/samples/bad-icrc.pcap" "$work/"
chmod 644 "$work/bad-icrc.pcap"

# A free display number: the first without an X lock file.
d=90
while [ -e "/tmp/.X$d-lock" ] && [ "$d" -lt 140 ]; do d=$((d + 1)); done
mkdir -p "$work/fb"
Xvfb ":$d" -screen 0 1280x900x24 -fbdir "$work/fb" -ac -nolisten tcp >"$work/xvfb.log" 2>&1 &
xpid=$!
i=0
while [ ! -f "$work/fb/Xvfb_screen0" ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if ! kill -0 "$xpid" 2>/dev/null; then
	echo "SKIP: Xvfb :$d did not start: $(head -3 "$work/xvfb.log")"
	exit 77
fi

# shot NAME PLUGIN_DIR: runs wireshark $wait_s seconds, copies the screen.
shot() {
	home=$work/home-$1
	mkdir -p "$home/.config/wireshark"
	printf 'rocewire.expand_tree: TRUE\ngui.layout_type: 1\n' >"$home/.config/wireshark/preferences"
	printf 'gui.geometry_main_x: 0\ngui.geometry_main_y: 0\ngui.geometry_main_width: 1280\ngui.geometry_main_height: 900\ngui.geometry_main_maximized: FALSE\n' \
		>"$home/.config/wireshark/recent_common"
	printf 'gui.byte_view_show: FALSE\n' >"$home/.config/wireshark/recent"
	chmod -R 777 "$home"
	# shellcheck disable=SC2086
	env HOME="$home" XDG_RUNTIME_DIR="$home" XDG_CONFIG_HOME="$home/.config" DISPLAY=":$d" \
		WIRESHARK_PLUGIN_DIR="$2" $as_user wireshark -r "$work/bad-icrc.pcap" -g 2 \
		>"$work/wireshark-$1.log" 2>&1 &
	wpid=$!
	sleep "$wait_s"
	if ! kill -0 "$wpid" 2>/dev/null; then
		echo "SKIP: wireshark exited within ${wait_s}s: $(tail -3 "$work/wireshark-$1.log")"
		exit 77
	fi
	cp "$work/fb/Xvfb_screen0" "$work/$1.xwd"
	kill "$wpid"
	wait "$wpid" 2>/dev/null
	wpid=
}
mkdir -p "$work/none"
shot with "$plugins"
shot without "$work/none"
/usr/bin/python3 "$here/xwd_png.py" png "$work/with.xwd" "$shot" || exit 1
/usr/bin/python3 "$here/xwd_png.py" png "$work/without.xwd" "${shot%.png}-without.png" || exit 1
if ! /usr/bin/python3 "$here/xwd_png.py" check "$work/with.xwd" "$work/without.xwd"; then
	echo "FAIL: the screen is blank or the plugin changed nothing on it (see $shot)"
	exit 1
fi
echo "PASS: screenshot in $shot"
