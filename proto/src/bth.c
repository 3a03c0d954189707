/* SPDX-License-Identifier: BSD-3-Clause */
/* Base Transport Header (IBA 9.2):
 *   byte 0: OpCode   byte 1: SE M PadCnt(2) TVer(4)   bytes 2-3: P_Key
 *   byte 4: FECN BECN resv(6) (RoCEv2: A17.9; IBA 1.2.1 "resv8a")
 *   bytes 5-7: DestQP   byte 8: A resv(7)   bytes 9-11: PSN */
#include "codec.h"
#include "rocewire/bth.h"
#include "rocewire/wire.h"

enum rw_err rw_bth_decode(const uint8_t *buf, size_t len, struct rw_bth *out)
{
	RW_NEED(len, RW_BTH_LEN);
	out->opcode = buf[0];
	out->se = buf[1] >> 7;
	out->m = buf[1] >> 6 & 1;
	out->pad = buf[1] >> 4 & 3;
	out->tver = buf[1] & 0x0F;
	out->pkey = rw_get_be16(buf + 2);
	out->fecn = buf[4] >> 7;
	out->becn = buf[4] >> 6 & 1;
	out->resv6 = buf[4] & 0x3F;
	out->dqpn = rw_get_be24(buf + 5);
	out->ackreq = buf[8] >> 7;
	out->resv7 = buf[8] & 0x7F;
	out->psn = rw_get_be24(buf + 9);
	return RW_OK;
}

enum rw_err rw_bth_encode(const struct rw_bth *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->se, 1);
	RW_FITS(h->m, 1);
	RW_FITS(h->pad, 2);
	RW_FITS(h->tver, 4);
	RW_FITS(h->fecn, 1);
	RW_FITS(h->becn, 1);
	RW_FITS(h->ackreq, 1);
	RW_FITS(h->dqpn, 24);
	RW_FITS(h->psn, 24);
	RW_ROOM(cap, RW_BTH_LEN);
	buf[0] = h->opcode;
	buf[1] = (uint8_t)(h->se << 7 | h->m << 6 | h->pad << 4 | h->tver);
	rw_put_be16(buf + 2, h->pkey);
	buf[4] = (uint8_t)(h->fecn << 7 | h->becn << 6);
	rw_put_be24(buf + 5, h->dqpn);
	buf[8] = (uint8_t)(h->ackreq << 7);
	rw_put_be24(buf + 9, h->psn);
	RW_DONE(written, RW_BTH_LEN);
}
