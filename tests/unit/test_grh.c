/* SPDX-License-Identifier: BSD-3-Clause */
/* grh.h: the Global Route Header of IBA 8.3 (Figure 57):
 *   IPVer(4) TClass(8) FlowLabel(20) | PayLen(16) NxtHdr(8) HopLmt(8) |
 *   SGID(128) | DGID(128)
 * NxtHdr 0x1B means an IBA transport header follows (IBA 8.3.1). */
#include "rw_test_util.h"

/* 0x6d 0xaa 0xbc 0xde: IPVer 6, TClass 0xda, FlowLabel 0xabcde; PayLen 0x001c
 * = 28; NxtHdr 0x1b; HopLmt 0x40; SGID fe80::2:c903:a1:b2c3 (a link-local
 * GID of a ConnectX port), DGID ff12:401b:ffff::1 (an IPoIB multicast GID). */
#define GRHHEX "6daabcde 001c 1b 40 fe800000000000000002c90300a1b2c3 ff12401bffff00000000000000000001"

static void test_known(void **state)
{
	(void)state;
	uint8_t b[40];
	assert_int_equal(rw_hex(GRHHEX, b, sizeof(b)), 40);
	struct rw_grh g;
	memset(&g, 0xAA, sizeof(g));
	assert_int_equal(rw_grh_decode(b, sizeof(b), &g), RW_OK);
	assert_int_equal(g.ipver, 6);
	assert_int_equal(g.tclass, 0xda);
	assert_int_equal(g.flow_label, 0xabcde);
	assert_int_equal(g.paylen, 28);
	assert_int_equal(g.nxthdr, RW_GRH_NXTHDR_IBA);
	assert_int_equal(g.hoplmt, 64);
	const uint8_t sgid[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03,
				   0x00, 0xa1, 0xb2, 0xc3 };
	const uint8_t dgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0,
				   0, 0, 0, 1 };
	assert_memory_equal(g.sgid, sgid, 16);
	assert_memory_equal(g.dgid, dgid, 16);

	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_grh_decode(c, l, &g), RW_ERR_TRUNCATED);
		free(c);
	}
}

static void test_malformed(void **state)
{
	(void)state;
	uint8_t b[40];
	struct rw_grh g;
	/* IBA 8.3.1: IPVer is 6. */
	for (unsigned v = 0; v < 16; v++) {
		rw_hex(GRHHEX, b, sizeof(b));
		b[0] = (uint8_t)(v << 4 | (b[0] & 0x0F));
		assert_int_equal(rw_grh_decode(b, sizeof(b), &g), v == 6 ? RW_OK : RW_ERR_MALFORMED);
	}
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x6868;
	for (int i = 0; i < 3000; i++) {
		struct rw_grh a, d;
		a.ipver = 6;
		a.tclass = (uint8_t)rw_rand64(&s);
		a.flow_label = (uint32_t)rw_randbits(&s, 20);
		a.paylen = (uint16_t)rw_rand64(&s);
		a.nxthdr = (uint8_t)rw_rand64(&s);
		a.hoplmt = (uint8_t)rw_rand64(&s);
		rw_randbytes(&s, a.sgid, 16);
		rw_randbytes(&s, a.dgid, 16);
		uint8_t buf[44];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_grh_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, RW_GRH_LEN);
		assert_int_equal(buf[40], 0x5A);
		assert_int_equal(rw_get_be32(buf), 6u << 28 | (uint32_t)a.tclass << 20 | a.flow_label);
		assert_int_equal(rw_get_be16(buf + 4), a.paylen);
		assert_int_equal(buf[6], a.nxthdr);
		assert_int_equal(buf[7], a.hoplmt);
		assert_memory_equal(buf + 8, a.sgid, 16);
		assert_memory_equal(buf + 24, a.dgid, 16);
		assert_int_equal(rw_grh_decode(buf, w, &d), RW_OK);
		assert_int_equal(d.ipver, 6);
		assert_int_equal(d.tclass, a.tclass);
		assert_int_equal(d.flow_label, a.flow_label);
		assert_int_equal(d.paylen, a.paylen);
		assert_int_equal(d.nxthdr, a.nxthdr);
		assert_int_equal(d.hoplmt, a.hoplmt);
		assert_memory_equal(d.sgid, a.sgid, 16);
		assert_memory_equal(d.dgid, a.dgid, 16);
		for (size_t cap = 0; cap < RW_GRH_LEN; cap++)
			assert_int_equal(rw_grh_encode(&a, buf, cap, &w), RW_ERR_NOSPACE);
	}
}

static void test_invalid(void **state)
{
	(void)state;
	struct rw_grh a;
	memset(&a, 0, sizeof(a));
	a.ipver = 6;
	a.flow_label = 0xFFFFF;
	uint8_t buf[40];
	size_t w;
	assert_int_equal(rw_grh_encode(&a, buf, sizeof(buf), &w), RW_OK);
	a.flow_label = 0x100000;
	assert_int_equal(rw_grh_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
