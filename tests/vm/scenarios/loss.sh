# 10% loss of the requester's packets (veth1 egress, RoCE only): the responder
# NAKs the PSN gaps (AETH 0x60), the requester retransmits, the data arrive.
netem veth1 loss 10%
verbs_capture rc_write_loss --transport rc --op write --size 4096 --iters 32
netem_clear rc_write_loss
netem veth1 loss 10%
verbs_capture rc_send_loss --transport rc --op send --size 4096 --iters 32
netem_clear rc_send_loss
