/* SPDX-License-Identifier: BSD-3-Clause */
/* ipv6.h: the IPv6 fixed header of RFC 8200 section 3: Version(4)
 * Traffic Class(8) Flow Label(20), Payload Length(16), Next Header(8),
 * Hop Limit(8), Source(128), Destination(128). Traffic class split into
 * DSCP(6) and ECN(2) as RFC 2474 / RFC 3168. */
#include "rw_test_util.h"

/* 0x6b 0xbf: version 6, traffic class 0xbb = 101110 11 (DSCP 46 = EF, ECN 11
 * = CE), flow label 0xfabcd; payload length 0x0024 = 36; next header 17;
 * hop limit 64; 2001:db8::1 -> 2001:db8::2 (RFC 3849 documentation prefix). */
#define V6HDR "6bbfabcd 0024 11 40 20010db8000000000000000000000001 20010db8000000000000000000000002"

static void test_known(void **state)
{
	(void)state;
	uint8_t b[40];
	assert_int_equal(rw_hex(V6HDR, b, sizeof(b)), 40);
	struct rw_ipv6 h;
	memset(&h, 0xAA, sizeof(h));
	assert_int_equal(rw_ipv6_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.dscp, 46);
	assert_int_equal(h.ecn, RW_ECN_CE);
	assert_int_equal(h.flow_label, 0xfabcd);
	assert_int_equal(h.payload_len, 36);
	assert_int_equal(h.next_header, 17);
	assert_int_equal(h.hop_limit, 64);
	const uint8_t src[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	const uint8_t dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };
	assert_memory_equal(h.src, src, 16);
	assert_memory_equal(h.dst, dst, 16);

	/* Traffic class 0x02 (ECT(0), DSCP 0), flow label 0: 0x60 0x20 0x00 0x00.
	 * Next header 0 (hop-by-hop) decodes fine; walking it is the caller's job. */
	rw_hex("60200000 0008 00 ff fe800000000000000000000000000001 ff020000000000000000000000000001",
	       b, sizeof(b));
	assert_int_equal(rw_ipv6_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.dscp, 0);
	assert_int_equal(h.ecn, RW_ECN_ECT0);
	assert_int_equal(h.flow_label, 0);
	assert_int_equal(h.next_header, 0);
	assert_int_equal(h.hop_limit, 255);
	assert_int_equal(h.dst[0], 0xff);
}

static void test_truncated_malformed(void **state)
{
	(void)state;
	uint8_t b[40];
	rw_hex(V6HDR, b, sizeof(b));
	struct rw_ipv6 h;
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_ipv6_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
	/* RFC 8200: Version = 6. */
	for (unsigned v = 0; v < 16; v++) {
		if (v == 6)
			continue;
		b[0] = (uint8_t)(v << 4 | 0x0b);
		assert_int_equal(rw_ipv6_decode(b, sizeof(b), &h), RW_ERR_MALFORMED);
	}
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x666;
	for (int i = 0; i < 3000; i++) {
		struct rw_ipv6 a, d;
		a.dscp = (uint8_t)rw_randbits(&s, 6);
		a.ecn = (uint8_t)rw_randbits(&s, 2);
		a.flow_label = (uint32_t)rw_randbits(&s, 20);
		a.payload_len = (uint16_t)rw_rand64(&s);
		a.next_header = (uint8_t)rw_rand64(&s);
		a.hop_limit = (uint8_t)rw_rand64(&s);
		rw_randbytes(&s, a.src, 16);
		rw_randbytes(&s, a.dst, 16);
		uint8_t buf[48];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, 40);
		assert_int_equal(buf[40], 0x5A);
		/* RFC 8200 layout of the first word. */
		assert_int_equal(rw_get_be32(buf),
				 6u << 28 | (uint32_t)(a.dscp << 2 | a.ecn) << 20 | a.flow_label);
		assert_int_equal(rw_get_be16(buf + 4), a.payload_len);
		assert_int_equal(buf[6], a.next_header);
		assert_int_equal(buf[7], a.hop_limit);
		assert_memory_equal(buf + 8, a.src, 16);
		assert_memory_equal(buf + 24, a.dst, 16);
		assert_int_equal(rw_ipv6_decode(buf, w, &d), RW_OK);
		assert_int_equal(d.dscp, a.dscp);
		assert_int_equal(d.ecn, a.ecn);
		assert_int_equal(d.flow_label, a.flow_label);
		assert_int_equal(d.payload_len, a.payload_len);
		assert_int_equal(d.next_header, a.next_header);
		assert_int_equal(d.hop_limit, a.hop_limit);
		assert_memory_equal(d.src, a.src, 16);
		assert_memory_equal(d.dst, a.dst, 16);
		for (size_t cap = 0; cap < 40; cap++)
			assert_int_equal(rw_ipv6_encode(&a, buf, cap, &w), RW_ERR_NOSPACE);
	}
}

static void test_invalid(void **state)
{
	(void)state;
	struct rw_ipv6 a;
	memset(&a, 0, sizeof(a));
	uint8_t buf[40];
	size_t w;
	a.dscp = 63;
	a.ecn = 3;
	a.flow_label = 0xFFFFF;
	assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_OK);
	a.dscp = 64;
	assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.dscp = 0;
	a.ecn = 4;
	assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.ecn = 0;
	a.flow_label = 0x100000;
	assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_truncated_malformed),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
