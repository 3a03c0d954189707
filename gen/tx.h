/* SPDX-License-Identifier: BSD-3-Clause */
/* The TX layer: one worker per TX queue turns its shard's model packets into
 * frames in mbufs and sends them in bursts.
 *
 * Frames come from proto's templates (rocewire/tmpl.h): per packet only the
 * header (one or two cache lines) and the tail (pad, ICRC, one cache line)
 * are written. The payload is the flow's pattern, written into every mbuf
 * of the pool once when the pool is made, at a fixed place in the buffer:
 * the header is put right before it (data_off moves), so the payload bytes
 * are never touched again; the ICRC comes from the template's by the changed
 * header bytes alone, whatever the payload length. */
#ifndef RWGEN_TX_H
#define RWGEN_TX_H

#include <stdint.h>
#include "answer.h"
#include "flow.h"

struct rte_mempool;
struct gen_frames;
struct gen_ls_frames;
struct gen_truth_out;

/* What the main lcore reads from a worker (written only by the worker,
 * with atomic stores). */
struct gen_tx_counters {
	uint64_t packets, bytes;
	uint64_t bursts, tx_full;  /* tx_full: bursts the port took only in part */
	uint64_t unsent;           /* made but freed at a stop the port did not drain */
};

struct gen_worker {
	/* set up by main */
	const struct gen_scenario *sc;
	uint32_t shard, nshards;
	uint16_t port, queue;
	uint32_t burst;
	int pace_real;
	int record_times;            /* keep each packet's model time (pcap restamping) */
	int rx;                      /* closed loop: read CNPs and PFC from the port */
	int responder;               /* --role responder: run gen_responder_run */
	volatile int *stop;
	struct rte_mempool **pools;  /* one per distinct payload pattern */
	uint32_t *flow_pool;         /* flow index -> pools[] index */
	const uint8_t **patterns;    /* the pattern bytes each pool's mbufs hold */
	struct gen_truth_out *truth; /* --truth-jsonl (one queue): written after each burst */

	/* the worker's own */
	struct gen_model *model;
	struct gen_frames *frames;   /* templates (tx_frame.h) */
	struct gen_ls_frames *ls;    /* the lockstep stream's frames; NULL: the model's clock */
	uint16_t ls_off;             /* where its frames start in an mbuf's buffer */
	struct gen_tx_counters ctr;
	uint64_t *times;
	uint64_t n_times, cap_times;
	int times_failed;
	int truth_failed;            /* a truth record lost (memory) or not written */
	int truth_no_lockstep;       /* the lockstep stream would have sent: the clock did, for the truth */
	uint64_t last_ns;            /* model time of the last packet made (any kind) */
	int done;                    /* atomic: the worker has returned */
	double end_s;                /* CLOCK_MONOTONIC when it finished (before done) */
	int error;
	char errmsg[256];

	/* status snapshots: main sets snap_req, the worker copies its flows'
	 * model counters into snap and sets snap_done */
	int snap_req, snap_done;
	struct gen_flow_stats *snap; /* per flow of the scenario */
	struct gen_np_counters npc;  /* the responder role's (atomic stores) */
};

/* The layout of a generator mbuf's buffer: the payload starts here. */
#define GEN_PAYLOAD_AT 320u
/* Room after the payload: the longest tail (3 pad + 4 ICRC + Ethernet
 * padding of a frame below 60 bytes). */
#define GEN_TAIL_MAX 72u
#define GEN_PAYLOAD_MAX 4096u
#define GEN_MBUF_DATA (GEN_PAYLOAD_AT + GEN_PAYLOAD_MAX + GEN_TAIL_MAX)

/* A pool whose every mbuf holds pattern at GEN_PAYLOAD_AT. NULL on failure
 * (rte_errno). pattern holds GEN_PAYLOAD_MAX + GEN_TAIL_MAX bytes. */
struct rte_mempool *gen_pool_create(const char *name, unsigned n, int socket, const uint8_t *pattern);

/* CLOCK_MONOTONIC in seconds: the run's wall time is measured on it. */
double gen_now_s(void);

/* Prepares a worker (model, caches, source ports); 0 or -1 with errmsg. */
int gen_worker_init(struct gen_worker *w);
void gen_worker_fini(struct gen_worker *w);
/* The lcore function (rte_eal_remote_launch). */
int gen_worker_run(void *arg);
/* The lcore function of --role responder (rx_np.c). */
int gen_responder_run(void *arg);

#endif
