/* SPDX-License-Identifier: BSD-3-Clause */
/* InfiniBand Global Route Header (IBA 8.3): RoCEv1 and routed native IB. */
#ifndef ROCEWIRE_GRH_H
#define ROCEWIRE_GRH_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_GRH_LEN 40
#define RW_GRH_NXTHDR_IBA 0x1B /* IBA 8.3.1: the BTH follows */

struct rw_grh {
	uint8_t ipver;      /* 4 bits, 6 */
	uint8_t tclass;
	uint32_t flow_label; /* 20 bits */
	uint16_t paylen;    /* bytes after the GRH through the ICRC */
	uint8_t nxthdr;
	uint8_t hoplmt;
	uint8_t sgid[16];
	uint8_t dgid[16];
};

/* MALFORMED for IPVer != 6. */
enum rw_err rw_grh_decode(const uint8_t *buf, size_t len, struct rw_grh *out);
enum rw_err rw_grh_encode(const struct rw_grh *h, uint8_t *buf, size_t cap, size_t *written);

#ifdef __cplusplus
}
#endif

#endif
