/* SPDX-License-Identifier: BSD-3-Clause */
/* --json: one JSON object per packet (JSON Lines). The schema is documented
 * in README-json.md.
 *
 * Each packet's object is written straight into the output buffer from the
 * field tables (rocewire/fields.h), in the order -v prints: the record's
 * members, one object per header under its table's name (an array of them
 * for VLAN tags and IPv6 extension headers), then payload, CRCs and error.
 * An earlier version filled a jansson tree in place and walked it; writing
 * the text directly does the same work without the tree (no key hashing,
 * no object per value), which is what kept --json as fast as -v once every
 * header came from the tables. jansson is used only to make the input's
 * name valid UTF-8. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cap.h"
#include "fmt.h"

/* Bytes a value other than a string of unknown length may take: an IPv6
 * address (41 with its quotes), 20 hex bytes (61), a "0x" 64-bit number
 * (20), a 20-digit number, a value name (the longest, a NAK code's, is
 * under 40). */
#define VALUE_MAX 96

struct cap_json {
	size_t hdr_room[RW_HD_ALL]; /* bytes a header's object can take */
	const char *file_src;         /* the input name file was made from */
	char *file;                   /* that name, quoted, as a JSON string */
	size_t file_len;
};

/* The bytes of a header's object at most: its name, and per field its key
 * and a value (or count of them). */
static size_t header_room(const struct rw_header_desc *d)
{
	size_t n = (size_t)d->nlen + 8;

	for (unsigned k = 0; k < d->n; k++) {
		const struct rw_field *f = &d->f[k];
		size_t v = f->count > 1 ? (size_t)f->count * 22 : VALUE_MAX;
		/* bytes: "hh:" each (a MAD's private data is up to 224) */
		if (f->type == RW_FT_BYTES && (size_t)f->size * 3 + 4 > v)
			v = (size_t)f->size * 3 + 4;
		n += (size_t)f->nlen + 4 + v;
	}
	return n;
}

struct cap_json *cap_json_new(void)
{
	struct cap_json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	for (unsigned hd = 0; hd < RW_HD_ALL; hd++)
		j->hdr_room[hd] = header_room(rw_header_desc((enum rw_hd)hd));
	return j;
}

void cap_json_free(struct cap_json *j)
{
	if (!j)
		return;
	free(j->file);
	free(j);
}

/* ---- values -------------------------------------------------------------- */

/* JSON string with the escapes RFC 8259 requires. Bytes >= 0x80 are copied:
 * every string written is ASCII except the file name, made valid UTF-8
 * first. Needs room for 6n + 2 bytes. */
static char *jw_string(char *o, const char *s, size_t n)
{
	size_t plain = 0;

	while (plain < n && (unsigned char)s[plain] >= 0x20 && s[plain] != '"' && s[plain] != '\\')
		plain++;
	*o++ = '"';
	if (plain == n) { /* nothing to escape: all our keys and values */
		o = fmt_mem(o, s, n);
		*o++ = '"';
		return o;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\') {
			*o++ = '\\';
			*o++ = (char)ch;
		} else if (ch < 0x20) {
			o = FMT_LIT(o, "\\u00");
			o = fmt_hexw(o, ch, 2);
		} else {
			*o++ = (char)ch;
		}
	}
	*o++ = '"';
	return o;
}

static char *jw_str(char *o, const char *s)
{
	return jw_string(o, s, strlen(s));
}

/* "key": (keys are the tables' names and our own: nothing to escape) */
static char *jw_key(char *o, const char *k, size_t n)
{
	*o++ = '"';
	o = fmt_mem(o, k, n);
	return FMT_LIT(o, "\":");
}
#define JW_KEY(o, lit) FMT_LIT(o, "\"" lit "\":")

static char *jw_int(char *o, int64_t v)
{
	if (v < 0) {
		*o++ = '-';
		return fmt_u64(o, (uint64_t)0 - (uint64_t)v);
	}
	return fmt_u64(o, (uint64_t)v);
}

/* 64-bit values as "0x..." so jq (doubles) does not round them. */
static char *jw_hex(char *o, uint64_t v, unsigned digits)
{
	*o++ = '"';
	o = fmt_hex(o, v, digits);
	*o++ = '"';
	return o;
}

/* ---- headers ------------------------------------------------------------- */

/* One field's value as its table row says: numbers as integers (64-bit ones
 * as "0x..." strings), flags as booleans, addresses and names as strings,
 * a derived field without a value as null. */
static char *field_value(char *o, const struct rw_field *f, const struct rw_hview *h)
{
	uint64_t v;
	size_t n;
	const char *name;

	switch (f->type) {
	case RW_FT_IPV4:
		*o++ = '"';
		o = fmt_ipv4(o, rw_get_be32(h->b + f->off));
		*o++ = '"';
		return o;
	case RW_FT_IPV6:
		*o++ = '"';
		o = fmt_ipv6(o, h->b + f->off);
		*o++ = '"';
		return o;
	case RW_FT_MAC:
		*o++ = '"';
		o = fmt_mac(o, h->b + f->off);
		*o++ = '"';
		return o;
	case RW_FT_BYTES: {
		const uint8_t *b = rw_field_bytes(f, h, &n);
		*o++ = '"';
		o = fmt_hexbytes(o, b, n < f->size ? n : f->size);
		*o++ = '"';
		return o;
	}
	case RW_FT_NAME:
		name = rw_field_name_of(f, h);
		return jw_str(o, name ? name : "?");
	default:
		break;
	}
	if (f->count > 1) {
		*o++ = '[';
		for (unsigned i = 0; i < f->count; i++) {
			if (i)
				*o++ = ',';
			v = 0;
			rw_field_value(f, h, i, &v);
			o = fmt_u64(o, v);
		}
		*o++ = ']';
		return o;
	}
	if (!rw_field_value(f, h, 0, &v))
		return FMT_LIT(o, "null");
	if (f->type == RW_FT_FLAG)
		return v ? FMT_LIT(o, "true") : FMT_LIT(o, "false");
	if ((f->flags & RW_FF_JSONNAME) && f->vname && (name = f->vname(v, h)))
		return jw_str(o, name);
	if (f->bits > 53 || (f->flags & RW_FF_DERIVED && v >> 53))
		return jw_hex(o, v, 1);
	return fmt_u64(o, v);
}

/* A header's object: the fields of its table that are present, in table
 * order. */
static char *header_obj(char *o, const struct rw_hview *h)
{
	const struct rw_header_desc *d = h->d;
	int first = 1;

	*o++ = '{';
	for (unsigned k = 0; k < d->n; k++) {
		const struct rw_field *f = &d->f[k];
		if (!rw_field_shown(f, h))
			continue;
		if (!first)
			*o++ = ',';
		first = 0;
		o = jw_key(o, f->name, f->nlen);
		o = field_value(o, f, h);
	}
	*o++ = '}';
	return o;
}

/* The headers, outermost first: one object per header under its table's
 * name, an array of them for the VLAN tags and the IPv6 extension headers.
 * Each header is given room of its own in the output buffer. */
static char *headers(struct cap_json *j, struct cap_out *out, char *o, const struct rw_hview *v,
		     unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned same = 1, many = v[i].hd == RW_HD_VLAN || v[i].hd == RW_HD_IPV6_EXT;
		while (many && i + same < n && v[i + same].hd == v[i].hd)
			same++;
		cap_out_end(out, o);
		o = cap_out_begin(out, j->hdr_room[v[i].hd] * same + 64);
		*o++ = ',';
		o = jw_key(o, v[i].d->name, v[i].d->nlen);
		if (many)
			*o++ = '[';
		for (unsigned k = 0; k < same; k++) {
			if (k)
				*o++ = ',';
			o = header_obj(o, &v[i + k]);
		}
		if (many)
			*o++ = ']';
		i += same - 1;
	}
	return o;
}

/* ---- the packet ---------------------------------------------------------- */

/* The input's name as a JSON string: file names need not be UTF-8, JSON
 * strings must be, so a name that is not (jansson checks) gets '?' for
 * each byte >= 0x80. Made once per input. */
static void file_name(struct cap_json *j, const char *name)
{
	json_t *s;
	char *t = NULL;
	size_t n = strlen(name);

	if (j->file_src == name && j->file)
		return;
	free(j->file);
	j->file = NULL;
	j->file_src = name;
	s = json_string(name);
	if (!s && (t = malloc(n + 1)) != NULL) {
		for (size_t i = 0; i <= n; i++)
			t[i] = (unsigned char)name[i] >= 0x80 ? '?' : name[i];
	}
	if ((j->file = malloc(6 * n + 3)) != NULL)
		j->file_len = (size_t)(jw_string(j->file, s ? name : t ? t : "?", s || t ? n : 1) -
				       j->file);
	json_decref(s);
	free(t);
}

static char *crc(char *o, const char *key, size_t klen, int captured, enum rw_crc_status st,
		 uint32_t wire, uint32_t computed, unsigned digits)
{
	*o++ = ',';
	o = jw_key(o, key, klen);
	o = FMT_LIT(o, "{\"status\":");
	o = jw_str(o, rw_crc_status_name(st));
	if (captured) {
		o = FMT_LIT(o, ",\"wire\":");
		o = jw_hex(o, wire, digits);
	}
	if (st != RW_CRC_NONE) {
		o = FMT_LIT(o, ",\"computed\":");
		o = jw_hex(o, computed, digits);
	}
	*o++ = '}';
	return o;
}

/* The record's own members: frame number, file, time, lengths, interface,
 * carrier, truncation. */
static char *record(struct cap_ctx *c, char *o, const struct cap_record *r,
		    const struct rw_packet *p)
{
	struct cap_json *j = c->json;

	o = FMT_LIT(o, "{\"frame\":");
	o = fmt_u64(o, r->index);
	if (c->multi_file && c->file) {
		if (j->file) {
			o = FMT_LIT(o, ",\"file\":");
			o = fmt_mem(o, j->file, j->file_len);
		}
	}
	o = FMT_LIT(o, ",\"time\":\"");
	o = cap_fmt_time_epoch(o, r->ts_sec, r->ts_nsec);
	o = FMT_LIT(o, "\",\"caplen\":");
	o = fmt_u32(o, r->caplen);
	o = FMT_LIT(o, ",\"len\":");
	o = fmt_u32(o, r->wirelen);
	/* pcapng: a file may hold several interfaces of several link types */
	if (r->src && r->iface >= 0) {
		o = FMT_LIT(o, ",\"interface\":");
		o = jw_int(o, r->iface);
		o = FMT_LIT(o, ",\"linktype\":");
		o = jw_int(o, r->linktype);
	}
	o = FMT_LIT(o, ",\"carrier\":");
	o = jw_str(o, rw_carrier_name(p->carrier < RW_CARRIER_COUNT ? p->carrier : 0));
	if (r->caplen < r->wirelen)
		o = FMT_LIT(o, ",\"truncated\":true");
	return o;
}

/* After the headers: payload, the CRCs, and what was wrong with the
 * packet. */
static char *trailer(char *o, const struct cap_record *r, const struct rw_packet *p)
{
	if (cap_payload_known(p)) {
		o = FMT_LIT(o, ",\"payload\":{\"len\":");
		o = fmt_u32(o, p->payload_len);
		o = FMT_LIT(o, ",\"captured\":");
		o = fmt_u32(o, p->payload_caplen);
		*o++ = '}';
	}
	if ((p->present & RW_P_ICRC) || p->icrc_status != RW_CRC_NONE)
		o = crc(o, "icrc", 4, (p->present & RW_P_ICRC) != 0, p->icrc_status,
			rw_icrc_display(p->icrc_wire), rw_icrc_display(p->icrc_computed), 8);
	if ((p->present & RW_P_VCRC) || p->vcrc_status != RW_CRC_NONE)
		o = crc(o, "vcrc", 4, (p->present & RW_P_VCRC) != 0, p->vcrc_status, p->vcrc_wire,
			p->vcrc_computed, 4);
	if (p->err != RW_OK) {
		char why[400];
		o = FMT_LIT(o, ",\"error\":");
		o = jw_str(o, rw_packet_problem(p, r->caplen, r->wirelen, why, sizeof(why)));
	}
	return o;
}

void cap_print_json(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	struct cap_out *out = &c->out;
	struct rw_hview v[RW_HVIEW_MAX];
	unsigned n = r->data ? rw_packet_hviews(p, r->data, v, RW_HVIEW_MAX) : 0;
	char *o;

	if (c->multi_file && c->file)
		file_name(c->json, c->file);
	/* the record's members, the file name's JSON string among them */
	o = cap_out_begin(out, 512 + (c->json->file ? c->json->file_len : 0));

	o = record(c, o, r, p);
	o = headers(c->json, out, o, v, n < RW_HVIEW_MAX ? n : RW_HVIEW_MAX);
	cap_out_end(out, o);
	/* payload, CRCs, and an error text of up to 399 bytes, escaped */
	o = cap_out_begin(out, 512 + 6 * 400);
	o = trailer(o, r, p);
	*o++ = '}';
	*o++ = '\n';
	cap_out_end(out, o);
}
