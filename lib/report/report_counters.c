/* SPDX-License-Identifier: BSD-3-Clause */
/* The NIC's counters beside the capture (--counters-before/--counters-after):
 * for every counter the vendor's table maps (lib/counters), its change
 * between the two snapshots against the capture's figure for the same
 * event on one host, and a verdict.
 *
 * The figures are tallied per address as packets go by (only when
 * counters were given): packets a host sent and was sent, with a good or
 * bad ICRC, CE marks it received, CNPs and NAKs each way -- the same
 * decoded fields and flow keys the engine reads (rw_flow_key_of). The
 * timeout resends are the engine's own per-flow inference
 * (rw_conform.resend_by_timeout), PFC frames its totals. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "html_draw.h"
#include "jsonw.h"
#include "report_int.h"
#include "rocewire/ext.h"
#include "rocewire/opcode.h"

/* Addresses tallied at most: a capture of one host's link has a handful;
 * packets of addresses beyond these are counted (hosts_over) and the
 * verdicts of a host that was not kept say so. */
#define RC_HOSTS 1024

struct rc_host {
	uint8_t family;      /* as struct rw_flow_key */
	uint8_t addr[16];
	uint64_t n[RW_CTR_WHAT_COUNT];
};

struct rc_hosts {
	uint32_t n;
	uint64_t over;       /* packets with an address not kept */
	/* Per response flow (the engine's index): one past the highest PSN
	 * answered, as a requester's completer keeps it (rxe's comp.psn) */
	uint32_t *comp_psn;  /* bit 31: valid */
	uint32_t n_comp;
	uint64_t comp_lost;  /* sequence NAKs of untracked flows, or no memory */
	struct rc_host h[RC_HOSTS];
};

int rc_new(struct cap_report *r)
{
	r->hosts = calloc(1, sizeof(*r->hosts));
	if (!r->hosts) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void rc_free(struct cap_report *r)
{
	if (r->hosts)
		free(r->hosts->comp_psn);
	free(r->hosts);
	r->hosts = NULL;
}

static struct rc_host *host_of(struct rc_hosts *hs, uint8_t family, const uint8_t *addr)
{
	for (uint32_t i = 0; i < hs->n; i++)
		if (hs->h[i].family == family && memcmp(hs->h[i].addr, addr, 16) == 0)
			return &hs->h[i];
	if (hs->n == RC_HOSTS) {
		hs->over++;
		return NULL;
	}
	struct rc_host *h = &hs->h[hs->n++];
	h->family = family;
	memcpy(h->addr, addr, 16);
	return h;
}

#define COMP_VALID 0x80000000u
#define PSN_MASK 0xFFFFFFu

/* a after b in the 24-bit PSN space (IBA 9.7.2: half the space ahead) */
static int psn_after(uint32_t a, uint32_t b)
{
	uint32_t d = (a - b) & PSN_MASK;
	return d != 0 && d < 0x800000u;
}

static uint32_t *comp_slot(struct rc_hosts *hs, int32_t flow)
{
	if (flow < 0)
		return NULL;
	if ((uint32_t)flow >= hs->n_comp) {
		uint32_t n = hs->n_comp ? hs->n_comp : 64;
		while (n <= (uint32_t)flow)
			n *= 2;
		uint32_t *c = realloc(hs->comp_psn, (size_t)n * sizeof(*c));
		if (!c)
			return NULL;
		memset(c + hs->n_comp, 0, (size_t)(n - hs->n_comp) * sizeof(*c));
		hs->comp_psn = c;
		hs->n_comp = n;
	}
	return &hs->comp_psn[flow];
}

/* rxe's completer (rxe_comp.c check_ack) counts a PSN-sequence NAK only
 * when its PSN is past comp.psn, which every response moves to its PSN + 1
 * and every such NAK to its PSN: a NAK right after the ACK of the PSN
 * before it is not counted. Returns whether this NAK would be. */
static int seq_nak_advances(struct cap_report *r, const struct rw_packet *p, const struct rw_note *n, int seq_nak)
{
	struct rc_hosts *hs = r->hosts;
	uint32_t *c = comp_slot(hs, n->flow);
	uint32_t psn = p->bth.psn & PSN_MASK;
	if (!c) {
		hs->comp_lost += seq_nak;
		return 0;
	}
	if (!seq_nak) {
		uint32_t next = (psn + 1) & PSN_MASK;
		if (!(*c & COMP_VALID) || psn_after(next, *c & PSN_MASK))
			*c = COMP_VALID | next;
		return 0;
	}
	uint32_t base;
	int known = 0;
	if (*c & COMP_VALID) {
		base = *c & PSN_MASK;
		known = 1;
	} else {
		/* before any answer: the requests' first PSN, if the pairing
		 * (made by this NAK at the latest) names the requester */
		const struct rw_flow *f = rw_analyzer_flow(r->a, (uint32_t)n->flow);
		const struct rw_flow *q = f && f->peer >= 0 ? rw_analyzer_flow(r->a, (uint32_t)f->peer) : NULL;
		if (q && q->req.valid) {
			base = q->req.first_psn & PSN_MASK;
			known = 1;
		}
	}
	int adv = !known || psn_after(psn, base);
	if (adv || !(*c & COMP_VALID))
		*c = COMP_VALID | psn;
	return adv;
}

void rc_packet(struct cap_report *r, const struct rw_packet *p, const struct rw_note *n)
{
	struct rw_flow_key k;
	if (!(p->present & RW_P_BTH) || !p->op || !rw_flow_key_of(p, &k))
		return;
	struct rc_host *s = host_of(r->hosts, k.family, k.src);
	struct rc_host *d = host_of(r->hosts, k.family, k.dst);
	int cnp = p->op->op == RW_OP_CNP;
	int ce = 0;
	if (p->carrier == RW_CARRIER_ROCEV2)
		ce = (p->present & RW_P_IPV4) ? p->ipv4.ecn == RW_ECN_CE : p->ipv6.ecn == RW_ECN_CE;
	int seq_nak = 0, rnr_nak = 0;
	if (p->op->hdrs & RW_HDR_AETH) {
		/* IBA 9.7.5.2.4: NAK code 0 is the PSN sequence error */
		seq_nak = p->aeth.kind == RW_AETH_NAK && p->aeth.value == RW_NAK_PSN_SEQ_ERROR;
		rnr_nak = p->aeth.kind == RW_AETH_RNR_NAK;
	}
	if (s) {
		s->n[RW_CTR_PKTS_SENT]++;
		s->n[RW_CTR_CNP_SENT] += cnp;
		s->n[RW_CTR_SEQ_NAK_SENT] += seq_nak;
		s->n[RW_CTR_RNR_NAK_SENT] += rnr_nak;
	}
	int seq_adv = 0;
	if (p->op->flags & RW_OPF_RESPONSE)
		seq_adv = seq_nak_advances(r, p, n, seq_nak);
	if (d) {
		d->n[RW_CTR_SEQ_NAK_RCVD_ADV] += seq_adv;
		d->n[RW_CTR_PKTS_RCVD]++;
		d->n[RW_CTR_PKTS_RCVD_GOOD] += p->icrc_status != RW_CRC_BAD;
		d->n[RW_CTR_ICRC_BAD_RCVD] += p->icrc_status == RW_CRC_BAD;
		d->n[RW_CTR_CE_RCVD] += ce;
		d->n[RW_CTR_CNP_RCVD] += cnp;
		d->n[RW_CTR_SEQ_NAK_RCVD] += seq_nak;
		d->n[RW_CTR_RNR_NAK_RCVD] += rnr_nak;
	}
}

/* ---- the comparison ------------------------------------------------------ */

struct rc_row {
	const char *name;
	const struct rw_ctr_map *map;  /* NULL: not in the vendor's table */
	const struct rw_ctr_delta *d;
	int has_cap;
	uint64_t cap;
	const char *verdict;           /* NULL for an unmapped counter */
	const char *why;               /* not_comparable: the reason; else the table's note */
};

struct rc_cmp {
	const struct rw_ctr_input *in;
	struct rw_ctr_delta *d;
	size_t n;
	struct rc_row *row;
	size_t n_mapped, n_unmapped;
	const struct rc_host *host;  /* NULL: not in the capture (or not kept) */
	char host_text[64];
	int host_given;
	char host_why[160];
	/* When the host was not given: another host of the capture whose
	 * figures agree with more of the counters (the busiest host is a coin
	 * toss between two peers, which see the same packets) */
	const struct rc_host *better;
	char better_text[64];
	size_t agree, better_agree;
};

static int host_matches(const struct rc_host *h, int fam, const uint8_t *v6, const uint8_t *v4)
{
	if (h->family == 4)
		return v4 && memcmp(h->addr, v4, 4) == 0;
	if (h->family == 6 || h->family == 1)
		return fam == 6 && memcmp(h->addr, v6, 16) == 0;
	return 0;
}

static uint64_t host_total(const struct rc_host *h)
{
	return h->n[RW_CTR_PKTS_SENT] + h->n[RW_CTR_PKTS_RCVD];
}

static void addr_text(char *buf, size_t cap, const struct rc_host *h)
{
	struct rw_flow_key k;
	memset(&k, 0, sizeof(k));
	k.family = h->family;
	memcpy(k.src, h->addr, 16);
	cap_report_addr(buf, cap, &k, 1);
}

static void choose_host(struct rc_cmp *c, const struct cap_report *r)
{
	const struct rc_hosts *hs = r->hosts;
	const char *want = c->in->host;
	if (want) {
		uint8_t v6[16], v4[4];
		int fam = 0;
		const uint8_t *pv4 = NULL;
		c->host_given = 1;
		if (inet_pton(AF_INET, want, v4) == 1) {
			fam = 4;
			pv4 = v4;
			memset(v6, 0, 10);
			v6[10] = v6[11] = 0xff;
			memcpy(v6 + 12, v4, 4);
		} else if (inet_pton(AF_INET6, want, v6) == 1) {
			fam = 6;
			/* a RoCEv2 GID of an IPv4 address is ::ffff:a.b.c.d */
			static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
			if (memcmp(v6, mapped, 12) == 0)
				pv4 = v6 + 12;
		}
		snprintf(c->host_text, sizeof(c->host_text), "%.60s", want);
		for (uint32_t i = 0; i < hs->n; i++)
			if (host_matches(&hs->h[i], fam == 4 ? 6 : fam, v6, pv4)) {
				c->host = &hs->h[i];
				addr_text(c->host_text, sizeof(c->host_text), c->host);
				return;
			}
		snprintf(c->host_why, sizeof(c->host_why), "no RoCE packet of the capture was sent by or to %.60s%s",
			 want, hs->over ? " (or the address was beyond the addresses tallied)" : "");
		return;
	}
	for (uint32_t i = 0; i < hs->n; i++)
		if (!c->host || host_total(&hs->h[i]) > host_total(c->host))
			c->host = &hs->h[i];
	if (c->host)
		addr_text(c->host_text, sizeof(c->host_text), c->host);
	else
		snprintf(c->host_why, sizeof(c->host_why), "the capture has no RoCE or InfiniBand transport packet");
}

static uint64_t timeout_resends(const struct cap_report *r, const struct rc_host *h)
{
	uint64_t n = 0;
	uint32_t nf = rw_analyzer_flow_count(r->a);
	for (uint32_t i = 0; i < nf; i++) {
		const struct rw_flow *f = rw_analyzer_flow(r->a, i);
		if (f->conf && f->key.family == h->family && memcmp(f->key.src, h->addr, 16) == 0)
			n += f->conf->resend_by_timeout;
	}
	return n;
}

static void judge(struct rc_row *w, const struct rc_cmp *c, const struct cap_report *r)
{
	const struct rw_ctr_map *m = w->map;
	w->why = m->why;
	if (m->what == RW_CTR_NONE) {
		w->verdict = "not_comparable";
		return;
	}
	if (m->what == RW_CTR_PFC_RX) {
		const struct rw_totals *t = rw_analyzer_totals(r->a);
		w->cap = m->prio <= RW_PAUSE_ALL ? t->pfc[m->prio].frames : 0;
		w->has_cap = 1;
	} else if (c->host) {
		w->cap = m->what == RW_CTR_TIMEOUT_RESENDS ? timeout_resends(r, c->host) : c->host->n[m->what];
		w->has_cap = 1;
	} else {
		w->verdict = "not_comparable";
		w->why = c->host_why;
		return;
	}
	if (w->d->state != RW_CTR_D_OK) {
		w->verdict = "not_comparable";
		w->why = rw_ctr_delta_why((enum rw_ctr_delta_state)w->d->state);
		return;
	}
	if (m->what == RW_CTR_SEQ_NAK_RCVD_ADV && r->hosts->comp_lost) {
		w->verdict = "not_comparable";
		w->why = "sequence NAKs of flows the engine did not track (the flow or memory limit)";
		return;
	}
	if (m->what != RW_CTR_PFC_RX && r->hosts->over) {
		w->verdict = "not_comparable";
		w->why = "the capture has more addresses than the report tallies: some of the host's packets may be missing";
		return;
	}
	w->verdict = w->d->delta == w->cap ? "agree" : w->d->delta > w->cap ? "capture_fewer" : "nic_fewer";
}

static size_t agreeing(struct rc_cmp *c, const struct cap_report *r, const struct rc_host *h)
{
	const struct rc_host *keep = c->host;
	size_t n = 0;
	c->host = h;
	for (size_t i = 0; i < c->n_mapped; i++) {
		struct rc_row w = c->row[i];
		judge(&w, c, r);
		n += strcmp(w.verdict, "agree") == 0 && w.map->what != RW_CTR_PFC_RX;
	}
	c->host = keep;
	return n;
}

static int rc_compare(struct rc_cmp *c, const struct cap_report *r)
{
	memset(c, 0, sizeof(*c));
	c->in = r->opts.counters;
	choose_host(c, r);
	c->d = rw_ctr_diff(&c->in->before, &c->in->after, &c->n);
	if (!c->d && c->n)
		return -1;
	c->row = calloc(c->n ? c->n : 1, sizeof(*c->row));
	if (!c->row) {
		free(c->d);
		return -1;
	}
	/* the mapped counters first (in snapshot order), then the rest */
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c->n; i++) {
			const struct rw_ctr_map *m = rw_ctr_lookup(c->in->vendor, c->d[i].name);
			if ((pass == 0) != (m != NULL))
				continue;
			struct rc_row *w = &c->row[k++];
			w->name = c->d[i].name;
			w->map = m;
			w->d = &c->d[i];
			if (m) {
				judge(w, c, r);
				c->n_mapped++;
			} else {
				w->why = rw_ctr_delta_why((enum rw_ctr_delta_state)c->d[i].state);
				c->n_unmapped++;
			}
		}
	if (!c->host_given && c->host) {
		c->agree = agreeing(c, r, c->host);
		for (uint32_t i = 0; i < r->hosts->n; i++) {
			const struct rc_host *h = &r->hosts->h[i];
			size_t a = h == c->host ? 0 : agreeing(c, r, h);
			if (a > c->agree && a > c->better_agree) {
				c->better = h;
				c->better_agree = a;
			}
		}
		if (c->better)
			addr_text(c->better_text, sizeof(c->better_text), c->better);
	}
	return 0;
}

/* The hint when the counters fit another host better, or "". */
static const char *better_hint(const struct rc_cmp *c, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (c->better)
		snprintf(buf, cap,
			 "these counters fit %s better (%zu counters agree there, %zu here): "
			 "if they are its NIC's, give --counters-host %s",
			 c->better_text, c->better_agree, c->agree, c->better_text);
	return buf;
}

static void rc_cmp_free(struct rc_cmp *c)
{
	free(c->row);
	free(c->d);
}

static void source_line(const struct rc_cmp *c, FILE *out)
{
	const struct rw_ctr_input *in = c->in;
	fprintf(out, "NIC counters (%s) of %s%s: before %s (%s%s%s), after %s (%s%s%s)\n",
		rw_ctr_vendor_key(in->vendor), c->host ? c->host_text : c->host_text[0] ? c->host_text : "no host",
		c->host_given ? "" : ", the host that sent or received most RoCE packets", in->before_name,
		rw_ctr_format_key(in->before.format), in->before.links[0] ? " " : "", in->before.links,
		in->after_name, rw_ctr_format_key(in->after.format), in->after.links[0] ? " " : "", in->after.links);
}

void rc_table(const struct cap_report *r, FILE *out)
{
	struct rc_cmp c;
	if (!r->hosts || rc_compare(&c, r) != 0)
		return;
	source_line(&c, out);
	if (!c.host)
		fprintf(out, "  %s\n", c.host_why);
	char hint[256];
	if (*better_hint(&c, hint, sizeof(hint)))
		fprintf(out, "  %s\n", hint);
	if (c.n_mapped) {
		fprintf(out, "  %-28s %12s %12s  %-15s %s\n", "counter", "nic", "capture", "verdict", "capture figure / reason");
		for (size_t i = 0; i < c.n_mapped; i++) {
			const struct rc_row *w = &c.row[i];
			char nic[24] = "-", cap[24] = "-";
			if (w->d->state == RW_CTR_D_OK)
				snprintf(nic, sizeof(nic), "%" PRIu64, w->d->delta);
			if (w->has_cap)
				snprintf(cap, sizeof(cap), "%" PRIu64, w->cap);
			fprintf(out, "  %-28s %12s %12s  %-15s %s%s%s\n", w->name, nic, cap, w->verdict,
				w->map->what != RW_CTR_NONE ? rw_ctr_what_key((enum rw_ctr_what)w->map->what) : "",
				w->why && w->map->what != RW_CTR_NONE ? ": " : "", w->why ? w->why : "");
		}
	} else
		fprintf(out, "  no counter of the snapshots is in the %s table\n", rw_ctr_vendor_key(c.in->vendor));
	if (c.n_unmapped) {
		/* ethtool -S lists hundreds: the unchanged ones are only counted
		 * here (JSON lists them all) */
		size_t quiet = 0, shown = 0;
		fprintf(out, "  not mapped:");
		for (size_t i = c.n_mapped; i < c.n_mapped + c.n_unmapped; i++) {
			const struct rc_row *w = &c.row[i];
			if (w->d->state == RW_CTR_D_OK && w->d->delta == 0) {
				quiet++;
				continue;
			}
			if (w->d->state == RW_CTR_D_OK)
				fprintf(out, "%s %s +%" PRIu64, shown ? "," : "", w->name, w->d->delta);
			else
				fprintf(out, "%s %s (%s)", shown ? "," : "", w->name, w->why);
			shown++;
		}
		if (quiet)
			fprintf(out, "%s%zu unchanged", shown ? "; " : " ", quiet);
		fputc('\n', out);
	}
	fputc('\n', out);
	rc_cmp_free(&c);
}

static void json_snap(struct jw *w, const char *key, const char *name, const struct rw_ctr_snapshot *s)
{
	jw_obj(w, key);
	jw_str(w, "file", name);
	jw_str(w, "format", rw_ctr_format_key(s->format));
	if (s->links[0])
		jw_str(w, "links", s->links);
	jw_uint(w, "counters", s->n);
	jw_obj_end(w);
}

void rc_json(struct jw *w, const struct cap_report *r)
{
	struct rc_cmp c;
	if (!r->hosts)
		return;
	if (rc_compare(&c, r) != 0) {
		w->err = ENOMEM;
		return;
	}
	jw_arr(w, "nic_counters");
	for (size_t i = 0; i < c.n_mapped; i++) {
		const struct rc_row *x = &c.row[i];
		jw_obj(w, NULL);
		jw_str(w, "counter", x->name);
		if (x->d->state == RW_CTR_D_OK)
			jw_uint(w, "nic", x->d->delta);
		else
			jw_null(w, "nic");
		if (x->has_cap)
			jw_uint(w, "capture", x->cap);
		else
			jw_null(w, "capture");
		jw_str(w, "verdict", x->verdict);
		jw_str(w, "figure", rw_ctr_what_key((enum rw_ctr_what)x->map->what));
		if (x->why)
			jw_str(w, strcmp(x->verdict, "not_comparable") == 0 ? "reason" : "note", x->why);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_arr(w, "nic_counters_unmapped");
	for (size_t i = c.n_mapped; i < c.n_mapped + c.n_unmapped; i++) {
		const struct rc_row *x = &c.row[i];
		jw_obj(w, NULL);
		jw_str(w, "counter", x->name);
		if (x->d->state == RW_CTR_D_OK)
			jw_uint(w, "nic", x->d->delta);
		else {
			jw_null(w, "nic");
			jw_str(w, "reason", x->why);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj(w, "nic_counters_source");
	json_snap(w, "before", c.in->before_name, &c.in->before);
	json_snap(w, "after", c.in->after_name, &c.in->after);
	jw_str(w, "vendor", rw_ctr_vendor_key(c.in->vendor));
	if (c.host)
		jw_str(w, "host", c.host_text);
	else
		jw_null(w, "host");
	jw_str(w, "host_chosen", c.host_given ? "given" : "busiest");
	if (!c.host)
		jw_str(w, "host_reason", c.host_why);
	if (c.better) {
		jw_str(w, "better_host", c.better_text);
		jw_uint(w, "better_host_agree", c.better_agree);
		jw_uint(w, "host_agree", c.agree);
	}
	jw_obj_end(w);
	rc_cmp_free(&c);
}

void rc_html(const struct cap_report *r, FILE *f)
{
	struct rc_cmp c;
	if (!r->hosts || rc_compare(&c, r) != 0)
		return;
	fputs("<section class=\"card\"><h2>NIC counters</h2>\n<p class=\"note\">", f);
	char line[1024];
	FILE *m = fmemopen(line, sizeof(line), "w");
	if (m) {
		source_line(&c, m);
		fclose(m);
		line[sizeof(line) - 1] = '\0';
		line[strcspn(line, "\n")] = '\0';
		hd_esc(f, line);
	}
	if (!c.host) {
		fputs(" ", f);
		hd_esc(f, c.host_why);
	}
	char hint[256];
	if (*better_hint(&c, hint, sizeof(hint))) {
		fputs(" <strong>", f);
		hd_esc(f, hint);
		fputs("</strong>", f);
	}
	fputs("</p>\n<div class=\"scroll\"><table id=\"nic_counters\"><thead><tr><th>counter</th>"
	      "<th class=\"r\">NIC</th><th class=\"r\">capture</th><th>verdict</th><th>capture figure / reason</th>"
	      "</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < c.n_mapped; i++) {
		const struct rc_row *x = &c.row[i];
		fputs("<tr><td>", f);
		hd_esc(f, x->name);
		if (x->d->state == RW_CTR_D_OK)
			fprintf(f, "</td><td class=\"r\">%" PRIu64, x->d->delta);
		else
			fputs("</td><td class=\"r\">-", f);
		if (x->has_cap)
			fprintf(f, "</td><td class=\"r\">%" PRIu64, x->cap);
		else
			fputs("</td><td class=\"r\">-", f);
		fprintf(f, "</td><td>%s</td><td>", x->verdict);
		if (x->map->what != RW_CTR_NONE)
			hd_esc(f, rw_ctr_what_key((enum rw_ctr_what)x->map->what));
		if (x->why) {
			if (x->map->what != RW_CTR_NONE)
				fputs(": ", f);
			hd_esc(f, x->why);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	if (c.n_unmapped) {
		size_t quiet = 0, shown = 0;
		fputs("<p class=\"note\">Not mapped:", f);
		for (size_t i = c.n_mapped; i < c.n_mapped + c.n_unmapped; i++) {
			const struct rc_row *x = &c.row[i];
			if (x->d->state == RW_CTR_D_OK && x->d->delta == 0) {
				quiet++;
				continue;
			}
			fputs(shown++ ? ", " : " ", f);
			hd_esc(f, x->name);
			if (x->d->state == RW_CTR_D_OK)
				fprintf(f, " +%" PRIu64, x->d->delta);
			else {
				fputs(" (", f);
				hd_esc(f, x->why);
				fputs(")", f);
			}
		}
		if (quiet)
			fprintf(f, "%s%zu unchanged", shown ? "; " : " ", quiet);
		fputs("</p>\n", f);
	}
	fputs("<p class=\"note\">Each counter's change between the snapshots beside what the capture saw of the "
	      "same event on that host: agree, capture_fewer (the NIC counted more: packets the capture "
	      "missed, or dropped on the host's side of the tap), nic_fewer, or not_comparable (the event is "
	      "not on the wire, or the snapshots do not give a change).</p></section>\n", f);
	rc_cmp_free(&c);
}
