/* Per-QP analysis engine. See rocewire/analyze.h for the model; the
 * comments here say why each rule is what it is. */
#include <stddef.h>
#include <string.h>

#include "rocewire/analyze.h"
#include "rocewire/wire.h"

struct rw_analyzer {
	struct rw_analyze_cfg cfg;
	struct rw_totals totals;
	uint32_t nflows, cap;
	uint32_t slots_mask;    /* hash slots - 1 */
	uint32_t *slots;        /* flow index + 1, 0 = empty */
	struct rw_flow *flows;
	struct rw_flow *last;   /* the flow of the previous lookup */
};

#define PSN_WINDOW 1024u

static void cfg_defaults(struct rw_analyze_cfg *c, const struct rw_analyze_cfg *in)
{
	memset(c, 0, sizeof(*c));
	if (in)
		*c = *in;
	if (!c->max_flows)
		c->max_flows = 4096;
	if (c->link_gbps <= 0)
		c->link_gbps = 100;
	if (!c->cnp_window_ns)
		c->cnp_window_ns = 1000000;
	if (!c->storm_ns)
		c->storm_ns = 10000000;
	c->psn_window = PSN_WINDOW;
}

static uint32_t slot_count(uint32_t max_flows)
{
	uint32_t n = 16;
	while (n < max_flows * 2u)
		n <<= 1;
	return n;
}

size_t rw_analyzer_mem_size(const struct rw_analyze_cfg *cfg)
{
	struct rw_analyze_cfg c;
	cfg_defaults(&c, cfg);
	size_t head = (sizeof(struct rw_analyzer) + 63) & ~(size_t)63;
	size_t slots = ((size_t)slot_count(c.max_flows) * sizeof(uint32_t) + 63) & ~(size_t)63;
	return head + slots + (size_t)c.max_flows * sizeof(struct rw_flow);
}

struct rw_analyzer *rw_analyzer_init(void *mem, size_t size, const struct rw_analyze_cfg *cfg)
{
	if (!mem || size < rw_analyzer_mem_size(cfg) || ((uintptr_t)mem & 15))
		return NULL;
	struct rw_analyzer *a = mem;
	memset(a, 0, sizeof(*a));
	cfg_defaults(&a->cfg, cfg);
	a->cap = a->cfg.max_flows;
	uint32_t ns = slot_count(a->cap);
	a->slots_mask = ns - 1;
	size_t head = (sizeof(struct rw_analyzer) + 63) & ~(size_t)63;
	a->slots = (uint32_t *)((uint8_t *)mem + head);
	memset(a->slots, 0, (size_t)ns * sizeof(uint32_t));
	a->flows = (struct rw_flow *)((uint8_t *)a->slots +
				      (((size_t)ns * sizeof(uint32_t) + 63) & ~(size_t)63));
	return a;
}

/* ---- histogram ---- */

static unsigned hist_bucket(uint64_t v)
{
	if (v < 8)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v);
	unsigned b = (e - 2) * 8 + (unsigned)((v >> (e - 3)) & 7);
	return b < RW_HIST_BUCKETS ? b : RW_HIST_BUCKETS - 1;
}

static void hist_add(struct rw_hist *h, uint64_t v)
{
	h->count++;
	h->sum_ns += v;
	if (v > h->max_ns)
		h->max_ns = v;
	h->b[hist_bucket(v)]++;
}

uint64_t rw_hist_quantile(const struct rw_hist *h, double q)
{
	if (!h->count)
		return 0;
	if (q >= 1)
		return h->max_ns;
	/* Nearest rank: the smallest value with at least q of the samples at
	 * or below it. */
	uint64_t want = (uint64_t)(q * (double)h->count);
	if ((double)want < q * (double)h->count)
		want++;
	if (want < 1)
		want = 1;
	uint64_t cum = 0;
	for (unsigned b = 0; b < RW_HIST_BUCKETS; b++) {
		cum += h->b[b];
		if (cum >= want) {
			uint64_t hi;
			if (b < 8) {
				hi = b;
			} else {
				unsigned e = b / 8 + 2, m = b % 8;
				hi = ((uint64_t)(9 + m) << (e - 3)) - 1;
			}
			return hi < h->max_ns ? hi : h->max_ns;
		}
	}
	return h->max_ns;
}

const char *rw_nak_kind_key(enum rw_nak_kind k)
{
	static const char *const keys[RW_NAKK_COUNT] = {
		"psn_seq", "invalid_request", "remote_access", "remote_op", "invalid_rd", "rnr", "reserved",
	};
	return (unsigned)k < RW_NAKK_COUNT ? keys[k] : "?";
}

/* ---- flow table ---- */

static int key_of(const struct rw_packet *p, struct rw_flow_key *k)
{
	memset(k, 0, sizeof(*k));
	k->dqpn = p->bth.dqpn;
	switch (p->carrier) {
	case RW_CARRIER_ROCEV2:
		if (p->present & RW_P_IPV4) {
			k->family = 4;
			rw_put_be32(k->src, p->ipv4.src);
			rw_put_be32(k->dst, p->ipv4.dst);
		} else {
			k->family = 6;
			memcpy(k->src, p->ipv6.src, 16);
			memcpy(k->dst, p->ipv6.dst, 16);
		}
		return 1;
	case RW_CARRIER_ROCEV1:
		k->family = 1;
		memcpy(k->src, p->grh.sgid, 16);
		memcpy(k->dst, p->grh.dgid, 16);
		return 1;
	case RW_CARRIER_IB:
		k->family = 0;
		rw_put_be16(k->src, p->lrh.slid);
		rw_put_be16(k->dst, p->lrh.dlid);
		return 1;
	default:
		return 0;
	}
}

static int key_eq(const struct rw_flow_key *a, const struct rw_flow_key *b)
{
	return a->family == b->family && a->dqpn == b->dqpn && memcmp(a->src, b->src, 16) == 0 &&
	       memcmp(a->dst, b->dst, 16) == 0;
}

static uint32_t key_hash(const struct rw_flow_key *k)
{
	/* Four 64-bit words of address and one of family+QPN, mixed with a
	 * multiply-xorshift (much cheaper than a byte-wise hash per packet). */
	uint64_t w[4], h = ((uint64_t)k->family << 32 | k->dqpn) * 0x9E3779B97F4A7C15ull;
	memcpy(w, k->src, 16);
	memcpy(w + 2, k->dst, 16);
	for (unsigned i = 0; i < 4; i++) {
		h ^= w[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
		h *= 0xFF51AFD7ED558CCDull;
	}
	h ^= h >> 33;
	return (uint32_t)h;
}

static struct rw_flow *flow_get(struct rw_analyzer *a, const struct rw_flow_key *k, int create)
{
	/* Packets of one flow come in runs (the packets of a message). */
	if (a->last && key_eq(&a->last->key, k))
		return a->last;
	uint32_t i = key_hash(k) & a->slots_mask;
	for (;;) {
		uint32_t s = a->slots[i];
		if (!s)
			break;
		if (key_eq(&a->flows[s - 1].key, k))
			return a->last = &a->flows[s - 1];
		i = (i + 1) & a->slots_mask;
	}
	if (!create || a->nflows == a->cap)
		return NULL;
	struct rw_flow *f = &a->flows[a->nflows];
	memset(f, 0, sizeof(*f));
	f->key = *k;
	f->peer = -1;
	a->slots[i] = ++a->nflows;
	return a->last = f;
}

static int32_t flow_index(const struct rw_analyzer *a, const struct rw_flow *f)
{
	return (int32_t)(f - a->flows);
}

/* ---- PSN tracking ---- */

static uint32_t psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & RW_PSN_MASK;
}

/* seen[] is circular: bit (psn % 1024) says whether psn was seen, valid for
 * the 1024 PSNs below high_psn; moving high_psn forward clears the bits of
 * the PSNs it passes. */
static int seen_get(const struct rw_flow *f, uint32_t psn)
{
	uint32_t b = psn % PSN_WINDOW;
	return (int)(f->seen[b / 64] >> (b % 64) & 1);
}

static void seen_set(struct rw_flow *f, uint32_t psn)
{
	uint32_t b = psn % PSN_WINDOW;
	f->seen[b / 64] |= 1ull << (b % 64);
}

/* Moves high_psn forward by k PSNs, marking them seen or not. */
static void seen_advance(struct rw_flow *f, uint32_t k, int mark)
{
	if (k >= PSN_WINDOW) {
		memset(f->seen, mark ? 0xFF : 0, sizeof(f->seen));
		f->high_psn = (f->high_psn + k) & RW_PSN_MASK;
		return;
	}
	for (uint32_t i = 0; i < k; i++) {
		uint32_t b = ((f->high_psn + i) & RW_PSN_MASK) % PSN_WINDOW;
		if (mark)
			f->seen[b / 64] |= 1ull << (b % 64);
		else
			f->seen[b / 64] &= ~(1ull << (b % 64));
	}
	f->high_psn = (f->high_psn + k) & RW_PSN_MASK;
}

/* PSNs after high_psn that were used without being seen on this flow (the
 * responses of a READ take the requester's PSNs). */
static void psn_consume(struct rw_flow *f, uint32_t k)
{
	seen_advance(f, k, 1);
	f->next_psn = f->high_psn;
}

/* Classifies one PSN of a flow: new, gap before it, resent (and whether
 * it starts a go-back-N episode), or late (reordered). A PSN is "resent"
 * only if this flow carried it before (the seen window), so a late packet
 * that fills a gap is told apart from a retransmission. */
static uint32_t psn_track(struct rw_flow *f, uint32_t psn, struct rw_note *n)
{
	if (!f->psn_valid) {
		f->psn_valid = 1;
		f->first_psn = psn;
		memset(f->seen, 0, sizeof(f->seen));
		f->high_psn = psn;
		seen_advance(f, 1, 1);
		f->next_psn = f->high_psn;
		n->expected_psn = psn;
		return RW_N_NEW;
	}
	uint32_t flags = 0;
	n->expected_psn = f->next_psn;
	int32_t d = rw_psn_diff(psn, f->high_psn);
	if (d >= 0) {
		if (d > 0 && (uint32_t)d <= f->read_slack) {
			psn_consume(f, (uint32_t)d);
		} else if (d > 0) {
			f->psn_gaps++;
			f->missing_psns += (uint64_t)d;
			n->gap_len = (uint32_t)d;
			flags |= RW_N_GAP;
			seen_advance(f, (uint32_t)d, 0);
		}
		seen_advance(f, 1, 1);
		f->read_slack = 0;
		f->in_resend = 0;
		flags |= RW_N_NEW;
	} else {
		uint32_t back = (uint32_t)(-d) - 1; /* PSNs between psn and high_psn - 1 */
		int known = back < PSN_WINDOW;
		/* A PSN this capture never saw is still a resend, not a late
		 * packet, when the responder's NAK asked for it or when it
		 * continues a go-back-N run (a second hole in the same window):
		 * the original was lost before the capture point. */
		int resend = (f->nak_wait && psn == f->nak_psn) || (f->in_resend && psn == f->next_psn);
		if (known && !seen_get(f, psn) && !resend) {
			f->out_of_order++;
			if (f->missing_psns)
				f->missing_psns--;
			seen_set(f, psn);
			flags |= RW_N_NEW | RW_N_OOO;
		} else {
			if (known) {
				if (!seen_get(f, psn))
					flags |= RW_N_NEW; /* first copy this capture saw */
				seen_set(f, psn);
			}
			f->nak_wait = 0;
			f->in_resend = 1;
			f->retransmissions++;
			flags |= RW_N_RETRANS;
			if (psn != f->next_psn) {
				f->gbn_episodes++;
				flags |= RW_N_GBN_START;
			}
		}
	}
	f->next_psn = psn_add(psn, 1);
	return flags;
}

/* ---- messages ---- */

static int op_index(uint8_t op)
{
	switch (op) {
	case RW_OP_SEND:
		return 0;
	case RW_OP_WRITE:
	case RW_OP_ATOMIC_WRITE:
		return 1;
	case RW_OP_READ_RESP:
		return 2;
	case RW_OP_CMP_SWAP:
	case RW_OP_FETCH_ADD:
		return 3;
	}
	return -1;
}

/* Reassembles first/middle/last/only into messages on flow f; the message
 * is credited (by operation) to `owner`, the requester's flow. */
static void msg_account(struct rw_flow *f, struct rw_flow *owner, uint8_t opcode, uint32_t psn,
			uint32_t len, struct rw_note *n)
{
	const struct rw_opcode_info *op = rw_opcode(opcode);
	int oi = op_index(op->op);
	int first = (op->flags & RW_OPF_FIRST) != 0, last = (op->flags & RW_OPF_LAST) != 0;

	if (oi < 0 || !(op->flags & (RW_OPF_FIRST | RW_OPF_MIDDLE | RW_OPF_LAST)))
		return;
	if (oi == 3) {
		/* An atomic is a message of its own with no payload. */
		f->messages++;
		owner->msgs_by_op[3]++;
		n->flags |= RW_N_MSG_DONE;
		return;
	}
	if (first) {
		if (f->msg_open) {
			f->msg_incomplete++;
			n->flags |= RW_N_MSG_BROKEN;
		}
		f->msg_open = 1;
		f->msg_first_psn = psn;
		f->msg_bytes = 0;
	} else if (!f->msg_open) {
		f->msg_orphans++;
		n->flags |= RW_N_ORPHAN;
		return;
	}
	f->msg_bytes += len;
	if (last) {
		f->msg_open = 0;
		f->messages++;
		owner->msgs_by_op[oi]++;
		owner->bytes_by_op[oi] += f->msg_bytes;
		n->flags |= RW_N_MSG_DONE;
		n->msg_bytes = f->msg_bytes;
	}
}

/* ---- outstanding requests ---- */

#define PEND(f, k) (&(f)->pend[((f)->pend_head + (k)) % RW_PENDING])
#define PEND_DEAD 0xFF

static void pend_push(struct rw_flow *f, uint32_t psn, uint32_t npsn, uint8_t kind, uint64_t ts,
		      uint64_t frame)
{
	if (f->pend_n == RW_PENDING) {
		/* Full: the oldest entry gives way (its response is long overdue). */
		f->pend_head = (f->pend_head + 1) % RW_PENDING;
		f->pend_n--;
		f->pend_hint--;
	}
	if (f->pend_n && rw_psn_diff(psn, f->pend_last_psn) <= 0)
		f->pend_unsorted = 1;
	f->pend_last_psn = psn;
	struct rw_pending *e = PEND(f, f->pend_n);
	f->pend_n++;
	e->psn = psn;
	e->npsn = npsn ? npsn : 1;
	e->kind = kind;
	e->ts = ts;
	e->frame = frame;
}

/* Drops answered entries from the front of the ring. */
static void pend_compact(struct rw_flow *f)
{
	while (f->pend_n && f->pend[f->pend_head].kind == PEND_DEAD) {
		f->pend_head = (f->pend_head + 1) % RW_PENDING;
		f->pend_n--;
		f->pend_hint--; /* positions are relative to the head (may wrap: then unused) */
	}
}

static void pend_remove(struct rw_flow *f, unsigned k)
{
	PEND(f, k)->kind = PEND_DEAD;
	pend_compact(f);
}

/* An ACK for PSN `psn` covers every request at or before it (IBA 9.7.5.1:
 * ACKs are cumulative), and requests wait in the ring in the order they
 * were sent, so covered entries are popped from the front until the first
 * one the ACK does not cover. Returns how many SEND/WRITE packets were
 * covered (in_read_resp: the AETH of a READ response); *lastp is the latest (in time) of them, from which the ACK
 * latency runs. A READ or atomic still waiting at the front is covered too:
 * its response was not captured, and the ACK says it was done. */
static uint32_t pend_ack(struct rw_flow *f, uint32_t psn, int in_read_resp,
			 const struct rw_pending **lastp, struct rw_pending *copy)
{
	uint32_t count = 0;
	int have = 0;
	/* In order (no resend waiting): covered entries are a prefix of the
	 * ring. After a resend they are not: every entry is looked at. */
	uint32_t n = f->pend_unsorted ? f->pend_n : 0;
	for (uint32_t k = 0; k < f->pend_n; k++) {
		struct rw_pending *e = PEND(f, k);
		if (e->kind == PEND_DEAD)
			continue;
		/* The AETH of a READ's own responses acknowledges what came
		 * before the READ, not the READ: it ends with its last
		 * response. */
		if (rw_psn_diff(psn, e->psn) < 0 || (e->kind == 1 && in_read_resp)) {
			if (k >= n)
				break;
			continue;
		}
		if (e->kind == 0) {
			if (!have || e->ts >= copy->ts) {
				*copy = *e;
				have = 1;
			}
			count++;
		}
		e->kind = PEND_DEAD;
	}
	pend_compact(f);
	if (!f->pend_n)
		f->pend_unsorted = 0;
	*lastp = have ? copy : NULL;
	return count;
}

static int pend_match(const struct rw_pending *e, uint32_t psn, int kind)
{
	if (e->kind == PEND_DEAD || (kind >= 0 && e->kind != kind))
		return 0;
	int32_t d = rw_psn_diff(psn, e->psn);
	return d >= 0 && (uint32_t)d < e->npsn;
}

static int pend_find(struct rw_flow *f, uint32_t psn, int kind)
{
	/* The responses of one READ come in a row: try its entry first. */
	if (f->pend_hint < f->pend_n && pend_match(PEND(f, f->pend_hint), psn, kind))
		return (int)f->pend_hint;
	for (unsigned k = 0; k < f->pend_n; k++) {
		if (pend_match(PEND(f, k), psn, kind)) {
			f->pend_hint = k;
			return (int)k;
		}
	}
	return -1;
}

/* ---- pairing requests with responses ---- */

/* The responder's flow for requests of flow q comes back with reversed
 * addresses and the requester's QPN, which requests never carry; a
 * response is paired with the request flow whose PSN range holds it. */
static struct rw_flow *peer_of(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn)
{
	if (f->peer >= 0)
		return &a->flows[f->peer];
	/* A failed search is repeated only when new flows have appeared (or
	 * now and then, as PSN ranges move): unpaired responses (requests not
	 * captured) must not cost a scan of the table per packet. */
	if (f->pair_tried == a->nflows && (f->packets & 255) != 1)
		return NULL;
	struct rw_flow *best = NULL;
	uint32_t best_d = 0;
	for (uint32_t i = 0; i < a->nflows; i++) {
		struct rw_flow *q = &a->flows[i];
		if (q == f || q->peer >= 0 || !q->has_requests || !q->psn_valid ||
		    q->key.family != f->key.family || memcmp(q->key.src, f->key.dst, 16) ||
		    memcmp(q->key.dst, f->key.src, 16))
			continue;
		uint32_t hi = psn_add(q->high_psn, q->read_slack);
		int32_t from_first = rw_psn_diff(psn, q->first_psn);
		int32_t to_high = rw_psn_diff(hi, psn);
		if (from_first < 0 || to_high <= 0)
			continue;
		if (!best || (uint32_t)to_high < best_d) {
			best = q;
			best_d = (uint32_t)to_high;
		}
	}
	if (best) {
		f->peer = flow_index(a, best);
		best->peer = flow_index(a, f);
	} else {
		f->pair_tried = a->nflows;
	}
	return best;
}

static uint8_t nak_kind_of(const struct rw_aeth *ae)
{
	if (ae->kind == RW_AETH_RNR_NAK)
		return RW_NAKK_RNR;
	if (ae->kind == RW_AETH_NAK)
		return ae->value <= RW_NAK_INVALID_RD_REQUEST ? ae->value : RW_NAKK_RESERVED;
	return RW_NAKK_RESERVED;
}

static void handle_aeth(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *q,
			const struct rw_packet *p, uint64_t ts, struct rw_note *n)
{
	(void)a;
	const struct rw_aeth *ae = &p->aeth;
	struct rw_flow *owner = q ? q : f;
	uint32_t psn = p->bth.psn;

	if (owner->msn_valid && rw_psn_diff(ae->msn, owner->last_msn) < 0) {
		owner->msn_regressions++;
		n->flags |= RW_N_MSN_REGRESS;
	}
	owner->msn_valid = 1;
	owner->last_msn = ae->msn;

	if (ae->kind == RW_AETH_ACK) {
		const struct rw_pending *last = NULL;
		struct rw_pending copy;
		uint32_t c = q ? pend_ack(q, psn, p->op->op == RW_OP_READ_RESP, &last, &copy) : 0;
		if (p->op->op == RW_OP_ACK) {
			owner->acks++;
			owner->acked_psns += c;
			n->flags |= RW_N_ACK;
			n->ack_psn = psn;
			n->ack_count = c;
			if (last) {
				n->latency_ns = ts - last->ts;
				n->req_frame = last->frame;
				hist_add(&owner->ack_lat, n->latency_ns);
			}
		}
		return;
	}
	uint8_t k = nak_kind_of(ae);
	owner->naks[k]++;
	n->flags |= RW_N_NAK;
	n->nak_kind = k;
	n->ack_psn = psn;
	if (q) {
		int i = pend_find(q, psn, -1);
		if (i >= 0)
			n->req_frame = PEND(q, i)->frame;
		if (k == RW_NAKK_PSN_SEQ) {
			q->nak_psn = psn;
			q->nak_wait = 1;
			/* IBA 9.7.5.2.2: a sequence-error NAK acknowledges every
			 * request before the PSN it names. */
			const struct rw_pending *last;
			struct rw_pending copy;
			owner->acked_psns += pend_ack(q, psn_add(psn, RW_PSN_MASK), 0, &last, &copy);
		}
	}
}

static void handle_response(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
			    uint64_t ts, struct rw_note *n)
{
	const struct rw_opcode_info *op = p->op;
	struct rw_flow *q = peer_of(a, f, p->bth.psn);
	f->has_responses = 1;

	if (op->op == RW_OP_READ_RESP) {
		uint32_t fl = psn_track(f, p->bth.psn, n);
		n->flags |= fl;
		if (q) {
			int i = pend_find(q, p->bth.psn, 1);
			if (i >= 0) {
				n->flags |= RW_N_READ_MATCH;
				n->req_frame = PEND(q, i)->frame;
				if (op->flags & RW_OPF_LAST) {
					n->latency_ns = ts - PEND(q, i)->ts;
					hist_add(&q->read_lat, n->latency_ns);
					pend_remove(q, (unsigned)i);
				}
			}
		}
		if (fl & RW_N_NEW)
			msg_account(f, q ? q : f, p->bth.opcode, p->bth.psn, p->payload_len, n);
	} else if (op->op == RW_OP_ATOMIC_ACK && q && p->aeth.kind == RW_AETH_ACK) {
		int i = pend_find(q, p->bth.psn, 2);
		if (i >= 0) {
			n->flags |= RW_N_ATOMIC_MATCH;
			n->req_frame = PEND(q, i)->frame;
			n->latency_ns = ts - PEND(q, i)->ts;
			hist_add(&q->atomic_lat, n->latency_ns);
			pend_remove(q, (unsigned)i);
		}
	}
	if (p->hdrs & RW_HDR_AETH)
		handle_aeth(a, f, q, p, ts, n);
}

/* ---- the responder's view of the request stream ----
 *
 * Messages are assembled in PSN order, as the responder takes them (IBA
 * 9.7.5: it accepts only the expected PSN). A request ahead of a hole is held
 * (its PSN, opcode and length only) until the hole is filled by a resend or
 * a late packet; a resend of what was assembled already is ignored. When
 * the hole is never filled (the capture lost the packet, not the network),
 * the held requests are taken up in PSN order once the hold is full, or at
 * the end of the capture, and the message the hole cut counts as
 * incomplete. UC is treated alike: it has no resends, but the hold still
 * repairs packets reordered in flight. */

static uint32_t req_units(uint8_t opcode, uint32_t dmalen, uint32_t *slack)
{
	*slack = 0;
	if (rw_opcode(opcode)->op != RW_OP_READ_REQ)
		return 1;
	/* A READ's responses use PSNs psn .. psn+k-1, k = ceil(len/MTU), with
	 * the MTU unknown: anything from 4096-byte to 256-byte segments. */
	uint32_t kmin = dmalen ? (dmalen + 4095) / 4096 : 1, kmax = dmalen ? (dmalen + 255) / 256 : 1;
	*slack = kmax - kmin;
	return kmin;
}

static void assemble(struct rw_flow *f, uint8_t opcode, uint32_t psn, uint32_t len,
		     struct rw_note *n)
{
	uint32_t slack;
	f->msg_psn = psn_add(psn, req_units(opcode, len, &slack));
	f->msg_slack = slack;
	if (rw_opcode(opcode)->op != RW_OP_READ_REQ)
		msg_account(f, f, opcode, psn, len, n);
}

static int takes(const struct rw_flow *f, uint32_t psn)
{
	int32_t d = rw_psn_diff(psn, f->msg_psn);
	return d >= 0 && (uint32_t)d <= f->msg_slack;
}

/* Takes every held request that continues the stream; drops the ones the
 * stream has passed. */
static void drain(struct rw_flow *f, struct rw_note *n)
{
	int progress = 1;
	while (progress && f->nhold) {
		progress = 0;
		for (unsigned i = 0; i < f->nhold;) {
			uint32_t psn = f->hold[i].psn_op >> 8;
			if (rw_psn_diff(psn, f->msg_psn) < 0) {
				f->hold[i] = f->hold[--f->nhold];
				continue;
			}
			if (takes(f, psn)) {
				uint8_t opcode = (uint8_t)f->hold[i].psn_op;
				uint32_t len = f->hold[i].len;
				f->hold[i] = f->hold[--f->nhold];
				assemble(f, opcode, psn, len, n);
				progress = 1;
				continue;
			}
			i++;
		}
	}
}

/* Gives the hole up: the stream goes on from the lowest held PSN. */
static void give_up_hole(struct rw_flow *f, struct rw_note *n)
{
	while (f->nhold) {
		unsigned lo = 0;
		for (unsigned i = 1; i < f->nhold; i++)
			if (rw_psn_diff(f->hold[i].psn_op >> 8, f->hold[lo].psn_op >> 8) < 0)
				lo = i;
		if (f->msg_open) {
			f->msg_open = 0;
			f->msg_incomplete++;
			n->flags |= RW_N_MSG_BROKEN;
		}
		f->msg_psn = f->hold[lo].psn_op >> 8;
		f->msg_slack = 0;
		drain(f, n);
	}
}

static void take_request(struct rw_flow *f, const struct rw_packet *p, struct rw_note *n)
{
	uint32_t psn = p->bth.psn;
	uint32_t len = p->op->op == RW_OP_READ_REQ ? p->reth.dmalen : p->payload_len;

	if (!f->msg_psn_valid) {
		f->msg_psn_valid = 1;
		f->msg_psn = psn;
	}
	if (rw_psn_diff(psn, f->msg_psn) < 0)
		return; /* assembled before: a resend */
	if (takes(f, psn)) {
		assemble(f, p->bth.opcode, psn, len, n);
		drain(f, n);
		return;
	}
	for (unsigned i = 0; i < f->nhold; i++)
		if (f->hold[i].psn_op >> 8 == psn)
			return; /* held already */
	if (f->nhold == RW_HOLD) {
		if (f->nak_wait && f->nak_psn == f->msg_psn)
			return; /* the resend was asked for: it will bring this one again */
		give_up_hole(f, n);
		take_request(f, p, n);
		return;
	}
	f->hold[f->nhold].psn_op = psn << 8 | p->bth.opcode;
	f->hold[f->nhold].len = len;
	f->nhold++;
}

static void handle_request(struct rw_flow *f, const struct rw_packet *p, uint64_t ts,
			   uint64_t frame, struct rw_note *n)
{
	const struct rw_opcode_info *op = p->op;
	int atomic = op->op == RW_OP_CMP_SWAP || op->op == RW_OP_FETCH_ADD;

	f->has_requests = 1;
	if (op->transport == RW_TRANSPORT_UD) {
		/* Several senders share a UD QP: their PSNs interleave, so only
		 * messages are counted. */
		n->flags |= RW_N_NEW;
		msg_account(f, f, p->bth.opcode, p->bth.psn, p->payload_len, n);
		return;
	}
	uint32_t fl = psn_track(f, p->bth.psn, n);
	n->flags |= fl;
	int reliable = op->transport == RW_TRANSPORT_RC || op->transport == RW_TRANSPORT_XRC ||
		       op->transport == RW_TRANSPORT_RD;
	if (op->op == RW_OP_READ_REQ && (fl & RW_N_NEW)) {
		uint32_t slack, kmin = req_units(p->bth.opcode, p->reth.dmalen, &slack);
		psn_consume(f, kmin - 1);
		f->read_slack = slack;
	}
	if (reliable) {
		uint32_t slack, k = req_units(p->bth.opcode, p->reth.dmalen, &slack);
		pend_push(f, p->bth.psn, k + slack, op->op == RW_OP_READ_REQ ? 1 : atomic ? 2 : 0,
			  ts, frame);
	}
	take_request(f, p, n);
}

/* ---- ECN and CNP ---- */

static void ce_push(struct rw_flow *f, uint64_t ts, uint64_t frame)
{
	unsigned i = (f->ce_head + f->ce_n) % RW_CE_RING;
	if (f->ce_n == RW_CE_RING)
		f->ce_head = (f->ce_head + 1) % RW_CE_RING;
	else
		f->ce_n++;
	f->ce[i].ts = ts;
	f->ce[i].frame = frame;
	f->ce_last_ns = ts;
}

/* A CNP goes from the notification point (the receiver of CE-marked data)
 * back to the reaction point, addressed to the sender's QP: the same key as
 * the responder's ACKs, so the paired request flow is the one it slows. For
 * unpaired flows (UC, or ACKs not captured), the request flow in the
 * reverse direction with the most recent CE mark (then the most recent
 * packet) is taken. */
static void handle_cnp(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts, struct rw_note *n)
{
	struct rw_flow *t = f->peer >= 0 ? &a->flows[f->peer] : NULL;
	if (!t) {
		uint64_t best_ce = 0, best_last = 0;
		for (uint32_t i = 0; i < a->nflows; i++) {
			struct rw_flow *q = &a->flows[i];
			if (!q->has_requests || q->key.family != f->key.family ||
			    memcmp(q->key.src, f->key.dst, 16) || memcmp(q->key.dst, f->key.src, 16))
				continue;
			if (!t || q->ce_last_ns > best_ce ||
			    (q->ce_last_ns == best_ce && q->last_ns > best_last)) {
				t = q;
				best_ce = q->ce_last_ns;
				best_last = q->last_ns;
			}
		}
	}
	struct rw_flow *owner = t ? t : f;
	n->cnp_flow = flow_index(a, owner);
	owner->cnps++;
	if (owner->cnp_last_ns) {
		uint64_t iv = ts - owner->cnp_last_ns;
		if (!owner->cnp_min_interval_ns || iv < owner->cnp_min_interval_ns)
			owner->cnp_min_interval_ns = iv;
	}
	owner->cnp_last_ns = ts;

	uint32_t linked = 0;
	if (t) {
		/* Take every CE mark of the window, oldest first; each CE mark
		 * explains at most one CNP. */
		while (t->ce_n) {
			uint64_t cts = t->ce[t->ce_head].ts;
			if (cts > ts)
				break;
			if (ts - cts <= a->cfg.cnp_window_ns) {
				if (!linked)
					n->ce_frame = t->ce[t->ce_head].frame;
				linked++;
			}
			t->ce_head = (t->ce_head + 1) % RW_CE_RING;
			t->ce_n--;
		}
	}
	if (linked) {
		n->flags |= RW_N_CNP_LINKED;
		n->ce_count = linked;
	} else {
		a->totals.cnps_unlinked++;
	}
}

/* ---- PFC / PAUSE ---- */

static void pause_end(struct rw_pfc_prio *s, uint64_t end)
{
	uint64_t run = end > s->run_start_ns ? end - s->run_start_ns : 0;
	if (run > s->longest_ns)
		s->longest_ns = run;
	s->until_ns = 0;
	s->in_storm = 0;
}

static void pause_apply(struct rw_analyzer *a, struct rw_pfc_prio *s, uint16_t quanta, uint64_t ts,
			uint64_t *asked)
{
	uint64_t dur = (uint64_t)(rw_pause_quanta_ns(quanta, a->cfg.link_gbps) + 0.5);
	*asked = dur;
	if (s->until_ns && s->until_ns <= ts)
		pause_end(s, s->until_ns); /* the previous pause ran out by itself */
	if (quanta == 0) {
		/* XON: resume now; time already counted past now is given back. */
		s->xon++;
		if (s->until_ns > ts) {
			s->paused_ns -= s->until_ns - ts;
			pause_end(s, ts);
		}
		return;
	}
	s->xoff++;
	uint64_t end = ts + dur;
	if (s->until_ns > ts) {
		if (end > s->until_ns) {
			s->paused_ns += end - s->until_ns;
			s->until_ns = end;
		}
	} else {
		s->run_start_ns = ts;
		s->paused_ns += dur;
		s->until_ns = end;
	}
	/* A storm is one continuous pause longer than the threshold; counted
	 * once, when the refreshed pause first reaches past the threshold. */
	if (!s->in_storm && s->until_ns - s->run_start_ns > a->cfg.storm_ns) {
		s->storms++;
		s->in_storm = 1;
	}
}

static void handle_macctrl(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts,
			   struct rw_note *n)
{
	n->flags |= RW_N_PFC;
	memset(n->pause_ns, 0, sizeof(n->pause_ns));
	if (p->carrier == RW_CARRIER_PAUSE) {
		struct rw_pfc_prio *s = &a->totals.pfc[RW_PAUSE_ALL];
		s->frames++;
		pause_apply(a, s, p->macctrl.quanta[0], ts, &n->pause_ns[RW_PAUSE_ALL]);
		return;
	}
	for (unsigned i = 0; i < RW_PFC_PRIORITIES; i++) {
		if (!(p->macctrl.cev >> i & 1))
			continue;
		a->totals.pfc[i].frames++;
		pause_apply(a, &a->totals.pfc[i], p->macctrl.quanta[i], ts, &n->pause_ns[i]);
	}
}

static uint8_t prio_of(const struct rw_packet *p)
{
	if (p->n_vlan)
		return p->vlan[0].pcp; /* the outer tag is what the link's PFC sees */
	if (p->present & RW_P_IPV4)
		return p->ipv4.dscp >> 3;
	if (p->present & RW_P_IPV6)
		return p->ipv6.dscp >> 3;
	return 0;
}

static int paused(const struct rw_analyzer *a, uint8_t prio, uint64_t ts)
{
	return a->totals.pfc[prio & 7].until_ns > ts || a->totals.pfc[RW_PAUSE_ALL].until_ns > ts;
}

void rw_analyzer_packet(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts,
			uint64_t frame, struct rw_note *note)
{
	struct rw_note scratch;
	struct rw_note *n = note ? note : &scratch;
	struct rw_totals *t = &a->totals;

	/* pause_ns (last, the largest part) is only written for PFC frames. */
	memset(n, 0, offsetof(struct rw_note, pause_ns));
	n->flow = -1;
	n->cnp_flow = -1;
	if (!t->packets)
		t->first_ns = ts;
	t->last_ns = ts;
	t->packets++;
	t->bytes += p->wirelen;
	t->by_carrier[(unsigned)p->carrier < RW_CARRIER_COUNT ? p->carrier : 0]++;
	if (p->icrc_status == RW_CRC_OK)
		t->icrc_ok++;
	else if (p->icrc_status == RW_CRC_BAD)
		t->icrc_bad++;
	if (p->vcrc_status == RW_CRC_OK)
		t->vcrc_ok++;
	else if (p->vcrc_status == RW_CRC_BAD)
		t->vcrc_bad++;
	if (p->err == RW_ERR_TRUNCATED)
		t->truncated++;
	else if (p->err != RW_OK)
		t->decode_errors++;

	if (p->present & RW_P_MACCTRL) {
		handle_macctrl(a, p, ts, n);
		return;
	}
	if (!(p->present & RW_P_BTH) || !p->op || !(p->op->flags & RW_OPF_VALID))
		return;
	struct rw_flow_key k;
	if (!key_of(p, &k))
		return;
	struct rw_flow *f = flow_get(a, &k, 1);
	if (!f) {
		t->untracked++;
		return;
	}
	n->flow = flow_index(a, f);
	if (!f->packets)
		f->first_ns = ts;
	f->last_ns = ts;
	f->packets++;
	f->bytes += p->wirelen;
	f->payload_bytes += p->payload_len;
	f->transport = p->op->transport;
	f->prio = prio_of(p);
	if (p->icrc_status == RW_CRC_BAD)
		f->icrc_bad++;
	if (p->vcrc_status == RW_CRC_BAD)
		f->vcrc_bad++;
	if (paused(a, f->prio, ts)) {
		f->pkts_while_paused++;
		n->flags |= RW_N_PAUSED;
	}
	if (p->present & (RW_P_IPV4 | RW_P_IPV6)) {
		uint8_t ecn = p->present & RW_P_IPV4 ? p->ipv4.ecn : p->ipv6.ecn;
		f->ecn[ecn & 3]++;
		if (ecn == RW_ECN_CE) {
			n->flags |= RW_N_CE;
			ce_push(f, ts, frame);
		}
	}
	/* A packet cut by the snapshot length still counts for PSNs and
	 * messages: its headers were read; only payload bytes are missing. */
	if (p->op->op == RW_OP_CNP)
		handle_cnp(a, f, ts, n);
	else if (p->op->flags & RW_OPF_RESPONSE)
		handle_response(a, f, p, ts, n);
	else if (p->op->flags & RW_OPF_REQUEST)
		handle_request(f, p, ts, frame, n);
}

void rw_analyzer_finish(struct rw_analyzer *a, uint64_t ts)
{
	for (uint32_t i = 0; i < a->nflows; i++) {
		struct rw_flow *f = &a->flows[i];
		struct rw_note n;
		give_up_hole(f, &n);
		if (f->msg_open) {
			f->msg_incomplete++;
			f->msg_open = 0;
		}
	}
	for (unsigned i = 0; i <= RW_PFC_PRIORITIES; i++) {
		struct rw_pfc_prio *s = &a->totals.pfc[i];
		if (!s->until_ns)
			continue;
		if (s->until_ns > ts) {
			/* Only the paused time inside the capture is counted. */
			s->paused_ns -= s->until_ns - ts;
			pause_end(s, ts);
		} else {
			pause_end(s, s->until_ns);
		}
	}
}

uint32_t rw_analyzer_flow_count(const struct rw_analyzer *a)
{
	return a->nflows;
}

const struct rw_flow *rw_analyzer_flow(const struct rw_analyzer *a, uint32_t i)
{
	return i < a->nflows ? &a->flows[i] : NULL;
}

const struct rw_totals *rw_analyzer_totals(const struct rw_analyzer *a)
{
	return &a->totals;
}
