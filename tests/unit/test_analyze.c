/* SPDX-License-Identifier: BSD-3-Clause */
/* The analysis engine on crafted traffic whose truth is known by
 * construction: every scenario states what happened on the wire (a loss, a
 * resend, a reorder, a NAK, a CE mark, a pause) and the counts follow from
 * that statement, not from running the engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocewire.h"
#include "rocewire/analyze.h"

#define A_IP 0x0a000001u /* requester */
#define B_IP 0x0a000002u /* responder */
#define QP_A 0x11
#define QP_B 0x22

struct env {
	struct rw_analyzer *a;
	uint64_t frame;
};

static struct env *env_new(const struct rw_analyze_cfg *cfg)
{
	struct env *e = calloc(1, sizeof(*e));
	e->a = rw_analyzer_new(cfg);
	assert_non_null(e->a);
	return e;
}

static void env_free(struct env *e)
{
	rw_analyzer_free(e->a);
	free(e);
}

/* Builds p into a frame, decodes it back and feeds it: the engine sees what
 * a capture would give it. */
/* (p->icrc_status RW_CRC_BAD: built with a bad ICRC) */
static struct rw_note feed_packet(struct env *e, uint64_t ts, const struct rw_packet *p)
{
	uint8_t buf[9000];
	size_t n;
	unsigned flags = p->icrc_status == RW_CRC_BAD ? RW_BUILD_BAD_ICRC : 0;
	assert_int_equal(rw_packet_build(p, RW_LINKTYPE_ETHERNET, flags, buf, sizeof(buf), &n), RW_OK);
	struct rw_packet d;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, buf, n, n, &d), RW_OK);
	struct rw_note note;
	rw_analyzer_packet(e->a, &d, ts, ++e->frame, &note);
	return note;
}

/* A RoCEv2 packet from src to dst with the BTH's opcode, QP and PSN, the
 * rest zero (the builder fills lengths and the ICRC). */
static void roce_init(struct rw_packet *p, uint32_t src, uint32_t dst, uint8_t opcode, uint32_t dqpn,
		      uint32_t psn)
{
	memset(p, 0, sizeof(*p));
	p->carrier = RW_CARRIER_ROCEV2;
	p->present = RW_P_IPV4;
	p->ipv4.src = src;
	p->ipv4.dst = dst;
	p->ipv4.flags = RW_IPV4_DF;
	p->udp.sport = 49152;
	p->bth.opcode = opcode;
	p->bth.pkey = 0xFFFF;
	p->bth.dqpn = dqpn;
	p->bth.psn = psn;
}

/* Builds, decodes and feeds one RoCEv2 packet. */
static struct rw_note feed(struct env *e, uint64_t ts, uint32_t src, uint32_t dst, uint8_t opcode,
			   uint32_t dqpn, uint32_t psn, uint32_t payload, uint8_t ecn)
{
	struct rw_packet p;
	roce_init(&p, src, dst, opcode, dqpn, psn);
	p.ipv4.ecn = ecn;
	/* For opcodes without payload (READ request) `payload` is the RETH
	 * DMA length. */
	p.payload_len = rw_opcode(opcode)->flags & RW_OPF_PAYLOAD ? payload : 0;
	p.reth.dmalen = payload;
	return feed_packet(e, ts, &p);
}

/* A response from B to A's QP carrying an AETH. */
static void aeth_packet(struct rw_packet *p, uint8_t opcode, uint32_t psn, uint8_t syndrome, uint32_t msn)
{
	memset(p, 0, sizeof(*p));
	p->carrier = RW_CARRIER_ROCEV2;
	p->present = RW_P_IPV4;
	p->ipv4.src = B_IP;
	p->ipv4.dst = A_IP;
	p->bth.opcode = opcode;
	p->bth.pkey = 0xFFFF;
	p->bth.dqpn = QP_A;
	p->bth.psn = psn;
	p->aeth.syndrome = syndrome;
	p->aeth.msn = msn;
}

static struct rw_note feed_aeth(struct env *e, uint64_t ts, uint8_t opcode, uint32_t psn,
				uint8_t syndrome, uint32_t msn, uint32_t payload, uint32_t dmalen)
{
	struct rw_packet p;
	aeth_packet(&p, opcode, psn, syndrome, msn);
	p.payload_len = payload;
	p.reth.dmalen = dmalen;
	return feed_packet(e, ts, &p);
}

/* A request from A to B's QP; for READ requests payload is the DMA length. */
static struct rw_note req(struct env *e, uint64_t ts, uint8_t opcode, uint32_t psn, uint32_t len)
{
	return feed(e, ts, A_IP, B_IP, opcode, QP_B, psn, len, 0);
}

static const struct rw_flow *flow_ab(struct env *e)
{
	for (uint32_t i = 0; i < rw_analyzer_flow_count(e->a); i++) {
		const struct rw_flow *f = rw_analyzer_flow(e->a, i);
		if (f->key.dqpn == QP_B)
			return f;
	}
	fail_msg("no flow A->B");
	return NULL;
}

static const struct rw_flow *flow_ba(struct env *e)
{
	for (uint32_t i = 0; i < rw_analyzer_flow_count(e->a); i++) {
		const struct rw_flow *f = rw_analyzer_flow(e->a, i);
		if (f->key.dqpn == QP_A)
			return f;
	}
	fail_msg("no flow B->A");
	return NULL;
}

#define RC_WRITE_FIRST 0x06
#define RC_WRITE_MIDDLE 0x07
#define RC_WRITE_LAST 0x08
#define RC_SEND_ONLY 0x04
#define RC_READ_REQ 0x0C
#define RC_READ_FIRST 0x0D
#define RC_READ_MIDDLE 0x0E
#define RC_READ_LAST 0x0F
#define RC_READ_ONLY 0x10
#define RC_ACK 0x11
#define RC_ATOMIC_ACK 0x12
#define RC_CMP_SWAP 0x13
#define UC_SEND_ONLY 0x24
#define CNP 0x81

/* A 4-packet WRITE (PSN 100..103, 1024+1024+1024+500 bytes) acknowledged by
 * one ACK for PSN 103 that comes 7 us after the last packet. */
static void test_write_message_and_ack(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_WRITE_FIRST, 100, 1024);
	req(e, 2000, RC_WRITE_MIDDLE, 101, 1024);
	req(e, 3000, RC_WRITE_MIDDLE, 102, 1024);
	struct rw_note n = req(e, 4000, RC_WRITE_LAST, 103, 500);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(n.msg_bytes, 3572);
	n = feed_aeth(e, 11000, RC_ACK, 103, rw_aeth_syndrome(RW_AETH_ACK, 31), 1, 0, 0);
	assert_true(n.flags & RW_N_ACK);
	assert_int_equal(n.ack_count, 4);
	assert_int_equal(n.latency_ns, 7000);
	assert_int_equal(n.req_frame, 4);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->msgs_by_op[1], 1);
	assert_int_equal(f->bytes_by_op[1], 3572);
	assert_int_equal(f->psn_gaps + f->retransmissions + f->out_of_order, 0);
	assert_int_equal(f->acks, 1);
	assert_int_equal(f->ack_lat.count, 1);
	assert_int_equal(f->ack_lat.max_ns, 7000);
	assert_int_equal(flow_ba(e)->peer, (int32_t)(f - rw_analyzer_flow(e->a, 0)));
	env_free(e);
}

/* PSNs 1,2,4,5: PSN 3 never appears. */
static void test_gap(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 1, 8);
	req(e, 2, RC_SEND_ONLY, 2, 8);
	struct rw_note n = req(e, 3, RC_SEND_ONLY, 4, 8);
	assert_true(n.flags & RW_N_GAP);
	assert_int_equal(n.gap_len, 1);
	assert_int_equal(n.expected_psn, 3);
	req(e, 4, RC_SEND_ONLY, 5, 8);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->psn_gaps, 1);
	assert_int_equal(f->missing_psns, 1);
	/* The responder takes 4 and 5 only after 3: until a resend comes (or
	 * the capture ends and the hole is given up as a capture loss: no
	 * resend within 5 ms) they are held. */
	assert_int_equal(f->messages, 2);
	rw_analyzer_finish(e->a, 5000005);
	assert_int_equal(f->messages, 4);
	assert_int_equal(f->msg_incomplete, 0);
	env_free(e);
}

/* Receiver-side capture of a 3-packet WRITE whose MIDDLE (PSN 2) was lost
 * on the wire: FIRST 1, LAST 3, the NAK for 2, then the resent MIDDLE 2 and
 * LAST 3. The responder assembles one whole message of 3 x 256 bytes. */
static void test_hole_in_message(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_WRITE_FIRST, 1, 256);
	req(e, 2, RC_WRITE_LAST, 3, 256);
	feed_aeth(e, 3, RC_ACK, 2, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 0, 0, 0);
	req(e, 4, RC_WRITE_MIDDLE, 2, 256);
	struct rw_note n = req(e, 5, RC_WRITE_LAST, 3, 256);
	assert_true(n.flags & RW_N_RETRANS);
	rw_analyzer_finish(e->a, 6);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->bytes_by_op[1], 768);
	assert_int_equal(f->msg_orphans + f->msg_incomplete, 0);
	assert_int_equal(f->gbn_episodes, 1);
	env_free(e);
}

/* A hole the capture lost inside a message (no NAK, no resend): the
 * message it cut is incomplete, the stream goes on after it. */
static void test_capture_loss_in_message(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_WRITE_FIRST, 1, 256);
	req(e, 2, RC_WRITE_LAST, 3, 256); /* MIDDLE 2 never captured */
	req(e, 3, RC_SEND_ONLY, 4, 8);
	/* 5 ms later the capture ends: no resend came, the capture lost it. */
	rw_analyzer_finish(e->a, 5000003);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 1); /* the SEND */
	assert_int_equal(f->msg_incomplete, 1);
	assert_int_equal(f->msg_orphans, 1); /* the LAST after the hole */
	env_free(e);
}

/* Incast: a sender at line rate goes 200 PSNs past a hole before any
 * answer of its responder shows (the queue towards the responder holds
 * the packets that would make it NAK), and resends from the hole 50 us
 * later. More requests than the hold starts with (RW_HOLD_MIN) wait
 * behind the hole, yet it is young (under a millisecond) in a capture
 * that shows answers (another host's ACK): nothing says the capture lost
 * the packet, so they wait for the resend, and the WRITE is one whole
 * message with no orphans. (A capture of requests only gives the hole up
 * as the capture's loss: e2e_report_json, gaps.) */
static void test_young_hole_outwaits_the_hold(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	feed(e, 500, 0x0a000009u, A_IP, RC_ACK, 0x55, 7, 0, 0); /* another host answers */
	req(e, 1000, RC_WRITE_FIRST, 1, 256);
	/* MIDDLE 2 lost before the tap */
	for (uint32_t psn = 3; psn < 200; psn++)
		req(e, 1000 + 10 * psn, RC_WRITE_MIDDLE, psn, 256);
	req(e, 3000, RC_WRITE_LAST, 200, 256);
	for (uint32_t psn = 2; psn < 200; psn++) {
		struct rw_note n = req(e, 50000 + 10 * psn, RC_WRITE_MIDDLE, psn, 256);
		assert_false(n.flags & (RW_N_ORPHAN | RW_N_MSG_BROKEN));
	}
	req(e, 53000, RC_WRITE_LAST, 200, 256);
	rw_analyzer_finish(e->a, 60000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->msg_incomplete, 0);
	assert_int_equal(f->msg_orphans, 0);
	env_free(e);
}

/* Sender-side capture: 1..5 sent, the responder NAKs PSN 3 (sequence
 * error), the sender goes back and resends 3, 4, 5. */
static void test_go_back_n_sender_side(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	for (uint32_t psn = 1; psn <= 5; psn++)
		req(e, psn, RC_SEND_ONLY, psn, 8);
	struct rw_note n = feed_aeth(e, 10, RC_ACK, 3, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR),
				     2, 0, 0);
	assert_true(n.flags & RW_N_NAK);
	assert_int_equal(n.nak_kind, RW_NAKK_PSN_SEQ);
	assert_int_equal(n.req_frame, 3);
	n = req(e, 11, RC_SEND_ONLY, 3, 8);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	n = req(e, 12, RC_SEND_ONLY, 4, 8);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_GBN_START);
	req(e, 13, RC_SEND_ONLY, 5, 8);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->retransmissions, 3);
	assert_int_equal(f->gbn_episodes, 1);
	assert_int_equal(f->psn_gaps, 0);
	assert_int_equal(f->naks[RW_NAKK_PSN_SEQ], 1);
	assert_int_equal(f->messages, 5); /* resends are not new messages */
	env_free(e);
}

/* Receiver-side capture: PSN 3 was lost before the capture point, so the
 * capture shows 1,2,4,5, the NAK for 3, then the resent 3,4,5. */
static void test_go_back_n_receiver_side(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 1, 8);
	req(e, 2, RC_SEND_ONLY, 2, 8);
	req(e, 3, RC_SEND_ONLY, 4, 8);
	req(e, 4, RC_SEND_ONLY, 5, 8);
	feed_aeth(e, 5, RC_ACK, 3, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 2, 0, 0);
	struct rw_note n = req(e, 6, RC_SEND_ONLY, 3, 8);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_OOO);
	req(e, 7, RC_SEND_ONLY, 4, 8);
	req(e, 8, RC_SEND_ONLY, 5, 8);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->psn_gaps, 1);
	assert_int_equal(f->missing_psns, 1);
	assert_int_equal(f->retransmissions, 3);
	assert_int_equal(f->gbn_episodes, 1);
	assert_int_equal(f->out_of_order, 0);
	env_free(e);
}

/* PSNs 1,2,4,3,5: 3 overtaken by 4, nothing lost, nothing resent. */
static void test_reorder(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 1, 8);
	req(e, 2, RC_SEND_ONLY, 2, 8);
	req(e, 3, RC_SEND_ONLY, 4, 8);
	struct rw_note n = req(e, 4, RC_SEND_ONLY, 3, 8);
	assert_true(n.flags & RW_N_OOO);
	req(e, 5, RC_SEND_ONLY, 5, 8);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->out_of_order, 1);
	assert_int_equal(f->missing_psns, 0);
	assert_int_equal(f->retransmissions, 0);
	assert_int_equal(f->messages, 5);
	env_free(e);
}

/* PSN wrap at 2^24: 0xFFFFFE, 0xFFFFFF, 0, 1 is in order; 0xFFFFFF, 1 skips 0. */
static void test_psn_wrap(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 0xFFFFFE, 8);
	req(e, 2, RC_SEND_ONLY, 0xFFFFFF, 8);
	req(e, 3, RC_SEND_ONLY, 0, 8);
	req(e, 4, RC_SEND_ONLY, 1, 8);
	assert_int_equal(flow_ab(e)->psn_gaps, 0);
	struct rw_note n = req(e, 5, RC_SEND_ONLY, 3, 8);
	assert_int_equal(n.gap_len, 1);
	env_free(e);

	e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 0xFFFFFF, 8);
	n = req(e, 2, RC_SEND_ONLY, 1, 8);
	assert_true(n.flags & RW_N_GAP);
	assert_int_equal(n.gap_len, 1);
	assert_int_equal(n.expected_psn, 0);
	/* A resend across the wrap is a resend, not a 16M-PSN gap. */
	n = req(e, 3, RC_SEND_ONLY, 0xFFFFFF, 8);
	assert_true(n.flags & RW_N_RETRANS);
	env_free(e);
}

/* RNR NAK (timer code 14 = 1.28 ms) and every NAK code, each counted once. */
static void test_nak_kinds(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 10, 8);
	struct rw_note n = feed_aeth(e, 2, RC_ACK, 10, rw_aeth_syndrome(RW_AETH_RNR_NAK, 14), 0, 0, 0);
	assert_int_equal(n.nak_kind, RW_NAKK_RNR);
	feed_aeth(e, 3, RC_ACK, 10, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_INVALID_REQUEST), 0, 0, 0);
	feed_aeth(e, 4, RC_ACK, 10, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_REMOTE_ACCESS), 0, 0, 0);
	feed_aeth(e, 5, RC_ACK, 10, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_REMOTE_OPERATIONAL), 0, 0, 0);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->naks[RW_NAKK_RNR], 1);
	assert_int_equal(f->naks[RW_NAKK_INVALID_REQ], 1);
	assert_int_equal(f->naks[RW_NAKK_REMOTE_ACCESS], 1);
	assert_int_equal(f->naks[RW_NAKK_REMOTE_OP], 1);
	assert_int_equal(f->naks[RW_NAKK_PSN_SEQ], 0);
	assert_int_equal(f->acks, 0);
	assert_int_equal(rw_rnr_timer_us(14), 1280);
	env_free(e);
}

/* A READ of 3000 bytes at PSN 10 answered by three responses (1024-byte
 * MTU) at PSN 10, 11, 12; the next request uses PSN 13. */
static void test_read(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 100, RC_READ_REQ, 10, 3000);
	feed_aeth(e, 500, RC_READ_FIRST, 10, rw_aeth_syndrome(RW_AETH_ACK, 31), 0, 1024, 0);
	struct rw_note n = feed_aeth(e, 600, RC_READ_MIDDLE, 11, 0, 0, 1024, 0);
	assert_true(n.flags & RW_N_READ_MATCH);
	assert_int_equal(n.req_frame, 1);
	n = feed_aeth(e, 700, RC_READ_LAST, 12, rw_aeth_syndrome(RW_AETH_ACK, 31), 1, 952, 0);
	assert_true(n.flags & RW_N_READ_MATCH);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(n.latency_ns, 600);
	n = req(e, 800, RC_SEND_ONLY, 13, 8);
	assert_false(n.flags & RW_N_GAP);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msgs_by_op[2], 1);
	assert_int_equal(f->bytes_by_op[2], 3000);
	assert_int_equal(f->read_lat.count, 1);
	assert_int_equal(f->psn_gaps, 0);
	env_free(e);
}

/* A READ of 882 bytes with the path MTU not shown (no FIRST or MIDDLE)
 * takes 1 PSN at 1024 bytes and more, up to 4 at 256: with nothing else
 * known, a request 2 PSNs later is in sequence. But a SEND ONLY of the QP
 * carried 1500 bytes, so the MTU is 2048 or 4096 (no packet carries more
 * than the path MTU, IBA 9.7.4): the READ took one PSN and the request two
 * later skipped one, a gap; its message is held behind the hole. */
static void test_read_span_mtu_floor(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 1, 1500);
	req(e, 2, RC_READ_REQ, 2, 882);
	struct rw_note n = req(e, 3, RC_SEND_ONLY, 4, 8);
	assert_true(n.flags & RW_N_GAP);
	assert_int_equal(n.expected_psn, 3);
	assert_int_equal(n.gap_len, 1);
	assert_false(n.flags & RW_N_MSG_DONE);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->missing_psns, 1);
	/* Without the SEND's payload the same READ may span PSN 3: no gap. */
	env_free(e);
	e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 1, 200);
	req(e, 2, RC_READ_REQ, 2, 882);
	n = req(e, 3, RC_SEND_ONLY, 4, 8);
	assert_false(n.flags & RW_N_GAP);
	assert_true(n.flags & RW_N_MSG_DONE);
	env_free(e);
}

/* Compare-and-swap at PSN 20 answered by an atomic ACK for PSN 20. */
static void test_atomic(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 100, RC_CMP_SWAP, 20, 0);
	struct rw_note n = feed_aeth(e, 350, RC_ATOMIC_ACK, 20, rw_aeth_syndrome(RW_AETH_ACK, 31), 1, 0, 0);
	assert_true(n.flags & RW_N_ATOMIC_MATCH);
	assert_int_equal(n.latency_ns, 250);
	assert_int_equal(flow_ab(e)->msgs_by_op[3], 1);
	assert_int_equal(flow_ab(e)->atomic_lat.count, 1);
	env_free(e);
}

/* Three SENDs at PSN 1..3 covered by one coalesced ACK for PSN 3; then an
 * ACK whose MSN goes backwards. */
static void test_coalesced_ack_and_msn(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 10, RC_SEND_ONLY, 1, 8);
	req(e, 20, RC_SEND_ONLY, 2, 8);
	req(e, 30, RC_SEND_ONLY, 3, 8);
	struct rw_note n = feed_aeth(e, 45, RC_ACK, 3, rw_aeth_syndrome(RW_AETH_ACK, 31), 3, 0, 0);
	assert_int_equal(n.ack_count, 3);
	assert_int_equal(n.latency_ns, 15);
	n = feed_aeth(e, 46, RC_ACK, 3, rw_aeth_syndrome(RW_AETH_ACK, 31), 2, 0, 0);
	assert_true(n.flags & RW_N_MSN_REGRESS);
	assert_int_equal(flow_ab(e)->acked_psns, 3);
	env_free(e);
}

/* SENDs 2..5, a NAK for 3, the resent 3 and 4, then an ACK for 4: its
 * latency runs from the resent 4 (the latest request it covers), not from
 * the original 4 that still waits in front of the newer 5. */
static void test_ack_latency_after_resend(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	for (uint32_t psn = 2; psn <= 5; psn++)
		req(e, psn - 1, RC_SEND_ONLY, psn, 8);
	feed_aeth(e, 5, RC_ACK, 3, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 1, 0, 0);
	req(e, 10, RC_SEND_ONLY, 3, 8);
	req(e, 11, RC_SEND_ONLY, 4, 8);
	struct rw_note n = feed_aeth(e, 20, RC_ACK, 4, rw_aeth_syndrome(RW_AETH_ACK, 31), 3, 0, 0);
	assert_true(n.flags & RW_N_ACK);
	assert_int_equal(n.latency_ns, 9);
	assert_int_equal(n.req_frame, 7);
	env_free(e);
}

/* A WRITE that stops after FIRST and MIDDLE, and a MIDDLE with no FIRST. */
static void test_incomplete_messages(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_WRITE_FIRST, 1, 1024);
	req(e, 2, RC_WRITE_MIDDLE, 2, 1024);
	struct rw_note n = req(e, 3, RC_WRITE_FIRST, 3, 1024); /* a new message starts */
	assert_true(n.flags & RW_N_MSG_BROKEN);
	rw_analyzer_finish(e->a, 4);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msg_incomplete, 1); /* broken by the new FIRST */
	assert_int_equal(f->msg_cut_end, 1);    /* the second: the capture ended inside it */
	assert_int_equal(f->messages, 0);
	env_free(e);

	/* A capture that starts with a MIDDLE started inside its message: not
	 * an orphan. A MIDDLE after a complete message is one. */
	e = env_new(NULL);
	n = req(e, 1, RC_WRITE_MIDDLE, 7, 1024);
	assert_true(n.flags & RW_N_CUT_START);
	assert_false(n.flags & RW_N_ORPHAN);
	req(e, 2, RC_WRITE_LAST, 8, 1024);
	req(e, 3, RC_SEND_ONLY, 9, 8);
	n = req(e, 4, RC_WRITE_MIDDLE, 10, 1024);
	assert_true(n.flags & RW_N_ORPHAN);
	assert_int_equal(flow_ab(e)->msg_orphans, 1);
	assert_int_equal(flow_ab(e)->msg_cut_start, 1);
	assert_true(flow_ab(e)->first_mid_message);
	env_free(e);
}

/* UC traffic A->B with ECN: two ECT(0), then three CE marks; the receiver
 * B sends one CNP to A's QP 20 us after the first CE, another 100 us later
 * (the second CE group), and one with no CE before it in the window. A CNP
 * answers one mark, the oldest waiting: the first the CE at 3 us; the CE at
 * 4 us is out of the 50 us window by the second CNP, which answers the CE
 * at 110 us. */
static void test_ce_cnp(void **state)
{
	(void)state;
	struct rw_analyze_cfg cfg = { .cnp_window_ns = 50000 };
	struct env *e = env_new(&cfg);
	feed(e, 1000, A_IP, B_IP, UC_SEND_ONLY, QP_B, 1, 64, RW_ECN_ECT0);
	feed(e, 2000, A_IP, B_IP, UC_SEND_ONLY, QP_B, 2, 64, RW_ECN_ECT0);
	feed(e, 3000, A_IP, B_IP, UC_SEND_ONLY, QP_B, 3, 64, RW_ECN_CE);
	feed(e, 4000, A_IP, B_IP, UC_SEND_ONLY, QP_B, 4, 64, RW_ECN_CE);
	struct rw_note n = feed(e, 23000, B_IP, A_IP, CNP, QP_A, 0, 0, RW_ECN_ECT0);
	assert_true(n.flags & RW_N_CNP_LINKED);
	assert_int_equal(n.ce_count, 1);
	assert_int_equal(n.ce_frame, 3);
	feed(e, 110000, A_IP, B_IP, UC_SEND_ONLY, QP_B, 5, 64, RW_ECN_CE);
	n = feed(e, 123000, B_IP, A_IP, CNP, QP_A, 0, 0, RW_ECN_ECT0);
	assert_int_equal(n.ce_count, 1);
	assert_int_equal(n.ce_frame, 6);
	n = feed(e, 500000, B_IP, A_IP, CNP, QP_A, 0, 0, RW_ECN_ECT0);
	assert_false(n.flags & RW_N_CNP_LINKED);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->ecn[RW_ECN_ECT0], 2);
	assert_int_equal(f->ecn[RW_ECN_CE], 3);
	assert_int_equal(f->cnps, 3);
	assert_int_equal(f->cnp_min_interval_ns, 100000);
	assert_int_equal(rw_analyzer_totals(e->a)->cnps_unlinked, 1);
	env_free(e);
}

static void pfc(struct env *e, uint64_t ts, uint16_t cev, unsigned prio, uint16_t quanta)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.carrier = RW_CARRIER_PFC;
	/* from a switch port (no frame is addressed to it): its pause holds
	 * the requests (an Ethernet capture does not say it is a NIC's link) */
	static const uint8_t port[6] = {2, 0, 0, 0, 0xfe, 1};
	memcpy(p.eth.src, port, 6);
	p.macctrl.cev = cev;
	p.macctrl.quanta[prio] = quanta;
	uint8_t buf[128];
	size_t n;
	assert_int_equal(rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, buf, sizeof(buf), &n), RW_OK);
	struct rw_packet d;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, buf, n, n, &d), RW_OK);
	rw_analyzer_packet(e->a, &d, ts, ++e->frame, NULL);
}

/* At 100 Gb/s one quantum is 5.12 ns (802.1Qbb: 512 bit times), so 0xFFFF
 * quanta pause 335,539 ns (rounded). Priority 3 is refreshed every 100 us
 * for 20 ms: one continuous pause from t=0 to 19.9 ms + 335.539 us, longer
 * than the 10 ms storm threshold: one storm. Priority 5 pauses once and is
 * resumed by an XON 50 us later: 50 us paused, no storm. */
static void test_pfc_storm(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	for (uint64_t t = 0; t < 20000000; t += 100000)
		pfc(e, t, 1u << 3, 3, 0xFFFF);
	pfc(e, 30000000, 1u << 5, 5, 0xFFFF);
	pfc(e, 30050000, 1u << 5, 5, 0);
	/* A data packet on priority 3 (DSCP 24) while paused. */
	rw_analyzer_finish(e->a, 40000000);
	const struct rw_totals *t = rw_analyzer_totals(e->a);
	assert_int_equal(t->pfc[3].frames, 200);
	assert_int_equal(t->pfc[3].xoff, 200);
	assert_int_equal(t->pfc[3].storms, 1);
	assert_int_equal(t->pfc[3].paused_ns, 19900000 + 335539);
	assert_int_equal(t->pfc[3].longest_ns, 19900000 + 335539);
	assert_int_equal(t->pfc[5].xoff, 1);
	assert_int_equal(t->pfc[5].xon, 1);
	assert_int_equal(t->pfc[5].paused_ns, 50000);
	assert_int_equal(t->pfc[5].storms, 0);
	env_free(e);
}

/* Traffic sent while its priority is paused is counted against the flow. */
static void test_sent_while_paused(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	pfc(e, 1000, 1u << 0, 0, 1000); /* 5.12 us */
	req(e, 2000, RC_SEND_ONLY, 1, 8); /* DSCP 0 -> priority 0: paused */
	req(e, 9000, RC_SEND_ONLY, 2, 8); /* after the pause ran out */
	assert_int_equal(flow_ab(e)->pkts_while_paused, 1);
	env_free(e);
}

/* Two flows fit; the third is counted as untracked, not analysed. */
static void test_table_full(void **state)
{
	(void)state;
	struct rw_analyze_cfg cfg = { .max_flows = 2 };
	struct env *e = env_new(&cfg);
	feed(e, 1, A_IP, B_IP, RC_SEND_ONLY, 1, 1, 8, 0);
	feed(e, 2, A_IP, B_IP, RC_SEND_ONLY, 2, 1, 8, 0);
	struct rw_note n = feed(e, 3, A_IP, B_IP, RC_SEND_ONLY, 3, 1, 8, 0);
	assert_int_equal(n.flow, -1);
	assert_int_equal(rw_analyzer_flow_count(e->a), 2);
	assert_int_equal(rw_analyzer_totals(e->a)->untracked, 1);
	assert_int_equal(rw_analyzer_totals(e->a)->untracked_flows, 1);
	env_free(e);
}

/* Percentiles: 100 samples of 1..100 us. */
static void test_hist(void **state)
{
	(void)state;
	struct rw_flow *f = calloc(1, sizeof(*f));
	struct env *e = env_new(NULL);
	/* Drive the histogram through ACK latencies: request at t, ACK at t+k us. */
	for (uint32_t k = 1; k <= 100; k++) {
		uint64_t t = (uint64_t)k * 1000000;
		req(e, t, RC_SEND_ONLY, k, 8);
		feed_aeth(e, t + k * 1000, RC_ACK, k, rw_aeth_syndrome(RW_AETH_ACK, 31), k, 0, 0);
	}
	const struct rw_lat *h = &flow_ab(e)->ack_lat;
	assert_int_equal(h->count, 100);
	assert_int_equal(rw_lat_quantile(h, 1.0), 100000);
	uint64_t p50 = rw_lat_quantile(h, 0.5), p99 = rw_lat_quantile(h, 0.99);
	/* Bucket upper bounds: within 12.5% above the true value. */
	assert_true(p50 >= 50000 && p50 <= 50000 * 1.125);
	assert_true(p99 >= 99000 && p99 <= 100000);
	env_free(e);
	free(f);
}

/* A response from B to QP dqpn of A (ACK or NAK by syndrome). */
static struct rw_note resp(struct env *e, uint64_t ts, uint32_t src, uint32_t dqpn, uint32_t psn,
			   uint8_t syndrome, uint32_t msn)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.carrier = RW_CARRIER_ROCEV2;
	p.present = RW_P_IPV4;
	p.ipv4.src = src;
	p.ipv4.dst = A_IP;
	p.bth.opcode = RC_ACK;
	p.bth.pkey = 0xFFFF;
	p.bth.dqpn = dqpn;
	p.bth.psn = psn;
	p.aeth.syndrome = syndrome;
	p.aeth.msn = msn;
	return feed_packet(e, ts, &p);
}

static const struct rw_flow *flow_by(struct env *e, uint32_t src, uint32_t dqpn, uint32_t conv)
{
	for (uint32_t i = 0; i < rw_analyzer_flow_count(e->a); i++) {
		const struct rw_flow *f = rw_analyzer_flow(e->a, i);
		uint32_t fs = (uint32_t)f->key.src[0] << 24 | (uint32_t)f->key.src[1] << 16 |
			      (uint32_t)f->key.src[2] << 8 | f->key.src[3];
		if (fs == src && f->key.dqpn == dqpn && f->conversation == conv)
			return f;
	}
	fail_msg("no flow from %08x to qp %x, conversation %u", src, dqpn, conv);
	return NULL;
}

#define ACK_SYN 0x1F /* AETH ACK, credits invalid */

/* The capture starts inside a WRITE (MIDDLE, LAST) whose ACK follows: the
 * ACK echoes the LAST's PSN, which pairs the two directions; the message
 * the capture started inside is not an orphan, and its packets were new
 * only as far as the capture can tell (unsynced) until the ACK. */
static void test_pair_mid_capture(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	struct rw_note n = req(e, 1000, RC_WRITE_MIDDLE, 500, 256);
	assert_true(n.flags & RW_N_UNSYNCED);
	assert_true(n.flags & RW_N_CUT_START);
	req(e, 1100, RC_WRITE_LAST, 501, 256);
	n = resp(e, 5000, B_IP, QP_A, 501, ACK_SYN, 7);
	assert_true(n.flags & RW_N_PAIRED);
	assert_true(n.flags & RW_N_ACK);
	assert_int_equal(n.latency_ns, 3900); /* from the LAST */
	n = req(e, 6000, RC_SEND_ONLY, 502, 8);
	assert_false(n.flags & RW_N_UNSYNCED); /* known from the ACK on */
	const struct rw_flow *f = flow_ab(e), *g = flow_ba(e);
	assert_int_equal(f->peer, g->index);
	assert_int_equal(g->peer, f->index);
	assert_int_equal(f->pair_how, RW_PAIR_ACK);
	assert_int_equal(f->pair_frame, 3);
	assert_true(f->first_mid_message);
	assert_int_equal(f->msg_cut_start, 1);
	assert_int_equal(f->msg_orphans, 0);
	assert_int_equal(f->unsynced_pkts, 2);
	assert_int_equal(f->acks, 1);
	assert_int_equal(f->ack_lat.count, 1);
	env_free(e);
}

/* A resend of a PSN below the first one the capture saw is a resend (the
 * original went by before the capture), never a late packet. */
static void test_precapture_resend(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 20, 8);
	req(e, 2, RC_SEND_ONLY, 21, 8);
	struct rw_note n = req(e, 3, RC_SEND_ONLY, 18, 8); /* the sender went back */
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	assert_true(n.flags & RW_N_PRECAPTURE);
	assert_false(n.flags & RW_N_OOO);
	n = req(e, 4, RC_SEND_ONLY, 19, 8);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->retransmissions, 2);
	assert_int_equal(f->precapture_resends, 2);
	assert_int_equal(f->out_of_order, 0);
	env_free(e);
}

/* Two unrelated request flows from A to B (QPs 0x22 and 0x33) both send
 * PSN 50; an ACK to A's QP 0x11 naming 50 could answer either: no pair is
 * made. Their next PSNs differ (51 and 70): the next ACK decides. An ACK
 * from another host echoing the same PSN pairs with nothing. */
static void test_pair_never_guessed(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	const uint32_t C_IP = 0x0a000003u;
	feed(e, 1, A_IP, B_IP, RC_SEND_ONLY, 0x22, 50, 8, 0);
	feed(e, 2, A_IP, B_IP, RC_SEND_ONLY, 0x33, 50, 8, 0);
	struct rw_note n = resp(e, 10, B_IP, 0x11, 50, ACK_SYN, 1);
	assert_false(n.flags & RW_N_PAIRED);
	assert_int_equal(flow_by(e, B_IP, 0x11, 1)->peer, -1);
	assert_int_equal(flow_by(e, B_IP, 0x11, 1)->pair_ambiguous, 1);
	n = resp(e, 11, C_IP, 0x11, 50, ACK_SYN, 1);
	assert_false(n.flags & RW_N_PAIRED);
	feed(e, 20, A_IP, B_IP, RC_SEND_ONLY, 0x22, 51, 8, 0);
	feed(e, 21, A_IP, B_IP, RC_SEND_ONLY, 0x33, 70, 8, 0);
	n = resp(e, 30, B_IP, 0x11, 51, ACK_SYN, 2);
	assert_true(n.flags & RW_N_PAIRED);
	n = resp(e, 31, B_IP, 0x44, 70, ACK_SYN, 2);
	assert_true(n.flags & RW_N_PAIRED);
	assert_int_equal(flow_by(e, B_IP, 0x11, 1)->peer, flow_by(e, A_IP, 0x22, 1)->index);
	assert_int_equal(flow_by(e, B_IP, 0x44, 1)->peer, flow_by(e, A_IP, 0x33, 1)->index);
	assert_int_equal(flow_by(e, C_IP, 0x11, 1)->peer, -1);
	env_free(e);
}

/* QPs 0x22 and 0x33 of A both send PSN 50, 0x33 before the capture
 * started: the ACK of it (to B's QP 0x44) pairs with 0x22, the one flow
 * seen sending 50. When 0x44 then acknowledges 51, which 0x22 never sent,
 * the pair is undone and made again with 0x33, which did; 0x22's own ACK
 * (to 0x11) then finds it by the PSN it sent while wrongly paired. */
static void test_pair_undone(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	feed(e, 1000, A_IP, B_IP, RC_SEND_ONLY, 0x22, 50, 8, 0);
	struct rw_note n = resp(e, 2000, B_IP, 0x44, 50, ACK_SYN, 1);
	assert_true(n.flags & RW_N_PAIRED); /* wrongly: 0x33 not seen yet */
	feed(e, 3000, A_IP, B_IP, RC_SEND_ONLY, 0x33, 51, 8, 0);
	n = resp(e, 4000, B_IP, 0x44, 51, ACK_SYN, 2);
	assert_true(n.flags & RW_N_PAIRED);
	assert_int_equal(n.latency_ns, 1000); /* from 0x33's 51 */
	n = resp(e, 5000, B_IP, 0x11, 50, ACK_SYN, 1);
	assert_true(n.flags & RW_N_PAIRED);
	const struct rw_flow *q22 = flow_by(e, A_IP, 0x22, 1), *q33 = flow_by(e, A_IP, 0x33, 1);
	const struct rw_flow *r44 = flow_by(e, B_IP, 0x44, 1), *r11 = flow_by(e, B_IP, 0x11, 1);
	assert_int_equal(r44->peer, q33->index);
	assert_int_equal(q33->peer, r44->index);
	assert_int_equal(r11->peer, q22->index);
	assert_int_equal(q22->peer, r11->index);
	assert_int_equal(r44->unpaired, 1);
	assert_int_equal(q33->acks, 2);      /* both of 0x44's ACKs */
	assert_int_equal(q22->acks, 1);      /* its own, not 0x44's first */
	assert_int_equal(q22->ack_lat.count, 0); /* the wrong pair's sample dropped */
	assert_int_equal(q33->ack_lat.count, 1);
	assert_int_equal(r44->acks + r11->acks, 0);
	env_free(e);
}

/* A wrong pair's ACKs are not the measure of the requester's own: QP 0x22
 * sends 2 and 3; responder QP 0x44, answering another QP's requests sent
 * before the capture (1..4), pairs with it by its ACK of 2, acknowledges 3
 * and then 4, which 0x22 never sent: the pair is undone. 0x22's own
 * responder then acknowledges 2 and 3: no ACK went backwards (diff seed
 * 102743). */
static void test_pair_undone_acks_not_backwards(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	feed(e, 1000, A_IP, B_IP, RC_SEND_ONLY, 0x22, 2, 8, 0);
	feed(e, 1100, A_IP, B_IP, RC_SEND_ONLY, 0x22, 3, 8, 0);
	resp(e, 2000, B_IP, 0x44, 2, ACK_SYN, 2);
	resp(e, 2100, B_IP, 0x44, 3, ACK_SYN, 3);
	resp(e, 2200, B_IP, 0x44, 4, ACK_SYN, 4);
	resp(e, 2300, B_IP, 0x11, 2, ACK_SYN, 3);
	resp(e, 2400, B_IP, 0x11, 3, ACK_SYN, 4);
	const struct rw_flow *q22 = flow_by(e, A_IP, 0x22, 1), *r11 = flow_by(e, B_IP, 0x11, 1);
	assert_int_equal(q22->peer, r11->index);
	assert_true(!q22->conf || !q22->conf->count[RW_V_ACK_BACKWARDS]);
	env_free(e);
}

/* A plain ACK naming one of the peer's atomics (answered by atomic ACKs,
 * IBA 9.7.5.1) answers another QP: the pair made by elimination is undone.
 * And a responder acknowledges what AckReq asked for and a message's end:
 * an ACK naming a FIRST sent without AckReq pairs with nothing. */
static void test_pair_undone_by_ack_of_atomic(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	feed(e, 1000, A_IP, B_IP, RC_SEND_ONLY, 0x22, 0, 8, 0);
	feed(e, 1100, A_IP, B_IP, 0x14 /* FETCH_ADD */, 0x22, 1, 0, 0);
	struct rw_note n = resp(e, 2000, B_IP, 0x44, 0, ACK_SYN, 1);
	assert_true(n.flags & RW_N_PAIRED); /* wrongly: 0x33 sent 0 before the capture */
	feed(e, 2100, A_IP, B_IP, RC_SEND_ONLY, 0x33, 1, 8, 0);
	n = resp(e, 3000, B_IP, 0x44, 1, ACK_SYN, 2);
	assert_true(n.flags & RW_N_PAIRED);
	assert_int_equal(flow_by(e, B_IP, 0x44, 1)->peer, flow_by(e, A_IP, 0x33, 1)->index);
	assert_int_equal(flow_by(e, A_IP, 0x22, 1)->peer, -1);
	assert_int_equal(flow_by(e, B_IP, 0x44, 1)->unpaired, 1);

	feed(e, 4000, A_IP, B_IP, RC_WRITE_FIRST, 0x55, 100, 256, 0);
	n = resp(e, 4100, B_IP, 0x66, 100, ACK_SYN, 7);
	assert_false(n.flags & RW_N_PAIRED);
	feed(e, 4200, A_IP, B_IP, RC_WRITE_LAST, 0x55, 101, 8, 0);
	n = resp(e, 4300, B_IP, 0x77, 101, ACK_SYN, 3);
	assert_true(n.flags & RW_N_PAIRED);
	assert_int_equal(flow_by(e, A_IP, 0x55, 1)->peer, flow_by(e, B_IP, 0x77, 1)->index);
	assert_int_equal(flow_by(e, B_IP, 0x66, 1)->peer, -1);

	/* A flow that sent anything again: the responder acknowledges the
	 * duplicate with the last PSN it took, an atomic's: still its peer. */
	feed(e, 5000, A_IP, B_IP, RC_SEND_ONLY, 0x88, 200, 8, 0);
	feed(e, 5100, A_IP, B_IP, 0x14 /* FETCH_ADD */, 0x88, 201, 0, 0);
	n = resp(e, 5200, B_IP, 0x99, 200, ACK_SYN, 1);
	assert_true(n.flags & RW_N_PAIRED);
	feed(e, 6000, A_IP, B_IP, RC_SEND_ONLY, 0x88, 200, 8, 0);
	resp(e, 6100, B_IP, 0x99, 201, ACK_SYN, 2);
	assert_int_equal(flow_by(e, B_IP, 0x99, 1)->peer, flow_by(e, A_IP, 0x88, 1)->index);
	assert_int_equal(flow_by(e, B_IP, 0x99, 1)->unpaired, 0);
	env_free(e);
}

/* An atomic ACK from B to A's QP dqpn (the answer to a FETCH_ADD or
 * CMP_SWAP). */
static struct rw_note atomic_resp(struct env *e, uint64_t ts, uint32_t dqpn, uint32_t psn, uint32_t msn)
{
	struct rw_packet p;
	roce_init(&p, B_IP, A_IP, RC_ATOMIC_ACK, dqpn, psn);
	p.aeth.syndrome = ACK_SYN;
	p.aeth.msn = msn;
	return feed_packet(e, ts, &p);
}

/* QPs 0x22 and 0x33 of A both send PSN 50, 0x33 before the capture
 * started. B's QP 0x44 acknowledges 50 first: the one flow seen sending
 * it, 0x22, pairs with it. Then B's QP 0x11 acknowledges 50 too, which no
 * unpaired flow sent: two responders answered the PSN that made the pair,
 * one of them a QP the capture has not shown, so the pair was a guess and
 * is undone; a third ACK of 50 (0x55) decides nothing either. A PSN only
 * 0x22 sent (51) then pairs the responder that names it. */
static void test_pair_twin_undone(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	feed(e, 1000, A_IP, B_IP, RC_SEND_ONLY, 0x22, 50, 8, 0);
	struct rw_note n = resp(e, 2000, B_IP, 0x44, 50, ACK_SYN, 1);
	assert_true(n.flags & RW_N_PAIRED); /* wrongly, as it turns out */
	n = resp(e, 2100, B_IP, 0x11, 50, ACK_SYN, 1);
	assert_false(n.flags & RW_N_PAIRED);
	const struct rw_flow *q22 = flow_by(e, A_IP, 0x22, 1), *r44 = flow_by(e, B_IP, 0x44, 1);
	const struct rw_flow *r11 = flow_by(e, B_IP, 0x11, 1);
	assert_int_equal(r44->peer, -1);
	assert_int_equal(q22->peer, -1);
	assert_int_equal(r44->unpaired, 1);
	assert_int_equal(r11->pair_ambiguous, 1);
	n = resp(e, 2200, B_IP, 0x55, 50, ACK_SYN, 1);
	assert_false(n.flags & RW_N_PAIRED);
	assert_int_equal(flow_by(e, B_IP, 0x55, 1)->peer, -1);
	feed(e, 3000, A_IP, B_IP, RC_SEND_ONLY, 0x22, 51, 8, 0);
	n = resp(e, 4000, B_IP, 0x11, 51, ACK_SYN, 2);
	assert_true(n.flags & RW_N_PAIRED);
	assert_int_equal(r11->peer, q22->index);
	assert_int_equal(q22->peer, r11->index);
	assert_int_equal(r44->peer, -1);
	env_free(e);
}

/* B's QP 0x44 gives an atomic ACK for PSN 16, which no flow in the capture
 * sent. A's QP 0x22 shows itself with a SEND's LAST at 17: PSN 16 was the
 * packet before it in that SEND, not an atomic, so 0x44 answers another QP
 * (one whose requests went by before the capture started) and its ACK of
 * 18, which only 0x22 sent, pairs it with nothing; B's QP 0x11's does. */
static void test_pair_not_inside_message(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	struct rw_note n = atomic_resp(e, 1000, 0x44, 16, 1);
	assert_false(n.flags & RW_N_PAIRED);
	feed(e, 2000, A_IP, B_IP, 0x02 /* SEND_LAST */, 0x22, 17, 8, 0);
	feed(e, 2100, A_IP, B_IP, RC_SEND_ONLY, 0x22, 18, 8, 0);
	n = resp(e, 3000, B_IP, 0x44, 18, ACK_SYN, 2);
	assert_false(n.flags & RW_N_PAIRED);
	assert_int_equal(flow_by(e, B_IP, 0x44, 1)->peer, -1);
	n = resp(e, 3100, B_IP, 0x11, 18, ACK_SYN, 7);
	assert_true(n.flags & RW_N_PAIRED);
	assert_int_equal(flow_by(e, B_IP, 0x11, 1)->peer, flow_by(e, A_IP, 0x22, 1)->index);
	env_free(e);
}

/* QPs 0x22 and 0x33 of A send the same PSNs (5, 6); one sequence NAK of 5
 * comes back before the capture pairs anything. 0x22 goes back to 5 first:
 * the NAK refused its requests, and its resends complete them again. When
 * 0x33 then sends 5 again (its own timer), that NAK is answered already:
 * 0x33's messages, taken at their first copies, stay taken. */
static void test_nak_taken_once(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	feed(e, 1000, A_IP, B_IP, RC_SEND_ONLY, 0x22, 5, 8, 0);
	feed(e, 1001, A_IP, B_IP, RC_SEND_ONLY, 0x33, 5, 8, 0);
	feed(e, 1002, A_IP, B_IP, RC_SEND_ONLY, 0x22, 6, 8, 0);
	feed(e, 1003, A_IP, B_IP, RC_SEND_ONLY, 0x33, 6, 8, 0);
	resp(e, 2000, B_IP, 0x44, 5, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 0);
	struct rw_note n = feed(e, 3000, A_IP, B_IP, RC_SEND_ONLY, 0x22, 5, 8, 0);
	assert_true(n.flags & RW_N_MSG_DONE); /* refused by the NAK: done now */
	feed(e, 3001, A_IP, B_IP, RC_SEND_ONLY, 0x22, 6, 8, 0);
	n = feed(e, 500000, A_IP, B_IP, RC_SEND_ONLY, 0x33, 5, 8, 0);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_MSG_DONE); /* a duplicate of a message done */
	rw_analyzer_finish(e->a, 600000);
	assert_int_equal(flow_by(e, A_IP, 0x33, 1)->messages, 2);
	assert_int_equal(flow_by(e, A_IP, 0x22, 1)->messages, 2);
	env_free(e);
}

/* One QP pair, destroyed and created again with the same QP numbers: the
 * second connection's PSNs restart (at the same initial PSN, the hardest
 * case, or far away) after a silence. Each connection is a conversation of
 * its own: four flows, each pair paired within its conversation, and the
 * restart is neither a go-back-N nor a gap. */
static void reuse_case(uint32_t psn2)
{
	struct env *e = env_new(NULL);
	uint64_t t = 1000000;
	for (int c = 0; c < 2; c++) {
		uint32_t psn = c ? psn2 : 1000;
		for (uint32_t i = 0; i < 4; i++, t += 10000) {
			struct rw_note n = req(e, t, RC_SEND_ONLY, psn + i, 64);
			if (c && !i)
				assert_true(n.flags & RW_N_NEW_CONV);
			resp(e, t + 2000, B_IP, QP_A, psn + i, ACK_SYN, i + 1);
		}
		t += 50000000; /* 50 ms: the QPs are torn down and made again */
	}
	assert_int_equal(rw_analyzer_flow_count(e->a), 4);
	for (uint32_t c = 1; c <= 2; c++) {
		const struct rw_flow *q = flow_by(e, A_IP, QP_B, c), *r = flow_by(e, B_IP, QP_A, c);
		assert_int_equal(q->peer, r->index);
		assert_int_equal(r->peer, q->index);
		assert_int_equal(q->messages, 4);
		assert_int_equal(q->acks, 4);
		assert_int_equal(q->ack_lat.count, 4);
		assert_int_equal(q->retransmissions + q->gbn_episodes + q->psn_gaps, 0);
		assert_int_equal(q->msn_regressions, 0);
	}
	assert_int_equal(flow_by(e, A_IP, QP_B, 2)->prev_conv, flow_by(e, A_IP, QP_B, 1)->index);
	assert_int_equal(rw_analyzer_totals(e->a)->conversations_reused, 2); /* both directions */
	env_free(e);
}

static void test_qp_reuse(void **state)
{
	(void)state;
	reuse_case(1000);    /* the same initial PSN */
	reuse_case(9000000); /* a new random one */
}

/* ---- conformance (truth: what each scenario did wrong on purpose) ---- */

#define NAK_SEQ rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR)

static const struct rw_conform *conf_ab(struct env *e)
{
	const struct rw_conform *c = flow_ab(e)->conf;
	assert_non_null(c);
	return c;
}

/* The capture starts after the requester sent atomics 0..2 and a SEND at
 * 3..5 (4 lost): it shows the SEND's LAST at 5, then the responder's atomic
 * ACKs of 1 and 2 (0's lost) before anything pairs, then a sequence NAK of
 * 4, which pairs the two directions. The requester goes back to atomic 0:
 * the ACKs of 1 and 2, answers to it, showed 0's answer missing before the
 * NAK came, so that go-back is implied (IBA 9.7.5.1.4), not the NAK's. */
static void test_conform_implied_before_pairing(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, 0x02 /* SEND_LAST */, 5, 8);
	feed_aeth(e, 3000, RC_ATOMIC_ACK, 1, ACK_SYN, 1, 0, 0);
	feed_aeth(e, 3017, RC_ATOMIC_ACK, 2, ACK_SYN, 2, 0, 0);
	struct rw_note n =
		feed_aeth(e, 3400, RC_ACK, 4, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 2, 0, 0);
	assert_true(n.flags & RW_N_PAIRED);
	n = req(e, 6000, RC_CMP_SWAP, 0, 0);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_implied, 1);
	assert_int_equal(c->resend_by_nak, 0);
	env_free(e);
}

/* The capture starts with a NAK for PSN 3 and then shows its requester's
 * first request, at 3: that request answered the NAK (the first packet a
 * flow shows is no go-back). The go-back to 3 long after, before the ACK
 * that pairs the two, is its timer's, not the NAK's (seed 105044). */
static void test_conform_nak_before_first_request(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	resp(e, 1000, B_IP, QP_A, 3, NAK_SEQ, 2);
	for (uint32_t psn = 3; psn <= 5; psn++)
		req(e, psn * 1000, RC_SEND_ONLY, psn, 8);
	struct rw_note n = req(e, 300000, RC_SEND_ONLY, 3, 8);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, 301000, RC_SEND_ONLY, 4, 8);
	req(e, 302000, RC_SEND_ONLY, 5, 8);
	n = resp(e, 310000, B_IP, QP_A, 5, ACK_SYN, 5);
	assert_true(n.flags & RW_N_PAIRED);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_nak, 0);
	assert_int_equal(c->resend_by_timeout, 1);
	env_free(e);
}

/* PSNs 1..5 at t=1..5 us; the responder NAKs 3 twice before the resend
 * comes (a second NAK for the same hole), then the resend starts at 3. */
static void test_conform_dup_nak(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	for (uint32_t psn = 1; psn <= 5; psn++)
		req(e, psn * 1000, RC_SEND_ONLY, psn, 8);
	resp(e, 10000, B_IP, QP_A, 3, NAK_SEQ, 2);
	resp(e, 11000, B_IP, QP_A, 3, NAK_SEQ, 2);
	req(e, 12000, RC_SEND_ONLY, 3, 8);
	req(e, 13000, RC_SEND_ONLY, 4, 8);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->count[RW_V_DUP_NAK], 1);
	assert_int_equal(c->frames[RW_V_DUP_NAK][0], 7);
	assert_int_equal(c->count[RW_V_RESEND_WRONG_START], 0);
	/* NAK generation: PSN 4 (t=4 us) found the hole, the NAK at 10 us. */
	assert_int_equal(c->nak_gen.count, 1);
	assert_int_equal(rw_lat_quantile(&c->nak_gen, 1), 6000);
	/* NAK response: from the first NAK to the resend of 3. */
	assert_int_equal(c->nak_resp.count, 1);
	assert_int_equal(rw_lat_quantile(&c->nak_resp, 1), 2000);
	/* Retransmission: 3 first sent at 3 us, resent at 12 us; 4: 4 -> 13. */
	assert_int_equal(c->retx.count, 2);
	assert_int_equal(rw_lat_quantile(&c->retx, 1), 9000);
	assert_int_equal(c->resend_by_nak, 1);
	assert_int_equal(c->resend_by_timeout, 0);
	env_free(e);
}

/* A sequence NAK naming a PSN the responder had acknowledged, one naming a
 * PSN never sent, an ACK and an MSN going backwards, and a resend that
 * starts past the NAKed PSN. */
static void test_conform_wrong_naks_and_acks(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	for (uint32_t psn = 1; psn <= 4; psn++)
		req(e, psn * 1000, RC_SEND_ONLY, psn, 8);
	resp(e, 5000, B_IP, QP_A, 2, ACK_SYN, 2);
	resp(e, 6000, B_IP, QP_A, 1, NAK_SEQ, 2);  /* 1 was acknowledged (frame 6) */
	resp(e, 7000, B_IP, QP_A, 9, NAK_SEQ, 2);  /* 9 was never sent (frame 7) */
	resp(e, 8000, B_IP, QP_A, 3, ACK_SYN, 3);
	resp(e, 9000, B_IP, QP_A, 2, ACK_SYN, 1);  /* back: PSN and MSN (frame 9) */
	for (uint32_t psn = 5; psn <= 7; psn++)
		req(e, psn * 10000, RC_SEND_ONLY, psn, 8);
	resp(e, 80000, B_IP, QP_A, 5, NAK_SEQ, 3);
	req(e, 81000, RC_SEND_ONLY, 6, 8);         /* should have been 5 (frame 14) */
	rw_analyzer_finish(e->a, 90000); /* (judged at the end: no PSN gap shows later) */
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->count[RW_V_NAK_WRONG_PSN], 2);
	assert_int_equal(c->frames[RW_V_NAK_WRONG_PSN][0], 6);
	assert_int_equal(c->frames[RW_V_NAK_WRONG_PSN][1], 7);
	assert_int_equal(c->count[RW_V_ACK_BACKWARDS], 1);
	assert_int_equal(c->frames[RW_V_ACK_BACKWARDS][0], 9);
	assert_int_equal(c->count[RW_V_MSN_BACKWARDS], 1);
	assert_int_equal(c->count[RW_V_RESEND_WRONG_START], 1);
	assert_int_equal(c->frames[RW_V_RESEND_WRONG_START][0], 14);
	assert_int_equal(c->count[RW_V_DUP_NAK], 0);
	env_free(e);
}

/* The window starts inside a SEND (its LAST at 3), the responder NAKs 1
 * (lost before the capture point, every time), and the sender resends
 * from 2: the window shows that SEND from its FIRST, never taken before
 * the capture ends. It is cut by the capture end, not also by its start
 * (diff seed 102683). */
static void test_cut_start_resent_from_first_open_at_end(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, 0x02, 3, 256);       /* SEND LAST */
	req(e, 1100, RC_SEND_ONLY, 4, 8);
	resp(e, 2000, B_IP, QP_A, 1, NAK_SEQ, 0);
	for (int k = 0; k < 3; k++) {
		req(e, 3000 + k * 1000, 0x00, 2, 256); /* SEND FIRST */
		req(e, 3100 + k * 1000, 0x02, 3, 256);
		req(e, 3200 + k * 1000, RC_SEND_ONLY, 4, 8);
	}
	rw_analyzer_finish(e->a, 7000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 0);
	assert_int_equal(f->msg_cut_start, 0);
	assert_int_equal(f->msg_cut_end, 2);
	assert_int_equal(f->msg_incomplete + f->msg_orphans, 0);
	env_free(e);
}

/* A NAK the capture shows before the first request of its flow (the
 * window starts after the requests it refuses): the flow, first seen after
 * it, goes back to the NAKed PSN. The NAK is its own: the responder took
 * nothing from 5 on, so 5..8 are messages its go-back brings, none cut by
 * the capture start (diff seed 102470). */
static void test_nak_before_flow_is_its_go_backs(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	resp(e, 1000, B_IP, QP_A, 5, NAK_SEQ, 2);
	req(e, 2000, RC_SEND_ONLY, 8, 8);
	for (uint32_t psn = 5; psn <= 8; psn++)
		req(e, 3000 + psn * 100, RC_SEND_ONLY, psn, 8);
	rw_analyzer_finish(e->a, 10000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 4);
	assert_int_equal(f->msg_cut_start + f->msg_cut_end + f->msg_incomplete + f->msg_orphans, 0);
	env_free(e);
}

/* An unpaired NAK names PSN 3, fifteen before the first request the
 * capture shows (too far to pair by: no flow sent it, none has a hole
 * there). The go-back the capture shows next starts at 4, its resend of 3
 * lost before the capture point: it answers the NAK, and the responder
 * took nothing from 3 on. A timeout's go-back from 3 brings it all again:
 * the WRITE that ends at 5 began before the capture (cut by its start),
 * the atomics, two SENDs and the WRITE after it are messages of the
 * window (diff seed 102470). */
static void test_go_back_past_its_nak(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_CMP_SWAP, 18, 0);
	req(e, 1100, RC_WRITE_MIDDLE, 21, 256);
	req(e, 1200, RC_WRITE_MIDDLE, 23, 256);
	resp(e, 2000, B_IP, QP_A, 3, NAK_SEQ, 2);
	static const struct { uint8_t op; uint32_t psn; } back[] = {
		{RC_WRITE_MIDDLE, 4}, {RC_WRITE_LAST, 5}, {RC_CMP_SWAP, 6}, {0x01, 11}, {0x02, 12},
		{0x00, 13}, {0x01, 14}, {RC_CMP_SWAP, 18}, {RC_WRITE_MIDDLE, 23},
	};
	for (unsigned k = 0; k < sizeof(back) / sizeof(back[0]); k++)
		req(e, 3000 + k * 100, back[k].op, back[k].psn, back[k].op == RC_CMP_SWAP ? 0 : 256);
	uint32_t t = 200000;
	req(e, t, RC_WRITE_MIDDLE, 3, 256);
	req(e, t += 100, RC_WRITE_MIDDLE, 4, 256);
	req(e, t += 100, RC_WRITE_LAST, 5, 256);
	req(e, t += 100, RC_CMP_SWAP, 6, 0);
	req(e, t += 100, 0x00, 7, 256);
	for (uint32_t psn = 8; psn <= 11; psn++)
		req(e, t += 100, 0x01, psn, 256);
	req(e, t += 100, 0x02, 12, 256);
	req(e, t += 100, 0x00, 13, 256);
	for (uint32_t psn = 14; psn <= 16; psn++)
		req(e, t += 100, 0x01, psn, 256);
	req(e, t += 100, 0x02, 17, 256);
	req(e, t += 100, RC_CMP_SWAP, 18, 0);
	req(e, t += 100, RC_WRITE_FIRST, 19, 256);
	for (uint32_t psn = 20; psn <= 24; psn++)
		req(e, t += 100, RC_WRITE_MIDDLE, psn, 256);
	req(e, t += 100, RC_WRITE_LAST, 25, 256);
	rw_analyzer_finish(e->a, t + 100000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 5);
	assert_int_equal(f->msg_cut_start, 1);
	assert_int_equal(f->msg_cut_end + f->msg_incomplete + f->msg_orphans, 0);
	env_free(e);
}

/* A resend seen starting past the NAKed PSN on a flow that had shown no
 * loss before the capture point yet. Later in the capture a PSN gap (how
 * 1) or a resend run that skips PSNs (how 2: a timer's go-back seen as 7,
 * 9, the resend of 8 lost) shows the network drops before the capture
 * point, where the resends of the NAKed PSN may have gone too: no
 * violation; with neither to the end (how 0), one (diff seeds 102258,
 * 104717). */
static void test_conform_wrong_start_judged_at_end(void **state)
{
	(void)state;
	for (int how = 0; how <= 2; how++) {
		struct env *e = env_new(NULL);
		for (uint32_t psn = 1; psn <= 6; psn++)
			req(e, psn * 1000, RC_SEND_ONLY, psn, 8);
		resp(e, 7000, B_IP, QP_A, 3, NAK_SEQ, 2);
		/* resends of 3..5 dropped before the capture point */
		req(e, 20000, RC_SEND_ONLY, 6, 8);
		for (uint32_t psn = 7; psn <= 9; psn++)
			req(e, 20000 + psn * 1000, RC_SEND_ONLY, psn + (how == 1 && psn >= 8 ? 2 : 0), 8);
		for (uint32_t psn = 7; how == 2 && psn <= 9; psn++)
			if (psn != 8)
				req(e, 300000 + psn * 1000, RC_SEND_ONLY, psn, 8);
		rw_analyzer_finish(e->a, 1000000);
		const struct rw_conform *c = conf_ab(e);
		assert_int_equal(flow_ab(e)->psn_gaps, how == 1);
		assert_int_equal(c->count[RW_V_RESEND_WRONG_START], how == 0);
		if (how == 0)
			assert_int_equal(c->frames[RW_V_RESEND_WRONG_START][0], 8);
		env_free(e);
	}
}

/* No NAK: the sender goes back by itself (a timeout); the resend is told
 * apart from NAK-driven ones and its delay measured from the first send. */
static void test_conform_timeout_resend(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	for (uint32_t psn = 1; psn <= 3; psn++)
		req(e, psn * 1000, RC_SEND_ONLY, psn, 8);
	req(e, 100000, RC_SEND_ONLY, 2, 8);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_timeout, 1);
	assert_int_equal(c->resend_by_nak, 0);
	assert_int_equal(c->timeout.count, 1);
	assert_int_equal(rw_lat_quantile(&c->timeout, 1), 98000);
	env_free(e);
}

/* ---- a NAK nobody answered (truth: what each scenario's requester did) ---- */

#define MS 1000000ull

/* rxe's view of a lost request: PSNs 1, 2, 4, 5 at 1..4 us (3 was lost
 * before the capture point), the sequence NAK for 3 at 6 us (frame 5),
 * then new requests 6, 7, ... every step_ns after the NAK up to until_ns
 * after it (frames 6, 7, ...), none of them a resend. */
#define NAK_TS 6000ull
static uint32_t nak_then_new(struct env *e, uint64_t step_ns, uint64_t until_ns)
{
	req(e, 1000, RC_SEND_ONLY, 1, 8);
	req(e, 2000, RC_SEND_ONLY, 2, 8);
	req(e, 3000, RC_SEND_ONLY, 4, 8);
	req(e, 4000, RC_SEND_ONLY, 5, 8);
	resp(e, NAK_TS, B_IP, QP_A, 3, NAK_SEQ, 2);
	uint32_t psn = 6;
	for (uint64_t t = step_ns; t <= until_ns; t += step_ns)
		req(e, NAK_TS + t, RC_SEND_ONLY, psn++, 8);
	return psn;
}

static uint64_t nak_ignored_count(struct env *e)
{
	const struct rw_flow *f = flow_ab(e);
	return f->conf ? f->conf->count[RW_V_NAK_IGNORED] : 0;
}

/* The requester never resends 3 and sends new requests every 10 ms for
 * 200 ms: the first past 67.108864 ms is the 7th (70 ms, frame 12). The
 * verdict is the capture end's; before it the engine says what it would
 * judge now. */
static void test_nak_ignored(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	nak_then_new(e, 10 * MS, 200 * MS);
	uint32_t i = (uint32_t)flow_ab(e)->index;
	uint64_t nak = 0, first = 0;
	assert_int_equal(rw_analyzer_rto(e->a, i), 67108864);
	assert_int_equal(nak_ignored_count(e), 0);
	assert_true(rw_analyzer_nak_ignored(e->a, i, &nak, &first));
	assert_int_equal(nak, 5);
	assert_int_equal(first, 12);
	rw_analyzer_finish(e->a, NAK_TS + 200 * MS);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->count[RW_V_NAK_IGNORED], 1);
	assert_int_equal(c->frames[RW_V_NAK_IGNORED][0], 5);
	assert_int_equal(c->nak_ignored_req[0], 12);
	assert_int_equal(c->nak_ignored_rto_ns, 67108864);
	assert_string_equal(rw_violation_key(RW_V_NAK_IGNORED), "nak_ignored");
	/* and no other verdict: one NAK, for a hole, never repeated */
	for (unsigned v = 0; v < RW_V_COUNT; v++)
		if (v != RW_V_NAK_IGNORED)
			assert_int_equal(c->count[v], 0);
	/* judged once, however often the end is asked */
	rw_analyzer_finish(e->a, NAK_TS + 200 * MS);
	assert_int_equal(c->count[RW_V_NAK_IGNORED], 1);
	env_free(e);
}

/* The NAK answered: by the resend of 3 at 10 ms (go-back-N 3, 4, 5);
 * by the requester's timer at 100 ms, after new requests past the default
 * timeout (a slow timer: its own resend shows it, the NAK may have been
 * lost past the capture point); or by an ACK past 3 (the resend went by
 * where the capture did not see it). New requests go on to 200 ms after
 * the NAK each time: none is flagged. */
static void test_nak_answered(void **state)
{
	(void)state;
	for (int how = 0; how < 3; how++) {
		struct env *e = env_new(NULL);
		uint64_t at = how == 1 ? 100 * MS : 10 * MS;
		uint32_t psn = nak_then_new(e, 10 * MS, at - 10 * MS);
		if (how == 2) {
			resp(e, NAK_TS + at, B_IP, QP_A, 5, ACK_SYN, 3);
		} else {
			req(e, NAK_TS + at, RC_SEND_ONLY, 3, 8);
			req(e, NAK_TS + at + 1000, RC_SEND_ONLY, 4, 8);
			req(e, NAK_TS + at + 2000, RC_SEND_ONLY, 5, 8);
			for (uint32_t q = 6; q < psn; q++)
				req(e, NAK_TS + at + 2000 + q * 1000, RC_SEND_ONLY, q, 8);
		}
		for (uint64_t t = at + 10 * MS; t <= 200 * MS; t += 10 * MS)
			req(e, NAK_TS + t, RC_SEND_ONLY, psn++, 8);
		rw_analyzer_finish(e->a, NAK_TS + 200 * MS);
		assert_false(rw_analyzer_nak_ignored(e->a, (uint32_t)flow_ab(e)->index, NULL, NULL));
		assert_int_equal(nak_ignored_count(e), 0);
		env_free(e);
	}
}

/* The capture ends before the timeout could have fired: new requests for
 * 60 ms after the NAK, the end at 60 ms; or the end 500 ms after it with
 * no request after 60 ms (a requester waiting for its timer sends nothing
 * new). Neither is a NAK ignored. */
static void test_nak_capture_ends_first(void **state)
{
	(void)state;
	for (int late_end = 0; late_end < 2; late_end++) {
		struct env *e = env_new(NULL);
		nak_then_new(e, 10 * MS, 60 * MS);
		rw_analyzer_finish(e->a, NAK_TS + (late_end ? 500 : 60) * MS);
		assert_int_equal(nak_ignored_count(e), 0);
		env_free(e);
	}
}

/* A requester whose timer is slower than the default: early on it resent
 * PSN 2 150 ms after sending it (no NAK: its timer). A NAK later left
 * unanswered while new requests go on for 120 ms is within that; for
 * 200 ms it is past it, and judged by the flow's own 150 ms. */
static void test_nak_own_slow_timer(void **state)
{
	(void)state;
	for (int longer = 0; longer < 2; longer++) {
		struct env *e = env_new(NULL);
		req(e, 1000, RC_SEND_ONLY, 1, 8);
		req(e, 2000, RC_SEND_ONLY, 2, 8);
		resp(e, 3000, B_IP, QP_A, 1, ACK_SYN, 1);
		req(e, 2000 + 150 * MS, RC_SEND_ONLY, 2, 8);   /* frame 4: the timer's resend */
		resp(e, 3000 + 150 * MS, B_IP, QP_A, 2, ACK_SYN, 2);
		const uint64_t t0 = 200 * MS;
		req(e, t0 + 1000, RC_SEND_ONLY, 3, 8);
		req(e, t0 + 2000, RC_SEND_ONLY, 5, 8);         /* 4 lost */
		resp(e, t0 + 3000, B_IP, QP_A, 4, NAK_SEQ, 3); /* frame 8 */
		uint32_t psn = 6;
		uint64_t until = longer ? 200 * MS : 120 * MS;
		for (uint64_t t = 10 * MS; t <= until; t += 10 * MS)
			req(e, t0 + 3000 + t, RC_SEND_ONLY, psn++, 8);
		rw_analyzer_finish(e->a, t0 + 3000 + until);
		const struct rw_flow *f = flow_ab(e);
		assert_int_equal(rw_analyzer_rto(e->a, (uint32_t)f->index), 150 * MS);
		if (!longer) {
			assert_int_equal(nak_ignored_count(e), 0);
		} else {
			const struct rw_conform *c = conf_ab(e);
			assert_int_equal(c->count[RW_V_NAK_IGNORED], 1);
			assert_int_equal(c->frames[RW_V_NAK_IGNORED][0], 8);
			/* the 16th request after the NAK (160 ms): frame 8 + 16 */
			assert_int_equal(c->nak_ignored_req[0], 24);
			assert_int_equal(c->nak_ignored_rto_ns, 150 * MS);
		}
		env_free(e);
	}
}

/* The timeout is the configuration's (rocewire-cap --rto): new requests
 * for 100 ms after the NAK are past 50 ms but within 200 ms. */
static void test_nak_rto_configured(void **state)
{
	(void)state;
	const uint64_t rto[] = {50 * MS, 200 * MS};
	for (int k = 0; k < 2; k++) {
		struct rw_analyze_cfg cfg = {.rto_ns = rto[k]};
		struct env *e = env_new(&cfg);
		nak_then_new(e, 10 * MS, 100 * MS);
		rw_analyzer_finish(e->a, NAK_TS + 100 * MS);
		assert_int_equal(rw_analyzer_rto(e->a, (uint32_t)flow_ab(e)->index), rto[k]);
		assert_int_equal(nak_ignored_count(e), k == 0);
		if (k == 0)
			/* 50 ms is not past 50 ms: 60 ms, the 6th after the NAK (frame 5) */
			assert_int_equal(conf_ab(e)->nak_ignored_req[0], 11);
		env_free(e);
	}
}

/* A READ request (or its re-issue) with a remote address. */
static struct rw_note read_req(struct env *e, uint64_t ts, uint32_t psn, uint64_t va, uint32_t len)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.carrier = RW_CARRIER_ROCEV2;
	p.present = RW_P_IPV4;
	p.ipv4.src = A_IP;
	p.ipv4.dst = B_IP;
	p.bth.opcode = RC_READ_REQ;
	p.bth.pkey = 0xFFFF;
	p.bth.dqpn = QP_B;
	p.bth.psn = psn;
	p.reth.va = va;
	p.reth.rkey = 0x1234;
	p.reth.dmalen = len;
	return feed_packet(e, ts, &p);
}

/* A 4 KiB READ answered in 1 KiB segments: two arrive, the rest is lost.
 * Re-issued at psn2 (the first missing one is 12: address +2 KiB, 2 KiB
 * left) with address va2 and length len2. */
static void read_case_at(uint32_t psn2, uint64_t va2, uint32_t len2, uint64_t want)
{
	struct env *e = env_new(NULL);
	read_req(e, 1000, 10, 0x10000, 4096);
	feed_aeth(e, 2000, RC_READ_FIRST, 10, ACK_SYN, 1, 1024, 0);
	feed_aeth(e, 2100, RC_READ_MIDDLE, 11, 0, 0, 1024, 0);
	read_req(e, 50000, psn2, va2, len2);
	const struct rw_flow *f = flow_ab(e);
	uint64_t got = f->conf ? f->conf->count[RW_V_READ_RESUME_WRONG] : 0;
	assert_int_equal(got, want);
	env_free(e);
}

static void read_case(uint64_t va2, uint32_t len2, uint64_t want)
{
	read_case_at(12, va2, len2, want);
}

/* A READ response from B to A's QP dqpn; bad: its ICRC is bad. */
static struct rw_note read_resp_crc(struct env *e, uint64_t ts, uint32_t dqpn, uint8_t opcode, uint32_t psn,
				    uint32_t msn, uint32_t len, int bad)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.carrier = RW_CARRIER_ROCEV2;
	p.present = RW_P_IPV4;
	p.ipv4.src = B_IP;
	p.ipv4.dst = A_IP;
	p.bth.opcode = opcode;
	p.bth.pkey = 0xFFFF;
	p.bth.dqpn = dqpn;
	p.bth.psn = psn;
	p.aeth.syndrome = ACK_SYN;
	p.aeth.msn = msn;
	p.payload_len = len;
	if (bad)
		p.icrc_status = RW_CRC_BAD;
	return feed_packet(e, ts, &p);
}

static struct rw_note read_resp(struct env *e, uint64_t ts, uint32_t dqpn, uint8_t opcode, uint32_t psn,
				uint32_t msn, uint32_t len)
{
	return read_resp_crc(e, ts, dqpn, opcode, psn, msn, len, 0);
}

/* A 16 KiB READ at 1 (MTU unknown: 4 PSNs at least, up to 64) answered in
 * 4 (1..4); the SEND at 5 is lost before the capture point, and the next
 * at 6 is taken as within the READ's span, no gap. The NAK for 5 shows the
 * capture never saw it: loss before the capture point, where the resend of
 * 5 may have gone too, so a go-back seen starting at 6 is no violation. A
 * NAK for 6, which the capture saw, answered by a go-back from 7 on a flow
 * with no gap is one (diff seed 103117). */
static void test_conform_wrong_start_nak_unseen(void **state)
{
	(void)state;
	for (int seen = 0; seen <= 1; seen++) {
		struct env *e = env_new(NULL);
		read_req(e, 1000, 1, 0x10000, 16384);
		for (uint32_t psn = 6; psn <= 9; psn++)
			req(e, 1000 + psn * 100, RC_SEND_ONLY, psn, 64);
		read_resp(e, 3000, QP_A, RC_READ_FIRST, 1, 1, 4096);
		read_resp(e, 3100, QP_A, RC_READ_MIDDLE, 2, 0, 4096);
		read_resp(e, 3200, QP_A, RC_READ_MIDDLE, 3, 0, 4096);
		read_resp(e, 3300, QP_A, RC_READ_LAST, 4, 1, 4096);
		uint32_t naked = 5 + (uint32_t)seen;
		feed_aeth(e, 4000, RC_ACK, naked, NAK_SEQ, 1, 0, 0);
		for (uint32_t psn = naked + 1; psn <= 9; psn++)
			req(e, 10000 + psn * 100, RC_SEND_ONLY, psn, 64);
		rw_analyzer_finish(e->a, 100000);
		const struct rw_conform *c = conf_ab(e);
		assert_int_equal(flow_ab(e)->psn_gaps, 0);
		assert_int_equal(c->count[RW_V_RESEND_WRONG_START], seen);
		env_free(e);
	}
}

/* A 10 KiB READ of 10..19 (1 KiB MTU) requested before the capture, which
 * starts inside its answer: 15, 17..19 (16 lost before the capture point).
 * It is answered again from 10 (a re-issue before the capture) with 12
 * lost, and the requester re-issues it from 12, a request the capture
 * sees, answered whole. Responses inside its span came before its first:
 * the READ was begun before the capture, and whether its requester had
 * all of it before, the capture cannot tell (the generator's truth may
 * say it took none): it is the READ the capture started inside, counted
 * once, cut by the capture start, not a message (diff seeds 103044,
 * 103197). */
static void test_read_cut_rest_then_whole(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	uint64_t t = 1000;
	read_resp(e, t += 100, QP_A, RC_READ_MIDDLE, 15, 0, 1024);
	for (uint32_t psn = 17; psn <= 18; psn++)
		read_resp(e, t += 100, QP_A, RC_READ_MIDDLE, psn, 0, 1024);
	read_resp(e, t += 100, QP_A, RC_READ_LAST, 19, 1, 1024);
	read_resp(e, t += 100, QP_A, RC_READ_FIRST, 10, 1, 1024);
	read_resp(e, t += 100, QP_A, RC_READ_MIDDLE, 11, 0, 1024);
	read_resp(e, t += 100, QP_A, RC_READ_MIDDLE, 13, 0, 1024);
	read_req(e, t += 100, 12, 0x10000 + 2048, 8192);
	for (uint32_t psn = 14; psn <= 18; psn++)
		read_resp(e, t += 100, QP_A, RC_READ_MIDDLE, psn, 0, 1024);
	read_resp(e, t += 100, QP_A, RC_READ_LAST, 19, 1, 1024);
	read_resp(e, t += 1000, QP_A, RC_READ_FIRST, 12, 1, 1024);
	for (uint32_t psn = 13; psn <= 18; psn++)
		read_resp(e, t += 100, QP_A, RC_READ_MIDDLE, psn, 0, 1024);
	struct rw_note n = read_resp(e, t += 100, QP_A, RC_READ_LAST, 19, 1, 1024);
	assert_false(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, t + 100000);
	const struct rw_flow *f = flow_ba(e);
	assert_int_equal(f->messages, 0);
	assert_int_equal(f->msg_cut_start, 1);
	assert_int_equal(flow_ab(e)->msgs_by_op[2], 0);
	env_free(e);
}

/* A READ of 4..5 and a SEND at 6; an ACK of 6 leaves the READ
 * unanswered, and the requester goes back 60 us later (its timer). The
 * READ's resend is answered with its FIRST only (5 lost) and an ACK of 6
 * again: the requester re-issues the READ from 5 at once, a go-back that
 * ACK implies (IBA 9.7.5.1.4), though the first ACK past the READ came
 * long before (diff seed 103607). */
static void test_conform_implied_again_after_timeout(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 4, 0x10000, 2048);
	req(e, 1100, RC_SEND_ONLY, 6, 64);
	feed_aeth(e, 3000, RC_ACK, 6, ACK_SYN, 1, 0, 0);
	read_req(e, 63000, 4, 0x10000, 2048);
	req(e, 63100, RC_SEND_ONLY, 6, 64);
	read_resp(e, 65000, QP_A, RC_READ_FIRST, 4, 1, 1024);
	feed_aeth(e, 65500, RC_ACK, 6, ACK_SYN, 1, 0, 0);
	read_req(e, 66000, 5, 0x10400, 1024);
	rw_analyzer_finish(e->a, 200000);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_timeout, 1);
	assert_int_equal(c->resend_by_implied, 1);
	env_free(e);
}

/* An atomic at 0 and a SEND at 1, sent again by the timer; the atomic's
 * own answer comes, then an ACK of 1, and 1.5 us later the requester goes
 * back again to 0 (its timer: the resend waited in a paused queue). The
 * ACK past the atomic showed nothing missing, its answer had come: the
 * go-back is the timer's, not implied (diff seed 103764). */
static void test_conform_answered_atomic_not_implied(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_CMP_SWAP, 0, 0);
	req(e, 1100, RC_SEND_ONLY, 1, 64);
	req(e, 60000, RC_CMP_SWAP, 0, 0);
	req(e, 60100, RC_SEND_ONLY, 1, 64);
	feed_aeth(e, 62000, RC_ATOMIC_ACK, 0, ACK_SYN, 1, 0, 0);
	feed_aeth(e, 63000, RC_ACK, 1, ACK_SYN, 2, 0, 0);
	req(e, 64500, RC_CMP_SWAP, 0, 0);
	req(e, 64600, RC_SEND_ONLY, 1, 64);
	rw_analyzer_finish(e->a, 200000);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_timeout, 2);
	assert_int_equal(c->resend_by_implied, 0);
	env_free(e);
}

/* Ends the capture at t: the response flow counted n messages, each whole
 * (none incomplete, none cut by the capture); frees e. */
static void finish_expect_whole(struct env *e, uint64_t t, uint64_t n)
{
	rw_analyzer_finish(e->a, t);
	const struct rw_flow *f = flow_ba(e);
	assert_int_equal(f->messages, n);
	assert_int_equal(f->msg_incomplete + f->msg_cut_end + f->msg_cut_start, 0);
	env_free(e);
}

/* Five READs of two responses each whose FIRSTs all come with a bad ICRC:
 * the requester takes nothing of any (it takes READ responses in order)
 * and re-issues each whole. More READs wait than are kept waiting; the
 * oldest, of which nothing was taken, is asked for whole again, and its
 * re-issue's answer is a message: none is incomplete (diff seed 103490). */
static void test_read_waits_nothing_taken(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	uint64_t t = 1000;
	for (uint32_t k = 0; k < 5; k++)
		read_req(e, t += 100, 10 + 2 * k, 0x10000 + k * 0x1000, 2048);
	for (uint32_t k = 0; k < 5; k++) {
		read_resp_crc(e, t += 100, QP_A, RC_READ_FIRST, 10 + 2 * k, k + 1, 1024, 1);
		read_resp(e, t += 100, QP_A, RC_READ_LAST, 11 + 2 * k, k + 1, 1024);
	}
	t += 200000;
	for (uint32_t k = 0; k < 5; k++)
		read_req(e, t += 100, 10 + 2 * k, 0x10000 + k * 0x1000, 2048);
	for (uint32_t k = 0; k < 5; k++) {
		read_resp(e, t += 100, QP_A, RC_READ_FIRST, 10 + 2 * k, k + 1, 1024);
		struct rw_note n = read_resp(e, t += 100, QP_A, RC_READ_LAST, 11 + 2 * k, k + 1, 1024);
		assert_true(n.flags & RW_N_MSG_DONE);
	}
	finish_expect_whole(e, t + 100000, 5);
}

/* Six READs of two responses each (a requester's initiator depth is 16 on
 * most NICs) whose LAST responses are all lost before the tap: each READ
 * waits for its resume when the next one's answer comes, six at once. The
 * re-issue of each from its LAST (IBA 9.7.5.1.4) is answered by an ONLY
 * there, which completes it: six messages, none given up (diff seed
 * 104948, where more READs waited than four slots held). */
static void test_read_many_wait(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	uint64_t t = 1000;
	for (uint32_t k = 0; k < 6; k++)
		read_req(e, t += 100, 10 + 2 * k, 0x10000 + k * 0x1000, 2048);
	for (uint32_t k = 0; k < 6; k++)
		read_resp(e, t += 100, QP_A, RC_READ_FIRST, 10 + 2 * k, k + 1, 1024);
	t += 1000;
	for (uint32_t k = 0; k < 6; k++) {
		read_req(e, t += 100, 11 + 2 * k, 0x10000 + k * 0x1000 + 1024, 1024);
		struct rw_note n = read_resp(e, t += 100, QP_A, RC_READ_ONLY, 11 + 2 * k, k + 1, 1024);
		assert_true(n.flags & RW_N_MSG_DONE);
	}
	finish_expect_whole(e, t + 100000, 6);
}

/* The capture starts inside the answer to a READ of 48..50 (MIDDLE 49,
 * LAST 50), which is answered again whole before any request shows; the
 * requester's timer then re-issues the READ, a request the capture sees,
 * and its answer pairs the two directions. The whole answer seen before
 * that request answered an earlier copy: the READ is the one the capture
 * started inside, cut by the capture start, and its last answer is no
 * message (diff seed 103320). */
static void test_read_answered_before_request_seen(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_resp(e, 1000, QP_A, RC_READ_MIDDLE, 49, 0, 1024);
	read_resp(e, 1100, QP_A, RC_READ_LAST, 50, 1, 1024);
	read_resp(e, 5000, QP_A, RC_READ_FIRST, 48, 1, 1024);
	read_resp(e, 5100, QP_A, RC_READ_MIDDLE, 49, 0, 1024);
	read_resp(e, 5200, QP_A, RC_READ_LAST, 50, 1, 1024);
	read_req(e, 200000, 48, 0x10000, 3072);
	read_resp(e, 203000, QP_A, RC_READ_FIRST, 48, 1, 1024);
	read_resp(e, 203100, QP_A, RC_READ_MIDDLE, 49, 0, 1024);
	struct rw_note n = read_resp(e, 203200, QP_A, RC_READ_LAST, 50, 1, 1024);
	assert_false(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 300000);
	const struct rw_flow *f = flow_ba(e);
	assert_int_equal(f->messages, 0);
	assert_int_equal(f->msg_cut_start, 1);
	env_free(e);
}

/* An atomic at 100 and, on another QP of the host pair, a flow whose first
 * PSN in the capture is 105: had that one been RC, it might have sent 100
 * before the capture started, and the atomic ACK for 100 would pair
 * neither; a UC flow is answered by nothing, so the ACK pairs the atomic's
 * flow (diff seed 103600). */
static void test_pair_not_uc_neighbour(void **state)
{
	(void)state;
	for (int rc = 0; rc <= 1; rc++) {
		struct env *e = env_new(NULL);
		feed(e, 900, A_IP, B_IP, rc ? RC_SEND_ONLY : UC_SEND_ONLY, 0x33, 105, 64, 0);
		req(e, 1000, RC_CMP_SWAP, 100, 0);
		struct rw_note n = feed_aeth(e, 3000, RC_ATOMIC_ACK, 100, rw_aeth_syndrome(RW_AETH_ACK, 31), 1, 0, 0);
		assert_int_equal(!!(n.flags & RW_N_PAIRED), !rc);
		assert_int_equal(flow_ba(e)->peer >= 0, !rc);
		env_free(e);
	}
}

/* A 4047-byte READ at 0, its MTU not shown and no request after it: its
 * FIRST is lost before the capture point, and its MIDDLE at 1 carries 1 KiB,
 * the path MTU (IBA 9.7.4), so the READ takes 0..3 and 1 is inside it: the
 * MIDDLE pairs the two directions, and the rest of the READ is no message
 * cut by the capture start. The READ re-issued, answered whole, is one
 * message (diff seeds 103044, 103197, 103299, 103600). */
static void test_pair_read_middle_mtu(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 0, 0x10000, 4047);
	struct rw_note n = read_resp(e, 3000, QP_A, RC_READ_MIDDLE, 1, 0, 1024);
	assert_true(n.flags & RW_N_PAIRED);
	read_resp(e, 3100, QP_A, RC_READ_MIDDLE, 2, 0, 1024);
	read_resp(e, 3200, QP_A, RC_READ_LAST, 3, 1, 975);
	read_req(e, 5000, 0, 0x10000, 4047);
	read_resp(e, 8000, QP_A, RC_READ_FIRST, 0, 1, 1024);
	read_resp(e, 8100, QP_A, RC_READ_MIDDLE, 1, 0, 1024);
	read_resp(e, 8200, QP_A, RC_READ_MIDDLE, 2, 0, 1024);
	n = read_resp(e, 8300, QP_A, RC_READ_LAST, 3, 1, 975);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 100000);
	const struct rw_flow *f = flow_ba(e);
	assert_int_equal(f->peer, (int32_t)(flow_ab(e) - rw_analyzer_flow(e->a, 0)));
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->msg_cut_start, 0);
	env_free(e);
}

/* Several READs outstanding, a WRITE between them (IBA 9.4.4: a READ takes
 * ceil(len / MTU) PSNs; the MTU is 1024 here, unknown to the engine until
 * responses come): no READ is a re-issue of another, the responses of the
 * second READ after the WRITE's ACK are no PSN gap, and each READ gets its
 * own latency. */
static void test_reads_outstanding(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 0, 0x10000, 4096);  /* PSNs 0..3 */
	read_req(e, 1100, 4, 0x11000, 2048);  /* PSNs 4..5 */
	req(e, 1200, RC_SEND_ONLY, 6, 64);
	read_req(e, 1300, 7, 0x12000, 1024);  /* PSN 7 */
	read_resp(e, 5000, QP_A, RC_READ_FIRST, 0, 1, 1024);
	read_resp(e, 5100, QP_A, RC_READ_MIDDLE, 1, 0, 1024);
	read_resp(e, 5200, QP_A, RC_READ_MIDDLE, 2, 0, 1024);
	read_resp(e, 5300, QP_A, RC_READ_LAST, 3, 1, 1024);
	read_resp(e, 5400, QP_A, RC_READ_FIRST, 4, 2, 1024);
	read_resp(e, 5500, QP_A, RC_READ_LAST, 5, 2, 1024);
	resp(e, 5600, B_IP, QP_A, 6, ACK_SYN, 3);
	read_resp(e, 5700, QP_A, 0x10 /* READ_RESPONSE_ONLY */, 7, 4, 1024);
	const struct rw_flow *f = flow_ab(e), *g = flow_ba(e);
	assert_int_equal(f->conf ? f->conf->count[RW_V_READ_RESUME_WRONG] : 0, 0);
	assert_int_equal(f->retransmissions, 0);
	assert_int_equal(g->psn_gaps, 0);
	assert_int_equal(g->missing_psns, 0);
	assert_int_equal(f->read_lat.count, 3);
	env_free(e);
}

/* Two QPs of one host pair start at the same PSN, one with a WRITE, one
 * with a READ: the READ's responses pair only with the flow that sent a
 * READ there, never with the WRITE's (IBA 9.7.5.1: a READ response
 * answers a READ request). */
static void test_pair_read_response_kind(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_WRITE_FIRST, 100, 1024);  /* A -> QP_B */
	req(e, 1100, RC_WRITE_MIDDLE, 101, 1024);
	req(e, 1150, RC_WRITE_MIDDLE, 102, 1024);
	feed(e, 1200, A_IP, B_IP, RC_READ_REQ, 0x33, 100, 3072, 0); /* A -> 0x33: PSNs 100..102 */
	/* The READ's responses go to A's QP 0x44: PSN 100 was sent by both
	 * request flows, 101 and 102 only by the WRITE as request PSNs. */
	read_resp(e, 3000, 0x44, RC_READ_FIRST, 100, 1, 1024);
	read_resp(e, 3100, 0x44, RC_READ_MIDDLE, 101, 0, 1024);
	read_resp(e, 3200, 0x44, RC_READ_LAST, 102, 1, 1024);
	const struct rw_flow *w = flow_by(e, A_IP, QP_B, 1);
	const struct rw_flow *r = flow_by(e, A_IP, 0x33, 1);
	const struct rw_flow *rr = flow_by(e, B_IP, 0x44, 1);
	assert_true(w->peer < 0);
	assert_int_equal(rr->peer, r->index);
	assert_int_equal(rr->pair_how, RW_PAIR_READ_RESP);
	assert_int_equal(r->read_lat.count, 1);
	env_free(e);
}

/* A READ's FIRST response lost before the tap: its MIDDLE and LAST pair
 * the two directions when the READ's span is known (the next request came
 * right after it), even though another QP of the host pair sent those
 * PSNs as WRITE requests; and the rest of a READ whose request the capture
 * saw is no message cut by the capture start. With the span a guess (MTU
 * unknown, no request after it) a LAST alone pairs nothing (a MIDDLE
 * would show the MTU: test_pair_read_middle_mtu). */
static void test_pair_read_rest_in_span(void **state)
{
	(void)state;
	for (int known = 0; known < 2; known++) {
		struct env *e = env_new(NULL);
		read_req(e, 1000, 100, 0x10000, 3072); /* PSNs 100..102 */
		if (known)
			req(e, 1100, RC_SEND_ONLY, 103, 64);
		feed(e, 1200, A_IP, B_IP, RC_WRITE_FIRST, 0x33, 101, 1024, 0);
		feed(e, 1300, A_IP, B_IP, RC_WRITE_LAST, 0x33, 102, 1024, 0);
		if (known)
			read_resp(e, 3100, 0x44, RC_READ_MIDDLE, 101, 0, 1024);
		read_resp(e, 3200, 0x44, RC_READ_LAST, 102, 1, 1024);
		const struct rw_flow *r = flow_by(e, A_IP, QP_B, 1);
		const struct rw_flow *w = flow_by(e, A_IP, 0x33, 1);
		const struct rw_flow *rr = flow_by(e, B_IP, 0x44, 1);
		assert_true(w->peer < 0);
		if (known) {
			assert_int_equal(rr->peer, r->index);
			assert_int_equal(rr->pair_how, RW_PAIR_READ_RESP);
			assert_int_equal(rr->msg_cut_start, 0);
		} else {
			assert_true(rr->peer < 0);
		}
		env_free(e);
	}
}

static void test_conform_read_resume(void **state)
{
	(void)state;
	read_case(0x10800, 2048, 0);
	read_case(0x10000, 2048, 1);
	read_case(0x10800, 4096, 1);
	/* Below the first missing PSN: the responses the tap saw may not have
	 * reached the requester yet (held in a paused port, diff seed
	 * 100478): it re-reads from where it was, address matching its PSN. */
	read_case_at(10, 0x10000, 4096, 0);
	read_case_at(11, 0x10400, 3072, 0);
	read_case_at(10, 0x10400, 4096, 1);
	/* past it: data skipped */
	read_case_at(13, 0x10c00, 1024, 1);
}

/* The capture sees the first two 1 KiB responses of a READ at 10 (its
 * request went before it), the rest lost; the flows pair by an ACK. The
 * requester sends the READ again whole, and then re-issues it from 12,
 * the first response it did not get: no wrong resume, though no response
 * answered the READ the capture saw sent. From 13 it would skip data
 * (diff seed 101848). */
static void test_conform_read_resume_after_unseen_request(void **state)
{
	(void)state;
	for (int skip = 0; skip < 2; skip++) {
		struct env *e = env_new(NULL);
		req(e, 500, RC_SEND_ONLY, 9, 64);
		read_resp(e, 1000, QP_A, RC_READ_FIRST, 10, 1, 1024);
		read_resp(e, 1100, QP_A, RC_READ_MIDDLE, 11, 0, 1024);
		feed_aeth(e, 1200, RC_ACK, 9, ACK_SYN, 1, 0, 0);
		read_req(e, 2000, 10, 0x10000, 4096);
		if (skip)
			read_req(e, 3000, 13, 0x10c00, 1024);
		else
			read_req(e, 3000, 12, 0x10800, 2048);
		rw_analyzer_finish(e->a, 4000);
		assert_int_equal(flow_ba(e)->peer, flow_ab(e)->index);
		assert_int_equal(conf_ab(e)->count[RW_V_READ_RESUME_WRONG], skip);
		env_free(e);
	}
}

/* A READ at 0 answered in 1 KiB segments: FIRST 0 and MIDDLE 1 come, the
 * requester sends the READ again whole on its timer, and READ 4 after it;
 * then the rest of the first answer (MIDDLE 2, LAST 3) comes, late: in
 * sequence for the requester, which holds 0 and 1, no response past a
 * missing one; then the answer to READ 0 sent again begins. READ 4,
 * unanswered, is sent again on the timer right after: a timeout, not a
 * go-back implied by a gap at 0 (diff seed 100478). */
static void test_conform_read_rest_after_resend_no_gap(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 0, 0x10000, 4096);
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 0, 1, 1024);
	read_resp(e, 2100, QP_A, RC_READ_MIDDLE, 1, 0, 1024);
	read_req(e, 500000, 0, 0x10000, 4096);
	read_req(e, 600000, 4, 0x20000, 1024);
	read_resp(e, 1690000, QP_A, RC_READ_MIDDLE, 2, 0, 1024);
	read_resp(e, 1690100, QP_A, RC_READ_LAST, 3, 1, 1024);
	read_resp(e, 1690200, QP_A, RC_READ_FIRST, 0, 1, 1024); /* its answer again begins */
	read_req(e, 1700000, 4, 0x20000, 1024);
	rw_analyzer_finish(e->a, 1800000);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_implied, 0);
	assert_int_equal(c->resend_by_timeout, 2);
	env_free(e);
}

/* A READ at 10 (4 KiB in 1 KiB segments, 10..13), a WRITE 14..17, 18 lost
 * before the tap, a SEND at 19. The READ's answer comes with 11 missing (a
 * gap shown at 12), then a PSN-sequence NAK of 18; the go-back the capture
 * shows starts at 14: it began with the READ's re-issue at 11, dropped
 * before the capture point too. No resend that started at the wrong PSN,
 * and the go-back is the READ gap's (implied); the NAK waits for the resend
 * of its PSN (diff seed 101479). */
static void test_conform_gap_go_back_reissue_lost(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 10, 0x10000, 4096);
	req(e, 1100, RC_WRITE_FIRST, 14, 1024);
	req(e, 1200, RC_WRITE_MIDDLE, 15, 1024);
	req(e, 1300, RC_WRITE_MIDDLE, 16, 1024);
	req(e, 1400, RC_WRITE_LAST, 17, 1024);
	req(e, 1600, RC_SEND_ONLY, 19, 64);
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 10, 1, 1024);
	read_resp(e, 2200, QP_A, RC_READ_MIDDLE, 12, 0, 1024);
	read_resp(e, 2300, QP_A, RC_READ_LAST, 13, 1, 1024);
	feed_aeth(e, 2400, RC_ACK, 18, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 2, 0, 0);
	struct rw_note n = req(e, 3000, RC_WRITE_FIRST, 14, 1024);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, 3100, RC_WRITE_MIDDLE, 15, 1024);
	req(e, 3200, RC_WRITE_MIDDLE, 16, 1024);
	req(e, 3300, RC_WRITE_LAST, 17, 1024);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->count[RW_V_RESEND_WRONG_START], 0);
	assert_int_equal(c->resend_by_implied, 1);
	assert_int_equal(c->resend_by_nak, 0);
	env_free(e);
}

/* A READ at 0 (8 KiB in 1 KiB segments, 0..7): its answer comes with 2
 * missing, and the requester, which takes responses in order only, drops
 * 3..7 and re-issues the READ from 2 (and sends the SEND at 8 again). That answer comes with 4 missing:
 * the 4 of the first answer does not fill it (the requester dropped it),
 * and the re-issue from 4 right after is that gap's go-back, implied like
 * the first, not the timer's (diff seed 101479). */
static void test_conform_gap_again_past_dropped(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 0, 0x10000, 8192);
	req(e, 1100, RC_SEND_ONLY, 8, 64);
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 0, 1, 1024);
	read_resp(e, 2100, QP_A, RC_READ_MIDDLE, 1, 0, 1024);
	for (uint32_t psn = 3; psn < 7; psn++)
		read_resp(e, 2000 + psn * 100, QP_A, RC_READ_MIDDLE, psn, 0, 1024);
	read_resp(e, 2700, QP_A, RC_READ_LAST, 7, 1, 1024);
	struct rw_note n = read_req(e, 3000, 2, 0x10800, 6144);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, 3100, RC_SEND_ONLY, 8, 64);
	/* (the second answer 100 us later: the first is long past) */
	read_resp(e, 100000, QP_A, RC_READ_FIRST, 2, 1, 1024);
	read_resp(e, 100100, QP_A, RC_READ_MIDDLE, 3, 0, 1024);
	read_resp(e, 100300, QP_A, RC_READ_MIDDLE, 5, 0, 1024);
	read_resp(e, 100400, QP_A, RC_READ_MIDDLE, 6, 0, 1024);
	read_resp(e, 100500, QP_A, RC_READ_LAST, 7, 1, 1024);
	n = read_req(e, 101000, 4, 0x11000, 4096);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_implied, 2);
	assert_int_equal(c->resend_by_timeout, 0);
	env_free(e);
}

/* A 4 KiB READ at base (1 KiB segments, base..base+3), sent before a SEND
 * at base+4 (or a WRITE at base+4..base+5), answered with base+1 missing: a
 * READ gap shown at base+2. */
static void read_answered_with_gap(struct env *e, uint32_t base, int write_after)
{
	read_req(e, 1000, base, 0x10000, 4096);
	if (write_after) {
		req(e, 1100, RC_WRITE_FIRST, base + 4, 1024);
		req(e, 1200, RC_WRITE_LAST, base + 5, 1024);
	} else {
		req(e, 1100, RC_SEND_ONLY, base + 4, 64);
	}
	read_resp(e, 2000, QP_A, RC_READ_FIRST, base, 1, 1024);
	read_resp(e, 2200, QP_A, RC_READ_MIDDLE, base + 2, 0, 1024);
	read_resp(e, 2300, QP_A, RC_READ_LAST, base + 3, 1, 1024);
}

/* The READ at base re-issued from psn at ts, a go-back. */
static void read_reissued(struct env *e, uint64_t ts, uint32_t base, uint32_t psn)
{
	struct rw_note n = read_req(e, ts, psn, 0x10000 + (uint64_t)(psn - base) * 1024, 4096 - (psn - base) * 1024);
	assert_true(n.flags & RW_N_GBN_START);
}

/* A READ at 0 (4 KiB in 1 KiB segments, 0..3): its answer comes with 1
 * missing and the READ is re-issued from 1; that answer comes 100 us later
 * with 2 corrupted (the requester drops it, and 3 after it): neither the 2
 * of the first answer (past its gap) nor the corrupted one fills the gap,
 * and the re-issue from 2 right after is that gap's go-back, implied, not
 * the timer's (the pattern of diff seed 100257). */
static void test_conform_gap_at_corrupted_response(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_answered_with_gap(e, 0, 0);
	read_reissued(e, 3000, 0, 1);
	req(e, 3100, RC_SEND_ONLY, 4, 64);
	read_resp(e, 100000, QP_A, RC_READ_FIRST, 1, 1, 1024);
	read_resp_crc(e, 100100, QP_A, RC_READ_MIDDLE, 2, 0, 1024, 1);
	read_resp(e, 100200, QP_A, RC_READ_LAST, 3, 1, 1024);
	read_reissued(e, 101000, 0, 2);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_implied, 2);
	assert_int_equal(c->resend_by_timeout, 0);
	env_free(e);
}

/* A READ at 10 (4 KiB in 1 KiB segments, 10..13) and a SEND at 14; the
 * READ's answer comes with 11 missing, and the READ is re-issued from 11
 * with the SEND after it. The ACK of 14 comes before the re-issue's
 * answer (the responder answers the READ sent again after it); that
 * answer comes with 12 missing: the re-issue from 12 right after is that
 * gap's go-back, implied, though the ACK had left the READ unanswered
 * long before (diff seed 101479). */
static void test_conform_gap_in_answer_after_ack(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_answered_with_gap(e, 10, 0);
	read_reissued(e, 3000, 10, 11);
	req(e, 3100, RC_SEND_ONLY, 14, 64);
	feed_aeth(e, 50000, RC_ACK, 14, ACK_SYN, 2, 0, 0);
	read_resp(e, 100000, QP_A, RC_READ_FIRST, 11, 2, 1024);
	read_resp(e, 100200, QP_A, RC_READ_LAST, 13, 2, 1024);
	read_reissued(e, 101000, 10, 12);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_implied, 2);
	assert_int_equal(c->resend_by_timeout, 0);
	env_free(e);
}

/* A READ at 0 (4 KiB in 1 KiB segments, 0..3) and a WRITE at 4..5; the
 * READ's answer comes with 1 missing, a PSN-sequence NAK of 4 comes and
 * the requester goes back to 4 for it; then it re-issues the READ from 1:
 * the go-back at 4 started past the gap and left the READ as it was, so
 * the re-issue is the gap's, implied, not the timer's (diff seed
 * 101479). */
static void test_conform_gap_outlives_go_back_past_it(void **state)
{
	(void)state;
	for (int late = 0; late < 2; late++) {
		/* late: the re-issue comes 50 us after the gap, just after the
		 * WRITE's ACK: the gap is no longer fresh, and the later
		 * answer is the WRITE's: the timer's (diff seed 102309) */
		struct env *e = env_new(NULL);
		read_answered_with_gap(e, 0, 1);
		feed_aeth(e, 2350, RC_ACK, 4, NAK_SEQ, 1, 0, 0);
		struct rw_note n = req(e, 2400, RC_WRITE_FIRST, 4, 1024);
		assert_true(n.flags & RW_N_GBN_START);
		req(e, 2500, RC_WRITE_LAST, 5, 1024);
		if (late)
			feed_aeth(e, 50000, RC_ACK, 5, ACK_SYN, 2, 0, 0);
		read_reissued(e, late ? 52000 : 2600, 0, 1);
		const struct rw_conform *c = conf_ab(e);
		assert_int_equal(c->resend_by_nak, 1);
		assert_int_equal(c->resend_by_implied, !late);
		assert_int_equal(c->resend_by_timeout, late);
		env_free(e);
	}
}

/* A READ at 0 (0..3) and a WRITE at 4..5; the READ's answer comes with 1
 * missing and the READ is re-issued from 1 (implied), the WRITE after it.
 * The WRITE's ACK never comes: the timer goes back to 4 at 60 us, and
 * again at 110 us, just after the re-issue's answer came whole: the gap at
 * 1 was that re-issue's, gone, though the go-back at 60 us started past
 * it; both go-backs are the timer's (diff seed 101507). */
static void test_conform_gap_ends_with_its_go_back(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_answered_with_gap(e, 0, 1);
	read_reissued(e, 3000, 0, 1);
	req(e, 3100, RC_WRITE_FIRST, 4, 1024);
	req(e, 3200, RC_WRITE_LAST, 5, 1024);
	struct rw_note n = req(e, 60000, RC_WRITE_FIRST, 4, 1024);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, 60100, RC_WRITE_LAST, 5, 1024);
	read_resp(e, 100000, QP_A, RC_READ_FIRST, 1, 1, 1024);
	read_resp(e, 100100, QP_A, RC_READ_MIDDLE, 2, 0, 1024);
	read_resp(e, 100200, QP_A, RC_READ_LAST, 3, 1, 1024);
	n = req(e, 110000, RC_WRITE_FIRST, 4, 1024);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_implied, 1);
	assert_int_equal(c->resend_by_timeout, 2);
	env_free(e);
}

/* CNP pacing at 4 us per QP: CE marks at 1 and 2 us; CNPs at 3 us and 5 us
 * (2 us apart: too often); a CE mark at 40 us, eligible, never answered
 * within the 1 ms window (the capture goes on to 2 ms); a NAK and a CNP
 * 1 us apart. */
static void test_conform_cnp_pacing(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	feed(e, 1000, A_IP, B_IP, RC_SEND_ONLY, QP_B, 1, 64, RW_ECN_CE);
	feed(e, 2000, A_IP, B_IP, RC_SEND_ONLY, QP_B, 2, 64, RW_ECN_CE);
	feed(e, 3000, B_IP, A_IP, CNP, QP_A, 0, 0, 0);
	feed(e, 5000, B_IP, A_IP, CNP, QP_A, 0, 0, 0);
	feed(e, 40000, A_IP, B_IP, RC_SEND_ONLY, QP_B, 3, 64, RW_ECN_CE);
	feed(e, 1500000, A_IP, B_IP, RC_SEND_ONLY, QP_B, 4, 64, 0);
	resp(e, 1600000, B_IP, QP_A, 5, NAK_SEQ, 3);
	feed(e, 1601000, B_IP, A_IP, CNP, QP_A, 0, 0, 0);
	rw_analyzer_finish(e->a, 2000000);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->count[RW_V_CNP_TOO_OFTEN], 1);
	assert_int_equal(c->frames[RW_V_CNP_TOO_OFTEN][0], 4);
	assert_int_equal(rw_analyzer_totals(e->a)->cnp_too_often[RW_CNP_PER_QP], 1);
	assert_int_equal(rw_analyzer_totals(e->a)->cnp_too_often[RW_CNP_PER_IP_PAIR], 1);
	assert_int_equal(c->count[RW_V_CE_NO_CNP], 1);
	assert_int_equal(c->frames[RW_V_CE_NO_CNP][0], 5);
	assert_int_equal(c->cnp_with_nak, 1);
	env_free(e);
}

/* ---- messages as the responder takes them ---- */

#define RC_SEND_FIRST 0x00
#define RC_SEND_LAST 0x02
#define RC_WRITE_ONLY 0x0A
#define RC_SEND_MIDDLE 0x01
#define UC_WRITE_FIRST 0x26
#define UC_WRITE_MIDDLE 0x27
#define UC_WRITE_LAST 0x28
#define UC_SEND_LAST 0x22

/* A request from A to B whose ICRC is bad: built, one payload byte flipped
 * after the ICRC was computed, decoded and fed. */
static struct rw_note req_bad_icrc(struct env *e, uint64_t ts, uint8_t opcode, uint32_t psn,
				   uint32_t len)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.carrier = RW_CARRIER_ROCEV2;
	p.present = RW_P_IPV4;
	p.ipv4.src = A_IP;
	p.ipv4.dst = B_IP;
	p.ipv4.flags = RW_IPV4_DF;
	p.udp.sport = 49152;
	p.bth.opcode = opcode;
	p.bth.pkey = 0xFFFF;
	p.bth.dqpn = QP_B;
	p.bth.psn = psn;
	p.payload_len = len;
	uint8_t buf[9000];
	size_t n;
	assert_int_equal(rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, buf, sizeof(buf), &n), RW_OK);
	buf[n - 4 - 1] ^= 0x40; /* the last payload byte, before the ICRC */
	struct rw_packet d;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, buf, n, n, &d), RW_OK);
	assert_int_equal(d.icrc_status, RW_CRC_BAD);
	struct rw_note note;
	rw_analyzer_packet(e->a, &d, ts, ++e->frame, &note);
	return note;
}

/* A UC WRITE whose FIRST has a bad ICRC: its receiver never begins it, and
 * the MIDDLEs after it are orphans, also when the capture ends before its
 * LAST (not a message cut by the capture end: diff seed 103154). */
static void test_uc_bad_first_orphans_at_end(void **state)
{
	(void)state;
	/* (before: a message 9..10 first; or the bad FIRST is the flow's
	 * first packet, which shows a message began all the same: its rest
	 * are orphans, not a message the capture started inside, diff seed
	 * 106907) */
	for (int before = 1; before >= 0; before--) {
		struct env *e = env_new(NULL);
		if (before) {
			req(e, 1000, UC_WRITE_FIRST, 9, 512);
			req(e, 1100, UC_WRITE_LAST, 10, 100);
		}
		req_bad_icrc(e, 2000, UC_WRITE_FIRST, 11, 512);
		struct rw_note n = req(e, 2100, UC_WRITE_MIDDLE, 12, 512);
		assert_true(n.flags & RW_N_ORPHAN);
		req(e, 2200, UC_WRITE_MIDDLE, 13, 512);
		rw_analyzer_finish(e->a, 3000);
		const struct rw_flow *f = flow_ab(e);
		assert_int_equal(f->messages, before);
		assert_int_equal(f->msg_orphans, 2);
		assert_int_equal(f->msg_cut_end + f->msg_incomplete + f->msg_cut_start, 0);
		env_free(e);
	}
}

/* The capture starts with an atomic at 10; the requester's timer sends
 * the atomics from 7 again, 7 with a bad ICRC, and then again: 7, 8 and 9,
 * below the window's first PSN, are cut by the capture start, each once,
 * 7 at its good copy (diff seed 103885). */
static void test_pre_cut_after_bad_icrc(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_CMP_SWAP, 10, 0);
	req_bad_icrc(e, 200000, RC_CMP_SWAP, 7, 0);
	for (uint32_t psn = 8; psn <= 10; psn++)
		req(e, 200000 + psn * 100, RC_CMP_SWAP, psn, 0);
	for (uint32_t psn = 7; psn <= 10; psn++)
		req(e, 400000 + psn * 100, RC_CMP_SWAP, psn, 0);
	rw_analyzer_finish(e->a, 500000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msg_cut_start, 3);
	assert_int_equal(f->messages, 1);
	env_free(e);
}

/* The capture starts inside a WRITE of 10..12 (its FIRST lost before the
 * capture point), then a SEND of 13..14; a NAK of 10 brings 11..14 again,
 * 10 lost again, and the capture ends with them held behind the hole. The
 * held 11 and 12 are the rest of the message the capture started inside,
 * counted so: not another message cut by the capture end (diff seed
 * 103926). */
static void test_cut_rest_held_at_end(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_WRITE_MIDDLE, 11, 1024);
	req(e, 1100, RC_WRITE_LAST, 12, 100);
	req(e, 1200, RC_SEND_FIRST, 13, 1024);
	req(e, 1300, RC_SEND_LAST, 14, 100);
	feed_aeth(e, 2000, RC_ACK, 10, NAK_SEQ, 0, 0, 0);
	for (uint32_t psn = 11; psn <= 14; psn++)
		req(e, 3000 + psn * 100, psn == 11 ? RC_WRITE_MIDDLE : psn == 12 ? RC_WRITE_LAST
					: psn == 13 ? RC_SEND_FIRST : RC_SEND_LAST, psn, psn % 2 ? 1024 : 100);
	rw_analyzer_finish(e->a, 5000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msg_cut_start, 1);
	assert_int_equal(f->msg_cut_end, 1);
	assert_int_equal(f->messages + f->msg_incomplete + f->msg_orphans, 0);
	env_free(e);
}

/* First copies 3, 4 (ONLYs), 5-6 (a WRITE), 7 (a SEND's FIRST), then a NAK
 * for 1 (1 and 2 went by before the capture and were lost); the SEND's
 * LAST 8 and a WRITE's FIRST 9 come before the go-back from 1, which the
 * capture ends inside, at the WRITE's FIRST 5. At the end three messages
 * are cut by it: the WRITE at 5 (open), the SEND at 7 (refused while open:
 * its LAST 8, held past the hole, is its rest, not the open WRITE's) and
 * the WRITE at 9 (held) (diff seed 103889). */
static void test_refused_open_rest_held_at_end(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_WRITE_ONLY, 3, 64);
	req(e, 2000, RC_WRITE_ONLY, 4, 64);
	req(e, 3000, RC_WRITE_FIRST, 5, 1024);
	req(e, 4000, RC_WRITE_LAST, 6, 100);
	req(e, 5000, RC_SEND_FIRST, 7, 1024);
	feed_aeth(e, 6000, RC_ACK, 1, NAK_SEQ, 0, 0, 0);
	req(e, 7000, RC_SEND_LAST, 8, 100);
	req(e, 8000, RC_WRITE_FIRST, 9, 1024);
	req(e, 9000, RC_WRITE_ONLY, 1, 64);
	req(e, 10000, RC_WRITE_ONLY, 2, 64);
	req(e, 11000, RC_WRITE_ONLY, 3, 64);
	req(e, 12000, RC_WRITE_ONLY, 4, 64);
	req(e, 13000, RC_WRITE_FIRST, 5, 1024);
	rw_analyzer_finish(e->a, 14000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msg_cut_end, 3);
	assert_int_equal(f->messages, 4);
	env_free(e);
}

/* A capture of one direction only (no answers at all): PSN 1 comes with a
 * bad ICRC, then 2..100, more than the first hold keeps. The responder
 * dropped 1 (the capture saw it), so the hole is no packet the capture
 * lost: the requests past it wait for its resend, which brings 1..100
 * again, and every message is whole (diff seed 105760). */
static void test_hold_grows_past_bad_icrc_hole(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_SEND_ONLY, 0, 8);
	req_bad_icrc(e, 1100, RC_SEND_ONLY, 1, 8);
	for (uint32_t psn = 2; psn <= 100; psn++)
		req(e, 1100 + psn * 100, RC_SEND_ONLY, psn, 8);
	for (uint32_t psn = 1; psn <= 100; psn++)
		req(e, 60000 + psn * 100, RC_SEND_ONLY, psn, 8);
	rw_analyzer_finish(e->a, 100000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 101);
	assert_int_equal(f->msg_incomplete + f->msg_orphans + f->msg_cut_end + f->msg_cut_start, 0);
	env_free(e);
}

/* The responder drops a packet whose ICRC is bad: the SEND it carried is
 * done with the good resend, not with it. */
static void test_bad_icrc_completes_nothing(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	struct rw_note n = req_bad_icrc(e, 1, RC_SEND_ONLY, 1, 8);
	assert_false(n.flags & RW_N_MSG_DONE);
	assert_int_equal(flow_ab(e)->messages, 0);
	feed_aeth(e, 2, RC_ACK, 1, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 0, 0, 0);
	n = req(e, 3, RC_SEND_ONLY, 1, 8);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 4);
	assert_int_equal(flow_ab(e)->messages, 1);
	assert_int_equal(flow_ab(e)->msg_incomplete + flow_ab(e)->msg_cut_end, 0);
	env_free(e);
}

/* Go-back-N on the responder's side: the copies of 3 and 4 that came
 * beyond the hole at 2 were discarded; their resends complete them. */
static void test_resend_run_completes_messages(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 1, 8);
	struct rw_note n = req(e, 2, RC_SEND_ONLY, 3, 8);
	assert_false(n.flags & RW_N_MSG_DONE);
	req(e, 3, RC_SEND_ONLY, 4, 8);
	feed_aeth(e, 4, RC_ACK, 2, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 1, 0, 0);
	n = req(e, 5, RC_SEND_ONLY, 2, 8);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(n.msg_first_frame, 5); /* its own, not the held 3 and 4 too */
	assert_int_equal(flow_ab(e)->messages, 2);
	n = req(e, 6, RC_SEND_ONLY, 3, 8);
	assert_true(n.flags & RW_N_MSG_DONE);
	n = req(e, 7, RC_SEND_ONLY, 4, 8);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(flow_ab(e)->messages, 4);
	env_free(e);

	/* The capture ends before the resends of 3 and 4: both are cut by it. */
	e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 1, 8);
	req(e, 2, RC_SEND_ONLY, 3, 8);
	req(e, 3, RC_SEND_ONLY, 4, 8);
	feed_aeth(e, 4, RC_ACK, 2, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 1, 0, 0);
	req(e, 5, RC_SEND_ONLY, 2, 8);
	rw_analyzer_finish(e->a, 6);
	assert_int_equal(flow_ab(e)->messages, 2);
	assert_int_equal(flow_ab(e)->msg_cut_end, 2);
	env_free(e);
}

/* A lossy incast queue drops one flow's go-back resends again and again:
 * thousands of its requests wait past the hole, arriving in no order (the
 * resends that got through), when the capture ends. Each message they
 * start is cut by the capture end, not only those of the first PSN window
 * (sample lossy-incast: 65 counted of 155). */
static void test_held_at_capture_end(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 0, 8);
	feed_aeth(e, 2, RC_ACK, 0, ACK_SYN, 1, 0, 0);
	/* PSN 1 is never seen; of 2..2001 the multiples of 3 were lost too */
	uint64_t ts = 3;
	for (uint32_t psn = 2; psn <= 2001; psn++)
		if (psn % 3)
			req(e, ts++, RC_SEND_ONLY, psn, 8);
	feed_aeth(e, ts++, RC_ACK, 1, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 2, 0, 0);
	/* the go-back: its 1 lost again, some resends through, then on */
	for (uint32_t psn = 2; psn <= 3001; psn++)
		if (psn % 3 == 0 || psn > 2001 || psn % 100 == 1)
			req(e, ts++, RC_SEND_ONLY, psn, 8);
	rw_analyzer_finish(e->a, ts);
	assert_int_equal(flow_ab(e)->messages, 1);
	assert_int_equal(flow_ab(e)->msg_cut_end, 3000);
	assert_int_equal(flow_ab(e)->msg_incomplete, 0);
	env_free(e);

	/* A READ request held past the hole is no message cut by the capture
	 * end: READs are counted by their responses, and none came. */
	e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 0, 8);
	read_req(e, 2, 2, 0x1000, 64);
	req(e, 3, RC_SEND_ONLY, 3, 8);
	feed_aeth(e, 4, RC_ACK, 1, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 1, 0, 0);
	rw_analyzer_finish(e->a, 5);
	assert_int_equal(flow_ab(e)->messages, 1);
	assert_int_equal(flow_ab(e)->msg_cut_end, 1);
	env_free(e);
}

/* Held requests at the capture end that go on with the message the capture
 * started inside are its rest (cut by the capture start, counted once);
 * held MIDDLEs whose FIRST went in the hole are one message cut by the
 * end, not one each (diff seed 145). */
static void test_held_rest_counted_once(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_MIDDLE, 10, 256);
	req(e, 2, RC_SEND_MIDDLE, 11, 256);
	req(e, 3, RC_SEND_MIDDLE, 13, 256);
	req(e, 4, RC_SEND_MIDDLE, 14, 256);
	rw_analyzer_finish(e->a, 5);
	assert_int_equal(flow_ab(e)->msg_cut_start, 1);
	assert_int_equal(flow_ab(e)->msg_cut_end, 0);
	assert_int_equal(flow_ab(e)->msg_incomplete, 0);
	env_free(e);

	e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 0, 8);
	req(e, 2, RC_SEND_MIDDLE, 2, 256);
	req(e, 3, RC_SEND_MIDDLE, 3, 256);
	rw_analyzer_finish(e->a, 4);
	assert_int_equal(flow_ab(e)->messages, 1);
	assert_int_equal(flow_ab(e)->msg_cut_end, 1);
	env_free(e);
}

/* READ responses below the first the capture saw (diff seed 145): the
 * READ at 10 was answered before the capture and is answered again; whether
 * its requester took it then, the capture cannot tell: cut by the capture
 * start, not a message. */
static void test_read_answered_again_below_first(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1, 20, 0x1000, 64);
	read_resp(e, 2, QP_A, RC_READ_ONLY, 20, 1, 64);
	read_resp(e, 3, QP_A, RC_READ_FIRST, 10, 1, 256);
	read_resp(e, 4, QP_A, RC_READ_MIDDLE, 11, 1, 256);
	struct rw_note n = read_resp(e, 5, QP_A, RC_READ_LAST, 12, 1, 256);
	assert_false(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 6);
	assert_int_equal(flow_ba(e)->messages, 1);
	assert_int_equal(flow_ba(e)->msg_cut_start, 1);
	assert_int_equal(flow_ba(e)->msg_cut_end, 0);
	env_free(e);
}

/* A READ's answer that carries no new MSN: the responder executed the READ
 * before and answers it again (a requester in a timeout loop re-sends
 * everything from an atomic whose answer keeps getting lost). The capture
 * starts after the responder acknowledged PSN 0x22 with MSN 14; the READ
 * at 0x1c is then answered whole with MSN 14, before any request for it,
 * and again after its request comes: whether its requester took it before
 * the capture, the capture cannot tell: cut by the capture start, once,
 * not a message. A READ whose request the capture saw before the
 * responder acknowledged past it waits for its answer: the answer again
 * after its re-issue is a message. A new READ (MSN 15) is one too.
 * Diff seeds 101062, 101621. */
static void test_read_answered_again_msn(void **state)
{
	(void)state;
	for (int asked = 0; asked < 2; asked++) {
		struct env *e = env_new(NULL);
		struct rw_note n;
		if (asked)
			read_req(e, 500, 0x1c, 0x10000, 2560);
		feed_aeth(e, 1000, RC_ACK, 0x22, ACK_SYN, 14, 0, 0);
		if (!asked) {
			read_resp(e, 1100, QP_A, RC_READ_FIRST, 0x1c, 14, 1024);
			read_resp(e, 1200, QP_A, RC_READ_MIDDLE, 0x1d, 14, 1024);
			n = read_resp(e, 1300, QP_A, RC_READ_LAST, 0x1e, 14, 512);
			assert_false(n.flags & RW_N_MSG_DONE);
			assert_true(n.flags & RW_N_CUT_START);
		}
		read_req(e, 2000, 0x1c, 0x10000, 2560);
		read_resp(e, 2100, QP_A, RC_READ_FIRST, 0x1c, 14, 1024);
		read_resp(e, 2200, QP_A, RC_READ_MIDDLE, 0x1d, 14, 1024);
		n = read_resp(e, 2300, QP_A, RC_READ_LAST, 0x1e, 14, 512);
		if (asked)
			assert_true(n.flags & RW_N_MSG_DONE);
		else
			assert_false(n.flags & (RW_N_MSG_DONE | RW_N_CUT_START));
		read_req(e, 3000, 0x23, 0x20000, 512);
		n = read_resp(e, 3100, QP_A, RC_READ_ONLY, 0x23, 15, 512);
		assert_true(n.flags & RW_N_MSG_DONE);
		rw_analyzer_finish(e->a, 4000);
		const struct rw_flow *g = flow_ba(e);
		assert_int_equal(g->messages, asked ? 2 : 1);
		assert_int_equal(g->msg_cut_start, asked ? 0 : 1);
		assert_int_equal(g->msg_cut_end + g->msg_incomplete + g->msg_orphans, 0);
		env_free(e);
	}
}

/* At the capture end (200 us): the response flow holds n READ messages,
 * all whole (none cut by the capture, incomplete or orphan), credited to
 * the requester's flow; e is freed. */
static void reads_whole(struct env *e, uint64_t n)
{
	rw_analyzer_finish(e->a, 200000);
	const struct rw_flow *g = flow_ba(e);
	assert_int_equal(g->messages, n);
	assert_int_equal(flow_ab(e)->msgs_by_op[2], n);
	assert_int_equal(g->msg_cut_start + g->msg_cut_end + g->msg_incomplete + g->msg_orphans, 0);
	env_free(e);
}

/* Two READs, each missing a response (lost before the tap): the first
 * its FIRST, the second its LAST; a SEND after them whose ACK covers
 * both. The requester re-issues the first READ whole, whose answer comes
 * while the second waits for the rest of its own, then re-issues the
 * second from its missing PSN (IBA 9.7.5.1.4: address and length advanced
 * by what it took). The answer to that re-issue is the first copy of that
 * PSN the capture sees, no resend, yet it resumes the READ that waits
 * there: two READs, whole, none cut by the capture end (diff seed
 * 102610). */
static void test_read_resumed_by_new_response(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 8, 0x8000, 257);
	read_req(e, 1010, 10, 0x10000, 257);
	req(e, 1100, RC_SEND_ONLY, 12, 64);
	/* FIRST 8 lost before the tap */
	read_resp(e, 2000, QP_A, RC_READ_LAST, 9, 1, 1);
	read_resp(e, 2010, QP_A, RC_READ_FIRST, 10, 2, 256);
	/* LAST 11 lost before the tap; the SEND's ACK covers both */
	feed_aeth(e, 2200, RC_ACK, 12, ACK_SYN, 3, 0, 0);
	read_req(e, 60000, 8, 0x8000, 257);
	read_resp(e, 61000, QP_A, RC_READ_FIRST, 8, 3, 256);
	struct rw_note n = read_resp(e, 61010, QP_A, RC_READ_LAST, 9, 3, 1);
	assert_true(n.flags & RW_N_MSG_DONE);
	read_req(e, 62000, 11, 0x10100, 1);
	n = read_resp(e, 63000, QP_A, RC_READ_ONLY, 11, 3, 1);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(n.msg_bytes, 257);
	reads_whole(e, 2);
}

/* Two READs: 10 and 12 (2048 bytes each, two PSNs at a 1 KiB MTU). The
 * LAST of the first is lost before the tap and the second's FIRST comes
 * (its LAST is lost too): responses come in PSN order (IBA 9.7.5.1.4), so
 * it shows 11 missing, and the requester re-issues the first READ from 11
 * at once. That go-back is implied by the response, not the timer's (diff
 * seed 102755). */
static void test_conform_later_read_shows_gap(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 10, 0x10000, 2048);
	read_req(e, 1010, 12, 0x20000, 2048);
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 10, 1, 1024);
	/* LAST 11 lost before the tap, and LAST 13 */
	read_resp(e, 2200, QP_A, RC_READ_FIRST, 12, 2, 1024);
	struct rw_note n = read_req(e, 5000, 11, 0x10400, 1024);
	assert_true(n.flags & RW_N_GBN_START);
	read_req(e, 5010, 12, 0x20000, 2048);
	const struct rw_conform *c = conf_ab(e);
	assert_int_equal(c->resend_by_implied, 1);
	assert_int_equal(c->resend_by_timeout, 0);
	env_free(e);
}

/* A READ (PSNs 10..13) whose LAST response was lost before the tap, the
 * next READ's answer after it, and the first READ re-issued from 13: the
 * ONLY that answers the re-issue is the first response of the READ sent
 * at 13, not a response inside the first READ's span, and it resumes the
 * READ that waits there: two READs, whole (diff seed 102755). */
static void test_read_resumed_answer_is_the_reissues(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 10, 0x10000, 1024);
	read_req(e, 1010, 14, 0x20000, 200);
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 10, 1, 256);
	read_resp(e, 2010, QP_A, RC_READ_MIDDLE, 11, 1, 256);
	read_resp(e, 2020, QP_A, RC_READ_MIDDLE, 12, 1, 256);
	/* LAST 13 lost before the tap */
	read_resp(e, 2040, QP_A, RC_READ_ONLY, 14, 2, 200);
	read_req(e, 60000, 13, 0x10300, 256);
	struct rw_note n = read_resp(e, 61000, QP_A, RC_READ_ONLY, 13, 2, 256);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(n.req_frame, 7);
	reads_whole(e, 2);
}

/* A READ whose FIRST response was lost (its LAST came, past it), a SEND
 * after it, and an ACK of the SEND that passes the READ unanswered: the
 * requester re-issues the READ and goes back over the SEND after it, and
 * its timer sends the SEND again after another millisecond's silence. That
 * SEND, below the PSN the ACK named, is a resend of the same connection,
 * not a reused QP number's first request (diff seed 102153). */
static void test_resend_past_read_unanswered_is_no_reuse(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 10, 0x10000, 512);
	req(e, 1100, RC_SEND_FIRST, 12, 256);
	req(e, 1200, RC_SEND_LAST, 13, 8);
	/* READ FIRST 10 lost before the tap */
	read_resp(e, 2000, QP_A, RC_READ_LAST, 11, 1, 256);
	feed_aeth(e, 2100, RC_ACK, 13, ACK_SYN, 2, 0, 0);
	read_req(e, 1002000, 10, 0x10000, 512);
	req(e, 1002100, RC_SEND_FIRST, 12, 256);
	read_resp(e, 1003000, QP_A, RC_READ_FIRST, 10, 2, 256);
	read_resp(e, 1003100, QP_A, RC_READ_LAST, 11, 2, 256);
	struct rw_note n = req(e, 2004000, RC_SEND_FIRST, 12, 256);
	assert_false(n.flags & RW_N_NEW_CONV);
	assert_true(n.flags & RW_N_RETRANS);
	req(e, 2004100, RC_SEND_LAST, 13, 8);
	rw_analyzer_finish(e->a, 3000000);
	assert_int_equal(rw_analyzer_flow_count(e->a), 2);
	env_free(e);
}

/* A READ the capture saw requested, whose answer was lost: the next READ's
 * answer starts the response stream above it, and the re-issued READ's
 * answer comes below the first response the capture saw. It is no answer
 * to a READ sent before the capture: its requester waited for it, and
 * takes it, a message (diff seed 101601). */
static void test_read_awaited_below_first_response(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 2, 0x10000, 512);
	read_req(e, 1100, 4, 0x20000, 1024);
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 4, 2, 512);
	struct rw_note n = read_resp(e, 2100, QP_A, RC_READ_LAST, 5, 2, 512);
	assert_true(n.flags & RW_N_MSG_DONE);
	read_req(e, 100000, 2, 0x10000, 512);
	n = read_resp(e, 101000, QP_A, RC_READ_ONLY, 2, 2, 512);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 200000);
	const struct rw_flow *g = flow_ba(e);
	assert_int_equal(g->messages, 2);
	assert_int_equal(g->msg_cut_start + g->msg_cut_end + g->msg_incomplete + g->msg_orphans, 0);
	assert_int_equal(flow_ab(e)->msgs_by_op[2], 2);
	env_free(e);

	/* The same, but the capture saw the tail (LAST 3) of an earlier
	 * answer to the READ at 2 after its request: its requester began it
	 * before the capture, and the answer again from below is cut by the
	 * capture start (diff seed 145). */
	e = env_new(NULL);
	read_req(e, 1000, 2, 0x10000, 2048);
	read_resp(e, 1100, QP_A, RC_READ_LAST, 3, 1, 1024);
	read_req(e, 1200, 4, 0x20000, 1024);
	n = read_resp(e, 1300, QP_A, RC_READ_ONLY, 4, 2, 1024);
	assert_true(n.flags & RW_N_MSG_DONE);
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 2, 2, 1024);
	n = read_resp(e, 2100, QP_A, RC_READ_LAST, 3, 2, 1024);
	assert_false(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 3000);
	assert_int_equal(flow_ba(e)->messages, 1);
	assert_int_equal(flow_ba(e)->msg_cut_start, 1);
	env_free(e);
}

/* The capture starts inside the answer to a READ of 6..7: its LAST. The
 * READ is re-issued whole, and its FIRST is lost again: the LAST comes
 * alone once more. That READ is the one the capture started inside, cut by
 * the capture start once, not again as a READ waiting for its resume at
 * the end (diff seed 104296). */
static void test_read_cut_answered_again_tail(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_resp(e, 1000, QP_A, RC_READ_LAST, 7, 1, 100);
	req(e, 1500, RC_SEND_ONLY, 8, 8);
	struct rw_note n = resp(e, 1600, B_IP, QP_A, 8, ACK_SYN, 2);
	assert_true(n.flags & RW_N_PAIRED);
	read_req(e, 100000, 6, 0x10000, 612);
	read_resp(e, 101000, QP_A, RC_READ_LAST, 7, 2, 100);
	rw_analyzer_finish(e->a, 200000);
	const struct rw_flow *g = flow_ba(e);
	assert_int_equal(g->msg_cut_start, 1);
	assert_int_equal(g->messages + g->msg_cut_end + g->msg_incomplete, 0);
	env_free(e);
}

/* READs at 2 and 5, WRITEs at 3 and 4 between them, acknowledged. READ 5's
 * answer is lost; the responder acknowledges past it, the requester
 * re-issues it, more is acknowledged, and its answer comes: the PSNs
 * between the two READs' responses were the WRITEs, answered by ACKs: no
 * gap in the response stream, though READ 5's pending entry went with the
 * ACKs past it (diff seed 101157). */
static void test_read_answer_after_acks_no_gap(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 2, 0x10000, 256);
	req(e, 1100, RC_WRITE_ONLY, 3, 64);
	req(e, 1200, RC_WRITE_ONLY, 4, 64);
	read_req(e, 1300, 5, 0x20000, 256);
	req(e, 1400, RC_SEND_ONLY, 6, 64);
	read_resp(e, 2000, QP_A, RC_READ_ONLY, 2, 1, 256);
	feed_aeth(e, 2100, RC_ACK, 4, ACK_SYN, 3, 0, 0);
	feed_aeth(e, 2200, RC_ACK, 6, ACK_SYN, 5, 0, 0);
	read_req(e, 50000, 5, 0x20000, 256);
	req(e, 50100, RC_SEND_ONLY, 6, 64);
	req(e, 50200, RC_SEND_ONLY, 7, 64);
	feed_aeth(e, 50300, RC_ACK, 7, ACK_SYN, 6, 0, 0);
	struct rw_note n = read_resp(e, 50400, QP_A, RC_READ_ONLY, 5, 6, 256);
	assert_false(n.flags & RW_N_GAP);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 60000);
	assert_int_equal(flow_ba(e)->psn_gaps, 0);
	assert_int_equal(flow_ba(e)->missing_psns, 0);
	env_free(e);

	/* The same with READ 5's answer the first the capture sees: it
	 * answers a READ the capture saw requested, and the response stream
	 * is known from there (diff seed 101181). */
	e = env_new(NULL);
	read_req(e, 1300, 5, 0x20000, 256);
	req(e, 1400, RC_SEND_ONLY, 6, 64);
	feed_aeth(e, 2200, RC_ACK, 6, ACK_SYN, 5, 0, 0);
	read_req(e, 50000, 5, 0x20000, 256);
	req(e, 50100, RC_SEND_ONLY, 6, 64);
	req(e, 50200, RC_SEND_ONLY, 7, 64);
	feed_aeth(e, 50300, RC_ACK, 7, ACK_SYN, 6, 0, 0);
	n = read_resp(e, 50400, QP_A, RC_READ_ONLY, 5, 6, 256);
	assert_false(n.flags & RW_N_UNSYNCED);
	assert_int_equal(flow_ba(e)->unsynced_pkts, 0);
	env_free(e);
}

/* The capture starts inside a READ's responses (its request went before
 * it); 4 is lost before the capture point. The requester re-issues the
 * READ from 4: the first request the capture sees of its flow, paired by
 * its answer. The answers from 4 fill the hole as resends, not as late
 * packets (diff seed 101780). */
static void test_read_reissue_first_seen_fills_hole(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_resp(e, 1000, QP_A, RC_READ_MIDDLE, 2, 0, 1024);
	read_resp(e, 1100, QP_A, RC_READ_MIDDLE, 3, 0, 1024);
	struct rw_note n = read_resp(e, 1300, QP_A, RC_READ_MIDDLE, 5, 0, 1024);
	assert_true(n.flags & RW_N_GAP);
	read_resp(e, 1400, QP_A, RC_READ_LAST, 6, 1, 100);
	read_req(e, 2000, 4, 0x10000, 2 * 1024 + 100);
	n = read_resp(e, 3000, QP_A, RC_READ_FIRST, 4, 1, 1024);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_OOO);
	read_resp(e, 3100, QP_A, RC_READ_MIDDLE, 5, 0, 1024);
	read_resp(e, 3200, QP_A, RC_READ_LAST, 6, 1, 100);
	rw_analyzer_finish(e->a, 4000);
	const struct rw_flow *g = flow_ba(e);
	assert_int_equal(g->out_of_order, 0);
	assert_int_equal(g->retransmissions, 3);
	assert_int_equal(g->missing_psns, 1);
	env_free(e);
}

/* An RNR NAK refuses the FIRST of a SEND before its LAST passed: the LAST's
 * first copy (beyond the refused PSN) completes nothing, its resend does. */
static void test_rnr_refused_first(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_FIRST, 1, 1024);
	feed_aeth(e, 2, RC_ACK, 1, rw_aeth_syndrome(RW_AETH_RNR_NAK, 14), 0, 0, 0);
	struct rw_note n = req(e, 3, RC_SEND_LAST, 2, 100);
	assert_false(n.flags & RW_N_MSG_DONE);
	req(e, 1000, RC_SEND_FIRST, 1, 1024);
	n = req(e, 1001, RC_SEND_LAST, 2, 100);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 1002);
	assert_int_equal(flow_ab(e)->messages, 1);
	assert_int_equal(flow_ab(e)->msg_incomplete + flow_ab(e)->msg_orphans, 0);
	env_free(e);
}

/* An RNR NAK refuses a SEND while it is open (FIRST 1 and MIDDLE 2 seen,
 * no LAST): the capture ends before its resend, and its receiver completes
 * it after: cut by the capture end, once. With its resend seen whole, one
 * message and nothing cut (diff seed 103599). */
static void test_rnr_refused_open_at_end(void **state)
{
	(void)state;
	for (int resent = 0; resent <= 1; resent++) {
		struct env *e = env_new(NULL);
		req(e, 1, RC_SEND_FIRST, 1, 1024);
		req(e, 2, RC_SEND_MIDDLE, 2, 1024);
		feed_aeth(e, 3, RC_ACK, 1, rw_aeth_syndrome(RW_AETH_RNR_NAK, 14), 0, 0, 0);
		if (resent) {
			req(e, 1000, RC_SEND_FIRST, 1, 1024);
			req(e, 1001, RC_SEND_MIDDLE, 2, 1024);
			req(e, 1002, RC_SEND_LAST, 3, 100);
		}
		rw_analyzer_finish(e->a, 2000);
		const struct rw_flow *f = flow_ab(e);
		assert_int_equal(f->messages, resent);
		assert_int_equal(f->msg_cut_end, !resent);
		assert_int_equal(f->msg_incomplete + f->msg_orphans, 0);
		env_free(e);
	}
}

/* The capture starts at PSN 10 (a SEND of 10..11); the requester's timer
 * sends everything again from 2: the SENDs of 2..4, 5..6 and 7..9, wholly
 * below the window's first PSN, are cut by the capture start. A NAK of 4
 * then takes the sender back inside the first: its LAST 4 again is the
 * rest of that message, counted already, and the resends of 5..6 and 7..9
 * complete messages the NAK refused (diff seed 103585). */
static void test_pre_cut_rest_after_nak(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	static const uint8_t ops[] = {RC_SEND_FIRST, RC_SEND_MIDDLE, RC_SEND_LAST, RC_SEND_FIRST, RC_SEND_LAST,
				      RC_SEND_FIRST, RC_SEND_MIDDLE, RC_SEND_LAST, RC_SEND_FIRST, RC_SEND_LAST};
	req(e, 1000, RC_SEND_FIRST, 10, 1024);
	req(e, 1100, RC_SEND_LAST, 11, 100);
	uint64_t t = 200000;
	for (uint32_t psn = 2; psn <= 11; psn++)
		req(e, t += 100, ops[psn - 2], psn, ops[psn - 2] == RC_SEND_LAST ? 100 : 1024);
	feed_aeth(e, t += 1000, RC_ACK, 4, NAK_SEQ, 1, 0, 0);
	for (uint32_t psn = 4; psn <= 11; psn++)
		req(e, t += 100, ops[psn - 2], psn, ops[psn - 2] == RC_SEND_LAST ? 100 : 1024);
	rw_analyzer_finish(e->a, t + 100000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msg_cut_start, 1);
	assert_int_equal(f->messages, 3);
	assert_int_equal(f->msg_cut_end + f->msg_incomplete + f->msg_orphans, 0);
	env_free(e);
}

/* The capture starts with the LAST (9) of a SEND whose MIDDLE (8) was lost
 * before the capture point; the NAK of 8 brings MIDDLE 8 and LAST 9 again,
 * the rest of that same SEND (its FIRST not sent again): one message cut
 * by the capture start, not two (diff seed 103383). */
static void test_cut_rest_resent_after_nak(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_SEND_LAST, 9, 100);
	feed_aeth(e, 2000, RC_ACK, 8, NAK_SEQ, 1, 0, 0);
	req(e, 3000, RC_SEND_MIDDLE, 8, 1024);
	req(e, 3100, RC_SEND_LAST, 9, 100);
	struct rw_note n = req(e, 3200, RC_SEND_ONLY, 10, 64);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 100000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msg_cut_start, 1);
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->msg_cut_end + f->msg_incomplete + f->msg_orphans, 0);
	env_free(e);
}

/* A SEND (FIRST 1, LAST 2) the capture saw whole, then an RNR NAK of 1
 * with a bad ICRC (its requester drops it, but the responder refused 1:
 * the tap saw it send the NAK). The requester's timer resends the SEND,
 * and the capture ends after the resent FIRST: one SEND cut by the capture
 * end, not one taken back and another open (diff seed 101994). */
static void test_refused_resend_open_at_end(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_FIRST, 1, 1024);
	struct rw_note n = req(e, 2, RC_SEND_LAST, 2, 100);
	assert_true(n.flags & RW_N_MSG_DONE);
	struct rw_packet p;
	aeth_packet(&p, RC_ACK, 1, rw_aeth_syndrome(RW_AETH_RNR_NAK, 14), 0);
	p.icrc_status = RW_CRC_BAD;
	feed_packet(e, 3, &p);
	assert_int_equal(flow_ab(e)->messages, 0);
	req(e, 1000, RC_SEND_FIRST, 1, 1024);
	rw_analyzer_finish(e->a, 1001);
	assert_int_equal(flow_ab(e)->messages, 0);
	assert_int_equal(flow_ab(e)->msg_cut_end, 1);
	assert_int_equal(flow_ab(e)->msg_incomplete, 0);
	env_free(e);
}

/* A message the capture saw complete that the responder refused after
 * all: an RNR NAK naming its PSN, or a sequence NAK naming a PSN lost
 * before the capture started. Its count and bytes are taken back (the
 * packet keeps its msg_done note) and its resend completes it: every
 * message is counted once. */
static void test_refused_after_done(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	/* RNR: the SEND_ONLY at 1 was refused, the WRITE at 2 beyond it too */
	struct rw_note n = req(e, 1, RC_SEND_ONLY, 1, 100);
	assert_true(n.flags & RW_N_MSG_DONE);
	req(e, 2, RC_WRITE_ONLY, 2, 50);
	assert_int_equal(flow_ab(e)->messages, 2);
	feed_aeth(e, 3, RC_ACK, 1, rw_aeth_syndrome(RW_AETH_RNR_NAK, 14), 0, 0, 0);
	assert_int_equal(flow_ab(e)->messages, 0);
	assert_int_equal(flow_ab(e)->msgs_by_op[0] + flow_ab(e)->msgs_by_op[1], 0);
	assert_int_equal(flow_ab(e)->bytes_by_op[0] + flow_ab(e)->bytes_by_op[1], 0);
	n = req(e, 1000, RC_SEND_ONLY, 1, 100);
	assert_true(n.flags & RW_N_MSG_DONE);
	n = req(e, 1001, RC_WRITE_ONLY, 2, 50);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 1002);
	assert_int_equal(flow_ab(e)->messages, 2);
	assert_int_equal(flow_ab(e)->msgs_by_op[0], 1);
	assert_int_equal(flow_ab(e)->msgs_by_op[1], 1);
	assert_int_equal(flow_ab(e)->bytes_by_op[0], 100);
	assert_int_equal(flow_ab(e)->bytes_by_op[1], 50);
	env_free(e);

	/* The capture starts past a hole at 4: 5 and 6 look complete, the
	 * NAK for 4 refuses them, the resends of 4, 5 and 6 complete three. */
	e = env_new(NULL);
	req(e, 1, RC_WRITE_ONLY, 5, 10);
	req(e, 2, RC_SEND_ONLY, 6, 10);
	feed_aeth(e, 3, RC_ACK, 4, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 0, 0, 0);
	/* unpaired (4 is no PSN the capture saw sent): the go-back to 4
	 * says whose requests it refused */
	n = req(e, 4, RC_SEND_ONLY, 4, 10);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(flow_ab(e)->messages, 1);
	req(e, 5, RC_WRITE_ONLY, 5, 10);
	n = req(e, 6, RC_SEND_ONLY, 6, 10);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 7);
	assert_int_equal(flow_ab(e)->messages, 3);
	assert_int_equal(flow_ab(e)->msgs_by_op[0], 2);
	assert_int_equal(flow_ab(e)->msgs_by_op[1], 1);
	env_free(e);

	/* A NAK past a FIRST of a completed SEND: the responder took its
	 * FIRST, not its LAST; the resend of the LAST completes it. */
	e = env_new(NULL);
	req(e, 1, RC_SEND_FIRST, 1, 1024);
	req(e, 2, RC_SEND_LAST, 2, 100);
	feed_aeth(e, 3, RC_ACK, 2, rw_aeth_syndrome(RW_AETH_RNR_NAK, 14), 0, 0, 0);
	assert_int_equal(flow_ab(e)->messages, 0);
	n = req(e, 1000, RC_SEND_LAST, 2, 100);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(n.msg_first_frame, 1);
	rw_analyzer_finish(e->a, 1001);
	assert_int_equal(flow_ab(e)->messages, 1);
	assert_int_equal(flow_ab(e)->msg_incomplete + flow_ab(e)->msg_orphans, 0);
	env_free(e);
}

/* Messages cut by the capture start, as resends show them: a go-back
 * below the first PSN the capture saw resends messages the responder took
 * before it (each cut by the capture start, once); a NAK asking for the
 * FIRST of the message the capture started inside says the responder had
 * not taken its MIDDLE: it is not cut, its resend completes it. */
static void test_cut_start_by_resends(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 3, 8);
	req(e, 2, RC_SEND_ONLY, 4, 8);
	feed_aeth(e, 3, RC_ACK, 4, 0, 2, 0, 0);
	req(e, 100, RC_SEND_ONLY, 1, 8); /* timeout: 1 .. 4 again */
	req(e, 101, RC_SEND_ONLY, 2, 8);
	req(e, 102, RC_SEND_ONLY, 3, 8);
	req(e, 103, RC_SEND_ONLY, 4, 8);
	req(e, 200, RC_SEND_ONLY, 1, 8); /* and again */
	req(e, 201, RC_SEND_ONLY, 2, 8);
	rw_analyzer_finish(e->a, 300);
	assert_int_equal(flow_ab(e)->messages, 2);
	assert_int_equal(flow_ab(e)->msg_cut_start, 2);
	env_free(e);

	e = env_new(NULL);
	struct rw_note n = req(e, 1, RC_SEND_MIDDLE, 2, 1024); /* FIRST at 1 lost */
	assert_true(n.flags & RW_N_CUT_START);
	feed_aeth(e, 2, RC_ACK, 1, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 0, 0, 0);
	req(e, 3, RC_SEND_FIRST, 1, 1024);
	req(e, 4, RC_SEND_MIDDLE, 2, 1024);
	n = req(e, 5, RC_SEND_LAST, 3, 10);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 6);
	assert_int_equal(flow_ab(e)->messages, 1);
	assert_int_equal(flow_ab(e)->msg_cut_start, 0);
	env_free(e);
}

/* The capture starts at PSN 10 and the sender goes back (its timer) to a
 * SEND it began at 5, below the window's first PSN: the capture ends after
 * the SEND's FIRST and a MIDDLE. That message's first copies went by
 * before the capture: it is cut by the capture start, as a whole one below
 * the first PSN would be, not by the end. The window's own SEND at 10 is a
 * message (its ACK came). */
static void test_cut_start_open_at_end(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, RC_SEND_ONLY, 10, 8);
	feed_aeth(e, 2, RC_ACK, 10, ACK_SYN, 1, 0, 0);
	struct rw_note n = req(e, 100000, RC_WRITE_FIRST, 5, 1024);
	assert_true(n.flags & RW_N_CUT_START);
	req(e, 100001, RC_WRITE_MIDDLE, 6, 1024);
	rw_analyzer_finish(e->a, 100002);
	assert_int_equal(flow_ab(e)->messages, 1);
	assert_int_equal(flow_ab(e)->msg_cut_start, 1);
	assert_int_equal(flow_ab(e)->msg_cut_end, 0);
	env_free(e);
}

/* The capture starts inside a SEND (MIDDLE 24, LAST 30), then the
 * requester's timer sends it again from its FIRST at 10 and stops at 18,
 * the responder's ACK of 30 coming: nothing between 18 and 24 was seen, so
 * this is the SEND the window started inside, cut by the capture start
 * once (diff seed 101181). */
static void test_cut_start_resent_short_of_window(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	struct rw_note n = req(e, 1000, RC_SEND_MIDDLE, 24, 1024);
	assert_true(n.flags & RW_N_CUT_START);
	for (uint32_t psn = 25; psn < 30; psn++)
		req(e, 1000 + psn, RC_SEND_MIDDLE, psn, 1024);
	req(e, 1030, RC_SEND_LAST, 30, 100);
	req(e, 200000, RC_SEND_FIRST, 10, 1024);
	for (uint32_t psn = 11; psn <= 18; psn++)
		req(e, 200000 + psn, RC_SEND_MIDDLE, psn, 1024);
	feed_aeth(e, 201000, RC_ACK, 30, ACK_SYN, 1, 0, 0);
	rw_analyzer_finish(e->a, 300000);
	assert_int_equal(flow_ab(e)->messages, 0);
	assert_int_equal(flow_ab(e)->msg_cut_start, 1);
	assert_int_equal(flow_ab(e)->msg_cut_end + flow_ab(e)->msg_incomplete + flow_ab(e)->msg_orphans, 0);
	env_free(e);
}

/* UC: a packet lost inside a WRITE leaves it incomplete at once; the rest
 * of it is dropped with it (no orphans), and the next message counts at its
 * own packet, not at the capture end. */
static void test_uc_hole(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1, UC_WRITE_FIRST, 1, 1024);
	struct rw_note n = req(e, 2, UC_WRITE_MIDDLE, 3, 1024); /* 2 lost */
	assert_true(n.flags & RW_N_MSG_BROKEN);
	n = req(e, 3, UC_WRITE_LAST, 4, 100);
	assert_false(n.flags & (RW_N_MSG_DONE | RW_N_ORPHAN));
	n = req(e, 4, UC_SEND_ONLY, 5, 8);
	assert_true(n.flags & RW_N_MSG_DONE);
	n = req(e, 5, UC_WRITE_MIDDLE, 7, 1024); /* 6, a FIRST, lost */
	assert_true(n.flags & RW_N_ORPHAN);
	rw_analyzer_finish(e->a, 6);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->msg_incomplete, 1);
	assert_int_equal(f->msg_orphans, 1);
	assert_int_equal(f->msg_cut_end, 0);
	env_free(e);

	/* The hole broke a WRITE; the SEND_LAST after it is no rest of that
	 * WRITE: its own FIRST went in the hole, and it is an orphan. */
	e = env_new(NULL);
	req(e, 1, UC_WRITE_FIRST, 1, 1024);
	n = req(e, 2, UC_SEND_LAST, 4, 100); /* 2 and 3 lost */
	assert_true(n.flags & RW_N_MSG_BROKEN);
	assert_true(n.flags & RW_N_ORPHAN);
	rw_analyzer_finish(e->a, 3);
	f = flow_ab(e);
	assert_int_equal(f->msg_incomplete, 1);
	assert_int_equal(f->msg_orphans, 1);
	env_free(e);

	/* The WRITE's LAST arrives with a bad ICRC and the capture ends: UC
	 * resends nothing, so the capture saw the message broken, not cut by
	 * its end (diff seed 259). */
	e = env_new(NULL);
	req(e, 1, UC_WRITE_FIRST, 1, 1024);
	n = req_bad_icrc(e, 2, UC_WRITE_LAST, 2, 100);
	assert_true(n.flags & RW_N_MSG_BROKEN);
	/* the next WRITE's FIRST is dropped too: its MIDDLE and LAST are
	 * orphans, not the rest of the broken one (diff seed 416) */
	req_bad_icrc(e, 3, UC_WRITE_FIRST, 3, 1024);
	n = req(e, 4, UC_WRITE_MIDDLE, 4, 1024);
	assert_true(n.flags & RW_N_ORPHAN);
	n = req(e, 5, UC_WRITE_LAST, 5, 100);
	assert_true(n.flags & RW_N_ORPHAN);
	rw_analyzer_finish(e->a, 6);
	f = flow_ab(e);
	assert_int_equal(f->msg_incomplete, 1);
	assert_int_equal(f->msg_orphans, 2);
	assert_int_equal(f->msg_cut_end, 0);
	env_free(e);

	/* A 3000-byte WRITE at a 1024-byte MTU takes PSNs 1..3 (its FIRST's
	 * RETH and payload say so): after the hole at 2..5, the WRITE_LAST at
	 * 6 is no rest of it, but an orphan (diff seed 597). */
	e = env_new(NULL);
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.carrier = RW_CARRIER_ROCEV2;
	p.present = RW_P_IPV4;
	p.ipv4.src = A_IP;
	p.ipv4.dst = B_IP;
	p.bth.opcode = UC_WRITE_FIRST;
	p.bth.pkey = 0xFFFF;
	p.bth.dqpn = QP_B;
	p.bth.psn = 1;
	p.payload_len = 1024;
	p.reth.dmalen = 3000;
	feed_packet(e, 1, &p);
	n = req(e, 2, UC_WRITE_LAST, 6, 100);
	assert_true(n.flags & RW_N_MSG_BROKEN);
	assert_true(n.flags & RW_N_ORPHAN);
	rw_analyzer_finish(e->a, 3);
	assert_int_equal(flow_ab(e)->msg_orphans, 1);
	assert_int_equal(flow_ab(e)->msg_incomplete, 1);
	env_free(e);
}

/* RC: the flow's first packet the capture sees has a bad ICRC. Its
 * responder dropped it and waits for its resend: the good SEND after it is
 * past a hole, not a message (diff seed 404), until the resend comes. */
static void test_rc_first_packet_bad(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req_bad_icrc(e, 1, RC_SEND_ONLY, 2, 8);
	struct rw_note n = req(e, 2, RC_SEND_ONLY, 3, 8);
	assert_false(n.flags & RW_N_MSG_DONE);
	assert_int_equal(flow_ab(e)->messages, 0);
	n = req(e, 3, RC_SEND_ONLY, 2, 8); /* the resend */
	assert_true(n.flags & RW_N_MSG_DONE);
	n = req(e, 4, RC_SEND_ONLY, 3, 8);
	assert_true(n.flags & RW_N_MSG_DONE);
	assert_int_equal(flow_ab(e)->messages, 2);
	env_free(e);
}

/* A READ whose response came before the two directions were paired (its
 * request before the capture) moves to the requester's flow when they are. */
static void test_read_credited_after_pairing(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	feed_aeth(e, 1, RC_READ_ONLY, 5, 0, 0, 64, 0);
	req(e, 2, RC_SEND_ONLY, 6, 8);
	feed_aeth(e, 3, RC_ACK, 6, 0, 1, 0, 0);
	assert_int_equal(flow_ab(e)->peer, flow_ba(e)->index);
	assert_int_equal(flow_ab(e)->msgs_by_op[2], 1);
	assert_int_equal(flow_ab(e)->bytes_by_op[2], 64);
	assert_int_equal(flow_ba(e)->msgs_by_op[2], 0);
	env_free(e);
}

/* The requester takes a READ's responses in PSN order only (IBA 9.7.5.1.4,
 * 9.9.2): after a lost MIDDLE the original LAST completes nothing, the
 * next READ's responses complete it, and the re-issued READ's responses
 * (a FIRST at the resume PSN) complete the first READ. The rest of a READ
 * whose FIRST was lost is no orphan: the resend from its FIRST completes
 * it. MTU 1024. */
static void test_read_responses_in_psn_order(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 0, 0x10000, 4096); /* PSNs 0..3 */
	read_req(e, 1100, 4, 0x11000, 2048); /* PSNs 4..5 */
	read_req(e, 1200, 6, 0x12000, 2048); /* PSNs 6..7 */
	read_resp(e, 5000, QP_A, RC_READ_FIRST, 0, 1, 1024);
	/* MIDDLE 1 lost */
	read_resp(e, 5200, QP_A, RC_READ_MIDDLE, 2, 0, 1024);
	struct rw_note n = read_resp(e, 5300, QP_A, RC_READ_LAST, 3, 1, 1024);
	assert_false(n.flags & RW_N_MSG_DONE);
	read_resp(e, 5400, QP_A, RC_READ_FIRST, 4, 2, 1024);
	n = read_resp(e, 5500, QP_A, RC_READ_LAST, 5, 2, 1024);
	assert_true(n.flags & RW_N_MSG_DONE);
	/* FIRST 6 lost */
	n = read_resp(e, 5700, QP_A, RC_READ_LAST, 7, 3, 1024);
	assert_false(n.flags & (RW_N_MSG_DONE | RW_N_ORPHAN));
	/* re-issued from the PSN each READ expects */
	read_req(e, 9000, 1, 0x10400, 3072);
	read_req(e, 9100, 6, 0x12000, 2048);
	n = read_resp(e, 10000, QP_A, RC_READ_FIRST, 1, 3, 1024);
	assert_false(n.flags & RW_N_MSG_BROKEN);
	read_resp(e, 10100, QP_A, RC_READ_MIDDLE, 2, 3, 1024);
	n = read_resp(e, 10200, QP_A, RC_READ_LAST, 3, 3, 1024);
	assert_true(n.flags & RW_N_MSG_DONE);
	read_resp(e, 10300, QP_A, RC_READ_FIRST, 6, 3, 1024);
	n = read_resp(e, 10400, QP_A, RC_READ_LAST, 7, 3, 1024);
	assert_true(n.flags & RW_N_MSG_DONE);
	const struct rw_flow *f = flow_ab(e), *g = flow_ba(e);
	assert_int_equal(f->msgs_by_op[2], 3);
	assert_int_equal(f->bytes_by_op[2], 8192);
	assert_int_equal(g->messages, 3);
	assert_int_equal(g->msg_orphans, 0);
	assert_int_equal(g->msg_incomplete, 0);
	assert_int_equal(g->msg_cut_start, 0);
	env_free(e);
}


/* The capture starts inside a READ's responses (MIDDLEs, its FIRST and its
 * request before it); its LAST is lost and the requester re-issues the READ
 * from that PSN. A FIRST or ONLY at the PSN after the last MIDDLE seen is
 * that re-issue (a MIDDLE there means the READ's LAST is later, where a new
 * READ could not start): it completes the READ the capture started inside,
 * cut by the capture start, not a message of its own (diff seed 100306). */
static void test_read_cut_start_reissued(void **state)
{
	(void)state;
	for (int only = 0; only < 2; only++) {
		struct env *e = env_new(NULL);
		read_resp(e, 1000, QP_A, RC_READ_MIDDLE, 3, 0, 1024);
		read_resp(e, 1100, QP_A, RC_READ_MIDDLE, 4, 0, 1024);
		/* LAST 5 lost: re-issued from 5 */
		read_req(e, 200000, 5, 0x10400, only ? 1024 : 2048);
		struct rw_note n;
		if (only) {
			n = read_resp(e, 200500, QP_A, 0x10 /* READ_RESPONSE_ONLY */, 5, 1, 1024);
		} else {
			n = read_resp(e, 200500, QP_A, RC_READ_FIRST, 5, 1, 1024);
			assert_false(n.flags & (RW_N_MSG_DONE | RW_N_ORPHAN));
			n = read_resp(e, 200600, QP_A, RC_READ_LAST, 6, 1, 1024);
		}
		assert_false(n.flags & RW_N_MSG_DONE);
		assert_true(n.flags & RW_N_CUT_START);
		/* a new READ after it is a message */
		read_req(e, 201000, only ? 6 : 7, 0x20000, 1024);
		n = read_resp(e, 201500, QP_A, 0x10, only ? 6 : 7, 2, 1024);
		assert_true(n.flags & RW_N_MSG_DONE);
		rw_analyzer_finish(e->a, 300000);
		const struct rw_flow *g = flow_ba(e);
		assert_int_equal(g->messages, 1);
		assert_int_equal(g->msg_cut_start, 1);
		assert_int_equal(g->msg_orphans, 0);
		assert_int_equal(g->msg_incomplete, 0);
		assert_int_equal(flow_ab(e)->msgs_by_op[2], 1);
		env_free(e);
	}
}

/* The capture starts inside a READ's answer (MIDDLE 3, 4), 5 and 6 are lost,
 * 7 and the LAST 8 come; the requester re-issues the READ from 5 and it is
 * answered 5..8 with a FIRST: the rest of the READ the capture started
 * inside, whose beginning it never saw, not a message (diff seed 101044). */
static void test_read_cut_rest_reissued_inside(void **state)
{
	(void)state;
	for (int paired = 0; paired < 2; paired++) {
		struct env *e = env_new(NULL);
		uint32_t msn = 1;
		if (paired) { /* an earlier SEND and its ACK paired the flows */
			req(e, 100, RC_SEND_ONLY, 1, 64);
			feed_aeth(e, 200, RC_ACK, 1, ACK_SYN, msn++, 0, 0);
		}
		read_resp(e, 1000, QP_A, RC_READ_MIDDLE, 3, 0, 1024);
		read_resp(e, 1100, QP_A, RC_READ_MIDDLE, 4, 0, 1024);
		read_resp(e, 1400, QP_A, RC_READ_MIDDLE, 7, 0, 1024);
		read_resp(e, 1500, QP_A, RC_READ_LAST, 8, msn, 100);
		read_req(e, 200000, 5, 0x10400, 3 * 1024 + 100);
		/* answered again with the MSN the responder has (IBA 9.7.5.2) */
		struct rw_note n = read_resp(e, 200500, QP_A, RC_READ_FIRST, 5, msn, 1024);
		assert_false(n.flags & (RW_N_MSG_DONE | RW_N_ORPHAN));
		read_resp(e, 200600, QP_A, RC_READ_MIDDLE, 6, 0, 1024);
		read_resp(e, 200700, QP_A, RC_READ_MIDDLE, 7, 0, 1024);
		n = read_resp(e, 200800, QP_A, RC_READ_LAST, 8, msn, 100);
		assert_false(n.flags & RW_N_MSG_DONE);
		assert_true(n.flags & RW_N_CUT_START);
		/* the next READ is a message */
		read_req(e, 201000, 9, 0x20000, 1024);
		n = read_resp(e, 201500, QP_A, 0x10 /* READ_RESPONSE_ONLY */, 9, msn + 1, 1024);
		assert_true(n.flags & RW_N_MSG_DONE);
		rw_analyzer_finish(e->a, 300000);
		const struct rw_flow *g = flow_ba(e);
		assert_int_equal(g->messages, 1);
		assert_int_equal(g->msg_cut_start, 1);
		assert_int_equal(g->msg_orphans, 0);
		assert_int_equal(g->msg_incomplete + g->msg_cut_end, 0);
		assert_int_equal(flow_ab(e)->msgs_by_op[2], 1);
		env_free(e);
	}
}

/* A READ sent with the path MTU unknown may take anything from 4 KiB to
 * 256-byte segments; its first response carrying 4096 bytes shows the MTU,
 * and the READ took exactly ceil(14037 / 4096) = 4 PSNs. A SEND_LAST at 7
 * then lies past a hole (4..6 lost), held for the go-back: no orphan, and
 * the resent SEND completes (diff seed 100836). */
static void test_read_span_mtu_learned(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_req(e, 1000, 0, 0x10000, 14037);
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 0, 1, 4096);
	struct rw_note n = req(e, 2500, RC_SEND_LAST, 7, 100);
	assert_false(n.flags & (RW_N_ORPHAN | RW_N_MSG_DONE));
	read_resp(e, 3000, QP_A, RC_READ_MIDDLE, 1, 1, 4096);
	read_resp(e, 3100, QP_A, RC_READ_MIDDLE, 2, 1, 4096);
	read_resp(e, 3200, QP_A, RC_READ_LAST, 3, 1, 1749);
	feed_aeth(e, 3300, RC_ACK, 4, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 1, 0, 0);
	req(e, 4000, RC_SEND_FIRST, 4, 4096);
	req(e, 4100, RC_SEND_MIDDLE, 5, 4096);
	req(e, 4200, RC_SEND_MIDDLE, 6, 4096);
	n = req(e, 4300, RC_SEND_LAST, 7, 100);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 5000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msg_orphans, 0);
	assert_int_equal(f->msg_incomplete, 0);
	assert_int_equal(f->msgs_by_op[0], 1);
	assert_int_equal(f->msgs_by_op[2], 1);
	env_free(e);
}

/* A READ's FIRST and MIDDLE are lost every time and only its LAST comes,
 * each time after the requester re-issues the READ: the rest of one READ,
 * judged once, not once per copy (diff seed 101694). */
static void test_read_rest_resent_once(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 100, RC_SEND_ONLY, 3, 64);
	feed_aeth(e, 200, RC_ACK, 3, ACK_SYN, 1, 0, 0); /* paired */
	for (int k = 0; k < 4; k++) {
		/* (the first pass, then three go-backs by the timer) */
		uint64_t t = 1000 + (uint64_t)k * 200000;
		read_req(e, t, 4, 0x10000, 1118); /* 4..5 at 1 KiB: all lost */
		req(e, t + 100, RC_SEND_FIRST, 6, 1024);
		req(e, t + 200, RC_SEND_MIDDLE, 7, 1024);
		req(e, t + 300, RC_SEND_LAST, 8, 100);
		read_req(e, t + 400, 9, 0x20000, 2593); /* 9..11: 9 and 10 lost */
		req(e, t + 500, RC_SEND_ONLY, 12, 64);
		if (k) /* the duplicate SENDs acknowledged first */
			feed_aeth(e, t + 2900, RC_ACK, 12, ACK_SYN, 4, 0, 0);
		struct rw_note n = read_resp(e, t + 3000, QP_A, RC_READ_LAST, 11, 2, 545);
		assert_false(n.flags & (RW_N_MSG_DONE | RW_N_ORPHAN));
		feed_aeth(e, t + 3200, RC_ACK, 12, ACK_SYN, 4, 0, 0);
	}
	rw_analyzer_finish(e->a, 1000000);
	const struct rw_flow *g = flow_ba(e);
	assert_int_equal(g->messages, 0);
	assert_int_equal(g->msg_orphans, 0);
	assert_int_equal(g->msg_cut_start + g->msg_incomplete + g->msg_cut_end, 1);
	env_free(e);
}

/* The capture starts inside a READ's responses (MIDDLE 5, 6, LAST 7), then
 * the requester re-issues the whole READ (at 2: its responses were lost on
 * the way back) and it is answered whole again, from a FIRST below the
 * first response the capture saw, and a third time, cut by the capture end:
 * one READ, cut by the capture start once (diff seed 101893). */
static void test_read_cut_then_answered_again(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	read_resp(e, 1000, QP_A, RC_READ_MIDDLE, 5, 0, 1024);
	read_resp(e, 1100, QP_A, RC_READ_MIDDLE, 6, 0, 1024);
	read_resp(e, 1200, QP_A, RC_READ_LAST, 7, 1, 100);
	read_req(e, 1000000, 2, 0x10000, 5 * 1024 + 100);
	read_resp(e, 1003000, QP_A, RC_READ_FIRST, 2, 1, 1024);
	for (uint32_t psn = 3; psn < 7; psn++)
		read_resp(e, 1003000 + psn * 100, QP_A, RC_READ_MIDDLE, psn, 0, 1024);
	struct rw_note n = read_resp(e, 1004000, QP_A, RC_READ_LAST, 7, 1, 100);
	assert_false(n.flags & RW_N_MSG_DONE);
	/* and once more, the capture ending inside its answer */
	read_req(e, 2000000, 2, 0x10000, 5 * 1024 + 100);
	read_resp(e, 2003000, QP_A, RC_READ_FIRST, 2, 1, 1024);
	read_resp(e, 2003100, QP_A, RC_READ_MIDDLE, 3, 0, 1024);
	rw_analyzer_finish(e->a, 2004000);
	const struct rw_flow *g = flow_ba(e);
	assert_int_equal(g->messages, 0);
	assert_int_equal(g->msg_cut_start, 1);
	assert_int_equal(g->msg_cut_end, 0);
	assert_int_equal(g->msg_orphans, 0);
	env_free(e);
}

/* A 1000-byte READ at 9, the path MTU not shown yet: it takes 1 to 4 PSNs.
 * A SEND_LAST at 12 is no READ's end (a READ is never followed by a MIDDLE
 * or LAST of its own): the SEND's FIRST at 11 was lost, and the LAST waits
 * past the hole for its resend, no orphan (diff seed 101990). */
static void test_last_inside_read_span(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	req(e, 1000, RC_SEND_ONLY, 8, 64);
	read_req(e, 1100, 9, 0x10000, 1000);
	struct rw_note n = req(e, 1200, RC_SEND_LAST, 12, 100);
	assert_false(n.flags & (RW_N_ORPHAN | RW_N_MSG_DONE));
	read_resp(e, 2000, QP_A, RC_READ_FIRST, 9, 1, 512);
	read_resp(e, 2100, QP_A, RC_READ_LAST, 10, 2, 488);
	feed_aeth(e, 2200, RC_ACK, 11, rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR), 2, 0, 0);
	req(e, 3000, RC_SEND_FIRST, 11, 512);
	n = req(e, 3100, RC_SEND_LAST, 12, 100);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, 4000);
	const struct rw_flow *f = flow_ab(e);
	assert_int_equal(f->msg_orphans, 0);
	assert_int_equal(f->msg_incomplete, 0);
	assert_int_equal(f->msgs_by_op[0], 2);
	env_free(e);
}

/* ---- connections set up by CM (IBA 12.6) ---- */

/* One CM MAD from src to dst: a UD SEND Only to QP 1 (Q_Key 0x80010000,
 * source QP 1, as rdma_cm over RoCE sends them). */
static struct rw_note feed_cm(struct env *e, uint64_t ts, uint32_t src, uint32_t dst,
			      const struct rw_cm *cm, uint64_t tid)
{
	uint8_t mad[RW_MAD_LEN];
	size_t n;
	assert_int_equal(rw_cm_encode(cm, tid, mad, sizeof(mad), &n), RW_OK);
	struct rw_packet p;
	roce_init(&p, src, dst, 0x64 /* UD SEND Only */, RW_QP1, 0);
	p.deth.qkey = RW_GSI_QKEY;
	p.deth.sqpn = RW_QP1;
	p.payload = mad;
	p.payload_len = RW_MAD_LEN;
	return feed_packet(e, ts, &p);
}

/* REQ (starting PSN 1000: what A expects to receive), REP (5000: what B
 * expects, where A's requests start), RTU, then WRITEs whose first copy
 * is lost on the way to the tap, ACKs, DREQ/DREP, and the
 * same QP numbers connected again. What the handshake states is the truth:
 * the flows are paired by CM from the first data packet, none of it is
 * unsynced, the lost first PSN is a gap, and the second connection is a new
 * conversation. */
static void test_cm_handshake_pairs(void **state)
{
	(void)state;
	struct env *e = env_new(NULL);
	struct rw_cm req = {.msg = RW_CM_REQ,
			    .u.req = {.local_comm_id = 0xA1, .local_qpn = QP_A, .starting_psn = 1000,
				      .path_mtu = 3}};
	struct rw_cm rep = {.msg = RW_CM_REP,
			    .u.rep = {.local_comm_id = 0xB1, .remote_comm_id = 0xA1, .local_qpn = QP_B,
				      .starting_psn = 5000}};
	struct rw_cm rtu = {.msg = RW_CM_RTU, .u.rtu = {.local_comm_id = 0xA1, .remote_comm_id = 0xB1}};
	struct rw_cm dreq = {.msg = RW_CM_DREQ,
			     .u.dreq = {.local_comm_id = 0xA1, .remote_comm_id = 0xB1, .remote_qpn = QP_B}};
	struct rw_cm drep = {.msg = RW_CM_DREP, .u.drep = {.local_comm_id = 0xB1, .remote_comm_id = 0xA1}};

	uint64_t t = 1000;
	feed_cm(e, t, A_IP, B_IP, &req, 7);
	feed_cm(e, t += 100, A_IP, B_IP, &req, 7); /* a REQ resent */
	feed_cm(e, t += 5000, B_IP, A_IP, &rep, 7); /* frame 3 */
	feed_cm(e, t += 5000, A_IP, B_IP, &rtu, 7);
	/* PSN 5000 lost before the tap; 5001..5003 arrive */
	for (uint32_t psn = 5001; psn <= 5003; psn++)
		feed(e, t += 1000, A_IP, B_IP, 0x0A /* RC WRITE Only */, QP_B, psn, 64, 0);
	feed_aeth(e, t += 1000, 0x11 /* RC ACK */, 5003, 0x1F, 3, 0, 0);
	feed_cm(e, t += 1000, A_IP, B_IP, &dreq, 8);
	feed_cm(e, t += 1000, B_IP, A_IP, &drep, 8);
	/* the same QPs connect again: a new handshake, new flows */
	req.u.req.local_comm_id = 0xA2;
	req.u.req.starting_psn = 77;
	rep.u.rep.local_comm_id = 0xB2;
	rep.u.rep.remote_comm_id = 0xA2;
	rep.u.rep.starting_psn = 88;
	feed_cm(e, t += 1000, A_IP, B_IP, &req, 9);
	feed_cm(e, t += 1000, B_IP, A_IP, &rep, 9);
	feed(e, t += 1000, A_IP, B_IP, 0x0A, QP_B, 88, 64, 0);

	assert_int_equal(rw_analyzer_cm_count(e->a), 2);
	const struct rw_cm_conn *c = rw_analyzer_cm(e->a, 0);
	assert_int_equal(c->state, RW_CMS_DREP);
	assert_int_equal(c->reqs, 2);
	assert_int_equal(c->active_qpn, QP_A);
	assert_int_equal(c->passive_qpn, QP_B);
	assert_int_equal(c->active_psn, 1000);
	assert_int_equal(c->passive_psn, 5000);
	assert_int_equal(c->rep_frame, 3);
	assert_true(c->rtu_ns - c->req_ns == 10100);
	assert_true(c->flow_active >= 0 && c->flow_passive >= 0);
	const struct rw_flow *fa = rw_analyzer_flow(e->a, (uint32_t)c->flow_active);
	const struct rw_flow *fp = rw_analyzer_flow(e->a, (uint32_t)c->flow_passive);
	assert_int_equal(fa->key.dqpn, QP_B);
	assert_int_equal(fp->key.dqpn, QP_A);
	assert_int_equal(fa->peer, fp->index);
	assert_int_equal(fa->pair_how, RW_PAIR_CM);
	assert_int_equal(fa->pair_frame, 3);
	assert_int_equal(fa->packets, 3);
	assert_int_equal(fa->unsynced_pkts, 0);
	assert_int_equal(fa->cm_psn, 5000);
	assert_int_equal(fp->cm_psn, 1000);
	assert_int_equal(fa->psn_gaps, 1);     /* 5000, which the REP said comes first */
	assert_int_equal(fa->missing_psns, 1);
	assert_true(fa->closed);               /* the DREP ended it */

	const struct rw_cm_conn *c2 = rw_analyzer_cm(e->a, 1);
	assert_int_equal(c2->state, RW_CMS_REP);
	const struct rw_flow *fa2 = rw_analyzer_flow(e->a, (uint32_t)c2->flow_active);
	assert_int_equal(fa2->conversation, 2);
	assert_int_equal(fa2->prev_conv, fa->index);
	assert_int_equal(fa2->pair_how, RW_PAIR_CM);
	assert_int_equal(fa2->packets, 1);
	assert_int_equal(fa2->psn_gaps, 0);
	assert_int_equal(fa2->unsynced_pkts, 0);
	assert_int_equal(rw_analyzer_totals(e->a)->cm_msgs, 8);
	env_free(e);
}

/* Thousands of connections between one host pair, their handshakes
 * interleaved (every REQ, then every REP, RTU) and torn down in the reverse
 * order: each REP pairs its own two flows, each DREP closes them. */
static void test_cm_many_connections(void **state)
{
	(void)state;
	enum { N = 3000 };
	struct env *e = env_new(NULL);
	uint64_t t = 1000;
	for (uint32_t k = 0; k < N; k++) {
		struct rw_cm req = {.msg = RW_CM_REQ,
				    .u.req = {.local_comm_id = 0x1000 + k, .local_qpn = 0x10000 + k,
					      .starting_psn = k}};
		feed_cm(e, t++, A_IP, B_IP, &req, k);
	}
	for (uint32_t k = 0; k < N; k++) {
		struct rw_cm rep = {.msg = RW_CM_REP,
				    .u.rep = {.local_comm_id = 0x9000 + k, .remote_comm_id = 0x1000 + k,
					      .local_qpn = 0x20000 + k, .starting_psn = 7 * k}};
		struct rw_cm rtu = {.msg = RW_CM_RTU,
				    .u.rtu = {.local_comm_id = 0x1000 + k, .remote_comm_id = 0x9000 + k}};
		feed_cm(e, t++, B_IP, A_IP, &rep, k);
		feed_cm(e, t++, A_IP, B_IP, &rtu, k);
	}
	for (uint32_t k = N; k-- > 0;) {
		struct rw_cm dreq = {.msg = RW_CM_DREQ,
				     .u.dreq = {.local_comm_id = 0x9000 + k, .remote_comm_id = 0x1000 + k,
						.remote_qpn = 0x10000 + k}};
		struct rw_cm drep = {.msg = RW_CM_DREP,
				     .u.drep = {.local_comm_id = 0x1000 + k, .remote_comm_id = 0x9000 + k}};
		feed_cm(e, t++, B_IP, A_IP, &dreq, N + k); /* the passive side disconnects */
		feed_cm(e, t++, A_IP, B_IP, &drep, N + k);
	}
	assert_int_equal(rw_analyzer_cm_count(e->a), N);
	for (uint32_t k = 0; k < N; k++) {
		const struct rw_cm_conn *c = rw_analyzer_cm(e->a, k);
		assert_int_equal(c->active_comm_id, 0x1000 + k);
		assert_int_equal(c->passive_comm_id, 0x9000 + k);
		assert_int_equal(c->state, RW_CMS_DREP);
		assert_int_equal(c->reqs, 1);
		assert_int_equal(c->dreqs, 1);
		const struct rw_flow *fa = rw_analyzer_flow(e->a, (uint32_t)c->flow_active);
		const struct rw_flow *fp = rw_analyzer_flow(e->a, (uint32_t)c->flow_passive);
		assert_int_equal(fa->key.dqpn, 0x20000 + k);
		assert_int_equal(fp->key.dqpn, 0x10000 + k);
		assert_int_equal(fa->cm_psn, 7 * k);
		assert_int_equal(fp->cm_psn, k);
		assert_true(fa->closed && fp->closed);
	}
	assert_int_equal(rw_analyzer_totals(e->a)->cm_unmatched, 0);
	env_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_message_and_ack),
		cmocka_unit_test(test_gap),
		cmocka_unit_test(test_hole_in_message),
		cmocka_unit_test(test_capture_loss_in_message),
		cmocka_unit_test(test_young_hole_outwaits_the_hold),
		cmocka_unit_test(test_go_back_n_sender_side),
		cmocka_unit_test(test_go_back_n_receiver_side),
		cmocka_unit_test(test_reorder),
		cmocka_unit_test(test_psn_wrap),
		cmocka_unit_test(test_nak_kinds),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_read_span_mtu_floor),
		cmocka_unit_test(test_atomic),
		cmocka_unit_test(test_coalesced_ack_and_msn),
		cmocka_unit_test(test_ack_latency_after_resend),
		cmocka_unit_test(test_incomplete_messages),
		cmocka_unit_test(test_ce_cnp),
		cmocka_unit_test(test_pfc_storm),
		cmocka_unit_test(test_sent_while_paused),
		cmocka_unit_test(test_table_full),
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_pair_mid_capture),
		cmocka_unit_test(test_precapture_resend),
		cmocka_unit_test(test_pair_never_guessed),
		cmocka_unit_test(test_pair_undone),
		cmocka_unit_test(test_pair_undone_acks_not_backwards),
		cmocka_unit_test(test_pair_undone_by_ack_of_atomic),
		cmocka_unit_test(test_pair_twin_undone),
		cmocka_unit_test(test_pair_not_inside_message),
		cmocka_unit_test(test_nak_taken_once),
		cmocka_unit_test(test_conform_implied_before_pairing),
		cmocka_unit_test(test_qp_reuse),
		cmocka_unit_test(test_conform_nak_before_first_request),
		cmocka_unit_test(test_conform_dup_nak),
		cmocka_unit_test(test_conform_wrong_naks_and_acks),
		cmocka_unit_test(test_conform_wrong_start_judged_at_end),
		cmocka_unit_test(test_conform_wrong_start_nak_unseen),
		cmocka_unit_test(test_pair_read_middle_mtu),
		cmocka_unit_test(test_pair_not_uc_neighbour),
		cmocka_unit_test(test_read_cut_rest_then_whole),
		cmocka_unit_test(test_conform_implied_again_after_timeout),
		cmocka_unit_test(test_conform_answered_atomic_not_implied),
		cmocka_unit_test(test_read_waits_nothing_taken),
		cmocka_unit_test(test_read_many_wait),
		cmocka_unit_test(test_read_answered_before_request_seen),
		cmocka_unit_test(test_uc_bad_first_orphans_at_end),
		cmocka_unit_test(test_rnr_refused_open_at_end),
		cmocka_unit_test(test_pre_cut_rest_after_nak),
		cmocka_unit_test(test_cut_rest_resent_after_nak),
		cmocka_unit_test(test_pre_cut_after_bad_icrc),
		cmocka_unit_test(test_cut_rest_held_at_end),
		cmocka_unit_test(test_refused_open_rest_held_at_end),
		cmocka_unit_test(test_hold_grows_past_bad_icrc_hole),
		cmocka_unit_test(test_cut_start_resent_from_first_open_at_end),
		cmocka_unit_test(test_nak_before_flow_is_its_go_backs),
		cmocka_unit_test(test_go_back_past_its_nak),
		cmocka_unit_test(test_conform_timeout_resend),
		cmocka_unit_test(test_nak_ignored),
		cmocka_unit_test(test_nak_answered),
		cmocka_unit_test(test_nak_capture_ends_first),
		cmocka_unit_test(test_nak_own_slow_timer),
		cmocka_unit_test(test_nak_rto_configured),
		cmocka_unit_test(test_conform_read_resume),
		cmocka_unit_test(test_conform_read_resume_after_unseen_request),
		cmocka_unit_test(test_conform_gap_go_back_reissue_lost),
		cmocka_unit_test(test_conform_gap_again_past_dropped),
		cmocka_unit_test(test_conform_gap_at_corrupted_response),
		cmocka_unit_test(test_conform_gap_in_answer_after_ack),
		cmocka_unit_test(test_conform_gap_outlives_go_back_past_it),
		cmocka_unit_test(test_conform_gap_ends_with_its_go_back),
		cmocka_unit_test(test_conform_read_rest_after_resend_no_gap),
		cmocka_unit_test(test_reads_outstanding),
		cmocka_unit_test(test_read_responses_in_psn_order),
		cmocka_unit_test(test_read_cut_start_reissued),
		cmocka_unit_test(test_read_cut_rest_reissued_inside),
		cmocka_unit_test(test_read_span_mtu_learned),
		cmocka_unit_test(test_read_rest_resent_once),
		cmocka_unit_test(test_read_cut_then_answered_again),
		cmocka_unit_test(test_last_inside_read_span),
		cmocka_unit_test(test_pair_read_response_kind),
		cmocka_unit_test(test_pair_read_rest_in_span),
		cmocka_unit_test(test_conform_cnp_pacing),
		cmocka_unit_test(test_bad_icrc_completes_nothing),
		cmocka_unit_test(test_resend_run_completes_messages),
		cmocka_unit_test(test_rnr_refused_first),
		cmocka_unit_test(test_refused_after_done),
		cmocka_unit_test(test_refused_resend_open_at_end),
		cmocka_unit_test(test_cut_start_by_resends),
		cmocka_unit_test(test_cut_start_open_at_end),
		cmocka_unit_test(test_cut_start_resent_short_of_window),
		cmocka_unit_test(test_uc_hole),
		cmocka_unit_test(test_read_credited_after_pairing),
		cmocka_unit_test(test_held_at_capture_end),
		cmocka_unit_test(test_held_rest_counted_once),
		cmocka_unit_test(test_read_answered_again_below_first),
		cmocka_unit_test(test_read_answered_again_msn),
		cmocka_unit_test(test_read_awaited_below_first_response),
		cmocka_unit_test(test_read_cut_answered_again_tail),
		cmocka_unit_test(test_read_resumed_by_new_response),
		cmocka_unit_test(test_read_resumed_answer_is_the_reissues),
		cmocka_unit_test(test_conform_later_read_shows_gap),
		cmocka_unit_test(test_resend_past_read_unanswered_is_no_reuse),
		cmocka_unit_test(test_read_answer_after_acks_no_gap),
		cmocka_unit_test(test_read_reissue_first_seen_fills_hole),
		cmocka_unit_test(test_rc_first_packet_bad),
		cmocka_unit_test(test_cm_handshake_pairs),
		cmocka_unit_test(test_cm_many_connections),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
