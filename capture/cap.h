/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-cap: the pieces shared by the sources (offline files, live
 * interfaces, RDMA sniffer flows), the writer, the per-packet dissector, the
 * printers, the live view and the summary.
 *
 * Flow: a source yields cap_records (bytes + timestamp + where they came
 * from); a live capture first hands each one to the writer (-w); then
 * cap_dissect() decodes it with rw_packet_decode(), counts it, reports decode
 * problems on stderr, feeds the per-QP report when one is kept, and hands it
 * to the chosen printer, which appends text to one cap_out buffer. Nothing
 * in the per-packet path allocates except the JSON printer (jansson). */
#ifndef ROCEWIRE_CAP_H
#define ROCEWIRE_CAP_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <rocewire.h>

#include "fmt.h"
#include "live.h"
#include "qlen.h"
#include "counters.h"
#include "summary.h"
#include "source.h"
#include "writer.h"

#define CAP_PROG "rocewire-cap"

/* Exit status (documented in --help and the man page). */
#define CAP_EXIT_OK 0
#define CAP_EXIT_PROBLEM 1 /* bad ICRC/VCRC, a decode error, a cut file */
#define CAP_EXIT_USAGE 2   /* bad options, unreadable input, output failure */

enum cap_format {
	CAP_FMT_LINE = 0,
	CAP_FMT_VERBOSE,
	CAP_FMT_JSON,
};

#define CAP_MAX_SNAPLEN 262144u /* -s 0, as tcpdump */
/* Without -s. In immediate mode libpcap gives every packet a fixed slot of
 * its capture ring, as large as the snapshot length when the interface may
 * hand over GRO super-packets (veth, most NICs) or its MTU is unknown (-i
 * any): 262144 would leave 128 slots in 32 MiB. 16000 holds any Ethernet
 * jumbo frame (9216; ConnectX allows MTU 9978) with its tags and fills a
 * 16 KiB slot with little waste: about 2000 slots. */
#define CAP_DEFAULT_SNAPLEN 16000u
/* Kernel capture buffer without -B: RoCE arrives in bursts at 25-400 Gb/s,
 * and libpcap's 2 MiB holds ~230 jumbo frames. */
#define CAP_DEFAULT_BUFFER_KIB 32768u
/* Block timeouts of the kernel ring (source_live.c): packets shown one by
 * one on a terminal, and everything else. */
#define CAP_LIVE_TIMEOUT_TTY_MS 10
#define CAP_LIVE_TIMEOUT_MS 100
/* Without -B the kernel buffer holds this long a burst at the interface's
 * speed (its sysfs speed), and CAP_DEFAULT_BUFFER_KIB at least. */
#define CAP_BURST_MS 20
#define CAP_MAX_AUTO_BUFFER_KIB (1024u * 1024u)

struct cap_opts {
	const char **files;     /* inputs, decoded in turn */
	size_t n_files;
	enum cap_format format;
	int quiet;              /* no per-packet output (resolved by parse_args) */
	uint64_t count;         /* stop after this many packets in all; 0: no limit */
	unsigned max_warnings;  /* per-packet stderr lines per input; 0: no limit */
	struct rw_decode_cfg cfg;

	/* live capture (-i) */
	const char *iface;      /* interface, "any", or "rdma:DEVICE" */
	const char *write_file; /* -w: name or strftime pattern; "-" is stdout */
	enum cap_wfmt write_fmt;
	uint32_t snaplen;       /* -s; CAP_DEFAULT_SNAPLEN unless given */
	uint32_t buffer_kib;    /* -B; CAP_DEFAULT_BUFFER_KIB unless given */
	int buffer_given;       /* -B was given: else sized from the link's speed */
	int interactive;        /* per-packet lines to a terminal: short ring timeouts */
	uint64_t rotate_bytes;  /* -C, in bytes; 0: no size rotation */
	uint32_t rotate_secs;   /* -G; 0: no time rotation */
	const char *filter;     /* -f: replaces the default filter */
	int all;                /* --all: no filter */
	int no_promisc;         /* -p */
	int linktype;           /* -y; -1: the interface's default */
	double duration;        /* --duration seconds; 0: until -c or a signal */
	unsigned rx_queues;     /* --rx-queues (dpdk:): 0 or 1 one queue; more: a file each */
	unsigned status_secs;   /* --status interval off a terminal; 0: none */
	int view;               /* the refreshing per-QP table on stdout (resolved) */
	int list_ifaces;        /* -D */
	int dump_filter;        /* -d */
	const char *drop_user;  /* -Z: the user to change to once the capture is open */

	/* per-QP report */
	int report;             /* --report: table (or JSON with --json) on stdout */
	const char *html;       /* --html FILE */
	const char *qlen_file;  /* --qlen FILE */
	struct cap_qlen qlen;   /* its samples, loaded before reading */
	const char *counters_before, *counters_after; /* --counters-before/-after FILE */
	const char *counters_host; /* --counters-host ADDR (NULL: the busiest host) */
	struct rw_ctr_input counters; /* both snapshots, loaded before reading */
	int keep_report;        /* a cap_report is kept (report, html or view) */
	double link_gbps;
	uint64_t storm_ns;
	uint64_t cnp_window_ns;
	uint32_t max_flows;     /* 0: as many as --max-memory allows */
	uint8_t cnp_mode;       /* enum rw_cnp_mode */
	uint64_t cnp_min_ns;
	uint64_t rto_ns;        /* --rto (0: the engine's default) */
	size_t mem_limit;       /* --max-memory, bytes */

	int progress;           /* a progress line on stderr while reading files */

	/* --between A B: two taps of the same traffic compared (between.c) */
	int between;
	int64_t between_offset_ns;   /* --offset: B's clock minus A's */
	int between_estimate;        /* --estimate-offset */
	uint64_t between_window_ns;  /* --window; 0: proto's default */
};

/* --between: reads both files merged by time and prints the comparison;
 * returns the exit status. */
int cap_between_run(const struct cap_opts *o);

/* The writer's settings from the options (pattern: -w, or a queue's own name). */
static inline struct cap_writer_cfg cap_writer_cfg_of(const struct cap_opts *o, const char *pattern)
{
	struct cap_writer_cfg cfg = {
		.pattern = pattern,
		.fmt = o->write_fmt,
		.rotate_bytes = o->rotate_bytes,
		.rotate_secs = o->rotate_secs,
		.appl = CAP_PROG " " ROCEWIRE_VERSION,
	};
	return cfg;
}

/* ---- output buffer ------------------------------------------------------ */

/* Everything printed per packet goes through one large buffer written with
 * fwrite when it fills: printf and stdio per field cost more than decoding. */
#define CAP_OUT_SIZE (1u << 20)
/* Room a printer may use for one packet without checking (line, verbose). */
#define CAP_PKT_MAX 16384u

struct cap_out {
	char *buf;
	size_t len;
	size_t cap;
	FILE *fp;
	int failed;             /* a write failed; errno_saved says why */
	int errno_saved;
};

int cap_out_init(struct cap_out *o, FILE *fp, size_t cap);
void cap_out_flush(struct cap_out *o);
void cap_out_free(struct cap_out *o);

/* Returns where to write at least `need` bytes (need <= cap). */
static inline char *cap_out_begin(struct cap_out *o, size_t need)
{
	if (o->cap - o->len < need)
		cap_out_flush(o);
	return o->buf + o->len;
}

static inline void cap_out_end(struct cap_out *o, char *p)
{
	o->len = (size_t)(p - o->buf);
}

/* ---- the per-packet driver and printers --------------------------------- */

struct cap_json;
struct cap_report;
struct cap_progress;

struct cap_ctx {
	const struct cap_opts *opts;
	struct cap_out out;
	struct cap_stats stats;
	struct cap_clock clock;
	struct cap_json *json;
	const char *file;       /* current input, as named (multi-file JSON's "file") */
	const char *file_shown; /* the same escaped for a terminal, for messages */
	unsigned warnings;      /* per-packet stderr lines for the current input */
	uint64_t warnings_hidden;
	int multi_file;         /* several inputs: JSON objects carry "file" */
	int status;             /* worst exit status so far */
	int hold_warnings;      /* the live table owns the terminal: count, do not print */
	struct cap_report *report; /* fed every packet when not NULL */
	/* Called before an error line is printed (the tool clears its progress
	 * line there), with its argument; NULL: nothing. */
	void (*before_error)(void *arg);
	void *before_error_arg;
	uint64_t last_ts_ns;    /* time of the latest packet */
	struct rw_packet pkt;
};

int cap_ctx_init(struct cap_ctx *c, const struct cap_opts *opts);
void cap_ctx_free(struct cap_ctx *c);
/* Per-input bookkeeping: resets the warning budget, reports hidden warnings. */
void cap_ctx_begin_input(struct cap_ctx *c, const char *name, const char *shown);
void cap_ctx_end_input(struct cap_ctx *c);
/* Decodes, counts, reports and prints one record. */
void cap_dissect(struct cap_ctx *c, const struct cap_record *r);
/* The same for a record already decoded into p. */
void cap_dissect_decoded(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p);
/* The same for a record already decoded and counted (the offline pipeline
 * counts on its reader thread: c->stats.packets must include it). */
void cap_dissect_counted(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p);
/* The same with the record's time in nanoseconds since 1970 already known. */
void cap_dissect_at(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p,
		    uint64_t ts_ns);
/* A one-line message on stderr, after flushing what stdout has pending so the
 * two streams stay in order on a terminal. */
void cap_ctx_error(struct cap_ctx *c, const char *line);

/* The decoder reached the payload: its lengths are meaningful. */
static inline int cap_payload_known(const struct rw_packet *p)
{
	return (p->present & RW_P_BTH) && p->op && (p->op->flags & RW_OPF_PAYLOAD) &&
	       (p->err == RW_OK || p->err_layer >= RW_L_PAYLOAD);
}

static inline void cap_set_status(struct cap_ctx *c, int status)
{
	if (status > c->status)
		c->status = status;
}

/* Makes the one-line printer's words from the field tables; before the
 * first cap_print_line (cap_ctx_init calls it). */
void cap_line_init(void);
void cap_print_line(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p);
void cap_print_verbose(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p);

struct cap_json *cap_json_new(void);
void cap_json_free(struct cap_json *j);
void cap_print_json(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p);

/* ---- terminal output (liveview.c) --------------------------------------- */

struct cap_view;
struct cap_view *cap_view_new(uint32_t max_flows);
void cap_view_free(struct cap_view *v);
/* Redraws the per-QP table on stdout in place (ANSI escapes). */
void cap_view_draw(struct cap_view *v, const struct cap_ctx *c, const struct cap_live *l,
		   double now);
/* One status line on stderr: packets, rate, drops. */
void cap_view_status(struct cap_view *v, const struct cap_ctx *c, const struct cap_live *l,
		     double now);

/* Offline progress line on stderr (bytes read / size, packets/s, ETA). */
struct cap_progress *cap_progress_new(void);
void cap_progress_free(struct cap_progress *p);
void cap_progress_begin(struct cap_progress *p, const char *name, long size);
/* Cheap: looks at the clock every few thousand packets. */
void cap_progress_update(struct cap_progress *p, long pos, uint64_t packets);
void cap_progress_clear(struct cap_progress *p);

/* Monotonic seconds. */
double cap_now(void);

#endif
