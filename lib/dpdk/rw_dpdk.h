/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire_dpdk: EAL start and port set-up, once for every tool that uses
 * DPDK (rocewire-gen, rocewire-replay, rocewire-cap's dpdk: source).
 *
 * EAL: the user's options, or the project's defaults for a machine without
 * hugepages or PCI devices with one net_pcap port writing a file (the
 * generator's and the replay's -w). Its start holds EAL's own messages and,
 * on failure, gives the last one as the reason in one line.
 *
 * Ports: one call configures the queues (TX mbuf fast free where the port
 * has it, RX timestamps where asked and offered, RSS over several RX
 * queues), sets up the rings and starts the port; net_pcap and net_null
 * are told apart (no wire: no pacing, any frame length). Every function
 * returns 0 or -1 with one line in err; none exits. */
#ifndef ROCEWIRE_DPDK_H
#define ROCEWIRE_DPDK_H

#include <stddef.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- EAL ------------------------------------------------------------------ */

#define RW_DPDK_MAX_ARGS 64

/* Arguments for rte_eal_init: argv[0] and the user's options, or the
 * defaults plus a net_pcap port writing tx_pcap. */
struct rw_dpdk_args {
	int argc;
	char *argv[RW_DPDK_MAX_ARGS];
	char vdev[4200];        /* --vdev=net_pcap0,tx_pcap=FILE */
};

/* The defaults: -l 0 (0-1 with two worker cores wanted and present),
 * --no-huge --no-pci --no-shconf -m MEM_MB --no-telemetry
 * --log-level=*:warning, and a net_pcap port writing tx_pcap. -1 (err) when
 * tx_pcap holds ',' or '=', which net_pcap's device string cannot carry. */
int rw_dpdk_args_pcap(struct rw_dpdk_args *a, const char *prog, const char *tx_pcap, int two_cores,
		      unsigned mem_mb, char *err, size_t n);
/* The user's options: prog, then argv[0..argc). -1 (err) beyond RW_DPDK_MAX_ARGS. */
int rw_dpdk_args_user(struct rw_dpdk_args *a, const char *prog, int argc, char **argv, char *err,
		      size_t n);

/* rte_eal_init with getopt's state saved and EAL's messages held: on
 * failure err says why (EAL's last line) and what to check. */
int rw_dpdk_eal_start(struct rw_dpdk_args *a, char *err, size_t n);

/* ---- ports ---------------------------------------------------------------- */

#define RW_DPDK_ANY_PORT UINT16_MAX

struct rw_dpdk_port_cfg {
	uint16_t n_rx;           /* RX queues (0: none) */
	uint16_t n_tx;           /* TX queues */
	uint16_t rx_desc;        /* ring sizes wanted (adjusted to the port's limits) */
	uint16_t tx_desc;
	struct rte_mempool *rx_pool; /* with n_rx */
	int rx_timestamps;       /* ask for the port's RX timestamps where it has them */
	int rss;                 /* spread RX over the queues by the port's hash (n_rx > 1) */
	int promisc;             /* promiscuous mode where the PMD has it */
	int tx_fast_free;        /* TX mbuf fast free where the port has it (one pool per
	                          * queue, every mbuf sent once) */
	const int *tx_socket;    /* per TX queue, or NULL: the port's */
};

struct rw_dpdk_port {
	uint16_t id;
	struct rte_eth_dev_info info;
	char driver[64];
	char name[96];           /* "net_pcap (port 0)" */
	int no_wire;             /* net_pcap or net_null: nothing paces it, any frame length */
	int socket;              /* the port's NUMA socket (or the caller's) */
	uint16_t rx_desc, tx_desc; /* as adjusted */
	struct rte_eth_conf conf; /* as configured (the offloads granted) */
	int started;
};

/* Finds port want (RW_DPDK_ANY_PORT: the first) and reads its device
 * information. -1 (err: no port at all, or no such port and how many
 * there are); *usage set when the port number was the mistake. */
int rw_dpdk_port_find(struct rw_dpdk_port *p, uint16_t want, char *err, size_t n, int *usage);
/* Configures, sets up the rings and starts the port. A port that lists RX
 * timestamps yet refuses them is configured again without. */
int rw_dpdk_port_start(struct rw_dpdk_port *p, const struct rw_dpdk_port_cfg *cfg, char *err, size_t n);
/* The RX timestamp offload was granted. */
static inline int rw_dpdk_port_timestamps(const struct rw_dpdk_port *p)
{
	return (p->conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP) != 0;
}
/* Stops and closes (net_pcap closes its file: it is whole). */
void rw_dpdk_port_close(struct rw_dpdk_port *p);

#ifdef __cplusplus
}
#endif

#endif
