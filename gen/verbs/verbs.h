/* SPDX-License-Identifier: BSD-3-Clause */
/* libibverbs resources of one rocewire-verbs endpoint: device, port, GID,
 * protection domain, CQs, QPs, buffers, and the QP state machine
 * (RESET -> INIT -> RTR -> RTS, IBA 10.3.1). The client/server/fixed-peer
 * flows that use them are in endpoint.c. */
#ifndef RWV_VERBS_H
#define RWV_VERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "opts.h"
#include "run.h"

/* wr_id = qp index << 40 | iteration (or receive number) */
#define RWV_WRID(q, i) ((uint64_t)(q) << 40 | (uint64_t)(i))
#define RWV_WRID_QP(w) ((int)((w) >> 40))
#define RWV_WRID_ITER(w) ((w) & ((1ull << 40) - 1))

struct rwv_qp {
	struct ibv_qp *qp;
	uint8_t *buf;            /* slots * slot_size: the run's buffer */
	size_t buflen;
	struct ibv_mr *mr;
	uint8_t *rbuf;           /* responder's receive ring (SEND, SEND_IMM) */
	size_t rbuflen;
	uint32_t rslots, rstride;
	struct ibv_mr *rmr;
	struct ibv_ah *ah;       /* UD: address handle of the peer */

	/* requester */
	uint64_t next_iter, outstanding;
	bool dead;               /* an error completion: stop posting */
	uint64_t *post_ns;       /* per slot: when its work request was posted */
	uint64_t atomic_post;    /* A(qp, next_iter): CAS compare value */
	uint64_t atomic_seen;    /* A(qp, i) expected back from completion i */
	uint64_t atomic_seen_iter;
	/* responder */
	uint64_t recv_expect;    /* the next iteration a receive should carry */
};

struct rwv_ep {
	struct rwv_opts o;       /* the run's options (the server's merged copy) */
	struct rwv_run *run;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *chan; /* event-driven CQ, or NULL to busy-poll */
	struct ibv_cq *scq, *rcq;
	struct ibv_device_attr dattr;
	struct ibv_port_attr pattr;
	union ibv_gid gid;
	int gid_index;
	struct rwv_qp *q;
	int nqp;
	uint64_t *lat;           /* latency samples, ns */
	uint64_t nlat, caplat;
	uint64_t first_ns, last_ns;
};

/* Every function returning int here returns 0, or -1 after writing a
 * one-line reason to run->error (these are setup errors: exit 3). */

/* Opens the device and port, picks the GID, fills the run's device fields. */
int rwv_dev_open(struct rwv_ep *ep);
/* PD, CQs, QPs in INIT, buffers and MRs, following ep->o. */
int rwv_resources(struct rwv_ep *ep, bool responder);
/* INIT -> RTR -> RTS toward the peer described by run->qp[i].remote and
 * run->remote_gid; creates the UD address handle. */
int rwv_connect_qp(struct rwv_ep *ep, int i);
/* Responder: fill the buffer (READ pattern, atomic initial value) and post the
 * first receives (unless --no-recv). */
int rwv_responder_prepare(struct rwv_ep *ep, const struct rwv_fixed_pat *fp);
void rwv_ep_destroy(struct rwv_ep *ep);

/* Requester: posts what tx_depth allows on every QP; -1 on a post failure. */
int rwv_post_sends(struct rwv_ep *ep);
/* Requester: handles one send completion at time now_ns. */
void rwv_send_completion(struct rwv_ep *ep, const struct ibv_wc *wc, uint64_t now_ns);
/* Responder: handles one receive completion and reposts. */
void rwv_recv_completion(struct rwv_ep *ep, const struct ibv_wc *wc, uint64_t now_ns,
			 const struct rwv_fixed_pat *fp);
/* Responder: checks the buffer after the run (WRITE, WRITE_IMM: the last
 * iteration of each slot; atomics: the final value). ops[i] is how many
 * operations QP i completed (iters when unknown). Returns true if all match;
 * with record false nothing is counted (used to poll for completion). */
bool rwv_check_buffer(struct rwv_ep *ep, const uint64_t *ops, const struct rwv_fixed_pat *fp,
		      bool record);
/* Moves every QP to ERR and collects the flushed completions (bounded). */
void rwv_flush(struct rwv_ep *ep, bool sends, int timeout_ms);

uint64_t rwv_now_ns(void);
int rwv_mtu_bytes(enum ibv_mtu m);
enum ibv_mtu rwv_mtu_enum(int bytes);
/* The verbs name of the run's work request ("RDMA_WRITE"), or "RECV". */
const char *rwv_wr_name(enum rwv_op op, bool recv);

#endif
