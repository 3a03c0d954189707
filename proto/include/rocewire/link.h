/* SPDX-License-Identifier: BSD-3-Clause */
/* Capture link-layer framings that wrap the carriers: Linux cooked capture
 * (SLL, SLL2; what `-i any` gives) and Endace ERF records (how ibdump saves
 * native InfiniBand). Link types use the pcap LINKTYPE numbers. */
#ifndef ROCEWIRE_LINK_H
#define ROCEWIRE_LINK_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_LINKTYPE_ETHERNET 1
#define RW_LINKTYPE_LINUX_SLL 113
#define RW_LINKTYPE_ERF 197
#define RW_LINKTYPE_INFINIBAND 247
#define RW_LINKTYPE_LINUX_SLL2 276

#define RW_SLL_LEN 16
#define RW_SLL2_LEN 20
#define RW_ERF_LEN 16
#define RW_ERF_EXT_LEN 8
/* Extension headers rw_erf_decode() walks before calling the record
 * malformed. ERF itself sets no limit but rlen; capture cards write a
 * handful (flow ID, hash, channel), so hundreds mean a damaged record, not
 * one to decode. 254 is the limit of the 8-bit count n_ext once was. */
#define RW_ERF_MAX_EXT 254

/* ERF record types that carry what rocewire reads. */
#define RW_ERF_TYPE_ETH 2
#define RW_ERF_TYPE_COLOR_ETH 11
#define RW_ERF_TYPE_DSM_COLOR_ETH 16
#define RW_ERF_TYPE_COLOR_HASH_ETH 20
#define RW_ERF_TYPE_INFINIBAND 21
#define RW_ERF_TYPE_INFINIBAND_LINK 25

struct rw_sll {
	uint16_t pkttype;   /* 0 to us, 4 sent by us, ... */
	uint16_t hatype;    /* ARPHRD_* */
	uint16_t addr_len;
	uint8_t addr[8];
	uint16_t protocol;  /* ethertype of what follows */
	uint32_t ifindex;   /* SLL2 only */
};

struct rw_erf {
	uint64_t ts;        /* ERF fixed-point timestamp, little-endian on the wire */
	uint8_t type;       /* record type, without the extension bit */
	uint8_t flags;
	uint16_t rlen;      /* record length, header included */
	uint16_t lctr;      /* loss counter or colour */
	uint16_t wlen;      /* original length on the wire */
	uint16_t n_ext;     /* extension headers skipped; see rw_erf_decode() for MALFORMED */
	uint8_t ext_more;   /* MALFORMED, too many: the chain goes on past those counted */
	uint16_t hlen;      /* bytes before the carried frame: header, extensions, Ethernet pad */
};

enum rw_err rw_sll_decode(const uint8_t *buf, size_t len, struct rw_sll *out);
enum rw_err rw_sll2_decode(const uint8_t *buf, size_t len, struct rw_sll *out);
enum rw_err rw_sll_encode(const struct rw_sll *h, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_sll2_encode(const struct rw_sll *h, uint8_t *buf, size_t cap, size_t *written);
/* UNSUPPORTED for record types other than Ethernet and InfiniBand. On
 * TRUNCATED, out->hlen is the header length the record needs, as far as the
 * captured bytes tell (its extension headers, the Ethernet pad). MALFORMED
 * with out->n_ext > RW_ERF_MAX_EXT: too many extension headers, n_ext of
 * them counted in the captured bytes (ext_more: and more follow);
 * MALFORMED otherwise: rlen is below the header length. */
enum rw_err rw_erf_decode(const uint8_t *buf, size_t len, struct rw_erf *out);
/* Writes a 16-byte header without extensions (plus the 2-byte pad for
 * Ethernet types); rlen/wlen are taken from h. */
enum rw_err rw_erf_encode(const struct rw_erf *h, uint8_t *buf, size_t cap, size_t *written);

#ifdef __cplusplus
}
#endif

#endif
