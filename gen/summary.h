/* SPDX-License-Identifier: BSD-3-Clause */
/* What rocewire-gen says about a run: the status line and the final summary
 * (text on stderr, JSON with --summary-json). */
#ifndef RWGEN_SUMMARY_H
#define RWGEN_SUMMARY_H

#include <stdint.h>
#include <stdio.h>
#include "flow.h"
#include "tx.h"

struct gen_run {
	const struct gen_scenario *sc;
	const char *scenario_path;    /* NULL: the built-in default */
	const char *port_name;        /* driver and port, "net_pcap (port 0)" */
	const char *output;           /* the pcap written, or NULL */
	const char *truth;            /* the ground truth written (--truth-jsonl), or NULL */
	uint32_t queues;
	uint32_t lockstep_queues;     /* of them, sending the lockstep stream (flow.h) */
	double wall_s;                /* from the first packet sent to the last */
	uint64_t packets, bytes;      /* what the port took */
	uint64_t unsent;
	uint64_t model_ns;            /* the model's time of the last frame made, of any kind */
	int interrupted;
	const struct gen_flow_stats *flows; /* merged over the workers, per flow */
	const struct gen_cc_stats *cc;      /* the simulated switch and DCQCN, or NULL */
	const struct gen_np_counters *np;   /* --role responder, or NULL */
};

/* "  1.23 Mpps  4.56 Gbps  msgs 789  resent 3  faults 1  [w 2.1G r 1.0G]" */
void gen_status_line(FILE *f, const struct gen_run *r, double dt_s, uint64_t dpackets,
		     uint64_t dbytes, const struct gen_flow_stats *prev);
void gen_summary_text(FILE *f, const struct gen_run *r);
/* 0, or -1 with errno (the file is written whole or not at all). */
int gen_summary_json(const char *path, const struct gen_run *r);

#endif
