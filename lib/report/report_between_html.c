/* SPDX-License-Identifier: BSD-3-Clause */
/* `rocewire-cap --between A B --html FILE`: the two-tap comparison as one
 * self-contained page (html_draw.h, the per-QP page's style): the summary,
 * then per flow, for both directions, where on the PSN timeline its
 * packets were lost and how the delay between the taps moved over time,
 * with the list of its lost packets; last the flows' table.
 *
 * The matcher keeps counters and histograms, not packets; the plots come
 * from what its observer (rw_between_observe) saw, kept here in bounded
 * series (between_report.h). Direction is known only at the end, so the
 * series keep each flow's unmatched packets per tap where seen; the page
 * then reads the upstream tap's as lost and the downstream tap's as seen
 * there only (duplicated or injected).
 *
 * Each plot carries its axes' mapping (class "axis-map": data range and
 * pixel box) so that a test can place a packet of its own truth on it and
 * find the mark there. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "between_int.h"
#include "between_report.h"
#include "fmt.h"
#include "html_draw.h"
#include "report_int.h"
#include "rocewire.h"

#define DRAWN_FLOWS 24  /* flow sections with plots */
#define TABLE_FLOWS 1000 /* rows of the flows' table */
#define LIST_ROWS 100   /* lost packets listed per flow */

#define C_LOST "#d62728"
#define C_EXTRA "#9467bd"
#define C_ONE "#6b7280"
#define C_DELAY "#4e79a7"

/* ---- the series the observer fills -------------------------------------------- */

struct pt {
	int64_t ts[2];          /* at A, at B */
	int64_t upsn;
	uint8_t ce;
};

struct mark {
	int64_t ts;
	int64_t upsn;
	uint64_t frame;
	uint8_t opcode;
};

struct thin {
	uint64_t seen;
	uint32_t n;
	uint8_t k;              /* a sample every 2^k */
};

struct pflow {
	int have_psn;
	uint32_t first_psn;     /* the plot's PSN axis counts from it */
	uint32_t last_psn;
	int64_t last_upsn;
	struct thin pt_t;
	struct pt pt[CB_PLOT_POINTS];
	struct thin mk_t[2];
	struct mark mk[2][CB_PLOT_MARKS]; /* seen in A only, in B only */
};

struct cap_between_plot {
	struct pflow *flow[CB_PLOT_FLOWS];
	uint64_t beyond;        /* events of flows without a series */
	int have_t;
	int64_t tmin, tmax;
	int oom;
};

struct cap_between_plot *cap_between_plot_new(void)
{
	return calloc(1, sizeof(struct cap_between_plot));
}

void cap_between_plot_free(struct cap_between_plot *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < CB_PLOT_FLOWS; i++)
		free(p->flow[i]);
	free(p);
}

/* The slot for the next sample, or NULL when this one is not kept: every
 * 2^k-th is; a full buffer drops every other sample and doubles 2^k, so
 * those kept stay evenly spread over the flow's history. */
static void *thin_slot(void *v, size_t size, uint32_t max, struct thin *t)
{
	uint64_t i = t->seen++;
	if (i & (((uint64_t)1 << t->k) - 1))
		return NULL;
	if (t->n == max) {
		char *c = v;
		for (uint32_t j = 1; j < max / 2; j++)
			memcpy(c + j * size, c + 2 * j * size, size);
		t->n = max / 2;
		t->k++;
		if (i & (((uint64_t)1 << t->k) - 1))
			return NULL;
	}
	return (char *)v + (size_t)t->n++ * size;
}

/* PSNs unwrapped across 2^24: each step of at most 2^23 either way from
 * the flow's previous one, so a wrap is a straight line. */
static int64_t unwrap(struct pflow *f, uint32_t psn)
{
	if (!f->have_psn) {
		f->have_psn = 1;
		f->first_psn = psn;
		f->last_upsn = psn;
	} else {
		int32_t step = (int32_t)((psn - f->last_psn) << 8) >> 8;
		f->last_upsn += step;
	}
	f->last_psn = psn;
	return f->last_upsn;
}

void cap_between_plot_observe(void *plot, const struct rw_between_event *ev)
{
	struct cap_between_plot *p = plot;
	for (int s = 0; s < 2; s++) {
		if (!ev->matched && s != ev->side)
			continue;
		if (!p->have_t || ev->ts[s] < p->tmin)
			p->tmin = ev->ts[s];
		if (!p->have_t || ev->ts[s] > p->tmax)
			p->tmax = ev->ts[s];
		p->have_t = 1;
	}
	if (ev->flow >= CB_PLOT_FLOWS) {
		p->beyond++;
		return;
	}
	struct pflow *f = p->flow[ev->flow];
	if (!f) {
		f = p->flow[ev->flow] = calloc(1, sizeof(*f));
		if (!f) {
			p->oom = 1;
			return;
		}
	}
	int64_t upsn = unwrap(f, ev->psn);
	if (ev->matched) {
		struct pt *q = thin_slot(f->pt, sizeof(*q), CB_PLOT_POINTS, &f->pt_t);
		if (q)
			*q = (struct pt){.ts = {ev->ts[0], ev->ts[1]}, .upsn = upsn, .ce = ev->ce_marked};
		return;
	}
	int s = ev->side ? 1 : 0;
	struct mark *m = thin_slot(f->mk[s], sizeof(*m), CB_PLOT_MARKS, &f->mk_t[s]);
	if (m)
		*m = (struct mark){.ts = ev->ts[s], .upsn = upsn, .frame = ev->frame[s], .opcode = ev->opcode};
}

/* ---- the page ---------------------------------------------------------------------- */

/* rp_dur with a sign: delays and offsets may be negative. */
static char *sdur(char *buf, size_t cap, int64_t ns)
{
	if (ns >= 0)
		return rp_dur(buf, cap, (uint64_t)ns);
	buf[0] = '-';
	rp_dur(buf + 1, cap - 1, (uint64_t)0 - (uint64_t)ns);
	return buf;
}

struct page {
	FILE *f;
	const struct rw_between *b;
	const struct rw_between_result *r;
	const struct cap_between_info *in;
	const struct cap_between_plot *p;
	int64_t t0;             /* the earliest packet observed, merged clock */
	const char *unit;       /* of the time axes */
	double div;             /* ns per unit */
	double span;            /* x range in units */
	uint32_t *drawn;        /* flows with a section, in page order */
	size_t n_drawn, n_candidates;
};

/* The upstream tap of a flow (where its lost packets were seen). */
static int up_side(const struct rw_between_flow *fl)
{
	return fl->dir == RW_BETWEEN_DIR_B_TO_A ? RW_BETWEEN_B : RW_BETWEEN_A;
}

static const char *dir_arrow(enum rw_between_dir d)
{
	return d == RW_BETWEEN_DIR_A_TO_B   ? "A \xe2\x86\x92 B"
	       : d == RW_BETWEEN_DIR_B_TO_A ? "B \xe2\x86\x92 A"
					    : "direction unknown";
}

static double tx(const struct page *pg, int64_t ts)
{
	return (double)(ts - pg->t0) / pg->div;
}

static void flow_title(const struct page *pg, size_t i, char *buf, size_t cap)
{
	const struct rw_between_flow *fl = rw_between_flow_at(pg->b, i);
	char s[CB_ADDR_LEN], d[CB_ADDR_LEN];
	snprintf(buf, cap, "#%zu %s \xe2\x86\x92 %s QP 0x%06" PRIx32 " (%s)", i, cb_addr_str(s, &fl->src),
		 cb_addr_str(d, &fl->dst), fl->dqpn, dir_arrow(fl->dir));
}

/* y_base: what the y axis counts from (a PSN plot's first PSN, else 0). */
static void axis_map(FILE *f, const struct hd_ax *a, const struct page *pg, int64_t y_base)
{
	fprintf(f,
		"<g class=\"axis-map\" data-px=\"%.3f\" data-py=\"%.3f\" data-pw=\"%.3f\" data-ph=\"%.3f\" "
		"data-x0=\"%.9g\" data-x1=\"%.9g\" data-y0=\"%.9g\" data-y1=\"%.9g\" data-y-base=\"%" PRId64
		"\" data-t0-ns=\"%" PRId64 "\" data-ns-per-x=\"%.9g\"></g>\n",
		a->x, a->y, a->w, a->h, a->x0, a->x1, a->y0, a->y1, y_base, pg->t0, pg->div);
}

static int pt_cmp_a(const void *x, const void *y)
{
	const struct pt *p = x, *q = y;
	return p->ts[0] < q->ts[0] ? -1 : p->ts[0] > q->ts[0];
}

static int pt_cmp_b(const void *x, const void *y)
{
	const struct pt *p = x, *q = y;
	return p->ts[1] < q->ts[1] ? -1 : p->ts[1] > q->ts[1];
}

/* A range of at least min_w on round steps. */
static void yrange(struct hd_ax *a, double lo, double hi, double min_w)
{
	if (hi - lo < min_w) {
		double mid = (lo + hi) / 2;
		lo = mid - min_w / 2;
		hi = mid + min_w / 2;
	}
	double ys = hd_nice_step(hi - lo, 4);
	a->y0 = hd_floor(lo / ys) * ys;
	a->y1 = hd_ceil(hi / ys) * ys;
	if (a->y1 <= a->y0)
		a->y1 = a->y0 + ys;
}

static void lost_marker(FILE *f, const char *cls, double x, double y)
{
	fprintf(f, "<g class=\"%s\" transform=\"translate(%.2f %.2f)\"><path d=\"M-4.5 -4.5L4.5 4.5M-4.5 4.5L4.5 -4.5\" "
		   "stroke=\"" C_LOST "\" stroke-width=\"2.4\" stroke-linecap=\"round\"/>",
		cls, x, y);
}

static void extra_marker(FILE *f, const char *cls, const char *colour, double x, double y)
{
	fprintf(f, "<g class=\"%s\" transform=\"translate(%.2f %.2f)\"><path d=\"M0 -5L5 0L0 5L-5 0Z\" fill=\"%s\"/>",
		cls, x, y, colour);
}

/* Plot 1: the flow's matched packets as a PSN line over the upstream tap's
 * time, its lost packets marked where they were seen, its packets seen
 * downstream only marked apart. */
static void plot_psn(struct page *pg, size_t i, const struct pflow *s, struct pt *pts)
{
	FILE *f = pg->f;
	const struct rw_between_flow *fl = rw_between_flow_at(pg->b, i);
	int up = up_side(fl), known = fl->dir != RW_BETWEEN_DIR_UNKNOWN;
	char id[32], b[256];
	snprintf(id, sizeof(id), "psn-%zu", i);
	int height = 350;
	hd_svg_open(f, id, height, "PSN timeline: matched and lost packets");
	uint64_t lost = known ? fl->unmatched[up] : 0;
	uint64_t extra = known ? fl->unmatched[!up] : 0;
	snprintf(b, sizeof(b),
		 "%" PRIu64 " matched (line, at the upstream tap's time; PSN unwrapped across 2^24), %" PRIu64 " lost (\xc3\x97), %" PRIu64
		 " seen only downstream (\xe2\x97\x86)%s",
		 fl->matched, lost, extra, known ? "" : "; direction unknown: every packet seen in one tap only (\xe2\x97\x86 grey)");
	hd_svg_sub(f, 50, b);
	struct hd_ax a = {.x = 90, .y = 70, .w = SVG_W - 90 - 30, .h = 200, .x0 = 0, .x1 = pg->span};
	/* PSNs as their distance from the flow's first: seven-digit labels
	 * would not fit beside the axis */
	int64_t base = s->first_psn;
	int any = 0;
	double lo = 0, hi = 0;
	for (uint32_t k = 0; k < s->pt_t.n; k++) {
		double v = (double)(pts[k].upsn - base);
		lo = !any || v < lo ? v : lo;
		hi = !any || v > hi ? v : hi;
		any = 1;
	}
	for (int t = 0; t < 2; t++)
		for (uint32_t k = 0; k < s->mk_t[t].n; k++) {
			double v = (double)(s->mk[t][k].upsn - base);
			lo = !any || v < lo ? v : lo;
			hi = !any || v > hi ? v : hi;
			any = 1;
		}
	yrange(&a, lo, hi, 4);
	char xl[64];
	snprintf(xl, sizeof(xl), "time since the first packet (%s)", pg->unit);
	char yl[64];
	snprintf(yl, sizeof(yl), "PSN \xe2\x88\x92 %" PRIu32 " (first seen)", s->first_psn);
	hd_axes(f, &a, xl, yl, 1);
	axis_map(f, &a, pg, base);
	fputs(DATA_OPEN, f);
	int ts_side = fl->dir == RW_BETWEEN_DIR_B_TO_A ? 1 : 0;
	if (s->pt_t.n) {
		fputs("<polyline class=\"psn\" fill=\"none\" stroke=\"" C_DELAY "\" stroke-width=\"1.8\" "
		      "stroke-linejoin=\"round\" points=\"",
		      f);
		for (uint32_t k = 0; k < s->pt_t.n; k++)
			fprintf(f, "%.2f,%.2f ", hd_x(&a, tx(pg, pts[k].ts[ts_side])), hd_y(&a, (double)(pts[k].upsn - base)));
		fputs("\"/>\n", f);
		if (s->pt_t.n == 1)
			fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\" fill=\"" C_DELAY "\"/>\n",
				hd_x(&a, tx(pg, pts[0].ts[ts_side])), hd_y(&a, (double)(pts[0].upsn - base)));
		for (uint32_t k = 0; k < s->pt_t.n; k++)
			if (pts[k].ce)
				fprintf(f, "<circle class=\"ce\" cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"none\" "
					   "stroke=\"" C_CE "\" stroke-width=\"1.5\"/>",
					hd_x(&a, tx(pg, pts[k].ts[ts_side])), hd_y(&a, (double)(pts[k].upsn - base)));
	}
	char d[64];
	for (int t = 0; t < 2; t++) {
		int is_lost = known && t == up;
		for (uint32_t k = 0; k < s->mk_t[t].n; k++) {
			const struct mark *m = &s->mk[t][k];
			double x = hd_x(&a, tx(pg, m->ts)), y = hd_y(&a, (double)(m->upsn - base));
			if (is_lost)
				lost_marker(f, "lost", x, y);
			else
				extra_marker(f, known ? "extra" : "oneside", known ? C_EXTRA : C_ONE, x, y);
			/* the exact values drawn, for a test to hold against its truth */
			fprintf(f, "<desc data-t-ns=\"%" PRId64 "\" data-psn=\"%" PRId64 "\" data-frame=\"%" PRIu64 "\"></desc>",
				m->ts, m->upsn, m->frame);
			fprintf(f, "<title>%s: PSN %" PRIu32 " %s, tap %c frame %" PRIu64 ", at %s</title></g>\n",
				is_lost ? "lost" : known ? "seen downstream only" : "seen in one tap only",
				(uint32_t)(m->upsn & 0xffffff), rw_opcode(m->opcode)->name, "AB"[t], m->frame,
				rp_dur(d, sizeof(d), (uint64_t)(m->ts - pg->t0)));
		}
	}
	fputs(DATA_CLOSE, f);
	/* legend and what thinning left out */
	int ly = height - 14;
	fprintf(f, "<g font-size=\"12\" fill=\"" C_LABEL "\"><line x1=\"90\" y1=\"%d\" x2=\"112\" y2=\"%d\" "
		   "stroke=\"" C_DELAY "\" stroke-width=\"2\"/><text x=\"118\" y=\"%d\">matched</text>",
		ly - 4, ly - 4, ly);
	lost_marker(f, "key", 210, ly - 4);
	fprintf(f, "</g><text x=\"222\" y=\"%d\">lost</text>", ly);
	extra_marker(f, "key", C_EXTRA, 280, ly - 4);
	fprintf(f, "</g><text x=\"292\" y=\"%d\">seen downstream only</text>", ly);
	fprintf(f, "<circle cx=\"450\" cy=\"%d\" r=\"3.5\" fill=\"none\" stroke=\"" C_CE "\" stroke-width=\"1.5\"/>"
		   "<text x=\"460\" y=\"%d\">CE marked between the taps</text>",
		ly - 4, ly);
	uint64_t mk_hidden = 0;
	for (int t = 0; t < 2; t++)
		mk_hidden += s->mk_t[t].seen - s->mk_t[t].n;
	if (s->pt_t.k || mk_hidden) {
		fprintf(f, "<text class=\"thinned\" x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#6b7280\">",
			SVG_W - 30, ly);
		if (s->pt_t.k)
			fprintf(f, "line: 1 matched packet in %" PRIu64 "%s", (uint64_t)1 << s->pt_t.k,
				mk_hidden ? "; " : "");
		if (mk_hidden)
			fprintf(f, "marks: %" PRIu64 " not drawn (1 in %" PRIu64 " / %" PRIu64 " kept)", mk_hidden,
				(uint64_t)1 << s->mk_t[0].k, (uint64_t)1 << s->mk_t[1].k);
		fputs("</text>", f);
	}
	fputs("</g>\n</svg>\n", f);
}

/* Plot 2: each matched packet's delay between the taps in its direction
 * (B - A, or A - B for B -> A flows) over the upstream tap's time, with
 * the flow's median and 99th percentile (from all its packets). */
static void plot_delay(struct page *pg, size_t i, const struct pflow *s, const struct pt *pts)
{
	FILE *f = pg->f;
	const struct rw_between_flow *fl = rw_between_flow_at(pg->b, i);
	int rev = fl->dir == RW_BETWEEN_DIR_B_TO_A;
	char id[32], b[256], c[64], d[64], e[64], g[64];
	snprintf(id, sizeof(id), "delay-%zu", i);
	int height = 340;
	hd_svg_open(f, id, height, rev ? "Delay over time (A \xe2\x88\x92 B: travelling B \xe2\x86\x92 A)"
				       : "Delay over time (B \xe2\x88\x92 A)");
	struct rw_between_delay dl;
	rw_between_flow_delay(fl, &dl);
	if (dl.n)
		snprintf(b, sizeof(b), "%" PRIu64 " matched packets: min %s, p50 %s, p99 %s, max %s (all packets; "
			 "the clock offset applied)",
			 dl.n, sdur(c, sizeof(c), dl.min), sdur(d, sizeof(d), dl.p50),
			 sdur(e, sizeof(e), dl.p99), sdur(g, sizeof(g), dl.max));
	else
		snprintf(b, sizeof(b), "no matched packet");
	hd_svg_sub(f, 50, b);
	struct hd_ax a = {.x = 90, .y = 70, .w = SVG_W - 90 - 30, .h = 190, .x0 = 0, .x1 = pg->span};
	int64_t mag = dl.n ? (dl.max > -dl.min ? dl.max : -dl.min) : 0;
	const char *yu;
	double ydiv;
	hd_time_unit(mag < 0 ? 0 : (uint64_t)mag, &yu, &ydiv);
	double lo = dl.n ? (double)dl.min / ydiv : 0, hi = dl.n ? (double)dl.max / ydiv : 1;
	yrange(&a, lo, hi, (hi - lo) > 0 ? 0 : (hi != 0 ? (hi < 0 ? -hi : hi) * 0.1 : 1));
	char xl[64], yl[48];
	snprintf(xl, sizeof(xl), "time since the first packet (%s)", pg->unit);
	snprintf(yl, sizeof(yl), "delay (%s)", yu);
	hd_axes(f, &a, xl, yl, 1);
	/* the delay axis's own unit: data-ns-per-y */
	fprintf(f, "<g class=\"delay-unit\" data-ns-per-y=\"%.9g\"></g>\n", ydiv);
	axis_map(f, &a, pg, 0);
	if (!dl.n) {
		hd_empty_msg(f, &a, "no packet of this flow was seen in both taps");
		fputs("</svg>\n", f);
		return;
	}
	fputs(DATA_OPEN, f);
	int ts_side = rev ? 1 : 0;
	for (int q = 0; q < 2; q++) {
		double v = (double)(q ? dl.p99 : dl.p50) / ydiv;
		fprintf(f, "<line class=\"%s\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
			   "stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>",
			q ? "p99" : "p50", a.x, hd_y(&a, v), a.x + a.w, hd_y(&a, v), q ? C_LOST : "#059669");
	}
	fputs("\n<path class=\"delay\" fill=\"none\" stroke=\"" C_DELAY "\" stroke-width=\"3.5\" "
	      "stroke-linecap=\"round\" d=\"",
	      f);
	for (uint32_t k = 0; k < s->pt_t.n; k++) {
		int64_t dv = pts[k].ts[1] - pts[k].ts[0];
		if (rev)
			dv = -dv;
		fprintf(f, "M%.2f %.2fh0", hd_x(&a, tx(pg, pts[k].ts[ts_side])), hd_y(&a, (double)dv / ydiv));
	}
	fputs("\"/>\n", f);
	fputs(DATA_CLOSE, f);
	int ly = height - 14;
	fprintf(f, "<g font-size=\"12\" fill=\"" C_LABEL "\"><circle cx=\"96\" cy=\"%d\" r=\"2.5\" fill=\"" C_DELAY
		   "\"/><text x=\"106\" y=\"%d\">one matched packet</text>"
		   "<line x1=\"250\" y1=\"%d\" x2=\"274\" y2=\"%d\" stroke=\"#059669\" stroke-dasharray=\"6 4\"/>"
		   "<text x=\"280\" y=\"%d\">p50</text>"
		   "<line x1=\"330\" y1=\"%d\" x2=\"354\" y2=\"%d\" stroke=\"" C_LOST "\" stroke-dasharray=\"6 4\"/>"
		   "<text x=\"360\" y=\"%d\">p99 (within %.2g%%)</text>",
		ly - 4, ly, ly - 4, ly - 4, ly, ly - 4, ly - 4, ly, RW_BETWEEN_HIST_REL_ERR * 100);
	if (s->pt_t.k)
		fprintf(f, "<text class=\"thinned\" x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#6b7280\">1 matched "
			   "packet in %" PRIu64 " drawn (%" PRIu32 " of %" PRIu64 ")</text>",
			SVG_W - 30, ly, (uint64_t)1 << s->pt_t.k, s->pt_t.n, s->pt_t.seen);
	fputs("</g>\n</svg>\n", f);
}

/* The flow's lost packets as the matcher listed them (for a flow of
 * unknown direction: those seen in one tap only), the first LIST_ROWS. */
static void lost_table(struct page *pg, size_t i)
{
	FILE *f = pg->f;
	const struct rw_between_flow *fl = rw_between_flow_at(pg->b, i);
	enum rw_between_fate fate = fl->dir == RW_BETWEEN_DIR_UNKNOWN ? RW_BETWEEN_UNKNOWN_DIR : RW_BETWEEN_LOST;
	uint64_t total = cb_flow_fate(fl, fate);
	fprintf(f, "<h3>%s: <span class=\"count\" id=\"lost-count-%zu\">%" PRIu64 "</span></h3>\n",
		fate == RW_BETWEEN_LOST ? "Lost between the taps" : "Seen in one tap only (direction unknown)", i,
		total);
	if (!total)
		return;
	fprintf(f, "<div class=\"scroll\"><table class=\"lost\" id=\"lost-%zu\"><thead><tr><th class=\"r\">PSN</th>"
		   "<th>opcode</th><th>tap</th><th class=\"r\">frame</th><th class=\"r\">time</th></tr></thead><tbody>\n",
		i);
	size_t n = rw_between_list_len(pg->b, fate), rows = 0;
	uint64_t in_list = 0;
	char d[64];
	for (size_t k = 0; k < n; k++) {
		const struct rw_between_unmatched *u = rw_between_list_get(pg->b, fate, k);
		if (u->flow != i)
			continue;
		in_list++;
		if (rows == LIST_ROWS)
			continue;
		rows++;
		fprintf(f, "<tr><td class=\"r\">%" PRIu32 "</td><td>%s</td><td>%c</td><td class=\"r\">%" PRIu64
			   "</td><td class=\"r\">%s</td></tr>\n",
			u->psn, rw_opcode(u->opcode)->name, "AB"[u->side ? 1 : 0], u->frame,
			rp_dur(d, sizeof(d), (uint64_t)(u->ts_ns - pg->t0)));
	}
	fputs("</tbody></table></div>\n", f);
	if (rows == total)
		return;
	fprintf(f, "<p class=\"note\" id=\"lost-cut-%zu\">%zu of %" PRIu64 " listed", i, rows, total);
	if (in_list < total)
		fprintf(f, " (the comparison keeps the first %u of each kind for all flows together)",
			RW_BETWEEN_DEFAULT_LIST_CAP);
	fputs(".</p>\n", f);
}

static void flow_section(struct page *pg, size_t i, struct pt *buf)
{
	FILE *f = pg->f;
	const struct rw_between_flow *fl = rw_between_flow_at(pg->b, i);
	const struct pflow *s = pg->p->flow[i];
	static const struct pflow none;
	if (!s)
		s = &none;
	char t[256], sa[CB_ADDR_LEN], da[CB_ADDR_LEN];
	flow_title(pg, i, t, sizeof(t));
	fprintf(f, "<section class=\"card flow\" id=\"flow-%zu\" data-flow=\"%zu\" data-from=\"%s\" data-to=\"%s\" "
		   "data-dqpn=\"%" PRIu32 "\" data-dir=\"%s\">\n<h2>",
		i, i, cb_addr_str(sa, &fl->src), cb_addr_str(da, &fl->dst), fl->dqpn, rw_between_dir_name(fl->dir));
	hd_esc(f, t);
	fprintf(f, "</h2>\n<p class=\"meta\">packets A %" PRIu64 ", B %" PRIu64 "; matched %" PRIu64 ", lost %" PRIu64
		   ", only in B %" PRIu64 ", only in A %" PRIu64 ", CE marked %" PRIu64 ", reordered %" PRIu64 "</p>\n",
		fl->packets[0], fl->packets[1], fl->matched, cb_flow_fate(fl, RW_BETWEEN_LOST),
		cb_flow_fate(fl, RW_BETWEEN_ONLY_IN_B), cb_flow_fate(fl, RW_BETWEEN_ONLY_IN_A), fl->ce_marked,
		fl->reordered);
	/* the samples in the upstream tap's time order: a line, not a scribble */
	memcpy(buf, s->pt, s->pt_t.n * sizeof(*buf));
	qsort(buf, s->pt_t.n, sizeof(*buf), fl->dir == RW_BETWEEN_DIR_B_TO_A ? pt_cmp_b : pt_cmp_a);
	plot_psn(pg, i, s, buf);
	plot_delay(pg, i, s, buf);
	lost_table(pg, i);
	fputs("</section>\n", f);
}

/* ---- choosing the flows drawn -------------------------------------------------------- */

static const struct rw_between *rank_b;

/* Most lost first, then most seen in one tap only, then most matched;
 * the flow's order on a tie. */
static int rank_cmp(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct rw_between_flow *p = rw_between_flow_at(rank_b, i), *q = rw_between_flow_at(rank_b, j);
	uint64_t pl = cb_flow_fate(p, RW_BETWEEN_LOST), ql = cb_flow_fate(q, RW_BETWEEN_LOST);
	if (pl != ql)
		return pl > ql ? -1 : 1;
	uint64_t pu = p->unmatched[0] + p->unmatched[1], qu = q->unmatched[0] + q->unmatched[1];
	if (pu != qu)
		return pu > qu ? -1 : 1;
	if (p->matched != q->matched)
		return p->matched > q->matched ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int dir_rank(enum rw_between_dir d)
{
	return d == RW_BETWEEN_DIR_A_TO_B ? 0 : d == RW_BETWEEN_DIR_B_TO_A ? 1 : 2;
}

/* Page order: A -> B, then B -> A, then unknown; by flow within each. */
static int page_cmp(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	int di = dir_rank(rw_between_flow_at(rank_b, i)->dir), dj = dir_rank(rw_between_flow_at(rank_b, j)->dir);
	if (di != dj)
		return di < dj ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int choose(struct page *pg)
{
	size_t nf = rw_between_flow_count(pg->b);
	size_t nc = nf < CB_PLOT_FLOWS ? nf : CB_PLOT_FLOWS;
	pg->drawn = malloc((nc ? nc : 1) * sizeof(*pg->drawn));
	if (!pg->drawn)
		return -1;
	for (size_t i = 0; i < nc; i++)
		pg->drawn[i] = (uint32_t)i;
	rank_b = pg->b;
	qsort(pg->drawn, nc, sizeof(*pg->drawn), rank_cmp);
	pg->n_candidates = nc;
	pg->n_drawn = nc < DRAWN_FLOWS ? nc : DRAWN_FLOWS;
	qsort(pg->drawn, pg->n_drawn, sizeof(*pg->drawn), page_cmp);
	return 0;
}

/* ---- summary and flows' table -------------------------------------------------------- */

static void kv_u(FILE *f, const char *key, const char *label, uint64_t v)
{
	fprintf(f, "<tr data-key=\"%s\" data-value=\"%" PRIu64 "\"><td>%s</td><td>%" PRIu64 "</td></tr>\n", key, v, label, v);
}

static void kv_delay(FILE *f, const char *key, const char *label, const struct rw_between_delay *d)
{
	fprintf(f, "<tr data-key=\"%s\"", key);
	if (d->n)
		fprintf(f, " data-count=\"%" PRIu64 "\" data-min=\"%" PRId64 "\" data-p50=\"%" PRId64 "\" data-p99=\"%" PRId64
			   "\" data-max=\"%" PRId64 "\"",
			d->n, d->min, d->p50, d->p99, d->max);
	fprintf(f, "><td>%s</td><td>", label);
	if (d->n) {
		char a[64], b[64], c[64], e[64];
		fprintf(f, "min %s, p50 %s, p99 %s, max %s (%" PRIu64 " packets)", sdur(a, sizeof(a), d->min),
			sdur(b, sizeof(b), d->p50), sdur(c, sizeof(c), d->p99), sdur(e, sizeof(e), d->max),
			d->n);
	} else {
		fputs("none", f);
	}
	fputs("</td></tr>\n", f);
}

static void summary(struct page *pg)
{
	FILE *f = pg->f;
	const struct rw_between_result *r = pg->r;
	const struct cap_between_info *in = pg->in;
	char b[64], c[64];
	fputs("<section class=\"kpis\">\n", f);
	hd_kpi_u(f, "matched", r->matched, 0);
	hd_kpi_u(f, "lost", r->lost_count, 1);
	hd_kpi_u(f, "only in B", r->only_in_b, 1);
	hd_kpi_u(f, "only in A", r->only_in_a, 1);
	hd_kpi_u(f, "direction unknown", r->unknown_dir, 1);
	hd_kpi_u(f, "CE marked", r->ce_marked, 1);
	hd_kpi_u(f, "reordered", r->reordered, 1);
	hd_kpi(f, "delay p50 A\xe2\x86\x92" "B", r->delay.n ? sdur(b, sizeof(b), r->delay.p50) : "-", 0);
	hd_kpi(f, "delay p99 A\xe2\x86\x92" "B", r->delay.n ? sdur(b, sizeof(b), r->delay.p99) : "-", 0);
	hd_kpi(f, "delay p50 B\xe2\x86\x92" "A", r->reverse.n ? sdur(b, sizeof(b), r->reverse.p50) : "-", 0);
	hd_kpi(f, "clock offset B\xe2\x88\x92" "A", sdur(c, sizeof(c), in->offset_ns), 0);
	hd_kpi_u(f, "flows", rw_between_flow_count(pg->b), 0);
	fputs("</section>\n", f);

	fputs("<section class=\"card\"><h2>Summary</h2><table class=\"kv\" id=\"summary\"><tbody>\n", f);
	for (int s = 0; s < 2; s++) {
		char e[CAP_ESC_SIZE(512)];
		fprintf(f, "<tr data-key=\"tap_%c\" data-frames=\"%" PRIu64 "\"><td>tap %c (%s)</td><td>", "ab"[s],
			in->frames[s], "AB"[s], s ? "downstream" : "upstream");
		hd_esc(f, cap_esc(e, sizeof(e), in->file[s]));
		fprintf(f, ": %" PRIu64 " frames, %" PRIu64 " RoCE/IB compared, %" PRIu64 " ignored</td></tr>\n",
			in->frames[s], in->compared[s], in->ignored[s]);
	}
	fprintf(f, "<tr data-key=\"offset\" data-offset-ns=\"%" PRId64 "\" data-estimated=\"%d\"><td>clock offset "
		   "(B \xe2\x88\x92 A)</td><td>%" PRId64 " ns, %s</td></tr>\n",
		in->offset_ns, in->offset_estimated, in->offset_ns,
		in->offset_estimated ? "estimated from both directions' minimum delays (--estimate-offset)"
		: in->offset_estimate_failed ? "given (no estimate: a direction has no matched packet)"
					     : "given (--offset, or 0)");
	fprintf(f, "<tr data-key=\"window\"><td>window</td><td>%s</td></tr>\n",
		rp_dur(b, sizeof(b), in->window_ns));
	kv_u(f, "matched", "matched", r->matched);
	kv_u(f, "lost", "lost between the taps", r->lost_count);
	kv_u(f, "only_in_b", "only in B (duplicated or injected)", r->only_in_b);
	kv_u(f, "only_in_a", "only in A (of pairs travelling B \xe2\x86\x92 A)", r->only_in_a);
	kv_u(f, "unknown_dir", "in one tap only, direction unknown", r->unknown_dir);
	kv_u(f, "ce_marked", "CE marked between the taps", r->ce_marked);
	kv_u(f, "reordered", "reordered (RFC 4737)", r->reordered);
	fputs("<tr data-key=\"changed\"><td>changed on the way</td><td>", f);
	for (int k = 0; k < RW_BC_COUNT; k++)
		fprintf(f, "%s<span data-field=\"%s\">%s %" PRIu64 "</span>", k ? ", " : "",
			rw_between_change_name((enum rw_between_change)k), rw_between_change_name((enum rw_between_change)k),
			r->changed[k]);
	fputs("</td></tr>\n", f);
	kv_delay(f, "delay", "delay A \xe2\x86\x92 B", &r->delay);
	kv_delay(f, "reverse_delay", "delay B \xe2\x86\x92 A", &r->reverse);
	if (r->window_overflow)
		kv_u(f, "window_overflow", "settled before their window was over (pending cap)", r->window_overflow);
	if (r->untracked)
		kv_u(f, "untracked", "packets of flows beyond the flow cap, not compared", r->untracked);
	fprintf(f, "</tbody></table>\n<p class=\"note\">Percentiles are within %.2g%% of the exact value; minimum "
		   "and maximum are exact. A packet is matched by its addresses, destination QP, PSN, opcode and "
		   "ICRC.</p></section>\n",
		RW_BETWEEN_HIST_REL_ERR * 100);
}

static void flows_table(struct page *pg)
{
	FILE *f = pg->f;
	size_t nf = rw_between_flow_count(pg->b), rows = nf < TABLE_FLOWS ? nf : TABLE_FLOWS;
	fprintf(f, "<section class=\"card\"><h2>Flows</h2>\n");
	if (!nf) {
		fputs("<p class=\"note\">No RoCE or InfiniBand packet with a captured ICRC in either tap.</p></section>\n",
		      f);
		return;
	}
	fputs("<div class=\"scroll\"><table id=\"flows\"><thead><tr><th>#</th><th>src</th><th>dst</th><th>dqpn</th>"
	      "<th>direction</th><th class=\"r\">A</th><th class=\"r\">B</th><th class=\"r\">matched</th>"
	      "<th class=\"r\">lost</th><th class=\"r\">only B</th><th class=\"r\">only A</th>"
	      "<th class=\"r\">one tap, dir?</th><th class=\"r\">p50</th><th class=\"r\">p99</th>"
	      "<th class=\"r\">CE</th><th class=\"r\">reord</th></tr></thead><tbody>\n",
	      f);
	for (size_t i = 0; i < rows; i++) {
		const struct rw_between_flow *fl = rw_between_flow_at(pg->b, i);
		char s[CB_ADDR_LEN], d[CB_ADDR_LEN], p50[64], p99[64];
		struct rw_between_delay dl;
		rw_between_flow_delay(fl, &dl);
		uint64_t lost = cb_flow_fate(fl, RW_BETWEEN_LOST);
		fprintf(f, "<tr><td>%zu</td><td class=\"addr\">%s</td><td class=\"addr\">%s</td><td>0x%06" PRIx32
			   "</td><td>%s</td><td class=\"r\">%" PRIu64 "</td><td class=\"r\">%" PRIu64 "</td><td "
			   "class=\"r\">%" PRIu64 "</td><td class=\"r%s\">%" PRIu64 "</td><td class=\"r\">%" PRIu64
			   "</td><td class=\"r\">%" PRIu64 "</td><td class=\"r\">%" PRIu64 "</td><td class=\"r\">%s</td>"
			   "<td class=\"r\">%s</td><td class=\"r\">%" PRIu64 "</td><td class=\"r\">%" PRIu64 "</td></tr>\n",
			i, cb_addr_str(s, &fl->src), cb_addr_str(d, &fl->dst), fl->dqpn, dir_arrow(fl->dir),
			fl->packets[0], fl->packets[1], fl->matched, lost ? " hot" : "", lost,
			cb_flow_fate(fl, RW_BETWEEN_ONLY_IN_B), cb_flow_fate(fl, RW_BETWEEN_ONLY_IN_A),
			cb_flow_fate(fl, RW_BETWEEN_UNKNOWN_DIR), dl.n ? sdur(p50, sizeof(p50), dl.p50) : "-",
			dl.n ? sdur(p99, sizeof(p99), dl.p99) : "-", fl->ce_marked, fl->reordered);
	}
	fputs("</tbody></table></div>\n", f);
	if (rows < nf)
		fprintf(f, "<p class=\"note\" id=\"flows-cut\">The first %zu of %zu flows (the JSON form, --json, "
			   "lists them all).</p>\n",
			rows, nf);
	fputs("<p class=\"note\">Flows in the order of their first packet; direction is where most matched packets "
	      "travelled (A \xe2\x86\x92 B: seen first at tap A). one tap, dir?: packets of a pair with no matched "
	      "packet, so neither lost nor extra can be told. Delays in the flow's direction.</p></section>\n",
	      f);
}

/* What the sections leave out, in words. */
static void sections_note(struct page *pg)
{
	FILE *f = pg->f;
	size_t nf = rw_between_flow_count(pg->b);
	fprintf(f, "<p class=\"note\" id=\"drawn-note\">Plots for %zu of %zu flows", pg->n_drawn, nf);
	if (pg->n_drawn < nf) {
		fprintf(f, ": the %zu with most lost packets (then most seen in one tap only, then most matched)",
			pg->n_drawn);
		if (nf > CB_PLOT_FLOWS)
			fprintf(f, " among the first %u, the flows whose packets were followed (%" PRIu64
				   " outcomes of later flows were only counted)",
				CB_PLOT_FLOWS, pg->p->beyond);
	}
	fprintf(f, ". Each keeps at most %u matched packets (every 2^k-th, k growing as the flow grows) and %u "
		   "unmatched per tap (thinned alike); a plot says when it drew fewer than there were. Times on "
		   "both axes are on tap A's clock (B's corrected by the offset), from the first packet.</p>\n",
		CB_PLOT_POINTS, CB_PLOT_MARKS);
}

static const char css_between[] =
	"h2.dir{font-size:19px;margin:26px 0 10px}\n"
	"h3{font-size:14px;margin:12px 0 6px;font-weight:600}\n"
	"section.flow .meta{color:var(--muted);margin:0 0 6px}\n"
	"table.lost td{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace}\n";

static int write_page(FILE *f, void *ctx)
{
	struct page *pg = ctx;
	pg->f = f;
	char fa[CAP_ESC_SIZE(512)], fb[CAP_ESC_SIZE(512)], d[64];
	struct pt *buf = malloc(CB_PLOT_POINTS * sizeof(*buf));
	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"rocewire " ROCEWIRE_VERSION "\">\n"
	      "<title>rocewire: between two taps</title>\n<style>\n",
	      f);
	fputs(hd_css, f);
	fputs(css_between, f);
	fputs("</style>\n</head>\n<body>\n<main>\n<header>\n<h1>rocewire: between two taps</h1>\n<p class=\"file\">A ",
	      f);
	hd_esc(f, cap_esc(fa, sizeof(fa), pg->in->file[0]));
	fputs(" (upstream) \xe2\x86\x92 B ", f);
	hd_esc(f, cap_esc(fb, sizeof(fb), pg->in->file[1]));
	fputs(" (downstream)</p>\n", f);
	fprintf(f, "<p class=\"meta\">%zu flows over %s", rw_between_flow_count(pg->b),
		rp_dur(d, sizeof(d), pg->p->have_t ? (uint64_t)(pg->p->tmax - pg->p->tmin) : 0));
	if (pg->p->have_t)
		fprintf(f, ", from epoch time %" PRId64 ".%09" PRId64 " (tap A's clock)", pg->t0 / 1000000000,
			pg->t0 % 1000000000);
	fputs("</p>\n</header>\n", f);
	summary(pg);
	sections_note(pg);
	int last = -1;
	for (size_t k = 0; k < pg->n_drawn; k++) {
		const struct rw_between_flow *fl = rw_between_flow_at(pg->b, pg->drawn[k]);
		if (dir_rank(fl->dir) != last) {
			last = dir_rank(fl->dir);
			fprintf(f, "<h2 class=\"dir\" id=\"dir-%s\">%s</h2>\n", rw_between_dir_name(fl->dir),
				fl->dir == RW_BETWEEN_DIR_A_TO_B   ? "Flows travelling A \xe2\x86\x92 B"
				: fl->dir == RW_BETWEEN_DIR_B_TO_A ? "Flows travelling B \xe2\x86\x92 A"
								   : "Flows of unknown direction (nothing matched)");
		}
		flow_section(pg, pg->drawn[k], buf);
	}
	free(buf);
	/* after the plots: it may run to a thousand rows */
	flows_table(pg);
	fputs("<footer>rocewire " ROCEWIRE_VERSION " \xc2\xb7 this page is self-contained: inline CSS and SVG, no "
	      "script, nothing loaded from the network</footer>\n</main>\n</body>\n</html>\n",
	      f);
	return 0;
}

int cap_between_html(const struct rw_between *b, const struct rw_between_result *r,
		     const struct cap_between_info *in, const struct cap_between_plot *p, const char *path)
{
	if (p->oom) {
		errno = ENOMEM;
		return -1;
	}
	struct page pg = {.b = b, .r = r, .in = in, .p = p, .t0 = p->have_t ? p->tmin : 0};
	uint64_t span = p->have_t ? (uint64_t)(p->tmax - p->tmin) : 0;
	hd_time_unit(span, &pg.unit, &pg.div);
	double end = span ? (double)span / pg.div : 1;
	double st = hd_nice_step(end, 8);
	pg.span = hd_ceil(end / st - 1e-9) * st;
	if (pg.span <= 0)
		pg.span = 1;
	if (choose(&pg) != 0) {
		errno = ENOMEM;
		return -1;
	}
	int rc = hd_write_page(path, write_page, &pg);
	free(pg.drawn);
	return rc;
}
