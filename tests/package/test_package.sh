#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Debian packages: built by scripts/package.sh in BUILD_DIR, then
#   lintian  no error and no copyright warning from lintian on the packages
#            (other warnings are listed); and lintian's DEP-5 checks, which
#            it runs on source packages only, pass on their copyright file
#            as the debian/copyright of a minimal source package
#   install  installed with apt-get, each tool run from the system path, the
#            plugin loaded by an unprivileged tshark, purged, nothing left
# usage: test_package.sh lintian|install SOURCE_DIR BUILD_DIR
# Exit 77 (skip) with the reason when the machine cannot run it.
set -u
mode=$1
src=$(cd "$2" && pwd)
export PKG_BUILD_DIR=$3
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for t in dpkg dpkg-deb; do
	command -v $t >/dev/null || skip "$t is missing (not a Debian system)"
done
case $mode in
lintian) command -v lintian >/dev/null || skip "lintian is missing (apt-get install lintian)" ;;
install)
	[ "$(id -u)" -eq 0 ] || skip "installing packages needs root"
	command -v apt-get >/dev/null || skip "apt-get is missing"
	;;
*) fail "unknown mode '$mode' (lintian or install)" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/rw-package.XXXXXX")
chmod 755 "$work"
pkgs=()
new_deps=()
cleanup() {
	local rc=$?
	if [ ${#pkgs[@]} -gt 0 ]; then
		# ours and whatever apt-get pulled in for them: the machine as found
		local present=()
		for p in "${pkgs[@]}" "${new_deps[@]}"; do
			dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^.[ic]' &&
				present+=("$p")
		done
		if [ ${#present[@]} -gt 0 ]; then
			DEBIAN_FRONTEND=noninteractive apt-get purge -y "${present[@]}" >"$work/cleanup.log" 2>&1 ||
				{ echo "cleanup: apt-get purge ${present[*]} failed:"; cat "$work/cleanup.log"; rc=1; }
		fi
	fi
	rm -rf "$work"
	exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if ! "$src/scripts/package.sh" >"$work/debs" 2>"$work/package.log"; then
	cat "$work/package.log"
	fail "scripts/package.sh failed"
fi
mapfile -t debs <"$work/debs"
[ ${#debs[@]} -gt 0 ] || fail "scripts/package.sh printed no .deb"
for d in "${debs[@]}"; do
	echo "built: $d ($(dpkg-deb -f "$d" Package), $(dpkg-deb -c "$d" | grep -vc '/$') files)"
done

# copyright_tags FILE [LEVELS]: lintian's lines (E: or W:, or LEVELS) whose
# tag is about the copyright file or a licence ("E: PKG: TAG ...", PKG
# being "NAME source" for a source package)
copyright_tags() {
	grep -E "^[${2:-EW}]: [^:]+: [^ ]*(copyright|dep5|licen[cs]e)" "$1"
}

if [ "$mode" = lintian ]; then
	# Run as root, lintian says so on stderr; that line is not about the packages.
	lintian --tag-display-limit 0 "${debs[@]}" >"$work/lintian.out" 2>&1
	rc=$?
	grep -v 'running with root privileges' "$work/lintian.out"
	# 1: tags at its fail-on level (errors), counted below; more: it failed
	[ $rc -le 1 ] || fail "lintian exited $rc"
	status=0
	if grep -q '^E: ' "$work/lintian.out"; then
		echo "FAIL: lintian reports errors (E: lines above)"
		status=1
	fi
	if [ -n "$(copyright_tags "$work/lintian.out")" ]; then
		echo "FAIL: lintian warns about the copyright file:"
		copyright_tags "$work/lintian.out"
		status=1
	fi
	echo "lintian: $(grep -c '^E: ' "$work/lintian.out") errors, $(grep -c '^W: ' "$work/lintian.out") warnings" \
		"($(copyright_tags "$work/lintian.out" | wc -l) about the copyright)"

	# The same copyright file in every package (package_script checks that):
	# the tools' one, as debian/copyright of a source package that holds a
	# file at each path it names, so that no Files pattern matches nothing.
	tools=$(for d in "${debs[@]}"; do [ "$(dpkg-deb -f "$d" Package)" = rocewire ] && echo "$d"; done)
	[ -n "$tools" ] || fail "no rocewire package among ${debs[*]}"
	s=$work/source/rocewire-0
	mkdir -p "$s/debian/source"
	dpkg-deb --fsys-tarfile "$tools" | tar -xOf - ./usr/share/doc/rocewire/copyright >"$s/debian/copyright" ||
		fail "no /usr/share/doc/rocewire/copyright in $tools"
	sed -n 's/^Files: //p' "$s/debian/copyright" | tr ' ' '\n' | while read -r pat; do
		f=${pat//\*/file}
		mkdir -p "$s/$(dirname "$f")" && echo x >"$s/$f"
	done
	echo '3.0 (native)' >"$s/debian/source/format"
	maint=$(dpkg-deb -f "$tools" Maintainer)
	printf '%s\n' "Source: rocewire" "Section: net" "Priority: optional" "Maintainer: $maint" \
		"Standards-Version: 4.6.2" "Build-Depends: debhelper-compat (= 13)" "Rules-Requires-Root: no" "" \
		"Package: rocewire" "Architecture: any" 'Depends: ${misc:Depends}, ${shlibs:Depends}' \
		"Description: RoCE and InfiniBand packet tools" " The source of a lintian check only." \
		>"$s/debian/control"
	printf '%s\n' "rocewire (0) unstable; urgency=medium" "" "  * The source of a lintian check only." "" \
		" -- $maint  $(date -R)" >"$s/debian/changelog"
	printf '#!/usr/bin/make -f\n%%:\n\tdh $@\n' >"$s/debian/rules"
	chmod 755 "$s/debian/rules"
	if ! (cd "$work/source" && dpkg-source -b rocewire-0) >"$work/dpkg-source.log" 2>&1; then
		cat "$work/dpkg-source.log"
		fail "dpkg-source -b of the minimal source package failed"
	fi
	lintian --tag-display-limit 0 -I "$work/source/rocewire_0.dsc" >"$work/lintian-source.out" 2>&1
	rc=$?
	if [ $rc -gt 1 ]; then
		cat "$work/lintian-source.out"
		fail "lintian on the minimal source package exited $rc"
	fi
	dep5=$(copyright_tags "$work/lintian-source.out" EWI)
	if [ -n "$dep5" ]; then
		echo "FAIL: lintian's DEP-5 checks on the copyright file (as debian/copyright):"
		echo "$dep5"
		status=1
	else
		echo "lintian's DEP-5 checks: nothing on the copyright file"
	fi
	exit $status
fi

# --- install ---
names=()
for d in "${debs[@]}"; do
	names+=("$(dpkg-deb -f "$d" Package)")
done
for p in "${names[@]}"; do
	if dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^.[ic]'; then
		skip "$p is installed already: not touching this machine's install"
	fi
done
dpkg-query -W -f='${Package}:${Architecture} ${db:Status-Abbrev}\n' | awk '$2 ~ /^.i/ {print $1}' |
	sort >"$work/before"
pkgs=("${names[@]}")
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y "${debs[@]}" >"$work/apt.log" 2>&1; then
	cat "$work/apt.log"
	fail "apt-get install of the packages failed"
fi
dpkg-query -W -f='${Package}:${Architecture} ${db:Status-Abbrev}\n' | awk '$2 ~ /^.i/ {print $1}' |
	sort >"$work/after"
for p in $(comm -13 "$work/before" "$work/after"); do
	case " ${names[*]} " in *" ${p%%:*} "*) ;; *) new_deps+=("$p") ;; esac
done
echo "installed: ${names[*]}; dependencies pulled in: ${new_deps[*]:-none}"
for p in "${names[@]}"; do
	dpkg -L "$p" >>"$work/files" || fail "dpkg -L $p"
done

status=0
check() { # check WHAT COMMAND...: runs it, prints its output on failure
	local what=$1
	shift
	if "$@" >"$work/out" 2>&1; then
		echo "ok: $what"
	else
		echo "FAIL: $what (exit $?):"
		tail -20 "$work/out"
		status=1
	fi
}
has() { grep -q -- "$1" "$work/out" || { echo "FAIL: $2"; tail -20 "$work/out"; status=1; }; }

cd "$work" || exit 1
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
for t in rocewire-cap rocewire-gen rocewire-replay rocewire-verbs; do
	grep -qx "/usr/bin/$t" "$work/files" || continue
	[ "$(command -v $t)" = /usr/bin/$t ] || { echo "FAIL: $t is not /usr/bin/$t on PATH"; status=1; }
	check "$t --version" "$t" --version
	has "^$t [0-9][^ ]* (librocewire " "$t --version: no project and library versions"
	[ -f "/usr/share/man/man1/$t.1.gz" ] || { echo "FAIL: no man page for $t"; status=1; }
	check "$t completion" bash -c ". /usr/share/bash-completion/completions/$t &&
		COMP_WORDS=($t --he) COMP_CWORD=1 && _rocewire_complete $t --he $t &&
		printf '%s\n' \"\${COMPREPLY[@]}\""
	has "^--help$" "the installed completion of $t does not offer --help"
done
if grep -qx /usr/bin/rocewire-cap "$work/files"; then
	check "rocewire-cap -r samples/rocev2-all-opcodes.pcap" \
		rocewire-cap -r "$src/samples/rocev2-all-opcodes.pcap"
	[ -s "$work/out" ] || { echo "FAIL: rocewire-cap -r printed nothing"; status=1; }
fi
if grep -qx /usr/bin/rocewire-gen "$work/files"; then
	check "rocewire-gen default scenario into a file" rocewire-gen -w "$work/gen.pcap"
	check "rocewire-cap --report on rocewire-gen's file (every ICRC valid)" \
		rocewire-cap -q -r "$work/gen.pcap" --report
fi
if grep -q '/pkgconfig/rocewire\.pc$' "$work/files"; then
	# A user's program against the installed headers and pkg-config file:
	# the umbrella header (every public header), in C and in C++ (extern
	# "C"), linked with the shared library, and run.
	cat >"$work/user.c" <<'USER'
#include <rocewire.h>
#include <stdio.h>
int main(void)
{
	static const unsigned char bth[12] = {0x04, 0, 0xff, 0xff, 0, 0, 0x01, 0x11, 0, 0, 0, 0x2a};
	struct rw_bth b;
	if (rw_bth_decode(bth, sizeof(bth), &b) != RW_OK || b.opcode != 0x04 || b.psn != 0x2a)
		return 1;
	printf("%s %s\n", ROCEWIRE_VERSION, rw_opcode(b.opcode)->name);
	return 0;
}
USER
	cp "$work/user.c" "$work/user.cc"
	check "a C program builds with pkg-config rocewire" \
		sh -c "cc -std=c11 -Wall -Wextra -Werror $work/user.c -o $work/user \$(pkg-config --cflags --libs rocewire)"
	check "it runs against the installed library" "$work/user"
	has "SEND_ONLY" "the user's program did not decode a BTH"
	if command -v c++ >/dev/null; then
		check "a C++ program builds with the same headers (extern \"C\")" \
			sh -c "c++ -Wall -Wextra -Werror $work/user.cc -o $work/user++ \$(pkg-config --cflags --libs rocewire)"
		check "the C++ program runs" "$work/user++"
	else
		echo "SKIP: no C++ compiler: the headers' extern \"C\" not checked"
	fi
fi
so=$(grep '/wireshark/plugins/.*/epan/rocewire\.so$' "$work/files")
if [ -n "$so" ]; then
	if ! command -v tshark >/dev/null || ! command -v setpriv >/dev/null; then
		echo "FAIL: the plugin is packaged but tshark or setpriv is missing to check it"
		status=1
	else
		# As root tshark loads no plugins: run it as nobody, with the
		# global plugin folder (no WIRESHARK_PLUGIN_DIR).
		mkdir -p "$work/home" && chown nobody "$work/home"
		install -m 644 "$src/samples/rocev2-all-opcodes.pcap" "$work/s.pcap"
		ts() { env -u WIRESHARK_PLUGIN_DIR HOME="$work/home" setpriv --reuid=nobody \
			--regid=nogroup --clear-groups tshark "$@"; }
		check "tshark -G plugins lists $so" ts -G plugins
		has "$so" "tshark (unprivileged) does not list $so"
		check "tshark decodes a sample with the plugin" ts -r "$work/s.pcap" \
			-T fields -e rocewire.icrc.status
		has "^good" "the plugin's rocewire.icrc.status is not 'good' on any frame"
	fi
fi

# --- purge: nothing of the packages may be left ---
if ! DEBIAN_FRONTEND=noninteractive apt-get purge -y "${names[@]}" >"$work/purge.log" 2>&1; then
	cat "$work/purge.log"
	fail "apt-get purge failed"
fi
pkgs=("${new_deps[@]}") # the trap removes the dependencies
left=0
while read -r f; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	# a folder another package owns (/usr/bin ...) stays
	if [ -d "$f" ] && dpkg-query -S "$f" >/dev/null 2>&1; then
		continue
	fi
	echo "FAIL: left after purge: $f"
	left=1
done <"$work/files"
[ $left -eq 0 ] && echo "ok: purge left none of $(wc -l <"$work/files") paths"
[ $left -eq 0 ] || status=1
exit $status
