/* SPDX-License-Identifier: BSD-3-Clause */
/* packet.h: whole-frame decode.
 *
 * Frames are assembled here by hand, header by header, from hex written
 * from the specs; length fields are filled by the spec formulas (IPv4 total
 * length, UDP length, IPv6 payload length, GRH PayLen, LRH PktLen in words,
 * BTH PadCnt) and the ICRC by the reference in rw_test_util.h. The two real
 * frames of shared/notes/icrc.md are assembled the same way and must come
 * out byte for byte as captured. Every frame is then decoded whole (every
 * field checked) and cut at every length (err_layer / err_offset / err_need /
 * present bits checked against the layout the assembler recorded). */
#define RW_TEST_WANT_ZLIB
#include "rw_test_util.h"

#define NONE ((size_t)-1)

struct seg {
	enum rw_layer layer;
	uint16_t hdr;   /* enum rw_hdr for RW_L_EXT */
	size_t off, len;
	size_t min_need; /* a shorter need also accepted while the fixed part is cut (IPv4
			  * options, ERF extensions): 0 = exact */
};

enum kind { K_V2, K_V1, K_IB, K_OTHER };

struct frame {
	uint8_t b[4096];
	size_t len;
	int linktype;
	enum kind kind;
	struct seg seg[32];
	int nseg;
	size_t erf, sll, eth, ip, udp, grh, lrh, bth, payload, icrc, vcrc;
	int ipv, erf_eth;
	size_t payload_len, pad;
};

static void fr_init(struct frame *f, int linktype, enum kind kind)
{
	memset(f, 0, sizeof(*f));
	f->linktype = linktype;
	f->kind = kind;
	f->erf = f->sll = f->eth = f->ip = f->udp = f->grh = f->lrh = f->bth = f->payload =
		f->icrc = f->vcrc = NONE;
}

static size_t fr_put(struct frame *f, enum rw_layer layer, uint16_t hdr, const char *hex)
{
	size_t off = f->len;
	size_t n = rw_hex(hex, f->b + off, sizeof(f->b) - off);
	f->len += n;
	struct seg *s = &f->seg[f->nseg++];
	s->layer = layer;
	s->hdr = hdr;
	s->off = off;
	s->len = n;
	s->min_need = 0;
	switch (layer) {
	case RW_L_ERF:
		f->erf = off;
		break;
	case RW_L_SLL:
	case RW_L_SLL2:
		f->sll = off;
		break;
	case RW_L_ETH:
		f->eth = off;
		break;
	case RW_L_IPV4:
		f->ip = off;
		f->ipv = 4;
		if (n > 20)
			s->min_need = 20;
		break;
	case RW_L_IPV6:
		f->ip = off;
		f->ipv = 6;
		break;
	case RW_L_UDP:
		f->udp = off;
		break;
	case RW_L_GRH:
		f->grh = off;
		break;
	case RW_L_LRH:
		f->lrh = off;
		break;
	case RW_L_BTH:
		f->bth = off;
		break;
	default:
		break;
	}
	return off;
}

/* Payload bytes (hex, or n pseudo-random bytes when hex is NULL), then
 * PadCnt zero bytes (IBA 9.2: pad to a 4-byte multiple). */
static void fr_payload(struct frame *f, const char *hex, size_t n, uint64_t seed)
{
	size_t off = f->len;
	if (hex)
		n = rw_hex(hex, f->b + off, sizeof(f->b) - off);
	else
		rw_randbytes(&seed, f->b + off, n);
	f->payload = off;
	f->payload_len = n;
	f->pad = rw_ref_pad(n);
	memset(f->b + off + n, 0, f->pad);
	f->len += n + f->pad;
	f->b[f->bth + 1] = (uint8_t)((f->b[f->bth + 1] & ~0x30) | f->pad << 4);
	if (n + f->pad) {
		struct seg *s = &f->seg[f->nseg++];
		s->layer = RW_L_PAYLOAD;
		s->hdr = 0;
		s->off = off;
		s->len = n + f->pad;
		s->min_need = 0;
	}
}

static void fr_finish(struct frame *f)
{
	size_t end = f->len + 4; /* end of the ICRC */
	if (f->ip != NONE && f->ipv == 4) {
		size_t ihl = (size_t)(f->b[f->ip] & 15) * 4;
		rw_put_be16(f->b + f->ip + 2, (uint16_t)(end - f->ip));
		rw_put_be16(f->b + f->ip + 10, 0);
		rw_put_be16(f->b + f->ip + 10, rw_ref_inet_cksum(f->b + f->ip, ihl));
	}
	if (f->ip != NONE && f->ipv == 6)
		rw_put_be16(f->b + f->ip + 4, (uint16_t)(end - f->ip - 40));
	if (f->udp != NONE)
		rw_put_be16(f->b + f->udp + 4, (uint16_t)(end - f->udp));
	if (f->grh != NONE)
		rw_put_be16(f->b + f->grh + 4, (uint16_t)(end - f->grh - 40));
	if (f->lrh != NONE) {
		size_t words = (end - f->lrh) / 4;
		f->b[f->lrh + 4] = (uint8_t)((f->b[f->lrh + 4] & 0xf8) | words >> 8);
		f->b[f->lrh + 5] = (uint8_t)words;
	}
	uint32_t icrc = 0;
	if (f->kind == K_V2)
		icrc = rw_ref_icrc_rocev2(f->b + f->ip, f->len - f->ip);
	else if (f->kind == K_V1)
		icrc = rw_ref_icrc_rocev1(f->b + f->grh, f->len - f->grh);
	else if (f->kind == K_IB)
		icrc = rw_ref_icrc_ib(f->b + f->lrh, f->len - f->lrh);
	f->icrc = f->len;
	rw_put_le32(f->b + f->len, icrc);
	f->len += 4;
	f->seg[f->nseg++] = (struct seg){ RW_L_ICRC, 0, f->icrc, 4, 0 };
	if (f->kind == K_IB) {
		/* The VCRC is built with the library's rw_vcrc16 (tested against
		 * independent vectors in test_crc.c); here it only makes the frame
		 * whole. */
		f->vcrc = f->len;
		rw_put_be16(f->b + f->len, rw_vcrc16(f->b + f->lrh, f->len - f->lrh));
		f->len += 2;
		f->seg[f->nseg++] = (struct seg){ RW_L_VCRC, 0, f->vcrc, 2, 0 };
	}
	if (f->erf != NONE) {
		rw_put_be16(f->b + f->erf + 10, (uint16_t)f->len);
		rw_put_be16(f->b + f->erf + 14, (uint16_t)(f->len - f->erf - (f->erf_eth ? 18 : 16)));
	}
}

static uint32_t layer_present_bit(enum rw_layer l)
{
	switch (l) {
	case RW_L_ERF: return RW_P_ERF;
	case RW_L_SLL: return RW_P_SLL;
	case RW_L_SLL2: return RW_P_SLL2;
	case RW_L_ETH: return RW_P_ETH;
	case RW_L_IPV4: return RW_P_IPV4;
	case RW_L_IPV6: return RW_P_IPV6;
	case RW_L_UDP: return RW_P_UDP;
	case RW_L_LRH: return RW_P_LRH;
	case RW_L_GRH: return RW_P_GRH;
	case RW_L_BTH: return RW_P_BTH;
	case RW_L_ICRC: return RW_P_ICRC;
	case RW_L_VCRC: return RW_P_VCRC;
	default: return 0;
	}
}

static enum rw_carrier kind_carrier(enum kind k)
{
	return k == K_V2 ? RW_CARRIER_ROCEV2 : k == K_V1 ? RW_CARRIER_ROCEV1 : RW_CARRIER_IB;
}

/* Decodes the whole frame and checks what the layout determines. */
static void check_whole(const struct frame *f, struct rw_packet *p)
{
	memset(p, 0xA5, sizeof(*p));
	enum rw_err e = rw_packet_decode(NULL, f->linktype, f->b, f->len, f->len, p);
	if (e != RW_OK) {
		char msg[256];
		fail_msg("whole frame did not decode: %s (%s)", rw_strerror(e),
			 rw_packet_error(p, msg, sizeof(msg)));
	}
	assert_int_equal(p->err, RW_OK);
	assert_int_equal(p->carrier, kind_carrier(f->kind));
	assert_int_equal(p->caplen, f->len);
	assert_int_equal(p->wirelen, f->len);
	uint32_t want = 0;
	uint16_t hdrs = 0;
	unsigned nvlan = 0;
	for (int i = 0; i < f->nseg; i++) {
		want |= layer_present_bit(f->seg[i].layer);
		if (f->seg[i].layer == RW_L_EXT)
			hdrs |= f->seg[i].hdr;
		if (f->seg[i].layer == RW_L_VLAN)
			nvlan++;
	}
	if (want != p->present)
		fail_msg("present bits 0x%x, expected 0x%x", p->present, want);
	assert_int_equal(p->hdrs, hdrs);
	assert_int_equal(p->n_vlan, nvlan);
	assert_non_null(p->op);
	assert_ptr_equal(p->op, rw_opcode(f->b[f->bth]));
	assert_int_equal(p->bth_off, f->bth);
	assert_int_equal(p->bth.opcode, f->b[f->bth]);
	assert_int_equal(p->bth.pad, f->pad);
	size_t after = f->bth + RW_BTH_LEN;
	for (int i = 0; i < f->nseg; i++)
		if (f->seg[i].layer == RW_L_EXT)
			after = f->seg[i].off + f->seg[i].len;
	assert_int_equal(p->payload_off, after);
	assert_int_equal(p->payload_len, f->payload_len);
	assert_int_equal(p->payload_caplen, f->payload_len);
	if (f->payload_len) {
		assert_ptr_equal(p->payload, f->b + f->payload);
	}
	/* ib_len: BTH through ICRC */
	assert_int_equal(p->ib_len, f->icrc + 4 - f->bth);
	if (f->ip != NONE) {
		assert_int_equal(p->l3_off, f->ip);
		assert_int_equal(p->l4_off, f->udp);
		assert_int_equal(p->icrc_start, f->ip);
	}
	if (f->kind == K_V1) {
		assert_int_equal(p->l3_off, f->grh);
		assert_int_equal(p->icrc_start, f->grh);
	}
	if (f->kind == K_IB) {
		assert_int_equal(p->l2_off, f->lrh);
		assert_int_equal(p->icrc_start, f->lrh);
		assert_int_equal(p->vcrc_status, RW_CRC_OK);
		assert_int_equal(p->vcrc_wire, rw_get_be16(f->b + f->vcrc));
	} else {
		assert_int_equal(p->vcrc_status, RW_CRC_NONE);
	}
	if (f->eth != NONE)
		assert_int_equal(p->l2_off, f->eth);
	assert_int_equal(p->icrc_status, RW_CRC_OK);
	assert_int_equal(p->icrc_wire, rw_get_le32(f->b + f->icrc));
	assert_int_equal(p->icrc_computed, rw_get_le32(f->b + f->icrc));
	char msg[256];
	assert_string_equal(rw_packet_error(p, msg, sizeof(msg)), "");
}

/* Cuts the frame at every length (snaplen: wirelen stays the full length). */
static void check_cuts(const struct frame *f)
{
	struct rw_packet p;
	char msg[256], num[16];
	for (size_t cut = 0; cut < f->len; cut++) {
		uint8_t *c = malloc(cut ? cut : 1);
		memcpy(c, f->b, cut);
		memset(&p, 0xA5, sizeof(p));
		enum rw_err e = rw_packet_decode(NULL, f->linktype, c, cut, f->len, &p);
		int si = 0;
		while (!(f->seg[si].off <= cut && cut < f->seg[si].off + f->seg[si].len))
			si++;
		const struct seg *s = &f->seg[si];
		if (e != RW_ERR_TRUNCATED || p.err != RW_ERR_TRUNCATED)
			fail_msg("cut at %zu of %zu (inside %s at %zu): %s, expected truncated", cut,
				 f->len, rw_layer_name(s->layer), s->off, rw_strerror(e));
		if (p.err_layer != s->layer || p.err_offset != s->off)
			fail_msg("cut at %zu of %zu: error at %s offset %u, expected %s offset %zu", cut,
				 f->len, rw_layer_name(p.err_layer), p.err_offset,
				 rw_layer_name(s->layer), s->off);
		int need_ok = p.err_need == s->len ||
			      (s->min_need && cut < s->off + s->min_need && p.err_need == s->min_need);
		if (!need_ok)
			fail_msg("cut at %zu of %zu in %s at %zu: err_need %u, expected %zu", cut, f->len,
				 rw_layer_name(s->layer), s->off, p.err_need, s->len);
		if (s->layer == RW_L_EXT && p.err_hdr != s->hdr)
			fail_msg("cut at %zu in an extension header: err_hdr 0x%x, expected 0x%x", cut,
				 p.err_hdr, s->hdr);
		assert_non_null(p.err_what);
		assert_int_equal(p.caplen, cut);
		assert_int_equal(p.wirelen, f->len);
		/* Headers before the cut are filled in; none from the cut on. */
		uint32_t want = 0;
		uint16_t hdrs = 0;
		unsigned nvlan = 0;
		for (int i = 0; i < si; i++) {
			want |= layer_present_bit(f->seg[i].layer);
			if (f->seg[i].layer == RW_L_EXT)
				hdrs |= f->seg[i].hdr;
			if (f->seg[i].layer == RW_L_VLAN)
				nvlan++;
		}
		if (p.present != want)
			fail_msg("cut at %zu of %zu (in %s): present 0x%x, expected 0x%x", cut, f->len,
				 rw_layer_name(s->layer), p.present, want);
		assert_int_equal(p.hdrs, hdrs);
		assert_int_equal(p.n_vlan, nvlan);
		if (want & RW_P_BTH) {
			assert_int_equal(p.bth.opcode, f->b[f->bth]);
			assert_ptr_equal(p.op, rw_opcode(f->b[f->bth]));
			assert_int_equal(p.carrier, kind_carrier(f->kind));
		}
		if (s->layer == RW_L_PAYLOAD) {
			size_t got = cut - f->payload;
			assert_int_equal(p.payload_caplen, got < f->payload_len ? got : f->payload_len);
			assert_int_equal(p.payload_len, f->payload_len);
		}
		assert_int_equal(p.icrc_status, s->layer == RW_L_VCRC ? RW_CRC_OK : RW_CRC_NONE);
		assert_int_equal(p.vcrc_status, RW_CRC_NONE);
		/* One sentence naming the place. */
		rw_packet_error(&p, msg, sizeof(msg));
		snprintf(num, sizeof(num), "%u", p.err_offset);
		if (msg[0] == '\0' || !strstr(msg, num))
			fail_msg("cut at %zu: error text \"%s\" does not name offset %s", cut, msg, num);
		free(c);
	}
}

/* ---- the two frames of shared/notes/icrc.md ---- */

static const char *const CNP_HEX =
	"e41d2dab2bc27cfe90643b32080045c2003c718c400040119161 0a001101 0a001201 000012b70028 0000"
	"8100ffff40000118 00000000 00000000000000000000000000000000 82fd002a";
static const char *const UC_HEX =
	"248a07a8fa22248a07a8fa22 0800 45010040047840004011b4d5c0a80007c0a80007 c00012b7002caca2"
	"2460ffff000000d300cf1710 4630818be28935d90e9a95505401be885e500000 78f353f3";
#define UC_PAYLOAD "4630818be28935d90e9a95505401be885e50"

static void build_cnp(struct frame *f)
{
	fr_init(f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(f, RW_L_ETH, 0, "e41d2dab2bc2 7cfe90643b32 0800");
	fr_put(f, RW_L_IPV4, 0, "45c2 0000 718c 4000 40 11 0000 0a001101 0a001201");
	fr_put(f, RW_L_UDP, 0, "0000 12b7 0000 0000");
	fr_put(f, RW_L_BTH, 0, "81 00 ffff 40 000118 00 000000");
	fr_put(f, RW_L_EXT, RW_HDR_CNP, "00000000000000000000000000000000");
	fr_finish(f);
}

/* The UC SEND_ONLY's IP datagram after whatever link header is already in f. */
static void put_uc_ip(struct frame *f)
{
	fr_put(f, RW_L_IPV4, 0, "4501 0000 0478 4000 40 11 0000 c0a80007 c0a80007");
	fr_put(f, RW_L_UDP, 0, "c000 12b7 0000 aca2");
	fr_put(f, RW_L_BTH, 0, "24 40 ffff 00 0000d3 00 cf1710");
	fr_payload(f, UC_PAYLOAD, 0, 0);
	fr_finish(f);
}

static void build_uc(struct frame *f)
{
	fr_init(f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(f, RW_L_ETH, 0, "248a07a8fa22 248a07a8fa22 0800");
	put_uc_ip(f);
}

static void test_known_cnp(void **state)
{
	(void)state;
	struct frame f;
	build_cnp(&f);
	uint8_t exp[128];
	size_t n = rw_hex(CNP_HEX, exp, sizeof(exp));
	assert_int_equal(f.len, n);
	assert_memory_equal(f.b, exp, n); /* the assembler rebuilt the captured frame */

	struct rw_packet p;
	check_whole(&f, &p);
	const uint8_t dst[6] = { 0xe4, 0x1d, 0x2d, 0xab, 0x2b, 0xc2 };
	assert_memory_equal(p.eth.dst, dst, 6);
	assert_int_equal(p.eth.ethertype, 0x0800);
	assert_int_equal(p.ipv4.dscp, 48);
	assert_int_equal(p.ipv4.ecn, RW_ECN_ECT0);
	assert_int_equal(p.ipv4.total_len, 60);
	assert_int_equal(p.ipv4.id, 0x718c);
	assert_int_equal(p.ipv4.flags, RW_IPV4_DF);
	assert_int_equal(p.ipv4.ttl, 64);
	assert_int_equal(p.ipv4.checksum, 0x9161);
	assert_int_equal(p.ipv4.src, 0x0a001101u);
	assert_int_equal(p.ipv4.dst, 0x0a001201u);
	assert_int_equal(p.udp.sport, 0);
	assert_int_equal(p.udp.dport, 4791);
	assert_int_equal(p.udp.len, 40);
	assert_int_equal(p.udp.checksum, 0);
	assert_int_equal(p.bth.opcode, 0x81);
	assert_int_equal(p.op->op, RW_OP_CNP);
	assert_int_equal(p.bth.se, 0);
	assert_int_equal(p.bth.m, 0);
	assert_int_equal(p.bth.pad, 0);
	assert_int_equal(p.bth.tver, 0);
	assert_int_equal(p.bth.pkey, 0xffff);
	assert_int_equal(p.bth.fecn, 0);
	assert_int_equal(p.bth.becn, 1);
	assert_int_equal(p.bth.dqpn, 0x118);
	assert_int_equal(p.bth.ackreq, 0);
	assert_int_equal(p.bth.psn, 0);
	assert_int_equal(p.hdrs, RW_HDR_CNP);
	assert_int_equal(p.cnp_nonzero, 0);
	assert_int_equal(p.l2_off, 0);
	assert_int_equal(p.l3_off, 14);
	assert_int_equal(p.l4_off, 34);
	assert_int_equal(p.bth_off, 42);
	assert_int_equal(p.payload_off, 70);
	assert_int_equal(p.payload_len, 0);
	assert_int_equal(p.ib_len, 12 + 16 + 4);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	assert_int_equal(p.icrc_wire, 0x2a00fd82u);
	assert_int_equal(p.icrc_computed, 0x2a00fd82u);
	check_cuts(&f);
	/* A set reserved byte in the CNP body is reported, not an error (the
	 * ICRC then fails since the byte is covered). */
	f.b[42 + 12 + 5] = 0x01;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.len, f.len, &p), RW_OK);
	assert_int_equal(p.cnp_nonzero, 1);
	assert_int_equal(p.icrc_status, RW_CRC_BAD);
}

static void test_known_uc(void **state)
{
	(void)state;
	struct frame f;
	build_uc(&f);
	uint8_t exp[128];
	size_t n = rw_hex(UC_HEX, exp, sizeof(exp));
	assert_int_equal(f.len, n);
	assert_memory_equal(f.b, exp, n);

	struct rw_packet p;
	check_whole(&f, &p);
	assert_int_equal(p.ipv4.dscp, 0);
	assert_int_equal(p.ipv4.ecn, RW_ECN_ECT1); /* tos=1 */
	assert_int_equal(p.ipv4.ttl, 64);
	assert_int_equal(p.ipv4.total_len, 64);
	assert_int_equal(p.udp.sport, 0xc000);
	assert_int_equal(p.udp.len, 44);
	assert_int_equal(p.udp.checksum, 0xaca2);
	assert_int_equal(p.bth.opcode, 0x24);
	assert_string_equal(p.op->name, "UC_SEND_ONLY");
	assert_int_equal(p.bth.m, 1);
	assert_int_equal(p.bth.pad, 2);
	assert_int_equal(p.bth.pkey, 0xffff);
	assert_int_equal(p.bth.dqpn, 211);
	assert_int_equal(p.bth.psn, 13571856);
	assert_int_equal(p.hdrs, 0);
	assert_int_equal(p.payload_off, 54);
	assert_int_equal(p.payload_len, 18);
	uint8_t pl[18];
	rw_hex(UC_PAYLOAD, pl, sizeof(pl));
	assert_memory_equal(p.payload, pl, 18);
	assert_int_equal(p.ib_len, 12 + 20 + 4);
	assert_int_equal(p.icrc_wire, 0xf353f378u);
	assert_int_equal(p.icrc_computed, 0xf353f378u);
	check_cuts(&f);

	/* Bytes after the IP datagram (an FCS, Ethernet padding) are not
	 * payload: the IP total length bounds the packet. */
	uint8_t g[140];
	memcpy(g, f.b, f.len);
	memset(g + f.len, 0xEE, 8);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, g, f.len + 8, f.len + 8, &p),
			 RW_OK);
	assert_int_equal(p.payload_len, 18);
	assert_int_equal(p.icrc_status, RW_CRC_OK);

	/* A payload bit flip: decodes, ICRC bad with both values reported. */
	memcpy(g, f.b, f.len);
	g[60] ^= 0x04;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, g, f.len, f.len, &p), RW_OK);
	assert_int_equal(p.err, RW_OK);
	assert_int_equal(p.icrc_status, RW_CRC_BAD);
	assert_int_equal(p.icrc_wire, 0xf353f378u);
	assert_int_equal(p.icrc_computed, rw_ref_icrc_rocev2(g + 14, f.len - 18));
	/* ECN marked to CE by a switch: ICRC still good (A17.3.3). */
	memcpy(g, f.b, f.len);
	g[15] |= 3;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, g, f.len, f.len, &p), RW_OK);
	assert_int_equal(p.ipv4.ecn, RW_ECN_CE);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	/* cfg: no ICRC check leaves the status NONE. */
	struct rw_decode_cfg cfg = { .rocev2_port = 0, .no_icrc_check = 1 };
	assert_int_equal(rw_packet_decode(&cfg, RW_LINKTYPE_ETHERNET, f.b, f.len, f.len, &p), RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_ROCEV2);
	assert_int_equal(p.icrc_status, RW_CRC_NONE);
	/* cfg: another RoCEv2 port; 4791 is then just UDP. */
	cfg.no_icrc_check = 0;
	cfg.rocev2_port = 1234;
	assert_int_equal(rw_packet_decode(&cfg, RW_LINKTYPE_ETHERNET, f.b, f.len, f.len, &p), RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_OTHER);
	memcpy(g, f.b, f.len);
	rw_put_be16(g + 36, 1234); /* the UDP ports are covered by the ICRC: recompute it */
	rw_put_le32(g + f.len - 4, rw_ref_icrc_rocev2(g + 14, f.len - 18));
	assert_int_equal(rw_packet_decode(&cfg, RW_LINKTYPE_ETHERNET, g, f.len, f.len, &p), RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_ROCEV2);
	assert_int_equal(p.udp.dport, 1234);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
}

static void test_vlan_qinq(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	/* 802.1Q: TPID 0x8100, TCI 0xb064 (PCP 5, DEI 1, VID 100). */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, "248a07a8fa22 248a07a8fa22 8100");
	fr_put(&f, RW_L_VLAN, 0, "b064 0800");
	put_uc_ip(&f);
	check_whole(&f, &p);
	assert_int_equal(p.eth.ethertype, 0x8100);
	assert_int_equal(p.vlan[0].tpid, 0x8100);
	assert_int_equal(p.vlan[0].pcp, 5);
	assert_int_equal(p.vlan[0].dei, 1);
	assert_int_equal(p.vlan[0].vid, 100);
	assert_int_equal(p.vlan[0].ethertype, 0x0800);
	assert_int_equal(p.l3_off, 18);
	assert_int_equal(p.icrc_computed, 0xf353f378u); /* the tag is not covered */
	check_cuts(&f);
	/* 802.1ad S-tag 0x88a8 (VID 100) over C-tag 0x8100 (PCP 7, VID 10). */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, "248a07a8fa22 248a07a8fa22 88a8");
	fr_put(&f, RW_L_VLAN, 0, "0064 8100");
	fr_put(&f, RW_L_VLAN, 0, "e00a 0800");
	put_uc_ip(&f);
	check_whole(&f, &p);
	assert_int_equal(p.vlan[0].tpid, 0x88a8);
	assert_int_equal(p.vlan[0].vid, 100);
	assert_int_equal(p.vlan[1].tpid, 0x8100);
	assert_int_equal(p.vlan[1].pcp, 7);
	assert_int_equal(p.vlan[1].vid, 10);
	assert_int_equal(p.l3_off, 22);
	assert_int_equal(p.icrc_computed, 0xf353f378u);
	check_cuts(&f);
}

static void test_ipv4_options(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, "248a07a8fa22 248a07a8fa22 0800");
	/* IHL 6: Router Alert (RFC 2113). */
	fr_put(&f, RW_L_IPV4, 0, "4601 0000 0478 4000 40 11 0000 c0a80007 c0a80007 94040000");
	fr_put(&f, RW_L_UDP, 0, "c000 12b7 0000 0000");
	fr_put(&f, RW_L_BTH, 0, "24 40 ffff 00 0000d3 00 cf1710");
	fr_payload(&f, UC_PAYLOAD, 0, 0);
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.ipv4.ihl, 6);
	assert_int_equal(p.ipv4.options_len, 4);
	assert_ptr_equal(p.ipv4.options, f.b + 34);
	assert_int_equal(p.l4_off, 38);
	check_cuts(&f);
}

/* Transports and extension headers over RoCEv2/IPv4, each field known. */
static void test_ext_headers(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	const char *eth = "020000000002 020000000001 0800";
	const char *ip = "4500 0000 0001 4000 40 11 0000 0a000001 0a000002";
	const char *udp = "e000 12b7 0000 0000";

	/* RC RDMA WRITE Only with Immediate (0x0b): RETH, ImmDt, 37 bytes. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, eth);
	fr_put(&f, RW_L_IPV4, 0, ip);
	fr_put(&f, RW_L_UDP, 0, udp);
	fr_put(&f, RW_L_BTH, 0, "0b 80 8001 00 000abc 80 123456");
	fr_put(&f, RW_L_EXT, RW_HDR_RETH, "00007fffdeadb000 00c0ffee 00000025");
	fr_put(&f, RW_L_EXT, RW_HDR_IMMDT, "cafef00d");
	fr_payload(&f, NULL, 37, 1);
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.bth.se, 1);
	assert_int_equal(p.bth.pkey, 0x8001);
	assert_int_equal(p.bth.ackreq, 1);
	assert_int_equal(p.bth.pad, 3);
	assert_true(p.reth.va == 0x00007fffdeadb000ULL);
	assert_int_equal(p.reth.rkey, 0x00c0ffee);
	assert_int_equal(p.reth.dmalen, 37);
	assert_int_equal(p.immdt, 0xcafef00d);
	check_cuts(&f);

	/* RD SEND Only with Immediate (0x45): RDETH, DETH, ImmDt, 5 bytes. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, eth);
	fr_put(&f, RW_L_IPV4, 0, ip);
	fr_put(&f, RW_L_UDP, 0, udp);
	fr_put(&f, RW_L_BTH, 0, "45 00 ffff 00 000042 00 000001");
	fr_put(&f, RW_L_EXT, RW_HDR_RDETH, "00 00abcd");
	fr_put(&f, RW_L_EXT, RW_HDR_DETH, "11223344 00 000077");
	fr_put(&f, RW_L_EXT, RW_HDR_IMMDT, "00000001");
	fr_payload(&f, "0102030405", 0, 0);
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.rdeth.een, 0xabcd);
	assert_int_equal(p.deth.qkey, 0x11223344);
	assert_int_equal(p.deth.sqpn, 0x77);
	assert_int_equal(p.immdt, 1);
	assert_int_equal(p.payload_len, 5);
	assert_int_equal(p.bth.pad, 3);
	check_cuts(&f);

	/* RC ATOMIC Acknowledge (0x12): AETH (ACK, credit code 31), AtomicAckETH. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, eth);
	fr_put(&f, RW_L_IPV4, 0, ip);
	fr_put(&f, RW_L_UDP, 0, udp);
	fr_put(&f, RW_L_BTH, 0, "12 00 ffff 00 000042 00 fffffe");
	fr_put(&f, RW_L_EXT, RW_HDR_AETH, "1f 000010");
	fr_put(&f, RW_L_EXT, RW_HDR_ATOMICACKETH, "0000000000000007");
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.aeth.syndrome, 0x1f);
	assert_int_equal(p.aeth.kind, RW_AETH_ACK);
	assert_int_equal(p.aeth.value, 31);
	assert_int_equal(p.aeth.msn, 16);
	assert_true(p.atomicacketh.orig == 7);
	assert_int_equal(p.bth.psn, 0xfffffe);
	check_cuts(&f);

	/* XRC CmpSwap (0xb3): XRCETH, AtomicETH. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, eth);
	fr_put(&f, RW_L_IPV4, 0, ip);
	fr_put(&f, RW_L_UDP, 0, udp);
	fr_put(&f, RW_L_BTH, 0, "b3 00 ffff 00 000042 80 000009");
	fr_put(&f, RW_L_EXT, RW_HDR_XRCETH, "00 000321");
	fr_put(&f, RW_L_EXT, RW_HDR_ATOMICETH,
	       "0000000010000000 00000abc 0000000000000002 0000000000000001");
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.op->transport, RW_TRANSPORT_XRC);
	assert_int_equal(p.xrceth.xrcsrq, 0x321);
	assert_true(p.atomiceth.va == 0x10000000ULL);
	assert_int_equal(p.atomiceth.rkey, 0xabc);
	assert_true(p.atomiceth.swap_add == 2);
	assert_true(p.atomiceth.compare == 1);
	check_cuts(&f);

	/* RC FLUSH (0x1c, IBA 1.5): FETH (SEL 1, PLT 2), RETH. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, eth);
	fr_put(&f, RW_L_IPV4, 0, ip);
	fr_put(&f, RW_L_UDP, 0, udp);
	fr_put(&f, RW_L_BTH, 0, "1c 00 ffff 00 000042 80 000100");
	fr_put(&f, RW_L_EXT, RW_HDR_FETH, "00000012");
	fr_put(&f, RW_L_EXT, RW_HDR_RETH, "0000000000001000 00000001 00001000");
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.feth.sel, 1);
	assert_int_equal(p.feth.plt, 2);
	assert_true(p.reth.va == 0x1000);
	check_cuts(&f);

	/* RC SEND Last with Invalidate (0x16): IETH, 1 byte + 3 pad. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, eth);
	fr_put(&f, RW_L_IPV4, 0, ip);
	fr_put(&f, RW_L_UDP, 0, udp);
	fr_put(&f, RW_L_BTH, 0, "16 00 ffff 00 000042 80 000101");
	fr_put(&f, RW_L_EXT, RW_HDR_IETH, "0badf00d");
	fr_payload(&f, "aa", 0, 0);
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.ieth, 0x0badf00d);
	assert_int_equal(p.payload_len, 1);
	assert_int_equal(p.bth.pad, 3);
	check_cuts(&f);

	/* RC Acknowledge (0x11) carrying a NAK (remote access error). */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, eth);
	fr_put(&f, RW_L_IPV4, 0, ip);
	fr_put(&f, RW_L_UDP, 0, udp);
	fr_put(&f, RW_L_BTH, 0, "11 00 ffff 00 000042 00 000102");
	fr_put(&f, RW_L_EXT, RW_HDR_AETH, "62 000003");
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.aeth.kind, RW_AETH_NAK);
	assert_int_equal(p.aeth.value, RW_NAK_REMOTE_ACCESS);
	assert_int_equal(p.aeth.msn, 3);
	assert_int_equal(p.op->op, RW_OP_ACK);
	check_cuts(&f);

	/* A middle packet: RC SEND Middle (0x01), 256 bytes, no pad. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, eth);
	fr_put(&f, RW_L_IPV4, 0, ip);
	fr_put(&f, RW_L_UDP, 0, udp);
	fr_put(&f, RW_L_BTH, 0, "01 00 ffff 00 000042 00 000103");
	fr_payload(&f, NULL, 256, 7);
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.payload_len, 256);
	assert_int_equal(p.bth.pad, 0);
	check_cuts(&f);
}

static void test_ipv6_ud(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	/* UD SEND Only (0x64) over IPv6 (A17.4.5.2): DETH, 254 bytes + 2 pad;
	 * traffic class 0x6a (DSCP 26, ECN ECT(0)), flow label 0x12345, hop 2. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, "3333000000fb 020000000001 86dd");
	fr_put(&f, RW_L_IPV6, 0,
	       "66a12345 0000 11 02 20010db8000000000000000000000001 20010db8000000000000000000000002");
	fr_put(&f, RW_L_UDP, 0, "d431 12b7 0000 0000");
	fr_put(&f, RW_L_BTH, 0, "64 00 ffff 00 000001 00 00abcd");
	fr_put(&f, RW_L_EXT, RW_HDR_DETH, "80010000 00 00000c");
	fr_payload(&f, NULL, 254, 99);
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.ipv6.dscp, 26);
	assert_int_equal(p.ipv6.ecn, RW_ECN_ECT0);
	assert_int_equal(p.ipv6.flow_label, 0x12345);
	assert_int_equal(p.ipv6.hop_limit, 2);
	assert_int_equal(p.ipv6.next_header, 17);
	assert_int_equal(p.ipv6.payload_len, 8 + 12 + 8 + 256 + 4);
	assert_int_equal(p.udp.sport, 0xd431);
	assert_int_equal(p.deth.qkey, 0x80010000u);
	assert_int_equal(p.deth.sqpn, 12);
	assert_int_equal(p.bth.pad, 2);
	assert_int_equal(p.l3_off, 14);
	assert_int_equal(p.l4_off, 54);
	assert_int_equal(p.bth_off, 62);
	check_cuts(&f);
}

static void test_rocev1(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	/* RoCEv1 (A16): Ethernet 0x8915, GRH, RC RDMA READ Request (0x0c): RETH. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V1);
	fr_put(&f, RW_L_ETH, 0, "020000000002 020000000001 8915");
	fr_put(&f, RW_L_GRH, 0,
	       "6030000a 0000 1b 01 fe800000000000000000000000000001 fe800000000000000000000000000002");
	fr_put(&f, RW_L_BTH, 0, "0c 00 ffff 00 000011 80 000200");
	fr_put(&f, RW_L_EXT, RW_HDR_RETH, "0000000000002000 00001234 00010000");
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.eth.ethertype, RW_ETHERTYPE_ROCEV1);
	assert_int_equal(p.grh.ipver, 6);
	assert_int_equal(p.grh.tclass, 0x03);
	assert_int_equal(p.grh.flow_label, 0xa);
	assert_int_equal(p.grh.paylen, 12 + 16 + 4);
	assert_int_equal(p.grh.nxthdr, 0x1b);
	assert_int_equal(p.grh.hoplmt, 1);
	assert_int_equal(p.reth.dmalen, 0x10000);
	check_cuts(&f);
}

static void test_ib(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	/* Native IB, LNH 2: VL 1, SL 3, DLID 0x0007, SLID 0x0009; RC RDMA READ
	 * Response First (0x0d): AETH, 64 bytes. */
	fr_init(&f, RW_LINKTYPE_INFINIBAND, K_IB);
	fr_put(&f, RW_L_LRH, 0, "10 32 0007 0000 0009");
	fr_put(&f, RW_L_BTH, 0, "0d 00 ffff 00 000011 00 000200");
	fr_put(&f, RW_L_EXT, RW_HDR_AETH, "00 000001");
	fr_payload(&f, NULL, 64, 5);
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.lrh.vl, 1);
	assert_int_equal(p.lrh.sl, 3);
	assert_int_equal(p.lrh.lnh, RW_LNH_IBA_LOCAL);
	assert_int_equal(p.lrh.dlid, 7);
	assert_int_equal(p.lrh.slid, 9);
	assert_int_equal(p.lrh.pktlen, (8 + 12 + 4 + 64 + 4) / 4);
	assert_int_equal(p.aeth.kind, RW_AETH_ACK);
	assert_int_equal(p.payload_len, 64);
	/* A capture that holds no VCRC at all (the wire length ends at the
	 * ICRC, as some IB sniffers record) is whole: no error, VCRC absent. */
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_INFINIBAND, f.b, f.len - 2, f.len - 2, &p),
			 RW_OK);
	assert_false(p.present & RW_P_VCRC);
	assert_int_equal(p.vcrc_status, RW_CRC_NONE);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	/* A bad VCRC is reported, not an error. */
	uint8_t g[256];
	memcpy(g, f.b, f.len);
	g[f.len - 1] ^= 1;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_INFINIBAND, g, f.len, f.len, &p), RW_OK);
	assert_int_equal(p.vcrc_status, RW_CRC_BAD);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	check_cuts(&f);
}

static void test_ib_grh(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	/* LNH 3: GRH; UD SEND Only with Immediate (0x65): DETH, ImmDt, 7 bytes. */
	fr_init(&f, RW_LINKTYPE_INFINIBAND, K_IB);
	fr_put(&f, RW_L_LRH, 0, "20 03 c001 0000 0004");
	fr_put(&f, RW_L_GRH, 0,
	       "60000000 0000 1b ff fe800000000000000002c90300000001 ff12401bffff00000000000000000001");
	fr_put(&f, RW_L_BTH, 0, "65 00 ffff 00 ffffff 00 000003");
	fr_put(&f, RW_L_EXT, RW_HDR_DETH, "80010000 00 000002");
	fr_put(&f, RW_L_EXT, RW_HDR_IMMDT, "0000002a");
	fr_payload(&f, "0a0b0c0d0e0f10", 0, 0);
	fr_finish(&f);
	check_whole(&f, &p);
	assert_int_equal(p.lrh.lnh, RW_LNH_IBA_GLOBAL);
	assert_int_equal(p.lrh.dlid, 0xc001);
	assert_int_equal(p.grh.hoplmt, 255);
	assert_int_equal(p.grh.paylen, 12 + 8 + 4 + 7 + 1 + 4);
	assert_int_equal(p.bth.dqpn, 0xffffff);
	assert_int_equal(p.immdt, 42);
	assert_int_equal(p.payload_len, 7);
	assert_int_equal(p.bth.pad, 1);
	check_cuts(&f);
}

static void test_ib_erf(void **state)
{
	(void)state;
	struct frame f, e;
	struct rw_packet p;
	fr_init(&f, RW_LINKTYPE_INFINIBAND, K_IB);
	fr_put(&f, RW_L_LRH, 0, "20 03 c001 0000 0004");
	fr_put(&f, RW_L_GRH, 0,
	       "60000000 0000 1b ff fe800000000000000002c90300000001 ff12401bffff00000000000000000001");
	fr_put(&f, RW_L_BTH, 0, "65 00 ffff 00 ffffff 00 000003");
	fr_put(&f, RW_L_EXT, RW_HDR_DETH, "80010000 00 000002");
	fr_put(&f, RW_L_EXT, RW_HDR_IMMDT, "0000002a");
	fr_payload(&f, "0a0b0c0d0e0f10", 0, 0);
	fr_finish(&f);
	/* The same inside an ERF record (type 21, how ibdump stores IB). */
	fr_init(&e, RW_LINKTYPE_ERF, K_IB);
	fr_put(&e, RW_L_ERF, 0, "0000000000000000 15 00 0000 0000 0000");
	fr_put(&e, RW_L_LRH, 0, "20 03 c001 0000 0004");
	fr_put(&e, RW_L_GRH, 0,
	       "60000000 0000 1b ff fe800000000000000002c90300000001 ff12401bffff00000000000000000001");
	fr_put(&e, RW_L_BTH, 0, "65 00 ffff 00 ffffff 00 000003");
	fr_put(&e, RW_L_EXT, RW_HDR_DETH, "80010000 00 000002");
	fr_put(&e, RW_L_EXT, RW_HDR_IMMDT, "0000002a");
	fr_payload(&e, "0a0b0c0d0e0f10", 0, 0);
	fr_finish(&e);
	assert_memory_equal(e.b + 16, f.b, f.len);
	check_whole(&e, &p);
	assert_int_equal(p.erf.type, RW_ERF_TYPE_INFINIBAND);
	assert_int_equal(p.erf.rlen, e.len);
	assert_int_equal(p.erf.hlen, 16);
	assert_int_equal(p.l2_off, 16);
	assert_int_equal(p.immdt, 42);
	check_cuts(&e);
}

static void test_sll(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	/* Linux cooked capture: the IP datagram follows the SLL header. */
	fr_init(&f, RW_LINKTYPE_LINUX_SLL, K_V2);
	fr_put(&f, RW_L_SLL, 0, "0000 0001 0006 248a07a8fa220000 0800");
	put_uc_ip(&f);
	check_whole(&f, &p);
	assert_int_equal(p.sll.protocol, 0x0800);
	assert_int_equal(p.sll.hatype, 1);
	assert_int_equal(p.l3_off, 16);
	assert_int_equal(p.icrc_computed, 0xf353f378u);
	check_cuts(&f);
}

static void test_sll2(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	fr_init(&f, RW_LINKTYPE_LINUX_SLL2, K_V2);
	fr_put(&f, RW_L_SLL2, 0, "0800 0000 00000005 0001 04 06 248a07a8fa220000");
	put_uc_ip(&f);
	check_whole(&f, &p);
	assert_int_equal(p.sll.ifindex, 5);
	assert_int_equal(p.sll.pkttype, 4);
	assert_int_equal(p.l3_off, 20);
	assert_int_equal(p.icrc_computed, 0xf353f378u);
	check_cuts(&f);
}

static void test_erf_eth(void **state)
{
	(void)state;
	struct frame f;
	struct rw_packet p;
	/* ERF Ethernet record: 16-byte header + 2-byte pad, then the frame. */
	fr_init(&f, RW_LINKTYPE_ERF, K_V2);
	fr_put(&f, RW_L_ERF, 0, "0000000000000000 02 00 0000 0000 0000 0000");
	f.erf_eth = 1;
	f.seg[0].min_need = 16;
	fr_put(&f, RW_L_ETH, 0, "248a07a8fa22 248a07a8fa22 0800");
	put_uc_ip(&f);
	check_whole(&f, &p);
	assert_int_equal(p.erf.type, RW_ERF_TYPE_ETH);
	assert_int_equal(p.erf.hlen, 18);
	assert_int_equal(p.l2_off, 18);
	assert_int_equal(p.l3_off, 32);
	assert_int_equal(p.icrc_computed, 0xf353f378u);
	check_cuts(&f);
}

/* Malformed vs unsupported vs not-RoCE, each at the right place. */
static void expect_err(const uint8_t *b, size_t n, int linktype, enum rw_err err,
		       enum rw_layer layer, uint32_t off, const char *what)
{
	struct rw_packet p;
	enum rw_err e = rw_packet_decode(NULL, linktype, b, n, n, &p);
	if (e != err || p.err != err || p.err_layer != layer || p.err_offset != off)
		fail_msg("%s: got %s at %s offset %u, expected %s at %s offset %u", what,
			 rw_strerror(e), rw_layer_name(p.err_layer), p.err_offset, rw_strerror(err),
			 rw_layer_name(layer), off);
	if (err != RW_OK) {
		assert_non_null(p.err_what);
		char msg[256];
		assert_true(rw_packet_error(&p, msg, sizeof(msg))[0] != '\0');
	}
}

static void expect_other(const uint8_t *b, size_t n, int linktype, const char *what)
{
	struct rw_packet p;
	enum rw_err e = rw_packet_decode(NULL, linktype, b, n, n, &p);
	if (e != RW_OK || p.carrier != RW_CARRIER_OTHER)
		fail_msg("%s: got %s, carrier %s; expected OK, other", what, rw_strerror(e),
			 rw_carrier_name(p.carrier));
	assert_false(p.present & RW_P_BTH);
}

static void test_malformed_unsupported(void **state)
{
	(void)state;
	struct frame f;
	uint8_t g[4096];
	build_uc(&f);
	size_t n = f.len;
#define MUT(stmt) do { memcpy(g, f.b, n); stmt; } while (0)
	/* RFC 791: version 4 on ethertype 0x0800. */
	MUT(g[14] = 0x65);
	expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_MALFORMED, RW_L_IPV4, 14, "IPv4 version 6");
	MUT(g[14] = 0x44);
	expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_MALFORMED, RW_L_IPV4, 14, "IHL 4");
	MUT(rw_put_be16(g + 16, 19));
	expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_MALFORMED, RW_L_IPV4, 14, "total length 19");
	/* RFC 791 fragments (MF, or an offset): never RoCE, whose senders set
	 * DF; "other" like any packet that is not RoCE, not an error, though
	 * the bytes after the IP header are this UDP 4791 and BTH. */
	MUT(rw_put_be16(g + 20, 0x2000));
	expect_other(g, n, RW_LINKTYPE_ETHERNET, "IPv4 MF");
	MUT(rw_put_be16(g + 20, 0x4010));
	expect_other(g, n, RW_LINKTYPE_ETHERNET, "IPv4 fragment offset with DF");
	MUT(rw_put_be16(g + 20, 0x0001));
	expect_other(g, n, RW_LINKTYPE_ETHERNET, "IPv4 last fragment");
	{
		struct rw_packet q;
		MUT(rw_put_be16(g + 20, 0x2000));
		assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, g, n, n, &q), RW_OK);
		assert_true(q.present & RW_P_IPV4);
		assert_false(q.present & RW_P_UDP);
		assert_int_equal(q.ipv4.flags, 1);
	}
	/* RFC 768: UDP length below 8. */
	MUT(rw_put_be16(g + 38, 7));
	expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_MALFORMED, RW_L_UDP, 34, "UDP length 7");
	/* IBA Table 38: reserved opcodes are malformed, manufacturer-specific
	 * ones (0xC0-0xFF) unsupported. */
	const uint8_t reserved[] = { 0x15, 0x18, 0x1b, 0x1e, 0x1f, 0x2c, 0x3f, 0x56, 0x60, 0x63,
				     0x66, 0x7f, 0x80, 0x82, 0x9f, 0xb5, 0xb8, 0xbf };
	for (size_t i = 0; i < RW_ARRAY_LEN(reserved); i++) {
		MUT(g[42] = reserved[i]);
		char what[32];
		snprintf(what, sizeof(what), "reserved opcode 0x%02x", reserved[i]);
		expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_MALFORMED, RW_L_BTH, 42, what);
	}
	const uint8_t vendor[] = { 0xc0, 0xd5, 0xe0, 0xff };
	for (size_t i = 0; i < RW_ARRAY_LEN(vendor); i++) {
		MUT(g[42] = vendor[i]);
		char what[32];
		snprintf(what, sizeof(what), "vendor opcode 0x%02x", vendor[i]);
		expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_UNSUPPORTED, RW_L_BTH, 42, what);
	}
	/* Not RoCE at all: fine, carrier "other". */
	MUT(rw_put_be16(g + 12, 0x0806));
	expect_other(g, n, RW_LINKTYPE_ETHERNET, "ARP ethertype");
	MUT(g[23] = 6);
	expect_other(g, n, RW_LINKTYPE_ETHERNET, "IPv4 TCP");
	MUT(rw_put_be16(g + 36, 53));
	expect_other(g, n, RW_LINKTYPE_ETHERNET, "UDP port 53");

	/* IPv6: version, and next headers that are not UDP. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
	fr_put(&f, RW_L_ETH, 0, "020000000002 020000000001 86dd");
	fr_put(&f, RW_L_IPV6, 0,
	       "60000000 0000 11 40 fe800000000000000000000000000001 fe800000000000000000000000000002");
	fr_put(&f, RW_L_UDP, 0, "c000 12b7 0000 0000");
	fr_put(&f, RW_L_BTH, 0, "04 00 ffff 00 000011 00 000001");
	fr_payload(&f, NULL, 16, 3);
	fr_finish(&f);
	n = f.len;
	MUT((void)0);
	struct rw_packet p;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, g, n, n, &p), RW_OK);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	MUT(g[14] = 0x40);
	expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_MALFORMED, RW_L_IPV6, 14, "IPv6 version 4");
	/* Next header hop-by-hop 0, routing 43, destination options 60: the
	 * UDP header (c000 12b7 ...) is then read as an extension header of
	 * 8 bytes (Hdr Ext Len 0) leading to protocol 0xc0; fragment 44: as a
	 * Fragment header with offset 0x12b7 >> 3, a real fragment. Neither is
	 * RoCE nor an error (test_ipv6.c walks real chains). */
	const uint8_t ext[] = { 0, 43, 44, 60 };
	for (size_t i = 0; i < RW_ARRAY_LEN(ext); i++) {
		MUT(g[20] = ext[i]);
		char what[40];
		snprintf(what, sizeof(what), "IPv6 next header %u", ext[i]);
		expect_other(g, n, RW_LINKTYPE_ETHERNET, what);
	}
	MUT(g[20] = 6);
	expect_other(g, n, RW_LINKTYPE_ETHERNET, "IPv6 TCP");

	/* GRH IPVer != 6 (IBA 8.3.1), RoCEv1 and native IB. */
	fr_init(&f, RW_LINKTYPE_ETHERNET, K_V1);
	fr_put(&f, RW_L_ETH, 0, "020000000002 020000000001 8915");
	fr_put(&f, RW_L_GRH, 0,
	       "60000000 0000 1b 01 fe800000000000000000000000000001 fe800000000000000000000000000002");
	fr_put(&f, RW_L_BTH, 0, "11 00 ffff 00 000011 00 000200");
	fr_put(&f, RW_L_EXT, RW_HDR_AETH, "00 000001");
	fr_finish(&f);
	n = f.len;
	MUT(g[14] = 0x40);
	expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_MALFORMED, RW_L_GRH, 14, "RoCEv1 GRH IPVer 4");
	MUT(g[54] = 0x15);
	expect_err(g, n, RW_LINKTYPE_ETHERNET, RW_ERR_MALFORMED, RW_L_BTH, 54, "RoCEv1 reserved op");

	fr_init(&f, RW_LINKTYPE_INFINIBAND, K_IB);
	fr_put(&f, RW_L_LRH, 0, "00 03 0001 0000 0002");
	fr_put(&f, RW_L_GRH, 0,
	       "60000000 0000 1b 01 fe800000000000000000000000000001 fe800000000000000000000000000002");
	fr_put(&f, RW_L_BTH, 0, "11 00 ffff 00 000011 00 000200");
	fr_put(&f, RW_L_EXT, RW_HDR_AETH, "00 000001");
	fr_finish(&f);
	n = f.len;
	MUT((void)0);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_INFINIBAND, g, n, n, &p), RW_OK);
	MUT(g[8] = 0x40);
	expect_err(g, n, RW_LINKTYPE_INFINIBAND, RW_ERR_MALFORMED, RW_L_GRH, 8, "IB GRH IPVer 4");
	/* LRH LNH 0 (raw) and 1 (raw IPv6): IB packets this library does not walk. */
	MUT(g[1] = 0x00);
	expect_err(g, n, RW_LINKTYPE_INFINIBAND, RW_ERR_UNSUPPORTED, RW_L_LRH, 0, "LNH raw");
	MUT(g[1] = 0x01);
	expect_err(g, n, RW_LINKTYPE_INFINIBAND, RW_ERR_UNSUPPORTED, RW_L_LRH, 0, "LNH IPv6");
	MUT(g[48] = 0xc3);
	expect_err(g, n, RW_LINKTYPE_INFINIBAND, RW_ERR_UNSUPPORTED, RW_L_BTH, 48, "IB vendor op");
#undef MUT
}

static void test_macctrl_frames(void **state)
{
	(void)state;
	uint8_t b[60];
	struct rw_packet p;
	/* PFC (802.1Qbb): dst 01-80-C2-00-00-01, 0x8808, opcode 0x0101,
	 * priority 3 enabled with 0xffff quanta; zero pad to 60 bytes. */
	memset(b, 0, sizeof(b));
	rw_hex("0180c2000001 020000000001 8808 0101 0008 0000 0000 0000 ffff 0000 0000 0000 0000", b,
	       sizeof(b));
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, 60, 60, &p), RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_PFC);
	assert_true(p.present & RW_P_MACCTRL);
	assert_int_equal(p.macctrl.opcode, RW_MACCTRL_PFC);
	assert_int_equal(p.macctrl.cev, 0x08);
	assert_int_equal(p.macctrl.quanta[3], 0xffff);
	/* PAUSE (802.3 Annex 31B): opcode 1, 0x1000 quanta. */
	memset(b, 0, sizeof(b));
	rw_hex("0180c2000001 020000000001 8808 0001 1000", b, sizeof(b));
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, 60, 60, &p), RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_PAUSE);
	assert_int_equal(p.macctrl.quanta[0], 0x1000);
	/* Cut inside the PFC body. */
	rw_hex("0180c2000001 020000000001 8808 0101 0008", b, sizeof(b));
	for (size_t cut = 14; cut < 34; cut++) {
		assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, cut, 60, &p),
				 RW_ERR_TRUNCATED);
		assert_int_equal(p.err_layer, RW_L_MACCTRL);
		assert_int_equal(p.err_offset, 14);
	}
	/* PFC behind a VLAN tag still decodes as PFC. */
	memset(b, 0, sizeof(b));
	rw_hex("0180c2000001 020000000001 8100 6000 8808 0101 0001 0010", b, sizeof(b));
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, 60, 60, &p), RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_PFC);
	assert_int_equal(p.macctrl.quanta[0], 0x10);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(rw_carrier_name(RW_CARRIER_ROCEV2), "rocev2");
	assert_string_equal(rw_carrier_name(RW_CARRIER_ROCEV1), "rocev1");
	assert_string_equal(rw_carrier_name(RW_CARRIER_IB), "ib");
	assert_string_equal(rw_carrier_name(RW_CARRIER_PFC), "pfc");
	assert_string_equal(rw_carrier_name(RW_CARRIER_PAUSE), "pause");
	assert_string_equal(rw_carrier_name(RW_CARRIER_OTHER), "other");
	assert_string_equal(rw_crc_status_name(RW_CRC_OK), "ok");
	assert_string_equal(rw_crc_status_name(RW_CRC_BAD), "bad");
	assert_string_equal(rw_crc_status_name(RW_CRC_NONE), "none");
	assert_string_equal(rw_layer_name(RW_L_BTH), "BTH");
	assert_string_equal(rw_layer_name(RW_L_IPV4), "IPv4");
	assert_string_equal(rw_layer_name(RW_L_IPV6_EXT), "IPv6 extension header");
	for (int l = RW_L_NONE; l <= RW_L_VCRC; l++) {
		assert_non_null(rw_layer_name((enum rw_layer)l));
		for (int k = RW_L_NONE; k < l; k++)
			assert_string_not_equal(rw_layer_name((enum rw_layer)l),
						rw_layer_name((enum rw_layer)k));
	}
	assert_non_null(rw_layer_name((enum rw_layer)200));
	assert_non_null(rw_carrier_name((enum rw_carrier)200));
}

/* IPoIB (RFC 4391 6): a SEND whose payload starts with the 4-byte IPoIB
 * header and then an IPv4 header, an IPv6 header or an ARP packet of
 * hardware type 32 is named by its ethertype; application data that merely
 * starts 08 00 00 00 is not. A UD SEND of 256 bytes to QP 1 is a MAD, of
 * another size not. */
static void test_ipoib_and_mad_payloads(void **state)
{
	(void)state;
	static const struct {
		const char *bth, *deth, *payload;
		uint32_t present;
		uint16_t type;
	} cases[] = {
		/* UD to the broadcast QP: IPoIB ARP (htype 0x0020) */
		{"64 00 ffff 00 ffffff 00 000001", "00000b1b 00 000048",
		 "0806 0000 0020 0800 14 04 0001", RW_P_IPOIB, 0x0806},
		/* UD IPv4 */
		{"64 00 ffff 00 000048 00 000002", "00000b1b 00 000049",
		 "0800 0000 45 00 0014 0000 4000 4001 0000 0a000001 0a000002", RW_P_IPOIB, 0x0800},
		/* RC SEND Only (connected mode): IPv6 */
		{"04 00 ffff 00 000048 00 000003", NULL,
		 "86dd 0000 60 000000 0000 3a 40", RW_P_IPOIB, 0x86DD},
		/* RC SEND Only: a little-endian 8 then data: not IPoIB */
		{"04 00 ffff 00 000048 00 000004", NULL, "08 00 00 00 01 02 03 04", 0, 0},
		/* UD to QP 1, 8 bytes: not a MAD (every MAD is 256 bytes) */
		{"64 00 ffff 00 000001 00 000005", "80010000 00 000001", "01 07 02 03 0000 0000", 0, 0},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct frame f;
		struct rw_packet p;
		fr_init(&f, RW_LINKTYPE_ETHERNET, K_V2);
		fr_put(&f, RW_L_ETH, 0, "020000000002 020000000001 0800");
		fr_put(&f, RW_L_IPV4, 0, "45 00 0000 0000 4000 40 11 0000 0a000001 0a000002");
		fr_put(&f, RW_L_UDP, 0, "c000 12b7 0000 0000");
		fr_put(&f, RW_L_BTH, 0, cases[i].bth);
		if (cases[i].deth)
			fr_put(&f, RW_L_EXT, RW_HDR_DETH, cases[i].deth);
		fr_payload(&f, cases[i].payload, 0, 0);
		fr_finish(&f);
		assert_int_equal(rw_packet_decode(NULL, f.linktype, f.b, f.len, f.len, &p), RW_OK);
		assert_int_equal(p.present & (RW_P_IPOIB | RW_P_MAD), cases[i].present);
		if (cases[i].present & RW_P_IPOIB)
			assert_int_equal(p.ipoib_type, cases[i].type);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_cnp),
		cmocka_unit_test(test_known_uc),
		cmocka_unit_test(test_vlan_qinq),
		cmocka_unit_test(test_ipv4_options),
		cmocka_unit_test(test_ext_headers),
		cmocka_unit_test(test_ipv6_ud),
		cmocka_unit_test(test_ipoib_and_mad_payloads),
		cmocka_unit_test(test_rocev1),
		cmocka_unit_test(test_ib),
		cmocka_unit_test(test_ib_grh),
		cmocka_unit_test(test_ib_erf),
		cmocka_unit_test(test_sll),
		cmocka_unit_test(test_sll2),
		cmocka_unit_test(test_erf_eth),
		cmocka_unit_test(test_malformed_unsupported),
		cmocka_unit_test(test_macctrl_frames),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
