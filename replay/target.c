/* SPDX-License-Identifier: BSD-3-Clause */
/* --target: the live endpoint's coordinates from rocewire-verbs' JSON, the
 * recorded requester's from the capture, and the rewrite rules between. */
#include "target.h"

#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "reader.h"
#include "rocewire/packet.h"

struct endpoint {
	uint64_t qpn, psn, rkey, addr, len;
	uint8_t gid[16];
	int have_gid, have_len;
};

static int num(json_t *o, const char *k, uint64_t *v)
{
	json_t *x = json_object_get(o, k);
	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return -1;
	*v = (uint64_t)json_integer_value(x);
	return 0;
}

/* The "ready" line of `server --fixed-peer` (qpn, expected_psn, rkey, addr,
 * len, gid), or a server record (--record: qp[0].local, qp[0].remote.psn,
 * gid.local). */
static int parse_target(json_t *j, struct endpoint *e)
{
	const char *gid = NULL;
	memset(e, 0, sizeof(*e));
	if (json_object_get(j, "expected_psn")) {
		if (num(j, "qpn", &e->qpn) || num(j, "expected_psn", &e->psn) || num(j, "rkey", &e->rkey) ||
		    num(j, "addr", &e->addr))
			return -1;
		e->have_len = num(j, "len", &e->len) == 0;
		gid = json_string_value(json_object_get(j, "gid"));
	} else {
		json_t *q = json_array_get(json_object_get(j, "qp"), 0);
		json_t *l = json_object_get(q, "local"), *r = json_object_get(q, "remote");
		if (!l || !r || num(l, "qpn", &e->qpn) || num(r, "psn", &e->psn) || num(l, "rkey", &e->rkey) ||
		    num(l, "addr", &e->addr))
			return -1;
		e->have_len = num(l, "len", &e->len) == 0;
		gid = json_string_value(json_object_get(json_object_get(j, "gid"), "local"));
	}
	if (gid && inet_pton(AF_INET6, gid, e->gid) == 1)
		e->have_gid = 1;
	return e->qpn <= 0xFFFFFF && e->psn <= 0xFFFFFF && e->rkey <= 0xFFFFFFFFu ? 0 : -1;
}

struct recorded {
	int found, have_reth;
	uint32_t qpn, psn, rkey;
	uint64_t va_min;
	int v6;
	uint8_t dst[16];
};

/* The first request in the capture names the stream; its QP's RDMA
 * headers give the R_Key and the lowest VA (the buffer's start). */
static int scan(const char *path, struct recorded *rc, char *err, size_t errlen)
{
	struct rp_reader rd;
	struct rp_rec rec;
	struct rw_packet p;
	struct rw_decode_cfg cfg = {.no_icrc_check = 1};
	int r;

	memset(rc, 0, sizeof(*rc));
	if (rp_reader_open(&rd, path, 0) != 0) {
		snprintf(err, errlen, "%s", rd.err);
		return -1;
	}
	while ((r = rp_reader_next(&rd, &rec)) == 1) {
		rw_packet_decode(&cfg, rd.linktype, rec.data, rec.caplen, rec.wirelen, &p);
		if (!(p.present & RW_P_BTH) || !p.op || !(p.op->flags & RW_OPF_REQUEST))
			continue;
		if (!rc->found) {
			rc->found = 1;
			rc->qpn = p.bth.dqpn;
			rc->psn = p.bth.psn;
			if (p.present & RW_P_IPV4) {
				uint32_t d = p.ipv4.dst;
				rc->dst[0] = (uint8_t)(d >> 24);
				rc->dst[1] = (uint8_t)(d >> 16);
				rc->dst[2] = (uint8_t)(d >> 8);
				rc->dst[3] = (uint8_t)d;
			} else if (p.present & RW_P_IPV6) {
				rc->v6 = 1;
				memcpy(rc->dst, p.ipv6.dst, 16);
			} else {
				rc->v6 = 1;
				memcpy(rc->dst, p.grh.dgid, 16);
			}
		}
		if (p.bth.dqpn != rc->qpn)
			continue;
		uint64_t va = 0;
		uint32_t rkey = 0;
		if (p.hdrs & RW_HDR_RETH) {
			va = p.reth.va;
			rkey = p.reth.rkey;
		} else if (p.hdrs & RW_HDR_ATOMICETH) {
			va = p.atomiceth.va;
			rkey = p.atomiceth.rkey;
		} else {
			continue;
		}
		if (!rc->have_reth || va < rc->va_min)
			rc->va_min = va;
		if (!rc->have_reth)
			rc->rkey = rkey;
		rc->have_reth = 1;
	}
	if (r < 0)
		snprintf(err, errlen, "%s", rd.err);
	rp_reader_close(&rd);
	if (r < 0)
		return -1;
	if (!rc->found) {
		snprintf(err, errlen, "--target: %s has no request packet (RC/UC/UD requester) to re-target", path);
		return -1;
	}
	return 0;
}

static int add_rules(struct rp_opts *o, const struct endpoint *e, const struct recorded *rc, char *err,
		     size_t errlen)
{
	struct rw_rewrite *rw = &o->rw;
	if (rw->n_qpn + 1 > RW_RW_MAX_MAP || rw->n_psn + 1 > RW_RW_MAX_MAP || rw->n_rkey + 1 > RW_RW_MAX_MAP ||
	    rw->n_va + 1 > RW_RW_MAX_MAP || rw->n_ip4 + 1 > RW_RW_MAX_MAP || rw->n_ip6 + 1 > RW_RW_MAX_MAP) {
		snprintf(err, errlen, "--target: too many rules already given with it");
		return -1;
	}
	rw->qpn[rw->n_qpn++] = (struct rw_rw_map32){rc->qpn, (uint32_t)e->qpn};
	rw->psn[rw->n_psn++] = (struct rw_rw_psnoff){rc->qpn, (uint32_t)(e->psn - rc->psn) & RW_PSN_MASK, 0};
	if (rc->have_reth) {
		rw->rkey[rw->n_rkey++] = (struct rw_rw_map32){rc->rkey, (uint32_t)e->rkey};
		rw->va[rw->n_va++] =
			(struct rw_rw_vamap){rc->va_min, e->have_len && e->len ? e->len : UINT64_MAX - rc->va_min, e->addr};
	}
	/* the recorded destination becomes the target's address; it goes
	 * first, so that a user's wider --map-ip covers only the rest */
	static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
	if (e->have_gid && !rc->v6 && memcmp(e->gid, v4mapped, 12) == 0) {
		memmove(rw->ip4 + 1, rw->ip4, rw->n_ip4 * sizeof(rw->ip4[0]));
		uint32_t f = (uint32_t)rc->dst[0] << 24 | (uint32_t)rc->dst[1] << 16 | (uint32_t)rc->dst[2] << 8 | rc->dst[3];
		uint32_t t = (uint32_t)e->gid[12] << 24 | (uint32_t)e->gid[13] << 16 | (uint32_t)e->gid[14] << 8 | e->gid[15];
		rw->ip4[0] = (struct rw_rw_ip4map){f, t, 0xFFFFFFFFu};
		rw->n_ip4++;
	} else if (e->have_gid) {
		memmove(rw->ip6 + 1, rw->ip6, rw->n_ip6 * sizeof(rw->ip6[0]));
		memcpy(rw->ip6[0].from, rc->dst, 16);
		memcpy(rw->ip6[0].to, e->gid, 16);
		rw->ip6[0].plen = 128;
		rw->n_ip6++;
	}
	if (!o->n_qps)
		o->qps[o->n_qps++] = rc->qpn;
	return 0;
}

int rp_target_apply(struct rp_opts *o, char *err, size_t errlen)
{
	json_error_t je;
	struct endpoint e;
	struct recorded rc;
	json_t *j = json_load_file(o->target, JSON_DISABLE_EOF_CHECK, &je);
	if (!j) {
		if (je.line > 0)
			snprintf(err, errlen, "--target %s:%d:%d: %s", o->target, je.line, je.column, je.text);
		else
			snprintf(err, errlen, "--target %s: %s", o->target, je.text);
		return -1;
	}
	int bad = !json_is_object(j) || parse_target(j, &e) != 0;
	json_decref(j);
	if (bad) {
		snprintf(err, errlen,
			 "--target %s: expected rocewire-verbs' fixed-peer server JSON (its ready line, with qpn, "
			 "expected_psn, rkey, addr, gid; or its --record file)",
			 o->target);
		return -1;
	}
	if (scan(o->input, &rc, err, errlen) != 0)
		return -1;
	return add_rules(o, &e, &rc, err, errlen);
}
