/* SPDX-License-Identifier: BSD-3-Clause */
/* Invariant CRC (IBA 7.8.1; RoCEv1 Annex A16; RoCEv2 Annex A17.3.3).
 *
 * The ICRC is a CRC-32 over the packet with the fields that may change in
 * flight ("variant" fields) replaced by ones. Only the headers need masking,
 * so they are copied into a small stack buffer, masked, and the CRC then
 * continues over the rest of the packet in place (no copy of the payload).
 *
 * Speed (bench/bench_live.sh, perf): what costs is not the CRC itself but
 * reading the masked copy right after writing it. The CRC loads 16 or 64
 * bytes at a time; a load that spans the bytes of several smaller stores
 * (memcpy's, or a one-byte mask) cannot take them from the store buffer and
 * waits until they reach the cache: 15-20 ns of a 25-ns ICRC of a 64-byte
 * frame. So:
 *  - RoCEv2 over IPv4 without options (what RoCE NICs send) is masked in
 *    registers: the 64 bits of ones and the 40 header bytes are exactly
 *    three 16-byte blocks, each stored whole and read back whole by the
 *    CRC's 16-byte loads (12 ns for the whole ICRC of a 64-byte frame);
 *  - other layouts copy a short rest (up to ICRC_INLINE bytes) along with
 *    the headers: one CRC pass, and one wait, instead of two. */
#include <string.h>

#include "rocewire/bth.h"
#include "rocewire/crc.h"
#include "rocewire/grh.h"
#include "rocewire/icrc.h"
#include "rocewire/ipv4.h"
#include "rocewire/ipv6.h"
#include "rocewire/lrh.h"
#include "rocewire/udp.h"

#include "crc_internal.h"

/* RoCE has no LRH: A16/A17 replace it with 64 bits of ones. */
#define LRH_ONES 8

/* The longest rest of a packet copied with its headers (above). */
#define ICRC_INLINE 192

/* The CRC, continued from crc, of the masked headers hdr[0..hlen) (with
 * room for ICRC_INLINE bytes more) followed by rest[0..rlen). */
static uint32_t crc_masked(uint32_t crc, uint8_t *hdr, size_t hlen, const uint8_t *rest,
			   size_t rlen)
{
	if (rlen <= ICRC_INLINE) {
		memcpy(hdr + hlen, rest, rlen);
		return rw_crc32(crc, hdr, hlen + rlen);
	}
	return rw_crc32(rw_crc32(crc, hdr, hlen), rest, rlen);
}

/* BTH byte 4 (FECN, BECN, 6 reserved bits) is variant: RoCE switches may
 * set FECN/BECN (IBA resv8a). */
static void mask_bth(uint8_t *bth)
{
	bth[4] = 0xFF;
}

/* GRH / IPv6 traffic class, flow label and hop limit are variant. */
static void mask_grh(uint8_t *g)
{
	g[0] |= 0x0F;
	g[1] = g[2] = g[3] = 0xFF;
	g[7] = 0xFF;
}

/* The UDP checksum and the BTH that follows UDP. */
static void mask_udp_bth(uint8_t *udp)
{
	udp[6] = udp[7] = 0xFF;
	mask_bth(udp + RW_UDP_HLEN);
}

/* The variant fields of RoCEv2 (A17.3.3) in h: an IP header of iphl
 * bytes, UDP and BTH. IPv4: TOS (DSCP, ECN), TTL and header checksum;
 * IPv6: as a GRH; the UDP checksum; BTH byte 4. */
static void mask_rocev2(uint8_t *h, size_t iphl)
{
	if (h[0] >> 4 == 4) {
		h[1] = 0xFF;            /* TOS: DSCP and ECN */
		h[8] = 0xFF;            /* TTL */
		h[10] = h[11] = 0xFF;   /* header checksum */
	} else {
		mask_grh(h);            /* same positions in IPv6 */
	}
	mask_udp_bth(h + iphl);
}

/* RoCEv2 over IPv6 with extension headers (RFC 8200 4) before UDP.
 *
 * IBA Annex A17's rule is the ICRC over the bytes from the IP header to
 * the end of the payload with only the named variant fields masked (IPv6:
 * traffic class, flow label, hop limit; the UDP checksum; BTH byte 4). The
 * extension headers lie between the IPv6 header and UDP and are not named
 * as variant, so they are covered as they stand, unmasked; and Payload
 * Length, which counts them, is covered too. In icrc.md's terms the input
 * is: 8 bytes of 0xFF, the IPv6 header with traffic class, flow label and
 * hop limit set to ones, the extension headers as they are, UDP with its
 * checksum set to ones, the BTH with byte 4 set to ones, then the rest
 * through the pad.
 *
 * Peers do not agree, or do not try. Linux rxe (rxe_icrc.c, rxe_icrc_hdr)
 * copies sizeof(struct ipv6hdr) + sizeof(struct udphdr) bytes from the
 * IPv6 header: it assumes UDP right after a fixed 40-byte header, so for
 * such a packet it would cover the first 8 bytes of the first extension
 * header, masked as if they were UDP, and neither the rest of the chain nor
 * the real UDP header: a wrong ICRC. Scapy's contrib roce compute_icrc
 * computes none: 2.5.0 (Debian 12) handles IPv4 only (it writes 0 for
 * IPv6), and later versions, which mask an IPv6 layer, take UDP's
 * underlayer for the IP header, which here is the last extension header,
 * and so also write 0 with a warning.
 *
 * Reached only when next_header is not UDP: the IPv4 and plain IPv6 paths
 * do not pay for the walk, nor (noinline) for this function's stack frame
 * in rw_icrc_rocev2's (10 more instructions per IPv4 frame when inlined,
 * counted with callgrind). The extension headers are read in place, not
 * copied: they need no mask, and they may be long. */
__attribute__((noinline)) static uint32_t icrc_v6_ext(const uint8_t *ip, size_t len)
{
	uint8_t hdr[LRH_ONES + RW_IPV6_HLEN];
	uint8_t tr[RW_UDP_HLEN + RW_BTH_LEN + ICRC_INLINE];
	struct rw_ipv6_ext x;

	if (rw_ipv6_ext_decode(ip + RW_IPV6_HLEN, len - RW_IPV6_HLEN, ip[6], &x) != RW_OK ||
	    x.proto != RW_IPPROTO_UDP)
		return 0;
	size_t l4 = RW_IPV6_HLEN + (size_t)x.len, n = RW_UDP_HLEN + RW_BTH_LEN;
	if (len < l4 + n)
		return 0;
	memset(hdr, 0xFF, LRH_ONES);
	memcpy(hdr + LRH_ONES, ip, RW_IPV6_HLEN);
	mask_grh(hdr + LRH_ONES);
	uint32_t crc = rw_crc32(rw_crc32(0, hdr, sizeof(hdr)), ip + RW_IPV6_HLEN, x.len);
	memcpy(tr, ip + l4, n);
	mask_udp_bth(tr);
	return crc_masked(crc, tr, n, ip + l4 + n, len - l4 - n);
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* Ones where RoCEv2/IPv4 (IHL 5) is variant, over the 8 bytes of ones and
 * the first 40 bytes from the IP header: mask_rocev2's fields, laid out
 * once (at load time) for the three 16-byte ORs below. */
static uint8_t v4_plain_mask[48] __attribute__((aligned(16)));

__attribute__((constructor)) static void v4_plain_mask_init(void)
{
	memset(v4_plain_mask, 0xFF, LRH_ONES);
	v4_plain_mask[LRH_ONES] = 0x45; /* IPv4, IHL 5: which fields mask_rocev2 masks */
	mask_rocev2(v4_plain_mask + LRH_ONES, RW_IPV4_MIN_HLEN);
	v4_plain_mask[LRH_ONES] = 0;
}

/* ip: an IPv4 header of 20 bytes; len >= 40 (IP, UDP, BTH). */
static uint32_t icrc_v4_plain(const uint8_t *ip, size_t len)
{
	uint8_t hdr[48] __attribute__((aligned(16)));
	const __m128i *m = (const __m128i *)(const void *)v4_plain_mask;
	__m128i b0 = _mm_slli_si128(_mm_loadl_epi64((const __m128i *)(const void *)ip), 8);
	__m128i b1 = _mm_loadu_si128((const __m128i *)(const void *)(ip + 8));
	__m128i b2 = _mm_loadu_si128((const __m128i *)(const void *)(ip + 24));

	_mm_store_si128((__m128i *)(void *)hdr, _mm_or_si128(b0, _mm_load_si128(m)));
	_mm_store_si128((__m128i *)(void *)(hdr + 16), _mm_or_si128(b1, _mm_load_si128(m + 1)));
	_mm_store_si128((__m128i *)(void *)(hdr + 32), _mm_or_si128(b2, _mm_load_si128(m + 2)));
	/* the 16 bytes before ip + len are the packet's (len >= 40) */
	return rw__crc32_cat(hdr, sizeof(hdr), ip + 40, len - 40);
}
#endif

uint32_t rw_icrc_rocev2(const uint8_t *ip, size_t len)
{
	uint8_t hdr[LRH_ONES + RW_IPV4_MAX_HLEN + RW_UDP_HLEN + RW_BTH_LEN + ICRC_INLINE];
	size_t iphl;

	if (len < 1)
		return 0;
	if (ip[0] >> 4 == 4) {
		iphl = (size_t)(ip[0] & 0x0F) * 4;
	} else if (ip[0] >> 4 == 6) {
		if (len >= RW_IPV6_HLEN && ip[6] != RW_IPPROTO_UDP)
			return icrc_v6_ext(ip, len);
		iphl = RW_IPV6_HLEN;
	} else {
		return 0;
	}
	size_t n = iphl + RW_UDP_HLEN + RW_BTH_LEN;
	if (iphl < RW_IPV4_MIN_HLEN || len < n)
		return 0;
#if defined(__SSE2__)
	if (iphl == RW_IPV4_MIN_HLEN && ip[0] >> 4 == 4)
		return icrc_v4_plain(ip, len);
#endif

	memset(hdr, 0xFF, LRH_ONES);
	uint8_t *h = hdr + LRH_ONES;
	memcpy(h, ip, n);
	mask_rocev2(h, iphl);
	return crc_masked(0, hdr, LRH_ONES + n, ip + n, len - n);
}

uint32_t rw_icrc_rocev1(const uint8_t *grh, size_t len)
{
	uint8_t hdr[LRH_ONES + RW_GRH_LEN + RW_BTH_LEN + ICRC_INLINE];
	const size_t n = RW_GRH_LEN + RW_BTH_LEN;

	if (len < n)
		return 0;
	memset(hdr, 0xFF, LRH_ONES);
	memcpy(hdr + LRH_ONES, grh, n);
	mask_grh(hdr + LRH_ONES);
	mask_bth(hdr + LRH_ONES + RW_GRH_LEN);
	return crc_masked(0, hdr, LRH_ONES + n, grh + n, len - n);
}

/* IBA 7.8.1. A local packet's ICRC covers its LRH but for VL. A global
 * packet's (LNH 3: a GRH follows) covers no LRH field at all, because a
 * router rewrites the LRH: it is computed like RoCEv1's, with 64 bits of
 * ones for the LRH (T. Shanley, "InfiniBand Network Architecture", ch. 25,
 * lists the fields a global packet's ICRC includes: GRH IPVer, PayLen,
 * NxtHdr, SGID, DGID, then the transport). */
uint32_t rw_icrc_ib(const uint8_t *lrh, size_t len)
{
	uint8_t hdr[RW_LRH_LEN + RW_BTH_LEN + ICRC_INLINE];
	const size_t n = RW_LRH_LEN + RW_BTH_LEN;

	if (len >= 2 && (lrh[1] & 3) == RW_LNH_IBA_GLOBAL)
		return len < RW_LRH_LEN ? 0 : rw_icrc_rocev1(lrh + RW_LRH_LEN, len - RW_LRH_LEN);
	if (len < n)
		return 0;
	memcpy(hdr, lrh, n);
	hdr[0] |= 0xF0;                         /* VL is variant */
	mask_bth(hdr + RW_LRH_LEN);
	return crc_masked(0, hdr, n, lrh + n, len - n);
}

uint32_t rw_icrc_update(uint32_t icrc, const void *old_bytes, const void *new_bytes, size_t len,
			size_t tail)
{
	return rw_crc32_patch(icrc, old_bytes, new_bytes, len, tail);
}
