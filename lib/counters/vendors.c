/* SPDX-License-Identifier: BSD-3-Clause */
/* What each vendor's RDMA counters count, as their drivers' sources and
 * documentation say, set against the figure a capture has of the same
 * event. A counter whose event never shows on the wire (a retry budget
 * running out, a completion being written, a transmit that failed before
 * the wire) is listed with RW_CTR_NONE and the reason, so the report can
 * say "not comparable" rather than leave it unexplained. */
#include <string.h>

#include "counters.h"

#define M(n, w, note) {n, RW_CTR_##w, 0, note}
#define NC(n, why) {n, RW_CTR_NONE, 0, why}
#define PFC(n, p) {n, RW_CTR_PFC_RX, p, "every PFC frame of the capture with that priority enabled: " \
				       "equal only when the capture is of this port's link"}

static const char NOT_SEEN_RETRY[] = "a local retry budget running out: not on the wire";
static const char NOT_SEEN_TX_PFC[] = "the capture's PFC figures do not say which end of the link sent a frame";
static const char NOT_SEEN_EXECUTED[] = "whether the responder had executed a resent request is not on the wire";

/* rxe (Soft-RoCE). Names: drivers/infiniband/sw/rxe/rxe_hw_counters.c;
 * meanings from where the driver increments each one (rxe_net.c,
 * rxe_recv.c, rxe_resp.c, rxe_comp.c, rxe_req.c, Linux 6.1). */
static const struct rw_ctr_map rxe_map[] = {
	/* rxe_xmit_packet(): every packet rxe hands to the IP stack --
	 * requests, ACKs, NAKs, READ responses, QP1 MADs -- once the
	 * send call returned; a qdisc that drops it later (netem) still
	 * counts as sent */
	M("sent_pkts", PKTS_SENT, "counted when rxe hands the packet to the IP stack: a qdisc's drops (netem) after that are in it"),
	/* rxe_rcv(): after the header checks and the ICRC check passed */
	M("rcvd_pkts", PKTS_RCVD_GOOD, "counted after rxe's header and ICRC checks"),
	/* rxe_resp.c check_psn(): a request with a PSN below the expected one */
	NC("duplicate_request", NOT_SEEN_EXECUTED),
	/* rxe_resp.c check_psn(): a request past the expected PSN, counted
	 * once per hole (sent_psn_nak) -- exactly when the responder sends
	 * its PSN-sequence-error NAK */
	M("out_of_seq_request", SEQ_NAK_SENT, "the responder counts it when it sends the sequence NAK, once per hole"),
	/* rxe_comp.c check_ack(): an RNR NAK reached the completer */
	M("rcvd_rnr_err", RNR_NAK_RCVD, NULL),
	/* rxe_resp.c: the responder answered with an RNR NAK (no receive posted) */
	M("send_rnr_err", RNR_NAK_SENT, NULL),
	/* rxe_comp.c check_ack(): a PSN-sequence-error NAK reached the
	 * requester's completer and moved its PSN forward -- a requester's
	 * counter, not the responder's (that one is out_of_seq_request) */
	M("rcvd_seq_err", SEQ_NAK_RCVD_ADV, "counted by the requester's completer only when the NAK's PSN is past its own "
					    "(not after an ACK of the PSN before, nor for a repeated NAK)"),
	/* rxe_comp.c: the completer deferred to the requester (renamed from
	 * completer_sched) */
	NC("ack_deferred", "a scheduling step inside rxe: not on the wire"),
	NC("completer_sched", "a scheduling step inside rxe: not on the wire"),
	NC("retry_exceeded_err", NOT_SEEN_RETRY),
	NC("retry_rnr_exceeded_err", NOT_SEEN_RETRY),
	/* rxe_comp.c: the completer started a retry (after a sequence NAK,
	 * a timeout, or a READ/atomic response past a missing one) */
	NC("completer_retry_err", "retries the completer starts for several causes, some (a response it ignored) not on the wire"),
	/* rxe_xmit_packet(): the IP stack refused the packet */
	NC("send_err", "a transmit that failed never reached the wire"),
	NC("link_downed", "a port event, not a packet"),
	/* rxe_comp.c / rxe_resp.c do_complete(): completions written */
	NC("rdma_sends", "completions (CQEs) of SEND work requests: counted by the host, not on the wire"),
	NC("rdma_recvs", "completions (CQEs) of received SENDs and WRITEs with immediate: counted by the host, not on the wire"),
	/* newer kernels: skb->len at transmit and receive */
	NC("sent_bytes", "bytes as rxe's socket buffers hold them: which headers are in them is not the frame's length"),
	NC("rcvd_bytes", "bytes as rxe's socket buffers hold them: which headers are in them is not the frame's length"),
};

/* mlx5. InfiniBand port counters: drivers/infiniband/hw/mlx5/counters.c
 * (names), meanings from NVIDIA's "Understanding mlx5 Linux Counters and
 * Status Parameters"; ethtool's from the kernel's
 * Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst. */
static const struct rw_ctr_map mlx5_map[] = {
	M("np_cnp_sent", CNP_SENT, NULL),                  /* CNPs the notification point sent */
	M("np_ecn_marked_roce_packets", CE_RCVD, NULL),    /* RoCEv2 packets received with ECN 11 */
	M("rp_cnp_handled", CNP_RCVD, "CNPs the reaction point acted on; those it ignored are rp_cnp_ignored"),
	NC("rp_cnp_ignored", "whether the reaction point acted on a CNP is not on the wire"),
	NC("out_of_sequence", "counts every request that arrived past a PSN hole, which the responder then dropped: "
			      "the capture sees the holes and NAKs, not what the responder discarded"),
	M("packet_seq_err", SEQ_NAK_RCVD, NULL),          /* received NAKs for sequence errors */
	M("rnr_nak_retry_err", RNR_NAK_RCVD, NULL),        /* received RNR NAKs, retry limit not exceeded */
	NC("implied_nak_seq_err", "the requester's inference from a response's PSN, not a packet"),
	M("local_ack_timeout_err", TIMEOUT_RESENDS, "the capture's figure is the engine's inference: go-back-N runs no NAK asked for"),
	NC("duplicate_request", NOT_SEEN_EXECUTED),
	M("rx_icrc_encapsulated", ICRC_BAD_RCVD, NULL),    /* RoCE packets received with a bad ICRC */
	NC("out_of_buffer", "receive queue exhaustion inside the NIC: not on the wire"),
	M("rx_vport_rdma_unicast_packets", PKTS_RCVD, NULL),
	M("tx_vport_rdma_unicast_packets", PKTS_SENT, NULL),
	PFC("rx_prio0_pause", 0), PFC("rx_prio1_pause", 1), PFC("rx_prio2_pause", 2), PFC("rx_prio3_pause", 3),
	PFC("rx_prio4_pause", 4), PFC("rx_prio5_pause", 5), PFC("rx_prio6_pause", 6), PFC("rx_prio7_pause", 7),
	{"rx_pause_ctrl_phy", RW_CTR_PFC_RX, 8, "every 802.3x PAUSE frame of the capture: equal only when the capture is of this port's link"},
	NC("tx_prio0_pause", NOT_SEEN_TX_PFC), NC("tx_prio1_pause", NOT_SEEN_TX_PFC),
	NC("tx_prio2_pause", NOT_SEEN_TX_PFC), NC("tx_prio3_pause", NOT_SEEN_TX_PFC),
	NC("tx_prio4_pause", NOT_SEEN_TX_PFC), NC("tx_prio5_pause", NOT_SEEN_TX_PFC),
	NC("tx_prio6_pause", NOT_SEEN_TX_PFC), NC("tx_prio7_pause", NOT_SEEN_TX_PFC),
	NC("tx_pause_ctrl_phy", NOT_SEEN_TX_PFC),
};

/* irdma (Intel E810/X722). Names: drivers/infiniband/hw/irdma/verbs.c
 * irdma_hw_stat_names[]; the gen3 names hold spaces. */
static const struct rw_ctr_map irdma_map[] = {
	M("cnpSent", CNP_SENT, NULL),          /* IRDMA_HW_STAT_INDEX_TXNPCNPSENT */
	M("cnpHandled", CNP_RCVD, "CNPs the reaction point acted on; those it ignored are cnpIgnored"),
	NC("cnpIgnored", "whether the reaction point acted on a CNP is not on the wire"),
	M("RxECNMrkd", CE_RCVD, NULL),         /* IRDMA_HW_STAT_INDEX_RXNPECNMARKEDPKTS */
	M("RNR sent", RNR_NAK_SENT, NULL),
	M("RNR received", RNR_NAK_RCVD, NULL),
	NC("RxUDP", "every UDP packet of the function, not only RoCE"),
	NC("TxUDP", "every UDP packet of the function, not only RoCE"),
};

/* bnxt_re (Broadcom). Names: drivers/infiniband/hw/bnxt_re/hw_counters.c
 * bnxt_re_stat_descs[] (both the older and the renamed spellings). */
static const struct rw_ctr_map bnxt_map[] = {
	M("tx_cnp_pkts", CNP_SENT, NULL),
	M("np_cnp_pkts", CNP_SENT, NULL),
	M("rx_cnp_pkts", CNP_RCVD, NULL),
	M("rx_ecn_marked_pkts", CE_RCVD, NULL),
	M("seq_err_naks_rcvd", SEQ_NAK_RCVD, NULL),
	M("rnr_naks_rcvd", RNR_NAK_RCVD, NULL),
	M("to_retransmits", TIMEOUT_RESENDS, "the capture's figure is the engine's inference: go-back-N runs no NAK asked for"),
	NC("max_retry_exceeded", NOT_SEEN_RETRY),
	NC("dup_req", NOT_SEEN_EXECUTED),
	NC("missing_resp", "the requester's inference from a response's PSN, not a packet"),
	NC("res_oos_drop_count", "requests the responder dropped past a PSN hole: the capture sees the holes, not the drops"),
	NC("oos_drop_count", "requests the responder dropped past a PSN hole: the capture sees the holes, not the drops"),
	NC("tx_roce_only_pkts", "which RoCE packets (CNPs, MADs) it counts is not documented"),
	NC("rx_roce_only_pkts", "which RoCE packets (CNPs, MADs) it counts is not documented"),
	NC("rx_roce_good_pkts", "which RoCE packets (CNPs, MADs) it counts is not documented"),
	NC("rx_pkts", "every packet of the function, not only RoCE"),
	NC("tx_pkts", "every packet of the function, not only RoCE"),
};

static const struct {
	const struct rw_ctr_map *map;
	size_t n;
	const char *key;
} vendors[RW_CTR_VENDORS] = {
	[RW_CTR_UNKNOWN] = {NULL, 0, "unknown"},
	[RW_CTR_MLX5] = {mlx5_map, sizeof(mlx5_map) / sizeof(mlx5_map[0]), "mlx5"},
	[RW_CTR_IRDMA] = {irdma_map, sizeof(irdma_map) / sizeof(irdma_map[0]), "irdma"},
	[RW_CTR_BNXT_RE] = {bnxt_map, sizeof(bnxt_map) / sizeof(bnxt_map[0]), "bnxt_re"},
	[RW_CTR_RXE] = {rxe_map, sizeof(rxe_map) / sizeof(rxe_map[0]), "rxe"},
};

static const char *const what_keys[RW_CTR_WHAT_COUNT] = {
	[RW_CTR_NONE] = "none",
	[RW_CTR_PKTS_SENT] = "pkts_sent",
	[RW_CTR_PKTS_RCVD] = "pkts_rcvd",
	[RW_CTR_PKTS_RCVD_GOOD] = "pkts_rcvd_good_icrc",
	[RW_CTR_CE_RCVD] = "ce_rcvd",
	[RW_CTR_CNP_SENT] = "cnp_sent",
	[RW_CTR_CNP_RCVD] = "cnp_rcvd",
	[RW_CTR_SEQ_NAK_SENT] = "seq_nak_sent",
	[RW_CTR_SEQ_NAK_RCVD] = "seq_nak_rcvd",
	[RW_CTR_SEQ_NAK_RCVD_ADV] = "seq_nak_rcvd_advancing",
	[RW_CTR_RNR_NAK_SENT] = "rnr_nak_sent",
	[RW_CTR_RNR_NAK_RCVD] = "rnr_nak_rcvd",
	[RW_CTR_ICRC_BAD_RCVD] = "icrc_bad_rcvd",
	[RW_CTR_TIMEOUT_RESENDS] = "timeout_resends",
	[RW_CTR_PFC_RX] = "pfc_frames",
};
_Static_assert(sizeof(what_keys) / sizeof(what_keys[0]) == RW_CTR_WHAT_COUNT, "one key per figure");

const char *rw_ctr_what_key(enum rw_ctr_what w)
{
	return (unsigned)w < RW_CTR_WHAT_COUNT ? what_keys[w] : "?";
}

const char *rw_ctr_vendor_key(enum rw_ctr_vendor v)
{
	return (unsigned)v < RW_CTR_VENDORS ? vendors[v].key : "?";
}

const struct rw_ctr_map *rw_ctr_lookup(enum rw_ctr_vendor v, const char *name)
{
	if ((unsigned)v >= RW_CTR_VENDORS)
		return NULL;
	for (size_t i = 0; i < vendors[v].n; i++)
		if (strcmp(vendors[v].map[i].name, name) == 0)
			return &vendors[v].map[i];
	return NULL;
}

static unsigned known(enum rw_ctr_vendor v, const struct rw_ctr_snapshot *s)
{
	unsigned n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += rw_ctr_lookup(v, s->v[i].name) != NULL;
	return n;
}

enum rw_ctr_vendor rw_ctr_detect(const struct rw_ctr_snapshot *before, const struct rw_ctr_snapshot *after)
{
	enum rw_ctr_vendor best = RW_CTR_UNKNOWN;
	unsigned best_n = 0;
	for (unsigned v = 1; v < RW_CTR_VENDORS; v++) {
		unsigned n = known((enum rw_ctr_vendor)v, before) + known((enum rw_ctr_vendor)v, after);
		if (n > best_n) {
			best_n = n;
			best = (enum rw_ctr_vendor)v;
		}
	}
	return best;
}
