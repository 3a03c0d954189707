# SPDX-License-Identifier: BSD-3-Clause
# UD (one packet per message, at most the path MTU): capture + records ud_OP.
verbs_capture ud_send      --transport ud --op send      --size 1024 --iters 8 --qps 2
verbs_capture ud_send_imm  --transport ud --op send_imm  --size 333  --iters 8
