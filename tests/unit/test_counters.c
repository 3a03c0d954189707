/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/counters: the four snapshot forms, written here by hand as the tools
 * print them (ethtool -S, rdma statistic show, grep . .../hw_counters/ *,
 * NAME VALUE), vendor detection from the names, each vendor's mapping of
 * the counters the drivers document, deltas and the bad inputs. Then the
 * report's verdicts on packets built here, where each expected figure is
 * counted by hand from the packets the test sends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "counters.h"
#include "report.h"
#include "rocewire.h"

static void parse_ok(const char *text, struct rw_ctr_snapshot *s)
{
	char err[256] = "";
	int rc = rw_ctr_parse(text, strlen(text), "t", s, err, sizeof(err));
	if (rc != 0)
		fail_msg("parse failed: %s", err);
}

static uint64_t val(const struct rw_ctr_snapshot *s, const char *name)
{
	const struct rw_ctr_value *v = rw_ctr_find(s, name);
	if (!v)
		fail_msg("no counter %s", name);
	return v->value;
}

static void test_sysfs(void **state)
{
	(void)state;
	struct rw_ctr_snapshot s;
	parse_ok("/sys/class/infiniband/rxe0/ports/1/hw_counters/ack_deferred:0\n"
		 "/sys/class/infiniband/rxe0/ports/1/hw_counters/lifespan:10\n"
		 "/sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts:1234\n"
		 "/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts:18446744073709551615\n",
		 &s);
	assert_int_equal(s.format, RW_CTR_FMT_SYSFS);
	assert_int_equal(s.n, 3); /* lifespan is a setting, not a count */
	assert_null(rw_ctr_find(&s, "lifespan"));
	assert_int_equal(val(&s, "rcvd_pkts"), 1234);
	assert_true(val(&s, "sent_pkts") == UINT64_MAX);
	rw_ctr_free(&s);
}

static void test_plain_irdma(void **state)
{
	(void)state;
	struct rw_ctr_snapshot s;
	/* irdma's gen3 names hold spaces: the last field is the value */
	parse_ok("cnpSent 5\r\nRxECNMrkd\t7\n\nRNR sent 2\nRNR received 3\nip4InPkts 100\n", &s);
	assert_int_equal(s.format, RW_CTR_FMT_PLAIN);
	assert_int_equal(val(&s, "RNR sent"), 2);
	assert_int_equal(val(&s, "RxECNMrkd"), 7);
	struct rw_ctr_snapshot none = {0};
	assert_int_equal(rw_ctr_detect(&s, &none), RW_CTR_IRDMA);
	const struct rw_ctr_map *m = rw_ctr_lookup(RW_CTR_IRDMA, "RNR received");
	assert_non_null(m);
	assert_int_equal(m->what, RW_CTR_RNR_NAK_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_IRDMA, "cnpSent")->what, RW_CTR_CNP_SENT);
	assert_int_equal(rw_ctr_lookup(RW_CTR_IRDMA, "cnpHandled")->what, RW_CTR_CNP_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_IRDMA, "RxECNMrkd")->what, RW_CTR_CE_RCVD);
	assert_null(rw_ctr_lookup(RW_CTR_IRDMA, "ip4InPkts")); /* unmapped */
	rw_ctr_free(&s);
}

static void test_ethtool_mlx5(void **state)
{
	(void)state;
	struct rw_ctr_snapshot s;
	parse_ok("NIC statistics:\n"
		 "     rx_packets: 1000\n"
		 "     rx_prio3_pause: 12\n"
		 "     tx_prio3_pause: 4\n"
		 "     rx_pause_ctrl_phy: 1\n"
		 "     rx_vport_rdma_unicast_packets: 900\n",
		 &s);
	assert_int_equal(s.format, RW_CTR_FMT_ETHTOOL);
	assert_int_equal(s.n, 5);
	assert_int_equal(val(&s, "rx_prio3_pause"), 12);
	assert_int_equal(rw_ctr_detect(&s, &s), RW_CTR_MLX5);
	const struct rw_ctr_map *m = rw_ctr_lookup(RW_CTR_MLX5, "rx_prio3_pause");
	assert_int_equal(m->what, RW_CTR_PFC_RX);
	assert_int_equal(m->prio, 3);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "rx_prio6_pause")->prio, 6);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "rx_pause_ctrl_phy")->prio, 8);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "tx_prio3_pause")->what, RW_CTR_NONE);
	assert_non_null(rw_ctr_lookup(RW_CTR_MLX5, "tx_prio3_pause")->why);
	rw_ctr_free(&s);
}

static void test_mlx5_hw_counters(void **state)
{
	(void)state;
	struct rw_ctr_snapshot s;
	parse_ok("/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:3\n"
		 "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_ecn_marked_roce_packets:9\n"
		 "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rp_cnp_handled:2\n"
		 "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence:5\n"
		 "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/packet_seq_err:1\n"
		 "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/local_ack_timeout_err:0\n"
		 "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/duplicate_request:0\n"
		 "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rx_icrc_encapsulated:0\n",
		 &s);
	assert_int_equal(rw_ctr_detect(&s, &s), RW_CTR_MLX5);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "np_cnp_sent")->what, RW_CTR_CNP_SENT);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "np_ecn_marked_roce_packets")->what, RW_CTR_CE_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "rp_cnp_handled")->what, RW_CTR_CNP_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "packet_seq_err")->what, RW_CTR_SEQ_NAK_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "local_ack_timeout_err")->what, RW_CTR_TIMEOUT_RESENDS);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "rx_icrc_encapsulated")->what, RW_CTR_ICRC_BAD_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "out_of_sequence")->what, RW_CTR_NONE);
	assert_int_equal(rw_ctr_lookup(RW_CTR_MLX5, "duplicate_request")->what, RW_CTR_NONE);
	rw_ctr_free(&s);
}

static void test_bnxt_re(void **state)
{
	(void)state;
	struct rw_ctr_snapshot s;
	parse_ok("tx_cnp_pkts 1\nrx_cnp_pkts 2\nrx_ecn_marked_pkts 3\nseq_err_naks_rcvd 4\nrnr_naks_rcvd 5\n"
		 "to_retransmits 6\nrx_roce_good_pkts 7\n",
		 &s);
	assert_int_equal(rw_ctr_detect(&s, &s), RW_CTR_BNXT_RE);
	assert_int_equal(rw_ctr_lookup(RW_CTR_BNXT_RE, "tx_cnp_pkts")->what, RW_CTR_CNP_SENT);
	assert_int_equal(rw_ctr_lookup(RW_CTR_BNXT_RE, "rx_cnp_pkts")->what, RW_CTR_CNP_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_BNXT_RE, "rx_ecn_marked_pkts")->what, RW_CTR_CE_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_BNXT_RE, "seq_err_naks_rcvd")->what, RW_CTR_SEQ_NAK_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_BNXT_RE, "rnr_naks_rcvd")->what, RW_CTR_RNR_NAK_RCVD);
	assert_int_equal(rw_ctr_lookup(RW_CTR_BNXT_RE, "np_cnp_pkts")->what, RW_CTR_CNP_SENT); /* renamed */
	rw_ctr_free(&s);
}

static void test_rdma_links(void **state)
{
	(void)state;
	struct rw_ctr_snapshot s;
	/* two links summed; a wrapped line carries on the link before it */
	parse_ok("link rxe0/1 sent_pkts 12 rcvd_pkts 34 rcvd_seq_err 1\n"
		 "    out_of_seq_request 2 duplicate_request 0\n"
		 "link rxe1/1 sent_pkts 100 rcvd_pkts 200 rcvd_seq_err 0 out_of_seq_request 3 duplicate_request 0\n",
		 &s);
	assert_int_equal(s.format, RW_CTR_FMT_RDMA);
	assert_string_equal(s.links, "rxe0/1,rxe1/1");
	assert_int_equal(s.n, 5);
	assert_int_equal(val(&s, "sent_pkts"), 112);
	assert_int_equal(val(&s, "rcvd_pkts"), 234);
	assert_int_equal(val(&s, "out_of_seq_request"), 5);
	assert_int_equal(rw_ctr_detect(&s, &s), RW_CTR_RXE);
	rw_ctr_free(&s);
}

/* rxe's table follows where the driver increments each counter. */
static void test_rxe_map(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		enum rw_ctr_what what;
	} want[] = {
		{"sent_pkts", RW_CTR_PKTS_SENT},
		{"rcvd_pkts", RW_CTR_PKTS_RCVD_GOOD},
		/* the requester's completer, on a PSN-sequence NAK past its PSN (rxe_comp.c) */
		{"rcvd_seq_err", RW_CTR_SEQ_NAK_RCVD_ADV},
		/* the responder, once per hole, when it sends that NAK (rxe_resp.c) */
		{"out_of_seq_request", RW_CTR_SEQ_NAK_SENT},
		{"rcvd_rnr_err", RW_CTR_RNR_NAK_RCVD},
		{"send_rnr_err", RW_CTR_RNR_NAK_SENT},
		{"duplicate_request", RW_CTR_NONE},
		{"retry_exceeded_err", RW_CTR_NONE},
		{"retry_rnr_exceeded_err", RW_CTR_NONE},
		{"ack_deferred", RW_CTR_NONE},
		{"completer_retry_err", RW_CTR_NONE},
		{"send_err", RW_CTR_NONE},
		{"link_downed", RW_CTR_NONE},
		{"rdma_sends", RW_CTR_NONE},
		{"rdma_recvs", RW_CTR_NONE},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct rw_ctr_map *m = rw_ctr_lookup(RW_CTR_RXE, want[i].name);
		if (!m)
			fail_msg("rxe has no %s", want[i].name);
		if (m->what != want[i].what)
			fail_msg("rxe %s maps to %s", want[i].name, rw_ctr_what_key((enum rw_ctr_what)m->what));
		if (m->what == RW_CTR_NONE && !m->why)
			fail_msg("rxe %s: not comparable without a reason", want[i].name);
	}
	assert_null(rw_ctr_lookup(RW_CTR_RXE, "np_cnp_sent"));
}

static void test_diff(void **state)
{
	(void)state;
	struct rw_ctr_snapshot b, a;
	parse_ok("sent_pkts 10\nrcvd_pkts 50\ngone 1\nrcvd_seq_err 7\n", &b);
	parse_ok("rcvd_seq_err 3\nsent_pkts 25\nrcvd_pkts 50\nnew_one 4\n", &a);
	size_t n;
	struct rw_ctr_delta *d = rw_ctr_diff(&b, &a, &n);
	assert_non_null(d);
	assert_int_equal(n, 5);
	assert_string_equal(d[0].name, "sent_pkts");
	assert_int_equal(d[0].state, RW_CTR_D_OK);
	assert_int_equal(d[0].delta, 15);
	assert_int_equal(d[1].delta, 0);
	assert_string_equal(d[2].name, "gone");
	assert_int_equal(d[2].state, RW_CTR_D_ONLY_BEFORE);
	assert_string_equal(d[3].name, "rcvd_seq_err");
	assert_int_equal(d[3].state, RW_CTR_D_BACKWARDS);
	assert_string_equal(d[4].name, "new_one");
	assert_int_equal(d[4].state, RW_CTR_D_ONLY_AFTER);
	assert_non_null(rw_ctr_delta_why(RW_CTR_D_BACKWARDS));
	assert_null(rw_ctr_delta_why(RW_CTR_D_OK));
	free(d);
	rw_ctr_free(&b);
	rw_ctr_free(&a);
}

static void parse_bad(const char *text, size_t len, const char *want)
{
	struct rw_ctr_snapshot s;
	char err[256] = "";
	assert_int_equal(rw_ctr_parse(text, len, "snap.txt", &s, err, sizeof(err)), -1);
	assert_null(s.v);
	if (!strstr(err, want))
		fail_msg("error '%s' does not say '%s'", err, want);
}

static void test_bad(void **state)
{
	(void)state;
	parse_bad("", 0, "snap.txt: no counters");
	parse_bad("\n\n  \n", 4, "no counters");
	parse_bad("sent_pkts 12\nrcvd_pkts twelve\n", 30, "snap.txt:2: counter 'rcvd_pkts': 'twelve' is not a count");
	parse_bad("sent_pkts 99999999999999999999999\n", 34, "is not a count");
	parse_bad("sent_pkts\n", 10, "snap.txt:1: 'NAME VALUE' expected");
	parse_bad("link rxe0/1 sent_pkts 1 rcvd_pkts\n", 34, "snap.txt:1: counter 'rcvd_pkts' has no value");
	parse_bad("link rxe0/1 sent_pkts 1\nsent_pkts 2\n", 36, "snap.txt:2: not a 'link");
	parse_bad("link rxe0 sent_pkts 1\n", 22, "DEVICE/PORT");
	parse_bad("NIC statistics:\n     rx_packets 12\n", 35, "snap.txt:2: 'name: value' expected");
	parse_bad("/sys/x/hw_counters/sent_pkts:-1\n", 32, "'-1' is not a count");
	parse_bad("a\0b 1\n", 6, "binary");
	/* the file's bytes are quoted, never its control bytes (a terminal) */
	parse_bad("sent_pkts 1\x1b[2J\n", 16, "'1?[2J' is not a count");
	parse_bad("sent_pkts 1234567890123456789012345678901234567890123456789\n", 60, "'1234567890123456789012345678901234567890...'");

	struct rw_ctr_snapshot s;
	char err[256] = "";
	assert_int_equal(rw_ctr_load("/nonexistent/counters.txt", "shown.txt", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "shown.txt: cannot read the counter snapshot"));
}

/* ---- the report's verdicts ---------------------------------------------- */

#define H_REQ 0xc0000202u /* 192.0.2.2, requester */
#define H_RSP 0xc0000201u /* 192.0.2.1, responder */

static void feed(struct cap_report *r, uint32_t src, uint32_t dst, uint8_t opcode, uint32_t dqpn, uint32_t psn,
		 uint8_t syndrome, uint8_t ecn, uint64_t *frame)
{
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.carrier = RW_CARRIER_ROCEV2;
	p.present = RW_P_IPV4;
	p.ipv4.src = src;
	p.ipv4.dst = dst;
	p.ipv4.ttl = 64;
	p.ipv4.ecn = ecn;
	p.udp.sport = 49152;
	p.bth.opcode = opcode;
	p.bth.pkey = 0xFFFF;
	p.bth.dqpn = dqpn;
	p.bth.psn = psn;
	p.aeth.syndrome = syndrome;
	if (rw_opcode(opcode)->flags & RW_OPF_PAYLOAD)
		p.payload_len = 64;
	uint8_t buf[2048];
	size_t len;
	assert_int_equal(rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, buf, sizeof(buf), &len), RW_OK);
	struct rw_packet d;
	assert_int_equal(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, buf, len, len, &d), RW_OK);
	++*frame;
	cap_report_packet(r, &d, 1000000000ull + *frame * 1000, *frame, NULL);
}

static json_t *report_json(const struct rw_ctr_input *in)
{
	struct cap_report_opts o = {.counters = in};
	struct cap_report *r = cap_report_new(&o);
	assert_non_null(r);
	uint64_t f = 0;
	/* requester -> responder QP 0x11: PSN 1, 2, (3 lost), 4 -> sequence NAK
	 * at 3, resend 3, 4; one request CE-marked; the responder sends one
	 * CNP back to the requester's QP 0x22 */
	feed(r, H_REQ, H_RSP, 0x0a, 0x11, 1, 0, RW_ECN_ECT0, &f);   /* RC_RDMA_WRITE_ONLY */
	feed(r, H_RSP, H_REQ, 0x11, 0x22, 1, 0x1f, RW_ECN_ECT0, &f); /* ACK */
	feed(r, H_REQ, H_RSP, 0x0a, 0x11, 2, 0, RW_ECN_CE, &f);
	feed(r, H_RSP, H_REQ, 0x81, 0x22, 0, 0, RW_ECN_ECT0, &f);    /* CNP */
	feed(r, H_REQ, H_RSP, 0x0a, 0x11, 4, 0, RW_ECN_ECT0, &f);
	feed(r, H_RSP, H_REQ, 0x11, 0x22, 3, 0x60, RW_ECN_ECT0, &f); /* NAK PSN sequence error */
	feed(r, H_REQ, H_RSP, 0x0a, 0x11, 3, 0, RW_ECN_ECT0, &f);
	feed(r, H_REQ, H_RSP, 0x0a, 0x11, 4, 0, RW_ECN_ECT0, &f);
	feed(r, H_RSP, H_REQ, 0x11, 0x22, 4, 0x1f, RW_ECN_ECT0, &f);
	/* PSN 5 lost, 6 arrives: a NAK of 5 right after the ACK of 4, which
	 * rxe's completer does not count (its PSN is already 5) */
	feed(r, H_REQ, H_RSP, 0x0a, 0x11, 6, 0, RW_ECN_ECT0, &f);
	feed(r, H_RSP, H_REQ, 0x11, 0x22, 5, 0x60, RW_ECN_ECT0, &f);
	feed(r, H_REQ, H_RSP, 0x0a, 0x11, 5, 0, RW_ECN_ECT0, &f);
	feed(r, H_REQ, H_RSP, 0x0a, 0x11, 6, 0, RW_ECN_ECT0, &f);
	feed(r, H_RSP, H_REQ, 0x11, 0x22, 6, 0x1f, RW_ECN_ECT0, &f);
	cap_report_finish(r, 1000000000ull + f * 1000);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_non_null(m);
	assert_int_equal(cap_report_json(r, m), 0);
	fclose(m);
	cap_report_free(r);
	json_error_t je;
	json_t *j = json_loadb(buf, len, 0, &je);
	free(buf);
	assert_non_null(j);
	return j;
}

static const char *verdict_of(json_t *j, const char *counter, json_int_t *nic, json_int_t *cap)
{
	json_t *arr = json_object_get(j, "nic_counters");
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e)
	{
		if (strcmp(json_string_value(json_object_get(e, "counter")), counter) != 0)
			continue;
		*nic = json_is_integer(json_object_get(e, "nic")) ? json_integer_value(json_object_get(e, "nic")) : -1;
		*cap = json_is_integer(json_object_get(e, "capture")) ? json_integer_value(json_object_get(e, "capture"))
								      : -1;
		return json_string_value(json_object_get(e, "verdict"));
	}
	fail_msg("no nic_counters entry for %s", counter);
	return NULL;
}

static void check(json_t *j, const char *counter, json_int_t nic, json_int_t cap, const char *verdict)
{
	json_int_t n = -2, c = -2;
	const char *v = verdict_of(j, counter, &n, &c);
	if (n != nic || c != cap || strcmp(v, verdict) != 0)
		fail_msg("%s: nic %lld capture %lld %s; expected %lld %lld %s", counter, (long long)n, (long long)c, v,
			 (long long)nic, (long long)cap, verdict);
}

static void test_report_rxe(void **state)
{
	(void)state;
	struct rw_ctr_input in = {.before_name = "before", .after_name = "after", .host = "192.0.2.2"};
	/* the requester's rxe: it sent 8 requests on the wire and one that a
	 * qdisc dropped (9), received 5 ACK/NAKs and the CNP (6: rxe counts a
	 * CNP it receives); of the two sequence NAKs, only the first moved its
	 * PSN on */
	parse_ok("sent_pkts 100\nrcvd_pkts 100\nrcvd_seq_err 0\nout_of_seq_request 0\nrdma_sends 0\n"
		 "retry_exceeded_err 5\nmystery 1\n",
		 &in.before);
	parse_ok("sent_pkts 109\nrcvd_pkts 106\nrcvd_seq_err 1\nout_of_seq_request 0\nrdma_sends 4\n"
		 "retry_exceeded_err 2\nmystery 3\n",
		 &in.after);
	in.vendor = rw_ctr_detect(&in.before, &in.after);
	assert_int_equal(in.vendor, RW_CTR_RXE);
	json_t *j = report_json(&in);
	check(j, "sent_pkts", 9, 8, "capture_fewer");
	check(j, "rcvd_pkts", 6, 6, "agree");
	check(j, "rcvd_seq_err", 1, 1, "agree");
	check(j, "out_of_seq_request", 0, 0, "agree"); /* the requester sent no NAK */
	check(j, "rdma_sends", 4, -1, "not_comparable");
	check(j, "retry_exceeded_err", -1, -1, "not_comparable"); /* went backwards; and off the wire */
	json_t *src = json_object_get(j, "nic_counters_source");
	assert_string_equal(json_string_value(json_object_get(src, "host")), "192.0.2.2");
	assert_string_equal(json_string_value(json_object_get(src, "host_chosen")), "given");
	assert_string_equal(json_string_value(json_object_get(src, "vendor")), "rxe");
	json_t *un = json_object_get(j, "nic_counters_unmapped");
	assert_int_equal(json_array_size(un), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(un, 0), "counter")), "mystery");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(un, 0), "nic")), 2);
	json_decref(j);

	/* the responder, named by its GID */
	in.host = "::ffff:192.0.2.1";
	j = report_json(&in);
	check(j, "out_of_seq_request", 0, 2, "nic_fewer");
	check(j, "sent_pkts", 9, 6, "capture_fewer");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "nic_counters_source"), "host")),
			    "192.0.2.1");
	json_decref(j);

	in.host = "198.51.100.7";
	j = report_json(&in);
	check(j, "sent_pkts", 9, -1, "not_comparable");
	assert_true(json_is_null(json_object_get(json_object_get(j, "nic_counters_source"), "host")));
	json_decref(j);
	rw_ctr_free(&in.before);
	rw_ctr_free(&in.after);
}

static void test_report_mlx5(void **state)
{
	(void)state;
	struct rw_ctr_input in = {.before_name = "b", .after_name = "a", .host = "192.0.2.1"};
	parse_ok("np_cnp_sent 0\nnp_ecn_marked_roce_packets 0\nrp_cnp_handled 0\npacket_seq_err 0\n", &in.before);
	parse_ok("np_cnp_sent 1\nnp_ecn_marked_roce_packets 1\nrp_cnp_handled 0\npacket_seq_err 0\n", &in.after);
	in.vendor = rw_ctr_detect(&in.before, &in.after);
	assert_int_equal(in.vendor, RW_CTR_MLX5);
	json_t *j = report_json(&in);
	check(j, "np_cnp_sent", 1, 1, "agree");                 /* the responder sent the CNP */
	check(j, "np_ecn_marked_roce_packets", 1, 1, "agree"); /* and received the CE mark */
	check(j, "rp_cnp_handled", 0, 0, "agree");
	json_decref(j);
	in.host = "192.0.2.2";
	j = report_json(&in);
	check(j, "packet_seq_err", 0, 2, "nic_fewer"); /* mlx5 counts every sequence NAK received */
	json_decref(j);
	rw_ctr_free(&in.before);
	rw_ctr_free(&in.after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs),
		cmocka_unit_test(test_plain_irdma),
		cmocka_unit_test(test_ethtool_mlx5),
		cmocka_unit_test(test_mlx5_hw_counters),
		cmocka_unit_test(test_bnxt_re),
		cmocka_unit_test(test_rdma_links),
		cmocka_unit_test(test_rxe_map),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_report_rxe),
		cmocka_unit_test(test_report_mlx5),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
