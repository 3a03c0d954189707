/* SPDX-License-Identifier: BSD-3-Clause */
/* Pacing: the intended send time of each frame, waiting for it, and the
 * error between intended and actual send times (mean, p99, max). */
#ifndef RWREPLAY_PACE_H
#define RWREPLAY_PACE_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t rp_now_ns(void);
/* Returns at t (CLOCK_MONOTONIC ns) or just after: sleeps while the wait is
 * long, then spins, since a sleep overshoots by tens of microseconds. */
void rp_wait_until(uint64_t t, const volatile int *stop);

/* Send-time errors in log-linear buckets (16 per power of two): a p99
 * within 1/16 of its value, in a fixed 1 KiB of counters. */
#define RP_ERR_BUCKETS (64 * 16)
struct rp_pace_err {
	uint64_t n;
	double sum_ns;
	uint64_t max_ns;
	uint32_t bucket[RP_ERR_BUCKETS];
};
void rp_pace_err_add(struct rp_pace_err *e, uint64_t err_ns);
/* The q-quantile (0..1) in ns: the upper edge of its bucket. */
uint64_t rp_pace_err_quantile(const struct rp_pace_err *e, double q);

#endif
