/* SPDX-License-Identifier: BSD-3-Clause */
/* mad.h: management datagrams. The vectors place every byte at the offset
 * the IBA gives, written here from the spec:
 *   common header (13.4.3): 0 BaseVersion, 1 MgmtClass, 2 ClassVersion,
 *     3 R|Method, 4-5 Status, 6-7 ClassSpecific, 8-15 TID, 16-17 AttributeID,
 *     18-19 reserved, 20-23 AttributeModifier
 *   CM messages (12.6): from MAD byte 24 (REQ: LocalCommID 0,
 *     ServiceID 8, LocalCAGUID 16, LocalQ_Key 28, LocalQPN 32 + RespRes 35,
 *     LocalEECN 36 + InitDepth 39, RemoteEECN 40 + RemCMRespTO(5) TST(2)
 *     E2E(1) 43, StartPSN 44 + LocCMRespTO(5) RetryCount(3) 47, P_Key 48,
 *     MTU(4) RDC(1) RNRRetry(3) 50, MaxCMRetries(4) SRQ(1) ExtTST(3) 51,
 *     primary path 52-95, alternate 96-139, private data 140)
 *   SMP (14.2.1): M_Key 24, DrSLID 32, DrDLID 34, data 64, paths 128, 192
 *   SA (13.6.2, 15.2.1): RMPP 24-35, SM_Key 36, AttributeOffset 44,
 *     ComponentMask 48, data 56; PerfMgt (16.1.1): data 64 */
#include "rw_test_util.h"

/* Writes the hex bytes at MAD offset off. */
static void at(uint8_t *mad, size_t off, const char *hex)
{
	rw_hex(hex, mad + off, RW_MAD_LEN - off);
}

static void mad_hdr(uint8_t *mad, const char *hex)
{
	memset(mad, 0, RW_MAD_LEN);
	at(mad, 0, hex);
}

/* ---- common header and CM REQ ------------------------------------------- */

static void req_vector(uint8_t *m)
{
	/* version 1, CM, class version 2, Send, TID, ConnectRequest */
	mad_hdr(m, "01 07 02 03 0000 0000 0123456789abcdef 0010 0000 00000000");
	at(m, 24 + 0, "11223344");
	at(m, 24 + 8, "0106000000001234");
	at(m, 24 + 16, "0002c90300a1b2c3");
	at(m, 24 + 28, "12345678");
	at(m, 24 + 32, "abcdef 04");
	at(m, 24 + 36, "000000 08");
	at(m, 24 + 40, "000000 b9");   /* 10111 00 1: timeout 23, RC, E2E */
	at(m, 24 + 44, "654321 b7");   /* 10110 111: timeout 22, retry 7 */
	at(m, 24 + 48, "ffff 56 f8");  /* MTU 5, RDC 0, RNR 6; retries 15, SRQ 1, ext 0 */
	at(m, 24 + 52, "0001 0002");
	at(m, 24 + 56, "fe800000000000000000000000000001");
	at(m, 24 + 72, "fe800000000000000000000000000002");
	at(m, 24 + 88, "12345003");    /* flow label 0x12345, resv 4, resv 2, rate 3 */
	at(m, 24 + 92, "20 40 38 90"); /* TC, hop limit, SL 3 + subnet local, ack TO 18 */
	at(m, 24 + 96, "0003 0004");
	at(m, 24 + 136, "00 ff 10 74"); /* alt TC 0, hop 255, SL 1; ack TO 14 + SAP */
	at(m, 24 + 140, "deadbeef");
}

static void test_req_decode(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	req_vector(m);
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.hdr.base_version, 1);
	assert_int_equal(d.hdr.mgmt_class, RW_MGMT_CM);
	assert_int_equal(d.hdr.class_version, 2);
	assert_int_equal(d.hdr.method, RW_METHOD_SEND);
	assert_false(rw_mad_is_response(d.hdr.method));
	assert_true(d.hdr.tid == UINT64_C(0x0123456789abcdef));
	assert_int_equal(d.hdr.attr_id, RW_CM_REQ);
	assert_int_equal(d.u.cm.msg, RW_CM_REQ);
	const struct rw_cm_req *r = &d.u.cm.u.req;
	assert_int_equal(r->local_comm_id, 0x11223344);
	assert_true(r->service_id == UINT64_C(0x0106000000001234));
	assert_true(r->local_ca_guid == UINT64_C(0x0002c90300a1b2c3));
	assert_int_equal(r->local_qkey, 0x12345678);
	assert_int_equal(r->local_qpn, 0xabcdef);
	assert_int_equal(r->responder_resources, 4);
	assert_int_equal(r->initiator_depth, 8);
	assert_int_equal(r->remote_cm_response_timeout, 23);
	assert_int_equal(r->transport_service_type, 0);
	assert_int_equal(r->e2e_flow_control, 1);
	assert_int_equal(r->starting_psn, 0x654321);
	assert_int_equal(r->local_cm_response_timeout, 22);
	assert_int_equal(r->retry_count, 7);
	assert_int_equal(r->pkey, 0xffff);
	assert_int_equal(r->path_mtu, 5);
	assert_int_equal(r->rdc_exists, 0);
	assert_int_equal(r->rnr_retry_count, 6);
	assert_int_equal(r->max_cm_retries, 15);
	assert_int_equal(r->srq, 1);
	assert_int_equal(r->ext_transport_type, 0);
	assert_int_equal(r->primary.local_lid, 1);
	assert_int_equal(r->primary.remote_lid, 2);
	assert_int_equal(r->primary.local_gid[0], 0xfe);
	assert_int_equal(r->primary.local_gid[15], 1);
	assert_int_equal(r->primary.remote_gid[15], 2);
	assert_int_equal(r->primary.flow_label, 0x12345);
	assert_int_equal(r->primary.packet_rate, 3);
	assert_int_equal(r->primary.traffic_class, 0x20);
	assert_int_equal(r->primary.hop_limit, 0x40);
	assert_int_equal(r->primary.sl, 3);
	assert_int_equal(r->primary.subnet_local, 1);
	assert_int_equal(r->primary.local_ack_timeout, 18);
	assert_int_equal(r->alternate.local_lid, 3);
	assert_int_equal(r->alternate.remote_lid, 4);
	assert_int_equal(r->alternate.hop_limit, 255);
	assert_int_equal(r->alternate.sl, 1);
	assert_int_equal(r->alternate.local_ack_timeout, 14);
	assert_int_equal(r->sap_supported, 1);
	assert_int_equal(r->private_data[0], 0xde);
	assert_int_equal(r->private_data[3], 0xef);

	/* The encoder gives back the very bytes (nothing set is reserved). */
	uint8_t o[RW_MAD_LEN + 4];
	size_t w = 0;
	memset(o, 0x5a, sizeof(o));
	assert_int_equal(rw_cm_req_encode(r, d.hdr.tid, o, sizeof(o), &w), RW_OK);
	assert_int_equal(w, RW_MAD_LEN);
	assert_memory_equal(o, m, RW_MAD_LEN);
	assert_int_equal(o[RW_MAD_LEN], 0x5a);
	memset(o, 0, sizeof(o));
	assert_int_equal(rw_mad_encode(&d, o, sizeof(o), &w), RW_OK);
	assert_memory_equal(o, m, RW_MAD_LEN);
}

/* ---- the other CM messages, by hand -------------------------------------- */

static void test_cm_messages(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;

	/* REP (12.6.8) */
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000001 0013 0000 00000000");
	at(m, 24, "11223344 55667788 80010000 000102 00 000000 00 abcdef 00 10 20 a9 e0"
		  "0002c90300a1b2c4");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.msg, RW_CM_REP);
	assert_int_equal(d.u.cm.u.rep.local_comm_id, 0x11223344);
	assert_int_equal(d.u.cm.u.rep.remote_comm_id, 0x55667788);
	assert_int_equal(d.u.cm.u.rep.local_qkey, 0x80010000);
	assert_int_equal(d.u.cm.u.rep.local_qpn, 0x000102);
	assert_int_equal(d.u.cm.u.rep.starting_psn, 0xabcdef);
	assert_int_equal(d.u.cm.u.rep.responder_resources, 0x10);
	assert_int_equal(d.u.cm.u.rep.initiator_depth, 0x20);
	assert_int_equal(d.u.cm.u.rep.target_ack_delay, 21); /* a9: 10101 00 1 */
	assert_int_equal(d.u.cm.u.rep.failover_accepted, 0);
	assert_int_equal(d.u.cm.u.rep.e2e_flow_control, 1);
	assert_int_equal(d.u.cm.u.rep.rnr_retry_count, 7);   /* e0: 111 0 .... */
	assert_int_equal(d.u.cm.u.rep.srq, 0);
	assert_true(d.u.cm.u.rep.local_ca_guid == UINT64_C(0x0002c90300a1b2c4));

	/* MRA (12.6.6): message MRAed in the top 2 bits of byte 8, service
	 * timeout in the top 5 of byte 9. */
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000002 0011 0000 00000000");
	at(m, 24, "00000001 00000002 40 a0");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.u.mra.message_mraed, 1);
	assert_int_equal(d.u.cm.u.mra.service_timeout, 20);

	/* REJ (12.6.7): reason at byte 10. */
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000003 0012 0000 00000000");
	at(m, 24, "00000001 00000000 00 12 001c 0102");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.u.rej.message_rejected, 0);
	assert_int_equal(d.u.cm.u.rej.reject_info_length, 9);
	assert_int_equal(d.u.cm.u.rej.reason, 28);
	assert_string_equal(rw_cm_rej_reason_name(d.u.cm.u.rej.reason), "Consumer Reject");
	assert_int_equal(d.u.cm.u.rej.ari[1], 2);

	/* RTU, DREQ, DREP */
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000004 0014 0000 00000000");
	at(m, 24, "00000001 00000002");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.u.rtu.remote_comm_id, 2);
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000005 0015 0000 00000000");
	at(m, 24, "00000001 00000002 000abc 00");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.u.dreq.remote_qpn, 0xabc);
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000006 0016 0000 00000000");
	at(m, 24, "00000003 00000004");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.msg, RW_CM_DREP);
	assert_int_equal(d.u.cm.u.drep.local_comm_id, 3);

	/* SIDR_REQ (12.11.1), SIDR_REP (12.11.2): QPN at byte 8, Q_Key at 20. */
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000007 0017 0000 00000000");
	at(m, 24, "00000009 7fff 0000 0106000000004791");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.u.sidr_req.pkey, 0x7fff);
	assert_true(d.u.cm.u.sidr_req.service_id == UINT64_C(0x0106000000004791));
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000008 0018 0000 00000000");
	at(m, 24, "00000009 00 00 0000 000abd 00 0106000000004791 11111111");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.u.sidr_rep.qpn, 0xabd);
	assert_int_equal(d.u.cm.u.sidr_rep.qkey, 0x11111111);

	/* LAP (12.8.1): remote QPN at 12, alternate LIDs at 20, SL at 62. */
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000009 0019 0000 00000000");
	at(m, 24, "00000001 00000002 00000000 000abe a8 00000000 0005 0006");
	at(m, 24 + 56, "fffff0 07 08 09 58 60"); /* FL(20) resv(4) TC; hop; resv(2) rate; SL SubL; ack TO */
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.u.lap.remote_qpn, 0xabe);
	assert_int_equal(d.u.cm.u.lap.remote_cm_response_timeout, 21);
	assert_int_equal(d.u.cm.u.lap.alternate.local_lid, 5);
	assert_int_equal(d.u.cm.u.lap.alternate.remote_lid, 6);
	assert_int_equal(d.u.cm.u.lap.alternate.flow_label, 0xfffff);
	assert_int_equal(d.u.cm.u.lap.alternate.traffic_class, 7);
	assert_int_equal(d.u.cm.u.lap.alternate.hop_limit, 8);
	assert_int_equal(d.u.cm.u.lap.alternate.packet_rate, 9);
	assert_int_equal(d.u.cm.u.lap.alternate.sl, 5);
	assert_int_equal(d.u.cm.u.lap.alternate.subnet_local, 1);
	assert_int_equal(d.u.cm.u.lap.alternate.local_ack_timeout, 12);

	/* APR (12.8.2): AP status at byte 9. */
	mad_hdr(m, "01 07 02 03 0000 0000 000000000000000a 001a 0000 00000000");
	at(m, 24, "00000001 00000002 04 02");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.u.apr.additional_info_length, 4);
	assert_int_equal(d.u.cm.u.apr.ap_status, 2);
}

/* Every CM message: random bytes decoded, encoded and decoded again give
 * the same message; the encoder sets no bit the input did not have (it
 * zeroes the reserved ones) and fills in the header a CM Send has. */
static void test_cm_round_trip(void **state)
{
	(void)state;
	uint64_t s = 0x9e3779b97f4a7c15u;
	for (uint16_t id = RW_CM_REQ; id <= RW_CM_APR; id++) {
		for (int k = 0; k < 200; k++) {
			uint8_t m[RW_MAD_LEN], o[RW_MAD_LEN];
			struct rw_mad a, b;
			size_t w;
			for (size_t i = 0; i < sizeof(m); i++) {
				s ^= s << 13, s ^= s >> 7, s ^= s << 17;
				m[i] = (uint8_t)s;
			}
			at(m, 0, "01 07 02 03 0000 0000 0000000000000000 0000 0000 00000000");
			rw_put_be64(m + 8, s);
			rw_put_be16(m + 16, id);
			assert_int_equal(rw_mad_decode(m, sizeof(m), &a), RW_OK);
			assert_int_equal(a.u.cm.msg, id);
			assert_int_equal(rw_cm_encode(&a.u.cm, a.hdr.tid, o, sizeof(o), &w), RW_OK);
			assert_memory_equal(o, m, RW_MAD_HDR_LEN);
			for (size_t i = RW_MAD_HDR_LEN; i < sizeof(m); i++)
				if (o[i] & ~m[i])
					fail_msg("%s: byte %zu: bits 0x%02x not in the input",
						 rw_cm_msg_name(id), i, o[i] & ~m[i]);
			assert_int_equal(rw_mad_decode(o, sizeof(o), &b), RW_OK);
			a.data = b.data = NULL; /* the two buffers' addresses */
			assert_memory_equal(&a, &b, sizeof(a));
		}
	}
	/* Reserved bytes the spec names come out zero: REQ 4-7 and 24-27. */
	uint8_t m[RW_MAD_LEN], o[RW_MAD_LEN];
	struct rw_mad a;
	memset(m, 0xff, sizeof(m));
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000000 0010 0000 00000000");
	memset(m + RW_MAD_HDR_LEN, 0xff, RW_CM_DATA_LEN);
	assert_int_equal(rw_mad_decode(m, sizeof(m), &a), RW_OK);
	assert_int_equal(rw_cm_encode(&a.u.cm, 0, o, sizeof(o), NULL), RW_OK);
	for (int i = 4; i < 8; i++)
		assert_int_equal(o[24 + i], 0);
	for (int i = 24; i < 28; i++)
		assert_int_equal(o[24 + i], 0);
	assert_int_equal(o[24 + 88 + 2] & 0x0f, 0); /* 4 bits after the flow label */
	assert_int_equal(o[24 + 91] & 0xc0, 0);     /* 2 bits before the packet rate */
}

/* ---- SMP, SA, PerfMgt, ClassPortInfo ------------------------------------ */

static void test_smp(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN], o[RW_MAD_LEN];
	struct rw_mad d;
	/* Directed route, returning (D set), hop pointer 1, hop count 2:
	 * SubnGetResp(NodeInfo) */
	mad_hdr(m, "01 81 01 81 8000 0102 1122334455667788 0011 0000 00000000");
	at(m, 24, "0000000000000001 ffff ffff");
	at(m, 64, "0101"); /* NodeInfo's first bytes */
	at(m, 128, "000102");
	at(m, 192, "000201");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_true(rw_mad_is_response(d.hdr.method));
	assert_int_equal(d.u.smp.d, 1);
	assert_int_equal(d.u.smp.dr_status, 0);
	assert_int_equal(d.u.smp.hop_pointer, 1);
	assert_int_equal(d.u.smp.hop_count, 2);
	assert_true(d.u.smp.m_key == 1);
	assert_int_equal(d.u.smp.dr_slid, 0xffff);
	assert_int_equal(d.u.smp.dr_dlid, 0xffff);
	assert_int_equal(d.u.smp.initial_path[2], 2);
	assert_int_equal(d.u.smp.return_path[1], 2);
	assert_int_equal(d.data_off, 64);
	assert_int_equal(d.data[0], 1);
	assert_string_equal(rw_mad_attr_name(d.hdr.mgmt_class, d.hdr.attr_id), "NodeInfo");
	assert_int_equal(rw_mad_encode(&d, o, sizeof(o), NULL), RW_OK);
	assert_memory_equal(o, m, RW_MAD_LEN);

	/* LID routed SubnGet(PortInfo), port 1 */
	mad_hdr(m, "01 01 01 01 0000 0000 0000000000000042 0015 0000 00000001");
	at(m, 24, "00000000000000aa");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_true(d.u.smp.m_key == 0xaa);
	assert_int_equal(d.hdr.attr_mod, 1);
	assert_string_equal(rw_mad_attr_name(1, 0x15), "PortInfo");
	assert_int_equal(rw_mad_encode(&d, o, sizeof(o), NULL), RW_OK);
	assert_memory_equal(o, m, RW_MAD_LEN);
}

static void test_sa_path_record(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN], o[RW_MAD_LEN];
	struct rw_mad d;
	/* SubnAdmGetTableResp(PathRecord), RMPP DATA, first and last segment */
	mad_hdr(m, "01 03 02 92 0000 0000 0000000000001234 0035 0000 00000000");
	at(m, 24, "01 01 a7 00 00000001 00000040");  /* RRespTime 20, flags 7 */
	at(m, 36, "0000000000000000 0008 0000 000000000000300c");
	at(m, 56 + 8, "fe800000000000000000000000000002");
	at(m, 56 + 24, "fe800000000000000000000000000001");
	at(m, 56 + 40, "0002 0001 80abcd40 05 81 ffff 0013 84 83 92 01");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.sa.rmpp_version, 1);
	assert_int_equal(d.u.sa.rmpp_type, 1);
	assert_string_equal(rw_rmpp_type_name(d.u.sa.rmpp_type), "DATA");
	assert_int_equal(d.u.sa.rresp_time, 20);
	assert_int_equal(d.u.sa.rmpp_flags, 7);
	assert_int_equal(d.u.sa.data1, 1);
	assert_int_equal(d.u.sa.data2, 64);
	assert_int_equal(d.u.sa.attr_offset, 8);
	assert_true(d.u.sa.comp_mask == 0x300c);
	assert_int_equal(d.data_off, 56);
	assert_int_equal(d.attr_kind, RW_MAD_ATTR_PATH_RECORD);
	const struct rw_path_record *p = &d.attr.pr;
	assert_int_equal(p->dgid[15], 2);
	assert_int_equal(p->sgid[15], 1);
	assert_int_equal(p->dlid, 2);
	assert_int_equal(p->slid, 1);
	assert_int_equal(p->raw_traffic, 1);
	assert_int_equal(p->flow_label, 0x0abcd);
	assert_int_equal(p->hop_limit, 0x40);
	assert_int_equal(p->tclass, 5);
	assert_int_equal(p->reversible, 1);
	assert_int_equal(p->numb_path, 1);
	assert_int_equal(p->pkey, 0xffff);
	assert_int_equal(p->qos_class, 1);
	assert_int_equal(p->sl, 3);
	assert_int_equal(p->mtu_selector, 2);
	assert_int_equal(p->mtu, 4);
	assert_int_equal(p->rate_selector, 2);
	assert_int_equal(p->rate, 3);
	assert_int_equal(p->packet_life_time_selector, 2);
	assert_int_equal(p->packet_life_time, 0x12);
	assert_int_equal(p->preference, 1);
	assert_string_equal(rw_mad_method_name(d.hdr.method), "GetTableResp");
	assert_int_equal(rw_mad_encode(&d, o, sizeof(o), NULL), RW_OK);
	assert_memory_equal(o, m, RW_MAD_LEN);
}

static void test_perf_port_counters(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN], o[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 04 01 81 0000 0000 0000000000000007 0012 0000 00000000");
	at(m, 64, "00 01 ffff 0001 02 03 0004 0005 0006 0007 08 09 0a a5 0000 000b"
		  "0000000c 0000000d 0000000e 0000000f 00000010");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.attr_kind, RW_MAD_ATTR_PORT_COUNTERS);
	const struct rw_port_counters *c = &d.attr.pc;
	assert_int_equal(c->port_select, 1);
	assert_int_equal(c->counter_select, 0xffff);
	assert_int_equal(c->symbol_error_counter, 1);
	assert_int_equal(c->link_error_recovery_counter, 2);
	assert_int_equal(c->link_downed_counter, 3);
	assert_int_equal(c->port_rcv_errors, 4);
	assert_int_equal(c->port_rcv_remote_physical_errors, 5);
	assert_int_equal(c->port_rcv_switch_relay_errors, 6);
	assert_int_equal(c->port_xmit_discards, 7);
	assert_int_equal(c->port_xmit_constraint_errors, 8);
	assert_int_equal(c->port_rcv_constraint_errors, 9);
	assert_int_equal(c->counter_select2, 10);
	assert_int_equal(c->local_link_integrity_errors, 0xa);
	assert_int_equal(c->excessive_buffer_overrun_errors, 5);
	assert_int_equal(c->vl15_dropped, 11);
	assert_int_equal(c->port_xmit_data, 12);
	assert_int_equal(c->port_rcv_data, 13);
	assert_int_equal(c->port_xmit_pkts, 14);
	assert_int_equal(c->port_rcv_pkts, 15);
	assert_int_equal(c->port_xmit_wait, 16);
	assert_string_equal(rw_mad_attr_name(RW_MGMT_PERF, 0x12), "PortCounters");
	assert_int_equal(rw_mad_encode(&d, o, sizeof(o), NULL), RW_OK);
	assert_memory_equal(o, m, RW_MAD_LEN);
}

static void test_class_port_info(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN], o[RW_MAD_LEN];
	struct rw_mad d;
	/* ComMgtGetResp(ClassPortInfo) */
	mad_hdr(m, "01 07 02 81 0000 0000 0000000000000001 0001 0000 00000000");
	at(m, 24, "01 02 0100 00000012 fe800000000000000000000000000003"
		  "04 5abcde 0007 ffff 00000001 80010000");
	at(m, 24 + 64, "40 000002");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.u.cm.msg, RW_CM_NONE);
	assert_int_equal(d.attr_kind, RW_MAD_ATTR_CLASS_PORT_INFO);
	const struct rw_class_port_info *c = &d.attr.cpi;
	assert_int_equal(c->base_version, 1);
	assert_int_equal(c->class_version, 2);
	assert_int_equal(c->capability_mask, 0x100);
	assert_int_equal(c->resp_time_value, 0x12);
	assert_int_equal(c->redirect_gid[15], 3);
	assert_int_equal(c->redirect_tc, 4);
	assert_int_equal(c->redirect_sl, 5);
	assert_int_equal(c->redirect_fl, 0xabcde);
	assert_int_equal(c->redirect_lid, 7);
	assert_int_equal(c->redirect_pkey, 0xffff);
	assert_int_equal(c->redirect_qp, 1);
	assert_int_equal(c->redirect_qkey, 0x80010000);
	assert_int_equal(c->trap_hl, 0x40);
	assert_int_equal(c->trap_qp, 2);
	assert_int_equal(rw_mad_encode(&d, o, sizeof(o), NULL), RW_OK);
	assert_memory_equal(o, m, RW_MAD_LEN);
}

/* ---- names ---------------------------------------------------------------- */

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(rw_mad_class_name(0x01), "SubnMgt");
	assert_string_equal(rw_mad_class_name(0x81), "SubnMgtDR");
	assert_string_equal(rw_mad_class_name(0x03), "SubnAdm");
	assert_string_equal(rw_mad_class_name(0x04), "PerfMgt");
	assert_string_equal(rw_mad_class_name(0x07), "CM");
	assert_string_equal(rw_mad_class_name(0x0a), "VendorSpecific");
	assert_null(rw_mad_class_name(0x02));
	assert_null(rw_mad_class_name(0xff));

	assert_string_equal(rw_mad_method_name(0x01), "Get");
	assert_string_equal(rw_mad_method_name(0x02), "Set");
	assert_string_equal(rw_mad_method_name(0x81), "GetResp");
	assert_string_equal(rw_mad_method_name(0x03), "Send");
	assert_string_equal(rw_mad_method_name(0x05), "Trap");
	assert_string_equal(rw_mad_method_name(0x06), "Report");
	assert_string_equal(rw_mad_method_name(0x12), "GetTable");
	assert_null(rw_mad_method_name(0x7f));

	assert_string_equal(rw_mad_attr_name(0x81, 0x0011), "NodeInfo");
	assert_string_equal(rw_mad_attr_name(0x01, 0x0020), "SMInfo");
	assert_string_equal(rw_mad_attr_name(0x01, 0x0012), "SwitchInfo");
	assert_string_equal(rw_mad_attr_name(0x01, 0x0014), "GUIDInfo");
	assert_string_equal(rw_mad_attr_name(0x01, 0x0016), "P_KeyTable");
	assert_string_equal(rw_mad_attr_name(0x03, 0x0035), "PathRecord");
	assert_string_equal(rw_mad_attr_name(0x03, 0x0038), "MCMemberRecord");
	assert_string_equal(rw_mad_attr_name(0x03, 0x0031), "ServiceRecord");
	assert_string_equal(rw_mad_attr_name(0x03, 0x0011), "NodeRecord");
	assert_string_equal(rw_mad_attr_name(0x03, 0x0001), "ClassPortInfo");
	assert_string_equal(rw_mad_attr_name(0x04, 0x0012), "PortCounters");
	assert_string_equal(rw_mad_attr_name(0x04, 0x001d), "PortCountersExtended");
	assert_string_equal(rw_mad_attr_name(0x04, 0x0001), "ClassPortInfo");
	assert_string_equal(rw_mad_attr_name(0x07, 0x0010), "ConnectRequest");
	assert_string_equal(rw_mad_attr_name(0x07, 0x0013), "ConnectReply");
	assert_string_equal(rw_mad_attr_name(0x07, 0x001a), "AlternatePathResponse");
	assert_null(rw_mad_attr_name(0x07, 0x0020));
	assert_null(rw_mad_attr_name(0x01, 0x0001)); /* SMPs have no ClassPortInfo */
	assert_null(rw_mad_attr_name(0x55, 0x0010));

	static const char *const cm[] = { "REQ", "MRA", "REJ", "REP", "RTU", "DREQ", "DREP",
					   "SIDR_REQ", "SIDR_REP", "LAP", "APR" };
	for (unsigned i = 0; i < RW_ARRAY_LEN(cm); i++)
		assert_string_equal(rw_cm_msg_name((uint16_t)(0x10 + i)), cm[i]);
	assert_null(rw_cm_msg_name(0x0f));
	assert_null(rw_cm_msg_name(0x1b));

	assert_string_equal(rw_cm_rej_reason_name(1), "No QP available");
	assert_string_equal(rw_cm_rej_reason_name(8), "Invalid Service ID");
	assert_string_equal(rw_cm_rej_reason_name(26), "Invalid Path MTU");
	assert_string_equal(rw_cm_rej_reason_name(28), "Consumer Reject");
	assert_null(rw_cm_rej_reason_name(0));
	assert_null(rw_cm_rej_reason_name(1000));
	assert_null(rw_rmpp_type_name(9));
}

/* ---- field tables --------------------------------------------------------- */

static uint64_t field(enum rw_hd hd, const uint8_t *b, const char *name)
{
	int k = rw_field_index(hd, name);
	if (k < 0)
		fail_msg("%s has no %s", rw_header_desc(hd)->name, name);
	struct rw_hview v = { .d = rw_header_desc(hd), .b = b, .hd = (uint8_t)hd };
	uint64_t x = 0;
	assert_true(rw_field_value(&v.d->f[k], &v, 0, &x));
	return x;
}

static const char *field_name(enum rw_hd hd, const uint8_t *b, const char *name)
{
	int k = rw_field_index(hd, name);
	assert_true(k >= 0);
	struct rw_hview v = { .d = rw_header_desc(hd), .b = b, .hd = (uint8_t)hd };
	return rw_field_name_of(&v.d->f[k], &v);
}

static void test_field_tables(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	req_vector(m);
	assert_string_equal(rw_header_desc(RW_HD_MAD)->name, "mad");
	assert_int_equal(field(RW_HD_MAD, m, "class"), 7);
	assert_string_equal(field_name(RW_HD_MAD, m, "class"), "CM");
	assert_string_equal(field_name(RW_HD_MAD, m, "method"), "Send");
	assert_string_equal(field_name(RW_HD_MAD, m, "attribute"), "ConnectRequest");
	assert_true(field(RW_HD_MAD, m, "tid") == UINT64_C(0x0123456789abcdef));
	assert_int_equal(field(RW_HD_MAD, m, "r"), 0);

	for (uint16_t id = RW_CM_REQ; id <= RW_CM_APR; id++) {
		int hd = rw_cm_hd(id);
		assert_true(hd >= RW_HD_CM_REQ && hd <= RW_HD_CM_APR);
		assert_string_equal(rw_header_desc((enum rw_hd)hd)->name, "cm");
		assert_int_equal(field((enum rw_hd)hd, m + 24, "message"), id);
		assert_string_equal(field_name((enum rw_hd)hd, m + 24, "message"), rw_cm_msg_name(id));
	}
	assert_int_equal(rw_cm_hd(0x0020), -1);
	const uint8_t *c = m + 24;
	assert_int_equal(field(RW_HD_CM_REQ, c, "local_comm_id"), 0x11223344);
	assert_int_equal(field(RW_HD_CM_REQ, c, "local_qpn"), 0xabcdef);
	assert_int_equal(field(RW_HD_CM_REQ, c, "starting_psn"), 0x654321);
	assert_int_equal(field(RW_HD_CM_REQ, c, "path_mtu"), 5);
	assert_string_equal(field_name(RW_HD_CM_REQ, c, "path_mtu"), "4096");
	assert_int_equal(field(RW_HD_CM_REQ, c, "retry_count"), 7);
	assert_int_equal(field(RW_HD_CM_REQ, c, "rnr_retry_count"), 6);
	assert_int_equal(field(RW_HD_CM_REQ, c, "remote_cm_response_timeout"), 23);
	assert_string_equal(field_name(RW_HD_CM_REQ, c, "transport_service_type"), "RC");
	assert_int_equal(field(RW_HD_CM_REQ, c, "primary_local_lid"), 1);
	assert_int_equal(field(RW_HD_CM_REQ, c, "alternate_remote_lid"), 4);
	assert_int_equal(field(RW_HD_CM_REQ, c, "primary_flow_label"), 0x12345);

	assert_int_equal(rw_mad_class_hd(RW_MGMT_SUBN_DR), RW_HD_SMP_DR);
	assert_int_equal(rw_mad_class_hd(RW_MGMT_SA), RW_HD_SA);
	assert_int_equal(rw_mad_class_hd(RW_MGMT_CM), -1);
	assert_int_equal(rw_mad_attr_hd(RW_MGMT_SA, RW_ATTR_PATH_RECORD), RW_HD_PATH_RECORD);
	assert_int_equal(rw_mad_attr_hd(RW_MGMT_PERF, RW_ATTR_PORT_COUNTERS), RW_HD_PORT_COUNTERS);
	assert_int_equal(rw_mad_attr_hd(RW_MGMT_CM, RW_ATTR_CLASS_PORT_INFO), RW_HD_CLASS_PORT_INFO);
	assert_int_equal(rw_mad_attr_hd(RW_MGMT_SUBN_LID, RW_ATTR_CLASS_PORT_INFO), -1);

	/* REJ's reason by name through the table. */
	mad_hdr(m, "01 07 02 03 0000 0000 0000000000000003 0012 0000 00000000");
	at(m, 24, "00000001 00000000 40 00 0001");
	assert_string_equal(field_name(RW_HD_CM_REJ, m + 24, "reason"), "No QP available");
	assert_string_equal(field_name(RW_HD_CM_REJ, m + 24, "message_rejected"), "REP");
}

/* ---- bad input ------------------------------------------------------------ */

static void test_bad_input(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	req_vector(m);
	/* Every shorter buffer, exactly sized, so a sanitizer sees an overread. */
	for (size_t l = 0; l < RW_MAD_LEN; l++) {
		uint8_t *c = malloc(l ? l : 1);
		memcpy(c, m, l);
		assert_int_equal(rw_mad_decode(c, l, &d), RW_ERR_TRUNCATED);
		if (l < RW_MAD_HDR_LEN)
			assert_int_equal(rw_mad_hdr_decode(c, l, &d.hdr), RW_ERR_TRUNCATED);
		free(c);
	}
	/* An unknown class: the common header, then UNSUPPORTED. */
	m[1] = 0x55;
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_ERR_UNSUPPORTED);
	assert_int_equal(d.hdr.mgmt_class, 0x55);
	assert_int_equal(d.hdr.attr_id, RW_CM_REQ);
	/* A CM attribute the class does not define. */
	m[1] = RW_MGMT_CM;
	rw_put_be16(m + 16, 0x0020);
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_ERR_UNSUPPORTED);
	/* Another base version (OPA's 0x80). */
	rw_put_be16(m + 16, RW_CM_REQ);
	m[0] = 0x80;
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_ERR_UNSUPPORTED);
	m[0] = 1;
	/* Unknown SA/SMP attributes are fine: header decoded, data pointed at. */
	mad_hdr(m, "01 03 02 01 0000 0000 0000000000000001 7777 0000 00000000");
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(d.attr_kind, RW_MAD_ATTR_NONE);
	assert_null(rw_mad_attr_name(3, 0x7777));
	assert_ptr_equal(d.data, m + 56);
	assert_int_equal(d.data_len, 200);

	/* Encoders: no room, values wider than their fields, no message. */
	req_vector(m);
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	uint8_t o[RW_MAD_LEN];
	memset(o, 0x5a, sizeof(o));
	for (size_t cap = 0; cap < RW_MAD_LEN; cap++) {
		assert_int_equal(rw_mad_encode(&d, o, cap, NULL), RW_ERR_NOSPACE);
		assert_int_equal(rw_cm_encode(&d.u.cm, 0, o, cap, NULL), RW_ERR_NOSPACE);
	}
	assert_int_equal(rw_mad_hdr_encode(&d.hdr, o, RW_MAD_HDR_LEN - 1, NULL), RW_ERR_NOSPACE);
	struct rw_cm_req r = d.u.cm.u.req;
	r.local_qpn = 0x1000000;
	assert_int_equal(rw_cm_req_encode(&r, 0, o, sizeof(o), NULL), RW_ERR_INVALID);
	r = d.u.cm.u.req;
	r.retry_count = 8;
	assert_int_equal(rw_cm_req_encode(&r, 0, o, sizeof(o), NULL), RW_ERR_INVALID);
	r = d.u.cm.u.req;
	r.primary.flow_label = 0x100000;
	assert_int_equal(rw_cm_req_encode(&r, 0, o, sizeof(o), NULL), RW_ERR_INVALID);
	for (size_t i = 0; i < sizeof(o); i++)
		assert_int_equal(o[i], 0x5a); /* nothing written on failure */
	struct rw_cm none = { .msg = RW_CM_NONE };
	assert_int_equal(rw_cm_encode(&none, 0, o, sizeof(o), NULL), RW_ERR_INVALID);
	none.msg = (enum rw_cm_msg)0x0020;
	assert_int_equal(rw_cm_encode(&none, 0, o, sizeof(o), NULL), RW_ERR_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_req_decode),
		cmocka_unit_test(test_cm_messages),
		cmocka_unit_test(test_cm_round_trip),
		cmocka_unit_test(test_smp),
		cmocka_unit_test(test_sa_path_record),
		cmocka_unit_test(test_perf_port_counters),
		cmocka_unit_test(test_class_port_info),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_field_tables),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
