/* SPDX-License-Identifier: BSD-3-Clause */
/* bth.h: the Base Transport Header of IBA 9.2 (Figure 61):
 *   byte 0: OpCode     byte 1: SE(1) M(1) PadCnt(2) TVer(4)    bytes 2-3: P_Key
 *   byte 4: F(1) B(1) Resv6(6)  (FECN/BECN, IBA 9.2 and Annex A17.9)
 *   bytes 5-7: DestQP  byte 8: A(1) Resv7(7)  bytes 9-11: PSN */
#include "rw_test_util.h"

static void check_trunc(const uint8_t *b)
{
	struct rw_bth h;
	for (size_t l = 0; l < RW_BTH_LEN; l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_bth_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
}

static void test_known_cnp(void **state)
{
	(void)state;
	/* BTH of the ConnectX-4 Lx CNP (shared/notes/icrc.md). */
	uint8_t b[12];
	rw_hex("81 00 ffff 40 000118 00 000000", b, sizeof(b));
	struct rw_bth h;
	memset(&h, 0xAA, sizeof(h));
	assert_int_equal(rw_bth_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.opcode, 0x81); /* IBA A17.9.3: CNP */
	assert_int_equal(h.se, 0);
	assert_int_equal(h.m, 0);
	assert_int_equal(h.pad, 0);
	assert_int_equal(h.tver, 0);
	assert_int_equal(h.pkey, 0xffff);
	assert_int_equal(h.fecn, 0);
	assert_int_equal(h.becn, 1);      /* 0x40: A17.9.3 sets BECN in a CNP */
	assert_int_equal(h.resv6, 0);
	assert_int_equal(h.dqpn, 0x118);
	assert_int_equal(h.ackreq, 0);
	assert_int_equal(h.resv7, 0);
	assert_int_equal(h.psn, 0);
	check_trunc(b);
}

static void test_known_scapy(void **state)
{
	(void)state;
	/* BTH of the Scapy UC SEND_ONLY (shared/notes/icrc.md): MigReq 1,
	 * PadCnt 2, P_Key 0xffff, dest QP 211, PSN 13571856. */
	uint8_t b[12];
	rw_hex("24 60 ffff 00 0000d3 00 cf1710", b, sizeof(b));
	struct rw_bth h;
	assert_int_equal(rw_bth_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.opcode, 0x24);
	assert_int_equal(h.se, 0);
	assert_int_equal(h.m, 1);          /* 0x60 = 0 1 10 0000 */
	assert_int_equal(h.pad, 2);
	assert_int_equal(h.tver, 0);
	assert_int_equal(h.pkey, 0xffff);
	assert_int_equal(h.fecn, 0);
	assert_int_equal(h.becn, 0);
	assert_int_equal(h.dqpn, 211);
	assert_int_equal(h.ackreq, 0);
	assert_int_equal(h.psn, 13571856);
}

static void test_known_all_bits(void **state)
{
	(void)state;
	/* Every field distinct, every reserved bit set:
	 * 0xf3 = SE 1, M 1, PadCnt 3, TVer 3; 0xff = F 1, B 1, Resv6 0x3f;
	 * 0xff = A 1, Resv7 0x7f. */
	uint8_t b[12];
	rw_hex("0a f3 1234 ff abcdef ff 987654", b, sizeof(b));
	struct rw_bth h;
	assert_int_equal(rw_bth_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.opcode, 0x0a);
	assert_int_equal(h.se, 1);
	assert_int_equal(h.m, 1);
	assert_int_equal(h.pad, 3);
	assert_int_equal(h.tver, 3);
	assert_int_equal(h.pkey, 0x1234);
	assert_int_equal(h.fecn, 1);
	assert_int_equal(h.becn, 1);
	assert_int_equal(h.resv6, 0x3f);
	assert_int_equal(h.dqpn, 0xabcdef);
	assert_int_equal(h.ackreq, 1);
	assert_int_equal(h.resv7, 0x7f);
	assert_int_equal(h.psn, 0x987654);
	/* FECN alone: 0x80; SE alone: 0x80 in byte 1; A alone: 0x80 in byte 8. */
	rw_hex("11 80 0000 80 000000 80 000000", b, sizeof(b));
	assert_int_equal(rw_bth_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.se, 1);
	assert_int_equal(h.m, 0);
	assert_int_equal(h.pad, 0);
	assert_int_equal(h.fecn, 1);
	assert_int_equal(h.becn, 0);
	assert_int_equal(h.resv6, 0);
	assert_int_equal(h.ackreq, 1);
	assert_int_equal(h.resv7, 0);
	check_trunc(b);
}

static void test_encode_known_reserved(void **state)
{
	(void)state;
	struct rw_bth h = { .opcode = 0x0a, .se = 1, .m = 1, .pad = 3, .tver = 3, .pkey = 0x1234,
			    .fecn = 1, .becn = 1, .resv6 = 0x3f, .dqpn = 0xabcdef, .ackreq = 1,
			    .resv7 = 0x7f, .psn = 0x987654 };
	uint8_t buf[12], exp[12];
	size_t w = 0;
	assert_int_equal(rw_bth_encode(&h, buf, sizeof(buf), &w), RW_OK);
	assert_int_equal(w, RW_BTH_LEN);
	/* As decoded above, with Resv6 and Resv7 written as zero. */
	rw_hex("0a f3 1234 c0 abcdef 80 987654", exp, sizeof(exp));
	assert_memory_equal(buf, exp, 12);
	for (size_t cap = 0; cap < RW_BTH_LEN; cap++)
		assert_int_equal(rw_bth_encode(&h, buf, cap, &w), RW_ERR_NOSPACE);
}

static void test_invalid(void **state)
{
	(void)state;
	const struct rw_bth ok = { .opcode = 0xff, .se = 1, .m = 1, .pad = 3, .tver = 15,
				   .pkey = 0xffff, .fecn = 1, .becn = 1, .dqpn = 0xffffff,
				   .ackreq = 1, .psn = 0xffffff };
	uint8_t buf[12];
	size_t w;
	struct rw_bth h = ok;
	assert_int_equal(rw_bth_encode(&h, buf, sizeof(buf), &w), RW_OK);
#define BAD(field, v)                                                                       \
	do {                                                                                \
		h = ok;                                                                     \
		h.field = v;                                                                \
		assert_int_equal(rw_bth_encode(&h, buf, sizeof(buf), &w), RW_ERR_INVALID); \
	} while (0)
	BAD(psn, 0x1000000);  /* a 25-bit PSN */
	BAD(psn, 0xffffffff);
	BAD(dqpn, 0x1000000);
	BAD(pad, 4);
	BAD(tver, 16);
	BAD(se, 2);
	BAD(m, 2);
	BAD(fecn, 2);
	BAD(becn, 2);
	BAD(ackreq, 2);
#undef BAD
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0xB7B7;
	for (int i = 0; i < 5000; i++) {
		struct rw_bth a, d;
		a.opcode = (uint8_t)rw_rand64(&s);
		a.se = (uint8_t)rw_randbits(&s, 1);
		a.m = (uint8_t)rw_randbits(&s, 1);
		a.pad = (uint8_t)rw_randbits(&s, 2);
		a.tver = (uint8_t)rw_randbits(&s, 4);
		a.pkey = (uint16_t)rw_rand64(&s);
		a.fecn = (uint8_t)rw_randbits(&s, 1);
		a.becn = (uint8_t)rw_randbits(&s, 1);
		a.resv6 = (uint8_t)rw_randbits(&s, 6);
		a.dqpn = (uint32_t)rw_randbits(&s, 24);
		a.ackreq = (uint8_t)rw_randbits(&s, 1);
		a.resv7 = (uint8_t)rw_randbits(&s, 7);
		a.psn = (uint32_t)rw_randbits(&s, 24);
		uint8_t buf[14];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_bth_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, 12);
		assert_int_equal(buf[12], 0x5A);
		assert_int_equal(buf[1], a.se << 7 | a.m << 6 | a.pad << 4 | a.tver);
		assert_int_equal(buf[4], a.fecn << 7 | a.becn << 6);
		assert_int_equal(buf[8], a.ackreq << 7);
		assert_int_equal(rw_bth_decode(buf, w, &d), RW_OK);
		assert_int_equal(d.opcode, a.opcode);
		assert_int_equal(d.se, a.se);
		assert_int_equal(d.m, a.m);
		assert_int_equal(d.pad, a.pad);
		assert_int_equal(d.tver, a.tver);
		assert_int_equal(d.pkey, a.pkey);
		assert_int_equal(d.fecn, a.fecn);
		assert_int_equal(d.becn, a.becn);
		assert_int_equal(d.resv6, 0);
		assert_int_equal(d.dqpn, a.dqpn);
		assert_int_equal(d.ackreq, a.ackreq);
		assert_int_equal(d.resv7, 0);
		assert_int_equal(d.psn, a.psn);
	}
}

static void test_psn_diff(void **state)
{
	(void)state;
	/* IBA 9.7.2: PSNs are 24-bit and wrap; the distance is taken modulo 2^24
	 * into (-2^23, 2^23]. */
	assert_int_equal(rw_psn_diff(5, 3), 2);
	assert_int_equal(rw_psn_diff(3, 5), -2);
	assert_int_equal(rw_psn_diff(7, 7), 0);
	assert_int_equal(rw_psn_diff(0, 0xFFFFFF), 1);
	assert_int_equal(rw_psn_diff(0xFFFFFF, 0), -1);
	assert_int_equal(rw_psn_diff(2, 0xFFFFFE), 4);
	assert_int_equal(rw_psn_diff(0x800000, 0), 0x800000);
	assert_int_equal(rw_psn_diff(0, 0x800000), 0x800000);
	assert_int_equal(rw_psn_diff(0x7FFFFF, 0), 0x7FFFFF);
	assert_int_equal(rw_psn_diff(0x800001, 0), -0x7FFFFF);
	assert_int_equal(rw_psn_diff(0, 0x7FFFFF), -0x7FFFFF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_cnp),
		cmocka_unit_test(test_known_scapy),
		cmocka_unit_test(test_known_all_bits),
		cmocka_unit_test(test_encode_known_reserved),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_psn_diff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
