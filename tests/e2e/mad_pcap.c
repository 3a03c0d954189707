/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-madcap DIR: management datagrams made by proto's MAD encoders
 * (mad.h) and frame builder, for test_mad_tshark.sh to read back through
 * Wireshark's own dissector.
 *
 * Writes DIR/roce.pcap (Ethernet, IPv4, UDP 4791) and DIR/ib.pcap (native
 * IB: LRH, BTH, DETH, in ERF records; each is also built bare, LINKTYPE 247,
 * and decoded back by rw_packet_decode and rw_mad_decode) with a CM handshake (REQ, MRA, REP, RTU,
 * DREQ, DREP, REJ), SMPs (directed route and LID routed, to QP 0 on VL 15),
 * an SA PathRecord query and a PerfMgt PortCounters response, each a UD
 * SEND Only with a valid ICRC. On stdout, one line per value that tshark
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
	smps(&ib);
	cm_handshake(&ib, 0x2000);
	sa_perf(&ib);
	close_out(&roce);
	close_out(&ib);
	return 0;
}
