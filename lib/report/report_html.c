/* SPDX-License-Identifier: BSD-3-Clause */
/* `rocewire-cap --html FILE`: one self-contained HTML page (inline CSS and
 * SVG, no script, nothing fetched) with four plots drawn from the bounded
 * series of report_series.c, then the tables of the text report.
 *
 * Plots: throughput per flow over time; PSN against time per flow with
 * retransmissions, go-back-N starts, gaps and reorders marked; CE marks and
 * CNPs per flow on a timeline; PFC/PAUSE pause intervals per class. Where a
 * capture had more marks or intervals than the series keep, the plot shows
 * their density per time bin instead, and says so. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire.h"
#include "qlen.h"
#include "html_draw.h"
#include "report_int.h"

#define TOP_FLOWS 8   /* lines in the throughput plot */
#define PSN_PANELS 6
#define CONG_ROWS 12

struct html {
	FILE *f;
	const struct cap_report *r;
	const struct rw_totals *t;
	uint32_t *idx;          /* flows by bytes */
	uint32_t n;
	const char *unit;       /* time unit of the x axes */
	double div;             /* ns per unit */
	double span;            /* x range in units */
	uint32_t nb;            /* bins in use */
	uint64_t w;             /* bin width, ns */
	int oom;
};

/* ---- small helpers ------------------------------------------------------ */

static char *flow_label(const struct cap_report *r, uint32_t i, char *buf, size_t cap)
{
	const struct rw_flow *f = rw_analyzer_flow(r->a, i);
	char s[64], d[64];
	snprintf(buf, cap, "#%" PRIu32 " %s \xe2\x86\x92 %s QP 0x%06" PRIx32 " %s", i,
		 cap_report_addr(s, sizeof(s), &f->key, 1), cap_report_addr(d, sizeof(d), &f->key, 0), f->key.dqpn,
		 rw_transport_name((enum rw_transport)f->transport));
	return buf;
}

static char *xlabel(const struct html *h, char *buf, size_t cap)
{
	snprintf(buf, cap, "time since the first packet (%s)", h->unit);
	return buf;
}

/* Flows with a series, by bytes, that pass `want`; at most max. */
static uint32_t pick_flows(const struct html *h, uint32_t *out, uint32_t max,
			   int (*want)(const struct html *, uint32_t))
{
	uint32_t k = 0;
	for (uint32_t j = 0; j < h->n && k < max; j++) {
		uint32_t i = h->idx[j];
		if (i < h->r->nseries && want(h, i))
			out[k++] = i;
	}
	return k;
}

/* The colour of a flow: by its rank among the flows by bytes, so that a flow
 * keeps its colour in every plot. */
static const char *flow_colour(const struct html *h, uint32_t i)
{
	for (uint32_t j = 0; j < h->n; j++)
		if (h->idx[j] == i)
			return hd_palette[j % HD_PALETTE_N];
	return hd_palette[0];
}

/* ---- plot 1: throughput ------------------------------------------------- */

static int want_bytes(const struct html *h, uint32_t i)
{
	return rw_analyzer_flow(h->r->a, i)->bytes > 0;
}

static void plot_throughput(struct html *h)
{
	FILE *f = h->f;
	uint32_t fl[TOP_FLOWS];
	uint32_t nf = pick_flows(h, fl, TOP_FLOWS, want_bytes);
	int rows = (int)(nf + 2) / 2;
	int height = 100 + 300 + 56 + rows * 22 + 16;
	char b[160], c[64];
	hd_svg_open(h->f, "plot-throughput", height, "Throughput per flow over time");
	snprintf(b, sizeof(b), "bytes on the wire per %s bin, as bits per second; the %u flows with most bytes%s",
		 rp_dur(c, sizeof(c), h->w), nf, nf ? "" : " (none)");
	hd_svg_sub(h->f, 50, b);
	struct hd_ax a = {.x = 90, .y = 70, .w = SVG_W - 90 - 30, .h = 300, .x0 = 0, .x1 = h->span};

	/* Gb/s, or Mb/s or kb/s for slow captures. */
	double sc = 1;
#define RATE(bytes) ((double)(bytes) * 8 / (double)h->w * sc)
	double tmax = 0, fmax = 0;
	for (uint32_t k = 0; k < h->nb; k++) {
		double v = RATE(h->r->total_bytes[k]);
		if (v > tmax)
			tmax = v;
		for (uint32_t j = 0; j < nf; j++) {
			v = RATE(h->r->series[fl[j]].bytes[k]);
			if (v > fmax)
				fmax = v;
		}
	}
	/* All traffic is drawn too, unless it would squash the flows' lines
	 * (many flows, or much traffic outside the top ones). */
	int total_line = tmax <= 4 * fmax || !nf;
	double ymax = total_line ? tmax : fmax;
	const char *unit = "throughput (Gb/s)", *uname = "Gb/s";
	if (ymax > 0 && ymax < 1e-3) {
		sc = 1e6, unit = "throughput (kb/s)", uname = "kb/s";
	} else if (ymax > 0 && ymax < 1) {
		sc = 1e3, unit = "throughput (Mb/s)", uname = "Mb/s";
	}
	ymax *= sc;
	tmax *= sc;
	a.y0 = 0;
	a.y1 = ymax > 0 ? ymax * 1.08 : 1;
	a.y1 = hd_ceil(a.y1 / hd_nice_step(a.y1, 5)) * hd_nice_step(a.y1, 5);
	hd_axes(h->f, &a, xlabel(h, b, sizeof(b)), unit, 1);
	if (!h->nb) {
		hd_empty_msg(h->f, &a, "no packets in this capture");
	} else {
		fputs(DATA_OPEN, f);
		/* All traffic, dashed, behind the flows. */
		if (total_line)
			fputs("<polyline fill=\"none\" stroke=\"#9ca3af\" stroke-width=\"1.5\" "
		      "stroke-dasharray=\"5 4\" points=\"",
		      f);
		for (uint32_t k = 0; total_line && k < h->nb; k++)
			fprintf(f, "%.1f,%.1f ", hd_x(&a, ((double)k + 0.5) * (double)h->w / h->div),
				hd_y(&a, RATE(h->r->total_bytes[k])));
		if (total_line)
			fputs("\"/>\n", f);
		for (uint32_t j = nf; j-- > 0;) {
			const struct rs_flow *s = &h->r->series[fl[j]];
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
				   "stroke-linejoin=\"round\" points=\"",
				flow_colour(h, fl[j]));
			for (uint32_t k = 0; k < h->nb; k++)
				fprintf(f, "%.1f,%.1f ", hd_x(&a, ((double)k + 0.5) * (double)h->w / h->div),
					hd_y(&a, RATE(s->bytes[k])));
			fputs("\"/>\n", f);
			if (h->nb == 1)
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
					hd_x(&a, 0.5 * (double)h->w / h->div),
					hd_y(&a, RATE(s->bytes[0])), flow_colour(h, fl[j]));
		}
		fputs(DATA_CLOSE, f);
	}
	/* Legend, two columns. */
	int ly = 70 + 300 + 62;
	fprintf(f, "<g class=\"legend\" font-size=\"12.5\" fill=\"" C_LABEL "\">\n");
	for (uint32_t j = 0; j <= nf; j++) {
		int col = (int)(j % 2), row = (int)(j / 2);
		double x = 90 + col * 560, y = ly + row * 22;
		if (j == nf) {
			if (total_line) {
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					   "stroke=\"#9ca3af\" stroke-width=\"2\" stroke-dasharray=\"5 4\"/>",
					x, y - 4, x + 24, y - 4);
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">all traffic (%s)</text>\n", x + 32, y,
					rp_bytes(c, sizeof(c), h->t->bytes));
			} else {
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#6b7280\">all traffic: %s, up to "
					   "%.3g %s per bin (not drawn: it would flatten the flows)</text>\n",
					x, y, rp_bytes(c, sizeof(c), h->t->bytes), tmax, uname);
			}
			break;
		}
		const struct rw_flow *fw = rw_analyzer_flow(h->r->a, fl[j]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			   "stroke-width=\"3\"/>",
			x, y - 4, x + 24, y - 4, flow_colour(h, fl[j]));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 32, y);
		hd_esc(f, flow_label(h->r, fl[j], b, sizeof(b)));
		fprintf(f, " (%s)</text>\n", rp_bytes(c, sizeof(c), fw->bytes));
	}
	fputs("</g>\n</svg>\n", f);
}
#undef RATE

/* ---- plot 2: PSN against time ------------------------------------------- */

static int want_psn(const struct html *h, uint32_t i)
{
	return h->r->series[i].n_psn > 0;
}

static void marker(FILE *f, unsigned kind, double x, double y, double y_gap_top)
{
	switch (kind) {
	case RS_EV_RETRANS:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"" C_RETX "\"/>", x, y);
		break;
	case RS_EV_GBN:
		fprintf(f, "<path d=\"M%.1f %.1fl5.5 9h-11z\" fill=\"" C_RETX "\" stroke=\"#fff\" "
			   "stroke-width=\"0.8\"/>",
			x, y - 6);
		break;
	case RS_EV_GAP:
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" C_GAP
			   "\" stroke-width=\"3\"/>"
			   "<path d=\"M%.1f %.1fl-5 -8h10z\" fill=\"" C_GAP "\"/>",
			x, y_gap_top, x, y, x, y_gap_top - 1);
		break;
	default:
		fprintf(f, "<path d=\"M%.1f %.1fl4.5 4.5l-4.5 4.5l-4.5 -4.5z\" fill=\"" C_OOO "\"/>", x,
			y - 4.5);
		break;
	}
}

/* The key above the panels: the PSN line and the four event markers. */
static void psn_legend(FILE *f)
{
	fprintf(f, "<g font-size=\"12.5\" fill=\"" C_LABEL "\">");
	double lx = 24;
	fprintf(f, "<line x1=\"%.1f\" y1=\"72\" x2=\"%.1f\" y2=\"72\" stroke=\"#4e79a7\" "
		   "stroke-width=\"2\"/><text x=\"%.1f\" y=\"76\">PSN (flow colour)</text>",
		lx, lx + 22, lx + 28);
	lx += 160;
	marker(f, RS_EV_RETRANS, lx + 6, 72, 0);
	fprintf(f, "<text x=\"%.1f\" y=\"76\">retransmission</text>", lx + 16);
	lx += 130;
	marker(f, RS_EV_GBN, lx + 6, 73, 0);
	fprintf(f, "<text x=\"%.1f\" y=\"76\">go-back-N start</text>", lx + 16);
	lx += 140;
	marker(f, RS_EV_GAP, lx + 6, 79, 68);
	fprintf(f, "<text x=\"%.1f\" y=\"76\">gap (bar spans the missing PSNs)</text>", lx + 16);
	lx += 250;
	marker(f, RS_EV_OOO, lx + 6, 72, 0);
	fprintf(f, "<text x=\"%.1f\" y=\"76\">out of order</text></g>\n", lx + 16);
}

/* A panel's PSN range: the flow's PSNs and the missing ones of its gaps
 * (which reach below the PSN after them), at least 4 wide, on round
 * steps. */
static void psn_yrange(const struct rs_flow *s, struct hd_ax *a)
{
	double lo = (double)s->upsn_min, hi = (double)s->upsn_max;
	const struct rs_evbuf *eb = &s->evb[RS_EVB_EPISODES];
	for (uint32_t k = 0; k < eb->n; k++)
		if (eb->e[k].kind == RS_EV_GAP && (double)(eb->e[k].upsn - eb->e[k].len) < lo)
			lo = (double)(eb->e[k].upsn - eb->e[k].len);
	if (hi - lo < 4)
		hi = lo + 4;
	double ys = hd_nice_step(hi - lo, 4);
	a->y0 = hd_floor(lo / ys) * ys;
	a->y1 = hd_ceil(hi / ys) * ys;
	if (a->y1 <= a->y0)
		a->y1 = a->y0 + ys;
}

/* The flow's events as markers with a tooltip each: gaps first, then
 * reorders, then retransmissions on top. */
static void psn_events(struct html *h, const struct hd_ax *a, const struct rs_flow *s)
{
	FILE *f = h->f;
	static const unsigned order[] = {RS_EV_GAP, RS_EV_OOO, RS_EV_RETRANS, RS_EV_GBN};

	for (unsigned o = 0; o < 4; o++) {
		const struct rs_evbuf *b = &s->evb[order[o] == RS_EV_RETRANS];
		for (uint32_t k = 0; k < b->n; k++) {
			const struct rs_event *e = &b->e[k];
			if (e->kind != order[o])
				continue;
			double x = hd_x(a, (double)e->t / h->div), y = hd_y(a, (double)e->upsn);
			fputs("<g>", f);
			if (e->kind == RS_EV_GAP) {
				/* The bar goes from the PSN after the gap down to the
				 * first missing one. */
				double ytop = hd_y(a, (double)(e->upsn - 1));
				double ybot = hd_y(a, (double)(e->upsn - (int64_t)e->len));
				if (ybot - ytop < 6)
					ybot = ytop + 6;
				marker(f, RS_EV_GAP, x, ybot, ytop);
			} else {
				marker(f, e->kind, x, y, 0);
			}
			char d[64];
			fprintf(f, "<title>%s at %s",
				e->kind == RS_EV_GAP	 ? "gap" :
				e->kind == RS_EV_OOO	 ? "out of order" :
				e->kind == RS_EV_GBN	 ? "go-back-N start" :
							   "retransmission",
				rp_dur(d, sizeof(d), e->t));
			if (e->kind == RS_EV_GAP)
				fprintf(f, ": %" PRIu32 " PSN%s missing", e->len, e->len == 1 ? "" : "s");
			fputs("</title></g>\n", f);
		}
	}
}

/* Panel j of the grid (two columns): flow fl's title and counters, axes,
 * PSN line, event markers, and a note of what thinning left out. */
static void psn_panel(struct html *h, uint32_t j, uint32_t fl, int top, int ph, int rowh)
{
	FILE *f = h->f;
	char b[200];
	const struct rs_flow *s = &h->r->series[fl];
	const struct rw_flow *fw = rw_analyzer_flow(h->r->a, fl);
	int col = (int)(j % 2), row = (int)(j / 2);
	struct hd_ax a = {.x = 84 + col * 600, .y = top + 30 + row * rowh, .w = 486, .h = ph - 30,
		       .x0 = 0, .x1 = h->span};

	psn_yrange(s, &a);
	/* Panel title */
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" rx=\"2\" fill=\"%s\"/>",
		a.x - 60, a.y - 30, flow_colour(h, fl));
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"600\" fill=\"" C_TITLE
		   "\">",
		a.x - 42, a.y - 20);
	hd_esc(f, flow_label(h->r, fl, b, sizeof(b)));
	fputs("</text>", f);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11.5\" fill=\"#6b7280\" "
		   "text-anchor=\"end\">first PSN 0x%06" PRIx32 " \xc2\xb7 retx %" PRIu64
		   " \xc2\xb7 gaps %" PRIu64 " \xc2\xb7 ooo %" PRIu64 "</text>\n",
		a.x + a.w, a.y - 6, s->first_psn, fw->retransmissions, fw->psn_gaps,
		fw->out_of_order);
	hd_axes(h->f, &a, xlabel(h, b, sizeof(b)), "PSN \xe2\x88\x92 first", 1);
	fputs(DATA_OPEN, f);
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
		   "stroke-linejoin=\"round\" points=\"",
		flow_colour(h, fl));
	for (uint32_t k = 0; k < s->n_psn; k++)
		fprintf(f, "%.1f,%.1f ", hd_x(&a, (double)s->psn[k].t / h->div),
			hd_y(&a, (double)s->psn[k].upsn));
	fputs("\"/>\n", f);
	if (s->n_psn == 1)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
			hd_x(&a, (double)s->psn[0].t / h->div), hd_y(&a, (double)s->psn[0].upsn),
			flow_colour(h, fl));
	psn_events(h, &a, s);
	fputs(DATA_CLOSE, f);
	uint64_t hidden = 0;
	for (unsigned k = 0; k < 2; k++)
		hidden += s->evb[k].seen - s->evb[k].n;
	if (hidden || s->psn_stride_log) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#6b7280\">", a.x + 6,
			a.y + 12);
		if (s->psn_stride_log)
			fprintf(f, "line: 1 packet in %" PRIu64 "%s", (uint64_t)1 << s->psn_stride_log,
				hidden ? "; " : "");
		if (hidden)
			fprintf(f, "markers thinned out over time: %" PRIu64 " not drawn", hidden);
		fputs("</text>\n", f);
	}
}

static void plot_psn(struct html *h)
{
	FILE *f = h->f;
	uint32_t fl[PSN_PANELS];
	uint32_t nf = pick_flows(h, fl, PSN_PANELS, want_psn);
	const int ph = 190, top = 104, rowh = ph + 92;
	int rows = (int)(nf + 1) / 2;
	int height = top + (rows ? rows : 1) * rowh + 10;
	char b[200];
	hd_svg_open(h->f, "plot-psn", height, "PSN versus time per flow");
	hd_svg_sub(h->f, 50,
		"PSN distance from the flow's first PSN (unwrapped across 2^24); the line and, beyond "
		"128 per kind and flow, the markers are thinned out evenly over time");
	psn_legend(f);

	if (!nf) {
		struct hd_ax a = {.x = 90, .y = top, .w = SVG_W - 120, .h = ph, .x0 = 0,
			       .x1 = h->span > 0 ? h->span : 1, .y0 = 0, .y1 = 1};
		hd_axes(h->f, &a, xlabel(h, b, sizeof(b)), "PSN \xe2\x88\x92 first PSN", 1);
		hd_empty_msg(h->f, &a, "no flow carries sequenced packets (RC, UC, RD, XRC)");
		fputs("</svg>\n", f);
		return;
	}
	for (uint32_t j = 0; j < nf; j++)
		psn_panel(h, j, fl[j], top, ph, rowh);
	fputs("</svg>\n", f);
}

/* ---- plot 3: CE marks and CNPs ----------------------------------------- */

static int want_cong(const struct html *h, uint32_t i)
{
	const struct rs_flow *s = &h->r->series[i];
	return s->n_ce || s->n_cnp;
}

/* One lane of marks: exact ticks when every mark was kept, else the count
 * per bin as a bar whose opacity grows with the count. */
static void lane(struct html *h, const struct hd_ax *a, double y, double hh, const uint64_t *marks,
		 uint32_t n, uint64_t over, const uint32_t *bins, const char *colour)
{
	FILE *f = h->f;
	if (!over) {
		fprintf(f, "<path stroke=\"%s\" stroke-width=\"1.6\" d=\"", colour);
		for (uint32_t k = 0; k < n; k++)
			fprintf(f, "M%.1f %.1fv%.1f", hd_x(a, (double)marks[k] / h->div), y, hh);
		fputs("\"/>\n", f);
		return;
	}
	uint32_t mx = 1;
	for (uint32_t k = 0; k < h->nb; k++)
		if (bins[k] > mx)
			mx = bins[k];
	for (uint32_t k = 0; k < h->nb; k++) {
		if (!bins[k])
			continue;
		double x0 = hd_x(a, (double)k * (double)h->w / h->div);
		double x1 = hd_x(a, (double)(k + 1) * (double)h->w / h->div);
		double op = 0.25 + 0.75 * (double)bins[k] / mx;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
			   "fill-opacity=\"%.2f\"><title>%" PRIu32 "</title></rect>\n",
			x0, y, x1 - x0 > 1 ? x1 - x0 : 1, hh, colour, op, bins[k]);
	}
}

/* The bottleneck's queue (--qlen), a lane above the flows: a step line of
 * bytes over the same time axis, scaled to its largest value. */
static void qlen_lane(struct html *h, const struct hd_ax *a, double y, double hh)
{
	FILE *f = h->f;
	const struct cap_qlen *q = h->r->opts.qlen;
	char b[64];
	fprintf(f, "<rect x=\"24\" y=\"%.1f\" width=\"10\" height=\"10\" rx=\"2\" fill=\"" C_QLEN "\"/>"
		   "<text x=\"40\" y=\"%.1f\" font-size=\"12\" fill=\"" C_TITLE "\">bottleneck queue</text>"
		   "<text x=\"40\" y=\"%.1f\" font-size=\"11\" fill=\"#6b7280\">--qlen, all priorities; max %s"
		   "</text>\n",
		y + 9, y + 18, y + 32, rp_bytes(b, sizeof(b), q->max));
	if (!q->n || !q->max)
		return;
	fprintf(f, "<polyline fill=\"none\" stroke=\"" C_QLEN "\" stroke-width=\"1.4\" points=\"");
	double last_x = -1;
	for (size_t i = 0; i < q->n; i++) {
		double x = hd_x(a, (double)q->t_ns[i] / h->div);
		double yy = y + hh - (double)q->bytes[i] / (double)q->max * (hh - 4);
		/* one point per pixel column is enough: a long trace stays small */
		if (x - last_x < 0.5 && i + 1 < q->n && q->bytes[i] != q->max)
			continue;
		fprintf(f, "%.1f,%.1f ", x, yy);
		last_x = x;
	}
	fputs("\"/>\n", f);
}

static void plot_congestion(struct html *h)
{
	FILE *f = h->f;
	uint32_t fl[CONG_ROWS];
	uint32_t nf = pick_flows(h, fl, CONG_ROWS, want_cong);
	const int rowh = 40, left = 330;
	const int qh = h->r->opts.qlen ? 56 : 0; /* the queue's lane */
	const int top = 92 + qh;
	int height = top + (int)(nf ? nf : 2) * rowh + 60;
	char b[200], c[64];
	hd_svg_open(h->f, "plot-congestion", height, "ECN CE marks and CNPs per flow");
	snprintf(b, sizeof(b),
		 "upper lane: packets of the flow marked CE by a switch; lower lane: CNPs sent back to "
		 "slow the flow (%" PRIu64 " CNPs had no CE mark in the %s before them)",
		 h->t->cnps_unlinked, rp_dur(c, sizeof(c), h->r->opts.cnp_window_ns));
	hd_svg_sub(h->f, 50, b);
	fprintf(f, "<g font-size=\"12.5\" fill=\"" C_LABEL "\">"
		   "<rect x=\"24\" y=\"63\" width=\"3\" height=\"12\" fill=\"" C_CE "\"/>"
		   "<text x=\"34\" y=\"74\">CE mark</text>"
		   "<rect x=\"114\" y=\"63\" width=\"3\" height=\"12\" fill=\"" C_CNP "\"/>"
		   "<text x=\"124\" y=\"74\">CNP</text>"
		   "<text x=\"180\" y=\"74\" fill=\"#6b7280\">(shaded bars: marks per time bin, when "
		   "there were more than %u)</text></g>\n",
		RS_MARK_MAX);
	struct hd_ax a = {.x = left, .y = top, .w = SVG_W - left - 30, .h = (nf ? nf : 2) * rowh,
		       .x0 = 0, .x1 = h->span, .y0 = 0, .y1 = 1};
	hd_axes(h->f, &a, xlabel(h, b, sizeof(b)), NULL, 0);
	if (qh)
		qlen_lane(h, &a, top - qh, qh - 8);
	if (!nf) {
		hd_empty_msg(h->f, &a, "no CE marks and no CNPs in this capture");
		fputs("</svg>\n", f);
		return;
	}
	for (uint32_t j = 0; j < nf; j++) {
		const struct rs_flow *s = &h->r->series[fl[j]];
		const struct rw_flow *fw = rw_analyzer_flow(h->r->a, fl[j]);
		double y = top + j * rowh;
		if (j % 2)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#f8fafc\"/>",
				a.x, y, a.w, rowh);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" C_GRID "\"/>\n",
			a.x, y + rowh, a.x + a.w, y + rowh);
		fprintf(f, "<rect x=\"24\" y=\"%.1f\" width=\"10\" height=\"10\" rx=\"2\" fill=\"%s\"/>",
			y + 9, flow_colour(h, fl[j]));
		fprintf(f, "<text x=\"40\" y=\"%.1f\" font-size=\"12\" fill=\"" C_TITLE "\">", y + 18);
		char s1[64], d1[64];
		snprintf(b, sizeof(b), "#%" PRIu32 " %s \xe2\x86\x92 %s", fl[j],
			 cap_report_addr(s1, sizeof(s1), &fw->key, 1), cap_report_addr(d1, sizeof(d1), &fw->key, 0));
		hd_esc(f, b);
		fprintf(f, "</text><text x=\"40\" y=\"%.1f\" font-size=\"11\" fill=\"#6b7280\">QP 0x%06" PRIx32
			   " \xc2\xb7 CE %" PRIu64 " \xc2\xb7 CNP %" PRIu64 "</text>\n",
			y + 32, fw->key.dqpn, fw->ecn[RW_ECN_CE], fw->cnps);
		fputs(DATA_OPEN, f);
		lane(h, &a, y + 5, rowh / 2 - 7, s->ce, s->n_ce, s->ce_over, s->ce_bin, C_CE);
		lane(h, &a, y + rowh / 2 + 2, rowh / 2 - 7, s->cnp, s->n_cnp, s->cnp_over, s->cnp_bin,
		     C_CNP);
		fputs(DATA_CLOSE, f);
	}
	fputs("</svg>\n", f);
}

/* ---- plot 4: PFC pauses ------------------------------------------------- */

static void pause_bar(struct html *h, const struct hd_ax *a, double y, double hh, uint64_t s,
		      uint64_t e, const char *cls)
{
	char d1[64], d2[64];
	double x0 = hd_x(a, (double)s / h->div), x1 = hd_x(a, (double)e / h->div);
	int storm = e - s > h->r->opts.storm_ns;
	fprintf(h->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
		      "<title>%s paused at %s for %s</title></rect>\n",
		x0, y, x1 - x0 > 1.2 ? x1 - x0 : 1.2, hh, storm ? C_STORM : C_PAUSE, cls,
		rp_dur(d1, sizeof(d1), s), rp_dur(d2, sizeof(d2), e - s));
}

static void plot_pfc(struct html *h)
{
	FILE *f = h->f;
	unsigned cls[RS_PRIOS], nc = 0;
	for (unsigned i = 0; i < RS_PRIOS; i++)
		if (h->t->pfc[i].frames)
			cls[nc++] = i;
	const int rowh = 36, top = 92, left = 200;
	int height = top + (int)(nc ? nc : 2) * rowh + 60;
	char b[200], c[64], d[64];
	hd_svg_open(h->f, "plot-pfc", height, "PFC and PAUSE pause intervals per priority");
	snprintf(b, sizeof(b),
		 "time each class was paused (802.1Qbb PFC, 802.3x PAUSE), from the pause quanta at %.4g "
		 "Gb/s and the XON frames",
		 h->r->opts.link_gbps);
	hd_svg_sub(h->f, 50, b);
	fprintf(f, "<g font-size=\"12.5\" fill=\"" C_LABEL "\">"
		   "<rect x=\"24\" y=\"63\" width=\"22\" height=\"12\" fill=\"" C_PAUSE "\"/>"
		   "<text x=\"54\" y=\"74\">paused</text>"
		   "<rect x=\"124\" y=\"63\" width=\"22\" height=\"12\" fill=\"" C_STORM "\"/>"
		   "<text x=\"154\" y=\"74\">storm (one pause longer than %s)</text>"
		   "<text x=\"420\" y=\"74\" fill=\"#6b7280\">(shaded bars: paused share of each "
		   "time bin, when there were more than %u pauses)</text></g>\n",
		rp_dur(c, sizeof(c), h->r->opts.storm_ns), RS_PAUSE_MAX);
	struct hd_ax a = {.x = left, .y = top, .w = SVG_W - left - 30, .h = (nc ? nc : 2) * rowh,
		       .x0 = 0, .x1 = h->span, .y0 = 0, .y1 = 1};
	hd_axes(h->f, &a, xlabel(h, b, sizeof(b)), NULL, 0);
	if (!nc) {
		hd_empty_msg(h->f, &a, "no PFC or PAUSE frames in this capture");
		fputs("</svg>\n", f);
		return;
	}
	for (unsigned j = 0; j < nc; j++) {
		unsigned i = cls[j];
		const struct rs_prio *q = &h->r->prio[i];
		const struct rw_pfc_prio *s = &h->t->pfc[i];
		double y = top + j * rowh;
		char name[32];
		if (i == RW_PAUSE_ALL)
			snprintf(name, sizeof(name), "802.3x PAUSE");
		else
			snprintf(name, sizeof(name), "priority %u", i);
		if (j % 2)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#f8fafc\"/>",
				a.x, y, a.w, rowh);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" C_GRID "\"/>\n",
			a.x, y + rowh, a.x + a.w, y + rowh);
		fprintf(f, "<text x=\"24\" y=\"%.1f\" font-size=\"12.5\" font-weight=\"600\" fill=\"" C_TITLE
			   "\">%s</text>",
			y + 16, name);
		fprintf(f, "<text x=\"24\" y=\"%.1f\" font-size=\"11\" fill=\"#6b7280\">%s paused",
			y + 30, rp_dur(d, sizeof(d), s->paused_ns));
		if (s->storms)
			fprintf(f, " \xc2\xb7 %" PRIu64 " storm%s", s->storms, s->storms == 1 ? "" : "s");
		fputs("</text>\n", f);
		double by = y + 8, bh = rowh - 16;
		int open = q->open && h->r->have_t0;
		uint64_t os = 0, oe = 0;
		if (open) {
			os = q->open_start > h->r->t0 ? q->open_start - h->r->t0 : 0;
			oe = q->open_end > h->r->t0 ? q->open_end - h->r->t0 : 0;
			if (oe > h->r->t_end)
				oe = h->r->t_end;
			if (oe < os)
				oe = os;
		}
		fputs(DATA_OPEN, f);
		if (!q->over) {
			for (uint32_t k = 0; k < q->n; k++)
				pause_bar(h, &a, by, bh, q->iv[k].start, q->iv[k].end, name);
			if (open)
				pause_bar(h, &a, by, bh, os, oe, name);
			fputs(DATA_CLOSE, f);
			continue;
		}
		for (uint32_t k = 0; k < h->nb; k++) {
			uint64_t p = q->paused[k];
			if (open) {
				uint64_t lo = (uint64_t)k * h->w, hi = lo + h->w;
				if (os > lo)
					lo = os;
				if (oe < hi)
					hi = oe;
				if (hi > lo)
					p += hi - lo;
			}
			if (!p)
				continue;
			double share = (double)p / (double)h->w;
			if (share > 1)
				share = 1;
			double x0 = hd_x(&a, (double)k * (double)h->w / h->div);
			double x1 = hd_x(&a, (double)(k + 1) * (double)h->w / h->div);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"" C_PAUSE
				   "\" fill-opacity=\"%.2f\"><title>paused %.0f%% of the bin</title></rect>\n",
				x0, by, x1 - x0 > 1 ? x1 - x0 : 1, bh, 0.2 + 0.8 * share, share * 100);
		}
		fputs(DATA_CLOSE, f);
	}
	fputs("</svg>\n", f);
}

/* ---- page --------------------------------------------------------------- */

/* Columns of the flow table that count problems: red when not zero. */
static int hot_col(unsigned c)
{
	const char *hd = rp_flow_heads[c];
	return !strcmp(hd, "gaps/miss") || !strcmp(hd, "retx") || !strcmp(hd, "gbn") ||
	       !strcmp(hd, "NAKs") || !strcmp(hd, "inc/orph") || !strcmp(hd, "paused");
}

/* One of the side tables (capture edges, conformance): the flows `shown`
 * keeps, in the flow table's order; nothing when none. */
static void side_table(struct html *h, const char *id, const char *title, const char *note,
		       int (*shown)(const struct rw_flow *), const char *const *heads,
		       const char *align, unsigned ncols,
		       void (*cells)(const struct cap_report *, uint32_t, char[][RP_CELL]), int hot_from)
{
	FILE *f = h->f;
	uint32_t rows = 0;
	for (uint32_t j = 0; j < h->n; j++)
		rows += shown(rw_analyzer_flow(h->r->a, h->idx[j])) != 0;
	if (!rows)
		return;
	char(*cell)[RP_CELL] = calloc(ncols, RP_CELL);
	if (!cell) {
		h->oom = 1;
		return;
	}
	fprintf(f, "<section class=\"card\"><h2>%s</h2>\n<div class=\"scroll\"><table id=\"%s\"><thead><tr>",
		title, id);
	for (unsigned k = 0; k < ncols; k++) {
		fprintf(f, "<th%s>", align[k] == 'r' ? " class=\"r\"" : "");
		hd_esc(f, heads[k]);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (uint32_t j = 0; j < h->n; j++) {
		if (!shown(rw_analyzer_flow(h->r->a, h->idx[j])))
			continue;
		cells(h->r, h->idx[j], cell);
		fputs("<tr>", f);
		for (unsigned k = 0; k < ncols; k++) {
			int hot = hot_from >= 0 && k == (unsigned)hot_from && strcmp(cell[k], "-") != 0;
			fprintf(f, "<td class=\"%s%s%s\">", align[k] == 'r' ? "r" : "",
				k == 1 || k == 2 ? " addr" : "", hot ? " hot" : "");
			hd_esc(f, cell[k]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	free(cell);
	fprintf(f, "</tbody></table></div>\n<p class=\"note\">%s</p></section>\n", note);
}

/* The flows table, sorted by bytes. -1 when out of memory for its cells
 * (h->oom set; the page stops there), else 0. */
static int tables_flows(struct html *h)
{
	FILE *f = h->f;

	fputs("<section class=\"card\"><h2>Flows</h2>\n", f);
	if (!h->n) {
		fputs("<p class=\"note\">No RoCE or InfiniBand transport packets.</p>", f);
	} else {
		fputs("<div class=\"scroll\"><table id=\"flows\"><thead><tr>", f);
		for (unsigned k = 0; k < rp_flow_ncols; k++) {
			fprintf(f, "<th%s>", rp_flow_align[k] == 'r' ? " class=\"r\"" : "");
			hd_esc(f, rp_flow_heads[k]);
			fputs("</th>", f);
		}
		fputs("</tr></thead><tbody>\n", f);
		char(*cell)[RP_CELL] = calloc(rp_flow_ncols, RP_CELL);
		if (!cell) {
			h->oom = 1;
			return -1;
		}
		for (uint32_t j = 0; j < h->n; j++) {
			rp_flow_cells(h->r, h->idx[j], cell);
			fputs("<tr>", f);
			for (unsigned k = 0; k < rp_flow_ncols; k++) {
				int addr = k == 1 || k == 2;
				int hot = hot_col(k) && strcmp(cell[k], "-") != 0;
				fprintf(f, "<td class=\"%s%s%s\">", rp_flow_align[k] == 'r' ? "r" : "",
					addr ? " addr" : "", hot ? " hot" : "");
				hd_esc(f, cell[k]);
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
		free(cell);
		fputs("</tbody></table></div>\n", f);
		fputs("<p class=\"note\">Sorted by bytes. # is the flow id; peer the flow of the other "
		      "direction of the same connection. inc/orph: incomplete messages / packets with "
		      "no FIRST; gaps/miss: PSN gaps / PSNs missing; retx: retransmitted packets; gbn: "
		      "go-back-N episodes; ooo: out of order; NAKs: seq (PSN sequence error), inv "
		      "(invalid request), acc (remote access), op (remote operational), rd (invalid RD "
		      "request), rnr (receiver not ready), res (reserved); CNP min gap: shortest time "
		      "between two CNPs; latencies in microseconds; paused: packets sent while their "
		      "priority was paused.</p>\n",
		      f);
	}
	fputs("</section>\n", f);

	return 0;
}

/* Per priority (and 802.3x PAUSE): frames, pause time, storms and the
 * flows that sent while paused; only the classes that had frames. */
static void tables_pfc(struct html *h)
{
	FILE *f = h->f;
	const struct rw_totals *t = h->t;
	char b[256], c[64];

	fputs("<section class=\"card\"><h2>PFC and PAUSE</h2>\n", f);
	int any = 0;
	for (unsigned i = 0; i < RS_PRIOS; i++)
		any |= t->pfc[i].frames != 0;
	if (!any) {
		fputs("<p class=\"note\">No PFC or PAUSE frames.</p>\n", f);
	} else {
		fputs("<div class=\"scroll\"><table id=\"pfc\"><thead><tr><th>class</th>"
		      "<th class=\"r\">frames</th><th class=\"r\">xoff</th><th class=\"r\">xon</th>"
		      "<th class=\"r\">paused</th><th class=\"r\">storms</th><th class=\"r\">longest</th>"
		      "<th>flows held back (packets sent while paused)</th></tr></thead><tbody>\n",
		      f);
		for (unsigned i = 0; i < RS_PRIOS; i++) {
			const struct rw_pfc_prio *s = &t->pfc[i];
			if (!s->frames)
				continue;
			char d1[64], d2[64], fl[RP_CELL * 4];
			rp_prio_flows(h->r, h->idx, h->n, i, fl, sizeof(fl));
			if (i == RW_PAUSE_ALL)
				snprintf(b, sizeof(b), "802.3x PAUSE");
			else
				snprintf(b, sizeof(b), "priority %u", i);
			fprintf(f, "<tr><td>%s</td><td class=\"r\">%" PRIu64 "</td><td class=\"r\">%" PRIu64
				   "</td><td class=\"r\">%" PRIu64 "</td><td class=\"r\">%s</td>"
				   "<td class=\"r%s\">%" PRIu64 "</td><td class=\"r\">%s</td><td>",
				b, s->frames, s->xoff, s->xon, rp_dur(d1, sizeof(d1), s->paused_ns),
				s->storms ? " hot" : "", s->storms, rp_dur(d2, sizeof(d2), s->longest_ns));
			hd_esc(f, fl);
			fputs("</td></tr>\n", f);
		}
		fputs("</tbody></table></div>\n", f);
		fprintf(f, "<p class=\"note\">Link speed %.4g Gb/s (one quantum is 512 bit times); a "
			   "storm is one continuous pause longer than %s.</p>\n",
			h->r->opts.link_gbps, rp_dur(c, sizeof(c), h->r->opts.storm_ns));
	}
	fputs("</section>\n", f);
}

/* The CM handshakes, when the capture holds any (the text report's table). */
static void tables_cm(struct html *h)
{
	FILE *f = h->f;
	uint32_t n = rw_analyzer_cm_count(h->r->a);
	char cell[16][RP_CELL]; /* rp_cm_ncols (13) of them */
	if (!n || rp_cm_ncols > 16)
		return;
	fputs("<section class=\"card\"><h2>CM handshakes</h2>\n<div class=\"scroll\"><table "
	      "id=\"handshakes\"><thead><tr>", f);
	for (unsigned c = 0; c < rp_cm_ncols; c++) {
		fprintf(f, "<th%s>", rp_cm_align[c] == 'r' ? " class=\"r\"" : "");
		hd_esc(f, rp_cm_heads[c]);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (uint32_t i = 0; i < n; i++) {
		rp_cm_cells(h->r, i, cell);
		fputs("<tr>", f);
		for (unsigned c = 0; c < rp_cm_ncols; c++) {
			fprintf(f, "<td%s>", rp_cm_align[c] == 'r' ? " class=\"r\"" : "");
			hd_esc(f, cell[c]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p class=\"note\">Connections set up by Communication "
	      "Management (IBA 12.6): the REP pairs the two flows from their first packet. First PSN "
	      "&gt;: where the active side's requests start (the REP's starting PSN), &lt;: the "
	      "passive side's (the REQ's).</p></section>\n", f);
}

/* Capture-wide counters, one per row. */
static void tables_totals(struct html *h)
{
	FILE *f = h->f;
	const struct rw_totals *t = h->t;
	char c[64];

	fputs("<section class=\"card\"><h2>Totals</h2><table class=\"kv\" id=\"totals\"><tbody>\n", f);
	fputs("<tr><td>carriers</td><td>", f);
	int first = 1;
	for (int k = 0; k < RW_CARRIER_COUNT; k++) {
		if (!t->by_carrier[k])
			continue;
		fprintf(f, "%s%s %" PRIu64, first ? "" : ", ", rw_carrier_name((enum rw_carrier)k),
			t->by_carrier[k]);
		first = 0;
	}
	fprintf(f, "%s</td></tr>\n", first ? "none" : "");
	fprintf(f, "<tr><td>ICRC</td><td>ok %" PRIu64 ", bad %" PRIu64 "</td></tr>\n", t->icrc_ok,
		t->icrc_bad);
	fprintf(f, "<tr><td>VCRC</td><td>ok %" PRIu64 ", bad %" PRIu64 "</td></tr>\n", t->vcrc_ok,
		t->vcrc_bad);
	fprintf(f, "<tr><td>decode errors</td><td>%" PRIu64 "</td></tr>\n", t->decode_errors);
	fprintf(f, "<tr><td>truncated</td><td>%" PRIu64 "</td></tr>\n", t->truncated);
	if (h->r->opts.max_flows)
		fprintf(f, "<tr><td>untracked packets</td><td>%" PRIu64 " of %" PRIu64
			   " flows (flow table: %" PRIu32 " of %" PRIu32 " flows)</td></tr>\n",
			t->untracked, t->untracked_flows, h->n, h->r->opts.max_flows);
	else
		fprintf(f, "<tr><td>untracked packets</td><td>%" PRIu64 " of %" PRIu64
			   " flows (flow table: %" PRIu32 " flows, no limit but memory)</td></tr>\n",
			t->untracked, t->untracked_flows, h->n);
	fprintf(f, "<tr><td>CNP pacing</td><td>--cnp-mode %s: CNPs sooner than the minimum after "
		   "the last of their key: per QP %" PRIu64 ", per IP pair %" PRIu64
		   ", per destination IP %" PRIu64 "</td></tr>\n",
		rw_cnp_mode_key((enum rw_cnp_mode)h->r->opts.cnp_mode), t->cnp_too_often[RW_CNP_PER_QP],
		t->cnp_too_often[RW_CNP_PER_IP_PAIR], t->cnp_too_often[RW_CNP_PER_DEST_IP]);
	fprintf(f, "<tr><td>conversations reused</td><td>%" PRIu64 " flows closed by a QP number "
		   "reuse</td></tr>\n",
		t->conversations_reused);
	fprintf(f, "<tr><td>CNPs with no CE mark before</td><td>%" PRIu64 " (window %s)</td></tr>\n",
		t->cnps_unlinked, rp_dur(c, sizeof(c), h->r->opts.cnp_window_ns));
	if (h->r->drops_known)
		fprintf(f, "<tr><td>capture drops</td><td>kernel %" PRIu64 ", interface %" PRIu64
			   "</td></tr>\n",
			h->r->drops_kernel, h->r->drops_if);
	else
		fputs("<tr><td>capture drops</td><td>none recorded (read from a file)</td></tr>\n", f);
	if (h->r->nseries < h->n)
		fprintf(f, "<tr><td>plotted flows</td><td>time series are kept for the first %" PRIu32
			   " flows</td></tr>\n",
			h->r->nseries);
	fputs("</tbody></table></section>\n", f);
}

/* The NAKs nobody answered, each with the first new request past the
 * timeout (the conformance table names the first NAK only). */
static void nak_ignored_list(struct html *h)
{
	FILE *f = h->f;
	int any = 0;
	char b[32];
	for (uint32_t j = 0; j < h->n; j++) {
		const struct rw_conform *c = rw_analyzer_flow(h->r->a, h->idx[j])->conf;
		if (!c || !c->count[RW_V_NAK_IGNORED])
			continue;
		if (!any++)
			fputs("<section class=\"card\"><h2>NAKs nobody answered</h2>\n<ul id=\"nak-ignored\">\n", f);
		uint64_t m = c->count[RW_V_NAK_IGNORED] < RW_V_FRAMES ? c->count[RW_V_NAK_IGNORED]
									: RW_V_FRAMES;
		for (uint64_t k = 0; k < m; k++)
			fprintf(f, "<li class=\"nak-ignored\" data-flow=\"%" PRIu32 "\" data-nak-frame=\"%" PRIu64
				   "\" data-request-frame=\"%" PRIu64 "\">flow #%" PRIu32 ": NAK frame %" PRIu64
				   " never answered; new requests went on from frame %" PRIu64
				   ", more than %s after it (the timeout)</li>\n",
				h->idx[j], c->frames[RW_V_NAK_IGNORED][k], c->nak_ignored_req[k], h->idx[j],
				c->frames[RW_V_NAK_IGNORED][k], c->nak_ignored_req[k],
				rp_dur(b, sizeof(b), c->nak_ignored_rto_ns));
	}
	if (any)
		fputs("</ul></section>\n", f);
}

/* The report's tables, in page order. */
static void tables(struct html *h)
{
	if (tables_flows(h) != 0)
		return;
	side_table(h, "edges", "Capture edges",
		   "Flows the capture's start or end cut, resends of packets sent before it, and QP "
		   "numbers reused. conv: conversation of the key (2, 3, ... after a QP number was "
		   "reused), prev: the flow of the previous one; paired by: the response that echoed a "
		   "PSN only this flow had sent; unsynced: new PSNs before a response acknowledged one "
		   "the capture saw (they may resend packets sent before the capture); pre-cap retx: "
		   "resends of PSNs below the first one seen; cut start/end: messages the capture "
		   "started or ended inside.",
		   rp_edges_shown, rp_edges_heads, rp_edges_align, rp_edges_ncols, rp_edges_cells, -1);
	char note[1400], rto[32];
	snprintf(note, sizeof(note),
		 "Go-back-N and CNP pacing verdicts per requester flow, with the frame of the first "
		 "violation: dup-nak (a second NAK for one hole), nak-psn (a NAK of an acknowledged "
		 "or unsent PSN), ack-back / msn-back (an ACK PSN or MSN going back), resend-start (a "
		 "resend not starting at the NAKed PSN), read-resume (a READ re-issued at the wrong "
		 "PSN, address or length), cnp-often (CNPs closer than the pacing allows), ce-no-cnp "
		 "(a CE mark left without CNP), nak-ignored (the frame of a sequence NAK never "
		 "answered while new requests went on past the retransmission timeout: %s, or the "
		 "flow's own slower resends). Resends: go-back-N episodes by cause. Latencies in "
		 "microseconds: NAK generation (the first out-of-sequence request to its NAK), NAK "
		 "to the first resent packet, first send of a PSN to its resend. CNP+NAK: CNPs sent "
		 "with a NAK.",
		 rp_dur(rto, sizeof(rto), h->r->opts.rto_ns));
	side_table(h, "conformance", "Conformance and recovery", note,
		   rp_conf_shown, rp_conf_heads, rp_conf_align, rp_conf_ncols, rp_conf_cells, 4);
	nak_ignored_list(h);

	tables_pfc(h);
	rc_html(h->r, h->f);
	tables_cm(h);
	tables_totals(h);
}

static void page(struct html *h)
{
	FILE *f = h->f;
	const struct rw_totals *t = h->t;
	char b[128], c[64];
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"rocewire " ROCEWIRE_VERSION "\">\n<title>rocewire report",
	      f);
	if (h->r->opts.title) {
		fputs(" \xe2\x80\x94 ", f);
		hd_esc(f, h->r->opts.title);
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<header>\n"
		   "<h1>rocewire report</h1>\n",
		hd_css);
	if (h->r->opts.title) {
		fputs("<p class=\"file\">", f);
		hd_esc(f, h->r->opts.title);
		fputs("</p>\n", f);
	}
	uint64_t dur = t->packets ? t->last_ns - t->first_ns : 0;
	fprintf(f, "<p class=\"meta\">%" PRIu64 " packets, %s in %s", t->packets,
		rp_bytes(b, sizeof(b), t->bytes), rp_dur(c, sizeof(c), dur));
	if (t->packets)
		fprintf(f, ", from epoch time %" PRIu64 ".%09" PRIu64, t->first_ns / 1000000000u,
			t->first_ns % 1000000000u);
	fprintf(f, "; %" PRIu32 " flow%s</p>\n</header>\n", h->n, h->n == 1 ? "" : "s");

	uint64_t retx = 0, gaps = 0, naks = 0, ce = 0, cnps = 0, paused = 0, storms = 0;
	for (uint32_t i = 0; i < h->n; i++) {
		const struct rw_flow *fw = rw_analyzer_flow(h->r->a, i);
		retx += fw->retransmissions;
		gaps += fw->psn_gaps;
		naks += rp_naks(fw);
		ce += fw->ecn[RW_ECN_CE];
		cnps += fw->cnps;
	}
	for (unsigned i = 0; i < RS_PRIOS; i++) {
		paused += t->pfc[i].paused_ns;
		storms += t->pfc[i].storms;
	}
	fputs("<section class=\"kpis\">\n", f);
	hd_kpi_u(f, "packets", t->packets, 0);
	hd_kpi(f, "bytes", rp_bytes(b, sizeof(b), t->bytes), 0);
	hd_kpi(f, "duration", rp_dur(b, sizeof(b), dur), 0);
	hd_kpi_u(f, "flows", h->n, 0);
	hd_kpi_u(f, "retransmissions", retx, 1);
	hd_kpi_u(f, "PSN gaps", gaps, 1);
	hd_kpi_u(f, "NAKs", naks, 1);
	hd_kpi_u(f, "CE marks", ce, 1);
	hd_kpi_u(f, "CNPs", cnps, 1);
	hd_kpi(f, "paused (all classes)", rp_dur(b, sizeof(b), paused), paused != 0);
	hd_kpi_u(f, "PFC storms", storms, 1);
	hd_kpi_u(f, "ICRC bad", t->icrc_bad + t->vcrc_bad, 1);
	fputs("</section>\n", f);

	fputs("<section class=\"card\">\n", f);
	plot_throughput(h);
	fputs("</section>\n<section class=\"card\">\n", f);
	plot_psn(h);
	fputs("</section>\n<section class=\"card\">\n", f);
	plot_congestion(h);
	fputs("</section>\n<section class=\"card\">\n", f);
	plot_pfc(h);
	fputs("</section>\n", f);
	tables(h);
	fputs("<footer>rocewire " ROCEWIRE_VERSION " \xc2\xb7 this page is self-contained: inline CSS "
	      "and SVG, no script, nothing loaded from the network</footer>\n</main>\n</body>\n"
	      "</html>\n",
	      f);
}

static int write_page(FILE *f, void *ctx)
{
	struct html *h = ctx;
	h->f = f;
	page(h);
	if (h->oom) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int cap_report_html(const struct cap_report *r, const char *path)
{
	struct html h;
	memset(&h, 0, sizeof(h));
	h.r = r;
	h.t = rw_analyzer_totals(r->a);
	h.idx = rp_sorted_flows(r, &h.n);
	if (!h.idx && h.n) {
		errno = ENOMEM;
		return -1;
	}
	h.nb = rs_bins_used(r);
	h.w = rs_bin_ns(r);
	uint64_t span = r->have_t0 ? r->t_end : 0;
	hd_time_unit(span, &h.unit, &h.div);
	/* The x axis ends at the end of the last bin in use, or at the capture's
	 * end when the bins are still finer than the plot. */
	double end = (double)span;
	if (end <= 0)
		end = 1;
	h.span = end / h.div;
	double st = hd_nice_step(h.span, 8);
	h.span = hd_ceil(h.span / st - 1e-9) * st;

	int rc = hd_write_page(path, write_page, &h);
	free(h.idx);
	return rc;
}
