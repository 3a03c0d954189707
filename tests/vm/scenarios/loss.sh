# SPDX-License-Identifier: BSD-3-Clause
# 10% loss of the requester's packets (veth1 egress, RoCE only): the responder
# NAKs the PSN gaps (AETH 0x60), the requester retransmits, the data arrive.
# The WRITE run uses 256-byte packets and 4 messages in flight to keep its
# capture small (it is a sample): go-back-N resends all that was in flight.
# rxe's counters are read around both (check_counters.py).
netem veth1 loss 10%
verbs_capture_counted rc_write_loss --transport rc --op write --size 1024 --mtu 256 --iters 32 --tx-depth 4
netem_clear rc_write_loss
netem veth1 loss 10%
verbs_capture_counted rc_send_loss --transport rc --op send --size 4096 --iters 32
netem_clear rc_send_loss
