/* SPDX-License-Identifier: BSD-3-Clause */
/* wire.h: big-endian (network order, RFC 1700 "Data Notations") and
 * little-endian byte accessors; error.h: rw_strerror. */
#include "rw_test_util.h"

static void test_get_be(void **state)
{
	(void)state;
	/* Byte 0 is the most significant in network order. */
	const uint8_t b[] = { 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x11 };
	assert_int_equal(rw_get_be16(b), 0x1234);
	assert_int_equal(rw_get_be24(b), 0x123456);
	assert_int_equal(rw_get_be32(b), 0x12345678u);
	assert_true(rw_get_be64(b) == 0x123456789ABCDEF0ULL);
	/* Unaligned starts must work the same (mbuf data is not aligned). */
	assert_int_equal(rw_get_be16(b + 1), 0x3456);
	assert_int_equal(rw_get_be24(b + 1), 0x345678);
	assert_int_equal(rw_get_be32(b + 1), 0x3456789Au);
	assert_true(rw_get_be64(b + 1) == 0x3456789ABCDEF011ULL);
	/* High bit set: no sign extension anywhere. */
	const uint8_t ff[] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	assert_int_equal(rw_get_be16(ff), 0xFFFF);
	assert_int_equal(rw_get_be24(ff), 0xFFFFFF);
	assert_true(rw_get_be32(ff) == 0xFFFFFFFFu);
	assert_true(rw_get_be64(ff) == 0xFFFFFFFFFFFFFFFFULL);
	const uint8_t hi[] = { 0x80, 0, 0, 0, 0, 0, 0, 1 };
	assert_true(rw_get_be32(hi) == 0x80000000u);
	assert_true(rw_get_be64(hi) == 0x8000000000000001ULL);
}

static void test_get_le(void **state)
{
	(void)state;
	/* The ICRC is carried least-significant byte first (IBA 7.8.1). */
	const uint8_t b[] = { 0x78, 0x56, 0x34, 0x12, 0xFF };
	assert_int_equal(rw_get_le32(b), 0x12345678u);
	assert_true(rw_get_le32(b + 1) == 0xFF123456u);
}

static void test_put(void **state)
{
	(void)state;
	uint8_t b[10];
	memset(b, 0xEE, sizeof(b));
	rw_put_be16(b + 1, 0xA1B2);
	assert_int_equal(b[0], 0xEE);
	assert_int_equal(b[1], 0xA1);
	assert_int_equal(b[2], 0xB2);
	assert_int_equal(b[3], 0xEE);

	memset(b, 0xEE, sizeof(b));
	rw_put_be24(b + 1, 0xC1D2E3);
	const uint8_t e24[] = { 0xEE, 0xC1, 0xD2, 0xE3, 0xEE };
	assert_memory_equal(b, e24, sizeof(e24));

	memset(b, 0xEE, sizeof(b));
	rw_put_be32(b + 1, 0x01020304u);
	const uint8_t e32[] = { 0xEE, 0x01, 0x02, 0x03, 0x04, 0xEE };
	assert_memory_equal(b, e32, sizeof(e32));

	memset(b, 0xEE, sizeof(b));
	rw_put_be64(b + 1, 0x0102030405060708ULL);
	const uint8_t e64[] = { 0xEE, 1, 2, 3, 4, 5, 6, 7, 8, 0xEE };
	assert_memory_equal(b, e64, sizeof(e64));

	memset(b, 0xEE, sizeof(b));
	rw_put_le32(b + 1, 0x01020304u);
	const uint8_t el[] = { 0xEE, 0x04, 0x03, 0x02, 0x01, 0xEE };
	assert_memory_equal(b, el, sizeof(el));
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x1234567;
	uint8_t b[8];
	for (int i = 0; i < 10000; i++) {
		uint64_t v = rw_rand64(&s);
		rw_put_be16(b, (uint16_t)v);
		assert_int_equal(rw_get_be16(b), (uint16_t)v);
		rw_put_be24(b, (uint32_t)v & 0xFFFFFF);
		assert_int_equal(rw_get_be24(b), (uint32_t)v & 0xFFFFFF);
		rw_put_be32(b, (uint32_t)v);
		assert_int_equal(rw_get_be32(b), (uint32_t)v);
		rw_put_be64(b, v);
		assert_true(rw_get_be64(b) == v);
		rw_put_le32(b, (uint32_t)v);
		assert_int_equal(rw_get_le32(b), (uint32_t)v);
	}
}

static void test_strerror(void **state)
{
	(void)state;
	const enum rw_err all[] = { RW_OK, RW_ERR_TRUNCATED, RW_ERR_MALFORMED, RW_ERR_UNSUPPORTED,
				    RW_ERR_NOSPACE, RW_ERR_INVALID };
	for (size_t i = 0; i < RW_ARRAY_LEN(all); i++) {
		const char *s = rw_strerror(all[i]);
		assert_non_null(s);
		assert_true(s[0] != '\0');
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(s, rw_strerror(all[j]));
	}
	assert_non_null(strstr(rw_strerror(RW_ERR_TRUNCATED), "truncated"));
	/* Out-of-range values must not crash or return NULL. */
	assert_non_null(rw_strerror((enum rw_err)1000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_be),
		cmocka_unit_test(test_get_le),
		cmocka_unit_test(test_put),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_strerror),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
