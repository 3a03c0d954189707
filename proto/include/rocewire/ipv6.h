/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 fixed header (RFC 8200), as a RoCEv2 carrier, and the chain of
 * extension headers (RFC 8200 4) between it and UDP. */
#ifndef ROCEWIRE_IPV6_H
#define ROCEWIRE_IPV6_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* MALFORMED for version != 6. Only the fixed header: next_header may name
 * an extension header, which rw_ipv6_ext_decode() walks. */
enum rw_err rw_ipv6_decode(const uint8_t *buf, size_t len, struct rw_ipv6 *out);
enum rw_err rw_ipv6_encode(const struct rw_ipv6 *h, uint8_t *buf, size_t cap, size_t *written);

/* Extension header types (IANA "IPv6 Extension Header Types"; they share
 * the protocol number space). */
#define RW_IPV6_EXT_HOPOPTS 0    /* Hop-by-Hop Options, RFC 8200 4.3 */
#define RW_IPV6_EXT_ROUTING 43   /* RFC 8200 4.4 */
#define RW_IPV6_EXT_FRAGMENT 44  /* RFC 8200 4.5 */
#define RW_IPV6_EXT_ESP 50       /* RFC 4303 */
#define RW_IPV6_EXT_AH 51        /* RFC 4302 */
#define RW_IPV6_NO_NEXT 59       /* No Next Header, RFC 8200 4.7 */
#define RW_IPV6_EXT_DSTOPTS 60   /* Destination Options, RFC 8200 4.6 */
#define RW_IPV6_EXT_FRAG_LEN 8

/* The most extension headers walked. RFC 8200 4.1 has each type at most
 * once (Destination Options twice): Hop-by-Hop, Destination, Routing,
 * Fragment and Destination again are 5 in front of an upper layer; 8 leaves
 * room for the Mobility, HIP, Shim6 and experimental ones. A longer chain
 * is MALFORMED rather than walked on without bound. */
#define RW_IPV6_EXT_MAX 8

/* What rw_ipv6_ext_decode() walked. */
struct rw_ipv6_ext {
	uint8_t n;                      /* extension headers walked */
	/* The Next Header after the last one walked: the upper-layer protocol
	 * (17 UDP, 58 ICMPv6, ...) or the header that ended the walk (ESP,
	 * AH, No Next Header, the Fragment header of a real fragment). When
	 * the walk failed, the type of the header it failed on. */
	uint8_t proto;
	uint16_t len;                   /* bytes walked: the upper layer starts here */
	uint16_t need;                  /* TRUNCATED: bytes the header at len needs */
	uint8_t type[RW_IPV6_EXT_MAX];  /* each header's type, in wire order */
	uint16_t hlen[RW_IPV6_EXT_MAX]; /* each header's length in bytes */
};

/* Walks the extension headers that start at buf (right after the fixed
 * header), next_header being the fixed header's Next Header; len is the
 * bytes there are (the payload length's, or fewer when a capture cut
 * them). Walked: Hop-by-Hop (first only), Routing, Destination Options, an
 * atomic Fragment header (offset 0, M 0: RFC 8200 4.5, RFC 6946), and the
 * other types IANA lists, which share the format RFC 6564 describes
 * (Mobility 135, HIP 139, Shim6 140, experimental 253 and 254). The walk
 * ends, RW_OK, at anything else: an upper-layer protocol, ESP, AH, No Next
 * Header, or the Fragment header of a real fragment (not walked: RoCE never
 * fragments). Errors,
 * with out->len the offset of the header at fault and out->proto its type:
 * TRUNCATED when it runs past len (out->need bytes); MALFORMED for a
 * Hop-by-Hop header that is not first (RFC 8200 4.3) or a chain of more
 * than RW_IPV6_EXT_MAX headers. Never reads past buf + len. */
enum rw_err rw_ipv6_ext_decode(const uint8_t *buf, size_t len, uint8_t next_header,
			       struct rw_ipv6_ext *out);

/* "hop-by-hop", "routing", "fragment", "destination-options", "esp", "ah",
 * "no-next-header", "mobility", "hip", "shim6", "experimental-253",
 * "experimental-254"; NULL for any other type. */
const char *rw_ipv6_ext_name(uint8_t type);

#ifdef __cplusplus
}
#endif

#endif
