/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 fixed header (RFC 8200 section 3). */
#include <string.h>

#include "codec.h"
#include "rocewire/ipv6.h"
#include "rocewire/wire.h"

enum rw_err rw_ipv6_decode(const uint8_t *buf, size_t len, struct rw_ipv6 *out)
{
	RW_NEED(len, RW_IPV6_HLEN);
	uint32_t w = rw_get_be32(buf);
	if (w >> 28 != 6)
		return RW_ERR_MALFORMED;
	uint8_t tc = (uint8_t)(w >> 20);
	out->dscp = tc >> 2;
	out->ecn = tc & 3;
	out->flow_label = w & 0xFFFFF;
	out->payload_len = rw_get_be16(buf + 4);
	out->next_header = buf[6];
	out->hop_limit = buf[7];
	memcpy(out->src, buf + 8, 16);
	memcpy(out->dst, buf + 24, 16);
	return RW_OK;
}

enum rw_err rw_ipv6_encode(const struct rw_ipv6 *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->dscp, 6);
	RW_FITS(h->ecn, 2);
	RW_FITS(h->flow_label, 20);
	RW_ROOM(cap, RW_IPV6_HLEN);
	rw_put_be32(buf, 6u << 28 | (uint32_t)(h->dscp << 2 | h->ecn) << 20 | h->flow_label);
	rw_put_be16(buf + 4, h->payload_len);
	buf[6] = h->next_header;
	buf[7] = h->hop_limit;
	memcpy(buf + 8, h->src, 16);
	memcpy(buf + 24, h->dst, 16);
	RW_DONE(written, RW_IPV6_HLEN);
}
