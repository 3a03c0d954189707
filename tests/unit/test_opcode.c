/* SPDX-License-Identifier: BSD-3-Clause */
/* opcode.h: the opcode table, checked against an independent transcription
 * of IBA Vol 1 Table 38 ("OpCode Field") and 9.2-9.3: opcode bits 7:5 are
 * the transport (000 RC, 001 UC, 010 RD, 011 UD, 100 CNP (A17.9.3), 101 XRC,
 * 11x manufacturer specific), bits 4:0 the operation. Numbering
 * cross-checked with Linux include/rdma/ib_pack.h and rdma-core
 * <infiniband/opcode.h> (IBV_OPCODE_*), and Linux rxe_opcode.c for XRC.
 * FLUSH 0x1C and ATOMIC WRITE 0x1D are IBA 1.5 (ib_pack.h IB_OPCODE_FLUSH,
 * IB_OPCODE_ATOMIC_WRITE). */
#include "rw_test_util.h"

struct spec_op {
	const char *name;   /* without the transport prefix */
	uint16_t hdrs;      /* extension headers besides the per-transport ones */
	uint8_t flags;      /* expected RW_OPF_* (besides VALID) */
	uint8_t op;
	uint8_t segmented;  /* part of a FIRST/MIDDLE/LAST family */
};

#define REQ RW_OPF_REQUEST
#define RSP RW_OPF_RESPONSE
#define PL RW_OPF_PAYLOAD
#define F RW_OPF_FIRST
#define M RW_OPF_MIDDLE
#define L RW_OPF_LAST
#define IM RW_OPF_IMM

/* Table 38 operation codes (bits 4:0), with the headers of 9.2 Table 38's
 * "Packet Header Fields" column (besides LRH/GRH/BTH/ICRC/VCRC and the
 * transport-specific RDETH/DETH/XRCETH). */
static const struct spec_op ops[32] = {
	[0x00] = { "SEND_FIRST", 0, REQ | PL | F, RW_OP_SEND, 1 },
	[0x01] = { "SEND_MIDDLE", 0, REQ | PL | M, RW_OP_SEND, 1 },
	[0x02] = { "SEND_LAST", 0, REQ | PL | L, RW_OP_SEND, 1 },
	[0x03] = { "SEND_LAST_WITH_IMMEDIATE", RW_HDR_IMMDT, REQ | PL | L | IM, RW_OP_SEND, 1 },
	[0x04] = { "SEND_ONLY", 0, REQ | PL | F | L, RW_OP_SEND, 1 },
	[0x05] = { "SEND_ONLY_WITH_IMMEDIATE", RW_HDR_IMMDT, REQ | PL | F | L | IM, RW_OP_SEND, 1 },
	[0x06] = { "RDMA_WRITE_FIRST", RW_HDR_RETH, REQ | PL | F, RW_OP_WRITE, 1 },
	[0x07] = { "RDMA_WRITE_MIDDLE", 0, REQ | PL | M, RW_OP_WRITE, 1 },
	[0x08] = { "RDMA_WRITE_LAST", 0, REQ | PL | L, RW_OP_WRITE, 1 },
	[0x09] = { "RDMA_WRITE_LAST_WITH_IMMEDIATE", RW_HDR_IMMDT, REQ | PL | L | IM, RW_OP_WRITE, 1 },
	[0x0A] = { "RDMA_WRITE_ONLY", RW_HDR_RETH, REQ | PL | F | L, RW_OP_WRITE, 1 },
	[0x0B] = { "RDMA_WRITE_ONLY_WITH_IMMEDIATE", RW_HDR_RETH | RW_HDR_IMMDT,
		   REQ | PL | F | L | IM, RW_OP_WRITE, 1 },
	[0x0C] = { "RDMA_READ_REQUEST", RW_HDR_RETH, REQ, RW_OP_READ_REQ, 0 },
	[0x0D] = { "RDMA_READ_RESPONSE_FIRST", RW_HDR_AETH, RSP | PL | F, RW_OP_READ_RESP, 1 },
	[0x0E] = { "RDMA_READ_RESPONSE_MIDDLE", 0, RSP | PL | M, RW_OP_READ_RESP, 1 },
	[0x0F] = { "RDMA_READ_RESPONSE_LAST", RW_HDR_AETH, RSP | PL | L, RW_OP_READ_RESP, 1 },
	[0x10] = { "RDMA_READ_RESPONSE_ONLY", RW_HDR_AETH, RSP | PL | F | L, RW_OP_READ_RESP, 1 },
	[0x11] = { "ACKNOWLEDGE", RW_HDR_AETH, RSP, RW_OP_ACK, 0 },
	[0x12] = { "ATOMIC_ACKNOWLEDGE", RW_HDR_AETH | RW_HDR_ATOMICACKETH, RSP, RW_OP_ATOMIC_ACK, 0 },
	[0x13] = { "COMPARE_SWAP", RW_HDR_ATOMICETH, REQ, RW_OP_CMP_SWAP, 0 },
	[0x14] = { "FETCH_ADD", RW_HDR_ATOMICETH, REQ, RW_OP_FETCH_ADD, 0 },
	[0x15] = { "RESYNC", 0, REQ, RW_OP_RESYNC, 0 },
	[0x16] = { "SEND_LAST_WITH_INVALIDATE", RW_HDR_IETH, REQ | PL | L, RW_OP_SEND, 1 },
	[0x17] = { "SEND_ONLY_WITH_INVALIDATE", RW_HDR_IETH, REQ | PL | F | L, RW_OP_SEND, 1 },
	[0x1C] = { "FLUSH", RW_HDR_FETH | RW_HDR_RETH, REQ, RW_OP_FLUSH, 0 },
	[0x1D] = { "ATOMIC_WRITE", RW_HDR_RETH, REQ | PL, RW_OP_ATOMIC_WRITE, 0 },
};

/* 1 valid, 0 reserved, -1 not asserted (IBA 1.5 FLUSH / ATOMIC WRITE on RD
 * and XRC: not in every public source). */
static int spec_valid(unsigned opc)
{
	unsigned t = opc >> 5, o = opc & 31;
	switch (t) {
	case 0: /* RC */
		return o <= 0x14 || o == 0x16 || o == 0x17 || o == 0x1C || o == 0x1D;
	case 1: /* UC: SEND and RDMA WRITE only */
		return o <= 0x0B;
	case 2: /* RD: no SEND with Invalidate; RESYNC only here */
		if (o == 0x1C || o == 0x1D)
			return -1;
		return o <= 0x15;
	case 3: /* UD: SEND Only (+ Immediate) */
		return o == 0x04 || o == 0x05;
	case 4: /* CNP (A17.9.3) is 0x81; the rest of 100xxxxx is reserved */
		return o == 0x01;
	case 5: /* XRC: as RC */
		if (o == 0x1C || o == 0x1D)
			return -1;
		return o <= 0x14 || o == 0x16 || o == 0x17;
	default:
		return 0;
	}
}

static const char *const prefixes[] = { "RC_", "UC_", "RD_", "UD_", "", "XRC_" };

static unsigned lens(uint16_t hdrs)
{
	/* IBA 9.3 sizes. */
	static const unsigned len[RW_HDR_COUNT] = { 4, 8, 4, 4, 16, 28, 4, 8, 4, 4, 16 };
	unsigned n = 0;
	for (unsigned b = 0; b < RW_HDR_COUNT; b++)
		if (hdrs & (1u << b))
			n += len[b];
	return n;
}

static uint16_t expected_hdrs(unsigned opc)
{
	unsigned t = opc >> 5, o = opc & 31;
	uint16_t h = ops[o].hdrs;
	int response = (ops[o].flags & RSP) != 0;
	if (t == 2) /* RD: RDETH always; DETH on requests (9.3.1, 9.3.2) */
		h |= RW_HDR_RDETH | (response ? 0 : RW_HDR_DETH);
	if (t == 3) /* UD: DETH */
		h |= RW_HDR_DETH;
	if (t == 5 && !response) /* XRC: XRCETH on requests */
		h |= RW_HDR_XRCETH;
	return h;
}

static void check_offsets(unsigned opc, const struct rw_opcode_info *oi)
{
	unsigned off = RW_BTH_LEN;
	for (unsigned b = 0; b < RW_HDR_COUNT; b++) {
		enum rw_hdr h = (enum rw_hdr)(1u << b);
		if (oi->hdrs & h) {
			assert_int_equal(rw_hdr_offset((uint8_t)opc, h), (int)off);
			off += rw_hdr_len(h);
		} else {
			assert_int_equal(rw_hdr_offset((uint8_t)opc, h), -1);
		}
	}
	assert_int_equal(off, oi->hdr_len);
}

static void test_table(void **state)
{
	(void)state;
	unsigned n_valid = 0;
	for (unsigned opc = 0; opc < 256; opc++) {
		const struct rw_opcode_info *oi = rw_opcode((uint8_t)opc);
		assert_non_null(oi);
		assert_non_null(oi->name);
		int v = spec_valid(opc);
		if (v == 0) {
			if (oi->flags & RW_OPF_VALID)
				fail_msg("opcode 0x%02x is reserved in IBA Table 38 but marked valid (%s)",
					 opc, oi->name);
			if (opc >= 0xC0) {
				assert_string_equal(oi->name, "VENDOR_SPECIFIC");
				assert_int_equal(oi->transport, RW_TRANSPORT_VENDOR);
			} else {
				assert_string_equal(oi->name, "RESERVED");
			}
			continue;
		}
		if (v < 0) {
			/* Not asserted either way; if present it must be consistent. */
			if (oi->flags & RW_OPF_VALID) {
				assert_int_equal(oi->hdrs, expected_hdrs(opc));
				assert_int_equal(oi->hdr_len, RW_BTH_LEN + lens(oi->hdrs));
				check_offsets(opc, oi);
				n_valid++;
			}
			continue;
		}
		if (!(oi->flags & RW_OPF_VALID))
			fail_msg("opcode 0x%02x is defined by IBA Table 38 but not valid here (%s)",
				 opc, oi->name);
		n_valid++;
		if (opc == 0x81) {
			/* A17.9.3: BTH + 16 reserved bytes + ICRC; no payload. */
			assert_non_null(strstr(oi->name, "CNP"));
			assert_int_equal(oi->transport, RW_TRANSPORT_CNP);
			assert_int_equal(oi->op, RW_OP_CNP);
			assert_int_equal(oi->hdrs, RW_HDR_CNP);
			assert_int_equal(oi->hdr_len, 12 + 16);
			assert_false(oi->flags & (RW_OPF_PAYLOAD | RW_OPF_IMM | RW_OPF_MIDDLE));
			assert_false(oi->flags & (RW_OPF_REQUEST | RW_OPF_RESPONSE));
			check_offsets(opc, oi);
			continue;
		}
		const struct spec_op *s = &ops[opc & 31];
		char name[64];
		snprintf(name, sizeof(name), "%s%s", prefixes[opc >> 5], s->name);
		if (strcmp(oi->name, name) != 0)
			fail_msg("opcode 0x%02x: name %s, expected %s", opc, oi->name, name);
		static const uint8_t transports[] = { RW_TRANSPORT_RC, RW_TRANSPORT_UC,
						      RW_TRANSPORT_RD, RW_TRANSPORT_UD, 0,
						      RW_TRANSPORT_XRC };
		assert_int_equal(oi->transport, transports[opc >> 5]);
		assert_int_equal(oi->op, s->op);
		if (oi->hdrs != expected_hdrs(opc))
			fail_msg("opcode 0x%02x (%s): headers 0x%x, expected 0x%x", opc, name, oi->hdrs,
				 expected_hdrs(opc));
		assert_int_equal(oi->hdr_len, RW_BTH_LEN + lens(expected_hdrs(opc)));
		check_offsets(opc, oi);
		const uint8_t exact = RW_OPF_PAYLOAD | RW_OPF_REQUEST | RW_OPF_RESPONSE | RW_OPF_IMM;
		if ((oi->flags & exact) != (s->flags & exact))
			fail_msg("opcode 0x%02x (%s): flags 0x%02x, expected payload/req/resp/imm 0x%02x",
				 opc, name, oi->flags, s->flags & exact);
		const uint8_t pos = RW_OPF_FIRST | RW_OPF_MIDDLE | RW_OPF_LAST;
		if (s->segmented) {
			if ((oi->flags & pos) != (s->flags & pos))
				fail_msg("opcode 0x%02x (%s): first/middle/last 0x%02x, expected 0x%02x",
					 opc, name, oi->flags & pos, s->flags & pos);
		} else {
			/* single-packet operations: never Middle; First and Last agree */
			assert_false(oi->flags & RW_OPF_MIDDLE);
			assert_int_equal(!!(oi->flags & RW_OPF_FIRST), !!(oi->flags & RW_OPF_LAST));
		}
	}
	/* RC 25, UC 12, RD 22, UD 2, CNP 1, XRC 23 = 85, plus up to 4 optional. */
	assert_true(n_valid >= 85 && n_valid <= 89);
}

static void test_spot_checks(void **state)
{
	(void)state;
	/* A few by number, as rdma-core's IBV_OPCODE_* spell them. */
	assert_string_equal(rw_opcode(0x04)->name, "RC_SEND_ONLY");
	assert_string_equal(rw_opcode(0x0c)->name, "RC_RDMA_READ_REQUEST");
	assert_string_equal(rw_opcode(0x11)->name, "RC_ACKNOWLEDGE");
	assert_string_equal(rw_opcode(0x24)->name, "UC_SEND_ONLY");
	assert_string_equal(rw_opcode(0x2b)->name, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE");
	assert_string_equal(rw_opcode(0x55)->name, "RD_RESYNC");
	assert_string_equal(rw_opcode(0x64)->name, "UD_SEND_ONLY");
	assert_string_equal(rw_opcode(0x65)->name, "UD_SEND_ONLY_WITH_IMMEDIATE");
	assert_string_equal(rw_opcode(0xac)->name, "XRC_RDMA_READ_REQUEST");
	assert_string_equal(rw_opcode(0xb7)->name, "XRC_SEND_ONLY_WITH_INVALIDATE");
	assert_string_equal(rw_opcode(0x1c)->name, "RC_FLUSH");
	assert_string_equal(rw_opcode(0x1d)->name, "RC_ATOMIC_WRITE");
	/* Header lengths worked out by hand from 9.3: */
	assert_int_equal(rw_opcode(0x0b)->hdr_len, 12 + 16 + 4);     /* WRITE_ONLY_IMM */
	assert_int_equal(rw_opcode(0x12)->hdr_len, 12 + 4 + 8);      /* ATOMIC_ACK */
	assert_int_equal(rw_opcode(0x13)->hdr_len, 12 + 28);         /* CMP_SWAP */
	assert_int_equal(rw_opcode(0x4b)->hdr_len, 12 + 4 + 8 + 16 + 4); /* RD WRITE_ONLY_IMM */
	assert_int_equal(rw_opcode(0x50)->hdr_len, 12 + 4 + 4);      /* RD READ_RESP_ONLY */
	assert_int_equal(rw_opcode(0x55)->hdr_len, 12 + 4 + 8);      /* RD RESYNC */
	assert_int_equal(rw_opcode(0x65)->hdr_len, 12 + 8 + 4);      /* UD SEND_ONLY_IMM */
	assert_int_equal(rw_opcode(0xab)->hdr_len, 12 + 4 + 16 + 4); /* XRC WRITE_ONLY_IMM */
	assert_int_equal(rw_opcode(0xb1)->hdr_len, 12 + 4);          /* XRC ACK: no XRCETH */
	assert_int_equal(rw_opcode(0xb4)->hdr_len, 12 + 4 + 28);     /* XRC FETCH_ADD */
	assert_int_equal(rw_opcode(0x1c)->hdr_len, 12 + 4 + 16);     /* FLUSH: FETH, RETH */
	/* Offsets: RD WRITE_ONLY_IMM = BTH, RDETH@12, DETH@16, RETH@24, ImmDt@40. */
	assert_int_equal(rw_hdr_offset(0x4b, RW_HDR_RDETH), 12);
	assert_int_equal(rw_hdr_offset(0x4b, RW_HDR_DETH), 16);
	assert_int_equal(rw_hdr_offset(0x4b, RW_HDR_RETH), 24);
	assert_int_equal(rw_hdr_offset(0x4b, RW_HDR_IMMDT), 40);
	assert_int_equal(rw_hdr_offset(0x4b, RW_HDR_AETH), -1);
	assert_int_equal(rw_hdr_offset(0x12, RW_HDR_ATOMICACKETH), 16);
	assert_int_equal(rw_hdr_offset(0x1c, RW_HDR_RETH), 16);
	assert_int_equal(rw_hdr_offset(0x81, RW_HDR_CNP), 12);
	/* Reserved in the middle of a defined range. */
	assert_false(rw_opcode(0x15)->flags & RW_OPF_VALID); /* RC 10101 */
	assert_false(rw_opcode(0x35)->flags & RW_OPF_VALID);
	assert_false(rw_opcode(0x56)->flags & RW_OPF_VALID); /* RD has no SEND w/ Invalidate */
	assert_false(rw_opcode(0x60)->flags & RW_OPF_VALID);
	assert_false(rw_opcode(0x80)->flags & RW_OPF_VALID);
	assert_false(rw_opcode(0x82)->flags & RW_OPF_VALID);
	assert_false(rw_opcode(0xb5)->flags & RW_OPF_VALID); /* XRC 10101 */
	assert_false(rw_opcode(0xc0)->flags & RW_OPF_VALID);
	assert_false(rw_opcode(0xff)->flags & RW_OPF_VALID);
	assert_int_equal(rw_opcode(0xe0)->transport, RW_TRANSPORT_VENDOR);
	assert_int_equal(rw_opcode(0x81)->transport, RW_TRANSPORT_CNP);
}

static void test_hdr_helpers(void **state)
{
	(void)state;
	static const struct {
		enum rw_hdr h;
		unsigned len;
		const char *name;
	} hs[] = {
		{ RW_HDR_RDETH, 4, "rdeth" },	  { RW_HDR_DETH, 8, "deth" },
		{ RW_HDR_XRCETH, 4, "xrceth" },	  { RW_HDR_FETH, 4, "feth" },
		{ RW_HDR_RETH, 16, "reth" },	  { RW_HDR_ATOMICETH, 28, "atomiceth" },
		{ RW_HDR_AETH, 4, "aeth" },	  { RW_HDR_ATOMICACKETH, 8, "atomicacketh" },
		{ RW_HDR_IMMDT, 4, "immdt" },	  { RW_HDR_IETH, 4, "ieth" },
		{ RW_HDR_CNP, 16, "cnp" },
	};
	assert_int_equal(RW_ARRAY_LEN(hs), RW_HDR_COUNT);
	for (size_t i = 0; i < RW_ARRAY_LEN(hs); i++) {
		assert_int_equal(rw_hdr_len(hs[i].h), hs[i].len);
		const char *n = rw_hdr_name(hs[i].h);
		assert_non_null(n);
		/* "reth", "aeth" are fixed by the header comment; the others must at
		 * least be distinct lower-case names. */
		for (const char *p = n; *p; p++)
			assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_');
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(n, rw_hdr_name(hs[j].h));
	}
	assert_string_equal(rw_hdr_name(RW_HDR_RETH), "reth");
	assert_string_equal(rw_hdr_name(RW_HDR_AETH), "aeth");
	assert_string_equal(rw_transport_name(RW_TRANSPORT_RC), "RC");
	assert_string_equal(rw_transport_name(RW_TRANSPORT_UC), "UC");
	assert_string_equal(rw_transport_name(RW_TRANSPORT_RD), "RD");
	assert_string_equal(rw_transport_name(RW_TRANSPORT_UD), "UD");
	assert_string_equal(rw_transport_name(RW_TRANSPORT_XRC), "XRC");
	assert_non_null(rw_transport_name(RW_TRANSPORT_CNP));
	assert_non_null(rw_transport_name(RW_TRANSPORT_VENDOR));
	assert_non_null(rw_transport_name(RW_TRANSPORT_RESERVED));
	assert_non_null(rw_transport_name((enum rw_transport)99));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_spot_checks),
		cmocka_unit_test(test_hdr_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
