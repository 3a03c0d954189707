#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what rocewire needs on Debian 12, idempotently: packages already
# present are not reinstalled and apt-get update runs only when something is
# missing. Shared by the README's two commands and by .ci/run.
#
#   scripts/install-deps.sh          build + test dependencies (incl. the Soft-RoCE VM's)
#   scripts/install-deps.sh --vm     the same (named for tests/vm/README.md)
#   scripts/install-deps.sh --build  only what the build needs (the README's command 1)
#   scripts/install-deps.sh --list-build, --list-test   print the two lists
set -euo pipefail

build_pkgs=(build-essential cmake pkg-config libpcap-dev libjansson-dev zlib1g-dev libibverbs-dev
            libyaml-dev dpdk-dev libdpdk-dev dpdk wireshark-dev)
test_pkgs=(libcmocka-dev libdeflate-dev clang libclang-rt-14-dev tshark python3-scapy jq
	rdma-core ibverbs-providers ibverbs-utils librdmacm1 rdmacm-utils tcpreplay iproute2 libbpf-dev
	qemu-system-x86 busybox-static kmod cpio tcpdump libibverbs1 chromium
	xvfb wireshark lintian dpkg-dev)

pkgs=("${build_pkgs[@]}")
case "${1:-}" in
"" | --vm | --test) pkgs+=("${test_pkgs[@]}") ;;
--build) ;;
--list-build)
	# The package lists, one a line, for scripts/check-first-run.sh (which
	# hides the test-only ones to prove command 1 needs only --build's).
	printf '%s\n' "${build_pkgs[@]}"
	exit 0
	;;
--list-test)
	printf '%s\n' "${test_pkgs[@]}"
	exit 0
	;;
*)
	echo "install-deps: unknown option '$1' (use --build, --vm or nothing)" >&2
	exit 2
	;;
esac

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages (${missing[*]}); run as root or install them" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer for it.
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
echo "install-deps: installing ${missing[*]}" >&2
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
