/* SPDX-License-Identifier: BSD-3-Clause */
/* tmpl.h: a packet made from a template (header patched, ICRC patched, the
 * template's payload untouched) must be byte for byte the frame
 * rw_packet_build makes from the same description, and its ICRC must be the
 * one the spec's reference (zlib over the masked pseudo-packet, in
 * rw_test_util.h) gives, for every RoCEv2 opcode a generator sends, IPv4
 * and IPv6, with and without VLAN, and every payload length class. */
#define RW_TEST_WANT_ZLIB
#include "rw_test_util.h"

static const uint8_t opcodes[] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
	0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, /* RC */
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, /* UC */
	0x64, 0x65, /* UD */
	0x81, /* CNP */
};

static void describe(uint64_t *s, struct rw_packet *p, uint8_t opcode, int v6, int vlan,
		     const uint8_t *payload, uint32_t plen)
{
	memset(p, 0, sizeof(*p));
	p->carrier = RW_CARRIER_ROCEV2;
	p->present = RW_P_ETH | RW_P_UDP | RW_P_BTH | (v6 ? RW_P_IPV6 : RW_P_IPV4);
	rw_randbytes(s, p->eth.dst, 6);
	rw_randbytes(s, p->eth.src, 6);
	if (vlan) {
		p->n_vlan = 1;
		p->vlan[0].pcp = 3;
		p->vlan[0].vid = 100;
	}
	if (v6) {
		p->ipv6.dscp = 26;
		p->ipv6.ecn = RW_ECN_ECT0;
		p->ipv6.hop_limit = 64;
		p->ipv6.next_header = 17;
		rw_randbytes(s, p->ipv6.src, 16);
		rw_randbytes(s, p->ipv6.dst, 16);
	} else {
		p->ipv4.ihl = 5;
		p->ipv4.dscp = 26;
		p->ipv4.ecn = RW_ECN_ECT0;
		p->ipv4.flags = 2;
		p->ipv4.ttl = 64;
		p->ipv4.protocol = 17;
		p->ipv4.src = (uint32_t)rw_rand64(s);
		p->ipv4.dst = (uint32_t)rw_rand64(s);
	}
	p->udp.sport = (uint16_t)rw_rand64(s);
	p->udp.dport = 4791;
	p->bth.opcode = opcode;
	p->bth.pkey = 0xFFFF;
	p->bth.dqpn = (uint32_t)rw_randbits(s, 24);
	p->bth.psn = (uint32_t)rw_randbits(s, 24);
	p->bth.ackreq = (uint8_t)rw_randbits(s, 1);
	p->bth.se = (uint8_t)rw_randbits(s, 1);
	p->bth.becn = opcode == 0x81;
	p->hdrs = rw_opcode(opcode)->hdrs;
	p->reth.va = rw_rand64(s);
	p->reth.rkey = (uint32_t)rw_rand64(s);
	p->reth.dmalen = (uint32_t)rw_rand64(s);
	p->atomiceth.va = rw_rand64(s);
	p->atomiceth.rkey = (uint32_t)rw_rand64(s);
	p->atomiceth.swap_add = rw_rand64(s);
	p->atomiceth.compare = rw_rand64(s);
	p->aeth.syndrome = (uint8_t)rw_rand64(s);
	p->aeth.msn = (uint32_t)rw_randbits(s, 24);
	p->atomicacketh.orig = rw_rand64(s);
	p->deth.qkey = (uint32_t)rw_rand64(s);
	p->deth.sqpn = (uint32_t)rw_randbits(s, 24);
	p->immdt = (uint32_t)rw_rand64(s);
	p->ieth = (uint32_t)rw_rand64(s);
	if (rw_opcode(opcode)->flags & RW_OPF_PAYLOAD) {
		p->payload = payload;
		p->payload_len = plen;
	}
}

/* A second packet of the same kind: same addresses, lengths and payload,
 * every field a template lets vary changed. */
static void vary(uint64_t *s, const struct rw_packet *a, struct rw_packet *b)
{
	uint8_t opcode = a->bth.opcode;
	struct rw_packet r;

	describe(s, &r, opcode, (a->present & RW_P_IPV6) != 0, a->n_vlan, a->payload,
		 a->payload_len);
	*b = *a;
	b->udp.sport = r.udp.sport;
	b->bth = r.bth;
	b->bth.becn = (uint8_t)rw_randbits(s, 1);
	if (b->present & RW_P_IPV6)
		b->ipv6.ecn = (uint8_t)rw_randbits(s, 2);
	else
		b->ipv4.ecn = (uint8_t)rw_randbits(s, 2);
	b->reth = r.reth;
	b->atomiceth = r.atomiceth;
	b->aeth = r.aeth;
	b->atomicacketh = r.atomicacketh;
	b->deth = r.deth;
	b->immdt = r.immdt;
	b->ieth = r.ieth;
}

static uint8_t payload[4096];

/* How a packet's header and ICRC are made from the template. */
enum way { W_GENERAL, W_FAST, W_FAST_ANY };

static struct rw_tmpl_fast fast; /* 40+ KB of tables: not on the stack */

static void check_one_way(uint64_t *s, uint8_t opcode, int v6, int vlan, uint32_t plen, enum way way)
{
	static uint8_t scratch[8192], want[8192], got[8192];
	struct rw_packet a, b, d;
	struct rw_tmpl t;
	struct rw_tmpl_fields f;
	size_t wn;

	describe(s, &a, opcode, v6, vlan, payload, plen);
	assert_int_equal(rw_tmpl_init(&t, &a, scratch, sizeof(scratch)), RW_OK);
	if (way == W_FAST) {
		assert_int_equal(rw_tmpl_fast_init(&t, &fast), RW_OK);
	} else if (way == W_FAST_ANY) {
		/* tables made on a template of another payload length serve this one */
		static uint8_t other_scratch[8192];
		struct rw_packet o;
		struct rw_tmpl ot;
		describe(s, &o, opcode, v6, vlan, payload, plen ? plen - 1 : 7);
		assert_int_equal(rw_tmpl_init(&ot, &o, other_scratch, sizeof(other_scratch)), RW_OK);
		assert_int_equal(rw_tmpl_fast_init_any(&ot, &fast), RW_OK);
	}
	for (int k = 0; k < 8; k++) {
		vary(s, &a, &b);
		assert_int_equal(rw_packet_build(&b, RW_LINKTYPE_ETHERNET, 0, want, sizeof(want), &wn),
				 RW_OK);
		assert_int_equal(wn, t.frame_len);
		rw_tmpl_fields_of(&b, &f);
		memset(got, 0xAA, sizeof(got));
		/* The payload stays where the template put it: only the header and
		 * the tail are written per packet. */
		memcpy(got + t.hdr_len, scratch + t.hdr_len, t.payload_len);
		uint32_t icrc = way == W_GENERAL ? rw_tmpl_write(&t, &f, got)
						 : rw_tmpl_write_fast(&t, &fast, &f, got);
		rw_tmpl_write_tail(&t, icrc, got + t.hdr_len + t.payload_len);
		if (memcmp(got, want, wn) != 0) {
			for (size_t i = 0; i < wn; i++)
				if (got[i] != want[i])
					fail_msg("way %d opcode 0x%02x v%d vlan %d len %u: byte %zu is %02x, want %02x",
						 (int)way, opcode, v6 ? 6 : 4, vlan, plen, i, got[i], want[i]);
		}
		/* Independent of the builder: the spec's ICRC and checksum. */
		assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, got, wn, wn, &d), RW_OK);
		size_t covered = wn - d.l3_off - RW_ICRC_LEN - t.eth_pad;
		assert_int_equal(rw_get_le32(got + d.l3_off + covered),
				 rw_ref_icrc_rocev2(got + d.l3_off, covered));
		if (!v6)
			assert_int_equal(rw_ref_inet_cksum(got + d.l3_off, 20), 0);
	}
}

static void check_one(uint64_t *s, uint8_t opcode, int v6, int vlan, uint32_t plen)
{
	check_one_way(s, opcode, v6, vlan, plen, W_GENERAL);
	check_one_way(s, opcode, v6, vlan, plen, W_FAST);
	check_one_way(s, opcode, v6, vlan, plen, W_FAST_ANY);
}

/* check(every opcode, IPv4 and IPv6, with and without VLAN, each of lens). */
static void each_case(void (*check)(uint64_t *, uint8_t, int, int, uint32_t), uint64_t seed,
		      const uint32_t *lens, size_t nlens)
{
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 3);
	for (size_t o = 0; o < RW_ARRAY_LEN(opcodes); o++)
		for (int v6 = 0; v6 < 2; v6++)
			for (int vlan = 0; vlan < 2; vlan++)
				for (size_t l = 0; l < nlens; l++)
					check(&seed, opcodes[o], v6, vlan, lens[l]);
}

static void test_every_opcode_and_carrier(void **state)
{
	(void)state;
	static const uint32_t lens[] = {0, 1, 2, 3, 4, 5, 63, 256, 1021, 1024, 4095, 4096};

	each_case(check_one, 0x5eed1234abcdULL, lens, RW_ARRAY_LEN(lens));
}

/* A short frame keeps its Ethernet padding after the ICRC (60 bytes
 * without FCS), and the padding is written by the tail. */
static void test_short_frame_padding(void **state)
{
	(void)state;
	static uint8_t scratch[256];
	uint64_t s = 7;
	struct rw_packet a;
	struct rw_tmpl t;

	describe(&s, &a, 0x24 /* UC_SEND_ONLY */, 0, 0, payload, 0);
	assert_int_equal(rw_tmpl_init(&t, &a, scratch, sizeof(scratch)), RW_OK);
	/* 14 + 20 + 8 + 12 + 4 = 58: two bytes of Ethernet padding. */
	assert_int_equal(t.hdr_len, 54);
	assert_int_equal(t.eth_pad, 2);
	assert_int_equal(t.frame_len, 60);
}

static void test_not_rocev2(void **state)
{
	(void)state;
	static uint8_t scratch[256];
	struct rw_packet a;
	struct rw_tmpl t;

	memset(&a, 0, sizeof(a));
	a.carrier = RW_CARRIER_IB;
	assert_int_equal(rw_tmpl_init(&t, &a, scratch, sizeof(scratch)), RW_ERR_UNSUPPORTED);
}

/* rw_crc32_patch_shift with a precomputed shift equals rw_crc32_patch and a
 * CRC recomputed by zlib. */
static void test_patch_shift(void **state)
{
	(void)state;
	static uint8_t buf[5000], old[32];
	uint64_t s = 99;

	rw_randbytes(&s, buf, sizeof(buf));
	for (size_t tail = 0; tail < 4100; tail += 37) {
		size_t pos = sizeof(buf) - tail - 20;
		uint32_t c0 = (uint32_t)crc32(0L, buf, sizeof(buf));
		memcpy(old, buf + pos, 20);
		rw_randbytes(&s, buf + pos, 20);
		uint32_t want = (uint32_t)crc32(0L, buf, sizeof(buf));
		assert_int_equal(rw_crc32_patch_shift(c0, old, buf + pos, 20, rw_crc32_shift(tail)), want);
		assert_int_equal(rw_crc32_patch(c0, old, buf + pos, 20, tail), want);
	}
}

/* A frame kept from packet to packet (rw_tmpl_stamp, rw_tmpl_put_*,
 * rw_tmpl_fast_xor): the
 * template's whole frame stamped once, then per packet the UDP source
 * port, destination QP, PSN, UD's source QP and the VA written in place and
 * the ICRC made as a generator makes it (the frame's with the packet's
 * QP fields by the general patch, then the PSN's and VA's changes from the
 * tables) must be rw_packet_build's frame of that packet. */
static void check_stamped(uint64_t *s, uint8_t opcode, int v6, int vlan, uint32_t plen)
{
	static uint8_t scratch[8192], want[8192], got[8192], hdr[RW_TMPL_HDR_MAX];
	struct rw_packet a, b, q;
	struct rw_tmpl t;
	struct rw_tmpl_fields f;
	size_t wn;
	unsigned h = rw_opcode(opcode)->hdrs;
	int has_va = (h & (RW_HDR_RETH | RW_HDR_ATOMICETH)) != 0;

	describe(s, &a, opcode, v6, vlan, payload, plen);
	assert_int_equal(rw_tmpl_init(&t, &a, scratch, sizeof(scratch)), RW_OK);
	assert_int_equal(rw_tmpl_fast_init(&t, &fast), RW_OK);
	assert_int_equal(fast.va_at == 0xFF, !has_va);
	struct rw_tmpl_stamp st;
	rw_tmpl_stamp_init(&t, &st);
	assert_int_equal(st.va_at != 0, has_va);
	assert_int_equal(st.sqpn_at != 0, (h & RW_HDR_DETH) != 0);
	memcpy(got, scratch, t.frame_len);
	for (int k = 0; k < 8; k++) {
		uint64_t va = rw_rand64(s);
		b = a;
		b.udp.sport = (uint16_t)rw_rand64(s);
		b.bth.dqpn = (uint32_t)rw_randbits(s, 24);
		b.bth.psn = (uint32_t)rw_randbits(s, 24);
		b.deth.sqpn = (uint32_t)rw_randbits(s, 24);
		if (h & RW_HDR_RETH)
			b.reth.va = va;
		if (h & RW_HDR_ATOMICETH)
			b.atomiceth.va = va;
		assert_int_equal(rw_packet_build(&b, RW_LINKTYPE_ETHERNET, 0, want, sizeof(want), &wn), RW_OK);
		/* the packet's QP fields with the template's PSN and VA */
		q = b;
		q.bth.psn = a.bth.psn;
		q.reth.va = a.reth.va;
		q.atomiceth.va = a.atomiceth.va;
		rw_tmpl_fields_of(&q, &f);
		uint32_t icrc = rw_tmpl_write(&t, &f, hdr) ^
				rw_tmpl_fast_xor(&fast, fast.psn_at, 3, a.bth.psn ^ b.bth.psn);
		if (has_va)
			icrc ^= rw_tmpl_fast_xor(&fast, fast.va_at, 8,
						 (h & RW_HDR_RETH ? a.reth.va : a.atomiceth.va) ^ va);
		rw_tmpl_put_udp_sport(&st, got, b.udp.sport);
		rw_tmpl_put_dqpn(&st, got, b.bth.dqpn);
		rw_tmpl_put_psn(&st, got, b.bth.psn);
		if (h & RW_HDR_DETH)
			rw_tmpl_put_sqpn(&st, got, b.deth.sqpn);
		if (has_va)
			rw_tmpl_put_va(&st, got, va);
		rw_tmpl_put_icrc(&st, got, icrc);
		assert_int_equal(wn, t.frame_len);
		for (size_t i = 0; i < wn; i++)
			if (got[i] != want[i])
				fail_msg("stamped: opcode 0x%02x v%d vlan %d len %u packet %d: byte %zu is %02x, want %02x",
					 opcode, v6 ? 6 : 4, vlan, plen, k, i, got[i], want[i]);
	}
}

static void test_stamped_frame(void **state)
{
	(void)state;
	static const uint32_t lens[] = {0, 1, 3, 5, 64, 1021, 4096};

	each_case(check_stamped, 0xfeed5eedULL, lens, RW_ARRAY_LEN(lens));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_opcode_and_carrier),
		cmocka_unit_test(test_short_frame_padding),
		cmocka_unit_test(test_not_rocev2),
		cmocka_unit_test(test_patch_shift),
		cmocka_unit_test(test_stamped_frame),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
