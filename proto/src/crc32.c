/* SPDX-License-Identifier: BSD-3-Clause */
/* CRC-32 of IEEE 802.3 with zlib's conventions: the CRC of the IBA ICRC.
 *
 * Three implementations give identical results; the fastest one the CPU can
 * run is chosen once, when the library is loaded (see crc32_get):
 *
 *   "vpclmulqdq"  AVX-512 carry-less multiplies on 64-byte blocks, the
 *                 partial block first, 4 x 512-bit accumulators (256 bytes
 *                 per step) for long buffers; the "pclmulqdq" code for
 *                 buffers under 64 bytes;
 *   "pclmulqdq"   the folding method of Gopal et al., "Fast CRC Computation
 *                 for Generic Polynomials Using PCLMULQDQ Instruction"
 *                 (Intel, 2009): 4 x 128-bit accumulators, then 128-bit
 *                 folds, the partial last block by byte shuffles, and a
 *                 Barrett reduction to 32 bits;
 *   "slice8"      eight 256-entry tables, 8 bytes per step (also used by the
 *                 two above for buffers under 16 bytes).
 *
 * The SIMD code is compiled with target attributes, so the rest of the
 * project is built for the baseline ISA.
 *
 * The math. CRC-32 is reflected: byte 0 of the message holds the highest
 * powers of x, and in each byte bit 0 is the highest. A 128-bit little-endian
 * load of 16 message bytes therefore holds a polynomial of degree < 128 with
 * bit i standing for x^(127-i); call this the "top-127" layout. Likewise a
 * 64-bit value with bit i standing for x^(63-i) is "top-63". With P the
 * CRC-32 polynomial 0x104C11DB7, the register value of a message M (zlib's
 * value before the final inversion) is (S * x^(8n) + M * x^32) mod P, S being
 * the initial register and n the length; XORing S into the first 4 message
 * bytes turns that into M' * x^32 mod P.
 *
 * Carry-less multiplication of two top-63 operands A and B gives A*B*x in
 * top-127 layout (the product has degree 126 at most, so it lands one bit
 * short of the top). Folding: a 128-bit accumulator X = H*x^64 + L (H the low
 * qword, the earlier bytes) that is followed by D more bits of message
 * contributes X * x^D = H * x^(D+64) + L * x^D, which is congruent mod P to
 * clmul(H, k(D+64)) ^ clmul(L, k(D)) with k(E) a top-63 operand congruent to
 * x^(E-1). We use k(E) = bitrev32(x^(E-33) mod P) (32 bits, which as a top-63
 * operand means (x^(E-33) mod P) * x^32). The folded value has degree < 128
 * and is XORed into the 128-bit block D bits further on. The constants below
 * were computed with that formula (the unit tests check every path against
 * zlib). */
#include "rocewire/crc.h"

#include "crc_internal.h"

#include <stdbool.h>
#include <string.h>

#define CRC32_POLY_REFLECTED 0xEDB88320u

/* struct rw__crc32_ops (crc_internal.h) describes one implementation. */

/* The tables are constants (scripts/gen-crc32-tables.py), and the
 * implementation is resolved once by the dynamic loader (below): this file
 * keeps no state of its own. */
#include "crc32_tables.h"

static uint32_t mulmod_portable(uint32_t a, uint32_t b)
{
	uint32_t p = 0;

	/* Bit 31 of a is x^0. Walk a from x^0 upwards, multiplying b by x each
	 * step; multiplying by x shifts right, and x^32 reduces to the
	 * polynomial's low terms. */
	while (a != 0) {
		if (a & 0x80000000u)
			p ^= b;
		a <<= 1;
		b = (b >> 1) ^ (CRC32_POLY_REFLECTED & (0u - (b & 1)));
	}
	return p;
}

static inline uint64_t load_le64(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

/* Not inlined into the SIMD functions, where it is the short-buffer path and
 * would cost their fast paths a stack frame. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint32_t crc32_slice8(uint32_t crc, const uint8_t *p, size_t len)
{
	crc = ~crc;
	while (len >= 8) {
		uint64_t w = load_le64(p) ^ crc;

		crc = slice_table[7][w & 0xff] ^ slice_table[6][(w >> 8) & 0xff] ^
		      slice_table[5][(w >> 16) & 0xff] ^ slice_table[4][(w >> 24) & 0xff] ^
		      slice_table[3][(w >> 32) & 0xff] ^ slice_table[2][(w >> 40) & 0xff] ^
		      slice_table[1][(w >> 48) & 0xff] ^ slice_table[0][w >> 56];
		p += 8;
		len -= 8;
	}
	while (len-- > 0)
		crc = (crc >> 8) ^ slice_table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/* rw__crc32_cat(): two passes. */
static uint32_t crc32_cat_slice8(const uint8_t *head, size_t hlen, const uint8_t *rest, size_t rlen)
{
	return crc32_slice8(crc32_slice8(0, head, hlen), rest, rlen);
}

static bool cpu_any(void)
{
	return true;
}

static const struct rw__crc32_ops impl_slice8 = {
	.name = "slice8",
	.supported = cpu_any,
	.crc = crc32_slice8,
	.mulmod = mulmod_portable,
	.cat = crc32_cat_slice8,
};

/* ---------------------------------------------------------------------------
 * x86: PCLMULQDQ and VPCLMULQDQ. */

#if defined(__x86_64__) && defined(__GNUC__)
#define RW_CRC32_X86 1

#include <immintrin.h>

#define TARGET_CLMUL __attribute__((target("pclmul,sse4.1")))
#define TARGET_VCLMUL \
	__attribute__((target("pclmul,sse4.1,avx2,avx512f,avx512vl,avx512bw,avx512vbmi,vpclmulqdq")))
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Fold constants: K<D>_LO multiplies the low qword (the earlier 8 bytes) of a
 * 128-bit lane by x^(D+64), K<D>_HI the high qword by x^D; see the top. */
#define K128_LO 0xae689191u
#define K128_HI 0xccaa009eu
#define K256_LO 0xf1da05aau
#define K256_HI 0x81256527u
#define K384_LO 0x3db1ecdcu
#define K384_HI 0xaf449247u
#define K512_LO 0x8f352d95u
#define K512_HI 0x1d9513d7u
#define K1024_LO 0x33fff533u
#define K1024_HI 0x910eeec1u
#define K1536_LO 0x596c8d81u
#define K1536_HI 0xf5e48c85u
#define K2048_LO 0xce3371cbu
#define K2048_HI 0xe95c1271u
/* The last fold, which must leave a value of degree < 96, uses exact
 * representatives (degree < 32) of x^E mod P in top-63 layout: lane k bits
 * from the end (k = 384, 256, 128, 0) is multiplied by x^(k + 32), i.e. its
 * low qword by x^(k + 96) and its high qword by x^(k + 32), and clmul adds
 * one x, so E = k + 95 and k + 31. */
#define X31 0x0000000100000000u
#define X95 0xccaa009e00000000u
#define X159 0xae68919100000000u
#define X223 0x8125652700000000u
#define X287 0xf1da05aa00000000u
#define X351 0xaf44924700000000u
#define X415 0x3db1ecdc00000000u
#define X479 0x1d9513d700000000u
/* Barrett reduction of a degree < 96 value Y = Yt*x^32 + Y0: the quotient is
 * q = floor(Yt * floor(x^96 / P) / x^64) (exact for degree < 96), and
 * floor(x^96 / P) = x^64 + M, so q = Yt + floor(Yt * M / x^64). The remainder
 * is Y0 + the low 32 bits of q * (P - x^32). Both M and P - x^32 in top-63
 * layout. */
#define BARRETT_M 0x5a72d812fb808b20u
#define BARRETT_P0 0xedb8832000000000u

/* Barrett reduction of a degree < 64 value (for mulmod): floor(x^64 / P)
 * and P, each times x^31 in top-63 layout, i.e. bit-reversed over 33 bits. */
#define BARRETT64_MU 0x1f7011641u
#define BARRETT64_P 0x1db710641u

/* Byte-shuffle masks for the partial last block: 16 bytes loaded at
 * shift_tab + r shift a vector up by 16 - r bytes (zeros below), at
 * shift_tab + 16 + r down by r bytes (zeros above). */
static const uint8_t shift_tab[48] = {
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};

static TARGET_CLMUL ALWAYS_INLINE __m128i load128(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

static TARGET_CLMUL ALWAYS_INLINE __m128i fold128(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

/* Y mod P as a CRC register value, for Y of degree < 96 in top-127 layout
 * (bits 0..31 zero). Yt is bits 32..95 of Y, i.e. Y moved down 4 bytes in
 * top-63 layout; Yt * M * x puts floor(Yt * M / x^64) at bits 0..62, one
 * short of top-63, hence the shift. q * (P - x^32) * x has its low 32
 * coefficients at bits 95..126; shifted up one bit they meet Y0 at
 * 96..127, the remainder's place. */
static TARGET_CLMUL ALWAYS_INLINE uint32_t barrett96(__m128i y)
{
	const __m128i k = _mm_set_epi64x((long long)BARRETT_P0, (long long)BARRETT_M);
	__m128i yt = _mm_srli_si128(y, 4);
	__m128i q = _mm_xor_si128(yt, _mm_slli_epi64(_mm_clmulepi64_si128(yt, k, 0x00), 1));
	__m128i r = _mm_slli_epi64(_mm_clmulepi64_si128(q, k, 0x10), 1);

	return (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(_mm_xor_si128(y, r), 3));
}

/* The CRC register value of a message whose folded state is x: x * x^32 mod
 * P, with x * x^32 = H * x^96 + L * x^32 brought below degree 96 first:
 * H times (x^95 mod P) by clmul, L moved down 4 bytes. */
static TARGET_CLMUL ALWAYS_INLINE uint32_t reduce128(__m128i x)
{
	const __m128i k = _mm_set_epi64x(0, (long long)X95);

	return barrett96(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
				       _mm_slli_si128(_mm_srli_si128(x, 8), 4)));
}

/* Folds the 16-byte blocks left in p[0..len) into x, then the last partial
 * block, and reduces. Needs 16 message bytes before p (already in x) when
 * len % 16 != 0: the partial block is read as the last 16 message bytes. */
static TARGET_CLMUL ALWAYS_INLINE uint32_t clmul_finish(__m128i x, const uint8_t *p, size_t len)
{
	const __m128i k128 = _mm_set_epi64x(K128_HI, K128_LO);

	while (len >= 16) {
		x = _mm_xor_si128(fold128(x, k128), load128(p));
		p += 16;
		len -= 16;
	}
	if (len > 0) {
		/* x * x^(8r) + last r bytes: the r high-degree bytes of x
		 * overflow the lane and are folded by 128 bits; the rest moves
		 * down r bytes and the r new bytes fill the top. */
		__m128i up = load128(shift_tab + len);
		__m128i down = load128(shift_tab + 16 + len);
		__m128i over = _mm_shuffle_epi8(x, up);
		__m128i rest = _mm_blendv_epi8(load128(p + len - 16), _mm_shuffle_epi8(x, down), up);

		x = _mm_xor_si128(fold128(over, k128), rest);
	}
	return reduce128(x);
}

static TARGET_CLMUL ALWAYS_INLINE uint32_t crc32_pclmul_body(uint32_t crc, const uint8_t *p,
							     size_t len)
{
	__m128i x0;

	if (len < 16)
		return crc32_slice8(crc, p, len);
	x0 = _mm_xor_si128(load128(p), _mm_cvtsi32_si128((int)~crc));
	if (len >= 64) {
		const __m128i k512 = _mm_set_epi64x(K512_HI, K512_LO);
		__m128i x1 = load128(p + 16), x2 = load128(p + 32), x3 = load128(p + 48);

		p += 64;
		len -= 64;
		while (len >= 64) {
			x0 = _mm_xor_si128(fold128(x0, k512), load128(p));
			x1 = _mm_xor_si128(fold128(x1, k512), load128(p + 16));
			x2 = _mm_xor_si128(fold128(x2, k512), load128(p + 32));
			x3 = _mm_xor_si128(fold128(x3, k512), load128(p + 48));
			p += 64;
			len -= 64;
		}
		/* Four lanes to one, in parallel: x0 is 384 bits from the end. */
		x0 = _mm_xor_si128(
			_mm_xor_si128(fold128(x0, _mm_set_epi64x(K384_HI, K384_LO)),
				      fold128(x1, _mm_set_epi64x(K256_HI, K256_LO))),
			_mm_xor_si128(fold128(x2, _mm_set_epi64x(K128_HI, K128_LO)), x3));
	} else {
		p += 16;
		len -= 16;
	}
	return ~clmul_finish(x0, p, len);
}

static TARGET_CLMUL uint32_t crc32_pclmul(uint32_t crc, const uint8_t *p, size_t len)
{
	return crc32_pclmul_body(crc, p, len);
}

/* rw__crc32_cat(): one fold chain over both parts, one reduction. The head
 * is whole 16-byte blocks; a short rest (under 16 bytes, where crc32_pclmul
 * would take the byte-wise tables) is the partial last block of
 * clmul_finish, read as the 16 bytes that end it: the bytes before rest must
 * be readable, but only the rest's own are used. */
static TARGET_CLMUL uint32_t crc32_cat_pclmul(const uint8_t *head, size_t hlen, const uint8_t *rest,
					      size_t rlen)
{
	const __m128i k128 = _mm_set_epi64x(K128_HI, K128_LO);
	__m128i x = _mm_xor_si128(load128(head), _mm_cvtsi32_si128(-1));

	for (size_t i = 16; i < hlen; i += 16)
		x = _mm_xor_si128(fold128(x, k128), load128(head + i));
	return ~clmul_finish(x, rest, rlen);
}

/* a * b mod P. The operands in the low halves stand for a*x^32 and b*x^32,
 * so the product a*b*x^65 has degree e at bit 62 - e: one bit short of
 * top-63 in the low qword. Then Barrett for degree < 64:
 * q = floor(floor(W / x^32) * mu / x^32) lands in bits 0..31 of the first
 * product (the low half of W only reaches bit 32 and up), and W + q*P has the
 * remainder in bits 32..63. */
static TARGET_CLMUL uint32_t mulmod_pclmul(uint32_t a, uint32_t b)
{
	const __m128i k = _mm_set_epi64x((long long)BARRETT64_P, (long long)BARRETT64_MU);
	__m128i w = _mm_slli_epi64(_mm_clmulepi64_si128(_mm_cvtsi32_si128((int)a),
							_mm_cvtsi32_si128((int)b), 0x00), 1);
	__m128i q = _mm_and_si128(_mm_clmulepi64_si128(w, k, 0x00), _mm_set_epi32(0, 0, 0, -1));

	return (uint32_t)_mm_extract_epi32(_mm_xor_si128(w, _mm_clmulepi64_si128(q, k, 0x10)), 1);
}

/* vpermt2b indices, index 64 and up selecting from a zero vector: 64 bytes
 * at head_idx + h move the first h bytes of a vector to its top, zeros below;
 * at head_idx + 64 + h they move a vector down h bytes, zeros above. */
static const uint8_t head_idx[192] = {
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
};

static TARGET_VCLMUL ALWAYS_INLINE __m512i load512(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}

static TARGET_VCLMUL ALWAYS_INLINE __m512i fold512(__m512i z, __m512i k, __m512i next)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z, k, 0x00),
					 _mm512_clmulepi64_epi128(z, k, 0x11), next, 0x96);
}

static TARGET_VCLMUL ALWAYS_INLINE __m512i broadcast_k(uint32_t lo, uint32_t hi)
{
	return _mm512_broadcast_i32x4(_mm_set_epi64x(hi, lo));
}

/* x * x^32 mod P for a 512-bit accumulator: each lane goes below degree 96
 * with exact constants (lane i is 384 - 128 i bits from the end), the lanes
 * are XORed, then Barrett. */
static TARGET_VCLMUL ALWAYS_INLINE uint32_t reduce512(__m512i z)
{
	const __m512i k = _mm512_set_epi64((long long)X31, (long long)X95, (long long)X159,
					   (long long)X223, (long long)X287, (long long)X351,
					   (long long)X415, (long long)X479);
	__m512i t = _mm512_xor_si512(_mm512_clmulepi64_epi128(z, k, 0x00),
				     _mm512_clmulepi64_epi128(z, k, 0x11));
	__m256i y = _mm256_xor_si256(_mm512_castsi512_si256(t), _mm512_extracti64x4_epi64(t, 1));

	return barrett96(_mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1)));
}

/* The 128-bit code in VEX encoding, out of line. */
static TARGET_VCLMUL __attribute__((noinline)) uint32_t crc32_pclmul_vex(uint32_t crc,
									 const uint8_t *p,
									 size_t len)
{
	return crc32_pclmul_body(crc, p, len);
}

/* Under 64 bytes, the 128-bit code. From 64 bytes on, 64-byte blocks
 * throughout, the partial one first: its h bytes are moved to the top of a
 * vector, zeros below (zeros before a message do not change its CRC once
 * the initial value is XORed into the message's first 4 bytes). When h < 4
 * those 4 bytes reach into the next block. */
static TARGET_VCLMUL uint32_t crc32_vpclmul(uint32_t crc, const uint8_t *p, size_t len)
{
	__m512i k512, s, z;
	size_t h = len % 64;

	if (len < 64)
		return crc32_pclmul_vex(crc, p, len);
	k512 = broadcast_k(K512_LO, K512_HI);
	s = _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)~crc));
	if (h != 0) {
		__m512i next;

		z = _mm512_permutex2var_epi8(_mm512_xor_si512(load512(p), s),
					     load512(head_idx + h), _mm512_setzero_si512());
		p += h;
		len -= h;
		next = load512(p);
		if (h < 4) {
			/* s moved down h bytes */
			next = _mm512_xor_si512(next, _mm512_permutex2var_epi8(
							      s, load512(head_idx + 64 + h),
							      _mm512_setzero_si512()));
		}
		z = fold512(z, k512, next);
	} else {
		z = _mm512_xor_si512(load512(p), s);
	}
	p += 64;
	len -= 64;

	if (len >= 256) {
		const __m512i k2048 = broadcast_k(K2048_LO, K2048_HI);
		__m512i z0 = fold512(z, k512, load512(p));
		__m512i z1 = load512(p + 64), z2 = load512(p + 128), z3 = load512(p + 192);

		p += 256;
		len -= 256;
		while (len >= 256) {
			z0 = fold512(z0, k2048, load512(p));
			z1 = fold512(z1, k2048, load512(p + 64));
			z2 = fold512(z2, k2048, load512(p + 128));
			z3 = fold512(z3, k2048, load512(p + 192));
			p += 256;
			len -= 256;
		}
		/* Four accumulators to one, in parallel. */
		z = _mm512_ternarylogic_epi64(
			fold512(z0, broadcast_k(K1536_LO, K1536_HI), z3),
			fold512(z1, broadcast_k(K1024_LO, K1024_HI), _mm512_setzero_si512()),
			fold512(z2, k512, _mm512_setzero_si512()), 0x96);
	}
	while (len > 0) {
		z = fold512(z, k512, load512(p));
		p += 64;
		len -= 64;
	}
	return ~reduce512(z);
}

static bool cpu_pclmul(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}

static bool cpu_vpclmul(void)
{
	__builtin_cpu_init();
	return cpu_pclmul() && __builtin_cpu_supports("avx2") &&
	       __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi") &&
	       __builtin_cpu_supports("vpclmulqdq");
}

static const struct rw__crc32_ops impl_vpclmul = {
	.name = "vpclmulqdq",
	.supported = cpu_vpclmul,
	.crc = crc32_vpclmul,
	.mulmod = mulmod_pclmul,
	.cat = crc32_cat_pclmul,
};

static const struct rw__crc32_ops impl_pclmul = {
	.name = "pclmulqdq",
	.supported = cpu_pclmul,
	.crc = crc32_pclmul,
	.mulmod = mulmod_pclmul,
	.cat = crc32_cat_pclmul,
};
#endif /* x86 */

/* Best first. */
static const struct rw__crc32_ops *const crc32_impls[] = {
#ifdef RW_CRC32_X86
	&impl_vpclmul,
	&impl_pclmul,
#endif
	&impl_slice8,
};

static const struct rw__crc32_ops *crc32_best(void)
{
	for (size_t i = 0; i < sizeof(crc32_impls) / sizeof(crc32_impls[0]); i++) {
		if (crc32_impls[i]->supported())
			return crc32_impls[i];
	}
	return &impl_slice8;
}

/* The implementation is chosen once, by a GNU indirect function: the
 * dynamic loader (or, in a static program, the start-up code) calls the
 * resolver before main and binds rw_crc32 (below) to the chosen one. Sanitizer and
 * non-GNU builds ask the CPU on each call instead: a resolver runs before
 * the sanitizers' run-time is ready. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) ||                         \
	__has_feature(thread_sanitizer)
#define RW_CRC32_NO_IFUNC 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__ELF__) ||          \
	!defined(__GNUC__)
#define RW_CRC32_NO_IFUNC 1
#endif

/* rw_crc32_patch() and rw_crc32_impl() are not hot: they ask the CPU each
 * time (a few loads once libgcc has read CPUID). */
static const struct rw__crc32_ops *crc32_get(void)
{
	return crc32_best();
}

/* rw_crc32() itself is resolved the same way, so a short buffer pays no
 * more than one direct call. zlib: a NULL buffer asks for the initial value. */
#define CRC32_ENTRY(name, fn)                                                                       \
	static uint32_t name(uint32_t crc, const void *buf, size_t len)                             \
	{                                                                                           \
		return buf ? fn(crc, buf, len) : 0;                                                 \
	}

#ifdef RW_CRC32_NO_IFUNC
uint32_t rw_crc32(uint32_t crc, const void *buf, size_t len)
{
	return buf ? crc32_get()->crc(crc, buf, len) : 0;
}
#else
CRC32_ENTRY(entry_slice8, crc32_slice8)
#ifdef RW_CRC32_X86
CRC32_ENTRY(entry_pclmul, crc32_pclmul)
CRC32_ENTRY(entry_vpclmul, crc32_vpclmul)
#endif

typedef uint32_t (*rw_crc32_fn)(uint32_t crc, const void *buf, size_t len);

/* used: clang does not count the ifunc attribute as a use */
static __attribute__((used)) rw_crc32_fn resolve_rw_crc32(void)
{
	const struct rw__crc32_ops *best = crc32_best();
#ifdef RW_CRC32_X86
	if (best == &impl_vpclmul)
		return entry_vpclmul;
	if (best == &impl_pclmul)
		return entry_pclmul;
#endif
	(void)best;
	return entry_slice8;
}

uint32_t rw_crc32(uint32_t crc, const void *buf, size_t len) __attribute__((ifunc("resolve_rw_crc32")));
#endif

/* rw__crc32_cat() is bound like rw_crc32(). */
#ifdef RW_CRC32_NO_IFUNC
uint32_t rw__crc32_cat(const uint8_t *head, size_t hlen, const uint8_t *rest, size_t rlen)
{
	return crc32_get()->cat(head, hlen, rest, rlen);
}
#else
typedef uint32_t (*rw_crc32_cat_fn)(const uint8_t *head, size_t hlen, const uint8_t *rest,
				    size_t rlen);

static __attribute__((used)) rw_crc32_cat_fn resolve_rw_crc32_cat(void)
{
	return crc32_best()->cat;
}

uint32_t rw__crc32_cat(const uint8_t *head, size_t hlen, const uint8_t *rest, size_t rlen)
	__attribute__((ifunc("resolve_rw_crc32_cat")));
#endif

/* The zero-initialised, non-inverted CRC of old XOR new: what a change of
 * those bytes adds to a CRC, before the shift over the bytes after them. */
static uint32_t diff_crc(const struct rw__crc32_ops *impl, const uint8_t *o, const uint8_t *n,
			 size_t len)
{
	uint8_t diff[256];
	uint32_t z = 0xffffffffu; /* zlib form of a zero register */

	while (len > 0) {
		size_t m = len < sizeof(diff) ? len : sizeof(diff);

		for (size_t i = 0; i < m; i++)
			diff[i] = o[i] ^ n[i];
		z = impl->crc(z, diff, m);
		o += m;
		n += m;
		len -= m;
	}
	return ~z;
}

static uint32_t patch_with(const struct rw__crc32_ops *impl, uint32_t crc, const void *old_bytes,
			   const void *new_bytes, size_t len, size_t tail)
{
	uint32_t delta = diff_crc(impl, old_bytes, new_bytes, len);

	/* times x^(8 tail), one multiply per set bit of tail */
	for (size_t k = 0; tail != 0 && delta != 0; tail >>= 1, k++) {
		if (tail & 1)
			delta = impl->mulmod(delta, byte_pow[k]);
	}
	return crc ^ delta;
}

uint32_t rw_crc32_shift(size_t tail)
{
	const struct rw__crc32_ops *impl = crc32_get();
	uint32_t k = 0x80000000u; /* x^0: bit 31 is the lowest power */

	for (size_t i = 0; tail != 0; tail >>= 1, i++) {
		if (tail & 1)
			k = impl->mulmod(k, byte_pow[i]);
	}
	return k;
}

uint32_t rw_crc32_patch_shift(uint32_t crc, const void *old_bytes, const void *new_bytes,
			      size_t len, uint32_t shift)
{
	const struct rw__crc32_ops *impl = crc32_get();

	return crc ^ impl->mulmod(diff_crc(impl, old_bytes, new_bytes, len), shift);
}

uint32_t rw_crc32_shift_delta(uint32_t delta, uint32_t shift)
{
	return crc32_get()->mulmod(delta, shift);
}

uint32_t rw_crc32_patch(uint32_t crc, const void *old_bytes, const void *new_bytes, size_t len,
			size_t tail)
{
	return patch_with(crc32_get(), crc, old_bytes, new_bytes, len, tail);
}

const char *rw_crc32_impl(void)
{
	return crc32_get()->name;
}

const struct rw__crc32_ops *rw__crc32_ops(const char *name)
{
	for (size_t i = 0; i < sizeof(crc32_impls) / sizeof(crc32_impls[0]); i++) {
		if (strcmp(crc32_impls[i]->name, name) == 0 && crc32_impls[i]->supported())
			return crc32_impls[i];
	}
	return NULL;
}

uint32_t rw__crc32_patch_ops(const struct rw__crc32_ops *ops, uint32_t crc, const void *old_bytes,
			     const void *new_bytes, size_t len, size_t tail)
{
	return patch_with(ops, crc, old_bytes, new_bytes, len, tail);
}
