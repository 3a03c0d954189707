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

#define DP_BURST_MAX 512
#define DP_MBUFS 8191
/* room for a 9000-byte jumbo frame in one segment */
#define DP_DATA_ROOM (9216 + RTE_PKTMBUF_HEADROOM)

struct dp {
	uint16_t port;
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
	rte_eth_dev_stop(d->port);
	rte_eth_dev_close(d->port); /* net_pcap closes its file: it is whole */
	free(d);
	o->priv = NULL;
	rte_eal_cleanup();
}

static const struct rp_out_ops dp_ops = {dp_slot, dp_commit, dp_flush, dp_close};

int rp_out_dpdk_open(struct rp_out *o, int eal_argc, char **eal_argv, uint16_t port, uint32_t burst)
{
	memset(o, 0, sizeof(*o));
	o->ops = &dp_ops;
	o->burst = burst > DP_BURST_MAX ? DP_BURST_MAX : burst;
	if (rte_eal_init(eal_argc, eal_argv) < 0) {
		snprintf(o->err, sizeof(o->err),
			 "DPDK initialisation failed: %s (on a machine without hugepages pass --no-huge -m 512)",
			 rte_strerror(rte_errno));
		return -1;
	}
	if (!rte_eth_dev_is_valid_port(port)) {
		if (rte_eth_dev_count_avail() == 0)
			snprintf(o->err, sizeof(o->err),
				 "no DPDK port: give one with EAL options (a NIC, --vdev=net_af_packet0,iface=IF, "
				 "--vdev=net_null0), or -w FILE");
		else
			snprintf(o->err, sizeof(o->err), "--port %u: no such DPDK port (%u available)", port,
				 rte_eth_dev_count_avail());
		rte_eal_cleanup();
		return 2;
	}
	struct rte_eth_dev_info info;
	if (rte_eth_dev_info_get(port, &info) != 0) {
		snprintf(o->err, sizeof(o->err), "port %u: cannot read its device information", port);
		return -1;
	}
	snprintf(o->name, sizeof(o->name), "%s (DPDK port %u)", info.driver_name, port);
	struct rte_eth_conf conf;
	memset(&conf, 0, sizeof(conf));
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	int rc = rte_eth_dev_configure(port, 0, 1, &conf);
	uint16_t nb_tx = 1024, nb_rx = 0;
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rx, &nb_tx);
	int socket = (int)rte_lcore_to_socket_id(rte_get_main_lcore());
	struct rte_eth_txconf txc = info.default_txconf;
	txc.offloads = conf.txmode.offloads;
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, nb_tx, (unsigned)socket, &txc);
	if (rc != 0) {
		snprintf(o->err, sizeof(o->err), "%s: cannot set up a TX queue: %s", o->name, rte_strerror(-rc));
		return -1;
	}
	struct dp *d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(o->err, sizeof(o->err), "out of memory");
		return -1;
	}
	d->port = port;
	d->pool = rte_pktmbuf_pool_create("rwreplay", DP_MBUFS, 256, 0, DP_DATA_ROOM, socket);
	if (!d->pool) {
		snprintf(o->err, sizeof(o->err), "cannot make %u mbufs: %s (EAL -m sets the memory)", DP_MBUFS,
			 rte_strerror(rte_errno));
		free(d);
		return -1;
	}
	o->priv = d;
	uint16_t mtu = 0;
	o->max_frame = rte_eth_dev_get_mtu(port, &mtu) == 0 && mtu ? (uint32_t)mtu + 14 : 9014;
	/* net_pcap and net_null have no wire: any frame the mbuf holds */
	if (strcmp(info.driver_name, "net_pcap") == 0 || strcmp(info.driver_name, "net_null") == 0)
		o->max_frame = DP_DATA_ROOM - RTE_PKTMBUF_HEADROOM - 4;
	rc = rte_eth_dev_start(port);
	if (rc != 0) {
		snprintf(o->err, sizeof(o->err), "%s: cannot start: %s", o->name, rte_strerror(-rc));
		return -1;
	}
	return 0;
}
