/* SPDX-License-Identifier: BSD-3-Clause */
/* The responder role's answers (--role responder), apart from the port
 * (answer.h): the scenario's receivers as notification points and RC
 * responders. Every frame is decoded by proto; a RoCEv2 request to a QP of
 * a flow that takes part in congestion control (dst_qpn .. dst_qpn + qps -
 * 1) counts, and when a switch (or Linux's RED qdisc) marked it CE, the
 * notification point of cc_np.c decides: a CNP now, one owed at the end of
 * the pacing interval, or none. The CNP goes to the flow's requester QP
 * (src_qpn + i) with the flow's addresses reversed, built by proto's
 * builder like every frame the generator sends. RC requests are answered
 * as an RC responder does (answer_rc below: ACKs, NAKs, READ responses,
 * atomic ACKs), and the connections of RC flows with `cm: true` as a CM's
 * passive side does (answer_cm below). Whatever else arrives is counted by
 * reason (gen_np_counters' ign_*) and changes no state: the state is fixed
 * at gen_rsp_new(). */
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "cc.h"
#include "flow_int.h"
#include "rocewire/bth.h"
#include "rocewire/build.h"
#include "rocewire/link.h"
#include "rocewire/mad.h"
#include "rocewire/packet.h"
#include "rocewire/wire.h"

struct owed {
	uint64_t due;
	uint32_t flow, qp;
	struct cc_np_key key;
};

/* The RC opcodes the responder sends, from proto's table. */
struct rsp_ops {
	uint8_t ack, atomic_ack;
	uint8_t read[4]; /* by POS_* */
};

static void rsp_ops_init(struct rsp_ops *o)
{
	o->ack = gen_find_opcode(RW_TRANSPORT_RC, RW_OP_ACK, POS_ONLY, 0, 0);
	o->atomic_ack = gen_find_opcode(RW_TRANSPORT_RC, RW_OP_ATOMIC_ACK, POS_ONLY, 0, 0);
	for (unsigned pos = 0; pos < 4; pos++)
		o->read[pos] = gen_find_opcode(RW_TRANSPORT_RC, RW_OP_READ_RESP, pos, 0, 0);
}

struct rsp_qp;

struct gen_rsp {
	const struct gen_scenario *sc;
	const uint8_t *const *patterns;
	const uint32_t *flow_pool;
	gen_rsp_send_fn send;
	void *ctx;
	struct gen_np_counters *ctr;
	struct rsp_ops ops;
	struct cc_np *np;
	uint32_t *qp0;      /* per flow: its first QP's index in rq */
	struct rsp_qp *rq;  /* per QP of every flow */
	struct owed *owed;  /* CNPs owed, at most one per QP */
	uint32_t nowed, cap;
};

/* The flow and QP whose responder has QP number dqpn; -1 when none. */
static int find_rsp(const struct gen_scenario *sc, uint32_t dqpn, uint32_t *flow, uint32_t *qp)
{
	for (uint32_t i = 0; i < sc->n_flows; i++) {
		const struct gen_flow *f = &sc->flows[i];
		uint32_t nq = f->qps ? f->qps : 1;
		uint32_t k = (dqpn - f->dst_qpn) & RW_QPN_MASK;
		if (!f->cc_exempt && k < nq) {
			*flow = i;
			*qp = k;
			return 0;
		}
	}
	return -1;
}

/* Sends the frame p describes through the callback, counted in *counter:
 * 0, or -1 when the callback could not. */
static int send_frame(struct gen_rsp *w, const struct rw_packet *p, uint64_t *counter)
{
	if (w->send(w->ctx, p) != 0) {
		__atomic_store_n(&w->ctr->unsent, w->ctr->unsent + 1, __ATOMIC_RELAXED);
		return -1;
	}
	__atomic_store_n(counter, *counter + 1, __ATOMIC_RELAXED);
	return 0;
}

/* A response of (flow, qp) to its requester (a CNP, an ACK or NAK, a READ
 * response with payload bytes, an atomic ACK). */
static int send_rsp(struct gen_rsp *w, struct gen_pkt *pk, const uint8_t *payload, uint64_t *counter)
{
	const struct gen_flow *f = &w->sc->flows[pk->flow];
	struct rw_packet p;

	pk->dir = GEN_DIR_RESPONSE;
	pk->f.dqpn = (f->src_qpn + pk->qp) & RW_QPN_MASK;
	pk->hdrs = rw_opcode(pk->opcode)->hdrs;
	gen_pkt_describe(w->sc, pk, payload, &p);
	return send_frame(w, &p, counter);
}

static int send_cnp(struct gen_rsp *w, uint32_t flow, uint32_t qp)
{
	struct gen_pkt pk;
	memset(&pk, 0, sizeof(pk));
	pk.flow = flow;
	pk.qp = qp;
	pk.opcode = gen_cnp_opcode();
	pk.f.becn = 1; /* A17.9.3 */
	return send_rsp(w, &pk, NULL, &w->ctr->cnps);
}

/* An RC responder's go-back-N, as IBA 9.7.5 has it: in-sequence requests
 * advance the expected PSN (and the MSN at a message's end) and are
 * acknowledged when they ask (AckReq); the first request past a hole gets
 * one PSN sequence error NAK naming the expected PSN; a duplicate gets an
 * ACK of the last PSN received. The expected PSN is learnt from the first
 * request of each QP, so a real NIC's requester works as well as
 * rocewire-gen's. An RDMA READ is answered with its response packets (the
 * flow's payload pattern, FIRST/MIDDLE/LAST or ONLY at the flow's MTU,
 * AETH on the first and last) and takes as many PSNs; an atomic is
 * executed on the QP's memory (RSP_MEM_WORDS 64-bit words, each found by
 * its VA and zero when first used; past that many VAs the oldest word is
 * forgotten) and answered with the original value. A duplicate READ is answered again from the PSN,
 * VA and length it carries; a duplicate atomic gets the result it had the
 * first time, from the last RSP_ATOMIC_KEPT atomics' results (the
 * responder's atomic resources, IBA 9.7.5.1.1), and no answer past them. */
#define RSP_MEM_WORDS 16
#define RSP_ATOMIC_KEPT 64
struct rsp_qp {
	uint32_t epsn, msn;
	uint8_t synced, nak_sent;
	uint8_t mem_n, mem_next;
	uint32_t atomic_n;                       /* atomics executed; the last ones kept below */
	uint32_t cm_peer_id;                     /* the requester's comm ID from its REQ (0: none) */
	uint32_t atomic_psn[RSP_ATOMIC_KEPT];
	uint64_t atomic_orig[RSP_ATOMIC_KEPT];
	uint64_t mem_va[RSP_MEM_WORDS], mem[RSP_MEM_WORDS];
};

static uint64_t *rsp_word(struct rsp_qp *r, uint64_t va)
{
	for (unsigned i = 0; i < r->mem_n; i++)
		if (r->mem_va[i] == va)
			return &r->mem[i];
	unsigned i = r->mem_n < RSP_MEM_WORDS ? r->mem_n++ : r->mem_next++ % RSP_MEM_WORDS;
	r->mem_va[i] = va;
	r->mem[i] = 0;
	return &r->mem[i];
}

/* READ responses for psn, length len (0: one empty ONLY packet). */
static void answer_read(struct gen_rsp *w, const struct rsp_ops *ops, const struct rsp_qp *r, uint32_t flow,
			uint32_t qp, uint32_t psn, uint32_t len, const uint8_t *pattern)
{
	const struct gen_flow *f = &w->sc->flows[flow];
	uint32_t mtu = gen_flow_mtu(f);
	uint32_t n = gen_read_npkts(len, mtu);
	for (uint32_t k = 0; k < n; k++) {
		struct gen_pkt pk;
		unsigned pos = n == 1 ? POS_ONLY : k == 0 ? POS_FIRST : k + 1 == n ? POS_LAST : POS_MIDDLE;
		memset(&pk, 0, sizeof(pk));
		pk.flow = flow;
		pk.qp = qp;
		pk.opcode = ops->read[pos];
		pk.f.psn = (psn + k) & RW_PSN_MASK;
		pk.payload_len = len - k * mtu < mtu ? len - k * mtu : mtu;
		pk.f.aeth.syndrome = rw_aeth_syndrome(RW_AETH_ACK, 31);
		pk.f.aeth.msn = r->msn;
		if (send_rsp(w, &pk, pattern, &w->ctr->read_responses) != 0)
			return;
	}
}

static void answer_atomic(struct gen_rsp *w, const struct rsp_ops *ops, const struct rsp_qp *r, uint32_t flow,
			  uint32_t qp, uint32_t psn, uint64_t orig)
{
	struct gen_pkt pk;
	memset(&pk, 0, sizeof(pk));
	pk.flow = flow;
	pk.qp = qp;
	pk.opcode = ops->atomic_ack;
	pk.f.psn = psn;
	pk.f.aeth.syndrome = rw_aeth_syndrome(RW_AETH_ACK, 31);
	pk.f.aeth.msn = r->msn;
	pk.f.atomic_orig = orig;
	send_rsp(w, &pk, NULL, &w->ctr->atomic_acks);
}

/* The atomic on the QP's word at its VA (gen_atomic_apply): the original value. */
static uint64_t atomic_execute(struct rsp_qp *r, const struct rw_packet *p)
{
	return gen_atomic_apply(p->op->op == RW_OP_CMP_SWAP, rsp_word(r, p->atomiceth.va), p->atomiceth.compare,
				p->atomiceth.swap_add);
}

/* The largest message of flow f (its size setting's largest value). */
static uint32_t rsp_read_max(const struct gen_flow *f)
{
	uint32_t m = f->size.min > f->size.max ? f->size.min : f->size.max;
	for (uint32_t i = 0; i < f->size.n && i < GEN_SIZE_CHOICES; i++)
		if (f->size.values[i] > m)
			m = f->size.values[i];
	return m;
}

static void answer_rc(struct gen_rsp *w, const struct rsp_ops *ops, struct rsp_qp *r, uint32_t flow,
		      uint32_t qp, const struct rw_packet *p, const uint8_t *pattern)
{
	struct gen_pkt pk;
	uint32_t psn = p->bth.psn & RW_PSN_MASK;
	int read = p->op->op == RW_OP_READ_REQ;
	int atomic = p->op->op == RW_OP_CMP_SWAP || p->op->op == RW_OP_FETCH_ADD;
	/* The responder role has no memory region: the flow's largest
	 * message stands for its length. A longer READ would be a remote
	 * access error NAK (IBA 9.7.5.2.4) and the end of the QP at a real
	 * responder; here it is ignored, so that one forged READ can neither
	 * end a connection nor make the port loop send 4 GiB of responses. */
	if (read && p->reth.dmalen > rsp_read_max(&w->sc->flows[flow])) {
		__atomic_store_n(&w->ctr->ign_read_length, w->ctr->ign_read_length + 1, __ATOMIC_RELAXED);
		return;
	}
	if (!r->synced) {
		r->epsn = psn;
		r->synced = 1;
	}
	memset(&pk, 0, sizeof(pk));
	pk.flow = flow;
	pk.qp = qp;
	pk.opcode = ops->ack;
	int32_t d = rw_psn_diff(psn, r->epsn);
	if (d == 0) {
		r->nak_sent = 0;
		if (read) {
			uint32_t mtu = gen_flow_mtu(&w->sc->flows[flow]);
			uint32_t len = p->reth.dmalen;
			r->epsn = (psn + gen_read_npkts(len, mtu)) & RW_PSN_MASK;
			r->msn = (r->msn + 1) & 0xFFFFFF;
			answer_read(w, ops, r, flow, qp, psn, len, pattern);
			return;
		}
		r->epsn = (psn + 1) & RW_PSN_MASK;
		if (atomic) {
			uint32_t k = r->atomic_n++ % RSP_ATOMIC_KEPT;
			r->msn = (r->msn + 1) & 0xFFFFFF;
			r->atomic_orig[k] = atomic_execute(r, p);
			r->atomic_psn[k] = psn;
			answer_atomic(w, ops, r, flow, qp, psn, r->atomic_orig[k]);
			return;
		}
		if (p->op->flags & RW_OPF_LAST)
			r->msn = (r->msn + 1) & 0xFFFFFF;
		if (!p->bth.ackreq)
			return;
		pk.f.psn = psn;
		pk.f.aeth.syndrome = rw_aeth_syndrome(RW_AETH_ACK, 31);
	} else if (d > 0) {
		if (r->nak_sent) {
			__atomic_store_n(&w->ctr->ign_past_nak, w->ctr->ign_past_nak + 1, __ATOMIC_RELAXED);
			return;
		}
		r->nak_sent = 1;
		pk.f.psn = r->epsn;
		pk.f.aeth.syndrome = rw_aeth_syndrome(RW_AETH_NAK, RW_NAK_PSN_SEQ_ERROR);
	} else if (read) {
		answer_read(w, ops, r, flow, qp, psn, p->reth.dmalen, pattern);
		return;
	} else if (atomic) {
		uint32_t kept = r->atomic_n < RSP_ATOMIC_KEPT ? r->atomic_n : RSP_ATOMIC_KEPT;
		for (uint32_t i = 1; i <= kept; i++) {
			uint32_t k = (r->atomic_n - i) % RSP_ATOMIC_KEPT;
			if (r->atomic_psn[k] == psn) {
				answer_atomic(w, ops, r, flow, qp, psn, r->atomic_orig[k]);
				return;
			}
		}
		__atomic_store_n(&w->ctr->ign_stale_atomic, w->ctr->ign_stale_atomic + 1, __ATOMIC_RELAXED);
		return;
	} else {
		pk.f.psn = (r->epsn - 1) & RW_PSN_MASK;
		pk.f.aeth.syndrome = rw_aeth_syndrome(RW_AETH_ACK, 31);
	}
	pk.f.aeth.msn = r->msn;
	send_rsp(w, &pk, NULL, &w->ctr->acks);
}

/* The passive side of a CM (IBA 12.9.5, 12.9.6) for the scenario's RC
 * flows with `cm`: a REQ whose addresses and local QPN are a flow's
 * requester QP i (gen_cm_match_req) gets the REP flow_cm.c builds (the
 * responder's QPN dst_qpn + i, the requester's first PSN as the scenario
 * has it, the REQ's comm ID echoed, the responder's own, the REQ's TID);
 * a REQ sent again gets the same REP again. The QP's expected PSN is set
 * from the REP's, as a CM sets the receive PSN, and a REQ with a new comm
 * ID (a new connection on the QP) starts its state again. A DREQ naming
 * one of these connections gets a DREP with the IDs echoed and its TID (as
 * ib_cm, also when the connection is not known here: a lost DREP's DREQ
 * comes again). A REQ no flow stands for gets a REJ (reason
 * GEN_CM_REJ_NO_LISTENER) to where it came from. Every other CM message
 * (RTU, ...) needs no answer. */
static void answer_cm(struct gen_rsp *w, const struct rw_packet *p)
{
	const struct gen_scenario *sc = w->sc;
	const struct rw_mad_brief *b = &p->mad;
	uint32_t flow, qp;
	struct gen_pkt pk;
	uint8_t mad[RW_MAD_LEN];
	struct rw_packet out;

	__atomic_store_n(&w->ctr->cm_received, w->ctr->cm_received + 1, __ATOMIC_RELAXED);
	if (b->cm_msg == RW_CM_REQ) {
		uint8_t sip[16], dip[16];
		int af = (p->present & RW_P_IPV6) ? 6 : 4;
		if (af == 6) {
			memcpy(sip, p->ipv6.src, 16);
			memcpy(dip, p->ipv6.dst, 16);
		} else {
			rw_put_be32(sip, p->ipv4.src);
			rw_put_be32(dip, p->ipv4.dst);
		}
		if (gen_cm_match_req(sc, af, sip, dip, b->qpn, &flow, &qp) == 0) {
			const struct gen_flow *f = &sc->flows[flow];
			struct rsp_qp *r = &w->rq[w->qp0[flow] + qp];
			if (r->cm_peer_id != b->local_comm_id) {
				memset(r, 0, sizeof(*r));
				r->cm_peer_id = b->local_comm_id;
				/* the REP's starting PSN (flow_cm.c) */
				r->epsn = (f->initial_psn + qp * f->psn_stride) & RW_PSN_MASK;
				r->synced = 1;
			}
			gen_cm_pkt(flow, qp, RW_CM_REP, &pk);
			pk.cm_peer_id = b->local_comm_id;
			if (gen_cm_mad_tid(sc, &pk, b->hdr.tid, mad) == 0) {
				gen_pkt_describe(sc, &pk, mad, &out);
				send_frame(w, &out, &w->ctr->cm_reps);
			}
			return;
		}
		/* no flow: a REJ, on the REQ's addresses reversed */
		gen_cm_pkt(UINT32_MAX, 0, RW_CM_REJ, &pk);
		pk.cm_peer_id = b->local_comm_id;
		pk.cm_rej_reason = GEN_CM_REJ_NO_LISTENER;
		if (gen_cm_mad_tid(sc, &pk, b->hdr.tid, mad) != 0)
			return;
		memset(&out, 0, sizeof(out));
		out.carrier = RW_CARRIER_ROCEV2;
		out.present = RW_P_ETH | RW_P_UDP | RW_P_BTH | (p->present & (RW_P_IPV4 | RW_P_IPV6));
		memcpy(out.eth.src, p->eth.dst, 6);
		memcpy(out.eth.dst, p->eth.src, 6);
		out.n_vlan = p->n_vlan;
		memcpy(out.vlan, p->vlan, sizeof(out.vlan));
		if (af == 6) {
			out.ipv6.dscp = p->ipv6.dscp;
			out.ipv6.hop_limit = 64;
			memcpy(out.ipv6.src, p->ipv6.dst, 16);
			memcpy(out.ipv6.dst, p->ipv6.src, 16);
		} else {
			out.ipv4.ihl = 5;
			out.ipv4.dscp = p->ipv4.dscp;
			out.ipv4.flags = RW_IPV4_DF;
			out.ipv4.ttl = 64;
			out.ipv4.src = p->ipv4.dst;
			out.ipv4.dst = p->ipv4.src;
		}
		out.udp.sport = p->udp.sport;
		out.udp.dport = RW_ROCEV2_PORT;
		out.bth.opcode = pk.opcode;
		out.bth.pkey = p->bth.pkey;
		out.bth.dqpn = RW_QP1;
		out.hdrs = pk.hdrs;
		out.deth.qkey = RW_GSI_QKEY;
		out.deth.sqpn = RW_QP1;
		out.payload = mad;
		out.payload_len = RW_MAD_LEN;
		send_frame(w, &out, &w->ctr->cm_rejects);
		return;
	}
	if (b->cm_msg == RW_CM_DREQ && gen_cm_match_id(sc, b->remote_comm_id, 1, &flow, &qp) == 0) {
		gen_cm_pkt(flow, qp, RW_CM_DREP, &pk);
		pk.cm_peer_id = b->local_comm_id;
		if (gen_cm_mad_tid(sc, &pk, b->hdr.tid, mad) == 0) {
			gen_pkt_describe(sc, &pk, mad, &out);
			send_frame(w, &out, &w->ctr->cm_dreps);
		}
		return;
	}
	__atomic_store_n(&w->ctr->ign_cm, w->ctr->ign_cm + 1, __ATOMIC_RELAXED);
}

struct gen_rsp *gen_rsp_new(const struct gen_scenario *sc, const uint8_t *const *patterns,
			    const uint32_t *flow_pool, gen_rsp_send_fn send, void *ctx, struct gen_np_counters *ctr)
{
	struct gen_rsp *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->sc = sc;
	r->patterns = patterns;
	r->flow_pool = flow_pool;
	r->send = send;
	r->ctx = ctx;
	r->ctr = ctr;
	rsp_ops_init(&r->ops);
	r->np = cc_np_new(&sc->cc.np);
	r->qp0 = calloc(sc->n_flows ? sc->n_flows : 1, sizeof(*r->qp0));
	for (uint32_t i = 0; r->qp0 && i < sc->n_flows; i++) {
		r->qp0[i] = r->cap;
		r->cap += sc->flows[i].qps ? sc->flows[i].qps : 1;
	}
	r->owed = calloc(r->cap ? r->cap : 1, sizeof(*r->owed));
	r->rq = calloc(r->cap ? r->cap : 1, sizeof(*r->rq));
	if (!r->np || !r->qp0 || !r->owed || !r->rq) {
		gen_rsp_free(r);
		return NULL;
	}
	return r;
}

void gen_rsp_free(struct gen_rsp *r)
{
	if (!r)
		return;
	cc_np_free(r->np);
	free(r->owed);
	free(r->qp0);
	free(r->rq);
	free(r);
}

void gen_rsp_bounds(const struct gen_rsp *r, uint32_t *owed, uint32_t *cap)
{
	*owed = r->nowed;
	*cap = r->cap;
}

void gen_rsp_tick(struct gen_rsp *r, uint64_t now)
{
	for (uint32_t i = 0; i < r->nowed;) {
		if (r->owed[i].due > now) {
			i++;
			continue;
		}
		if (cc_np_fire(r->np, &r->owed[i].key, now))
			send_cnp(r, r->owed[i].flow, r->owed[i].qp);
		r->owed[i] = r->owed[--r->nowed];
	}
}

#define BUMP(w, c) __atomic_store_n(&(w)->ctr->c, (w)->ctr->c + 1, __ATOMIC_RELAXED)

void gen_rsp_frame(struct gen_rsp *w, const uint8_t *d, size_t caplen, size_t wirelen, uint64_t now)
{
	const struct gen_scenario *sc = w->sc;
	struct rw_packet p;
	uint32_t flow, qp;

	BUMP(w, received);
	rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, d, caplen, wirelen, &p);
	if (p.carrier == RW_CARRIER_ROCEV2 && (p.present & RW_P_MAD) && p.mad.cm_msg != RW_CM_NONE &&
	    p.bth.dqpn == RW_QP1) {
		if (p.icrc_status != RW_CRC_OK)
			BUMP(w, bad_icrc);
		else
			answer_cm(w, &p);
		return;
	}
	if (p.carrier != RW_CARRIER_ROCEV2 || !p.op) {
		BUMP(w, ign_not_roce);
		return;
	}
	if ((p.op->flags & RW_OPF_RESPONSE) || p.op->op == RW_OP_CNP) {
		BUMP(w, ign_not_request);
		return;
	}
	if (find_rsp(sc, p.bth.dqpn, &flow, &qp) != 0) {
		BUMP(w, ign_unknown_qp);
		return;
	}
	if (p.icrc_status != RW_CRC_OK) {
		BUMP(w, bad_icrc);
		return;
	}
	BUMP(w, requests);
	if (sc->flows[flow].transport == GEN_RC && p.op->transport == RW_TRANSPORT_RC)
		answer_rc(w, &w->ops, &w->rq[w->qp0[flow] + qp], flow, qp, &p, w->patterns[w->flow_pool[flow]]);
	uint8_t ecn = (p.present & RW_P_IPV6) ? p.ipv6.ecn : p.ipv4.ecn;
	if (ecn != RW_ECN_CE)
		return;
	BUMP(w, ce);
	const struct gen_flow *f = &sc->flows[flow];
	struct cc_np_key key;
	uint64_t due = 0;
	gen_np_key(sc, f, qp, &key);
	switch (cc_np_on_ce(w->np, &key, now, &due)) {
	case CC_NP_SEND:
		send_cnp(w, flow, qp);
		break;
	case CC_NP_DEFER:
		/* at most one owed per QP: cap is never reached */
		if (w->nowed < w->cap)
			w->owed[w->nowed++] = (struct owed){ .due = due, .flow = flow, .qp = qp, .key = key };
		break;
	default:
		BUMP(w, suppressed);
		break;
	}
}
