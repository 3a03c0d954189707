/* SPDX-License-Identifier: BSD-3-Clause */
/* The responder of each RC QP (IBA 9.7.4, 9.7.5.1): checks the PSN of each
 * request that reaches it, executes it, and queues what it owes the
 * requester as a job; then sends the jobs in order, paced. UC and UD
 * responders send nothing, so they are not modelled. */
#include <string.h>

#include "flow_int.h"
#include "rocewire/wire.h"


static struct gen_job *push(struct gen_model *m, struct gen_qp *q, enum job_kind kind, uint32_t psn,
			    uint64_t ready)
{
	/* The requester keeps a slot free for every request it sends, so
	 * the ring cannot be full here; a full ring would mean a model bug,
	 * and dropping the answer then is what a real responder out of
	 * resources would do. */
	if (q->jq_n >= gen_qlf(m, q)->cap)
		return NULL;
	struct gen_job *j = gen_jq(m, q, q->jq_n++);
	memset(j, 0, sizeof(*j));
	j->kind = (uint8_t)kind;
	j->psn = psn & RW_PSN_MASK;
	j->msn = q->msn;
	j->ready_ns = ready;
	return j;
}

static struct gen_job *push_read(struct gen_model *m, struct gen_qp *q, const struct gen_pkt *pk, uint64_t ready)
{
	const struct gen_lflow *lf = gen_qlf(m, q);
	struct gen_job *j = push(m, q, JOB_READ, pk->f.psn, ready);
	if (!j)
		return NULL;
	j->val = pk->f.reth.va;
	j->len = pk->f.reth.dmalen;
	j->npkts = gen_read_npkts(j->len, lf->mtu);
	return j;
}

static struct gen_wqe *atomic_wqe(struct gen_model *m, struct gen_qp *q, uint32_t psn)
{
	for (uint32_t i = 0; i < q->wq_n; i++) {
		struct gen_wqe *w = gen_wq(m, q, i);
		if (w->psn == psn && (w->op == GEN_OP_CMP_SWAP || w->op == GEN_OP_FETCH_ADD))
			return w;
	}
	return NULL;
}

/* IBA 9.4.5: the responder reads the 64-bit word, returns what it held,
 * and writes the new value (compare-and-swap only when it was equal). */
static uint64_t atomic_execute(struct gen_lflow *lf, const struct gen_pkt *pk)
{
	uint32_t slot = (uint32_t)(((pk->f.atomic.va - lf->atomic_base) / 8) % lf->nslots);
	return gen_atomic_apply(rw_opcode(pk->opcode)->op == RW_OP_CMP_SWAP, &lf->mem[slot], pk->f.atomic.compare,
				pk->f.atomic.swap_add);
}

/* A request PSN behind the expected one (IBA 9.7.5.1.1): READs are
 * answered again from the PSN, VA and length they carry; an atomic gets
 * the result it had the first time (the responder's atomic replay
 * resource is the requester's record of that atomic, which lives exactly
 * as long as a duplicate can come); anything else asking for an ACK gets
 * one for the last PSN received. */
static void duplicate(struct gen_model *m, struct gen_qp *q, const struct gen_pkt *pk, uint64_t ready)
{
	const struct rw_opcode_info *i = rw_opcode(pk->opcode);
	if (i->op == RW_OP_READ_REQ) {
		struct gen_job *j = push_read(m, q, pk, ready);
		if (j) {
			j->flags |= JOB_DUP;
			/* its responses resend for the requester's go-back that
			 * sent the READ again: one episode with it */
			if (m->tr)
				j->tr_episode = m->tr->departing ? m->tr->episode : q->tr_episode;
		}
	} else if (i->op == RW_OP_CMP_SWAP || i->op == RW_OP_FETCH_ADD) {
		struct gen_wqe *w = atomic_wqe(m, q, pk->f.psn);
		struct gen_job *j;
		if (w && w->executed && (j = push(m, q, JOB_ATOMIC, pk->f.psn, ready))) {
			j->val = w->orig;
			j->flags |= JOB_DUP;
		}
	} else if (pk->f.ackreq) {
		push(m, q, JOB_ACK, q->epsn - 1, ready);
	}
}

void gen_resp_request(struct gen_model *m, struct gen_qp *q, const struct gen_pkt *pk, uint64_t t_arrive)
{
	struct gen_lflow *lf = gen_qlf(m, q);
	const struct rw_opcode_info *i = rw_opcode(pk->opcode);
	if (q->flags & QF_RSP_ERROR)
		return;
	int32_t d = rw_psn_diff(pk->f.psn, q->epsn);
	if (d > 0) {
		/* Out of sequence: one NAK names the PSN expected; later
		 * packets of the same hole are dropped silently until the
		 * expected PSN comes (IBA 9.7.5). */
		if (!(q->flags & QF_NAK_SENT)) {
			push(m, q, JOB_NAK_SEQ, q->epsn, t_arrive);
			q->flags |= QF_NAK_SENT;
		}
		return;
	}
	if (d < 0) {
		duplicate(m, q, pk, t_arrive);
		return;
	}
	if (m->pk_rnr) {
		push(m, q, JOB_NAK_RNR, pk->f.psn, t_arrive);
		q->flags |= QF_NAK_SENT;
		return;
	}
	uint32_t rkey = (i->hdrs & RW_HDR_RETH)	       ? pk->f.reth.rkey
			: (i->hdrs & RW_HDR_ATOMICETH) ? pk->f.atomic.rkey
						       : lf->f->rkey;
	if (rkey != lf->f->rkey) {
		/* A bad R_Key: NAK remote access error, and the QP goes to
		 * the error state. */
		push(m, q, JOB_NAK_ACCESS, pk->f.psn, t_arrive);
		q->flags |= QF_RSP_ERROR;
		return;
	}
	q->flags &= ~(uint32_t)QF_NAK_SENT;
	switch (i->op) {
	case RW_OP_READ_REQ: {
		uint32_t n = (uint32_t)(((uint64_t)pk->f.reth.dmalen + lf->mtu - 1) >> lf->mtu_shift);
		q->epsn = (q->epsn + (n ? n : 1)) & RW_PSN_MASK;
		q->msn = (q->msn + 1) & 0xFFFFFF;
		push_read(m, q, pk, t_arrive);
		break;
	}
	case RW_OP_CMP_SWAP:
	case RW_OP_FETCH_ADD: {
		q->epsn = (q->epsn + 1) & RW_PSN_MASK;
		q->msn = (q->msn + 1) & 0xFFFFFF;
		uint64_t orig = atomic_execute(lf, pk);
		struct gen_wqe *w = atomic_wqe(m, q, pk->f.psn);
		if (w) {
			w->orig = orig;
			w->executed = 1;
		}
		struct gen_job *j = push(m, q, JOB_ATOMIC, pk->f.psn, t_arrive);
		if (j)
			j->val = orig;
		break;
	}
	default:
		q->epsn = (q->epsn + 1) & RW_PSN_MASK;
		if (i->flags & RW_OPF_LAST)
			q->msn = (q->msn + 1) & 0xFFFFFF;
		if (pk->f.ackreq)
			push(m, q, JOB_ACK, pk->f.psn, t_arrive);
		break;
	}
	/* READs and atomics are messages of one request */
	if (m->tr)
		gen_tr_taken(m, i->op == RW_OP_READ_REQ || i->op == RW_OP_CMP_SWAP || i->op == RW_OP_FETCH_ADD ||
					(i->flags & RW_OPF_LAST));
}

uint64_t gen_resp_send_time(struct gen_model *m, struct gen_qp *q)
{
	if (q->jq_emit >= q->jq_n)
		return GEN_NEVER;
	const struct gen_job *j = gen_jq(m, q, q->jq_emit);
	uint64_t t = j->ready_ns > q->rsp_next_ns ? j->ready_ns : q->rsp_next_ns;
	uint64_t p = m->pause_until[gen_qlf(m, q)->dst_prio];
	return p > t ? p : t;
}

static uint8_t fill_response(struct gen_model *m, struct gen_qp *q, struct gen_job *j, struct gen_pkt *pk)
{
	struct gen_lflow *lf = gen_qlf(m, q);
	struct gen_flow_stats *st = &m->stats[q->flow];
	uint8_t ack = rw_aeth_syndrome(RW_AETH_ACK, lf->credit_code);
	pk->f.psn = j->psn;
	pk->f.aeth.msn = j->msn;
	pk->f.aeth.syndrome = ack;
	switch (j->kind) {
	case JOB_NAK_SEQ:
		st->naks_seq++;
		pk->f.aeth.syndrome = rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR);
		return lf->rsp_ack;
	case JOB_NAK_RNR:
		st->naks_rnr++;
		pk->f.aeth.syndrome = rw_aeth_syndrome(RW_AETH_RNR_NAK, lf->f->min_rnr_timer);
		return lf->rsp_ack;
	case JOB_NAK_ACCESS:
		st->naks_access++;
		pk->f.aeth.syndrome = rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_REMOTE_ACCESS);
		return lf->rsp_ack;
	case JOB_ATOMIC:
		pk->f.atomic_orig = j->val;
		return lf->rsp_atomic;
	case JOB_READ: {
		uint32_t k = j->sent, mtu = lf->mtu;
		unsigned pos = j->npkts == 1 ? POS_ONLY : k == 0 ? POS_FIRST : k + 1 == j->npkts ? POS_LAST : POS_MIDDLE;
		uint32_t left = j->len - k * mtu;
		pk->f.psn = (j->psn + k) & RW_PSN_MASK;
		pk->payload_len = j->len > k * mtu ? (left < mtu ? left : mtu) : 0;
		return lf->rsp_read[pos];
	}
	default:
		return lf->rsp_ack;
	}
}

int gen_resp_send(struct gen_model *m, struct gen_qp *q, uint64_t t, struct gen_pkt *out)
{
	struct gen_lflow *lf = gen_qlf(m, q);
	struct gen_job *j = gen_jq(m, q, q->jq_emit);
	struct gen_pkt pk;
	rw_zero(&pk, sizeof(pk)); /* not memset: see rw_zero */
	pk.t_ns = t;
	pk.flow = q->flow;
	pk.qp = q->qp;
	pk.dir = GEN_DIR_RESPONSE;
	pk.f.dqpn = (lf->f->src_qpn + q->qp) & RW_QPN_MASK;
	pk.opcode = fill_response(m, q, j, &pk);
	pk.hdrs = rw_opcode(pk.opcode)->hdrs;
	pk.frame_len = gen_frame_len(lf, pk.opcode, pk.payload_len);
	q->rsp_next_ns = gen_pace(lf, q, t, pk.frame_len, &q->rsp_frac, &q->rsp_len, &q->rsp_gap);

	uint32_t tx = 1;
	if (j->kind == JOB_READ) {
		/* READ responses are the responder's own PSN stream: answering
		 * a duplicate READ sends those PSNs again. */
		if (j->sent == 0 && rw_psn_diff(j->psn, q->rsp_max) < 0)
			gen_txhist_add(&q->rsp_hist, j->psn, q->rsp_max, q->rsp_max, j->psn);
		pk.resend = rw_psn_diff(pk.f.psn, q->rsp_max) < 0;
		if (pk.resend)
			tx = gen_txhist_transmission(&q->rsp_hist, pk.f.psn, q->rsp_max);
		else
			q->rsp_max = (pk.f.psn + 1) & RW_PSN_MASK;
	}
	m->pk_dropped = m->pk_lost = m->pk_rnr = 0;
	if (lf->faulty)
		gen_fault_apply(m, q, &pk, tx);

	if (j->kind == JOB_READ) {
		if (m->pk_lost && !(j->flags & JOB_TAIL)) {
			j->flags |= JOB_TAIL;
			j->gap_off = j->sent;
		} else if (!m->pk_lost && (j->flags & JOB_TAIL) && !(j->flags & JOB_GAP)) {
			j->flags |= JOB_GAP;
			j->t_ns = t; /* the requester sees the gap when this one arrives */
		}
		if (!(j->flags & JOB_GAP) || (j->flags & JOB_HANDLED))
			j->t_ns = t;
		if (++j->sent == j->npkts)
			q->jq_emit++;
	} else {
		j->t_ns = t;
		if (m->pk_lost)
			j->flags |= JOB_LOST;
		j->sent = 1;
		q->jq_emit++;
	}
	if (m->pk_dropped) {
		if (m->tr)
			gen_tr_response(m, q, j, &pk, tx);
		return 0;
	}
	gen_emit_count(m, &pk);
	*out = pk;
	if (m->tr)
		gen_tr_response(m, q, j, &pk, tx);
	return 1;
}
