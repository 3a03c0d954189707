/* Per-QP analysis: fed one decoded packet at a time, keeps bounded state per
 * connection and answers per packet (struct rw_note) and per flow (struct
 * rw_flow). It never reads wire bytes, only struct rw_packet.
 *
 * A flow is one direction of traffic to one destination QP: (source
 * address, destination address, destination QPN) for RoCE, (SLID, DLID,
 * DQPN) for native IB. A reliable connection is two flows: the requester's
 * (requests) and the responder's (ACKs, READ responses), paired by the
 * engine when a response's PSN falls in a request flow's outstanding range.
 *
 * Memory: the caller provides one block of rw_analyzer_mem_size() bytes;
 * nothing is allocated. When the flow table is full, packets of new flows
 * are counted in rw_totals.untracked and not analysed. */
#ifndef ROCEWIRE_ANALYZE_H
#define ROCEWIRE_ANALYZE_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/packet.h"

struct rw_analyze_cfg {
	uint32_t max_flows;        /* flow table capacity (default 4096) */
	double link_gbps;          /* for PFC/PAUSE quanta -> time (default 100) */
	uint64_t cnp_window_ns;    /* CE -> CNP link window (default 1 ms) */
	uint64_t storm_ns;         /* a priority paused longer than this is a storm (default 10 ms) */
	uint32_t psn_window;       /* PSNs remembered per flow to tell reorder from resend (fixed 1024) */
};

/* Latency histogram: log-linear buckets (8 per power of two) from 1 ns. */
#define RW_HIST_BUCKETS 320
struct rw_hist {
	uint64_t count;
	uint64_t max_ns;
	uint64_t sum_ns;
	uint32_t b[RW_HIST_BUCKETS];
};
/* The q-quantile (0..1) in nanoseconds: the upper bound of its bucket
 * (at most 9% above the true value), exact for the maximum. */
uint64_t rw_hist_quantile(const struct rw_hist *h, double q);

enum rw_nak_kind {
	RW_NAKK_PSN_SEQ = 0,
	RW_NAKK_INVALID_REQ,
	RW_NAKK_REMOTE_ACCESS,
	RW_NAKK_REMOTE_OP,
	RW_NAKK_INVALID_RD,
	RW_NAKK_RNR,
	RW_NAKK_RESERVED,
	RW_NAKK_COUNT
};
const char *rw_nak_kind_key(enum rw_nak_kind k); /* "psn_seq", "rnr", ... (JSON keys) */

struct rw_flow_key {
	uint8_t family;     /* 4, 6 (RoCEv2 over IPv4/IPv6), 1 (RoCEv1 GIDs), 0 (native IB LIDs) */
	uint8_t src[16];    /* IPv4: first 4 bytes; IB: SLID in the first 2 */
	uint8_t dst[16];
	uint32_t dqpn;
};

#define RW_MSG_OPS 4 /* SEND, WRITE, READ (bytes read), ATOMIC */

struct rw_flow {
	struct rw_flow_key key;
	int32_t peer;           /* index of the paired flow, -1 if none */
	uint32_t pair_tried;     /* flow count at the last failed pairing attempt */
	uint8_t transport;      /* enum rw_transport of the last packet */
	uint8_t prio;           /* 802.1p priority: VLAN PCP, else DSCP >> 3 */
	uint8_t has_requests, has_responses;
	uint64_t first_ns, last_ns;

	uint64_t packets, bytes; /* wire bytes of the frames */
	uint64_t payload_bytes;

	/* PSN analysis of this flow's own packets (requests, or READ responses). */
	uint64_t psn_gaps, missing_psns, retransmissions, gbn_episodes, out_of_order;
	uint32_t next_psn, high_psn; /* expected next, one past the highest seen */
	uint32_t read_slack;         /* PSNs a READ request may have consumed */
	uint32_t nak_psn;            /* PSN a sequence-error NAK asked to resend from */
	uint8_t nak_wait;
	uint8_t in_resend;           /* inside a go-back-N resend run */
	uint8_t psn_valid;
	uint32_t first_psn;
	uint64_t seen[16];           /* bit (psn % 1024): seen, for the 1024 PSNs below high_psn */

	/* Messages (new packets only; resends are not counted twice). */
	uint64_t messages, msg_incomplete, msg_orphans;
	uint64_t msgs_by_op[RW_MSG_OPS], bytes_by_op[RW_MSG_OPS];
	uint8_t msg_open;
	uint32_t msg_first_psn;
	uint64_t msg_bytes;
	/* The responder's view: messages are assembled from the in-order PSN
	 * stream only (IBA 9.7.5: a responder accepts the expected PSN). */
	uint8_t msg_psn_valid;
	uint32_t msg_psn;       /* next PSN the assembler takes */
	uint32_t msg_slack;     /* PSNs a READ's responses may have used */
	/* Requests that arrived ahead of a hole, kept (as metadata only) until
	 * the hole is filled or given up. */
#define RW_HOLD 64
	struct { uint32_t psn_op; uint32_t len; } hold[RW_HOLD];
	uint8_t nhold;

	/* Responses received for this flow's requests (filled on the request flow). */
	uint64_t acks, acked_psns;
	uint64_t naks[RW_NAKK_COUNT];
	uint32_t last_msn;
	uint8_t msn_valid;
	uint64_t msn_regressions;
	struct rw_hist ack_lat, read_lat, atomic_lat;

	/* Outstanding requests awaiting an ACK / READ response / atomic ACK. */
#define RW_PENDING 64
	struct rw_pending {
		uint32_t psn, npsn;  /* first PSN, PSNs covered (READ: response packets) */
		uint8_t kind;        /* 0 send/write, 1 read, 2 atomic, 0xFF answered */
		uint64_t ts, frame;
	} pend[RW_PENDING];
	uint32_t pend_head, pend_n; /* FIFO ring: oldest at pend_head */
	uint32_t pend_hint;     /* ring position of the last match, tried first */
	uint32_t pend_last_psn; /* PSN of the newest entry */
	uint8_t pend_unsorted;  /* an entry's PSN is below an older one's (a resend) */

	/* ECN of this flow's packets, indexed by the 2-bit codepoint. */
	uint64_t ecn[4];
	/* Recent CE-marked packets, to link CNPs to. */
#define RW_CE_RING 16
	struct { uint64_t ts, frame; } ce[RW_CE_RING];
	uint32_t ce_head, ce_n;
	uint64_t ce_last_ns;     /* time of the latest CE mark */
	/* CNPs that slow this flow (linked through the pairing or addresses). */
	uint64_t cnps;
	uint64_t cnp_last_ns, cnp_min_interval_ns;

	uint64_t icrc_bad, vcrc_bad;
	uint64_t pkts_while_paused;
};

struct rw_pfc_prio {
	uint64_t frames;        /* PFC frames with this class enabled */
	uint64_t xoff, xon;     /* pause (quanta > 0) and resume (quanta 0) */
	uint64_t paused_ns;     /* union of pause intervals */
	uint64_t storms;
	uint64_t longest_ns;    /* longest continuous pause */
	/* state */
	uint64_t until_ns;      /* paused until (0: not paused) */
	uint64_t run_start_ns;  /* start of the current continuous pause */
	uint8_t in_storm;
};

#define RW_PAUSE_ALL 8 /* index of 802.3x PAUSE (the whole link) */

struct rw_totals {
	uint64_t packets, bytes;
	uint64_t by_carrier[RW_CARRIER_COUNT];
	uint64_t icrc_ok, icrc_bad, vcrc_ok, vcrc_bad;
	uint64_t decode_errors, truncated;
	uint64_t untracked;     /* packets of flows beyond the table's capacity */
	uint64_t cnps_unlinked; /* CNPs with no CE-marked packet in the window */
	struct rw_pfc_prio pfc[RW_PFC_PRIORITIES + 1];
	uint64_t first_ns, last_ns;
};

/* Per-packet annotation. */
#define RW_N_NEW 0x0001        /* first time this PSN was seen on the flow */
#define RW_N_GAP 0x0002        /* PSNs were skipped before this one (gap_len) */
#define RW_N_RETRANS 0x0004    /* a PSN seen before: resent */
#define RW_N_GBN_START 0x0008  /* first packet of a go-back-N episode */
#define RW_N_OOO 0x0010        /* arrived after later PSNs, not seen before */
#define RW_N_MSG_DONE 0x0020   /* completes a message (msg_bytes) */
#define RW_N_MSG_BROKEN 0x0040 /* a message was left incomplete before this packet */
#define RW_N_ACK 0x0080        /* an ACK that covers ack_count requests up to ack_psn */
#define RW_N_NAK 0x0100        /* a NAK (nak_kind) for request PSN ack_psn */
#define RW_N_READ_MATCH 0x0200 /* a READ response matched to req_frame */
#define RW_N_ATOMIC_MATCH 0x0400
#define RW_N_CNP_LINKED 0x0800 /* a CNP linked to ce_count CE packets (first ce_frame) */
#define RW_N_CE 0x1000
#define RW_N_PAUSED 0x2000     /* sent while its priority was paused */
#define RW_N_PFC 0x4000        /* a PFC/PAUSE frame */
#define RW_N_MSN_REGRESS 0x8000
#define RW_N_ORPHAN 0x10000    /* a MIDDLE/LAST with no FIRST */

struct rw_note {
	int32_t flow;           /* flow index, -1 when not tracked */
	uint32_t flags;
	uint32_t expected_psn;
	uint32_t gap_len;
	uint64_t msg_bytes;
	uint32_t ack_psn, ack_count;
	uint8_t nak_kind;       /* enum rw_nak_kind */
	uint64_t latency_ns;    /* ACK / READ / atomic latency */
	uint64_t req_frame;     /* the request this response answers */
	uint32_t ce_count;
	uint64_t ce_frame;
	int32_t cnp_flow;       /* the flow a CNP slows (credited with it), -1 if none */
	uint64_t pause_ns[RW_PFC_PRIORITIES + 1]; /* PFC frames only: pause asked per priority */
};

struct rw_analyzer;

/* Bytes the caller must provide for a configuration (cfg may be NULL). */
size_t rw_analyzer_mem_size(const struct rw_analyze_cfg *cfg);
/* Prepares an analyzer in mem (aligned to 16 bytes, at least
 * rw_analyzer_mem_size bytes); returns NULL if mem is too small. */
struct rw_analyzer *rw_analyzer_init(void *mem, size_t size, const struct rw_analyze_cfg *cfg);
/* Feeds one packet with its capture time (ns since the epoch) and frame
 * number. note may be NULL. Packets must come in capture order. */
void rw_analyzer_packet(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts_ns,
			uint64_t frame, struct rw_note *note);
/* Ends the capture at ts_ns: open messages count as incomplete, running
 * pauses are closed. */
void rw_analyzer_finish(struct rw_analyzer *a, uint64_t ts_ns);

uint32_t rw_analyzer_flow_count(const struct rw_analyzer *a);
const struct rw_flow *rw_analyzer_flow(const struct rw_analyzer *a, uint32_t i);
const struct rw_totals *rw_analyzer_totals(const struct rw_analyzer *a);

#endif
