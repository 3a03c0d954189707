/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rocewire postdissector: registration of its fields, expert infos and
 * preferences, and the tree it adds under every RoCE/InfiniBand/PFC frame.
 *
 * It runs after Wireshark's own dissectors (a postdissector sees every
 * frame, whatever they did with it), decodes the frame's bytes with
 * librocewire for the frame's link type and shows what the analysis engine
 * said on the frame's first visit (analysis.c). It asks for no field of the
 * built-in dissectors, so tshark need not build a tree on a first pass. */
#include <inttypes.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/tap.h>

#include "rocewire/ext.h"
#include "rocewire/fields.h"
#include "rocewire/icrc.h"
#include "rocewire/ipv4.h"
#include "rocewire_ws.h"

struct rwp_prefs rwp_prefs = {
	.rocev2_port = 4791, .link_gbps = 100, .cnp_min_us = 4, .storm_ms = 10, .rto_us = 0};

static int proto_rocewire = -1;
static int ett_rocewire = -1, ett_crc = -1, ett_flow = -1, ett_pfc = -1;

static int hf_carrier = -1, hf_error = -1, hf_builtin = -1;
static int hf_icrc_status = -1, hf_icrc_bad = -1, hf_icrc_wire = -1, hf_icrc_computed = -1;
static int hf_vcrc_status = -1, hf_vcrc_bad = -1, hf_vcrc_wire = -1, hf_vcrc_computed = -1;
static int hf_pairing = -1, hf_pairing_frame = -1, hf_cm_psn = -1;
static int hf_flow = -1, hf_peer_flow = -1, hf_verdicts = -1, hf_psn_expected = -1;
static int hf_psn_gap = -1, hf_retrans = -1, hf_gbn = -1, hf_ooo = -1, hf_unsynced = -1;
static int hf_precapture = -1;
static int hf_msg_number = -1, hf_msg_first = -1, hf_msg_bytes = -1, hf_msg_incomplete = -1;
static int hf_msg_orphan = -1;
static int hf_msg_cut_start = -1;
static int hf_ack_req = -1, hf_ack_lat = -1, hf_ack_covers = -1, hf_ack_psn = -1;
static int hf_nak_ignored = -1, hf_nak_rto = -1;
static int hf_nak_kind = -1, hf_rnr_timer = -1, hf_read_req = -1, hf_read_lat = -1;
static int hf_atomic_req = -1, hf_atomic_lat = -1;
static int hf_cnp_ce_frame = -1, hf_cnp_ce_count = -1, hf_cnp_flow = -1, hf_cnp_interval = -1;
static int hf_cnp = -1, hf_cnp_too_often = -1, hf_ce = -1;
static int hf_pfc_priority = -1, hf_pfc_pause_us = -1, hf_pfc_storm = -1, hf_paused = -1;

static expert_field ei_icrc_bad = EI_INIT, ei_vcrc_bad = EI_INIT, ei_decode = EI_INIT;
static expert_field ei_gap = EI_INIT, ei_retrans = EI_INIT, ei_gbn = EI_INIT, ei_ooo = EI_INIT;
static expert_field ei_nak = EI_INIT, ei_rnr = EI_INIT, ei_ce = EI_INIT, ei_cnp = EI_INIT;
static expert_field ei_cnp_fast = EI_INIT, ei_storm = EI_INIT, ei_paused = EI_INIT;
static expert_field ei_nak_ignored = EI_INIT;

/* The header fields: one filter field per row of librocewire's field
 * tables (rocewire/fields.h), rocewire.HEADER.FIELD, made at registration
 * (hdr_fields_register), and one subtree per header, rocewire.HEADER. The
 * plugin spells no header field itself: -v, --json and this tree print the
 * same headers, fields and value names. */
static int hf_hdr[RW_HD_ALL];
static int *hf_hfield[RW_HD_ALL]; /* per row of the header's table */
static int ett_hdr[RW_HD_ALL];

static int hf_ws_malformed = -1; /* Wireshark's own "_ws.malformed" */

/* Items computed here, not read from bytes at an offset: shown as generated. */
static proto_item *gen(proto_item *it)
{
	proto_item_set_generated(it);
	return it;
}

static void add_time(proto_tree *t, int hf, tvbuff_t *tvb, uint64_t ns)
{
	nstime_t v = {.secs = (time_t)(ns / 1000000000u), .nsecs = (int)(ns % 1000000000u)};
	gen(proto_tree_add_time(t, hf, tvb, 0, 0, &v));
}

static const char *crc_word(enum rw_crc_status s)
{
	return s == RW_CRC_OK ? "good" : s == RW_CRC_BAD ? "bad" : "absent";
}

static void crc_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, const char *name,
		     enum rw_crc_status st, uint32_t wire, uint32_t computed, int have_wire,
		     const int hf[4], expert_field *ei)
{
	proto_item *ti = gen(proto_tree_add_string(tree, hf[0], tvb, 0, 0, crc_word(st)));
	proto_tree *t = proto_item_add_subtree(ti, ett_crc);
	if (have_wire)
		gen(proto_tree_add_uint(t, hf[2], tvb, 0, 0, wire));
	if (st != RW_CRC_NONE)
		gen(proto_tree_add_uint(t, hf[3], tvb, 0, 0, computed));
	if (st == RW_CRC_BAD) {
		/* On the leaf: an expert info gives the item it is added to a
		 * subtree of its own, which would close the ICRC subtree. */
		proto_item *bad = gen(proto_tree_add_boolean(t, hf[1], tvb, 0, 0, TRUE));
		expert_add_info_format(pinfo, bad, ei, "Bad %s: 0x%0*x on the wire, 0x%0*x computed",
				       name, hf[0] == hf_icrc_status ? 8 : 4, wire,
				       hf[0] == hf_icrc_status ? 8 : 4, computed);
	}
}

/* What Wireshark 4.0's InfiniBand dissector gets wrong about this frame
 * (../shared/notes/wireshark.md), said in the tree beside the clean decode. */
static const char *builtin_wrong(const struct rw_packet *p, proto_tree *top)
{
	if (!(p->present & RW_P_BTH))
		return NULL;
	switch (p->op->transport) {
	case RW_TRANSPORT_CNP:
		return "the built-in InfiniBand dissector names this opcode \"Unknown\": it is the RoCEv2 CNP";
	case RW_TRANSPORT_XRC:
		return "the built-in InfiniBand dissector does not name XRC opcodes";
	case RW_TRANSPORT_RD:
		return "the built-in InfiniBand dissector decodes RD opcodes as Mellanox DC, "
		       "its extension headers 8 bytes off";
	}
	if (p->err == RW_OK && top && hf_ws_malformed > 0) {
		GPtrArray *m = proto_find_first_finfo(top, hf_ws_malformed);
		int bad = m && m->len > 0;
		if (m)
			g_ptr_array_free(m, TRUE);
		if (bad)
			return "the built-in dissectors call this valid frame malformed (a payload "
			       "heuristic took it for another protocol)";
	}
	return NULL;
}

static void psn_items(proto_tree *t, tvbuff_t *tvb, packet_info *pinfo, const struct rw_note *n)
{
	if (n->flags & RW_N_NEW || n->flags & RW_N_RETRANS)
		gen(proto_tree_add_uint(t, hf_psn_expected, tvb, 0, 0, n->expected_psn));
	if (n->flags & RW_N_GAP) {
		proto_item *it = gen(proto_tree_add_uint(t, hf_psn_gap, tvb, 0, 0, n->gap_len));
		expert_add_info_format(pinfo, it, &ei_gap, "PSN gap: %u PSN%s missing before this one",
				       n->gap_len, n->gap_len == 1 ? "" : "s");
	}
	if (n->flags & RW_N_RETRANS) {
		proto_item *it = gen(proto_tree_add_boolean(t, hf_retrans, tvb, 0, 0, TRUE));
		expert_add_info(pinfo, it, &ei_retrans);
	}
	if (n->flags & RW_N_GBN_START) {
		proto_item *it = gen(proto_tree_add_boolean(t, hf_gbn, tvb, 0, 0, TRUE));
		expert_add_info(pinfo, it, &ei_gbn);
	}
	if (n->flags & RW_N_OOO) {
		proto_item *it = gen(proto_tree_add_boolean(t, hf_ooo, tvb, 0, 0, TRUE));
		expert_add_info(pinfo, it, &ei_ooo);
	}
	if (n->flags & RW_N_UNSYNCED)
		gen(proto_tree_add_boolean(t, hf_unsynced, tvb, 0, 0, TRUE));
	if (n->flags & RW_N_PRECAPTURE)
		gen(proto_tree_add_boolean(t, hf_precapture, tvb, 0, 0, TRUE));
}

static void msg_items(proto_tree *t, tvbuff_t *tvb, const struct rwp_frame *fr)
{
	const struct rw_note *n = &fr->note;
	if (n->flags & RW_N_MSG_DONE) {
		gen(proto_tree_add_uint64(t, hf_msg_number, tvb, 0, 0, fr->msg_number));
		if (n->msg_first_frame)
			gen(proto_tree_add_uint(t, hf_msg_first, tvb, 0, 0, (uint32_t)n->msg_first_frame));
		gen(proto_tree_add_uint64(t, hf_msg_bytes, tvb, 0, 0, n->msg_bytes));
	}
	if (n->flags & RW_N_MSG_BROKEN)
		gen(proto_tree_add_boolean(t, hf_msg_incomplete, tvb, 0, 0, TRUE));
	if (n->flags & RW_N_ORPHAN)
		gen(proto_tree_add_boolean(t, hf_msg_orphan, tvb, 0, 0, TRUE));
	if (n->flags & RW_N_CUT_START)
		gen(proto_tree_add_boolean(t, hf_msg_cut_start, tvb, 0, 0, TRUE));
}

/* A sequence NAK nobody answered (the engine's nak_ignored): known only
 * once later frames showed new requests past the timeout and no resend, so
 * it shows on a later pass over the NAK's frame (tshark -2, the GUI), as
 * the engine judges it with the frames read so far. */
static void nak_ignored_items(proto_tree *t, tvbuff_t *tvb, packet_info *pinfo,
			      const struct rwp_frame *fr)
{
	const struct rw_analyzer *a = rwp_analyzer();
	uint64_t nak = 0, req = 0;
	if (!a || fr->peer < 0 || !rw_analyzer_nak_ignored(a, (uint32_t)fr->peer, &nak, &req) ||
	    nak != pinfo->num)
		return;
	uint64_t rto = rw_analyzer_rto(a, (uint32_t)fr->peer);
	proto_item *it = gen(proto_tree_add_uint(t, hf_nak_ignored, tvb, 0, 0, (uint32_t)req));
	add_time(t, hf_nak_rto, tvb, rto);
	expert_add_info_format(pinfo, it, &ei_nak_ignored,
			       "NAK ignored: PSN %u never resent while new requests went on, from frame "
			       "%" PRIu64 " more than %.3f ms after this NAK (the retransmission timeout)",
			       fr->note.ack_psn, req, (double)rto / 1e6);
}

static void response_items(proto_tree *t, tvbuff_t *tvb, packet_info *pinfo,
			   const struct rw_packet *p, const struct rw_note *n)
{
	if (n->flags & RW_N_ACK) {
		gen(proto_tree_add_uint(t, hf_ack_psn, tvb, 0, 0, n->ack_psn));
		gen(proto_tree_add_uint(t, hf_ack_covers, tvb, 0, 0, n->ack_count));
		if (n->req_frame) {
			gen(proto_tree_add_uint(t, hf_ack_req, tvb, 0, 0, (uint32_t)n->req_frame));
			add_time(t, hf_ack_lat, tvb, n->latency_ns);
		}
	}
	if (n->flags & RW_N_NAK) {
		enum rw_nak_kind k = (enum rw_nak_kind)n->nak_kind;
		proto_item *it = gen(proto_tree_add_string(t, hf_nak_kind, tvb, 0, 0, rw_nak_kind_key(k)));
		gen(proto_tree_add_uint(t, hf_ack_psn, tvb, 0, 0, n->ack_psn));
		if (k == RW_NAKK_RNR) {
			uint32_t us = (p->hdrs & RW_HDR_AETH) ? rw_rnr_timer_us(p->aeth.value) : 0;
			gen(proto_tree_add_uint(t, hf_rnr_timer, tvb, 0, 0, us));
			expert_add_info_format(pinfo, it, &ei_rnr, "RNR NAK for PSN %u: retry after %u us",
					       n->ack_psn, us);
		} else
			expert_add_info_format(pinfo, it, &ei_nak, "NAK (%s) for PSN %u",
					       rw_nak_kind_key(k), n->ack_psn);
	}
	if (n->flags & RW_N_READ_MATCH) {
		gen(proto_tree_add_uint(t, hf_read_req, tvb, 0, 0, (uint32_t)n->req_frame));
		add_time(t, hf_read_lat, tvb, n->latency_ns);
	}
	if (n->flags & RW_N_ATOMIC_MATCH) {
		gen(proto_tree_add_uint(t, hf_atomic_req, tvb, 0, 0, (uint32_t)n->req_frame));
		add_time(t, hf_atomic_lat, tvb, n->latency_ns);
	}
}

static void cong_items(proto_tree *t, tvbuff_t *tvb, packet_info *pinfo,
		       const struct rw_packet *p, const struct rwp_frame *fr)
{
	const struct rw_note *n = &fr->note;
	if (n->flags & RW_N_CE) {
		proto_item *it = gen(proto_tree_add_boolean(t, hf_ce, tvb, 0, 0, TRUE));
		expert_add_info(pinfo, it, &ei_ce);
	}
	if (!(p->present & RW_P_BTH) || p->op->transport != RW_TRANSPORT_CNP)
		return;
	proto_item *it = gen(proto_tree_add_boolean(t, hf_cnp, tvb, 0, 0, TRUE));
	expert_add_info(pinfo, it, &ei_cnp);
	if (n->cnp_flow >= 0)
		gen(proto_tree_add_int(t, hf_cnp_flow, tvb, 0, 0, n->cnp_flow));
	if (n->flags & RW_N_CNP_LINKED) {
		gen(proto_tree_add_uint(t, hf_cnp_ce_frame, tvb, 0, 0, (uint32_t)n->ce_frame));
		gen(proto_tree_add_uint(t, hf_cnp_ce_count, tvb, 0, 0, n->ce_count));
	}
	if (fr->has_cnp_interval)
		add_time(t, hf_cnp_interval, tvb, fr->cnp_interval_ns);
	if (fr->cnp_too_often) {
		it = gen(proto_tree_add_boolean(t, hf_cnp_too_often, tvb, 0, 0, TRUE));
		expert_add_info_format(pinfo, it, &ei_cnp_fast,
				       "CNP sooner than %u us after the previous one of its QP",
				       rwp_prefs.cnp_min_us);
	}
}

static void flow_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
		      const struct rw_packet *p, const struct rwp_frame *fr)
{
	const struct rw_note *n = &fr->note;
	proto_item *ti;
	proto_tree *t = tree;
	if (n->flow >= 0) {
		ti = gen(proto_tree_add_int(tree, hf_flow, tvb, 0, 0, n->flow));
		t = proto_item_add_subtree(ti, ett_flow);
		if (fr->peer >= 0) {
			gen(proto_tree_add_int(t, hf_peer_flow, tvb, 0, 0, fr->peer));
			/* what Wireshark cannot say: how the two directions
			 * were found to be one connection (by the CM handshake
			 * when it was captured) */
			gen(proto_tree_add_string(t, hf_pairing, tvb, 0, 0,
						  rw_pair_how_key((enum rw_pair_how)fr->pair_how)));
			if (fr->pair_frame)
				gen(proto_tree_add_uint(t, hf_pairing_frame, tvb, 0, 0,
							(uint32_t)fr->pair_frame));
		}
		if (fr->cm_psn_valid)
			gen(proto_tree_add_uint(t, hf_cm_psn, tvb, 0, 0, fr->cm_psn));
	}
	gen(proto_tree_add_uint(t, hf_verdicts, tvb, 0, 0, n->flags));
	psn_items(t, tvb, pinfo, n);
	msg_items(t, tvb, fr);
	response_items(t, tvb, pinfo, p, n);
	if ((n->flags & RW_N_NAK) && n->nak_kind == RW_NAKK_PSN_SEQ)
		nak_ignored_items(t, tvb, pinfo, fr);
	cong_items(t, tvb, pinfo, p, fr);
	if (n->flags & RW_N_PAUSED) {
		ti = gen(proto_tree_add_boolean(t, hf_paused, tvb, 0, 0, TRUE));
		expert_add_info(pinfo, ti, &ei_paused);
	}
}

static void pfc_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
		     const struct rwp_frame *fr)
{
	const struct rw_note *n = &fr->note;
	/* pause_ns is kept for PFC/PAUSE frames only (analysis.c); a storm
	 * may start at any frame. */
	int pfc = (n->flags & RW_N_PFC) != 0;
	for (unsigned i = 0; i <= RW_PAUSE_ALL; i++) {
		int storm = fr->storm_prios >> i & 1;
		uint64_t pause = pfc ? n->pause_ns[i] : 0;
		if (!pause && !storm)
			continue;
		proto_item *ti = gen(proto_tree_add_uint(tree, hf_pfc_priority, tvb, 0, 0, i));
		if (i == RW_PAUSE_ALL)
			proto_item_append_text(ti, " (802.3x PAUSE: every priority)");
		proto_tree *t = proto_item_add_subtree(ti, ett_pfc);
		if (pfc)
			gen(proto_tree_add_double(t, hf_pfc_pause_us, tvb, 0, 0, (double)pause / 1e3));
		if (storm) {
			proto_item *it = gen(proto_tree_add_boolean(t, hf_pfc_storm, tvb, 0, 0, TRUE));
			if (i == RW_PAUSE_ALL)
				expert_add_info_format(pinfo, it, &ei_storm,
						       "PAUSE storm: the link paused longer than %u ms",
						       rwp_prefs.storm_ms);
			else
				expert_add_info_format(pinfo, it, &ei_storm,
						       "PFC storm: priority %u paused longer than %u ms", i,
						       rwp_prefs.storm_ms);
		}
	}
}

/* One field's item: on its bytes when they are in the frame's tvb (ERF's
 * record header is not: Wireshark hands it over as a pseudo-header), else
 * generated. The value comes from the table's reader, never from the tvb. */
static void field_item(proto_tree *t, tvbuff_t *tvb, int hf, const struct rw_field *f,
		       const struct rw_hview *h, unsigned i, int at)
{
	int len = f->type == RW_FT_NAME || (f->flags & RW_FF_DERIVED) ? 0 : f->size;
	int off = at + f->off + (int)i * f->size;
	if (len && (at < 0 || off < 0 || (unsigned)(off + len) > tvb_captured_length(tvb)))
		len = 0;
	if (!len)
		off = 0;
	proto_item *it = NULL;
	uint64_t v;
	size_t n;
	const uint8_t *b;
	switch ((enum rw_ftype)f->type) {
	case RW_FT_UINT:
		if (!rw_field_value(f, h, i, &v))
			return; /* a derived field without a value (JSON null) */
		it = f->bits > 32 ? proto_tree_add_uint64(t, hf, tvb, off, len, v)
				  : proto_tree_add_uint(t, hf, tvb, off, len, (uint32_t)v);
		break;
	case RW_FT_FLAG:
		if (!rw_field_value(f, h, i, &v))
			return;
		it = proto_tree_add_boolean(t, hf, tvb, off, len, (uint32_t)v);
		break;
	case RW_FT_IPV4: {
		ws_in4_addr a;
		memcpy(&a, rw_field_bytes(f, h, NULL), sizeof(a)); /* network order, as FT_IPv4 holds it */
		it = proto_tree_add_ipv4(t, hf, tvb, off, len, a);
		break;
	}
	case RW_FT_IPV6:
		it = proto_tree_add_ipv6(t, hf, tvb, off, len,
					 (const ws_in6_addr *)rw_field_bytes(f, h, NULL));
		break;
	case RW_FT_MAC:
		it = proto_tree_add_ether(t, hf, tvb, off, len, rw_field_bytes(f, h, NULL));
		break;
	case RW_FT_BYTES:
		b = rw_field_bytes(f, h, &n);
		if (len)
			len = (int)n;
		it = proto_tree_add_bytes_with_length(t, hf, tvb, off, len, b, (int)n);
		break;
	case RW_FT_NAME: {
		const char *name = rw_field_name_of(f, h);
		if (!name)
			return;
		it = proto_tree_add_string(t, hf, tvb, 0, 0, name);
		break;
	}
	}
	if (it && !len)
		gen(it);
	if (it && f->count)
		proto_item_append_text(it, " [%u]", i);
}

/* Every header of the frame that has a table, outermost first, each a
 * subtree of its fields as the table lists them. */
static void hdr_trees(proto_tree *tree, tvbuff_t *tvb, const struct rw_packet *p,
		      const uint8_t *bytes, int tvb_at)
{
	struct rw_hview hv[RW_HVIEW_MAX];
	unsigned n = rw_packet_hviews(p, bytes, hv, RW_HVIEW_MAX);
	for (unsigned k = 0; k < n; k++) {
		const struct rw_hview *h = &hv[k];
		const struct rw_header_desc *d = h->d;
		int at = (int)(h->b - bytes) - tvb_at;
		int len = d->len;
		if (at < 0 || (unsigned)(at + len) > tvb_captured_length(tvb))
			at = -1, len = 0;
		proto_item *ti = proto_tree_add_item(tree, hf_hdr[h->hd], tvb, at < 0 ? 0 : at, len,
						     ENC_NA);
		if (!len)
			gen(ti);
		proto_tree *t = proto_item_add_subtree(ti, ett_hdr[h->hd]);
		for (unsigned j = 0; j < d->n; j++) {
			const struct rw_field *f = &d->f[j];
			if (!rw_field_shown(f, h))
				continue;
			for (unsigned i = 0; i < (f->count ? f->count : 1u); i++)
				field_item(t, tvb, hf_hfield[h->hd][j], f, h, i, at);
		}
	}
}

static void header_items(proto_tree *t, tvbuff_t *tvb, packet_info *pinfo, proto_tree *top,
			 const struct rw_packet *p)
{
	gen(proto_tree_add_string(t, hf_carrier, tvb, 0, 0, rw_carrier_name(p->carrier)));
	const char *wrong = builtin_wrong(p, top);
	if (wrong)
		gen(proto_tree_add_string(t, hf_builtin, tvb, 0, 0, wrong));
	if (p->err != RW_OK) {
		char why[256];
		proto_item *it = gen(proto_tree_add_string(t, hf_error, tvb, 0, 0,
							   rw_packet_error(p, why, sizeof(why))));
		expert_add_info_format(pinfo, it, &ei_decode, "%s", why);
	}
}

/* The few verdicts worth seeing in the packet list without opening a
 * frame: appended to the Info column. */
static void info_column(packet_info *pinfo, const struct rw_packet *p, const struct rwp_frame *fr)
{
	/* The opcodes the built-in dissector leaves unnamed (CNP, XRC) or
	 * names wrongly (RD as DC): their names from librocewire's table. */
	if ((p->present & RW_P_BTH) && (p->op->transport == RW_TRANSPORT_CNP ||
					 p->op->transport == RW_TRANSPORT_XRC ||
					 p->op->transport == RW_TRANSPORT_RD))
		col_append_fstr(pinfo->cinfo, COL_INFO, " [rocewire: %s]", p->op->name);
	if (p->icrc_status == RW_CRC_BAD)
		col_append_str(pinfo->cinfo, COL_INFO, " [rocewire: bad ICRC]");
	if (p->vcrc_status == RW_CRC_BAD)
		col_append_str(pinfo->cinfo, COL_INFO, " [rocewire: bad VCRC]");
	if (!fr)
		return;
	uint32_t f = fr->note.flags;
	if (f & RW_N_GAP)
		col_append_str(pinfo->cinfo, COL_INFO, " [rocewire: PSN gap]");
	if (f & RW_N_RETRANS)
		col_append_str(pinfo->cinfo, COL_INFO, " [rocewire: retransmission]");
	if (f & RW_N_OOO)
		col_append_str(pinfo->cinfo, COL_INFO, " [rocewire: out of order]");
	if (f & RW_N_NAK)
		col_append_str(pinfo->cinfo, COL_INFO, " [rocewire: NAK]");
}

static int dissect_rocewire(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	(void)data;
	/* One decoded packet, reused: dissection runs on one thread, and the
	 * struct is too large for every call's stack. */
	static struct rw_packet p;
	const uint8_t *bytes;
	int tvb_at;
	if (rwp_decode(tvb, pinfo, &p, &bytes, &tvb_at) != 0)
		return 0;
	const struct rwp_frame *fr = rwp_analyse(pinfo, proto_rocewire, &p);
	if (p.carrier == RW_CARRIER_OTHER)
		return 0;
	if (fr)
		tap_queue_packet(rwp_tap, pinfo, fr);

	proto_item *ti = proto_tree_add_item(tree, proto_rocewire, tvb, 0, -1, ENC_NA);
	proto_tree *t = proto_item_add_subtree(ti, ett_rocewire);
	if (p.present & RW_P_BTH)
		proto_item_append_text(ti, ", %s", p.op->name);
	header_items(t, tvb, pinfo, tree, &p);
	hdr_trees(t, tvb, &p, bytes, tvb_at);
	if (p.present & RW_P_BTH) {
		const int ih[4] = {hf_icrc_status, hf_icrc_bad, hf_icrc_wire, hf_icrc_computed};
		/* Shown as rocewire-cap and Wireshark show it: the four wire
		 * bytes read big-endian. */
		crc_tree(t, tvb, pinfo, "ICRC", p.icrc_status, rw_icrc_display(p.icrc_wire),
			 rw_icrc_display(p.icrc_computed),
			 (p.present & RW_P_ICRC) != 0, ih, &ei_icrc_bad);
		proto_item_append_text(ti, ", ICRC %s", crc_word(p.icrc_status));
		if (p.carrier == RW_CARRIER_IB) {
			const int vh[4] = {hf_vcrc_status, hf_vcrc_bad, hf_vcrc_wire, hf_vcrc_computed};
			crc_tree(t, tvb, pinfo, "VCRC", p.vcrc_status, p.vcrc_wire, p.vcrc_computed,
				 (p.present & RW_P_VCRC) != 0, vh, &ei_vcrc_bad);
		}
	}
	info_column(pinfo, &p, fr);
	if (fr) {
		if (fr->note.flow >= 0)
			proto_item_append_text(ti, ", flow %d", fr->note.flow);
		flow_tree(t, tvb, pinfo, &p, fr);
		pfc_tree(t, tvb, pinfo, fr);
	}
	return tvb_captured_length(tvb);
}

/* ---- registration ------------------------------------------------------ */

#define GEN_FIELD(hf, name, abbrev, type, base, strings, blurb)                                   \
	{                                                                                         \
		&hf, { name, abbrev, type, base, strings, 0, blurb, HFILL }                       \
	}
#define REQ FRAMENUM_TYPE(FT_FRAMENUM_REQUEST)

static hf_register_info hf[] = {
	GEN_FIELD(hf_carrier, "Carrier", "rocewire.carrier", FT_STRING, BASE_NONE, NULL,
		  "rocev2, rocev1, ib, pfc or pause"),
	GEN_FIELD(hf_builtin, "Built-in decode differs", "rocewire.builtin_wrong", FT_STRING,
		  BASE_NONE, NULL, "What Wireshark's own InfiniBand dissector gets wrong on this frame"),
	GEN_FIELD(hf_error, "Decode error", "rocewire.error", FT_STRING, BASE_NONE, NULL,
		  "Why librocewire stopped decoding this frame"),
	GEN_FIELD(hf_icrc_status, "ICRC", "rocewire.icrc.status", FT_STRING, BASE_NONE, NULL,
		  "good, bad or absent (not captured)"),
	GEN_FIELD(hf_icrc_bad, "Bad ICRC", "rocewire.icrc.bad", FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_icrc_wire, "ICRC on the wire", "rocewire.icrc.wire", FT_UINT32, BASE_HEX, NULL, NULL),
	GEN_FIELD(hf_icrc_computed, "ICRC computed", "rocewire.icrc.computed", FT_UINT32, BASE_HEX,
		  NULL, NULL),
	GEN_FIELD(hf_vcrc_status, "VCRC", "rocewire.vcrc.status", FT_STRING, BASE_NONE, NULL,
		  "good, bad or absent (not captured)"),
	GEN_FIELD(hf_vcrc_bad, "Bad VCRC", "rocewire.vcrc.bad", FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_vcrc_wire, "VCRC on the wire", "rocewire.vcrc.wire", FT_UINT16, BASE_HEX, NULL, NULL),
	GEN_FIELD(hf_vcrc_computed, "VCRC computed", "rocewire.vcrc.computed", FT_UINT16, BASE_HEX,
		  NULL, NULL),
	GEN_FIELD(hf_flow, "Flow", "rocewire.flow", FT_INT32, BASE_DEC, NULL,
		  "The flow's index in the per-QP report (rocewire-cap --report)"),
	GEN_FIELD(hf_peer_flow, "Peer flow", "rocewire.peer_flow", FT_INT32, BASE_DEC, NULL,
		  "The other direction of the connection"),
	GEN_FIELD(hf_pairing, "Paired by", "rocewire.pairing", FT_STRING, BASE_NONE, NULL,
		  "What paired the two directions: cm (the CM handshake), ack, nak, read_response, "
		  "atomic_ack"),
	GEN_FIELD(hf_pairing_frame, "Paired at frame", "rocewire.pairing.frame", FT_FRAMENUM,
		  BASE_NONE, NULL, "The frame that paired them (the CM REP, or the first response)"),
	GEN_FIELD(hf_cm_psn, "Initial PSN (CM)", "rocewire.cm_psn", FT_UINT32, BASE_DEC, NULL,
		  "The starting PSN the CM handshake stated for this flow's requests"),
	GEN_FIELD(hf_verdicts, "Verdicts", "rocewire.verdicts", FT_UINT32, BASE_HEX, NULL,
		  "The analysis engine's per-packet flags (RW_N_* of rocewire/analyze.h)"),
	GEN_FIELD(hf_psn_expected, "Expected PSN", "rocewire.psn.expected", FT_UINT32, BASE_DEC, NULL,
		  NULL),
	GEN_FIELD(hf_psn_gap, "PSNs missing", "rocewire.psn.gap", FT_UINT32, BASE_DEC, NULL,
		  "PSNs skipped before this packet"),
	GEN_FIELD(hf_retrans, "Retransmission", "rocewire.retransmission", FT_BOOLEAN, BASE_NONE, NULL,
		  NULL),
	GEN_FIELD(hf_gbn, "Go-back-N start", "rocewire.gbn_start", FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_ooo, "Out of order", "rocewire.out_of_order", FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_unsynced, "Before the stream was known", "rocewire.unsynced", FT_BOOLEAN,
		  BASE_NONE, NULL, "May resend a packet sent before the capture started"),
	GEN_FIELD(hf_precapture, "Resend of a pre-capture PSN", "rocewire.precapture_resend",
		  FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_msg_number, "Message number", "rocewire.msg.number", FT_UINT64, BASE_DEC, NULL,
		  "Messages the flow completed, this one included, as known at this frame (a later NAK may take some back)"),
	GEN_FIELD(hf_msg_first, "Message's first frame", "rocewire.msg.first_frame", FT_FRAMENUM,
		  BASE_NONE, FRAMENUM_TYPE(FT_FRAMENUM_NONE),
		  "The FIRST (or ONLY) packet of the message this one completes"),
	GEN_FIELD(hf_msg_bytes, "Message bytes", "rocewire.msg.bytes", FT_UINT64, BASE_DEC, NULL, NULL),
	GEN_FIELD(hf_msg_incomplete, "A message was left incomplete", "rocewire.msg.incomplete",
		  FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_msg_orphan, "Orphan (no FIRST)", "rocewire.msg.orphan", FT_BOOLEAN, BASE_NONE,
		  NULL, NULL),
	GEN_FIELD(hf_msg_cut_start, "Message cut by the capture start", "rocewire.msg.cut_start",
		  FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_ack_psn, "Acknowledged PSN", "rocewire.ack.psn", FT_UINT32, BASE_DEC, NULL, NULL),
	GEN_FIELD(hf_ack_covers, "Requests covered", "rocewire.ack.covers", FT_UINT32, BASE_DEC, NULL,
		  NULL),
	GEN_FIELD(hf_ack_req, "Request frame", "rocewire.ack.request_frame", FT_FRAMENUM, BASE_NONE,
		  REQ, "The latest request this ACK covers"),
	GEN_FIELD(hf_ack_lat, "ACK latency", "rocewire.ack.latency", FT_RELATIVE_TIME, BASE_NONE,
		  NULL, NULL),
	GEN_FIELD(hf_nak_kind, "NAK", "rocewire.nak.kind", FT_STRING, BASE_NONE, NULL,
		  "psn_seq, invalid_req, remote_access, remote_op, invalid_rd, rnr"),
	GEN_FIELD(hf_nak_ignored, "NAK ignored: new requests past the timeout from frame",
		  "rocewire.nak_ignored", FT_FRAMENUM, BASE_NONE, FRAMENUM_TYPE(FT_FRAMENUM_NONE),
		  "A PSN-sequence NAK never answered (no resend of its PSN, no go-back, no ACK past "
		  "it): the first new request of its QP sent later than the retransmission timeout "
		  "after it. Known from later frames: shown on a second pass (tshark -2)"),
	GEN_FIELD(hf_nak_rto, "Retransmission timeout", "rocewire.nak_ignored.rto",
		  FT_RELATIVE_TIME, BASE_NONE, NULL,
		  "The timeout the NAK was judged by: the rto_us preference, or the QP's own slower "
		  "resends"),
	GEN_FIELD(hf_rnr_timer, "RNR timer (us)", "rocewire.rnr.timer_us", FT_UINT32, BASE_DEC, NULL,
		  NULL),
	GEN_FIELD(hf_read_req, "READ request frame", "rocewire.read.request_frame", FT_FRAMENUM,
		  BASE_NONE, REQ, NULL),
	GEN_FIELD(hf_read_lat, "READ latency", "rocewire.read.latency", FT_RELATIVE_TIME, BASE_NONE,
		  NULL, NULL),
	GEN_FIELD(hf_atomic_req, "Atomic request frame", "rocewire.atomic.request_frame",
		  FT_FRAMENUM, BASE_NONE, REQ, NULL),
	GEN_FIELD(hf_atomic_lat, "Atomic latency", "rocewire.atomic.latency", FT_RELATIVE_TIME,
		  BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_cnp, "Congestion notification (CNP)", "rocewire.cnp", FT_BOOLEAN, BASE_NONE, NULL,
		  NULL),
	GEN_FIELD(hf_cnp_ce_frame, "CE-marked frame", "rocewire.cnp.ce_frame", FT_FRAMENUM, BASE_NONE,
		  FRAMENUM_TYPE(FT_FRAMENUM_NONE), "The CE mark this CNP answers"),
	GEN_FIELD(hf_cnp_ce_count, "CE marks linked", "rocewire.cnp.ce_count", FT_UINT32, BASE_DEC,
		  NULL, NULL),
	GEN_FIELD(hf_cnp_flow, "Flow slowed", "rocewire.cnp.flow", FT_INT32, BASE_DEC, NULL,
		  "The flow this CNP is credited to"),
	GEN_FIELD(hf_cnp_interval, "Since the previous CNP", "rocewire.cnp.interval",
		  FT_RELATIVE_TIME, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_cnp_too_often, "CNP too soon", "rocewire.cnp.too_often", FT_BOOLEAN, BASE_NONE,
		  NULL, NULL),
	GEN_FIELD(hf_ce, "CE mark", "rocewire.ce", FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_pfc_priority, "Paused priority", "rocewire.pfc.priority", FT_UINT8, BASE_DEC,
		  NULL, "0-7, or 8 for an 802.3x PAUSE of the whole link"),
	GEN_FIELD(hf_pfc_pause_us, "Pause (us)", "rocewire.pfc.pause_us", FT_DOUBLE, BASE_NONE, NULL,
		  "Pause asked, at the link speed of the preferences"),
	GEN_FIELD(hf_pfc_storm, "PFC storm", "rocewire.pfc.storm", FT_BOOLEAN, BASE_NONE, NULL, NULL),
	GEN_FIELD(hf_paused, "Sent while its priority was paused", "rocewire.paused", FT_BOOLEAN,
		  BASE_NONE, NULL, NULL),
};

static ei_register_info ei[] = {
	{&ei_icrc_bad, {"rocewire.icrc.bad.expert", PI_CHECKSUM, PI_ERROR, "Bad ICRC", EXPFILL}},
	{&ei_vcrc_bad, {"rocewire.vcrc.bad.expert", PI_CHECKSUM, PI_ERROR, "Bad VCRC", EXPFILL}},
	{&ei_decode, {"rocewire.error.expert", PI_MALFORMED, PI_ERROR, "Decode error", EXPFILL}},
	{&ei_gap, {"rocewire.psn.gap.expert", PI_SEQUENCE, PI_WARN, "PSN gap", EXPFILL}},
	{&ei_retrans, {"rocewire.retransmission.expert", PI_SEQUENCE, PI_NOTE, "Retransmission", EXPFILL}},
	{&ei_gbn, {"rocewire.gbn_start.expert", PI_SEQUENCE, PI_NOTE, "Go-back-N starts", EXPFILL}},
	{&ei_ooo, {"rocewire.out_of_order.expert", PI_SEQUENCE, PI_WARN, "Out of order", EXPFILL}},
	{&ei_nak, {"rocewire.nak.expert", PI_RESPONSE_CODE, PI_WARN, "NAK", EXPFILL}},
	{&ei_rnr, {"rocewire.rnr.expert", PI_RESPONSE_CODE, PI_NOTE, "RNR NAK", EXPFILL}},
	{&ei_ce, {"rocewire.ce.expert", PI_SEQUENCE, PI_CHAT, "CE mark (congestion experienced)",
		  EXPFILL}},
	{&ei_cnp, {"rocewire.cnp.expert", PI_SEQUENCE, PI_CHAT, "Congestion notification (CNP)", EXPFILL}},
	{&ei_cnp_fast, {"rocewire.cnp.too_often.expert", PI_SEQUENCE, PI_WARN,
			"CNP faster than the interval", EXPFILL}},
	{&ei_storm, {"rocewire.pfc.storm.expert", PI_SEQUENCE, PI_WARN, "PFC storm", EXPFILL}},
	{&ei_paused, {"rocewire.paused.expert", PI_SEQUENCE, PI_WARN,
		      "Sent while its priority was paused", EXPFILL}},
	{&ei_nak_ignored, {"rocewire.nak_ignored.expert", PI_SEQUENCE, PI_ERROR,
			   "NAK ignored: never answered while new requests went on", EXPFILL}},
};

void proto_register_rocewire(void);
void proto_reg_handoff_rocewire(void);

/* Preferences read or changed: the GUI opens the subtrees as asked (a
 * change of the others reloads the capture, see analysis.c). */
static void apply_prefs(void)
{
	int sub[] = {ett_rocewire, ett_crc, ett_flow, ett_pfc};
	for (size_t i = 0; i < array_length(sub); i++)
		if (sub[i] > 0)
			tree_expanded_set(sub[i], rwp_prefs.expand_tree != 0);
	for (size_t i = 0; i < RW_HD_ALL; i++)
		if (ett_hdr[i] > 0)
			tree_expanded_set(ett_hdr[i], rwp_prefs.expand_tree != 0);
}

/* ---- the header fields, from librocewire's tables ---------------------- */

/* The value names of a number field, as a value_string made once from the
 * row's vname over the field's range (at most 16 bits: 65,536 calls at
 * registration, the named values kept). NULL when none is named. The view
 * passed is a zeroed one: the tables' vnames name a value by itself. */
static const value_string *hdr_vals(const struct rw_field *f, const struct rw_hview *h0)
{
	unsigned bits = f->bits ? f->bits : 16; /* derived: tpid, extension type */
	if (!f->vname || f->type != RW_FT_UINT || bits > 16)
		return NULL;
	uint32_t range = 1u << bits, n = 0;
	for (uint32_t v = 0; v < range; v++)
		n += f->vname(v, h0) != NULL;
	if (!n)
		return NULL;
	value_string *vs = g_new0(value_string, n + 1);
	n = 0;
	for (uint32_t v = 0; v < range; v++) {
		const char *name = f->vname(v, h0);
		if (name)
			vs[n++] = (value_string){v, name};
	}
	return vs;
}

static enum ftenum hdr_ftype(const struct rw_field *f)
{
	switch ((enum rw_ftype)f->type) {
	case RW_FT_FLAG: return FT_BOOLEAN;
	case RW_FT_IPV4: return FT_IPv4;
	case RW_FT_IPV6: return FT_IPv6;
	case RW_FT_MAC: return FT_ETHER;
	case RW_FT_BYTES: return FT_BYTES;
	case RW_FT_NAME: return FT_STRING;
	case RW_FT_UINT: break;
	}
	if (!f->bits) /* derived: counts and lengths, a TPID, an RNR time in us */
		return FT_UINT32;
	return f->bits <= 8 ? FT_UINT8 : f->bits <= 16 ? FT_UINT16 : f->bits <= 24 ? FT_UINT24
	       : f->bits <= 32 ? FT_UINT32 : FT_UINT64;
}

/* Whether unsigned type a is wider than b, to widen a shared field (any
 * other pair of types is left as the first table has it). */
static int hdr_wider(enum ftenum a, enum ftenum b)
{
	static const enum ftenum order[] = {FT_UINT8, FT_UINT16, FT_UINT24, FT_UINT32, FT_UINT64};
	int ra = -1, rb = -1;
	for (int i = 0; i < (int)array_length(order); i++) {
		if (order[i] == a)
			ra = i;
		if (order[i] == b)
			rb = i;
	}
	return ra >= 0 && rb >= 0 && ra > rb;
}

/* Registers rocewire.HEADER (the subtree) and rocewire.HEADER.FIELD for
 * every row of every table. Two tables of one name (SLL v1 and v2, both
 * "sll" as in the JSON) share their filter fields: one hf per name, of the
 * wider type where their widths differ. Made once, kept for the program's
 * life as Wireshark keeps its field registrations. */
static void hdr_fields_register(void)
{
	static uint8_t zeros[RW_MAD_LEN];
	static struct rw_packet zero_packet;
	unsigned total = 0;
	for (unsigned hd = 0; hd < RW_HD_ALL; hd++)
		total += 1u + rw_header_desc((enum rw_hd)hd)->n;
	hf_register_info *hf_rows = g_new0(hf_register_info, total);
	int *ett_p[RW_HD_ALL];
	unsigned r = 0;
	for (unsigned hd = 0; hd < RW_HD_ALL; hd++) {
		const struct rw_header_desc *d = rw_header_desc((enum rw_hd)hd);
		_Static_assert(sizeof(zeros) >= RW_GRH_LEN, "zeros: the longest table's header");
		struct rw_hview h0 = {.d = d, .b = zeros, .p = &zero_packet, .hd = (uint8_t)hd};
		hf_hfield[hd] = g_new(int, d->n);
		hf_hdr[hd] = -1;
		ett_hdr[hd] = -1;
		ett_p[hd] = &ett_hdr[hd];
		unsigned same = hd; /* the first table of this name */
		for (unsigned e = hd; e-- > 0;)
			if (!strcmp(rw_header_desc((enum rw_hd)e)->name, d->name))
				same = e;
		char *up = g_ascii_strup(d->name, -1);
		if (same == hd)
			hf_rows[r++] = (hf_register_info){
				&hf_hdr[hd],
				{up, g_strdup_printf("rocewire.%s", d->name), FT_NONE, BASE_NONE, NULL, 0,
				 "A header as librocewire decoded it (rocewire/fields.h)", HFILL}};
		for (unsigned j = 0; j < d->n; j++) {
			const struct rw_field *f = &d->f[j];
			enum ftenum ft = hdr_ftype(f);
			hf_hfield[hd][j] = -1;
			char *abbrev = g_strdup_printf("rocewire.%s.%s", d->name, f->name);
			hf_register_info *prev = NULL;
			for (unsigned k = 0; k < r && !prev; k++)
				if (!strcmp(hf_rows[k].hfinfo.abbrev, abbrev))
					prev = &hf_rows[k];
			if (prev) {
				/* Its id is the earlier row's (set after registration). */
				if (hdr_wider(ft, prev->hfinfo.type))
					prev->hfinfo.type = ft;
				g_free(abbrev);
				continue;
			}
			int base = ft == FT_BOOLEAN || ft == FT_IPv4 || ft == FT_IPv6 || ft == FT_ETHER ||
						   ft == FT_BYTES || ft == FT_STRING
					   ? BASE_NONE
				   : f->base == RW_BASE_HEX ? BASE_HEX
							    : BASE_DEC;
			if (ft == FT_BYTES)
				base = SEP_COLON; /* as -v and --json show bytes */
			const char *blurb = (f->flags & RW_FF_RESV) ? "Reserved: sent as zero, ignored"
					    : (f->flags & RW_FF_ICRC) ? "Variant: the ICRC masks it"
								      : NULL;
			hf_rows[r++] = (hf_register_info){
				&hf_hfield[hd][j],
				{g_strdup_printf("%s %s", up, f->name), abbrev, ft, base,
				 hdr_vals(f, &h0), 0, blurb, HFILL}};
		}
	}
	proto_register_field_array(proto_rocewire, hf_rows, (int)r);
	proto_register_subtree_array(ett_p, RW_HD_ALL);
	/* A table sharing another's name takes that one's ids. */
	for (unsigned hd = 0; hd < RW_HD_ALL; hd++) {
		const struct rw_header_desc *d = rw_header_desc((enum rw_hd)hd);
		if (hf_hdr[hd] < 0) {
			char *a = g_strdup_printf("rocewire.%s", d->name);
			hf_hdr[hd] = proto_registrar_get_id_byname(a);
			g_free(a);
		}
		for (unsigned j = 0; j < d->n; j++)
			if (hf_hfield[hd][j] < 0) {
				char *a = g_strdup_printf("rocewire.%s.%s", d->name, d->f[j].name);
				hf_hfield[hd][j] = proto_registrar_get_id_byname(a);
				g_free(a);
			}
	}
}

void proto_register_rocewire(void)
{
	static int *ett[] = {&ett_rocewire, &ett_crc, &ett_flow, &ett_pfc};
	proto_rocewire = proto_register_protocol("rocewire RoCE/InfiniBand analysis", "rocewire",
						 "rocewire");
	proto_register_field_array(proto_rocewire, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	hdr_fields_register();
	expert_register_field_array(expert_register_protocol(proto_rocewire), ei, array_length(ei));

	/* A change of any of these reloads the capture: the init routine
	 * (analysis.c) then starts the engine over with them. */
	module_t *m = prefs_register_protocol(proto_rocewire, apply_prefs);
	prefs_register_uint_preference(m, "rocev2_port", "RoCEv2 UDP port",
				       "UDP destination port rocewire decodes as RoCEv2", 10,
				       &rwp_prefs.rocev2_port);
	prefs_register_uint_preference(m, "link_gbps", "Link speed (Gb/s)",
				       "Turns PFC/PAUSE quanta into time (512 bit times each)", 10,
				       &rwp_prefs.link_gbps);
	prefs_register_uint_preference(m, "cnp_interval_us", "CNP interval (us)",
				       "A CNP sooner than this after the previous one of its QP is flagged",
				       10, &rwp_prefs.cnp_min_us);
	prefs_register_uint_preference(m, "storm_ms", "PFC storm threshold (ms)",
				       "A priority paused continuously longer than this is a storm", 10,
				       &rwp_prefs.storm_ms);
	prefs_register_uint_preference(m, "rto_us", "Retransmission timeout (us)",
				       "A PSN-sequence NAK not answered while new requests of its QP go "
				       "on longer than this after it is flagged (nak_ignored; the QP's own "
				       "slower resends raise it); 0: 67108.864 us, 4.096 us x 2^14 "
				       "(rocewire-cap --rto)",
				       10, &rwp_prefs.rto_us);
	prefs_register_bool_preference(m, "expand_tree", "Show the rocewire tree expanded",
				       "Open the rocewire tree, its CRC and flow subtrees when a frame is shown",
				       &rwp_prefs.expand_tree);

	rwp_analysis_register();
	rwp_stats_register();
}

void proto_reg_handoff_rocewire(void)
{
	dissector_handle_t h = create_dissector_handle(dissect_rocewire, proto_rocewire);
	register_postdissector(h);
	hf_ws_malformed = proto_registrar_get_id_byname("_ws.malformed");
}
