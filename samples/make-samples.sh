#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Rewrites the captures of samples/ with rocewire-mkcap (deterministic: the
# same build writes the same bytes). usage: samples/make-samples.sh MKCAP [OUTDIR]
# The test e2e_samples_reproducible runs this into a scratch folder and
# compares the result with the committed files.
set -eu
mk=${1:?usage: make-samples.sh PATH/TO/rocewire-mkcap [OUTDIR]}
out=${2:-$(cd "$(dirname "$0")" && pwd)}
"$mk" --all-opcodes --carriers v2 --max-payload 256 -o "$out/rocev2-all-opcodes.pcap"
"$mk" --all-opcodes --carriers v2-ipv6-vlan --max-payload 128 -o "$out/rocev2-ipv6-vlan.pcap"
"$mk" --all-opcodes --carriers v1,v1-vlan --max-payload 64 -o "$out/rocev1.pcap"
"$mk" --all-opcodes --linktype infiniband --max-payload 64 -o "$out/ib-native.pcap"
"$mk" --all-opcodes --linktype erf --carriers ib,ib-grh --max-payload 64 -o "$out/ib-erf.pcap"
"$mk" --all-opcodes --linktype sll2 --carriers v2,v2-ipv6 --max-payload 64 -o "$out/rocev2-sll2.pcap"
"$mk" --pfc -o "$out/pfc-pause.pcap"
"$mk" --bad -o "$out/bad-icrc.pcap"
