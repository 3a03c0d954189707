/* SPDX-License-Identifier: BSD-3-Clause */
/* Frames of model packets from proto's templates, with no DPDK type: the
 * part of the TX layer that writes bytes, shared by tx.c (into mbufs) and
 * bench/bench_genmodel.c (into plain buffers, to time it alone).
 *
 * One template per (flow, direction, opcode, payload length), in an open
 * table where a collision replaces the older entry (a miss costs one build
 * with a full ICRC). A template that keeps being used gets ICRC tables
 * (rw_tmpl_fast): its packets then cost a few loads for the ICRC, whatever
 * changed. The tables live in a small pool; until a template has its own
 * (or after it lost them to a newer hot one), it uses the tables of its
 * (flow, direction, opcode), made for any payload length, at the cost of
 * one carry-less multiply more. */
#ifndef RWGEN_TX_FRAME_H
#define RWGEN_TX_FRAME_H

#include <stdint.h>
#include <string.h>

#include "flow.h"
#include "rocewire/tmpl.h"
#include "rocewire/wire.h"

#define GEN_FR_SLOTS 4096u
#define GEN_FR_FAST 64u   /* templates with tables at a time */
#define GEN_FR_HOT 4096u  /* packets of a template before it gets tables of its own (a few us to make) */
#define GEN_FR_LAYOUTS 64u /* tables for any payload length, by (flow, direction, opcode) */
#define GEN_FR_SCRATCH (4096u + 1024u)

struct gen_fr_fast {
	struct rw_tmpl_fast fs;
	uint32_t owner;       /* slot index, or UINT32_MAX */
};

struct gen_fr_lay {
	uint64_t key;         /* a template key without the payload length; 0: none */
	struct rw_tmpl_fast fs;
};

struct gen_fr_slot {
	uint64_t key;
	const struct rw_tmpl_fast *fs; /* NULL: not hot (yet) */
	uint32_t uses;
	uint32_t fast;        /* its set in the pool, when fs */
	struct rw_tmpl t;
};

struct gen_frames {
	const struct gen_scenario *sc;
	const uint8_t *const *patterns; /* pattern bytes by pool */
	const uint32_t *flow_pool;      /* flow -> patterns[] */
	uint16_t *sport;                /* UDP source port per (flow, QP), from flow_qp0[flow] */
	uint64_t *flow_qp0;
	struct gen_fr_fast *fast;
	struct gen_fr_lay *lay;
	uint32_t fast_next;
	int general_only;               /* no tables: every ICRC by the general patch (benchmarks) */
	uint64_t builds, fast_builds, lay_builds;
	struct gen_fr_slot slot[GEN_FR_SLOTS];
	uint8_t scratch[GEN_FR_SCRATCH];
};

/* NULL when out of memory. The scenario and the patterns must outlive it.
 * Only the flows of shard (flow % nshards == shard) are written. */
struct gen_frames *gen_frames_new(const struct gen_scenario *sc, uint32_t shard, uint32_t nshards,
				  const uint8_t *const *patterns, const uint32_t *flow_pool);
void gen_frames_free(struct gen_frames *fr);

/* The slow path of gen_frames_get: builds the template, or gives a hot one
 * its tables. NULL when the packet cannot be built. */
const struct gen_fr_slot *gen_frames_miss(struct gen_frames *fr, const struct gen_pkt *pk, uint64_t key);
/* Tables for a template that has none of its own yet: those of its
 * (flow, direction, opcode), made on first use. NULL: none. */
const struct rw_tmpl_fast *gen_frames_layout(struct gen_frames *fr, const struct gen_fr_slot *s);

#define GEN_FR_LEN_BITS 13 /* the payload length's bits in a key */

static inline uint64_t gen_frames_key(const struct gen_pkt *pk)
{
	return 1ull << 63 | (uint64_t)pk->flow << 24 | (uint64_t)(pk->dir == GEN_DIR_RESPONSE) << 21 |
	       (uint64_t)pk->opcode << GEN_FR_LEN_BITS | pk->payload_len;
}

static inline const struct gen_fr_slot *gen_frames_get(struct gen_frames *fr, const struct gen_pkt *pk)
{
	uint64_t key = gen_frames_key(pk);
	const struct gen_fr_slot *s = &fr->slot[(key * 0x9E3779B97F4A7C15ull) >> 52];

	if (__builtin_expect(s->key == key && s->fs != NULL, 1))
		return s;
	return gen_frames_miss(fr, pk, key);
}

/* Puts back the n pattern bytes (4 to GEN_TAIL_MAX: a tail) at pay: 8 or 4
 * bytes at a time, the last copy ending exactly at n, so that nothing past
 * the tail is written. */
static inline void gen_frames_restore(uint8_t *pay, const uint8_t *pat, uint32_t n)
{
	if (n >= 8) {
		for (uint32_t i = 0; i + 8 < n; i += 8)
			memcpy(pay + i, pat + i, 8);
		memcpy(pay + n - 8, pat + n - 8, 8);
	} else if (n >= 4) {
		memcpy(pay, pat, 4);
		memcpy(pay + n - 4, pat + n - 4, 4);
	} else {
		memcpy(pay, pat, n);
	}
}

/* Writes pk's frame around its payload: the headers in the s->t.hdr_len
 * bytes before pay, the tail (pad, ICRC, Ethernet padding) from
 * pay + s->t.payload_len on. The payload bytes are not touched. */
static inline void gen_frames_put(struct gen_frames *fr, const struct gen_fr_slot *s,
				  const struct gen_pkt *pk, uint8_t *pay)
{
	const struct gen_flow *fl = &fr->sc->flows[pk->flow];
	const struct rw_tmpl_fast *fs = s->fs;
	struct rw_tmpl_fields f = pk->f; /* the model's, as proto describes them */
	uint32_t icrc;

	/* what the TX layer adds: the flow's ECN (or the CE mark), the QP's port */
	f.ecn = (pk->flags & GEN_PF_CE) ? 3 : fl->ecn;
	f.udp_sport = fr->sport[fr->flow_qp0[pk->flow] + pk->qp];
	if (__builtin_expect(fs == NULL, 0))
		fs = gen_frames_layout(fr, s);
	if (fs)
		icrc = rw_tmpl_write_fast(&s->t, fs, &f, pay - s->t.hdr_len);
	else
		icrc = rw_tmpl_write(&s->t, &f, pay - s->t.hdr_len);
	if (__builtin_expect(pk->flags & GEN_PF_CORRUPT, 0))
		icrc ^= 1u; /* the only way a bad ICRC leaves the generator */
	if (s->t.pad == 0 && s->t.eth_pad == 0) /* the ICRC alone: one store */
		rw_put_le32(pay + s->t.payload_len, icrc);
	else
		rw_tmpl_write_tail(&s->t, icrc, pay + s->t.payload_len);
}

/* ---- the lockstep stream's frames (flow.h: gen_model_lockstep) ----
 * Every packet of the stream has one layout: its frame is the template's
 * (QP 0's at PSN 0 and VA 0, payload, pad and padding included), stamped
 * once into each buffer the stream will ever use, and per packet only the
 * fields that differ are written (proto's rw_tmpl_put_*): the UDP source
 * port, the BTH's destination QP and PSN, UD's source QP, the RETH's VA
 * and the ICRC.
 * Each QP keeps the ICRC of its own frame at PSN 0 and VA 0, made once by
 * proto's general patch; a packet's is that one changed by its PSN's three
 * bytes and the round's VA through proto's tables (rw_tmpl_fast_xor): a few
 * loads and five stores a packet, whatever the payload length. */
struct gen_ls_qp {
	uint32_t icrc;       /* its frame's at PSN 0, VA 0 */
	uint32_t psn_off;    /* its PSN less QP 0's */
	uint32_t dqpn;       /* destination QP */
	uint32_t sqpn;       /* UD: the DETH's source QP */
	uint16_t sport;      /* UDP source port */
	uint16_t unused;
};

struct gen_ls_frames {
	struct rw_tmpl t;    /* QP 0's frame at PSN 0, VA 0 */
	struct rw_tmpl_fast fs;
	struct gen_ls_qp *qp;
	uint32_t nq;
	struct rw_tmpl_stamp st; /* where the per-packet fields go */
	uint8_t frame[GEN_FR_SCRATCH]; /* the template's whole frame (t.frame_len bytes) */
};

/* The frames of model m's lockstep stream ls (gen_model_lockstep(m)),
 * pattern the bytes of its payload. NULL with one line in err. */
struct gen_ls_frames *gen_ls_frames_new(const struct gen_scenario *sc, const struct gen_model *m,
					const struct gen_lockstep *ls, const uint8_t *pattern, char *err,
					size_t errcap);
void gen_ls_frames_free(struct gen_ls_frames *fr);

/* What a round's VA adds to the ICRC of each of its packets. */
static inline uint32_t gen_ls_va_icrc(const struct gen_ls_frames *fr, uint64_t va)
{
	return fr->st.va_at ? rw_tmpl_fast_xor(&fr->fs, fr->fs.va_at, 8, va) : 0;
}

/* Makes frame (t.frame_len bytes) the packet of QP i in a round (QP 0's
 * PSN psn, the VA va and its gen_ls_va_icrc), frame holding a packet of
 * this stream already (fr->frame, or any packet it made since). */
static inline void gen_ls_patch(const struct gen_ls_frames *fr, uint32_t i, uint32_t psn, uint64_t va,
				uint32_t va_icrc, uint8_t *frame)
{
	const struct rw_tmpl_stamp *st = &fr->st;
	const struct gen_ls_qp *q = &fr->qp[i];
	uint32_t p = (psn + q->psn_off) & 0xFFFFFFu;

	rw_tmpl_put_udp_sport(st, frame, q->sport);
	rw_tmpl_put_dqpn(st, frame, q->dqpn);
	rw_tmpl_put_psn(st, frame, p);
	if (st->sqpn_at)
		rw_tmpl_put_sqpn(st, frame, q->sqpn);
	if (st->va_at)
		rw_tmpl_put_va(st, frame, va);
	rw_tmpl_put_icrc(st, frame, q->icrc ^ va_icrc ^ rw_tmpl_fast_xor(&fr->fs, fr->fs.psn_at, 3, p));
}

#endif
