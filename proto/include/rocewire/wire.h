/* SPDX-License-Identifier: BSD-3-Clause */
/* Big-endian field access on byte pointers.
 *
 * Wire headers are read and written through these accessors only: no packed
 * structs and no bitfields, because 24-bit fields, compiler-defined bitfield
 * order and unaligned mbuf data all break the struct approach (see STYLE.md). */
#ifndef ROCEWIRE_WIRE_H
#define ROCEWIRE_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>

#ifdef __cplusplus
extern "C" {
#endif
#endif

static inline uint16_t rw_get_be16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t rw_get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t rw_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t rw_get_be64(const uint8_t *p)
{
	return (uint64_t)rw_get_be32(p) << 32 | rw_get_be32(p + 4);
}

static inline uint32_t rw_get_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline void rw_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void rw_put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void rw_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void rw_put_be64(uint8_t *p, uint64_t v)
{
	rw_put_be32(p, (uint32_t)(v >> 32));
	rw_put_be32(p + 4, (uint32_t)v);
}

static inline void rw_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Zeroes n bytes, n at least 16, with 16-byte stores (the last one
 * overlapping): GCC makes a memset of a few hundred bytes into `rep stos`,
 * whose start-up costs more than the stores (a tenth of a 64-byte frame's
 * live capture went to the memset of struct rw_packet). The empty asm keeps
 * the compiler from turning the loop back into one. */
static inline void rw_zero(void *p, size_t n)
{
#if defined(__SSE2__)
	uint8_t *b = (uint8_t *)p;
	const __m128i z = _mm_setzero_si128();
	size_t i;
	for (i = 0; i + 16 <= n; i += 16) {
		_mm_storeu_si128((__m128i *)(void *)(b + i), z);
		__asm__("" : : "r"(b + i) : "memory");
	}
	if (i < n)
		_mm_storeu_si128((__m128i *)(void *)(b + n - 16), z);
#else
	memset(p, 0, n);
#endif
}

#ifdef __cplusplus
}
#endif

#endif
