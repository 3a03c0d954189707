/* SPDX-License-Identifier: BSD-3-Clause */
/* The final statistics, as text and as JSON. */
#include "stats.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tmpfile.h"

static const char *const skip_names[] = {
	[RP_SKIP_FILTERED] = "filtered",
	[RP_SKIP_CUT] = "snaplen_cut",
	[RP_SKIP_NO_ETHERNET] = "no_ethernet_form",
	[RP_SKIP_TOO_LONG] = "longer_than_mtu",
	[RP_SKIP_REWRITE] = "rewrite_failed",
};
_Static_assert(sizeof(skip_names) / sizeof(skip_names[0]) == RP_SKIP_COUNT, "skip_names: one entry per value");

const char *rp_skip_name(enum rp_skip s)
{
	return (unsigned)s < RP_SKIP_COUNT ? skip_names[s] : "?";
}

static double rate(uint64_t n, double s)
{
	return s > 0 ? (double)n / s : 0;
}

void rp_stats_text(FILE *f, const struct rp_run_info *ri, const struct rp_stats *s)
{
	fprintf(f, "rocewire-replay: %s -> %s%s\n", ri->input, ri->output,
		s->interrupted ? " (interrupted)" : "");
	fprintf(f, "  sent      %llu packets, %llu bytes in %.6f s: %.0f pps, %.3f Mbit/s; %llu read, %llu "
		   "loops\n",
		(unsigned long long)s->sent, (unsigned long long)s->bytes, s->wall_s, rate(s->sent, s->wall_s),
		rate(s->bytes, s->wall_s) * 8 / 1e6, (unsigned long long)s->read, (unsigned long long)s->loops);
	fprintf(f, "  rewrites  %llu packets changed:", (unsigned long long)s->rewritten);
	int any = 0;
	for (int k = 0; k < RW_RW_KIND_COUNT; k++)
		if (s->rewrites[k]) {
			fprintf(f, " %s %llu", rw_rw_kind_name((enum rw_rw_kind)k), (unsigned long long)s->rewrites[k]);
			any = 1;
		}
	fprintf(f, "%s\n", any ? "" : " none");
	fprintf(f, "  icrc      %llu recomputed, %llu fixed, %llu corrupted; %llu IPv4 checksums fixed\n",
		(unsigned long long)s->icrc_updated, (unsigned long long)s->icrc_fixed,
		(unsigned long long)s->icrc_corrupted, (unsigned long long)s->ipv4_csum);
	fprintf(f, "  skipped");
	any = 0;
	for (int k = 0; k < RP_SKIP_COUNT; k++)
		if (s->skipped[k]) {
			fprintf(f, "%s %s %llu", any ? "," : "", skip_names[k], (unsigned long long)s->skipped[k]);
			any = 1;
		}
	fprintf(f, "%s", any ? "" : " none");
	if (s->undecodable)
		fprintf(f, "; %llu undecodable RoCE frames sent without their RoCE rewrites", (unsigned long long)s->undecodable);
	fputc('\n', f);
	if (s->pace.n)
		fprintf(f, "  pacing    %s: send-time error mean %.1f us, p99 %.1f us, max %.1f us (%llu packets)\n",
			ri->timing, s->pace.sum_ns / (double)s->pace.n / 1e3,
			(double)rp_pace_err_quantile(&s->pace, 0.99) / 1e3, (double)s->pace.max_ns / 1e3,
			(unsigned long long)s->pace.n);
	else
		fprintf(f, "  pacing    %s\n", ri->timing);
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

#define SET(o, k, v) json_object_set_new(o, k, v)

static json_t *to_json(const struct rp_run_info *ri, const struct rp_stats *s)
{
	json_t *o = json_object(), *rw = json_object(), *sk = json_object(), *pc = json_object();
	SET(o, "format", json_string("rocewire-replay-summary"));
	SET(o, "version", json_integer(1));
	SET(o, "input", json_string(ri->input));
	SET(o, "output", json_string(ri->output));
	SET(o, "interrupted", json_boolean(s->interrupted));
	SET(o, "error", json_boolean(s->error));
	SET(o, "packets_read", u64(s->read));
	SET(o, "packets_sent", u64(s->sent));
	SET(o, "bytes_sent", u64(s->bytes));
	SET(o, "loops", u64(s->loops));
	SET(o, "duration_s", json_real(s->wall_s));
	SET(o, "cpu_s", json_real(s->cpu_s));
	SET(o, "pps", json_real(rate(s->sent, s->wall_s)));
	SET(o, "mbps", json_real(rate(s->bytes, s->wall_s) * 8 / 1e6));
	SET(o, "packets_rewritten", u64(s->rewritten));
	for (int k = 0; k < RW_RW_KIND_COUNT; k++)
		SET(rw, rw_rw_kind_name((enum rw_rw_kind)k), u64(s->rewrites[k]));
	SET(o, "rewrites", rw);
	SET(o, "icrc_recomputed", u64(s->icrc_updated));
	SET(o, "icrc_fixed", u64(s->icrc_fixed));
	SET(o, "icrc_corrupted", u64(s->icrc_corrupted));
	SET(o, "ipv4_checksums_fixed", u64(s->ipv4_csum));
	for (int k = 0; k < RP_SKIP_COUNT; k++)
		SET(sk, skip_names[k], u64(s->skipped[k]));
	SET(o, "skipped", sk);
	SET(o, "undecodable_sent_as_captured", u64(s->undecodable));
	SET(o, "output_full_waits", u64(s->full_waits));
	SET(pc, "timing", json_string(ri->timing));
	SET(pc, "rate", json_real(ri->rate));
	SET(pc, "samples", u64(s->pace.n));
	SET(pc, "mean_us", json_real(s->pace.n ? s->pace.sum_ns / (double)s->pace.n / 1e3 : 0));
	SET(pc, "p99_us", json_real((double)rp_pace_err_quantile(&s->pace, 0.99) / 1e3));
	SET(pc, "max_us", json_real((double)s->pace.max_ns / 1e3));
	SET(o, "pacing", pc);
	return o;
}

int rp_stats_json(const char *path, const struct rp_run_info *ri, const struct rp_stats *s)
{
	json_t *o = to_json(ri, s);
	int rc = 0;
	if (strcmp(path, "-") == 0) {
		rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		fflush(stdout);
	} else {
		char *tmp = NULL;
		FILE *f = cap_create_temp(path, ".part", &tmp);
		if (!f) {
			rc = -1;
		} else {
			rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			fputc('\n', f);
			int e = errno;
			if (fclose(f) != 0 || rc != 0 || rename(tmp, path) != 0) {
				e = errno ? errno : e;
				unlink(tmp);
				errno = e;
				rc = -1;
			}
			free(tmp);
		}
	}
	json_decref(o);
	return rc;
}
