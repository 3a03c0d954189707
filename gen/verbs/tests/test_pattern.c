/* SPDX-License-Identifier: BSD-3-Clause */
/* The data pattern of rocewire-verbs (pattern.h). Known answers: SplitMix64's
 * published outputs for seed 1234567 (Vigna's reference algorithm, as listed
 * by Rosetta Code "Pseudo-random numbers/Splitmix64"), and message bytes from
 * an independent Python implementation of the definition in README.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pattern.h"

static void test_splitmix_reference(void **state)
{
	(void)state;
	static const uint64_t want[] = {
		6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull,
		4593380528125082431ull, 16408922859458223821ull,
	};
	for (uint64_t k = 1; k <= 5; k++)
		assert_int_equal(rwv_splitmix64_mix(1234567 + k * RWV_PAT_GOLDEN), want[k - 1]);
}

static void test_known_messages(void **state)
{
	(void)state;
	static const uint8_t m1[20] = {0x52, 0x57, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x01, 0xdf,
				       0x24, 0xf8, 0xa1, 0xbf, 0x21, 0x9f, 0x00, 0x46, 0xd5, 0x85};
	static const uint8_t m2[5] = {0x52, 0x57, 0x00, 0x00, 0x00};
	static const uint8_t m3[24] = {0x52, 0x57, 0x00, 0x03, 0x12, 0x34, 0x56, 0x78,
				       0x57, 0x24, 0x92, 0x5a, 0x23, 0x67, 0x3f, 0x88,
				       0x42, 0xbe, 0x98, 0x8b, 0xcd, 0x0e, 0xf1, 0x32};
	uint8_t b[32];

	memset(b, 0xee, sizeof(b));
	rwv_pat_fill(b, 20, 1, 2);
	assert_memory_equal(b, m1, 20);
	assert_int_equal(b[20], 0xee); /* nothing written past n */
	rwv_pat_fill(b, 5, 0, 0);
	assert_memory_equal(b, m2, 5);
	rwv_pat_fill(b, 24, 3, 0x12345678);
	assert_memory_equal(b, m3, 24);
	assert_int_equal(rwv_pat_word(3, 0x12345678, 1), 0x5724925a23673f88ull);
}

static void test_prefix_and_check(void **state)
{
	(void)state;
	uint8_t big[4096], small[4096];
	uint8_t want;

	rwv_pat_fill(big, sizeof(big), 9, 77);
	for (size_t n = 0; n <= 64; n++) {
		rwv_pat_fill(small, n, 9, 77);
		assert_memory_equal(small, big, n);
		assert_int_equal(rwv_pat_check(small, n, 9, 77, NULL), n);
	}
	assert_int_equal(rwv_pat_check(big, sizeof(big), 9, 77, NULL), sizeof(big));
	/* Another iteration or QP differs in its header. */
	assert_int_equal(rwv_pat_check(big, sizeof(big), 9, 78, NULL), 7);
	assert_int_equal(rwv_pat_check(big, sizeof(big), 8, 77, NULL), 3);
	big[1234] ^= 0x10;
	assert_int_equal(rwv_pat_check(big, sizeof(big), 9, 77, &want), 1234);
	assert_int_equal(want, big[1234] ^ 0x10);
	big[1234] ^= 0x10;
	big[4095] ^= 1;
	assert_int_equal(rwv_pat_check(big, sizeof(big), 9, 77, NULL), 4095);
}

static void test_identify(void **state)
{
	(void)state;
	uint8_t b[16];
	uint32_t qp;
	uint64_t it;

	rwv_pat_fill(b, sizeof(b), 513, 0xfedcba98);
	assert_int_equal(rwv_pat_identify(b, sizeof(b), &qp, &it), 0);
	assert_int_equal(qp, 513);
	assert_int_equal(it, 0xfedcba98);
	assert_int_equal(rwv_pat_identify(b, 7, &qp, &it), -1);
	b[0] = 0;
	assert_int_equal(rwv_pat_identify(b, sizeof(b), &qp, &it), -1);
}

static void test_atomic_sequence(void **state)
{
	(void)state;
	uint64_t a = rwv_atomic_initial(7);
	assert_int_equal(a, 0x5257000700000000ull);
	for (uint64_t i = 0; i < 3; i++)
		a = rwv_atomic_next(7, i, a);
	assert_int_equal(a, 0x4e3759cbc19a643cull); /* Python, README's definition */
}

static void test_fixed_pattern(void **state)
{
	(void)state;
	struct rwv_fixed_pat p;
	char why[96];
	uint8_t b[7], want;

	assert_int_equal(rwv_fixed_pat_parse("0xA5", &p, why, sizeof(why)), 0);
	assert_int_equal(p.len, 1);
	assert_int_equal(p.bytes[0], 0xa5);
	assert_int_equal(rwv_fixed_pat_parse("de:ad:be:ef", &p, why, sizeof(why)), 0);
	assert_int_equal(p.len, 4);
	rwv_fixed_pat_fill(b, sizeof(b), &p);
	static const uint8_t w[7] = {0xde, 0xad, 0xbe, 0xef, 0xde, 0xad, 0xbe};
	assert_memory_equal(b, w, 7);
	assert_int_equal(rwv_fixed_pat_check(b, 7, &p, NULL), 7);
	b[5] = 0;
	assert_int_equal(rwv_fixed_pat_check(b, 7, &p, &want), 5);
	assert_int_equal(want, 0xad);
	assert_int_equal(rwv_fixed_pat_parse("abc", &p, why, sizeof(why)), -1);
	assert_string_equal(why, "odd number of hex digits");
	assert_int_equal(rwv_fixed_pat_parse("zz", &p, why, sizeof(why)), -1);
	assert_int_equal(rwv_fixed_pat_parse("0x", &p, why, sizeof(why)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splitmix_reference),
		cmocka_unit_test(test_known_messages),
		cmocka_unit_test(test_prefix_and_check),
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_atomic_sequence),
		cmocka_unit_test(test_fixed_pattern),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
