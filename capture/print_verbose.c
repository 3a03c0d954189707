/* SPDX-License-Identifier: BSD-3-Clause */
/* -v: every field of every header, one per line, indented by layer:
 *
 *   frame 1: 78 bytes on the wire, 78 captured, rocev2, time 1700000000.000000001
 *     bth
 *       opcode 0x24 (UC_SEND_ONLY)
 *       ...
 *
 * Field names are the JSON keys (README-json.md) so the two outputs read
 * alike. */
#include "cap.h"
#include "fmt.h"

#define IND1 "  "
#define IND2 "    "

static char *layer(char *o, const char *name)
{
	o = FMT_LIT(o, IND1);
	o = fmt_str(o, name);
	return fmt_chr(o, '\n');
}

static char *key(char *o, const char *name)
{
	o = FMT_LIT(o, IND2);
	o = fmt_str(o, name);
	return fmt_chr(o, ' ');
}

static char *f_u(char *o, const char *name, uint64_t v)
{
	o = key(o, name);
	o = fmt_u64(o, v);
	return fmt_chr(o, '\n');
}

static char *f_x(char *o, const char *name, uint64_t v, unsigned digits)
{
	o = key(o, name);
	o = fmt_hex(o, v, digits);
	return fmt_chr(o, '\n');
}

/* hex and decimal: "dqpn 0x0000d3 (211)" */
static char *f_xu(char *o, const char *name, uint64_t v, unsigned digits)
{
	o = key(o, name);
	o = fmt_hex(o, v, digits);
	o = FMT_LIT(o, " (");
	o = fmt_u64(o, v);
	o = FMT_LIT(o, ")\n");
	return o;
}

/* number and its meaning: "ecn 2 (ECT(0))" */
static char *f_un(char *o, const char *name, uint64_t v, const char *meaning)
{
	o = key(o, name);
	o = fmt_u64(o, v);
	if (meaning) {
		o = FMT_LIT(o, " (");
		o = fmt_str(o, meaning);
		*o++ = ')';
	}
	return fmt_chr(o, '\n');
}

static char *f_xn(char *o, const char *name, uint64_t v, unsigned digits, const char *meaning)
{
	o = key(o, name);
	o = fmt_hex(o, v, digits);
	if (meaning) {
		o = FMT_LIT(o, " (");
		o = fmt_str(o, meaning);
		*o++ = ')';
	}
	return fmt_chr(o, '\n');
}

static char *f_s(char *o, const char *name, const char *s)
{
	o = key(o, name);
	o = fmt_str(o, s);
	return fmt_chr(o, '\n');
}

static char *f_ip4(char *o, const char *name, uint32_t a)
{
	o = key(o, name);
	o = fmt_ipv4(o, a);
	return fmt_chr(o, '\n');
}

static char *f_ip6(char *o, const char *name, const uint8_t a[16])
{
	o = key(o, name);
	o = fmt_ipv6(o, a);
	return fmt_chr(o, '\n');
}

static char *f_mac(char *o, const char *name, const uint8_t m[6])
{
	o = key(o, name);
	o = fmt_mac(o, m);
	return fmt_chr(o, '\n');
}

static char *link_headers(char *o, const struct rw_packet *p)
{
	if (p->present & RW_P_ERF) {
		const struct rw_erf *e = &p->erf;
		o = layer(o, "erf");
		o = f_x(o, "ts", e->ts, 16);
		o = f_u(o, "type", e->type);
		o = f_x(o, "flags", e->flags, 2);
		o = f_u(o, "rlen", e->rlen);
		o = f_u(o, "lctr", e->lctr);
		o = f_u(o, "wlen", e->wlen);
		o = f_u(o, "extensions", e->n_ext);
		o = f_u(o, "hlen", e->hlen);
	}
	if (p->present & (RW_P_SLL | RW_P_SLL2)) {
		const struct rw_sll *s = &p->sll;
		o = layer(o, (p->present & RW_P_SLL2) ? "sll2" : "sll");
		o = f_u(o, "pkttype", s->pkttype);
		o = f_u(o, "hatype", s->hatype);
		o = f_u(o, "addr_len", s->addr_len);
		o = key(o, "addr");
		o = fmt_hexbytes(o, s->addr, s->addr_len < 8 ? s->addr_len : 8);
		*o++ = '\n';
		o = f_xn(o, "protocol", s->protocol, 4, cap_ethertype_name(s->protocol));
		if (p->present & RW_P_SLL2)
			o = f_u(o, "ifindex", s->ifindex);
	}
	if (p->present & RW_P_ETH) {
		o = layer(o, "eth");
		o = f_mac(o, "dst", p->eth.dst);
		o = f_mac(o, "src", p->eth.src);
		o = f_xn(o, "type", p->eth.ethertype, 4, cap_ethertype_name(p->eth.ethertype));
	}
	for (unsigned i = 0; i < p->n_vlan && i < RW_MAX_VLAN; i++) {
		const struct rw_vlan *v = &p->vlan[i];
		o = layer(o, "vlan");
		o = f_xn(o, "tpid", v->tpid, 4, cap_ethertype_name(v->tpid));
		o = f_u(o, "pcp", v->pcp);
		o = f_u(o, "dei", v->dei);
		o = f_u(o, "id", v->vid);
		o = f_xn(o, "type", v->ethertype, 4, cap_ethertype_name(v->ethertype));
	}
	if (p->present & RW_P_MACCTRL) {
		const struct rw_macctrl *m = &p->macctrl;
		if (m->opcode == RW_MACCTRL_PFC) {
			o = layer(o, "pfc");
			o = f_xn(o, "opcode", m->opcode, 4, "PFC");
			o = f_x(o, "cev", m->cev, 2);
			for (int i = 0; i < RW_PFC_PRIORITIES; i++) {
				static const char *const names[] = {
					"quanta[0]", "quanta[1]", "quanta[2]", "quanta[3]",
					"quanta[4]", "quanta[5]", "quanta[6]", "quanta[7]"};
				_Static_assert(sizeof(names) / sizeof(names[0]) == RW_PFC_PRIORITIES, "names: one entry per value");
				o = f_un(o, names[i], m->quanta[i],
					 (m->cev >> i & 1) ? "enabled" : NULL);
			}
		} else {
			o = layer(o, "pause");
			o = f_xn(o, "opcode", m->opcode, 4, "PAUSE");
			o = f_u(o, "quanta", m->quanta[0]);
		}
	}
	return o;
}

static char *ip_headers(char *o, const struct rw_packet *p)
{
	if (p->present & RW_P_IPV4) {
		const struct rw_ipv4 *ip = &p->ipv4;
		o = layer(o, "ipv4");
		o = f_u(o, "version", 4);
		o = f_u(o, "ihl", ip->ihl);
		o = f_u(o, "dscp", ip->dscp);
		o = f_un(o, "ecn", ip->ecn, cap_ecn_name(ip->ecn));
		o = f_u(o, "len", ip->total_len);
		o = f_x(o, "id", ip->id, 4);
		o = f_xn(o, "flags", ip->flags, 1,
			 (ip->flags & RW_IPV4_DF) ? ((ip->flags & RW_IPV4_MF) ? "DF MF" : "DF")
			 : (ip->flags & RW_IPV4_MF) ? "MF"
						     : NULL);
		o = f_u(o, "frag_off", ip->frag_off);
		o = f_u(o, "ttl", ip->ttl);
		o = f_un(o, "proto", ip->protocol, cap_ipproto_name(ip->protocol));
		o = f_x(o, "checksum", ip->checksum, 4);
		o = f_ip4(o, "src", ip->src);
		o = f_ip4(o, "dst", ip->dst);
		if (ip->options_len)
			o = f_u(o, "options_len", ip->options_len);
	}
	if (p->present & RW_P_IPV6) {
		const struct rw_ipv6 *ip = &p->ipv6;
		o = layer(o, "ipv6");
		o = f_u(o, "version", 6);
		o = f_u(o, "dscp", ip->dscp);
		o = f_un(o, "ecn", ip->ecn, cap_ecn_name(ip->ecn));
		o = f_x(o, "flow_label", ip->flow_label, 5);
		o = f_u(o, "payload_len", ip->payload_len);
		o = f_un(o, "next_header", ip->next_header, cap_ipproto_name(ip->next_header));
		o = f_u(o, "hop_limit", ip->hop_limit);
		o = f_ip6(o, "src", ip->src);
		o = f_ip6(o, "dst", ip->dst);
	}
	if ((p->present & RW_P_IPV6) && p->ipv6_ext.n) {
		/* one line per extension header, in wire order, then the
		 * protocol after them: "routing type 43 len 24" */
		const struct rw_ipv6_ext *x = &p->ipv6_ext;
		o = layer(o, "ipv6_ext");
		for (unsigned i = 0; i < x->n && i < RW_IPV6_EXT_MAX; i++) {
			const char *n = rw_ipv6_ext_name(x->type[i]);
			o = key(o, n ? n : "?");
			o = FMT_LIT(o, "type ");
			o = fmt_u32(o, x->type[i]);
			o = FMT_LIT(o, " len ");
			o = fmt_u32(o, x->hlen[i]);
			*o++ = '\n';
		}
		o = f_un(o, "next_header", x->proto, cap_ipproto_name(x->proto));
	}
	if (p->present & RW_P_UDP) {
		o = layer(o, "udp");
		o = f_u(o, "sport", p->udp.sport);
		o = f_u(o, "dport", p->udp.dport);
		o = f_u(o, "len", p->udp.len);
		o = f_x(o, "checksum", p->udp.checksum, 4);
	}
	return o;
}

static char *ib_headers(char *o, const struct rw_packet *p)
{
	if (p->present & RW_P_LRH) {
		const struct rw_lrh *l = &p->lrh;
		static const char *const lnh[4] = {"raw", "IPv6", "IBA local", "IBA global"};
		o = layer(o, "lrh");
		o = f_u(o, "vl", l->vl);
		o = f_u(o, "lver", l->lver);
		o = f_u(o, "sl", l->sl);
		o = f_u(o, "resv2", l->resv2);
		o = f_un(o, "lnh", l->lnh, lnh[l->lnh & 3]);
		o = f_xu(o, "dlid", l->dlid, 4);
		o = f_u(o, "resv5", l->resv5);
		o = f_un(o, "pktlen", l->pktlen, "4-byte words");
		o = f_xu(o, "slid", l->slid, 4);
	}
	if (p->present & RW_P_GRH) {
		const struct rw_grh *g = &p->grh;
		o = layer(o, "grh");
		o = f_u(o, "ipver", g->ipver);
		o = f_x(o, "tclass", g->tclass, 2);
		o = f_x(o, "flow_label", g->flow_label, 5);
		o = f_u(o, "paylen", g->paylen);
		o = f_xn(o, "nxthdr", g->nxthdr, 2, g->nxthdr == RW_GRH_NXTHDR_IBA ? "IBA" : NULL);
		o = f_u(o, "hoplmt", g->hoplmt);
		o = f_ip6(o, "sgid", g->sgid);
		o = f_ip6(o, "dgid", g->dgid);
	}
	return o;
}

static char *aeth(char *o, const struct rw_aeth *a)
{
	static const char *const kinds[4] = {"ACK", "RNR NAK", "reserved", "NAK"};
	o = layer(o, "aeth");
	o = f_x(o, "syndrome", a->syndrome, 2);
	o = f_s(o, "kind", kinds[a->kind & 3]);
	switch (a->kind) {
	case RW_AETH_ACK: {
		int credits = rw_aeth_credits(a->value);
		o = key(o, "credits");
		if (credits < 0)
			o = FMT_LIT(o, "invalid");
		else
			o = fmt_u32(o, (uint32_t)credits);
		o = FMT_LIT(o, " (code ");
		o = fmt_u32(o, a->value);
		o = FMT_LIT(o, ")\n");
		break;
	}
	case RW_AETH_RNR_NAK:
		o = key(o, "rnr_timer_us");
		o = fmt_u32(o, rw_rnr_timer_us(a->value));
		o = FMT_LIT(o, " (code ");
		o = fmt_u32(o, a->value);
		o = FMT_LIT(o, ")\n");
		break;
	case RW_AETH_NAK:
		o = f_un(o, "nak_code", a->value, rw_nak_code_name(a->value));
		break;
	default:
		o = f_u(o, "value", a->value);
		break;
	}
	return f_u(o, "msn", a->msn);
}

static char *transport(char *o, const struct rw_packet *p)
{
	const struct rw_bth *b = &p->bth;
	const struct rw_opcode_info *op = p->op ? p->op : rw_opcode(b->opcode);
	unsigned h = p->hdrs;

	o = layer(o, "bth");
	o = f_xn(o, "opcode", b->opcode, 2, op->name);
	o = f_s(o, "transport", rw_transport_name((enum rw_transport)op->transport));
	o = f_u(o, "se", b->se);
	o = f_u(o, "m", b->m);
	o = f_u(o, "pad", b->pad);
	o = f_u(o, "tver", b->tver);
	o = f_x(o, "pkey", b->pkey, 4);
	o = f_u(o, "fecn", b->fecn);
	o = f_u(o, "becn", b->becn);
	o = f_u(o, "resv6", b->resv6);
	o = f_xu(o, "dqpn", b->dqpn, 6);
	o = f_u(o, "ackreq", b->ackreq);
	o = f_u(o, "resv7", b->resv7);
	o = f_u(o, "psn", b->psn);

	if (h & RW_HDR_RDETH) {
		o = layer(o, "rdeth");
		o = f_u(o, "resv8", p->rdeth.resv8);
		o = f_xu(o, "een", p->rdeth.een, 6);
	}
	if (h & RW_HDR_DETH) {
		o = layer(o, "deth");
		o = f_x(o, "qkey", p->deth.qkey, 8);
		o = f_u(o, "resv8", p->deth.resv8);
		o = f_xu(o, "sqpn", p->deth.sqpn, 6);
	}
	if (h & RW_HDR_XRCETH) {
		o = layer(o, "xrceth");
		o = f_u(o, "resv8", p->xrceth.resv8);
		o = f_xu(o, "xrcsrq", p->xrceth.xrcsrq, 6);
	}
	if (h & RW_HDR_FETH) {
		o = layer(o, "feth");
		o = f_x(o, "resv26", p->feth.resv26, 7);
		o = f_u(o, "sel", p->feth.sel);
		o = f_u(o, "plt", p->feth.plt);
	}
	if (h & RW_HDR_RETH) {
		o = layer(o, "reth");
		o = f_x(o, "va", p->reth.va, 16);
		o = f_x(o, "rkey", p->reth.rkey, 8);
		o = f_u(o, "len", p->reth.dmalen);
	}
	if (h & RW_HDR_ATOMICETH) {
		o = layer(o, "atomiceth");
		o = f_x(o, "va", p->atomiceth.va, 16);
		o = f_x(o, "rkey", p->atomiceth.rkey, 8);
		o = f_x(o, "swap_add", p->atomiceth.swap_add, 16);
		o = f_x(o, "compare", p->atomiceth.compare, 16);
	}
	if (h & RW_HDR_AETH)
		o = aeth(o, &p->aeth);
	if (h & RW_HDR_ATOMICACKETH) {
		o = layer(o, "atomicacketh");
		o = f_x(o, "orig", p->atomicacketh.orig, 16);
	}
	if (h & RW_HDR_IMMDT) {
		o = layer(o, "immdt");
		o = f_x(o, "data", p->immdt, 8);
	}
	if (h & RW_HDR_IETH) {
		o = layer(o, "ieth");
		o = f_x(o, "rkey", p->ieth, 8);
	}
	if (h & RW_HDR_CNP) {
		o = layer(o, "cnp");
		o = f_s(o, "reserved", p->cnp_nonzero ? "not all zero" : "zero");
	}
	if (cap_payload_known(p)) {
		o = layer(o, "payload");
		o = f_u(o, "len", p->payload_len);
		o = f_u(o, "captured", p->payload_caplen);
	}
	return o;
}

static char *crc(char *o, const char *name, int captured, enum rw_crc_status s, uint32_t wire,
		 uint32_t computed, unsigned digits)
{
	if (!captured && s == RW_CRC_NONE)
		return o;
	o = layer(o, name);
	if (captured)
		o = f_x(o, "wire", wire, digits);
	if (s != RW_CRC_NONE)
		o = f_x(o, "computed", computed, digits);
	return f_s(o, "status", s == RW_CRC_OK ? "ok" : s == RW_CRC_BAD ? "BAD" : "not verified");
}

void cap_print_verbose(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	char *o = cap_out_begin(&c->out, CAP_PKT_MAX);

	o = FMT_LIT(o, "frame ");
	o = fmt_u64(o, r->index);
	o = FMT_LIT(o, ": ");
	o = fmt_u32(o, r->wirelen);
	o = FMT_LIT(o, " bytes on the wire, ");
	o = fmt_u32(o, r->caplen);
	o = FMT_LIT(o, " captured, ");
	o = fmt_str(o, rw_carrier_name(p->carrier));
	o = FMT_LIT(o, ", time ");
	o = cap_fmt_time_epoch(o, r->ts_sec, r->ts_nsec);
	o = FMT_LIT(o, " (");
	o = cap_fmt_time_local(&c->clock, o, r->ts_sec, r->ts_nsec);
	o = FMT_LIT(o, ")\n");

	o = link_headers(o, p);
	o = ip_headers(o, p);
	o = ib_headers(o, p);
	if (p->present & RW_P_BTH)
		o = transport(o, p);
	o = crc(o, "icrc", (p->present & RW_P_ICRC) != 0, p->icrc_status,
		rw_icrc_display(p->icrc_wire), rw_icrc_display(p->icrc_computed), 8);
	o = crc(o, "vcrc", (p->present & RW_P_VCRC) != 0, p->vcrc_status, p->vcrc_wire,
		p->vcrc_computed, 4);
	if (p->err != RW_OK) {
		char why[400];
		o = layer(o, "error");
		o = f_s(o, "kind", rw_strerror(p->err));
		o = f_s(o, "reason", rw_packet_problem(p, r->caplen, r->wirelen, why, sizeof(why)));
	}
	cap_out_end(&c->out, o);
}
