/* SPDX-License-Identifier: BSD-3-Clause */
/* -v: every field of every header, one per line, indented by layer:
 *
 *   frame 1: 78 bytes on the wire, 78 captured, rocev2, time 1700000000.000000001
 *     bth
 *       opcode 0x24 (UC_SEND_ONLY)
 *       ...
 *
 * The headers and their fields are the field tables' (rocewire/fields.h),
 * as --json prints them: the same names and values (README-json.md). */
#include "cap.h"
#include "fmt.h"

#define IND1 "  "
#define IND2 "    "

static char *layer(char *o, const char *name)
{
	o = FMT_LIT(o, IND1);
	o = fmt_str(o, name);
	return fmt_chr(o, '\n');
}

static char *key(char *o, const char *name)
{
	o = FMT_LIT(o, IND2);
	o = fmt_str(o, name);
	return fmt_chr(o, ' ');
}

static char *f_u(char *o, const char *name, uint64_t v)
{
	o = key(o, name);
	o = fmt_u64(o, v);
	return fmt_chr(o, '\n');
}

static char *f_x(char *o, const char *name, uint64_t v, unsigned digits)
{
	o = key(o, name);
	o = fmt_hex(o, v, digits);
	return fmt_chr(o, '\n');
}

static char *f_s(char *o, const char *name, const char *s)
{
	o = key(o, name);
	o = fmt_str(o, s);
	return fmt_chr(o, '\n');
}

/* One field's value as its table row says: "0x24 (UC_SEND_ONLY)", "2 (ECT(0))",
 * "192.0.2.1". */
static char *value(char *o, const struct rw_field *f, const struct rw_hview *h, unsigned i)
{
	uint64_t v;
	size_t n;
	const char *s;

	switch (f->type) {
	case RW_FT_IPV4:
		return fmt_ipv4(o, rw_get_be32(h->b + f->off));
	case RW_FT_IPV6:
		return fmt_ipv6(o, h->b + f->off);
	case RW_FT_MAC:
		return fmt_mac(o, h->b + f->off);
	case RW_FT_BYTES: {
		const uint8_t *b = rw_field_bytes(f, h, &n);
		return fmt_hexbytes(o, b, n);
	}
	case RW_FT_NAME:
		s = rw_field_name_of(f, h);
		return fmt_str(o, s ? s : "?");
	default:
		break;
	}
	if (!rw_field_value(f, h, i, &v))
		return fmt_str(o, f->null_name ? f->null_name : "null");
	o = f->base == RW_BASE_HEX ? fmt_hex(o, v, f->digits) : fmt_u64(o, v);
	if (f->vname && (s = f->vname(v, h))) {
		o = FMT_LIT(o, " (");
		o = fmt_str(o, s);
		*o++ = ')';
	}
	return o;
}

/* A header: its name, then each of its table's fields present, in table
 * order; array fields one line per element ("quanta[3]"). */
static char *header(char *o, const struct rw_hview *h)
{
	const struct rw_header_desc *d = h->d;

	o = FMT_LIT(o, IND1);
	o = fmt_mem(o, d->name, d->nlen);
	*o++ = '\n';
	for (unsigned k = 0; k < d->n; k++) {
		const struct rw_field *f = &d->f[k];
		if (!rw_field_shown(f, h))
			continue;
		if (f->count > 1) {
			for (unsigned i = 0; i < f->count; i++) {
				o = FMT_LIT(o, IND2);
				o = fmt_mem(o, f->name, f->nlen);
				*o++ = '[';
				o = fmt_u32(o, i);
				o = FMT_LIT(o, "] ");
				o = value(o, f, h, i);
				*o++ = '\n';
			}
			continue;
		}
		o = FMT_LIT(o, IND2);
		o = fmt_mem(o, f->name, f->nlen);
		*o++ = ' ';
		o = value(o, f, h, 0);
		*o++ = '\n';
	}
	return o;
}

static char *headers(char *o, const struct cap_record *r, const struct rw_packet *p)
{
	struct rw_hview v[RW_HVIEW_MAX];
	unsigned n;

	if (!r->data)
		return o;
	n = rw_packet_hviews(p, r->data, v, RW_HVIEW_MAX);
	for (unsigned i = 0; i < n; i++)
		o = header(o, &v[i]);
	if (cap_payload_known(p)) {
		o = layer(o, "payload");
		o = f_u(o, "len", p->payload_len);
		o = f_u(o, "captured", p->payload_caplen);
	}
	return o;
}

static char *crc(char *o, const char *name, int captured, enum rw_crc_status s, uint32_t wire,
		 uint32_t computed, unsigned digits)
{
	if (!captured && s == RW_CRC_NONE)
		return o;
	o = layer(o, name);
	if (captured)
		o = f_x(o, "wire", wire, digits);
	if (s != RW_CRC_NONE)
		o = f_x(o, "computed", computed, digits);
	return f_s(o, "status", rw_crc_status_name(s));
}

void cap_print_verbose(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	char *o = cap_out_begin(&c->out, CAP_PKT_MAX);

	o = FMT_LIT(o, "frame ");
	o = fmt_u64(o, r->index);
	o = FMT_LIT(o, ": ");
	o = fmt_u32(o, r->wirelen);
	o = FMT_LIT(o, " bytes on the wire, ");
	o = fmt_u32(o, r->caplen);
	o = FMT_LIT(o, " captured, ");
	o = fmt_str(o, rw_carrier_name(p->carrier));
	o = FMT_LIT(o, ", time ");
	o = cap_fmt_time_epoch(o, r->ts_sec, r->ts_nsec);
	o = FMT_LIT(o, " (");
	o = cap_fmt_time_local(&c->clock, o, r->ts_sec, r->ts_nsec);
	o = FMT_LIT(o, ")\n");

	o = headers(o, r, p);
	o = crc(o, "icrc", (p->present & RW_P_ICRC) != 0, p->icrc_status,
		rw_icrc_display(p->icrc_wire), rw_icrc_display(p->icrc_computed), 8);
	o = crc(o, "vcrc", (p->present & RW_P_VCRC) != 0, p->vcrc_status, p->vcrc_wire,
		p->vcrc_computed, 4);
	if (p->err != RW_OK) {
		char why[400];
		o = layer(o, "error");
		o = f_s(o, "kind", rw_strerror(p->err));
		o = f_s(o, "reason", rw_packet_problem(p, r->caplen, r->wirelen, why, sizeof(why)));
	}
	cap_out_end(&c->out, o);
}
