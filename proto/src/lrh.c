/* SPDX-License-Identifier: BSD-3-Clause */
/* Local Route Header (IBA 7.7):
 *   byte 0: VL(4) LVer(4)   byte 1: SL(4) resv(2) LNH(2)
 *   bytes 2-3: DLID         bytes 4-5: resv(5) PktLen(11)   bytes 6-7: SLID */
#include "codec.h"
#include "rocewire/lrh.h"
#include "rocewire/wire.h"

enum rw_err rw_lrh_decode(const uint8_t *buf, size_t len, struct rw_lrh *out)
{
	RW_NEED(len, RW_LRH_LEN);
	out->vl = buf[0] >> 4;
	out->lver = buf[0] & 0x0F;
	out->sl = buf[1] >> 4;
	out->resv2 = buf[1] >> 2 & 3;
	out->lnh = buf[1] & 3;
	out->dlid = rw_get_be16(buf + 2);
	out->resv5 = buf[4] >> 3;
	out->pktlen = rw_get_be16(buf + 4) & 0x07FF;
	out->slid = rw_get_be16(buf + 6);
	return RW_OK;
}

enum rw_err rw_lrh_encode(const struct rw_lrh *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->vl, 4);
	RW_FITS(h->lver, 4);
	RW_FITS(h->sl, 4);
	RW_FITS(h->lnh, 2);
	RW_FITS(h->pktlen, 11);
	RW_ROOM(cap, RW_LRH_LEN);
	buf[0] = (uint8_t)(h->vl << 4 | h->lver);
	buf[1] = (uint8_t)(h->sl << 4 | h->lnh);
	rw_put_be16(buf + 2, h->dlid);
	rw_put_be16(buf + 4, h->pktlen);
	rw_put_be16(buf + 6, h->slid);
	RW_DONE(written, RW_LRH_LEN);
}
