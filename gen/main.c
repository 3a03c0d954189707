/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-gen: protocol-correct RoCEv2 conversations through DPDK.
 *
 * main owns the process: options, the scenario, EAL, the port, the workers
 * (one per TX queue, each with its own shard of the flows), the status line,
 * signals, and what is left behind (a whole pcap, a summary). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "flow.h"
#include "opts.h"
#include "restamp.h"
#include "scenario.h"
#include "summary.h"
#include "tmpfile.h"
#include "truth.h"
#include "tx.h"
#include "rw_dpdk.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* The pcap being written under a temporary name: an error exit removes it
 * (a run leaves its file whole or none). */
static const char *g_tmp_pcap;
/* The same for the ground truth (--truth-jsonl). */
static struct gen_truth_out *g_truth;

static void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int status, const char *fmt, ...)
{
	va_list ap;

	if (g_tmp_pcap)
		unlink(g_tmp_pcap);
	if (g_truth) {
		char e[8];
		gen_truth_close(g_truth, 0, e, sizeof(e));
	}

	fputs("rocewire-gen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/* The scenario's payload patterns: one pool per distinct pattern (almost
 * always one), each pool's mbufs holding it from GEN_PAYLOAD_AT. */
struct patterns {
	uint32_t n;
	uint8_t **bytes;     /* GEN_PAYLOAD_MAX + GEN_TAIL_MAX each */
	uint32_t *flow_pool;
};

static int patterns_make(const struct gen_scenario *sc, struct patterns *p)
{
	size_t len = GEN_PAYLOAD_MAX + GEN_TAIL_MAX;

	memset(p, 0, sizeof(*p));
	p->flow_pool = calloc(sc->n_flows ? sc->n_flows : 1, sizeof(*p->flow_pool));
	p->bytes = calloc(sc->n_flows ? sc->n_flows : 1, sizeof(*p->bytes));
	if (!p->flow_pool || !p->bytes)
		return -1;
	for (uint32_t i = 0; i < sc->n_flows; i++) {
		uint8_t *b = malloc(len);
		uint32_t k;

		if (!b)
			return -1;
		gen_flow_payload(&sc->flows[i], b, (uint32_t)len);
		for (k = 0; k < p->n; k++)
			if (memcmp(p->bytes[k], b, len) == 0)
				break;
		if (k == p->n)
			p->bytes[p->n++] = b;
		else
			free(b);
		p->flow_pool[i] = k;
	}
	return 0;
}

static void patterns_free(struct patterns *p)
{
	for (uint32_t k = 0; p->bytes && k < p->n; k++)
		free(p->bytes[k]);
	free(p->bytes);
	free(p->flow_pool);
}

static void merge_stats(struct gen_flow_stats *out, struct gen_worker *w, uint32_t nw, uint32_t nflows)
{
	/* each flow lives in exactly one worker: copy from its owner */
	for (uint32_t i = 0; i < nflows; i++)
		out[i] = w[i % nw].snap[i];
}

/* Asks every running worker for a copy of its counters and waits for them
 * (a worker answers at its next burst). */
static void snapshot(struct gen_worker *w, uint32_t nw)
{
	for (uint32_t q = 0; q < nw; q++) {
		__atomic_store_n(&w[q].snap_done, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&w[q].snap_req, 1, __ATOMIC_RELEASE);
	}
	for (uint32_t q = 0; q < nw; q++) {
		for (int spin = 0; spin < 200; spin++) {
			if (__atomic_load_n(&w[q].snap_done, __ATOMIC_ACQUIRE) ||
			    __atomic_load_n(&w[q].done, __ATOMIC_ACQUIRE))
				break;
			usleep(500);
		}
	}
}

/* The worker lcores EAL was given, in order; their number. */
static uint32_t worker_lcores(unsigned *lcores)
{
	uint32_t n = 0;
	unsigned lc;

	RTE_LCORE_FOREACH_WORKER(lc) lcores[n++] = lc;
	return n;
}

/* TX queues: one per worker lcore, or the main lcore alone; one where the
 * run must keep one order (a pcap file, the closed loop, a simulated
 * switch port, the ground truth's frame numbers). */
static uint32_t queue_count(const struct gen_opts *o, const struct gen_scenario *sc,
			    const struct rw_dpdk_port *dev, uint32_t workers, int pcap_mode)
{
	uint32_t nq = o->queues ? o->queues : (workers ? workers : 1);
	if (pcap_mode && nq > 1)
		nq = 1; /* one pcap file, one writer: the model's order is the file's */
	if (sc->cc.mode == GEN_CC_CLOSED_LOOP && nq > 1) {
		if (o->queues > 1)
			die(EXIT_USAGE, "--queues %u: the closed loop runs on one queue (--queues 1)", o->queues);
		nq = 1;
	}
	if (sc->cc.mode == GEN_CC_SIMULATED && nq > 1) {
		if (o->queues > 1)
			die(EXIT_USAGE, "--queues %u: a simulated bottleneck is one switch port, run by one "
					"queue (use --queues 1, or congestion mode closed_loop)", o->queues);
		nq = 1;
	}
	if (workers && nq > workers)
		die(EXIT_USAGE, "--queues %u needs %u worker lcores; EAL has %u (-l)", nq, nq, workers);
	if (!workers && nq > 1)
		die(EXIT_USAGE, "--queues %u needs worker lcores (EAL -l with %u cores or more)", nq, nq + 1);
	if (nq > dev->info.max_tx_queues)
		die(EXIT_USAGE, "%s has %u TX queues, --queues asks %u", dev->name, dev->info.max_tx_queues, nq);
	/* frame numbers are the order one queue sent in */
	if (o->truth_jsonl && nq > 1)
		die(EXIT_USAGE, "--truth-jsonl numbers the frames one queue sends: %u queues (use --queues 1)", nq);
	return nq;
}

/* Everything one run holds, from the options to the summary. */
struct app {
	struct gen_opts o;
	struct gen_scenario sc;
	char err[512];
	int split;                 /* argv's "--", or -1: no EAL options */
	char **my_argv;            /* the options after "--" */
	char *tmp_pcap;            /* the pcap under its temporary name */
	int pcap_mode;
	struct rw_dpdk_port dev;
	unsigned lcores[RTE_MAX_LCORE];
	uint32_t workers, nq;
	int closed;                /* congestion mode closed_loop */
	struct rte_mempool *rxp;
	struct patterns pat;
	struct gen_worker *w;
	struct gen_flow_stats *cur, *prev;
	struct gen_run run;
	int exit_status;
};

/* rocewire-gen's own options, those after "--" (all of them without it).
 * 0 to go on, 1 when --help or --version answered. */
static int parse_args(struct app *a, int argc, char **argv)
{
	int my_argc = 1, rc;

	a->split = -1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			a->split = i;
			break;
		}
	a->my_argv = calloc((size_t)argc + 1, sizeof(*a->my_argv));
	if (!a->my_argv)
		die(EXIT_RUNTIME, "out of memory");
	a->my_argv[0] = argv[0];
	for (int i = a->split < 0 ? 1 : a->split + 1; i < argc; i++)
		a->my_argv[my_argc++] = argv[i];
	rc = gen_opts_parse(my_argc, a->my_argv, &a->o, a->err, sizeof(a->err));
	if (rc < 0)
		die(EXIT_USAGE, "%s", a->err);
	return rc;
}

/* --check: what the scenario runs, on stdout. */
static void scenario_print(const struct app *a)
{
	const struct gen_scenario *sc = &a->sc;
	uint64_t qps = 0;

	for (uint32_t i = 0; i < sc->n_flows; i++)
		qps += sc->flows[i].qps;
	printf("%s: scenario '%s' is valid: %u hosts, %u flows, %llu QPs, %u faults; "
	       "duration %.6f s, packet limit %llu\n",
	       a->o.scenario ? a->o.scenario : "(built-in default)", sc->name, sc->n_hosts, sc->n_flows,
	       (unsigned long long)qps, sc->n_faults, (double)sc->duration_ns / 1e9,
	       (unsigned long long)sc->packets);
}

/* The options that cannot go with this scenario: answered before DPDK starts. */
static void scenario_fits_options(const struct app *a)
{
	const struct gen_opts *o = &a->o;
	const struct gen_scenario *sc = &a->sc;

	if (sc->duration_ns == 0 && sc->packets == 0) {
		/* say so when nothing but a signal will end the run */
		int bounded = sc->n_flows > 0;
		for (uint32_t i = 0; i < sc->n_flows; i++)
			if (!sc->flows[i].messages && !sc->flows[i].stop_ns)
				bounded = 0;
		if (!bounded)
			fprintf(stderr, "rocewire-gen: no duration, packet, message or stop limit: running "
					"until SIGINT\n");
	}
	/* The closed loop needs the network: a responder role, or a scenario
	 * in that mode, with no port named is an error before anything starts. */
	if (o->role == GEN_ROLE_RESPONDER && sc->cc.mode != GEN_CC_CLOSED_LOOP)
		die(EXIT_USAGE, "--role responder: %s has no congestion section in mode closed_loop",
		    o->scenario ? o->scenario : "the built-in scenario");
	if (sc->cc.mode == GEN_CC_CLOSED_LOOP && a->split <= 1)
		die(EXIT_USAGE, "congestion mode closed_loop needs a real port on the network "
				"(EAL --vdev=net_af_packet0,iface=IF, or a NIC), not a pcap file");
	/* The truth is the model's: where a real network or a real peer
	 * decides what is lost and answered, the model does not know it. */
	if (o->truth_jsonl && o->role == GEN_ROLE_RESPONDER)
		die(EXIT_USAGE, "--truth-jsonl: --role responder answers a real requester; the model makes no packets "
				"of its own to tell the truth of");
	if (o->truth_jsonl && sc->cc.mode == GEN_CC_CLOSED_LOOP)
		die(EXIT_USAGE, "--truth-jsonl: in congestion mode closed_loop the network decides what is lost, "
				"marked and paused, not the model");
}

/* The scenario (a file, or the built-in one) with the options' limits;
 * a bad file is answered before DPDK starts. 1 after --check. */
static int scenario_load(struct app *a)
{
	int rc;

	if (a->o.scenario)
		rc = gen_scenario_load(a->o.scenario, &a->sc, a->err, sizeof(a->err));
	else
		rc = gen_scenario_default(&a->sc) == 0 ? 0 : (snprintf(a->err, sizeof(a->err), "out of memory"), -1);
	if (rc != 0)
		die(EXIT_USAGE, "%s", a->err);
	if (a->o.have_duration)
		a->sc.duration_ns = a->o.duration_ns;
	if (a->o.have_packets)
		a->sc.packets = a->o.packets;
	if (a->o.check) {
		scenario_print(a);
		return 1;
	}
	scenario_fits_options(a);
	return 0;
}

/* EAL with the user's options, or the defaults for this kind of machine
 * (no hugepages, no PCI, no shared files) and a pcap port; then the port. */
static void eal_and_port(struct app *a, char **argv)
{
	static struct rw_dpdk_args eal; /* EAL keeps pointers into it */
	int usage;

	if (a->split > 1) {
		if (rw_dpdk_args_user(&eal, argv[0], a->split - 1, argv + 1, a->err, sizeof(a->err)) != 0)
			die(EXIT_USAGE, "%s", a->err);
	} else {
		const char *out = a->o.write;
		FILE *tf;

		if (strchr(out, ',') || strchr(out, '='))
			die(EXIT_USAGE, "--write: a file name with ',' or '=' cannot be passed to net_pcap: %s", out);
		/* a new file of our own next to the final one, renamed at the end */
		tf = cap_create_temp(out, ".part", &a->tmp_pcap);
		if (!tf)
			die(EXIT_RUNTIME, "%s: %s", out, strerror(errno));
		fclose(tf);
		g_tmp_pcap = a->tmp_pcap;
		a->pcap_mode = 1;
		if (rw_dpdk_args_pcap(&eal, argv[0], a->tmp_pcap, 1, 512, a->err, sizeof(a->err)) != 0)
			die(EXIT_USAGE, "--write: %s", a->err);
	}
	if (rw_dpdk_eal_start(&eal, a->err, sizeof(a->err)) != 0)
		die(EXIT_RUNTIME, "%s", a->err);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (rw_dpdk_port_find(&a->dev, (uint16_t)a->o.port, a->err, sizeof(a->err), &usage) != 0) {
		if (!usage)
			die(EXIT_RUNTIME, "%s, or no EAL options to write a pcap", a->err);
		die(EXIT_USAGE, "--%s", a->err);
	}
}

/* Worker q's mbuf pools, one per payload pattern, on its socket. */
static void worker_pools(struct app *a, struct gen_worker *x, uint32_t q, int socket)
{
	x->pools = calloc(a->pat.n, sizeof(*x->pools));
	if (!x->pools)
		die(EXIT_RUNTIME, "out of memory");
	for (uint32_t k = 0; k < a->pat.n; k++) {
		char name[RTE_MEMPOOL_NAMESIZE];

		snprintf(name, sizeof(name), "rwg%u_%u", q & 0xFFFu, k & 0xFFFFu);
		x->pools[k] = gen_pool_create(name, (unsigned)a->o.mbufs, socket, a->pat.bytes[k]);
		if (!x->pools[k])
			die(EXIT_RUNTIME, "cannot make %llu mbufs for queue %u: %s (EAL -m sets the memory)",
			    (unsigned long long)a->o.mbufs, q, rte_strerror(rte_errno));
	}
}

/* One worker per TX queue, each with its shard of the flows and its pools;
 * tx_socket[q] gets queue q's socket. */
static void workers_make(struct app *a, int *tx_socket)
{
	const struct gen_opts *o = &a->o;
	int pace_real = a->closed || o->pace == GEN_PACE_REAL || (o->pace == GEN_PACE_AUTO && !a->dev.no_wire);

	for (uint32_t q = 0; q < a->nq; q++) {
		struct gen_worker *x = &a->w[q];
		int socket = (int)rte_lcore_to_socket_id(a->workers ? a->lcores[q] : rte_get_main_lcore());

		tx_socket[q] = socket;
		x->sc = &a->sc;
		x->shard = q;
		x->nshards = a->nq;
		x->port = a->dev.id;
		x->queue = (uint16_t)q;
		x->burst = o->burst;
		x->pace_real = pace_real;
		x->stop = &stop_flag;
		x->record_times = a->pcap_mode && !pace_real;
		x->rx = a->closed && o->role != GEN_ROLE_RESPONDER;
		x->responder = o->role == GEN_ROLE_RESPONDER;
		x->patterns = (const uint8_t **)a->pat.bytes;
		x->flow_pool = a->pat.flow_pool;
		x->truth = g_truth;
		worker_pools(a, x, q, socket);
		if (gen_worker_init(x) != 0)
			die(EXIT_RUNTIME, "%s", x->errmsg);
		if (x->truth_no_lockstep)
			fprintf(stderr, "rocewire-gen: --truth-jsonl: queue %u sends by the model's clock, not in "
					"lockstep (the same packets, more slowly)\n",
				q);
	}
}

/* The queues, the workers, the ground truth file and the started port. */
static void workers_and_port_start(struct app *a)
{
	a->workers = worker_lcores(a->lcores);
	a->nq = queue_count(&a->o, &a->sc, &a->dev, a->workers, a->pcap_mode);
	if (a->o.truth_jsonl && !(g_truth = gen_truth_open(a->o.truth_jsonl, &a->sc, a->err, sizeof(a->err))))
		die(EXIT_RUNTIME, "%s", a->err);
	/* The closed loop reads CNPs and PFC frames (requester) or requests
	 * (responder) from the port: one RX queue. */
	a->closed = a->sc.cc.mode == GEN_CC_CLOSED_LOOP;
	if (a->closed) {
		a->rxp = rte_pktmbuf_pool_create("rwg_rx", 4095, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, a->dev.socket);
		if (!a->rxp)
			die(EXIT_RUNTIME, "cannot make the RX mbufs: %s (EAL -m sets the memory)", rte_strerror(rte_errno));
	}
	if (patterns_make(&a->sc, &a->pat) != 0)
		die(EXIT_RUNTIME, "out of memory");
	a->w = calloc(a->nq, sizeof(*a->w));
	int *tx_socket = calloc(a->nq, sizeof(*tx_socket));
	if (!a->w || !tx_socket)
		die(EXIT_RUNTIME, "out of memory");
	workers_make(a, tx_socket);
	struct rw_dpdk_port_cfg pc = {
		.n_rx = a->closed ? 1 : 0,
		.n_tx = (uint16_t)a->nq,
		.rx_desc = 1024,
		.tx_desc = 1024,
		.rx_pool = a->rxp,
		.tx_fast_free = 1,
		.tx_socket = tx_socket,
	};
	if (rw_dpdk_port_start(&a->dev, &pc, a->err, sizeof(a->err)) != 0)
		die(EXIT_RUNTIME, "%s", a->err);
	free(tx_socket);
}

/* Watches the worker lcores until all are done, with a status line every
 * second when asked for. */
static void run_watch(struct app *a, int status, double t_start)
{
	struct gen_worker *w = a->w;
	double t_last = t_start;
	uint64_t p_last = 0, b_last = 0;

	for (;;) {
		int all_done = 1;

		for (uint32_t q = 0; q < a->nq; q++)
			if (!__atomic_load_n(&w[q].done, __ATOMIC_ACQUIRE))
				all_done = 0;
		if (all_done)
			break;
		usleep(20000);
		double t = gen_now_s();
		if (!status || t - t_last < 1.0)
			continue;
		uint64_t p = 0, b = 0;

		snapshot(w, a->nq);
		merge_stats(a->cur, w, a->nq, a->sc.n_flows);
		for (uint32_t q = 0; q < a->nq; q++) {
			p += __atomic_load_n(&w[q].ctr.packets, __ATOMIC_RELAXED);
			b += __atomic_load_n(&w[q].ctr.bytes, __ATOMIC_RELAXED);
		}
		fprintf(stderr, "\r%7.1fs ", t - t_start);
		gen_status_line(stderr, &a->run, t - t_last, p - p_last, b - b_last, a->prev);
		fputs("\033[K", stderr);
		memcpy(a->prev, a->cur, sizeof(*a->cur) * a->sc.n_flows);
		p_last = p;
		b_last = b;
		t_last = t;
	}
}

/* The run: on the worker lcores (the main one watching), or on the main
 * lcore alone; the port closed after it, the pcap whole. */
static void run(struct app *a)
{
	struct gen_worker *w = a->w;
	struct gen_run *r = &a->run;

	a->cur = calloc(a->sc.n_flows + 1, sizeof(*a->cur));
	a->prev = calloc(a->sc.n_flows + 1, sizeof(*a->prev));
	if (!a->cur || !a->prev)
		die(EXIT_RUNTIME, "out of memory");
	r->sc = &a->sc;
	r->scenario_path = a->o.scenario;
	r->port_name = a->dev.name;
	r->queues = a->nq;
	for (uint32_t q = 0; q < a->nq; q++)
		r->lockstep_queues += w[q].ls != NULL;
	r->flows = a->cur;

	int status = a->o.status < 0 ? isatty(STDERR_FILENO) : a->o.status;
	double t_start = gen_now_s();
	if (a->workers) {
		for (uint32_t q = 0; q < a->nq; q++)
			rte_eal_remote_launch(w[q].responder ? gen_responder_run : gen_worker_run, &w[q], a->lcores[q]);
		run_watch(a, status, t_start);
		rte_eal_mp_wait_lcore();
		if (status)
			fputc('\n', stderr);
	} else if (w[0].responder) {
		gen_responder_run(&w[0]);
	} else {
		gen_worker_run(&w[0]);
	}
	double t_end = gen_now_s();
	/* The main lcore looks every 20 ms: the run ended when its last
	 * worker did (a short run's rate would be off by up to 20 ms). */
	if (a->workers) {
		double last = 0;
		for (uint32_t q = 0; q < a->nq; q++)
			if (w[q].end_s > last)
				last = w[q].end_s;
		if (last > t_start && last < t_end)
			t_end = last;
	}
	rw_dpdk_port_close(&a->dev); /* net_pcap closes its dumper: the file is whole */
	r->wall_s = t_end - t_start;
}

/* The workers' counters into the summary; a worker's error fails the run. */
static void run_collect(struct app *a)
{
	struct gen_run *r = &a->run;

	merge_stats(a->cur, a->w, a->nq, a->sc.n_flows);
	r->interrupted = stop_flag;
	for (uint32_t q = 0; q < a->nq; q++) {
		const struct gen_worker *x = &a->w[q];

		r->packets += x->ctr.packets;
		r->bytes += x->ctr.bytes;
		r->unsent += x->ctr.unsent;
		/* the last frame of any kind: PFC frames (a storm's XON) may
		 * come long after the flows' last packets */
		if (x->last_ns > r->model_ns)
			r->model_ns = x->last_ns;
		if (x->error) {
			fprintf(stderr, "rocewire-gen: queue %u: %s\n", q, x->errmsg);
			a->exit_status = EXIT_RUNTIME;
		}
	}
	if (a->w[0].responder)
		r->np = &a->w[0].npc;
	/* a connection a real responder did not make (flow_cm.c): the QP
	 * failed before its first request */
	for (uint32_t i = 0; i < a->sc.n_flows; i++)
		if (a->cur[i].cm_failed)
			fprintf(stderr, "rocewire-gen: flow %s: %llu QP%s failed: no REP to %u REQs (%.3f ms apart), "
					"a REJ, or a REP for another QP than dst_qpn\n",
				a->sc.flows[i].name, (unsigned long long)a->cur[i].cm_failed,
				a->cur[i].cm_failed == 1 ? "" : "s", GEN_CM_MAX_RETRIES + 1,
				(double)gen_cm_timeout_ns(&a->sc.flows[i]) / 1e6);
}

static void failed(struct app *a, const char *what)
{
	fprintf(stderr, "rocewire-gen: %s\n", what);
	a->exit_status = EXIT_RUNTIME;
}

/* The pcap: its times the model's when it was written faster, then renamed
 * into place; removed when the run failed. */
static void finish_pcap(struct app *a)
{
	const struct gen_worker *w0 = &a->w[0];

	if (w0->record_times && w0->times_failed) {
		fprintf(stderr, "rocewire-gen: %s: out of memory for the model's times; the "
				"file keeps the times it was written at\n",
			a->o.write);
	} else if (w0->record_times) {
		struct timespec rt;
		clock_gettime(CLOCK_REALTIME, &rt);
		uint64_t base = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
		if (gen_restamp(a->tmp_pcap, w0->times, w0->n_times, base, a->err, sizeof(a->err)) != 0)
			failed(a, a->err);
	}
	if (a->exit_status == 0 && rename(a->tmp_pcap, a->o.write) != 0) {
		fprintf(stderr, "rocewire-gen: %s: %s\n", a->o.write, strerror(errno));
		a->exit_status = EXIT_RUNTIME;
	}
	if (a->exit_status != 0)
		unlink(a->tmp_pcap);
	else
		a->run.output = a->o.write;
}

/* The ground truth: kept when whole and the run succeeded, else removed. */
static void finish_truth(struct app *a)
{
	int commit = a->exit_status == 0;

	if (a->w[0].truth_failed) {
		fprintf(stderr, "rocewire-gen: --truth-jsonl: %s: out of memory or not written; removed\n",
			a->o.truth_jsonl);
		a->exit_status = EXIT_RUNTIME;
		commit = 0;
	}
	if (gen_truth_close(g_truth, commit, a->err, sizeof(a->err)) != 0)
		failed(a, a->err);
	else if (commit)
		a->run.truth = a->o.truth_jsonl;
	g_truth = NULL;
}

/* What the run leaves: the simulated run's files (fct, pfc, qlen), the
 * pcap, the truth (each whole, or none), the summaries. */
static void finish_files(struct app *a)
{
	if (a->w[0].model) {
		if (gen_model_cc_finish(a->w[0].model, a->exit_status == 0, a->err, sizeof(a->err)) != 0)
			failed(a, a->err);
		a->run.cc = gen_model_cc_stats(a->w[0].model);
	}
	if (a->pcap_mode)
		finish_pcap(a);
	if (g_truth)
		finish_truth(a);
	if (!a->o.quiet)
		gen_summary_text(stderr, &a->run);
	if (a->o.summary_json && gen_summary_json(a->o.summary_json, &a->run) != 0) {
		fprintf(stderr, "rocewire-gen: %s: %s\n", a->o.summary_json, strerror(errno));
		a->exit_status = EXIT_RUNTIME;
	}
}

/* The workers, EAL, and the memory of the run. */
static void app_free(struct app *a)
{
	for (uint32_t q = 0; a->w && q < a->nq; q++) {
		gen_worker_fini(&a->w[q]);
		free(a->w[q].pools);
	}
	rte_eal_cleanup();
	free(a->w);
	free(a->cur);
	free(a->prev);
	patterns_free(&a->pat);
	free(a->tmp_pcap);
	free(a->my_argv);
	gen_scenario_free(&a->sc);
}

int main(int argc, char **argv)
{
	/* static: reachable until exit, so an error exit through die() (which
	 * never returns here to free it) is no leak to LeakSanitizer */
	static struct app a;

	if (parse_args(&a, argc, argv) == 1) {
		free(a.my_argv);
		return 0;
	}
	if (scenario_load(&a) == 1) {
		gen_scenario_free(&a.sc);
		free(a.my_argv);
		return 0;
	}
	eal_and_port(&a, argv);
	workers_and_port_start(&a);
	run(&a);
	run_collect(&a);
	finish_files(&a);
	app_free(&a);
	return a.exit_status;
}
