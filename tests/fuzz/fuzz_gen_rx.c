/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: what rocewire-gen reads from its port in the closed
 * loop, with no DPDK: the responder role's per-frame work (gen/answer.c,
 * gen_rsp_frame: RC requests, CE marks, CM REQ/DREQ) and the requester's
 * (gen/flow_cc.c, gen_model_rx_frame: ACKs, NAKs, READ responses, atomic
 * ACKs, CNPs, PFC/PAUSE, CM REP/REJ/DREP), over a small scenario built in
 * (two RC flows with WRITE, READ and atomics to an external responder, CM
 * on one, closed-loop congestion).
 *
 * Input: frames, each a 2-byte big-endian prefix and the frame's bytes.
 * The prefix's low 14 bits are the length (cut to what is left); bit 15
 * moves the clock 1 ms before the frame instead of 2 us; bit 14 gives the
 * frame to the requester only (else to both sides). Between frames the
 * requester's model runs to the clock and its requests are built by
 * proto's builder and given to the responder, whose answers (built the
 * same way) go back to the requester: a closed loop with hostile frames
 * mixed in.
 *
 * Checked after every frame: the state stays within what the scenario
 * sizes (CNPs owed at most one per QP, answers held at most the QPs' job
 * queues), every answer the responder makes builds, and no message
 * completes that was not started. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "flow.h"
#include "rocewire.h"
#include "scenario.h"
#include "tx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                    \
	do {                                                                                           \
		if (!(cond)) {                                                                         \
			fprintf(stderr, "fuzz_gen_rx: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                                \
			abort();                                                                       \
		}                                                                                      \
	} while (0)

static const char scenario_yaml[] =
	"name: fuzz-gen-rx\n"
	"duration: 50ms\n"
	"line_rate: 10Gbps\n"
	"hosts:\n"
	"  - {name: s, mac: \"02:00:00:00:01:01\", ip: 10.9.1.1}\n"
	"  - {name: r, mac: \"02:00:00:00:02:01\", ip: 10.9.1.2}\n"
	"defaults: {transport: rc, responder: external, mtu: 1024, retransmission_timeout: 2ms}\n"
	"flows:\n"
	"  - name: ops\n"
	"    from: s\n"
	"    to: r\n"
	"    ops: {write: 2, read: 2, fetch_add: 1, cmp_swap: 1}\n"
	"    size: 3KiB\n"
	"    rate: 20Mbps\n"
	"    qps: 2\n"
	"    ecn: ect0\n"
	"    src_qpn: 0x111\n"
	"    dst_qpn: 0x211\n"
	"    ack_request_interval: 2\n"
	"  - name: cm\n"
	"    from: s\n"
	"    to: r\n"
	"    cm: true\n"
	"    ops: {write: 1, read: 1}\n"
	"    size: 2KiB\n"
	"    rate: 10Mbps\n"
	"    src_qpn: 0x131\n"
	"    dst_qpn: 0x231\n"
	"    initial_psn: 0x123456\n"
	"congestion:\n"
	"  mode: closed_loop\n"
	"  np: {preset: paper, interval: 50us, max_keys: 16}\n";

static struct gen_scenario sc;
static uint8_t *pattern[8];
static const uint8_t *patterns[8];
static uint32_t flow_pool[8];
static struct gen_np_counters ctr;
static struct gen_model *model;
static uint64_t now_ns;
static uint8_t frame[16384];
static uint8_t mad[256];

static void init(void)
{
	static int done;
	char err[256];
	if (done)
		return;
	done = 1;
	if (gen_scenario_parse(scenario_yaml, sizeof(scenario_yaml) - 1, "fuzz-gen-rx.yaml", &sc, err,
			       sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_gen_rx: the built-in scenario: %s\n", err);
		abort();
	}
	CHECK(sc.n_flows <= 8);
	for (uint32_t i = 0; i < sc.n_flows; i++) {
		pattern[i] = malloc(GEN_PAYLOAD_MAX + GEN_TAIL_MAX);
		CHECK(pattern[i]);
		gen_flow_payload(&sc.flows[i], pattern[i], GEN_PAYLOAD_MAX + GEN_TAIL_MAX);
		patterns[i] = pattern[i];
		flow_pool[i] = i;
	}
}

/* The responder's answers: built as rocewire-gen builds them, then read by
 * the requester. */
static int rsp_send(void *ctx, const struct rw_packet *p)
{
	static uint8_t out[GEN_PAYLOAD_MAX + 512];
	size_t n;
	(void)ctx;
	CHECK(rw_packet_build(p, RW_LINKTYPE_ETHERNET, 0, out, sizeof(out), &n) == RW_OK);
	gen_model_rx_frame(model, out, n, n, now_ns);
	return 0;
}

/* The requester's packets up to now, built and given to the responder. */
static void run_model(struct gen_rsp *r)
{
	struct gen_pkt pk[16];
	uint32_t got;
	int rounds = 0;
	while ((got = gen_model_next(model, pk, 16, now_ns)) != 0 && rounds++ < 64) {
		for (uint32_t i = 0; i < got; i++) {
			struct rw_packet p;
			const uint8_t *pay = pattern[pk[i].flow < sc.n_flows ? pk[i].flow : 0];
			size_t n;
			if (pk[i].kind == GEN_PK_PFC)
				continue;
			if (pk[i].kind == GEN_PK_CM) {
				CHECK(gen_cm_mad(&sc, &pk[i], mad) == 0);
				pay = mad;
			}
			gen_pkt_describe(&sc, &pk[i], pay, &p);
			CHECK(rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, frame, sizeof(frame), &n) == RW_OK);
			gen_rsp_frame(r, frame, n, n, now_ns);
		}
	}
}

static void check_bounds(const struct gen_rsp *r)
{
	uint32_t owed, cap, qps = 0;
	uint64_t held, hcap;
	for (uint32_t i = 0; i < sc.n_flows; i++)
		qps += sc.flows[i].qps ? sc.flows[i].qps : 1;
	gen_rsp_bounds(r, &owed, &cap);
	CHECK(cap == qps);
	CHECK(owed <= cap);
	gen_model_rx_bounds(model, &held, &hcap);
	CHECK(held <= hcap);
	for (uint32_t i = 0; i < sc.n_flows; i++) {
		const struct gen_flow_stats *st = gen_model_stats(model, i);
		for (unsigned o = 0; o < GEN_OP_COUNT; o++)
			CHECK(st->messages[o] <= st->messages_started[o]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	init();
	memset(&ctr, 0, sizeof(ctr));
	now_ns = 0;
	model = gen_model_new(&sc, 0, 1);
	CHECK(model);
	struct gen_rsp *r = gen_rsp_new(&sc, patterns, flow_pool, rsp_send, NULL, &ctr);
	CHECK(r);
	size_t at = 0;
	while (at + 2 <= size) {
		unsigned v = (unsigned)data[at] << 8 | data[at + 1];
		size_t len = v & 0x3fff;
		at += 2;
		if (len > size - at)
			len = size - at;
		memcpy(frame, data + at, len); /* the model's packets reuse frame[] */
		now_ns += (v & 0x8000) ? 1000000u : 2000u;
		if (!(v & 0x4000))
			gen_rsp_frame(r, frame, len, len, now_ns);
		gen_model_rx_frame(model, data + at, len, len, now_ns);
		at += len;
		gen_rsp_tick(r, now_ns);
		run_model(r);
		check_bounds(r);
	}
	CHECK(ctr.received >= ctr.requests);
	gen_rsp_free(r);
	gen_model_free(model);
	model = NULL;
	return 0;
}
