/* SPDX-License-Identifier: BSD-3-Clause */
/* The opcode table: IBA 9.2 Table 38 (opcode = transport << 5 | operation),
 * the RoCEv2 CNP (A17.9.3) and the IBA 1.5 RC FLUSH / ATOMIC WRITE. Names
 * follow rdma-core's IB_OPCODE_* so RDMA engineers recognise them. */
#include "rocewire/bth.h"
#include "rocewire/ext.h"
#include "rocewire/opcode.h"

/* Header length of an extension mask, as a constant expression so that the
 * table can be built by designated initializers. */
#define HL(h)                                                                                       \
	(RW_BTH_LEN + (((h)&RW_HDR_RDETH) ? RW_RDETH_LEN : 0) +                                     \
	 (((h)&RW_HDR_DETH) ? RW_DETH_LEN : 0) + (((h)&RW_HDR_XRCETH) ? RW_XRCETH_LEN : 0) +        \
	 (((h)&RW_HDR_FETH) ? RW_FETH_LEN : 0) + (((h)&RW_HDR_RETH) ? RW_RETH_LEN : 0) +            \
	 (((h)&RW_HDR_ATOMICETH) ? RW_ATOMICETH_LEN : 0) + (((h)&RW_HDR_AETH) ? RW_AETH_LEN : 0) +  \
	 (((h)&RW_HDR_ATOMICACKETH) ? RW_ATOMICACKETH_LEN : 0) +                                    \
	 (((h)&RW_HDR_IMMDT) ? RW_IMMDT_LEN : 0) + (((h)&RW_HDR_IETH) ? RW_IETH_LEN : 0) +          \
	 (((h)&RW_HDR_CNP) ? RW_CNP_LEN : 0))

#define E(code, nm, tr, o, fl, h)                                                                   \
	[code] = { .name = nm, .hdrs = (h), .hdr_len = HL(h), .flags = RW_OPF_VALID | (fl),         \
		   .transport = tr, .op = o }

/* Message position and direction shorthands. */
#define F (RW_OPF_FIRST)
#define M (RW_OPF_MIDDLE)
#define L (RW_OPF_LAST)
#define O (RW_OPF_FIRST | RW_OPF_LAST)
#define P RW_OPF_PAYLOAD
#define RQ RW_OPF_REQUEST
#define RS RW_OPF_RESPONSE
#define IM RW_OPF_IMM

/* The operations shared by RC, RD and XRC (codes 0x00-0x14, 0x16, 0x17);
 * `req` is the header(s) a request carries for its transport (RD: RDETH +
 * DETH, XRC: XRCETH), `rsp` what a response carries (RD: RDETH). */
#define RELIABLE(base, T, TR, req, rsp)                                                             \
	E(base + 0x00, T "_SEND_FIRST", TR, RW_OP_SEND, F | P | RQ, req),                           \
	E(base + 0x01, T "_SEND_MIDDLE", TR, RW_OP_SEND, M | P | RQ, req),                          \
	E(base + 0x02, T "_SEND_LAST", TR, RW_OP_SEND, L | P | RQ, req),                            \
	E(base + 0x03, T "_SEND_LAST_WITH_IMMEDIATE", TR, RW_OP_SEND, L | P | RQ | IM,              \
	  (req) | RW_HDR_IMMDT),                                                                    \
	E(base + 0x04, T "_SEND_ONLY", TR, RW_OP_SEND, O | P | RQ, req),                            \
	E(base + 0x05, T "_SEND_ONLY_WITH_IMMEDIATE", TR, RW_OP_SEND, O | P | RQ | IM,              \
	  (req) | RW_HDR_IMMDT),                                                                    \
	E(base + 0x06, T "_RDMA_WRITE_FIRST", TR, RW_OP_WRITE, F | P | RQ, (req) | RW_HDR_RETH),    \
	E(base + 0x07, T "_RDMA_WRITE_MIDDLE", TR, RW_OP_WRITE, M | P | RQ, req),                   \
	E(base + 0x08, T "_RDMA_WRITE_LAST", TR, RW_OP_WRITE, L | P | RQ, req),                     \
	E(base + 0x09, T "_RDMA_WRITE_LAST_WITH_IMMEDIATE", TR, RW_OP_WRITE, L | P | RQ | IM,       \
	  (req) | RW_HDR_IMMDT),                                                                    \
	E(base + 0x0A, T "_RDMA_WRITE_ONLY", TR, RW_OP_WRITE, O | P | RQ, (req) | RW_HDR_RETH),     \
	E(base + 0x0B, T "_RDMA_WRITE_ONLY_WITH_IMMEDIATE", TR, RW_OP_WRITE, O | P | RQ | IM,       \
	  (req) | RW_HDR_RETH | RW_HDR_IMMDT),                                                      \
	E(base + 0x0C, T "_RDMA_READ_REQUEST", TR, RW_OP_READ_REQ, O | RQ, (req) | RW_HDR_RETH),    \
	E(base + 0x0D, T "_RDMA_READ_RESPONSE_FIRST", TR, RW_OP_READ_RESP, F | P | RS,              \
	  (rsp) | RW_HDR_AETH),                                                                     \
	E(base + 0x0E, T "_RDMA_READ_RESPONSE_MIDDLE", TR, RW_OP_READ_RESP, M | P | RS, rsp),       \
	E(base + 0x0F, T "_RDMA_READ_RESPONSE_LAST", TR, RW_OP_READ_RESP, L | P | RS,               \
	  (rsp) | RW_HDR_AETH),                                                                     \
	E(base + 0x10, T "_RDMA_READ_RESPONSE_ONLY", TR, RW_OP_READ_RESP, O | P | RS,               \
	  (rsp) | RW_HDR_AETH),                                                                     \
	E(base + 0x11, T "_ACKNOWLEDGE", TR, RW_OP_ACK, O | RS, (rsp) | RW_HDR_AETH),               \
	E(base + 0x12, T "_ATOMIC_ACKNOWLEDGE", TR, RW_OP_ATOMIC_ACK, O | RS,                       \
	  (rsp) | RW_HDR_AETH | RW_HDR_ATOMICACKETH),                                               \
	E(base + 0x13, T "_COMPARE_SWAP", TR, RW_OP_CMP_SWAP, O | RQ, (req) | RW_HDR_ATOMICETH),    \
	E(base + 0x14, T "_FETCH_ADD", TR, RW_OP_FETCH_ADD, O | RQ, (req) | RW_HDR_ATOMICETH)

#define WITH_INVALIDATE(base, T, TR, req)                                                           \
	E(base + 0x16, T "_SEND_LAST_WITH_INVALIDATE", TR, RW_OP_SEND, L | P | RQ,                  \
	  (req) | RW_HDR_IETH),                                                                     \
	E(base + 0x17, T "_SEND_ONLY_WITH_INVALIDATE", TR, RW_OP_SEND, O | P | RQ,                  \
	  (req) | RW_HDR_IETH)

/* UC has SEND and RDMA WRITE only (codes 0x00-0x0B). */
#define UNRELIABLE(base, T, TR)                                                                     \
	E(base + 0x00, T "_SEND_FIRST", TR, RW_OP_SEND, F | P | RQ, 0),                             \
	E(base + 0x01, T "_SEND_MIDDLE", TR, RW_OP_SEND, M | P | RQ, 0),                            \
	E(base + 0x02, T "_SEND_LAST", TR, RW_OP_SEND, L | P | RQ, 0),                              \
	E(base + 0x03, T "_SEND_LAST_WITH_IMMEDIATE", TR, RW_OP_SEND, L | P | RQ | IM,              \
	  RW_HDR_IMMDT),                                                                            \
	E(base + 0x04, T "_SEND_ONLY", TR, RW_OP_SEND, O | P | RQ, 0),                              \
	E(base + 0x05, T "_SEND_ONLY_WITH_IMMEDIATE", TR, RW_OP_SEND, O | P | RQ | IM,              \
	  RW_HDR_IMMDT),                                                                            \
	E(base + 0x06, T "_RDMA_WRITE_FIRST", TR, RW_OP_WRITE, F | P | RQ, RW_HDR_RETH),            \
	E(base + 0x07, T "_RDMA_WRITE_MIDDLE", TR, RW_OP_WRITE, M | P | RQ, 0),                     \
	E(base + 0x08, T "_RDMA_WRITE_LAST", TR, RW_OP_WRITE, L | P | RQ, 0),                       \
	E(base + 0x09, T "_RDMA_WRITE_LAST_WITH_IMMEDIATE", TR, RW_OP_WRITE, L | P | RQ | IM,       \
	  RW_HDR_IMMDT),                                                                            \
	E(base + 0x0A, T "_RDMA_WRITE_ONLY", TR, RW_OP_WRITE, O | P | RQ, RW_HDR_RETH),             \
	E(base + 0x0B, T "_RDMA_WRITE_ONLY_WITH_IMMEDIATE", TR, RW_OP_WRITE, O | P | RQ | IM,       \
	  RW_HDR_RETH | RW_HDR_IMMDT)

#define RD_REQ (RW_HDR_RDETH | RW_HDR_DETH)

static const struct rw_opcode_info table[256] = {
	RELIABLE(0x00, "RC", RW_TRANSPORT_RC, 0, 0),
	WITH_INVALIDATE(0x00, "RC", RW_TRANSPORT_RC, 0),
	E(0x1C, "RC_FLUSH", RW_TRANSPORT_RC, RW_OP_FLUSH, O | RQ, RW_HDR_FETH | RW_HDR_RETH),
	/* IBA 1.5: an 8-byte payload follows the RETH. */
	E(0x1D, "RC_ATOMIC_WRITE", RW_TRANSPORT_RC, RW_OP_ATOMIC_WRITE, O | P | RQ, RW_HDR_RETH),

	UNRELIABLE(0x20, "UC", RW_TRANSPORT_UC),

	RELIABLE(0x40, "RD", RW_TRANSPORT_RD, RD_REQ, RW_HDR_RDETH),
	E(0x55, "RD_RESYNC", RW_TRANSPORT_RD, RW_OP_RESYNC, O | RQ, RD_REQ),

	E(0x64, "UD_SEND_ONLY", RW_TRANSPORT_UD, RW_OP_SEND, O | P | RQ, RW_HDR_DETH),
	E(0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", RW_TRANSPORT_UD, RW_OP_SEND, O | P | RQ | IM,
	  RW_HDR_DETH | RW_HDR_IMMDT),

	E(0x81, "CNP", RW_TRANSPORT_CNP, RW_OP_CNP, 0, RW_HDR_CNP),

	RELIABLE(0xA0, "XRC", RW_TRANSPORT_XRC, RW_HDR_XRCETH, 0),
	WITH_INVALIDATE(0xA0, "XRC", RW_TRANSPORT_XRC, RW_HDR_XRCETH),
};

static const struct rw_opcode_info reserved = {
	.name = "RESERVED", .hdr_len = RW_BTH_LEN, .transport = RW_TRANSPORT_RESERVED
};
static const struct rw_opcode_info vendor = {
	.name = "VENDOR_SPECIFIC", .hdr_len = RW_BTH_LEN, .transport = RW_TRANSPORT_VENDOR
};

const struct rw_opcode_info *rw_opcode(uint8_t opcode)
{
	if (table[opcode].flags & RW_OPF_VALID)
		return &table[opcode];
	return opcode >= 0xC0 ? &vendor : &reserved;
}

static const struct {
	const char *name;
	uint8_t len;
} hdr_info[RW_HDR_COUNT] = {
	{ "rdeth", RW_RDETH_LEN },	{ "deth", RW_DETH_LEN },
	{ "xrceth", RW_XRCETH_LEN },	{ "feth", RW_FETH_LEN },
	{ "reth", RW_RETH_LEN },	{ "atomiceth", RW_ATOMICETH_LEN },
	{ "aeth", RW_AETH_LEN },	{ "atomicacketh", RW_ATOMICACKETH_LEN },
	{ "immdt", RW_IMMDT_LEN },	{ "ieth", RW_IETH_LEN },
	{ "cnp", RW_CNP_LEN },
};

static int hdr_index(enum rw_hdr h)
{
	unsigned v = (unsigned)h;
	if (v == 0 || (v & (v - 1)) || v >= 1u << RW_HDR_COUNT)
		return -1;
	return __builtin_ctz(v);
}

unsigned rw_hdr_len(enum rw_hdr h)
{
	int i = hdr_index(h);
	return i < 0 ? 0 : hdr_info[i].len;
}

const char *rw_hdr_name(enum rw_hdr h)
{
	int i = hdr_index(h);
	return i < 0 ? "?" : hdr_info[i].name;
}

int rw_hdr_offset(uint8_t opcode, enum rw_hdr h)
{
	const struct rw_opcode_info *op = rw_opcode(opcode);
	int i = hdr_index(h);
	if (i < 0 || !(op->hdrs & h))
		return -1;
	int off = RW_BTH_LEN;
	for (int b = 0; b < i; b++)
		if (op->hdrs & (1u << b))
			off += hdr_info[b].len;
	return off;
}

const char *rw_transport_name(enum rw_transport t)
{
	static const char *const names[] = {
		[RW_TRANSPORT_RC] = "RC",	  [RW_TRANSPORT_UC] = "UC",	     [RW_TRANSPORT_RD] = "RD",
		[RW_TRANSPORT_UD] = "UD",	  [RW_TRANSPORT_CNP] = "CNP",	     [RW_TRANSPORT_XRC] = "XRC",
		[RW_TRANSPORT_VENDOR] = "VENDOR", [RW_TRANSPORT_RESERVED] = "RESERVED",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == RW_TRANSPORT_RESERVED + 1,
		       "names: every enum rw_transport");
	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}
