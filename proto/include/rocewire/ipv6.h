/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 fixed header (RFC 8200), as a RoCEv2 carrier. */
#ifndef ROCEWIRE_IPV6_H
#define ROCEWIRE_IPV6_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#define RW_IPV6_HLEN 40

struct rw_ipv6 {
	uint8_t dscp;        /* traffic class, upper 6 bits */
	uint8_t ecn;         /* traffic class, lower 2 bits */
	uint32_t flow_label; /* 20 bits */
	uint16_t payload_len;
	uint8_t next_header;
	uint8_t hop_limit;
	uint8_t src[16];
	uint8_t dst[16];
};

/* MALFORMED for version != 6. Extension headers are not walked: the caller
 * sees next_header and reports UNSUPPORTED when it is not UDP. */
enum rw_err rw_ipv6_decode(const uint8_t *buf, size_t len, struct rw_ipv6 *out);
enum rw_err rw_ipv6_encode(const struct rw_ipv6 *h, uint8_t *buf, size_t cap, size_t *written);

#endif
