/* SPDX-License-Identifier: BSD-3-Clause */
/* lrh.h: the Local Route Header of IBA 7.7 (Figure 55):
 *   byte 0: VL(4) LVer(4)        byte 1: SL(4) Rsv2(2) LNH(2)
 *   bytes 2-3: DLID              bytes 4-5: Rsv5(5) PktLen(11)
 *   bytes 6-7: SLID */
#include "rw_test_util.h"

static void test_known(void **state)
{
	(void)state;
	uint8_t b[8];
	struct rw_lrh h;
	/* VL 15 (the management lane, IBA 7.6.3), LVer 0, SL 0, LNH 2 (BTH
	 * follows), DLID 0xFFFF (permissive), PktLen 9 words, SLID 1. */
	rw_hex("f0 02 ffff 0009 0001", b, sizeof(b));
	memset(&h, 0xAA, sizeof(h));
	assert_int_equal(rw_lrh_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.vl, 15);
	assert_int_equal(h.lver, 0);
	assert_int_equal(h.sl, 0);
	assert_int_equal(h.resv2, 0);
	assert_int_equal(h.lnh, RW_LNH_IBA_LOCAL);
	assert_int_equal(h.dlid, 0xFFFF);
	assert_int_equal(h.resv5, 0);
	assert_int_equal(h.pktlen, 9);
	assert_int_equal(h.slid, 1);

	/* Every field at a distinct value, reserved bits set:
	 * 0x3a = VL 3, LVer 10; 0x7f = SL 7, Rsv2 11, LNH 11;
	 * 0xfc01 = Rsv5 11111, PktLen 100 0000 0001 = 1025. */
	rw_hex("3a 7f 1234 fc01 abcd", b, sizeof(b));
	assert_int_equal(rw_lrh_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.vl, 3);
	assert_int_equal(h.lver, 10);
	assert_int_equal(h.sl, 7);
	assert_int_equal(h.resv2, 3);
	assert_int_equal(h.lnh, RW_LNH_IBA_GLOBAL);
	assert_int_equal(h.dlid, 0x1234);
	assert_int_equal(h.resv5, 0x1F);
	assert_int_equal(h.pktlen, 1025);
	assert_int_equal(h.slid, 0xabcd);

	/* PktLen at its 11-bit maximum, Rsv5 clear. */
	rw_hex("00 01 0000 07ff 0000", b, sizeof(b));
	assert_int_equal(rw_lrh_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.lnh, RW_LNH_IPV6);
	assert_int_equal(h.pktlen, 2047);
	assert_int_equal(h.resv5, 0);

	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_lrh_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
}

static void test_encode_known_reserved(void **state)
{
	(void)state;
	struct rw_lrh h = { .vl = 3, .lver = 10, .sl = 7, .resv2 = 3, .lnh = 3, .dlid = 0x1234,
			    .resv5 = 0x1F, .pktlen = 1025, .slid = 0xabcd };
	uint8_t buf[8], exp[8];
	size_t w = 0;
	assert_int_equal(rw_lrh_encode(&h, buf, sizeof(buf), &w), RW_OK);
	assert_int_equal(w, RW_LRH_LEN);
	/* Same bytes as the decode case above with the reserved bits zero. */
	rw_hex("3a 73 1234 0401 abcd", exp, sizeof(exp));
	assert_memory_equal(buf, exp, 8);
	for (size_t cap = 0; cap < 8; cap++)
		assert_int_equal(rw_lrh_encode(&h, buf, cap, &w), RW_ERR_NOSPACE);
}

static void test_invalid(void **state)
{
	(void)state;
	const struct rw_lrh ok = { .vl = 15, .lver = 15, .sl = 15, .lnh = 3, .dlid = 0xFFFF,
				   .pktlen = 2047, .slid = 0xFFFF };
	uint8_t buf[8];
	size_t w;
	struct rw_lrh h = ok;
	assert_int_equal(rw_lrh_encode(&h, buf, sizeof(buf), &w), RW_OK);
	h = ok;
	h.vl = 16;
	assert_int_equal(rw_lrh_encode(&h, buf, sizeof(buf), &w), RW_ERR_INVALID);
	h = ok;
	h.lver = 16;
	assert_int_equal(rw_lrh_encode(&h, buf, sizeof(buf), &w), RW_ERR_INVALID);
	h = ok;
	h.sl = 16;
	assert_int_equal(rw_lrh_encode(&h, buf, sizeof(buf), &w), RW_ERR_INVALID);
	h = ok;
	h.lnh = 4;
	assert_int_equal(rw_lrh_encode(&h, buf, sizeof(buf), &w), RW_ERR_INVALID);
	h = ok;
	h.pktlen = 2048;
	assert_int_equal(rw_lrh_encode(&h, buf, sizeof(buf), &w), RW_ERR_INVALID);
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x1234;
	for (int i = 0; i < 5000; i++) {
		struct rw_lrh a, d;
		a.vl = (uint8_t)rw_randbits(&s, 4);
		a.lver = (uint8_t)rw_randbits(&s, 4);
		a.sl = (uint8_t)rw_randbits(&s, 4);
		a.resv2 = (uint8_t)rw_randbits(&s, 2);
		a.lnh = (uint8_t)rw_randbits(&s, 2);
		a.dlid = (uint16_t)rw_rand64(&s);
		a.resv5 = (uint8_t)rw_randbits(&s, 5);
		a.pktlen = (uint16_t)rw_randbits(&s, 11);
		a.slid = (uint16_t)rw_rand64(&s);
		uint8_t buf[10];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_lrh_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, 8);
		assert_int_equal(buf[8], 0x5A);
		assert_int_equal(buf[0], a.vl << 4 | a.lver);
		assert_int_equal(buf[1], a.sl << 4 | a.lnh);
		assert_int_equal(rw_get_be16(buf + 4), a.pktlen);
		assert_int_equal(rw_lrh_decode(buf, w, &d), RW_OK);
		assert_int_equal(d.vl, a.vl);
		assert_int_equal(d.lver, a.lver);
		assert_int_equal(d.sl, a.sl);
		assert_int_equal(d.resv2, 0);
		assert_int_equal(d.lnh, a.lnh);
		assert_int_equal(d.dlid, a.dlid);
		assert_int_equal(d.resv5, 0);
		assert_int_equal(d.pktlen, a.pktlen);
		assert_int_equal(d.slid, a.slid);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_encode_known_reserved),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
