/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: whole-frame decode over every link type, the error
 * sentence, and build round trips.
 *
 * Input: byte 0 picks the mode. Low 3 bits 0-6: decode, with the link type
 * they name (Ethernet, InfiniBand, ERF, SLL, SLL2, Ethernet, Ethernet), bit 3
 * turning the ICRC check off and bits 4-7 how many bytes the wire length
 * exceeds the captured length (0: a complete capture); the rest is the
 * frame, copied into an allocation of exactly its size so that
 * AddressSanitizer sees any read past the captured bytes. A frame that
 * decodes cleanly is rebuilt from its decoded form and decoded again.
 * Low 3 bits 7: the rest describes a packet field by field (build_fuzzed),
 * which is built into a buffer of a fuzzed capacity and decoded back.
 * The frame and its payload are also read as management datagrams
 * (mad_check), and a decoded attribute payload through its field table. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int linktypes[] = {
	RW_LINKTYPE_ETHERNET, RW_LINKTYPE_INFINIBAND, RW_LINKTYPE_ERF,
	RW_LINKTYPE_LINUX_SLL, RW_LINKTYPE_LINUX_SLL2,
	RW_LINKTYPE_ETHERNET, RW_LINKTYPE_ETHERNET,
};

#define CHECK(cond)                                                                                 \
	do {                                                                                        \
		if (!(cond)) {                                                                      \
			fprintf(stderr, "fuzz_packet: %s:%d: round trip check failed: %s\n",        \
				__FILE__, __LINE__, #cond);                                         \
			abort();                                                                    \
		}                                                                                   \
	} while (0)

/* Where describe() drops what it reads, so that nothing is optimised away. */
extern volatile size_t rw_fuzz_sink;
volatile size_t rw_fuzz_sink;
#define sink rw_fuzz_sink

/* Every name and sentence the decoder offers, into buffers of every small
 * size, so that their bounds are exercised too. */
static void describe(const struct rw_packet *p)
{
	char buf[256];
	for (size_t cap = 0; cap < 8; cap++) {
		char *small = malloc(cap ? cap : 1);
		if (!small)
			return;
		rw_packet_error(p, small, cap);
		if (cap)
			sink += strlen(small);
		free(small);
	}
	sink += strlen(rw_packet_error(p, buf, sizeof buf));
	sink += strlen(rw_carrier_name(p->carrier));
	sink += strlen(rw_layer_name(p->err_layer));
	sink += strlen(rw_crc_status_name(p->icrc_status));
	sink += strlen(rw_strerror(p->err));
	if (p->present & RW_P_BTH) {
		const struct rw_opcode_info *op = rw_opcode(p->bth.opcode);
		sink += strlen(op->name) + strlen(rw_transport_name((enum rw_transport)op->transport));
		for (unsigned b = 0; b < RW_HDR_COUNT; b++)
			if (p->hdrs & (1u << b))
				sink += strlen(rw_hdr_name((enum rw_hdr)(1u << b)));
	}
	if (p->hdrs & RW_HDR_AETH) {
		sink += strlen(rw_aeth_kind_name((enum rw_aeth_kind)p->aeth.kind));
		sink += strlen(rw_nak_code_name(p->aeth.value));
		sink += rw_rnr_timer_us(p->aeth.value) + (size_t)(rw_aeth_credits(p->aeth.value) + 1);
	}
}

/* Any bytes as a management datagram (mad.h): the frame itself and a
 * decoded payload. Every name it offers is read, and a MAD that decodes is
 * encoded and decoded back to the same fields (the common header's
 * reserved bytes come back zero). */
static void mad_check(const uint8_t *b, size_t n)
{
	static struct rw_mad m, back;
	uint8_t out[RW_MAD_LEN];
	const char *s;
	enum rw_err e = rw_mad_decode(b, n, &m);

	if (e == RW_ERR_TRUNCATED)
		return;
	if ((s = rw_mad_class_name(m.hdr.mgmt_class)))
		sink += strlen(s);
	if ((s = rw_mad_method_name(m.hdr.method)))
		sink += strlen(s);
	if ((s = rw_mad_attr_name(m.hdr.mgmt_class, m.hdr.attr_id)))
		sink += strlen(s);
	if (e != RW_OK)
		return;
	if ((s = rw_cm_msg_name(m.hdr.attr_id)))
		sink += strlen(s);
	if (m.u.cm.msg == RW_CM_REJ && (s = rw_cm_rej_reason_name(m.u.cm.u.rej.reason)))
		sink += strlen(s);
	if (m.hdr.mgmt_class == RW_MGMT_SA && (s = rw_rmpp_type_name(m.u.sa.rmpp_type)))
		sink += strlen(s);
	/* The decoded payload's field table (what -v and --json print): every
	 * value and its name. */
	int hd = rw_mad_attr_hd(m.hdr.mgmt_class, m.hdr.attr_id);
	CHECK((hd >= 0) == (m.attr_kind != RW_MAD_ATTR_NONE));
	if (hd >= 0) {
		struct rw_hview v = { .d = rw_header_desc((enum rw_hd)hd), .b = b + m.data_off,
				      .hd = (uint8_t)hd };
		CHECK(m.data_off + v.d->len <= RW_MAD_LEN);
		for (unsigned k = 0; k < v.d->n; k++) {
			const struct rw_field *f = &v.d->f[k];
			uint64_t x;
			size_t len;
			if (f->type == RW_FT_UINT || f->type == RW_FT_FLAG) {
				if (rw_field_value(f, &v, 0, &x))
					sink += (size_t)x;
			} else {
				sink += rw_field_bytes(f, &v, &len)[0] + len;
			}
			if ((s = rw_field_name_of(f, &v)))
				sink += strlen(s);
		}
	}
	CHECK(rw_mad_encode(&m, out, sizeof out, NULL) == RW_OK);
	CHECK(rw_mad_decode(out, sizeof out, &back) == RW_OK);
	m.hdr.resv = 0;
	m.data = back.data = NULL;
	CHECK(memcmp(&m, &back, sizeof m) == 0);
}

/* A frame that decoded to its end is rebuilt from its decoded form and
 * decoded again: the transport must come back unchanged and the new ICRC
 * must verify. */
static void round_trip(const struct rw_packet *p, int linktype)
{
	static uint8_t out[70000];
	static struct rw_packet q;
	size_t n = 0;

	if (p->err != RW_OK || !(p->present & RW_P_BTH) || p->payload_caplen != p->payload_len)
		return;
	if (p->carrier != RW_CARRIER_ROCEV2 && p->carrier != RW_CARRIER_ROCEV1 &&
	    p->carrier != RW_CARRIER_IB)
		return;
	/* Keep the pad count and the length fields only where the builder
	 * derives them the same way: it pads payload to 4 bytes, so keep the
	 * frame's own pad. */
	enum rw_err e = rw_packet_build(p, linktype, RW_BUILD_KEEP_PAD, out, sizeof out, &n);
	if (e != RW_OK)
		return; /* e.g. a frame the builder refuses to make (INVALID): not a bug */
	CHECK(n <= sizeof out);
	uint8_t *copy = malloc(n ? n : 1);
	if (!copy)
		return;
	memcpy(copy, out, n);
	rw_packet_decode(NULL, linktype, copy, n, n, &q);
	CHECK(q.err == RW_OK);
	CHECK(q.carrier == p->carrier);
	CHECK(q.hdrs == p->hdrs);
	CHECK(q.bth.opcode == p->bth.opcode && q.bth.psn == p->bth.psn && q.bth.dqpn == p->bth.dqpn);
	CHECK(q.bth.pkey == p->bth.pkey && q.bth.pad == p->bth.pad && q.bth.se == p->bth.se);
	CHECK(q.bth.m == p->bth.m && q.bth.ackreq == p->bth.ackreq && q.bth.tver == p->bth.tver);
	CHECK(q.payload_len == p->payload_len);
	CHECK(q.payload_len == 0 || memcmp(q.payload, p->payload, p->payload_len) == 0);
	if (p->hdrs & RW_HDR_RETH)
		CHECK(q.reth.va == p->reth.va && q.reth.rkey == p->reth.rkey &&
		      q.reth.dmalen == p->reth.dmalen);
	if (p->hdrs & RW_HDR_AETH)
		CHECK(q.aeth.syndrome == p->aeth.syndrome && q.aeth.msn == p->aeth.msn);
	if (p->hdrs & RW_HDR_DETH)
		CHECK(q.deth.qkey == p->deth.qkey && q.deth.sqpn == p->deth.sqpn);
	if (p->hdrs & RW_HDR_ATOMICETH)
		CHECK(q.atomiceth.va == p->atomiceth.va && q.atomiceth.swap_add == p->atomiceth.swap_add &&
		      q.atomiceth.compare == p->atomiceth.compare && q.atomiceth.rkey == p->atomiceth.rkey);
	if (p->hdrs & RW_HDR_IMMDT)
		CHECK(q.immdt == p->immdt);
	if (p->hdrs & RW_HDR_IETH)
		CHECK(q.ieth == p->ieth);
	CHECK(q.icrc_status == RW_CRC_OK);
	if (q.present & RW_P_VCRC)
		CHECK(q.vcrc_status == RW_CRC_OK);
	free(copy);
}

/* Reads fuzz bytes in order; zeros once they run out. */
struct reader {
	const uint8_t *d;
	size_t n, i;
};

static uint64_t take(struct reader *r, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned k = 0; k < bytes; k++)
		v = v << 8 | (r->i < r->n ? r->d[r->i++] : 0u);
	return v;
}

/* A packet description made of fuzz bytes, built with every flag into an
 * output buffer of fuzzed capacity (exactly that big on the heap). Values
 * may overflow their fields: the encoder must refuse them, never write out
 * of bounds. When the description is sane, the frame must decode back. */
static void build_fuzzed(const uint8_t *data, size_t size)
{
	static const int lts[] = {RW_LINKTYPE_ETHERNET, RW_LINKTYPE_INFINIBAND, RW_LINKTYPE_ERF,
				  RW_LINKTYPE_LINUX_SLL, RW_LINKTYPE_LINUX_SLL2};
	static struct rw_packet p, q;
	struct reader r = {data, size, 0};
	memset(&p, 0, sizeof p);

	int linktype = lts[take(&r, 1) % 5];
	unsigned flags = (unsigned)take(&r, 1) & 0xF;
	size_t cap = (size_t)take(&r, 2);
	uint8_t sane = (uint8_t)take(&r, 1); /* bit 0: keep values in range */
	p.carrier = (enum rw_carrier)(take(&r, 1) % RW_CARRIER_COUNT);
	p.present = (uint32_t)take(&r, 2);
	p.n_vlan = (uint8_t)(take(&r, 1) % (RW_MAX_VLAN + 2));
	for (unsigned i = 0; i < RW_MAX_VLAN; i++) {
		p.vlan[i].tpid = (uint16_t)take(&r, 2);
		p.vlan[i].pcp = (uint8_t)take(&r, 1);
		p.vlan[i].dei = (uint8_t)take(&r, 1);
		p.vlan[i].vid = (uint16_t)take(&r, 2);
	}
	for (unsigned i = 0; i < 6; i++)
		p.eth.dst[i] = (uint8_t)take(&r, 1);
	p.ipv4.dscp = (uint8_t)take(&r, 1);
	p.ipv4.ecn = (uint8_t)take(&r, 1);
	p.ipv4.flags = (uint8_t)take(&r, 1);
	p.ipv4.frag_off = (uint16_t)take(&r, 2);
	p.ipv4.ttl = (uint8_t)take(&r, 1);
	p.ipv4.src = (uint32_t)take(&r, 4);
	p.ipv4.options_len = (uint8_t)take(&r, 1);
	p.ipv6.dscp = (uint8_t)take(&r, 1);
	p.ipv6.ecn = (uint8_t)take(&r, 1);
	p.ipv6.flow_label = (uint32_t)take(&r, 3);
	p.ipv6.hop_limit = (uint8_t)take(&r, 1);
	p.udp.sport = (uint16_t)take(&r, 2);
	p.udp.dport = (uint16_t)take(&r, 2);
	p.udp.len = (uint16_t)take(&r, 2);
	p.lrh.vl = (uint8_t)take(&r, 1);
	p.lrh.sl = (uint8_t)take(&r, 1);
	p.lrh.lnh = (uint8_t)take(&r, 1);
	p.lrh.dlid = (uint16_t)take(&r, 2);
	p.lrh.pktlen = (uint16_t)take(&r, 2);
	p.grh.tclass = (uint8_t)take(&r, 1);
	p.grh.flow_label = (uint32_t)take(&r, 3);
	p.grh.paylen = (uint16_t)take(&r, 2);
	p.bth.opcode = (uint8_t)take(&r, 1);
	p.bth.se = (uint8_t)take(&r, 1);
	p.bth.pad = (uint8_t)take(&r, 1);
	p.bth.pkey = (uint16_t)take(&r, 2);
	p.bth.dqpn = (uint32_t)take(&r, 4);
	p.bth.psn = (uint32_t)take(&r, 4);
	p.rdeth.een = (uint32_t)take(&r, 4);
	p.deth.qkey = (uint32_t)take(&r, 4);
	p.deth.sqpn = (uint32_t)take(&r, 4);
	p.xrceth.xrcsrq = (uint32_t)take(&r, 4);
	p.feth.sel = (uint8_t)take(&r, 1);
	p.feth.plt = (uint8_t)take(&r, 1);
	p.reth.va = take(&r, 8);
	p.reth.dmalen = (uint32_t)take(&r, 4);
	p.atomiceth.swap_add = take(&r, 8);
	p.aeth.syndrome = (uint8_t)take(&r, 1);
	p.aeth.msn = (uint32_t)take(&r, 4);
	p.immdt = (uint32_t)take(&r, 4);
	p.macctrl.cev = (uint16_t)take(&r, 2);
	p.macctrl.quanta[3] = (uint16_t)take(&r, 2);
	p.erf.flags = (uint8_t)take(&r, 1);
	p.sll.addr_len = (uint16_t)take(&r, 1);
	/* What is left: IPv4 options (in the input, so a read past them is seen) and payload. */
	const uint8_t *rest = data + (r.i < size ? r.i : size);
	size_t rest_len = size - (r.i < size ? r.i : size);
	if (p.ipv4.options_len > rest_len)
		p.ipv4.options_len = (uint8_t)rest_len;
	p.ipv4.options = rest;
	p.payload = rest_len ? rest : NULL;
	p.payload_len = (uint32_t)rest_len;

	const struct rw_opcode_info *op = rw_opcode(p.bth.opcode);
	if (sane & 1) {
		/* In range, and a frame the decoder must read back whole. */
		flags = 0;
		p.n_vlan %= RW_MAX_VLAN + 1;
		for (unsigned i = 0; i < RW_MAX_VLAN; i++) {
			p.vlan[i].tpid = i == 0 && p.n_vlan > 1 ? RW_ETHERTYPE_QINQ : RW_ETHERTYPE_VLAN;
			p.vlan[i].pcp &= 7;
			p.vlan[i].dei &= 1;
			p.vlan[i].vid &= 0xFFF;
		}
		p.ipv4.dscp &= 0x3F;
		p.ipv4.ecn &= 3;
		p.ipv4.flags = RW_IPV4_DF;
		p.ipv4.frag_off = 0;
		p.ipv4.options_len &= 0x3C; /* whole words, at most 40 bytes... */
		if (p.ipv4.options_len > 40)
			p.ipv4.options_len = 40;
		if (p.ipv4.options_len > rest_len)
			p.ipv4.options_len = 0;
		p.ipv6.dscp &= 0x3F;
		p.ipv6.ecn &= 3;
		p.ipv6.flow_label &= 0xFFFFF;
		p.udp.dport = RW_ROCEV2_PORT;
		p.lrh.vl &= 0xF;
		p.lrh.sl &= 0xF;
		p.grh.flow_label &= 0xFFFFF;
		p.bth.se &= 1;
		p.bth.dqpn &= RW_QPN_MASK;
		p.bth.psn &= RW_PSN_MASK;
		p.rdeth.een &= 0xFFFFFF;
		p.deth.sqpn &= 0xFFFFFF;
		p.xrceth.xrcsrq &= 0xFFFFFF;
		p.feth.sel &= 3;
		p.feth.plt &= 0xF;
		p.aeth.msn &= 0xFFFFFF;
		p.sll.addr_len = 6;
		if (p.carrier == RW_CARRIER_IB) {
			linktype = linktype == RW_LINKTYPE_ERF ? RW_LINKTYPE_ERF : RW_LINKTYPE_INFINIBAND;
			p.n_vlan = 0;
		} else if (linktype == RW_LINKTYPE_INFINIBAND) {
			linktype = RW_LINKTYPE_ETHERNET;
		}
		if (!(op->flags & RW_OPF_PAYLOAD))
			p.payload_len = 0;
		if (p.payload_len > 4096)
			p.payload_len = 4096;
		cap = 70000;
	}
	uint8_t *buf = malloc(cap ? cap : 1);
	if (!buf)
		return;
	size_t n = 0;
	enum rw_err e = rw_packet_build(&p, linktype, flags, buf, cap, &n);
	if (e == RW_OK) {
		CHECK(n <= cap);
		uint8_t *frame = malloc(n ? n : 1);
		if (frame) {
			memcpy(frame, buf, n);
			rw_packet_decode(NULL, linktype, frame, n, n, &q);
			describe(&q);
			int checkable = (sane & 1) && (op->flags & RW_OPF_VALID) &&
					(p.carrier == RW_CARRIER_ROCEV2 || p.carrier == RW_CARRIER_ROCEV1 ||
					 p.carrier == RW_CARRIER_IB);
			if (checkable) {
				CHECK(q.err == RW_OK);
				CHECK(q.carrier == p.carrier);
				CHECK(q.bth.opcode == p.bth.opcode && q.bth.psn == p.bth.psn &&
				      q.bth.dqpn == p.bth.dqpn && q.bth.pkey == p.bth.pkey);
				CHECK(q.payload_len == p.payload_len);
				CHECK(q.icrc_status == RW_CRC_OK);
				CHECK(q.n_vlan == (p.carrier == RW_CARRIER_IB ? 0 : p.n_vlan));
				if (op->hdrs & RW_HDR_RETH)
					CHECK(q.reth.va == p.reth.va && q.reth.dmalen == p.reth.dmalen);
				if (op->hdrs & RW_HDR_AETH)
					CHECK(q.aeth.syndrome == p.aeth.syndrome && q.aeth.msn == p.aeth.msn);
				if (op->hdrs & RW_HDR_IMMDT)
					CHECK(q.immdt == p.immdt);
			}
			free(frame);
		}
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rw_packet p;
	if (size < 1)
		return 0;
	if ((data[0] & 7) == 7) {
		build_fuzzed(data + 1, size - 1);
		return 0;
	}
	int linktype = linktypes[data[0] & 7];
	struct rw_decode_cfg cfg = {0, (uint8_t)((data[0] >> 3) & 1)};
	size_t extra = (size_t)(data[0] >> 4) * 97; /* a cut of 0..1455 bytes */
	size_t len = size - 1;
	uint8_t *frame = malloc(len ? len : 1);
	if (!frame)
		return 0;
	memcpy(frame, data + 1, len);

	enum rw_err e = rw_packet_decode(&cfg, linktype, frame, len, len + extra, &p);
	if (e != p.err)
		abort();
	describe(&p);
	mad_check(frame, len);
	if (p.payload && p.payload_caplen)
		mad_check(p.payload, p.payload_caplen);
	if (!extra && !cfg.no_icrc_check)
		round_trip(&p, linktype);
	/* The default configuration (cfg NULL) takes the same path. */
	rw_packet_decode(NULL, linktype, frame, len, len, &p);
	describe(&p);
	free(frame);
	return 0;
}
