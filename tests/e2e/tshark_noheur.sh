# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the shell tests that read RoCE through tshark: the heuristics
# Wireshark 4.0 registers on infiniband.payload take RoCE payloads for other
# protocols and call valid packets malformed (as tshark_xcheck.py also
# turns off). Sets $noheur to the tshark options that disable them.
noheur=""
# (The heuristics' own short names: tshark refuses a protocol's name here.)
for h in rpcrdma_infiniband eth_over_ib fc_infiniband sdp_infiniband iser_infiniband lnet_ib \
	smb_direct_infiniband smcr_infiniband nvme_rdma; do
	noheur="$noheur --disable-heuristic $h"
done
