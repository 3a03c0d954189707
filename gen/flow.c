/* SPDX-License-Identifier: BSD-3-Clause */
/* The flow model's clock: every QP of the shard in one tournament tree keyed
 * by the time of its next event (a packet from either end, a response
 * arriving at the requester, a timer). The clock is lazy about pauses: a QP
 * whose key turns out to be early is re-keyed when it comes first. Everything is
 * allocated in gen_model_new(); gen_model_next() allocates nothing. */
#include <stdlib.h>
#include <string.h>

#include "flow_int.h"

/* splitmix64: a full-period generator whose seeds may be consecutive
 * integers (flow and QP numbers) without correlated streams. */
uint64_t gen_prng(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

double gen_pace_gap(const struct gen_lflow *lf, const struct gen_qp *q, uint32_t frame_len)
{
	if (q->rate_bps > 0)
		return (double)(frame_len + GEN_WIRE_EXTRA) * 8.0 * 1e9 / q->rate_bps;
	if (lf->pps > 0)
		return 1e9 / lf->pps;
	return (double)(frame_len + GEN_WIRE_EXTRA) * 8.0 * 1e9 / lf->rate_bps;
}

/* ---- clock ----
 * A tournament tree over the QPs: leaf i holds QP i's (key, index), each
 * inner node the smaller of its two children, the root the next QP to act.
 * Ties go to the lower QP index: (key, index) is a strict order, so the
 * order of events is fixed whatever the tree's shape. When a QP's key
 * changes, its path to the root is replayed against the siblings' winners,
 * which did not change: their loads do not wait on the comparisons, so a
 * level costs a compare and a select (a binary heap's sift waits on each
 * level's loads). */

static inline int clock_less(const struct gen_hent *a, const struct gen_hent *b)
{
#ifdef __SIZEOF_INT128__
	/* one 96-bit comparison (cmp, sbb), no branch */
	__extension__ typedef unsigned __int128 u128;
	return ((u128)a->key << 32 | a->qi) < ((u128)b->key << 32 | b->qi);
#else
	return (a->key < b->key) | ((a->key == b->key) & (a->qi < b->qi));
#endif
}

static inline void clock_set(struct gen_model *m, uint32_t qi, uint64_t key)
{
	struct gen_hent *t = m->tree;
	uint32_t i = m->tsize + qi;
	struct gen_hent e = { .key = key, .qi = qi };
	t[i] = e;
	while (i > 1) {
		const struct gen_hent *s = &t[i ^ 1];
		int lt = clock_less(s, &e);
		e.key = lt ? s->key : e.key;
		e.qi = lt ? s->qi : e.qi;
		i >>= 1;
		t[i] = e;
	}
}

static void clock_build(struct gen_model *m)
{
	for (uint32_t i = m->tsize; i-- > 1;)
		m->tree[i] = clock_less(&m->tree[2 * i + 1], &m->tree[2 * i]) ? m->tree[2 * i + 1] : m->tree[2 * i];
}

/* ---- one QP's next event ---- */

enum act { ACT_NONE = 0, ACT_ARRIVE, ACT_TIMER, ACT_CC, ACT_CM, ACT_RSP, ACT_REQ };

static inline __attribute__((always_inline)) uint64_t qp_next(struct gen_model *m, struct gen_qp *q,
								 enum act *what)
{
	uint64_t best = GEN_NEVER, t;
	*what = ACT_NONE;
	/* At equal times arrivals and timers go first: the requester acts on
	 * what it knows at that instant before anything leaves. A QP with no
	 * job and no timer (UC, UD, RC between ACKs) only sends. */
	if (q->jq_n) {
		if ((t = gen_req_arrival_time(m, q)) < best)
			best = t, *what = ACT_ARRIVE;
	}
	if (q->rnr_ns | q->rto_ns) {
		if ((t = gen_req_timer_time(q)) < best)
			best = t, *what = ACT_TIMER;
	}
	/* the reaction point's rate timer (GEN_NEVER without congestion) */
	if (q->cc_next < best)
		best = q->cc_next, *what = ACT_CC;
	/* the connection's CM message (GEN_NEVER without `cm`) */
	if (q->cm_ns < best)
		best = q->cm_ns, *what = ACT_CM;
	if (q->jq_emit < q->jq_n) {
		if ((t = gen_resp_send_time(m, q)) < best)
			best = t, *what = ACT_RSP;
	}
	if ((t = gen_req_send_time(m, q)) < best)
		best = t, *what = ACT_REQ;
	/* A sender held back (window, READ limit) may find its pacing clock
	 * in the past: it goes now, not then. */
	return best != GEN_NEVER && best < q->now ? q->now : best;
}

/* Computes the QP's clock key, remembering for which epoch
 * and action. */
static inline __attribute__((always_inline)) uint64_t qp_key(struct gen_model *m, struct gen_qp *q)
{
	enum act a;
	uint64_t t = qp_next(m, q, &a);
	q->kwhat = (uint8_t)a;
	q->kepoch = m->epoch;
	return t;
}

/* ---- construction ---- */

/* Why the last gen_model_new() failed, when not for memory. */
static _Thread_local char g_new_error[320];

static uint32_t pow2_at_least(uint32_t v)
{
	uint32_t p = 1;
	while (p < v)
		p <<= 1;
	return p;
}

/* Ring size per QP: the READ/atomic window plus room for the ACKs of a few
 * messages in flight. UC and UD have no responses and keep no messages. */
static uint32_t ring_cap(const struct gen_scenario *sc, const struct gen_flow *f)
{
	if (f->transport != GEN_RC)
		return 1;
	/* A real responder in the closed loop: its answers come back over a
	 * real network, a window as deep as a NIC's send queue keeps the
	 * link busy meanwhile. Open loop, a real responder's answers are
	 * not read and a message is done once sent. */
	if (f->external_responder)
		return sc->cc.mode == GEN_CC_CLOSED_LOOP ? GEN_WIRE_WINDOW : 1;
	uint32_t rd = f->max_rd_atomic ? f->max_rd_atomic : 1;
	uint32_t cap = pow2_at_least(rd + 4);
	/* Through the simulated switch a request holds its slot while it
	 * queues: a window as deep as a NIC's send queue, so that queues can
	 * build to the thresholds the scenario sets. */
	if (sc->cc.mode == GEN_CC_SIMULATED && !f->cc_exempt && cap < GEN_CC_WINDOW)
		cap = GEN_CC_WINDOW;
	return cap < 8 ? 8 : cap;
}

static double flow_rate_bps(const struct gen_scenario *sc, const struct gen_flow *f)
{
	double line = (sc->line_rate_gbps > 0 ? sc->line_rate_gbps : 100.0) * 1e9;
	switch (f->rate.unit) {
	case GEN_RATE_GBPS:
		return f->rate.value > 0 ? f->rate.value * 1e9 : line;
	case GEN_RATE_PCT:
		return f->rate.value > 0 ? f->rate.value / 100.0 * line : line;
	default:
		return line;
	}
}

static int lflow_init(struct gen_model *m, struct gen_lflow *lf, uint32_t index, uint32_t first_qp)
{
	const struct gen_flow *f = &m->sc->flows[index];
	uint32_t nq = f->qps ? f->qps : 1;
	memset(lf, 0, sizeof(*lf));
	lf->f = f;
	lf->index = index;
	lf->first_qp = first_qp;
	lf->cap = ring_cap(m->sc, f);
	lf->cc = m->sc->cc.mode == GEN_CC_SIMULATED && !f->cc_exempt;
	lf->rp = m->sc->cc.mode != GEN_CC_OFF && !f->cc_exempt;
	lf->rate_bps = flow_rate_bps(m->sc, f) / nq;
	if (f->rate.unit == GEN_RATE_PPS && f->rate.value > 0)
		lf->pps = f->rate.value / nq;
	/* IBA Table 44: the largest credit code not above the receive WQEs. */
	lf->credit_code = 31;
	if (f->recv_credits) {
		lf->credit_code = 0;
		for (uint8_t c = 0; c < 31; c++)
			if (rw_aeth_credits(c) >= 0 && (uint32_t)rw_aeth_credits(c) <= f->recv_credits)
				lf->credit_code = c;
	}
	lf->mtu = gen_flow_mtu(f);
	while ((1u << lf->mtu_shift) < lf->mtu)
		lf->mtu_shift++;
	lf->responder = f->transport == GEN_RC && !f->external_responder;
	lf->wire_acks = f->transport == GEN_RC && f->external_responder && m->sc->cc.mode == GEN_CC_CLOSED_LOOP;
	lf->acks = lf->responder || lf->wire_acks;
	lf->src_prio = m->sc->hosts[f->src].pcp & 7;
	lf->dst_prio = m->sc->hosts[f->dst].pcp & 7;
	for (uint32_t i = 0; i < m->sc->n_faults; i++)
		if (m->sc->faults[i].flow < 0 || (uint32_t)m->sc->faults[i].flow == index)
			lf->faulty = 1;
	lf->atomic_base = (f->va + 7) & ~7ull;
	lf->nslots = GEN_ATOMIC_SLOTS;
	if (f->remote_len && f->remote_len / 8 < lf->nslots)
		lf->nslots = f->remote_len / 8 ? (uint32_t)(f->remote_len / 8) : 1;
	return gen_frame_init(m, lf);
}

static void qp_init(struct gen_model *m, struct gen_qp *q, struct gen_lflow *lf, uint32_t lfi, uint32_t i)
{
	const struct gen_flow *f = lf->f;
	memset(q, 0, sizeof(*q));
	q->flow = lf->index;
	q->qp = i;
	q->lf = lfi;
	uint64_t seed = m->sc->seed + ((uint64_t)lf->index << 24) + i;
	q->rng = seed;
	gen_prng(&q->rng);
	q->frng = seed ^ 0xFA017FA017FA017Full;
	gen_prng(&q->frng);
	uint32_t stride = f->psn_stride;
	uint32_t psn = (f->initial_psn + i * stride) & RW_PSN_MASK;
	q->next_psn = q->snd_max = q->una = psn;
	q->epsn = psn;
	q->rsp_max = psn;
	q->next_tx_ns = f->start_ns;
	q->cc_next = GEN_NEVER;
	q->retries_left = f->retry_count;
	q->rnr_left = f->rnr_retry;
	q->rd_next = 1u << 31;
	gen_req_init(m, q);
	gen_cm_init(m, q);
}

/* ---- QPN maps ----
 * The closed loop finds the QP of every packet the port brings by its QPN:
 * a scan over the flows cost as much as there are flows, per packet. */

static uint32_t qpn_hash(uint32_t qpn)
{
	return (uint32_t)(((uint64_t)qpn * 0x9E3779B97F4A7C15ull) >> 32);
}

/* The QPs of the flows with lf->rp (acks 0) or lf->wire_acks (acks 1), the
 * first flow's QP kept where two share a QPN, as a scan in flow order
 * finds it. 0, or -1 out of memory. */
static int qpn_map_build(struct gen_model *m, struct gen_qpn_map *map, int acks)
{
	uint64_t n = 0;
	for (uint32_t lfi = 0; lfi < m->nlf; lfi++) {
		const struct gen_lflow *lf = &m->lf[lfi];
		if (acks ? lf->wire_acks : lf->rp)
			n += lf->f->qps ? lf->f->qps : 1;
	}
	if (n == 0)
		return 0;
	uint32_t cap = pow2_at_least((uint32_t)(2 * n));
	map->e = calloc(cap, sizeof(*map->e));
	if (!map->e)
		return -1;
	map->mask = cap - 1;
	for (uint32_t lfi = 0; lfi < m->nlf; lfi++) {
		const struct gen_lflow *lf = &m->lf[lfi];
		uint32_t nq = lf->f->qps ? lf->f->qps : 1;
		if (!(acks ? lf->wire_acks : lf->rp))
			continue;
		for (uint32_t i = 0; i < nq; i++) {
			uint32_t qpn = (lf->f->src_qpn + i) & RW_QPN_MASK, h = qpn_hash(qpn) & map->mask;
			while (map->e[h] && (uint32_t)(map->e[h] >> 32) != qpn)
				h = (h + 1) & map->mask;
			if (!map->e[h])
				map->e[h] = (uint64_t)qpn << 32 | (lf->first_qp + i + 1);
		}
	}
	return 0;
}

uint32_t gen_qpn_find(const struct gen_qpn_map *map, uint32_t qpn)
{
	if (!map->e)
		return UINT32_MAX;
	qpn &= RW_QPN_MASK;
	for (uint32_t h = qpn_hash(qpn) & map->mask;; h = (h + 1) & map->mask) {
		uint64_t e = map->e[h];
		if (!e)
			return UINT32_MAX;
		if ((uint32_t)(e >> 32) == qpn)
			return (uint32_t)e - 1;
	}
}

static int model_alloc(struct gen_model *m)
{
	uint64_t slots = 0;
	m->lf = calloc(m->nlf ? m->nlf : 1, sizeof(*m->lf));
	m->qps = calloc(m->nqp ? m->nqp : 1, sizeof(*m->qps));
	m->ring_base = calloc(m->nqp ? m->nqp : 1, sizeof(*m->ring_base));
	m->tsize = pow2_at_least(m->nqp ? m->nqp : 1);
	m->tree = calloc(2 * (size_t)m->tsize, sizeof(*m->tree));
	m->stats = calloc(m->sc->n_flows ? m->sc->n_flows : 1, sizeof(*m->stats));
	m->fst = calloc(m->sc->n_faults ? m->sc->n_faults : 1, sizeof(*m->fst));
	if (!m->lf || !m->qps || !m->ring_base || !m->tree || !m->stats || !m->fst)
		return -1;
	uint32_t lfi = 0, qi = 0;
	for (uint32_t fi = m->shard; fi < m->sc->n_flows; fi += m->nshards) {
		struct gen_lflow *lf = &m->lf[lfi];
		if (lflow_init(m, lf, fi, qi) != 0)
			return -1;
		uint32_t nq = lf->f->qps ? lf->f->qps : 1;
		for (uint32_t i = 0; i < nq; i++, qi++) {
			m->ring_base[qi] = slots;
			slots += lf->cap;
		}
		lfi++;
	}
	m->jobs = calloc(slots ? slots : 1, sizeof(*m->jobs));
	m->wqes = calloc(slots ? slots : 1, sizeof(*m->wqes));
	return m->jobs && m->wqes ? 0 : -1;
}

struct gen_model *gen_model_new(const struct gen_scenario *sc, uint32_t shard, uint32_t nshards)
{
	if (!sc || nshards == 0 || shard >= nshards)
		return NULL;
	struct gen_model *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->sc = sc;
	m->shard = shard;
	m->nshards = nshards;
	for (uint32_t fi = shard; fi < sc->n_flows; fi += nshards) {
		m->nlf++;
		m->nqp += sc->flows[fi].qps ? sc->flows[fi].qps : 1;
	}
	g_new_error[0] = '\0';
	if (model_alloc(m) != 0) {
		gen_model_free(m);
		return NULL;
	}
	/* The packet limit is shared out over the shards, the first ones
	 * taking the remainder, so that all shards together send exactly it. */
	if (sc->packets)
		m->limit = sc->packets / nshards + (shard < sc->packets % nshards);
	for (uint32_t lfi = 0; lfi < m->nlf; lfi++) {
		struct gen_lflow *lf = &m->lf[lfi];
		uint32_t nq = lf->f->qps ? lf->f->qps : 1;
		for (uint32_t i = 0; i < nq; i++)
			qp_init(m, &m->qps[lf->first_qp + i], lf, lfi, i);
	}
	/* after the QPs: the reaction points start at their flows' rates */
	m->cc = gen_cc_new(m, g_new_error, sizeof(g_new_error));
	if (!m->cc && g_new_error[0]) {
		gen_model_free(m);
		return NULL;
	}
	m->cc_next_t = m->cc ? gen_cc_next(m) : GEN_NEVER;
	if (qpn_map_build(m, &m->cnp_map, 0) != 0 || qpn_map_build(m, &m->ack_map, 1) != 0) {
		gen_model_free(m);
		return NULL;
	}
	for (uint32_t i = 0; i < m->tsize; i++) {
		struct gen_hent e = { .key = GEN_NEVER, .qi = UINT32_MAX };
		if (i < m->nqp)
			e = (struct gen_hent){ .key = qp_key(m, &m->qps[i]), .qi = i };
		m->tree[m->tsize + i] = e;
	}
	clock_build(m);
	return m;
}

void gen_model_free(struct gen_model *m)
{
	if (!m)
		return;
	free(m->lf);
	free(m->qps);
	free(m->ring_base);
	free(m->tree);
	free(m->stats);
	free(m->fst);
	free(m->jobs);
	free(m->wqes);
	gen_cc_free(m->cc);
	gen_lockstep_free(m->ls);
	free(m->cnp_map.e);
	free(m->ack_map.e);
	if (m->tr)
		free(m->tr->r);
	free(m->tr);
	free(m);
}

const char *gen_model_new_error(void)
{
	return g_new_error[0] ? g_new_error : "out of memory for the flow model";
}

void gen_clock_rekey(struct gen_model *m, struct gen_qp *q)
{
	if (m->over || (q->flags & QF_GONE))
		return;
	clock_set(m, (uint32_t)(q - m->qps), qp_key(m, q));
}

/* ---- running ---- */

/* A QP of a CM connection with nothing left to send or receive. */
static inline int cm_may_close(struct gen_model *m, struct gen_qp *q)
{
	return q->cm_state == CM_UP && (gen_req_idle(m, q) || ((q->flags & QF_FAILED) && q->jq_n == 0));
}

static int run_limit_reached(struct gen_model *m, uint64_t t)
{
	if (m->limit && m->emitted >= m->limit)
		return 1;
	return m->sc->duration_ns && t >= m->sc->duration_ns;
}

uint32_t gen_model_next(struct gen_model *m, struct gen_pkt *out, uint32_t n, uint64_t until_ns)
{
	uint32_t got = 0;
	while (got < n && !m->over) {
		uint64_t t = m->tree[1].key;
		uint32_t qi = m->tree[1].qi;
		struct gen_qp *q = &m->qps[qi];
		if (m->cc) {
			/* the switch, CNPs and PFC go before QP events at a
			 * later time (and at the same time: what the port did
			 * at t is known to the QPs acting at t) */
			uint64_t tc = m->cc_next_t;
			if (tc != GEN_NEVER && tc <= t) {
				if (tc > until_ns)
					break;
				got += gen_cc_run(m, tc, &out[got], n - got);
				continue;
			}
		}
		if (t == GEN_NEVER) {
			/* Nothing will ever happen again anywhere (a QP waiting on
			 * a lost answer with no timer): the run is over. */
			m->over = 1;
			break;
		}
		if (t > until_ns)
			break;
		/* A key computed before a pause or the drain may be early: the
		 * clock is lazy, and checks it when it comes first. A QP's own
		 * events change only its own key, which is recomputed after
		 * each. */
		if (q->kepoch != m->epoch) {
			uint64_t k = qp_key(m, q);
			/* the drain left it nothing: a CM connection closes now */
			if (k == GEN_NEVER && cm_may_close(m, q) && gen_cm_close(m, q, t))
				k = qp_key(m, q);
			if (k != t) {
				clock_set(m, qi, k);
				continue;
			}
		}
		if (!m->draining && run_limit_reached(m, t)) {
			/* Stop starting messages; finish the ones under way, with
			 * their responses and recoveries, so that the capture ends
			 * on whole conversations. Keys are re-read lazily: a QP
			 * with nothing left to finish goes idle when it comes up. */
			m->draining = 1;
			m->epoch++;
			continue;
		}
		q->now = t;
		out[got].kind = GEN_PK_ROCE; /* the slot may hold a PFC frame of an earlier call */
		switch ((enum act)q->kwhat) {
		case ACT_ARRIVE:
			gen_req_arrival(m, q, t);
			break;
		case ACT_TIMER:
			gen_req_timer(m, q, t);
			break;
		case ACT_CC:
			gen_cc_timer(m, q, t);
			break;
		case ACT_CM:
			got += (uint32_t)gen_cm_send(m, q, t, &out[got]);
			break;
		case ACT_RSP:
			got += (uint32_t)gen_resp_send(m, q, t, &out[got]);
			break;
		case ACT_REQ:
			got += (uint32_t)gen_req_send(m, q, t, &out[got]);
			break;
		default:
			break;
		}
		uint64_t k = qp_key(m, q);
		/* Nothing left: a connection made by CM is closed first (DREQ). */
		if (k == GEN_NEVER && cm_may_close(m, q) && gen_cm_close(m, q, t))
			k = qp_key(m, q);
		if (k == GEN_NEVER && gen_req_idle(m, q))
			q->flags |= QF_GONE;
		clock_set(m, qi, k);
	}
	return got;
}

int gen_model_done(const struct gen_model *m)
{
	if (m->ls)
		return m->ls->done;
	if (m->over)
		return 1;
	if (m->tree[1].key != GEN_NEVER)
		return 0;
	return !m->cc || gen_cc_next((struct gen_model *)m) == GEN_NEVER;
}

const struct gen_flow_stats *gen_model_stats(const struct gen_model *m, uint32_t flow)
{
	static const struct gen_flow_stats none;
	if (flow >= m->sc->n_flows)
		return &none;
	return &m->stats[flow];
}

static struct gen_qp *find_qp(struct gen_model *m, uint32_t flow, uint32_t qp)
{
	if (flow >= m->sc->n_flows || flow % m->nshards != m->shard)
		return NULL;
	struct gen_lflow *lf = &m->lf[flow / m->nshards];
	uint32_t nq = lf->f->qps ? lf->f->qps : 1;
	return qp < nq ? &m->qps[lf->first_qp + qp] : NULL;
}

void gen_model_set_qp_rate(struct gen_model *m, uint32_t flow, uint32_t qp, double bps)
{
	struct gen_qp *q = find_qp(m, flow, qp);
	if (!q)
		return;
	q->rate_bps = bps > 0 ? bps : 0;
	/* A faster rate can only make the next send earlier than its key
	 * says, which the lazy clock would miss: re-key it now. */
	q->tx_len = q->rsp_len = 0; /* the gaps change with the rate */
	if (!m->over && !(q->flags & QF_GONE))
		clock_set(m, (uint32_t)(q - m->qps), qp_key(m, q));
}

void gen_model_pause(struct gen_model *m, uint8_t prio, uint64_t until_ns)
{
	if (prio > 7)
		return;
	uint64_t old = m->pause_until[prio];
	m->pause_until[prio] = until_ns;
	m->epoch++;
	if (until_ns >= old)
		return; /* later keys are found lazily when they reach the top */
	/* A pause ended early: every key may be too late now. */
	if (m->over)
		return;
	for (uint32_t i = 0; i < m->nqp; i++)
		if (!(m->qps[i].flags & QF_GONE))
			m->tree[m->tsize + i].key = qp_key(m, &m->qps[i]);
	clock_build(m);
}

int gen_model_rx_cm(struct gen_model *m, uint16_t cm_msg, uint32_t local_comm_id, uint32_t remote_comm_id,
		    uint32_t qpn, uint32_t starting_psn, uint64_t now)
{
	uint32_t flow, qp;
	/* the answer names our REQ's or DREQ's comm ID as its remote one */
	if (gen_cm_match_id(m->sc, remote_comm_id, 0, &flow, &qp) != 0)
		return 0;
	struct gen_qp *q = find_qp(m, flow, qp);
	if (!q || !gen_qlf(m, q)->wire_acks)
		return 0;
	gen_cm_rx(m, q, cm_msg, local_comm_id, qpn, starting_psn, now);
	return 1;
}
