/* SPDX-License-Identifier: BSD-3-Clause */
/* Capture framings: Linux cooked capture v1/v2 (libpcap's pcap-linktype(7)
 * LINKTYPE_LINUX_SLL / _SLL2) and Endace ERF records. */
#include <string.h>

#include "codec.h"
#include "rocewire/link.h"
#include "rocewire/wire.h"

enum rw_err rw_sll_decode(const uint8_t *buf, size_t len, struct rw_sll *out)
{
	RW_NEED(len, RW_SLL_LEN);
	out->pkttype = rw_get_be16(buf);
	out->hatype = rw_get_be16(buf + 2);
	out->addr_len = rw_get_be16(buf + 4);
	memcpy(out->addr, buf + 6, 8);
	out->protocol = rw_get_be16(buf + 14);
	out->ifindex = 0;
	return RW_OK;
}

enum rw_err rw_sll2_decode(const uint8_t *buf, size_t len, struct rw_sll *out)
{
	RW_NEED(len, RW_SLL2_LEN);
	out->protocol = rw_get_be16(buf);
	out->ifindex = rw_get_be32(buf + 4);
	out->hatype = rw_get_be16(buf + 8);
	out->pkttype = buf[10];
	out->addr_len = buf[11];
	memcpy(out->addr, buf + 12, 8);
	return RW_OK;
}

enum rw_err rw_sll_encode(const struct rw_sll *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_ROOM(cap, RW_SLL_LEN);
	rw_put_be16(buf, h->pkttype);
	rw_put_be16(buf + 2, h->hatype);
	rw_put_be16(buf + 4, h->addr_len);
	memcpy(buf + 6, h->addr, 8);
	rw_put_be16(buf + 14, h->protocol);
	RW_DONE(written, RW_SLL_LEN);
}

enum rw_err rw_sll2_encode(const struct rw_sll *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->pkttype, 8);
	RW_FITS(h->addr_len, 8);
	RW_ROOM(cap, RW_SLL2_LEN);
	rw_put_be16(buf, h->protocol);
	rw_put_be16(buf + 2, 0);
	rw_put_be32(buf + 4, h->ifindex);
	rw_put_be16(buf + 8, h->hatype);
	buf[10] = (uint8_t)h->pkttype;
	buf[11] = (uint8_t)h->addr_len;
	memcpy(buf + 12, h->addr, 8);
	RW_DONE(written, RW_SLL2_LEN);
}

static int erf_is_eth(uint8_t type)
{
	return type == RW_ERF_TYPE_ETH || type == RW_ERF_TYPE_COLOR_ETH ||
	       type == RW_ERF_TYPE_DSM_COLOR_ETH || type == RW_ERF_TYPE_COLOR_HASH_ETH;
}

/* ERF record: ts (8, little-endian), type (bit 7: extension headers
 * follow), flags, rlen, lctr, wlen (big-endian). Each 8-byte extension
 * header has bit 7 of its first byte set when another follows. Ethernet
 * records then carry 2 bytes (offset, pad) before the frame. */
enum rw_err rw_erf_decode(const uint8_t *buf, size_t len, struct rw_erf *out)
{
	memset(out, 0, sizeof(*out));
	out->hlen = RW_ERF_LEN;
	RW_NEED(len, RW_ERF_LEN);
	out->ts = (uint64_t)rw_get_le32(buf + 4) << 32 | rw_get_le32(buf);
	out->type = buf[8] & 0x7F;
	out->flags = buf[9];
	out->rlen = rw_get_be16(buf + 10);
	out->lctr = rw_get_be16(buf + 12);
	out->wlen = rw_get_be16(buf + 14);
	int eth = erf_is_eth(out->type);
	if (!eth && out->type != RW_ERF_TYPE_INFINIBAND && out->type != RW_ERF_TYPE_INFINIBAND_LINK)
		return RW_ERR_UNSUPPORTED;
	/* Past the limit the chain is still counted, as far as it was
	 * captured, so that the error can say how long it is. */
	size_t off = RW_ERF_LEN;
	int more = buf[8] & 0x80;
	while (more && len >= off + RW_ERF_EXT_LEN && out->n_ext < UINT16_MAX) {
		more = buf[off] & 0x80;
		off += RW_ERF_EXT_LEN;
		out->n_ext++;
	}
	if (out->n_ext > RW_ERF_MAX_EXT) {
		out->ext_more = more != 0;
		return RW_ERR_MALFORMED;
	}
	/* hlen grows as far as the captured bytes announce more header, so a
	 * truncated record says how much header it needed. */
	if (more) {
		out->hlen = (uint16_t)(off + RW_ERF_EXT_LEN + (eth ? 2 : 0));
		return RW_ERR_TRUNCATED;
	}
	if (eth)
		off += 2;
	out->hlen = (uint16_t)off;
	RW_NEED(len, off);
	if (out->rlen < off)
		return RW_ERR_MALFORMED;
	return RW_OK;
}

enum rw_err rw_erf_encode(const struct rw_erf *h, uint8_t *buf, size_t cap, size_t *written)
{
	size_t n = RW_ERF_LEN + (erf_is_eth(h->type) ? 2 : 0);
	RW_FITS(h->type, 7);
	RW_ROOM(cap, n);
	rw_put_le32(buf, (uint32_t)h->ts);
	rw_put_le32(buf + 4, (uint32_t)(h->ts >> 32));
	buf[8] = h->type;
	buf[9] = h->flags;
	rw_put_be16(buf + 10, h->rlen);
	rw_put_be16(buf + 12, h->lctr);
	rw_put_be16(buf + 14, h->wlen);
	if (n > RW_ERF_LEN)
		buf[16] = buf[17] = 0;
	RW_DONE(written, n);
}
