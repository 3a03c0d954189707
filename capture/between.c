/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-cap --between A B: the two taps' files read side by side and
 * merged by time (B's times corrected by the offset), every frame decoded
 * and handed to proto's matcher (rocewire/between.h), the comparison
 * printed by rocewire_report (between_report.h). With --estimate-offset a
 * first pass finds the offset and a second one compares with it: the
 * delays' histograms then hold corrected values, so their stated error is
 * relative to the true delays, not to delays plus a large offset. With
 * --html the matcher's observer fills the page's bounded series as it
 * goes (report_between_html.c), and the page is written after the text or
 * JSON on standard output. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "between_report.h"
#include "cap.h"
#include "rocewire.h"
#include "source.h"

/* Packets each tap is decoded ahead of the merge (3 ran 13% faster than
 * 1, 4 about 2% faster than 3, on the bench's mix): each is announced to
 * the matcher as decoded (rw_between_prepare), so the memory its lookup
 * needs is on its way while the packets before it are matched. */
#define AHEAD 4
_Static_assert(AHEAD <= RW_BETWEEN_PREPARE_MAX, "the matcher keeps what is announced");

struct ahead {
	struct rw_packet pkt;
	int64_t ts;             /* on A's clock */
	uint64_t index;         /* frame number in its file */
};

struct tap {
	struct cap_source src;
	struct cap_record rec;
	struct ahead q[AHEAD];  /* decoded, not yet fed: from q[head], n of them */
	unsigned head, n;
	int eof, open;
};

/* Decodes the tap's next records until AHEAD wait (or the file ends);
 * 0, or -1 on a read error. */
static int tap_fill(struct tap *t, const struct rw_decode_cfg *cfg, int64_t offset, struct rw_between *b, int side)
{
	while (t->n < AHEAD && !t->eof) {
		int rc = cap_source_next(&t->src, &t->rec);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			t->eof = 1;
			break;
		}
		struct ahead *a = &t->q[(t->head + t->n) % AHEAD];
		rw_packet_decode(cfg, t->rec.linktype, t->rec.data, t->rec.caplen, t->rec.wirelen, &a->pkt);
		a->ts = t->rec.ts_sec * 1000000000 + (int64_t)t->rec.ts_nsec - offset;
		a->index = t->rec.index;
		rw_between_prepare(b, side, &a->pkt);
		t->n++;
	}
	return 0;
}

static void taps_close(struct tap *t)
{
	for (int s = 0; s < 2; s++)
		if (t[s].open) {
			cap_source_close(&t[s].src);
			t[s].open = 0;
		}
}

/* One pass over both files into a new matcher (*out); returns an exit
 * status, CAP_EXIT_OK when the files were read whole. */
static int pass(const struct cap_opts *o, int64_t offset, uint64_t window_ns, struct rw_between **out,
		struct cap_between_info *in, struct cap_between_plot *plot)
{
	static struct tap t[2]; /* large: struct rw_packet, the sources' rings */
	struct rw_decode_cfg cfg = o->cfg;
	cfg.no_icrc_check = 1; /* the ICRC as captured is the identity; nobody verifies it here */
	struct rw_between_cfg bc = {.window_ns = window_ns};
	struct rw_between *b = rw_between_new(&bc);
	*out = NULL;
	if (!b) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		return CAP_EXIT_USAGE;
	}
	if (plot)
		rw_between_observe(b, cap_between_plot_observe, plot);
	memset(in->frames, 0, sizeof(in->frames));
	memset(in->compared, 0, sizeof(in->compared));
	memset(in->ignored, 0, sizeof(in->ignored));
	memset(t, 0, sizeof(t));
	for (int s = 0; s < 2; s++) {
		if (cap_offline_open(&t[s].src, o->files[s]) != 0) {
			fprintf(stderr, "%s: %s\n", CAP_PROG, t[s].src.err);
			taps_close(t);
			rw_between_free(b);
			return CAP_EXIT_USAGE;
		}
		t[s].open = 1;
	}
	int status = CAP_EXIT_OK;
	for (int s = 0; s < 2 && status == CAP_EXIT_OK; s++)
		if (tap_fill(&t[s], &cfg, s ? offset : 0, b, s) < 0)
			status = -1 - s;
	while (status == CAP_EXIT_OK && (t[0].n || t[1].n)) {
		/* the earlier of the two; A on a tie */
		int s = !t[0].n || (t[1].n && t[1].q[t[1].head].ts < t[0].q[t[0].head].ts);
		const struct ahead *a = &t[s].q[t[s].head];
		in->frames[s]++;
		int rc = rw_between_feed(b, s, &a->pkt, a->ts, a->index);
		if (rc < 0) {
			fprintf(stderr, "%s: %s\n", CAP_PROG, rw_between_error(b));
			status = CAP_EXIT_USAGE;
			break;
		}
		if (rc)
			in->compared[s]++;
		else
			in->ignored[s]++;
		t[s].head = (t[s].head + 1) % AHEAD;
		t[s].n--;
		if (tap_fill(&t[s], &cfg, s ? offset : 0, b, s) < 0)
			status = -1 - s;
	}
	if (status < 0) {
		/* a damaged or cut file: one line, and no comparison of half a file */
		int s = -1 - status;
		fprintf(stderr, "%s: %s\n", CAP_PROG, t[s].src.err);
		status = t[s].src.failure == CAP_SOURCE_OPEN ? CAP_EXIT_USAGE : CAP_EXIT_PROBLEM;
	}
	taps_close(t);
	if (status != CAP_EXIT_OK) {
		rw_between_free(b);
		return status;
	}
	*out = b;
	return CAP_EXIT_OK;
}

int cap_between_run(const struct cap_opts *o)
{
	struct cap_between_info in = {
		.file = {o->files[0], o->files[1]},
		.window_ns = o->between_window_ns ? o->between_window_ns : RW_BETWEEN_DEFAULT_WINDOW_NS,
		.offset_ns = o->between_offset_ns,
	};
	struct rw_between_result r;
	struct rw_between *b;
	struct cap_between_plot *plot = NULL;
	if (o->between_estimate && (!strcmp(o->files[0], "-") || !strcmp(o->files[1], "-"))) {
		fprintf(stderr, "%s: --estimate-offset reads the files twice: standard input (-) cannot be one of them\n",
			CAP_PROG);
		return CAP_EXIT_USAGE;
	}
	/* The estimate's pass waits at least RW_BETWEEN_ESTIMATE_WINDOW_NS: the
	 * offset it is there to find may well exceed the comparison's window. */
	uint64_t w1 = in.window_ns;
	if (o->between_estimate && w1 < RW_BETWEEN_ESTIMATE_WINDOW_NS)
		w1 = RW_BETWEEN_ESTIMATE_WINDOW_NS;
	if (o->html && !(plot = cap_between_plot_new())) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		return CAP_EXIT_USAGE;
	}
	int status = pass(o, in.offset_ns, w1, &b, &in, plot);
	if (status != CAP_EXIT_OK) {
		cap_between_plot_free(plot);
		return status;
	}
	rw_between_finish(b, &r);
	if (o->between_estimate) {
		int ok;
		int64_t est = rw_between_offset_estimate(&r, &ok);
		if (ok) {
			rw_between_free(b);
			in.offset_ns += est;
			in.offset_estimated = 1;
			/* the page's series follow the second pass: the first one's
			 * times were off by the offset it found */
			if (plot) {
				cap_between_plot_free(plot);
				if (!(plot = cap_between_plot_new())) {
					fprintf(stderr, "%s: out of memory\n", CAP_PROG);
					return CAP_EXIT_USAGE;
				}
			}
			status = pass(o, in.offset_ns, in.window_ns, &b, &in, plot);
			if (status != CAP_EXIT_OK) {
				cap_between_plot_free(plot);
				return status;
			}
			rw_between_finish(b, &r);
		} else {
			in.offset_estimate_failed = 1;
			fprintf(stderr, "%s: warning: the clock offset cannot be estimated: %s; "
					"the comparison uses --offset (%" PRId64 " ns)\n",
				CAP_PROG, r.delay.n ? "no packet matched travelling B -> A"
						    : "no packet matched travelling A -> B",
				in.offset_ns);
		}
	}
	if (rw_between_error(b))
		fprintf(stderr, "%s: warning: %s\n", CAP_PROG, rw_between_error(b));
	if (r.window_overflow)
		fprintf(stderr,
			"%s: warning: %" PRIu64 " packets were settled as unmatched before their window ended: "
			"more than %u packets waited at once; shorten --window\n",
			CAP_PROG, r.window_overflow, RW_BETWEEN_DEFAULT_MAX_PENDING);
	if (!r.matched && in.compared[0] && in.compared[1])
		fprintf(stderr,
			"%s: warning: no packet of A found its twin in B within the window (%" PRIu64
			" ns): if the taps' clocks are not synchronised, give --offset or --estimate-offset, "
			"or a longer --window\n",
			CAP_PROG, in.window_ns);
	if (r.untracked)
		fprintf(stderr, "%s: warning: %" PRIu64 " packets of flows beyond the first %u were not compared\n",
			CAP_PROG, r.untracked, RW_BETWEEN_DEFAULT_MAX_FLOWS);
	errno = 0;
	int rc = o->format == CAP_FMT_JSON ? cap_between_json(b, &r, &in, stdout) : cap_between_text(b, &r, &in, stdout);
	if (rc != 0) {
		fprintf(stderr, "%s: cannot write the comparison: %s\n", CAP_PROG, strerror(errno ? errno : EIO));
		status = CAP_EXIT_USAGE;
	}
	if (o->html) {
		errno = 0;
		if (cap_between_html(b, &r, &in, plot, o->html) != 0) {
			char shown[CAP_ESC_SIZE(4096)];
			fprintf(stderr, "%s: cannot write the HTML report: %s\n", cap_esc(shown, sizeof(shown), o->html),
				strerror(errno ? errno : EIO));
			status = CAP_EXIT_USAGE;
		}
	}
	cap_between_plot_free(plot);
	rw_between_free(b);
	return status;
}
