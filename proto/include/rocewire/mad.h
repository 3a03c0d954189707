/* SPDX-License-Identifier: BSD-3-Clause */
/* Management datagrams (IBA 13.4): the 256-byte payload of a UD SEND to
 * QP 0 (subnet management) or QP 1 (GSI: SA, PerfMgt, CM, ...), over native
 * IB and over RoCEv2 alike.
 *
 * rw_mad_decode() reads the common header (IBA 13.4.3), the class's own
 * header (SMP 14.2.1, SA/RMPP 13.6.2 and 15.2.1, PerfMgt 16.1.1), every
 * Communication Management message (IBA 12.6) and the attribute payloads
 * ClassPortInfo (13.4.8.1); the SMP attributes NodeInfo (14.2.5.3),
 * SwitchInfo (14.2.5.4), GUIDInfo (14.2.5.5), PortInfo (14.2.5.6),
 * P_KeyTable (14.2.5.7) and SMInfo (14.2.5.13); the SA records NodeRecord
 * (15.2.5.2), ServiceRecord (15.2.5.14), PathRecord (15.2.5.16) and
 * MCMemberRecord (15.2.5.17); PerfMgt's PortCounters (16.1.3.5) and
 * PortCountersExtended (16.1.4.11). Nothing is allocated: attribute data that is not decoded is
 * pointed at in the caller's buffer.
 *
 * The encoders write a whole MAD into the caller's buffer, reserved bits
 * zero: rw_mad_encode() for any decoded MAD, rw_cm_encode() and the
 * rw_cm_*_encode() wrappers for a CM handshake's messages (the generator's
 * and the tests' connection set-up). Decode and encode read the same layout
 * rows, which the field tables (fields.h: "mad", "cm") are also made from. */
#ifndef ROCEWIRE_MAD_H
#define ROCEWIRE_MAD_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_MAD_LEN 256     /* IBA 13.4.2: every MAD is 256 bytes */
#define RW_MAD_HDR_LEN 24  /* the common header */
#define RW_CM_DATA_LEN 232 /* a CM message after the common header (IBA 12.6) */
#define RW_MAD_BASE_VERSION 1
#define RW_CM_CLASS_VERSION 2 /* IBA 12.6.1 */
#define RW_QP0 0
#define RW_QP1 1
#define RW_GSI_QKEY 0x80010000u /* IBA 13.5.2: the well-known Q_Key of QP 1 */

/* Management classes (IBA 13.4.4: rw_mad_class_name names them). */
enum rw_mgmt_class {
	RW_MGMT_SUBN_LID = 0x01, /* subnet management, LID routed (QP 0) */
	RW_MGMT_SA = 0x03,       /* subnet administration */
	RW_MGMT_PERF = 0x04,     /* performance management */
	RW_MGMT_BM = 0x05,       /* baseboard management */
	RW_MGMT_DEV = 0x06,      /* device management */
	RW_MGMT_CM = 0x07,       /* communication management */
	RW_MGMT_SNMP = 0x08,     /* SNMP tunneling */
	RW_MGMT_CC = 0x21,       /* congestion control (IBA A10.4) */
	RW_MGMT_SUBN_DR = 0x81,  /* subnet management, directed route (QP 0) */
};

/* Methods (IBA 13.4.5), with the R bit (bit 7: a response) included, as
 * the spec names them: GetResp is 0x81. */
enum rw_mad_method {
	RW_METHOD_GET = 0x01,
	RW_METHOD_SET = 0x02,
	RW_METHOD_SEND = 0x03,
	RW_METHOD_TRAP = 0x05,
	RW_METHOD_REPORT = 0x06,
	RW_METHOD_TRAP_REPRESS = 0x07,
	RW_METHOD_GET_TABLE = 0x12,      /* SA (IBA 15.4.1) */
	RW_METHOD_GET_TRACE_TABLE = 0x13,
	RW_METHOD_GET_MULTI = 0x14,
	RW_METHOD_DELETE = 0x15,
	RW_METHOD_GET_RESP = 0x81,
	RW_METHOD_REPORT_RESP = 0x86,
	RW_METHOD_GET_TABLE_RESP = 0x92,
	RW_METHOD_GET_MULTI_RESP = 0x94,
	RW_METHOD_DELETE_RESP = 0x95,
};
#define RW_METHOD_R 0x80 /* the response bit of the method byte */

/* Attributes every class shares (IBA 13.4.8) and the CM messages' IDs
 * (IBA 12.6.1). */
#define RW_ATTR_CLASS_PORT_INFO 0x0001
#define RW_ATTR_NOTICE 0x0002
#define RW_ATTR_INFORM_INFO 0x0003
#define RW_ATTR_PORT_COUNTERS 0x0012 /* PerfMgt (IBA 16.1.2) */
#define RW_ATTR_PORT_COUNTERS_EXT 0x001D
#define RW_ATTR_NODE_INFO 0x0011     /* SMP (IBA 14.2.5) */
#define RW_ATTR_SWITCH_INFO 0x0012
#define RW_ATTR_GUID_INFO 0x0014
#define RW_ATTR_PORT_INFO 0x0015
#define RW_ATTR_PKEY_TABLE 0x0016
#define RW_ATTR_SM_INFO 0x0020
#define RW_ATTR_NODE_RECORD 0x0011   /* SA (IBA 15.2.5) */
#define RW_ATTR_SERVICE_RECORD 0x0031
#define RW_ATTR_PATH_RECORD 0x0035
#define RW_ATTR_MC_MEMBER_RECORD 0x0038

enum rw_cm_msg {
	RW_CM_NONE = 0, /* not a CM message (ClassPortInfo, other classes) */
	RW_CM_REQ = 0x0010,      /* ConnectRequest */
	RW_CM_MRA = 0x0011,      /* MsgRcptAck */
	RW_CM_REJ = 0x0012,      /* ConnectReject */
	RW_CM_REP = 0x0013,      /* ConnectReply */
	RW_CM_RTU = 0x0014,      /* ReadyToUse */
	RW_CM_DREQ = 0x0015,     /* DisconnectRequest */
	RW_CM_DREP = 0x0016,     /* DisconnectReply */
	RW_CM_SIDR_REQ = 0x0017, /* ServiceIDResReq */
	RW_CM_SIDR_REP = 0x0018, /* ServiceIDResReqResp */
	RW_CM_LAP = 0x0019,      /* LoadAlternatePath */
	RW_CM_APR = 0x001A,      /* AlternatePathResponse */
};

/* The common MAD header (IBA 13.4.3), bytes 0-23. */
struct rw_mad_hdr {
	uint8_t base_version;   /* 1 */
	uint8_t mgmt_class;     /* enum rw_mgmt_class */
	uint8_t class_version;
	uint8_t method;         /* enum rw_mad_method: R bit (7) and method (6:0) */
	uint16_t status;        /* SMP directed route: D bit (15) and status (14:0) */
	uint16_t class_specific; /* SMP directed route: hop pointer, hop count */
	uint64_t tid;           /* transaction ID */
	uint16_t attr_id;
	uint16_t resv;
	uint32_t attr_mod;      /* attribute modifier */
};

/* Subnet management packet (IBA 14.2.1.1 LID routed, 14.2.1.2 directed
 * route): bytes 24-255. */
struct rw_smp {
	uint64_t m_key;
	uint8_t d;           /* directed route: direction (1: returning) */
	uint16_t dr_status;  /* directed route: the header's status without D */
	uint8_t hop_pointer; /* directed route */
	uint8_t hop_count;
	uint16_t dr_slid;
	uint16_t dr_dlid;
	uint8_t initial_path[64];
	uint8_t return_path[64];
};

/* RMPP header (IBA 13.6.2.1) and the SA header (15.2.1.1): bytes 24-55. */
struct rw_sa {
	uint8_t rmpp_version;
	uint8_t rmpp_type;      /* 0 none, 1 DATA, 2 ACK, 3 STOP, 4 ABORT */
	uint8_t rresp_time;     /* 5 bits */
	uint8_t rmpp_flags;     /* 3 bits: Active, First, Last */
	uint8_t rmpp_status;
	uint32_t data1;         /* DATA: segment number */
	uint32_t data2;         /* DATA: payload length */
	uint64_t sm_key;
	uint16_t attr_offset;   /* in 8-byte words, GetTable responses */
	uint64_t comp_mask;     /* component mask */
};

/* ---- CM messages (IBA 12.6.5-12.6.11, 12.11) ---------------------------- */

struct rw_cm_path {
	uint16_t local_lid;
	uint16_t remote_lid;
	uint8_t local_gid[16];
	uint8_t remote_gid[16];
	uint32_t flow_label;  /* 20 bits */
	uint8_t packet_rate;  /* 6 bits */
	uint8_t traffic_class;
	uint8_t hop_limit;
	uint8_t sl;           /* 4 bits */
	uint8_t subnet_local; /* 1 bit */
	uint8_t local_ack_timeout; /* 5 bits */
};

struct rw_cm_req { /* IBA 12.6.5 */
	uint32_t local_comm_id;
	uint64_t service_id;
	uint64_t local_ca_guid;
	uint32_t local_qkey;
	uint32_t local_qpn;          /* 24 bits */
	uint8_t responder_resources;
	uint32_t local_eecn;         /* 24 bits */
	uint8_t initiator_depth;
	uint32_t remote_eecn;        /* 24 bits */
	uint8_t remote_cm_response_timeout; /* 5 bits */
	uint8_t transport_service_type;     /* 2 bits: 0 RC, 1 UC, 2 RD, 3 XRC (ext) */
	uint8_t e2e_flow_control;
	uint32_t starting_psn;       /* 24 bits */
	uint8_t local_cm_response_timeout; /* 5 bits */
	uint8_t retry_count;         /* 3 bits */
	uint16_t pkey;
	uint8_t path_mtu;            /* 4 bits: 1 256 .. 5 4096 */
	uint8_t rdc_exists;
	uint8_t rnr_retry_count;     /* 3 bits */
	uint8_t max_cm_retries;      /* 4 bits */
	uint8_t srq;
	uint8_t ext_transport_type;  /* 3 bits */
	struct rw_cm_path primary;
	struct rw_cm_path alternate;
	uint8_t sap_supported;
	uint8_t private_data[92];
};

struct rw_cm_mra { /* IBA 12.6.6 */
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t message_mraed;   /* 2 bits: 0 REQ, 1 REP, 2 LAP */
	uint8_t service_timeout; /* 5 bits */
	uint8_t private_data[222];
};

struct rw_cm_rej { /* IBA 12.6.7 */
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t message_rejected; /* 2 bits: 0 REQ, 1 REP, 2 other */
	uint8_t reject_info_length; /* 7 bits */
	uint16_t reason;          /* rw_cm_rej_reason_name() */
	uint8_t ari[72];          /* additional reject information */
	uint8_t private_data[148];
};

struct rw_cm_rep { /* IBA 12.6.8 */
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint32_t local_qkey;
	uint32_t local_qpn;      /* 24 bits */
	uint32_t local_eecn;     /* 24 bits */
	uint32_t starting_psn;   /* 24 bits */
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t target_ack_delay;  /* 5 bits */
	uint8_t failover_accepted; /* 2 bits */
	uint8_t e2e_flow_control;
	uint8_t rnr_retry_count;   /* 3 bits */
	uint8_t srq;
	uint64_t local_ca_guid;
	uint8_t private_data[196];
};

/* RTU, DREP: the two comm IDs and private data (IBA 12.6.9, 12.6.11). */
struct rw_cm_rtu {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t private_data[224];
};

struct rw_cm_dreq { /* IBA 12.6.10 */
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint32_t remote_qpn;     /* 24 bits: remote QPN/EECN */
	uint8_t private_data[220];
};

struct rw_cm_lap { /* IBA 12.8.1 */
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint32_t remote_qpn;     /* 24 bits */
	uint8_t remote_cm_response_timeout; /* 5 bits */
	struct rw_cm_path alternate;
	uint8_t private_data[168];
};

struct rw_cm_apr { /* IBA 12.8.2 */
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t additional_info_length;
	uint8_t ap_status;
	uint8_t additional_info[72];
	uint8_t private_data[148];
};

struct rw_cm_sidr_req { /* IBA 12.11.1 */
	uint32_t request_id;
	uint16_t pkey;
	uint64_t service_id;
	uint8_t private_data[216];
};

struct rw_cm_sidr_rep { /* IBA 12.11.2 */
	uint32_t request_id;
	uint8_t status;          /* 0 valid, 1 SID not supported, ... */
	uint8_t additional_info_length;
	uint32_t qpn;            /* 24 bits */
	uint64_t service_id;
	uint32_t qkey;
	uint8_t additional_info[72];
	uint8_t private_data[136];
};

struct rw_cm {
	enum rw_cm_msg msg; /* the attribute ID; RW_CM_NONE for ClassPortInfo */
	union {
		struct rw_cm_req req;
		struct rw_cm_mra mra;
		struct rw_cm_rej rej;
		struct rw_cm_rep rep;
		struct rw_cm_rtu rtu;
		struct rw_cm_rtu drep; /* DREP has RTU's layout */
		struct rw_cm_dreq dreq;
		struct rw_cm_lap lap;
		struct rw_cm_apr apr;
		struct rw_cm_sidr_req sidr_req;
		struct rw_cm_sidr_rep sidr_rep;
	} u;
};

/* ---- attribute payloads ------------------------------------------------- */

struct rw_class_port_info { /* IBA 13.4.8.1, 72 bytes */
	uint8_t base_version;
	uint8_t class_version;
	uint16_t capability_mask;
	uint32_t capability_mask2; /* 27 bits */
	uint8_t resp_time_value;   /* 5 bits */
	uint8_t redirect_gid[16];
	uint8_t redirect_tc;
	uint8_t redirect_sl;       /* 4 bits */
	uint32_t redirect_fl;      /* 20 bits */
	uint16_t redirect_lid;
	uint16_t redirect_pkey;
	uint32_t redirect_qp;      /* 24 bits */
	uint32_t redirect_qkey;
	uint8_t trap_gid[16];
	uint8_t trap_tc;
	uint8_t trap_sl;           /* 4 bits */
	uint32_t trap_fl;          /* 20 bits */
	uint16_t trap_lid;
	uint16_t trap_pkey;
	uint8_t trap_hl;
	uint32_t trap_qp;          /* 24 bits */
	uint32_t trap_qkey;
};

struct rw_port_counters { /* IBA 16.1.3.5, PerfMgt attribute 0x0012 */
	uint8_t port_select;
	uint16_t counter_select;
	uint16_t symbol_error_counter;
	uint8_t link_error_recovery_counter;
	uint8_t link_downed_counter;
	uint16_t port_rcv_errors;
	uint16_t port_rcv_remote_physical_errors;
	uint16_t port_rcv_switch_relay_errors;
	uint16_t port_xmit_discards;
	uint8_t port_xmit_constraint_errors;
	uint8_t port_rcv_constraint_errors;
	uint8_t counter_select2;
	uint8_t local_link_integrity_errors;      /* 4 bits */
	uint8_t excessive_buffer_overrun_errors;  /* 4 bits */
	uint16_t vl15_dropped;
	uint32_t port_xmit_data; /* in 4-byte words */
	uint32_t port_rcv_data;
	uint32_t port_xmit_pkts;
	uint32_t port_rcv_pkts;
	uint32_t port_xmit_wait;
};

struct rw_path_record { /* IBA 15.2.5.16, SA attribute 0x0035, 64 bytes */
	uint64_t service_id;    /* bytes 0-7 (reserved before IBA 1.2) */
	uint8_t dgid[16];
	uint8_t sgid[16];
	uint16_t dlid;
	uint16_t slid;
	uint8_t raw_traffic;
	uint32_t flow_label;    /* 20 bits */
	uint8_t hop_limit;
	uint8_t tclass;
	uint8_t reversible;
	uint8_t numb_path;      /* 7 bits */
	uint16_t pkey;
	uint16_t qos_class;     /* 12 bits */
	uint8_t sl;             /* 4 bits */
	uint8_t mtu_selector;   /* 2 bits */
	uint8_t mtu;            /* 6 bits */
	uint8_t rate_selector;
	uint8_t rate;
	uint8_t packet_life_time_selector;
	uint8_t packet_life_time;
	uint8_t preference;
};

/* ---- SMP attributes (IBA 14.2.5): the SMP's 64 data bytes --------------- */

struct rw_node_info { /* IBA 14.2.5.3, 40 bytes */
	uint8_t base_version;
	uint8_t class_version;
	uint8_t node_type;         /* 1 CA, 2 switch, 3 router */
	uint8_t num_ports;
	uint64_t system_image_guid;
	uint64_t node_guid;
	uint64_t port_guid;
	uint16_t partition_cap;
	uint16_t device_id;
	uint32_t revision;
	uint8_t local_port_num;
	uint32_t vendor_id;        /* 24 bits */
};

struct rw_switch_info { /* IBA 14.2.5.4 */
	uint16_t linear_fdb_cap;
	uint16_t random_fdb_cap;
	uint16_t multicast_fdb_cap;
	uint16_t linear_fdb_top;
	uint8_t default_port;
	uint8_t default_multicast_primary_port;
	uint8_t default_multicast_not_primary_port;
	uint8_t life_time_value;   /* 5 bits */
	uint8_t port_state_change; /* 1 bit */
	uint8_t optimized_sl_to_vl_mapping_programming; /* 2 bits */
	uint16_t lids_per_port;
	uint16_t partition_enforcement_cap;
	uint8_t inbound_enforcement_cap;  /* 1 bit each, down to enhanced_port_zero */
	uint8_t outbound_enforcement_cap;
	uint8_t filter_raw_inbound_cap;
	uint8_t filter_raw_outbound_cap;
	uint8_t enhanced_port_zero;
	uint16_t multicast_fdb_top;
};

struct rw_guid_info { /* IBA 14.2.5.5: the block the attribute modifier names */
	uint64_t guid[8];
};

struct rw_port_info { /* IBA 14.2.5.6, 64 bytes */
	uint64_t m_key;
	uint64_t gid_prefix;
	uint16_t lid;
	uint16_t master_sm_lid;
	uint32_t capability_mask;
	uint16_t diag_code;
	uint16_t m_key_lease_period;
	uint8_t local_port_num;
	uint8_t link_width_enabled;
	uint8_t link_width_supported;
	uint8_t link_width_active;       /* 1 1x, 2 4x, 4 8x, 8 12x, 16 2x */
	uint8_t link_speed_supported;    /* 4 bits */
	uint8_t port_state;              /* 4 bits: 1 Down, 2 Init, 3 Armed, 4 Active */
	uint8_t port_phys_state;         /* 4 bits: 2 Polling, 3 Disabled, 5 LinkUp, ... */
	uint8_t link_down_default_state; /* 4 bits */
	uint8_t m_key_protect_bits;      /* 2 bits */
	uint8_t lmc;                     /* 3 bits */
	uint8_t link_speed_active;       /* 4 bits: 1 SDR, 2 DDR, 4 QDR */
	uint8_t link_speed_enabled;      /* 4 bits */
	uint8_t neighbor_mtu;            /* 4 bits: 1 256 .. 5 4096 */
	uint8_t master_sm_sl;            /* 4 bits */
	uint8_t vl_cap;                  /* 4 bits */
	uint8_t init_type;               /* 4 bits */
	uint8_t vl_high_limit;
	uint8_t vl_arbitration_high_cap;
	uint8_t vl_arbitration_low_cap;
	uint8_t init_type_reply;         /* 4 bits */
	uint8_t mtu_cap;                 /* 4 bits */
	uint8_t vl_stall_count;          /* 3 bits */
	uint8_t hoq_life;                /* 5 bits */
	uint8_t operational_vls;         /* 4 bits */
	uint8_t partition_enforcement_inbound;  /* 1 bit each, to filter_raw_outbound */
	uint8_t partition_enforcement_outbound;
	uint8_t filter_raw_inbound;
	uint8_t filter_raw_outbound;
	uint16_t m_key_violations;
	uint16_t pkey_violations;
	uint16_t qkey_violations;
	uint8_t guid_cap;
	uint8_t client_reregister;       /* 1 bit */
	uint8_t multicast_pkey_trap_suppression; /* 2 bits */
	uint8_t subnet_timeout;          /* 5 bits */
	uint8_t resp_time_value;         /* 5 bits */
	uint8_t local_phy_errors;        /* 4 bits */
	uint8_t overrun_errors;          /* 4 bits */
	uint16_t max_credit_hint;
	uint32_t link_round_trip_latency; /* 24 bits */
	uint16_t capability_mask2;       /* IBA 1.3 */
	uint8_t link_speed_ext_active;   /* 4 bits: 1 FDR, 2 EDR */
	uint8_t link_speed_ext_supported; /* 4 bits */
	uint8_t link_speed_ext_enabled;  /* 5 bits */
};

struct rw_pkey_table { /* IBA 14.2.5.7: the block the attribute modifier names */
	uint16_t pkey[32]; /* bit 15: full member */
};

struct rw_sm_info { /* IBA 14.2.5.13 */
	uint64_t guid;
	uint64_t sm_key;
	uint32_t act_count;
	uint8_t priority; /* 4 bits */
	uint8_t sm_state; /* 4 bits: 0 NotActive, 1 Discovering, 2 Standby, 3 Master */
};

/* ---- SA records (IBA 15.2.5): at the SA data (byte 56) ------------------ */

struct rw_node_record { /* IBA 15.2.5.2, 108 bytes */
	uint16_t lid;
	struct rw_node_info node_info;
	uint8_t node_description[64]; /* UTF-8, NUL-padded (IBA 14.2.5.2) */
};

struct rw_service_record { /* IBA 15.2.5.14, 176 bytes */
	uint64_t service_id;
	uint8_t service_gid[16];
	uint16_t service_pkey;
	uint32_t service_lease;
	uint8_t service_key[16];
	uint8_t service_name[64];   /* UTF-8, NUL-padded */
	uint8_t service_data8[16];  /* 16 8-bit values */
	uint8_t service_data16[16]; /* 8 16-bit values, big-endian */
	uint8_t service_data32[16]; /* 4 32-bit values */
	uint8_t service_data64[16]; /* 2 64-bit values */
};

struct rw_mc_member_record { /* IBA 15.2.5.17, 52 bytes */
	uint8_t mgid[16];
	uint8_t port_gid[16];
	uint32_t qkey;
	uint16_t mlid;
	uint8_t mtu_selector;  /* 2 bits */
	uint8_t mtu;           /* 6 bits */
	uint8_t tclass;
	uint16_t pkey;
	uint8_t rate_selector; /* 2 bits */
	uint8_t rate;          /* 6 bits */
	uint8_t packet_life_time_selector; /* 2 bits */
	uint8_t packet_life_time;          /* 6 bits */
	uint8_t sl;            /* 4 bits */
	uint32_t flow_label;   /* 20 bits */
	uint8_t hop_limit;
	uint8_t scope;         /* 4 bits */
	uint8_t join_state;    /* 4 bits: full, non-, send-only non-member */
	uint8_t proxy_join;    /* 1 bit */
};

/* ---- PerfMgt (IBA 16.1): at the PerfMgt data (byte 64) ------------------ */

struct rw_port_counters_ext { /* IBA 16.1.4.11, PerfMgt attribute 0x001D */
	uint8_t port_select;
	uint16_t counter_select;
	uint64_t port_xmit_data; /* in 4-byte words */
	uint64_t port_rcv_data;
	uint64_t port_xmit_pkts;
	uint64_t port_rcv_pkts;
	uint64_t port_unicast_xmit_pkts;
	uint64_t port_unicast_rcv_pkts;
	uint64_t port_multicast_xmit_pkts;
	uint64_t port_multicast_rcv_pkts;
};

/* Which attribute payload rw_mad_decode() filled in struct rw_mad.attr.
 * The field tables (fields.h) follow this order from RW_HD_CLASS_PORT_INFO. */
enum rw_mad_attr_kind {
	RW_MAD_ATTR_NONE = 0,
	RW_MAD_ATTR_CLASS_PORT_INFO, /* attr.cpi: any class but SMP */
	RW_MAD_ATTR_PORT_COUNTERS,   /* attr.pc: PerfMgt */
	RW_MAD_ATTR_PATH_RECORD,     /* attr.pr: SA */
	RW_MAD_ATTR_NODE_INFO,       /* attr.ni: SMP, LID routed or directed route */
	RW_MAD_ATTR_SWITCH_INFO,     /* attr.swi: SMP */
	RW_MAD_ATTR_GUID_INFO,       /* attr.gi: SMP */
	RW_MAD_ATTR_PORT_INFO,       /* attr.pi: SMP */
	RW_MAD_ATTR_PKEY_TABLE,      /* attr.pkt: SMP */
	RW_MAD_ATTR_SM_INFO,         /* attr.smi: SMP */
	RW_MAD_ATTR_NODE_RECORD,     /* attr.nr: SA */
	RW_MAD_ATTR_SERVICE_RECORD,  /* attr.sr: SA */
	RW_MAD_ATTR_MC_MEMBER_RECORD, /* attr.mcm: SA */
	RW_MAD_ATTR_PORT_COUNTERS_EXT, /* attr.pce: PerfMgt */
};
#define RW_MAD_ATTR_KINDS (RW_MAD_ATTR_PORT_COUNTERS_EXT + 1)

struct rw_mad {
	struct rw_mad_hdr hdr;
	union {
		struct rw_smp smp; /* RW_MGMT_SUBN_LID, RW_MGMT_SUBN_DR */
		struct rw_sa sa;   /* RW_MGMT_SA */
		struct rw_cm cm;   /* RW_MGMT_CM */
	} u;
	enum rw_mad_attr_kind attr_kind;
	union {
		struct rw_class_port_info cpi;
		struct rw_port_counters pc;
		struct rw_path_record pr;
		struct rw_node_info ni;
		struct rw_switch_info swi;
		struct rw_guid_info gi;
		struct rw_port_info pi;
		struct rw_pkey_table pkt;
		struct rw_sm_info smi;
		struct rw_node_record nr;
		struct rw_service_record sr;
		struct rw_mc_member_record mcm;
		struct rw_port_counters_ext pce;
	} attr;
	/* The class's data area in the decoded buffer (SMP data, SA data,
	 * PerfMgt data, CM message): rw_mad_encode() copies it when no
	 * payload was decoded. */
	const uint8_t *data;
	uint16_t data_off; /* its offset in the MAD */
	uint16_t data_len;
};

/* What a frame's decode keeps of a MAD (struct rw_packet.mad): the common
 * header, and of a CM message captured whole what the engine pairs
 * connections with. */
struct rw_mad_brief {
	struct rw_mad_hdr hdr;
	uint16_t cm_msg;         /* enum rw_cm_msg; RW_CM_NONE when not CM or cut */
	uint16_t rej_reason;     /* REJ */
	uint32_t local_comm_id;  /* REQ..APR; SIDR: the request ID */
	uint32_t remote_comm_id;
	uint32_t qpn;            /* REQ, REP: local QPN; DREQ: remote QPN; SIDR_REP: QPN */
	uint32_t starting_psn;   /* REQ, REP */
	uint8_t path_mtu;        /* REQ: 1 (256) .. 5 (4096) */
	uint8_t msg_ref;         /* MRA: message MRAed; REJ: message rejected */
	uint8_t service_timeout; /* MRA */
	uint8_t transport;       /* REQ: transport service type */
};

/* Fills *out from the MAD at buf (len bytes captured of it): the header
 * when 24 bytes were captured (TRUNCATED otherwise), a CM message's fields
 * when all 256 were. */
enum rw_err rw_mad_brief_decode(const uint8_t *buf, size_t len, struct rw_mad_brief *out);
/* The words a MAD's method is shown with: Wireshark's "SubnGet",
 * "SubnAdmGetTableResp", "PerfGet" (the class's prefix, then the method's
 * name), into buf; returns buf. */
const char *rw_mad_method_text(uint8_t mgmt_class, uint8_t method, char *buf, size_t cap);

/* Decodes the 256-byte MAD at buf. TRUNCATED when len < 256; UNSUPPORTED
 * for a base version other than 1, a class this library does not decode
 * beyond the common header (out->hdr is filled), or an attribute ID the
 * CM class does not define. */
enum rw_err rw_mad_decode(const uint8_t *buf, size_t len, struct rw_mad *out);
/* The common header alone (24 bytes). */
enum rw_err rw_mad_hdr_decode(const uint8_t *buf, size_t len, struct rw_mad_hdr *out);
enum rw_err rw_mad_hdr_encode(const struct rw_mad_hdr *h, uint8_t *buf, size_t cap, size_t *written);

/* Writes the 256-byte MAD m describes: the common header, the class header
 * of SMP/SA/PerfMgt, the CM message (u.cm) or the decoded attribute
 * (attr_kind), else data_len bytes of data at data_off. INVALID when a field
 * overflows its width. */
enum rw_err rw_mad_encode(const struct rw_mad *m, uint8_t *buf, size_t cap, size_t *written);

/* A whole CM MAD: class CM version 2, method Send, attribute cm->msg,
 * transaction ID tid, then the message. */
enum rw_err rw_cm_encode(const struct rw_cm *cm, uint64_t tid, uint8_t *buf, size_t cap,
			 size_t *written);
enum rw_err rw_cm_req_encode(const struct rw_cm_req *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_mra_encode(const struct rw_cm_mra *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_rej_encode(const struct rw_cm_rej *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_rep_encode(const struct rw_cm_rep *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_rtu_encode(const struct rw_cm_rtu *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_dreq_encode(const struct rw_cm_dreq *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_drep_encode(const struct rw_cm_rtu *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_sidr_req_encode(const struct rw_cm_sidr_req *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_sidr_rep_encode(const struct rw_cm_sidr_rep *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_lap_encode(const struct rw_cm_lap *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_cm_apr_encode(const struct rw_cm_apr *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written);

/* The attribute payload rw_mad_decode() decodes for attribute attr_id of
 * class mgmt_class (RW_MAD_ATTR_NONE: the data is left as bytes). */
enum rw_mad_attr_kind rw_mad_attr_kind(uint8_t mgmt_class, uint16_t attr_id);

/* Where the class's data area starts in a MAD (24 for CM and unknown
 * classes, 56 for SA, 64 for SMP and PerfMgt). */
unsigned rw_mad_data_offset(uint8_t mgmt_class);

/* ---- names (IBA tables; NULL when the value has none) ------------------- */
const char *rw_mad_class_name(uint8_t mgmt_class);  /* "CM", "SubnAdm", ... */
const char *rw_mad_method_name(uint8_t method);     /* "Get", "GetResp", ... */
const char *rw_mad_attr_name(uint8_t mgmt_class, uint16_t attr_id); /* "PathRecord" */
const char *rw_cm_msg_name(uint16_t attr_id);       /* "REQ", "REP", ...: CM only */
const char *rw_cm_rej_reason_name(uint16_t reason); /* "Consumer Reject", ... */
const char *rw_rmpp_type_name(uint8_t type);        /* "DATA", "ACK", "STOP", "ABORT" */
/* IBA 9.6.1's MTU codes (a REQ's path MTU, PathRecord's, PortInfo's):
 * 1 256 .. 5 4096; 0 bytes and NULL for the others. */
uint32_t rw_mtu_bytes(unsigned code);
const char *rw_mtu_name(unsigned code);             /* "256" .. "4096" */
/* MRA's "Message MRAed" (12.6.6) and REJ's "Message REJected" (12.6.7):
 * 0 REQ, 1 REP, 2 LAP for an MRA and "other" for a REJ. */
const char *rw_cm_msg_ref_name(unsigned v, int mra);

static inline int rw_mad_is_response(uint8_t method)
{
	return (method & RW_METHOD_R) != 0;
}

#ifdef __cplusplus
}
#endif

#endif
