/* SPDX-License-Identifier: BSD-3-Clause */
/* Header rewrites in place, re-signed with the ICRC patched incrementally.
 *
 * The ICRC (IBA A17.3.3 for RoCEv2, A16 for RoCEv1) covers the IP or GRH
 * header, the UDP header and the whole IB transport packet, with the
 * variant fields masked to ones: IPv4 TOS/TTL/checksum, IPv6 traffic
 * class/flow label/hop limit (the GRH's the same), the UDP checksum and BTH
 * byte 4. A rewrite of a masked field therefore leaves the ICRC as it is;
 * any other covered byte changes it. CRC-32 is linear, so the new ICRC is
 * the old one plus the CRC of (old XOR new) moved over the bytes after the
 * change (rw_icrc_update): one patch over the span that changed costs the
 * same for a 64-byte frame and a 4 KiB one, and keeps a capture's bad
 * ICRC bad by the same difference. */
#include <string.h>

#include "codec.h"
#include "rocewire/crc.h"
#include "rocewire/fields.h"
#include "rocewire/icrc.h"
#include "rocewire/rewrite.h"
#include "rocewire/wire.h"

/* Covered header bytes copied before the rewrite: IPv4 with options (60),
 * UDP (8), BTH and the longest extension headers, with room to spare. */
#define RW_RW_HDR_MAX 192

static const char *const kind_names[] = {
	[RW_RW_MAC] = "mac",         [RW_RW_IP] = "ip",       [RW_RW_UDP_SPORT] = "udp_sport",
	[RW_RW_DSCP] = "dscp",       [RW_RW_ECN] = "ecn",     [RW_RW_TTL] = "ttl",
	[RW_RW_UDP_CSUM] = "udp_csum", [RW_RW_VLAN] = "vlan", [RW_RW_QPN] = "qpn",
	[RW_RW_PSN] = "psn",         [RW_RW_PKEY] = "pkey",   [RW_RW_RKEY] = "rkey",
	[RW_RW_VA] = "va",           [RW_RW_CONVERT] = "convert",
};
_Static_assert(sizeof(kind_names) / sizeof(kind_names[0]) == RW_RW_KIND_COUNT, "kind_names: one entry per value");

const char *rw_rw_kind_name(enum rw_rw_kind k)
{
	return (unsigned)k < RW_RW_KIND_COUNT ? kind_names[k] : "?";
}

void rw_rewrite_init(struct rw_rewrite *rw)
{
	memset(rw, 0, sizeof(*rw));
	rw->udp_sport = -1;
	rw->dscp = -1;
	rw->ecn = -1;
	rw->ttl = -1;
	rw->pkey = -1;
}

/* One frame being rewritten: the covered bytes as they were, and the span
 * of covered, unmasked bytes that changed (offsets from the ICRC's start). */
struct edit {
	uint8_t *f;
	size_t start;           /* frame offset of the first covered byte */
	size_t hdr_len;         /* covered header bytes saved in old[] */
	size_t lo, hi;
	size_t ip_end;          /* frame offset where the IP header (or GRH) ends */
	int ip_dirty;           /* a byte of the IPv4 header changed: new checksum */
	uint32_t applied;
	uint8_t old[RW_RW_HDR_MAX];
};

/* The n bytes at frame offset off changed: a covered, unmasked change
 * widens the span the ICRC patch will cover. */
static inline void changed(struct edit *e, size_t off, size_t n, enum rw_rw_kind k, int covered)
{
	e->applied |= 1u << k;
	if (off < e->ip_end)
		e->ip_dirty = 1;
	if (!covered)
		return;
	size_t r = off - e->start;
	if (r < e->lo)
		e->lo = r;
	if (r + n > e->hi)
		e->hi = r + n;
}

/* Writes n bytes at frame offset off (changed() if they differ). */
static inline void put(struct edit *e, size_t off, const uint8_t *v, size_t n, enum rw_rw_kind k,
		       int covered)
{
	uint8_t *d = e->f + off, x = 0;
	/* a byte loop, not memcmp(): these fields are 1 to 16 bytes, and a
	 * library call per field cost a sixth of the replay's time */
	for (size_t i = 0; i < n; i++) {
		x |= (uint8_t)(d[i] ^ v[i]);
		d[i] = v[i];
	}
	if (x)
		changed(e, off, n, k, covered);
}

/* Writes v into field f of the header at frame offset h, by its table row
 * (fields.h: a constant RW_FIELD row, so this folds to the field's bytes). */
static inline void put_field(struct edit *e, size_t h, const struct rw_field *f, uint64_t v,
			     enum rw_rw_kind k, int covered)
{
	if (rw_field_peek(f, e->f + h) == v)
		return;
	rw_field_put(f, e->f + h, v);
	changed(e, h + f->off, f->size, k, covered);
}

static void put32(struct edit *e, size_t off, uint32_t v, enum rw_rw_kind k)
{
	uint8_t b[4];
	rw_put_be32(b, v);
	put(e, off, b, 4, k, 1);
}

static inline void map_ip4(const struct rw_rewrite *rw, struct edit *e, size_t off)
{
	uint32_t a = rw_get_be32(e->f + off);
	for (unsigned i = 0; i < rw->n_ip4; i++) {
		const struct rw_rw_ip4map *m = &rw->ip4[i];
		if ((a & m->mask) == m->from) {
			put32(e, off, (m->to & m->mask) | (a & ~m->mask), RW_RW_IP);
			return;
		}
	}
}

static int prefix_match(const uint8_t *a, const uint8_t *b, unsigned plen)
{
	unsigned full = plen / 8, bits = plen % 8;
	if (memcmp(a, b, full) != 0)
		return 0;
	if (!bits)
		return 1;
	uint8_t m = (uint8_t)(0xFF00u >> bits);
	return (a[full] & m) == (b[full] & m);
}

/* The first 12 bytes of an IPv4-mapped IPv6 address or GID (RFC 4291
 * 2.5.5.2, ::ffff:a.b.c.d, what RoCE uses for IPv4 peers); the IPv4 address
 * follows them. */
static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};

/* An IPv6 address or a GID: the IPv6 maps, and for an IPv4-mapped GID the
 * IPv4 maps too. */
static void map_ip6(const struct rw_rewrite *rw, struct edit *e, size_t off)
{
	uint8_t *a = e->f + off;
	for (unsigned i = 0; i < rw->n_ip6; i++) {
		const struct rw_rw_ip6map *m = &rw->ip6[i];
		if (prefix_match(a, m->from, m->plen)) {
			uint8_t v[16];
			for (unsigned b = 0; b < 16; b++) {
				unsigned bits = m->plen > b * 8 ? m->plen - b * 8 : 0;
				uint8_t mask = bits >= 8 ? 0xFF : (uint8_t)(0xFF00u >> bits);
				v[b] = (uint8_t)((m->to[b] & mask) | (a[b] & ~mask));
			}
			put(e, off, v, 16, RW_RW_IP, 1);
			return;
		}
	}
	if (memcmp(a, v4mapped, sizeof(v4mapped)) == 0)
		map_ip4(rw, e, off + sizeof(v4mapped));
}

static uint32_t map32(const struct rw_rw_map32 *m, unsigned n, uint32_t v, int *hit)
{
	for (unsigned i = 0; i < n; i++)
		if (m[i].from == v) {
			*hit = 1;
			return m[i].to;
		}
	*hit = 0;
	return v;
}

/* The BTH's P_Key, destination QP and PSN (IBA 9.3.1). The PSN offset is
 * chosen by the original destination QP, before any QPN map. */
static void rewrite_bth(const struct rw_rewrite *rw, const struct rw_packet *p, struct edit *e)
{
	size_t b = p->bth_off;
	int hit;

	if (rw->pkey >= 0)
		put_field(e, b, RW_FIELD(BTH_PKEY), (uint16_t)rw->pkey, RW_RW_PKEY, 1);
	for (unsigned i = 0; i < rw->n_psn; i++) {
		const struct rw_rw_psnoff *o = &rw->psn[i];
		if (o->all || o->qpn == p->bth.dqpn) {
			put_field(e, b, RW_FIELD(BTH_PSN), (p->bth.psn + o->offset) & RW_PSN_MASK, RW_RW_PSN, 1);
			break;
		}
	}
	uint32_t q = map32(rw->qpn, rw->n_qpn, p->bth.dqpn, &hit);
	if (hit)
		put_field(e, b, RW_FIELD(BTH_DQPN), q & RW_QPN_MASK, RW_RW_QPN, 1);
}

/* The VA and R_Key of a RETH or an AtomicETH (IBA 9.3.3, 9.3.4). */
static void rewrite_rdma(const struct rw_rewrite *rw, const struct rw_packet *p, struct edit *e)
{
	/* rows named in this block (a compound literal lives as long as its
	 * block), chosen by header */
	const struct rw_field *reth_va = RW_FIELD(RETH_VA), *reth_rkey = RW_FIELD(RETH_RKEY);
	const struct rw_field *atomic_va = RW_FIELD(ATOMICETH_VA), *atomic_rkey = RW_FIELD(ATOMICETH_RKEY);
	const struct rw_field *va_f = reth_va, *rkey_f = reth_rkey;
	int off = -1;
	if (p->hdrs & RW_HDR_RETH) {
		off = rw_hdr_offset(p->bth.opcode, RW_HDR_RETH);
	} else if (p->hdrs & RW_HDR_ATOMICETH) {
		off = rw_hdr_offset(p->bth.opcode, RW_HDR_ATOMICETH);
		va_f = atomic_va;
		rkey_f = atomic_rkey;
	}
	if (off < 0)
		return;
	size_t h = p->bth_off + (size_t)off;
	uint64_t va = rw_field_peek(va_f, e->f + h);
	for (unsigned i = 0; i < rw->n_va; i++) {
		const struct rw_rw_vamap *m = &rw->va[i];
		if (va >= m->from && va - m->from < m->len) {
			put_field(e, h, va_f, m->to + (va - m->from), RW_RW_VA, 1);
			break;
		}
	}
	int hit;
	uint32_t k = map32(rw->rkey, rw->n_rkey, (uint32_t)rw_field_peek(rkey_f, e->f + h), &hit);
	if (hit)
		put_field(e, h, rkey_f, k, RW_RW_RKEY, 1);
}

/* A field the ICRC masks (DSCP, ECN, TTL, hop limit): written in place,
 * counted as applied when it changed; the ICRC span does not move. */
static inline int put_masked(struct edit *e, uint8_t *h, const struct rw_field *f, uint64_t v,
			     enum rw_rw_kind k)
{
	if (rw_field_peek(f, h) == v)
		return 0;
	rw_field_put(f, h, v);
	e->applied |= 1u << k;
	return 1;
}

/* DSCP and ECN of an IPv6 header or a GRH (its TClass, IBA 8.3). */
static void rewrite_tclass6(const struct rw_rewrite *rw, struct edit *e, size_t l3)
{
	if (rw->dscp >= 0)
		put_masked(e, e->f + l3, RW_FIELD(IPV6_DSCP), (unsigned)rw->dscp, RW_RW_DSCP);
	if (rw->ecn >= 0)
		put_masked(e, e->f + l3, RW_FIELD(IPV6_ECN), (unsigned)rw->ecn, RW_RW_ECN);
}

static void rewrite_ipv4(const struct rw_rewrite *rw, const struct rw_packet *p, struct edit *e)
{
	size_t l3 = p->l3_off;
	uint8_t *ip = e->f + l3;
	/* a changed TOS needs a new header checksum */
	if (rw->dscp >= 0 && put_masked(e, ip, RW_FIELD(IPV4_DSCP), (unsigned)rw->dscp, RW_RW_DSCP))
		e->ip_dirty = 1;
	if (rw->ecn >= 0 && put_masked(e, ip, RW_FIELD(IPV4_ECN), (unsigned)rw->ecn, RW_RW_ECN))
		e->ip_dirty = 1;
	if (rw->ttl >= 0)
		put_field(e, l3, RW_FIELD(IPV4_TTL), (uint8_t)rw->ttl, RW_RW_TTL, 0);
	map_ip4(rw, e, l3 + RW_FIELD(IPV4_SRC)->off);
	map_ip4(rw, e, l3 + RW_FIELD(IPV4_DST)->off);
}

static void rewrite_l3(const struct rw_rewrite *rw, const struct rw_packet *p, struct edit *e)
{
	size_t l3 = p->l3_off;
	if (p->present & RW_P_IPV4) {
		rewrite_ipv4(rw, p, e);
		return;
	}
	/* IPv6 and the GRH of RoCEv1 share the layout (IBA 8.3) */
	if (rw->dscp >= 0 || rw->ecn >= 0)
		rewrite_tclass6(rw, e, l3);
	if (rw->ttl >= 0)
		put_field(e, l3, RW_FIELD(IPV6_HOP_LIMIT), (uint8_t)rw->ttl, RW_RW_TTL, 0);
	map_ip6(rw, e, l3 + RW_FIELD(IPV6_SRC)->off);
	map_ip6(rw, e, l3 + RW_FIELD(IPV6_DST)->off);
}

/* Writes the header checksum of an IPv4 header (RFC 1071). The 20-byte
 * header without options is summed in 32-bit words in memory order: the
 * one's-complement sum does not depend on byte order (RFC 1071 2.B), so the
 * folded sum is stored as it comes out; other lengths go to ipv4.c. */
static inline void ipv4_checksum_put(uint8_t *h, size_t hlen)
{
	const struct rw_field *cs = RW_FIELD(IPV4_CHECKSUM);

	rw_field_put(cs, h, 0); /* summed as zero */
	if (hlen != RW_IPV4_MIN_HLEN) {
		rw_field_put(cs, h, rw_ipv4_checksum(h, hlen));
		return;
	}
	uint64_t s = 0;
	for (size_t i = 0; i < RW_IPV4_MIN_HLEN; i += 4) {
		uint32_t w;
		memcpy(&w, h + i, 4);
		s += w;
	}
	s = (s & 0xFFFFFFFFu) + (s >> 32);
	s = (s & 0xFFFFFFFFu) + (s >> 32);
	s = (s & 0xFFFF) + (s >> 16);
	s = (s & 0xFFFF) + (s >> 16);
	uint16_t c = (uint16_t)~s;
	memcpy(h + cs->off, &c, sizeof(c)); /* in memory order, as summed */
}

/* The saved copy gets the new values of the masked bytes, so that the
 * patch sees only the unmasked changes. */
static inline void unmask(const struct rw_field *f, uint8_t *o, const uint8_t *n)
{
	rw_field_put(f, o, rw_field_peek(f, n));
}

/* The fields the ICRC masks (IBA A17.3.3): IPv4 TOS, TTL and checksum;
 * IPv6's (or the GRH's) traffic class, flow label and hop limit; the UDP
 * checksum; BTH FECN, BECN and resv6. */
static void unmask_old(const struct rw_packet *p, struct edit *e)
{
	uint8_t *o = e->old;
	const uint8_t *n = e->f + e->start;
	if (p->present & RW_P_IPV4) {
		unmask(RW_FIELD(IPV4_DSCP), o, n);
		unmask(RW_FIELD(IPV4_ECN), o, n);
		unmask(RW_FIELD(IPV4_TTL), o, n);
		unmask(RW_FIELD(IPV4_CHECKSUM), o, n);
	} else {
		unmask(RW_FIELD(IPV6_DSCP), o, n);
		unmask(RW_FIELD(IPV6_ECN), o, n);
		unmask(RW_FIELD(IPV6_FLOW_LABEL), o, n);
		unmask(RW_FIELD(IPV6_HOP_LIMIT), o, n);
	}
	if (p->present & RW_P_UDP) {
		size_t u = p->l4_off - e->start;
		unmask(RW_FIELD(UDP_CHECKSUM), o + u, n + u);
	}
	size_t b = p->bth_off - e->start;
	unmask(RW_FIELD(BTH_FECN), o + b, n + b);
	unmask(RW_FIELD(BTH_BECN), o + b, n + b);
	unmask(RW_FIELD(BTH_RESV6), o + b, n + b);
}

static uint32_t sum16(const uint8_t *b, size_t n)
{
	uint32_t s = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		s += rw_get_be16(b + i);
	if (n & 1)
		s += (uint32_t)b[n - 1] << 8;
	return s;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)s;
}

uint16_t rw_udp_checksum(const uint8_t *ip, size_t udp_off, size_t len)
{
	const struct rw_field *src4 = RW_FIELD(IPV4_SRC), *src6 = RW_FIELD(IPV6_SRC);
	const struct rw_field *cs = RW_FIELD(UDP_CHECKSUM);
	uint32_t s;
	/* the pseudo-header's addresses: source, then destination, adjacent;
	 * IPv6's version lies where IPv4's does (RFC 8200 3) */
	if (rw_field_peek(RW_FIELD(IPV4_VERSION), ip) == 4)
		s = sum16(ip + src4->off, 2u * src4->size) + RW_IPPROTO_UDP;
	else
		s = sum16(ip + src6->off, 2u * src6->size) + RW_IPPROTO_UDP;
	if (len < udp_off + RW_UDP_HLEN)
		return 0;
	const uint8_t *u = ip + udp_off;
	size_t ulen = len - udp_off;
	s += (uint32_t)ulen;
	/* every byte of the datagram but the checksum field's */
	s += sum16(u, cs->off) + sum16(u + cs->off + cs->size, ulen - cs->off - cs->size);
	uint16_t c = (uint16_t)~fold(s);
	return c ? c : 0xFFFF;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') over the 16-bit words that
 * changed: the pseudo-header addresses, the UDP datagram's saved headers,
 * and the ICRC, which the datagram carries (its offset from the UDP header
 * is even: the IB packet is a multiple of 4 bytes). */
static uint16_t udp_csum_update(const struct rw_packet *p, const struct edit *e, uint16_t c,
				uint32_t icrc_old, uint32_t icrc_new)
{
	size_t l4 = p->l4_off - e->start;
	const struct rw_field *src = (p->present & RW_P_IPV4) ? RW_FIELD(IPV4_SRC) : RW_FIELD(IPV6_SRC);
	size_t a0 = src->off, a1 = src->off + 2u * src->size; /* source and destination */
	const uint8_t *n = e->f + e->start;
	uint32_t s = (uint16_t)~c;
	for (size_t i = 0; i + 1 < e->hdr_len; i += 2) {
		int in = (i >= a0 && i < a1) || (i >= l4 && i != l4 + RW_FIELD(UDP_CHECKSUM)->off);
		uint16_t ow = rw_get_be16(e->old + i), nw = rw_get_be16(n + i);
		if (in && ow != nw)
			s += (uint16_t)~ow + (uint32_t)nw;
	}
	uint8_t io[4], in[4];
	rw_put_le32(io, icrc_old);
	rw_put_le32(in, icrc_new);
	for (int i = 0; i < 4; i += 2)
		s += (uint16_t)~rw_get_be16(io + i) + (uint32_t)rw_get_be16(in + i);
	uint16_t r = (uint16_t)~fold(s);
	return r ? r : 0xFFFF;
}

/* What changing old to new (len bytes, tail covered bytes after them) adds
 * to the ICRC, from the cache when the same change was seen lately. */
static uint32_t cached_delta(struct rw_rewrite_cache *c, const uint8_t *old, const uint8_t *new,
			     size_t len, size_t tail)
{
	uint64_t d[RW_RW_CACHE_SPAN / 8] = {0};
	if (len > RW_RW_CACHE_SPAN) {
		c->misses++;
		return rw_icrc_update(0, old, new, len, tail);
	}
	/* a word at a time (bytes stored one by one and read back as words
	 * stall the load); the bytes past len are zero in both */
	size_t words = (len + 7) / 8;
	for (size_t w = 0; w < words; w++) {
		size_t o = w * 8, n = len - o < 8 ? len - o : 8;
		uint64_t a = 0, b = 0;
		memcpy(&a, old + o, n);
		memcpy(&b, new + o, n);
		d[w] = a ^ b;
	}
	for (unsigned w = 0; w < RW_RW_CACHE_WAYS; w++) {
		const struct rw_rewrite_cache_entry *x = &c->e[w];
		if (x->len != len || x->tail != tail)
			continue;
		size_t i = 0;
		while (i < words && x->diff[i] == d[i])
			i++;
		if (i == words) {
			c->hits++;
			return x->delta;
		}
	}
	c->misses++;
	if (!c->valid || c->tail != tail) {
		c->tail = tail;
		c->shift = rw_crc32_shift(tail);
		c->valid = 1;
	}
	struct rw_rewrite_cache_entry *x = &c->e[c->next++ % RW_RW_CACHE_WAYS];
	x->tail = tail;
	x->len = (uint16_t)len;
	memcpy(x->diff, d, sizeof(x->diff));
	x->delta = rw_crc32_patch_shift(0, old, new, len, c->shift);
	return x->delta;
}

static uint32_t icrc_full(const struct rw_packet *p, const uint8_t *f, size_t start, size_t icrc_off)
{
	if (p->carrier == RW_CARRIER_ROCEV1)
		return rw_icrc_rocev1(f + start, icrc_off - start);
	return rw_icrc_rocev2(f + start, icrc_off - start);
}

/* MAC Control (IEEE 802.3 clause 31, ethertype 0x8808: PAUSE, PFC) acts on
 * one link, below any bridge: such frames are never VLAN-tagged (IEEE
 * 802.1Q), and a receiver would not recognise a tagged one. */
static int is_macctrl(const struct rw_packet *p)
{
	uint16_t t = p->n_vlan ? p->vlan[p->n_vlan - 1].ethertype : p->eth.ethertype;
	return t == RW_ETHERTYPE_MACCTRL || p->carrier == RW_CARRIER_PFC ||
	       p->carrier == RW_CARRIER_PAUSE;
}

/* Moves the offsets a result gives by d bytes (a tag pushed or popped in
 * front of them). */
static void shift_offsets(struct rw_rewrite_result *res, int d)
{
	if (res->icrc_off)
		res->icrc_off = (uint32_t)((int64_t)res->icrc_off + d);
	if (res->udp_off)
		res->udp_off = (uint32_t)((int64_t)res->udp_off + d);
}

/* 802.1Q (IEEE 802.1Q-2018 9.6): the outermost tag sits after the MAC
 * addresses, its TPID where the Ethernet type was and the type after its
 * TCI; the ICRC does not cover Ethernet, so only offsets move. */
static enum rw_err rewrite_vlan(const struct rw_rewrite *rw, const struct rw_packet *p, uint8_t *f,
				size_t *len, size_t cap, struct rw_rewrite_result *res)
{
	size_t l2 = p->l2_off;
	uint8_t *eth = f + l2, *tag = eth + RW_ETH_HLEN; /* the outermost tag */
	const struct rw_field *eth_type = RW_FIELD(ETH_TYPE), *tag_type = RW_FIELD(VLAN_TYPE);
	const struct rw_field *pcp = RW_FIELD(VLAN_PCP), *dei = RW_FIELD(VLAN_DEI), *vid = RW_FIELD(VLAN_ID);
	enum rw_rw_vlan_op op = rw->vlan_op;

	if (op == RW_RW_VLAN_RETAG && p->n_vlan == 0)
		op = RW_RW_VLAN_ADD;
	/* a tag is neither pushed on nor changed in MAC Control; stripping one
	 * a capture had makes the frame right again */
	if ((op == RW_RW_VLAN_ADD || op == RW_RW_VLAN_RETAG) && is_macctrl(p))
		return RW_OK;
	if (op == RW_RW_VLAN_ADD) {
		RW_ROOM(cap, *len + RW_VLAN_HLEN);
		/* the Ethernet type, and all after it, become the new tag's type
		 * and what follows it */
		memmove(tag + tag_type->off, eth + eth_type->off, *len - l2 - eth_type->off);
		rw_field_put(eth_type, eth, RW_ETHERTYPE_VLAN);
		rw_field_put(pcp, tag, rw->vlan_pcp);
		rw_field_put(dei, tag, 0);
		rw_field_put(vid, tag, rw->vlan_vid);
		*len += RW_VLAN_HLEN;
		shift_offsets(res, RW_VLAN_HLEN);
	} else if (op == RW_RW_VLAN_STRIP) {
		if (p->n_vlan == 0 || *len < l2 + RW_ETH_HLEN + RW_VLAN_HLEN)
			return RW_OK;
		/* the tag's type, and all after it, take the place of the
		 * Ethernet type */
		memmove(eth + eth_type->off, tag + tag_type->off, *len - l2 - RW_ETH_HLEN - tag_type->off);
		*len -= RW_VLAN_HLEN;
		shift_offsets(res, -RW_VLAN_HLEN);
	} else if (op == RW_RW_VLAN_RETAG) {
		uint8_t was[RW_VLAN_HLEN];
		memcpy(was, tag, sizeof(was));
		rw_field_put(pcp, tag, rw->vlan_pcp); /* DEI kept */
		rw_field_put(vid, tag, rw->vlan_vid);
		if (memcmp(was, tag, sizeof(was)) == 0)
			return RW_OK;
	} else {
		return RW_OK;
	}
	res->applied |= 1u << RW_RW_VLAN;
	return RW_OK;
}

static int gid_v4mapped(const uint8_t *g)
{
	return memcmp(g, v4mapped, sizeof(v4mapped)) == 0;
}

/* Frame offset of the type field that names the L3 header: the innermost
 * VLAN tag's, or the Ethernet header's when untagged (the tags follow the
 * Ethernet header, IEEE 802.1Q 9.6). */
static size_t l3_type_off(const struct rw_packet *p)
{
	if (p->n_vlan == 0)
		return (size_t)p->l2_off + RW_FIELD(ETH_TYPE)->off;
	return (size_t)p->l2_off + RW_ETH_HLEN + (size_t)RW_VLAN_HLEN * (p->n_vlan - 1u) +
	       RW_FIELD(VLAN_TYPE)->off;
}

/* RoCEv1 (Ethernet, GRH, BTH...) <-> RoCEv2 (Ethernet, IP, UDP, BTH...):
 * the carrier headers are replaced, the transport kept byte for byte, and
 * the ICRC computed in full over the new headers; a capture's bad ICRC
 * keeps its difference (err) unless fix_icrc. The new headers take their
 * fields from the old ones as the rewrites left them (addresses, traffic
 * class, hop limit), so that --dscp, --ttl and --map-ip hold through a
 * conversion. A new UDP header gets --udp-sport or a port from the flow
 * label, and its checksum (--udp-csum full) last, over the final bytes. */
static enum rw_err convert(const struct rw_rewrite *rw, const struct rw_packet *p, uint8_t *f,
			   size_t *len, size_t cap, uint32_t err, struct rw_rewrite_result *res)
{
	uint8_t hdr[RW_IPV6_HLEN + RW_UDP_HLEN];
	size_t hl = 0, iphl = 0, w;
	const uint8_t *l3 = f + p->l3_off;
	uint16_t ethertype;
	int to_v2 = rw->convert == RW_RW_CONV_TO_V2;

	if (to_v2) {
		struct rw_grh g;
		rw_grh_decode(l3, RW_GRH_LEN, &g);
		/* RoCEv2 spreads flows by the UDP source port as RoCEv1 and IPv6
		 * do by the flow label: one from the other keeps a flow a flow */
		uint16_t from_label = (uint16_t)(0xC000 | (g.flow_label & 0x3FFF));
		struct rw_udp u = {.sport = rw->udp_sport >= 0 ? (uint16_t)rw->udp_sport : from_label,
				   .dport = RW_ROCEV2_PORT,
				   .len = (uint16_t)(RW_UDP_HLEN + p->ib_len)};
		if (u.sport != from_label)
			res->applied |= 1u << RW_RW_UDP_SPORT;
		if (gid_v4mapped(g.sgid) && gid_v4mapped(g.dgid)) {
			struct rw_ipv4 ip = {.ihl = 5, .dscp = g.tclass >> 2, .ecn = g.tclass & 3,
					     .total_len = (uint16_t)(RW_IPV4_MIN_HLEN + u.len),
					     .flags = RW_IPV4_DF, .ttl = g.hoplmt,
					     .protocol = RW_IPPROTO_UDP,
					     .src = rw_get_be32(g.sgid + sizeof(v4mapped)),
					     .dst = rw_get_be32(g.dgid + sizeof(v4mapped))};
			if (rw_ipv4_encode(&ip, 0, hdr, sizeof(hdr), &w) != RW_OK)
				return RW_ERR_INVALID;
			ethertype = RW_ETHERTYPE_IPV4;
		} else {
			struct rw_ipv6 ip = {.dscp = g.tclass >> 2, .ecn = g.tclass & 3,
					     .flow_label = g.flow_label, .payload_len = u.len,
					     .next_header = RW_IPPROTO_UDP, .hop_limit = g.hoplmt};
			memcpy(ip.src, g.sgid, 16);
			memcpy(ip.dst, g.dgid, 16);
			if (rw_ipv6_encode(&ip, hdr, sizeof(hdr), &w) != RW_OK)
				return RW_ERR_INVALID;
			ethertype = RW_ETHERTYPE_IPV6;
		}
		iphl = hl = w;
		if (rw_udp_encode(&u, hdr + hl, sizeof(hdr) - hl, &w) != RW_OK)
			return RW_ERR_INVALID;
		hl += w;
	} else {
		struct rw_grh g = {.ipver = 6, .paylen = (uint16_t)p->ib_len,
				   .nxthdr = RW_GRH_NXTHDR_IBA};
		if (p->present & RW_P_IPV4) {
			/* the TOS byte is the traffic class; the addresses
			 * become IPv4-mapped GIDs */
			const struct rw_field *src = RW_FIELD(IPV4_SRC), *dst = RW_FIELD(IPV4_DST);
			g.tclass = (uint8_t)(rw_field_peek(RW_FIELD(IPV4_DSCP), l3) << 2 |
					     rw_field_peek(RW_FIELD(IPV4_ECN), l3));
			g.hoplmt = (uint8_t)rw_field_peek(RW_FIELD(IPV4_TTL), l3);
			memcpy(g.sgid, v4mapped, sizeof(v4mapped));
			memcpy(g.dgid, v4mapped, sizeof(v4mapped));
			memcpy(g.sgid + sizeof(v4mapped), l3 + src->off, src->size);
			memcpy(g.dgid + sizeof(v4mapped), l3 + dst->off, dst->size);
		} else {
			struct rw_ipv6 ip;
			rw_ipv6_decode(l3, RW_IPV6_HLEN, &ip);
			g.tclass = (uint8_t)(ip.dscp << 2 | ip.ecn);
			g.flow_label = ip.flow_label;
			g.hoplmt = ip.hop_limit;
			memcpy(g.sgid, ip.src, 16);
			memcpy(g.dgid, ip.dst, 16);
		}
		if (rw_grh_encode(&g, hdr, sizeof(hdr), &w) != RW_OK)
			return RW_ERR_INVALID;
		hl = w;
		ethertype = RW_ETHERTYPE_ROCEV1;
		/* what the frame no longer has is not counted as done to it */
		res->applied &= ~(1u << RW_RW_UDP_SPORT | 1u << RW_RW_UDP_CSUM);
		res->ipv4_csum = 0;
	}
	/* The frame ends with the IB packet: the old frame's Ethernet padding
	 * (what followed the ICRC) belonged to the old length. */
	RW_ROOM(cap, (size_t)p->l3_off + hl + p->ib_len);
	memmove(f + p->l3_off + hl, f + p->bth_off, p->ib_len);
	memcpy(f + p->l3_off, hdr, hl);
	rw_put_be16(f + l3_type_off(p), ethertype); /* names the new L3 header */
	*len = (size_t)p->l3_off + hl + p->ib_len;
	size_t icrc_off = p->l3_off + hl + p->ib_len - RW_ICRC_LEN;
	uint32_t c = to_v2 ? rw_icrc_rocev2(f + p->l3_off, icrc_off - p->l3_off)
			   : rw_icrc_rocev1(f + p->l3_off, icrc_off - p->l3_off);
	if (!rw->fix_icrc)
		c ^= err;
	rw_put_le32(f + icrc_off, c);
	res->icrc_off = (uint32_t)icrc_off;
	res->udp_off = to_v2 ? (uint32_t)(p->l3_off + iphl) : 0;
	res->icrc_updated = 1;
	res->applied |= 1u << RW_RW_CONVERT;
	/* after the ICRC: the UDP checksum covers it */
	if (to_v2 && rw->udp_csum == RW_RW_CSUM_FULL) {
		rw_field_put(RW_FIELD(UDP_CHECKSUM), f + res->udp_off,
			     rw_udp_checksum(f + p->l3_off, iphl, iphl + RW_UDP_HLEN + p->ib_len));
		res->applied |= 1u << RW_RW_UDP_CSUM;
	}
	return RW_OK;
}

static enum rw_err rewrite_roce(const struct rw_rewrite *rw, struct rw_rewrite_cache *cache,
				const struct rw_packet *p, uint8_t *f, size_t *len, size_t cap,
				struct rw_rewrite_result *res)
{
	struct edit e;
	size_t icrc_off = (size_t)p->bth_off + p->ib_len - RW_ICRC_LEN;
	int conv = rw->convert && (rw->convert == RW_RW_CONV_TO_V2) != (p->carrier == RW_CARRIER_ROCEV2);

	if (!(p->present & RW_P_ICRC) || icrc_off + RW_ICRC_LEN > *len)
		return RW_ERR_TRUNCATED;
	e.f = f;
	e.start = p->icrc_start;
	e.hdr_len = (size_t)p->bth_off + p->op->hdr_len - e.start;
	if (e.hdr_len > sizeof(e.old) || e.start + e.hdr_len > icrc_off)
		return RW_ERR_UNSUPPORTED;
	memcpy(e.old, f + e.start, e.hdr_len);
	e.lo = SIZE_MAX;
	e.hi = 0;
	e.applied = 0;
	e.ip_dirty = 0;
	e.ip_end = (p->present & RW_P_IPV4) ? (size_t)p->l3_off + (size_t)p->ipv4.ihl * 4 : 0;

	rewrite_l3(rw, p, &e);
	if ((p->present & RW_P_UDP) && rw->udp_sport >= 0)
		put_field(&e, p->l4_off, RW_FIELD(UDP_SPORT), (uint16_t)rw->udp_sport, RW_RW_UDP_SPORT, 1);
	rewrite_bth(rw, p, &e);
	if (p->hdrs & (RW_HDR_RETH | RW_HDR_ATOMICETH))
		rewrite_rdma(rw, p, &e);

	uint32_t wire = rw_get_le32(f + icrc_off), icrc = wire;
	if (e.lo < e.hi) {
		unmask_old(p, &e);
		size_t tail = icrc_off - e.start - e.hi;
		if (cache)
			icrc ^= cached_delta(cache, e.old + e.lo, f + e.start + e.lo, e.hi - e.lo, tail);
		else
			icrc = rw_icrc_update(icrc, e.old + e.lo, f + e.start + e.lo, e.hi - e.lo, tail);
		res->icrc_updated = 1;
	}
	/* the capture's ICRC error, carried through a conversion */
	uint32_t err = 0;
	if (rw->fix_icrc || conv) {
		uint32_t full = icrc_full(p, f, e.start, icrc_off);
		err = icrc ^ full;
		if (rw->fix_icrc && err) {
			icrc = full;
			res->icrc_fixed = 1;
			res->icrc_updated = 1;
		}
	}
	if (icrc != wire)
		rw_put_le32(f + icrc_off, icrc);

	if (e.ip_dirty) {
		ipv4_checksum_put(f + p->l3_off, (size_t)p->ipv4.ihl * 4);
		res->ipv4_csum = 1;
	}
	res->icrc_off = (uint32_t)icrc_off;
	if ((p->present & RW_P_UDP) && !conv) {
		const struct rw_field *cs = RW_FIELD(UDP_CHECKSUM);
		uint16_t c = (uint16_t)rw_field_peek(cs, f + p->l4_off), n = c;
		if (rw->udp_csum == RW_RW_CSUM_ZERO)
			n = 0;
		else if (rw->udp_csum == RW_RW_CSUM_FULL)
			n = rw_udp_checksum(f + p->l3_off, (size_t)p->l4_off - p->l3_off,
					    (size_t)p->l4_off - p->l3_off + p->udp.len);
		else if (c != 0 && (e.applied || icrc != wire))
			n = udp_csum_update(p, &e, c, wire, icrc);
		if (n != c) {
			rw_field_put(cs, f + p->l4_off, n);
			if (rw->udp_csum != RW_RW_CSUM_KEEP)
				e.applied |= 1u << RW_RW_UDP_CSUM;
		}
		res->udp_off = p->l4_off;
	}
	res->applied |= e.applied;
	if (conv)
		return convert(rw, p, f, len, cap, err, res);
	return RW_OK;
}

enum rw_err rw_rewrite_apply(const struct rw_rewrite *rw, struct rw_rewrite_cache *cache,
			     const struct rw_packet *p, uint8_t *frame, size_t *len, size_t cap,
			     struct rw_rewrite_result *res)
{
	enum rw_err err = p->err;

	memset(res, 0, sizeof(*res));
	if (!(p->present & RW_P_ETH) || *len < (size_t)p->l2_off + RW_ETH_HLEN)
		return err != RW_OK ? err : RW_ERR_UNSUPPORTED;
	/* What the decode did not reach (an IPv6 extension header, a damaged
	 * header) keeps its bytes; the Ethernet header it did reach is
	 * rewritten all the same: every frame leaves with the new addresses. */
	if (err == RW_OK && (p->carrier == RW_CARRIER_ROCEV2 || p->carrier == RW_CARRIER_ROCEV1)) {
		err = rewrite_roce(rw, cache, p, frame, len, cap, res);
		if (err == RW_ERR_NOSPACE || err == RW_ERR_INVALID)
			return err;
	}
	/* MAC control frames go to a reserved multicast address (802.3 Annex
	 * 31B): only their source is rewritten. */
	uint8_t *eth = frame + p->l2_off;
	uint8_t *dst = eth + RW_FIELD(ETH_DST)->off, *src = eth + RW_FIELD(ETH_SRC)->off;
	int macctl = p->carrier == RW_CARRIER_PFC || p->carrier == RW_CARRIER_PAUSE;
	if (rw->set_dst_mac && !macctl && memcmp(dst, rw->dst_mac, sizeof(rw->dst_mac)) != 0) {
		memcpy(dst, rw->dst_mac, sizeof(rw->dst_mac));
		res->applied |= 1u << RW_RW_MAC;
	}
	if (rw->set_src_mac && memcmp(src, rw->src_mac, sizeof(rw->src_mac)) != 0) {
		memcpy(src, rw->src_mac, sizeof(rw->src_mac));
		res->applied |= 1u << RW_RW_MAC;
	}
	enum rw_err v = rewrite_vlan(rw, p, frame, len, cap, res);
	return v != RW_OK ? v : err;
}

/* RFC 1624 eqn. 3 for one 16-bit word of the datagram changed from o to n;
 * a result of 0 is sent as 0xFFFF (RFC 768: 0 means "none"). */
static uint16_t csum_word_update(uint16_t c, uint16_t o, uint16_t n)
{
	uint16_t r = (uint16_t)~fold((uint32_t)(uint16_t)~c + (uint16_t)~o + n);
	return r ? r : 0xFFFF;
}

enum rw_err rw_rewrite_corrupt_icrc(const struct rw_packet *p, const struct rw_rewrite_result *res,
				    uint8_t *frame, size_t len, unsigned bit)
{
	size_t icrc, udp = 0;

	if (res) {
		icrc = res->icrc_off;
		udp = res->udp_off;
	} else {
		if (p->err != RW_OK || !(p->present & RW_P_ICRC) ||
		    (p->carrier != RW_CARRIER_ROCEV2 && p->carrier != RW_CARRIER_ROCEV1))
			return RW_ERR_UNSUPPORTED;
		icrc = (size_t)p->bth_off + p->ib_len - RW_ICRC_LEN;
		if (p->carrier == RW_CARRIER_ROCEV2 && (p->present & RW_P_UDP))
			udp = p->l4_off;
	}
	if (!icrc || icrc + RW_ICRC_LEN > len || bit >= 32 || udp + RW_UDP_HLEN > icrc)
		return RW_ERR_UNSUPPORTED;
	/* The ICRC lies a multiple of 4 bytes after the UDP header (8 bytes,
	 * then an IB packet of whole words, IBA 9.3.1 PadCnt): its 16-bit words
	 * are the checksum's words. */
	size_t word = icrc + (bit / 8 & 2);
	uint16_t o = rw_get_be16(frame + word);
	frame[icrc + bit / 8] ^= (uint8_t)(1u << (bit % 8));
	if (udp) {
		const struct rw_field *cf = RW_FIELD(UDP_CHECKSUM);
		uint16_t c = (uint16_t)rw_field_peek(cf, frame + udp);
		if (c != 0) /* 0: no checksum, and none is made */
			rw_field_put(cf, frame + udp, csum_word_update(c, o, rw_get_be16(frame + word)));
	}
	return RW_OK;
}

/* IEEE 802.3 3.2.9: the FCS is the CRC-32 of the frame, sent least
 * significant byte first. */
static int fcs_ok(const uint8_t *f, size_t n)
{
	return n >= RW_ETH_HLEN + 4 && rw_crc32(0, f, n - 4) == rw_get_le32(f + n - 4);
}

/* The ERF header's flags (Endace's generic ERF header): bit 4, RX error,
 * the card received the frame damaged (for Ethernet, a bad FCS). */
#define ERF_FLAG_RXE 0x10

enum rw_err rw_rewrite_to_ethernet(int linktype, const struct rw_packet *p, const uint8_t *frame,
				   size_t len, const uint8_t *dst, uint8_t *out, size_t cap,
				   size_t *out_len)
{
	static const uint8_t zero_mac[6];
	const struct rw_field *dmac = RW_FIELD(ETH_DST), *smac = RW_FIELD(ETH_SRC);
	size_t hl, n;

	switch (linktype) {
	case RW_LINKTYPE_ETHERNET:
		RW_ROOM(cap, len);
		memcpy(out, frame, len);
		*out_len = len;
		return RW_OK;
	case RW_LINKTYPE_ERF:
		if (!(p->present & RW_P_ERF) || p->erf.type == RW_ERF_TYPE_INFINIBAND ||
		    p->erf.type == RW_ERF_TYPE_INFINIBAND_LINK || p->erf.hlen > len ||
		    p->erf.wlen < RW_ETH_HLEN)
			return RW_ERR_UNSUPPORTED;
		/* The record may hold more than the frame (ERF pads records to 8
		 * bytes, or to the snap length without vlen): wlen bounds it. A
		 * record short of wlen by at most an FCS left the FCS out but
		 * counted it in wlen (libpcap's DAG reader, too, takes wlen less
		 * the FCS); one short by more was cut. */
		n = len - p->erf.hlen;
		if (n >= p->erf.wlen) {
			n = p->erf.wlen;
			if (fcs_ok(frame + p->erf.hlen, n) || ((p->erf.flags & ERF_FLAG_RXE) && n >= 4))
				n -= 4;
		} else if (n + 4 >= p->erf.wlen) {
			n = p->erf.wlen - 4u;
		} else {
			return RW_ERR_TRUNCATED;
		}
		if (n < RW_ETH_HLEN)
			return RW_ERR_UNSUPPORTED;
		RW_ROOM(cap, n);
		memcpy(out, frame + p->erf.hlen, n);
		*out_len = n;
		return RW_OK;
	case RW_LINKTYPE_LINUX_SLL:
	case RW_LINKTYPE_LINUX_SLL2:
		hl = linktype == RW_LINKTYPE_LINUX_SLL ? RW_SLL_LEN : RW_SLL2_LEN;
		if (!(p->present & (RW_P_SLL | RW_P_SLL2)) || hl > len)
			return RW_ERR_UNSUPPORTED;
		RW_ROOM(cap, len - hl + RW_ETH_HLEN);
		memcpy(out + dmac->off, dst ? dst : zero_mac, dmac->size);
		/* SLL's address is the sender's: a MAC address when 6 bytes long */
		memcpy(out + smac->off, p->sll.addr_len == smac->size ? p->sll.addr : zero_mac, smac->size);
		rw_field_put(RW_FIELD(ETH_TYPE), out, p->sll.protocol);
		memcpy(out + RW_ETH_HLEN, frame + hl, len - hl);
		*out_len = len - hl + RW_ETH_HLEN;
		return RW_OK;
	default:
		return RW_ERR_UNSUPPORTED;
	}
}
