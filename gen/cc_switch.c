/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated bottleneck: one switch egress port with up to eight priority
 * queues (PCP) over a shared buffer, as the DCQCN congestion point.
 *
 * - Marking (DCQCN's RED on the instantaneous queue): an ECT packet is marked
 *   CE with probability 0 below Kmin, pmax (q-Kmin)/(Kmax-Kmin) up to Kmax,
 *   1 above, q being its priority's queue before it. Not-ECT packets are
 *   never marked and never dropped early (RED's early drop is left out: the
 *   scenarios need marking or tail drop, not both).
 * - Admission: a lossy priority drops a packet that does not fit in the
 *   shared buffer; a lossless one never drops (its excess is the headroom a
 *   real switch reserves for PFC's reaction time: counted, not enforced).
 * - PFC (802.1Qbb) upstream: a lossless queue at or above xoff sends XOFF
 *   for its class, refreshed while it stays above xon, and XON (time 0) when
 *   a dequeue brings it to xon or below.
 * - The port sends one packet at a time; a packet leaves its queue (and the
 *   buffer) when its first bit goes, and departs when its last bit has.
 *   Between priorities: strict priority or packet round-robin. A priority
 *   paused by the receiver behind the port (rx PFC, storms) is skipped; PFC
 *   never preempts a packet on the wire.
 * Time runs in picoseconds inside (a 100 Gb/s byte is 80 ps, a pause
 * quantum 5120 ps: both exact) and in nanoseconds at the API, rounded up:
 * nothing is reported before its cause. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cc.h"

#define NIL UINT32_MAX
#define PFC_RING 256
#define PS_NEVER UINT64_MAX

struct desc {
	uint64_t cookie;
	uint64_t t_start, t_end;  /* ps */
	uint32_t bytes, next;
	uint8_t prio, ce;
};

struct fifo {
	uint32_t head, tail;
};

/* One packet of an early-departure port's ring: its start and size in one
 * 16-byte entry (one cache line holds four). */
struct early_ent {
	uint64_t start;
	uint32_t bytes;
	uint8_t prio;
};

struct cc_sw {
	struct cc_sw_params p;
	double ps_per_byte;
	struct desc *pool;
	uint32_t free_head;      /* freed descriptors (NIL: none) */
	uint32_t fresh, npool;   /* descriptors never used: fresh .. npool - 1 */
	struct fifo q[CC_SW_PRIOS];
	uint64_t qbytes[CC_SW_PRIOS], total;
	struct fifo departed;
	uint32_t tx;              /* on the wire, or NIL */
	uint64_t now;             /* ps: the port is run up to here */
	uint8_t rr_next;
	uint8_t early;           /* cc_sw_early_departures() */
	uint8_t busy;            /* bit p: queue p holds packets (the per-step scans skip the rest) */
	uint8_t eg_ever;         /* bit p: egress of p has been paused at some time */
	uint8_t xoff_mask;       /* bit p: xoff_on[p] */
	uint64_t last_end;       /* early: ps when the last packet queued will have left */
	/* early: the packets queued and not started, a ring in arrival order
	 * (no descriptors: a start time is all the port needs of them) */
	struct early_ent *e;
	uint32_t e_head, e_tail, e_mask;
	uint64_t e_wire_end;     /* when the last packet started has left */
	uint8_t e_wire_prio;
	/* upstream PFC, per priority */
	uint8_t xoff_on[CC_SW_PRIOS];
	uint64_t ps_per_byte_int; /* ps_per_byte when whole, else 0 */
	uint8_t timers;          /* bit p: class p has a storm or an XOFF refresh running
				  * (the per-step scans skip the classes with none) */
	uint16_t quanta[CC_SW_PRIOS];
	uint64_t pause_ps[CC_SW_PRIOS], refresh_ps[CC_SW_PRIOS];
	uint64_t xoff_first[CC_SW_PRIOS], xoff_refresh[CC_SW_PRIOS];
	/* egress paused by the receiver: the current stretch [from, until) */
	uint64_t eg_from[CC_SW_PRIOS], eg_until[CC_SW_PRIOS], eg_acc[CC_SW_PRIOS];
	uint64_t storm_next[CC_SW_PRIOS], storm_until[CC_SW_PRIOS], storm_refresh_ps;
	struct cc_sw_pfc ring[PFC_RING];
	uint32_t ring_head, ring_n;
	uint64_t ring_lost;
	uint64_t rng;
	struct cc_sw_prio_stats st[CC_SW_PRIOS];
	struct cc_sw_prio_stats out[CC_SW_PRIOS];
};

uint64_t cc_pfc_quanta_ps(uint32_t quanta, double link_bps)
{
	return (uint64_t)llround((double)quanta * 512.0 * 1e12 / link_bps);
}

uint16_t cc_pfc_quanta_for_ns(uint64_t ns, double link_bps)
{
	double q = ceil((double)ns * 1000.0 / (512.0 * 1e12 / link_bps));
	return q >= 65535.0 ? 0xFFFF : (uint16_t)q;
}

uint64_t cc_ideal_fct_ns(uint64_t bytes, uint32_t mtu, uint32_t overhead, double bottleneck_bps,
			 uint64_t base_rtt_ns)
{
	uint64_t wire = bytes;
	if (mtu) {
		uint64_t n = bytes ? (bytes + mtu - 1) / mtu : 1;
		wire += n * overhead;
	}
	return base_rtt_ns + (uint64_t)llround((double)wire * 8e9 / bottleneck_bps);
}

void cc_sw_defaults(struct cc_sw_params *p, double link_bps, uint64_t buffer, uint8_t nprio)
{
	memset(p, 0, sizeof(*p));
	p->link_bps = link_bps;
	p->buffer = buffer;
	p->nprio = nprio;
	p->sched = CC_SW_STRICT;
	p->pause_quanta = 0xFFFF;
	for (int i = 0; i < CC_SW_PRIOS; i++) {
		/* DCQCN paper's marking (congestion.md) */
		p->prio[i].ecn = 1;
		p->prio[i].kmin = 5000;
		p->prio[i].kmax = 200000;
		p->prio[i].pmax = 0.01;
	}
}

/* splitmix64: a seed gives one sequence on every platform */
static double rand01(struct cc_sw *sw)
{
	uint64_t z = (sw->rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1.0p-53;
}

static void timers_update(struct cc_sw *sw, uint8_t p)
{
	if (sw->storm_next[p] != PS_NEVER || sw->xoff_on[p])
		sw->timers |= (uint8_t)(1u << p);
	else
		sw->timers &= (uint8_t)~(1u << p);
}

static uint64_t ps_to_ns(uint64_t ps)
{
	/* rounded up: one division (PS_NEVER - 999 and above are never times) */
	return ps >= PS_NEVER - 999 ? CC_NEVER : (ps + 999) / 1000;
}

static uint64_t ns_to_ps(uint64_t ns)
{
	return ns > PS_NEVER / 1000 ? PS_NEVER : ns * 1000;
}

struct cc_sw *cc_sw_new(const struct cc_sw_params *p)
{
	if (p->link_bps <= 0 || p->nprio == 0 || p->nprio > CC_SW_PRIOS)
		return NULL;
	struct cc_sw *sw = calloc(1, sizeof(*sw));
	if (!sw)
		return NULL;
	sw->p = *p;
	uint64_t n = p->max_packets ? p->max_packets : 2 * p->buffer / 64 + 1024;
	if (n >= NIL)
		n = NIL - 1;
	sw->pool = calloc(n, sizeof(*sw->pool));
	if (!sw->pool) {
		free(sw);
		return NULL;
	}
	/* Descriptors never used are taken in order (fresh); freed ones go on
	 * the free list and are taken first: a run touches only as many as
	 * its queues ever held, not the whole pool. */
	sw->free_head = NIL;
	sw->fresh = 0;
	sw->npool = n;
	sw->ps_per_byte = 8e12 / p->link_bps;
	/* most link rates give a whole number of picoseconds per byte (80 at
	 * 100 Gb/s): then a frame's time is one multiply */
	if (sw->ps_per_byte == (double)(uint64_t)sw->ps_per_byte)
		sw->ps_per_byte_int = (uint64_t)sw->ps_per_byte;
	sw->tx = NIL;
	sw->departed.head = sw->departed.tail = NIL;
	sw->rng = p->seed;
	uint64_t quantum_ps = cc_pfc_quanta_ps(1, p->link_bps);
	sw->storm_refresh_ps = p->storm_refresh_ns ? ns_to_ps(p->storm_refresh_ns)
						   : cc_pfc_quanta_ps(0xFFFF, p->link_bps) / 2;
	for (int i = 0; i < CC_SW_PRIOS; i++) {
		const struct cc_sw_prio *pr = &p->prio[i];
		sw->q[i].head = sw->q[i].tail = NIL;
		sw->storm_next[i] = PS_NEVER;
		/* computed pause: the time the port needs to drain xoff to xon */
		uint16_t qn = p->pause_quanta;
		if (!qn) {
			uint64_t gap = pr->xoff > pr->xon ? pr->xoff - pr->xon : 0;
			double ps = (double)gap * sw->ps_per_byte;
			qn = (uint16_t)fmin(65535.0, fmax(1.0, ceil(ps / (double)quantum_ps)));
		}
		sw->quanta[i] = qn;
		sw->pause_ps[i] = cc_pfc_quanta_ps(qn, p->link_bps);
		/* refresh strictly inside the pause, or the senders would resume */
		uint64_t r = p->refresh_ns ? ns_to_ps(p->refresh_ns) : sw->pause_ps[i] / 2;
		if (r >= sw->pause_ps[i] || r == 0)
			r = sw->pause_ps[i] / 2 ? sw->pause_ps[i] / 2 : 1;
		sw->refresh_ps[i] = r;
	}
	return sw;
}

void cc_sw_free(struct cc_sw *sw)
{
	if (!sw)
		return;
	free(sw->pool);
	free(sw->e);
	free(sw);
}

static void push(struct cc_sw *sw, struct fifo *f, uint32_t i)
{
	sw->pool[i].next = NIL;
	if (f->tail == NIL)
		f->head = i;
	else
		sw->pool[f->tail].next = i;
	f->tail = i;
}

static uint32_t pop(struct cc_sw *sw, struct fifo *f)
{
	uint32_t i = f->head;
	if (i == NIL)
		return NIL;
	f->head = sw->pool[i].next;
	if (f->head == NIL)
		f->tail = NIL;
	return i;
}

static void emit(struct cc_sw *sw, uint64_t t, uint8_t dir, uint16_t cev, const uint16_t *quanta)
{
	if (sw->ring_n == PFC_RING) {
		sw->ring_lost++;
		return;
	}
	struct cc_sw_pfc *e = &sw->ring[(sw->ring_head + sw->ring_n++) % PFC_RING];
	memset(e, 0, sizeof(*e));
	e->t_ns = ps_to_ns(t);
	e->dir = dir;
	e->cev = cev;
	for (int i = 0; i < CC_SW_PRIOS; i++)
		if (cev >> i & 1)
			e->quanta[i] = quanta[i];
}

static void emit_one(struct cc_sw *sw, uint64_t t, uint8_t dir, uint8_t prio, uint16_t quanta)
{
	uint16_t q[CC_SW_PRIOS] = { 0 };
	q[prio] = quanta;
	emit(sw, t, dir, (uint16_t)(1u << prio), q);
}

static int egress_paused(const struct cc_sw *sw, uint8_t p, uint64_t t)
{
	return sw->eg_until[p] > t;
}

/* Which non-empty, unpaused priority sends next; -1 for none. */
static int pick(struct cc_sw *sw, uint64_t t)
{
	unsigned busy = sw->busy;
	if (!busy)
		return -1;
	if (!(busy & (busy - 1)) && !(sw->eg_ever & busy))
		return __builtin_ctz(busy); /* one queue, never paused: most steps */
	int n = sw->p.nprio;
	for (int k = 0; k < n; k++) {
		int p = sw->p.sched == CC_SW_STRICT ? n - 1 - k : (sw->rr_next + k) % n;
		if ((busy >> p & 1) && !egress_paused(sw, (uint8_t)p, t))
			return p;
	}
	return -1;
}

/* A packet of class p started at t: its queue may be down to XON. */
static void xon_check(struct cc_sw *sw, uint8_t p, uint64_t t)
{
	if (sw->xoff_on[p] && sw->qbytes[p] <= sw->p.prio[p].xon) {
		sw->xoff_on[p] = 0;
		sw->xoff_mask &= (uint8_t)~(1u << p);
		timers_update(sw, p);
		sw->st[p].xon++;
		sw->st[p].paused_ns += ps_to_ns(t - sw->xoff_first[p]);
		emit_one(sw, t, CC_SW_PFC_UPSTREAM, p, 0);
	}
}

/* An XOFF refresh of class p is due at t. */
static void xoff_refresh(struct cc_sw *sw, uint8_t p, uint64_t t)
{
	sw->st[p].xoff++;
	sw->xoff_refresh[p] = t + sw->refresh_ps[p];
	emit_one(sw, t, CC_SW_PFC_UPSTREAM, p, sw->quanta[p]);
}

static uint64_t frame_ps(const struct cc_sw *sw, uint32_t bytes)
{
	return sw->ps_per_byte_int ? bytes * sw->ps_per_byte_int : (uint64_t)llround((double)bytes * sw->ps_per_byte);
}

static void try_start(struct cc_sw *sw, uint64_t t)
{
	if (sw->tx != NIL)
		return;
	int p = pick(sw, t);
	if (p < 0)
		return;
	sw->rr_next = (uint8_t)((p + 1) % sw->p.nprio);
	uint32_t i = pop(sw, &sw->q[p]);
	if (sw->q[p].head == NIL)
		sw->busy &= (uint8_t)~(1u << p);
	struct desc *d = &sw->pool[i];
	sw->qbytes[p] -= d->bytes;
	sw->total -= d->bytes;
	d->t_start = t;
	d->t_end = t + frame_ps(sw, d->bytes);
	sw->tx = i;
	xon_check(sw, (uint8_t)p, t);
}

/* A pause from the receiver at t for dur (0: resume). The paused time is
 * the union of the stretches, each closed when the next one begins. */
static void egress_pause(struct cc_sw *sw, uint8_t p, uint64_t t, uint64_t dur)
{
	sw->eg_ever |= (uint8_t)(1u << p);
	if (!egress_paused(sw, p, t)) {
		sw->eg_acc[p] += sw->eg_until[p] - sw->eg_from[p];
		sw->eg_from[p] = t;
	}
	sw->eg_until[p] = t + dur;
}

static void storm_step(struct cc_sw *sw, uint8_t p)
{
	uint64_t t = sw->storm_next[p];
	if (t >= sw->storm_until[p]) {
		sw->storm_next[p] = PS_NEVER;
		timers_update(sw, p);
		emit_one(sw, t, CC_SW_PFC_DOWNSTREAM, p, 0);
		egress_pause(sw, p, t, 0);
		try_start(sw, t);
		return;
	}
	emit_one(sw, t, CC_SW_PFC_DOWNSTREAM, p, 0xFFFF);
	egress_pause(sw, p, t, cc_pfc_quanta_ps(0xFFFF, sw->p.link_bps));
	uint64_t next = t + sw->storm_refresh_ps;
	sw->storm_next[p] = next < sw->storm_until[p] ? next : sw->storm_until[p];
}

/* The earliest pause end that would let an idle port send again. */
static uint64_t unpause_time(const struct cc_sw *sw)
{
	uint64_t t = PS_NEVER;
	if (sw->tx != NIL)
		return t;
	for (unsigned m = sw->busy & sw->eg_ever; m; m &= m - 1) {
		int p = __builtin_ctz(m);
		if (sw->eg_until[p] > sw->now && sw->eg_until[p] < t)
			t = sw->eg_until[p];
	}
	return t;
}

/* The earliest XOFF refresh due (PS_NEVER: none), and its class. */
static uint64_t next_refresh(const struct cc_sw *sw, int *pr)
{
	uint64_t t = PS_NEVER;
	for (unsigned m = sw->xoff_mask; m; m &= m - 1) {
		int p = __builtin_ctz(m);
		if (sw->xoff_refresh[p] < t)
			t = sw->xoff_refresh[p], *pr = p;
	}
	return t;
}

/* At one instant a start goes before a refresh, as in advance(). */
static inline __attribute__((always_inline)) void early_start(struct cc_sw *sw,
								 const struct early_ent *e)
{
	sw->qbytes[e->prio] -= e->bytes;
	sw->total -= e->bytes;
	sw->st[e->prio].departed++; /* counted at its start; cc_sw_stats() takes back one on the wire */
	sw->e_wire_end = e->start + frame_ps(sw, e->bytes);
	sw->e_wire_prio = e->prio;
}

/* early_advance() while an XOFF is on: refreshes between the starts, and
 * each start may end the XOFF. */
static __attribute__((noinline)) void early_advance_pfc(struct cc_sw *sw, uint64_t now)
{
	for (;;) {
		uint64_t ts = sw->e_head != sw->e_tail ? sw->e[sw->e_head & sw->e_mask].start : PS_NEVER;
		int pr = -1;
		uint64_t tr = sw->xoff_mask ? next_refresh(sw, &pr) : PS_NEVER;
		if (ts <= tr) {
			if (ts > now)
				break;
			const struct early_ent *e = &sw->e[sw->e_head++ & sw->e_mask];
			early_start(sw, e);
			sw->now = ts;
			xon_check(sw, e->prio, ts);
		} else {
			if (tr > now)
				break;
			sw->now = tr;
			xoff_refresh(sw, (uint8_t)pr, tr);
		}
	}
	sw->now = now;
}

/* advance() of an early-departure port: packets start in arrival order at
 * the times fixed when they came. With no XOFF on (the common case: ECN
 * ports, and lossless ones below their threshold) a start changes nothing
 * but the counts. */
static inline void early_advance(struct cc_sw *sw, uint64_t now)
{
	if (now < sw->now)
		return;
	if (sw->xoff_mask) {
		early_advance_pfc(sw, now);
		return;
	}
	while (sw->e_head != sw->e_tail) {
		const struct early_ent *e = &sw->e[sw->e_head & sw->e_mask];
		if (e->start > now)
			break;
		sw->e_head++;
		early_start(sw, e);
	}
	sw->now = now;
}

static void advance(struct cc_sw *sw, uint64_t now)
{
	if (sw->early) {
		early_advance(sw, now);
		return;
	}
	if (now < sw->now)
		return;
	for (;;) {
		if (!sw->timers && !(sw->busy & sw->eg_ever)) {
			/* no timer, no pause: only the packet on the wire can end */
			if (sw->tx == NIL || sw->pool[sw->tx].t_end > now)
				break;
		}
		/* at one instant: departure, storm frames, refreshes, unpause */
		uint64_t t_tx = sw->tx != NIL ? sw->pool[sw->tx].t_end : PS_NEVER;
		uint64_t t_storm = PS_NEVER, t_ref = PS_NEVER;
		int ps = -1, pr = -1;
		for (unsigned m = sw->timers; m; m &= m - 1) {
			int p = __builtin_ctz(m);
			if (sw->storm_next[p] < t_storm)
				t_storm = sw->storm_next[p], ps = p;
			if (sw->xoff_on[p] && sw->xoff_refresh[p] < t_ref)
				t_ref = sw->xoff_refresh[p], pr = p;
		}
		uint64_t t_un = unpause_time(sw);
		uint64_t t = t_tx;
		if (t_storm < t)
			t = t_storm;
		if (t_ref < t)
			t = t_ref;
		if (t_un < t)
			t = t_un;
		if (t > now || t == PS_NEVER)
			break;
		sw->now = t;
		if (t == t_tx) {
			struct desc *d = &sw->pool[sw->tx];
			sw->st[d->prio].departed++;
			if (sw->early) { /* told at its arrival: the descriptor is free */
				d->next = sw->free_head;
				sw->free_head = sw->tx;
			} else {
				push(sw, &sw->departed, sw->tx);
			}
			sw->tx = NIL;
			try_start(sw, t);
		} else if (t == t_storm) {
			storm_step(sw, (uint8_t)ps);
		} else if (t == t_ref) {
			xoff_refresh(sw, (uint8_t)pr, t);
		} else {
			try_start(sw, t);
		}
	}
	sw->now = now;
}

static double mark_prob(const struct cc_sw_prio *pr, uint64_t q)
{
	if (q < pr->kmin)
		return 0;
	if (q > pr->kmax)
		return 1;
	if (pr->kmax == pr->kmin)
		return pr->pmax;
	return pr->pmax * (double)(q - pr->kmin) / (double)(pr->kmax - pr->kmin);
}

/* The early ring is full: twice the room, the queued packets kept in order. */
static int early_grow(struct cc_sw *sw)
{
	uint32_t cap = sw->e_mask + 1, n = sw->e_tail - sw->e_head;
	if (cap >= (1u << 31))
		return -1;
	struct early_ent *e = malloc((size_t)cap * 2 * sizeof(*e));
	if (!e)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		e[i] = sw->e[(sw->e_head + i) & sw->e_mask];
	free(sw->e);
	sw->e = e;
	sw->e_head = 0;
	sw->e_tail = n;
	sw->e_mask = cap * 2 - 1;
	return 0;
}

/* An early port's arrival at t: it starts when the packet before it has
 * left (one FIFO, never paused), and its start and departure go in the
 * verdict. */
static inline const struct early_ent *early_push(struct cc_sw *sw, uint64_t t, uint8_t prio, uint32_t bytes,
						 struct cc_sw_verdict *v)
{
	uint64_t start = sw->last_end > t ? sw->last_end : t;
	sw->last_end = start + frame_ps(sw, bytes);
	struct early_ent *e = &sw->e[sw->e_tail++ & sw->e_mask];
	e->start = start;
	e->bytes = bytes;
	e->prio = prio;
	v->t_start_ns = ps_to_ns(start);
	v->t_dep_ns = ps_to_ns(sw->last_end);
	return e;
}

/* RED/ECN for an ECT packet that found q bytes queued (out of line: in the
 * early port's common case the queue is below Kmin and it is not called). */
static __attribute__((noinline)) void red_mark(struct cc_sw *sw, const struct cc_sw_prio *pr,
						 struct cc_sw_prio_stats *st, uint64_t q,
						 struct cc_sw_verdict *v)
{
	double pm = mark_prob(pr, q);
	v->ce = pm >= 1.0 || (pm > 0 && rand01(sw) < pm);
	st->marked += v->ce;
}

/* cc_sw_enqueue() of an early-departure port in its common case: a class
 * that is not lossless, no XOFF on anywhere (so no packet starts an XON or
 * comes while paused), room in the buffer and the ring. The same steps in
 * the same order as the general code, without the cases that cannot
 * arise; anything else goes to it. */
int cc_sw_enqueue_early(struct cc_sw *sw, uint64_t now, uint8_t prio, uint32_t bytes, int ect,
			struct cc_sw_verdict *v)
{
	if (prio >= sw->p.nprio)
		prio = 0;
	const struct cc_sw_prio *pr = &sw->p.prio[prio];
	uint64_t t = ns_to_ps(now);
	if (!sw->early || sw->xoff_mask || pr->lossless || t < sw->now)
		return 0;
	early_advance(sw, t); /* with no XOFF on: starts up to t change only counts */
	uint32_t held = sw->e_tail - sw->e_head;
	if (sw->total + bytes > sw->p.buffer || held + (sw->e_wire_end > t) >= sw->npool || held > sw->e_mask)
		return 0; /* a drop, or the ring grows: the general code (at t already) */
	struct cc_sw_prio_stats *st = &sw->st[prio];
	uint64_t q = sw->qbytes[prio];
	st->packets++;
	st->bytes += bytes;
	v->result = CC_SW_QUEUED;
	v->qlen = q;
	v->ce = 0;
	v->xoff = 0;
	v->while_paused = 0;
	v->pfc = sw->ring_n != 0;
	if (pr->ecn && ect && q >= pr->kmin)
		red_mark(sw, pr, st, q, v);
	const struct early_ent *e = early_push(sw, t, prio, bytes, v);
	sw->qbytes[prio] = q + bytes;
	sw->total += bytes;
	if (q + bytes > st->max_qlen)
		st->max_qlen = q + bytes;
	if (e->start <= t) { /* an idle port: it starts now */
		sw->e_head++;
		early_start(sw, e);
	}
	v->next_ns = CC_NEVER; /* no XOFF on: departures were told at arrival */
	return 1;
}

struct cc_sw_verdict cc_sw_enqueue(struct cc_sw *sw, uint64_t now, uint8_t prio, uint32_t bytes, int ect,
				   uint64_t cookie)
{
	struct cc_sw_verdict v = { .result = CC_SW_DROPPED };
	uint64_t t = ns_to_ps(now);
	if (prio >= sw->p.nprio)
		prio = 0;
	advance(sw, t);
	const struct cc_sw_prio *pr = &sw->p.prio[prio];
	struct cc_sw_prio_stats *st = &sw->st[prio];
	v.qlen = sw->qbytes[prio];
	st->packets++;
	st->bytes += bytes;
	if (pr->lossless && sw->xoff_on[prio] && t >= sw->xoff_first[prio] + ns_to_ps(sw->p.response_ns)) {
		v.while_paused = 1;
		st->sent_while_paused++;
	}
	uint64_t fill = sw->total + bytes;
	/* a packet holds a descriptor from its arrival until it has left */
	int full = sw->early ? sw->e_tail - sw->e_head + (sw->e_wire_end > t) >= sw->npool
			     : sw->free_head == NIL && sw->fresh == sw->npool;
	/* (a ring that cannot grow, out of memory, is a port out of descriptors) */
	if (!full && sw->early && sw->e_tail - sw->e_head > sw->e_mask)
		full = early_grow(sw) != 0;
	if ((!pr->lossless && fill > sw->p.buffer) || full) {
		st->dropped++;
		st->dropped_bytes += bytes;
		v.next_ns = cc_sw_next_event(sw);
		v.pfc = sw->ring_n != 0;
		return v;
	}
	if (pr->lossless && fill > sw->p.buffer && fill - sw->p.buffer > st->headroom)
		st->headroom = fill - sw->p.buffer;
	if (pr->ecn && ect)
		red_mark(sw, pr, st, v.qlen, &v);
	uint64_t start = 0;
	if (sw->early) {
		/* one FIFO, never paused: it starts when the packet before it
		 * has left */
		start = early_push(sw, t, prio, bytes, &v)->start;
	} else {
		uint32_t i;
		if (sw->free_head != NIL) {
			i = sw->free_head;
			sw->free_head = sw->pool[i].next;
		} else {
			i = sw->fresh++;
		}
		struct desc *d = &sw->pool[i];
		d->cookie = cookie;
		d->bytes = bytes;
		d->prio = prio;
		d->ce = v.ce;
		push(sw, &sw->q[prio], i);
		sw->busy |= (uint8_t)(1u << prio);
	}
	sw->qbytes[prio] += bytes;
	sw->total += bytes;
	if (sw->qbytes[prio] > st->max_qlen)
		st->max_qlen = sw->qbytes[prio];
	v.result = CC_SW_QUEUED;
	if (pr->lossless && pr->xoff && !sw->xoff_on[prio] && sw->qbytes[prio] >= pr->xoff) {
		sw->xoff_on[prio] = 1;
		sw->xoff_mask |= (uint8_t)(1u << prio);
		timers_update(sw, prio);
		sw->xoff_first[prio] = t;
		sw->xoff_refresh[prio] = t + sw->refresh_ps[prio];
		st->xoff++;
		v.xoff = 1;
		emit_one(sw, t, CC_SW_PFC_UPSTREAM, prio, sw->quanta[prio]);
	}
	if (!sw->early)
		try_start(sw, t);
	else if (start <= t)
		early_advance(sw, t); /* an idle port: it starts now */
	v.next_ns = cc_sw_next_event(sw);
	v.pfc = sw->ring_n != 0;
	return v;
}

int cc_sw_early_departures(struct cc_sw *sw)
{
	if (sw->early)
		return 0;
	if (sw->tx != NIL || sw->busy)
		return -1; /* only before the first packet */
	/* small, so that it stays in cache; it grows when a queue needs it */
	uint32_t cap = 1024;
	sw->e = malloc((size_t)cap * sizeof(*sw->e));
	if (!sw->e)
		return -1;
	sw->e_mask = cap - 1;
	sw->e_head = sw->e_tail = 0;
	sw->early = 1;
	sw->last_end = sw->now;
	return 0;
}

uint32_t cc_sw_poll(struct cc_sw *sw, uint64_t now, struct cc_sw_departure *out, uint32_t n)
{
	advance(sw, ns_to_ps(now));
	uint32_t k = 0;
	while (k < n) {
		uint32_t i = pop(sw, &sw->departed);
		if (i == NIL)
			break;
		const struct desc *d = &sw->pool[i];
		out[k++] = (struct cc_sw_departure){ .t_ns = ps_to_ns(d->t_end), .t_start_ns = ps_to_ns(d->t_start),
						     .cookie = d->cookie, .bytes = d->bytes, .prio = d->prio,
						     .ce = d->ce };
		sw->pool[i].next = sw->free_head;
		sw->free_head = i;
	}
	return k;
}

uint32_t cc_sw_pfc_events(struct cc_sw *sw, struct cc_sw_pfc *out, uint32_t n)
{
	uint32_t k = 0;
	while (k < n && sw->ring_n) {
		out[k++] = sw->ring[sw->ring_head];
		sw->ring_head = (sw->ring_head + 1) % PFC_RING;
		sw->ring_n--;
	}
	return k;
}

uint64_t cc_sw_next_event(const struct cc_sw *sw)
{
	if (sw->early) {
		/* departures were told at arrival; only an XON needs the starts */
		if (!sw->xoff_mask)
			return CC_NEVER;
		int pr;
		uint64_t t = next_refresh(sw, &pr);
		if (sw->e_head != sw->e_tail && sw->e[sw->e_head & sw->e_mask].start < t)
			t = sw->e[sw->e_head & sw->e_mask].start;
		return ps_to_ns(t);
	}
	uint64_t t = sw->tx != NIL ? sw->pool[sw->tx].t_end : PS_NEVER;
	for (unsigned m = sw->timers; m; m &= m - 1) {
		int p = __builtin_ctz(m);
		if (sw->storm_next[p] < t)
			t = sw->storm_next[p];
		if (sw->xoff_on[p] && sw->xoff_refresh[p] < t)
			t = sw->xoff_refresh[p];
	}
	uint64_t u = unpause_time(sw);
	return ps_to_ns(u < t ? u : t);
}

void cc_sw_rx_pfc(struct cc_sw *sw, uint64_t now, uint16_t cev, const uint16_t quanta[CC_SW_PRIOS])
{
	uint64_t t = ns_to_ps(now);
	advance(sw, t);
	for (uint8_t p = 0; p < CC_SW_PRIOS; p++)
		if (cev >> p & 1)
			egress_pause(sw, p, t, cc_pfc_quanta_ps(quanta[p], sw->p.link_bps));
	try_start(sw, t);
}

void cc_sw_storm(struct cc_sw *sw, uint64_t now, uint8_t prio, uint64_t duration_ns)
{
	if (prio >= CC_SW_PRIOS)
		return;
	uint64_t t = ns_to_ps(now);
	advance(sw, t);
	sw->storm_until[prio] = t + ns_to_ps(duration_ns);
	sw->storm_next[prio] = t;
	timers_update(sw, prio);
	advance(sw, t);
}

void cc_sw_sample(struct cc_sw *sw, uint64_t now, struct cc_sw_qlen *out)
{
	advance(sw, ns_to_ps(now));
	memset(out, 0, sizeof(*out));
	out->t_ns = now;
	out->total = sw->total;
	for (int p = 0; p < CC_SW_PRIOS; p++)
		out->bytes[p] = sw->qbytes[p];
}

const struct cc_sw_prio_stats *cc_sw_stats(struct cc_sw *sw, uint8_t prio)
{
	if (prio >= CC_SW_PRIOS)
		prio = 0;
	struct cc_sw_prio_stats *o = &sw->out[prio];
	*o = sw->st[prio];
	if (sw->early && sw->e_wire_prio == prio && sw->e_wire_end > sw->now && o->departed)
		o->departed--; /* started, not yet left */
	/* stretches still open count up to now */
	if (sw->xoff_on[prio])
		o->paused_ns += ps_to_ns(sw->now - sw->xoff_first[prio]);
	uint64_t end = sw->eg_until[prio] < sw->now ? sw->eg_until[prio] : sw->now;
	o->egress_paused_ns = ps_to_ns(sw->eg_acc[prio] + (end > sw->eg_from[prio] ? end - sw->eg_from[prio] : 0));
	return o;
}

uint64_t cc_sw_pfc_lost(const struct cc_sw *sw)
{
	return sw->ring_lost;
}
