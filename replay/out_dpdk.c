/* SPDX-License-Identifier: BSD-3-Clause */
/* DPDK output: EAL, one port with one TX queue, frames written straight
 * into mbufs. Any PMD: a NIC, net_af_packet, net_pcap (a file), net_null. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "out.h"
#include "rw_dpdk.h"

#define DP_BURST_MAX 512
#define DP_MBUFS 8191
/* room for a 9000-byte jumbo frame in one segment */
#define DP_DATA_ROOM (9216 + RTE_PKTMBUF_HEADROOM)

struct dp {
	uint16_t port;
	struct rw_dpdk_port dev;
	struct rte_mempool *pool;
	struct rte_mbuf *q[DP_BURST_MAX];  /* committed, not yet sent */
	uint32_t nq;
	struct rte_mbuf *cur;              /* lent by slot(), not committed */
	struct rte_mbuf *cache[DP_BURST_MAX];
	uint32_t ncache;
};

static int dp_flush(struct rp_out *o)
{
	struct dp *d = o->priv;
	uint32_t sent = 0;
	while (sent < d->nq) {
		uint16_t k = rte_eth_tx_burst(d->port, 0, d->q + sent, (uint16_t)(d->nq - sent));
		sent += k;
		if (sent < d->nq) {
			o->full_waits++;
			rte_pause();
		}
	}
	d->nq = 0;
	return 0;
}

static uint8_t *dp_slot(struct rp_out *o, size_t *cap)
{
	struct dp *d = o->priv;
	if (!d->cur) {
		if (!d->ncache) {
			/* the pool refills as the port frees what it sent */
			while (rte_pktmbuf_alloc_bulk(d->pool, d->cache, o->burst) != 0) {
				if (d->nq)
					dp_flush(o);
				o->full_waits++;
				rte_pause();
			}
			d->ncache = o->burst;
		}
		d->cur = d->cache[--d->ncache];
	}
	*cap = rte_pktmbuf_tailroom(d->cur);
	return rte_pktmbuf_mtod(d->cur, uint8_t *);
}

static void dp_commit(struct rp_out *o, size_t len)
{
	struct dp *d = o->priv;
	d->cur->data_len = (uint16_t)len;
	d->cur->pkt_len = (uint32_t)len;
	d->q[d->nq++] = d->cur;
	d->cur = NULL;
	if (d->nq == DP_BURST_MAX) /* the caller flushes every burst; a safety */
		dp_flush(o);
}

static void dp_close(struct rp_out *o)
{
	struct dp *d = o->priv;
	if (!d)
		return;
	dp_flush(o);
	if (d->cur)
		rte_pktmbuf_free(d->cur);
	if (d->ncache)
		rte_pktmbuf_free_bulk(d->cache, d->ncache);
	rw_dpdk_port_close(&d->dev); /* net_pcap closes its file: it is whole */
	free(d);
	o->priv = NULL;
	rte_eal_cleanup();
}

static const struct rp_out_ops dp_ops = {dp_slot, dp_commit, dp_flush, dp_close};

int rp_out_dpdk_open(struct rp_out *o, struct rw_dpdk_args *eal, uint16_t port, uint32_t burst)
{
	memset(o, 0, sizeof(*o));
	o->ops = &dp_ops;
	o->burst = burst > DP_BURST_MAX ? DP_BURST_MAX : burst;
	if (rw_dpdk_eal_start(eal, o->err, sizeof(o->err)) != 0)
		return -1;
	struct dp *d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(o->err, sizeof(o->err), "out of memory");
		rte_eal_cleanup();
		return -1;
	}
	int usage;
	if (rw_dpdk_port_find(&d->dev, port, o->err, sizeof(o->err), &usage) != 0) {
		/* no port, or not that one: the options given are the mistake */
		free(d);
		rte_eal_cleanup();
		return 2;
	}
	d->port = port;
	snprintf(o->name, sizeof(o->name), "%s (DPDK port %u)", d->dev.driver, port);
	int socket = (int)rte_lcore_to_socket_id(rte_get_main_lcore());
	d->pool = rte_pktmbuf_pool_create("rwreplay", DP_MBUFS, 256, 0, DP_DATA_ROOM, socket);
	if (!d->pool) {
		snprintf(o->err, sizeof(o->err), "cannot make %u mbufs: %s (EAL -m sets the memory)", DP_MBUFS,
			 rte_strerror(rte_errno));
		free(d);
		return -1;
	}
	struct rw_dpdk_port_cfg pc = {
		.n_tx = 1,
		.tx_desc = 1024,
		.tx_fast_free = 1,
		.tx_socket = &socket,
	};
	if (rw_dpdk_port_start(&d->dev, &pc, o->err, sizeof(o->err)) != 0) {
		free(d);
		return -1;
	}
	o->priv = d;
	uint16_t mtu = 0;
	o->max_frame = rte_eth_dev_get_mtu(port, &mtu) == 0 && mtu ? (uint32_t)mtu + 14 : 9014;
	/* net_pcap and net_null have no wire: any frame the mbuf holds */
	if (d->dev.no_wire)
		o->max_frame = DP_DATA_ROOM - RTE_PKTMBUF_HEADROOM - 4;
	return 0;
}
