/* SPDX-License-Identifier: BSD-3-Clause */
/* The bounded time series behind the HTML plots (see report_int.h for the
 * bounds). Every per-packet update is O(1) and allocates nothing; the rare
 * O(bins) steps (a bin width doubling, a PSN buffer halving, a pause
 * interval closing) are amortised over many packets. */
#include <string.h>

#include "report_int.h"

static uint32_t series_in_use(const struct cap_report *r)
{
	uint32_t n = rw_analyzer_flow_count(r->a);
	return n < r->nseries ? n : r->nseries;
}

static void halve64(uint64_t *a)
{
	for (unsigned i = 0; i < RS_BINS / 2; i++)
		a[i] = a[2 * i] + a[2 * i + 1];
	memset(a + RS_BINS / 2, 0, RS_BINS / 2 * sizeof(*a));
}

static void halve32(uint32_t *a)
{
	for (unsigned i = 0; i < RS_BINS / 2; i++) {
		uint64_t v = (uint64_t)a[2 * i] + a[2 * i + 1];
		a[i] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	memset(a + RS_BINS / 2, 0, RS_BINS / 2 * sizeof(*a));
}

void rs_cover(struct cap_report *r, uint64_t t)
{
	while ((t >> r->shift) >= RS_BINS) {
		uint32_t n = series_in_use(r);
		for (uint32_t i = 0; i < n; i++) {
			struct rs_flow *s = &r->series[i];
			halve64(s->bytes);
			/* Most flows never see a CE mark or a CNP: their bins stay
			 * zero, and untouched pages are never faulted in. */
			if (s->n_ce || s->ce_over)
				halve32(s->ce_bin);
			if (s->n_cnp || s->cnp_over)
				halve32(s->cnp_bin);
		}
		halve64(r->total_bytes);
		for (unsigned i = 0; i < RS_PRIOS; i++)
			halve64(r->prio[i].paused);
		r->shift++;
	}
}

uint32_t rs_bins_used(const struct cap_report *r)
{
	if (!r->have_t0)
		return 0;
	uint64_t b = (r->t_end >> r->shift) + 1;
	return b > RS_BINS ? RS_BINS : (uint32_t)b;
}

static uint64_t rel(const struct cap_report *r, uint64_t ts)
{
	return ts > r->t0 ? ts - r->t0 : 0;
}

/* ---- PSN line and events ---- */

static void psn_sample(struct rs_flow *s, uint64_t t)
{
	if (s->n_psn == RS_PSN_MAX) {
		/* Keep every other sample: the survivors are exactly those a
		 * stride twice as long would have taken. */
		for (unsigned i = 0; i < RS_PSN_MAX / 2; i++)
			s->psn[i] = s->psn[2 * i];
		s->n_psn = RS_PSN_MAX / 2;
		s->psn_stride_log++;
	}
	s->psn[s->n_psn].t = t;
	s->psn[s->n_psn].upsn = s->upsn;
	s->n_psn++;
}

static void ev_add(struct rs_evbuf *b, uint64_t t, int64_t upsn, uint32_t len, uint32_t kind)
{
	uint64_t mask = ((uint64_t)1 << b->stride_log) - 1;
	if ((b->seen++ & mask) != 0)
		return;
	if (b->n == RS_EV_MAX) {
		for (unsigned i = 0; i < RS_EV_MAX / 2; i++)
			b->e[i] = b->e[2 * i];
		b->n = RS_EV_MAX / 2;
		b->stride_log++;
	}
	struct rs_event *e = &b->e[b->n++];
	e->t = t;
	e->upsn = upsn;
	e->len = len;
	e->kind = kind;
}

static void psn_point(struct rs_flow *s, uint32_t psn, uint64_t t, uint32_t flags, uint32_t gap)
{
	if (!s->psn_valid) {
		s->psn_valid = 1;
		s->first_psn = psn;
		s->upsn = s->upsn_min = s->upsn_max = 0;
	} else {
		s->upsn += rw_psn_diff(psn, s->last_psn);
		if (s->upsn < s->upsn_min)
			s->upsn_min = s->upsn;
		if (s->upsn > s->upsn_max)
			s->upsn_max = s->upsn;
	}
	s->last_psn = psn;
	s->last_t = t;
	if (flags & (RW_N_RETRANS | RW_N_GAP | RW_N_OOO)) {
		uint32_t kind = flags & RW_N_GBN_START ? RS_EV_GBN :
				flags & RW_N_RETRANS	 ? RS_EV_RETRANS :
				flags & RW_N_GAP	 ? RS_EV_GAP :
							   RS_EV_OOO;
		ev_add(&s->evb[kind == RS_EV_RETRANS ? RS_EVB_RETRANS : RS_EVB_EPISODES], t, s->upsn, gap,
		       kind);
	}
	uint64_t mask = ((uint64_t)1 << s->psn_stride_log) - 1;
	if ((s->psn_seen++ & mask) == 0)
		psn_sample(s, t);
}

/* ---- CNPs ---- */

static uint32_t pair_hash(const struct rw_flow_key *k, int reverse)
{
	const uint8_t *a = reverse ? k->dst : k->src, *b = reverse ? k->src : k->dst;
	uint64_t x = k->family, v;
	for (unsigned i = 0; i < 16; i += 8) {
		memcpy(&v, a + i, 8);
		x = (x ^ v) * 0x9E3779B97F4A7C15ull;
		memcpy(&v, b + i, 8);
		x = (x ^ v) * 0xBF58476D1CE4E5B9ull;
	}
	return (uint32_t)(x >> 40) % RS_CE_PAIRS;
}

static int cnp_moved(const struct cap_report *r, uint32_t i)
{
	return i < series_in_use(r) && rw_analyzer_flow(r->a, i)->cnps != r->series[i].cnps_seen;
}

/* The analyzer counts a CNP on the flow it slows (the request flow), which
 * is not the CNP's own flow. Rather than repeat its rule, find the flow
 * whose CNP count just moved: the CNP flow's peer, the flow of the latest
 * CE mark in the other direction, the flow this CNP flow slowed last time,
 * the CNP flow itself, and only then all flows. */
static void cnp_place(struct cap_report *r, uint32_t cf, uint64_t t, uint64_t bi)
{
	const struct rw_flow *f = rw_analyzer_flow(r->a, cf);
	struct rs_flow *cs = &r->series[cf];
	int64_t owner = -1;
	int64_t cand[4] = {f->peer, (int64_t)r->ce_pair[pair_hash(&f->key, 1)] - 1,
			   (int64_t)cs->cnp_owner - 1, (int64_t)cf};
	for (unsigned k = 0; k < 4 && owner < 0; k++)
		if (cand[k] >= 0 && cnp_moved(r, (uint32_t)cand[k]))
			owner = cand[k];
	if (owner < 0) {
		uint32_t n = series_in_use(r);
		for (uint32_t i = 0; i < n && owner < 0; i++)
			if (cnp_moved(r, i))
				owner = i;
	}
	if (owner < 0)
		return; /* slowed a flow that keeps no series */
	struct rs_flow *s = &r->series[owner];
	s->cnps_seen = rw_analyzer_flow(r->a, (uint32_t)owner)->cnps;
	cs->cnp_owner = (uint32_t)owner + 1;
	if (s->cnp_bin[bi] < UINT32_MAX)
		s->cnp_bin[bi]++;
	if (s->n_cnp < RS_MARK_MAX)
		s->cnp[s->n_cnp++] = t;
	else
		s->cnp_over++;
}

/* ---- PFC / PAUSE intervals ---- */

static void pause_close(struct cap_report *r, struct rs_prio *q, uint64_t end_abs)
{
	uint64_t s = rel(r, q->open_start), e = rel(r, end_abs);
	q->open = 0;
	if (e < s)
		e = s;
	if (q->n < RS_PAUSE_MAX) {
		q->iv[q->n].start = s;
		q->iv[q->n].end = e;
		q->n++;
	} else {
		q->over++;
	}
	if (e == s)
		return;
	rs_cover(r, e);
	uint64_t w = rs_bin_ns(r);
	for (uint64_t b = s >> r->shift; b <= (e - 1) >> r->shift && b < RS_BINS; b++) {
		uint64_t lo = b * w, hi = lo + w;
		if (lo < s)
			lo = s;
		if (hi > e)
			hi = e;
		q->paused[b] += hi - lo;
	}
}

/* Follows the analyzer's pause state after a PFC/PAUSE frame: a run is
 * known by its start; it ends at its deadline, or earlier at an XON. */
static void pause_update(struct cap_report *r, uint64_t ts)
{
	const struct rw_totals *tot = rw_analyzer_totals(r->a);
	for (unsigned i = 0; i < RS_PRIOS; i++) {
		const struct rw_pfc_prio *s = &tot->pfc[i];
		struct rs_prio *q = &r->prio[i];
		if (s->until_ns) {
			if (q->open && q->open_start == s->run_start_ns) {
				q->open_end = s->until_ns;
				continue;
			}
			if (q->open)
				pause_close(r, q, q->open_end < ts ? q->open_end : ts);
			q->open = 1;
			q->open_start = s->run_start_ns;
			q->open_end = s->until_ns;
		} else if (q->open) {
			pause_close(r, q, q->open_end < ts ? q->open_end : ts);
		}
	}
}

/* ---- per packet ---- */

void rs_packet(struct cap_report *r, const struct rw_packet *p, uint64_t ts,
	       const struct rw_note *n)
{
	if (!r->have_t0) {
		r->have_t0 = 1;
		r->t0 = ts;
	}
	uint64_t t = rel(r, ts);
	if (t > r->t_end)
		r->t_end = t;
	uint64_t bi = t >> r->shift;
	if (bi >= RS_BINS) {
		rs_cover(r, t);
		bi = t >> r->shift;
	}
	r->total_bytes[bi] += p->wirelen;
	if (n->flags & RW_N_PFC) {
		pause_update(r, ts);
		return;
	}
	if (n->flow < 0 || (uint32_t)n->flow >= r->nseries)
		return;
	struct rs_flow *s = &r->series[n->flow];
	s->bytes[bi] += p->wirelen;
	if (n->flags & RW_N_CE) {
		r->ce_pair[pair_hash(&rw_analyzer_flow(r->a, (uint32_t)n->flow)->key, 0)] =
			(uint32_t)n->flow + 1;
		if (s->ce_bin[bi] < UINT32_MAX)
			s->ce_bin[bi]++;
		if (s->n_ce < RS_MARK_MAX)
			s->ce[s->n_ce++] = t;
		else
			s->ce_over++;
	}
	const struct rw_opcode_info *op = p->op;
	if (op->op == RW_OP_CNP) {
		cnp_place(r, (uint32_t)n->flow, t, bi);
		return;
	}
	/* UD senders share the destination QP: their PSNs interleave. */
	if (op->transport == RW_TRANSPORT_UD)
		return;
	psn_point(s, p->bth.psn, t, n->flags, n->gap_len);
}

void rs_finish(struct cap_report *r, uint64_t ts)
{
	if (!r->have_t0)
		return;
	uint64_t t = rel(r, ts);
	if (t > r->t_end)
		r->t_end = t;
	rs_cover(r, r->t_end);
	for (unsigned i = 0; i < RS_PRIOS; i++) {
		struct rs_prio *q = &r->prio[i];
		if (q->open)
			pause_close(r, q, q->open_end < ts ? q->open_end : ts);
	}
	/* The PSN lines end at each flow's last packet. */
	uint32_t n = series_in_use(r);
	for (uint32_t i = 0; i < n; i++) {
		struct rs_flow *s = &r->series[i];
		if (s->psn_valid && (s->n_psn == 0 || s->psn[s->n_psn - 1].t != s->last_t ||
				     s->psn[s->n_psn - 1].upsn != s->upsn))
			psn_sample(s, s->last_t);
	}
}
