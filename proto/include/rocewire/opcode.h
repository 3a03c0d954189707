/* SPDX-License-Identifier: BSD-3-Clause */
/* The one opcode table (IBA 9.2 Table 38, plus the RoCEv2 CNP of A17.9.3
 * and the IBA 1.5 FLUSH / ATOMIC WRITE opcodes).
 *
 * It is the only place that knows which extension headers follow a BTH,
 * how long the transport headers are, and whether payload follows. The
 * decoder, the encoder, the generator, the analyser and the Wireshark plugin
 * all ask it. */
#ifndef ROCEWIRE_OPCODE_H
#define ROCEWIRE_OPCODE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Extension headers, one bit each. The bit order is the wire order: when
 * several are present they follow the BTH in increasing bit order (IBA 9.2:
 * RDETH, DETH, XRCETH, FETH, RETH or AtomicETH, AETH, AtomicAckETH, ImmDt or
 * IETH). */
enum rw_hdr {
	RW_HDR_RDETH = 1u << 0,
	RW_HDR_DETH = 1u << 1,
	RW_HDR_XRCETH = 1u << 2,
	RW_HDR_FETH = 1u << 3,
	RW_HDR_RETH = 1u << 4,
	RW_HDR_ATOMICETH = 1u << 5,
	RW_HDR_AETH = 1u << 6,
	RW_HDR_ATOMICACKETH = 1u << 7,
	RW_HDR_IMMDT = 1u << 8,
	RW_HDR_IETH = 1u << 9,
	RW_HDR_CNP = 1u << 10, /* the CNP's 16 reserved bytes */
};
#define RW_HDR_COUNT 11

enum rw_transport {
	RW_TRANSPORT_RC = 0,
	RW_TRANSPORT_UC = 1,
	RW_TRANSPORT_RD = 2,
	RW_TRANSPORT_UD = 3,
	RW_TRANSPORT_CNP = 4,
	RW_TRANSPORT_XRC = 5,
	RW_TRANSPORT_VENDOR = 6, /* 0xC0..0xFF: manufacturer specific */
	RW_TRANSPORT_RESERVED = 7,
};

/* What an opcode does, independent of transport. */
enum rw_op {
	RW_OP_NONE = 0,
	RW_OP_SEND,
	RW_OP_WRITE,
	RW_OP_READ_REQ,
	RW_OP_READ_RESP,
	RW_OP_ACK,
	RW_OP_ATOMIC_ACK,
	RW_OP_CMP_SWAP,
	RW_OP_FETCH_ADD,
	RW_OP_RESYNC,
	RW_OP_CNP,
	RW_OP_FLUSH,
	RW_OP_ATOMIC_WRITE,
};

/* Opcode flags. */
#define RW_OPF_VALID 0x01    /* defined by the spec (else reserved or vendor) */
#define RW_OPF_FIRST 0x02    /* first packet of a message (also set for Only) */
#define RW_OPF_MIDDLE 0x04
#define RW_OPF_LAST 0x08     /* last packet of a message (also set for Only) */
#define RW_OPF_PAYLOAD 0x10  /* payload may follow the headers */
#define RW_OPF_RESPONSE 0x20 /* sent by the responder (ACKs, READ responses) */
#define RW_OPF_REQUEST 0x40  /* sent by the requester */
#define RW_OPF_IMM 0x80      /* carries immediate data */

struct rw_opcode_info {
	const char *name;       /* "RC_SEND_FIRST", as rdma-core's IB_OPCODE_* */
	uint16_t hdrs;          /* enum rw_hdr mask */
	uint8_t hdr_len;        /* BTH plus extension headers, bytes */
	uint8_t flags;          /* RW_OPF_* */
	uint8_t transport;      /* enum rw_transport */
	uint8_t op;             /* enum rw_op */
};

/* Never NULL: reserved and vendor opcodes return an entry without
 * RW_OPF_VALID whose name is "RESERVED" or "VENDOR_SPECIFIC". */
const struct rw_opcode_info *rw_opcode(uint8_t opcode);

/* Whether requests of operation op (enum rw_op) are answered by their own
 * response: a READ by its READ responses, an atomic by its atomic ACK (IBA
 * 9.7.5.1), never by a later ACK; the requester re-issues one whose answer
 * it lost. */
static inline int rw_op_answered_alone(uint8_t op)
{
	return op == RW_OP_READ_REQ || op == RW_OP_CMP_SWAP || op == RW_OP_FETCH_ADD;
}

/* Length of one extension header (a single RW_HDR_* bit). */
unsigned rw_hdr_len(enum rw_hdr h);
/* Lower-case name of one extension header ("reth", "aeth", ...), as used in
 * JSON keys. */
const char *rw_hdr_name(enum rw_hdr h);
/* Byte offset of extension header h from the start of the BTH for an opcode,
 * or -1 if the opcode does not carry it. */
int rw_hdr_offset(uint8_t opcode, enum rw_hdr h);

const char *rw_transport_name(enum rw_transport t); /* "RC", "UC", ... */

#ifdef __cplusplus
}
#endif

#endif
