/* SPDX-License-Identifier: BSD-3-Clause */
/* `rocewire-cap --between`: the text and JSON forms of a finished two-tap
 * comparison (between_report.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "between_int.h"
#include "between_report.h"
#include "fmt.h"
#include "jsonw.h"
#include "rocewire/opcode.h"

#define B_INDENT 2
#define B_PREC 12
#define ADDR_LEN CB_ADDR_LEN
#define TEXT_LIST_DEFAULT 20

const char *cb_addr_str(char *buf, const struct rw_between_addr *a)
{
	switch (a->kind) {
	case RW_BA_IPV4:
		snprintf(buf, ADDR_LEN, "%u.%u.%u.%u", a->a[12], a->a[13], a->a[14], a->a[15]);
		break;
	case RW_BA_IPV6:
		*fmt_ipv6(buf, a->a) = '\0';
		break;
	case RW_BA_LID:
		snprintf(buf, ADDR_LEN, "lid %u", (unsigned)(a->a[14] << 8 | a->a[15]));
		break;
	default:
		snprintf(buf, ADDR_LEN, "?");
	}
	return buf;
}

static const char *fate_dir(const struct rw_between_flow *f)
{
	return rw_between_dir_name(f->dir);
}

uint64_t cb_flow_fate(const struct rw_between_flow *f, enum rw_between_fate fate)
{
	switch (fate) {
	case RW_BETWEEN_LOST:
		return f->dir == RW_BETWEEN_DIR_A_TO_B ? f->unmatched[RW_BETWEEN_A]
		       : f->dir == RW_BETWEEN_DIR_B_TO_A ? f->unmatched[RW_BETWEEN_B]
							: 0;
	case RW_BETWEEN_ONLY_IN_B:
		return f->dir == RW_BETWEEN_DIR_A_TO_B ? f->unmatched[RW_BETWEEN_B] : 0;
	case RW_BETWEEN_ONLY_IN_A:
		return f->dir == RW_BETWEEN_DIR_B_TO_A ? f->unmatched[RW_BETWEEN_A] : 0;
	case RW_BETWEEN_UNKNOWN_DIR:
		return f->dir == RW_BETWEEN_DIR_UNKNOWN ? f->unmatched[0] + f->unmatched[1] : 0;
	}
	return 0;
}

/* ---- text ------------------------------------------------------------------------ */

static void text_delay(FILE *o, const char *what, const struct rw_between_delay *d)
{
	if (!d->n) {
		fprintf(o, "  %-22s none\n", what);
		return;
	}
	fprintf(o, "  %-22s min %" PRId64 "  p50 %" PRId64 "  p99 %" PRId64 "  max %" PRId64 " ns  (%" PRIu64
		   " packets)\n",
		what, d->min, d->p50, d->p99, d->max, d->n);
}

static void text_list(FILE *o, const struct rw_between *b, enum rw_between_fate fate, const char *title,
		      size_t max)
{
	uint64_t total = rw_between_list_total(b, fate);
	if (!total)
		return;
	fprintf(o, "\n%s: %" PRIu64 "\n", title, total);
	size_t n = rw_between_list_len(b, fate), shown = n < max ? n : max;
	for (size_t i = 0; i < shown; i++) {
		const struct rw_between_unmatched *u = rw_between_list_get(b, fate, i);
		const struct rw_between_flow *f = rw_between_flow_at(b, u->flow);
		char s[ADDR_LEN], d[ADDR_LEN];
		fprintf(o, "  %s -> %s  qp 0x%06x  psn %u  %s  %s frame %" PRIu64 "\n", cb_addr_str(s, &f->src),
			cb_addr_str(d, &f->dst), f->dqpn, u->psn, rw_opcode(u->opcode)->name,
			u->side == RW_BETWEEN_A ? "A" : "B", u->frame);
	}
	if (total > shown)
		fprintf(o, "  ... %" PRIu64 " more%s\n", total - shown,
			n < total ? " (the list kept is cut: raise the list cap)" : "");
}

int cap_between_text(const struct rw_between *b, const struct rw_between_result *r,
		     const struct cap_between_info *in, FILE *o)
{
	char fa[CAP_ESC_SIZE(512)], fb[CAP_ESC_SIZE(512)];
	size_t max = in->text_list_max ? in->text_list_max : TEXT_LIST_DEFAULT;
	errno = 0;
	fprintf(o, "Between tap A %s (upstream) and tap B %s (downstream)\n", cap_esc(fa, sizeof(fa), in->file[0]),
		cap_esc(fb, sizeof(fb), in->file[1]));
	for (int s = 0; s < 2; s++)
		fprintf(o, "  tap %c: %" PRIu64 " frames, %" PRIu64 " RoCE/IB compared, %" PRIu64 " ignored\n",
			"AB"[s], in->frames[s], in->compared[s], in->ignored[s]);
	fprintf(o, "  clock offset (B - A): %" PRId64 " ns, %s; window %" PRIu64 " ns\n", in->offset_ns,
		in->offset_estimated ? "estimated from both directions' minimum delays"
		: in->offset_estimate_failed ? "given (no estimate: a direction has no matched packet)"
					     : "given",
		in->window_ns);
	fprintf(o, "  matched %" PRIu64 ", lost %" PRIu64 ", only in B %" PRIu64 ", only in A %" PRIu64
		   ", direction unknown %" PRIu64 "\n",
		r->matched, r->lost_count, r->only_in_b, r->only_in_a, r->unknown_dir);
	text_delay(o, "delay A -> B:", &r->delay);
	text_delay(o, "reverse delay B -> A:", &r->reverse);
	fprintf(o, "  CE marked %" PRIu64 ", reordered %" PRIu64 "; changed: ttl %" PRIu64 ", dscp %" PRIu64
		   ", ecn %" PRIu64 ", vlan %" PRIu64 ", mac %" PRIu64 "\n",
		r->ce_marked, r->reordered, r->changed[RW_BC_TTL], r->changed[RW_BC_DSCP], r->changed[RW_BC_ECN],
		r->changed[RW_BC_VLAN], r->changed[RW_BC_MAC]);
	if (r->window_overflow)
		fprintf(o, "  %" PRIu64 " packets settled before their window was over (pending cap reached)\n",
			r->window_overflow);
	if (r->untracked)
		fprintf(o, "  %" PRIu64 " packets of flows beyond the flow cap not compared\n", r->untracked);

	size_t nf = rw_between_flow_count(b);
	fprintf(o, "\nFlows: %zu\n", nf);
	if (nf)
		fprintf(o, "  %-18s %-18s %-8s %-7s %9s %9s %9s %7s %7s %7s %10s %10s %10s %10s %6s %6s\n", "src",
			"dst", "dqpn", "dir", "A", "B", "matched", "lost", "only_b", "only_a", "min_ns", "p50_ns",
			"p99_ns", "max_ns", "ce", "reord");
	for (size_t i = 0; i < nf; i++) {
		const struct rw_between_flow *f = rw_between_flow_at(b, i);
		char s[ADDR_LEN], d[ADDR_LEN], q[16];
		struct rw_between_delay dl;
		rw_between_flow_delay(f, &dl);
		snprintf(q, sizeof(q), "0x%06x", f->dqpn);
		fprintf(o, "  %-18s %-18s %-8s %-7s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %7" PRIu64 " %7" PRIu64
			   " %7" PRIu64,
			cb_addr_str(s, &f->src), cb_addr_str(d, &f->dst), q, fate_dir(f), f->packets[0], f->packets[1],
			f->matched, cb_flow_fate(f, RW_BETWEEN_LOST), cb_flow_fate(f, RW_BETWEEN_ONLY_IN_B),
			cb_flow_fate(f, RW_BETWEEN_ONLY_IN_A));
		if (dl.n)
			fprintf(o, " %10" PRId64 " %10" PRId64 " %10" PRId64 " %10" PRId64, dl.min, dl.p50, dl.p99,
				dl.max);
		else
			fprintf(o, " %10s %10s %10s %10s", "-", "-", "-", "-");
		fprintf(o, " %6" PRIu64 " %6" PRIu64 "\n", f->ce_marked, f->reordered);
	}
	text_list(o, b, RW_BETWEEN_LOST, "Lost between the taps", max);
	text_list(o, b, RW_BETWEEN_ONLY_IN_B, "Only in B (duplicated or injected)", max);
	text_list(o, b, RW_BETWEEN_ONLY_IN_A, "Only in A (of pairs travelling B -> A)", max);
	text_list(o, b, RW_BETWEEN_UNKNOWN_DIR, "In one tap only, direction unknown (no packet of the pair matched)",
		  max);
	if (fflush(o) != 0 || ferror(o)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* ---- JSON ------------------------------------------------------------------------- */

static void json_delay(struct jw *w, const char *key, const struct rw_between_delay *d)
{
	if (!d->n) {
		jw_null(w, key);
		return;
	}
	jw_obj(w, key);
	jw_uint(w, "count", d->n);
	jw_int(w, "min", d->min);
	jw_int(w, "p50", d->p50);
	jw_int(w, "p99", d->p99);
	jw_int(w, "max", d->max);
	jw_obj_end(w);
}

static void json_changed(struct jw *w, const uint64_t *c)
{
	jw_obj(w, "changed");
	for (int i = 0; i < RW_BC_COUNT; i++)
		jw_uint(w, rw_between_change_name((enum rw_between_change)i), c[i]);
	jw_obj_end(w);
}

static void json_addrs(struct jw *w, const struct rw_between_flow *f)
{
	char s[ADDR_LEN];
	jw_str(w, "src", cb_addr_str(s, &f->src));
	jw_str(w, "dst", cb_addr_str(s, &f->dst));
	jw_uint(w, "dqpn", f->dqpn);
}

static void json_packets(struct jw *w, const struct rw_between *b, enum rw_between_fate fate)
{
	size_t n = rw_between_list_len(b, fate);
	for (size_t i = 0; i < n; i++) {
		const struct rw_between_unmatched *u = rw_between_list_get(b, fate, i);
		const struct rw_between_flow *f = rw_between_flow_at(b, u->flow);
		jw_obj(w, NULL);
		json_addrs(w, f);
		jw_uint(w, "psn", u->psn);
		jw_uint(w, "opcode", u->opcode);
		jw_str(w, "opcode_name", rw_opcode(u->opcode)->name);
		jw_uint(w, u->side == RW_BETWEEN_A ? "frame_a" : "frame_b", u->frame);
		jw_str(w, "direction", fate == RW_BETWEEN_UNKNOWN_DIR ? "unknown" : fate_dir(f));
		jw_obj_end(w);
	}
}

static void json_list(struct jw *w, const struct rw_between *b, const char *key, enum rw_between_fate fate)
{
	jw_obj(w, key);
	uint64_t total = rw_between_list_total(b, fate);
	jw_uint(w, "count", total);
	jw_bool(w, "truncated", rw_between_list_len(b, fate) < total);
	jw_arr(w, "list");
	json_packets(w, b, fate);
	jw_arr_end(w);
	jw_obj_end(w);
}

int cap_between_json(const struct rw_between *b, const struct rw_between_result *r,
		     const struct cap_between_info *in, FILE *out)
{
	struct jw *w = malloc(sizeof(*w));
	if (!w) {
		errno = ENOMEM;
		return -1;
	}
	errno = 0;
	jw_init(w, out, B_INDENT, B_PREC);
	jw_obj(w, NULL);
	for (int s = 0; s < 2; s++) {
		char f[CAP_ESC_SIZE(512)];
		jw_obj(w, s ? "tap_b" : "tap_a");
		jw_str(w, "file", cap_esc(f, sizeof(f), in->file[s]));
		jw_uint(w, "frames", in->frames[s]);
		jw_uint(w, "compared", in->compared[s]);
		jw_uint(w, "ignored", in->ignored[s]);
		jw_obj_end(w);
	}
	jw_uint(w, "window_ns", in->window_ns);
	jw_int(w, "offset_ns", in->offset_ns);
	jw_bool(w, "offset_estimated", in->offset_estimated);
	jw_real(w, "percentile_max_rel_error", RW_BETWEEN_HIST_REL_ERR);
	jw_uint(w, "matched", r->matched);
	jw_uint(w, "lost_count", r->lost_count);
	jw_bool(w, "lost_truncated", rw_between_list_len(b, RW_BETWEEN_LOST) < r->lost_count);
	jw_arr(w, "lost");
	json_packets(w, b, RW_BETWEEN_LOST);
	jw_arr_end(w);
	json_delay(w, "delay_ns", &r->delay);
	json_delay(w, "reverse_delay_ns", &r->reverse);
	jw_uint(w, "ce_marked", r->ce_marked);
	json_changed(w, r->changed);
	json_list(w, b, "only_in_b", RW_BETWEEN_ONLY_IN_B);
	json_list(w, b, "only_in_a", RW_BETWEEN_ONLY_IN_A);
	jw_uint(w, "unmatched_unknown_direction", r->unknown_dir);
	jw_uint(w, "reordered", r->reordered);
	jw_uint(w, "window_overflow", r->window_overflow);
	jw_uint(w, "untracked", r->untracked);
	jw_arr(w, "flows");
	size_t nf = rw_between_flow_count(b);
	for (size_t i = 0; i < nf; i++) {
		const struct rw_between_flow *f = rw_between_flow_at(b, i);
		struct rw_between_delay dl;
		rw_between_flow_delay(f, &dl);
		jw_obj(w, NULL);
		json_addrs(w, f);
		jw_str(w, "direction", fate_dir(f));
		jw_uint(w, "packets_a", f->packets[0]);
		jw_uint(w, "packets_b", f->packets[1]);
		jw_uint(w, "matched", f->matched);
		jw_uint(w, "lost_count", cb_flow_fate(f, RW_BETWEEN_LOST));
		jw_uint(w, "only_in_b", cb_flow_fate(f, RW_BETWEEN_ONLY_IN_B));
		jw_uint(w, "only_in_a", cb_flow_fate(f, RW_BETWEEN_ONLY_IN_A));
		jw_uint(w, "unmatched_unknown_direction", cb_flow_fate(f, RW_BETWEEN_UNKNOWN_DIR));
		json_delay(w, "delay_ns", f->dir == RW_BETWEEN_DIR_A_TO_B ? &dl : &(struct rw_between_delay){0});
		json_delay(w, "reverse_delay_ns", f->dir == RW_BETWEEN_DIR_B_TO_A ? &dl : &(struct rw_between_delay){0});
		jw_uint(w, "ce_marked", f->ce_marked);
		json_changed(w, f->changed);
		jw_uint(w, "reordered", f->reordered);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
	jw_putc(w, '\n');
	int rc = jw_end(w);
	free(w);
	if (fflush(out) != 0 || ferror(out))
		rc = -1;
	if (rc != 0 && !errno)
		errno = EIO;
	return rc;
}
