/* SPDX-License-Identifier: BSD-3-Clause */
/* InfiniBand Local Route Header (IBA 7.7), the first header of a native IB packet. */
#ifndef ROCEWIRE_LRH_H
#define ROCEWIRE_LRH_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_LRH_LEN 8

/* LNH: what follows the LRH (IBA 7.7.6). */
#define RW_LNH_RAW 0      /* raw packet */
#define RW_LNH_IPV6 1     /* raw IPv6 */
#define RW_LNH_IBA_LOCAL 2  /* BTH follows */
#define RW_LNH_IBA_GLOBAL 3 /* GRH, then BTH */

struct rw_lrh {
	uint8_t vl;     /* virtual lane, 4 bits */
	uint8_t lver;   /* link version, 4 bits (0) */
	uint8_t sl;     /* service level, 4 bits */
	uint8_t resv2;  /* 2 reserved bits */
	uint8_t lnh;    /* link next header, 2 bits */
	uint16_t dlid;
	uint8_t resv5;  /* 5 reserved bits */
	uint16_t pktlen; /* 11 bits: 4-byte words from the LRH through the ICRC (not the VCRC) */
	uint16_t slid;
};

enum rw_err rw_lrh_decode(const uint8_t *buf, size_t len, struct rw_lrh *out);
/* Reserved bits are written as zero. INVALID when a field overflows its width. */
enum rw_err rw_lrh_encode(const struct rw_lrh *h, uint8_t *buf, size_t cap, size_t *written);

#ifdef __cplusplus
}
#endif

#endif
