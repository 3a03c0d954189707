/* SPDX-License-Identifier: BSD-3-Clause */
/* ipv6.h: the IPv6 fixed header of RFC 8200 section 3: Version(4)
 * Traffic Class(8) Flow Label(20), Payload Length(16), Next Header(8),
 * Hop Limit(8), Source(128), Destination(128). Traffic class split into
 * DSCP(6) and ECN(2) as RFC 2474 / RFC 3168.
 *
 * Then the extension headers of RFC 8200 section 4 (rw_ipv6_ext_decode),
 * and RoCEv2 behind them through rw_packet_decode and rw_icrc_rocev2. The
 * chains are written here in hex from the RFCs; every expected ICRC is
 * zlib's crc32 over a pseudo-packet this file lays out itself from the same
 * parts, per shared/notes/icrc.md (never rw_icrc_* nor the fixed-offset
 * reference of rw_test_util.h). */
#define RW_TEST_WANT_ZLIB
#include "rw_test_util.h"

/* 0x6b 0xbf: version 6, traffic class 0xbb = 101110 11 (DSCP 46 = EF, ECN 11
 * = CE), flow label 0xfabcd; payload length 0x0024 = 36; next header 17;
 * hop limit 64; 2001:db8::1 -> 2001:db8::2 (RFC 3849 documentation prefix). */
#define V6HDR "6bbfabcd 0024 11 40 20010db8000000000000000000000001 20010db8000000000000000000000002"

static void test_known(void **state)
{
	(void)state;
	uint8_t b[40];
	assert_int_equal(rw_hex(V6HDR, b, sizeof(b)), 40);
	struct rw_ipv6 h;
	memset(&h, 0xAA, sizeof(h));
	assert_int_equal(rw_ipv6_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.dscp, 46);
	assert_int_equal(h.ecn, RW_ECN_CE);
	assert_int_equal(h.flow_label, 0xfabcd);
	assert_int_equal(h.payload_len, 36);
	assert_int_equal(h.next_header, 17);
	assert_int_equal(h.hop_limit, 64);
	const uint8_t src[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	const uint8_t dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };
	assert_memory_equal(h.src, src, 16);
	assert_memory_equal(h.dst, dst, 16);

	/* Traffic class 0x02 (ECT(0), DSCP 0), flow label 0: 0x60 0x20 0x00 0x00.
	 * Next header 0 (hop-by-hop) decodes fine; walking it is the caller's job. */
	rw_hex("60200000 0008 00 ff fe800000000000000000000000000001 ff020000000000000000000000000001",
	       b, sizeof(b));
	assert_int_equal(rw_ipv6_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.dscp, 0);
	assert_int_equal(h.ecn, RW_ECN_ECT0);
	assert_int_equal(h.flow_label, 0);
	assert_int_equal(h.next_header, 0);
	assert_int_equal(h.hop_limit, 255);
	assert_int_equal(h.dst[0], 0xff);
}

static void test_truncated_malformed(void **state)
{
	(void)state;
	uint8_t b[40];
	rw_hex(V6HDR, b, sizeof(b));
	struct rw_ipv6 h;
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_ipv6_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
	/* RFC 8200: Version = 6. */
	for (unsigned v = 0; v < 16; v++) {
		if (v == 6)
			continue;
		b[0] = (uint8_t)(v << 4 | 0x0b);
		assert_int_equal(rw_ipv6_decode(b, sizeof(b), &h), RW_ERR_MALFORMED);
	}
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x666;
	for (int i = 0; i < 3000; i++) {
		struct rw_ipv6 a, d;
		a.dscp = (uint8_t)rw_randbits(&s, 6);
		a.ecn = (uint8_t)rw_randbits(&s, 2);
		a.flow_label = (uint32_t)rw_randbits(&s, 20);
		a.payload_len = (uint16_t)rw_rand64(&s);
		a.next_header = (uint8_t)rw_rand64(&s);
		a.hop_limit = (uint8_t)rw_rand64(&s);
		rw_randbytes(&s, a.src, 16);
		rw_randbytes(&s, a.dst, 16);
		uint8_t buf[48];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, 40);
		assert_int_equal(buf[40], 0x5A);
		/* RFC 8200 layout of the first word. */
		assert_int_equal(rw_get_be32(buf),
				 6u << 28 | (uint32_t)(a.dscp << 2 | a.ecn) << 20 | a.flow_label);
		assert_int_equal(rw_get_be16(buf + 4), a.payload_len);
		assert_int_equal(buf[6], a.next_header);
		assert_int_equal(buf[7], a.hop_limit);
		assert_memory_equal(buf + 8, a.src, 16);
		assert_memory_equal(buf + 24, a.dst, 16);
		assert_int_equal(rw_ipv6_decode(buf, w, &d), RW_OK);
		assert_int_equal(d.dscp, a.dscp);
		assert_int_equal(d.ecn, a.ecn);
		assert_int_equal(d.flow_label, a.flow_label);
		assert_int_equal(d.payload_len, a.payload_len);
		assert_int_equal(d.next_header, a.next_header);
		assert_int_equal(d.hop_limit, a.hop_limit);
		assert_memory_equal(d.src, a.src, 16);
		assert_memory_equal(d.dst, a.dst, 16);
		for (size_t cap = 0; cap < 40; cap++)
			assert_int_equal(rw_ipv6_encode(&a, buf, cap, &w), RW_ERR_NOSPACE);
	}
}

static void test_invalid(void **state)
{
	(void)state;
	struct rw_ipv6 a;
	memset(&a, 0, sizeof(a));
	uint8_t buf[40];
	size_t w;
	a.dscp = 63;
	a.ecn = 3;
	a.flow_label = 0xFFFFF;
	assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_OK);
	a.dscp = 64;
	assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.dscp = 0;
	a.ecn = 4;
	assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.ecn = 0;
	a.flow_label = 0x100000;
	assert_int_equal(rw_ipv6_encode(&a, buf, sizeof(buf), &w), RW_ERR_INVALID);
}

/* ---- extension headers: the walk ------------------------------------- */

/* RFC 2711 Router Alert (option 5, length 2, value 0: MLD) and a PadN of no
 * data (option 1, length 0): the 8-byte Hop-by-Hop header every Linux MLD
 * report carries; next header 58 (ICMPv6). */
#define HBH_MLD "3a 00 05 02 0000 01 00"
/* The same before UDP (17). */
#define HBH_UDP "11 00 05 02 0000 01 00"
/* RFC 6275 6.4: a type 2 Routing header (Hdr Ext Len 2: 24 bytes, Segments
 * Left 1, reserved, a home address). */
#define RT_UDP "11 02 02 01 00000000 20010db8000000000000000000000099"
/* Destination Options, Hdr Ext Len 1 (16 bytes): PadN with 12 bytes. */
#define DST_UDP "11 01 01 0c 000000000000000000000000"
/* RFC 8200 4.5 / RFC 6946: an atomic fragment, offset 0 and M 0. */
#define FRAG_ATOMIC_UDP "11 00 0000 12345678"
/* A chain: Hop-by-Hop -> Destination Options (PadN of 4) -> Routing ->
 * atomic Fragment -> UDP; 8 + 8 + 24 + 8 bytes. */
#define CHAIN_UDP                                                                                  \
	"3c 00 05 02 0000 01 00"                                                                   \
	"2b 00 01 04 00000000"                                                                     \
	"2c 02 02 01 00000000 20010db8000000000000000000000099"                                   \
	"11 00 0000 abcdef01"
static const uint8_t chain_type[4] = { 0, 60, 43, 44 };
static const size_t chain_start[4] = { 0, 8, 16, 40 }, chain_len[4] = { 8, 8, 24, 8 };

/* An exact-size heap copy: a read past its end is one the sanitizer build
 * reports. */
static uint8_t *dup_exact(const uint8_t *b, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);
	assert_non_null(c);
	if (n)
		memcpy(c, b, n);
	return c;
}

static enum rw_err walk_n(const uint8_t *b, size_t n, uint8_t nh, struct rw_ipv6_ext *x)
{
	uint8_t *c = dup_exact(b, n);
	memset(x, 0xA5, sizeof(*x));
	enum rw_err e = rw_ipv6_ext_decode(c, n, nh, x);
	free(c);
	return e;
}

static enum rw_err walk(const char *hex, uint8_t nh, struct rw_ipv6_ext *x)
{
	uint8_t b[4096];
	return walk_n(b, rw_hex(hex, b, sizeof(b)), nh, x);
}

static void test_ext_walk_known(void **state)
{
	(void)state;
	struct rw_ipv6_ext x;
	static const struct {
		uint8_t nh;
		const char *hex;
		unsigned len;
		uint8_t proto;
	} one[] = {
		{ 0, HBH_MLD, 8, 58 },  { 0, HBH_UDP, 8, 17 },      { 43, RT_UDP, 24, 17 },
		{ 60, DST_UDP, 16, 17 }, { 44, FRAG_ATOMIC_UDP, 8, 17 },
		/* RFC 8200 4.5: the two reserved bits (Res) are ignored on receipt */
		{ 44, "11 00 0006 12345678", 8, 17 },
	};
	for (size_t i = 0; i < RW_ARRAY_LEN(one); i++) {
		assert_int_equal(walk(one[i].hex, one[i].nh, &x), RW_OK);
		assert_int_equal(x.n, 1);
		assert_int_equal(x.type[0], one[i].nh);
		assert_int_equal(x.hlen[0], one[i].len);
		assert_int_equal(x.len, one[i].len);
		assert_int_equal(x.proto, one[i].proto);
	}
	assert_int_equal(walk(CHAIN_UDP, 0, &x), RW_OK);
	assert_int_equal(x.n, 4);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(x.type[i], chain_type[i]);
		assert_int_equal(x.hlen[i], chain_len[i]);
	}
	assert_int_equal(x.len, 48);
	assert_int_equal(x.proto, 17);
	/* The other types of RFC 6564's uniform format (Mobility, HIP, Shim6,
	 * experimental): Hdr Ext Len counts 8-byte units after the first 8. */
	static const uint8_t uniform[] = { 135, 139, 140, 253, 254 };
	for (size_t i = 0; i < RW_ARRAY_LEN(uniform); i++) {
		assert_int_equal(walk("06 00 000000000000", uniform[i], &x), RW_OK);
		assert_int_equal(x.n, 1);
		assert_int_equal(x.len, 8);
		assert_int_equal(x.proto, 6);
		assert_int_equal(walk("11 03 0000 00000000" "0000000000000000" "0000000000000000"
				      "0000000000000000", uniform[i], &x), RW_OK);
		assert_int_equal(x.hlen[0], 32);
		assert_int_equal(x.len, 32);
		assert_non_null(rw_ipv6_ext_name(uniform[i]));
	}
	assert_string_equal(rw_ipv6_ext_name(0), "hop-by-hop");
	assert_string_equal(rw_ipv6_ext_name(43), "routing");
	assert_string_equal(rw_ipv6_ext_name(44), "fragment");
	assert_string_equal(rw_ipv6_ext_name(60), "destination-options");
	assert_null(rw_ipv6_ext_name(17));
	assert_null(rw_ipv6_ext_name(58));
}

/* Where the walk stops without an error: an upper layer, ESP, AH, No Next
 * Header, a real fragment. None of them is read. */
static void test_ext_walk_ends(void **state)
{
	(void)state;
	struct rw_ipv6_ext x;
	static const uint8_t stop[] = { 17, 6, 58, 50, 51, 59, 41 };
	for (size_t i = 0; i < RW_ARRAY_LEN(stop); i++) {
		assert_int_equal(walk_n(NULL, 0, stop[i], &x), RW_OK);
		assert_int_equal(x.n, 0);
		assert_int_equal(x.len, 0);
		assert_int_equal(x.proto, stop[i]);
		/* behind a Hop-by-Hop header */
		char hex[64];
		snprintf(hex, sizeof(hex), "%02x 00 05 02 0000 01 00", stop[i]);
		assert_int_equal(walk(hex, 0, &x), RW_OK);
		assert_int_equal(x.n, 1);
		assert_int_equal(x.len, 8);
		assert_int_equal(x.proto, stop[i]);
	}
	/* RFC 8200 4.5: Fragment Offset (13 bits), Res (2), M (1). A first
	 * fragment (offset 0, M 1), a middle one, a last one (M 0): the walk
	 * ends at the Fragment header, not walked, proto 44. */
	static const char *const real[] = { "11 00 0001 12345678", "11 00 05c9 12345678",
					    "11 00 fff8 12345678" };
	for (size_t i = 0; i < RW_ARRAY_LEN(real); i++) {
		assert_int_equal(walk(real[i], 44, &x), RW_OK);
		assert_int_equal(x.n, 0);
		assert_int_equal(x.len, 0);
		assert_int_equal(x.proto, 44);
	}
	assert_int_equal(walk("2c 00 05 02 0000 01 00" "11 00 0001 12345678", 0, &x), RW_OK);
	assert_int_equal(x.n, 1);
	assert_int_equal(x.len, 8);
	assert_int_equal(x.proto, 44);
}

/* Bounds: every cut of a chain, lengths far past the buffer, too many
 * headers, Hop-by-Hop not first. */
static void test_ext_walk_bounds(void **state)
{
	(void)state;
	struct rw_ipv6_ext x;
	uint8_t b[4096];
	size_t n = rw_hex(CHAIN_UDP, b, sizeof(b));
	assert_int_equal(n, 48);
	for (size_t cut = 0; cut < n; cut++) {
		unsigned h = 0;
		while (!(cut < chain_start[h] + chain_len[h]))
			h++;
		/* fewer than the 2 bytes holding Hdr Ext Len: those 2 are
		 * needed; the Fragment header is 8 bytes whatever they say */
		size_t need = chain_type[h] != 44 && cut - chain_start[h] < 2 ? 2 : chain_len[h];
		if (walk_n(b, cut, 0, &x) != RW_ERR_TRUNCATED)
			fail_msg("chain cut to %zu bytes: not TRUNCATED", cut);
		if (x.len != chain_start[h] || x.need != need || x.proto != chain_type[h] || x.n != h)
			fail_msg("chain cut to %zu: at %u need %u type %u n %u; expected %zu %zu %u %u",
				 cut, x.len, x.need, x.proto, x.n, chain_start[h], need, chain_type[h],
				 h);
	}
	/* Hdr Ext Len 255: 2048 bytes, in 16. */
	assert_int_equal(walk("11 ff 05 02 0000 01 00 0000000000000000", 0, &x), RW_ERR_TRUNCATED);
	assert_int_equal(x.len, 0);
	assert_int_equal(x.need, 2048);
	assert_int_equal(walk("3c 00 05 02 0000 01 00 11 ff 00000000000000", 0, &x),
			 RW_ERR_TRUNCATED);
	assert_int_equal(x.len, 8);
	assert_int_equal(x.need, 2048);
	assert_int_equal(x.proto, 60);

	/* RW_IPV6_EXT_MAX (8) Destination Options headers are walked; a 9th
	 * is MALFORMED where it starts. */
	char hex[1024] = "";
	for (int i = 0; i < 9; i++)
		strcat(hex, i < 7 ? "3c 00 01 04 00000000 " : "11 00 01 04 00000000 ");
	n = rw_hex(hex, b, sizeof(b));
	assert_int_equal(n, 72);
	assert_int_equal(walk_n(b, 64, 60, &x), RW_OK);
	assert_int_equal(x.n, 8);
	assert_int_equal(x.len, 64);
	assert_int_equal(x.proto, 17);
	b[56] = 60; /* the 8th leads to a 9th */
	assert_int_equal(walk_n(b, 72, 60, &x), RW_ERR_MALFORMED);
	assert_int_equal(x.n, 8);
	assert_int_equal(x.len, 64);
	assert_int_equal(x.proto, 60);

	/* RFC 8200 4.3: Hop-by-Hop only right after the fixed header. */
	assert_int_equal(walk("00 00 01 04 00000000" HBH_UDP, 60, &x), RW_ERR_MALFORMED);
	assert_int_equal(x.n, 1);
	assert_int_equal(x.len, 8);
	assert_int_equal(x.proto, 0);
}

/* ---- RoCEv2 behind them: frames laid out here --------------------------- */

struct v6f {
	uint8_t b[4096];
	size_t len;    /* through the ICRC */
	size_t ext;    /* bytes of extension headers */
	uint32_t icrc; /* the expected ICRC, computed below */
	size_t pay;    /* payload bytes laid out; 0 for "hello, world!" */
};

static size_t put_hex(uint8_t *b, size_t off, const char *hex)
{
	return off + rw_hex(hex, b + off, 4096 - off);
}

/* The ICRC of shared/notes/icrc.md computed from the parts as laid out:
 * 8 bytes of 0xFF; the IPv6 header with traffic class, flow label and hop
 * limit set to ones; the extension headers as they are; UDP with its
 * checksum set to ones; the BTH with byte 4 set to ones; the rest (payload
 * and pad). zlib's crc32: initial value all ones, result inverted. */
static uint32_t ref_icrc(const uint8_t *ip6, const uint8_t *ext, size_t ext_len, const uint8_t *udp,
			 const uint8_t *bth, const uint8_t *rest, size_t rest_len)
{
	static uint8_t q[8192];
	size_t n = 0;
	memset(q, 0xFF, 8);
	n = 8;
	memcpy(q + n, ip6, 40);
	q[n + 0] |= 0x0F;                        /* traffic class, high nibble */
	q[n + 1] = q[n + 2] = q[n + 3] = 0xFF;   /* its low nibble, flow label */
	q[n + 7] = 0xFF;                         /* hop limit */
	n += 40;
	memcpy(q + n, ext, ext_len);
	n += ext_len;
	memcpy(q + n, udp, 8);
	q[n + 6] = q[n + 7] = 0xFF;              /* UDP checksum */
	n += 8;
	memcpy(q + n, bth, 12);
	q[n + 4] = 0xFF;                         /* FECN, BECN, resv6 */
	n += 12;
	memcpy(q + n, rest, rest_len);
	n += rest_len;
	return (uint32_t)crc32(0L, q, (uInt)n);
}

/* Ethernet / IPv6 (next header nh) / the extension headers ext_hex / UDP
 * 49374 -> 4791 (checksum 0x1234, which the ICRC masks) / BTH of RC SEND
 * Only (PadCnt 3, P_Key 0xffff, dest QP 0x11, AckReq, PSN 1) / "hello,
 * world!" / 3 pad bytes / the ICRC, least-significant byte first. */
static void v6_roce_pay(struct v6f *f, uint8_t nh, const char *ext_hex, size_t pay);

static void v6_roce(struct v6f *f, uint8_t nh, const char *ext_hex)
{
	v6_roce_pay(f, nh, ext_hex, 0);
}

/* The same with pay bytes of payload (0: "hello, world!"), padded. */
static void v6_roce_pay(struct v6f *f, uint8_t nh, const char *ext_hex, size_t pay)
{
	uint8_t *b = f->b;
	size_t o = put_hex(b, 0, "020000000002 020000000001 86dd");
	size_t ip = o;
	o = put_hex(b, o, "6b8abcde 0000 00 40 fe800000000000000000000000000001"
			  "fe800000000000000000000000000002");
	b[ip + 6] = nh;
	size_t ext = o;
	o = put_hex(b, o, ext_hex);
	f->ext = o - ext;
	size_t udp = o;
	o = put_hex(b, o, "c0de 12b7 0000 1234");
	size_t bth = o;
	o = put_hex(b, o, "04 30 ffff 00 000011 80 000001");
	size_t rest = o;
	f->pay = pay;
	if (!pay) {
		o = put_hex(b, o, "68656c6c6f2c20776f726c6421 000000");
	} else {
		for (size_t i = 0; i < pay; i++)
			b[o++] = (uint8_t)(i * 7 + 1);
		size_t pad = (4 - pay % 4) % 4;
		memset(b + o, 0, pad);
		o += pad;
		b[bth + 1] = (uint8_t)(pad << 4); /* IBA 9.2: PadCnt */
	}
	size_t udp_len = o + 4 - udp;
	/* RFC 8200 3: Payload Length counts the extension headers; RFC 768 */
	b[ip + 4] = (uint8_t)((o + 4 - ip - 40) >> 8);
	b[ip + 5] = (uint8_t)(o + 4 - ip - 40);
	b[udp + 4] = (uint8_t)(udp_len >> 8);
	b[udp + 5] = (uint8_t)udp_len;
	f->icrc = ref_icrc(b + ip, b + ext, f->ext, b + udp, b + bth, b + rest, o - rest);
	b[o + 0] = (uint8_t)f->icrc;
	b[o + 1] = (uint8_t)(f->icrc >> 8);
	b[o + 2] = (uint8_t)(f->icrc >> 16);
	b[o + 3] = (uint8_t)(f->icrc >> 24);
	f->len = o + 4;
}

/* An MLDv2 report (RFC 3810 5.2: type 143, one record) from fe80::1 to
 * ff02::16, hop limit 1, behind the extension headers ext_hex. */
static size_t v6_mld(uint8_t *b, uint8_t nh, const char *ext_hex)
{
	size_t o = put_hex(b, 0, "333300000016 020000000001 86dd");
	size_t ip = o;
	o = put_hex(b, o, "60000000 0000 00 01 fe800000000000000000000000000001"
			  "ff020000000000000000000000000016");
	b[ip + 6] = nh;
	o = put_hex(b, o, ext_hex);
	o = put_hex(b, o, "8f 00 0000 0000 0001 04 00 0000 ff02000000000000000000000000000c");
	b[ip + 4] = (uint8_t)((o - ip - 40) >> 8);
	b[ip + 5] = (uint8_t)(o - ip - 40);
	return o;
}

static enum rw_err decode(const uint8_t *b, size_t caplen, size_t wirelen, struct rw_packet *p)
{
	uint8_t *c = dup_exact(b, caplen);
	memset(p, 0xA5, sizeof(*p));
	enum rw_err e = rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, c, caplen, wirelen, p);
	free(c);
	return e;
}

static void expect_roce(const struct v6f *f, const uint8_t *types, unsigned n)
{
	struct rw_packet p;
	assert_int_equal(decode(f->b, f->len, f->len, &p), RW_OK);
	assert_int_equal(p.err, RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_ROCEV2);
	assert_int_equal(p.ipv6_ext.n, n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(p.ipv6_ext.type[i], types[i]);
	assert_int_equal(p.ipv6_ext.len, f->ext);
	assert_int_equal(p.ipv6_ext.proto, 17);
	assert_int_equal(p.l3_off, 14);
	assert_int_equal(p.l4_off, 14 + 40 + f->ext);
	assert_int_equal(p.bth_off, 14 + 40 + f->ext + 8);
	assert_int_equal(p.udp.sport, 0xc0de);
	assert_int_equal(p.udp.checksum, 0x1234);
	assert_int_equal(p.bth.opcode, 0x04);
	assert_int_equal(p.bth.dqpn, 0x11);
	assert_int_equal(p.bth.psn, 1);
	/* (p.payload pointed into decode()'s copy, freed: read the frame) */
	assert_int_equal(p.payload_off, 14 + 40 + f->ext + 8 + 12);
	if (!f->pay) {
		assert_int_equal(p.payload_len, 13);
		assert_memory_equal(f->b + p.payload_off, "hello, world!", 13);
	} else {
		assert_int_equal(p.payload_len, f->pay);
		for (size_t i = 0; i < f->pay; i++)
			assert_int_equal(f->b[p.payload_off + i], (uint8_t)(i * 7 + 1));
	}
	assert_int_equal(p.icrc_start, 14);
	assert_int_equal(p.icrc_wire, f->icrc);
	assert_int_equal(p.icrc_computed, f->icrc);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	assert_int_equal(rw_icrc_rocev2(f->b + 14, f->len - 14 - 4), f->icrc);
}

/* Each extension header, and a chain, before UDP 4791: RoCEv2 decodes
 * from the right offset and its ICRC verifies. */
static void test_ext_roce(void **state)
{
	(void)state;
	static struct v6f f;
	static const uint8_t t0[] = { 0 }, t43[] = { 43 }, t60[] = { 60 }, t44[] = { 44 },
			     t253[] = { 253 };
	v6_roce(&f, 0, HBH_UDP);
	expect_roce(&f, t0, 1);
	v6_roce(&f, 43, RT_UDP);
	expect_roce(&f, t43, 1);
	v6_roce(&f, 60, DST_UDP);
	expect_roce(&f, t60, 1);
	v6_roce(&f, 44, FRAG_ATOMIC_UDP);
	expect_roce(&f, t44, 1);
	v6_roce(&f, 253, "11 00 000000000000");
	expect_roce(&f, t253, 1);
	v6_roce(&f, 0, CHAIN_UDP);
	expect_roce(&f, chain_type, 4);
	/* plain IPv6 still, through the same layout */
	v6_roce(&f, 17, "");
	expect_roce(&f, NULL, 0);
	/* rests longer and shorter than icrc.c copies with the headers */
	for (size_t pay = 1; pay < 1200; pay += pay < 300 ? 1 : 97) {
		v6_roce_pay(&f, 0, CHAIN_UDP, pay);
		expect_roce(&f, chain_type, 4);
		v6_roce_pay(&f, 43, RT_UDP, pay);
		expect_roce(&f, t43, 1);
	}

	/* Eight Destination Options headers (the most walked), 8 bytes each. */
	char hex[512] = "";
	for (int i = 0; i < 8; i++)
		strcat(hex, i < 7 ? "3c 00 01 04 00000000 " : "11 00 01 04 00000000 ");
	static const uint8_t t8[8] = { 60, 60, 60, 60, 60, 60, 60, 60 };
	v6_roce(&f, 60, hex);
	expect_roce(&f, t8, 8);

	/* Covered unmasked: a changed byte of an extension header, or of
	 * Payload Length, changes the ICRC; traffic class, flow label, hop
	 * limit (masked) do not. */
	v6_roce(&f, 0, CHAIN_UDP);
	struct rw_packet p;
	for (size_t i = 54; i < 54 + 48; i++) {
		if (i == 54 || i == 55 || i == 62 || i == 63 || i == 70 || i == 71 ||
		    i == 94 || i == 96 || i == 97)
			continue; /* next header, lengths, fragment offset: other layouts */
		uint8_t c[4096];
		memcpy(c, f.b, f.len);
		c[i] ^= 0x20;
		assert_int_equal(decode(c, f.len, f.len, &p), RW_OK);
		assert_int_equal(p.carrier, RW_CARRIER_ROCEV2);
		if (p.icrc_status != RW_CRC_BAD)
			fail_msg("extension header byte %zu changed, ICRC still verifies", i);
		assert_int_not_equal(rw_icrc_rocev2(c + 14, f.len - 18), f.icrc);
	}
	static const size_t variant[] = { 14 + 0, 14 + 1, 14 + 2, 14 + 3, 14 + 7 };
	for (size_t i = 0; i < RW_ARRAY_LEN(variant); i++) {
		uint8_t c[4096];
		memcpy(c, f.b, f.len);
		c[variant[i]] ^= variant[i] == 14 ? 0x0f : 0xa5;
		assert_int_equal(decode(c, f.len, f.len, &p), RW_OK);
		assert_int_equal(p.icrc_status, RW_CRC_OK);
	}
	/* Payload Length one word longer, the frame too (Ethernet padding):
	 * the UDP length still bounds RoCE, but the IPv6 header changed. */
	{
		uint8_t c[4096];
		memcpy(c, f.b, f.len);
		memset(c + f.len, 0, 4);
		c[19] = (uint8_t)(c[19] + 4);
		assert_int_equal(decode(c, f.len + 4, f.len + 4, &p), RW_OK);
		assert_int_equal(p.carrier, RW_CARRIER_ROCEV2);
		assert_int_equal(p.icrc_status, RW_CRC_BAD);
	}
}

/* MLD reports and other ICMPv6 behind extension headers: "other", no error. */
static void test_ext_other(void **state)
{
	(void)state;
	static const struct {
		uint8_t nh;
		const char *ext;
		unsigned n;
	} c[] = {
		{ 0, HBH_MLD, 1 },
		{ 43, "3a 02 02 01 00000000 20010db8000000000000000000000099", 1 },
		{ 60, "3a 01 01 0c 000000000000000000000000", 1 },
		{ 44, "3a 00 0000 12345678", 1 },
		{ 0, "3c 00 05 02 0000 01 00" "2b 00 01 04 00000000"
		     "2c 02 02 01 00000000 20010db8000000000000000000000099" "3a 00 0000 abcdef01", 4 },
		{ 58, "", 0 },
	};
	for (size_t i = 0; i < RW_ARRAY_LEN(c); i++) {
		uint8_t b[512];
		size_t n = v6_mld(b, c[i].nh, c[i].ext);
		struct rw_packet p;
		assert_int_equal(decode(b, n, n, &p), RW_OK);
		assert_int_equal(p.err, RW_OK);
		assert_int_equal(p.carrier, RW_CARRIER_OTHER);
		assert_true(p.present & RW_P_IPV6);
		assert_false(p.present & (RW_P_UDP | RW_P_BTH));
		assert_int_equal(p.ipv6_ext.n, c[i].n);
		if (c[i].n)
			assert_int_equal(p.ipv6_ext.proto, 58);
		assert_int_equal(p.icrc_status, RW_CRC_NONE);
	}
}

/* UDP 4791 with a BTH behind a real fragment, ESP, AH or No Next Header:
 * not walked to, so "other" with no error. */
static void test_ext_roce_not_reached(void **state)
{
	(void)state;
	static struct v6f f;
	struct rw_packet p;
	static const struct {
		uint8_t nh;
		const char *ext;
	} c[] = {
		{ 44, "11 00 0001 12345678" },  /* first fragment */
		{ 44, "11 00 05c8 12345678" },  /* last fragment, offset 185 */
		{ 0, "2c 00 05 02 0000 01 00" "11 00 0009 12345678" },
		{ 51, "" }, { 50, "" }, { 59, "" },
		/* RFC 4302 2.2: AH, Payload Len 4 ((4 + 2) * 4 = 24 bytes) */
		{ 51, "11 04 0000 00000100 00000001 000000000000000000000000" },
		{ 0, "33 00 05 02 0000 01 00" "11 04 0000 00000100 00000001 000000000000000000000000" },
	};
	for (size_t i = 0; i < RW_ARRAY_LEN(c); i++) {
		v6_roce(&f, c[i].nh, c[i].ext);
		assert_int_equal(decode(f.b, f.len, f.len, &p), RW_OK);
		assert_int_equal(p.err, RW_OK);
		assert_int_equal(p.carrier, RW_CARRIER_OTHER);
		assert_false(p.present & (RW_P_UDP | RW_P_BTH));
		assert_int_equal(p.ipv6_ext.proto, c[i].nh == 0 ? (i == 2 ? 44 : 51) : c[i].nh);
	}
}

/* A chain longer than the payload length is MALFORMED, one the capture cut
 * TRUNCATED, both at the extension header that does not fit. */
static void test_ext_packet_bounds(void **state)
{
	(void)state;
	static struct v6f f;
	struct rw_packet p;
	char msg[256];

	/* Payload Length 4: the Hop-by-Hop header (8 bytes) runs past it. */
	v6_roce(&f, 0, HBH_UDP);
	f.b[18] = 0;
	f.b[19] = 4;
	assert_int_equal(decode(f.b, f.len, f.len, &p), RW_ERR_MALFORMED);
	assert_int_equal(p.err_layer, RW_L_IPV6_EXT);
	assert_int_equal(p.err_offset, 54);
	assert_int_equal(p.err_need, 8);
	assert_int_equal(p.carrier, RW_CARRIER_OTHER);
	rw_packet_error(&p, msg, sizeof(msg));
	assert_non_null(strstr(msg, "IPv6 hop-by-hop header malformed at byte 54"));

	/* Payload Length 20 in the chain: Hop-by-Hop and Destination Options
	 * fit, the Routing header at 70 (24 bytes) does not. */
	v6_roce(&f, 0, CHAIN_UDP);
	f.b[18] = 0;
	f.b[19] = 20;
	assert_int_equal(decode(f.b, f.len, f.len, &p), RW_ERR_MALFORMED);
	assert_int_equal(p.err_layer, RW_L_IPV6_EXT);
	assert_int_equal(p.err_offset, 70);
	assert_int_equal(p.err_need, 24);
	assert_int_equal(p.ipv6_ext.proto, 43);

	/* Hdr Ext Len 255 (2048 bytes) in a frame of a hundred. */
	v6_roce(&f, 0, "11 ff 05 02 0000 01 00");
	assert_int_equal(decode(f.b, f.len, f.len, &p), RW_ERR_MALFORMED);
	assert_int_equal(p.err_offset, 54);
	assert_int_equal(p.err_need, 2048);

	/* Cut by the snapshot length inside each header of the chain. */
	v6_roce(&f, 0, CHAIN_UDP);
	for (size_t cut = 54; cut < 54 + 48; cut++) {
		unsigned h = 0;
		while (!(cut - 54 < chain_start[h] + chain_len[h]))
			h++;
		assert_int_equal(decode(f.b, cut, f.len, &p), RW_ERR_TRUNCATED);
		if (p.err_layer != RW_L_IPV6_EXT || p.err_offset != 54 + chain_start[h])
			fail_msg("cut at %zu: %s at %u", cut, rw_layer_name(p.err_layer), p.err_offset);
	}
	assert_int_equal(decode(f.b, 54 + 16 + 3, f.len, &p), RW_ERR_TRUNCATED);
	rw_packet_error(&p, msg, sizeof(msg));
	assert_non_null(strstr(msg, "IPv6 routing header truncated at byte 70: 24 bytes needed"));

	/* Nine Destination Options headers; Hop-by-Hop not first. */
	char hex[512] = "";
	for (int i = 0; i < 9; i++)
		strcat(hex, i < 8 ? "3c 00 01 04 00000000 " : "11 00 01 04 00000000 ");
	v6_roce(&f, 60, hex);
	assert_int_equal(decode(f.b, f.len, f.len, &p), RW_ERR_MALFORMED);
	assert_int_equal(p.err_layer, RW_L_IPV6_EXT);
	assert_int_equal(p.err_offset, 54 + 64);
	v6_roce(&f, 60, "00 00 01 04 00000000" HBH_UDP);
	assert_int_equal(decode(f.b, f.len, f.len, &p), RW_ERR_MALFORMED);
	assert_int_equal(p.err_offset, 62);
	rw_packet_error(&p, msg, sizeof(msg));
	assert_non_null(strstr(msg, "RFC 8200 4.3"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_truncated_malformed),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_ext_walk_known),
		cmocka_unit_test(test_ext_walk_ends),
		cmocka_unit_test(test_ext_walk_bounds),
		cmocka_unit_test(test_ext_roce),
		cmocka_unit_test(test_ext_other),
		cmocka_unit_test(test_ext_roce_not_reached),
		cmocka_unit_test(test_ext_packet_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
