/* SPDX-License-Identifier: BSD-3-Clause */
/* Terminal output while capturing or reading: the refreshing per-QP table of
 * a live capture (stdout on a terminal), the periodic status line (stderr,
 * off a terminal), and the progress line of a long file read (stderr).
 *
 * The table is redrawn in place: the cursor goes back up over the lines drawn
 * last time, each line is rewritten and cleared to its end, and the rest of
 * the screen below is cleared. Nothing uses the alternate screen, so the last
 * table stays in the terminal's scrollback when the capture ends. Lines are
 * cut to the terminal's width and their number to its height, so that no line
 * wraps and the cursor arithmetic stays exact. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cap.h"
#include "fmt.h"
#include "report.h"

double cap_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the per-QP table ----------------------------------------------------- */

#define VIEW_BUF (64u * 1024u)

struct cap_view {
	uint32_t cap;           /* flow table capacity */
	uint64_t *prev_bytes;   /* per flow, at the last redraw */
	double *rate;           /* per flow, Gb/s over the last interval */
	uint32_t *order;
	double t_start, t_prev;
	uint64_t prev_bytes_total, prev_pkts_total;
	unsigned lines;         /* drawn last time */
	double st_prev;         /* status line: time and counts at the last one */
	uint64_t st_pkts, st_bytes;
	char *buf;
	size_t len;
	size_t width;           /* terminal columns - 1 */
};

struct cap_view *cap_view_new(uint32_t max_flows)
{
	struct cap_view *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->cap = max_flows;
	v->prev_bytes = calloc(max_flows ? max_flows : 1, sizeof(*v->prev_bytes));
	v->rate = calloc(max_flows ? max_flows : 1, sizeof(*v->rate));
	v->order = calloc(max_flows ? max_flows : 1, sizeof(*v->order));
	v->buf = malloc(VIEW_BUF);
	if (!v->prev_bytes || !v->rate || !v->order || !v->buf) {
		cap_view_free(v);
		return NULL;
	}
	v->t_start = v->t_prev = v->st_prev = cap_now();
	return v;
}

void cap_view_free(struct cap_view *v)
{
	if (!v)
		return;
	free(v->prev_bytes);
	free(v->rate);
	free(v->order);
	free(v->buf);
	free(v);
}

/* Appends one line, cut to the terminal width, cleared to its end. */
static void line(struct cap_view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct cap_view *v, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	size_t len = (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1;
	if (len > v->width)
		len = v->width;
	if (v->len + len + 8 > VIEW_BUF)
		return;
	memcpy(v->buf + v->len, tmp, len);
	v->len += len;
	memcpy(v->buf + v->len, "\033[K\n", 4);
	v->len += 4;
	v->lines++;
}

/* qsort() has no context argument: the arrays of the table being sorted. */
static const struct rw_analyzer *sort_an;
static const double *sort_rate;

/* Fastest first; then most packets, so that idle flows keep their places. */
static int by_rate(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	if (sort_rate[i] != sort_rate[j])
		return sort_rate[i] < sort_rate[j] ? 1 : -1;
	uint64_t pi = rw_analyzer_flow(sort_an, i)->packets, pj = rw_analyzer_flow(sort_an, j)->packets;
	if (pi != pj)
		return pi < pj ? 1 : -1;
	return i < j ? -1 : i > j;
}

static void addr_text(const struct rw_flow_key *k, int dst, char *buf, size_t cap)
{
	const uint8_t *a = dst ? k->dst : k->src;

	switch (k->family) {
	case 4:
		inet_ntop(AF_INET, a, buf, (socklen_t)cap);
		break;
	case 6:
	case 1: /* GIDs are written like IPv6 addresses */
		inet_ntop(AF_INET6, a, buf, (socklen_t)cap);
		break;
	default:
		snprintf(buf, cap, "lid %u", (unsigned)rw_get_be16(a));
		break;
	}
}

/* "1.23M" style counts for the narrow columns. */
static const char *count_text(uint64_t v, char *buf, size_t cap)
{
	if (v < 100000)
		snprintf(buf, cap, "%" PRIu64, v);
	else if (v < 100000000)
		snprintf(buf, cap, "%.1fk", (double)v / 1e3);
	else if (v < 100000000000ull)
		snprintf(buf, cap, "%.1fM", (double)v / 1e6);
	else
		snprintf(buf, cap, "%.1fG", (double)v / 1e9);
	return buf;
}

static void drops_text(const struct cap_live *l, char *buf, size_t cap)
{
	if (l->drops.known)
		snprintf(buf, cap, "drops %" PRIu64 " kernel %" PRIu64 " if", l->drops.kernel,
			 l->drops.ifdrop);
	else
		snprintf(buf, cap, "drops unknown");
}

void cap_view_draw(struct cap_view *v, const struct cap_ctx *c, const struct cap_live *l,
		   double now)
{
	const struct rw_analyzer *a = c->report ? cap_report_analyzer(c->report) : NULL;
	struct winsize ws;
	unsigned rows = 24, cols = 80;
	double dt = now - v->t_prev;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
		rows = ws.ws_row;
		cols = ws.ws_col;
	}
	if (dt <= 0)
		dt = 1e-9;
	v->width = cols > 1 ? cols - 1 : 1;
	v->len = 0;
	/* back over the previous table */
	if (v->lines)
		v->len += (size_t)snprintf(v->buf, VIEW_BUF, "\r\033[%uA", v->lines);
	v->lines = 0;

	uint64_t pkts = c->stats.packets, bytes = c->stats.bytes;
	double gbps = (double)(bytes - v->prev_bytes_total) * 8 / dt / 1e9;
	double kpps = (double)(pkts - v->prev_pkts_total) / dt / 1e3;
	v->prev_bytes_total = bytes;
	v->prev_pkts_total = pkts;
	unsigned el = (unsigned)(now - v->t_start);
	char dr[96], n1[24];
	drops_text(l, dr, sizeof(dr));
	uint32_t nflows = a ? rw_analyzer_flow_count(a) : 0;
	char ifn[256];
	line(v, "%s %u:%02u:%02u  %s pkts  %.1f kpkt/s  %.3f Gb/s  %u flows  %s",
	     cap_esc(ifn, sizeof(ifn), l->name),
	     el / 3600, el / 60 % 60, el % 60, count_text(pkts, n1, sizeof(n1)), kpps, gbps, nflows, dr);

	uint32_t n = nflows < v->cap ? nflows : v->cap;
	for (uint32_t i = 0; i < n; i++) {
		const struct rw_flow *f = rw_analyzer_flow(a, i);
		v->rate[i] = (double)(f->bytes - v->prev_bytes[i]) * 8 / dt / 1e9;
		v->prev_bytes[i] = f->bytes;
		v->order[i] = i;
	}
	sort_rate = v->rate;
	sort_an = a;
	qsort(v->order, n, sizeof(*v->order), by_rate);

	/* the numbers take 48 columns; the flow column gets the rest */
	int fw = (int)v->width - 48;
	fw = fw < 24 ? 24 : fw > 96 ? 96 : fw;
	line(v, "%-*s %7s %7s %5s %7s %5s %5s %5s", fw, "FLOW (src > dst QP)", "PKTS", "Gb/s",
	     "GAPS", "RETRANS", "NAKS", "CE", "CNPS");
	/* rows: header 2, footer up to 3, one spare so the terminal never scrolls */
	unsigned room = rows > 7 ? rows - 6 : 1;
	uint32_t shown = n < room ? n : room;
	for (uint32_t k = 0; k < shown; k++) {
		const struct rw_flow *f = rw_analyzer_flow(a, v->order[k]);
		char s[64], d[64], fl[160], c1[24], c2[24], c3[24], c4[24], c5[24], c6[24];
		uint64_t naks = 0;
		for (int j = 0; j < RW_NAKK_COUNT; j++)
			naks += f->naks[j];
		addr_text(&f->key, 0, s, sizeof(s));
		addr_text(&f->key, 1, d, sizeof(d));
		int fl_len = snprintf(fl, sizeof(fl), "%s > %s qp 0x%06" PRIx32, s, d, f->key.dqpn);
		const char *flp = fl;
		if (fl_len > fw) { /* keep the QP and as much of the addresses as fits */
			flp = fl + (fl_len - fw);
			fl[fl_len - fw] = '~';
		}
		line(v, "%-*s %7s %7.3f %5s %7s %5s %5s %5s", fw, flp, count_text(f->packets, c1, sizeof(c1)),
		     v->rate[v->order[k]], count_text(f->psn_gaps, c2, sizeof(c2)),
		     count_text(f->retransmissions, c3, sizeof(c3)), count_text(naks, c4, sizeof(c4)),
		     count_text(f->ecn[3], c5, sizeof(c5)), count_text(f->cnps, c6, sizeof(c6)));
	}

	const struct rw_totals *t = a ? rw_analyzer_totals(a) : NULL;
	if (t) {
		char pfc[512];
		size_t pl = 0;
		for (int p = 0; p <= RW_PFC_PRIORITIES && pl < sizeof(pfc) - 64; p++) {
			const struct rw_pfc_prio *q = &t->pfc[p];
			if (!q->frames)
				continue;
			char name[16];
			if (p == RW_PAUSE_ALL)
				snprintf(name, sizeof(name), "PAUSE");
			else
				snprintf(name, sizeof(name), "p%d", p);
			pl += (size_t)snprintf(pfc + pl, sizeof(pfc) - pl,
					       "  %s: %" PRIu64 " pause, %" PRIu64 " resume, %.3f ms paused%s",
					       name, q->xoff, q->xon, (double)q->paused_ns / 1e6,
					       q->storms ? " STORM" : "");
		}
		if (pl)
			line(v, "PFC pauses:%s", pfc);
	}
	char more[256];
	size_t ml = 0;
	more[0] = '\0';
	if (shown < n)
		ml += (size_t)snprintf(more + ml, sizeof(more) - ml, "%s%u more flows", ml ? "; " : "",
				       n - shown);
	if (t && t->untracked)
		ml += (size_t)snprintf(more + ml, sizeof(more) - ml,
				       "%s%" PRIu64 " packets of untracked flows (--max-flows)",
				       ml ? "; " : "", t->untracked);
	if (c->stats.decode_errors && ml < sizeof(more))
		ml += (size_t)snprintf(more + ml, sizeof(more) - ml,
				       "%s%" PRIu64 " packets did not decode fully", ml ? "; " : "",
				       c->stats.decode_errors);
	if (ml)
		line(v, "%s", more);
	if (v->len + 4 < VIEW_BUF) {
		memcpy(v->buf + v->len, "\033[J", 3);
		v->len += 3;
	}
	fwrite(v->buf, 1, v->len, stdout);
	fflush(stdout);
	v->t_prev = now;
}

void cap_view_status(struct cap_view *v, const struct cap_ctx *c, const struct cap_live *l,
		     double now)
{
	double dt = now - v->st_prev;
	char dr[96];

	if (dt <= 0)
		dt = 1e-9;
	uint64_t pkts = c->stats.packets, bytes = c->stats.bytes;
	drops_text(l, dr, sizeof(dr));
	char ifn[256];
	fprintf(stderr, "%s: %s: %" PRIu64 " packets (%.1f pkt/s, %.3f Gb/s), %s\n", CAP_PROG,
		cap_esc(ifn, sizeof(ifn), l->name),
		pkts, (double)(pkts - v->st_pkts) / dt, (double)(bytes - v->st_bytes) * 8 / dt / 1e9,
		dr);
	v->st_prev = now;
	v->st_pkts = pkts;
	v->st_bytes = bytes;
}

/* ---- the progress line of a file read ------------------------------------- */

struct cap_progress {
	const char *name;
	long size;              /* bytes, or -1 when unknown (a pipe) */
	double t0, next;
	uint64_t pkts0;
	int started;
	int shown;
	unsigned tick;
};

struct cap_progress *cap_progress_new(void)
{
	return calloc(1, sizeof(struct cap_progress));
}

void cap_progress_free(struct cap_progress *p)
{
	if (p)
		cap_progress_clear(p);
	free(p);
}

void cap_progress_begin(struct cap_progress *p, const char *name, long size)
{
	cap_progress_clear(p);
	p->name = name;
	p->size = size;
	p->t0 = cap_now();
	/* Only a read that lasts: nothing for the first second. */
	p->next = p->t0 + 1.0;
	p->started = 0;
	p->tick = 0;
}

static const char *bytes_text(double b, char *buf, size_t cap)
{
	if (b >= 1e9)
		snprintf(buf, cap, "%.2f GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(buf, cap, "%.1f MB", b / 1e6);
	else
		snprintf(buf, cap, "%.0f kB", b / 1e3);
	return buf;
}

void cap_progress_update(struct cap_progress *p, long pos, uint64_t packets)
{
	if (!p->started) {
		p->started = 1;
		p->pkts0 = packets;
	}
	if (++p->tick % 2048 != 0)
		return;
	double now = cap_now();
	if (now < p->next)
		return;
	p->next = now + 0.25;

	double el = now - p->t0;
	double pps = (double)(packets - p->pkts0) / el;
	char a[32], b[32], line[512];
	if (p->size > 0 && pos >= 0) {
		double frac = (double)pos / (double)p->size;
		double eta = pos > 0 ? el * ((double)p->size - (double)pos) / (double)pos : 0;
		unsigned e = (unsigned)(eta + 0.5);
		snprintf(line, sizeof(line), "\r%s: %s of %s (%.0f%%), %.2f Mpkt/s, ETA %u:%02u:%02u\033[K",
			 p->name, bytes_text((double)pos, a, sizeof(a)),
			 bytes_text((double)p->size, b, sizeof(b)), frac * 100, pps / 1e6, e / 3600,
			 e / 60 % 60, e % 60);
	} else {
		snprintf(line, sizeof(line), "\r%s: %" PRIu64 " packets, %.2f Mpkt/s\033[K", p->name,
			 packets - p->pkts0, pps / 1e6);
	}
	fputs(line, stderr);
	fflush(stderr);
	p->shown = 1;
}

void cap_progress_clear(struct cap_progress *p)
{
	if (p && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown = 0;
	}
}
