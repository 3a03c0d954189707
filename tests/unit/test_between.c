/* SPDX-License-Identifier: BSD-3-Clause */
/* between.h: two taps matched packet by packet. Every packet is built with
 * proto's builder, decoded back and fed to the side it was "seen" on, in
 * time order; what each tap saw is stated by the test, and each expected
 * figure follows from that by hand (drops, marks, rewrites, reordering,
 * duplicates, repeated identities, clock offset, window expiry, caps). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocewire.h"
#include "rw_test_util.h"

#define A RW_BETWEEN_A
#define B RW_BETWEEN_B
#define IP_S 0x0a000001u
#define IP_R 0x0a000002u
#define QP_R 0x111u /* the receiver's QP: data goes there */
#define QP_S 0x222u /* the sender's QP: ACKs go there */
#define RC_SEND_ONLY 0x04
#define RC_ACK 0x11

/* One packet as one tap saw it. */
struct ev {
	int side;
	int64_t ts;
	struct rw_packet p;
	int linktype;
};

static void v2(struct rw_packet *p, uint32_t src, uint32_t dst, uint8_t opcode, uint32_t dqpn, uint32_t psn)
{
	memset(p, 0, sizeof(*p));
	p->carrier = RW_CARRIER_ROCEV2;
	p->present = RW_P_IPV4;
	p->ipv4.src = src;
	p->ipv4.dst = dst;
	p->ipv4.ttl = 64;
	p->ipv4.ecn = RW_ECN_ECT0;
	p->ipv4.dscp = 26;
	p->eth.src[5] = 1;
	p->eth.dst[5] = 2;
	p->udp.sport = 49152;
	p->bth.opcode = opcode;
	p->bth.pkey = 0xFFFF;
	p->bth.dqpn = dqpn;
	p->bth.psn = psn;
	if (rw_opcode(opcode)->flags & RW_OPF_PAYLOAD)
		p->payload_len = 64;
}

static struct ev evv2(int side, int64_t ts, uint32_t src, uint32_t dst, uint8_t opcode, uint32_t dqpn,
		      uint32_t psn)
{
	struct ev e = {.side = side, .ts = ts, .linktype = RW_LINKTYPE_ETHERNET};
	v2(&e.p, src, dst, opcode, dqpn, psn);
	return e;
}

/* Builds p into a frame and decodes it back into out: the matcher sees what
 * a capture would give it. */
static void build_decode(const struct rw_packet *p, int linktype, struct rw_packet *out)
{
	uint8_t buf[2048];
	size_t len;
	assert_int_equal(rw_packet_build(p, linktype, 0, buf, sizeof(buf), &len), RW_OK);
	assert_int_equal(rw_packet_decode(NULL, linktype, buf, len, len, out), RW_OK);
}

/* Sorts the events by time (the merge the tool does), numbers each tap's
 * frames from 1 in that order, builds, decodes and feeds them. */
static void feed_all(struct rw_between *bt, struct ev *evs, size_t n)
{
	/* stable: ties keep the order given */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && evs[j - 1].ts > evs[j].ts; j--) {
			struct ev t = evs[j];
			evs[j] = evs[j - 1];
			evs[j - 1] = t;
		}
	uint64_t frame[2] = {0, 0};
	for (size_t i = 0; i < n; i++) {
		struct rw_packet d;
		build_decode(&evs[i].p, evs[i].linktype, &d);
		assert_int_equal(rw_between_feed(bt, evs[i].side, &d, evs[i].ts, ++frame[evs[i].side]), 1);
	}
}

static void assert_near(int64_t got, int64_t want)
{
	int64_t tol = (int64_t)((double)(want < 0 ? -want : want) * RW_BETWEEN_HIST_REL_ERR) + 1;
	if (got < want - tol || got > want + tol)
		fail_msg("%lld is not within %lld of %lld", (long long)got, (long long)tol, (long long)want);
}

/* Ten SENDs from S to R; B saw all but PSN 3, 5000 + 10 i ns after A, with
 * the TTL decremented on all, CE on PSN 5 and new MACs on PSN 7. */
static void test_drop_mark_rewrite(void **state)
{
	(void)state;
	struct ev evs[20];
	size_t n = 0;
	for (uint32_t i = 0; i < 10; i++) {
		evs[n++] = evv2(A, 1000 * i, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
		if (i == 3)
			continue;
		struct ev e = evv2(B, 1000 * i + 5000 + 10 * i, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
		e.p.ipv4.ttl = 63;
		if (i == 5)
			e.p.ipv4.ecn = RW_ECN_CE;
		if (i == 7)
			e.p.eth.dst[5] = 9;
		evs[n++] = e;
	}
	struct rw_between *bt = rw_between_new(NULL);
	assert_non_null(bt);
	feed_all(bt, evs, n);
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(r.matched, 9);
	assert_int_equal(r.lost_count, 1);
	assert_int_equal(r.only_in_b, 0);
	assert_int_equal(r.only_in_a, 0);
	assert_int_equal(r.unknown_dir, 0);
	assert_int_equal(r.ce_marked, 1);
	assert_int_equal(r.changed[RW_BC_TTL], 9);
	assert_int_equal(r.changed[RW_BC_ECN], 1);
	assert_int_equal(r.changed[RW_BC_MAC], 1);
	assert_int_equal(r.changed[RW_BC_DSCP], 0);
	assert_int_equal(r.changed[RW_BC_VLAN], 0);
	assert_int_equal(r.reordered, 0);
	/* delays 5000, 5010, 5020, 5040, ..., 5090 (not 5030) */
	assert_int_equal(r.delay.n, 9);
	assert_int_equal(r.delay.min, 5000);
	assert_int_equal(r.delay.max, 5090);
	assert_near(r.delay.p50, 5050); /* rank 5 of 9 */
	assert_near(r.delay.p99, 5090); /* rank 9 */
	assert_int_equal(r.reverse.n, 0);
	assert_int_equal(rw_between_list_len(bt, RW_BETWEEN_LOST), 1);
	const struct rw_between_unmatched *u = rw_between_list_get(bt, RW_BETWEEN_LOST, 0);
	assert_int_equal(u->psn, 3);
	assert_int_equal(u->side, A);
	assert_int_equal(u->frame, 4); /* A's fourth frame */
	assert_int_equal(u->opcode, RC_SEND_ONLY);
	assert_int_equal(rw_between_flow_count(bt), 1);
	const struct rw_between_flow *f = rw_between_flow_at(bt, 0);
	assert_int_equal(f->dir, RW_BETWEEN_DIR_A_TO_B);
	assert_int_equal(f->dqpn, QP_R);
	assert_int_equal(f->src.kind, RW_BA_IPV4);
	assert_memory_equal(f->src.a + 12, ((uint8_t[]){10, 0, 0, 1}), 4);
	assert_int_equal(f->packets[A], 10);
	assert_int_equal(f->packets[B], 9);
	rw_between_free(bt);
}

/* ACKs from R to S: B (near R) sees them first, A 2000 ns later; B's ACK
 * PSN 2 never reaches A (lost, b_to_a), and A sees an ACK PSN 9 that B
 * never did (only_in_a). The data flow S -> R has one matched packet. */
static void test_reverse(void **state)
{
	(void)state;
	struct ev evs[16];
	size_t n = 0;
	evs[n++] = evv2(A, 0, IP_S, IP_R, RC_SEND_ONLY, QP_R, 0);
	evs[n++] = evv2(B, 3000, IP_S, IP_R, RC_SEND_ONLY, QP_R, 0);
	for (uint32_t i = 0; i < 4; i++) {
		evs[n++] = evv2(B, 10000 + 1000 * i, IP_R, IP_S, RC_ACK, QP_S, i);
		if (i != 2)
			evs[n++] = evv2(A, 10000 + 1000 * i + 2000 + 100 * i, IP_R, IP_S, RC_ACK, QP_S, i);
	}
	evs[n++] = evv2(A, 20000, IP_R, IP_S, RC_ACK, QP_S, 9);
	struct rw_between *bt = rw_between_new(NULL);
	feed_all(bt, evs, n);
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(r.matched, 4);
	assert_int_equal(r.lost_count, 1);
	assert_int_equal(r.only_in_a, 1);
	assert_int_equal(r.only_in_b, 0);
	assert_int_equal(r.delay.n, 1);
	assert_int_equal(r.delay.min, 3000);
	assert_int_equal(r.reverse.n, 3); /* 2000, 2100, 2300 */
	assert_int_equal(r.reverse.min, 2000);
	assert_int_equal(r.reverse.max, 2300);
	assert_near(r.reverse.p50, 2100);
	const struct rw_between_unmatched *u = rw_between_list_get(bt, RW_BETWEEN_LOST, 0);
	assert_non_null(u);
	assert_int_equal(u->side, B);
	assert_int_equal(u->psn, 2);
	assert_int_equal(u->frame, 4); /* B: data, ACK 0, ACK 1, ACK 2 */
	u = rw_between_list_get(bt, RW_BETWEEN_ONLY_IN_A, 0);
	assert_int_equal(u->psn, 9);
	const struct rw_between_flow *ack = rw_between_flow_at(bt, 1);
	assert_int_equal(ack->dir, RW_BETWEEN_DIR_B_TO_A);
	struct rw_between_delay d;
	rw_between_flow_delay(ack, &d);
	assert_int_equal(d.min, 2000);
	assert_int_equal(d.max, 2300);
	/* estimate: (3000 - 2000) / 2 */
	int ok;
	assert_int_equal(rw_between_offset_estimate(&r, &ok), 500);
	assert_true(ok);
	rw_between_free(bt);
}

/* A resend with the same bytes seen twice on both taps matches in order;
 * a packet seen once in A and twice in B leaves one copy only in B; a
 * packet injected in B is only in B. */
static void test_duplicates(void **state)
{
	(void)state;
	struct ev evs[] = {
		evv2(A, 0, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1),
		evv2(B, 50, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1),
		evv2(A, 100, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1),
		evv2(B, 180, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1),
		evv2(A, 200, IP_S, IP_R, RC_SEND_ONLY, QP_R, 2),
		evv2(B, 260, IP_S, IP_R, RC_SEND_ONLY, QP_R, 2),
		evv2(B, 270, IP_S, IP_R, RC_SEND_ONLY, QP_R, 2),
		evv2(B, 300, IP_S, IP_R, RC_SEND_ONLY, QP_R, 99),
	};
	struct rw_between *bt = rw_between_new(NULL);
	feed_all(bt, evs, RW_ARRAY_LEN(evs));
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(r.matched, 3);
	/* FIFO: 50 - 0 and 180 - 100, not 180 - 0 */
	assert_int_equal(r.delay.min, 50);
	assert_int_equal(r.delay.max, 80);
	assert_int_equal(r.only_in_b, 2);
	assert_int_equal(r.lost_count, 0);
	assert_int_equal(r.reordered, 0);
	assert_int_equal(rw_between_list_len(bt, RW_BETWEEN_ONLY_IN_B), 2);
	const struct rw_between_unmatched *u = rw_between_list_get(bt, RW_BETWEEN_ONLY_IN_B, 0);
	assert_int_equal(u->psn, 2);
	assert_int_equal(u->frame, 4); /* B's second copy of PSN 2 */
	u = rw_between_list_get(bt, RW_BETWEEN_ONLY_IN_B, 1);
	assert_int_equal(u->psn, 99);
	assert_int_equal(u->frame, 5);
	rw_between_free(bt);
}

/* A sends PSN 0..5; B gets 0 2 1 3 5 4: PSN 1 and PSN 4 arrive after a
 * packet that followed them in A. */
static void test_reorder(void **state)
{
	(void)state;
	static const uint32_t order[6] = {0, 2, 1, 3, 5, 4};
	struct ev evs[12];
	size_t n = 0;
	for (uint32_t i = 0; i < 6; i++)
		evs[n++] = evv2(A, 100 * i, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
	for (uint32_t i = 0; i < 6; i++)
		evs[n++] = evv2(B, 10000 + 100 * i, IP_S, IP_R, RC_SEND_ONLY, QP_R, order[i]);
	struct rw_between *bt = rw_between_new(NULL);
	feed_all(bt, evs, n);
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(r.matched, 6);
	assert_int_equal(r.reordered, 2);
	/* PSN 4: A at 400, B at 10500; PSN 0: 0 -> 10000 */
	assert_int_equal(r.delay.max, 10100);
	assert_int_equal(r.delay.min, 9900); /* PSN 5: 500 -> 10400 */
	rw_between_free(bt);
}

/* A packet lost between the taps and sent again after the RC timeout (67
 * ms at timeout 14), with the same bytes: the default window has settled
 * the first copy as lost before the resend comes, so the resend in B pairs
 * with the resend in A (delay 5 us), not with the lost copy (67 ms). */
static void test_resend_after_timeout(void **state)
{
	(void)state;
	const int64_t rto = 67108864, d = 5000;
	struct ev evs[] = {
		evv2(A, 0, IP_S, IP_R, RC_SEND_ONLY, QP_R, 0),
		evv2(B, d, IP_S, IP_R, RC_SEND_ONLY, QP_R, 0),
		evv2(A, 1000, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1), /* lost */
		evv2(A, 2000, IP_S, IP_R, RC_SEND_ONLY, QP_R, 2),
		evv2(B, 2000 + d, IP_S, IP_R, RC_SEND_ONLY, QP_R, 2),
		evv2(A, 1000 + rto, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1),
		evv2(B, 1000 + rto + d, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1),
	};
	assert_true(RW_BETWEEN_DEFAULT_WINDOW_NS < (uint64_t)rto);
	struct rw_between *bt = rw_between_new(NULL);
	feed_all(bt, evs, RW_ARRAY_LEN(evs));
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(r.matched, 3);
	assert_int_equal(r.lost_count, 1);
	assert_int_equal(rw_between_list_get(bt, RW_BETWEEN_LOST, 0)->frame, 2);
	assert_int_equal(r.delay.max, d);
	rw_between_free(bt);
}

/* The matcher against a plain reference written here: every packet of A
 * is looked up in a list of everything still waiting, the oldest twin of
 * the other tap within the window taken. 4 flows, PSNs drawn from a small
 * range (many waiting packets share an identity: duplicates and hash
 * runs), a fifth of A's packets lost, some late beyond the window, some
 * frames only in B; thousands waiting at once (the index grows and
 * deletes in the middle of its runs). */
struct refp {
	int side;
	int64_t ts;
	uint32_t qp, psn;
	int done;
	uint64_t frame;
};

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

static void test_against_reference(void **state)
{
	(void)state;
	enum { NA = 6000 };
	static struct refp ev[2 * NA + 200];
	size_t n = 0;
	uint64_t x = 12345;
	const int64_t window = 40000;
	for (uint32_t i = 0; i < NA; i++) {
		struct refp a = {.side = A, .ts = 10 * (int64_t)i, .qp = 0x100 + (uint32_t)lcg(&x) % 4,
				 .psn = (uint32_t)lcg(&x) % 50};
		ev[n++] = a;
		uint64_t fate = lcg(&x) % 10;
		if (fate < 2)
			continue; /* lost */
		struct refp b = a;
		b.side = B;
		b.ts = a.ts + 1000 + (int64_t)(lcg(&x) % (fate == 2 ? 100000 : 20000));
		ev[n++] = b;
	}
	for (uint32_t i = 0; i < 200; i++)
		ev[n++] = (struct refp){.side = B, .ts = (int64_t)(lcg(&x) % (10 * NA)), .qp = 0x100,
					.psn = 1000 + i};
	/* time order, A first on a tie, else as made */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && (ev[j - 1].ts > ev[j].ts ||
					      (ev[j - 1].ts == ev[j].ts && ev[j - 1].side > ev[j].side));
		     j--) {
			struct refp t = ev[j];
			ev[j] = ev[j - 1];
			ev[j - 1] = t;
		}
	/* the reference */
	uint64_t frame[2] = {0, 0}, matched = 0;
	int64_t dmin = INT64_MAX, dmax = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		ev[i].frame = ++frame[ev[i].side];
		for (size_t j = 0; j < i; j++)
			if (!ev[j].done && ev[j].side != ev[i].side && ev[j].qp == ev[i].qp && ev[j].psn == ev[i].psn &&
			    ev[i].ts - ev[j].ts <= window) {
				ev[j].done = ev[i].done = 1;
				matched++;
				int64_t dl = ev[i].side == B ? ev[i].ts - ev[j].ts : ev[j].ts - ev[i].ts;
				dmin = dl < dmin ? dl : dmin;
				dmax = dl > dmax ? dl : dmax;
				break;
			}
	}
	uint64_t lost = 0, only_b = 0;
	for (size_t i = 0; i < n; i++)
		if (!ev[i].done)
			*(ev[i].side == A ? &lost : &only_b) += 1;
	/* the matcher: fed plainly, then (prep) with each tap's packets
	 * announced ahead as rocewire-cap does, a few announcements broken on
	 * purpose (another packet fed than announced, too many announced) */
	static struct rw_packet dec[2 * NA + 200];
	for (size_t i = 0; i < n; i++) {
		struct rw_packet p;
		v2(&p, IP_S, IP_R, RC_SEND_ONLY, ev[i].qp, ev[i].psn);
		build_decode(&p, RW_LINKTYPE_ETHERNET, &dec[i]);
	}
	struct rw_between_cfg cfg = {.window_ns = (uint64_t)window, .list_cap = 1u << 16};
	struct rw_between *bt = NULL;
	struct rw_between_result r;
	for (int prep = 0; prep < 2; prep++) {
		rw_between_free(bt);
		bt = rw_between_new(&cfg);
		size_t next[2] = {0, 0}; /* per side: the next packet not yet announced */
		for (size_t i = 0; i < n; i++) {
			for (int sd = 0; prep && sd < 2; sd++) {
				size_t ahead = 0;
				for (size_t j = i; j < n && ahead < 4; j++)
					if (ev[j].side == sd && ++ahead && j >= next[sd]) {
						rw_between_prepare(bt, sd, &dec[j]);
						next[sd] = j + 1;
					}
			}
			if (prep && i % 997 == 0)
				rw_between_prepare(bt, ev[i].side, &dec[(i + 1) % n]); /* out of turn */
			assert_int_equal(rw_between_feed(bt, ev[i].side, &dec[i], ev[i].ts, ev[i].frame), 1);
		}
		rw_between_finish(bt, &r);
		assert_true(matched > NA / 2);
		assert_int_equal(r.matched, matched);
		assert_int_equal(r.lost_count, lost);
		assert_int_equal(r.only_in_b, only_b);
		assert_int_equal(r.delay.min, dmin);
		assert_int_equal(r.delay.max, dmax);
	}
	/* every lost packet named: the reference's, in A's frame order */
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!ev[i].done && ev[i].side == A) {
			assert_true(k < rw_between_list_len(bt, RW_BETWEEN_LOST));
			assert_int_equal(rw_between_list_get(bt, RW_BETWEEN_LOST, k)->frame, ev[i].frame);
			k++;
		}
	assert_int_equal(k, rw_between_list_len(bt, RW_BETWEEN_LOST));
	rw_between_free(bt);
}

/* Window 1000 ns: PSN 0 reaches B 5000 ns after A, too late to be matched:
 * its A copy is lost and its B copy only in B, once PSN 1 (matched) gives
 * the pair its direction. A pair with nothing matched stays unknown. */
static void test_window(void **state)
{
	(void)state;
	struct ev evs[] = {
		evv2(A, 0, IP_S, IP_R, RC_SEND_ONLY, QP_R, 0),
		evv2(B, 5000, IP_S, IP_R, RC_SEND_ONLY, QP_R, 0),
		evv2(A, 6000, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1),
		evv2(B, 6900, IP_S, IP_R, RC_SEND_ONLY, QP_R, 1),
		evv2(A, 7000, IP_R, IP_S, RC_ACK, QP_S, 0),
		evv2(B, 9000, IP_R, IP_S, RC_ACK, QP_S, 5),
	};
	struct rw_between_cfg cfg = {.window_ns = 1000};
	struct rw_between *bt = rw_between_new(&cfg);
	feed_all(bt, evs, RW_ARRAY_LEN(evs));
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(r.matched, 1);
	assert_int_equal(r.delay.min, 900);
	assert_int_equal(r.lost_count, 1);
	assert_int_equal(r.only_in_b, 1);
	assert_int_equal(r.unknown_dir, 2);
	assert_int_equal(rw_between_list_get(bt, RW_BETWEEN_LOST, 0)->frame, 1);
	assert_int_equal(rw_between_list_get(bt, RW_BETWEEN_ONLY_IN_B, 0)->frame, 1);
	assert_int_equal(rw_between_flow_at(bt, 1)->dir, RW_BETWEEN_DIR_UNKNOWN);
	rw_between_free(bt);
}

/* B's clock runs 50 us ahead: data S -> R takes 1000 ns, ACKs R -> S take
 * 1000 ns. As fed (no correction) every ACK is seen in A first, yet the
 * pairs' directions come out right (S -> R's B - A times, 51000, are above
 * R -> S's, 49000): A -> B shows 51000, B -> A -49000; the estimate is the
 * offset, and a second pass corrected by it finds 1000 both ways. */
static void test_offset(void **state)
{
	(void)state;
	const int64_t off = 50000;
	struct ev evs[8];
	for (int pass = 0; pass < 2; pass++) {
		int64_t corr = pass ? off : 0;
		size_t n = 0;
		for (uint32_t i = 0; i < 2; i++) {
			evs[n++] = evv2(A, 100000 * i, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
			evs[n++] = evv2(B, 100000 * i + 1000 + off - corr, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
			evs[n++] = evv2(B, 100000 * i + 30000 + off - corr, IP_R, IP_S, RC_ACK, QP_S, i);
			evs[n++] = evv2(A, 100000 * i + 31000, IP_R, IP_S, RC_ACK, QP_S, i);
		}
		struct rw_between *bt = rw_between_new(NULL);
		feed_all(bt, evs, n);
		struct rw_between_result r;
		rw_between_finish(bt, &r);
		assert_int_equal(r.matched, 4);
		int ok;
		int64_t est = rw_between_offset_estimate(&r, &ok);
		assert_true(ok);
		if (pass == 0) {
			assert_int_equal(r.delay.min, 51000);
			assert_int_equal(r.reverse.min, -49000);
			assert_int_equal(r.reverse.max, -49000);
			assert_int_equal(r.reverse.p50, -49000);
			assert_int_equal(est, off);
		} else {
			assert_int_equal(r.delay.min, 1000);
			assert_int_equal(r.reverse.min, 1000);
			assert_int_equal(est, 0);
		}
		rw_between_free(bt);
	}
}

/* Native IB without GRH (identity by LIDs) and a VLAN retag on RoCEv2. */
static void test_carriers(void **state)
{
	(void)state;
	struct ev evs[4];
	for (int s = 0; s < 2; s++) {
		struct ev e = {.side = s, .ts = 10 * s, .linktype = RW_LINKTYPE_INFINIBAND};
		memset(&e.p, 0, sizeof(e.p));
		e.p.carrier = RW_CARRIER_IB;
		e.p.present = RW_P_LRH;
		e.p.lrh.lnh = 2; /* BTH follows */
		e.p.lrh.slid = 5;
		e.p.lrh.dlid = 7;
		e.p.bth.opcode = RC_SEND_ONLY;
		e.p.bth.pkey = 0xFFFF;
		e.p.bth.dqpn = QP_R;
		e.p.bth.psn = 42;
		e.p.payload_len = 16;
		evs[s] = e;
	}
	evs[2] = evv2(A, 100, IP_S, IP_R, RC_SEND_ONLY, QP_R, 7);
	evs[2].p.n_vlan = 1;
	evs[2].p.vlan[0].vid = 10;
	evs[2].p.vlan[0].pcp = 3;
	evs[3] = evs[2];
	evs[3].side = B;
	evs[3].ts = 150;
	evs[3].p.vlan[0].pcp = 5;
	struct rw_between *bt = rw_between_new(NULL);
	feed_all(bt, evs, 4);
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(r.matched, 2);
	assert_int_equal(r.changed[RW_BC_VLAN], 1);
	assert_int_equal(r.changed[RW_BC_TTL], 0);
	const struct rw_between_flow *f = rw_between_flow_at(bt, 0);
	assert_int_equal(f->src.kind, RW_BA_LID);
	assert_int_equal(f->src.a[15], 5);
	assert_int_equal(f->dst.a[15], 7);
	assert_int_equal(f->matched, 1);
	rw_between_free(bt);
}

/* Caps: 2000 packets of A in one instant with room for 1024 pending: 976
 * are settled early; of 5 lost packets a list cap of 2 keeps 2. */
static void test_caps(void **state)
{
	(void)state;
	struct rw_between_cfg cfg = {.max_pending = 1024, .list_cap = 2};
	struct rw_between *bt = rw_between_new(&cfg);
	static struct ev evs[2010];
	size_t n = 0;
	for (uint32_t i = 0; i < 2000; i++)
		evs[n++] = evv2(A, 0, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
	feed_all(bt, evs, n);
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(r.window_overflow, 976);
	assert_int_equal(r.unknown_dir, 2000);
	assert_int_equal(rw_between_list_len(bt, RW_BETWEEN_UNKNOWN_DIR), 2);
	rw_between_free(bt);

	bt = rw_between_new(&cfg);
	n = 0;
	for (uint32_t i = 0; i < 6; i++) {
		evs[n++] = evv2(A, 100 * i, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
		if (i == 0)
			evs[n++] = evv2(B, 100 * i + 50, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
	}
	feed_all(bt, evs, n);
	rw_between_finish(bt, &r);
	assert_int_equal(r.window_overflow, 0);
	assert_int_equal(r.lost_count, 5);
	assert_int_equal(rw_between_list_total(bt, RW_BETWEEN_LOST), 5);
	assert_int_equal(rw_between_list_len(bt, RW_BETWEEN_LOST), 2);
	assert_int_equal(rw_between_list_get(bt, RW_BETWEEN_LOST, 1)->psn, 2);
	rw_between_free(bt);
}

/* The histogram on its own: signs, the exact range under 128 ns, the
 * stated error above it. */
static void test_hist(void **state)
{
	(void)state;
	struct rw_between_hist h;
	memset(&h, 0, sizeof(h));
	static const int64_t v[] = {-1000000, -100, -5, 0, 7, 127, 128, 1000, 123456789, 5000000000};
	for (size_t i = 0; i < RW_ARRAY_LEN(v); i++)
		assert_int_equal(rw_between_hist_add(&h, v[i]), 0);
	for (size_t i = 0; i < RW_ARRAY_LEN(v); i++) {
		/* the (i+1)-th of 10 values: quantile (i + 1) / 10 */
		int64_t q = rw_between_hist_quantile(&h, (double)(i + 1) / 10.0);
		if (v[i] > -128 && v[i] < 128)
			assert_int_equal(q, v[i]);
		else
			assert_near(q, v[i]);
	}
	assert_int_equal(h.min, -1000000);
	assert_int_equal(h.max, 5000000000);
	struct rw_between_hist m;
	memset(&m, 0, sizeof(m));
	assert_int_equal(rw_between_hist_merge(&m, &h, 1), 0);
	assert_int_equal(m.min, -5000000000);
	assert_int_equal(m.max, 1000000);
	/* the 5th of -5e9, -123456789, -1000, -128, -127, -7, 0, ... */
	assert_int_equal(rw_between_hist_quantile(&m, 0.5), -127);
	rw_between_hist_free(&h);
	rw_between_hist_free(&m);
}

/* The observer sees each outcome once, as the matcher decides it: the
 * same ten SENDs as test_drop_mark_rewrite (PSN 3 lost, CE on PSN 5). */
struct seen {
	int matched, unmatched, ce;
	struct rw_between_event lost, m5;
};

static void watch(void *ctx, const struct rw_between_event *ev)
{
	struct seen *s = ctx;
	if (ev->matched) {
		s->matched++;
		s->ce += ev->ce_marked;
		if (ev->psn == 5)
			s->m5 = *ev;
	} else {
		s->unmatched++;
		s->lost = *ev;
	}
}

static void test_observer(void **state)
{
	(void)state;
	struct ev evs[20];
	size_t n = 0;
	for (uint32_t i = 0; i < 10; i++) {
		evs[n++] = evv2(A, 1000 * i, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
		if (i == 3)
			continue;
		struct ev e = evv2(B, 1000 * i + 5000 + 10 * i, IP_S, IP_R, RC_SEND_ONLY, QP_R, i);
		if (i == 5)
			e.p.ipv4.ecn = RW_ECN_CE;
		evs[n++] = e;
	}
	struct rw_between *bt = rw_between_new(NULL);
	assert_non_null(bt);
	struct seen s;
	memset(&s, 0, sizeof(s));
	rw_between_observe(bt, watch, &s);
	feed_all(bt, evs, n);
	assert_int_equal(s.matched, 9);
	assert_int_equal(s.unmatched, 0); /* PSN 3 waits for its window */
	struct rw_between_result r;
	rw_between_finish(bt, &r);
	assert_int_equal(s.unmatched, 1);
	assert_int_equal(s.ce, 1);
	assert_int_equal(s.lost.psn, 3);
	assert_int_equal(s.lost.side, A);
	assert_int_equal(s.lost.ts[A], 3000);
	assert_int_equal(s.lost.frame[A], 4);
	assert_int_equal(s.lost.opcode, RC_SEND_ONLY);
	assert_int_equal(s.m5.side, A); /* seen first in A */
	assert_int_equal(s.m5.ts[A], 5000);
	assert_int_equal(s.m5.ts[B], 10050);
	assert_int_equal(s.m5.frame[A], 6);
	assert_int_equal(s.m5.frame[B], 5); /* B's fifth: PSN 3 never came */
	assert_int_equal(s.m5.ce_marked, 1);
	assert_int_equal(s.m5.flow, 0);
	/* the figures are the observer's business only */
	assert_int_equal(r.matched, 9);
	assert_int_equal(r.lost_count, 1);
	rw_between_free(bt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_mark_rewrite),
		cmocka_unit_test(test_reverse),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_reorder),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_resend_after_timeout),
		cmocka_unit_test(test_against_reference),
		cmocka_unit_test(test_offset),
		cmocka_unit_test(test_carriers),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_observer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
