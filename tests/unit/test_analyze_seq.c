/* SPDX-License-Identifier: BSD-3-Clause */
/* PSN sequences and message assembly on lossy traffic, as one tap sees it
 * behind the loss (the generator's lossy samples, cut down to a few
 * packets). Every scenario states what happened on the wire — which copies
 * the network dropped before the tap, what the responder NAKed, where the
 * sender went back — and the counts follow from that statement:
 *
 * - a packet whose PSN is below the highest its flow has shown is a resend
 *   when the first copy was captured, or when the sender is known to be
 *   going back (a sequence NAK not yet acknowledged, a go-back since the
 *   hole opened, a re-issued READ for READ responses, a PSN the responder
 *   acknowledged); only without any of that is it a late (reordered) one;
 * - a go-back-N episode is one PSN going back: a resend run that skips
 *   ahead (the network dropped resends in between) is still one episode;
 * - messages assemble whatever order resends come in, and a hole stays open
 *   while resends of it may still come. */
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
#define QP_A 0x11        /* the requester's QP (responses go to it) */
#define QP_B 0x22        /* the responder's QP (requests go to it) */

#define RC_SEND_ONLY 0x04
#define RC_WRITE_FIRST 0x06
#define RC_WRITE_MIDDLE 0x07
#define RC_WRITE_LAST 0x08
#define RC_WRITE_ONLY 0x0A
#define RC_READ_REQ 0x0C
#define RC_READ_FIRST 0x0D
#define RC_READ_MIDDLE 0x0E
#define RC_READ_LAST 0x0F
#define RC_READ_ONLY 0x10
#define RC_ACK 0x11

#define ACK_SYN 0x1F /* AETH ACK, credits invalid */
#define NAK_SEQ 0x60 /* AETH NAK, PSN sequence error */
#define RNR_NAK 0x21 /* AETH RNR NAK, timer 0.01 ms */

struct env {
	struct rw_analyzer *a;
	uint64_t frame, t;
	int bad_icrc; /* the next packet fed arrives with a bad ICRC */
};

static struct env *env_new(void)
{
	struct env *e = calloc(1, sizeof(*e));
	assert_non_null(e);
	e->a = rw_analyzer_new(NULL);
	assert_non_null(e->a);
	return e;
}

static void env_free(struct env *e)
{
	rw_analyzer_free(e->a);
	free(e);
}

/* Builds p into a frame, decodes it back and feeds it 1 us after the
 * previous one: the engine sees what a capture would give it. */
static struct rw_note feed_packet(struct env *e, struct rw_packet *p)
{
	uint8_t buf[9000];
	size_t n;
	p->carrier = RW_CARRIER_ROCEV2;
	p->present = RW_P_IPV4;
	p->bth.pkey = 0xFFFF;
	assert_int_equal(rw_packet_build(p, RW_LINKTYPE_ETHERNET, 0, buf, sizeof(buf), &n), RW_OK);
	struct rw_packet d;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, buf, n, n, &d), RW_OK);
	if (e->bad_icrc)
		d.icrc_status = RW_CRC_BAD;
	e->bad_icrc = 0;
	struct rw_note note;
	e->t += 1000;
	rw_analyzer_packet(e->a, &d, e->t, ++e->frame, &note);
	return note;
}

/* A request from A to B: payload bytes, or for a READ its DMA length. */
static struct rw_note req(struct env *e, uint8_t opcode, uint32_t psn, uint32_t len)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.ipv4.src = A_IP;
	p.ipv4.dst = B_IP;
	p.bth.opcode = opcode;
	p.bth.dqpn = QP_B;
	p.bth.psn = psn;
	if (rw_opcode(opcode)->flags & RW_OPF_PAYLOAD)
		p.payload_len = len;
	p.reth.dmalen = len;
	return feed_packet(e, &p);
}

static struct rw_note read_req(struct env *e, uint32_t psn, uint64_t va, uint32_t len)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.ipv4.src = A_IP;
	p.ipv4.dst = B_IP;
	p.bth.opcode = RC_READ_REQ;
	p.bth.dqpn = QP_B;
	p.bth.psn = psn;
	p.reth.va = va;
	p.reth.rkey = 0x1234;
	p.reth.dmalen = len;
	return feed_packet(e, &p);
}

/* A request from A to B's QP dqpn (a second connection of the same hosts). */
static struct rw_note req_to(struct env *e, uint32_t dqpn, uint8_t opcode, uint32_t psn, uint32_t len)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.ipv4.src = A_IP;
	p.ipv4.dst = B_IP;
	p.bth.opcode = opcode;
	p.bth.dqpn = dqpn;
	p.bth.psn = psn;
	p.payload_len = len;
	return feed_packet(e, &p);
}

/* A response from B to A's QP dqpn: an ACK/NAK (syndrome) or a READ response. */
static struct rw_note rsp_to(struct env *e, uint32_t dqpn, uint8_t opcode, uint32_t psn,
			     uint8_t syndrome, uint32_t msn, uint32_t payload)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.ipv4.src = B_IP;
	p.ipv4.dst = A_IP;
	p.bth.opcode = opcode;
	p.bth.dqpn = dqpn;
	p.bth.psn = psn;
	p.aeth.syndrome = syndrome;
	p.aeth.msn = msn;
	p.payload_len = payload;
	return feed_packet(e, &p);
}

/* A response from B to A: an ACK/NAK (syndrome) or a READ response. */
static struct rw_note rsp(struct env *e, uint8_t opcode, uint32_t psn, uint8_t syndrome,
			  uint32_t msn, uint32_t payload)
{
	return rsp_to(e, QP_A, opcode, psn, syndrome, msn, payload);
}

/* A SEND at 0 and its ACK: the two directions paired from the start. */
static void pair_at_0(struct env *e)
{
	req(e, RC_SEND_ONLY, 0, 64);
	rsp(e, RC_ACK, 0, ACK_SYN, 1, 0);
}

static const struct rw_flow *flow_to(struct env *e, uint32_t dqpn)
{
	for (uint32_t i = 0; i < rw_analyzer_flow_count(e->a); i++) {
		const struct rw_flow *f = rw_analyzer_flow(e->a, i);
		if (f->key.dqpn == dqpn)
			return f;
	}
	fail_msg("no flow to QP 0x%x", dqpn);
	return NULL;
}

/* A 256-byte WRITE of two packets per message: FIRST at an odd PSN, LAST at
 * the even one after it. */
static struct rw_note write_pkt(struct env *e, uint32_t psn)
{
	return req(e, psn % 2 ? RC_WRITE_FIRST : RC_WRITE_LAST, psn, 128);
}

/* resend_wrong_start as counted, and as held for the capture end (a go-back
 * that started past its NAKed PSN): none of either, whatever comes later. */
static uint64_t wrong_start(const struct rw_flow *f)
{
	return f->conf ? f->conf->count[RW_V_RESEND_WRONG_START] + f->conf->wrong_past_n : 0;
}

/* Item 1 (lossy-gbn, request flow): a SEND at 0x10, a 16 KiB READ at 0x11
 * (4 response PSNs at a 4096-byte MTU: 0x11..0x14) dropped before the tap,
 * a WRITE at 0x15..0x17; the responder NAKs 0x11, the requester resends
 * the READ and the WRITE, then goes on with new SENDs at 0x18..0x1a.
 * Truth: 4 resends (the READ, whose first copy the tap never saw, and the
 * three WRITE packets) in one go-back-N episode asked for by the NAK; the
 * resent READ uses no PSN the flow had not shown, so 0x18.. are new. */
static void test_read_resend_takes_no_new_psns(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_SEND_ONLY, 0x10, 64);
	req(e, RC_WRITE_FIRST, 0x15, 4096); /* the READ at 0x11 was lost */
	req(e, 0x07, 0x16, 4096);
	req(e, RC_WRITE_LAST, 0x17, 512);
	rsp(e, RC_ACK, 0x11, NAK_SEQ, 1, 0);
	struct rw_note n = read_req(e, 0x11, 0x10000, 16384);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	n = req(e, RC_WRITE_FIRST, 0x15, 4096);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_GBN_START); /* the READ's PSNs end at 0x14: it continues */
	req(e, 0x07, 0x16, 4096);
	req(e, RC_WRITE_LAST, 0x17, 512);
	for (uint32_t psn = 0x18; psn <= 0x1a; psn++) {
		n = req(e, RC_SEND_ONLY, psn, 64);
		assert_true(n.flags & RW_N_NEW);
		assert_false(n.flags & RW_N_RETRANS);
	}
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->retransmissions, 4);
	assert_int_equal(f->gbn_episodes, 1);
	assert_int_equal(f->out_of_order, 0);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_nak, 1);
	assert_int_equal(f->conf->resend_by_timeout, 0);
	env_free(e);
}

/* Item 1 (lossy-gbn, response flow): a 4 KiB READ at 0x100 (1 KiB MTU:
 * responses 0x100..0x103) and a SEND at 0x104. The response at 0x101 is
 * lost before the tap; the later 0x102 shows the gap and the requester
 * re-issues the READ at 0x101 (IBA 9.7.5.1.4: address +1 KiB, 3 KiB left)
 * and resends the SEND; the rest of the first responses come (0x103), then
 * the re-issued READ's (0x101..0x103). Truth: on the response flow 3
 * resends (0x101's first copy was never captured, but the requester asked
 * for it again), one gap of one PSN, nothing out of order, one READ of
 * 4 KiB and no message left open; on the request flow 2 resends in one
 * go-back-N episode (no NAK: the requester saw the gap itself). */
static void test_read_response_refilled_after_reissue(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 0x100, 0x10000, 4096);
	req(e, RC_SEND_ONLY, 0x104, 64);
	rsp(e, RC_READ_FIRST, 0x100, ACK_SYN, 1, 1024);
	struct rw_note n = rsp(e, RC_READ_MIDDLE, 0x102, 0, 0, 1024); /* 0x101 lost */
	assert_true(n.flags & RW_N_GAP);
	n = read_req(e, 0x101, 0x10400, 3072);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	n = req(e, RC_SEND_ONLY, 0x104, 64);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_GBN_START); /* the re-issued READ's PSNs run to 0x103 at least */
	rsp(e, RC_READ_LAST, 0x103, ACK_SYN, 1, 1024);
	n = rsp(e, RC_READ_FIRST, 0x101, ACK_SYN, 1, 1024);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_OOO);
	rsp(e, RC_READ_MIDDLE, 0x102, 0, 0, 1024);
	rsp(e, RC_READ_LAST, 0x103, ACK_SYN, 1, 1024);
	rsp(e, RC_ACK, 0x104, ACK_SYN, 2, 0);
	rw_analyzer_finish(e->a, e->t + 1000);
	const struct rw_flow *q = flow_to(e, QP_B), *r = flow_to(e, QP_A);
	assert_int_equal(r->retransmissions, 3);
	assert_int_equal(r->out_of_order, 0);
	assert_int_equal(r->psn_gaps, 1);
	assert_int_equal(r->missing_psns, 1);
	assert_int_equal(r->msg_incomplete + r->msg_cut_end + r->msg_orphans, 0);
	assert_int_equal(q->msgs_by_op[2], 1);
	assert_int_equal(q->bytes_by_op[2], 4096);
	assert_int_equal(q->retransmissions, 2);
	assert_int_equal(q->gbn_episodes, 1);
	assert_non_null(q->conf);
	assert_int_equal(q->conf->count[RW_V_READ_RESUME_WRONG], 0);
	env_free(e);
}

/* Item 2 (lossy-incast, messages): 1200 two-packet WRITEs, PSN 1..2400.
 * The port drops PSN 4; the responder NAKs it when 5 comes; 5..1200 follow
 * (more than the hold keeps: 1024). The resend run loses 4 and 21..1200
 * again; the sender goes on with new PSNs 1201..2400, then times out and
 * resends 4..2400, all captured. Truth: 1200 whole messages, none
 * incomplete, no orphan: the hole at 4 stays open while the responder
 * waits for it, whatever the hold had to let go. */
static void test_hole_kept_while_resends_come(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 3; psn++)
		write_pkt(e, psn);
	write_pkt(e, 5);
	rsp(e, RC_ACK, 4, NAK_SEQ, 1, 0);
	for (uint32_t psn = 6; psn <= 1200; psn++)
		write_pkt(e, psn);
	for (uint32_t psn = 5; psn <= 20; psn++)
		write_pkt(e, psn);
	for (uint32_t psn = 1201; psn <= 2400; psn++)
		write_pkt(e, psn);
	for (uint32_t psn = 4; psn <= 2400; psn++)
		write_pkt(e, psn);
	rsp(e, RC_ACK, 2400, ACK_SYN, 1200, 0);
	rw_analyzer_finish(e->a, e->t + 1000);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->messages, 1200);
	assert_int_equal(f->msgs_by_op[1], 1200);
	assert_int_equal(f->bytes_by_op[1], 1200 * 256);
	assert_int_equal(f->msg_incomplete, 0);
	assert_int_equal(f->msg_orphans, 0);
	assert_int_equal(f->msg_cut_end, 0);
	assert_int_equal(f->gbn_episodes, 2);
	assert_int_equal(f->out_of_order, 0);
	assert_int_equal(f->retransmissions, 16 + 2397);
	env_free(e);
}

/* The hold's other side: a capture that lost one packet the network
 * delivered (PSN 4; no NAK), then a duplicate of 40 (the sender went back
 * once, so resends could still come), and the responder acknowledges 40:
 * it has 4, the capture lost it. The hole is given up at once, and the
 * requests behind it, more than the hold keeps, are all assembled; the
 * message the hole cut (3, 4) is incomplete. Without the responder in the
 * capture (one direction only) and no resend, the hole is given up when
 * the hold is full, with the same count. */
static void test_capture_loss_given_up(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 3; psn++)
		write_pkt(e, psn);
	for (uint32_t psn = 5; psn <= 40; psn++)
		write_pkt(e, psn);
	struct rw_note n = write_pkt(e, 40);
	assert_true(n.flags & RW_N_RETRANS);
	rsp(e, RC_ACK, 40, ACK_SYN, 20, 0);
	for (uint32_t psn = 41; psn <= 2000; psn++)
		write_pkt(e, psn);
	rw_analyzer_finish(e->a, e->t + 1000);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->messages, 999);
	assert_int_equal(f->msg_incomplete, 1);
	assert_int_equal(f->msg_orphans + f->msg_cut_end, 0);
	assert_int_equal(f->retransmissions, 1);
	assert_int_equal(f->out_of_order, 0);
	env_free(e);

	e = env_new();
	for (uint32_t psn = 1; psn <= 2000; psn++)
		if (psn != 4)
			write_pkt(e, psn);
	rw_analyzer_finish(e->a, e->t + 1000);
	f = flow_to(e, QP_B);
	assert_int_equal(f->messages, 999);
	assert_int_equal(f->msg_incomplete, 1);
	assert_int_equal(f->msg_orphans + f->msg_cut_end, 0);
	env_free(e);
}

/* Items 3 and 4 (lossy-incast): SENDs 1..10, 11 lost before the tap,
 * 12..20; the responder NAKs 11. The resend run loses 11, 14, 15 and 18
 * again: the tap sees 12, 13, 16, 17, 19, 20. The sender then times out and
 * resends 11..20, all captured, and the responder acknowledges 20. Truth:
 * 6 + 10 resends, the PSN goes back twice (two go-back-N episodes, one
 * asked for by the NAK, one by a timeout), nothing out of order, and the
 * NAK's resend is not judged as starting at the wrong PSN: the network
 * drops before the tap on this flow (it showed a gap), so the resend of
 * the NAKed PSN could be lost there as the original was. Then SENDs 21,
 * 23, 22: with no NAK and no go-back since that hole opened, 22 is a late
 * (reordered) packet. */
static void test_resend_run_with_drops(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 20; psn++)
		if (psn != 11)
			req(e, RC_SEND_ONLY, psn, 64);
	rsp(e, RC_ACK, 11, NAK_SEQ, 10, 0);
	static const uint32_t run[] = {12, 13, 16, 17, 19, 20};
	for (unsigned i = 0; i < sizeof(run) / sizeof(run[0]); i++) {
		struct rw_note n = req(e, RC_SEND_ONLY, run[i], 64);
		assert_true(n.flags & RW_N_RETRANS);
		assert_false(n.flags & RW_N_OOO);
		if (i == 0)
			assert_true(n.flags & RW_N_GBN_START);
		else
			assert_false(n.flags & RW_N_GBN_START);
	}
	struct rw_note n = req(e, RC_SEND_ONLY, 11, 64); /* the timeout's resend */
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	assert_false(n.flags & RW_N_OOO);
	for (uint32_t psn = 12; psn <= 20; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	rsp(e, RC_ACK, 20, ACK_SYN, 20, 0);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->retransmissions, 6 + 10);
	assert_int_equal(f->gbn_episodes, 2);
	assert_int_equal(f->out_of_order, 0);
	assert_int_equal(f->psn_gaps, 1);
	assert_int_equal(f->missing_psns, 1);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_nak, 1);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	assert_int_equal(wrong_start(f), 0);
	/* With the hole recovered and acknowledged, a later hole filled with
	 * no NAK and no go-back is a reorder again. */
	req(e, RC_SEND_ONLY, 21, 64);
	req(e, RC_SEND_ONLY, 23, 64);
	n = req(e, RC_SEND_ONLY, 22, 64);
	assert_true(n.flags & RW_N_OOO);
	assert_false(n.flags & RW_N_RETRANS);
	assert_int_equal(f->out_of_order, 1);
	assert_int_equal(f->retransmissions, 16);
	assert_int_equal(f->missing_psns, 1); /* 11 stays missing; 22 came late */
	rw_analyzer_finish(e->a, e->t + 1000);
	assert_int_equal(f->messages, 23);
	env_free(e);
}

/* A NAK names the first PSN the tap never saw either, and the resend's
 * first copy the tap sees is a later never-seen one: every PSN from the
 * NAKed one up is sent again while the responder waits, so it is a resend
 * and the first of an episode, never a late packet. */
static void test_first_resend_never_seen(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 5; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	for (uint32_t psn = 9; psn <= 12; psn++) /* 6..8 dropped before the tap */
		req(e, RC_SEND_ONLY, psn, 64);
	rsp(e, RC_ACK, 6, NAK_SEQ, 5, 0);
	struct rw_note n = req(e, RC_SEND_ONLY, 8, 64); /* 6 and 7 dropped again */
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	assert_true(n.flags & RW_N_NEW); /* the first copy this capture saw */
	assert_false(n.flags & RW_N_OOO);
	for (uint32_t psn = 9; psn <= 12; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->retransmissions, 5);
	assert_int_equal(f->gbn_episodes, 1);
	assert_int_equal(f->out_of_order, 0);
	assert_int_equal(f->missing_psns, 3);
	assert_int_equal(wrong_start(f), 0);
	env_free(e);
}

/* No NAK in the capture (one direction only): SENDs 1..5, 6 lost before
 * the tap, 7..10; the sender falls quiet, and 500 us later its timer resends
 * 6..10. Truth: 6 is a resend (the first of an episode by timeout), not a
 * late packet; 7..10 resends. Against it, 11, 13, 12 with 12 one
 * microsecond late and nothing else going on: a reorder. */
static void test_resend_after_quiet_sender(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 10; psn++)
		if (psn != 6)
			req(e, RC_SEND_ONLY, psn, 64);
	e->t += 500000;
	struct rw_note n = req(e, RC_SEND_ONLY, 6, 64);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	assert_false(n.flags & RW_N_OOO);
	for (uint32_t psn = 7; psn <= 10; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	req(e, RC_SEND_ONLY, 11, 64);
	req(e, RC_SEND_ONLY, 13, 64);
	n = req(e, RC_SEND_ONLY, 12, 64);
	assert_true(n.flags & RW_N_OOO);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->retransmissions, 5);
	assert_int_equal(f->gbn_episodes, 1);
	assert_int_equal(f->out_of_order, 1);
	assert_int_equal(f->psn_gaps, 2);
	assert_int_equal(f->missing_psns, 1); /* 6 stays missing; 12 came late */
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	env_free(e);
}

/* A NAK whose ICRC is bad (rocewire-gen's corrupt fault on a response):
 * SENDs 1..4, the responder ACKs 1 and NAKs 2 (the request at 2 was
 * corrupted), but the NAK arrives corrupted and the requester drops it;
 * 200 us later its timer resends 2..4. Truth: one go-back, the timer's,
 * not the NAK's. */
static void test_corrupt_nak_asks_nothing(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 4; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	rsp(e, RC_ACK, 1, ACK_SYN, 1, 0);
	e->bad_icrc = 1;
	rsp(e, RC_ACK, 2, NAK_SEQ, 1, 0);
	e->t += 200000;
	struct rw_note n = req(e, RC_SEND_ONLY, 2, 64);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, RC_SEND_ONLY, 3, 64);
	req(e, RC_SEND_ONLY, 4, 64);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->gbn_episodes, 1);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_nak, 0);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	env_free(e);
}

/* A NAK before the pairing (rocewire-gen's psn_stride 0: two QPs of the
 * same hosts send the same PSNs): QP_B gets 1..3, QP_B + 1 gets 1..2; the
 * responder of QP_B NAKs 2, which both request flows sent (no pairing
 * yet); QP_B's requester goes back to 2 at once; then an ACK of 3, which
 * only QP_B sent, pairs the two directions. Truth: QP_B's go-back was the
 * NAK's. */
static void test_nak_before_pairing(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 3; psn++)
		req_to(e, QP_B, RC_SEND_ONLY, psn, 64);
	for (uint32_t psn = 1; psn <= 2; psn++)
		req_to(e, QP_B + 1, RC_SEND_ONLY, psn, 64);
	rsp(e, RC_ACK, 2, NAK_SEQ, 1, 0);
	struct rw_note n = req_to(e, QP_B, RC_SEND_ONLY, 2, 64);
	assert_true(n.flags & RW_N_GBN_START);
	req_to(e, QP_B, RC_SEND_ONLY, 3, 64);
	n = rsp(e, RC_ACK, 3, ACK_SYN, 3, 0);
	assert_true(n.flags & RW_N_PAIRED);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->peer, flow_to(e, QP_A)->index);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_nak, 1);
	assert_int_equal(f->conf->resend_by_timeout, 0);
	env_free(e);
}

/* Two NAKs before the pairing (diff seed 100013: the pairing came long
 * after several go-backs): QP_B gets 1..4, QP_B + 1 gets 1..4 too; the
 * responder of QP_B NAKs 2 (both sent it), QP_B goes back to 2, then NAKs
 * 3 and QP_B goes back to 3; an ACK of 5, which only QP_B sent, pairs the
 * two. Truth: both go-backs were the NAKs', not only the last. */
static void test_naks_before_pairing_each_their_go_back(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 4; psn++)
		req_to(e, QP_B, RC_SEND_ONLY, psn, 64);
	for (uint32_t psn = 1; psn <= 4; psn++)
		req_to(e, QP_B + 1, RC_SEND_ONLY, psn, 64);
	rsp(e, RC_ACK, 2, NAK_SEQ, 1, 0);
	assert_true(req_to(e, QP_B, RC_SEND_ONLY, 2, 64).flags & RW_N_GBN_START);
	req_to(e, QP_B, RC_SEND_ONLY, 3, 64);
	rsp(e, RC_ACK, 3, NAK_SEQ, 2, 0);
	assert_true(req_to(e, QP_B, RC_SEND_ONLY, 3, 64).flags & RW_N_GBN_START);
	req_to(e, QP_B, RC_SEND_ONLY, 4, 64);
	req_to(e, QP_B, RC_SEND_ONLY, 5, 64);
	struct rw_note n = rsp(e, RC_ACK, 5, ACK_SYN, 5, 0);
	assert_true(n.flags & RW_N_PAIRED);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_nak, 2);
	assert_int_equal(f->conf->resend_by_timeout, 0);
	env_free(e);
}

/* Implied NAKs (IBA 9.7.5.1.4): READs at 1 and 2 (one 256-byte response
 * each); the response to 1 is lost before the tap, the response to 2
 * comes: the requester sees 1's missing and re-issues it at once. Then a
 * 1 KiB READ at 3 (responses 3..6 at a 256-byte MTU) and a SEND at 7:
 * 3 comes, 4 is lost, 5 comes: the requester re-issues the READ at 4
 * (address + 256, 768 bytes). Truth: two go-backs, both implied by a response, none by a NAK
 * or the timer. */
static void test_implied_read_reissue(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 1, 0x1000, 256);
	read_req(e, 2, 0x2000, 256);
	rsp(e, 0x10, 2, ACK_SYN, 2, 256); /* READ_RESPONSE_ONLY */
	struct rw_note n = read_req(e, 1, 0x1000, 256);
	assert_true(n.flags & RW_N_GBN_START);
	rsp(e, 0x10, 1, ACK_SYN, 2, 256);
	read_req(e, 3, 0x3000, 1024);
	req(e, RC_SEND_ONLY, 7, 64);
	rsp(e, RC_READ_FIRST, 3, ACK_SYN, 3, 256);
	rsp(e, RC_READ_MIDDLE, 5, 0, 0, 256);
	n = read_req(e, 4, 0x3100, 768);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->gbn_episodes, 2);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 2);
	assert_int_equal(f->conf->resend_by_timeout, 0);
	assert_int_equal(f->conf->resend_by_nak, 0);
	assert_int_equal(f->conf->count[RW_V_READ_RESUME_WRONG], 0);
	env_free(e);
}

/* A 4 KiB READ at 0 (1 KiB MTU): FIRST 0 comes, 1 is lost, 2 and the LAST 3
 * come (a SEND at 4 after it): the requester re-issues it at 1 at once
 * (implied), and goes back no further (the SEND waits unanswered). The re-issue's
 * FIRST 1 is lost again and its 2 and 3 come; this time the requester
 * waits: it re-issues 1 ms later, which is its timer's, not the gap's
 * (diff seed 100865). */
static void test_read_gap_again_timer(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 0, 0x1000, 4096);
	req(e, RC_SEND_ONLY, 4, 64);
	rsp(e, RC_READ_FIRST, 0, ACK_SYN, 1, 1024);
	rsp(e, RC_READ_MIDDLE, 2, 0, 0, 1024);
	rsp(e, RC_READ_LAST, 3, ACK_SYN, 1, 1024);
	struct rw_note n = read_req(e, 1, 0x1400, 3072);
	assert_true(n.flags & RW_N_GBN_START);
	rsp(e, RC_READ_MIDDLE, 2, 0, 0, 1024);
	rsp(e, RC_READ_LAST, 3, ACK_SYN, 1, 1024);
	e->t += 1000000;
	n = read_req(e, 1, 0x1400, 3072);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->gbn_episodes, 2);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	env_free(e);
}

/* The capture starts with a NAK of PSN 5 (its request lost before the tap)
 * and then the requester's resend of 5, the first request it shows: that
 * request answered the NAK. The ACK of 7 is lost, and 260 us later the
 * timer resends 7: a timeout go-back, not the NAK's answer starting at the
 * wrong PSN (diff seed 100979). */
static void test_nak_answered_by_first_request(void **state)
{
	(void)state;
	struct env *e = env_new();
	rsp(e, RC_ACK, 5, NAK_SEQ, 0, 0);
	req(e, RC_SEND_ONLY, 5, 64);
	req(e, RC_SEND_ONLY, 6, 64);
	rsp(e, RC_ACK, 5, ACK_SYN, 1, 0);
	rsp(e, RC_ACK, 6, ACK_SYN, 2, 0);
	req(e, RC_SEND_ONLY, 7, 64);
	e->t += 260000;
	struct rw_note n = req(e, RC_SEND_ONLY, 7, 64);
	assert_true(n.flags & RW_N_GBN_START);
	rsp(e, RC_ACK, 7, ACK_SYN, 3, 0);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->gbn_episodes, 1);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	assert_int_equal(f->conf->resend_by_nak, 0);
	assert_int_equal(wrong_start(f), 0);
	env_free(e);
}

/* A READ at 1 (PSNs 1 and 2) and SENDs at 3 and 4 go unanswered; the timer
 * resends all four. This time the READ's FIRST comes, its LAST is corrupted,
 * 3 is acknowledged and 4 NAKed: the requester re-issues the READ at 2 at
 * once, because the ACK of 3 showed its LAST missing (implied), though the
 * timer's go-back had sent the READ again: an answer came since, which it
 * acts on (diff seed 101645). */
static void test_implied_after_timer_resend(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 1024);
	req(e, RC_SEND_ONLY, 3, 512);
	req(e, RC_SEND_ONLY, 4, 64);
	e->t += 1000000;
	struct rw_note n = read_req(e, 1, 0x1000, 1024);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, RC_SEND_ONLY, 3, 512);
	req(e, RC_SEND_ONLY, 4, 64);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 512);
	e->bad_icrc = 1;
	rsp(e, RC_READ_LAST, 2, ACK_SYN, 2, 512);
	rsp(e, RC_ACK, 3, ACK_SYN, 3, 0);
	rsp(e, RC_ACK, 4, NAK_SEQ, 3, 0);
	n = read_req(e, 2, 0x1200, 512);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->resend_by_nak, 0);
	env_free(e);
}

/* rocewire-gen's seed 72: READs of 700 bytes at 2, 3 and 4 (one response
 * PSN each; the MTU is not known to the tap), then a SEND at 5. The
 * response to 2 is lost before the tap; 3's and 4's come, and the ACK of 5
 * shows 2's answer missing: the requester re-issues the READ at 2 and, go-
 * back-N, resends the READs at 3 and 4 and the SEND. Truth: one go-back,
 * implied; the READs at 3 and 4 are resends of their own requests, not the
 * READ at 2 resumed inside its responses (no read_resume_wrong). */
static void test_resend_run_of_reads(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 2, 0x2000, 700);
	read_req(e, 3, 0x3000, 700);
	read_req(e, 4, 0x4000, 700);
	req(e, RC_SEND_ONLY, 5, 64);
	rsp(e, 0x10, 3, ACK_SYN, 1, 700); /* READ_RESPONSE_ONLY; 2's lost */
	rsp(e, 0x10, 4, ACK_SYN, 2, 700);
	rsp(e, RC_ACK, 5, ACK_SYN, 3, 0);
	struct rw_note n = read_req(e, 2, 0x2000, 700);
	assert_true(n.flags & RW_N_GBN_START);
	n = read_req(e, 3, 0x3000, 700);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_GBN_START);
	read_req(e, 4, 0x4000, 700);
	req(e, RC_SEND_ONLY, 5, 64);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->gbn_episodes, 1);
	assert_int_equal(f->retransmissions, 4);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->count[RW_V_READ_RESUME_WRONG], 0);
	env_free(e);
}

/* rocewire-gen's seed 24: a SEND at 1, a FETCH_ADD at 2, a SEND at 3; the
 * requester's timer sends all three again; the atomic ACK of the resent 2
 * is lost before the tap, the ACK of 3 comes. A SEND at 4 is lost, 5 comes,
 * the responder NAKs 4, the requester goes back there; then its timer
 * sends the FETCH_ADD at 2 again. Truth: the atomic resent at the first
 * go-back waits for its own answer or the timer (rxe's started_retry): the
 * ACK of 3 came after the resend and shows nothing missing. Causes:
 * timeout, NAK, timeout; nothing implied. */
static void test_resent_atomic_waits_for_its_answer(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_SEND_ONLY, 1, 64);
	req(e, 0x14, 2, 0); /* FETCH_ADD */
	req(e, RC_SEND_ONLY, 3, 64);
	e->t += 200000;
	struct rw_note n = req(e, RC_SEND_ONLY, 1, 64);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, 0x14, 2, 0);
	req(e, RC_SEND_ONLY, 3, 64);
	rsp(e, RC_ACK, 1, ACK_SYN, 1, 0);
	rsp(e, RC_ACK, 3, ACK_SYN, 3, 0); /* the atomic ACK of 2 was lost */
	req(e, RC_SEND_ONLY, 5, 64);      /* 4 was lost */
	rsp(e, RC_ACK, 4, NAK_SEQ, 3, 0);
	n = req(e, RC_SEND_ONLY, 4, 64);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, RC_SEND_ONLY, 5, 64);
	rsp(e, RC_ACK, 5, ACK_SYN, 5, 0);
	e->t += 200000;
	n = req(e, 0x14, 2, 0);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_nak, 1);
	assert_int_equal(f->conf->resend_by_implied, 0);
	assert_int_equal(f->conf->resend_by_timeout, 2);
	env_free(e);
}

/* rocewire-gen's seed 517, as READs: READs at 0 and 1 (one 256-byte
 * response each); the first copy of 1 is lost before the tap, and so is
 * 0's response. The requester's timer sends 0 and 1 again (the tap sees
 * 1's resend as its first copy); 0's answer comes, 1's is lost again. A
 * READ at 2 is answered: the answer shows 1's missing, but 1 was sent
 * again since its last answer, so the requester waits for its own answer
 * or the timer (rxe's started_retry), and 200 us later its timer sends 1
 * again. Truth: two go-backs, both the timer's. The tap cannot see that 1
 * went out in the first go-back, but it sees the requester let the answer
 * pass: a requester acts on a response within microseconds, so a go-back
 * 200 us after it (past RESPONSE_ACT_NS) is its timer's, not the
 * response's. */
static void test_late_go_back_after_response_is_timeout(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 0, 0x1000, 256);
	e->t += 200000;
	struct rw_note n = read_req(e, 0, 0x1000, 256);
	assert_true(n.flags & RW_N_GBN_START);
	read_req(e, 1, 0x2000, 256);
	rsp(e, 0x10, 0, ACK_SYN, 1, 256); /* READ_RESPONSE_ONLY */
	read_req(e, 2, 0x3000, 256);
	rsp(e, 0x10, 2, ACK_SYN, 2, 256);
	e->t += 200000;
	n = read_req(e, 1, 0x2000, 256);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->gbn_episodes, 2);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_timeout, 2);
	assert_int_equal(f->conf->resend_by_implied, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 101037: a 1 KiB READ at 0 (its responses take
 * 1 to 4 PSNs, the MTU unknown to the tap), a SEND at 1 that arrives with a
 * bad ICRC (the responder drops it) and a SEND at 2. The bad packet's PSN
 * shows the READ took one PSN: the responder expects 1 and holds nothing
 * past it, so the SEND at 2 completes nothing; the resends of 1 and 2 do.
 * Truth: two SENDs done, each by its resend. */
static void test_bad_icrc_after_read_ends_its_span(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 0, 0x1000, 1024);
	e->bad_icrc = 1;
	req(e, RC_SEND_ONLY, 1, 64);
	struct rw_note n = req(e, RC_SEND_ONLY, 2, 64);
	assert_false(n.flags & RW_N_MSG_DONE);
	e->t += 200000;
	n = req(e, RC_SEND_ONLY, 1, 64);
	assert_true(n.flags & RW_N_MSG_DONE);
	n = req(e, RC_SEND_ONLY, 2, 64);
	assert_true(n.flags & RW_N_MSG_DONE);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->msgs_by_op[0], 2);
	env_free(e);
}

/* rocewire-gen's diff seed 100204: two QPs of one host pair, both at PSN 0
 * (the tap cannot tell their answers apart yet). Each sends a SEND at 0 and
 * at 1; the responder of the first refuses 0 with an RNR NAK, and then the
 * responder of the second NAKs a PSN 1 for its own. The first QP's resend
 * of 0 is the go-back its NAK asked for, though another NAK came since:
 * its two SENDs were refused and complete with their resends. Truth: on
 * the first QP, the resends of 0 and 1 complete its two messages. */
static void test_unpaired_naks_kept_apart(void **state)
{
	(void)state;
	struct env *e = env_new();
	const uint32_t qp_c = 0x33, qp_a2 = 0x44;
	req(e, RC_SEND_ONLY, 0, 64);
	req_to(e, qp_c, RC_SEND_ONLY, 0, 64);
	req(e, RC_SEND_ONLY, 1, 64);
	req_to(e, qp_c, RC_SEND_ONLY, 1, 64);
	rsp_to(e, QP_A, RC_ACK, 0, RNR_NAK, 0, 0);
	rsp_to(e, qp_a2, RC_ACK, 1, NAK_SEQ, 1, 0);
	e->t += 100000;
	struct rw_note n = req(e, RC_SEND_ONLY, 0, 64);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_MSG_DONE);
	n = req(e, RC_SEND_ONLY, 1, 64);
	assert_true(n.flags & RW_N_MSG_DONE);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->msgs_by_op[0], 2);
	env_free(e);
}

/* rocewire-gen's diff seed 101739: two QPs of one host pair send the same
 * PSNs (1 to 6); the capture cannot tell their answers apart. The second
 * QP's responder NAKs 4. The first QP goes back from 2 on its timer and
 * passes 4 on the way; then the second goes back to 4, where the NAK's
 * go-back starts (IBA 9.7.5.1.3): the NAK is the second QP's. Its SENDs 4
 * to 6 were refused and complete with their resends; the first QP's
 * resends are duplicates of what its responder took. */
static void test_unpaired_nak_taken_where_go_back_starts(void **state)
{
	(void)state;
	struct env *e = env_new();
	const uint32_t qp_c = 0x33, qp_a2 = 0x44;
	for (uint32_t psn = 1; psn <= 6; psn++) {
		req(e, RC_SEND_ONLY, psn, 64);
		req_to(e, qp_c, RC_SEND_ONLY, psn, 64);
	}
	rsp_to(e, qp_a2, RC_ACK, 4, NAK_SEQ, 3, 0);
	e->t += 100000;
	for (uint32_t psn = 2; psn <= 6; psn++) {
		struct rw_note n = req(e, RC_SEND_ONLY, psn, 64);
		assert_true(n.flags & RW_N_RETRANS);
		assert_false(n.flags & RW_N_MSG_DONE);
	}
	for (uint32_t psn = 4; psn <= 6; psn++) {
		struct rw_note n = req_to(e, qp_c, RC_SEND_ONLY, psn, 64);
		assert_true(n.flags & RW_N_RETRANS);
		assert_true(n.flags & RW_N_MSG_DONE);
	}
	assert_int_equal(flow_to(e, QP_B)->messages, 6);
	assert_int_equal(flow_to(e, qp_c)->messages, 6);
	env_free(e);
}

/* rocewire-gen's diff seed 101438: the capture starts with a SEND at 7,
 * then the resends of 4, 5 and 6 (a go-back whose NAK came before the
 * capture: their first copies went by before it). The responder
 * acknowledges 4 and NAKs 5: it had refused 5 to 7, which come again.
 * Truth: SENDs 5, 6 and 7 complete with their last resends, in the
 * window; only 4, which its responder had before the capture, is cut by
 * the capture start (counted once, not also as cut for 5 and 6). */
static void test_precapture_resend_completed_is_no_cut(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_SEND_ONLY, 7, 64);
	e->t += 200000;
	struct rw_note n = req(e, RC_SEND_ONLY, 4, 64);
	assert_true(n.flags & RW_N_PRECAPTURE);
	req(e, RC_SEND_ONLY, 5, 64);
	req(e, RC_SEND_ONLY, 6, 64);
	rsp(e, RC_ACK, 4, ACK_SYN, 1, 0);
	rsp(e, RC_ACK, 5, NAK_SEQ, 1, 0);
	req(e, RC_SEND_ONLY, 5, 64);
	req(e, RC_SEND_ONLY, 6, 64);
	n = req(e, RC_SEND_ONLY, 7, 64);
	assert_true(n.flags & RW_N_MSG_DONE);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->messages, 3);
	assert_int_equal(f->msg_cut_start, 1);
	env_free(e);
}

/* rocewire-gen's diff seed 100111: a 512-byte READ at 1 (two 256-byte
 * responses, 1 and 2) and a FETCH_ADD at 3. The READ's FIRST comes, its
 * LAST is lost; the atomic ACK of 3 shows the READ's answer missing, and
 * the requester re-issues the READ at 2 at once (IBA 9.7.5.1.4) and sends
 * the FETCH_ADD again behind it; the re-issued READ is lost before the tap.
 * Truth: one go-back, implied by the atomic ACK, though the first resend
 * the tap sees is the FETCH_ADD its own answer had come for. */
static void test_implied_reissue_lost_before_tap(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 1, 0x1000, 512);
	req(e, 0x14, 3, 0); /* FETCH_ADD */
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 1, 256);
	rsp(e, 0x12, 3, ACK_SYN, 2, 0); /* ATOMIC_ACKNOWLEDGE */
	struct rw_note n = req(e, 0x14, 3, 0);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->resend_by_timeout, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 173: a SEND at 0 (acknowledged), a 512-byte
 * READ at 1 (responses 1 and 2), a SEND at 3. The READ's FIRST is lost,
 * its LAST shows the gap, and the requester goes back to the READ at once
 * (IBA 9.7.5.1.4); the re-issued READ is lost before the tap, so the first
 * resend the tap sees is the SEND at 3. Truth: one go-back, implied by the
 * READ's own later response, not the timer's. */
static void test_implied_by_read_gap_reissue_lost(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 512);
	req(e, RC_SEND_ONLY, 3, 64);
	rsp(e, RC_READ_LAST, 2, ACK_SYN, 2, 256);
	struct rw_note n = req(e, RC_SEND_ONLY, 3, 64);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->resend_by_timeout, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 481, cut: the window starts after a 512-byte
 * READ at 1 (responses 1 and 2) was sent and holds a READ at 3. The first
 * response of the READ at 1 comes corrupted (the requester drops it), its
 * LAST is dropped as past the hole; the READ at 3 is answered. The
 * requester re-issues the READ at 1 (and the one at 3 behind it): its
 * FIRST, below the responses seen since, resumes the READ that waits, and
 * its LAST completes it. */
static void test_read_after_corrupt_first_completes(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 3, 0x2000, 512);
	e->bad_icrc = 1;
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 1, 256);
	rsp(e, RC_READ_LAST, 2, ACK_SYN, 1, 256);
	rsp(e, RC_READ_FIRST, 3, ACK_SYN, 2, 256);
	struct rw_note n = rsp(e, RC_READ_LAST, 4, ACK_SYN, 2, 256);
	assert_true(n.flags & RW_N_MSG_DONE);
	read_req(e, 1, 0x1000, 512);
	read_req(e, 3, 0x2000, 512);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
	n = rsp(e, RC_READ_LAST, 2, ACK_SYN, 2, 256);
	assert_true(n.flags & RW_N_MSG_DONE);
	env_free(e);
}

/* rocewire-gen's diff seeds 100280 and 100396: READs at 1, 2 and 4 (one
 * 256-byte response each), a SEND at 3. The response to 2 is lost; the
 * ACK of 3 shows it missing, and the response to 4 comes. The requester
 * re-issues the READ at 2 and sends 3 and the READ at 4 again behind it.
 * The response to 2, below the responses seen since, is the one the
 * requester waits for: a message. The second response to 4, a READ
 * answered whole already, is none. */
static void test_read_reissued_answer_below_later_ones(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 256);
	assert_true(rsp(e, 0x10, 1, ACK_SYN, 2, 256).flags & RW_N_MSG_DONE);
	read_req(e, 2, 0x2000, 256);
	req(e, RC_SEND_ONLY, 3, 64);
	read_req(e, 4, 0x4000, 256);
	rsp(e, RC_ACK, 3, ACK_SYN, 4, 0);
	assert_true(rsp(e, 0x10, 4, ACK_SYN, 5, 256).flags & RW_N_MSG_DONE);
	read_req(e, 2, 0x2000, 256);
	req(e, RC_SEND_ONLY, 3, 64);
	read_req(e, 4, 0x4000, 256);
	assert_true(rsp(e, 0x10, 2, ACK_SYN, 5, 256).flags & RW_N_MSG_DONE);
	assert_false(rsp(e, 0x10, 4, ACK_SYN, 5, 256).flags & RW_N_MSG_DONE);
	assert_int_equal(flow_to(e, QP_A)->messages, 3);
	env_free(e);
}

/* rocewire-gen's diff seed 100571: a 1536-byte READ at 1 (responses 1..6
 * at a 256-byte MTU), a SEND at 7. Its first answer loses 5: the READ
 * waits to resume at 5. A go-back (the timer's) sends the READ again
 * whole, and its answer brings 1..6: the READ completes there (the
 * requester takes responses by PSN). The READ resumed at 5 is answered
 * too: a duplicate, no second message. */
static void test_read_completed_by_whole_copy_then_resume(void **state)
{
	(void)state;
	/* after: 0, a SEND at 7; 1, a READ at 7 answered before the whole
	 * copy (the first READ waits aside for its resume meanwhile) */
	for (int after = 0; after < 2; after++) {
		struct env *e = env_new();
		pair_at_0(e);
		read_req(e, 1, 0x1000, 1536);
		if (after)
			read_req(e, 7, 0x8000, 256);
		else
			req(e, RC_SEND_ONLY, 7, 64);
		rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
		for (uint32_t psn = 2; psn <= 4; psn++)
			rsp(e, RC_READ_MIDDLE, psn, 0, 0, 256);
		rsp(e, RC_READ_LAST, 6, ACK_SYN, 2, 256);
		if (after)
			assert_true(rsp(e, 0x10, 7, ACK_SYN, 3, 256).flags & RW_N_MSG_DONE);
		read_req(e, 1, 0x1000, 1536);
		read_req(e, 5, 0x1000 + 1024, 512);
		rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
		for (uint32_t psn = 2; psn <= 5; psn++)
			rsp(e, RC_READ_MIDDLE, psn, 0, 0, 256);
		assert_true(rsp(e, RC_READ_LAST, 6, ACK_SYN, 2, 256).flags & RW_N_MSG_DONE);
		rsp(e, RC_READ_FIRST, 5, ACK_SYN, 2, 256);
		assert_false(rsp(e, RC_READ_LAST, 6, ACK_SYN, 2, 256).flags & RW_N_MSG_DONE);
		rw_analyzer_finish(e->a, e->t);
		const struct rw_flow *g = flow_to(e, QP_A);
		assert_int_equal(g->messages, 1 + after);
		assert_int_equal(g->msg_cut_end + g->msg_incomplete, 0);
		env_free(e);
	}
}

/* rocewire-gen's diff seed 101752: READs at 1 (responses 1..2) and 3
 * (3..5), 256-byte MTU. Both LASTs come corrupted. The second READ's
 * responses, ending with its corrupted LAST, show the first's LAST
 * missing: the requester re-issues the first READ from 2 at once.
 * Truth: implied, not the timer's, though no good response ended past 2. */
static void test_corrupt_last_ends_burst_for_implied(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 512);
	read_req(e, 3, 0x2000, 768);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
	e->bad_icrc = 1;
	rsp(e, RC_READ_LAST, 2, ACK_SYN, 2, 256);
	rsp(e, RC_READ_FIRST, 3, ACK_SYN, 2, 256);
	rsp(e, RC_READ_MIDDLE, 4, 0, 0, 256);
	e->bad_icrc = 1;
	rsp(e, RC_READ_LAST, 5, ACK_SYN, 3, 256);
	struct rw_note n = read_req(e, 2, 0x1000 + 256, 256);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->resend_by_timeout, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 100479: FETCH_ADDs at 1 and 2, SENDs at 3
 * (lost before the tap) and 4. The atomic ACK of 1 is lost; that of 2
 * shows 1's missing and the requester re-issues it at once, going on
 * with 2, 3, 4; the responder's NAK of 3 (for 4) came between, after the
 * atomic ACK. Truth: the go-back is implied; the NAK is answered by the
 * resend of 3 on the way. */
static void test_implied_before_nak_below_it(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	req(e, 0x14, 1, 0); /* FETCH_ADD */
	req(e, 0x14, 2, 0);
	req(e, RC_SEND_ONLY, 4, 64);
	rsp(e, 0x12, 2, ACK_SYN, 3, 0); /* ATOMIC_ACKNOWLEDGE */
	rsp(e, RC_ACK, 3, NAK_SEQ, 3, 0);
	struct rw_note n = req(e, 0x14, 1, 0);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, 0x14, 2, 0);
	req(e, RC_SEND_ONLY, 3, 64);
	req(e, RC_SEND_ONLY, 4, 64);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->resend_by_nak, 0);
	assert_int_equal(wrong_start(f), 0);
	env_free(e);
}

/* rocewire-gen's diff seed 101732, cut: a READ's only response comes
 * corrupted and the capture ends before its re-issue. Nothing of that
 * READ is in the window whole or in part: no message, no cut, nothing
 * incomplete (its re-issue would be a READ answered on its own). */
static void test_corrupt_read_only_counts_nothing(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 256);
	e->bad_icrc = 1;
	rsp(e, 0x10, 1, ACK_SYN, 2, 256); /* READ_RESPONSE_ONLY */
	rw_analyzer_finish(e->a, e->t);
	const struct rw_flow *g = flow_to(e, QP_A);
	assert_int_equal(g->messages, 0);
	assert_int_equal(g->msg_cut_end + g->msg_cut_start + g->msg_incomplete, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 100111: two QPs of one host pair both send a
 * READ at 1; its response to the first comes while the tap cannot tell
 * which QP it answers. The ACK of the first QP's SEND at 2 pairs it; its
 * SEND at 3 is acknowledged and then sent again on its timer. Truth: the
 * READ was answered (before the pairing), so the ACK of 3 showed nothing
 * missing: the go-back is the timer's, not implied. */
static void test_read_answered_before_pairing(void **state)
{
	(void)state;
	struct env *e = env_new();
	const uint32_t qp_c = 0x33;
	read_req(e, 1, 0x1000, 256);
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.ipv4.src = A_IP;
	p.ipv4.dst = B_IP;
	p.bth.opcode = RC_READ_REQ;
	p.bth.dqpn = qp_c;
	p.bth.psn = 1;
	p.reth.va = 0x9000;
	p.reth.rkey = 0x1234;
	p.reth.dmalen = 256;
	feed_packet(e, &p);
	struct rw_note n = rsp(e, 0x10, 1, ACK_SYN, 1, 256); /* READ_RESPONSE_ONLY */
	assert_false(n.flags & RW_N_PAIRED);
	req(e, RC_SEND_ONLY, 2, 64);
	n = rsp(e, RC_ACK, 2, ACK_SYN, 2, 0);
	assert_true(n.flags & RW_N_PAIRED);
	req(e, RC_SEND_ONLY, 3, 64);
	rsp(e, RC_ACK, 3, ACK_SYN, 3, 0);
	n = req(e, RC_SEND_ONLY, 3, 64);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 0);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	env_free(e);
}

/* rocewire-gen's diff seed 51: 512-byte READs at 1 and 3 (two 256-byte
 * responses each); the first READ's LAST is lost. The second READ's FIRST
 * comes, its LAST 50 us later (a slow link), and the requester, which
 * checks what is missing when a response ends what it answers, re-issues
 * the first READ at 2 at once. Truth: one go-back, implied by the second
 * READ's LAST, not by its FIRST 50 us before (which would make it the
 * timer's). */
static void test_implied_by_reads_last_response(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 1, 0x1000, 512);
	read_req(e, 3, 0x2000, 512);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 1, 256);
	rsp(e, RC_READ_FIRST, 3, ACK_SYN, 1, 256);
	e->t += 50000;
	rsp(e, RC_READ_LAST, 4, ACK_SYN, 2, 256);
	struct rw_note n = read_req(e, 2, 0x1100, 256);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->resend_by_timeout, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 321: a requester with a 50 us retransmission
 * timer sends SENDs at 1, 2 and 3; 1 is lost before the tap. Nothing
 * answers; 50 us later the timer sends all three again. Truth: 1's resend
 * is a retransmission starting a go-back (the sender was quiet 50 us:
 * longer than any packet is overtaken in flight), not a late packet, and
 * 1 stays missing. */
static void test_resend_on_50us_timer(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_SEND_ONLY, 0, 64);
	req(e, RC_SEND_ONLY, 2, 64);
	req(e, RC_SEND_ONLY, 3, 64);
	e->t += 50000;
	struct rw_note n = req(e, RC_SEND_ONLY, 1, 64);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	assert_false(n.flags & RW_N_OOO);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->out_of_order, 0);
	assert_int_equal(f->missing_psns, 1);
	env_free(e);
}

/* rocewire-gen's diff seed 100678: a SEND at 0, acknowledged (the two
 * directions are paired), then a 1 KiB READ at 1 (four 256-byte
 * responses); its FIRST is lost before the tap, the other three come; the
 * requester re-issues the READ and all four come again. Truth: one READ,
 * completed by the second LAST; nothing is cut by the capture start (the
 * capture saw the READ's request). */
static void test_read_rest_after_lost_first_is_no_cut(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 1024);
	rsp(e, RC_READ_MIDDLE, 2, 0, 0, 256);
	rsp(e, RC_READ_MIDDLE, 3, 0, 0, 256);
	rsp(e, RC_READ_LAST, 4, ACK_SYN, 1, 256);
	read_req(e, 1, 0x1000, 1024);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 1, 256);
	rsp(e, RC_READ_MIDDLE, 2, 0, 0, 256);
	rsp(e, RC_READ_MIDDLE, 3, 0, 0, 256);
	struct rw_note n = rsp(e, RC_READ_LAST, 4, ACK_SYN, 1, 256);
	assert_true(n.flags & RW_N_MSG_DONE);
	const struct rw_flow *f = flow_to(e, QP_A);
	assert_int_equal(f->msg_cut_start, 0);
	assert_int_equal(f->messages, 1);
	env_free(e);
}

/* rocewire-gen's seed 8: a 2 KiB READ at 0 (responses 0 and 1 at a 1 KiB
 * MTU), a SEND at 2 lost before the tap, a SEND at 3. The READ's LAST comes
 * with a bad ICRC (the requester drops it); the responder NAKs 2. The NAK
 * acknowledges the READ, whose LAST the requester lacks: it goes back to
 * the READ, re-issued at 1 (address + 1 KiB, 1 KiB left, IBA 9.7.5.1.4),
 * and resends 2 and 3 on the way. Truth: one go-back, the NAK's; the resend
 * that starts below the NAKed PSN at the re-issued READ is right, and so is
 * the resumed READ (the dropped LAST brought nothing). */
static void test_nak_past_read_missing_its_last(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 0, 0x10000, 2048);
	req(e, RC_SEND_ONLY, 3, 64);
	rsp(e, RC_READ_FIRST, 0, ACK_SYN, 1, 1024);
	e->bad_icrc = 1;
	rsp(e, RC_READ_LAST, 1, ACK_SYN, 1, 1024);
	rsp(e, RC_ACK, 2, NAK_SEQ, 1, 0);
	struct rw_note n = read_req(e, 1, 0x10400, 1024);
	assert_true(n.flags & RW_N_GBN_START);
	req(e, RC_SEND_ONLY, 2, 64);
	req(e, RC_SEND_ONLY, 3, 64);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->gbn_episodes, 1);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_nak, 1);
	assert_int_equal(wrong_start(f), 0);
	assert_int_equal(f->conf->count[RW_V_READ_RESUME_WRONG], 0);
	env_free(e);
}

/* rocewire-gen's seed 242: two QPs of one host pair start at the same PSN.
 * QP_B is sent a 2 KiB READ at 0 (responses 0 and 1 at a 1 KiB MTU), the
 * QP 0x33 a READ at 0 and one at 1 (one response each). The first
 * response to QP_B's READ could answer either READ at 0; its LAST, at PSN
 * 1, carries a PSN after its READ's, which only the other QP sent (as a
 * READ of its own, whose response would be a FIRST or ONLY): it pairs
 * nothing. */
static void test_read_last_pairs_nothing(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 0, 0x10000, 2048);
	struct rw_packet p;
	for (uint32_t psn = 0; psn <= 1; psn++) {
		memset(&p, 0, sizeof(p));
		p.ipv4.src = A_IP;
		p.ipv4.dst = B_IP;
		p.bth.opcode = RC_READ_REQ;
		p.bth.dqpn = 0x33;
		p.bth.psn = psn;
		p.reth.va = 0x20000 + psn * 512;
		p.reth.rkey = 0x1234;
		p.reth.dmalen = 512;
		feed_packet(e, &p);
	}
	struct rw_note n = rsp(e, RC_READ_FIRST, 0, ACK_SYN, 1, 1024);
	assert_false(n.flags & RW_N_PAIRED); /* both sent a READ at 0 */
	n = rsp(e, RC_READ_LAST, 1, ACK_SYN, 1, 1024);
	assert_false(n.flags & RW_N_PAIRED);
	assert_true(flow_to(e, 0x33)->peer < 0);
	env_free(e);
}

/* rocewire-gen's seed 65, cut: the window holds QP_B's requests from a
 * FETCH_ADD at 6 on, and a plain ACK of PSN 6 from the responder of
 * another QP of the host pair, whose requests the window does not hold. A
 * plain ACK names a SEND or WRITE (an atomic is answered by an atomic
 * ACK): it does not pair QP_B's flow. */
static void test_ack_pairs_no_atomic(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, 0x14, 6, 0); /* FETCH_ADD */
	req(e, RC_SEND_ONLY, 7, 64);
	struct rw_note n = rsp(e, RC_ACK, 6, ACK_SYN, 1, 0);
	assert_false(n.flags & RW_N_PAIRED);
	assert_true(flow_to(e, QP_B)->peer < 0);
	n = rsp(e, RC_ACK, 7, ACK_SYN, 2, 0);
	assert_true(n.flags & RW_N_PAIRED); /* the SEND's ACK does */
	env_free(e);
}

/* A FIRST or MIDDLE carries the QP's path MTU (IBA 9.7.4), and the MTU
 * gives a READ's span: 1419 bytes at 1024 take PSNs 15 and 16, so 18 after
 * them leaves 17 missing (diff seed 185; with the MTU unknown the READ
 * might have used up to six PSNs and 17 went unseen as a gap). */
static void test_read_span_from_mtu(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_WRITE_FIRST, 12, 1024);
	req(e, RC_WRITE_LAST, 13, 395);
	read_req(e, 15, 0x1000, 1419); /* 14 lost */
	struct rw_note n = req(e, RC_SEND_ONLY, 18, 64); /* 17 lost */
	assert_true(n.flags & RW_N_GAP);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->psn_gaps, 2);
	assert_int_equal(f->missing_psns, 2);
	env_free(e);
}

/* Diff seed 79: the requests at 16..19 were lost before the tap; the
 * capture starts with 20..23, each a whole SEND, then the responder NAKs
 * 16. The NAK names a PSN just before the flow's first: it pairs the two
 * (one unpaired flow of the host pair could have sent it) and refuses the
 * four SENDs, which the capture ends before their resends complete: cut by
 * the capture end, not messages. The go-back's first copy the tap sees,
 * past 16 (lost again before it), is no wrong start: the loss is before
 * the capture point. */
static void test_nak_before_first_psn(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 20; psn <= 23; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	assert_int_equal(flow_to(e, QP_B)->messages, 4);
	rsp(e, RC_ACK, 16, NAK_SEQ, 1, 0);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->peer, flow_to(e, QP_A)->index);
	assert_int_equal(f->messages, 0);
	req(e, RC_SEND_ONLY, 20, 64); /* the go-back, its 16..19 lost again */
	rw_analyzer_finish(e->a, e->t + 1000);
	assert_int_equal(f->messages, 0);
	assert_int_equal(f->msg_cut_end, 4);
	assert_true(!wrong_start(f));
	env_free(e);
}

/* Two QPs of one host pair start at nearby PSNs (diff seeds 139, 163,
 * 242): the capture shows QP_B sending 100..104 and 0x33 sending 103..105,
 * its earlier ones before the capture started. An ACK of 102 could answer
 * either: it pairs nothing (elimination by what the capture saw would pair
 * it with QP_B, maybe wrongly). */
static void test_pair_not_by_elimination(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 100; psn <= 104; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	for (uint32_t psn = 103; psn <= 105; psn++)
		req_to(e, 0x33, RC_SEND_ONLY, psn, 64);
	rsp(e, RC_ACK, 102, ACK_SYN, 1, 0);
	assert_true(flow_to(e, QP_B)->peer < 0);
	assert_true(flow_to(e, 0x33)->peer < 0);
	assert_int_equal(flow_to(e, QP_A)->pair_ambiguous, 1);
	env_free(e);
}

/* A READ re-issued again and again (diff seed 423): every copy of a PSN
 * below the first one the capture saw is a resend of a packet that went
 * by before the capture started, not only the first copy of it here. */
static void test_precapture_every_copy(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_SEND_ONLY, 10, 64);
	req(e, RC_SEND_ONLY, 11, 64);
	for (int k = 0; k < 3; k++) {
		struct rw_note n = req(e, RC_SEND_ONLY, 8, 64);
		assert_true(n.flags & RW_N_PRECAPTURE);
		assert_true(n.flags & RW_N_RETRANS);
		req(e, RC_SEND_ONLY, 9, 64);
	}
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->precapture_resends, 6);
	assert_int_equal(f->retransmissions, 6);
	env_free(e);
}

/* The capture starts inside a timeout resend (diff seed 301): SEND 0..3
 * went by before it; the tap sees 1..3, then 4 and 6..7 of SEND 4..7 (5
 * dropped before the tap, its first copy taken before the capture), the
 * sender going back to 0, the responder's ACK of 7 and the resend of 4..7.
 * The ACK past the hole says the responder took 5: the message 4..7 is not
 * incomplete and its held 6 and 7 are no orphans; the capture sees it
 * whole at the resend, which completes it there. */
static void test_ack_past_hole_then_resend(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, 0x01, 1, 256);
	req(e, 0x01, 2, 256);
	req(e, 0x02, 3, 256);
	req(e, 0x00, 4, 256);
	req(e, 0x01, 6, 256);
	req(e, 0x02, 7, 256);
	req(e, 0x00, 0, 256);
	for (uint32_t psn = 1; psn <= 2; psn++)
		req(e, 0x01, psn, 256);
	req(e, 0x02, 3, 256);
	rsp(e, RC_ACK, 7, ACK_SYN, 2, 0);
	req(e, 0x00, 4, 256);
	req(e, 0x01, 5, 256);
	req(e, 0x01, 6, 256);
	struct rw_note n = req(e, 0x02, 7, 256);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, e->t + 1000);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->msg_incomplete, 0);
	assert_int_equal(f->msg_orphans, 0);
	assert_int_equal(f->msg_cut_start, 1);
	env_free(e);
}

/* QP_B's SEND 4 is lost before the tap with its NAK (diff seed 272): the
 * capture shows 5..200 over 200 us, nothing from QP_B's responder, but the
 * responder host answering another QP; then QP_B's timeout resend of
 * 4..200. The hold waits past its first 64 requests (the responder's
 * direction is in the capture: its answers may come, or the timer), so the
 * resend of 4 fills the hole and all 200 messages count; and 4, first seen
 * 200 us after its gap, is a resend starting a go-back, not a late packet
 * (one overtaken in flight comes within microseconds). */
static void test_silent_qp_times_out(void **state)
{
	(void)state;
	struct env *e = env_new();
	rsp_to(e, 0x44, RC_ACK, 7, ACK_SYN, 1, 0); /* B answers A's other QP */
	for (uint32_t psn = 1; psn <= 200; psn++)
		if (psn != 4)
			req(e, RC_SEND_ONLY, psn, 64);
	struct rw_note n = req(e, RC_SEND_ONLY, 4, 64);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	assert_false(n.flags & RW_N_OOO);
	for (uint32_t psn = 5; psn <= 200; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	rw_analyzer_finish(e->a, e->t + 1000);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->messages, 200);
	assert_int_equal(f->msg_incomplete, 0);
	assert_int_equal(f->out_of_order, 0);
	assert_int_equal(f->retransmissions, 197);
	assert_int_equal(f->gbn_episodes, 1);
	env_free(e);
}

/* The responder's ACKs reach the tap with bad ICRCs (diff seed 600): the
 * requester drops them, and its timer resends 12..14 1.1 ms later. Going
 * back to PSNs the responder acknowledged, after a silence, would mark a
 * new conversation (the QP number reused) had the requester taken the
 * ACK; it did not, so this is the same conversation resending. */
static void test_unheard_ack_no_new_conversation(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 10; psn <= 14; psn++)
		req(e, RC_SEND_ONLY, psn, 64);
	rsp(e, RC_ACK, 11, ACK_SYN, 2, 0);
	e->bad_icrc = 1;
	rsp(e, RC_ACK, 14, ACK_SYN, 5, 0);
	e->t += 1100000;
	struct rw_note n = req(e, RC_SEND_ONLY, 12, 64);
	assert_false(n.flags & RW_N_NEW_CONV);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	assert_int_equal(rw_analyzer_flow_count(e->a), 2);
	assert_int_equal(flow_to(e, QP_B)->retransmissions, 1);
	env_free(e);
}

/* The capture starts at SEND LAST 15 (diff seed 542); the responder NAKs
 * 5, lost before the capture (too far before 15 to pair the flows), while
 * the sender goes on with SENDs 16-17 and 18-19; then it goes back to 5.
 * At that go-back the NAK is the flow's: the SENDs 16..19 are taken back
 * (their resends come after the capture: cut by its end); LAST 5 is the
 * rest of a message begun before the capture (cut by its start, like the
 * one LAST 15 ended, whose resend the capture does not show), no orphan;
 * 6-7 is a message. */
static void test_nak_before_pairing_below_first(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, 0x02, 15, 256);
	rsp(e, RC_ACK, 5, NAK_SEQ, 1, 0);
	req(e, 0x00, 16, 256);
	req(e, 0x02, 17, 256);
	req(e, 0x00, 18, 256);
	req(e, 0x02, 19, 256);
	struct rw_note n = req(e, 0x02, 5, 256);
	assert_false(n.flags & RW_N_ORPHAN);
	req(e, 0x00, 6, 256);
	req(e, 0x02, 7, 256);
	rw_analyzer_finish(e->a, e->t + 1000);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->msg_orphans, 0);
	assert_int_equal(f->msg_cut_start, 2);
	assert_int_equal(f->msg_cut_end, 2);
	env_free(e);
}

/* FETCH_ADD 10..13; the atomic ACK of 12 is lost, that of 13 comes (diff
 * seed 29). The requester needs 12's own answer: its timer resends 12
 * after a silence of 1.1 ms. Going back below a heard ACK is a new
 * conversation only for a SEND or WRITE; for an atomic (or a READ) it is
 * the resend of one whose response was lost. */
static void test_atomic_resend_below_ack(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 10; psn <= 13; psn++)
		req(e, 0x14, psn, 0);
	rsp(e, 0x12, 10, ACK_SYN, 1, 0);
	rsp(e, 0x12, 11, ACK_SYN, 2, 0);
	rsp(e, 0x12, 13, ACK_SYN, 4, 0);
	e->t += 1100000;
	struct rw_note n = req(e, 0x14, 12, 0);
	assert_false(n.flags & RW_N_NEW_CONV);
	assert_true(n.flags & RW_N_RETRANS);
	assert_int_equal(rw_analyzer_flow_count(e->a), 2);
	env_free(e);
}

/* Two QPs of one host pair send SENDs 1..10, each losing 5 before the tap
 * (diff seed 464: QPs whose PSNs all start at 0). A sequence NAK of 5
 * could be either's: it pairs nothing. QP_B then sends 5: the go-back
 * the NAK asked for, a resend (the NAK was QP_B's), not a late packet. */
static void test_unpaired_nak_go_back_is_resend(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 1; psn <= 10; psn++)
		if (psn != 5) {
			req(e, RC_SEND_ONLY, psn, 64);
			req_to(e, 0x33, RC_SEND_ONLY, psn, 64);
		}
	rsp(e, RC_ACK, 5, NAK_SEQ, 4, 0);
	assert_true(flow_to(e, QP_B)->peer < 0);
	struct rw_note n = req(e, RC_SEND_ONLY, 5, 64);
	assert_true(n.flags & RW_N_RETRANS);
	assert_true(n.flags & RW_N_GBN_START);
	assert_false(n.flags & RW_N_OOO);
	assert_int_equal(flow_to(e, QP_B)->out_of_order, 0);
	env_free(e);

	/* both QPs lost 5 and 6; 5's resend is dropped again, 6's comes
	 * (diff seed 100133): the go-back too */
	e = env_new();
	for (uint32_t psn = 1; psn <= 10; psn++)
		if (psn != 5 && psn != 6) {
			req(e, RC_SEND_ONLY, psn, 64);
			req_to(e, 0x33, RC_SEND_ONLY, psn, 64);
		}
	rsp(e, RC_ACK, 5, NAK_SEQ, 4, 0);
	n = req(e, RC_SEND_ONLY, 6, 64);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_OOO);
	env_free(e);
}

/* The capture starts after READ 6 was requested (diff seed 481): its
 * FIRST response 6 arrives with a bad ICRC, its LAST 7 good, then READ 8's
 * request and responses. The capture saw READ 6 start (the requester
 * dropped that FIRST): its LAST is dropped too, not the rest of a READ the
 * capture started inside. */
static void test_read_first_bad_is_a_start(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 8, 0x1000, 512);
	e->bad_icrc = 1;
	rsp(e, RC_READ_FIRST, 6, 0, 0, 256);
	struct rw_note n = rsp(e, RC_READ_LAST, 7, ACK_SYN, 1, 256);
	assert_false(n.flags & RW_N_CUT_START);
	rsp(e, RC_READ_FIRST, 8, 0, 0, 256);
	rsp(e, RC_READ_LAST, 9, ACK_SYN, 2, 256);
	rw_analyzer_finish(e->a, e->t + 1000);
	assert_int_equal(flow_to(e, QP_A)->msg_cut_start, 0);
	env_free(e);
}

/* The responses of a READ at 20 come before the capture shows any request
 * (diff seed 145); then READ 10 and its responses (the flows pair), READ
 * 30, and a READ at 20, the re-issue of one whose request went by before
 * the capture. The responder answered 20 already (its responses went past
 * it, in PSN order): this copy is a resend, not a late packet. */
static void test_request_below_answered_is_resend(void **state)
{
	(void)state;
	struct env *e = env_new();
	rsp(e, RC_READ_FIRST, 20, ACK_SYN, 1, 256);
	rsp(e, RC_READ_MIDDLE, 21, 0, 0, 256);
	rsp(e, RC_READ_LAST, 22, ACK_SYN, 1, 256);
	read_req(e, 10, 0x1000, 768);
	rsp(e, RC_READ_FIRST, 10, ACK_SYN, 2, 256);
	rsp(e, RC_READ_MIDDLE, 11, 0, 0, 256);
	rsp(e, RC_READ_LAST, 12, ACK_SYN, 2, 256);
	assert_true(flow_to(e, QP_B)->peer >= 0);
	read_req(e, 30, 0x2000, 256);
	struct rw_note n = read_req(e, 20, 0x3000, 768);
	assert_true(n.flags & RW_N_RETRANS);
	assert_false(n.flags & RW_N_OOO);
	assert_int_equal(flow_to(e, QP_B)->out_of_order, 0);
	env_free(e);
}

/* Two QPs of one host pair send 10..14; the capture saw QP_B's 12 but not
 * 0x33's (diff seed 383). A sequence NAK of 12 may be QP_B's (its 12 lost
 * after the capture point) or 0x33's (the hole the capture shows): it
 * pairs neither. */
static void test_nak_sent_or_hole_pairs_nothing(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t psn = 10; psn <= 14; psn++) {
		req(e, RC_SEND_ONLY, psn, 64);
		if (psn != 12)
			req_to(e, 0x33, RC_SEND_ONLY, psn, 64);
	}
	rsp(e, RC_ACK, 12, NAK_SEQ, 2, 0);
	assert_true(flow_to(e, QP_B)->peer < 0);
	assert_true(flow_to(e, 0x33)->peer < 0);
	assert_int_equal(flow_to(e, QP_A)->pair_ambiguous, 1);
	env_free(e);
}

/* READ 10 is answered by nothing; SENDs 11, 12 and 14 (13 lost before the
 * tap, a gap) follow, and the responder NAKs 13 (diff seed 322). The
 * requester goes back to READ 10 (its answer lost), then 11..: the capture
 * lost that re-issue too and shows the go-back from 11. A resend starting
 * below the NAKed PSN is right when a READ or atomic below it was left
 * unanswered: no "resend did not start at the NAKed PSN". */
static void test_nak_go_back_below_for_unanswered_read(void **state)
{
	(void)state;
	struct env *e = env_new();
	read_req(e, 10, 0x1000, 64);
	req(e, RC_SEND_ONLY, 11, 64);
	req(e, RC_SEND_ONLY, 12, 64);
	req(e, RC_SEND_ONLY, 14, 64);
	rsp(e, RC_ACK, 13, NAK_SEQ, 2, 0);
	assert_true(flow_to(e, QP_B)->peer >= 0);
	req(e, RC_SEND_ONLY, 11, 64);
	req(e, RC_SEND_ONLY, 12, 64);
	req(e, RC_SEND_ONLY, 13, 64);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_true(!wrong_start(f));
	env_free(e);
}

/* READ 40 (5724 bytes, 1 KiB MTU: PSNs 40..45) is sent three times (two
 * go-backs), then its responses come with 43 lost, and the requester
 * re-issues it from 43 with the rest (diff seed 100169): a right resume,
 * judged against the READ's responses whichever copy of its request they
 * answer. */
static void test_resent_read_resumed_right(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (int k = 0; k < 3; k++)
		read_req(e, 40, 0x14314, 5724);
	rsp(e, RC_READ_FIRST, 40, ACK_SYN, 1, 1024);
	rsp(e, RC_READ_MIDDLE, 41, 0, 0, 1024);
	rsp(e, RC_READ_MIDDLE, 42, 0, 0, 1024);
	rsp(e, RC_READ_MIDDLE, 44, 0, 0, 1024);
	rsp(e, RC_READ_LAST, 45, ACK_SYN, 1, 604);
	read_req(e, 43, 0x14314 + 3 * 1024, 5724 - 3 * 1024);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_true(!f->conf || !f->conf->count[RW_V_READ_RESUME_WRONG]);
	env_free(e);
}

/* rocewire-gen's diff seed 106264: a 1 KiB READ at 1 (four 256-byte
 * responses) and a SEND at 5 after it; the READ's answer comes whole, in
 * PSN order, then the ACK of the SEND. The requester's timer had run out
 * as the answer came (its last response reached the requester later than
 * the tap), and the READ goes out again 1 us after that ACK. Truth: a
 * timeout resend: no response showed the READ's answer missing (a later
 * response shows an answer missing only when it is, IBA 9.7.5.1.4), though
 * the go-back came within 20 us of responses past it. */
static void test_read_answered_whole_is_no_implied(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 1024);
	req(e, RC_SEND_ONLY, 5, 64);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
	rsp(e, RC_READ_MIDDLE, 2, 0, 0, 256);
	rsp(e, RC_READ_MIDDLE, 3, 0, 0, 256);
	rsp(e, RC_READ_LAST, 4, ACK_SYN, 2, 256);
	rsp(e, RC_ACK, 5, ACK_SYN, 3, 0);
	struct rw_note n = read_req(e, 1, 0x1000, 1024);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 0);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	env_free(e);
}

/* rocewire-gen's diff seed 106027: 8-byte READs at 1, 2 and 3 (one
 * response each), all captured; the responses to 1 and 2 are lost before
 * the tap, 3's comes (the first response PSN the capture shows). The
 * requester re-issues from 1 and the three are answered again; later its
 * timer re-issues from 1 once more and they are answered a third time.
 * Truth: three READs, each complete once in the capture; nothing is cut
 * by the capture start (the responses below 3 answer READs the capture
 * saw; their third copies are duplicates of copies it saw). */
static void test_read_answer_below_first_again_is_no_cut(void **state)
{
	(void)state;
	struct env *e = env_new();
	for (uint32_t k = 1; k <= 3; k++)
		read_req(e, k, 0x1000 * k, 8);
	rsp(e, RC_READ_ONLY, 3, ACK_SYN, 3, 8);
	for (uint32_t k = 1; k <= 3; k++)
		read_req(e, k, 0x1000 * k, 8);
	for (uint32_t k = 1; k <= 3; k++)
		rsp(e, RC_READ_ONLY, k, ACK_SYN, k, 8);
	e->t += 50000;
	for (uint32_t k = 1; k <= 3; k++)
		read_req(e, k, 0x1000 * k, 8);
	for (uint32_t k = 1; k <= 3; k++)
		rsp(e, RC_READ_ONLY, k, ACK_SYN, 3, 8);
	rw_analyzer_finish(e->a, e->t);
	const struct rw_flow *r = flow_to(e, QP_A);
	assert_int_equal(r->msg_cut_start, 0);
	assert_int_equal(flow_to(e, QP_B)->msgs_by_op[2], 3);
	env_free(e);
}

/* rocewire-gen's diff seed 106700: a WRITE of five packets (FIRST at 10,
 * LAST at 14); the capture starts with its MIDDLEs at 12 and 13, its LAST
 * is lost before the tap, and a two-packet WRITE (15, 16) follows. The
 * timer sends everything again from 10: 13 is lost again, the LAST at 14
 * comes, and the responder NAKs 13; the sender goes back to 13 and sends
 * 13 to 16 again. Truth: the capture started inside the first WRITE:
 * one message cut by the capture start, however often its rest is sent
 * again (13 and 14 after the NAK are no second message it started
 * inside); the second WRITE is a message. */
static void test_cut_message_rest_refused_again(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_WRITE_MIDDLE, 12, 256);
	req(e, RC_WRITE_MIDDLE, 13, 256);
	req(e, RC_WRITE_FIRST, 15, 256);
	req(e, RC_WRITE_LAST, 16, 256);
	e->t += 50000;
	req(e, RC_WRITE_FIRST, 10, 256);
	req(e, RC_WRITE_MIDDLE, 11, 256);
	req(e, RC_WRITE_MIDDLE, 12, 256);
	req(e, RC_WRITE_LAST, 14, 256);
	rsp(e, RC_ACK, 13, NAK_SEQ, 0, 0);
	req(e, RC_WRITE_MIDDLE, 13, 256);
	req(e, RC_WRITE_LAST, 14, 256);
	req(e, RC_WRITE_FIRST, 15, 256);
	req(e, RC_WRITE_LAST, 16, 256);
	rsp(e, RC_ACK, 16, ACK_SYN, 1, 0);
	rw_analyzer_finish(e->a, e->t);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->msg_cut_start, 1);
	assert_int_equal(f->messages, 1);
	assert_int_equal(f->msg_cut_end, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 106316: a WRITE of seven packets (FIRST at 10,
 * LAST at 16); the capture starts with its MIDDLEs at 12 and 13 (the
 * responder NAKed 10 before the capture started, and refuses them). The
 * sender goes back to 10 and sends 10 to 13 again, and the capture ends.
 * Truth: the capture saw the WRITE begin (its FIRST, resent) and not end:
 * one message cut by the capture end, none by its start. */
static void test_cut_message_resent_from_first_open_at_end(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_WRITE_MIDDLE, 12, 256);
	req(e, RC_WRITE_MIDDLE, 13, 256);
	req(e, RC_WRITE_FIRST, 10, 256);
	req(e, RC_WRITE_MIDDLE, 11, 256);
	req(e, RC_WRITE_MIDDLE, 12, 256);
	req(e, RC_WRITE_MIDDLE, 13, 256);
	rw_analyzer_finish(e->a, e->t);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->msg_cut_start, 0);
	assert_int_equal(f->msg_cut_end, 1);
	assert_int_equal(f->messages, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 106949: the capture starts with the LAST of a
 * READ's answer (8), then a READ at 3 (three 256-byte responses) answered
 * again from below: its FIRST and MIDDLE come, its LAST is lost before the
 * tap. A READ at 11 is sent and answered whole (the responder has gone
 * past 5). The requester re-issues the READ at 3 from 5, where its answer
 * stopped, and the ONLY response at 5 completes it. Truth: two READs
 * complete in the capture (3 and 11) and one cut by its start (the one
 * ending at 8): the re-issue came after the responder answered past 5, but
 * the requester never had 5's response and waits for it. */
static void test_read_reissued_where_answer_stopped_completes(void **state)
{
	(void)state;
	struct env *e = env_new();
	rsp(e, RC_READ_LAST, 8, ACK_SYN, 1, 256);
	rsp(e, RC_READ_FIRST, 3, ACK_SYN, 1, 256);
	rsp(e, RC_READ_MIDDLE, 4, 0, 0, 256);
	read_req(e, 11, 0x4000, 768);
	rsp(e, RC_READ_FIRST, 11, ACK_SYN, 2, 256);
	rsp(e, RC_READ_MIDDLE, 12, 0, 0, 256);
	rsp(e, RC_READ_LAST, 13, ACK_SYN, 2, 256);
	read_req(e, 5, 0x1000 + 512, 256);
	struct rw_note n = rsp(e, RC_READ_ONLY, 5, ACK_SYN, 2, 256);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, e->t);
	const struct rw_flow *r = flow_to(e, QP_A);
	assert_int_equal(r->messages, 2);
	assert_int_equal(r->msg_cut_start, 1);
	assert_int_equal(flow_to(e, QP_B)->msgs_by_op[2], 2);
	env_free(e);
}

/* rocewire-gen's diff seeds 106949 and 107644: a READ at 1 of four
 * 256-byte responses; its FIRST and the two MIDDLEs come, its LAST (4) is
 * lost before the tap. The requester re-issues it whole from 1; the
 * answer again brings 1, then 2 is lost, then 4: the requester, taking
 * that answer in sequence from 1 again, drops 4. It re-issues from 4, the
 * first PSN it does not hold, and the ONLY response at 4 completes the READ.
 * Truth: one READ, complete at the ONLY response, not at the LAST before
 * it. Then a READ at 5 answered the same way, except that its answer again
 * comes whole (5 to 8): it completes at that LAST. */
static void test_read_answered_again_whole_restarts(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 1024);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
	rsp(e, RC_READ_MIDDLE, 2, 0, 0, 256);
	rsp(e, RC_READ_MIDDLE, 3, 0, 0, 256);
	read_req(e, 1, 0x1000, 1024);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
	struct rw_note n = rsp(e, RC_READ_LAST, 4, ACK_SYN, 2, 256);
	assert_false(n.flags & RW_N_MSG_DONE);
	read_req(e, 4, 0x1000 + 768, 256);
	n = rsp(e, RC_READ_ONLY, 4, ACK_SYN, 2, 256);
	assert_true(n.flags & RW_N_MSG_DONE);

	read_req(e, 5, 0x2000, 1024);
	rsp(e, RC_READ_FIRST, 5, ACK_SYN, 3, 256);
	rsp(e, RC_READ_MIDDLE, 6, 0, 0, 256);
	rsp(e, RC_READ_MIDDLE, 7, 0, 0, 256);
	read_req(e, 5, 0x2000, 1024);
	rsp(e, RC_READ_FIRST, 5, ACK_SYN, 3, 256);
	rsp(e, RC_READ_MIDDLE, 6, 0, 0, 256);
	rsp(e, RC_READ_MIDDLE, 7, 0, 0, 256);
	n = rsp(e, RC_READ_LAST, 8, ACK_SYN, 3, 256);
	assert_true(n.flags & RW_N_MSG_DONE);
	rw_analyzer_finish(e->a, e->t);
	const struct rw_flow *r = flow_to(e, QP_A);
	assert_int_equal(r->messages, 2);
	assert_int_equal(r->msg_incomplete, 0);
	assert_int_equal(r->msg_cut_start + r->msg_cut_end, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 107698: the capture starts with a WRITE at 12;
 * the sender's timer goes back to 3 and sends a WRITE at 3-4, a SEND at 5
 * and a WRITE at 6-7, and a WRITE at 8: 5 and 6 are lost before the tap.
 * The responder NAKs 5; the sender goes back to it, 5 and 6 lost again,
 * and the capture ends. Truth: the WRITE at 3-4 is cut by the capture
 * start (its first copies went by before it); the one ending at 7 the
 * responder never took: held behind the hole, cut by the capture end, not
 * also by its start (counted there at its first resend, before the NAK
 * said the responder refused it). So are the WRITE at 8, held too, and
 * the one at 12, which the NAK says the responder refused as well. */
static void test_refused_pre_cut_held_at_end_counted_once(void **state)
{
	(void)state;
	struct env *e = env_new();
	req(e, RC_WRITE_ONLY, 12, 64);
	e->t += 50000;
	req(e, RC_WRITE_FIRST, 3, 256);
	req(e, RC_WRITE_LAST, 4, 64);
	req(e, RC_WRITE_LAST, 7, 64);
	req(e, RC_WRITE_ONLY, 8, 64);
	rsp(e, RC_ACK, 5, NAK_SEQ, 0, 0);
	req(e, RC_WRITE_LAST, 7, 64);
	req(e, RC_WRITE_ONLY, 8, 64);
	rw_analyzer_finish(e->a, e->t);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_int_equal(f->msg_cut_start, 1);
	assert_int_equal(f->msg_cut_end, 3);
	assert_int_equal(f->messages, 0);
	env_free(e);
}

/* rocewire-gen's diff seed 107794: a 1 KiB READ at 1 (four 256-byte
 * responses) and a SEND at 5; the READ's response at 2 is lost, 3 comes:
 * the requester re-issues the READ from 2 at once. Its answer again loses
 * 2 again and brings 3 and 4. 30 us later the SEND's ACK comes, and 1 us
 * after it the READ goes out from 2 once more. Truth: the first re-issue
 * is implied (a later response showed the gap), the second the timer's: a
 * re-issue whose answer shows the gap again waits for its timer, however
 * recently other answers came. */
static void test_read_gap_again_after_reissue_is_timer(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 1024);
	req(e, RC_SEND_ONLY, 5, 64);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
	rsp(e, RC_READ_MIDDLE, 3, 0, 0, 256);
	read_req(e, 2, 0x1100, 768);
	rsp(e, RC_READ_MIDDLE, 3, 0, 0, 256);
	rsp(e, RC_READ_LAST, 4, ACK_SYN, 2, 256);
	e->t += 30000;
	rsp(e, RC_ACK, 5, ACK_SYN, 3, 0);
	struct rw_note n = read_req(e, 2, 0x1100, 768);
	assert_true(n.flags & RW_N_GBN_START);
	const struct rw_flow *f = flow_to(e, QP_B);
	assert_non_null(f->conf);
	assert_int_equal(f->conf->resend_by_implied, 1);
	assert_int_equal(f->conf->resend_by_timeout, 1);
	env_free(e);
}

/* A READ at 1 of four 256-byte responses: FIRST and two MIDDLEs come, the
 * LAST is lost; the READ is re-issued whole and its FIRST comes again;
 * then the next READ, at 5 (two responses), is answered whole. Truth: the
 * READ at 5 completes at its LAST (the first READ, answered again from its
 * start, waits for the rest of that answer; the next READ's responses are
 * taken as they come, not held to where the first one's answer stands). */
static void test_read_after_restarted_one_completes(void **state)
{
	(void)state;
	struct env *e = env_new();
	pair_at_0(e);
	read_req(e, 1, 0x1000, 1024);
	read_req(e, 5, 0x2000, 512);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
	rsp(e, RC_READ_MIDDLE, 2, 0, 0, 256);
	rsp(e, RC_READ_MIDDLE, 3, 0, 0, 256);
	read_req(e, 1, 0x1000, 1024);
	rsp(e, RC_READ_FIRST, 1, ACK_SYN, 2, 256);
	rsp(e, RC_READ_FIRST, 5, ACK_SYN, 3, 256);
	struct rw_note n = rsp(e, RC_READ_LAST, 6, ACK_SYN, 3, 256);
	assert_true(n.flags & RW_N_MSG_DONE);
	env_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corrupt_nak_asks_nothing),
		cmocka_unit_test(test_nak_before_pairing),
		cmocka_unit_test(test_naks_before_pairing_each_their_go_back),
		cmocka_unit_test(test_implied_read_reissue),
		cmocka_unit_test(test_read_gap_again_timer),
		cmocka_unit_test(test_nak_answered_by_first_request),
		cmocka_unit_test(test_implied_after_timer_resend),
		cmocka_unit_test(test_resend_run_of_reads),
		cmocka_unit_test(test_resent_atomic_waits_for_its_answer),
		cmocka_unit_test(test_late_go_back_after_response_is_timeout),
		cmocka_unit_test(test_bad_icrc_after_read_ends_its_span),
		cmocka_unit_test(test_unpaired_naks_kept_apart),
		cmocka_unit_test(test_unpaired_nak_taken_where_go_back_starts),
		cmocka_unit_test(test_precapture_resend_completed_is_no_cut),
		cmocka_unit_test(test_implied_reissue_lost_before_tap),
		cmocka_unit_test(test_implied_by_read_gap_reissue_lost),
		cmocka_unit_test(test_read_after_corrupt_first_completes),
		cmocka_unit_test(test_read_reissued_answer_below_later_ones),
		cmocka_unit_test(test_read_completed_by_whole_copy_then_resume),
		cmocka_unit_test(test_corrupt_last_ends_burst_for_implied),
		cmocka_unit_test(test_implied_before_nak_below_it),
		cmocka_unit_test(test_corrupt_read_only_counts_nothing),
		cmocka_unit_test(test_read_answered_before_pairing),
		cmocka_unit_test(test_implied_by_reads_last_response),
		cmocka_unit_test(test_resend_on_50us_timer),
		cmocka_unit_test(test_read_rest_after_lost_first_is_no_cut),
		cmocka_unit_test(test_nak_past_read_missing_its_last),
		cmocka_unit_test(test_read_last_pairs_nothing),
		cmocka_unit_test(test_ack_pairs_no_atomic),
		cmocka_unit_test(test_read_resend_takes_no_new_psns),
		cmocka_unit_test(test_read_span_from_mtu),
		cmocka_unit_test(test_nak_before_first_psn),
		cmocka_unit_test(test_pair_not_by_elimination),
		cmocka_unit_test(test_precapture_every_copy),
		cmocka_unit_test(test_ack_past_hole_then_resend),
		cmocka_unit_test(test_silent_qp_times_out),
		cmocka_unit_test(test_unheard_ack_no_new_conversation),
		cmocka_unit_test(test_nak_before_pairing_below_first),
		cmocka_unit_test(test_atomic_resend_below_ack),
		cmocka_unit_test(test_unpaired_nak_go_back_is_resend),
		cmocka_unit_test(test_read_first_bad_is_a_start),
		cmocka_unit_test(test_request_below_answered_is_resend),
		cmocka_unit_test(test_nak_sent_or_hole_pairs_nothing),
		cmocka_unit_test(test_nak_go_back_below_for_unanswered_read),
		cmocka_unit_test(test_resent_read_resumed_right),
		cmocka_unit_test(test_read_answered_whole_is_no_implied),
		cmocka_unit_test(test_read_answer_below_first_again_is_no_cut),
		cmocka_unit_test(test_cut_message_rest_refused_again),
		cmocka_unit_test(test_cut_message_resent_from_first_open_at_end),
		cmocka_unit_test(test_read_reissued_where_answer_stopped_completes),
		cmocka_unit_test(test_read_answered_again_whole_restarts),
		cmocka_unit_test(test_refused_pre_cut_held_at_end_counted_once),
		cmocka_unit_test(test_read_gap_again_after_reissue_is_timer),
		cmocka_unit_test(test_read_after_restarted_one_completes),
		cmocka_unit_test(test_read_response_refilled_after_reissue),
		cmocka_unit_test(test_hole_kept_while_resends_come),
		cmocka_unit_test(test_capture_loss_given_up),
		cmocka_unit_test(test_resend_run_with_drops),
		cmocka_unit_test(test_first_resend_never_seen),
		cmocka_unit_test(test_resend_after_quiet_sender),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
