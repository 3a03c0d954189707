/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: management datagrams and the CM handshake, beside the
 * packet fuzzer (which reaches MADs only as one frame at a time).
 *
 * Input: a sequence of records, each 1 control byte and up to 256 MAD
 * bytes (the last record may be shorter: a MAD cut by the snapshot
 * length). The control byte picks the direction (bit 0: which of two hosts
 * sends), the destination QP (bit 1: QP 0 or 1) and the time step (bits
 * 2-7). Each MAD is decoded whole (rw_mad_decode) and as the brief a frame
 * keeps (rw_mad_brief_decode: the two must agree on the header and on a
 * CM message's IDs, QPN and starting PSN), built into a RoCEv2 frame of
 * exactly its captured size, decoded back, walked through every field
 * table rw_packet_hviews yields, and fed to one analyzer for the whole
 * input, so that any order of REQ, REP, RTU, REJ, MRA, DREQ and DREP with
 * any IDs and QPNs runs the engine's CM tracking (analyze_cm.c). */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                 \
	do {                                                                                        \
		if (!(cond)) {                                                                      \
			fprintf(stderr, "fuzz_mad: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                             \
			abort();                                                                    \
		}                                                                                   \
	} while (0)

extern volatile size_t rw_fuzz_mad_sink;
volatile size_t rw_fuzz_mad_sink;
#define sink rw_fuzz_mad_sink

/* The whole decode and the brief agree. */
static void both_decodes(const uint8_t *m, size_t n)
{
	static struct rw_mad d;
	struct rw_mad_brief b;
	enum rw_err eb = rw_mad_brief_decode(m, n, &b);
	enum rw_err ed = rw_mad_decode(m, n, &d);
	if (n < RW_MAD_HDR_LEN) {
		CHECK(eb == RW_ERR_TRUNCATED);
		return;
	}
	CHECK(eb == RW_OK);
	if (ed == RW_ERR_TRUNCATED)
		return;
	CHECK(memcmp(&b.hdr, &d.hdr, sizeof(b.hdr)) == 0);
	if (b.cm_msg == RW_CM_NONE)
		return;
	CHECK(ed == RW_OK && d.u.cm.msg == b.cm_msg);
	if (b.cm_msg == RW_CM_REQ) {
		CHECK(b.local_comm_id == d.u.cm.u.req.local_comm_id);
		CHECK(b.qpn == d.u.cm.u.req.local_qpn);
		CHECK(b.starting_psn == d.u.cm.u.req.starting_psn);
	} else if (b.cm_msg == RW_CM_REP) {
		CHECK(b.remote_comm_id == d.u.cm.u.rep.remote_comm_id);
		CHECK(b.qpn == d.u.cm.u.rep.local_qpn);
		CHECK(b.starting_psn == d.u.cm.u.rep.starting_psn);
	}
}

/* Every field of every table the frame's decode yields. */
static void walk_fields(const struct rw_packet *p, const uint8_t *frame)
{
	struct rw_hview v[RW_HVIEW_MAX];
	unsigned n = rw_packet_hviews(p, frame, v, RW_HVIEW_MAX);
	for (unsigned i = 0; i < n; i++) {
		for (unsigned k = 0; k < v[i].d->n; k++) {
			const struct rw_field *f = &v[i].d->f[k];
			uint64_t x;
			size_t len;
			const char *s;
			if (!rw_field_shown(f, &v[i]))
				continue;
			if (f->type == RW_FT_BYTES || f->type == RW_FT_IPV6 || f->type == RW_FT_IPV4 ||
			    f->type == RW_FT_MAC) {
				const uint8_t *b = rw_field_bytes(f, &v[i], &len);
				sink += b && len ? b[len - 1] : 0;
			} else if (rw_field_value(f, &v[i], 0, &x)) {
				sink += (size_t)x;
			}
			if ((s = rw_field_name_of(f, &v[i])))
				sink += strlen(s);
		}
	}
}

/* The analyzer's big blocks (a chunk of 1024 flows, the hash slots) kept
 * from one input to the next: a fresh megabyte-sized calloc per input is
 * ASan's mmap, page faults and munmap, which held this target to a few
 * thousand inputs a second. Blocks under 64 KiB come from ASan's heap as
 * before; a kept block is zeroed again when handed out, and its redzones
 * (it is one malloc) still catch an overflow. */
#define KEEP_MIN (64u * 1024u)
#define KEEP_MAX 16
static struct kept {
	void *p;
	size_t size;
} kept[KEEP_MAX];

static void *keep_alloc(void *ctx, size_t size)
{
	(void)ctx;
	if (size >= KEEP_MIN) {
		for (unsigned i = 0; i < KEEP_MAX; i++) {
			if (kept[i].p && kept[i].size == size) {
				void *p = kept[i].p;
				kept[i].p = NULL;
				memset(p, 0, size);
				return p;
			}
		}
	}
	return calloc(1, size);
}

/* The free hook gets no size: ASan's malloc_usable_size gives the size
 * asked for, which is what keep_alloc matches on. */
static void keep_free(void *ctx, void *p)
{
	(void)ctx;
	if (!p)
		return;
	size_t size = malloc_usable_size(p);
	if (size >= KEEP_MIN) {
		for (unsigned i = 0; i < KEEP_MAX; i++) {
			if (!kept[i].p) {
				kept[i].p = p;
				kept[i].size = size;
				return;
			}
		}
	}
	free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t frame[2048];
	const struct rw_analyze_cfg cfg = {.alloc = keep_alloc, .free = keep_free};
	struct rw_analyzer *a = rw_analyzer_new(&cfg);
	uint64_t ts = 1000, fno = 0;
	if (!a)
		return 0;
	while (size > 1) {
		uint8_t ctl = data[0];
		size_t n = size - 1 < RW_MAD_LEN ? size - 1 : RW_MAD_LEN;
		const uint8_t *m = data + 1;
		data += 1 + n;
		size -= 1 + n;
		both_decodes(m, n);

		struct rw_packet p;
		memset(&p, 0, sizeof(p));
		p.carrier = RW_CARRIER_ROCEV2;
		p.present = RW_P_IPV4;
		p.ipv4.src = (ctl & 1) ? 0x0a000002u : 0x0a000001u;
		p.ipv4.dst = (ctl & 1) ? 0x0a000001u : 0x0a000002u;
		p.udp.sport = 49152;
		p.bth.opcode = 0x64; /* UD SEND Only */
		p.bth.pkey = 0xFFFF;
		p.bth.dqpn = (ctl >> 1) & 1;
		p.deth.qkey = RW_GSI_QKEY;
		p.deth.sqpn = p.bth.dqpn;
		uint8_t mad[RW_MAD_LEN] = {0};
		memcpy(mad, m, n);
		p.payload = mad;
		p.payload_len = RW_MAD_LEN;
		size_t len;
		if (rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, frame, sizeof(frame), &len) != RW_OK)
			continue;
		/* cut where the record ends: a MAD shorter than 256 bytes is a
		 * frame cut by the snapshot length */
		size_t cap = len - (RW_MAD_LEN - n) - (n < RW_MAD_LEN ? 4 : 0);
		uint8_t *exact = malloc(cap);
		if (!exact)
			break;
		memcpy(exact, frame, cap);
		struct rw_packet d;
		rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, exact, cap, len, &d);
		if (n == RW_MAD_LEN)
			CHECK((d.present & RW_P_MAD) != 0);
		walk_fields(&d, exact);
		ts += 1000u * (ctl >> 2);
		rw_analyzer_packet(a, &d, ts, ++fno, NULL);
		free(exact);
	}
	rw_analyzer_finish(a, ts);
	for (uint32_t i = 0; i < rw_analyzer_cm_count(a); i++) {
		const struct rw_cm_conn *c = rw_analyzer_cm(a, i);
		CHECK(c->state < RW_CMS_COUNT);
		if (c->flow_active >= 0) {
			const struct rw_flow *fa = rw_analyzer_flow(a, (uint32_t)c->flow_active);
			CHECK(fa && fa->key.dqpn == c->passive_qpn);
		}
		sink += strlen(rw_cm_state_key((enum rw_cm_state)c->state));
	}
	rw_analyzer_free(a);
	return 0;
}
