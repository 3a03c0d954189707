/* SPDX-License-Identifier: BSD-3-Clause */
/* InfiniBand transport extension headers (IBA 9.3) and the RoCEv2 CNP body.
 *
 * Which of them follow a BTH, and in what order, is known only by the opcode
 * table (opcode.h); these functions read and write one header each. */
#ifndef ROCEWIRE_EXT_H
#define ROCEWIRE_EXT_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_RDETH_LEN 4
#define RW_DETH_LEN 8
#define RW_XRCETH_LEN 4
#define RW_FETH_LEN 4
#define RW_RETH_LEN 16
#define RW_ATOMICETH_LEN 28
#define RW_AETH_LEN 4
#define RW_ATOMICACKETH_LEN 8
#define RW_IMMDT_LEN 4
#define RW_IETH_LEN 4
#define RW_CNP_LEN 16 /* reserved bytes of a RoCEv2 CNP (IBA A17.9.3) */

/* Reliable Datagram ETH: end-to-end context. */
struct rw_rdeth {
	uint8_t resv8;
	uint32_t een;     /* 24 bits */
};

/* Datagram ETH (UD, RD). */
struct rw_deth {
	uint32_t qkey;
	uint8_t resv8;
	uint32_t sqpn;    /* 24 bits */
};

/* XRC ETH: the XRC shared receive queue number. */
struct rw_xrceth {
	uint8_t resv8;
	uint32_t xrcsrq;  /* 24 bits */
};

/* Flush ETH (IBA 1.5 FLUSH): selectivity level and placement type. */
struct rw_feth {
	uint32_t resv26;
	uint8_t sel;      /* 2 bits */
	uint8_t plt;      /* 4 bits */
};

/* RDMA ETH. */
struct rw_reth {
	uint64_t va;
	uint32_t rkey;
	uint32_t dmalen;
};

/* Atomic ETH: compare-and-swap and fetch-and-add requests. */
struct rw_atomiceth {
	uint64_t va;
	uint32_t rkey;
	uint64_t swap_add;
	uint64_t compare;
};

/* AETH syndrome kinds (IBA 9.7.5.2, bits 6:5 of the syndrome). */
enum rw_aeth_kind {
	RW_AETH_ACK = 0,
	RW_AETH_RNR_NAK = 1,
	RW_AETH_RESERVED = 2,
	RW_AETH_NAK = 3,
};

/* NAK codes (syndrome bits 4:0 when the kind is NAK, IBA Table 43). */
enum rw_nak_code {
	RW_NAK_PSN_SEQ_ERROR = 0,
	RW_NAK_INVALID_REQUEST = 1,
	RW_NAK_REMOTE_ACCESS = 2,
	RW_NAK_REMOTE_OPERATIONAL = 3,
	RW_NAK_INVALID_RD_REQUEST = 4,
};

/* ACK ETH. The derived fields are filled by the decoder from the syndrome. */
struct rw_aeth {
	uint8_t syndrome;
	uint32_t msn;       /* 24 bits */
	/* derived */
	uint8_t kind;       /* enum rw_aeth_kind */
	uint8_t value;      /* low 5 bits: credit code, RNR timer code or NAK code */
};

struct rw_atomicacketh {
	uint64_t orig;      /* original remote data */
};

enum rw_err rw_rdeth_decode(const uint8_t *buf, size_t len, struct rw_rdeth *out);
enum rw_err rw_rdeth_encode(const struct rw_rdeth *h, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_deth_decode(const uint8_t *buf, size_t len, struct rw_deth *out);
enum rw_err rw_deth_encode(const struct rw_deth *h, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_xrceth_decode(const uint8_t *buf, size_t len, struct rw_xrceth *out);
enum rw_err rw_xrceth_encode(const struct rw_xrceth *h, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_feth_decode(const uint8_t *buf, size_t len, struct rw_feth *out);
enum rw_err rw_feth_encode(const struct rw_feth *h, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_reth_decode(const uint8_t *buf, size_t len, struct rw_reth *out);
enum rw_err rw_reth_encode(const struct rw_reth *h, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_atomiceth_decode(const uint8_t *buf, size_t len, struct rw_atomiceth *out);
enum rw_err rw_atomiceth_encode(const struct rw_atomiceth *h, uint8_t *buf, size_t cap,
				size_t *written);
/* Fills kind and value from the syndrome. */
enum rw_err rw_aeth_decode(const uint8_t *buf, size_t len, struct rw_aeth *out);
/* Writes syndrome and msn (kind/value are ignored: build the syndrome with
 * rw_aeth_syndrome()). */
enum rw_err rw_aeth_encode(const struct rw_aeth *h, uint8_t *buf, size_t cap, size_t *written);
enum rw_err rw_atomicacketh_decode(const uint8_t *buf, size_t len, struct rw_atomicacketh *out);
enum rw_err rw_atomicacketh_encode(const struct rw_atomicacketh *h, uint8_t *buf, size_t cap,
				   size_t *written);
/* ImmDt and IETH are one 32-bit big-endian word each. */
enum rw_err rw_u32_decode(const uint8_t *buf, size_t len, uint32_t *out);
enum rw_err rw_u32_encode(uint32_t v, uint8_t *buf, size_t cap, size_t *written);
/* The CNP's 16 reserved bytes: decode checks length only and reports through
 * *nonzero whether any reserved byte is set; encode writes zeros. */
enum rw_err rw_cnp_decode(const uint8_t *buf, size_t len, int *nonzero);
enum rw_err rw_cnp_encode(uint8_t *buf, size_t cap, size_t *written);

static inline uint8_t rw_aeth_syndrome(enum rw_aeth_kind kind, uint8_t value)
{
	return (uint8_t)(((unsigned)kind & 3u) << 5 | (value & 0x1Fu));
}

/* A syndrome's kind (bits 6:5) and its credit code, RNR timer code or NAK
 * code (bits 4:0): what rw_aeth_decode derives. */
static inline enum rw_aeth_kind rw_aeth_kind_of(uint8_t syndrome)
{
	return (enum rw_aeth_kind)(syndrome >> 5 & 3u);
}

static inline uint8_t rw_aeth_value_of(uint8_t syndrome)
{
	return (uint8_t)(syndrome & 0x1Fu);
}

/* "ACK", "RNR NAK", "reserved", "NAK". */
const char *rw_aeth_kind_name(enum rw_aeth_kind kind);
/* "PSN sequence error", "invalid request", "remote access error",
 * "remote operational error", "invalid RD request", or "reserved". */
const char *rw_nak_code_name(uint8_t code);
/* IBA Table 45: RNR NAK timer code -> minimum delay in microseconds
 * (code 0 is 655.36 ms). */
uint32_t rw_rnr_timer_us(uint8_t code);
/* IBA Table 44: ACK credit code -> number of credits; -1 for code 31
 * ("invalid", the responder does not limit the requester). */
int rw_aeth_credits(uint8_t code);

#ifdef __cplusplus
}
#endif

#endif
