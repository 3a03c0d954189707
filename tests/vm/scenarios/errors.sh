# SPDX-License-Identifier: BSD-3-Clause
# Errors on purpose: a wrong rkey (NAK remote access error, AETH 0x62) and no
# receive posted (RNR NAKs, then "RNR retry counter exceeded").
verbs_capture rc_bad_rkey --transport rc --op write --size 4096 --iters 4 --client --bad-rkey
verbs_capture rc_rnr --transport rc --op send --size 1024 --iters 4 --server --no-recv
