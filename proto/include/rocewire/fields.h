/* SPDX-License-Identifier: BSD-3-Clause */
/* One field table per header: every field of every header rocewire decodes,
 * described once, as Wireshark's hf_register_info rows and libibmad's
 * fields.c describe theirs. A row gives the field's name, where its bits are
 * (byte offset, bytes read, shift and width), its type, its display base,
 * its value names and whether the ICRC masks it. The -v and --json printers
 * walk these tables (so they print the same headers, fields and values),
 * and the names are the ones of the plugin's filter fields:
 * rocewire.HEADER.FIELD (capture/README-json.md).
 *
 * rw_field_get() reads a field from the header's bytes; the tables are
 * checked at compile time against the header lengths and the decoded
 * structs' members, and tests/unit/test_fields.c reads every field of every
 * header, for every opcode, and compares it with the codecs' decode. */
#ifndef ROCEWIRE_FIELDS_H
#define ROCEWIRE_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include "rocewire/packet.h"
#include "rocewire/wire.h"

#ifdef __cplusplus
extern "C" {
#endif

enum rw_ftype {
	RW_FT_UINT = 0, /* unsigned number; 64-bit ones are "0x..." strings in JSON */
	RW_FT_FLAG,     /* one bit: JSON true/false, -v 0/1 */
	RW_FT_IPV4,     /* 4 bytes, dotted quad */
	RW_FT_IPV6,     /* 16 bytes, RFC 5952 text (GIDs too) */
	RW_FT_MAC,      /* 6 bytes, aa:bb:cc:dd:ee:ff */
	RW_FT_BYTES,    /* size bytes (or the length field .of gives), colon-separated hex */
	RW_FT_NAME,     /* no bits of its own: the name vname gives field .of's value */
};

enum rw_fbase {
	RW_BASE_DEC = 0,
	RW_BASE_HEX, /* -v shows "0x" and at least .digits digits */
};

#define RW_FF_RESV 0x01    /* reserved: encoders write zero, receivers ignore it */
#define RW_FF_ICRC 0x02    /* variant: the ICRC masks it (IBA 7.8.1, A17.4.1) */
#define RW_FF_LE 0x04      /* little-endian on the wire (ERF's timestamp) */
#define RW_FF_JSONNAME 0x08 /* JSON shows the value's name rather than its number */
#define RW_FF_DERIVED 0x10 /* not bits of the header: .get computes it */

/* Headers that have a table, in wire order. The transport extension
 * headers follow the enum rw_hdr bit order from RW_HD_RDETH. */
enum rw_hd {
	RW_HD_ERF = 0,
	RW_HD_SLL,
	RW_HD_SLL2,
	RW_HD_ETH,
	RW_HD_VLAN,
	RW_HD_PFC,
	RW_HD_PAUSE,
	RW_HD_IPV4,
	RW_HD_IPV6,
	RW_HD_IPV6_EXT,
	RW_HD_UDP,
	RW_HD_LRH,
	RW_HD_GRH,
	RW_HD_BTH,
	RW_HD_RDETH,
	RW_HD_DETH,
	RW_HD_XRCETH,
	RW_HD_FETH,
	RW_HD_RETH,
	RW_HD_ATOMICETH,
	RW_HD_AETH,
	RW_HD_ATOMICACKETH,
	RW_HD_IMMDT,
	RW_HD_IETH,
	RW_HD_CNP,
	RW_HD_IPOIB,   /* the IPoIB header at the start of a SEND's payload */
	/* Management datagrams (mad.h): the common header, the class headers,
	 * one table per CM message (all named "cm", in attribute-ID order) and
	 * the attribute payloads. rw_packet_hviews() yields those of a frame
	 * with RW_P_MAD; rw_mad_class_hd(), rw_cm_hd() and rw_mad_attr_hd()
	 * find them for a MAD's bytes alone. */
	RW_HD_MAD,     /* the MAD's bytes 0-23 */
	RW_HD_SMP_LID, /* from MAD byte 0 (its rows lie in bytes 24-255) */
	RW_HD_SMP_DR,  /* from MAD byte 0 (D and the hops share the common header) */
	RW_HD_SA,      /* from MAD byte 0: the RMPP and SA headers */
	RW_HD_CM_REQ,  /* from MAD byte 24, as IBA 12.6 counts */
	RW_HD_CM_MRA,
	RW_HD_CM_REJ,
	RW_HD_CM_REP,
	RW_HD_CM_RTU,
	RW_HD_CM_DREQ,
	RW_HD_CM_DREP,
	RW_HD_CM_SIDR_REQ,
	RW_HD_CM_SIDR_REP,
	RW_HD_CM_LAP,
	RW_HD_CM_APR,
	/* The attribute payloads, from the class's data (rw_mad_data_offset),
	 * in enum rw_mad_attr_kind's order. */
	RW_HD_CLASS_PORT_INFO,
	RW_HD_PORT_COUNTERS,
	RW_HD_PATH_RECORD,
	RW_HD_NODE_INFO,   /* SMP attributes */
	RW_HD_SWITCH_INFO,
	RW_HD_GUID_INFO,
	RW_HD_PORT_INFO,
	RW_HD_PKEY_TABLE,
	RW_HD_SM_INFO,
	RW_HD_NODE_RECORD, /* SA records */
	RW_HD_SERVICE_RECORD,
	RW_HD_MC_MEMBER_RECORD,
	RW_HD_PORT_COUNTERS_EXT, /* PerfMgt */
};
/* The tables of a frame's carriers and transport headers: the MAD tables
 * follow them. rw_packet_hviews() yields both; printers and the plugin
 * register every table below RW_HD_ALL. */
#define RW_HD_COUNT 26
/* Every table, the MADs' too. */
#define RW_HD_ALL (RW_HD_PORT_COUNTERS_EXT + 1)

struct rw_hview;

struct rw_field {
	const char *name;  /* "psn": rocewire.bth.psn, JSON bth.psn, -v "psn" under "bth" */
	uint16_t off;      /* byte offset in the header */
	uint8_t size;      /* bytes read from off (1..8 for numbers; 4, 6, 16 for addresses) */
	uint8_t shift;     /* numbers: the field's lowest bit in the size-byte value */
	uint8_t bits;      /* numbers: its width; 0 for addresses and bytes */
	uint8_t type;      /* enum rw_ftype */
	uint8_t base;      /* enum rw_fbase */
	uint8_t digits;    /* hex digits -v shows at least */
	uint8_t flags;     /* RW_FF_* */
	uint8_t count;     /* an array of count values, size bytes apart (PFC quanta); 0: one */
	uint8_t of;        /* RW_FT_NAME: the field named; RW_FT_BYTES: the length field, or 0xFF */
	uint8_t nlen;      /* strlen(name): the printers write names without measuring them */
	/* The value's name ("RC_SEND_ONLY", "ECT(0)"), NULL when it has none. */
	const char *(*vname)(uint64_t v, const struct rw_hview *h);
	/* Present only when this says so (AETH's kind-dependent fields); NULL: always. */
	int (*when)(const struct rw_hview *h);
	/* RW_FF_DERIVED: computes the value; 0 when it has none (JSON null). */
	int (*get)(const struct rw_hview *h, uint64_t *v);
	const char *null_name; /* -v for a derived field without a value ("invalid") */
};

struct rw_header_desc {
	const char *name;  /* "bth": the JSON key, the -v layer, rocewire.bth */
	uint16_t len;      /* bytes the fields lie in */
	uint8_t n;         /* fields */
	uint8_t nlen;      /* strlen(name) */
	const struct rw_field *f;
};

/* One header of one decoded frame: its table and its bytes. */
struct rw_hview {
	const struct rw_header_desc *d;
	const uint8_t *b;           /* the header's first byte in the frame */
	const struct rw_packet *p;  /* the frame's decode (derived fields read it) */
	uint8_t idx;                /* which VLAN tag or IPv6 extension header */
	uint8_t hd;                 /* enum rw_hd */
};

/* Header hd's table (any hd below RW_HD_ALL); NULL for others. */
const struct rw_header_desc *rw_header_desc(enum rw_hd hd);
/* The table of the CM message with attribute ID attr_id (RW_HD_CM_REQ...),
 * -1 for an ID that is no CM message. */
int rw_cm_hd(uint16_t attr_id);
/* The table of a MAD class's own header (RW_HD_SMP_LID, RW_HD_SMP_DR,
 * RW_HD_SA), -1 for a class with none (PerfMgt's is reserved bytes). */
int rw_mad_class_hd(uint8_t mgmt_class);
/* The table of a decoded attribute payload (RW_HD_CLASS_PORT_INFO, ...) of
 * class mgmt_class, -1 when rocewire does not decode it. */
int rw_mad_attr_hd(uint8_t mgmt_class, uint16_t attr_id);
/* The index in header hd's table of the field named name, -1 when it has
 * none: for printers that look their fields up once, at start-up (a
 * string search per packet would cost more than the printing). */
int rw_field_index(enum rw_hd hd, const char *name);

/* ---- fields that code patches, by name, at compile time ----
 * Where the fields lie that the template stamp (tmpl.c) and the rewriter
 * (rewrite.c) write or read: byte offset in the header, bytes read, shift, bits
 * (IBA 9.2 for the BTH, 9.3 for the extension headers, RFC 768 for UDP,
 * RFC 791 and 8200 for the IP fields, IEEE 802.3 3.2 and 802.1Q 9.6 for
 * the Ethernet header and the VLAN tag's TCI and type). fields.c makes the
 * tables' rows from these, so a row and its name cannot disagree, and
 * RW_FIELD(BTH_PSN) is a row with the same bits as a compile-time constant
 * (without the table's name and printers): an inlined rw_field_put() on it
 * folds to the field's byte stores, with no table read per packet. */
#define RW_FP_BTH_OPCODE 0, 1, 0, 8
#define RW_FP_BTH_SE 1, 1, 7, 1
#define RW_FP_BTH_M 1, 1, 6, 1
#define RW_FP_BTH_PAD 1, 1, 4, 2
#define RW_FP_BTH_TVER 1, 1, 0, 4
#define RW_FP_BTH_PKEY 2, 2, 0, 16
#define RW_FP_BTH_FECN 4, 1, 7, 1
#define RW_FP_BTH_BECN 4, 1, 6, 1
#define RW_FP_BTH_RESV6 4, 1, 0, 6
#define RW_FP_BTH_DQPN 5, 3, 0, 24
#define RW_FP_BTH_ACKREQ 8, 1, 7, 1
#define RW_FP_BTH_RESV7 8, 1, 0, 7
#define RW_FP_BTH_PSN 9, 3, 0, 24
#define RW_FP_RDETH_RESV8 0, 1, 0, 8
#define RW_FP_RDETH_EEN 1, 3, 0, 24
#define RW_FP_DETH_QKEY 0, 4, 0, 32
#define RW_FP_DETH_RESV8 4, 1, 0, 8
#define RW_FP_DETH_SQPN 5, 3, 0, 24
#define RW_FP_XRCETH_RESV8 0, 1, 0, 8
#define RW_FP_XRCETH_XRCSRQ 1, 3, 0, 24
#define RW_FP_FETH_RESV26 0, 4, 6, 26
#define RW_FP_FETH_SEL 3, 1, 4, 2
#define RW_FP_FETH_PLT 3, 1, 0, 4
#define RW_FP_RETH_VA 0, 8, 0, 64
#define RW_FP_RETH_RKEY 8, 4, 0, 32
#define RW_FP_RETH_LEN 12, 4, 0, 32
#define RW_FP_ATOMICETH_VA 0, 8, 0, 64
#define RW_FP_ATOMICETH_RKEY 8, 4, 0, 32
#define RW_FP_ATOMICETH_SWAP_ADD 12, 8, 0, 64
#define RW_FP_ATOMICETH_COMPARE 20, 8, 0, 64
#define RW_FP_AETH_SYNDROME 0, 1, 0, 8
#define RW_FP_AETH_KIND 0, 1, 5, 2
#define RW_FP_AETH_VALUE 0, 1, 0, 5
#define RW_FP_AETH_MSN 1, 3, 0, 24
#define RW_FP_ATOMICACKETH_ORIG 0, 8, 0, 64
#define RW_FP_IMMDT_DATA 0, 4, 0, 32
#define RW_FP_IETH_RKEY 0, 4, 0, 32
#define RW_FP_UDP_SPORT 0, 2, 0, 16
#define RW_FP_UDP_DPORT 2, 2, 0, 16
#define RW_FP_UDP_LEN 4, 2, 0, 16
#define RW_FP_UDP_CHECKSUM 6, 2, 0, 16
#define RW_FP_IPV4_VERSION 0, 1, 4, 4
#define RW_FP_IPV4_DSCP 1, 1, 2, 6
#define RW_FP_IPV4_ECN 1, 1, 0, 2
#define RW_FP_IPV4_TTL 8, 1, 0, 8
#define RW_FP_IPV4_CHECKSUM 10, 2, 0, 16
#define RW_FP_IPV6_DSCP 0, 4, 22, 6
#define RW_FP_IPV6_ECN 0, 4, 20, 2
#define RW_FP_IPV6_FLOW_LABEL 0, 4, 0, 20
#define RW_FP_IPV4_SRC 12, 4, 0, 0
#define RW_FP_IPV4_DST 16, 4, 0, 0
#define RW_FP_IPV6_HOP_LIMIT 7, 1, 0, 8
#define RW_FP_IPV6_SRC 8, 16, 0, 0
#define RW_FP_IPV6_DST 24, 16, 0, 0
#define RW_FP_ETH_DST 0, 6, 0, 0
#define RW_FP_ETH_SRC 6, 6, 0, 0
#define RW_FP_ETH_TYPE 12, 2, 0, 16
#define RW_FP_VLAN_PCP 0, 2, 13, 3
#define RW_FP_VLAN_DEI 0, 2, 12, 1
#define RW_FP_VLAN_ID 0, 2, 0, 12
#define RW_FP_VLAN_TYPE 2, 2, 0, 16
#define RW_FP_IPOIB_TYPE 0, 2, 0, 16 /* RFC 4391 6 */
#define RW_FP_IPOIB_RESV 2, 2, 0, 16

/* The row of field NAME (RW_FP_NAME), as a pointer to a constant. */
#define RW_FIELD(name) RW_FIELD_X_(RW_FP_##name)
#define RW_FIELD_X_(pos) RW_FIELD_ROW_(pos)
#define RW_FIELD_ROW_(o, sz, sh, bt)                                                                \
	(&(const struct rw_field){ .off = (o), .size = (sz), .shift = (sh), .bits = (bt), .of = 0xFF })

/* The n (1 to 8) bytes at b as one number, big-endian or (le) little. */
static inline uint64_t rw_field_load_(const uint8_t *b, unsigned n, int le)
{
	uint64_t v = 0;

	if (le) {
		for (unsigned k = n; k-- > 0;)
			v = v << 8 | b[k];
		return v;
	}
	switch (n) { /* a constant row: one case, folded */
	case 1: return b[0];
	case 2: return rw_get_be16(b);
	case 3: return rw_get_be24(b);
	case 4: return rw_get_be32(b);
	case 8: return rw_get_be64(b);
	default:
		for (unsigned k = 0; k < n; k++)
			v = v << 8 | b[k];
		return v;
	}
}

/* The value of the field's bits in the header at hdr (element 0): what
 * rw_field_get() reads, inline for the per-packet readers. */
static inline uint64_t rw_field_peek(const struct rw_field *f, const uint8_t *hdr)
{
	uint64_t v = rw_field_load_(hdr + f->off, f->size > 8 ? 8u : f->size, f->flags & RW_FF_LE) >> f->shift;

	return f->bits >= 64 ? v : v & ((UINT64_C(1) << f->bits) - 1);
}

/* Writes v, cut to the field's width, into its bits of the header at hdr
 * (element 0), keeping every other bit of the bytes it shares (neighbours,
 * reserved bits), as rxe's rxe_hdr.h setters do: the mirror of
 * rw_field_get(). Numbers and flags only. A field that fills its bytes is
 * stored without reading them (a frame's buffer is written, not read, per
 * packet). */
static inline void rw_field_put(const struct rw_field *f, uint8_t *hdr, uint64_t v)
{
	uint8_t *b = hdr + f->off;
	unsigned n = f->size > 8 ? 8 : f->size;
	uint64_t all = n >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << 8 * n) - 1;
	uint64_t m = (f->bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->bits) - 1) << f->shift;
	uint64_t w = 0;

	if (m != all)
		w = rw_field_load_(b, n, f->flags & RW_FF_LE);
	w = (w & ~m) | (v << f->shift & m);
	if (f->flags & RW_FF_LE) {
		for (unsigned k = 0; k < n; k++, w >>= 8)
			b[k] = (uint8_t)w;
		return;
	}
	switch (n) {
	case 1: b[0] = (uint8_t)w; break;
	case 2: rw_put_be16(b, (uint16_t)w); break;
	case 3: rw_put_be24(b, (uint32_t)w); break;
	case 4: rw_put_be32(b, (uint32_t)w); break;
	case 8: rw_put_be64(b, w); break;
	default:
		for (unsigned k = n; k-- > 0; w >>= 8)
			b[k] = (uint8_t)w;
	}
}

/* The field's value read from the header's bytes hdr by offset, width and
 * shift (element i of an array field). Numbers and flags only. */
uint64_t rw_field_get(const struct rw_field *f, const uint8_t *hdr, unsigned i);
/* The value as the printers show it: rw_field_get(), or .get for a derived
 * field. 0 when it has none (a derived field's null). */
static inline int rw_field_value(const struct rw_field *f, const struct rw_hview *h, unsigned i,
				 uint64_t *v)
{
	if (f->flags & RW_FF_DERIVED)
		return f->get(h, v);
	*v = rw_field_peek(f, h->b + (size_t)i * f->size);
	return 1;
}
/* Whether the field is present in this header (its .when). */
static inline int rw_field_shown(const struct rw_field *f, const struct rw_hview *h)
{
	return !f->when || f->when(h);
}
/* The bytes of an address or bytes field, and (for bytes) their number. */
const uint8_t *rw_field_bytes(const struct rw_field *f, const struct rw_hview *h, size_t *n);
/* A RW_FT_NAME field's string, or the name of a number's value: NULL when
 * it has none. */
const char *rw_field_name_of(const struct rw_field *f, const struct rw_hview *h);

/* The headers of a decoded frame that have a table, outermost first, with
 * their bytes in frame (the bytes p was decoded from). Returns how many;
 * at most max are written (RW_HVIEW_MAX is enough for any frame). */
#define RW_HVIEW_MAX (8 + RW_MAX_VLAN + RW_IPV6_EXT_MAX + RW_HDR_COUNT + 4)
unsigned rw_packet_hviews(const struct rw_packet *p, const uint8_t *frame, struct rw_hview *out,
			  unsigned max);

/* Value names the tables use, for other printers. */
const char *rw_ecn_name(unsigned ecn);           /* "Not-ECT", "ECT(1)", "ECT(0)", "CE" */
const char *rw_ethertype_name(uint16_t t);       /* "IPv4", ...; NULL when unknown */
const char *rw_ipproto_name(uint8_t proto);      /* "UDP", "routing", ...; NULL when unknown */
const char *rw_aeth_kind_key(unsigned kind);     /* "ack", "rnr_nak", "reserved", "nak" */

#ifdef __cplusplus
}
#endif

#endif
