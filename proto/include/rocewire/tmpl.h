/* SPDX-License-Identifier: BSD-3-Clause */
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
#include "rocewire/wire.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* ---- a frame kept from packet to packet ----
 * A sender that stamps a template's whole frame into a buffer once, and
 * sends only that frame's packets from it, writes per packet only the
 * fields that change: the UDP source port, the BTH's destination QP and
 * PSN (IBA 9.2), UD's source QP (DETH, 9.3.2), the virtual address (RETH
 * 9.3.3 or AtomicETH 9.3.4) and the ICRC after the payload and pad. A
 * stamp is where they are in t's frame and the template's bits that share
 * their words (FECN/BECN, AckReq, reserved): a packet only stores into its
 * buffer (a load from a buffer last written hundreds of packets ago waits
 * for the cache). */
struct rw_tmpl_stamp {
	uint16_t sport_at, dqpn_at, psn_at; /* frame offsets of the 16- and 32-bit words */
	uint16_t sqpn_at, va_at;            /* 0: the template has no DETH / no VA */
	uint16_t icrc_at;
	uint32_t dqpn_hi, psn_hi, sqpn_hi;  /* the template's top byte of those words */
};

void rw_tmpl_stamp_init(const struct rw_tmpl *t, struct rw_tmpl_stamp *st);

static inline void rw_tmpl_put_udp_sport(const struct rw_tmpl_stamp *st, uint8_t *frame, uint16_t sport)
{
	rw_put_be16(frame + st->sport_at, sport);
}

static inline void rw_tmpl_put_dqpn(const struct rw_tmpl_stamp *st, uint8_t *frame, uint32_t dqpn)
{
	rw_put_be32(frame + st->dqpn_at, st->dqpn_hi | (dqpn & 0xFFFFFFu));
}

static inline void rw_tmpl_put_psn(const struct rw_tmpl_stamp *st, uint8_t *frame, uint32_t psn)
{
	rw_put_be32(frame + st->psn_at, st->psn_hi | (psn & 0xFFFFFFu));
}

/* The template must carry a DETH (st->sqpn_at != 0). */
static inline void rw_tmpl_put_sqpn(const struct rw_tmpl_stamp *st, uint8_t *frame, uint32_t sqpn)
{
	rw_put_be32(frame + st->sqpn_at, st->sqpn_hi | (sqpn & 0xFFFFFFu));
}

/* The template must carry a RETH or AtomicETH (st->va_at != 0). */
static inline void rw_tmpl_put_va(const struct rw_tmpl_stamp *st, uint8_t *frame, uint64_t va)
{
	rw_put_be64(frame + st->va_at, va);
}

static inline void rw_tmpl_put_icrc(const struct rw_tmpl_stamp *st, uint8_t *frame, uint32_t icrc)
{
	rw_put_le32(frame + st->icrc_at, icrc);
}

/* The fields of the template itself (what rw_tmpl_write reproduces it with). */
void rw_tmpl_fields_of(const struct rw_packet *p, struct rw_tmpl_fields *f);
/* The mirror: f's fields into the description p, for rw_packet_build or
 * rw_tmpl_init (the BTH's, the extension headers' with the AETH's kind and
 * value from its syndrome, the ECN of the IP header p has, the UDP source
 * port). The rest of p is left as it is. */
void rw_tmpl_fields_apply(const struct rw_tmpl_fields *f, struct rw_packet *p);

/* ---- the fast ICRC of a generator's steady state ----
 *
 * The ICRC is linear in the frame's bits, so what a changed byte adds to it
 * depends only on the XOR of its old and new values and on how many bytes
 * follow it: one 256-entry table per byte position turns a changed byte
 * into one load. Tables are kept for the bytes a generator changes packet
 * by packet (UDP source port, the BTH's SE, destination QP, AckReq and PSN,
 * and the first extension bytes that vary per message: the RETH or
 * AtomicETH virtual address, the AETH, the original value of an atomic
 * ACK); any other byte that differs from the template is patched the
 * general way, so every field may still change. */
#define RW_TMPL_FAST_BYTES 22
#define RW_TMPL_FAST_SPAN 64 /* bytes from the UDP header to the payload it handles */

struct rw_tmpl_fast {
	uint32_t tab[RW_TMPL_FAST_BYTES][256]; /* ICRC change by (old XOR new) of tracked byte i */
	uint16_t off[RW_TMPL_FAST_BYTES];      /* frame offset of tracked byte i */
	uint8_t pos[RW_TMPL_FAST_BYTES];       /* its offset from the UDP header */
	uint8_t n;                             /* tracked bytes */
	uint8_t words;                         /* 8-byte words from l4_off to the payload */
	uint8_t any_len;                       /* rw_tmpl_fast_init_any: times t->shift per packet */
	uint16_t hdrs;                         /* the template's extension headers (enum rw_hdr mask) */
	uint8_t psn_at;                        /* tracked index of the PSN's first byte */
	uint8_t va_at;                         /* of the RETH's or AtomicETH's VA; 0xFF: none */
	uint64_t other[RW_TMPL_FAST_SPAN / 8]; /* 0xFF on the bytes not tracked, in that span */
};

/* Fills fs for template t: a few microseconds, for a template that will
 * send many packets. RW_ERR_UNSUPPORTED when its headers from UDP on exceed
 * RW_TMPL_FAST_SPAN. */
enum rw_err rw_tmpl_fast_init(const struct rw_tmpl *t, struct rw_tmpl_fast *fs);
/* Tables that serve every template with t's headers (the same carrier and
 * opcode) whatever its payload length: they stop at the end of the headers,
 * and rw_tmpl_write_fast moves their sum over the payload by one multiply
 * per packet. For traffic whose templates are each used too rarely to get
 * tables of their own (a spread of message sizes). */
enum rw_err rw_tmpl_fast_init_any(const struct rw_tmpl *t, struct rw_tmpl_fast *fs);

/* rw_tmpl_write() with the ICRC from fs's tables: the same bytes and the
 * same ICRC. fs comes from rw_tmpl_fast_init(t), or from
 * rw_tmpl_fast_init_any() on a template with the same headers as t. */
uint32_t rw_tmpl_write_fast(const struct rw_tmpl *t, const struct rw_tmpl_fast *fs,
			    const struct rw_tmpl_fields *f, uint8_t *out);

/* What XOR-ing x into the n (1 to 8) tracked bytes from index i (a
 * field's bytes in wire order, as psn_at and va_at give them) adds to the
 * ICRC of fs's template: for a sender that writes a field itself and keeps
 * its ICRC by the field alone (a PSN as 3 bytes, a VA as 8). */
static inline uint32_t rw_tmpl_fast_xor(const struct rw_tmpl_fast *fs, unsigned i, unsigned n, uint64_t x)
{
	uint32_t d = 0;

	for (unsigned j = 0; j < n; j++)
		d ^= fs->tab[i + j][(uint8_t)(x >> (8 * (n - 1 - j)))];
	return d;
}

#ifdef __cplusplus
}
#endif

#endif
