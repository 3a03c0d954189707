/* SPDX-License-Identifier: BSD-3-Clause */
/* Status line and final summary of a generator run. */
#include "summary.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tmpfile.h"

/* Ethernet's per-frame cost on the wire besides the frame: preamble and
 * start delimiter 8, inter-frame gap 12, FCS 4 (the frames counted here
 * carry no FCS). */
#define WIRE_EXTRA 24u


static uint64_t sum_messages(const struct gen_flow_stats *s)
{
	uint64_t n = 0;

	for (int i = 0; i < GEN_OP_COUNT; i++)
		n += s->messages[i];
	return n;
}

static uint64_t sum_faults(const struct gen_flow_stats *s)
{
	uint64_t n = 0;

	for (int i = 0; i < GEN_FAULT_COUNT; i++)
		n += s->faults[i];
	return n;
}

static void human_rate(char *buf, size_t cap, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, cap, "%.2fG", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, cap, "%.1fM", bps / 1e6);
	else
		snprintf(buf, cap, "%.0fk", bps / 1e3);
}

void gen_status_line(FILE *f, const struct gen_run *r, double dt_s, uint64_t dpackets,
		     uint64_t dbytes, const struct gen_flow_stats *prev)
{
	uint64_t msgs = 0, resent = 0, faults = 0;

	for (uint32_t i = 0; i < r->sc->n_flows; i++) {
		msgs += sum_messages(&r->flows[i]);
		resent += r->flows[i].retransmissions;
		faults += sum_faults(&r->flows[i]);
	}
	fprintf(f, "%8.2f Mpps %7.2f Gbps  msgs %llu  resent %llu  faults %llu",
		dt_s > 0 ? (double)dpackets / dt_s / 1e6 : 0.0,
		dt_s > 0 ? (double)(dbytes + dpackets * WIRE_EXTRA) * 8 / dt_s / 1e9 : 0.0,
		(unsigned long long)msgs, (unsigned long long)resent, (unsigned long long)faults);
	/* per-flow rates for the first few flows: enough to see who is sending */
	if (prev && dt_s > 0) {
		uint32_t shown = r->sc->n_flows < 4 ? r->sc->n_flows : 4;

		fputs("  [", f);
		for (uint32_t i = 0; i < shown; i++) {
			const struct gen_flow_stats *a = &r->flows[i], *b = &prev[i];
			uint64_t db = (a->bytes[0] + a->bytes[1]) - (b->bytes[0] + b->bytes[1]);
			uint64_t dp = (a->packets[0] + a->packets[1]) - (b->packets[0] + b->packets[1]);
			char rate[16];

			human_rate(rate, sizeof(rate), (double)(db + dp * WIRE_EXTRA) * 8 / dt_s);
			fprintf(f, "%s%s %s", i ? " " : "", r->sc->flows[i].name, rate);
		}
		fprintf(f, "%s]", r->sc->n_flows > shown ? " ..." : "");
	}
}

void gen_summary_text(FILE *f, const struct gen_run *r)
{
	fprintf(f, "rocewire-gen: %llu packets, %llu bytes in %.3f s on %s (%u queue%s): %.3f Mpps, %.3f Gbps\n",
		(unsigned long long)r->packets, (unsigned long long)r->bytes, r->wall_s, r->port_name,
		r->queues, r->queues == 1 ? "" : "s",
		r->wall_s > 0 ? (double)r->packets / r->wall_s / 1e6 : 0.0,
		r->wall_s > 0 ? (double)(r->bytes + r->packets * WIRE_EXTRA) * 8 / r->wall_s / 1e9 : 0.0);
	fprintf(f, "  model time %.6f s%s", (double)r->model_ns / 1e9,
		r->interrupted ? "; stopped by a signal" : "");
	if (r->lockstep_queues)
		fprintf(f, "; %s in lockstep", r->lockstep_queues == r->queues ? "sent" :
			r->lockstep_queues == 1 ? "1 queue" : "some queues");
	fputc('\n', f);
	for (uint32_t i = 0; i < r->sc->n_flows; i++) {
		const struct gen_flow_stats *s = &r->flows[i];
		const struct gen_flow *fl = &r->sc->flows[i];

		fprintf(f, "  flow %s (%s, %u QP%s): %llu requests, %llu responses, %llu messages",
			fl->name, gen_transport_name(fl->transport), fl->qps, fl->qps == 1 ? "" : "s",
			(unsigned long long)s->packets[0], (unsigned long long)s->packets[1],
			(unsigned long long)sum_messages(s));
		/* requests the requester sent again, READ responses the
		 * responder sent again: two PSN spaces, two counts */
		if (s->retransmissions)
			fprintf(f, ", %llu resent (%llu requests, %llu responses)",
				(unsigned long long)s->retransmissions, (unsigned long long)s->resent[0],
				(unsigned long long)s->resent[1]);
		if (s->naks_seq + s->naks_rnr + s->naks_access)
			fprintf(f, ", NAKs %llu seq %llu rnr %llu access", (unsigned long long)s->naks_seq,
				(unsigned long long)s->naks_rnr, (unsigned long long)s->naks_access);
		if (s->timeouts)
			fprintf(f, ", %llu timeouts", (unsigned long long)s->timeouts);
		for (int k = 0; k < GEN_FAULT_COUNT; k++)
			if (s->faults[k])
				fprintf(f, ", %llu %s", (unsigned long long)s->faults[k], gen_fault_action_name((enum gen_fault_action)k));
		if (s->qps_failed)
			fprintf(f, ", %llu QPs failed", (unsigned long long)s->qps_failed);
		if (s->cm_msgs[0] + s->cm_msgs[1])
			fprintf(f, ", %llu CM messages", (unsigned long long)(s->cm_msgs[0] + s->cm_msgs[1]));
		if (s->cm_resent)
			fprintf(f, " (%llu REQ/DREQ resent)", (unsigned long long)s->cm_resent);
		if (s->cm_failed)
			fprintf(f, ", %llu connections not made", (unsigned long long)s->cm_failed);
		fputc('\n', f);
	}
	if (r->np) {
		const struct gen_np_counters *n = r->np;
		fprintf(f, "  responder: %llu frames received, %llu requests to the scenario's receivers (%llu with a "
			   "bad ICRC dropped), %llu marked CE; %llu CNPs sent, %llu CE marks without one (pacing); %llu ACKs/NAKs, "
			   "%llu READ response packets and %llu atomic ACKs sent\n",
			(unsigned long long)n->received, (unsigned long long)n->requests,
			(unsigned long long)n->bad_icrc, (unsigned long long)n->ce, (unsigned long long)n->cnps,
			(unsigned long long)n->suppressed, (unsigned long long)n->acks,
			(unsigned long long)n->read_responses, (unsigned long long)n->atomic_acks);
		fprintf(f, "  responder ignored: %llu not RoCEv2 or malformed, %llu responses/ACKs/CNPs, %llu to unknown "
			   "QPs, %llu past a NAKed hole, %llu READs too long, %llu stale atomics, %llu CM messages needing no answer; %llu "
			   "answers unsent\n",
			(unsigned long long)n->ign_not_roce, (unsigned long long)n->ign_not_request,
			(unsigned long long)n->ign_unknown_qp, (unsigned long long)n->ign_past_nak,
			(unsigned long long)n->ign_read_length,
			(unsigned long long)n->ign_stale_atomic, (unsigned long long)n->ign_cm,
			(unsigned long long)n->unsent);
		if (n->cm_received)
			fprintf(f, "  responder CM: %llu messages received; %llu REPs, %llu DREPs, %llu REJs (unknown "
				   "REQs) sent\n",
				(unsigned long long)n->cm_received, (unsigned long long)n->cm_reps,
				(unsigned long long)n->cm_dreps, (unsigned long long)n->cm_rejects);
	}
	if (r->cc && r->cc->closed_loop) {
		const struct gen_cc_stats *c = r->cc;
		fprintf(f, "  closed loop: %llu CNPs received, %llu rate cuts, lowest rate %.3f Gbps; %llu PFC/PAUSE "
			   "frames received\n",
			(unsigned long long)c->cnps_received, (unsigned long long)c->rate_cuts, c->min_rate_bps / 1e9,
			(unsigned long long)c->pfc_received);
		fprintf(f, "  closed loop ignored: of %llu frames received, %llu with a bad ICRC, %llu for unknown QPs, "
			   "%llu stale answers, %llu neither CNP, answer, CM nor PFC\n",
			(unsigned long long)c->rx_frames, (unsigned long long)c->rx_bad_icrc,
			(unsigned long long)c->rx_unknown_qp, (unsigned long long)c->rx_stale,
			(unsigned long long)c->rx_other);
	} else if (r->cc) {
		const struct gen_cc_stats *c = r->cc;
		uint64_t paused = 0;
		for (unsigned p = 0; p < 8; p++)
			paused += c->paused_ns[p];
		fprintf(f, "  switch: %llu requests in, %llu dropped, %llu marked CE, max queue %llu bytes, "
			   "%llu arrived while paused\n",
			(unsigned long long)c->sw_packets, (unsigned long long)c->sw_dropped,
			(unsigned long long)c->sw_marked, (unsigned long long)c->max_qlen,
			(unsigned long long)c->sw_while_paused);
		fprintf(f, "  DCQCN: %llu CNPs (%llu CE marks without one), %llu rate cuts, lowest rate %.3f Gbps; "
			   "PFC: %llu frames to the senders, %llu from the receiver, senders paused %.6f s\n",
			(unsigned long long)c->cnps, (unsigned long long)c->cnps_suppressed,
			(unsigned long long)c->rate_cuts, c->min_rate_bps / 1e9, (unsigned long long)c->pfc_up,
			(unsigned long long)c->pfc_down, (double)paused / 1e9);
	}
	if (r->unsent)
		fprintf(f, "  %llu packets made but not taken by the port when stopping\n",
			(unsigned long long)r->unsent);
	if (r->output)
		fprintf(f, "  written to %s\n", r->output);
	if (r->truth)
		fprintf(f, "  ground truth in %s\n", r->truth);
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

#define SET(o, k, v) json_object_set_new(o, k, v)

static json_t *flow_json(const struct gen_flow *fl, const struct gen_flow_stats *s)
{
	json_t *o = json_object(), *msgs = json_object(), *faults = json_object(), *naks = json_object();
	uint64_t pk = s->packets[0] + s->packets[1], by = s->bytes[0] + s->bytes[1];
	double dur = s->last_ns > s->first_ns ? (double)(s->last_ns - s->first_ns) / 1e9 : 0;

	SET(o, "name", json_string(fl->name));
	SET(o, "transport", json_string(gen_transport_name(fl->transport)));
	SET(o, "qps", u64(fl->qps));
	SET(o, "packets", u64(pk));
	SET(o, "bytes", u64(by));
	SET(o, "request_packets", u64(s->packets[0]));
	SET(o, "response_packets", u64(s->packets[1]));
	SET(o, "request_bytes", u64(s->bytes[0]));
	SET(o, "response_bytes", u64(s->bytes[1]));
	for (int i = 0; i < GEN_OP_COUNT; i++)
		if (fl->op_weight[i] || s->messages[i])
			SET(msgs, gen_op_name((enum gen_op)i), u64(s->messages[i]));
	SET(o, "messages", msgs);
	SET(o, "messages_total", u64(sum_messages(s)));
	/* started and not complete: in flight at a stop, or lost with a failed QP */
	json_t *started = json_object();
	for (int i = 0; i < GEN_OP_COUNT; i++)
		if (fl->op_weight[i] || s->messages_started[i])
			SET(started, gen_op_name((enum gen_op)i), u64(s->messages_started[i]));
	SET(o, "messages_started", started);
	SET(o, "retransmissions", u64(s->retransmissions));
	SET(o, "request_retransmissions", u64(s->resent[0]));
	SET(o, "response_retransmissions", u64(s->resent[1]));
	SET(naks, "sequence", u64(s->naks_seq));
	SET(naks, "rnr", u64(s->naks_rnr));
	SET(naks, "remote_access", u64(s->naks_access));
	SET(o, "naks", naks);
	SET(o, "timeouts", u64(s->timeouts));
	for (int k = 0; k < GEN_FAULT_COUNT; k++)
		SET(faults, gen_fault_action_name((enum gen_fault_action)k), u64(s->faults[k]));
	SET(o, "faults", faults);
	SET(o, "qps_failed", u64(s->qps_failed));
	/* CM messages on QP 1, apart from the packets above (flow_cm.c) */
	SET(o, "cm_messages", u64(s->cm_msgs[0] + s->cm_msgs[1]));
	SET(o, "cm_request_messages", u64(s->cm_msgs[0]));
	SET(o, "cm_response_messages", u64(s->cm_msgs[1]));
	SET(o, "cm_bytes", u64(s->cm_bytes[0] + s->cm_bytes[1]));
	SET(o, "cm_resent", u64(s->cm_resent));
	SET(o, "cm_failed", u64(s->cm_failed));
	SET(o, "first_ns", u64(s->first_ns));
	SET(o, "last_ns", u64(s->last_ns));
	SET(o, "duration_s", json_real(dur));
	SET(o, "mpps", json_real(dur > 0 ? (double)pk / dur / 1e6 : 0));
	SET(o, "gbps", json_real(dur > 0 ? (double)(by + pk * WIRE_EXTRA) * 8 / dur / 1e9 : 0));
	return o;
}

/* The flows' counters summed over the scenario. */
static json_t *totals_json(const struct gen_run *r)
{
	json_t *tot = json_object();
	struct gen_flow_stats t;

	memset(&t, 0, sizeof(t));
	for (uint32_t i = 0; i < r->sc->n_flows; i++) {
		const struct gen_flow_stats *s = &r->flows[i];

		for (int d = 0; d < 2; d++) {
			t.packets[d] += s->packets[d];
			t.bytes[d] += s->bytes[d];
		}
		for (int k = 0; k < GEN_OP_COUNT; k++)
			t.messages[k] += s->messages[k];
		for (int k = 0; k < GEN_FAULT_COUNT; k++)
			t.faults[k] += s->faults[k];
		t.retransmissions += s->retransmissions;
		t.resent[0] += s->resent[0];
		t.resent[1] += s->resent[1];
		t.naks_seq += s->naks_seq;
		t.naks_rnr += s->naks_rnr;
		t.naks_access += s->naks_access;
		t.timeouts += s->timeouts;
		t.qps_failed += s->qps_failed;
		t.cm_msgs[0] += s->cm_msgs[0] + s->cm_msgs[1];
		t.cm_bytes[0] += s->cm_bytes[0] + s->cm_bytes[1];
	}
	SET(tot, "packets", u64(t.packets[0] + t.packets[1]));
	SET(tot, "bytes", u64(t.bytes[0] + t.bytes[1]));
	SET(tot, "messages", u64(sum_messages(&t)));
	SET(tot, "retransmissions", u64(t.retransmissions));
	SET(tot, "request_retransmissions", u64(t.resent[0]));
	SET(tot, "response_retransmissions", u64(t.resent[1]));
	SET(tot, "naks", u64(t.naks_seq + t.naks_rnr + t.naks_access));
	SET(tot, "timeouts", u64(t.timeouts));
	SET(tot, "faults", u64(sum_faults(&t)));
	SET(tot, "qps_failed", u64(t.qps_failed));
	SET(tot, "cm_messages", u64(t.cm_msgs[0]));
	SET(tot, "cm_bytes", u64(t.cm_bytes[0]));
	return tot;
}

/* --role responder: what the notification points and the responder did. */
static json_t *responder_json(const struct gen_np_counters *n)
{
	json_t *o = json_object(), *ign;

	SET(o, "received", u64(n->received));
	SET(o, "requests", u64(n->requests));
	SET(o, "bad_icrc", u64(n->bad_icrc));
	SET(o, "ce", u64(n->ce));
	SET(o, "cnps", u64(n->cnps));
	SET(o, "ce_without_cnp", u64(n->suppressed));
	SET(o, "acks", u64(n->acks));
	SET(o, "read_responses", u64(n->read_responses));
	SET(o, "atomic_acks", u64(n->atomic_acks));
	SET(o, "cm_received", u64(n->cm_received));
	SET(o, "cm_reps", u64(n->cm_reps));
	SET(o, "cm_dreps", u64(n->cm_dreps));
	SET(o, "cm_rejects", u64(n->cm_rejects));
	SET(o, "unsent", u64(n->unsent));
	ign = json_object();
	SET(ign, "not_roce", u64(n->ign_not_roce));
	SET(ign, "not_request", u64(n->ign_not_request));
	SET(ign, "unknown_qp", u64(n->ign_unknown_qp));
	SET(ign, "past_nak", u64(n->ign_past_nak));
	SET(ign, "read_length", u64(n->ign_read_length));
	SET(ign, "stale_atomic", u64(n->ign_stale_atomic));
	SET(ign, "cm", u64(n->ign_cm));
	SET(o, "ignored", ign);
	return o;
}

/* The congestion section: the closed loop's senders, or the simulated
 * switch and DCQCN. */
static json_t *congestion_json(const struct gen_cc_stats *c)
{
	json_t *cc = json_object(), *paused, *ign;

	if (c->closed_loop) {
		SET(cc, "mode", json_string("closed_loop"));
		SET(cc, "cnps_received", u64(c->cnps_received));
		SET(cc, "rate_cuts", u64(c->rate_cuts));
		SET(cc, "lowest_rate_gbps", json_real(c->min_rate_bps / 1e9));
		SET(cc, "pfc_received", u64(c->pfc_received));
		SET(cc, "frames_received", u64(c->rx_frames));
		ign = json_object();
		SET(ign, "bad_icrc", u64(c->rx_bad_icrc));
		SET(ign, "unknown_qp", u64(c->rx_unknown_qp));
		SET(ign, "stale", u64(c->rx_stale));
		SET(ign, "other", u64(c->rx_other));
		SET(cc, "ignored", ign);
		return cc;
	}
	paused = json_array();
	SET(cc, "switch_packets", u64(c->sw_packets));
	SET(cc, "switch_bytes", u64(c->sw_bytes));
	SET(cc, "switch_dropped", u64(c->sw_dropped));
	SET(cc, "switch_marked", u64(c->sw_marked));
	SET(cc, "switch_arrived_while_paused", u64(c->sw_while_paused));
	SET(cc, "switch_max_queue_bytes", u64(c->max_qlen));
	SET(cc, "cnps", u64(c->cnps));
	SET(cc, "ce_without_cnp", u64(c->cnps_suppressed));
	SET(cc, "rate_cuts", u64(c->rate_cuts));
	SET(cc, "lowest_rate_gbps", json_real(c->min_rate_bps / 1e9));
	SET(cc, "pfc_frames_to_senders", u64(c->pfc_up));
	SET(cc, "pfc_frames_from_receiver", u64(c->pfc_down));
	for (unsigned p = 0; p < 8; p++)
		json_array_append_new(paused, u64(c->paused_ns[p]));
	SET(cc, "senders_paused_ns", paused);
	return cc;
}

/* The whole summary as one JSON object. */
static json_t *summary_json(const struct gen_run *r)
{
	json_t *o = json_object(), *flows = json_array();

	SET(o, "scenario", json_string(r->sc->name));
	SET(o, "scenario_file", r->scenario_path ? json_string(r->scenario_path) : json_null());
	SET(o, "port", json_string(r->port_name));
	SET(o, "output", r->output ? json_string(r->output) : json_null());
	SET(o, "truth", r->truth ? json_string(r->truth) : json_null());
	SET(o, "queues", u64(r->queues));
	SET(o, "lockstep_queues", u64(r->lockstep_queues));
	SET(o, "interrupted", json_boolean(r->interrupted));
	SET(o, "packets", u64(r->packets));
	SET(o, "bytes", u64(r->bytes));
	SET(o, "unsent", u64(r->unsent));
	SET(o, "duration_s", json_real(r->wall_s));
	SET(o, "mpps", json_real(r->wall_s > 0 ? (double)r->packets / r->wall_s / 1e6 : 0));
	SET(o, "gbps", json_real(r->wall_s > 0 ? (double)(r->bytes + r->packets * WIRE_EXTRA) * 8 /
							   r->wall_s / 1e9
						 : 0));
	SET(o, "model_time_s", json_real((double)r->model_ns / 1e9));
	for (uint32_t i = 0; i < r->sc->n_flows; i++)
		json_array_append_new(flows, flow_json(&r->sc->flows[i], &r->flows[i]));
	SET(o, "flows", flows);
	SET(o, "total", totals_json(r));
	if (r->np)
		SET(o, "responder", responder_json(r->np));
	if (r->cc)
		SET(o, "congestion", congestion_json(r->cc));
	return o;
}

int gen_summary_json(const char *path, const struct gen_run *r)
{
	json_t *o = summary_json(r);
	FILE *f;
	char *tmp = NULL;
	int rc = 0;

	if (strcmp(path, "-") == 0) {
		rc = json_dumpf(o, stdout, JSON_INDENT(2)) == 0 && fputc('\n', stdout) != EOF ? 0 : -1;
		json_decref(o);
		return rc;
	}
	f = cap_create_temp(path, ".tmp", &tmp);
	if (!f) {
		json_decref(o);
		return -1;
	}
	if (json_dumpf(o, f, JSON_INDENT(2)) != 0 || fputc('\n', f) == EOF)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
	}
	free(tmp);
	json_decref(o);
	return rc;
}
