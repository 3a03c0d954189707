/* SPDX-License-Identifier: BSD-3-Clause */
/* What a replay did: counters, the final text on stderr, the JSON summary. */
#ifndef RWREPLAY_STATS_H
#define RWREPLAY_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "pace.h"
#include "rocewire/rewrite.h"

enum rp_skip {
	RP_SKIP_FILTERED = 0,   /* a filter left it out */
	RP_SKIP_CUT,            /* cut by the capture's snapshot length: never sent half */
	RP_SKIP_NO_ETHERNET,    /* native InfiniBand: no Ethernet form */
	RP_SKIP_TOO_LONG,       /* longer than the output's MTU */
	RP_SKIP_REWRITE,        /* a rewrite did not fit (no room for a tag, ...) */
	RP_SKIP_COUNT,
};

struct rp_stats {
	uint64_t read, sent, bytes;
	uint64_t loops;             /* passes over the file completed */
	uint64_t skipped[RP_SKIP_COUNT];
	uint64_t rewritten;         /* frames a rewrite changed */
	uint64_t rewrites[RW_RW_KIND_COUNT];
	uint64_t icrc_updated, icrc_fixed, icrc_corrupted, ipv4_csum;
	uint64_t undecodable;       /* RoCE frames that do not decode: sent with the Ethernet rewrites only */
	uint64_t full_waits;
	struct rp_pace_err pace;
	double wall_s;
	double cpu_s;               /* user + system time of the replay loop */
	int interrupted;
	int error;                  /* the replay stopped on a bad record */
};

struct rp_run_info {
	const char *input, *output, *timing;
	double rate;                /* --multiplier, --pps or --mbps */
};

const char *rp_skip_name(enum rp_skip s);
void rp_stats_text(FILE *f, const struct rp_run_info *ri, const struct rp_stats *s);
/* 0, or -1 with errno; "-" is stdout. Written whole (renamed into place). */
int rp_stats_json(const char *path, const struct rp_run_info *ri, const struct rp_stats *s);

#endif
