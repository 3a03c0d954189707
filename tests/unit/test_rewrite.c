/* SPDX-License-Identifier: BSD-3-Clause */
/* rewrite.h: header rewrites with the ICRC patched incrementally.
 *
 * Known answers: the two real frames of shared/notes/icrc.md (Scapy's UC
 * SEND_ONLY with a non-zero UDP checksum, a ConnectX-4 Lx CNP). Every ICRC
 * after a rewrite is checked against rw_test_util.h's reference (the spec's
 * masking byte by byte, then zlib's crc32), every IPv4 and UDP checksum
 * against the plain RFC 1071 sum: second readings, not our own output. */
#define RW_TEST_WANT_ZLIB
#include "rw_test_util.h"
#include "rocewire/rewrite.h"

static const char *const UC_HEX =
	"248a07a8fa22248a07a8fa22 0800 45010040047840004011b4d5c0a80007c0a80007 c00012b7002caca2"
	"2460ffff000000d300cf1710 4630818be28935d90e9a95505401be885e500000 78f353f3";
static const char *const CNP_HEX =
	"e41d2dab2bc27cfe90643b32080045c2003c718c400040119161 0a001101 0a001201 000012b70028 0000"
	"8100ffff40000118 00000000 00000000000000000000000000000000 82fd002a";

struct fr {
	uint8_t b[256];
	size_t n;
	struct rw_packet p;
};

static void load(struct fr *f, const char *hex)
{
	f->n = rw_hex(hex, f->b, sizeof(f->b));
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f->b, f->n, f->n, &f->p), RW_OK);
	assert_int_equal(f->p.icrc_status, RW_CRC_OK);
}

/* Through a cache shared by every test (tails of every length come and go)
 * and, on a copy, without one: both must give the same bytes. */
static void apply(struct fr *f, const struct rw_rewrite *rw, struct rw_rewrite_result *res)
{
	static struct rw_rewrite_cache cache;
	struct fr g = *f;
	struct rw_rewrite_result r2;
	assert_int_equal(rw_rewrite_apply(rw, &cache, &f->p, f->b, &f->n, sizeof(f->b), res), RW_OK);
	assert_int_equal(rw_rewrite_apply(rw, NULL, &g.p, g.b, &g.n, sizeof(g.b), &r2), RW_OK);
	assert_int_equal(f->n, g.n);
	assert_memory_equal(f->b, g.b, f->n);
}

/* The ICRC on the wire equals the reference over the rewritten frame. */
static void assert_icrc_ref(const uint8_t *b, size_t n, size_t l3)
{
	assert_int_equal(rw_get_le32(b + n - 4), rw_ref_icrc_rocev2(b + l3, n - l3 - 4));
}

/* The UDP checksum of an IPv4 datagram, by RFC 768 / 1071 the plain way. */
static uint16_t ref_udp4(const uint8_t *ip)
{
	uint8_t ps[512];
	size_t ulen = rw_get_be16(ip + 20 + 4);
	memcpy(ps, ip + 12, 8);
	ps[8] = 0;
	ps[9] = 17;
	ps[10] = (uint8_t)(ulen >> 8);
	ps[11] = (uint8_t)ulen;
	memcpy(ps + 12, ip + 20, ulen);
	ps[12 + 6] = ps[12 + 7] = 0;
	uint16_t c = rw_ref_inet_cksum(ps, 12 + ulen);
	return c ? c : 0xFFFF;
}

static void test_masked_fields_keep_icrc(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	load(&f, UC_HEX);
	uint32_t icrc = rw_get_le32(f.b + f.n - 4);
	rw_rewrite_init(&rw);
	rw.dscp = 26;
	rw.ecn = RW_ECN_CE;
	rw.ttl = 7;
	rw.udp_csum = RW_RW_CSUM_ZERO;
	apply(&f, &rw, &res);
	assert_int_equal(f.b[14 + 1], 26 << 2 | 3);
	assert_int_equal(f.b[14 + 8], 7);
	assert_int_equal(rw_get_be16(f.b + 34 + 6), 0);
	/* masked by the ICRC (A17.3.3): untouched, not even recomputed */
	assert_int_equal(rw_get_le32(f.b + f.n - 4), icrc);
	assert_false(res.icrc_updated);
	assert_true(res.applied & (1u << RW_RW_DSCP));
	assert_true(res.applied & (1u << RW_RW_ECN));
	assert_true(res.applied & (1u << RW_RW_TTL));
	assert_true(res.applied & (1u << RW_RW_UDP_CSUM));
	assert_true(res.ipv4_csum);
	assert_int_equal(rw_ref_inet_cksum(f.b + 14, 20), 0);
	assert_icrc_ref(f.b, f.n, 14);
}

static void test_qpn_psn_pkey(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	load(&f, UC_HEX);
	uint16_t udp_before = rw_get_be16(f.b + 34 + 6);
	assert_int_equal(ref_udp4(f.b + 14), udp_before); /* the vector's checksum is right */
	rw_rewrite_init(&rw);
	rw.qpn[rw.n_qpn++] = (struct rw_rw_map32){211, 0xABCDEF};
	rw.psn[rw.n_psn++] = (struct rw_rw_psnoff){.qpn = 211, .offset = 0xFFFFFF};
	rw.pkey = 0x8001;
	apply(&f, &rw, &res);
	assert_int_equal(rw_get_be24(f.b + 42 + 5), 0xABCDEF);
	assert_int_equal(rw_get_be24(f.b + 42 + 9), (13571856 + 0xFFFFFF) & 0xFFFFFF);
	assert_int_equal(rw_get_be16(f.b + 42 + 2), 0x8001);
	assert_true(res.icrc_updated);
	assert_icrc_ref(f.b, f.n, 14);
	/* the non-zero UDP checksum follows the change, incrementally */
	assert_int_equal(rw_get_be16(f.b + 34 + 6), ref_udp4(f.b + 14));
	assert_false(res.ipv4_csum);
	/* a QPN that no rule names is left, and so is its ICRC */
	load(&f, UC_HEX);
	rw_rewrite_init(&rw);
	rw.qpn[rw.n_qpn++] = (struct rw_rw_map32){212, 1};
	apply(&f, &rw, &res);
	assert_int_equal(res.applied, 0);
	assert_false(res.icrc_updated);
}

static void test_ip_map_and_port(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	load(&f, UC_HEX);
	rw_rewrite_init(&rw);
	/* 192.168.0.0/16 -> 10.9.0.0/16, host bits kept */
	rw.ip4[rw.n_ip4++] = (struct rw_rw_ip4map){0xC0A80000, 0x0A090000, 0xFFFF0000};
	rw.udp_sport = 0xD00D;
	rw.set_dst_mac = 1;
	memcpy(rw.dst_mac, "\x02\x00\x00\x00\x00\x09", 6);
	apply(&f, &rw, &res);
	assert_int_equal(rw_get_be32(f.b + 14 + 12), 0x0A090007);
	assert_int_equal(rw_get_be32(f.b + 14 + 16), 0x0A090007);
	assert_int_equal(rw_get_be16(f.b + 34), 0xD00D);
	assert_memory_equal(f.b, "\x02\x00\x00\x00\x00\x09", 6);
	assert_true(res.ipv4_csum);
	assert_int_equal(rw_ref_inet_cksum(f.b + 14, 20), 0);
	assert_int_equal(rw_get_be16(f.b + 34 + 6), ref_udp4(f.b + 14));
	assert_icrc_ref(f.b, f.n, 14);
	assert_true(res.applied & (1u << RW_RW_IP));
	assert_true(res.applied & (1u << RW_RW_MAC));
	/* the result decodes cleanly, ICRC verified by the decoder too */
	struct rw_packet q;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &q), RW_OK);
	assert_int_equal(q.icrc_status, RW_CRC_OK);
}

static void test_bad_icrc_stays_bad(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	f.n = rw_hex(CNP_HEX, f.b, sizeof(f.b));
	f.b[f.n - 1] ^= 0x40; /* a bad ICRC, as captured */
	rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p);
	assert_int_equal(f.p.icrc_status, RW_CRC_BAD);
	uint32_t diff = f.p.icrc_wire ^ f.p.icrc_computed;
	rw_rewrite_init(&rw);
	rw.qpn[rw.n_qpn++] = (struct rw_rw_map32){0x118, 0x77};
	apply(&f, &rw, &res);
	uint32_t ref = rw_ref_icrc_rocev2(f.b + 14, f.n - 14 - 4);
	assert_int_equal(rw_get_le32(f.b + f.n - 4) ^ ref, diff);
	/* --fix-icrc: the right one */
	rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p);
	rw.fix_icrc = 1;
	apply(&f, &rw, &res);
	assert_true(res.icrc_fixed);
	assert_icrc_ref(f.b, f.n, 14);
}

static void test_rdma_keys(void **state)
{
	(void)state;
	struct rw_packet d;
	uint8_t pay[40], b[256];
	size_t n;
	memset(&d, 0, sizeof(d));
	d.carrier = RW_CARRIER_ROCEV2;
	d.present = RW_P_ETH | RW_P_IPV4 | RW_P_UDP | RW_P_BTH;
	d.eth.ethertype = RW_ETHERTYPE_IPV4;
	d.ipv4.ttl = 64;
	d.ipv4.protocol = 17;
	d.ipv4.src = 0xC0000201;
	d.ipv4.dst = 0xC0000202;
	d.udp.sport = 0xC123;
	d.bth.opcode = 0x0A; /* RC RDMA WRITE ONLY */
	d.bth.pkey = 0xFFFF;
	d.bth.dqpn = 0x11;
	d.bth.psn = 5;
	d.reth.va = 0x7f0000001000ull;
	d.reth.rkey = 0x1234;
	d.reth.dmalen = sizeof(pay);
	for (unsigned i = 0; i < sizeof(pay); i++)
		pay[i] = (uint8_t)(i * 7);
	d.payload = pay;
	d.payload_len = sizeof(pay);
	assert_int_equal(rw_packet_build(&d, RW_LINKTYPE_ETHERNET, 0, b, sizeof(b), &n), RW_OK);
	struct fr f;
	memcpy(f.b, b, n);
	f.n = n;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p), RW_OK);
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	rw_rewrite_init(&rw);
	rw.rkey[rw.n_rkey++] = (struct rw_rw_map32){0x1234, 0xBEEF};
	rw.va[rw.n_va++] = (struct rw_rw_vamap){0x7f0000000000ull, 1ull << 32, 0x55550000ull};
	apply(&f, &rw, &res);
	/* RETH right after the 12-byte BTH (IBA 9.3.3): VA, R_Key, DMA length */
	assert_int_equal(rw_get_be64(f.b + 42 + 12), 0x55551000ull);
	assert_int_equal(rw_get_be32(f.b + 42 + 20), 0xBEEF);
	assert_icrc_ref(f.b, f.n, 14);
	assert_true(res.applied & (1u << RW_RW_RKEY));
	assert_true(res.applied & (1u << RW_RW_VA));
}

static void test_vlan(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	uint8_t orig[256];
	load(&f, UC_HEX);
	size_t n0 = f.n;
	memcpy(orig, f.b, f.n);
	rw_rewrite_init(&rw);
	rw.vlan_op = RW_RW_VLAN_ADD;
	rw.vlan_vid = 100;
	rw.vlan_pcp = 3;
	apply(&f, &rw, &res);
	assert_int_equal(f.n, n0 + 4);
	assert_int_equal(rw_get_be16(f.b + 12), 0x8100);
	assert_int_equal(rw_get_be16(f.b + 14), 3 << 13 | 100);
	assert_int_equal(res.icrc_off, f.n - 4);
	assert_memory_equal(f.b + 16, orig + 12, n0 - 12);
	/* retag, then strip back to the original bytes */
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p), RW_OK);
	rw.vlan_op = RW_RW_VLAN_RETAG;
	rw.vlan_vid = 7;
	rw.vlan_pcp = 5;
	apply(&f, &rw, &res);
	assert_int_equal(rw_get_be16(f.b + 14), 5 << 13 | 7);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p), RW_OK);
	assert_int_equal(f.p.icrc_status, RW_CRC_OK);
	rw.vlan_op = RW_RW_VLAN_STRIP;
	apply(&f, &rw, &res);
	assert_int_equal(f.n, n0);
	assert_memory_equal(f.b, orig, n0);
}

static void test_convert(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	load(&f, UC_HEX);
	size_t n0 = f.n;
	rw_rewrite_init(&rw);
	rw.convert = RW_RW_CONV_TO_V1;
	apply(&f, &rw, &res);
	assert_int_equal(f.n, n0 - 28 + 40);
	assert_int_equal(rw_get_be16(f.b + 12), 0x8915);
	/* GIDs IPv4-mapped (A17.4.5.1) */
	assert_memory_equal(f.b + 14 + 8, "\0\0\0\0\0\0\0\0\0\0\xff\xff\xc0\xa8\x00\x07", 16);
	assert_int_equal(rw_get_le32(f.b + f.n - 4), rw_ref_icrc_rocev1(f.b + 14, f.n - 14 - 4));
	/* and back */
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p), RW_OK);
	assert_int_equal(f.p.carrier, RW_CARRIER_ROCEV1);
	rw.convert = RW_RW_CONV_TO_V2;
	rw.udp_sport = 0xC000;
	apply(&f, &rw, &res);
	assert_int_equal(f.n, n0);
	assert_int_equal(rw_get_be16(f.b + 12), 0x0800);
	assert_int_equal(rw_ref_inet_cksum(f.b + 14, 20), 0);
	assert_icrc_ref(f.b, f.n, 14);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p), RW_OK);
	assert_int_equal(f.p.bth.dqpn, 211);
}

static void test_refused(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	f.n = rw_hex(UC_HEX, f.b, sizeof(f.b));
	/* cut by a snapshot length: decoded as truncated, never rewritten */
	rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n - 6, f.n, &f.p);
	rw_rewrite_init(&rw);
	rw.pkey = 1;
	size_t n = f.n - 6;
	assert_int_equal(rw_rewrite_apply(&rw, NULL, &f.p, f.b, &n, sizeof(f.b), &res), RW_ERR_TRUNCATED);
	assert_int_equal(rw_get_be16(f.b + 42 + 2), 0xFFFF);
	/* no room to push a tag */
	load(&f, UC_HEX);
	rw.vlan_op = RW_RW_VLAN_ADD;
	n = f.n;
	assert_int_equal(rw_rewrite_apply(&rw, NULL, &f.p, f.b, &n, f.n + 2, &res), RW_ERR_NOSPACE);
}

/* The cache of ICRC changes: flows alternating, more than it has ways,
 * every result equal to the reference computation. */
static void test_cache(void **state)
{
	(void)state;
	struct rw_rewrite_cache cache;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	memset(&cache, 0, sizeof(cache));
	for (unsigned i = 0; i < 48; i++) {
		struct fr f;
		load(&f, i % 2 ? UC_HEX : CNP_HEX);
		rw_rewrite_init(&rw);
		/* six different changes in all, more than RW_RW_CACHE_WAYS, two at a
		 * time */
		rw.qpn[rw.n_qpn++] = (struct rw_rw_map32){f.p.bth.dqpn, 0x100 + (i / 16) % 3};
		rw.ip4[rw.n_ip4++] = (struct rw_rw_ip4map){0, 0x0A000000, 0xFF000000};
		assert_int_equal(rw_rewrite_apply(&rw, &cache, &f.p, f.b, &f.n, sizeof(f.b), &res), RW_OK);
		assert_icrc_ref(f.b, f.n, 14);
	}
	assert_true(cache.hits > 0);
	assert_true(cache.misses >= 6);
}

/* Damaged frames (bytes flipped anywhere, cut anywhere, with every
 * rewrite on, the conversions and VLAN pushes included): never a write
 * outside the buffer (ASan in scripts/test.sh's stage 2), and a frame that
 * was rewritten still decodes with a good ICRC when it had one. */
static void test_damaged(void **state)
{
	(void)state;
	uint64_t seed = 12345;
	struct rw_rewrite rw;
	struct rw_rewrite_cache cache;
	memset(&cache, 0, sizeof(cache));
	unsigned checked = 0;
	for (unsigned i = 0; i < 20000; i++) {
		uint8_t b[256];
		size_t n = rw_hex(i % 2 ? UC_HEX : CNP_HEX, b, sizeof(b));
		for (unsigned k = rw_randbits(&seed, 2); k; k--)
			b[rw_randbits(&seed, 8) % n] ^= (uint8_t)(1u << rw_randbits(&seed, 3));
		size_t cut = rw_randbits(&seed, 3) == 0 ? rw_randbits(&seed, 8) % (n + 1) : n;
		struct rw_packet p;
		rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, cut, n, &p);
		int good = p.err == RW_OK && p.icrc_status == RW_CRC_OK;
		rw_rewrite_init(&rw);
		rw.qpn[rw.n_qpn++] = (struct rw_rw_map32){p.bth.dqpn, 7};
		rw.ip4[rw.n_ip4++] = (struct rw_rw_ip4map){p.ipv4.src & 0xFFFF0000, 0x0A090000, 0xFFFF0000};
		rw.psn[rw.n_psn++] = (struct rw_rw_psnoff){0, 3, 1};
		rw.pkey = 0x1234;
		rw.dscp = 5;
		rw.udp_csum = (enum rw_rw_udp_csum)(i % 3);
		rw.vlan_op = (enum rw_rw_vlan_op)(i / 2 % 4);
		rw.convert = (enum rw_rw_convert)(i / 8 % 3);
		rw.vlan_vid = 9;
		struct rw_rewrite_result res;
		size_t len = cut;
		enum rw_err e = rw_rewrite_apply(&rw, i % 5 ? &cache : NULL, &p, b, &len, sizeof(b), &res);
		assert_true(len <= sizeof(b));
		if (e == RW_OK && good) {
			struct rw_packet q;
			assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, len, len, &q), RW_OK);
			assert_int_equal(q.icrc_status, RW_CRC_OK);
			checked++;
		}
	}
	assert_true(checked > 2000);
}

/* A conversion takes what the rewrites before it made: --dscp/--ecn/--ttl
 * into the GRH (A16), --udp-sport and --udp-csum full into the new UDP
 * header, the checksum over the final bytes; and counts only what the
 * converted frame shows. */
static void test_convert_carries_rewrites(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	load(&f, UC_HEX);
	rw_rewrite_init(&rw);
	rw.convert = RW_RW_CONV_TO_V1;
	rw.dscp = 46;
	rw.ecn = 1;
	rw.ttl = 9;
	rw.udp_sport = 7;
	rw.udp_csum = RW_RW_CSUM_FULL;
	apply(&f, &rw, &res);
	assert_int_equal(rw_get_be16(f.b + 12), 0x8915);
	/* GRH (IBA 8.3): IPVer 4 bits, TClass 8, FlowLabel 20; HopLmt at 7 */
	assert_int_equal((rw_get_be16(f.b + 14) >> 4) & 0xFF, 46 << 2 | 1);
	assert_int_equal(f.b[14 + 7], 9);
	assert_int_equal(rw_get_le32(f.b + f.n - 4), rw_ref_icrc_rocev1(f.b + 14, f.n - 14 - 4));
	assert_true(res.applied & (1u << RW_RW_DSCP));
	assert_true(res.applied & (1u << RW_RW_TTL));
	/* no UDP header, no IPv4 header left: none of their work counted */
	assert_false(res.applied & (1u << RW_RW_UDP_SPORT));
	assert_false(res.applied & (1u << RW_RW_UDP_CSUM));
	assert_false(res.ipv4_csum);
	assert_int_equal(res.udp_off, 0);
	assert_int_equal(res.icrc_off, f.n - 4);

	/* back to v2: the port asked, the checksum of the frame as it ends */
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p), RW_OK);
	rw_rewrite_init(&rw);
	rw.convert = RW_RW_CONV_TO_V2;
	rw.udp_sport = 0x4242;
	rw.udp_csum = RW_RW_CSUM_FULL;
	apply(&f, &rw, &res);
	assert_int_equal(rw_get_be16(f.b + 12), 0x0800);
	assert_int_equal(f.b[14 + 1], 46 << 2 | 1);
	assert_int_equal(f.b[14 + 8], 9);
	assert_int_equal(rw_get_be16(f.b + 34), 0x4242);
	assert_icrc_ref(f.b, f.n, 14);
	assert_int_equal(rw_get_be16(f.b + 34 + 6), ref_udp4(f.b + 14));
	assert_true(res.applied & (1u << RW_RW_UDP_SPORT));
	assert_true(res.applied & (1u << RW_RW_UDP_CSUM));
	assert_int_equal(res.udp_off, 34);
	/* without --udp-sport the port comes from the flow label: not counted */
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p), RW_OK);
	rw.convert = RW_RW_CONV_TO_V1;
	rw.udp_sport = -1;
	apply(&f, &rw, &res);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, f.b, f.n, f.n, &f.p), RW_OK);
	rw.convert = RW_RW_CONV_TO_V2;
	rw.udp_csum = RW_RW_CSUM_KEEP;
	apply(&f, &rw, &res);
	assert_int_equal(rw_get_be16(f.b + 34), 0xC000); /* flow label 0 */
	assert_int_equal(rw_get_be16(f.b + 34 + 6), 0);  /* what RoCE NICs send */
	assert_false(res.applied & (1u << RW_RW_UDP_SPORT));
}

/* The ICRC flipped, the UDP checksum right for the frame as sent (RFC 768
 * by rw_ref_inet_cksum): every bit, straight from the decode and after a
 * rewrite that moved the frame (a tag pushed); a zero checksum stays 0. */
static void test_corrupt_icrc(void **state)
{
	(void)state;
	struct fr f;
	struct rw_rewrite rw;
	struct rw_rewrite_result res;
	for (unsigned bit = 0; bit < 32; bit++) {
		load(&f, UC_HEX);
		uint32_t good = rw_get_le32(f.b + f.n - 4);
		assert_int_equal(rw_rewrite_corrupt_icrc(&f.p, NULL, f.b, f.n, bit), RW_OK);
		/* byte bit / 8 on the wire, the little-endian value's bit */
		assert_int_equal(rw_get_le32(f.b + f.n - 4), good ^ (1u << bit));
		assert_int_equal(rw_get_be16(f.b + 34 + 6), ref_udp4(f.b + 14));

		load(&f, UC_HEX);
		rw_rewrite_init(&rw);
		rw.qpn[rw.n_qpn++] = (struct rw_rw_map32){211, 0x77};
		rw.vlan_op = RW_RW_VLAN_ADD;
		rw.vlan_vid = 5;
		apply(&f, &rw, &res);
		assert_int_equal(res.icrc_off, f.n - 4);
		assert_int_equal(res.udp_off, 38);
		assert_int_equal(rw_rewrite_corrupt_icrc(&f.p, &res, f.b, f.n, bit), RW_OK);
		assert_int_equal(rw_get_le32(f.b + f.n - 4),
				 rw_ref_icrc_rocev2(f.b + 18, f.n - 18 - 4) ^ (1u << bit));
		assert_int_equal(rw_get_be16(f.b + 38 + 6), ref_udp4(f.b + 18));
	}
	load(&f, CNP_HEX);
	assert_int_equal(rw_rewrite_corrupt_icrc(&f.p, NULL, f.b, f.n, 3), RW_OK);
	assert_int_equal(rw_get_be16(f.b + 34 + 6), 0);
	assert_int_equal(f.p.icrc_wire ^ rw_get_le32(f.b + f.n - 4), 1u << 3);
	/* not RoCE: nothing to corrupt */
	memset(&res, 0, sizeof(res));
	assert_int_equal(rw_rewrite_corrupt_icrc(&f.p, &res, f.b, f.n, 3), RW_ERR_UNSUPPORTED);
	assert_int_equal(rw_rewrite_corrupt_icrc(&f.p, NULL, f.b, f.n, 32), RW_ERR_UNSUPPORTED);
}

/* Frames the decode stops in (an IPv4 IHL of 4, a UDP datagram to 4791
 * too short for a BTH) still get the MACs and the tag, and say why the
 * rest was left. */
static void test_ethernet_rewrites_of_any_frame(void **state)
{
	(void)state;
	static const char *const cases[] = {
		/* IHL 4 */
		"020000000002 020000000001 0800 44000030000100004011f7c5c0000201c0000202"
		"00010002001c0000 000000000000000000000000000000000000000000000000",
		/* UDP to 4791 of 6 bytes: no room for the BTH */
		"020000000002 020000000001 0800 4500002200010000401100b7c0000201c0000202"
		"000112b7000e0000 000000000000 00000000000000000000000000000000000000000000",
	};
	for (size_t i = 0; i < RW_ARRAY_LEN(cases); i++) {
		uint8_t b[128], orig[128];
		size_t n = rw_hex(cases[i], b, sizeof(b)), n0 = n;
		memcpy(orig, b, n);
		struct rw_packet p;
		enum rw_err de = rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, n, n, &p);
		assert_int_not_equal(de, RW_OK);
		struct rw_rewrite rw;
		struct rw_rewrite_result res;
		rw_rewrite_init(&rw);
		rw.set_src_mac = rw.set_dst_mac = 1;
		memcpy(rw.src_mac, "\x02\x00\x00\x00\x00\x0a", 6);
		memcpy(rw.dst_mac, "\x02\x00\x00\x00\x00\x0b", 6);
		rw.pkey = 0x1234;
		rw.vlan_op = RW_RW_VLAN_ADD;
		rw.vlan_vid = 100;
		assert_int_equal(rw_rewrite_apply(&rw, NULL, &p, b, &n, sizeof(b), &res), de);
		assert_int_equal(n, n0 + 4);
		assert_memory_equal(b, "\x02\x00\x00\x00\x00\x0b\x02\x00\x00\x00\x00\x0a\x81\x00\x00\x64", 16);
		assert_memory_equal(b + 16, orig + 12, n0 - 12);
		assert_int_equal(res.applied, 1u << RW_RW_MAC | 1u << RW_RW_VLAN);
		assert_int_equal(res.icrc_off, 0);
	}
}

/* IEEE 802.3 clause 31 MAC Control is never tagged (and keeps its reserved
 * destination); its source is rewritten. */
static void test_macctrl_untagged(void **state)
{
	(void)state;
	/* PFC (opcode 0x0101), class-enable vector, 8 times, padded to 60 */
	static const char *const PFC_HEX =
		"0180c2000001 b8cef6100002 8808 0101 00ff 0001000200030004000500060007ffff"
		"0000000000000000000000000000000000000000000000000000";
	for (int op = RW_RW_VLAN_ADD; op <= RW_RW_VLAN_RETAG; op++) {
		uint8_t b[128], orig[128];
		size_t n = rw_hex(PFC_HEX, b, sizeof(b)), n0 = n;
		memcpy(orig, b, n);
		struct rw_packet p;
		assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, n, n, &p), RW_OK);
		assert_int_equal(p.carrier, RW_CARRIER_PFC);
		struct rw_rewrite rw;
		struct rw_rewrite_result res;
		rw_rewrite_init(&rw);
		rw.vlan_op = (enum rw_rw_vlan_op)op;
		rw.vlan_vid = 7;
		rw.set_src_mac = rw.set_dst_mac = 1;
		memcpy(rw.src_mac, "\x02\x00\x00\x00\x00\x0a", 6);
		memcpy(rw.dst_mac, "\x02\x00\x00\x00\x00\x0b", 6);
		assert_int_equal(rw_rewrite_apply(&rw, NULL, &p, b, &n, sizeof(b), &res), RW_OK);
		assert_int_equal(n, n0);
		assert_memory_equal(b, orig, 6);
		assert_memory_equal(b + 6, "\x02\x00\x00\x00\x00\x0a", 6);
		assert_memory_equal(b + 12, orig + 12, n0 - 12);
		assert_int_equal(res.applied, 1u << RW_RW_MAC);
	}
}

/* An ERF type 2 (ETH) record (Endace's ERF: 16-byte header, extension
 * headers, 2 bytes of offset and pad, the frame) around the UC frame. */
static size_t erf_rec(uint8_t *r, const struct fr *f, unsigned n_ext, int with_fcs, uint8_t flags,
		      size_t wlen_extra, size_t pad)
{
	size_t o = 16;
	memset(r, 0, 16);
	r[8] = (uint8_t)(2 | (n_ext ? 0x80 : 0));
	r[9] = flags;
	for (unsigned k = 0; k < n_ext; k++, o += 8) {
		memset(r + o, 0, 8);
		r[o] = (uint8_t)((k + 1 < n_ext ? 0x80 : 0) | 16); /* Flow ID */
	}
	r[o++] = 0;
	r[o++] = 0;
	memcpy(r + o, f->b, f->n);
	o += f->n;
	size_t wlen = f->n + wlen_extra;
	if (with_fcs) {
		/* IEEE 802.3 3.2.9, by zlib */
		rw_put_le32(r + o, (uint32_t)crc32(0, f->b, (uInt)f->n));
		o += 4;
		wlen = f->n + 4;
	}
	memset(r + o, 0, pad);
	o += pad;
	rw_put_be16(r + 10, (uint16_t)o);
	rw_put_be16(r + 14, (uint16_t)wlen);
	return o;
}

static void test_erf_to_ethernet(void **state)
{
	(void)state;
	static const struct {
		unsigned n_ext;
		int fcs;
		uint8_t flags;
		size_t wlen_extra, pad;
		int bad_fcs;
		enum rw_err want;
	} cases[] = {
		{0, 1, 0x04, 0, 6, 0, RW_OK},    /* an FCS, record padding */
		{2, 1, 0x04, 0, 2, 0, RW_OK},    /* extension headers */
		{0, 0, 0x04, 0, 2, 0, RW_OK},    /* no FCS (rocewire-mkcap's records) */
		{1, 1, 0x14, 0, 0, 1, RW_OK},    /* RX error: the FCS captured is bad */
		{0, 0, 0x04, 4, 0, 0, RW_OK},    /* the FCS counted by wlen, not captured */
		{0, 0, 0x04, 5, 0, 0, RW_ERR_TRUNCATED}, /* cut by the snap length */
		{0, 1, 0x00, 0, 200, 0, RW_OK},  /* fixed-length record (no vlen) */
	};
	struct fr f;
	load(&f, UC_HEX);
	for (size_t i = 0; i < RW_ARRAY_LEN(cases); i++) {
		uint8_t r[512], out[512];
		size_t n = erf_rec(r, &f, cases[i].n_ext, cases[i].fcs, cases[i].flags, cases[i].wlen_extra,
				   cases[i].pad), len = 0;
		if (cases[i].bad_fcs)
			r[n - 1] ^= 0x5A;
		struct rw_packet p;
		rw_packet_decode(NULL, RW_LINKTYPE_ERF, r, n, n, &p);
		enum rw_err e = rw_rewrite_to_ethernet(RW_LINKTYPE_ERF, &p, r, n, NULL, out, sizeof(out), &len);
		if (e != cases[i].want)
			fail_msg("case %zu: %d, expected %d", i, e, cases[i].want);
		if (e == RW_OK) {
			assert_int_equal(len, f.n);
			assert_memory_equal(out, f.b, f.n);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_masked_fields_keep_icrc),
		cmocka_unit_test(test_qpn_psn_pkey),
		cmocka_unit_test(test_ip_map_and_port),
		cmocka_unit_test(test_bad_icrc_stays_bad),
		cmocka_unit_test(test_rdma_keys),
		cmocka_unit_test(test_vlan),
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_convert_carries_rewrites),
		cmocka_unit_test(test_corrupt_icrc),
		cmocka_unit_test(test_ethernet_rewrites_of_any_frame),
		cmocka_unit_test(test_macctrl_untagged),
		cmocka_unit_test(test_erf_to_ethernet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
