/* SPDX-License-Identifier: BSD-3-Clause */
/* Two taps matched packet by packet (between.h says what and why).
 *
 * The pending packets live in a ring in arrival order: since they arrive in
 * time order, the oldest is always at the head, and settling by the window
 * is popping the head. A matched packet's slot is marked dead and stays in
 * the ring until it reaches the head, so the ring holds the packets of one
 * window, matched or not. An index over the waiting packets finds a
 * packet's twin: open addressing with linear probing, 8-byte cells of the
 * key's 32-bit hash and the packet's ring sequence number, at most half
 * full. It is sized by the packets still waiting, not by the ring: most of
 * a window's packets are matched within microseconds, so the index stays
 * small enough for the cache while the ring, written and read in order,
 * holds the whole window. A lookup reads the ring only where the hash
 * agrees (in practice only at the twin); a sequence number stays valid
 * when the ring grows (slot = seq & (cap - 1), cap a power of two below
 * 2^32), so growing the ring leaves the index alone.
 *
 * Reordering is counted as RFC 4737 counts it: a matched packet is
 * reordered when it reaches the second tap after a packet of its flow that
 * followed it at the first tap (the largest first-tap order matched so far
 * is above its own). That is linear and needs one number per flow and
 * direction; a single packet held back behind n others counts once. */
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "rocewire/between.h"

#define NIL UINT32_MAX

/* A waiting packet: 48 bytes, the ring's whole traffic. The frame number
 * and the flow's packet number keep their low 32 bits: a waiting packet is
 * fewer than 2^32 packets of its tap behind the newest (the ring holds at
 * most max_pending), so the full numbers come back from the newest ones
 * (frame_of(), ord_of()). */
struct entry {
	int64_t ts;
	uint32_t frame;         /* low 32 bits of the frame number */
	uint32_t ord;           /* low 32 bits of the flow's packet number at this tap, from 1 */
	uint32_t flow, psn, icrc;
	uint8_t opcode, ttl, dscp, ecn;
	uint8_t side : 1, alive : 1, vlan_n : 1, vlan_pcp : 3;
	uint16_t vlan_vid;
	uint8_t mac[12];        /* destination, source */
};
_Static_assert(sizeof(struct entry) <= 48, "a ring entry is 48 bytes");

/* A cell of the index: hash 0 is an empty cell (a key's hash is never 0). */
struct cell {
	uint32_t hash;
	uint32_t seq;           /* the ring sequence number's low 32 bits */
};

struct ulist {
	struct rw_between_unmatched *v;
	size_t n, cap;
};

struct rw_between {
	struct rw_between_cfg cfg;
	/* pending packets: the ring and its hash */
	struct entry *ring;
	void *ring_map;         /* the ring's reserved address space, or NULL (malloc'd) */
	size_t ring_map_len;
	uint32_t cap;           /* power of two */
	uint64_t head, tail;    /* sequence numbers; slot = seq & (cap - 1) */
	struct cell *tab;       /* the index over the waiting packets */
	uint32_t tcap;          /* cells: a power of two */
	uint32_t tn;            /* cells in use */
	/* flows and their index */
	struct rw_between_flow *flows;
	size_t n_flows, flows_cap;
	uint32_t *fidx;         /* open addressing: flow + 1, 0 empty */
	size_t fidx_cap;
	/* settled unmatched packets, per tap where seen */
	struct ulist seen[2];
	uint64_t window_overflow, untracked;
	/* after finish: per fate, pointers into seen[] */
	const struct rw_between_unmatched **list[4];
	size_t list_n[4];
	uint64_t list_total[4];
	/* rw_between_prepare()'s work, per side, in the order the packets
	 * will be fed: the packet, its flow (-1: none yet, the feed makes it;
	 * -2: no identity) and the key's hash */
	struct {
		const struct rw_packet *p;
		long flow;
		uint32_t hash;
	} pre[2][RW_BETWEEN_PREPARE_MAX];
	unsigned pre_head[2], pre_n[2];
	uint64_t last_frame[2]; /* the newest frame number fed, per tap */
	const char *err;
	int finished;
	rw_between_observer obs;        /* NULL: nobody watches */
	void *obs_ctx;
};

/* ---- histogram ---------------------------------------------------------------- */

static void hist_index(uint64_t u, unsigned *oct, unsigned *sub)
{
	if (u < RW_BH_SUB) {
		*oct = 0;
		*sub = (unsigned)u;
		return;
	}
	unsigned e = 63u - (unsigned)__builtin_clzll(u); /* >= 7 */
	unsigned o = e - 6;
	if (o >= RW_BH_OCT) { /* beyond 2^62 ns (146 years): the last bucket */
		*oct = RW_BH_OCT - 1;
		*sub = RW_BH_SUB - 1;
		return;
	}
	*oct = o;
	*sub = (unsigned)(u >> (e - 7)) & (RW_BH_SUB - 1);
}

/* The middle of a bucket: at most half its width, 2^(e-8), from any value
 * in it, and every value in it is at least 2^e. */
static uint64_t hist_mid(unsigned oct, unsigned sub)
{
	if (oct == 0)
		return sub;
	unsigned shift = oct - 1; /* e - 7 */
	uint64_t lo = (uint64_t)(RW_BH_SUB + sub) << shift;
	return lo + ((1ull << shift) >> 1);
}

int rw_between_hist_add(struct rw_between_hist *h, int64_t v)
{
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	unsigned oct, sub;
	hist_index(u, &oct, &sub);
	uint64_t **blk = v < 0 ? &h->neg[oct] : &h->pos[oct];
	if (!*blk) {
		*blk = calloc(RW_BH_SUB, sizeof(uint64_t));
		if (!*blk)
			return -1;
	}
	(*blk)[sub]++;
	if (h->n == 0 || v < h->min)
		h->min = v;
	if (h->n == 0 || v > h->max)
		h->max = v;
	h->n++;
	return 0;
}

int rw_between_hist_merge(struct rw_between_hist *dst, const struct rw_between_hist *src, int flip)
{
	if (src->n == 0)
		return 0;
	for (int s = 0; s < 2; s++) {
		uint64_t *const *from = s == 0 ? src->pos : src->neg;
		uint64_t **to = (s == 0) != (flip != 0) ? dst->pos : dst->neg;
		for (unsigned o = 0; o < RW_BH_OCT; o++) {
			if (!from[o])
				continue;
			if (!to[o] && !(to[o] = calloc(RW_BH_SUB, sizeof(uint64_t))))
				return -1;
			for (unsigned i = 0; i < RW_BH_SUB; i++)
				to[o][i] += from[o][i];
		}
	}
	int64_t mn = flip ? -src->max : src->min, mx = flip ? -src->min : src->max;
	if (dst->n == 0 || mn < dst->min)
		dst->min = mn;
	if (dst->n == 0 || mx > dst->max)
		dst->max = mx;
	dst->n += src->n;
	return 0;
}

void rw_between_hist_free(struct rw_between_hist *h)
{
	for (unsigned o = 0; o < RW_BH_OCT; o++) {
		free(h->pos[o]);
		free(h->neg[o]);
	}
	memset(h, 0, sizeof(*h));
}

int64_t rw_between_hist_quantile(const struct rw_between_hist *h, double q)
{
	if (h->n == 0)
		return 0;
	/* nearest rank: the smallest value with at least q * n at or below it */
	double kd = q * (double)h->n;
	uint64_t k = (uint64_t)kd;
	if ((double)k < kd)
		k++;
	if (k < 1)
		k = 1;
	if (k > h->n)
		k = h->n;
	uint64_t seen = 0;
	int64_t v = h->max;
	int found = 0;
	for (unsigned o = RW_BH_OCT; o-- > 0 && !found;) {
		if (!h->neg[o])
			continue;
		for (unsigned i = RW_BH_SUB; i-- > 0;) {
			seen += h->neg[o][i];
			if (seen >= k) {
				v = -(int64_t)hist_mid(o, i);
				found = 1;
				break;
			}
		}
	}
	for (unsigned o = 0; o < RW_BH_OCT && !found; o++) {
		if (!h->pos[o])
			continue;
		for (unsigned i = 0; i < RW_BH_SUB; i++) {
			seen += h->pos[o][i];
			if (seen >= k) {
				v = (int64_t)hist_mid(o, i);
				found = 1;
				break;
			}
		}
	}
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

static void hist_delay(const struct rw_between_hist *h, struct rw_between_delay *d)
{
	d->n = h->n;
	d->min = h->n ? h->min : 0;
	d->max = h->n ? h->max : 0;
	d->p50 = rw_between_hist_quantile(h, 0.50);
	d->p99 = rw_between_hist_quantile(h, 0.99);
}

/* ---- memory ---------------------------------------------------------------------- */

/* The ring and the index: large, and touched all over as they fill. From
 * 2 MiB they are 2 MiB-aligned and offered to transparent huge pages (a
 * page fault and a TLB entry per 2 MiB rather than per 4 KiB: with a long
 * window at line rate most of the matcher's time went to faulting in and
 * missing the TLB on fresh ring pages). */
#define BIG_ALIGN ((size_t)2 << 20)
/* From a quarter of a huge page, rounded up to a whole one: an index of
 * 512 KiB-1 MiB, read at random, missed the TLB on most lookups. */
#define BIG_MIN (BIG_ALIGN / 4)

static void *big_alloc(size_t size, int zero)
{
	if (size < BIG_MIN)
		return zero ? calloc(1, size) : malloc(size);
	size_t whole = (size + BIG_ALIGN - 1) & ~(BIG_ALIGN - 1);
	void *p = NULL;
	if (posix_memalign(&p, BIG_ALIGN, whole) != 0)
		return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	(void)madvise(p, whole, MADV_HUGEPAGE); /* advice: refused is fine */
#endif
	if (zero)
		memset(p, 0, size);
	return p;
}

/* The ring's address space for max_pending packets, reserved at once and
 * filled with pages only as it is used: the ring then doubles in place,
 * half of its packets moving up into new pages, rather than into a new
 * allocation twice its size (which faulted in and zeroed twice the memory
 * and copied every packet). NULL where it cannot be had: the ring is then
 * allocated and copied as it grows. */
static struct entry *ring_reserve(struct rw_between *b, uint32_t max_cap)
{
#if defined(__linux__) && defined(MAP_NORESERVE)
	size_t bytes = (size_t)max_cap * sizeof(struct entry), len = bytes + BIG_ALIGN;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	uintptr_t a = ((uintptr_t)m + BIG_ALIGN - 1) & ~(uintptr_t)(BIG_ALIGN - 1);
#if defined(MADV_HUGEPAGE)
	(void)madvise((void *)a, bytes, MADV_HUGEPAGE);
#endif
	b->ring_map = m;
	b->ring_map_len = len;
	return (struct entry *)a;
#else
	(void)b;
	(void)max_cap;
	return NULL;
#endif
}

static void ring_release(struct rw_between *b)
{
#if defined(__linux__) && defined(MAP_NORESERVE)
	if (b->ring_map) {
		munmap(b->ring_map, b->ring_map_len);
		return;
	}
#endif
	free(b->ring);
}

/* ---- set-up --------------------------------------------------------------------- */

struct rw_between *rw_between_new(const struct rw_between_cfg *cfg)
{
	struct rw_between *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	if (cfg)
		b->cfg = *cfg;
	if (!b->cfg.window_ns)
		b->cfg.window_ns = RW_BETWEEN_DEFAULT_WINDOW_NS;
	if (!b->cfg.list_cap)
		b->cfg.list_cap = RW_BETWEEN_DEFAULT_LIST_CAP;
	if (!b->cfg.max_pending)
		b->cfg.max_pending = RW_BETWEEN_DEFAULT_MAX_PENDING;
	if (!b->cfg.max_flows)
		b->cfg.max_flows = RW_BETWEEN_DEFAULT_MAX_FLOWS;
	b->cap = 1024;
	uint32_t max_cap = b->cap;
	while (max_cap < b->cfg.max_pending && max_cap < (UINT32_C(1) << 31))
		max_cap *= 2;
	b->ring = ring_reserve(b, max_cap);
	if (!b->ring)
		b->ring = big_alloc((size_t)b->cap * sizeof(*b->ring), 0);
	b->tcap = 1024;
	b->tab = big_alloc((size_t)b->tcap * sizeof(*b->tab), 1);
	b->fidx_cap = 1024;
	b->fidx = calloc(b->fidx_cap, sizeof(*b->fidx));
	if (!b->ring || !b->tab || !b->fidx) {
		rw_between_free(b);
		return NULL;
	}
	return b;
}

void rw_between_free(struct rw_between *b)
{
	if (!b)
		return;
	if (b->ring)
		ring_release(b);
	free(b->tab);
	for (size_t i = 0; i < b->n_flows; i++)
		rw_between_hist_free(&b->flows[i].d);
	free(b->flows);
	free(b->fidx);
	free(b->seen[0].v);
	free(b->seen[1].v);
	for (int f = 0; f < 4; f++)
		free(b->list[f]);
	free(b);
}

const char *rw_between_error(const struct rw_between *b)
{
	return b->err;
}

/* ---- identities ----------------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* A flow's hash: each 8-byte half of both addresses multiplied by its own
 * odd constant (so equal halves in different places do not cancel), then
 * one mix; a packet pays one mix for its flow, not one per address. */
static uint64_t flow_hash(const struct rw_between_addr *s, const struct rw_between_addr *d, uint32_t dqpn)
{
	uint64_t w[4];
	memcpy(&w[0], s->a, 8);
	memcpy(&w[1], s->a + 8, 8);
	memcpy(&w[2], d->a, 8);
	memcpy(&w[3], d->a + 8, 8);
	return mix(w[0] * 0x9e3779b97f4a7c15ull ^ w[1] * 0xc2b2ae3d27d4eb4full ^ w[2] * 0x165667b19e3779f9ull ^
		   w[3] * 0xd6e8feb86659fd93ull ^ (uint64_t)s->kind << 56 ^ (uint64_t)d->kind << 48 ^ dqpn);
}

/* The carrier's addresses (between.h); 0 when there are none. */
static int carrier_addrs(const struct rw_packet *p, struct rw_between_addr *s, struct rw_between_addr *d)
{
	memset(s, 0, sizeof(*s));
	memset(d, 0, sizeof(*d));
	if (p->carrier == RW_CARRIER_ROCEV2 && (p->present & RW_P_IPV4)) {
		s->kind = d->kind = RW_BA_IPV4;
		for (int i = 0; i < 4; i++) {
			s->a[12 + i] = (uint8_t)(p->ipv4.src >> (24 - 8 * i));
			d->a[12 + i] = (uint8_t)(p->ipv4.dst >> (24 - 8 * i));
		}
		return 1;
	}
	if (p->carrier == RW_CARRIER_ROCEV2 && (p->present & RW_P_IPV6)) {
		s->kind = d->kind = RW_BA_IPV6;
		memcpy(s->a, p->ipv6.src, 16);
		memcpy(d->a, p->ipv6.dst, 16);
		return 1;
	}
	if ((p->carrier == RW_CARRIER_ROCEV1 || p->carrier == RW_CARRIER_IB) && (p->present & RW_P_GRH)) {
		s->kind = d->kind = RW_BA_IPV6;
		memcpy(s->a, p->grh.sgid, 16);
		memcpy(d->a, p->grh.dgid, 16);
		return 1;
	}
	if (p->carrier == RW_CARRIER_IB && (p->present & RW_P_LRH)) {
		s->kind = d->kind = RW_BA_LID;
		s->a[14] = (uint8_t)(p->lrh.slid >> 8);
		s->a[15] = (uint8_t)p->lrh.slid;
		d->a[14] = (uint8_t)(p->lrh.dlid >> 8);
		d->a[15] = (uint8_t)p->lrh.dlid;
		return 1;
	}
	return 0;
}

static int addr_eq(const struct rw_between_addr *x, const struct rw_between_addr *y)
{
	uint64_t u[2], v[2];
	memcpy(u, x->a, 16); /* two words, not a call to memcmp */
	memcpy(v, y->a, 16);
	return x->kind == y->kind && u[0] == v[0] && u[1] == v[1];
}

static int grow_flows(struct rw_between *b)
{
	size_t nc = b->fidx_cap * 2;
	uint32_t *n = calloc(nc, sizeof(*n));
	if (!n)
		return -1;
	for (size_t i = 0; i < b->n_flows; i++) {
		const struct rw_between_flow *f = &b->flows[i];
		size_t h = (size_t)flow_hash(&f->src, &f->dst, f->dqpn) & (nc - 1);
		while (n[h])
			h = (h + 1) & (nc - 1);
		n[h] = (uint32_t)i + 1;
	}
	free(b->fidx);
	b->fidx = n;
	b->fidx_cap = nc;
	return 0;
}

/* The flow's index, or -1 when it has none yet. */
static long flow_find(const struct rw_between *b, const struct rw_between_addr *s, const struct rw_between_addr *d,
		      uint32_t dqpn)
{
	size_t h = (size_t)flow_hash(s, d, dqpn) & (b->fidx_cap - 1);
	for (uint32_t v; (v = b->fidx[h]) != 0; h = (h + 1) & (b->fidx_cap - 1)) {
		const struct rw_between_flow *f = &b->flows[v - 1];
		if (f->dqpn == dqpn && addr_eq(&f->src, s) && addr_eq(&f->dst, d))
			return (long)(v - 1);
	}
	return -1;
}

/* The flow's index, made on its first packet; -1: over max_flows, -2: out
 * of memory. */
static long flow_of(struct rw_between *b, const struct rw_between_addr *s, const struct rw_between_addr *d,
		    uint32_t dqpn)
{
	size_t h = (size_t)flow_hash(s, d, dqpn) & (b->fidx_cap - 1);
	for (;;) {
		uint32_t v = b->fidx[h];
		if (!v)
			break;
		const struct rw_between_flow *f = &b->flows[v - 1];
		if (f->dqpn == dqpn && addr_eq(&f->src, s) && addr_eq(&f->dst, d))
			return (long)(v - 1);
		h = (h + 1) & (b->fidx_cap - 1);
	}
	if (b->n_flows >= b->cfg.max_flows)
		return -1;
	if (b->n_flows == b->flows_cap) {
		size_t nc = b->flows_cap ? b->flows_cap * 2 : 64;
		struct rw_between_flow *nf = realloc(b->flows, nc * sizeof(*nf));
		if (!nf)
			return -2;
		b->flows = nf;
		b->flows_cap = nc;
	}
	struct rw_between_flow *f = &b->flows[b->n_flows];
	memset(f, 0, sizeof(*f));
	f->src = *s;
	f->dst = *d;
	f->dqpn = dqpn;
	b->fidx[h] = (uint32_t)b->n_flows + 1;
	b->n_flows++;
	/* the index at most half full */
	if (b->n_flows * 2 > b->fidx_cap && grow_flows(b) != 0)
		return -2;
	return (long)(b->n_flows - 1);
}

/* ---- the ring and its hash -------------------------------------------------------- */

static uint32_t key_hash(uint32_t flow, uint32_t psn, uint8_t opcode, uint32_t icrc)
{
	uint64_t x = ((uint64_t)flow << 32 | psn) ^ ((uint64_t)opcode << 24) ^ icrc * 0x9e3779b97f4a7c15ull;
	uint32_t h = (uint32_t)(mix(x) >> 32);
	return h ? h : 1;
}

static uint32_t entry_hash(const struct entry *e)
{
	return key_hash(e->flow, e->psn, e->opcode, e->icrc);
}

static struct entry *entry_at(const struct rw_between *b, uint32_t seq)
{
	return &b->ring[seq & (b->cap - 1)];
}

static void tab_put(struct cell *tab, uint32_t mask, struct cell c)
{
	uint32_t i = c.hash & mask;
	while (tab[i].hash)
		i = (i + 1) & mask;
	tab[i] = c;
}

/* Doubles the index when one more cell would make it over half full. */
static int tab_reserve(struct rw_between *b)
{
	if ((uint64_t)(b->tn + 1) * 2 <= b->tcap)
		return 0;
	uint32_t nc = b->tcap * 2;
	struct cell *n = big_alloc((size_t)nc * sizeof(*n), 1);
	if (!n)
		return -1;
	for (uint32_t i = 0; i < b->tcap; i++)
		if (b->tab[i].hash)
			tab_put(n, nc - 1, b->tab[i]);
	free(b->tab);
	b->tab = n;
	b->tcap = nc;
	return 0;
}

/* Empties cell i, moving later cells of its run back (linear probing's
 * deletion without tombstones: a lookup stops at the first empty cell). */
static void tab_delete(struct rw_between *b, uint32_t i)
{
	uint32_t m = b->tcap - 1, j = i;
	for (;;) {
		j = (j + 1) & m;
		uint32_t h = b->tab[j].hash;
		if (!h)
			break;
		/* j may fill the hole unless its home lies after the hole, up to j */
		if (((j - (h & m)) & m) >= ((j - i) & m)) {
			b->tab[i] = b->tab[j];
			i = j;
		}
	}
	b->tab[i].hash = 0;
	b->tn--;
}

/* Takes the waiting packet with ring sequence number seq out of the index. */
static void tab_remove(struct rw_between *b, uint64_t seq)
{
	struct entry *e = entry_at(b, (uint32_t)seq);
	uint32_t h = entry_hash(e), m = b->tcap - 1;
	for (uint32_t i = h & m; b->tab[i].hash; i = (i + 1) & m)
		if (b->tab[i].hash == h && b->tab[i].seq == (uint32_t)seq) {
			tab_delete(b, i);
			break;
		}
	e->alive = 0;
}

/* Doubles the ring; each packet moves to its sequence number's slot in the
 * larger ring, so the index's sequence numbers stay right. */
static int ring_grow(struct rw_between *b)
{
	uint32_t nc = b->cap * 2;
	if (b->ring_map) {
		/* in place: the ring is full, seq from head to head + cap - 1;
		 * those with the cap bit set go to slot + cap, in the new half */
		for (uint64_t s = b->head; s != b->tail; s++)
			if (s & b->cap)
				b->ring[(s & (b->cap - 1)) + b->cap] = b->ring[s & (b->cap - 1)];
		b->cap = nc;
		return 0;
	}
	struct entry *nr = big_alloc((size_t)nc * sizeof(*nr), 0);
	if (!nr)
		return -1;
	for (uint64_t s = b->head; s != b->tail; s++)
		nr[s & (nc - 1)] = b->ring[s & (b->cap - 1)];
	free(b->ring);
	b->ring = nr;
	b->cap = nc;
	return 0;
}

static uint64_t frame_of(const struct rw_between *b, const struct entry *e)
{
	uint64_t last = b->last_frame[e->side];
	return last - (uint32_t)((uint32_t)last - e->frame);
}

static uint64_t ord_of(const struct rw_between_flow *f, const struct entry *e)
{
	uint64_t last = f->ord[e->side];
	return last - (uint32_t)((uint32_t)last - e->ord);
}

static void observe_unmatched(struct rw_between *b, const struct entry *e)
{
	struct rw_between_event ev = {.flow = e->flow, .psn = e->psn, .opcode = e->opcode, .side = e->side};
	ev.ts[e->side] = e->ts;
	ev.frame[e->side] = frame_of(b, e);
	b->obs(b->obs_ctx, &ev);
}

static void settle_unmatched(struct rw_between *b, const struct entry *e)
{
	struct rw_between_flow *f = &b->flows[e->flow];
	f->unmatched[e->side]++;
	if (b->obs)
		observe_unmatched(b, e);
	struct ulist *l = &b->seen[e->side];
	size_t room = (size_t)b->cfg.list_cap * 2;
	if (l->n >= room)
		return;
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 256;
		if (nc > room)
			nc = room;
		struct rw_between_unmatched *nv = realloc(l->v, nc * sizeof(*nv));
		if (!nv) {
			b->err = "out of memory listing the unmatched packets";
			return;
		}
		l->v = nv;
		l->cap = nc;
	}
	l->v[l->n++] = (struct rw_between_unmatched){
		.flow = e->flow, .psn = e->psn, .opcode = e->opcode, .side = e->side,
		.frame = frame_of(b, e), .ts_ns = e->ts};
}

/* Pops the head: settled unmatched when still waiting. */
static void pop_head(struct rw_between *b)
{
	struct entry *e = entry_at(b, (uint32_t)b->head);
	if (e->alive) {
		tab_remove(b, b->head);
		settle_unmatched(b, e);
	}
	b->head++;
}

static void expire(struct rw_between *b, int64_t now)
{
	while (b->head != b->tail) {
		const struct entry *e = &b->ring[b->head & (b->cap - 1)];
		if (e->alive && now - e->ts <= (int64_t)b->cfg.window_ns)
			break;
		pop_head(b);
	}
}

/* ---- feeding ---------------------------------------------------------------------- */

static void fill_fields(const struct rw_packet *p, struct entry *e)
{
	e->ttl = e->dscp = e->ecn = 0;
	if (p->carrier == RW_CARRIER_ROCEV2 && (p->present & RW_P_IPV4)) {
		e->ttl = p->ipv4.ttl;
		e->dscp = p->ipv4.dscp;
		e->ecn = p->ipv4.ecn;
	} else if (p->carrier == RW_CARRIER_ROCEV2 && (p->present & RW_P_IPV6)) {
		e->ttl = p->ipv6.hop_limit;
		e->dscp = p->ipv6.dscp;
		e->ecn = p->ipv6.ecn;
	} else if (p->present & RW_P_GRH) {
		e->ttl = p->grh.hoplmt;
		e->dscp = (uint8_t)(p->grh.tclass >> 2);
		e->ecn = p->grh.tclass & 3;
	}
	e->vlan_n = p->n_vlan ? 1 : 0;
	e->vlan_pcp = p->n_vlan ? p->vlan[0].pcp & 7 : 0;
	e->vlan_vid = p->n_vlan ? p->vlan[0].vid : 0;
	if (p->present & RW_P_ETH) {
		memcpy(e->mac, p->eth.dst, 6);
		memcpy(e->mac + 6, p->eth.src, 6);
	} else {
		memset(e->mac, 0, 12);
	}
}

/* first: the pending packet (seen first), second: the one that matched it. */
static int matched(struct rw_between *b, const struct entry *first, const struct entry *second)
{
	struct rw_between_flow *f = &b->flows[first->flow];
	int fs = first->side;
	int64_t ta = fs == RW_BETWEEN_A ? first->ts : second->ts;
	int64_t tb = fs == RW_BETWEEN_A ? second->ts : first->ts;
	f->matched++;
	f->first[fs]++;
	int ce = first->ecn != RW_ECN_CE && second->ecn == RW_ECN_CE;
	f->ce_marked += (uint64_t)ce;
	if (b->obs) {
		struct rw_between_event ev = {.flow = first->flow, .psn = first->psn, .opcode = first->opcode,
					      .matched = 1, .side = (uint8_t)fs, .ce_marked = (uint8_t)ce,
					      .ts = {ta, tb}};
		ev.frame[fs] = frame_of(b, first);
		ev.frame[!fs] = frame_of(b, second);
		b->obs(b->obs_ctx, &ev);
	}
	f->changed[RW_BC_TTL] += first->ttl != second->ttl;
	f->changed[RW_BC_DSCP] += first->dscp != second->dscp;
	f->changed[RW_BC_ECN] += first->ecn != second->ecn;
	f->changed[RW_BC_VLAN] += first->vlan_n != second->vlan_n || first->vlan_pcp != second->vlan_pcp ||
				  first->vlan_vid != second->vlan_vid;
	f->changed[RW_BC_MAC] += memcmp(first->mac, second->mac, 12) != 0;
	uint64_t ord = ord_of(f, first);
	if (ord < f->max_ord[fs])
		f->reordered++;
	else
		f->max_ord[fs] = ord;
	if (rw_between_hist_add(&f->d, tb - ta) != 0) {
		b->err = "out of memory for a delay histogram";
		return -1;
	}
	return 0;
}

void rw_between_prepare(struct rw_between *b, int side, const struct rw_packet *p)
{
	side = side ? 1 : 0;
	if (b->pre_n[side] == RW_BETWEEN_PREPARE_MAX) {
		b->pre_n[side] = 0; /* more than promised: forget them all */
		return;
	}
	unsigned k = (b->pre_head[side] + b->pre_n[side]++) % RW_BETWEEN_PREPARE_MAX;
	b->pre[side][k].p = p;
	b->pre[side][k].flow = -2;
	struct rw_between_addr s, d;
	if (!(p->present & RW_P_BTH) || !(p->present & RW_P_ICRC) || !carrier_addrs(p, &s, &d))
		return;
	long fl = flow_find(b, &s, &d, p->bth.dqpn);
	b->pre[side][k].flow = fl;
	if (fl < 0)
		return;
	uint32_t h = key_hash((uint32_t)fl, p->bth.psn, p->bth.opcode, p->icrc_wire);
	b->pre[side][k].hash = h;
#if defined(__GNUC__)
	__builtin_prefetch(&b->tab[h & (b->tcap - 1)]);
#endif
}

int rw_between_feed(struct rw_between *b, int side, const struct rw_packet *p, int64_t ts_ns, uint64_t frame)
{
	int sd = side ? 1 : 0, pre = 0;
	long pflow = -1;
	uint32_t phash = 0;
	if (b->pre_n[sd]) {
		unsigned k = b->pre_head[sd];
		if (b->pre[sd][k].p == p) {
			pre = 1;
			pflow = b->pre[sd][k].flow;
			phash = b->pre[sd][k].hash;
			b->pre_head[sd] = (k + 1) % RW_BETWEEN_PREPARE_MAX;
			b->pre_n[sd]--;
		} else {
			b->pre_n[sd] = 0; /* not the packet announced: forget them all */
		}
	}
	if (!(p->present & RW_P_BTH) || !(p->present & RW_P_ICRC))
		return 0;
	long fl;
	if (pre && pflow >= 0) {
		fl = pflow; /* prepared: found the flow and hashed the key */
		expire(b, ts_ns);
	} else {
		struct rw_between_addr s, d;
		if (!carrier_addrs(p, &s, &d))
			return 0;
		expire(b, ts_ns);
		fl = flow_of(b, &s, &d, p->bth.dqpn);
		pre = 0;
	}
	if (fl == -1) {
		b->untracked++;
		return 0;
	}
	if (fl < 0) {
		b->err = "out of memory for the flows";
		return -1;
	}
	struct rw_between_flow *f = &b->flows[fl];
	side = side ? 1 : 0;
	f->packets[side]++;
	struct entry ne;
	ne.ts = ts_ns;
	b->last_frame[side] = frame;
	ne.frame = (uint32_t)frame;
	ne.ord = (uint32_t)++f->ord[side];
	ne.flow = (uint32_t)fl;
	ne.psn = p->bth.psn;
	ne.icrc = p->icrc_wire;
	ne.opcode = p->bth.opcode;
	ne.side = side & 1;
	ne.alive = 1;
	fill_fields(p, &ne);

	/* the oldest pending twin from the other tap */
	uint32_t h = pre ? phash : key_hash(ne.flow, ne.psn, ne.opcode, ne.icrc), m = b->tcap - 1;
	uint32_t best = NIL, best_age = UINT32_MAX;
	for (uint32_t i = h & m; b->tab[i].hash; i = (i + 1) & m) {
		if (b->tab[i].hash != h)
			continue;
		const struct entry *e = entry_at(b, b->tab[i].seq);
		if (e->side == ne.side || e->flow != ne.flow || e->psn != ne.psn || e->opcode != ne.opcode ||
		    e->icrc != ne.icrc)
			continue;
		uint32_t age = b->tab[i].seq - (uint32_t)b->head;
		if (age < best_age) {
			best_age = age;
			best = i;
		}
	}
	if (best != NIL) {
		struct entry *e = entry_at(b, b->tab[best].seq);
		tab_delete(b, best);
		e->alive = 0;
		return matched(b, e, &ne) == 0 ? 1 : -1;
	}
	if (b->tail - b->head == b->cap) {
		if (b->cap < b->cfg.max_pending && ring_grow(b) == 0) {
			/* grown */
		} else {
			/* the cap: the oldest is settled before its window is over */
			if (entry_at(b, (uint32_t)b->head)->alive)
				b->window_overflow++;
			pop_head(b);
		}
	}
	if (tab_reserve(b) != 0) {
		b->err = "out of memory for the waiting packets";
		return -1;
	}
	*entry_at(b, (uint32_t)b->tail) = ne;
	tab_put(b->tab, b->tcap - 1, (struct cell){.hash = h, .seq = (uint32_t)b->tail});
	b->tn++;
	b->tail++;
	return 1;
}

/* ---- the end ---------------------------------------------------------------------- */

static int pair_cmp(const struct rw_between_flow *x, const struct rw_between_flow *y)
{
	if (x->src.kind != y->src.kind)
		return x->src.kind < y->src.kind ? -1 : 1;
	int c = memcmp(x->src.a, y->src.a, 16);
	return c ? c : memcmp(x->dst.a, y->dst.a, 16);
}

static const struct rw_between_flow *sort_base;

static int idx_cmp(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int c = pair_cmp(&sort_base[i], &sort_base[j]);
	return c ? c : (i < j ? -1 : i > j);
}

struct pair {
	const struct rw_between_flow *f; /* its first flow: the addresses */
	uint64_t first[2], n;
	int64_t dmin;
};

static int pair_key_cmp(const void *k, const void *e)
{
	return pair_cmp((const struct rw_between_flow *)k, ((const struct pair *)e)->f);
}

/* Each pair's direction. A pair whose reverse pair has matched packets too
 * goes A -> B when its B - A times are the larger (minimum against
 * minimum): one-way delays are positive, so A -> B's d = delay + offset is
 * above B -> A's d = offset - delay whatever the clocks' offset. A pair
 * alone takes the tap most of its matched packets were seen in first
 * (A -> B on a tie), which needs clocks closer than the delay. */
static int pair_directions(struct rw_between *b)
{
	size_t n = b->n_flows ? b->n_flows : 1;
	uint32_t *ix = malloc(n * sizeof(*ix));
	struct pair *pr = malloc(n * sizeof(*pr));
	uint32_t *pof = malloc(n * sizeof(*pof)); /* the pair of each sorted flow */
	if (!ix || !pr || !pof) {
		free(ix);
		free(pr);
		free(pof);
		return -1;
	}
	for (size_t i = 0; i < b->n_flows; i++)
		ix[i] = (uint32_t)i;
	sort_base = b->flows;
	qsort(ix, b->n_flows, sizeof(*ix), idx_cmp);
	size_t np = 0;
	for (size_t i = 0; i < b->n_flows;) {
		size_t j = i;
		struct pair *p = &pr[np];
		memset(p, 0, sizeof(*p));
		p->f = &b->flows[ix[i]];
		while (j < b->n_flows && pair_cmp(&b->flows[ix[i]], &b->flows[ix[j]]) == 0) {
			const struct rw_between_flow *f = &b->flows[ix[j]];
			p->first[0] += f->first[0];
			p->first[1] += f->first[1];
			if (f->d.n && (p->n == 0 || f->d.min < p->dmin))
				p->dmin = f->d.min;
			p->n += f->d.n;
			pof[j] = (uint32_t)np;
			j++;
		}
		np++;
		i = j;
	}
	for (size_t i = 0; i < b->n_flows; i++) {
		const struct pair *p = &pr[pof[i]];
		struct rw_between_flow *f = &b->flows[ix[i]];
		enum rw_between_dir d = RW_BETWEEN_DIR_UNKNOWN;
		if (p->n) {
			struct rw_between_flow rk = {.src = f->dst, .dst = f->src};
			const struct pair *q = bsearch(&rk, pr, np, sizeof(*pr), pair_key_cmp);
			if (q && q->n && q->dmin != p->dmin)
				d = p->dmin > q->dmin ? RW_BETWEEN_DIR_A_TO_B : RW_BETWEEN_DIR_B_TO_A;
			else
				d = p->first[0] >= p->first[1] ? RW_BETWEEN_DIR_A_TO_B : RW_BETWEEN_DIR_B_TO_A;
		}
		f->dir = d;
	}
	free(ix);
	free(pr);
	free(pof);
	return 0;
}

static enum rw_between_fate fate_of(enum rw_between_dir d, int side)
{
	if (d == RW_BETWEEN_DIR_UNKNOWN)
		return RW_BETWEEN_UNKNOWN_DIR;
	if (d == RW_BETWEEN_DIR_A_TO_B)
		return side == RW_BETWEEN_A ? RW_BETWEEN_LOST : RW_BETWEEN_ONLY_IN_B;
	return side == RW_BETWEEN_B ? RW_BETWEEN_LOST : RW_BETWEEN_ONLY_IN_A;
}

void rw_between_flow_delay(const struct rw_between_flow *f, struct rw_between_delay *out)
{
	if (f->dir == RW_BETWEEN_DIR_B_TO_A) {
		struct rw_between_hist h = {.n = f->d.n, .min = -f->d.max, .max = -f->d.min};
		memcpy(h.pos, f->d.neg, sizeof(h.pos));
		memcpy(h.neg, f->d.pos, sizeof(h.neg));
		hist_delay(&h, out);
	} else {
		hist_delay(&f->d, out);
	}
}

void rw_between_finish(struct rw_between *b, struct rw_between_result *r)
{
	memset(r, 0, sizeof(*r));
	if (!b->finished) {
		while (b->head != b->tail)
			pop_head(b);
		if (pair_directions(b) != 0)
			b->err = "out of memory sorting the pairs";
		for (int fa = 0; fa < 4; fa++) {
			b->list[fa] = malloc(((size_t)b->cfg.list_cap ? b->cfg.list_cap : 1) * sizeof(*b->list[fa]));
			if (!b->list[fa])
				b->err = "out of memory listing the unmatched packets";
		}
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < b->seen[s].n; i++) {
				const struct rw_between_unmatched *u = &b->seen[s].v[i];
				enum rw_between_fate fa = fate_of(b->flows[u->flow].dir, u->side);
				if (b->list[fa] && b->list_n[fa] < b->cfg.list_cap)
					b->list[fa][b->list_n[fa]++] = u;
			}
		for (size_t i = 0; i < b->n_flows; i++) {
			const struct rw_between_flow *f = &b->flows[i];
			for (int s = 0; s < 2; s++)
				b->list_total[fate_of(f->dir, s)] += f->unmatched[s];
		}
		b->finished = 1;
	}
	struct rw_between_hist fwd = {0}, rev = {0};
	for (size_t i = 0; i < b->n_flows; i++) {
		const struct rw_between_flow *f = &b->flows[i];
		r->matched += f->matched;
		r->ce_marked += f->ce_marked;
		r->reordered += f->reordered;
		for (int c = 0; c < RW_BC_COUNT; c++)
			r->changed[c] += f->changed[c];
		int rc = 0;
		if (f->dir == RW_BETWEEN_DIR_A_TO_B)
			rc = rw_between_hist_merge(&fwd, &f->d, 0);
		else if (f->dir == RW_BETWEEN_DIR_B_TO_A)
			rc = rw_between_hist_merge(&rev, &f->d, 1);
		if (rc)
			b->err = "out of memory for the delay histograms";
	}
	hist_delay(&fwd, &r->delay);
	hist_delay(&rev, &r->reverse);
	r->min_ab = r->delay.min;
	r->min_ba = r->reverse.min;
	rw_between_hist_free(&fwd);
	rw_between_hist_free(&rev);
	r->lost_count = b->list_total[RW_BETWEEN_LOST];
	r->only_in_b = b->list_total[RW_BETWEEN_ONLY_IN_B];
	r->only_in_a = b->list_total[RW_BETWEEN_ONLY_IN_A];
	r->unknown_dir = b->list_total[RW_BETWEEN_UNKNOWN_DIR];
	r->window_overflow = b->window_overflow;
	r->untracked = b->untracked;
}

void rw_between_observe(struct rw_between *b, rw_between_observer fn, void *ctx)
{
	b->obs = fn;
	b->obs_ctx = ctx;
}

size_t rw_between_flow_count(const struct rw_between *b)
{
	return b->n_flows;
}

const struct rw_between_flow *rw_between_flow_at(const struct rw_between *b, size_t i)
{
	return i < b->n_flows ? &b->flows[i] : NULL;
}

size_t rw_between_list_len(const struct rw_between *b, enum rw_between_fate fate)
{
	return (unsigned)fate < 4 ? b->list_n[fate] : 0;
}

const struct rw_between_unmatched *rw_between_list_get(const struct rw_between *b, enum rw_between_fate fate,
							size_t i)
{
	return (unsigned)fate < 4 && i < b->list_n[fate] ? b->list[fate][i] : NULL;
}

uint64_t rw_between_list_total(const struct rw_between *b, enum rw_between_fate fate)
{
	return (unsigned)fate < 4 ? b->list_total[fate] : 0;
}

int64_t rw_between_offset_estimate(const struct rw_between_result *r, int *ok)
{
	*ok = r->delay.n > 0 && r->reverse.n > 0;
	if (!*ok)
		return 0;
	/* A -> B measured: delay + offset; B -> A measured: delay - offset */
	return (r->min_ab - r->min_ba) / 2;
}

const char *rw_between_dir_name(enum rw_between_dir d)
{
	return d == RW_BETWEEN_DIR_A_TO_B ? "a_to_b" : d == RW_BETWEEN_DIR_B_TO_A ? "b_to_a" : "unknown";
}

const char *rw_between_change_name(enum rw_between_change c)
{
	static const char *const names[RW_BC_COUNT] = {"ttl", "dscp", "ecn", "vlan", "mac"};
	return (unsigned)c < RW_BC_COUNT ? names[c] : "?";
}
