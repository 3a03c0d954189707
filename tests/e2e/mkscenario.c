/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-mkscenario: writes a capture of one crafted scenario (gaps,
 * duplicates, go-back-N, every NAK kind, RNR, CE -> CNP, PFC storms, a PSN
 * wrap at 2^24, messages and latencies, and a mixed "showcase" for the HTML
 * report) and, next to it, the truth about it as JSON.
 *
 * The truth comes from the construction, never from the report: a count is
 * what the scenario did on purpose (PSNs it left out, copies it sent again,
 * NAKs it wrote), and packets, bytes and ECN codepoints per flow are tallied
 * as the frames are written. Frames are built with rw_packet_build() and the
 * capture has nanosecond timestamps, so times in the truth are exact.
 *
 * usage: rocewire-mkscenario SCENARIO -o FILE.pcap -t TRUTH.json
 *        rocewire-mkscenario --list
 *
 * Truth JSON: {"scenario", "description", "expect": {top-level keys of the
 * report}, "qps": [{"src", "dst", "dqpn", "expect": {keys of a qps[] entry}}]}.
 * A value is a number or string to match exactly, an object of further keys,
 * or {"min": a, "max": b} for a range (latency quantiles come from buckets).
 * {"value": v, "known_bug": "why"} marks an expectation that fails because of
 * a known bug elsewhere (report_check.py counts it as an expected failure). */
#include <errno.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rocewire.h"

static const char *prog = "rocewire-mkscenario";

#define T0 1700000000000000000ull /* 2023-11-14 22:13:20 UTC, in ns */
#define US 1000ull
#define MS 1000000ull

#define A_IP 0x0a000001u
#define B_IP 0x0a000002u

#define OP_SEND_ONLY 0x04
#define OP_WRITE_FIRST 0x06
#define OP_WRITE_MIDDLE 0x07
#define OP_WRITE_LAST 0x08
#define OP_WRITE_ONLY 0x0a
#define OP_READ_REQ 0x0c
#define OP_READ_FIRST 0x0d
#define OP_READ_MIDDLE 0x0e
#define OP_READ_LAST 0x0f
#define OP_ACK 0x11
#define OP_ATOMIC_ACK 0x12
#define OP_CMP_SWAP 0x13
#define OP_UC_SEND_ONLY 0x24
#define OP_CNP 0x81

/* ---- frames ---------------------------------------------------------------- */

struct frame {
	uint64_t ts;
	uint64_t seq;   /* order of writing, for equal times */
	uint32_t len;
	uint8_t *data;
};

struct tally {
	uint32_t src, dst, dqpn;
	uint32_t conv;   /* conversation on this key (1, then 2 after a QP number reuse) */
	uint64_t packets, bytes, ecn[4];
	json_t *expect;  /* NULL unless the scenario states truths about the flow */
};

struct sc {
	struct frame *fr;
	size_t n, cap;
	struct tally t[256];
	unsigned nt;
	json_t *top;     /* top-level expectations */
	uint32_t conv;   /* conversation the packets emitted now belong to (0: the first) */
	uint8_t buf[10000];
	uint8_t payload[4096];
};

/* A packet to write: RoCEv2 over IPv4 unless pfc says otherwise. */
struct pk {
	uint32_t src, dst;
	uint8_t opcode;
	uint32_t dqpn, psn;
	uint32_t len;       /* payload, or the RETH DMA length of a READ request */
	uint8_t ecn, dscp;
	int pcp;            /* VLAN priority, -1 for no tag */
	uint8_t syndrome;
	uint32_t msn;
};

static void die(const char *what)
{
	fprintf(stderr, "%s: %s\n", prog, what);
	exit(1);
}

static void add_frame(struct sc *s, uint64_t ts, size_t len)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->fr = realloc(s->fr, s->cap * sizeof(*s->fr));
		if (!s->fr)
			die("out of memory");
	}
	struct frame *f = &s->fr[s->n];
	f->ts = ts;
	f->seq = s->n;
	f->len = (uint32_t)len;
	f->data = malloc(len);
	if (!f->data)
		die("out of memory");
	memcpy(f->data, s->buf, len);
	s->n++;
}

static struct tally *tally_of(struct sc *s, uint32_t src, uint32_t dst, uint32_t dqpn)
{
	uint32_t conv = s->conv ? s->conv : 1;
	for (unsigned i = 0; i < s->nt; i++)
		if (s->t[i].src == src && s->t[i].dst == dst && s->t[i].dqpn == dqpn &&
		    s->t[i].conv == conv)
			return &s->t[i];
	if (s->nt == sizeof(s->t) / sizeof(s->t[0]))
		die("too many flows in a scenario");
	struct tally *t = &s->t[s->nt++];
	memset(t, 0, sizeof(*t));
	t->src = src;
	t->dst = dst;
	t->dqpn = dqpn;
	t->conv = conv;
	return t;
}

static void emit(struct sc *s, uint64_t ts, const struct pk *k)
{
	static const uint8_t ma[6] = {0x02, 0, 0, 0, 0, 0x0a}, mb[6] = {0x02, 0, 0, 0, 0, 0x0b};
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	const struct rw_opcode_info *op = rw_opcode(k->opcode);
	p.carrier = RW_CARRIER_ROCEV2;
	p.present = RW_P_ETH | RW_P_IPV4 | RW_P_UDP | RW_P_BTH;
	memcpy(p.eth.src, k->src == A_IP ? ma : mb, 6);
	memcpy(p.eth.dst, k->src == A_IP ? mb : ma, 6);
	if (k->pcp >= 0) {
		p.n_vlan = 1;
		p.vlan[0] = (struct rw_vlan){.tpid = RW_ETHERTYPE_VLAN, .pcp = (uint8_t)k->pcp,
					     .vid = 100, .ethertype = RW_ETHERTYPE_IPV4};
		p.eth.ethertype = RW_ETHERTYPE_VLAN;
	} else {
		p.eth.ethertype = RW_ETHERTYPE_IPV4;
	}
	p.ipv4.dscp = k->dscp;
	p.ipv4.ecn = k->ecn;
	p.ipv4.flags = RW_IPV4_DF;
	p.ipv4.ttl = 64;
	p.ipv4.protocol = RW_IPPROTO_UDP;
	p.ipv4.src = k->src;
	p.ipv4.dst = k->dst;
	p.udp.sport = k->opcode == OP_CNP ? 0 : 49152;
	p.udp.dport = RW_ROCEV2_PORT;
	p.bth.opcode = k->opcode;
	p.bth.pkey = 0xffff;
	p.bth.dqpn = k->dqpn;
	p.bth.psn = k->psn;
	if (k->opcode == OP_CNP)
		p.bth.becn = 1;
	if (op->hdrs & RW_HDR_RETH) {
		p.reth.va = 0x10000;
		p.reth.rkey = 0x1234;
		p.reth.dmalen = k->len;
	}
	if (op->hdrs & RW_HDR_ATOMICETH) {
		p.atomiceth.va = 0x20000;
		p.atomiceth.rkey = 0x1234;
	}
	if (op->hdrs & RW_HDR_AETH) {
		p.aeth.syndrome = k->syndrome;
		p.aeth.msn = k->msn;
	}
	if (op->flags & RW_OPF_PAYLOAD) {
		p.payload = s->payload;
		p.payload_len = k->len;
	}
	size_t len;
	enum rw_err e = rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, s->buf, sizeof(s->buf), &len);
	if (e != RW_OK) {
		fprintf(stderr, "%s: rw_packet_build (opcode 0x%02x): %s\n", prog, k->opcode, rw_strerror(e));
		exit(1);
	}
	add_frame(s, ts, len);
	struct tally *t = tally_of(s, k->src, k->dst, k->dqpn);
	t->packets++;
	t->bytes += len;
	t->ecn[k->ecn & 3]++;
}

static void emit_macctrl(struct sc *s, uint64_t ts, uint16_t opcode, uint16_t cev,
			 const uint16_t quanta[8])
{
	/* From the switch port between A and B (no frame is addressed to it):
	 * its pause holds the requests. A NIC's pause holds nothing on an
	 * Ethernet capture, which does not say it is of the NIC's link
	 * (README-report, PFC). */
	static const uint8_t mpause[6] = {0x01, 0x80, 0xc2, 0, 0, 0x01}, msw[6] = {0x02, 0, 0, 0, 0xfe, 0x01};
	struct rw_packet p;
	memset(&p, 0, sizeof(p));
	p.carrier = opcode == RW_MACCTRL_PFC ? RW_CARRIER_PFC : RW_CARRIER_PAUSE;
	p.present = RW_P_ETH | RW_P_MACCTRL;
	memcpy(p.eth.dst, mpause, 6);
	memcpy(p.eth.src, msw, 6);
	p.eth.ethertype = RW_ETHERTYPE_MACCTRL;
	p.macctrl.opcode = opcode;
	p.macctrl.cev = cev;
	memcpy(p.macctrl.quanta, quanta, sizeof(p.macctrl.quanta));
	size_t len;
	if (rw_packet_build(&p, RW_LINKTYPE_ETHERNET, 0, s->buf, sizeof(s->buf), &len) != RW_OK)
		die("rw_packet_build (PFC) failed");
	add_frame(s, ts, len);
}

static void pfc(struct sc *s, uint64_t ts, unsigned prio, uint16_t quanta)
{
	uint16_t q[8] = {0};
	q[prio] = quanta;
	emit_macctrl(s, ts, RW_MACCTRL_PFC, (uint16_t)(1u << prio), q);
}

static void pause802(struct sc *s, uint64_t ts, uint16_t quanta)
{
	uint16_t q[8] = {quanta};
	emit_macctrl(s, ts, RW_MACCTRL_PAUSE, 0, q);
}

/* Shorthands for the common packets. */
static struct pk req(uint8_t opcode, uint32_t dqpn, uint32_t psn, uint32_t len)
{
	return (struct pk){.src = A_IP, .dst = B_IP, .opcode = opcode, .dqpn = dqpn,
			   .psn = psn & RW_PSN_MASK, .len = len, .ecn = RW_ECN_ECT0, .dscp = 26,
			   .pcp = -1};
}

static struct pk resp(uint8_t opcode, uint32_t dqpn, uint32_t psn, uint8_t syndrome, uint32_t msn,
		      uint32_t len)
{
	return (struct pk){.src = B_IP, .dst = A_IP, .opcode = opcode, .dqpn = dqpn,
			   .psn = psn & RW_PSN_MASK, .len = len, .ecn = RW_ECN_NOT_ECT, .dscp = 26,
			   .pcp = -1, .syndrome = syndrome, .msn = msn & RW_PSN_MASK};
}

static uint8_t ack_syn(void)
{
	return rw_aeth_syndrome(RW_AETH_ACK, 31);
}

static uint8_t nak_syn(uint8_t code)
{
	return rw_aeth_syndrome(RW_AETH_NAK, code);
}

/* ---- truths ---------------------------------------------------------------- */

static json_t *expect(struct sc *s, uint32_t src, uint32_t dst, uint32_t dqpn)
{
	struct tally *t = tally_of(s, src, dst, dqpn);
	if (!t->expect)
		t->expect = json_object();
	return t->expect;
}

static void set_int(json_t *o, const char *k, uint64_t v)
{
	json_object_set_new(o, k, json_integer((json_int_t)v));
}

static void set_real(json_t *o, const char *k, double v)
{
	json_object_set_new(o, k, json_real(v));
}

static void set_range(json_t *o, const char *k, double lo, double hi)
{
	json_object_set_new(o, k, json_pack("{s:f,s:f}", "min", lo, "max", hi));
}

/* A sub-object of o (made on first use). */
static json_t *sub(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	if (!v) {
		v = json_object();
		json_object_set_new(o, k, v);
	}
	return v;
}

/* rw_hist buckets are 8 per power of two; the report gives a bucket's upper
 * bound, so a quantile whose true value is v reads between v and v * 1.125. */
static void set_quantile(json_t *o, const char *k, double us)
{
	set_range(o, k, us, us * 1.125 + 1e-6);
}



/* ---- scenarios ------------------------------------------------------------- */

/* Flow 1 (RC SEND, PSN 1000..1199): PSNs at offsets 10-12, 50 and 120-121
 * never sent. Flow 2 (UC, PSN 0..99): 21 sent before 20, 61 before 60. */
static void sc_gaps(struct sc *s)
{
	static const unsigned drop[] = {10, 11, 12, 50, 120, 121};
	uint64_t ts = T0;
	unsigned sent = 0, missing = 0, gaps = 0, in_gap = 0;
	for (unsigned i = 0; i < 200; i++) {
		int dropped = 0;
		for (unsigned d = 0; d < sizeof(drop) / sizeof(drop[0]); d++)
			dropped |= drop[d] == i;
		if (dropped) {
			missing++;
			if (!in_gap)
				gaps++;
			in_gap = 1;
			continue;
		}
		in_gap = 0;
		struct pk k = req(OP_SEND_ONLY, 0x22, 1000 + i, 64);
		emit(s, ts += US, &k);
		sent++;
	}
	json_t *e = expect(s, A_IP, B_IP, 0x22);
	json_object_set_new(e, "transport", json_string("RC"));
	set_int(e, "psn_gaps", gaps);
	set_int(e, "missing_psns", missing);
	set_int(e, "retransmissions", 0);
	set_int(e, "gbn_episodes", 0);
	set_int(e, "out_of_order", 0);
	set_int(e, "messages", sent);
	set_int(sub(e, "msgs_by_op"), "send", sent);
	set_int(sub(e, "bytes_by_op"), "send", sent * 64);

	unsigned swaps = 0;
	for (unsigned i = 0; i < 100; i++) {
		unsigned psn = i;
		if (i == 20 || i == 60)
			psn = i + 1, swaps++;
		else if (i == 21 || i == 61)
			psn = i - 1;
		struct pk k = req(OP_UC_SEND_ONLY, 0x33, psn, 32);
		emit(s, ts += US, &k);
	}
	e = expect(s, A_IP, B_IP, 0x33);
	json_object_set_new(e, "transport", json_string("UC"));
	/* Each swap shows a jump over one PSN (a gap at that moment) that the
	 * late packet then fills: nothing is missing in the end. */
	set_int(e, "out_of_order", swaps);
	set_int(e, "psn_gaps", swaps);
	set_int(e, "missing_psns", 0);
	set_int(e, "retransmissions", 0);
	/* A UC responder does not reorder: past PSN 21 it drops the late
	 * 20 (and 60), a PSN below the one it expects. */
	set_int(e, "messages", 100 - swaps);
}

/* RC SEND PSN 0..99; a second copy of 30 and of 70 right after the first,
 * and of 80 after 85. Each copy goes back to an earlier PSN: one go-back-N
 * episode each. */
static void sc_dups(struct sc *s)
{
	uint64_t ts = T0;
	unsigned copies = 0;
	for (unsigned i = 0; i < 100; i++) {
		struct pk k = req(OP_SEND_ONLY, 0x22, i, 128);
		emit(s, ts += US, &k);
		if (i == 30 || i == 70 || i == 85) {
			k.psn = i == 85 ? 80 : i;
			emit(s, ts += US, &k);
			copies++;
		}
	}
	json_t *e = expect(s, A_IP, B_IP, 0x22);
	set_int(e, "retransmissions", copies);
	set_int(e, "gbn_episodes", copies);
	set_int(e, "psn_gaps", 0);
	set_int(e, "missing_psns", 0);
	set_int(e, "out_of_order", 0);
	set_int(e, "messages", 100);
}

/* Connection 1 seen at the sender: SEND 0..59; after 49 the responder NAKs
 * (PSN sequence error) PSN 40; 40..49 are sent again, then 50..59, then one
 * ACK. Connection 2 seen at the receiver: PSN 5040 was lost before the
 * capture point, so the capture shows 5000..5039, 5041..5049, the NAK for
 * 5040, the resent 5040..5049, then 5050..5059 and the ACK. */
static void sc_gbn(struct sc *s)
{
	uint64_t ts = T0;
	struct pk k;
	for (unsigned i = 0; i < 50; i++)
		k = req(OP_SEND_ONLY, 0x22, i, 256), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x11, 40, nak_syn(RW_NAK_PSN_SEQ_ERROR), 40, 0);
	emit(s, ts += 2 * US, &k);
	for (unsigned i = 40; i < 60; i++)
		k = req(OP_SEND_ONLY, 0x22, i, 256), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x11, 59, ack_syn(), 60, 0);
	emit(s, ts += 2 * US, &k);
	json_t *e = expect(s, A_IP, B_IP, 0x22);
	set_int(e, "retransmissions", 10);
	set_int(e, "gbn_episodes", 1);
	set_int(e, "psn_gaps", 0);
	set_int(e, "missing_psns", 0);
	set_int(e, "out_of_order", 0);
	set_int(sub(e, "naks"), "psn_seq", 1);
	set_int(e, "acks", 1);
	set_int(e, "messages", 60);
	set_int(expect(s, B_IP, A_IP, 0x11), "packets", 2);

	ts += 100 * US;
	for (unsigned i = 5000; i < 5050; i++)
		if (i != 5040)
			k = req(OP_SEND_ONLY, 0x23, i, 256), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x12, 5040, nak_syn(RW_NAK_PSN_SEQ_ERROR), 40, 0);
	emit(s, ts += 2 * US, &k);
	for (unsigned i = 5040; i < 5060; i++)
		k = req(OP_SEND_ONLY, 0x23, i, 256), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x12, 5059, ack_syn(), 60, 0);
	emit(s, ts += 2 * US, &k);
	e = expect(s, A_IP, B_IP, 0x23);
	set_int(e, "psn_gaps", 1);
	set_int(e, "missing_psns", 1);
	set_int(e, "retransmissions", 10);
	set_int(e, "gbn_episodes", 1);
	set_int(e, "out_of_order", 0);
	set_int(sub(e, "naks"), "psn_seq", 1);
	/* 60 messages crossed the capture point (5040's only in its resend). */
	set_int(e, "messages", 60);
}

/* 30 SENDs (PSN 100..129), then NAKs for them: 2 invalid request, 3 remote
 * access, 4 remote operational, 5 invalid RD request, 6 RNR, 7 reserved (4
 * with NAK code 5, which IBA reserves, 3 with the reserved AETH kind), and
 * one PSN sequence error last. No ACK. */
static void sc_naks(struct sc *s)
{
	uint64_t ts = T0;
	struct pk k;
	for (unsigned i = 100; i < 130; i++)
		k = req(OP_SEND_ONLY, 0x22, i, 16), emit(s, ts += US, &k);
	static const struct {
		uint8_t syn;
		unsigned n;
		const char *key;
	} kinds[] = {
		{0x60 | RW_NAK_INVALID_REQUEST, 2, "invalid_request"},
		{0x60 | RW_NAK_REMOTE_ACCESS, 3, "remote_access"},
		{0x60 | RW_NAK_REMOTE_OPERATIONAL, 4, "remote_op"},
		{0x60 | RW_NAK_INVALID_RD_REQUEST, 5, "invalid_rd"},
		{0x20 | 14, 6, "rnr"},
		{0x60 | 5, 4, "reserved"},
		{0x40 | 3, 3, "reserved"},
		{0x60 | RW_NAK_PSN_SEQ_ERROR, 1, "psn_seq"},
	};
	json_t *e = expect(s, A_IP, B_IP, 0x22), *nk = sub(e, "naks");
	unsigned psn = 100, total = 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		for (unsigned j = 0; j < kinds[i].n; j++) {
			k = resp(OP_ACK, 0x11, psn++, kinds[i].syn, 100, 0);
			emit(s, ts += US, &k);
			total++;
		}
		json_t *cur = json_object_get(nk, kinds[i].key);
		set_int(nk, kinds[i].key, (cur ? (uint64_t)json_integer_value(cur) : 0) + kinds[i].n);
	}
	set_int(e, "acks", 0);
	set_int(e, "packets", 30);
	set_int(expect(s, B_IP, A_IP, 0x11), "packets", total);
}

/* SEND 0..9; the responder answers PSN 5 with an RNR NAK (timer code 14:
 * 1.28 ms); after the timer the requester sends 5..9 again; one ACK for 9
 * comes 3 us after the resent 9. */
static void sc_rnr(struct sc *s)
{
	uint64_t ts = T0;
	struct pk k;
	for (unsigned i = 0; i < 10; i++)
		k = req(OP_SEND_ONLY, 0x22, i, 512), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x11, 5, rw_aeth_syndrome(RW_AETH_RNR_NAK, 14), 5, 0);
	emit(s, ts += 2 * US, &k);
	ts += rw_rnr_timer_us(14) * US;
	for (unsigned i = 5; i < 10; i++)
		k = req(OP_SEND_ONLY, 0x22, i, 512), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x11, 9, ack_syn(), 10, 0);
	emit(s, ts += 3 * US, &k);
	json_t *e = expect(s, A_IP, B_IP, 0x22);
	set_int(sub(e, "naks"), "rnr", 1);
	set_int(e, "retransmissions", 5);
	set_int(e, "gbn_episodes", 1);
	set_int(e, "psn_gaps", 0);
	set_int(e, "messages", 10);
	set_int(e, "acks", 1);
	json_t *l = sub(e, "ack_latency_us");
	set_int(l, "count", 1);
	set_real(l, "max", 3.0);
	set_real(l, "p50", 3.0);
	set_real(l, "p99", 3.0);
}

/* RC SEND PSN 0..99 one per microsecond from t = 1 us, ECT(0) except CE on
 * packets 20-24 and 60-62. The receiver ACKs every 10th packet 2 us later,
 * and sends a CNP (DSCP 48, ECT(0)) to the requester's QP 5 us after the
 * first CE of each group, and a third one at 5 ms with no CE before it. A
 * second flow (UC) is marked ECT(1). */
static void sc_cecnp(struct sc *s)
{
	struct pk k;
	uint64_t cnp_t[3];
	unsigned ce = 0, ect0 = 0, acks = 0, ncnp = 0;
	for (unsigned i = 0; i < 100; i++) {
		uint64_t t = T0 + (i + 1) * US;
		k = req(OP_SEND_ONLY, 0x22, i, 1024);
		int is_ce = (i >= 20 && i <= 24) || (i >= 60 && i <= 62);
		k.ecn = is_ce ? RW_ECN_CE : RW_ECN_ECT0;
		is_ce ? ce++ : ect0++;
		emit(s, t, &k);
		if (i % 10 == 9) {
			k = resp(OP_ACK, 0x11, i, ack_syn(), i + 1, 0);
			emit(s, t + 2 * US, &k);
			acks++;
		}
		if (i == 20 || i == 60) {
			k = resp(OP_CNP, 0x11, 0, 0, 0, 0);
			k.dscp = 48;
			k.ecn = RW_ECN_ECT0;
			cnp_t[ncnp++] = t + 5 * US;
			emit(s, t + 5 * US, &k);
		}
	}
	k = resp(OP_CNP, 0x11, 0, 0, 0, 0);
	k.dscp = 48;
	k.ecn = RW_ECN_ECT0;
	cnp_t[ncnp++] = T0 + 5 * MS;
	emit(s, T0 + 5 * MS, &k);
	for (unsigned i = 0; i < 10; i++) {
		k = req(OP_UC_SEND_ONLY, 0x33, 500 + i, 64);
		k.ecn = RW_ECN_ECT1;
		emit(s, T0 + 6 * MS + i * US, &k);
	}
	json_t *e = expect(s, A_IP, B_IP, 0x22), *ecn = sub(e, "ecn");
	set_int(ecn, "ect0", ect0);
	set_int(ecn, "ect1", 0);
	set_int(ecn, "ce", ce);
	set_int(ecn, "not_ect", 0);
	set_int(e, "cnps", ncnp);
	uint64_t mn = UINT64_MAX;
	for (unsigned i = 1; i < ncnp; i++)
		if (cnp_t[i] - cnp_t[i - 1] < mn)
			mn = cnp_t[i] - cnp_t[i - 1];
	set_real(e, "cnp_min_interval_us", (double)mn / 1e3);
	json_t *b = expect(s, B_IP, A_IP, 0x11);
	set_int(b, "packets", acks + ncnp);
	set_int(sub(b, "ecn"), "not_ect", acks);
	set_int(sub(b, "ecn"), "ect0", ncnp);
	json_t *u = expect(s, A_IP, B_IP, 0x33);
	set_int(sub(u, "ecn"), "ect1", 10);
	set_int(u, "cnps", 0);
	/* CE packets within 1 ms before each CNP: the first two have some. */
	set_int(s->top, "cnps_unlinked", 1);
}

/* Priority 3 paused with 0xFFFF quanta every 100 us from 0 to 19.9 ms: one
 * continuous pause of 19.9 ms + 65535 quanta (335.5392 us at 100 Gb/s),
 * longer than the 10 ms storm threshold. Priority 5 paused at 30 ms and
 * resumed by an XON 50 us later. An 802.3x PAUSE of 1000 quanta (5.12 us) at
 * 40 ms. Flow P3 (DSCP 24: priority 3) sends at 1..10 ms (paused), 25..29 ms
 * (not), 40.001 ms (PAUSE) and 41 ms (not); flow P5 (VLAN PCP 5 with DSCP 26:
 * the tag wins) sends at 30.01 and 30.02 ms (paused), 30.1 ms (not) and
 * 40.002 ms (PAUSE). */
static void sc_pfc(struct sc *s)
{
	unsigned frames3 = 0;
	for (uint64_t t = 0; t < 20 * MS; t += 100 * US)
		pfc(s, T0 + t, 3, 0xffff), frames3++;
	pfc(s, T0 + 30 * MS, 5, 0xffff);
	pfc(s, T0 + 30 * MS + 50 * US, 5, 0);
	pause802(s, T0 + 40 * MS, 1000);

	struct pk k;
	unsigned psn = 0, p3_paused = 0, p3 = 0;
	static const uint64_t p3_t[] = {1 * MS, 2 * MS, 3 * MS, 4 * MS, 5 * MS, 6 * MS, 7 * MS, 8 * MS,
					9 * MS, 10 * MS, 25 * MS, 26 * MS, 27 * MS, 28 * MS, 29 * MS,
					40 * MS + 1 * US, 41 * MS};
	for (size_t i = 0; i < sizeof(p3_t) / sizeof(p3_t[0]); i++) {
		k = req(OP_SEND_ONLY, 0x22, psn++, 1024);
		k.dscp = 24;
		emit(s, T0 + p3_t[i], &k);
		p3++;
		uint64_t t = p3_t[i];
		if (t < 20 * MS || (t >= 40 * MS && t < 40 * MS + 5120))
			p3_paused++;
	}
	static const uint64_t p5_t[] = {30 * MS + 10 * US, 30 * MS + 20 * US, 30 * MS + 100 * US,
					40 * MS + 2 * US};
	unsigned p5_paused = 0;
	psn = 7000;
	for (size_t i = 0; i < sizeof(p5_t) / sizeof(p5_t[0]); i++) {
		k = req(OP_SEND_ONLY, 0x23, psn++, 1024);
		k.pcp = 5;
		k.dscp = 26;
		emit(s, T0 + p5_t[i], &k);
		uint64_t t = p5_t[i];
		if ((t >= 30 * MS && t < 30 * MS + 50 * US) || (t >= 40 * MS && t < 40 * MS + 5120))
			p5_paused++;
	}
	json_t *e = expect(s, A_IP, B_IP, 0x22);
	set_int(e, "priority", 3);
	set_int(e, "pkts_while_paused", p3_paused);
	set_int(e, "packets", p3);
	e = expect(s, A_IP, B_IP, 0x23);
	set_int(e, "priority", 5);
	set_int(e, "pkts_while_paused", p5_paused);

	json_t *pf = sub(s->top, "pfc");
	json_t *q3 = sub(pf, "3");
	/* 19.9 ms, then 65535 quanta of 512 bit times at 100 Gb/s; the engine
	 * keeps whole nanoseconds. */
	double us3 = 19900.0 + 65535 * 0.00512;
	set_int(q3, "frames", frames3);
	set_int(q3, "xoff", frames3);
	set_int(q3, "xon", 0);
	set_int(q3, "storms", 1);
	set_range(q3, "paused_us", us3 - 0.0011, us3 + 0.0011);
	set_range(q3, "longest_us", us3 - 0.0011, us3 + 0.0011);
	set_int(q3, "pkts_while_paused", p3_paused);
	json_t *q5 = sub(pf, "5");
	set_int(q5, "frames", 2);
	set_int(q5, "xoff", 1);
	set_int(q5, "xon", 1);
	set_int(q5, "storms", 0);
	set_real(q5, "paused_us", 50.0);
	set_real(q5, "longest_us", 50.0);
	set_int(q5, "pkts_while_paused", p5_paused);
	json_t *qp = sub(pf, "pause");
	set_int(qp, "frames", 1);
	set_int(qp, "xoff", 1);
	set_int(qp, "xon", 0);
	set_real(qp, "paused_us", 5.12);
	set_real(qp, "longest_us", 5.12);
	set_int(qp, "pkts_while_paused", p3_paused + p5_paused);
	for (unsigned i = 0; i < 8; i++) {
		if (i == 3 || i == 5)
			continue;
		char key[4];
		snprintf(key, sizeof(key), "%u", i);
		set_int(sub(pf, key), "frames", 0);
	}
}

/* Connection 1: PSN 0xFFFFF0..0xFFFFFF, 0 lost before the capture point,
 * 1..0xF; the receiver NAKs PSN 0 (sequence error) and 0..0xF are sent
 * again, then 0x10..0x1F and an ACK. Flow 2 (UC): 0xFFFFFE, 0, 0xFFFFFF, 1:
 * 0 overtakes 0xFFFFFF across the wrap. */
static void sc_wrap(struct sc *s)
{
	uint64_t ts = T0;
	struct pk k;
	unsigned sent = 0;
	for (uint32_t i = 0xfffff0; i != 0x10; i = (i + 1) & RW_PSN_MASK) {
		if (i == 0)
			continue;
		k = req(OP_SEND_ONLY, 0x22, i, 64), emit(s, ts += US, &k);
		sent++;
	}
	k = resp(OP_ACK, 0x11, 0, nak_syn(RW_NAK_PSN_SEQ_ERROR), 1, 0);
	emit(s, ts += 2 * US, &k);
	for (uint32_t i = 0; i < 0x20; i++)
		k = req(OP_SEND_ONLY, 0x22, i, 64), emit(s, ts += US, &k), sent++;
	k = resp(OP_ACK, 0x11, 0x1f, ack_syn(), 2, 0);
	emit(s, ts += 2 * US, &k);
	json_t *e = expect(s, A_IP, B_IP, 0x22);
	set_int(e, "packets", sent);
	set_int(e, "psn_gaps", 1);
	set_int(e, "missing_psns", 1);
	set_int(e, "retransmissions", 16);
	set_int(e, "gbn_episodes", 1);
	set_int(e, "out_of_order", 0);
	set_int(sub(e, "naks"), "psn_seq", 1);
	set_int(e, "messages", 48);

	static const uint32_t order[] = {0xfffffe, 0x000000, 0xffffff, 0x000001};
	for (unsigned i = 0; i < 4; i++)
		k = req(OP_UC_SEND_ONLY, 0x33, order[i], 64), emit(s, ts += US, &k);
	e = expect(s, A_IP, B_IP, 0x33);
	set_int(e, "out_of_order", 1);
	set_int(e, "psn_gaps", 1);
	set_int(e, "missing_psns", 0);
	set_int(e, "retransmissions", 0);
	/* The UC responder took 0 and moved on: the late 0xFFFFFF is dropped. */
	set_int(e, "messages", 3);
}

/* One RC connection doing everything, one thing at a time: 5 WRITEs of 3
 * packets (1024 + 1024 + 500 bytes) and 4 SENDs of 100 bytes, each ACKed
 * 2 us after its last packet; 3 READs of 3000 bytes answered by 3 responses
 * (1024-byte MTU) whose last comes 10, 20 and 30 us after the request; 2
 * compare-and-swaps answered 4 and 6 us later; a WRITE that stops after its
 * MIDDLE (a SEND, ACKed, follows); a WRITE_LAST with no FIRST. */
static void sc_msgs(struct sc *s)
{
	uint64_t ts = T0;
	uint32_t psn = 0x100, msn = 0;
	struct pk k;
	uint64_t wbytes = 0, sbytes = 0, rbytes = 0;
	unsigned nw = 0, ns = 0, nr = 0, na = 0, acks = 0, rsp = 0;
	for (unsigned m = 0; m < 5; m++) {
		k = req(OP_WRITE_FIRST, 0x22, psn++, 1024), emit(s, ts += US, &k);
		k = req(OP_WRITE_MIDDLE, 0x22, psn++, 1024), emit(s, ts += US, &k);
		k = req(OP_WRITE_LAST, 0x22, psn, 500), emit(s, ts += US, &k);
		k = resp(OP_ACK, 0x11, psn++, ack_syn(), ++msn, 0), emit(s, ts += 2 * US, &k);
		wbytes += 2548, nw++, acks++;
	}
	for (unsigned m = 0; m < 4; m++) {
		k = req(OP_SEND_ONLY, 0x22, psn, 100), emit(s, ts += US, &k);
		k = resp(OP_ACK, 0x11, psn++, ack_syn(), ++msn, 0), emit(s, ts += 2 * US, &k);
		sbytes += 100, ns++, acks++;
	}
	static const uint64_t rlat[] = {10 * US, 20 * US, 30 * US};
	for (unsigned m = 0; m < 3; m++) {
		uint64_t t = ts += 5 * US;
		k = req(OP_READ_REQ, 0x22, psn, 3000), emit(s, t, &k);
		k = resp(OP_READ_FIRST, 0x11, psn, ack_syn(), msn, 1024), emit(s, t + rlat[m] - 2 * US, &k);
		k = resp(OP_READ_MIDDLE, 0x11, psn + 1, 0, 0, 1024), emit(s, t + rlat[m] - 1 * US, &k);
		k = resp(OP_READ_LAST, 0x11, psn + 2, ack_syn(), ++msn, 952), emit(s, t + rlat[m], &k);
		ts = t + rlat[m];
		psn += 3, rbytes += 3000, nr++, rsp += 3;
	}
	static const uint64_t alat[] = {4 * US, 6 * US};
	for (unsigned m = 0; m < 2; m++) {
		k = req(OP_CMP_SWAP, 0x22, psn, 0), emit(s, ts += US, &k);
		k = resp(OP_ATOMIC_ACK, 0x11, psn++, ack_syn(), ++msn, 0), emit(s, ts += alat[m], &k);
		na++, rsp++;
	}
	k = req(OP_WRITE_FIRST, 0x22, psn++, 1024), emit(s, ts += US, &k);
	k = req(OP_WRITE_MIDDLE, 0x22, psn++, 1024), emit(s, ts += US, &k);
	k = req(OP_SEND_ONLY, 0x22, psn, 100), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x11, psn++, ack_syn(), ++msn, 0), emit(s, ts += 2 * US, &k);
	sbytes += 100, ns++, acks++;
	k = req(OP_WRITE_LAST, 0x22, psn++, 200), emit(s, ts += US, &k);

	json_t *e = expect(s, A_IP, B_IP, 0x22);
	/* The requester's flow carries the WRITE, SEND and atomic messages; the
	 * READ data travels in the responder's flow. */
	set_int(e, "messages", nw + ns + na);
	json_t *mo = sub(e, "msgs_by_op"), *bo = sub(e, "bytes_by_op");
	set_int(mo, "send", ns);
	set_int(mo, "write", nw);
	set_int(mo, "read", nr);
	set_int(mo, "atomic", na);
	set_int(bo, "send", sbytes);
	set_int(bo, "write", wbytes);
	set_int(bo, "read", rbytes);
	set_int(e, "incomplete_messages", 1);
	set_int(e, "orphan_packets", 1);
	set_int(e, "psn_gaps", 0);
	set_int(e, "retransmissions", 0);
	set_int(e, "acks", acks);
	json_t *l = sub(e, "ack_latency_us");
	set_int(l, "count", acks);
	set_real(l, "p50", 2.0);
	set_real(l, "p99", 2.0);
	set_real(l, "max", 2.0);
	l = sub(e, "read_latency_us");
	set_int(l, "count", 3);
	set_quantile(l, "p50", 20.0); /* nearest rank: the 2nd of 3 */
	set_real(l, "p99", 30.0);
	set_real(l, "max", 30.0);
	l = sub(e, "atomic_latency_us");
	set_int(l, "count", 2);
	set_quantile(l, "p50", 4.0);
	set_real(l, "max", 6.0);
	json_t *b = expect(s, B_IP, A_IP, 0x11);
	set_int(b, "packets", acks + rsp);
	set_int(b, "messages", nr);
	json_object_set_new(b, "peer_of", json_integer(0x22)); /* paired with the requester */
}

/* ---- showcase: a mixed capture for the HTML report ------------------------ */

struct sflow {
	uint32_t qp, rqp, psn, msn;
	uint8_t dscp;
	double gap_us;       /* current inter-packet gap */
	double base_us;
	uint64_t next;       /* next send time, ns since T0 */
	uint64_t start, stop;
	unsigned since_ack;
	uint64_t last_cnp, prev;
	unsigned sent_new, resent;
};

static uint64_t rng = 12345;
static double frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* 30 ms of six RC flows writing 1 KiB packets at different rates. From 8
 * to 14 ms a switch marks 12% of the packets of flows 0-3 CE; the receiver
 * sends at most one CNP per flow per 50 us and a sender halves its rate on
 * each CNP, then recovers. Flow 1 loses 8 packets at 18 ms and goes back N;
 * flow 2 has 5 PSNs missing from the capture at 22 ms. PFC pauses
 * priority 3 from 4.5 to 5.5 ms (refreshed, then XON), and priority 4 from 12
 * to 24.5 ms: a storm. Flow 5 is on priority 4. */
/* One QP pair destroyed and made again with the same QP numbers: 10 SENDs
 * and their ACKs (PSN 1000..1009), 50 ms of silence, then the second
 * connection with its PSNs restarted at the same 1000. Two conversations of
 * two flows each, each pair paired within its conversation, and the restart
 * is neither a go-back-N nor a gap. */
static void sc_reuse(struct sc *s)
{
	uint64_t ts = T0;
	struct pk k;
	for (uint32_t c = 1; c <= 2; c++) {
		s->conv = c;
		for (uint32_t i = 0; i < 10; i++) {
			k = req(OP_SEND_ONLY, 0x22, 1000 + i, 256), emit(s, ts += 10 * US, &k);
			k = resp(OP_ACK, 0x11, 1000 + i, ack_syn(), i + 1, 0), emit(s, ts += 2 * US, &k);
		}
		json_t *e = expect(s, A_IP, B_IP, 0x22);
		set_int(e, "messages", 10);
		set_int(e, "acks", 10);
		set_int(e, "retransmissions", 0);
		set_int(e, "gbn_episodes", 0);
		set_int(e, "psn_gaps", 0);
		set_int(e, "msn_regressions", 0);
		set_int(e, "peer_of", 0x11);
		set_int(sub(e, "ack_latency_us"), "count", 10);
		set_int(expect(s, B_IP, A_IP, 0x11), "packets", 10);
		ts += 50 * MS;
	}
	s->conv = 0;
	set_int(s->top, "conversations_reused", 2);
}

/* A capture started in the middle of a conversation: it sees the MIDDLE
 * and LAST of a WRITE (PSN 500, 501) and the ACK of 501, SENDs 502..509 with
 * their ACKs, then the sender going back to 498 (sent before the capture
 * started: a resend, not a late packet) and on to 509. */
static void sc_midstart(struct sc *s)
{
	uint64_t ts = T0;
	struct pk k;
	k = req(OP_WRITE_MIDDLE, 0x22, 500, 1024), emit(s, ts += US, &k);
	k = req(OP_WRITE_LAST, 0x22, 501, 1024), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x11, 501, ack_syn(), 40, 0), emit(s, ts += 3 * US, &k);
	for (uint32_t p = 502; p < 510; p++)
		k = req(OP_SEND_ONLY, 0x22, p, 64), emit(s, ts += US, &k);
	/* the go-back resends what it sent before the capture as it was: the
	 * WRITE's FIRST and MIDDLE (498, 499), then 500 .. 509 again */
	for (uint32_t p = 498; p < 510; p++) {
		uint8_t op = p == 498 ? OP_WRITE_FIRST : p < 501 ? OP_WRITE_MIDDLE : p == 501 ? OP_WRITE_LAST
										   : OP_SEND_ONLY;
		k = req(op, 0x22, p, p < 502 ? 1024 : 64), emit(s, ts += US, &k);
	}
	k = resp(OP_ACK, 0x11, 509, ack_syn(), 50, 0), emit(s, ts += 3 * US, &k);
	json_t *e = expect(s, A_IP, B_IP, 0x22);
	json_object_set_new(e, "first_seen_mid_message", json_true());
	set_int(e, "messages_cut_by_capture_start", 1);
	set_int(e, "orphan_packets", 0);
	set_int(e, "incomplete_messages", 0);
	set_int(e, "unsynced_packets", 2);     /* 500, 501: before the first ACK */
	set_int(e, "precapture_resends", 2);   /* 498, 499 */
	set_int(e, "retransmissions", 12);     /* 498..509 */
	set_int(e, "gbn_episodes", 1);
	set_int(e, "out_of_order", 0);
	set_int(e, "messages", 8);             /* 502..509; 498-501 not taken twice */
	set_int(e, "peer_of", 0x11);
	json_object_set_new(sub(e, "pairing"), "how", json_string("ack"));
	set_int(sub(e, "ack_latency_us"), "count", 2);
}

/* Go-back-N and CNP conformance, each fault made on purpose on its own QP:
 * 0x31 a second NAK for the same hole; 0x32 a NAK naming an ACKed PSN and
 * an ACK going back; 0x33 a resend starting past the NAKed PSN; 0x34 a READ
 * re-issued at the original address; 0x35 CNPs 2 us apart (the minimum is
 * 4 us) and a CE mark never answered. */
static void sc_conform(struct sc *s)
{
	uint64_t ts = T0;
	struct pk k;
	/* 0x31 */
	for (uint32_t p = 1; p <= 5; p++)
		k = req(OP_SEND_ONLY, 0x31, p, 64), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x41, 3, nak_syn(RW_NAK_PSN_SEQ_ERROR), 2, 0), emit(s, ts += 5 * US, &k);
	k = resp(OP_ACK, 0x41, 3, nak_syn(RW_NAK_PSN_SEQ_ERROR), 2, 0), emit(s, ts += US, &k);
	for (uint32_t p = 3; p <= 5; p++)
		k = req(OP_SEND_ONLY, 0x31, p, 64), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x41, 5, ack_syn(), 5, 0), emit(s, ts += 3 * US, &k);
	json_t *v = sub(sub(expect(s, A_IP, B_IP, 0x31), "conformance"), "violations");
	set_int(sub(v, "dup_nak"), "count", 1);
	set_int(sub(v, "resend_wrong_start"), "count", 0);
	/* 0x32 */
	for (uint32_t p = 100; p <= 103; p++)
		k = req(OP_SEND_ONLY, 0x32, p, 64), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x42, 102, ack_syn(), 3, 0), emit(s, ts += 3 * US, &k);
	k = resp(OP_ACK, 0x42, 100, nak_syn(RW_NAK_PSN_SEQ_ERROR), 3, 0), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x42, 101, ack_syn(), 3, 0), emit(s, ts += US, &k);
	v = sub(sub(expect(s, A_IP, B_IP, 0x32), "conformance"), "violations");
	set_int(sub(v, "nak_wrong_psn"), "count", 1);
	set_int(sub(v, "ack_backwards"), "count", 1);
	/* 0x33 */
	for (uint32_t p = 200; p <= 205; p++)
		k = req(OP_SEND_ONLY, 0x33, p, 64), emit(s, ts += US, &k);
	k = resp(OP_ACK, 0x43, 202, nak_syn(RW_NAK_PSN_SEQ_ERROR), 2, 0), emit(s, ts += 3 * US, &k);
	for (uint32_t p = 203; p <= 205; p++)
		k = req(OP_SEND_ONLY, 0x33, p, 64), emit(s, ts += US, &k);
	v = sub(sub(expect(s, A_IP, B_IP, 0x33), "conformance"), "violations");
	set_int(sub(v, "resend_wrong_start"), "count", 1);
	set_int(sub(sub(expect(s, A_IP, B_IP, 0x33), "conformance"), "resends"), "nak", 1);
	/* 0x34: a 4 KiB READ in 1 KiB responses; two arrive, then the READ is
	 * re-issued at the right PSN but the original address (emit() writes
	 * every RETH with address 0x10000). */
	k = req(OP_READ_REQ, 0x34, 300, 4096), emit(s, ts += US, &k);
	k = resp(OP_READ_FIRST, 0x44, 300, ack_syn(), 1, 1024), emit(s, ts += 3 * US, &k);
	k = resp(OP_READ_MIDDLE, 0x44, 301, 0, 0, 1024), emit(s, ts += US, &k);
	k = req(OP_READ_REQ, 0x34, 302, 2048), emit(s, ts += 100 * US, &k);
	v = sub(sub(expect(s, A_IP, B_IP, 0x34), "conformance"), "violations");
	set_int(sub(v, "read_resume_wrong"), "count", 1);
	/* 0x35: CE at +1 us and +2 us, CNPs at +3 and +5 us; a CE mark at +40
	 * us with no CNP, the capture going on for 2 ms. */
	uint64_t t35 = ts + 10 * US;
	k = req(OP_SEND_ONLY, 0x35, 400, 64), k.ecn = RW_ECN_CE, emit(s, t35 + US, &k);
	k = req(OP_SEND_ONLY, 0x35, 401, 64), k.ecn = RW_ECN_CE, emit(s, t35 + 2 * US, &k);
	k = resp(OP_CNP, 0x45, 0, 0, 0, 0), emit(s, t35 + 3 * US, &k);
	k = resp(OP_CNP, 0x45, 0, 0, 0, 0), emit(s, t35 + 5 * US, &k);
	k = req(OP_SEND_ONLY, 0x35, 402, 64), k.ecn = RW_ECN_CE, emit(s, t35 + 40 * US, &k);
	k = req(OP_SEND_ONLY, 0x35, 403, 64), emit(s, t35 + 2 * MS, &k);
	v = sub(sub(expect(s, A_IP, B_IP, 0x35), "conformance"), "violations");
	set_int(sub(v, "cnp_too_often"), "count", 1);
	set_int(sub(v, "ce_without_cnp"), "count", 1);
}

static void sc_showcase(struct sc *s)
{
	struct sflow f[6];
	static const double base[6] = {6, 8, 10, 14, 18, 25};
	memset(f, 0, sizeof(f));
	for (unsigned i = 0; i < 6; i++) {
		f[i].qp = 0x100 + i;
		f[i].rqp = 0x200 + i;
		f[i].psn = (i * 0x123457u) & RW_PSN_MASK;
		if (i == 3)
			f[i].psn = 0xfffe00; /* wraps during the capture */
		f[i].dscp = i == 5 ? 32 : 26;
		f[i].base_us = f[i].gap_us = base[i];
		f[i].start = i == 4 ? 3 * MS : 0;
		f[i].stop = i == 4 ? 26 * MS : 30 * MS;
		f[i].next = f[i].start + i * 700;
	}
	/* PFC first (frames are sorted by time when written). */
	for (uint64_t t = 4500 * US; t < 5500 * US; t += 30 * US)
		pfc(s, T0 + t, 3, 0x2000);
	pfc(s, T0 + 5500 * US, 3, 0);
	for (uint64_t t = 12 * MS; t < 24500 * US; t += 200 * US)
		pfc(s, T0 + t, 4, 0xffff);
	unsigned lost2 = 0, gaps2 = 0;
	for (;;) {
		unsigned i = 6;
		for (unsigned j = 0; j < 6; j++)
			if (f[j].next < f[j].stop && (i == 6 || f[j].next < f[i].next))
				i = j;
		if (i == 6)
			break;
		struct sflow *q = &f[i];
		uint64_t t = q->next;
		/* Senders obey PFC: priority 3 (DSCP 26) is paused from 4.5 ms to
		 * the XON at 5.5 ms, priority 4 (flow 5) until 335.5 us after
		 * the last XOFF at 24.4 ms. */
		if (i != 5 && t >= 4500 * US && t < 5500 * US) {
			q->next = 5500 * US + 1000 * i;
			continue;
		}
		if (i == 5 && t >= 12 * MS && t < 24800 * US) {
			q->next = 24800 * US;
			continue;
		}
		struct pk k = req(OP_WRITE_ONLY, q->qp, q->psn, 1024);
		k.dscp = q->dscp;
		int congested = i < 4 && t >= 8 * MS && t < 14 * MS;
		if (congested && frand() < 0.12)
			k.ecn = RW_ECN_CE;
		if (i == 2 && t >= 22 * MS && gaps2 == 0) {
			/* 5 PSNs never reach the capture point. */
			q->psn = (q->psn + 5) & RW_PSN_MASK;
			lost2 += 5;
			gaps2++;
			k.psn = q->psn;
		}
		emit(s, T0 + t, &k);
		q->psn = (q->psn + 1) & RW_PSN_MASK;
		q->sent_new++;
		if (k.ecn == RW_ECN_CE && t - q->last_cnp >= 50 * US) {
			struct pk c = resp(OP_CNP, q->rqp, 0, 0, 0, 0);
			c.dscp = 48;
			c.ecn = RW_ECN_ECT0;
			emit(s, T0 + t + 4 * US, &c);
			q->last_cnp = t;
			q->gap_us *= 1.6; /* the reaction point cuts its rate */
		}
		if (++q->since_ack == 16) {
			struct pk a = resp(OP_ACK, q->rqp, (q->psn - 1) & RW_PSN_MASK, ack_syn(), ++q->msn, 0);
			a.dscp = q->dscp;
			emit(s, T0 + t + (uint64_t)(3000 + frand() * 3000), &a);
			q->since_ack = 0;
		}
		if (i == 1 && t >= 18 * MS && q->resent == 0) {
			/* Go back 8: a NAK, then the last 8 PSNs again. */
			uint32_t from = (q->psn - 8) & RW_PSN_MASK;
			struct pk n = resp(OP_ACK, q->rqp, from, nak_syn(RW_NAK_PSN_SEQ_ERROR), q->msn, 0);
			n.dscp = q->dscp;
			emit(s, T0 + t + 3 * US, &n);
			uint64_t rt = t + 6 * US;
			for (unsigned r = 0; r < 8; r++) {
				struct pk rk = req(OP_WRITE_ONLY, q->qp, (from + r) & RW_PSN_MASK, 1024);
				rk.dscp = q->dscp;
				emit(s, T0 + rt, &rk);
				rt += (uint64_t)(q->gap_us * US);
				q->resent++;
			}
			q->next = rt;
			continue;
		}
		/* Recovery towards the base rate with a time constant of about
		 * 1.5 ms (DCQCN-like, coarse). */
		if (q->gap_us > q->base_us) {
			double k = (double)(t - q->prev) / (1500.0 * US);
			q->gap_us = q->base_us + (q->gap_us - q->base_us) * (k < 1 ? 1 - k : 0);
		}
		q->prev = t;
		double jitter = 0.85 + 0.3 * frand();
		q->next = t + (uint64_t)(q->gap_us * jitter * US);
	}
	json_t *e = expect(s, A_IP, B_IP, 0x101);
	set_int(e, "retransmissions", f[1].resent);
	set_int(e, "gbn_episodes", 1);
	set_int(sub(e, "naks"), "psn_seq", 1);
	e = expect(s, A_IP, B_IP, 0x102);
	set_int(e, "psn_gaps", gaps2);
	set_int(e, "missing_psns", lost2);
	e = expect(s, A_IP, B_IP, 0x105);
	set_int(e, "priority", 4);
	set_int(sub(sub(s->top, "pfc"), "4"), "storms", 1);
	set_int(sub(sub(s->top, "pfc"), "3"), "storms", 0);
	for (unsigned i = 0; i < 6; i++) {
		e = expect(s, A_IP, B_IP, f[i].qp);
		set_int(e, "out_of_order", 0);
		if (i != 1)
			set_int(e, "retransmissions", 0);
	}
}

/* ---- main -------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(struct sc *);
	const char *what;
} scenarios[] = {
	{"gaps", sc_gaps, "PSNs never sent (gaps), and packets swapped in flight (reorder)"},
	{"dups", sc_dups, "duplicate packets: each a one-packet go-back"},
	{"gbn", sc_gbn, "go-back-N after a PSN sequence error NAK, seen at the sender and at the receiver"},
	{"naks", sc_naks, "every NAK kind: invalid request, remote access, remote operational, invalid RD, RNR, reserved, PSN sequence error"},
	{"rnr", sc_rnr, "an RNR NAK, the wait, the resend and the ACK"},
	{"cecnp", sc_cecnp, "ECN CE marks, the CNPs they cause, a CNP with no CE, ECT(1)"},
	{"pfc", sc_pfc, "PFC storm on priority 3, pause and XON on priority 5, 802.3x PAUSE, traffic sent while paused"},
	{"wrap", sc_wrap, "PSN wrap at 2^24: a gap and a go-back-N across it, a reorder across it"},
	{"msgs", sc_msgs, "WRITE/SEND/READ/atomic messages, ACK, READ and atomic latencies, incomplete and orphan messages"},
	{"reuse", sc_reuse, "one QP pair made twice with the same QP numbers, PSNs restarted: two conversations"},
	{"midstart", sc_midstart, "a capture that starts inside a WRITE, then a resend of PSNs sent before it started"},
	{"conform", sc_conform, "go-back-N and CNP conformance faults, one per QP"},
	{"showcase", sc_showcase, "30 ms of six flows with congestion, CNPs, go-back-N, a gap, PFC pauses and a storm"},
};

static int by_time(const void *a, const void *b)
{
	const struct frame *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

int main(int argc, char **argv)
{
	const char *name = NULL, *out = NULL, *truth = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			for (size_t k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++)
				printf("%s\t%s\n", scenarios[k].name, scenarios[k].what);
			return 0;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
			truth = argv[++i];
		} else if (argv[i][0] != '-' && !name) {
			name = argv[i];
		} else {
			fprintf(stderr, "usage: %s SCENARIO -o FILE.pcap [-t TRUTH.json] | --list\n", prog);
			return 2;
		}
	}
	if (!name || !out) {
		fprintf(stderr, "usage: %s SCENARIO -o FILE.pcap [-t TRUTH.json] | --list\n", prog);
		return 2;
	}
	size_t which = SIZE_MAX;
	for (size_t k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++)
		if (!strcmp(scenarios[k].name, name))
			which = k;
	if (which == SIZE_MAX) {
		fprintf(stderr, "%s: unknown scenario \"%s\" (see --list)\n", prog, name);
		return 2;
	}

	static struct sc s;
	for (size_t i = 0; i < sizeof(s.payload); i++)
		s.payload[i] = (uint8_t)(i * 7 + 1);
	s.top = json_object();
	scenarios[which].fn(&s);
	qsort(s.fr, s.n, sizeof(*s.fr), by_time);

	pcap_t *dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *d = dead ? pcap_dump_open(dead, out) : NULL;
	if (!d) {
		fprintf(stderr, "%s: %s: %s\n", prog, out, dead ? pcap_geterr(dead) : "no pcap handle");
		return 1;
	}
	uint64_t bytes = 0;
	for (size_t i = 0; i < s.n; i++) {
		struct pcap_pkthdr h;
		h.ts.tv_sec = (time_t)(s.fr[i].ts / 1000000000u);
		h.ts.tv_usec = (suseconds_t)(s.fr[i].ts % 1000000000u); /* nanoseconds */
		h.caplen = h.len = s.fr[i].len;
		pcap_dump((u_char *)d, &h, s.fr[i].data);
		bytes += s.fr[i].len;
		free(s.fr[i].data);
	}
	if (pcap_dump_flush(d) != 0) {
		fprintf(stderr, "%s: %s: write failed\n", prog, out);
		return 1;
	}
	pcap_dump_close(d);
	pcap_close(dead);

	if (truth) {
		json_t *doc = json_object();
		json_object_set_new(doc, "scenario", json_string(name));
		json_object_set_new(doc, "description", json_string(scenarios[which].what));
		set_int(s.top, "packets", s.n);
		set_int(s.top, "bytes", bytes);
		set_int(sub(s.top, "icrc"), "bad", 0);
		set_int(s.top, "decode_errors", 0);
		json_object_set_new(doc, "expect", s.top);
		json_t *qps = json_array();
		for (unsigned i = 0; i < s.nt; i++) {
			struct tally *t = &s.t[i];
			if (!t->expect)
				continue;
			char a[20], b[20];
			snprintf(a, sizeof(a), "%u.%u.%u.%u", t->src >> 24, t->src >> 16 & 255,
				 t->src >> 8 & 255, t->src & 255);
			snprintf(b, sizeof(b), "%u.%u.%u.%u", t->dst >> 24, t->dst >> 16 & 255,
				 t->dst >> 8 & 255, t->dst & 255);
			/* What was written, as written. */
			if (!json_object_get(t->expect, "packets"))
				set_int(t->expect, "packets", t->packets);
			set_int(t->expect, "bytes", t->bytes);
			json_t *ecn = sub(t->expect, "ecn");
			static const char *const ek[4] = {"not_ect", "ect1", "ect0", "ce"};
			for (unsigned c = 0; c < 4; c++)
				if (!json_object_get(ecn, ek[c]))
					set_int(ecn, ek[c], t->ecn[c]);
			set_int(t->expect, "conversation", t->conv);
			json_array_append_new(qps, json_pack("{s:s,s:s,s:i,s:i,s:o}", "src", a, "dst", b,
							     "dqpn", (int)t->dqpn, "conversation",
							     (int)t->conv, "expect", t->expect));
		}
		json_object_set_new(doc, "qps", qps);
		if (json_dump_file(doc, truth, JSON_INDENT(2)) != 0) {
			fprintf(stderr, "%s: %s: cannot write the truth\n", prog, truth);
			return 1;
		}
		json_decref(doc);
	}
	free(s.fr);
	return 0;
}
