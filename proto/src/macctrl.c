/* SPDX-License-Identifier: BSD-3-Clause */
/* MAC control frames (IEEE 802.3 Annex 31B PAUSE, IEEE 802.1Qbb PFC). */
#include "codec.h"
#include "rocewire/macctrl.h"
#include "rocewire/wire.h"

enum rw_err rw_macctrl_decode(const uint8_t *buf, size_t len, struct rw_macctrl *out)
{
	RW_NEED(len, 2);
	out->opcode = rw_get_be16(buf);
	out->cev = 0;
	for (unsigned i = 0; i < RW_PFC_PRIORITIES; i++)
		out->quanta[i] = 0;
	if (out->opcode == RW_MACCTRL_PAUSE) {
		RW_NEED(len, RW_PAUSE_LEN);
		out->quanta[0] = rw_get_be16(buf + 2);
		return RW_OK;
	}
	if (out->opcode == RW_MACCTRL_PFC) {
		RW_NEED(len, RW_PFC_LEN);
		out->cev = rw_get_be16(buf + 2);
		for (unsigned i = 0; i < RW_PFC_PRIORITIES; i++)
			out->quanta[i] = rw_get_be16(buf + 4 + 2 * i);
		return RW_OK;
	}
	return RW_ERR_UNSUPPORTED;
}

enum rw_err rw_macctrl_encode(const struct rw_macctrl *h, uint8_t *buf, size_t cap,
			      size_t *written)
{
	if (h->opcode == RW_MACCTRL_PAUSE) {
		RW_ROOM(cap, RW_PAUSE_LEN);
		rw_put_be16(buf, h->opcode);
		rw_put_be16(buf + 2, h->quanta[0]);
		RW_DONE(written, RW_PAUSE_LEN);
	}
	if (h->opcode == RW_MACCTRL_PFC) {
		/* 802.1Qbb 36.1.3.1: the upper byte of the vector is reserved. */
		RW_FITS(h->cev, 8);
		RW_ROOM(cap, RW_PFC_LEN);
		rw_put_be16(buf, h->opcode);
		rw_put_be16(buf + 2, h->cev);
		for (unsigned i = 0; i < RW_PFC_PRIORITIES; i++)
			rw_put_be16(buf + 4 + 2 * i, h->quanta[i]);
		RW_DONE(written, RW_PFC_LEN);
	}
	return RW_ERR_INVALID;
}
