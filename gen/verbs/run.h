/* SPDX-License-Identifier: BSD-3-Clause */
/* What a run of rocewire-verbs learned, as plain data: filled by endpoint.c,
 * written by record.c. No libibverbs types, so the record writer is tested
 * without a device. */
#ifndef RWV_RUN_H
#define RWV_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "opts.h"

#define RWV_WC_STATUS_MAX 32 /* enum ibv_wc_status has 23 values today */
#define RWV_ERRORS_KEPT 8    /* completion errors listed one by one */

struct rwv_wc_error {
	uint64_t iter;        /* iteration of the work request */
	const char *opcode;   /* "RDMA_WRITE", "RECV", ... */
	int status;           /* enum ibv_wc_status */
	uint32_t vendor_err;
};

struct rwv_side {
	uint32_t qpn;
	uint32_t psn;  /* the first PSN this side sends (its sq_psn) */
	uint32_t rkey;
	uint64_t addr; /* the buffer the peer may access */
	uint64_t len;
	uint32_t qkey;
	uint16_t lid;
};

struct rwv_qp_rec {
	int index;
	struct rwv_side local, remote;

	/* requester: messages and bytes of the run's operation */
	uint64_t posted, posted_bytes;
	uint64_t completed, completed_bytes; /* successful completions */
	uint64_t failed;                     /* completions with an error status */
	/* responder: receive work requests */
	uint64_t recv_posted, recv_completed, recv_bytes, recv_failed;

	uint64_t wc_by_status[RWV_WC_STATUS_MAX];
	uint64_t wc_total;
	struct rwv_wc_error errors[RWV_ERRORS_KEPT];
	int nerrors;

	/* data check of what this side received or read back */
	uint64_t checked, mismatched, missing, out_of_order;
	bool have_mismatch;
	const char *mm_what;     /* "data", "length", "imm", "value" (atomics) */
	uint64_t mm_iter, mm_offset;
	uint64_t mm_want, mm_got; /* the byte, length, ImmDt or 64-bit value */
};

struct rwv_latency {
	uint64_t samples;
	double min_us, p50_us, p99_us, max_us, mean_us;
};

struct rwv_run {
	const struct rwv_opts *opts;
	const char *mode;     /* "tcp" or "fixed-peer" */
	char start_time[40];  /* UTC, ISO 8601 */
	double duration_s;

	char device[64];
	int port;
	char link_layer[16];
	int active_mtu;       /* of this port, bytes */
	int gid_index;
	char gid_type[32];
	char local_gid[64], remote_gid[64];
	char remote_mac[24];
	char peer[80];        /* the TCP peer */

	/* the run as agreed (the server's copy comes from the client) */
	enum rwv_transport transport;
	enum rwv_op op;
	uint32_t size, iters;
	int qps, mtu, tx_depth, rx_depth;
	uint32_t inline_size;
	uint32_t slots, slot_size;
	int tclass, sl, hop_limit;
	int retry_count, timeout_exp, rnr_retry, min_rnr_timer;
	int max_rd_atomic, max_dest_rd_atomic;
	bool check;           /* pattern filled and checked */
	bool bad_rkey, no_recv, peer_no_recv;

	struct rwv_qp_rec *qp;
	int nqp;

	double elapsed_s;     /* first post to last completion */
	struct rwv_latency lat;

	const char *data_check;      /* "pass", "fail", "incomplete", "skipped", "not-run" */
	char peer_data_check[64];    /* the peer's verdict, "" when unknown */
	bool interrupted;
	bool cq_timeout;
	int exit_status;
	char error[512];             /* the first problem, for people; "" when none */
};

/* Percentiles of n latency samples in ns (sorted in place). */
void rwv_latency_compute(uint64_t *ns, uint64_t n, struct rwv_latency *out);

/* Packets and PSNs a capture should show for the successful completions of
 * one QP, absent retransmissions (README "Checking a capture"). */
struct rwv_wire {
	uint64_t request_packets;  /* requester to responder */
	uint64_t response_packets; /* READ responses and atomic ACKs; ACKs of
				      SEND/WRITE are coalesced and not counted */
	uint64_t psns;             /* PSNs the requester consumed */
	uint32_t next_psn;         /* (first PSN + psns) mod 2^24 */
};
void rwv_wire_expect(const struct rwv_run *r, const struct rwv_qp_rec *q, struct rwv_wire *w);

#endif
