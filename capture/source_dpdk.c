/* Live source: a DPDK port (-i dpdk:EAL-OPTIONS), for traffic that outgrows
 * the kernel's path: RX bursts go straight to the same writer, decoder and
 * report as every other source.
 *
 * Compiled into rocewire-cap-dpdk only (CAP_WITH_DPDK): rocewire-cap itself
 * links no DPDK — its start-up stays what reading a file needs — and hands
 * "-i dpdk:..." over to rocewire-cap-dpdk (main.c). The EAL options are
 * the text after "dpdk:", split at spaces: e.g.
 *   -i 'dpdk:-l 0 --no-huge -m 512 --vdev=net_pcap0,rx_pcap=in.pcap'
 * The first port EAL finds is captured, one RX queue; timestamps are the
 * wall clock at the burst (the TSC from a wall-clock reading at start);
 * drops are the port's counters: frames the port missed (imissed, "dropped
 * by interface") and frames it had no buffer for (rx_nombuf, "dropped by
 * kernel", the capture's own shortfall). */
#include "cap.h"

#ifdef CAP_WITH_DPDK
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#define DPDK_BURST 32
#define DPDK_MBUFS 16383
#define DPDK_DESC 1024
#define DPDK_MAX_ARGS 64

struct cap_dpdk {
	uint16_t port;
	int eal;                       /* EAL initialised: clean it up */
	int started;
	struct rte_mempool *pool;
	uint64_t hz, tsc0;
	struct timespec wall0;
	uint64_t missed0, nombuf0, ipackets0;
	char *args;                    /* the split EAL options */
	char *argv[DPDK_MAX_ARGS + 1];
	uint8_t linear[CAP_MAX_SNAPLEN]; /* a chained mbuf's bytes */
};

static int dpdk_err(struct cap_live *l, const char *what, int err)
{
	snprintf(l->err, sizeof(l->err), "%s: %s%s%s", l->name, what, err ? ": " : "",
		 err ? rte_strerror(err) : "");
	l->err_status = CAP_EXIT_USAGE;
	return -1;
}

int cap_dpdk_open(struct cap_live *l, const char *eal_args, const struct cap_opts *o)
{
	struct cap_dpdk *d = calloc(1, sizeof(*d));
	int argc = 0, rc;

	if (!d)
		return dpdk_err(l, "out of memory", 0);
	l->dpdk = d;
	d->args = strdup(eal_args);
	if (!d->args)
		return dpdk_err(l, "out of memory", 0);
	d->argv[argc++] = (char *)CAP_PROG;
	for (char *tok = strtok(d->args, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (argc == DPDK_MAX_ARGS)
			return dpdk_err(l, "too many EAL options (64 at most)", 0);
		d->argv[argc++] = tok;
	}
	if (argc == 1)
		return dpdk_err(l, "expected EAL options after dpdk: (e.g. 'dpdk:-l 0 --no-huge -m 512 "
				   "--vdev=net_af_packet0,iface=eth1', or a PCI port bound to DPDK)",
				0);
	/* EAL's messages go to a buffer: on failure its last line is the
	 * reason, given in our one line; else they are dropped, as the capture
	 * prints its own (a user's --log-level still applies to later ones). */
	char *logbuf = NULL;
	size_t loglen = 0;
	FILE *logf = open_memstream(&logbuf, &loglen);
	if (logf)
		rte_openlog_stream(logf);
	/* EAL also writes its fatal errors straight to stderr: hold that too
	 * while it starts (the reason is in the log buffer) */
	fflush(stderr);
	int saved_err = dup(STDERR_FILENO);
	FILE *hold = tmpfile();
	if (saved_err >= 0 && hold)
		dup2(fileno(hold), STDERR_FILENO);
	/* EAL takes over getopt's state: save it */
	int saved_optind = optind;
	optind = 1;
	rc = rte_eal_init(argc, d->argv);
	int eal_errno = rte_errno;
	optind = saved_optind;
	fflush(stderr);
	if (saved_err >= 0) {
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
	}
	if (hold)
		fclose(hold);
	rte_openlog_stream(NULL);
	if (logf)
		fclose(logf);
	if (rc < 0) {
		char why[256] = "";
		/* the last non-empty line EAL wrote */
		for (char *line = logbuf ? strtok(logbuf, "\n") : NULL; line; line = strtok(NULL, "\n"))
			if (line[0])
				snprintf(why, sizeof(why), "%s", line);
		free(logbuf);
		snprintf(l->err, sizeof(l->err),
			 "%s: DPDK initialisation failed: %s (check the EAL options; on a machine without "
			 "hugepages add --no-huge -m 512)",
			 l->name, why[0] ? why : rte_strerror(eal_errno));
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	free(logbuf);
	d->eal = 1;
	uint16_t port = RTE_MAX_ETHPORTS;
	uint16_t p;
	RTE_ETH_FOREACH_DEV(p)
	{
		port = p;
		break;
	}
	if (port == RTE_MAX_ETHPORTS)
		return dpdk_err(l, "no DPDK port (bind a NIC to DPDK, or give --vdev=...)", 0);
	d->port = port;
	int socket = rte_eth_dev_socket_id(port) < 0 ? (int)rte_socket_id() : rte_eth_dev_socket_id(port);
	/* buffers large enough for the snapshot length in one segment where
	 * they can be; longer frames come chained and are copied out */
	unsigned room = o->snaplen + RTE_PKTMBUF_HEADROOM < 9216 + RTE_PKTMBUF_HEADROOM
				? o->snaplen + RTE_PKTMBUF_HEADROOM
				: 9216 + RTE_PKTMBUF_HEADROOM;
	if (room < RTE_MBUF_DEFAULT_BUF_SIZE)
		room = RTE_MBUF_DEFAULT_BUF_SIZE;
	d->pool = rte_pktmbuf_pool_create("rwcap_rx", DPDK_MBUFS, 256, 0, (uint16_t)room, socket);
	if (!d->pool)
		return dpdk_err(l, "cannot make the receive buffers (EAL -m sets the memory)", rte_errno);
	struct rte_eth_conf conf;
	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc != 0)
		return dpdk_err(l, "cannot configure the port", -rc);
	uint16_t nrx = DPDK_DESC, ntx = 64;
	rte_eth_dev_adjust_nb_rx_tx_desc(port, &nrx, &ntx);
	rc = rte_eth_rx_queue_setup(port, 0, nrx, (unsigned)socket, NULL, d->pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, ntx, (unsigned)socket, NULL);
	if (rc != 0)
		return dpdk_err(l, "cannot set up the port's queues", -rc);
	rc = rte_eth_dev_start(port);
	if (rc != 0)
		return dpdk_err(l, "cannot start the port", -rc);
	d->started = 1;
	if (!o->no_promisc)
		rte_eth_promiscuous_enable(port); /* not every PMD has it: not an error */
	struct rte_eth_stats st;
	if (rte_eth_stats_get(port, &st) == 0) {
		d->missed0 = st.imissed;
		d->nombuf0 = st.rx_nombuf;
		d->ipackets0 = st.ipackets;
	}
	d->hz = rte_get_tsc_hz();
	d->tsc0 = rte_rdtsc();
	clock_gettime(CLOCK_REALTIME, &d->wall0);

	l->linktype = RW_LINKTYPE_ETHERNET;
	l->snaplen = o->snaplen;
	l->nano = 1;
	l->fd = -1;
	l->drops.known = 1;
	return cap_live_user_filter(l, o);
}

int cap_dpdk_dispatch(struct cap_live *l, int timeout_ms, cap_live_fn fn, void *arg)
{
	struct cap_dpdk *d = l->dpdk;
	struct rte_mbuf *mb[DPDK_BURST];
	uint64_t deadline = rte_rdtsc() + (uint64_t)timeout_ms * d->hz / 1000;
	int total = 0;

	while (!l->stop) {
		uint16_t n = rte_eth_rx_burst(d->port, 0, mb, DPDK_BURST);
		if (n == 0) {
			if (total > 0 || rte_rdtsc() >= deadline)
				break;
			rte_pause();
			continue;
		}
		/* one wall-clock time per burst, from the TSC */
		uint64_t dt = (uint64_t)((double)(rte_rdtsc() - d->tsc0) * 1e9 / (double)d->hz);
		uint64_t ns = (uint64_t)d->wall0.tv_nsec + dt;
		int64_t sec = (int64_t)d->wall0.tv_sec + (int64_t)(ns / 1000000000u);
		uint32_t nsec = (uint32_t)(ns % 1000000000u);
		for (uint16_t i = 0; i < n && !l->stop; i++) {
			struct rte_mbuf *m = mb[i];
			struct cap_record rec;
			uint32_t len = rte_pktmbuf_pkt_len(m);
			rec.caplen = len < l->snaplen ? len : l->snaplen;
			rec.wirelen = len;
			rec.data = m->nb_segs == 1 ? rte_pktmbuf_mtod(m, const uint8_t *)
						   : rte_pktmbuf_read(m, 0, rec.caplen, d->linear);
			struct pcap_pkthdr h = {.caplen = rec.caplen, .len = len};
			if (l->user_filter && pcap_offline_filter(&l->prog, &h, rec.data) == 0)
				continue;
			rec.index = ++l->index;
			rec.ts_sec = sec;
			rec.ts_nsec = nsec;
			rec.linktype = l->linktype;
			rec.src = NULL;
			rec.offset = -1;
			fn(arg, &rec);
			total++;
		}
		rte_pktmbuf_free_bulk(mb, n);
		if (total >= 4096)
			break;
	}
	return total;
}

void cap_dpdk_update_drops(struct cap_live *l)
{
	struct cap_dpdk *d = l->dpdk;
	struct rte_eth_stats st;
	if (!d || !d->started || rte_eth_stats_get(d->port, &st) != 0)
		return;
	l->drops.recv = st.ipackets - d->ipackets0 + (st.imissed - d->missed0);
	l->drops.ifdrop = st.imissed - d->missed0;
	l->drops.kernel = st.rx_nombuf - d->nombuf0;
}

void cap_dpdk_close(struct cap_live *l)
{
	struct cap_dpdk *d = l->dpdk;
	if (!d)
		return;
	if (d->started) {
		rte_eth_dev_stop(d->port);
		rte_eth_dev_close(d->port);
	}
	if (d->eal)
		rte_eal_cleanup();
	free(d->args);
	free(d);
	l->dpdk = NULL;
}

#else /* rocewire-cap without DPDK: main.c hands dpdk: over before this */

int cap_dpdk_open(struct cap_live *l, const char *eal_args, const struct cap_opts *o)
{
	(void)eal_args;
	(void)o;
	snprintf(l->err, sizeof(l->err),
		 "%s: this %s has no DPDK, and rocewire-cap-dpdk (built when DPDK is installed) was "
		 "not found next to it or in PATH",
		 l->name, CAP_PROG);
	l->err_status = CAP_EXIT_USAGE;
	return -1;
}

int cap_dpdk_dispatch(struct cap_live *l, int timeout_ms, cap_live_fn fn, void *arg)
{
	(void)l;
	(void)timeout_ms;
	(void)fn;
	(void)arg;
	return -1;
}

void cap_dpdk_update_drops(struct cap_live *l)
{
	(void)l;
}

void cap_dpdk_close(struct cap_live *l)
{
	(void)l;
}
#endif
