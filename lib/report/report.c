/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-QP report: owns the analyzer and the time series, and writes the
 * table (`rocewire-cap --report`) and the JSON document (`--report --json`,
 * schema in README-report.md). The HTML report is in report_html.c, the
 * series in report_series.c.
 *
 * Scale: a capture may hold hundreds of thousands of flows. Both outputs
 * are written flow by flow, and keep nothing per flow but the sort order
 * (the table formats each row twice, once to measure its columns, rather
 * than hold every cell; the JSON document is streamed, not built). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "jsonw.h"
#include "report_int.h"

/* ---- life cycle ------------------------------------------------------- */

/* A copy of s that is valid UTF-8 with no control characters (a file name
 * can hold any bytes; JSON, HTML and terminals cannot): anything else
 * becomes '?'. */
static char *clean_text(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(n + 1);
	if (!d)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, j = 0;
	while (i < n) {
		unsigned c = p[i], len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 :
						(c & 0xF8) == 0xF0 ? 4 : 0;
		int ok = len != 0 && i + len <= n && !(c < 0x20 || c == 0x7F);
		for (unsigned k = 1; ok && k < len; k++)
			ok = (p[i + k] & 0xC0) == 0x80;
		/* Overlong forms, surrogates and code points above U+10FFFF. */
		if (ok && len == 2)
			ok = c >= 0xC2;
		if (ok && len == 3)
			ok = !(c == 0xE0 && p[i + 1] < 0xA0) && !(c == 0xED && p[i + 1] >= 0xA0);
		if (ok && len == 4)
			ok = c <= 0xF4 && !(c == 0xF0 && p[i + 1] < 0x90) && !(c == 0xF4 && p[i + 1] >= 0x90);
		if (!ok) {
			d[j++] = '?';
			i++;
			continue;
		}
		memcpy(d + j, s + i, len);
		i += len;
		j += len;
	}
	d[j] = '\0';
	return d;
}

struct cap_report *cap_report_new(const struct cap_report_opts *o)
{
	struct cap_report *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	if (o)
		r->opts = *o;
	if (r->opts.cnp_mode >= RW_CNP_MODES)
		r->opts.cnp_mode = RW_CNP_PER_QP;
	if (r->opts.link_gbps <= 0)
		r->opts.link_gbps = 100;
	if (!r->opts.storm_ns)
		r->opts.storm_ns = 10000000;
	if (!r->opts.cnp_window_ns)
		r->opts.cnp_window_ns = 1000000;
	if (!r->opts.rto_ns)
		r->opts.rto_ns = RW_RTO_DEFAULT_NS;
	r->opts.title = NULL;
	if (o && o->title && !(r->opts.title = clean_text(o->title)))
		goto fail;

	struct rw_analyze_cfg cfg = {
		.max_flows = r->opts.max_flows,
		.link_gbps = r->opts.link_gbps,
		.cnp_window_ns = r->opts.cnp_window_ns,
		.storm_ns = r->opts.storm_ns,
		.cnp_mode = r->opts.cnp_mode,
		.cnp_min_ns = r->opts.cnp_min_ns,
		.rto_ns = r->opts.rto_ns,
		.mem_limit = r->opts.mem_limit,
	};
	r->a = rw_analyzer_new(&cfg);
	if (!r->a) {
		errno = ENOMEM;
		goto fail;
	}
	/* calloc: pages of flows that never appear are never touched. Series
	 * stop at RS_SERIES_FLOWS flows, whatever the flow limit (0: none). */
	r->nseries = r->opts.max_flows && r->opts.max_flows < RS_SERIES_FLOWS ? r->opts.max_flows
										 : RS_SERIES_FLOWS;
	r->series = calloc(r->nseries, sizeof(*r->series));
	if (!r->series)
		goto fail;
	r->shift = RS_BIN_SHIFT0;
	if (r->opts.counters && rc_new(r) != 0)
		goto fail;
	cap_fmt_init();
	return r;
fail:
	cap_report_free(r);
	return NULL;
}

void cap_report_free(struct cap_report *r)
{
	if (!r)
		return;
	int e = errno;
	free(r->series);
	rc_free(r);
	rw_analyzer_free(r->a);
	free((char *)r->opts.title);
	free(r);
	errno = e;
}

void cap_report_packet(struct cap_report *r, const struct rw_packet *p, uint64_t ts_ns,
		       uint64_t frame, struct rw_note *note)
{
	struct rw_note local;
	struct rw_note *n = note ? note : &local;
	rw_analyzer_packet(r->a, p, ts_ns, frame, n);
	rs_packet(r, p, ts_ns, n);
	if (r->hosts)
		rc_packet(r, p, n);
}

void cap_report_set_drops(struct cap_report *r, uint64_t kernel_drops, uint64_t if_drops)
{
	r->drops_kernel = kernel_drops;
	r->drops_if = if_drops;
	r->drops_known = 1;
}

void cap_report_finish(struct cap_report *r, uint64_t ts_ns)
{
	if (r->finished)
		return;
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	/* Never end before the last packet: that would cut pauses short. */
	if (t->packets && ts_ns < t->last_ns)
		ts_ns = t->last_ns;
	rw_analyzer_finish(r->a, ts_ns);
	rs_finish(r, ts_ns);
	r->finished = 1;
	r->finish_ns = ts_ns;
}

int cap_report_incomplete(const struct cap_report *r, char *why, size_t n)
{
	return rp_incomplete(r, why, n);
}

int cap_report_flow_limited(const struct cap_report *r)
{
	return r->opts.max_flows != 0;
}

const struct rw_analyzer *cap_report_analyzer(const struct cap_report *r)
{
	return r->a;
}

/* ---- shared helpers ---------------------------------------------------- */

/* The sort works on a copy of its keys: comparing through the flows
 * themselves (hundreds of bytes apart) missed the cache on most of the
 * n log n comparisons. */
struct sort_key {
	uint64_t bytes, packets;
	uint32_t idx;
};

static int by_bytes(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->packets != y->packets)
		return x->packets > y->packets ? -1 : 1;
	return x->idx < y->idx ? -1 : 1;
}

uint32_t *rp_sorted_flows(const struct cap_report *r, uint32_t *n)
{
	*n = rw_analyzer_flow_count(r->a);
	if (!*n)
		return NULL;
	uint32_t *idx = malloc(*n * sizeof(*idx));
	struct sort_key *k = malloc(*n * sizeof(*k));
	if (!idx || !k) {
		free(idx);
		free(k);
		*n = 0;
		return NULL;
	}
	for (uint32_t i = 0; i < *n; i++) {
		const struct rw_flow *f = rw_analyzer_flow(r->a, i);
		k[i] = (struct sort_key){.bytes = f->bytes, .packets = f->packets, .idx = i};
	}
	qsort(k, *n, sizeof(*k), by_bytes);
	for (uint32_t i = 0; i < *n; i++)
		idx[i] = k[i].idx;
	free(k);
	return idx;
}

int rp_incomplete(const struct cap_report *r, char *buf, size_t cap)
{
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	char limit[64];
	buf[0] = '\0';
	if (!t->untracked && !t->untracked_flows)
		return 0;
	/* The engine leaves flows out at max_flows, or sooner when its memory
	 * limit is reached. */
	if (r->opts.max_flows)
		snprintf(limit, sizeof(limit), "the flow table's limit (--max-flows %" PRIu32 ")",
			 r->opts.max_flows);
	else
		snprintf(limit, sizeof(limit), "the analysis' memory limit (--max-memory)");
	snprintf(buf, cap, "%" PRIu64 " packet%s of %" PRIu64 " flow%s beyond %s %s not analysed",
		 t->untracked, t->untracked == 1 ? "" : "s", t->untracked_flows,
		 t->untracked_flows == 1 ? "" : "s", limit, t->untracked == 1 ? "was" : "were");
	return 1;
}

char *cap_report_addr(char *buf, size_t cap, const struct rw_flow_key *k, int src)
{
	const uint8_t *a = src ? k->src : k->dst;
	char tmp[64], *e = tmp;
	switch (k->family) {
	case 4:
		e = fmt_ipv4(tmp, (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3]);
		break;
	case 6:
	case 1:
		e = fmt_ipv6(tmp, a);
		break;
	default:
		e = FMT_LIT(tmp, "lid ");
		e = fmt_u32(e, (uint32_t)a[0] << 8 | a[1]);
		break;
	}
	size_t n = (size_t)(e - tmp);
	if (!cap)
		return buf;
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, tmp, n); /* not snprintf: once per flow and column, twice per table */
	buf[n] = '\0';
	return buf;
}

const char *rp_family(const struct rw_flow_key *k)
{
	switch (k->family) {
	case 4:
		return "ipv4";
	case 6:
		return "ipv6";
	case 1:
		return "gid";
	default:
		return "lid";
	}
}

char *rp_dur(char *buf, size_t cap, uint64_t ns)
{
	double v = (double)ns;
	if (ns < 1000)
		snprintf(buf, cap, "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, cap, "%.*f us", v < 1e4 ? 2 : v < 1e5 ? 1 : 0, v / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, cap, "%.*f ms", v < 1e7 ? 2 : v < 1e8 ? 1 : 0, v / 1e6);
	else
		snprintf(buf, cap, "%.*f s", v < 1e10 ? 3 : v < 1e11 ? 2 : 1, v / 1e9);
	return buf;
}

char *rp_bytes(char *buf, size_t cap, uint64_t b)
{
	static const char *const units[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
	if (b < 1000) {
		snprintf(buf, cap, "%" PRIu64 " B", b);
		return buf;
	}
	double v = (double)b / 1000;
	unsigned u = 0;
	while (v >= 999.95 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1000;
		u++;
	}
	snprintf(buf, cap, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, units[u]);
	return buf;
}

static int us_prec(uint64_t ns)
{
	return ns < 10000 ? 2 : ns < 100000 ? 1 : 0;
}

char *rp_lat(char *buf, size_t cap, const struct rw_lat *h)
{
	if (!h->count) {
		snprintf(buf, cap, "-");
		return buf;
	}
	uint64_t a = rw_lat_quantile(h, 0.5), b = rw_lat_quantile(h, 0.99), c = h->max_ns;
	snprintf(buf, cap, "%.*f/%.*f/%.*f", us_prec(a), (double)a / 1e3, us_prec(b), (double)b / 1e3,
		 us_prec(c), (double)c / 1e3);
	return buf;
}

const char *rp_prio_name(unsigned i)
{
	static const char *const names[] = {"0", "1", "2", "3", "4", "5", "6", "7", "pause"};
	_Static_assert(sizeof(names) / sizeof(names[0]) == RS_PRIOS, "names: one entry per value");
	return i < RS_PRIOS ? names[i] : "?";
}

uint64_t rp_naks(const struct rw_flow *f)
{
	uint64_t n = 0;
	for (unsigned k = 0; k < RW_NAKK_COUNT; k++)
		n += f->naks[k];
	return n;
}

/* Does a pause of class i (0..7, or 8 for 802.3x) hold flow f back? PFC and
 * PAUSE are Ethernet: native IB flows have credits instead. */
static int prio_affects(unsigned i, const struct rw_flow *f)
{
	if (f->key.family == 0)
		return 0;
	return i == RW_PAUSE_ALL || f->prio == i;
}

/* ---- table ------------------------------------------------------------- */

#define T_COLS 24
#define T_CELL RP_CELL

/* Columns sized to their widest cell. The rows are not kept: a caller
 * measures every row (cols_measure), then formats each again to print it
 * (cols_print), so a table of any length costs one row of memory. */
struct cols {
	unsigned n;
	const char *const *head;
	const char *align; /* 'l' or 'r' per column */
	size_t w[T_COLS];
};

static void cols_init(struct cols *c, unsigned n, const char *const *head, const char *align)
{
	c->n = n;
	c->head = head;
	c->align = align;
	for (unsigned k = 0; k < n; k++)
		c->w[k] = strlen(head[k]);
}

static void cols_measure(struct cols *c, char cell[][T_CELL])
{
	for (unsigned k = 0; k < c->n; k++) {
		size_t l = strlen(cell[k]);
		if (l > c->w[k])
			c->w[k] = l;
	}
}

/* One line, indented by two spaces, columns two spaces apart, the last
 * one not padded; written whole (one call per line instead of one per
 * cell). cell NULL: the heads. */
static void cols_print(const struct cols *c, FILE *out, char cell[][T_CELL])
{
	char line[2 + T_COLS * (T_CELL + 2) + 1], *o = line;
	o = FMT_LIT(o, "  ");
	for (unsigned k = 0; k < c->n; k++) {
		const char *s = cell ? cell[k] : c->head[k];
		size_t l = strnlen(s, T_CELL - 1), pad = c->w[k] > l ? c->w[k] - l : 0;
		int last = k + 1 == c->n;
		if (c->align[k] == 'r') {
			memset(o, ' ', pad);
			o += pad;
		}
		memcpy(o, s, l);
		o += l;
		if (!last) {
			if (c->align[k] != 'r') {
				memset(o, ' ', pad);
				o += pad;
			}
			o = FMT_LIT(o, "  ");
		}
	}
	*o++ = '\n';
	fwrite(line, 1, (size_t)(o - line), out);
}

/* Cells are formatted with fmt.h rather than snprintf: the flow table
 * formats every row twice. */
static char *cell_end(char *e)
{
	*e = '\0';
	return e;
}

static void u64s(char *b, uint64_t v)
{
	cell_end(fmt_u64(b, v));
}

/* Zero as "-": columns of problems, where a number should stand out. */
static void u64z(char *b, uint64_t v)
{
	if (!v)
		cell_end(FMT_LIT(b, "-"));
	else
		u64s(b, v);
}

/* "a/b", or "-" when both are zero. */
static void pairz(char *b, uint64_t x, uint64_t y)
{
	if (!x && !y) {
		cell_end(FMT_LIT(b, "-"));
		return;
	}
	char *e = fmt_u64(b, x);
	*e++ = '/';
	cell_end(fmt_u64(e, y));
}

static void strcell(char *b, const char *s)
{
	size_t l = strnlen(s, T_CELL - 1);
	memcpy(b, s, l);
	b[l] = '\0';
}

static const char *const nak_short[] = {"seq", "inv", "acc", "op", "rd", "rnr", "res"};
_Static_assert(sizeof(nak_short) / sizeof(nak_short[0]) == RW_NAKK_COUNT, "nak_short: one entry per value");

static void nak_cell(char *b, const struct rw_flow *f)
{
	size_t n = 0;
	b[0] = '\0';
	for (unsigned k = 0; k < RW_NAKK_COUNT; k++) {
		if (!f->naks[k])
			continue;
		int w = snprintf(b + n, T_CELL - n, "%s%s %" PRIu64, n ? "," : "", nak_short[k],
				 f->naks[k]);
		if (w < 0 || (size_t)w >= T_CELL - n)
			break;
		n += (size_t)w;
	}
	if (!n)
		strcell(b, "-");
}

const char *const rp_flow_heads[] = {
	"#", "src", "dst", "dqpn", "tr", "pri", "peer", "packets", "bytes", "msgs", "inc/orph",
	"gaps/miss", "retx", "gbn", "ooo", "NAKs", "ect0/ect1/ce", "CNPs", "CNP min gap",
	"ACK us p50/p99/max", "READ us p50/p99/max", "paused",
};
const char rp_flow_align[] = "rllllrrrrrrrrrrlrrrrrr";
const unsigned rp_flow_ncols = sizeof(rp_flow_heads) / sizeof(rp_flow_heads[0]);

/* The first four cells of every flow table: id, source, destination, QP. */
static unsigned key_cells(char cell[][T_CELL], uint32_t i, const struct rw_flow *f)
{
	u64s(cell[0], i);
	cap_report_addr(cell[1], T_CELL, &f->key, 1);
	cap_report_addr(cell[2], T_CELL, &f->key, 0);
	cell_end(fmt_hex(cell[3], f->key.dqpn, 6)); /* as "0x%06x" */
	return 4;
}

void rp_flow_cells(const struct cap_report *r, uint32_t i, char cell[][T_CELL])
{
	const struct rw_flow *f = rw_analyzer_flow(r->a, i);
	unsigned c = key_cells(cell, i, f);
	strcell(cell[c++], rw_transport_name((enum rw_transport)f->transport));
	if (f->key.family == 0)
		strcell(cell[c++], "-");
	else
		u64s(cell[c++], f->prio);
	if (f->peer >= 0)
		u64s(cell[c++], (uint64_t)f->peer);
	else
		strcell(cell[c++], "-");
	u64s(cell[c++], f->packets);
	rp_bytes(cell[c++], T_CELL, f->bytes);
	u64s(cell[c++], f->messages);
	pairz(cell[c++], f->msg_incomplete, f->msg_orphans);
	pairz(cell[c++], f->psn_gaps, f->missing_psns);
	u64z(cell[c++], f->retransmissions);
	u64z(cell[c++], f->gbn_episodes);
	u64z(cell[c++], f->out_of_order);
	nak_cell(cell[c++], f);
	if (f->key.family == 0) {
		strcell(cell[c++], "-");
	} else {
		char *e = fmt_u64(cell[c], f->ecn[RW_ECN_ECT0]);
		*e++ = '/';
		e = fmt_u64(e, f->ecn[RW_ECN_ECT1]);
		*e++ = '/';
		cell_end(fmt_u64(e, f->ecn[RW_ECN_CE]));
		c++;
	}
	u64z(cell[c++], f->cnps);
	if (f->cnps > 1)
		rp_dur(cell[c++], T_CELL, f->cnp_min_interval_ns);
	else
		strcell(cell[c++], "-");
	rp_lat(cell[c++], T_CELL, &f->ack_lat);
	rp_lat(cell[c++], T_CELL, &f->read_lat);
	u64z(cell[c++], f->pkts_while_paused);
}

/* ---- capture edges, pairing, conformance ---- */

/* A flow is in the edges table when the capture cut it, it resent what
 * went by before the capture, its QP number was reused, or responses could
 * not be told apart: the rest of the flows have nothing to say there. */
int rp_edges_shown(const struct rw_flow *f)
{
	return f->conversation > 1 || f->first_mid_message || f->msg_cut_start || f->msg_cut_end ||
	       f->precapture_resends || f->pair_ambiguous;
}

const char *const rp_edges_heads[] = {"#", "src", "dst", "dqpn", "conv", "prev", "paired by",
				      "mid-start", "unsynced", "pre-cap retx", "cut start/end"};
const char rp_edges_align[] = "rllrrrlrrrr";
const unsigned rp_edges_ncols = sizeof(rp_edges_heads) / sizeof(rp_edges_heads[0]);

void rp_edges_cells(const struct cap_report *r, uint32_t i, char cell[][T_CELL])
{
	const struct rw_flow *f = rw_analyzer_flow(r->a, i);
	unsigned c = key_cells(cell, i, f);
	u64s(cell[c++], f->conversation);
	if (f->prev_conv >= 0)
		u64s(cell[c++], (uint64_t)f->prev_conv);
	else
		strcell(cell[c++], "-");
	if (f->pair_how != RW_PAIR_NONE)
		snprintf(cell[c++], T_CELL, "%s (frame %" PRIu64 ")",
			 rw_pair_how_key((enum rw_pair_how)f->pair_how), f->pair_frame);
	else if (f->pair_ambiguous)
		snprintf(cell[c++], T_CELL, "- (%" PRIu32 " ambiguous)", f->pair_ambiguous);
	else
		strcell(cell[c++], "-");
	strcell(cell[c++], f->first_mid_message ? "yes" : "-");
	u64z(cell[c++], f->unsynced_pkts);
	u64z(cell[c++], f->precapture_resends);
	pairz(cell[c++], f->msg_cut_start, f->msg_cut_end);
}

int rp_conf_shown(const struct rw_flow *f)
{
	return f->conf != NULL;
}

const char *const rp_conf_heads[] = {"#",        "src",       "dst",
				     "dqpn",     "violations (count, first frame)",
				     "resends nak/rnr/timeout/implied",
				     "NAK gen us p50/max", "NAK->resend us", "resend us", "CNP+NAK"};
const char rp_conf_align[] = "rllrlrrrrr";
const unsigned rp_conf_ncols = sizeof(rp_conf_heads) / sizeof(rp_conf_heads[0]);

static const char *const viol_short[] = {
	"dup-nak", "nak-psn", "ack-back", "msn-back", "resend-start", "read-resume", "cnp-often", "ce-no-cnp",
	"nak-ignored",
};
_Static_assert(sizeof(viol_short) / sizeof(viol_short[0]) == RW_V_COUNT, "viol_short: one entry per value");

static void lat2(char *b, const struct rw_lat *l)
{
	if (!l->count) {
		strcell(b, "-");
		return;
	}
	uint64_t p = rw_lat_quantile(l, 0.5);
	snprintf(b, T_CELL, "%.*f/%.*f", us_prec(p), (double)p / 1e3, us_prec(l->max_ns),
		 (double)l->max_ns / 1e3);
}

void rp_conf_cells(const struct cap_report *r, uint32_t i, char cell[][T_CELL])
{
	const struct rw_flow *f = rw_analyzer_flow(r->a, i);
	const struct rw_conform *cf = f->conf;
	unsigned c = key_cells(cell, i, f);
	char *v = cell[c++], *e = v, *end = v + T_CELL;
	*e = '\0';
	for (unsigned k = 0; cf && k < RW_V_COUNT; k++) {
		if (!cf->count[k])
			continue;
		int w = snprintf(e, (size_t)(end - e), "%s%s %" PRIu64 " @%" PRIu64, e == v ? "" : ", ",
				 viol_short[k], cf->count[k], cf->frames[k][0]);
		if (w < 0 || w >= end - e) {
			/* No room left: the JSON has them all. */
			memcpy(end - 4, "...", 4);
			break;
		}
		e += w;
	}
	if (e == v)
		strcell(v, "-");
	if (cf && (cf->resend_by_nak || cf->resend_by_rnr || cf->resend_by_timeout || cf->resend_by_implied))
		snprintf(cell[c++], T_CELL, "%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64,
			 cf->resend_by_nak, cf->resend_by_rnr, cf->resend_by_timeout,
			 cf->resend_by_implied);
	else
		strcell(cell[c++], "-");
	lat2(cell[c++], &cf->nak_gen);
	lat2(cell[c++], &cf->nak_resp);
	lat2(cell[c++], &cf->retx);
	u64z(cell[c++], cf->cnp_with_nak);
}

/* The NAKs flow i left unanswered, each with the first new request past
 * the timeout: what the violations cell has no room for. */
static void nak_ignored_line(const struct cap_report *r, uint32_t i, FILE *out)
{
	const struct rw_conform *c = rw_analyzer_flow(r->a, i)->conf;
	if (!c || !c->count[RW_V_NAK_IGNORED])
		return;
	char b[32];
	fprintf(out, "  #%" PRIu32 " nak-ignored: ", i);
	uint64_t m = c->count[RW_V_NAK_IGNORED] < RW_V_FRAMES ? c->count[RW_V_NAK_IGNORED] : RW_V_FRAMES;
	for (uint64_t k = 0; k < m; k++)
		fprintf(out, "%sNAK frame %" PRIu64 " never answered, new requests from frame %" PRIu64,
			k ? "; " : "", c->frames[RW_V_NAK_IGNORED][k], c->nak_ignored_req[k]);
	fprintf(out, " (more than %s after it, the timeout)\n",
		rp_dur(b, sizeof(b), c->nak_ignored_rto_ns));
}

/* Flows of idx[0..n) that `shown` keeps, measured and printed. */
static uint32_t side_table(const struct cap_report *r, const uint32_t *idx, uint32_t n, FILE *out,
		       int (*shown)(const struct rw_flow *), const char *const *heads,
		       const char *align, unsigned ncols,
		       void (*cells)(const struct cap_report *, uint32_t, char[][T_CELL]),
		       const char *title)
{
	char cell[T_COLS][T_CELL];
	struct cols cl;
	uint32_t rows = 0;
	cols_init(&cl, ncols, heads, align);
	for (uint32_t k = 0; k < n; k++) {
		if (!shown(rw_analyzer_flow(r->a, idx[k])))
			continue;
		cells(r, idx[k], cell);
		cols_measure(&cl, cell);
		rows++;
	}
	if (!rows)
		return 0;
	fprintf(out, "%s\n", title);
	cols_print(&cl, out, NULL);
	for (uint32_t k = 0; k < n; k++) {
		if (!shown(rw_analyzer_flow(r->a, idx[k])))
			continue;
		cells(r, idx[k], cell);
		cols_print(&cl, out, cell);
	}
	return rows;
}

static void edges_tables(const struct cap_report *r, const uint32_t *idx, uint32_t n, FILE *out)
{
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	uint64_t by[RW_PAIR_COUNT] = {0}, unsynced = 0, unpaired = 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct rw_flow *f = rw_analyzer_flow(r->a, idx[k]);
		unsynced += f->unsynced_pkts;
		if (f->peer >= 0 && f->has_requests)
			by[f->pair_how < RW_PAIR_COUNT ? f->pair_how : 0]++;
		else if (f->peer < 0 && f->has_responses)
			unpaired++;
	}
	fprintf(out, "Pairing: %" PRIu64 " request flows paired (by CM handshake %" PRIu64
		     ", ACK %" PRIu64 ", NAK %" PRIu64 ", READ response %" PRIu64 ", atomic ACK %" PRIu64
		     "); %" PRIu64 " response flows unpaired\n  %" PRIu64 " new packets before the first "
		     "acknowledged PSN (unsynced); %" PRIu64 " flows closed by a QP number reuse\n\n",
		by[RW_PAIR_CM] + by[RW_PAIR_ACK] + by[RW_PAIR_NAK] + by[RW_PAIR_READ_RESP] +
			by[RW_PAIR_ATOMIC_ACK],
		by[RW_PAIR_CM], by[RW_PAIR_ACK], by[RW_PAIR_NAK], by[RW_PAIR_READ_RESP],
		by[RW_PAIR_ATOMIC_ACK], unpaired, unsynced, t->conversations_reused);
	if (side_table(r, idx, n, out, rp_edges_shown, rp_edges_heads, rp_edges_align,
		       rp_edges_ncols, rp_edges_cells,
		       "Capture edges (flows the capture's start or end cut, resends of packets "
		       "sent before it, QP numbers reused)"))
		fprintf(out, "  (conv: conversation of the key, prev: the flow of the previous one; "
			     "unsynced: new PSNs before a response acknowledged\n"
			     "   one the capture saw (may resend pre-capture packets); pre-cap retx: "
			     "resends of PSNs below the first one seen;\n"
			     "   cut start/end: messages the capture started or ended inside)\n\n");
	uint32_t conf_rows = side_table(r, idx, n, out, rp_conf_shown, rp_conf_heads, rp_conf_align,
					rp_conf_ncols, rp_conf_cells,
					"Conformance and recovery (requester flows with a verdict or a "
					"recovery; latencies in microseconds)");
	for (uint32_t k = 0; conf_rows && k < n; k++)
		nak_ignored_line(r, idx[k], out);
	fprintf(out, "%sCNP pacing (--cnp-mode %s, minimum %s): CNPs sooner than that after "
		     "the last of their key: per QP %" PRIu64 ", per IP pair %" PRIu64
		     ", per destination IP %" PRIu64 "\n",
		"  ", rw_cnp_mode_key((enum rw_cnp_mode)r->opts.cnp_mode),
		rp_dur((char[32]){0}, 32, r->opts.cnp_min_ns ? r->opts.cnp_min_ns : 4000),
		t->cnp_too_often[RW_CNP_PER_QP], t->cnp_too_often[RW_CNP_PER_IP_PAIR],
		t->cnp_too_often[RW_CNP_PER_DEST_IP]);
	if (conf_rows)
		fprintf(out, "  (dup-nak: a second NAK for one hole; nak-psn: a NAK of an acknowledged or "
		     "unsent PSN; ack-back/msn-back: an ACK PSN\n"
		     "   or MSN going back; resend-start: a resend not starting at the NAKed PSN; "
		     "read-resume: a READ re-issued at the wrong\n"
		     "   PSN, address or length; cnp-often: CNPs closer than the pacing allows; "
		     "ce-no-cnp: a CE mark left without CNP;\n"
		     "   nak-ignored: a sequence NAK never answered while new requests went on past the "
		     "retransmission timeout\n"
		     "   (--rto %s, or the flow's own slower resends); resends: go-back-N episodes by "
		     "cause; CNP+NAK: CNPs sent with a NAK)\n\n",
		     rp_dur((char[32]){0}, 32, r->opts.rto_ns));
	else
		fputc('\n', out);
}

void rp_prio_flows(const struct cap_report *r, const uint32_t *idx, uint32_t n, unsigned prio,
		   char *buf, size_t cap)
{
	size_t len = 0;
	unsigned shown = 0, more = 0;
	buf[0] = '\0';
	for (uint32_t k = 0; k < n; k++) {
		const struct rw_flow *f = rw_analyzer_flow(r->a, idx[k]);
		if (!prio_affects(prio, f))
			continue;
		if (shown == 6) {
			more++;
			continue;
		}
		int w = snprintf(buf + len, cap - len, "%s#%" PRIu32 " %" PRIu64, shown ? ", " : "",
				 idx[k], f->pkts_while_paused);
		if (w < 0 || (size_t)w >= cap - len)
			break;
		len += (size_t)w;
		shown++;
	}
	if (more && len < cap)
		snprintf(buf + len, cap - len, ", +%u more", more);
	if (!shown)
		snprintf(buf, cap, "-");
}

static uint64_t quantum_ps(const struct cap_report *r)
{
	return (uint64_t)(512e3 / r->opts.link_gbps + 0.5);
}

static void flow_table(const struct cap_report *r, const uint32_t *idx, uint32_t n, FILE *out)
{
	char cell[T_COLS][T_CELL];
	struct cols cl;
	cols_init(&cl, rp_flow_ncols, rp_flow_heads, rp_flow_align);
	for (uint32_t k = 0; k < n; k++) {
		rp_flow_cells(r, idx[k], cell);
		cols_measure(&cl, cell);
	}
	fprintf(out, "Flows by bytes (# flow id, peer: the flow of the other direction)\n");
	cols_print(&cl, out, NULL);
	for (uint32_t k = 0; k < n; k++) {
		rp_flow_cells(r, idx[k], cell);
		cols_print(&cl, out, cell);
	}
	fprintf(out, "  (inc/orph: incomplete messages / packets with no FIRST; gaps/miss: "
		     "PSN gaps / PSNs missing; retx: retransmitted packets;\n"
		     "   gbn: go-back-N episodes; ooo: out of order; NAKs: seq(PSN sequence "
		     "error) inv(invalid request) acc(remote access) op(remote\n"
		     "   operational) rd(invalid RD request) rnr(receiver not ready) "
		     "res(reserved); CNP min gap: shortest time between two CNPs;\n"
		     "   latencies in microseconds; paused: packets sent while their priority "
		     "was paused)\n\n");
}

static void pfc_table(const struct cap_report *r, const uint32_t *idx, uint32_t n, FILE *out)
{
	static const char *const heads[] = {"class", "frames", "xoff", "xon", "paused",
					    "storms", "longest",
					    "flows held back (packets sent while paused)"};
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	char rows[RS_PRIOS][T_COLS][T_CELL];
	unsigned nrows = 0;
	struct cols cl;
	char b1[64];
	cols_init(&cl, 8, heads, "lrrrrrrl");
	for (unsigned i = 0; i < RS_PRIOS; i++) {
		const struct rw_pfc_prio *s = &t->pfc[i];
		if (!s->frames)
			continue;
		char(*row)[T_CELL] = rows[nrows++];
		if (i == RW_PAUSE_ALL)
			strcell(row[0], "802.3x");
		else
			snprintf(row[0], T_CELL, "prio %u", i);
		u64s(row[1], s->frames);
		u64s(row[2], s->xoff);
		u64s(row[3], s->xon);
		rp_dur(row[4], T_CELL, s->paused_ns);
		u64z(row[5], s->storms);
		rp_dur(row[6], T_CELL, s->longest_ns);
		rp_prio_flows(r, idx, n, i, row[7], T_CELL);
		cols_measure(&cl, row);
	}
	if (!nrows) {
		fprintf(out, "PFC and PAUSE: no frames\n\n");
		return;
	}
	uint64_t qps = quantum_ps(r);
	fprintf(out, "PFC and PAUSE (%.4g Gb/s link: 1 quantum = %" PRIu64 ".%03" PRIu64
		     " ns; storm: one pause longer than %s)\n",
		r->opts.link_gbps, qps / 1000, qps % 1000, rp_dur(b1, sizeof(b1), r->opts.storm_ns));
	cols_print(&cl, out, NULL);
	for (unsigned k = 0; k < nrows; k++)
		cols_print(&cl, out, rows[k]);
	fputc('\n', out);
}

/* The two ends of a handshake as flow keys (active -> passive), for the
 * address printers. */
static void cm_key(const struct rw_cm_conn *c, struct rw_flow_key *k)
{
	memset(k, 0, sizeof(*k));
	k->family = c->family;
	memcpy(k->src, c->active, 16);
	memcpy(k->dst, c->passive, 16);
	k->dqpn = c->passive_qpn;
}

/* The CM handshakes, one row each: the two ends and their QPs, where each
 * side's requests start (the PSN the other side said it expects), the
 * state, the time from REQ to RTU, REQ resends, MRAs, a REJ's reason and
 * the two flows it paired. */
const char *const rp_cm_heads[] = {
	"#", "active", "qp", "passive", "qp", "first PSN >", "first PSN <", "state", "REQ to RTU",
	"REQ resent", "MRAs", "REJ", "flows",
};
const char rp_cm_align[] = "rllllrrlrrrll";
const unsigned rp_cm_ncols = sizeof(rp_cm_heads) / sizeof(rp_cm_heads[0]);

void rp_cm_cells(const struct cap_report *r, uint32_t i, char cell[][RP_CELL])
{
	const struct rw_cm_conn *c = rw_analyzer_cm(r->a, i);
	struct rw_flow_key k;
	cm_key(c, &k);
	u64s(cell[0], i);
	cap_report_addr(cell[1], RP_CELL, &k, 1);
	cell_end(fmt_hex(cell[2], c->active_qpn, 6));
	cap_report_addr(cell[3], RP_CELL, &k, 0);
	strcell(cell[4], "-");
	strcell(cell[5], "-");
	strcell(cell[6], "-");
	if (c->reps) {
		cell_end(fmt_hex(cell[4], c->passive_qpn, 6));
		u64s(cell[5], c->passive_psn);
		u64s(cell[6], c->active_psn);
	}
	strcell(cell[7], rw_cm_state_key((enum rw_cm_state)c->state));
	if (c->rtus)
		rp_dur(cell[8], RP_CELL, c->rtu_ns - c->req_ns);
	else
		strcell(cell[8], "-");
	u64z(cell[9], c->reqs ? c->reqs - 1 : 0);
	u64z(cell[10], c->mras);
	if (c->rejs) {
		const char *why = rw_cm_rej_reason_name(c->rej_reason);
		snprintf(cell[11], RP_CELL, "%u %s", c->rej_reason, why ? why : "unknown");
	} else {
		strcell(cell[11], "-");
	}
	if (c->flow_active >= 0)
		snprintf(cell[12], RP_CELL, "%" PRId32 ", %" PRId32, c->flow_active, c->flow_passive);
	else
		strcell(cell[12], "-");
}

static void cm_table(const struct cap_report *r, FILE *out)
{
	char cell[T_COLS][T_CELL];
	struct cols cl;
	uint32_t n = rw_analyzer_cm_count(r->a);
	if (!n)
		return;
	cols_init(&cl, rp_cm_ncols, rp_cm_heads, rp_cm_align);
	for (uint32_t i = 0; i < n; i++) {
		rp_cm_cells(r, i, cell);
		cols_measure(&cl, cell);
	}
	fprintf(out, "CM handshakes (first PSN >: the active side's requests, <: the passive side's)\n");
	cols_print(&cl, out, NULL);
	for (uint32_t i = 0; i < n; i++) {
		rp_cm_cells(r, i, cell);
		cols_print(&cl, out, cell);
	}
	fputc('\n', out);
}

int cap_report_table(const struct cap_report *r, FILE *out)
{
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	char b1[64], b2[64], b3[64], why[256];
	uint32_t n;
	uint32_t *idx = rp_sorted_flows(r, &n);
	if (!idx && n) {
		errno = ENOMEM;
		return -1;
	}
	errno = 0;

	fprintf(out, "rocewire report%s%s\n", r->opts.title ? ": " : "",
		r->opts.title ? r->opts.title : "");
	uint64_t dur = t->packets ? t->last_ns - t->first_ns : 0;
	fprintf(out, "%" PRIu64 " packets, %s in %s", t->packets, rp_bytes(b1, sizeof(b1), t->bytes),
		rp_dur(b2, sizeof(b2), dur));
	if (t->packets)
		fprintf(out, " from %" PRIu64 ".%09" PRIu64, t->first_ns / 1000000000u,
			t->first_ns % 1000000000u);
	fprintf(out, "; %" PRIu32 " flow%s\n", n, n == 1 ? "" : "s");
	/* In the header, where nobody reads past it: the rows below miss
	 * flows. */
	if (rp_incomplete(r, why, sizeof(why)))
		fprintf(out, "INCOMPLETE ANALYSIS: %s\n", why);
	fputc('\n', out);

	if (n) {
		flow_table(r, idx, n, out);
		edges_tables(r, idx, n, out);
	} else
		fprintf(out, "Flows: none (no RoCE or InfiniBand transport packets)\n\n");
	pfc_table(r, idx, n, out);
	cm_table(r, out);
	rc_table(r, out);

	/* Totals */
	fprintf(out, "Totals\n");
	fprintf(out, "  carriers:");
	int first = 1;
	for (int c = 0; c < RW_CARRIER_COUNT; c++) {
		if (!t->by_carrier[c])
			continue;
		fprintf(out, "%s %s %" PRIu64, first ? "" : ",", rw_carrier_name((enum rw_carrier)c),
			t->by_carrier[c]);
		first = 0;
	}
	fprintf(out, "%s\n", first ? " none" : "");
	fprintf(out, "  ICRC ok %" PRIu64 ", bad %" PRIu64 "; VCRC ok %" PRIu64 ", bad %" PRIu64
		     "; decode errors %" PRIu64 "; truncated %" PRIu64 "\n",
		t->icrc_ok, t->icrc_bad, t->vcrc_ok, t->vcrc_bad, t->decode_errors, t->truncated);
	fprintf(out, "  untracked packets %" PRIu64, t->untracked);
	if (t->untracked_flows)
		fprintf(out, " of %" PRIu64 " flow%s", t->untracked_flows,
			t->untracked_flows == 1 ? "" : "s");
	if (r->opts.max_flows)
		fprintf(out, " (flow table: %" PRIu32 " of %" PRIu32 " flows)", n, r->opts.max_flows);
	else
		fprintf(out, " (flow table: %" PRIu32 " flows, no limit but memory)", n);
	fprintf(out, "; CNPs with no CE mark in the %s before: %" PRIu64 "\n",
		rp_dur(b3, sizeof(b3), r->opts.cnp_window_ns), t->cnps_unlinked);
	if (r->drops_known)
		fprintf(out, "  capture drops: kernel %" PRIu64 ", interface %" PRIu64 "\n",
			r->drops_kernel, r->drops_if);
	else
		fprintf(out, "  capture drops: none recorded (read from a file)\n");
	free(idx);
	if (fflush(out) != 0 || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* ---- JSON -------------------------------------------------------------- */

/* Written as it is made (jsonw.h), in jansson's exact form with
 * JSON_INDENT(2) | JSON_REAL_PRECISION(12): the document is the one the
 * jansson tree gave, without holding every flow's object. 12 significant
 * digits: microseconds keep their nanoseconds. */
#define J_INDENT 2
#define J_PREC 12

/* Nanoseconds as microseconds, seconds. */
static void j_us(struct jw *w, const char *key, uint64_t ns)
{
	jw_dec(w, key, ns, 3);
}

static void j_time(struct jw *w, const char *key, uint64_t ns)
{
	char b[40], *e = fmt_u64(b, ns / 1000000000u);
	*e++ = '.';
	e = fmt_u32w(e, (uint32_t)(ns % 1000000000u), 9);
	jw_strn(w, key, b, (size_t)(e - b));
}

static void j_lat(struct jw *w, const char *key, const struct rw_lat *h)
{
	jw_obj(w, key);
	jw_uint(w, "count", h->count);
	if (h->count) {
		j_us(w, "p50", rw_lat_quantile(h, 0.5));
		j_us(w, "p99", rw_lat_quantile(h, 0.99));
		j_us(w, "max", h->max_ns);
		jw_real(w, "mean", (double)h->sum_ns / (double)h->count / 1e3);
	} else {
		jw_null(w, "p50");
		jw_null(w, "p99");
		jw_null(w, "max");
		jw_null(w, "mean");
	}
	jw_obj_end(w);
}

/* Conformance verdicts and recovery latencies (the requester's flow);
 * null for the many flows that had none. */
static void json_conform(struct jw *w, const struct rw_conform *c)
{
	if (!c) {
		jw_null(w, "conformance");
		return;
	}
	jw_obj(w, "conformance");
	jw_obj(w, "violations");
	for (unsigned v = 0; v < RW_V_COUNT; v++) {
		uint64_t n = c->count[v] < RW_V_FRAMES ? c->count[v] : RW_V_FRAMES;
		jw_obj(w, rw_violation_key((enum rw_violation)v));
		jw_uint(w, "count", c->count[v]);
		jw_arr(w, "frames");
		for (uint64_t k = 0; k < n; k++)
			jw_uint(w, NULL, c->frames[v][k]);
		jw_arr_end(w);
		if (v == RW_V_NAK_IGNORED) {
			/* each NAK's first new request past the timeout, and
			 * the timeout the flow was judged by */
			jw_arr(w, "requests");
			for (uint64_t k = 0; k < n; k++)
				jw_uint(w, NULL, c->nak_ignored_req[k]);
			jw_arr_end(w);
			if (c->count[v])
				j_us(w, "rto_us", c->nak_ignored_rto_ns);
			else
				jw_null(w, "rto_us");
		}
		jw_obj_end(w);
	}
	jw_obj_end(w);
	jw_obj(w, "resends");
	jw_uint(w, "nak", c->resend_by_nak);
	jw_uint(w, "rnr", c->resend_by_rnr);
	jw_uint(w, "timeout", c->resend_by_timeout);
	jw_uint(w, "implied", c->resend_by_implied);
	jw_obj_end(w);
	jw_uint(w, "cnps_with_nak", c->cnp_with_nak);
	j_lat(w, "nak_generation_us", &c->nak_gen);
	j_lat(w, "nak_to_resend_us", &c->nak_resp);
	j_lat(w, "resend_us", &c->retx);
	j_lat(w, "timeout_resend_us", &c->timeout);
	jw_obj_end(w);
}

/* What the engine knows of the flow's place in the capture: which
 * conversation of its key, how it was paired, and what the capture's start
 * and end cut off. */
static void json_flow_context(struct jw *w, const struct rw_flow *f)
{
	jw_uint(w, "conversation", f->conversation);
	if (f->prev_conv >= 0)
		jw_uint(w, "previous_conversation", (uint64_t)f->prev_conv);
	else
		jw_null(w, "previous_conversation");
	jw_obj(w, "pairing");
	jw_str(w, "how", rw_pair_how_key((enum rw_pair_how)f->pair_how));
	if (f->pair_how != RW_PAIR_NONE) {
		jw_uint(w, "psn", f->pair_psn);
		jw_uint(w, "frame", f->pair_frame);
	} else {
		jw_null(w, "psn");
		jw_null(w, "frame");
	}
	jw_uint(w, "ambiguous", f->pair_ambiguous);
	jw_uint(w, "undone", f->unpaired);
	jw_obj_end(w);
	jw_bool(w, "first_seen_mid_message", f->first_mid_message);
	jw_uint(w, "unsynced_packets", f->unsynced_pkts);
	jw_uint(w, "precapture_resends", f->precapture_resends);
	jw_uint(w, "messages_cut_by_capture_start", f->msg_cut_start);
	jw_uint(w, "messages_cut_by_capture_end", f->msg_cut_end);
	json_conform(w, f->conf);
}

static void json_flow(struct jw *w, const struct cap_report *r, uint32_t i)
{
	const struct rw_flow *f = rw_analyzer_flow(r->a, i);
	static const char *const ops[] = {"send", "write", "read", "atomic"};
	_Static_assert(sizeof(ops) / sizeof(ops[0]) == RW_MSG_OPS, "ops: one entry per value");
	char b[64];
	jw_obj(w, NULL);
	jw_uint(w, "index", i);
	jw_str(w, "family", rp_family(&f->key));
	jw_str(w, "src", cap_report_addr(b, sizeof(b), &f->key, 1));
	jw_str(w, "dst", cap_report_addr(b, sizeof(b), &f->key, 0));
	jw_uint(w, "dqpn", f->key.dqpn);
	jw_str(w, "transport", rw_transport_name((enum rw_transport)f->transport));
	if (f->key.family == 0)
		jw_null(w, "priority");
	else
		jw_uint(w, "priority", f->prio);
	if (f->peer >= 0)
		jw_uint(w, "peer", (uint64_t)f->peer);
	else
		jw_null(w, "peer");
	jw_bool(w, "requests", f->has_requests);
	jw_bool(w, "responses", f->has_responses);
	j_time(w, "first", f->first_ns);
	jw_dec(w, "duration_s", f->last_ns - f->first_ns, 9);
	jw_uint(w, "packets", f->packets);
	jw_uint(w, "bytes", f->bytes);
	jw_uint(w, "payload_bytes", f->payload_bytes);
	jw_uint(w, "messages", f->messages);
	jw_obj(w, "msgs_by_op");
	for (unsigned k = 0; k < RW_MSG_OPS; k++)
		jw_uint(w, ops[k], f->msgs_by_op[k]);
	jw_obj_end(w);
	jw_obj(w, "bytes_by_op");
	for (unsigned k = 0; k < RW_MSG_OPS; k++)
		jw_uint(w, ops[k], f->bytes_by_op[k]);
	jw_obj_end(w);
	jw_uint(w, "incomplete_messages", f->msg_incomplete);
	jw_uint(w, "orphan_packets", f->msg_orphans);
	jw_uint(w, "psn_gaps", f->psn_gaps);
	jw_uint(w, "missing_psns", f->missing_psns);
	jw_uint(w, "retransmissions", f->retransmissions);
	jw_uint(w, "gbn_episodes", f->gbn_episodes);
	jw_uint(w, "out_of_order", f->out_of_order);
	jw_uint(w, "acks", f->acks);
	jw_uint(w, "msn_regressions", f->msn_regressions);
	jw_obj(w, "naks");
	for (unsigned k = 0; k < RW_NAKK_COUNT; k++)
		jw_uint(w, rw_nak_kind_key((enum rw_nak_kind)k), f->naks[k]);
	jw_obj_end(w);
	jw_obj(w, "ecn");
	jw_uint(w, "not_ect", f->ecn[RW_ECN_NOT_ECT]);
	jw_uint(w, "ect0", f->ecn[RW_ECN_ECT0]);
	jw_uint(w, "ect1", f->ecn[RW_ECN_ECT1]);
	jw_uint(w, "ce", f->ecn[RW_ECN_CE]);
	jw_obj_end(w);
	jw_uint(w, "cnps", f->cnps);
	if (f->cnps > 1)
		j_us(w, "cnp_min_interval_us", f->cnp_min_interval_ns);
	else
		jw_null(w, "cnp_min_interval_us");
	j_lat(w, "ack_latency_us", &f->ack_lat);
	j_lat(w, "read_latency_us", &f->read_lat);
	j_lat(w, "atomic_latency_us", &f->atomic_lat);
	jw_uint(w, "pkts_while_paused", f->pkts_while_paused);
	jw_uint(w, "icrc_bad", f->icrc_bad);
	jw_uint(w, "vcrc_bad", f->vcrc_bad);
	json_flow_context(w, f);
	jw_obj_end(w);
}

/* pfc."0".."7" and pfc.pause: each lists the flows its pauses hold back.
 * Which class holds a flow back is read once per flow (cls, in sorted
 * order), not once per class: the flows are far apart in memory. */
#define CLS_NONE 0xFF /* native IB: credits, not pauses */
static void json_pfc(struct jw *w, const struct cap_report *r, const uint32_t *idx, uint32_t n,
		     const uint8_t *cls)
{
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	uint64_t held[RS_PRIOS] = {0};
	for (uint32_t k = 0; k < n; k++) {
		if (cls[k] == CLS_NONE)
			continue;
		uint64_t p = rw_analyzer_flow(r->a, idx[k])->pkts_while_paused;
		if (cls[k] < RW_PAUSE_ALL)
			held[cls[k]] += p;
		held[RW_PAUSE_ALL] += p; /* 802.3x pauses every Ethernet flow */
	}
	jw_obj(w, "pfc");
	for (unsigned i = 0; i < RS_PRIOS; i++) {
		const struct rw_pfc_prio *s = &t->pfc[i];
		jw_obj(w, rp_prio_name(i));
		jw_uint(w, "frames", s->frames);
		jw_uint(w, "xoff", s->xoff);
		jw_uint(w, "xon", s->xon);
		j_us(w, "paused_us", s->paused_ns);
		jw_uint(w, "storms", s->storms);
		j_us(w, "longest_us", s->longest_ns);
		jw_arr(w, "flows");
		for (uint32_t k = 0; k < n; k++)
			if (cls[k] != CLS_NONE && (i == RW_PAUSE_ALL || cls[k] == i))
				jw_uint(w, NULL, idx[k]);
		jw_arr_end(w);
		jw_uint(w, "pkts_while_paused", held[i]);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

static void j_frame(struct jw *w, const char *key, uint64_t frame, uint32_t count)
{
	if (count)
		jw_uint(w, key, frame);
	else
		jw_null(w, key);
}

/* The CM handshakes: who connected to whom, with which QPs and starting
 * PSNs, how long it took, and what went wrong on the way. */
static void json_handshakes(struct jw *w, const struct cap_report *r)
{
	char b[64];
	jw_arr(w, "handshakes");
	for (uint32_t i = 0; i < rw_analyzer_cm_count(r->a); i++) {
		const struct rw_cm_conn *c = rw_analyzer_cm(r->a, i);
		struct rw_flow_key k;
		cm_key(c, &k);
		jw_obj(w, NULL);
		jw_str(w, "active", cap_report_addr(b, sizeof(b), &k, 1));
		jw_str(w, "passive", cap_report_addr(b, sizeof(b), &k, 0));
		jw_str(w, "state", rw_cm_state_key((enum rw_cm_state)c->state));
		jw_uint(w, "local_comm_id", c->active_comm_id);
		jw_uint(w, "remote_comm_id", c->passive_comm_id);
		jw_uint(w, "local_qpn", c->active_qpn);
		jw_uint(w, "req_starting_psn", c->active_psn);
		if (c->reps) {
			jw_uint(w, "remote_qpn", c->passive_qpn);
			jw_uint(w, "rep_starting_psn", c->passive_psn);
		} else {
			jw_null(w, "remote_qpn");
			jw_null(w, "rep_starting_psn");
		}
		jw_uint(w, "path_mtu", rw_mtu_bytes(c->path_mtu));
		j_frame(w, "req_frame", c->req_frame, c->reqs);
		j_frame(w, "rep_frame", c->rep_frame, c->reps);
		j_frame(w, "rtu_frame", c->rtu_frame, c->rtus);
		j_frame(w, "dreq_frame", c->dreq_frame, c->dreqs);
		j_frame(w, "drep_frame", c->drep_frame, c->dreps);
		if (c->rtus && c->reqs)
			j_us(w, "req_to_rtu_us", c->rtu_ns - c->req_ns);
		else
			jw_null(w, "req_to_rtu_us");
		if (c->reps && c->reqs)
			j_us(w, "req_to_rep_us", c->rep_ns - c->req_ns);
		else
			jw_null(w, "req_to_rep_us");
		jw_uint(w, "req_retries", c->reqs ? c->reqs - 1 : 0);
		jw_uint(w, "rep_retries", c->reps ? c->reps - 1 : 0);
		jw_uint(w, "mras", c->mras);
		if (c->mras) {
			j_us(w, "mra_after_req_us", c->mra_ns - c->req_ns);
			jw_uint(w, "mra_service_timeout", c->mra_timeout);
		}
		if (c->rejs) {
			const char *why = rw_cm_rej_reason_name(c->rej_reason);
			jw_uint(w, "rej_reason", c->rej_reason);
			jw_str(w, "rej_reason_name", why ? why : "unknown");
			jw_uint(w, "rej_frame", c->rej_frame);
		}
		if (c->flow_active >= 0)
			jw_uint(w, "flow_active", (uint64_t)c->flow_active);
		else
			jw_null(w, "flow_active");
		if (c->flow_passive >= 0)
			jw_uint(w, "flow_passive", (uint64_t)c->flow_passive);
		else
			jw_null(w, "flow_passive");
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void json_doc(struct jw *w, const struct cap_report *r, const uint32_t *idx, uint32_t n,
		     const uint8_t *cls)
{
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	char why[256];
	int incomplete = rp_incomplete(r, why, sizeof(why));
	jw_obj(w, NULL);
	if (r->opts.title)
		jw_str(w, "title", r->opts.title);
	if (t->packets)
		j_time(w, "start", t->first_ns);
	else
		jw_null(w, "start");
	jw_dec(w, "duration_s", t->packets ? t->last_ns - t->first_ns : 0, 9);
	jw_uint(w, "packets", t->packets);
	jw_uint(w, "bytes", t->bytes);
	jw_obj(w, "carriers");
	for (int c = 0; c < RW_CARRIER_COUNT; c++)
		jw_uint(w, rw_carrier_name((enum rw_carrier)c), t->by_carrier[c]);
	jw_obj_end(w);
	jw_uint(w, "flows", n);
	jw_arr(w, "qps");
	for (uint32_t k = 0; k < n; k++)
		json_flow(w, r, idx[k]);
	jw_arr_end(w);
	json_pfc(w, r, idx, n, cls);
	json_handshakes(w, r);
	jw_uint(w, "cm_unmatched", t->cm_unmatched);
	jw_real(w, "link_gbps", r->opts.link_gbps);
	j_us(w, "storm_threshold_us", r->opts.storm_ns);
	jw_obj(w, "icrc");
	jw_uint(w, "ok", t->icrc_ok);
	jw_uint(w, "bad", t->icrc_bad);
	jw_obj_end(w);
	jw_obj(w, "vcrc");
	jw_uint(w, "ok", t->vcrc_ok);
	jw_uint(w, "bad", t->vcrc_bad);
	jw_obj_end(w);
	jw_uint(w, "decode_errors", t->decode_errors);
	jw_uint(w, "truncated", t->truncated);
	jw_uint(w, "untracked", t->untracked);
	jw_uint(w, "untracked_flows", t->untracked_flows);
	if (r->opts.max_flows)
		jw_uint(w, "max_flows", r->opts.max_flows);
	else
		jw_null(w, "max_flows");
	jw_bool(w, "incomplete_analysis", incomplete);
	if (incomplete)
		jw_str(w, "incomplete_reason", why);
	else
		jw_null(w, "incomplete_reason");
	jw_uint(w, "cnps_unlinked", t->cnps_unlinked);
	j_us(w, "cnp_window_us", r->opts.cnp_window_ns);
	j_us(w, "rto_us", r->opts.rto_ns);
	/* Every pacing mode is judged; the flows' verdicts use `mode`. */
	jw_obj(w, "cnp_pacing");
	jw_str(w, "mode", rw_cnp_mode_key((enum rw_cnp_mode)r->opts.cnp_mode));
	jw_obj(w, "too_often");
	for (unsigned m = 0; m < RW_CNP_MODES; m++)
		jw_uint(w, rw_cnp_mode_key((enum rw_cnp_mode)m), t->cnp_too_often[m]);
	jw_obj_end(w);
	jw_obj_end(w);
	jw_uint(w, "conversations_reused", t->conversations_reused);
	jw_obj(w, "capture_drops");
	jw_uint(w, "kernel", r->drops_kernel);
	jw_uint(w, "interface", r->drops_if);
	jw_bool(w, "recorded", r->drops_known);
	jw_obj_end(w);
	rc_json(w, r);
	jw_obj_end(w);
}

int cap_report_json(const struct cap_report *r, FILE *out)
{
	uint32_t n;
	uint32_t *idx = rp_sorted_flows(r, &n);
	uint8_t *cls = malloc(n ? n : 1);
	struct jw *w = malloc(sizeof(*w));
	if ((!idx && n) || !cls || !w) {
		free(idx);
		free(cls);
		free(w);
		errno = ENOMEM;
		return -1;
	}
	for (uint32_t k = 0; k < n; k++) {
		const struct rw_flow *f = rw_analyzer_flow(r->a, idx[k]);
		cls[k] = f->key.family == 0 ? CLS_NONE : f->prio;
	}
	errno = 0;
	jw_init(w, out, J_INDENT, J_PREC);
	json_doc(w, r, idx, n, cls);
	jw_putc(w, '\n');
	int rc = jw_end(w);
	free(w);
	free(cls);
	free(idx);
	if (fflush(out) != 0 || ferror(out))
		rc = -1;
	if (rc != 0 && !errno)
		errno = EIO;
	return rc;
}
