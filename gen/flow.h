/* SPDX-License-Identifier: BSD-3-Clause */
/* The flow model: both ends of every RoCEv2 conversation of a scenario, on a
 * virtual clock, as a stream of packet descriptions in time order.
 *
 * Plain C with no DPDK types, so that the unit tests run it without EAL and
 * the same code drives a real port, a pcap and (issue 10) a simulated switch.
 * The model decides *what* is sent and when; it never writes frame bytes.
 * The TX layer (tx.c) turns a gen_pkt into a frame through proto's template
 * (rocewire/tmpl.h): one template per (flow, direction, opcode, payload
 * length), the fields below patched in, the ICRC updated incrementally.
 *
 * One model instance owns a shard of the flows (flow index % nshards ==
 * shard), so each lcore runs its own instance with no locks. Both ends of a
 * conversation are in the same shard. */
#ifndef RWGEN_FLOW_H
#define RWGEN_FLOW_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/ext.h"
#include "rocewire/tmpl.h"
#include "scenario.h"

/* Fault flags on an emitted packet: the TX layer applies them to the bytes. */
#define GEN_PF_CE 0x1        /* set IP ECN to CE */
#define GEN_PF_CORRUPT 0x2   /* send the ICRC XOR 1: a receiver must drop it */

/* GEN_PK_CM: a CM message (mad.h) of an RC flow's connection set-up or
 * tear-down, a UD SEND Only from QP 1 to QP 1 on the flow's addresses;
 * cm_msg says which (enum rw_cm_msg), gen_cm_mad() writes its MAD. */
enum gen_pkt_kind { GEN_PK_ROCE = 0, GEN_PK_PFC, GEN_PK_CM };

/* One packet to send. Everything the frame needs besides the flow's fixed
 * addresses (hosts, VLAN, DSCP/ECN, P_Key, UDP source port of the QP). */
struct gen_pkt {
	uint64_t t_ns;           /* when it leaves the sender, on the model's clock */
	uint32_t flow;           /* index into the scenario's flows */
	uint32_t qp;             /* QP index inside the flow (0..qps-1) */
	uint8_t dir;             /* GEN_DIR_REQUEST (src -> dst) or GEN_DIR_RESPONSE */
	uint8_t opcode;          /* BTH opcode (rocewire/opcode.h) */
	uint8_t flags;           /* GEN_PF_* */
	uint8_t resend;          /* 1: a retransmission of a PSN sent before */
	uint8_t kind;            /* GEN_PK_ROCE, or GEN_PK_PFC: an 802.1Qbb frame of the
				  * simulated switch (dir GEN_DIR_REQUEST: the switch to the
				  * senders; GEN_DIR_RESPONSE: the receiver behind it, a storm) */
	uint16_t cm_msg;         /* GEN_PK_CM: enum rw_cm_msg (RW_CM_REQ, ...) */
	union {
		struct {
			uint16_t pfc_cev;        /* PFC: class-enable vector and time per class */
			uint16_t pfc_quanta[8];
		};
		struct {
			/* GEN_PK_CM with a real peer (gen_cm_mad): what the other
			 * end announced; 0 for the scenario's own values */
			uint32_t cm_peer_id;     /* its comm ID (REP, DREP, RTU, DREQ, REJ: remote ID) */
			uint32_t cm_peer_qpn;    /* its QPN (DREQ: remote QPN) */
			uint16_t cm_rej_reason;  /* REJ: IBA 12.6.7 table 103 */
		};
	};
	uint32_t payload_len;    /* bytes of payload, without pad */
	uint32_t frame_len;      /* the whole frame, as the model counted it for pacing */
	uint32_t hdrs;           /* which extension headers of f the opcode carries (1 << enum rw_hdr) */
	/* The fields proto's templates stamp (destination QP, PSN, AckReq,
	 * SE, BECN and the extension headers), in proto's own description:
	 * the model sets them, the TX layer hands them to the template as they
	 * are. ecn and udp_sport are the TX layer's (the flow's and the CE
	 * mark's; the QP's port), not the model's. */
	struct rw_tmpl_fields f;
};

/* Per-flow counters the model keeps (the TX layer counts bytes it sent). */
struct gen_flow_stats {
	uint64_t packets[2];            /* by direction: [0] requests, [1] responses */
	uint64_t bytes[2];              /* frame bytes (without FCS) */
	uint64_t messages[GEN_OP_COUNT];/* completed at the requester (RC: acknowledged) */
	uint64_t messages_started[GEN_OP_COUNT];
	uint64_t retransmissions;       /* packets resent */
	uint64_t resent[2];             /* of them, by direction: [0] requests, [1] responses
					 * (READ responses answering a duplicate READ) */
	uint64_t naks_seq, naks_rnr, naks_access; /* NAKs the responder sent */
	uint64_t timeouts;              /* requester timeouts that led to resends */
	uint64_t faults[GEN_FAULT_COUNT]; /* applied, by enum gen_fault_action */
	uint64_t qps_failed;            /* retries exhausted or remote access error */
	uint64_t first_ns, last_ns;     /* first and last packet of the flow (CM messages aside) */
	uint64_t cm_msgs[2];            /* CM messages (not in packets or bytes): [0] by the
					 * requester (REQ, RTU, DREQ), [1] by the responder (REP, DREP) */
	uint64_t cm_bytes[2];
	uint64_t cm_resent;             /* REQs and DREQs sent again: no answer within the CM
					 * response timeout (a real responder, closed loop) */
	uint64_t cm_failed;             /* QPs whose REQ got no REP after every retry, or a REJ */
};

struct gen_model;

/* A model for the flows of one shard. NULL on allocation failure. The
 * scenario must outlive the model. */
struct gen_model *gen_model_new(const struct gen_scenario *sc, uint32_t shard, uint32_t nshards);
void gen_model_free(struct gen_model *m);

/* Fills up to n packets in time order, none later than until_ns (pass
 * UINT64_MAX for no bound). Returns how many; 0 with gen_model_done() true
 * when every flow has finished (stop time, message limit, or failed QPs),
 * 0 otherwise when the next packet is later than until_ns. Once the
 * scenario's duration or packet limit is passed no message starts, and the
 * messages under way finish with their responses and recoveries: a run ends
 * on whole conversations. */
uint32_t gen_model_next(struct gen_model *m, struct gen_pkt *out, uint32_t n, uint64_t until_ns);
int gen_model_done(const struct gen_model *m);
const struct gen_flow_stats *gen_model_stats(const struct gen_model *m, uint32_t flow);

/* ---- the lockstep stream ----
 * A shard that holds one unreliable flow (UC or UD) which no fault and no
 * congestion touch, sending one operation of one size in messages of one
 * packet, moves in lockstep: every QP sends its k-th message at the same
 * time t_k, and the clock sends them in QP order (its tie order). The whole
 * state is then (k, next QP), and the model can hand out its packets as
 * rounds instead of one gen_pkt each: the TX layer writes their frames from
 * one header and a few words per QP (tx_frame.h), which is what lets one
 * core keep up with a port at line rate. Packets, order, times, counters and
 * the end of the run are those gen_model_next() gives for the same model
 * (the unit test compares them packet by packet). */
struct gen_lockstep {
	uint32_t flow;           /* the scenario's flow */
	uint32_t nq;             /* its QPs */
	uint8_t opcode;          /* the one opcode (an ONLY) */
	uint32_t payload_len;
	uint32_t frame_len;
};
/* One round's packets of a gen_model_rounds() call: QPs qp0 .. qp0 + n - 1
 * of the flow, each with PSN (psn + its offset) & 0xFFFFFF, where QP i's
 * offset is i * psn_stride (its initial PSN's). */
struct gen_round {
	uint64_t t_ns;           /* when they leave */
	uint64_t va;             /* RETH virtual address of their messages (WRITE; else 0) */
	uint32_t psn;            /* QP 0's PSN in this round */
	uint32_t qp0, n;
};
/* Switches the model to the lockstep stream when its shard allows it:
 * NULL (the model unchanged) when it does not. Call it before any
 * gen_model_next(); after it, only gen_model_rounds() sends. */
const struct gen_lockstep *gen_model_lockstep(struct gen_model *m);
/* Whether gen_model_lockstep() would switch the model now (it changes nothing). */
int gen_model_lockstep_possible(const struct gen_model *m);
/* Up to max_pkts packets in at most max_rounds rounds, none later than
 * until_ns. Returns the rounds written; 0 with gen_model_done() true at the
 * end of the run. */
uint32_t gen_model_rounds(struct gen_model *m, struct gen_round *out, uint32_t max_rounds, uint32_t max_pkts,
			  uint64_t until_ns);
/* The i-th packet of round r (QP r->qp0 + i) as gen_model_next() would
 * give it. */
void gen_model_round_pkt(const struct gen_model *m, const struct gen_round *r, uint32_t i, struct gen_pkt *out);

/* The simulated bottleneck and the DCQCN roles (issue 10), when the
 * scenario's congestion mode is simulated: flow_cc.c. */
struct gen_cc_stats {
	uint64_t sw_packets, sw_bytes;  /* requests the switch port took */
	uint64_t sw_dropped, sw_marked; /* dropped (lossy queue full), marked CE */
	uint64_t sw_while_paused;       /* arrivals on a class the port had paused */
	uint64_t max_qlen;              /* bytes, all priorities */
	uint64_t cnps;                  /* CNPs the notification points sent */
	uint64_t cnps_suppressed;       /* CE marks that got no CNP (pacing) */
	uint64_t rate_cuts;             /* reaction-point cuts, all QPs */
	uint64_t pfc_up, pfc_down;      /* PFC frames: switch to senders, receiver to switch */
	uint64_t paused_ns[8];          /* senders paused by the port, per class */
	double min_rate_bps;            /* the lowest rate any QP was cut to (0: none) */
	uint64_t cnps_received;         /* closed loop: CNPs the port received for our QPs */
	uint64_t pfc_received;          /* closed loop: PFC/PAUSE frames received */
	/* closed loop, gen_model_rx_frame: frames read from the port, and
	 * those ignored, by reason */
	uint64_t rx_frames;
	uint64_t rx_bad_icrc;           /* RoCEv2 with a bad ICRC (CNPs, answers, CM) */
	uint64_t rx_unknown_qp;         /* a CNP, RC answer or CM message for no QP of ours */
	uint64_t rx_stale;              /* RC answers a QP ignored (gen_model_rx_response: 2) */
	uint64_t rx_other;              /* neither: malformed, truncated, not RoCEv2, a request */
	int closed_loop;
};
/* Closed loop (congestion mode closed_loop): what the port received, at
 * now on the model's clock. A CNP for requester QP qpn cuts that QP's rate
 * (0 when no QP of this model has that number); a PFC or PAUSE frame
 * (rw_macctrl: cev and quanta, cev 0 for PAUSE) pauses its classes for the
 * time its quanta give at the scenario's line rate, a zero time resumes. */
int gen_model_rx_cnp(struct gen_model *m, uint32_t qpn, uint64_t now);
void gen_model_rx_pause(struct gen_model *m, uint16_t cev, const uint16_t quanta[8], uint64_t now);
/* Closed loop, RC flows whose responder is real (responder: external): an
 * answer the port brought for requester QP qpn at now (BTH opcode and PSN,
 * the AETH syndrome where it has one). ACKs, NAKs, atomic ACKs and the last
 * response of a READ whose responses all came in order reach the requester
 * as the modelled responder's would (go-back-N on a sequence NAK, the RNR
 * timer, completion); a READ response out of order is left to the
 * retransmission timer. Returns 0 when no such QP of this model has that
 * number, 2 when the QP ignored it (stale or out of its window, a READ
 * response out of order, more answers held than requests in flight, a
 * failed QP), 1 when it took it. */
int gen_model_rx_response(struct gen_model *m, uint32_t qpn, uint8_t opcode, uint32_t psn, uint8_t syndrome,
			  uint64_t now);
/* Closed loop, RC flows with `cm: true` and a real responder: a CM message
 * the port brought for the requester (rw_mad_brief's cm_msg, comm IDs, QPN
 * and starting PSN) at now. A REP to a REQ of ours (its remote comm ID
 * names the QP) lets the QP send its RTU and data; a DREP to its DREQ
 * closes it; a REJ fails it. Returns 0 when it is for no QP of this model. */
int gen_model_rx_cm(struct gen_model *m, uint16_t cm_msg, uint32_t local_comm_id, uint32_t remote_comm_id,
		    uint32_t qpn, uint32_t starting_psn, uint64_t now);
/* Closed loop: one frame the port brought (caplen bytes of a frame of
 * wirelen), decoded by proto and handed to the functions above: a CM
 * message to QP 1, a CNP, an RC response, a PFC or PAUSE frame. A frame
 * with a bad ICRC is dropped, as a NIC drops it; what no QP of this model
 * takes is counted by reason in gen_cc_stats (rx_*). No DPDK: the TX
 * layer (tx.c) and the fuzzer (tests/fuzz/fuzz_gen_rx.c) both call it. */
void gen_model_rx_frame(struct gen_model *m, const uint8_t *frame, size_t caplen, size_t wirelen, uint64_t now);
/* What the closed loop holds: answers the port brought waiting for their
 * QPs (held), and the most they may be (cap: the QPs' job queues). */
void gen_model_rx_bounds(const struct gen_model *m, uint64_t *held, uint64_t *cap);
/* NULL when the model has no simulated congestion. */
const struct gen_cc_stats *gen_model_cc_stats(struct gen_model *m);
/* Ends the simulated run's outputs (fct, pfc, qlen files): commit 1 renames
 * them into place, 0 removes them. 0, or -1 with one line in err. A model
 * without outputs returns 0. */
int gen_model_cc_finish(struct gen_model *m, int commit, char *err, size_t errcap);
/* The error of gen_model_new() when it returned NULL for a reason other
 * than memory (an output file that cannot be created). */
const char *gen_model_new_error(void);

/* Congestion hooks (issue 10): the rate a QP's requester may send at, in
 * bits per second of frames (0: the flow's configured rate), and a pause of
 * a priority class (0..7) until a time on the model's clock (0: resume). */
void gen_model_set_qp_rate(struct gen_model *m, uint32_t flow, uint32_t qp, double bps);
void gen_model_pause(struct gen_model *m, uint8_t prio, uint64_t until_ns);

/* ---- ground truth (rocewire-gen --truth-jsonl) ----
 * What the model knows of every packet it makes, which no capture can
 * tell: why a packet was resent, which message it belongs to, whether it
 * completed that message at its receiver, whether it was lost on the way,
 * which CE mark a CNP answers. The tap the capture stands for is at the
 * receiver's input (with simulated congestion, the switch port's input
 * after admission and marking): it sees every packet that reaches the far
 * end, corrupted ones included, and none that a drop fault or the
 * simulated port dropped; those get a record too, with frame 0.
 *
 * Off unless gen_model_truth_on() is called: the model then keeps a record
 * per packet and hands them out in the order the packets were made, once
 * each is settled (a request's fate at the responder may be decided after
 * it was made: when it leaves the simulated switch). */
enum gen_resend_cause {
	GEN_RS_NONE = 0,
	GEN_RS_NAK,         /* a PSN sequence error NAK: go back to its PSN */
	GEN_RS_TIMEOUT,     /* the local ACK timeout: go back to the oldest unacknowledged PSN */
	GEN_RS_RNR,         /* an RNR NAK's timer ran out: go back to the NAKed PSN */
	GEN_RS_READ_GAP,    /* a READ response arrived after a lost one: re-issue the READ from there */
	GEN_RS_READ_ACKED,  /* an ACK or NAK past a READ whose responses did not all come: re-issue it */
	GEN_RS_DUP_READ,    /* responses: the READ request came again (a duplicate): answered again */
	GEN_RS_COUNT
};
const char *gen_resend_cause_name(enum gen_resend_cause c); /* "nak", "timeout", ... */

enum gen_truth_drop {
	GEN_TD_NONE = 0,    /* reached the tap */
	GEN_TD_FAULT,       /* a drop fault */
	GEN_TD_SWITCH,      /* the simulated switch port had no room for it (tail drop) */
};

struct gen_truth {
	struct gen_pkt pk;       /* the packet as made: GEN_PF_CE / GEN_PF_CORRUPT in pk.flags */
	uint64_t id;             /* 1, 2, ...: every packet made, in order, captured or not */
	uint64_t frame;          /* its frame in the capture, from 1; 0: dropped before the tap */
	uint64_t ce_frame;       /* a CNP: the frame of the CE-marked request it answers (0: none) */
	uint32_t tx;             /* which send of its PSN: 1 the first */
	uint32_t episode;        /* a resend: the requester's go-back-N episode it belongs to, per QP from 1 (READ
				  * responses sent again: the episode that sent the READ again); 0: a first send */
	uint64_t msg;            /* the message it belongs to on its QP, from 1: the responder's MSN once that
				  * message is complete (before the 24-bit wrap); 0: none (ACK, NAK, CNP, PFC) */
	uint8_t drop;            /* enum gen_truth_drop */
	uint8_t cause;           /* a resend: enum gen_resend_cause */
	uint8_t lost;            /* it never reached its receiver: dropped, or a bad ICRC the receiver drops */
	int8_t completes;        /* 1: its receiver completed message msg with it (the responder took a
				  * request's last packet in sequence; the requester took a READ's last
				  * response with all before it); 0: no; -1: not known (a real responder,
				  * or the run ended before its receiver got it) */
	uint8_t taken;           /* a request: its receiver took it (in sequence; UC: its message whole so
				  * far); a response: it reached the requester */
	uint8_t paused;          /* its class was paused by PFC at the switch when it arrived there */
	uint8_t settled;         /* (the model's: every field above is final) */
};
/* Turns the ground truth on, before the first gen_model_next(); 0, or -1
 * out of memory. The packets made are those of the same model without it;
 * the lockstep stream is not available with it. */
int gen_model_truth_on(struct gen_model *m);
/* Up to n records, in the order their packets were made, once settled;
 * with all, the unsettled too (the run is over or stopped: what was not
 * decided is not known, completes -1). */
uint32_t gen_model_truth(struct gen_model *m, struct gen_truth *out, uint32_t n, int all);

/* The frame description of a packet, for proto's builder (rw_packet_build
 * with DLT_EN10MB) and template (rocewire/tmpl.h): Ethernet (VLAN and PCP
 * from the sending host), IPv4 or IPv6 with the flow's DSCP and ECN (CE when
 * GEN_PF_CE), UDP 4791 with the QP's source port, BTH and the extension
 * headers the opcode carries, payload pointing at `payload` (the flow's
 * pattern repeated, at least payload_len bytes; NULL leaves zeros). The
 * builder's derived fields (lengths, checksums, pad, ICRC) are left to it. */
struct rw_packet;
void gen_pkt_describe(const struct gen_scenario *sc, const struct gen_pkt *pk, const uint8_t *payload,
		      struct rw_packet *out);
/* The 256-byte MAD of CM packet pk (kind GEN_PK_CM), the payload to give
 * gen_pkt_describe(); 0, or -1 when pk is not a CM packet of sc. The
 * scenario's comm IDs and QPNs, or the peer's where pk carries them
 * (cm_peer_id, cm_peer_qpn). A REJ (reason cm_rej_reason, to the REQ whose
 * local comm ID is cm_peer_id) needs no flow. */
int gen_cm_mad(const struct gen_scenario *sc, const struct gen_pkt *pk, uint8_t mad[256]);
/* The same with the transaction ID tid (an answer carries its request's:
 * IBA 13.4.6.4); 0 for the generator's own. */
int gen_cm_mad_tid(const struct gen_scenario *sc, const struct gen_pkt *pk, uint64_t tid, uint8_t mad[256]);
/* The flow and QP a CM REQ stands for (--role responder): an RC flow with
 * `cm` whose requester host has IP address sip and responder host dip (af
 * 4: four bytes each, or 6), and whose requester QPN range src_qpn ..
 * src_qpn + qps - 1 holds the REQ's local QPN. 0, or -1 when none. */
int gen_cm_match_req(const struct gen_scenario *sc, int af, const uint8_t *sip, const uint8_t *dip, uint32_t qpn,
		     uint32_t *flow, uint32_t *qp);
/* The flow and QP whose responder comm ID (gen_cm_comm_id) is id: 0, or -1. */
int gen_cm_match_id(const struct gen_scenario *sc, uint32_t id, int responder, uint32_t *flow, uint32_t *qp);
/* The REJ reason --role responder gives a REQ no flow of its scenario
 * stands for: IBA 12.6.7 table 103 "Invalid Service ID", what Linux's
 * ib_cm answers a REQ no listener takes (cm_req_handler). */
#define GEN_CM_REJ_NO_LISTENER 8
/* The time a requester waits for the answer to its REQ or DREQ from a real
 * responder before sending it again (IBA 12.7.27: the remote CM response
 * timeout its REQ announces). */
uint64_t gen_cm_timeout_ns(const struct gen_flow *f);
#define GEN_CM_MAX_RETRIES 15      /* rdma_cm's CMA_MAX_CM_RETRIES: the REQ's Max CM Retries */
/* A CM packet of a flow's QP (kind GEN_PK_CM, msg RW_CM_*): a UD SEND Only
 * of a whole MAD from QP 1 to QP 1 with the GSI Q_Key; a REP, DREP or REJ
 * goes from the responder. Time and frame length are left 0. */
void gen_cm_pkt(uint32_t flow, uint32_t qp, uint16_t msg, struct gen_pkt *pk);
/* "REQ", "REP", "RTU", "DREQ", "DREP". */
const char *gen_cm_name(const struct gen_pkt *pk);
/* The communication IDs (IBA 12.6.5) of a flow's QP: the requester's and
 * the responder's, distinct over all connections of a scenario. */
uint32_t gen_cm_comm_id(uint32_t flow, uint32_t qp, int responder);

/* Fills n bytes with the flow's payload pattern from message offset 0. */
void gen_flow_payload(const struct gen_flow *f, uint8_t *buf, uint32_t n);

#endif
