/* SPDX-License-Identifier: BSD-3-Clause */
/* Flows of a scenario: the key table, the `defaults` section that every
 * flow starts from, and the checks that need the whole flow (which
 * operations a transport allows, UD messages in one packet, QPN ranges that
 * must not collide on a host).
 *
 * Each flow remembers where every value came from (its own mapping or the
 * defaults), so that a check across keys still points at the line that
 * caused it. */
#include "scenario_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_RC (1u << GEN_RC)
#define T_UC (1u << GEN_UC)
#define T_UD (1u << GEN_UD)
#define T_ALL (T_RC | T_UC | T_UD)

enum fk {
	FK_NAME, FK_FROM, FK_TO, FK_TRANSPORT, FK_OPS, FK_SIZE, FK_MTU, FK_RATE, FK_START, FK_STOP,
	FK_MESSAGES, FK_QPS, FK_SRC_QPN, FK_DST_QPN, FK_INITIAL_PSN, FK_PSN_STRIDE, FK_UDP_SPORT, FK_DSCP,
	FK_ECN, FK_PKEY, FK_QKEY, FK_MAX_RD_ATOMIC, FK_ACK_REQ, FK_RTO, FK_RETRY, FK_RNR_RETRY,
	FK_MIN_RNR_TIMER, FK_RKEY, FK_VA, FK_REMOTE_LEN, FK_RECV_CREDITS, FK_IMMEDIATE, FK_INV_RKEY,
	FK_COMPARE, FK_SWAP_ADD, FK_RESPONDER, FK_PATTERN, FK_CONGESTION, FK_CM,
	/* The open traffic-generator model's names for the same settings. */
	FK_OTG_RTO, FK_OTG_RETRY, FK_OTG_RNR_RETRY,
	FK_COUNT
};

/* Where a flow's values came from: 0 its defaults, 1 the `defaults`
 * section, 2 the flow's own mapping. */
struct flow_src {
	uint8_t set[FK_COUNT];
	uint8_t via[FK_COUNT]; /* the name it was given by (an alias or itself) */
	yaml_mark_t key[FK_COUNT], val[FK_COUNT];
	yaml_mark_t op_at[GEN_OP_COUNT];
	yaml_mark_t start;
	const yaml_node_t *from, *to;
};

typedef int (*fk_read)(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f,
		       struct flow_src *src);

struct fkey {
	const char *name;
	uint8_t tmask;   /* the transports where it means something */
	uint8_t canon;   /* the key it is another name for (itself if none) */
	fk_read read;
};

static const char *const op_names[] = {
	[GEN_OP_SEND] = "send",         [GEN_OP_SEND_IMM] = "send_imm",   [GEN_OP_SEND_INV] = "send_inv",
	[GEN_OP_WRITE] = "write",       [GEN_OP_WRITE_IMM] = "write_imm", [GEN_OP_READ] = "read",
	[GEN_OP_CMP_SWAP] = "cmp_swap", [GEN_OP_FETCH_ADD] = "fetch_add", [GEN_OP_COUNT] = NULL,
};
_Static_assert(sizeof(op_names) / sizeof(op_names[0]) == GEN_OP_COUNT + 1, "op_names: one entry per value");

static const char *const transport_names[] = { [GEN_RC] = "rc", [GEN_UC] = "uc", [GEN_UD] = "ud", NULL };

const char *gen_op_name(enum gen_op op)
{
	return (unsigned)op < GEN_OP_COUNT ? op_names[op] : "?";
}

const char *gen_transport_name(enum gen_transport t)
{
	return (unsigned)t <= GEN_UD ? transport_names[t] : "?";
}

/* IBA 9.2 Table 38: UC has no READ, atomics or SEND with Invalidate; UD
 * has SEND and SEND with immediate only. */
static const uint8_t op_transports[GEN_OP_COUNT] = {
	[GEN_OP_SEND] = T_ALL,     [GEN_OP_SEND_IMM] = T_ALL,   [GEN_OP_SEND_INV] = T_RC,
	[GEN_OP_WRITE] = T_RC | T_UC, [GEN_OP_WRITE_IMM] = T_RC | T_UC, [GEN_OP_READ] = T_RC,
	[GEN_OP_CMP_SWAP] = T_RC,  [GEN_OP_FETCH_ADD] = T_RC,
};

static const char *const allowed_ops[] = {
	[GEN_RC] = "all operations",
	[GEN_UC] = "send, send_imm, write, write_imm",
	[GEN_UD] = "send, send_imm",
};

void gen_flow_defaults(struct gen_flow *f)
{
	memset(f, 0, sizeof(*f));
	f->transport = GEN_RC;
	f->op_weight[GEN_OP_WRITE] = 1;
	f->size = (struct gen_size){ .kind = GEN_SIZE_FIXED, .min = 4096, .max = 4096 };
	/* A 1500-byte Ethernet MTU carries a 1024-byte RoCE path MTU, what
	 * NICs pick on a default network. */
	f->mtu = 1024;
	f->rate = (struct gen_rate){ .unit = GEN_RATE_LINE };
	f->qps = 1;
	f->src_qpn = 0x100;
	f->dst_qpn = 0x200;
	f->psn_stride = 0x1000;
	f->dscp = 26;
	f->ecn = 2;
	f->pkey = 0xFFFF;
	f->qkey = 0x11111111;
	/* As perftest: the device maximum of common NICs, infinite RNR
	 * retries, seven transport retries, RNR timer code 12 (0.64 ms). */
	f->max_rd_atomic = 16;
	f->ack_request_interval = 32;
	f->retransmission_timeout_ns = 1000000;
	f->retry_count = 7;
	f->rnr_retry = 7;
	f->min_rnr_timer = 12;
	f->rkey = 0x1234;
	f->va = 0x10000;
	f->remote_len = 1u << 20;
	f->immediate = 0x12345678;
	/* Incrementing bytes: a payload cut or shifted at the wrong offset
	 * shows at once in a hex dump. */
	for (unsigned i = 0; i < 256; i++)
		f->pattern[i] = (uint8_t)i;
	f->pattern_len = 256;
}

#define READ_UINT(fn, field, lo, hi, hex)                                                                     \
	static int fn(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f,            \
		      struct flow_src *src)                                                                    \
	{                                                                                                      \
		uint64_t v;                                                                                    \
		(void)src;                                                                                     \
		if (sc_uint(c, key, n, lo, hi, hex, &v))                                                       \
			return -1;                                                                             \
		f->field = (__typeof__(f->field))v;                                                            \
		return 0;                                                                                      \
	}

READ_UINT(rd_messages, messages, 0, UINT64_MAX, 0)
READ_UINT(rd_qps, qps, 1, SC_MAX_QPS, 0)
READ_UINT(rd_initial_psn, initial_psn, 0, 0xFFFFFF, 1)
READ_UINT(rd_psn_stride, psn_stride, 0, 0xFFFFFF, 1)
READ_UINT(rd_udp_sport, udp_sport, 0, 0xFFFF, 0)
READ_UINT(rd_dscp, dscp, 0, 63, 0)
READ_UINT(rd_qkey, qkey, 0, 0xFFFFFFFF, 1)
READ_UINT(rd_max_rd_atomic, max_rd_atomic, 1, 16, 0)
READ_UINT(rd_ack_req, ack_request_interval, 0, 128, 0)
READ_UINT(rd_retry, retry_count, 0, 7, 0)
READ_UINT(rd_rnr_retry, rnr_retry, 0, 7, 0)
READ_UINT(rd_min_rnr_timer, min_rnr_timer, 0, 31, 0)
READ_UINT(rd_rkey, rkey, 0, 0xFFFFFFFF, 1)
READ_UINT(rd_va, va, 0, UINT64_MAX, 1)
/* The AETH credit code tops out at 32768 receive WQEs (IBA table 44). */
READ_UINT(rd_recv_credits, recv_credits, 0, 32768, 0)

/* A number, or "sequence": each message's number on its QP. */
static int rd_immediate(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f,
			struct flow_src *src)
{
	uint64_t v;
	(void)src;
	if (n->type == YAML_SCALAR_NODE) {
		const char *t = (const char *)n->data.scalar.value;
		if (strcmp(t, "sequence") == 0) {
			f->immediate_sequence = 1;
			return 0;
		}
		if (sc_parse_uint(t, &v) == -1)
			return sc_expected(c, key, n, "an integer 0..0xffffffff or sequence");
	}
	if (sc_uint(c, key, n, 0, 0xFFFFFFFF, 1, &v))
		return -1;
	f->immediate = (uint32_t)v;
	f->immediate_sequence = 0;
	return 0;
}
READ_UINT(rd_inv_rkey, invalidate_rkey, 0, 0xFFFFFFFF, 1)
READ_UINT(rd_compare, compare, 0, UINT64_MAX, 1)
READ_UINT(rd_swap_add, swap_add, 0, UINT64_MAX, 1)

static int rd_name(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	(void)src;
	return sc_name(c, key, n, f->name, sizeof(f->name));
}

static int rd_host(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	(void)f;
	/* Resolved against the hosts once the flow is read. */
	if (!sc_text(c, key, n, "a host name"))
		return -1;
	if (key[0] == 'f')
		src->from = n;
	else
		src->to = n;
	return 0;
}

static int rd_transport(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f,
			struct flow_src *src)
{
	unsigned t;
	(void)src;
	if (sc_enum(c, key, n, transport_names, "rc, uc or ud", &t))
		return -1;
	f->transport = (enum gen_transport)t;
	return 0;
}

static int op_index(struct sc_ctx *c, const yaml_node_t *n, unsigned *op)
{
	return sc_enum(c, "ops", n, op_names,
		       "an operation: send, send_imm, send_inv, write, write_imm, read, cmp_swap or fetch_add", op);
}

static int rd_ops(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	uint32_t w[GEN_OP_COUNT] = { 0 };
	unsigned op;
	/* A flow's ops replace those of the defaults as a whole: a mix is
	 * one setting, not eight. */
	if (n->type == YAML_SCALAR_NODE) {
		if (op_index(c, n, &op))
			return -1;
		w[op] = 1;
		src->op_at[op] = n->start_mark;
	} else if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
			yaml_node_t *e = sc_node(c, *i);
			if (op_index(c, e, &op))
				return -1;
			if (w[op])
				return sc_fail(c, e->start_mark, "ops: %s listed twice", op_names[op]);
			w[op] = 1;
			src->op_at[op] = e->start_mark;
		}
	} else {
		if (sc_check_map(c, n, key, op_names))
			return -1;
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = sc_node(c, p->key);
			uint64_t v;
			if (op_index(c, k, &op))
				return -1;
			char kn[32];
			snprintf(kn, sizeof(kn), "ops: %s", op_names[op]);
			if (sc_uint(c, kn, sc_node(c, p->value), 0, 1000000, 0, &v))
				return -1;
			w[op] = (uint32_t)v;
			src->op_at[op] = k->start_mark;
		}
	}
	memcpy(f->op_weight, w, sizeof(w));
	return 0;
}

static int size_value(struct sc_ctx *c, const char *key, const yaml_node_t *n, uint32_t *out)
{
	uint64_t v;
	if (sc_bytes(c, key, n, 0, SC_MAX_MSG, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int rd_size_choice(struct sc_ctx *c, const yaml_node_t *n, struct gen_size *sz)
{
	uint32_t total = 0;
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
			if (sz->n == GEN_SIZE_CHOICES)
				return sc_fail(c, sc_node(c, *i)->start_mark, "size: choice: at most %d sizes",
					       GEN_SIZE_CHOICES);
			if (size_value(c, "size: choice", sc_node(c, *i), &sz->values[sz->n]))
				return -1;
			sz->weights[sz->n++] = 1;
		}
		total = sz->n;
	} else if (n->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = sc_node(c, p->key);
			uint64_t w;
			if (sz->n == GEN_SIZE_CHOICES)
				return sc_fail(c, k->start_mark, "size: choice: at most %d sizes", GEN_SIZE_CHOICES);
			if (size_value(c, "size: choice", k, &sz->values[sz->n]))
				return -1;
			for (uint32_t j = 0; j < sz->n; j++)
				if (sz->values[j] == sz->values[sz->n])
					return sc_fail(c, k->start_mark, "size: choice: %u listed twice",
						       sz->values[j]);
			if (sc_uint(c, "size: choice: weight", sc_node(c, p->value), 0, 1000000, 0, &w))
				return -1;
			sz->weights[sz->n++] = (uint32_t)w;
			total += (uint32_t)w;
		}
	} else {
		return sc_expected(c, "size: choice", n, "a mapping of size to weight, or a sequence of sizes");
	}
	if (sz->n == 0 || total == 0)
		return sc_fail(c, n->start_mark, "size: choice: expected at least one size with a weight above 0");
	sz->min = UINT32_MAX;
	sz->max = 0;
	for (uint32_t j = 0; j < sz->n; j++) {
		if (!sz->weights[j])
			continue;
		sz->min = sz->values[j] < sz->min ? sz->values[j] : sz->min;
		sz->max = sz->values[j] > sz->max ? sz->values[j] : sz->max;
	}
	return 0;
}

static int rd_size(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	static const char *const kinds[] = { "uniform", "choice", NULL };
	struct gen_size sz = { 0 };
	(void)src;
	if (n->type != YAML_MAPPING_NODE) {
		if (size_value(c, key, n, &sz.min))
			return -1;
		sz.kind = GEN_SIZE_FIXED;
		sz.max = sz.min;
		f->size = sz;
		return 0;
	}
	if (sc_check_map(c, n, key, kinds))
		return -1;
	if (n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
		return sc_fail(c, n->start_mark, "size: expected one of uniform or choice");
	yaml_node_t *u = sc_get(c, n, "uniform");
	if (u) {
		if (u->type != YAML_SEQUENCE_NODE || u->data.sequence.items.top - u->data.sequence.items.start != 2)
			return sc_expected(c, "size: uniform", u, "[min, max]");
		yaml_node_item_t *it = u->data.sequence.items.start;
		if (size_value(c, "size: uniform", sc_node(c, it[0]), &sz.min) ||
		    size_value(c, "size: uniform", sc_node(c, it[1]), &sz.max))
			return -1;
		if (sz.max < sz.min)
			return sc_fail(c, sc_node(c, it[1])->start_mark,
				       "size: uniform: expected max >= min (%u), got %u", sz.min, sz.max);
		sz.kind = GEN_SIZE_UNIFORM;
	} else {
		sz.kind = GEN_SIZE_CHOICE;
		if (rd_size_choice(c, sc_get(c, n, "choice"), &sz))
			return -1;
	}
	f->size = sz;
	return 0;
}

static int rd_mtu(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	uint64_t v;
	(void)src;
	/* IBA 9.7.3.2: the path MTUs a RoCE NIC negotiates. */
	if (sc_bytes(c, key, n, 0, UINT64_MAX, &v) == 0 && (v < 256 || v > 4096 || (v & (v - 1))))
		return sc_expected(c, key, n, "256, 512, 1024, 2048 or 4096");
	if (c->failed)
		return -1;
	f->mtu = (uint16_t)v;
	return 0;
}

static int rd_rate(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	(void)src;
	return sc_rate(c, key, n, &f->rate);
}

static int rd_start(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	(void)src;
	return sc_duration(c, key, n, 0, &f->start_ns);
}

static int rd_stop(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	(void)src;
	return sc_duration(c, key, n, 0, &f->stop_ns);
}

static int rd_rto(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	(void)src;
	/* The open traffic-generator model counts its timeout in ms. */
	return sc_duration(c, key, n, key[strlen(key) - 1] == 'e' ? 1000000 : 0, &f->retransmission_timeout_ns);
}

static int rd_qpn(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	uint64_t v;
	(void)src;
	if (sc_uint(c, key, n, 0, 0xFFFFFF, 1, &v))
		return -1;
	/* IBA 3.5.6: QP0 and QP1 are the management QPs of every port. */
	if (v < 2)
		return sc_expected(c, key, n, "a QPN 0x2..0xffffff (QP0 and QP1 are reserved for management)");
	if (key[0] == 's')
		f->src_qpn = (uint32_t)v;
	else
		f->dst_qpn = (uint32_t)v;
	return 0;
}

static int rd_ecn(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	/* RFC 3168 codepoints in their numeric order, with the spellings of
	 * the open traffic-generator model beside ours. */
	static const char *const names[] = { "not-ect", "ect1", "ect0", "ce", "non_ect", "ect_1", "ect_0",
					     "0", "1", "2", "3", NULL };
	static const uint8_t value[] = { 0, 1, 2, 3, 0, 1, 2, 0, 1, 2, 3 };
	unsigned i;
	(void)src;
	if (sc_enum(c, key, n, names, "not-ect, ect0, ect1, ce or 0..3", &i))
		return -1;
	f->ecn = value[i];
	return 0;
}

static int rd_pkey(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	uint64_t v;
	(void)src;
	if (sc_uint(c, key, n, 0, 0xFFFF, 1, &v))
		return -1;
	/* IBA 10.9.1.2: a P_Key with base 0x0000 is the invalid P_Key. */
	if ((v & 0x7FFF) == 0)
		return sc_expected(c, key, n, "a valid P_Key (base 0x0000 is the invalid P_Key)");
	f->pkey = (uint16_t)v;
	return 0;
}

static int rd_remote_len(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f,
			 struct flow_src *src)
{
	(void)src;
	return sc_bytes(c, key, n, 1, UINT64_MAX, &f->remote_len);
}

static int rd_responder(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f,
			struct flow_src *src)
{
	static const char *const names[] = { "generated", "external", NULL };
	unsigned i;
	(void)src;
	if (sc_enum(c, key, n, names, "generated or external", &i))
		return -1;
	f->external_responder = (uint8_t)i;
	return 0;
}

static int rd_pattern(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f,
		      struct flow_src *src)
{
	(void)src;
	return sc_pattern(c, key, n, f->pattern, &f->pattern_len);
}

static int rd_congestion(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f,
			 struct flow_src *src)
{
	uint8_t on;
	(void)src;
	if (sc_bool(c, key, n, &on))
		return -1;
	f->cc_exempt = !on;
	return 0;
}

static int rd_cm(struct sc_ctx *c, const char *key, const yaml_node_t *n, struct gen_flow *f, struct flow_src *src)
{
	(void)src;
	return sc_bool(c, key, n, &f->cm);
}

#define K(id, nm, tm, fn) [id] = { .name = nm, .tmask = tm, .canon = id, .read = fn }
#define A(id, nm, tm, cn, fn) [id] = { .name = nm, .tmask = tm, .canon = cn, .read = fn }
static const struct fkey fkeys[FK_COUNT] = {
	K(FK_NAME, "name", T_ALL, rd_name),
	K(FK_FROM, "from", T_ALL, rd_host),
	K(FK_TO, "to", T_ALL, rd_host),
	K(FK_TRANSPORT, "transport", T_ALL, rd_transport),
	K(FK_OPS, "ops", T_ALL, rd_ops),
	K(FK_SIZE, "size", T_ALL, rd_size),
	K(FK_MTU, "mtu", T_ALL, rd_mtu),
	K(FK_RATE, "rate", T_ALL, rd_rate),
	K(FK_START, "start", T_ALL, rd_start),
	K(FK_STOP, "stop", T_ALL, rd_stop),
	K(FK_MESSAGES, "messages", T_ALL, rd_messages),
	K(FK_QPS, "qps", T_ALL, rd_qps),
	K(FK_SRC_QPN, "src_qpn", T_ALL, rd_qpn),
	K(FK_DST_QPN, "dst_qpn", T_ALL, rd_qpn),
	K(FK_INITIAL_PSN, "initial_psn", T_ALL, rd_initial_psn),
	K(FK_PSN_STRIDE, "psn_stride", T_ALL, rd_psn_stride),
	K(FK_UDP_SPORT, "udp_sport", T_ALL, rd_udp_sport),
	K(FK_DSCP, "dscp", T_ALL, rd_dscp),
	K(FK_ECN, "ecn", T_ALL, rd_ecn),
	K(FK_PKEY, "pkey", T_ALL, rd_pkey),
	K(FK_QKEY, "qkey", T_UD, rd_qkey),
	K(FK_MAX_RD_ATOMIC, "max_rd_atomic", T_RC, rd_max_rd_atomic),
	K(FK_ACK_REQ, "ack_request_interval", T_RC, rd_ack_req),
	K(FK_RTO, "retransmission_timeout", T_RC, rd_rto),
	K(FK_RETRY, "retry_count", T_RC, rd_retry),
	K(FK_RNR_RETRY, "rnr_retry", T_RC, rd_rnr_retry),
	K(FK_MIN_RNR_TIMER, "min_rnr_timer", T_RC, rd_min_rnr_timer),
	K(FK_RKEY, "rkey", T_RC | T_UC, rd_rkey),
	K(FK_VA, "va", T_RC | T_UC, rd_va),
	K(FK_REMOTE_LEN, "remote_len", T_RC | T_UC, rd_remote_len),
	K(FK_RECV_CREDITS, "recv_credits", T_RC, rd_recv_credits),
	K(FK_IMMEDIATE, "immediate", T_ALL, rd_immediate),
	K(FK_INV_RKEY, "invalidate_rkey", T_RC, rd_inv_rkey),
	K(FK_COMPARE, "compare", T_RC, rd_compare),
	K(FK_SWAP_ADD, "swap_add", T_RC, rd_swap_add),
	K(FK_RESPONDER, "responder", T_ALL, rd_responder),
	K(FK_PATTERN, "pattern", T_ALL, rd_pattern),
	K(FK_CONGESTION, "congestion", T_ALL, rd_congestion),
	K(FK_CM, "cm", T_RC, rd_cm),
	A(FK_OTG_RTO, "retransmission_timeout_value", T_RC, FK_RTO, rd_rto),
	A(FK_OTG_RETRY, "retransmission_retry_count", T_RC, FK_RETRY, rd_retry),
	A(FK_OTG_RNR_RETRY, "rnr_nak_retry_count", T_RC, FK_RNR_RETRY, rd_rnr_retry),
};
#undef K
#undef A

static const char *const *fkey_names(void)
{
	static const char *names[FK_COUNT + 1];
	if (!names[0])
		for (unsigned i = 0; i < FK_COUNT; i++)
			names[i] = fkeys[i].name;
	return names;
}

static unsigned fkey_find(const char *name)
{
	unsigned i = 0;
	while (i < FK_COUNT && strcmp(fkeys[i].name, name) != 0)
		i++;
	return i;
}

/* Reads a flow's (or the defaults') keys onto f. level: 1 defaults, 2 flow. */
static int read_keys(struct sc_ctx *c, const yaml_node_t *n, const char *what, int level, struct gen_flow *f,
		     struct flow_src *src)
{
	if (sc_check_map(c, n, what, fkey_names()))
		return -1;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = sc_node(c, p->key), *v = sc_node(c, p->value);
		unsigned i = fkey_find((const char *)k->data.scalar.value);
		unsigned id = fkeys[i].canon;
		if (level == 1 && id <= FK_TO)
			return sc_fail(c, k->start_mark, "defaults: '%s' belongs to each flow, not to the defaults",
				       fkeys[i].name);
		if (src->set[id] == level)
			return sc_fail(c, k->start_mark, "%s: '%s' is the same setting as '%s' at line %zu: expected one",
				       what, fkeys[i].name, fkeys[src->via[id]].name, src->key[id].line + 1);
		if (fkeys[i].read(c, fkeys[i].name, v, f, src))
			return -1;
		src->set[id] = (uint8_t)level;
		src->via[id] = (uint8_t)i;
		src->key[id] = k->start_mark;
		src->val[id] = v->start_mark;
	}
	return 0;
}

static yaml_mark_t where(const struct flow_src *src, unsigned id)
{
	return src->set[id] ? src->val[id] : src->start;
}

static uint32_t host_index(struct sc_ctx *c, const struct gen_scenario *s, const yaml_node_t *n, const char *key)
{
	const char *name = (const char *)n->data.scalar.value;
	for (uint32_t i = 0; i < s->n_hosts; i++)
		if (strcmp(s->hosts[i].name, name) == 0)
			return i;
	const char *names[SC_MAX_HOSTS + 1];
	for (uint32_t i = 0; i < s->n_hosts; i++)
		names[i] = s->hosts[i].name;
	names[s->n_hosts] = NULL;
	const char *sug = sc_suggest(name, names);
	char got[64];
	if (sug)
		sc_fail(c, n->start_mark, "%s: no host named '%s' (did you mean '%s'?)", key,
			sc_got(n, got, sizeof(got)), sug);
	else
		sc_fail(c, n->start_mark, "%s: no host named '%s' in hosts", key, sc_got(n, got, sizeof(got)));
	return UINT32_MAX;
}

static int check_ends(struct sc_ctx *c, const struct gen_scenario *s, struct gen_flow *f, struct flow_src *src)
{
	if (!src->from || !src->to)
		return sc_fail(c, src->start, "flow '%s': expected both from and to (host names)", f->name);
	if ((f->src = host_index(c, s, src->from, "from")) == UINT32_MAX ||
	    (f->dst = host_index(c, s, src->to, "to")) == UINT32_MAX)
		return -1;
	const struct gen_host *a = &s->hosts[f->src], *b = &s->hosts[f->dst];
	if (f->src == f->dst)
		return sc_fail(c, src->to->start_mark, "to: expected a host other than from ('%s')", a->name);
	/* One RoCEv2 packet has one IP header: both ends in one family. */
	if (a->af != b->af)
		return sc_fail(c, src->to->start_mark, "to: host '%s' is IPv%u but '%s' is IPv%u: expected the same family",
			       b->name, b->af, a->name, a->af);
	return 0;
}

static int check_ops(struct sc_ctx *c, struct gen_flow *f, struct flow_src *src)
{
	const char *tn = gen_transport_name(f->transport);
	int any = 0;
	/* UD has no WRITE: its default operation is SEND. */
	if (f->transport == GEN_UD && !src->set[FK_OPS]) {
		memset(f->op_weight, 0, sizeof(f->op_weight));
		f->op_weight[GEN_OP_SEND] = 1;
	}
	for (unsigned op = 0; op < GEN_OP_COUNT; op++) {
		if (!f->op_weight[op])
			continue;
		any = 1;
		if (!(op_transports[op] & (1u << f->transport))) {
			/* Where the op came from: the flow, the defaults or (the
			 * built-in write) the flow itself. */
			yaml_mark_t m = src->set[FK_OPS] ? src->op_at[op] : src->start;
			return sc_fail(c, m, "ops: %s is not an operation of %s (IBA table 38; %s: %s)", op_names[op],
				       tn, tn, allowed_ops[f->transport]);
		}
	}
	if (!any)
		return sc_fail(c, where(src, FK_OPS), "ops: expected at least one operation with a weight above 0");
	for (unsigned id = 0; id < FK_COUNT; id++) {
		if (src->set[id] == 2 && !(fkeys[id].tmask & (1u << f->transport))) {
			const char *only = fkeys[id].tmask == T_UD ? "UD" : fkeys[id].tmask == T_RC ? "RC" : "RC and UC";
			return sc_fail(c, src->key[id], "%s: applies to %s flows only, this flow is %s", fkeys[id].name,
				       only, tn);
		}
	}
	return 0;
}

static int uses(const struct gen_flow *f, unsigned op)
{
	return f->op_weight[op] != 0;
}

static int check_sizes(struct sc_ctx *c, struct gen_flow *f, struct flow_src *src)
{
	/* UD's default size is one whole packet. */
	if (f->transport == GEN_UD && !src->set[FK_SIZE])
		f->size = (struct gen_size){ .kind = GEN_SIZE_FIXED, .min = f->mtu, .max = f->mtu };
	uint32_t mx = f->size.max;
	/* UD has no segmentation: a message is one packet (IBA 9.8.2). */
	if (f->transport == GEN_UD && mx > f->mtu)
		return sc_fail(c, where(src, src->set[FK_SIZE] >= src->set[FK_MTU] ? FK_SIZE : FK_MTU),
			       "size: a UD message is one packet: expected at most the MTU (%u bytes), got %u",
			       f->mtu, mx);
	int remote = uses(f, GEN_OP_WRITE) || uses(f, GEN_OP_WRITE_IMM) || uses(f, GEN_OP_READ);
	int atomic = uses(f, GEN_OP_CMP_SWAP) || uses(f, GEN_OP_FETCH_ADD);
	if (remote && mx > f->remote_len) {
		if (!src->set[FK_REMOTE_LEN])
			f->remote_len = mx;
		else
			return sc_fail(c, where(src, FK_REMOTE_LEN),
				       "remote_len: expected at least the largest WRITE/READ message (%u bytes), got %llu",
				       mx, (unsigned long long)f->remote_len);
	}
	/* IBA 9.4.5: an atomic's VA is naturally aligned on 8 bytes. */
	if (atomic && (f->va % 8))
		return sc_fail(c, where(src, FK_VA), "va: atomics need an 8-byte aligned address, got 0x%llx",
			       (unsigned long long)f->va);
	if (atomic && f->remote_len < 8)
		return sc_fail(c, where(src, FK_REMOTE_LEN), "remote_len: atomics need at least 8 bytes, got %llu",
			       (unsigned long long)f->remote_len);
	if (f->va + f->remote_len - 1 < f->va)
		return sc_fail(c, where(src, FK_REMOTE_LEN), "remote_len: va + remote_len passes 2^64");
	return 0;
}

static int check_ranges(struct sc_ctx *c, struct gen_flow *f, struct flow_src *src)
{
	if (f->stop_ns && f->stop_ns <= f->start_ns)
		return sc_fail(c, where(src, FK_STOP), "stop: expected a time after start (%llu ns), got %llu ns",
			       (unsigned long long)f->start_ns, (unsigned long long)f->stop_ns);
	if (f->udp_sport && (uint32_t)f->udp_sport + f->qps - 1 > 0xFFFF)
		return sc_fail(c, where(src, FK_UDP_SPORT),
			       "udp_sport: %u + %u QPs passes port 65535", f->udp_sport, f->qps);
	if (f->transport == GEN_RC && !src->set[FK_INV_RKEY])
		f->invalidate_rkey = f->rkey;
	/* A real responder's REP and DREP (rocewire-gen --role responder,
	 * rxe, a NIC) are read from the port in the closed loop only; open
	 * loop nothing would answer the REQ the data waits for. */
	if (f->transport == GEN_RC && f->cm && f->external_responder && !c->closed_loop)
		return sc_fail(c, where(src, src->set[FK_CM] >= src->set[FK_RESPONDER] ? FK_CM : FK_RESPONDER),
			       "cm: with responder: external the requester reads the REP from its port, which needs "
			       "congestion mode closed_loop (or the generated responder)");
	if (f->transport != GEN_RC)
		f->cm = 0; /* from the defaults: RC only */
	return 0;
}

/* Each QP is a conversation keyed by its QPNs: two flows whose QPN ranges
 * share a number on one host would make one conversation of two. */
struct qpn_range {
	uint32_t host, lo, n, flow;
};

static const struct qpn_range *qpn_clash(const struct qpn_range *r, uint32_t nr, uint32_t host, uint32_t lo,
					 uint32_t n)
{
	for (uint32_t j = 0; j < nr; j++)
		if (r[j].host == host && lo < r[j].lo + r[j].n && r[j].lo < lo + n)
			return &r[j];
	return NULL;
}

/* Flow i's end (0 requester, 1 responder): the QPNs the flow gives, checked
 * against those placed before, or (given == 0) the first free range from
 * the default or the `defaults` section's number. */
static int place_qpns(struct sc_ctx *c, struct gen_scenario *s, uint32_t i, int end, const struct flow_src *src,
		      struct qpn_range *r, uint32_t *nr)
{
	struct gen_flow *f = &s->flows[i];
	uint32_t *qpn = end ? &f->dst_qpn : &f->src_qpn;
	uint32_t host = end ? f->dst : f->src;
	unsigned id = end ? FK_DST_QPN : FK_SRC_QPN;
	const struct qpn_range *o;
	if (src->set[id] == 2) {
		if (*qpn + f->qps - 1 > 0xFFFFFF)
			return sc_fail(c, where(src, src->set[FK_QPS] == 2 ? FK_QPS : id),
				       "%s: 0x%x + %u QPs passes QPN 0xffffff", fkeys[id].name, *qpn, f->qps);
		if ((o = qpn_clash(r, *nr, host, *qpn, f->qps)))
			return sc_fail(c, where(src, id),
				       "%s: QPNs 0x%x..0x%x on host '%s' overlap those of flow '%s' (line %u)",
				       fkeys[id].name, *qpn, *qpn + f->qps - 1, s->hosts[host].name,
				       s->flows[o->flow].name, s->flows[o->flow].line);
	} else {
		uint32_t q = *qpn;
		while (q + f->qps - 1 <= 0xFFFFFF && (o = qpn_clash(r, *nr, host, q, f->qps)))
			q = o->lo + o->n;
		if (q + f->qps - 1 > 0xFFFFFF)
			return sc_fail(c, src->start, "%s: no free range of %u QPNs left on host '%s'",
				       fkeys[id].name, f->qps, s->hosts[host].name);
		*qpn = q;
	}
	r[(*nr)++] = (struct qpn_range){ .host = host, .lo = *qpn, .n = f->qps, .flow = i };
	return 0;
}

static int read_flow(struct sc_ctx *c, const yaml_node_t *n, const struct gen_flow *tmpl,
		     const struct flow_src *tsrc, struct gen_scenario *s, uint32_t i, struct flow_src *src)
{
	struct gen_flow *f = &s->flows[i];
	*f = *tmpl;
	*src = *tsrc;
	src->start = n->start_mark;
	f->line = (uint32_t)n->start_mark.line + 1;
	snprintf(f->name, sizeof(f->name), "flow%u", i);
	if (read_keys(c, n, "flow", 2, f, src) || check_ends(c, s, f, src) || check_ops(c, f, src) ||
	    check_sizes(c, f, src) || check_ranges(c, f, src))
		return -1;
	for (uint32_t j = 0; j < i; j++)
		if (strcmp(s->flows[j].name, f->name) == 0)
			return sc_fail(c, where(src, FK_NAME), "name: flow '%s' is already defined at line %u", f->name,
				       s->flows[j].line);
	return 0;
}

int sc_flows(struct sc_ctx *c, const yaml_node_t *defaults, const yaml_node_t *flows, struct gen_scenario *s)
{
	struct gen_flow tmpl;
	struct flow_src tsrc;
	memset(&tsrc, 0, sizeof(tsrc));
	gen_flow_defaults(&tmpl);
	if (defaults && read_keys(c, defaults, "defaults", 1, &tmpl, &tsrc))
		return -1;
	if (!flows || flows->type != YAML_SEQUENCE_NODE || flows->data.sequence.items.top == flows->data.sequence.items.start)
		return sc_expected(c, "flows", flows, "a sequence of at least one flow");
	size_t n = (size_t)(flows->data.sequence.items.top - flows->data.sequence.items.start);
	if (n > SC_MAX_FLOWS)
		return sc_fail(c, flows->start_mark, "flows: expected at most %u flows, got %zu", SC_MAX_FLOWS, n);
	s->flows = calloc(n, sizeof(*s->flows));
	struct flow_src *srcs = calloc(n, sizeof(*srcs));
	if (!s->flows || !srcs) {
		free(srcs);
		return sc_fail(c, flows->start_mark, "out of memory");
	}
	int rc = 0;
	uint64_t total_qps = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		rc = read_flow(c, sc_node(c, flows->data.sequence.items.start[i]), &tmpl, &tsrc, s, i, &srcs[i]);
		s->n_flows = i + 1;
		/* The model holds every QP's state and its ring of messages in
		 * flight (up to 512 with the simulated switch, ~58 kB a QP):
		 * the per-flow bound times 1024 flows would be gigabytes. */
		total_qps += s->flows[i].qps;
		if (rc == 0 && total_qps > SC_MAX_TOTAL_QPS)
			rc = sc_fail(c, where(&srcs[i], FK_QPS),
				     "qps: expected at most %u QPs in all flows, got %llu by flow '%s'", SC_MAX_TOTAL_QPS,
				     (unsigned long long)total_qps, s->flows[i].name);
	}
	struct qpn_range *r = rc ? NULL : calloc(2 * n, sizeof(*r));
	uint32_t nr = 0;
	if (rc == 0 && !r)
		rc = sc_fail(c, flows->start_mark, "out of memory");
	/* QPNs the flows give first, so that the ranges picked for the
	 * others avoid every one of them, whatever the order of the flows. */
	for (int given = 1; given >= 0 && rc == 0; given--)
		for (uint32_t i = 0; i < n && rc == 0; i++)
			for (int end = 0; end < 2 && rc == 0; end++)
				if ((srcs[i].set[end ? FK_DST_QPN : FK_SRC_QPN] == 2) == given)
					rc = place_qpns(c, s, i, end, &srcs[i], r, &nr);
	free(r);
	free(srcs);
	return rc;
}
