/* SPDX-License-Identifier: BSD-3-Clause */
/* icrc.h: the Invariant CRC (IBA 7.8.1, A16 RoCEv1, A17.3.3 RoCEv2).
 *
 * Known answers: the two real frames of shared/notes/icrc.md (a ConnectX-4 Lx
 * CNP and Scapy's UC SEND_ONLY). Everything else is cross-checked against the
 * reference in rw_test_util.h, a byte-by-byte masking per the spec followed
 * by zlib's crc32 -- a second, simple implementation, not our own output. */
#define RW_TEST_WANT_ZLIB
#include "rw_test_util.h"

/* shared/notes/icrc.md, vector 1: CNP from a ConnectX-4 Lx; ICRC on the wire
 * 82 fd 00 2a, i.e. the CRC value 0x2a00fd82 stored least-significant first. */
static const char *const CNP_HEX =
	"e41d2dab2bc27cfe90643b32080045c2003c718c400040119161 0a001101 0a001201 000012b70028 0000"
	"8100ffff40000118 00000000 00000000000000000000000000000000 82fd002a";
#define CNP_ICRC 0x2a00fd82u
/* vector 2: Scapy UC SEND_ONLY, wire ICRC 78 f3 53 f3. */
static const char *const UC_HEX =
	"248a07a8fa22248a07a8fa22 0800 45010040047840004011b4d5c0a80007c0a80007 c00012b7002caca2"
	"2460ffff000000d300cf1710 4630818be28935d90e9a95505401be885e500000 78f353f3";
#define UC_ICRC 0xf353f378u

static void test_vectors(void **state)
{
	(void)state;
	uint8_t f[128];
	size_t n = rw_hex(CNP_HEX, f, sizeof(f));
	assert_int_equal(n, 74);
	/* ICRC covers the IP header through the last pad byte. */
	assert_int_equal(rw_get_le32(f + n - 4), CNP_ICRC);
	assert_int_equal(rw_icrc_rocev2(f + 14, n - 14 - 4), CNP_ICRC);
	assert_int_equal(rw_ref_icrc_rocev2(f + 14, n - 14 - 4), CNP_ICRC);
	assert_int_equal(rw_icrc_display(CNP_ICRC), 0x82fd002au);

	n = rw_hex(UC_HEX, f, sizeof(f));
	assert_int_equal(n, 78);
	assert_int_equal(rw_get_le32(f + n - 4), UC_ICRC);
	assert_int_equal(rw_icrc_rocev2(f + 14, n - 14 - 4), UC_ICRC);
	assert_int_equal(rw_ref_icrc_rocev2(f + 14, n - 14 - 4), UC_ICRC);
	assert_int_equal(rw_icrc_display(UC_ICRC), 0x78f353f3u);
}

/* Variant fields (A17.3.3): changing them must not change the ICRC;
 * changing an invariant byte must. */
static void test_variant_fields_v4(void **state)
{
	(void)state;
	uint8_t f[128], g[128];
	size_t n = rw_hex(UC_HEX, f, sizeof(f));
	const size_t ip = 14, udp = 34, bth = 42, len = n - 14 - 4;
	struct {
		size_t off;
		uint8_t xor;
		const char *what;
	} variant[] = {
		{ ip + 1, 0x03, "ECN" },      { ip + 1, 0xfc, "DSCP" },
		{ ip + 8, 0xff, "TTL" },      { ip + 8, 0x01, "TTL-1" },
		{ ip + 10, 0x5a, "IP checksum" }, { ip + 11, 0xa5, "IP checksum" },
		{ udp + 6, 0xff, "UDP checksum" }, { udp + 7, 0x01, "UDP checksum" },
		{ bth + 4, 0x80, "FECN" },    { bth + 4, 0x40, "BECN" },
		{ bth + 4, 0x3f, "BTH resv6" },
	};
	for (size_t i = 0; i < RW_ARRAY_LEN(variant); i++) {
		memcpy(g, f, n);
		g[variant[i].off] ^= variant[i].xor;
		if (rw_icrc_rocev2(g + ip, len) != UC_ICRC)
			fail_msg("changing the %s changed the ICRC", variant[i].what);
	}
	struct {
		size_t off;
		const char *what;
	} invariant[] = {
		{ ip + 2, "total length" }, { ip + 4, "IP id" }, { ip + 6, "IP flags" },
		{ ip + 9, "protocol" },	    { ip + 12, "source address" },
		{ ip + 19, "destination address" }, { udp + 0, "UDP source port" },
		{ udp + 4, "UDP length" },  { bth + 0, "opcode" },
		{ bth + 1, "SE/M/PadCnt/TVer" }, { bth + 2, "P_Key" },
		{ bth + 5, "DestQP" },	    { bth + 8, "AckReq" },
		{ bth + 9, "PSN" },	    { bth + 11, "PSN" },
		{ bth + 12, "payload" },    { n - 4 - 1, "pad" },
	};
	for (size_t i = 0; i < RW_ARRAY_LEN(invariant); i++) {
		memcpy(g, f, n);
		g[invariant[i].off] ^= invariant[i].off == bth + 8 ? 0x80 : 0x01; /* A bit */
		uint32_t c = rw_icrc_rocev2(g + ip, len);
		if (c == UC_ICRC)
			fail_msg("changing the %s did not change the ICRC", invariant[i].what);
		assert_int_equal(c, rw_ref_icrc_rocev2(g + ip, len));
	}
	/* The length given is what is covered: one byte less is another CRC. */
	assert_int_not_equal(rw_icrc_rocev2(f + ip, len - 1), UC_ICRC);
	/* Too short to hold IP + UDP + BTH: 0. */
	assert_int_equal(rw_icrc_rocev2(f + ip, 20 + 8 + 12 - 1), 0);
	assert_int_equal(rw_icrc_rocev2(f + ip, 0), 0);
}

/* IPv4 options are part of the IP header the ICRC covers (A17.3.3 masks
 * only TOS, TTL and checksum). */
static void test_ipv4_options(void **state)
{
	(void)state;
	uint8_t f[128], g[160];
	size_t n = rw_hex(UC_HEX, f, sizeof(f));
	/* Insert the RFC 2113 Router Alert option (94 04 00 00): IHL 6, total
	 * length 64 + 4, header checksum recomputed. */
	memcpy(g, f, 34);
	rw_hex("94040000", g + 34, 4);
	memcpy(g + 38, f + 34, n - 34);
	size_t m = n + 4;
	g[14] = 0x46;
	rw_put_be16(g + 16, 68);
	g[24] = g[25] = 0;
	rw_put_be16(g + 24, rw_ref_inet_cksum(g + 14, 24));
	size_t len = m - 14 - 4;
	uint32_t ref = rw_ref_icrc_rocev2(g + 14, len);
	assert_int_equal(rw_icrc_rocev2(g + 14, len), ref);
	assert_int_not_equal(ref, UC_ICRC);
	rw_put_le32(g + m - 4, ref);
	/* Each option byte is covered. */
	for (size_t k = 34; k < 38; k++) {
		uint8_t h[160];
		memcpy(h, g, m);
		h[k] ^= 0x10;
		uint32_t c = rw_icrc_rocev2(h + 14, len);
		assert_int_not_equal(c, ref);
		assert_int_equal(c, rw_ref_icrc_rocev2(h + 14, len));
	}
	/* The frame decodes with a good ICRC and the payload where it was. */
	struct rw_packet p;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, g, m, m, &p), RW_OK);
	assert_int_equal(p.ipv4.ihl, 6);
	assert_int_equal(p.ipv4.options_len, 4);
	assert_int_equal(p.l4_off, 38);
	assert_int_equal(p.bth_off, 46);
	assert_int_equal(p.payload_len, 18);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	assert_int_equal(p.icrc_computed, ref);
	/* Maximal options (40 bytes of NOPs, IHL 15). */
	uint8_t big[256];
	memcpy(big, f, 34);
	memset(big + 34, 0x01, 40);
	memcpy(big + 74, f + 34, n - 34);
	size_t bn = n + 40;
	big[14] = 0x4f;
	rw_put_be16(big + 16, 64 + 40);
	assert_int_equal(rw_icrc_rocev2(big + 14, bn - 18), rw_ref_icrc_rocev2(big + 14, bn - 18));
}

/* A VLAN tag is outside the ICRC: inserting one must not change it. */
static void test_vlan_unchanged(void **state)
{
	(void)state;
	uint8_t f[128], g[136];
	size_t n = rw_hex(UC_HEX, f, sizeof(f));
	const char *tags[] = { "8100 b064", "88a8 0064 8100 e00a", "9100 0001 8100 0002" };
	for (size_t t = 0; t < RW_ARRAY_LEN(tags); t++) {
		size_t k = rw_hex(tags[t], g + 12, 8);
		memcpy(g, f, 12);
		memcpy(g + 12 + k, f + 12, n - 12);
		size_t m = n + k;
		struct rw_packet p;
		assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, g, m, m, &p), RW_OK);
		assert_int_equal(p.carrier, RW_CARRIER_ROCEV2);
		assert_int_equal(p.n_vlan, k / 4);
		assert_int_equal(p.icrc_start, 14 + k);
		assert_int_equal(p.icrc_status, RW_CRC_OK);
		assert_int_equal(p.icrc_computed, UC_ICRC);
		assert_int_equal(p.icrc_wire, UC_ICRC);
		assert_int_equal(rw_icrc_rocev2(g + 14 + k, m - 14 - k - 4), UC_ICRC);
	}
}

/* rw_icrc_update equals recomputation, for PSN rewrites and payload edits. */
static void test_update(void **state)
{
	(void)state;
	uint8_t f[128];
	size_t n = rw_hex(UC_HEX, f, sizeof(f));
	const size_t ip = 14, len = n - 18, psn = 42 + 9 - ip; /* offsets from the IP header */
	uint64_t s = 0x1CC;
	for (int i = 0; i < 500; i++) {
		uint8_t g[128];
		memcpy(g, f, n);
		uint8_t newpsn[3];
		rw_randbytes(&s, newpsn, 3);
		uint32_t c = rw_icrc_update(UC_ICRC, g + ip + psn, newpsn, 3, len - psn - 3);
		memcpy(g + ip + psn, newpsn, 3);
		assert_int_equal(c, rw_icrc_rocev2(g + ip, len));
		assert_int_equal(c, rw_ref_icrc_rocev2(g + ip, len));
	}
	/* Random changed ranges inside the payload and pad of a long packet. */
	static uint8_t big[4096 + 64];
	memcpy(big, f, 54);
	size_t plen = 4096;
	rw_randbytes(&s, big + 54, plen);
	size_t blen = 54 + plen - ip; /* from IP through the payload (no pad needed) */
	rw_put_be16(big + 16, (uint16_t)(blen + 4));
	rw_put_be16(big + 38, (uint16_t)(blen + 4 - 20));
	big[43] = 0x40; /* PadCnt 0 */
	uint32_t c0 = rw_icrc_rocev2(big + ip, blen);
	assert_int_equal(c0, rw_ref_icrc_rocev2(big + ip, blen));
	for (int i = 0; i < 200; i++) {
		size_t off = 40 + (size_t)(rw_rand64(&s) % (blen - 40 - 1));
		size_t l = 1 + (size_t)(rw_rand64(&s) % 64);
		if (off + l > blen)
			l = blen - off;
		uint8_t nb[64];
		rw_randbytes(&s, nb, l);
		uint32_t c = rw_icrc_update(c0, big + ip + off, nb, l, blen - off - l);
		memcpy(big + ip + off, nb, l);
		c0 = rw_icrc_rocev2(big + ip, blen);
		assert_int_equal(c, c0);
	}
	assert_int_equal(c0, rw_ref_icrc_rocev2(big + ip, blen));
}

/* Random RoCEv2 packets (IPv4 with random IHL, IPv6) against the reference. */
static void test_random_rocev2(void **state)
{
	(void)state;
	uint64_t s = 0xC2C2;
	static uint8_t b[2048];
	for (int i = 0; i < 3000; i++) {
		int v6 = (int)rw_randbits(&s, 1);
		size_t iphl = v6 ? 40 : 4 * (5 + (size_t)(rw_rand64(&s) % 11));
		size_t len = iphl + 8 + 12 + (size_t)(rw_rand64(&s) % 1500);
		rw_randbytes(&s, b, len);
		b[0] = v6 ? (uint8_t)(0x60 | (b[0] & 0x0f)) : (uint8_t)(0x40 | iphl / 4);
		if (v6)
			b[6] = 17; /* UDP next: extension headers are test_ipv6.c's */
		uint32_t ref = rw_ref_icrc_rocev2(b, len);
		if (rw_icrc_rocev2(b, len) != ref)
			fail_msg("ICRC differs from the reference: IPv%d, IHL %zu, len %zu", v6 ? 6 : 4,
				 iphl, len);
	}
}

/* Every length of what follows the headers from 0 to 256 bytes, across the
 * point where icrc.c stops copying the rest with the headers (one CRC pass)
 * and continues in place (two): RoCEv2 over IPv4 and IPv6, RoCEv1, IB. */
static void test_every_short_length(void **state)
{
	(void)state;
	uint64_t s = 0x1C2C;
	static uint8_t b[512];
	for (size_t rest = 0; rest <= 256; rest++) {
		rw_randbytes(&s, b, sizeof(b));
		b[0] = 0x45;
		if (rw_icrc_rocev2(b, 20 + 8 + 12 + rest) != rw_ref_icrc_rocev2(b, 20 + 8 + 12 + rest))
			fail_msg("RoCEv2/IPv4: ICRC differs from the reference, %zu bytes after the BTH", rest);
		b[0] = 0x60;
		b[6] = 17; /* next header UDP */
		if (rw_icrc_rocev2(b, 40 + 8 + 12 + rest) != rw_ref_icrc_rocev2(b, 40 + 8 + 12 + rest))
			fail_msg("RoCEv2/IPv6: ICRC differs from the reference, %zu bytes after the BTH", rest);
		if (rw_icrc_rocev1(b, 40 + 12 + rest) != rw_ref_icrc_rocev1(b, 40 + 12 + rest))
			fail_msg("RoCEv1: ICRC differs from the reference, %zu bytes after the BTH", rest);
		b[1] = (uint8_t)((b[1] & ~3u) | 2); /* LNH 2: local, no GRH */
		if (rw_icrc_ib(b, 8 + 12 + rest) != rw_ref_icrc_ib(b, 8 + 12 + rest))
			fail_msg("IB: ICRC differs from the reference, %zu bytes after the BTH", rest);
	}
}

static void test_ipv6(void **state)
{
	(void)state;
	/* RoCEv2 over IPv6 (A17.4.5.2): UC SEND_ONLY of 13 bytes + 3 pad;
	 * IPv6 payload length = 8 + 12 + 16 + 4 = 40 = 0x28. */
	uint8_t f[160];
	size_t n = rw_hex("020000000002 020000000001 86dd"
			  "6b8abcde 0028 11 40 fe800000000000000000000000000001"
			  "fe800000000000000000000000000002"
			  "c0de12b7 0028 1234"
			  "24 30 ffff 00 000102 80 000007"
			  "68656c6c6f2c20776f726c6421 000000",
			  f, sizeof(f));
	size_t len = n - 14;
	uint32_t ref = rw_ref_icrc_rocev2(f + 14, len);
	assert_int_equal(rw_icrc_rocev2(f + 14, len), ref);
	rw_put_le32(f + n, ref);
	n += 4;
	/* Traffic class, flow label, hop limit, UDP checksum, BTH byte 4 are
	 * variant; payload length is not. */
	const size_t var[] = { 14 + 0, 14 + 1, 14 + 2, 14 + 3, 14 + 7, 54 + 6, 54 + 7, 62 + 4 };
	for (size_t i = 0; i < RW_ARRAY_LEN(var); i++) {
		uint8_t g[160];
		memcpy(g, f, n);
		g[var[i]] ^= var[i] == 14 ? 0x0f : 0xff; /* not the version nibble */
		assert_int_equal(rw_icrc_rocev2(g + 14, len), ref);
	}
	const size_t inv[] = { 14 + 4, 14 + 6, 14 + 8, 14 + 39, 54 + 0, 54 + 4, 62 + 9, n - 5 };
	for (size_t i = 0; i < RW_ARRAY_LEN(inv); i++) {
		uint8_t g[160];
		memcpy(g, f, n);
		g[inv[i]] ^= 0x01;
		assert_int_not_equal(rw_icrc_rocev2(g + 14, len), ref);
	}
	struct rw_packet p;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f, n, n, &p), RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_ROCEV2);
	assert_true(p.present & RW_P_IPV6);
	assert_int_equal(p.ipv6.flow_label, 0xabcde);
	assert_int_equal(p.bth.pad, 3);
	assert_int_equal(p.payload_len, 13);
	assert_memory_equal(p.payload, "hello, world!", 13);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	assert_int_equal(p.icrc_computed, ref);
}

static void test_rocev1(void **state)
{
	(void)state;
	/* RoCEv1 (A16): Ethernet 0x8915, GRH (NxtHdr 0x1B), BTH, RC SEND_ONLY
	 * with 8 bytes of payload; GRH PayLen = 12 + 8 + 4 = 24. */
	uint8_t f[160];
	size_t n = rw_hex("020000000002 020000000001 8915"
			  "60a12345 0018 1b 02 fe800000000000000000000000000001"
			  "fe800000000000000000000000000002"
			  "04 00 ffff c0 000011 80 000100"
			  "0102030405060708",
			  f, sizeof(f));
	size_t len = n - 14;
	uint32_t ref = rw_ref_icrc_rocev1(f + 14, len);
	assert_int_equal(rw_icrc_rocev1(f + 14, len), ref);
	rw_put_le32(f + n, ref);
	n += 4;
	/* GRH TClass, FlowLabel, HopLmt and BTH byte 4 are variant. */
	const size_t var[] = { 14 + 0, 14 + 1, 14 + 2, 14 + 3, 14 + 7, 54 + 4 };
	for (size_t i = 0; i < RW_ARRAY_LEN(var); i++) {
		uint8_t g[160];
		memcpy(g, f, n);
		g[var[i]] ^= var[i] == 14 ? 0x0f : 0xff;
		assert_int_equal(rw_icrc_rocev1(g + 14, len), ref);
	}
	const size_t inv[] = { 14 + 4, 14 + 6, 14 + 8, 14 + 39, 54 + 0, 54 + 9, n - 5 };
	for (size_t i = 0; i < RW_ARRAY_LEN(inv); i++) {
		uint8_t g[160];
		memcpy(g, f, n);
		g[inv[i]] ^= 0x01;
		assert_int_not_equal(rw_icrc_rocev1(g + 14, len), ref);
	}
	struct rw_packet p;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f, n, n, &p), RW_OK);
	assert_int_equal(p.carrier, RW_CARRIER_ROCEV1);
	assert_int_equal(p.icrc_start, 14);
	assert_int_equal(p.icrc_status, RW_CRC_OK);
	assert_int_equal(p.icrc_computed, ref);
	/* Random GRH + BTH + payload against the reference. */
	uint64_t s = 0x1111;
	static uint8_t b[2048];
	for (int i = 0; i < 2000; i++) {
		size_t l = 40 + 12 + (size_t)(rw_rand64(&s) % 1500);
		rw_randbytes(&s, b, l);
		b[0] = (uint8_t)(0x60 | (b[0] & 0x0f));
		assert_int_equal(rw_icrc_rocev1(b, l), rw_ref_icrc_rocev1(b, l));
	}
}

static void test_ib(void **state)
{
	(void)state;
	/* Native IB, LNH 2 (IBA 7.7.6: BTH follows): LRH VL 0 SL 0, DLID 3,
	 * PktLen = (8 + 12 + 8 + 4) / 4 = 8 words, SLID 1; RC SEND_ONLY. */
	uint8_t f[160];
	size_t n = rw_hex("00 02 0003 0008 0001"
			  "04 00 ffff 00 000011 80 000100"
			  "0102030405060708",
			  f, sizeof(f));
	uint32_t ref = rw_ref_icrc_ib(f, n);
	assert_int_equal(rw_icrc_ib(f, n), ref);
	/* VL (byte 0 high nibble) and BTH byte 4 are variant; SL, LNH, LIDs,
	 * PktLen, LVer are not (IBA 7.8.1). */
	const struct { size_t off; uint8_t x; int same; } cases[] = {
		{ 0, 0xf0, 1 }, { 0, 0x10, 1 }, { 8 + 4, 0xc0, 1 }, { 8 + 4, 0x3f, 1 },
		{ 0, 0x01, 0 }, { 1, 0x10, 0 }, { 2, 0x01, 0 }, { 5, 0x01, 0 }, { 7, 0x01, 0 },
		{ 8, 0x01, 0 }, { 8 + 11, 0x01, 0 }, { n - 1, 0x01, 0 },
	};
	for (size_t i = 0; i < RW_ARRAY_LEN(cases); i++) {
		uint8_t g[160];
		memcpy(g, f, n);
		g[cases[i].off] ^= cases[i].x;
		uint32_t c = rw_icrc_ib(g, n);
		if (cases[i].same)
			assert_int_equal(c, ref);
		else
			assert_int_not_equal(c, ref);
	}
	/* LNH 3: a GRH follows; its TClass, FlowLabel, HopLmt are masked, and
	 * so is the whole LRH (a router rewrites it). */
	size_t m = rw_hex("30 03 0003 0012 0001"
			  "6fedcba9 0018 1b 05 fe800000000000000000000000000001"
			  "fe800000000000000000000000000002"
			  "04 00 ffff 00 000011 80 000100"
			  "0102030405060708",
			  f, sizeof(f));
	ref = rw_ref_icrc_ib(f, m);
	assert_int_equal(rw_icrc_ib(f, m), ref);
	const struct { size_t off; uint8_t x; int same; } gcases[] = {
		{ 8 + 0, 0x0f, 1 }, { 8 + 1, 0xff, 1 }, { 8 + 2, 0xff, 1 }, { 8 + 3, 0xff, 1 },
		{ 8 + 7, 0xff, 1 }, { 48 + 4, 0xff, 1 }, { 0, 0xf0, 1 },
		{ 1, 0x10, 1 }, { 2, 0x01, 1 }, { 4, 0x01, 1 }, { 6, 0x01, 1 }, { 7, 0xff, 1 },
		{ 8 + 4, 0x01, 0 }, { 8 + 6, 0x01, 0 }, { 8 + 8, 0x01, 0 }, { 8 + 39, 0x01, 0 },
		{ 48, 0x01, 0 }, { 48 + 9, 0x01, 0 },
	};
	for (size_t i = 0; i < RW_ARRAY_LEN(gcases); i++) {
		uint8_t g[160];
		memcpy(g, f, m);
		g[gcases[i].off] ^= gcases[i].x;
		uint32_t c = rw_icrc_ib(g, m);
		if (gcases[i].same)
			assert_int_equal(c, ref);
		else
			assert_int_not_equal(c, ref);
	}
	/* With LNH 2 the same bytes after the LRH are NOT a GRH: the "TClass"
	 * byte is then part of the BTH/payload and is covered. */
	uint8_t g[160];
	memcpy(g, f, m);
	g[1] = 0x02;
	uint32_t c2 = rw_icrc_ib(g, m);
	assert_int_equal(c2, rw_ref_icrc_ib(g, m));
	g[9] ^= 0xff;
	assert_int_not_equal(rw_icrc_ib(g, m), c2);
	/* Random packets, both LNH, against the reference. */
	uint64_t s = 0x1B1B;
	static uint8_t b[2048];
	for (int i = 0; i < 2000; i++) {
		int grh = (int)rw_randbits(&s, 1);
		size_t l = 8 + (grh ? 40 : 0) + 12 + (size_t)(rw_rand64(&s) % 1500);
		rw_randbytes(&s, b, l);
		b[1] = (uint8_t)((b[1] & 0xfc) | (grh ? 3 : 2));
		if (grh)
			b[8] = (uint8_t)(0x60 | (b[8] & 0x0f));
		assert_int_equal(rw_icrc_ib(b, l), rw_ref_icrc_ib(b, l));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_variant_fields_v4),
		cmocka_unit_test(test_ipv4_options),
		cmocka_unit_test(test_vlan_unchanged),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_random_rocev2),
		cmocka_unit_test(test_every_short_length),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_rocev1),
		cmocka_unit_test(test_ib),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
