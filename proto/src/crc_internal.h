/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal hooks of the CRC code, for the unit tests only. Not installed,
 * not part of the API, and not exported from the shared library (the tests
 * link the static one). */
#ifndef ROCEWIRE_CRC_INTERNAL_H
#define ROCEWIRE_CRC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define RW_HIDDEN __attribute__((visibility("hidden")))
#else
#define RW_HIDDEN
#endif

/* One implementation: the same layout as crc32.c's private table entries. */
struct rw__crc32_ops {
	const char *name;
	bool (*supported)(void);
	uint32_t (*crc)(uint32_t crc, const uint8_t *p, size_t len); /* p non-NULL */
	uint32_t (*mulmod)(uint32_t a, uint32_t b);
	/* rw__crc32_cat() */
	uint32_t (*cat)(const uint8_t *head, size_t hlen, const uint8_t *rest, size_t rlen);
};

/* rw_crc32(rw_crc32(0, head, hlen), rest, rlen) in one pass: for a masked
 * copy of a packet's headers followed by the rest of the packet in place
 * (the ICRC). hlen is a multiple of 16, at least 16; the 16 bytes that end
 * at rest + rlen must be readable (when rlen < 16 some lie before rest; their
 * values do not matter). */
RW_HIDDEN uint32_t rw__crc32_cat(const uint8_t *head, size_t hlen, const uint8_t *rest,
				 size_t rlen);

/* The implementation named ("vpclmulqdq", "pclmulqdq", "slice8", as
 * rw_crc32_impl() names them), or NULL when it is not in this build or this
 * CPU cannot run it. */
RW_HIDDEN const struct rw__crc32_ops *rw__crc32_ops(const char *name);
/* rw_crc32_patch() with the given implementation. */
RW_HIDDEN uint32_t rw__crc32_patch_ops(const struct rw__crc32_ops *ops, uint32_t crc,
				       const void *old_bytes, const void *new_bytes, size_t len,
				       size_t tail);

#endif
