/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal helpers shared by the per-header codecs. */
#ifndef ROCEWIRE_CODEC_H
#define ROCEWIRE_CODEC_H

#include <stddef.h>
#include "rocewire/error.h"

/* Every decoder checks its full length once, before reading any field. */
#define RW_NEED(len, n)                                                                             \
	do {                                                                                        \
		if ((len) < (size_t)(n))                                                            \
			return RW_ERR_TRUNCATED;                                                    \
	} while (0)

/* Every encoder checks its output room once, before writing any byte. */
#define RW_ROOM(cap, n)                                                                             \
	do {                                                                                        \
		if ((cap) < (size_t)(n))                                                            \
			return RW_ERR_NOSPACE;                                                      \
	} while (0)

/* A value wider than its field is refused instead of silently cut. */
#define RW_FITS(v, bits)                                                                            \
	do {                                                                                        \
		if ((unsigned long long)(v) >> (bits))                                              \
			return RW_ERR_INVALID;                                                      \
	} while (0)

#define RW_DONE(written, n)                                                                         \
	do {                                                                                        \
		if (written)                                                                        \
			*(written) = (n);                                                           \
		return RW_OK;                                                                       \
	} while (0)

#endif
