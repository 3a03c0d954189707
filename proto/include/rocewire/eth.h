/* SPDX-License-Identifier: BSD-3-Clause */
/* Ethernet II, 802.1Q/802.1ad VLAN tags, and the ethertypes RoCE uses. */
#ifndef ROCEWIRE_ETH_H
#define ROCEWIRE_ETH_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_ETH_HLEN 14
#define RW_VLAN_HLEN 4
#define RW_ETH_MIN_FRAME 60 /* without FCS */

#define RW_ETHERTYPE_IPV4 0x0800
#define RW_ETHERTYPE_IPV6 0x86DD
#define RW_ETHERTYPE_ARP 0x0806
#define RW_ETHERTYPE_VLAN 0x8100 /* 802.1Q C-tag */
#define RW_ETHERTYPE_QINQ 0x88A8 /* 802.1ad S-tag */
#define RW_ETHERTYPE_QINQ_OLD 0x9100 /* pre-standard S-tag, still seen */
#define RW_ETHERTYPE_ROCEV1 0x8915
#define RW_ETHERTYPE_MACCTRL 0x8808
/* IPoIB (RFC 4391 6): an ethertype and 2 reserved bytes lead the payload. */
#define RW_IPOIB_HLEN 4
#define RW_ARPHRD_INFINIBAND 32 /* ARP's hardware type over IPoIB (RFC 4391 9.1.1) */

struct rw_eth {
	uint8_t dst[6];
	uint8_t src[6];
	uint16_t ethertype;
};

/* One VLAN tag as found after a TPID: the TCI and the ethertype that follows. */
struct rw_vlan {
	uint16_t tpid; /* the ethertype that announced this tag */
	uint8_t pcp;   /* priority code point, 3 bits: PFC priority */
	uint8_t dei;
	uint16_t vid;  /* 12 bits */
	uint16_t ethertype; /* of what follows the tag */
};

static inline int rw_ethertype_is_vlan(uint16_t t)
{
	return t == RW_ETHERTYPE_VLAN || t == RW_ETHERTYPE_QINQ || t == RW_ETHERTYPE_QINQ_OLD;
}

enum rw_err rw_eth_decode(const uint8_t *buf, size_t len, struct rw_eth *out);
enum rw_err rw_eth_encode(const struct rw_eth *h, uint8_t *buf, size_t cap, size_t *written);

/* buf points at the TCI (just after the TPID); out->tpid is set from tpid. */
enum rw_err rw_vlan_decode(const uint8_t *buf, size_t len, uint16_t tpid, struct rw_vlan *out);
/* Writes TCI and the inner ethertype (4 bytes); the TPID is written by the
 * header before it. */
enum rw_err rw_vlan_encode(const struct rw_vlan *h, uint8_t *buf, size_t cap, size_t *written);

#ifdef __cplusplus
}
#endif

#endif
