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

/* ---- SMP attributes (IBA 14.2.5): offsets from the SMP data (MAD byte 64) */

/* IBA 14.2.5.3 (NodeInfo), at byte o of its container: M(x) names member x
 * (NodeRecord holds a NodeInfo at its byte 4). */
#define RW_NODE_INFO_AT(N, B, M, o)                                                                \
	N("base_version", M(base_version), (o), 1, 0, 8)                                           \
	N("class_version", M(class_version), (o) + 1, 1, 0, 8)                                     \
	N("node_type", M(node_type), (o) + 2, 1, 0, 8, .vname = vn_node_type)                      \
	N("num_ports", M(num_ports), (o) + 3, 1, 0, 8)                                             \
	N("system_image_guid", M(system_image_guid), (o) + 4, 8, 0, 64, HEX(16))                   \
	N("node_guid", M(node_guid), (o) + 12, 8, 0, 64, HEX(16))                                  \
	N("port_guid", M(port_guid), (o) + 20, 8, 0, 64, HEX(16))                                  \
	N("partition_cap", M(partition_cap), (o) + 28, 2, 0, 16)                                   \
	N("device_id", M(device_id), (o) + 30, 2, 0, 16, HEX(4))                                   \
	N("revision", M(revision), (o) + 32, 4, 0, 32, HEX(8))                                     \
	N("local_port_num", M(local_port_num), (o) + 36, 1, 0, 8)                                  \
	N("vendor_id", M(vendor_id), (o) + 37, 3, 0, 24, HEX(6))
#define RW_MEMBER_(x) x
#define RW_NODE_INFO_ROWS(N, B) RW_NODE_INFO_AT(N, B, RW_MEMBER_, 0)
#define RW_NODE_INFO_LEN 40

/* IBA 14.2.5.4 (SwitchInfo); MulticastFDBTop is IBA 1.2.1's. */
#define RW_SWITCH_INFO_ROWS(N, B)                                                                  \
	N("linear_fdb_cap", linear_fdb_cap, 0, 2, 0, 16)                                           \
	N("random_fdb_cap", random_fdb_cap, 2, 2, 0, 16)                                           \
	N("multicast_fdb_cap", multicast_fdb_cap, 4, 2, 0, 16)                                     \
	N("linear_fdb_top", linear_fdb_top, 6, 2, 0, 16, HEX(4))                                   \
	N("default_port", default_port, 8, 1, 0, 8)                                                \
	N("default_multicast_primary_port", default_multicast_primary_port, 9, 1, 0, 8)            \
	N("default_multicast_not_primary_port", default_multicast_not_primary_port, 10, 1, 0, 8)   \
	N("life_time_value", life_time_value, 11, 1, 3, 5)                                         \
	N("port_state_change", port_state_change, 11, 1, 2, 1, .type = RW_FT_FLAG)                 \
	N("optimized_sl_to_vl_mapping_programming", optimized_sl_to_vl_mapping_programming, 11, 1, \
	  0, 2)                                                                                    \
	N("lids_per_port", lids_per_port, 12, 2, 0, 16)                                            \
	N("partition_enforcement_cap", partition_enforcement_cap, 14, 2, 0, 16)                    \
	N("inbound_enforcement_cap", inbound_enforcement_cap, 16, 1, 7, 1, .type = RW_FT_FLAG)     \
	N("outbound_enforcement_cap", outbound_enforcement_cap, 16, 1, 6, 1, .type = RW_FT_FLAG)   \
	N("filter_raw_inbound_cap", filter_raw_inbound_cap, 16, 1, 5, 1, .type = RW_FT_FLAG)       \
	N("filter_raw_outbound_cap", filter_raw_outbound_cap, 16, 1, 4, 1, .type = RW_FT_FLAG)     \
	N("enhanced_port_zero", enhanced_port_zero, 16, 1, 3, 1, .type = RW_FT_FLAG)               \
	N("multicast_fdb_top", multicast_fdb_top, 18, 2, 0, 16, HEX(4))
#define RW_SWITCH_INFO_LEN 20

/* IBA 14.2.5.5 (GUIDInfo): a block of 8 GUIDs (the modifier picks it). */
#define RW_GUID_ROW_(N, i) N("guid_" #i, guid[i], 8 * (i), 8, 0, 64, HEX(16))
#define RW_GUID_INFO_ROWS(N, B)                                                                    \
	RW_GUID_ROW_(N, 0) RW_GUID_ROW_(N, 1) RW_GUID_ROW_(N, 2) RW_GUID_ROW_(N, 3)               \
	RW_GUID_ROW_(N, 4) RW_GUID_ROW_(N, 5) RW_GUID_ROW_(N, 6) RW_GUID_ROW_(N, 7)
#define RW_GUID_INFO_LEN 64

/* IBA 14.2.5.6 (PortInfo): CapabilityMask2 and the LinkSpeedExt fields
 * are IBA 1.3's (bytes 60-63, reserved before). */
#define RW_PORT_INFO_ROWS(N, B)                                                                    \
	N("m_key", m_key, 0, 8, 0, 64, HEX(16))                                                    \
	N("gid_prefix", gid_prefix, 8, 8, 0, 64, HEX(16))                                          \
	N("lid", lid, 16, 2, 0, 16, HEX(4))                                                        \
	N("master_sm_lid", master_sm_lid, 18, 2, 0, 16, HEX(4))                                    \
	N("capability_mask", capability_mask, 20, 4, 0, 32, HEX(8))                                \
	N("diag_code", diag_code, 24, 2, 0, 16, HEX(4))                                            \
	N("m_key_lease_period", m_key_lease_period, 26, 2, 0, 16)                                  \
	N("local_port_num", local_port_num, 28, 1, 0, 8)                                           \
	N("link_width_enabled", link_width_enabled, 29, 1, 0, 8, HEX(2))                           \
	N("link_width_supported", link_width_supported, 30, 1, 0, 8, HEX(2))                       \
	N("link_width_active", link_width_active, 31, 1, 0, 8, .vname = vn_link_width)             \
	N("link_speed_supported", link_speed_supported, 32, 1, 4, 4, HEX(1))                       \
	N("port_state", port_state, 32, 1, 0, 4, .vname = vn_port_state)                           \
	N("port_phys_state", port_phys_state, 33, 1, 4, 4, .vname = vn_port_phys_state)            \
	N("link_down_default_state", link_down_default_state, 33, 1, 0, 4)                         \
	N("m_key_protect_bits", m_key_protect_bits, 34, 1, 6, 2)                                   \
	N("lmc", lmc, 34, 1, 0, 3)                                                                 \
	N("link_speed_active", link_speed_active, 35, 1, 4, 4, .vname = vn_link_speed)             \
	N("link_speed_enabled", link_speed_enabled, 35, 1, 0, 4, HEX(1))                           \
	N("neighbor_mtu", neighbor_mtu, 36, 1, 4, 4, .vname = vn_mtu)                              \
	N("master_sm_sl", master_sm_sl, 36, 1, 0, 4)                                               \
	N("vl_cap", vl_cap, 37, 1, 4, 4)                                                           \
	N("init_type", init_type, 37, 1, 0, 4, HEX(1))                                             \
	N("vl_high_limit", vl_high_limit, 38, 1, 0, 8)                                             \
	N("vl_arbitration_high_cap", vl_arbitration_high_cap, 39, 1, 0, 8)                         \
	N("vl_arbitration_low_cap", vl_arbitration_low_cap, 40, 1, 0, 8)                           \
	N("init_type_reply", init_type_reply, 41, 1, 4, 4, HEX(1))                                 \
	N("mtu_cap", mtu_cap, 41, 1, 0, 4, .vname = vn_mtu)                                        \
	N("vl_stall_count", vl_stall_count, 42, 1, 5, 3)                                           \
	N("hoq_life", hoq_life, 42, 1, 0, 5)                                                       \
	N("operational_vls", operational_vls, 43, 1, 4, 4)                                         \
	N("partition_enforcement_inbound", partition_enforcement_inbound, 43, 1, 3, 1,             \
	  .type = RW_FT_FLAG)                                                                      \
	N("partition_enforcement_outbound", partition_enforcement_outbound, 43, 1, 2, 1,           \
	  .type = RW_FT_FLAG)                                                                      \
	N("filter_raw_inbound", filter_raw_inbound, 43, 1, 1, 1, .type = RW_FT_FLAG)               \
	N("filter_raw_outbound", filter_raw_outbound, 43, 1, 0, 1, .type = RW_FT_FLAG)             \
	N("m_key_violations", m_key_violations, 44, 2, 0, 16)                                      \
	N("pkey_violations", pkey_violations, 46, 2, 0, 16)                                        \
	N("qkey_violations", qkey_violations, 48, 2, 0, 16)                                        \
	N("guid_cap", guid_cap, 50, 1, 0, 8)                                                       \
	N("client_reregister", client_reregister, 51, 1, 7, 1, .type = RW_FT_FLAG)                 \
	N("multicast_pkey_trap_suppression", multicast_pkey_trap_suppression, 51, 1, 5, 2)         \
	N("subnet_timeout", subnet_timeout, 51, 1, 0, 5)                                           \
	N("resp_time_value", resp_time_value, 52, 1, 0, 5)                                         \
	N("local_phy_errors", local_phy_errors, 53, 1, 4, 4)                                       \
	N("overrun_errors", overrun_errors, 53, 1, 0, 4)                                           \
	N("max_credit_hint", max_credit_hint, 54, 2, 0, 16)                                        \
	N("link_round_trip_latency", link_round_trip_latency, 57, 3, 0, 24)                        \
	N("capability_mask2", capability_mask2, 60, 2, 0, 16, HEX(4))                              \
	N("link_speed_ext_active", link_speed_ext_active, 62, 1, 4, 4, .vname = vn_link_speed_ext) \
	N("link_speed_ext_supported", link_speed_ext_supported, 62, 1, 0, 4, HEX(1))               \
	N("link_speed_ext_enabled", link_speed_ext_enabled, 63, 1, 0, 5, HEX(2))
#define RW_PORT_INFO_LEN 64

/* IBA 14.2.5.7 (P_KeyTable): a block of 32 P_Keys, membership in bit 15. */
#define RW_PKEY_ROW_(N, i) N("pkey_" #i, pkey[i], 2 * (i), 2, 0, 16, HEX(4))
#define RW_PKEY_TABLE_ROWS(N, B)                                                                   \
	RW_PKEY_ROW_(N, 0) RW_PKEY_ROW_(N, 1) RW_PKEY_ROW_(N, 2) RW_PKEY_ROW_(N, 3)               \
	RW_PKEY_ROW_(N, 4) RW_PKEY_ROW_(N, 5) RW_PKEY_ROW_(N, 6) RW_PKEY_ROW_(N, 7)               \
	RW_PKEY_ROW_(N, 8) RW_PKEY_ROW_(N, 9) RW_PKEY_ROW_(N, 10) RW_PKEY_ROW_(N, 11)             \
	RW_PKEY_ROW_(N, 12) RW_PKEY_ROW_(N, 13) RW_PKEY_ROW_(N, 14) RW_PKEY_ROW_(N, 15)           \
	RW_PKEY_ROW_(N, 16) RW_PKEY_ROW_(N, 17) RW_PKEY_ROW_(N, 18) RW_PKEY_ROW_(N, 19)           \
	RW_PKEY_ROW_(N, 20) RW_PKEY_ROW_(N, 21) RW_PKEY_ROW_(N, 22) RW_PKEY_ROW_(N, 23)           \
	RW_PKEY_ROW_(N, 24) RW_PKEY_ROW_(N, 25) RW_PKEY_ROW_(N, 26) RW_PKEY_ROW_(N, 27)           \
	RW_PKEY_ROW_(N, 28) RW_PKEY_ROW_(N, 29) RW_PKEY_ROW_(N, 30) RW_PKEY_ROW_(N, 31)
#define RW_PKEY_TABLE_LEN 64

/* IBA 14.2.5.13 (SMInfo). */
#define RW_SM_INFO_ROWS(N, B)                                                                      \
	N("guid", guid, 0, 8, 0, 64, HEX(16))                                                      \
	N("sm_key", sm_key, 8, 8, 0, 64, HEX(16))                                                  \
	N("act_count", act_count, 16, 4, 0, 32)                                                    \
	N("priority", priority, 20, 1, 4, 4)                                                       \
	N("sm_state", sm_state, 20, 1, 0, 4, .vname = vn_sm_state)
#define RW_SM_INFO_LEN 21

/* ---- SA records (IBA 15.2.5): offsets from the SA data (MAD byte 56) ---- */

/* IBA 15.2.5.2 (NodeRecord): the record ID, then a NodeInfo and a
 * NodeDescription (14.2.5.2: 64 bytes of UTF-8). */
#define RW_NR_NODE_INFO_(x) node_info.x
#define RW_NODE_RECORD_ROWS(N, B)                                                                  \
	N("lid", lid, 0, 2, 0, 16, HEX(4))                                                         \
	RW_NODE_INFO_AT(N, B, RW_NR_NODE_INFO_, 4)                                                 \
	B("node_description", node_description, 44, 64, BYTES)
#define RW_NODE_RECORD_LEN 108

/* IBA 15.2.5.14 (ServiceRecord). */
#define RW_SERVICE_RECORD_ROWS(N, B)                                                               \
	N("service_id", service_id, 0, 8, 0, 64, HEX(16))                                          \
	B("service_gid", service_gid, 8, 16, IPV6)                                                 \
	N("service_pkey", service_pkey, 24, 2, 0, 16, HEX(4))                                      \
	N("service_lease", service_lease, 28, 4, 0, 32)                                            \
	B("service_key", service_key, 32, 16, BYTES)                                               \
	B("service_name", service_name, 48, 64, BYTES)                                             \
	B("service_data8", service_data8, 112, 16, BYTES)                                          \
	B("service_data16", service_data16, 128, 16, BYTES)                                        \
	B("service_data32", service_data32, 144, 16, BYTES)                                        \
	B("service_data64", service_data64, 160, 16, BYTES)
#define RW_SERVICE_RECORD_LEN 176

/* IBA 15.2.5.17 (MCMemberRecord). */
#define RW_MC_MEMBER_RECORD_ROWS(N, B)                                                             \
	B("mgid", mgid, 0, 16, IPV6)                                                               \
	B("port_gid", port_gid, 16, 16, IPV6)                                                      \
	N("qkey", qkey, 32, 4, 0, 32, HEX(8))                                                      \
	N("mlid", mlid, 36, 2, 0, 16, HEX(4))                                                      \
	N("mtu_selector", mtu_selector, 38, 1, 6, 2)                                               \
	N("mtu", mtu, 38, 1, 0, 6, .vname = vn_mtu)                                                \
	N("tclass", tclass, 39, 1, 0, 8)                                                           \
	N("pkey", pkey, 40, 2, 0, 16, HEX(4))                                                      \
	N("rate_selector", rate_selector, 42, 1, 6, 2)                                             \
	N("rate", rate, 42, 1, 0, 6)                                                               \
	N("packet_life_time_selector", packet_life_time_selector, 43, 1, 6, 2)                     \
	N("packet_life_time", packet_life_time, 43, 1, 0, 6)                                       \
	N("sl", sl, 44, 1, 4, 4)                                                                   \
	N("flow_label", flow_label, 44, 4, 8, 20, HEX(5))                                          \
	N("hop_limit", hop_limit, 47, 1, 0, 8)                                                     \
	N("scope", scope, 48, 1, 4, 4)                                                             \
	N("join_state", join_state, 48, 1, 0, 4, HEX(1))                                           \
	N("proxy_join", proxy_join, 49, 1, 7, 1, .type = RW_FT_FLAG)
#define RW_MC_MEMBER_RECORD_LEN 52

/* ---- PerfMgt (IBA 16.1): offsets from the PerfMgt data (MAD byte 64) ---- */

/* IBA 16.1.4.11 (PortCountersExtended): the 64-bit counters. */
#define RW_PORT_COUNTERS_EXT_ROWS(N, B)                                                            \
	N("port_select", port_select, 1, 1, 0, 8)                                                  \
	N("counter_select", counter_select, 2, 2, 0, 16, HEX(4))                                   \
	N("port_xmit_data", port_xmit_data, 8, 8, 0, 64)                                           \
	N("port_rcv_data", port_rcv_data, 16, 8, 0, 64)                                            \
	N("port_xmit_pkts", port_xmit_pkts, 24, 8, 0, 64)                                          \
	N("port_rcv_pkts", port_rcv_pkts, 32, 8, 0, 64)                                            \
	N("port_unicast_xmit_pkts", port_unicast_xmit_pkts, 40, 8, 0, 64)                          \
	N("port_unicast_rcv_pkts", port_unicast_rcv_pkts, 48, 8, 0, 64)                            \
	N("port_multicast_xmit_pkts", port_multicast_xmit_pkts, 56, 8, 0, 64)                      \
	N("port_multicast_rcv_pkts", port_multicast_rcv_pkts, 64, 8, 0, 64)
#define RW_PORT_COUNTERS_EXT_LEN 72

#endif
