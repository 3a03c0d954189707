/* SPDX-License-Identifier: BSD-3-Clause */
/* A generator scenario: what the YAML file says, as plain host-order C.
 *
 * scenario.c turns a YAML file (libyaml) into this description and checks
 * it; nothing here knows DPDK or wire offsets. The flow model (flow.h) runs
 * a checked description; the congestion model (issue 10) reads its own
 * section, `cc`. Names of parameters follow the open traffic-generator
 * RoCEv2 model (open-traffic-generator/models, port/rocev2.yaml) where it has
 * one, so that a user of commercial RoCE testers recognises them. */
#ifndef RWGEN_SCENARIO_H
#define RWGEN_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "cc.h"

#define GEN_NAME_MAX 32
#define GEN_SIZE_CHOICES 16
#define GEN_PATTERN_MAX 256

enum gen_transport {
	GEN_RC = 0,
	GEN_UC,
	GEN_UD,
};

/* Operations a flow mixes by weight. Which transports allow which: RC all,
 * UC SEND/SEND_IMM/WRITE/WRITE_IMM, UD SEND/SEND_IMM (IBA table 38). */
enum gen_op {
	GEN_OP_SEND = 0,
	GEN_OP_SEND_IMM,
	GEN_OP_SEND_INV,
	GEN_OP_WRITE,
	GEN_OP_WRITE_IMM,
	GEN_OP_READ,
	GEN_OP_CMP_SWAP,
	GEN_OP_FETCH_ADD,
};
#define GEN_OP_COUNT 8

struct gen_host {
	char name[GEN_NAME_MAX];
	uint8_t mac[6];
	uint8_t af;             /* 4 or 6 */
	uint8_t ip[16];         /* IPv4 in the first four bytes */
	uint8_t gid[16];        /* the IP as a RoCEv2 GID (IPv4-mapped for v4) unless given */
	uint8_t has_vlan;
	uint16_t vlan;          /* VLAN ID 0..4094 (0: priority tag only) */
	uint8_t pcp;            /* 802.1p priority, 0..7 (the PFC class) */
};

enum gen_size_kind {
	GEN_SIZE_FIXED = 0,     /* min */
	GEN_SIZE_UNIFORM,       /* uniform in [min, max] */
	GEN_SIZE_CHOICE,        /* values[i] with probability weights[i] / sum */
};

struct gen_size {
	enum gen_size_kind kind;
	uint32_t min, max;
	uint32_t n;
	uint32_t values[GEN_SIZE_CHOICES];
	uint32_t weights[GEN_SIZE_CHOICES];
};

enum gen_rate_unit {
	GEN_RATE_LINE = 0,      /* as fast as the port (or the pcap) takes */
	GEN_RATE_GBPS,          /* Gb/s of Ethernet frames, FCS, preamble and gap included */
	GEN_RATE_PPS,
	GEN_RATE_PCT,           /* percent of the port's line rate */
};

struct gen_rate {
	enum gen_rate_unit unit;
	double value;
};

/* One flow: `qps` queue pairs from host src to host dst, each a whole
 * conversation (requester on src, responder on dst, both generated unless
 * the responder is external). QP i (0-based) uses src_qpn + i, dst_qpn + i,
 * udp_sport + i (when udp_sport is not 0) and initial_psn + i * psn_stride
 * (mod 2^24). */
struct gen_flow {
	char name[GEN_NAME_MAX];
	uint32_t src, dst;             /* indices into hosts */
	enum gen_transport transport;
	uint32_t op_weight[GEN_OP_COUNT]; /* 0: not used; at least one non-zero */
	struct gen_size size;          /* message size in bytes (atomics: always 8) */
	uint16_t mtu;                  /* path MTU: 256, 512, 1024, 2048 or 4096 */
	struct gen_rate rate;          /* offered rate of the requester, per flow (shared by its QPs) */
	uint64_t start_ns, stop_ns;    /* stop_ns 0: until the run ends */
	uint64_t messages;             /* per QP; 0: no limit */
	uint32_t qps;                  /* >= 1 */
	uint32_t src_qpn, dst_qpn;     /* first QP's numbers, 24 bits, not 0 or 1 */
	uint32_t initial_psn;          /* requester's first PSN, 24 bits */
	uint32_t psn_stride;           /* initial PSN step between QPs (default 0x1000) */
	uint16_t udp_sport;            /* 0: derived from the QPNs as NICs do */
	uint8_t dscp;                  /* 0..63 */
	uint8_t ecn;                   /* 0..3: the codepoint senders set (2 = ECT(0)) */
	uint16_t pkey;                 /* default 0xFFFF */
	uint32_t qkey;                 /* UD */
	uint8_t max_rd_atomic;         /* outstanding READ/atomic requests per QP, 1..16 */
	uint32_t ack_request_interval; /* requester sets AckReq every N packets (and on each
					  message's last packet); the responder ACKs those */
	uint64_t retransmission_timeout_ns; /* requester's local ACK timeout */
	uint8_t retry_count;           /* resends after timeouts before the QP fails, 0..7 */
	uint8_t rnr_retry;             /* 0..7, 7 = infinite */
	uint8_t min_rnr_timer;         /* the responder's RNR NAK timer code, 0..31 (IBA table 45) */
	uint32_t rkey;                 /* the remote buffer WRITE/READ/atomics address */
	uint64_t va;
	uint64_t remote_len;           /* its length; messages advance through it and wrap */
	uint32_t recv_credits;         /* receive WQEs the responder advertises (0: no
					  credit limit, AETH credit code 31) */
	uint32_t immediate;            /* ImmDt of *_IMM operations */
	uint8_t immediate_sequence;    /* `immediate: sequence`: ImmDt is the message's number on
					  its QP (0, 1, ...), as a receiver that names messages by
					  their immediate data expects */
	uint32_t invalidate_rkey;      /* IETH of SEND_INV */
	uint64_t compare, swap_add;    /* AtomicETH operands: CMP_SWAP compares with compare and
					  swaps in swap_add; FETCH_ADD adds swap_add */
	uint8_t external_responder;    /* the responder is a real stack (rxe, a NIC):
					  generate the requester only, open loop */
	uint8_t pattern[GEN_PATTERN_MAX]; /* payload: these bytes repeated from the first
					     byte of every message; len divides 256 so that
					     every packet of a message carries the same bytes */
	uint16_t pattern_len;
	uint32_t line;                 /* where it was defined in the file, for messages */
	uint8_t cc_exempt;             /* `congestion: false`: the flow bypasses the congestion
					  model (no bottleneck, no DCQCN, no CNPs) */
	uint8_t cm;                    /* RC: each QP opens with a CM handshake on QP 1 (REQ,
					  REP, RTU) and closes with DREQ, DREP (flow_cm.c) */
};

/* A fault: what to do to the packets that match every given criterion. */
enum gen_fault_action {
	GEN_FAULT_DROP = 0,      /* lost between sender and receiver (never on the wire) */
	GEN_FAULT_ECN_MARK,      /* IP ECN set to CE (the ICRC masks it) */
	GEN_FAULT_CORRUPT,       /* a payload or header bit flipped: bad ICRC */
	GEN_FAULT_RNR,           /* the responder answers this SEND with an RNR NAK */
	GEN_FAULT_BAD_RKEY,      /* the request carries a wrong R_Key: remote access error NAK */
};
#define GEN_FAULT_COUNT (GEN_FAULT_BAD_RKEY + 1) /* name tables are asserted against it */

enum gen_dir {
	GEN_DIR_ANY = 0,
	GEN_DIR_REQUEST,         /* requester to responder */
	GEN_DIR_RESPONSE,        /* ACKs, NAKs, READ responses, atomic ACKs */
};

struct gen_fault {
	enum gen_fault_action action;
	int32_t flow;            /* index into flows, -1: any */
	int64_t qpn;             /* destination QPN in the BTH, -1: any */
	int64_t psn_lo, psn_hi;  /* inclusive PSN range, -1: any */
	int16_t opcode;          /* BTH opcode, -1: any */
	enum gen_dir dir;
	uint32_t transmission;   /* 0: any; 1: the first send of that PSN; n: the (n-1)th resend */
	double probability;      /* 0 < p <= 1 (1 when not given) */
	uint64_t after_ns, until_ns; /* active window on the run's clock; until 0: no end */
	uint64_t every;          /* apply to every Nth matching packet (0 or 1: each) */
	uint64_t count;          /* stop after this many applications (0: no limit) */
	uint32_t line;
};

/* The `congestion:` section (README-congestion.md, "Scenario keys"): the
 * models' own parameter structs of cc.h, filled from their presets and the
 * file's overrides, so the flow model passes them on unchanged. */
enum gen_cc_mode {
	GEN_CC_OFF = 0,          /* no section, or mode: off: nothing changes */
	GEN_CC_SIMULATED,        /* the switch model between the flows (cc_sw_*) */
	GEN_CC_CLOSED_LOOP,      /* a real network: RP and NP only, no switch model */
};
#define GEN_CC_MODES (GEN_CC_CLOSED_LOOP + 1) /* name tables are asserted against it */

enum gen_cc_format {
	GEN_CC_CSV = 0,          /* a header line, then one record per line */
	GEN_CC_JSONL,            /* one JSON object per line */
};
#define GEN_CC_FORMATS (GEN_CC_JSONL + 1)

#define GEN_CC_STORMS 64
#define GEN_PATH_MAX 256

/* A stuck receiver behind the switch port (cc_sw_storm). */
struct gen_cc_storm {
	uint8_t prio;
	uint64_t start_ns, duration_ns;
	uint32_t line;
};

/* Files the simulated run writes beside its capture; "" is not written. */
struct gen_congestion_outputs {
	char fct[GEN_PATH_MAX];
	char pfc[GEN_PATH_MAX];
	char qlen[GEN_PATH_MAX];
	uint64_t qlen_interval_ns;   /* qlen sample period (default 1 us) */
	enum gen_cc_format format;
};

struct gen_congestion {
	enum gen_cc_mode mode;
	/* The bottleneck (simulated mode; read but unused when off). nprio is
	 * always 8 so that every PCP has its queue; response_ns is pfc_response_ns. */
	struct cc_sw_params sw;
	uint32_t n_storms;
	struct gen_cc_storm storms[GEN_CC_STORMS];
	struct cc_dcqcn_params dcqcn;    /* every requester QP's reaction point */
	char dcqcn_preset[16];           /* the preset it started from */
	struct cc_np_params np;          /* every responder's notification point */
	char np_preset[16];
	uint64_t pfc_response_ns;        /* a compliant sender stops this long after XOFF */
	uint8_t pfc_ignore;              /* senders keep sending while paused ("ignored pause") */
	struct gen_congestion_outputs out;
	uint32_t line;                   /* where the section starts (0: absent) */
};

struct gen_scenario {
	char name[64];
	uint64_t duration_ns;    /* run length on the model's clock; 0: until packets */
	uint64_t packets;        /* stop after this many packets in all; 0: no limit */
	double line_rate_gbps;   /* the port's line rate for GEN_RATE_PCT and for the
				    model's clock on a pcap (default 100) */
	uint64_t link_delay_ns;  /* one-way delay between requester and responder (default 1000) */
	uint64_t seed;           /* for probabilities and size distributions */
	uint32_t n_hosts, n_flows, n_faults;
	struct gen_host *hosts;
	struct gen_flow *flows;
	struct gen_fault *faults;
	struct gen_congestion cc;  /* mode GEN_CC_OFF without a `congestion:` section */
};

/* Loads and checks a scenario file. Returns 0, or -1 with one line in err:
 * "FILE:LINE:COLUMN: what was expected" (or "FILE: reason" when the file
 * cannot be read). *out is filled only on success; free it with
 * gen_scenario_free(). */
int gen_scenario_load(const char *path, struct gen_scenario *out, char *err, size_t errcap);
/* The same from a string; name is what messages call it. */
int gen_scenario_parse(const char *text, size_t len, const char *name, struct gen_scenario *out,
		       char *err, size_t errcap);
/* The built-in default (what runs with no scenario file): a clean RC mix of
 * WRITE, READ and SEND between two hosts. */
int gen_scenario_default(struct gen_scenario *out);
/* Fills a flow with the defaults the YAML parser starts from. */
void gen_flow_defaults(struct gen_flow *f);
void gen_scenario_free(struct gen_scenario *s);

/* A duration as scenario files write it ("10ms", "1.5us", "2s"): 0, -1
 * malformed (a bare number is taken as bare_ns units, or refused when
 * bare_ns is 0, except 0 itself), -2 not a whole number of nanoseconds,
 * -3 too large. */
int gen_parse_duration(const char *s, uint64_t bare_ns, uint64_t *out);

const char *gen_op_name(enum gen_op op);
/* A flow's path MTU: the scenario's (a power of two, 256 to 4096), 1024
 * for a flow made without one. */
static inline uint32_t gen_flow_mtu(const struct gen_flow *f)
{
	return f->mtu ? f->mtu : 1024;
}          /* "send", "write_imm", ... as in YAML */
const char *gen_transport_name(enum gen_transport t); /* "rc", "uc", "ud" */
const char *gen_fault_action_name(enum gen_fault_action a); /* "drop", "ecn_mark", ... */

#endif
