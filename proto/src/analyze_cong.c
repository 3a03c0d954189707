/* SPDX-License-Identifier: BSD-3-Clause */
/* Congestion: ECN CE marks, the CNPs they cause, and PFC / 802.3x PAUSE. */
#include <string.h>

#include "analyze_int.h"
#include "rocewire/wire.h"

/* ---- CE marks and CNPs ---- */

static size_t ce_size(uint32_t cap)
{
	return sizeof(struct rw_ce_ring) + (size_t)cap * sizeof(struct rw_ce_mark);
}

static void ce_pop(struct rw_ce_ring *r)
{
	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
	if (r->uncovered > r->n)
		r->uncovered = r->n;
}

/* The oldest mark of a full ring goes to `over`: still counted, so that a
 * notification point lagging further behind keeps its CNPs linked, but
 * timed by the newest mark there. */
static void ce_spill(struct rw_ce_ring *r)
{
	const struct rw_ce_mark *m = CE_AT(r, 0);
	if (r->uncovered == r->n && (m->frame_el & 1)) {
		if (!r->over.uncov_el)
			r->over.uncov_frame = m->frame_el >> 1;
		r->over.uncov_el++;
	}
	r->over.n++;
	r->over.last_ts = m->ts;
	r->over.frame = m->frame_el >> 1;
	ce_pop(r);
}

/* Room for one more mark: the ring doubles up to RW_CE_MAX, then spills. */
static struct rw_ce_ring *ce_room(struct rw_analyzer *a, struct rw_flow *f)
{
	struct rw_ce_ring *r = f->ce;
	if (!r) {
		r = an_alloc(a, ce_size(RW_CE_MIN), 0);
		if (r)
			r->cap = RW_CE_MIN;
		return f->ce = r;
	}
	if (r->n < r->cap)
		return r;
	struct rw_ce_ring *g = r->cap < RW_CE_MAX ? an_alloc(a, ce_size(r->cap * 2), 0) : NULL;
	if (!g) {
		ce_spill(r);
		return r;
	}
	memcpy(g, r, sizeof(*r));
	for (uint32_t k = 0; k < r->n; k++)
		g->e[k] = *CE_AT(r, k);
	g->cap = r->cap * 2;
	g->head = 0;
	an_free(a, r, ce_size(r->cap));
	return f->ce = g;
}

void ce_release(struct rw_analyzer *a, struct rw_flow *f)
{
	if (f->ce)
		an_free(a, f->ce, ce_size(f->ce->cap));
	f->ce = NULL;
}

/* Marks whose window has passed leave unanswered; an eligible one that no
 * CNP followed is a ce_without_cnp verdict (judged here, lazily: on the
 * flow's next mark or CNP, or at the end of the capture). */
void ce_expire(struct rw_analyzer *a, struct rw_flow *f, uint64_t now)
{
	struct rw_ce_ring *r = f->ce;
	if (!r)
		return;
	uint64_t w = a->cfg.cnp_window_ns;
	if (r->over.n && now > r->over.last_ts && now - r->over.last_ts > w) {
		if (r->over.uncov_el)
			conf_violations(a, f, RW_V_CE_NO_CNP, r->over.uncov_frame,
					r->over.uncov_el);
		memset(&r->over, 0, sizeof(r->over));
	}
	while (r->n) {
		const struct rw_ce_mark *m = CE_AT(r, 0);
		if (now <= m->ts || now - m->ts <= w)
			break;
		if (r->uncovered == r->n && (m->frame_el & 1))
			conf_violation(a, f, RW_V_CE_NO_CNP, m->frame_el >> 1);
		ce_pop(r);
	}
}

void ce_push(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts, uint64_t frame)
{
	f->ce_last_ns = ts;
	ce_expire(a, f, ts);
	struct rw_ce_ring *r = ce_room(a, f);
	if (!r)
		return;
	struct rw_ce_mark *m = CE_AT(r, r->n);
	m->ts = ts;
	m->frame_el = frame << 1;
	r->n++;
	r->uncovered++;
}

void ce_set_eligible(struct rw_flow *f)
{
	struct rw_ce_ring *r = f->ce;
	if (r && r->n)
		CE_AT(r, r->n - 1)->frame_el |= 1;
}

/* A CNP for f at ts: every mark before it now has a CNP inside its window
 * (whichever mark that CNP answers, the notification point did not stay
 * silent). With `frame`, the CNP answers the oldest mark still waiting:
 * a notification point answers marks in order, and one mark answers at
 * most one CNP, so a CNP that finds none waiting is unlinked however many
 * marks an earlier CNP came after. Oldest first is also the order that
 * links the most CNPs: a younger mark stays in the window longer. */
static int ce_answer(struct rw_analyzer *a, struct rw_flow *f, uint64_t ts, uint64_t *frame)
{
	struct rw_ce_ring *r = f->ce;
	if (!r)
		return 0;
	ce_expire(a, f, ts);
	r->uncovered = 0;
	r->over.uncov_el = 0;
	if (!frame)
		return 0;
	if (r->over.n) {
		*frame = r->over.frame;
		if (!--r->over.n)
			memset(&r->over, 0, sizeof(r->over));
		return 1;
	}
	if (!r->n || CE_AT(r, 0)->ts > ts)
		return 0;
	*frame = CE_AT(r, 0)->frame_el >> 1;
	ce_pop(r);
	return 1;
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

	/* Without a request flow to slow, the CNP's own flow is credited:
	 * its CE marks (on the NP -> RP direction) are not what it answers. */
	uint64_t ce_frame = 0;
	if (ce_answer(a, owner, ts, t ? &ce_frame : NULL)) {
		n->flags |= RW_N_CNP_LINKED;
		n->ce_count = 1;
		n->ce_frame = ce_frame;
	} else {
		a->totals.cnps_unlinked++;
	}
}

/* ---- PFC / PAUSE ----
 *
 * 802.1Qbb (and 802.3x) pause one direction of one link: the traffic
 * towards the frame's sender, which its Ethernet source names. Which
 * captured frames travel towards a sender is decided from what the capture
 * shows:
 *  - a sender that frames are addressed to (a NIC, or a routed switch port
 *    whose MAC is the next hop) pauses the frames addressed to it, on its
 *    own link; but only a Linux cooked capture says it was taken on that
 *    link (each frame's direction names the host's link). Ethernet frames
 *    between stations look the same on a station's cable, at a mirror of
 *    its switch port, or at the input of the switch port towards it where
 *    the senders' links merge (rocewire-gen's tap): one station in every
 *    frame, or only two stations, do not tell them apart. There a
 *    station's pause is counted for its class and holds no frame back:
 *    the capture cannot show that a frame to it broke its pause.
 *  - a sender that no frame is addressed to is a switch port forwarding by
 *    the hosts' MACs. A switch pauses the links its buffer fills from: the
 *    requesters' links, whose requests it holds on their way to the
 *    responders. Its pause applies to requests, not to what goes back to
 *    the requesters (ACKs, NAKs, READ responses, atomic ACKs, CNPs), as in
 *    rocewire-gen's model, whose switch port holds requests only. It stands
 *    for every port of its switch: the capture does not say which link
 *    each frame was on.
 * Each sender keeps its own pause per class, so that one's XON does not
 * end another's pause. The totals per class are the union over senders. */

#define SLL_OUTGOING 4 /* packet(7): PACKET_OUTGOING, sent by the capturing host */

static uint64_t mac_key(const uint8_t *m)
{
	return RW_L2_MAC | (uint64_t)rw_get_be16(m) << 32 | rw_get_be32(m + 2);
}

/* A Linux cooked capture has no destination address; its direction says
 * which end of the host's link a frame goes to. */
static void l2_ends(const struct rw_packet *p, uint64_t *src, uint64_t *dst)
{
	if (p->present & RW_P_ETH) {
		*src = mac_key(p->eth.src);
		*dst = mac_key(p->eth.dst);
	} else if (p->present & (RW_P_SLL | RW_P_SLL2)) {
		int out = p->sll.pkttype == SLL_OUTGOING;
		*src = out ? RW_L2_HOST : RW_L2_PEER;
		*dst = out ? RW_L2_PEER : RW_L2_HOST;
	} else {
		*src = *dst = 0;
	}
}

static uint32_t pfc_hash(uint64_t key)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32);
}

static int32_t pfc_find(const struct rw_analyzer *a, uint64_t key)
{
	if (!a->npfcs)
		return -1;
	uint32_t mask = a->pfcs_cap * 2 - 1;
	for (uint32_t s = pfc_hash(key) & mask;; s = (s + 1) & mask) {
		uint32_t v = a->pfc_slots[s];
		if (!v)
			return -1;
		if (a->pfcs[v - 1].key == key)
			return (int32_t)(v - 1);
	}
}

static int pfc_grow(struct rw_analyzer *a)
{
	uint32_t cap = a->pfcs_cap ? a->pfcs_cap * 2 : 8;
	struct rw_pfc_sender *ns = an_alloc(a, (size_t)cap * sizeof(*ns), 0);
	uint32_t *sl = an_alloc(a, (size_t)cap * 2 * sizeof(*sl), 0);
	if (!ns || !sl) {
		an_free(a, ns, (size_t)cap * sizeof(*ns));
		an_free(a, sl, (size_t)cap * 2 * sizeof(*sl));
		return 0;
	}
	if (a->pfcs) {
		memcpy(ns, a->pfcs, (size_t)a->npfcs * sizeof(*ns));
		an_free(a, a->pfcs, (size_t)a->pfcs_cap * sizeof(*ns));
		an_free(a, a->pfc_slots, (size_t)a->pfcs_cap * 2 * sizeof(*sl));
	}
	for (uint32_t i = 0; i < a->npfcs; i++) {
		uint32_t s = pfc_hash(ns[i].key) & (cap * 2 - 1);
		while (sl[s])
			s = (s + 1) & (cap * 2 - 1);
		sl[s] = i + 1;
	}
	a->pfcs = ns;
	a->pfc_slots = sl;
	a->pfcs_cap = cap;
	return 1;
}

/* The latest pause end per class of the switch ports (senders no frame is
 * addressed to), recomputed when a sender's pause or kind changes: rare
 * next to the requests that read it. */
static void port_until_update(struct rw_analyzer *a, unsigned c)
{
	uint64_t end = 0;
	for (uint32_t i = 0; i < a->npfcs; i++)
		if (!a->pfcs[i].addressed && a->pfcs[i].until[c] > end)
			end = a->pfcs[i].until[c];
	a->port_until[c] = end;
}

/* The sender with this link address, made on its first frame (NULL beyond
 * the memory limit: its pauses are counted, not followed). Whether frames
 * were addressed to it before is read from the address pairs. */
static struct rw_pfc_sender *pfc_sender(struct rw_analyzer *a, uint64_t key)
{
	int32_t i = pfc_find(a, key);
	if (i >= 0)
		return &a->pfcs[i];
	if (!key || (a->npfcs == a->pfcs_cap && !pfc_grow(a)))
		return NULL;
	struct rw_pfc_sender *s = &a->pfcs[a->npfcs];
	memset(s, 0, sizeof(*s));
	s->key = key;
	for (uint32_t k = 0; k < a->npairs && !s->addressed; k++)
		s->addressed = a->pairs[k].l2_src == key || a->pairs[k].l2_dst == key;
	uint32_t mask = a->pfcs_cap * 2 - 1, h = pfc_hash(key) & mask;
	while (a->pfc_slots[h])
		h = (h + 1) & mask;
	a->pfc_slots[h] = ++a->npfcs;
	return s;
}

/* A frame carries key: a sender by that address is a station, not a
 * switch port. */
static void pfc_addressed(struct rw_analyzer *a, uint64_t key)
{
	int32_t i = pfc_find(a, key);
	if (i < 0 || a->pfcs[i].addressed)
		return;
	a->pfcs[i].addressed = 1;
	for (unsigned c = 0; c <= RW_PFC_PRIORITIES; c++)
		port_until_update(a, c);
}

int pause_check(struct rw_analyzer *a, const struct rw_packet *p, const struct rw_flow *f,
		uint64_t ts)
{
	uint64_t src, dst;
	l2_ends(p, &src, &dst);
	if (!dst)
		return 0; /* native IB: credits, not pauses */
	struct rw_addr_pair *ap = &a->pairs[f->addr_pair];
	if (ap->l2_src != src || ap->l2_dst != dst) {
		ap->l2_src = src; /* (written only when changed: the line stays clean) */
		ap->l2_dst = dst;
	}
	if (!a->npfcs)
		return 0;
	if (src != a->l2_last_src || dst != a->l2_last_dst) {
		a->l2_last_src = src;
		a->l2_last_dst = dst;
		pfc_addressed(a, src);
		pfc_addressed(a, dst);
	}
	unsigned c = f->prio & 7;
	if (dst == RW_L2_HOST || dst == RW_L2_PEER) {
		int32_t i = pfc_find(a, dst);
		if (i >= 0 && (a->pfcs[i].until[c] > ts || a->pfcs[i].until[RW_PAUSE_ALL] > ts))
			return 1;
	}
	return (p->op->flags & RW_OPF_REQUEST) &&
	       (a->port_until[c] > ts || a->port_until[RW_PAUSE_ALL] > ts);
}

static void pause_end(struct rw_pfc_prio *u, uint64_t end)
{
	uint64_t run = end > u->run_start_ns ? end - u->run_start_ns : 0;
	if (run > u->longest_ns)
		u->longest_ns = run;
	u->until_ns = 0;
	u->in_storm = 0;
}

/* Class c's totals follow the union of the senders' pauses, after one of
 * them changed at ts. */
static void pause_union(struct rw_analyzer *a, unsigned c, uint64_t ts)
{
	struct rw_pfc_prio *u = &a->totals.pfc[c];
	uint64_t end = 0;
	for (uint32_t i = 0; i < a->npfcs; i++)
		if (a->pfcs[i].until[c] > end)
			end = a->pfcs[i].until[c];
	port_until_update(a, c);
	if (u->until_ns > ts) {
		if (end > ts) {
			/* time already counted past ts is given back when the
			 * union now ends sooner (an XON, a shorter refresh) */
			if (end > u->until_ns)
				u->paused_ns += end - u->until_ns;
			else
				u->paused_ns -= u->until_ns - end;
			u->until_ns = end;
		} else {
			/* the pause ends at ts; the run is closed when the next
			 * frame finds it over, unless a pause starts at ts */
			u->paused_ns -= u->until_ns - ts;
			u->until_ns = ts;
			if (!ts)
				pause_end(u, ts);
			return;
		}
	} else if (u->until_ns == ts && end > ts) {
		/* A pause that starts the nanosecond the previous one ended
		 * (an XON and an XOFF at once, or one sender's pause running
		 * out as another's starts) leaves no instant unpaused: the
		 * same continuous pause goes on. */
		u->paused_ns += end - ts;
		u->until_ns = end;
	} else {
		if (u->until_ns)
			pause_end(u, u->until_ns); /* the previous pause ran out by itself */
		if (end <= ts)
			return;
		u->run_start_ns = ts;
		u->paused_ns += end - ts;
		u->until_ns = end;
	}
	/* A storm is one continuous pause longer than the threshold; counted
	 * once, when the refreshed pause first reaches past the threshold. */
	if (!u->in_storm && u->until_ns - u->run_start_ns > a->cfg.storm_ns) {
		u->storms++;
		u->in_storm = 1;
	}
}

static void pause_ask(struct rw_analyzer *a, struct rw_pfc_sender *s, unsigned c, uint16_t quanta,
		      uint64_t ts, uint64_t *asked)
{
	uint64_t dur = (uint64_t)(rw_pause_quanta_ns(quanta, a->cfg.link_gbps) + 0.5);
	*asked = dur;
	struct rw_pfc_prio *u = &a->totals.pfc[c];
	u->frames++;
	if (quanta)
		u->xoff++;
	else
		u->xon++;
	if (!s)
		return;
	/* 802.3 31B.3.1 (and 802.1Qbb 36.1.3.3 per class): a received pause
	 * loads the timer with its time, whatever was left: a shorter refresh
	 * shortens the pause, time 0 (XON) ends it. */
	if (s->until[c] <= ts && !quanta) {
		s->until[c] = 0;
		return; /* an XON while not paused changes nothing */
	}
	s->until[c] = quanta ? ts + dur : 0;
	pause_union(a, c, ts);
}

void handle_macctrl(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts,
		    struct rw_note *n)
{
	n->flags |= RW_N_PFC;
	memset(n->pause_ns, 0, sizeof(n->pause_ns));
	uint64_t src, dst;
	l2_ends(p, &src, &dst);
	struct rw_pfc_sender *s = pfc_sender(a, src);
	if (p->carrier == RW_CARRIER_PAUSE) {
		pause_ask(a, s, RW_PAUSE_ALL, p->macctrl.quanta[0], ts, &n->pause_ns[RW_PAUSE_ALL]);
		return;
	}
	for (unsigned i = 0; i < RW_PFC_PRIORITIES; i++)
		if (p->macctrl.cev >> i & 1)
			pause_ask(a, s, i, p->macctrl.quanta[i], ts, &n->pause_ns[i]);
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

void pause_release(struct rw_analyzer *a)
{
	if (!a->pfcs)
		return;
	an_free(a, a->pfcs, (size_t)a->pfcs_cap * sizeof(*a->pfcs));
	an_free(a, a->pfc_slots, (size_t)a->pfcs_cap * 2 * sizeof(*a->pfc_slots));
	a->pfcs = NULL;
	a->pfc_slots = NULL;
	a->npfcs = a->pfcs_cap = 0;
}
