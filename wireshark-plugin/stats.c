/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics: `tshark -z rocewire,qp` prints the per-QP report of
 * `rocewire-cap --report`, written by the same function
 * (cap_report_table()) from the same engine state; the GUI's Statistics
 * menu gets "rocewire/Per-QP analysis" (also -z rocewire_qp,tree), a
 * stats tree of each flow's figures as the engine counts them.
 *
 * Both read what the postdissector queued on the "rocewire" tap (the
 * frame's struct rwp_frame); the table needs none of it: the report
 * already holds the whole capture, fed on the first pass. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/stats_tree.h>
#include <epan/tap.h>

#include "report.h"
#include "rocewire_ws.h"

int rwp_tap = -1;

/* ---- tshark -z rocewire,qp -------------------------------------------- */

static tap_packet_status qp_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt,
				   const void *data, tap_flags_t flags)
{
	(void)tapdata, (void)pinfo, (void)edt, (void)data, (void)flags;
	return TAP_PACKET_DONT_REDRAW;
}

static void qp_draw(void *tapdata)
{
	(void)tapdata;
	struct cap_report *r = rwp_report();
	printf("\n===================================================================\n");
	if (!r) {
		printf("rocewire: no report (out of memory)\n");
	} else {
		rwp_finish();
		fflush(stdout);
		if (cap_report_table(r, stdout) != 0)
			printf("rocewire: cannot write the report\n");
	}
	printf("===================================================================\n");
	fflush(stdout);
}

static int qp_listener; /* its address names the listener */

static void qp_init(const char *opt_arg, void *userdata)
{
	(void)userdata;
	/* "rocewire,qp" or "rocewire,qp,FILTER": the report covers the whole
	 * capture, as rocewire-cap's does, so a filter is refused rather than
	 * ignored. */
	if (opt_arg && opt_arg[0] && strcmp(opt_arg, "rocewire,qp") != 0) {
		fprintf(stderr, "tshark: -z rocewire,qp takes no filter (the report covers every frame)\n");
		exit(1);
	}
	GString *err = register_tap_listener("rocewire", &qp_listener, NULL, TL_REQUIRES_NOTHING,
					     NULL, qp_packet, qp_draw, NULL);
	if (err) {
		fprintf(stderr, "tshark: cannot register the rocewire,qp tap: %s\n", err->str);
		g_string_free(err, TRUE);
		exit(1);
	}
}

static stat_tap_ui qp_ui = {REGISTER_STAT_GROUP_GENERIC, "rocewire per-QP report", "rocewire,qp",
			    qp_init, 0, NULL};

/* ---- the GUI's stats tree --------------------------------------------- */

/* Each flow's figures are the engine's own (struct rw_flow), under the
 * names `rocewire-cap --report --json` gives them, so the tree, the
 * -z rocewire,qp table and the JSON cannot disagree. The tree once counted
 * the frames that carried a verdict; those are not the same numbers:
 * messages completed when a hole is filled or the capture ends, messages a
 * later NAK takes back, orphans and cut messages have no frame of their
 * own, so a lossy capture that starts mid-conversation showed 18 messages
 * where the engine counts 41. */
struct st_figure {
	const char *name; /* lib/report's JSON key (a dot: inside that object) */
	uint64_t (*get)(const struct rw_flow *f);
};

#define FIG(key, expr)                                                                            \
	static uint64_t fig_##key(const struct rw_flow *f)                                        \
	{                                                                                         \
		return (expr);                                                                    \
	}
FIG(packets, f->packets)
FIG(messages, f->messages)
FIG(incomplete, f->msg_incomplete)
FIG(orphans, f->msg_orphans)
FIG(cut_start, f->msg_cut_start)
FIG(cut_end, f->msg_cut_end)
FIG(gaps, f->psn_gaps)
FIG(missing, f->missing_psns)
FIG(retx, f->retransmissions)
FIG(gbn, f->gbn_episodes)
FIG(ooo, f->out_of_order)
FIG(unsynced, f->unsynced_pkts)
FIG(precapture, f->precapture_resends)
FIG(acks, f->acks)
FIG(not_ect, f->ecn[RW_ECN_NOT_ECT])
FIG(ect0, f->ecn[RW_ECN_ECT0])
FIG(ect1, f->ecn[RW_ECN_ECT1])
FIG(ce, f->ecn[RW_ECN_CE])
FIG(cnps, f->cnps)
FIG(paused, f->pkts_while_paused)
FIG(icrc_bad, f->icrc_bad)
FIG(vcrc_bad, f->vcrc_bad)
#undef FIG

static const struct st_figure figures[] = {
	{"packets", fig_packets},
	{"messages", fig_messages},
	{"incomplete_messages", fig_incomplete},
	{"orphan_packets", fig_orphans},
	{"messages_cut_by_capture_start", fig_cut_start},
	{"messages_cut_by_capture_end", fig_cut_end},
	{"psn_gaps", fig_gaps},
	{"missing_psns", fig_missing},
	{"retransmissions", fig_retx},
	{"gbn_episodes", fig_gbn},
	{"out_of_order", fig_ooo},
	{"unsynced_packets", fig_unsynced},
	{"precapture_resends", fig_precapture},
	{"acks", fig_acks},
	{"ecn.not_ect", fig_not_ect},
	{"ecn.ect0", fig_ect0},
	{"ecn.ect1", fig_ect1},
	{"ecn.ce", fig_ce},
	{"cnps", fig_cnps},
	{"pkts_while_paused", fig_paused},
	{"icrc_bad", fig_icrc_bad},
	{"vcrc_bad", fig_vcrc_bad},
};

static const char st_root[] = "Flows (rocewire)";
static int st_flows = -1;
/* The tree being filled, for the draw listener below (one at a time: the
 * GUI's dialog and tshark's -z each make one). */
static stats_tree *st_cur;
static int st_draw_listener; /* its address names the listener */

static void flow_name(char *buf, size_t cap, const struct rw_flow *f, uint32_t i)
{
	char s[64], d[64];
	snprintf(buf, cap, "flow %u: %s > %s QP 0x%06x", i, cap_report_addr(s, sizeof(s), &f->key, 1),
		 cap_report_addr(d, sizeof(d), &f->key, 0), f->key.dqpn);
}

/* A node's value is a gint: a larger count shows as INT_MAX rather than
 * wrapping negative. */
static int st_int(uint64_t v)
{
	return v > INT_MAX ? INT_MAX : (int)v;
}

/* Sets flow i's node and its figures to what the engine says now. */
static void st_set_flow(stats_tree *st, const struct rw_analyzer *a, uint32_t i)
{
	const struct rw_flow *f = rw_analyzer_flow(a, i);
	char name[192];
	flow_name(name, sizeof(name), f, i);
	int id = set_stat_node(st, name, st_flows, TRUE, st_int(f->packets));
	for (size_t k = 0; k < array_length(figures); k++)
		set_stat_node(st, figures[k].name, id, FALSE, st_int(figures[k].get(f)));
	/* naks.KIND, one per kind as the JSON's "naks" object has them. */
	for (unsigned k = 0; k < RW_NAKK_COUNT; k++) {
		char nk[48];
		snprintf(nk, sizeof(nk), "naks.%s", rw_nak_kind_key((enum rw_nak_kind)k));
		set_stat_node(st, nk, id, FALSE, st_int(f->naks[k]));
	}
}

static void st_set_all(stats_tree *st)
{
	const struct rw_analyzer *a = rwp_analyzer();
	if (!a)
		return;
	uint32_t n = rw_analyzer_flow_count(a);
	set_stat_node(st, st_root, 0, TRUE, st_int(n));
	for (uint32_t i = 0; i < n; i++)
		st_set_flow(st, a, i);
}

/* Drawn before the tree (tshark draws the listeners latest registered
 * first, and this one is registered after the tree's own): the capture is
 * ended for the engine, as --report and -z rocewire,qp end it (open
 * messages become incomplete, cut by the capture end), and every flow is
 * set to its final figures, including the flows a frame of another flow
 * changed (a NAK taking messages back, a pairing undone). */
static void st_draw(void *tapdata)
{
	(void)tapdata;
	if (!st_cur)
		return;
	rwp_finish();
	st_set_all(st_cur);
}

static tap_packet_status st_noop(void *tapdata, packet_info *pinfo, epan_dissect_t *edt,
				 const void *data, tap_flags_t flags)
{
	(void)tapdata, (void)pinfo, (void)edt, (void)data, (void)flags;
	return TAP_PACKET_DONT_REDRAW;
}

static void st_init(stats_tree *st)
{
	st_flows = stats_tree_create_node(st, st_root, 0, STAT_DT_INT, TRUE);
	if (st_cur != st) {
		if (st_cur)
			remove_tap_listener(&st_draw_listener);
		GString *err = register_tap_listener("rocewire", &st_draw_listener, NULL,
						     TL_REQUIRES_NOTHING, NULL, st_noop, st_draw, NULL);
		if (err)
			g_string_free(err, TRUE);
		st_cur = st;
	}
	/* The GUI makes the tree after the file was read, and retaps frames
	 * whose verdicts are stored: the engine has seen the whole capture
	 * already, so the figures are final now. */
	const struct rw_analyzer *a = rwp_analyzer();
	if (a && rw_analyzer_flow_count(a) > 0) {
		rwp_finish();
		st_set_all(st);
	}
}

static void st_cleanup(stats_tree *st)
{
	if (st_cur == st) {
		remove_tap_listener(&st_draw_listener);
		st_cur = NULL;
	}
}

/* The frame's flows (its own, its pair, the flow a CNP slows) are set as
 * the engine counts them after this frame, so the GUI's tree is right
 * while a capture is read; the draw above sets every flow at the end. */
static tap_packet_status st_packet(stats_tree *st, packet_info *pinfo, epan_dissect_t *edt,
				   const void *data, tap_flags_t flags)
{
	(void)pinfo, (void)edt, (void)flags;
	const struct rwp_frame *fr = data;
	const struct rw_analyzer *a = rwp_analyzer();
	if (!a)
		return TAP_PACKET_DONT_REDRAW;
	uint32_t n = rw_analyzer_flow_count(a);
	int32_t which[3] = {fr->note.flow, fr->peer, fr->note.cnp_flow};
	int any = 0;
	for (size_t k = 0; k < array_length(which); k++)
		if (which[k] >= 0 && (uint32_t)which[k] < n) {
			st_set_flow(st, a, (uint32_t)which[k]);
			any = 1;
		}
	if (!any)
		return TAP_PACKET_DONT_REDRAW;
	set_stat_node(st, st_root, 0, TRUE, st_int(n));
	return TAP_PACKET_REDRAW;
}

void rwp_stats_register(void)
{
	rwp_tap = register_tap("rocewire");
	register_stat_tap_ui(&qp_ui, NULL);
	stats_tree_register_plugin("rocewire", "rocewire_qp", "rocewire/Per-QP analysis", 0, st_packet,
				   st_init, st_cleanup);
}
