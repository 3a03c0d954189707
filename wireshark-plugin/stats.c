/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics: `tshark -z rocewire,qp` prints the per-QP report of
 * `rocewire-cap --report`, written by the same function
 * (cap_report_table()) from the same engine state; the GUI's Statistics
 * menu gets "rocewire/Per-QP analysis", a stats tree of each flow's
 * verdicts as the frames are tapped.
 *
 * Both read what the postdissector queued on the "rocewire" tap (the
 * frame's struct rwp_frame); the table needs none of it: the report
 * already holds the whole capture, fed on the first pass. */
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

static int st_flows = -1;

static void st_init(stats_tree *st)
{
	st_flows = stats_tree_create_node(st, "Flows (rocewire)", 0, STAT_DT_INT, TRUE);
}

static void flow_name(char *buf, size_t cap, int32_t i)
{
	const struct rw_analyzer *a = rwp_analyzer();
	if (!a || i < 0 || (uint32_t)i >= rw_analyzer_flow_count(a)) {
		snprintf(buf, cap, "flow %d", i);
		return;
	}
	const struct rw_flow *f = rw_analyzer_flow(a, (uint32_t)i);
	char s[64], d[64];
	snprintf(buf, cap, "flow %d: %s > %s QP 0x%06x", i, cap_report_addr(s, sizeof(s), &f->key, 1),
		 cap_report_addr(d, sizeof(d), &f->key, 0), f->key.dqpn);
}

static tap_packet_status st_packet(stats_tree *st, packet_info *pinfo, epan_dissect_t *edt,
				   const void *data, tap_flags_t flags)
{
	(void)pinfo, (void)edt, (void)flags;
	const struct rwp_frame *fr = data;
	const struct rw_note *n = &fr->note;
	if (n->flow < 0)
		return TAP_PACKET_DONT_REDRAW;
	char name[192];
	flow_name(name, sizeof(name), n->flow);
	tick_stat_node(st, "Flows (rocewire)", 0, TRUE);
	int id = tick_stat_node(st, name, st_flows, TRUE);
	static const struct {
		uint32_t flag;
		const char *what;
	} verdicts[] = {
		{RW_N_GAP, "PSN gaps"},           {RW_N_RETRANS, "retransmissions"},
		{RW_N_GBN_START, "go-back-N starts"}, {RW_N_OOO, "out of order"},
		{RW_N_MSG_DONE, "messages"},      {RW_N_MSG_BROKEN, "incomplete messages"},
		{RW_N_ACK, "ACKs"},               {RW_N_NAK, "NAKs"},
		{RW_N_CE, "CE marks"},            {RW_N_PAUSED, "sent while paused"},
	};
	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		if (n->flags & verdicts[i].flag)
			tick_stat_node(st, verdicts[i].what, id, FALSE);
	return TAP_PACKET_REDRAW;
}

void rwp_stats_register(void)
{
	rwp_tap = register_tap("rocewire");
	register_stat_tap_ui(&qp_ui, NULL);
	stats_tree_register_plugin("rocewire", "rocewire_qp", "rocewire/Per-QP analysis", 0, st_packet,
				   st_init, NULL);
}
