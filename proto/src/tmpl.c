/* SPDX-License-Identifier: BSD-3-Clause */
/* Frame templates: build once, then patch the varying fields and the ICRC.
 *
 * Offsets come from decoding the built frame (the decoder is the one place
 * that walks carriers), from the opcode table (extension header order) and,
 * within a header, from the field tables (fields.h: RW_FIELD rows, constant
 * at compile time, so each rw_field_put() below folds to its stores);
 * nothing here re-derives a header layout. */
#include "rocewire/tmpl.h"

#include <string.h>
#include "rocewire/build.h"
#include "rocewire/crc.h"
#include "rocewire/fields.h"
#include "rocewire/icrc.h"
#include "rocewire/link.h"
#include "rocewire/wire.h"

enum rw_err rw_tmpl_init(struct rw_tmpl *t, const struct rw_packet *p, uint8_t *scratch, size_t cap)
{
	struct rw_packet d;
	size_t n;
	enum rw_err e;

	if (p->carrier != RW_CARRIER_ROCEV2)
		return RW_ERR_UNSUPPORTED;
	e = rw_packet_build(p, RW_LINKTYPE_ETHERNET, 0, scratch, cap, &n);
	if (e != RW_OK)
		return e;
	e = rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, scratch, n, n, &d);
	if (e != RW_OK)
		return e;
	if (d.carrier != RW_CARRIER_ROCEV2 || d.payload_off > RW_TMPL_HDR_MAX)
		return d.carrier != RW_CARRIER_ROCEV2 ? RW_ERR_UNSUPPORTED : RW_ERR_NOSPACE;

	memset(t, 0, sizeof(*t));
	memcpy(t->hdr, scratch, d.payload_off);
	t->hdr_len = d.payload_off;
	t->l3_off = d.l3_off;
	t->l4_off = d.l4_off;
	t->bth_off = d.bth_off;
	t->ipv = (d.present & RW_P_IPV6) ? 6 : 4;
	t->opcode = d.bth.opcode;
	t->pad = d.bth.pad;
	t->payload_len = d.payload_len;
	t->frame_len = (uint32_t)n;
	t->eth_pad = (uint8_t)(n - (d.payload_off + d.payload_len + d.bth.pad + RW_ICRC_LEN));
	t->icrc = d.icrc_wire;
	t->shift = rw_crc32_shift((size_t)d.payload_len + d.bth.pad);
	for (unsigned i = 0; i < RW_HDR_COUNT; i++) {
		int o = rw_hdr_offset(t->opcode, (enum rw_hdr)(1u << i));
		t->ext_off[i] = (int16_t)(o < 0 ? -1 : t->bth_off + o);
	}
	return RW_OK;
}

/* ext_off is indexed by the header's bit number in enum rw_hdr. */
#define HDR_IDX(h) ((unsigned)__builtin_ctz(h))

static inline int has(const struct rw_tmpl *t, enum rw_hdr h)
{
	return t->ext_off[HDR_IDX(h)] >= 0;
}

static inline uint8_t *ext(const struct rw_tmpl *t, uint8_t *out, enum rw_hdr h)
{
	return out + t->ext_off[HDR_IDX(h)];
}

/* IPv4 ECN and the header checksum after it (RFC 1624 eqn. 3):
 * HC' = ~(~HC + ~m + m'), m the 16-bit word holding the TOS byte (the
 * checksum sums the header as 16-bit words from an even offset). */
static void ipv4_ecn_set(uint8_t *ip, unsigned ecn)
{
	const struct rw_field *e = RW_FIELD(IPV4_ECN), *c = RW_FIELD(IPV4_CHECKSUM);
	uint8_t *word = ip + (e->off & ~1u);
	uint16_t m_old = rw_get_be16(word), m_new;
	uint32_t sum;

	rw_field_put(e, ip, ecn);
	m_new = rw_get_be16(word);
	if (m_old == m_new)
		return;
	sum = (uint16_t)~rw_field_peek(c, ip);
	sum += (uint16_t)~m_old;
	sum += m_new;
	sum = (sum & 0xFFFFu) + (sum >> 16);
	sum = (sum & 0xFFFFu) + (sum >> 16);
	rw_field_put(c, ip, (uint16_t)~sum);
}

/* The UDP source port and the BTH fields a packet sets (IBA 9.2), over the
 * template's bytes at out: the bits they share a byte with (M, PadCnt,
 * reserved) stay the template's. */
static inline void put_bth(const struct rw_tmpl *t, const struct rw_tmpl_fields *f, uint8_t *out)
{
	uint8_t *bth = out + t->bth_off;

	rw_field_put(RW_FIELD(UDP_SPORT), out + t->l4_off, f->udp_sport);
	rw_field_put(RW_FIELD(BTH_SE), bth, f->se != 0);
	rw_field_put(RW_FIELD(BTH_DQPN), bth, f->dqpn);
	rw_field_put(RW_FIELD(BTH_ACKREQ), bth, f->ackreq != 0);
	rw_field_put(RW_FIELD(BTH_PSN), bth, f->psn);
}

/* Copies the template's headers to out and writes the fields the ICRC
 * covers. */
static inline void put_fields(const struct rw_tmpl *t, const struct rw_tmpl_fields *f, uint8_t *out)
{
	size_t w;

	memcpy(out, t->hdr, t->hdr_len);
	put_bth(t, f, out);
	/* The encoders cannot fail here: the template made room for each. */
	if (has(t, RW_HDR_DETH))
		(void)rw_deth_encode(&f->deth, ext(t, out, RW_HDR_DETH), RW_DETH_LEN, &w);
	if (has(t, RW_HDR_RETH))
		(void)rw_reth_encode(&f->reth, ext(t, out, RW_HDR_RETH), RW_RETH_LEN, &w);
	if (has(t, RW_HDR_ATOMICETH))
		(void)rw_atomiceth_encode(&f->atomic, ext(t, out, RW_HDR_ATOMICETH), RW_ATOMICETH_LEN, &w);
	if (has(t, RW_HDR_AETH))
		(void)rw_aeth_encode(&f->aeth, ext(t, out, RW_HDR_AETH), RW_AETH_LEN, &w);
	if (has(t, RW_HDR_ATOMICACKETH))
		rw_field_put(RW_FIELD(ATOMICACKETH_ORIG), ext(t, out, RW_HDR_ATOMICACKETH), f->atomic_orig);
	if (has(t, RW_HDR_IMMDT))
		rw_field_put(RW_FIELD(IMMDT_DATA), ext(t, out, RW_HDR_IMMDT), f->immdt);
	if (has(t, RW_HDR_IETH))
		rw_field_put(RW_FIELD(IETH_RKEY), ext(t, out, RW_HDR_IETH), f->ieth);
}

/* Writes the fields the ICRC masks: BECN, and the ECN bits (IPv4 TOS with
 * its header checksum, IPv6 traffic class). */
static inline void put_masked(const struct rw_tmpl *t, const struct rw_tmpl_fields *f, uint8_t *out)
{
	uint8_t *ip = out + t->l3_off;

	rw_field_put(RW_FIELD(BTH_BECN), out + t->bth_off, f->becn != 0);
	if (t->ipv == 4) {
		if (rw_field_peek(RW_FIELD(IPV4_ECN), ip) != (f->ecn & 3u)) /* the template's, mostly */
			ipv4_ecn_set(ip, f->ecn & 3u);
	} else
		rw_field_put(RW_FIELD(IPV6_ECN), ip, f->ecn & 3u);
}

uint32_t rw_tmpl_write(const struct rw_tmpl *t, const struct rw_tmpl_fields *f, uint8_t *out)
{
	uint32_t icrc;

	put_fields(t, f, out);
	/* Every byte from the UDP header to the payload may have changed; the
	 * masked ones (UDP checksum, BTH byte 4) are still the template's here,
	 * so they add nothing to the difference. */
	icrc = rw_crc32_patch_shift(t->icrc, t->hdr + t->l4_off, out + t->l4_off,
				    (size_t)t->hdr_len - t->l4_off, t->shift);
	put_masked(t, f, out);
	return icrc;
}

/* Tracks the bytes [o, o + n) of the template, as far as there is room. */
static void track(struct rw_tmpl_fast *fs, int o, unsigned n)
{
	for (unsigned i = 0; o >= 0 && i < n && fs->n < RW_TMPL_FAST_BYTES; i++)
		fs->off[fs->n++] = (uint16_t)(o + (int)i);
}

/* Tracks the bytes of field f of the header at frame offset h (-1: the
 * template has no such header). */
static void track_field(struct rw_tmpl_fast *fs, int h, const struct rw_field *f)
{
	track(fs, h < 0 ? -1 : h + f->off, f->size);
}

static enum rw_err fast_init(const struct rw_tmpl *t, struct rw_tmpl_fast *fs, int any_len)
{
	unsigned span = (unsigned)t->hdr_len - t->l4_off;
	uint8_t other[RW_TMPL_FAST_SPAN];

	if (span > RW_TMPL_FAST_SPAN)
		return RW_ERR_UNSUPPORTED;
	memset(fs, 0, sizeof(*fs));
	track_field(fs, t->l4_off, RW_FIELD(UDP_SPORT));
	track_field(fs, t->bth_off, RW_FIELD(BTH_SE));
	track_field(fs, t->bth_off, RW_FIELD(BTH_DQPN));
	track_field(fs, t->bth_off, RW_FIELD(BTH_ACKREQ));
	fs->psn_at = fs->n;
	track_field(fs, t->bth_off, RW_FIELD(BTH_PSN));
	fs->va_at = t->ext_off[HDR_IDX(RW_HDR_RETH)] >= 0 || t->ext_off[HDR_IDX(RW_HDR_ATOMICETH)] >= 0 ? fs->n : 0xFF;
	track_field(fs, t->ext_off[HDR_IDX(RW_HDR_RETH)], RW_FIELD(RETH_VA));
	track_field(fs, t->ext_off[HDR_IDX(RW_HDR_ATOMICETH)], RW_FIELD(ATOMICETH_VA));
	track_field(fs, t->ext_off[HDR_IDX(RW_HDR_AETH)], RW_FIELD(AETH_SYNDROME));
	track_field(fs, t->ext_off[HDR_IDX(RW_HDR_AETH)], RW_FIELD(AETH_MSN));
	track_field(fs, t->ext_off[HDR_IDX(RW_HDR_ATOMICACKETH)], RW_FIELD(ATOMICACKETH_ORIG));
	memset(other, 0xFF, sizeof(other));
	memset(other + span, 0, sizeof(other) - span);
	for (unsigned i = 0; i < fs->n; i++) {
		/* Bytes after this one up to the ICRC: the rest of the headers,
		 * the payload and the pad. */
		size_t tail = (size_t)t->hdr_len - fs->off[i] - 1 + (any_len ? 0 : t->payload_len + t->pad);
		uint32_t bit[8], shift = rw_crc32_shift(tail);
		const uint8_t zero = 0;

		for (unsigned b = 0; b < 8; b++) {
			uint8_t v = (uint8_t)(1u << b);
			bit[b] = rw_crc32_patch_shift(0, &zero, &v, 1, shift);
		}
		for (unsigned v = 1; v < 256; v++)
			fs->tab[i][v] = fs->tab[i][v & (v - 1)] ^ bit[__builtin_ctz(v)];
		fs->pos[i] = (uint8_t)(fs->off[i] - t->l4_off);
		other[fs->pos[i]] = 0;
	}
	fs->words = (uint8_t)((span + 7) / 8);
	for (unsigned w = 0; w < fs->words; w++)
		memcpy(&fs->other[w], other + 8 * w, 8);
	fs->any_len = (uint8_t)any_len;
	for (unsigned i = 0; i < RW_HDR_COUNT; i++)
		if (t->ext_off[i] >= 0)
			fs->hdrs |= (uint16_t)(1u << i);
	return RW_OK;
}

enum rw_err rw_tmpl_fast_init(const struct rw_tmpl *t, struct rw_tmpl_fast *fs)
{
	return fast_init(t, fs, 0);
}

enum rw_err rw_tmpl_fast_init_any(const struct rw_tmpl *t, struct rw_tmpl_fast *fs)
{
	return fast_init(t, fs, 1);
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* The template's headers to out, 16 bytes at a time (the last copy
 * overlapping the one before): a header is 54 to 192 bytes, and a call to
 * memcpy with a variable length costs more than the copy. */
static inline void copy_hdr(uint8_t *out, const uint8_t *hdr, size_t n)
{
	size_t i;

	for (i = 0; i + 16 < n; i += 16)
		memcpy(out + i, hdr + i, 16);
	memcpy(out + n - 16, hdr + n - 16, 16);
}

/* put_fields() for the fast path: the same bytes, with the headers every
 * data packet of a message carries written in place. */
static inline void put_fields_fast(const struct rw_tmpl *t, const struct rw_tmpl_fast *fs,
				   const struct rw_tmpl_fields *f, uint8_t *out)
{
	unsigned h = fs->hdrs;
	size_t w;

	copy_hdr(out, t->hdr, t->hdr_len);
	put_bth(t, f, out);
	if (!h)
		return; /* a middle packet, a plain SEND: the BTH only */
	if (h & RW_HDR_RETH) {
		/* IBA 9.3.3.1: VA, R_Key, DMA length */
		uint8_t *r = ext(t, out, RW_HDR_RETH);
		rw_field_put(RW_FIELD(RETH_VA), r, f->reth.va);
		rw_field_put(RW_FIELD(RETH_RKEY), r, f->reth.rkey);
		rw_field_put(RW_FIELD(RETH_LEN), r, f->reth.dmalen);
	}
	if (h & RW_HDR_DETH)
		(void)rw_deth_encode(&f->deth, ext(t, out, RW_HDR_DETH), RW_DETH_LEN, &w);
	if (h & RW_HDR_ATOMICETH)
		(void)rw_atomiceth_encode(&f->atomic, ext(t, out, RW_HDR_ATOMICETH), RW_ATOMICETH_LEN, &w);
	if (h & RW_HDR_AETH)
		(void)rw_aeth_encode(&f->aeth, ext(t, out, RW_HDR_AETH), RW_AETH_LEN, &w);
	if (h & RW_HDR_ATOMICACKETH)
		rw_field_put(RW_FIELD(ATOMICACKETH_ORIG), ext(t, out, RW_HDR_ATOMICACKETH), f->atomic_orig);
	if (h & RW_HDR_IMMDT)
		rw_field_put(RW_FIELD(IMMDT_DATA), ext(t, out, RW_HDR_IMMDT), f->immdt);
	if (h & RW_HDR_IETH)
		rw_field_put(RW_FIELD(IETH_RKEY), ext(t, out, RW_HDR_IETH), f->ieth);
}

uint32_t rw_tmpl_write_fast(const struct rw_tmpl *t, const struct rw_tmpl_fast *fs,
			    const struct rw_tmpl_fields *f, uint8_t *out)
{
	const uint8_t *old = t->hdr + t->l4_off, *now = out + t->l4_off;
	uint64_t diff[RW_TMPL_FAST_SPAN / 8];
	const uint8_t *d = (const uint8_t *)diff;
	uint32_t icrc = t->icrc;
	uint64_t rest = 0;

	put_fields_fast(t, fs, f, out);
	/* What changed, 8 bytes at a time; the words may read past the
	 * headers (into the payload, or the template's spare room), where
	 * nothing is tracked and the mask is zero. */
	for (unsigned w = 0; w < fs->words; w++) {
		diff[w] = load64(old + 8 * w) ^ load64(now + 8 * w);
		rest |= diff[w] & fs->other[w];
	}
	if (!fs->any_len) {
		for (unsigned i = 0; i < fs->n; i++)
			icrc ^= fs->tab[i][d[fs->pos[i]]];
	} else {
		uint32_t delta = 0;
		for (unsigned i = 0; i < fs->n; i++)
			delta ^= fs->tab[i][d[fs->pos[i]]];
		icrc ^= rw_crc32_shift_delta(delta, t->shift);
	}
	/* Any other byte that changed (an R_Key, a DMA length, a Q_Key): the
	 * general patch, over those bytes only. */
	if (rest) {
		uint8_t a[RW_TMPL_FAST_SPAN], b[RW_TMPL_FAST_SPAN];
		for (unsigned w = 0; w < fs->words; w++) {
			uint64_t x = load64(old + 8 * w), d = (x ^ load64(now + 8 * w)) & fs->other[w];
			memcpy(a + 8 * w, &x, 8);
			x ^= d;
			memcpy(b + 8 * w, &x, 8);
		}
		icrc = rw_crc32_patch_shift(icrc, a, b, (size_t)t->hdr_len - t->l4_off, t->shift);
	}
	put_masked(t, f, out);
	return icrc;
}

void rw_tmpl_write_tail(const struct rw_tmpl *t, uint32_t icrc, uint8_t *tail)
{
	memset(tail, 0, t->pad);
	rw_put_le32(tail + t->pad, icrc);
	memset(tail + t->pad + RW_ICRC_LEN, 0, t->eth_pad);
}

/* Frame offset of the 32-bit word whose low bytes are field f (3 bytes) of
 * the header at frame offset h. */
static uint16_t word_of(int h, const struct rw_field *f)
{
	return (uint16_t)(h + f->off + f->size - 4);
}

void rw_tmpl_stamp_init(const struct rw_tmpl *t, struct rw_tmpl_stamp *st)
{
	int deth = t->ext_off[HDR_IDX(RW_HDR_DETH)];
	int reth = t->ext_off[HDR_IDX(RW_HDR_RETH)], atomic = t->ext_off[HDR_IDX(RW_HDR_ATOMICETH)];
	int va = reth >= 0     ? reth + RW_FIELD(RETH_VA)->off
		 : atomic >= 0 ? atomic + RW_FIELD(ATOMICETH_VA)->off
			       : -1;

	memset(st, 0, sizeof(*st));
	st->sport_at = (uint16_t)(t->l4_off + RW_FIELD(UDP_SPORT)->off);
	/* The 24-bit fields are stored as the 32-bit words they end: BTH
	 * FECN, BECN, reserved and DestQP; AckReq, reserved and PSN; DETH's
	 * reserved byte and SrcQP. The top byte is the template's. */
	st->dqpn_at = word_of(t->bth_off, RW_FIELD(BTH_DQPN));
	st->psn_at = word_of(t->bth_off, RW_FIELD(BTH_PSN));
	st->dqpn_hi = (uint32_t)t->hdr[st->dqpn_at] << 24;
	st->psn_hi = (uint32_t)t->hdr[st->psn_at] << 24;
	if (deth >= 0) {
		st->sqpn_at = word_of(deth, RW_FIELD(DETH_SQPN));
		st->sqpn_hi = (uint32_t)t->hdr[st->sqpn_at] << 24;
	}
	if (va >= 0)
		st->va_at = (uint16_t)va;
	st->icrc_at = (uint16_t)(t->hdr_len + t->payload_len + t->pad);
}

void rw_tmpl_fields_of(const struct rw_packet *p, struct rw_tmpl_fields *f)
{
	memset(f, 0, sizeof(*f));
	f->dqpn = p->bth.dqpn;
	f->psn = p->bth.psn;
	f->ackreq = p->bth.ackreq;
	f->se = p->bth.se;
	f->becn = p->bth.becn;
	f->ecn = (uint8_t)((p->present & RW_P_IPV6) ? p->ipv6.ecn : p->ipv4.ecn);
	f->udp_sport = p->udp.sport;
	f->reth = p->reth;
	f->aeth = p->aeth;
	f->atomic = p->atomiceth;
	f->atomic_orig = p->atomicacketh.orig;
	f->deth = p->deth;
	f->immdt = p->immdt;
	f->ieth = p->ieth;
}

void rw_tmpl_fields_apply(const struct rw_tmpl_fields *f, struct rw_packet *p)
{
	p->bth.dqpn = f->dqpn & RW_QPN_MASK;
	p->bth.psn = f->psn & RW_PSN_MASK;
	p->bth.ackreq = f->ackreq;
	p->bth.se = f->se;
	p->bth.becn = f->becn;
	if (p->present & RW_P_IPV6)
		p->ipv6.ecn = f->ecn;
	else
		p->ipv4.ecn = f->ecn;
	p->udp.sport = f->udp_sport;
	p->reth = f->reth;
	p->aeth = f->aeth;
	p->aeth.kind = (uint8_t)rw_aeth_kind_of(f->aeth.syndrome);
	p->aeth.value = rw_aeth_value_of(f->aeth.syndrome);
	p->atomiceth = f->atomic;
	p->atomicacketh.orig = f->atomic_orig;
	p->deth = f->deth;
	p->immdt = f->immdt;
	p->ieth = f->ieth;
}
