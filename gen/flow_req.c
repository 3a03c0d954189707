/* SPDX-License-Identifier: BSD-3-Clause */
/* The requester of each QP: chooses messages, segments them (IBA 9.2,
 * 9.7.2), paces them, and keeps the go-back-N state of an RC send queue
 * (IBA 9.7.5.1: resend from the NAKed PSN, from the oldest
 * unacknowledged PSN after a timeout, re-issue a READ from its first
 * missing response). */
#include <string.h>

#include "flow_int.h"

#define is_rd_atomic gen_is_rd_atomic

static int is_atomic(uint8_t op)
{
	return op == GEN_OP_CMP_SWAP || op == GEN_OP_FETCH_ADD;
}

static uint32_t pick_size(struct gen_qp *q, const struct gen_size *s)
{
	switch (s->kind) {
	case GEN_SIZE_UNIFORM:
		if (s->max <= s->min)
			return s->min;
		return s->min + (uint32_t)(gen_prng(&q->rng) % ((uint64_t)s->max - s->min + 1));
	case GEN_SIZE_CHOICE: {
		uint64_t sum = 0;
		uint32_t n = s->n < GEN_SIZE_CHOICES ? s->n : GEN_SIZE_CHOICES;
		for (uint32_t i = 0; i < n; i++)
			sum += s->weights[i];
		if (!sum)
			return n ? s->values[0] : s->min;
		uint64_t r = gen_prng(&q->rng) % sum;
		for (uint32_t i = 0; i < n; i++) {
			if (r < s->weights[i])
				return s->values[i];
			r -= s->weights[i];
		}
		return s->values[n - 1];
	}
	default:
		return s->min;
	}
}

/* The next message is drawn ahead of time so that a READ waiting for the
 * outstanding-READ limit blocks the queue, as a real send queue would. */
static void choose_next(struct gen_model *m, struct gen_qp *q)
{
	struct gen_lflow *lf = gen_qlf(m, q);
	if (!lf->wsum) {
		q->next_op = 0xFF;
		return;
	}
	/* The draw is made even with one op, so that the sizes drawn after
	 * it do not depend on how many ops there are; with one op and one
	 * size nothing reads the stream, and it is not drawn. */
	uint64_t rnd = lf->no_draw ? 0 : gen_prng(&q->rng);
	uint8_t op = lf->only_op;
	if (op == 0xFF) {
		uint64_t r = (lf->wsum & (lf->wsum - 1)) ? rnd % lf->wsum : rnd & (lf->wsum - 1);
		op = 0;
		while (r >= lf->weight[op])
			r -= lf->weight[op++];
	}
	q->next_op = op;
	if (is_atomic(op)) {
		q->next_len = 8;
		return;
	}
	q->next_len = lf->f->size.kind == GEN_SIZE_FIXED ? lf->f->size.min : pick_size(q, &lf->f->size);
	/* UD carries a message in one packet (IBA 9.8.3). */
	if (lf->f->transport == GEN_UD && q->next_len > lf->mtu)
		q->next_len = lf->mtu;
}

/* Which operations the transport allows (IBA Table 38). */
static int op_allowed(enum gen_transport t, unsigned op)
{
	switch (t) {
	case GEN_RC:
		return 1;
	case GEN_UC:
		return op == GEN_OP_SEND || op == GEN_OP_SEND_IMM || op == GEN_OP_WRITE || op == GEN_OP_WRITE_IMM;
	default:
		return op == GEN_OP_SEND || op == GEN_OP_SEND_IMM;
	}
}

void gen_req_init(struct gen_model *m, struct gen_qp *q)
{
	struct gen_lflow *lf = gen_qlf(m, q);
	if (q->qp == 0) {
		unsigned used = 0;
		lf->wsum = 0;
		lf->only_op = 0xFF;
		for (unsigned op = 0; op < GEN_OP_COUNT; op++) {
			lf->weight[op] = op_allowed(lf->f->transport, op) ? lf->f->op_weight[op] : 0;
			lf->wsum += lf->weight[op];
			if (lf->weight[op]) {
				used++;
				lf->only_op = (uint8_t)op;
			}
		}
		if (used != 1)
			lf->only_op = 0xFF;
		lf->no_draw = lf->only_op != 0xFF && lf->f->size.kind == GEN_SIZE_FIXED;
		lf->simple = lf->f->transport != GEN_RC && !lf->faulty && !lf->rp;
	}
	choose_next(m, q);
	if (q->next_op == 0xFF)
		q->flags |= QF_REQ_DONE;
}

static uint32_t npsn_of(const struct gen_lflow *lf, uint8_t op, uint32_t len)
{
	if (is_atomic(op))
		return 1;
	return gen_read_npkts(len, lf->mtu);
}

/* ---- completion and go-back-N ---- */

void gen_req_fail(struct gen_model *m, struct gen_qp *q)
{
	if (q->flags & QF_FAILED)
		return;
	q->flags |= QF_FAILED | QF_REQ_DONE;
	m->stats[q->flow].qps_failed++;
	if (m->tr) {
		/* the READ responses on their way are never taken */
		for (uint32_t i = 0; i < q->jq_n; i++)
			if (gen_jq(m, q, i)->tr_id)
				gen_tr_settle(m, gen_jq(m, q, i)->tr_id, 1);
	}
	/* The QP is in the error state on both ends: nothing more is sent
	 * or answered on it. */
	q->wq_n = q->cur = q->cur_pkt = 0;
	q->jq_n = q->jq_emit = 0;
	q->rd_out = 0;
	q->rto_ns = q->rnr_ns = 0;
}

static int find_wqe(struct gen_model *m, struct gen_qp *q, uint32_t psn, uint32_t *idx)
{
	for (uint32_t i = 0; i < q->wq_n; i++) {
		struct gen_wqe *w = gen_wq(m, q, i);
		if (rw_psn_diff(psn, w->psn) >= 0 && rw_psn_diff(psn, (w->psn + w->npsn) & RW_PSN_MASK) < 0) {
			*idx = i;
			return 1;
		}
	}
	return 0;
}

/* A READ resumes at its first missing response: the re-issued request asks
 * for the rest only (IBA 9.7.5.1.4: PSN, VA and DMA length advanced by the
 * responses that arrived). */
static void read_resume(struct gen_model *m, struct gen_qp *q, struct gen_wqe *w, uint32_t psn)
{
	uint32_t off = (uint32_t)rw_psn_diff(psn, w->psn);
	if (w->op != GEN_OP_READ || off == 0 || off >= w->npsn)
		return;
	uint64_t bytes = (uint64_t)off * gen_qlf(m, q)->mtu;
	w->va += bytes;
	w->len -= (uint32_t)bytes;
	w->psn = psn;
	w->npsn -= off;
}

/* Where the sender stands: the PSN of the next packet it would send. */
static uint32_t send_pos(struct gen_model *m, struct gen_qp *q)
{
	if (q->cur >= q->wq_n)
		return q->snd_max;
	return (gen_wq(m, q, q->cur)->psn + q->cur_pkt) & RW_PSN_MASK;
}

static void go_back(struct gen_model *m, struct gen_qp *q, uint32_t psn, enum gen_resend_cause cause)
{
	uint32_t i;
	q->tr_cause = (uint8_t)cause;
	q->tr_episode++;
	gen_txhist_add(&q->req_hist, psn, q->snd_max, send_pos(m, q), q->una);
	if (!find_wqe(m, q, psn, &i)) {
		q->cur = q->wq_n;
		q->cur_pkt = 0;
	} else {
		struct gen_wqe *w = gen_wq(m, q, i);
		read_resume(m, q, w, psn);
		q->cur = i;
		q->cur_pkt = (uint32_t)rw_psn_diff(psn, w->psn);
		if (is_rd_atomic(w->op))
			q->cur_pkt = 0;
		/* Every READ and atomic from here on goes out again. */
		for (uint32_t k = i; k < q->wq_n; k++)
			if (is_rd_atomic(gen_wq(m, q, k)->op))
				gen_wq(m, q, k)->reissued = 1;
	}
}

static void progress(struct gen_model *m, struct gen_qp *q, uint64_t t)
{
	const struct gen_flow *f = gen_qlf(m, q)->f;
	q->retries_left = f->retry_count;
	q->rnr_left = f->rnr_retry;
	q->rto_ns = (q->wq_n && f->retransmission_timeout_ns) ? t + f->retransmission_timeout_ns : 0;
}

/* Everything before psn_end is acknowledged, as far as the READs and
 * atomics among it have their responses: an acknowledgement past a READ
 * whose responses did not all come means they were lost (IBA 9.7.5.1.4),
 * and the READ is re-issued once for that loss. */
static void acknowledge(struct gen_model *m, struct gen_qp *q, uint32_t psn_end, uint64_t t)
{
	uint32_t target = psn_end & RW_PSN_MASK;
	struct gen_wqe *implied = NULL;
	if (rw_psn_diff(target, q->una) <= 0 || rw_psn_diff(q->snd_max, target) < 0)
		return;
	for (uint32_t i = 0; i < q->wq_n; i++) {
		struct gen_wqe *w = gen_wq(m, q, i);
		if (rw_psn_diff(w->psn, target) >= 0)
			break;
		if (is_rd_atomic(w->op) && !w->done) {
			target = w->psn;
			implied = w;
			break;
		}
	}
	if (rw_psn_diff(target, q->una) > 0) {
		q->una = target;
		while (q->wq_n && q->cur > 0) {
			struct gen_wqe *w = gen_wq(m, q, 0);
			if (rw_psn_diff((w->psn + w->npsn) & RW_PSN_MASK, q->una) > 0)
				break;
			m->stats[q->flow].messages[w->op]++;
			if (m->cc)
				gen_cc_complete(m, q, w, t);
			q->wq_head = (q->wq_head + 1) & (gen_qlf(m, q)->cap - 1);
			q->wq_n--;
			q->cur--;
		}
		progress(m, q, t);
	}
	/* Once per loss: a request already sent again waits for its own
	 * answer (or the timer), as rxe's started_retry does. */
	if (implied && !implied->reissued)
		go_back(m, q, implied->psn, GEN_RS_READ_ACKED);
}

static void rd_done(struct gen_model *m, struct gen_qp *q, struct gen_wqe *w)
{
	w->done = 1;
	if (q->rd_out)
		q->rd_out--;
	(void)m;
}

static struct gen_wqe *wqe_at(struct gen_model *m, struct gen_qp *q, uint32_t psn, uint8_t read)
{
	for (uint32_t i = 0; i < q->wq_n; i++) {
		struct gen_wqe *w = gen_wq(m, q, i);
		if (w->psn == psn && !w->done && (read ? w->op == GEN_OP_READ : is_atomic(w->op)))
			return w;
	}
	return NULL;
}

/* The READ a response job answers: the one ending where the job ends, at
 * or after its first PSN (a READ resumed since starts later). */
static struct gen_wqe *read_wqe_of(struct gen_model *m, struct gen_qp *q, const struct gen_job *j)
{
	for (uint32_t i = 0; i < q->wq_n; i++) {
		struct gen_wqe *w = gen_wq(m, q, i);
		if (!w->done && gen_read_answered_by(w, j->psn, j->npkts) &&
		    ((w->psn + w->npsn) & RW_PSN_MASK) == ((j->psn + j->npkts) & RW_PSN_MASK))
			return w;
	}
	return NULL;
}

static void read_arrived(struct gen_model *m, struct gen_qp *q, struct gen_job *jq, uint64_t t)
{
	struct gen_job jc = *jq, *j = &jc;
	struct gen_wqe *w = read_wqe_of(m, q, j);
	if (w && w->psn != j->psn) {
		/* An answer to a copy sent before the READ resumed at w->psn:
		 * the requester takes a READ's responses by PSN (rxe compares
		 * each with the one it expects), so those from w->psn on
		 * count as that copy's. */
		uint32_t got = (j->flags & JOB_TAIL) ? j->gap_off : j->npkts;
		int32_t past = rw_psn_diff((j->psn + got) & RW_PSN_MASK, w->psn);
		if (past <= 0)
			w = NULL; /* nothing from where the READ stands on */
		else if (j->flags & JOB_TAIL)
			j->gap_off = (uint32_t)past;
		j->psn = w ? w->psn : j->psn;
		j->npkts = w ? w->npsn : j->npkts;
	}
	if (!w) {
		if (m->tr && j->tr_id)
			gen_tr_settle(m, j->tr_id, 1);
		return; /* an answer to a request resent since: the newer one counts */
	}
	/* An answer to the newest copy came: a later loss of its responses
	 * is a new one. A READ none of whose responses came got no answer:
	 * it still waits for its own (or the timer). */
	if (!(j->flags & JOB_TAIL) || j->gap_off)
		w->reissued = 0;
	if (!(j->flags & JOB_TAIL)) {
		if (m->tr && j->tr_id)
			gen_tr_settle(m, j->tr_id, 2);
		rd_done(m, q, w);
		acknowledge(m, q, j->psn + j->npkts, t);
		return;
	}
	uint32_t miss = (j->psn + j->gap_off) & RW_PSN_MASK;
	read_resume(m, q, w, miss);
	/* What came of the answer acknowledges what was before it; an answer
	 * none of whose responses came reached the requester not at all, and
	 * acknowledges nothing (it shows no READ before it unanswered). */
	if (j->gap_off || (j->flags & JOB_GAP))
		acknowledge(m, q, miss, t);
	/* A later response showed the gap: re-issue now. A lost tail shows
	 * nothing: the timer finds it. Responses without their FIRST to a
	 * READ sent again since its last answer are no news: that copy is
	 * on its way, and the requester waits for its answer or the timer
	 * (once per loss, as rxe's started_retry: it drops a response past
	 * the expected PSN). */
	if ((j->flags & JOB_GAP) && !(j->gap_off == 0 && w->reissued))
		go_back(m, q, miss, GEN_RS_READ_GAP);
}

static void nak_arrived(struct gen_model *m, struct gen_qp *q, struct gen_job *j, uint64_t t)
{
	const struct gen_flow *f = gen_qlf(m, q)->f;
	/* A NAK acknowledges everything before the PSN it names (IBA 9.7.5.1.2). */
	uint32_t ep = q->tr_episode;
	acknowledge(m, q, j->psn, t);
	if (j->kind == JOB_NAK_SEQ) {
		/* A READ or atomic before the NAKed PSN whose answer did not
		 * come went back already, to before it (IBA 9.7.5.1.4): that
		 * go-back resends the NAKed PSN too, and answers the NAK. */
		if (q->tr_episode != ep)
			q->tr_cause = GEN_RS_NAK;
		else
			go_back(m, q, j->psn, GEN_RS_NAK);
		return;
	}
	/* RNR NAK: wait the responder's timer (IBA Table 45), then resend. */
	if (f->rnr_retry != 7) {
		if (q->rnr_left == 0) {
			gen_req_fail(m, q);
			return;
		}
		q->rnr_left--;
	}
	q->rnr_ns = t + (uint64_t)rw_rnr_timer_us(f->min_rnr_timer) * 1000u;
	q->rto_ns = 0;
}

int gen_model_rx_response(struct gen_model *m, uint32_t qpn, uint8_t opcode, uint32_t psn, uint8_t syndrome,
			  uint64_t now)
{
	uint32_t qi = gen_qpn_find(&m->ack_map, qpn);
	if (qi == UINT32_MAX)
		return 0;
	struct gen_qp *q = &m->qps[qi];
	if (q->flags & QF_FAILED)
		return 2;
	const struct rw_opcode_info *oi = rw_opcode(opcode);
	enum job_kind kind;
	uint32_t npkts = 0;
	psn &= RW_PSN_MASK;
	switch (oi->op) {
	case RW_OP_ACK: {
		enum rw_aeth_kind type = rw_aeth_kind_of(syndrome);
		uint8_t code = rw_aeth_value_of(syndrome);
		if (type == RW_AETH_ACK)
			kind = JOB_ACK;
		else if (type == RW_AETH_RNR_NAK)
			kind = JOB_NAK_RNR;
		else if (type == RW_AETH_NAK && code == RW_NAK_PSN_SEQ_ERROR)
			kind = JOB_NAK_SEQ;
		else
			kind = JOB_NAK_ACCESS; /* any other NAK ends the QP (IBA 9.7.5.2.4) */
		break;
	}
	case RW_OP_ATOMIC_ACK:
		kind = JOB_ATOMIC;
		break;
	case RW_OP_READ_RESP: {
		if (oi->flags & RW_OPF_FIRST)
			q->rd_next = psn;
		if (q->rd_next != psn) {
			q->rd_next = 1u << 31; /* a hole: the timer resends from it */
			return 2;
		}
		q->rd_next = (psn + 1) & RW_PSN_MASK;
		if (!(oi->flags & RW_OPF_LAST))
			return 2;
		struct gen_wqe *w = NULL;
		for (uint32_t i = 0; i < q->wq_n && !w; i++) {
			struct gen_wqe *c = gen_wq(m, q, i);
			if (c->op == GEN_OP_READ && !c->done && ((c->psn + c->npsn - 1) & RW_PSN_MASK) == psn)
				w = c;
		}
		if (!w)
			return 2; /* the answer to a READ sent again since, or none of ours */
		kind = JOB_READ;
		psn = w->psn;
		npkts = w->npsn;
		break;
	}
	default:
		return 2;
	}
	/* An ACK or NAK names a PSN the requester has sent and not seen
	 * acknowledged (a NAK: the one the responder expects, at most
	 * snd_max); anything else is stale (a duplicate after a go-back) or
	 * not for this connection, and a requester ignores it (IBA 9.7.5.1). */
	if (kind != JOB_READ && kind != JOB_ATOMIC) {
		int32_t lo = rw_psn_diff(psn, q->una), hi = rw_psn_diff(psn, q->snd_max);
		if (kind == JOB_ACK ? (lo < -1 || hi >= 0) : (lo < 0 || hi > 0))
			return 2;
	}
	const struct gen_lflow *lf = gen_qlf(m, q);
	if (q->jq_n >= lf->cap)
		return 2; /* more answers waiting than requests in flight: not ours to keep */
	struct gen_job *j = gen_jq(m, q, q->jq_n++);
	memset(j, 0, sizeof(*j));
	j->kind = (uint8_t)kind;
	j->psn = psn;
	j->npkts = npkts;
	/* it arrived now: gen_req_arrival_time() adds the link delay back */
	j->t_ns = now > m->sc->link_delay_ns ? now - m->sc->link_delay_ns : 0;
	q->jq_emit++;
	gen_clock_rekey(m, q);
	return 1;
}

void gen_model_rx_bounds(const struct gen_model *m, uint64_t *held, uint64_t *cap)
{
	*held = *cap = 0;
	for (uint32_t i = 0; i < m->nqp; i++) {
		*held += m->qps[i].jq_n;
		*cap += gen_qlf((struct gen_model *)m, &m->qps[i])->cap;
	}
}

uint64_t gen_req_arrival_time(struct gen_model *m, struct gen_qp *q)
{
	if (!q->jq_n)
		return GEN_NEVER;
	struct gen_job *j = gen_jq(m, q, 0);
	if ((j->flags & JOB_GAP) && !(j->flags & JOB_HANDLED))
		return j->t_ns + m->sc->link_delay_ns;
	if (!q->jq_emit)
		return GEN_NEVER;
	return j->t_ns + m->sc->link_delay_ns;
}

static void job_pop(struct gen_model *m, struct gen_qp *q)
{
	q->jq_head = (q->jq_head + 1) & (gen_qlf(m, q)->cap - 1);
	q->jq_n--;
	q->jq_emit--;
}

void gen_req_arrival(struct gen_model *m, struct gen_qp *q, uint64_t t)
{
	struct gen_job *j = gen_jq(m, q, 0);
	if (j->kind == JOB_READ && (j->flags & JOB_GAP) && !(j->flags & JOB_HANDLED)) {
		j->flags |= JOB_HANDLED;
		read_arrived(m, q, j, t);
		if (!(q->flags & QF_FAILED) && q->jq_emit && j->sent == j->npkts)
			job_pop(m, q);
		return;
	}
	struct gen_job jc = *j;
	job_pop(m, q);
	if ((jc.flags & (JOB_LOST | JOB_HANDLED)) || (q->flags & QF_FAILED))
		return;
	switch (jc.kind) {
	case JOB_ACK:
		acknowledge(m, q, jc.psn + 1, t);
		break;
	case JOB_NAK_SEQ:
	case JOB_NAK_RNR:
		nak_arrived(m, q, &jc, t);
		break;
	case JOB_NAK_ACCESS:
		gen_req_fail(m, q);
		break;
	case JOB_READ:
		read_arrived(m, q, &jc, t);
		break;
	case JOB_ATOMIC: {
		struct gen_wqe *w = wqe_at(m, q, jc.psn, 0);
		if (w) {
			rd_done(m, q, w);
			acknowledge(m, q, jc.psn + 1, t);
		}
		break;
	}
	default:
		break;
	}
}

void gen_req_timer(struct gen_model *m, struct gen_qp *q, uint64_t t)
{
	const struct gen_flow *f = gen_qlf(m, q)->f;
	if (q->rnr_ns) {
		q->rnr_ns = 0;
		go_back(m, q, q->una, GEN_RS_RNR);
		return;
	}
	if (!q->wq_n) {
		q->rto_ns = 0;
		return;
	}
	/* Local ACK timeout (IBA 9.7.6.1.3): resend from the oldest
	 * unacknowledged PSN, until the retry count runs out. */
	if (q->retries_left == 0) {
		gen_req_fail(m, q);
		return;
	}
	q->retries_left--;
	m->stats[q->flow].timeouts++;
	go_back(m, q, q->una, GEN_RS_TIMEOUT);
	q->rto_ns = t + f->retransmission_timeout_ns;
}

int gen_req_idle(struct gen_model *m, struct gen_qp *q)
{
	(void)m;
	return (q->flags & (QF_REQ_DONE | QF_FAILED)) && q->wq_n == 0 && q->jq_n == 0;
}

/* ---- sending ---- */

uint64_t gen_next_va(struct gen_lflow *lf, struct gen_qp *q, uint8_t op, uint32_t len)
{
	const struct gen_flow *f = lf->f;
	if (is_atomic(op))
		return lf->atomic_base + 8ull * (q->atomic_n++ % lf->nslots);
	if (op != GEN_OP_WRITE && op != GEN_OP_WRITE_IMM && op != GEN_OP_READ)
		return 0;
	/* Messages are laid end to end in the remote buffer; one that would
	 * run past its end starts again at its beginning. */
	if (f->remote_len && q->va_off + len > f->remote_len)
		q->va_off = 0;
	uint64_t va = f->va + q->va_off;
	q->va_off += len;
	return va;
}

static void new_wqe(struct gen_model *m, struct gen_qp *q)
{
	struct gen_lflow *lf = gen_qlf(m, q);
	struct gen_wqe *w = gen_wq(m, q, q->wq_n);
	memset(w, 0, sizeof(*w));
	w->op = q->next_op;
	w->len = q->next_len;
	w->npsn = npsn_of(lf, w->op, w->len);
	w->psn = q->next_psn;
	w->va = gen_next_va(lf, q, w->op, w->len);
	w->seq = (uint32_t)q->msgs_created;
	q->next_psn = (q->next_psn + w->npsn) & RW_PSN_MASK;
	q->wq_n++;
	q->msgs_created++;
	m->stats[q->flow].messages_started[w->op]++;
	if (is_rd_atomic(w->op) && lf->acks)
		q->rd_out++;
	choose_next(m, q);
}

/* Writes every field of pk but t_ns, dir, ackreq, flags, resend and
 * frame_len; the extension headers the opcode does not carry are zero. */
static inline void fill_request(struct gen_lflow *lf, const struct gen_qp *q, const struct gen_wqe *w,
				uint32_t k, struct gen_pkt *pk)
{
	const struct gen_flow *f = lf->f;
	unsigned pos = w->npsn == 1 ? POS_ONLY : k == 0 ? POS_FIRST : k + 1 == w->npsn ? POS_LAST : POS_MIDDLE;
	if (is_rd_atomic(w->op))
		pos = POS_ONLY;
	pk->flow = q->flow;
	pk->qp = q->qp;
	pk->opcode = lf->opc[w->op][pos];
	pk->f.se = 0;
	pk->f.becn = 0;
	pk->f.psn = (w->psn + k) & RW_PSN_MASK;
	pk->f.dqpn = (f->dst_qpn + q->qp) & RW_QPN_MASK;
	pk->hdrs = lf->opc_hdrs[w->op][pos];
	pk->payload_len = 0;
	if (!is_rd_atomic(w->op)) {
		uint32_t off = k << lf->mtu_shift;
		pk->payload_len = w->len - off < lf->mtu ? w->len - off : lf->mtu;
	}
	/* The extension headers as one block: zero, then what the opcode
	 * carries (a message's middle packets carry none). */
	pk->f.reth = (struct rw_reth){ 0 };
	pk->f.aeth = (struct rw_aeth){ 0 };
	pk->f.atomic = (struct rw_atomiceth){ 0 };
	pk->f.atomic_orig = 0;
	pk->f.deth = (struct rw_deth){ 0 };
	if (pk->hdrs & RW_HDR_RETH) {
		pk->f.reth.va = w->va;
		pk->f.reth.rkey = f->rkey;
		pk->f.reth.dmalen = w->len;
	}
	if (pk->hdrs & RW_HDR_ATOMICETH) {
		pk->f.atomic.va = w->va;
		pk->f.atomic.rkey = f->rkey;
		pk->f.atomic.swap_add = f->swap_add;
		pk->f.atomic.compare = w->op == GEN_OP_CMP_SWAP ? f->compare : 0;
	}
	if (pk->hdrs & RW_HDR_DETH) {
		pk->f.deth.qkey = f->qkey;
		pk->f.deth.sqpn = (f->src_qpn + q->qp) & RW_QPN_MASK;
	}
	pk->f.immdt = f->immediate_sequence ? w->seq : f->immediate;
	pk->f.ieth = f->invalidate_rkey;
}

void gen_single_fill(const struct gen_lflow *lf, uint32_t qp, uint8_t op, uint32_t len, uint32_t psn, uint64_t va,
		     uint32_t seq, uint64_t t, struct gen_pkt *pk)
{
	const struct gen_flow *f = lf->f;

	pk->t_ns = t;
	pk->kind = GEN_PK_ROCE;
	pk->flow = lf->index;
	pk->qp = qp;
	pk->dir = GEN_DIR_REQUEST;
	pk->opcode = lf->opc[op][POS_ONLY];
	pk->f.ackreq = 0;
	pk->f.se = 0;
	pk->flags = 0;
	pk->f.becn = 0;
	pk->resend = 0;
	pk->f.dqpn = (f->dst_qpn + qp) & RW_QPN_MASK;
	pk->f.psn = psn;
	pk->payload_len = len;
	pk->hdrs = lf->opc_hdrs[op][POS_ONLY];
	pk->f.reth = (struct rw_reth){ 0 };
	pk->f.aeth = (struct rw_aeth){ 0 };
	pk->f.atomic = (struct rw_atomiceth){ 0 };
	pk->f.atomic_orig = 0;
	pk->f.deth = (struct rw_deth){ 0 };
	if (pk->hdrs & RW_HDR_RETH) {
		pk->f.reth.va = va;
		pk->f.reth.rkey = f->rkey;
		pk->f.reth.dmalen = len;
	}
	if (pk->hdrs & RW_HDR_DETH) {
		pk->f.deth.qkey = f->qkey;
		pk->f.deth.sqpn = (f->src_qpn + qp) & RW_QPN_MASK;
	}
	pk->f.immdt = f->immediate_sequence ? seq : f->immediate;
	pk->f.ieth = f->invalidate_rkey;
	pk->frame_len = gen_frame_len(lf, pk->opcode, len);
}

/* The steady state of an unreliable flow no fault can hit: a message of
 * one packet, complete once sent. What new_wqe(), fill_request() and
 * gen_req_send() do for it, without the WQE ring. */
static int send_single(struct gen_model *m, struct gen_qp *q, struct gen_lflow *lf, uint64_t t,
		       struct gen_pkt *pk)
{
	struct gen_flow_stats *st = &m->stats[q->flow];
	uint8_t op = q->next_op;
	uint32_t len = q->next_len, psn = q->next_psn;
	uint64_t va = gen_next_va(lf, q, op, len);

	q->next_psn = (psn + 1) & RW_PSN_MASK;
	uint32_t seq = (uint32_t)q->msgs_created;
	q->msgs_created++;
	st->messages_started[op]++;
	if (!lf->no_draw) /* else the next message is this one again */
		choose_next(m, q);
	gen_single_fill(lf, q->qp, op, len, psn, va, seq, t, pk);
	/* a PSN behind the highest sent is a resend (never, without faults) */
	pk->resend = rw_psn_diff(psn, q->snd_max) < 0;
	if (rw_psn_diff(q->next_psn, q->snd_max) > 0)
		q->snd_max = q->next_psn;
	q->next_tx_ns = gen_pace(lf, q, t, pk->frame_len, &q->tx_frac, &q->tx_len, &q->tx_gap);
	st->messages[op]++;
	gen_emit_count(m, pk);
	return 1;
}

int gen_req_send(struct gen_model *m, struct gen_qp *q, uint64_t t, struct gen_pkt *out)
{
	struct gen_lflow *lf = gen_qlf(m, q);
	const struct gen_flow *f = lf->f;
	if (q->cur == q->wq_n) {
		if (lf->simple && q->next_len <= lf->mtu)
			return send_single(m, q, lf, t, out);
		new_wqe(m, q);
		gen_wq(m, q, q->cur)->t0 = t;
	}
	struct gen_wqe *w = gen_wq(m, q, q->cur);
	uint32_t k = q->cur_pkt;
	/* Written in place: a packet the faults drop is overwritten by the
	 * next one. */
	struct gen_pkt *pk = out;
	pk->t_ns = t;
	pk->dir = GEN_DIR_REQUEST;
	pk->f.ackreq = 0;
	pk->flags = 0;
	fill_request(lf, q, w, k, pk);
	pk->resend = rw_psn_diff(pk->f.psn, q->snd_max) < 0;
	int last = is_rd_atomic(w->op) || k + 1 == w->npsn;
	/* AckReq every ack_request_interval packets and on every message's
	 * last packet: the responder answers those (RC only). */
	if (f->transport == GEN_RC) {
		q->since_ackreq++;
		if (last || (f->ack_request_interval && q->since_ackreq >= f->ack_request_interval)) {
			pk->f.ackreq = 1;
			q->since_ackreq = 0;
		}
	}
	pk->frame_len = gen_frame_len(lf, pk->opcode, pk->payload_len);

	uint32_t end = (pk->f.psn + (w->op == GEN_OP_READ ? w->npsn : 1)) & RW_PSN_MASK;
	uint32_t tx = pk->resend ? gen_txhist_transmission(&q->req_hist, pk->f.psn, q->snd_max) : 1;
	if (rw_psn_diff(end, q->snd_max) > 0)
		q->snd_max = end;
	if (last) {
		q->cur++;
		q->cur_pkt = 0;
	} else {
		q->cur_pkt++;
	}
	q->next_tx_ns = gen_pace(lf, q, t, pk->frame_len, &q->tx_frac, &q->tx_len, &q->tx_gap);

	/* A flow no fault can hit pays nothing for faults. */
	m->pk_dropped = m->pk_lost = m->pk_rnr = 0;
	if (lf->faulty)
		gen_fault_apply(m, q, pk, tx);
	/* Through the simulated switch, the responder gets the request when
	 * it leaves the port (flow_cc.c); the port may drop or mark it. */
	if (lf->cc && !m->pk_lost && !m->pk_dropped)
		gen_cc_request(m, q, pk, t);
	else if (lf->rp && !lf->cc)
		gen_cc_sent(m, q, pk, t);
	if (lf->acks) {
		if (!q->rto_ns && f->retransmission_timeout_ns)
			q->rto_ns = t + f->retransmission_timeout_ns;
		if (lf->responder && !m->pk_lost && !lf->cc)
			gen_resp_request(m, q, pk, t + m->sc->link_delay_ns);
	} else if (last) {
		/* Unreliable, or a real responder we do not model: the message
		 * is complete once it is sent. */
		m->stats[q->flow].messages[w->op]++;
		if (m->cc)
			gen_cc_complete(m, q, w, t);
		q->wq_head = (q->wq_head + 1) & (lf->cap - 1);
		q->wq_n--;
		q->cur--;
	}
	if (m->pk_dropped) {
		if (m->tr)
			gen_tr_request(m, q, w, pk, tx);
		return 0;
	}
	gen_emit_count(m, pk);
	if (m->tr)
		gen_tr_request(m, q, w, pk, tx);
	return 1;
}
