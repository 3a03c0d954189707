/* SPDX-License-Identifier: BSD-3-Clause */
/* The flow model's closed-loop hooks (gen_model_rx_cnp, gen_model_rx_pause,
 * gen_model_rx_response, gen_model_rx_cm; --role responder's CM matching)
 * against plain arithmetic: a UC flow at a fixed rate, its packet times
 * before and after a CNP or a PFC frame reaches it.
 *
 * Known answers: the pacing gap of a frame at a rate is (frame bytes + 24
 * bytes of preamble, gap and FCS) * 8 / rate; IEEE 802.1Qbb: one pause
 * quantum is 512 bit times, so 1000 quanta at 10 Gb/s are 51.2 us; DCQCN
 * (Zhu et al. 2015, the paper's preset: alpha starts at 1): the first cut
 * sets Rc = Rc * (1 - alpha / 2), half the rate, so the gap doubles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "answer.h"
#include "flow.h"
#include "scenario.h"
#include "rocewire/build.h"
#include "rocewire/link.h"
#include "rocewire/mad.h"
#include "rocewire/packet.h"

static const char yaml[] =
	"name: loop\n"
	"line_rate: 10Gbps\n"
	"hosts:\n"
	"  - {name: s, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1, vlan: 5, pcp: 3}\n"
	"  - {name: r, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2, vlan: 5, pcp: 3}\n"
	"flows:\n"
	"  - {name: f, from: s, to: r, transport: uc, ops: write, size: 1000, mtu: 1024, rate: 1Gbps,\n"
	"     qps: 1, src_qpn: 0x100, dst_qpn: 0x200, ecn: ect0}\n"
	"congestion:\n"
	"  mode: closed_loop\n"
	"  dcqcn: {preset: paper}\n";

struct fixture {
	struct gen_scenario sc;
	struct gen_model *m;
};

static int setup(void **state)
{
	struct fixture *x = calloc(1, sizeof(*x));
	char err[512];
	assert_non_null(x);
	if (gen_scenario_parse(yaml, sizeof(yaml) - 1, "loop.yaml", &x->sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	x->m = gen_model_new(&x->sc, 0, 1);
	assert_non_null(x->m);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *x = *state;
	gen_model_free(x->m);
	gen_scenario_free(&x->sc);
	free(x);
	return 0;
}

/* The next packet's time (one at a time). */
static uint64_t next_t(struct gen_model *m, struct gen_pkt *pk)
{
	assert_int_equal(gen_model_next(m, pk, 1, UINT64_MAX), 1);
	return pk->t_ns;
}

static void test_cnp_halves_rate(void **state)
{
	struct fixture *x = *state;
	struct gen_pkt pk;
	uint64_t t0 = next_t(x->m, &pk), t1 = next_t(x->m, &pk);
	double gap = (double)(pk.frame_len + 24) * 8 / 1e9 * 1e9; /* ns at 1 Gb/s */
	assert_true((double)(t1 - t0) >= gap - 1 && (double)(t1 - t0) <= gap + 1);
	/* a CNP for another QP changes nothing; for ours (0x100) it cuts */
	assert_int_equal(gen_model_rx_cnp(x->m, 0x123, t1), 0);
	assert_int_equal(gen_model_rx_cnp(x->m, 0x100, t1), 1);
	uint64_t t2 = next_t(x->m, &pk), t3 = next_t(x->m, &pk);
	/* the packet already scheduled keeps its gap; the next ones go at half the rate */
	assert_true((double)(t3 - t2) >= 2 * gap - 2 && (double)(t3 - t2) <= 2 * gap + 2);
	const struct gen_cc_stats *st = gen_model_cc_stats(x->m);
	assert_non_null(st);
	assert_int_equal(st->cnps_received, 1);
	assert_int_equal(st->rate_cuts, 1);
}

static void test_pfc_pauses_and_resumes(void **state)
{
	struct fixture *x = *state;
	struct gen_pkt pk;
	uint16_t q[8] = { 0 };
	uint64_t t0 = next_t(x->m, &pk);
	/* PFC for class 3 (the hosts' PCP), 1000 quanta at 10 Gb/s: 51.2 us */
	q[3] = 1000;
	gen_model_rx_pause(x->m, 1u << 3, q, t0);
	uint64_t t1 = next_t(x->m, &pk);
	assert_true(t1 >= t0 + 51200);
	assert_true(t1 <= t0 + 51200 + 1);
	/* a pause of another class does not stop it */
	q[3] = 0;
	q[5] = 0xFFFF;
	gen_model_rx_pause(x->m, 1u << 5, q, t1);
	uint64_t t2 = next_t(x->m, &pk);
	assert_true(t2 - t1 < 20000);
	/* 802.3x PAUSE (no class vector) stops every class; XON resumes at once */
	q[0] = 0xFFFF;
	gen_model_rx_pause(x->m, 0, q, t2);
	q[0] = 0;
	gen_model_rx_pause(x->m, 0, q, t2 + 5000);
	uint64_t t3 = next_t(x->m, &pk);
	assert_true(t3 >= t2 + 5000 && t3 < t2 + 20000);
	assert_int_equal(gen_model_cc_stats(x->m)->pfc_received, 4);
}

/* A requester facing a real responder in the closed loop (RC, responder:
 * external): its messages complete when the port brings their ACKs, a
 * sequence NAK makes it send again from the PSN it names (IBA 9.7.5.1.2),
 * and an ACK or NAK outside what it has sent and not seen acknowledged is
 * ignored (IBA 9.7.5.1). */
static const char yaml_rc[] =
	"name: loop-rc\n"
	"line_rate: 10Gbps\n"
	"hosts:\n"
	"  - {name: s, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
	"  - {name: r, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"
	"flows:\n"
	"  - {name: f, from: s, to: r, transport: rc, responder: external, ops: write, size: 1000,\n"
	"     mtu: 1024, rate: 1Gbps, qps: 1, src_qpn: 0x100, dst_qpn: 0x200, initial_psn: 100,\n"
	"     retransmission_timeout: 1s}\n"
	"congestion:\n"
	"  mode: closed_loop\n";

static void test_wire_acks(void **state)
{
	(void)state;
	struct gen_scenario sc;
	char err[512];
	if (gen_scenario_parse(yaml_rc, sizeof(yaml_rc) - 1, "loop-rc.yaml", &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	struct gen_model *m = gen_model_new(&sc, 0, 1);
	assert_non_null(m);
	struct gen_pkt pk;
	uint64_t t = 0;
	const uint8_t ack = 0x11; /* RC ACKNOWLEDGE */
	const uint8_t syn_ack = 0x1F, syn_nak_seq = 0x60;
	for (uint32_t i = 0; i < 5; i++) {
		t = next_t(m, &pk);
		assert_int_equal(pk.f.psn, 100 + i);
		assert_int_equal(pk.resend, 0);
	}
	/* sent, not acknowledged: not complete */
	assert_int_equal(gen_model_stats(m, 0)->messages[GEN_OP_WRITE], 0);
	/* not a QP of a real responder's flow */
	assert_int_equal(gen_model_rx_response(m, 0x123, ack, 101, syn_ack, t), 0);
	/* ACK of 101: the first two complete */
	assert_int_equal(gen_model_rx_response(m, 0x100, ack, 101, syn_ack, t), 1);
	t = next_t(m, &pk);
	assert_int_equal(pk.f.psn, 105);
	assert_int_equal(gen_model_stats(m, 0)->messages[GEN_OP_WRITE], 2);
	/* stale: a NAK naming 100 (acknowledged), an ACK past what was sent */
	gen_model_rx_response(m, 0x100, ack, 100, syn_nak_seq, t);
	gen_model_rx_response(m, 0x100, ack, 120, syn_ack, t);
	t = next_t(m, &pk);
	assert_int_equal(pk.f.psn, 106);
	assert_int_equal(pk.resend, 0);
	assert_int_equal(gen_model_stats(m, 0)->messages[GEN_OP_WRITE], 2);
	/* a sequence NAK naming 103: 102 is acknowledged, 103 on go again */
	gen_model_rx_response(m, 0x100, ack, 103, syn_nak_seq, t);
	t = next_t(m, &pk);
	assert_int_equal(pk.f.psn, 103);
	assert_int_equal(pk.resend, 1);
	assert_int_equal(gen_model_stats(m, 0)->messages[GEN_OP_WRITE], 3);
	t = next_t(m, &pk);
	assert_int_equal(pk.f.psn, 104);
	/* a remote access error NAK (IBA 9.7.5.2.4) ends the QP */
	assert_int_equal(gen_model_stats(m, 0)->qps_failed, 0);
	gen_model_rx_response(m, 0x100, ack, 104, 0x62, t);
	gen_model_next(m, &pk, 1, t + 1000000);
	assert_int_equal(gen_model_stats(m, 0)->qps_failed, 1);
	gen_model_free(m);
	gen_scenario_free(&sc);
}

/* Whatever a port brings (a misbehaving responder, another connection's
 * packets with our QP number): 200,000 answers of every response opcode
 * with PSNs around the window and random ACK, RNR NAK and sequence NAK
 * syndromes, between packets. The model may stall or end a QP as the IBA
 * says (retries exhausted), but its rings never overflow (ASan in CI) and
 * its messages never complete more than they started. */
static void test_wire_garbage(void **state)
{
	(void)state;
	struct gen_scenario sc;
	char err[512];
	static const char yaml_mix[] =
		"name: loop-mix\n"
		"line_rate: 10Gbps\n"
		"hosts:\n"
		"  - {name: s, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
		"  - {name: r, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"
		"flows:\n"
		"  - {name: f, from: s, to: r, transport: rc, responder: external,\n"
		"     ops: {write: 1, read: 1, fetch_add: 1}, size: 3000, mtu: 1024, rate: 1Gbps, qps: 2,\n"
		"     src_qpn: 0x100, dst_qpn: 0x200, retransmission_timeout: 100us, retry_count: 7,\n"
		"     rnr_retry: 7, min_rnr_timer: 1}\n"
		"congestion:\n"
		"  mode: closed_loop\n";
	static const uint8_t ops[] = { 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x04, 0x81, 0x00 };
	if (gen_scenario_parse(yaml_mix, sizeof(yaml_mix) - 1, "loop-mix.yaml", &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	struct gen_model *m = gen_model_new(&sc, 0, 1);
	assert_non_null(m);
	uint64_t rng = 12345, t = 0, sent = 0;
	uint32_t last[2] = { 0, 0 }; /* the last PSN each QP sent */
	struct gen_pkt pk[8];
	for (int i = 0; i < 200000; i++) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t r = (uint32_t)(rng >> 33);
		if (r % 4 == 0) {
			uint32_t got = gen_model_next(m, pk, 8, t + 100000);
			for (uint32_t k = 0; k < got; k++) {
				t = pk[k].t_ns;
				last[pk[k].qp & 1] = pk[k].f.psn;
			}
			if (!got)
				t += 100000; /* the wall clock goes on (an RNR wait, a timeout) */
			sent += got;
			continue;
		}
		uint32_t qpn = 0x100 + r % 3; /* 0x102 is no QP of ours */
		uint32_t p = (last[r % 3 & 1] + (r >> 8) % 64 - 40) & 0xFFFFFF;
		/* ACKs with any credit code, sequence NAKs, RNR NAKs (retried
		 * for ever): none of them ends the QP */
		static const uint8_t kinds[] = { 0x00, 0x20, 0x60 };
		uint8_t kind = kinds[(r >> 16) % 3];
		uint8_t syn = (uint8_t)(kind | (kind == 0x60 ? 0 : kind == 0x20 ? (r >> 20) % 4 : (r >> 20) & 31));
		gen_model_rx_response(m, qpn, ops[(r >> 4) % sizeof(ops)], p, syn, t);
	}
	/* garbage may stall or end a QP (a READ whose responses never come in
	 * order exhausts its retries): what must hold is that nothing broke */
	assert_true(sent > 100);
	const struct gen_flow_stats *st = gen_model_stats(m, 0);
	for (int op = 0; op < GEN_OP_COUNT; op++)
		assert_true(st->messages[op] <= st->messages_started[op]);
	gen_model_free(m);
	gen_scenario_free(&sc);
}

/* Many flows in the closed loop (about the 1,024 a scenario may have):
 * every packet the port brings finds its QP by QPN. 500 UC flows (QPNs
 * 0x1000, 0x1002, ...: the odd ones are nobody's) and 500 RC flows with a
 * real responder (0x800000 on, two QPs each), all with reaction points. */
static void test_many_flows(void **state)
{
	(void)state;
	enum { N = 500 };
	size_t cap = 256 + (size_t)(2 * N + 1) * 200, n = 0;
	char *y = malloc(cap), err[512];
	struct gen_scenario sc;
	assert_non_null(y);
	n += (size_t)snprintf(y + n, cap - n, "name: many\nline_rate: 100Gbps\nhosts:\n"
			      "  - {name: s, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
			      "  - {name: r, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\nflows:\n");
	for (int i = 0; i < N; i++)
		n += (size_t)snprintf(y + n, cap - n,
				      "  - {name: u%d, from: s, to: r, transport: uc, ops: write, size: 1000, "
				      "rate: 1Gbps, qps: 1, src_qpn: %d, dst_qpn: %d}\n", i, 0x1000 + 2 * i,
				      0x1000 + 2 * i);
	for (int i = 0; i < N; i++)
		n += (size_t)snprintf(y + n, cap - n,
				      "  - {name: r%d, from: s, to: r, transport: rc, responder: external, ops: write, "
				      "size: 1000, rate: 1Gbps, qps: 2, src_qpn: %d, dst_qpn: %d, initial_psn: 100, "
				      "retransmission_timeout: 1s}\n", i, 0x800000 + 2 * i, 0x900000 + 2 * i);
	n += (size_t)snprintf(y + n, cap - n, "congestion:\n  mode: closed_loop\n");
	assert_true(n < cap);
	if (gen_scenario_parse(y, n, "many.yaml", &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	struct gen_model *m = gen_model_new(&sc, 0, 1);
	assert_non_null(m);
	for (int i = 0; i < N; i++) {
		assert_int_equal(gen_model_rx_cnp(m, 0x1000 + 2 * i, 1000), 1);
		assert_int_equal(gen_model_rx_cnp(m, 0x1000 + 2 * i + 1, 1000), 0);
	}
	/* an RC flow's QP has its reaction point too */
	assert_int_equal(gen_model_rx_cnp(m, 0x800000 + 2 * (N - 1) + 1, 1000), 1);
	/* ACKs: only the RC flows' QPs are answered by a real responder; the
	 * ACK of PSN 99 (before anything was sent) is for the QP, which
	 * ignores it (2) */
	for (int i = 0; i < N; i++) {
		assert_int_equal(gen_model_rx_response(m, 0x800000 + 2 * i + 1, 0x11, 99, 0x1F, 1000), 2);
	}
	assert_int_equal(gen_model_rx_response(m, 0x1000, 0x11, 99, 0x1F, 1000), 0);
	assert_int_equal(gen_model_rx_response(m, 0x800000 + 2 * N, 0x11, 99, 0x1F, 1000), 0);
	/* QPNs are 24 bits: the top byte of a 32-bit number is not looked at */
	assert_int_equal(gen_model_rx_cnp(m, 0xAB000000u | 0x1002, 1000), 1);
	const struct gen_cc_stats *st = gen_model_cc_stats(m);
	assert_int_equal(st->cnps_received, N + 2);
	/* a QP's first CNP cuts its rate (DCQCN): N + 1 QPs got one */
	assert_true(st->rate_cuts >= N + 1);
	gen_model_free(m);
	gen_scenario_free(&sc);
	free(y);
}

/* CM with a real responder (closed loop, responder: external, cm: true):
 * the REQ a flow_cm.c REQ, sent again after the CM response timeout it
 * announces (IBA 12.7.27: the flow's 1 ms retransmission timeout rounded up
 * to 4.096 us * 2^8) with the same comm ID and TID, at most 1 + 15 times
 * (Max CM Retries), then the QP fails; a REP read from the port lets the
 * RTU (echoing the REP's comm ID, as a NIC's differs from the scenario's)
 * and the data go; the DREQ waits for its DREP the same way; a REJ fails
 * the QP at once. */
static const char yaml_cm[] =
	"name: loop-cm\n"
	"line_rate: 10Gbps\n"
	"hosts:\n"
	"  - {name: s, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
	"  - {name: r, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"
	"flows:\n"
	"  - {name: f, from: s, to: r, transport: rc, responder: external, cm: true, ops: write, size: 1000,\n"
	"     mtu: 1024, rate: 1Gbps, qps: 3, src_qpn: 0x100, dst_qpn: 0x200, initial_psn: 100,\n"
	"     psn_stride: 0x1000, messages: 1, retransmission_timeout: 1ms}\n"
	"congestion:\n"
	"  mode: closed_loop\n";

static void cm_decode(const struct gen_scenario *sc, const struct gen_pkt *pk, struct rw_mad *m)
{
	uint8_t mad[256];
	assert_int_equal(gen_cm_mad(sc, pk, mad), 0);
	assert_int_equal(rw_mad_decode(mad, sizeof(mad), m), RW_OK);
}

static void test_wire_cm(void **state)
{
	(void)state;
	struct gen_scenario sc;
	char err[512];
	if (gen_scenario_parse(yaml_cm, sizeof(yaml_cm) - 1, "loop-cm.yaml", &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	struct gen_model *m = gen_model_new(&sc, 0, 1);
	assert_non_null(m);
	const uint32_t nic_id = 0xABCD1234; /* the responder's comm ID, not the scenario's scheme */
	const uint64_t timeout = 4096ull << 8;
	assert_true(gen_cm_timeout_ns(&sc.flows[0]) == timeout);
	/* a REP naming no REQ of ours */
	assert_int_equal(gen_model_rx_cm(m, RW_CM_REP, nic_id, 0x12345678, 0x200, 100, 0), 0);
	struct gen_pkt pk;
	struct rw_mad mad;
	unsigned reqs[3] = { 0 }, rtus = 0, dreqs = 0, data = 0;
	uint64_t req_t[3] = { 0 }, req_tid = 0, dreq_t = 0;
	uint32_t lid = 0;
	while (gen_model_next(m, &pk, 1, UINT64_MAX) == 1) {
		uint64_t t = pk.t_ns;
		if (pk.kind != GEN_PK_CM) {
			/* data only on the connection made, after its RTU, as the REP said */
			assert_int_equal(pk.qp, 0);
			assert_int_equal(rtus, 1);
			assert_int_equal(pk.f.dqpn, 0x200);
			assert_int_equal(pk.f.psn, 100 + data);
			data++;
			assert_int_equal(gen_model_rx_response(m, 0x100, 0x11, pk.f.psn, 0x1F, t), 1);
			continue;
		}
		cm_decode(&sc, &pk, &mad);
		switch (pk.cm_msg) {
		case RW_CM_REQ:
			assert_int_equal(mad.u.cm.u.req.local_qpn, 0x100 + pk.qp);
			assert_int_equal(mad.u.cm.u.req.max_cm_retries, 15);
			assert_int_equal(mad.u.cm.u.req.remote_cm_response_timeout, 8);
			if (reqs[pk.qp]) /* sent again: a timeout later, same IDs */
				assert_true(t - req_t[pk.qp] == timeout);
			req_t[pk.qp] = t;
			reqs[pk.qp]++;
			if (pk.qp == 0) {
				if (reqs[0] == 1) {
					lid = mad.u.cm.u.req.local_comm_id;
					req_tid = mad.hdr.tid;
				} else {
					assert_int_equal(mad.u.cm.u.req.local_comm_id, lid);
					assert_true(mad.hdr.tid == req_tid);
					/* the second REQ is answered */
					assert_int_equal(gen_model_rx_cm(m, RW_CM_REP, nic_id, lid, 0x200, 100, t + 5000), 1);
				}
			} else if (pk.qp == 2) {
				assert_int_equal(gen_model_rx_cm(m, RW_CM_REJ, 0, mad.u.cm.u.req.local_comm_id, 0, 0, t), 1);
			}
			break;
		case RW_CM_RTU:
			assert_int_equal(pk.qp, 0);
			assert_int_equal(mad.u.cm.u.rtu.local_comm_id, lid);
			assert_int_equal(mad.u.cm.u.rtu.remote_comm_id, nic_id);
			rtus++;
			/* a REP again (the first REQ's, late): nothing changes */
			gen_model_rx_cm(m, RW_CM_REP, nic_id, lid, 0x200, 100, t);
			break;
		case RW_CM_DREQ:
			assert_int_equal(pk.qp, 0);
			assert_int_equal(data, 1);
			assert_int_equal(mad.u.cm.u.dreq.local_comm_id, lid);
			assert_int_equal(mad.u.cm.u.dreq.remote_comm_id, nic_id);
			assert_int_equal(mad.u.cm.u.dreq.remote_qpn, 0x200);
			if (dreqs++)
				assert_true(t - dreq_t == timeout);
			dreq_t = t;
			if (dreqs == 2)
				assert_int_equal(gen_model_rx_cm(m, RW_CM_DREP, nic_id, lid, 0, 0, t + 5000), 1);
			break;
		default:
			fail_msg("CM message 0x%x from the requester", pk.cm_msg);
		}
	}
	assert_true(gen_model_done(m));
	const struct gen_flow_stats *st = gen_model_stats(m, 0);
	assert_int_equal(reqs[0], 2);
	assert_int_equal(reqs[1], 16); /* 1 + Max CM Retries, unanswered */
	assert_int_equal(reqs[2], 1);  /* REJ */
	assert_int_equal(rtus, 1);
	assert_int_equal(dreqs, 2);
	assert_int_equal(data, 1);
	assert_int_equal(st->messages[GEN_OP_WRITE], 1);
	assert_int_equal(st->cm_failed, 2);
	assert_int_equal(st->qps_failed, 2);
	assert_int_equal(st->cm_resent, 1 + 15 + 1);
	assert_int_equal(st->cm_msgs[0], 2 + 16 + 1 + 1 + 2);
	assert_int_equal(st->cm_msgs[1], 0); /* the REPs and DREP are the responder's, on the wire */
	gen_model_free(m);
	gen_scenario_free(&sc);
}

/* --role responder's matching (gen_cm_match_req, gen_cm_match_id): a REQ
 * is a flow's by both addresses and the requester QPN range; comm IDs by
 * the end they name. */
/* Both sides' per-frame work apart from DPDK (answer.c gen_rsp_frame, the
 * requester's gen_model_rx_frame): a READ answered and its response taken;
 * what each ignores counted by reason, with nothing sent. */
static const char yaml_rsp[] =
	"name: loop-rsp\n"
	"line_rate: 10Gbps\n"
	"hosts:\n"
	"  - {name: s, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
	"  - {name: r, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"
	"flows:\n"
	"  - {name: f, from: s, to: r, transport: rc, responder: external, ops: read, size: 1000,\n"
	"     mtu: 1024, rate: 1Gbps, src_qpn: 0x100, dst_qpn: 0x200, messages: 2}\n"
	"congestion:\n"
	"  mode: closed_loop\n";

static uint8_t rsp_out[8192];
static size_t rsp_out_n;
static unsigned rsp_sent;

static int rsp_capture(void *ctx, const struct rw_packet *p)
{
	(void)ctx;
	assert_int_equal(rw_packet_build(p, RW_LINKTYPE_ETHERNET, 0, rsp_out, sizeof(rsp_out), &rsp_out_n), RW_OK);
	rsp_sent++;
	return 0;
}

static void test_rx_frames(void **state)
{
	(void)state;
	struct gen_scenario sc;
	char err[512];
	static uint8_t pat[8192], frame[8192], resp[8192];
	const uint8_t *pats[1] = { pat };
	uint32_t pool[1] = { 0 };
	struct gen_np_counters c;
	struct gen_pkt pk;
	struct rw_packet p;
	size_t n, rn;

	if (gen_scenario_parse(yaml_rsp, sizeof(yaml_rsp) - 1, "loop-rsp.yaml", &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	gen_flow_payload(&sc.flows[0], pat, sizeof(pat));
	memset(&c, 0, sizeof(c));
	struct gen_model *m = gen_model_new(&sc, 0, 1);
	struct gen_rsp *r = gen_rsp_new(&sc, pats, pool, rsp_capture, NULL, &c);
	assert_non_null(m);
	assert_non_null(r);
	assert_int_equal(gen_model_next(m, &pk, 1, UINT64_MAX), 1);
	assert_int_equal(pk.kind, GEN_PK_ROCE);
	gen_pkt_describe(&sc, &pk, pat, &p);
	assert_int_equal(rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, frame, sizeof(frame), &n), RW_OK);

	/* the READ: one response packet (1000 bytes, MTU 1024) */
	gen_rsp_frame(r, frame, n, n, 1000);
	assert_int_equal(c.requests, 1);
	assert_int_equal(c.read_responses, 1);
	assert_int_equal(rsp_sent, 1);
	memcpy(resp, rsp_out, rsp_out_n);
	rn = rsp_out_n;
	gen_model_rx_frame(m, resp, rn, rn, 2000);
	const struct gen_cc_stats *st = gen_model_cc_stats(m);
	assert_int_equal(st->rx_frames, 1);
	assert_int_equal(st->rx_stale + st->rx_unknown_qp + st->rx_bad_icrc + st->rx_other, 0);
	/* the model runs to the response's arrival (sending the second READ) */
	struct gen_pkt pk2;
	for (int i = 0; i < 8 && gen_model_stats(m, 0)->messages[GEN_OP_READ] == 0; i++)
		gen_model_next(m, &pk2, 1, UINT64_MAX);
	assert_int_equal(gen_model_stats(m, 0)->messages[GEN_OP_READ], 1);
	/* the same response again: no READ of the QP waits for it */
	gen_model_rx_frame(m, resp, rn, rn, 3000);
	assert_int_equal(st->rx_stale, 1);
	/* to the responder: an answer, not a request */
	gen_rsp_frame(r, resp, rn, rn, 3000);
	assert_int_equal(c.ign_not_request, 1);
	/* cut short; a bad ICRC (both sides) */
	gen_rsp_frame(r, frame, 30, n, 4000);
	gen_model_rx_frame(m, resp, 30, rn, 4000);
	assert_int_equal(c.ign_not_roce, 1);
	assert_int_equal(st->rx_other, 1);
	frame[n - 1] ^= 0xFF;
	resp[rn - 1] ^= 0xFF;
	gen_rsp_frame(r, frame, n, n, 5000);
	gen_model_rx_frame(m, resp, rn, rn, 5000);
	assert_int_equal(c.bad_icrc, 1);
	assert_int_equal(st->rx_bad_icrc, 1);
	/* another QP; a READ longer than the flow's messages */
	p.bth.dqpn = 0x999;
	assert_int_equal(rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, frame, sizeof(frame), &n), RW_OK);
	gen_rsp_frame(r, frame, n, n, 6000);
	assert_int_equal(c.ign_unknown_qp, 1);
	p.bth.dqpn = 0x200;
	p.reth.dmalen = 0xFFFFFFFFu;
	assert_int_equal(rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, frame, sizeof(frame), &n), RW_OK);
	gen_rsp_frame(r, frame, n, n, 7000);
	assert_int_equal(c.ign_read_length, 1);
	assert_int_equal(rsp_sent, 1); /* nothing answered since the READ */
	uint32_t owed, cap;
	gen_rsp_bounds(r, &owed, &cap);
	assert_int_equal(owed, 0);
	assert_int_equal(cap, 1);
	gen_rsp_free(r);
	gen_model_free(m);
	gen_scenario_free(&sc);
}

static void test_cm_match(void **state)
{
	(void)state;
	struct gen_scenario sc;
	char err[512];
	static const char y[] =
		"hosts:\n"
		"  - {name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
		"  - {name: b, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"
		"  - {name: c, mac: \"02:00:00:00:00:03\", ip: \"fd00::3\"}\n"
		"  - {name: d, mac: \"02:00:00:00:00:04\", ip: \"fd00::4\"}\n"
		"flows:\n"
		"  - {name: nocm, from: a, to: b, transport: rc, src_qpn: 0x110, dst_qpn: 0x200, qps: 4}\n"
		"  - {name: x, from: a, to: b, transport: rc, cm: true, src_qpn: 0x100, dst_qpn: 0x300, qps: 2}\n"
		"  - {name: y, from: b, to: a, transport: rc, cm: true, src_qpn: 0x102, dst_qpn: 0x400, qps: 2}\n"
		"  - {name: z, from: c, to: d, transport: rc, cm: true, src_qpn: 0xFFFFFE, dst_qpn: 0x500, qps: 2}\n";
	if (gen_scenario_parse(y, sizeof(y) - 1, "match.yaml", &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	const uint8_t a[4] = { 10, 0, 0, 1 }, b[4] = { 10, 0, 0, 2 };
	uint8_t c[16] = { 0xfd }, d[16] = { 0xfd };
	c[15] = 3;
	d[15] = 4;
	uint32_t flow = 99, qp = 99;
	/* the flow without cm: not one */
	assert_int_equal(gen_cm_match_req(&sc, 4, a, b, 0x111, &flow, &qp), -1);
	assert_int_equal(gen_cm_match_req(&sc, 4, a, b, 0x101, &flow, &qp), 0);
	assert_int_equal(flow, 1);
	assert_int_equal(qp, 1);
	assert_int_equal(gen_cm_match_req(&sc, 4, a, b, 0x102, &flow, &qp), -1); /* past its QPs */
	assert_int_equal(gen_cm_match_req(&sc, 4, a, b, 0xFF, &flow, &qp), -1);
	assert_int_equal(gen_cm_match_req(&sc, 4, b, a, 0x103, &flow, &qp), 0);  /* the other way: y */
	assert_int_equal(flow, 2);
	assert_int_equal(qp, 1);
	assert_int_equal(gen_cm_match_req(&sc, 4, b, a, 0x101, &flow, &qp), -1);
	assert_int_equal(gen_cm_match_req(&sc, 4, a, a, 0x100, &flow, &qp), -1);
	/* IPv6, the top of the QPN space */
	assert_int_equal(gen_cm_match_req(&sc, 6, c, d, 0x000000, &flow, &qp), -1);
	assert_int_equal(gen_cm_match_req(&sc, 6, c, d, 0xFFFFFF, &flow, &qp), 0);
	assert_int_equal(flow, 3);
	assert_int_equal(qp, 1);
	assert_int_equal(gen_cm_match_req(&sc, 6, d, c, 0xFFFFFF, &flow, &qp), -1);
	assert_int_equal(gen_cm_match_req(&sc, 4, c, d, 0xFFFFFF, &flow, &qp), -1);
	/* comm IDs: the end they name, a flow with cm, a QP it has */
	assert_int_equal(gen_cm_match_id(&sc, gen_cm_comm_id(2, 1, 1), 1, &flow, &qp), 0);
	assert_int_equal(flow, 2);
	assert_int_equal(qp, 1);
	assert_int_equal(gen_cm_match_id(&sc, gen_cm_comm_id(2, 1, 1), 0, &flow, &qp), -1);
	assert_int_equal(gen_cm_match_id(&sc, gen_cm_comm_id(2, 2, 1), 1, &flow, &qp), -1);
	assert_int_equal(gen_cm_match_id(&sc, gen_cm_comm_id(0, 0, 1), 1, &flow, &qp), -1); /* no cm */
	assert_int_equal(gen_cm_match_id(&sc, gen_cm_comm_id(9, 0, 1), 1, &flow, &qp), -1);
	assert_int_equal(gen_cm_match_id(&sc, 0xABCD1234, 1, &flow, &qp), -1);
	gen_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cnp_halves_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pfc_pauses_and_resumes, setup, teardown),
		cmocka_unit_test(test_wire_acks),
		cmocka_unit_test(test_wire_garbage),
		cmocka_unit_test(test_many_flows),
		cmocka_unit_test(test_wire_cm),
		cmocka_unit_test(test_cm_match),
		cmocka_unit_test(test_rx_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
