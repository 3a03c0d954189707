/* SPDX-License-Identifier: BSD-3-Clause */
/* The closed loop's receiving side (--role responder): the scenario's
 * receivers as notification points on a real port. Every frame the port
 * brings is decoded by proto; a RoCEv2 request to a QP of a flow that takes
 * part in congestion control (dst_qpn .. dst_qpn + qps - 1) counts, and when
 * a switch (or Linux's RED qdisc) marked it CE, the notification point of
 * cc_np.c decides: a CNP now, one owed at the end of the pacing interval, or
 * none. The CNP goes to the flow's requester QP (src_qpn + i) with the
 * flow's addresses reversed, built by proto's builder like every frame the
 * generator sends. RC requests are answered as an RC responder does
 * (answer_rc below: ACKs, NAKs, READ responses, atomic ACKs), so a real NIC
 * can be the requester, or rocewire-gen's own requester side, which reads
 * these answers in the closed loop for its `responder: external` RC flows
 * (gen_model_rx_response).
 *
 * The connections of RC flows with `cm: true` are answered as a CM's
 * passive side does (answer_cm below): a REQ for one of them gets a REP
 * built by flow_cm.c, a DREQ a DREP, an unknown REQ a REJ.
 *
 * The per-frame work is answer.c's (gen_rsp_frame), apart from DPDK; this
 * file reads the port and sends what it builds.
 *
 * Time is the wall clock from the start (ns), the notification point's
 * clock. The loop ends at the run's duration (when one is set) or on
 * SIGINT/SIGTERM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "answer.h"
#include "rocewire/build.h"
#include "rocewire/link.h"
#include "tx.h"

/* Builds the frame p describes in a fresh mbuf (from the header room on:
 * the responder role sends nothing from templates, so the pool's payload
 * pattern may be written over) and sends it: gen_rsp's callback. */
static int send_frame(void *ctx, const struct rw_packet *p)
{
	struct gen_worker *w = ctx;
	struct rte_mbuf *m = rte_pktmbuf_alloc(w->pools[0]);
	size_t n;

	if (!m)
		return -1;
	uint8_t *at = (uint8_t *)m->buf_addr + GEN_PAYLOAD_AT - 192;
	if (rw_packet_build(p, RW_LINKTYPE_ETHERNET, 0, at, 192 + GEN_PAYLOAD_MAX + GEN_TAIL_MAX, &n) != RW_OK) {
		rte_pktmbuf_free(m);
		return -1;
	}
	m->data_off = (uint16_t)(GEN_PAYLOAD_AT - 192);
	m->data_len = (uint16_t)n;
	m->pkt_len = (uint32_t)n;
	if (rte_eth_tx_burst(w->port, w->queue, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -1;
	}
	__atomic_store_n(&w->ctr.packets, w->ctr.packets + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->ctr.bytes, w->ctr.bytes + n, __ATOMIC_RELAXED);
	return 0;
}

int gen_responder_run(void *arg)
{
	struct gen_worker *w = arg;
	const struct gen_scenario *sc = w->sc;
	uint64_t hz = rte_get_tsc_hz(), t0 = rte_rdtsc();
	struct gen_rsp *r = gen_rsp_new(sc, w->patterns, w->flow_pool, send_frame, w, &w->npc);

	if (!r) {
		snprintf(w->errmsg, sizeof(w->errmsg), "out of memory for the notification points");
		w->error = 1;
		goto out;
	}
	while (!*w->stop) {
		uint64_t now = (uint64_t)((double)(rte_rdtsc() - t0) * 1e9 / (double)hz);
		struct rte_mbuf *rb[32];

		if (__atomic_load_n(&w->snap_req, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&w->snap_req, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&w->snap_done, 1, __ATOMIC_RELEASE);
		}
		if (sc->duration_ns && now >= sc->duration_ns)
			break;
		gen_rsp_tick(r, now);
		uint16_t k = rte_eth_rx_burst(w->port, w->queue, rb, 32);
		if (k == 0) {
			rte_pause();
			continue;
		}
		/* the clock again: what the port held arrived by now, and a
		 * CNP decided on an old reading would leave later than its
		 * pacing says */
		now = (uint64_t)((double)(rte_rdtsc() - t0) * 1e9 / (double)hz);
		for (uint16_t i = 0; i < k; i++)
			gen_rsp_frame(r, rte_pktmbuf_mtod(rb[i], const uint8_t *), rte_pktmbuf_data_len(rb[i]),
				      rb[i]->pkt_len, now);
		rte_pktmbuf_free_bulk(rb, k);
	}
out:
	gen_rsp_free(r);
	w->end_s = gen_now_s();
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return w->error ? -1 : 0;
}
