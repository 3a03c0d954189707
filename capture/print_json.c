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
	uint32_t shape;  /* which variant of the object the keys are for */
	unsigned i;      /* next slot: keys are set in the same order for a shape */
	json_t *slot[JOBJ_SLOTS]; /* borrowed: the values o holds, by set order */
};

enum {
	J_ERF, J_SLL, J_ETH, J_PFC, J_PAUSE, J_IP, J_UDP, J_LRH, J_GRH, J_BTH,
	J_RDETH, J_DETH, J_XRCETH, J_FETH, J_RETH, J_ATOMICETH, J_AETH, J_ATOMICACKETH,
	J_CNP, J_PAYLOAD, J_ICRC, J_VCRC,
	J_COUNT
};

struct cap_json {
	struct jobj root;
	struct jobj sub[J_COUNT];
	json_t *vlan_arr;
	struct jobj vlan[RW_MAX_VLAN];
	unsigned n_vlan;
	json_t *ext_arr;            /* ipv6_ext */
	struct jobj ext[RW_IPV6_EXT_MAX];
	unsigned n_ext;
	json_t *quanta;             /* the pfc object's array of 8 */
	json_t *carrier[RW_CARRIER_COUNT];
	json_t *opname[256];        /* made on first use */
	const char *file_src;       /* the input name j->file was made from */
	json_t *file;
};

#define SHAPE_NONE UINT32_MAX

/* ---- in-place setters ---------------------------------------------------- */

static void jbegin(struct jobj *j, uint32_t shape)
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

struct cap_json *cap_json_new(void)
{
	struct cap_json *j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->root.o = json_object();
	j->root.shape = SHAPE_NONE;
	for (int i = 0; i < J_COUNT; i++) {
		j->sub[i].o = json_object();
		j->sub[i].shape = SHAPE_NONE;
	}
	j->vlan_arr = json_array();
	for (int i = 0; i < RW_MAX_VLAN; i++) {
		j->vlan[i].o = json_object();
		j->vlan[i].shape = SHAPE_NONE;
	}
	j->ext_arr = json_array();
	for (int i = 0; i < RW_IPV6_EXT_MAX; i++) {
		j->ext[i].o = json_object();
		j->ext[i].shape = SHAPE_NONE;
	}
	j->quanta = json_array();
	for (int i = 0; i < RW_PFC_PRIORITIES; i++)
		json_array_append_new(j->quanta, json_integer(0));
	for (int i = 0; i < RW_CARRIER_COUNT; i++)
		j->carrier[i] = json_string(rw_carrier_name((enum rw_carrier)i));
	/* one allocation failure anywhere shows up as a NULL here or there */
	if (!j->root.o || !j->vlan_arr || !j->ext_arr || !j->quanta) {
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
	for (int i = 0; i < J_COUNT; i++)
		json_decref(j->sub[i].o);
	json_decref(j->vlan_arr);
	for (int i = 0; i < RW_MAX_VLAN; i++)
		json_decref(j->vlan[i].o);
	json_decref(j->ext_arr);
	for (int i = 0; i < RW_IPV6_EXT_MAX; i++)
		json_decref(j->ext[i].o);
	json_decref(j->quanta);
	for (int i = 0; i < RW_CARRIER_COUNT; i++)
		json_decref(j->carrier[i]);
	for (int i = 0; i < 256; i++)
		json_decref(j->opname[i]);
	json_decref(j->file);
	free(j);
}

/* ---- per header ------------------------------------------------------- */

static json_t *fill_erf(struct cap_json *j, const struct rw_erf *e)
{
	struct jobj *s = &j->sub[J_ERF];
	jbegin(s, 0);
	jset_hex(s, "ts", e->ts, 16);
	jset_int(s, "type", e->type);
	jset_int(s, "flags", e->flags);
	jset_int(s, "rlen", e->rlen);
	jset_int(s, "lctr", e->lctr);
	jset_int(s, "wlen", e->wlen);
	jset_int(s, "extensions", e->n_ext);
	return s->o;
}

static json_t *fill_sll(struct cap_json *j, const struct rw_packet *p)
{
	struct jobj *s = &j->sub[J_SLL];
	int v2 = (p->present & RW_P_SLL2) != 0;
	char buf[32];
	char *e = fmt_hexbytes(buf, p->sll.addr, p->sll.addr_len < 8 ? p->sll.addr_len : 8);

	jbegin(s, (uint32_t)v2);
	jset_int(s, "version", v2 ? 2 : 1);
	jset_int(s, "pkttype", p->sll.pkttype);
	jset_int(s, "hatype", p->sll.hatype);
	jset_strn(s, "addr", buf, (size_t)(e - buf));
	jset_int(s, "protocol", p->sll.protocol);
	if (v2)
		jset_int(s, "ifindex", p->sll.ifindex);
	return s->o;
}

static json_t *fill_eth(struct cap_json *j, const struct rw_eth *h)
{
	struct jobj *s = &j->sub[J_ETH];
	jbegin(s, 0);
	jset_mac(s, "src", h->src);
	jset_mac(s, "dst", h->dst);
	jset_int(s, "type", h->ethertype);
	return s->o;
}

static json_t *fill_vlans(struct cap_json *j, const struct rw_packet *p)
{
	unsigned n = p->n_vlan < RW_MAX_VLAN ? p->n_vlan : RW_MAX_VLAN;

	if (n != j->n_vlan) {
		json_array_clear(j->vlan_arr);
		for (unsigned i = 0; i < n; i++)
			json_array_append(j->vlan_arr, j->vlan[i].o);
		j->n_vlan = n;
	}
	for (unsigned i = 0; i < n; i++) {
		struct jobj *s = &j->vlan[i];
		jbegin(s, 0);
		jset_int(s, "id", p->vlan[i].vid);
		jset_int(s, "pcp", p->vlan[i].pcp);
		jset_int(s, "dei", p->vlan[i].dei);
		jset_int(s, "tpid", p->vlan[i].tpid);
	}
	return j->vlan_arr;
}

static json_t *fill_pfc(struct cap_json *j, const struct rw_macctrl *m)
{
	struct jobj *s = &j->sub[J_PFC];
	jbegin(s, 0);
	jset_int(s, "cev", m->cev);
	for (int i = 0; i < RW_PFC_PRIORITIES; i++)
		json_integer_set(json_array_get(j->quanta, (size_t)i), m->quanta[i]);
	jset_ref(s, "quanta", j->quanta);
	return s->o;
}

static json_t *fill_pause(struct cap_json *j, const struct rw_macctrl *m)
{
	struct jobj *s = &j->sub[J_PAUSE];
	jbegin(s, 0);
	jset_int(s, "quanta", m->quanta[0]);
	return s->o;
}

static json_t *fill_ip(struct cap_json *j, const struct rw_packet *p)
{
	struct jobj *s = &j->sub[J_IP];
	if (p->present & RW_P_IPV4) {
		const struct rw_ipv4 *ip = &p->ipv4;
		jbegin(s, 4);
		jset_int(s, "version", 4);
		jset_ip4(s, "src", ip->src);
		jset_ip4(s, "dst", ip->dst);
		jset_int(s, "dscp", ip->dscp);
		jset_int(s, "ecn", ip->ecn);
		jset_int(s, "ttl", ip->ttl);
		jset_int(s, "id", ip->id);
		jset_int(s, "len", ip->total_len);
		jset_int(s, "proto", ip->protocol);
		jset_bool(s, "df", (ip->flags & RW_IPV4_DF) != 0);
	} else {
		const struct rw_ipv6 *ip = &p->ipv6;
		jbegin(s, 6);
		jset_int(s, "version", 6);
		jset_ip6(s, "src", ip->src);
		jset_ip6(s, "dst", ip->dst);
		jset_int(s, "dscp", ip->dscp);
		jset_int(s, "ecn", ip->ecn);
		jset_int(s, "hop_limit", ip->hop_limit);
		jset_int(s, "flow_label", ip->flow_label);
		jset_int(s, "len", ip->payload_len);
		jset_int(s, "proto", ip->next_header);
	}
	return s->o;
}

/* The IPv6 extension headers walked, in wire order; each one's "next" is
 * its Next Header field, so the last one's is the protocol after them. */
static json_t *fill_ipv6_ext(struct cap_json *j, const struct rw_ipv6_ext *x)
{
	unsigned n = x->n < RW_IPV6_EXT_MAX ? x->n : RW_IPV6_EXT_MAX;

	if (n != j->n_ext) {
		json_array_clear(j->ext_arr);
		for (unsigned i = 0; i < n; i++)
			json_array_append(j->ext_arr, j->ext[i].o);
		j->n_ext = n;
	}
	for (unsigned i = 0; i < n; i++) {
		struct jobj *s = &j->ext[i];
		const char *name = rw_ipv6_ext_name(x->type[i]);
		jbegin(s, 0);
		jset_int(s, "type", x->type[i]);
		jset_str(s, "name", name ? name : "?");
		jset_int(s, "len", x->hlen[i]);
		jset_int(s, "next", i + 1 < n ? x->type[i + 1] : x->proto);
	}
	return j->ext_arr;
}

static json_t *fill_udp(struct cap_json *j, const struct rw_udp *u)
{
	struct jobj *s = &j->sub[J_UDP];
	jbegin(s, 0);
	jset_int(s, "sport", u->sport);
	jset_int(s, "dport", u->dport);
	jset_int(s, "len", u->len);
	jset_int(s, "checksum", u->checksum);
	return s->o;
}

static json_t *fill_lrh(struct cap_json *j, const struct rw_lrh *l)
{
	struct jobj *s = &j->sub[J_LRH];
	jbegin(s, 0);
	jset_int(s, "vl", l->vl);
	jset_int(s, "lver", l->lver);
	jset_int(s, "sl", l->sl);
	jset_int(s, "lnh", l->lnh);
	jset_int(s, "dlid", l->dlid);
	jset_int(s, "pktlen", l->pktlen);
	jset_int(s, "slid", l->slid);
	return s->o;
}

static json_t *fill_grh(struct cap_json *j, const struct rw_grh *g)
{
	struct jobj *s = &j->sub[J_GRH];
	jbegin(s, 0);
	jset_int(s, "ipver", g->ipver);
	jset_int(s, "tclass", g->tclass);
	jset_int(s, "flow_label", g->flow_label);
	jset_int(s, "paylen", g->paylen);
	jset_int(s, "nxthdr", g->nxthdr);
	jset_int(s, "hoplmt", g->hoplmt);
	jset_ip6(s, "sgid", g->sgid);
	jset_ip6(s, "dgid", g->dgid);
	return s->o;
}

static json_t *fill_bth(struct cap_json *j, const struct rw_packet *p)
{
	struct jobj *s = &j->sub[J_BTH];
	const struct rw_bth *b = &p->bth;

	if (!j->opname[b->opcode])
		j->opname[b->opcode] = json_string(rw_opcode(b->opcode)->name);
	jbegin(s, 0);
	jset_int(s, "opcode", b->opcode);
	jset_ref(s, "name", j->opname[b->opcode]);
	jset_bool(s, "se", b->se);
	jset_bool(s, "m", b->m);
	jset_int(s, "pad", b->pad);
	jset_int(s, "tver", b->tver);
	jset_int(s, "pkey", b->pkey);
	jset_bool(s, "fecn", b->fecn);
	jset_bool(s, "becn", b->becn);
	jset_int(s, "dqpn", b->dqpn);
	jset_bool(s, "ackreq", b->ackreq);
	jset_int(s, "psn", b->psn);
	return s->o;
}

static json_t *fill_aeth(struct cap_json *j, const struct rw_aeth *a)
{
	static const char *const kinds[4] = {"ack", "rnr_nak", "reserved", "nak"};
	struct jobj *s = &j->sub[J_AETH];

	jbegin(s, a->kind & 3u);
	jset_int(s, "syndrome", a->syndrome);
	jset_int(s, "msn", a->msn);
	jset_str(s, "kind", kinds[a->kind & 3]);
	switch (a->kind) {
	case RW_AETH_ACK: {
		int credits = rw_aeth_credits(a->value);
		jset_int(s, "credit_code", a->value);
		if (credits < 0)
			jset_ref(s, "credits", json_null());
		else
			jset_int(s, "credits", credits);
		break;
	}
	case RW_AETH_RNR_NAK:
		jset_int(s, "rnr_code", a->value);
		jset_int(s, "rnr_timer_us", rw_rnr_timer_us(a->value));
		break;
	case RW_AETH_NAK:
		jset_int(s, "nak_code", a->value);
		jset_str(s, "nak", rw_nak_code_name(a->value));
		break;
	default:
		jset_int(s, "value", a->value);
		break;
	}
	return s->o;
}

static json_t *fill_crc(struct jobj *s, int captured, enum rw_crc_status st, uint32_t wire,
			uint32_t computed, unsigned digits)
{
	static const char *const names[3] = {"none", "ok", "bad"};
	uint32_t shape = (uint32_t)captured << 1 | (st != RW_CRC_NONE);

	jbegin(s, shape);
	jset_str(s, "status", names[st <= RW_CRC_BAD ? st : 0]);
	if (captured)
		jset_hex(s, "wire", wire, digits);
	if (st != RW_CRC_NONE)
		jset_hex(s, "computed", computed, digits);
	return s->o;
}

/* ---- the packet ---------------------------------------------------------- */

/* Root keys that come and go, in output order. */
enum {
	R_FILE = 1u << 0,
	R_TRUNCATED = 1u << 1,
	R_ERF = 1u << 2,
	R_SLL = 1u << 3,
	R_ETH = 1u << 4,
	R_VLAN = 1u << 5,
	R_PFC = 1u << 6,
	R_PAUSE = 1u << 7,
	R_IP = 1u << 8,
	R_UDP = 1u << 9,
	R_LRH = 1u << 10,
	R_GRH = 1u << 11,
	R_BTH = 1u << 12,
	R_EXT_SHIFT = 13, /* the RW_HDR_* bits, 11 of them */
	R_PAYLOAD = 1u << 24,
	R_ICRC = 1u << 25,
	R_VCRC = 1u << 26,
	R_ERROR = 1u << 27,
	R_IPV6_EXT = 1u << 28,
	R_IFACE = 1u << 29,
};

static uint32_t root_shape(const struct cap_ctx *c, const struct cap_record *r,
			   const struct rw_packet *p)
{
	uint32_t s = 0;

	if (c->multi_file)
		s |= R_FILE;
	if (r->caplen < r->wirelen)
		s |= R_TRUNCATED;
	/* pcapng: a file may hold several interfaces of several link types */
	if (r->src && r->iface >= 0)
		s |= R_IFACE;
	if (p->present & RW_P_ERF)
		s |= R_ERF;
	if (p->present & (RW_P_SLL | RW_P_SLL2))
		s |= R_SLL;
	if (p->present & RW_P_ETH)
		s |= R_ETH;
	if (p->n_vlan)
		s |= R_VLAN;
	if (p->present & RW_P_MACCTRL)
		s |= p->macctrl.opcode == RW_MACCTRL_PFC ? R_PFC : R_PAUSE;
	if (p->present & (RW_P_IPV4 | RW_P_IPV6))
		s |= R_IP;
	if ((p->present & RW_P_IPV6) && p->ipv6_ext.n)
		s |= R_IPV6_EXT;
	if (p->present & RW_P_UDP)
		s |= R_UDP;
	if (p->present & RW_P_LRH)
		s |= R_LRH;
	if (p->present & RW_P_GRH)
		s |= R_GRH;
	if (p->present & RW_P_BTH) {
		s |= R_BTH;
		s |= (uint32_t)(p->hdrs & ((1u << RW_HDR_COUNT) - 1)) << R_EXT_SHIFT;
	}
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
			 uint32_t shape)
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

/* The headers below the transport, outermost first. */
static void build_link_net(struct cap_json *j, const struct rw_packet *p, uint32_t shape)
{
	struct jobj *root = &j->root;

	if (shape & R_ERF)
		jset_ref(root, "erf", fill_erf(j, &p->erf));
	if (shape & R_SLL)
		jset_ref(root, "sll", fill_sll(j, p));
	if (shape & R_ETH)
		jset_ref(root, "eth", fill_eth(j, &p->eth));
	if (shape & R_VLAN)
		jset_ref(root, "vlan", fill_vlans(j, p));
	if (shape & R_PFC)
		jset_ref(root, "pfc", fill_pfc(j, &p->macctrl));
	if (shape & R_PAUSE)
		jset_ref(root, "pause", fill_pause(j, &p->macctrl));
	if (shape & R_IP)
		jset_ref(root, "ip", fill_ip(j, p));
	if (shape & R_IPV6_EXT)
		jset_ref(root, "ipv6_ext", fill_ipv6_ext(j, &p->ipv6_ext));
	if (shape & R_UDP)
		jset_ref(root, "udp", fill_udp(j, &p->udp));
	if (shape & R_LRH)
		jset_ref(root, "lrh", fill_lrh(j, &p->lrh));
	if (shape & R_GRH)
		jset_ref(root, "grh", fill_grh(j, &p->grh));
}

/* The extended transport headers that address the request: RDETH, DETH,
 * XRCETH, FETH, RETH, AtomicETH, in that order (the order of the keys). */
static void build_ext_request(struct cap_json *j, const struct rw_packet *p)
{
	struct jobj *root = &j->root;
	unsigned h = p->hdrs;

	if (h & RW_HDR_RDETH) {
		struct jobj *s = &j->sub[J_RDETH];
		jbegin(s, 0);
		jset_int(s, "een", p->rdeth.een);
		jset_ref(root, "rdeth", s->o);
	}
	if (h & RW_HDR_DETH) {
		struct jobj *s = &j->sub[J_DETH];
		jbegin(s, 0);
		jset_int(s, "qkey", p->deth.qkey);
		jset_int(s, "sqpn", p->deth.sqpn);
		jset_ref(root, "deth", s->o);
	}
	if (h & RW_HDR_XRCETH) {
		struct jobj *s = &j->sub[J_XRCETH];
		jbegin(s, 0);
		jset_int(s, "xrcsrq", p->xrceth.xrcsrq);
		jset_ref(root, "xrceth", s->o);
	}
	if (h & RW_HDR_FETH) {
		struct jobj *s = &j->sub[J_FETH];
		jbegin(s, 0);
		jset_int(s, "sel", p->feth.sel);
		jset_int(s, "plt", p->feth.plt);
		jset_ref(root, "feth", s->o);
	}
	if (h & RW_HDR_RETH) {
		struct jobj *s = &j->sub[J_RETH];
		jbegin(s, 0);
		jset_hex(s, "va", p->reth.va, 1);
		jset_int(s, "rkey", p->reth.rkey);
		jset_int(s, "len", p->reth.dmalen);
		jset_ref(root, "reth", s->o);
	}
	if (h & RW_HDR_ATOMICETH) {
		struct jobj *s = &j->sub[J_ATOMICETH];
		jbegin(s, 0);
		jset_hex(s, "va", p->atomiceth.va, 1);
		jset_int(s, "rkey", p->atomiceth.rkey);
		jset_hex(s, "swap_add", p->atomiceth.swap_add, 1);
		jset_hex(s, "compare", p->atomiceth.compare, 1);
		jset_ref(root, "atomiceth", s->o);
	}
}

/* The extended transport headers after those: AETH, AtomicAckETH, ImmDt,
 * IETH, and a CNP's reserved bytes. */
static void build_ext_rest(struct cap_json *j, const struct rw_packet *p)
{
	struct jobj *root = &j->root;
	unsigned h = p->hdrs;

	if (h & RW_HDR_AETH)
		jset_ref(root, "aeth", fill_aeth(j, &p->aeth));
	if (h & RW_HDR_ATOMICACKETH) {
		struct jobj *s = &j->sub[J_ATOMICACKETH];
		jbegin(s, 0);
		jset_hex(s, "orig", p->atomicacketh.orig, 1);
		jset_ref(root, "atomicacketh", s->o);
	}
	if (h & RW_HDR_IMMDT)
		jset_int(root, "immdt", p->immdt);
	if (h & RW_HDR_IETH)
		jset_int(root, "ieth", p->ieth);
	if (h & RW_HDR_CNP) {
		struct jobj *s = &j->sub[J_CNP];
		jbegin(s, 0);
		jset_bool(s, "resv_nonzero", p->cnp_nonzero);
		jset_ref(root, "cnp", s->o);
	}
}

/* After the headers: payload, the CRCs, and what was wrong with the
 * packet. */
static void build_trailer(struct cap_json *j, const struct cap_record *r,
			  const struct rw_packet *p, uint32_t shape)
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
 * slots of a shape depend on. Per packet: the helpers are static, for the
 * compiler to inline. */
static void build(struct cap_ctx *c, const struct cap_record *r, const struct rw_packet *p)
{
	struct cap_json *j = c->json;
	uint32_t shape = root_shape(c, r, p);

	jbegin(&j->root, shape);
	build_record(c, r, p, shape);
	build_link_net(j, p, shape);
	if (shape & R_BTH) {
		jset_ref(&j->root, "bth", fill_bth(j, p));
		build_ext_request(j, p);
		build_ext_rest(j, p);
	}
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
