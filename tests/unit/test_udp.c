/* SPDX-License-Identifier: BSD-3-Clause */
/* udp.h: the UDP header of RFC 768: Source Port, Destination Port, Length
 * (header + data, so at least 8), Checksum; RoCEv2 port 4791 (IBA A17.2.3). */
#include "rw_test_util.h"

static void test_known(void **state)
{
	(void)state;
	uint8_t b[8];
	/* The UDP header of the Scapy UC SEND_ONLY frame (shared/notes/icrc.md). */
	rw_hex("c000 12b7 002c aca2", b, sizeof(b));
	struct rw_udp u;
	memset(&u, 0xAA, sizeof(u));
	assert_int_equal(rw_udp_decode(b, sizeof(b), &u), RW_OK);
	assert_int_equal(u.sport, 49152);
	assert_int_equal(u.dport, RW_ROCEV2_PORT);
	assert_int_equal(u.dport, 4791);
	assert_int_equal(u.len, 44);
	assert_int_equal(u.checksum, 0xaca2);
	/* The CNP's: source port 0, length 40, checksum 0 (not computed). */
	rw_hex("0000 12b7 0028 0000", b, sizeof(b));
	assert_int_equal(rw_udp_decode(b, sizeof(b), &u), RW_OK);
	assert_int_equal(u.sport, 0);
	assert_int_equal(u.len, 40);
	assert_int_equal(u.checksum, 0);
}

static void test_truncated_malformed(void **state)
{
	(void)state;
	uint8_t b[8];
	rw_hex("c000 12b7 002c aca2", b, sizeof(b));
	struct rw_udp u;
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_udp_decode(c, l, &u), RW_ERR_TRUNCATED);
		free(c);
	}
	/* RFC 768: the minimum value of the length is eight. */
	for (unsigned len = 0; len < 8; len++) {
		rw_put_be16(b + 4, (uint16_t)len);
		assert_int_equal(rw_udp_decode(b, sizeof(b), &u), RW_ERR_MALFORMED);
	}
	rw_put_be16(b + 4, 8);
	assert_int_equal(rw_udp_decode(b, sizeof(b), &u), RW_OK);
	assert_int_equal(u.len, 8);
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x0D0;
	for (int i = 0; i < 3000; i++) {
		struct rw_udp a, d;
		a.sport = (uint16_t)rw_rand64(&s);
		a.dport = (uint16_t)rw_rand64(&s);
		a.len = (uint16_t)(8 + rw_randbits(&s, 15));
		a.checksum = (uint16_t)rw_rand64(&s);
		uint8_t buf[12];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_udp_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, 8);
		assert_int_equal(buf[8], 0x5A);
		assert_int_equal(rw_get_be16(buf), a.sport);
		assert_int_equal(rw_get_be16(buf + 2), a.dport);
		assert_int_equal(rw_get_be16(buf + 4), a.len);
		assert_int_equal(rw_get_be16(buf + 6), a.checksum);
		assert_int_equal(rw_udp_decode(buf, w, &d), RW_OK);
		assert_int_equal(d.sport, a.sport);
		assert_int_equal(d.dport, a.dport);
		assert_int_equal(d.len, a.len);
		assert_int_equal(d.checksum, a.checksum);
		for (size_t cap = 0; cap < 8; cap++)
			assert_int_equal(rw_udp_encode(&a, buf, cap, &w), RW_ERR_NOSPACE);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_truncated_malformed),
		cmocka_unit_test(test_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
