/* SPDX-License-Identifier: BSD-3-Clause */
/* A decoded packet in two cache lines: the fields of struct rw_packet that
 * the consumer of the offline pipeline (pipeline.h) reads, and nothing else.
 *
 * The reader thread decodes into a struct rw_packet of its own (ten cache
 * lines, most of them headers no report looks at) and hands over this
 * instead: on the project's machine (a VM) every cache line that moves from
 * one core to the other costs about as much as decoding a small header, and
 * the 640-byte slots of before made the two threads slower than one. The
 * consumer unpacks it into a struct rw_packet that stays in its own cache.
 *
 * Who reads what, and so what travels:
 *  - the analysis engine (rw_analyzer_packet, proto/src/analyze*.c): carrier,
 *    present, hdrs, err, wirelen, payload_len, icrc/vcrc status, the BTH's
 *    opcode, PSN, AckReq and destination QP, op; RETH va and dmalen; AETH kind,
 *    value and MSN; MAC control cev and quanta; n_vlan and the outer tag's
 *    PCP; the addresses, DSCP and ECN of IPv4 or IPv6, the GIDs of a GRH,
 *    the LIDs of an LRH; the Ethernet addresses (for a Linux cooked
 *    capture the packet type), which tell the link ends PFC pauses;
 *  - the report's time series (rs_packet): wirelen, op, the BTH's PSN;
 *  - the per-packet driver (cap_dissect_at): err, icrc/vcrc status;
 *  - the summary's counters (cap_stats_add): carrier, present, the BTH's
 *    opcode, icrc/vcrc status, err, wirelen and caplen.
 * A packet that did not decode to its end, or that the snapshot length cut,
 * and a management datagram (the engine reads its CM message: rare, a
 * handful per connection), travels whole (its warning reads the error fields and the record), and so
 * does everything when per-packet printers run (they read every field).
 * tests/e2e/packed_check.c proves the list complete: it feeds the engine
 * and the report each packet of every sample twice, decoded and as unpacked
 * over garbage, and compares every verdict and every output. A field the
 * engine starts to read must be added here (that test then fails until it
 * is). */
#ifndef ROCEWIRE_CAP_PACKED_H
#define ROCEWIRE_CAP_PACKED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rocewire.h"

struct cap_packed {
	/* first line: what every packet needs */
	uint64_t ts_ns;
	const struct rw_opcode_info *op;
	uint32_t wirelen;       /* caplen is the same (else it travels whole) */
	uint32_t payload_len;
	uint32_t psn, dqpn;     /* psn: the PSN, and the BTH's AckReq in bit 31 (room is short) */
	uint32_t present;
	uint16_t hdrs;
	uint8_t carrier, err, icrc_status, vcrc_status;
	uint8_t n_vlan, pcp;    /* the outer tag's PCP */
	uint8_t dscp, ecn;      /* of the IPv4 or IPv6 header */
	uint8_t opcode;
	uint8_t whole;          /* the packet travels whole: see the pipe's side slot */
	int64_t offset;         /* the record's byte offset in its file */
	uint32_t reth_dmalen, aeth_msn;
	/* second line: extension headers, PFC, addresses */
	uint64_t reth_va;
	uint8_t aeth_kind, aeth_value;
	uint16_t slid, dlid;
	uint16_t cev;
	union {
		uint16_t quanta[RW_PFC_PRIORITIES]; /* MAC control frames */
		/* the others: Ethernet destination and source, or for a
		 * Linux cooked capture the packet type in macs[0] */
		uint8_t macs[12];
	};
	/* IPv4 (host order, 4 bytes), IPv6 or GRH GIDs; MAC control frames:
	 * the Ethernet source, then the cooked capture's packet type */
	uint8_t src[16], dst[16];
};

_Static_assert(sizeof(struct cap_packed) == 128, "struct cap_packed: two cache lines");
_Static_assert(RW_CARRIER_COUNT <= 256 && RW_CRC_BAD <= 255 && RW_ERR_INVALID <= 255,
	       "struct cap_packed keeps these enums in a byte");
_Static_assert(RW_P_SLL2 <= UINT32_MAX, "present bits fit");

/* Packs p (decoded from a record of wirelen bytes, caplen captured, at ts
 * and offset); returns 0, or 1 when the packet must travel whole instead
 * (o->whole is then set and the rest of *o is not). */
static inline int cap_packed_pack(struct cap_packed *o, const struct rw_packet *p, uint32_t caplen,
				  uint64_t ts_ns, int64_t offset)
{
	struct cap_packed k;

	if (p->err != RW_OK || caplen != p->wirelen || (p->present & RW_P_MAD)) {
		o->ts_ns = ts_ns;
		o->whole = 1;
		return 1;
	}
	k.ts_ns = ts_ns;
	k.op = p->op;
	k.wirelen = p->wirelen;
	k.payload_len = p->payload_len;
	k.psn = p->bth.psn | (uint32_t)(p->bth.ackreq != 0) << 31;
	k.dqpn = p->bth.dqpn;
	k.present = p->present;
	k.hdrs = p->hdrs;
	k.carrier = (uint8_t)p->carrier;
	k.err = (uint8_t)p->err;
	k.icrc_status = (uint8_t)p->icrc_status;
	k.vcrc_status = (uint8_t)p->vcrc_status;
	k.n_vlan = p->n_vlan;
	k.pcp = p->vlan[0].pcp;
	k.dscp = 0;
	k.ecn = 0;
	k.opcode = p->bth.opcode;
	k.whole = 0;
	k.offset = offset;
	k.reth_dmalen = p->reth.dmalen;
	k.aeth_msn = p->aeth.msn;
	k.reth_va = p->reth.va;
	k.aeth_kind = p->aeth.kind;
	k.aeth_value = p->aeth.value;
	k.slid = p->lrh.slid;
	k.dlid = p->lrh.dlid;
	k.cev = p->macctrl.cev;
	int macctrl = (p->present & RW_P_MACCTRL) != 0;
	if (macctrl) {
		memcpy(k.quanta, p->macctrl.quanta, sizeof(k.quanta));
	} else {
		memcpy(k.macs, p->eth.dst, 6);
		memcpy(k.macs + 6, p->eth.src, 6);
		if (!(p->present & RW_P_ETH))
			k.macs[0] = (uint8_t)p->sll.pkttype;
	}
	const uint8_t *src = NULL, *dst = NULL;
	if (p->present & RW_P_IPV4) {
		k.dscp = p->ipv4.dscp;
		k.ecn = p->ipv4.ecn;
		memset(k.src, 0, sizeof(k.src));
		memset(k.dst, 0, sizeof(k.dst));
		memcpy(k.src, &p->ipv4.src, 4);
		memcpy(k.dst, &p->ipv4.dst, 4);
	} else if (p->present & RW_P_IPV6) {
		k.dscp = p->ipv6.dscp;
		k.ecn = p->ipv6.ecn;
		src = p->ipv6.src;
		dst = p->ipv6.dst;
	} else if (p->present & RW_P_GRH) {
		src = p->grh.sgid;
		dst = p->grh.dgid;
	} else {
		memset(k.src, 0, sizeof(k.src));
		memset(k.dst, 0, sizeof(k.dst));
	}
	if (src) {
		memcpy(k.src, src, 16);
		memcpy(k.dst, dst, 16);
	}
	if (macctrl) {
		memcpy(k.src, p->eth.src, 6);
		k.src[6] = (uint8_t)p->sll.pkttype;
	}
	/* One copy of whole lines: the slot's lines are written once, in
	 * full, and read on the other core. */
	memcpy(o, &k, sizeof(k));
	return 0;
}

/* Writes what the consumer reads into p; the other fields keep whatever
 * they held (nothing reads them). */
static inline void cap_packed_unpack(const struct cap_packed *k, struct rw_packet *p)
{
	p->carrier = (enum rw_carrier)k->carrier;
	p->present = k->present;
	p->hdrs = k->hdrs;
	p->err = (enum rw_err)k->err;
	p->caplen = k->wirelen;
	p->wirelen = k->wirelen;
	p->payload_len = k->payload_len;
	p->icrc_status = (enum rw_crc_status)k->icrc_status;
	p->vcrc_status = (enum rw_crc_status)k->vcrc_status;
	p->op = k->op;
	p->bth.opcode = k->opcode;
	p->bth.psn = k->psn & RW_PSN_MASK;
	p->bth.ackreq = (uint8_t)(k->psn >> 31);
	p->bth.dqpn = k->dqpn;
	p->reth.va = k->reth_va;
	p->reth.dmalen = k->reth_dmalen;
	p->aeth.msn = k->aeth_msn;
	p->aeth.kind = k->aeth_kind;
	p->aeth.value = k->aeth_value;
	p->lrh.slid = k->slid;
	p->lrh.dlid = k->dlid;
	p->macctrl.cev = k->cev;
	if (k->present & RW_P_MACCTRL) {
		memcpy(p->macctrl.quanta, k->quanta, sizeof(k->quanta));
		memcpy(p->eth.src, k->src, 6);
		p->sll.pkttype = k->src[6];
	} else if (k->present & RW_P_ETH) {
		memcpy(p->eth.dst, k->macs, 6);
		memcpy(p->eth.src, k->macs + 6, 6);
	} else {
		p->sll.pkttype = k->macs[0];
	}
	p->n_vlan = k->n_vlan;
	p->vlan[0].pcp = k->pcp;
	if (k->present & RW_P_IPV4) {
		p->ipv4.dscp = k->dscp;
		p->ipv4.ecn = k->ecn;
		memcpy(&p->ipv4.src, k->src, 4);
		memcpy(&p->ipv4.dst, k->dst, 4);
	} else if (k->present & RW_P_IPV6) {
		p->ipv6.dscp = k->dscp;
		p->ipv6.ecn = k->ecn;
		memcpy(p->ipv6.src, k->src, 16);
		memcpy(p->ipv6.dst, k->dst, 16);
	} else if (k->present & RW_P_GRH) {
		memcpy(p->grh.sgid, k->src, 16);
		memcpy(p->grh.dgid, k->dst, 16);
	}
}

#endif
