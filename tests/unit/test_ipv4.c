/* SPDX-License-Identifier: BSD-3-Clause */
/* ipv4.h: the IPv4 header of RFC 791 section 3.1 (with the TOS byte split
 * into DSCP and ECN by RFC 2474 / RFC 3168) and its checksum (RFC 1071). */
#include "rw_test_util.h"

/* The IPv4 header of the ConnectX-4 Lx CNP in shared/notes/icrc.md. */
#define CNP_IP "45c2003c718c400040119161 0a001101 0a001201"
/* The IPv4 header of the Scapy UC SEND_ONLY frame in shared/notes/icrc.md. */
#define SCAPY_IP "45010040047840004011b4d5 c0a80007 c0a80007"

static void test_known_cnp(void **state)
{
	(void)state;
	uint8_t b[20];
	rw_hex(CNP_IP, b, sizeof(b));
	struct rw_ipv4 h;
	memset(&h, 0xAA, sizeof(h));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.ihl, 5);          /* 0x45: version 4, IHL 5 */
	assert_int_equal(h.dscp, 0x30);      /* TOS 0xc2 = 110000 10: DSCP 48 (CS6) */
	assert_int_equal(h.ecn, RW_ECN_ECT0); /* ... ECN 10 = ECT(0) (RFC 3168 5) */
	assert_int_equal(h.total_len, 60);   /* 0x003c */
	assert_int_equal(h.id, 0x718c);
	assert_int_equal(h.flags, RW_IPV4_DF); /* 0x4000: 0 1 0, offset 0 */
	assert_int_equal(h.frag_off, 0);
	assert_int_equal(h.ttl, 64);
	assert_int_equal(h.protocol, RW_IPPROTO_UDP);
	assert_int_equal(h.checksum, 0x9161);
	assert_int_equal(h.src, 0x0a001101u); /* 10.0.17.1 */
	assert_int_equal(h.dst, 0x0a001201u); /* 10.0.18.1 */
	assert_null(h.options);
	assert_int_equal(h.options_len, 0);
}

static void test_known_scapy(void **state)
{
	(void)state;
	uint8_t b[20];
	rw_hex(SCAPY_IP, b, sizeof(b));
	struct rw_ipv4 h;
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.dscp, 0);         /* tos=1 */
	assert_int_equal(h.ecn, RW_ECN_ECT1);
	assert_int_equal(h.total_len, 64);
	assert_int_equal(h.id, 0x0478);
	assert_int_equal(h.flags, RW_IPV4_DF);
	assert_int_equal(h.ttl, 64);
	assert_int_equal(h.checksum, 0xb4d5);
	assert_int_equal(h.src, 0xc0a80007u); /* 192.168.0.7 */
	assert_int_equal(h.dst, 0xc0a80007u);
}

static void test_known_options_fragment_bits(void **state)
{
	(void)state;
	/* IHL 6 with the RFC 2113 Router Alert option (0x94 0x04 0x0000);
	 * flags/offset 0x2000 = MF alone would be a fragment, so use 0x8000:
	 * the reserved flag bit only, offset 0. */
	uint8_t b[24];
	rw_hex("46 e3 0020 beef 8000 01 06 0000 c0a80001 c0a80002 94040000", b, sizeof(b));
	struct rw_ipv4 h;
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_OK);
	assert_int_equal(h.ihl, 6);
	assert_int_equal(h.dscp, 0x38);       /* 0xe3 = 111000 11 */
	assert_int_equal(h.ecn, RW_ECN_CE);
	assert_int_equal(h.flags, 0x4);       /* the reserved bit, exposed */
	assert_int_equal(h.frag_off, 0);
	assert_int_equal(h.ttl, 1);
	assert_int_equal(h.protocol, 6);
	assert_int_equal(h.options_len, 4);
	assert_ptr_equal(h.options, b + 20);
	/* Cut anywhere inside the options: still a truncation. */
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_ipv4_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
	/* Maximal header: IHL 15, 40 bytes of options (NOPs then EOL). */
	uint8_t m[60];
	memset(m, 0x01, sizeof(m));
	rw_hex("4f00003c00004000401100000a0000010a000002", m, 20);
	m[59] = 0;
	assert_int_equal(rw_ipv4_decode(m, sizeof(m), &h), RW_OK);
	assert_int_equal(h.ihl, 15);
	assert_int_equal(h.options_len, 40);
	assert_int_equal(rw_ipv4_decode(m, 59, &h), RW_ERR_TRUNCATED);
}

static void test_truncated(void **state)
{
	(void)state;
	uint8_t b[20];
	rw_hex(CNP_IP, b, sizeof(b));
	struct rw_ipv4 h;
	for (size_t l = 0; l < sizeof(b); l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, b, l);
		assert_int_equal(rw_ipv4_decode(c, l, &h), RW_ERR_TRUNCATED);
		free(c);
	}
}

static void test_malformed_unsupported(void **state)
{
	(void)state;
	uint8_t b[20];
	struct rw_ipv4 h;
	/* RFC 791: version must be 4. */
	rw_hex("65c2003c718c400040119161 0a001101 0a001201", b, sizeof(b));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_ERR_MALFORMED);
	rw_hex("05c2003c718c400040119161 0a001101 0a001201", b, sizeof(b));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_ERR_MALFORMED);
	/* RFC 791: "the minimum value for a correct header is 5". */
	for (unsigned ihl = 0; ihl < 5; ihl++) {
		rw_hex(CNP_IP, b, sizeof(b));
		b[0] = (uint8_t)(0x40 | ihl);
		assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_ERR_MALFORMED);
	}
	/* Total length below the header length. */
	rw_hex("4500 0013 718c400040119161 0a001101 0a001201", b, sizeof(b));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_ERR_MALFORMED);
	rw_hex("4500 0014 718c400040119161 0a001101 0a001201", b, sizeof(b));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_OK);
	uint8_t o[24];
	rw_hex("4600 0017 0000 4000 4011 0000 0a000001 0a000002 01010100", o, sizeof(o));
	assert_int_equal(rw_ipv4_decode(o, sizeof(o), &h), RW_ERR_MALFORMED);
	/* Fragments (RFC 791: MF set, or a non-zero fragment offset). */
	rw_hex("45c2003c718c 2000 40119161 0a001101 0a001201", b, sizeof(b));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_ERR_UNSUPPORTED);
	rw_hex("45c2003c718c 0001 40119161 0a001101 0a001201", b, sizeof(b));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_ERR_UNSUPPORTED);
	rw_hex("45c2003c718c 5fff 40119161 0a001101 0a001201", b, sizeof(b));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_ERR_UNSUPPORTED);
	/* DF alone is not a fragment. */
	rw_hex("45c2003c718c 4000 40119161 0a001101 0a001201", b, sizeof(b));
	assert_int_equal(rw_ipv4_decode(b, sizeof(b), &h), RW_OK);
}

static void test_checksum(void **state)
{
	(void)state;
	uint8_t b[20];
	/* A correct header sums to 0 (RFC 1071 "Verification"). */
	rw_hex(CNP_IP, b, sizeof(b));
	assert_int_equal(rw_ipv4_checksum(b, 20), 0);
	rw_hex(SCAPY_IP, b, sizeof(b));
	assert_int_equal(rw_ipv4_checksum(b, 20), 0);
	/* With the field zeroed it yields the value the senders put there. */
	rw_hex(CNP_IP, b, sizeof(b));
	b[10] = b[11] = 0;
	assert_int_equal(rw_ipv4_checksum(b, 20), 0x9161);
	rw_hex(SCAPY_IP, b, sizeof(b));
	b[10] = b[11] = 0;
	assert_int_equal(rw_ipv4_checksum(b, 20), 0xb4d5);
	/* RFC 1071 section 3 example words 0001 f203 f4f5 f6f7: sum ddf2, so the
	 * checksum of those bytes is ~ddf2 = 220d. */
	const uint8_t ex[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	assert_int_equal(rw_ipv4_checksum(ex, 8), 0x220d);
	/* Random headers, with options, against the plain reference. */
	uint64_t s = 99;
	for (int i = 0; i < 1000; i++) {
		uint8_t h[60];
		size_t n = 20 + 4 * (size_t)rw_randbits(&s, 3); /* 20..48 */
		rw_randbytes(&s, h, n);
		assert_int_equal(rw_ipv4_checksum(h, n), rw_ref_inet_cksum(h, n));
	}
}

static void fill_random(uint64_t *s, struct rw_ipv4 *h, uint8_t *opt)
{
	memset(h, 0, sizeof(*h));
	h->dscp = (uint8_t)rw_randbits(s, 6);
	h->ecn = (uint8_t)rw_randbits(s, 2);
	h->id = (uint16_t)rw_rand64(s);
	h->flags = rw_randbits(s, 1) ? RW_IPV4_DF : 0;
	h->frag_off = 0;
	h->ttl = (uint8_t)rw_rand64(s);
	h->protocol = (uint8_t)rw_rand64(s);
	h->checksum = (uint16_t)rw_rand64(s);
	h->src = (uint32_t)rw_rand64(s);
	h->dst = (uint32_t)rw_rand64(s);
	unsigned olen = (unsigned)(rw_randbits(s, 6) % 41);
	if (rw_randbits(s, 1))
		olen = 0;
	for (unsigned i = 0; i < olen; i++)
		opt[i] = (uint8_t)(1 + rw_randbits(s, 7)); /* never EOL */
	h->options = olen ? opt : NULL;
	h->options_len = (uint8_t)olen;
	h->total_len = (uint16_t)(60 + rw_randbits(s, 15));
}

static void test_roundtrip(void **state)
{
	(void)state;
	uint64_t s = 0x4444;
	for (int i = 0; i < 3000; i++) {
		struct rw_ipv4 a, d;
		uint8_t opt[40];
		fill_random(&s, &a, opt);
		a.ihl = 0; /* derived by the encoder */
		unsigned hlen = 20 + ((a.options_len + 3u) & ~3u);
		uint8_t buf[80];
		memset(buf, 0x5A, sizeof(buf));
		size_t w = 0;
		int keep = (int)rw_randbits(&s, 1);
		assert_int_equal(rw_ipv4_encode(&a, keep, buf, sizeof(buf), &w), RW_OK);
		assert_int_equal(w, hlen);
		assert_int_equal(buf[hlen], 0x5A);
		assert_int_equal(buf[0], 0x40 | hlen / 4);
		if (keep)
			assert_int_equal(rw_get_be16(buf + 10), a.checksum);
		else
			assert_int_equal(rw_ref_inet_cksum(buf, hlen), 0);
		assert_int_equal(rw_ipv4_decode(buf, w, &d), RW_OK);
		assert_int_equal(d.ihl, hlen / 4);
		assert_int_equal(d.dscp, a.dscp);
		assert_int_equal(d.ecn, a.ecn);
		assert_int_equal(d.total_len, a.total_len);
		assert_int_equal(d.id, a.id);
		assert_int_equal(d.flags, a.flags);
		assert_int_equal(d.frag_off, 0);
		assert_int_equal(d.ttl, a.ttl);
		assert_int_equal(d.protocol, a.protocol);
		assert_int_equal(d.src, a.src);
		assert_int_equal(d.dst, a.dst);
		assert_int_equal(d.options_len, hlen - 20);
		if (a.options_len) {
			assert_ptr_equal(d.options, buf + 20);
			assert_memory_equal(d.options, opt, a.options_len);
			/* padded with End of Option List (type 0, RFC 791) */
			for (unsigned k = a.options_len; k < hlen - 20u; k++)
				assert_int_equal(buf[20 + k], 0);
		}
		for (size_t cap = 0; cap < hlen; cap++)
			assert_int_equal(rw_ipv4_encode(&a, keep, buf, cap, &w), RW_ERR_NOSPACE);
	}
}

static void test_encode_wire_and_invalid(void **state)
{
	(void)state;
	/* Re-encode the CNP header from its fields: same 20 bytes, checksum
	 * recomputed to the value the NIC sent. */
	struct rw_ipv4 a = { .dscp = 0x30, .ecn = 2, .total_len = 60, .id = 0x718c,
			     .flags = RW_IPV4_DF, .ttl = 64, .protocol = 17,
			     .checksum = 0, .src = 0x0a001101, .dst = 0x0a001201 };
	uint8_t exp[20], buf[20];
	rw_hex(CNP_IP, exp, sizeof(exp));
	size_t w;
	assert_int_equal(rw_ipv4_encode(&a, 0, buf, sizeof(buf), &w), RW_OK);
	assert_int_equal(w, 20);
	assert_memory_equal(buf, exp, 20);
	/* keep_checksum writes the given (wrong) value. */
	a.checksum = 0x1234;
	assert_int_equal(rw_ipv4_encode(&a, 1, buf, sizeof(buf), &w), RW_OK);
	assert_int_equal(buf[10], 0x12);
	assert_int_equal(buf[11], 0x34);
	/* The reserved flag bit (RFC 791: "must be zero") is written as zero. */
	a.flags = 0x4 | RW_IPV4_DF;
	assert_int_equal(rw_ipv4_encode(&a, 0, buf, sizeof(buf), &w), RW_OK);
	assert_int_equal(buf[6] & 0xE0, 0x40);
	a.flags = RW_IPV4_DF;
	/* Field overflow. */
	a.dscp = 64;
	assert_int_equal(rw_ipv4_encode(&a, 0, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.dscp = 63;
	a.ecn = 4;
	assert_int_equal(rw_ipv4_encode(&a, 0, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.ecn = 3;
	a.flags = 8;
	assert_int_equal(rw_ipv4_encode(&a, 0, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.flags = 0;
	a.frag_off = 0x2000;
	assert_int_equal(rw_ipv4_encode(&a, 0, buf, sizeof(buf), &w), RW_ERR_INVALID);
	a.frag_off = 0x1FFF;
	assert_int_equal(rw_ipv4_encode(&a, 0, buf, sizeof(buf), &w), RW_OK);
	uint8_t big[64], opt[41];
	memset(opt, 1, sizeof(opt));
	a.frag_off = 0;
	a.options = opt;
	a.options_len = 41; /* IHL cannot exceed 15 words */
	assert_int_equal(rw_ipv4_encode(&a, 0, big, sizeof(big), &w), RW_ERR_INVALID);
	a.options_len = 40;
	assert_int_equal(rw_ipv4_encode(&a, 0, big, sizeof(big), &w), RW_OK);
	assert_int_equal(w, 60);
	assert_int_equal(big[0], 0x4f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_cnp),
		cmocka_unit_test(test_known_scapy),
		cmocka_unit_test(test_known_options_fragment_bits),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_malformed_unsupported),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_encode_wire_and_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
