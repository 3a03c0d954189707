/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-QP analysis engine, the core: memory, the flow table, address pairs,
 * and the dispatch of each decoded packet to the engine's parts (see
 * analyze_int.h). rocewire/analyze.h describes the model. */
#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "rocewire/wire.h"

static void *default_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return calloc(1, size);
}

static void default_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static void cfg_defaults(struct rw_analyze_cfg *c, const struct rw_analyze_cfg *in)
{
	memset(c, 0, sizeof(*c));
	if (in)
		*c = *in;
	if (!c->mem_limit)
		c->mem_limit = (size_t)1 << 30;
	if (c->link_gbps <= 0)
		c->link_gbps = 100;
	if (!c->cnp_window_ns)
		c->cnp_window_ns = 1000000;
	if (!c->storm_ns)
		c->storm_ns = 10000000;
	if (!c->reuse_idle_ns)
		c->reuse_idle_ns = 1000000;
	if (!c->cnp_min_ns)
		c->cnp_min_ns = 4000;
	if (!c->cnp_nak_ns)
		c->cnp_nak_ns = 10000;
	if (!c->rto_ns)
		c->rto_ns = RW_RTO_DEFAULT_NS;
	if (c->cnp_mode >= RW_CNP_MODES)
		c->cnp_mode = RW_CNP_PER_QP;
	c->psn_window = PSN_WINDOW;
	if (!c->alloc || !c->free) {
		c->alloc = default_alloc;
		c->free = default_free;
	}
}

/* Every block is counted; all but the essential ones (the small bookkeeping
 * that says what was left out) stay under the limit. */
void *an_alloc(struct rw_analyzer *a, size_t size, int essential)
{
	if (!essential && a->mem_used + size > a->cfg.mem_limit)
		return NULL;
	void *p = a->cfg.alloc(a->cfg.alloc_ctx, size);
	if (p) {
		a->mem_used += size;
		a->totals.mem_bytes = a->mem_used;
	}
	return p;
}

void an_free(struct rw_analyzer *a, void *p, size_t size)
{
	if (!p)
		return;
	a->cfg.free(a->cfg.alloc_ctx, p);
	a->mem_used -= size;
	a->totals.mem_bytes = a->mem_used;
}

/* ---- keys ---- */

int an_key_of(const struct rw_packet *p, struct rw_flow_key *k)
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

int rw_flow_key_of(const struct rw_packet *p, struct rw_flow_key *k)
{
	return an_key_of(p, k);
}

static int key_eq(const struct rw_flow_key *a, const struct rw_flow_key *b)
{
	return a->family == b->family && a->dqpn == b->dqpn && memcmp(a->src, b->src, 16) == 0 &&
	       memcmp(a->dst, b->dst, 16) == 0;
}

/* Four 64-bit words of address and one of family+QPN, mixed with a
 * multiply-xorshift (much cheaper than a byte-wise hash per packet). */
static uint64_t addr_hash(uint8_t family, uint32_t qpn, const uint8_t *src, const uint8_t *dst)
{
	uint64_t w[4], h = ((uint64_t)family << 32 | qpn) * 0x9E3779B97F4A7C15ull;
	memcpy(w, src, 16);
	memcpy(w + 2, dst, 16);
	for (unsigned i = 0; i < 4; i++) {
		h ^= w[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
		h *= 0xFF51AFD7ED558CCDull;
	}
	return h ^ (h >> 33);
}

static uint32_t key_hash(const struct rw_flow_key *k)
{
	return (uint32_t)addr_hash(k->family, k->dqpn, k->src, k->dst);
}

/* ---- address pairs ---- */

static int pairs_grow(struct rw_analyzer *a)
{
	uint32_t cap = a->pairs_cap ? a->pairs_cap * 2 : 256;
	struct rw_addr_pair *np = an_alloc(a, (size_t)cap * sizeof(*np), 0);
	uint32_t *ns = an_alloc(a, (size_t)cap * 2 * sizeof(*ns), 0);
	if (!np || !ns) {
		an_free(a, np, (size_t)cap * sizeof(*np));
		an_free(a, ns, (size_t)cap * 2 * sizeof(*ns));
		return 0;
	}
	if (a->pairs) {
		memcpy(np, a->pairs, (size_t)a->npairs * sizeof(*np));
		an_free(a, a->pairs, (size_t)a->pairs_cap * sizeof(*np));
		an_free(a, a->pair_slots, (size_t)a->pairs_cap * 2 * sizeof(*ns));
	}
	a->pairs = np;
	a->pair_slots = ns;
	a->pairs_cap = cap;
	a->pair_slots_mask = cap * 2 - 1;
	for (uint32_t i = 0; i < a->npairs; i++) {
		const struct rw_addr_pair *ap = &a->pairs[i];
		uint32_t s = (uint32_t)addr_hash(ap->family, 0, ap->src, ap->dst) & a->pair_slots_mask;
		while (ns[s])
			s = (s + 1) & a->pair_slots_mask;
		ns[s] = i + 1;
	}
	return 1;
}

int32_t an_pair_lookup(struct rw_analyzer *a, uint8_t family, const uint8_t *src,
		       const uint8_t *dst, int create)
{
	uint32_t h = (uint32_t)addr_hash(family, 0, src, dst);
	if (a->pairs) {
		for (uint32_t s = h & a->pair_slots_mask;; s = (s + 1) & a->pair_slots_mask) {
			uint32_t v = a->pair_slots[s];
			if (!v)
				break;
			const struct rw_addr_pair *ap = &a->pairs[v - 1];
			if (ap->family == family && !memcmp(ap->src, src, 16) && !memcmp(ap->dst, dst, 16))
				return (int32_t)(v - 1);
		}
	}
	if (!create)
		return -1;
	if (a->npairs == a->pairs_cap && !pairs_grow(a))
		return -1;
	struct rw_addr_pair *ap = &a->pairs[a->npairs];
	ap->family = family;
	memcpy(ap->src, src, 16);
	memcpy(ap->dst, dst, 16);
	ap->last_ce_flow = ap->last_req_flow = ap->first_req_flow = -1;
	uint32_t s = h & a->pair_slots_mask;
	while (a->pair_slots[s])
		s = (s + 1) & a->pair_slots_mask;
	a->pair_slots[s] = ++a->npairs;
	return (int32_t)(a->npairs - 1);
}

/* ---- the flow table ---- */

static int slots_grow(struct rw_analyzer *a)
{
	uint32_t n = a->slots ? (a->slots_mask + 1) * 2 : 1024;
	uint32_t *ns = an_alloc(a, (size_t)n * sizeof(*ns), 0);
	if (!ns)
		return 0;
	/* Only each key's latest conversation is in the table. */
	for (uint32_t i = 0; a->slots && i <= a->slots_mask; i++) {
		uint32_t v = a->slots[i];
		if (!v)
			continue;
		uint32_t s = key_hash(&flow_at(a, v - 1)->key) & (n - 1);
		while (ns[s])
			s = (s + 1) & (n - 1);
		ns[s] = v;
	}
	if (a->slots)
		an_free(a, a->slots, (size_t)(a->slots_mask + 1) * sizeof(*ns));
	a->slots = ns;
	a->slots_mask = n - 1;
	return 1;
}

/* A new flow record for key k (not yet in the table). */
static struct rw_flow *flow_make(struct rw_analyzer *a, const struct rw_flow_key *k)
{
	if (a->cfg.max_flows && a->nflows >= a->cfg.max_flows)
		return NULL;
	if (a->nflows == a->flows_cap) {
		if (a->nchunks == a->chunks_cap) {
			uint32_t cap = a->chunks_cap ? a->chunks_cap * 2 : 16;
			struct rw_flow **nc = an_alloc(a, cap * sizeof(*nc), 0);
			if (!nc)
				return NULL;
			if (a->chunks) {
				memcpy(nc, a->chunks, a->nchunks * sizeof(*nc));
				an_free(a, a->chunks, a->chunks_cap * sizeof(*nc));
			}
			a->chunks = nc;
			a->chunks_cap = cap;
		}
		struct rw_flow *c = an_alloc(a, FLOW_CHUNK * sizeof(*c), 0);
		if (!c)
			return NULL;
		a->chunks[a->nchunks++] = c;
		a->flows_cap += FLOW_CHUNK;
	}
	int32_t ap = an_pair_lookup(a, k->family, k->src, k->dst, 1);
	if (ap < 0)
		return NULL;
	struct rw_flow *f = flow_at(a, a->nflows);
	memset(f, 0, sizeof(*f));
	f->key = *k;
	f->index = (int32_t)a->nflows++;
	f->peer = -1;
	f->prev_conv = -1;
	f->cm = -1;
	f->next_req_in_pair = -1;
	f->conversation = 1;
	f->addr_pair = ap;
	return f;
}

struct rw_flow *an_flow_get(struct rw_analyzer *a, const struct rw_flow_key *k)
{
	/* Packets of one flow come in runs (the packets of a message). */
	if (a->last && key_eq(&a->last->key, k))
		return a->last;
	uint32_t i = key_hash(k) & a->slots_mask;
	for (;;) {
		uint32_t s = a->slots[i];
		if (!s)
			break;
		if (key_eq(&flow_at(a, s - 1)->key, k))
			return a->last = flow_at(a, s - 1);
		i = (i + 1) & a->slots_mask;
	}
	if ((a->nflows + 1) * 2 > a->slots_mask + 1) {
		if (!slots_grow(a))
			return NULL;
		return an_flow_get(a, k);
	}
	struct rw_flow *f = flow_make(a, k);
	if (!f)
		return NULL;
	a->slots[i] = (uint32_t)f->index + 1;
	return a->last = f;
}

/* f's conversation ended, and its peer's: the key's next packet opens a
 * new flow. */
void an_close(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts)
{
	if (!f->closed) {
		msg_finish(a, f, ts);
		f->closed = 1;
	}
	if (f->peer >= 0) {
		struct rw_flow *q = flow_at(a, (uint32_t)f->peer);
		if (q->peer == f->index && !q->closed) {
			msg_finish(a, q, ts);
			q->closed = 1;
		}
	}
}

/* The key of f starts a new conversation (its QP number was reused): f is
 * closed as the capture end would close it, its pair undone (the peer's QP
 * was replaced too: its next packet opens a new flow), and a new flow with
 * the same key takes its place in the table. */
struct rw_flow *an_new_conversation(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts)
{
	struct rw_flow_key k = f->key;
	int32_t old = f->index;
	uint32_t conv = f->conversation;
	struct rw_flow *nf = flow_make(a, &k);
	if (!nf)
		return f; /* no room: the conversations stay merged */
	f = flow_at(a, (uint32_t)old); /* (flow_make never moves flows; kept for clarity) */
	an_close(a, f, ts);
	a->totals.conversations_reused++;
	nf->prev_conv = old;
	nf->conversation = conv + 1;
	uint32_t i = key_hash(&k) & a->slots_mask;
	while (a->slots[i] != (uint32_t)old + 1)
		i = (i + 1) & a->slots_mask;
	a->slots[i] = (uint32_t)nf->index + 1;
	a->last = nf;
	return nf;
}

/* Distinct keys left out, counted exactly while the set fits its bound. */
static void untracked_key(struct rw_analyzer *a, const struct rw_flow_key *k)
{
	uint64_t h = addr_hash(k->family, k->dqpn, k->src, k->dst) | 1;
	if (a->ukeys_full)
		return;
	if ((a->ukeys_used + 1) * 2 > (a->ukeys ? a->ukeys_mask + 1 : 0)) {
		uint32_t n = a->ukeys ? (a->ukeys_mask + 1) * 2 : 1024;
		uint64_t *nk = n <= (1u << 22) ? an_alloc(a, (size_t)n * sizeof(*nk), 1) : NULL;
		if (!nk) {
			a->ukeys_full = 1;
			return;
		}
		for (uint32_t i = 0; a->ukeys && i <= a->ukeys_mask; i++) {
			if (!a->ukeys[i])
				continue;
			uint32_t s = (uint32_t)(a->ukeys[i] >> 20) & (n - 1);
			while (nk[s])
				s = (s + 1) & (n - 1);
			nk[s] = a->ukeys[i];
		}
		if (a->ukeys)
			an_free(a, a->ukeys, (size_t)(a->ukeys_mask + 1) * sizeof(*nk));
		a->ukeys = nk;
		a->ukeys_mask = n - 1;
	}
	uint32_t s = (uint32_t)(h >> 20) & a->ukeys_mask;
	while (a->ukeys[s]) {
		if (a->ukeys[s] == h)
			return;
		s = (s + 1) & a->ukeys_mask;
	}
	a->ukeys[s] = h;
	a->ukeys_used++;
	a->totals.untracked_flows++;
}

struct rw_analyzer *rw_analyzer_new(const struct rw_analyze_cfg *cfg)
{
	struct rw_analyze_cfg c;
	cfg_defaults(&c, cfg);
	struct rw_analyzer *a = c.alloc(c.alloc_ctx, sizeof(*a));
	if (!a)
		return NULL;
	memset(a, 0, sizeof(*a));
	a->cfg = c;
	a->mem_used = sizeof(*a);
	if (!slots_grow(a)) {
		c.free(c.alloc_ctx, a);
		return NULL;
	}
	return a;
}

static void flow_release(struct rw_analyzer *a, struct rw_flow *f)
{
	if (f->pend)
		an_free(a, f->pend, sizeof(*f->pend) + f->pend->cap * sizeof(f->pend->e[0]));
	msg_release(a, f);
	ce_release(a, f);
	an_free(a, f->rsp, sizeof(*f->rsp));
	lat_release(a, &f->ack_lat);
	lat_release(a, &f->read_lat);
	lat_release(a, &f->atomic_lat);
	conf_release(a, f);
	f->pend = NULL;
	f->rsp = NULL;
}

void rw_analyzer_free(struct rw_analyzer *a)
{
	if (!a)
		return;
	for (uint32_t i = 0; i < a->nflows; i++)
		flow_release(a, flow_at(a, i));
	for (uint32_t i = 0; i < a->nchunks; i++)
		an_free(a, a->chunks[i], FLOW_CHUNK * sizeof(struct rw_flow));
	an_free(a, a->chunks, a->chunks_cap * sizeof(*a->chunks));
	an_free(a, a->slots, (size_t)(a->slots_mask + 1) * sizeof(*a->slots));
	an_free(a, a->pairs, (size_t)a->pairs_cap * sizeof(*a->pairs));
	an_free(a, a->pair_slots, (size_t)a->pairs_cap * 2 * sizeof(*a->pair_slots));
	if (a->pix)
		an_free(a, a->pix, (size_t)(a->pix_mask + 1) * sizeof(*a->pix));
	if (a->ukeys)
		an_free(a, a->ukeys, (size_t)(a->ukeys_mask + 1) * sizeof(*a->ukeys));
	pause_release(a);
	cm_release(a);
	a->cfg.free(a->cfg.alloc_ctx, a);
}

/* ---- dispatch ---- */

static void handle_request(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
			   uint64_t ts, uint64_t frame, struct rw_note *n)
{
	const struct rw_opcode_info *op = p->op;
	int atomic = op->op == RW_OP_CMP_SWAP || op->op == RW_OP_FETCH_ADD;

	struct rw_addr_pair *ap = &a->pairs[f->addr_pair];
	if (!f->has_requests) {
		f->has_requests = 1;
		f->next_req_in_pair = ap->first_req_flow;
		ap->first_req_flow = f->index;
	}
	ap->last_req_flow = f->index;
	if (n->flags & RW_N_CE)
		ap->last_ce_flow = f->index;
	if (op->transport == RW_TRANSPORT_UD) {
		/* Several senders share a UD QP: their PSNs interleave, so only
		 * messages are counted. */
		n->flags |= RW_N_NEW;
		if (p->icrc_status != RW_CRC_BAD) /* dropped by the receiver: no message */
			msg_account(a, f, f, p->bth.opcode, p->bth.psn, p->payload_len, -1, 0, frame, n);
		return;
	}
	int reliable = op->transport == RW_TRANSPORT_RC || op->transport == RW_TRANSPORT_XRC ||
		       op->transport == RW_TRANSPORT_RD;
	/* The responder's READ responses went past this PSN: it processed
	 * it already (in PSN order), so this copy is a second one. */
	int answered = 0;
	if (reliable && f->peer >= 0) {
		const struct rw_flow *q = flow_at(a, (uint32_t)f->peer);
		if (q->rsp && q->rsp->valid) {
			int32_t d = rw_psn_diff(q->rsp->high_psn, p->bth.psn);
			answered = d > 0 && (uint32_t)d <= PSN_WINDOW;
		}
	}
	int was_valid = f->req.valid;
	uint32_t fl = seq_track(f, &f->req, p->bth.psn, reliable, answered, n);
	n->flags |= fl;
	if (!was_valid && reliable && f->peer < 0)
		pair_naks_offer(a, f, ts);
	if (packet_shows_mtu(p))
		msg_mtu_shown(f, p->payload_len);
	if (p->payload_len && p->icrc_status != RW_CRC_BAD)
		mtu_floor_note(f, p->payload_len);
	uint32_t slack, k = msg_req_units(p->bth.opcode, p->reth.dmalen, f->cs.read_mtu,
					  f->cs.mtu_floor, &slack);
	if (op->op == RW_OP_READ_REQ)
		seq_read_span(&f->req, p->bth.psn, k, slack);
	if (n->flags & RW_N_CE)
		conf_on_ce(a, f, ts);
	if (reliable) {
		/* A new request, or one a go-back-N run resends, ends the range
		 * of every READ pending before it, unless it is a READ
		 * re-issuing one of them. */
		int reissue = op->op == RW_OP_READ_REQ && pend_read_reissue(f, p->bth.psn, fl);
		if (!reissue && (fl & (RW_N_NEW | RW_N_RETRANS)))
			pend_clip_reads(f->pend, p->bth.psn);
		/* A READ sent again asks the responder for its responses
		 * again: the holes of the response stream are refilled by
		 * resends, not by late packets. */
		if ((reissue || (fl & RW_N_RETRANS)) && op->op == RW_OP_READ_REQ && f->peer >= 0) {
			struct rw_flow *q = flow_at(a, (uint32_t)f->peer);
			if (q->rsp)
				seq_resend_asked(q->rsp);
		}
		conf_on_request(a, f, p, fl, reissue, ts, frame);
		uint8_t kind = op->op == RW_OP_READ_REQ ? PEND_READ : atomic ? PEND_ATOMIC : PEND_SEND;
		struct rw_pend *e = (fl & RW_N_RETRANS) && kind != PEND_SEND
					    ? pend_again(f->pend, p->bth.psn, k + slack, kind)
					    : NULL;
		if (!e) {
			e = pend_push(a, f, p->bth.psn, k + slack, kind, ts, frame);
			if (e)
				e->fresh = (fl & RW_N_NEW) != 0;
		}
		/* (a READ sent again inside the one left unanswered takes
		 * its answer over) */
		if (op->op == RW_OP_READ_REQ && f->cs.late_valid &&
		    (uint32_t)rw_psn_diff(p->bth.psn, f->cs.late_psn) < f->cs.late_npsn)
			f->cs.late_valid = 0;
		if (e && op->op == RW_OP_READ_REQ) {
			e->va = p->reth.va;
			e->len = p->reth.dmalen;
			e->exact = slack == 0;
		}
		if (fl & RW_N_NEW)
			pair_note_request(a, f, p->bth.psn,
					  p->bth.ackreq || (op->flags & RW_OPF_LAST));
		/* READs sent, by PSN (a new request at the PSN starts it
		 * over), and which of them the capture first saw after their
		 * responder had acknowledged past them: a requester waits for
		 * the first response of the others only (the late ones ask
		 * for what it had the chance to take). */
		if (op->op == RW_OP_READ_REQ && !f->rd_asked) {
			f->rd_asked = an_alloc(a, PSN_WINDOW / 8, 0);
			f->rd_late = an_alloc(a, PSN_WINDOW / 8, 0);
			f->rd_dropped = an_alloc(a, PSN_WINDOW / 8, 0);
		}
		if (f->rd_asked && ((fl & RW_N_NEW) || op->op == RW_OP_READ_REQ))
			psn_bit_put(f->rd_asked, p->bth.psn, op->op == RW_OP_READ_REQ);
		/* (a new READ's responses were dropped by no one yet) */
		if (f->rd_dropped && (fl & RW_N_NEW) && op->op == RW_OP_READ_REQ)
			psn_bits_put(f->rd_dropped, p->bth.psn, psn_add(p->bth.psn, k + slack - 1), 0);
		if (f->rd_late && ((fl & RW_N_NEW) || op->op != RW_OP_READ_REQ)) {
			const struct rw_flow *g = f->peer >= 0 ? flow_at(a, (uint32_t)f->peer) : NULL;
			int late = op->op == RW_OP_READ_REQ && g && rsp_answered_past(g, p->bth.psn, ts);
			if (late && read_answer_stopped(g, p->bth.psn))
				late = 0; /* (a re-issue from there: it waits) */
			psn_bit_put(f->rd_late, p->bth.psn, late);
		}
		if ((fl & RW_N_NEW) && f->peer >= 0) {
			struct rw_flow *g = flow_at(a, (uint32_t)f->peer);
			if (g->rd_answered)
				psn_bit_put(g->rd_answered, p->bth.psn, 0);
		}
	}
	msg_take_request(a, f, p, ts, frame, n);
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

static void count_totals(struct rw_totals *t, const struct rw_packet *p, uint64_t ts)
{
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
}

void rw_analyzer_packet(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts,
			uint64_t frame, struct rw_note *note)
{
	struct rw_note scratch;
	struct rw_note *n = note ? note : &scratch;

	/* pause_ns (last, the largest part) is only written for PFC frames. */
	memset(n, 0, offsetof(struct rw_note, pause_ns));
	n->flow = -1;
	n->cnp_flow = -1;
	count_totals(&a->totals, p, ts);

	if (p->present & RW_P_MACCTRL) {
		handle_macctrl(a, p, ts, n);
		return;
	}
	if (!(p->present & RW_P_BTH) || !p->op || !(p->op->flags & RW_OPF_VALID))
		return;
	/* A CM message may open or close the flows of a connection: before
	 * the MAD's own flow (QP 1) is counted, which it does not touch. */
	if ((p->present & RW_P_MAD) && p->mad.cm_msg != RW_CM_NONE)
		cm_packet(a, p, ts, frame);
	struct rw_flow_key k;
	if (!an_key_of(p, &k))
		return;
	struct rw_flow *f = an_flow_get(a, &k);
	if (f && f->closed) {
		f = an_new_conversation(a, f, ts);
		n->flags |= RW_N_NEW_CONV;
	} else if (f && (p->op->flags & RW_OPF_REQUEST) && f->req.valid &&
		   p->op->transport != RW_TRANSPORT_UD &&
		   seq_reused(f, &f->req, p->bth.psn, p->bth.opcode, ts, a->cfg.reuse_idle_ns)) {
		f = an_new_conversation(a, f, ts);
		n->flags |= RW_N_NEW_CONV;
	} else if (f && (p->hdrs & RW_HDR_AETH) && f->cs.rsp_msn_valid &&
		   ts - f->last_ns >= a->cfg.reuse_idle_ns &&
		   rw_psn_diff(p->aeth.msn, f->cs.rsp_msn) < 0) {
		/* A responder's MSN only grows within a connection: after a
		 * silence, one that went back is a new QP's. */
		f = an_new_conversation(a, f, ts);
		n->flags |= RW_N_NEW_CONV;
	}
	if (f && (p->hdrs & RW_HDR_AETH)) {
		f->cs.rsp_msn_valid = 1;
		f->cs.rsp_msn = p->aeth.msn;
	}
	if (!f || f->closed) {
		a->totals.untracked++;
		untracked_key(a, &k);
		return;
	}
	n->flow = f->index;
	if (!f->packets) {
		f->first_ns = ts;
		const struct rw_opcode_info *op = p->op;
		if ((op->flags & (RW_OPF_MIDDLE | RW_OPF_LAST)) && !(op->flags & RW_OPF_FIRST) &&
		    op->op != RW_OP_ACK && op->op != RW_OP_ATOMIC_ACK && op->op != RW_OP_CNP)
			f->first_mid_message = 1;
	}
	f->last_ns = ts;
	f->packets++;
	f->bytes += p->wirelen;
	f->payload_bytes += p->payload_len;
	/* A CNP travels on the key of the QP's answers (the responder's flow):
	 * the flow is `CNP` only while it carries nothing else. */
	if (p->op->transport != RW_TRANSPORT_CNP || f->packets == 1)
		f->transport = p->op->transport;
	f->prio = prio_of(p);
	if (p->icrc_status == RW_CRC_BAD)
		f->icrc_bad++;
	if (p->vcrc_status == RW_CRC_BAD)
		f->vcrc_bad++;
	if (pause_check(a, p, f, ts)) {
		f->pkts_while_paused++;
		n->flags |= RW_N_PAUSED;
	}
	if (p->present & (RW_P_IPV4 | RW_P_IPV6)) {
		uint8_t ecn = p->present & RW_P_IPV4 ? p->ipv4.ecn : p->ipv6.ecn;
		f->ecn[ecn & 3]++;
		if (ecn == RW_ECN_CE) {
			n->flags |= RW_N_CE;
			ce_push(a, f, ts, frame);
		}
	}
	/* A packet cut by the snapshot length still counts for PSNs and
	 * messages: its headers were read; only payload bytes are missing. */
	if (p->op->op == RW_OP_CNP)
		handle_cnp(a, f, ts, frame, n);
	else if (p->op->flags & RW_OPF_RESPONSE)
		handle_response(a, f, p, ts, frame, n);
	else if (p->op->flags & RW_OPF_REQUEST)
		handle_request(a, f, p, ts, frame, n);
}

void rw_analyzer_finish(struct rw_analyzer *a, uint64_t ts)
{
	for (uint32_t i = 0; i < a->nflows; i++) {
		conf_finish_naks(a, flow_at(a, i));
		msg_finish(a, flow_at(a, i), ts);
		conf_finish(a, flow_at(a, i), ts);
	}
	pause_finish(a, ts);
}

uint32_t rw_analyzer_flow_count(const struct rw_analyzer *a)
{
	return a->nflows;
}

const struct rw_flow *rw_analyzer_flow(const struct rw_analyzer *a, uint32_t i)
{
	return i < a->nflows ? flow_at(a, i) : NULL;
}

const struct rw_totals *rw_analyzer_totals(const struct rw_analyzer *a)
{
	return &a->totals;
}

const char *rw_nak_kind_key(enum rw_nak_kind k)
{
	static const char *const keys[] = {
		"psn_seq", "invalid_request", "remote_access", "remote_op", "invalid_rd", "rnr", "reserved",
	};
	_Static_assert(sizeof(keys) / sizeof(keys[0]) == RW_NAKK_COUNT, "keys: one entry per value");
	return (unsigned)k < RW_NAKK_COUNT ? keys[k] : "?";
}
