/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 fixed header (RFC 8200 section 3) and extension headers (section 4). */
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

/* How the walk treats each Next Header value. Anything not listed ends the
 * walk: an upper-layer protocol; ESP (RFC 4303: what follows is encrypted
 * and cannot be read); AH (RFC 4302: IPsec, which rocewire does not
 * decode, so the packet is "other" as under ESP); No Next Header (nothing
 * follows). */
enum ext_kind {
	EXT_END = 0,
	EXT_UNIFORM,  /* Next Header, Hdr Ext Len in 8-byte units not counting the first 8 */
	EXT_FRAGMENT, /* 8 bytes, no length field */
};

static const uint8_t ext_kind[256] = {
	[RW_IPV6_EXT_HOPOPTS] = EXT_UNIFORM,
	[RW_IPV6_EXT_ROUTING] = EXT_UNIFORM,
	[RW_IPV6_EXT_FRAGMENT] = EXT_FRAGMENT,
	[RW_IPV6_EXT_DSTOPTS] = EXT_UNIFORM,
	/* The rest of IANA's list. Mobility (RFC 6275 6.1), HIP (RFC 7401
	 * 5.1) and Shim6 (RFC 5533 5.1) have the same two first fields,
	 * length in 8-byte units not counting the first 8; the experimental
	 * ones (RFC 4727) are taken to have them too, the format RFC 6564
	 * makes every new extension header use. */
	[135] = EXT_UNIFORM, /* Mobility */
	[139] = EXT_UNIFORM, /* HIP */
	[140] = EXT_UNIFORM, /* Shim6 */
	[253] = EXT_UNIFORM, /* experimentation and testing */
	[254] = EXT_UNIFORM,
};

enum rw_err rw_ipv6_ext_decode(const uint8_t *buf, size_t len, uint8_t next_header,
			       struct rw_ipv6_ext *out)
{
	size_t off = 0;
	uint8_t nh = next_header;

	out->n = 0;
	out->need = 0;
	for (;;) {
		enum ext_kind kind = (enum ext_kind)ext_kind[nh];
		if (kind == EXT_END)
			break;
		out->proto = nh;
		out->len = (uint16_t)off;
		/* RFC 8200 4.3: Hop-by-Hop Options only right after the
		 * fixed header (a router would look for it nowhere else). */
		if (nh == RW_IPV6_EXT_HOPOPTS && out->n)
			return RW_ERR_MALFORMED;
		size_t hl = kind == EXT_FRAGMENT ? RW_IPV6_EXT_FRAG_LEN : 2;
		if (len - off < hl) {
			out->need = (uint16_t)hl;
			return RW_ERR_TRUNCATED;
		}
		if (kind == EXT_UNIFORM) {
			hl = ((size_t)buf[off + 1] + 1) * 8;
			if (len - off < hl) {
				out->need = (uint16_t)hl;
				return RW_ERR_TRUNCATED;
			}
		} else if (rw_get_be16(buf + off + 2) & 0xFFF9) {
			/* RFC 8200 4.5: Fragment Offset (13 bits) and M (the
			 * last bit); only an atomic fragment, both zero, is
			 * a whole packet (RFC 6946). */
			break;
		}
		if (out->n == RW_IPV6_EXT_MAX)
			return RW_ERR_MALFORMED;
		out->type[out->n] = nh;
		out->hlen[out->n] = (uint16_t)hl;
		out->n++;
		nh = buf[off];
		off += hl;
	}
	out->proto = nh;
	out->len = (uint16_t)off;
	return RW_OK;
}

const char *rw_ipv6_ext_name(uint8_t type)
{
	static const char *const names[256] = {
		[RW_IPV6_EXT_HOPOPTS] = "hop-by-hop",
		[RW_IPV6_EXT_ROUTING] = "routing",
		[RW_IPV6_EXT_FRAGMENT] = "fragment",
		[RW_IPV6_EXT_ESP] = "esp",
		[RW_IPV6_EXT_AH] = "ah",
		[RW_IPV6_NO_NEXT] = "no-next-header",
		[RW_IPV6_EXT_DSTOPTS] = "destination-options",
		[135] = "mobility",
		[139] = "hip",
		[140] = "shim6",
		[253] = "experimental-253",
		[254] = "experimental-254",
	};
	return names[type];
}
