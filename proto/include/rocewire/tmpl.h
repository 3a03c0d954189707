/* Frame templates: the fast path of a generator or a replayer.
 *
 * A template is a RoCEv2 frame built once by rw_packet_build. Per packet,
 * only the fields that vary between packets of one kind (QP, PSN, AckReq,
 * RETH/AETH/atomic fields, ECN, UDP source port) are written into a copy of
 * its headers, and the ICRC is patched by the bytes that changed — so the
 * cost per packet does not depend on the payload length, and the payload
 * itself is never touched (it can live in buffers prepared once).
 *
 * A frame made by rw_tmpl_write() + the template's payload +
 * rw_tmpl_write_tail() is byte for byte what rw_packet_build() makes from
 * the same description; the unit tests hold it to that. */
#ifndef ROCEWIRE_TMPL_H
#define ROCEWIRE_TMPL_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"
#include "rocewire/opcode.h"
#include "rocewire/packet.h"

#define RW_TMPL_HDR_MAX 192 /* Ethernet, 4 VLAN tags, IPv6, UDP, BTH and the longest extension chain */

struct rw_tmpl {
	uint8_t hdr[RW_TMPL_HDR_MAX]; /* the template's bytes before the payload */
	uint16_t hdr_len;
	uint16_t l3_off, l4_off, bth_off;
	int16_t ext_off[RW_HDR_COUNT]; /* frame offset of each extension header (bit index), -1: absent */
	uint8_t ipv;                  /* 4 or 6 */
	uint8_t opcode;
	uint8_t pad;                  /* pad bytes between payload and ICRC */
	uint8_t eth_pad;              /* zero bytes after the ICRC up to the minimum frame */
	uint32_t payload_len;
	uint32_t frame_len;           /* hdr_len + payload_len + pad + 4 + eth_pad (no FCS) */
	uint32_t icrc;                /* the template frame's ICRC */
	uint32_t shift;               /* rw_crc32_shift(payload_len + pad) */
};

/* The fields a packet sets. Extension header fields are used only when the
 * template's opcode carries that header. */
struct rw_tmpl_fields {
	uint32_t dqpn;
	uint32_t psn;
	uint8_t ackreq;
	uint8_t se;
	uint8_t becn;
	uint8_t ecn;              /* IP ECN codepoint 0..3 */
	uint16_t udp_sport;
	struct rw_reth reth;
	struct rw_aeth aeth;      /* syndrome and msn */
	struct rw_atomiceth atomic;
	uint64_t atomic_orig;
	struct rw_deth deth;
	uint32_t immdt;
	uint32_t ieth;
};

/* Builds the template for p (a RoCEv2 description for RW_LINKTYPE_ETHERNET,
 * as rw_packet_build takes it) into scratch (cap bytes, at least the frame
 * length), which then holds the whole template frame. RW_ERR_UNSUPPORTED
 * for other carriers, RW_ERR_NOSPACE when the headers exceed
 * RW_TMPL_HDR_MAX or the frame exceeds cap. */
enum rw_err rw_tmpl_init(struct rw_tmpl *t, const struct rw_packet *p, uint8_t *scratch, size_t cap);

/* Writes the t->hdr_len header bytes of a packet with fields f into out and
 * returns its ICRC (the value to pass to rw_tmpl_write_tail). */
uint32_t rw_tmpl_write(const struct rw_tmpl *t, const struct rw_tmpl_fields *f, uint8_t *out);

/* Writes the pad, the ICRC and the Ethernet minimum-frame padding at tail,
 * the byte after the payload: t->frame_len - t->hdr_len - t->payload_len
 * bytes. */
void rw_tmpl_write_tail(const struct rw_tmpl *t, uint32_t icrc, uint8_t *tail);

/* The fields of the template itself (what rw_tmpl_write reproduces it with). */
void rw_tmpl_fields_of(const struct rw_packet *p, struct rw_tmpl_fields *f);

#endif
