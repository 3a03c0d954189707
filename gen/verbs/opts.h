/* SPDX-License-Identifier: BSD-3-Clause */
/* Command line of rocewire-verbs: the options, their defaults, the checks that
 * reject impossible combinations, and the --help text. No libibverbs here, so
 * the validation is tested without a device. */
#ifndef RWV_OPTS_H
#define RWV_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pattern.h"

/* Exit statuses (README.md, "Exit status"). */
enum {
	RWV_EXIT_OK = 0,
	RWV_EXIT_FAIL = 1,  /* completion error, data check failed, incomplete run */
	RWV_EXIT_USAGE = 2, /* bad command line */
	RWV_EXIT_SETUP = 3, /* no device/port/GID, peer unreachable or refused */
};

enum rwv_role { RWV_SERVER, RWV_CLIENT };
enum rwv_transport { RWV_RC, RWV_UC, RWV_UD };
enum rwv_op {
	RWV_OP_SEND,
	RWV_OP_SEND_IMM,
	RWV_OP_WRITE,
	RWV_OP_WRITE_IMM,
	RWV_OP_READ,
	RWV_OP_CAS,
	RWV_OP_FADD,
};

/* Bits of rwv_opts.given: which run-defining options were on the command line
 * (the server takes the client's value for the others). */
enum {
	RWV_GIVEN_OP = 1u << 0,
	RWV_GIVEN_TRANSPORT = 1u << 1,
	RWV_GIVEN_SIZE = 1u << 2,
	RWV_GIVEN_ITERS = 1u << 3,
	RWV_GIVEN_QPS = 1u << 4,
	RWV_GIVEN_MTU = 1u << 5,
	RWV_GIVEN_TX_DEPTH = 1u << 6,
	RWV_GIVEN_TCLASS = 1u << 7,
	RWV_GIVEN_RNR_RETRY = 1u << 8,
	RWV_GIVEN_PSN = 1u << 9,
	RWV_GIVEN_INLINE = 1u << 10,
};

#define RWV_DEFAULT_TCP_PORT 18515
#define RWV_DEFAULT_QKEY 0x11111111u
#define RWV_MAX_QPS 1024
#define RWV_MAX_SIZE (1u << 30)
#define RWV_MAX_QP_BUF (1ull << 30)   /* bytes of slots per QP */
#define RWV_MAX_TOTAL_BUF (4ull << 30) /* bytes of slots over all QPs */
#define RWV_UD_GRH 40                  /* a UD receive starts with 40 bytes of GRH */

struct rwv_opts {
	enum rwv_role role;
	const char *host;       /* client: the server to reach */
	const char *bind;       /* server: listen address (NULL: any) */
	const char *dev;        /* NULL: the first device */
	int ib_port;
	int gid_index;          /* -1: pick the RoCE v2 IPv4-mapped GID */
	int tcp_port;
	enum rwv_transport transport;
	enum rwv_op op;
	uint32_t size;
	uint32_t iters;
	int qps;
	int mtu;                /* 0: the port's active MTU */
	uint32_t inline_size;
	int tclass;
	int sl;
	int hop_limit;
	int tx_depth;
	int rx_depth;
	uint32_t psn;           /* valid when given & RWV_GIVEN_PSN */
	uint32_t qkey;
	int retry_count;
	int timeout_exp;
	int rnr_retry;
	int min_rnr_timer;
	int timeout_s;
	const char *record;
	bool no_check;
	bool bad_rkey;
	bool no_recv;
	/* fixed-peer mode */
	bool fixed_peer;
	bool have_remote_qpn, have_remote_psn;
	uint32_t remote_qpn;
	uint32_t remote_psn;
	const char *remote_gid;
	const char *remote_mac;
	uint16_t remote_lid;
	uint32_t remote_qkey;
	bool have_remote_rkey, have_remote_addr;
	uint32_t remote_rkey;   /* client fixed peer */
	uint64_t remote_addr;   /* client fixed peer */
	const char *peer_json;  /* client fixed peer: the server's ready line ("-": stdin) */
	bool check;
	bool have_fixed_pat;
	struct rwv_fixed_pat fixed_pat;
	int pattern_qp;
	unsigned given;
};

/* Parses argv (argv[1] is "server" or "client"). Returns -1 and fills o when
 * the run should go on; otherwise the exit status to end with (0 after --help
 * or --version, 2 on a usage error with a one-line message in err). */
int rwv_opts_parse(int argc, char **argv, struct rwv_opts *o, char *err, size_t errlen);

/* The cross-option checks, also run by the server on the client's parameters.
 * Returns 0 or -1 with the reason in err. */
int rwv_opts_check(const struct rwv_opts *o, char *err, size_t errlen);

void rwv_usage(FILE *f);

const char *rwv_op_name(enum rwv_op op);         /* "WRITE_IMM" */
const char *rwv_transport_name(enum rwv_transport t); /* "RC" */
int rwv_op_parse(const char *s, enum rwv_op *op);
int rwv_transport_parse(const char *s, enum rwv_transport *t);
bool rwv_op_is_atomic(enum rwv_op op);
bool rwv_op_uses_recv(enum rwv_op op);  /* consumes a receive WQE at the responder */
bool rwv_op_uses_rkey(enum rwv_op op);

/* Slots per QP buffer: iteration i uses slot i % slots (README "Buffers"). */
uint32_t rwv_slots(uint32_t iters, int tx_depth);
uint32_t rwv_slot_size(enum rwv_op op, uint32_t size);

#endif
