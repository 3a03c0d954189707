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

void rwv_usage(FILE *f)
{
	fputs(
"Usage: rocewire-verbs server [OPTIONS]\n"
"       rocewire-verbs client HOST [OPTIONS]\n"
"       rocewire-verbs server --fixed-peer --remote-qpn N --remote-psn N\n"
"                             --remote-gid GID [OPTIONS]\n"
"       rocewire-verbs client --fixed-peer --peer-json FILE|- [OPTIONS]\n"
"\n"
"Moves RDMA traffic between two libibverbs endpoints and checks every byte it\n"
"moved. The client is the requester (SEND, RDMA WRITE, RDMA READ, atomics), the\n"
"server the responder. They swap QPN, PSN, GID, rkey and buffer address over TCP,\n"
"run, check the data pattern on the side that received it, and can write a JSON\n"
"record of the run to check a packet capture against.\n"
"\n"
"The run (the server takes the client's value for any of these it was not given;\n"
"given on both sides, they must agree):\n"
"  -c, --transport RC|UC|UD  transport service (default RC)\n"
"  -o, --op OP               send, send_imm, write, write_imm, read, cas, fadd\n"
"                            (default send). READ, CAS and FADD need RC; WRITE\n"
"                            needs RC or UC; UD carries only SENDs\n"
"  -s, --size BYTES          message size, K/M/G suffixes allowed (default 4096;\n"
"                            8 for atomics; for UD the path MTU, also its maximum)\n"
"  -n, --iters N             messages per QP (default 1000)\n"
"  -q, --qps N               queue pairs, each with its own buffer (default 1)\n"
"  -m, --mtu N               path MTU: 256, 512, 1024, 2048 or 4096 (default: the\n"
"                            smaller active MTU of the two ports)\n"
"  -t, --tx-depth N          work requests in flight per QP (default 64)\n"
"  -I, --inline BYTES        max inline data; messages up to it go inline\n"
"                            (SEND and WRITE only; default 0)\n"
"      --no-check            neither fill nor check the data pattern\n"
"\n"
"Each side:\n"
"  -d, --dev, --device NAME  RDMA device (default: the first one)\n"
"  -i, --ib-port N           device port (default 1)\n"
"  -x, --gid-index N         source GID index (default: the port's RoCE v2\n"
"                            IPv4-mapped GID, found in /sys/class/infiniband/DEV/\n"
"                            ports/N/gids/* and gid_attrs/types/*; 0 on InfiniBand)\n"
"  -T, --tclass N            GRH traffic class (IPv4 TOS byte), 0..255; its low two\n"
"                            bits are ECN, so 2 (ECT(0)) or 1 (ECT(1)) make\n"
"                            ECN-capable traffic (default 0; the server takes the\n"
"                            client's)\n"
"      --sl N                service level 0..15 (default 0)\n"
"      --hop-limit N         GRH hop limit (IP TTL) 1..255 (default 64)\n"
"      --psn N               first PSN of QP 0; QP k starts at N+k (default random)\n"
"      --qkey N              UD Q_Key (default 0x11111111)\n"
"  -r, --rx-depth N          receives kept posted per QP by the server (default 128)\n"
"      --retry-count N       transport retries 0..7 (default 7)\n"
"      --timeout-exp N       local ACK timeout, 4.096 us * 2^N, 0..31 (default 14;\n"
"                            0 waits forever)\n"
"      --rnr-retry N         RNR retries 0..7 (default 7, which retries forever; 2\n"
"                            when the server runs with --no-recv)\n"
"      --min-rnr-timer N     RNR NAK timer code the responder sends, 0..31\n"
"                            (default 12 = 0.64 ms)\n"
"  -p, --port N              TCP port of the exchange (default 18515)\n"
"      --bind ADDR           server: listen on ADDR only (default: every address)\n"
"      --timeout SECONDS     bound on connecting, on every read of the exchange, on\n"
"                            the wait for any completion, and on the fixed-peer\n"
"                            wait (default 10)\n"
"      --record FILE         write the JSON record of the run to FILE\n"
"\n"
"Errors on purpose:\n"
"      --bad-rkey            client: use a wrong rkey (RC WRITE, READ, atomics);\n"
"                            the client ends with \"remote access error\"\n"
"      --no-recv             server: post no receives (RC SEND, SEND_IMM,\n"
"                            WRITE_IMM); the client ends with \"RNR retry counter\n"
"                            exceeded\"\n"
"\n"
"Fixed peer (server only; one QP, no TCP exchange):\n"
"      --fixed-peer          take the peer from the options below, print this\n"
"                            side's QPN, PSN, rkey, address, length and GID as one\n"
"                            JSON line on stdout, wait (bounded by --timeout, ended\n"
"                            early by SIGINT/SIGTERM) for a synthetic sender, then\n"
"                            print the verdict as a second JSON line\n"
"      --remote-qpn N        the sender's QPN\n"
"      --remote-psn N        the sender's first PSN (the PSN this side expects)\n"
"      --remote-gid GID      the sender's GID: IPv6 text, or a.b.c.d for the\n"
"                            IPv4-mapped ::ffff:a.b.c.d\n"
"      --remote-mac MAC      the sender's MAC, checked against the neighbour table\n"
"                            (the kernel sends ACKs to the MAC it resolves)\n"
"      --remote-lid N        the sender's LID (InfiniBand only)\n"
"      --remote-qkey N       UD: the sender's Q_Key (default --qkey)\n"
"      --check               check the built-in pattern as it lands (WRITE: the\n"
"                            buffer; SEND: every receive; atomics: the final\n"
"                            value) and end as soon as all of it is there\n"
"      --expect-pattern HEX  like --check, for HEX repeated over each message\n"
"                            (READ: fill the buffer with it)\n"
"      --pattern-qp N        QP index of the built-in pattern to expect (default 0)\n"
"\n"
"Fixed peer, client side (one QP, no TCP exchange; drives a --fixed-peer server\n"
"or any responder whose coordinates are known):\n"
"  rocewire-verbs client --fixed-peer (--peer-json FILE | --remote-qpn N\n"
"                        --remote-psn N --remote-gid GID [--remote-rkey N\n"
"                        --remote-addr N]) [OPTIONS]\n"
"                            prints this side's JSON line first, then reads the\n"
"                            peer's (a --fixed-peer server's \"ready\" line) from\n"
"                            FILE or, with -, from stdin (within --timeout);\n"
"                            --remote-* given as well override its fields\n"
"\n"
"  -h, --help                this text\n"
"  -V, --version             the version\n"
"\n"
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

enum {
	OPT_SL = 256,
	OPT_HOP_LIMIT,
	OPT_PSN,
	OPT_QKEY,
	OPT_RETRY_COUNT,
	OPT_TIMEOUT_EXP,
	OPT_RNR_RETRY,
	OPT_MIN_RNR_TIMER,
	OPT_BIND,
	OPT_TIMEOUT,
	OPT_RECORD,
	OPT_NO_CHECK,
	OPT_BAD_RKEY,
	OPT_NO_RECV,
	OPT_FIXED_PEER,
	OPT_REMOTE_QPN,
	OPT_REMOTE_PSN,
	OPT_REMOTE_GID,
	OPT_REMOTE_MAC,
	OPT_REMOTE_LID,
	OPT_REMOTE_QKEY,
	OPT_CHECK,
	OPT_EXPECT_PATTERN,
	OPT_PATTERN_QP,
	OPT_REMOTE_RKEY,
	OPT_REMOTE_ADDR,
	OPT_PEER_JSON,
};

static const struct option long_opts[] = {
	{"transport", required_argument, NULL, 'c'},
	{"op", required_argument, NULL, 'o'},
	{"size", required_argument, NULL, 's'},
	{"iters", required_argument, NULL, 'n'},
	{"qps", required_argument, NULL, 'q'},
	{"mtu", required_argument, NULL, 'm'},
	{"tx-depth", required_argument, NULL, 't'},
	{"rx-depth", required_argument, NULL, 'r'},
	{"inline", required_argument, NULL, 'I'},
	{"dev", required_argument, NULL, 'd'},
	{"device", required_argument, NULL, 'd'},
	{"ib-port", required_argument, NULL, 'i'},
	{"gid-index", required_argument, NULL, 'x'},
	{"tclass", required_argument, NULL, 'T'},
	{"port", required_argument, NULL, 'p'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{"sl", required_argument, NULL, OPT_SL},
	{"hop-limit", required_argument, NULL, OPT_HOP_LIMIT},
	{"psn", required_argument, NULL, OPT_PSN},
	{"qkey", required_argument, NULL, OPT_QKEY},
	{"retry-count", required_argument, NULL, OPT_RETRY_COUNT},
	{"timeout-exp", required_argument, NULL, OPT_TIMEOUT_EXP},
	{"rnr-retry", required_argument, NULL, OPT_RNR_RETRY},
	{"min-rnr-timer", required_argument, NULL, OPT_MIN_RNR_TIMER},
	{"bind", required_argument, NULL, OPT_BIND},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"record", required_argument, NULL, OPT_RECORD},
	{"no-check", no_argument, NULL, OPT_NO_CHECK},
	{"bad-rkey", no_argument, NULL, OPT_BAD_RKEY},
	{"no-recv", no_argument, NULL, OPT_NO_RECV},
	{"fixed-peer", no_argument, NULL, OPT_FIXED_PEER},
	{"remote-qpn", required_argument, NULL, OPT_REMOTE_QPN},
	{"remote-psn", required_argument, NULL, OPT_REMOTE_PSN},
	{"remote-gid", required_argument, NULL, OPT_REMOTE_GID},
	{"remote-mac", required_argument, NULL, OPT_REMOTE_MAC},
	{"remote-lid", required_argument, NULL, OPT_REMOTE_LID},
	{"remote-qkey", required_argument, NULL, OPT_REMOTE_QKEY},
	{"check", no_argument, NULL, OPT_CHECK},
	{"expect-pattern", required_argument, NULL, OPT_EXPECT_PATTERN},
	{"pattern-qp", required_argument, NULL, OPT_PATTERN_QP},
	{"remote-rkey", required_argument, NULL, OPT_REMOTE_RKEY},
	{"remote-addr", required_argument, NULL, OPT_REMOTE_ADDR},
	{"peer-json", required_argument, NULL, OPT_PEER_JSON},
	{NULL, 0, NULL, 0},
};

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

int rwv_opts_parse(int argc, char **argv, struct rwv_opts *o, char *err, size_t errlen)
{
	uint64_t v;
	int c;

	set_defaults(o);
	if (argc < 2) {
		fail(err, errlen, "missing mode: 'server' or 'client HOST' (see --help)");
		return RWV_EXIT_USAGE;
	}
	/* Hidden: the long options, one a line, for the bash completion. */
	if (strcmp(argv[1], "--list-options") == 0) {
		for (const struct option *lo = long_opts; lo->name; lo++)
			printf("--%s%s\n", lo->name, lo->has_arg == required_argument ? "=" : "");
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
		fail(err, errlen, "unknown mode '%s': expected 'server' or 'client HOST' (see "
		     "--help)", argv[1]);
		return RWV_EXIT_USAGE;
	}

	/* getopt over argv[1..]: argv[1] plays the program name. optind = 0 makes
	 * glibc start afresh, so the parser can run more than once (tests). */
	int ac = argc - 1;
	char **av = argv + 1;
	optind = 0;
	opterr = 0;
#define NUM(lo, hi, sfx)                                                                 \
	do {                                                                              \
		if (parse_num(optname, optarg, (lo), (hi), (sfx), &v, err, errlen))        \
			return RWV_EXIT_USAGE;                                            \
	} while (0)
	for (;;) {
		int li = -1;
		c = getopt_long(ac, av, "+:c:o:s:n:q:m:t:r:I:d:i:x:T:p:hV", long_opts, &li);
		if (c == -1) {
			/* "+" stops at the first non-option: the client's HOST. Options may
			 * follow it, so take HOST and go on. */
			if (optind < ac && o->role == RWV_CLIENT && !o->host) {
				o->host = av[optind];
				ac -= optind;
				av += optind;
				optind = 1;
				continue;
			}
			break;
		}
		char optname[40];
		if (li >= 0)
			snprintf(optname, sizeof(optname), "--%s", long_opts[li].name);
		else
			snprintf(optname, sizeof(optname), "-%c", c);
		switch (c) {
		case 'c':
			if (rwv_transport_parse(optarg, &o->transport)) {
				fail(err, errlen, "%s: unknown transport '%s' (expected RC, UC or UD)",
				     optname, optarg);
				return RWV_EXIT_USAGE;
			}
			o->given |= RWV_GIVEN_TRANSPORT;
			break;
		case 'o':
			if (rwv_op_parse(optarg, &o->op)) {
				fail(err, errlen, "%s: unknown operation '%s' (expected send, send_imm, "
				     "write, write_imm, read, cas or fadd)", optname, optarg);
				return RWV_EXIT_USAGE;
			}
			o->given |= RWV_GIVEN_OP;
			break;
		case 's':
			NUM(1, RWV_MAX_SIZE, true);
			o->size = (uint32_t)v;
			o->given |= RWV_GIVEN_SIZE;
			break;
		case 'n':
			NUM(1, UINT32_MAX, false);
			o->iters = (uint32_t)v;
			o->given |= RWV_GIVEN_ITERS;
			break;
		case 'q':
			NUM(1, RWV_MAX_QPS, false);
			o->qps = (int)v;
			o->given |= RWV_GIVEN_QPS;
			break;
		case 'm':
			NUM(256, 4096, false);
			if (v != 256 && v != 512 && v != 1024 && v != 2048 && v != 4096) {
				fail(err, errlen, "%s: %s is not an IB MTU (expected 256, 512, 1024, "
				     "2048 or 4096)", optname, optarg);
				return RWV_EXIT_USAGE;
			}
			o->mtu = (int)v;
			o->given |= RWV_GIVEN_MTU;
			break;
		case 't':
			NUM(1, 16384, false);
			o->tx_depth = (int)v;
			o->given |= RWV_GIVEN_TX_DEPTH;
			break;
		case 'r':
			NUM(1, 16384, false);
			o->rx_depth = (int)v;
			break;
		case 'I':
			NUM(0, 65536, true);
			o->inline_size = (uint32_t)v;
			o->given |= RWV_GIVEN_INLINE;
			break;
		case 'd':
			o->dev = optarg;
			break;
		case 'i':
			NUM(1, 255, false);
			o->ib_port = (int)v;
			break;
		case 'x':
			NUM(0, 65535, false);
			o->gid_index = (int)v;
			break;
		case 'T':
			NUM(0, 255, false);
			o->tclass = (int)v;
			o->given |= RWV_GIVEN_TCLASS;
			break;
		case 'p':
			NUM(1, 65535, false);
			o->tcp_port = (int)v;
			break;
		case 'h':
			rwv_usage(stdout);
			return RWV_EXIT_OK;
		case 'V':
			print_version();
			return RWV_EXIT_OK;
		case OPT_SL:
			NUM(0, 15, false);
			o->sl = (int)v;
			break;
		case OPT_HOP_LIMIT:
			NUM(1, 255, false);
			o->hop_limit = (int)v;
			break;
		case OPT_PSN:
			NUM(0, 0xffffff, false);
			o->psn = (uint32_t)v;
			o->given |= RWV_GIVEN_PSN;
			break;
		case OPT_QKEY:
			NUM(0, UINT32_MAX, false);
			o->qkey = (uint32_t)v;
			break;
		case OPT_RETRY_COUNT:
			NUM(0, 7, false);
			o->retry_count = (int)v;
			break;
		case OPT_TIMEOUT_EXP:
			NUM(0, 31, false);
			o->timeout_exp = (int)v;
			break;
		case OPT_RNR_RETRY:
			NUM(0, 7, false);
			o->rnr_retry = (int)v;
			o->given |= RWV_GIVEN_RNR_RETRY;
			break;
		case OPT_MIN_RNR_TIMER:
			NUM(0, 31, false);
			o->min_rnr_timer = (int)v;
			break;
		case OPT_BIND:
			o->bind = optarg;
			break;
		case OPT_TIMEOUT:
			NUM(1, 86400, false);
			o->timeout_s = (int)v;
			break;
		case OPT_RECORD:
			o->record = optarg;
			break;
		case OPT_NO_CHECK:
			o->no_check = true;
			break;
		case OPT_BAD_RKEY:
			o->bad_rkey = true;
			break;
		case OPT_NO_RECV:
			o->no_recv = true;
			break;
		case OPT_FIXED_PEER:
			o->fixed_peer = true;
			break;
		case OPT_REMOTE_QPN:
			NUM(1, 0xffffff, false);
			o->remote_qpn = (uint32_t)v;
			o->have_remote_qpn = true;
			break;
		case OPT_REMOTE_PSN:
			NUM(0, 0xffffff, false);
			o->remote_psn = (uint32_t)v;
			o->have_remote_psn = true;
			break;
		case OPT_REMOTE_GID: {
			unsigned char g[16];
			struct in_addr a4;
			if (inet_pton(AF_INET6, optarg, g) != 1 && inet_pton(AF_INET, optarg, &a4) != 1) {
				fail(err, errlen, "%s: '%s' is not a GID (expected IPv6 text such as "
				     "::ffff:192.168.1.2, or an IPv4 address)", optname, optarg);
				return RWV_EXIT_USAGE;
			}
			o->remote_gid = optarg;
			break;
		}
		case OPT_REMOTE_MAC:
			if (parse_mac(optarg)) {
				fail(err, errlen, "%s: '%s' is not a MAC address (expected "
				     "xx:xx:xx:xx:xx:xx)", optname, optarg);
				return RWV_EXIT_USAGE;
			}
			o->remote_mac = optarg;
			break;
		case OPT_REMOTE_LID:
			NUM(1, 0xffff, false);
			o->remote_lid = (uint16_t)v;
			break;
		case OPT_REMOTE_QKEY:
			NUM(0, UINT32_MAX, false);
			o->remote_qkey = (uint32_t)v;
			break;
		case OPT_CHECK:
			o->check = true;
			break;
		case OPT_EXPECT_PATTERN: {
			char why[96];
			if (rwv_fixed_pat_parse(optarg, &o->fixed_pat, why, sizeof(why))) {
				fail(err, errlen, "%s: '%s': %s (expected hex bytes, e.g. 0xa5 or "
				     "de:ad:be:ef)", optname, optarg, why);
				return RWV_EXIT_USAGE;
			}
			o->have_fixed_pat = true;
			break;
		}
		case OPT_PATTERN_QP:
			NUM(0, 0xffff, false);
			o->pattern_qp = (int)v;
			break;
		case OPT_REMOTE_RKEY:
			NUM(0, UINT32_MAX, false);
			o->remote_rkey = (uint32_t)v;
			o->have_remote_rkey = true;
			break;
		case OPT_REMOTE_ADDR:
			NUM(0, UINT64_MAX, false);
			o->remote_addr = v;
			o->have_remote_addr = true;
			break;
		case OPT_PEER_JSON:
			o->peer_json = optarg;
			break;
		case ':':
			fail(err, errlen, "%s needs a value (see --help)", av[optind - 1]);
			return RWV_EXIT_USAGE;
		case '?':
		default:
			if (optopt)
				fail(err, errlen, "unknown option -%c (see --help)", optopt);
			else
				fail(err, errlen, "unknown option %s (see --help)", av[optind - 1]);
			return RWV_EXIT_USAGE;
		}
	}
#undef NUM
	if (optind < ac) {
		fail(err, errlen, "unexpected argument '%s'%s", av[optind],
		     o->role == RWV_SERVER ? " (the server takes no HOST)" : "");
		return RWV_EXIT_USAGE;
	}
	if (o->role == RWV_CLIENT && !o->host && !o->fixed_peer) {
		fail(err, errlen, "client needs the server's address: rocewire-verbs client HOST");
		return RWV_EXIT_USAGE;
	}

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

	if (rwv_opts_check(o, err, errlen))
		return RWV_EXIT_USAGE;
	return -1;
}
