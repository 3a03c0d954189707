/* SPDX-License-Identifier: BSD-3-Clause */
/* The capture summary: what was read (carriers, opcodes, ICRC/VCRC
 * verdicts, decode errors by kind and place), counted per packet and
 * printed once at the end of a run. */
#ifndef ROCEWIRE_REPORT_SUMMARY_H
#define ROCEWIRE_REPORT_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include <rocewire.h>

#include "source.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CAP_ERR_KINDS 8
#define CAP_ERR_PLACES 48 /* enum rw_layer, then 32 + extension header bit */

struct cap_stats {
	const char *live;       /* the interface of a live capture, else NULL */
	uint64_t packets;
	uint64_t bytes;         /* wire lengths */
	uint64_t files_read;
	uint64_t files_cut;     /* files that ended inside a record */
	uint64_t carrier[RW_CARRIER_COUNT];
	uint64_t opcode[256];
	uint64_t icrc[3];       /* enum rw_crc_status, for RoCE and IB packets */
	uint64_t vcrc[3];       /* native IB packets */
	uint64_t decode_errors;
	uint64_t errors[CAP_ERR_KINDS][CAP_ERR_PLACES];
	uint64_t truncated;     /* caplen < wire length (cut by the snapshot length) */
	uint64_t undecoded;     /* live -w -q: written but not decoded (the decoder was behind) */
};

void cap_stats_add(struct cap_stats *st, const struct rw_packet *p, const struct cap_record *r);
/* The closing summary, each line led by prog (the program's name). */
void cap_summary_print(const struct cap_stats *st, const char *prog, FILE *fp);
/* Adds every counter of from but packets (which the caller counts) to to. */
void cap_stats_merge(struct cap_stats *to, const struct cap_stats *from);

#ifdef __cplusplus
}
#endif

#endif
