/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-replay's option parser (replay/opts.c: rewrite rules, filters,
 * timing), its pacing-error histogram (replay/pace.c) and --filter
 * (replay/filter.c). */
#include "rw_test_util.h"
#include "opts.h"
#include "pace.h"

static int parse(struct rp_opts *o, char *err, const char *const *args, int n)
{
	char *argv[64];
	argv[0] = "rocewire-replay";
	for (int i = 0; i < n; i++)
		argv[i + 1] = (char *)args[i];
	return rp_opts_parse(n + 1, argv, o, err, 512);
}
#define PARSE(o, err, ...)                                                                          \
	parse(o, err, (const char *const[]){__VA_ARGS__},                                           \
	      (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *)))

static void test_rules(void **state)
{
	(void)state;
	struct rp_opts o;
	char err[512];
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--map-ip", "192.168.0.0/16=10.9.0.0/16", "--map-ip",
			       "fd00::/8=fe00::/8", "--map-qpn", "0x11=17", "--psn-offset", "-5", "--psn-offset",
			       "21:100", "--map-va", "0x1000+0x100=0x8000", "--map-rkey", "1=2", "--vlan-add",
			       "100:5", "--dscp", "46", "--ecn", "3", "--udp-sport", "4791", "--dst-mac",
			       "02:00:00:00:00:09", "x.pcap"),
			 0);
	assert_string_equal(o.input, "x.pcap");
	assert_string_equal(o.iface, "lo");
	assert_int_equal(o.rw.n_ip4, 1);
	assert_int_equal(o.rw.ip4[0].from, 0xC0A80000);
	assert_int_equal(o.rw.ip4[0].to, 0x0A090000);
	assert_int_equal(o.rw.ip4[0].mask, 0xFFFF0000);
	assert_int_equal(o.rw.n_ip6, 1);
	assert_int_equal(o.rw.ip6[0].plen, 8);
	assert_int_equal(o.rw.ip6[0].to[0], 0xFE);
	assert_int_equal(o.rw.qpn[0].from, 0x11);
	assert_int_equal(o.rw.qpn[0].to, 17);
	/* -5 is 2^24 - 5, for every QP; 21:100 for QP 21 only */
	assert_int_equal(o.rw.psn[0].offset, 0xFFFFFB);
	assert_true(o.rw.psn[0].all);
	assert_int_equal(o.rw.psn[1].qpn, 21);
	assert_int_equal(o.rw.psn[1].offset, 100);
	assert_false(o.rw.psn[1].all);
	assert_int_equal(o.rw.va[0].from, 0x1000);
	assert_int_equal(o.rw.va[0].len, 0x100);
	assert_int_equal(o.rw.va[0].to, 0x8000);
	assert_int_equal(o.rw.vlan_op, RW_RW_VLAN_ADD);
	assert_int_equal(o.rw.vlan_vid, 100);
	assert_int_equal(o.rw.vlan_pcp, 5);
	assert_int_equal(o.rw.dscp, 46);
	assert_int_equal(o.rw.ecn, 3);
	assert_int_equal(o.rw.udp_sport, 4791);
	assert_memory_equal(o.rw.dst_mac, "\x02\x00\x00\x00\x00\x09", 6);
	assert_true(o.rw.set_dst_mac);
	assert_false(o.rw.set_src_mac);
	assert_int_equal(o.rw.pkey, -1);
}

static void test_filters_timing(void **state)
{
	(void)state;
	struct rp_opts o;
	char err[512];
	assert_int_equal(PARSE(&o, err, "-w", "o.pcap", "--qp", "1,0x22", "--opcode", "rc_send_only,0x11",
			       "--frames", "10-", "--time", "0.5-2", "--pps", "1000", "--loop", "0", "x.pcap"),
			 0);
	assert_int_equal(o.n_qps, 2);
	assert_int_equal(o.qps[1], 0x22);
	assert_int_equal(o.n_opcodes, 2);
	assert_int_equal(o.opcodes[0], 0x04); /* IBA Table 38: RC SEND Only */
	assert_int_equal(o.opcodes[1], 0x11);
	assert_int_equal(o.frame_first, 10);
	assert_true(o.frame_last == UINT64_MAX);
	assert_true(o.have_time && o.time_from == 0.5 && o.time_to == 2);
	assert_int_equal(o.timing, RP_TIME_PPS);
	assert_int_equal(o.loops, 0);
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--frames", "-7", "-x", "2.5", "x.pcap"), 0);
	assert_int_equal(o.frame_first, 1);
	assert_int_equal(o.frame_last, 7);
	assert_int_equal(o.timing, RP_TIME_CAPTURED);
	assert_true(o.multiplier == 2.5);
}

static void test_errors(void **state)
{
	(void)state;
	struct rp_opts o;
	char err[512];
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--map-ip", "10.0.0.0/8=10.0.0.0/16", "x"), -1);
	assert_non_null(strstr(err, "same family and prefix length"));
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--map-ip", "10.0.0.0/8=::/8", "x"), -1);
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--psn-offset", "0x1000000", "x"), -1);
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--frames", "9-3", "x"), -1);
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--frames", "0-3", "x"), -1);
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--time", "2-1", "x"), -1);
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--ecn", "4", "x"), -1);
	assert_string_equal(err, "--ecn: '4': expected a number from 0 to 3");
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--burst", "0", "x"), -1);
	assert_int_equal(PARSE(&o, err, "-i", "lo", "x", "y"), -1);
	assert_non_null(strstr(err, "one capture file only"));
	assert_int_equal(PARSE(&o, err, "-i"), -1);
	assert_non_null(strstr(err, "needs an argument"));
}

static void test_pace_quantiles(void **state)
{
	(void)state;
	static struct rp_pace_err e;
	memset(&e, 0, sizeof(e));
	for (uint64_t v = 1; v <= 10000; v++)
		rp_pace_err_add(&e, v * 100); /* 100 ns .. 1 ms, uniform */
	assert_int_equal(e.n, 10000);
	assert_true(e.sum_ns / (double)e.n == 500050.0);
	uint64_t p99 = rp_pace_err_quantile(&e, 0.99), p50 = rp_pace_err_quantile(&e, 0.5);
	/* 16 buckets per power of two: within 1/16 above the exact value */
	assert_true(p99 >= 990000 && p99 <= 990000 + 990000 / 16);
	assert_true(p50 >= 500000 && p50 <= 500000 + 500000 / 16);
	assert_int_equal(rp_pace_err_quantile(&e, 1.0), 1000000);
	memset(&e, 0, sizeof(e));
	assert_int_equal(rp_pace_err_quantile(&e, 0.99), 0);
	rp_pace_err_add(&e, 7);
	assert_int_equal(rp_pace_err_quantile(&e, 0.99), 7);
}

/* --filter on the UC SEND_ONLY known-answer frame of shared/notes/icrc.md:
 * 192.168.0.7 -> 192.168.0.7, dest QP 211, PSN 13571856, P_Key 0xffff. */
static void test_filter(void **state)
{
	(void)state;
	static const char *const UC_HEX =
		"248a07a8fa22248a07a8fa22 0800 45010040047840004011b4d5c0a80007c0a80007 c00012b7002caca2"
		"2460ffff000000d300cf1710 4630818be28935d90e9a95505401be885e500000 78f353f3";
	uint8_t b[128];
	size_t n = rw_hex(UC_HEX, b, sizeof(b));
	struct rw_packet p;
	struct rp_filter f;
	char err[512];
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, n, n, &p), RW_OK);
	static const struct {
		const char *expr;
		int want;
	} cases[] = {
		{"bth.destqp == 211", 1},
		{"infiniband.bth.destqp == 0xd3 && bth.psn == 13571856", 1},
		{"bth.opcode == UC_SEND_ONLY", 1},
		{"bth.opcode == 0x24 and not bth.p_key != 0xffff", 1},
		{"ip.src == 192.168.0.7 && udp.dstport == 4791", 1},
		{"ip.dst == 192.168.0.8 || (bth.psn > 13571856)", 0},
		{"reth.va", 0},                   /* absent field */
		{"!reth.r_key", 1},
		{"reth.r_key != 5", 0},           /* a comparison with an absent field is false */
		{"frame.len >= 78 && frame.len < 79", 1},
		{"rocev2 && !rocev1 && ip.dsfield.ecn == 1", 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(rp_filter_compile(cases[i].expr, &f, err, sizeof(err)), 0);
		if (rp_filter_match(&f, &p, (uint32_t)n) != cases[i].want)
			fail_msg("%s: expected %d", cases[i].expr, cases[i].want);
	}
	assert_int_equal(rp_filter_compile("bth.destqp ==", &f, err, sizeof(err)), -1);
	assert_string_equal(err, "--filter: column 14: expected a value (a number, an IPv4 address or an opcode name)");
	assert_int_equal(rp_filter_compile("(bth.psn > 1", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expected ')'"));
	/* nesting is bounded (a hostile "((((..." ran the stack out): 64
	 * levels compile, 65 and a megabyte of '(' or '!' are one error */
	{
		static char deep[1 << 20];
		for (int depth = 64; depth <= 65; depth++) {
			memset(deep, 0, sizeof(deep));
			memset(deep, '(', (size_t)depth);
			strcat(deep, "bth.psn");
			memset(deep + strlen(deep), ')', (size_t)depth);
			assert_int_equal(rp_filter_compile(deep, &f, err, sizeof(err)), depth == 64 ? 0 : -1);
		}
		assert_non_null(strstr(err, "nested deeper than 64"));
		memset(deep, '(', sizeof(deep) - 1);
		deep[sizeof(deep) - 1] = 0;
		assert_int_equal(rp_filter_compile(deep, &f, err, sizeof(err)), -1);
		memset(deep, '!', sizeof(deep) - 1);
		assert_int_equal(rp_filter_compile(deep, &f, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "nested deeper than 64"));
	}
	assert_int_equal(rp_filter_compile("bth.psn > 1 )", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unexpected ')'"));
	assert_int_equal(rp_filter_compile("bth.qp == 1", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown field 'bth.qp'"));
}

/* The rules the options make are the rules applied: --udp-sport is the
 * source port of the frames --to-v2 makes (IBA A17: the UDP header RoCEv2
 * adds), not one from the flow label. The RoCEv1 frame is the known-answer
 * UC SEND_ONLY of shared/notes/icrc.md, converted. */
static void test_to_v2_port(void **state)
{
	(void)state;
	static const char *const UC_HEX =
		"248a07a8fa22248a07a8fa22 0800 45010040047840004011b4d5c0a80007c0a80007 c00012b7002caca2"
		"2460ffff000000d300cf1710 4630818be28935d90e9a95505401be885e500000 78f353f3";
	uint8_t b[256];
	size_t n = rw_hex(UC_HEX, b, sizeof(b));
	struct rw_packet p;
	struct rw_rewrite to_v1;
	struct rw_rewrite_result res;
	rw_rewrite_init(&to_v1);
	to_v1.convert = RW_RW_CONV_TO_V1;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, n, n, &p), RW_OK);
	assert_int_equal(rw_rewrite_apply(&to_v1, NULL, &p, b, &n, sizeof(b), &res), RW_OK);
	assert_int_equal(rw_get_be16(b + 12), 0x8915);

	struct rp_opts o;
	char err[512];
	assert_int_equal(PARSE(&o, err, "-i", "lo", "--to-v2", "--udp-sport", "4242", "x.pcap"), 0);
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, b, n, n, &p), RW_OK);
	assert_int_equal(rw_rewrite_apply(&o.rw, NULL, &p, b, &n, sizeof(b), &res), RW_OK);
	assert_int_equal(rw_get_be16(b + 12), 0x0800);
	assert_int_equal(rw_get_be16(b + 14 + 20), 4242);
	assert_true(res.applied & (1u << RW_RW_UDP_SPORT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_filters_timing),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_pace_quantiles),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_to_v2_port),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
