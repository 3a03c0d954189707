/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-packet driver shared by every source: decode one record through
 * proto/, count it, report a packet that did not decode to its end, and hand
 * it to the chosen printer. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cap.h"
#include "fmt.h"
#include "report.h"

int cap_ctx_init(struct cap_ctx *c, const struct cap_opts *opts)
{
	memset(c, 0, sizeof(*c));
	c->opts = opts;
	cap_fmt_init();
	cap_line_init();
	c->multi_file = opts->n_files > 1;
	if (cap_out_init(&c->out, stdout, CAP_OUT_SIZE) != 0)
		return -1;
	if (opts->format == CAP_FMT_JSON && !opts->quiet) {
		c->json = cap_json_new();
		if (!c->json)
			return -1;
	}
	return 0;
}

void cap_ctx_free(struct cap_ctx *c)
{
	cap_out_free(&c->out);
	if (c->json)
		cap_json_free(c->json);
	c->json = NULL;
}

void cap_ctx_error(struct cap_ctx *c, const char *line)
{
	if (c->before_error)
		c->before_error(c->before_error_arg);
	cap_out_flush(&c->out);
	fflush(stdout);
	fputs(line, stderr);
	fputc('\n', stderr);
}

void cap_ctx_begin_input(struct cap_ctx *c, const char *name, const char *shown)
{
	c->file = name;
	c->file_shown = shown;
	c->warnings = 0;
	c->warnings_hidden = 0;
	c->stats.files_read++;
}

void cap_ctx_end_input(struct cap_ctx *c)
{
	if (c->warnings_hidden) {
		char line[600];
		snprintf(line, sizeof(line),
			 "%s: %" PRIu64 " %spackets that did not decode fully are not listed (%s)",
			 c->file_shown, c->warnings_hidden, c->warnings ? "more " : "",
			 c->hold_warnings ? "they are not printed under the live table; --lines lists them"
					  : "--max-warnings");
		cap_ctx_error(c, line);
	}
}

static void warn_packet(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	if (c->hold_warnings || (c->opts->max_warnings && c->warnings >= c->opts->max_warnings)) {
		c->warnings_hidden++;
		return;
	}
	c->warnings++;

	char what[400], line[1024];
	long off = cap_record_offset(r);
	rw_packet_problem(p, r->caplen, r->wirelen, what, sizeof(what));
	if (off >= 0)
		snprintf(line, sizeof(line), "%s: packet %" PRIu64 " at byte offset %ld: %s",
			 c->file_shown, r->index, off, what);
	else
		snprintf(line, sizeof(line), "%s: packet %" PRIu64 ": %s", c->file_shown, r->index,
			 what);
	cap_ctx_error(c, line);
}

void cap_dissect(struct cap_ctx *c, const struct cap_record *r)
{
	rw_packet_decode(&c->opts->cfg, r->linktype, r->data, r->caplen, r->wirelen, &c->pkt);
	cap_dissect_decoded(c, r, &c->pkt);
}

void cap_dissect_decoded(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	cap_stats_add(&c->stats, p, r);
	cap_dissect_counted(c, r, p);
}

void cap_dissect_counted(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	uint64_t ts = r->ts_sec > 0 ? (uint64_t)r->ts_sec * 1000000000u + r->ts_nsec : r->ts_nsec;
	cap_dissect_at(c, r, p, ts);
}

void cap_dissect_at(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p,
		    uint64_t ts)
{
	c->last_ts_ns = ts;
	/* Frame numbers count over all inputs: unique in a report made of
	 * several (rotated) files. */
	if (c->report)
		cap_report_packet(c->report, p, ts, c->stats.packets, NULL);
	if (p->err != RW_OK) {
		cap_set_status(c, CAP_EXIT_PROBLEM);
		warn_packet(c, r, p);
	} else if (p->icrc_status == RW_CRC_BAD || p->vcrc_status == RW_CRC_BAD) {
		cap_set_status(c, CAP_EXIT_PROBLEM);
	}
	if (c->opts->quiet)
		return;
	switch (c->opts->format) {
	case CAP_FMT_LINE:
		cap_print_line(c, r, p);
		break;
	case CAP_FMT_VERBOSE:
		cap_print_verbose(c, r, p);
		break;
	case CAP_FMT_JSON:
		cap_print_json(c, r, p);
		break;
	}
}
