/* SPDX-License-Identifier: BSD-3-Clause */
/* Transport extension headers (IBA 9.3) and the RoCEv2 CNP body (A17.9.3). */
#include "codec.h"
#include "rocewire/ext.h"
#include "rocewire/wire.h"

/* RDETH and XRCETH share a layout: 8 reserved bits, a 24-bit number. */
static enum rw_err resv8_u24_decode(const uint8_t *buf, size_t len, uint8_t *resv, uint32_t *v)
{
	RW_NEED(len, 4);
	*resv = buf[0];
	*v = rw_get_be24(buf + 1);
	return RW_OK;
}

static enum rw_err resv8_u24_encode(uint32_t v, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(v, 24);
	RW_ROOM(cap, 4);
	rw_put_be32(buf, v);
	RW_DONE(written, 4);
}

enum rw_err rw_rdeth_decode(const uint8_t *buf, size_t len, struct rw_rdeth *out)
{
	return resv8_u24_decode(buf, len, &out->resv8, &out->een);
}

enum rw_err rw_rdeth_encode(const struct rw_rdeth *h, uint8_t *buf, size_t cap, size_t *written)
{
	return resv8_u24_encode(h->een, buf, cap, written);
}

enum rw_err rw_xrceth_decode(const uint8_t *buf, size_t len, struct rw_xrceth *out)
{
	return resv8_u24_decode(buf, len, &out->resv8, &out->xrcsrq);
}

enum rw_err rw_xrceth_encode(const struct rw_xrceth *h, uint8_t *buf, size_t cap, size_t *written)
{
	return resv8_u24_encode(h->xrcsrq, buf, cap, written);
}

enum rw_err rw_deth_decode(const uint8_t *buf, size_t len, struct rw_deth *out)
{
	RW_NEED(len, RW_DETH_LEN);
	out->qkey = rw_get_be32(buf);
	out->resv8 = buf[4];
	out->sqpn = rw_get_be24(buf + 5);
	return RW_OK;
}

enum rw_err rw_deth_encode(const struct rw_deth *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->sqpn, 24);
	RW_ROOM(cap, RW_DETH_LEN);
	rw_put_be32(buf, h->qkey);
	rw_put_be32(buf + 4, h->sqpn);
	RW_DONE(written, RW_DETH_LEN);
}

/* FETH (IBA 1.5, 9.3.8): 26 reserved bits, SEL (2), PLT (4). */
enum rw_err rw_feth_decode(const uint8_t *buf, size_t len, struct rw_feth *out)
{
	RW_NEED(len, RW_FETH_LEN);
	uint32_t w = rw_get_be32(buf);
	out->resv26 = w >> 6;
	out->sel = (uint8_t)(w >> 4 & 3);
	out->plt = (uint8_t)(w & 0x0F);
	return RW_OK;
}

enum rw_err rw_feth_encode(const struct rw_feth *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->sel, 2);
	RW_FITS(h->plt, 4);
	RW_ROOM(cap, RW_FETH_LEN);
	rw_put_be32(buf, (uint32_t)h->sel << 4 | h->plt);
	RW_DONE(written, RW_FETH_LEN);
}

enum rw_err rw_reth_decode(const uint8_t *buf, size_t len, struct rw_reth *out)
{
	RW_NEED(len, RW_RETH_LEN);
	out->va = rw_get_be64(buf);
	out->rkey = rw_get_be32(buf + 8);
	out->dmalen = rw_get_be32(buf + 12);
	return RW_OK;
}

enum rw_err rw_reth_encode(const struct rw_reth *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_ROOM(cap, RW_RETH_LEN);
	rw_put_be64(buf, h->va);
	rw_put_be32(buf + 8, h->rkey);
	rw_put_be32(buf + 12, h->dmalen);
	RW_DONE(written, RW_RETH_LEN);
}

enum rw_err rw_atomiceth_decode(const uint8_t *buf, size_t len, struct rw_atomiceth *out)
{
	RW_NEED(len, RW_ATOMICETH_LEN);
	out->va = rw_get_be64(buf);
	out->rkey = rw_get_be32(buf + 8);
	out->swap_add = rw_get_be64(buf + 12);
	out->compare = rw_get_be64(buf + 20);
	return RW_OK;
}

enum rw_err rw_atomiceth_encode(const struct rw_atomiceth *h, uint8_t *buf, size_t cap,
				size_t *written)
{
	RW_ROOM(cap, RW_ATOMICETH_LEN);
	rw_put_be64(buf, h->va);
	rw_put_be32(buf + 8, h->rkey);
	rw_put_be64(buf + 12, h->swap_add);
	rw_put_be64(buf + 20, h->compare);
	RW_DONE(written, RW_ATOMICETH_LEN);
}

enum rw_err rw_aeth_decode(const uint8_t *buf, size_t len, struct rw_aeth *out)
{
	RW_NEED(len, RW_AETH_LEN);
	out->syndrome = buf[0];
	out->msn = rw_get_be24(buf + 1);
	/* IBA 9.7.5.2: bit 7 is reserved (0), bits 6:5 the kind, 4:0 its value. */
	out->kind = (uint8_t)rw_aeth_kind_of(out->syndrome);
	out->value = rw_aeth_value_of(out->syndrome);
	return RW_OK;
}

enum rw_err rw_aeth_encode(const struct rw_aeth *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_FITS(h->msn, 24);
	RW_ROOM(cap, RW_AETH_LEN);
	buf[0] = h->syndrome;
	rw_put_be24(buf + 1, h->msn);
	RW_DONE(written, RW_AETH_LEN);
}

enum rw_err rw_atomicacketh_decode(const uint8_t *buf, size_t len, struct rw_atomicacketh *out)
{
	RW_NEED(len, RW_ATOMICACKETH_LEN);
	out->orig = rw_get_be64(buf);
	return RW_OK;
}

enum rw_err rw_atomicacketh_encode(const struct rw_atomicacketh *h, uint8_t *buf, size_t cap,
				   size_t *written)
{
	RW_ROOM(cap, RW_ATOMICACKETH_LEN);
	rw_put_be64(buf, h->orig);
	RW_DONE(written, RW_ATOMICACKETH_LEN);
}

enum rw_err rw_u32_decode(const uint8_t *buf, size_t len, uint32_t *out)
{
	RW_NEED(len, 4);
	*out = rw_get_be32(buf);
	return RW_OK;
}

enum rw_err rw_u32_encode(uint32_t v, uint8_t *buf, size_t cap, size_t *written)
{
	RW_ROOM(cap, 4);
	rw_put_be32(buf, v);
	RW_DONE(written, 4);
}

enum rw_err rw_cnp_decode(const uint8_t *buf, size_t len, int *nonzero)
{
	RW_NEED(len, RW_CNP_LEN);
	uint8_t any = 0;
	for (unsigned i = 0; i < RW_CNP_LEN; i++)
		any |= buf[i];
	*nonzero = any != 0;
	return RW_OK;
}

enum rw_err rw_cnp_encode(uint8_t *buf, size_t cap, size_t *written)
{
	RW_ROOM(cap, RW_CNP_LEN);
	for (unsigned i = 0; i < RW_CNP_LEN; i++)
		buf[i] = 0;
	RW_DONE(written, RW_CNP_LEN);
}

const char *rw_aeth_kind_name(enum rw_aeth_kind kind)
{
	static const char *const names[] = {
		[RW_AETH_ACK] = "ACK", [RW_AETH_RNR_NAK] = "RNR NAK", [RW_AETH_RESERVED] = "reserved",
		[RW_AETH_NAK] = "NAK",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == 4, "names: the four AETH kinds (2 bits)");
	return names[kind & 3];
}

const char *rw_nak_code_name(uint8_t code)
{
	static const char *const names[] = {
		[RW_NAK_PSN_SEQ_ERROR] = "PSN sequence error",
		[RW_NAK_INVALID_REQUEST] = "invalid request",
		[RW_NAK_REMOTE_ACCESS] = "remote access error",
		[RW_NAK_REMOTE_OPERATIONAL] = "remote operational error",
		[RW_NAK_INVALID_RD_REQUEST] = "invalid RD request",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == RW_NAK_INVALID_RD_REQUEST + 1,
		       "names: every enum rw_nak_code");
	return code < sizeof(names) / sizeof(names[0]) ? names[code] : "reserved";
}

uint32_t rw_rnr_timer_us(uint8_t code)
{
	/* IBA Table 45, in microseconds; code 0 is the longest wait. */
	static const uint32_t us[32] = {
		655360, 10,	20,	30,	40,	60,	80,	120,	160,	240,	320,
		480,	640,	960,	1280,	1920,	2560,	3840,	5120,	7680,	10240,	15360,
		20480,	30720,	40960,	61440,	81920,	122880, 163840, 245760, 327680, 491520,
	};
	return us[code & 31];
}

int rw_aeth_credits(uint8_t code)
{
	/* IBA Table 44: 0..4 literally, then alternately x1.5 and x1.33 (6, 8,
	 * 12, 16, ...) up to 32768; 31 means "invalid". */
	code &= 31;
	if (code == 31)
		return -1;
	if (code <= 4)
		return code;
	int base = 1 << ((code - 1) / 2);   /* 5,6 -> 4; 7,8 -> 8; ... */
	return (code & 1) ? base + base / 2 : base * 2;
}
