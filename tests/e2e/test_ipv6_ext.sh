#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A capture like an ordinary host's, with IPv6 extension headers (MLD reports,
# RoCEv2 behind Hop-by-Hop, Routing, Destination Options, Fragment headers),
# made by Scapy with ICRCs computed independently, read by rocewire-cap and
# cross-checked against tshark (ipv6_ext_check.py).
# Env: ROCEWIRE_CAP (path of rocewire-cap). Exit 77 when Scapy or tshark is
# missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cap=${ROCEWIRE_CAP:-${1:-}}
py=/usr/bin/python3
if [ -z "$cap" ] || [ ! -x "$cap" ]; then
	echo "FAIL: rocewire-cap not found: set ROCEWIRE_CAP or pass its path" >&2
	exit 1
fi
if [ ! -x "$py" ]; then
	echo "SKIP: $py is missing (the Debian python3 with python3-scapy is needed)"
	exit 77
fi
if ! "$py" -c 'import scapy.contrib.roce, scapy.layers.inet6, scapy.layers.ipsec' 2>/dev/null; then
	echo "SKIP: Scapy is missing for $py: apt-get install python3-scapy"
	exit 77
fi
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark is not installed (apt-get install tshark)"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-ipv6ext.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A clean profile: no user preference or disabled protocol changes decoding.
export HOME="$work" XDG_CONFIG_HOME="$work/.config"
"$py" "$here/ipv6_ext_check.py" "$cap" "$work"
