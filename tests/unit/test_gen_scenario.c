/* SPDX-License-Identifier: BSD-3-Clause */
/* Scenario files: the samples read as written, every unit, every kind of
 * mistake with its exact one-line message, and the bad files that the
 * end-to-end test feeds to rocewire-gen --check.
 *
 * The expected values are read off the YAML text by hand, never taken from
 * the parser's output. */
#include <dirent.h>
#include <math.h>
#include <unistd.h>

#include "rw_test_util.h"
#include "scenario.h"

#ifndef RW_SOURCE_DIR
#define RW_SOURCE_DIR "."
#endif

#define HOSTS                                                                                               \
	"hosts:\n"                                                                                          \
	"  - {name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"                                         \
	"  - {name: b, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"

static int parse(const char *yaml, struct gen_scenario *s, char *err, size_t cap)
{
	return gen_scenario_parse(yaml, strlen(yaml), "t.yaml", s, err, cap);
}

/* Parses a scenario that must load and returns its first flow's copy. */
static struct gen_flow one_flow(const char *yaml)
{
	struct gen_scenario s;
	char err[512];
	if (parse(yaml, &s, err, sizeof(err)))
		fail_msg("unexpected error: %s", err);
	assert_true(s.n_flows >= 1);
	struct gen_flow f = s.flows[0];
	gen_scenario_free(&s);
	return f;
}

static void expect_error(const char *yaml, const char *msg)
{
	struct gen_scenario s;
	char err[512];
	memset(&s, 0xA5, sizeof(s));
	struct gen_scenario before = s;
	assert_int_equal(parse(yaml, &s, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
	/* The output is left as it was on every error. */
	assert_memory_equal(&s, &before, sizeof(s));
}

static const char *path_of(const char *rel, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s/%s", RW_SOURCE_DIR, rel);
	return buf;
}

static void load_sample(const char *name, struct gen_scenario *s)
{
	char p[1024], err[512];
	snprintf(p, sizeof(p), "%s/samples/scenarios/%s", RW_SOURCE_DIR, name);
	if (gen_scenario_load(p, s, err, sizeof(err)))
		fail_msg("%s", err);
}

/* The 1-based line of the sample that starts with text, read from the file
 * itself: the parser's line numbers are checked against the file, not
 * against a number written here that a comment line above would shift. */
static int sample_line_of(const char *name, const char *text)
{
	char p[1024], buf[512];
	snprintf(p, sizeof(p), "%s/samples/scenarios/%s", RW_SOURCE_DIR, name);
	FILE *f = fopen(p, "r");
	if (!f)
		fail_msg("%s: cannot open", p);
	int line = 0, found = 0;
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (strncmp(buf, text, strlen(text)) == 0) {
			found = line;
			break;
		}
	}
	fclose(f);
	if (!found)
		fail_msg("%s: no line starts with '%s'", p, text);
	return found;
}

static const uint8_t mac_a[6] = { 2, 0, 0, 0, 0, 1 }, mac_b[6] = { 2, 0, 0, 0, 0, 2 };
static const uint8_t ip_a[4] = { 10, 0, 0, 1 }, ip_b[4] = { 10, 0, 0, 2 };

static void test_sample_clean_mix(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_sample("clean-mix.yaml", &s);
	assert_string_equal(s.name, "clean-mix");
	assert_int_equal(s.duration_ns, 5000000);
	assert_int_equal(s.packets, 20000);
	assert_true(s.line_rate_gbps == 100);
	assert_int_equal(s.link_delay_ns, 1000);
	assert_int_equal(s.seed, 1);
	assert_int_equal(s.n_hosts, 2);
	assert_memory_equal(s.hosts[0].mac, mac_a, 6);
	assert_memory_equal(s.hosts[1].mac, mac_b, 6);
	assert_int_equal(s.hosts[0].af, 4);
	assert_memory_equal(s.hosts[0].ip, ip_a, 4);
	assert_memory_equal(s.hosts[1].ip, ip_b, 4);
	/* IPv4-mapped GID. */
	static const uint8_t gid_b[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2 };
	assert_memory_equal(s.hosts[1].gid, gid_b, 16);
	assert_false(s.hosts[0].has_vlan);
	assert_int_equal(s.n_flows, 1);
	assert_int_equal(s.n_faults, 0);
	const struct gen_flow *f = &s.flows[0];
	assert_string_equal(f->name, "mix");
	assert_int_equal(f->src, 0);
	assert_int_equal(f->dst, 1);
	assert_int_equal(f->transport, GEN_RC);
	assert_int_equal(f->op_weight[GEN_OP_WRITE], 3);
	assert_int_equal(f->op_weight[GEN_OP_READ], 1);
	assert_int_equal(f->op_weight[GEN_OP_SEND], 1);
	assert_int_equal(f->op_weight[GEN_OP_SEND_IMM], 0);
	assert_int_equal(f->size.kind, GEN_SIZE_CHOICE);
	assert_int_equal(f->size.n, 3);
	assert_int_equal(f->size.values[0], 64);
	assert_int_equal(f->size.weights[0], 1);
	assert_int_equal(f->size.values[1], 4096);
	assert_int_equal(f->size.weights[1], 3);
	assert_int_equal(f->size.values[2], 65536);
	assert_int_equal(f->size.weights[2], 1);
	assert_int_equal(f->size.min, 64);
	assert_int_equal(f->size.max, 65536);
	assert_int_equal(f->mtu, 1024);
	assert_int_equal(f->rate.unit, GEN_RATE_GBPS);
	assert_true(f->rate.value == 25);
	assert_int_equal(f->qps, 4);
	assert_int_equal(f->src_qpn, 0x100);
	assert_int_equal(f->dst_qpn, 0x200);
	assert_int_equal(f->initial_psn, 0);
	assert_int_equal(f->psn_stride, 0x1000);
	assert_int_equal(f->dscp, 26);
	assert_int_equal(f->ecn, 2);
	assert_int_equal(f->max_rd_atomic, 16);
	assert_int_equal(f->ack_request_interval, 32);
	assert_int_equal(f->rkey, 0x1234);
	assert_int_equal(f->va, 0x10000);
	assert_int_equal(f->remote_len, 1 << 20);
	assert_int_equal(f->pattern_len, 4);
	assert_memory_equal(f->pattern, "RW\x00\x01", 4);
	assert_int_equal(f->line, sample_line_of("clean-mix.yaml", "  - name: mix"));
	gen_scenario_free(&s);
}

static void test_sample_ud_uc(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_sample("ud-uc.yaml", &s);
	assert_string_equal(s.name, "ud-uc");
	assert_int_equal(s.duration_ns, 2000000);
	assert_int_equal(s.packets, 10000);
	assert_int_equal(s.n_flows, 2);
	const struct gen_flow *d = &s.flows[0], *u = &s.flows[1];
	assert_string_equal(d->name, "datagrams");
	assert_int_equal(d->transport, GEN_UD);
	assert_int_equal(d->op_weight[GEN_OP_SEND], 3);
	assert_int_equal(d->op_weight[GEN_OP_SEND_IMM], 1);
	assert_int_equal(d->size.kind, GEN_SIZE_UNIFORM);
	assert_int_equal(d->size.min, 64);
	assert_int_equal(d->size.max, 1024);
	assert_int_equal(d->rate.unit, GEN_RATE_PPS);
	assert_true(d->rate.value == 1e6);
	assert_int_equal(d->qps, 2);
	assert_int_equal(d->src_qpn, 0x300);
	assert_int_equal(d->dst_qpn, 0x400);
	assert_int_equal(d->qkey, 0x11111111);
	assert_int_equal(d->immediate, 0xcafef00d);
	assert_string_equal(u->name, "stream");
	assert_int_equal(u->src, 1);
	assert_int_equal(u->dst, 0);
	assert_int_equal(u->transport, GEN_UC);
	assert_int_equal(u->op_weight[GEN_OP_WRITE], 1);
	assert_int_equal(u->op_weight[GEN_OP_WRITE_IMM], 1);
	assert_int_equal(u->op_weight[GEN_OP_SEND], 1);
	assert_int_equal(u->size.kind, GEN_SIZE_FIXED);
	assert_int_equal(u->size.min, 8192);
	assert_int_equal(u->mtu, 2048);
	assert_int_equal(u->rate.unit, GEN_RATE_PCT);
	assert_true(u->rate.value == 10);
	assert_int_equal(u->src_qpn, 0x500);
	assert_int_equal(u->dst_qpn, 0x600);
	assert_int_equal(u->rkey, 0xabcd);
	assert_int_equal(u->va, 0x200000);
	assert_int_equal(u->remote_len, 256 * 1024);
	gen_scenario_free(&s);
}

static void test_sample_lossy_gbn(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_sample("lossy-gbn.yaml", &s);
	assert_int_equal(s.duration_ns, 10000000);
	assert_int_equal(s.n_flows, 1);
	const struct gen_flow *f = &s.flows[0];
	assert_int_equal(f->op_weight[GEN_OP_WRITE], 3);
	assert_int_equal(f->op_weight[GEN_OP_READ], 1);
	assert_int_equal(f->size.min, 16384);
	assert_int_equal(f->initial_psn, 0x100);
	assert_int_equal(f->ack_request_interval, 16);
	assert_int_equal(f->retransmission_timeout_ns, 500000);
	assert_int_equal(f->retry_count, 7);
	assert_int_equal(s.n_faults, 3);
	const struct gen_fault *d = &s.faults[0];
	assert_int_equal(d->action, GEN_FAULT_DROP);
	assert_int_equal(d->flow, 0);
	assert_int_equal(d->psn_lo, 0x120);
	assert_int_equal(d->psn_hi, 0x124);
	assert_int_equal(d->dir, GEN_DIR_REQUEST);
	assert_int_equal(d->transmission, 1);
	assert_true(d->probability == 1);
	assert_int_equal(d->qpn, -1);
	assert_int_equal(d->opcode, -1);
	assert_int_equal(s.faults[1].opcode, 0x0E); /* RC RDMA READ Response Middle, IBA table 38 */
	assert_int_equal(s.faults[1].count, 1);
	assert_int_equal(s.faults[1].psn_lo, -1);
	assert_int_equal(s.faults[2].opcode, 0x11); /* RC Acknowledge */
	assert_true(fabs(s.faults[2].probability - 0.005) < 1e-12);
	assert_int_equal(s.faults[2].after_ns, 2000000);
	assert_int_equal(s.faults[2].until_ns, 4000000);
	gen_scenario_free(&s);
}

static void test_sample_rnr(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_sample("rnr.yaml", &s);
	const struct gen_flow *f = &s.flows[0];
	assert_int_equal(f->op_weight[GEN_OP_SEND], 1);
	assert_int_equal(f->size.min, 2048);
	assert_int_equal(f->messages, 500);
	assert_int_equal(f->rnr_retry, 3);
	assert_int_equal(f->min_rnr_timer, 14);
	assert_int_equal(f->recv_credits, 64);
	assert_true(f->rate.value == 5);
	assert_int_equal(s.n_faults, 1);
	assert_int_equal(s.faults[0].action, GEN_FAULT_RNR);
	assert_int_equal(s.faults[0].opcode, 0x00); /* RC SEND First */
	assert_int_equal(s.faults[0].every, 100);
	assert_int_equal(s.faults[0].count, 5);
	gen_scenario_free(&s);
}

static void test_sample_ipv6_vlan(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_sample("ipv6-vlan.yaml", &s);
	static const uint8_t ip6a[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a };
	static const uint8_t ip6b[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b };
	for (int i = 0; i < 2; i++) {
		assert_int_equal(s.hosts[i].af, 6);
		assert_true(s.hosts[i].has_vlan);
		assert_int_equal(s.hosts[i].vlan, 100);
		assert_int_equal(s.hosts[i].pcp, 3);
	}
	assert_int_equal(s.hosts[0].mac[5], 0x0a);
	assert_memory_equal(s.hosts[0].ip, ip6a, 16);
	assert_memory_equal(s.hosts[0].gid, ip6a, 16);
	assert_memory_equal(s.hosts[1].gid, ip6b, 16);
	const struct gen_flow *f = &s.flows[0];
	assert_int_equal(f->op_weight[GEN_OP_WRITE], 1);
	assert_int_equal(f->op_weight[GEN_OP_SEND_IMM], 1);
	assert_int_equal(f->mtu, 4096);
	assert_true(f->rate.value == 40);
	assert_int_equal(f->qps, 2);
	assert_int_equal(f->ecn, 1);
	assert_int_equal(f->udp_sport, 0xc000);
	assert_int_equal(f->pkey, 0x8001);
	gen_scenario_free(&s);
}

static void test_sample_atomics(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_sample("atomics.yaml", &s);
	const struct gen_flow *f = &s.flows[0];
	assert_int_equal(f->op_weight[GEN_OP_CMP_SWAP], 1);
	assert_int_equal(f->op_weight[GEN_OP_FETCH_ADD], 3);
	assert_int_equal(f->op_weight[GEN_OP_WRITE], 0);
	assert_int_equal(f->rate.unit, GEN_RATE_PPS);
	assert_true(f->rate.value == 500000);
	assert_int_equal(f->max_rd_atomic, 4);
	assert_int_equal(f->rkey, 0x77);
	assert_int_equal(f->va, 0x1000);
	assert_int_equal(f->remote_len, 8);
	assert_int_equal(f->compare, 0);
	assert_int_equal(f->swap_add, 1);
	assert_int_equal(f->messages, 1000);
	gen_scenario_free(&s);
}

/* immediate: a number, or "sequence" (each message's number on its QP). */
static void test_immediate_sequence(void **state)
{
	(void)state;
	struct gen_flow f = one_flow(HOSTS "flows:\n  - {name: w, from: a, to: b, ops: write_imm, immediate: sequence}\n");
	assert_int_equal(f.immediate_sequence, 1);
	f = one_flow(HOSTS "flows:\n  - {name: w, from: a, to: b, ops: write_imm, immediate: 0x7}\n");
	assert_int_equal(f.immediate_sequence, 0);
	assert_int_equal(f.immediate, 7);
	expect_error(HOSTS "flows:\n  - {name: w, from: a, to: b, ops: write_imm, immediate: sequenze}\n",
		     "t.yaml:5:58: immediate: expected an integer 0..0xffffffff or sequence, got sequenze");
}

static void test_default(void **state)
{
	(void)state;
	struct gen_scenario s;
	assert_int_equal(gen_scenario_default(&s), 0);
	assert_int_equal(s.n_hosts, 2);
	assert_int_equal(s.hosts[0].af, 4);
	assert_int_equal(s.n_flows, 1);
	assert_int_equal(s.n_faults, 0);
	const struct gen_flow *f = &s.flows[0];
	assert_int_equal(f->transport, GEN_RC);
	assert_true(f->op_weight[GEN_OP_WRITE] && f->op_weight[GEN_OP_READ] && f->op_weight[GEN_OP_SEND]);
	assert_true(f->qps > 1);
	/* Bounded: at most 20,000 packets of an MTU of 1024 (~22 MB). */
	assert_int_equal(s.packets, 20000);
	assert_int_equal(s.duration_ns, 10000000);
	assert_int_equal(f->mtu, 1024);
	gen_scenario_free(&s);
	gen_scenario_free(NULL);
}

static void test_flow_defaults(void **state)
{
	(void)state;
	struct gen_flow f;
	gen_flow_defaults(&f);
	assert_int_equal(f.transport, GEN_RC);
	assert_int_equal(f.mtu, 1024);
	assert_int_equal(f.qps, 1);
	assert_int_equal(f.pkey, 0xFFFF);
	assert_int_equal(f.psn_stride, 0x1000);
	assert_int_equal(f.ack_request_interval, 32);
	assert_int_equal(f.rnr_retry, 7);
	assert_int_equal(f.pattern_len, 256);
	/* What the parser starts from is what a minimal flow gets. */
	struct gen_flow g = one_flow(HOSTS "flows: [{from: a, to: b}]\n");
	assert_int_equal(g.mtu, f.mtu);
	assert_int_equal(g.src_qpn, 0x100);
	assert_int_equal(g.dst_qpn, 0x200);
	assert_int_equal(g.retransmission_timeout_ns, 1000000);
	assert_int_equal(g.rate.unit, GEN_RATE_LINE);
	assert_string_equal(g.name, "flow0");
}

static void test_names(void **state)
{
	(void)state;
	static const char *const ops[] = { "send", "send_imm", "send_inv", "write", "write_imm", "read", "cmp_swap",
					   "fetch_add" };
	for (int i = 0; i < GEN_OP_COUNT; i++)
		assert_string_equal(gen_op_name((enum gen_op)i), ops[i]);
	assert_string_equal(gen_transport_name(GEN_RC), "rc");
	assert_string_equal(gen_transport_name(GEN_UC), "uc");
	assert_string_equal(gen_transport_name(GEN_UD), "ud");
	assert_string_equal(gen_fault_action_name(GEN_FAULT_DROP), "drop");
	assert_string_equal(gen_fault_action_name(GEN_FAULT_ECN_MARK), "ecn_mark");
	assert_string_equal(gen_fault_action_name(GEN_FAULT_CORRUPT), "corrupt");
	assert_string_equal(gen_fault_action_name(GEN_FAULT_RNR), "rnr");
	assert_string_equal(gen_fault_action_name(GEN_FAULT_BAD_RKEY), "bad_rkey");
	assert_string_equal(gen_op_name((enum gen_op)99), "?");
	assert_string_equal(gen_transport_name((enum gen_transport)9), "?");
	assert_string_equal(gen_fault_action_name((enum gen_fault_action)9), "?");
}

static uint64_t duration_of(const char *text)
{
	char y[512];
	struct gen_scenario s;
	char err[512];
	snprintf(y, sizeof(y), "duration: %s\n" HOSTS "flows: [{from: a, to: b}]\n", text);
	if (parse(y, &s, err, sizeof(err)))
		fail_msg("%s: %s", text, err);
	uint64_t v = s.duration_ns;
	gen_scenario_free(&s);
	return v;
}

static void test_units_duration(void **state)
{
	(void)state;
	assert_int_equal(duration_of("0"), 0);
	assert_int_equal(duration_of("250ns"), 250);
	assert_int_equal(duration_of("3us"), 3000);
	assert_int_equal(duration_of("3\xc2\xb5s"), 3000);
	assert_int_equal(duration_of("10ms"), 10000000);
	assert_int_equal(duration_of("2s"), 2000000000);
	assert_int_equal(duration_of("1.5us"), 1500);
	assert_int_equal(duration_of("0.25 ms"), 250000);
	assert_int_equal(duration_of("1_000ns"), 1000);
	assert_int_equal(duration_of("18446744073s"), 18446744073000000000ull);
	expect_error("duration: 1.5ns\n" HOSTS "flows: [{from: a, to: b}]\n",
		     "t.yaml:1:11: duration: expected a whole number of nanoseconds, got 1.5ns");
	expect_error("duration: 18446744074s\n" HOSTS "flows: [{from: a, to: b}]\n",
		     "t.yaml:1:11: duration: expected a duration below 584 years, got 18446744074s");
	expect_error("duration: 10MS\n" HOSTS "flows: [{from: a, to: b}]\n",
		     "t.yaml:1:11: duration: expected a duration with a unit (ns, us, ms or s), e.g. 10ms, got 10MS");
	expect_error("link_delay: -1us\n" HOSTS "flows: [{from: a, to: b}]\n",
		     "t.yaml:1:13: link_delay: expected a duration with a unit (ns, us, ms or s), e.g. 10ms, got -1us");
	/* The open traffic-generator name counts bare numbers in ms. */
	struct gen_flow f = one_flow(HOSTS "flows: [{from: a, to: b, retransmission_timeout_value: 3}]\n");
	assert_int_equal(f.retransmission_timeout_ns, 3000000);
	f = one_flow(HOSTS "flows: [{from: a, to: b, retransmission_timeout: 0}]\n");
	assert_int_equal(f.retransmission_timeout_ns, 0);
}

static struct gen_size size_of(const char *text)
{
	char y[512];
	snprintf(y, sizeof(y), HOSTS "flows: [{from: a, to: b, size: %s}]\n", text);
	return one_flow(y).size;
}

static void test_units_size(void **state)
{
	(void)state;
	assert_int_equal(size_of("0").min, 0);
	assert_int_equal(size_of("100B").min, 100);
	assert_int_equal(size_of("4KiB").min, 4096);
	assert_int_equal(size_of("1.5KiB").min, 1536);
	assert_int_equal(size_of("2MiB").min, 2 << 20);
	assert_int_equal(size_of("1GiB").min, 1 << 30);
	assert_int_equal(size_of("2GiB").min, 1u << 31);
	assert_int_equal(size_of("0x1000").min, 4096);
	assert_int_equal(size_of("65_536").min, 65536);
	struct gen_size z = size_of("{uniform: [64, 64KiB]}");
	assert_int_equal(z.kind, GEN_SIZE_UNIFORM);
	assert_int_equal(z.min, 64);
	assert_int_equal(z.max, 65536);
	z = size_of("{choice: [64, 4096]}");
	assert_int_equal(z.kind, GEN_SIZE_CHOICE);
	assert_int_equal(z.n, 2);
	assert_int_equal(z.weights[1], 1);
	/* A weight of 0 keeps a size listed but never drawn. */
	z = size_of("{choice: {64: 0, 128: 2}}");
	assert_int_equal(z.min, 128);
	assert_int_equal(z.max, 128);
	struct gen_flow f = one_flow(HOSTS "flows: [{from: a, to: b, mtu: 4KiB, remote_len: 0x100000}]\n");
	assert_int_equal(f.mtu, 4096);
	assert_int_equal(f.remote_len, 0x100000);
	expect_error(HOSTS "flows: [{from: a, to: b, size: 1.3B}]\n",
		     "t.yaml:4:32: size: expected a whole number of bytes, got 1.3B");
	expect_error(HOSTS "flows: [{from: a, to: b, size: 3GiB}]\n",
		     "t.yaml:4:32: size: expected 0..2147483648 bytes, got 3GiB");
	expect_error(HOSTS "flows: [{from: a, to: b, size: {uniform: [64, 32]}}]\n",
		     "t.yaml:4:47: size: uniform: expected max >= min (64), got 32");
	expect_error(HOSTS "flows: [{from: a, to: b, size: {choice: {64: 0}}}]\n",
		     "t.yaml:4:41: size: choice: expected at least one size with a weight above 0");
	expect_error(HOSTS "flows: [{from: a, to: b, size: {normal: 5}}]\n",
		     "t.yaml:4:33: size: unknown key 'normal'");
	/* A WRITE must fit the remote buffer the flow names. */
	expect_error(HOSTS "flows: [{from: a, to: b, size: 8KiB, remote_len: 4KiB}]\n",
		     "t.yaml:4:50: remote_len: expected at least the largest WRITE/READ message (8192 bytes), got 4096");
	/* ... and a larger one grows the default buffer. */
	f = one_flow(HOSTS "flows: [{from: a, to: b, size: 4MiB}]\n");
	assert_int_equal(f.remote_len, 4 << 20);
}

static struct gen_rate rate_of(const char *text)
{
	char y[512];
	snprintf(y, sizeof(y), HOSTS "flows: [{from: a, to: b, rate: %s}]\n", text);
	return one_flow(y).rate;
}

static void test_units_rate(void **state)
{
	(void)state;
	assert_int_equal(rate_of("line").unit, GEN_RATE_LINE);
	struct gen_rate r = rate_of("50%");
	assert_int_equal(r.unit, GEN_RATE_PCT);
	assert_true(r.value == 50);
	r = rate_of("12.5%");
	assert_true(r.value == 12.5);
	r = rate_of("10Gbps");
	assert_int_equal(r.unit, GEN_RATE_GBPS);
	assert_true(r.value == 10);
	r = rate_of("500Mbps");
	assert_true(fabs(r.value - 0.5) < 1e-12);
	r = rate_of("100Kbps");
	assert_true(fabs(r.value - 0.0001) < 1e-15);
	r = rate_of("1000000bps");
	assert_true(fabs(r.value - 0.001) < 1e-15);
	r = rate_of("1.6Tbps");
	assert_true(fabs(r.value - 1600) < 1e-9);
	r = rate_of("2Mpps");
	assert_int_equal(r.unit, GEN_RATE_PPS);
	assert_true(r.value == 2e6);
	r = rate_of("300Kpps");
	assert_true(r.value == 3e5);
	r = rate_of("100pps");
	assert_true(r.value == 100);
	expect_error(HOSTS "flows: [{from: a, to: b, rate: 0Gbps}]\n",
		     "t.yaml:4:32: rate: expected a bit rate above 0 and at most 1600Gbps, got 0Gbps");
	/* Bytes per second are not a bit rate. */
	expect_error(HOSTS "flows: [{from: a, to: b, rate: 10GBps}]\n",
		     "t.yaml:4:32: rate: expected a rate: line, a percentage (50%), a bit rate (10Gbps) or a packet rate "
		     "(2Mpps), got 10GBps");
	expect_error("line_rate: 100GBps\n" HOSTS "flows: [{from: a, to: b}]\n",
		     "t.yaml:1:12: line_rate: expected a bit rate with bps, Kbps, Mbps, Gbps or Tbps, e.g. 100Gbps, got 100GBps");
	r = rate_of("10gbps");
	assert_true(r.value == 10);
	expect_error(HOSTS "flows: [{from: a, to: b, rate: 101%}]\n",
		     "t.yaml:4:32: rate: expected a percentage above 0 and at most 100%, got 101%");
	expect_error(HOSTS "flows: [{from: a, to: b, rate: inf}]\n",
		     "t.yaml:4:32: rate: expected a rate: line, a percentage (50%), a bit rate (10Gbps) or a packet rate "
		     "(2Mpps), got inf");
	struct gen_scenario s;
	char err[512];
	assert_int_equal(parse("line_rate: 400Gbps\n" HOSTS "flows: [{from: a, to: b}]\n", &s, err, sizeof(err)), 0);
	assert_true(s.line_rate_gbps == 400);
	gen_scenario_free(&s);
	assert_int_equal(parse("line_rate: 25000Mbps\n" HOSTS "flows: [{from: a, to: b}]\n", &s, err, sizeof(err)), 0);
	assert_true(s.line_rate_gbps == 25);
	gen_scenario_free(&s);
	expect_error("line_rate: 100\n" HOSTS "flows: [{from: a, to: b}]\n",
		     "t.yaml:1:12: line_rate: expected a bit rate with bps, Kbps, Mbps, Gbps or Tbps, e.g. 100Gbps, got 100");
}

static void test_units_probability_and_ints(void **state)
{
	(void)state;
	struct gen_scenario s;
	char err[512];
	assert_int_equal(parse(HOSTS "flows: [{name: w, from: a, to: b}]\n"
				     "faults:\n"
				     "  - {action: ecn_mark, probability: 1%}\n"
				     "  - {action: corrupt, probability: 1, opcode: 10, qpn: 0x200, psn: 7}\n"
				     "  - {action: drop, probability: 0.125, dir: any, every: 0b101}\n",
			       &s, err, sizeof(err)),
			 0);
	assert_int_equal(s.n_faults, 3);
	assert_true(fabs(s.faults[0].probability - 0.01) < 1e-15);
	assert_int_equal(s.faults[0].action, GEN_FAULT_ECN_MARK);
	assert_true(s.faults[1].probability == 1);
	assert_int_equal(s.faults[1].opcode, 10);
	assert_int_equal(s.faults[1].qpn, 0x200);
	assert_int_equal(s.faults[1].psn_lo, 7);
	assert_int_equal(s.faults[1].psn_hi, 7);
	assert_true(s.faults[2].probability == 0.125);
	assert_int_equal(s.faults[2].every, 5);
	assert_int_equal(s.faults[2].line, 8);
	gen_scenario_free(&s);
	struct gen_flow f = one_flow(HOSTS "flows: [{from: a, to: b, messages: 18446744073709551615, "
					   "va: 0xffffffffffff0000, remote_len: 64KiB}]\n");
	assert_true(f.messages == UINT64_MAX);
	assert_true(f.va == 0xffffffffffff0000ull);
	expect_error(HOSTS "flows: [{from: a, to: b, va: 0xffffffffffff0000, remote_len: 65537}]\n",
		     "t.yaml:4:62: remote_len: va + remote_len passes 2^64");
	expect_error(HOSTS "flows: [{from: a, to: b, rkey: 0x1_0000_0000}]\n",
		     "t.yaml:4:32: rkey: expected 0..0xffffffff, got 0x1_0000_0000");
	expect_error(HOSTS "flows: [{from: a, to: b, dscp: 1_}]\n",
		     "t.yaml:4:32: dscp: expected an integer 0..63, got 1_");
	expect_error(HOSTS "flows: [{from: a, to: b, dscp: \"\"}]\n",
		     "t.yaml:4:32: dscp: expected an integer, got nothing");
	expect_error(HOSTS "flows: [{from: a, to: b, dscp: }]\n",
		     "t.yaml:4:32: dscp: expected an integer, got nothing");
}

static void test_flow_features(void **state)
{
	(void)state;
	/* The defaults section, a flow overriding it, and ops as a list. */
	struct gen_scenario s;
	char err[512];
	assert_int_equal(parse(HOSTS "defaults: {mtu: 4096, dscp: 10, ops: [send, write_imm]}\n"
				     "flows:\n"
				     "  - {name: x, from: a, to: b}\n"
				     "  - {name: y, from: a, to: b, dscp: 12, ops: read, ecn: ce}\n"
				     "  - {name: z, from: b, to: a, qps: 3, ecn: non_ect, src_qpn: 0x200}\n",
			       &s, err, sizeof(err)),
			 0);
	assert_int_equal(s.flows[0].mtu, 4096);
	assert_int_equal(s.flows[0].dscp, 10);
	assert_int_equal(s.flows[0].op_weight[GEN_OP_SEND], 1);
	assert_int_equal(s.flows[0].op_weight[GEN_OP_WRITE_IMM], 1);
	assert_int_equal(s.flows[0].op_weight[GEN_OP_WRITE], 0);
	assert_int_equal(s.flows[1].dscp, 12);
	assert_int_equal(s.flows[1].op_weight[GEN_OP_READ], 1);
	assert_int_equal(s.flows[1].op_weight[GEN_OP_SEND], 0);
	assert_int_equal(s.flows[1].ecn, 3);
	assert_int_equal(s.flows[2].ecn, 0);
	/* QPNs: the given 0x200..0x202 on b are z's; the others get the first
	 * free ranges from 0x100 (requesters) and 0x200 (responders) on
	 * their host: z's responder on a has 0x200 to itself. */
	assert_int_equal(s.flows[2].src_qpn, 0x200);
	assert_int_equal(s.flows[2].dst_qpn, 0x200);
	assert_int_equal(s.flows[0].src_qpn, 0x100);
	assert_int_equal(s.flows[0].dst_qpn, 0x203);
	assert_int_equal(s.flows[1].src_qpn, 0x101);
	assert_int_equal(s.flows[1].dst_qpn, 0x204);
	gen_scenario_free(&s);
	/* OTG names of the retry settings. */
	struct gen_flow f = one_flow(HOSTS "flows: [{from: a, to: b, retransmission_retry_count: 2, "
					   "rnr_nak_retry_count: 1}]\n");
	assert_int_equal(f.retry_count, 2);
	assert_int_equal(f.rnr_retry, 1);
	/* UD without a size sends whole packets; ecn by number; external. */
	f = one_flow(HOSTS "flows: [{from: a, to: b, transport: UD, ops: send, mtu: 512, ecn: 1, "
			   "responder: external, udp_sport: 65535}]\n");
	assert_int_equal(f.size.min, 512);
	assert_int_equal(f.ecn, 1);
	assert_true(f.external_responder);
	assert_int_equal(f.udp_sport, 65535);
	/* UD without ops sends (it has no WRITE). */
	f = one_flow(HOSTS "flows: [{from: a, to: b, transport: ud}]\n");
	assert_int_equal(f.op_weight[GEN_OP_SEND], 1);
	assert_int_equal(f.op_weight[GEN_OP_WRITE], 0);
	assert_int_equal(f.size.min, 1024);
	/* SEND with Invalidate names the flow's rkey unless told. */
	f = one_flow(HOSTS "flows: [{from: a, to: b, ops: send_inv, rkey: 0x99}]\n");
	assert_int_equal(f.invalidate_rkey, 0x99);
	f = one_flow(HOSTS "flows: [{from: a, to: b, ops: send_inv, invalidate_rkey: 0x42, start: 1ms, stop: 2ms}]\n");
	assert_int_equal(f.invalidate_rkey, 0x42);
	assert_int_equal(f.start_ns, 1000000);
	assert_int_equal(f.stop_ns, 2000000);
	/* PCP alone rides a priority tag; a GID can be given. */
	assert_int_equal(parse("hosts:\n"
			       "  - {name: a, mac: \"02-00-00-00-00-01\", ip: 10.0.0.1, pcp: 5}\n"
			       "  - {name: b, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2, gid: \"fe80::2\", vlan: 0}\n"
			       "flows: [{from: a, to: b, pattern: \"0xdeadbeef\"}]\n",
			       &s, err, sizeof(err)),
			 0);
	assert_true(s.hosts[0].has_vlan);
	assert_int_equal(s.hosts[0].vlan, 0);
	assert_int_equal(s.hosts[0].pcp, 5);
	assert_int_equal(s.hosts[1].gid[0], 0xfe);
	assert_int_equal(s.hosts[1].gid[15], 2);
	assert_int_equal(s.flows[0].pattern_len, 4);
	assert_memory_equal(s.flows[0].pattern, "\xde\xad\xbe\xef", 4);
	assert_string_equal(s.name, "t");
	gen_scenario_free(&s);
}

/* Each class of mistake, inline, with its exact message. */
static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *yaml, *msg;
	} cases[] = {
		{ HOSTS "flows: [{from: a, to: b, transport: rd}]\n",
		  "t.yaml:4:37: transport: expected rc, uc or ud, got rd" },
		{ HOSTS "flows: [{from: a, to: b, ops: {write: 1, write: 2}}]\n",
		  "t.yaml:4:42: ops: duplicate key 'write' (first given at line 4)" },
		{ HOSTS "flows: [{from: a, to: b, ops: {write: 0}}]\n",
		  "t.yaml:4:31: ops: expected at least one operation with a weight above 0" },
		{ HOSTS "flows: [{from: a, to: b, ops: [send, send]}]\n", "t.yaml:4:38: ops: send listed twice" },
		{ HOSTS "flows: [{from: a, to: b, ops: {send: -1}}]\n",
		  "t.yaml:4:38: ops: send: expected an integer 0..1000000 (not negative), got -1" },
		{ HOSTS "flows: [{from: a, to: b, ops: fetch_ad}]\n",
		  "t.yaml:4:31: ops: expected an operation: send, send_imm, send_inv, write, write_imm, read, cmp_swap or "
		  "fetch_add, got fetch_ad" },
		{ HOSTS "flows: [{from: a, to: b, transport: uc, ops: fetch_add}]\n",
		  "t.yaml:4:46: ops: fetch_add is not an operation of uc (IBA table 38; uc: send, send_imm, write, write_imm)" },
		{ HOSTS "flows: [{from: a, to: b, transport: ud, ops: send, rkey: 1}]\n",
		  "t.yaml:4:52: rkey: applies to RC and UC flows only, this flow is ud" },
		{ HOSTS "flows: [{from: a, to: b, transport: uc, ops: send, max_rd_atomic: 2}]\n",
		  "t.yaml:4:52: max_rd_atomic: applies to RC flows only, this flow is uc" },
		{ HOSTS "flows: [{from: a, to: b, max_rd_atomic: 17}]\n", "t.yaml:4:41: max_rd_atomic: expected 1..16, got 17" },
		{ HOSTS "flows: [{from: a, to: b, retry_count: 8}]\n", "t.yaml:4:39: retry_count: expected 0..7, got 8" },
		{ HOSTS "flows: [{from: a, to: b, min_rnr_timer: 32}]\n", "t.yaml:4:41: min_rnr_timer: expected 0..31, got 32" },
		{ HOSTS "flows: [{from: a, to: b, ack_request_interval: 129}]\n",
		  "t.yaml:4:48: ack_request_interval: expected 0..128, got 129" },
		{ HOSTS "flows: [{from: a, to: b, pkey: 0x8000}]\n",
		  "t.yaml:4:32: pkey: expected a valid P_Key (base 0x0000 is the invalid P_Key), got 0x8000" },
		{ HOSTS "flows: [{from: a, to: b, ecn: ect2}]\n",
		  "t.yaml:4:31: ecn: expected not-ect, ect0, ect1, ce or 0..3, got ect2" },
		{ HOSTS "flows: [{from: a, to: b, qps: 0}]\n", "t.yaml:4:31: qps: expected 1..65536, got 0" },
		{ HOSTS "flows: [{from: a, to: b, udp_sport: 65535, qps: 2}]\n",
		  "t.yaml:4:37: udp_sport: 65535 + 2 QPs passes port 65535" },
		{ HOSTS "flows: [{from: a, to: b, responder: real}]\n",
		  "t.yaml:4:37: responder: expected generated or external, got real" },
		{ HOSTS "flows: [{from: a, to: b, name: \"w x\"}]\n",
		  "t.yaml:4:32: name: expected a name of letters, digits, '-', '_' or '.', got w x" },
		{ HOSTS "flows: [{from: a, to: b, name: abcdefghijabcdefghijabcdefghijabc}]\n",
		  "t.yaml:4:32: name: expected a name of at most 31 characters, got abcdefghijabcdefghijabcdefghijabc" },
		{ HOSTS "flows: [{from: a, to: a}]\n", "t.yaml:4:23: to: expected a host other than from ('a')" },
		{ HOSTS "flows: [{from: [a], to: b}]\n", "t.yaml:4:16: from: expected a host name, got a sequence" },
		{ HOSTS "flows: []\n", "t.yaml:4:8: flows: expected a sequence of at least one flow, got a sequence" },
		{ HOSTS "flows: [7]\n", "t.yaml:4:9: flow: expected a mapping, got 7" },
		{ "hosts: [{name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}]\nflows: []\n",
		  "t.yaml:1:8: hosts: expected a sequence of at least two hosts, got a sequence" },
		{ "hosts:\n  - {name: a, ip: 10.0.0.1}\n  - {name: b}\nflows: []\n",
		  "t.yaml:2:5: host: expected name, mac and ip; mac is missing" },
		{ "hosts:\n  - {name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
		  "  - {name: b, mac: \"02:00:00:00:00:01\", ip: 10.0.0.2}\nflows: []\n",
		  "t.yaml:3:20: mac: already host 'a''s address" },
		{ "hosts:\n  - {name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
		  "  - {name: b, mac: \"02:00:00:00:00:02\", ip: 10.0.0.1}\nflows: []\n",
		  "t.yaml:3:45: ip: already host 'a''s address" },
		{ "hosts:\n  - {name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1, gid: 10.0.0.1}\n"
		  "  - {name: b, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n",
		  "t.yaml:2:60: gid: expected a GID in IPv6 notation (fe80::1, ::ffff:10.0.0.1), got 10.0.0.1" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{flow: w}]\n",
		  "t.yaml:5:10: fault: expected an action (drop, ecn_mark, corrupt, rnr or bad_rkey)" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: drop, opcode: 0x1f}]\n",
		  "t.yaml:5:33: opcode: expected an opcode the spec defines (0x1f is RESERVED), got 0x1f" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: drop, opcode: 256}]\n",
		  "t.yaml:5:33: opcode: expected an opcode: 0..255 or a name like RC_RDMA_WRITE_ONLY, got 256" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: drop, flow: w, opcode: UD_SEND_ONLY}]\n",
		  "t.yaml:5:42: opcode: UD_SEND_ONLY is not an opcode of flow 'w' (rc)" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: drop, dir: request, opcode: rc_acknowledge}]\n",
		  "t.yaml:5:47: opcode: RC_ACKNOWLEDGE is not a request" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: rnr, dir: response}]\n",
		  "t.yaml:5:29: dir: rnr acts on requests, got response" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: rnr, flow: w}]\n",
		  "t.yaml:5:30: flow: rnr needs a flow with send or write_imm operations ('w' has none)" },
		{ HOSTS "flows: [{name: w, from: a, to: b, ops: send}]\nfaults: [{action: rnr}]\n",
		  "t.yaml:5:10: fault: rnr hits every resend of a request it hits and flow 'w' retries RNR without "
		  "limit (rnr_retry 7): the run would never end; give the fault a count, transmission, every, until "
		  "or a probability below 1, or the flow an rnr_retry below 7" },
		{ HOSTS "flows: [{name: w, from: a, to: b, ops: send}]\nfaults: [{action: bad_rkey, flow: w}]\n",
		  "t.yaml:5:35: flow: bad_rkey needs a flow with write, read or atomic operations ('w' has none)" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: bad_rkey, opcode: RC_SEND_ONLY}]\n",
		  "t.yaml:5:37: opcode: bad_rkey needs an RC request with a RETH or AtomicETH, got RC_SEND_ONLY" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: drop, after: 2ms, until: 1ms}]\n",
		  "t.yaml:5:44: until: expected a time after 'after' (2000000 ns), got 1000000 ns" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: drop, psn: [1, 2, 3]}]\n",
		  "t.yaml:5:30: psn: expected a PSN or [first, last], got a sequence" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: [{action: drop, dir: up}]\n",
		  "t.yaml:5:30: dir: expected any, request or response, got up" },
		{ HOSTS "flows: [{name: w, from: a, to: b}]\nfaults: {action: drop}\n",
		  "t.yaml:5:9: faults: expected a sequence of faults, got a mapping" },
		{ HOSTS "flows: [{from: a, to: b}]\n? [complex]\n: key\n", "t.yaml:5:3: scenario: expected a key name, got a sequence" },
		{ "name: \"two words\"\n", "t.yaml:1:7: name: expected a name of letters, digits, '-', '_' or '.', got two words" },
		{ "name: \"a\\0b\"\n", "t.yaml:1:7: name: expected a name of letters, digits, '-', '_' or '.', got a\\x00b" },
		{ "hosts: x\n\tflows: y\n", "t.yaml:2:1: YAML syntax: found a tab character that violates indentation (while "
					      "scanning a plain scalar at line 1)" },
		{ "", "t.yaml:1:1: empty scenario: expected a mapping with hosts and flows" },
		{ "---\n...\n", "t.yaml:2:1: empty scenario: expected a mapping with hosts and flows" },
		{ "just words\n", "t.yaml:1:1: expected a mapping with hosts and flows, got just words" },
		{ "name: a\x01" "b\n", "t.yaml:1:8: YAML input: control characters are not allowed (byte 0x01)" },
		{ "hosts:\n  - \xff\n", "t.yaml:2:5: YAML input: invalid leading UTF-8 octet (byte 0xff)" },
		{ "a: &x 1\nb: *x\n", "t.yaml:2:4: YAML aliases (*x) are not supported: write the value out" },
	};
	int bad = 0;
	for (size_t i = 0; i < RW_ARRAY_LEN(cases); i++) {
		struct gen_scenario s;
		char err[512];
		memset(&s, 0xA5, sizeof(s));
		struct gen_scenario before = s;
		int rc = parse(cases[i].yaml, &s, err, sizeof(err));
		if (rc != -1 || strcmp(err, cases[i].msg) != 0 || memcmp(&s, &before, sizeof(s)) != 0) {
			print_error("case %zu:\n  want %s\n  got  %s\n", i, cases[i].msg, rc ? err : "(loaded)");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_limits(void **state)
{
	(void)state;
	/* The size bound is checked before any parsing. */
	size_t big = (16u << 20) + 1;
	char *text = malloc(big);
	assert_non_null(text);
	memset(text, '#', big);
	char err[256];
	struct gen_scenario s;
	assert_int_equal(gen_scenario_parse(text, big, "huge.yaml", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "huge.yaml: larger than 16 MiB: not a scenario file");
	/* The same through a file, and a long flow sequence of scalars
	 * bounded by the node count well below the size limit. */
	char path[] = "/tmp/rw-scen-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *fp = fdopen(fd, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, big, fp), big);
	fclose(fp);
	char msg[512];
	snprintf(msg, sizeof(msg), "%s: larger than 16 MiB: not a scenario file", path);
	assert_int_equal(gen_scenario_load(path, &s, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("x: [", fp);
	for (int i = 0; i < 600000; i++)
		fputs("1,", fp);
	fputs("1]\n", fp);
	fclose(fp);
	assert_int_equal(gen_scenario_load(path, &s, err, sizeof(err)), -1);
	snprintf(msg, sizeof(msg), "%s:1:%d: expected at most 500000 YAML values in a scenario", path, 5 + 2 * (499998 - 1));
	assert_string_equal(err, msg);
	unlink(path);
	free(text);
	/* A billion laughs needs aliases, which never load. */
	expect_error("a: &a [x, x]\nb: &b [*a, *a]\n", "t.yaml:2:8: YAML aliases (*a) are not supported: write the value out");
	/* Cannot open; a directory; a small err buffer is cut, not overrun;
	 * no err buffer at all. */
	assert_int_equal(gen_scenario_load("/nonexistent/x.yaml", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/x.yaml: cannot open: No such file or directory");
	assert_int_equal(gen_scenario_load("/tmp", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "/tmp: not a regular file");
	char small[12];
	assert_int_equal(parse("", &s, small, sizeof(small)), -1);
	assert_string_equal(small, "t.yaml:1:1:");
	assert_int_equal(parse("", &s, NULL, 0), -1);
	/* A name with a newline stays on one line. */
	assert_int_equal(gen_scenario_parse("", 0, "a\nb", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "a?b:1:1: empty scenario: expected a mapping with hosts and flows");
	/* Flows and hosts bounds. */
	size_t cap = 1 << 20, n = 0;
	char *y = malloc(cap);
	assert_non_null(y);
	n += (size_t)snprintf(y + n, cap - n, HOSTS "flows:\n");
	for (int i = 0; i < 1025; i++)
		n += (size_t)snprintf(y + n, cap - n, "  - {from: a, to: b}\n");
	expect_error(y, "t.yaml:5:3: flows: expected at most 1024 flows, got 1025");
	/* 1024 flows between two hosts: each gets its own QPN range. */
	n = 0;
	n += (size_t)snprintf(y + n, cap - n, HOSTS "flows:\n");
	for (int i = 0; i < 1024; i++)
		n += (size_t)snprintf(y + n, cap - n, "  - {from: a, to: b, qps: 2}\n");
	assert_int_equal(parse(y, &s, err, sizeof(err)), 0);
	assert_int_equal(s.flows[1023].src_qpn, 0x100 + 2 * 1023);
	assert_int_equal(s.flows[1023].dst_qpn, 0x200 + 2 * 1023);
	gen_scenario_free(&s);
	free(y);
}

/* ---- the congestion: section ------------------------------------------ */

static void load_ok(const char *yaml, struct gen_scenario *s)
{
	char err[512];
	if (parse(yaml, s, err, sizeof(err)))
		fail_msg("unexpected error: %s", err);
}

/* The paper's marking (README-congestion.md) on a priority nobody set. */
static void assert_default_prio(const struct cc_sw_prio *p)
{
	assert_int_equal(p->lossless, 0);
	assert_int_equal(p->ecn, 1);
	assert_int_equal(p->kmin, 5000);
	assert_int_equal(p->kmax, 200000);
	assert_true(p->pmax == 0.01);
	assert_int_equal(p->xoff, 0);
	assert_int_equal(p->xon, 0);
}

/* Without the section: mode off, and the models' defaults as the README's
 * preset tables give them (paper), so that nothing changes for old files. */
static void test_cc_absent(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_ok(HOSTS "flows: [{from: a, to: b}]\n", &s);
	const struct gen_congestion *cc = &s.cc;
	assert_int_equal(cc->mode, GEN_CC_OFF);
	assert_int_equal(cc->line, 0);
	assert_int_equal(s.flows[0].cc_exempt, 0);
	assert_true(cc->sw.link_bps == 100e9);
	assert_int_equal(cc->sw.buffer, 12000000);
	assert_int_equal(cc->sw.nprio, 8);
	assert_int_equal(cc->sw.sched, CC_SW_STRICT);
	assert_int_equal(cc->sw.pause_quanta, 0xFFFF);
	assert_int_equal(cc->sw.seed, 1);
	assert_int_equal(cc->sw.response_ns, 0);
	for (int p = 0; p < 8; p++)
		assert_default_prio(&cc->sw.prio[p]);
	assert_int_equal(cc->n_storms, 0);
	assert_string_equal(cc->dcqcn_preset, "paper");
	assert_true(cc->dcqcn.g == 1.0 / 256);
	assert_true(cc->dcqcn.alpha_init == 1);
	assert_int_equal(cc->dcqcn.alpha_period_ns, 55000);
	assert_int_equal(cc->dcqcn.timer_ns, 55000);
	assert_int_equal(cc->dcqcn.byte_counter, 10000000);
	assert_int_equal(cc->dcqcn.fast_recovery, 5);
	assert_true(cc->dcqcn.rai_bps == 40e6);
	assert_true(cc->dcqcn.rhai_bps == 100e6);
	assert_true(cc->dcqcn.rmin_bps == 100e6);
	assert_true(cc->dcqcn.min_dec_factor == 0);
	assert_int_equal(cc->dcqcn.reduce_period_ns, 0);
	assert_string_equal(cc->np_preset, "paper");
	assert_int_equal(cc->np.interval_ns, 50000);
	assert_int_equal(cc->np.mode, CC_NP_PER_QP);
	assert_int_equal(cc->np.behaviour, CC_NP_COMPLIANT);
	assert_int_equal(cc->np.defer, 1);
	assert_int_equal(cc->np.max_keys, 100000);
	assert_int_equal(cc->pfc_response_ns, 0);
	assert_int_equal(cc->pfc_ignore, 0);
	assert_string_equal(cc->out.fct, "");
	assert_string_equal(cc->out.pfc, "");
	assert_string_equal(cc->out.qlen, "");
	assert_int_equal(cc->out.qlen_interval_ns, 1000);
	assert_int_equal(cc->out.format, GEN_CC_CSV);
	gen_scenario_free(&s);
	/* The built-in default has none either. */
	assert_int_equal(gen_scenario_default(&s), 0);
	assert_int_equal(s.cc.mode, GEN_CC_OFF);
	gen_scenario_free(&s);
	/* An empty section is the simulated mode; the port runs at line_rate
	 * and the marking PRNG takes the scenario's seed. */
	load_ok("line_rate: 25Gbps\nseed: 9\n" HOSTS "flows: [{from: a, to: b}]\ncongestion: {}\n", &s);
	assert_int_equal(s.cc.mode, GEN_CC_SIMULATED);
	assert_int_equal(s.cc.line, 7);
	assert_true(s.cc.sw.link_bps == 25e9);
	assert_int_equal(s.cc.sw.seed, 9);
	gen_scenario_free(&s);
}

static void test_cc_full(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_ok(HOSTS "flows: [{name: w, from: a, to: b}, {name: bg, from: b, to: a, congestion: false}]\n"
		"congestion:\n"
		"  mode: simulated\n"
		"  switch:\n"
		"    link_rate: 25Gbps\n"
		"    buffer: 11.5MB\n"
		"    scheduler: round_robin\n"
		"    pause_quanta: computed\n"
		"    pause_refresh: 10us\n"
		"    storm_refresh: 100us\n"
		"    max_packets: 100000\n"
		"    seed: 7\n"
		"    priorities:\n"
		"      3: {lossless: true, ecn: true, kmin: 5KB, kmax: 200KB, pmax: 1%, xoff: 300KiB, xon: 0x10000}\n"
		"      0: {ecn: false}\n"
		"      1: {kmin: 0, kmax: 0, pmax: 0}\n"
		"    storms:\n"
		"      - {priority: 3, start: 2ms, duration: 5ms}\n"
		"      - {priority: 1, duration: 1.5us}\n"
		"  dcqcn:\n"
		"    g: 0.00390625\n"
		"    alpha_init: 0.5\n"
		"    alpha_period: 50us\n"
		"    timer: 1.5us\n"
		"    byte_counter: 1MiB\n"
		"    fast_recovery: 3\n"
		"    rate_ai: 40Mbps\n"
		"    rate_hai: 2.5Gbps\n"
		"    min_rate: 0\n"
		"    min_dec_factor: 50%\n"
		"    reduce_period: 4us\n"
		"  np:\n"
		"    interval: 20us\n"
		"    mode: ip_pair\n"
		"    defer: false\n"
		"    behaviour: fast\n"
		"    fast_interval: 5us\n"
		"    max_keys: 1000\n"
		"  pfc: {response: 500ns, ignore: true}\n"
		"  outputs: {fct: fct.csv, pfc: out/pfc.jsonl, qlen: qlen.csv, qlen_interval: 2us, format: jsonl}\n",
		&s);
	const struct gen_congestion *cc = &s.cc;
	assert_int_equal(s.flows[0].cc_exempt, 0);
	assert_int_equal(s.flows[1].cc_exempt, 1);
	assert_int_equal(cc->mode, GEN_CC_SIMULATED);
	assert_int_equal(cc->line, 5);
	assert_true(cc->sw.link_bps == 25e9);
	assert_int_equal(cc->sw.buffer, 11500000);
	assert_int_equal(cc->sw.sched, CC_SW_ROUND_ROBIN);
	assert_int_equal(cc->sw.pause_quanta, 0);
	assert_int_equal(cc->sw.refresh_ns, 10000);
	assert_int_equal(cc->sw.storm_refresh_ns, 100000);
	assert_int_equal(cc->sw.max_packets, 100000);
	assert_int_equal(cc->sw.seed, 7);
	assert_int_equal(cc->sw.nprio, 8);
	const struct cc_sw_prio *p3 = &cc->sw.prio[3], *p0 = &cc->sw.prio[0], *p1 = &cc->sw.prio[1];
	assert_int_equal(p3->lossless, 1);
	assert_int_equal(p3->ecn, 1);
	assert_int_equal(p3->kmin, 5000);
	assert_int_equal(p3->kmax, 200000);
	assert_true(p3->pmax == 0.01);
	assert_int_equal(p3->xoff, 300 * 1024);
	assert_int_equal(p3->xon, 0x10000);
	assert_int_equal(p0->ecn, 0);
	assert_int_equal(p0->lossless, 0);
	assert_int_equal(p1->ecn, 1);
	assert_int_equal(p1->kmin, 0);
	assert_int_equal(p1->kmax, 0);
	assert_true(p1->pmax == 0);
	for (int p = 2; p < 8; p++)
		if (p != 3)
			assert_default_prio(&cc->sw.prio[p]);
	assert_int_equal(cc->n_storms, 2);
	assert_int_equal(cc->storms[0].prio, 3);
	assert_int_equal(cc->storms[0].start_ns, 2000000);
	assert_int_equal(cc->storms[0].duration_ns, 5000000);
	assert_int_equal(cc->storms[0].line, 21);
	assert_int_equal(cc->storms[1].prio, 1);
	assert_int_equal(cc->storms[1].start_ns, 0);
	assert_int_equal(cc->storms[1].duration_ns, 1500);
	assert_string_equal(cc->dcqcn_preset, "paper");
	assert_true(cc->dcqcn.g == 0.00390625);
	assert_true(cc->dcqcn.alpha_init == 0.5);
	assert_int_equal(cc->dcqcn.alpha_period_ns, 50000);
	assert_int_equal(cc->dcqcn.timer_ns, 1500);
	assert_int_equal(cc->dcqcn.byte_counter, 1048576);
	assert_int_equal(cc->dcqcn.fast_recovery, 3);
	assert_true(cc->dcqcn.rai_bps == 40e6);
	assert_true(cc->dcqcn.rhai_bps == 2.5e9);
	assert_true(cc->dcqcn.rmin_bps == 0);
	assert_true(cc->dcqcn.min_dec_factor == 0.5);
	assert_int_equal(cc->dcqcn.reduce_period_ns, 4000);
	assert_int_equal(cc->np.interval_ns, 20000);
	assert_int_equal(cc->np.mode, CC_NP_PER_IP_PAIR);
	assert_int_equal(cc->np.defer, 0);
	assert_int_equal(cc->np.behaviour, CC_NP_FAST);
	assert_int_equal(cc->np.fast_interval_ns, 5000);
	assert_int_equal(cc->np.max_keys, 1000);
	assert_int_equal(cc->pfc_response_ns, 500);
	assert_int_equal(cc->sw.response_ns, 500);
	assert_int_equal(cc->pfc_ignore, 1);
	assert_string_equal(cc->out.fct, "fct.csv");
	assert_string_equal(cc->out.pfc, "out/pfc.jsonl");
	assert_string_equal(cc->out.qlen, "qlen.csv");
	assert_int_equal(cc->out.qlen_interval_ns, 2000);
	assert_int_equal(cc->out.format, GEN_CC_JSONL);
	gen_scenario_free(&s);
}

/* NVIDIA's preset (README-congestion.md's mlx5 column) under a few
 * overrides; closed loop keeps the switch at its defaults. */
static void test_cc_presets(void **state)
{
	(void)state;
	struct gen_scenario s;
	load_ok(HOSTS "flows: [{from: a, to: b}]\n"
		"defaults: {congestion: false}\n"
		"congestion:\n"
		"  mode: closed_loop\n"
		"  dcqcn: {preset: mlx5, timer: 100us, rate_ai: 10Mbps}\n"
		"  np: {preset: mlx5, defer: true}\n"
		"  outputs: {fct: f.csv, pfc: p.csv}\n",
		&s);
	const struct gen_congestion *cc = &s.cc;
	assert_int_equal(s.flows[0].cc_exempt, 1);
	assert_int_equal(cc->mode, GEN_CC_CLOSED_LOOP);
	assert_string_equal(cc->dcqcn_preset, "mlx5");
	assert_true(cc->dcqcn.g == 1019.0 / 1024);
	assert_true(cc->dcqcn.alpha_init == 1023.0 / 1024);
	assert_int_equal(cc->dcqcn.alpha_period_ns, 55000);
	assert_int_equal(cc->dcqcn.timer_ns, 100000);
	assert_int_equal(cc->dcqcn.byte_counter, 32767);
	assert_int_equal(cc->dcqcn.fast_recovery, 5);
	assert_true(cc->dcqcn.rai_bps == 10e6);
	assert_true(cc->dcqcn.rhai_bps == 50e6);
	assert_true(cc->dcqcn.rmin_bps == 100e6);
	assert_true(cc->dcqcn.min_dec_factor == 0.5);
	assert_int_equal(cc->dcqcn.reduce_period_ns, 4000);
	assert_string_equal(cc->np_preset, "mlx5");
	assert_int_equal(cc->np.interval_ns, 4000);
	assert_int_equal(cc->np.mode, CC_NP_PER_QP);
	assert_int_equal(cc->np.defer, 1);
	assert_int_equal(cc->np.behaviour, CC_NP_COMPLIANT);
	assert_int_equal(cc->np.max_keys, 100000);
	assert_string_equal(cc->out.fct, "f.csv");
	assert_string_equal(cc->out.pfc, "p.csv");
	assert_string_equal(cc->out.qlen, "");
	gen_scenario_free(&s);
	/* mode: off still reads and checks everything. */
	load_ok(HOSTS "flows: [{from: a, to: b}]\n"
		"congestion: {mode: off, switch: {buffer: 1MiB, priorities: {0: {kmin: 2kB, kmax: 1MB}}}, np: {mode: dest_ip, behaviour: every_ce}}\n",
		&s);
	assert_int_equal(s.cc.mode, GEN_CC_OFF);
	assert_int_equal(s.cc.sw.buffer, 1 << 20);
	assert_int_equal(s.cc.sw.prio[0].kmin, 2000);
	assert_int_equal(s.cc.sw.prio[0].kmax, 1000000);
	assert_int_equal(s.cc.np.mode, CC_NP_PER_DEST_IP);
	assert_int_equal(s.cc.np.behaviour, CC_NP_EVERY_CE);
	gen_scenario_free(&s);
}

/* Each class of mistake in the section, with its exact message. */
static void test_cc_errors(void **state)
{
	(void)state;
#define CC HOSTS "flows: [{from: a, to: b}]\ncongestion: "
	static const struct {
		const char *yaml, *msg;
	} cases[] = {
		{ CC "true\n", "t.yaml:5:13: congestion: expected a mapping, got true" },
		{ CC "{mode: sim}\n", "t.yaml:5:20: mode: expected off, simulated or closed_loop, got sim" },
		{ CC "{modes: off}\n", "t.yaml:5:14: congestion: unknown key 'modes' (did you mean 'mode'?)" },
		{ CC "{mode: closed_loop, switch: {}}\n",
		  "t.yaml:5:33: switch: applies to mode simulated only (closed_loop's bottleneck is the real network)" },
		{ CC "{switch: {buffer: 4KBytes}}\n",
		  "t.yaml:5:31: buffer: expected a size in bytes (optionally B, KB, MB, GB, KiB, MiB or GiB), got 4KBytes" },
		{ CC "{switch: {buffer: 12Mb}}\n",
		  "t.yaml:5:31: buffer: expected a size in bytes (optionally B, KB, MB, GB, KiB, MiB or GiB), got 12Mb" },
		{ CC "{dcqcn: {rate_hai: 1GBps}}\n",
		  "t.yaml:5:32: rate_hai: expected a bit rate with bps, Kbps, Mbps, Gbps or Tbps, e.g. 100Gbps, got 1GBps" },
		{ CC "{switch: {buffer: 2GB}}\n", "t.yaml:5:31: buffer: expected 1..1073741824 bytes, got 2GB" },
		{ CC "{switch: {link_rate: 0Gbps}}\n",
		  "t.yaml:5:34: link_rate: expected a bit rate above 0 and at most 1600Gbps, got 0Gbps" },
		{ CC "{switch: {pause_quanta: 0}}\n", "t.yaml:5:37: pause_quanta: expected computed or 1..0xffff, got 0" },
		{ CC "{switch: {scheduler: wfq}}\n", "t.yaml:5:34: scheduler: expected strict or round_robin, got wfq" },
		{ CC "{switch: {max_packets: 0}}\n", "t.yaml:5:36: max_packets: expected 1..67108864, got 0" },
		{ CC "{switch: {priorities: [3]}}\n",
		  "t.yaml:5:35: priorities: expected a mapping of priority (0..7) to its settings, got a sequence" },
		{ CC "{switch: {priorities: {8: {ecn: false}}}}\n", "t.yaml:5:36: priorities: expected 0..7, got 8" },
		{ CC "{switch: {priorities: {3: {}, 0x3: {}}}}\n",
		  "t.yaml:5:43: priorities: duplicate priority 3 (first given at line 5)" },
		{ CC "{switch: {priorities: {3: {kmn: 1KB}}}}\n",
		  "t.yaml:5:40: priority 3: unknown key 'kmn' (did you mean 'kmin'?)" },
		{ CC "{switch: {priorities: {3: {kmin: 10KB, kmax: 5KB}}}}\n",
		  "t.yaml:5:58: kmax: expected at least kmin (10000 bytes), got 5000 bytes" },
		{ CC "{switch: {priorities: {3: {kmin: 300KB}}}}\n",
		  "t.yaml:5:46: kmin: expected at most kmax (200000 bytes), got 300000 bytes" },
		{ CC "{switch: {priorities: {3: {lossless: true, xoff: 100KB, xon: 100KB}}}}\n",
		  "t.yaml:5:74: xon: expected less than xoff (100000 bytes), got 100000 bytes" },
		{ CC "{switch: {priorities: {3: {lossless: true, xoff: 100KB}}}}\n",
		  "t.yaml:5:39: priority 3: lossless needs xoff and xon (bytes of its queue)" },
		{ CC "{switch: {priorities: {3: {xoff: 100KB}}}}\n",
		  "t.yaml:5:40: xoff: applies to lossless priorities only (priority 3 is lossy)" },
		{ CC "{switch: {priorities: {3: {ecn: false, kmin: 1KB}}}}\n",
		  "t.yaml:5:52: kmin: applies when ecn is true (priority 3 has ecn: false)" },
		{ CC "{switch: {priorities: {3: {pmax: 1.5}}}}\n",
		  "t.yaml:5:46: pmax: expected a number from 0 to 1 (0.5 or 50%), got 1.5" },
		{ CC "{switch: {storms: {priority: 1}}}\n",
		  "t.yaml:5:31: storms: expected a sequence of storms ({priority, start, duration}), got a mapping" },
		{ CC "{switch: {storms: [{priority: 3}]}}\n", "t.yaml:5:32: storm: expected priority and duration" },
		{ CC "{switch: {storms: [{priority: 3, duration: 0}]}}\n",
		  "t.yaml:5:56: duration: expected a duration above 0, got 0" },
		{ CC "{switch: {storms: [{priority: 9, duration: 1ms}]}}\n", "t.yaml:5:43: priority: expected 0..7, got 9" },
		{ CC "{dcqcn: {preset: cx6}}\n", "t.yaml:5:30: preset: expected paper or mlx5, got cx6" },
		{ CC "{dcqcn: {g: 2}}\n", "t.yaml:5:25: g: expected a number from 0 to 1 (0.5 or 50%), got 2" },
		{ CC "{dcqcn: {rate_ai: 40}}\n",
		  "t.yaml:5:31: rate_ai: expected a bit rate with bps, Kbps, Mbps, Gbps or Tbps, e.g. 100Gbps, got 40" },
		{ CC "{dcqcn: {timer: 55}}\n",
		  "t.yaml:5:29: timer: expected a duration with a unit (ns, us, ms or s), e.g. 10ms, got 55" },
		{ CC "{dcqcn: {rate_hal: 1Gbps}}\n", "t.yaml:5:22: dcqcn: unknown key 'rate_hal' (did you mean 'rate_hai'?)" },
		{ CC "{np: {behaviour: fast}}\n",
		  "t.yaml:5:30: behaviour: fast needs fast_interval (the pacing it really applies)" },
		{ CC "{np: {fast_interval: 1us}}\n", "t.yaml:5:19: fast_interval: applies to behaviour: fast only" },
		{ CC "{np: {behaviour: fast, interval: 10us, fast_interval: 10us}}\n",
		  "t.yaml:5:67: fast_interval: expected less than interval (10000 ns), got 10000 ns" },
		{ CC "{np: {mode: per_qp}}\n", "t.yaml:5:25: mode: expected qp, ip_pair or dest_ip, got per_qp" },
		{ CC "{np: {max_keys: 0}}\n", "t.yaml:5:29: max_keys: expected 1..1048576, got 0" },
		{ CC "{np: {defer: yes}}\n", "t.yaml:5:26: defer: expected true or false, got yes" },
		{ CC "{pfc: {ignore: 1}}\n", "t.yaml:5:28: ignore: expected true or false, got 1" },
		{ CC "{outputs: {fct: a.csv, pfc: a.csv}}\n", "t.yaml:5:41: pfc: 'a.csv' is already the fct file" },
		{ CC "{mode: closed_loop, outputs: {qlen: q.csv}}\n",
		  "t.yaml:5:43: qlen: needs mode simulated (a closed loop has no model queue to sample)" },
		{ CC "{outputs: {qlen_interval: 1us}}\n", "t.yaml:5:24: qlen_interval: applies when qlen names a file" },
		{ CC "{outputs: {qlen: q, qlen_interval: 0}}\n", "t.yaml:5:48: qlen_interval: expected a duration above 0, got 0" },
		{ CC "{outputs: {format: csvs}}\n", "t.yaml:5:32: format: expected csv or jsonl, got csvs" },
		{ CC "{outputs: {fct: out/}}\n", "t.yaml:5:29: fct: expected a file name, not a directory, got out/" },
		{ HOSTS "flows: [{from: a, to: b, congestion: no}]\n", "t.yaml:4:38: congestion: expected true or false, got no" },
	};
#undef CC
	int bad = 0;
	for (size_t i = 0; i < RW_ARRAY_LEN(cases); i++) {
		struct gen_scenario s;
		char err[512];
		memset(&s, 0xA5, sizeof(s));
		struct gen_scenario before = s;
		int rc = parse(cases[i].yaml, &s, err, sizeof(err));
		if (rc != -1 || strcmp(err, cases[i].msg) != 0 || memcmp(&s, &before, sizeof(s)) != 0) {
			print_error("case %zu:\n  want %s\n  got  %s\n", i, cases[i].msg, rc ? err : "(loaded)");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The bad files for the end-to-end test: each says on its first line
 * "# expect: LINE:COL: message" and must fail with exactly that. */
static void test_bad_scenarios(void **state)
{
	(void)state;
	char dir[1024];
	path_of("tests/e2e/bad-scenarios", dir, sizeof(dir));
	DIR *d = opendir(dir);
	assert_non_null(d);
	int count = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
			continue;
		char p[2048], first[512], err[512], want[2600];
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		FILE *fp = fopen(p, "r");
		assert_non_null(fp);
		assert_non_null(fgets(first, sizeof(first), fp));
		fclose(fp);
		first[strcspn(first, "\n")] = 0;
		if (strncmp(first, "# expect: ", 10) != 0)
			fail_msg("%s: first line is not '# expect: LINE:COL: message'", e->d_name);
		snprintf(want, sizeof(want), "%s:%s", p, first + 10);
		struct gen_scenario s;
		if (gen_scenario_load(p, &s, err, sizeof(err)) == 0)
			fail_msg("%s: loaded", e->d_name);
		if (strcmp(err, want) != 0)
			fail_msg("%s:\n  want %s\n  got  %s", e->d_name, want, err);
		count++;
	}
	closedir(d);
	assert_true(count >= 40);
}

/* cm: per flow, or from the defaults for the RC flows only. */
static void test_cm_key(void **state)
{
	(void)state;
	struct gen_scenario s;
	char err[512];
	const char *y = "hosts:\n"
			"  - {name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
			"  - {name: b, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"
			"defaults: {cm: true}\n"
			"flows:\n"
			"  - {from: a, to: b}\n"
			"  - {from: a, to: b, transport: ud}\n"
			"  - {from: a, to: b, transport: uc}\n"
			"  - {from: a, to: b, cm: false}\n";
	if (parse(y, &s, err, sizeof(err)))
		fail_msg("unexpected error: %s", err);
	assert_int_equal(s.n_flows, 4);
	assert_int_equal(s.flows[0].cm, 1);
	assert_int_equal(s.flows[1].cm, 0);
	assert_int_equal(s.flows[2].cm, 0);
	assert_int_equal(s.flows[3].cm, 0);
	gen_scenario_free(&s);
	assert_int_equal(one_flow("hosts:\n"
				  "  - {name: a, mac: \"02:00:00:00:00:01\", ip: 10.0.0.1}\n"
				  "  - {name: b, mac: \"02:00:00:00:00:02\", ip: 10.0.0.2}\n"
				  "flows: [{from: a, to: b}]\n").cm, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_clean_mix),
		cmocka_unit_test(test_sample_ud_uc),
		cmocka_unit_test(test_sample_lossy_gbn),
		cmocka_unit_test(test_sample_rnr),
		cmocka_unit_test(test_sample_ipv6_vlan),
		cmocka_unit_test(test_sample_atomics),
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_immediate_sequence),
		cmocka_unit_test(test_flow_defaults),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_units_duration),
		cmocka_unit_test(test_units_size),
		cmocka_unit_test(test_units_rate),
		cmocka_unit_test(test_units_probability_and_ints),
		cmocka_unit_test(test_flow_features),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_cc_absent),
		cmocka_unit_test(test_cc_full),
		cmocka_unit_test(test_cc_presets),
		cmocka_unit_test(test_cc_errors),
		cmocka_unit_test(test_bad_scenarios),
		cmocka_unit_test(test_cm_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
