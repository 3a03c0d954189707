/* SPDX-License-Identifier: BSD-3-Clause */
/* The field tables (fields.h): one per header, in wire order of the fields.
 *
 * Each row is checked at compile time: its bytes lie within the header
 * (HLEN), its bits within the bytes it reads, and its width within the
 * decoded struct's member (S) that the codec fills. A failed check is a
 * negative array size. */
#include <string.h>

#include "mad_layout.h"
#include "rocewire/fields.h"
#include "rocewire/mad.h"
#include "rocewire/wire.h"

/* A row's name and its length (a string literal's size, known at compile time). */
#define NAME_(nm) .name = nm, .nlen = sizeof(nm) - 1
#define RW_CHECK(e) (0 * (int)sizeof(char[(e) ? 1 : -1]))
#define FIT(o, sz, sh, bt) RW_CHECK((o) + (sz) <= HLEN && (sh) + (bt) <= 8 * (sz) && (sz) <= 16)
#define MEMBER(m, bt) RW_CHECK((bt) <= 8 * sizeof(((S *)0)->m))

/* A number of bt bits, shifted by sh, in the sz bytes at o; the codec puts
 * it in member m of S. Further designated initializers follow. */
#define NUM(nm, o, sz, sh, bt, m, ...)                                                              \
	{ NAME_(nm), .off = (uint16_t)((o) + FIT(o, sz, sh, bt) + MEMBER(m, bt)), .size = sz,      \
	  .shift = sh, .bits = bt, .of = 0xFF, __VA_ARGS__ }
/* The same without a struct member (the version nibbles: checked, not kept). */
#define NUMX(nm, o, sz, sh, bt, ...)                                                                \
	{ NAME_(nm), .off = (uint16_t)((o) + FIT(o, sz, sh, bt)), .size = sz, .shift = sh,         \
	  .bits = bt, .of = 0xFF, __VA_ARGS__ }
#define FLAG(nm, o, sh, m, ...) NUM(nm, o, 1, sh, 1, m, .type = RW_FT_FLAG, __VA_ARGS__)
#define ADDR(nm, o, sz, ty, m)                                                                      \
	{ NAME_(nm), .off = (uint16_t)((o) + FIT(o, sz, 0, 0) + RW_CHECK(sizeof(((S *)0)->m) >= (sz))), \
	  .size = sz, .type = ty, .of = 0xFF }
/* The same at the position a RW_FP_ macro of fields.h gives (the fields
 * tmpl.c and rewrite.c patch by name). */
#define NUMP(nm, pos, m, ...) NUM(nm, pos, m, __VA_ARGS__)
#define NUMXP(nm, pos, ...) NUMX(nm, pos, __VA_ARGS__)
#define FLAGP(nm, pos, m, ...) NUMP(nm, pos, m, .type = RW_FT_FLAG, __VA_ARGS__)
#define ADDRP(nm, pos, ty, m) ADDRP_(nm, pos, ty, m)
#define ADDRP_(nm, o, sz, sh, bt, ty, m) ADDR(nm, o, sz, ty, m)
#define NAMEOF(nm, i, fn, ...) { NAME_(nm), .type = RW_FT_NAME, .of = i, .vname = fn, __VA_ARGS__ }
#define DERIVED(nm, fn, ...) { NAME_(nm), .flags = RW_FF_DERIVED, .get = fn, .of = 0xFF, __VA_ARGS__ }
#define HEX(d) .base = RW_BASE_HEX, .digits = d
#define N(a) (uint8_t)(sizeof(a) / sizeof((a)[0]))

/* ---- value names ---------------------------------------------------------- */

const char *rw_ecn_name(unsigned ecn)
{
	static const char *const names[4] = {"Not-ECT", "ECT(1)", "ECT(0)", "CE"};
	return names[ecn & 3];
}

const char *rw_ethertype_name(uint16_t t)
{
	switch (t) {
	case RW_ETHERTYPE_IPV4: return "IPv4";
	case RW_ETHERTYPE_IPV6: return "IPv6";
	case RW_ETHERTYPE_VLAN: return "802.1Q";
	case RW_ETHERTYPE_QINQ: return "802.1ad";
	case RW_ETHERTYPE_QINQ_OLD: return "QinQ";
	case RW_ETHERTYPE_ROCEV1: return "RoCEv1";
	case RW_ETHERTYPE_MACCTRL: return "MAC control";
	case 0x0806: return "ARP";
	case 0x88CC: return "LLDP";
	case 0x8906: return "FCoE";
	case 0x8914: return "FIP";
	default: return NULL;
	}
}

const char *rw_ipproto_name(uint8_t proto)
{
	switch (proto) {
	case 1: return "ICMP";
	case 6: return "TCP";
	case RW_IPPROTO_UDP: return "UDP";
	case 58: return "ICMPv6";
	/* the numbers IPv6 extension headers share with protocols: "routing" */
	default: return rw_ipv6_ext_name(proto);
	}
}

const char *rw_aeth_kind_key(unsigned kind)
{
	static const char *const names[] = {
		[RW_AETH_ACK] = "ack", [RW_AETH_RNR_NAK] = "rnr_nak", [RW_AETH_RESERVED] = "reserved",
		[RW_AETH_NAK] = "nak",
	};
	_Static_assert(N(names) == 4, "names: the four AETH kinds (2 bits)");
	return names[kind & 3];
}

static const char *vn_ecn(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_ecn_name((unsigned)v);
}

static const char *vn_ethertype(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_ethertype_name((uint16_t)v);
}

static const char *vn_ipproto(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_ipproto_name((uint8_t)v);
}

static const char *vn_ipv6_ext(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_ipv6_ext_name((uint8_t)v);
}

/* The opcode table (opcode.c) is the one source of opcode names. */
static const char *vn_opcode(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_opcode((uint8_t)v)->name;
}

static const char *vn_transport(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_transport_name((enum rw_transport)rw_opcode((uint8_t)v)->transport);
}

static const char *vn_lnh(uint64_t v, const struct rw_hview *h)
{
	static const char *const names[] = {
		[RW_LNH_RAW] = "raw", [RW_LNH_IPV6] = "IPv6", [RW_LNH_IBA_LOCAL] = "IBA local",
		[RW_LNH_IBA_GLOBAL] = "IBA global",
	};
	_Static_assert(N(names) == 4, "names: the four LNH values (2 bits)");
	(void)h;
	return names[v & 3];
}

static const char *vn_nxthdr(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return v == RW_GRH_NXTHDR_IBA ? "IBA" : NULL;
}

static const char *vn_macctrl(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return v == RW_MACCTRL_PFC ? "PFC" : v == RW_MACCTRL_PAUSE ? "PAUSE" : NULL;
}

static const char *vn_aeth_kind(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_aeth_kind_key((unsigned)v);
}

static const char *vn_nak(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_nak_code_name((uint8_t)v);
}

/* ---- derived fields and conditions -------------------------------------- */

static int get_erf_ext(const struct rw_hview *h, uint64_t *v)
{
	*v = h->p->erf.n_ext;
	return 1;
}

static int get_erf_hlen(const struct rw_hview *h, uint64_t *v)
{
	*v = h->p->erf.hlen;
	return 1;
}

static int get_sll_version(const struct rw_hview *h, uint64_t *v)
{
	*v = h->hd == RW_HD_SLL2 ? 2 : 1;
	return 1;
}

static int get_vlan_tpid(const struct rw_hview *h, uint64_t *v)
{
	*v = h->p->vlan[h->idx < RW_MAX_VLAN ? h->idx : 0].tpid;
	return 1;
}

static int get_ipv4_optlen(const struct rw_hview *h, uint64_t *v)
{
	*v = (h->b[0] & 0x0Fu) * 4u - RW_IPV4_MIN_HLEN;
	return 1;
}

static int when_ipv4_options(const struct rw_hview *h)
{
	return (h->b[0] & 0x0Fu) > 5;
}

static int get_ext_type(const struct rw_hview *h, uint64_t *v)
{
	*v = h->p->ipv6_ext.type[h->idx < RW_IPV6_EXT_MAX ? h->idx : 0];
	return 1;
}

static int get_ext_len(const struct rw_hview *h, uint64_t *v)
{
	*v = h->p->ipv6_ext.hlen[h->idx < RW_IPV6_EXT_MAX ? h->idx : 0];
	return 1;
}

static int when_ack(const struct rw_hview *h)
{
	return rw_aeth_kind_of(h->b[0]) == RW_AETH_ACK;
}

static int when_rnr(const struct rw_hview *h)
{
	return rw_aeth_kind_of(h->b[0]) == RW_AETH_RNR_NAK;
}

static int when_nak(const struct rw_hview *h)
{
	return rw_aeth_kind_of(h->b[0]) == RW_AETH_NAK;
}

static int when_resv_kind(const struct rw_hview *h)
{
	return rw_aeth_kind_of(h->b[0]) == RW_AETH_RESERVED;
}

static int get_credits(const struct rw_hview *h, uint64_t *v)
{
	int c = rw_aeth_credits(rw_aeth_value_of(h->b[0]));
	if (c < 0)
		return 0;
	*v = (uint64_t)c;
	return 1;
}

static int get_rnr_us(const struct rw_hview *h, uint64_t *v)
{
	*v = rw_rnr_timer_us(rw_aeth_value_of(h->b[0]));
	return 1;
}

/* ---- the tables ---------------------------------------------------------- */

/* ERF record header (the ERF types document): timestamp (little-endian),
 * type (bit 7: an extension header follows), flags, rlen, lctr, wlen. */
#define HLEN RW_ERF_LEN
#define S struct rw_erf
static const struct rw_field f_erf[] = {
	NUM("ts", 0, 8, 0, 64, ts, HEX(16), .flags = RW_FF_LE),
	NUM("type", 8, 1, 0, 7, type),
	NUM("flags", 9, 1, 0, 8, flags, HEX(2)),
	NUM("rlen", 10, 2, 0, 16, rlen),
	NUM("lctr", 12, 2, 0, 16, lctr),
	NUM("wlen", 14, 2, 0, 16, wlen),
	DERIVED("extensions", get_erf_ext),
	DERIVED("hlen", get_erf_hlen),
};
#undef HLEN
#undef S

/* Linux cooked capture v1 (LINKTYPE_LINUX_SLL) and v2 (LINKTYPE_LINUX_SLL2):
 * one JSON object "sll" with a version. */
#define HLEN RW_SLL_LEN
#define S struct rw_sll
static const struct rw_field f_sll[] = {
	DERIVED("version", get_sll_version),
	NUM("pkttype", 0, 2, 0, 16, pkttype),
	NUM("hatype", 2, 2, 0, 16, hatype),
	NUM("addr_len", 4, 2, 0, 16, addr_len),
	{ NAME_("addr"), .off = 6 + FIT(6, 8, 0, 0), .size = 8, .type = RW_FT_BYTES, .of = 3 },
	NUM("protocol", 14, 2, 0, 16, protocol, HEX(4), .vname = vn_ethertype),
};
#undef HLEN
#define HLEN RW_SLL2_LEN
static const struct rw_field f_sll2[] = {
	DERIVED("version", get_sll_version),
	NUM("protocol", 0, 2, 0, 16, protocol, HEX(4), .vname = vn_ethertype),
	NUMX("resv", 2, 2, 0, 16, .flags = RW_FF_RESV),
	NUM("ifindex", 4, 4, 0, 32, ifindex),
	NUM("hatype", 8, 2, 0, 16, hatype),
	NUM("pkttype", 10, 1, 0, 8, pkttype),
	NUM("addr_len", 11, 1, 0, 8, addr_len),
	{ NAME_("addr"), .off = 12 + FIT(12, 8, 0, 0), .size = 8, .type = RW_FT_BYTES, .of = 6 },
};
#undef HLEN
#undef S

#define HLEN RW_ETH_HLEN
#define S struct rw_eth
static const struct rw_field f_eth[] = {
	ADDRP("dst", RW_FP_ETH_DST, RW_FT_MAC, dst),
	ADDRP("src", RW_FP_ETH_SRC, RW_FT_MAC, src),
	NUMP("type", RW_FP_ETH_TYPE, ethertype, HEX(4), .vname = vn_ethertype),
};
#undef HLEN
#undef S

/* 802.1Q tag from its TCI; the TPID is the ethertype (or SLL protocol)
 * before it, which the decoder keeps. */
#define HLEN RW_VLAN_HLEN
#define S struct rw_vlan
static const struct rw_field f_vlan[] = {
	DERIVED("tpid", get_vlan_tpid, HEX(4), .vname = vn_ethertype),
	NUMP("pcp", RW_FP_VLAN_PCP, pcp),
	NUMP("dei", RW_FP_VLAN_DEI, dei),
	NUMP("id", RW_FP_VLAN_ID, vid),
	NUMP("type", RW_FP_VLAN_TYPE, ethertype, HEX(4), .vname = vn_ethertype),
};
#undef HLEN
#undef S

/* MAC control (from its opcode): 802.1Qbb PFC and 802.3x PAUSE. */
#define HLEN RW_PFC_LEN
#define S struct rw_macctrl
static const struct rw_field f_pfc[] = {
	NUM("opcode", 0, 2, 0, 16, opcode, HEX(4), .vname = vn_macctrl),
	NUM("cev", 2, 2, 0, 16, cev, HEX(2)),
	NUM("quanta", 4, 2, 0, 16, quanta[0], .count = RW_PFC_PRIORITIES),
};
#undef HLEN
#define HLEN RW_PAUSE_LEN
static const struct rw_field f_pause[] = {
	NUM("opcode", 0, 2, 0, 16, opcode, HEX(4), .vname = vn_macctrl),
	NUM("quanta", 2, 2, 0, 16, quanta[0]),
};
#undef HLEN
#undef S

/* RFC 791 3.1; the ICRC masks TOS, TTL and the checksum (IBA A17.4.1). */
#define HLEN RW_IPV4_MIN_HLEN
#define S struct rw_ipv4
static const struct rw_field f_ipv4[] = {
	NUMXP("version", RW_FP_IPV4_VERSION),
	NUM("ihl", 0, 1, 0, 4, ihl),
	NUMP("dscp", RW_FP_IPV4_DSCP, dscp, .flags = RW_FF_ICRC),
	NUMP("ecn", RW_FP_IPV4_ECN, ecn, .flags = RW_FF_ICRC, .vname = vn_ecn),
	NUM("len", 2, 2, 0, 16, total_len),
	NUM("id", 4, 2, 0, 16, id, HEX(4)),
	NUMX("resv", 6, 1, 7, 1, .type = RW_FT_FLAG, .flags = RW_FF_RESV),
	NUMX("df", 6, 1, 6, 1, .type = RW_FT_FLAG),
	NUMX("mf", 6, 1, 5, 1, .type = RW_FT_FLAG),
	NUM("frag_off", 6, 2, 0, 13, frag_off),
	NUMP("ttl", RW_FP_IPV4_TTL, ttl, .flags = RW_FF_ICRC),
	NUM("proto", 9, 1, 0, 8, protocol, .vname = vn_ipproto),
	NUMP("checksum", RW_FP_IPV4_CHECKSUM, checksum, HEX(4), .flags = RW_FF_ICRC),
	ADDRP("src", RW_FP_IPV4_SRC, RW_FT_IPV4, src),
	ADDRP("dst", RW_FP_IPV4_DST, RW_FT_IPV4, dst),
	DERIVED("options_len", get_ipv4_optlen, .when = when_ipv4_options),
};
#undef HLEN
#undef S

/* RFC 8200 3; the ICRC masks the traffic class, flow label and hop limit. */
#define HLEN RW_IPV6_HLEN
#define S struct rw_ipv6
static const struct rw_field f_ipv6[] = {
	NUMX("version", 0, 4, 28, 4),
	NUMP("dscp", RW_FP_IPV6_DSCP, dscp, .flags = RW_FF_ICRC),
	NUMP("ecn", RW_FP_IPV6_ECN, ecn, .flags = RW_FF_ICRC, .vname = vn_ecn),
	NUMP("flow_label", RW_FP_IPV6_FLOW_LABEL, flow_label, HEX(5), .flags = RW_FF_ICRC),
	NUM("payload_len", 4, 2, 0, 16, payload_len),
	NUM("next_header", 6, 1, 0, 8, next_header, .vname = vn_ipproto),
	NUMP("hop_limit", RW_FP_IPV6_HOP_LIMIT, hop_limit, .flags = RW_FF_ICRC),
	ADDRP("src", RW_FP_IPV6_SRC, RW_FT_IPV6, src),
	ADDRP("dst", RW_FP_IPV6_DST, RW_FT_IPV6, dst),
};
#undef HLEN
#undef S

/* One IPv6 extension header (RFC 8200 4): its Next Header is its first
 * byte; its type and length are what the walk found. */
#define HLEN 2
static const struct rw_field f_ipv6_ext[] = {
	DERIVED("type", get_ext_type, .vname = vn_ipv6_ext),
	NAMEOF("name", 0, vn_ipv6_ext),
	DERIVED("len", get_ext_len),
	NUMX("next", 0, 1, 0, 8, .vname = vn_ipproto),
};
#undef HLEN

#define HLEN RW_UDP_HLEN
#define S struct rw_udp
static const struct rw_field f_udp[] = {
	NUMP("sport", RW_FP_UDP_SPORT, sport),
	NUMP("dport", RW_FP_UDP_DPORT, dport),
	NUMP("len", RW_FP_UDP_LEN, len),
	NUMP("checksum", RW_FP_UDP_CHECKSUM, checksum, HEX(4), .flags = RW_FF_ICRC),
};
#undef HLEN
#undef S

/* IBA 7.7; the ICRC replaces the whole LRH with ones (7.8.1). */
#define HLEN RW_LRH_LEN
#define S struct rw_lrh
#define V RW_FF_ICRC
static const struct rw_field f_lrh[] = {
	NUM("vl", 0, 1, 4, 4, vl, .flags = V),
	NUM("lver", 0, 1, 0, 4, lver, .flags = V),
	NUM("sl", 1, 1, 4, 4, sl, .flags = V),
	NUM("resv2", 1, 1, 2, 2, resv2, .flags = V | RW_FF_RESV),
	NUM("lnh", 1, 1, 0, 2, lnh, .flags = V, .vname = vn_lnh),
	NUM("dlid", 2, 2, 0, 16, dlid, HEX(4), .flags = V),
	NUM("resv5", 4, 1, 3, 5, resv5, .flags = V | RW_FF_RESV),
	NUM("pktlen", 4, 2, 0, 11, pktlen, .flags = V),
	NUM("slid", 6, 2, 0, 16, slid, HEX(4), .flags = V),
};
#undef V
#undef HLEN
#undef S

/* IBA 8.3; the ICRC masks TClass, FlowLabel and HopLmt. */
#define HLEN RW_GRH_LEN
#define S struct rw_grh
static const struct rw_field f_grh[] = {
	NUM("ipver", 0, 4, 28, 4, ipver),
	NUM("tclass", 0, 4, 20, 8, tclass, HEX(2), .flags = RW_FF_ICRC),
	NUM("flow_label", 0, 4, 0, 20, flow_label, HEX(5), .flags = RW_FF_ICRC),
	NUM("paylen", 4, 2, 0, 16, paylen),
	NUM("nxthdr", 6, 1, 0, 8, nxthdr, HEX(2), .vname = vn_nxthdr),
	NUM("hoplmt", 7, 1, 0, 8, hoplmt, .flags = RW_FF_ICRC),
	ADDR("sgid", 8, 16, RW_FT_IPV6, sgid),
	ADDR("dgid", 24, 16, RW_FT_IPV6, dgid),
};
#undef HLEN
#undef S

/* IBA 9.2; byte 4 (FECN, BECN, resv6: IBA's resv8a) is masked by the ICRC. */
#define HLEN RW_BTH_LEN
#define S struct rw_bth
static const struct rw_field f_bth[] = {
	NUMP("opcode", RW_FP_BTH_OPCODE, opcode, HEX(2), .vname = vn_opcode),
	NAMEOF("name", 0, vn_opcode),
	NAMEOF("transport", 0, vn_transport),
	FLAGP("se", RW_FP_BTH_SE, se),
	FLAGP("m", RW_FP_BTH_M, m),
	NUMP("pad", RW_FP_BTH_PAD, pad),
	NUMP("tver", RW_FP_BTH_TVER, tver),
	NUMP("pkey", RW_FP_BTH_PKEY, pkey, HEX(4)),
	FLAGP("fecn", RW_FP_BTH_FECN, fecn, .flags = RW_FF_ICRC),
	FLAGP("becn", RW_FP_BTH_BECN, becn, .flags = RW_FF_ICRC),
	NUMP("resv6", RW_FP_BTH_RESV6, resv6, .flags = RW_FF_ICRC | RW_FF_RESV),
	NUMP("dqpn", RW_FP_BTH_DQPN, dqpn, HEX(6)),
	FLAGP("ackreq", RW_FP_BTH_ACKREQ, ackreq),
	NUMP("resv7", RW_FP_BTH_RESV7, resv7, .flags = RW_FF_RESV),
	NUMP("psn", RW_FP_BTH_PSN, psn),
};
#undef HLEN
#undef S

/* IBA 9.3 extension headers. */
#define HLEN RW_RDETH_LEN
#define S struct rw_rdeth
static const struct rw_field f_rdeth[] = {
	NUMP("resv8", RW_FP_RDETH_RESV8, resv8, .flags = RW_FF_RESV),
	NUMP("een", RW_FP_RDETH_EEN, een, HEX(6)),
};
#undef HLEN
#undef S

#define HLEN RW_DETH_LEN
#define S struct rw_deth
static const struct rw_field f_deth[] = {
	NUMP("qkey", RW_FP_DETH_QKEY, qkey, HEX(8)),
	NUMP("resv8", RW_FP_DETH_RESV8, resv8, .flags = RW_FF_RESV),
	NUMP("sqpn", RW_FP_DETH_SQPN, sqpn, HEX(6)),
};
#undef HLEN
#undef S

#define HLEN RW_XRCETH_LEN
#define S struct rw_xrceth
static const struct rw_field f_xrceth[] = {
	NUMP("resv8", RW_FP_XRCETH_RESV8, resv8, .flags = RW_FF_RESV),
	NUMP("xrcsrq", RW_FP_XRCETH_XRCSRQ, xrcsrq, HEX(6)),
};
#undef HLEN
#undef S

#define HLEN RW_FETH_LEN
#define S struct rw_feth
static const struct rw_field f_feth[] = {
	NUMP("resv26", RW_FP_FETH_RESV26, resv26, HEX(7), .flags = RW_FF_RESV),
	NUMP("sel", RW_FP_FETH_SEL, sel),
	NUMP("plt", RW_FP_FETH_PLT, plt),
};
#undef HLEN
#undef S

#define HLEN RW_RETH_LEN
#define S struct rw_reth
static const struct rw_field f_reth[] = {
	NUMP("va", RW_FP_RETH_VA, va, HEX(16)),
	NUMP("rkey", RW_FP_RETH_RKEY, rkey, HEX(8)),
	NUMP("len", RW_FP_RETH_LEN, dmalen),
};
#undef HLEN
#undef S

#define HLEN RW_ATOMICETH_LEN
#define S struct rw_atomiceth
static const struct rw_field f_atomiceth[] = {
	NUMP("va", RW_FP_ATOMICETH_VA, va, HEX(16)),
	NUMP("rkey", RW_FP_ATOMICETH_RKEY, rkey, HEX(8)),
	NUMP("swap_add", RW_FP_ATOMICETH_SWAP_ADD, swap_add, HEX(16)),
	NUMP("compare", RW_FP_ATOMICETH_COMPARE, compare, HEX(16)),
};
#undef HLEN
#undef S

/* IBA 9.7.5.2: the syndrome's bit 7 is reserved, bits 6:5 the kind, 4:0
 * the credit code, RNR timer code or NAK code, by kind. */
#define HLEN RW_AETH_LEN
#define S struct rw_aeth
static const struct rw_field f_aeth[] = {
	NUMP("syndrome", RW_FP_AETH_SYNDROME, syndrome, HEX(2)),
	NUMP("kind", RW_FP_AETH_KIND, kind, .flags = RW_FF_JSONNAME, .vname = vn_aeth_kind),
	NUMP("credit_code", RW_FP_AETH_VALUE, value, .when = when_ack),
	DERIVED("credits", get_credits, .when = when_ack, .null_name = "invalid"),
	NUMP("rnr_code", RW_FP_AETH_VALUE, value, .when = when_rnr),
	DERIVED("rnr_timer_us", get_rnr_us, .when = when_rnr),
	NUMP("nak_code", RW_FP_AETH_VALUE, value, .when = when_nak, .vname = vn_nak),
	NAMEOF("nak", 6, vn_nak, .when = when_nak),
	NUMP("value", RW_FP_AETH_VALUE, value, .when = when_resv_kind),
	NUMP("msn", RW_FP_AETH_MSN, msn),
};
#undef HLEN
#undef S

#define HLEN RW_ATOMICACKETH_LEN
#define S struct rw_atomicacketh
static const struct rw_field f_atomicacketh[] = {
	NUMP("orig", RW_FP_ATOMICACKETH_ORIG, orig, HEX(16)),
};
#undef HLEN
#undef S

/* ImmDt and IETH: one 32-bit word each (the codec's rw_u32_decode). */
#define HLEN RW_IMMDT_LEN
static const struct rw_field f_immdt[] = {
	NUMXP("data", RW_FP_IMMDT_DATA, HEX(8)),
};
#undef HLEN
#define HLEN RW_IETH_LEN
static const struct rw_field f_ieth[] = {
	NUMXP("rkey", RW_FP_IETH_RKEY, HEX(8)),
};
#undef HLEN

/* RoCEv2 CNP (IBA A17.9.3): 16 reserved bytes after the BTH. */
#define HLEN RW_CNP_LEN
static const struct rw_field f_cnp[] = {
	{ NAME_("resv"), .off = 0 + FIT(0, RW_CNP_LEN, 0, 0), .size = RW_CNP_LEN,
	  .type = RW_FT_BYTES, .flags = RW_FF_RESV, .of = 0xFF },
};
#undef HLEN

/* IPoIB (RFC 4391 6): the 4-byte encapsulation header, an ethertype and two
 * reserved bytes, before the IP or ARP packet a SEND carries. */
#define HLEN RW_IPOIB_HLEN
static const struct rw_field f_ipoib[] = {
	NUMXP("type", RW_FP_IPOIB_TYPE, HEX(4), .vname = vn_ethertype),
	NUMXP("reserved", RW_FP_IPOIB_RESV, HEX(4), .flags = RW_FF_RESV),
};
#undef HLEN


/* ---- management datagrams (mad.h, mad_layout.h) -------------------------- */

static const char *vn_mad_class(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_mad_class_name((uint8_t)v);
}

static const char *vn_mad_method(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_mad_method_name((uint8_t)v);
}

/* The "mad" table's bytes are the MAD's: the class is byte 1. */
static const char *vn_mad_attr(uint64_t v, const struct rw_hview *h)
{
	return rw_mad_attr_name(h->b[1], (uint16_t)v);
}

static const char *vn_rmpp_type(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_rmpp_type_name((uint8_t)v);
}

/* IBA 12.6.5: REQ's Transport Service Type (3: the extended type says). */
static const char *vn_cm_tst(uint64_t v, const struct rw_hview *h)
{
	static const char *const names[] = { "RC", "UC", "RD", "extended" };
	(void)h;
	return names[v & 3];
}

/* IBA 9.6.1 (and PathRecord's MTU, 15.2.5.16): the MTU codes. */
static const char *vn_mtu(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return v <= 5 ? rw_mtu_name((unsigned)v) : NULL;
}

/* MRA's "Message MRAed" (12.6.6) and REJ's "Message REJected" (12.6.7). */
static const char *vn_cm_msg_ref(uint64_t v, const struct rw_hview *h)
{
	return rw_cm_msg_ref_name((unsigned)(v & 3), h->hd == RW_HD_CM_MRA);
}

/* IBA 14.2.5.3: NodeInfo's NodeType. */
static const char *vn_node_type(uint64_t v, const struct rw_hview *h)
{
	static const char *const names[] = { NULL, "CA", "Switch", "Router" };
	(void)h;
	return v < sizeof(names) / sizeof(names[0]) ? names[v] : NULL;
}

/* IBA 14.2.5.6: PortInfo's PortState (0: no state change, in a Set). */
static const char *vn_port_state(uint64_t v, const struct rw_hview *h)
{
	static const char *const names[] = { "NoChange", "Down", "Init", "Armed", "Active" };
	(void)h;
	return v < sizeof(names) / sizeof(names[0]) ? names[v] : NULL;
}

static const char *vn_port_phys_state(uint64_t v, const struct rw_hview *h)
{
	static const char *const names[] = { "NoChange", "Sleep", "Polling", "Disabled",
					     "PortConfigurationTraining", "LinkUp",
					     "LinkErrorRecovery", "PhyTest" };
	(void)h;
	return v < sizeof(names) / sizeof(names[0]) ? names[v] : NULL;
}

/* LinkWidthActive: one bit of LinkWidthSupported (2x is IBA 1.3's). */
static const char *vn_link_width(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	switch (v) {
	case 1: return "1x";
	case 2: return "4x";
	case 4: return "8x";
	case 8: return "12x";
	case 16: return "2x";
	default: return NULL;
	}
}

/* LinkSpeedActive, and LinkSpeedExtActive (IBA 1.3), which overrides it
 * when not 0. */
static const char *vn_link_speed(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return v == 1 ? "SDR" : v == 2 ? "DDR" : v == 4 ? "QDR" : NULL;
}

static const char *vn_link_speed_ext(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return v == 1 ? "FDR" : v == 2 ? "EDR" : v == 4 ? "HDR" : v == 8 ? "NDR" : NULL;
}

/* IBA 14.2.5.13: SMInfo's SMState. */
static const char *vn_sm_state(uint64_t v, const struct rw_hview *h)
{
	static const char *const names[] = { "NotActive", "Discovering", "Standby", "Master" };
	(void)h;
	return v < sizeof(names) / sizeof(names[0]) ? names[v] : NULL;
}

static const char *vn_cm_rej_reason(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_cm_rej_reason_name((uint16_t)v);
}

static const char *vn_cm_msg(uint64_t v, const struct rw_hview *h)
{
	(void)h;
	return rw_cm_msg_name((uint16_t)v);
}

/* A CM message's table says which message it is: its attribute ID, from
 * the table (the message's bytes start after the common header). */
static int get_cm_msg(const struct rw_hview *h, uint64_t *v)
{
	*v = RW_CM_REQ + (unsigned)(h->hd - RW_HD_CM_REQ);
	return 1;
}

/* mad_layout.h's rows as field rows: N(name, member, off, size, shift,
 * bits, display...) and B(name, member, off, size, IPV6 or BYTES). */
#define FN(nm, m, o, sz, sh, bt, ...) NUM(nm, o, sz, sh, bt, m, __VA_ARGS__),
/* Bytes rows may be longer than an address (private data, SMP paths). */
#define FB(nm, m, o, sz, ty)                                                                        \
	{ NAME_(nm), .off = (uint16_t)((o) + RW_CHECK((o) + (sz) <= HLEN) +                        \
				      RW_CHECK(sizeof(((S *)0)->m) >= (sz))),                       \
	  .size = sz, .type = RW_FT_##ty, .of = 0xFF },
#define CM_MESSAGE                                                                                  \
	{ NAME_("message"), .flags = RW_FF_DERIVED | RW_FF_JSONNAME, .get = get_cm_msg,            \
	  .vname = vn_cm_msg, HEX(4), .of = 0xFF }

#define HLEN RW_MAD_HDR_LEN
#define S struct rw_mad_hdr
static const struct rw_field f_mad[] = {
	RW_MAD_HDR_ROWS(FN, FB)
	NUMX("r", 3, 1, 7, 1, .type = RW_FT_FLAG),
	/* the rows' names, for --json (indexes: the rows above) */
	NAMEOF("class_name", 1, vn_mad_class),
	NAMEOF("method_name", 3, vn_mad_method),
	NAMEOF("attribute_name", 7, vn_mad_attr),
};
#undef S
#undef HLEN

#define HLEN RW_MAD_LEN
#define S struct rw_smp
static const struct rw_field f_smp_lid[] = { RW_SMP_LID_ROWS(FN, FB) };
static const struct rw_field f_smp_dr[] = { RW_SMP_DR_ROWS(FN, FB) };
#undef S
#define S struct rw_sa
static const struct rw_field f_sa[] = { RW_SA_ROWS(FN, FB) };
#undef S
#undef HLEN

#define HLEN RW_CM_DATA_LEN
#define S struct rw_cm_req
static const struct rw_field f_cm_req[] = { CM_MESSAGE, RW_CM_REQ_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_mra
static const struct rw_field f_cm_mra[] = { CM_MESSAGE, RW_CM_MRA_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_rej
static const struct rw_field f_cm_rej[] = { CM_MESSAGE, RW_CM_REJ_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_rep
static const struct rw_field f_cm_rep[] = { CM_MESSAGE, RW_CM_REP_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_rtu
static const struct rw_field f_cm_rtu[] = { CM_MESSAGE, RW_CM_RTU_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_dreq
static const struct rw_field f_cm_dreq[] = { CM_MESSAGE, RW_CM_DREQ_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_lap
static const struct rw_field f_cm_lap[] = { CM_MESSAGE, RW_CM_LAP_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_apr
static const struct rw_field f_cm_apr[] = { CM_MESSAGE, RW_CM_APR_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_sidr_req
static const struct rw_field f_cm_sidr_req[] = { CM_MESSAGE, RW_CM_SIDR_REQ_ROWS(FN, FB) };
#undef S
#define S struct rw_cm_sidr_rep
static const struct rw_field f_cm_sidr_rep[] = { CM_MESSAGE, RW_CM_SIDR_REP_ROWS(FN, FB) };
#undef S
#undef HLEN

#define HLEN RW_CPI_LEN
#define S struct rw_class_port_info
static const struct rw_field f_cpi[] = { RW_CPI_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_PORT_COUNTERS_LEN
#define S struct rw_port_counters
static const struct rw_field f_port_counters[] = { RW_PORT_COUNTERS_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_PATH_RECORD_LEN
#define S struct rw_path_record
static const struct rw_field f_path_record[] = { RW_PATH_RECORD_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_NODE_INFO_LEN
#define S struct rw_node_info
static const struct rw_field f_node_info[] = { RW_NODE_INFO_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_SWITCH_INFO_LEN
#define S struct rw_switch_info
static const struct rw_field f_switch_info[] = { RW_SWITCH_INFO_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_GUID_INFO_LEN
#define S struct rw_guid_info
static const struct rw_field f_guid_info[] = { RW_GUID_INFO_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_PORT_INFO_LEN
#define S struct rw_port_info
static const struct rw_field f_port_info[] = { RW_PORT_INFO_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_PKEY_TABLE_LEN
#define S struct rw_pkey_table
static const struct rw_field f_pkey_table[] = { RW_PKEY_TABLE_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_SM_INFO_LEN
#define S struct rw_sm_info
static const struct rw_field f_sm_info[] = { RW_SM_INFO_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_NODE_RECORD_LEN
#define S struct rw_node_record
static const struct rw_field f_node_record[] = { RW_NODE_RECORD_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_SERVICE_RECORD_LEN
#define S struct rw_service_record
static const struct rw_field f_service_record[] = { RW_SERVICE_RECORD_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_MC_MEMBER_RECORD_LEN
#define S struct rw_mc_member_record
static const struct rw_field f_mc_member_record[] = { RW_MC_MEMBER_RECORD_ROWS(FN, FB) };
#undef S
#undef HLEN
#define HLEN RW_PORT_COUNTERS_EXT_LEN
#define S struct rw_port_counters_ext
static const struct rw_field f_port_counters_ext[] = { RW_PORT_COUNTERS_EXT_ROWS(FN, FB) };
#undef S
#undef HLEN

#define D(hd, nm, l, t) [hd] = { NAME_(nm), .len = l, .n = N(t), .f = t }
static const struct rw_header_desc descs[] = {
	D(RW_HD_ERF, "erf", RW_ERF_LEN, f_erf),
	D(RW_HD_SLL, "sll", RW_SLL_LEN, f_sll),
	D(RW_HD_SLL2, "sll", RW_SLL2_LEN, f_sll2),
	D(RW_HD_ETH, "eth", RW_ETH_HLEN, f_eth),
	D(RW_HD_VLAN, "vlan", RW_VLAN_HLEN, f_vlan),
	D(RW_HD_PFC, "pfc", RW_PFC_LEN, f_pfc),
	D(RW_HD_PAUSE, "pause", RW_PAUSE_LEN, f_pause),
	D(RW_HD_IPV4, "ipv4", RW_IPV4_MIN_HLEN, f_ipv4),
	D(RW_HD_IPV6, "ipv6", RW_IPV6_HLEN, f_ipv6),
	D(RW_HD_IPV6_EXT, "ipv6_ext", 2, f_ipv6_ext),
	D(RW_HD_UDP, "udp", RW_UDP_HLEN, f_udp),
	D(RW_HD_LRH, "lrh", RW_LRH_LEN, f_lrh),
	D(RW_HD_GRH, "grh", RW_GRH_LEN, f_grh),
	D(RW_HD_BTH, "bth", RW_BTH_LEN, f_bth),
	D(RW_HD_RDETH, "rdeth", RW_RDETH_LEN, f_rdeth),
	D(RW_HD_DETH, "deth", RW_DETH_LEN, f_deth),
	D(RW_HD_XRCETH, "xrceth", RW_XRCETH_LEN, f_xrceth),
	D(RW_HD_FETH, "feth", RW_FETH_LEN, f_feth),
	D(RW_HD_RETH, "reth", RW_RETH_LEN, f_reth),
	D(RW_HD_ATOMICETH, "atomiceth", RW_ATOMICETH_LEN, f_atomiceth),
	D(RW_HD_AETH, "aeth", RW_AETH_LEN, f_aeth),
	D(RW_HD_ATOMICACKETH, "atomicacketh", RW_ATOMICACKETH_LEN, f_atomicacketh),
	D(RW_HD_IMMDT, "immdt", RW_IMMDT_LEN, f_immdt),
	D(RW_HD_IETH, "ieth", RW_IETH_LEN, f_ieth),
	D(RW_HD_CNP, "cnp", RW_CNP_LEN, f_cnp),
	D(RW_HD_IPOIB, "ipoib", RW_IPOIB_HLEN, f_ipoib),
	D(RW_HD_MAD, "mad", RW_MAD_HDR_LEN, f_mad),
	D(RW_HD_SMP_LID, "smp", RW_MAD_LEN, f_smp_lid),
	D(RW_HD_SMP_DR, "smp", RW_MAD_LEN, f_smp_dr),
	D(RW_HD_SA, "sa", RW_MAD_LEN, f_sa),
	D(RW_HD_CM_REQ, "cm", RW_CM_DATA_LEN, f_cm_req),
	D(RW_HD_CM_MRA, "cm", RW_CM_DATA_LEN, f_cm_mra),
	D(RW_HD_CM_REJ, "cm", RW_CM_DATA_LEN, f_cm_rej),
	D(RW_HD_CM_REP, "cm", RW_CM_DATA_LEN, f_cm_rep),
	D(RW_HD_CM_RTU, "cm", RW_CM_DATA_LEN, f_cm_rtu),
	D(RW_HD_CM_DREQ, "cm", RW_CM_DATA_LEN, f_cm_dreq),
	D(RW_HD_CM_DREP, "cm", RW_CM_DATA_LEN, f_cm_rtu),
	D(RW_HD_CM_SIDR_REQ, "cm", RW_CM_DATA_LEN, f_cm_sidr_req),
	D(RW_HD_CM_SIDR_REP, "cm", RW_CM_DATA_LEN, f_cm_sidr_rep),
	D(RW_HD_CM_LAP, "cm", RW_CM_DATA_LEN, f_cm_lap),
	D(RW_HD_CM_APR, "cm", RW_CM_DATA_LEN, f_cm_apr),
	D(RW_HD_CLASS_PORT_INFO, "classportinfo", RW_CPI_LEN, f_cpi),
	D(RW_HD_PORT_COUNTERS, "portcounters", RW_PORT_COUNTERS_LEN, f_port_counters),
	D(RW_HD_PATH_RECORD, "pathrecord", RW_PATH_RECORD_LEN, f_path_record),
	D(RW_HD_NODE_INFO, "nodeinfo", RW_NODE_INFO_LEN, f_node_info),
	D(RW_HD_SWITCH_INFO, "switchinfo", RW_SWITCH_INFO_LEN, f_switch_info),
	D(RW_HD_GUID_INFO, "guidinfo", RW_GUID_INFO_LEN, f_guid_info),
	D(RW_HD_PORT_INFO, "portinfo", RW_PORT_INFO_LEN, f_port_info),
	D(RW_HD_PKEY_TABLE, "pkeytable", RW_PKEY_TABLE_LEN, f_pkey_table),
	D(RW_HD_SM_INFO, "sminfo", RW_SM_INFO_LEN, f_sm_info),
	D(RW_HD_NODE_RECORD, "noderecord", RW_NODE_RECORD_LEN, f_node_record),
	D(RW_HD_SERVICE_RECORD, "servicerecord", RW_SERVICE_RECORD_LEN, f_service_record),
	D(RW_HD_MC_MEMBER_RECORD, "mcmemberrecord", RW_MC_MEMBER_RECORD_LEN, f_mc_member_record),
	D(RW_HD_PORT_COUNTERS_EXT, "portcountersext", RW_PORT_COUNTERS_EXT_LEN, f_port_counters_ext),
};
_Static_assert(N(descs) == RW_HD_ALL, "descs: one table per enum rw_hd");
_Static_assert(RW_HD_COUNT == RW_HD_MAD, "the frame's headers' tables come first");
_Static_assert(RW_HD_CM_APR - RW_HD_CM_REQ == RW_CM_APR - RW_CM_REQ,
	       "the CM messages' tables follow their attribute IDs");
_Static_assert(RW_HD_PORT_COUNTERS_EXT - RW_HD_CLASS_PORT_INFO ==
		       RW_MAD_ATTR_PORT_COUNTERS_EXT - RW_MAD_ATTR_CLASS_PORT_INFO &&
	       RW_HD_ALL == RW_HD_PORT_COUNTERS_EXT + 1,
	       "the attribute payloads' tables follow enum rw_mad_attr_kind");
_Static_assert(RW_HD_CNP - RW_HD_RDETH + 1 == RW_HDR_COUNT,
	       "the extension headers' tables follow enum rw_hdr's bit order");

const struct rw_header_desc *rw_header_desc(enum rw_hd hd)
{
	return (unsigned)hd < RW_HD_ALL ? &descs[hd] : NULL;
}

int rw_cm_hd(uint16_t attr_id)
{
	if (attr_id < RW_CM_REQ || attr_id > RW_CM_APR)
		return -1;
	return RW_HD_CM_REQ + (attr_id - RW_CM_REQ);
}

int rw_mad_class_hd(uint8_t mgmt_class)
{
	switch (mgmt_class) {
	case RW_MGMT_SUBN_LID: return RW_HD_SMP_LID;
	case RW_MGMT_SUBN_DR: return RW_HD_SMP_DR;
	case RW_MGMT_SA: return RW_HD_SA;
	default: return -1;
	}
}

/* The payload rw_mad_decode() decodes (mad.c's attribute table), whose
 * tables follow enum rw_mad_attr_kind's order. */
int rw_mad_attr_hd(uint8_t mgmt_class, uint16_t attr_id)
{
	enum rw_mad_attr_kind k = rw_mad_attr_kind(mgmt_class, attr_id);
	if (k == RW_MAD_ATTR_NONE)
		return -1;
	return RW_HD_CLASS_PORT_INFO + (int)(k - RW_MAD_ATTR_CLASS_PORT_INFO);
}

int rw_field_index(enum rw_hd hd, const char *name)
{
	const struct rw_header_desc *d = rw_header_desc(hd);

	for (unsigned k = 0; d && k < d->n; k++)
		if (strcmp(d->f[k].name, name) == 0)
			return (int)k;
	return -1;
}

/* ---- reading ------------------------------------------------------------- */

uint64_t rw_field_get(const struct rw_field *f, const uint8_t *hdr, unsigned i)
{
	return rw_field_peek(f, hdr + (size_t)i * f->size);
}

const uint8_t *rw_field_bytes(const struct rw_field *f, const struct rw_hview *h, size_t *n)
{
	size_t len = f->size;
	if (f->type == RW_FT_BYTES && f->of != 0xFF) {
		uint64_t l = rw_field_get(&h->d->f[f->of], h->b, 0);
		if (l < len)
			len = (size_t)l;
	}
	if (n)
		*n = len;
	return h->b + f->off;
}

const char *rw_field_name_of(const struct rw_field *f, const struct rw_hview *h)
{
	uint64_t v;
	if (!f->vname)
		return NULL;
	if (f->type == RW_FT_NAME) {
		if (!rw_field_value(&h->d->f[f->of], h, 0, &v))
			return NULL;
	} else if (!rw_field_value(f, h, 0, &v)) {
		return NULL;
	}
	return f->vname(v, h);
}

/* ---- the headers of a frame --------------------------------------------- */

static unsigned add(struct rw_hview *out, unsigned n, unsigned max, const struct rw_packet *p,
		    enum rw_hd hd, const uint8_t *b, unsigned idx)
{
	if (n < max)
		out[n] = (struct rw_hview){ .d = &descs[hd], .b = b, .p = p, .idx = (uint8_t)idx,
					    .hd = (uint8_t)hd };
	return n + 1;
}

/* A MAD's tables: the common header, the class's header, the CM message or
 * the attribute payload, each only when its bytes were captured. */
static unsigned mad_views(struct rw_hview *out, unsigned n, unsigned max, const struct rw_packet *p)
{
	const struct rw_mad_hdr *h = &p->mad.hdr;
	const uint8_t *m = p->payload;
	size_t cap = p->payload_caplen;
	int hd;

	n = add(out, n, max, p, RW_HD_MAD, m, 0);
	if (h->base_version != RW_MAD_BASE_VERSION || cap < RW_MAD_LEN)
		return n;
	if ((hd = rw_mad_class_hd(h->mgmt_class)) >= 0)
		n = add(out, n, max, p, (enum rw_hd)hd, m, 0);
	if (h->mgmt_class == RW_MGMT_CM && (hd = rw_cm_hd(h->attr_id)) >= 0)
		n = add(out, n, max, p, (enum rw_hd)hd, m + RW_MAD_HDR_LEN, 0);
	else if ((hd = rw_mad_attr_hd(h->mgmt_class, h->attr_id)) >= 0)
		n = add(out, n, max, p, (enum rw_hd)hd, m + rw_mad_data_offset(h->mgmt_class), 0);
	return n;
}

unsigned rw_packet_hviews(const struct rw_packet *p, const uint8_t *frame, struct rw_hview *out,
			  unsigned max)
{
	unsigned n = 0;
	size_t tag = 0; /* where the first VLAN tag's TCI would be */

	if (p->present & RW_P_ERF)
		n = add(out, n, max, p, RW_HD_ERF, frame, 0);
	if (p->present & RW_P_SLL2) {
		n = add(out, n, max, p, RW_HD_SLL2, frame, 0);
		tag = RW_SLL2_LEN;
	} else if (p->present & RW_P_SLL) {
		n = add(out, n, max, p, RW_HD_SLL, frame, 0);
		tag = RW_SLL_LEN;
	}
	if (p->present & RW_P_ETH) {
		n = add(out, n, max, p, RW_HD_ETH, frame + p->l2_off, 0);
		tag = (size_t)p->l2_off + RW_ETH_HLEN;
	}
	for (unsigned i = 0; i < p->n_vlan && i < RW_MAX_VLAN; i++)
		n = add(out, n, max, p, RW_HD_VLAN, frame + tag + RW_VLAN_HLEN * i, i);
	if (p->present & RW_P_MACCTRL) {
		const uint8_t *b = frame + tag + (size_t)RW_VLAN_HLEN * p->n_vlan;
		n = add(out, n, max, p, p->macctrl.opcode == RW_MACCTRL_PFC ? RW_HD_PFC : RW_HD_PAUSE,
			b, 0);
	}
	if (p->present & RW_P_IPV4)
		n = add(out, n, max, p, RW_HD_IPV4, frame + p->l3_off, 0);
	if (p->present & RW_P_IPV6) {
		size_t off = (size_t)p->l3_off + RW_IPV6_HLEN;
		n = add(out, n, max, p, RW_HD_IPV6, frame + p->l3_off, 0);
		for (unsigned i = 0; i < p->ipv6_ext.n && i < RW_IPV6_EXT_MAX; i++) {
			n = add(out, n, max, p, RW_HD_IPV6_EXT, frame + off, i);
			off += p->ipv6_ext.hlen[i];
		}
	}
	if (p->present & RW_P_UDP)
		n = add(out, n, max, p, RW_HD_UDP, frame + p->l4_off, 0);
	if (p->present & RW_P_LRH)
		n = add(out, n, max, p, RW_HD_LRH, frame + p->l2_off, 0);
	if (p->present & RW_P_GRH)
		n = add(out, n, max, p, RW_HD_GRH, frame + p->l3_off, 0);
	if (p->present & RW_P_BTH) {
		const uint8_t *bth = frame + p->bth_off;
		n = add(out, n, max, p, RW_HD_BTH, bth, 0);
		for (unsigned i = 0; i < RW_HDR_COUNT; i++) {
			enum rw_hdr h = (enum rw_hdr)(1u << i);
			int off;
			if (!(p->hdrs & h) || (off = rw_hdr_offset(p->bth.opcode, h)) < 0)
				continue;
			n = add(out, n, max, p, (enum rw_hd)(RW_HD_RDETH + i), bth + off, 0);
		}
	}
	if (p->present & RW_P_IPOIB)
		n = add(out, n, max, p, RW_HD_IPOIB, p->payload, 0);
	if (p->present & RW_P_MAD)
		n = mad_views(out, n, max, p);
	return n < max ? n : max;
}
