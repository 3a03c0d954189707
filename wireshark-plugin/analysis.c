/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-capture state: the report (lib/report/report.c, which owns the analysis
 * engine) fed every frame in capture order on its first visit, the frame's
 * verdicts kept per frame, and all of it made anew when a file is opened or
 * reloaded (init routine) and given back when it is closed (cleanup).
 *
 * Frames are fed exactly as rocewire-cap feeds them (every frame, RoCE or
 * not, with its frame number from 1 and its time in nanoseconds), so the
 * engine sees the same input and says the same things. */
#include <stddef.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/proto_data.h>
#include <wiretap/pcap-encap.h>
#include <wiretap/wtap.h>

#include "rocewire/link.h"
#include "rocewire_ws.h"

static struct cap_report *report;
static int finished;
static struct rw_decode_cfg dcfg;
static enum rw_cnp_mode cnp_mode = RW_CNP_PER_QP;
/* The latest CNP time per flow index, for rocewire.cnp.interval (grown as
 * flows appear; 0: none yet). */
static uint64_t *cnp_last;
static uint32_t cnp_last_n;

/* The link types librocewire decodes, and the wiretap encapsulation each is
 * known as inside Wireshark (asked of wiretap at registration, not
 * hard-coded). */
static const int linktypes[] = {RW_LINKTYPE_ETHERNET, RW_LINKTYPE_LINUX_SLL, RW_LINKTYPE_ERF,
				RW_LINKTYPE_INFINIBAND, RW_LINKTYPE_LINUX_SLL2};
#define N_LINKTYPES (sizeof(linktypes) / sizeof(linktypes[0]))
static int encaps[N_LINKTYPES];

int rwp_linktype(const packet_info *pinfo)
{
	if (!pinfo->rec || pinfo->rec->rec_type != REC_TYPE_PACKET)
		return -1;
	int encap = pinfo->rec->rec_header.packet_header.pkt_encap;
	for (size_t i = 0; i < N_LINKTYPES; i++)
		if (encaps[i] == encap)
			return linktypes[i];
	return -1;
}

/* An ERF record reaches a dissector split: its header as the pseudo-header,
 * the frame after it. The header is written back with librocewire's encoder
 * so that the record decodes as rocewire-cap decodes it from the file
 * (extension headers are not carried: they hold nothing rocewire reads).
 * One buffer, reused: dissection runs on one thread. */
static uint8_t erf_rec[RW_ERF_LEN + 2 + WTAP_MAX_PACKET_SIZE_STANDARD];

static const uint8_t *decode_erf(const uint8_t *frame, size_t caplen, size_t wirelen,
				 packet_info *pinfo, struct rw_packet *p, int *tvb_at)
{
	const struct erf_phdr *ph = &pinfo->pseudo_header->erf.phdr;
	struct rw_erf h = {.ts = ph->ts, .type = ph->type & 0x7f, .flags = ph->flags,
			   .lctr = ph->lctr, .wlen = ph->wlen};
	size_t hlen = 0;
	if (rw_erf_encode(&h, erf_rec, sizeof(erf_rec), &hlen) != RW_OK) {
		rw_packet_decode(&dcfg, RW_LINKTYPE_ERF, frame, caplen, wirelen, p);
		*tvb_at = 0;
		return frame;
	}
	if (caplen > sizeof(erf_rec) - hlen)
		caplen = sizeof(erf_rec) - hlen;
	h.rlen = (uint16_t)(hlen + caplen);
	rw_erf_encode(&h, erf_rec, sizeof(erf_rec), &hlen);
	memcpy(erf_rec + hlen, frame, caplen);
	rw_packet_decode(&dcfg, RW_LINKTYPE_ERF, erf_rec, hlen + caplen, hlen + wirelen, p);
	*tvb_at = (int)hlen;
	return erf_rec;
}

int rwp_decode(tvbuff_t *tvb, packet_info *pinfo, struct rw_packet *p, const uint8_t **bytes,
	       int *tvb_at)
{
	int lt = rwp_linktype(pinfo);
	if (lt < 0)
		return -1;
	unsigned caplen = tvb_captured_length(tvb), wirelen = tvb_reported_length(tvb);
	const uint8_t *frame = tvb_get_ptr(tvb, 0, caplen);
	*bytes = frame;
	*tvb_at = 0;
	if (lt == RW_LINKTYPE_ERF)
		*bytes = decode_erf(frame, caplen, wirelen, pinfo, p, tvb_at);
	else
		rw_packet_decode(&dcfg, lt, frame, caplen, wirelen, p);
	return 0;
}

static void note_cnp(struct rwp_frame *fr, uint64_t ts)
{
	uint32_t f = (uint32_t)fr->note.cnp_flow;
	if (f >= cnp_last_n) {
		uint32_t n = cnp_last_n ? cnp_last_n : 64;
		while (n <= f)
			n *= 2;
		cnp_last = g_realloc(cnp_last, n * sizeof(*cnp_last));
		memset(cnp_last + cnp_last_n, 0, (n - cnp_last_n) * sizeof(*cnp_last));
		cnp_last_n = n;
	}
	if (cnp_last[f]) {
		fr->has_cnp_interval = 1;
		fr->cnp_interval_ns = ts - cnp_last[f];
	}
	cnp_last[f] = ts;
}

const struct rwp_frame *rwp_analyse(packet_info *pinfo, int proto, const struct rw_packet *p)
{
	if (PINFO_FD_VISITED(pinfo))
		return p_get_proto_data(wmem_file_scope(), pinfo, proto, 0);
	/* After the statistics ended the capture (a live capture drawn before
	 * its end), later frames are not analysed: the engine's totals are
	 * final once finished. */
	if (!report || finished)
		return NULL;
	struct rw_analyzer *a = (struct rw_analyzer *)cap_report_analyzer(report);
	const struct rw_totals *t = rw_analyzer_totals(a);
	uint64_t too_often = t->cnp_too_often[cnp_mode], storms[RW_PAUSE_ALL + 1];
	for (unsigned i = 0; i <= RW_PAUSE_ALL; i++)
		storms[i] = t->pfc[i].storms;
	uint64_t ts = (uint64_t)pinfo->abs_ts.secs * 1000000000u + (uint64_t)pinfo->abs_ts.nsecs;

	struct rw_note n;
	memset(&n, 0, sizeof(n));
	cap_report_packet(report, p, ts, pinfo->num, &n);
	if (n.flow < 0 && !n.flags && n.cnp_flow < 0)
		return NULL;

	size_t size = sizeof(struct rwp_frame);
	if (!(n.flags & RW_N_PFC))
		size = offsetof(struct rwp_frame, note) + offsetof(struct rw_note, pause_ns);
	struct rwp_frame *fr = wmem_alloc0(wmem_file_scope(), size);
	memcpy(&fr->note, &n, size - offsetof(struct rwp_frame, note));
	/* The pair as known at this frame, not at the capture's end: a one-pass
	 * tshark cannot know the future, and -2 must say the same. */
	fr->peer = -1;
	if (n.flow >= 0) {
		const struct rw_flow *f = rw_analyzer_flow(a, (uint32_t)n.flow);
		fr->peer = f->peer;
		fr->pair_how = f->pair_how;
		fr->pair_frame = f->pair_frame;
		fr->cm_psn_valid = f->cm_psn_valid;
		fr->cm_psn = f->cm_psn;
	}
	if ((n.flags & RW_N_MSG_DONE) && n.flow >= 0)
		fr->msg_number = rw_analyzer_flow(a, (uint32_t)n.flow)->messages;
	if (n.cnp_flow >= 0)
		note_cnp(fr, ts);
	fr->cnp_too_often = t->cnp_too_often[cnp_mode] != too_often;
	for (unsigned i = 0; i <= RW_PAUSE_ALL; i++)
		if (t->pfc[i].storms != storms[i])
			fr->storm_prios |= (uint16_t)(1u << i);
	p_add_proto_data(wmem_file_scope(), pinfo, proto, 0, fr);
	return fr;
}

struct cap_report *rwp_report(void)
{
	return report;
}

const struct rw_analyzer *rwp_analyzer(void)
{
	return report ? cap_report_analyzer(report) : NULL;
}

void rwp_finish(void)
{
	if (!report || finished)
		return;
	cap_report_finish(report, rw_analyzer_totals(cap_report_analyzer(report))->last_ns);
	finished = 1;
}

static void state_free(void)
{
	cap_report_free(report);
	report = NULL;
	g_free(cnp_last);
	cnp_last = NULL;
	cnp_last_n = 0;
	finished = 0;
}

/* A file opened or reloaded (preferences changed, "Reload"): the engine
 * starts over with the current preferences. */
static void state_init(void)
{
	state_free();
	struct cap_report_opts o = {
		.link_gbps = rwp_prefs.link_gbps,
		.storm_ns = (uint64_t)rwp_prefs.storm_ms * 1000000u,
		.cnp_min_ns = (uint64_t)rwp_prefs.cnp_min_us * 1000u,
		.rto_ns = (uint64_t)rwp_prefs.rto_us * 1000u,
	};
	report = cap_report_new(&o);
	dcfg.rocev2_port = (uint16_t)rwp_prefs.rocev2_port;
}

void rwp_analysis_register(void)
{
	for (size_t i = 0; i < N_LINKTYPES; i++)
		encaps[i] = wtap_pcap_encap_to_wtap_encap(linktypes[i]);
	register_init_routine(state_init);
	register_cleanup_routine(state_free);
}
