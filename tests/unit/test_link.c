/* SPDX-License-Identifier: BSD-3-Clause */
/* link.h: capture framings.
 *   LINKTYPE_LINUX_SLL (tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html):
 *     packet type(16) ARPHRD type(16) address length(16) address(8 bytes)
 *     protocol(16) -- 16 bytes, big-endian.
 *   LINKTYPE_LINUX_SLL2 (.../LINKTYPE_LINUX_SLL2.html): protocol(16)
 *     reserved(16, MBZ) interface index(32) ARPHRD type(16) packet type(8)
 *     address length(8) address(8 bytes) -- 20 bytes.
 *   ERF (Endace "Extensible Record Format", EDM11-01; libpcap
 *     pcap/erf.h, Wireshark erf.c): timestamp(64, little-endian: seconds in
 *     the high 32 bits, binary fraction in the low 32), type(8; bit 7 = an
 *     extension header follows), flags(8), rlen(16), lctr/colour(16),
 *     wlen(16), all big-endian except the timestamp; then 8-byte extension
 *     headers (bit 7 of each one's first byte = another follows); Ethernet
 *     record types then carry a 2-byte pad (offset, reserved) before the
 *     frame. Type 2 = ETH, 21 = INFINIBAND. */
#include "rw_test_util.h"

static void test_sll_known(void **state)
{
	(void)state;
	/* Outgoing (4) on an Ethernet device (ARPHRD_ETHER 1), 6-byte address
	 * 02:42:ac:11:00:02, two unused address bytes, then IPv4. */
	uint8_t b[16];
	rw_hex("0004 0001 0006 0242ac1100020000 0800", b, sizeof(b));
	struct rw_sll h;
	memset(&h, 0xAA, sizeof(h));
	assert_int_equal(rw_sll_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.pkttype, 4);
	assert_int_equal(h.hatype, 1);
	assert_int_equal(h.addr_len, 6);
	const uint8_t addr[6] = { 0x02, 0x42, 0xac, 0x11, 0x00, 0x02 };
	assert_memory_equal(h.addr, addr, 6);
	assert_int_equal(h.protocol, 0x0800);
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_sll_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
	/* Encode back the same bytes. */
	assert_int_equal(rw_sll_decode(b, sizeof(b), &h), RW_OK);
	uint8_t o[18];
	memset(o, 0x5A, sizeof(o));
	size_t w = 0;
	assert_int_equal(rw_sll_encode(&h, o, sizeof(o), &w), RW_OK);
	assert_int_equal(w, RW_SLL_LEN);
	assert_memory_equal(o, b, 16);
	assert_int_equal(o[16], 0x5A);
	for (size_t cap = 0; cap < RW_SLL_LEN; cap++)
		assert_int_equal(rw_sll_encode(&h, o, cap, &w), RW_ERR_NOSPACE);
}

static void test_sll2_known(void **state)
{
	(void)state;
	/* IPv6, interface index 3, ARPHRD_ETHER, packet type 0 (to us),
	 * address b8:ce:f6:a1:b2:c3. */
	uint8_t b[20];
	rw_hex("86dd 0000 00000003 0001 00 06 b8cef6a1b2c30000", b, sizeof(b));
	struct rw_sll h;
	memset(&h, 0xAA, sizeof(h));
	assert_int_equal(rw_sll2_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.protocol, 0x86dd);
	assert_int_equal(h.ifindex, 3);
	assert_int_equal(h.hatype, 1);
	assert_int_equal(h.pkttype, 0);
	assert_int_equal(h.addr_len, 6);
	const uint8_t addr[6] = { 0xb8, 0xce, 0xf6, 0xa1, 0xb2, 0xc3 };
	assert_memory_equal(h.addr, addr, 6);
	/* A different one: packet type 4 (outgoing), ifindex 0x01020304. */
	rw_hex("0800 0000 01020304 0001 04 06 0000000000010000", b, sizeof(b));
	assert_int_equal(rw_sll2_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.protocol, 0x0800);
	assert_int_equal(h.ifindex, 0x01020304);
	assert_int_equal(h.pkttype, 4);
	assert_int_equal(h.addr[5], 1);
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_sll2_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
	uint8_t o[22];
	memset(o, 0x5A, sizeof(o));
	size_t w = 0;
	assert_int_equal(rw_sll2_encode(&h, o, sizeof(o), &w), RW_OK);
	assert_int_equal(w, RW_SLL2_LEN);
	assert_memory_equal(o, b, 20);
	assert_int_equal(o[20], 0x5A);
	for (size_t cap = 0; cap < RW_SLL2_LEN; cap++)
		assert_int_equal(rw_sll2_encode(&h, o, cap, &w), RW_ERR_NOSPACE);
}

static void test_sll_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x511;
	for (int i = 0; i < 2000; i++) {
		struct rw_sll a, d;
		memset(&a, 0, sizeof(a));
		a.pkttype = (uint16_t)rw_randbits(&s, 3);
		a.hatype = (uint16_t)rw_rand64(&s);
		a.addr_len = (uint16_t)rw_randbits(&s, 3);
		rw_randbytes(&s, a.addr, 8);
		a.protocol = (uint16_t)rw_rand64(&s);
		a.ifindex = (uint32_t)rw_rand64(&s);
		uint8_t o[24];
		size_t w;
		int two = (int)rw_randbits(&s, 1);
		if (two) {
			assert_int_equal(rw_sll2_encode(&a, o, sizeof(o), &w), RW_OK);
			assert_int_equal(w, 20);
			assert_int_equal(rw_sll2_decode(o, w, &d), RW_OK);
			assert_int_equal(d.ifindex, a.ifindex);
		} else {
			assert_int_equal(rw_sll_encode(&a, o, sizeof(o), &w), RW_OK);
			assert_int_equal(w, 16);
			assert_int_equal(rw_sll_decode(o, w, &d), RW_OK);
		}
		assert_int_equal(d.pkttype, a.pkttype);
		assert_int_equal(d.hatype, a.hatype);
		assert_int_equal(d.addr_len, a.addr_len);
		assert_memory_equal(d.addr, a.addr, 8);
		assert_int_equal(d.protocol, a.protocol);
	}
}

static void test_erf_known_ib(void **state)
{
	(void)state;
	/* Timestamp 0x651c9b5d.80000000 stored little-endian (0.5 s after
	 * 1696373597), type 21 INFINIBAND, flags 0x04 (varying-length record),
	 * rlen 48, lctr 0, wlen 32; an IB record has no pad. */
	uint8_t b[48];
	memset(b, 0, sizeof(b));
	rw_hex("000000805d9b1c65 15 04 0030 0000 0020", b, 16);
	struct rw_erf h;
	memset(&h, 0xAA, sizeof(h));
	assert_int_equal(rw_erf_decode(b, sizeof(b), &h), RW_OK);
	assert_true(h.ts == 0x651c9b5d80000000ULL);
	assert_int_equal(h.type, RW_ERF_TYPE_INFINIBAND);
	assert_int_equal(h.flags, 0x04);
	assert_int_equal(h.rlen, 48);
	assert_int_equal(h.lctr, 0);
	assert_int_equal(h.wlen, 32);
	assert_int_equal(h.n_ext, 0);
	assert_int_equal(h.hlen, 16);
	for (size_t l = 0; l < 16; l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_erf_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
}

static void test_erf_known_eth_ext(void **state)
{
	(void)state;
	/* Type 0x82: ETH (2) with the extension bit; lctr 0x0102; two extension
	 * headers, the first with its "more" bit (0x81...), the second without
	 * (0x02...); then the 2-byte Ethernet pad: 16 + 16 + 2 = 34 bytes. */
	uint8_t b[34 + 60];
	memset(b, 0, sizeof(b));
	rw_hex("0100000000000000 82 00 005e 0102 003c"
	       " 8100000000000001 0200000000000002 0000",
	       b, 34);
	struct rw_erf h;
	assert_int_equal(rw_erf_decode(b, sizeof(b), &h), RW_OK);
	assert_true(h.ts == 1);
	assert_int_equal(h.type, RW_ERF_TYPE_ETH); /* without the extension bit */
	assert_int_equal(h.flags, 0);
	assert_int_equal(h.rlen, 94);
	assert_int_equal(h.lctr, 0x0102);
	assert_int_equal(h.wlen, 60);
	assert_int_equal(h.n_ext, 2);
	assert_int_equal(h.hlen, 34);
	for (size_t l = 0; l < 34; l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_erf_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
	/* Without extensions an Ethernet record's frame starts at 18. */
	rw_hex("0000000000000000 02 00 0052 0000 003c 0000", b, 18);
	assert_int_equal(rw_erf_decode(b, 78, &h), RW_OK);
	assert_int_equal(h.n_ext, 0);
	assert_int_equal(h.hlen, 18);
	/* The other Ethernet-carrying types named in link.h: 10, 16, 20. */
	const uint8_t eth_types[] = { RW_ERF_TYPE_COLOR_ETH, RW_ERF_TYPE_DSM_COLOR_ETH,
				      RW_ERF_TYPE_COLOR_HASH_ETH };
	for (size_t i = 0; i < RW_ARRAY_LEN(eth_types); i++) {
		b[8] = eth_types[i];
		assert_int_equal(rw_erf_decode(b, 78, &h), RW_OK);
		assert_int_equal(h.type, eth_types[i]);
		assert_int_equal(h.hlen, 18);
	}
	b[8] = RW_ERF_TYPE_INFINIBAND_LINK;
	assert_int_equal(rw_erf_decode(b, 78, &h), RW_OK);
	assert_int_equal(h.hlen, 16);
}

static void test_erf_unsupported(void **state)
{
	(void)state;
	uint8_t b[64];
	memset(b, 0, sizeof(b));
	rw_hex("0000000000000000 01 00 0040 0000 0030", b, 16);
	struct rw_erf h;
	/* 1 HDLC_POS, 3 ATM, 4 AAL5, 7 IPV4, 8 IPV6. */
	const uint8_t types[] = { 1, 3, 4, 7, 8, 0x7f };
	for (size_t i = 0; i < RW_ARRAY_LEN(types); i++) {
		b[8] = types[i];
		assert_int_equal(rw_erf_decode(b, sizeof(b), &h), RW_ERR_UNSUPPORTED);
	}
}

static void test_erf_encode(void **state)
{
	(void)state;
	struct rw_erf h;
	memset(&h, 0, sizeof(h));
	h.ts = 0x651c9b5d80000000ULL;
	h.type = RW_ERF_TYPE_INFINIBAND;
	h.flags = 0x04;
	h.rlen = 48;
	h.lctr = 7;
	h.wlen = 32;
	uint8_t o[20], exp[16];
	memset(o, 0x5A, sizeof(o));
	size_t w = 0;
	assert_int_equal(rw_erf_encode(&h, o, sizeof(o), &w), RW_OK);
	assert_int_equal(w, 16);
	rw_hex("000000805d9b1c65 15 04 0030 0007 0020", exp, 16);
	assert_memory_equal(o, exp, 16);
	assert_int_equal(o[16], 0x5A);
	for (size_t cap = 0; cap < 16; cap++)
		assert_int_equal(rw_erf_encode(&h, o, cap, &w), RW_ERR_NOSPACE);
	/* Ethernet: plus two zero pad bytes. */
	h.type = RW_ERF_TYPE_ETH;
	memset(o, 0x5A, sizeof(o));
	assert_int_equal(rw_erf_encode(&h, o, sizeof(o), &w), RW_OK);
	assert_int_equal(w, 18);
	assert_int_equal(o[8], 2);
	assert_int_equal(o[16], 0);
	assert_int_equal(o[17], 0);
	assert_int_equal(o[18], 0x5A);
	for (size_t cap = 0; cap < 18; cap++)
		assert_int_equal(rw_erf_encode(&h, o, cap, &w), RW_ERR_NOSPACE);
	/* Round trip with random values. */
	uint64_t s = 0xEEF;
	for (int i = 0; i < 1000; i++) {
		struct rw_erf a, d;
		memset(&a, 0, sizeof(a));
		a.ts = rw_rand64(&s);
		a.type = rw_randbits(&s, 1) ? RW_ERF_TYPE_ETH : RW_ERF_TYPE_INFINIBAND;
		a.flags = (uint8_t)rw_rand64(&s);
		a.rlen = 64;
		a.lctr = (uint16_t)rw_rand64(&s);
		a.wlen = (uint16_t)rw_rand64(&s);
		uint8_t rec[64];
		memset(rec, 0, sizeof(rec));
		assert_int_equal(rw_erf_encode(&a, rec, sizeof(rec), &w), RW_OK);
		assert_int_equal(rw_erf_decode(rec, sizeof(rec), &d), RW_OK);
		assert_true(d.ts == a.ts);
		assert_int_equal(d.type, a.type);
		assert_int_equal(d.flags, a.flags);
		assert_int_equal(d.rlen, a.rlen);
		assert_int_equal(d.lctr, a.lctr);
		assert_int_equal(d.wlen, a.wlen);
		assert_int_equal(d.n_ext, 0);
		assert_int_equal(d.hlen, w);
	}
}

/* An InfiniBand record (type 21 with the extension bit) with n extension
 * headers, each one's bit 7 set when another follows, and a zeroed 32-byte
 * frame; rlen and wlen say so. Returns the record's length. */
static size_t erf_with_ext(uint8_t *b, size_t n)
{
	size_t len = 16 + 8 * n + 32;
	memset(b, 0, len);
	rw_hex("0000000000000000 95 00 0000 0000 0020", b, 16);
	b[10] = (uint8_t)(len >> 8);
	b[11] = (uint8_t)len;
	for (size_t i = 0; i < n; i++)
		b[16 + 8 * i] = (uint8_t)((i + 1 < n ? 0x80 : 0) | 0x04);
	return len;
}

/* More extension headers than RW_ERF_MAX_EXT: MALFORMED, counted, and
 * worded as such (it once read "ERF record length is below its header
 * length", which sent people looking at rlen). */
static void test_erf_too_many_ext(void **state)
{
	(void)state;
	static uint8_t b[16 + 8 * 300 + 32];
	static struct rw_packet p;
	struct rw_erf h;
	char why[256];

	assert_int_equal(RW_ERF_MAX_EXT, 254);
	size_t len = erf_with_ext(b, 254);
	assert_int_equal(rw_erf_decode(b, len, &h), RW_OK);
	assert_int_equal(h.n_ext, 254);
	assert_int_equal(h.hlen, 16 + 8 * 254);

	len = erf_with_ext(b, 255);
	assert_int_equal(rw_erf_decode(b, len, &h), RW_ERR_MALFORMED);
	assert_int_equal(h.n_ext, 255);
	assert_int_equal(h.ext_more, 0);

	len = erf_with_ext(b, 300);
	assert_int_equal(rw_erf_decode(b, len, &h), RW_ERR_MALFORMED);
	assert_int_equal(h.n_ext, 300);
	assert_int_equal(h.ext_more, 0);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ERF, b, len, len, &p), RW_ERR_MALFORMED);
	assert_int_equal(p.err_layer, RW_L_ERF);
	assert_int_equal(p.err_offset, 16 + 8 * 254); /* the first one past the limit */
	assert_string_equal(rw_packet_error(&p, why, sizeof(why)),
			    "ERF malformed at byte 2048: too many extension headers "
			    "(300; rocewire reads at most 254)");

	/* Captured up to the 260th: past the limit, so malformed whatever
	 * follows, and the count is a lower bound. */
	size_t cut = 16 + 8 * 260;
	assert_int_equal(rw_erf_decode(b, cut, &h), RW_ERR_MALFORMED);
	assert_int_equal(h.n_ext, 260);
	assert_int_equal(h.ext_more, 1);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ERF, b, cut, len, &p), RW_ERR_MALFORMED);
	assert_string_equal(rw_packet_error(&p, why, sizeof(why)),
			    "ERF malformed at byte 2048: too many extension headers "
			    "(at least 260; rocewire reads at most 254)");

	/* Cut before the limit: only truncated, needing one more header. */
	cut = 16 + 8 * 100;
	assert_int_equal(rw_erf_decode(b, cut, &h), RW_ERR_TRUNCATED);
	assert_int_equal(h.hlen, 16 + 8 * 101);

	/* rlen below the header length keeps its own words. */
	len = erf_with_ext(b, 2);
	b[10] = 0;
	b[11] = 24;
	assert_int_equal(rw_erf_decode(b, len, &h), RW_ERR_MALFORMED);
	assert_int_equal(h.n_ext, 2);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ERF, b, len, len, &p), RW_ERR_MALFORMED);
	rw_packet_error(&p, why, sizeof(why));
	assert_non_null(strstr(why, "ERF record length is below its header length"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sll_known),
		cmocka_unit_test(test_sll2_known),
		cmocka_unit_test(test_sll_roundtrip),
		cmocka_unit_test(test_erf_known_ib),
		cmocka_unit_test(test_erf_known_eth_ext),
		cmocka_unit_test(test_erf_unsupported),
		cmocka_unit_test(test_erf_encode),
		cmocka_unit_test(test_erf_too_many_ext),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
