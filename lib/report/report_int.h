/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the report (report.c, report_series.c, report_html.c): the state
 * struct cap_report hides from its users, the bounded time series the HTML
 * plots are drawn from, and small helpers the three outputs share.
 *
 * Bounds: every series has a fixed size chosen here, so memory does not grow
 * with the capture:
 *  - time bins: RS_BINS per flow, shared widths (a power of two of
 *    nanoseconds); when the capture outgrows them, the width doubles and
 *    neighbouring bins merge, in every flow at once;
 *  - PSN samples: at most RS_PSN_MAX per flow, every 2^k-th packet, k growing
 *    by one (and every other sample dropped) each time the buffer fills;
 *  - episodes (gaps, go-back-N starts, reorders) and plain retransmissions:
 *    two buffers of RS_EV_MAX per flow, each keeping every event until it
 *    fills, then every 2^k-th (thinned like the PSN samples), the rest
 *    counted;
 *  - CE marks and CNPs: the first RS_MARK_MAX per flow each, the rest counted,
 *    and all of them in per-bin counts (so a plot can fall back on density);
 *  - PFC/PAUSE intervals: the first RS_PAUSE_MAX per priority, the rest
 *    counted, and the paused time of all of them per bin. */
#ifndef ROCEWIRE_CAP_REPORT_INT_H
#define ROCEWIRE_CAP_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"

#define RS_BINS 256
#define RS_BIN_SHIFT0 8        /* first bin width: 256 ns */
#define RS_PSN_MAX 256
#define RS_EV_MAX 128
#define RS_MARK_MAX 128
#define RS_PAUSE_MAX 1024
#define RS_SERIES_FLOWS 4096   /* flows beyond this many keep counters only */
#define RS_PRIOS (RW_PFC_PRIORITIES + 1) /* 0..7, then 802.3x (RW_PAUSE_ALL) */

enum rs_ev_kind {
	RS_EV_RETRANS = 0,
	RS_EV_GBN,       /* a retransmission that starts a go-back-N episode */
	RS_EV_GAP,
	RS_EV_OOO,
};

/* Times in the series are nanoseconds since the first packet. PSNs are
 * "unwrapped": the distance from the flow's first PSN, following each step
 * of at most 2^23 forward or back, so a wrap at 2^24 is a straight line. */
struct rs_psn {
	uint64_t t;
	int64_t upsn;
};

struct rs_event {
	uint64_t t;
	int64_t upsn;
	uint32_t len;   /* gap length */
	uint32_t kind;  /* enum rs_ev_kind */
};

struct rs_evbuf {
	uint32_t n;
	uint8_t stride_log;
	uint64_t seen;
	struct rs_event e[RS_EV_MAX];
};

#define RS_EVB_EPISODES 0 /* gaps, go-back-N starts, reorders */
#define RS_EVB_RETRANS 1  /* the other retransmissions */

struct rs_flow {
	uint8_t psn_valid;
	uint8_t psn_stride_log;  /* a sample every 2^k packets */
	uint32_t first_psn, last_psn;
	int64_t upsn, upsn_min, upsn_max;
	uint64_t psn_seen;       /* packets that moved the PSN line */
	uint64_t last_t;
	uint32_t n_psn;
	uint32_t n_ce, n_cnp;
	uint64_t ce_over, cnp_over;
	uint64_t cnps_seen;      /* rw_flow.cnps already placed on the timeline */
	uint32_t cnp_owner;      /* for a CNP flow: 1 + the flow its last CNP slowed, 0 none */
	struct rs_psn psn[RS_PSN_MAX];
	struct rs_evbuf evb[2];
	uint64_t ce[RS_MARK_MAX];
	uint64_t cnp[RS_MARK_MAX];
	uint64_t bytes[RS_BINS];
	uint32_t ce_bin[RS_BINS];
	uint32_t cnp_bin[RS_BINS];
};

struct rs_interval {
	uint64_t start, end;
};

struct rs_prio {
	uint8_t open;            /* a pause is running (as far as we know) */
	uint64_t open_start;     /* absolute ns, as the analyzer keeps them */
	uint64_t open_end;
	uint32_t n;
	uint64_t over;
	struct rs_interval iv[RS_PAUSE_MAX];
	uint64_t paused[RS_BINS]; /* ns paused per bin, all intervals */
};

struct cap_report {
	struct cap_report_opts opts;
	struct rw_analyzer *a;

	/* Series. */
	int have_t0;
	uint64_t t0;             /* first packet, absolute ns */
	uint64_t t_end;          /* latest time seen (relative), or the finish time */
	unsigned shift;          /* bin width is 2^shift ns */
	uint32_t nseries;        /* flows that get an rs_flow */
	struct rs_flow *series;
	uint64_t total_bytes[RS_BINS];
	/* 1 + the flow of the latest CE mark per address pair (hashed), a
	 * first guess at the flow a CNP slows. */
#define RS_CE_PAIRS 256
	uint32_t ce_pair[RS_CE_PAIRS];
	struct rs_prio prio[RS_PRIOS];

	uint64_t drops_kernel, drops_if;
	int drops_known;
	int finished;
	uint64_t finish_ns;

	struct rc_hosts *hosts;  /* per-host tallies, only with opts.counters (report_counters.c) */
};

/* report_counters.c: the NIC counters set beside the capture. */
struct jw;
int rc_new(struct cap_report *r);   /* 0, or -1 (ENOMEM) */
void rc_free(struct cap_report *r);
void rc_packet(struct cap_report *r, const struct rw_packet *p, const struct rw_note *n);
void rc_table(const struct cap_report *r, FILE *out);
void rc_json(struct jw *w, const struct cap_report *r);
void rc_html(const struct cap_report *r, FILE *f);

/* report_series.c */
void rs_packet(struct cap_report *r, const struct rw_packet *p, uint64_t ts,
	       const struct rw_note *n);
void rs_finish(struct cap_report *r, uint64_t ts);
/* Makes the bins reach time t (relative ns). */
void rs_cover(struct cap_report *r, uint64_t t);
static inline uint64_t rs_bin_ns(const struct cap_report *r)
{
	return (uint64_t)1 << r->shift;
}
/* Bins in use: up to the one holding t_end. */
uint32_t rs_bins_used(const struct cap_report *r);

/* report.c: shared helpers. */
/* Indices of the flows sorted by bytes (most first), malloc'd; NULL when
 * there are none or no memory (*n says which). */
uint32_t *rp_sorted_flows(const struct cap_report *r, uint32_t *n);
const char *rp_family(const struct rw_flow_key *k);
/* The q-quantile in ns by the nearest-rank definition (see report.c). */
/* "12.3 ms", "450 ns", "2.01 s" */
char *rp_dur(char *buf, size_t cap, uint64_t ns);
/* "1.23 GB", "512 B" (powers of 1000) */
char *rp_bytes(char *buf, size_t cap, uint64_t b);
/* Latency cell: "p50/p99/max" in us, or "-" */
char *rp_lat(char *buf, size_t cap, const struct rw_lat *h);
const char *rp_prio_name(unsigned i); /* "0".."7", "pause" */
uint64_t rp_naks(const struct rw_flow *f);

/* 1 and a sentence in buf ("12 packets of 3 flows beyond the flow table's
 * limit (--max-flows 4096) were not analysed") when the analysis left
 * flows out; 0 and "" when it is complete. */
int rp_incomplete(const struct cap_report *r, char *buf, size_t cap);

/* The columns of the flow table, shared by the text and HTML reports. */
#define RP_CELL 64
extern const char *const rp_flow_heads[];
extern const char rp_flow_align[];  /* 'l' or 'r' per column */
extern const unsigned rp_flow_ncols;
void rp_flow_cells(const struct cap_report *r, uint32_t i, char cell[][RP_CELL]);
/* The capture-edges and conformance tables: which flows they show, and
 * their columns. */
int rp_edges_shown(const struct rw_flow *f);
extern const char *const rp_edges_heads[];
extern const char rp_edges_align[];
extern const unsigned rp_edges_ncols;
void rp_edges_cells(const struct cap_report *r, uint32_t i, char cell[][RP_CELL]);
int rp_conf_shown(const struct rw_flow *f);
extern const char *const rp_conf_heads[];
extern const char rp_conf_align[];
extern const unsigned rp_conf_ncols;
void rp_conf_cells(const struct cap_report *r, uint32_t i, char cell[][RP_CELL]);
/* The CM handshakes' table (rw_analyzer_cm(r->a, i)). */
extern const char *const rp_cm_heads[];
extern const char rp_cm_align[];
extern const unsigned rp_cm_ncols;
void rp_cm_cells(const struct cap_report *r, uint32_t i, char cell[][RP_CELL]);
/* "#0 11, #3 2, +4 more": flows a pause class holds back (sorted idx of n),
 * each with its packets sent while paused. */
void rp_prio_flows(const struct cap_report *r, const uint32_t *idx, uint32_t n, unsigned prio,
		   char *buf, size_t cap);

#endif
