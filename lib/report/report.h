/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-QP report over the analysis engine (proto's rw_analyzer): the table,
 * JSON and self-contained HTML outputs of `rocewire-cap --report`, and the
 * numbers the live view shows. Owns the analyzer's memory and the bounded
 * time series the HTML plots need; knows no wire format. */
#ifndef ROCEWIRE_CAP_REPORT_H
#define ROCEWIRE_CAP_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rocewire/analyze.h"
#include "rocewire/packet.h"

struct cap_report_opts {
	double link_gbps;       /* PFC quanta -> time (default 100) */
	uint32_t max_flows;     /* flows analysed at most (0: as many as the engine's memory allows) */
	uint64_t storm_ns;      /* default 10 ms */
	uint64_t cnp_window_ns; /* default 1 ms */
	uint8_t cnp_mode;       /* enum rw_cnp_mode the flows' CNP pacing verdicts use (default per QP) */
	uint64_t cnp_min_ns;    /* the pacing's minimum gap (0: the engine's default, 4 us) */
	uint64_t rto_ns;        /* the requesters' retransmission timeout (0: the engine's default, 67.108864 ms) */
	size_t mem_limit;       /* bytes of engine state at most (0: the engine's default, 1 GiB) */
	const char *title;      /* shown in the HTML report (e.g. the file name) */
	const struct cap_qlen *qlen; /* a queue-length trace for the HTML report, or NULL */
	/* NIC counter snapshots to set beside the capture (--counters-before,
	 * --counters-after), or NULL: every output gets a section comparing
	 * their change with the capture's figure for one host. */
	const struct rw_ctr_input *counters;
};

struct cap_report;
struct cap_qlen;
struct rw_ctr_input;

#ifdef __cplusplus
extern "C" {
#endif

/* NULL (with errno) when memory cannot be had. */
struct cap_report *cap_report_new(const struct cap_report_opts *o);
void cap_report_free(struct cap_report *r);

/* One decoded packet, in capture order. note may be NULL. */
void cap_report_packet(struct cap_report *r, const struct rw_packet *p, uint64_t ts_ns,
		       uint64_t frame, struct rw_note *note);
/* Capture-side loss (pcap_stats), shown in every output. */
void cap_report_set_drops(struct cap_report *r, uint64_t kernel_drops, uint64_t if_drops);
/* Ends the capture (open messages, running pauses). */
void cap_report_finish(struct cap_report *r, uint64_t ts_ns);

const struct rw_analyzer *cap_report_analyzer(const struct cap_report *r);
/* 1 when flows were left out (the flow or memory limit): why in buf, which
 * the program words with its own option names; 0 when the report is whole. */
int cap_report_incomplete(const struct cap_report *r, char *why, size_t n);
/* 1 when the flow limit (max_flows) was the cause, 0 when memory was. */
int cap_report_flow_limited(const struct cap_report *r);
/* A flow's source (src 1) or destination address: "192.168.100.10",
 * "2001:db8::a", "lid 3". */
char *cap_report_addr(char *buf, size_t cap, const struct rw_flow_key *k, int src);

/* Outputs; each returns 0, or -1 with errno when writing failed. */
int cap_report_table(const struct cap_report *r, FILE *out);
int cap_report_json(const struct cap_report *r, FILE *out);
/* Writes to a temporary file next to path and renames it into place, so a
 * failure never leaves a half-written report. */
int cap_report_html(const struct cap_report *r, const char *path);

#ifdef __cplusplus
}
#endif

#endif
