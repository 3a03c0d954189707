/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 (RFC 791). */
#include <string.h>

#include "codec.h"
#include "rocewire/ipv4.h"
#include "rocewire/wire.h"

enum rw_err rw_ipv4_decode(const uint8_t *buf, size_t len, struct rw_ipv4 *out)
{
	RW_NEED(len, RW_IPV4_MIN_HLEN);
	if (buf[0] >> 4 != 4)
		return RW_ERR_MALFORMED;
	out->ihl = buf[0] & 0x0F;
	if (out->ihl < 5)
		return RW_ERR_MALFORMED;
	out->dscp = buf[1] >> 2;
	out->ecn = buf[1] & 3;
	out->total_len = rw_get_be16(buf + 2);
	out->id = rw_get_be16(buf + 4);
	out->flags = buf[6] >> 5;
	out->frag_off = rw_get_be16(buf + 6) & 0x1FFF;
	out->ttl = buf[8];
	out->protocol = buf[9];
	out->checksum = rw_get_be16(buf + 10);
	out->src = rw_get_be32(buf + 12);
	out->dst = rw_get_be32(buf + 16);
	out->options = NULL;
	out->options_len = 0;
	size_t hlen = (size_t)out->ihl * 4;
	if (out->total_len < hlen)
		return RW_ERR_MALFORMED;
	RW_NEED(len, hlen);
	if (hlen > RW_IPV4_MIN_HLEN) {
		out->options = buf + RW_IPV4_MIN_HLEN;
		out->options_len = (uint8_t)(hlen - RW_IPV4_MIN_HLEN);
	}
	if ((out->flags & RW_IPV4_MF) || out->frag_off)
		return RW_ERR_UNSUPPORTED;
	return RW_OK;
}

uint16_t rw_ipv4_checksum(const uint8_t *hdr, size_t hlen)
{
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < hlen; i += 2)
		sum += rw_get_be16(hdr + i);
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

enum rw_err rw_ipv4_encode(const struct rw_ipv4 *h, int keep_checksum, uint8_t *buf, size_t cap,
			   size_t *written)
{
	RW_FITS(h->dscp, 6);
	RW_FITS(h->ecn, 2);
	RW_FITS(h->flags, 3);
	RW_FITS(h->frag_off, 13);
	if (h->options_len > RW_IPV4_MAX_HLEN - RW_IPV4_MIN_HLEN)
		return RW_ERR_INVALID;
	size_t opt_words = ((size_t)h->options_len + 3) / 4;
	size_t hlen = RW_IPV4_MIN_HLEN + opt_words * 4;
	RW_ROOM(cap, hlen);
	buf[0] = (uint8_t)(0x40 | (hlen / 4));
	buf[1] = (uint8_t)(h->dscp << 2 | h->ecn);
	rw_put_be16(buf + 2, h->total_len);
	rw_put_be16(buf + 4, h->id);
	/* RFC 791: bit 0 of the flags is reserved and must be zero. */
	rw_put_be16(buf + 6, (uint16_t)((h->flags & 3) << 13 | h->frag_off));
	buf[8] = h->ttl;
	buf[9] = h->protocol;
	rw_put_be16(buf + 10, 0);
	rw_put_be32(buf + 12, h->src);
	rw_put_be32(buf + 16, h->dst);
	if (h->options_len) {
		memcpy(buf + RW_IPV4_MIN_HLEN, h->options, h->options_len);
		/* RFC 791: the option list ends on a 32-bit boundary, padded
		 * with zeros (End of Option List). */
		memset(buf + RW_IPV4_MIN_HLEN + h->options_len, 0,
		       hlen - RW_IPV4_MIN_HLEN - h->options_len);
	}
	rw_put_be16(buf + 10, keep_checksum ? h->checksum : rw_ipv4_checksum(buf, hlen));
	RW_DONE(written, hlen);
}
