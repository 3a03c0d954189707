/* SPDX-License-Identifier: BSD-3-Clause */
/* The TX layer: model packets -> template frames in mbufs -> TX bursts. */
#include "tx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "rocewire/build.h"
#include "rocewire/link.h"
#include "rocewire/mad.h"
#include "rocewire/packet.h"
#include "rocewire/tmpl.h"
#include "truth.h"
#include "tx_frame.h"

/* Each mbuf remembers where its last tail was written (the bytes of the
 * pattern it overwrote), in its private area: [0] offset from the payload
 * start, [1] length. */
struct gen_mbuf_priv {
	uint16_t tail_at, tail_len;
	uint32_t unused;
};

static void fill_mbuf(struct rte_mempool *mp, void *arg, void *obj, unsigned idx)
{
	struct rte_mbuf *m = obj;
	struct gen_mbuf_priv *pv = rte_mbuf_to_priv(m);

	(void)mp;
	(void)idx;
	memcpy((uint8_t *)m->buf_addr + GEN_PAYLOAD_AT, arg, GEN_PAYLOAD_MAX + GEN_TAIL_MAX);
	pv->tail_at = 0;
	pv->tail_len = 0;
}

struct rte_mempool *gen_pool_create(const char *name, unsigned n, int socket, const uint8_t *pattern)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create(name, n, 256, sizeof(struct gen_mbuf_priv),
							 GEN_MBUF_DATA, socket);
	if (mp)
		rte_mempool_obj_iter(mp, fill_mbuf, (void *)(uintptr_t)pattern);
	return mp;
}

/* A PFC frame of the simulated switch (rare): built whole by proto's
 * builder in the header room, the payload left as it is. */
static __attribute__((noinline)) int put_pfc(struct gen_worker *w, const struct gen_pkt *pk,
					     struct rte_mbuf *m)
{
	struct gen_mbuf_priv *pv = rte_mbuf_to_priv(m);
	uint8_t *pay = (uint8_t *)m->buf_addr + GEN_PAYLOAD_AT;
	struct rw_packet p;
	size_t n;

	if (pv->tail_len) {
		const uint8_t *pat = w->patterns[w->flow_pool[pk->flow]];
		gen_frames_restore(pay + pv->tail_at, pat + pv->tail_at, pv->tail_len);
		pv->tail_len = 0;
	}
	gen_pkt_describe(w->sc, pk, NULL, &p);
	if (rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, pay - 64, 64, &n) != RW_OK)
		return -1;
	m->data_off = (uint16_t)(GEN_PAYLOAD_AT - 64);
	m->data_len = (uint16_t)n;
	m->pkt_len = (uint32_t)n;
	return 0;
}

/* A CM message (rare: five per connection): built whole by proto's
 * builder over the pattern, which the next frame in this mbuf puts back
 * as it does a tail. */
static __attribute__((noinline)) int put_cm(struct gen_worker *w, const struct gen_pkt *pk, struct rte_mbuf *m)
{
	struct gen_mbuf_priv *pv = rte_mbuf_to_priv(m);
	uint8_t *pay = (uint8_t *)m->buf_addr + GEN_PAYLOAD_AT;
	const uint8_t *pat = w->patterns[w->flow_pool[pk->flow]];
	uint8_t mad[256];
	struct rw_packet p;
	size_t n;

	if (pv->tail_len) {
		gen_frames_restore(pay + pv->tail_at, pat + pv->tail_at, pv->tail_len);
		pv->tail_len = 0;
	}
	if (gen_cm_mad(w->sc, pk, mad) != 0)
		return -1;
	gen_pkt_describe(w->sc, pk, mad, &p);
	if (rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, pay - 64, 64 + GEN_PAYLOAD_MAX, &n) != RW_OK || n <= 64)
		return -1;
	pv->tail_at = 0;
	pv->tail_len = (uint16_t)(n - 64);
	m->data_off = (uint16_t)(GEN_PAYLOAD_AT - 64);
	m->data_len = (uint16_t)n;
	m->pkt_len = (uint32_t)n;
	return 0;
}

/* Writes the frame of pk into m: header before the pattern, tail after its
 * first payload_len bytes. */
static inline int put_frame(struct gen_worker *w, const struct gen_pkt *pk, struct rte_mbuf *m)
{
	if (unlikely(pk->kind != GEN_PK_ROCE))
		return pk->kind == GEN_PK_PFC ? put_pfc(w, pk, m) : put_cm(w, pk, m);
	const struct gen_fr_slot *s = gen_frames_get(w->frames, pk);
	struct gen_mbuf_priv *pv = rte_mbuf_to_priv(m);
	uint8_t *pay = (uint8_t *)m->buf_addr + GEN_PAYLOAD_AT;
	const struct rw_tmpl *t;

	if (unlikely(s == NULL))
		return -1;
	t = &s->t;
	/* Put back the pattern bytes this mbuf's previous tail covered. */
	if (pv->tail_len) {
		const uint8_t *pat = w->patterns[w->flow_pool[pk->flow]];
		gen_frames_restore(pay + pv->tail_at, pat + pv->tail_at, pv->tail_len);
	}
	gen_frames_put(w->frames, s, pk, pay);
	pv->tail_at = (uint16_t)t->payload_len;
	pv->tail_len = (uint16_t)(t->frame_len - t->hdr_len - t->payload_len);
	m->data_off = (uint16_t)(GEN_PAYLOAD_AT - t->hdr_len);
	m->data_len = (uint16_t)t->frame_len;
	m->pkt_len = t->frame_len;
	return 0;
}

/* Closed loop: CNPs for our QPs, the answers of real RC responders (ACKs,
 * NAKs, READ responses, atomic ACKs, and their CM's REP, REJ and DREP) and
 * PFC/PAUSE frames from the port,
 * at now on the model's (wall-paced) clock. A packet whose ICRC is bad is
 * dropped, as a NIC drops it. */
static void rx_poll(struct gen_worker *w, uint64_t now)
{
	struct rte_mbuf *rb[32];
	uint16_t k = rte_eth_rx_burst(w->port, w->queue, rb, 32);
	for (uint16_t i = 0; i < k; i++)
		gen_model_rx_frame(w->model, rte_pktmbuf_mtod(rb[i], const uint8_t *), rte_pktmbuf_data_len(rb[i]),
				   rb[i]->pkt_len, now);
	if (k)
		rte_pktmbuf_free_bulk(rb, k);
}

double gen_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Stamps the lockstep stream's frame into every mbuf of pool, where the
 * frame starts on a cache line: a frame of up to 64 bytes is then one
 * line, and a longer one's patched words (all in the headers, and the
 * ICRC) two. */
static void ls_stamp(struct rte_mempool *mp, void *arg, void *obj, unsigned idx)
{
	struct gen_worker *w = arg;
	struct rte_mbuf *m = obj;
	const struct gen_ls_frames *fr = w->ls;
	struct gen_mbuf_priv *pv = rte_mbuf_to_priv(m);

	(void)mp;
	(void)idx;
	memcpy((uint8_t *)m->buf_addr + w->ls_off, fr->frame, fr->t.frame_len);
	m->data_off = w->ls_off;
	m->data_len = (uint16_t)fr->t.frame_len;
	m->pkt_len = fr->t.frame_len;
	pv->tail_at = pv->tail_len = 0; /* the pattern is gone: for the stream alone */
}

static void ls_align(struct rte_mempool *mp, void *arg, void *obj, unsigned idx)
{
	struct gen_worker *w = arg;
	uintptr_t a = (uintptr_t)((struct rte_mbuf *)obj)->buf_addr + RTE_PKTMBUF_HEADROOM;

	(void)mp;
	if (idx == 0)
		w->ls_off = (uint16_t)(RTE_PKTMBUF_HEADROOM + ((64 - (a & 63)) & 63));
}

static void ls_stamp_pool(struct gen_worker *w, struct rte_mempool *mp)
{
	/* the offset from the headroom on where the first buffer's data is
	 * line-aligned (mempool objects are, so it is the whole pool's) */
	w->ls_off = RTE_PKTMBUF_HEADROOM;
	rte_mempool_obj_iter(mp, ls_align, w);
	if ((uint32_t)w->ls_off + w->ls->t.frame_len > GEN_MBUF_DATA)
		w->ls_off = (uint16_t)(GEN_MBUF_DATA - w->ls->t.frame_len);
	rte_mempool_obj_iter(mp, ls_stamp, w);
}

int gen_worker_init(struct gen_worker *w)
{
	const struct gen_scenario *sc = w->sc;

	if (w->responder) {
		/* rx_np.c: no model, no templates; flow counters stay zero */
		w->snap = calloc(sc->n_flows ? sc->n_flows : 1, sizeof(*w->snap));
		if (!w->snap) {
			snprintf(w->errmsg, sizeof(w->errmsg), "out of memory");
			return -1;
		}
		return 0;
	}

	w->model = gen_model_new(sc, w->shard, w->nshards);
	w->frames = gen_frames_new(sc, w->shard, w->nshards, (const uint8_t *const *)w->patterns,
				   w->flow_pool);
	w->snap = calloc(sc->n_flows ? sc->n_flows : 1, sizeof(*w->snap));
	if (!w->model) {
		snprintf(w->errmsg, sizeof(w->errmsg), "%s", gen_model_new_error());
		return -1;
	}
	if (!w->frames || !w->snap) {
		snprintf(w->errmsg, sizeof(w->errmsg), "out of memory for the flow model of queue %u",
			 w->queue);
		return -1;
	}
	/* A shard the lockstep stream can send (flow.h) goes without the
	 * clock; ROCEWIRE_GEN_LOCKSTEP=0 keeps the clock (the tests compare).
	 * The ground truth is the clock's: the stream has no records, so the
	 * clock sends the same packets instead. */
	const char *env = getenv("ROCEWIRE_GEN_LOCKSTEP");
	if (w->truth) {
		w->truth_no_lockstep = gen_model_lockstep_possible(w->model);
		if (gen_model_truth_on(w->model) != 0) {
			snprintf(w->errmsg, sizeof(w->errmsg), "out of memory for the ground truth");
			return -1;
		}
	}
	const struct gen_lockstep *ls =
		w->rx || w->truth || (env && strcmp(env, "0") == 0) ? NULL : gen_model_lockstep(w->model);
	if (ls) {
		w->ls = gen_ls_frames_new(sc, w->model, ls, w->patterns[w->flow_pool[ls->flow]], w->errmsg,
					  sizeof(w->errmsg));
		if (!w->ls)
			return -1;
		ls_stamp_pool(w, w->pools[w->flow_pool[ls->flow]]);
	}
	return 0;
}

void gen_worker_fini(struct gen_worker *w)
{
	gen_model_free(w->model);
	gen_frames_free(w->frames);
	gen_ls_frames_free(w->ls);
	w->ls = NULL;
	free(w->snap);
	free(w->times);
	w->model = NULL;
	w->frames = NULL;
	w->snap = NULL;
	w->times = NULL;
}

static void take_snapshot(struct gen_worker *w)
{
	if (!w->model) {
		__atomic_store_n(&w->snap_req, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&w->snap_done, 1, __ATOMIC_RELEASE);
		return;
	}
	for (uint32_t i = w->shard; i < w->sc->n_flows; i += w->nshards)
		w->snap[i] = *gen_model_stats(w->model, i);
	__atomic_store_n(&w->snap_req, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&w->snap_done, 1, __ATOMIC_RELEASE);
}

/* Room for n more packet times (pcap restamping); NULL once memory ran out. */
static uint64_t *times_room(struct gen_worker *w, uint32_t n)
{
	if (w->times_failed)
		return NULL;
	if (w->n_times + n > w->cap_times) {
		uint64_t cap = w->cap_times ? w->cap_times * 2 : 65536;
		uint64_t *t;

		while (cap < w->n_times + n)
			cap *= 2;
		t = realloc(w->times, cap * sizeof(*t));
		if (!t) {
			w->times_failed = 1;
			return NULL;
		}
		w->times = t;
		w->cap_times = cap;
	}
	w->n_times += n;
	return w->times + w->n_times - n;
}

static void record_times(struct gen_worker *w, const struct gen_pkt *pk, uint32_t n)
{
	uint64_t *t = times_room(w, n);

	for (uint32_t i = 0; t && i < n; i++)
		t[i] = pk[i].t_ns;
}

/* n mbufs from pool (raw: as the pool holds them, for the lockstep's
 * stamped frames), waiting while the port holds them all. When the run is
 * stopping and the port gives none back for about a second (a link that
 * went down), the n packets the model made are counted unsent and -1 is
 * returned. */
static int alloc_burst(struct gen_worker *w, struct rte_mempool *pool, struct rte_mbuf **mb, uint32_t n, int raw)
{
	for (uint64_t spins = 0;; rte_pause()) {
		if (raw ? rte_mempool_get_bulk(pool, (void **)mb, n) == 0 : rte_pktmbuf_alloc_bulk(pool, mb, n) == 0)
			return 0;
		if (*w->stop && ++spins > 10000000) {
			__atomic_store_n(&w->ctr.unsent, w->ctr.unsent + n, __ATOMIC_RELAXED);
			return -1;
		}
	}
}

/* Sends all of mb (what the model made goes out, even when stopping, so
 * that the model's counters and the port's agree) and counts it. */
static void send_burst(struct gen_worker *w, struct rte_mbuf **mb, uint32_t got)
{
	uint64_t bytes = 0;
	uint32_t sent = 0;

	for (uint32_t i = 0; i < got; i++)
		bytes += mb[i]->pkt_len;
	for (uint64_t spins = 0; sent < got;) {
		uint16_t k = rte_eth_tx_burst(w->port, w->queue, mb + sent, (uint16_t)(got - sent));
		if (k < got - sent)
			w->ctr.tx_full++;
		sent += k;
		if (sent < got) {
			/* a port that takes nothing for a second while stopping
			 * (link down) does not hold the exit */
			if (*w->stop && ++spins > 10000000) {
				rte_pktmbuf_free_bulk(mb + sent, got - sent);
				__atomic_store_n(&w->ctr.unsent, w->ctr.unsent + (got - sent), __ATOMIC_RELAXED);
				break;
			}
			rte_pause();
		}
	}
	__atomic_store_n(&w->ctr.packets, w->ctr.packets + got, __ATOMIC_RELAXED);
	__atomic_store_n(&w->ctr.bytes, w->ctr.bytes + bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&w->ctr.bursts, w->ctr.bursts + 1, __ATOMIC_RELAXED);
}

#define GEN_BURST_MAX 512

/* The lockstep stream (flow.h): rounds from the model, frames patched in
 * place (tx_frame.h), no gen_pkt in between. The pool is the worker's own
 * and carries nothing else, so every mbuf holds a frame of the stream from
 * gen_worker_init() on (ls_stamp), at w->ls_off, and mbufs are taken raw
 * from the pool as testpmd takes them: a packet writes its five fields,
 * the ICRC and three lengths (proto's rw_tmpl_put_*). */
static void run_lockstep(struct gen_worker *w, uint64_t t0, uint64_t hz, uint32_t burst, struct rte_mbuf **mb)
{
	const struct gen_ls_frames *fr = w->ls;
	const struct gen_lockstep *ls = gen_model_lockstep(w->model);
	struct rte_mempool *pool = w->pools[w->flow_pool[ls->flow]];
	const uint16_t off = w->ls_off;
	const uint32_t frame_len = fr->t.frame_len;
	struct gen_round rb[GEN_BURST_MAX];

	while (!*w->stop) {
		uint64_t until = UINT64_MAX;
		uint32_t nr, got = 0, j = 0;

		if (__atomic_load_n(&w->snap_req, __ATOMIC_ACQUIRE))
			take_snapshot(w);
		if (w->pace_real)
			until = (uint64_t)((double)(rte_rdtsc() - t0) * 1e9 / (double)hz);
		nr = gen_model_rounds(w->model, rb, burst, burst, until);
		if (nr == 0) {
			if (gen_model_done(w->model))
				return;
			rte_pause();
			continue;
		}
		for (uint32_t k = 0; k < nr; k++)
			got += rb[k].n;
		if (alloc_burst(w, pool, mb, got, 1) != 0)
			return;
		for (uint32_t k = 0; k < nr; k++) {
			uint32_t va_icrc = gen_ls_va_icrc(fr, rb[k].va);

			for (uint32_t i = 0; i < rb[k].n; i++, j++) {
				struct rte_mbuf *m = mb[j];

				/* a pool's mbufs have one segment and no
				 * offload flags; the lengths are the stamp's,
				 * written again lest a driver moved them */
				m->data_off = off;
				m->data_len = (uint16_t)frame_len;
				m->pkt_len = frame_len;
				gen_ls_patch(fr, rb[k].qp0 + i, rb[k].psn, rb[k].va, va_icrc,
					     (uint8_t *)m->buf_addr + off);
			}
		}
		if (w->record_times) {
			uint64_t *t = times_room(w, got);
			for (uint32_t k = 0, x = 0; t && k < nr; k++)
				for (uint32_t i = 0; i < rb[k].n; i++)
					t[x++] = rb[k].t_ns;
		}
		w->last_ns = rb[nr - 1].t_ns;
		send_burst(w, mb, got);
	}
}

/* The ground truth's settled records, after a burst; all at the end. */
static void truth_drain(struct gen_worker *w, int all)
{
	struct gen_truth r[32];
	uint32_t n;

	while (!w->truth_failed && (n = gen_model_truth(w->model, r, 32, all)) > 0) {
		if (n == UINT32_MAX || gen_truth_write(w->truth, r, n) != 0)
			w->truth_failed = 1;
	}
}

int gen_worker_run(void *arg)
{
	struct gen_worker *w = arg;
	struct gen_pkt pk[GEN_BURST_MAX];
	struct rte_mbuf *mb[GEN_BURST_MAX];
	uint64_t hz = rte_get_tsc_hz();
	uint64_t t0 = rte_rdtsc();
	uint32_t burst = w->burst > GEN_BURST_MAX ? GEN_BURST_MAX : w->burst;
	struct rte_mempool *pool0 = w->pools[0];
	int one_pool = 1;

	for (uint32_t i = 0; i < w->sc->n_flows; i++)
		if (w->flow_pool[i] != 0)
			one_pool = 0;
	if (w->ls) {
		run_lockstep(w, t0, hz, burst, mb);
		goto out;
	}

	while (!*w->stop) {
		uint64_t until = UINT64_MAX;
		uint32_t n = burst, got;

		if (__atomic_load_n(&w->snap_req, __ATOMIC_ACQUIRE))
			take_snapshot(w);
		if (w->pace_real)
			until = (uint64_t)((double)(rte_rdtsc() - t0) * 1e9 / (double)hz);
		if (w->rx)
			rx_poll(w, until);
		got = gen_model_next(w->model, pk, n, until);
		if (got == 0) {
			if (gen_model_done(w->model))
				break;
			rte_pause();
			continue;
		}
		/* mbufs: the pool refills as the port frees what it sent */
		if (one_pool) {
			if (alloc_burst(w, pool0, mb, got, 0) != 0)
				goto out;
		} else {
			for (;;) {
				int rc = 0;

				for (uint32_t i = 0; i < got; i++) {
					mb[i] = rte_pktmbuf_alloc(w->pools[w->flow_pool[pk[i].flow]]);
					if (!mb[i]) {
						rte_pktmbuf_free_bulk(mb, i);
						rc = -1;
						break;
					}
				}
				if (rc == 0)
					break;
				if (*w->stop) {
					__atomic_store_n(&w->ctr.unsent, w->ctr.unsent + got, __ATOMIC_RELAXED);
					goto out;
				}
				rte_pause();
			}
		}
		for (uint32_t i = 0; i < got; i++) {
			if (unlikely(put_frame(w, &pk[i], mb[i]) != 0)) {
				snprintf(w->errmsg, sizeof(w->errmsg),
					 "flow %u: opcode 0x%02x with %u bytes of payload cannot be built",
					 pk[i].flow, pk[i].opcode, pk[i].payload_len);
				rte_pktmbuf_free_bulk(mb, got);
				w->error = 1;
				goto out;
			}
		}
		if (w->record_times)
			record_times(w, pk, got);
		/* the model's packets are in time order: the burst's last is its latest */
		w->last_ns = pk[got - 1].t_ns;
		send_burst(w, mb, got);
		if (w->truth)
			truth_drain(w, 0);
	}
out:
	if (w->truth)
		truth_drain(w, 1);
	take_snapshot(w);
	w->end_s = gen_now_s();
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return w->error ? -1 : 0;
}
