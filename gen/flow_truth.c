/* SPDX-License-Identifier: BSD-3-Clause */
/* The ground truth (flow.h, rocewire-gen --truth-jsonl): a record per packet
 * the model makes, from the state that made it.
 *
 * Nothing here runs unless gen_model_truth_on() was called: every hook in
 * the per-packet paths sits behind `if (m->tr)`, and the one path that has
 * no such test (send_single(), the steady state of an unreliable flow, and
 * the lockstep stream built on it) is switched off instead, so that the
 * model's packets go through gen_req_send(), which makes the same ones.
 *
 * Records wait in a ring until settled: a request's fate at the responder
 * is decided when the responder gets it, which through the simulated
 * switch is after it was made, and a READ's last response completes the
 * READ only when the requester has taken it. The ring grows (doubling) to
 * hold what is unsettled; the tool drains it after each burst. */
#include <stdlib.h>
#include <string.h>

#include "flow_int.h"

const char *gen_resend_cause_name(enum gen_resend_cause c)
{
	static const char *const names[] = {
		[GEN_RS_NONE] = "none",		  [GEN_RS_NAK] = "nak",
		[GEN_RS_TIMEOUT] = "timeout",	  [GEN_RS_RNR] = "rnr",
		[GEN_RS_READ_GAP] = "read_gap",	  [GEN_RS_READ_ACKED] = "read_acked",
		[GEN_RS_DUP_READ] = "duplicate_read",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == GEN_RS_COUNT, "names: one entry per value");
	return (unsigned)c < GEN_RS_COUNT ? names[c] : "?";
}

int gen_model_truth_on(struct gen_model *m)
{
	if (m->tr)
		return 0;
	if (m->emitted || m->ls)
		return -1; /* too late: records would not start at the first packet */
	struct gen_tr *t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	t->mask = 4095;
	t->r = calloc(t->mask + 1, sizeof(*t->r));
	if (!t->r) {
		free(t);
		return -1;
	}
	m->tr = t;
	/* send_single() has no hook: gen_req_send() makes the same packets
	 * (the unit tests hold the lockstep stream, made like send_single(),
	 * to the clock's packets; the differential test compares the pcaps
	 * written with and without the truth). */
	for (uint32_t i = 0; i < m->nlf; i++)
		m->lf[i].simple = 0;
	return m->cc ? gen_cc_truth_on(m) : 0;
}

/* A new record at the ring's tail, zeroed but for the packet, its id and
 * frame; NULL when the ring could not grow. */
static struct gen_truth *tr_add(struct gen_model *m, const struct gen_pkt *pk, int captured)
{
	struct gen_tr *t = m->tr;
	if (t->tail - t->head > t->mask) {
		uint64_t cap = (t->mask + 1) * 2;
		struct gen_truth *nr = calloc(cap, sizeof(*nr));
		if (!nr) {
			t->failed = 1;
			t->tail++; /* the id is used: later ones keep their place */
			if (captured)
				t->frames++;
			return NULL;
		}
		for (uint64_t id = t->head + 1; id <= t->tail; id++)
			nr[id & (cap - 1)] = t->r[id & t->mask];
		free(t->r);
		t->r = nr;
		t->mask = cap - 1;
	}
	uint64_t id = ++t->tail;
	struct gen_truth *r = &t->r[id & t->mask];
	memset(r, 0, sizeof(*r));
	r->pk = *pk;
	r->id = id;
	r->frame = captured ? ++t->frames : 0;
	r->settled = 1;
	return r;
}

static struct gen_truth *tr_find(struct gen_model *m, uint64_t id)
{
	struct gen_tr *t = m->tr;
	if (id <= t->head || id > t->tail)
		return NULL;
	struct gen_truth *r = &t->r[id & t->mask];
	return r->id == id ? r : NULL; /* else lost for want of memory */
}

void gen_tr_settle(struct gen_model *m, uint64_t id, int acc)
{
	struct gen_truth *r = tr_find(m, id);
	if (r && !r->settled) {
		r->taken = acc != 0;
		r->completes = acc == 2;
		r->settled = 1;
	}
}

static int op_first(uint8_t opcode)
{
	return (rw_opcode(opcode)->flags & RW_OPF_FIRST) != 0;
}

static int op_last(uint8_t opcode)
{
	return (rw_opcode(opcode)->flags & RW_OPF_LAST) != 0;
}

void gen_tr_request(struct gen_model *m, struct gen_qp *q, const struct gen_wqe *w, const struct gen_pkt *pk,
		    uint32_t tx)
{
	const struct gen_lflow *lf = gen_qlf(m, q);
	int captured = !m->pk_dropped;
	uint8_t acc = m->tr->acc, in_switch = m->tr->in_switch;
	m->tr->acc = m->tr->in_switch = 0;
	struct gen_truth *r = tr_add(m, pk, captured);
	if (!r)
		return;
	/* A drop fault sets pk_lost with pk_dropped; the switch only the latter. */
	r->drop = captured ? GEN_TD_NONE : m->pk_lost ? GEN_TD_FAULT : GEN_TD_SWITCH;
	r->lost = m->pk_lost || m->pk_dropped;
	r->tx = tx;
	if (pk->resend) {
		r->cause = q->tr_cause;
		r->episode = q->tr_episode;
	}
	r->msg = (uint64_t)w->seq + 1;
	/* only a request that went into the switch has the port's verdict
	 * (a lost one did not: it is the previous request's) */
	r->paused = lf->cc && captured && !m->pk_lost && m->pk_paused;
	switch (lf->f->transport) {
	case GEN_UD:
		r->taken = r->completes = !r->lost;
		break;
	case GEN_UC:
		/* IBA 9.7.? (UC): a packet missing inside a message makes the
		 * receiver drop the rest of it and wait for the next FIRST or
		 * ONLY: a message completes when all its packets came. */
		q->tr_uc_ok = (uint8_t)((op_first(pk->opcode) || q->tr_uc_ok) && !r->lost);
		r->taken = q->tr_uc_ok;
		r->completes = op_last(pk->opcode) && q->tr_uc_ok;
		break;
	default:
		if (!lf->responder) {
			r->completes = -1; /* a real responder: not ours to know */
		} else if (r->lost) {
			r->completes = 0;
		} else if (in_switch) {
			/* in the switch: the responder decides when it leaves */
			r->settled = 0;
		} else {
			r->taken = acc != 0;
			r->completes = acc == 2;
		}
		break;
	}
}

uint64_t gen_tr_rd_msg(struct gen_model *m, struct gen_qp *q, uint32_t psn, uint32_t npkts)
{
	for (uint32_t i = 0; i < q->wq_n; i++) {
		const struct gen_wqe *w = gen_wq(m, q, i);
		if (gen_is_rd_atomic(w->op) && (w->psn == psn || (npkts && gen_read_answered_by(w, psn, npkts))))
			return (uint64_t)w->seq + 1;
	}
	return 0;
}

/* The message count behind a 24-bit MSN: the latest one at or below what
 * the requester has made. */
static uint64_t msn_unwrap(const struct gen_qp *q, uint32_t msn)
{
	uint64_t made = q->msgs_created;
	return made - ((made - msn) & 0xFFFFFFu);
}

void gen_tr_response(struct gen_model *m, struct gen_qp *q, struct gen_job *j, const struct gen_pkt *pk,
		     uint32_t tx)
{
	int captured = !m->pk_dropped;
	struct gen_truth *r = tr_add(m, pk, captured);
	if (!r)
		return;
	r->drop = captured ? GEN_TD_NONE : GEN_TD_FAULT;
	r->lost = m->pk_lost || m->pk_dropped;
	r->taken = !r->lost;
	r->tx = tx;
	if (pk->resend) {
		r->cause = GEN_RS_DUP_READ;
		r->episode = j->tr_episode;
	}
	if (j->kind != JOB_READ && j->kind != JOB_ATOMIC)
		return; /* ACKs and NAKs belong to no message */
	/* A first answer's MSN is its own message's; a duplicate's is the
	 * latest the responder completed: the requester knows which. */
	r->msg = (j->flags & JOB_DUP) ? gen_tr_rd_msg(m, q, j->psn, j->kind == JOB_READ ? j->npkts : 0) : msn_unwrap(q, j->msn);
	if (j->kind != JOB_READ || j->sent != j->npkts)
		return;
	if (r->lost || (j->flags & JOB_TAIL)) {
		r->completes = 0;
		return;
	}
	/* the requester completes the READ when it takes this one (read_arrived) */
	r->settled = 0;
	j->tr_id = r->id;
}

void gen_tr_other(struct gen_model *m, const struct gen_pkt *pk, uint64_t ce_frame)
{
	struct gen_truth *r = tr_add(m, pk, 1);
	if (r)
		r->ce_frame = ce_frame;
}

uint32_t gen_model_truth(struct gen_model *m, struct gen_truth *out, uint32_t n, int all)
{
	struct gen_tr *t = m->tr;
	uint32_t got = 0;
	if (!t)
		return 0;
	while (got < n && t->head < t->tail) {
		struct gen_truth *r = &t->r[(t->head + 1) & t->mask];
		if (r->id == t->head + 1) {
			if (!r->settled && !all)
				break;
			if (!r->settled)
				r->completes = -1; /* the run ended before its receiver decided */
			r->settled = 1;
			out[got++] = *r;
		}
		t->head++;
	}
	return t->failed ? UINT32_MAX : got;
}
