/* libFuzzer target: whole-frame decode over every link type, the error
 * sentence, and a build round trip of what decoded cleanly.
 *
 * Input: byte 0 picks the link type (low 3 bits) and options (bit 3: ICRC
 * check off; bits 4-7: how many bytes the wire length exceeds the captured
 * length, 0 meaning a complete capture); the rest is the frame. The frame is
 * copied into an allocation of exactly its size so that AddressSanitizer sees
 * any read past the captured bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int linktypes[] = {
	RW_LINKTYPE_ETHERNET, RW_LINKTYPE_INFINIBAND, RW_LINKTYPE_ERF,
	RW_LINKTYPE_LINUX_SLL, RW_LINKTYPE_LINUX_SLL2,
	RW_LINKTYPE_ETHERNET, RW_LINKTYPE_ETHERNET, RW_LINKTYPE_INFINIBAND,
};

#define CHECK(cond)                                                                                 \
	do {                                                                                        \
		if (!(cond)) {                                                                      \
			fprintf(stderr, "fuzz_packet: %s:%d: round trip check failed: %s\n",        \
				__FILE__, __LINE__, #cond);                                         \
			abort();                                                                    \
		}                                                                                   \
	} while (0)

/* Where describe() drops what it reads, so that nothing is optimised away. */
extern volatile size_t rw_fuzz_sink;
volatile size_t rw_fuzz_sink;
#define sink rw_fuzz_sink

/* Every name and sentence the decoder offers, into buffers of every small
 * size, so that their bounds are exercised too. */
static void describe(const struct rw_packet *p)
{
	char buf[256];
	for (size_t cap = 0; cap < 8; cap++) {
		char *small = malloc(cap ? cap : 1);
		if (!small)
			return;
		rw_packet_error(p, small, cap);
		if (cap)
			sink += strlen(small);
		free(small);
	}
	sink += strlen(rw_packet_error(p, buf, sizeof buf));
	sink += strlen(rw_carrier_name(p->carrier));
	sink += strlen(rw_layer_name(p->err_layer));
	sink += strlen(rw_crc_status_name(p->icrc_status));
	sink += strlen(rw_strerror(p->err));
	if (p->present & RW_P_BTH) {
		const struct rw_opcode_info *op = rw_opcode(p->bth.opcode);
		sink += strlen(op->name) + strlen(rw_transport_name((enum rw_transport)op->transport));
		for (unsigned b = 0; b < RW_HDR_COUNT; b++)
			if (p->hdrs & (1u << b))
				sink += strlen(rw_hdr_name((enum rw_hdr)(1u << b)));
	}
	if (p->hdrs & RW_HDR_AETH) {
		sink += strlen(rw_aeth_kind_name((enum rw_aeth_kind)p->aeth.kind));
		sink += strlen(rw_nak_code_name(p->aeth.value));
		sink += rw_rnr_timer_us(p->aeth.value) + (size_t)(rw_aeth_credits(p->aeth.value) + 1);
	}
}

/* A frame that decoded to its end is rebuilt from its decoded form and
 * decoded again: the transport must come back unchanged and the new ICRC
 * must verify. */
static void round_trip(const struct rw_packet *p, int linktype)
{
	static uint8_t out[70000];
	static struct rw_packet q;
	size_t n = 0;

	if (p->err != RW_OK || !(p->present & RW_P_BTH) || p->payload_caplen != p->payload_len)
		return;
	if (p->carrier != RW_CARRIER_ROCEV2 && p->carrier != RW_CARRIER_ROCEV1 &&
	    p->carrier != RW_CARRIER_IB)
		return;
	/* Keep the pad count and the length fields only where the builder
	 * derives them the same way: it pads payload to 4 bytes, so keep the
	 * frame's own pad. */
	enum rw_err e = rw_packet_build(p, linktype, RW_BUILD_KEEP_PAD, out, sizeof out, &n);
	if (e != RW_OK)
		return; /* e.g. a frame the builder refuses to make (INVALID): not a bug */
	CHECK(n <= sizeof out);
	uint8_t *copy = malloc(n ? n : 1);
	if (!copy)
		return;
	memcpy(copy, out, n);
	rw_packet_decode(NULL, linktype, copy, n, n, &q);
	CHECK(q.err == RW_OK);
	CHECK(q.carrier == p->carrier);
	CHECK(q.hdrs == p->hdrs);
	CHECK(q.bth.opcode == p->bth.opcode && q.bth.psn == p->bth.psn && q.bth.dqpn == p->bth.dqpn);
	CHECK(q.bth.pkey == p->bth.pkey && q.bth.pad == p->bth.pad && q.bth.se == p->bth.se);
	CHECK(q.bth.m == p->bth.m && q.bth.ackreq == p->bth.ackreq && q.bth.tver == p->bth.tver);
	CHECK(q.payload_len == p->payload_len);
	CHECK(q.payload_len == 0 || memcmp(q.payload, p->payload, p->payload_len) == 0);
	if (p->hdrs & RW_HDR_RETH)
		CHECK(q.reth.va == p->reth.va && q.reth.rkey == p->reth.rkey &&
		      q.reth.dmalen == p->reth.dmalen);
	if (p->hdrs & RW_HDR_AETH)
		CHECK(q.aeth.syndrome == p->aeth.syndrome && q.aeth.msn == p->aeth.msn);
	if (p->hdrs & RW_HDR_DETH)
		CHECK(q.deth.qkey == p->deth.qkey && q.deth.sqpn == p->deth.sqpn);
	if (p->hdrs & RW_HDR_ATOMICETH)
		CHECK(q.atomiceth.va == p->atomiceth.va && q.atomiceth.swap_add == p->atomiceth.swap_add &&
		      q.atomiceth.compare == p->atomiceth.compare && q.atomiceth.rkey == p->atomiceth.rkey);
	if (p->hdrs & RW_HDR_IMMDT)
		CHECK(q.immdt == p->immdt);
	if (p->hdrs & RW_HDR_IETH)
		CHECK(q.ieth == p->ieth);
	CHECK(q.icrc_status == RW_CRC_OK);
	if (q.present & RW_P_VCRC)
		CHECK(q.vcrc_status == RW_CRC_OK);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rw_packet p;
	if (size < 1)
		return 0;
	int linktype = linktypes[data[0] & 7];
	struct rw_decode_cfg cfg = {0, (uint8_t)((data[0] >> 3) & 1)};
	size_t extra = (size_t)(data[0] >> 4) * 97; /* a cut of 0..1455 bytes */
	size_t len = size - 1;
	uint8_t *frame = malloc(len ? len : 1);
	if (!frame)
		return 0;
	memcpy(frame, data + 1, len);

	enum rw_err e = rw_packet_decode(&cfg, linktype, frame, len, len + extra, &p);
	if (e != p.err)
		abort();
	describe(&p);
	if (!extra && !cfg.no_icrc_check)
		round_trip(&p, linktype);
	/* The default configuration (cfg NULL) takes the same path. */
	rw_packet_decode(NULL, linktype, frame, len, len, &p);
	describe(&p);
	free(frame);
	return 0;
}
