/* SPDX-License-Identifier: BSD-3-Clause */
/* --filter: expressions over decoded fields (filter.h). The tool owns the
 * syntax; the values come from proto/'s struct rw_packet. */
#include "filter.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { K_CMP, K_HAS, K_AND, K_OR, K_NOT };
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

enum field {
	F_FRAME_LEN, F_ETH_TYPE, F_VLAN_ID, F_VLAN_PCP, F_IP_SRC, F_IP_DST, F_DSCP, F_ECN, F_TTL,
	F_UDP_SRC, F_UDP_DST, F_ROCEV2, F_ROCEV1, F_OPCODE, F_DESTQP, F_PSN, F_PKEY, F_FECN, F_BECN,
	F_ACKREQ, F_SE, F_RETH_VA, F_RETH_RKEY, F_RETH_LEN, F_AETH_SYN, F_AETH_MSN, F_DETH_SRCQP,
	F_DETH_QKEY, F_COUNT
};

/* Names as Wireshark spells them where it has the field. */
static const struct {
	const char *name;
	enum field f;
} names[] = {
	{"frame.len", F_FRAME_LEN},          {"eth.type", F_ETH_TYPE},
	{"vlan.id", F_VLAN_ID},              {"vlan.priority", F_VLAN_PCP},
	{"ip.src", F_IP_SRC},                {"ip.dst", F_IP_DST},
	{"ip.dsfield.dscp", F_DSCP},         {"ip.dsfield.ecn", F_ECN},
	{"ip.ttl", F_TTL},                   {"udp.srcport", F_UDP_SRC},
	{"udp.dstport", F_UDP_DST},          {"rocev2", F_ROCEV2},
	{"rocev1", F_ROCEV1},                {"bth.opcode", F_OPCODE},
	{"bth.destqp", F_DESTQP},            {"bth.psn", F_PSN},
	{"bth.p_key", F_PKEY},               {"bth.fecn", F_FECN},
	{"bth.becn", F_BECN},                {"bth.a", F_ACKREQ},
	{"bth.se", F_SE},                    {"reth.va", F_RETH_VA},
	{"reth.r_key", F_RETH_RKEY},         {"reth.dmalen", F_RETH_LEN},
	{"aeth.syndrome", F_AETH_SYN},       {"aeth.msn", F_AETH_MSN},
	{"deth.srcqp", F_DETH_SRCQP},       {"deth.q_key", F_DETH_QKEY},
};
#define N_NAMES (sizeof(names) / sizeof(names[0]))

const char *rp_filter_fields(void)
{
	static char buf[600];
	if (!buf[0])
		for (size_t i = 0; i < N_NAMES; i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? ", " : "", names[i].name);
	return buf;
}

/* The field's value; 0 when the frame does not carry it. */
static int get(const struct rw_packet *p, uint32_t len, unsigned f, uint64_t *v)
{
	int bth = (p->present & RW_P_BTH) != 0;
	switch ((enum field)f) {
	case F_FRAME_LEN: *v = len; return 1;
	case F_ETH_TYPE: *v = p->eth.ethertype; return (p->present & RW_P_ETH) != 0;
	case F_VLAN_ID: *v = p->vlan[0].vid; return p->n_vlan > 0;
	case F_VLAN_PCP: *v = p->vlan[0].pcp; return p->n_vlan > 0;
	case F_IP_SRC: *v = p->ipv4.src; return (p->present & RW_P_IPV4) != 0;
	case F_IP_DST: *v = p->ipv4.dst; return (p->present & RW_P_IPV4) != 0;
	case F_DSCP:
		*v = (p->present & RW_P_IPV4) ? p->ipv4.dscp : p->ipv6.dscp;
		return (p->present & (RW_P_IPV4 | RW_P_IPV6)) != 0;
	case F_ECN:
		*v = (p->present & RW_P_IPV4) ? p->ipv4.ecn : p->ipv6.ecn;
		return (p->present & (RW_P_IPV4 | RW_P_IPV6)) != 0;
	case F_TTL:
		*v = (p->present & RW_P_IPV4) ? p->ipv4.ttl : p->ipv6.hop_limit;
		return (p->present & (RW_P_IPV4 | RW_P_IPV6)) != 0;
	case F_UDP_SRC: *v = p->udp.sport; return (p->present & RW_P_UDP) != 0;
	case F_UDP_DST: *v = p->udp.dport; return (p->present & RW_P_UDP) != 0;
	case F_ROCEV2: *v = 1; return p->carrier == RW_CARRIER_ROCEV2;
	case F_ROCEV1: *v = 1; return p->carrier == RW_CARRIER_ROCEV1;
	case F_OPCODE: *v = p->bth.opcode; return bth;
	case F_DESTQP: *v = p->bth.dqpn; return bth;
	case F_PSN: *v = p->bth.psn; return bth;
	case F_PKEY: *v = p->bth.pkey; return bth;
	case F_FECN: *v = p->bth.fecn; return bth;
	case F_BECN: *v = p->bth.becn; return bth;
	case F_ACKREQ: *v = p->bth.ackreq; return bth;
	case F_SE: *v = p->bth.se; return bth;
	case F_RETH_VA: *v = p->reth.va; return (p->hdrs & RW_HDR_RETH) != 0;
	case F_RETH_RKEY: *v = p->reth.rkey; return (p->hdrs & RW_HDR_RETH) != 0;
	case F_RETH_LEN: *v = p->reth.dmalen; return (p->hdrs & RW_HDR_RETH) != 0;
	case F_AETH_SYN: *v = p->aeth.syndrome; return (p->hdrs & RW_HDR_AETH) != 0;
	case F_AETH_MSN: *v = p->aeth.msn; return (p->hdrs & RW_HDR_AETH) != 0;
	case F_DETH_SRCQP: *v = p->deth.sqpn; return (p->hdrs & RW_HDR_DETH) != 0;
	case F_DETH_QKEY: *v = p->deth.qkey; return (p->hdrs & RW_HDR_DETH) != 0;
	default: return 0;
	}
}

static int eval(const struct rp_filter *f, int i, const struct rw_packet *p, uint32_t len)
{
	const struct rp_fnode *n = &f->n[i];
	uint64_t v;
	switch (n->kind) {
	case K_AND: return eval(f, n->a, p, len) && eval(f, n->b, p, len);
	case K_OR: return eval(f, n->a, p, len) || eval(f, n->b, p, len);
	case K_NOT: return !eval(f, n->a, p, len);
	case K_HAS: return get(p, len, n->field, &v);
	default:
		if (!get(p, len, n->field, &v))
			return 0; /* as in Wireshark: a comparison with an absent field is false */
		switch (n->op) {
		case OP_EQ: return v == n->value;
		case OP_NE: return v != n->value;
		case OP_LT: return v < n->value;
		case OP_LE: return v <= n->value;
		case OP_GT: return v > n->value;
		default: return v >= n->value;
		}
	}
}

int rp_filter_match(const struct rp_filter *f, const struct rw_packet *p, uint32_t frame_len)
{
	return eval(f, f->root, p, frame_len);
}

/* ---- the parser: recursive descent over the string ---------------------- */

struct ps {
	const char *s, *at;
	struct rp_filter *f;
	char *err;
	size_t errlen;
	int failed;
	int depth; /* '(' and '!' the descent is inside */
};

/* Parentheses and '!' nest the descent: a bound keeps a hostile argument
 * ("((((..." of a megabyte) from running the stack out (fuzz_replay_rules
 * found it). No filter a person writes comes near it. */
#define FILTER_MAX_DEPTH 64

static int perr(struct ps *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct ps *ps, const char *fmt, ...)
{
	if (ps->failed)
		return -1;
	va_list ap;
	int n = snprintf(ps->err, ps->errlen, "--filter: column %d: ", (int)(ps->at - ps->s) + 1);
	ps->failed = 1;
	/* A buffer too small for the column keeps what fitted. */
	if (n < 0 || (size_t)n >= ps->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip(struct ps *ps)
{
	while (isspace((unsigned char)*ps->at))
		ps->at++;
}

/* A word: letters, digits, '.', '_', ':' (field names, numbers, addresses). */
static size_t word(struct ps *ps, char *out, size_t cap)
{
	size_t n = 0;
	skip(ps);
	while (isalnum((unsigned char)ps->at[n]) || ps->at[n] == '.' || ps->at[n] == '_' || ps->at[n] == ':')
		n++;
	if (n && n < cap) {
		memcpy(out, ps->at, n);
		out[n] = '\0';
	}
	return n < cap ? n : 0;
}

static int take(struct ps *ps, const char *tok)
{
	size_t n = strlen(tok);
	skip(ps);
	if (strncmp(ps->at, tok, n) != 0)
		return 0;
	/* a word operator must end at a word boundary */
	if (isalpha((unsigned char)tok[0]) && (isalnum((unsigned char)ps->at[n]) || ps->at[n] == '.'))
		return 0;
	ps->at += n;
	return 1;
}

static int node(struct ps *ps, uint8_t kind, int a, int b)
{
	if (ps->f->count == RP_FILTER_MAX_NODES)
		return perr(ps, "the expression is too long (at most %d terms)", RP_FILTER_MAX_NODES);
	struct rp_fnode *n = &ps->f->n[ps->f->count];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->a = (int16_t)a;
	n->b = (int16_t)b;
	return ps->f->count++;
}

static int value(struct ps *ps, uint64_t *v)
{
	char w[64], *end;
	if (!word(ps, w, sizeof(w)))
		return perr(ps, "expected a value (a number, an IPv4 address or an opcode name)");
	uint8_t a4[4];
	if (inet_pton(AF_INET, w, a4) == 1) {
		*v = (uint64_t)a4[0] << 24 | (uint64_t)a4[1] << 16 | (uint64_t)a4[2] << 8 | a4[3];
	} else {
		errno = 0;
		*v = strtoull(w, &end, 0);
		if (*end || errno || w[0] == '-') {
			int op = -1;
			for (int i = 0; i < 256 && op < 0; i++)
				if (strcasecmp(rw_opcode((uint8_t)i)->name, w) == 0)
					op = i;
			if (op < 0)
				return perr(ps, "'%s' is not a number, an IPv4 address or an opcode name", w);
			*v = (uint64_t)op;
		}
	}
	ps->at += strlen(w);
	return 0;
}

static int expr(struct ps *ps);

static int primary(struct ps *ps)
{
	char w[64];
	if (take(ps, "(")) {
		if (++ps->depth > FILTER_MAX_DEPTH)
			return perr(ps, "parentheses and '!' nested deeper than %d", FILTER_MAX_DEPTH);
		int e = expr(ps);
		ps->depth--;
		if (e < 0)
			return -1;
		if (!take(ps, ")"))
			return perr(ps, "expected ')'");
		return e;
	}
	if (!word(ps, w, sizeof(w)))
		return perr(ps, "expected a field name (%s)", rp_filter_fields());
	const char *name = strncmp(w, "infiniband.", 11) == 0 ? w + 11 : w;
	size_t i;
	for (i = 0; i < N_NAMES; i++)
		if (strcmp(names[i].name, name) == 0)
			break;
	if (i == N_NAMES)
		return perr(ps, "unknown field '%s'; expected one of %s", w, rp_filter_fields());
	ps->at += strlen(w);
	static const char *const ops[] = {"==", "!=", "<=", ">=", "<", ">"};
	static const uint8_t opv[] = {OP_EQ, OP_NE, OP_LE, OP_GE, OP_LT, OP_GT};
	for (int k = 0; k < 6; k++)
		if (take(ps, ops[k])) {
			int n = node(ps, K_CMP, -1, -1);
			if (n < 0 || value(ps, &ps->f->n[n].value) != 0)
				return -1;
			ps->f->n[n].field = (uint8_t)names[i].f;
			ps->f->n[n].op = opv[k];
			return n;
		}
	int n = node(ps, K_HAS, -1, -1);
	if (n >= 0)
		ps->f->n[n].field = (uint8_t)names[i].f;
	return n;
}

static int unary(struct ps *ps)
{
	if (take(ps, "!") || take(ps, "not")) {
		if (++ps->depth > FILTER_MAX_DEPTH)
			return perr(ps, "parentheses and '!' nested deeper than %d", FILTER_MAX_DEPTH);
		int a = unary(ps);
		ps->depth--;
		return a < 0 ? -1 : node(ps, K_NOT, a, -1);
	}
	return primary(ps);
}

static int and_expr(struct ps *ps)
{
	int a = unary(ps);
	while (a >= 0 && (take(ps, "&&") || take(ps, "and"))) {
		int b = unary(ps);
		a = b < 0 ? -1 : node(ps, K_AND, a, b);
	}
	return a;
}

static int expr(struct ps *ps)
{
	int a = and_expr(ps);
	while (a >= 0 && (take(ps, "||") || take(ps, "or"))) {
		int b = and_expr(ps);
		a = b < 0 ? -1 : node(ps, K_OR, a, b);
	}
	return a;
}

int rp_filter_compile(const char *s, struct rp_filter *f, char *err, size_t errlen)
{
	struct ps ps = {s, s, f, err, errlen, 0, 0};
	memset(f, 0, sizeof(*f));
	f->root = expr(&ps);
	if (f->root < 0)
		return -1;
	skip(&ps);
	if (*ps.at)
		return perr(&ps, "unexpected '%s'", ps.at);
	return 0;
}
