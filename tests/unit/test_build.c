/* SPDX-License-Identifier: BSD-3-Clause */
/* build.h: rw_packet_build -> rw_packet_decode round trips, for every valid
 * opcode of the table on every carrier and link type. The derived fields
 * (lengths, PadCnt, ICRC) are checked against the spec formulas and the
 * reference ICRC of rw_test_util.h, not only against the decoder. */
#define RW_TEST_WANT_ZLIB
#include "rw_test_util.h"

enum carrier_case {
	C_V2_V4,
	C_V2_V4_VLAN,
	C_V2_V4_QINQ,
	C_V2_V6,
	C_V1,
	C_IB,
	C_IB_GRH,
	C_SLL_V4,
	C_SLL2_V6,
	C_ERF_IB,
	C_COUNT
};

static const char *const case_name[C_COUNT] = {
	"RoCEv2/IPv4", "RoCEv2/IPv4+VLAN", "RoCEv2/IPv4+QinQ", "RoCEv2/IPv6", "RoCEv1",
	"IB",	       "IB+GRH",	   "SLL RoCEv2/IPv4",  "SLL2 RoCEv2/IPv6", "ERF IB",
};

struct expect {
	int linktype;
	size_t l2, l3, l4, lrh, grh, bth, icrc, total;
	enum rw_carrier carrier;
	int ipv, n_vlan, vcrc;
};

static void rand_packet(uint64_t *s, struct rw_packet *p, enum carrier_case cc, uint8_t opcode,
			const uint8_t *payload, size_t plen, struct expect *x)
{
	memset(p, 0, sizeof(*p));
	memset(x, 0, sizeof(*x));
	x->l2 = x->l3 = x->l4 = x->lrh = x->grh = (size_t)-1;
	const struct rw_opcode_info *oi = rw_opcode(opcode);
	size_t link = 0;
	int eth = 0;
	switch (cc) {
	case C_SLL_V4:
		x->linktype = RW_LINKTYPE_LINUX_SLL;
		link = 16;
		break;
	case C_SLL2_V6:
		x->linktype = RW_LINKTYPE_LINUX_SLL2;
		link = 20;
		break;
	case C_IB:
	case C_IB_GRH:
		x->linktype = RW_LINKTYPE_INFINIBAND;
		break;
	case C_ERF_IB:
		x->linktype = RW_LINKTYPE_ERF;
		link = 16;
		break;
	default:
		x->linktype = RW_LINKTYPE_ETHERNET;
		eth = 1;
	}
	x->n_vlan = cc == C_V2_V4_VLAN ? 1 : cc == C_V2_V4_QINQ ? 2 : 0;
	switch (cc) {
	case C_V2_V6:
	case C_SLL2_V6:
		x->ipv = 6;
		break;
	case C_V1:
	case C_IB:
	case C_IB_GRH:
	case C_ERF_IB:
		x->ipv = 0;
		break;
	default:
		x->ipv = 4;
	}
	if (cc == C_V1)
		x->carrier = RW_CARRIER_ROCEV1;
	else if (cc == C_IB || cc == C_IB_GRH || cc == C_ERF_IB)
		x->carrier = RW_CARRIER_IB;
	else
		x->carrier = RW_CARRIER_ROCEV2;
	int has_grh = cc == C_V1 || cc == C_IB_GRH || cc == C_ERF_IB;

	p->carrier = x->carrier;
	size_t off = link;
	uint16_t l3type = x->ipv == 4 ? RW_ETHERTYPE_IPV4 : x->ipv == 6 ? RW_ETHERTYPE_IPV6 : RW_ETHERTYPE_ROCEV1;
	if (eth) {
		p->present |= RW_P_ETH;
		rw_randbytes(s, p->eth.dst, 6);
		rw_randbytes(s, p->eth.src, 6);
		p->n_vlan = (uint8_t)x->n_vlan;
		static const uint16_t tpids[2][2] = { { RW_ETHERTYPE_VLAN, 0 },
						      { RW_ETHERTYPE_QINQ, RW_ETHERTYPE_VLAN } };
		p->eth.ethertype = x->n_vlan ? tpids[x->n_vlan - 1][0] : l3type;
		for (int i = 0; i < x->n_vlan; i++) {
			p->vlan[i].tpid = tpids[x->n_vlan - 1][i];
			p->vlan[i].pcp = (uint8_t)rw_randbits(s, 3);
			p->vlan[i].dei = (uint8_t)rw_randbits(s, 1);
			p->vlan[i].vid = (uint16_t)(1 + rw_randbits(s, 12) % 4094);
			p->vlan[i].ethertype = i + 1 < x->n_vlan ? tpids[x->n_vlan - 1][i + 1] : l3type;
		}
		x->l2 = off;
		off += 14 + 4 * (size_t)x->n_vlan;
	}
	if (cc == C_SLL_V4 || cc == C_SLL2_V6) {
		p->present |= cc == C_SLL_V4 ? RW_P_SLL : RW_P_SLL2;
		p->sll.pkttype = 4;
		p->sll.hatype = 1;
		p->sll.addr_len = 6;
		rw_randbytes(s, p->sll.addr, 6);
		p->sll.protocol = l3type;
		p->sll.ifindex = (uint32_t)rw_randbits(s, 16);
	}
	if (cc == C_ERF_IB) {
		p->present |= RW_P_ERF;
		p->erf.ts = rw_rand64(s);
		p->erf.type = RW_ERF_TYPE_INFINIBAND;
	}
	if (x->ipv == 4) {
		p->present |= RW_P_IPV4;
		p->ipv4.ihl = 5;
		p->ipv4.dscp = (uint8_t)rw_randbits(s, 6);
		p->ipv4.ecn = (uint8_t)rw_randbits(s, 2);
		p->ipv4.id = (uint16_t)rw_rand64(s);
		p->ipv4.flags = RW_IPV4_DF;
		p->ipv4.ttl = (uint8_t)(1 + rw_randbits(s, 7));
		p->ipv4.protocol = RW_IPPROTO_UDP;
		p->ipv4.src = (uint32_t)rw_rand64(s);
		p->ipv4.dst = (uint32_t)rw_rand64(s);
		x->l3 = off;
		off += 20;
	} else if (x->ipv == 6) {
		p->present |= RW_P_IPV6;
		p->ipv6.dscp = (uint8_t)rw_randbits(s, 6);
		p->ipv6.ecn = (uint8_t)rw_randbits(s, 2);
		p->ipv6.flow_label = (uint32_t)rw_randbits(s, 20);
		p->ipv6.next_header = 17;
		p->ipv6.hop_limit = (uint8_t)(1 + rw_randbits(s, 7));
		rw_randbytes(s, p->ipv6.src, 16);
		rw_randbytes(s, p->ipv6.dst, 16);
		x->l3 = off;
		off += 40;
	}
	if (x->ipv) {
		p->present |= RW_P_UDP;
		p->udp.sport = (uint16_t)(0xc000 | rw_randbits(s, 14));
		p->udp.dport = rw_randbits(s, 1) ? RW_ROCEV2_PORT : 0; /* 0 means 4791 */
		x->l4 = off;
		off += 8;
	}
	if (x->carrier == RW_CARRIER_IB) {
		p->present |= RW_P_LRH;
		p->lrh.vl = (uint8_t)rw_randbits(s, 4);
		p->lrh.sl = (uint8_t)rw_randbits(s, 4);
		p->lrh.resv2 = 3; /* written as zero */
		p->lrh.resv5 = 0x1f;
		p->lrh.lnh = has_grh ? RW_LNH_IBA_GLOBAL : RW_LNH_IBA_LOCAL;
		p->lrh.dlid = (uint16_t)rw_rand64(s);
		p->lrh.slid = (uint16_t)rw_rand64(s);
		x->lrh = off;
		x->l2 = off;
		off += 8;
		x->vcrc = 1;
	}
	if (has_grh) {
		p->present |= RW_P_GRH;
		p->grh.ipver = 6;
		p->grh.tclass = (uint8_t)rw_rand64(s);
		p->grh.flow_label = (uint32_t)rw_randbits(s, 20);
		p->grh.nxthdr = RW_GRH_NXTHDR_IBA;
		p->grh.hoplmt = (uint8_t)rw_rand64(s);
		rw_randbytes(s, p->grh.sgid, 16);
		rw_randbytes(s, p->grh.dgid, 16);
		x->grh = off;
		if (cc == C_V1)
			x->l3 = off;
		off += 40;
	}
	p->present |= RW_P_BTH;
	p->bth.opcode = opcode;
	p->bth.se = (uint8_t)rw_randbits(s, 1);
	p->bth.m = (uint8_t)rw_randbits(s, 1);
	p->bth.pkey = (uint16_t)rw_rand64(s);
	p->bth.fecn = (uint8_t)rw_randbits(s, 1);
	p->bth.becn = (uint8_t)rw_randbits(s, 1);
	p->bth.resv6 = 0x2a; /* written as zero */
	p->bth.dqpn = (uint32_t)rw_randbits(s, 24);
	p->bth.ackreq = (uint8_t)rw_randbits(s, 1);
	p->bth.resv7 = 0x55;
	p->bth.psn = (uint32_t)rw_randbits(s, 24);
	x->bth = off;

	p->rdeth.een = (uint32_t)rw_randbits(s, 24);
	p->deth.qkey = (uint32_t)rw_rand64(s);
	p->deth.sqpn = (uint32_t)rw_randbits(s, 24);
	p->xrceth.xrcsrq = (uint32_t)rw_randbits(s, 24);
	p->feth.sel = (uint8_t)rw_randbits(s, 2);
	p->feth.plt = (uint8_t)rw_randbits(s, 4);
	p->reth.va = rw_rand64(s);
	p->reth.rkey = (uint32_t)rw_rand64(s);
	p->reth.dmalen = (uint32_t)plen;
	p->atomiceth.va = rw_rand64(s) & ~7ULL;
	p->atomiceth.rkey = (uint32_t)rw_rand64(s);
	p->atomiceth.swap_add = rw_rand64(s);
	p->atomiceth.compare = rw_rand64(s);
	p->aeth.syndrome = (uint8_t)rw_randbits(s, 7);
	p->aeth.msn = (uint32_t)rw_randbits(s, 24);
	p->atomicacketh.orig = rw_rand64(s);
	p->immdt = (uint32_t)rw_rand64(s);
	p->ieth = (uint32_t)rw_rand64(s);
	p->hdrs = oi->hdrs;

	p->payload = plen ? payload : NULL;
	p->payload_len = (uint32_t)plen;
	size_t pad = rw_ref_pad(plen);
	x->icrc = off + oi->hdr_len + plen + pad;
	x->total = x->icrc + 4 + (x->vcrc ? 2 : 0);
	if (eth && x->total < 60)
		x->total = 60; /* padded to the Ethernet minimum (without FCS) */
	if (cc == C_ERF_IB) {
		p->erf.rlen = (uint16_t)x->total;
		p->erf.wlen = (uint16_t)(x->total - 16);
	}
}

static void check_decoded(const struct rw_packet *a, const struct rw_packet *d, const uint8_t *buf,
			  size_t plen, const struct expect *x, const char *ctx)
{
	const struct rw_opcode_info *oi = rw_opcode(a->bth.opcode);
	size_t pad = rw_ref_pad(plen);
	size_t ib_tail = oi->hdr_len + plen + pad + 4; /* BTH .. ICRC */
	if (d->err != RW_OK)
		fail_msg("%s: decode error %s", ctx, rw_strerror(d->err));
	if (d->carrier != x->carrier)
		fail_msg("%s: carrier %s", ctx, rw_carrier_name(d->carrier));
	if (x->l2 != (size_t)-1 && a->present & RW_P_ETH) {
		assert_memory_equal(d->eth.dst, a->eth.dst, 6);
		assert_memory_equal(d->eth.src, a->eth.src, 6);
		assert_int_equal(d->l2_off, x->l2);
	}
	assert_int_equal(d->n_vlan, x->n_vlan);
	for (int i = 0; i < x->n_vlan; i++) {
		assert_int_equal(d->vlan[i].tpid, a->vlan[i].tpid);
		assert_int_equal(d->vlan[i].pcp, a->vlan[i].pcp);
		assert_int_equal(d->vlan[i].dei, a->vlan[i].dei);
		assert_int_equal(d->vlan[i].vid, a->vlan[i].vid);
	}
	if (x->ipv == 4) {
		assert_true(d->present & RW_P_IPV4);
		assert_int_equal(d->l3_off, x->l3);
		assert_int_equal(d->ipv4.ihl, 5);
		assert_int_equal(d->ipv4.dscp, a->ipv4.dscp);
		assert_int_equal(d->ipv4.ecn, a->ipv4.ecn);
		assert_int_equal(d->ipv4.id, a->ipv4.id);
		assert_int_equal(d->ipv4.flags, RW_IPV4_DF);
		assert_int_equal(d->ipv4.ttl, a->ipv4.ttl);
		assert_int_equal(d->ipv4.protocol, 17);
		assert_int_equal(d->ipv4.src, a->ipv4.src);
		assert_int_equal(d->ipv4.dst, a->ipv4.dst);
		/* RFC 791 total length: IP + UDP + BTH .. ICRC; RFC 1071 checksum */
		assert_int_equal(d->ipv4.total_len, 20 + 8 + ib_tail);
		assert_int_equal(rw_ref_inet_cksum(buf + x->l3, 20), 0);
	}
	if (x->ipv == 6) {
		assert_true(d->present & RW_P_IPV6);
		assert_int_equal(d->l3_off, x->l3);
		assert_int_equal(d->ipv6.dscp, a->ipv6.dscp);
		assert_int_equal(d->ipv6.ecn, a->ipv6.ecn);
		assert_int_equal(d->ipv6.flow_label, a->ipv6.flow_label);
		assert_int_equal(d->ipv6.next_header, 17);
		assert_int_equal(d->ipv6.hop_limit, a->ipv6.hop_limit);
		assert_memory_equal(d->ipv6.src, a->ipv6.src, 16);
		assert_memory_equal(d->ipv6.dst, a->ipv6.dst, 16);
		assert_int_equal(d->ipv6.payload_len, 8 + ib_tail); /* RFC 8200 */
	}
	if (x->ipv) {
		assert_int_equal(d->l4_off, x->l4);
		assert_int_equal(d->udp.sport, a->udp.sport);
		assert_int_equal(d->udp.dport, RW_ROCEV2_PORT);
		assert_int_equal(d->udp.len, 8 + ib_tail); /* RFC 768 */
	}
	if (x->lrh != (size_t)-1) {
		assert_int_equal(d->lrh.vl, a->lrh.vl);
		assert_int_equal(d->lrh.sl, a->lrh.sl);
		assert_int_equal(d->lrh.lnh, a->lrh.lnh);
		assert_int_equal(d->lrh.dlid, a->lrh.dlid);
		assert_int_equal(d->lrh.slid, a->lrh.slid);
		assert_int_equal(d->lrh.resv2, 0);
		assert_int_equal(d->lrh.resv5, 0);
		/* IBA 7.7.8: PktLen counts 4-byte words from the LRH through the ICRC. */
		assert_int_equal(d->lrh.pktlen, (x->icrc + 4 - x->lrh) / 4);
		assert_int_equal(d->vcrc_status, RW_CRC_OK);
	}
	if (x->grh != (size_t)-1) {
		assert_true(d->present & RW_P_GRH);
		assert_int_equal(d->grh.ipver, 6);
		assert_int_equal(d->grh.tclass, a->grh.tclass);
		assert_int_equal(d->grh.flow_label, a->grh.flow_label);
		assert_int_equal(d->grh.nxthdr, 0x1b);
		assert_int_equal(d->grh.hoplmt, a->grh.hoplmt);
		assert_memory_equal(d->grh.sgid, a->grh.sgid, 16);
		assert_memory_equal(d->grh.dgid, a->grh.dgid, 16);
		assert_int_equal(d->grh.paylen, ib_tail); /* IBA 8.3.4: after the GRH through ICRC */
	} else {
		assert_false(d->present & RW_P_GRH);
	}
	assert_int_equal(d->bth_off, x->bth);
	assert_int_equal(d->bth.opcode, a->bth.opcode);
	assert_int_equal(d->bth.se, a->bth.se);
	assert_int_equal(d->bth.m, a->bth.m);
	assert_int_equal(d->bth.pad, pad);
	assert_int_equal(d->bth.tver, 0);
	assert_int_equal(d->bth.pkey, a->bth.pkey);
	assert_int_equal(d->bth.fecn, a->bth.fecn);
	assert_int_equal(d->bth.becn, a->bth.becn);
	assert_int_equal(d->bth.resv6, 0);
	assert_int_equal(d->bth.dqpn, a->bth.dqpn);
	assert_int_equal(d->bth.ackreq, a->bth.ackreq);
	assert_int_equal(d->bth.resv7, 0);
	assert_int_equal(d->bth.psn, a->bth.psn);
	if (d->hdrs != oi->hdrs)
		fail_msg("%s: headers 0x%x, table 0x%x", ctx, d->hdrs, oi->hdrs);
	uint16_t h = oi->hdrs;
	if (h & RW_HDR_RDETH) {
		assert_int_equal(d->rdeth.een, a->rdeth.een);
		assert_int_equal(d->rdeth.resv8, 0);
	}
	if (h & RW_HDR_DETH) {
		assert_int_equal(d->deth.qkey, a->deth.qkey);
		assert_int_equal(d->deth.sqpn, a->deth.sqpn);
	}
	if (h & RW_HDR_XRCETH)
		assert_int_equal(d->xrceth.xrcsrq, a->xrceth.xrcsrq);
	if (h & RW_HDR_FETH) {
		assert_int_equal(d->feth.sel, a->feth.sel);
		assert_int_equal(d->feth.plt, a->feth.plt);
	}
	if (h & RW_HDR_RETH) {
		assert_true(d->reth.va == a->reth.va);
		assert_int_equal(d->reth.rkey, a->reth.rkey);
		assert_int_equal(d->reth.dmalen, a->reth.dmalen);
	}
	if (h & RW_HDR_ATOMICETH) {
		assert_true(d->atomiceth.va == a->atomiceth.va);
		assert_int_equal(d->atomiceth.rkey, a->atomiceth.rkey);
		assert_true(d->atomiceth.swap_add == a->atomiceth.swap_add);
		assert_true(d->atomiceth.compare == a->atomiceth.compare);
	}
	if (h & RW_HDR_AETH) {
		assert_int_equal(d->aeth.syndrome, a->aeth.syndrome);
		assert_int_equal(d->aeth.msn, a->aeth.msn);
	}
	if (h & RW_HDR_ATOMICACKETH)
		assert_true(d->atomicacketh.orig == a->atomicacketh.orig);
	if (h & RW_HDR_IMMDT)
		assert_int_equal(d->immdt, a->immdt);
	if (h & RW_HDR_IETH)
		assert_int_equal(d->ieth, a->ieth);
	if (h & RW_HDR_CNP)
		assert_int_equal(d->cnp_nonzero, 0);
	assert_int_equal(d->payload_off, x->bth + oi->hdr_len);
	if (d->payload_len != plen)
		fail_msg("%s: payload length %u, expected %zu", ctx, d->payload_len, plen);
	assert_int_equal(d->payload_caplen, plen);
	if (plen)
		assert_memory_equal(d->payload, a->payload, plen);
	for (size_t i = 0; i < pad; i++)
		assert_int_equal(buf[x->bth + oi->hdr_len + plen + i], 0);
	assert_int_equal(d->ib_len, ib_tail);
	if (d->icrc_status != RW_CRC_OK)
		fail_msg("%s: ICRC %s", ctx, rw_crc_status_name(d->icrc_status));
	/* The ICRC the builder wrote equals the independent reference. */
	uint32_t wire = rw_get_le32(buf + x->icrc), ref;
	if (x->carrier == RW_CARRIER_ROCEV2)
		ref = rw_ref_icrc_rocev2(buf + x->l3, x->icrc - x->l3);
	else if (x->carrier == RW_CARRIER_ROCEV1)
		ref = rw_ref_icrc_rocev1(buf + x->grh, x->icrc - x->grh);
	else
		ref = rw_ref_icrc_ib(buf + x->lrh, x->icrc - x->lrh);
	if (wire != ref)
		fail_msg("%s: built ICRC 0x%08x, reference 0x%08x", ctx, wire, ref);
	assert_int_equal(d->icrc_wire, wire);
}

static uint8_t payload_buf[1100];
static uint8_t frame[1400], frame2[1400];

static size_t pick_plen(const struct rw_opcode_info *oi, unsigned k)
{
	static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 6, 7, 37, 256, 1024 };
	if (!(oi->flags & RW_OPF_PAYLOAD))
		return 0;
	if (oi->op == RW_OP_ATOMIC_WRITE)
		return 8; /* IBA 1.5: an ATOMIC WRITE carries 8 bytes */
	return lens[k % RW_ARRAY_LEN(lens)];
}

static void test_roundtrip_all(void **state)
{
	(void)state;
	uint64_t s = 0xB111D;
	rw_randbytes(&s, payload_buf, sizeof(payload_buf));
	unsigned n_ops = 0, n_frames = 0, k = 0;
	for (unsigned opc = 0; opc < 256; opc++) {
		const struct rw_opcode_info *oi = rw_opcode((uint8_t)opc);
		if (!(oi->flags & RW_OPF_VALID))
			continue;
		n_ops++;
		for (int cc = 0; cc < C_COUNT; cc++, k++) {
			/* The CNP is a RoCEv2 packet (A17.9.3). */
			if (opc == 0x81 && (cc == C_V1 || cc == C_IB || cc == C_IB_GRH || cc == C_ERF_IB))
				continue;
			char ctx[96];
			size_t plen = pick_plen(oi, k);
			snprintf(ctx, sizeof(ctx), "%s (0x%02x) over %s, %zu payload bytes", oi->name, opc,
				 case_name[cc], plen);
			struct rw_packet a, d;
			struct expect x;
			rand_packet(&s, &a, (enum carrier_case)cc, (uint8_t)opc, payload_buf, plen, &x);
			size_t w = 0;
			enum rw_err e = rw_packet_build(&a, x.linktype, 0, frame, sizeof(frame), &w);
			if (e != RW_OK)
				fail_msg("%s: build failed: %s", ctx, rw_strerror(e));
			if (w != x.total)
				fail_msg("%s: built %zu bytes, expected %zu", ctx, w, x.total);
			memset(&d, 0xA5, sizeof(d));
			e = rw_packet_decode(NULL, x.linktype, frame, w, w, &d);
			if (e != RW_OK) {
				char msg[200];
				fail_msg("%s: %s", ctx, rw_packet_error(&d, msg, sizeof(msg)));
			}
			check_decoded(&a, &d, frame, plen, &x, ctx);
			n_frames++;

			/* RW_BUILD_BAD_ICRC: same frame, ICRC reported bad. */
			size_t w2 = 0;
			assert_int_equal(rw_packet_build(&a, x.linktype, RW_BUILD_BAD_ICRC, frame2,
							 sizeof(frame2), &w2),
					 RW_OK);
			assert_int_equal(w2, w);
			assert_int_equal(rw_packet_decode(NULL, x.linktype, frame2, w2, w2, &d), RW_OK);
			if (d.icrc_status != RW_CRC_BAD)
				fail_msg("%s: RW_BUILD_BAD_ICRC gave ICRC %s", ctx,
					 rw_crc_status_name(d.icrc_status));
			/* Only the ICRC differs (and the VCRC, which covers it). */
			assert_memory_equal(frame2, frame, x.icrc);

			/* Every too-small capacity: NOSPACE. */
			for (size_t cap = 0; cap < w; cap++) {
				e = rw_packet_build(&a, x.linktype, 0, frame2, cap, &w2);
				if (e != RW_ERR_NOSPACE)
					fail_msg("%s: capacity %zu of %zu gave %s", ctx, cap, w,
						 rw_strerror(e));
			}
		}
	}
	/* IBA Table 38 defines at least 85 opcodes (see test_opcode.c). */
	assert_true(n_ops >= 85);
	assert_true(n_frames >= 85 * 6);
}

static void test_no_pad_frame(void **state)
{
	(void)state;
	uint64_t s = 0x60;
	struct rw_packet a, d;
	struct expect x;
	/* RC SEND Only, empty: 14 + 20 + 8 + 12 + 4 = 58 bytes, below 60. */
	rand_packet(&s, &a, C_V2_V4, 0x04, payload_buf, 0, &x);
	size_t w = 0;
	assert_int_equal(rw_packet_build(&a, x.linktype, 0, frame, sizeof(frame), &w), RW_OK);
	assert_int_equal(w, 60);
	assert_int_equal(frame[58], 0);
	assert_int_equal(frame[59], 0);
	assert_int_equal(rw_packet_build(&a, x.linktype, RW_BUILD_NO_PAD_FRAME, frame, sizeof(frame), &w),
			 RW_OK);
	assert_int_equal(w, 58);
	assert_int_equal(rw_packet_decode(NULL, x.linktype, frame, w, w, &d), RW_OK);
	assert_int_equal(d.icrc_status, RW_CRC_OK);
	assert_int_equal(d.payload_len, 0);
}

static void test_invalid_fields(void **state)
{
	(void)state;
	uint64_t s = 0x61;
	struct rw_packet a;
	struct expect x;
	size_t w;
	/* A field that does not fit makes the whole build INVALID. */
	rand_packet(&s, &a, C_V2_V4, 0x04, payload_buf, 4, &x);
	a.bth.psn = 0x1000000;
	assert_int_equal(rw_packet_build(&a, x.linktype, 0, frame, sizeof(frame), &w), RW_ERR_INVALID);
	rand_packet(&s, &a, C_IB, 0x0a, payload_buf, 4, &x);
	a.lrh.vl = 16;
	assert_int_equal(rw_packet_build(&a, x.linktype, 0, frame, sizeof(frame), &w), RW_ERR_INVALID);
	rand_packet(&s, &a, C_V2_V4, 0x0a, payload_buf, 4, &x);
	a.bth.dqpn = 0x1000000;
	assert_int_equal(rw_packet_build(&a, x.linktype, 0, frame, sizeof(frame), &w), RW_ERR_INVALID);
}

static void test_raw_lengths_keep_pad(void **state)
{
	(void)state;
	uint64_t s = 0x62;
	struct rw_packet a;
	struct expect x;
	size_t w;
	/* RW_BUILD_RAW_LENGTHS: the length and checksum fields are written as
	 * given (for crafting bad packets). */
	rand_packet(&s, &a, C_V2_V4, 0x04, payload_buf, 16, &x);
	a.ipv4.total_len = 1234;
	a.ipv4.checksum = 0xbeef;
	a.udp.len = 99;
	a.udp.dport = RW_ROCEV2_PORT;
	assert_int_equal(rw_packet_build(&a, x.linktype, RW_BUILD_RAW_LENGTHS, frame, sizeof(frame), &w),
			 RW_OK);
	assert_int_equal(rw_get_be16(frame + x.l3 + 2), 1234);  /* RFC 791 Total Length */
	assert_int_equal(rw_get_be16(frame + x.l3 + 10), 0xbeef); /* Header Checksum */
	assert_int_equal(rw_get_be16(frame + x.l4 + 4), 99);     /* RFC 768 Length */
	rand_packet(&s, &a, C_IB_GRH, 0x04, payload_buf, 16, &x);
	a.lrh.pktlen = 3;
	a.grh.paylen = 7;
	assert_int_equal(rw_packet_build(&a, x.linktype, RW_BUILD_RAW_LENGTHS, frame, sizeof(frame), &w),
			 RW_OK);
	assert_int_equal(rw_get_be16(frame + x.lrh + 4) & 0x7ff, 3); /* IBA 7.7.8 PktLen */
	assert_int_equal(rw_get_be16(frame + x.grh + 4), 7);         /* IBA 8.3.4 PayLen */
	/* RW_BUILD_KEEP_PAD: PadCnt as given (IBA 9.2: byte 1 bits 5:4). */
	rand_packet(&s, &a, C_V2_V4, 0x04, payload_buf, 16, &x);
	a.bth.pad = 3;
	assert_int_equal(rw_packet_build(&a, x.linktype, RW_BUILD_KEEP_PAD, frame, sizeof(frame), &w),
			 RW_OK);
	assert_int_equal((frame[x.bth + 1] >> 4) & 3, 3);
	assert_int_equal(rw_packet_build(&a, x.linktype, 0, frame, sizeof(frame), &w), RW_OK);
	assert_int_equal((frame[x.bth + 1] >> 4) & 3, 0); /* derived: 16 bytes need none */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_all),
		cmocka_unit_test(test_no_pad_frame),
		cmocka_unit_test(test_invalid_fields),
		cmocka_unit_test(test_raw_lengths_keep_pad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
