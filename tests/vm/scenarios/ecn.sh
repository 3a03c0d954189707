# SPDX-License-Identifier: BSD-3-Clause
# ECT(0) traffic (traffic class 2) through netem marking 25% of the
# requester's packets CE instead of dropping them (--timeout-exp: ops-rc.sh).
# rxe's counters are read around it (check_counters.py).
netem veth1 loss 25% ecn
verbs_capture_counted rc_write_ecn --transport rc --op write --size 4096 --iters 16 --tclass 2 --timeout-exp 18
netem_clear rc_write_ecn
