/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole-frame decode: capture framing -> carriers -> IB transport.
 *
 * Lengths come from the carriers' own length fields (IP total length, UDP
 * length, GRH PayLen, LRH PktLen), never from the captured length alone:
 * Ethernet pads short frames, ERF records pad to 8 bytes, and snaplen cuts
 * frames. A header that the length fields say is incomplete is MALFORMED;
 * one that is complete on the wire but cut by the capture is TRUNCATED. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rocewire/crc.h"
#include "rocewire/fields.h"
#include "rocewire/icrc.h"
#include "rocewire/packet.h"
#include "rocewire/wire.h"

struct walk {
	const struct rw_decode_cfg *cfg;
	const uint8_t *f;
	size_t cap_end;  /* captured bytes of the frame */
	size_t wire_end; /* bytes the frame had on the wire */
	struct rw_packet *p;
};

static enum rw_err fail(struct walk *w, enum rw_err err, enum rw_layer layer, size_t off,
			size_t need, const char *what)
{
	struct rw_packet *p = w->p;
	p->err = err;
	p->err_layer = layer;
	p->err_offset = (uint32_t)off;
	p->err_need = (uint32_t)need;
	p->err_what = what;
	return err;
}

/* Checks that `need` bytes at `off` exist before `end` (the end the length
 * fields give) and were captured. */
static enum rw_err room(struct walk *w, size_t off, size_t need, size_t end, enum rw_layer layer,
			enum rw_hdr h)
{
	if (off + need > end || off + need > w->wire_end) {
		if (h)
			w->p->err_hdr = h;
		return fail(w, RW_ERR_MALFORMED, layer, off, need,
			    "the packet's length fields end inside this header");
	}
	if (off + need > w->cap_end) {
		if (h)
			w->p->err_hdr = h;
		return fail(w, RW_ERR_TRUNCATED, layer, off, need, "cut by the capture's snapshot length");
	}
	return RW_OK;
}

static void check_icrc(struct walk *w, size_t start, size_t ib_end)
{
	struct rw_packet *p = w->p;
	if (ib_end > w->cap_end || ib_end < start + RW_ICRC_LEN)
		return;
	p->present |= RW_P_ICRC;
	p->icrc_start = (uint16_t)start;
	p->icrc_wire = rw_get_le32(w->f + ib_end - RW_ICRC_LEN);
	if (w->cfg && w->cfg->no_icrc_check)
		return;
	size_t n = ib_end - RW_ICRC_LEN - start;
	switch (p->carrier) {
	case RW_CARRIER_ROCEV2:
		p->icrc_computed = rw_icrc_rocev2(w->f + start, n);
		break;
	case RW_CARRIER_ROCEV1:
		p->icrc_computed = rw_icrc_rocev1(w->f + start, n);
		break;
	default:
		p->icrc_computed = rw_icrc_ib(w->f + start, n);
		break;
	}
	p->icrc_status = p->icrc_computed == p->icrc_wire ? RW_CRC_OK : RW_CRC_BAD;
}

/* IPoIB (RFC 4391): the 4-byte header, then an IPv4 or IPv6 header or an
 * ARP packet of hardware type InfiniBand. Known by its contents, as
 * Wireshark knows it: the QP numbers and Q_Keys IPoIB uses are the
 * subnet's choice. The first byte after the header is checked too, so that
 * a SEND of application data that happens to start 08 00 00 00 (a
 * little-endian 8) is not taken for IPv4. */
static int ipoib_type(const uint8_t *b, size_t n)
{
	if (n < RW_IPOIB_HLEN + 2 || rw_field_peek(RW_FIELD(IPOIB_RESV), b))
		return -1;
	unsigned t = (unsigned)rw_field_peek(RW_FIELD(IPOIB_TYPE), b), v = b[RW_IPOIB_HLEN];
	switch (t) {
	case RW_ETHERTYPE_IPV4:
		return v >= 0x45 && v <= 0x4F ? (int)t : -1;
	case RW_ETHERTYPE_IPV6:
		return (v >> 4) == 6 ? (int)t : -1;
	case RW_ETHERTYPE_ARP:
		/* ARP's hardware type, its first field (RFC 826) */
		return rw_get_be16(b + RW_IPOIB_HLEN) == RW_ARPHRD_INFINIBAND ? (int)t : -1;
	default:
		return -1;
	}
}

/* What the first packet of a SEND carries: a management datagram (a UD
 * SEND of 256 bytes to QP 0 or 1: IBA 13.5.1 reserves them for MADs), else
 * maybe IPoIB. */
static void send_payload(struct rw_packet *p, const struct rw_opcode_info *op)
{
	int t;
	if (op->transport == RW_TRANSPORT_UD && p->bth.dqpn <= RW_QP1 && !(op->flags & RW_OPF_IMM)) {
		/* IBA 13.4.2: every MAD is 256 bytes; anything else sent to
		 * QP 0 or 1 is not one (nor IPoIB) */
		if (p->payload_len != RW_MAD_LEN)
			return;
		if (rw_mad_brief_decode(p->payload, p->payload_caplen, &p->mad) == RW_OK)
			p->present |= RW_P_MAD;
		return;
	}
	if ((t = ipoib_type(p->payload, p->payload_caplen)) >= 0) {
		p->present |= RW_P_IPOIB;
		p->ipoib_type = (uint16_t)t;
	}
}

/* The IB transport: BTH, the extension headers the opcode table names, the
 * payload and pad. ib_end is the end of the ICRC. */
static enum rw_err decode_transport(struct walk *w, size_t off, size_t ib_end)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	p->bth_off = (uint16_t)off;
	p->ib_len = (uint32_t)(ib_end > off ? ib_end - off : 0);
	if ((e = room(w, off, RW_BTH_LEN, ib_end, RW_L_BTH, 0)))
		return e;
	rw_bth_decode(w->f + off, RW_BTH_LEN, &p->bth);
	p->present |= RW_P_BTH;
	const struct rw_opcode_info *op = rw_opcode(p->bth.opcode);
	p->op = op;
	if (!(op->flags & RW_OPF_VALID)) {
		if (op->transport == RW_TRANSPORT_VENDOR)
			return fail(w, RW_ERR_UNSUPPORTED, RW_L_BTH, off, 0,
				    "manufacturer-specific opcode");
		return fail(w, RW_ERR_MALFORMED, RW_L_BTH, off, 0, "reserved opcode");
	}
	/* Length is checked once against the table (rxe does the same): the
	 * headers, the pad and the ICRC must fit in what the carrier says. */
	size_t min = (size_t)op->hdr_len + p->bth.pad + RW_ICRC_LEN;
	if (p->ib_len < min)
		return fail(w, RW_ERR_MALFORMED, RW_L_BTH, off, min,
			    "packet too short for its opcode's headers, pad and ICRC");

	size_t hoff = off + RW_BTH_LEN;
	size_t hend = ib_end - RW_ICRC_LEN;
	/* The headers the table names, in wire order (IBA 9.2: RDETH, DETH,
	 * XRCETH, ... is also the order of the bits): one pass over the set
	 * bits, most opcodes have none or one. */
	for (unsigned m = op->hdrs; m; m &= m - 1) {
		enum rw_hdr h = (enum rw_hdr)(m & -m);
		unsigned hl;
		switch (h) {
		case RW_HDR_RDETH: hl = RW_RDETH_LEN; break;
		case RW_HDR_DETH: hl = RW_DETH_LEN; break;
		case RW_HDR_XRCETH: hl = RW_XRCETH_LEN; break;
		case RW_HDR_FETH: hl = RW_FETH_LEN; break;
		case RW_HDR_RETH: hl = RW_RETH_LEN; break;
		case RW_HDR_ATOMICETH: hl = RW_ATOMICETH_LEN; break;
		case RW_HDR_AETH: hl = RW_AETH_LEN; break;
		case RW_HDR_ATOMICACKETH: hl = RW_ATOMICACKETH_LEN; break;
		case RW_HDR_CNP: hl = RW_CNP_LEN; break;
		case RW_HDR_IMMDT: hl = RW_IMMDT_LEN; break;
		case RW_HDR_IETH: hl = RW_IETH_LEN; break;
		default: hl = 0; break; /* no other bit is set in the table */
		}
		if ((e = room(w, hoff, hl, hend, RW_L_EXT, h)))
			return e;
		const uint8_t *q = w->f + hoff;
		switch (h) {
		case RW_HDR_RDETH:
			rw_rdeth_decode(q, hl, &p->rdeth);
			break;
		case RW_HDR_DETH:
			rw_deth_decode(q, hl, &p->deth);
			break;
		case RW_HDR_XRCETH:
			rw_xrceth_decode(q, hl, &p->xrceth);
			break;
		case RW_HDR_FETH:
			rw_feth_decode(q, hl, &p->feth);
			break;
		case RW_HDR_RETH:
			rw_reth_decode(q, hl, &p->reth);
			break;
		case RW_HDR_ATOMICETH:
			rw_atomiceth_decode(q, hl, &p->atomiceth);
			break;
		case RW_HDR_AETH:
			rw_aeth_decode(q, hl, &p->aeth);
			break;
		case RW_HDR_ATOMICACKETH:
			rw_atomicacketh_decode(q, hl, &p->atomicacketh);
			break;
		case RW_HDR_IMMDT:
			rw_u32_decode(q, hl, &p->immdt);
			break;
		case RW_HDR_IETH:
			rw_u32_decode(q, hl, &p->ieth);
			break;
		case RW_HDR_CNP: {
			int nz = 0;
			rw_cnp_decode(q, hl, &nz);
			p->cnp_nonzero = (uint8_t)nz;
			break;
		}
		}
		p->hdrs |= (uint16_t)h;
		hoff += hl;
	}

	p->payload_off = (uint16_t)hoff;
	p->payload = w->f + hoff;
	p->payload_len = (uint32_t)(p->ib_len - min);
	size_t cap_payload = w->cap_end > hoff ? w->cap_end - hoff : 0;
	p->payload_caplen = (uint32_t)(cap_payload < p->payload_len ? cap_payload : p->payload_len);
	if (p->payload_len && !(op->flags & RW_OPF_PAYLOAD))
		return fail(w, RW_ERR_MALFORMED, RW_L_PAYLOAD, hoff, 0,
			    "payload after the headers of an opcode that carries none");
	if (op->op == RW_OP_SEND && (op->flags & RW_OPF_FIRST) && p->payload_caplen)
		send_payload(p, op);
	if (ib_end > w->cap_end) {
		if (hoff + p->payload_len + p->bth.pad > w->cap_end)
			return fail(w, RW_ERR_TRUNCATED, RW_L_PAYLOAD, hoff,
				    p->payload_len + p->bth.pad,
				    "cut by the capture's snapshot length");
		return fail(w, RW_ERR_TRUNCATED, RW_L_ICRC, ib_end - RW_ICRC_LEN, RW_ICRC_LEN,
			    "cut by the capture's snapshot length");
	}
	return RW_OK;
}

/* Native InfiniBand from the LRH (link type 247, ERF InfiniBand records). */
static enum rw_err decode_ib(struct walk *w, size_t off)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	p->l2_off = (uint16_t)off;
	if ((e = room(w, off, RW_LRH_LEN, w->wire_end, RW_L_LRH, 0)))
		return e;
	rw_lrh_decode(w->f + off, RW_LRH_LEN, &p->lrh);
	p->present |= RW_P_LRH;
	p->carrier = RW_CARRIER_IB;
	size_t ib_end = off + (size_t)p->lrh.pktlen * 4;
	if (ib_end > w->wire_end)
		return fail(w, RW_ERR_MALFORMED, RW_L_LRH, off, (size_t)p->lrh.pktlen * 4,
			    "LRH PktLen is longer than the packet");
	if (p->lrh.lnh == RW_LNH_RAW || p->lrh.lnh == RW_LNH_IPV6)
		return fail(w, RW_ERR_UNSUPPORTED, RW_L_LRH, off, 0, "raw (non-IBA transport) packet");

	/* The VCRC follows the ICRC (IBA 7.8.2) and covers LRH through ICRC.
	 * Some sniffers record no VCRC at all (the wire length ends at the
	 * ICRC): then it is simply absent. */
	int vcrc_cut = 0;
	if (ib_end + RW_VCRC_LEN <= w->wire_end) {
		if (ib_end + RW_VCRC_LEN <= w->cap_end) {
			p->present |= RW_P_VCRC;
			p->vcrc_wire = rw_get_be16(w->f + ib_end);
			if (!(w->cfg && w->cfg->no_icrc_check)) {
				p->vcrc_computed = rw_vcrc16(w->f + off, ib_end - off);
				p->vcrc_status =
					p->vcrc_computed == p->vcrc_wire ? RW_CRC_OK : RW_CRC_BAD;
			}
		} else {
			vcrc_cut = 1;
		}
	}

	size_t bth = off + RW_LRH_LEN;
	if (p->lrh.lnh == RW_LNH_IBA_GLOBAL) {
		if ((e = room(w, bth, RW_GRH_LEN, ib_end, RW_L_GRH, 0)))
			return e;
		if (rw_grh_decode(w->f + bth, RW_GRH_LEN, &p->grh) != RW_OK)
			return fail(w, RW_ERR_MALFORMED, RW_L_GRH, bth, 0, "GRH IPVer is not 6");
		p->present |= RW_P_GRH;
		p->l3_off = (uint16_t)bth;
		if (p->grh.nxthdr != RW_GRH_NXTHDR_IBA)
			return fail(w, RW_ERR_UNSUPPORTED, RW_L_GRH, bth, 0,
				    "GRH NxtHdr is not 0x1B (IBA transport)");
		bth += RW_GRH_LEN;
	}
	check_icrc(w, off, ib_end);
	enum rw_err te = decode_transport(w, bth, ib_end);
	if (te == RW_OK && vcrc_cut)
		return fail(w, RW_ERR_TRUNCATED, RW_L_VCRC, ib_end, RW_VCRC_LEN,
			    "cut by the capture's snapshot length");
	return te;
}

/* RoCEv1: a GRH right after the Ethernet header (ethertype 0x8915). */
static enum rw_err decode_rocev1(struct walk *w, size_t off)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	p->l3_off = (uint16_t)off;
	p->carrier = RW_CARRIER_ROCEV1;
	if ((e = room(w, off, RW_GRH_LEN, w->wire_end, RW_L_GRH, 0)))
		return e;
	if (rw_grh_decode(w->f + off, RW_GRH_LEN, &p->grh) != RW_OK)
		return fail(w, RW_ERR_MALFORMED, RW_L_GRH, off, 0, "GRH IPVer is not 6");
	p->present |= RW_P_GRH;
	if (p->grh.nxthdr != RW_GRH_NXTHDR_IBA)
		return fail(w, RW_ERR_UNSUPPORTED, RW_L_GRH, off, 0,
			    "GRH NxtHdr is not 0x1B (IBA transport)");
	size_t ib_end = off + RW_GRH_LEN + p->grh.paylen;
	if (ib_end > w->wire_end)
		return fail(w, RW_ERR_MALFORMED, RW_L_GRH, off, RW_GRH_LEN + p->grh.paylen,
			    "GRH PayLen is longer than the frame");
	check_icrc(w, off, ib_end);
	return decode_transport(w, off + RW_GRH_LEN, ib_end);
}

static enum rw_err decode_udp(struct walk *w, size_t off, size_t ip_end)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	p->l4_off = (uint16_t)off;
	if ((e = room(w, off, RW_UDP_HLEN, ip_end, RW_L_UDP, 0)))
		return e;
	if (rw_udp_decode(w->f + off, RW_UDP_HLEN, &p->udp) != RW_OK)
		return fail(w, RW_ERR_MALFORMED, RW_L_UDP, off, 0, "UDP length is below 8");
	p->present |= RW_P_UDP;
	uint16_t port = w->cfg && w->cfg->rocev2_port ? w->cfg->rocev2_port : RW_ROCEV2_PORT;
	if (p->udp.dport != port)
		return RW_OK;
	p->carrier = RW_CARRIER_ROCEV2;
	size_t udp_end = off + p->udp.len;
	if (udp_end > ip_end)
		return fail(w, RW_ERR_MALFORMED, RW_L_UDP, off, p->udp.len,
			    "UDP length is longer than the IP packet");
	check_icrc(w, p->l3_off, udp_end);
	return decode_transport(w, off + RW_UDP_HLEN, udp_end);
}

static enum rw_err decode_ipv4(struct walk *w, size_t off)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	p->l3_off = (uint16_t)off;
	if ((e = room(w, off, RW_IPV4_MIN_HLEN, w->wire_end, RW_L_IPV4, 0)))
		return e;
	size_t hlen = (size_t)(w->f[off] & 0x0F) * 4;
	if (w->f[off] >> 4 == 4 && hlen > RW_IPV4_MIN_HLEN &&
	    (e = room(w, off, hlen, w->wire_end, RW_L_IPV4, 0)))
		return e;
	e = rw_ipv4_decode(w->f + off, w->cap_end - off, &p->ipv4);
	if (e == RW_ERR_MALFORMED) {
		const char *what = w->f[off] >> 4 != 4 ? "IP version is not 4"
			: p->ipv4.ihl < 5			 ? "IPv4 header length is below 20 bytes"
							   : "IPv4 total length is below its header length";
		return fail(w, e, RW_L_IPV4, off, 0, what);
	}
	p->present |= RW_P_IPV4;
	size_t ip_end = off + p->ipv4.total_len;
	if (ip_end > w->wire_end)
		return fail(w, RW_ERR_MALFORMED, RW_L_IPV4, off, p->ipv4.total_len,
			    "IPv4 total length is longer than the frame");
	/* A fragment (rw_ipv4_decode's UNSUPPORTED) is not RoCE, whose
	 * senders set DF and never fragment: "other", like any packet that
	 * is not RoCE, and not an error. */
	if (e == RW_ERR_UNSUPPORTED || p->ipv4.protocol != RW_IPPROTO_UDP)
		return RW_OK;
	return decode_udp(w, off + (size_t)p->ipv4.ihl * 4, ip_end);
}

/* The extension headers between the fixed header and the upper layer
 * (RFC 8200 4), bounded by the payload length: a header that runs past it
 * is MALFORMED, one the capture cut is TRUNCATED. */
static enum rw_err decode_ipv6_ext(struct walk *w, size_t off, size_t ip_end)
{
	struct rw_packet *p = w->p;
	struct rw_ipv6_ext *x = &p->ipv6_ext;
	size_t end = ip_end < w->cap_end ? ip_end : w->cap_end;
	enum rw_err e = rw_ipv6_ext_decode(w->f + off, end - off, p->ipv6.next_header, x);

	if (e == RW_OK)
		return RW_OK;
	size_t at = off + x->len;
	if (e == RW_ERR_TRUNCATED) {
		if (at + x->need > ip_end)
			return fail(w, RW_ERR_MALFORMED, RW_L_IPV6_EXT, at, x->need,
				    "the IPv6 payload length ends inside this extension header");
		return fail(w, e, RW_L_IPV6_EXT, at, x->need, "cut by the capture's snapshot length");
	}
	_Static_assert(RW_IPV6_EXT_MAX == 8, "the phrase below counts them");
	return fail(w, e, RW_L_IPV6_EXT, at, 0,
		    x->proto == RW_IPV6_EXT_HOPOPTS && x->n
			    ? "Hop-by-Hop Options not right after the IPv6 header (RFC 8200 4.3)"
			    : "more than 8 IPv6 extension headers (RFC 8200 4.1: each type at most once)");
}

static enum rw_err decode_ipv6(struct walk *w, size_t off)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	p->l3_off = (uint16_t)off;
	if ((e = room(w, off, RW_IPV6_HLEN, w->wire_end, RW_L_IPV6, 0)))
		return e;
	if (rw_ipv6_decode(w->f + off, RW_IPV6_HLEN, &p->ipv6) != RW_OK)
		return fail(w, RW_ERR_MALFORMED, RW_L_IPV6, off, 0, "IP version is not 6");
	p->present |= RW_P_IPV6;
	size_t ip_end = off + RW_IPV6_HLEN + p->ipv6.payload_len;
	if (ip_end > w->wire_end)
		return fail(w, RW_ERR_MALFORMED, RW_L_IPV6, off, RW_IPV6_HLEN + p->ipv6.payload_len,
			    "IPv6 payload length is longer than the frame");
	size_t l4 = off + RW_IPV6_HLEN;
	/* What RoCE NICs send is UDP right away: only other packets walk. */
	p->ipv6_ext.proto = p->ipv6.next_header;
	if (p->ipv6.next_header != RW_IPPROTO_UDP) {
		if ((e = decode_ipv6_ext(w, l4, ip_end)))
			return e;
		if (p->ipv6_ext.proto != RW_IPPROTO_UDP)
			return RW_OK;
		l4 += p->ipv6_ext.len;
	}
	return decode_udp(w, l4, ip_end);
}

static enum rw_err decode_macctrl(struct walk *w, size_t off)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	if ((e = room(w, off, 2, w->wire_end, RW_L_MACCTRL, 0)))
		return e;
	uint16_t opcode = rw_get_be16(w->f + off);
	if (opcode == RW_MACCTRL_PAUSE || opcode == RW_MACCTRL_PFC) {
		p->carrier = opcode == RW_MACCTRL_PFC ? RW_CARRIER_PFC : RW_CARRIER_PAUSE;
		size_t need = opcode == RW_MACCTRL_PFC ? RW_PFC_LEN : RW_PAUSE_LEN;
		if ((e = room(w, off, need, w->wire_end, RW_L_MACCTRL, 0)))
			return e;
	}
	e = rw_macctrl_decode(w->f + off, w->cap_end - off, &p->macctrl);
	if (e == RW_ERR_UNSUPPORTED)
		return RW_OK; /* another MAC control opcode (e.g. EPON): not ours */
	p->present |= RW_P_MACCTRL;
	return RW_OK;
}

/* Everything after an ethertype: VLAN tags, then the carrier. */
static enum rw_err decode_ethertype(struct walk *w, uint16_t type, size_t off)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	while (rw_ethertype_is_vlan(type)) {
		if (p->n_vlan == RW_MAX_VLAN)
			return fail(w, RW_ERR_UNSUPPORTED, RW_L_VLAN, off, 0, "more than 4 VLAN tags");
		if ((e = room(w, off, RW_VLAN_HLEN, w->wire_end, RW_L_VLAN, 0)))
			return e;
		struct rw_vlan *v = &p->vlan[p->n_vlan++];
		rw_vlan_decode(w->f + off, RW_VLAN_HLEN, type, v);
		type = v->ethertype;
		off += RW_VLAN_HLEN;
	}
	switch (type) {
	case RW_ETHERTYPE_IPV4:
		return decode_ipv4(w, off);
	case RW_ETHERTYPE_IPV6:
		return decode_ipv6(w, off);
	case RW_ETHERTYPE_ROCEV1:
		return decode_rocev1(w, off);
	case RW_ETHERTYPE_MACCTRL:
		return decode_macctrl(w, off);
	}
	return RW_OK;
}

static enum rw_err decode_eth(struct walk *w, size_t off)
{
	struct rw_packet *p = w->p;
	enum rw_err e;

	p->l2_off = (uint16_t)off;
	if ((e = room(w, off, RW_ETH_HLEN, w->wire_end, RW_L_ETH, 0)))
		return e;
	rw_eth_decode(w->f + off, RW_ETH_HLEN, &p->eth);
	p->present |= RW_P_ETH;
	return decode_ethertype(w, p->eth.ethertype, off + RW_ETH_HLEN);
}

static enum rw_err decode_erf(struct walk *w)
{
	struct rw_packet *p = w->p;
	enum rw_err e = rw_erf_decode(w->f, w->cap_end, &p->erf);

	if (e == RW_ERR_TRUNCATED)
		return fail(w, e, RW_L_ERF, 0, p->erf.hlen, "cut by the capture's snapshot length");
	if (e == RW_ERR_UNSUPPORTED)
		return fail(w, e, RW_L_ERF, 0, 0, "ERF record type is neither Ethernet nor InfiniBand");
	/* The first extension header past the limit; rw_packet_error() words it. */
	if (e == RW_ERR_MALFORMED && p->erf.n_ext > RW_ERF_MAX_EXT)
		return fail(w, e, RW_L_ERF, RW_ERF_LEN + RW_ERF_MAX_EXT * RW_ERF_EXT_LEN, 0,
			    "too many extension headers");
	if (e != RW_OK)
		return fail(w, e, RW_L_ERF, 0, 0, "ERF record length is below its header length");
	p->present |= RW_P_ERF;
	/* The record may be padded past the frame: its wire length bounds it. */
	size_t end = (size_t)p->erf.hlen + p->erf.wlen;
	if (end < w->wire_end)
		w->wire_end = end;
	if (end < w->cap_end)
		w->cap_end = end;
	if (p->erf.type == RW_ERF_TYPE_INFINIBAND || p->erf.type == RW_ERF_TYPE_INFINIBAND_LINK)
		return decode_ib(w, p->erf.hlen);
	return decode_eth(w, p->erf.hlen);
}

enum rw_err rw_packet_decode(const struct rw_decode_cfg *cfg, int linktype, const uint8_t *frame,
			     size_t caplen, size_t wirelen, struct rw_packet *out)
{
	struct walk w = { cfg, frame, caplen, wirelen < caplen ? caplen : wirelen, out };
	enum rw_err e;

	/* not memset: see rw_zero; ipv6_ext's arrays are left (packet.h) */
	_Static_assert(offsetof(struct rw_packet, ipv6_ext) + sizeof(struct rw_ipv6_ext) +
				       _Alignof(struct rw_packet) > sizeof(struct rw_packet),
		       "ipv6_ext is the last member of struct rw_packet");
	rw_zero(out, offsetof(struct rw_packet, ipv6_ext));
	out->ipv6_ext.n = 0;
	out->ipv6_ext.proto = 0;
	out->ipv6_ext.len = 0;
	out->ipv6_ext.need = 0;
	out->caplen = (uint32_t)caplen;
	out->wirelen = (uint32_t)wirelen;
	switch (linktype) {
	case RW_LINKTYPE_ETHERNET:
		return decode_eth(&w, 0);
	case RW_LINKTYPE_INFINIBAND:
		return decode_ib(&w, 0);
	case RW_LINKTYPE_ERF:
		return decode_erf(&w);
	case RW_LINKTYPE_LINUX_SLL:
	case RW_LINKTYPE_LINUX_SLL2: {
		int v2 = linktype == RW_LINKTYPE_LINUX_SLL2;
		size_t hl = v2 ? RW_SLL2_LEN : RW_SLL_LEN;
		enum rw_layer layer = v2 ? RW_L_SLL2 : RW_L_SLL;
		if ((e = room(&w, 0, hl, w.wire_end, layer, 0)))
			return e;
		if (v2)
			rw_sll2_decode(frame, hl, &out->sll);
		else
			rw_sll_decode(frame, hl, &out->sll);
		out->present |= v2 ? RW_P_SLL2 : RW_P_SLL;
		out->l2_off = (uint16_t)hl;
		return decode_ethertype(&w, out->sll.protocol, hl);
	}
	}
	return fail(&w, RW_ERR_UNSUPPORTED, RW_L_NONE, 0, 0, "link type not supported");
}

const char *rw_carrier_name(enum rw_carrier c)
{
	static const char *const names[] = {
		"other", "rocev2", "rocev1", "ib", "pfc", "pause",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == RW_CARRIER_COUNT, "names: one entry per value");
	return (unsigned)c < RW_CARRIER_COUNT ? names[c] : "other";
}

const char *rw_layer_name(enum rw_layer l)
{
	static const char *const names[] = {
		"frame", "ERF", "SLL", "SLL2", "Ethernet", "VLAN", "MAC control", "IPv4", "IPv6",
		"IPv6 extension header", "UDP", "LRH", "GRH", "BTH", "extension header", "payload",
		"ICRC", "VCRC",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == RW_L_VCRC + 1,
		       "a name for every enum rw_layer");
	return (unsigned)l < sizeof(names) / sizeof(names[0]) ? names[l] : "?";
}

const char *rw_crc_status_name(enum rw_crc_status s)
{
	return s == RW_CRC_OK ? "ok" : s == RW_CRC_BAD ? "bad" : "none";
}

const char *rw_packet_error(const struct rw_packet *p, char *buf, size_t cap)
{
	char layer[40];

	if (!cap)
		return buf;
	buf[0] = '\0';
	if (p->err == RW_OK)
		return buf;
	if (p->err_layer == RW_L_EXT) {
		/* Upper-case the extension header's name: "RETH". */
		const char *n = rw_hdr_name(p->err_hdr);
		size_t i = 0;
		for (; n[i] && i < sizeof(layer) - 1; i++)
			layer[i] = (char)(n[i] >= 'a' && n[i] <= 'z' ? n[i] - 32 : n[i]);
		layer[i] = '\0';
		if (strcmp(layer, "ATOMICETH") == 0)
			strcpy(layer, "AtomicETH");
		else if (strcmp(layer, "ATOMICACKETH") == 0)
			strcpy(layer, "AtomicAckETH");
		else if (strcmp(layer, "IMMDT") == 0)
			strcpy(layer, "ImmDt");
		else if (strcmp(layer, "CNP") == 0)
			strcpy(layer, "CNP reserved bytes");
	} else if (p->err_layer == RW_L_IPV6_EXT && rw_ipv6_ext_name(p->ipv6_ext.proto)) {
		/* "IPv6 routing header" */
		snprintf(layer, sizeof(layer), "IPv6 %s header", rw_ipv6_ext_name(p->ipv6_ext.proto));
	} else {
		snprintf(layer, sizeof(layer), "%s", rw_layer_name(p->err_layer));
	}
	if (p->err == RW_ERR_TRUNCATED) {
		size_t have = p->caplen > p->err_offset ? p->caplen - p->err_offset : 0;
		snprintf(buf, cap, "%s truncated at byte %u: %u bytes needed, %zu captured (%s)", layer,
			 (unsigned)p->err_offset, (unsigned)p->err_need, have, p->err_what);
	} else if (p->err == RW_ERR_MALFORMED && p->err_layer == RW_L_ERF &&
		   p->erf.n_ext > RW_ERF_MAX_EXT) {
		snprintf(buf, cap, "ERF malformed at byte %u: %s (%s%u; rocewire reads at most %u)",
			 (unsigned)p->err_offset, p->err_what, p->erf.ext_more ? "at least " : "",
			 (unsigned)p->erf.n_ext, RW_ERF_MAX_EXT);
	} else if (p->err == RW_ERR_MALFORMED && p->err_need) {
		snprintf(buf, cap, "%s malformed at byte %u: %s (%u bytes expected)", layer,
			 (unsigned)p->err_offset, p->err_what, (unsigned)p->err_need);
	} else {
		snprintf(buf, cap, "%s %s at byte %u: %s", layer, rw_strerror(p->err),
			 (unsigned)p->err_offset, p->err_what ? p->err_what : "");
	}
	return buf;
}

const char *rw_packet_problem(const struct rw_packet *p, size_t caplen, size_t wirelen, char *buf,
			      size_t cap)
{
	char why[320];

	rw_packet_error(p, why, sizeof(why));
	if (why[0] == '\0')
		snprintf(why, sizeof(why), "%s", rw_strerror(p->err));
	if (p->err == RW_ERR_TRUNCATED && caplen < wirelen)
		snprintf(buf, cap, "cut by snaplen to %zu of %zu bytes: %s", caplen, wirelen, why);
	else
		snprintf(buf, cap, "%s", why);
	return buf;
}
