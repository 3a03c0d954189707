/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-madcap DIR: management datagrams made by proto's MAD encoders
 * (mad.h) and frame builder, for test_mad_tshark.sh to read back through
 * Wireshark's own dissector.
 *
 * Writes DIR/roce.pcap (Ethernet, IPv4, UDP 4791) and DIR/ib.pcap (native
 * IB: LRH, BTH, DETH, in ERF records; each is also built bare, LINKTYPE 247,
 * and decoded back by rw_packet_decode and rw_mad_decode) with a CM handshake (REQ, MRA, REP, RTU,
 * DREQ, DREP, REJ), SMPs (directed route and LID routed, to QP 0 on VL 15),
 * an SA PathRecord query and a PerfMgt PortCounters response, then one MAD
 * per attribute payload rw_mad_decode decodes (SMP NodeInfo, SwitchInfo,
 * GUIDInfo, PortInfo, P_KeyTable, SMInfo over IB; SA NodeRecord,
 * ServiceRecord, MCMemberRecord and PerfMgt PortCountersExtended over
 * both), each a UD SEND Only with a valid ICRC. The payloads' values are
 * also read through our field tables (fields.h), which must agree. On stdout, one line per value that tshark
 * must show: "FILE FRAME FIELD VALUE", VALUE in decimal (or a GID's text),
 * taken from what was put in, not from a decode. */
#include <arpa/inet.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire.h"

#define UD_SEND_ONLY 0x64 /* IBA 9.2, Table 38: UD SEND Only */

struct out {
	const char *name; /* "roce" or "ib" */
	int linktype;
	pcap_t *dead;
	pcap_dumper_t *d;
	unsigned frames;
};

static const char *prog = "rocewire-madcap";

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, detail);
	exit(1);
}

static void check(enum rw_err e, const char *what)
{
	if (e != RW_OK)
		die(what, rw_strerror(e));
}

static void expect(const struct out *o, const char *field, unsigned long long v)
{
	printf("%s %u %s %llu\n", o->name, o->frames + 1, field, v);
}

static void expect_gid(const struct out *o, const char *field, const uint8_t gid[16])
{
	char s[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, gid, s, sizeof(s));
	printf("%s %u %s %s\n", o->name, o->frames + 1, field, s);
}

/* A built frame must decode back to its MAD, with a good ICRC. */
static void self_check(int linktype, const uint8_t *frame, size_t n, const uint8_t *mad)
{
	struct rw_packet d;
	struct rw_mad m;
	rw_packet_decode(NULL, linktype, frame, n, n, &d);
	if (d.err != RW_OK || d.payload_len != RW_MAD_LEN || d.icrc_status != RW_CRC_OK ||
	    memcmp(d.payload, mad, RW_MAD_LEN) != 0 || rw_mad_decode(d.payload, d.payload_len, &m) != RW_OK)
		die("self-check", "a built frame does not decode back to its MAD");
}

/* One MAD as a UD SEND Only to QP qp (0: SMP, on VL 15 over IB). */
static void emit(struct out *o, const uint8_t mad[RW_MAD_LEN], unsigned qp)
{
	struct rw_packet p;
	uint8_t frame[512];
	size_t len;

	memset(&p, 0, sizeof(p));
	p.present = RW_P_BTH;
	if (o->linktype == RW_LINKTYPE_ERF) {
		/* tshark 4.0 reads no LINKTYPE 247 pcap: native IB in an ERF
		 * record of type InfiniBand, as tshark_xcheck.py does. */
		p.carrier = RW_CARRIER_IB;
		p.present |= RW_P_ERF | RW_P_LRH;
		p.erf.type = RW_ERF_TYPE_INFINIBAND;
		p.erf.ts = (uint64_t)1700000000 << 32 | o->frames;
		p.lrh.vl = qp == RW_QP0 ? 15 : 0; /* IBA 14.2.2: SMPs on VL 15 */
		p.lrh.lnh = RW_LNH_IBA_LOCAL;
		p.lrh.dlid = qp == RW_QP0 ? 0xffff : 2;
		p.lrh.slid = 1;
	} else {
		static const uint8_t dst[6] = {0x02, 0, 0, 0, 0, 2}, src[6] = {0x02, 0, 0, 0, 0, 1};
		p.carrier = RW_CARRIER_ROCEV2;
		p.present |= RW_P_ETH | RW_P_IPV4 | RW_P_UDP;
		memcpy(p.eth.dst, dst, 6);
		memcpy(p.eth.src, src, 6);
		p.eth.ethertype = RW_ETHERTYPE_IPV4;
		p.ipv4.ihl = 5;
		p.ipv4.ttl = 64;
		p.ipv4.flags = RW_IPV4_DF;
		p.ipv4.protocol = RW_IPPROTO_UDP;
		p.ipv4.src = 0x0a000001;
		p.ipv4.dst = 0x0a000002;
		p.udp.sport = 0xc000;
		p.udp.dport = RW_ROCEV2_PORT;
	}
	p.bth.opcode = UD_SEND_ONLY;
	p.bth.pkey = 0xffff;
	p.bth.dqpn = qp;
	p.bth.psn = o->frames;
	p.hdrs = RW_HDR_DETH;
	p.deth.qkey = qp == RW_QP0 ? 0 : RW_GSI_QKEY;
	p.deth.sqpn = qp;
	p.payload = mad;
	p.payload_len = RW_MAD_LEN;
	enum rw_err e = rw_packet_build(&p, o->linktype, 0, frame, sizeof(frame), &len);
	if (e != RW_OK)
		die("rw_packet_build", rw_strerror(e));
	self_check(o->linktype, frame, len, mad);
	if (p.carrier == RW_CARRIER_IB) {
		/* The same frame bare, LINKTYPE 247. */
		uint8_t bare[512];
		size_t n;
		p.present &= ~(uint32_t)RW_P_ERF;
		check(rw_packet_build(&p, RW_LINKTYPE_INFINIBAND, 0, bare, sizeof(bare), &n), "bare IB");
		self_check(RW_LINKTYPE_INFINIBAND, bare, n, mad);
	}
	struct pcap_pkthdr h = { .ts = { .tv_sec = 1700000000, .tv_usec = (suseconds_t)o->frames },
				 .caplen = (bpf_u_int32)len, .len = (bpf_u_int32)len };
	pcap_dump((u_char *)o->d, &h, frame);
	o->frames++;
}

/* Expectations are for the next frame emit() writes (tshark counts from 1). */

/* The MAD header fields tshark shows for every MAD. */
static void expect_hdr(struct out *o, const uint8_t *mad)
{
	expect(o, "infiniband.mad.mgmtclass", mad[1]);
	expect(o, "infiniband.mad.method", mad[3]);
	expect(o, "infiniband.mad.attributeid", (unsigned)mad[16] << 8 | mad[17]);
	expect(o, "infiniband.mad.transactionid", rw_get_be64(mad + 8));
}

static void gid(uint8_t g[16], uint8_t last)
{
	memset(g, 0, 16);
	g[0] = 0xfe;
	g[1] = 0x80;
	g[15] = last;
}

static void cm_handshake(struct out *o, uint64_t tid0)
{
	uint8_t mad[RW_MAD_LEN];
	struct rw_cm_req req = {
		.local_comm_id = 0x1a2b3c4d, .service_id = UINT64_C(0x0106000000004791),
		.local_ca_guid = UINT64_C(0x0002c90300a1b2c3), .local_qpn = 0x000123,
		.responder_resources = 4, .initiator_depth = 4, .remote_cm_response_timeout = 20,
		.transport_service_type = 0, .starting_psn = 0xabcdef, .local_cm_response_timeout = 20,
		.retry_count = 7, .pkey = 0xffff, .path_mtu = 5, .rnr_retry_count = 6,
		.max_cm_retries = 15, .primary = { .local_lid = 1, .remote_lid = 2, .flow_label = 0x12345,
						   .packet_rate = 3, .traffic_class = 0, .hop_limit = 64,
						   .sl = 3, .subnet_local = 1, .local_ack_timeout = 18 },
	};
	if (o->linktype == RW_LINKTYPE_ETHERNET) {
		/* RoCEv2 GIDs are the hosts' IPv4-mapped addresses (IBA
		 * A17.8), which Wireshark shows as IPv4 (the _ipv4 fields). */
		static const uint8_t a[16] = {[10] = 0xff, 0xff, 10, 0, 0, 1},
				     b[16] = {[10] = 0xff, 0xff, 10, 0, 0, 2};
		memcpy(req.primary.local_gid, a, 16);
		memcpy(req.primary.remote_gid, b, 16);
	} else {
		gid(req.primary.local_gid, 1);
		gid(req.primary.remote_gid, 2);
	}
	check(rw_cm_req_encode(&req, tid0, mad, sizeof(mad), NULL), "REQ");
	expect_hdr(o, mad);
	expect(o, "infiniband.cm.req", req.local_comm_id);
	expect(o, "infiniband.cm.req.serviceid", req.service_id);
	expect(o, "infiniband.cm.req.localcaguid", req.local_ca_guid);
	expect(o, "infiniband.cm.req.localqpn", req.local_qpn);
	expect(o, "infiniband.cm.req.responderres", req.responder_resources);
	expect(o, "infiniband.cm.req.remoteresptout", req.remote_cm_response_timeout);
	expect(o, "infiniband.cm.req.transpsvctype", req.transport_service_type);
	expect(o, "infiniband.cm.req.startpsn", req.starting_psn);
	expect(o, "infiniband.cm.req.localresptout", req.local_cm_response_timeout);
	expect(o, "infiniband.cm.req.retrcount", req.retry_count);
	expect(o, "infiniband.cm.req.pkey", req.pkey);
	expect(o, "infiniband.cm.req.pppmtu", req.path_mtu);
	expect(o, "infiniband.cm.req.rnrretrcount", req.rnr_retry_count);
	expect(o, "infiniband.cm.req.maxcmretr", req.max_cm_retries);
	expect(o, "infiniband.cm.req.prim_locallid", req.primary.local_lid);
	expect(o, "infiniband.cm.req.prim_remotelid", req.primary.remote_lid);
	if (o->linktype == RW_LINKTYPE_ETHERNET) {
		printf("%s %u infiniband.cm.req.prim_localgid_ipv4 10.0.0.1\n", o->name, o->frames + 1);
		printf("%s %u infiniband.cm.req.prim_remotegid_ipv4 10.0.0.2\n", o->name, o->frames + 1);
	} else {
		expect_gid(o, "infiniband.cm.req.prim_localgid", req.primary.local_gid);
		expect_gid(o, "infiniband.cm.req.prim_remotegid", req.primary.remote_gid);
	}
	/* Not the flow label and packet rate: Wireshark 4.0 reads the flow
	 * label from 2 bytes and the rate from byte 91 as a 32-bit field
	 * (packet-infiniband.c), not IBA 12.6.5's 20 bits at byte 88 and 6 at
	 * 91; test_mad.c checks them against the spec. */
	expect(o, "infiniband.cm.req.prim_hoplim", req.primary.hop_limit);
	expect(o, "infiniband.cm.req.prim_sl", req.primary.sl);
	expect(o, "infiniband.cm.req.prim_localacktout", req.primary.local_ack_timeout);
	emit(o, mad, RW_QP1);

	struct rw_cm_mra mra = { .local_comm_id = 0x5e6f7081, .remote_comm_id = req.local_comm_id,
				 .message_mraed = 0, .service_timeout = 17 };
	check(rw_cm_mra_encode(&mra, tid0, mad, sizeof(mad), NULL), "MRA");
	expect_hdr(o, mad);
	emit(o, mad, RW_QP1);

	struct rw_cm_rep rep = { .local_comm_id = 0x5e6f7081, .remote_comm_id = req.local_comm_id,
				 .local_qpn = 0x000456, .starting_psn = 0x123456,
				 .responder_resources = 4, .initiator_depth = 4, .target_ack_delay = 15,
				 .rnr_retry_count = 5, .local_ca_guid = UINT64_C(0x0002c90300a1b2c4) };
	check(rw_cm_rep_encode(&rep, tid0, mad, sizeof(mad), NULL), "REP");
	expect_hdr(o, mad);
	expect(o, "infiniband.cm.rep", rep.local_comm_id);
	expect(o, "infiniband.cm.rep.remotecommid", rep.remote_comm_id);
	expect(o, "infiniband.cm.rep.localqpn", rep.local_qpn);
	expect(o, "infiniband.cm.rep.startpsn", rep.starting_psn);
	expect(o, "infiniband.cm.rep.respres", rep.responder_resources);
	expect(o, "infiniband.cm.rep.tgtackdelay", rep.target_ack_delay);
	expect(o, "infiniband.cm.rep.rnrretrcount", rep.rnr_retry_count);
	expect(o, "infiniband.cm.rep.localcaguid", rep.local_ca_guid);
	emit(o, mad, RW_QP1);

	struct rw_cm_rtu rtu = { .local_comm_id = req.local_comm_id, .remote_comm_id = rep.local_comm_id };
	check(rw_cm_rtu_encode(&rtu, tid0, mad, sizeof(mad), NULL), "RTU");
	expect_hdr(o, mad);
	expect(o, "infiniband.cm.rtu.localcommid", rtu.local_comm_id);
	expect(o, "infiniband.cm.rtu.remotecommid", rtu.remote_comm_id);
	emit(o, mad, RW_QP1);

	struct rw_cm_dreq dreq = { .local_comm_id = req.local_comm_id,
				   .remote_comm_id = rep.local_comm_id, .remote_qpn = rep.local_qpn };
	check(rw_cm_dreq_encode(&dreq, tid0 + 1, mad, sizeof(mad), NULL), "DREQ");
	expect_hdr(o, mad);
	expect(o, "infiniband.cm.dreq.localcommid", dreq.local_comm_id);
	expect(o, "infiniband.cm.dreq.remotecommid", dreq.remote_comm_id);
	expect(o, "infiniband.cm.req.remoteqpneecn", dreq.remote_qpn); /* Wireshark's name */
	emit(o, mad, RW_QP1);

	struct rw_cm_rtu drep = { .local_comm_id = rep.local_comm_id, .remote_comm_id = req.local_comm_id };
	check(rw_cm_drep_encode(&drep, tid0 + 1, mad, sizeof(mad), NULL), "DREP");
	expect_hdr(o, mad);
	expect(o, "infiniband.cm.drsp.localcommid", drep.local_comm_id);
	expect(o, "infiniband.cm.drsp.remotecommid", drep.remote_comm_id);
	emit(o, mad, RW_QP1);

	struct rw_cm_rej rej = { .local_comm_id = 0x77777777, .remote_comm_id = 0x1a2b3c4e,
				 .message_rejected = 0, .reason = 28 };
	check(rw_cm_rej_encode(&rej, tid0 + 2, mad, sizeof(mad), NULL), "REJ");
	expect_hdr(o, mad);
	expect(o, "infiniband.cm.rej.localcommid", rej.local_comm_id);
	expect(o, "infiniband.cm.rej.remotecommid", rej.remote_comm_id);
	expect(o, "infiniband.cm.rej.msgrej", rej.message_rejected);
	expect(o, "infiniband.cm.rej.reason", rej.reason);
	emit(o, mad, RW_QP1);
}

static void smps(struct out *o)
{
	uint8_t mad[RW_MAD_LEN];
	struct rw_mad m;

	/* SubnGet(NodeInfo), directed route, two hops out, at the first. */
	memset(&m, 0, sizeof(m));
	m.hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = RW_MGMT_SUBN_DR,
				     .class_version = 1, .method = RW_METHOD_GET, .tid = 0x100,
				     .attr_id = 0x0011, .class_specific = 0x0102 };
	m.u.smp = (struct rw_smp){ .m_key = 0, .d = 0, .hop_pointer = 1, .hop_count = 2,
				   .dr_slid = 0xffff, .dr_dlid = 0xffff };
	m.u.smp.initial_path[1] = 1;
	m.u.smp.initial_path[2] = 3;
	check(rw_mad_encode(&m, mad, sizeof(mad), NULL), "SMP DR");
	expect_hdr(o, mad);
	expect(o, "infiniband.smpdirected.hoppointer", 1);
	expect(o, "infiniband.smpdirected.hopcount", 2);
	expect(o, "infiniband.smpdirected.drslid", 0xffff);
	expect(o, "infiniband.smpdirected.drdlid", 0xffff);
	emit(o, mad, RW_QP0);

	/* SubnGet(PortInfo) of port 1, LID routed. */
	memset(&m, 0, sizeof(m));
	m.hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = RW_MGMT_SUBN_LID,
				     .class_version = 1, .method = RW_METHOD_GET, .tid = 0x101,
				     .attr_id = 0x0015, .attr_mod = 1 };
	m.u.smp.m_key = UINT64_C(0x1122334455667788);
	check(rw_mad_encode(&m, mad, sizeof(mad), NULL), "SMP LID");
	expect_hdr(o, mad);
	expect(o, "infiniband.smplid.mkey", m.u.smp.m_key);
	expect(o, "infiniband.mad.attributemodifier", 1);
	emit(o, mad, RW_QP0);
}

static void sa_perf(struct out *o)
{
	uint8_t mad[RW_MAD_LEN];
	struct rw_mad m;

	/* SubnAdmGet(PathRecord) from LID 1 to LID 2. */
	memset(&m, 0, sizeof(m));
	m.hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = RW_MGMT_SA, .class_version = 2,
				     .method = RW_METHOD_GET, .tid = 0x200,
				     .attr_id = RW_ATTR_PATH_RECORD };
	m.u.sa.rmpp_version = 1;
	m.u.sa.comp_mask = 0x3c; /* DGID, SGID, DLID, SLID (IBA 15.2.5.16) */
	m.attr_kind = RW_MAD_ATTR_PATH_RECORD;
	m.attr.pr = (struct rw_path_record){ .dlid = 2, .slid = 1, .pkey = 0xffff, .sl = 3,
					     .mtu_selector = 2, .mtu = 4, .numb_path = 1 };
	gid(m.attr.pr.dgid, 2);
	gid(m.attr.pr.sgid, 1);
	check(rw_mad_encode(&m, mad, sizeof(mad), NULL), "SA");
	expect_hdr(o, mad);
	expect(o, "infiniband.sa.componentmask", m.u.sa.comp_mask);
	expect(o, "infiniband.pathrecord.dlid", 2);
	expect(o, "infiniband.pathrecord.slid", 1);
	expect(o, "infiniband.pathrecord.p_key", 0xffff);
	expect(o, "infiniband.pathrecord.sl", 3);
	expect(o, "infiniband.pathrecord.mtu", 4);
	expect_gid(o, "infiniband.pathrecord.dgid", m.attr.pr.dgid);
	expect_gid(o, "infiniband.pathrecord.sgid", m.attr.pr.sgid);
	emit(o, mad, RW_QP1);

	/* PerfGetResp(PortCounters) of port 1. */
	memset(&m, 0, sizeof(m));
	m.hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = RW_MGMT_PERF,
				     .class_version = 1, .method = RW_METHOD_GET_RESP, .tid = 0x300,
				     .attr_id = RW_ATTR_PORT_COUNTERS };
	m.attr_kind = RW_MAD_ATTR_PORT_COUNTERS;
	m.attr.pc = (struct rw_port_counters){ .port_select = 1, .counter_select = 0xffff,
					       .symbol_error_counter = 3, .port_xmit_discards = 9,
					       .port_xmit_data = 123456, .port_rcv_data = 654321,
					       .port_xmit_pkts = 1000, .port_rcv_pkts = 2000 };
	check(rw_mad_encode(&m, mad, sizeof(mad), NULL), "PerfMgt");
	expect_hdr(o, mad);
	expect(o, "infiniband.portcounters.portselect", 1);
	expect(o, "infiniband.portcounters.symbolerrorcounter", 3);
	expect(o, "infiniband.portcounters.portxmitdiscards", 9);
	expect(o, "infiniband.portcounters.portxmitdata", 123456);
	expect(o, "infiniband.portcounters.portxmitpkts", 1000);
	emit(o, mad, RW_QP1);
}

/* The attribute payload the next expectations are about, seen through our
 * field table (fields.h: what -v and --json print). */
static struct rw_hview cur;

/* tshark's field theirs and our table's field ours both show v. */
static void expect_f(struct out *o, const char *theirs, const char *ours, unsigned long long v)
{
	int k = rw_field_index((enum rw_hd)cur.hd, ours);
	uint64_t x;
	if (k < 0)
		die(ours, "not in our field table");
	if (!rw_field_value(&cur.d->f[k], &cur, 0, &x) || x != v)
		die(ours, "our field table reads another value than was put in");
	expect(o, theirs, v);
}

static void expect_gid_f(struct out *o, const char *theirs, const char *ours, const uint8_t g[16])
{
	int k = rw_field_index((enum rw_hd)cur.hd, ours);
	size_t n;
	if (k < 0)
		die(ours, "not in our field table");
	if (memcmp(rw_field_bytes(&cur.d->f[k], &cur, &n), g, 16) != 0 || n != 16)
		die(ours, "our field table reads another GID than was put in");
	expect_gid(o, theirs, g);
}

/* A bytes field as tshark -T fields shows it: hex without separators
 * (ours must hold the same n bytes). */
static void expect_bytes_f(struct out *o, const char *theirs, const char *ours, const uint8_t *b,
			   size_t n)
{
	int k = rw_field_index((enum rw_hd)cur.hd, ours);
	size_t have;
	if (k < 0 || memcmp(rw_field_bytes(&cur.d->f[k], &cur, &have), b, n) != 0 || have != n)
		die(ours, "our field table reads other bytes than were put in");
	printf("%s %u %s ", o->name, o->frames + 1, theirs);
	for (size_t i = 0; i < n; i++)
		printf("%02x", b[i]);
	printf("\n");
}

/* Encodes m into mad; its decode must give back the same bytes, so every
 * field put in is one rw_mad_decode reads. The next expectations read the
 * payload's field table over mad. */
static void encode_attr(const struct rw_mad *m, uint8_t mad[RW_MAD_LEN], const char *what)
{
	struct rw_mad d;
	uint8_t back[RW_MAD_LEN];
	check(rw_mad_encode(m, mad, RW_MAD_LEN, NULL), what);
	check(rw_mad_decode(mad, RW_MAD_LEN, &d), what);
	if (d.attr_kind != m->attr_kind)
		die(what, "decodes to another attribute");
	check(rw_mad_encode(&d, back, sizeof(back), NULL), what);
	if (memcmp(back, mad, RW_MAD_LEN) != 0)
		die(what, "does not decode and encode back to its bytes");
	int hd = rw_mad_attr_hd(m->hdr.mgmt_class, m->hdr.attr_id);
	if (hd < 0)
		die(what, "has no field table");
	cur = (struct rw_hview){ .d = rw_header_desc((enum rw_hd)hd),
				 .b = mad + rw_mad_data_offset(m->hdr.mgmt_class), .hd = (uint8_t)hd };
}

static void smp_hdr(struct rw_mad *m, uint8_t cls, uint16_t attr, uint64_t tid)
{
	memset(m, 0, sizeof(*m));
	m->hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = cls, .class_version = 1,
				      .method = RW_METHOD_GET_RESP, .tid = tid, .attr_id = attr };
	if (cls == RW_MGMT_SUBN_DR) {
		/* A response on its way back (D set), one hop. */
		m->hdr.status = 0x8000;
		m->hdr.class_specific = 0x0101;
		m->u.smp = (struct rw_smp){ .d = 1, .hop_pointer = 1, .hop_count = 1,
					    .dr_slid = 0xffff, .dr_dlid = 0xffff };
		m->u.smp.initial_path[1] = 1;
		m->u.smp.return_path[1] = 1;
	}
}

static const struct rw_node_info node_info = {
	.base_version = 1, .class_version = 1, .node_type = 2, .num_ports = 36,
	.system_image_guid = UINT64_C(0x0002c90300001234), .node_guid = UINT64_C(0x0002c90300001235),
	.port_guid = UINT64_C(0x0002c90300001236), .partition_cap = 128, .device_id = 0xc738,
	.revision = 0xa0, .local_port_num = 7, .vendor_id = 0x0002c9,
};

static void expect_node_info(struct out *o, const struct rw_node_info *n)
{
	expect_f(o, "infiniband.nodeinfo.nodetype", "node_type", n->node_type);
	expect_f(o, "infiniband.nodeinfo.numports", "num_ports", n->num_ports);
	expect_f(o, "infiniband.nodeinfo.systemimageguid", "system_image_guid",
		 n->system_image_guid);
	expect_f(o, "infiniband.nodeinfo.nodeguid", "node_guid", n->node_guid);
	expect_f(o, "infiniband.nodeinfo.portguid", "port_guid", n->port_guid);
	expect_f(o, "infiniband.nodeinfo.partitioncap", "partition_cap", n->partition_cap);
	expect_f(o, "infiniband.nodeinfo.deviceid", "device_id", n->device_id);
	expect_f(o, "infiniband.nodeinfo.revision", "revision", n->revision);
	expect_f(o, "infiniband.nodeinfo.localportnum", "local_port_num", n->local_port_num);
	expect_f(o, "infiniband.nodeinfo.vendorid", "vendor_id", n->vendor_id);
}

/* SubnGetResp of each SMP attribute decoded (IBA 14.2.5), over IB only:
 * SMPs go to QP 0, which RoCE has none of. */
static void smp_attrs(struct out *o)
{
	uint8_t mad[RW_MAD_LEN];
	struct rw_mad m;

	smp_hdr(&m, RW_MGMT_SUBN_DR, RW_ATTR_NODE_INFO, 0x110);
	m.attr_kind = RW_MAD_ATTR_NODE_INFO;
	m.attr.ni = node_info;
	encode_attr(&m, mad, "NodeInfo");
	expect_hdr(o, mad);
	expect_f(o, "infiniband.nodeinfo.baseversion", "base_version", 1);
	expect_f(o, "infiniband.nodeinfo.classversion", "class_version", 1);
	expect_node_info(o, &node_info);
	emit(o, mad, RW_QP0);

	smp_hdr(&m, RW_MGMT_SUBN_LID, RW_ATTR_SWITCH_INFO, 0x111);
	m.attr_kind = RW_MAD_ATTR_SWITCH_INFO;
	m.attr.swi = (struct rw_switch_info){
		.linear_fdb_cap = 0xc000, .random_fdb_cap = 0, .multicast_fdb_cap = 0x400,
		.linear_fdb_top = 0xff, .default_port = 1, .default_multicast_primary_port = 2,
		.default_multicast_not_primary_port = 3, .life_time_value = 21,
		.port_state_change = 1, .optimized_sl_to_vl_mapping_programming = 2,
		.lids_per_port = 1, .partition_enforcement_cap = 32, .inbound_enforcement_cap = 1,
		.filter_raw_inbound_cap = 1, .enhanced_port_zero = 1, .multicast_fdb_top = 0xc01f,
	};
	encode_attr(&m, mad, "SwitchInfo");
	expect_hdr(o, mad);
	expect_f(o, "infiniband.switchinfo.linearfdbcap", "linear_fdb_cap",
		 m.attr.swi.linear_fdb_cap);
	expect_f(o, "infiniband.switchinfo.multicastfdbcap", "multicast_fdb_cap",
		 m.attr.swi.multicast_fdb_cap);
	expect_f(o, "infiniband.switchinfo.linearfdbtop", "linear_fdb_top",
		 m.attr.swi.linear_fdb_top);
	expect_f(o, "infiniband.switchinfo.defaultport", "default_port", 1);
	expect_f(o, "infiniband.switchinfo.defaultmulticastprimaryport",
		 "default_multicast_primary_port", 2);
	expect_f(o, "infiniband.switchinfo.defaultmulticastnotprimaryport",
		 "default_multicast_not_primary_port", 3);
	/* Not MulticastFDBTop (bytes 18-19, IBA 1.2.1): Wireshark 4.0 stops at
	 * EnhancedPort0. */
	expect_f(o, "infiniband.switchinfo.lifetimevalue", "life_time_value", 21);
	expect_f(o, "infiniband.switchinfo.portstatechange", "port_state_change", 1);
	expect_f(o, "infiniband.switchinfo.optimizedsltovlmappingprogramming",
		 "optimized_sl_to_vl_mapping_programming", 2);
	expect_f(o, "infiniband.switchinfo.lidsperport", "lids_per_port", 1);
	expect_f(o, "infiniband.switchinfo.partitionenforcementcap", "partition_enforcement_cap",
		 32);
	expect_f(o, "infiniband.switchinfo.inboundenforcementcap", "inbound_enforcement_cap", 1);
	expect_f(o, "infiniband.switchinfo.outboundenforcementcap", "outbound_enforcement_cap", 0);
	expect_f(o, "infiniband.switchinfo.filterrawinboundcap", "filter_raw_inbound_cap", 1);
	expect_f(o, "infiniband.switchinfo.enhancedportzero", "enhanced_port_zero", 1);
	emit(o, mad, RW_QP0);

	smp_hdr(&m, RW_MGMT_SUBN_LID, RW_ATTR_GUID_INFO, 0x112);
	m.attr_kind = RW_MAD_ATTR_GUID_INFO;
	for (unsigned i = 0; i < 8; i++)
		m.attr.gi.guid[i] = UINT64_C(0x0002c90300000100) + i;
	encode_attr(&m, mad, "GUIDInfo");
	expect_hdr(o, mad);
	/* Wireshark names GUIDInfo's GUID "switchinfo.guid"; the first. */
	expect_f(o, "infiniband.switchinfo.guid", "guid_0", m.attr.gi.guid[0]);
	emit(o, mad, RW_QP0);

	smp_hdr(&m, RW_MGMT_SUBN_LID, RW_ATTR_PORT_INFO, 0x113);
	m.hdr.attr_mod = 1;
	m.attr_kind = RW_MAD_ATTR_PORT_INFO;
	m.attr.pi = (struct rw_port_info){
		.m_key = UINT64_C(0x1122334455667788), .gid_prefix = UINT64_C(0xfe80000000000000),
		.lid = 5, .master_sm_lid = 1, .capability_mask = 0x0251086a, .diag_code = 0,
		.m_key_lease_period = 15, .local_port_num = 1, .link_width_enabled = 3,
		.link_width_supported = 3, .link_width_active = 2, .link_speed_supported = 7,
		.port_state = 4, .port_phys_state = 5, .link_down_default_state = 2,
		.m_key_protect_bits = 1, .lmc = 2, .link_speed_active = 4, .link_speed_enabled = 7,
		.neighbor_mtu = 5, .master_sm_sl = 1, .vl_cap = 3, .init_type = 2,
		.vl_high_limit = 4, .vl_arbitration_high_cap = 8, .vl_arbitration_low_cap = 16,
		.init_type_reply = 1, .mtu_cap = 5, .vl_stall_count = 7, .hoq_life = 18,
		.operational_vls = 3, .partition_enforcement_inbound = 1, .filter_raw_inbound = 1,
		.m_key_violations = 1, .pkey_violations = 2, .qkey_violations = 3, .guid_cap = 32,
		.client_reregister = 1, .subnet_timeout = 18, .resp_time_value = 16,
		.local_phy_errors = 8, .overrun_errors = 15, .max_credit_hint = 256,
		.link_round_trip_latency = 0x012345,
	};
	encode_attr(&m, mad, "PortInfo");
	expect_hdr(o, mad);
	expect_f(o, "infiniband.portinfo.m_key", "m_key", m.attr.pi.m_key);
	expect_f(o, "infiniband.portinfo.guid", "gid_prefix",
		 m.attr.pi.gid_prefix); /* Wireshark's GidPrefix */
	expect_f(o, "infiniband.portinfo.lid", "lid", m.attr.pi.lid);
	expect_f(o, "infiniband.portinfo.mastersmlid", "master_sm_lid", m.attr.pi.master_sm_lid);
	expect_f(o, "infiniband.portinfo.capabilitymask", "capability_mask",
		 m.attr.pi.capability_mask);
	expect_f(o, "infiniband.portinfo.m_keyleaseperiod", "m_key_lease_period",
		 m.attr.pi.m_key_lease_period);
	expect_f(o, "infiniband.portinfo.localportnum", "local_port_num", m.attr.pi.local_port_num);
	expect_f(o, "infiniband.portinfo.linkwidthenabled", "link_width_enabled",
		 m.attr.pi.link_width_enabled);
	expect_f(o, "infiniband.portinfo.linkwidthsupported", "link_width_supported",
		 m.attr.pi.link_width_supported);
	expect_f(o, "infiniband.portinfo.linkwidthactive", "link_width_active",
		 m.attr.pi.link_width_active);
	expect_f(o, "infiniband.portinfo.linkspeedsupported", "link_speed_supported",
		 m.attr.pi.link_speed_supported);
	expect_f(o, "infiniband.portinfo.portstate", "port_state", m.attr.pi.port_state);
	expect_f(o, "infiniband.portinfo.portphysicalstate", "port_phys_state",
		 m.attr.pi.port_phys_state);
	expect_f(o, "infiniband.portinfo.linkdowndefaultstate", "link_down_default_state",
		 m.attr.pi.link_down_default_state);
	expect_f(o, "infiniband.portinfo.m_keyprotectbits", "m_key_protect_bits",
		 m.attr.pi.m_key_protect_bits);
	expect_f(o, "infiniband.portinfo.lmc", "lmc", m.attr.pi.lmc);
	expect_f(o, "infiniband.portinfo.linkspeedactive", "link_speed_active",
		 m.attr.pi.link_speed_active);
	expect_f(o, "infiniband.portinfo.linkspeedenabled", "link_speed_enabled",
		 m.attr.pi.link_speed_enabled);
	expect_f(o, "infiniband.portinfo.neighbormtu", "neighbor_mtu", m.attr.pi.neighbor_mtu);
	expect_f(o, "infiniband.portinfo.mastersmsl", "master_sm_sl", m.attr.pi.master_sm_sl);
	expect_f(o, "infiniband.portinfo.vlcap", "vl_cap", m.attr.pi.vl_cap);
	expect_f(o, "infiniband.portinfo.vlhighlimit", "vl_high_limit", m.attr.pi.vl_high_limit);
	expect_f(o, "infiniband.portinfo.mtucap", "mtu_cap", m.attr.pi.mtu_cap);
	expect_f(o, "infiniband.portinfo.vlstallcount", "vl_stall_count", m.attr.pi.vl_stall_count);
	expect_f(o, "infiniband.portinfo.hoqlife", "hoq_life", m.attr.pi.hoq_life);
	expect_f(o, "infiniband.portinfo.operationalvls", "operational_vls",
		 m.attr.pi.operational_vls);
	expect_f(o, "infiniband.portinfo.partitionenforcementinbound", "partition_enforcement_inbound",
		 1);
	expect_f(o, "infiniband.portinfo.filterrawinbound", "filter_raw_inbound", 1);
	expect_f(o, "infiniband.portinfo.m_keyviolations", "m_key_violations",
		 m.attr.pi.m_key_violations);
	expect_f(o, "infiniband.portinfo.p_keyviolations", "pkey_violations",
		 m.attr.pi.pkey_violations);
	expect_f(o, "infiniband.portinfo.q_keyviolations", "qkey_violations",
		 m.attr.pi.qkey_violations);
	expect_f(o, "infiniband.portinfo.guidcap", "guid_cap", m.attr.pi.guid_cap);
	expect_f(o, "infiniband.portinfo.clientreregister", "client_reregister",
		 m.attr.pi.client_reregister);
	expect_f(o, "infiniband.portinfo.subnettimeout", "subnet_timeout",
		 m.attr.pi.subnet_timeout);
	expect_f(o, "infiniband.portinfo.resptimevalue", "resp_time_value",
		 m.attr.pi.resp_time_value);
	expect_f(o, "infiniband.portinfo.localphyerrors", "local_phy_errors",
		 m.attr.pi.local_phy_errors);
	expect_f(o, "infiniband.portinfo.overrunerrors", "overrun_errors",
		 m.attr.pi.overrun_errors);
	expect_f(o, "infiniband.portinfo.maxcredithint", "max_credit_hint",
		 m.attr.pi.max_credit_hint);
	expect_f(o, "infiniband.portinfo.linkroundtriplatency", "link_round_trip_latency",
		 m.attr.pi.link_round_trip_latency);
	/* Not DiagCode's value names, MulticastPKeyTrapSuppressionEnabled,
	 * CapabilityMask2 or the LinkSpeedExt fields (IBA 1.2.1, 1.3): Wireshark
	 * 4.0 has no fields for them; test_mad.c checks them against the spec. */
	emit(o, mad, RW_QP0);

	smp_hdr(&m, RW_MGMT_SUBN_DR, RW_ATTR_PKEY_TABLE, 0x114);
	m.attr_kind = RW_MAD_ATTR_PKEY_TABLE;
	m.attr.pkt.pkey[0] = 0xffff;
	m.attr.pkt.pkey[1] = 0x8001;
	encode_attr(&m, mad, "P_KeyTable");
	expect_hdr(o, mad);
	/* Wireshark splits a P_Key into membership (bit 15) and base. */
	expect(o, "infiniband.p_keytable.membershiptype", 1);
	expect(o, "infiniband.p_keytable.p_keybase", 0x7fff);
	emit(o, mad, RW_QP0);

	smp_hdr(&m, RW_MGMT_SUBN_LID, RW_ATTR_SM_INFO, 0x115);
	m.attr_kind = RW_MAD_ATTR_SM_INFO;
	m.attr.smi = (struct rw_sm_info){ .guid = UINT64_C(0x0002c90300000042), .sm_key = 0xaa,
					  .act_count = 0x1234, .priority = 14, .sm_state = 3 };
	encode_attr(&m, mad, "SMInfo");
	expect_hdr(o, mad);
	expect_f(o, "infiniband.sminfo.guid", "guid", m.attr.smi.guid);
	expect_f(o, "infiniband.sminfo.sm_key", "sm_key", m.attr.smi.sm_key);
	expect_f(o, "infiniband.sminfo.actcount", "act_count", m.attr.smi.act_count);
	expect_f(o, "infiniband.sminfo.priority", "priority", m.attr.smi.priority);
	expect_f(o, "infiniband.sminfo.smstate", "sm_state", m.attr.smi.sm_state);
	emit(o, mad, RW_QP0);
}

static void sa_hdr(struct rw_mad *m, uint8_t method, uint16_t attr, uint64_t tid, uint64_t comp)
{
	memset(m, 0, sizeof(*m));
	m->hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = RW_MGMT_SA, .class_version = 2,
				      .method = method, .tid = tid, .attr_id = attr };
	m->u.sa.rmpp_version = 1;
	m->u.sa.comp_mask = comp;
}

/* The SA records decoded (IBA 15.2.5) and PerfMgt PortCountersExtended. */
static void sa_perf_attrs(struct out *o)
{
	uint8_t mad[RW_MAD_LEN];
	struct rw_mad m;

	/* SubnAdmGetResp(NodeRecord) of LID 5 */
	sa_hdr(&m, RW_METHOD_GET_RESP, RW_ATTR_NODE_RECORD, 0x211, 0x1);
	m.attr_kind = RW_MAD_ATTR_NODE_RECORD;
	m.attr.nr.lid = 5;
	m.attr.nr.node_info = node_info;
	memcpy(m.attr.nr.node_description, "rocewire-sw1", 12);
	encode_attr(&m, mad, "NodeRecord");
	expect_hdr(o, mad);
	expect_f(o, "infiniband.sa.lid", "lid", m.attr.nr.lid);
	expect_node_info(o, &node_info);
	/* Wireshark shows NodeDescription as a string; ours is its bytes. */
	if (memcmp(rw_field_bytes(&cur.d->f[rw_field_index((enum rw_hd)cur.hd, "node_description")],
				  &cur, NULL), "rocewire-sw1", 13) != 0)
		die("node_description", "our field table reads another description");
	printf("%s %u infiniband.nodedescription.nodestring rocewire-sw1\n", o->name, o->frames + 1);
	emit(o, mad, RW_QP1);

	/* SubnAdmGetResp(ServiceRecord) */
	sa_hdr(&m, RW_METHOD_GET_RESP, RW_ATTR_SERVICE_RECORD, 0x231, 0x1);
	m.attr_kind = RW_MAD_ATTR_SERVICE_RECORD;
	m.attr.sr = (struct rw_service_record){ .service_id = UINT64_C(0x1000000000000001),
						.service_pkey = 0xffff, .service_lease = 60 };
	gid(m.attr.sr.service_gid, 7);
	memcpy(m.attr.sr.service_name, "rdma", 4);
	for (unsigned i = 0; i < 16; i++)
		m.attr.sr.service_key[i] = (uint8_t)(0x11 * i);
	encode_attr(&m, mad, "ServiceRecord");
	expect_hdr(o, mad);
	/* Wireshark's ServiceRecord fields are under "linkrecord". */
	expect_f(o, "infiniband.linkrecord.serviceid", "service_id", m.attr.sr.service_id);
	expect_gid_f(o, "infiniband.linkrecord.servicegid", "service_gid", m.attr.sr.service_gid);
	expect_f(o, "infiniband.linkrecord.servicep_key", "service_pkey", m.attr.sr.service_pkey);
	expect_f(o, "infiniband.linkrecord.servicelease", "service_lease", m.attr.sr.service_lease);
	expect_bytes_f(o, "infiniband.linkrecord.servicekey", "service_key", m.attr.sr.service_key, 16);
	expect_bytes_f(o, "infiniband.linkrecord.servicename", "service_name", m.attr.sr.service_name,
		       64);
	emit(o, mad, RW_QP1);

	/* SubnAdmSet(MCMemberRecord): a full-member join of the IPv4
	 * broadcast group (IBA 15.2.5.17, the IPoIB MGID). */
	sa_hdr(&m, RW_METHOD_SET, RW_ATTR_MC_MEMBER_RECORD, 0x238, 0x10083);
	m.attr_kind = RW_MAD_ATTR_MC_MEMBER_RECORD;
	m.attr.mcm = (struct rw_mc_member_record){
		.qkey = 0x0b1b, .mlid = 0xc001, .mtu_selector = 2, .mtu = 4, .tclass = 0,
		.pkey = 0xffff, .rate_selector = 2, .rate = 3, .packet_life_time_selector = 2,
		.packet_life_time = 0x12, .sl = 3, .flow_label = 0xabcde, .hop_limit = 64,
		.scope = 2, .join_state = 1, .proxy_join = 0,
	};
	static const uint8_t mgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, [15] = 0xff };
	memcpy(m.attr.mcm.mgid, mgid, 16);
	gid(m.attr.mcm.port_gid, 1);
	encode_attr(&m, mad, "MCMemberRecord");
	expect_hdr(o, mad);
	expect_gid_f(o, "infiniband.mcmemberrecord.mgid", "mgid", m.attr.mcm.mgid);
	expect_gid_f(o, "infiniband.mcmemberrecord.portgid", "port_gid", m.attr.mcm.port_gid);
	expect_f(o, "infiniband.mcmemberrecord.q_key", "qkey", m.attr.mcm.qkey);
	expect_f(o, "infiniband.mcmemberrecord.mlid", "mlid", m.attr.mcm.mlid);
	expect_f(o, "infiniband.mcmemberrecord.mtuselector", "mtu_selector",
		 m.attr.mcm.mtu_selector);
	expect_f(o, "infiniband.mcmemberrecord.mtu", "mtu", m.attr.mcm.mtu);
	expect_f(o, "infiniband.mcmemberrecord.p_key", "pkey", m.attr.mcm.pkey);
	expect_f(o, "infiniband.mcmemberrecord.rateselector", "rate_selector",
		 m.attr.mcm.rate_selector);
	expect_f(o, "infiniband.mcmemberrecord.rate", "rate", m.attr.mcm.rate);
	expect_f(o, "infiniband.mcmemberrecord.packetlifetimeselector", "packet_life_time_selector",
		 2);
	expect_f(o, "infiniband.mcmemberrecord.packetlifetime", "packet_life_time",
		 m.attr.mcm.packet_life_time);
	expect_f(o, "infiniband.mcmemberrecord.sl", "sl", m.attr.mcm.sl);
	expect_f(o, "infiniband.mcmemberrecord.flowlabel", "flow_label", m.attr.mcm.flow_label);
	expect_f(o, "infiniband.mcmemberrecord.hoplimit", "hop_limit", m.attr.mcm.hop_limit);
	expect_f(o, "infiniband.mcmemberrecord.scope", "scope", m.attr.mcm.scope);
	expect_f(o, "infiniband.mcmemberrecord.joinstate", "join_state", m.attr.mcm.join_state);
	emit(o, mad, RW_QP1);

	/* PerfGetResp(PortCountersExtended) of port 1 */
	memset(&m, 0, sizeof(m));
	m.hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = RW_MGMT_PERF,
				     .class_version = 1, .method = RW_METHOD_GET_RESP, .tid = 0x31d,
				     .attr_id = RW_ATTR_PORT_COUNTERS_EXT };
	m.attr_kind = RW_MAD_ATTR_PORT_COUNTERS_EXT;
	m.attr.pce = (struct rw_port_counters_ext){
		.port_select = 1, .counter_select = 0xff,
		.port_xmit_data = UINT64_C(0x123456789a), .port_rcv_data = UINT64_C(0x23456789ab),
		.port_xmit_pkts = 1000000, .port_rcv_pkts = 2000000, .port_unicast_xmit_pkts = 999000,
		.port_unicast_rcv_pkts = 1999000, .port_multicast_xmit_pkts = 1000,
		.port_multicast_rcv_pkts = 1000,
	};
	encode_attr(&m, mad, "PortCountersExtended");
	expect_hdr(o, mad);
	expect_f(o, "infiniband.portcounters_ext.portselect", "port_select",
		 m.attr.pce.port_select);
	expect_f(o, "infiniband.portcounters_ext.counterselect", "counter_select",
		 m.attr.pce.counter_select);
	expect_f(o, "infiniband.portcounters_ext.portxmitdata", "port_xmit_data",
		 m.attr.pce.port_xmit_data);
	expect_f(o, "infiniband.portcounters_ext.portrcvdata", "port_rcv_data",
		 m.attr.pce.port_rcv_data);
	expect_f(o, "infiniband.portcounters_ext.portxmitpkts", "port_xmit_pkts",
		 m.attr.pce.port_xmit_pkts);
	expect_f(o, "infiniband.portcounters_ext.portrcvpkts", "port_rcv_pkts",
		 m.attr.pce.port_rcv_pkts);
	expect_f(o, "infiniband.portcounters_ext.portunicastxmitpkts", "port_unicast_xmit_pkts",
		 m.attr.pce.port_unicast_xmit_pkts);
	expect_f(o, "infiniband.portcounters_ext.portunicastrcvpkts", "port_unicast_rcv_pkts",
		 m.attr.pce.port_unicast_rcv_pkts);
	expect_f(o, "infiniband.portcounters_ext.portmulticastxmitpkts", "port_multicast_xmit_pkts",
	       m.attr.pce.port_multicast_xmit_pkts);
	expect_f(o, "infiniband.portcounters_ext.portmulticastrcvpkts", "port_multicast_rcv_pkts",
	       m.attr.pce.port_multicast_rcv_pkts);
	emit(o, mad, RW_QP1);
}

static void open_out(struct out *o, const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.pcap", dir, o->name);
	o->dead = pcap_open_dead(o->linktype, 65535);
	if (!o->dead)
		die(path, "cannot create a pcap handle");
	o->d = pcap_dump_open(o->dead, path);
	if (!o->d)
		die(path, pcap_geterr(o->dead));
}

static void close_out(struct out *o)
{
	pcap_dump_close(o->d);
	pcap_close(o->dead);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", prog);
		return 2;
	}
	struct out roce = { .name = "roce", .linktype = RW_LINKTYPE_ETHERNET };
	struct out ib = { .name = "ib", .linktype = RW_LINKTYPE_ERF };
	open_out(&roce, argv[1]);
	open_out(&ib, argv[1]);
	cm_handshake(&roce, 0x1000);
	sa_perf(&roce);
	sa_perf_attrs(&roce);
	smps(&ib);
	smp_attrs(&ib);
	cm_handshake(&ib, 0x2000);
	sa_perf(&ib);
	sa_perf_attrs(&ib);
	close_out(&roce);
	close_out(&ib);
	return 0;
}
