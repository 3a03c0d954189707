/* SPDX-License-Identifier: BSD-3-Clause */
/* Frames of model packets: the template table (tx_frame.h). */
#include "tx_frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire/packet.h"

struct gen_frames *gen_frames_new(const struct gen_scenario *sc, uint32_t shard, uint32_t nshards,
				  const uint8_t *const *patterns, const uint32_t *flow_pool)
{
	struct gen_frames *fr = calloc(1, sizeof(*fr));
	uint64_t nqp = 0;

	if (!fr)
		return NULL;
	fr->sc = sc;
	fr->patterns = patterns;
	fr->flow_pool = flow_pool;
	fr->flow_qp0 = calloc(sc->n_flows + 1, sizeof(*fr->flow_qp0));
	fr->fast = calloc(GEN_FR_FAST, sizeof(*fr->fast));
	fr->lay = calloc(GEN_FR_LAYOUTS, sizeof(*fr->lay));
	if (!fr->flow_qp0 || !fr->fast || !fr->lay)
		goto fail;
	for (uint32_t i = 0; i < GEN_FR_FAST; i++)
		fr->fast[i].owner = UINT32_MAX;
	for (uint32_t i = 0; i < sc->n_flows; i++) {
		fr->flow_qp0[i] = nqp;
		if (i % nshards == shard)
			nqp += sc->flows[i].qps;
	}
	fr->sport = calloc(nqp ? nqp : 1, sizeof(*fr->sport));
	if (!fr->sport)
		goto fail;
	/* Source ports per QP, as the model's frame description chooses them. */
	for (uint32_t i = shard; i < sc->n_flows; i += nshards) {
		for (uint32_t q = 0; q < sc->flows[i].qps; q++) {
			struct gen_pkt pk;
			struct rw_packet p;

			memset(&pk, 0, sizeof(pk));
			pk.flow = i;
			pk.qp = q;
			pk.dir = GEN_DIR_REQUEST;
			pk.opcode = 0x11; /* any opcode: only the UDP port is read */
			gen_pkt_describe(sc, &pk, NULL, &p);
			fr->sport[fr->flow_qp0[i] + q] = p.udp.sport;
		}
	}
	return fr;
fail:
	gen_frames_free(fr);
	return NULL;
}

void gen_frames_free(struct gen_frames *fr)
{
	if (!fr)
		return;
	free(fr->flow_qp0);
	free(fr->sport);
	free(fr->fast);
	free(fr->lay);
	free(fr);
}

/* Gives slot si a table set, taking the pool's sets in turn. */
static void make_hot(struct gen_frames *fr, struct gen_fr_slot *s, uint32_t si)
{
	uint32_t k = fr->fast_next;
	struct gen_fr_fast *x = &fr->fast[k];

	if (x->owner != UINT32_MAX) {
		struct gen_fr_slot *o = &fr->slot[x->owner];
		o->fs = NULL;
		o->uses = 0;
	}
	x->owner = UINT32_MAX;
	if (rw_tmpl_fast_init(&s->t, &x->fs) != RW_OK) {
		s->uses = 0; /* headers too long for tables: the general patch */
		return;
	}
	fr->fast_next = (k + 1) % GEN_FR_FAST;
	x->owner = si;
	s->fs = &x->fs;
	s->fast = k;
	fr->fast_builds++;
}

const struct gen_fr_slot *gen_frames_miss(struct gen_frames *fr, const struct gen_pkt *pk, uint64_t key)
{
	uint32_t si = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 52);
	struct gen_fr_slot *s = &fr->slot[si];
	struct rw_packet p;
	struct gen_pkt proto;

	if (s->key == key) {
		if (++s->uses == GEN_FR_HOT && !fr->general_only)
			make_hot(fr, s, si);
		return s;
	}
	if (s->fs) {
		fr->fast[s->fast].owner = UINT32_MAX;
		s->fs = NULL;
	}
	s->uses = 0;
	/* The template's own varying fields do not matter: every packet
	 * writes its own. */
	proto = *pk;
	proto.flags = 0;
	gen_pkt_describe(fr->sc, &proto, fr->patterns[fr->flow_pool[pk->flow]], &p);
	if (rw_tmpl_init(&s->t, &p, fr->scratch, sizeof(fr->scratch)) != RW_OK) {
		s->key = 0;
		return NULL;
	}
	s->key = key;
	fr->builds++;
	return s;
}

const struct rw_tmpl_fast *gen_frames_layout(struct gen_frames *fr, const struct gen_fr_slot *s)
{
	uint64_t key = s->key & ~((1ull << GEN_FR_LEN_BITS) - 1);
	struct gen_fr_lay *l = &fr->lay[(key * 0x9E3779B97F4A7C15ull) >> 58];

	if (fr->general_only)
		return NULL;
	if (l->key == key)
		return &l->fs;
	if (rw_tmpl_fast_init_any(&s->t, &l->fs) != RW_OK) {
		l->key = 0;
		return NULL;
	}
	l->key = key;
	fr->lay_builds++;
	return &l->fs;
}

struct gen_ls_frames *gen_ls_frames_new(const struct gen_scenario *sc, const struct gen_model *m,
					const struct gen_lockstep *ls, const uint8_t *pattern, char *err,
					size_t errcap)
{
	struct gen_ls_frames *fr = calloc(1, sizeof(*fr));
	/* round 0 at PSN 0 and VA 0: each QP's packet there gives its own
	 * fields, its PSN offset, and (PSN cleared) the ICRC base */
	struct gen_round r0 = { .t_ns = 0, .va = 0, .psn = 0, .qp0 = 0, .n = ls->nq };
	uint8_t hdr[RW_TMPL_HDR_MAX];

	if (!fr || !(fr->qp = calloc(ls->nq, sizeof(*fr->qp)))) {
		snprintf(err, errcap, "out of memory for the frames of %u QPs", ls->nq);
		gen_ls_frames_free(fr);
		return NULL;
	}
	fr->nq = ls->nq;
	for (uint32_t i = 0; i < ls->nq; i++) {
		struct gen_pkt pk;
		struct rw_packet p;
		struct rw_tmpl_fields f;
		struct gen_ls_qp *q = &fr->qp[i];

		gen_model_round_pkt(m, &r0, i, &pk);
		q->psn_off = pk.f.psn;
		pk.f.psn = 0;
		gen_pkt_describe(sc, &pk, pattern, &p);
		if (i == 0) {
			if (rw_tmpl_init(&fr->t, &p, fr->frame, sizeof(fr->frame)) != RW_OK ||
			    rw_tmpl_fast_init(&fr->t, &fr->fs) != RW_OK || fr->t.frame_len != ls->frame_len) {
				snprintf(err, errcap, "flow %u: no template for opcode 0x%02x with %u bytes of payload",
					 ls->flow, ls->opcode, ls->payload_len);
				gen_ls_frames_free(fr);
				return NULL;
			}
		}
		rw_tmpl_fields_of(&p, &f);
		q->icrc = rw_tmpl_write(&fr->t, &f, hdr);
		q->sport = f.udp_sport;
		q->dqpn = f.dqpn;
		q->sqpn = f.deth.sqpn;
	}
	rw_tmpl_stamp_init(&fr->t, &fr->st);
	return fr;
}

void gen_ls_frames_free(struct gen_ls_frames *fr)
{
	if (!fr)
		return;
	free(fr->qp);
	free(fr);
}
