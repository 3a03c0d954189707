/* SPDX-License-Identifier: BSD-3-Clause */
/* Pacing and its measured error. */
#include "pace.h"

#include <time.h>

uint64_t rp_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleeps end up to ~60 us late on this kind of VM: sleep until this much
 * before the time, then spin. */
#define SPIN_NS 100000u

void rp_wait_until(uint64_t t, const volatile int *stop)
{
	uint64_t now = rp_now_ns();
	while (now < t && !*stop) {
		if (t - now > SPIN_NS) {
			uint64_t until = t - SPIN_NS;
			/* at most 100 ms at a time, so that a signal is seen */
			if (until - now > 100000000u)
				until = now + 100000000u;
			struct timespec ts = {(time_t)(until / 1000000000u), (long)(until % 1000000000u)};
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
		now = rp_now_ns();
	}
}

static unsigned bucket_of(uint64_t v)
{
	if (v < 16)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned sub = (unsigned)(v >> (msb - 4)) & 15u;
	unsigned b = (msb - 3) * 16 + sub;
	return b < RP_ERR_BUCKETS ? b : RP_ERR_BUCKETS - 1;
}

static uint64_t bucket_top(unsigned b)
{
	if (b < 16)
		return b;
	unsigned msb = b / 16 + 3, sub = b % 16;
	return ((uint64_t)(16 + sub + 1) << (msb - 4)) - 1;
}

void rp_pace_err_add(struct rp_pace_err *e, uint64_t err_ns)
{
	e->n++;
	e->sum_ns += (double)err_ns;
	if (err_ns > e->max_ns)
		e->max_ns = err_ns;
	e->bucket[bucket_of(err_ns)]++;
}

uint64_t rp_pace_err_quantile(const struct rp_pace_err *e, double q)
{
	if (!e->n)
		return 0;
	uint64_t want = (uint64_t)(q * (double)e->n + 0.999999), seen = 0;
	if (want == 0)
		want = 1;
	for (unsigned b = 0; b < RP_ERR_BUCKETS; b++) {
		seen += e->bucket[b];
		if (seen >= want) {
			uint64_t top = bucket_top(b);
			return top < e->max_ns ? top : e->max_ns;
		}
	}
	return e->max_ns;
}
