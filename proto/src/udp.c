/* SPDX-License-Identifier: BSD-3-Clause */
/* UDP (RFC 768). */
#include "codec.h"
#include "rocewire/udp.h"
#include "rocewire/wire.h"

enum rw_err rw_udp_decode(const uint8_t *buf, size_t len, struct rw_udp *out)
{
	RW_NEED(len, RW_UDP_HLEN);
	out->sport = rw_get_be16(buf);
	out->dport = rw_get_be16(buf + 2);
	out->len = rw_get_be16(buf + 4);
	out->checksum = rw_get_be16(buf + 6);
	if (out->len < RW_UDP_HLEN)
		return RW_ERR_MALFORMED;
	return RW_OK;
}

enum rw_err rw_udp_encode(const struct rw_udp *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_ROOM(cap, RW_UDP_HLEN);
	rw_put_be16(buf, h->sport);
	rw_put_be16(buf + 2, h->dport);
	rw_put_be16(buf + 4, h->len);
	rw_put_be16(buf + 6, h->checksum);
	RW_DONE(written, RW_UDP_HLEN);
}
