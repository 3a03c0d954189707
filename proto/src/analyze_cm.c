/* SPDX-License-Identifier: BSD-3-Clause */
/* Connections set up by Communication Management (IBA 12.6): the engine
 * follows each handshake the capture saw (REQ, MRA, REP or REJ, RTU, then
 * DREQ and DREP), pairs the two flows of the connection when the REP names
 * both QPs, tells them where their PSNs start, and closes them at the DREP.
 *
 * A message is matched to its handshake by the communication IDs the two
 * CMs chose (IBA 12.6.3: the sender's own in local_comm_id, the other
 * side's in remote_comm_id) and the two addresses, in either direction.
 * Handshakes are kept in one array, in the order they began, and found by
 * a hash of the two addresses and the active side's comm ID, which every
 * message names (its own from the active side, the peer's from the passive
 * side): a capture of tens of thousands of connections stays linear. */
#include <string.h>

#include "analyze_int.h"

const char *rw_cm_state_key(enum rw_cm_state s)
{
	static const char *const keys[] = {"req_sent", "rep_sent", "established", "rejected",
					   "dreq_sent", "disconnected"};
	_Static_assert(sizeof(keys) / sizeof(keys[0]) == RW_CMS_COUNT, "keys: one entry per value");
	return (unsigned)s < RW_CMS_COUNT ? keys[s] : "?";
}

uint32_t rw_analyzer_cm_count(const struct rw_analyzer *a)
{
	return a->ncms;
}

const struct rw_cm_conn *rw_analyzer_cm(const struct rw_analyzer *a, uint32_t i)
{
	return i < a->ncms ? &a->cms[i] : NULL;
}

void cm_release(struct rw_analyzer *a)
{
	if (a->cms)
		an_free(a, a->cms, (size_t)a->cms_cap * sizeof(*a->cms));
	if (a->cm_slots)
		an_free(a, a->cm_slots, (size_t)(a->cm_slots_mask + 1) * sizeof(*a->cm_slots));
	a->cms = NULL;
	a->cm_slots = NULL;
	a->ncms = a->cms_cap = a->cm_slots_mask = 0;
}

/* ---- the index: (family, active, passive, active comm ID) -> handshake ---- */

static uint32_t cm_hash(uint8_t family, const uint8_t *act, const uint8_t *pas, uint32_t id)
{
	uint32_t h = 2166136261u ^ family; /* FNV-1a */
	for (unsigned i = 0; i < 16; i++)
		h = (h ^ act[i]) * 16777619u;
	for (unsigned i = 0; i < 16; i++)
		h = (h ^ pas[i]) * 16777619u;
	for (unsigned i = 0; i < 4; i++)
		h = (h ^ (id >> (8 * i) & 0xFF)) * 16777619u;
	return h;
}

static int cm_same(const struct rw_cm_conn *c, uint8_t family, const uint8_t *act, const uint8_t *pas,
		   uint32_t id)
{
	return c->family == family && c->active_comm_id == id && !memcmp(c->active, act, 16) &&
	       !memcmp(c->passive, pas, 16);
}

/* The newest handshake of that key, or NULL. */
static struct rw_cm_conn *cm_get(const struct rw_analyzer *a, uint8_t family, const uint8_t *act,
				 const uint8_t *pas, uint32_t id)
{
	if (!a->cm_slots)
		return NULL;
	for (uint32_t i = cm_hash(family, act, pas, id) & a->cm_slots_mask; a->cm_slots[i];
	     i = (i + 1) & a->cm_slots_mask) {
		struct rw_cm_conn *c = &a->cms[a->cm_slots[i] - 1];
		if (cm_same(c, family, act, pas, id))
			return c;
	}
	return NULL;
}

/* Points the key of handshake k at it (a newer one of the same key takes
 * the slot). */
static void cm_put(struct rw_analyzer *a, uint32_t k)
{
	const struct rw_cm_conn *c = &a->cms[k];
	uint32_t i = cm_hash(c->family, c->active, c->passive, c->active_comm_id) & a->cm_slots_mask;
	while (a->cm_slots[i] && !cm_same(&a->cms[a->cm_slots[i] - 1], c->family, c->active,
					  c->passive, c->active_comm_id))
		i = (i + 1) & a->cm_slots_mask;
	a->cm_slots[i] = k + 1;
}

/* Room for n handshakes in the index, at most half full; 0 when out of
 * memory. */
static int cm_index_room(struct rw_analyzer *a, uint32_t n)
{
	if (a->cm_slots && (uint64_t)n * 2 <= (uint64_t)a->cm_slots_mask + 1)
		return 1;
	uint32_t size = a->cm_slots ? (a->cm_slots_mask + 1) * 2 : 64;
	uint32_t *s = an_alloc(a, (size_t)size * sizeof(*s), 0);
	if (!s)
		return 0;
	memset(s, 0, (size_t)size * sizeof(*s));
	if (a->cm_slots)
		an_free(a, a->cm_slots, (size_t)(a->cm_slots_mask + 1) * sizeof(*a->cm_slots));
	a->cm_slots = s;
	a->cm_slots_mask = size - 1;
	for (uint32_t k = 0; k < a->ncms; k++)
		cm_put(a, k);
	return 1;
}

static struct rw_cm_conn *cm_new(struct rw_analyzer *a)
{
	if (!cm_index_room(a, a->ncms + 1)) {
		a->totals.cm_dropped++;
		return NULL;
	}
	if (a->ncms == a->cms_cap) {
		uint32_t n = a->cms_cap ? a->cms_cap * 2 : 16;
		struct rw_cm_conn *c = an_alloc(a, (size_t)n * sizeof(*c), 0);
		if (!c) {
			a->totals.cm_dropped++;
			return NULL;
		}
		if (a->cms) {
			memcpy(c, a->cms, (size_t)a->ncms * sizeof(*c));
			an_free(a, a->cms, (size_t)a->cms_cap * sizeof(*a->cms));
		}
		a->cms = c;
		a->cms_cap = n;
	}
	struct rw_cm_conn *c = &a->cms[a->ncms++];
	memset(c, 0, sizeof(*c));
	c->flow_active = c->flow_passive = -1;
	return c;
}

/* The handshake a message from src to dst belongs to: its sender's comm ID
 * is `own`, the receiver's `peer` (0: not yet known to the sender). From
 * the active side the key is (src, dst, own), from the passive side (dst,
 * src, peer); the other ID must agree with the one the handshake knows. */
static struct rw_cm_conn *cm_find(struct rw_analyzer *a, const struct rw_flow_key *k, uint32_t own,
				  uint32_t peer, int *from_active)
{
	struct rw_cm_conn *c = cm_get(a, k->family, k->src, k->dst, own);
	if (c && (!peer || !c->passive_comm_id || c->passive_comm_id == peer)) {
		*from_active = 1;
		return c;
	}
	c = cm_get(a, k->family, k->dst, k->src, peer);
	if (c && (!own || !c->passive_comm_id || c->passive_comm_id == own)) {
		*from_active = 0;
		return c;
	}
	return NULL;
}

/* The flow of one direction of the new connection: a fresh one (the key's
 * earlier traffic, if any, was another connection's: a QP number reused). */
static struct rw_flow *cm_flow(struct rw_analyzer *a, uint8_t family, const uint8_t *src,
			       const uint8_t *dst, uint32_t dqpn, uint32_t psn, uint64_t ts)
{
	struct rw_flow_key k;
	memset(&k, 0, sizeof(k));
	k.family = family;
	memcpy(k.src, src, 16);
	memcpy(k.dst, dst, 16);
	k.dqpn = dqpn;
	struct rw_flow *f = an_flow_get(a, &k);
	if (f && (f->packets || f->closed)) {
		int32_t i = f->index;
		f = an_new_conversation(a, f, ts);
		if (f->index == i)
			return NULL; /* no room for a new flow */
	}
	if (f) {
		f->cm_psn_valid = 1;
		f->cm_psn = psn;
	}
	return f;
}

/* The REP named both QPs: the flows are paired from their first packet.
 * A starting PSN is the one its sender's QP expects to receive (Linux's CM
 * sets the QP's receive PSN from its own message, and the peer's send PSN
 * from the other's): the REP's starts the active side's requests, the
 * REQ's the passive side's. samples/softroce/rc_rping_cm.pcap shows it on
 * the wire. */
static void cm_connect(struct rw_analyzer *a, struct rw_cm_conn *c, uint64_t ts, uint64_t frame)
{
	struct rw_flow *fa = cm_flow(a, c->family, c->active, c->passive, c->passive_qpn,
				     c->passive_psn, ts);
	if (!fa)
		return;
	int32_t ia = fa->index;
	struct rw_flow *fp = cm_flow(a, c->family, c->passive, c->active, c->active_qpn,
				     c->active_psn, ts);
	fa = flow_at(a, (uint32_t)ia);
	if (!fp)
		return;
	/* the active side's flow carries the requests (pair_link's q) */
	pair_link(fp, fa, RW_PAIR_CM, c->passive_psn, frame);
	int32_t ci = (int32_t)(c - a->cms);
	fa->cm = fp->cm = ci;
	c->flow_active = fa->index;
	c->flow_passive = fp->index;
}

void cm_packet(struct rw_analyzer *a, const struct rw_packet *p, uint64_t ts, uint64_t frame)
{
	const struct rw_mad_brief *m = &p->mad;
	struct rw_flow_key k;
	struct rw_cm_conn *c;
	int from_active = 0;

	a->totals.cm_msgs++;
	if (!an_key_of(p, &k))
		return;
	if (m->cm_msg == RW_CM_REQ) {
		c = cm_find(a, &k, m->local_comm_id, 0, &from_active);
		if (!c || !from_active || c->state >= RW_CMS_REJ) {
			if (!(c = cm_new(a)))
				return;
			c->family = k.family;
			memcpy(c->active, k.src, 16);
			memcpy(c->passive, k.dst, 16);
			c->active_comm_id = m->local_comm_id;
			c->req_frame = frame;
			c->req_ns = ts;
			cm_put(a, (uint32_t)(c - a->cms));
		}
		c->reqs++;
		c->active_qpn = m->qpn;
		c->active_psn = m->starting_psn;
		c->path_mtu = m->path_mtu;
		c->transport = m->transport;
		return;
	}
	if (m->cm_msg == RW_CM_SIDR_REQ || m->cm_msg == RW_CM_SIDR_REP ||
	    !(c = cm_find(a, &k, m->local_comm_id, m->remote_comm_id, &from_active))) {
		a->totals.cm_unmatched++;
		return;
	}
	switch (m->cm_msg) {
	case RW_CM_REP:
		if (from_active)
			break;
		c->reps++;
		if (c->reps > 1) /* a resent REP (the RTU was lost) */
			break;
		c->passive_comm_id = m->local_comm_id;
		c->passive_qpn = m->qpn;
		c->passive_psn = m->starting_psn;
		c->rep_frame = frame;
		c->rep_ns = ts;
		c->state = RW_CMS_REP;
		cm_connect(a, c, ts, frame);
		break;
	case RW_CM_RTU:
		if (!c->rtus++) {
			c->rtu_frame = frame;
			c->rtu_ns = ts;
		}
		if (c->state < RW_CMS_RTU)
			c->state = RW_CMS_RTU;
		break;
	case RW_CM_MRA:
		if (!c->mras++)
			c->mra_ns = ts;
		c->mra_timeout = m->service_timeout;
		if (!from_active && !c->passive_comm_id)
			c->passive_comm_id = m->local_comm_id;
		break;
	case RW_CM_REJ:
		if (!c->rejs++) {
			c->rej_frame = frame;
			c->rej_reason = m->rej_reason;
			c->rej_msg = m->msg_ref;
		}
		c->state = RW_CMS_REJ;
		break;
	case RW_CM_DREQ:
		if (!c->dreqs++) {
			c->dreq_frame = frame;
			c->dreq_ns = ts;
		}
		if (c->state < RW_CMS_DREQ)
			c->state = RW_CMS_DREQ;
		break;
	case RW_CM_DREP:
		if (!c->dreps++) {
			c->drep_frame = frame;
			c->drep_ns = ts;
		}
		c->state = RW_CMS_DREP;
		/* IBA 12.9.6: after DREP both QPs leave the connection; their
		 * numbers may serve another one */
		if (c->flow_active >= 0)
			an_close(a, flow_at(a, (uint32_t)c->flow_active), ts);
		if (c->flow_passive >= 0)
			an_close(a, flow_at(a, (uint32_t)c->flow_passive), ts);
		break;
	default: /* LAP, APR: the alternate path; nothing the flows need */
		break;
	}
}
