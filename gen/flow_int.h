/* SPDX-License-Identifier: BSD-3-Clause */
/* The flow model's private state, shared by flow.c (clock, API),
 * flow_req.c (requester), flow_resp.c (responder), flow_fault.c (faults)
 * and flow_frame.c (frame descriptions).
 *
 * How the two ends meet without a queue of packets in flight: a request is
 * handed to the responder the moment the requester emits it, and whatever
 * the responder owes for it (an ACK, a NAK, READ responses, an atomic ACK)
 * becomes a job stamped "ready at emission + link delay". Jobs live in one
 * bounded ring per QP from that moment until the requester has received
 * them (emission + link delay again), so the same ring is the responder's
 * send queue and the responses in flight. The requester sends nothing while
 * the ring is full: this is the window a real NIC's send queue imposes, and
 * it is what bounds the memory per QP. The responder's state only ever
 * depends on the order of requests, which the link keeps, so handling a
 * request early changes nothing but when its effects are stamped. */
#ifndef RWGEN_FLOW_INT_H
#define RWGEN_FLOW_INT_H

#include <stdint.h>
#include "flow.h"
#include "rocewire/bth.h"
#include "rocewire/eth.h"
#include "rocewire/opcode.h"

#define GEN_NEVER UINT64_MAX
#define GEN_ATOMIC_SLOTS 8      /* 64-bit words the atomics of a flow cycle through */
#define GEN_WIRE_WINDOW 256     /* messages in flight per QP waiting for a real responder */
#define GEN_TXHIST 8            /* go-back-N episodes remembered for transmission numbers */
#define GEN_BAD_RKEY_XOR 0x5A5A5A5Au /* what a bad_rkey fault does to the R_Key */
#define GEN_CC_WINDOW 512     /* requests in flight per RC QP through the simulated switch */
#define GEN_WIRE_EXTRA 24       /* preamble + SFD + inter-frame gap (20) and FCS (4) */

/* Message positions, the index of the opcode tables. */
enum { POS_FIRST = 0, POS_MIDDLE, POS_LAST, POS_ONLY };

/* What the responder owes the requester. */
enum job_kind { JOB_ACK = 0, JOB_NAK_SEQ, JOB_NAK_RNR, JOB_NAK_ACCESS, JOB_READ, JOB_ATOMIC };

#define JOB_LOST 0x1     /* its (only) packet was dropped or corrupted */
#define JOB_GAP 0x2      /* READ: a response was lost and a later one delivered */
#define JOB_HANDLED 0x4  /* READ: the requester acted on the gap already */
#define JOB_TAIL 0x8     /* READ: a response was lost (gap_off says which first) */
#define JOB_DUP 0x10     /* READ, atomic: the answer to a duplicate request */

struct gen_job {
	uint64_t ready_ns;   /* the request's arrival: the earliest the answer can leave */
	uint64_t t_ns;       /* emission of its last packet, or of the first one after a gap */
	uint64_t val;        /* READ: remote address of the first response; atomic: orig */
	uint32_t psn;
	uint32_t len;        /* READ: bytes */
	uint32_t npkts, sent;
	uint32_t msn;
	uint32_t gap_off;    /* READ: offset of the first lost response */
	uint8_t kind;
	uint8_t flags;       /* JOB_* */
	uint32_t tr_episode; /* ground truth, JOB_DUP: the requester's episode that sent the duplicate */
	uint64_t tr_id;      /* ground truth: the record of its last packet, not yet settled (0: none) */
};

/* A message the requester has started and not yet seen completed. */
struct gen_wqe {
	uint64_t va;
	uint64_t t0;         /* its first packet left (fct output) */
	uint64_t orig;       /* atomics: what the responder returned, for duplicate replay */
	uint32_t psn;        /* first PSN (a resumed READ: the first missing one) */
	uint32_t npsn;       /* PSNs it occupies (READ: its responses) */
	uint32_t len;
	uint32_t seq;        /* the message's number on its QP (immediate: sequence) */
	uint8_t op;          /* enum gen_op */
	uint8_t done;        /* READ/atomic: every response received */
	uint8_t executed;    /* atomics: orig is valid */
	uint8_t reissued;    /* READ/atomic: sent again since its last answer */
};

struct gen_txhist {
	uint32_t start[GEN_TXHIST], end[GEN_TXHIST];
	uint8_t n;
};

#define QF_FAILED 0x1
#define QF_REQ_DONE 0x2   /* no more messages will start */
#define QF_RSP_ERROR 0x4  /* the responder went to the error state */
#define QF_NAK_SENT 0x8   /* a sequence/RNR NAK for the current hole is out */
#define QF_GONE 0x10      /* idle for good: its key stays GEN_NEVER */
#define QF_CM_WAIT 0x20   /* the CM handshake is not over: the requester sends no data */

/* The fields the steady state touches per packet come first: one or two
 * cache lines per QP. */
struct gen_qp {
	uint32_t flow, qp, lf;    /* scenario flow, QP index in it, local flow */
	uint32_t rd_next;         /* wire_acks: the READ response PSN expected next (bit 31: none) */
	uint64_t now;             /* time of its latest event: nothing of it happens earlier */
	uint32_t flags;           /* QF_* */
	uint32_t kepoch;          /* m->epoch when its clock key was computed */
	uint8_t kwhat;            /* the action its key is for (enum in flow.c) */

	/* requester */
	uint8_t retries_left, rnr_left;
	uint8_t next_op;          /* the next message, chosen ahead so limits can wait on it */
	uint32_t next_len;
	uint64_t rng;
	uint64_t next_tx_ns;
	double tx_frac;           /* sub-ns remainder of the pacing clock */
	double tx_gap;            /* the gap after a frame of tx_len bytes (0: not known) */
	uint32_t tx_len;
	uint32_t next_psn;        /* first PSN of the next new message */
	uint32_t snd_max;         /* one past the highest PSN sent */
	uint32_t una;             /* oldest PSN not acknowledged */
	uint32_t cur, cur_pkt;    /* next packet to send: WQE (from wq_head) and packet in it */
	uint32_t wq_head, wq_n;
	uint32_t jq_head, jq_n, jq_emit; /* jq_emit: jobs fully emitted, from jq_head */
	uint32_t since_ackreq;
	uint64_t rto_ns, rnr_ns;  /* timers (0: off) */
	uint64_t msgs_created;
	uint64_t va_off;

	uint32_t in_net;          /* requests in the simulated switch (not yet at the responder) */
	uint64_t cc_next;         /* its reaction point's next timer (GEN_NEVER: none) */
	uint64_t frng;            /* fault probabilities: apart, so faults do not change traffic */
	double rate_bps;          /* gen_model_set_qp_rate(); 0: the flow's share */
	uint32_t atomic_n;
	uint32_t rd_out;          /* READ/atomic requests without their responses */
	struct gen_txhist req_hist;

	/* responder */
	uint32_t epsn, msn;
	uint32_t rsp_max;         /* one past the highest READ response PSN sent */
	uint32_t rsp_len;         /* the frame length rsp_gap is for */
	uint64_t rsp_next_ns;
	double rsp_frac;
	double rsp_gap;
	struct gen_txhist rsp_hist;

	/* ground truth (flow_truth.c), kept on the paths that go back */
	uint8_t tr_cause;         /* why the requester last went back (enum gen_resend_cause) */
	uint8_t tr_uc_ok;         /* UC: every packet of the message under way reached the receiver */
	uint32_t tr_episode;      /* go-back-N episodes of the requester */

	/* the connection's CM messages (flow_cm.c) */
	uint64_t cm_ns;           /* when the next one leaves (GEN_NEVER: none due) */
	uint8_t cm_state;         /* enum gen_cm_state */
	uint8_t cm_sends;         /* a real responder: sends of the REQ or DREQ awaiting its answer */
	uint32_t cm_peer_id;      /* a real responder: its comm ID and QPN from its REP (0: none) */
	uint32_t cm_peer_qpn;
};

struct gen_lflow {
	const struct gen_flow *f;
	uint32_t index;           /* in the scenario */
	uint32_t first_qp;        /* its QPs in m->qps */
	uint32_t cap;             /* job and WQE ring size per QP (power of two) */
	double rate_bps;          /* per QP */
	double pps;               /* per QP, when the rate is in packets */
	uint32_t wsum;            /* sum of usable op weights */
	uint32_t weight[GEN_OP_COUNT];
	uint8_t credit_code;      /* AETH credit code the responder advertises */
	uint8_t opc[GEN_OP_COUNT][4]; /* request opcode by op and position */
	uint8_t rsp_read[4], rsp_ack, rsp_atomic;
	uint16_t base_len[32];    /* frame bytes besides payload and pad, by opcode & 31 */
	uint64_t mem[GEN_ATOMIC_SLOTS]; /* the responder's memory under the atomics */
	uint64_t atomic_base;
	uint32_t nslots;
	/* Derived once, for the per-packet path. */
	uint32_t mtu;
	uint8_t mtu_shift;        /* log2(mtu): IBA MTUs are powers of two */
	uint8_t responder;        /* RC with the responder modelled */
	uint8_t wire_acks;        /* RC, the responder real (external) and the loop closed: the
				   * requester waits for the ACKs, NAKs and responses its port
				   * brings (gen_model_rx_response) */
	uint8_t acks;             /* responder || wire_acks: messages complete when answered */
	uint8_t src_prio, dst_prio; /* pause classes of the two ends */
	uint8_t faulty;           /* some fault of the scenario may hit this flow */
	uint8_t only_op;          /* the one usable op, or 0xFF when several */
	uint8_t no_draw;          /* one op, one size: the message stream draws nothing */
	uint8_t simple;           /* UC or UD, no fault: a one-packet message is sent and done */
	uint8_t cc;               /* its requests pass the simulated switch (flow_cc.c) */
	uint8_t rp;               /* its requester QPs run DCQCN (simulated or closed loop) */
	uint16_t cnp_len;         /* frame bytes of a CNP */
	uint16_t cm_len[2];       /* frame bytes of a CM message: [0] requester's, [1] responder's */
	uint16_t opc_hdrs[GEN_OP_COUNT][4]; /* rw_opcode(opc[op][pos])->hdrs */
};

struct gen_hent {
	uint64_t key;             /* the QP's next event time */
	uint32_t qi;
	uint32_t unused;
};

/* QPN -> local QP index, for what the port brings in the closed loop:
 * open addressing, each entry qpn << 32 | (index + 1), 0 empty. */
struct gen_qpn_map {
	uint64_t *e;
	uint32_t mask;
};

struct gen_fault_state {
	uint64_t matched, applied;
};

struct gen_model {
	const struct gen_scenario *sc;
	uint32_t shard, nshards;
	uint32_t nlf, nqp;
	struct gen_lflow *lf;
	struct gen_qp *qps;
	struct gen_job *jobs;     /* rings, lf->cap per QP, at qp_ring_base[] */
	struct gen_wqe *wqes;
	uint64_t *ring_base;      /* per QP: first slot in jobs / wqes */
	struct gen_hent *tree;    /* the clock: a tournament tree, 2 * tsize nodes */
	uint32_t tsize;           /* leaves: a power of two, at least nqp */
	uint8_t over;             /* nothing can happen any more */
	uint32_t epoch;           /* bumped when a pause or the drain may change any key */
	struct gen_flow_stats *stats; /* per scenario flow */
	struct gen_fault_state *fst;
	uint64_t pause_until[8];
	uint64_t emitted, limit;  /* packets of this shard; limit 0: none */
	uint8_t draining;         /* the duration or packet limit passed: no new messages,
				     the ones under way finish (a capture of whole conversations) */
	struct gen_ccm *cc;       /* simulated congestion (flow_cc.c); NULL: none */
	uint64_t cc_next_t;       /* gen_cc_next(), kept by flow_cc.c after each call that
				   * can change it: read on every step of the clock */
	uint64_t cc_pause[8];     /* the switch's PFC on its senders, per class */
	struct gen_ls *ls;        /* the lockstep stream (flow_lockstep.c); NULL: the clock */
	struct gen_qpn_map cnp_map;  /* requester QPs with a reaction point (gen_model_rx_cnp) */
	struct gen_qpn_map ack_map;  /* requester QPs answered by a real responder (wire_acks) */
	/* The packet being emitted, and whether it survives the faults. */
	uint8_t pk_dropped, pk_lost, pk_rnr;
	uint8_t pk_paused;        /* the switch port had its class paused when it arrived */
	struct gen_tr *tr;        /* the ground truth (flow_truth.c); NULL: off */
};

/* flow.c */
/* The local QP with that QPN (its low 24 bits), the first in flow order
 * when flows share QPNs; UINT32_MAX: none. */
uint32_t gen_qpn_find(const struct gen_qpn_map *map, uint32_t qpn);
static inline struct gen_lflow *gen_qlf(struct gen_model *m, const struct gen_qp *q)
{
	return &m->lf[q->lf];
}
/* The i-th job and WQE from the head of a QP's rings. */
static inline struct gen_job *gen_jq(struct gen_model *m, struct gen_qp *q, uint32_t i)
{
	uint32_t cap = m->lf[q->lf].cap;
	return &m->jobs[m->ring_base[q - m->qps] + ((q->jq_head + i) & (cap - 1))];
}
static inline struct gen_wqe *gen_wq(struct gen_model *m, struct gen_qp *q, uint32_t i)
{
	uint32_t cap = m->lf[q->lf].cap;
	return &m->wqes[m->ring_base[q - m->qps] + ((q->wq_head + i) & (cap - 1))];
}
uint64_t gen_prng(uint64_t *s);
/* Pacing: the gap after a frame of frame_len bytes, in ns with a fraction. */
double gen_pace_gap(const struct gen_lflow *lf, const struct gen_qp *q, uint32_t frame_len);
/* The time after a frame of frame_len bytes leaves at t, on a clock with a
 * fractional remainder. The gap of the last frame length is kept (*len,
 * *gap): a QP sends frames of one length in the steady state, and the
 * division is done once. */
static inline uint64_t gen_pace(const struct gen_lflow *lf, const struct gen_qp *q, uint64_t t,
				uint32_t frame_len, double *frac, uint32_t *len, double *gap)
{
	if (*len != frame_len) {
		*gap = gen_pace_gap(lf, q, frame_len);
		*len = frame_len;
	}
	double g = *gap + *frac;
	/* through int64_t: one instruction each way (a gap is far below
	 * 2^63 ns), and the same values as through uint64_t */
	int64_t whole = (int64_t)g;
	*frac = g - (double)whole;
	return t + (uint64_t)whole;
}
static inline void gen_emit_count(struct gen_model *m, const struct gen_pkt *pk)
{
	struct gen_flow_stats *st = &m->stats[pk->flow];
	unsigned d = pk->dir == GEN_DIR_RESPONSE;
	if (st->packets[0] + st->packets[1] == 0)
		st->first_ns = pk->t_ns;
	st->last_ns = pk->t_ns;
	st->packets[d]++;
	st->bytes[d] += pk->frame_len;
	if (pk->resend) {
		st->retransmissions++;
		st->resent[d]++;
	}
	m->emitted++;
}

/* flow_frame.c */
int gen_frame_init(struct gen_model *m, struct gen_lflow *lf);
static inline uint32_t gen_frame_len(const struct gen_lflow *lf, uint8_t opcode, uint32_t payload_len)
{
	/* IBA 9.2: PadCnt rounds the payload to a multiple of four bytes. */
	uint32_t n = lf->base_len[opcode & 31] + ((payload_len + 3u) & ~3u);
	return n < RW_ETH_MIN_FRAME ? RW_ETH_MIN_FRAME : n;
}
uint16_t gen_qp_sport(const struct gen_flow *f, uint32_t qp);
uint8_t gen_cnp_opcode(void); /* 0x81, from proto's opcode table */
/* The opcode of transport tr doing op at position pos (POS_*), with
 * immediate data or an IETH as asked, from proto's opcode table; 0xFF when
 * the spec has none (UC atomics, ...). */
uint8_t gen_find_opcode(enum rw_transport tr, enum rw_op op, unsigned pos, int imm, int inv);
/* Packets (and PSNs) of a READ of len bytes at a path MTU (a power of two,
 * gen_flow_mtu): one at least. */
static inline uint32_t gen_read_npkts(uint64_t len, uint32_t mtu)
{
	uint32_t n = (uint32_t)((len + mtu - 1) >> __builtin_ctz(mtu));
	return n ? n : 1;
}
/* IBA 9.4.5: an atomic on a 64-bit word returns what the word held and
 * leaves the new value (compare-and-swap only when it was equal). */
static inline uint64_t gen_atomic_apply(int cmp_swap, uint64_t *word, uint64_t compare, uint64_t swap_add)
{
	uint64_t orig = *word;
	if (!cmp_swap)
		*word = orig + swap_add;
	else if (orig == compare)
		*word = swap_add;
	return orig;
}

/* flow_req.c */
void gen_req_init(struct gen_model *m, struct gen_qp *q);
/* Retries exhausted, a remote access error, a connection CM could not
 * make: the QP goes to the error state and sends nothing more. */
void gen_req_fail(struct gen_model *m, struct gen_qp *q);
/* The remote address of q's next message of op and len bytes (advances
 * its place in the remote buffer, or its atomic slot). */
uint64_t gen_next_va(struct gen_lflow *lf, struct gen_qp *q, uint8_t op, uint32_t len);
/* The packet of a one-packet message of an unreliable flow (op, len bytes,
 * the given PSN, remote address and message number), from QP qp at t. */
void gen_single_fill(const struct gen_lflow *lf, uint32_t qp, uint8_t op, uint32_t len, uint32_t psn, uint64_t va,
		     uint32_t seq, uint64_t t, struct gen_pkt *pk);
int gen_req_send(struct gen_model *m, struct gen_qp *q, uint64_t t, struct gen_pkt *out);
void gen_req_timer(struct gen_model *m, struct gen_qp *q, uint64_t t);
uint64_t gen_req_arrival_time(struct gen_model *m, struct gen_qp *q);
void gen_req_arrival(struct gen_model *m, struct gen_qp *q, uint64_t t);
int gen_req_idle(struct gen_model *m, struct gen_qp *q);

static inline int gen_is_rd_atomic(uint8_t op)
{
	return op == GEN_OP_READ || op == GEN_OP_CMP_SWAP || op == GEN_OP_FETCH_ADD;
}

static inline uint64_t gen_req_timer_time(const struct gen_qp *q)
{
	if (q->flags & QF_FAILED)
		return GEN_NEVER;
	if (q->rnr_ns)
		return q->rnr_ns;
	return q->rto_ns ? q->rto_ns : GEN_NEVER;
}

/* Whether the requester may start its next message now (and marks it done
 * for good when the run or the flow's message count is over). */
static inline int gen_req_may_start(struct gen_model *m, struct gen_qp *q, const struct gen_lflow *lf)
{
	const struct gen_flow *f = lf->f;
	if (q->flags & QF_REQ_DONE)
		return 0;
	if (m->draining || (f->messages && q->msgs_created >= f->messages)) {
		q->flags |= QF_REQ_DONE;
		return 0;
	}
	if (q->wq_n >= lf->cap)
		return 0;
	uint32_t rd = f->max_rd_atomic ? f->max_rd_atomic : 1;
	return !(lf->acks && gen_is_rd_atomic(q->next_op) && q->rd_out >= rd);
}

/* When the requester sends next (GEN_NEVER: not before something else
 * happens). */
static inline uint64_t gen_req_send_time(struct gen_model *m, struct gen_qp *q)
{
	const struct gen_lflow *lf = gen_qlf(m, q);
	if ((q->flags & (QF_FAILED | QF_CM_WAIT)) || q->rnr_ns)
		return GEN_NEVER;
	int resend = q->cur < q->wq_n;
	if (!resend && !gen_req_may_start(m, q, lf))
		return GEN_NEVER;
	/* Every request may cost the responder a job (an ACK, a NAK, a
	 * response): the ring must have room for it. */
	if (lf->responder && q->jq_n + q->in_net >= lf->cap)
		return GEN_NEVER;
	uint64_t t = q->next_tx_ns;
	uint64_t p = m->pause_until[lf->src_prio];
	if (p > t)
		t = p;
	if (lf->cc && m->cc_pause[lf->src_prio] > t)
		t = m->cc_pause[lf->src_prio];
	if (!resend && lf->f->stop_ns && t >= lf->f->stop_ns) {
		q->flags |= QF_REQ_DONE;
		return GEN_NEVER;
	}
	return t;
}

/* flow_cm.c: a connection's CM messages, between its data. REQ leaves at
 * the flow's start, each answer a link delay and GEN_CM_TURN_NS after what
 * it answers; data follows the RTU. DREQ leaves GEN_CM_TURN_NS after the
 * QP has nothing left (gen_cm_close), DREP answers it. */
#define GEN_CM_TURN_NS 2000u /* a CM's turnaround: the MAD up the stack and the answer down */
enum gen_cm_state { CM_OFF = 0, CM_REQ, CM_REP, CM_RTU, CM_UP, CM_DREQ, CM_DREP, CM_CLOSED };
void gen_cm_init(struct gen_model *m, struct gen_qp *q);
/* The due message at t into *out: returns 1. */
int gen_cm_send(struct gen_model *m, struct gen_qp *q, uint64_t t, struct gen_pkt *out);
/* The QP has nothing left to send or receive (found at now on the clock):
 * schedules the DREQ (1), or 0 when its connection has none to send. */
/* A real responder's CM message for q (gen_model_rx_cm). */
void gen_cm_rx(struct gen_model *m, struct gen_qp *q, uint16_t msg, uint32_t peer_id, uint32_t qpn, uint32_t psn,
	       uint64_t now);
int gen_cm_close(struct gen_model *m, struct gen_qp *q, uint64_t now);

/* flow_lockstep.c */
struct gen_ls {
	struct gen_lockstep info;
	uint32_t qi;     /* the next QP of the round */
	uint8_t op;      /* enum gen_op */
	uint8_t done;
	uint64_t va;     /* the round's remote address (taken at its first packet) */
};
void gen_lockstep_free(struct gen_ls *ls);

/* flow_cc.c */
struct gen_ccm;
/* NULL when the scenario has no simulated congestion (*err stays ""), or on
 * failure with one line in err. */
struct gen_ccm *gen_cc_new(struct gen_model *m, char *err, size_t errcap);
void gen_cc_free(struct gen_ccm *c);
/* A request of a congestion flow leaves its requester at t: into the
 * switch. Sets m->pk_dropped when the port drops it, GEN_PF_CE on pk when
 * it marks it; the responder gets it when it leaves the port. */
void gen_cc_request(struct gen_model *m, struct gen_qp *q, struct gen_pkt *pk, uint64_t t);
/* A request of a flow with reaction points but no simulated switch left at
 * t (closed loop): the byte counter. */
void gen_cc_sent(struct gen_model *m, struct gen_qp *q, const struct gen_pkt *pk, uint64_t t);
/* The QP's reaction point timer (q->cc_next) is due at t. */
void gen_cc_timer(struct gen_model *m, struct gen_qp *q, uint64_t t);
/* The next time something happens in the congestion models (GEN_NEVER: nothing). */
uint64_t gen_cc_next(struct gen_model *m);
/* Runs what is due at now; returns the packets it emitted (at most room). */
uint32_t gen_cc_run(struct gen_model *m, uint64_t now, struct gen_pkt *out, uint32_t room);
/* Re-keys QP q on the clock (after the switch changed its state). */
void gen_clock_rekey(struct gen_model *m, struct gen_qp *q);
/* The switch paused (or resumed) the senders of class prio until until_ns. */
void gen_cc_pause(struct gen_model *m, uint8_t prio, uint64_t until_ns);
/* The notification point's key of a request to QP qp of flow f: its
 * source and destination IPs (IPv4 mapped into IPv6) and destination QPN. */
struct cc_np_key;
void gen_np_key(const struct gen_scenario *sc, const struct gen_flow *f, uint32_t qp, struct cc_np_key *k);
/* Message w of q completed at t (the fct output, when asked for). */
void gen_cc_complete(struct gen_model *m, struct gen_qp *q, const struct gen_wqe *w, uint64_t t);

/* flow_truth.c: the ground truth's records (flow.h), in a ring from the
 * oldest not yet handed out. Every hook is called only when m->tr is set. */
struct gen_tr {
	struct gen_truth *r;      /* ring of mask + 1 records; record id sits at id & mask */
	uint64_t mask;
	uint64_t head, tail;      /* records head + 1 .. tail are in the ring */
	uint64_t frames;          /* packets that reached the tap so far */
	uint8_t acc;              /* the responder on the request being made: 1 took it, 2 and it
				   * completed a message; 0 (else) */
	uint8_t in_switch;        /* the request being made waits in the switch for the responder */
	uint8_t departing;        /* the responder's request is one leaving the switch (episode below) */
	uint32_t episode;         /* the requester's episode when it sent that request */
	uint8_t failed;           /* a record was lost for want of memory */
};
/* The id and frame the next packet made will get (if it reaches the tap). */
static inline uint64_t gen_tr_next_id(const struct gen_model *m)
{
	return m->tr->tail + 1;
}
static inline uint64_t gen_tr_next_frame(const struct gen_model *m)
{
	return m->tr->frames + 1;
}
/* The request just made (dropped before the tap when m->pk_dropped), of
 * message w, transmission tx. */
void gen_tr_request(struct gen_model *m, struct gen_qp *q, const struct gen_wqe *w, const struct gen_pkt *pk,
		    uint32_t tx);
/* The response just made for job j. */
void gen_tr_response(struct gen_model *m, struct gen_qp *q, struct gen_job *j, const struct gen_pkt *pk,
		     uint32_t tx);
/* A CNP (answering the CE mark in frame ce_frame) or a PFC frame just made. */
void gen_tr_other(struct gen_model *m, const struct gen_pkt *pk, uint64_t ce_frame);
/* The responder took the request being processed (it completed a message
 * with it when last). */
static inline void gen_tr_taken(struct gen_model *m, int last)
{
	m->tr->acc = (uint8_t)(1 + !!last);
}
/* What the receiver did with record id is known now: acc 0 dropped it, 1
 * took it, 2 took it and completed a message with it. */
void gen_tr_settle(struct gen_model *m, uint64_t id, int acc);
/* The simulated switch keeps the id and frame of the requests it holds. */
int gen_cc_truth_on(struct gen_model *m);
/* The requester's message number (from 1) of its READ or atomic at psn; 0: none. */
/* Whether READ w is the one a response job (psn, npkts) answers: it starts
 * there, or resumed since, it ends where the job ends. */
static inline int gen_read_answered_by(const struct gen_wqe *w, uint32_t psn, uint32_t npkts)
{
	return w->op == GEN_OP_READ && (w->psn == psn || (((w->psn + w->npsn) & RW_PSN_MASK) ==
							   ((psn + npkts) & RW_PSN_MASK) &&
							   rw_psn_diff(w->psn, psn) > 0));
}
uint64_t gen_tr_rd_msg(struct gen_model *m, struct gen_qp *q, uint32_t psn, uint32_t npkts);

/* flow_resp.c */
void gen_resp_request(struct gen_model *m, struct gen_qp *q, const struct gen_pkt *pk, uint64_t t_arrive);
uint64_t gen_resp_send_time(struct gen_model *m, struct gen_qp *q);
int gen_resp_send(struct gen_model *m, struct gen_qp *q, uint64_t t, struct gen_pkt *out);

/* flow_fault.c: applies the scenario's faults to a packet about to leave;
 * sets pk->flags and m->pk_dropped / pk_lost / pk_rnr, may change its R_Key.
 * transmission: 1 for a first send. */
void gen_fault_apply(struct gen_model *m, struct gen_qp *q, struct gen_pkt *pk, uint32_t transmission);
uint32_t gen_txhist_transmission(const struct gen_txhist *h, uint32_t psn, uint32_t max);
void gen_txhist_add(struct gen_txhist *h, uint32_t start, uint32_t end, uint32_t pos, uint32_t done);

#endif
