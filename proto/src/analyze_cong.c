/* SPDX-License-Identifier: BSD-3-Clause */
/* Congestion: ECN CE marks, the CNPs they cause, and PFC / 802.3x PAUSE. */
#include <string.h>

#include "analyze_int.h"

void ce_push(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts, uint64_t frame)
{
	f->ce_last_ns = ts;
	if (!f->ce)
		f->ce = an_alloc(a, sizeof(*f->ce), 0);
	struct rw_ce_ring *r = f->ce;
	if (!r)
		return;
	unsigned i = (r->head + r->n) % RW_CE_RING;
	if (r->n == RW_CE_RING)
		r->head = (r->head + 1) % RW_CE_RING;
	else
		r->n++;
	r->e[i].ts = ts;
	r->e[i].frame = frame;
}

/* A CNP goes from the notification point (the receiver of CE-marked data)
 * back to the reaction point, addressed to the sender's QP: the same key as
 * the responder's ACKs, so the paired request flow is the one it slows. For
 * unpaired flows (UC, or ACKs not captured), the request flow of the
 * reverse address pair with the most recent CE mark (else the most recent
 * request) is taken: both are kept per address pair, so this costs one
 * lookup, whatever the number of flows. */
void handle_cnp(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts, uint64_t frame,
		struct rw_note *n)
{
	struct rw_flow *t = f->peer >= 0 ? flow_at(a, (uint32_t)f->peer) : NULL;
	if (!t) {
		int32_t rp = an_pair_lookup(a, f->key.family, f->key.dst, f->key.src, 0);
		if (rp >= 0) {
			const struct rw_addr_pair *ap = &a->pairs[rp];
			int32_t i = ap->last_ce_flow >= 0 ? ap->last_ce_flow : ap->last_req_flow;
			if (i >= 0)
				t = flow_at(a, (uint32_t)i);
		}
	}
	struct rw_flow *owner = t ? t : f;
	conf_on_cnp(a, f, owner, ts, frame);
	n->cnp_flow = owner->index;
	owner->cnps++;
	if (owner->cnp_last_ns) {
		uint64_t iv = ts - owner->cnp_last_ns;
		if (!owner->cnp_min_interval_ns || iv < owner->cnp_min_interval_ns)
			owner->cnp_min_interval_ns = iv;
	}
	owner->cnp_last_ns = ts;

	uint32_t linked = 0;
	struct rw_ce_ring *r = t ? t->ce : NULL;
	/* Take every CE mark of the window, oldest first; each CE mark
	 * explains at most one CNP. */
	while (r && r->n) {
		uint64_t cts = r->e[r->head].ts;
		if (cts > ts)
			break;
		if (ts - cts <= a->cfg.cnp_window_ns) {
			if (!linked)
				n->ce_frame = r->e[r->head].frame;
			linked++;
		}
		r->head = (r->head + 1) % RW_CE_RING;
		r->n--;
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

void handle_macctrl(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts,
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

int paused(const struct rw_analyzer *a, uint8_t prio, uint64_t ts)
{
	return a->totals.pfc[prio & 7].until_ns > ts || a->totals.pfc[RW_PAUSE_ALL].until_ns > ts;
}

void pause_finish(struct rw_analyzer *a, uint64_t ts)
{
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
