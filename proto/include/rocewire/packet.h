/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole-frame decode: walks the carriers of one captured frame down to the
 * IB transport headers and fills one struct rw_packet. */
#ifndef ROCEWIRE_PACKET_H
#define ROCEWIRE_PACKET_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/bth.h"
#include "rocewire/error.h"
#include "rocewire/eth.h"
#include "rocewire/ext.h"
#include "rocewire/grh.h"
#include "rocewire/ipv4.h"
#include "rocewire/ipv6.h"
#include "rocewire/link.h"
#include "rocewire/lrh.h"
#include "rocewire/macctrl.h"
#include "rocewire/mad.h"
#include "rocewire/opcode.h"
#include "rocewire/udp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_MAX_VLAN 4

enum rw_carrier {
	RW_CARRIER_OTHER = 0,
	RW_CARRIER_ROCEV2,
	RW_CARRIER_ROCEV1,
	RW_CARRIER_IB,
	RW_CARRIER_PFC,
	RW_CARRIER_PAUSE,
};
#define RW_CARRIER_COUNT 6

/* The layers a frame can hold, for error reports and present bits. */
enum rw_layer {
	RW_L_NONE = 0,
	RW_L_ERF,
	RW_L_SLL,
	RW_L_SLL2,
	RW_L_ETH,
	RW_L_VLAN,
	RW_L_MACCTRL,
	RW_L_IPV4,
	RW_L_IPV6,
	RW_L_IPV6_EXT, /* an IPv6 extension header: ipv6_ext.proto names it */
	RW_L_UDP,
	RW_L_LRH,
	RW_L_GRH,
	RW_L_BTH,
	RW_L_EXT,      /* an extension header: see err_hdr */
	RW_L_PAYLOAD,
	RW_L_ICRC,
	RW_L_VCRC,
};

/* Present bits (struct rw_packet.present). Extension headers are in .hdrs. */
#define RW_P_ERF (1u << 0)
#define RW_P_SLL (1u << 1)
#define RW_P_ETH (1u << 2)
#define RW_P_MACCTRL (1u << 3)
#define RW_P_IPV4 (1u << 4)
#define RW_P_IPV6 (1u << 5)
#define RW_P_UDP (1u << 6)
#define RW_P_LRH (1u << 7)
#define RW_P_GRH (1u << 8)
#define RW_P_BTH (1u << 9)
#define RW_P_ICRC (1u << 10)  /* the four ICRC bytes were captured */
#define RW_P_VCRC (1u << 11)  /* the two VCRC bytes were captured */
#define RW_P_SLL2 (1u << 12)
#define RW_P_MAD (1u << 13)   /* a management datagram: struct rw_packet.mad */
#define RW_P_IPOIB (1u << 14) /* an IPoIB payload: struct rw_packet.ipoib_type */

enum rw_crc_status {
	RW_CRC_NONE = 0, /* not present, or not captured (truncated) */
	RW_CRC_OK,
	RW_CRC_BAD,
};

struct rw_decode_cfg {
	uint16_t rocev2_port;   /* UDP destination port of RoCEv2; 0 means 4791 */
	uint8_t no_icrc_check;  /* skip ICRC/VCRC computation (status stays NONE) */
};

struct rw_packet {
	enum rw_carrier carrier;
	uint32_t present;       /* RW_P_* */
	uint16_t hdrs;          /* extension headers decoded (enum rw_hdr mask) */

	/* Why decoding stopped early; RW_OK when the frame was walked to its end. */
	enum rw_err err;
	enum rw_layer err_layer;
	enum rw_hdr err_hdr;    /* when err_layer is RW_L_EXT */
	uint32_t err_offset;    /* frame offset of the header that failed */
	uint32_t err_need;      /* bytes that header needed (truncation), or 0 */
	const char *err_what;   /* static phrase: what was wrong ("IP version is not 4") */

	uint32_t caplen;        /* bytes captured */
	uint32_t wirelen;       /* bytes on the wire */

	struct rw_erf erf;
	struct rw_sll sll;
	struct rw_eth eth;
	uint8_t n_vlan;
	struct rw_vlan vlan[RW_MAX_VLAN];
	struct rw_macctrl macctrl;
	struct rw_ipv4 ipv4;
	struct rw_ipv6 ipv6;        /* extension headers: ipv6_ext, last */
	struct rw_udp udp;
	struct rw_lrh lrh;
	struct rw_grh grh;
	struct rw_bth bth;
	const struct rw_opcode_info *op; /* set when the BTH was decoded */

	struct rw_rdeth rdeth;
	struct rw_deth deth;
	struct rw_xrceth xrceth;
	struct rw_feth feth;
	struct rw_reth reth;
	struct rw_atomiceth atomiceth;
	struct rw_aeth aeth;
	struct rw_atomicacketh atomicacketh;
	uint32_t immdt;
	uint32_t ieth;
	uint8_t cnp_nonzero;    /* a CNP's reserved bytes are not all zero */
	uint16_t ipoib_type;    /* RW_P_IPOIB: the ethertype of the IPoIB header */

	/* Frame offsets (valid when the layer is present). */
	uint16_t l2_off;        /* Ethernet (after SLL/ERF), or LRH for native IB */
	uint16_t l3_off;        /* IP header, GRH of RoCEv1 */
	uint16_t l4_off;        /* UDP header */
	uint16_t bth_off;
	uint16_t payload_off;
	uint16_t icrc_start;    /* first byte the ICRC covers: IP (v2), GRH (v1), LRH (IB) */
	uint32_t ib_len;        /* BTH through ICRC, from the carrier's length field */
	const uint8_t *payload; /* points into the frame; may be cut by snaplen */
	uint32_t payload_len;   /* on the wire, without pad */
	uint32_t payload_caplen;/* captured bytes of the payload */

	enum rw_crc_status icrc_status;
	uint32_t icrc_wire;     /* zlib-style values; see icrc.h */
	uint32_t icrc_computed;
	enum rw_crc_status vcrc_status;
	uint16_t vcrc_wire;
	uint16_t vcrc_computed;

	/* RW_P_MAD: what the line, the report and the engine read of a
	 * management datagram (a UD SEND_ONLY of 256 bytes to QP 0 or 1 whose
	 * common header was captured); rw_mad_decode() on payload gives the
	 * rest. Not zeroed with the rest: valid only with RW_P_MAD. */
	struct rw_mad_brief mad;

	/* The IPv6 extension headers walked (n 0 when next_header is UDP or
	 * an upper layer), from l3_off + 40 on; .proto is the protocol after
	 * them (next_header when there are none). Last, and not zeroed whole
	 * with the rest: the decoder clears n, proto, len and need, and type[]
	 * and hlen[] are meaningful for their first n entries only (zeroing the
	 * struct is a fixed cost of every decode, which the 30 bytes of the
	 * arrays would raise for every frame). */
	struct rw_ipv6_ext ipv6_ext;
};

/* Decodes one captured frame of the given pcap link type. Fills *out as far
 * as the frame goes and returns out->err. A frame that is not RoCE/IB/PFC is
 * not an error: it decodes as RW_CARRIER_OTHER with RW_OK (IPv4 and IPv6
 * fragments, and what follows ESP or AH, included: RoCE is never
 * fragmented, and IPsec is not decoded). IPv6 extension headers before UDP
 * are walked (rw_ipv6_ext_decode, RW_L_IPV6_EXT errors). A frame cut by
 * the snapshot length returns RW_ERR_TRUNCATED with the headers before the
 * cut filled in. cfg may be NULL for the defaults. Does not allocate. */
enum rw_err rw_packet_decode(const struct rw_decode_cfg *cfg, int linktype, const uint8_t *frame,
			     size_t caplen, size_t wirelen, struct rw_packet *out);

/* One sentence about why decoding stopped ("BTH truncated at byte 54: 12
 * bytes needed, 6 captured"), into buf; returns buf. Empty when err is OK. */
const char *rw_packet_error(const struct rw_packet *p, char *buf, size_t cap);
/* The same for a packet that did not decode, as a tool shows it: never
 * empty (the error's name when there is no sentence), and led by "cut by
 * snaplen to CAPLEN of WIRELEN bytes" when the capture's snapshot length is
 * why it is truncated. */
const char *rw_packet_problem(const struct rw_packet *p, size_t caplen, size_t wirelen, char *buf,
			      size_t cap);

const char *rw_carrier_name(enum rw_carrier c);  /* "rocev2", "rocev1", "ib", "pfc", "pause", "other" */
const char *rw_layer_name(enum rw_layer l);      /* "BTH", "IPv4", ... */
const char *rw_crc_status_name(enum rw_crc_status s); /* "ok", "bad", "none" */

#ifdef __cplusplus
}
#endif

#endif
