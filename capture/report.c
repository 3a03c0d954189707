/* The per-QP report: owns the analyzer and the time series, and writes the
 * table (`rocewire-cap --report`) and the JSON document (`--report --json`,
 * schema in README-report.md). The HTML report is in report_html.c, the
 * series in report_series.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fmt.h"
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
	if (r->opts.link_gbps <= 0)
		r->opts.link_gbps = 100;
	if (!r->opts.max_flows)
		r->opts.max_flows = 4096;
	if (!r->opts.storm_ns)
		r->opts.storm_ns = 10000000;
	if (!r->opts.cnp_window_ns)
		r->opts.cnp_window_ns = 1000000;
	r->opts.title = NULL;
	if (o && o->title && !(r->opts.title = clean_text(o->title)))
		goto fail;

	struct rw_analyze_cfg cfg = {
		.max_flows = r->opts.max_flows,
		.link_gbps = r->opts.link_gbps,
		.cnp_window_ns = r->opts.cnp_window_ns,
		.storm_ns = r->opts.storm_ns,
	};
	size_t size = (rw_analyzer_mem_size(&cfg) + 63) & ~(size_t)63;
	r->mem = aligned_alloc(64, size);
	if (!r->mem)
		goto fail;
	r->a = rw_analyzer_init(r->mem, size, &cfg);
	if (!r->a) {
		errno = EINVAL;
		goto fail;
	}
	/* calloc: pages of flows that never appear are never touched. */
	r->nseries = r->opts.max_flows < RS_SERIES_FLOWS ? r->opts.max_flows : RS_SERIES_FLOWS;
	r->series = calloc(r->nseries, sizeof(*r->series));
	if (!r->series)
		goto fail;
	r->shift = RS_BIN_SHIFT0;
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
	free(r->mem);
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

const struct rw_analyzer *cap_report_analyzer(const struct cap_report *r)
{
	return r->a;
}

/* ---- shared helpers ---------------------------------------------------- */

static const struct cap_report *sort_ctx;

static int by_bytes(const void *a, const void *b)
{
	const struct rw_flow *fa = rw_analyzer_flow(sort_ctx->a, *(const uint32_t *)a);
	const struct rw_flow *fb = rw_analyzer_flow(sort_ctx->a, *(const uint32_t *)b);
	if (fa->bytes != fb->bytes)
		return fa->bytes > fb->bytes ? -1 : 1;
	if (fa->packets != fb->packets)
		return fa->packets > fb->packets ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

uint32_t *rp_sorted_flows(const struct cap_report *r, uint32_t *n)
{
	*n = rw_analyzer_flow_count(r->a);
	if (!*n)
		return NULL;
	uint32_t *idx = malloc(*n * sizeof(*idx));
	if (!idx) {
		*n = 0;
		return NULL;
	}
	for (uint32_t i = 0; i < *n; i++)
		idx[i] = i;
	sort_ctx = r;
	qsort(idx, *n, sizeof(*idx), by_bytes);
	sort_ctx = NULL;
	return idx;
}

char *rp_addr(char *buf, size_t cap, const struct rw_flow_key *k, int src)
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
	*e = '\0';
	snprintf(buf, cap, "%s", tmp);
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

char *rp_lat(char *buf, size_t cap, const struct rw_hist *h)
{
	if (!h->count) {
		snprintf(buf, cap, "-");
		return buf;
	}
	uint64_t a = rw_hist_quantile(h, 0.5), b = rw_hist_quantile(h, 0.99), c = h->max_ns;
	snprintf(buf, cap, "%.*f/%.*f/%.*f", us_prec(a), (double)a / 1e3, us_prec(b), (double)b / 1e3,
		 us_prec(c), (double)c / 1e3);
	return buf;
}

const char *rp_prio_name(unsigned i)
{
	static const char *const names[RS_PRIOS] = {"0", "1", "2", "3", "4", "5", "6", "7", "pause"};
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

struct tbl {
	unsigned ncol;
	const char *head[T_COLS];
	char align[T_COLS]; /* 'l' or 'r' */
	size_t rows, cap;
	char (*cell)[T_COLS][T_CELL];
};

static int tbl_init(struct tbl *t, size_t rows)
{
	memset(t, 0, sizeof(*t));
	t->cap = rows ? rows : 1;
	t->cell = calloc(t->cap, sizeof(*t->cell));
	return t->cell ? 0 : -1;
}

static void tbl_col(struct tbl *t, const char *head, char align)
{
	t->head[t->ncol] = head;
	t->align[t->ncol] = align;
	t->ncol++;
}

static void tbl_print(const struct tbl *t, FILE *out, const char *indent)
{
	size_t w[T_COLS];
	for (unsigned c = 0; c < t->ncol; c++) {
		w[c] = strlen(t->head[c]);
		for (size_t r = 0; r < t->rows; r++) {
			size_t l = strlen(t->cell[r][c]);
			if (l > w[c])
				w[c] = l;
		}
	}
	for (size_t r = 0; r <= t->rows; r++) {
		fputs(indent, out);
		for (unsigned c = 0; c < t->ncol; c++) {
			const char *s = r == 0 ? t->head[c] : t->cell[r - 1][c];
			int last = c + 1 == t->ncol;
			if (t->align[c] == 'r')
				fprintf(out, "%*s", (int)w[c], s);
			else if (last)
				fputs(s, out);
			else
				fprintf(out, "%-*s", (int)w[c], s);
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
	}
}

static char *u64s(char *b, uint64_t v)
{
	snprintf(b, T_CELL, "%" PRIu64, v);
	return b;
}

/* Zero as "-": columns of problems, where a number should stand out. */
static char *u64z(char *b, uint64_t v)
{
	if (!v)
		snprintf(b, T_CELL, "-");
	else
		snprintf(b, T_CELL, "%" PRIu64, v);
	return b;
}

static const char *const nak_short[RW_NAKK_COUNT] = {"seq", "inv", "acc", "op", "rd", "rnr", "res"};

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
		snprintf(b, T_CELL, "-");
}

const char *const rp_flow_heads[] = {
	"#", "src", "dst", "dqpn", "tr", "pri", "peer", "packets", "bytes", "msgs", "inc/orph",
	"gaps/miss", "retx", "gbn", "ooo", "NAKs", "ect0/ect1/ce", "CNPs", "CNP min gap",
	"ACK us p50/p99/max", "READ us p50/p99/max", "paused",
};
const char rp_flow_align[] = "rllllrrrrrrrrrrlrrrrrr";
const unsigned rp_flow_ncols = sizeof(rp_flow_heads) / sizeof(rp_flow_heads[0]);

void rp_flow_cells(const struct cap_report *r, uint32_t i, char cell[][T_CELL])
{
	const struct rw_flow *f = rw_analyzer_flow(r->a, i);
	unsigned c = 0;
	u64s(cell[c++], i);
	rp_addr(cell[c++], T_CELL, &f->key, 1);
	rp_addr(cell[c++], T_CELL, &f->key, 0);
	snprintf(cell[c++], T_CELL, "0x%06" PRIx32, f->key.dqpn);
	snprintf(cell[c++], T_CELL, "%s", rw_transport_name((enum rw_transport)f->transport));
	if (f->key.family == 0)
		snprintf(cell[c++], T_CELL, "-");
	else
		snprintf(cell[c++], T_CELL, "%u", f->prio);
	if (f->peer >= 0)
		snprintf(cell[c++], T_CELL, "%" PRId32, f->peer);
	else
		snprintf(cell[c++], T_CELL, "-");
	u64s(cell[c++], f->packets);
	rp_bytes(cell[c++], T_CELL, f->bytes);
	u64s(cell[c++], f->messages);
	if (f->msg_incomplete || f->msg_orphans)
		snprintf(cell[c++], T_CELL, "%" PRIu64 "/%" PRIu64, f->msg_incomplete, f->msg_orphans);
	else
		snprintf(cell[c++], T_CELL, "-");
	if (f->psn_gaps || f->missing_psns)
		snprintf(cell[c++], T_CELL, "%" PRIu64 "/%" PRIu64, f->psn_gaps, f->missing_psns);
	else
		snprintf(cell[c++], T_CELL, "-");
	u64z(cell[c++], f->retransmissions);
	u64z(cell[c++], f->gbn_episodes);
	u64z(cell[c++], f->out_of_order);
	nak_cell(cell[c++], f);
	if (f->key.family == 0)
		snprintf(cell[c++], T_CELL, "-");
	else
		snprintf(cell[c++], T_CELL, "%" PRIu64 "/%" PRIu64 "/%" PRIu64, f->ecn[RW_ECN_ECT0],
			 f->ecn[RW_ECN_ECT1], f->ecn[RW_ECN_CE]);
	u64z(cell[c++], f->cnps);
	if (f->cnps > 1)
		rp_dur(cell[c++], T_CELL, f->cnp_min_interval_ns);
	else
		snprintf(cell[c++], T_CELL, "-");
	rp_lat(cell[c++], T_CELL, &f->ack_lat);
	rp_lat(cell[c++], T_CELL, &f->read_lat);
	u64z(cell[c++], f->pkts_while_paused);
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

int cap_report_table(const struct cap_report *r, FILE *out)
{
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	char b1[64], b2[64], b3[64];
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
	fprintf(out, "; %" PRIu32 " flow%s\n\n", n, n == 1 ? "" : "s");

	/* Flows */
	if (n) {
		struct tbl tb;
		if (tbl_init(&tb, n) != 0) {
			free(idx);
			errno = ENOMEM;
			return -1;
		}
		for (unsigned c = 0; c < rp_flow_ncols; c++)
			tbl_col(&tb, rp_flow_heads[c], rp_flow_align[c]);
		for (uint32_t k = 0; k < n; k++)
			rp_flow_cells(r, idx[k], tb.cell[tb.rows++]);
		fprintf(out, "Flows by bytes (# flow id, peer: the flow of the other direction)\n");
		tbl_print(&tb, out, "  ");
		free(tb.cell);
		fprintf(out, "  (inc/orph: incomplete messages / packets with no FIRST; gaps/miss: "
			     "PSN gaps / PSNs missing; retx: retransmitted packets;\n"
			     "   gbn: go-back-N episodes; ooo: out of order; NAKs: seq(PSN sequence "
			     "error) inv(invalid request) acc(remote access) op(remote\n"
			     "   operational) rd(invalid RD request) rnr(receiver not ready) "
			     "res(reserved); CNP min gap: shortest time between two CNPs;\n"
			     "   latencies in microseconds; paused: packets sent while their priority "
			     "was paused)\n\n");
	} else {
		fprintf(out, "Flows: none (no RoCE or InfiniBand transport packets)\n\n");
	}

	/* PFC */
	int any = 0;
	for (unsigned i = 0; i < RS_PRIOS; i++)
		any |= t->pfc[i].frames != 0;
	if (any) {
		struct tbl tb;
		if (tbl_init(&tb, RS_PRIOS) != 0) {
			free(idx);
			errno = ENOMEM;
			return -1;
		}
		static const char *const heads[] = {"class", "frames", "xoff", "xon", "paused",
						    "storms", "longest",
						    "flows held back (packets sent while paused)"};
		static const char al[] = "lrrrrrrl";
		for (unsigned c = 0; c < 8; c++)
			tbl_col(&tb, heads[c], al[c]);
		for (unsigned i = 0; i < RS_PRIOS; i++) {
			const struct rw_pfc_prio *s = &t->pfc[i];
			if (!s->frames)
				continue;
			char(*row)[T_CELL] = tb.cell[tb.rows++];
			if (i == RW_PAUSE_ALL)
				snprintf(row[0], T_CELL, "802.3x");
			else
				snprintf(row[0], T_CELL, "prio %u", i);
			u64s(row[1], s->frames);
			u64s(row[2], s->xoff);
			u64s(row[3], s->xon);
			rp_dur(row[4], T_CELL, s->paused_ns);
			u64z(row[5], s->storms);
			rp_dur(row[6], T_CELL, s->longest_ns);
			rp_prio_flows(r, idx, n, i, row[7], T_CELL);
		}
		uint64_t qps = quantum_ps(r);
		fprintf(out, "PFC and PAUSE (%.4g Gb/s link: 1 quantum = %" PRIu64 ".%03" PRIu64
			     " ns; storm: one pause longer than %s)\n",
			r->opts.link_gbps, qps / 1000, qps % 1000, rp_dur(b1, sizeof(b1), r->opts.storm_ns));
		tbl_print(&tb, out, "  ");
		free(tb.cell);
		fputc('\n', out);
	} else {
		fprintf(out, "PFC and PAUSE: no frames\n\n");
	}

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
	fprintf(out, "  untracked packets %" PRIu64 " (flow table: %" PRIu32 " of %" PRIu32
		     " flows); CNPs with no CE mark in the %s before: %" PRIu64 "\n",
		t->untracked, n, r->opts.max_flows, rp_dur(b3, sizeof(b3), r->opts.cnp_window_ns),
		t->cnps_unlinked);
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

static json_t *jus(uint64_t ns)
{
	return json_real((double)ns / 1e3);
}

static json_t *jlat(const struct rw_hist *h)
{
	json_t *o = json_object();
	json_object_set_new(o, "count", json_integer((json_int_t)h->count));
	if (h->count) {
		json_object_set_new(o, "p50", jus(rw_hist_quantile(h, 0.5)));
		json_object_set_new(o, "p99", jus(rw_hist_quantile(h, 0.99)));
		json_object_set_new(o, "max", jus(h->max_ns));
		json_object_set_new(o, "mean", json_real((double)h->sum_ns / (double)h->count / 1e3));
	} else {
		json_object_set_new(o, "p50", json_null());
		json_object_set_new(o, "p99", json_null());
		json_object_set_new(o, "max", json_null());
		json_object_set_new(o, "mean", json_null());
	}
	return o;
}

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *jtime(uint64_t ns)
{
	char b[40];
	snprintf(b, sizeof(b), "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	return json_string(b);
}

static json_t *json_flow(const struct cap_report *r, uint32_t i)
{
	const struct rw_flow *f = rw_analyzer_flow(r->a, i);
	static const char *const ops[RW_MSG_OPS] = {"send", "write", "read", "atomic"};
	char b[64];
	json_t *o = json_object();
	json_object_set_new(o, "index", jint(i));
	json_object_set_new(o, "family", json_string(rp_family(&f->key)));
	json_object_set_new(o, "src", json_string(rp_addr(b, sizeof(b), &f->key, 1)));
	json_object_set_new(o, "dst", json_string(rp_addr(b, sizeof(b), &f->key, 0)));
	json_object_set_new(o, "dqpn", jint(f->key.dqpn));
	json_object_set_new(o, "transport",
			    json_string(rw_transport_name((enum rw_transport)f->transport)));
	json_object_set_new(o, "priority", f->key.family == 0 ? json_null() : jint(f->prio));
	json_object_set_new(o, "peer", f->peer >= 0 ? jint((uint64_t)f->peer) : json_null());
	json_object_set_new(o, "requests", json_boolean(f->has_requests));
	json_object_set_new(o, "responses", json_boolean(f->has_responses));
	json_object_set_new(o, "first", jtime(f->first_ns));
	json_object_set_new(o, "duration_s", json_real((double)(f->last_ns - f->first_ns) / 1e9));
	json_object_set_new(o, "packets", jint(f->packets));
	json_object_set_new(o, "bytes", jint(f->bytes));
	json_object_set_new(o, "payload_bytes", jint(f->payload_bytes));
	json_object_set_new(o, "messages", jint(f->messages));
	json_t *mo = json_object(), *bo = json_object();
	for (unsigned k = 0; k < RW_MSG_OPS; k++) {
		json_object_set_new(mo, ops[k], jint(f->msgs_by_op[k]));
		json_object_set_new(bo, ops[k], jint(f->bytes_by_op[k]));
	}
	json_object_set_new(o, "msgs_by_op", mo);
	json_object_set_new(o, "bytes_by_op", bo);
	json_object_set_new(o, "incomplete_messages", jint(f->msg_incomplete));
	json_object_set_new(o, "orphan_packets", jint(f->msg_orphans));
	json_object_set_new(o, "psn_gaps", jint(f->psn_gaps));
	json_object_set_new(o, "missing_psns", jint(f->missing_psns));
	json_object_set_new(o, "retransmissions", jint(f->retransmissions));
	json_object_set_new(o, "gbn_episodes", jint(f->gbn_episodes));
	json_object_set_new(o, "out_of_order", jint(f->out_of_order));
	json_object_set_new(o, "acks", jint(f->acks));
	json_object_set_new(o, "msn_regressions", jint(f->msn_regressions));
	json_t *nk = json_object();
	for (unsigned k = 0; k < RW_NAKK_COUNT; k++)
		json_object_set_new(nk, rw_nak_kind_key((enum rw_nak_kind)k), jint(f->naks[k]));
	json_object_set_new(o, "naks", nk);
	json_t *ecn = json_object();
	json_object_set_new(ecn, "not_ect", jint(f->ecn[RW_ECN_NOT_ECT]));
	json_object_set_new(ecn, "ect0", jint(f->ecn[RW_ECN_ECT0]));
	json_object_set_new(ecn, "ect1", jint(f->ecn[RW_ECN_ECT1]));
	json_object_set_new(ecn, "ce", jint(f->ecn[RW_ECN_CE]));
	json_object_set_new(o, "ecn", ecn);
	json_object_set_new(o, "cnps", jint(f->cnps));
	json_object_set_new(o, "cnp_min_interval_us",
			    f->cnps > 1 ? jus(f->cnp_min_interval_ns) : json_null());
	json_object_set_new(o, "ack_latency_us", jlat(&f->ack_lat));
	json_object_set_new(o, "read_latency_us", jlat(&f->read_lat));
	json_object_set_new(o, "atomic_latency_us", jlat(&f->atomic_lat));
	json_object_set_new(o, "pkts_while_paused", jint(f->pkts_while_paused));
	json_object_set_new(o, "icrc_bad", jint(f->icrc_bad));
	json_object_set_new(o, "vcrc_bad", jint(f->vcrc_bad));
	return o;
}

static json_t *json_doc(const struct cap_report *r)
{
	const struct rw_totals *t = rw_analyzer_totals(r->a);
	uint32_t n;
	uint32_t *idx = rp_sorted_flows(r, &n);
	if (!idx && n)
		return NULL;
	json_t *d = json_object();
	if (r->opts.title)
		json_object_set_new(d, "title", json_string(r->opts.title));
	json_object_set_new(d, "start", t->packets ? jtime(t->first_ns) : json_null());
	json_object_set_new(d, "duration_s",
			    json_real(t->packets ? (double)(t->last_ns - t->first_ns) / 1e9 : 0.0));
	json_object_set_new(d, "packets", jint(t->packets));
	json_object_set_new(d, "bytes", jint(t->bytes));
	json_t *car = json_object();
	for (int c = 0; c < RW_CARRIER_COUNT; c++)
		json_object_set_new(car, rw_carrier_name((enum rw_carrier)c), jint(t->by_carrier[c]));
	json_object_set_new(d, "carriers", car);
	json_object_set_new(d, "flows", jint(n));

	json_t *qps = json_array();
	for (uint32_t k = 0; k < n; k++)
		json_array_append_new(qps, json_flow(r, idx[k]));
	json_object_set_new(d, "qps", qps);

	json_t *pfc = json_object();
	for (unsigned i = 0; i < RS_PRIOS; i++) {
		const struct rw_pfc_prio *s = &t->pfc[i];
		json_t *o = json_object();
		json_object_set_new(o, "frames", jint(s->frames));
		json_object_set_new(o, "xoff", jint(s->xoff));
		json_object_set_new(o, "xon", jint(s->xon));
		json_object_set_new(o, "paused_us", jus(s->paused_ns));
		json_object_set_new(o, "storms", jint(s->storms));
		json_object_set_new(o, "longest_us", jus(s->longest_ns));
		json_t *fl = json_array();
		uint64_t held = 0;
		for (uint32_t k = 0; k < n; k++) {
			const struct rw_flow *f = rw_analyzer_flow(r->a, idx[k]);
			if (!prio_affects(i, f))
				continue;
			json_array_append_new(fl, jint(idx[k]));
			held += f->pkts_while_paused;
		}
		json_object_set_new(o, "flows", fl);
		json_object_set_new(o, "pkts_while_paused", jint(held));
		json_object_set_new(pfc, rp_prio_name(i), o);
	}
	json_object_set_new(d, "pfc", pfc);
	json_object_set_new(d, "link_gbps", json_real(r->opts.link_gbps));
	json_object_set_new(d, "storm_threshold_us", jus(r->opts.storm_ns));

	json_t *ic = json_object();
	json_object_set_new(ic, "ok", jint(t->icrc_ok));
	json_object_set_new(ic, "bad", jint(t->icrc_bad));
	json_object_set_new(d, "icrc", ic);
	json_t *vc = json_object();
	json_object_set_new(vc, "ok", jint(t->vcrc_ok));
	json_object_set_new(vc, "bad", jint(t->vcrc_bad));
	json_object_set_new(d, "vcrc", vc);
	json_object_set_new(d, "decode_errors", jint(t->decode_errors));
	json_object_set_new(d, "truncated", jint(t->truncated));
	json_object_set_new(d, "untracked", jint(t->untracked));
	json_object_set_new(d, "max_flows", jint(r->opts.max_flows));
	json_object_set_new(d, "cnps_unlinked", jint(t->cnps_unlinked));
	json_object_set_new(d, "cnp_window_us", jus(r->opts.cnp_window_ns));
	json_t *dr = json_object();
	json_object_set_new(dr, "kernel", jint(r->drops_kernel));
	json_object_set_new(dr, "interface", jint(r->drops_if));
	json_object_set_new(dr, "recorded", json_boolean(r->drops_known));
	json_object_set_new(d, "capture_drops", dr);
	free(idx);
	return d;
}

int cap_report_json(const struct cap_report *r, FILE *out)
{
	json_t *d = json_doc(r);
	if (!d) {
		errno = ENOMEM;
		return -1;
	}
	/* 12 significant digits: microseconds keep their nanoseconds. */
	errno = 0;
	int rc = json_dumpf(d, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	json_decref(d);
	if (rc == 0 && fputc('\n', out) == EOF)
		rc = -1;
	if (fflush(out) != 0 || ferror(out))
		rc = -1;
	if (rc != 0 && !errno)
		errno = EIO;
	return rc;
}
