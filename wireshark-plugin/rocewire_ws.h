/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Wireshark plugin's parts and what they share: per-capture engine state
 * (analysis.c), the rocewire tree with its fields and expert infos
 * (dissect.c), the statistics (stats.c). The plugin holds no protocol
 * knowledge: every byte is decoded by librocewire, every verdict comes from
 * its analysis engine through capture/'s report (report.h). */
#ifndef ROCEWIRE_WS_H
#define ROCEWIRE_WS_H

#include <stdint.h>

#include <epan/packet.h>

#include "report.h"
#include "rocewire/analyze.h"
#include "rocewire/packet.h"

/* What the engine said about one frame on the first pass, kept per frame
 * (file scope) so that a second pass (tshark -2) and the GUI revisiting
 * frames in any order show the same verdicts. The note comes last: its last
 * member, pause_ns, is only stored for PFC/PAUSE frames (RW_N_PFC), a third
 * of the block that other frames do without. */
struct rwp_frame {
	int32_t peer;             /* the flow's pair as known at this frame, -1: none yet */
	uint64_t msg_number;      /* RW_N_MSG_DONE: the flow's message count after this frame */
	uint64_t cnp_interval_ns; /* a CNP: time since the previous CNP for the same flow */
	uint8_t has_cnp_interval;
	uint8_t cnp_too_often;    /* the engine counted this CNP as sooner than the pacing interval */
	uint16_t storm_prios;     /* bit n: priority n (8: 802.3x) entered a storm at this frame */
	uint8_t pair_how;         /* enum rw_pair_how of the pair as known at this frame */
	uint8_t cm_psn_valid;     /* the CM handshake stated the flow's first PSN: */
	uint32_t cm_psn;
	uint64_t pair_frame;      /* the frame that made the pair (the REP for CM) */
	struct rw_note note;      /* last: see above */
};

/* Preferences (dissect.c registers them; analysis.c reads them when a
 * capture starts). */
struct rwp_prefs {
	unsigned rocev2_port;     /* UDP destination port of RoCEv2 */
	unsigned link_gbps;       /* link speed for pause quanta */
	unsigned cnp_min_us;      /* CNP pacing interval */
	unsigned storm_ms;        /* a pause longer than this is a storm */
	unsigned rto_us;          /* retransmission timeout for nak_ignored (0: the engine's default) */
	int expand_tree;          /* GUI: show the rocewire tree expanded */
};
extern struct rwp_prefs rwp_prefs;

/* analysis.c */
void rwp_analysis_register(void);
/* The pcap link type of the frame, or -1 when librocewire has none for it. */
int rwp_linktype(const packet_info *pinfo);
/* Decodes the frame into *p; returns 0, or -1 when its link type is not one
 * librocewire reads (*p untouched then). *bytes: what was decoded (valid
 * until the next call), whose byte *tvb_at is the tvb's first (an ERF
 * record's header comes before it: Wireshark hands it over apart). */
int rwp_decode(tvbuff_t *tvb, packet_info *pinfo, struct rw_packet *p, const uint8_t **bytes,
	       int *tvb_at);
/* On the frame's first visit, feeds it to the engine and stores the
 * verdicts; later, the stored ones. NULL when nothing was stored. */
const struct rwp_frame *rwp_analyse(packet_info *pinfo, int proto, const struct rw_packet *p);
/* The capture's report and engine (NULL when memory ran out). */
struct cap_report *rwp_report(void);
const struct rw_analyzer *rwp_analyzer(void);
/* Ends the capture for the report (once): open messages, running pauses. */
void rwp_finish(void);

/* stats.c */
void rwp_stats_register(void);
extern int rwp_tap;

#endif
