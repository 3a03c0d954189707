/* SPDX-License-Identifier: BSD-3-Clause */
/* eth.h: Ethernet II header (IEEE 802.3 clause 3.1.1: destination, source,
 * length/type) and IEEE 802.1Q tags (9.6: TCI = PCP(3) DEI(1) VID(12)). */
#include "rw_test_util.h"

static void test_eth_known(void **state)
{
	(void)state;
	/* First 14 bytes of the ConnectX-4 Lx CNP in shared/notes/icrc.md. */
	uint8_t b[14];
	rw_hex("e41d2dab2bc2 7cfe90643b32 0800", b, sizeof(b));
	struct rw_eth e;
	memset(&e, 0xAA, sizeof(e));
	assert_int_equal(rw_eth_decode(b, sizeof(b), &e), RW_OK);
	const uint8_t dst[6] = { 0xe4, 0x1d, 0x2d, 0xab, 0x2b, 0xc2 };
	const uint8_t src[6] = { 0x7c, 0xfe, 0x90, 0x64, 0x3b, 0x32 };
	assert_memory_equal(e.dst, dst, 6);
	assert_memory_equal(e.src, src, 6);
	assert_int_equal(e.ethertype, RW_ETHERTYPE_IPV4);

	/* RoCEv1 ethertype 0x8915 (IBA A16.2) read as a plain 16-bit value. */
	rw_hex("ffffffffffff 020000000001 8915", b, sizeof(b));
	assert_int_equal(rw_eth_decode(b, sizeof(b), &e), RW_OK);
	assert_int_equal(e.ethertype, 0x8915);
	assert_int_equal(e.dst[5], 0xff);
	assert_int_equal(e.src[5], 0x01);
}

static void test_eth_trunc_nospace(void **state)
{
	(void)state;
	uint8_t b[14];
	rw_hex("e41d2dab2bc2 7cfe90643b32 86dd", b, sizeof(b));
	struct rw_eth e;
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_eth_decode(c, l, &e), RW_ERR_TRUNCATED);
		free(c);
	}
	assert_int_equal(rw_eth_decode(b, sizeof(b), &e), RW_OK);
	uint8_t out[14];
	size_t w = 99;
	for (size_t cap = 0; cap < 14; cap++)
		assert_int_equal(rw_eth_encode(&e, out, cap, &w), RW_ERR_NOSPACE);
	assert_int_equal(rw_eth_encode(&e, out, sizeof(out), &w), RW_OK);
	assert_int_equal(w, 14);
	assert_memory_equal(out, b, 14);
}

static void test_eth_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0xE7;
	for (int i = 0; i < 2000; i++) {
		struct rw_eth a, d;
		rw_randbytes(&s, a.dst, 6);
		rw_randbytes(&s, a.src, 6);
		a.ethertype = (uint16_t)rw_rand64(&s);
		uint8_t buf[32];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_eth_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, RW_ETH_HLEN);
		assert_int_equal(buf[14], 0x5A); /* nothing written past the header */
		/* the wire layout: dst, src, type (big-endian) */
		assert_memory_equal(buf, a.dst, 6);
		assert_memory_equal(buf + 6, a.src, 6);
		assert_int_equal(buf[12], a.ethertype >> 8);
		assert_int_equal(buf[13], a.ethertype & 0xFF);
		assert_int_equal(rw_eth_decode(buf, w, &d), RW_OK);
		assert_memory_equal(d.dst, a.dst, 6);
		assert_memory_equal(d.src, a.src, 6);
		assert_int_equal(d.ethertype, a.ethertype);
	}
}

static void test_vlan_known(void **state)
{
	(void)state;
	/* TCI 0xB064 = 101 1 000001100100: PCP 5, DEI 1, VID 100; then IPv4. */
	uint8_t b[4];
	rw_hex("b064 0800", b, sizeof(b));
	struct rw_vlan v;
	memset(&v, 0xAA, sizeof(v));
	assert_int_equal(rw_vlan_decode(b, sizeof(b), RW_ETHERTYPE_VLAN, &v), RW_OK);
	assert_int_equal(v.tpid, 0x8100);
	assert_int_equal(v.pcp, 5);
	assert_int_equal(v.dei, 1);
	assert_int_equal(v.vid, 100);
	assert_int_equal(v.ethertype, 0x0800);

	/* TCI 0x0FFF: PCP 0, DEI 0, VID 4095 (reserved VID, still decoded);
	 * an 802.1ad S-tag followed by a C-tag TPID. */
	rw_hex("0fff 8100", b, sizeof(b));
	assert_int_equal(rw_vlan_decode(b, sizeof(b), RW_ETHERTYPE_QINQ, &v), RW_OK);
	assert_int_equal(v.tpid, 0x88A8);
	assert_int_equal(v.pcp, 0);
	assert_int_equal(v.dei, 0);
	assert_int_equal(v.vid, 0xFFF);
	assert_int_equal(v.ethertype, 0x8100);

	/* TCI 0xE000: PCP 7, DEI 0, VID 0 (priority tag, 802.1Q 9.6). */
	rw_hex("e000 86dd", b, sizeof(b));
	assert_int_equal(rw_vlan_decode(b, sizeof(b), RW_ETHERTYPE_VLAN, &v), RW_OK);
	assert_int_equal(v.pcp, 7);
	assert_int_equal(v.dei, 0);
	assert_int_equal(v.vid, 0);
	assert_int_equal(v.ethertype, 0x86DD);

	for (size_t l = 0; l < 4; l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_vlan_decode(c, l, RW_ETHERTYPE_VLAN, &v), RW_ERR_TRUNCATED);
		free(c);
	}
}

static void test_vlan_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x71;
	for (int i = 0; i < 2000; i++) {
		struct rw_vlan a, d;
		a.tpid = RW_ETHERTYPE_VLAN;
		a.pcp = (uint8_t)rw_randbits(&s, 3);
		a.dei = (uint8_t)rw_randbits(&s, 1);
		a.vid = (uint16_t)rw_randbits(&s, 12);
		a.ethertype = (uint16_t)rw_rand64(&s);
		uint8_t buf[8];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_vlan_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, RW_VLAN_HLEN);
		assert_int_equal(buf[4], 0x5A);
		/* 802.1Q 9.6: TCI = PCP << 13 | DEI << 12 | VID. */
		assert_int_equal(rw_get_be16(buf), a.pcp << 13 | a.dei << 12 | a.vid);
		assert_int_equal(rw_get_be16(buf + 2), a.ethertype);
		assert_int_equal(rw_vlan_decode(buf, w, RW_ETHERTYPE_QINQ_OLD, &d), RW_OK);
		assert_int_equal(d.tpid, RW_ETHERTYPE_QINQ_OLD);
		assert_int_equal(d.pcp, a.pcp);
		assert_int_equal(d.dei, a.dei);
		assert_int_equal(d.vid, a.vid);
		assert_int_equal(d.ethertype, a.ethertype);
		for (size_t cap = 0; cap < RW_VLAN_HLEN; cap++)
			assert_int_equal(rw_vlan_encode(&a, buf, cap, &w), RW_ERR_NOSPACE);
	}
}

static void test_vlan_invalid(void **state)
{
	(void)state;
	uint8_t buf[4];
	size_t w;
	struct rw_vlan a = { .tpid = 0x8100, .pcp = 7, .dei = 1, .vid = 4095, .ethertype = 0x0800 };
	assert_int_equal(rw_vlan_encode(&a, buf, sizeof(buf), &w), RW_OK);
	a.pcp = 8;
	assert_int_equal(rw_vlan_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.pcp = 7;
	a.dei = 2;
	assert_int_equal(rw_vlan_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.dei = 1;
	a.vid = 4096;
	assert_int_equal(rw_vlan_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
}

static void test_ethertype_is_vlan(void **state)
{
	(void)state;
	/* 802.1Q C-tag 0x8100, 802.1ad S-tag 0x88A8, pre-standard 0x9100. */
	assert_true(rw_ethertype_is_vlan(0x8100));
	assert_true(rw_ethertype_is_vlan(0x88A8));
	assert_true(rw_ethertype_is_vlan(0x9100));
	assert_false(rw_ethertype_is_vlan(0x0800));
	assert_false(rw_ethertype_is_vlan(0x86DD));
	assert_false(rw_ethertype_is_vlan(0x8915));
	assert_false(rw_ethertype_is_vlan(0x8808));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eth_known),
		cmocka_unit_test(test_eth_trunc_nospace),
		cmocka_unit_test(test_eth_roundtrip),
		cmocka_unit_test(test_vlan_known),
		cmocka_unit_test(test_vlan_roundtrip),
		cmocka_unit_test(test_vlan_invalid),
		cmocka_unit_test(test_ethertype_is_vlan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
