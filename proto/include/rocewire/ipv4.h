/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 header (RFC 791) with options, as a RoCEv2 carrier. */
#ifndef ROCEWIRE_IPV4_H
#define ROCEWIRE_IPV4_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_IPV4_MIN_HLEN 20
#define RW_IPV4_MAX_HLEN 60
#define RW_IPPROTO_UDP 17

#define RW_ECN_NOT_ECT 0
#define RW_ECN_ECT1 1
#define RW_ECN_ECT0 2
#define RW_ECN_CE 3

struct rw_ipv4 {
	uint8_t ihl;          /* header length in 32-bit words, 5..15 */
	uint8_t dscp;         /* 6 bits */
	uint8_t ecn;          /* 2 bits, RW_ECN_* */
	uint16_t total_len;
	uint16_t id;
	uint8_t flags;        /* 3 bits: reserved, DF, MF */
	uint16_t frag_off;    /* 13 bits, in 8-byte units */
	uint8_t ttl;
	uint8_t protocol;
	uint16_t checksum;
	uint32_t src;         /* host order */
	uint32_t dst;
	const uint8_t *options; /* points into the decoded buffer; NULL if none */
	uint8_t options_len;
};

#define RW_IPV4_DF 0x2
#define RW_IPV4_MF 0x1

/* Decodes the fixed header and the options. MALFORMED for version != 4,
 * IHL < 5, or total length < IHL*4; UNSUPPORTED for fragments (RoCE never
 * fragments: its senders set DF). The header checksum is not verified here
 * (see rw_ipv4_checksum). */
enum rw_err rw_ipv4_decode(const uint8_t *buf, size_t len, struct rw_ipv4 *out);
/* Writes the header and options (h->options/options_len, padded with EOL to
 * a 4-byte boundary; ihl is derived from them). The checksum is computed
 * unless keep_checksum is set (for crafting bad packets). */
enum rw_err rw_ipv4_encode(const struct rw_ipv4 *h, int keep_checksum, uint8_t *buf, size_t cap,
			   size_t *written);
/* RFC 1071 checksum over a header of hlen bytes (0 when it verifies). */
uint16_t rw_ipv4_checksum(const uint8_t *hdr, size_t hlen);

#ifdef __cplusplus
}
#endif

#endif
