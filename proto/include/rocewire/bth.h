/* SPDX-License-Identifier: BSD-3-Clause */
/* InfiniBand Base Transport Header (IBA 9.2). */
#ifndef ROCEWIRE_BTH_H
#define ROCEWIRE_BTH_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_BTH_LEN 12
#define RW_PSN_MASK 0xFFFFFFu
#define RW_QPN_MASK 0xFFFFFFu

struct rw_bth {
	uint8_t opcode;
	uint8_t se;      /* solicited event */
	uint8_t m;       /* MigReq */
	uint8_t pad;     /* PadCnt: 0..3 bytes of pad before the ICRC */
	uint8_t tver;    /* transport header version, 4 bits (0) */
	uint16_t pkey;
	uint8_t fecn;    /* RoCE: byte 4 bit 7 */
	uint8_t becn;    /* RoCE: byte 4 bit 6; set in CNPs */
	uint8_t resv6;   /* 6 reserved bits of byte 4 */
	uint32_t dqpn;   /* 24 bits */
	uint8_t ackreq;  /* A bit */
	uint8_t resv7;   /* 7 reserved bits */
	uint32_t psn;    /* 24 bits */
};

enum rw_err rw_bth_decode(const uint8_t *buf, size_t len, struct rw_bth *out);
/* Reserved bits are written as zero. INVALID when a field overflows its width. */
enum rw_err rw_bth_encode(const struct rw_bth *h, uint8_t *buf, size_t cap, size_t *written);

/* 24-bit PSN arithmetic: the signed distance from a to b in (-2^23, 2^23]. */
static inline int32_t rw_psn_diff(uint32_t b, uint32_t a)
{
	uint32_t d = (b - a) & RW_PSN_MASK;
	return d > 0x800000u ? (int32_t)d - 0x1000000 : (int32_t)d;
}

#ifdef __cplusplus
}
#endif

#endif
