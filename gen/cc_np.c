/* SPDX-License-Identifier: BSD-3-Clause */
/* DCQCN notification point: which CE-marked packets a receiver answers with a
 * CNP. One minimum interval per key; the key is the QP, the IP pair or the
 * destination IP (congestion.md: the three pacing modes seen in NICs).
 *
 * Keys live in a set-associative table allocated once: a key hashes to one
 * bucket of CC_NP_WAYS slots, so every look-up costs at most that many
 * compares and no tombstones pile up. A key whose interval has passed (and
 * owes no CNP) is as good as absent, so its slot is reused first; only when
 * a bucket is full of live keys is the oldest one forgotten, which may let
 * that key send one CNP early: counted in evicted_live. Sizing at twice
 * max_keys keeps that rare (a bucket then holds 2 keys on average of 8). */
#include <stdlib.h>
#include <string.h>
#include "cc.h"

#define CC_NP_WAYS 8
#define CC_NP_DEFAULT_KEYS 100000u

struct np_slot {
	uint8_t src[16], dst[16];
	uint32_t qpn;
	uint8_t used, pending;
	uint64_t last;          /* the last CNP sent for the key */
};

struct cc_np {
	struct cc_np_params p;
	struct cc_np_stats st;
	uint64_t interval;      /* the one really applied */
	uint32_t bucket_mask;
	struct np_slot *slots;
};

int cc_np_preset(const char *name, struct cc_np_params *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = CC_NP_PER_QP;
	p->behaviour = CC_NP_COMPLIANT;
	p->max_keys = CC_NP_DEFAULT_KEYS;
	if (strcmp(name, "paper") == 0) {
		/* SIGCOMM 2015: N = 50 us; a CE inside the interval is answered
		 * at its end ("at most one CNP every N us ... if any packet in
		 * that window was marked"). */
		p->interval_ns = 50000;
		p->defer = 1;
		return 0;
	}
	if (strcmp(name, "mlx5") == 0) {
		/* NVIDIA min_time_between_cnps 4 us, per QP; CEs inside the
		 * interval are taken as not answered. */
		p->interval_ns = 4000;
		return 0;
	}
	return -1;
}

static void normalise(const struct cc_np *np, const struct cc_np_key *k, struct np_slot *out)
{
	memset(out, 0, sizeof(*out));
	switch (np->p.mode) {
	case CC_NP_PER_QP:
		out->qpn = k->qpn;
		/* fall through */
	case CC_NP_PER_IP_PAIR:
		memcpy(out->dst, k->dst, 16);
		/* fall through */
	case CC_NP_PER_DEST_IP:
		/* the CNP goes back to the CE packet's source */
		memcpy(out->src, k->src, 16);
		break;
	}
}

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static uint64_t word(const uint8_t *b)
{
	uint64_t w;
	memcpy(&w, b, 8);
	return w;
}

static uint32_t bucket_of(const struct cc_np *np, const struct np_slot *k)
{
	/* absorb one word at a time: equal words in src and dst must not cancel */
	uint64_t h = mix(k->qpn + 0x9e3779b97f4a7c15ULL);
	for (int i = 0; i < 16; i += 8) {
		h = mix(h ^ word(k->src + i));
		h = mix(h ^ word(k->dst + i));
	}
	return (uint32_t)h & np->bucket_mask;
}

static int same_key(const struct np_slot *a, const struct np_slot *b)
{
	return a->qpn == b->qpn && memcmp(a->src, b->src, 16) == 0 && memcmp(a->dst, b->dst, 16) == 0;
}

struct cc_np *cc_np_new(const struct cc_np_params *p)
{
	struct cc_np *np = calloc(1, sizeof(*np));
	if (!np)
		return NULL;
	np->p = *p;
	if (np->p.max_keys == 0)
		np->p.max_keys = CC_NP_DEFAULT_KEYS;
	np->interval = p->behaviour == CC_NP_FAST ? p->fast_interval_ns : p->interval_ns;
	uint64_t want = (uint64_t)np->p.max_keys * 2 / CC_NP_WAYS, nb = 1;
	while (nb < want)
		nb <<= 1;
	np->bucket_mask = (uint32_t)nb - 1;
	np->slots = calloc(nb * CC_NP_WAYS, sizeof(*np->slots));
	if (!np->slots) {
		free(np);
		return NULL;
	}
	return np;
}

void cc_np_free(struct cc_np *np)
{
	if (!np)
		return;
	free(np->slots);
	free(np);
}

size_t cc_np_mem_bytes(const struct cc_np *np)
{
	return sizeof(*np) + ((size_t)np->bucket_mask + 1) * CC_NP_WAYS * sizeof(struct np_slot);
}

static int live(const struct cc_np *np, const struct np_slot *s, uint64_t now)
{
	return s->used && (s->pending || now - s->last < np->interval);
}

/* The key's slot, or NULL with *room set to the slot a new key should take. */
static struct np_slot *find(struct cc_np *np, const struct np_slot *k, uint64_t now, struct np_slot **room)
{
	struct np_slot *b = np->slots + (size_t)bucket_of(np, k) * CC_NP_WAYS, *best = NULL;
	for (int i = 0; i < CC_NP_WAYS; i++) {
		struct np_slot *s = &b[i];
		if (s->used && same_key(s, k))
			return s;
		/* free first, then expired, then the oldest live one */
		if (!best || (best->used && !s->used) ||
		    (best->used && s->used && live(np, best, now) && !live(np, s, now)) ||
		    (best->used && s->used && live(np, best, now) == live(np, s, now) && s->last < best->last))
			best = s;
	}
	*room = best;
	return NULL;
}

static enum cc_np_verdict send(struct cc_np *np, struct np_slot *s, uint64_t now)
{
	s->last = now;
	s->pending = 0;
	np->st.cnps++;
	return CC_NP_SEND;
}

enum cc_np_verdict cc_np_on_ce(struct cc_np *np, const struct cc_np_key *k, uint64_t now, uint64_t *due_ns)
{
	np->st.ce++;
	if (np->p.behaviour == CC_NP_EVERY_CE) {
		np->st.cnps++;
		return CC_NP_SEND;
	}
	struct np_slot key, *room = NULL;
	normalise(np, k, &key);
	struct np_slot *s = find(np, &key, now, &room);
	if (!s) {
		if (live(np, room, now))
			np->st.evicted_live++;
		*room = key;
		room->used = 1;
		return send(np, room, now);
	}
	if (now - s->last >= np->interval)
		return send(np, s, now); /* also settles a deferred CNP not yet fired */
	if (np->p.defer && !s->pending) {
		s->pending = 1;
		np->st.deferred++;
		if (due_ns)
			*due_ns = s->last + np->interval;
		return CC_NP_DEFER;
	}
	np->st.suppressed++;
	return CC_NP_SUPPRESS;
}

int cc_np_fire(struct cc_np *np, const struct cc_np_key *k, uint64_t now)
{
	struct np_slot key, *room = NULL;
	normalise(np, k, &key);
	struct np_slot *s = find(np, &key, now, &room);
	if (!s || !s->pending || now - s->last < np->interval)
		return 0;
	send(np, s, now);
	return 1;
}

const struct cc_np_stats *cc_np_stats(const struct cc_np *np)
{
	return &np->st;
}
