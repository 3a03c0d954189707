/* SPDX-License-Identifier: BSD-3-Clause */
/* --json: one JSON object per packet (JSON Lines), built with jansson.
 * The schema is documented in README-json.md.
 *
 * Speed: the objects are made once and updated in place. Each object keeps,
 * for the set of keys it holds (its "shape"), a slot per key pointing at the
 * value, so a packet shaped like the previous one costs no hash lookups and
 * no allocation beyond strings that changed (the timestamp). An object is
 * emptied and refilled, keeping its key order, only when its shape changes.
 * The tree is then written by a small walker with the fmt.h formatters:
 * json_dumpb() formats every integer with snprintf, which alone made JSON
 * output 5x slower. json_dumpb() remains the fallback for what the walker
 * does not handle (a value that does not fit the buffer). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cap.h"
#include "fmt.h"

#define JOBJ_SLOTS 40

struct jobj {
	json_t *o;
	uint64_t shape;  /* which variant of the object the keys are for */
	unsigned i;      /* next slot: keys are set in the same order for a shape */
	json_t *slot[JOBJ_SLOTS]; /* borrowed: the values o holds, by set order */
};

/* The objects that are not a header's: */
enum { J_PAYLOAD, J_ICRC, J_VCRC, J_COUNT };

struct cap_json {
	struct jobj root;
	struct jobj hdr[RW_HD_COUNT];  /* one per header table */
	json_t *arr[RW_HD_COUNT];      /* a header's array field (pfc.quanta), made on first use */
	struct jobj sub[J_COUNT];
	json_t *vlan_arr;
	struct jobj vlan[RW_MAX_VLAN];
	unsigned n_vlan;
	json_t *ext_arr;            /* ipv6_ext */
	struct jobj ext[RW_IPV6_EXT_MAX];
	unsigned n_ext;
	json_t *carrier[RW_CARRIER_COUNT];
	const char *file_src;       /* the input name j->file was made from */
	json_t *file;
};

#define SHAPE_NONE UINT64_MAX

/* ---- in-place setters ---------------------------------------------------- */

static void jbegin(struct jobj *j, uint64_t shape)
{
	if (j->shape != shape) {
		json_object_clear(j->o);
		memset(j->slot, 0, sizeof(j->slot));
		j->shape = shape;
	}
	j->i = 0;
}

/* The slot of the next key; NULL when it has no value yet (new shape). */
static json_t **jslot(struct jobj *j)
{
	return j->i < JOBJ_SLOTS ? &j->slot[j->i++] : NULL;
}

/* Stores v under k (taking the reference) and remembers it in the slot. */
static void jput(struct jobj *j, json_t **slot, const char *k, json_t *v)
{
	json_object_set_new_nocheck(j->o, k, v);
	if (slot)
		*slot = v;
}

static void jset_int(struct jobj *j, const char *k, json_int_t v)
{
	json_t **slot = jslot(j);
	if (slot && *slot && json_is_integer(*slot))
		json_integer_set(*slot, v);
	else
		jput(j, slot, k, json_integer(v));
}

static void jset_strn(struct jobj *j, const char *k, const char *s, size_t n)
{
	json_t **slot = jslot(j);
	if (slot && *slot && json_is_string(*slot)) {
		json_t *cur = *slot;
		if (json_string_length(cur) != n || memcmp(json_string_value(cur), s, n) != 0)
			json_string_setn_nocheck(cur, s, n);
	} else {
		jput(j, slot, k, json_stringn_nocheck(s, n));
	}
}

static void jset_str(struct jobj *j, const char *k, const char *s)
{
	jset_strn(j, k, s, strlen(s));
}

/* A value the object shares (a sub-object, a constant string, true/false,
 * null): replaced only when it differs from the one in the slot. */
static void jset_ref(struct jobj *j, const char *k, json_t *v)
{
	json_t **slot = jslot(j);
	if (slot && *slot == v)
		return;
	json_object_set_nocheck(j->o, k, v);
	if (slot)
		*slot = v;
}

static void jset_bool(struct jobj *j, const char *k, int b)
{
	jset_ref(j, k, json_boolean(b));
}

/* 64-bit values as "0x..." so jq (doubles) does not round them. */
static void jset_hex(struct jobj *j, const char *k, uint64_t v, unsigned digits)
{
	char buf[24];
	char *e = fmt_hex(buf, v, digits);
	jset_strn(j, k, buf, (size_t)(e - buf));
}

static void jset_ip4(struct jobj *j, const char *k, uint32_t a)
{
	char buf[16];
	char *e = fmt_ipv4(buf, a);
	jset_strn(j, k, buf, (size_t)(e - buf));
}

static void jset_ip6(struct jobj *j, const char *k, const uint8_t a[16])
{
	char buf[48];
	char *e = fmt_ipv6(buf, a);
	jset_strn(j, k, buf, (size_t)(e - buf));
}

static void jset_mac(struct jobj *j, const char *k, const uint8_t m[6])
{
	char buf[18];
	char *e = fmt_mac(buf, m);
	jset_strn(j, k, buf, (size_t)(e - buf));
}

/* ---- life cycle ---------------------------------------------------------- */

static void jobj_init(struct jobj *j)
{
	j->o = json_object();
	j->shape = SHAPE_NONE;
}

struct cap_json *cap_json_new(void)
{
	struct cap_json *j = calloc(1, sizeof(*j));
	int ok = 1;
	if (!j)
		return NULL;
	jobj_init(&j->root);
	ok &= j->root.o != NULL;
	for (int i = 0; i < RW_HD_COUNT; i++) {
		jobj_init(&j->hdr[i]);
		ok &= j->hdr[i].o != NULL;
	}
	for (int i = 0; i < J_COUNT; i++) {
		jobj_init(&j->sub[i]);
		ok &= j->sub[i].o != NULL;
	}
	j->vlan_arr = json_array();
	for (int i = 0; i < RW_MAX_VLAN; i++) {
		jobj_init(&j->vlan[i]);
		ok &= j->vlan[i].o != NULL;
	}
	j->ext_arr = json_array();
	for (int i = 0; i < RW_IPV6_EXT_MAX; i++) {
		jobj_init(&j->ext[i]);
		ok &= j->ext[i].o != NULL;
	}
	for (int i = 0; i < RW_CARRIER_COUNT; i++)
		j->carrier[i] = json_string(rw_carrier_name((enum rw_carrier)i));
	if (!ok || !j->vlan_arr || !j->ext_arr) {
		cap_json_free(j);
		return NULL;
	}
	return j;
}

void cap_json_free(struct cap_json *j)
{
	if (!j)
		return;
	json_decref(j->root.o);
	for (int i = 0; i < RW_HD_COUNT; i++) {
		json_decref(j->hdr[i].o);
		json_decref(j->arr[i]);
	}
	for (int i = 0; i < J_COUNT; i++)
		json_decref(j->sub[i].o);
	json_decref(j->vlan_arr);
	for (int i = 0; i < RW_MAX_VLAN; i++)
		json_decref(j->vlan[i].o);
	json_decref(j->ext_arr);
	for (int i = 0; i < RW_IPV6_EXT_MAX; i++)
		json_decref(j->ext[i].o);
	for (int i = 0; i < RW_CARRIER_COUNT; i++)
		json_decref(j->carrier[i]);
	json_decref(j->file);
	free(j);
}

/* ---- per header ------------------------------------------------------- */

/* An array field's JSON array (pfc.quanta), its elements set in place. */
static json_t *field_array(struct cap_json *j, const struct rw_field *f, const struct rw_hview *h)
{
	json_t **a = &j->arr[h->hd];
	if (!*a) {
		*a = json_array();
		for (unsigned i = 0; *a && i < f->count; i++)
			json_array_append_new(*a, json_integer(0));
		if (!*a)
			return json_null();
	}
	for (unsigned i = 0; i < f->count; i++) {
		uint64_t v = 0;
		rw_field_value(f, h, i, &v);
		json_integer_set(json_array_get(*a, i), (json_int_t)v);
	}
	return *a;
}

/* One field as its table row says: numbers as integers (64-bit ones as
 * "0x..." strings), flags as booleans, addresses and names as strings, a
 * derived field without a value as null. */
static void field(struct cap_json *j, struct jobj *s, const struct rw_field *f,
		  const struct rw_hview *h)
{
	char buf[64];
	char *e;
	uint64_t v;
	size_t n;
	const char *name;

	switch (f->type) {
	case RW_FT_IPV4:
		jset_ip4(s, f->name, rw_get_be32(h->b + f->off));
		return;
	case RW_FT_IPV6:
		jset_ip6(s, f->name, h->b + f->off);
		return;
	case RW_FT_MAC:
		jset_mac(s, f->name, h->b + f->off);
		return;
	case RW_FT_BYTES: {
		const uint8_t *b = rw_field_bytes(f, h, &n);
		e = fmt_hexbytes(buf, b, n < 20 ? n : 20);
		jset_strn(s, f->name, buf, (size_t)(e - buf));
		return;
	}
	case RW_FT_NAME:
		name = rw_field_name_of(f, h);
		jset_str(s, f->name, name ? name : "?");
		return;
	default:
		break;
	}
	if (f->count > 1) {
		jset_ref(s, f->name, field_array(j, f, h));
		return;
	}
	if (!rw_field_value(f, h, 0, &v)) {
		jset_ref(s, f->name, json_null());
		return;
	}
	if (f->type == RW_FT_FLAG) {
		jset_bool(s, f->name, v != 0);
	} else if ((f->flags & RW_FF_JSONNAME) && f->vname && (name = f->vname(v, h))) {
		jset_str(s, f->name, name);
	} else if (f->bits > 53 || (f->flags & RW_FF_DERIVED && v >> 53)) {
		jset_hex(s, f->name, v, 1);
	} else {
		jset_int(s, f->name, (json_int_t)v);
	}
}

/* A header's object: the fields of its table that are present, in table
 * order. Its shape is the set of those fields. */
static json_t *fill_hdr(struct cap_json *j, struct jobj *s, const struct rw_hview *h)
{
	const struct rw_header_desc *d = h->d;
	uint64_t shape = 0;

	for (unsigned k = 0; k < d->n && k < 64; k++)
		if (rw_field_shown(&d->f[k], h))
			shape |= UINT64_C(1) << k;
	jbegin(s, shape);
	for (unsigned k = 0; k < d->n && k < 64; k++)
		if (shape >> k & 1)
			field(j, s, &d->f[k], h);
	return s->o;
}

/* The n views of one repeated header (VLAN tags, IPv6 extension headers)
 * as an array of objects. */
static json_t *fill_array(struct cap_json *j, json_t *arr, struct jobj *objs, unsigned *have,
			  const struct rw_hview *h, unsigned n)
{
	if (n != *have) {
		json_array_clear(arr);
		for (unsigned i = 0; i < n; i++)
			json_array_append(arr, objs[i].o);
		*have = n;
	}
	for (unsigned i = 0; i < n; i++)
		fill_hdr(j, &objs[i], &h[i]);
	return arr;
}

static json_t *fill_crc(struct jobj *s, int captured, enum rw_crc_status st, uint32_t wire,
			uint32_t computed, unsigned digits)
{
	uint64_t shape = (uint64_t)captured << 1 | (st != RW_CRC_NONE);

	jbegin(s, shape);
	jset_str(s, "status", rw_crc_status_name(st));
	if (captured)
		jset_hex(s, "wire", wire, digits);
	if (st != RW_CRC_NONE)
		jset_hex(s, "computed", computed, digits);
	return s->o;
}

/* ---- the packet ---------------------------------------------------------- */

/* Root keys that come and go: bit hd for each header table's key (in
 * wire order, as the headers come), then these. */
#define R_FILE (UINT64_C(1) << 32)
#define R_TRUNCATED (UINT64_C(1) << 33)
#define R_IFACE (UINT64_C(1) << 34)
#define R_PAYLOAD (UINT64_C(1) << 35)
#define R_ICRC (UINT64_C(1) << 36)
#define R_VCRC (UINT64_C(1) << 37)
#define R_ERROR (UINT64_C(1) << 38)
_Static_assert(RW_HD_COUNT <= 32, "root shape: a bit per header table below R_FILE");

static uint64_t root_shape(const struct cap_ctx *c, const struct cap_record *r,
			   const struct rw_packet *p, const struct rw_hview *v, unsigned n)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s |= UINT64_C(1) << v[i].hd;
	if (c->multi_file)
		s |= R_FILE;
	if (r->caplen < r->wirelen)
		s |= R_TRUNCATED;
	/* pcapng: a file may hold several interfaces of several link types */
	if (r->src && r->iface >= 0)
		s |= R_IFACE;
	if (cap_payload_known(p))
		s |= R_PAYLOAD;
	if ((p->present & RW_P_ICRC) || p->icrc_status != RW_CRC_NONE)
		s |= R_ICRC;
	if ((p->present & RW_P_VCRC) || p->vcrc_status != RW_CRC_NONE)
		s |= R_VCRC;
	if (p->err != RW_OK)
		s |= R_ERROR;
	return s;
}

/* The input's name as a JSON string: file names need not be UTF-8, JSON
 * strings must be, so other names get '?' for each byte >= 0x80. */
static json_t *file_name(struct cap_json *j, const char *name)
{
	if (j->file_src == name && j->file)
		return j->file;
	json_decref(j->file);
	j->file_src = name;
	j->file = json_string(name);
	if (!j->file) {
		size_t n = strlen(name);
		char *t = malloc(n + 1);
		for (size_t i = 0; t && i <= n; i++)
			t[i] = (unsigned char)name[i] >= 0x80 ? '?' : name[i];
		j->file = json_string(t ? t : "?");
		free(t);
	}
	return j->file;
}

/* The record's own members: frame number, file, time, lengths, interface,
 * carrier, truncation. */
static void build_record(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p,
			 uint64_t shape)
{
	struct cap_json *j = c->json;
	struct jobj *root = &j->root;
	char buf[48];
	char *e;

	jset_int(root, "frame", (json_int_t)r->index);
	if (shape & R_FILE)
		jset_ref(root, "file", file_name(j, c->file));
	e = cap_fmt_time_epoch(buf, r->ts_sec, r->ts_nsec);
	jset_strn(root, "time", buf, (size_t)(e - buf));
	jset_int(root, "caplen", r->caplen);
	jset_int(root, "len", r->wirelen);
	if (shape & R_IFACE) {
		jset_int(root, "interface", r->iface);
		jset_int(root, "linktype", r->linktype);
	}
	jset_ref(root, "carrier", j->carrier[p->carrier < RW_CARRIER_COUNT ? p->carrier : 0]);
	if (shape & R_TRUNCATED)
		jset_bool(root, "truncated", 1);
}

/* The headers, outermost first, each from its field table: one object per
 * header under its table's name, an array of them for the VLAN tags and
 * the IPv6 extension headers. */
static void build_headers(struct cap_json *j, const struct rw_hview *v, unsigned n)
{
	struct jobj *root = &j->root;

	for (unsigned i = 0; i < n; i++) {
		unsigned same = 1;
		while (i + same < n && v[i + same].hd == v[i].hd)
			same++;
		if (v[i].hd == RW_HD_VLAN) {
			jset_ref(root, v[i].d->name,
				 fill_array(j, j->vlan_arr, j->vlan, &j->n_vlan, &v[i], same));
			i += same - 1;
		} else if (v[i].hd == RW_HD_IPV6_EXT) {
			jset_ref(root, v[i].d->name,
				 fill_array(j, j->ext_arr, j->ext, &j->n_ext, &v[i], same));
			i += same - 1;
		} else {
			jset_ref(root, v[i].d->name, fill_hdr(j, &j->hdr[v[i].hd], &v[i]));
		}
	}
}

/* After the headers: payload, the CRCs, and what was wrong with the
 * packet. */
static void build_trailer(struct cap_json *j, const struct cap_record *r,
			  const struct rw_packet *p, uint64_t shape)
{
	struct jobj *root = &j->root;

	if (shape & R_PAYLOAD) {
		struct jobj *s = &j->sub[J_PAYLOAD];
		jbegin(s, 0);
		jset_int(s, "len", p->payload_len);
		jset_int(s, "captured", p->payload_caplen);
		jset_ref(root, "payload", s->o);
	}
	if (shape & R_ICRC)
		jset_ref(root, "icrc",
			 fill_crc(&j->sub[J_ICRC], (p->present & RW_P_ICRC) != 0, p->icrc_status,
				  rw_icrc_display(p->icrc_wire), rw_icrc_display(p->icrc_computed), 8));
	if (shape & R_VCRC)
		jset_ref(root, "vcrc",
			 fill_crc(&j->sub[J_VCRC], (p->present & RW_P_VCRC) != 0, p->vcrc_status,
				  p->vcrc_wire, p->vcrc_computed, 4));
	if (shape & R_ERROR) {
		char why[400];
		jset_str(root, "error", rw_packet_problem(p, r->caplen, r->wirelen, why, sizeof(why)));
	}
}

/* One packet's object, refilled in place in c->json's objects (see the top
 * of this file). The parts set the keys in the output's order, which the
 * slots of a shape depend on. */
static void build(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	struct cap_json *j = c->json;
	struct rw_hview v[RW_HVIEW_MAX];
	unsigned n = r->data ? rw_packet_hviews(p, r->data, v, RW_HVIEW_MAX) : 0;
	uint64_t shape = root_shape(c, r, p, v, n);

	jbegin(&j->root, shape);
	build_record(c, r, p, shape);
	build_headers(j, v, n);
	build_trailer(j, r, p, shape);
}

/* ---- writing ------------------------------------------------------------- */

/* JSON string with the escapes RFC 8259 requires. Bytes >= 0x80 are copied:
 * every string we make is ASCII except the file name, made valid UTF-8 when
 * set. NULL when it does not fit before end. */
static char *jw_string(char *o, const char *end, const char *s, size_t n)
{
	size_t plain = 0;

	while (plain < n && (unsigned char)s[plain] >= 0x20 && s[plain] != '"' && s[plain] != '\\')
		plain++;
	if (plain == n) { /* nothing to escape: all our keys and values */
		if ((size_t)(end - o) < n + 2)
			return NULL;
		*o++ = '"';
		o = fmt_mem(o, s, n);
		*o++ = '"';
		return o;
	}
	if ((size_t)(end - o) < 6 * n + 2)
		return NULL;
	*o++ = '"';
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

/* Compact JSON of v, as json_dumpb(JSON_COMPACT) writes it; NULL when it
 * does not fit or holds a type we never make (real numbers). */
static char *jw_value(char *o, const char *end, json_t *v)
{
	if (end - o < 24)
		return NULL;
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		int first = 1;
		*o++ = '{';
		for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
			const char *k = json_object_iter_key(it);
			if (!first)
				*o++ = ',';
			first = 0;
			if (!(o = jw_string(o, end, k, strlen(k))) || end - o < 2)
				return NULL;
			*o++ = ':';
			if (!(o = jw_value(o, end, json_object_iter_value(it))) || end - o < 2)
				return NULL;
		}
		*o++ = '}';
		return o;
	}
	case JSON_ARRAY: {
		size_t n = json_array_size(v);
		*o++ = '[';
		for (size_t i = 0; i < n; i++) {
			if (i)
				*o++ = ',';
			if (!(o = jw_value(o, end, json_array_get(v, i))) || end - o < 2)
				return NULL;
		}
		*o++ = ']';
		return o;
	}
	case JSON_STRING:
		return jw_string(o, end, json_string_value(v), json_string_length(v));
	case JSON_INTEGER: {
		json_int_t x = json_integer_value(v);
		if (x < 0) {
			*o++ = '-';
			return fmt_u64(o, (uint64_t)0 - (uint64_t)x);
		}
		return fmt_u64(o, (uint64_t)x);
	}
	case JSON_TRUE:
		return FMT_LIT(o, "true");
	case JSON_FALSE:
		return FMT_LIT(o, "false");
	case JSON_NULL:
		return FMT_LIT(o, "null");
	default:
		return NULL;
	}
}

void cap_print_json(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	struct cap_out *out = &c->out;

	build(c, r, p);

	char *o = cap_out_begin(out, CAP_PKT_MAX);
	char *e = jw_value(o, o + CAP_PKT_MAX - 1, c->json->root.o);
	if (e) {
		*e++ = '\n';
		cap_out_end(out, e);
		return;
	}
	size_t room = out->cap - out->len - 1; /* keep one byte for the newline */
	size_t n = json_dumpb(c->json->root.o, o, room, JSON_COMPACT);
	if (n > room) {
		cap_out_flush(out);
		o = out->buf;
		room = out->cap - 1;
		n = json_dumpb(c->json->root.o, o, room, JSON_COMPACT);
		if (n > room)
			n = 0; /* cannot happen for our objects (a few KiB at most) */
	}
	o[n] = '\n';
	cap_out_end(out, o + n + 1);
}
