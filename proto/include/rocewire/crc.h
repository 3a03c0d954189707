/* SPDX-License-Identifier: BSD-3-Clause */
/* CRC-32 (IEEE 802.3 / zlib polynomial, as used by the IB ICRC) and the
 * CRC-16 of the IB VCRC.
 *
 * rw_crc32() has zlib's crc32() semantics: start from 0, chain calls to
 * continue a CRC over several buffers. The implementation is chosen once at
 * first use from what the CPU offers (VPCLMULQDQ/AVX-512, PCLMULQDQ, or a
 * slicing table); all give identical results. */
#ifndef ROCEWIRE_CRC_H
#define ROCEWIRE_CRC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

uint32_t rw_crc32(uint32_t crc, const void *buf, size_t len);

/* The CRC of a message after bytes [pos, pos + len) changed from old_bytes
 * to new_bytes, given the CRC of the message before the change and `tail`,
 * the number of message bytes after the changed range. Cost depends on len
 * and log(tail), never on the message length: CRC is linear over GF(2), so
 * the change of the CRC is the zero-initialised CRC of (old XOR new)
 * followed by `tail` zero bytes. */
uint32_t rw_crc32_patch(uint32_t crc, const void *old_bytes, const void *new_bytes, size_t len,
			size_t tail);

/* The same with the shift over `tail` bytes precomputed by
 * rw_crc32_shift(tail): one carry-less multiply instead of log(tail), for a
 * generator that patches the same template (same tail) for every packet. */
uint32_t rw_crc32_shift(size_t tail);
uint32_t rw_crc32_patch_shift(uint32_t crc, const void *old_bytes, const void *new_bytes,
			      size_t len, uint32_t shift);
/* A CRC change (what some changed bytes add to the CRC of a message they
 * end) moved over the bytes `shift` was made for (rw_crc32_shift): the
 * change they make to a message with that many bytes after them. One
 * carry-less multiply. */
uint32_t rw_crc32_shift_delta(uint32_t delta, uint32_t shift);

/* Name of the implementation rw_crc32() uses on this CPU ("vpclmulqdq",
 * "pclmulqdq", "slice8"), for benchmarks and diagnostics. */
const char *rw_crc32_impl(void);

/* IBA 7.8.2 VCRC: CRC-16, polynomial 0x100B, initial value 0xFFFF, result
 * inverted, computed over the whole packet from the first LRH byte through
 * the ICRC. Returns the 16-bit value as it is carried on the wire, big-endian
 * (the way the VCRC field is shown by Wireshark). */
uint16_t rw_vcrc16(const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
