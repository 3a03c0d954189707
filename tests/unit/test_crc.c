/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of rw_crc32(), rw_crc32_patch() and rw_vcrc16().
 *
 * CRC-32 is checked against sources that do not share its code: the standard
 * check value of CRC-32/ISO-HDLC ("123456789" -> 0xCBF43926) and zlib's
 * crc32(), on every length from 0 to 600 at random alignments and initial
 * values, for each implementation (forced through the internal hook). The
 * random numbers come from a fixed seed, so a failure repeats. */
#include "rocewire/crc.h"
#include "rocewire/wire.h"

#include "crc_internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#define BUF_MAX (1u << 17)

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static size_t rng_below(size_t n)
{
	return (size_t)(rng() % n);
}

static uint8_t *random_buffer(size_t len)
{
	uint8_t *buf = malloc(len);

	assert_non_null(buf);
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(rng() >> 56);
	return buf;
}

static uint32_t zlib_crc(uint32_t init, const uint8_t *p, size_t len)
{
	uLong c = init;

	/* zlib takes uInt lengths */
	while (len > 0) {
		uInt n = len > 0x40000000u ? 0x40000000u : (uInt)len;

		c = crc32(c, p, n);
		p += n;
		len -= n;
	}
	return (uint32_t)c;
}

static const char *const impl_names[] = { "slice8", "pclmulqdq", "vpclmulqdq" };

/* state: the implementation's name; the forced tests call it directly. */
static const struct rw__crc32_ops *ops;

static int force_impl(void **state)
{
	ops = rw__crc32_ops(*state);
	if (!ops) {
		print_message("CRC-32 implementation %s: not in this build or not on this CPU, skipped\n",
			      (const char *)*state);
		skip();
	}
	rng_state = 0x9e3779b97f4a7c15ull;
	return 0;
}

static int restore_impl(void **state)
{
	(void)state;
	ops = NULL;
	return 0;
}

static uint32_t t_crc32(uint32_t crc, const void *buf, size_t len)
{
	return ops->crc(crc, buf, len);
}

static uint32_t t_patch(uint32_t crc, const void *o, const void *n, size_t len, size_t tail)
{
	return rw__crc32_patch_ops(ops, crc, o, n, len, tail);
}

static void test_crc32_check_value(void **state)
{
	(void)state;
	force_impl(state);
	assert_int_equal(t_crc32(0, "123456789", 9), 0xcbf43926u);
	/* chained in two calls, and the empty buffer */
	assert_int_equal(t_crc32(t_crc32(0, "1234", 4), "56789", 5), 0xcbf43926u);
	assert_int_equal(t_crc32(0, "", 0), 0);
	assert_int_equal(t_crc32(0x12345678u, "", 0), 0x12345678u);
}

/* Every length 0..600 (every tail length and every dispatch path of the
 * SIMD code: under 16, under 64, partial first blocks of every size, the
 * 256-byte loop) at random offsets with random initial values, then longer
 * buffers around the loop boundaries. */
static void test_crc32_matches_zlib(void **state)
{
	static const size_t long_lens[] = {
		1000, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097,
		65536 + 13, BUF_MAX - 64,
	};
	force_impl(state); /* first: it may skip, and a skip leaves nothing to free */
	uint8_t *buf = random_buffer(BUF_MAX);

	for (size_t len = 0; len <= 600; len++) {
		for (int k = 0; k < 6; k++) {
			size_t off = rng_below(64);
			uint32_t init = k == 0 ? 0 : (uint32_t)rng();

			assert_int_equal(t_crc32(init, buf + off, len), zlib_crc(init, buf + off, len));
		}
	}
	for (size_t i = 0; i < sizeof(long_lens) / sizeof(long_lens[0]); i++) {
		for (size_t off = 0; off < 64; off += 7) {
			uint32_t init = (uint32_t)rng();

			assert_int_equal(t_crc32(init, buf + off, long_lens[i]),
					 zlib_crc(init, buf + off, long_lens[i]));
		}
	}
	/* a buffer ending exactly at the end of the allocation */
	assert_int_equal(t_crc32(7, buf + BUF_MAX - 77, 77), zlib_crc(7, buf + BUF_MAX - 77, 77));
	assert_int_equal(t_crc32(7, buf + BUF_MAX - 3, 3), zlib_crc(7, buf + BUF_MAX - 3, 3));
	free(buf);
}

/* A CRC continued over pieces equals the CRC of the whole. */
static void test_crc32_chaining(void **state)
{
	force_impl(state); /* first: it may skip, and a skip leaves nothing to free */
	uint8_t *buf = random_buffer(5000);

	for (int k = 0; k < 500; k++) {
		size_t len = rng_below(5000);
		size_t cut = len ? rng_below(len + 1) : 0;
		uint32_t c = t_crc32(0, buf, cut);

		c = t_crc32(c, buf + cut, len - cut);
		assert_int_equal(c, zlib_crc(0, buf, len));
	}
	free(buf);
}

/* cat(): a head of whole 16-byte blocks (16..96 bytes) in one buffer and a
 * rest of every length 0..300 in another, as the ICRC uses it (the rest's
 * 16 bytes before its end readable, the bytes before the rest not its
 * own), against zlib over the two concatenated. */
static void test_crc32_cat(void **state)
{
	force_impl(state); /* first: it may skip, and a skip leaves nothing to free */
	uint8_t *buf = random_buffer(1024);
	uint8_t head[96], both[96 + 300];

	for (size_t hlen = 16; hlen <= sizeof(head); hlen += 16) {
		for (size_t rlen = 0; rlen <= 300; rlen++) {
			const uint8_t *rest = buf + 16 + rng_below(64);

			for (size_t i = 0; i < hlen; i++)
				head[i] = (uint8_t)rng();
			memcpy(both, head, hlen);
			memcpy(both + hlen, rest, rlen);
			assert_int_equal(ops->cat(head, hlen, rest, rlen), zlib_crc(0, both, hlen + rlen));
		}
	}
	free(buf);
}

/* rw_crc32_patch() against recomputing the changed message: random
 * messages, random changed ranges, including ranges at the very end (tail 0),
 * at the start of long messages (large tails), and empty ones. */
static void test_crc32_patch(void **state)
{
	force_impl(state); /* first: it may skip, and a skip leaves nothing to free */
	uint8_t *msg = random_buffer(BUF_MAX);
	uint8_t *orig = malloc(BUF_MAX);

	assert_non_null(orig);
	for (int k = 0; k < 600; k++) {
		size_t n = k < 500 ? 1 + rng_below(3000) : BUF_MAX - rng_below(1000);
		size_t pos, len, tail;
		uint32_t before, after;

		switch (k % 4) {
		case 0: /* tail 0 */
			len = rng_below(n + 1);
			pos = n - len;
			break;
		case 1: /* large tail */
			pos = rng_below(n < 8 ? n + 1 : 8);
			len = rng_below(n - pos + 1) % 300;
			break;
		default:
			pos = rng_below(n + 1);
			len = rng_below(n - pos + 1) % 600;
			break;
		}
		tail = n - pos - len;
		before = t_crc32(0, msg, n);
		memcpy(orig, msg + pos, len);
		for (size_t i = 0; i < len; i++)
			msg[pos + i] = (uint8_t)rng();
		after = t_patch(before, orig, msg + pos, len, tail);
		assert_int_equal(after, zlib_crc(0, msg, n));
	}
	/* no change, and an empty range */
	assert_int_equal(t_patch(0xdeadbeefu, msg, msg, 100, 12345), 0xdeadbeefu);
	assert_int_equal(t_patch(0xdeadbeefu, NULL, NULL, 0, 99), 0xdeadbeefu);
	free(orig);
	free(msg);
}

/* zlib: a NULL buffer returns the initial value 0, whatever the length. */
static void test_crc32_null(void **state)
{
	(void)state;
	assert_int_equal(rw_crc32(0x1234u, NULL, 0), (uint32_t)crc32(0x1234u, Z_NULL, 0));
	assert_int_equal(rw_crc32(0x1234u, NULL, 10), 0);
}

static void test_crc32_impl_names(void **state)
{
	const char *name;
	const struct rw__crc32_ops *best = NULL;
	uint8_t buf[300];

	(void)state;
	assert_null(rw__crc32_ops("no-such-crc"));
	/* the portable one runs everywhere */
	assert_non_null(rw__crc32_ops("slice8"));
	/* rw_crc32() runs the best implementation this CPU has */
	for (size_t i = sizeof(impl_names) / sizeof(impl_names[0]); i-- > 0 && !best;)
		best = rw__crc32_ops(impl_names[i]);
	name = rw_crc32_impl();
	assert_string_equal(name, best->name);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7);
	assert_int_equal(rw_crc32(5, buf, sizeof(buf)), best->crc(5, buf, sizeof(buf)));
	assert_int_equal(rw_crc32(5, buf, sizeof(buf)), zlib_crc(5, buf, sizeof(buf)));
}

/* VCRC reference, written from the description rather than from crc16.c:
 * a 16-bit shift register holding coefficients x^15..x^0 (bit 15 = x^15),
 * seeded with all ones; message bits enter in transmission order, each byte
 * least significant bit first; on each bit the register shifts towards x^16
 * and, when the bit leaving x^15 differs from the incoming one, takes the
 * polynomial's low terms x^12 + x^3 + x + 1 = 0x100B. The inverted register
 * is then sent from x^15 down, continuing the least-significant-bit-first
 * packing: byte 0 holds x^15 (bit 0) to x^8 (bit 7), byte 1 holds x^7 to x^0.
 * Returns those two bytes read big-endian. This checks the table, the bit
 * reflection and the byte order of crc16.c against one another; it is not
 * independent of our reading of IBA 7.8.2 (no native InfiniBand packet with a
 * known VCRC was found to test against). */
static uint16_t vcrc_reference(const uint8_t *p, size_t len)
{
	unsigned reg = 0xffff;
	uint8_t wire[2] = { 0, 0 };

	for (size_t i = 0; i < len; i++) {
		for (int b = 0; b < 8; b++) {
			unsigned in = (p[i] >> b) & 1;
			unsigned out = (reg >> 15) & 1;

			reg = (reg << 1) & 0xffff;
			if (in ^ out)
				reg ^= 0x100b;
		}
	}
	reg ^= 0xffff;
	for (int k = 0; k < 16; k++) {
		unsigned coeff = (reg >> (15 - k)) & 1;

		wire[k / 8] |= (uint8_t)(coeff << (k % 8));
	}
	return rw_get_be16(wire);
}

static void test_vcrc16_reference(void **state)
{
	uint8_t *buf = random_buffer(4200);

	(void)state;
	rng_state = 0x0123456789abcdefull;
	for (unsigned b = 0; b < 256; b++) {
		uint8_t byte = (uint8_t)b;

		assert_int_equal(rw_vcrc16(&byte, 1), vcrc_reference(&byte, 1));
	}
	for (size_t len = 0; len <= 300; len++) {
		size_t off = rng_below(64);

		assert_int_equal(rw_vcrc16(buf + off, len), vcrc_reference(buf + off, len));
	}
	assert_int_equal(rw_vcrc16(buf, 4200), vcrc_reference(buf, 4200));
	/* Regression value from this implementation (not an independent
	 * known answer): register 0x0A3D, sent 3D 0A. */
	assert_int_equal(rw_vcrc16("123456789", 9), 0x3d0a);
	assert_int_equal(rw_vcrc16("", 0), 0x0000);
	free(buf);
}

/* With the VCRC written after the packet in the order rw_vcrc16() gives, the
 * VCRC of packet + VCRC is the same constant for every packet: the
 * receiver's check of a least-significant-bit-first CRC, which only holds
 * with the low register byte sent first. */
static void test_vcrc16_residue(void **state)
{
	uint8_t *buf = random_buffer(1100);
	uint16_t residue = 0;

	(void)state;
	for (int k = 0; k < 200; k++) {
		size_t len = 1 + rng_below(1000);
		uint16_t r;

		rw_put_be16(buf + len, rw_vcrc16(buf, len));
		r = rw_vcrc16(buf, len + 2);
		if (k == 0)
			residue = r;
		assert_int_equal(r, residue);
		buf[rng_below(len)] ^= (uint8_t)(1u << rng_below(8));
		/* a flipped bit is detected */
		assert_int_not_equal(rw_vcrc16(buf, len + 2), residue);
	}
	free(buf);
}

/* One test per implementation, named after both. */
#define ONE_IMPL(fn, impl) { #fn "(" impl ")", fn, NULL, restore_impl, (void *)impl }
#define PER_IMPL(fn) ONE_IMPL(fn, "slice8"), ONE_IMPL(fn, "pclmulqdq"), ONE_IMPL(fn, "vpclmulqdq")

int main(void)
{
	const struct CMUnitTest tests[] = {
		PER_IMPL(test_crc32_check_value),
		PER_IMPL(test_crc32_matches_zlib),
		PER_IMPL(test_crc32_chaining),
		PER_IMPL(test_crc32_patch),
		PER_IMPL(test_crc32_cat),
		cmocka_unit_test(test_crc32_null),
		cmocka_unit_test(test_crc32_impl_names),
		cmocka_unit_test(test_vcrc16_reference),
		cmocka_unit_test(test_vcrc16_residue),
	};

	return cmocka_run_group_tests_name("crc", tests, NULL, NULL);
}
