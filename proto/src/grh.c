/* SPDX-License-Identifier: BSD-3-Clause */
/* Global Route Header (IBA 8.3): laid out like an IPv6 header, with IPVer 6
 * and NxtHdr 0x1B when the BTH follows. */
#include <string.h>

#include "codec.h"
#include "rocewire/grh.h"
#include "rocewire/wire.h"

enum rw_err rw_grh_decode(const uint8_t *buf, size_t len, struct rw_grh *out)
{
	RW_NEED(len, RW_GRH_LEN);
	uint32_t w = rw_get_be32(buf);
	out->ipver = (uint8_t)(w >> 28);
	out->tclass = (uint8_t)(w >> 20);
	out->flow_label = w & 0xFFFFF;
	out->paylen = rw_get_be16(buf + 4);
	out->nxthdr = buf[6];
	out->hoplmt = buf[7];
	memcpy(out->sgid, buf + 8, 16);
	memcpy(out->dgid, buf + 24, 16);
	if (out->ipver != 6)
		return RW_ERR_MALFORMED;
	return RW_OK;
}

enum rw_err rw_grh_encode(const struct rw_grh *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->ipver, 4);
	RW_FITS(h->flow_label, 20);
	RW_ROOM(cap, RW_GRH_LEN);
	rw_put_be32(buf, (uint32_t)h->ipver << 28 | (uint32_t)h->tclass << 20 | h->flow_label);
	rw_put_be16(buf + 4, h->paylen);
	buf[6] = h->nxthdr;
	buf[7] = h->hoplmt;
	memcpy(buf + 8, h->sgid, 16);
	memcpy(buf + 24, h->dgid, 16);
	RW_DONE(written, RW_GRH_LEN);
}
