/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON record and the fixed-peer lines: written, read back with jansson's
 * parser, and checked field by field; the packet expectations follow IBA
 * 9.7.4 (a message of n bytes over path MTU m is ceil(n/m) packets, an RDMA
 * READ request consumes one PSN per response packet). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <infiniband/verbs.h>

#include "record.h"

static struct rwv_opts opts;
static struct rwv_qp_rec qps[2];
static struct rwv_run run;

static void make_run(enum rwv_op op, uint32_t size, int mtu)
{
	memset(&opts, 0, sizeof(opts));
	memset(qps, 0, sizeof(qps));
	memset(&run, 0, sizeof(run));
	opts.role = RWV_CLIENT;
	run.opts = &opts;
	run.mode = "tcp";
	snprintf(run.start_time, sizeof(run.start_time), "2024-01-02T03:04:05Z");
	snprintf(run.device, sizeof(run.device), "rxe0");
	run.port = 1;
	snprintf(run.link_layer, sizeof(run.link_layer), "Ethernet");
	run.active_mtu = 1024;
	run.gid_index = 1;
	snprintf(run.gid_type, sizeof(run.gid_type), "RoCE v2");
	snprintf(run.local_gid, sizeof(run.local_gid), "::ffff:192.168.1.1");
	snprintf(run.remote_gid, sizeof(run.remote_gid), "::ffff:192.168.1.2");
	snprintf(run.peer, sizeof(run.peer), "192.168.1.2:18515");
	run.transport = RWV_RC;
	run.op = op;
	run.size = size;
	run.iters = 10;
	run.qps = 2;
	run.mtu = mtu;
	run.tclass = 2;
	run.check = true;
	run.qp = qps;
	run.nqp = 2;
	for (int i = 0; i < 2; i++) {
		qps[i].index = i;
		qps[i].local.qpn = 0x11 + (uint32_t)i;
		qps[i].remote.qpn = 0x21 + (uint32_t)i;
		qps[i].local.psn = i ? 0xfffffe : 100;
		qps[i].remote.psn = 200;
		qps[i].posted = 10;
		qps[i].posted_bytes = 10ull * size;
		qps[i].completed = 10;
		qps[i].completed_bytes = 10ull * size;
		qps[i].wc_total = 10;
		qps[i].wc_by_status[IBV_WC_SUCCESS] = 10;
	}
	run.data_check = "pass";
	snprintf(run.peer_data_check, sizeof(run.peer_data_check), "pass");
}

static json_int_t geti(json_t *o, const char *path)
{
	char buf[128], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		if (json_is_array(o))
			o = json_array_get(o, (size_t)atoi(k));
		else
			o = json_object_get(o, k);
		if (!o)
			fail_msg("record has no %s (stopped at %s)", path, k);
	}
	if (!json_is_integer(o))
		fail_msg("%s is not an integer", path);
	return json_integer_value(o);
}

static const char *gets_(json_t *o, const char *path)
{
	char buf[128], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
		if (!o)
			fail_msg("record has no %s", path);
	}
	if (!json_is_string(o))
		fail_msg("%s is not a string", path);
	return json_string_value(o);
}

static void test_write_read_back(void **state)
{
	(void)state;
	char path[] = "/tmp/rwv-record-XXXXXX", why[300];
	json_error_t je;
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);

	make_run(RWV_OP_WRITE, 4096, 1024);
	run.exit_status = RWV_EXIT_OK;
	assert_int_equal(rwv_record_write(&run, path, why, sizeof(why)), 0);
	json_t *j = json_load_file(path, 0, &je);
	if (!j)
		fail_msg("record does not parse: %s at line %d", je.text, je.line);
	assert_string_equal(gets_(j, "format"), "rocewire-verbs-record");
	assert_int_equal(geti(j, "version"), 1);
	assert_string_equal(gets_(j, "role"), "client");
	assert_string_equal(gets_(j, "result"), "pass");
	assert_string_equal(gets_(j, "device.name"), "rxe0");
	assert_string_equal(gets_(j, "gid.local"), "::ffff:192.168.1.1");
	assert_string_equal(gets_(j, "gid.type"), "RoCE v2");
	assert_int_equal(geti(j, "run.traffic_class"), 2);
	assert_string_equal(gets_(j, "run.op"), "WRITE");
	assert_int_equal(geti(j, "qp.0.local_qpn"), 0x11);
	assert_int_equal(geti(j, "qp.1.remote_qpn"), 0x22);
	assert_int_equal(geti(j, "qp.0.local_psn"), 100);
	assert_int_equal(geti(j, "qp.0.remote_psn"), 200);
	assert_int_equal(geti(j, "qp.0.mtu"), 1024);
	assert_int_equal(geti(j, "qp.0.ops.WRITE.completed_bytes"), 40960);
	assert_int_equal(geti(j, "qp.0.completions.by_status.success"), 10);
	/* 4096 B over MTU 1024: First, Middle, Middle, Last (IBA 9.7.4). */
	assert_int_equal(geti(j, "qp.0.expected_wire.request_packets"), 40);
	assert_int_equal(geti(j, "qp.0.expected_wire.next_psn"), 140);
	/* PSNs are 24 bits: 0xfffffe + 40 wraps to 38. */
	assert_int_equal(geti(j, "qp.1.expected_wire.next_psn"), 38);
	assert_int_equal(geti(j, "totals.completed"), 20);
	assert_string_equal(gets_(j, "data_check.result"), "pass");
	assert_string_equal(gets_(j, "data_check.peer_result"), "pass");
	assert_true(json_is_null(json_object_get(j, "error")));
	json_decref(j);
	unlink(path);

	assert_int_equal(rwv_record_write(&run, "/nonexistent-dir/r.json", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "/nonexistent-dir/r.json.tmp"));
}

static void test_errors(void **state)
{
	(void)state;
	make_run(RWV_OP_WRITE, 64, 1024);
	qps[0].completed = 0;
	qps[0].wc_total = 64;
	qps[0].wc_by_status[IBV_WC_SUCCESS] = 0;
	qps[0].wc_by_status[IBV_WC_REM_ACCESS_ERR] = 1;
	qps[0].wc_by_status[IBV_WC_WR_FLUSH_ERR] = 63;
	qps[0].failed = 64;
	qps[0].nerrors = 1;
	qps[0].errors[0] = (struct rwv_wc_error){.iter = 0, .opcode = "RDMA_WRITE",
						 .status = IBV_WC_REM_ACCESS_ERR, .vendor_err = 0x88};
	qps[1].have_mismatch = true;
	qps[1].mismatched = 1;
	qps[1].mm_what = "value";
	qps[1].mm_want = 0xfedcba9876543210ull;
	qps[1].mm_got = 1;
	run.exit_status = RWV_EXIT_FAIL;
	snprintf(run.error, sizeof(run.error), "QP 0 failed");
	json_t *j = rwv_record_json(&run);
	assert_string_equal(gets_(j, "result"), "fail");
	assert_int_equal(geti(j, "exit_status"), 1);
	assert_string_equal(gets_(j, "error"), "QP 0 failed");
	/* The names are libibverbs' own (ibv_wc_status_str). */
	assert_int_equal(geti(j, "qp.0.completions.by_status.remote access error"), 1);
	assert_int_equal(geti(j, "qp.0.completions.error"), 64);
	assert_string_equal(gets_(j, "qp.0.completion_errors.0.status_str"),
			    "remote access error");
	assert_int_equal(geti(j, "qp.0.completion_errors.0.status"), IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(geti(j, "qp.0.completion_errors.0.vendor_err"), 0x88);
	assert_string_equal(gets_(j, "qp.0.completion_errors.0.opcode"), "RDMA_WRITE");
	assert_string_equal(gets_(j, "qp.1.data_check.first_mismatch.expected"),
			    "0xfedcba9876543210");
	assert_int_equal(geti(j, "qp.0.expected_wire.request_packets"), 0);
	json_decref(j);
}

static void test_wire_expectations(void **state)
{
	(void)state;
	struct rwv_wire w;

	make_run(RWV_OP_READ, 4096, 1024);
	rwv_wire_expect(&run, &qps[0], &w);
	assert_int_equal(w.request_packets, 10);
	assert_int_equal(w.response_packets, 40);
	assert_int_equal(w.psns, 40);
	make_run(RWV_OP_SEND, 1000, 1024);
	rwv_wire_expect(&run, &qps[0], &w);
	assert_int_equal(w.request_packets, 10);
	make_run(RWV_OP_SEND, 1025, 1024);
	rwv_wire_expect(&run, &qps[0], &w);
	assert_int_equal(w.request_packets, 20);
	make_run(RWV_OP_FADD, 8, 256);
	rwv_wire_expect(&run, &qps[0], &w);
	assert_int_equal(w.request_packets, 10);
	assert_int_equal(w.response_packets, 10);
	make_run(RWV_OP_SEND, 1024, 1024);
	run.transport = RWV_UD;
	rwv_wire_expect(&run, &qps[0], &w);
	assert_int_equal(w.request_packets, 10);
}

static void test_fixed_peer_lines(void **state)
{
	(void)state;
	make_run(RWV_OP_WRITE, 4096, 1024);
	opts.role = RWV_SERVER;
	run.mode = "fixed-peer";
	run.slots = 10;
	run.slot_size = 4096;
	qps[0].local.rkey = 0x1234;
	qps[0].local.addr = 0x7f0000001000ull;
	qps[0].local.len = 40960;
	char *s = rwv_fixed_peer_line(&run);
	assert_non_null(s);
	assert_null(strchr(s, '\n'));
	json_error_t je;
	json_t *j = json_loads(s, 0, &je);
	assert_non_null(j);
	assert_string_equal(gets_(j, "event"), "ready");
	assert_int_equal(geti(j, "qpn"), 0x11);
	assert_int_equal(geti(j, "psn"), 100);
	assert_int_equal(geti(j, "expected_psn"), 200);
	assert_int_equal(geti(j, "rkey"), 0x1234);
	assert_int_equal(geti(j, "addr"), 0x7f0000001000ll);
	assert_int_equal(geti(j, "len"), 40960);
	assert_string_equal(gets_(j, "gid"), "::ffff:192.168.1.1");
	assert_int_equal(geti(j, "slots"), 10);
	json_decref(j);
	free(s);

	qps[0].recv_completed = 3;
	qps[0].missing = 7;
	run.data_check = "incomplete";
	run.exit_status = RWV_EXIT_FAIL;
	s = rwv_verdict_line(&run);
	j = json_loads(s, 0, &je);
	assert_non_null(j);
	assert_string_equal(gets_(j, "event"), "verdict");
	assert_string_equal(gets_(j, "result"), "fail");
	assert_string_equal(gets_(j, "data_check"), "incomplete");
	assert_int_equal(geti(j, "missing"), 7);
	json_decref(j);
	free(s);
}

static void test_latency(void **state)
{
	(void)state;
	uint64_t s[100];
	struct rwv_latency l;
	/* 1..100 us, shuffled: nearest-rank p50 = 50, p99 = 99. */
	for (int i = 0; i < 100; i++)
		s[i] = (uint64_t)((i * 37) % 100 + 1) * 1000;
	rwv_latency_compute(s, 100, &l);
	assert_int_equal(l.samples, 100);
	assert_true(l.min_us == 1.0 && l.p50_us == 50.0 && l.p99_us == 99.0 && l.max_us == 100.0);
	assert_true(l.mean_us == 50.5);
	rwv_latency_compute(s, 1, &l);
	assert_true(l.p50_us == l.max_us);
	rwv_latency_compute(s, 0, &l);
	assert_int_equal(l.samples, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_read_back),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wire_expectations),
		cmocka_unit_test(test_fixed_peer_lines),
		cmocka_unit_test(test_latency),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
