/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-cap: the loop over the input files, the live capture loop, and
 * the per-QP report (the options are opts.c's). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cap.h"
#include "opts.h"
#include "pipeline.h"
#include "privdrop.h"
#include "fmt.h"
#include "report.h"

/* The live table keeps rates for this many flows (the first seen). */
#define VIEW_FLOWS 4096u
/* The longest the live loop waits without looking at the clock, signals,
 * -c and --duration. */
#define LIVE_WAIT_MS 200

/* Names from argv, files or the system reach messages through cap_esc(): a
 * file name must not drive the terminal the message is printed on. */
#define NAME_SHOWN CAP_ESC_SIZE(4096)

/* A message line that may hold such names (the sources' err lines). */
static void error_line(const char *line)
{
	char buf[CAP_ESC_SIZE(sizeof(((struct cap_writer *)0)->err))];
	fprintf(stderr, "%s\n", cap_esc(buf, sizeof(buf), line));
}

/* ---- the report ----------------------------------------------------------- */

static struct cap_report *report_new(const struct cap_opts *o, const char *title)
{
	struct cap_report_opts ro = {
		.link_gbps = o->link_gbps,
		.max_flows = o->max_flows,
		.storm_ns = o->storm_ns,
		.cnp_window_ns = o->cnp_window_ns,
		.cnp_mode = o->cnp_mode,
		.cnp_min_ns = o->cnp_min_ns,
		.rto_ns = o->rto_ns,
		.mem_limit = o->mem_limit,
		.title = title,
		.qlen = o->qlen_file ? &o->qlen : NULL,
		.counters = o->counters_before ? &o->counters : NULL,
	};
	return cap_report_new(&ro);
}

/* --counters-before/--counters-after: both snapshots read before the
 * capture is, so a bad file costs nothing but one line; 0 or -1 (said). */
static int load_counters(struct cap_opts *o)
{
	char err[512], shown[NAME_SHOWN], shown2[NAME_SHOWN];
	struct rw_ctr_input *in = &o->counters;
	memset(in, 0, sizeof(*in));
	cap_esc(shown, sizeof(shown), o->counters_before);
	cap_esc(shown2, sizeof(shown2), o->counters_after);
	if (rw_ctr_load(o->counters_before, shown, &in->before, err, sizeof(err)) != 0 ||
	    rw_ctr_load(o->counters_after, shown2, &in->after, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", CAP_PROG, err);
		rw_ctr_free(&in->before);
		return -1;
	}
	in->vendor = rw_ctr_detect(&in->before, &in->after);
	if (in->vendor == RW_CTR_UNKNOWN)
		fprintf(stderr, "%s: warning: %s, %s: no counter name of mlx5, irdma, bnxt_re or rxe; "
				"every counter is listed as not mapped\n", CAP_PROG, shown, shown2);
	/* the report holds these names: the escaped forms, as titles are */
	in->before_name = strdup(shown);
	in->after_name = strdup(shown2);
	in->host = o->counters_host;
	if (!in->before_name || !in->after_name) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		return -1;
	}
	return 0;
}

/* Writes what --report and --html ask for; returns an exit status. */
static int report_outputs(struct cap_ctx *c, const struct cap_opts *o, uint64_t end_ns)
{
	int status = CAP_EXIT_OK;

	cap_report_finish(c->report, end_ns);
	/* Once per run, whichever outputs follow (table, JSON, HTML): a report
	 * that silently leaves out flows reads as a clean one. */
	char why[256];
	if (cap_report_incomplete(c->report, why, sizeof(why)))
		fprintf(stderr, "%s: warning: incomplete report: %s; raise %s to include them\n",
			CAP_PROG, why, cap_report_flow_limited(c->report) ? "--max-flows" : "--max-memory");
	if (o->report) {
		cap_out_flush(&c->out);
		fflush(stdout);
		errno = 0;
		int rc = o->format == CAP_FMT_JSON ? cap_report_json(c->report, stdout)
						   : cap_report_table(c->report, stdout);
		if (rc != 0 || fflush(stdout) != 0) {
			fprintf(stderr, "%s: cannot write the report: %s\n", CAP_PROG,
				strerror(errno ? errno : EIO));
			status = CAP_EXIT_USAGE;
		}
	}
	if (o->html) {
		errno = 0;
		if (cap_report_html(c->report, o->html) != 0) {
			char shown[NAME_SHOWN];
			fprintf(stderr, "%s: cannot write the HTML report: %s\n",
				cap_esc(shown, sizeof(shown), o->html), strerror(errno ? errno : EIO));
			status = CAP_EXIT_USAGE;
		}
	}
	return status;
}

/* Flushes standard output and reports a failure once; returns the status. */
static int finish_output(struct cap_ctx *c)
{
	cap_out_flush(&c->out);
	if (fflush(stdout) != 0 && !c->out.failed) {
		c->out.failed = 1;
		c->out.errno_saved = errno;
	}
	if (c->out.failed) {
		fprintf(stderr, "%s: cannot write the output: %s\n", CAP_PROG,
			strerror(c->out.errno_saved ? c->out.errno_saved : EIO));
		return CAP_EXIT_USAGE;
	}
	return CAP_EXIT_OK;
}

/* ---- files ---------------------------------------------------------------- */

/* Files smaller than this are read on one thread: starting the reader and
 * faulting in its ring cost about what it saves on a few thousand packets
 * (measured on the project's 2-core machine: --report on 5,000 packets of
 * 390 bytes, 1.9 MB, ran 0.8 ms faster on one thread, 20,000 packets 2.8 ms
 * slower). */
#define READER_MIN_BYTES ((long)4 << 20)

/* Whether to read a file on a reader thread: when ROCEWIRE_CAP_THREADS=2
 * (=1: never; both for measurements), else when there are two CPUs, the
 * file is not small, and this thread has work that keeps a core busy while
 * the reader decodes: the engine and the report, verbose or JSON lines.
 * Measured on the project's 2-core machine, 200k packets of 390 bytes
 * (bench/README.md): --report 1.2x faster with the reader, --html and
 * --report --json 1.1x, -v and per-packet JSON 1.15-1.25x; one line per
 * packet 1.2-1.4x slower (printing a line costs less than handing over the
 * whole decoded packet it prints), -q 1.1-1.4x slower (nothing to overlap
 * with the reader). With one core taken by other work the two were even;
 * with both taken, the reader thread won (two threads get more of the
 * machine). */
static int use_reader(const struct cap_opts *o, const struct cap_source *src)
{
	const char *v = getenv("ROCEWIRE_CAP_THREADS");
	if (v && strcmp(v, "1") == 0)
		return 0;
	if (v && strcmp(v, "2") == 0)
		return 1;
	if (cap_pipe_cpus() < 2 || (src->size >= 0 && src->size < READER_MIN_BYTES))
		return 0;
	return o->keep_report || (!o->quiet && o->format != CAP_FMT_LINE);
}

/* The error-line hook of the per-packet driver: the progress line goes first. */
static void clear_progress(void *arg)
{
	cap_progress_clear(arg);
}

/* A file pcapfile.c reads: a reader thread decodes while this one runs the engine and
 * the outputs, in capture order. Returns as cap_source_next() does, or -2
 * (1 when no thread could be had) for the caller's loop to read on. */
static int read_pipelined(struct cap_ctx *ctx, const struct cap_opts *opts,
			  struct cap_source *src, struct cap_progress *prog)
{
	uint64_t limit = opts->count ? opts->count - ctx->stats.packets : 0;
	/* Per-packet printers may read a record's bytes; the engine, the
	 * report and the counters read only what was decoded. */
	struct cap_pipe *pipe =
		use_reader(opts, src) ? cap_pipe_start(src, &opts->cfg, limit, !opts->quiet) : NULL;
	const struct rw_packet *pkt;
	const struct cap_record *rec;
	uint64_t ts;
	int rc = 1;

	if (!pipe)
		return 1;
	int counted = cap_pipe_counts(pipe);
	while ((pkt = cap_pipe_next(pipe, &rec, &ts, &rc))) {
		if (counted)
			ctx->stats.packets++; /* the rest is counted by the reader */
		else
			cap_stats_add(&ctx->stats, pkt, rec);
		cap_dissect_at(ctx, rec, pkt, ts);
		if (prog)
			cap_progress_update(prog, rec->offset, ctx->stats.packets);
	}
	cap_pipe_stop(pipe, &ctx->stats);
	return rc;
}

static int run_offline(struct cap_ctx *ctx, const struct cap_opts *opts)
{
	int opened = 0;
	struct cap_progress *prog = opts->progress ? cap_progress_new() : NULL;
	char shown[NAME_SHOWN], line[CAP_ESC_SIZE(sizeof(((struct cap_source *)0)->err))];

	if (prog) {
		ctx->before_error = clear_progress;
		ctx->before_error_arg = prog;
	}
	for (size_t i = 0; i < opts->n_files; i++) {
		struct cap_source src;
		struct cap_record rec;
		int rc;

		if (opts->count && ctx->stats.packets >= opts->count)
			break;
		if (cap_offline_open(&src, opts->files[i]) != 0) {
			cap_ctx_error(ctx, cap_esc(line, sizeof(line), src.err));
			cap_set_status(ctx, src.failure == CAP_SOURCE_READ ? CAP_EXIT_PROBLEM : CAP_EXIT_USAGE);
			continue;
		}
		opened++;
		cap_esc(shown, sizeof(shown), opts->files[i]);
		/* Messages show the escaped name; multi-file JSON's "file" field
		 * the raw one (jansson escapes it, and caches it by pointer). */
		cap_ctx_begin_input(ctx, opts->files[i], shown);
		if (prog)
			cap_progress_begin(prog, shown, src.size);
		rc = 1;
		if (cap_source_own(&src))
			rc = read_pipelined(ctx, opts, &src, prog);
		/* Standard input, pipes, and what libpcap reads on (-2). */
		while ((rc == 1 || rc == -2) && !(opts->count && ctx->stats.packets >= opts->count)) {
			if ((rc = cap_source_next(&src, &rec)) != 1)
				break;
			cap_dissect(ctx, &rec);
			if (prog)
				cap_progress_update(prog, src.pos, ctx->stats.packets);
		}
		if (rc == -2) /* -c was reached first */
			rc = 0;
		cap_progress_clear(prog);
		if (rc < 0) {
			cap_ctx_error(ctx, cap_esc(line, sizeof(line), src.err));
			cap_set_status(ctx, src.failure == CAP_SOURCE_READ ? CAP_EXIT_PROBLEM : CAP_EXIT_USAGE);
			if (src.cut)
				ctx->stats.files_cut++;
		}
		cap_ctx_end_input(ctx);
		cap_source_close(&src);
	}
	ctx->before_error = NULL;
	cap_progress_free(prog);

	cap_set_status(ctx, finish_output(ctx));
	if (ctx->report && opened)
		cap_set_status(ctx, report_outputs(ctx, opts, ctx->last_ts_ns));
	if (opened)
		cap_summary_print(&ctx->stats, CAP_PROG, stderr);
	return ctx->status;
}

/* ---- live ----------------------------------------------------------------- */

static volatile sig_atomic_t got_signal;
static struct cap_live *signal_live;
static struct timespec first_signal;

/* The first SIGINT/SIGTERM/SIGHUP ends the capture cleanly. A second one
 * ends the program at once (the first may not be enough: a write blocked
 * on a stalled pipe), but only half a second or more after the first: one
 * press of ^C, or `timeout`, signals the process and then its process
 * group, and those two arrive as two signals. */
static void on_signal(int sig)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe */
	if (got_signal) {
		long ms = (long)(now.tv_sec - first_signal.tv_sec) * 1000 +
			  (now.tv_nsec - first_signal.tv_nsec) / 1000000;
		if (ms >= 500) {
			signal(sig, SIG_DFL);
			raise(sig);
		}
		return;
	}
	first_signal = now;
	got_signal = sig;
	if (signal_live)
		cap_live_breakloop(signal_live);
}

struct live_run {
	struct cap_ctx *c;
	struct cap_live *l;
	struct cap_writer *w;
	uint64_t count;
	int wfailed;
	/* Writing with nothing shown (-w -q, no report or table): the file
	 * comes first, and the decoder (ICRC, counts) never holds the kernel's
	 * ring back. It skips packets while the ring is estimated more than a
	 * quarter full (three quarters stay for the moments the writer itself
	 * is held up: a busy machine, the page cache writing back): what
	 * waits in it is about the age of the packet at hand
	 * times the rate packets arrive at (from their own timestamps, over at
	 * least RATE_WINDOW_NS, so that a short burst is not taken for a
	 * sustained rate). Checked every 64 packets. */
	int shed;
	int behind;
	uint32_t since_clock;    /* packets since the last check */
	uint64_t win_ts;         /* arrival time where the rate's window starts */
	uint64_t win_bytes;      /* ring bytes that arrived in the window */
	double ring_bytes_per_ns;
	uint64_t slow_ns;        /* test hook: each decode takes this long at least */
};

static uint64_t wall_ns(void);

/* The ring's share of one packet beyond its bytes (TPACKET_V3 header,
 * link address, alignment). */
#define RING_PKT_OVERHEAD 80
#define RATE_WINDOW_NS 10000000u

static int decoder_behind(struct live_run *lr, const struct cap_record *r)
{
	lr->win_bytes += r->wirelen + RING_PKT_OVERHEAD;
	if ((lr->since_clock++ & 63) != 0 || r->ts_sec < 0)
		return lr->behind;
	uint64_t now = wall_ns();
	uint64_t ts = (uint64_t)r->ts_sec * 1000000000u + r->ts_nsec;
	if (lr->win_ts == 0 || ts < lr->win_ts) {
		lr->win_ts = ts;
		lr->win_bytes = 0;
	} else if (ts - lr->win_ts >= RATE_WINDOW_NS) {
		lr->ring_bytes_per_ns = (double)lr->win_bytes / (double)(ts - lr->win_ts);
		lr->win_ts = ts;
		lr->win_bytes = 0;
	}
	lr->behind = now > ts && (double)(now - ts) * lr->ring_bytes_per_ns > (double)lr->l->ring_bytes / 4;
	return lr->behind;
}

static void live_packet(void *arg, const struct cap_record *r)
{
	struct live_run *lr = arg;

	if (lr->wfailed || (lr->count && lr->c->stats.packets >= lr->count))
		return;
	if (lr->w && cap_writer_write(lr->w, r) != 0) {
		lr->wfailed = 1;
		cap_live_breakloop(lr->l);
		return;
	}
	if (lr->shed && decoder_behind(lr, r)) {
		struct cap_stats *st = &lr->c->stats;
		st->packets++;
		st->bytes += r->wirelen;
		st->undecoded++;
		st->truncated += r->caplen < r->wirelen;
	} else {
		cap_dissect(lr->c, r);
		if (lr->slow_ns)
			for (uint64_t t0 = wall_ns(); wall_ns() - t0 < lr->slow_ns;)
				;
	}
	if (lr->count && lr->c->stats.packets >= lr->count)
		cap_live_breakloop(lr->l);
}

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: poll() returns at once. A second signal: on_signal. */
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed output pipe is a write error that ends the capture
	 * cleanly, not a silent death that leaves FILE.XXXXXX.part behind. */
	signal(SIGPIPE, SIG_IGN);
}

static void print_drops(const struct cap_live *l, const char *shown)
{
	if (l->drops.known)
		fprintf(stderr,
			"%s: %s: %" PRIu64 " packets received by filter, %" PRIu64
			" dropped by kernel, %" PRIu64 " dropped by interface\n",
			CAP_PROG, shown, l->drops.recv, l->drops.kernel, l->drops.ifdrop);
	else
		fprintf(stderr,
			"%s: %s: %" PRIu64 " packets received; drops unknown (the device has no "
			"out_of_buffer counter)\n",
			CAP_PROG, shown, l->index);
}

/* A live capture's pieces beyond the per-packet state (live_run): what
 * run_live's steps share. */
struct live_session {
	const struct cap_opts *o;
	struct cap_ctx *c;
	struct cap_live *l;
	struct cap_writer *w;
	struct cap_view *view;
	struct live_run lr;
	int have_writer, multi, failed;
	char *shown;
	const struct cap_drop_user *drop; /* -Z, when there is a user to change to */
};

/* -Z USER: who to become, looked up before anything is opened. NULL with
 * *status 0 when there is nothing to change (no -Z, or already USER). */
static const struct cap_drop_user *drop_lookup(const struct cap_opts *o, int *status)
{
	static struct cap_drop_user u;
	char err[600], shown[NAME_SHOWN];

	*status = 0;
	if (!o->drop_user)
		return NULL;
	cap_esc(shown, sizeof(shown), o->drop_user);
	if (cap_drop_lookup(o->drop_user, &u, err, sizeof(err)) != 0) {
		char line[CAP_ESC_SIZE(sizeof(err))];
		fprintf(stderr, "%s: -Z: %s\n", CAP_PROG, cap_esc(line, sizeof(line), err));
		*status = CAP_EXIT_USAGE;
		return NULL;
	}
	switch (cap_drop_plan(getuid(), geteuid(), u.uid)) {
	case CAP_DROP_NOTHING:
		return NULL;
	case CAP_DROP_NOT_ROOT:
		fprintf(stderr,
			"%s: -Z %s: only root can change to another user (this process runs as uid %ld)\n",
			CAP_PROG, shown, (long)geteuid());
		*status = CAP_EXIT_USAGE;
		return NULL;
	case CAP_DROP_SWITCH:
		break;
	}
	return &u;
}

/* -Z: the capture and the file (fp, or NULL) are open; checks that the
 * user can go on creating and renaming files in file's folder (tcpdump's -Z
 * creates the -C/-G files as the user, and this writer renames
 * FILE.XXXXXX.part to FILE even without them), gives the open file to the
 * user (in a sticky folder such as /tmp only its owner may rename it; the
 * later files are the user's too), then changes to the user. 0, or the
 * exit status after one line. */
static int drop_privileges(struct live_session *s, const char *file, FILE *fp)
{
	const struct cap_drop_user *u = s->drop;
	char err[600], dir[4096], line[CAP_ESC_SIZE(sizeof(err))], shown[NAME_SHOWN];

	if (file && strcmp(file, "-") != 0) {
		cap_drop_dir_of(file, dir, sizeof(dir));
		int rc = cap_drop_probe_dir(u, dir, err, sizeof(err));
		if (rc == -2) {
			fprintf(stderr, "%s: -Z: %s\n", CAP_PROG, cap_esc(line, sizeof(line), err));
			return CAP_EXIT_USAGE;
		}
		if (rc != 0) {
			fprintf(stderr,
				"%s: -Z %s: user %s cannot create files in %s (%s), where %s: make it "
				"writable by %s, or write elsewhere\n",
				CAP_PROG, u->name, u->name, cap_esc(shown, sizeof(shown), dir), err,
				s->o->rotate_bytes || s->o->rotate_secs
					? "-C/-G create each new file and -w's files are renamed when complete"
					: "-w's file is renamed when complete",
				u->name);
			return CAP_EXIT_USAGE;
		}
	}
	if (fp && fchown(fileno(fp), u->uid, u->gid) != 0) {
		fprintf(stderr, "%s: -Z %s: cannot give %s to user %s: %s\n", CAP_PROG, u->name,
			cap_esc(shown, sizeof(shown), file), u->name, strerror(errno));
		return CAP_EXIT_USAGE;
	}
	if (cap_drop_to(u, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: -Z: %s\n", CAP_PROG, cap_esc(line, sizeof(line), err));
		return CAP_EXIT_USAGE;
	}
	return 0;
}

/* Opens the source, the writer (-w) and the table or status lines, and
 * says what it listens on. 0, or the exit status of a failure. */
static int live_start(struct live_session *s)
{
	const struct cap_opts *o = s->o;
	struct cap_live *l = s->l;
	const char *slow = getenv("ROCEWIRE_CAP_TEST_SLOW_DECODE_NS");

	install_signals();
	if (cap_live_open(l, o) != 0) {
		error_line(l->err);
		return l->err_status;
	}
	cap_esc(s->shown, NAME_SHOWN, l->name);
	signal_live = l;
	if (got_signal)
		cap_live_breakloop(l);
	s->multi = cap_live_multi(l);
	/* --rx-queues: the workers decode as soon as they start, so the user
	 * changes first, and creates the queues' files itself */
	if (s->multi && s->drop) {
		int st = drop_privileges(s, o->write_file, NULL);
		if (st != 0) {
			cap_live_close(l);
			return st;
		}
	}
	if (s->multi && cap_live_queues_start(l, o, s->c) != 0) {
		error_line(l->err);
		cap_live_close(l);
		return l->err_status;
	}
	if (o->write_file && !s->multi) {
		struct cap_writer_cfg wc = cap_writer_cfg_of(o, o->write_file);
		if (cap_writer_open(s->w, &wc, l->linktype, l->snaplen, l->nano, l->name) != 0) {
			error_line(s->w->err);
			cap_writer_close(s->w);
			cap_live_close(l);
			return CAP_EXIT_USAGE;
		}
		if (s->drop) {
			int st = drop_privileges(s, s->w->to_stdout ? "-" : s->w->name,
						 s->w->to_stdout ? NULL : s->w->fp);
			if (st != 0) {
				cap_writer_discard(s->w);
				cap_live_close(l);
				return st;
			}
		}
		s->w->drops = &l->drops;
		s->lr.w = s->w;
		s->have_writer = 1;
		/* network interfaces only: their timestamps are the wall clock's */
		s->lr.shed = o->quiet && !o->keep_report && !o->view && l->pcap && l->ring_bytes &&
			     !getenv("ROCEWIRE_CAP_NO_SHED");
		s->lr.slow_ns = slow ? strtoull(slow, NULL, 10) : 0;
	} else if (s->drop && !s->multi) {
		int st = drop_privileges(s, NULL, NULL);
		if (st != 0) {
			cap_live_close(l);
			return st;
		}
	}
	if (o->view || o->status_secs) {
		/* the table's and the status line's previous counts */
		s->view = cap_view_new(o->max_flows && o->max_flows < VIEW_FLOWS ? o->max_flows : VIEW_FLOWS);
		if (!s->view) {
			fprintf(stderr, "%s: out of memory\n", CAP_PROG);
			if (s->have_writer)
				cap_writer_close(s->w);
			cap_live_close(l);
			return CAP_EXIT_USAGE;
		}
	}
	const char *n = pcap_datalink_val_to_name(l->linktype);
	const char *d = pcap_datalink_val_to_description(l->linktype);
	fprintf(stderr,
		"%s: listening on %s, link type %s (%s), snapshot length %" PRIu32
		" bytes, %s timestamps, %s\n",
		CAP_PROG, s->shown, n ? n : "?", d ? d : "?", l->snaplen, l->nano ? "nanosecond" : "microsecond",
		l->filter_desc);
	s->c->hold_warnings = o->view;
	s->c->stats.live = l->name;
	s->c->file = s->c->file_shown = s->shown; /* no "file" in live JSON: only messages show it */
	return 0;
}

/* Captures until a signal, -c, --duration, a failure or the output's end:
 * packets as they come, and once a second the drops, the writer's tick
 * and the table; the status line every --status seconds. */
static void live_loop(struct live_session *s)
{
	const struct cap_opts *o = s->o;
	struct cap_ctx *c = s->c;
	struct cap_live *l = s->l;
	struct cap_writer *w = s->w;
	double now = cap_now();
	double next_tick = now + 1.0;
	double next_status = o->status_secs ? now + o->status_secs : 0;
	double deadline = o->duration > 0 ? now + o->duration : 0;

	if (o->view)
		cap_view_draw(s->view, c, l, now);
	while (!got_signal && !l->stop) {
		double wait = next_tick - now;
		if (deadline && deadline - now < wait)
			wait = deadline - now;
		int ms = wait <= 0 ? 0 : wait * 1000 > LIVE_WAIT_MS ? LIVE_WAIT_MS : (int)(wait * 1000) + 1;
		int n = cap_live_dispatch(l, ms, live_packet, &s->lr);
		if (n < 0) {
			error_line(l->err);
			s->failed = 1;
			break;
		}
		if (n > 0 && !o->quiet) {
			cap_out_flush(&c->out);
			if (c->out.failed)
				break;
		}
		if (n > 0 && s->have_writer && w->to_stdout && cap_writer_flush(w) != 0) {
			s->lr.wfailed = 1;
			snprintf(w->err, sizeof(w->err), "standard output: cannot write: %s", strerror(errno));
			break;
		}
		if (s->lr.wfailed)
			break;
		now = cap_now();
		if (deadline && now >= deadline)
			break;
		if (now >= next_tick) {
			next_tick = now + 1.0;
			cap_live_update_drops(l);
			if (s->have_writer && cap_writer_tick(w) != 0) {
				s->lr.wfailed = 1;
				break;
			}
			if (o->view)
				cap_view_draw(s->view, c, l, now);
		}
		if (next_status && now >= next_status) {
			cap_view_status(s->view, c, l, now);
			next_status = now + o->status_secs;
		}
	}
	signal_live = NULL;
}

/* Takes what is still in the ring, closes the file(s) and says where they
 * went. */
static void live_stop(struct live_session *s)
{
	static char file1[NAME_SHOWN], file2[NAME_SHOWN];
	const struct cap_opts *o = s->o;
	struct cap_ctx *c = s->c;
	struct cap_writer *w = s->w;

	/* What arrived before the end and is still in the ring's last block
	 * (not after a failure, nor when -c is reached or the output is gone) */
	if (!s->failed && !s->lr.wfailed && !c->out.failed && !(s->lr.count && c->stats.packets >= s->lr.count) &&
	    cap_live_drain(s->l, live_packet, &s->lr) > 0 && !o->quiet)
		cap_out_flush(&c->out);
	cap_live_update_drops(s->l);
	if (o->view)
		cap_view_draw(s->view, c, s->l, cap_now());
	cap_view_free(s->view);
	if (s->have_writer) {
		int rc = cap_writer_close(w);
		if (s->lr.wfailed || rc != 0) {
			error_line(w->err[0] ? w->err : "cannot write the capture file");
			s->failed = 1;
		} else if (!w->to_stdout && w->files == 1) {
			fprintf(stderr, "%s: wrote %" PRIu64 " packets to %s\n", CAP_PROG, w->total_packets,
				cap_esc(file1, sizeof(file1), w->first_name));
		} else if (!w->to_stdout) {
			fprintf(stderr, "%s: wrote %" PRIu64 " packets to %u files, %s to %s\n", CAP_PROG,
				w->total_packets, w->files, cap_esc(file1, sizeof(file1), w->first_name),
				cap_esc(file2, sizeof(file2), w->name));
		}
	}
	if (s->multi && cap_live_queues_finish(s->l, c, s->shown) != 0)
		s->failed = 1;
}

/* The outputs at the end: the report, the summary, the drops. */
static void live_report(struct live_session *s)
{
	struct cap_ctx *c = s->c;
	struct cap_live *l = s->l;

	cap_ctx_end_input(c);
	/* The reader of standard output went away (| head): that ends the
	 * capture, as tcpdump ends, and is not an error. */
	int reader_gone = c->out.failed && c->out.errno_saved == EPIPE;
	if (!reader_gone)
		cap_set_status(c, finish_output(c));
	if (c->report) {
		struct cap_opts ro = *s->o;
		if (reader_gone)
			ro.report = 0; /* the HTML file is still written */
		if (l->drops.known) /* else the report says none were recorded */
			cap_report_set_drops(c->report, l->drops.kernel, l->drops.ifdrop);
		cap_set_status(c, report_outputs(c, &ro, wall_ns()));
	}
	cap_summary_print(&c->stats, CAP_PROG, stderr);
	print_drops(l, s->shown);
	cap_live_summary(l, s->shown);
	if (l->drops.kernel || l->drops.ifdrop) {
		fprintf(stderr,
			"%s: %s: the capture is incomplete: %" PRIu64 " packets were lost (try a larger "
			"-B, a smaller -s, or -w without per-packet output)\n",
			CAP_PROG, s->shown, l->drops.kernel + l->drops.ifdrop);
		cap_set_status(c, CAP_EXIT_PROBLEM);
	}
}

static int run_live(struct cap_ctx *c, const struct cap_opts *o)
{
	static struct cap_live l;
	static struct cap_writer w;
	static char shown[NAME_SHOWN];
	struct live_session s = {.o = o, .c = c, .l = &l, .w = &w, .shown = shown};

	s.lr = (struct live_run){.c = c, .l = &l, .count = o->count};
	int status;
	s.drop = drop_lookup(o, &status);
	if (status != 0)
		return status;
	status = live_start(&s);
	if (status != 0)
		return status;
	live_loop(&s);
	live_stop(&s);
	live_report(&s);
	cap_live_close(&l);
	if (s.failed)
		cap_set_status(c, CAP_EXIT_USAGE);
	return c->status;
}

#ifndef CAP_WITH_DPDK
/* -i dpdk:...: the same command line, run by rocewire-cap-dpdk (next to this
 * program, else in PATH). Returns only when that cannot be run. */
static void hand_over_to_dpdk(char **argv)
{
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/rocewire-cap-dpdk", self);
			execv(path, argv);
		}
	}
	execvp("rocewire-cap-dpdk", argv);
}
#endif

/* libpcap could not be loaded where a call needed it (rocewire_io). */
static void pcap_missing(const char *line)
{
	fprintf(stderr, "%s: %s\n", CAP_PROG, line);
	exit(CAP_EXIT_USAGE);
}

int main(int argc, char **argv)
{
	struct cap_opts opts;
	static struct cap_ctx ctx; /* large (struct rw_packet, counters): not on the stack */
	int status;

	cap_pcap_fail = pcap_missing;
	cap_opts_parse(argc, argv, &opts);
#ifndef CAP_WITH_DPDK
	if (opts.iface && strncmp(opts.iface, "dpdk:", 5) == 0)
		hand_over_to_dpdk(argv); /* else cap_live_open() says what is missing */
#endif
	if (opts.list_ifaces) {
		status = cap_list_interfaces(stdout) == 0 ? CAP_EXIT_OK : CAP_EXIT_USAGE;
		free(opts.files);
		return status;
	}
	if (opts.dump_filter) {
		status = cap_dump_filter(&opts);
		free(opts.files);
		return status;
	}
	if (opts.between) {
		status = cap_between_run(&opts);
		free(opts.files);
		return status;
	}
	if (opts.qlen_file) {
		char err[512], shown[NAME_SHOWN];
		cap_esc(shown, sizeof(shown), opts.qlen_file);
		if (cap_qlen_load(opts.qlen_file, shown, &opts.qlen, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", CAP_PROG, err);
			free(opts.files);
			return CAP_EXIT_USAGE;
		}
	}
	if (opts.counters_before && load_counters(&opts) != 0) {
		cap_qlen_free(&opts.qlen);
		free(opts.files);
		return CAP_EXIT_USAGE;
	}
	if (cap_ctx_init(&ctx, &opts) != 0) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		return CAP_EXIT_USAGE;
	}
	if (opts.keep_report) {
		/* The title is shown in the table and the page: escaped as the
		 * messages are (report.c would turn control bytes into '?'). */
		char title[NAME_SHOWN];
		cap_esc(title, sizeof(title), opts.iface ? opts.iface : opts.files[0]);
		ctx.report = report_new(&opts, title);
		if (!ctx.report) {
			fprintf(stderr, "%s: cannot make the report: %s\n", CAP_PROG, strerror(errno));
			return CAP_EXIT_USAGE;
		}
	}

	status = opts.iface ? run_live(&ctx, &opts) : run_offline(&ctx, &opts);

	if (ctx.report)
		cap_report_free(ctx.report);
	cap_ctx_free(&ctx);
	cap_qlen_free(&opts.qlen);
	rw_ctr_free(&opts.counters.before);
	rw_ctr_free(&opts.counters.after);
	free((char *)opts.counters.before_name);
	free((char *)opts.counters.after_name);
	free(opts.files);
	return status;
}
