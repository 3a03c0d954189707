/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-gen's own options (after EAL's, past "--"). No DPDK types, so
 * the option tests run without EAL. */
#ifndef RWGEN_OPTS_H
#define RWGEN_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum gen_pace {
	GEN_PACE_AUTO = 0, /* real time on a real port; model time on net_pcap/net_null */
	GEN_PACE_REAL,     /* wait for each packet's time on the wall clock */
	GEN_PACE_NONE,     /* as fast as the port takes; a pcap's times come from the model */
};

enum gen_role {
	GEN_ROLE_BOTH = 0, /* the default: the model plays both ends */
	GEN_ROLE_RESPONDER, /* closed loop: only the receivers' notification points */
};

struct gen_opts {
	const char *scenario;      /* NULL: the built-in default */
	const char *write;         /* pcap written when EAL options name no port */
	const char *summary_json;
	const char *truth_jsonl;   /* --truth-jsonl: the model's ground truth per packet */
	int port;                  /* DPDK port id */
	uint32_t queues;           /* TX queues = worker lcores; 0: one per worker lcore */
	uint32_t burst;
	uint64_t duration_ns;      /* overrides the scenario's when set */
	uint64_t packets;          /* overrides the scenario's when set */
	int have_duration, have_packets;
	enum gen_pace pace;
	int status;                /* -1 auto (on a terminal), 0 off, 1 on */
	int check;                 /* load the scenario, report, exit */
	int quiet;
	uint64_t mbufs;            /* per queue */
	enum gen_role role;
};

/* Parses argv (the part after "--", argv[0] the program). Returns 0, 1 when
 * --help or --version was answered (exit 0), or -1 with one line in err
 * (exit 2). */
int gen_opts_parse(int argc, char **argv, struct gen_opts *o, char *err, size_t errlen);
void gen_usage(FILE *f);

#endif
