/* SPDX-License-Identifier: BSD-3-Clause */
/* A connection's Communication Management messages (IBA 12.6, 12.9): an
 * RC QP of a flow with `cm: true` is set up by REQ (requester), REP
 * (responder), RTU (requester) before its first data packet and torn down
 * by DREQ (requester), DREP (responder) once it has nothing left, as
 * rdma_cm over rxe or a NIC does. Each is a MAD (proto's rw_cm_*_encode) in
 * a UD SEND Only from QP 1 to QP 1 with the GSI Q_Key (IBA 13.5.2), on the
 * flow's addresses, VLAN and DSCP. The messages do not pass the faults or
 * the simulated switch, and are counted apart from the flow's packets.
 *
 * With a real responder (`responder: external`, closed loop: rocewire-gen
 * --role responder, rxe or a NIC) the REP and DREP come from the port
 * (gen_cm_rx): the requester sends its REQ, waits for the REP the CM
 * response timeout it announces and sends the REQ again up to Max CM
 * Retries times (IBA 12.7.27, 12.7.29), then fails the QP; its RTU and
 * DREQ echo the IDs the REP gave. The DREQ waits for its DREP the same way
 * (IBA 12.9.1), and is dropped after its retries as a CM goes to TimeWait. */
#include <string.h>

#include "flow_int.h"
#include "rocewire/mad.h"
#include "rocewire/wire.h"

/* rdma_cm's service ID of the TCP port space (RDMA_PS_TCP, 0x0106) and
 * port 18515 (perftest's default): IBA A3.2.2 "IP addressing CM". */
#define GEN_CM_SERVICE_ID 0x0000000001064853ull
#define GEN_CM_RESPONSE_TIMEOUT 20 /* rdma_cm's CMA_CM_RESPONSE_TIMEOUT: 4.096 us * 2^20 */
/* The REQ's starting PSN (the responder's requests: none): half the PSN
 * space from the requester's. */
#define GEN_CM_PEER_PSN(psn) (((psn) + 0x800000u) & RW_PSN_MASK)
#define GEN_CM_TID_HI 0x5257434Dull /* "RWCM": the high half of every TID, as ib_cm's agent keeps one */

static const uint8_t UD_SEND_ONLY = 0x64; /* IBA 9.2, table 38 */

void gen_cm_init(struct gen_model *m, struct gen_qp *q)
{
	const struct gen_lflow *lf = gen_qlf(m, q);
	const struct gen_flow *f = lf->f;
	q->cm_ns = GEN_NEVER;
	/* a real responder's REP is read in the closed loop only (the
	 * scenario refuses `cm` with one in the open loop) */
	if (f->transport != GEN_RC || !f->cm || (f->external_responder && !lf->wire_acks))
		return;
	q->cm_state = CM_REQ;
	q->cm_ns = f->start_ns;
	q->flags |= QF_CM_WAIT;
}

uint32_t gen_cm_comm_id(uint32_t flow, uint32_t qp, int responder)
{
	/* flows < 1024, QPs < 65536: 26 bits, one ID per (flow, QP, end) */
	return (responder ? 0x20000000u : 0x10000000u) | flow << 16 | (qp & 0xFFFFu);
}

/* IBA 12.7.2: one TID per transaction; REQ, REP and RTU are one, DREQ and
 * DREP another. */
static uint64_t cm_tid(const struct gen_pkt *pk)
{
	int close = pk->cm_msg == RW_CM_DREQ || pk->cm_msg == RW_CM_DREP;
	return GEN_CM_TID_HI << 32 | (uint64_t)(pk->flow << 16 | (pk->qp & 0xFFFFu)) << 1 | (unsigned)close;
}

/* The node GUID rxe gives a port: the EUI-64 of its netdev's MAC. */
static uint64_t mac_guid(const uint8_t mac[6])
{
	return (uint64_t)(mac[0] ^ 2) << 56 | (uint64_t)mac[1] << 48 | (uint64_t)mac[2] << 40 | 0xFFFEull << 24 |
	       (uint64_t)mac[3] << 16 | (uint64_t)mac[4] << 8 | mac[5];
}

/* IBA 9.7.6.1.3: the local ACK timeout is 4.096 us * 2^code; 0 none. */
static uint8_t ack_timeout_code(uint64_t ns)
{
	uint8_t c = 1;
	if (ns == 0)
		return 0;
	while (c < 31 && (4096ull << c) < ns)
		c++;
	return c;
}

/* IBA 12.6.5 table 99: path MTU 1 (256) .. 5 (4096). */
static uint8_t mtu_code(uint32_t mtu)
{
	uint8_t c = 1;
	while (c < 5 && (256u << (c - 1)) < mtu)
		c++;
	return c;
}

/* The CM response timeout code (IBA 12.6.5: 4.096 us * 2^code) of a
 * flow's REQ: rdma_cm's with the modelled responder; with a real one, the
 * flow's retransmission timeout rounded up (what the requester then
 * waits for each answer). */
static uint8_t cm_timeout_code(const struct gen_flow *f)
{
	if (!f->external_responder || f->retransmission_timeout_ns == 0)
		return GEN_CM_RESPONSE_TIMEOUT;
	return ack_timeout_code(f->retransmission_timeout_ns);
}

uint64_t gen_cm_timeout_ns(const struct gen_flow *f)
{
	return 4096ull << cm_timeout_code(f);
}

static uint32_t qp_psn(const struct gen_flow *f, uint32_t qp)
{
	return (f->initial_psn + qp * f->psn_stride) & RW_PSN_MASK;
}

const char *gen_cm_name(const struct gen_pkt *pk)
{
	const char *n = rw_cm_msg_name(pk->cm_msg);
	return n ? n : "?";
}

int gen_cm_mad(const struct gen_scenario *sc, const struct gen_pkt *pk, uint8_t mad[256])
{
	return gen_cm_mad_tid(sc, pk, 0, mad);
}

int gen_cm_mad_tid(const struct gen_scenario *sc, const struct gen_pkt *pk, uint64_t tid, uint8_t mad[256])
{
	size_t n;
	struct rw_cm cm;
	if (pk->kind != GEN_PK_CM)
		return -1;
	memset(&cm, 0, sizeof(cm));
	cm.msg = (enum rw_cm_msg)pk->cm_msg;
	if (pk->cm_msg == RW_CM_REJ) {
		/* IBA 12.6.7: to a REQ (message rejected 0) no connection
		 * took: no local comm ID, the REQ's as the remote one */
		cm.u.rej.remote_comm_id = pk->cm_peer_id;
		cm.u.rej.message_rejected = 0;
		cm.u.rej.reason = pk->cm_rej_reason;
		return rw_cm_encode(&cm, tid, mad, RW_MAD_LEN, &n) == RW_OK && n == RW_MAD_LEN ? 0 : -1;
	}
	if (pk->flow >= sc->n_flows)
		return -1;
	const struct gen_flow *f = &sc->flows[pk->flow];
	const struct gen_host *a = &sc->hosts[f->src], *b = &sc->hosts[f->dst];
	uint32_t lid = gen_cm_comm_id(pk->flow, pk->qp, 0), rid = gen_cm_comm_id(pk->flow, pk->qp, 1);
	uint32_t lqpn = (f->src_qpn + pk->qp) & RW_QPN_MASK, rqpn = (f->dst_qpn + pk->qp) & RW_QPN_MASK;
	/* the other end's, where a real one announced them */
	if (pk->cm_peer_id)
		*(pk->dir == GEN_DIR_RESPONSE ? &lid : &rid) = pk->cm_peer_id;
	if (pk->cm_peer_qpn)
		rqpn = pk->cm_peer_qpn & RW_QPN_MASK;
	if (!tid)
		tid = cm_tid(pk);
	switch (pk->cm_msg) {
	case RW_CM_REQ: {
		struct rw_cm_req *r = &cm.u.req;
		r->local_comm_id = lid;
		r->service_id = GEN_CM_SERVICE_ID;
		r->local_ca_guid = mac_guid(a->mac);
		r->local_qpn = lqpn;
		r->responder_resources = f->max_rd_atomic;
		r->initiator_depth = f->max_rd_atomic;
		r->remote_cm_response_timeout = cm_timeout_code(f);
		r->transport_service_type = 0; /* RC */
		r->e2e_flow_control = 1;
		/* A starting PSN is the one its sender expects to receive
		 * (Linux's CM sets the QP's receive PSN from it; rxe's rping
		 * capture in samples/softroce shows it): the REQ's starts the
		 * responder's own requests, which it never sends here; half
		 * the PSN space away from the requester's, as an rdma_cm's
		 * random one would be. */
		r->starting_psn = GEN_CM_PEER_PSN(qp_psn(f, pk->qp));
		r->local_cm_response_timeout = cm_timeout_code(f);
		r->retry_count = f->retry_count;
		r->pkey = f->pkey;
		r->path_mtu = mtu_code(gen_flow_mtu(f));
		r->rnr_retry_count = f->rnr_retry;
		r->max_cm_retries = GEN_CM_MAX_RETRIES;
		/* ib_cm over RoCE: permissive LIDs, the GIDs carry the path */
		r->primary.local_lid = 0xFFFF;
		r->primary.remote_lid = 0xFFFF;
		memcpy(r->primary.local_gid, a->gid, 16);
		memcpy(r->primary.remote_gid, b->gid, 16);
		r->primary.traffic_class = (uint8_t)(f->dscp << 2 | (f->ecn & 3));
		r->primary.hop_limit = 64; /* the IP TTL / hop limit the frames carry */
		r->primary.sl = a->pcp & 7;
		r->primary.local_ack_timeout = ack_timeout_code(f->retransmission_timeout_ns);
		/* IBA A11.6 (IP addressing CM): rdma_cm's private data header,
		 * version 0, IP version, source port, source and destination
		 * IP (IPv4 in the last four bytes of each 16) */
		r->private_data[1] = (uint8_t)((a->af == 6 ? 6 : 4) << 4);
		rw_put_be16(r->private_data + 2, gen_qp_sport(f, pk->qp));
		if (a->af == 6) {
			memcpy(r->private_data + 4, a->ip, 16);
			memcpy(r->private_data + 20, b->ip, 16);
		} else {
			memcpy(r->private_data + 16, a->ip, 4);
			memcpy(r->private_data + 32, b->ip, 4);
		}
		break;
	}
	case RW_CM_REP: {
		struct rw_cm_rep *r = &cm.u.rep;
		r->local_comm_id = rid;
		r->remote_comm_id = lid;
		r->local_qpn = rqpn;
		/* What the responder expects to receive: the requester's
		 * first PSN (its answers, ACKs and READ responses, take the
		 * requests' PSNs: IBA 9.7.5.1). */
		r->starting_psn = qp_psn(f, pk->qp);
		r->responder_resources = f->max_rd_atomic;
		r->initiator_depth = f->max_rd_atomic;
		r->e2e_flow_control = 1;
		r->rnr_retry_count = f->rnr_retry;
		r->local_ca_guid = mac_guid(b->mac);
		break;
	}
	case RW_CM_RTU:
		cm.u.rtu.local_comm_id = lid;
		cm.u.rtu.remote_comm_id = rid;
		break;
	case RW_CM_DREQ:
		cm.u.dreq.local_comm_id = lid;
		cm.u.dreq.remote_comm_id = rid;
		cm.u.dreq.remote_qpn = rqpn;
		break;
	case RW_CM_DREP:
		cm.u.drep.local_comm_id = rid;
		cm.u.drep.remote_comm_id = lid;
		break;
	default:
		return -1;
	}
	return rw_cm_encode(&cm, tid, mad, RW_MAD_LEN, &n) == RW_OK && n == RW_MAD_LEN ? 0 : -1;
}

void gen_cm_pkt(uint32_t flow, uint32_t qp, uint16_t msg, struct gen_pkt *pk)
{
	int rsp = msg == RW_CM_REP || msg == RW_CM_DREP || msg == RW_CM_REJ;
	memset(pk, 0, sizeof(*pk));
	pk->flow = flow;
	pk->qp = qp;
	pk->dir = rsp ? GEN_DIR_RESPONSE : GEN_DIR_REQUEST;
	pk->kind = GEN_PK_CM;
	pk->cm_msg = msg;
	pk->opcode = UD_SEND_ONLY;
	pk->hdrs = rw_opcode(UD_SEND_ONLY)->hdrs;
	pk->payload_len = RW_MAD_LEN;
	pk->f.dqpn = RW_QP1;
	/* QP 1's PSNs count the connection's messages of each end */
	pk->f.psn = msg == RW_CM_REQ || msg == RW_CM_REP || msg == RW_CM_REJ ? 0 : msg == RW_CM_DREQ ? 2 : 1;
	pk->f.deth.qkey = RW_GSI_QKEY;
	pk->f.deth.sqpn = RW_QP1;
}

/* The CM packet of q: msg from the requester (dir request) or the
 * responder. */
static void cm_fill(const struct gen_lflow *lf, const struct gen_qp *q, uint16_t msg, uint64_t t,
		    struct gen_pkt *pk)
{
	int rsp = msg == RW_CM_REP || msg == RW_CM_DREP;
	gen_cm_pkt(lf->index, q->qp, msg, pk);
	pk->t_ns = t;
	pk->frame_len = lf->cm_len[rsp];
}

int gen_cm_send(struct gen_model *m, struct gen_qp *q, uint64_t t, struct gen_pkt *out)
{
	static const uint16_t msg_of[] = {
		[CM_REQ] = RW_CM_REQ, [CM_REP] = RW_CM_REP, [CM_RTU] = RW_CM_RTU,
		[CM_DREQ] = RW_CM_DREQ, [CM_DREP] = RW_CM_DREP,
	};
	const struct gen_lflow *lf = gen_qlf(m, q);
	uint64_t answer = t + m->sc->link_delay_ns + GEN_CM_TURN_NS;
	/* a real responder answers the REQ and DREQ: they wait for it */
	int wire = lf->wire_acks && (q->cm_state == CM_REQ || q->cm_state == CM_DREQ);
	if (q->cm_state >= sizeof(msg_of) / sizeof(msg_of[0]) || !msg_of[q->cm_state])
		return 0;
	struct gen_flow_stats *st = &m->stats[q->flow];
	if (wire && q->cm_sends > GEN_CM_MAX_RETRIES) {
		q->cm_ns = GEN_NEVER;
		if (q->cm_state == CM_REQ) {
			/* IBA 12.7.27: the REQ's retries exhausted: no connection */
			st->cm_failed++;
			q->cm_state = CM_CLOSED;
			gen_req_fail(m, q);
		} else {
			q->cm_state = CM_CLOSED; /* IBA 12.9.1: TimeWait without a DREP */
		}
		return 0;
	}
	cm_fill(lf, q, msg_of[q->cm_state], t, out);
	out->cm_peer_id = q->cm_peer_id;
	out->cm_peer_qpn = q->cm_peer_qpn;
	st->cm_msgs[out->dir == GEN_DIR_RESPONSE]++;
	st->cm_bytes[out->dir == GEN_DIR_RESPONSE] += out->frame_len;
	if (m->tr)
		gen_tr_other(m, out, 0);
	if (wire) {
		if (q->cm_sends++)
			st->cm_resent++;
		q->cm_ns = t + gen_cm_timeout_ns(lf->f);
		return 1;
	}
	switch (q->cm_state) {
	case CM_RTU: {
		/* connected: the first request follows the RTU on the wire */
		double gap = gen_pace_gap(lf, q, out->frame_len);
		uint64_t next = t + (uint64_t)gap + 1;
		if (q->next_tx_ns < next)
			q->next_tx_ns = next;
		q->flags &= ~(uint32_t)QF_CM_WAIT;
		q->cm_state = CM_UP;
		q->cm_ns = GEN_NEVER;
		break;
	}
	case CM_DREP:
		q->cm_state = CM_CLOSED;
		q->cm_ns = GEN_NEVER;
		break;
	default:
		q->cm_state++;
		q->cm_ns = answer;
		break;
	}
	return 1;
}

void gen_cm_rx(struct gen_model *m, struct gen_qp *q, uint16_t msg, uint32_t peer_id, uint32_t qpn, uint32_t psn,
	       uint64_t now)
{
	const struct gen_flow *f = gen_qlf(m, q)->f;
	uint64_t at = now > q->now ? now : q->now;
	if (msg == RW_CM_REP && q->cm_state == CM_REQ) {
		q->cm_sends = 0;
		if ((qpn & RW_QPN_MASK) != ((f->dst_qpn + q->qp) & RW_QPN_MASK)) {
			/* the requests go to the scenario's dst_qpn: a
			 * responder that picked another QP cannot take them */
			m->stats[q->flow].cm_failed++;
			q->cm_state = CM_CLOSED;
			q->cm_ns = GEN_NEVER;
			gen_req_fail(m, q);
			gen_clock_rekey(m, q);
			return;
		}
		q->cm_peer_id = peer_id;
		q->cm_peer_qpn = qpn & RW_QPN_MASK;
		/* IBA 12.7.26: the REP's starting PSN starts the requests
		 * (what the responder expects to receive); no message has
		 * started yet, so the QP's send PSNs move there */
		psn &= RW_PSN_MASK;
		if (q->msgs_created == 0 && q->next_psn != psn)
			q->next_psn = q->snd_max = q->una = psn;
		q->cm_state = CM_RTU;
		q->cm_ns = at + GEN_CM_TURN_NS;
	} else if (msg == RW_CM_REJ && q->cm_state == CM_REQ) {
		m->stats[q->flow].cm_failed++;
		q->cm_state = CM_CLOSED;
		q->cm_ns = GEN_NEVER;
		gen_req_fail(m, q);
	} else if (msg == RW_CM_DREP && q->cm_state == CM_DREQ) {
		q->cm_state = CM_CLOSED;
		q->cm_ns = GEN_NEVER;
	} else {
		return; /* a duplicate, or not for the state the QP is in */
	}
	gen_clock_rekey(m, q);
}

int gen_cm_match_req(const struct gen_scenario *sc, int af, const uint8_t *sip, const uint8_t *dip, uint32_t qpn,
		     uint32_t *flow, uint32_t *qp)
{
	size_t alen = af == 6 ? 16 : 4;
	for (uint32_t i = 0; i < sc->n_flows; i++) {
		const struct gen_flow *f = &sc->flows[i];
		const struct gen_host *a = &sc->hosts[f->src], *b = &sc->hosts[f->dst];
		uint32_t nq = f->qps ? f->qps : 1;
		uint32_t k = (qpn - f->src_qpn) & RW_QPN_MASK;
		if (f->transport != GEN_RC || !f->cm || (a->af == 6) != (af == 6) || (b->af == 6) != (af == 6) ||
		    k >= nq || memcmp(a->ip, sip, alen) != 0 || memcmp(b->ip, dip, alen) != 0)
			continue;
		*flow = i;
		*qp = k;
		return 0;
	}
	return -1;
}

int gen_cm_match_id(const struct gen_scenario *sc, uint32_t id, int responder, uint32_t *flow, uint32_t *qp)
{
	uint32_t fl = id >> 16 & 0xFFF, k = id & 0xFFFF;
	if (fl >= sc->n_flows || gen_cm_comm_id(fl, k, responder) != id)
		return -1;
	const struct gen_flow *f = &sc->flows[fl];
	if (f->transport != GEN_RC || !f->cm || k >= (f->qps ? f->qps : 1))
		return -1;
	*flow = fl;
	*qp = k;
	return 0;
}

int gen_cm_close(struct gen_model *m, struct gen_qp *q, uint64_t now)
{
	(void)m;
	if (q->cm_state != CM_UP)
		return 0;
	q->cm_state = CM_DREQ;
	q->cm_ns = (now > q->now ? now : q->now) + GEN_CM_TURN_NS;
	return 1;
}
