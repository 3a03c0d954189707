/* SPDX-License-Identifier: BSD-3-Clause */
/* Management datagrams (IBA 13.4) and the CM messages (IBA 12.6).
 *
 *   bytes 0-23   common header: BaseVersion MgmtClass ClassVersion R|Method
 *                Status(2) ClassSpecific(2) TransactionID(8) AttributeID(2)
 *                Reserved(2) AttributeModifier(4)
 *   bytes 24-255 the class: SMP (M_Key, directed-route LIDs, data at 64,
 *                paths at 128 and 192), SA (RMPP 24-35, SA header 36-55,
 *                data at 56), PerfMgt (data at 64), CM (message at 24)
 *
 * Every field is a row of mad_layout.h: decode and encode walk the same
 * rows (a number's bytes, shift and width, and the struct member it goes
 * to), as libibmad's fields.c drives its codec from one table. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "mad_layout.h"
#include "rocewire/fields.h"
#include "rocewire/mad.h"
#include "rocewire/wire.h"

/* A failed check is a negative array size (as fields.c does). */
#define RW_CHECK(e) (0 * (int)sizeof(char[(e) ? 1 : -1]))
#define MSIZE(m) sizeof(((S *)0)->m)

struct row {
	uint16_t off;   /* in the header or message */
	uint8_t size;   /* bytes */
	uint8_t shift;  /* numbers: lowest bit */
	uint8_t bits;   /* numbers: width; 0: bytes copied as they are */
	uint8_t msize;  /* the member's size */
	uint16_t moff;  /* the member's offset in the decoded struct */
};

/* A number's member must hold its bits; a bytes member is exactly its size. */
#define CN(nm, m, o, sz, sh, bt, ...)                                                               \
	{ .off = (o), .size = (sz), .shift = (sh), .bits = (bt),                                   \
	  .msize = (uint8_t)(MSIZE(m) + RW_CHECK((bt) <= 8 * MSIZE(m) && (sh) + (bt) <= 8 * (sz))), \
	  .moff = (uint16_t)offsetof(S, m) },
#define CB(nm, m, o, sz, ty)                                                                        \
	{ .off = (o), .size = (sz), .msize = (uint8_t)(MSIZE(m) + RW_CHECK(MSIZE(m) == (sz))),       \
	  .moff = (uint16_t)offsetof(S, m) },
#define N_(a) (sizeof(a) / sizeof((a)[0]))

#define S struct rw_mad_hdr
static const struct row r_hdr[] = { RW_MAD_HDR_ROWS(CN, CB) };
#undef S
#define S struct rw_smp
static const struct row r_smp_dr[] = { RW_SMP_DR_ROWS(CN, CB) };
static const struct row r_smp_lid[] = { RW_SMP_LID_ROWS(CN, CB) };
#undef S
#define S struct rw_sa
static const struct row r_sa[] = { RW_SA_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_req
static const struct row r_req[] = { RW_CM_REQ_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_mra
static const struct row r_mra[] = { RW_CM_MRA_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_rej
static const struct row r_rej[] = { RW_CM_REJ_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_rep
static const struct row r_rep[] = { RW_CM_REP_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_rtu
static const struct row r_rtu[] = { RW_CM_RTU_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_dreq
static const struct row r_dreq[] = { RW_CM_DREQ_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_lap
static const struct row r_lap[] = { RW_CM_LAP_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_apr
static const struct row r_apr[] = { RW_CM_APR_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_sidr_req
static const struct row r_sidr_req[] = { RW_CM_SIDR_REQ_ROWS(CN, CB) };
#undef S
#define S struct rw_cm_sidr_rep
static const struct row r_sidr_rep[] = { RW_CM_SIDR_REP_ROWS(CN, CB) };
#undef S
#define S struct rw_class_port_info
static const struct row r_cpi[] = { RW_CPI_ROWS(CN, CB) };
#undef S
#define S struct rw_port_counters
static const struct row r_pc[] = { RW_PORT_COUNTERS_ROWS(CN, CB) };
#undef S
#define S struct rw_path_record
static const struct row r_pr[] = { RW_PATH_RECORD_ROWS(CN, CB) };
#undef S
#define S struct rw_node_info
static const struct row r_ni[] = { RW_NODE_INFO_ROWS(CN, CB) };
#undef S
#define S struct rw_switch_info
static const struct row r_swi[] = { RW_SWITCH_INFO_ROWS(CN, CB) };
#undef S
#define S struct rw_guid_info
static const struct row r_gi[] = { RW_GUID_INFO_ROWS(CN, CB) };
#undef S
#define S struct rw_port_info
static const struct row r_pi[] = { RW_PORT_INFO_ROWS(CN, CB) };
#undef S
#define S struct rw_pkey_table
static const struct row r_pkt[] = { RW_PKEY_TABLE_ROWS(CN, CB) };
#undef S
#define S struct rw_sm_info
static const struct row r_smi[] = { RW_SM_INFO_ROWS(CN, CB) };
#undef S
#define S struct rw_node_record
static const struct row r_nr[] = { RW_NODE_RECORD_ROWS(CN, CB) };
#undef S
#define S struct rw_service_record
static const struct row r_sr[] = { RW_SERVICE_RECORD_ROWS(CN, CB) };
#undef S
#define S struct rw_mc_member_record
static const struct row r_mcm[] = { RW_MC_MEMBER_RECORD_ROWS(CN, CB) };
#undef S
#define S struct rw_port_counters_ext
static const struct row r_pce[] = { RW_PORT_COUNTERS_EXT_ROWS(CN, CB) };
#undef S

/* The attribute payloads decoded, by kind: the classes that carry each
 * (SMP attributes in both SMP classes, IBA 14.2.5; ClassPortInfo in every
 * class but the SMPs', 13.4.8.1), its attribute ID and its rows, which
 * must fit the class's data area (64 bytes for an SMP, 200 for SA, 192 for
 * PerfMgt). */
enum { C_SMP = 1, C_SA = 2, C_PERF = 4, C_GSI = 8 /* any class but SMP */ };
struct attr_desc {
	uint16_t id;
	uint8_t classes;
	uint8_t n;
	const struct row *rows;
};
#define ATTR(k, cls, aid, r, len, room)                                                           \
	[k] = { aid, cls, (uint8_t)(N_(r) + RW_CHECK((len) <= (room))), r }
static const struct attr_desc attrs[] = {
	ATTR(RW_MAD_ATTR_CLASS_PORT_INFO, C_GSI, RW_ATTR_CLASS_PORT_INFO, r_cpi, RW_CPI_LEN, 192),
	ATTR(RW_MAD_ATTR_PORT_COUNTERS, C_PERF, RW_ATTR_PORT_COUNTERS, r_pc, RW_PORT_COUNTERS_LEN, 192),
	ATTR(RW_MAD_ATTR_PATH_RECORD, C_SA, RW_ATTR_PATH_RECORD, r_pr, RW_PATH_RECORD_LEN, 200),
	ATTR(RW_MAD_ATTR_NODE_INFO, C_SMP, RW_ATTR_NODE_INFO, r_ni, RW_NODE_INFO_LEN, 64),
	ATTR(RW_MAD_ATTR_SWITCH_INFO, C_SMP, RW_ATTR_SWITCH_INFO, r_swi, RW_SWITCH_INFO_LEN, 64),
	ATTR(RW_MAD_ATTR_GUID_INFO, C_SMP, RW_ATTR_GUID_INFO, r_gi, RW_GUID_INFO_LEN, 64),
	ATTR(RW_MAD_ATTR_PORT_INFO, C_SMP, RW_ATTR_PORT_INFO, r_pi, RW_PORT_INFO_LEN, 64),
	ATTR(RW_MAD_ATTR_PKEY_TABLE, C_SMP, RW_ATTR_PKEY_TABLE, r_pkt, RW_PKEY_TABLE_LEN, 64),
	ATTR(RW_MAD_ATTR_SM_INFO, C_SMP, RW_ATTR_SM_INFO, r_smi, RW_SM_INFO_LEN, 64),
	ATTR(RW_MAD_ATTR_NODE_RECORD, C_SA, RW_ATTR_NODE_RECORD, r_nr, RW_NODE_RECORD_LEN, 200),
	ATTR(RW_MAD_ATTR_SERVICE_RECORD, C_SA, RW_ATTR_SERVICE_RECORD, r_sr, RW_SERVICE_RECORD_LEN, 200),
	ATTR(RW_MAD_ATTR_MC_MEMBER_RECORD, C_SA, RW_ATTR_MC_MEMBER_RECORD, r_mcm,
	     RW_MC_MEMBER_RECORD_LEN, 200),
	ATTR(RW_MAD_ATTR_PORT_COUNTERS_EXT, C_PERF, RW_ATTR_PORT_COUNTERS_EXT, r_pce,
	     RW_PORT_COUNTERS_EXT_LEN, 192),
};
_Static_assert(N_(attrs) == RW_MAD_ATTR_KINDS, "attrs: one entry per enum rw_mad_attr_kind");

/* The CM messages by attribute ID (IBA 12.6.1): rows, and the message's
 * name as IBA 12.6 writes it. */
struct cm_msg_desc {
	const char *name;
	const struct row *rows;
	uint8_t n;
};
#define CM_MSG(id, nm, r) [(id) - RW_CM_REQ] = { nm, r, (uint8_t)N_(r) }
static const struct cm_msg_desc cm_msgs[] = {
	CM_MSG(RW_CM_REQ, "REQ", r_req),
	CM_MSG(RW_CM_MRA, "MRA", r_mra),
	CM_MSG(RW_CM_REJ, "REJ", r_rej),
	CM_MSG(RW_CM_REP, "REP", r_rep),
	CM_MSG(RW_CM_RTU, "RTU", r_rtu),
	CM_MSG(RW_CM_DREQ, "DREQ", r_dreq),
	CM_MSG(RW_CM_DREP, "DREP", r_rtu),
	CM_MSG(RW_CM_SIDR_REQ, "SIDR_REQ", r_sidr_req),
	CM_MSG(RW_CM_SIDR_REP, "SIDR_REP", r_sidr_rep),
	CM_MSG(RW_CM_LAP, "LAP", r_lap),
	CM_MSG(RW_CM_APR, "APR", r_apr),
};
_Static_assert(N_(cm_msgs) == RW_CM_APR - RW_CM_REQ + 1, "cm_msgs: one entry per CM attribute ID");

static const struct cm_msg_desc *cm_msg(uint16_t attr_id)
{
	if (attr_id < RW_CM_REQ || attr_id > RW_CM_APR)
		return NULL;
	return &cm_msgs[attr_id - RW_CM_REQ];
}

/* ---- the row walkers ----------------------------------------------------- */

static uint64_t member_get(const uint8_t *m, unsigned size)
{
	switch (size) {
	case 1: return *m;
	case 2: { uint16_t v; memcpy(&v, m, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, m, 4); return v; }
	default: { uint64_t v; memcpy(&v, m, 8); return v; }
	}
}

static void member_set(uint8_t *m, unsigned size, uint64_t v)
{
	switch (size) {
	case 1: *m = (uint8_t)v; break;
	case 2: { uint16_t w = (uint16_t)v; memcpy(m, &w, 2); break; }
	case 4: { uint32_t w = (uint32_t)v; memcpy(m, &w, 4); break; }
	default: memcpy(m, &v, 8); break;
	}
}

static struct rw_field as_field(const struct row *r)
{
	return (struct rw_field){ .off = r->off, .size = r->size, .shift = r->shift, .bits = r->bits,
				  .of = 0xFF };
}

/* The caller has checked that buf holds the rows' bytes. */
static void rows_decode(const struct row *r, size_t n, const uint8_t *buf, void *out)
{
	uint8_t *o = out;
	for (size_t i = 0; i < n; i++, r++) {
		if (!r->bits) {
			memcpy(o + r->moff, buf + r->off, r->size);
			continue;
		}
		struct rw_field f = as_field(r);
		member_set(o + r->moff, r->msize, rw_field_peek(&f, buf));
	}
}

/* Writes the rows' fields into buf, whose other bits the caller has zeroed
 * (reserved bits stay zero). INVALID, before any byte is written, when a
 * value overflows its field. */
static enum rw_err rows_encode(const struct row *r, size_t n, const void *in, uint8_t *buf)
{
	const uint8_t *m = in;
	for (size_t i = 0; i < n; i++)
		if (r[i].bits && r[i].bits < 64)
			RW_FITS(member_get(m + r[i].moff, r[i].msize), r[i].bits);
	for (size_t i = 0; i < n; i++, r++) {
		if (!r->bits) {
			memcpy(buf + r->off, m + r->moff, r->size);
			continue;
		}
		struct rw_field f = as_field(r);
		rw_field_put(&f, buf, member_get(m + r->moff, r->msize));
	}
	return RW_OK;
}

/* ---- decode -------------------------------------------------------------- */

unsigned rw_mad_data_offset(uint8_t mgmt_class)
{
	switch (mgmt_class) {
	case RW_MGMT_SUBN_LID:
	case RW_MGMT_SUBN_DR:
	case RW_MGMT_PERF: /* IBA 16.1.1: 40 reserved bytes before the data */
		return 64;
	case RW_MGMT_SA:
		return 56;
	default:
		return RW_MAD_HDR_LEN;
	}
}

enum rw_err rw_mad_hdr_decode(const uint8_t *buf, size_t len, struct rw_mad_hdr *out)
{
	RW_NEED(len, RW_MAD_HDR_LEN);
	rows_decode(r_hdr, N_(r_hdr), buf, out);
	return RW_OK;
}

enum rw_err rw_mad_hdr_encode(const struct rw_mad_hdr *h, uint8_t *buf, size_t cap, size_t *written)
{
	RW_ROOM(cap, RW_MAD_HDR_LEN);
	uint8_t tmp[RW_MAD_HDR_LEN] = {0};
	enum rw_err e = rows_encode(r_hdr, N_(r_hdr), h, tmp);
	if (e != RW_OK)
		return e;
	memcpy(buf, tmp, sizeof(tmp));
	rw_put_be16(buf + 18, 0); /* IBA 13.4.3: reserved */
	RW_DONE(written, RW_MAD_HDR_LEN);
}

static unsigned class_bits(uint8_t cls)
{
	switch (cls) {
	case RW_MGMT_SUBN_LID:
	case RW_MGMT_SUBN_DR:
		return C_SMP;
	case RW_MGMT_SA:
		return C_SA | C_GSI;
	case RW_MGMT_PERF:
		return C_PERF | C_GSI;
	default:
		return C_GSI;
	}
}

enum rw_mad_attr_kind rw_mad_attr_kind(uint8_t mgmt_class, uint16_t attr_id)
{
	unsigned c = class_bits(mgmt_class);
	for (unsigned k = RW_MAD_ATTR_NONE + 1; k < N_(attrs); k++)
		if (attrs[k].id == attr_id && (attrs[k].classes & c))
			return (enum rw_mad_attr_kind)k;
	return RW_MAD_ATTR_NONE;
}

static int class_known(uint8_t cls)
{
	switch (cls) {
	case RW_MGMT_SUBN_LID:
	case RW_MGMT_SUBN_DR:
	case RW_MGMT_SA:
	case RW_MGMT_PERF:
	case RW_MGMT_CM:
		return 1;
	default:
		return 0;
	}
}

enum rw_err rw_mad_decode(const uint8_t *buf, size_t len, struct rw_mad *out)
{
	RW_NEED(len, RW_MAD_LEN);
	memset(out, 0, sizeof(*out));
	rows_decode(r_hdr, N_(r_hdr), buf, &out->hdr);
	const struct rw_mad_hdr *h = &out->hdr;
	out->data_off = (uint16_t)rw_mad_data_offset(h->mgmt_class);
	/* IBA 14.2.1: an SMP's data is 64 bytes; the directed route's paths
	 * follow it. */
	out->data_len = (uint16_t)(h->mgmt_class == RW_MGMT_SUBN_LID || h->mgmt_class == RW_MGMT_SUBN_DR
					   ? 64 : RW_MAD_LEN - out->data_off);
	out->data = buf + out->data_off;
	/* IBA 13.4.3: version 1 is the only one; OPA's 0x80 lays out otherwise. */
	if (h->base_version != RW_MAD_BASE_VERSION || !class_known(h->mgmt_class))
		return RW_ERR_UNSUPPORTED;

	switch (h->mgmt_class) {
	case RW_MGMT_SUBN_DR:
		rows_decode(r_smp_dr, N_(r_smp_dr), buf, &out->u.smp);
		break;
	case RW_MGMT_SUBN_LID:
		rows_decode(r_smp_lid, N_(r_smp_lid), buf, &out->u.smp);
		break;
	case RW_MGMT_SA:
		rows_decode(r_sa, N_(r_sa), buf, &out->u.sa);
		break;
	case RW_MGMT_CM: {
		const struct cm_msg_desc *d = cm_msg(h->attr_id);
		if (d) {
			out->u.cm.msg = (enum rw_cm_msg)h->attr_id;
			rows_decode(d->rows, d->n, buf + RW_MAD_HDR_LEN, &out->u.cm.u);
		} else if (h->attr_id != RW_ATTR_CLASS_PORT_INFO) {
			/* IBA 12.6.1: the CM class has no other attributes. */
			return RW_ERR_UNSUPPORTED;
		}
		break;
	}
	default:
		break;
	}

	out->attr_kind = rw_mad_attr_kind(h->mgmt_class, h->attr_id);
	if (out->attr_kind != RW_MAD_ATTR_NONE)
		rows_decode(attrs[out->attr_kind].rows, attrs[out->attr_kind].n, out->data, &out->attr);
	return RW_OK;
}

/* ---- the brief a frame's decode keeps ------------------------------------- */

/* Decodes the rows that lie inside have bytes; returns how many bytes of
 * the message lie before the first row that does not (have when all do). */
static size_t rows_decode_upto(const struct row *r, size_t n, const uint8_t *buf, size_t have,
			       void *out)
{
	size_t upto = have;
	for (size_t i = 0; i < n; i++)
		if ((size_t)r[i].off + r[i].size > have) {
			if (r[i].off < upto)
				upto = r[i].off;
		} else {
			rows_decode(&r[i], 1, buf, out);
		}
	return upto;
}

/* The bytes of a CM message the brief reads (rw_mad_brief_decode's switch):
 * up to the end of its last row before the private data. */
static size_t brief_need(const struct cm_msg_desc *d)
{
	size_t need = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct row *r = &d->rows[i];
		/* the bytes rows (private data, paths' GIDs, ARI) are not read */
		if (r->bits && (size_t)r->off + r->size > need && r->off < 64)
			need = (size_t)r->off + r->size;
	}
	return need;
}

enum rw_err rw_mad_brief_decode(const uint8_t *buf, size_t len, struct rw_mad_brief *out)
{
	memset(out, 0, sizeof(*out));
	RW_NEED(len, RW_MAD_HDR_LEN);
	rows_decode(r_hdr, N_(r_hdr), buf, &out->hdr);
	const struct cm_msg_desc *d = cm_msg(out->hdr.attr_id);
	if (out->hdr.mgmt_class != RW_MGMT_CM || out->hdr.base_version != RW_MAD_BASE_VERSION || !d)
		return RW_OK;
	/* Once per CM message (a handful per connection): the rows the
	 * capture holds, from the same row list as the whole decode. A
	 * snapshot length of 256 or so (headers only) still keeps the fields
	 * a connection is paired by, which lie in the message's first 64
	 * bytes: the message counts when they were captured. */
	struct rw_cm cm;
	memset(&cm, 0, sizeof(cm));
	size_t have = len - RW_MAD_HDR_LEN;
	if (have > RW_CM_DATA_LEN)
		have = RW_CM_DATA_LEN;
	if (rows_decode_upto(d->rows, d->n, buf + RW_MAD_HDR_LEN, have, &cm.u) < brief_need(d))
		return RW_OK;
	out->cm_msg = out->hdr.attr_id;
	/* Every message starts with the sender's comm ID (SIDR: the request
	 * ID), and all but REQ and the SIDRs with the receiver's next (IBA
	 * 12.6): the structs share that initial sequence (RTU's layout). */
	out->local_comm_id = cm.u.rtu.local_comm_id;
	if (out->cm_msg != RW_CM_REQ && out->cm_msg != RW_CM_SIDR_REQ && out->cm_msg != RW_CM_SIDR_REP)
		out->remote_comm_id = cm.u.rtu.remote_comm_id;
	switch (out->cm_msg) {
	case RW_CM_REQ:
		out->qpn = cm.u.req.local_qpn;
		out->starting_psn = cm.u.req.starting_psn;
		out->path_mtu = cm.u.req.path_mtu;
		out->transport = cm.u.req.transport_service_type;
		break;
	case RW_CM_REP:
		out->qpn = cm.u.rep.local_qpn;
		out->starting_psn = cm.u.rep.starting_psn;
		break;
	case RW_CM_MRA:
		out->msg_ref = cm.u.mra.message_mraed;
		out->service_timeout = cm.u.mra.service_timeout;
		break;
	case RW_CM_REJ:
		out->msg_ref = cm.u.rej.message_rejected;
		out->rej_reason = cm.u.rej.reason;
		break;
	case RW_CM_DREQ:
		out->qpn = cm.u.dreq.remote_qpn;
		break;
	case RW_CM_LAP:
		out->qpn = cm.u.lap.remote_qpn;
		break;
	case RW_CM_SIDR_REP:
		out->qpn = cm.u.sidr_rep.qpn;
		break;
	default: /* RTU, DREP, APR, SIDR_REQ: the IDs alone */
		break;
	}
	return RW_OK;
}

/* ---- encode -------------------------------------------------------------- */

enum rw_err rw_mad_encode(const struct rw_mad *m, uint8_t *buf, size_t cap, size_t *written)
{
	RW_ROOM(cap, RW_MAD_LEN);
	uint8_t mad[RW_MAD_LEN] = {0};
	const struct rw_mad_hdr *h = &m->hdr;
	enum rw_err e = rows_encode(r_hdr, N_(r_hdr), h, mad);
	unsigned doff = rw_mad_data_offset(h->mgmt_class);

	if (e != RW_OK)
		return e;
	mad[18] = mad[19] = 0;
	switch (h->mgmt_class) {
	case RW_MGMT_SUBN_DR:
		e = rows_encode(r_smp_dr, N_(r_smp_dr), &m->u.smp, mad);
		break;
	case RW_MGMT_SUBN_LID:
		e = rows_encode(r_smp_lid, N_(r_smp_lid), &m->u.smp, mad);
		break;
	case RW_MGMT_SA:
		e = rows_encode(r_sa, N_(r_sa), &m->u.sa, mad);
		break;
	default:
		break;
	}
	if (e != RW_OK)
		return e;

	enum rw_mad_attr_kind k = rw_mad_attr_kind(h->mgmt_class, h->attr_id);
	const struct cm_msg_desc *d = h->mgmt_class == RW_MGMT_CM ? cm_msg(h->attr_id) : NULL;
	if (d && m->u.cm.msg == h->attr_id) {
		e = rows_encode(d->rows, d->n, &m->u.cm.u, mad + RW_MAD_HDR_LEN);
	} else if (k != RW_MAD_ATTR_NONE && m->attr_kind == k) {
		e = rows_encode(attrs[k].rows, attrs[k].n, &m->attr, mad + doff);
	} else if (m->data && m->data_len) {
		size_t l = m->data_len;
		if (l > RW_MAD_LEN - doff)
			return RW_ERR_INVALID;
		memcpy(mad + doff, m->data, l);
	}
	if (e != RW_OK)
		return e;
	memcpy(buf, mad, RW_MAD_LEN);
	RW_DONE(written, RW_MAD_LEN);
}

enum rw_err rw_cm_encode(const struct rw_cm *cm, uint64_t tid, uint8_t *buf, size_t cap,
			 size_t *written)
{
	const struct cm_msg_desc *d = cm_msg((uint16_t)cm->msg);
	if (!d)
		return RW_ERR_INVALID;
	RW_ROOM(cap, RW_MAD_LEN);
	uint8_t mad[RW_MAD_LEN] = {0};
	/* IBA 12.6.1: every CM message is a Send of class version 2. */
	const struct rw_mad_hdr h = {
		.base_version = RW_MAD_BASE_VERSION, .mgmt_class = RW_MGMT_CM,
		.class_version = RW_CM_CLASS_VERSION, .method = RW_METHOD_SEND, .tid = tid,
		.attr_id = (uint16_t)cm->msg,
	};
	enum rw_err e = rows_encode(r_hdr, N_(r_hdr), &h, mad);
	if (e == RW_OK)
		e = rows_encode(d->rows, d->n, &cm->u, mad + RW_MAD_HDR_LEN);
	if (e != RW_OK)
		return e;
	memcpy(buf, mad, RW_MAD_LEN);
	RW_DONE(written, RW_MAD_LEN);
}

/* One wrapper per message: the message copied into a struct rw_cm. */
#define CM_ENCODER(fn, type, member, id)                                                            \
	enum rw_err fn(const type *m, uint64_t tid, uint8_t *buf, size_t cap, size_t *written)      \
	{                                                                                           \
		struct rw_cm cm = { .msg = id };                                                    \
		cm.u.member = *m;                                                                   \
		return rw_cm_encode(&cm, tid, buf, cap, written);                                   \
	}
CM_ENCODER(rw_cm_req_encode, struct rw_cm_req, req, RW_CM_REQ)
CM_ENCODER(rw_cm_mra_encode, struct rw_cm_mra, mra, RW_CM_MRA)
CM_ENCODER(rw_cm_rej_encode, struct rw_cm_rej, rej, RW_CM_REJ)
CM_ENCODER(rw_cm_rep_encode, struct rw_cm_rep, rep, RW_CM_REP)
CM_ENCODER(rw_cm_rtu_encode, struct rw_cm_rtu, rtu, RW_CM_RTU)
CM_ENCODER(rw_cm_dreq_encode, struct rw_cm_dreq, dreq, RW_CM_DREQ)
CM_ENCODER(rw_cm_drep_encode, struct rw_cm_rtu, drep, RW_CM_DREP)
CM_ENCODER(rw_cm_sidr_req_encode, struct rw_cm_sidr_req, sidr_req, RW_CM_SIDR_REQ)
CM_ENCODER(rw_cm_sidr_rep_encode, struct rw_cm_sidr_rep, sidr_rep, RW_CM_SIDR_REP)
CM_ENCODER(rw_cm_lap_encode, struct rw_cm_lap, lap, RW_CM_LAP)
CM_ENCODER(rw_cm_apr_encode, struct rw_cm_apr, apr, RW_CM_APR)

/* ---- names --------------------------------------------------------------- */

/* A value and its name, as tcpdump's struct tok. */
struct tok {
	uint16_t v;
	const char *s;
};

static const char *tok_name(const struct tok *t, size_t n, unsigned v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].s;
	return NULL;
}
#define TOK(t, v) tok_name(t, N_(t), v)

/* IBA 13.4.4 (management class values). */
static const struct tok classes[] = {
	{ RW_MGMT_SUBN_LID, "SubnMgt" },  { RW_MGMT_SA, "SubnAdm" },
	{ RW_MGMT_PERF, "PerfMgt" },      { RW_MGMT_BM, "BMgt" },
	{ RW_MGMT_DEV, "DevMgt" },        { RW_MGMT_CM, "CM" },
	{ RW_MGMT_SNMP, "SNMP" },         { RW_MGMT_CC, "CongestionMgt" },
	{ RW_MGMT_SUBN_DR, "SubnMgtDR" },
};

const char *rw_mad_class_name(uint8_t c)
{
	const char *s = TOK(classes, c);
	if (s)
		return s;
	/* IBA 13.4.4: the ranges kept for vendors and applications. */
	if ((c >= 0x09 && c <= 0x0F) || (c >= 0x30 && c <= 0x4F))
		return "VendorSpecific";
	if (c >= 0x10 && c <= 0x2F)
		return "ApplicationSpecific";
	return NULL;
}

/* IBA 13.4.5 (methods), and 15.4.1 for SA's own. */
static const struct tok methods[] = {
	{ RW_METHOD_GET, "Get" },
	{ RW_METHOD_SET, "Set" },
	{ RW_METHOD_SEND, "Send" },
	{ RW_METHOD_TRAP, "Trap" },
	{ RW_METHOD_REPORT, "Report" },
	{ RW_METHOD_TRAP_REPRESS, "TrapRepress" },
	{ RW_METHOD_GET_TABLE, "GetTable" },
	{ RW_METHOD_GET_TRACE_TABLE, "GetTraceTable" },
	{ RW_METHOD_GET_MULTI, "GetMulti" },
	{ RW_METHOD_DELETE, "Delete" },
	{ RW_METHOD_GET_RESP, "GetResp" },
	{ RW_METHOD_REPORT_RESP, "ReportResp" },
	{ RW_METHOD_GET_TABLE_RESP, "GetTableResp" },
	{ RW_METHOD_GET_MULTI_RESP, "GetMultiResp" },
	{ RW_METHOD_DELETE_RESP, "DeleteResp" },
};

/* The prefix Wireshark's Info column gives a class's methods (SubnGet,
 * SubnAdmGetResp, PerfSet); other classes are shown by their name. */
static const struct tok method_prefix[] = {
	{ RW_MGMT_SUBN_LID, "Subn" }, { RW_MGMT_SUBN_DR, "Subn" }, { RW_MGMT_SA, "SubnAdm" },
	{ RW_MGMT_PERF, "Perf" },     { RW_MGMT_BM, "BM" },        { RW_MGMT_DEV, "DevMgt" },
	{ RW_MGMT_CC, "CC" },
};

const char *rw_mad_method_text(uint8_t mgmt_class, uint8_t method, char *buf, size_t cap)
{
	const char *pre = TOK(method_prefix, mgmt_class);
	const char *cls = rw_mad_class_name(mgmt_class);
	const char *m = rw_mad_method_name(method);
	if (!pre)
		pre = cls ? cls : "Class";
	if (m)
		snprintf(buf, cap, "%s%s", pre, m);
	else
		snprintf(buf, cap, "%sMethod(0x%02x)", pre, method);
	return buf;
}

const char *rw_mad_method_name(uint8_t method)
{
	return TOK(methods, method);
}

/* IBA 13.4.8.1: the attributes every class may carry. */
static const struct tok attrs_common[] = {
	{ RW_ATTR_CLASS_PORT_INFO, "ClassPortInfo" },
	{ RW_ATTR_NOTICE, "Notice" },
	{ RW_ATTR_INFORM_INFO, "InformInfo" },
};

/* IBA 14.2.5 (SMP attributes). */
static const struct tok attrs_smp[] = {
	{ 0x0002, "Notice" },
	{ 0x0010, "NodeDescription" },
	{ 0x0011, "NodeInfo" },
	{ 0x0012, "SwitchInfo" },
	{ 0x0014, "GUIDInfo" },
	{ 0x0015, "PortInfo" },
	{ 0x0016, "P_KeyTable" },
	{ 0x0017, "SLtoVLMappingTable" },
	{ 0x0018, "VLArbitrationTable" },
	{ 0x0019, "LinearForwardingTable" },
	{ 0x001A, "RandomForwardingTable" },
	{ 0x001B, "MulticastForwardingTable" },
	{ 0x0020, "SMInfo" },
	{ 0x0030, "VendorDiag" },
	{ 0x0031, "LedInfo" },
};

/* IBA 15.2.5 (SA attributes). */
static const struct tok attrs_sa[] = {
	{ 0x0011, "NodeRecord" },
	{ 0x0012, "PortInfoRecord" },
	{ 0x0013, "SLtoVLMappingTableRecord" },
	{ 0x0014, "SwitchInfoRecord" },
	{ 0x0015, "LinearForwardingTableRecord" },
	{ 0x0016, "RandomForwardingTableRecord" },
	{ 0x0017, "MulticastForwardingTableRecord" },
	{ 0x0018, "SMInfoRecord" },
	{ 0x0020, "LinkRecord" },
	{ 0x0030, "GuidInfoRecord" },
	{ 0x0031, "ServiceRecord" },
	{ 0x0033, "P_KeyTableRecord" },
	{ RW_ATTR_PATH_RECORD, "PathRecord" },
	{ 0x0036, "VLArbitrationTableRecord" },
	{ 0x0038, "MCMemberRecord" },
	{ 0x0039, "TraceRecord" },
	{ 0x003A, "MultiPathRecord" },
	{ 0x003B, "ServiceAssociationRecord" },
	{ 0x00F3, "InformInfoRecord" },
};

/* IBA 16.1.2 (PerfMgt attributes). */
static const struct tok attrs_perf[] = {
	{ 0x0010, "PortSamplesControl" },
	{ 0x0011, "PortSamplesResult" },
	{ RW_ATTR_PORT_COUNTERS, "PortCounters" },
	{ 0x0013, "PortRcvErrorDetails" },
	{ 0x0014, "PortXmitDiscardDetails" },
	{ 0x0015, "PortOpRcvCounters" },
	{ 0x0016, "PortFlowCtlCounters" },
	{ 0x0017, "PortVLOpPackets" },
	{ 0x0018, "PortVLOpData" },
	{ 0x0019, "PortVLXmitFlowCtlUpdateErrors" },
	{ 0x001A, "PortVLXmitWaitCounters" },
	{ RW_ATTR_PORT_COUNTERS_EXT, "PortCountersExtended" },
	{ 0x001E, "PortSamplesResultExtended" },
	{ 0x0030, "SwPortVLCongestion" },
};

/* IBA 12.6.1 (CM attributes). */
static const struct tok attrs_cm[] = {
	{ RW_CM_REQ, "ConnectRequest" },
	{ RW_CM_MRA, "MsgRcptAck" },
	{ RW_CM_REJ, "ConnectReject" },
	{ RW_CM_REP, "ConnectReply" },
	{ RW_CM_RTU, "ReadyToUse" },
	{ RW_CM_DREQ, "DisconnectRequest" },
	{ RW_CM_DREP, "DisconnectReply" },
	{ RW_CM_SIDR_REQ, "ServiceIDResReq" },
	{ RW_CM_SIDR_REP, "ServiceIDResReqResp" },
	{ RW_CM_LAP, "LoadAlternatePath" },
	{ RW_CM_APR, "AlternatePathResponse" },
};

const char *rw_mad_attr_name(uint8_t cls, uint16_t attr)
{
	const char *s = NULL;
	switch (cls) {
	case RW_MGMT_SUBN_LID:
	case RW_MGMT_SUBN_DR:
		return TOK(attrs_smp, attr); /* SMPs have no ClassPortInfo */
	case RW_MGMT_SA: s = TOK(attrs_sa, attr); break;
	case RW_MGMT_PERF: s = TOK(attrs_perf, attr); break;
	case RW_MGMT_CM: s = TOK(attrs_cm, attr); break;
	default: break;
	}
	return s ? s : TOK(attrs_common, attr);
}

const char *rw_cm_msg_name(uint16_t attr_id)
{
	const struct cm_msg_desc *d = cm_msg(attr_id);
	return d ? d->name : NULL;
}

/* IBA 12.6.7.2 (REJ reasons). */
static const struct tok rej_reasons[] = {
	{ 1, "No QP available" },
	{ 2, "No EEC available" },
	{ 3, "No resources available" },
	{ 4, "Timeout" },
	{ 5, "Unsupported request" },
	{ 6, "Invalid Communication ID" },
	{ 7, "Invalid Communication Instance" },
	{ 8, "Invalid Service ID" },
	{ 9, "Invalid Transport Service Type" },
	{ 10, "Stale connection" },
	{ 11, "RDC does not exist" },
	{ 12, "Primary Remote Port GID rejected" },
	{ 13, "Primary Remote Port LID rejected" },
	{ 14, "Invalid Primary SL" },
	{ 15, "Invalid Primary Traffic Class" },
	{ 16, "Invalid Primary Hop Limit" },
	{ 17, "Invalid Primary Packet Rate" },
	{ 18, "Alternate Remote Port GID rejected" },
	{ 19, "Alternate Remote Port LID rejected" },
	{ 20, "Invalid Alternate SL" },
	{ 21, "Invalid Alternate Traffic Class" },
	{ 22, "Invalid Alternate Hop Limit" },
	{ 23, "Invalid Alternate Packet Rate" },
	{ 24, "Port and CM Redirection" },
	{ 25, "Port Redirection" },
	{ 26, "Invalid Path MTU" },
	{ 27, "Insufficient Responder Resources" },
	{ 28, "Consumer Reject" },
	{ 29, "RNR Retry Count Reject" },
	{ 30, "Duplicate Local Comm ID" },
	{ 31, "Unsupported Class Version" },
	{ 32, "Invalid Primary Flow Label" },
	{ 33, "Invalid Alternate Flow Label" },
	{ 35, "Vendor Option Not Supported" },
};

const char *rw_cm_rej_reason_name(uint16_t reason)
{
	return TOK(rej_reasons, reason);
}

uint32_t rw_mtu_bytes(unsigned code)
{
	return code >= 1 && code <= 5 ? 128u << code : 0;
}

const char *rw_mtu_name(unsigned code)
{
	static const char *const names[] = { NULL, "256", "512", "1024", "2048", "4096" };
	return code < N_(names) ? names[code] : NULL;
}

const char *rw_cm_msg_ref_name(unsigned v, int mra)
{
	static const char *const names[] = { "REQ", "REP" };
	if (v < N_(names))
		return names[v];
	return v == 2 ? (mra ? "LAP" : "other") : NULL;
}

const char *rw_rmpp_type_name(uint8_t type)
{
	/* IBA 13.6.2.1: 0 means no RMPP. */
	static const char *const names[] = { "none", "DATA", "ACK", "STOP", "ABORT" };
	return type < N_(names) ? names[type] : NULL;
}
