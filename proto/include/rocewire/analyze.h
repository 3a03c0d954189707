/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-QP analysis: fed one decoded packet at a time, keeps bounded state per
 * connection and answers per packet (struct rw_note) and per flow (struct
 * rw_flow). It never reads wire bytes, only struct rw_packet.
 *
 * A flow is one direction of traffic to one destination QP: (source
 * address, destination address, destination QPN) for RoCE, (SLID, DLID,
 * DQPN) for native IB. A reliable connection is two flows, paired by the
 * engine from what the responder echoes: an ACK, NAK, READ response or
 * atomic ACK names a PSN that the other direction sent, and a pair is made
 * only when exactly one unpaired flow of the reverse address pair sent that
 * PSN (struct rw_flow.pair_how says which evidence did it). The capture may
 * start or end anywhere: what the engine cannot know about packets before
 * the capture start is reported as such (rw_flow.unsynced_pkts,
 * first_mid_message, msg_cut_start), never guessed.
 *
 * When the same key starts a new conversation (a QP number reused: the PSN
 * restarts), the flow is closed and a new one opened (rw_flow.conversation).
 *
 * Memory: every block comes from cfg.alloc (calloc when NULL) and the total
 * stays under cfg.mem_limit: a flow costs a few hundred bytes and grows only
 * by what it needs (latency histograms past a few samples, the hold queue
 * once a hole opens, the CE ring once a CE mark arrives). Packets of flows
 * beyond the limit are counted in rw_totals.untracked / untracked_flows. */
#ifndef ROCEWIRE_ANALYZE_H
#define ROCEWIRE_ANALYZE_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/packet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 4.096 us x 2^14: the default retransmission timeout (rw_analyze_cfg.rto_ns) */
#define RW_RTO_DEFAULT_NS 67108864ull

struct rw_analyze_cfg {
	uint32_t max_flows;        /* flows tracked at most (0: as many as mem_limit allows) */
	size_t mem_limit;          /* bytes of engine state at most (0: 1 GiB) */
	double link_gbps;          /* for PFC/PAUSE quanta -> time (default 100) */
	uint64_t cnp_window_ns;    /* CE -> CNP link window (default 1 ms) */
	uint64_t storm_ns;         /* a priority paused longer than this is a storm (default 10 ms) */
	uint32_t psn_window;       /* PSNs remembered per flow to tell reorder from resend (fixed 1024) */
	uint64_t reuse_idle_ns;    /* a PSN restart after this much silence is a new conversation (default 1 ms) */
	uint8_t cnp_mode;          /* enum rw_cnp_mode: how the notification point paces CNPs (default per QP) */
	uint64_t cnp_min_ns;       /* its minimum time between two CNPs (default 4 us, NVIDIA's min_time_between_cnps) */
	uint64_t cnp_nak_ns;       /* a CNP this close to a NAK of the same flow is sent "with" it (default 10 us) */
	/* The requester's retransmission timeout: a sequence NAK not answered
	 * by a resend while new requests go on longer than this (or than the
	 * largest request -> resend time the flow itself shows) is ignored
	 * (RW_V_NAK_IGNORED). Default 67.108864 ms: the IBA's Local ACK
	 * Timeout, 4.096 us x 2^timeout, at timeout 14 (the rxe requester of
	 * samples/softroce/rc_write_loss resends after about that long). */
	uint64_t rto_ns;
	/* Where memory comes from: alloc returns zeroed memory or NULL. */
	void *(*alloc)(void *ctx, size_t size);
	void (*free)(void *ctx, void *p);
	void *alloc_ctx;
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

/* A latency distribution: the first RW_LAT_FEW samples are kept exactly
 * (most flows of a large capture see only a few), a histogram is allocated
 * when more come. */
#define RW_LAT_FEW 4
struct rw_lat {
	uint64_t count, max_ns, sum_ns;
	uint64_t few[RW_LAT_FEW];
	struct rw_hist *hist;
};
/* The q-quantile (nearest rank): exact while count <= RW_LAT_FEW (or when
 * no histogram could be allocated, from the samples kept), else as
 * rw_hist_quantile. */
uint64_t rw_lat_quantile(const struct rw_lat *l, double q);

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

/* How a pair was found: the first response that echoed a PSN only the
 * paired flow had sent. */
enum rw_pair_how {
	RW_PAIR_NONE = 0,
	RW_PAIR_ACK,        /* an ACK named the PSN of one of its requests */
	RW_PAIR_NAK,        /* a NAK named it */
	RW_PAIR_READ_RESP,  /* a READ response carried a PSN of the READ's (a MIDDLE or LAST: in its span) */
	RW_PAIR_ATOMIC_ACK, /* an atomic ACK carried the atomic request's PSN */
	RW_PAIR_CM,         /* the CM handshake (REQ, REP) named both QPs: pair_frame is the REP */
	RW_PAIR_COUNT
};
const char *rw_pair_how_key(enum rw_pair_how h); /* "ack", "nak", ... */

/* How a notification point paces its CNPs: at most one per cnp_min_ns per
 * QP (the CE-marked flow), per IP pair, or per destination IP. */
enum rw_cnp_mode { RW_CNP_PER_QP = 0, RW_CNP_PER_IP_PAIR, RW_CNP_PER_DEST_IP, RW_CNP_MODES };
const char *rw_cnp_mode_key(enum rw_cnp_mode m); /* "qp", "ip_pair", "dest_ip" */

/* Conformance checks (what Lumina's checkers verify, here from an ordinary
 * capture): go-back-N of responder and requester, and CNP pacing. */
enum rw_violation {
	RW_V_DUP_NAK = 0,      /* a second PSN-sequence NAK for the same hole before its resend */
	RW_V_NAK_WRONG_PSN,    /* a sequence NAK naming a PSN acknowledged already or never sent */
	RW_V_ACK_BACKWARDS,    /* an ACK naming a PSN below an earlier ACK's */
	RW_V_MSN_BACKWARDS,    /* an ACK whose MSN went backwards */
	RW_V_RESEND_WRONG_START, /* after a sequence NAK, the resend did not restart at the NAKed PSN */
	RW_V_READ_RESUME_WRONG, /* a READ re-issued at the wrong PSN, address or length */
	RW_V_CNP_TOO_OFTEN,    /* a CNP sooner than cnp_min_ns after the last one of its pacing key */
	RW_V_CE_NO_CNP,        /* a CE mark the pacing allowed a CNP for, with none within cnp_window_ns */
	/* a sequence NAK never answered (no resend of its PSN, no go-back, no
	 * ACK past it) while the requester sent new requests for longer than
	 * its retransmission timeout after it (frame: the NAK's; judged when
	 * the capture ends) */
	RW_V_NAK_IGNORED,
	RW_V_COUNT
};
const char *rw_violation_key(enum rw_violation v); /* "dup_nak", ... (JSON keys) */
const char *rw_violation_text(enum rw_violation v); /* a line for people */

#define RW_V_FRAMES 4
/* A flow's conformance verdicts and recovery latencies, allocated the first
 * time the flow has something to say (most flows never do). Counted on the
 * requester's flow. */
struct rw_conform {
	uint64_t count[RW_V_COUNT];
	uint64_t frames[RW_V_COUNT][RW_V_FRAMES]; /* the first few, in capture order */
	struct rw_lat nak_gen;   /* first out-of-sequence request -> its NAK */
	struct rw_lat nak_resp;  /* NAK -> the first resent packet */
	struct rw_lat retx;      /* first send of a PSN -> its resend */
	struct rw_lat timeout;   /* first send -> resend, for resends no NAK asked for */
	uint64_t resend_by_nak, resend_by_rnr, resend_by_timeout; /* go-back-N episodes by cause */
	/* go-backs a response implied (IBA 9.7.5.1.4): a READ or atomic
	 * re-issued once a later response or an ACK past it showed its
	 * response missing */
	uint64_t resend_by_implied;
	uint64_t cnp_with_nak;   /* CNPs sent with a NAK (within cnp_nak_ns on the same flow) */
	/* RW_V_NAK_IGNORED: for each NAK in frames[], the first new request
	 * sent later than the timeout after it, and the timeout it was judged
	 * by (cfg.rto_ns, or the flow's own larger request -> resend time) */
	uint64_t nak_ignored_req[RW_V_FRAMES];
	uint64_t nak_ignored_rto_ns;
	/* RW_V_RESEND_WRONG_START for go-backs seen starting past the NAKed
	 * PSN, held until the capture ends: they count only on a flow that
	 * showed no PSN gap to its end (a gap later shows loss before the
	 * capture point, which may have dropped the resends skipped) */
	uint64_t wrong_past_n;
	uint64_t wrong_past_frames[RW_V_FRAMES];
};

struct rw_flow_key {
	uint8_t family;     /* 4, 6 (RoCEv2 over IPv4/IPv6), 1 (RoCEv1 GIDs), 0 (native IB LIDs) */
	uint8_t src[16];    /* IPv4: first 4 bytes; IB: SLID in the first 2 */
	uint8_t dst[16];
	uint32_t dqpn;
};

#define RW_MSG_OPS 4 /* SEND, WRITE, READ (bytes read), ATOMIC */

/* The latest few PSNs something happened at, and when (a ring: the
 * oldest gives way). */
#define RW_RECENT 4
struct rw_recent {
	uint32_t psn[RW_RECENT];
	uint64_t ts[RW_RECENT];
	uint8_t next;
};

/* PSN state of one sequence of a flow: its requests, or the READ responses
 * it sends (another PSN space: the requester's of the other direction). */
#define RW_SEQ_GAPS 8
struct rw_seq {
	uint32_t next_psn, high_psn; /* expected next, one past the highest seen */
	uint32_t first_psn;          /* the first PSN this capture saw */
	uint32_t read_slack;         /* PSNs a READ request may have consumed */
	uint32_t next_slack;         /* PSNs past next_psn the latest request (a READ) may have used */
	uint32_t slack_psn, slack_n; /* the latest PSNs taken as a READ's without being seen */
	uint32_t nak_psn;            /* PSN a sequence-error NAK asked to resend from */
	uint8_t valid;
	uint8_t nak_wait;            /* that NAK's PSN is not acknowledged yet: the responder waits for it */
	uint8_t in_resend;           /* the latest packet was a resend (a go-back-N run is under way) */
	uint8_t resends_lost;        /* a resend run skipped PSNs: the network lost resends before the capture point */
	uint8_t synced;              /* the stream is known from here on (see unsynced_pkts) */
	uint8_t wide;                /* the stream has gone more than the window past first_psn */
	uint8_t recov_valid;         /* the sender went back (or was asked to): recov_high holds */
	uint8_t acked_valid;
	uint32_t recov_high;         /* high_psn when it last did: holes below it are refilled by resends */
	uint32_t acked_psn;          /* highest PSN the peer acknowledged */
	uint32_t heard_psn;          /* highest one in an answer the requester took (good ICRC) */
	uint8_t heard_valid;
	uint64_t last_ns;            /* time of its latest packet */
	uint64_t seen[16];           /* bit (psn % 1024): seen, for the 1024 PSNs below high_psn */
	struct {
		uint32_t psn, len;   /* its first missing PSN, how many */
		uint64_t ns;         /* when the packet past it came */
	} gap[RW_SEQ_GAPS];          /* the latest gaps (a ring), to age a late PSN */
	uint8_t gap_next, gap_n;
};

/* A message being assembled from FIRST/MIDDLE/LAST packets. */
struct rw_msg_state {
	uint8_t open;       /* a FIRST was taken, its LAST not yet */
	uint8_t seen_start; /* a message start was seen: orphans before it were cut by the capture start */
	uint8_t in_cut;     /* inside a message the capture started inside */
	uint8_t broken;     /* UC: the rest of a message a hole broke follows (the responder drops it) */
	uint8_t op;         /* the open (or broken) message's operation: 0 SEND, 1 WRITE, 2 READ */
	uint8_t end_valid;  /* UC WRITE: its RETH length and the MTU give its last PSN */
	uint8_t pre;        /* READ: answered before the capture (RD_PRE_*), its requester may have taken it then */
	uint8_t restarted;  /* READ: answered again from its first PSN while it held up to next_psn */
	uint32_t end_psn;
	uint32_t next_psn;  /* READ responses: the PSN the open READ (or the one in_cut) takes next */
	uint32_t first_psn; /* PSN of the open message's FIRST packet */
	uint32_t exp_psn;   /* READ, restarted: the PSN its answer again must bring next */
	uint64_t bytes;
	uint64_t first_frame; /* frame of the open message's FIRST packet */
};

struct rw_pend_ring;
struct rw_hold_queue;
struct rw_done_ring;
struct rw_ce_ring;

struct rw_flow {
	struct rw_flow_key key;
	int32_t index;          /* this flow's id (rw_analyzer_flow(a, index)) */
	int32_t peer;           /* index of the paired flow, -1 if none */
	uint8_t pair_how;       /* enum rw_pair_how */
	uint32_t pair_psn;      /* the echoed PSN that paired it */
	uint64_t pair_frame;    /* the response that paired it */
	uint32_t pair_ambiguous; /* responses whose PSN several unpaired flows had sent */
	uint32_t unpaired;       /* pairings undone: a response acknowledged a PSN the peer never sent */
	uint8_t twin_valid;     /* (request flow) two response flows answered twin_psn, the PSN */
	uint32_t twin_psn;      /* that paired it: responses naming it pair with it no more */
	uint8_t solo_valid;     /* (response flow, unpaired) the last PSN it answered as an atomic */
	uint32_t solo_psn;      /* or a READ: no request flow that sent it inside a message is its peer */
	/* The latest READ FIRST (ONLY) responses it carried before it was
	 * paired, and when: a READ its peer sent after one came is not
	 * answered by it. */
	struct rw_recent upf;
	int32_t cm;             /* index of the CM handshake that opened it (rw_analyzer_cm), -1 */
	uint8_t cm_psn_valid;   /* the handshake stated the PSN its requests start at: */
	uint32_t cm_psn;        /* the stream is known from the first packet */
	uint32_t conversation;  /* 1, then 2, 3, ... each time the key's QP number is reused */
	int32_t prev_conv;      /* index of this key's previous conversation, -1 */
	uint8_t closed;         /* its conversation ended (the QP was reused); the key's next packet opens a new flow */
	uint8_t transport;      /* enum rw_transport of the last packet other than a CNP (CNP: only CNPs) */
	uint8_t prio;           /* 802.1p priority: VLAN PCP, else DSCP >> 3 */
	uint8_t has_requests, has_responses;
	uint8_t first_mid_message; /* its first packet was a MIDDLE or LAST: the capture started inside a message */
	uint64_t first_ns, last_ns;

	uint64_t packets, bytes; /* wire bytes of the frames */
	uint64_t payload_bytes;

	/* PSN analysis of this flow's own packets (requests and READ responses). */
	uint64_t psn_gaps, missing_psns, retransmissions, gbn_episodes, out_of_order;
	/* New PSNs seen before the flow's stream was known (no response yet
	 * acknowledged a PSN this capture saw): they may be resends of packets
	 * sent before the capture started, so they are not classified. */
	uint64_t unsynced_pkts;
	/* Resends of PSNs below the first one this capture saw (the original
	 * went by before the capture started). Counted in retransmissions. */
	uint64_t precapture_resends;
	struct rw_seq req;
	struct rw_seq *rsp;     /* READ responses sent on this flow (allocated on the first) */

	/* Messages (new packets only; resends are not counted twice). */
	uint64_t messages, msg_incomplete, msg_orphans;
	uint64_t msg_cut_start; /* incomplete: the capture started inside it */
	uint64_t msg_cut_end;   /* incomplete: the capture ended inside it */
	uint64_t msgs_by_op[RW_MSG_OPS], bytes_by_op[RW_MSG_OPS];
	struct rw_msg_state msg;  /* the message being assembled from this flow's requests */
	/* The responder's view: messages are assembled from the in-order PSN
	 * stream only (IBA 9.7.5: a responder accepts the expected PSN). */
	uint8_t msg_psn_valid;
	uint32_t msg_psn;       /* next PSN the assembler takes */
	uint32_t msg_slack;     /* PSNs a READ's responses may have used */
	uint32_t msg_slack_len; /* that READ's length (its span once the MTU is known) */
	/* Messages completed from this flow's requests that the responder
	 * has not acknowledged yet: a later RNR or sequence NAK below one
	 * takes it back (allocated on the first). */
	struct rw_done_ring *done;
	/* The sequence and RNR NAKs unpaired response flows of the reverse
	 * address pair carried, naming a PSN this flow may have sent (the
	 * latest RW_MSG_NAKS): when this flow goes back to one's PSN, the
	 * responder it answered for was this flow's, and refused it; the
	 * other flows it was offered to forget it (one NAK, one go-back).
	 * msg_nak_src: the response flow that carried each. */
#define RW_MSG_NAKS 4
	uint8_t msg_nak_n;
	uint32_t msg_nak_psn[RW_MSG_NAKS];
	int32_t msg_nak_src[RW_MSG_NAKS];
	uint32_t msg_start_psn; /* the first PSN the assembler took (or went back to) */
	/* Resends below it (their first copies came before the capture):
	 * the last one's PSN, whether it was counted (on a responder's flow:
	 * the READs answered again below its first response PSN, the last
	 * one counted), and the latest message cut by the capture start: its
	 * first PSN in the window. */
	uint8_t msg_pre_valid, msg_cut_valid;
	uint32_t msg_pre_psn, msg_cut_psn;
	/* that message's LAST, once the capture showed it (msg_cut_ended) */
	uint8_t msg_cut_ended;
	uint32_t msg_cut_last;
	/* The lowest such resend ending a message (a LAST, ONLY, atomic)
	 * that came with a bad ICRC, below msg_pre_psn since: not counted
	 * when the later resends passed it, counted at its next copy. */
	uint8_t msg_pre_skip_valid;
	uint32_t msg_pre_skip_psn;
	/* A resend below the window's first PSN began or went on with a
	 * message (FIRST, MIDDLE) whose LAST the capture has not shown yet;
	 * 2 when the capture showed that message's FIRST. */
	uint8_t msg_pre_open;
	/* The PSNs (mod 1024) of the messages counted cut by the capture
	 * start at a resend below the window's first PSN: should a NAK take
	 * the assembler back there and a resend complete one, it is a message
	 * instead (allocated on the first). */
	uint64_t *msg_pre_cut;
	/* By PSN (mod 1024), allocated at the first: on a request flow, a
	 * READ was sent there (until a new request there); on a response
	 * flow, the READ there was seen answered whole (until its requester
	 * sends a new one there). */
	uint64_t *rd_asked, *rd_answered;
	/* on a request flow, by PSN: the READ there came first after its
	 * responder had acknowledged past it (allocated with rd_asked) */
	uint64_t *rd_late;
	/* on a request flow, by PSN: the requester dropped the READ response
	 * there (it came past a gap in its READ's answer, or with a bad ICRC),
	 * until one there is taken in sequence or a new READ covers it
	 * (allocated with rd_asked) */
	uint64_t *rd_dropped;
	/* That message, when a refusal sent the sender back before it: it
	 * stays cut by the capture start unless its resend completes it. */
	uint8_t msg_cut_back;
	/* A message a NAK refused while it was open (its LAST not seen), by
	 * its first PSN: cut by the capture end unless its resend completes
	 * it (or is open at the end, counted so). */
	uint8_t msg_open_back;
	uint32_t msg_open_back_psn;
	uint32_t msg_cut_back_psn;
	/* Messages a NAK took back that no resend has completed again yet,
	 * the first PSN of the lowest and the last PSN of the highest: cut by
	 * the capture end if it ends first. */
	uint32_t msg_back_n, msg_back_lo, msg_back_psn;
	struct rw_hold_queue *hold; /* requests held ahead of a hole (allocated on the first hole) */
	struct rw_msg_state rmsg; /* the READ response being assembled on this (the responder's) flow */
	uint8_t rhi_valid;
	uint32_t rhi_psn;         /* the highest READ response PSN the requester took */
	/* The responder's own account on its response flow: the highest PSN
	 * an AETH named and the highest MSN a response the requester heard
	 * carried (a READ answered again carries no new MSN). */
	uint8_t rack_valid, rmsn_valid;
	uint32_t rack_psn, rmsn;
	uint64_t rack_ns;         /* when an ACK first named rack_psn */
#define RW_RAGAIN 4
	/* the first PSNs of the last READs answered again counted cut by the capture start */
	uint32_t ragain[RW_RAGAIN];
	uint8_t ragain_n, ragain_next;
	/* The READ the capture started inside (its responses' rest): its
	 * LAST's PSN once seen, then the FIRST its answer again from below
	 * (a re-issue of it whole) showed: later answers from there are it;
	 * rcut_lo: the first PSN of it the capture saw. */
	uint8_t rcut_state;       /* 0 none, 1 rcut_last known, 2 rcut_first too */
	uint8_t rcut_lo_valid;
	uint32_t rcut_last, rcut_first, rcut_lo;
	/* READs left open by a lost response when the next READ's came,
	 * waiting for their resume (open: valid). As many may wait as the
	 * requester has READs outstanding (its initiator depth: 16 on most
	 * NICs, up to 128 on rxe): allocated on the first, grown on demand
	 * up to RW_RWAIT_MAX, past which the oldest is given up. */
#define RW_RWAIT_MAX 128
	struct rw_msg_state *rwait;
	uint8_t rwait_cap;

	/* Responses received for this flow's requests (filled on the request
	 * flow; an unpaired response flow keeps them until it is paired). */
	uint64_t acks, acked_psns;
	uint64_t naks[RW_NAKK_COUNT];
	uint32_t last_msn;
	uint8_t msn_valid;
	uint64_t msn_regressions;
	struct rw_lat ack_lat, read_lat, atomic_lat;
	struct rw_pend_ring *pend; /* outstanding requests (allocated on the first) */

	/* ECN of this flow's packets, indexed by the 2-bit codepoint. */
	uint64_t ecn[4];
	struct rw_ce_ring *ce;   /* CE-marked packets no CNP answered yet, to link CNPs to */
	uint64_t ce_last_ns;     /* time of the latest CE mark */
	/* CNPs that slow this flow (linked through the pairing or addresses). */
	uint64_t cnps;
	uint64_t cnp_last_ns, cnp_min_interval_ns;

	uint64_t icrc_bad, vcrc_bad;
	uint64_t pkts_while_paused; /* sent while a PFC/PAUSE sender it travelled towards paused its class */

	/* Conformance (NULL until the flow has a verdict or a recovery
	 * latency), and the little state its checks keep. */
	struct rw_conform *conf;
	struct {
		uint8_t ack_valid, nak_await, nak_cause;
		uint8_t nak_left; /* the last go-back was a READ gap's below the NAKed PSN: the next answers the NAK */
		uint32_t last_ack_psn;
		uint32_t nak_psn;     /* the last NAK's PSN, and when: a resend should follow */
		uint64_t nak_ts;      /* time of the last NAK (any kind) */
		uint64_t last_gbn_ts; /* time of the last go-back-N start */
		uint8_t last_gbn_cause; /* how it was counted (analyze_conform.c) */
		/* The latest NAK this flow carried while unpaired, that the
		 * requester got (a good ICRC): the go-back it asked for is
		 * credited to it once the pairing names the requester. */
		uint8_t unp_nak_valid, unp_nak_kind;
		uint32_t unp_nak_psn;
		uint64_t unp_nak_ts;
		/* The latest NAKs it carried unpaired (heard), and on a
		 * request flow its latest go-backs and how each was counted:
		 * at the pairing, a go-back a NAK came before (since the one
		 * before it) is the NAK's. */
#define RW_CONF_HIST 8
		uint8_t unp_hn, gbn_hn;
		uint8_t unp_hkind[RW_CONF_HIST], gbn_hcause[RW_CONF_HIST];
		uint64_t unp_hts[RW_CONF_HIST], gbn_hts[RW_CONF_HIST];
		uint32_t unp_hpsn[RW_CONF_HIST]; /* the PSN each NAK named */
		uint64_t gbn_hprev_ts; /* the go-back before the oldest kept */
		/* One past the highest PSN a good response answered (for an
		 * ACK, READ response, atomic ACK: its PSN; for a NAK: those
		 * before its PSN), and when it last reached that: a READ or
		 * atomic re-issued after a response past it was implied. */
		uint8_t ans_valid;
		uint32_t ans_end;
		uint64_t ans_ts;
		/* The first whole answer after the latest go-back, and how far
		 * it answered: a READ or atomic that go-back sent again, shown
		 * unanswered again by it. */
		uint32_t ans_gbn_end;
		uint64_t ans_gbn_ts;
		/* The latest times ans_end went forward, and where to: when a
		 * response first showed a PSN's answer missing. */
#define RW_ANS_HIST 4
		uint8_t ans_hn, ans_hnext;
		uint32_t ans_hend[RW_ANS_HIST], ans_first_end;
		uint64_t ans_hts[RW_ANS_HIST], ans_first_ts;
		/* A READ response that came after one of its READ's was
		 * missing: the first missing PSN, and when. */
		uint8_t rgap_valid;
		uint32_t rgap_psn;
		uint64_t rgap_ts;
		/* A READ or atomic an ACK or NAK past it left unanswered (its
		 * answer lost: the requester re-issues it), the lowest. */
		uint8_t unans_valid;
		uint32_t unans_psn;
		/* The latest READ an ACK or NAK past it left unanswered, whose
		 * answer may come after all (a responder may answer a READ
		 * sent again after that response): its first PSN, its
		 * responses' count and how many came in a row, as its entry
		 * had them, for the gap its answer may show. */
		uint8_t late_valid;
		uint32_t late_psn, late_npsn, late_got;
		uint32_t gbn_from, gbn_high; /* the last go-back: its first PSN, the highest sent before it */
		/* READs and atomics sent again whose answer has not come
		 * since (the newest 4): re-issuing one again waits for that
		 * answer or the timer, whatever later responses show. */
		uint32_t await_psn[4];
		uint8_t await_n;
		/* The READs and atomics answered last (their first PSN, when;
		 * the newest RW_RECENT): one answered since the go-back that sent it
		 * again is not shown unanswered by a later response. */
		struct rw_recent rda;
		/* The READs whose answer the requester got whole, in
		 * sequence (their first PSN, when; the newest RW_RECENT): a
		 * later response shows nothing of them missing. */
		struct rw_recent rdw;
		uint64_t ooo_ts;      /* the first request after a gap not yet NAKed */
		uint32_t read_mtu;    /* the QP's path MTU, from a FIRST or MIDDLE of either direction */
		/* The path MTU at least, while read_mtu is unknown: the
		 * largest payload of either direction, rounded up to an IBA
		 * MTU (256 to 4096; no packet carries more than the MTU). */
		uint32_t mtu_floor;
		uint64_t cnp_ts;      /* the last CNP on this flow */
		uint8_t rsp_msn_valid;
		uint32_t rsp_msn;     /* MSN of this flow's last AETH */
		/* The latest sequence NAK the requester got that nothing has
		 * answered yet (RW_V_NAK_IGNORED): its PSN, time and frame,
		 * the first new request after it past the timeout as known
		 * when it came (frame 0: none yet), and whether the capture's
		 * end judged it. Unpaired: the latest such NAK's frame. */
		uint8_t nign_valid, nign_judged;
		uint32_t nign_psn;
		uint64_t nign_ts, nign_frame;
		uint64_t nign_req_ts, nign_req_frame;
		uint64_t unp_nak_frame;
	} cs;
	int32_t addr_pair;      /* internal: its address pair */
	int32_t next_req_in_pair; /* internal: the pair's next request flow, -1 */
};

struct rw_pfc_prio {
	uint64_t frames;        /* PFC frames with this class enabled */
	uint64_t xoff, xon;     /* pause (quanta > 0) and resume (quanta 0) */
	uint64_t paused_ns;     /* union of pause intervals (of every sender) */
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
	uint64_t untracked;       /* packets of flows beyond max_flows / mem_limit: not analysed */
	uint64_t untracked_flows; /* those flows (distinct keys) */
	uint64_t conversations_reused; /* flows closed because their QP number was reused */
	uint64_t cm_msgs;        /* CM MADs seen */
	uint64_t cm_unmatched;   /* CM messages of no handshake the capture saw begin */
	uint64_t cm_dropped;     /* handshakes not kept: the memory limit */
	uint64_t mem_bytes;       /* engine state in use */
	uint64_t cnps_unlinked; /* CNPs with no CE mark left to answer in the window (one mark answers one CNP) */
	uint64_t cnp_too_often[RW_CNP_MODES]; /* CNPs sooner than cnp_min_ns after the last of their key, per mode */
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
#define RW_N_CNP_LINKED 0x0800 /* a CNP answering the CE packet ce_frame (ce_count 1: one mark, one CNP) */
#define RW_N_CE 0x1000
#define RW_N_PAUSED 0x2000     /* sent while its priority was paused */
#define RW_N_PFC 0x4000        /* a PFC/PAUSE frame */
#define RW_N_MSN_REGRESS 0x8000
#define RW_N_ORPHAN 0x10000    /* a MIDDLE/LAST with no FIRST (after the flow's first message start) */
#define RW_N_UNSYNCED 0x20000  /* a new PSN before the stream was known: may resend a pre-capture packet */
#define RW_N_PRECAPTURE 0x40000 /* resends a PSN below the first this capture saw */
#define RW_N_CUT_START 0x80000 /* MIDDLE/LAST of a message the capture started inside */
#define RW_N_PAIRED 0x100000   /* this response paired its flow (pair_how on the flow) */
#define RW_N_NEW_CONV 0x200000 /* the key's QP number was reused: a new conversation starts here */

struct rw_note {
	int32_t flow;           /* flow index, -1 when not tracked */
	uint32_t flags;
	uint32_t expected_psn;
	uint32_t gap_len;
	uint64_t msg_bytes;
	uint64_t msg_first_frame; /* RW_N_MSG_DONE: the frame of that message's first packet */
	uint32_t ack_psn, ack_count;
	uint8_t nak_kind;       /* enum rw_nak_kind */
	uint64_t latency_ns;    /* ACK / READ / atomic latency */
	uint64_t req_frame;     /* the request this response answers */
	uint32_t ce_count;
	uint64_t ce_frame;
	int32_t cnp_flow;       /* the flow a CNP slows (credited with it), -1 if none */
	uint64_t pause_ns[RW_PFC_PRIORITIES + 1]; /* PFC frames only: pause asked per priority */
};

/* A connection set up by Communication Management (IBA 12), as the capture
 * saw its MADs: the active side sent the REQ, the passive side the REP. */
enum rw_cm_state {
	RW_CMS_REQ = 0,  /* REQ seen, no answer yet */
	RW_CMS_REP,      /* REP seen: both QPs known, the flows paired */
	RW_CMS_RTU,      /* RTU seen: established */
	RW_CMS_REJ,      /* rejected */
	RW_CMS_DREQ,     /* disconnection asked */
	RW_CMS_DREP,     /* disconnected: the flows are closed */
	RW_CMS_COUNT
};
const char *rw_cm_state_key(enum rw_cm_state s); /* "req_sent", "rep_sent", ... */

struct rw_cm_conn {
	uint8_t family;           /* as struct rw_flow_key */
	uint8_t active[16], passive[16]; /* the REQ's source and destination */
	uint8_t state;            /* enum rw_cm_state */
	uint8_t transport;        /* REQ: 0 RC, 1 UC, 2 RD, 3 XRC */
	uint8_t path_mtu;         /* REQ: 1 (256) .. 5 (4096) */
	uint8_t rej_msg;          /* REJ: which message it rejected (0 REQ, 1 REP, 2 other) */
	uint16_t rej_reason;
	uint32_t active_comm_id, passive_comm_id;
	uint32_t active_qpn, passive_qpn;   /* REQ's and REP's local QPN */
	/* REQ's and REP's starting PSN: each is the PSN its sender expects
	 * to receive, so active_psn starts the passive side's requests and
	 * passive_psn the active side's */
	uint32_t active_psn, passive_psn;
	uint32_t reqs, reps, rtus, dreqs, dreps, mras, rejs; /* messages, resends included */
	uint8_t mra_timeout;      /* the latest MRA's service timeout (4.096 us * 2^t) */
	uint64_t req_frame, rep_frame, rtu_frame, rej_frame, dreq_frame, drep_frame;
	uint64_t req_ns, rep_ns, rtu_ns, dreq_ns, drep_ns;
	uint64_t mra_ns;          /* the first MRA */
	int32_t flow_active, flow_passive; /* the flows it paired (active -> passive first), -1 */
};

struct rw_analyzer;

/* The flow a packet belongs to, as the engine keys it (its source and
 * destination address and destination QP): 1, or 0 when the packet has no
 * transport addresses (not RoCE or IB). For tallies by address that must
 * agree with the engine's flows. */
int rw_flow_key_of(const struct rw_packet *p, struct rw_flow_key *k);

/* A new analyzer (cfg may be NULL: defaults); NULL if no memory. */
struct rw_analyzer *rw_analyzer_new(const struct rw_analyze_cfg *cfg);
/* Gives back every block the analyzer took. */
void rw_analyzer_free(struct rw_analyzer *a);
/* Feeds one packet with its capture time (ns since the epoch) and frame
 * number. note may be NULL. Packets must come in capture order. */
void rw_analyzer_packet(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts_ns,
			uint64_t frame, struct rw_note *note);
/* Ends the capture at ts_ns: open messages count as cut by the capture end,
 * running pauses are closed. */
void rw_analyzer_finish(struct rw_analyzer *a, uint64_t ts_ns);

uint32_t rw_analyzer_flow_count(const struct rw_analyzer *a);
const struct rw_flow *rw_analyzer_flow(const struct rw_analyzer *a, uint32_t i);
const struct rw_totals *rw_analyzer_totals(const struct rw_analyzer *a);
/* The retransmission timeout flow i is judged by: cfg.rto_ns, or the
 * largest time from a request's first send to its resend the flow showed
 * so far when that is larger (a slower timer). */
uint64_t rw_analyzer_rto(const struct rw_analyzer *a, uint32_t i);
/* Whether request flow i has a sequence NAK nobody answered (see
 * RW_V_NAK_IGNORED) as far as the capture went: 1 with the NAK's frame and
 * the first new request sent later than rw_analyzer_rto() after it; 0 if
 * none. Before rw_analyzer_finish it says what the end would judge now (a
 * dissector that shows the verdict on the NAK's frame on a later pass). */
int rw_analyzer_nak_ignored(const struct rw_analyzer *a, uint32_t i, uint64_t *nak_frame,
			    uint64_t *req_frame);
/* The CM handshakes, in the order their REQ (or first message) came. */
uint32_t rw_analyzer_cm_count(const struct rw_analyzer *a);
const struct rw_cm_conn *rw_analyzer_cm(const struct rw_analyzer *a, uint32_t i);

#ifdef __cplusplus
}
#endif

#endif
