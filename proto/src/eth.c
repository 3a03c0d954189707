/* SPDX-License-Identifier: BSD-3-Clause */
/* Ethernet II (IEEE 802.3 clause 3) and 802.1Q / 802.1ad tags. */
#include <string.h>

#include "codec.h"
#include "rocewire/eth.h"
#include "rocewire/wire.h"

enum rw_err rw_eth_decode(const uint8_t *buf, size_t len, struct rw_eth *out)
{
	RW_NEED(len, RW_ETH_HLEN);
	memcpy(out->dst, buf, 6);
	memcpy(out->src, buf + 6, 6);
	out->ethertype = rw_get_be16(buf + 12);
	return RW_OK;
}

enum rw_err rw_eth_encode(const struct rw_eth *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_ROOM(cap, RW_ETH_HLEN);
	memcpy(buf, h->dst, 6);
	memcpy(buf + 6, h->src, 6);
	rw_put_be16(buf + 12, h->ethertype);
	RW_DONE(written, RW_ETH_HLEN);
}

enum rw_err rw_vlan_decode(const uint8_t *buf, size_t len, uint16_t tpid, struct rw_vlan *out)
{
	RW_NEED(len, RW_VLAN_HLEN);
	uint16_t tci = rw_get_be16(buf);
	out->tpid = tpid;
	out->pcp = (uint8_t)(tci >> 13);
	out->dei = (uint8_t)(tci >> 12 & 1);
	out->vid = tci & 0x0FFF;
	out->ethertype = rw_get_be16(buf + 2);
	return RW_OK;
}

enum rw_err rw_vlan_encode(const struct rw_vlan *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->pcp, 3);
	RW_FITS(h->dei, 1);
	RW_FITS(h->vid, 12);
	RW_ROOM(cap, RW_VLAN_HLEN);
	rw_put_be16(buf, (uint16_t)(h->pcp << 13 | h->dei << 12 | h->vid));
	rw_put_be16(buf + 2, h->ethertype);
	RW_DONE(written, RW_VLAN_HLEN);
}
