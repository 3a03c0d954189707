/* SPDX-License-Identifier: BSD-3-Clause */
/* The responder role's per-frame work (--role responder, answer.c), apart
 * from the port: one frame in (bytes, its length on the wire, the time),
 * answers out through a callback that builds and sends them. rx_np.c reads
 * the port and sends through DPDK; tests/fuzz/fuzz_gen_rx.c feeds it any
 * bytes. No DPDK types here, and no allocation after gen_rsp_new(): the
 * state is one record per QP of the scenario's flows and at most one owed
 * CNP per QP, whatever arrives. */
#ifndef RWGEN_ANSWER_H
#define RWGEN_ANSWER_H

#include <stddef.h>
#include <stdint.h>
#include "scenario.h"

struct rw_packet;

/* What the port brought and what the notification points did (written only
 * by the responder's worker, with atomic stores; the main lcore reads
 * them). The ign_* counters are frames read and answered with nothing, by
 * reason (README-congestion.md, "What the responder ignores"). */
struct gen_np_counters {
	uint64_t received;         /* frames read from the port */
	uint64_t requests;         /* RoCEv2 requests to a QP of the scenario's receivers */
	uint64_t ce;               /* of them, marked CE */
	uint64_t bad_icrc;         /* dropped: a NIC drops them */
	uint64_t cnps;             /* CNPs sent */
	uint64_t acks;             /* RC ACKs and NAKs sent */
	uint64_t read_responses;   /* RDMA READ response packets sent */
	uint64_t atomic_acks;      /* atomic ACKs sent */
	uint64_t suppressed;       /* CE marks the pacing gave no CNP */
	uint64_t cm_received;      /* CM MADs to QP 1 read from the port */
	uint64_t cm_reps;          /* REPs sent (a REQ sent again gets its REP again) */
	uint64_t cm_dreps;         /* DREPs sent */
	uint64_t cm_rejects;       /* REJs sent: REQs no RC flow with `cm` of the scenario stands for */
	uint64_t ign_not_roce;     /* not a RoCEv2 packet, or one proto cannot decode (truncated, malformed) */
	uint64_t ign_not_request;  /* a response, ACK or CNP: the responder role answers requests only */
	uint64_t ign_unknown_qp;   /* a request to a QP no flow's receiver has */
	uint64_t ign_past_nak;     /* requests past a hole after its NAK (IBA 9.7.5: one NAK per hole) */
	uint64_t ign_read_length;  /* READs longer than the flow's largest message (no memory region here) */
	uint64_t ign_stale_atomic; /* duplicate atomics older than the kept results: no answer */
	uint64_t ign_cm;           /* CM messages that need no answer (RTU, a DREQ for no connection, ...) */
	uint64_t unsent;           /* answers the send callback refused (no mbuf, the port full) */
};

/* Builds the frame p describes and sends it: 0, or -1 when it could not. */
typedef int (*gen_rsp_send_fn)(void *ctx, const struct rw_packet *p);

struct gen_rsp;

/* The responder for sc's flows: patterns[flow_pool[flow]] are the payload
 * bytes of flow's READ responses (GEN_PAYLOAD_MAX of them), ctr the
 * counters it adds to. NULL when out of memory. */
struct gen_rsp *gen_rsp_new(const struct gen_scenario *sc, const uint8_t *const *patterns,
			    const uint32_t *flow_pool, gen_rsp_send_fn send, void *ctx, struct gen_np_counters *ctr);
void gen_rsp_free(struct gen_rsp *r);
/* Sends the CNPs owed by now (their pacing interval ended). */
void gen_rsp_tick(struct gen_rsp *r, uint64_t now);
/* One frame read from the port (caplen bytes of a frame of wirelen) at now
 * (ns from the start, the notification point's clock). */
void gen_rsp_frame(struct gen_rsp *r, const uint8_t *frame, size_t caplen, size_t wirelen, uint64_t now);
/* The state's size: CNPs owed now, and the most there can be (the QPs). */
void gen_rsp_bounds(const struct gen_rsp *r, uint32_t *owed, uint32_t *cap);

#endif
