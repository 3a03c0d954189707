/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency distributions: exact for the first few samples, a log-linear
 * histogram beyond (allocated then, so that the many flows of a large
 * capture that see one or two ACKs cost no histogram). */
#include <string.h>

#include "analyze_int.h"

static unsigned hist_bucket(uint64_t v)
{
	if (v < 8)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v);
	unsigned b = (e - 2) * 8 + (unsigned)((v >> (e - 3)) & 7);
	return b < RW_HIST_BUCKETS ? b : RW_HIST_BUCKETS - 1;
}

static void hist_add(struct rw_hist *h, uint64_t v)
{
	h->count++;
	h->sum_ns += v;
	if (v > h->max_ns)
		h->max_ns = v;
	h->b[hist_bucket(v)]++;
}

/* Nearest rank: the smallest value with at least q of the n samples at or
 * below it. */
static uint64_t rank_of(double q, uint64_t n)
{
	uint64_t want = (uint64_t)(q * (double)n);
	if ((double)want < q * (double)n)
		want++;
	return want < 1 ? 1 : want;
}

uint64_t rw_hist_quantile(const struct rw_hist *h, double q)
{
	if (!h->count)
		return 0;
	if (q >= 1)
		return h->max_ns;
	uint64_t want = rank_of(q, h->count), cum = 0;
	for (unsigned b = 0; b < RW_HIST_BUCKETS; b++) {
		cum += h->b[b];
		if (cum >= want) {
			uint64_t hi;
			if (b < 8) {
				hi = b;
			} else {
				unsigned e = b / 8 + 2, m = b % 8;
				hi = ((uint64_t)(9 + m) << (e - 3)) - 1;
			}
			return hi < h->max_ns ? hi : h->max_ns;
		}
	}
	return h->max_ns;
}

uint64_t rw_lat_quantile(const struct rw_lat *l, double q)
{
	if (!l->count)
		return 0;
	if (q >= 1)
		return l->max_ns;
	if (l->hist)
		return rw_hist_quantile(l->hist, q);
	/* The samples kept (all of them, or the first few when no histogram
	 * could be had), sorted. */
	uint64_t v[RW_LAT_FEW];
	unsigned n = l->count < RW_LAT_FEW ? (unsigned)l->count : RW_LAT_FEW;
	memcpy(v, l->few, n * sizeof(v[0]));
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[rank_of(q, n) - 1];
}

void lat_add(struct rw_analyzer *a, struct rw_lat *l, uint64_t v)
{
	if (l->count < RW_LAT_FEW) {
		l->few[l->count] = v;
	} else if (!l->hist) {
		l->hist = an_alloc(a, sizeof(*l->hist), 0);
		if (l->hist)
			for (unsigned i = 0; i < RW_LAT_FEW; i++)
				hist_add(l->hist, l->few[i]);
	}
	if (l->hist)
		hist_add(l->hist, v);
	l->count++;
	l->sum_ns += v;
	if (v > l->max_ns)
		l->max_ns = v;
}

void lat_release(struct rw_analyzer *a, struct rw_lat *l)
{
	if (l->hist)
		an_free(a, l->hist, sizeof(*l->hist));
	l->hist = NULL;
}
