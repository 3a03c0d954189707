# SPDX-License-Identifier: BSD-3-Clause
# RC, every operation: capture + records named rc_OP. Sizes that are not a
# multiple of 4 make pad bytes; --qps 2 exercises the per-QP accounting.
# --timeout-exp 18 (1.07 s): a VM starved of CPU by a busy host should not
# resend on the 67 ms default ACK timeout (the checks count each PSN once
# anyway, but compare packet counts only when nothing was resent).
verbs_capture rc_send      --transport rc --op send      --size 4096 --iters 8 --qps 2 --timeout-exp 18
verbs_capture rc_send_imm  --transport rc --op send_imm  --size 4097 --iters 8 --timeout-exp 18
verbs_capture rc_write     --transport rc --op write     --size 4096 --iters 8 --qps 2 --timeout-exp 18
verbs_capture rc_write_imm --transport rc --op write_imm --size 3001 --iters 8 --timeout-exp 18
verbs_capture rc_read      --transport rc --op read      --size 5000 --iters 8 --qps 2 --timeout-exp 18
verbs_capture rc_cas       --transport rc --op cas       --iters 8 --timeout-exp 18
verbs_capture rc_fadd      --transport rc --op fadd      --iters 8 --qps 2 --timeout-exp 18
