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

int main(int argc, char **argv)
{
	struct gen_opts o;
	struct gen_scenario sc;
	char err[512];
	int split = -1, rc;
	/* static: reachable until exit, so an error exit through die() (which
	 * never returns here to free them) is no leak to LeakSanitizer */
	static char **my_argv;
	int my_argc;
	char *tmp_pcap = NULL;
	int pcap_mode = 0;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			split = i;
			break;
		}
	my_argv = calloc((size_t)argc + 1, sizeof(*my_argv));
	if (!my_argv)
		die(EXIT_RUNTIME, "out of memory");
	my_argv[0] = argv[0];
	my_argc = 1;
	for (int i = split < 0 ? 1 : split + 1; i < argc; i++)
		my_argv[my_argc++] = argv[i];
	rc = gen_opts_parse(my_argc, my_argv, &o, err, sizeof(err));
	if (rc == 1) {
		free(my_argv);
		return 0;
	}
	if (rc < 0)
		die(EXIT_USAGE, "%s", err);

	/* The scenario first: a bad file is answered before DPDK starts. */
	if (o.scenario)
		rc = gen_scenario_load(o.scenario, &sc, err, sizeof(err));
	else
		rc = gen_scenario_default(&sc) == 0 ? 0 : (snprintf(err, sizeof(err), "out of memory"), -1);
	if (rc != 0)
		die(EXIT_USAGE, "%s", err);
	if (o.have_duration)
		sc.duration_ns = o.duration_ns;
	if (o.have_packets)
		sc.packets = o.packets;
	if (o.check) {
		uint64_t qps = 0;
		for (uint32_t i = 0; i < sc.n_flows; i++)
			qps += sc.flows[i].qps;
		printf("%s: scenario '%s' is valid: %u hosts, %u flows, %llu QPs, %u faults; "
		       "duration %.6f s, packet limit %llu\n",
		       o.scenario ? o.scenario : "(built-in default)", sc.name, sc.n_hosts, sc.n_flows,
		       (unsigned long long)qps, sc.n_faults, (double)sc.duration_ns / 1e9,
		       (unsigned long long)sc.packets);
		gen_scenario_free(&sc);
		free(my_argv);
		return 0;
	}
	if (sc.duration_ns == 0 && sc.packets == 0) {
		/* say so when nothing but a signal will end the run */
		int bounded = sc.n_flows > 0;
		for (uint32_t i = 0; i < sc.n_flows; i++)
			if (!sc.flows[i].messages && !sc.flows[i].stop_ns)
				bounded = 0;
		if (!bounded)
			fprintf(stderr, "rocewire-gen: no duration, packet, message or stop limit: running "
					"until SIGINT\n");
	}

	/* The closed loop needs the network: a responder role, or a scenario
	 * in that mode, with no port named is an error before anything starts. */
	if (o.role == GEN_ROLE_RESPONDER && sc.cc.mode != GEN_CC_CLOSED_LOOP)
		die(EXIT_USAGE, "--role responder: %s has no congestion section in mode closed_loop",
		    o.scenario ? o.scenario : "the built-in scenario");
	if (sc.cc.mode == GEN_CC_CLOSED_LOOP && split <= 1)
		die(EXIT_USAGE, "congestion mode closed_loop needs a real port on the network "
				"(EAL --vdev=net_af_packet0,iface=IF, or a NIC), not a pcap file");
	/* The truth is the model's: where a real network or a real peer
	 * decides what is lost and answered, the model does not know it. */
	if (o.truth_jsonl && o.role == GEN_ROLE_RESPONDER)
		die(EXIT_USAGE, "--truth-jsonl: --role responder answers a real requester; the model makes no packets "
				"of its own to tell the truth of");
	if (o.truth_jsonl && sc.cc.mode == GEN_CC_CLOSED_LOOP)
		die(EXIT_USAGE, "--truth-jsonl: in congestion mode closed_loop the network decides what is lost, "
				"marked and paused, not the model");

	/* EAL: the user's options, or the defaults for this kind of machine
	 * (no hugepages, no PCI, no shared files) and a pcap port. */
	static struct rw_dpdk_args eal; /* EAL keeps pointers into it */
	if (split > 1) {
		if (rw_dpdk_args_user(&eal, argv[0], split - 1, argv + 1, err, sizeof(err)) != 0)
			die(EXIT_USAGE, "%s", err);
	} else {
		FILE *tf;

		if (strchr(o.write, ',') || strchr(o.write, '='))
			die(EXIT_USAGE, "--write: a file name with ',' or '=' cannot be passed to net_pcap: %s",
			    o.write);
		/* a new file of our own next to the final one, renamed at the end */
		tf = cap_create_temp(o.write, ".part", &tmp_pcap);
		if (!tf)
			die(EXIT_RUNTIME, "%s: %s", o.write, strerror(errno));
		fclose(tf);
		g_tmp_pcap = tmp_pcap;
		pcap_mode = 1;
		if (rw_dpdk_args_pcap(&eal, argv[0], tmp_pcap, 1, 512, err, sizeof(err)) != 0)
			die(EXIT_USAGE, "--write: %s", err);
	}
	if (rw_dpdk_eal_start(&eal, err, sizeof(err)) != 0)
		die(EXIT_RUNTIME, "%s", err);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	int exit_status = 0;
	struct rw_dpdk_port dev;
	int usage;
	if (rw_dpdk_port_find(&dev, (uint16_t)o.port, err, sizeof(err), &usage) != 0) {
		if (!usage)
			die(EXIT_RUNTIME, "%s, or no EAL options to write a pcap", err);
		die(EXIT_USAGE, "--%s", err);
	}
	uint16_t port = dev.id;
	const char *port_name = dev.name;

	unsigned lcores[RTE_MAX_LCORE];
	uint32_t workers = worker_lcores(lcores);
	uint32_t nq = queue_count(&o, &sc, &dev, workers, pcap_mode);
	if (o.truth_jsonl && !(g_truth = gen_truth_open(o.truth_jsonl, &sc, err, sizeof(err))))
		die(EXIT_RUNTIME, "%s", err);

	/* The closed loop reads CNPs and PFC frames (requester) or requests
	 * (responder) from the port: one RX queue. */
	int closed = sc.cc.mode == GEN_CC_CLOSED_LOOP;
	struct rte_mempool *rxp = NULL;
	if (closed) {
		rxp = rte_pktmbuf_pool_create("rwg_rx", 4095, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, dev.socket);
		if (!rxp)
			die(EXIT_RUNTIME, "cannot make the RX mbufs: %s (EAL -m sets the memory)", rte_strerror(rte_errno));
	}

	int pace_real = closed || o.pace == GEN_PACE_REAL || (o.pace == GEN_PACE_AUTO && !dev.no_wire);

	struct patterns pat;
	if (patterns_make(&sc, &pat) != 0)
		die(EXIT_RUNTIME, "out of memory");

	struct gen_worker *w = calloc(nq, sizeof(*w));
	int *tx_socket = calloc(nq, sizeof(*tx_socket));
	if (!w || !tx_socket)
		die(EXIT_RUNTIME, "out of memory");
	for (uint32_t q = 0; q < nq; q++) {
		struct gen_worker *x = &w[q];
		int socket = (int)rte_lcore_to_socket_id(workers ? lcores[q] : rte_get_main_lcore());

		tx_socket[q] = socket;
		x->sc = &sc;
		x->shard = q;
		x->nshards = nq;
		x->port = port;
		x->queue = (uint16_t)q;
		x->burst = o.burst;
		x->pace_real = pace_real;
		x->stop = &stop_flag;
		x->record_times = pcap_mode && !pace_real;
		x->rx = closed && o.role != GEN_ROLE_RESPONDER;
		x->responder = o.role == GEN_ROLE_RESPONDER;
		x->pools = calloc(pat.n, sizeof(*x->pools));
		x->patterns = (const uint8_t **)pat.bytes;
		x->flow_pool = pat.flow_pool;
		x->truth = g_truth;
		if (!x->pools)
			die(EXIT_RUNTIME, "out of memory");
		for (uint32_t k = 0; k < pat.n; k++) {
			char name[RTE_MEMPOOL_NAMESIZE];

			snprintf(name, sizeof(name), "rwg%u_%u", q & 0xFFFu, k & 0xFFFFu);
			x->pools[k] = gen_pool_create(name, (unsigned)o.mbufs, socket, pat.bytes[k]);
			if (!x->pools[k])
				die(EXIT_RUNTIME, "cannot make %llu mbufs for queue %u: %s (EAL -m sets the "
						  "memory)",
				    (unsigned long long)o.mbufs, q, rte_strerror(rte_errno));
		}
		if (gen_worker_init(x) != 0)
			die(EXIT_RUNTIME, "%s", x->errmsg);
		if (x->truth_no_lockstep)
			fprintf(stderr, "rocewire-gen: --truth-jsonl: queue %u sends by the model's clock, not in "
					"lockstep (the same packets, more slowly)\n",
				q);
	}
	struct rw_dpdk_port_cfg pc = {
		.n_rx = closed ? 1 : 0,
		.n_tx = (uint16_t)nq,
		.rx_desc = 1024,
		.tx_desc = 1024,
		.rx_pool = rxp,
		.tx_fast_free = 1,
		.tx_socket = tx_socket,
	};
	if (rw_dpdk_port_start(&dev, &pc, err, sizeof(err)) != 0)
		die(EXIT_RUNTIME, "%s", err);
	free(tx_socket);

	struct gen_flow_stats *cur = calloc(sc.n_flows + 1, sizeof(*cur));
	struct gen_flow_stats *prev = calloc(sc.n_flows + 1, sizeof(*prev));
	if (!cur || !prev)
		die(EXIT_RUNTIME, "out of memory");
	struct gen_run run;
	memset(&run, 0, sizeof(run));
	run.sc = &sc;
	run.scenario_path = o.scenario;
	run.port_name = port_name;
	run.queues = nq;
	for (uint32_t q = 0; q < nq; q++)
		run.lockstep_queues += w[q].ls != NULL;
	run.flows = cur;

	int status = o.status < 0 ? isatty(STDERR_FILENO) : o.status;
	double t_start = gen_now_s();

	if (workers) {
		for (uint32_t q = 0; q < nq; q++)
			rte_eal_remote_launch(w[q].responder ? gen_responder_run : gen_worker_run, &w[q], lcores[q]);
		double t_last = t_start;
		uint64_t p_last = 0, b_last = 0;
		for (;;) {
			int all_done = 1;

			for (uint32_t q = 0; q < nq; q++)
				if (!__atomic_load_n(&w[q].done, __ATOMIC_ACQUIRE))
					all_done = 0;
			if (all_done)
				break;
			usleep(20000);
			double t = gen_now_s();
			if (status && t - t_last >= 1.0) {
				uint64_t p = 0, b = 0;

				snapshot(w, nq);
				merge_stats(cur, w, nq, sc.n_flows);
				for (uint32_t q = 0; q < nq; q++) {
					p += __atomic_load_n(&w[q].ctr.packets, __ATOMIC_RELAXED);
					b += __atomic_load_n(&w[q].ctr.bytes, __ATOMIC_RELAXED);
				}
				fprintf(stderr, "\r%7.1fs ", t - t_start);
				gen_status_line(stderr, &run, t - t_last, p - p_last, b - b_last, prev);
				fputs("\033[K", stderr);
				memcpy(prev, cur, sizeof(*cur) * sc.n_flows);
				p_last = p;
				b_last = b;
				t_last = t;
			}
		}
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
	if (workers) {
		double last = 0;
		for (uint32_t q = 0; q < nq; q++)
			if (w[q].end_s > last)
				last = w[q].end_s;
		if (last > t_start && last < t_end)
			t_end = last;
	}

	rw_dpdk_port_close(&dev); /* net_pcap closes its dumper: the file is whole */

	merge_stats(cur, w, nq, sc.n_flows);
	run.wall_s = t_end - t_start;
	run.interrupted = stop_flag;
	for (uint32_t q = 0; q < nq; q++) {
		run.packets += w[q].ctr.packets;
		run.bytes += w[q].ctr.bytes;
		run.unsent += w[q].ctr.unsent;
		/* the last frame of any kind: PFC frames (a storm's XON) may
		 * come long after the flows' last packets */
		if (w[q].last_ns > run.model_ns)
			run.model_ns = w[q].last_ns;
		if (w[q].error) {
			fprintf(stderr, "rocewire-gen: queue %u: %s\n", q, w[q].errmsg);
			exit_status = EXIT_RUNTIME;
		}
	}

	/* The simulated run's files (fct, pfc, qlen): whole, or none. */
	if (w[0].model) {
		int ok = exit_status == 0;
		if (gen_model_cc_finish(w[0].model, ok, err, sizeof(err)) != 0) {
			fprintf(stderr, "rocewire-gen: %s\n", err);
			exit_status = EXIT_RUNTIME;
		}
		run.cc = gen_model_cc_stats(w[0].model);
	}
	if (w[0].responder)
		run.np = &w[0].npc;
	if (pcap_mode) {
		if (w[0].record_times) {
			if (w[0].times_failed) {
				fprintf(stderr, "rocewire-gen: %s: out of memory for the model's times; the "
						"file keeps the times it was written at\n",
					o.write);
			} else {
				struct timespec rt;
				clock_gettime(CLOCK_REALTIME, &rt);
				uint64_t base = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
				if (gen_restamp(tmp_pcap, w[0].times, w[0].n_times, base, err, sizeof(err)) != 0) {
					fprintf(stderr, "rocewire-gen: %s\n", err);
					exit_status = EXIT_RUNTIME;
				}
			}
		}
		if (exit_status == 0 && rename(tmp_pcap, o.write) != 0) {
			fprintf(stderr, "rocewire-gen: %s: %s\n", o.write, strerror(errno));
			exit_status = EXIT_RUNTIME;
		}
		if (exit_status != 0)
			unlink(tmp_pcap);
		else
			run.output = o.write;
	}
	if (g_truth) {
		int commit = exit_status == 0;
		if (w[0].truth_failed) {
			fprintf(stderr, "rocewire-gen: --truth-jsonl: %s: out of memory or not written; removed\n",
				o.truth_jsonl);
			exit_status = EXIT_RUNTIME;
			commit = 0;
		}
		if (gen_truth_close(g_truth, commit, err, sizeof(err)) != 0) {
			fprintf(stderr, "rocewire-gen: %s\n", err);
			exit_status = EXIT_RUNTIME;
		} else if (commit) {
			run.truth = o.truth_jsonl;
		}
		g_truth = NULL;
	}
	if (!o.quiet)
		gen_summary_text(stderr, &run);
	if (o.summary_json && gen_summary_json(o.summary_json, &run) != 0) {
		fprintf(stderr, "rocewire-gen: %s: %s\n", o.summary_json, strerror(errno));
		exit_status = EXIT_RUNTIME;
	}
	for (uint32_t q = 0; q < nq; q++) {
		gen_worker_fini(&w[q]);
		free(w[q].pools);
	}
	rte_eal_cleanup();
	free(w);
	free(cur);
	free(prev);
	patterns_free(&pat);
	free(tmp_pcap);
	free(my_argv);
	gen_scenario_free(&sc);
	return exit_status;
}
