#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# rxe-vm.sh: run command files inside a throw-away qemu VM with two Soft-RoCE
# (rdma_rxe) devices on a veth pair, and bring back what they wrote.
#
#   rxe-vm.sh --out DIR [--bin PROGRAM]... [--file SRC[:DEST]]... [options] COMMAND-FILE...
#
# Sets itself up from a clean Debian 12 machine: installs the packages it needs
# (when root), downloads Debian's kernel image package (the one
# linux-image-amd64 depends on) with apt-get download, keeps the kernel and
# the initramfs pieces in a cache, boots qemu with TCG (this machine's KVM
# cannot boot a stock kernel), runs the command files one after the other
# (tests/vm/guest/lib.sh lists the helpers they can use) and copies the files
# they left in their working directory to DIR through a 9p share.
#
# Options:
#   -o, --out DIR        results directory (created; emptied first if it is
#                        one of an earlier run)
#   -b, --bin PROGRAM    copy PROGRAM and its ldd libraries into the guest's
#                        /usr/local/bin (repeatable)
#   -f, --file SRC[:DEST]
#                        copy the file SRC to DEST in the guest (default
#                        /usr/local/lib/NAME), with its ldd libraries if it is
#                        a shared object (repeatable): plugins that ldd does
#                        not list, such as DPDK's PMDs, or data files
#   --cache DIR          cache (default ${XDG_CACHE_HOME:-~/.cache}/rocewire-vm)
#   --timeout S          limit for one boot attempt, boot to power-off (300)
#   --file-timeout S     limit for one command file inside the VM (150)
#   --cmd-timeout S      limit for one run_logged/verbs_pair program (60)
#   --boot-timeout S     time allowed to reach /init (90)
#   --tries N            boot attempts when /init is not reached (3)
#   --no-install         never call apt-get install
#   --prepare            only set up the cache (kernel, initramfs pieces)
#
# Environment: RXE_VM_APPEND replaces the kernel command line
# ("console=ttyS0 panic=-1 mitigations=off").
#
# Exit status: 0 when every command file exited 0; 77 (with the reason on
# stderr and in DIR/SKIPPED) when the VM cannot be had here: no qemu with TCG,
# packages missing and not installable, kernel package not downloadable; 1
# otherwise (a command file failed, the VM did not boot or did not finish).
set -uo pipefail

me=rxe-vm
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=
bins=()
files=()
cmds=()
cache=${XDG_CACHE_HOME:-$HOME/.cache}/rocewire-vm
timeout_s=300
file_timeout=150
cmd_timeout=60
boot_timeout=90
tries=3
install=1
prepare_only=0

die() { echo "$me: $*" >&2; exit 1; }
skip() {
	echo "$me: SKIP: $*" >&2
	[ -n "$out" ] && [ -d "$out" ] && echo "$*" >"$out/SKIPPED"
	exit 77
}
log() { echo "$me: $*" >&2; }

while [ $# -gt 0 ]; do
	case "$1" in
	-o | --out) out=$2; shift 2 ;;
	-b | --bin) bins+=("$2"); shift 2 ;;
	-f | --file) files+=("$2"); shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--file-timeout) file_timeout=$2; shift 2 ;;
	--cmd-timeout) cmd_timeout=$2; shift 2 ;;
	--boot-timeout) boot_timeout=$2; shift 2 ;;
	--tries) tries=$2; shift 2 ;;
	--no-install) install=0; shift ;;
	--prepare) prepare_only=1; shift ;;
	-h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) cmds+=("$1"); shift ;;
	esac
done
if [ $prepare_only -eq 0 ]; then
	[ -n "$out" ] || die "--out DIR is required"
	[ ${#cmds[@]} -gt 0 ] || die "no command file given"
	for f in "${cmds[@]}"; do [ -r "$f" ] || die "$f: cannot read command file"; done
	for f in "${bins[@]}"; do [ -x "$f" ] || die "$f: not an executable (--bin)"; done
	for f in "${files[@]}"; do [ -r "${f%%:*}" ] || die "${f%%:*}: cannot read it (--file)"; done
	# Emptied first, but only if it is empty or a results directory of ours.
	if [ -d "$out" ] && [ -n "$(ls -A "$out")" ] && [ ! -f "$out/.rxe-vm-results" ]; then
		die "$out: not empty and not a results directory of rxe-vm.sh; refusing to empty it"
	fi
	rm -rf "$out" && mkdir -p "$out" && touch "$out/.rxe-vm-results" ||
		die "$out: cannot create the results directory"
	out=$(cd "$out" && pwd)
fi

# --- 1. packages ------------------------------------------------------------
# Package -> a file it provides that we use. Keep in sync with README.md and
# scripts/install-deps.sh --vm.
declare -A need=(
	[qemu-system-x86]=/usr/bin/qemu-system-x86_64
	[busybox-static]=/bin/busybox
	[kmod]=/usr/sbin/depmod
	[cpio]=/usr/bin/cpio
	[iproute2]=/usr/bin/rdma
	[tcpdump]=/usr/bin/tcpdump
	[libibverbs1]=/usr/lib/x86_64-linux-gnu/libibverbs.so.1
	[ibverbs-providers]=/etc/libibverbs.d/rxe.driver
	[ibverbs-utils]=/usr/bin/ibv_rc_pingpong
	[librdmacm1]=/usr/lib/x86_64-linux-gnu/librdmacm.so.1
	[rdmacm-utils]=/usr/bin/rping
)
missing=()
for p in "${!need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ $install -eq 1 ] || skip "missing packages: ${missing[*]} (--no-install given)"
	[ "$(id -u)" -eq 0 ] || skip "missing packages: ${missing[*]} (not root: cannot apt-get install)"
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null 2>&1
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
		skip "apt-get install ${missing[*]} failed"
	apt_updated=1
fi
for p in "${!need[@]}"; do
	[ -e "${need[$p]}" ] || skip "${need[$p]} missing although $p is installed"
done
qemu=/usr/bin/qemu-system-x86_64
"$qemu" -accel help 2>/dev/null | grep -qx tcg || skip "$qemu has no TCG accelerator"

# --- 2. kernel and modules --------------------------------------------------
mkdir -p "$cache" || skip "$cache: cannot create the cache directory"
cache=$(cd "$cache" && pwd)
exec 9>"$cache/lock"
flock 9 || die "$cache/lock: cannot lock"

# rxe asks for crc32 by name (modules.dep does not know), so crc32_generic
# first; then rxe with its dependencies (ib_core, ib_uverbs), rdma_cm's
# user-space access (rdma_ucm, with rdma_cm, ib_cm and iw_cm before it: the
# CM clients attach to the rxe devices when they are added later), veth,
# netem (with prio and u32 to apply it to RoCE packets only), virtio-pci and
# 9p. The cache entry is named after this list too.
mods=(crc32_generic rdma_rxe rdma_ucm veth sch_netem sch_prio cls_u32 virtio_pci 9pnet_virtio 9p)
mkey=$(echo "${mods[*]}" | md5sum | cut -c1-8)
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n1)
if [ -z "$kpkg" ] && [ "$(id -u)" -eq 0 ] && [ -z "${apt_updated:-}" ]; then
	apt-get update -qq >/dev/null 2>&1
	kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n1)
fi
kver_pkg=
[ -n "$kpkg" ] && kver_pkg=$(apt-cache policy "$kpkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
# cached_kernel: the newest complete cache entry for this module list.
cached_kernel() {
	ls -td "$cache"/kernel/*_"$mkey"/ 2>/dev/null | while read -r d; do
		[ -f "$d/ok" ] && { echo "${d%/}"; break; }
	done
}
kdir=
if [ -n "$kpkg" ] && [ -n "$kver_pkg" ] && [ "$kver_pkg" != "(none)" ]; then
	kdir="$cache/kernel/${kpkg}_${kver_pkg}_$mkey"
else
	# Without apt lists an earlier download still does.
	kdir=$(cached_kernel)
	[ -n "$kdir" ] || skip "cannot find the package linux-image-amd64 depends on (apt-cache depends linux-image-amd64 says nothing: apt-get update?) and nothing cached in $cache"
	log "apt knows no kernel package; using the cached ${kdir##*/}"
fi
if [ ! -f "$kdir/ok" ]; then
	t0=$SECONDS
	log "preparing kernel $kpkg $kver_pkg in $kdir"
	rm -rf "$kdir" && mkdir -p "$kdir/x" || die "$kdir: cannot create"
	if ! (cd "$kdir/x" && apt-get download "$kpkg=$kver_pkg" >"$kdir/download.log" 2>&1); then
		tail -n 3 "$kdir/download.log" >&2
		rm -rf "$kdir"
		kdir=$(cached_kernel)
		[ -n "$kdir" ] || skip "apt-get download $kpkg=$kver_pkg failed and nothing cached in $cache"
		log "apt-get download $kpkg=$kver_pkg failed; using the cached ${kdir##*/}"
	fi
fi
if [ ! -f "$kdir/ok" ]; then
	deb=$(ls "$kdir"/x/*.deb)
	dpkg -x "$deb" "$kdir/x/root" || die "dpkg -x $deb failed"
	kver=$(ls "$kdir/x/root/lib/modules" | head -n1)
	[ -n "$kver" ] && [ -f "$kdir/x/root/boot/vmlinuz-$kver" ] || die "$deb: no vmlinuz or modules inside"
	# The .deb ships no modules.dep.
	/usr/sbin/depmod -b "$kdir/x/root" "$kver" || die "depmod -b $kdir/x/root $kver failed"
	mroot="$kdir/x/mods"
	mkdir -p "$mroot/lib/modules/$kver" "$mroot/rw"
	: >"$mroot/rw/modules.order"
	for m in "${mods[@]}"; do
		/usr/sbin/modprobe -d "$kdir/x/root" -S "$kver" --show-depends "$m" >"$kdir/x/dep" 2>&1 ||
			die "modprobe --show-depends $m: $(head -n1 "$kdir/x/dep")"
		sed -n 's/^insmod \([^ ]*\).*/\1/p' "$kdir/x/dep" | while read -r ko; do
			rel=${ko#"$kdir/x/root/lib/modules/"}
			grep -qxF "$rel" "$mroot/rw/modules.order" && continue
			mkdir -p "$mroot/lib/modules/$(dirname "$rel")"
			cp "$ko" "$mroot/lib/modules/$rel"
			echo "$rel" >>"$mroot/rw/modules.order"
		done
	done
	(cd "$mroot" && find . | cpio -o -H newc --quiet | gzip -1 >"$kdir/modules.cpio.gz") ||
		die "cannot build $kdir/modules.cpio.gz"
	cp "$kdir/x/root/boot/vmlinuz-$kver" "$kdir/vmlinuz"
	cp "$mroot/rw/modules.order" "$kdir/modules.order"
	echo "$kver" >"$kdir/kver"
	rm -rf "$kdir/x"
	touch "$kdir/ok"
	# Older kernels for this module list are of no further use; entries for
	# other module lists belong to other trees sharing the cache (a worktree
	# on another branch) and stay.
	for d in "$cache"/kernel/*_"$mkey"/; do
		[ "${d%/}" = "$kdir" ] || rm -rf "$d"
	done
	log "kernel $kver ready ($(wc -l <"$kdir/modules.order") modules) in $((SECONDS - t0)) s"
fi

# --- 3. initramfs pieces ----------------------------------------------------
# add_file SRC DEST: copy SRC (symlinks followed) to DEST under $root.
add_file() {
	mkdir -p "$root$(dirname "$2")" && cp -L "$1" "$root$2"
}
# add_prog SRC DEST: SRC and every library ldd lists for it.
add_prog() {
	add_file "$1" "$2" || return 1
	ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
		while read -r lib; do
			[ -e "$root$lib" ] || add_file "$lib" "$lib" || exit 1
		done
}
skeleton() {
	# Debian's merged /usr: /lib and /lib64 point into /usr as on the host, so
	# library paths printed by ldd work unchanged. /bin stays busybox's.
	mkdir -p "$root"/{bin,dev,proc,sys,tmp,out,root,rw/cmd,etc,usr/bin,usr/sbin,usr/lib64,usr/lib/x86_64-linux-gnu,usr/local/bin}
	ln -sfn usr/lib "$root/lib"
	ln -sfn usr/lib64 "$root/lib64"
	ln -sfn usr/sbin "$root/sbin"
}
mkcpio() { (cd "$1" && find . | cpio -o -H newc --quiet); }

# Userland: busybox, iproute2, tcpdump, libibverbs with the rxe provider,
# ibverbs-utils, and rdmacm-utils with librdmacm (rping, ucmatose, udaddy,
# rdma_server/rdma_client; ldd brings the library). Rebuilt only when one of
# these host files changes.
rxe_so=$(ls /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav*.so 2>/dev/null | head -n1)
[ -n "$rxe_so" ] || skip "no librxe-rdmav*.so from ibverbs-providers"
uprogs=(/bin/ip:/usr/sbin/ip /sbin/tc:/usr/sbin/tc /usr/bin/rdma:/usr/bin/rdma
	/usr/bin/tcpdump:/usr/bin/tcpdump "$rxe_so:$rxe_so")
# glibc dlopens libgcc_s for pthread_exit and cancellation (rping's threads
# exit so): ldd does not list it.
libgcc_s=/usr/lib/x86_64-linux-gnu/libgcc_s.so.1
[ -e "$libgcc_s" ] && uprogs+=("$libgcc_s:$libgcc_s")
for p in ibv_devinfo ibv_devices ibv_rc_pingpong ibv_uc_pingpong ibv_ud_pingpong ib_write_bw ib_read_bw ib_send_bw \
	rping ucmatose udaddy rdma_server rdma_client; do
	for d in /usr/bin /bin; do
		[ -x "$d/$p" ] && { uprogs+=("$d/$p:/usr/bin/$p"); break; }
	done
done
ukey=$( (echo "v1 $here"; for pd in "${uprogs[@]}" /bin/busybox:x /etc/libibverbs.d/rxe.driver:x; do
	stat -L -c '%n %s %Y' "${pd%%:*}"; done; md5sum <"$here/rxe-vm.sh") | md5sum | cut -c1-16)
ucpio="$cache/userland-$ukey.cpio.gz"
if [ ! -f "$ucpio" ]; then
	t0=$SECONDS
	root=$(mktemp -d "$cache/userland.XXXXXX")
	skeleton
	add_file /bin/busybox /bin/busybox
	for pd in "${uprogs[@]}"; do
		add_prog "${pd%%:*}" "${pd#*:}" || die "cannot copy ${pd%%:*} into the initramfs"
	done
	add_file /etc/libibverbs.d/rxe.driver /etc/libibverbs.d/rxe.driver
	printf 'root:x:0:0:root:/root:/bin/sh\ntcpdump:x:104:108::/nonexistent:/bin/false\n' >"$root/etc/passwd"
	printf 'root:x:0:\ntcpdump:x:108:\n' >"$root/etc/group"
	mkcpio "$root" | gzip -1 >"$ucpio.tmp" && mv "$ucpio.tmp" "$ucpio" || die "cannot build $ucpio"
	rm -rf "$root"
	# Pieces not used for a week are of no further use (another tree sharing
	# the cache may still use a recent one: its key differs with rxe-vm.sh).
	find "$cache" -maxdepth 1 -name 'userland-*.cpio.gz' ! -name "${ucpio##*/}" -mtime +7 -delete
	log "userland initramfs piece built in $((SECONDS - t0)) s ($(du -k "$ucpio" | cut -f1) KiB)"
fi
touch "$ucpio"
flock -u 9
[ $prepare_only -eq 1 ] && { log "cache ready in $cache"; exit 0; }

# Per-run piece, uncompressed: /init, the helpers, the command files, the
# programs under test and their libraries.
work=$(mktemp -d "${TMPDIR:-/tmp}/rxe-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
skeleton
add_file "$here/guest/init" /init && chmod 755 "$root/init"
add_file "$here/guest/lib.sh" /rw/lib.sh
printf 'RW_FILE_TIMEOUT=%s\nRW_TIMEOUT=%s\n' "$file_timeout" "$cmd_timeout" >"$root/rw/config"
for b in "${bins[@]}"; do
	add_prog "$b" "/usr/local/bin/$(basename "$b")" || die "$b: cannot copy it or its libraries into the initramfs"
done
for f in "${files[@]}"; do
	src=${f%%:*}
	dst=/usr/local/lib/$(basename "$src")
	case "$f" in *:*) dst=${f#*:} ;; esac
	if ldd "$src" >/dev/null 2>&1; then
		add_prog "$src" "$dst" || die "$src: cannot copy it or its libraries into the initramfs"
	else # not a dynamic object: a data file (ldd fails on it)
		add_file "$src" "$dst" || die "$src: cannot copy it into the initramfs"
	fi
done
for f in "${cmds[@]}"; do
	n=$(basename "$f")
	[ -e "$root/rw/cmd/$n" ] && die "$f: two command files named $n"
	add_file "$f" "/rw/cmd/$n"
	echo "$n" >>"$root/rw/commands"
done
# A loader cache for the libraries of all three pieces (the host's ldconfig
# writes it for the guest tree).
mkdir -p "$work/ld"
(cd "$work/ld" && gzip -dc "$ucpio" | cpio -id --quiet 2>/dev/null)
cp -a "$root/." "$work/ld/"
printf '/usr/lib/x86_64-linux-gnu\n/usr/local/lib\n' >"$work/ld/etc/ld.so.conf"
/sbin/ldconfig -r "$work/ld" 2>/dev/null && cp "$work/ld/etc/ld.so.cache" "$root/etc/ld.so.cache"
rm -rf "$work/ld"
initrd=$work/initrd.img
# The kernel looks for an uncompressed cpio only at 4-byte aligned offsets
# and skips zeros between archives: pad each compressed piece.
for piece in "$kdir/modules.cpio.gz" "$ucpio"; do
	cat "$piece"
	head -c $((512 - $(stat -c %s "$piece") % 512)) /dev/zero
done >"$initrd"
mkcpio "$root" >>"$initrd" || die "cannot build the per-run initramfs piece"

# --- 4. boot ----------------------------------------------------------------
# TCG, never -cpu host: this machine's KVM cannot boot a stock kernel. No
# "quiet": one boot in ten hung before /init with it.
append=${RXE_VM_APPEND:-"console=ttyS0 panic=-1 mitigations=off"}
status=1
for attempt in $(seq 1 "$tries"); do
	con="$out/console.$attempt.log"
	: >"$con"
	t0=${EPOCHREALTIME/./}
	timeout -k 5 "$timeout_s" "$qemu" -accel tcg,thread=multi -cpu max -smp 2 -m 1024 \
		-display none -nodefaults -nic none -no-reboot -monitor none \
		-kernel "$kdir/vmlinuz" -initrd "$initrd" -append "$append" \
		-serial "file:$con" \
		-virtfs "local,path=$out,mount_tag=out,security_model=none" \
		>"$work/qemu.out" 2>&1 &
	qpid=$!
	booted=0
	while kill -0 $qpid 2>/dev/null; do
		el=$(((${EPOCHREALTIME/./} - t0) / 1000000))
		if [ $booted -eq 0 ] && grep -q "^rocewire-vm: init started" "$con"; then
			booted=1
			log "attempt $attempt: /init reached after $el s"
		fi
		if [ $booted -eq 0 ] && [ "$el" -ge "$boot_timeout" ]; then
			log "attempt $attempt: no /init after $boot_timeout s; killing qemu"
			kill $qpid 2>/dev/null
			break
		fi
		sleep 0.5
	done
	wait $qpid
	qrc=$?
	# The results of each command file that finished, in the order they ran.
	for t in $(ls "$out"/.[0-9][0-9][0-9]-*.tar 2>/dev/null | sort); do
		tar -xf "$t" -C "$out" && rm -f "$t" || log "cannot unpack $t"
	done
	el=$(((${EPOCHREALTIME/./} - t0) / 100000))
	el="$((el / 10)).$((el % 10))"
	cp "$con" "$out/console.log"
	if grep -q "^rocewire-vm: init started" "$con"; then
		if grep -q "^rocewire-vm: done status=" "$con"; then
			st=$(sed -n 's/^rocewire-vm: done status=\([0-9]*\).*/\1/p' "$con" | tail -n1)
			log "attempt $attempt: finished in $el s, command status $st"
			status=$st
		elif [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
			log "attempt $attempt: timed out after $timeout_s s (see $out/console.log)"
		else
			log "attempt $attempt: qemu exited ($qrc) before the commands finished (see $out/console.log)"
			cat "$work/qemu.out" >&2
		fi
		break
	fi
	if [ $qrc -ne 0 ] && [ $qrc -ne 124 ] && [ $qrc -ne 143 ] && [ -s "$work/qemu.out" ]; then
		log "attempt $attempt: qemu failed ($qrc): $(head -n 3 "$work/qemu.out")"
	fi
done
[ "$status" = 0 ] && exit 0
if ! grep -q "^rocewire-vm: init started" "$out/console.log"; then
	log "no boot reached /init in $tries attempt(s); the last console:"
fi
tail -n 20 "$out/console.log" >&2
exit 1
