/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency percentiles and the packet counts a capture should show; see run.h. */
#include <stdlib.h>

#include "run.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile: the smallest sample with at least p% of the
 * samples at or below it. */
static uint64_t rank(const uint64_t *s, uint64_t n, unsigned p)
{
	uint64_t k = (n * p + 99) / 100;
	return s[k ? k - 1 : 0];
}

void rwv_latency_compute(uint64_t *ns, uint64_t n, struct rwv_latency *out)
{
	long double sum = 0;

	out->samples = n;
	if (n == 0) {
		out->min_us = out->p50_us = out->p99_us = out->max_us = out->mean_us = 0;
		return;
	}
	qsort(ns, n, sizeof(*ns), cmp_u64);
	for (uint64_t i = 0; i < n; i++)
		sum += ns[i];
	out->min_us = ns[0] / 1e3;
	out->p50_us = rank(ns, n, 50) / 1e3;
	out->p99_us = rank(ns, n, 99) / 1e3;
	out->max_us = ns[n - 1] / 1e3;
	out->mean_us = (double)(sum / n / 1e3);
}

void rwv_wire_expect(const struct rwv_run *r, const struct rwv_qp_rec *q, struct rwv_wire *w)
{
	uint64_t m = q->completed;
	uint64_t mtu = r->mtu > 0 ? (uint64_t)r->mtu : 4096;
	uint64_t segs = r->size ? (r->size + mtu - 1) / mtu : 1;

	w->request_packets = w->response_packets = w->psns = 0;
	switch (r->op) {
	case RWV_OP_SEND:
	case RWV_OP_SEND_IMM:
	case RWV_OP_WRITE:
	case RWV_OP_WRITE_IMM:
		/* IBA 9.7.4: a message is First/Middle.../Last, or Only; UD is one packet. */
		w->request_packets = r->transport == RWV_UD ? m : m * segs;
		w->psns = w->request_packets;
		break;
	case RWV_OP_READ:
		/* IBA 9.7.4.1.2: one request; the responder answers with one packet per
		 * MTU, and the request consumes one PSN per response packet. */
		w->request_packets = m;
		w->response_packets = m * segs;
		w->psns = m * segs;
		break;
	case RWV_OP_CAS:
	case RWV_OP_FADD:
		w->request_packets = m;
		w->response_packets = m; /* Atomic Acknowledge */
		w->psns = m;
		break;
	}
	w->next_psn = (uint32_t)((q->local.psn + w->psns) & 0xffffff);
}
