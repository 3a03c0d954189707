/* SPDX-License-Identifier: BSD-3-Clause */
/* Simulated congestion inside the flow model (issue 10): the requests of
 * every flow that takes part (all but `congestion: false` ones) cross one
 * switch egress port (cc_switch.c) on their way to the responder, the
 * responder's notification point (cc_np.c) answers CE marks with CNPs, and
 * each requester QP's reaction point (cc_dcqcn.c) sets its rate from them.
 *
 * Where the port sits: at the end of the senders' links, so a request is
 * enqueued the instant it leaves its requester, and reaches the responder
 * link_delay after its last bit leaves the port. Responses, ACKs and CNPs
 * take an uncongested path back (link_delay). The capture is a tap on the
 * port's input after admission and marking: a request appears at the time
 * it reached the port, with the CE mark the port gave it; a request the port
 * dropped does not appear (the receiver never saw it, and the report counts
 * it as a missing PSN). PFC frames appear when the port (or, in a storm,
 * the receiver behind it) sends them.
 *
 * Everything runs on the model's clock in time order: the model asks
 * gen_cc_next() for the earliest of the port's next event, a pending PFC
 * frame, a storm and the event heap (CNP pacing ends, CNPs leaving the
 * responder, CNPs reaching the requester), and runs it with gen_cc_run()
 * before any QP event at a later time. The notification point works on the
 * departure clock (its CE arrives a constant link_delay later, so the
 * pacing is the same) and its CNPs leave link_delay after the decision.
 * Reaction-point timers are part of each QP's own clock key (q->cc_next). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"
#include "cc_out.h"
#include "flow_int.h"
#include "rocewire/ext.h"
#include "rocewire/ipv4.h"
#include "rocewire/link.h"
#include "rocewire/mad.h"
#include "rocewire/packet.h"

enum ccev_kind { CCEV_NP_FIRE = 0, CCEV_CNP_SEND, CCEV_CNP_ARRIVE };

struct ccev {
	uint64_t t, seq; /* (t, seq): a strict order, so runs repeat exactly */
	uint64_t ce_frame; /* ground truth: the frame of the CE mark a CNP answers (0: not kept) */
	uint32_t qi;
	uint8_t kind;
};

#define PFC_PEND 64

struct evq {
	struct ccev *h;
	uint32_t n, cap;
};

struct gen_ccm {
	const struct gen_congestion *cfg;
	struct cc_sw *sw;
	struct cc_np *np;
	struct cc_rp *rp;           /* per model QP (used for congestion flows) */
	/* requests inside the port, by cookie (a slot index) */
	struct gen_pkt *slot;
	uint32_t *slot_qi;
	uint32_t *free_slots;
	uint32_t nfree, nslots;
	uint32_t fresh;             /* slots never used: fresh .. nslots - 1 */
	/* ground truth only (NULL: off): the record id and frame of each
	 * request inside the port, for the responder's verdict and the CNP */
	struct slot_tr { uint64_t id, frame; uint32_t episode; } *slot_tr;
	/* events: CNPs leaving and arriving; the notification points' deferred
	 * CNPs apart (with early departures they are run ahead of the clock,
	 * up to each CE's departure), all in one (t, seq) order */
	struct evq ev, fire;
	uint64_t seq;
	int early;                  /* the port is one FIFO: departures known at arrival */
	uint64_t drain_t;           /* early: when the port will be empty (the last departure) */
	uint64_t drain_run;         /* early: drain_t once the clock has been there */
	/* storms by start time */
	uint32_t *storm_order;
	uint32_t storm_next;
	/* PFC frames read from the port, not yet emitted */
	struct cc_sw_pfc pend[PFC_PEND];
	uint32_t pend_head, pend_n;
	uint32_t pfc_flow;          /* the flow whose hosts PFC frames name */
	uint16_t prio_mask;         /* classes the congestion flows use */
	double link_bps;
	uint64_t sw_next;           /* cc_sw_next_event(), kept after each call that changes it */
	uint64_t qlen_next;         /* next qlen sample (GEN_NEVER: not written) */
	uint64_t qlen_origin;       /* model time of the run's first packet (GEN_NEVER: not yet) */
	struct cc_out out;
	int out_open;
	struct gen_cc_stats st;
};

static struct gen_ccm *ccm_of(struct gen_model *m)
{
	return m->cc;
}

/* ---- event heap ---- */

static int ev_less(const struct ccev *a, const struct ccev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int ev_push(struct gen_ccm *c, struct evq *q, uint64_t t, uint8_t kind, uint32_t qi, uint64_t ce_frame)
{
	if (q->n == q->cap) {
		uint32_t cap = q->cap ? q->cap * 2 : 1024;
		struct ccev *h = realloc(q->h, cap * sizeof(*h));
		if (!h)
			return -1; /* out of memory: the event is lost */
		q->h = h;
		q->cap = cap;
	}
	struct ccev e = { .t = t, .seq = c->seq++, .ce_frame = ce_frame, .qi = qi, .kind = kind };
	uint32_t i = q->n++;
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!ev_less(&e, &q->h[p]))
			break;
		q->h[i] = q->h[p];
		i = p;
	}
	q->h[i] = e;
	return 0;
}

static struct ccev ev_pop(struct evq *q)
{
	struct ccev top = q->h[0], e = q->h[--q->n];
	uint32_t i = 0, n = q->n;
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, s = i;
		const struct ccev *best = &e;
		if (l < n && ev_less(&q->h[l], best))
			s = l, best = &q->h[l];
		if (r < n && ev_less(&q->h[r], best))
			s = r;
		if (s == i)
			break;
		q->h[i] = q->h[s];
		i = s;
	}
	if (n)
		q->h[i] = e;
	return top;
}

/* The queue whose event comes first, or NULL when both are empty. */
static struct evq *ev_first(struct gen_ccm *c)
{
	if (!c->fire.n)
		return c->ev.n ? &c->ev : NULL;
	if (!c->ev.n)
		return &c->fire;
	return ev_less(&c->fire.h[0], &c->ev.h[0]) ? &c->fire : &c->ev;
}

/* ---- construction ---- */

static void ip16(const struct gen_host *h, uint8_t out[16])
{
	if (h->af == 6) {
		memcpy(out, h->ip, 16);
		return;
	}
	memset(out, 0, 10);
	out[10] = out[11] = 0xFF;
	memcpy(out + 12, h->ip, 4);
}

void gen_np_key(const struct gen_scenario *sc, const struct gen_flow *f, uint32_t qp, struct cc_np_key *k)
{
	ip16(&sc->hosts[f->src], k->src);
	ip16(&sc->hosts[f->dst], k->dst);
	k->qpn = (f->dst_qpn + qp) & RW_QPN_MASK;
}

static const struct gen_scenario *g_sc_for_sort;

static int storm_cmp(const void *a, const void *b)
{
	const struct gen_cc_storm *x = &g_sc_for_sort->cc.storms[*(const uint32_t *)a];
	const struct gen_cc_storm *y = &g_sc_for_sort->cc.storms[*(const uint32_t *)b];
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

struct gen_ccm *gen_cc_new(struct gen_model *m, char *err, size_t errcap)
{
	const struct gen_scenario *sc = m->sc;
	err[0] = '\0';
	if (sc->cc.mode == GEN_CC_OFF)
		return NULL;
	int sim = sc->cc.mode == GEN_CC_SIMULATED;
	struct gen_ccm *c = calloc(1, sizeof(*c));
	if (!c)
		goto oom;
	c->cfg = &sc->cc;
	c->st.closed_loop = !sim;
	c->link_bps = sim ? sc->cc.sw.link_bps : (sc->line_rate_gbps > 0 ? sc->line_rate_gbps : 100.0) * 1e9;
	c->pfc_flow = UINT32_MAX;
	c->qlen_next = GEN_NEVER;
	c->qlen_origin = GEN_NEVER;
	c->sw_next = GEN_NEVER;
	c->rp = calloc(m->nqp ? m->nqp : 1, sizeof(*c->rp));
	c->storm_order = calloc(sc->cc.n_storms ? sc->cc.n_storms : 1, sizeof(*c->storm_order));
	if (!c->rp || !c->storm_order)
		goto oom;
	if (!sim) {
		/* a real network: the reaction points only, fed by the RX path */
		for (uint32_t lfi = 0; lfi < m->nlf; lfi++) {
			struct gen_lflow *lf = &m->lf[lfi];
			uint32_t nq = lf->f->qps ? lf->f->qps : 1;
			for (uint32_t i = 0; lf->rp && i < nq; i++) {
				struct cc_rp *rp = &c->rp[lf->first_qp + i];
				cc_rp_init(rp, &sc->cc.dcqcn, lf->rate_bps, lf->f->start_ns);
				m->qps[lf->first_qp + i].rate_bps = cc_rp_rate(rp);
				m->qps[lf->first_qp + i].cc_next = GEN_NEVER;
			}
		}
		if (cc_out_open(&c->out, &sc->cc.out, err, errcap) != 0) {
			gen_cc_free(c);
			return NULL;
		}
		c->out_open = 1;
		return c;
	}
	c->sw = cc_sw_new(&sc->cc.sw);
	c->np = cc_np_new(&sc->cc.np);
	if (!c->sw || !c->np)
		goto oom;
	/* One slot per descriptor the port has: a request holds one from its
	 * arrival until it has left. */
	c->nslots = sc->cc.sw.max_packets ? sc->cc.sw.max_packets
					   : (uint32_t)(2 * sc->cc.sw.buffer / 64 + 1024);
	c->slot = calloc(c->nslots, sizeof(*c->slot));
	c->slot_qi = calloc(c->nslots, sizeof(*c->slot_qi));
	c->free_slots = calloc(c->nslots, sizeof(*c->free_slots));
	if (!c->slot || !c->slot_qi || !c->free_slots)
		goto oom;
	/* slots are taken fresh in order, then again from the freed ones:
	 * a run touches only as many as its queue ever held */
	c->nfree = 0;
	c->fresh = 0;
	for (uint32_t lfi = 0; lfi < m->nlf; lfi++) {
		struct gen_lflow *lf = &m->lf[lfi];
		if (!lf->cc)
			continue;
		if (c->pfc_flow == UINT32_MAX)
			c->pfc_flow = lf->index;
		c->prio_mask |= (uint16_t)(1u << lf->src_prio);
		uint32_t nq = lf->f->qps ? lf->f->qps : 1;
		for (uint32_t i = 0; i < nq; i++) {
			struct gen_qp *q = &m->qps[lf->first_qp + i];
			struct cc_rp *rp = &c->rp[lf->first_qp + i];
			cc_rp_init(rp, &sc->cc.dcqcn, lf->rate_bps, lf->f->start_ns);
			q->rate_bps = cc_rp_rate(rp);
			q->cc_next = GEN_NEVER;
		}
	}
	if (c->pfc_flow == UINT32_MAX)
		c->pfc_flow = m->nlf ? m->lf[0].index : 0;
	/* One class through the port and no storm: the port is one FIFO
	 * that nothing pauses, and each request's departure is known when it
	 * arrives (cc_sw_early_departures) */
	if (sc->cc.n_storms == 0 && (c->prio_mask & (c->prio_mask - 1)) == 0 &&
	    cc_sw_early_departures(c->sw) == 0)
		c->early = 1;
	for (uint32_t i = 0; i < sc->cc.n_storms; i++)
		c->storm_order[i] = i;
	g_sc_for_sort = sc;
	qsort(c->storm_order, sc->cc.n_storms, sizeof(*c->storm_order), storm_cmp);
	if (cc_out_open(&c->out, &sc->cc.out, err, errcap) != 0) {
		gen_cc_free(c);
		return NULL;
	}
	c->out_open = 1;
	if (sc->cc.out.qlen[0])
		c->qlen_next = 0;
	return c;
oom:
	snprintf(err, errcap, "out of memory for the simulated switch (max_packets %u)",
		 sc->cc.sw.max_packets);
	gen_cc_free(c);
	return NULL;
}

void gen_cc_free(struct gen_ccm *c)
{
	if (!c)
		return;
	if (c->out_open) {
		char e[8];
		cc_out_close(&c->out, 0, e, sizeof(e));
	}
	cc_sw_free(c->sw);
	cc_np_free(c->np);
	free(c->rp);
	free(c->slot);
	free(c->slot_qi);
	free(c->slot_tr);
	free(c->free_slots);
	free(c->ev.h);
	free(c->fire.h);
	free(c->storm_order);
	free(c);
}

/* The QP paces at its reaction point's rate; the gap of its frame length
 * is worked out again only when the rate changed. */
static inline void set_rate(struct gen_qp *q, const struct cc_rp *rp)
{
	double r = cc_rp_rate(rp);
	if (r != q->rate_bps) {
		q->rate_bps = r;
		q->tx_len = 0;
	}
	q->cc_next = cc_rp_next_event(rp);
}

static void departs_at(struct gen_model *m, struct gen_ccm *c, struct gen_qp *q, const struct gen_pkt *pk,
		       uint64_t t_dep);
static void cc_sync(struct gen_model *m);

/* ---- the switch ---- */

/* Queue-length samples up to now. Their times count from the run's first
 * packet, which is the capture's first packet: rocewire-cap --qlen draws
 * them on the capture's time axis. */
static void qlen_upto(struct gen_model *m, struct gen_ccm *c, uint64_t now)
{
	if (c->qlen_next == GEN_NEVER)
		return;
	if (c->qlen_origin == GEN_NEVER) {
		/* the first call comes with the first request into the port: any
		 * packet before it (a flow that bypasses the port) is counted */
		c->qlen_origin = now;
		for (uint32_t lfi = 0; lfi < m->nlf; lfi++) {
			const struct gen_flow_stats *st = &m->stats[m->lf[lfi].index];
			if (st->packets[0] + st->packets[1] && st->first_ns < c->qlen_origin)
				c->qlen_origin = st->first_ns;
		}
		c->qlen_next = c->qlen_origin;
	}
	while (c->qlen_next <= now) {
		struct cc_sw_qlen q;
		cc_sw_sample(c->sw, c->qlen_next, &q);
		c->sw_next = cc_sw_next_event(c->sw);
		q.t_ns -= c->qlen_origin;
		cc_out_qlen_sample(&c->out, &q, c->prio_mask);
		c->qlen_next += c->cfg->out.qlen_interval_ns ? c->cfg->out.qlen_interval_ns : 1000;
	}
}

/* The port's PFC frames, read into the pending ring; upstream ones pause
 * the senders at once (after their response time), unless they ignore it. */
static void pfc_read(struct gen_model *m, struct gen_ccm *c)
{
	while (c->pend_n < PFC_PEND) {
		struct cc_sw_pfc f;
		if (cc_sw_pfc_events(c->sw, &f, 1) != 1)
			break;
		c->pend[(c->pend_head + c->pend_n++) % PFC_PEND] = f;
		cc_out_pfc_frame(&c->out, &f);
		if (f.dir == CC_SW_PFC_DOWNSTREAM) {
			c->st.pfc_down++;
			continue;
		}
		c->st.pfc_up++;
		if (c->cfg->pfc_ignore)
			continue;
		for (uint8_t p = 0; p < 8; p++) {
			if (!(f.cev >> p & 1))
				continue;
			uint64_t until = f.t_ns + c->cfg->pfc_response_ns;
			if (f.quanta[p])
				until += (cc_pfc_quanta_ps(f.quanta[p], c->link_bps) + 999) / 1000;
			gen_cc_pause(m, p, until);
		}
	}
}

void gen_cc_pause(struct gen_model *m, uint8_t prio, uint64_t until_ns)
{
	uint64_t old = m->cc_pause[prio];
	m->cc_pause[prio] = until_ns;
	m->epoch++;
	if (until_ns >= old || m->over)
		return; /* later keys are found lazily when they reach the top */
	/* resumed early: the congestion flows' senders of this class may go sooner */
	for (uint32_t lfi = 0; lfi < m->nlf; lfi++) {
		struct gen_lflow *lf = &m->lf[lfi];
		if (!lf->cc || lf->src_prio != prio)
			continue;
		uint32_t nq = lf->f->qps ? lf->f->qps : 1;
		for (uint32_t i = 0; i < nq; i++)
			gen_clock_rekey(m, &m->qps[lf->first_qp + i]);
	}
}

/* Returns 0 when nothing gen_cc_next() reads can have changed (the common
 * case of an early-departure port: no CE, no PFC frame, no queue-length
 * series), else 1. */
static int cc_request(struct gen_model *m, struct gen_qp *q, struct gen_pkt *pk, uint64_t t)
{
	struct gen_ccm *c = ccm_of(m);
	struct gen_lflow *lf = gen_qlf(m, q);
	uint32_t qi = (uint32_t)(q - m->qps);
	if (c->qlen_next != GEN_NEVER)
		qlen_upto(m, c, t);
	/* the reaction point's byte counter counts what the QP sends */
	cc_rp_sent(&c->rp[qi], pk->frame_len, t);
	set_rate(q, &c->rp[qi]);
	if (!c->early && c->nfree == 0 && c->fresh == c->nslots) {
		/* every descriptor is held: the port has no room for it */
		m->pk_dropped = 1;
		c->st.sw_dropped++;
		return 1;
	}
	/* early departures hold no slot (the port's descriptors still limit it) */
	uint32_t s = c->early ? 0 : c->nfree ? c->free_slots[c->nfree - 1] : c->fresh;
	int ect = (lf->f->ecn & 3) == RW_ECN_ECT0 || (lf->f->ecn & 3) == RW_ECN_ECT1;
	struct cc_sw_verdict v;
	uint64_t sw_next = c->sw_next;
	if (!c->early || !cc_sw_enqueue_early(c->sw, t, lf->src_prio, pk->frame_len, ect, &v))
		v = cc_sw_enqueue(c->sw, t, lf->src_prio, pk->frame_len, ect, s);
	c->sw_next = v.next_ns;
	m->pk_paused = v.while_paused;
	if (v.pfc)
		pfc_read(m, c);
	if (v.while_paused)
		c->st.sw_while_paused++;
	if (v.result == CC_SW_DROPPED) {
		m->pk_dropped = 1;
		c->st.sw_dropped++;
		return 1;
	}
	if (c->early)
		;
	else if (c->nfree)
		c->nfree--;
	else
		c->fresh++;
	c->st.sw_packets++;
	c->st.sw_bytes += pk->frame_len;
	if (v.qlen + pk->frame_len > c->st.max_qlen)
		c->st.max_qlen = v.qlen + pk->frame_len;
	if (v.ce) {
		pk->flags |= GEN_PF_CE;
		c->st.sw_marked++;
	}
	if (c->early) {
		c->drain_t = v.t_dep_ns;
		departs_at(m, c, q, pk, v.t_dep_ns);
		return v.ce || v.pfc || v.next_ns != sw_next || c->qlen_next != GEN_NEVER;
	}
	c->slot[s] = *pk;
	c->slot_qi[s] = qi;
	q->in_net++;
	if (c->slot_tr) {
		/* admitted: it reaches the tap, as the next packet made */
		c->slot_tr[s] = (struct slot_tr){ gen_tr_next_id(m), gen_tr_next_frame(m), q->tr_episode };
		m->tr->in_switch = 1;
	}
	return 1;
}

void gen_cc_sent(struct gen_model *m, struct gen_qp *q, const struct gen_pkt *pk, uint64_t t)
{
	struct gen_ccm *c = ccm_of(m);
	struct cc_rp *rp = &c->rp[q - m->qps];
	cc_rp_on_sent(rp, pk->frame_len, t > rp->now ? t : rp->now);
	set_rate(q, rp);
}

int gen_model_rx_cnp(struct gen_model *m, uint32_t qpn, uint64_t now)
{
	struct gen_ccm *c = m->cc;
	if (!c)
		return 0;
	uint32_t qi = gen_qpn_find(&m->cnp_map, qpn);
	if (qi == UINT32_MAX)
		return 0;
	struct gen_qp *q = &m->qps[qi];
	struct cc_rp *rp = &c->rp[qi];
	uint64_t cuts = rp->cuts;
	/* the model's clock may be behind the wall clock the CNP came at,
	 * or ahead of it: a reaction point's time never goes back */
	cc_rp_on_cnp(rp, now > rp->now ? now : rp->now);
	c->st.cnps_received++;
	c->st.rate_cuts += rp->cuts - cuts;
	set_rate(q, rp);
	if (c->st.min_rate_bps == 0 || q->rate_bps < c->st.min_rate_bps)
		c->st.min_rate_bps = q->rate_bps;
	gen_clock_rekey(m, q);
	return 1;
}

void gen_model_rx_pause(struct gen_model *m, uint16_t cev, const uint16_t quanta[8], uint64_t now)
{
	double bps = (m->sc->line_rate_gbps > 0 ? m->sc->line_rate_gbps : 100.0) * 1e9;
	if (m->cc)
		m->cc->st.pfc_received++;
	for (uint8_t p = 0; p < 8; p++) {
		/* 802.3x PAUSE (cev 0) stops every class for quanta[0] */
		uint16_t qv = cev ? quanta[p] : quanta[0];
		if (cev && !(cev >> p & 1))
			continue;
		uint64_t until = now + (qv ? (cc_pfc_quanta_ps(qv, bps) + 999) / 1000 : 0);
		gen_model_pause(m, p, until);
	}
}

void gen_model_rx_frame(struct gen_model *m, const uint8_t *d, size_t caplen, size_t wirelen, uint64_t now)
{
	struct gen_cc_stats dummy, *st = m->cc ? &m->cc->st : &dummy;
	struct rw_packet p;
	int r = -1;

	st->rx_frames++;
	rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, d, caplen, wirelen, &p);
	if ((p.carrier == RW_CARRIER_PFC || p.carrier == RW_CARRIER_PAUSE) && p.err == RW_OK) {
		gen_model_rx_pause(m, p.carrier == RW_CARRIER_PFC ? p.macctrl.cev : 0, p.macctrl.quanta, now);
		return;
	}
	if (p.carrier != RW_CARRIER_ROCEV2) {
		st->rx_other++;
		return;
	}
	int cm = (p.present & RW_P_MAD) && p.mad.cm_msg != RW_CM_NONE && p.bth.dqpn == RW_QP1;
	int cnp = p.op && p.op->op == RW_OP_CNP;
	int rsp = p.op && (p.op->flags & RW_OPF_RESPONSE) && p.op->transport == RW_TRANSPORT_RC;
	if (!cm && !cnp && !rsp) {
		st->rx_other++;
		return;
	}
	if (p.icrc_status != RW_CRC_OK) {
		st->rx_bad_icrc++;
		return;
	}
	if (cm)
		r = gen_model_rx_cm(m, p.mad.cm_msg, p.mad.local_comm_id, p.mad.remote_comm_id, p.mad.qpn,
				    p.mad.starting_psn, now);
	else if (cnp)
		r = gen_model_rx_cnp(m, p.bth.dqpn, now);
	else
		r = gen_model_rx_response(m, p.bth.dqpn, p.bth.opcode, p.bth.psn,
					  (p.op->hdrs & RW_HDR_AETH) ? p.aeth.syndrome : 0, now);
	if (r == 0)
		st->rx_unknown_qp++;
	else if (r == 2)
		st->rx_stale++;
}

void gen_cc_timer(struct gen_model *m, struct gen_qp *q, uint64_t t)
{
	struct gen_ccm *c = ccm_of(m);
	struct cc_rp *rp = &c->rp[q - m->qps];
	cc_rp_advance(rp, t > rp->now ? t : rp->now);
	set_rate(q, rp);
}

/* ---- notification and reaction points ---- */

static void np_key(struct gen_model *m, const struct gen_qp *q, struct cc_np_key *k)
{
	gen_np_key(m->sc, gen_qlf(m, (struct gen_qp *)q)->f, q->qp, k);
}

/* The notification point sees a CE-marked request of q that left the port
 * at t_dep. */
static void np_ce(struct gen_model *m, struct gen_ccm *c, struct gen_qp *q, uint64_t t_dep, uint64_t ce_frame)
{
	struct cc_np_key k;
	uint64_t due = 0;
	uint32_t qi = (uint32_t)(q - m->qps);
	np_key(m, q, &k);
	switch (cc_np_on_ce(c->np, &k, t_dep, &due)) {
	case CC_NP_SEND:
		ev_push(c, &c->ev, t_dep + m->sc->link_delay_ns, CCEV_CNP_SEND, qi, ce_frame);
		break;
	case CC_NP_DEFER:
		/* the CNP owed at the interval's end answers this CE mark */
		ev_push(c, &c->fire, due, CCEV_NP_FIRE, qi, ce_frame);
		break;
	default:
		c->st.cnps_suppressed++;
		break;
	}
}

/* A deferred CNP's interval ends at e->t: the notification point sends it
 * if it still owes it. */
static void np_fire(struct gen_model *m, struct gen_ccm *c, const struct ccev *e)
{
	struct cc_np_key k;
	np_key(m, &m->qps[e->qi], &k);
	if (cc_np_fire(c->np, &k, e->t))
		ev_push(c, &c->ev, e->t + m->sc->link_delay_ns, CCEV_CNP_SEND, e->qi, e->ce_frame);
}

/* A request left the port at t_dep. */
static void departed(struct gen_model *m, struct gen_ccm *c, const struct cc_sw_departure *d)
{
	uint32_t s = (uint32_t)d->cookie;
	struct gen_qp *q = &m->qps[c->slot_qi[s]];
	struct gen_pkt *pk = &c->slot[s];
	struct gen_lflow *lf = gen_qlf(m, q);
	c->free_slots[c->nfree++] = s;
	q->in_net--;
	/* the QP learns of it now: a requester the window held may send from
	 * here on, not at a pacing time already past */
	if (q->now < d->t_ns)
		q->now = d->t_ns;
	if (lf->responder) {
		/* a job for the responder, and room in the requester's window */
		if (c->slot_tr) {
			m->tr->departing = 1;
			m->tr->episode = c->slot_tr[s].episode;
		}
		gen_resp_request(m, q, pk, d->t_ns + m->sc->link_delay_ns);
		gen_clock_rekey(m, q);
		if (c->slot_tr) {
			gen_tr_settle(m, c->slot_tr[s].id, m->tr->acc);
			m->tr->acc = m->tr->departing = 0;
		}
	}
	if (d->ce)
		np_ce(m, c, q, d->t_ns, c->slot_tr ? c->slot_tr[s].frame : 0);
}

/* Early departures: what departed() does, at the request's arrival at the
 * port, for its departure at t_dep. The notification point is run in
 * departure order: the deferred CNPs whose interval ends before this one
 * are decided first (the CNPs themselves go out on the clock). */
static void departs_at(struct gen_model *m, struct gen_ccm *c, struct gen_qp *q, const struct gen_pkt *pk,
		       uint64_t t_dep)
{
	if (gen_qlf(m, q)->responder)
		gen_resp_request(m, q, pk, t_dep + m->sc->link_delay_ns);
	if (!(pk->flags & GEN_PF_CE))
		return;
	while (c->fire.n && c->fire.h[0].t < t_dep) {
		struct ccev e = ev_pop(&c->fire);
		np_fire(m, c, &e);
	}
	/* admitted: this request is the next packet made */
	np_ce(m, c, q, t_dep, m->tr ? gen_tr_next_frame(m) : 0);
}

/* The CNP from q's responder to its requester, leaving at t, for the CE
 * mark in frame ce_frame (ground truth; 0 when not kept). */
static void cnp_packet(struct gen_model *m, struct gen_qp *q, uint64_t t, struct gen_pkt *pk, uint64_t ce_frame)
{
	struct gen_lflow *lf = gen_qlf(m, q);
	const struct gen_flow *f = lf->f;
	memset(pk, 0, sizeof(*pk));
	pk->t_ns = t;
	pk->flow = q->flow;
	pk->qp = q->qp;
	pk->dir = GEN_DIR_RESPONSE;
	pk->opcode = gen_cnp_opcode();
	pk->f.becn = 1; /* A17.9.3: the CNP's BECN bit is set */
	pk->f.dqpn = (f->src_qpn + q->qp) & RW_QPN_MASK;
	pk->hdrs = rw_opcode(pk->opcode)->hdrs;
	pk->frame_len = lf->cnp_len;
	gen_emit_count(m, pk);
	if (m->tr)
		gen_tr_other(m, pk, ce_frame);
}

static void pfc_packet(struct gen_model *m, struct gen_ccm *c, const struct cc_sw_pfc *f, struct gen_pkt *pk)
{
	memset(pk, 0, sizeof(*pk));
	pk->t_ns = f->t_ns;
	pk->flow = c->pfc_flow;
	pk->kind = GEN_PK_PFC;
	pk->dir = f->dir == CC_SW_PFC_DOWNSTREAM ? GEN_DIR_RESPONSE : GEN_DIR_REQUEST;
	pk->pfc_cev = f->cev;
	memcpy(pk->pfc_quanta, f->quanta, sizeof(pk->pfc_quanta));
	pk->frame_len = RW_ETH_MIN_FRAME;
	m->emitted++;
	if (m->tr)
		gen_tr_other(m, pk, 0);
}

uint64_t gen_cc_next(struct gen_model *m)
{
	struct gen_ccm *c = ccm_of(m);
	if (!c->sw)
		return GEN_NEVER; /* closed loop: the RX path brings the events */
	uint64_t t = c->sw_next; /* CC_NEVER is GEN_NEVER */
	if (c->pend_n && c->pend[c->pend_head].t_ns < t)
		t = c->pend[c->pend_head].t_ns;
	if (c->ev.n && c->ev.h[0].t < t)
		t = c->ev.h[0].t;
	if (c->fire.n && c->fire.h[0].t < t)
		t = c->fire.h[0].t;
	/* early departures wake nothing, but the queue-length series goes on
	 * until the port is empty, as the departures' events took it */
	if (c->early && c->qlen_next != GEN_NEVER && c->drain_t > c->drain_run && c->drain_t < t)
		t = c->drain_t;
	if (c->storm_next < c->cfg->n_storms) {
		uint64_t s = c->cfg->storms[c->storm_order[c->storm_next]].start_ns;
		if (s < t)
			t = s;
	}
	return t;
}

/* After anything that may move the next congestion event. */
static void cc_sync(struct gen_model *m)
{
	m->cc_next_t = gen_cc_next(m);
}

static uint32_t cc_run(struct gen_model *m, uint64_t now, struct gen_pkt *out, uint32_t room)
{
	struct gen_ccm *c = ccm_of(m);
	uint32_t got = 0;
	qlen_upto(m, c, now);
	if (now >= c->drain_t)
		c->drain_run = c->drain_t;
	/* PFC frames first: they were sent when the port decided, before anything later */
	while (c->pend_n && c->pend[c->pend_head].t_ns <= now) {
		if (got == room)
			return got;
		pfc_packet(m, c, &c->pend[c->pend_head], &out[got++]);
		c->pend_head = (c->pend_head + 1) % PFC_PEND;
		c->pend_n--;
	}
	if (c->storm_next < c->cfg->n_storms) {
		const struct gen_cc_storm *s = &c->cfg->storms[c->storm_order[c->storm_next]];
		if (s->start_ns <= now) {
			cc_sw_storm(c->sw, now, s->prio, s->duration_ns);
			c->sw_next = cc_sw_next_event(c->sw);
			c->storm_next++;
			pfc_read(m, c);
			return got;
		}
	}
	if (c->sw_next <= now) {
		struct cc_sw_departure d[32];
		uint32_t k = cc_sw_poll(c->sw, now, d, 32);
		c->sw_next = cc_sw_next_event(c->sw);
		for (uint32_t i = 0; i < k; i++)
			departed(m, c, &d[i]);
		pfc_read(m, c);
		return got;
	}
	for (struct evq *eq; (eq = ev_first(c)) && eq->h[0].t <= now;) {
		if (eq->h[0].kind == CCEV_CNP_SEND && got == room)
			return got;
		struct ccev e = ev_pop(eq);
		struct gen_qp *q = &m->qps[e.qi];
		switch (e.kind) {
		case CCEV_NP_FIRE:
			np_fire(m, c, &e);
			break;
		case CCEV_CNP_SEND:
			cnp_packet(m, q, e.t, &out[got++], e.ce_frame);
			c->st.cnps++;
			ev_push(c, &c->ev, e.t + m->sc->link_delay_ns, CCEV_CNP_ARRIVE, e.qi, 0);
			break;
		case CCEV_CNP_ARRIVE: {
			struct cc_rp *rp = &c->rp[e.qi];
			uint64_t cuts = rp->cuts;
			cc_rp_on_cnp(rp, e.t);
			c->st.rate_cuts += rp->cuts - cuts;
			set_rate(q, rp);
			if (c->st.min_rate_bps == 0 || q->rate_bps < c->st.min_rate_bps)
				c->st.min_rate_bps = q->rate_bps;
			gen_clock_rekey(m, q);
			break;
		}
		}
	}
	return got;
}

void gen_cc_request(struct gen_model *m, struct gen_qp *q, struct gen_pkt *pk, uint64_t t)
{
	if (cc_request(m, q, pk, t))
		cc_sync(m);
}

uint32_t gen_cc_run(struct gen_model *m, uint64_t now, struct gen_pkt *out, uint32_t room)
{
	uint32_t got = cc_run(m, now, out, room);
	cc_sync(m);
	return got;
}

void gen_cc_complete(struct gen_model *m, struct gen_qp *q, const struct gen_wqe *w, uint64_t t)
{
	struct gen_ccm *c = ccm_of(m);
	struct gen_lflow *lf = gen_qlf(m, q);
	const struct gen_flow *f = lf->f;
	if (!c->out.fp[CC_OUT_FCT] || !lf->cc)
		return;
	const struct gen_host *src = &m->sc->hosts[f->src], *dst = &m->sc->hosts[f->dst];
	/* per packet, the headers around a payload: a middle packet's frame */
	uint32_t overhead = gen_frame_len(lf, lf->opc[w->op][POS_MIDDLE] != 0xFF ? lf->opc[w->op][POS_MIDDLE]
										    : lf->opc[w->op][POS_ONLY], 0);
	struct cc_out_msg msg = {
		.flow = f->name,
		.af = src->af,
		.src_ip = src->ip,
		.dst_ip = dst->ip,
		.src_qpn = (f->src_qpn + q->qp) & RW_QPN_MASK,
		.dst_qpn = (f->dst_qpn + q->qp) & RW_QPN_MASK,
		.op = (enum gen_op)w->op,
		.bytes = w->len,
		.start_ns = w->t0,
		.end_ns = t,
		.ideal_ns = cc_ideal_fct_ns(w->len, lf->mtu, overhead + GEN_WIRE_EXTRA, c->link_bps,
					    2 * m->sc->link_delay_ns),
	};
	cc_out_fct(&c->out, &msg);
}

/* ---- API ---- */

int gen_cc_truth_on(struct gen_model *m)
{
	struct gen_ccm *c = m->cc;
	if (!c->sw || c->slot_tr)
		return 0;
	c->slot_tr = calloc(c->nslots ? c->nslots : 1, sizeof(*c->slot_tr));
	return c->slot_tr ? 0 : -1;
}

const struct gen_cc_stats *gen_model_cc_stats(struct gen_model *m)
{
	struct gen_ccm *c = m->cc;
	if (!c)
		return NULL;
	for (uint8_t p = 0; c->sw && p < 8; p++)
		c->st.paused_ns[p] = cc_sw_stats(c->sw, p)->paused_ns;
	return &c->st;
}

int gen_model_cc_finish(struct gen_model *m, int commit, char *err, size_t errcap)
{
	struct gen_ccm *c = m->cc;
	err[0] = '\0';
	if (!c || !c->out_open)
		return 0;
	c->out_open = 0;
	return cc_out_close(&c->out, commit, err, errcap);
}
