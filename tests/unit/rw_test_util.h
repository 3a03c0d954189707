/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the cmocka unit tests of librocewire.
 *
 * Nothing here knows a wire offset that proto/ also knows: the hex strings
 * and the reference ICRC below are written from the specifications, so that
 * the tests check proto/ against a second, independent reading. */
#ifndef RW_TEST_UTIL_H
#define RW_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rocewire.h"

#define RW_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Parses hex digits into out, ignoring spaces, newlines, ':' and '.'; fails
 * the test on an odd digit count, a bad character or overflow. */
static inline size_t rw_hex(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;
	for (const char *p = hex; *p; p++) {
		int v = 0;
		if (*p == ' ' || *p == '\n' || *p == '\t' || *p == ':' || *p == '.')
			continue;
		if (*p >= '0' && *p <= '9')
			v = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			v = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			v = *p - 'A' + 10;
		else
			fail_msg("bad hex character '%c' in test vector", *p);
		if (hi < 0) {
			hi = v;
		} else {
			if (n >= cap)
				fail_msg("hex test vector longer than %zu bytes", cap);
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	if (hi >= 0)
		fail_msg("odd number of hex digits in test vector");
	return n;
}

/* xorshift64*: deterministic pseudo-random values for round trips. */
static inline uint64_t rw_rand64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* A random value of `bits` bits (1..64). */
static inline uint64_t rw_randbits(uint64_t *s, unsigned bits)
{
	uint64_t v = rw_rand64(s);
	return bits >= 64 ? v : v & ((1ULL << bits) - 1);
}

static inline void rw_randbytes(uint64_t *s, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rw_rand64(s);
}

/* RFC 1071 Internet checksum, the plain way: one's complement of the
 * one's-complement sum of 16-bit big-endian words. */
static inline uint16_t rw_ref_inet_cksum(const uint8_t *p, size_t n)
{
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Number of 0..3 pad bytes that bring n to a multiple of 4 (IBA 9.2: PadCnt). */
static inline unsigned rw_ref_pad(size_t n)
{
	return (unsigned)((4 - (n & 3)) & 3);
}

#ifdef RW_TEST_WANT_ZLIB
#include <zlib.h>

/* Reference ICRC, written straight from the spec and independent of
 * proto/src/icrc.c: build the masked pseudo-packet byte by byte in a
 * scratch buffer, then run zlib's crc32 (initial value all ones, result
 * inverted: exactly IBA 7.8.1's CRC-32) over it.
 *
 * IBA 7.8.1: a local packet's ICRC covers the LRH with VL replaced by ones;
 * a global packet's (GRH present) covers no LRH field, since a router
 * rewrites the LRH: all 64 bits are ones (T. Shanley, "InfiniBand Network
 * Architecture", ch. 25, included/excluded fields for a global packet). It
 * covers the GRH with TClass, Flow Label and HopLmt replaced by ones, the
 * BTH with its byte 4
 * (Resv8a, or FECN/BECN/resv6 since IBA 1.2.1/A17) replaced by ones, the
 * extension headers, the payload and the pad.
 * IBA A16 (RoCEv1): no LRH on the wire; 64 bits of ones stand in for it.
 * IBA A17.3.3 (RoCEv2): 64 bits of ones for the LRH; the IP header with
 * IPv4 TOS (DSCP+ECN), TTL, header checksum, or IPv6 traffic class, flow
 * label, hop limit as ones; the UDP header with its checksum as ones. */
#define RW_REF_MAXPKT 16384

static inline uint32_t rw_ref_crc(const uint8_t *pseudo, size_t n)
{
	return (uint32_t)crc32(0L, pseudo, (uInt)n);
}

/* ip: first byte of the IPv4/IPv6 header; len: through the last pad byte. */
static inline uint32_t rw_ref_icrc_rocev2(const uint8_t *ip, size_t len)
{
	static uint8_t b[RW_REF_MAXPKT];
	assert_true(len + 8 <= sizeof(b));
	memset(b, 0xFF, 8);
	memcpy(b + 8, ip, len);
	uint8_t *h = b + 8;
	size_t iphl;
	if ((h[0] >> 4) == 4) {
		iphl = (size_t)(h[0] & 0x0F) * 4;
		h[1] = 0xFF;  /* TOS: DSCP + ECN */
		h[8] = 0xFF;  /* TTL */
		h[10] = 0xFF; /* header checksum */
		h[11] = 0xFF;
	} else {
		iphl = 40;
		h[0] |= 0x0F; /* traffic class, high nibble */
		h[1] = 0xFF;  /* traffic class low nibble + flow label */
		h[2] = 0xFF;
		h[3] = 0xFF;
		h[7] = 0xFF;  /* hop limit */
	}
	h[iphl + 6] = 0xFF; /* UDP checksum */
	h[iphl + 7] = 0xFF;
	h[iphl + 8 + 4] = 0xFF; /* BTH byte 4 */
	return rw_ref_crc(b, len + 8);
}

/* grh: first byte of the GRH of a RoCEv1 frame; len: through the last pad byte. */
static inline uint32_t rw_ref_icrc_rocev1(const uint8_t *grh, size_t len)
{
	static uint8_t b[RW_REF_MAXPKT];
	assert_true(len + 8 <= sizeof(b));
	memset(b, 0xFF, 8);
	memcpy(b + 8, grh, len);
	uint8_t *g = b + 8;
	g[0] |= 0x0F;
	g[1] = g[2] = g[3] = 0xFF;
	g[7] = 0xFF;
	g[40 + 4] = 0xFF;
	return rw_ref_crc(b, len + 8);
}

/* lrh: first byte of a native IB packet; len: through the last pad byte. */
static inline uint32_t rw_ref_icrc_ib(const uint8_t *lrh, size_t len)
{
	static uint8_t b[RW_REF_MAXPKT];
	assert_true(len <= sizeof(b));
	memcpy(b, lrh, len);
	b[0] |= 0xF0; /* VL */
	size_t bth = 8;
	if ((b[1] & 3) == 3) { /* LNH: GRH follows: a global packet */
		memset(b, 0xFF, 8);
		b[8] |= 0x0F;
		b[9] = b[10] = b[11] = 0xFF;
		b[15] = 0xFF;
		bth = 48;
	}
	b[bth + 4] = 0xFF;
	return rw_ref_crc(b, len);
}
#endif /* RW_TEST_WANT_ZLIB */

#endif
