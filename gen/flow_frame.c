/* SPDX-License-Identifier: BSD-3-Clause */
/* Frames: the opcodes a flow uses (looked up in proto's one opcode table,
 * never written down here), what a packet looks like as a struct rw_packet
 * for proto's builder, the frame length the pacing counts, and the payload
 * pattern. */
#include <string.h>

#include "flow_int.h"
#include "rocewire/build.h"
#include "rocewire/macctrl.h"
#include "rocewire/packet.h"
#include "rocewire/wire.h"

#define POS_FLAGS (RW_OPF_FIRST | RW_OPF_MIDDLE | RW_OPF_LAST)

static const uint8_t pos_flags[4] = {
	[POS_FIRST] = RW_OPF_FIRST,
	[POS_MIDDLE] = RW_OPF_MIDDLE,
	[POS_LAST] = RW_OPF_LAST,
	[POS_ONLY] = RW_OPF_FIRST | RW_OPF_LAST,
};

static enum rw_transport rw_transport_of(enum gen_transport t)
{
	return t == GEN_UD ? RW_TRANSPORT_UD : t == GEN_UC ? RW_TRANSPORT_UC : RW_TRANSPORT_RC;
}

/* Only the transport's own block is searched: the opcode's top three bits
 * are its transport (IBA 9.2.1), which the table's transport field
 * repeats. A model searches about forty times per flow when it is made. */
uint8_t gen_find_opcode(enum rw_transport tr, enum rw_op op, unsigned pos, int imm, int inv)
{
	unsigned first = (unsigned)tr << 5;
	for (unsigned c = first; c < first + 32 && c < 256; c++) {
		const struct rw_opcode_info *i = rw_opcode((uint8_t)c);
		if (!(i->flags & RW_OPF_VALID) || i->transport != tr || i->op != op)
			continue;
		if ((i->flags & POS_FLAGS) != pos_flags[pos])
			continue;
		if (!!(i->flags & RW_OPF_IMM) != !!imm || !!(i->hdrs & RW_HDR_IETH) != !!inv)
			continue;
		return (uint8_t)c;
	}
	return 0xFF;
}

uint8_t gen_cnp_opcode(void)
{
	for (unsigned c = (unsigned)RW_TRANSPORT_CNP << 5; c < 256; c++)
		if (rw_opcode((uint8_t)c)->op == RW_OP_CNP && (rw_opcode((uint8_t)c)->flags & RW_OPF_VALID))
			return (uint8_t)c;
	return 0xFF; /* not reached: the table has the CNP */
}

static void opcode_tables(struct gen_lflow *lf)
{
	enum rw_transport tr = rw_transport_of(lf->f->transport);
	static const uint8_t rwop[GEN_OP_COUNT] = {
		[GEN_OP_SEND] = RW_OP_SEND,	     [GEN_OP_SEND_IMM] = RW_OP_SEND,
		[GEN_OP_SEND_INV] = RW_OP_SEND,	     [GEN_OP_WRITE] = RW_OP_WRITE,
		[GEN_OP_WRITE_IMM] = RW_OP_WRITE,    [GEN_OP_READ] = RW_OP_READ_REQ,
		[GEN_OP_CMP_SWAP] = RW_OP_CMP_SWAP,  [GEN_OP_FETCH_ADD] = RW_OP_FETCH_ADD,
	};
	for (unsigned op = 0; op < GEN_OP_COUNT; op++) {
		/* Immediate data and the IETH ride on a message's last packet
		 * only (IBA 9.3.1); its first and middle ones are plain. */
		int imm = op == GEN_OP_SEND_IMM || op == GEN_OP_WRITE_IMM;
		int inv = op == GEN_OP_SEND_INV;
		for (unsigned pos = 0; pos < 4; pos++) {
			int tail = pos == POS_LAST || pos == POS_ONLY;
			lf->opc[op][pos] = gen_find_opcode(tr, (enum rw_op)rwop[op], pos, imm && tail, inv && tail);
		}
	}
	for (unsigned op = 0; op < GEN_OP_COUNT; op++)
		for (unsigned pos = 0; pos < 4; pos++)
			lf->opc_hdrs[op][pos] = rw_opcode(lf->opc[op][pos])->hdrs;
	for (unsigned pos = 0; pos < 4; pos++)
		lf->rsp_read[pos] = gen_find_opcode(tr, RW_OP_READ_RESP, pos, 0, 0);
	lf->rsp_ack = gen_find_opcode(tr, RW_OP_ACK, POS_ONLY, 0, 0);
	lf->rsp_atomic = gen_find_opcode(tr, RW_OP_ATOMIC_ACK, POS_ONLY, 0, 0);
}

/* Frame bytes besides payload and pad, measured by building one frame of
 * each opcode through the same path the TX layer and the pcap writer use:
 * no header length is written down here. The payload is long enough that
 * the builder does not pad the frame to Ethernet's minimum. */
static int measure_len(const struct gen_scenario *sc, struct gen_lflow *lf, uint8_t opcode, uint16_t *len)
{
	const struct rw_opcode_info *i = rw_opcode(opcode);
	uint8_t buf[512];
	struct gen_pkt pk;
	struct rw_packet p;
	size_t n;
	memset(&pk, 0, sizeof(pk));
	pk.flow = lf->index;
	pk.opcode = opcode;
	pk.dir = (i->flags & RW_OPF_RESPONSE) ? GEN_DIR_RESPONSE : GEN_DIR_REQUEST;
	pk.payload_len = (i->flags & RW_OPF_PAYLOAD) ? 64 : 0;
	gen_pkt_describe(sc, &pk, NULL, &p);
	if (rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, buf, sizeof(buf), &n) != RW_OK)
		return -1;
	*len = (uint16_t)(n - pk.payload_len);
	return 0;
}

/* A CM message's frame (flow_cm.c: a UD SEND Only with a whole MAD) from
 * the requester (rsp 0) or the responder: the ends may differ (VLAN tags). */
static int measure_cm(const struct gen_scenario *sc, struct gen_lflow *lf, unsigned rsp, uint16_t *len)
{
	uint8_t buf[512], mad[256];
	struct gen_pkt pk;
	struct rw_packet p;
	size_t n;
	memset(&pk, 0, sizeof(pk));
	memset(mad, 0, sizeof(mad));
	pk.flow = lf->index;
	pk.kind = GEN_PK_CM;
	pk.opcode = 0x64; /* UD SEND Only */
	pk.dir = rsp ? GEN_DIR_RESPONSE : GEN_DIR_REQUEST;
	pk.payload_len = sizeof(mad);
	pk.f.dqpn = 1;
	gen_pkt_describe(sc, &pk, mad, &p);
	if (rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, buf, sizeof(buf), &n) != RW_OK)
		return -1;
	*len = (uint16_t)n;
	return 0;
}

static int measure(const struct gen_scenario *sc, struct gen_lflow *lf, uint8_t opcode)
{
	return measure_len(sc, lf, opcode, &lf->base_len[opcode & 31]);
}

int gen_frame_init(struct gen_model *m, struct gen_lflow *lf)
{
	opcode_tables(lf);
	for (unsigned op = 0; op < GEN_OP_COUNT; op++)
		for (unsigned pos = 0; pos < 4; pos++)
			if (lf->opc[op][pos] != 0xFF && measure(m->sc, lf, lf->opc[op][pos]) != 0)
				return -1;
	for (unsigned pos = 0; pos < 4; pos++)
		if (lf->rsp_read[pos] != 0xFF && measure(m->sc, lf, lf->rsp_read[pos]) != 0)
			return -1;
	if (lf->rsp_ack != 0xFF && measure(m->sc, lf, lf->rsp_ack) != 0)
		return -1;
	if (lf->rsp_atomic != 0xFF && measure(m->sc, lf, lf->rsp_atomic) != 0)
		return -1;
	/* The CNP (0x81) shares opcode & 31 with SEND middle: its own length. */
	if (measure_len(m->sc, lf, gen_cnp_opcode(), &lf->cnp_len) != 0)
		return -1;
	if (lf->f->cm && lf->f->transport == GEN_RC)
		for (unsigned d = 0; d < 2; d++)
			if (measure_cm(m->sc, lf, d, &lf->cm_len[d]) != 0)
				return -1;
	return 0;
}

/* With no configured port, the port comes from both QP numbers, as NICs
 * derive it for ECMP entropy, kept in the dynamic range 0xC000-0xFFFF
 * (RFC 6335) so that no middlebox takes it for a well-known service. Both
 * directions of a QP use the same port. */
uint16_t gen_qp_sport(const struct gen_flow *f, uint32_t qp)
{
	if (f->udp_sport)
		return (uint16_t)(f->udp_sport + qp);
	uint32_t s = (f->src_qpn + qp) & RW_QPN_MASK, d = (f->dst_qpn + qp) & RW_QPN_MASK;
	return (uint16_t)(0xC000u | ((s ^ d ^ (s >> 14) ^ (d >> 14)) & 0x3FFFu));
}

static void describe_ip(const struct gen_host *from, const struct gen_host *to, uint8_t dscp, uint8_t ecn,
			struct rw_packet *out)
{
	if (from->af == 6) {
		out->present |= RW_P_IPV6;
		out->ipv6.dscp = dscp;
		out->ipv6.ecn = ecn;
		out->ipv6.hop_limit = 64;
		memcpy(out->ipv6.src, from->ip, 16);
		memcpy(out->ipv6.dst, to->ip, 16);
	} else {
		out->present |= RW_P_IPV4;
		out->ipv4.ihl = 5;
		out->ipv4.dscp = dscp;
		out->ipv4.ecn = ecn;
		out->ipv4.flags = RW_IPV4_DF; /* RoCEv2 is never fragmented */
		out->ipv4.ttl = 64;
		out->ipv4.src = rw_get_be32(from->ip);
		out->ipv4.dst = rw_get_be32(to->ip);
	}
}

void gen_pkt_describe(const struct gen_scenario *sc, const struct gen_pkt *pk, const uint8_t *payload,
		      struct rw_packet *out)
{
	const struct gen_flow *f = &sc->flows[pk->flow];
	int rsp = pk->dir == GEN_DIR_RESPONSE;
	const struct gen_host *from = &sc->hosts[rsp ? f->dst : f->src];
	const struct gen_host *to = &sc->hosts[rsp ? f->src : f->dst];
	const struct rw_opcode_info *op = rw_opcode(pk->opcode);
	struct rw_tmpl_fields tf;

	memset(out, 0, sizeof(*out));
	if (pk->kind == GEN_PK_PFC) {
		/* 802.1Qbb from the switch port (a fixed, locally administered
		 * MAC) or, in a storm, from the receiver behind it; the builder
		 * addresses it to 01:80:C2:00:00:01 and pads it to 60 bytes. */
		static const uint8_t switch_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0xFE, 0x01 };
		out->carrier = RW_CARRIER_PFC;
		out->present = RW_P_ETH | RW_P_MACCTRL;
		memcpy(out->eth.src, rsp ? sc->hosts[f->dst].mac : switch_mac, 6);
		out->macctrl.opcode = RW_MACCTRL_PFC;
		out->macctrl.cev = pk->pfc_cev;
		memcpy(out->macctrl.quanta, pk->pfc_quanta, sizeof(out->macctrl.quanta));
		return;
	}
	out->carrier = RW_CARRIER_ROCEV2;
	out->present = RW_P_ETH | RW_P_UDP | RW_P_BTH;
	memcpy(out->eth.src, from->mac, 6);
	memcpy(out->eth.dst, to->mac, 6);
	if (from->has_vlan) {
		out->n_vlan = 1;
		out->vlan[0].tpid = RW_ETHERTYPE_VLAN;
		out->vlan[0].pcp = from->pcp & 7;
		out->vlan[0].vid = from->vlan & 0xFFF;
	}
	/* the model's fields, and the flow's ECN (or the CE mark) and the
	 * QP's port, which the TX layer gives the template the same way */
	tf = pk->f;
	tf.ecn = (pk->flags & GEN_PF_CE) ? RW_ECN_CE : (f->ecn & 3);
	tf.udp_sport = gen_qp_sport(f, pk->qp);
	describe_ip(from, to, f->dscp & 63, tf.ecn, out);
	out->udp.dport = RW_ROCEV2_PORT;
	out->bth.opcode = pk->opcode;
	out->bth.pkey = f->pkey;
	/* The builder writes what the opcode table names; hdrs says the same
	 * as the decoder would, for the template layer. */
	out->hdrs = op->hdrs;
	rw_tmpl_fields_apply(&tf, out);
	out->payload = payload;
	out->payload_len = (op->flags & RW_OPF_PAYLOAD) ? pk->payload_len : 0;
}

/* With no pattern, every byte is its offset in the message modulo 256: a
 * reader can tell where a byte sits in a message, and 256 is a divisor of
 * every MTU, so each packet carries the same bytes. */
void gen_flow_payload(const struct gen_flow *f, uint8_t *buf, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		buf[i] = f->pattern_len ? f->pattern[i % f->pattern_len] : (uint8_t)i;
}
