/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-replay's options: one table drives parsing and --help. No DPDK
 * types, so the tool's option handling builds and runs without EAL. */
#ifndef RWREPLAY_OPTS_H
#define RWREPLAY_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "filter.h"
#include "rocewire/rewrite.h"

#define RP_MAX_LIST 64

enum rp_timing {
	RP_TIME_CAPTURED = 0, /* as captured, scaled by --multiplier */
	RP_TIME_PPS,
	RP_TIME_MBPS,
	RP_TIME_TOPSPEED,
};

struct rp_opts {
	const char *input;
	/* output: an interface (AF_PACKET), a pcap through DPDK's net_pcap, or
	 * the DPDK port the EAL options before "--" made */
	const char *iface;
	const char *write;
	int dpdk;                  /* EAL options were given (argv had "--") */
	uint16_t port;
	uint32_t burst;

	struct rw_rewrite rw;
	double corrupt_rate;       /* 0..1 */
	uint64_t seed;
	const char *target;        /* rocewire-verbs server JSON */

	enum rp_timing timing;
	double multiplier, pps, mbps;
	uint64_t loops;            /* 0: until SIGINT */
	int preload;

	/* filters; an empty list passes everything */
	uint32_t qps[RP_MAX_LIST], n_qps;
	uint8_t opcodes[RP_MAX_LIST], n_opcodes;
	uint64_t frame_first, frame_last;  /* 1-based, inclusive; 0 / UINT64_MAX */
	double time_from, time_to;         /* seconds after the first record */
	int have_time;
	int have_filter;                   /* --filter EXPR */
	struct rp_filter filter;

	const char *summary_json;
	int progress;              /* -1 auto (stderr is a terminal) */
	int quiet;
};

/* The versions of the libraries linked, for --version; set by main.c (the
 * option parser itself links none). */
extern const char *rp_version_libs;

/* Parses argv (argv[0] the program; for DPDK runs, the part after "--").
 * 0, 1 when --help or --version was answered, or -1 with one line in err. */
int rp_opts_parse(int argc, char **argv, struct rp_opts *o, char *err, size_t errlen);
void rp_usage(FILE *f);

/* Rule values, for the target file too: 0 or -1. */
int rp_parse_mac(const char *s, uint8_t mac[6]);
int rp_parse_u64(const char *s, uint64_t max, uint64_t *out);

#endif
