/* SPDX-License-Identifier: BSD-3-Clause */
/* The default output: one tcpdump-like line per packet.
 *
 *   HH:MM:SS.nnnnnnnnn CARRIER [vlan ID pPCP] SRC > DST: OPCODE qp 0xQPN psn PSN
 *       [flags] [extension headers] [payload N] [ecn X] icrc ok|BAD (...)
 *
 * This is the hot path of the benchmark (> 1.5 M lines/s): everything is
 * written with the fmt.h helpers into the output buffer, no printf. */
#include "cap.h"
#include "fmt.h"

static char *addr_ip(char *o, const struct rw_packet *p)
{
	if (p->present & RW_P_IPV4) {
		*o++ = ' ';
		o = fmt_ipv4(o, p->ipv4.src);
		o = FMT_LIT(o, " > ");
		o = fmt_ipv4(o, p->ipv4.dst);
	} else if (p->present & RW_P_IPV6) {
		*o++ = ' ';
		o = fmt_ipv6(o, p->ipv6.src);
		o = FMT_LIT(o, " > ");
		o = fmt_ipv6(o, p->ipv6.dst);
	}
	return o;
}

static char *addr_gid(char *o, const struct rw_packet *p)
{
	*o++ = ' ';
	o = fmt_ipv6(o, p->grh.sgid);
	o = FMT_LIT(o, " > ");
	return fmt_ipv6(o, p->grh.dgid);
}

static char *addr_mac(char *o, const struct rw_packet *p)
{
	*o++ = ' ';
	o = fmt_mac(o, p->eth.src);
	o = FMT_LIT(o, " > ");
	return fmt_mac(o, p->eth.dst);
}

static char *addresses(char *o, const struct rw_packet *p)
{
	switch (p->carrier) {
	case RW_CARRIER_ROCEV2:
		return addr_ip(o, p);
	case RW_CARRIER_ROCEV1:
		return (p->present & RW_P_GRH) ? addr_gid(o, p) : o;
	case RW_CARRIER_IB:
		if (p->present & RW_P_LRH) {
			o = FMT_LIT(o, " lid ");
			o = fmt_u32(o, p->lrh.slid);
			o = FMT_LIT(o, " > lid ");
			o = fmt_u32(o, p->lrh.dlid);
		}
		if (p->present & RW_P_GRH) {
			o = FMT_LIT(o, " gid");
			o = addr_gid(o, p);
		}
		return o;
	case RW_CARRIER_PFC:
	case RW_CARRIER_PAUSE:
		return (p->present & RW_P_ETH) ? addr_mac(o, p) : o;
	case RW_CARRIER_OTHER:
	default:
		if (p->present & (RW_P_IPV4 | RW_P_IPV6))
			return addr_ip(o, p);
		if (p->present & RW_P_ETH)
			return addr_mac(o, p);
		return o;
	}
}

static char *aeth(char *o, const struct rw_aeth *a)
{
	o = FMT_LIT(o, " aeth ");
	switch (a->kind) {
	case RW_AETH_ACK: {
		int credits = rw_aeth_credits(a->value);
		o = FMT_LIT(o, "ACK credits ");
		if (credits < 0)
			o = FMT_LIT(o, "invalid");
		else
			o = fmt_u32(o, (uint32_t)credits);
		break;
	}
	case RW_AETH_RNR_NAK:
		o = FMT_LIT(o, "RNR NAK timer ");
		o = fmt_u32(o, rw_rnr_timer_us(a->value));
		o = FMT_LIT(o, "us");
		break;
	case RW_AETH_NAK:
		o = FMT_LIT(o, "NAK (");
		o = fmt_str(o, rw_nak_code_name(a->value));
		*o++ = ')';
		break;
	default:
		o = FMT_LIT(o, "reserved syndrome ");
		o = fmt_hex(o, a->syndrome, 2);
		break;
	}
	o = FMT_LIT(o, " msn ");
	return fmt_u32(o, a->msn);
}

/* Key fields of the BTH and of each extension header, in wire order. */
static char *transport(char *o, const struct rw_packet *p)
{
	const struct rw_bth *b = &p->bth;
	unsigned h = p->hdrs;

	*o++ = ' ';
	o = fmt_mem(o, rw_opcode(b->opcode)->name, cap_opname_len[b->opcode]);
	if (!(p->op && (p->op->flags & RW_OPF_VALID))) {
		o = FMT_LIT(o, "(");
		o = fmt_hex(o, b->opcode, 2);
		o = FMT_LIT(o, ")");
	}
	o = FMT_LIT(o, " qp ");
	o = fmt_hex(o, b->dqpn, 6);
	o = FMT_LIT(o, " psn ");
	o = fmt_u32(o, b->psn);
	if (b->ackreq)
		o = FMT_LIT(o, " ackreq");
	if (b->se)
		o = FMT_LIT(o, " se");
	if (b->fecn)
		o = FMT_LIT(o, " fecn");
	if (b->becn)
		o = FMT_LIT(o, " becn");
	if (b->pkey != 0xFFFF) {
		o = FMT_LIT(o, " pkey ");
		o = fmt_hex(o, b->pkey, 4);
	}

	if (h & RW_HDR_RDETH) {
		o = FMT_LIT(o, " rdeth een ");
		o = fmt_hex(o, p->rdeth.een, 1);
	}
	if (h & RW_HDR_DETH) {
		o = FMT_LIT(o, " deth qkey ");
		o = fmt_hex(o, p->deth.qkey, 8);
		o = FMT_LIT(o, " sqpn ");
		o = fmt_hex(o, p->deth.sqpn, 1);
	}
	if (h & RW_HDR_XRCETH) {
		o = FMT_LIT(o, " xrceth srq ");
		o = fmt_hex(o, p->xrceth.xrcsrq, 1);
	}
	if (h & RW_HDR_FETH) {
		o = FMT_LIT(o, " feth sel ");
		o = fmt_u32(o, p->feth.sel);
		o = FMT_LIT(o, " plt ");
		o = fmt_u32(o, p->feth.plt);
	}
	if (h & RW_HDR_RETH) {
		o = FMT_LIT(o, " reth va ");
		o = fmt_hex(o, p->reth.va, 1);
		o = FMT_LIT(o, " rkey ");
		o = fmt_hex(o, p->reth.rkey, 1);
		o = FMT_LIT(o, " len ");
		o = fmt_u32(o, p->reth.dmalen);
	}
	if (h & RW_HDR_ATOMICETH) {
		o = FMT_LIT(o, " atomiceth va ");
		o = fmt_hex(o, p->atomiceth.va, 1);
		o = FMT_LIT(o, " rkey ");
		o = fmt_hex(o, p->atomiceth.rkey, 1);
		if (p->op && p->op->op == RW_OP_FETCH_ADD) {
			o = FMT_LIT(o, " add ");
			o = fmt_hex(o, p->atomiceth.swap_add, 1);
		} else {
			o = FMT_LIT(o, " swap ");
			o = fmt_hex(o, p->atomiceth.swap_add, 1);
			o = FMT_LIT(o, " compare ");
			o = fmt_hex(o, p->atomiceth.compare, 1);
		}
	}
	if (h & RW_HDR_AETH)
		o = aeth(o, &p->aeth);
	if (h & RW_HDR_ATOMICACKETH) {
		o = FMT_LIT(o, " orig ");
		o = fmt_hex(o, p->atomicacketh.orig, 1);
	}
	if (h & RW_HDR_IMMDT) {
		o = FMT_LIT(o, " immdt ");
		o = fmt_hex(o, p->immdt, 8);
	}
	if (h & RW_HDR_IETH) {
		o = FMT_LIT(o, " ieth rkey ");
		o = fmt_hex(o, p->ieth, 1);
	}
	if ((h & RW_HDR_CNP) && p->cnp_nonzero)
		o = FMT_LIT(o, " cnp-reserved-nonzero");
	if (cap_payload_known(p)) {
		o = FMT_LIT(o, " payload ");
		o = fmt_u32(o, p->payload_len);
	}
	return o;
}

static char *crc_status(char *o, const char *name, enum rw_crc_status s, uint32_t wire,
			uint32_t computed, unsigned digits)
{
	*o++ = ' ';
	o = fmt_str(o, name);
	if (s == RW_CRC_OK)
		return FMT_LIT(o, " ok");
	o = FMT_LIT(o, " BAD (wire ");
	o = fmt_hex(o, wire, digits);
	o = FMT_LIT(o, ", computed ");
	o = fmt_hex(o, computed, digits);
	return FMT_LIT(o, ")");
}

static char *macctrl(char *o, const struct rw_packet *p)
{
	const struct rw_macctrl *m = &p->macctrl;

	if (p->carrier == RW_CARRIER_PAUSE) {
		o = FMT_LIT(o, " pause quanta ");
		return fmt_u32(o, m->quanta[0]);
	}
	o = FMT_LIT(o, " pfc cev ");
	o = fmt_hex(o, m->cev, 2);
	o = FMT_LIT(o, " quanta ");
	for (int i = 0; i < RW_PFC_PRIORITIES; i++) {
		if (i)
			*o++ = ',';
		o = fmt_u32(o, m->quanta[i]);
	}
	return o;
}

static char *other(char *o, const struct rw_packet *p)
{
	if (p->present & RW_P_UDP) {
		o = FMT_LIT(o, " udp ");
		o = fmt_u32(o, p->udp.sport);
		o = FMT_LIT(o, " > ");
		return fmt_u32(o, p->udp.dport);
	}
	if (p->present & (RW_P_IPV4 | RW_P_IPV6)) {
		/* IPv6: the protocol after any extension headers (an MLD
		 * report's hop-by-hop header leads to ICMPv6) */
		uint8_t proto = (p->present & RW_P_IPV4) ? p->ipv4.protocol : p->ipv6_ext.proto;
		const char *n = rw_ipproto_name(proto);
		o = FMT_LIT(o, " proto ");
		o = fmt_u32(o, proto);
		if (n) {
			o = FMT_LIT(o, " (");
			o = fmt_str(o, n);
			*o++ = ')';
		}
		return o;
	}
	uint16_t type = 0;
	int have = 0;
	if (p->present & RW_P_ETH) {
		type = p->n_vlan ? p->vlan[p->n_vlan - 1].ethertype : p->eth.ethertype;
		have = 1;
	} else if (p->present & (RW_P_SLL | RW_P_SLL2)) {
		type = p->sll.protocol;
		have = 1;
	}
	if (have) {
		const char *n = rw_ethertype_name(type);
		o = FMT_LIT(o, " ethertype ");
		o = fmt_hex(o, type, 4);
		if (n) {
			o = FMT_LIT(o, " (");
			o = fmt_str(o, n);
			*o++ = ')';
		}
	}
	return o;
}

void cap_print_line(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	char *o = cap_out_begin(&c->out, CAP_PKT_MAX);

	o = cap_fmt_time_local(&c->clock, o, r->ts_sec, r->ts_nsec);
	*o++ = ' ';
	o = fmt_str(o, rw_carrier_name(p->carrier));
	for (unsigned i = 0; i < p->n_vlan && i < RW_MAX_VLAN; i++) {
		o = FMT_LIT(o, " vlan ");
		o = fmt_u32(o, p->vlan[i].vid);
		o = FMT_LIT(o, " p");
		o = fmt_u32(o, p->vlan[i].pcp);
	}
	o = addresses(o, p);
	*o++ = ':';

	if (p->present & RW_P_BTH)
		o = transport(o, p);
	else if (p->carrier == RW_CARRIER_PFC || p->carrier == RW_CARRIER_PAUSE)
		o = (p->present & RW_P_MACCTRL) ? macctrl(o, p) : o;
	else if (p->carrier == RW_CARRIER_OTHER)
		o = other(o, p);

	unsigned ecn = (p->present & RW_P_IPV4) ? p->ipv4.ecn
		       : (p->present & RW_P_IPV6) ? p->ipv6.ecn
						   : 0;
	if (ecn && p->carrier == RW_CARRIER_ROCEV2) {
		o = FMT_LIT(o, " ecn ");
		o = fmt_str(o, rw_ecn_name(ecn));
	}
	if (p->icrc_status != RW_CRC_NONE)
		o = crc_status(o, "icrc", p->icrc_status, rw_icrc_display(p->icrc_wire),
			       rw_icrc_display(p->icrc_computed), 8);
	if (p->vcrc_status != RW_CRC_NONE)
		o = crc_status(o, "vcrc", p->vcrc_status, p->vcrc_wire, p->vcrc_computed, 4);

	if (p->err != RW_OK) {
		char why[400];
		rw_packet_problem(p, r->caplen, r->wirelen, why, sizeof(why));
		/* rw_packet_problem() starts with "cut by snaplen" for a
		 * short capture, which says "truncated" better than a tag. */
		o = (p->err == RW_ERR_TRUNCATED && r->caplen < r->wirelen) ? FMT_LIT(o, " [")
									    : FMT_LIT(o, " [error: ");
		o = fmt_str(o, why);
		*o++ = ']';
	}
	*o++ = '\n';
	cap_out_end(&c->out, o);
}
