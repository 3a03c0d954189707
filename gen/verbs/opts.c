/* SPDX-License-Identifier: BSD-3-Clause */
/* Command line of rocewire-verbs: parsing, defaults and the cross-option
 * checks. Every rejection is one line naming the option, what was given and
 * what is allowed. */
#include "opts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "optab.h"

static const char *const op_names[] = {
	[RWV_OP_SEND] = "SEND",   [RWV_OP_SEND_IMM] = "SEND_IMM",
	[RWV_OP_WRITE] = "WRITE", [RWV_OP_WRITE_IMM] = "WRITE_IMM",
	[RWV_OP_READ] = "READ",   [RWV_OP_CAS] = "CAS",
	[RWV_OP_FADD] = "FADD",
};

static const char *const transport_names[] = {
	[RWV_RC] = "RC", [RWV_UC] = "UC", [RWV_UD] = "UD",
};

const char *rwv_op_name(enum rwv_op op)
{
	return op_names[op];
}

const char *rwv_transport_name(enum rwv_transport t)
{
	return transport_names[t];
}

int rwv_op_parse(const char *s, enum rwv_op *op)
{
	static const struct {
		const char *name;
		enum rwv_op op;
	} alias[] = {
		{"send", RWV_OP_SEND},
		{"send_imm", RWV_OP_SEND_IMM},
		{"send-imm", RWV_OP_SEND_IMM},
		{"write", RWV_OP_WRITE},
		{"write_imm", RWV_OP_WRITE_IMM},
		{"write-imm", RWV_OP_WRITE_IMM},
		{"read", RWV_OP_READ},
		{"cas", RWV_OP_CAS},
		{"cmp_swap", RWV_OP_CAS},
		{"fadd", RWV_OP_FADD},
		{"fetch_add", RWV_OP_FADD},
	};
	for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		if (strcasecmp(s, alias[i].name) == 0) {
			*op = alias[i].op;
			return 0;
		}
	}
	return -1;
}

int rwv_transport_parse(const char *s, enum rwv_transport *t)
{
	for (int i = 0; i <= RWV_UD; i++) {
		if (strcasecmp(s, transport_names[i]) == 0) {
			*t = (enum rwv_transport)i;
			return 0;
		}
	}
	return -1;
}

bool rwv_op_is_atomic(enum rwv_op op)
{
	return op == RWV_OP_CAS || op == RWV_OP_FADD;
}

bool rwv_op_uses_recv(enum rwv_op op)
{
	return op == RWV_OP_SEND || op == RWV_OP_SEND_IMM || op == RWV_OP_WRITE_IMM;
}

bool rwv_op_uses_rkey(enum rwv_op op)
{
	return op == RWV_OP_WRITE || op == RWV_OP_WRITE_IMM || op == RWV_OP_READ ||
	       rwv_op_is_atomic(op);
}

uint32_t rwv_slots(uint32_t iters, int tx_depth)
{
	return iters < (uint32_t)tx_depth ? iters : (uint32_t)tx_depth;
}

uint32_t rwv_slot_size(enum rwv_op op, uint32_t size)
{
	return rwv_op_is_atomic(op) ? 8 : size;
}

/* libibverbs has no run-time version call: the one built against. */
static void print_version(void)
{
	printf("rocewire-verbs %s (librocewire %s, libibverbs %s, jansson %s)\n", RWV_VERSION,
	       RWV_VERSION, RWV_IBVERBS_VERSION, JANSSON_VERSION);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Strict unsigned number: decimal or 0x hex, optional K/M/G (x1024) suffix
 * when allow_suffix, within [lo, hi]. */
static int parse_num(const char *opt, const char *s, uint64_t lo, uint64_t hi,
		     bool allow_suffix, uint64_t *out, char *err, size_t errlen)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (s[0] == '-' || s[0] == '+' || s[0] == ' ' || s[0] == '\0')
		goto bad;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		goto bad;
	if (allow_suffix && *end) {
		unsigned shift = 0;
		switch (*end) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		default: goto bad;
		}
		if (end[1] != '\0' || v > (UINT64_MAX >> shift))
			goto bad;
		v <<= shift;
		end++;
	}
	if (*end)
		goto bad;
	if (v < lo || v > hi)
		return fail(err, errlen, "%s: %s is out of range (expected %llu..%llu)", opt,
			    s, (unsigned long long)lo, (unsigned long long)hi);
	*out = v;
	return 0;
bad:
	return fail(err, errlen, "%s: '%s' is not a number (expected %llu..%llu%s)", opt, s,
		    (unsigned long long)lo, (unsigned long long)hi,
		    allow_suffix ? ", K/M/G suffixes allowed" : "");
}

static int parse_mac(const char *s)
{
	unsigned b[6];
	char tail;
	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != 6)
		return -1;
	return strlen(s) == 17 ? 0 : -1;
}

static void set_defaults(struct rwv_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->ib_port = 1;
	o->gid_index = -1;
	o->tcp_port = RWV_DEFAULT_TCP_PORT;
	o->transport = RWV_RC;
	o->op = RWV_OP_SEND;
	o->size = 4096;
	o->iters = 1000;
	o->qps = 1;
	o->tx_depth = 64;
	o->rx_depth = 128;
	o->hop_limit = 64;
	o->qkey = RWV_DEFAULT_QKEY;
	o->retry_count = 7;
	o->timeout_exp = 14;
	o->rnr_retry = 7;
	o->min_rnr_timer = 12;
	o->timeout_s = 10;
}

int rwv_opts_check(const struct rwv_opts *o, char *err, size_t errlen)
{
	const char *op = rwv_op_name(o->op), *tr = rwv_transport_name(o->transport);
	bool client = o->role == RWV_CLIENT;

	/* IBA 9.8.x / table of operations per service: RDMA READ and atomics exist
	 * only on reliable services, RDMA WRITE on RC and UC, UD carries SENDs. */
	if ((o->op == RWV_OP_READ || rwv_op_is_atomic(o->op)) && o->transport != RWV_RC)
		return fail(err, errlen, "--op %s needs --transport RC (UC and UD have no "
			    "RDMA READ or atomics), got %s", op, tr);
	if ((o->op == RWV_OP_WRITE || o->op == RWV_OP_WRITE_IMM) && o->transport == RWV_UD)
		return fail(err, errlen, "--op %s needs --transport RC or UC (UD has no RDMA "
			    "WRITE)", op);
	if (rwv_op_is_atomic(o->op) && (o->given & RWV_GIVEN_SIZE) && o->size != 8)
		return fail(err, errlen, "--op %s moves 8 bytes: --size must be 8 (or left out), "
			    "got %u", op, o->size);
	if (o->transport == RWV_UD && o->mtu && o->size > (uint32_t)o->mtu)
		return fail(err, errlen, "--transport UD sends one packet per message: --size %u "
			    "exceeds --mtu %d", o->size, o->mtu);
	if (o->transport == RWV_UD && o->size > 4096)
		return fail(err, errlen, "--transport UD sends one packet per message: --size %u "
			    "exceeds the largest MTU, 4096", o->size);
	if (o->inline_size && !(o->op == RWV_OP_SEND || o->op == RWV_OP_SEND_IMM ||
				o->op == RWV_OP_WRITE || o->op == RWV_OP_WRITE_IMM))
		return fail(err, errlen, "--inline applies to SEND and WRITE, not to --op %s", op);

	if (o->bad_rkey) {
		if (!client)
			return fail(err, errlen, "--bad-rkey is a client option (the client uses "
				    "the rkey)");
		if (!rwv_op_uses_rkey(o->op))
			return fail(err, errlen, "--bad-rkey needs an operation that carries an "
				    "rkey (write, write_imm, read, cas, fadd), not %s", op);
		if (o->transport != RWV_RC)
			return fail(err, errlen, "--bad-rkey needs --transport RC (a UC responder "
				    "drops the bad write silently, there is no NAK)");
	}
	if (o->no_recv) {
		if (client)
			return fail(err, errlen, "--no-recv is a server option (the responder "
				    "posts the receives)");
		if (!rwv_op_uses_recv(o->op))
			return fail(err, errlen, "--no-recv needs an operation that consumes a "
				    "receive (send, send_imm, write_imm), not %s", op);
		if (o->transport != RWV_RC)
			return fail(err, errlen, "--no-recv needs --transport RC (UC and UD drop "
				    "the message silently, there is no RNR NAK)");
	}

	if (o->fixed_peer && client) {
		if (o->host)
			return fail(err, errlen, "a --fixed-peer client takes no HOST: the peer comes "
				    "from --peer-json or --remote-*");
		if (!o->peer_json && (!o->have_remote_qpn || !o->remote_gid ||
				      (!o->have_remote_psn && o->transport != RWV_UD)))
			return fail(err, errlen, "a --fixed-peer client needs --peer-json FILE, or "
				    "--remote-qpn, --remote-psn and --remote-gid");
		if (!o->peer_json && rwv_op_uses_rkey(o->op) &&
		    (!o->have_remote_rkey || !o->have_remote_addr))
			return fail(err, errlen, "--op %s with --fixed-peer needs --remote-rkey and "
				    "--remote-addr (or --peer-json)", op);
		if (o->qps != 1)
			return fail(err, errlen, "--fixed-peer drives one QP: --qps must be 1, got %d",
				    o->qps);
		if (o->check || o->have_fixed_pat || o->pattern_qp || o->remote_mac)
			return fail(err, errlen, "--check, --expect-pattern, --pattern-qp and "
				    "--remote-mac are for a --fixed-peer server");
	} else if (o->fixed_peer) {
		if (!o->have_remote_qpn)
			return fail(err, errlen, "--fixed-peer needs --remote-qpn");
		if (!o->have_remote_psn && o->transport != RWV_UD)
			return fail(err, errlen, "--fixed-peer needs --remote-psn");
		if (!o->remote_gid)
			return fail(err, errlen, "--fixed-peer needs --remote-gid");
		if (o->qps != 1)
			return fail(err, errlen, "--fixed-peer drives one QP: --qps must be 1, got %d",
				    o->qps);
		if (o->have_fixed_pat && rwv_op_is_atomic(o->op))
			return fail(err, errlen, "--expect-pattern does not apply to atomics (their "
				    "values follow the built-in sequence)");
		if (o->have_remote_rkey || o->have_remote_addr || o->peer_json)
			return fail(err, errlen, "--remote-rkey, --remote-addr and --peer-json are for "
				    "a --fixed-peer client");
	} else {
		if (o->have_remote_qpn || o->have_remote_psn || o->remote_gid || o->remote_mac ||
		    o->remote_lid || o->remote_qkey || o->have_remote_rkey || o->have_remote_addr ||
		    o->peer_json)
			return fail(err, errlen, "--remote-*, and --peer-json need --fixed-peer");
		if (o->check || o->have_fixed_pat || o->pattern_qp)
			return fail(err, errlen, "--check, --expect-pattern and --pattern-qp need "
				    "--fixed-peer (a run with a TCP peer always checks)");
	}
	if (o->no_check && (o->check || o->have_fixed_pat))
		return fail(err, errlen, "--no-check contradicts --check/--expect-pattern");

	/* Buffers: slots of the requester's buffer and the responder's receive ring
	 * (README "Buffers"); bound them so a typo cannot ask for terabytes. */
	uint64_t size = o->size ? o->size : 4096;
	uint64_t slots = rwv_slots(o->iters, o->tx_depth);
	uint64_t qpbuf = slots * rwv_slot_size(o->op, (uint32_t)size);
	uint64_t rxbuf = 0;
	if (!client && rwv_op_uses_recv(o->op) && o->op != RWV_OP_WRITE_IMM)
		rxbuf = rwv_slots(o->iters, o->rx_depth) *
			(size + (o->transport == RWV_UD ? RWV_UD_GRH : 0));
	if (qpbuf > RWV_MAX_QP_BUF || rxbuf > RWV_MAX_QP_BUF)
		return fail(err, errlen, "--size %llu with %llu slots needs %llu bytes per QP, more "
			    "than %llu: lower --tx-depth/--rx-depth or --size",
			    (unsigned long long)size, (unsigned long long)slots,
			    (unsigned long long)(qpbuf > rxbuf ? qpbuf : rxbuf),
			    (unsigned long long)RWV_MAX_QP_BUF);
	if ((qpbuf > rxbuf ? qpbuf : rxbuf) * (uint64_t)o->qps > RWV_MAX_TOTAL_BUF)
		return fail(err, errlen, "--qps %d buffers need %llu bytes, more than %llu: lower "
			    "--qps, --tx-depth or --size", o->qps,
			    (unsigned long long)((qpbuf > rxbuf ? qpbuf : rxbuf) * (uint64_t)o->qps),
			    (unsigned long long)RWV_MAX_TOTAL_BUF);
	return 0;
}

static struct rwv_opts *O(struct rw_optctx *c)
{
	return c->o;
}

/* A number option within [lo, hi] (K/M/G when sfx) into *v. */
static int num(struct rw_optctx *c, const char *arg, uint64_t lo, uint64_t hi, bool sfx, uint64_t *v)
{
	char name[48];

	snprintf(name, sizeof(name), "--%s", c->name);
	return parse_num(name, arg, lo, hi, sfx, v, c->err, c->errlen);
}

/* fn: a number from lo to hi into field (of type), adding gbit to given. */
#define NUM_OPT(fn, lo, hi, sfx, field, type, gbit)                     \
	static int fn(struct rw_optctx *c, const char *arg)               \
	{                                                                 \
		uint64_t v = 0;                                           \
		if (num(c, arg, (lo), (hi), (sfx), &v))                   \
			return -1;                                        \
		O(c)->field = (type)v;                                    \
		O(c)->given |= (gbit);                                    \
		return 0;                                                 \
	}
/* fn: the flag field set; a string option's field set. */
#define FLAG_OPT(fn, field)                                     \
	static int fn(struct rw_optctx *c, const char *arg)      \
	{                                                        \
		(void)arg;                                       \
		O(c)->field = true;                              \
		return 0;                                        \
	}
#define STR_OPT(fn, field)                                      \
	static int fn(struct rw_optctx *c, const char *arg)      \
	{                                                        \
		O(c)->field = arg;                               \
		return 0;                                        \
	}

NUM_OPT(h_size, 1, RWV_MAX_SIZE, true, size, uint32_t, RWV_GIVEN_SIZE)
NUM_OPT(h_iters, 1, UINT32_MAX, false, iters, uint32_t, RWV_GIVEN_ITERS)
NUM_OPT(h_qps, 1, RWV_MAX_QPS, false, qps, int, RWV_GIVEN_QPS)
NUM_OPT(h_tx_depth, 1, 16384, false, tx_depth, int, RWV_GIVEN_TX_DEPTH)
NUM_OPT(h_rx_depth, 1, 16384, false, rx_depth, int, 0)
NUM_OPT(h_inline, 0, 65536, true, inline_size, uint32_t, RWV_GIVEN_INLINE)
NUM_OPT(h_ib_port, 1, 255, false, ib_port, int, 0)
NUM_OPT(h_gid_index, 0, 65535, false, gid_index, int, 0)
NUM_OPT(h_tclass, 0, 255, false, tclass, int, RWV_GIVEN_TCLASS)
NUM_OPT(h_port, 1, 65535, false, tcp_port, int, 0)
NUM_OPT(h_sl, 0, 15, false, sl, int, 0)
NUM_OPT(h_hop_limit, 1, 255, false, hop_limit, int, 0)
NUM_OPT(h_psn, 0, 0xffffff, false, psn, uint32_t, RWV_GIVEN_PSN)
NUM_OPT(h_qkey, 0, UINT32_MAX, false, qkey, uint32_t, 0)
NUM_OPT(h_retry_count, 0, 7, false, retry_count, int, 0)
NUM_OPT(h_timeout_exp, 0, 31, false, timeout_exp, int, 0)
NUM_OPT(h_rnr_retry, 0, 7, false, rnr_retry, int, RWV_GIVEN_RNR_RETRY)
NUM_OPT(h_min_rnr_timer, 0, 31, false, min_rnr_timer, int, 0)
NUM_OPT(h_timeout, 1, 86400, false, timeout_s, int, 0)
NUM_OPT(h_remote_lid, 1, 0xffff, false, remote_lid, uint16_t, 0)
NUM_OPT(h_remote_qkey, 0, UINT32_MAX, false, remote_qkey, uint32_t, 0)
NUM_OPT(h_pattern_qp, 0, 0xffff, false, pattern_qp, int, 0)
FLAG_OPT(h_no_check, no_check)
FLAG_OPT(h_bad_rkey, bad_rkey)
FLAG_OPT(h_no_recv, no_recv)
FLAG_OPT(h_fixed_peer, fixed_peer)
FLAG_OPT(h_check, check)
STR_OPT(h_dev, dev)
STR_OPT(h_bind, bind)
STR_OPT(h_record, record)
STR_OPT(h_peer_json, peer_json)

static int h_transport(struct rw_optctx *c, const char *arg)
{
	if (rwv_transport_parse(arg, &O(c)->transport))
		return rw_opt_fail(c, "unknown transport '%s' (expected RC, UC or UD)", arg);
	O(c)->given |= RWV_GIVEN_TRANSPORT;
	return 0;
}

static int h_op(struct rw_optctx *c, const char *arg)
{
	if (rwv_op_parse(arg, &O(c)->op))
		return rw_opt_fail(c, "unknown operation '%s' (expected send, send_imm, write, "
				   "write_imm, read, cas or fadd)", arg);
	O(c)->given |= RWV_GIVEN_OP;
	return 0;
}

static int h_mtu(struct rw_optctx *c, const char *arg)
{
	uint64_t v = 0;

	if (num(c, arg, 256, 4096, false, &v))
		return -1;
	if (v != 256 && v != 512 && v != 1024 && v != 2048 && v != 4096)
		return rw_opt_fail(c, "%s is not an IB MTU (expected 256, 512, 1024, 2048 or 4096)", arg);
	O(c)->mtu = (int)v;
	O(c)->given |= RWV_GIVEN_MTU;
	return 0;
}

static int h_remote_qpn(struct rw_optctx *c, const char *arg)
{
	uint64_t v = 0;

	if (num(c, arg, 1, 0xffffff, false, &v))
		return -1;
	O(c)->remote_qpn = (uint32_t)v;
	O(c)->have_remote_qpn = true;
	return 0;
}

static int h_remote_psn(struct rw_optctx *c, const char *arg)
{
	uint64_t v = 0;

	if (num(c, arg, 0, 0xffffff, false, &v))
		return -1;
	O(c)->remote_psn = (uint32_t)v;
	O(c)->have_remote_psn = true;
	return 0;
}

static int h_remote_rkey(struct rw_optctx *c, const char *arg)
{
	uint64_t v = 0;

	if (num(c, arg, 0, UINT32_MAX, false, &v))
		return -1;
	O(c)->remote_rkey = (uint32_t)v;
	O(c)->have_remote_rkey = true;
	return 0;
}

static int h_remote_addr(struct rw_optctx *c, const char *arg)
{
	uint64_t v = 0;

	if (num(c, arg, 0, UINT64_MAX, false, &v))
		return -1;
	O(c)->remote_addr = v;
	O(c)->have_remote_addr = true;
	return 0;
}

static int h_remote_gid(struct rw_optctx *c, const char *arg)
{
	unsigned char g[16];
	struct in_addr a4;

	if (inet_pton(AF_INET6, arg, g) != 1 && inet_pton(AF_INET, arg, &a4) != 1)
		return rw_opt_fail(c, "'%s' is not a GID (expected IPv6 text such as "
				   "::ffff:192.168.1.2, or an IPv4 address)", arg);
	O(c)->remote_gid = arg;
	return 0;
}

static int h_remote_mac(struct rw_optctx *c, const char *arg)
{
	if (parse_mac(arg))
		return rw_opt_fail(c, "'%s' is not a MAC address (expected xx:xx:xx:xx:xx:xx)", arg);
	O(c)->remote_mac = arg;
	return 0;
}

static int h_expect_pattern(struct rw_optctx *c, const char *arg)
{
	char why[96];

	if (rwv_fixed_pat_parse(arg, &O(c)->fixed_pat, why, sizeof(why)))
		return rw_opt_fail(c, "'%s': %s (expected hex bytes, e.g. 0xa5 or de:ad:be:ef)", arg, why);
	O(c)->have_fixed_pat = true;
	return 0;
}

#define SECTION(t) {t, 0, NULL, NULL, NULL}
/* One row per option: getopt_long, --help, --list-options (the bash
 * completion) and, by test, the man page's OPTIONS. */
static const struct rw_opt table[] = {
	SECTION("The run (the server takes the client's value for any of these it was not given;\n"
		"given on both sides, they must agree)"),
	{"transport", 'c', "RC|UC|UD", h_transport, "transport service (default RC)"},
	{"op", 'o', "OP", h_op, "send, send_imm, write, write_imm, read, cas, fadd\n"
				"(default send). READ, CAS and FADD need RC; WRITE\n"
				"needs RC or UC; UD carries only SENDs"},
	{"size", 's', "BYTES", h_size, "message size, K/M/G suffixes allowed (default 4096;\n"
				       "8 for atomics; for UD the path MTU, also its maximum)"},
	{"iters", 'n', "N", h_iters, "messages per QP (default 1000)"},
	{"qps", 'q', "N", h_qps, "queue pairs, each with its own buffer (default 1)"},
	{"mtu", 'm', "N", h_mtu, "path MTU: 256, 512, 1024, 2048 or 4096 (default: the\n"
				 "smaller active MTU of the two ports)"},
	{"tx-depth", 't', "N", h_tx_depth, "work requests in flight per QP (default 64)"},
	{"inline", 'I', "BYTES", h_inline, "max inline data; messages up to it go inline\n"
					   "(SEND and WRITE only; default 0)"},
	{"no-check", 0, NULL, h_no_check, "neither fill nor check the data pattern"},
	SECTION("Each side"),
	{"dev", 'd', "NAME", h_dev, "RDMA device (default: the first one)"},
	{"device", 0, "NAME", h_dev, "the same as --dev"},
	{"ib-port", 'i', "N", h_ib_port, "device port (default 1)"},
	{"gid-index", 'x', "N", h_gid_index, "source GID index (default: the port's RoCE v2\n"
					     "IPv4-mapped GID, found in /sys/class/infiniband/DEV/\n"
					     "ports/N/gids/* and gid_attrs/types/*; 0 on InfiniBand)"},
	{"tclass", 'T', "N", h_tclass, "GRH traffic class (IPv4 TOS byte), 0..255; its low two\n"
				       "bits are ECN, so 2 (ECT(0)) or 1 (ECT(1)) make\n"
				       "ECN-capable traffic (default 0; the server takes the\n"
				       "client's)"},
	{"sl", 0, "N", h_sl, "service level 0..15 (default 0)"},
	{"hop-limit", 0, "N", h_hop_limit, "GRH hop limit (IP TTL) 1..255 (default 64)"},
	{"psn", 0, "N", h_psn, "first PSN of QP 0; QP k starts at N+k (default random)"},
	{"qkey", 0, "N", h_qkey, "UD Q_Key (default 0x11111111)"},
	{"rx-depth", 'r', "N", h_rx_depth, "receives kept posted per QP by the server (default 128)"},
	{"retry-count", 0, "N", h_retry_count, "transport retries 0..7 (default 7)"},
	{"timeout-exp", 0, "N", h_timeout_exp, "local ACK timeout, 4.096 us * 2^N, 0..31 (default 14;\n"
					       "0 waits forever)"},
	{"rnr-retry", 0, "N", h_rnr_retry, "RNR retries 0..7 (default 7, which retries forever; 2\n"
					   "when the server runs with --no-recv)"},
	{"min-rnr-timer", 0, "N", h_min_rnr_timer, "RNR NAK timer code the responder sends, 0..31\n"
						   "(default 12 = 0.64 ms)"},
	{"port", 'p', "N", h_port, "TCP port of the exchange (default 18515)"},
	{"bind", 0, "ADDR", h_bind, "server: listen on ADDR only (default: every address)"},
	{"timeout", 0, "SECONDS", h_timeout, "bound on connecting, on every read of the exchange, on\n"
					     "the wait for any completion, and on the fixed-peer\n"
					     "wait (default 10)"},
	{"record", 0, "FILE", h_record, "write the JSON record of the run to FILE"},
	SECTION("Errors on purpose"),
	{"bad-rkey", 0, NULL, h_bad_rkey, "client: use a wrong rkey (RC WRITE, READ, atomics);\n"
					  "the client ends with \"remote access error\""},
	{"no-recv", 0, NULL, h_no_recv, "server: post no receives (RC SEND, SEND_IMM,\n"
					"WRITE_IMM); the client ends with \"RNR retry counter\n"
					"exceeded\""},
	SECTION("Fixed peer (one QP, no TCP exchange)"),
	{"fixed-peer", 0, NULL, h_fixed_peer, "server: take the peer from the options below, print\n"
					      "this side's QPN, PSN, rkey, address, length and GID as\n"
					      "one JSON line on stdout, wait (bounded by --timeout,\n"
					      "ended early by SIGINT/SIGTERM) for a synthetic sender,\n"
					      "then print the verdict as a second JSON line; client:\n"
					      "print this side's JSON line first, then read the peer's\n"
					      "(a --fixed-peer server's \"ready\" line) from\n"
					      "--peer-json, or take it from --remote-*"},
	{"remote-qpn", 0, "N", h_remote_qpn, "the peer's QPN"},
	{"remote-psn", 0, "N", h_remote_psn, "the peer's first PSN (server: the PSN this side expects)"},
	{"remote-gid", 0, "GID", h_remote_gid, "the peer's GID: IPv6 text, or a.b.c.d for the\n"
					       "IPv4-mapped ::ffff:a.b.c.d"},
	{"remote-mac", 0, "MAC", h_remote_mac, "server: the sender's MAC, checked against the\n"
					       "neighbour table (the kernel sends ACKs to the MAC it\n"
					       "resolves)"},
	{"remote-lid", 0, "N", h_remote_lid, "the peer's LID (InfiniBand only)"},
	{"remote-qkey", 0, "N", h_remote_qkey, "UD: the peer's Q_Key (default --qkey)"},
	{"check", 0, NULL, h_check, "server: check the built-in pattern as it lands (WRITE:\n"
				    "the buffer; SEND: every receive; atomics: the final\n"
				    "value) and end as soon as all of it is there"},
	{"expect-pattern", 0, "HEX", h_expect_pattern, "server: like --check, for HEX repeated over each\n"
						       "message (READ: fill the buffer with it)"},
	{"pattern-qp", 0, "N", h_pattern_qp, "server: QP index of the built-in pattern to expect\n"
					     "(default 0)"},
	{"remote-rkey", 0, "N", h_remote_rkey, "client: the server's rkey"},
	{"remote-addr", 0, "N", h_remote_addr, "client: the server's buffer address"},
	{"peer-json", 0, "FILE|-", h_peer_json, "client: the server's \"ready\" line, from FILE or, with\n"
						"-, from stdin (within --timeout); --remote-* given as\n"
						"well override its fields"},
	SECTION("Help"),
	{"help", 'h', NULL, NULL, "this text"},
	{"version", 'V', NULL, NULL, "the version"},
};
#define N_OPTS (sizeof(table) / sizeof(table[0]))

void rwv_usage(FILE *f)
{
	fputs("Usage: rocewire-verbs server [OPTIONS]\n"
	      "       rocewire-verbs client HOST [OPTIONS]\n"
	      "       rocewire-verbs server --fixed-peer --remote-qpn N --remote-psn N\n"
	      "                             --remote-gid GID [OPTIONS]\n"
	      "       rocewire-verbs client --fixed-peer (--peer-json FILE|- | --remote-qpn N\n"
	      "                             --remote-psn N --remote-gid GID [--remote-rkey N\n"
	      "                             --remote-addr N]) [OPTIONS]\n"
	      "\n"
	      "Moves RDMA traffic between two libibverbs endpoints and checks every byte it\n"
	      "moved. The client is the requester (SEND, RDMA WRITE, RDMA READ, atomics), the\n"
	      "server the responder. They swap QPN, PSN, GID, rkey and buffer address over TCP,\n"
	      "run, check the data pattern on the side that received it, and can write a JSON\n"
	      "record of the run to check a packet capture against.\n"
	      "\n",
	      f);
	rw_optab_usage(f, table, N_OPTS);
	fputs("\n"
	      "Exit status: 0 every completion succeeded and the data checked; 1 a completion\n"
	      "error, a data mismatch, a timeout while waiting for completions, an incomplete\n"
	      "or interrupted run; 2 a usage error; 3 a setup error (no device, port down, no\n"
	      "GID, peer unreachable, the exchange refused or timed out).\n"
	      "\n"
	      "Example (Soft-RoCE):\n"
	      "  rocewire-verbs server --record server.json &\n"
	      "  rocewire-verbs client 192.168.1.1 -o write -s 64K -n 100 --record client.json\n"
	      "\n"
	      "See rocewire-verbs(1) and gen/verbs/README.md.\n",
	      f);
}

/* The mode word: RWV_SERVER or RWV_CLIENT into o, -1 to go on; else the
 * exit status (after --help, --version, --list-options, or a usage error). */
static int parse_mode(int argc, char **argv, struct rwv_opts *o, char *err, size_t errlen)
{
	if (argc < 2) {
		fail(err, errlen, "missing mode: 'server' or 'client HOST' (see --help)");
		return RWV_EXIT_USAGE;
	}
	/* Hidden: the long options, one a line, for the bash completion. */
	if (strcmp(argv[1], "--list-options") == 0) {
		rw_optab_list(stdout, table, N_OPTS);
		return RWV_EXIT_OK;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		rwv_usage(stdout);
		return RWV_EXIT_OK;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		print_version();
		return RWV_EXIT_OK;
	}
	if (strcmp(argv[1], "server") == 0) {
		o->role = RWV_SERVER;
	} else if (strcmp(argv[1], "client") == 0) {
		o->role = RWV_CLIENT;
	} else {
		fail(err, errlen, "unknown mode '%s': expected 'server' or 'client HOST' (see --help)", argv[1]);
		return RWV_EXIT_USAGE;
	}
	return -1;
}

/* The defaults that depend on other options. */
static void derived_defaults(struct rwv_opts *o)
{
	if (rwv_op_is_atomic(o->op) && !(o->given & RWV_GIVEN_SIZE))
		o->size = 8;
	/* UD: one packet per message, so the default size is the path MTU, known
	 * only once the port is open (0 = decide then). */
	if (o->transport == RWV_UD && !(o->given & RWV_GIVEN_SIZE))
		o->size = (uint32_t)o->mtu;
	if (o->fixed_peer && !o->remote_qkey && !o->peer_json)
		o->remote_qkey = o->qkey;
	if (o->have_fixed_pat)
		o->check = true;
}

int rwv_opts_parse(int argc, char **argv, struct rwv_opts *o, char *err, size_t errlen)
{
	struct rw_optctx c = {o, NULL, err, errlen};
	int r;

	set_defaults(o);
	r = parse_mode(argc, argv, o, err, errlen);
	if (r >= 0)
		return r;
	/* getopt over argv[1..]: argv[1] plays the program name. optind = 0 makes
	 * glibc start afresh, so the parser can run more than once (tests). "+"
	 * stops at the first non-option: the client's HOST. Options may follow
	 * it, so take HOST and go on. */
	int ac = argc - 1;
	char **av = argv + 1;
	optind = 0;
	while ((r = rw_optab_parse(table, N_OPTS, "+", ac, av, &c)) == 0 && optind < ac &&
	       o->role == RWV_CLIENT && !o->host) {
		o->host = av[optind];
		ac -= optind;
		av += optind;
		optind = 1;
	}
	if (r == 'h')
		rwv_usage(stdout);
	else if (r == 'V')
		print_version();
	if (r != 0)
		return r > 0 ? RWV_EXIT_OK : RWV_EXIT_USAGE;
	if (optind < ac) {
		fail(err, errlen, "unexpected argument '%s'%s", av[optind],
		     o->role == RWV_SERVER ? " (the server takes no HOST)" : "");
		return RWV_EXIT_USAGE;
	}
	if (o->role == RWV_CLIENT && !o->host && !o->fixed_peer) {
		fail(err, errlen, "client needs the server's address: rocewire-verbs client HOST");
		return RWV_EXIT_USAGE;
	}
	derived_defaults(o);
	if (rwv_opts_check(o, err, errlen))
		return RWV_EXIT_USAGE;
	return -1;
}
