/* SPDX-License-Identifier: BSD-3-Clause */
/* The analysis engine's internals, shared by its parts: the core (flow
 * table, memory, dispatch: analyze.c), PSN sequences (analyze_seq.c),
 * message assembly (analyze_msg.c), pairing and responses (analyze_pair.c),
 * congestion (analyze_cong.c) and latencies (analyze_lat.c). */
#ifndef ROCEWIRE_ANALYZE_INT_H
#define ROCEWIRE_ANALYZE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "rocewire/analyze.h"

#define PSN_WINDOW 1024u
/* One bit per PSN of a window of PSN_WINDOW (psn mod PSN_WINDOW), in
 * PSN_WINDOW / 64 words: the seen PSNs of a sequence, the messages cut at
 * pre-capture resends, the READs sent and answered. */
static inline int psn_bit(const uint64_t *bits, uint32_t psn)
{
	uint32_t b = psn % PSN_WINDOW;
	return (int)(bits[b / 64] >> (b % 64) & 1);
}

static inline void psn_bit_put(uint64_t *bits, uint32_t psn, int on)
{
	uint32_t b = psn % PSN_WINDOW;
	if (on)
		bits[b / 64] |= 1ull << (b % 64);
	else
		bits[b / 64] &= ~(1ull << (b % 64));
}

/* Sets (on) or clears the bits of PSNs from .. to, both included (at most
 * a window). */
static inline void psn_bits_put(uint64_t *bits, uint32_t from, uint32_t to, int on)
{
	for (uint32_t k = 0; k < PSN_WINDOW; k++) {
		psn_bit_put(bits, from + k, on);
		if (((from + k) & RW_PSN_MASK) == (to & RW_PSN_MASK))
			break;
	}
}
#define FLOW_CHUNK 1024u /* flows per block: a flow never moves once made */

/* Outstanding requests awaiting an ACK / READ response / atomic ACK, in the
 * order they were sent, one per request packet. Grows from a few entries to
 * RW_PENDING: enough for a requester with 16 READs outstanding and ACKs
 * requested every 32 packets at a 256-byte MTU (a generator, a deep NIC
 * pipeline); beyond it the oldest gives way. */
#define RW_PENDING 1024
#define PEND_SEND 0
#define PEND_READ 1
#define PEND_ATOMIC 2
#define PEND_DEAD 0xFF
struct rw_pend {
	uint32_t psn, npsn; /* first PSN, PSNs covered (READ: response packets) */
	uint8_t kind;
	uint8_t exact;      /* READ: npsn is its responses' count (MTU or next request known) */
	uint8_t fresh;      /* ts and frame are the capture's first copy's */
	uint32_t got;       /* READ: responses received in a row from psn */
	uint32_t len;       /* READ: DMA length */
	uint64_t va;        /* READ: remote address */
	uint64_t ts, frame;
};
struct rw_pend_ring {
	uint32_t cap, head, n; /* cap: a power of two */
	uint32_t hint;         /* ring position of the last match, tried first */
	uint32_t last_psn;     /* PSN of the newest entry */
	uint8_t unsorted;      /* an entry's PSN is below an older one's (a resend) */
	struct rw_pend e[];
};
#define PEND(r, k) (&(r)->e[((r)->head + (k)) & ((r)->cap - 1)])

/* Requests held ahead of a hole, in PSN order from e[head]: the assembler
 * only ever looks at the front. Made with room for RW_HOLD_MIN on the first
 * hole, doubled while a hole keeps more waiting, up to RW_HOLD_MAX: as
 * far as a sender with a deep send queue goes past a hole before its
 * go-back (a lossy incast queue drops a flow's resends for thousands of
 * PSNs), 256 KiB at most per flow with a hole open, within the analyzer's
 * memory budget. */
#define RW_HOLD_MIN 64u
#define RW_HOLD_MAX 16384u
struct rw_hold_entry {
	uint32_t psn_op; /* PSN << 8 | opcode */
	uint32_t len;
	uint64_t frame;
};
struct rw_hold_queue {
	uint32_t cap, head, n; /* entries e[head .. head+n) of cap */
	uint64_t since_ns;     /* when the hole opened (the first request held) */
	struct rw_hold_entry e[];
};
#define HOLD_BYTES(cap) \
	(sizeof(struct rw_hold_queue) + (size_t)(cap) * sizeof(struct rw_hold_entry))

/* Messages completed from a flow's requests, oldest first, until the
 * responder acknowledges their last PSN: an RNR or sequence NAK naming a
 * PSN at or below one's says the responder did not take it after all
 * (analyze_msg.c, msg_refused). Grows from RW_DONE_MIN to RW_DONE_MAX
 * (a NAK lags the requests by the time they take to reach the responder
 * and its answer to come back); beyond that the oldest is forgotten. */
#define RW_DONE_MIN 16u
#define RW_DONE_MAX 1024u
struct rw_done_msg {
	uint32_t first_psn, last_psn;
	uint32_t op;    /* msgs_by_op index */
	uint64_t bytes;
	uint64_t first_frame;
};
struct rw_done_ring {
	uint32_t cap, head, n; /* entries e[(head + i) % cap], i < n */
	struct rw_done_msg e[];
};
#define DONE_BYTES(cap) \
	(sizeof(struct rw_done_ring) + (size_t)(cap) * sizeof(struct rw_done_msg))

/* CE marks of a flow that no CNP has answered yet, oldest first
 * (analyze_cong.c). A notification point answers marks in the order they
 * came, one CNP per mark at most, and may lag: one that sends a CNP for
 * every mark had 60 waiting in samples/scenarios/np-every-ce.yaml. The ring
 * grows from RW_CE_MIN to RW_CE_MAX marks (16 KiB); beyond that the oldest
 * mark moves to `over`, where marks are counted but no longer timed one by
 * one: they all expire with the newest of them. A mark leaves when a CNP
 * answers it or when cnp_window_ns has passed. */
#define RW_CE_MIN 16u
#define RW_CE_MAX 1024u
struct rw_ce_mark {
	uint64_t ts;
	uint64_t frame_el; /* frame << 1 | eligible (the pacing allowed a CNP for it) */
};
struct rw_ce_ring {
	uint32_t cap, head, n; /* cap: a power of two */
	/* The newest `uncovered` marks came after the latest CNP of the flow:
	 * whether a CNP follows them is still open (ce_without_cnp). */
	uint32_t uncovered;
	struct {
		uint64_t n;           /* marks pushed out of the full ring */
		uint64_t uncov_el;    /* of them, eligible and after the latest CNP */
		uint64_t last_ts;     /* the newest of them */
		uint64_t frame, uncov_frame; /* the newest, and the oldest eligible uncovered */
	} over;
	struct rw_ce_mark e[];
};
#define CE_AT(r, k) (&(r)->e[((r)->head + (k)) & ((r)->cap - 1)])

/* A station's address on the link, as the analyser tells link ends apart:
 * an Ethernet MAC (MAC | RW_L2_MAC), or for a Linux cooked capture (no
 * destination MAC) the capturing host or its link peer. 0: none (native
 * IB). */
#define RW_L2_MAC (1ull << 48)
#define RW_L2_HOST (2ull << 48)
#define RW_L2_PEER (3ull << 48)

/* A PFC / PAUSE sender and the pause it asked, per class: 802.1Qbb pauses
 * one direction of one link, the traffic towards the sender. */
struct rw_pfc_sender {
	uint64_t key;                          /* its link address (RW_L2_*) */
	uint64_t until[RW_PFC_PRIORITIES + 1]; /* paused until, per class and 802.3x; 0: not */
	uint8_t addressed; /* RoCE frames carry its address (a NIC, a routed port); else a switch port */
};

/* One address pair (family, src, dst): the request flows on it, for CNP
 * attribution and for pairing (responses look up the reverse pair). */
struct rw_addr_pair {
	uint8_t family;
	uint8_t src[16], dst[16];
	int32_t last_ce_flow;  /* request flow with the latest CE mark, -1 */
	int32_t last_req_flow; /* request flow with the latest request, -1 */
	int32_t first_req_flow; /* list of its request flows (newest first), -1 */
	uint64_t last_cnp_ns;   /* CNP pacing per IP pair (or per destination IP: src all zero) */
	uint64_t l2_src, l2_dst; /* link addresses of its latest frame (RW_L2_*), to classify PFC senders */
	/* The latest unattributed sequence and RNR NAKs answering it (the
	 * reverse pair's unpaired response flows), offered to a request flow
	 * the capture shows first after them (pair_naks_offer): its go-back
	 * may follow. */
	uint8_t nak_n, nak_next;
	uint32_t nak_psn[RW_MSG_NAKS];
	int32_t nak_src[RW_MSG_NAKS];
	uint64_t nak_ns[RW_MSG_NAKS];
};

/* PSNs sent by unpaired reliable request flows, keyed by (address pair,
 * PSN): a response looks up the PSN it echoes. Entries are only added;
 * stale ones (flow paired since, PSN left the flow's window) are skipped on
 * lookup and dropped when the table is rebuilt. */
struct rw_pix_entry {
	uint32_t pair1;  /* address pair index + 1, 0 = empty */
	uint32_t psn;
	uint32_t flow : 31;
	uint32_t asked : 1; /* an ACK of it is expected: AckReq set, or a message's end */
};

struct rw_analyzer {
	struct rw_analyze_cfg cfg;
	struct rw_totals totals;
	size_t mem_used;

	uint32_t nflows, flows_cap;
	struct rw_flow **chunks;
	uint32_t nchunks, chunks_cap;
	uint32_t *slots; /* flow index + 1, 0 = empty; the key's latest conversation */
	uint32_t slots_mask;
	struct rw_flow *last; /* the flow of the previous lookup */

	struct rw_addr_pair *pairs;
	uint32_t npairs, pairs_cap;
	uint8_t answers_shown; /* the capture has shown a response (it sees answers at all) */
	uint32_t *pair_slots; /* pair index + 1 */
	uint32_t pair_slots_mask;

	struct rw_pix_entry *pix;
	uint32_t pix_mask, pix_used;

	uint64_t *ukeys; /* hashes of untracked flow keys (a set) */
	uint32_t ukeys_mask, ukeys_used;
	uint8_t ukeys_full;

	/* PFC / PAUSE (analyze_cong.c): the senders, indexed by link address. */
	struct rw_pfc_sender *pfcs;
	uint32_t npfcs, pfcs_cap;
	uint32_t *pfc_slots; /* sender index + 1, 0 = empty; 2 * pfcs_cap of them */
	/* per class, the latest end of a pause a switch port asked (a
	 * sender no frame is addressed to): what requests obey */
	uint64_t port_until[RW_PFC_PRIORITIES + 1];
	uint64_t l2_last_src, l2_last_dst; /* the latest frame's, checked against the senders */

	/* CM handshakes (analyze_cm.c) */
	struct rw_cm_conn *cms;
	uint32_t ncms, cms_cap;
	uint32_t *cm_slots;  /* handshake index + 1 by (addresses, active comm ID); 0 = empty */
	uint32_t cm_slots_mask;
};

static inline struct rw_flow *flow_at(const struct rw_analyzer *a, uint32_t i)
{
	return &a->chunks[i / FLOW_CHUNK][i % FLOW_CHUNK];
}

/* Each request flow of address pair rp (an index into a->pairs, or -1 for
 * none), newest first, into q. Pairing and NAK attribution look at the
 * flows of a host pair; past PAIR_WALK_MAX of them the work per packet is
 * bounded and later answers decide. `continue` and `break` work as in any
 * for loop. */
#define PAIR_WALK_MAX 256
#define FOR_EACH_REQ_IN_PAIR(a, rp, q)                                                          \
	for (int32_t pw_i_ = (rp) >= 0 ? (a)->pairs[rp].first_req_flow : -1, pw_n_ = 0;       \
	     pw_i_ >= 0 && pw_n_ < PAIR_WALK_MAX &&                                             \
	     ((q) = flow_at((a), (uint32_t)pw_i_), pw_i_ = (q)->next_req_in_pair, 1);           \
	     pw_n_++)

static inline uint32_t psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & RW_PSN_MASK;
}

/* The PSNs a READ of len bytes takes at a path MTU of mtu: one per
 * response packet (IBA 9.4.4), one for a zero-length READ. */
static inline uint32_t read_psns(uint64_t len, uint32_t mtu)
{
	return len ? (uint32_t)((len + mtu - 1) / mtu) : 1;
}

/* Whether a packet shows its QP's path MTU: a FIRST or MIDDLE carries
 * exactly the MTU (IBA 9.7.4), when it arrived whole (a good ICRC/VCRC). */
static inline int packet_shows_mtu(const struct rw_packet *p)
{
	return (p->op->flags & (RW_OPF_FIRST | RW_OPF_MIDDLE)) && !(p->op->flags & RW_OPF_LAST) &&
	       p->payload_len && p->icrc_status != RW_CRC_BAD && p->vcrc_status != RW_CRC_BAD;
}

/* analyze.c */
void *an_alloc(struct rw_analyzer *a, size_t size, int essential);
void an_free(struct rw_analyzer *a, void *p, size_t size);
int32_t an_pair_lookup(struct rw_analyzer *a, uint8_t family, const uint8_t *src,
		       const uint8_t *dst, int create);
struct rw_flow *an_new_conversation(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts);
int an_key_of(const struct rw_packet *p, struct rw_flow_key *k);
struct rw_flow *an_flow_get(struct rw_analyzer *a, const struct rw_flow_key *k);
void an_close(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts);

/* analyze_cm.c */
void cm_packet(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts, uint64_t frame);
void cm_release(struct rw_analyzer *a);
/* analyze_pair.c */
void pair_link(struct rw_flow *f, struct rw_flow *q, enum rw_pair_how how, uint32_t psn,
	       uint64_t frame);

/* analyze_lat.c */
void lat_add(struct rw_analyzer *a, struct rw_lat *l, uint64_t v);
void lat_release(struct rw_analyzer *a, struct rw_lat *l);

static inline void recent_put(struct rw_recent *r, uint32_t psn, uint64_t ts)
{
	r->psn[r->next] = psn;
	r->ts[r->next] = ts;
	r->next = (uint8_t)((r->next + 1) % RW_RECENT);
}

/* Whether r holds psn at a time after `after` and before `before`. */
static inline int recent_has(const struct rw_recent *r, uint32_t psn, uint64_t after, uint64_t before)
{
	for (unsigned k = 0; k < RW_RECENT; k++)
		if (r->psn[k] == psn && r->ts[k] > after && r->ts[k] < before)
			return 1;
	return 0;
}

/* analyze_seq.c */
int seq_in_hole(const struct rw_seq *s, uint32_t psn);
int seq_never_seen(const struct rw_seq *s, uint32_t psn);
uint32_t seq_track(struct rw_flow *f, struct rw_seq *s, uint32_t psn, int reliable, int answered,
		   struct rw_note *n);
void seq_consume(struct rw_seq *s, uint32_t k);
int seq_reused(const struct rw_flow *f, const struct rw_seq *s, uint32_t psn, uint8_t opcode,
	       uint64_t ts, uint64_t idle_ns);
void seq_sync_on_ack(struct rw_seq *s, uint32_t acked_psn, int heard);
int seq_seen(const struct rw_seq *s, uint32_t psn);
int seq_resend_due(const struct rw_seq *s, uint32_t psn);
void seq_resend_asked(struct rw_seq *s);
void seq_read_span(struct rw_seq *s, uint32_t psn, uint32_t k, uint32_t slack);

/* analyze_msg.c */
/* What the capture knows of a READ before its first response:
 * RD_AWAITED, it is the first response of a READ still pending that no
 * response in a row from its first PSN answered yet; RD_AWAITED_AGAIN,
 * the same, but the capture saw responses of an earlier answer to it
 * (its requester began it before); RD_ANSWERED, its MSN says the
 * responder answers it again, and no request the capture saw asks for
 * it. */
enum rd_ask { RD_UNKNOWN, RD_AWAITED, RD_AWAITED_AGAIN, RD_ANSWERED };
/* Why a READ's answer is one the requester may have taken before the
 * capture (rw_msg_state.pre). */
enum { RD_PRE_NONE, RD_PRE_BELOW, RD_PRE_AGAIN };
/* req_psn: a READ response's READ request (its first PSN), -1 unknown.
 * Returns 1 when it is the LAST of a READ the capture saw answered whole
 * from its FIRST (f->rmsg.first_psn): a message, or one answered before
 * the capture answered again. */
int msg_account(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *owner, uint8_t opcode, uint32_t psn,
		 uint32_t len, int64_t req_psn, enum rd_ask ask, uint64_t frame, struct rw_note *n);
void msg_take_request(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
		      uint64_t ts, uint64_t frame, struct rw_note *n);
void msg_read_first_dropped(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, int wait, uint64_t frame,
			    struct rw_note *n);
void msg_refused(struct rw_flow *f, uint32_t psn);
int msg_nak_fits(const struct rw_flow *f, uint32_t psn);
void msg_nak_add(struct rw_flow *f, uint32_t psn, int32_t src);
int msg_nak_take(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, int starts_go_back);
void msg_mtu_shown(struct rw_flow *f, uint32_t mtu);
uint32_t msg_req_units(uint8_t opcode, uint32_t dmalen, uint32_t mtu, uint32_t floor, uint32_t *slack);
/* A packet of f's QP (either direction) carried payload bytes: the path
 * MTU is at least that, rounded up to an IBA MTU. */
static inline void mtu_floor_note(struct rw_flow *f, uint32_t payload)
{
	if (payload <= f->cs.mtu_floor)
		return;
	uint32_t m = 256;
	while (m < payload && m < 4096)
		m <<= 1;
	f->cs.mtu_floor = m;
}
void msg_finish(struct rw_analyzer *a, struct rw_flow *f, uint64_t end_ns);
void msg_release(struct rw_analyzer *a, struct rw_flow *f);

/* analyze_pair.c */
void pair_note_request(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, int asked);
void pair_naks_offer(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts);
struct rw_pend *pend_push(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, uint32_t npsn,
			  uint8_t kind, uint64_t ts, uint64_t frame);
struct rw_pend *pend_again(struct rw_pend_ring *r, uint32_t psn, uint32_t npsn, uint8_t kind);
void pend_clip_reads(struct rw_pend_ring *r, uint32_t psn);
int pend_read_reissue(const struct rw_flow *f, uint32_t psn, uint32_t flags);
int pend_find(struct rw_pend_ring *r, uint32_t psn, int kind);
void handle_response(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
		     uint64_t ts, uint64_t frame, struct rw_note *n);
int rsp_answered_past(const struct rw_flow *f, uint32_t psn, uint64_t ts);
int read_answer_stopped(const struct rw_flow *f, uint32_t psn);

/* analyze_conform.c */
void conf_violation(struct rw_analyzer *a, struct rw_flow *f, enum rw_violation v, uint64_t frame);
/* n violations at once, frame the first of them */
void conf_violations(struct rw_analyzer *a, struct rw_flow *f, enum rw_violation v,
		     uint64_t frame, uint64_t n);
void conf_on_ack(struct rw_analyzer *a, struct rw_flow *q, uint32_t psn, uint64_t frame);
void conf_on_nak(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *q, uint8_t kind,
		 uint32_t psn, int heard, uint64_t ts, uint64_t frame);
/* A sender that went quiet this long and then sends a PSN below its
 * highest is resending on its retransmission timer: a packet overtaken in
 * flight arrives while the packets that passed it are still coming. RoCE
 * keeps a QP on one path (ECMP hashes the UDP source port): only adaptive
 * routing or packet spraying reorders, by microseconds; timers (4.096 us x
 * 2^n) are set far above that. */
#define RESEND_QUIET_NS 32000ull

/* A requester acts on a response within microseconds (rxe, and the
 * generator's model within 10 us, pacing included): see answered_past. */
#define RESPONSE_ACT_NS 20000ull

/* the causes a go-back is counted by (rw_flow.cs.last_gbn_cause) */
#define GBN_BY_TIMEOUT 0
#define GBN_BY_NAK 1
#define GBN_BY_RNR 2
#define GBN_BY_IMPLIED 3
void conf_on_pair(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *q);
void conf_on_answer(struct rw_flow *q, uint32_t end, uint64_t ts, int whole);
void conf_on_rd_answer(struct rw_flow *q, uint32_t psn, uint64_t ts, int first);
/* reissue: the request is a READ re-issuing one still pending (pend_read_reissue). */
void conf_on_request(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
		     uint32_t flags, int reissue, uint64_t ts, uint64_t frame);
void conf_on_read_response(struct rw_flow *q, const struct rw_packet *p, struct rw_pend *e,
			   const struct rw_seq *rs, uint64_t ts);
void conf_on_ce(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts);
void conf_on_cnp(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *owner, uint64_t ts,
		 uint64_t frame);
/* The capture ended: a sequence NAK f never answered is judged (before
 * the messages are closed). */
void conf_finish_naks(struct rw_analyzer *a, struct rw_flow *f);
void conf_finish(struct rw_analyzer *a, struct rw_flow *f, uint64_t end_ns);
void conf_release(struct rw_analyzer *a, struct rw_flow *f);

/* analyze_cong.c */
void ce_push(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts, uint64_t frame);
void ce_set_eligible(struct rw_flow *f); /* the newest mark: the pacing allowed a CNP for it */
void ce_expire(struct rw_analyzer *a, struct rw_flow *f, uint64_t now);
void ce_release(struct rw_analyzer *a, struct rw_flow *f);
void handle_cnp(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts, uint64_t frame,
		struct rw_note *n);
void handle_macctrl(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts,
		    struct rw_note *n);
/* Notes the link ends of a frame of flow f (at priority f->prio) and says
 * whether it was sent while a PFC/PAUSE sender it travels towards had
 * paused its class. */
int pause_check(struct rw_analyzer *a, const struct rw_packet *p, const struct rw_flow *f,
		uint64_t ts);
void pause_finish(struct rw_analyzer *a, uint64_t ts);
void pause_release(struct rw_analyzer *a);

#endif
