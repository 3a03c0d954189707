/* SPDX-License-Identifier: BSD-3-Clause */
/* The lockstep stream (flow.h): the clock's order for a shard of one
 * unreliable flow, without the clock.
 *
 * QP 0's requester state stands for every QP's: all start at the flow's
 * start time and send frames of one length at one rate, so they keep one
 * pacing clock (the same gap, the same fractional remainder), one place in
 * the remote buffer and one message count; only their PSNs differ, by the
 * offsets of their initial PSNs. The clock breaks their ties by QP index,
 * so round k is QP 0, 1, ... nq - 1 at t_k. The tests that end a run (the
 * run's duration and packet limit, the flow's message count and stop time)
 * are gen_model_next()'s and gen_req_send_time()'s, made where they would
 * make them: the packet limit between two packets, the others per round. */
#include <stdlib.h>

#include "flow_int.h"

int gen_model_lockstep_possible(const struct gen_model *m)
{
	/* one flow, nothing sent yet, no simulated switch, no ground truth
	 * (the stream keeps no per-packet state to make records from) */
	if (m->ls || m->nlf != 1 || m->cc || m->tr || m->emitted || m->over)
		return 0;
	const struct gen_lflow *lf = &m->lf[0];
	const struct gen_flow *f = lf->f;
	const struct gen_qp *q = &m->qps[0];
	/* simple: UC or UD, no fault, no reaction point; no_draw: one op of
	 * one size; messages of one packet; ImmDt the same in every packet */
	if (!lf->simple || !lf->no_draw || lf->acks || q->next_len > lf->mtu || f->immediate_sequence ||
	    (q->flags & QF_REQ_DONE))
		return 0;
	for (unsigned p = 0; p < 8; p++)
		if (m->pause_until[p])
			return 0;
	return 1;
}

const struct gen_lockstep *gen_model_lockstep(struct gen_model *m)
{
	if (m->ls)
		return &m->ls->info;
	if (!gen_model_lockstep_possible(m))
		return NULL;
	struct gen_lflow *lf = &m->lf[0];
	struct gen_qp *q = &m->qps[0];
	struct gen_ls *ls = calloc(1, sizeof(*ls));
	if (!ls)
		return NULL;
	ls->op = q->next_op;
	ls->info.flow = lf->index;
	ls->info.nq = m->nqp;
	ls->info.opcode = lf->opc[ls->op][POS_ONLY];
	ls->info.payload_len = q->next_len;
	ls->info.frame_len = gen_frame_len(lf, ls->info.opcode, q->next_len);
	m->ls = ls;
	return &ls->info;
}

uint32_t gen_model_rounds(struct gen_model *m, struct gen_round *out, uint32_t max_rounds, uint32_t max_pkts,
			  uint64_t until_ns)
{
	struct gen_ls *ls = m->ls;
	struct gen_lflow *lf = &m->lf[0];
	const struct gen_flow *f = lf->f;
	struct gen_qp *q = &m->qps[0];
	struct gen_flow_stats *st = &m->stats[lf->index];
	const uint32_t nq = ls->info.nq, frame_len = ls->info.frame_len;
	uint32_t nr = 0, left = max_pkts;

	while (!ls->done && nr < max_rounds && left) {
		uint64_t t = q->next_tx_ns;
		uint32_t n = nq - ls->qi;

		if (t > until_ns)
			break;
		if (m->limit) {
			if (m->emitted >= m->limit) {
				ls->done = 1;
				break;
			}
			if (m->limit - m->emitted < n)
				n = (uint32_t)(m->limit - m->emitted);
		}
		if ((m->sc->duration_ns && t >= m->sc->duration_ns) ||
		    (f->messages && q->msgs_created >= f->messages) || (f->stop_ns && t >= f->stop_ns)) {
			ls->done = 1;
			break;
		}
		if (n > left)
			n = left;
		if (ls->qi == 0)
			ls->va = gen_next_va(lf, q, ls->op, ls->info.payload_len);
		out[nr] = (struct gen_round){ .t_ns = t, .va = ls->va, .psn = q->next_psn, .qp0 = ls->qi, .n = n };
		nr++;
		if (st->packets[0] + st->packets[1] == 0)
			st->first_ns = t;
		st->last_ns = t;
		st->packets[0] += n;
		st->bytes[0] += (uint64_t)n * frame_len;
		st->messages_started[ls->op] += n;
		st->messages[ls->op] += n;
		m->emitted += n;
		left -= n;
		ls->qi += n;
		if (ls->qi == nq) {
			ls->qi = 0;
			q->next_psn = q->snd_max = (q->next_psn + 1) & RW_PSN_MASK;
			q->msgs_created++;
			q->next_tx_ns = gen_pace(lf, q, t, frame_len, &q->tx_frac, &q->tx_len, &q->tx_gap);
		}
	}
	return nr;
}

void gen_lockstep_free(struct gen_ls *ls)
{
	free(ls);
}

void gen_model_round_pkt(const struct gen_model *m, const struct gen_round *r, uint32_t i, struct gen_pkt *out)
{
	const struct gen_lflow *lf = &m->lf[0];
	uint32_t qp = r->qp0 + i;
	/* qp_init's initial PSN, moved on by the round's */
	uint32_t psn = (r->psn + qp * lf->f->psn_stride) & RW_PSN_MASK;

	/* no ImmDt sequence in lockstep: the message number is not needed */
	gen_single_fill(lf, qp, m->ls->op, m->ls->info.payload_len, psn, r->va, 0, r->t_ns, out);
}
