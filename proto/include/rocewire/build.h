/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole-frame encode: the inverse of rw_packet_decode. */
#ifndef ROCEWIRE_BUILD_H
#define ROCEWIRE_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/packet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Build flags. */
#define RW_BUILD_RAW_LENGTHS 0x1 /* keep the length/checksum fields given in p */
#define RW_BUILD_KEEP_PAD 0x2    /* keep p->bth.pad instead of deriving it */
#define RW_BUILD_BAD_ICRC 0x4    /* write a wrong ICRC (for tests) */
#define RW_BUILD_NO_PAD_FRAME 0x8 /* do not pad short Ethernet frames to 60 bytes */

/* Writes the frame p describes into buf, for the link type linktype
 * (Ethernet, InfiniBand, SLL, SLL2, ERF). What is written is chosen by
 * p->carrier, p->present (RW_P_IPV4/IPV6, RW_P_GRH for native IB, RW_P_ERF /
 * RW_P_SLL wrappers are implied by the link type), p->n_vlan and the opcode
 * table for p->bth.opcode (which extension headers). Payload comes from
 * p->payload/p->payload_len (zeros when payload is NULL). Unless flags say
 * otherwise, the encoder derives IPv4 IHL/total length/checksum, IPv6 payload
 * length, UDP length (UDP destination port 4791 when p->udp.dport is 0), LRH
 * packet length, GRH payload length, the BTH pad count, the ICRC and the
 * VCRC. Returns RW_OK and the frame length in *written. */
enum rw_err rw_packet_build(const struct rw_packet *p, int linktype, unsigned flags, uint8_t *buf,
			    size_t cap, size_t *written);

#ifdef __cplusplus
}
#endif

#endif
