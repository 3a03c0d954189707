/* SPDX-License-Identifier: BSD-3-Clause */
/* Where every field of the MADs rocewire decodes lies: one list of rows per
 * header or message, written once from the IBA tables and expanded twice,
 * by mad.c into the codec's rows (decode and encode) and by fields.c into
 * the field tables ("mad", "cm", ...), so the codec and the printers cannot
 * disagree.
 *
 * A list takes two macros:
 *   N(name, member, byte offset, bytes, shift, bits, extras...)  a number
 *   B(name, member, byte offset, bytes, type)                    bytes
 * Offsets count from the header's first byte: the MAD's for "mad" and the
 * class headers, the CM message's (MAD byte 24) for "cm", as IBA 12.6's
 * tables do, the attribute's for the payloads. Shift is the field's lowest
 * bit in the big-endian value of its bytes (IBA numbers bits from the most
 * significant: a 5-bit field at bit 0 of a byte has shift 3). Extras are
 * the field table's display designators; the codec ignores them. Type is
 * IPV6 for a GID, BYTES otherwise. */
#ifndef ROCEWIRE_MAD_LAYOUT_H
#define ROCEWIRE_MAD_LAYOUT_H

/* IBA 13.4.3, Figure 144: the common header. */
#define RW_MAD_HDR_ROWS(N, B)                                                                      \
	N("base_version", base_version, 0, 1, 0, 8)                                                \
	N("class", mgmt_class, 1, 1, 0, 8, HEX(2), .vname = vn_mad_class)                     \
	N("class_version", class_version, 2, 1, 0, 8)                                              \
	N("method", method, 3, 1, 0, 8, HEX(2), .vname = vn_mad_method)                            \
	N("status", status, 4, 2, 0, 16, HEX(4))                                                   \
	N("class_specific", class_specific, 6, 2, 0, 16, HEX(4))                                   \
	N("tid", tid, 8, 8, 0, 64, HEX(16))                                                        \
	N("attribute", attr_id, 16, 2, 0, 16, HEX(4), .vname = vn_mad_attr)                          \
	N("resv", resv, 18, 2, 0, 16, .flags = RW_FF_RESV)                                         \
	N("attribute_modifier", attr_mod, 20, 4, 0, 32, HEX(8))

/* IBA 14.2.1.2: the directed-route SMP (class 0x81), from MAD byte 0: D and
 * status share the common header's status, hop pointer and count its
 * class-specific field. */
#define RW_SMP_DR_ROWS(N, B)                                                                       \
	N("d", d, 4, 1, 7, 1)                                                                      \
	N("dr_status", dr_status, 4, 2, 0, 15)                                                     \
	N("hop_pointer", hop_pointer, 6, 1, 0, 8)                                                  \
	N("hop_count", hop_count, 7, 1, 0, 8)                                                      \
	N("m_key", m_key, 24, 8, 0, 64)                                                            \
	N("dr_slid", dr_slid, 32, 2, 0, 16)                                                        \
	N("dr_dlid", dr_dlid, 34, 2, 0, 16)                                                        \
	B("initial_path", initial_path, 128, 64, BYTES)                                            \
	B("return_path", return_path, 192, 64, BYTES)

/* IBA 14.2.1.1: the LID-routed SMP (class 0x01). */
#define RW_SMP_LID_ROWS(N, B) N("m_key", m_key, 24, 8, 0, 64)

/* IBA 13.6.2.1 (RMPP) and 15.2.1.1 (SA header), from MAD byte 0. */
#define RW_SA_ROWS(N, B)                                                                           \
	N("rmpp_version", rmpp_version, 24, 1, 0, 8)                                               \
	N("rmpp_type", rmpp_type, 25, 1, 0, 8, .vname = vn_rmpp_type)                              \
	N("rresp_time", rresp_time, 26, 1, 3, 5)                                                   \
	N("rmpp_flags", rmpp_flags, 26, 1, 0, 3)                                                   \
	N("rmpp_status", rmpp_status, 27, 1, 0, 8)                                                 \
	N("data1", data1, 28, 4, 0, 32)                                                            \
	N("data2", data2, 32, 4, 0, 32)                                                            \
	N("sm_key", sm_key, 36, 8, 0, 64, HEX(16))                                                 \
	N("attr_offset", attr_offset, 44, 2, 0, 16)                                                \
	N("comp_mask", comp_mask, 48, 8, 0, 64, HEX(16))

/* ---- CM messages: offsets from the message's first byte (MAD byte 24) -- */

#define RW_CM_IDS_ROWS(N, B)                                                                       \
	N("local_comm_id", local_comm_id, 0, 4, 0, 32, HEX(8))                                     \
	N("remote_comm_id", remote_comm_id, 4, 4, 0, 32, HEX(8))

/* IBA 12.6.5 (REQ): the primary path at byte 52, the alternate
 * 44 bytes later, the same layout. */
#define RW_CM_REQ_PATH_ROWS(N, B, p, m, o)                                                         \
	N(p "_local_lid", m.local_lid, (o), 2, 0, 16, HEX(4))                                      \
	N(p "_remote_lid", m.remote_lid, (o) + 2, 2, 0, 16, HEX(4))                                \
	B(p "_local_gid", m.local_gid, (o) + 4, 16, IPV6)                                          \
	B(p "_remote_gid", m.remote_gid, (o) + 20, 16, IPV6)                                       \
	N(p "_flow_label", m.flow_label, (o) + 36, 4, 12, 20, HEX(5))                              \
	N(p "_packet_rate", m.packet_rate, (o) + 39, 1, 0, 6)                                      \
	N(p "_traffic_class", m.traffic_class, (o) + 40, 1, 0, 8)                                  \
	N(p "_hop_limit", m.hop_limit, (o) + 41, 1, 0, 8)                                          \
	N(p "_sl", m.sl, (o) + 42, 1, 4, 4)                                                        \
	N(p "_subnet_local", m.subnet_local, (o) + 42, 1, 3, 1, .type = RW_FT_FLAG)                \
	N(p "_local_ack_timeout", m.local_ack_timeout, (o) + 43, 1, 3, 5)

#define RW_CM_REQ_ROWS(N, B)                                                                       \
	N("local_comm_id", local_comm_id, 0, 4, 0, 32, HEX(8))                                     \
	N("service_id", service_id, 8, 8, 0, 64, HEX(16))                                          \
	N("local_ca_guid", local_ca_guid, 16, 8, 0, 64, HEX(16))                                   \
	N("local_qkey", local_qkey, 28, 4, 0, 32, HEX(8))                                          \
	N("local_qpn", local_qpn, 32, 3, 0, 24, HEX(6))                                            \
	N("responder_resources", responder_resources, 35, 1, 0, 8)                                 \
	N("local_eecn", local_eecn, 36, 3, 0, 24, HEX(6))                                          \
	N("initiator_depth", initiator_depth, 39, 1, 0, 8)                                         \
	N("remote_eecn", remote_eecn, 40, 3, 0, 24, HEX(6))                                        \
	N("remote_cm_response_timeout", remote_cm_response_timeout, 43, 1, 3, 5)                   \
	N("transport_service_type", transport_service_type, 43, 1, 1, 2, .vname = vn_cm_tst)       \
	N("e2e_flow_control", e2e_flow_control, 43, 1, 0, 1, .type = RW_FT_FLAG)                   \
	N("starting_psn", starting_psn, 44, 3, 0, 24)                                              \
	N("local_cm_response_timeout", local_cm_response_timeout, 47, 1, 3, 5)                     \
	N("retry_count", retry_count, 47, 1, 0, 3)                                                 \
	N("pkey", pkey, 48, 2, 0, 16, HEX(4))                                                      \
	N("path_mtu", path_mtu, 50, 1, 4, 4, .vname = vn_mtu)                                      \
	N("rdc_exists", rdc_exists, 50, 1, 3, 1, .type = RW_FT_FLAG)                               \
	N("rnr_retry_count", rnr_retry_count, 50, 1, 0, 3)                                         \
	N("max_cm_retries", max_cm_retries, 51, 1, 4, 4)                                           \
	N("srq", srq, 51, 1, 3, 1, .type = RW_FT_FLAG)                                             \
	N("ext_transport_type", ext_transport_type, 51, 1, 0, 3)                                   \
	RW_CM_REQ_PATH_ROWS(N, B, "primary", primary, 52)                                          \
	RW_CM_REQ_PATH_ROWS(N, B, "alternate", alternate, 96)                                      \
	N("sap_supported", sap_supported, 139, 1, 2, 1, .type = RW_FT_FLAG)                        \
	B("private_data", private_data, 140, 92, BYTES)

/* IBA 12.6.6 (MRA). */
#define RW_CM_MRA_ROWS(N, B)                                                                       \
	RW_CM_IDS_ROWS(N, B)                                                                       \
	N("message_mraed", message_mraed, 8, 1, 6, 2, .vname = vn_cm_msg_ref)                      \
	N("service_timeout", service_timeout, 9, 1, 3, 5)                                          \
	B("private_data", private_data, 10, 222, BYTES)

/* IBA 12.6.7 (REJ). */
#define RW_CM_REJ_ROWS(N, B)                                                                       \
	RW_CM_IDS_ROWS(N, B)                                                                       \
	N("message_rejected", message_rejected, 8, 1, 6, 2, .vname = vn_cm_msg_ref)                \
	N("reject_info_length", reject_info_length, 9, 1, 1, 7)                                    \
	N("reason", reason, 10, 2, 0, 16, .vname = vn_cm_rej_reason)                               \
	B("ari", ari, 12, 72, BYTES)                                                               \
	B("private_data", private_data, 84, 148, BYTES)

/* IBA 12.6.8 (REP). */
#define RW_CM_REP_ROWS(N, B)                                                                       \
	RW_CM_IDS_ROWS(N, B)                                                                       \
	N("local_qkey", local_qkey, 8, 4, 0, 32, HEX(8))                                           \
	N("local_qpn", local_qpn, 12, 3, 0, 24, HEX(6))                                            \
	N("local_eecn", local_eecn, 16, 3, 0, 24, HEX(6))                                          \
	N("starting_psn", starting_psn, 20, 3, 0, 24)                                              \
	N("responder_resources", responder_resources, 24, 1, 0, 8)                                 \
	N("initiator_depth", initiator_depth, 25, 1, 0, 8)                                         \
	N("target_ack_delay", target_ack_delay, 26, 1, 3, 5)                                       \
	N("failover_accepted", failover_accepted, 26, 1, 1, 2)                                     \
	N("e2e_flow_control", e2e_flow_control, 26, 1, 0, 1, .type = RW_FT_FLAG)                   \
	N("rnr_retry_count", rnr_retry_count, 27, 1, 5, 3)                                         \
	N("srq", srq, 27, 1, 4, 1, .type = RW_FT_FLAG)                                             \
	N("local_ca_guid", local_ca_guid, 28, 8, 0, 64, HEX(16))                                   \
	B("private_data", private_data, 36, 196, BYTES)

/* IBA 12.6.9 and 12.6.11 (RTU, DREP). */
#define RW_CM_RTU_ROWS(N, B)                                                                       \
	RW_CM_IDS_ROWS(N, B)                                                                       \
	B("private_data", private_data, 8, 224, BYTES)

/* IBA 12.6.10 (DREQ). */
#define RW_CM_DREQ_ROWS(N, B)                                                                      \
	RW_CM_IDS_ROWS(N, B)                                                                       \
	N("remote_qpn", remote_qpn, 8, 3, 0, 24, HEX(6))                                           \
	B("private_data", private_data, 12, 220, BYTES)

/* IBA 12.8.1 (LAP): the alternate path, in an order of its own. */
#define RW_CM_LAP_ROWS(N, B)                                                                       \
	RW_CM_IDS_ROWS(N, B)                                                                       \
	N("remote_qpn", remote_qpn, 12, 3, 0, 24, HEX(6))                                          \
	N("remote_cm_response_timeout", remote_cm_response_timeout, 15, 1, 3, 5)                   \
	N("alternate_local_lid", alternate.local_lid, 20, 2, 0, 16, HEX(4))                        \
	N("alternate_remote_lid", alternate.remote_lid, 22, 2, 0, 16, HEX(4))                      \
	B("alternate_local_gid", alternate.local_gid, 24, 16, IPV6)                                \
	B("alternate_remote_gid", alternate.remote_gid, 40, 16, IPV6)                              \
	N("alternate_flow_label", alternate.flow_label, 56, 4, 12, 20, HEX(5))                     \
	N("alternate_traffic_class", alternate.traffic_class, 59, 1, 0, 8)                         \
	N("alternate_hop_limit", alternate.hop_limit, 60, 1, 0, 8)                                 \
	N("alternate_packet_rate", alternate.packet_rate, 61, 1, 0, 6)                             \
	N("alternate_sl", alternate.sl, 62, 1, 4, 4)                                               \
	N("alternate_subnet_local", alternate.subnet_local, 62, 1, 3, 1, .type = RW_FT_FLAG)       \
	N("alternate_local_ack_timeout", alternate.local_ack_timeout, 63, 1, 3, 5)                 \
	B("private_data", private_data, 64, 168, BYTES)

/* IBA 12.8.2 (APR). */
#define RW_CM_APR_ROWS(N, B)                                                                       \
	RW_CM_IDS_ROWS(N, B)                                                                       \
	N("additional_info_length", additional_info_length, 8, 1, 0, 8)                            \
	N("ap_status", ap_status, 9, 1, 0, 8)                                                      \
	B("additional_info", additional_info, 12, 72, BYTES)                                       \
	B("private_data", private_data, 84, 148, BYTES)

/* IBA 12.11.1 (SIDR_REQ). */
#define RW_CM_SIDR_REQ_ROWS(N, B)                                                                  \
	N("request_id", request_id, 0, 4, 0, 32, HEX(8))                                           \
	N("pkey", pkey, 4, 2, 0, 16, HEX(4))                                                       \
	N("service_id", service_id, 8, 8, 0, 64, HEX(16))                                          \
	B("private_data", private_data, 16, 216, BYTES)

/* IBA 12.11.2 (SIDR_REP). */
#define RW_CM_SIDR_REP_ROWS(N, B)                                                                  \
	N("request_id", request_id, 0, 4, 0, 32, HEX(8))                                           \
	N("status", status, 4, 1, 0, 8)                                                            \
	N("additional_info_length", additional_info_length, 5, 1, 0, 8)                            \
	N("qpn", qpn, 8, 3, 0, 24, HEX(6))                                                         \
	N("service_id", service_id, 12, 8, 0, 64, HEX(16))                                         \
	N("qkey", qkey, 20, 4, 0, 32, HEX(8))                                                      \
	B("additional_info", additional_info, 24, 72, BYTES)                                       \
	B("private_data", private_data, 96, 136, BYTES)

/* ---- attribute payloads: offsets from the attribute's first byte -------- */

/* IBA 13.4.8.1 (ClassPortInfo). */
#define RW_CPI_ROWS(N, B)                                                                          \
	N("base_version", base_version, 0, 1, 0, 8)                                                \
	N("class_version", class_version, 1, 1, 0, 8)                                              \
	N("capability_mask", capability_mask, 2, 2, 0, 16, HEX(4))                                 \
	N("capability_mask2", capability_mask2, 4, 4, 5, 27, HEX(7))                               \
	N("resp_time_value", resp_time_value, 7, 1, 0, 5)                                          \
	B("redirect_gid", redirect_gid, 8, 16, IPV6)                                               \
	N("redirect_tc", redirect_tc, 24, 1, 0, 8)                                                 \
	N("redirect_sl", redirect_sl, 25, 1, 4, 4)                                                 \
	N("redirect_fl", redirect_fl, 25, 3, 0, 20, HEX(5))                                        \
	N("redirect_lid", redirect_lid, 28, 2, 0, 16, HEX(4))                                      \
	N("redirect_pkey", redirect_pkey, 30, 2, 0, 16, HEX(4))                                    \
	N("redirect_qp", redirect_qp, 33, 3, 0, 24, HEX(6))                                        \
	N("redirect_qkey", redirect_qkey, 36, 4, 0, 32, HEX(8))                                    \
	B("trap_gid", trap_gid, 40, 16, IPV6)                                                      \
	N("trap_tc", trap_tc, 56, 1, 0, 8)                                                         \
	N("trap_sl", trap_sl, 57, 1, 4, 4)                                                         \
	N("trap_fl", trap_fl, 57, 3, 0, 20, HEX(5))                                                \
	N("trap_lid", trap_lid, 60, 2, 0, 16, HEX(4))                                              \
	N("trap_pkey", trap_pkey, 62, 2, 0, 16, HEX(4))                                            \
	N("trap_hl", trap_hl, 64, 1, 0, 8)                                                         \
	N("trap_qp", trap_qp, 65, 3, 0, 24, HEX(6))                                                \
	N("trap_qkey", trap_qkey, 68, 4, 0, 32, HEX(8))
#define RW_CPI_LEN 72

/* IBA 16.1.3.5 (PortCounters). */
#define RW_PORT_COUNTERS_ROWS(N, B)                                                                \
	N("port_select", port_select, 1, 1, 0, 8)                                                  \
	N("counter_select", counter_select, 2, 2, 0, 16, HEX(4))                                   \
	N("symbol_error_counter", symbol_error_counter, 4, 2, 0, 16)                               \
	N("link_error_recovery_counter", link_error_recovery_counter, 6, 1, 0, 8)                  \
	N("link_downed_counter", link_downed_counter, 7, 1, 0, 8)                                  \
	N("port_rcv_errors", port_rcv_errors, 8, 2, 0, 16)                                         \
	N("port_rcv_remote_physical_errors", port_rcv_remote_physical_errors, 10, 2, 0, 16)        \
	N("port_rcv_switch_relay_errors", port_rcv_switch_relay_errors, 12, 2, 0, 16)              \
	N("port_xmit_discards", port_xmit_discards, 14, 2, 0, 16)                                  \
	N("port_xmit_constraint_errors", port_xmit_constraint_errors, 16, 1, 0, 8)                 \
	N("port_rcv_constraint_errors", port_rcv_constraint_errors, 17, 1, 0, 8)                   \
	N("counter_select2", counter_select2, 18, 1, 0, 8)                                         \
	N("local_link_integrity_errors", local_link_integrity_errors, 19, 1, 4, 4)                 \
	N("excessive_buffer_overrun_errors", excessive_buffer_overrun_errors, 19, 1, 0, 4)         \
	N("vl15_dropped", vl15_dropped, 22, 2, 0, 16)                                              \
	N("port_xmit_data", port_xmit_data, 24, 4, 0, 32)                                          \
	N("port_rcv_data", port_rcv_data, 28, 4, 0, 32)                                            \
	N("port_xmit_pkts", port_xmit_pkts, 32, 4, 0, 32)                                          \
	N("port_rcv_pkts", port_rcv_pkts, 36, 4, 0, 32)                                            \
	N("port_xmit_wait", port_xmit_wait, 40, 4, 0, 32)
#define RW_PORT_COUNTERS_LEN 44

/* IBA 15.2.5.16 (PathRecord). */
#define RW_PATH_RECORD_ROWS(N, B)                                                                  \
	N("service_id", service_id, 0, 8, 0, 64, HEX(16))                                          \
	B("dgid", dgid, 8, 16, IPV6)                                                               \
	B("sgid", sgid, 24, 16, IPV6)                                                              \
	N("dlid", dlid, 40, 2, 0, 16, HEX(4))                                                      \
	N("slid", slid, 42, 2, 0, 16, HEX(4))                                                      \
	N("raw_traffic", raw_traffic, 44, 1, 7, 1, .type = RW_FT_FLAG)                             \
	N("flow_label", flow_label, 44, 4, 8, 20, HEX(5))                                          \
	N("hop_limit", hop_limit, 47, 1, 0, 8)                                                     \
	N("tclass", tclass, 48, 1, 0, 8)                                                           \
	N("reversible", reversible, 49, 1, 7, 1, .type = RW_FT_FLAG)                               \
	N("numb_path", numb_path, 49, 1, 0, 7)                                                     \
	N("pkey", pkey, 50, 2, 0, 16, HEX(4))                                                      \
	N("qos_class", qos_class, 52, 2, 4, 12)                                                    \
	N("sl", sl, 53, 1, 0, 4)                                                                   \
	N("mtu_selector", mtu_selector, 54, 1, 6, 2)                                               \
	N("mtu", mtu, 54, 1, 0, 6, .vname = vn_mtu)                                                \
	N("rate_selector", rate_selector, 55, 1, 6, 2)                                             \
	N("rate", rate, 55, 1, 0, 6)                                                               \
	N("packet_life_time_selector", packet_life_time_selector, 56, 1, 6, 2)                     \
	N("packet_life_time", packet_life_time, 56, 1, 0, 6)                                       \
	N("preference", preference, 57, 1, 0, 8)
#define RW_PATH_RECORD_LEN 64

#endif
