// SPDX-License-Identifier: BSD-3-Clause
/* Port set-up (rw_dpdk.h): the one place that configures a DPDK port. */
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>

#include "rw_dpdk.h"

int rw_dpdk_port_find(struct rw_dpdk_port *p, uint16_t want, char *err, size_t n, int *usage)
{
	memset(p, 0, sizeof(*p));
	*usage = 0;
	if (want == RW_DPDK_ANY_PORT) {
		uint16_t id;
		want = RTE_MAX_ETHPORTS;
		RTE_ETH_FOREACH_DEV(id)
		{
			want = id;
			break;
		}
	}
	if (want >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port(want)) {
		unsigned avail = rte_eth_dev_count_avail();
		if (avail == 0) {
			snprintf(err, n, "no DPDK port: give one with EAL options (a NIC bound to DPDK, "
					 "--vdev=net_af_packet0,iface=IF, --vdev=net_null0)");
		} else {
			snprintf(err, n, "port %u: no such DPDK port (%u available)", want, avail);
			*usage = 1;
		}
		return -1;
	}
	p->id = want;
	int rc = rte_eth_dev_info_get(want, &p->info);
	if (rc != 0) {
		snprintf(err, n, "port %u: cannot read its device information: %s", want, rte_strerror(-rc));
		return -1;
	}
	snprintf(p->driver, sizeof(p->driver), "%s", p->info.driver_name ? p->info.driver_name : "?");
	snprintf(p->name, sizeof(p->name), "%s (port %u)", p->driver, want);
	p->no_wire = strcmp(p->driver, "net_pcap") == 0 || strcmp(p->driver, "net_null") == 0;
	int s = rte_eth_dev_socket_id(want);
	p->socket = s < 0 ? (int)rte_socket_id() : s;
	return 0;
}

int rw_dpdk_port_start(struct rw_dpdk_port *p, const struct rw_dpdk_port_cfg *cfg, char *err, size_t n)
{
	struct rte_eth_conf *conf = &p->conf;
	const struct rte_eth_dev_info *info = &p->info;
	int rc;

	memset(conf, 0, sizeof(*conf));
	if (cfg->n_tx && cfg->tx_fast_free && (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE))
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (cfg->n_rx && cfg->rx_timestamps && (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP))
		conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	if (cfg->rss && cfg->n_rx > 1 && info->flow_type_rss_offloads) {
		/* frames spread over the queues by the port's hash; ports without
		 * RSS (net_ring, net_af_packet's fanout) spread them themselves */
		conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf->rx_adv_conf.rss_conf.rss_hf = info->flow_type_rss_offloads & (RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP);
	}
	if (cfg->n_rx > info->max_rx_queues) {
		snprintf(err, n, "%s has %u RX queue%s, %u asked", p->name, info->max_rx_queues,
			 info->max_rx_queues == 1 ? "" : "s", cfg->n_rx);
		return -1;
	}
	if (cfg->n_tx > info->max_tx_queues) {
		snprintf(err, n, "%s has %u TX queue%s, %u asked", p->name, info->max_tx_queues,
			 info->max_tx_queues == 1 ? "" : "s", cfg->n_tx);
		return -1;
	}
	rc = rte_eth_dev_configure(p->id, cfg->n_rx, cfg->n_tx, conf);
	if (rc != 0 && (conf->rxmode.offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP)) {
		/* a port that lists the offload yet refuses it: do without */
		conf->rxmode.offloads &= ~RTE_ETH_RX_OFFLOAD_TIMESTAMP;
		rc = rte_eth_dev_configure(p->id, cfg->n_rx, cfg->n_tx, conf);
	}
	if (rc != 0) {
		snprintf(err, n, "%s: cannot configure %u RX and %u TX queues: %s", p->name, cfg->n_rx,
			 cfg->n_tx, rte_strerror(-rc));
		return -1;
	}
	p->rx_desc = cfg->n_rx ? cfg->rx_desc : 0;
	p->tx_desc = cfg->tx_desc;
	rte_eth_dev_adjust_nb_rx_tx_desc(p->id, &p->rx_desc, &p->tx_desc);
	for (uint16_t q = 0; q < cfg->n_rx; q++) {
		rc = rte_eth_rx_queue_setup(p->id, q, p->rx_desc, (unsigned)p->socket, NULL, cfg->rx_pool);
		if (rc != 0) {
			snprintf(err, n, "%s: RX queue %u: %s", p->name, q, rte_strerror(-rc));
			return -1;
		}
	}
	for (uint16_t q = 0; q < cfg->n_tx; q++) {
		struct rte_eth_txconf txc = info->default_txconf;
		txc.offloads = conf->txmode.offloads;
		int socket = cfg->tx_socket ? cfg->tx_socket[q] : p->socket;
		rc = rte_eth_tx_queue_setup(p->id, q, p->tx_desc, (unsigned)socket, &txc);
		if (rc != 0) {
			snprintf(err, n, "%s: TX queue %u: %s", p->name, q, rte_strerror(-rc));
			return -1;
		}
	}
	rc = rte_eth_dev_start(p->id);
	if (rc != 0) {
		snprintf(err, n, "%s: cannot start: %s", p->name, rte_strerror(-rc));
		return -1;
	}
	p->started = 1;
	if (cfg->promisc)
		rte_eth_promiscuous_enable(p->id); /* not every PMD has it: not an error */
	return 0;
}

void rw_dpdk_port_close(struct rw_dpdk_port *p)
{
	if (p->started)
		rte_eth_dev_stop(p->id);
	rte_eth_dev_close(p->id);
	p->started = 0;
}
