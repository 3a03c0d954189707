/* SPDX-License-Identifier: BSD-3-Clause */
/* UDP header (RFC 768); RoCEv2 runs on destination port 4791 (IBA A17.2). */
#ifndef ROCEWIRE_UDP_H
#define ROCEWIRE_UDP_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_UDP_HLEN 8
#define RW_ROCEV2_PORT 4791

struct rw_udp {
	uint16_t sport;
	uint16_t dport;
	uint16_t len;      /* header + payload */
	uint16_t checksum; /* RoCEv2 senders usually send 0 */
};

/* MALFORMED when the length field is below 8. */
enum rw_err rw_udp_decode(const uint8_t *buf, size_t len, struct rw_udp *out);
enum rw_err rw_udp_encode(const struct rw_udp *h, uint8_t *buf, size_t cap, size_t *written);

#ifdef __cplusplus
}
#endif

#endif
