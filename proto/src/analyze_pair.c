/* SPDX-License-Identifier: BSD-3-Clause */
/* Pairing the two directions of a connection, outstanding requests, and
 * what responses say about them (ACK coverage and latency, NAKs, READ and
 * atomic matching).
 *
 * Nothing in a packet names the QP it comes from, so the responder's flow
 * (which carries the requester's QPN) is tied to the request flow by what it
 * echoes: ACKs and NAKs name a request PSN, READ responses and atomic ACKs
 * carry the request's PSN. Every request PSN of an unpaired reliable flow is
 * indexed by (address pair, PSN); a response of the reverse address pair
 * looks its PSN up, and pairs only when exactly one unpaired flow sent it
 * (two flows that sent the same PSN are not told apart by guessing: the next
 * response decides). This works wherever the capture starts, costs one
 * hash probe per response until paired, and none after. */
#include <string.h>

#include "analyze_int.h"

const char *rw_pair_how_key(enum rw_pair_how h)
{
	static const char *const keys[] = {"none", "ack", "nak", "read_response",
							"atomic_ack", "cm"};
	_Static_assert(sizeof(keys) / sizeof(keys[0]) == RW_PAIR_COUNT, "keys: one entry per value");
	return (unsigned)h < RW_PAIR_COUNT ? keys[h] : "?";
}

/* ---- the PSN index ---- */

static uint32_t pix_hash(uint32_t pair1, uint32_t psn)
{
	uint64_t h = ((uint64_t)pair1 << 24 | psn) * 0x9E3779B97F4A7C15ull;
	return (uint32_t)(h >> 32);
}

/* An entry is live while its flow is unpaired and open and the PSN is still
 * in the flow's window of seen PSNs. */
static int pix_live(struct rw_analyzer *a, const struct rw_pix_entry *e)
{
	const struct rw_flow *q = flow_at(a, e->flow);
	if (q->peer >= 0 || q->closed || !q->req.valid)
		return 0;
	int32_t d = rw_psn_diff(q->req.high_psn, e->psn);
	return d > 0 && (uint32_t)d <= PSN_WINDOW;
}

static void pix_put(struct rw_pix_entry *t, uint32_t mask, const struct rw_pix_entry *e)
{
	uint32_t i = pix_hash(e->pair1, e->psn) & mask;
	while (t[i].pair1)
		i = (i + 1) & mask;
	t[i] = *e;
}

/* Rebuilds the index without its stale entries, twice as large when the
 * live ones fill more than a quarter of it. Returns 0 if no room. */
static int pix_rebuild(struct rw_analyzer *a)
{
	uint32_t live = 0, size = a->pix ? a->pix_mask + 1 : 0;
	for (uint32_t i = 0; i < size; i++)
		if (a->pix[i].pair1 && pix_live(a, &a->pix[i]))
			live++;
	uint32_t nsize = size ? size : 4096;
	while (live * 4 >= nsize)
		nsize *= 2;
	struct rw_pix_entry *t = an_alloc(a, (size_t)nsize * sizeof(*t), 0);
	if (!t)
		return 0;
	for (uint32_t i = 0; i < size; i++)
		if (a->pix[i].pair1 && pix_live(a, &a->pix[i]))
			pix_put(t, nsize - 1, &a->pix[i]);
	if (a->pix)
		an_free(a, a->pix, (size_t)size * sizeof(*a->pix));
	a->pix = t;
	a->pix_mask = nsize - 1;
	a->pix_used = live;
	return 1;
}

/* A new request PSN of flow f: indexed while f is unpaired. asked: an ACK
 * of it is to be expected. */
void pair_note_request(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, int asked)
{
	if (f->peer >= 0)
		return;
	if ((!a->pix || (a->pix_used + 1) * 2 > a->pix_mask + 1) && !pix_rebuild(a))
		return;
	struct rw_pix_entry e = {(uint32_t)f->addr_pair + 1, psn, (uint32_t)f->index, asked != 0};
	pix_put(a->pix, a->pix_mask, &e);
	a->pix_used++;
}

static void pend_compact(struct rw_pend_ring *r);

/* The READs of q whose responses f carried before the two were paired (a
 * FIRST the response stream shows) were answered: their entries go, or a
 * later ACK past them would count them unanswered. */
static void pend_answered_before(struct rw_flow *q, const struct rw_flow *f)
{
	struct rw_pend_ring *r = q->pend;
	if (!r || !f->rsp)
		return;
	int gone = 0;
	for (uint32_t k = 0; k < r->n; k++) {
		struct rw_pend *e = PEND(r, k);
		/* (not one sent after the FIRST at its PSN came: that answered
		 * an earlier copy, IBA 9.7.5.1.4, and this one waits) */
		if (e->kind == PEND_READ && seq_seen(f->rsp, e->psn) &&
		    !(e->fresh && recent_has(&f->upf, e->psn, 0, e->ts))) {
			e->kind = PEND_DEAD;
			gone = 1;
		}
	}
	if (gone)
		pend_compact(r);
}

/* The figures a requester's flow keeps of the answers to it (NAKs, ACKs,
 * the READ messages, which msgs_by_op credits to the requester once
 * paired, MSN regressions) move from one flow to the other: to the
 * requester when a response flow pairs, back when the pairing is undone.
 * (The last MSN moves by each caller's rule.) */
static void answers_move(struct rw_flow *to, struct rw_flow *from)
{
	for (unsigned k = 0; k < RW_NAKK_COUNT; k++) {
		to->naks[k] += from->naks[k];
		from->naks[k] = 0;
	}
	to->msgs_by_op[2] += from->msgs_by_op[2];
	to->bytes_by_op[2] += from->bytes_by_op[2];
	from->msgs_by_op[2] = from->bytes_by_op[2] = 0;
	to->acks += from->acks;
	to->acked_psns += from->acked_psns;
	to->msn_regressions += from->msn_regressions;
	from->acks = from->acked_psns = from->msn_regressions = 0;
}

void pair_link(struct rw_flow *f, struct rw_flow *q, enum rw_pair_how how, uint32_t psn,
	       uint64_t frame)
{
	pend_answered_before(q, f);
	f->peer = q->index;
	q->peer = f->index;
	f->pair_how = q->pair_how = (uint8_t)how;
	f->pair_psn = q->pair_psn = psn;
	f->pair_frame = q->pair_frame = frame;
	/* Responses counted on the unpaired response flow answered q's
	 * requests: they are q's from now on. */
	answers_move(q, f);
	if (f->cs.read_mtu && !q->cs.read_mtu)
		msg_mtu_shown(q, f->cs.read_mtu); /* (the path MTU its READ responses showed) */
	if (f->msn_valid && !q->msn_valid) {
		q->msn_valid = 1;
		q->last_msn = f->last_msn;
	}
}

/* Pairing by elimination can be wrong (several QPs of a host pair send
 * the same PSNs, and one of them may not have shown itself yet): the
 * response flow f then acknowledges, in time, a PSN its peer q never sent —
 * impossible for q's own responder, whose answers follow the requests past
 * any one capture point; or a plain ACK names one of q's atomics. The two
 * part: what f's responses counted on q goes back to f (all of q's answer
 * figures came from its one peer), the latencies they gave q are dropped,
 * and f pairs again by what it echoes. */
static int pair_contradicted(struct rw_flow *q, const struct rw_packet *p)
{
	int plain = p->op->op == RW_OP_ACK && p->aeth.kind == RW_AETH_ACK;
	if ((!plain && p->op->op != RW_OP_ATOMIC_ACK) || !q->req.valid)
		return 0;
	/* An atomic is answered by an atomic ACK (IBA 9.7.5.1): a plain ACK
	 * naming one of q's atomics answers another QP's request — unless q
	 * has sent anything again: a responder acknowledges a duplicate
	 * request with the last PSN it took, which may be an atomic's. */
	int at = plain && !q->retransmissions ? pend_find(q->pend, p->bth.psn, PEND_ATOMIC) : -1;
	if (at >= 0 && PEND(q->pend, at)->psn == p->bth.psn)
		return 1;
	int32_t d = rw_psn_diff(p->bth.psn, q->req.high_psn);
	/* (a READ whose span is not known may take the PSN) */
	return d >= 0 && (uint32_t)d < PSN_WINDOW && pend_find(q->pend, p->bth.psn, PEND_READ) < 0;
}

static void pair_unlink(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *q)
{
	f->peer = q->peer = -1;
	f->pair_how = q->pair_how = RW_PAIR_NONE;
	f->pair_psn = q->pair_psn = 0;
	f->pair_frame = q->pair_frame = 0;
	f->unpaired++;
	answers_move(f, q);
	f->msn_valid = q->msn_valid;
	f->last_msn = q->last_msn;
	q->msn_valid = 0;
	/* (nor is q's next ACK judged against one f sent: ack_backwards) */
	q->cs.ack_valid = 0;
	struct rw_lat *lats[] = {&q->ack_lat, &q->read_lat, &q->atomic_lat};
	for (unsigned k = 0; k < sizeof(lats) / sizeof(lats[0]); k++) {
		lat_release(a, lats[k]);
		memset(lats[k], 0, sizeof(*lats[k]));
	}
	/* q's PSNs sent while paired were not indexed: they are, so that
	 * the answers to them find q again. */
	if (q->req.valid) {
		uint32_t n = q->req.wide ? PSN_WINDOW : (uint32_t)rw_psn_diff(q->req.high_psn, q->req.first_psn);
		for (uint32_t psn = psn_add(q->req.high_psn, RW_PSN_MASK + 1 - n); n; n--, psn = psn_add(psn, 1))
			if (seq_seen(&q->req, psn))
				pair_note_request(a, q, psn, 1); /* (not known: any) */
	}
}

static enum rw_pair_how evidence_of(const struct rw_packet *p)
{
	switch (p->op->op) {
	case RW_OP_ACK:
		return p->aeth.kind == RW_AETH_ACK ? RW_PAIR_ACK : RW_PAIR_NAK;
	case RW_OP_READ_RESP:
		/* (a MIDDLE or LAST: see read_span_owner) */
		return RW_PAIR_READ_RESP;
	case RW_OP_ATOMIC_ACK:
		return RW_PAIR_ATOMIC_ACK;
	}
	return RW_PAIR_NONE;
}

/* A READ's MIDDLE or LAST carries a PSN after the READ's own, which
 * another QP of the host pair may have sent as a request of its own (QPs
 * often share PSNs): it names the unpaired request flow only when that
 * flow's READ takes the PSN by its exact span (the QP's MTU shown, or the
 * next request sent; or the MTU a MIDDLE shows by its length, IBA 9.7.4,
 * and the PSN inside that span, not its last) and no other's does.
 * *several: more than one. */
static struct rw_flow *read_span_owner(struct rw_analyzer *a, int32_t rp, const struct rw_flow *f,
				       const struct rw_packet *p, int *several)
{
	struct rw_flow *found = NULL, *q;
	uint32_t psn = p->bth.psn;
	int middle = !(p->op->flags & RW_OPF_FIRST) && packet_shows_mtu(p); /* (not a LAST either) */
	FOR_EACH_REQ_IN_PAIR(a, rp, q) {
		if (q == f || q->peer >= 0 || q->closed)
			continue;
		int k = pend_find(q->pend, psn, PEND_READ);
		if (k < 0 || PEND(q->pend, k)->psn == psn)
			continue;
		const struct rw_pend *e = PEND(q->pend, k);
		if (!e->exact && !(middle && e->len &&
				   (uint32_t)rw_psn_diff(psn, e->psn) + 1 < read_psns(e->len, p->payload_len)))
			continue;
		if (found)
			*several = 1;
		found = q;
	}
	return found;
}

/* Two responder QPs answered the PSN that made a pair, and no unpaired
 * request flow sent it: one of them answers a request flow the capture has
 * not shown (several QPs of a host pair send the same PSNs, and one sent
 * this PSN before the capture started), so the elimination that made the
 * pair was a guess. The pair is undone; both response flows wait for a
 * response that only one request flow fits. */
static void pair_twin_undo(struct rw_analyzer *a, int32_t rp, struct rw_flow *f, enum rw_pair_how how,
			   uint32_t psn)
{
	struct rw_flow *q;
	FOR_EACH_REQ_IN_PAIR(a, rp, q) {
		if (q->peer < 0 || q->peer == f->index || q->closed || q->pair_how != how || q->pair_psn != psn)
			continue;
		pair_unlink(a, flow_at(a, (uint32_t)q->peer), q);
		q->twin_valid = 1;
		q->twin_psn = psn;
		f->pair_ambiguous++;
		return;
	}
}

static struct rw_flow *try_pair(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
				uint64_t frame, struct rw_note *n)
{
	enum rw_pair_how how = evidence_of(p);
	if (how == RW_PAIR_NONE || !a->pix)
		return NULL;
	int32_t rp = an_pair_lookup(a, f->key.family, f->key.dst, f->key.src, 0);
	if (rp < 0)
		return NULL;
	uint32_t psn = p->bth.psn, pair1 = (uint32_t)rp + 1;
	struct rw_flow *found = NULL;
	int several = 0;
	int span = how == RW_PAIR_READ_RESP && !(p->op->flags & RW_OPF_FIRST);
	if (span)
		found = read_span_owner(a, rp, f, p, &several);
	for (uint32_t i = pix_hash(pair1, psn) & a->pix_mask; a->pix[i].pair1 && !span;
	     i = (i + 1) & a->pix_mask) {
		const struct rw_pix_entry *e = &a->pix[i];
		if (e->pair1 != pair1 || e->psn != psn || e->flow == (uint32_t)f->index ||
		    !pix_live(a, e))
			continue;
		struct rw_flow *q = flow_at(a, e->flow);
		/* (two response flows answered that PSN of it: see pair_twin_undo) */
		if (q->twin_valid && q->twin_psn == psn) {
			several = 1;
			continue;
		}
		/* f answered an atomic or a READ at the PSN before q's first,
		 * which q sent inside the message its first packet continues
		 * (a MIDDLE or LAST): f answers another QP. */
		if (f->solo_valid && q->first_mid_message &&
		    f->solo_psn == psn_add(q->req.first_psn, RW_PSN_MASK))
			continue;
		/* A READ response answers a READ, an atomic ACK an atomic: a
		 * flow that sent that PSN as anything else is not the peer
		 * (two QPs of one host pair often start at the same PSN). */
		int rd = how == RW_PAIR_READ_RESP ? pend_find(q->pend, psn, PEND_READ) : -1;
		/* A plain ACK names a SEND or WRITE: a READ is answered by
		 * its responses, an atomic by an atomic ACK (IBA 9.7.5.1). */
		int at = how == RW_PAIR_ACK ? pend_find(q->pend, psn, -1) : -1;
		if (at >= 0 && PEND(q->pend, at)->psn == psn && PEND(q->pend, at)->kind != PEND_SEND)
			continue;
		/* A responder acknowledges what it was asked to (AckReq) and
		 * a message's end, not the inside of a message: an ACK naming
		 * a FIRST or MIDDLE sent without AckReq answers another QP's
		 * request of that PSN (one the capture may not have seen). */
		if (how == RW_PAIR_ACK && !e->asked)
			continue;
		if ((how == RW_PAIR_READ_RESP && (rd < 0 || PEND(q->pend, rd)->psn != psn)) ||
		    (how == RW_PAIR_ATOMIC_ACK && pend_find(q->pend, psn, PEND_ATOMIC) < 0))
			continue;
		if (found && found != q)
			several = 1;
		found = q;
	}
	if (!several && how == RW_PAIR_NAK && p->aeth.kind == RW_AETH_NAK &&
	    p->aeth.value == RW_NAK_PSN_SEQ_ERROR) {
		/* A sequence-error NAK names the PSN the responder missed: lost
		 * before the capture point too, it is a hole in the request
		 * flow that sent the PSNs around it. The pair's request flows
		 * are looked at (a bounded number: beyond that the next ACK
		 * decides). A flow that sent the PSN (lost after the capture
		 * point) and another with a hole there: either may be it. */
		struct rw_flow *q;
		FOR_EACH_REQ_IN_PAIR(a, rp, q) {
			if (q == f || q == found || q->peer >= 0 || q->closed || q->transport != RW_TRANSPORT_RC ||
			    !seq_in_hole(&q->req, psn))
				continue;
			if (found)
				several = 1;
			found = q;
		}
	}
	if (found && !several) {
		/* Another unpaired flow whose first PSN in the capture comes
		 * just after this one may have sent it before the capture
		 * started: the capture cannot tell which (QPs of one host
		 * pair often start at nearby PSNs). Not a UC one: nothing
		 * answers it. */
		struct rw_flow *q;
		FOR_EACH_REQ_IN_PAIR(a, rp, q) {
			if (q == f || q == found || q->peer >= 0 || q->closed || !q->req.valid ||
			    q->transport != RW_TRANSPORT_RC)
				continue;
			int32_t d = rw_psn_diff(q->req.first_psn, psn);
			if (d > 0 && (uint32_t)d <= PSN_WINDOW) {
				several = 1;
				break;
			}
		}
	}
	if (several) {
		f->pair_ambiguous++;
		return NULL;
	}
	if (!found && !span && how != RW_PAIR_NAK)
		pair_twin_undo(a, rp, f, how, psn);
	if (found) {
		pair_link(f, found, how, psn, frame);
		conf_on_pair(a, f, found);
		n->flags |= RW_N_PAIRED;
	}
	return found;
}

/* ---- outstanding requests ---- */

/* A READ or atomic sent again from its own PSN is one request: its
 * entry, if any, starts over (the responses come again from its first), so
 * that the responses and a later resume are judged on one entry. Its time
 * stays the first send's, as a SEND's does. */
struct rw_pend *pend_again(struct rw_pend_ring *r, uint32_t psn, uint32_t npsn, uint8_t kind)
{
	for (uint32_t k = 0; r && k < r->n; k++) {
		struct rw_pend *o = PEND(r, k);
		if (o->kind == kind && o->psn == psn) {
			o->npsn = npsn ? npsn : 1;
			o->got = 0;
			o->va = 0;
			o->len = 0;
			return o;
		}
	}
	return NULL;
}

struct rw_pend *pend_push(struct rw_analyzer *a, struct rw_flow *f, uint32_t psn, uint32_t npsn,
			  uint8_t kind, uint64_t ts, uint64_t frame)
{
	struct rw_pend_ring *r = f->pend;
	if (!r || (r->n == r->cap && r->cap < RW_PENDING)) {
		/* Grown on demand: most flows of a large capture have one or
		 * two requests outstanding at a time. */
		uint32_t cap = r ? r->cap * 2 : 4;
		struct rw_pend_ring *nr = an_alloc(a, sizeof(*nr) + cap * sizeof(nr->e[0]), 0);
		if (nr) {
			nr->cap = cap;
			if (r) {
				for (uint32_t k = 0; k < r->n; k++)
					nr->e[k] = *PEND(r, k);
				nr->n = r->n;
				nr->hint = r->hint;
				nr->last_psn = r->last_psn;
				nr->unsorted = r->unsorted;
				an_free(a, r, sizeof(*r) + r->cap * sizeof(r->e[0]));
			}
			f->pend = r = nr;
		}
		if (!r)
			return NULL;
	}
	if (r->n == r->cap) {
		/* Full: the oldest entry gives way (its response is long overdue). */
		r->head = (r->head + 1) & (r->cap - 1);
		r->n--;
		r->hint--;
	}
	if (r->n && rw_psn_diff(psn, r->last_psn) <= 0)
		r->unsorted = 1;
	r->last_psn = psn;
	struct rw_pend *e = PEND(r, r->n);
	r->n++;
	e->psn = psn;
	e->npsn = npsn ? npsn : 1;
	e->kind = kind;
	e->ts = ts;
	e->frame = frame;
	e->fresh = 0;
	e->got = 0;
	e->va = 0;
	e->len = 0;
	return e;
}

/* Drops answered entries from the front of the ring. */
static void pend_compact(struct rw_pend_ring *r)
{
	while (r->n && PEND(r, 0)->kind == PEND_DEAD) {
		r->head = (r->head + 1) & (r->cap - 1);
		r->n--;
		r->hint--; /* positions are relative to the head (may wrap: then unused) */
	}
	if (!r->n)
		r->unsorted = 0;
}

/* An ACK for PSN `psn` covers every request at or before it (IBA 9.7.5.1:
 * ACKs are cumulative), and requests wait in the ring in the order they
 * were sent, so covered entries are popped from the front until the first
 * one the ACK does not cover. Returns how many SEND/WRITE packets were
 * covered (in_read_resp: the AETH of a READ response); *copy gets the
 * latest (in time) of them, from which the ACK latency runs. A READ or
 * atomic still waiting at the front is covered too: its response was not
 * captured, and the ACK says it was done. */
static uint32_t pend_ack(struct rw_flow *q, uint32_t psn, int in_read_resp, int *have,
			 struct rw_pend *copy)
{
	struct rw_pend_ring *r = q->pend;
	uint32_t count = 0;
	*have = 0;
	if (!r)
		return 0;
	/* In order (no resend waiting): covered entries are a prefix of the
	 * ring. After a resend they are not: every entry is looked at. */
	uint32_t n = r->unsorted ? r->n : 0;
	for (uint32_t k = 0; k < r->n; k++) {
		struct rw_pend *e = PEND(r, k);
		if (e->kind == PEND_DEAD)
			continue;
		/* The AETH of a READ's own responses acknowledges what came
		 * before the READ, not the READ: it ends with its last
		 * response. */
		if (rw_psn_diff(psn, e->psn) < 0 || (e->kind == PEND_READ && in_read_resp)) {
			if (k >= n)
				break;
			continue;
		}
		if (e->kind == PEND_SEND) {
			if (!*have || e->ts >= copy->ts) {
				*copy = *e;
				*have = 1;
			}
			count++;
		} else if (!in_read_resp &&
			   (!q->cs.unans_valid || rw_psn_diff(e->psn, q->cs.unans_psn) < 0)) {
			/* a READ or atomic whose own answer did not come */
			q->cs.unans_valid = 1;
			q->cs.unans_psn = e->psn;
		}
		if (!in_read_resp && e->kind == PEND_READ) {
			q->cs.late_valid = 1;
			q->cs.late_psn = e->psn;
			q->cs.late_npsn = e->npsn;
			q->cs.late_got = e->got;
		}
		e->kind = PEND_DEAD;
	}
	pend_compact(r);
	return count;
}

static int pend_match(const struct rw_pend *e, uint32_t psn, int kind)
{
	if (e->kind == PEND_DEAD || (kind >= 0 && e->kind != kind))
		return 0;
	int32_t d = rw_psn_diff(psn, e->psn);
	return d >= 0 && (uint32_t)d < e->npsn;
}

int pend_find(struct rw_pend_ring *r, uint32_t psn, int kind)
{
	if (!r)
		return -1;
	/* The responses of one READ come in a row: try its entry first. */
	if (r->hint < r->n && pend_match(PEND(r, r->hint), psn, kind))
		return (int)r->hint;
	for (unsigned k = 0; k < r->n; k++) {
		if (pend_match(PEND(r, k), psn, kind)) {
			r->hint = k;
			return (int)k;
		}
	}
	return -1;
}

/* The entry of the request of that kind sent at psn itself, or -1. */
static int pend_find_start(struct rw_pend_ring *r, uint32_t psn, int kind)
{
	for (unsigned k = 0; r && k < r->n; k++) {
		const struct rw_pend *e = PEND(r, k);
		if (e->kind != PEND_DEAD && e->kind == kind && e->psn == psn)
			return (int)k;
	}
	return -1;
}

/* A new request at psn ends every READ still pending before it: a READ's
 * responses take the PSNs up to the next request, so the range it was given
 * with the MTU unknown (up to 256-byte segments) becomes what it is. */
void pend_clip_reads(struct rw_pend_ring *r, uint32_t psn)
{
	for (unsigned k = 0; r && k < r->n; k++) {
		struct rw_pend *e = PEND(r, k);
		int32_t d = rw_psn_diff(psn, e->psn);

		if (e->kind == PEND_READ && d > 0 && (uint32_t)d <= e->npsn) {
			e->npsn = (uint32_t)d;
			e->exact = 1;
		}
	}
}

/* Whether a READ request re-issues a READ still pending: it goes back
 * (a go-back starts with it, or it is not new), or it lies inside the PSNs
 * a pending READ takes at the MTU its responses showed. A new PSN with the
 * MTU unknown is another READ: several may be outstanding, and a re-issue
 * resumes where responses stopped. A resend that goes on with a go-back-N
 * run is the resend of its own request, not a READ resumed inside the one
 * before it: the run resends the requests in order, each from its start
 * (IBA 9.7.5.1.4: only the READ a go-back starts with resumes mid-way). */
int pend_read_reissue(const struct rw_flow *f, uint32_t psn, uint32_t flags)
{
	if ((flags & RW_N_RETRANS) && !(flags & RW_N_GBN_START))
		return 0;
	if (!(flags & RW_N_NEW))
		return 1;
	if (!f->cs.read_mtu)
		return 0;
	int i = pend_find(f->pend, psn, PEND_READ);
	if (i < 0)
		return 0;
	const struct rw_pend *e = PEND(f->pend, i);
	return (uint32_t)rw_psn_diff(psn, e->psn) < read_psns(e->len, f->cs.read_mtu);
}

static void pend_remove(struct rw_pend_ring *r, unsigned k)
{
	PEND(r, k)->kind = PEND_DEAD;
	pend_compact(r);
}

/* ---- responses ---- */

static uint8_t nak_kind_of(const struct rw_aeth *ae)
{
	if (ae->kind == RW_AETH_RNR_NAK)
		return RW_NAKK_RNR;
	if (ae->kind == RW_AETH_NAK)
		return ae->value <= RW_NAK_INVALID_RD_REQUEST ? ae->value : RW_NAKK_RESERVED;
	return RW_NAKK_RESERVED;
}

static void handle_aeth(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *q,
			const struct rw_packet *p, uint64_t ts, uint64_t frame, struct rw_note *n)
{
	const struct rw_aeth *ae = &p->aeth;
	struct rw_flow *owner = q ? q : f;
	uint32_t psn = p->bth.psn;
	/* The requester drops a response whose ICRC is bad: it acts on none. */
	int heard = p->icrc_status != RW_CRC_BAD && p->vcrc_status != RW_CRC_BAD;

	/* (an unpaired flow keeps them for the request flow it pairs with:
	 * conf_on_pair) */
	if (heard)
		conf_on_answer(owner, ae->kind == RW_AETH_ACK ? psn_add(psn, 1) : psn, ts,
			       p->op->op != RW_OP_READ_RESP || (p->op->flags & RW_OPF_LAST));

	if (owner->msn_valid && rw_psn_diff(ae->msn, owner->last_msn) < 0) {
		owner->msn_regressions++;
		n->flags |= RW_N_MSN_REGRESS;
		conf_violation(a, owner, RW_V_MSN_BACKWARDS, frame);
	}
	owner->msn_valid = 1;
	owner->last_msn = ae->msn;
	if (heard) {
		if (!f->rmsn_valid || rw_psn_diff(ae->msn, f->rmsn) > 0) {
			f->rmsn_valid = 1;
			f->rmsn = ae->msn;
		}
		if (ae->kind == RW_AETH_ACK &&
		    (!f->rack_valid || rw_psn_diff(psn, f->rack_psn) > 0)) {
			f->rack_valid = 1;
			f->rack_psn = psn;
			f->rack_ns = ts;
		}
	}

	if (ae->kind == RW_AETH_ACK) {
		struct rw_pend last;
		int have = 0;
		uint32_t c = q ? pend_ack(q, psn, p->op->op == RW_OP_READ_RESP, &have, &last) : 0;
		if (q) {
			/* What the requester heard acknowledged ends before a READ
			 * or atomic an ACK passed unanswered (until its go-back):
			 * it re-issues that and goes back over everything after
			 * it (IBA 9.7.5.1.4), however late its timer (no reused
			 * QP number). */
			int capped = heard && q->cs.unans_valid && rw_psn_diff(q->cs.unans_psn, psn) <= 0;
			seq_sync_on_ack(&q->req, psn, heard && !capped);
			if (capped)
				seq_sync_on_ack(&q->req, psn_add(q->cs.unans_psn, RW_PSN_MASK), 1);
		}
		if (q && p->op->op == RW_OP_ACK)
			conf_on_ack(a, q, psn, frame);
		if (p->op->op == RW_OP_ACK) {
			owner->acks++;
			owner->acked_psns += c;
			n->flags |= RW_N_ACK;
			n->ack_psn = psn;
			n->ack_count = c;
			if (have) {
				n->latency_ns = ts - last.ts;
				n->req_frame = last.frame;
				lat_add(a, &owner->ack_lat, n->latency_ns);
			}
		}
		return;
	}
	uint8_t k = nak_kind_of(ae);
	conf_on_nak(a, f, q, k, psn, heard, ts, frame);
	owner->naks[k]++;
	n->flags |= RW_N_NAK;
	n->nak_kind = k;
	n->ack_psn = psn;
	if (!q && (k == RW_NAKK_PSN_SEQ || k == RW_NAKK_RNR)) {
		/* Whose requests it refused is known when one of the unpaired
		 * request flows it may answer goes back to its PSN
		 * (msg_take_request). */
		int32_t rp = an_pair_lookup(a, f->key.family, f->key.dst, f->key.src, 0);
		struct rw_flow *r;
		FOR_EACH_REQ_IN_PAIR(a, rp, r)
			if (r->peer < 0 && !r->closed && msg_nak_fits(r, psn))
				msg_nak_add(r, psn, f->index);
		if (rp < 0) /* (no request of the pair yet: the NAK waits for one) */
			rp = an_pair_lookup(a, f->key.family, f->key.dst, f->key.src, 1);
		if (rp >= 0) {
			struct rw_addr_pair *ap = &a->pairs[rp];
			ap->nak_psn[ap->nak_next] = psn;
			ap->nak_src[ap->nak_next] = f->index;
			ap->nak_ns[ap->nak_next] = ts;
			ap->nak_next = (uint8_t)((ap->nak_next + 1) % RW_MSG_NAKS);
			if (ap->nak_n < RW_MSG_NAKS)
				ap->nak_n++;
		}
	}
	if (q) {
		/* A NAK says the responder took everything before its PSN. */
		seq_sync_on_ack(&q->req, psn_add(psn, RW_PSN_MASK), heard);
		int i = pend_find(q->pend, psn, -1);
		if (i >= 0)
			n->req_frame = PEND(q->pend, i)->frame;
		if (k == RW_NAKK_PSN_SEQ || k == RW_NAKK_RNR)
			msg_refused(q, psn);
		if (k == RW_NAKK_PSN_SEQ) {
			q->req.nak_psn = psn;
			q->req.nak_wait = 1;
			/* IBA 9.7.5.2.2: a sequence-error NAK acknowledges every
			 * request before the PSN it names. */
			struct rw_pend last;
			int have;
			owner->acked_psns += pend_ack(q, psn_add(psn, RW_PSN_MASK), 0, &have, &last);
		}
	}
}

/* Whether the responder on f acknowledged past psn (an ACK at or after
 * it, with the READ at psn executed then) before ts, when the request
 * sent at ts came: that request asked for a READ it had answered, and
 * its requester waits for nothing it did not have the chance to take.
 * Only the time the highest ACK first came is kept: an ACK past psn
 * before that one is not seen, and the READ is taken to be waited for. */
int rsp_answered_past(const struct rw_flow *f, uint32_t psn, uint64_t ts)
{
	return f->rack_valid && f->rack_ns < ts && rw_psn_diff(f->rack_psn, psn) >= 0 &&
	       (uint32_t)rw_psn_diff(f->rack_psn, psn) < PSN_WINDOW;
}

/* Whether f, the responder's flow, showed a READ's answer stop just below
 * psn: the response before psn came, psn's never did. A READ re-issued from
 * there waits for that response, though the responder answered past it
 * (the requester never had the chance to take it, IBA 9.7.5.1.4). */
int read_answer_stopped(const struct rw_flow *f, uint32_t psn)
{
	return f->rsp && seq_seen(f->rsp, psn_add(psn, RW_PSN_MASK)) && !seq_seen(f->rsp, psn);
}

/* A READ response carrying a full segment shows the connection's path MTU
 * (IBA 9.7.4: a FIRST or MIDDLE carries PMTU bytes), the same both ways:
 * the READ its requester sent takes exactly ceil(len / MTU) PSNs. Before
 * the pairing it is the requester's when one unpaired request flow of the
 * host pair has a READ there, and no other. */
static void read_mtu_shown(struct rw_analyzer *a, struct rw_flow *f, struct rw_flow *q, uint32_t psn,
			   uint32_t mtu)
{
	msg_mtu_shown(f, mtu);
	if (!q) {
		int32_t rp = an_pair_lookup(a, f->key.family, f->key.dst, f->key.src, 0);
		struct rw_flow *r;
		FOR_EACH_REQ_IN_PAIR(a, rp, r) {
			if (r->peer >= 0 || r->closed || pend_find(r->pend, psn, PEND_READ) < 0)
				continue;
			if (q) {
				q = NULL; /* several: the pairing will tell */
				break;
			}
			q = r;
		}
	}
	if (q && q->cs.read_mtu != mtu)
		msg_mtu_shown(q, mtu);
}

void handle_response(struct rw_analyzer *a, struct rw_flow *f, const struct rw_packet *p,
		     uint64_t ts, uint64_t frame, struct rw_note *n)
{
	const struct rw_opcode_info *op = p->op;
	struct rw_flow *q = f->peer >= 0 ? flow_at(a, (uint32_t)f->peer) : NULL;
	if (q && q->pair_how != RW_PAIR_CM && pair_contradicted(q, p)) {
		pair_unlink(a, f, q);
		q = NULL;
	}
	if (!q)
		q = try_pair(a, f, p, frame, n);
	f->has_responses = 1;
	a->answers_shown = 1;
	if (!q && (op->op == RW_OP_ATOMIC_ACK || (op->op == RW_OP_READ_RESP && (op->flags & RW_OPF_FIRST)))) {
		f->solo_valid = 1;
		f->solo_psn = p->bth.psn;
	}
	if (!q && op->op == RW_OP_READ_RESP && (op->flags & RW_OPF_FIRST))
		recent_put(&f->upf, p->bth.psn, ts);

	if (op->op == RW_OP_READ_RESP) {
		if (packet_shows_mtu(p))
			read_mtu_shown(a, f, q, p->bth.psn, p->payload_len);
		/* A FIRST or ONLY is the first response of the READ sent at
		 * its PSN (IBA 9.7.5.1.4): that one, when a re-issue from
		 * inside an earlier READ's span waits there too. */
		int i = q && (op->flags & RW_OPF_FIRST) ? pend_find_start(q->pend, p->bth.psn, PEND_READ) : -1;
		if (i < 0 && q)
			i = pend_find(q->pend, p->bth.psn, PEND_READ);
		/* its READ's, kept past removal; or the READ an ACK past it
		 * left unanswered, whose answer this is after all */
		int64_t req_psn = i >= 0 ? (int64_t)PEND(q->pend, i)->psn
				  : q && q->cs.late_valid &&
						  (uint32_t)rw_psn_diff(p->bth.psn, q->cs.late_psn) < q->cs.late_npsn
					  ? (int64_t)q->cs.late_psn
					  : -1;
		/* The first response of a READ the requester sent and never
		 * saw answered whole (a resend of an answered one asks
		 * nothing new): it is waiting for it. */
		int awaited = q && q->rd_asked && (op->flags & RW_OPF_FIRST) && psn_bit(q->rd_asked, p->bth.psn) &&
			      !(q->rd_late && psn_bit(q->rd_late, p->bth.psn)) &&
			      !(f->rd_answered && psn_bit(f->rd_answered, p->bth.psn)) &&
			      !(i >= 0 && PEND(q->pend, i)->fresh && rsp_answered_past(f, p->bth.psn, PEND(q->pend, i)->ts) &&
				!read_answer_stopped(f, p->bth.psn));
		if (!f->rsp)
			f->rsp = an_alloc(a, sizeof(*f->rsp), 0);
		uint32_t fl = 0;
		if (f->rsp) {
			/* The READ this capture saw requested that it answers
			 * (its first PSN): one seen requested there, answered
			 * past since, has no entry left. */
			int64_t from = i >= 0 ? (int64_t)PEND(q->pend, i)->psn
				       : q && q->rd_asked && (op->flags & RW_OPF_FIRST) && psn_bit(q->rd_asked, p->bth.psn)
						 ? (int64_t)p->bth.psn
						 : -1;
			/* Its first response is new: the response stream is
			 * known from there. */
			if (from == (int64_t)p->bth.psn)
				f->rsp->synced = 1;
			/* The PSNs between the last READ's responses and this
			 * READ's first were requests that ACKs answered: no gap. */
			if (from >= 0 && f->rsp->valid) {
				int32_t d = rw_psn_diff((uint32_t)from, f->rsp->high_psn);
				if (d > 0 && (uint32_t)d < PSN_WINDOW)
					seq_consume(f->rsp, (uint32_t)d);
			}
			/* A READ the capture saw requested at a PSN the
			 * response stream had passed before the request came
			 * is a re-issue (paired only by its answer): the holes
			 * from there are refilled by resends. */
			if (i >= 0 && p->bth.psn == PEND(q->pend, i)->psn && f->rsp->valid) {
				int32_t d = rw_psn_diff(p->bth.psn, f->rsp->high_psn);
				if (d < 0 && (uint32_t)-d < PSN_WINDOW && !seq_seen(f->rsp, p->bth.psn))
					seq_resend_asked(f->rsp);
			}
			fl = seq_track(f, f->rsp, p->bth.psn, 1, 0, n);
			n->flags |= fl;
		}
		if (q && p->icrc_status != RW_CRC_BAD && p->vcrc_status != RW_CRC_BAD) {
			conf_on_answer(q, psn_add(p->bth.psn, 1), ts, (op->flags & RW_OPF_LAST) != 0);
			conf_on_rd_answer(q, p->bth.psn, ts, (op->flags & RW_OPF_FIRST) != 0);
		} else if (q && (op->flags & RW_OPF_LAST) && !(op->flags & RW_OPF_FIRST)) {
			/* A corrupted LAST ends the burst all the same: the
			 * requester looks at what is missing then, with what
			 * came before it answered. */
			conf_on_answer(q, p->bth.psn, ts, 1);
		}
		if (i < 0 && q && q->cs.late_valid &&
		    (uint32_t)rw_psn_diff(p->bth.psn, q->cs.late_psn) < q->cs.late_npsn) {
			/* the answer to the READ an ACK or NAK past it left
			 * unanswered, come after all: the gap it shows */
			struct rw_pend t = {.psn = q->cs.late_psn, .npsn = q->cs.late_npsn,
					    .got = q->cs.late_got, .kind = PEND_READ};
			conf_on_read_response(q, p, &t, f->rsp, ts);
			q->cs.late_got = t.got;
		}
		if (i >= 0) {
			conf_on_read_response(q, p, PEND(q->pend, i), f->rsp, ts);
			n->flags |= RW_N_READ_MATCH;
			n->req_frame = PEND(q->pend, i)->frame;
			/* A LAST the requester dropped (bad ICRC) ends nothing,
			 * nor one past a response it missed (it takes them in
			 * PSN order): the READ stays pending for its re-issue. */
			const struct rw_pend *e = PEND(q->pend, i);
			if ((op->flags & RW_OPF_LAST) && p->icrc_status != RW_CRC_BAD &&
			    p->vcrc_status != RW_CRC_BAD &&
			    e->got >= (uint32_t)rw_psn_diff(p->bth.psn, e->psn) + 1) {
				n->latency_ns = ts - PEND(q->pend, i)->ts;
				lat_add(a, &q->read_lat, n->latency_ns);
				pend_remove(q->pend, (unsigned)i);
			}
		}
		/* One whose ICRC is bad is dropped by the requester: it
		 * brings no data (the READ is re-issued for it). Resent ones
		 * go in too: the requester takes responses in PSN order. */
		if (p->icrc_status != RW_CRC_BAD) {
			struct rw_flow *owner = q ? q : f;
			enum rd_ask ask = awaited ? RD_AWAITED : RD_UNKNOWN;
			/* (responses inside its span the capture saw before
			 * its FIRST answered it before: the READ was begun
			 * earlier) */
			for (uint32_t k = 1; awaited && i >= 0 && f->rsp && k < PEND(q->pend, i)->npsn && k < 64; k++)
				if (seq_seen(f->rsp, psn_add(p->bth.psn, k)))
					ask = RD_AWAITED_AGAIN;
			/* A READ's first response that carries no new MSN: the
			 * responder executed it before (IBA 9.7.5.2: a duplicate
			 * READ is answered again with the MSN it has), and no
			 * request the capture saw waits for it. */
			if (!awaited && (op->flags & RW_OPF_FIRST) && (n->flags & RW_N_NEW) &&
			    (p->hdrs & RW_HDR_AETH) && f->rmsn_valid && rw_psn_diff(p->aeth.msn, f->rmsn) <= 0)
				ask = RD_ANSWERED;
			if (msg_account(a, f, owner, p->bth.opcode, p->bth.psn, p->payload_len, req_psn, ask,
					frame, n)) {
				if (!f->rd_answered)
					f->rd_answered = an_alloc(a, PSN_WINDOW / 8, 0);
				/* every PSN of it: a READ resumed inside it
				 * asks nothing new either */
				if (f->rd_answered)
					psn_bits_put(f->rd_answered, f->rmsg.first_psn, p->bth.psn, 1);
			}
		} else if (op->flags & RW_OPF_FIRST)
			/* The capture saw this READ start (the requester
			 * dropped its FIRST): what comes of it before the
			 * re-issue is dropped, not the rest of a READ the
			 * capture started inside; the READ waits for its
			 * re-issue (an ONLY brings nothing else to wait
			 * with: the re-issue is a READ of its own). */
			msg_read_first_dropped(a, f, p->bth.psn, !(op->flags & RW_OPF_LAST), frame, n);
	} else if (op->op == RW_OP_ATOMIC_ACK && q && p->aeth.kind == RW_AETH_ACK) {
		if (p->icrc_status != RW_CRC_BAD && p->vcrc_status != RW_CRC_BAD)
			conf_on_rd_answer(q, p->bth.psn, ts, 1);
		int i = pend_find(q->pend, p->bth.psn, PEND_ATOMIC);
		if (i >= 0) {
			n->flags |= RW_N_ATOMIC_MATCH;
			n->req_frame = PEND(q->pend, i)->frame;
			n->latency_ns = ts - PEND(q->pend, i)->ts;
			lat_add(a, &q->atomic_lat, n->latency_ns);
			pend_remove(q->pend, (unsigned)i);
		}
	}
	if (p->hdrs & RW_HDR_AETH)
		handle_aeth(a, f, q, p, ts, frame, n);
}

/* A request flow the capture shows first (its first request, f unpaired)
 * after an unattributed NAK of its address pair: the NAK may be its own,
 * sent for requests before the capture, and its go-back follow within a
 * round trip (NAK_OFFER_NS). It is offered the NAK as the flows of the pair
 * were when it came (msg_take_request takes it when it goes back there). */
#define NAK_OFFER_NS 1000000ull
void pair_naks_offer(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts)
{
	const struct rw_addr_pair *ap = &a->pairs[f->addr_pair];
	for (unsigned k = 0; k < ap->nak_n; k++)
		if (ts - ap->nak_ns[k] < NAK_OFFER_NS && msg_nak_fits(f, ap->nak_psn[k]))
			msg_nak_add(f, ap->nak_psn[k], ap->nak_src[k]);
}
