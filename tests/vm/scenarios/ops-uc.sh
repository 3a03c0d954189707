# SPDX-License-Identifier: BSD-3-Clause
# UC, every operation it has: capture + records named uc_OP.
verbs_capture uc_send      --transport uc --op send      --size 4096 --iters 8 --qps 2
verbs_capture uc_send_imm  --transport uc --op send_imm  --size 2050 --iters 8
verbs_capture uc_write     --transport uc --op write     --size 4096 --iters 8
verbs_capture uc_write_imm --transport uc --op write_imm --size 1025 --iters 8 --qps 2
