/* SPDX-License-Identifier: BSD-3-Clause */
/* Faults: which packets a scenario's faults hit, and what happens to them.
 * A packet is named as Lumina's event files name it: by QP, PSN, opcode,
 * direction and which transmission of that PSN it is. */
#include "flow_int.h"

/* Transmission number of a PSN from the go-back-N episodes that resent it:
 * each episode sent [start, end) once more. */
uint32_t gen_txhist_transmission(const struct gen_txhist *h, uint32_t psn, uint32_t max)
{
	uint32_t n = 1;
	(void)max;
	for (unsigned i = 0; i < h->n; i++)
		if (rw_psn_diff(psn, h->start[i]) >= 0 && rw_psn_diff(h->end[i], psn) > 0)
			n++;
	return n;
}

static void hist_del(struct gen_txhist *h, unsigned i)
{
	for (unsigned k = i + 1; k < h->n; k++) {
		h->start[k - 1] = h->start[k];
		h->end[k - 1] = h->end[k];
	}
	h->n--;
}

/* A new episode from start, the sender having sent up to end and being at
 * pos when it went back: earlier episodes only resent what lies before
 * pos, and those wholly below `done` will never be sent again. */
void gen_txhist_add(struct gen_txhist *h, uint32_t start, uint32_t end, uint32_t pos, uint32_t done)
{
	for (unsigned i = h->n; i-- > 0;) {
		if (rw_psn_diff(pos, h->start[i]) <= 0 || rw_psn_diff(h->end[i], done) <= 0) {
			hist_del(h, i);
			continue;
		}
		if (rw_psn_diff(h->end[i], pos) > 0)
			h->end[i] = pos;
	}
	if (h->n == GEN_TXHIST)
		hist_del(h, 0);
	h->start[h->n] = start & RW_PSN_MASK;
	h->end[h->n] = end & RW_PSN_MASK;
	h->n++;
}

/* Whether the action can happen to this packet at all. */
static int applicable(enum gen_fault_action a, const struct gen_pkt *pk)
{
	const struct rw_opcode_info *i = rw_opcode(pk->opcode);
	switch (a) {
	case GEN_FAULT_RNR:
		/* Receive-not-ready is about a receive WQE: SENDs only, at
		 * the start of their message. */
		return pk->dir == GEN_DIR_REQUEST && i->op == RW_OP_SEND && (i->flags & RW_OPF_FIRST);
	case GEN_FAULT_BAD_RKEY:
		return pk->dir == GEN_DIR_REQUEST && (i->hdrs & (RW_HDR_RETH | RW_HDR_ATOMICETH));
	default:
		return 1;
	}
}

static int matches(const struct gen_fault *fl, const struct gen_pkt *pk, uint32_t tx)
{
	if (fl->flow >= 0 && (uint32_t)fl->flow != pk->flow)
		return 0;
	if (fl->qpn >= 0 && (uint32_t)fl->qpn != pk->f.dqpn)
		return 0;
	if (fl->psn_lo >= 0 && pk->f.psn < (uint64_t)fl->psn_lo)
		return 0;
	if (fl->psn_hi >= 0 && pk->f.psn > (uint64_t)fl->psn_hi)
		return 0;
	if (fl->opcode >= 0 && (uint32_t)fl->opcode != pk->opcode)
		return 0;
	if (fl->dir != GEN_DIR_ANY && (uint8_t)fl->dir != pk->dir)
		return 0;
	if (fl->transmission && fl->transmission != tx)
		return 0;
	if (pk->t_ns < fl->after_ns || (fl->until_ns && pk->t_ns >= fl->until_ns))
		return 0;
	return applicable(fl->action, pk);
}

void gen_fault_apply(struct gen_model *m, struct gen_qp *q, struct gen_pkt *pk, uint32_t tx)
{
	m->pk_dropped = m->pk_lost = m->pk_rnr = 0;
	for (uint32_t i = 0; i < m->sc->n_faults; i++) {
		const struct gen_fault *fl = &m->sc->faults[i];
		struct gen_fault_state *fs = &m->fst[i];
		if (!matches(fl, pk, tx))
			continue;
		fs->matched++;
		if (fl->every > 1 && fs->matched % fl->every != 0)
			continue;
		if (fl->count && fs->applied >= fl->count)
			continue;
		/* A uniform draw in [0, 1) from the QP's own fault stream: 53
		 * bits, exactly representable. */
		if (fl->probability > 0 && fl->probability < 1 &&
		    (double)(gen_prng(&q->frng) >> 11) * 0x1p-53 >= fl->probability)
			continue;
		fs->applied++;
		m->stats[pk->flow].faults[fl->action]++;
		switch (fl->action) {
		case GEN_FAULT_DROP:
			m->pk_dropped = m->pk_lost = 1;
			break;
		case GEN_FAULT_ECN_MARK:
			pk->flags |= GEN_PF_CE;
			break;
		case GEN_FAULT_CORRUPT:
			pk->flags |= GEN_PF_CORRUPT;
			m->pk_lost = 1; /* a bad ICRC is dropped silently by the receiver */
			break;
		case GEN_FAULT_RNR:
			m->pk_rnr = 1;
			break;
		case GEN_FAULT_BAD_RKEY:
			if (pk->hdrs & RW_HDR_RETH)
				pk->f.reth.rkey ^= GEN_BAD_RKEY_XOR;
			else
				pk->f.atomic.rkey ^= GEN_BAD_RKEY_XOR;
			break;
		}
	}
}
