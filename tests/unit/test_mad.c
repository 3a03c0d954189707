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

/* ---- SMP attributes (IBA 14.2.5), from SMP byte 64 ----------------------- */

/* NodeInfo (14.2.5.3): BaseVersion 0, ClassVersion 1, NodeType 2,
 * NumPorts 3, SystemImageGUID 4, NodeGUID 12, PortGUID 20, PartitionCap
 * 28, DeviceID 30, Revision 32, LocalPortNum 36, VendorID 37-39. */
#define NODE_INFO_HEX                                                                               \
	"01 01 02 24 0002c90300001234 0002c90300001235 0002c90300001236 0080 c738 000000a0 07 0002c9"

static void check_node_info(const struct rw_node_info *n)
{
	assert_int_equal(n->base_version, 1);
	assert_int_equal(n->class_version, 1);
	assert_int_equal(n->node_type, 2);
	assert_int_equal(n->num_ports, 36);
	assert_true(n->system_image_guid == UINT64_C(0x0002c90300001234));
	assert_true(n->node_guid == UINT64_C(0x0002c90300001235));
	assert_true(n->port_guid == UINT64_C(0x0002c90300001236));
	assert_int_equal(n->partition_cap, 128);
	assert_int_equal(n->device_id, 0xc738);
	assert_int_equal(n->revision, 0xa0);
	assert_int_equal(n->local_port_num, 7);
	assert_int_equal(n->vendor_id, 0x0002c9);
}

/* Decodes m, checks the kind, and encodes the decode back to m's bytes
 * (every bit set in the vectors is a field's). */
static void decode_back(const uint8_t *m, struct rw_mad *d, enum rw_mad_attr_kind k)
{
	uint8_t o[RW_MAD_LEN];
	assert_int_equal(rw_mad_decode(m, RW_MAD_LEN, d), RW_OK);
	assert_int_equal(d->attr_kind, k);
	assert_int_equal(rw_mad_attr_kind(d->hdr.mgmt_class, d->hdr.attr_id), k);
	memset(o, 0x5a, sizeof(o));
	assert_int_equal(rw_mad_encode(d, o, sizeof(o), NULL), RW_OK);
	assert_memory_equal(o, m, RW_MAD_LEN);
}

static void test_smp_node_info(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	/* LID-routed SubnGetResp(NodeInfo) */
	mad_hdr(m, "01 01 01 81 0000 0000 0000000000000011 0011 0000 00000000");
	at(m, 64, NODE_INFO_HEX);
	decode_back(m, &d, RW_MAD_ATTR_NODE_INFO);
	check_node_info(&d.attr.ni);
	/* The same in a directed-route SMP. */
	mad_hdr(m, "01 81 01 81 8000 0101 0000000000000011 0011 0000 00000000");
	at(m, 24, "0000000000000000 ffff ffff");
	at(m, 64, NODE_INFO_HEX);
	at(m, 128, "0001");
	decode_back(m, &d, RW_MAD_ATTR_NODE_INFO);
	check_node_info(&d.attr.ni);
	assert_int_equal(d.u.smp.hop_count, 1);
}

static void test_smp_switch_info(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 01 01 81 0000 0000 0000000000000012 0012 0000 00000000");
	/* byte 11: 10101 0 11 (LifeTimeValue 21, PortStateChange 0,
	 * OptimizedSLtoVL 3); byte 16: 1 0 1 0 1 000 (in, out, raw in, raw
	 * out, EnhancedPort0); MulticastFDBTop at 18. */
	at(m, 64, "c000 0000 0400 00ff 01 02 03 ab 0001 0020 a8 00 c01f");
	decode_back(m, &d, RW_MAD_ATTR_SWITCH_INFO);
	const struct rw_switch_info *w = &d.attr.swi;
	assert_int_equal(w->linear_fdb_cap, 0xc000);
	assert_int_equal(w->random_fdb_cap, 0);
	assert_int_equal(w->multicast_fdb_cap, 0x400);
	assert_int_equal(w->linear_fdb_top, 0xff);
	assert_int_equal(w->default_port, 1);
	assert_int_equal(w->default_multicast_primary_port, 2);
	assert_int_equal(w->default_multicast_not_primary_port, 3);
	assert_int_equal(w->life_time_value, 21);
	assert_int_equal(w->port_state_change, 0);
	assert_int_equal(w->optimized_sl_to_vl_mapping_programming, 3);
	assert_int_equal(w->lids_per_port, 1);
	assert_int_equal(w->partition_enforcement_cap, 32);
	assert_int_equal(w->inbound_enforcement_cap, 1);
	assert_int_equal(w->outbound_enforcement_cap, 0);
	assert_int_equal(w->filter_raw_inbound_cap, 1);
	assert_int_equal(w->filter_raw_outbound_cap, 0);
	assert_int_equal(w->enhanced_port_zero, 1);
	assert_int_equal(w->multicast_fdb_top, 0xc01f);
	/* PerfMgt's attribute 0x0012 is PortCounters, not SwitchInfo. */
	assert_int_equal(rw_mad_attr_kind(RW_MGMT_PERF, 0x0012), RW_MAD_ATTR_PORT_COUNTERS);
}

static void test_smp_guid_info(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 01 01 81 0000 0000 0000000000000014 0014 0000 00000000");
	for (unsigned i = 0; i < 8; i++) {
		rw_put_be64(m + 64 + 8 * i, UINT64_C(0x0002c90300000000) | (i + 1));
	}
	decode_back(m, &d, RW_MAD_ATTR_GUID_INFO);
	for (unsigned i = 0; i < 8; i++)
		assert_true(d.attr.gi.guid[i] == (UINT64_C(0x0002c90300000000) | (i + 1)));
}

/* PortInfo (14.2.5.6), byte by byte. */
static void port_info_vector(uint8_t *m)
{
	mad_hdr(m, "01 01 01 81 0000 0000 0000000000000015 0015 0000 00000001");
	at(m, 64 + 0, "1122334455667788 fe80000000000000 0005 0001 0251086a 0001 000f");
	at(m, 64 + 28, "01 03 03 02");
	at(m, 64 + 32, "34");  /* LinkSpeedSupported 3, PortState 4 (Active) */
	at(m, 64 + 33, "52");  /* PortPhysicalState 5 (LinkUp), LinkDownDefault 2 */
	at(m, 64 + 34, "42");  /* 01 000 010: M_KeyProtectBits 1, resv, LMC 2 */
	at(m, 64 + 35, "47");  /* LinkSpeedActive 4 (QDR), Enabled 7 */
	at(m, 64 + 36, "51");  /* NeighborMTU 5 (4096), MasterSMSL 1 */
	at(m, 64 + 37, "32 04 08 10"); /* VLCap 3, InitType 2; VLHighLimit; arbitration caps */
	at(m, 64 + 41, "15");  /* InitTypeReply 1, MTUCap 5 */
	at(m, 64 + 42, "f2");  /* 111 10010: VLStallCount 7, HOQLife 18 */
	at(m, 64 + 43, "3a");  /* OperationalVLs 3; 1 0 1 0: P_Key in/out, raw in/out */
	at(m, 64 + 44, "0001 0002 0003 20");
	at(m, 64 + 51, "b2");  /* 1 01 10010: ClientReregister, MKey trap supp 1, timeout 18 */
	at(m, 64 + 52, "10 8f 0100"); /* RespTimeValue 16; LocalPhyErrors 8, Overrun 15; MaxCreditHint */
	at(m, 64 + 56, "00 012345 0012 23 1e"); /* RTT latency; CapMask2; SpeedExt 2/3; enabled 30 */
}

static void test_smp_port_info(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	port_info_vector(m);
	decode_back(m, &d, RW_MAD_ATTR_PORT_INFO);
	const struct rw_port_info *p = &d.attr.pi;
	assert_true(p->m_key == UINT64_C(0x1122334455667788));
	assert_true(p->gid_prefix == UINT64_C(0xfe80000000000000));
	assert_int_equal(p->lid, 5);
	assert_int_equal(p->master_sm_lid, 1);
	assert_int_equal(p->capability_mask, 0x0251086a);
	assert_int_equal(p->diag_code, 1);
	assert_int_equal(p->m_key_lease_period, 15);
	assert_int_equal(p->local_port_num, 1);
	assert_int_equal(p->link_width_enabled, 3);
	assert_int_equal(p->link_width_supported, 3);
	assert_int_equal(p->link_width_active, 2);
	assert_int_equal(p->link_speed_supported, 3);
	assert_int_equal(p->port_state, 4);
	assert_int_equal(p->port_phys_state, 5);
	assert_int_equal(p->link_down_default_state, 2);
	assert_int_equal(p->m_key_protect_bits, 1);
	assert_int_equal(p->lmc, 2);
	assert_int_equal(p->link_speed_active, 4);
	assert_int_equal(p->link_speed_enabled, 7);
	assert_int_equal(p->neighbor_mtu, 5);
	assert_int_equal(p->master_sm_sl, 1);
	assert_int_equal(p->vl_cap, 3);
	assert_int_equal(p->init_type, 2);
	assert_int_equal(p->vl_high_limit, 4);
	assert_int_equal(p->vl_arbitration_high_cap, 8);
	assert_int_equal(p->vl_arbitration_low_cap, 16);
	assert_int_equal(p->init_type_reply, 1);
	assert_int_equal(p->mtu_cap, 5);
	assert_int_equal(p->vl_stall_count, 7);
	assert_int_equal(p->hoq_life, 18);
	assert_int_equal(p->operational_vls, 3);
	assert_int_equal(p->partition_enforcement_inbound, 1);
	assert_int_equal(p->partition_enforcement_outbound, 0);
	assert_int_equal(p->filter_raw_inbound, 1);
	assert_int_equal(p->filter_raw_outbound, 0);
	assert_int_equal(p->m_key_violations, 1);
	assert_int_equal(p->pkey_violations, 2);
	assert_int_equal(p->qkey_violations, 3);
	assert_int_equal(p->guid_cap, 32);
	assert_int_equal(p->client_reregister, 1);
	assert_int_equal(p->multicast_pkey_trap_suppression, 1);
	assert_int_equal(p->subnet_timeout, 18);
	assert_int_equal(p->resp_time_value, 16);
	assert_int_equal(p->local_phy_errors, 8);
	assert_int_equal(p->overrun_errors, 15);
	assert_int_equal(p->max_credit_hint, 256);
	assert_int_equal(p->link_round_trip_latency, 0x012345);
	assert_int_equal(p->capability_mask2, 0x12);
	assert_int_equal(p->link_speed_ext_active, 2);
	assert_int_equal(p->link_speed_ext_supported, 3);
	assert_int_equal(p->link_speed_ext_enabled, 30);
	/* The reserved bits (byte 34's 5:3, 52's 7:5, 56, 63's 7:5) come out
	 * zero. */
	uint8_t o[RW_MAD_LEN];
	m[64 + 34] |= 0x38;
	m[64 + 52] |= 0xe0;
	m[64 + 56] = 0xff;
	m[64 + 63] |= 0xe0;
	assert_int_equal(rw_mad_decode(m, sizeof(m), &d), RW_OK);
	assert_int_equal(rw_mad_encode(&d, o, sizeof(o), NULL), RW_OK);
	assert_int_equal(o[64 + 34], 0x42);
	assert_int_equal(o[64 + 52], 0x10);
	assert_int_equal(o[64 + 56], 0);
	assert_int_equal(o[64 + 63], 0x1e);
}

static void test_smp_pkey_table(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 01 01 81 0000 0000 0000000000000016 0016 0000 00000000");
	at(m, 64, "ffff 7fff 8001");
	at(m, 64 + 62, "1234");
	decode_back(m, &d, RW_MAD_ATTR_PKEY_TABLE);
	assert_int_equal(d.attr.pkt.pkey[0], 0xffff);
	assert_int_equal(d.attr.pkt.pkey[1], 0x7fff);
	assert_int_equal(d.attr.pkt.pkey[2], 0x8001);
	assert_int_equal(d.attr.pkt.pkey[3], 0);
	assert_int_equal(d.attr.pkt.pkey[31], 0x1234);
}

static void test_smp_sm_info(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 81 01 81 8000 0000 0000000000000020 0020 0000 00000000");
	at(m, 24, "0000000000000000 ffff ffff");
	/* GUID 0, SM_Key 8, ActCount 16, Priority (7:4) and SMState (3:0) 20 */
	at(m, 64, "0002c90300000042 00000000000000aa 00001234 e3");
	decode_back(m, &d, RW_MAD_ATTR_SM_INFO);
	assert_true(d.attr.smi.guid == UINT64_C(0x0002c90300000042));
	assert_true(d.attr.smi.sm_key == 0xaa);
	assert_int_equal(d.attr.smi.act_count, 0x1234);
	assert_int_equal(d.attr.smi.priority, 14);
	assert_int_equal(d.attr.smi.sm_state, 3);
}

/* ---- SA records (IBA 15.2.5), from SA byte 56 ---------------------------- */

static void test_sa_node_record(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 03 02 81 0000 0000 0000000000000111 0011 0000 00000000");
	at(m, 48, "0000000000000001"); /* component mask: LID */
	/* LID 0, reserved 2, NodeInfo 4-43, NodeDescription 44-107 */
	at(m, 56, "0005 0000");
	at(m, 56 + 4, NODE_INFO_HEX);
	at(m, 56 + 44, "737741"); /* "swA" */
	at(m, 56 + 107, "7a");
	decode_back(m, &d, RW_MAD_ATTR_NODE_RECORD);
	assert_int_equal(d.attr.nr.lid, 5);
	check_node_info(&d.attr.nr.node_info);
	assert_memory_equal(d.attr.nr.node_description, "swA", 4);
	assert_int_equal(d.attr.nr.node_description[63], 'z');
	/* SMP attribute 0x0011 is NodeInfo; SA's is NodeRecord. */
	assert_int_equal(rw_mad_attr_kind(RW_MGMT_SUBN_LID, 0x0011), RW_MAD_ATTR_NODE_INFO);
	assert_int_equal(rw_mad_attr_kind(RW_MGMT_SA, 0x0011), RW_MAD_ATTR_NODE_RECORD);
	assert_int_equal(rw_mad_attr_kind(RW_MGMT_PERF, 0x0011), RW_MAD_ATTR_NONE);
}

static void test_sa_service_record(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 03 02 81 0000 0000 0000000000000131 0031 0000 00000000");
	/* ServiceID 0, ServiceGID 8, ServiceP_Key 24, reserved 26,
	 * ServiceLease 28, ServiceKey 32, ServiceName 48, ServiceData8 112,
	 * ServiceData16 128, ServiceData32 144, ServiceData64 160. */
	at(m, 56, "1000000000000001 fe800000000000000002c90300000001 ffff 0000 0000003c");
	at(m, 56 + 32, "00112233445566778899aabbccddeeff");
	at(m, 56 + 48, "72646d61"); /* "rdma" */
	at(m, 56 + 112, "01");
	at(m, 56 + 128, "0203");
	at(m, 56 + 144, "04050607");
	at(m, 56 + 160, "08090a0b0c0d0e0f");
	at(m, 56 + 175, "ff");
	decode_back(m, &d, RW_MAD_ATTR_SERVICE_RECORD);
	const struct rw_service_record *r = &d.attr.sr;
	assert_true(r->service_id == UINT64_C(0x1000000000000001));
	assert_int_equal(r->service_gid[0], 0xfe);
	assert_int_equal(r->service_gid[15], 1);
	assert_int_equal(r->service_pkey, 0xffff);
	assert_int_equal(r->service_lease, 60);
	assert_int_equal(r->service_key[0], 0);
	assert_int_equal(r->service_key[15], 0xff);
	assert_memory_equal(r->service_name, "rdma", 5);
	assert_int_equal(r->service_data8[0], 1);
	assert_int_equal(r->service_data16[1], 3);
	assert_int_equal(r->service_data32[3], 7);
	assert_int_equal(r->service_data64[7], 0x0f);
	assert_int_equal(r->service_data64[15], 0xff);
}

static void test_sa_mc_member_record(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 03 02 02 0000 0000 0000000000000138 0038 0000 00000000"); /* Set: a join */
	at(m, 56, "ff12401bffff00000000000000000001 fe800000000000000002c90300000001");
	/* Q_Key 32, MLID 36, MTUSelector(2) MTU(6) 38, TClass 39, P_Key 40,
	 * RateSelector(2) Rate(6) 42, PLTSelector(2) PLT(6) 43, SL(4)
	 * FlowLabel(20) HopLimit(8) 44, Scope(4) JoinState(4) 48, ProxyJoin 49 */
	at(m, 56 + 32, "80010000 c001 84 00 ffff 83 92 3abcde40 21 80");
	decode_back(m, &d, RW_MAD_ATTR_MC_MEMBER_RECORD);
	const struct rw_mc_member_record *r = &d.attr.mcm;
	assert_int_equal(r->mgid[0], 0xff);
	assert_int_equal(r->mgid[1], 0x12);
	assert_int_equal(r->mgid[15], 1);
	assert_int_equal(r->port_gid[8], 0x00);
	assert_int_equal(r->port_gid[10], 0xc9);
	assert_int_equal(r->qkey, 0x80010000);
	assert_int_equal(r->mlid, 0xc001);
	assert_int_equal(r->mtu_selector, 2);
	assert_int_equal(r->mtu, 4);
	assert_int_equal(r->tclass, 0);
	assert_int_equal(r->pkey, 0xffff);
	assert_int_equal(r->rate_selector, 2);
	assert_int_equal(r->rate, 3);
	assert_int_equal(r->packet_life_time_selector, 2);
	assert_int_equal(r->packet_life_time, 0x12);
	assert_int_equal(r->sl, 3);
	assert_int_equal(r->flow_label, 0xabcde);
	assert_int_equal(r->hop_limit, 0x40);
	assert_int_equal(r->scope, 2);
	assert_int_equal(r->join_state, 1);
	assert_int_equal(r->proxy_join, 1);
}

/* ---- PerfMgt PortCountersExtended (IBA 16.1.4.11) ------------------------ */

static void test_perf_port_counters_ext(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad d;
	mad_hdr(m, "01 04 01 81 0000 0000 000000000000001d 001d 0000 00000000");
	/* reserved 0, PortSelect 1, CounterSelect 2, reserved 4-7, then eight
	 * 64-bit counters from byte 8. */
	at(m, 64, "00 01 00ff 00000000");
	for (unsigned i = 0; i < 8; i++)
		rw_put_be64(m + 64 + 8 + 8 * i, (UINT64_C(1) << 40) + i);
	decode_back(m, &d, RW_MAD_ATTR_PORT_COUNTERS_EXT);
	const struct rw_port_counters_ext *c = &d.attr.pce;
	assert_int_equal(c->port_select, 1);
	assert_int_equal(c->counter_select, 0xff);
	assert_true(c->port_xmit_data == (UINT64_C(1) << 40) + 0);
	assert_true(c->port_rcv_data == (UINT64_C(1) << 40) + 1);
	assert_true(c->port_xmit_pkts == (UINT64_C(1) << 40) + 2);
	assert_true(c->port_rcv_pkts == (UINT64_C(1) << 40) + 3);
	assert_true(c->port_unicast_xmit_pkts == (UINT64_C(1) << 40) + 4);
	assert_true(c->port_unicast_rcv_pkts == (UINT64_C(1) << 40) + 5);
	assert_true(c->port_multicast_xmit_pkts == (UINT64_C(1) << 40) + 6);
	assert_true(c->port_multicast_rcv_pkts == (UINT64_C(1) << 40) + 7);
}

/* Every decoded payload, from random bytes: encoded and decoded again it
 * is the same payload, and the encoder sets no bit the input did not have.
 * A payload set by hand encodes and decodes back to itself. */
static void test_attr_round_trip(void **state)
{
	(void)state;
	static const struct {
		uint8_t cls;
		uint16_t id;
	} a[] = {
		{ RW_MGMT_CM, RW_ATTR_CLASS_PORT_INFO }, { RW_MGMT_PERF, RW_ATTR_PORT_COUNTERS },
		{ RW_MGMT_SA, RW_ATTR_PATH_RECORD },    { RW_MGMT_SUBN_LID, RW_ATTR_NODE_INFO },
		{ RW_MGMT_SUBN_DR, RW_ATTR_SWITCH_INFO }, { RW_MGMT_SUBN_LID, RW_ATTR_GUID_INFO },
		{ RW_MGMT_SUBN_DR, RW_ATTR_PORT_INFO }, { RW_MGMT_SUBN_LID, RW_ATTR_PKEY_TABLE },
		{ RW_MGMT_SUBN_LID, RW_ATTR_SM_INFO },  { RW_MGMT_SA, RW_ATTR_NODE_RECORD },
		{ RW_MGMT_SA, RW_ATTR_SERVICE_RECORD }, { RW_MGMT_SA, RW_ATTR_MC_MEMBER_RECORD },
		{ RW_MGMT_PERF, RW_ATTR_PORT_COUNTERS_EXT },
	};
	_Static_assert(RW_ARRAY_LEN(a) == RW_MAD_ATTR_KINDS - 1, "a: one row per payload kind");
	uint64_t s = 0x2545f4914f6cdd1du;
	for (unsigned i = 0; i < RW_ARRAY_LEN(a); i++) {
		assert_int_equal(rw_mad_attr_kind(a[i].cls, a[i].id), RW_MAD_ATTR_NONE + 1 + i);
		for (int k = 0; k < 100; k++) {
			uint8_t m[RW_MAD_LEN], o[RW_MAD_LEN];
			struct rw_mad x, y;
			for (size_t j = 0; j < sizeof(m); j++) {
				s ^= s << 13, s ^= s >> 7, s ^= s << 17;
				m[j] = (uint8_t)s;
			}
			mad_hdr(m, "01 00 01 81 0000 0000 0000000000000000 0000 0000 00000000");
			for (size_t j = RW_MAD_HDR_LEN; j < sizeof(m); j++) {
				s ^= s << 13, s ^= s >> 7, s ^= s << 17;
				m[j] = (uint8_t)s;
			}
			m[1] = a[i].cls;
			rw_put_be16(m + 16, a[i].id);
			assert_int_equal(rw_mad_decode(m, sizeof(m), &x), RW_OK);
			assert_int_equal(x.attr_kind, RW_MAD_ATTR_NONE + 1 + i);
			assert_int_equal(rw_mad_encode(&x, o, sizeof(o), NULL), RW_OK);
			for (size_t j = x.data_off; j < RW_MAD_LEN; j++)
				if (o[j] & ~m[j])
					fail_msg("%s: byte %zu: bits 0x%02x not in the input",
						 rw_mad_attr_name(a[i].cls, a[i].id), j, o[j] & ~m[j]);
			assert_int_equal(rw_mad_decode(o, sizeof(o), &y), RW_OK);
			x.data = y.data = NULL;
			assert_memory_equal(&x.attr, &y.attr, sizeof(x.attr));
		}
	}

	/* By hand: a PortInfo and an MCMemberRecord, encoded, then decoded. */
	struct rw_mad x, y;
	uint8_t o[RW_MAD_LEN];
	memset(&x, 0, sizeof(x));
	x.hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = RW_MGMT_SUBN_LID,
				     .class_version = 1, .method = RW_METHOD_GET_RESP,
				     .attr_id = RW_ATTR_PORT_INFO, .attr_mod = 1 };
	x.attr_kind = RW_MAD_ATTR_PORT_INFO;
	x.attr.pi = (struct rw_port_info){ .lid = 7, .port_state = 4, .port_phys_state = 5,
					   .link_width_active = 2, .link_speed_active = 4,
					   .neighbor_mtu = 5, .lmc = 7, .hoq_life = 31,
					   .link_round_trip_latency = 0xffffff };
	assert_int_equal(rw_mad_encode(&x, o, sizeof(o), NULL), RW_OK);
	assert_int_equal(o[64 + 32] & 0x0f, 4); /* PortState: byte 32, bits 3:0 */
	assert_int_equal(o[64 + 36] >> 4, 5);   /* NeighborMTU: byte 36, bits 7:4 */
	assert_int_equal(rw_mad_decode(o, sizeof(o), &y), RW_OK);
	assert_memory_equal(&x.attr.pi, &y.attr.pi, sizeof(x.attr.pi));
	x.attr.pi.port_state = 16; /* 4 bits */
	assert_int_equal(rw_mad_encode(&x, o, sizeof(o), NULL), RW_ERR_INVALID);

	memset(&x, 0, sizeof(x));
	x.hdr = (struct rw_mad_hdr){ .base_version = 1, .mgmt_class = RW_MGMT_SA, .class_version = 2,
				     .method = RW_METHOD_SET, .attr_id = RW_ATTR_MC_MEMBER_RECORD };
	x.attr_kind = RW_MAD_ATTR_MC_MEMBER_RECORD;
	x.attr.mcm = (struct rw_mc_member_record){ .qkey = RW_GSI_QKEY, .mlid = 0xc000, .sl = 15,
						   .flow_label = 0xfffff, .hop_limit = 1,
						   .join_state = 1, .proxy_join = 1 };
	assert_int_equal(rw_mad_encode(&x, o, sizeof(o), NULL), RW_OK);
	assert_int_equal(rw_get_be32(o + 56 + 44), 0xffffff01u); /* SL 15, FlowLabel, HopLimit 1 */
	assert_int_equal(rw_mad_decode(o, sizeof(o), &y), RW_OK);
	assert_memory_equal(&x.attr.mcm, &y.attr.mcm, sizeof(x.attr.mcm));
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

	/* The attribute payloads' tables, by class and attribute ID. */
	static const struct {
		uint8_t cls;
		uint16_t id;
		enum rw_hd hd;
		const char *name;
	} t[] = {
		{ RW_MGMT_SUBN_DR, RW_ATTR_NODE_INFO, RW_HD_NODE_INFO, "nodeinfo" },
		{ RW_MGMT_SUBN_LID, RW_ATTR_SWITCH_INFO, RW_HD_SWITCH_INFO, "switchinfo" },
		{ RW_MGMT_SUBN_LID, RW_ATTR_GUID_INFO, RW_HD_GUID_INFO, "guidinfo" },
		{ RW_MGMT_SUBN_LID, RW_ATTR_PORT_INFO, RW_HD_PORT_INFO, "portinfo" },
		{ RW_MGMT_SUBN_DR, RW_ATTR_PKEY_TABLE, RW_HD_PKEY_TABLE, "pkeytable" },
		{ RW_MGMT_SUBN_LID, RW_ATTR_SM_INFO, RW_HD_SM_INFO, "sminfo" },
		{ RW_MGMT_SA, RW_ATTR_NODE_RECORD, RW_HD_NODE_RECORD, "noderecord" },
		{ RW_MGMT_SA, RW_ATTR_SERVICE_RECORD, RW_HD_SERVICE_RECORD, "servicerecord" },
		{ RW_MGMT_SA, RW_ATTR_MC_MEMBER_RECORD, RW_HD_MC_MEMBER_RECORD, "mcmemberrecord" },
		{ RW_MGMT_PERF, RW_ATTR_PORT_COUNTERS_EXT, RW_HD_PORT_COUNTERS_EXT, "portcountersext" },
	};
	for (unsigned i = 0; i < RW_ARRAY_LEN(t); i++) {
		assert_int_equal(rw_mad_attr_hd(t[i].cls, t[i].id), t[i].hd);
		assert_string_equal(rw_header_desc(t[i].hd)->name, t[i].name);
	}
	assert_int_equal(rw_mad_attr_hd(RW_MGMT_PERF, RW_ATTR_NODE_INFO), -1);
	assert_int_equal(rw_mad_attr_hd(RW_MGMT_SA, RW_ATTR_PORT_INFO), -1);
	assert_int_equal(rw_mad_attr_hd(RW_MGMT_CM, RW_ATTR_SM_INFO), -1);
	assert_int_equal(rw_mad_attr_hd(RW_MGMT_SUBN_LID, RW_ATTR_PATH_RECORD), -1);

	/* The tables read the same bits as the codec, with the values' names. */
	port_info_vector(m);
	const uint8_t *pi = m + 64;
	assert_int_equal(field(RW_HD_PORT_INFO, pi, "lid"), 5);
	assert_int_equal(field(RW_HD_PORT_INFO, pi, "port_state"), 4);
	assert_string_equal(field_name(RW_HD_PORT_INFO, pi, "port_state"), "Active");
	assert_string_equal(field_name(RW_HD_PORT_INFO, pi, "port_phys_state"), "LinkUp");
	assert_string_equal(field_name(RW_HD_PORT_INFO, pi, "link_width_active"), "4x");
	assert_string_equal(field_name(RW_HD_PORT_INFO, pi, "link_speed_active"), "QDR");
	assert_string_equal(field_name(RW_HD_PORT_INFO, pi, "link_speed_ext_active"), "EDR");
	assert_string_equal(field_name(RW_HD_PORT_INFO, pi, "neighbor_mtu"), "4096");
	assert_int_equal(field(RW_HD_PORT_INFO, pi, "hoq_life"), 18);
	assert_int_equal(field(RW_HD_PORT_INFO, pi, "link_round_trip_latency"), 0x012345);
	rw_hex(NODE_INFO_HEX, m, sizeof(m));
	assert_string_equal(field_name(RW_HD_NODE_INFO, m, "node_type"), "Switch");
	assert_int_equal(field(RW_HD_NODE_INFO, m, "vendor_id"), 0x0002c9);
	memset(m, 0, sizeof(m));
	rw_hex("0007 0000", m, sizeof(m));
	rw_hex(NODE_INFO_HEX, m + 4, sizeof(m) - 4);
	assert_int_equal(field(RW_HD_NODE_RECORD, m, "lid"), 7);
	assert_true(field(RW_HD_NODE_RECORD, m, "node_guid") == UINT64_C(0x0002c90300001235));
	assert_int_equal(field(RW_HD_NODE_RECORD, m, "local_port_num"), 7);
	rw_hex("0002c90300000042 00000000000000aa 00001234 e3", m, sizeof(m));
	assert_string_equal(field_name(RW_HD_SM_INFO, m, "sm_state"), "Master");
	assert_int_equal(field(RW_HD_SM_INFO, m, "priority"), 14);
	memset(m, 0, sizeof(m));
	rw_hex("ffff 7fff", m, sizeof(m));
	assert_int_equal(field(RW_HD_PKEY_TABLE, m, "pkey_1"), 0x7fff);
	assert_int_equal(field(RW_HD_PKEY_TABLE, m, "pkey_31"), 0);
	assert_int_equal(rw_field_index(RW_HD_PKEY_TABLE, "pkey_32"), -1);
	assert_int_equal(rw_field_index(RW_HD_GUID_INFO, "guid_7"), 7);

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

/* The brief a frame's decode keeps: the REQ of req_vector (IBA 12.6.5
 * byte positions) whole, cut after the primary path's LIDs (the fields a
 * connection is paired by are all before: a snapshot length of 128 bytes
 * of MAD keeps them), and cut inside them (no CM message then, the header
 * only). */
static void test_brief_cut(void **state)
{
	(void)state;
	uint8_t m[RW_MAD_LEN];
	struct rw_mad_brief b;
	req_vector(m);
	static const size_t lens[] = {RW_MAD_LEN, 24 + 56, 24 + 50};
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(rw_mad_brief_decode(m, lens[i], &b), RW_OK);
		assert_int_equal(b.hdr.mgmt_class, RW_MGMT_CM);
		assert_int_equal(b.hdr.attr_id, RW_CM_REQ);
		if (i == 2) {
			assert_int_equal(b.cm_msg, RW_CM_NONE);
			continue;
		}
		assert_int_equal(b.cm_msg, RW_CM_REQ);
		assert_int_equal(b.local_comm_id, 0x11223344);
		assert_int_equal(b.qpn, 0xabcdef);
		assert_int_equal(b.starting_psn, 0x654321);
		assert_int_equal(b.path_mtu, 5);
		assert_int_equal(b.transport, 0);
	}
	assert_int_equal(rw_mad_brief_decode(m, 23, &b), RW_ERR_TRUNCATED);
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
		cmocka_unit_test(test_smp_node_info),
		cmocka_unit_test(test_smp_switch_info),
		cmocka_unit_test(test_smp_guid_info),
		cmocka_unit_test(test_smp_port_info),
		cmocka_unit_test(test_smp_pkey_table),
		cmocka_unit_test(test_smp_sm_info),
		cmocka_unit_test(test_sa_node_record),
		cmocka_unit_test(test_sa_service_record),
		cmocka_unit_test(test_sa_mc_member_record),
		cmocka_unit_test(test_perf_port_counters_ext),
		cmocka_unit_test(test_attr_round_trip),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_field_tables),
		cmocka_unit_test(test_brief_cut),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
