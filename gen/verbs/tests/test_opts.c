/* SPDX-License-Identifier: BSD-3-Clause */
/* Command-line parsing and the combinations rocewire-verbs must refuse. The
 * rules come from the IBTA's list of operations per transport service: RDMA
 * READ and atomics only on RC, RDMA WRITE on RC and UC, UD only SEND, one
 * packet per UD message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "opts.h"

static char err[512];

/* Parses a NULL-terminated list after the program name. */
static int parse(struct rwv_opts *o, const char *first, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;

	argv[argc++] = (char *)"rocewire-verbs";
	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return rwv_opts_parse(argc, argv, o, err, sizeof(err));
}

#define assert_usage(o, needle, ...)                                                   \
	do {                                                                            \
		assert_int_equal(parse((o), __VA_ARGS__, NULL), RWV_EXIT_USAGE);        \
		if (!strstr(err, (needle)))                                             \
			fail_msg("error '%s' does not mention '%s'", err, (needle));     \
	} while (0)

static void test_defaults(void **state)
{
	(void)state;
	struct rwv_opts o;
	assert_int_equal(parse(&o, "server", NULL), -1);
	assert_int_equal(o.role, RWV_SERVER);
	assert_int_equal(o.transport, RWV_RC);
	assert_int_equal(o.op, RWV_OP_SEND);
	assert_int_equal(o.size, 4096);
	assert_int_equal(o.iters, 1000);
	assert_int_equal(o.tcp_port, 18515);
	assert_int_equal(o.gid_index, -1);
	assert_int_equal(o.timeout_s, 10);
	assert_int_equal(o.rnr_retry, 7);
	assert_int_equal(o.given, 0);
}

static void test_client_host_anywhere(void **state)
{
	(void)state;
	struct rwv_opts o;
	assert_int_equal(parse(&o, "client", "10.0.0.1", "-o", "write", "-s", "64K", NULL), -1);
	assert_string_equal(o.host, "10.0.0.1");
	assert_int_equal(o.op, RWV_OP_WRITE);
	assert_int_equal(o.size, 65536);
	assert_int_equal(parse(&o, "client", "--op", "read", "192.168.1.1", "-n", "5", NULL), -1);
	assert_string_equal(o.host, "192.168.1.1");
	assert_int_equal(o.iters, 5);
	assert_true(o.given & RWV_GIVEN_ITERS);
	assert_usage(&o, "needs the server's address", "client", "-o", "send");
	assert_usage(&o, "unexpected argument 'b'", "client", "a", "b");
	assert_usage(&o, "takes no HOST", "server", "somehost");
}

static void test_transport_rules(void **state)
{
	(void)state;
	struct rwv_opts o;
	assert_usage(&o, "needs --transport RC", "client", "h", "-c", "UC", "-o", "read");
	assert_usage(&o, "needs --transport RC", "client", "h", "-c", "ud", "-o", "cas");
	assert_usage(&o, "needs --transport RC", "server", "-c", "UC", "-o", "fadd");
	assert_usage(&o, "needs --transport RC or UC", "client", "h", "-c", "UD", "-o", "write");
	assert_usage(&o, "needs --transport RC or UC", "client", "h", "-c", "UD", "-o",
		     "write_imm");
	assert_usage(&o, "exceeds --mtu", "client", "h", "-c", "UD", "-s", "2048", "-m", "1024");
	assert_usage(&o, "exceeds the largest MTU", "client", "h", "-c", "UD", "-s", "8192");
	assert_int_equal(parse(&o, "client", "h", "-c", "UC", "-o", "write_imm", NULL), -1);
	assert_int_equal(parse(&o, "client", "h", "-c", "UD", "-o", "send_imm", NULL), -1);
	assert_int_equal(o.size, 0); /* UD: the path MTU, decided at setup */
	assert_int_equal(parse(&o, "client", "h", "-c", "UD", "-m", "512", NULL), -1);
	assert_int_equal(o.size, 512);
	assert_int_equal(parse(&o, "client", "h", "-o", "cas", NULL), -1);
	assert_int_equal(o.size, 8);
	assert_usage(&o, "must be 8", "client", "h", "-o", "fadd", "-s", "16");
	assert_usage(&o, "--inline applies to SEND and WRITE", "client", "h", "-o", "read", "-I",
		     "64");
}

static void test_numbers(void **state)
{
	(void)state;
	struct rwv_opts o;
	assert_usage(&o, "not an IB MTU", "server", "-m", "1500");
	assert_usage(&o, "out of range", "server", "-m", "8192");
	assert_usage(&o, "'12x' is not a number", "server", "-n", "12x");
	assert_usage(&o, "is not a number", "server", "-n", "-1");
	assert_usage(&o, "out of range", "server", "-n", "0");
	assert_usage(&o, "out of range", "server", "--tclass", "256");
	assert_usage(&o, "out of range", "server", "--rnr-retry", "8");
	assert_usage(&o, "out of range", "server", "--psn", "0x1000000");
	assert_usage(&o, "out of range", "server", "-s", "2G");
	assert_usage(&o, "unknown transport 'RD'", "server", "-c", "RD");
	assert_usage(&o, "unknown operation", "server", "-o", "xor");
	assert_usage(&o, "unknown option '--frobnicate'", "server", "--frobnicate");
	assert_usage(&o, "needs a value", "server", "--size");
	assert_usage(&o, "unknown mode", "serve");
	assert_int_equal(parse(&o, "server", "--psn", "0xabcdef", "-T", "2", NULL), -1);
	assert_int_equal(o.psn, 0xabcdef);
	assert_int_equal(o.tclass, 2);
	assert_int_equal(parse(&o, "--help", NULL), RWV_EXIT_OK);
}

static void test_error_injection(void **state)
{
	(void)state;
	struct rwv_opts o;
	assert_int_equal(parse(&o, "client", "h", "-o", "write", "--bad-rkey", NULL), -1);
	assert_true(o.bad_rkey);
	assert_usage(&o, "client option", "server", "-o", "write", "--bad-rkey");
	assert_usage(&o, "carries an rkey", "client", "h", "-o", "send", "--bad-rkey");
	assert_usage(&o, "needs --transport RC", "client", "h", "-c", "UC", "-o", "write",
		     "--bad-rkey");
	assert_int_equal(parse(&o, "server", "--no-recv", NULL), -1);
	assert_usage(&o, "server option", "client", "h", "--no-recv");
	assert_usage(&o, "consumes a receive", "server", "-o", "write", "--no-recv");
	assert_usage(&o, "needs --transport RC", "server", "-c", "UD", "--no-recv");
}

static void test_fixed_peer(void **state)
{
	(void)state;
	struct rwv_opts o;
	assert_int_equal(parse(&o, "server", "--fixed-peer", "--remote-qpn", "0x11",
			       "--remote-psn", "100", "--remote-gid", "192.168.1.2", "-o", "write",
			       "--check", NULL), -1);
	assert_true(o.fixed_peer);
	assert_int_equal(o.remote_qpn, 0x11);
	assert_int_equal(o.remote_psn, 100);
	assert_true(o.check);
	assert_int_equal(parse(&o, "server", "--fixed-peer", "--remote-qpn", "17",
			       "--remote-psn", "0", "--remote-gid", "::ffff:192.168.1.2",
			       "--expect-pattern", "a5", "--remote-mac", "02:00:00:00:00:01",
			       NULL), -1);
	assert_true(o.have_fixed_pat);
	assert_true(o.check);
	assert_usage(&o, "needs --remote-qpn", "server", "--fixed-peer", "--remote-psn", "1",
		     "--remote-gid", "1.2.3.4");
	assert_usage(&o, "needs --remote-psn", "server", "--fixed-peer", "--remote-qpn", "1",
		     "--remote-gid", "1.2.3.4");
	assert_usage(&o, "needs --remote-gid", "server", "--fixed-peer", "--remote-qpn", "1",
		     "--remote-psn", "1");
	assert_usage(&o, "is not a GID", "server", "--fixed-peer", "--remote-gid", "nope");
	assert_usage(&o, "not a MAC", "server", "--remote-mac", "02:00:00:00:00");
	assert_usage(&o, "need --fixed-peer", "server", "--remote-qpn", "5");
	assert_usage(&o, "need --fixed-peer", "client", "h", "--peer-json", "f");
	assert_usage(&o, "need --fixed-peer", "server", "--check");
	assert_usage(&o, "--qps must be 1", "server", "--fixed-peer", "--remote-qpn", "1",
		     "--remote-psn", "1", "--remote-gid", "1.2.3.4", "-q", "2");
	assert_usage(&o, "takes no HOST", "client", "h", "--fixed-peer", "--peer-json", "-");
	assert_usage(&o, "needs --peer-json FILE", "client", "--fixed-peer");
	assert_usage(&o, "needs --remote-rkey and --remote-addr", "client", "--fixed-peer",
		     "-o", "write", "--remote-qpn", "17", "--remote-psn", "0", "--remote-gid",
		     "192.0.2.1");
	assert_int_equal(parse(&o, "client", "--fixed-peer", "-o", "write", "--remote-qpn", "17",
			       "--remote-psn", "0", "--remote-gid", "192.0.2.1", "--remote-rkey",
			       "0x1234", "--remote-addr", "0x7f0000000000", NULL), -1);
	assert_int_equal(o.remote_addr, 0x7f0000000000ull);
	assert_int_equal(parse(&o, "client", "--fixed-peer", "--peer-json", "-", NULL), -1);
	assert_usage(&o, "for a --fixed-peer client", "server", "--fixed-peer", "--remote-qpn",
		     "1", "--remote-psn", "1", "--remote-gid", "1.2.3.4", "--peer-json", "x");
	assert_usage(&o, "for a --fixed-peer server", "client", "--fixed-peer", "--peer-json",
		     "-", "--check");
	assert_usage(&o, "not a hex digit", "server", "--expect-pattern", "0xg0");
}

static void test_buffer_bounds(void **state)
{
	(void)state;
	struct rwv_opts o;
	assert_usage(&o, "bytes per QP", "client", "h", "-s", "1G", "-t", "2", "-n", "10");
	assert_usage(&o, "--qps 8 buffers", "client", "h", "-s", "512M", "-t", "2", "-n", "2",
		     "-q", "8");
	assert_int_equal(parse(&o, "client", "h", "-s", "1G", "-t", "1", NULL), -1);
	assert_int_equal(rwv_slots(1000, 64), 64);
	assert_int_equal(rwv_slots(10, 64), 10);
	assert_int_equal(rwv_slot_size(RWV_OP_CAS, 4096), 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_client_host_anywhere),
		cmocka_unit_test(test_transport_rules),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_error_injection),
		cmocka_unit_test(test_fixed_peer),
		cmocka_unit_test(test_buffer_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
