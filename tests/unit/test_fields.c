/* SPDX-License-Identifier: BSD-3-Clause */
/* fields.h: every field of every header's table, read from the bytes of a
 * frame the encoders wrote (rw_packet_build), is what the codecs decoded.
 *
 * For every opcode, on every carrier and link type, and for PFC and PAUSE,
 * a frame with random header values is built, decoded, and each field of
 * each header rw_packet_hviews() lists is compared with the decoded
 * struct's member. The member a field is expected in is written here from
 * the specifications' names: a second reading of the tables. */
#include "rw_test_util.h"

static uint64_t seed = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(unsigned bits)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return bits >= 64 ? seed : seed & ((UINT64_C(1) << bits) - 1);
}

#define E(nm, expr)                                                                                 \
	do {                                                                                        \
		if (!strcmp(name, nm)) {                                                            \
			*out = (uint64_t)(expr);                                                    \
			return 1;                                                                   \
		}                                                                                   \
	} while (0)

/* The decoded value of field name of header v (element i); 0 when the test
 * knows no such field (which fails it). */
static int expected(const struct rw_packet *p, const struct rw_hview *v, const char *name,
		    unsigned i, uint64_t *out)
{
	switch ((enum rw_hd)v->hd) {
	case RW_HD_ERF:
		E("ts", p->erf.ts); E("type", p->erf.type); E("flags", p->erf.flags);
		E("rlen", p->erf.rlen); E("lctr", p->erf.lctr); E("wlen", p->erf.wlen);
		E("extensions", p->erf.n_ext); E("hlen", p->erf.hlen);
		break;
	case RW_HD_SLL:
	case RW_HD_SLL2:
		E("version", v->hd == RW_HD_SLL2 ? 2 : 1); E("pkttype", p->sll.pkttype);
		E("hatype", p->sll.hatype); E("addr_len", p->sll.addr_len);
		E("protocol", p->sll.protocol); E("ifindex", p->sll.ifindex); E("resv", 0);
		break;
	case RW_HD_ETH:
		E("type", p->eth.ethertype);
		break;
	case RW_HD_VLAN:
		E("tpid", p->vlan[v->idx].tpid); E("pcp", p->vlan[v->idx].pcp);
		E("dei", p->vlan[v->idx].dei); E("id", p->vlan[v->idx].vid);
		E("type", p->vlan[v->idx].ethertype);
		break;
	case RW_HD_PFC:
	case RW_HD_PAUSE:
		E("opcode", p->macctrl.opcode); E("cev", p->macctrl.cev);
		E("quanta", p->macctrl.quanta[i]);
		break;
	case RW_HD_IPV4:
		E("version", 4); E("ihl", p->ipv4.ihl); E("dscp", p->ipv4.dscp); E("ecn", p->ipv4.ecn);
		E("len", p->ipv4.total_len); E("id", p->ipv4.id); E("resv", p->ipv4.flags >> 2 & 1);
		E("df", (p->ipv4.flags & RW_IPV4_DF) != 0); E("mf", (p->ipv4.flags & RW_IPV4_MF) != 0);
		E("frag_off", p->ipv4.frag_off); E("ttl", p->ipv4.ttl); E("proto", p->ipv4.protocol);
		E("checksum", p->ipv4.checksum); E("options_len", p->ipv4.options_len);
		break;
	case RW_HD_IPV6:
		E("version", 6); E("dscp", p->ipv6.dscp); E("ecn", p->ipv6.ecn);
		E("flow_label", p->ipv6.flow_label); E("payload_len", p->ipv6.payload_len);
		E("next_header", p->ipv6.next_header); E("hop_limit", p->ipv6.hop_limit);
		break;
	case RW_HD_IPV6_EXT:
		E("type", p->ipv6_ext.type[v->idx]); E("len", p->ipv6_ext.hlen[v->idx]);
		E("next", v->idx + 1u < p->ipv6_ext.n ? p->ipv6_ext.type[v->idx + 1] : p->ipv6_ext.proto);
		break;
	case RW_HD_UDP:
		E("sport", p->udp.sport); E("dport", p->udp.dport); E("len", p->udp.len);
		E("checksum", p->udp.checksum);
		break;
	case RW_HD_LRH:
		E("vl", p->lrh.vl); E("lver", p->lrh.lver); E("sl", p->lrh.sl); E("resv2", p->lrh.resv2);
		E("lnh", p->lrh.lnh); E("dlid", p->lrh.dlid); E("resv5", p->lrh.resv5);
		E("pktlen", p->lrh.pktlen); E("slid", p->lrh.slid);
		break;
	case RW_HD_GRH:
		E("ipver", p->grh.ipver); E("tclass", p->grh.tclass); E("flow_label", p->grh.flow_label);
		E("paylen", p->grh.paylen); E("nxthdr", p->grh.nxthdr); E("hoplmt", p->grh.hoplmt);
		break;
	case RW_HD_BTH:
		E("opcode", p->bth.opcode); E("se", p->bth.se); E("m", p->bth.m); E("pad", p->bth.pad);
		E("tver", p->bth.tver); E("pkey", p->bth.pkey); E("fecn", p->bth.fecn);
		E("becn", p->bth.becn); E("resv6", p->bth.resv6); E("dqpn", p->bth.dqpn);
		E("ackreq", p->bth.ackreq); E("resv7", p->bth.resv7); E("psn", p->bth.psn);
		break;
	case RW_HD_RDETH:
		E("resv8", p->rdeth.resv8); E("een", p->rdeth.een);
		break;
	case RW_HD_DETH:
		E("qkey", p->deth.qkey); E("resv8", p->deth.resv8); E("sqpn", p->deth.sqpn);
		break;
	case RW_HD_XRCETH:
		E("resv8", p->xrceth.resv8); E("xrcsrq", p->xrceth.xrcsrq);
		break;
	case RW_HD_FETH:
		E("resv26", p->feth.resv26); E("sel", p->feth.sel); E("plt", p->feth.plt);
		break;
	case RW_HD_RETH:
		E("va", p->reth.va); E("rkey", p->reth.rkey); E("len", p->reth.dmalen);
		break;
	case RW_HD_ATOMICETH:
		E("va", p->atomiceth.va); E("rkey", p->atomiceth.rkey);
		E("swap_add", p->atomiceth.swap_add); E("compare", p->atomiceth.compare);
		break;
	case RW_HD_AETH:
		E("syndrome", p->aeth.syndrome); E("kind", p->aeth.kind); E("msn", p->aeth.msn);
		E("credit_code", p->aeth.value); E("rnr_code", p->aeth.value);
		E("nak_code", p->aeth.value); E("value", p->aeth.value);
		E("credits", rw_aeth_credits(p->aeth.value));
		E("rnr_timer_us", rw_rnr_timer_us(p->aeth.value));
		break;
	case RW_HD_ATOMICACKETH:
		E("orig", p->atomicacketh.orig);
		break;
	case RW_HD_IMMDT:
		E("data", p->immdt);
		break;
	case RW_HD_IETH:
		E("rkey", p->ieth);
		break;
	case RW_HD_CNP:
		break;
	default: /* the MADs' tables: test_mad.c reads them */
		break;
	}
	return 0;
}

/* The bytes an address field holds in the decoded structs. */
static const void *expected_bytes(const struct rw_packet *p, const struct rw_hview *v,
				  const char *name, uint8_t tmp[16])
{
	switch ((enum rw_hd)v->hd) {
	case RW_HD_ETH:
		return !strcmp(name, "dst") ? p->eth.dst : p->eth.src;
	case RW_HD_IPV4:
		rw_put_be32(tmp, !strcmp(name, "src") ? p->ipv4.src : p->ipv4.dst);
		return tmp;
	case RW_HD_IPV6:
		return !strcmp(name, "src") ? p->ipv6.src : p->ipv6.dst;
	case RW_HD_GRH:
		return !strcmp(name, "sgid") ? p->grh.sgid : p->grh.dgid;
	case RW_HD_SLL:
	case RW_HD_SLL2:
		return p->sll.addr;
	default:
		return NULL;
	}
}

static unsigned check_frame(const uint8_t *frame, size_t len, int linktype, unsigned *seen)
{
	struct rw_packet p;
	struct rw_hview v[RW_HVIEW_MAX];
	unsigned checked = 0;

	/* Reserved and vendor opcodes decode to their BTH, then stop. */
	if (rw_packet_decode(NULL, linktype, frame, len, len, &p) != RW_OK &&
	    (!(p.present & RW_P_BTH) || (rw_opcode(p.bth.opcode)->flags & RW_OPF_VALID))) {
		char why[200];
		fail_msg("linktype %d, opcode 0x%02x: %s", linktype, p.bth.opcode,
			 rw_packet_error(&p, why, sizeof(why)));
	}
	unsigned n = rw_packet_hviews(&p, frame, v, RW_HVIEW_MAX);
	assert_true(n > 0);
	for (unsigned k = 0; k < n; k++) {
		const struct rw_header_desc *d = v[k].d;
		seen[v[k].hd]++;
		assert_ptr_equal(d, rw_header_desc((enum rw_hd)v[k].hd));
		assert_true(v[k].b >= frame && v[k].b + (v[k].hd == RW_HD_IPV6_EXT ? 2 : d->len) <= frame + len);
		for (unsigned f = 0; f < d->n; f++) {
			const struct rw_field *fd = &d->f[f];
			uint64_t got, want;
			if (!rw_field_shown(fd, &v[k]))
				continue;
			if (fd->type == RW_FT_NAME) {
				const char *s = rw_field_name_of(fd, &v[k]);
				uint64_t x;
				assert_true(rw_field_value(&d->f[fd->of], &v[k], 0, &x));
				if (fd->vname(x, &v[k]))
					assert_string_equal(s, fd->vname(x, &v[k]));
				continue;
			}
			if (fd->type == RW_FT_IPV4 || fd->type == RW_FT_IPV6 || fd->type == RW_FT_MAC ||
			    fd->type == RW_FT_BYTES) {
				size_t nb;
				uint8_t tmp[16];
				const uint8_t *b = rw_field_bytes(fd, &v[k], &nb);
				const void *w = expected_bytes(&p, &v[k], fd->name, tmp);
				if (v[k].hd == RW_HD_CNP) {
					int nz = 0;
					for (size_t i = 0; i < nb; i++)
						nz |= b[i] != 0;
					assert_int_equal(nz, p.cnp_nonzero);
				} else {
					assert_non_null(w);
					assert_memory_equal(b, w, nb);
				}
				checked++;
				continue;
			}
			for (unsigned i = 0; i < (fd->count > 1 ? fd->count : 1u); i++) {
				int has = rw_field_value(fd, &v[k], i, &got);
				if (!expected(&p, &v[k], fd->name, i, &want))
					fail_msg("%s.%s: no decoded member to compare with", d->name, fd->name);
				if (!has) {
					/* credits: code 31 has none */
					assert_string_equal(fd->name, "credits");
					assert_int_equal((int64_t)want, -1);
					continue;
				}
				if (got != want)
					fail_msg("%s.%s[%u]: table reads 0x%llx, codec decoded 0x%llx",
						 d->name, fd->name, i, (unsigned long long)got,
						 (unsigned long long)want);
				if (!(fd->flags & RW_FF_DERIVED))
					assert_int_equal(got, rw_field_get(fd, v[k].b, i));
				checked++;
			}
		}
	}
	return checked;
}

static void random_headers(struct rw_packet *p, uint8_t op)
{
	p->bth.opcode = op;
	p->bth.se = (uint8_t)rnd(1);
	p->bth.m = (uint8_t)rnd(1);
	p->bth.tver = (uint8_t)rnd(4);
	p->bth.pkey = (uint16_t)rnd(16);
	p->bth.fecn = (uint8_t)rnd(1);
	p->bth.becn = (uint8_t)rnd(1);
	p->bth.dqpn = (uint32_t)rnd(24);
	p->bth.ackreq = (uint8_t)rnd(1);
	p->bth.psn = (uint32_t)rnd(24);
	p->rdeth.een = (uint32_t)rnd(24);
	p->deth.qkey = (uint32_t)rnd(32);
	p->deth.sqpn = (uint32_t)rnd(24);
	p->xrceth.xrcsrq = (uint32_t)rnd(24);
	p->feth.sel = (uint8_t)rnd(2);
	p->feth.plt = (uint8_t)rnd(4);
	p->reth.va = rnd(64);
	p->reth.rkey = (uint32_t)rnd(32);
	p->reth.dmalen = (uint32_t)rnd(32);
	p->atomiceth.va = rnd(64);
	p->atomiceth.rkey = (uint32_t)rnd(32);
	p->atomiceth.swap_add = rnd(64);
	p->atomiceth.compare = rnd(64);
	p->aeth.syndrome = (uint8_t)rnd(7);
	p->aeth.msn = (uint32_t)rnd(24);
	p->atomicacketh.orig = rnd(64);
	p->immdt = (uint32_t)rnd(32);
	p->ieth = (uint32_t)rnd(32);
	static const uint8_t pl[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	p->payload = pl;
	p->payload_len = (rw_opcode(op)->flags & RW_OPF_PAYLOAD) ? (uint32_t)rnd(3) : 0;
}

static void rocev2(struct rw_packet *p, int v6)
{
	p->carrier = RW_CARRIER_ROCEV2;
	p->present = RW_P_ETH | RW_P_UDP | RW_P_BTH | (v6 ? RW_P_IPV6 : RW_P_IPV4);
	for (int i = 0; i < 6; i++) {
		p->eth.dst[i] = (uint8_t)rnd(8);
		p->eth.src[i] = (uint8_t)rnd(8);
	}
	p->eth.ethertype = v6 ? RW_ETHERTYPE_IPV6 : RW_ETHERTYPE_IPV4;
	p->n_vlan = (uint8_t)rnd(1);
	p->vlan[0].tpid = RW_ETHERTYPE_VLAN;
	p->vlan[0].pcp = (uint8_t)rnd(3);
	p->vlan[0].dei = (uint8_t)rnd(1);
	p->vlan[0].vid = (uint16_t)rnd(12);
	p->vlan[0].ethertype = p->eth.ethertype;
	p->ipv4.ihl = 5;
	p->ipv4.dscp = (uint8_t)rnd(6);
	p->ipv4.ecn = (uint8_t)rnd(2);
	p->ipv4.id = (uint16_t)rnd(16);
	p->ipv4.flags = RW_IPV4_DF;
	p->ipv4.ttl = (uint8_t)rnd(8);
	p->ipv4.protocol = RW_IPPROTO_UDP;
	p->ipv4.src = (uint32_t)rnd(32);
	p->ipv4.dst = (uint32_t)rnd(32);
	p->ipv6.dscp = (uint8_t)rnd(6);
	p->ipv6.ecn = (uint8_t)rnd(2);
	p->ipv6.flow_label = (uint32_t)rnd(20);
	p->ipv6.next_header = RW_IPPROTO_UDP;
	p->ipv6.hop_limit = (uint8_t)rnd(8);
	for (int i = 0; i < 16; i++) {
		p->ipv6.src[i] = (uint8_t)rnd(8);
		p->ipv6.dst[i] = (uint8_t)rnd(8);
	}
	p->udp.sport = (uint16_t)rnd(16);
	p->udp.dport = RW_ROCEV2_PORT;
}

static void grh(struct rw_packet *p)
{
	p->grh.ipver = 6;
	p->grh.tclass = (uint8_t)rnd(8);
	p->grh.flow_label = (uint32_t)rnd(20);
	p->grh.nxthdr = RW_GRH_NXTHDR_IBA;
	p->grh.hoplmt = (uint8_t)rnd(8);
	for (int i = 0; i < 16; i++) {
		p->grh.sgid[i] = (uint8_t)rnd(8);
		p->grh.dgid[i] = (uint8_t)rnd(8);
	}
}

/* Every opcode on RoCEv2 (IPv4 and IPv6, with and without a VLAN tag, on
 * Ethernet, SLL, SLL2 and ERF), RoCEv1, and native IB with and without a
 * GRH. */
static void test_every_opcode(void **state)
{
	(void)state;
	static const int links[] = {RW_LINKTYPE_ETHERNET, RW_LINKTYPE_LINUX_SLL,
				    RW_LINKTYPE_LINUX_SLL2, RW_LINKTYPE_ERF};
	unsigned seen[RW_HD_ALL] = {0};
	unsigned checked = 0;
	uint8_t buf[2048];
	size_t len;

	for (unsigned op = 0; op < 256; op++) {
		for (unsigned c = 0; c < 8; c++) {
			struct rw_packet p;
			int lt;
			memset(&p, 0, sizeof(p));
			random_headers(&p, (uint8_t)op);
			if (c < 4) {
				rocev2(&p, (int)(c & 1));
				lt = links[(op + c) % 4];
			} else if (c < 6) {
				rocev2(&p, 0);
				p.carrier = RW_CARRIER_ROCEV1;
				p.present = RW_P_ETH | RW_P_GRH | RW_P_BTH;
				p.eth.ethertype = RW_ETHERTYPE_ROCEV1;
				p.vlan[0].ethertype = RW_ETHERTYPE_ROCEV1;
				grh(&p);
				lt = c == 4 ? RW_LINKTYPE_ETHERNET : RW_LINKTYPE_ERF;
			} else {
				p.carrier = RW_CARRIER_IB;
				p.present = RW_P_LRH | RW_P_BTH | (c == 7 ? RW_P_GRH : 0);
				p.lrh.vl = (uint8_t)rnd(4);
				p.lrh.sl = (uint8_t)rnd(4);
				p.lrh.dlid = (uint16_t)rnd(16);
				p.lrh.slid = (uint16_t)rnd(16);
				p.lrh.lnh = c == 7 ? RW_LNH_IBA_GLOBAL : RW_LNH_IBA_LOCAL;
				grh(&p);
				lt = RW_LINKTYPE_INFINIBAND;
			}
			assert_int_equal(rw_packet_build(&p, lt, 0, buf, sizeof(buf), &len), RW_OK);
			checked += check_frame(buf, len, lt, seen);
		}
	}
	for (unsigned pfc = 0; pfc < 2; pfc++) {
		struct rw_packet p;
		memset(&p, 0, sizeof(p));
		p.carrier = pfc ? RW_CARRIER_PFC : RW_CARRIER_PAUSE;
		p.present = RW_P_ETH | RW_P_MACCTRL;
		p.eth.ethertype = RW_ETHERTYPE_MACCTRL;
		p.macctrl.opcode = pfc ? RW_MACCTRL_PFC : RW_MACCTRL_PAUSE;
		p.macctrl.cev = pfc ? 0xA5 : 0;
		for (unsigned i = 0; i < RW_PFC_PRIORITIES; i++)
			p.macctrl.quanta[i] = (uint16_t)(pfc || i == 0 ? rnd(16) : 0);
		assert_int_equal(rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, buf, sizeof(buf), &len),
				 RW_OK);
		checked += check_frame(buf, len, RW_LINKTYPE_ETHERNET, seen);
	}
	/* Every table but the IPv6 extension headers' (test_ipv6_ext) was read. */
	for (unsigned hd = 0; hd < RW_HD_COUNT; hd++)
		if (hd != RW_HD_IPV6_EXT && hd != RW_HD_IPOIB && !seen[hd])
			fail_msg("header %s never built", rw_header_desc((enum rw_hd)hd)->name);
	print_message("%u field values compared\n", checked);
	assert_true(checked > 20000);
}

/* An IPv6 packet with a hop-by-hop and a destination options header. */
static void test_ipv6_ext(void **state)
{
	(void)state;
	uint8_t f[128];
	size_t n = rw_hex("333300000016 b8cef6100001 86dd"
			  "60000000 0018 00 01 fe800000000000000000000000000001 ff020000000000000000000000000016"
			  "3c00 0000 00000000"  /* hop-by-hop: next 60, 8 bytes */
			  "3a00 0000 00000000"  /* destination options: next 58 */
			  "8f00 0000 00000000", /* ICMPv6 */
			  f, sizeof(f));
	unsigned seen[RW_HD_ALL] = {0};
	check_frame(f, n, RW_LINKTYPE_ETHERNET, seen);
	assert_int_equal(seen[RW_HD_IPV6_EXT], 2);
}

/* The rows themselves: inside their header, names unique, NAME rows
 * pointing at a number with value names. */
static void test_tables(void **state)
{
	(void)state;
	for (unsigned hd = 0; hd < RW_HD_ALL; hd++) {
		const struct rw_header_desc *d = rw_header_desc((enum rw_hd)hd);
		assert_non_null(d);
		assert_true(d->n > 0);
		for (unsigned i = 0; i < d->n; i++) {
			const struct rw_field *f = &d->f[i];
			for (unsigned k = 0; k < i; k++)
				assert_string_not_equal(f->name, d->f[k].name);
			if (f->type == RW_FT_NAME) {
				assert_true(f->of < i);
				assert_non_null(f->vname);
				continue;
			}
			if (f->flags & RW_FF_DERIVED) {
				assert_non_null(f->get);
				continue;
			}
			assert_true(f->off + f->size * (f->count > 1 ? f->count : 1u) <= d->len);
			if (f->type == RW_FT_UINT || f->type == RW_FT_FLAG)
				assert_true(f->shift + f->bits <= 8u * f->size);
		}
	}
	assert_null(rw_header_desc(RW_HD_ALL));
}

/* ---- rw_field_put --------------------------------------------------------- */

/* Decodes header hd from b into p with its codec (the struct expected()
 * reads); 0 if the codec refused it. */
static int decode_hdr(enum rw_hd hd, const uint8_t *b, size_t n, struct rw_packet *p)
{
	switch (hd) {
	case RW_HD_UDP: return rw_udp_decode(b, n, &p->udp) == RW_OK;
	case RW_HD_BTH: return rw_bth_decode(b, n, &p->bth) == RW_OK;
	case RW_HD_RDETH: return rw_rdeth_decode(b, n, &p->rdeth) == RW_OK;
	case RW_HD_DETH: return rw_deth_decode(b, n, &p->deth) == RW_OK;
	case RW_HD_XRCETH: return rw_xrceth_decode(b, n, &p->xrceth) == RW_OK;
	case RW_HD_FETH: return rw_feth_decode(b, n, &p->feth) == RW_OK;
	case RW_HD_RETH: return rw_reth_decode(b, n, &p->reth) == RW_OK;
	case RW_HD_ATOMICETH: return rw_atomiceth_decode(b, n, &p->atomiceth) == RW_OK;
	case RW_HD_AETH: return rw_aeth_decode(b, n, &p->aeth) == RW_OK;
	case RW_HD_ATOMICACKETH: return rw_atomicacketh_decode(b, n, &p->atomicacketh) == RW_OK;
	case RW_HD_IMMDT: return rw_u32_decode(b, n, &p->immdt) == RW_OK;
	case RW_HD_IETH: return rw_u32_decode(b, n, &p->ieth) == RW_OK;
	default: return 0;
	}
}

/* Every number and flag of UDP, the BTH and every extension header: put a
 * random value into random header bytes, then rw_field_get() and the codec
 * read it back, and every bit outside the field (worked out here from
 * off/size/shift/bits, big-endian) is what it was. */
static void test_field_put(void **state)
{
	static const enum rw_hd hds[] = {
		RW_HD_UDP, RW_HD_BTH, RW_HD_RDETH, RW_HD_DETH, RW_HD_XRCETH, RW_HD_FETH, RW_HD_RETH,
		RW_HD_ATOMICETH, RW_HD_AETH, RW_HD_ATOMICACKETH, RW_HD_IMMDT, RW_HD_IETH,
	};
	unsigned checked = 0;
	(void)state;

	for (unsigned h = 0; h < sizeof(hds) / sizeof(hds[0]); h++) {
		const struct rw_header_desc *d = rw_header_desc(hds[h]);
		for (unsigned k = 0; k < d->n; k++) {
			const struct rw_field *f = &d->f[k];
			uint8_t mask[64] = {0};

			if ((f->type != RW_FT_UINT && f->type != RW_FT_FLAG) || (f->flags & RW_FF_DERIVED))
				continue;
			assert_true(d->len <= sizeof(mask));
			for (unsigned bit = f->shift; bit < (unsigned)f->shift + f->bits; bit++)
				mask[f->off + f->size - 1 - bit / 8] |= (uint8_t)(1u << (bit % 8));
			for (unsigned round = 0; round < 200; round++) {
				uint8_t b[64], was[64];
				uint64_t v = rnd(f->bits), got;
				struct rw_packet p;
				struct rw_hview view = { .d = d, .b = b, .p = &p, .hd = (uint8_t)hds[h] };

				for (unsigned i = 0; i < d->len; i++)
					b[i] = (uint8_t)rnd(8);
				if (hds[h] == RW_HD_BTH)
					b[0] = 0x04; /* RC SEND_ONLY: an opcode the codec takes */
				if (hds[h] == RW_HD_UDP)
					b[4] = 1; /* a length the codec takes (at least 8) */
				if (round == 0)
					v = 0;
				else if (round == 1)
					v = f->bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->bits) - 1;
				memcpy(was, b, d->len);
				/* bits above the width are cut, not spilled into neighbours */
				rw_field_put(f, b, v | (f->bits >= 64 ? 0 : ~UINT64_C(0) << f->bits));
				assert_int_equal(rw_field_get(f, b, 0), v);
				assert_int_equal(rw_field_peek(f, b), v);
				for (unsigned i = 0; i < d->len; i++)
					if ((b[i] ^ was[i]) & ~mask[i])
						fail_msg("%s.%s: byte %u bits %02x changed", d->name, f->name, i,
							 (b[i] ^ was[i]) & ~mask[i]);
				memset(&p, 0, sizeof(p));
				if (hds[h] == RW_HD_UDP && !strcmp(f->name, "len") && v < RW_UDP_HLEN) {
					assert_false(decode_hdr(hds[h], b, d->len, &p)); /* RFC 768 */
					continue;
				}
				if (!decode_hdr(hds[h], b, d->len, &p))
					fail_msg("%s.%s = %llu: the codec refused it", d->name, f->name,
						 (unsigned long long)v);
				assert_true(expected(&p, &view, f->name, 0, &got));
				if (got != v)
					fail_msg("%s.%s: put %llu, the codec read %llu", d->name, f->name,
						 (unsigned long long)v, (unsigned long long)got);
				checked++;
			}
		}
	}
	assert_true(checked >= 40 * 200);
}

/* The RW_FIELD rows tmpl.c and rewrite.c patch by name are the tables' rows
 * of that name. */
/* The printers write names by the lengths the rows carry: a length that
 * disagrees with its name would cut or overrun every key printed. */
static void test_field_name_lengths(void **state)
{
	(void)state;
	for (unsigned hd = 0; hd < RW_HD_ALL; hd++) {
		const struct rw_header_desc *d = rw_header_desc((enum rw_hd)hd);
		assert_int_equal(d->nlen, strlen(d->name));
		for (unsigned k = 0; k < d->n; k++)
			assert_int_equal(d->f[k].nlen, strlen(d->f[k].name));
	}
}

static void test_field_names(void **state)
{
	const struct {
		enum rw_hd hd;
		const char *name;
		const struct rw_field *row;
	} rows[] = {
		{RW_HD_BTH, "opcode", RW_FIELD(BTH_OPCODE)}, {RW_HD_BTH, "se", RW_FIELD(BTH_SE)},
		{RW_HD_BTH, "pkey", RW_FIELD(BTH_PKEY)}, {RW_HD_BTH, "fecn", RW_FIELD(BTH_FECN)},
		{RW_HD_BTH, "becn", RW_FIELD(BTH_BECN)}, {RW_HD_BTH, "dqpn", RW_FIELD(BTH_DQPN)},
		{RW_HD_BTH, "ackreq", RW_FIELD(BTH_ACKREQ)}, {RW_HD_BTH, "psn", RW_FIELD(BTH_PSN)},
		{RW_HD_DETH, "qkey", RW_FIELD(DETH_QKEY)}, {RW_HD_DETH, "sqpn", RW_FIELD(DETH_SQPN)},
		{RW_HD_RETH, "va", RW_FIELD(RETH_VA)}, {RW_HD_RETH, "rkey", RW_FIELD(RETH_RKEY)},
		{RW_HD_RETH, "len", RW_FIELD(RETH_LEN)}, {RW_HD_ATOMICETH, "va", RW_FIELD(ATOMICETH_VA)},
		{RW_HD_ATOMICETH, "rkey", RW_FIELD(ATOMICETH_RKEY)},
		{RW_HD_AETH, "syndrome", RW_FIELD(AETH_SYNDROME)}, {RW_HD_AETH, "msn", RW_FIELD(AETH_MSN)},
		{RW_HD_ATOMICACKETH, "orig", RW_FIELD(ATOMICACKETH_ORIG)},
		{RW_HD_IMMDT, "data", RW_FIELD(IMMDT_DATA)}, {RW_HD_IETH, "rkey", RW_FIELD(IETH_RKEY)},
		{RW_HD_UDP, "sport", RW_FIELD(UDP_SPORT)}, {RW_HD_UDP, "checksum", RW_FIELD(UDP_CHECKSUM)},
		{RW_HD_IPV4, "ecn", RW_FIELD(IPV4_ECN)}, {RW_HD_IPV4, "checksum", RW_FIELD(IPV4_CHECKSUM)},
		{RW_HD_IPV6, "ecn", RW_FIELD(IPV6_ECN)}, {RW_HD_IPV4, "dscp", RW_FIELD(IPV4_DSCP)},
		{RW_HD_IPV4, "ttl", RW_FIELD(IPV4_TTL)}, {RW_HD_IPV4, "src", RW_FIELD(IPV4_SRC)},
		{RW_HD_IPV4, "dst", RW_FIELD(IPV4_DST)}, {RW_HD_IPV6, "dscp", RW_FIELD(IPV6_DSCP)},
		{RW_HD_IPV6, "flow_label", RW_FIELD(IPV6_FLOW_LABEL)},
		{RW_HD_IPV6, "hop_limit", RW_FIELD(IPV6_HOP_LIMIT)}, {RW_HD_IPV6, "src", RW_FIELD(IPV6_SRC)},
		{RW_HD_IPV6, "dst", RW_FIELD(IPV6_DST)}, {RW_HD_BTH, "resv6", RW_FIELD(BTH_RESV6)},
		{RW_HD_UDP, "dport", RW_FIELD(UDP_DPORT)}, {RW_HD_UDP, "len", RW_FIELD(UDP_LEN)},
		{RW_HD_IPV4, "version", RW_FIELD(IPV4_VERSION)}, {RW_HD_ETH, "dst", RW_FIELD(ETH_DST)},
		{RW_HD_ETH, "src", RW_FIELD(ETH_SRC)}, {RW_HD_ETH, "type", RW_FIELD(ETH_TYPE)},
		{RW_HD_VLAN, "pcp", RW_FIELD(VLAN_PCP)}, {RW_HD_VLAN, "dei", RW_FIELD(VLAN_DEI)},
		{RW_HD_VLAN, "id", RW_FIELD(VLAN_ID)}, {RW_HD_VLAN, "type", RW_FIELD(VLAN_TYPE)},
	};
	(void)state;

	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct rw_header_desc *d = rw_header_desc(rows[i].hd);
		int k = rw_field_index(rows[i].hd, rows[i].name);
		if (k < 0)
			fail_msg("%s has no %s", d->name, rows[i].name);
		const struct rw_field *f = &d->f[k];
		assert_string_equal(f->name, rows[i].name);
		if (f->off != rows[i].row->off || f->size != rows[i].row->size ||
		    f->shift != rows[i].row->shift || f->bits != rows[i].row->bits)
			fail_msg("RW_FIELD for %s.%s is not its table row", d->name, rows[i].name);
	}
}

/* rw_field_index: a row by its name, -1 for a name or header not there. */
static void test_field_index(void **state)
{
	(void)state;
	for (unsigned hd = 0; hd < RW_HD_ALL; hd++) {
		const struct rw_header_desc *d = rw_header_desc((enum rw_hd)hd);
		for (unsigned k = 0; k < d->n; k++)
			assert_int_equal(rw_field_index((enum rw_hd)hd, d->f[k].name), (int)k);
		assert_int_equal(rw_field_index((enum rw_hd)hd, "no_such_field"), -1);
	}
	assert_int_equal(rw_field_index(RW_HD_BTH, "qp"), -1);
	assert_int_equal(rw_field_index((enum rw_hd)RW_HD_ALL, "psn"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_every_opcode),
		cmocka_unit_test(test_ipv6_ext),
		cmocka_unit_test(test_field_put),
		cmocka_unit_test(test_field_names),
		cmocka_unit_test(test_field_name_lengths),
		cmocka_unit_test(test_field_index),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
