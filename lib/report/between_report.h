/* SPDX-License-Identifier: BSD-3-Clause */
/* What `rocewire-cap --between A B` prints of proto's two-tap comparison
 * (rocewire/between.h): the text summary, per-flow table and lists, the
 * JSON document (capture/README-json.md) and the HTML page. Knows no wire
 * format: everything comes from the finished rw_between. */
#ifndef ROCEWIRE_CAP_BETWEEN_REPORT_H
#define ROCEWIRE_CAP_BETWEEN_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "rocewire/between.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the tool knows beyond the comparison: the files and what they held. */
struct cap_between_info {
	const char *file[2];    /* tap A, tap B, as given */
	uint64_t frames[2];     /* records read */
	uint64_t compared[2];   /* RoCE/IB packets with an identity (BTH and ICRC) */
	uint64_t ignored[2];    /* other frames, or RoCE without a captured ICRC */
	uint64_t window_ns;
	int64_t offset_ns;      /* B's clock minus A's, applied to B's times */
	int offset_estimated;   /* estimated (--estimate-offset), else given or 0 */
	int offset_estimate_failed; /* asked, but one direction had no matched packet */
	size_t text_list_max;   /* packets of each list the text shows (0: 20) */
};

/* What the HTML page plots, gathered while the matcher runs: give
 * cap_between_plot_observe with the plot to rw_between_observe(). Bounded
 * whatever the capture's size: series for the first CB_PLOT_FLOWS flows,
 * each at most CB_PLOT_POINTS matched packets (every 2^k-th, k growing
 * as the flow grows) and CB_PLOT_MARKS unmatched packets per tap (thinned
 * alike); the page says what it left out. */
#define CB_PLOT_FLOWS 256
#define CB_PLOT_POINTS 512
#define CB_PLOT_MARKS 256
struct cap_between_plot;
/* NULL when out of memory. */
struct cap_between_plot *cap_between_plot_new(void);
void cap_between_plot_free(struct cap_between_plot *p);
void cap_between_plot_observe(void *plot, const struct rw_between_event *ev);

/* Each returns 0, or -1 with errno when writing failed. */
/* The page: one self-contained HTML file (inline CSS and SVG, no script),
 * written through a temporary file renamed to path. */
int cap_between_html(const struct rw_between *b, const struct rw_between_result *r,
		     const struct cap_between_info *in, const struct cap_between_plot *p, const char *path);
int cap_between_text(const struct rw_between *b, const struct rw_between_result *r,
		     const struct cap_between_info *in, FILE *out);
int cap_between_json(const struct rw_between *b, const struct rw_between_result *r,
		     const struct cap_between_info *in, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
