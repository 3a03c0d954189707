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

/* Each returns 0, or -1 with errno when writing failed. */
int cap_between_text(const struct rw_between *b, const struct rw_between_result *r,
		     const struct cap_between_info *in, FILE *out);
int cap_between_json(const struct rw_between *b, const struct rw_between_result *r,
		     const struct cap_between_info *in, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
