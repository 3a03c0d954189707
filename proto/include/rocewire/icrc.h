/* SPDX-License-Identifier: BSD-3-Clause */
/* Invariant CRC (IBA 7.8.1; RoCEv2: Annex A17.3.3; RoCEv1: Annex A16).
 *
 * All values are CRC-32 results with zlib semantics; the ICRC is stored on
 * the wire least-significant byte first (rw_put_le32). Wireshark shows the
 * four wire bytes read big-endian, which is rw_icrc_display(). */
#ifndef ROCEWIRE_ICRC_H
#define ROCEWIRE_ICRC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RW_ICRC_LEN 4
#define RW_VCRC_LEN 2

/* ip: the IPv4 or IPv6 header (version taken from its first nibble); len:
 * bytes from the IP header through the last pad byte (not the ICRC). The
 * variant fields are masked as the spec says: 8 bytes of ones for the absent
 * LRH, IPv4 TOS/TTL/checksum or IPv6 traffic class/flow label/hop limit,
 * the UDP checksum, and BTH byte 4 (FECN/BECN/reserved). IPv6 extension
 * headers before UDP (rw_ipv6_ext_decode) are covered as they are, unmasked.
 * Returns 0 if len is too short to hold the headers, or if the extension
 * headers do not end in UDP. */
uint32_t rw_icrc_rocev2(const uint8_t *ip, size_t len);
/* grh: the GRH of a RoCEv1 frame; len through the last pad byte. */
uint32_t rw_icrc_rocev1(const uint8_t *grh, size_t len);
/* lrh: a native IB packet; len through the last pad byte. A local packet's
 * LRH is covered but for VL; a global packet (LNH 3) has its whole LRH
 * masked (routers rewrite it) and the GRH variant fields too. */
uint32_t rw_icrc_ib(const uint8_t *lrh, size_t len);

/* The new ICRC after bytes that the ICRC covers without masking changed
 * (a PSN, a payload word): `tail` is the number of covered bytes after the
 * changed range (through the last pad byte). Cost does not depend on the
 * packet length. */
uint32_t rw_icrc_update(uint32_t icrc, const void *old_bytes, const void *new_bytes, size_t len,
			size_t tail);

static inline uint32_t rw_icrc_display(uint32_t icrc)
{
	return (icrc >> 24) | ((icrc >> 8) & 0xFF00u) | ((icrc << 8) & 0xFF0000u) | (icrc << 24);
}

#ifdef __cplusplus
}
#endif

#endif
