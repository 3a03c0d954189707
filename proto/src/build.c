/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole-frame encode from a struct rw_packet: the inverse of packet.c.
 * Lengths, checksums, pad, ICRC and VCRC are derived unless flags say to
 * keep what the caller gave (to craft malformed frames for tests). */
#include <string.h>

#include "rocewire/build.h"
#include "rocewire/crc.h"
#include "rocewire/icrc.h"
#include "rocewire/wire.h"

#define TRY(x)                                                                                      \
	do {                                                                                        \
		enum rw_err e_ = (x);                                                               \
		if (e_ != RW_OK)                                                                    \
			return e_;                                                                  \
	} while (0)

struct out {
	uint8_t *buf;
	size_t cap;
	size_t off;
};

static uint8_t *at(struct out *o)
{
	return o->buf + o->off;
}

static size_t left(const struct out *o)
{
	return o->cap - o->off;
}

/* Writes the BTH, the extension headers the opcode table names, payload,
 * pad and a zero ICRC placeholder. */
static enum rw_err put_transport(const struct rw_packet *p, uint8_t pad,
				 struct out *o)
{
	const struct rw_opcode_info *op = rw_opcode(p->bth.opcode);
	struct rw_bth bth = p->bth;
	size_t n;

	bth.pad = pad;
	TRY(rw_bth_encode(&bth, at(o), left(o), &n));
	o->off += n;
	for (unsigned b = 0; b < RW_HDR_COUNT; b++) {
		enum rw_hdr h = (enum rw_hdr)(1u << b);
		if (!(op->hdrs & h))
			continue;
		enum rw_err e = RW_OK;
		switch (h) {
		case RW_HDR_RDETH:
			e = rw_rdeth_encode(&p->rdeth, at(o), left(o), &n);
			break;
		case RW_HDR_DETH:
			e = rw_deth_encode(&p->deth, at(o), left(o), &n);
			break;
		case RW_HDR_XRCETH:
			e = rw_xrceth_encode(&p->xrceth, at(o), left(o), &n);
			break;
		case RW_HDR_FETH:
			e = rw_feth_encode(&p->feth, at(o), left(o), &n);
			break;
		case RW_HDR_RETH:
			e = rw_reth_encode(&p->reth, at(o), left(o), &n);
			break;
		case RW_HDR_ATOMICETH:
			e = rw_atomiceth_encode(&p->atomiceth, at(o), left(o), &n);
			break;
		case RW_HDR_AETH:
			e = rw_aeth_encode(&p->aeth, at(o), left(o), &n);
			break;
		case RW_HDR_ATOMICACKETH:
			e = rw_atomicacketh_encode(&p->atomicacketh, at(o), left(o), &n);
			break;
		case RW_HDR_IMMDT:
			e = rw_u32_encode(p->immdt, at(o), left(o), &n);
			break;
		case RW_HDR_IETH:
			e = rw_u32_encode(p->ieth, at(o), left(o), &n);
			break;
		case RW_HDR_CNP:
			e = rw_cnp_encode(at(o), left(o), &n);
			break;
		}
		TRY(e);
		o->off += n;
	}
	size_t tail = (size_t)p->payload_len + pad + RW_ICRC_LEN;
	if (left(o) < tail)
		return RW_ERR_NOSPACE;
	if (p->payload)
		memcpy(at(o), p->payload, p->payload_len);
	else
		memset(at(o), 0, p->payload_len);
	memset(at(o) + p->payload_len, 0, (size_t)pad + RW_ICRC_LEN);
	o->off += tail;
	return RW_OK;
}

static uint8_t pad_for(const struct rw_packet *p, unsigned flags)
{
	if (flags & RW_BUILD_KEEP_PAD)
		return p->bth.pad;
	return (uint8_t)((4 - p->payload_len % 4) % 4);
}

/* BTH through ICRC. */
static size_t transport_len(const struct rw_packet *p, uint8_t pad)
{
	return (size_t)rw_opcode(p->bth.opcode)->hdr_len + p->payload_len + pad + RW_ICRC_LEN;
}

static void sign(const struct rw_packet *p, unsigned flags, uint8_t *start, uint8_t *end)
{
	size_t n = (size_t)(end - start) - RW_ICRC_LEN;
	uint32_t icrc = p->carrier == RW_CARRIER_ROCEV2	  ? rw_icrc_rocev2(start, n)
			: p->carrier == RW_CARRIER_ROCEV1 ? rw_icrc_rocev1(start, n)
							  : rw_icrc_ib(start, n);
	if (flags & RW_BUILD_BAD_ICRC)
		icrc ^= 0x00000001u;
	rw_put_le32(end - RW_ICRC_LEN, icrc);
}

static enum rw_err put_grh(const struct rw_packet *p, unsigned flags, size_t paylen, struct out *o)
{
	struct rw_grh g = p->grh;
	size_t n;
	if (!(flags & RW_BUILD_RAW_LENGTHS)) {
		if (paylen > 0xFFFF)
			return RW_ERR_INVALID;
		g.ipver = 6;
		g.nxthdr = RW_GRH_NXTHDR_IBA;
		g.paylen = (uint16_t)paylen;
	}
	TRY(rw_grh_encode(&g, at(o), left(o), &n));
	o->off += n;
	return RW_OK;
}

static enum rw_err put_ib(const struct rw_packet *p, unsigned flags, struct out *o)
{
	uint8_t pad = pad_for(p, flags);
	size_t tl = transport_len(p, pad);
	int global = (p->present & RW_P_GRH) != 0;
	size_t start = o->off;
	struct rw_lrh l = p->lrh;
	size_t n;

	if (!(flags & RW_BUILD_RAW_LENGTHS)) {
		size_t words = (RW_LRH_LEN + (global ? RW_GRH_LEN : 0) + tl + 3) / 4;
		if (words > 0x7FF)
			return RW_ERR_INVALID;
		l.pktlen = (uint16_t)words;
		l.lnh = global ? RW_LNH_IBA_GLOBAL : RW_LNH_IBA_LOCAL;
	}
	TRY(rw_lrh_encode(&l, at(o), left(o), &n));
	o->off += n;
	if (global)
		TRY(put_grh(p, flags, tl, o));
	TRY(put_transport(p, pad, o));
	sign(p, flags, o->buf + start, at(o));
	if (left(o) < RW_VCRC_LEN)
		return RW_ERR_NOSPACE;
	rw_put_be16(at(o), rw_vcrc16(o->buf + start, o->off - start));
	o->off += RW_VCRC_LEN;
	return RW_OK;
}

static enum rw_err put_rocev2(const struct rw_packet *p, unsigned flags, struct out *o)
{
	uint8_t pad = pad_for(p, flags);
	size_t tl = transport_len(p, pad);
	int raw = (flags & RW_BUILD_RAW_LENGTHS) != 0;
	size_t start = o->off;
	size_t n;

	if (p->present & RW_P_IPV6) {
		struct rw_ipv6 ip = p->ipv6;
		if (!raw) {
			if (RW_UDP_HLEN + tl > 0xFFFF)
				return RW_ERR_INVALID;
			ip.payload_len = (uint16_t)(RW_UDP_HLEN + tl);
			ip.next_header = RW_IPPROTO_UDP;
			if (!ip.hop_limit)
				ip.hop_limit = 64;
		}
		TRY(rw_ipv6_encode(&ip, at(o), left(o), &n));
	} else {
		struct rw_ipv4 ip = p->ipv4;
		if (!raw) {
			size_t hl = RW_IPV4_MIN_HLEN + ((size_t)ip.options_len + 3) / 4 * 4;
			if (hl + RW_UDP_HLEN + tl > 0xFFFF)
				return RW_ERR_INVALID;
			ip.total_len = (uint16_t)(hl + RW_UDP_HLEN + tl);
			ip.protocol = RW_IPPROTO_UDP;
			if (!ip.ttl)
				ip.ttl = 64;
		}
		TRY(rw_ipv4_encode(&ip, raw, at(o), left(o), &n));
	}
	o->off += n;
	struct rw_udp u = p->udp;
	if (!raw) {
		u.len = (uint16_t)(RW_UDP_HLEN + tl);
		if (!u.dport)
			u.dport = RW_ROCEV2_PORT;
	}
	TRY(rw_udp_encode(&u, at(o), left(o), &n));
	o->off += n;
	TRY(put_transport(p, pad, o));
	sign(p, flags, o->buf + start, at(o));
	return RW_OK;
}

static enum rw_err put_rocev1(const struct rw_packet *p, unsigned flags, struct out *o)
{
	uint8_t pad = pad_for(p, flags);
	size_t start = o->off;
	TRY(put_grh(p, flags, transport_len(p, pad), o));
	TRY(put_transport(p, pad, o));
	sign(p, flags, o->buf + start, at(o));
	return RW_OK;
}

static uint16_t carrier_ethertype(const struct rw_packet *p)
{
	switch (p->carrier) {
	case RW_CARRIER_ROCEV2:
		return p->present & RW_P_IPV6 ? RW_ETHERTYPE_IPV6 : RW_ETHERTYPE_IPV4;
	case RW_CARRIER_ROCEV1:
		return RW_ETHERTYPE_ROCEV1;
	case RW_CARRIER_PFC:
	case RW_CARRIER_PAUSE:
		return RW_ETHERTYPE_MACCTRL;
	default:
		return p->eth.ethertype;
	}
}

/* The first ethertype of the chain (what the Ethernet or SLL header names)
 * and the VLAN tags after it. */
static uint16_t vlan_tpid(const struct rw_packet *p, unsigned i)
{
	if (p->vlan[i].tpid)
		return p->vlan[i].tpid;
	return (i == 0 && p->n_vlan > 1) ? RW_ETHERTYPE_QINQ : RW_ETHERTYPE_VLAN;
}

static enum rw_err put_after_ethertype(const struct rw_packet *p, unsigned flags, struct out *o)
{
	size_t n;
	if (p->n_vlan > RW_MAX_VLAN)
		return RW_ERR_INVALID;
	for (unsigned i = 0; i < p->n_vlan; i++) {
		struct rw_vlan v = p->vlan[i];
		v.ethertype = i + 1 < p->n_vlan ? vlan_tpid(p, i + 1) : carrier_ethertype(p);
		TRY(rw_vlan_encode(&v, at(o), left(o), &n));
		o->off += n;
	}
	switch (p->carrier) {
	case RW_CARRIER_ROCEV2:
		return put_rocev2(p, flags, o);
	case RW_CARRIER_ROCEV1:
		return put_rocev1(p, flags, o);
	case RW_CARRIER_PFC:
	case RW_CARRIER_PAUSE: {
		struct rw_macctrl m = p->macctrl;
		m.opcode = p->carrier == RW_CARRIER_PFC ? RW_MACCTRL_PFC : RW_MACCTRL_PAUSE;
		TRY(rw_macctrl_encode(&m, at(o), left(o), &n));
		o->off += n;
		return RW_OK;
	}
	case RW_CARRIER_IB:
		return RW_ERR_INVALID; /* native IB has no ethertype */
	default:
		if (left(o) < p->payload_len)
			return RW_ERR_NOSPACE;
		if (p->payload)
			memcpy(at(o), p->payload, p->payload_len);
		else
			memset(at(o), 0, p->payload_len);
		o->off += p->payload_len;
		return RW_OK;
	}
}

static uint16_t first_ethertype(const struct rw_packet *p)
{
	return p->n_vlan ? vlan_tpid(p, 0) : carrier_ethertype(p);
}

static enum rw_err put_eth(const struct rw_packet *p, unsigned flags, struct out *o)
{
	static const uint8_t pfc_dst[6] = { 0x01, 0x80, 0xC2, 0x00, 0x00, 0x01 };
	static const uint8_t zero[6];
	struct rw_eth e = p->eth;
	size_t start = o->off, n;

	/* IEEE 802.3 31B: MAC control frames go to the reserved multicast. */
	if ((p->carrier == RW_CARRIER_PFC || p->carrier == RW_CARRIER_PAUSE) &&
	    memcmp(e.dst, zero, 6) == 0)
		memcpy(e.dst, pfc_dst, 6);
	e.ethertype = first_ethertype(p);
	TRY(rw_eth_encode(&e, at(o), left(o), &n));
	o->off += n;
	TRY(put_after_ethertype(p, flags, o));
	if (!(flags & RW_BUILD_NO_PAD_FRAME) && o->off - start < RW_ETH_MIN_FRAME) {
		size_t padn = RW_ETH_MIN_FRAME - (o->off - start);
		if (left(o) < padn)
			return RW_ERR_NOSPACE;
		memset(at(o), 0, padn);
		o->off += padn;
	}
	return RW_OK;
}

enum rw_err rw_packet_build(const struct rw_packet *p, int linktype, unsigned flags, uint8_t *buf,
			    size_t cap, size_t *written)
{
	struct out o = { buf, cap, 0 };
	size_t n;

	switch (linktype) {
	case RW_LINKTYPE_ETHERNET:
		if (p->carrier == RW_CARRIER_IB)
			return RW_ERR_INVALID;
		TRY(put_eth(p, flags, &o));
		break;
	case RW_LINKTYPE_INFINIBAND:
		if (p->carrier != RW_CARRIER_IB)
			return RW_ERR_INVALID;
		TRY(put_ib(p, flags, &o));
		break;
	case RW_LINKTYPE_LINUX_SLL:
	case RW_LINKTYPE_LINUX_SLL2: {
		if (p->carrier == RW_CARRIER_IB)
			return RW_ERR_INVALID;
		struct rw_sll s = p->sll;
		s.protocol = first_ethertype(p);
		if (!s.hatype)
			s.hatype = 1; /* ARPHRD_ETHER */
		if (linktype == RW_LINKTYPE_LINUX_SLL)
			TRY(rw_sll_encode(&s, at(&o), left(&o), &n));
		else
			TRY(rw_sll2_encode(&s, at(&o), left(&o), &n));
		o.off += n;
		TRY(put_after_ethertype(p, flags, &o));
		break;
	}
	case RW_LINKTYPE_ERF: {
		struct rw_erf h = p->erf;
		h.type = p->carrier == RW_CARRIER_IB ? RW_ERF_TYPE_INFINIBAND : RW_ERF_TYPE_ETH;
		TRY(rw_erf_encode(&h, at(&o), left(&o), &n));
		o.off += n;
		size_t hl = n;
		if (p->carrier == RW_CARRIER_IB)
			TRY(put_ib(p, flags, &o));
		else
			TRY(put_eth(p, flags, &o));
		if (o.off > 0xFFFF)
			return RW_ERR_INVALID;
		h.rlen = (uint16_t)o.off;
		h.wlen = (uint16_t)(o.off - hl);
		rw_erf_encode(&h, buf, cap, &n);
		break;
	}
	default:
		return RW_ERR_INVALID;
	}
	if (written)
		*written = o.off;
	return RW_OK;
}
