/* SPDX-License-Identifier: BSD-3-Clause */
/* Live source: a DPDK port (-i dpdk:EAL-OPTIONS), for traffic that outgrows
 * the kernel's path: RX bursts go straight to the same writer, decoder and
 * report as every other source.
 *
 * Compiled into rocewire-cap-dpdk only (CAP_WITH_DPDK): rocewire-cap itself
 * links no DPDK — its start-up stays what reading a file needs — and hands
 * "-i dpdk:..." over to rocewire-cap-dpdk (main.c). The EAL options are
 * the text after "dpdk:", split at spaces: e.g.
 *   -i 'dpdk:-l 0 --no-huge -m 512 --vdev=net_pcap0,rx_pcap=in.pcap'
 * The first port EAL finds is captured. Drops are the port's counters:
 * frames the port missed (imissed, "dropped by interface") and frames it had
 * no buffer for (rx_nombuf, "dropped by kernel", the capture's own
 * shortfall), and per queue q_ipackets/q_errors.
 *
 * Queues. One (the default): the main lcore polls it and hands each frame to
 * the common path (main.c: writer, decoder, printers, report). With
 * --rx-queues N the queues are spread over EAL's lcores and each lcore
 * writes, decodes and counts its own queues' frames into per-queue files
 * and counters, sharing nothing per packet but the -c ticket; the main
 * lcore keeps the clock, signals and drops, and polls its share. A merged
 * file would need the lcores to hand frames to one writer in time order,
 * which holds the fastest queue back to the slowest: per-queue files are
 * what lets N lcores run at N times one lcore's rate (mergecap can merge
 * them afterwards).
 *
 * Timestamps: the port's RX timestamps (the dynamic mbuf field) where it
 * offers the offload and rte_eth_read_clock reads its clock, converted by
 * the clock's rate measured against the wall clock at start; net_pcap's,
 * which are its input file's in microseconds; else the TSC at each burst,
 * from a wall-clock reading at start. The closing line says which. */
#include "cap.h"
#include "fmt.h"

/* rte_eth_read_clock() is still experimental in DPDK 22.11 */
#define ALLOW_EXPERIMENTAL_API 1
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_pause.h>

#include "rw_dpdk.h"

#define DPDK_BURST 32
#define DPDK_MBUFS 16383
#define DPDK_DESC 1024

/* How long the port's clock is watched against the wall clock to learn its
 * rate (rte_eth_read_clock gives ticks, not nanoseconds). */
#define DPDK_CLOCK_CAL_MS 100

enum dpdk_clock {
	DPDK_CLOCK_TSC,  /* the TSC at each burst, from a wall-clock reading at start */
	DPDK_CLOCK_PORT, /* the port's RX timestamps, its clock read by rte_eth_read_clock */
	DPDK_CLOCK_PCAP, /* net_pcap: the input file's own timestamps (microseconds) */
};

/* One RX queue: its own writer, counters and decode scratch, touched by
 * the one lcore that polls it (and by the main lcore only before the
 * workers start and after they have stopped). */
struct dpdk_queue {
	uint16_t id;
	unsigned lcore;
	struct cap_dpdk *d;
	struct cap_live *l;
	struct cap_opts wopts;  /* the capture's options with this queue's -w name */
	char *wname;
	struct cap_writer w;
	int have_w;
	int failed;             /* its writer failed: w.err says why */
	struct cap_stats stats;
	struct cap_drops drops; /* written into its last pcapng statistics block */
	uint64_t hw_ts, sw_ts;  /* packets stamped by the port / by the TSC */
	uint64_t next_tick;     /* TSC of the next once-a-second writer tick */
	struct rw_packet pkt;
	uint8_t linear[CAP_MAX_SNAPLEN]; /* a chained mbuf's bytes */
};

struct cap_dpdk {
	uint16_t port;
	int eal;                       /* EAL initialised: clean it up */
	int started;
	struct rte_mempool *pool;
	uint64_t hz, tsc0;
	struct timespec wall0;
	uint64_t missed0, nombuf0, ipackets0;
	uint64_t q_ipackets0[RTE_ETHDEV_QUEUE_STAT_CNTRS], q_errors0[RTE_ETHDEV_QUEUE_STAT_CNTRS];
	char driver[64];
	char *args;                    /* the split EAL options */
	struct rw_dpdk_args eal_args;  /* EAL keeps pointers into them */
	struct rw_dpdk_port dev;

	uint16_t nq, ntxq;
	struct dpdk_queue **q;
	int multi;                     /* nq > 1: a file per queue, polled by lcores */
	uint16_t main_q[CAP_DPDK_MAX_QUEUES]; /* the queues the main lcore polls */
	unsigned n_main_q;
	int launched;                  /* workers running: wait for them */
	atomic_int halt;               /* the workers stop */
	atomic_uint_fast64_t claimed;  /* packets taken, for -c over all queues */
	uint64_t count;
	const struct cap_ctx *ctx;

	enum dpdk_clock clock;
	int ts_off;                    /* the mbuf's dynamic timestamp field, or -1 */
	uint64_t ts_flag;
	uint64_t port_c0;              /* the port's clock at wall_ns0 */
	int64_t wall_ns0;
	double ns_per_tick;

	/* ROCEWIRE_CAP_DPDK_FEED (tests): frames sent on the port's TX queues */
	pcap_t *feed;
	uint64_t fed;
	struct rte_mbuf *pending[DPDK_BURST];
	unsigned npending;
};

static int dpdk_err(struct cap_live *l, const char *what, int err)
{
	snprintf(l->err, sizeof(l->err), "%s: %s%s%s", l->name, what, err ? ": " : "",
		 err ? rte_strerror(err) : "");
	l->err_status = CAP_EXIT_USAGE;
	return -1;
}

static int64_t timespec_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* The port's clock against the wall clock: its rate from two readings
 * DPDK_CLOCK_CAL_MS apart, and the pair at the second reading as origin.
 * Gives up (TSC clock) when the port cannot read its clock. */
static void calibrate_port_clock(struct cap_dpdk *d)
{
	uint64_t c0, c1;
	struct timespec t0, t1;

	if (rte_eth_read_clock(d->port, &c0) != 0)
		return;
	clock_gettime(CLOCK_REALTIME, &t0);
	rte_delay_us_sleep(DPDK_CLOCK_CAL_MS * 1000);
	if (rte_eth_read_clock(d->port, &c1) != 0)
		return;
	clock_gettime(CLOCK_REALTIME, &t1);
	if (c1 <= c0)
		return;
	d->ns_per_tick = (double)(timespec_ns(&t1) - timespec_ns(&t0)) / (double)(c1 - c0);
	d->port_c0 = c1;
	d->wall_ns0 = timespec_ns(&t1);
	d->clock = DPDK_CLOCK_PORT;
}

/* After start: the field the PMD fills, and how to read its values. The
 * pcap PMD stamps each frame with its record's time in the file (in
 * microseconds since the epoch), with or without the offload. */
static void find_timestamps(struct cap_dpdk *d, const struct rte_eth_conf *conf)
{
	int off;
	uint64_t flag_bit;
	int wanted = (conf->rxmode.offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP) != 0;
	int is_pcap = strcmp(d->driver, "net_pcap") == 0;

	if (!wanted && !is_pcap)
		return;
	off = rte_mbuf_dynfield_lookup(RTE_MBUF_DYNFIELD_TIMESTAMP_NAME, NULL);
	int bit = rte_mbuf_dynflag_lookup(RTE_MBUF_DYNFLAG_RX_TIMESTAMP_NAME, NULL);
	if (off < 0 || bit < 0)
		return;
	flag_bit = 1ull << bit;
	d->ts_off = off;
	d->ts_flag = flag_bit;
	if (is_pcap)
		d->clock = DPDK_CLOCK_PCAP;
	else
		calibrate_port_clock(d);
	if (d->clock == DPDK_CLOCK_TSC)
		d->ts_off = -1;
}

/* A frame's time: the port's stamp where it gave one, else the burst's
 * TSC time (burst_ns). */
static inline int64_t frame_ns(const struct cap_dpdk *d, const struct rte_mbuf *m, int64_t burst_ns,
			       uint64_t *hw, uint64_t *sw)
{
	if (d->ts_off >= 0 && (m->ol_flags & d->ts_flag)) {
		uint64_t t = *RTE_MBUF_DYNFIELD(m, d->ts_off, const rte_mbuf_timestamp_t *);
		(*hw)++;
		if (d->clock == DPDK_CLOCK_PCAP)
			return (int64_t)t * 1000;
		return d->wall_ns0 + (int64_t)((double)(int64_t)(t - d->port_c0) * d->ns_per_tick);
	}
	(*sw)++;
	return burst_ns;
}

static inline int64_t tsc_ns(const struct cap_dpdk *d)
{
	uint64_t dt = (uint64_t)((double)(rte_rdtsc() - d->tsc0) * 1e9 / (double)d->hz);
	return timespec_ns(&d->wall0) + (int64_t)dt;
}

static inline void fill_ts(struct cap_record *r, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	r->ts_sec = ns / 1000000000;
	r->ts_nsec = (uint32_t)(ns % 1000000000);
}

/* FILE with ".qN" before its .pcap/.pcapng extension, else at its end. */
static char *queue_file_name(const char *file, unsigned q)
{
	size_t n = strlen(file), stem = n;
	char *out = malloc(n + 16);

	if (!out)
		return NULL;
	if (n >= 7 && strcasecmp(file + n - 7, ".pcapng") == 0)
		stem = n - 7;
	else if (n >= 5 && strcasecmp(file + n - 5, ".pcap") == 0)
		stem = n - 5;
	snprintf(out, n + 16, "%.*s.q%u%s", (int)stem, file, q, file + stem);
	return out;
}

/* ROCEWIRE_CAP_DPDK_FEED=FILE, for the tests: the frames of FILE are sent
 * on the port's TX queues in turn as the capture runs. A net_ring port
 * returns what is sent on TX queue i on RX queue i, and only its own
 * process can reach its rings (no hugepages: no secondary process), so
 * this is the one way to put frames into a net_ring capture. */
static int feed_open(struct cap_live *l, struct cap_dpdk *d)
{
	const char *f = getenv("ROCEWIRE_CAP_DPDK_FEED");
	char errbuf[PCAP_ERRBUF_SIZE];

	if (!f || !f[0])
		return 0;
	d->feed = pcap_open_offline(f, errbuf);
	if (!d->feed) {
		snprintf(l->err, sizeof(l->err), "%s: ROCEWIRE_CAP_DPDK_FEED: %s", l->name, errbuf);
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	return 0;
}

/* Sends up to a burst of the feed; frames a full TX ring refuses wait. */
static void feed_some(struct cap_dpdk *d)
{
	while (d->npending < DPDK_BURST && d->feed) {
		struct pcap_pkthdr *h;
		const u_char *data;
		if (pcap_next_ex(d->feed, &h, &data) != 1) {
			pcap_close(d->feed);
			d->feed = NULL;
			break;
		}
		struct rte_mbuf *m = rte_pktmbuf_alloc(d->pool);
		if (!m)
			break;
		char *p = rte_pktmbuf_append(m, (uint16_t)h->caplen);
		if (!p) {
			rte_pktmbuf_free(m);
			continue;
		}
		memcpy(p, data, h->caplen);
		d->pending[d->npending++] = m;
	}
	/* frame i of the file goes to queue i mod the TX queues, in order */
	unsigned sent = 0;
	while (sent < d->npending) {
		uint16_t q = (uint16_t)(d->fed % d->ntxq);
		if (rte_eth_tx_burst(d->port, q, &d->pending[sent], 1) != 1)
			break;
		sent++;
		d->fed++;
	}
	memmove(d->pending, d->pending + sent, (d->npending - sent) * sizeof(d->pending[0]));
	d->npending -= sent;
}

static int eal_start(struct cap_live *l, struct cap_dpdk *d, const char *eal_args)
{
	char *tok[RW_DPDK_MAX_ARGS];
	int n = 0;
	char err[512];

	d->args = strdup(eal_args);
	if (!d->args)
		return dpdk_err(l, "out of memory", 0);
	for (char *t = strtok(d->args, " \t"); t; t = strtok(NULL, " \t")) {
		if (n == RW_DPDK_MAX_ARGS - 1)
			return dpdk_err(l, "too many EAL options (63 at most)", 0);
		tok[n++] = t;
	}
	if (n == 0)
		return dpdk_err(l, "expected EAL options after dpdk: (e.g. 'dpdk:-l 0 --no-huge -m 512 "
				   "--vdev=net_af_packet0,iface=eth1', or a PCI port bound to DPDK)",
				0);
	if (rw_dpdk_args_user(&d->eal_args, CAP_PROG, n, tok, err, sizeof(err)) != 0 ||
	    rw_dpdk_eal_start(&d->eal_args, err, sizeof(err)) != 0) {
		snprintf(l->err, sizeof(l->err), "%s: %s", l->name, err);
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	d->eal = 1;
	return 0;
}

/* The queues spread over the lcores EAL was given, workers first: with
 * -l 0-1 and two queues, the worker polls queue 0 and the main lcore
 * queue 1 between its other duties (the clock, signals, drops). */
static void assign_lcores(struct cap_dpdk *d)
{
	unsigned lcores[RTE_MAX_LCORE], n = 0, w;

	RTE_LCORE_FOREACH_WORKER(w)
	lcores[n++] = w;
	lcores[n++] = rte_get_main_lcore();
	for (uint16_t q = 0; q < d->nq; q++) {
		d->q[q]->lcore = lcores[q % n];
		if (d->q[q]->lcore == rte_get_main_lcore())
			d->main_q[d->n_main_q++] = q;
	}
}

static int cap_dpdk_open(struct cap_live *l, const char *eal_args, const struct cap_opts *o)
{
	struct cap_dpdk *d = calloc(1, sizeof(*d));

	if (!d)
		return dpdk_err(l, "out of memory", 0);
	l->dpdk = d;
	d->ts_off = -1;
	if (eal_start(l, d, eal_args) != 0)
		return -1;
	char err[512];
	int usage;
	if (rw_dpdk_port_find(&d->dev, RW_DPDK_ANY_PORT, err, sizeof(err), &usage) != 0)
		return dpdk_err(l, err, 0);
	uint16_t port = d->dev.id;
	d->port = port;
	const struct rte_eth_dev_info *info = &d->dev.info;
	snprintf(d->driver, sizeof(d->driver), "%s", d->dev.driver);
	d->nq = (uint16_t)(o->rx_queues ? o->rx_queues : 1);
	d->multi = d->nq > 1;
	if (d->nq > info->max_rx_queues) {
		snprintf(l->err, sizeof(l->err),
			 "%s: --rx-queues %u: the port (%s) has at most %u RX queue%s", l->name,
			 (unsigned)d->nq, d->driver, (unsigned)info->max_rx_queues,
			 info->max_rx_queues == 1 ? "" : "s");
		l->err_status = CAP_EXIT_USAGE;
		return -1;
	}
	d->ntxq = info->max_tx_queues == 0 ? 0 : d->nq < info->max_tx_queues ? d->nq : info->max_tx_queues;
	if (d->ntxq == 0)
		d->ntxq = 1;
	d->q = calloc(d->nq, sizeof(*d->q));
	if (!d->q)
		return dpdk_err(l, "out of memory", 0);
	for (uint16_t q = 0; q < d->nq; q++) {
		d->q[q] = calloc(1, sizeof(*d->q[q]));
		if (!d->q[q])
			return dpdk_err(l, "out of memory", 0);
		d->q[q]->id = q;
		d->q[q]->d = d;
		d->q[q]->l = l;
	}
	assign_lcores(d);

	int socket = d->dev.socket;
	/* buffers large enough for the snapshot length in one segment where
	 * they can be; longer frames come chained and are copied out */
	unsigned room = o->snaplen + RTE_PKTMBUF_HEADROOM < 9216 + RTE_PKTMBUF_HEADROOM
				? o->snaplen + RTE_PKTMBUF_HEADROOM
				: 9216 + RTE_PKTMBUF_HEADROOM;
	if (room < RTE_MBUF_DEFAULT_BUF_SIZE)
		room = RTE_MBUF_DEFAULT_BUF_SIZE;
	/* every RX ring full, a burst in flight per queue, and the caches */
	unsigned mbufs = (unsigned)d->nq * (DPDK_DESC + 2 * DPDK_BURST) + 256u * rte_lcore_count();
	if (mbufs < DPDK_MBUFS)
		mbufs = DPDK_MBUFS;
	d->pool = rte_pktmbuf_pool_create("rwcap_rx", mbufs, 256, 0, (uint16_t)room, socket);
	if (!d->pool)
		return dpdk_err(l, "cannot make the receive buffers (EAL -m sets the memory)", rte_errno);
	d->ts_off = -1;
	d->clock = DPDK_CLOCK_TSC;
	struct rw_dpdk_port_cfg pc = {
		.n_rx = d->nq,
		.n_tx = d->ntxq,
		.rx_desc = DPDK_DESC,
		.tx_desc = 64,
		.rx_pool = d->pool,
		.rx_timestamps = 1,
		.rss = d->multi,
		.promisc = !o->no_promisc,
	};
	if (rw_dpdk_port_start(&d->dev, &pc, err, sizeof(err)) != 0)
		return dpdk_err(l, err, 0);
	d->started = 1;
	find_timestamps(d, &d->dev.conf);
	struct rte_eth_stats st;
	if (rte_eth_stats_get(port, &st) == 0) {
		d->missed0 = st.imissed;
		d->nombuf0 = st.rx_nombuf;
		d->ipackets0 = st.ipackets;
		memcpy(d->q_ipackets0, st.q_ipackets, sizeof(d->q_ipackets0));
		memcpy(d->q_errors0, st.q_errors, sizeof(d->q_errors0));
	}
	d->hz = rte_get_tsc_hz();
	d->tsc0 = rte_rdtsc();
	clock_gettime(CLOCK_REALTIME, &d->wall0);
	if (feed_open(l, d) != 0)
		return -1;

	l->linktype = RW_LINKTYPE_ETHERNET;
	l->snaplen = o->snaplen;
	l->nano = 1;
	l->fd = -1;
	l->drops.known = 1;
	return cap_live_user_filter(l, o);
}

/* ---- one queue, one file ------------------------------------------------- */

static int cap_dpdk_multi(const struct cap_live *l)
{
	return l->dpdk && l->dpdk->multi;
}

static void stop_all(struct cap_dpdk *d)
{
	atomic_store_explicit(&d->halt, 1, memory_order_relaxed);
}

/* The record of mbuf m (its bytes up to the snapshot length, made linear in
 * q->linear when it is chained); 0 when the user filter (RDMA-style, run
 * here) rejects it. Times and numbers are the caller's. */
static int mbuf_record(const struct cap_live *l, struct dpdk_queue *q, struct rte_mbuf *m,
		       struct cap_record *rec)
{
	uint32_t len = rte_pktmbuf_pkt_len(m);
	rec->caplen = len < l->snaplen ? len : l->snaplen;
	rec->wirelen = len;
	rec->data = m->nb_segs == 1 ? rte_pktmbuf_mtod(m, const uint8_t *)
				    : rte_pktmbuf_read(m, 0, rec->caplen, q->linear);
	struct pcap_pkthdr h = {.caplen = rec->caplen, .len = len};
	return !(l->user_filter && pcap_offline_filter(&l->prog, &h, rec->data) == 0);
}

/* One burst of queue q into its file, decoded and its ICRC checked into
 * its own counters. Returns the frames that passed the filter. */
static unsigned poll_queue(struct dpdk_queue *q)
{
	struct cap_dpdk *d = q->d;
	struct cap_live *l = q->l;
	struct rte_mbuf *mb[DPDK_BURST];
	unsigned taken = 0;
	uint16_t n = rte_eth_rx_burst(d->port, q->id, mb, DPDK_BURST);

	if (n == 0)
		return 0;
	int64_t burst_ns = tsc_ns(d);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = mb[i];
		struct cap_record rec;
		if (q->failed || !mbuf_record(l, q, m, &rec))
			continue;
		/* -c over all queues: each packet takes a number; the one that
		 * takes the last stops every lcore */
		uint64_t nth = d->count ? atomic_fetch_add_explicit(&d->claimed, 1, memory_order_relaxed) : 0;
		if (d->count && nth >= d->count) {
			stop_all(d);
			continue;
		}
		fill_ts(&rec, frame_ns(d, m, burst_ns, &q->hw_ts, &q->sw_ts));
		rec.index = q->stats.packets + 1;
		rec.linktype = l->linktype;
		rec.src = NULL;
		rec.offset = -1;
		if (cap_writer_write(&q->w, &rec) != 0) {
			q->failed = 1;
			stop_all(d);
			continue;
		}
		rw_packet_decode(&q->wopts.cfg, rec.linktype, rec.data, rec.caplen, rec.wirelen, &q->pkt);
		cap_stats_add(&q->stats, &q->pkt, &rec);
		taken++;
		if (d->count && nth + 1 == d->count)
			stop_all(d);
	}
	rte_pktmbuf_free_bulk(mb, n);
	return taken;
}

/* Once a second per queue: the writer's flush and -G rotation. */
static void tick_queue(struct dpdk_queue *q, uint64_t now)
{
	if (now < q->next_tick)
		return;
	q->next_tick = now + q->d->hz;
	if (!q->failed && cap_writer_tick(&q->w) != 0) {
		q->failed = 1;
		stop_all(q->d);
	}
}

static int worker_main(void *arg)
{
	struct cap_dpdk *d = arg;
	unsigned me = rte_lcore_id();

	while (!atomic_load_explicit(&d->halt, memory_order_relaxed)) {
		unsigned got = 0;
		uint64_t now = rte_rdtsc();
		for (uint16_t i = 0; i < d->nq; i++) {
			if (d->q[i]->lcore != me)
				continue;
			got += poll_queue(d->q[i]);
			tick_queue(d->q[i], now);
		}
		if (got == 0)
			rte_pause();
	}
	return 0;
}

static int cap_dpdk_queues_start(struct cap_live *l, const struct cap_opts *o, const struct cap_ctx *c)
{
	struct cap_dpdk *d = l->dpdk;

	d->count = o->count;
	d->ctx = c;
	for (uint16_t i = 0; i < d->nq; i++) {
		struct dpdk_queue *q = d->q[i];
		q->wopts = *o;
		q->wname = queue_file_name(o->write_file, i);
		if (!q->wname)
			return dpdk_err(l, "out of memory", 0);
		q->wopts.write_file = q->wname;
		struct cap_writer_cfg wc = cap_writer_cfg_of(o, q->wname);
		if (cap_writer_open(&q->w, &wc, l->linktype, l->snaplen, l->nano, l->name) != 0) {
			snprintf(l->err, sizeof(l->err), "%.767s", q->w.err);
			l->err_status = CAP_EXIT_USAGE;
			return -1;
		}
		q->have_w = 1;
		q->next_tick = rte_rdtsc() + d->hz;
	}
	unsigned w;
	RTE_LCORE_FOREACH_WORKER(w)
	{
		int mine = 0;
		for (uint16_t i = 0; i < d->nq; i++)
			mine |= d->q[i]->lcore == w;
		if (!mine)
			continue;
		if (rte_eal_remote_launch(worker_main, d, w) != 0) {
			stop_all(d);
			return dpdk_err(l, "cannot start a worker lcore", 0);
		}
		d->launched = 1;
	}
	return 0;
}

static int queue_failed(struct cap_live *l)
{
	struct cap_dpdk *d = l->dpdk;
	for (uint16_t i = 0; i < d->nq; i++) {
		if (d->q[i]->failed) {
			snprintf(l->err, sizeof(l->err), "%.767s",
				 d->q[i]->w.err[0] ? d->q[i]->w.err : "cannot write a queue's file");
			l->err_status = CAP_EXIT_USAGE;
			return 1;
		}
	}
	return 0;
}

/* The main lcore's turn: its own queues (if any) and the feed, until the
 * timeout; the workers' writer failures and -c seen from here. */
static int dispatch_multi(struct cap_live *l, int timeout_ms)
{
	struct cap_dpdk *d = l->dpdk;
	uint64_t deadline = rte_rdtsc() + (uint64_t)timeout_ms * d->hz / 1000;
	int total = 0;

	while (!l->stop) {
		unsigned got = 0;
		uint64_t now = rte_rdtsc();
		if (d->feed || d->npending)
			feed_some(d);
		for (unsigned i = 0; i < d->n_main_q; i++) {
			got += poll_queue(d->q[d->main_q[i]]);
			tick_queue(d->q[d->main_q[i]], now);
		}
		total += (int)got;
		if (atomic_load_explicit(&d->halt, memory_order_relaxed)) {
			if (queue_failed(l))
				return -1;
			l->stop = 1; /* -c reached */
			break;
		}
		if (now >= deadline || total >= 4096)
			break;
		if (got == 0) {
			if (d->n_main_q == 0 && !d->feed && !d->npending)
				rte_delay_us_sleep(1000);
			else
				rte_pause();
		}
	}
	return total;
}

static void merge_stats(struct cap_stats *to, const struct cap_stats *s)
{
	to->packets += s->packets;
	cap_stats_merge(to, s);
}

static int cap_dpdk_queues_finish(struct cap_live *l, struct cap_ctx *c, const char *shown)
{
	struct cap_dpdk *d = l->dpdk;
	struct rte_eth_stats st;
	int have_st, failed = 0;
	char name[CAP_ESC_SIZE(4096)];

	stop_all(d);
	if (d->launched)
		rte_eal_mp_wait_lcore();
	d->launched = 0;
	have_st = rte_eth_stats_get(d->port, &st) == 0;
	for (uint16_t i = 0; i < d->nq; i++) {
		struct dpdk_queue *q = d->q[i];
		int per_q = have_st && i < RTE_ETHDEV_QUEUE_STAT_CNTRS;
		if (per_q) {
			q->drops.known = 1;
			q->drops.recv = st.q_ipackets[i] - d->q_ipackets0[i];
			q->drops.kernel = st.q_errors[i] - d->q_errors0[i];
			q->w.drops = &q->drops;
		}
		if (!q->have_w)
			continue;
		if (cap_writer_close(&q->w) != 0 || q->failed) {
			char line[CAP_ESC_SIZE(sizeof(q->w.err))];
			fprintf(stderr, "%s\n",
				cap_esc(line, sizeof(line),
					q->w.err[0] ? q->w.err : "cannot write a queue's file"));
			failed = 1;
		} else {
			fprintf(stderr, "%s: queue %u (lcore %u): wrote %" PRIu64 " packets to %s", CAP_PROG,
				(unsigned)i, q->lcore, q->w.total_packets,
				cap_esc(name, sizeof(name), q->w.files == 1 ? q->w.first_name : q->w.name));
			if (q->w.files > 1)
				fprintf(stderr, " (%u files from %s)", q->w.files,
					cap_esc(name, sizeof(name), q->w.first_name));
			if (per_q)
				fprintf(stderr, "; the port counted %" PRIu64 " received, %" PRIu64 " errors",
					q->drops.recv, q->drops.kernel);
			fputc('\n', stderr);
		}
		q->have_w = 0;
		merge_stats(&c->stats, &q->stats);
	}
	(void)shown;
	if (c->stats.decode_errors || c->stats.icrc[RW_CRC_BAD] || c->stats.vcrc[RW_CRC_BAD])
		cap_set_status(c, CAP_EXIT_PROBLEM);
	return failed ? -1 : 0;
}

/* ---- one queue, the common path ------------------------------------------ */

static int cap_dpdk_dispatch(struct cap_live *l, int timeout_ms, cap_live_fn fn, void *arg)
{
	struct cap_dpdk *d = l->dpdk;
	struct rte_mbuf *mb[DPDK_BURST];
	uint64_t deadline = rte_rdtsc() + (uint64_t)timeout_ms * d->hz / 1000;
	int total = 0;

	if (d->multi)
		return dispatch_multi(l, timeout_ms);
	struct dpdk_queue *q = d->q[0];
	while (!l->stop) {
		if (d->feed || d->npending)
			feed_some(d);
		uint16_t n = rte_eth_rx_burst(d->port, 0, mb, DPDK_BURST);
		if (n == 0) {
			if (total > 0 || rte_rdtsc() >= deadline)
				break;
			rte_pause();
			continue;
		}
		int64_t burst_ns = tsc_ns(d);
		for (uint16_t i = 0; i < n && !l->stop; i++) {
			struct rte_mbuf *m = mb[i];
			struct cap_record rec;
			if (!mbuf_record(l, q, m, &rec))
				continue;
			rec.index = ++l->index;
			fill_ts(&rec, frame_ns(d, m, burst_ns, &q->hw_ts, &q->sw_ts));
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

static void cap_dpdk_update_drops(struct cap_live *l)
{
	struct cap_dpdk *d = l->dpdk;
	struct rte_eth_stats st;
	if (!d || !d->started || rte_eth_stats_get(d->port, &st) != 0)
		return;
	l->drops.recv = st.ipackets - d->ipackets0 + (st.imissed - d->missed0);
	l->drops.ifdrop = st.imissed - d->missed0;
	l->drops.kernel = st.rx_nombuf - d->nombuf0;
}

static void cap_dpdk_summary(const struct cap_live *l, const char *shown)
{
	const struct cap_dpdk *d = l->dpdk;
	uint64_t hw = 0, sw = 0;

	if (!d || !d->q)
		return;
	for (uint16_t i = 0; i < d->nq; i++) {
		hw += d->q[i]->hw_ts;
		sw += d->q[i]->sw_ts;
	}
	fprintf(stderr, "%s: %s: port %u (%s), %u RX queue%s; timestamps: ", CAP_PROG, shown,
		(unsigned)d->port, d->driver, (unsigned)d->nq, d->nq == 1 ? "" : "s");
	if (d->clock == DPDK_CLOCK_PORT)
		fprintf(stderr, "the port's RX timestamps (its clock at %.3f MHz by rte_eth_read_clock) "
				"for %" PRIu64 " packets, the TSC at each burst for %" PRIu64 "\n",
			1e3 / d->ns_per_tick, hw, sw);
	else if (d->clock == DPDK_CLOCK_PCAP)
		fprintf(stderr, "net_pcap's, the input file's own (microseconds) for %" PRIu64
				" packets, the TSC at each burst for %" PRIu64 "\n",
			hw, sw);
	else
		fprintf(stderr, "the TSC at each burst, for all %" PRIu64 " packets (the port gives no "
				"RX timestamps it can convert to time)\n",
			sw);
}

static void cap_dpdk_close(struct cap_live *l)
{
	struct cap_dpdk *d = l->dpdk;
	if (!d)
		return;
	stop_all(d);
	if (d->launched)
		rte_eal_mp_wait_lcore();
	if (d->npending)
		rte_pktmbuf_free_bulk(d->pending, d->npending);
	if (d->feed)
		pcap_close(d->feed);
	if (d->started) {
		rw_dpdk_port_close(&d->dev);
	}
	if (d->q) {
		for (uint16_t i = 0; i < d->nq; i++) {
			if (!d->q[i])
				continue;
			if (d->q[i]->have_w)
				cap_writer_close(&d->q[i]->w);
			free(d->q[i]->wname);
			free(d->q[i]);
		}
		free(d->q);
	}
	if (d->eal)
		rte_eal_cleanup();
	free(d->args);
	free(d);
	l->dpdk = NULL;
}

const struct cap_live_ops cap_live_dpdk_ops = {
	.prefix = "dpdk:",
	.open = cap_dpdk_open,
	.dispatch = cap_dpdk_dispatch,
	.update_drops = cap_dpdk_update_drops,
	.close = cap_dpdk_close,
	.multi = cap_dpdk_multi,
	.queues_start = cap_dpdk_queues_start,
	.queues_finish = cap_dpdk_queues_finish,
	.summary = cap_dpdk_summary,
};
