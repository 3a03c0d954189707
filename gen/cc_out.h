/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated run's outputs beside its capture, as the HPCC ns-3
 * simulator's users know them: per message its completion time and the
 * ideal one (fct), the PFC pause/resume events (pfc), and the bottleneck's
 * queue length over time (qlen). README-congestion.md, "Outputs", has the
 * columns.
 *
 * CSV with a header line, or JSON Lines. Each file is written whole or not
 * at all: records go to a temporary file in the target's directory
 * (lib/io/tmpfile.h) that cc_out_close() renames into place, or removes
 * when the run ended in an error. Files the configuration leaves empty are
 * not written, and their record calls do nothing. */
#ifndef RWGEN_CC_OUT_H
#define RWGEN_CC_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "cc.h"
#include "scenario.h"

enum cc_out_file { CC_OUT_FCT, CC_OUT_PFC, CC_OUT_QLEN, CC_OUT_FILES };

struct cc_out {
	enum gen_cc_format format;
	FILE *fp[CC_OUT_FILES];              /* NULL: not written */
	char *tmp[CC_OUT_FILES];             /* the temporary's name */
	char final[CC_OUT_FILES][GEN_PATH_MAX];
	int err_no[CC_OUT_FILES];            /* the first write error, 0 none */
};

/* One completed message. */
struct cc_out_msg {
	const char *flow;            /* the flow's name */
	uint8_t af;                  /* 4 or 6 */
	const uint8_t *src_ip, *dst_ip; /* requester and responder; IPv4 in the first 4 bytes */
	uint32_t src_qpn, dst_qpn;
	enum gen_op op;
	uint64_t bytes;              /* message length */
	uint64_t start_ns;           /* the first packet left the requester */
	uint64_t end_ns;             /* it completed (the last ACK or response arrived) */
	uint64_t ideal_ns;           /* alone on the path (cc_ideal_fct_ns) */
};

/* Creates the temporaries of every file cfg names and writes the CSV
 * headers. 0, or -1 with one line in err and nothing left behind. */
int cc_out_open(struct cc_out *o, const struct gen_congestion_outputs *cfg, char *err, size_t errcap);
/* Records; 0, or -1 once the file had a write error (cc_out_close reports it). */
int cc_out_fct(struct cc_out *o, const struct cc_out_msg *m);
/* One class of a PFC frame: quanta 0 is a resume (XON). */
int cc_out_pfc(struct cc_out *o, uint64_t t_ns, uint8_t prio, uint16_t quanta, enum cc_sw_pfc_dir dir);
/* A whole frame of cc_sw_pfc_events(): one record per enabled class. */
int cc_out_pfc_frame(struct cc_out *o, const struct cc_sw_pfc *f);
int cc_out_qlen(struct cc_out *o, uint64_t t_ns, uint8_t prio, uint64_t bytes);
/* A cc_sw_sample(): one record per priority in prio_mask (bit p: priority p). */
int cc_out_qlen_sample(struct cc_out *o, const struct cc_sw_qlen *q, uint16_t prio_mask);
/* commit 1: the run completed: every file renamed into place, or none (-1
 * with one line in err). commit 0: the run failed: every temporary removed,
 * no file written. Safe to call twice. */
int cc_out_close(struct cc_out *o, int commit, char *err, size_t errcap);

#endif
