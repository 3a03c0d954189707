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
};
#define RW_HD_COUNT 25

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

const struct rw_header_desc *rw_header_desc(enum rw_hd hd);

/* The field's value read from the header's bytes hdr by offset, width and
 * shift (element i of an array field). Numbers and flags only. */
uint64_t rw_field_get(const struct rw_field *f, const uint8_t *hdr, unsigned i);
/* The value as the printers show it: rw_field_get(), or .get for a derived
 * field. 0 when it has none (a derived field's null). */
int rw_field_value(const struct rw_field *f, const struct rw_hview *h, unsigned i, uint64_t *v);
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
#define RW_HVIEW_MAX (8 + RW_MAX_VLAN + RW_IPV6_EXT_MAX + RW_HDR_COUNT)
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
