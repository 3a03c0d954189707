/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-mktaps: two taps of the traffic of one capture, and what
 * happened between them. Every RoCE/IB packet of IN travels between tap A
 * (upstream) and tap B (downstream): the first direction seen between two
 * addresses goes A -> B, the answers (ACKs, READ responses) B -> A. At the first tap of its way a packet keeps IN's time; at
 * the second it arrives DELAY + jitter later, or never (dropped), maybe
 * twice (duplicated), maybe late enough to be overtaken (reordered), with
 * its TTL decremented, CE marked, its MACs rewritten (Ethernet frames, by
 * proto's rw_rewrite, ICRC kept right); frames injected into B; B's clock
 * shifted. Writes A and B (pcap, nanoseconds) and TRUTH, a JSON file of what
 * it did to each packet: the decisions are this program's own, so a test
 * can check rocewire-cap --between against them.
 *
 * usage: rocewire-mktaps IN OUT_A OUT_B TRUTH [--delay NS] [--jitter NS]
 *        [--shift NS] [--drop-every N] [--ce-every N] [--dup-every N]
 *        [--reorder-every N] [--inject N] [--seed S]
 * Packets whose identity (addresses, QP, PSN, opcode, ICRC) is repeated in
 * IN are delivered once each with the fixed delay only, and never dropped
 * or duplicated: which copy is which is then not for a test to guess. */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire.h"

#define MAXF 16384

struct in_pkt {
	int64_t t;
	uint32_t caplen, wirelen;
	uint8_t *data;
	int id_ok;              /* has an identity */
	uint8_t key[48];        /* src, dst, dqpn, psn, opcode, icrc */
	uint8_t src[17], dst[17];
	uint32_t dqpn, psn;
	uint8_t opcode;
	int unique;
};

struct out_pkt {
	int64_t t;
	int side;               /* 0 A, 1 B */
	uint32_t caplen, wirelen;
	uint8_t *data;
	long rec;               /* truth record, or -1 */
	int copy;               /* 0: first tap, 1: second tap (for frame numbers) */
	uint64_t frame;
	size_t seq;
};

struct truth {
	long in;                /* input packet */
	const char *fate;       /* matched, lost, only_in_b, only_in_a */
	int dir;                /* 0 a_to_b, 1 b_to_a */
	int64_t t_a, t_b;       /* true times (B's unshifted); -1 none */
	uint64_t frame_a, frame_b;
	int ce, ttl, ecn, mac;
	uint32_t psn_override;  /* injected: the PSN written */
	int injected;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int addrs(const struct rw_packet *p, uint8_t *s, uint8_t *d)
{
	memset(s, 0, 17);
	memset(d, 0, 17);
	if (p->present & RW_P_IPV4) {
		s[0] = d[0] = 4;
		for (int i = 0; i < 4; i++) {
			s[13 + i] = (uint8_t)(p->ipv4.src >> (24 - 8 * i));
			d[13 + i] = (uint8_t)(p->ipv4.dst >> (24 - 8 * i));
		}
	} else if (p->present & RW_P_IPV6) {
		s[0] = d[0] = 6;
		memcpy(s + 1, p->ipv6.src, 16);
		memcpy(d + 1, p->ipv6.dst, 16);
	} else if (p->present & RW_P_GRH) {
		s[0] = d[0] = 6;
		memcpy(s + 1, p->grh.sgid, 16);
		memcpy(d + 1, p->grh.dgid, 16);
	} else if (p->present & RW_P_LRH) {
		s[0] = d[0] = 1;
		s[15] = (uint8_t)(p->lrh.slid >> 8);
		s[16] = (uint8_t)p->lrh.slid;
		d[15] = (uint8_t)(p->lrh.dlid >> 8);
		d[16] = (uint8_t)p->lrh.dlid;
	} else {
		return 0;
	}
	return 1;
}

static void hexaddr(FILE *f, const uint8_t *a)
{
	for (int i = 0; i < 17; i++)
		fprintf(f, "%02x", a[i]);
}

static int out_cmp(const void *x, const void *y)
{
	const struct out_pkt *a = x, *b = y;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int64_t arg_num(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		fprintf(stderr, "rocewire-mktaps: %s needs a value\n", argv[*i]);
		exit(2);
	}
	return strtoll(argv[++*i], NULL, 0);
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
	return x < y ? -1 : x > y;
}

/* Frees the records and every frame buffer once: an output frame may share
 * its input's buffer, or another output's (a duplicate). */
static void free_all(struct in_pkt *ip, size_t n, struct out_pkt *op, size_t on)
{
	void **p = malloc((n + on) * sizeof(*p) + 1);
	size_t k = 0;
	for (size_t i = 0; p && i < n; i++)
		p[k++] = (void *)ip[i].data;
	for (size_t i = 0; p && i < on; i++)
		p[k++] = (void *)op[i].data;
	if (p) {
		qsort(p, k, sizeof(*p), ptr_cmp);
		for (size_t i = 0; i < k; i++)
			if (i == 0 || p[i] != p[i - 1])
				free(p[i]);
	}
	free(p);
	free(ip);
	free(op);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: rocewire-mktaps IN OUT_A OUT_B TRUTH [options]\n");
		return 2;
	}
	int64_t delay = 20000, jitter = 2000, shift = 0, reorder_ns = 0;
	int64_t drop_every = 7, ce_every = 5, dup_every = 11, reorder_every = 13, inject = 3;
	for (int i = 5; i < argc; i++) {
		if (!strcmp(argv[i], "--delay"))
			delay = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--jitter"))
			jitter = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--shift"))
			shift = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--drop-every"))
			drop_every = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--ce-every"))
			ce_every = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--dup-every"))
			dup_every = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--reorder-every"))
			reorder_every = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--inject"))
			inject = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--seed"))
			rng = (uint64_t)arg_num(argc, argv, &i) * 0x9e3779b97f4a7c15ull + 1;
		else {
			fprintf(stderr, "rocewire-mktaps: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (jitter < 1)
		jitter = 1;
	reorder_ns = 4 * (delay + jitter);

	char err[PCAP_ERRBUF_SIZE];
	pcap_t *in = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, err);
	if (!in) {
		fprintf(stderr, "rocewire-mktaps: %s\n", err);
		return 2;
	}
	int lt = pcap_datalink(in);
	size_t n = 0, cap = 1024;
	struct in_pkt *ip = malloc(cap * sizeof(*ip));
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc;
	while ((rc = pcap_next_ex(in, &h, &data)) == 1) {
		if (n == cap)
			ip = realloc(ip, (cap *= 2) * sizeof(*ip));
		struct in_pkt *q = &ip[n++];
		memset(q, 0, sizeof(*q));
		q->t = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec;
		q->caplen = h->caplen;
		q->wirelen = h->len;
		q->data = malloc(h->caplen + 64);
		memcpy(q->data, data, h->caplen);
		struct rw_packet p;
		struct rw_decode_cfg dc = {.no_icrc_check = 1};
		rw_packet_decode(&dc, lt, q->data, q->caplen, q->wirelen, &p);
		if ((p.present & RW_P_BTH) && (p.present & RW_P_ICRC) &&
		    (p.carrier == RW_CARRIER_ROCEV2 || p.carrier == RW_CARRIER_ROCEV1 || p.carrier == RW_CARRIER_IB) &&
		    addrs(&p, q->src, q->dst)) {
			q->id_ok = 1;
			q->dqpn = p.bth.dqpn;
			q->psn = p.bth.psn;
			q->opcode = p.bth.opcode;
			memcpy(q->key, q->src, 17);
			memcpy(q->key + 17, q->dst, 17);
			memcpy(q->key + 34, &q->dqpn, 4);
			memcpy(q->key + 38, &q->psn, 4);
			q->key[42] = q->opcode;
			memcpy(q->key + 43, &p.icrc_wire, 4);
		}
	}
	if (rc == -1) {
		fprintf(stderr, "rocewire-mktaps: %s\n", pcap_geterr(in));
		return 2;
	}
	pcap_close(in);
	/* repeated identities: O(n^2) is fine for the samples' sizes, and
	 * beyond MAXF packets every packet counts as unique */
	for (size_t i = 0; i < n; i++) {
		ip[i].unique = ip[i].id_ok;
		if (!ip[i].id_ok || n > MAXF)
			continue;
		for (size_t j = 0; j < n && ip[i].unique; j++)
			if (j != i && ip[j].id_ok && !memcmp(ip[i].key, ip[j].key, 47))
				ip[i].unique = 0;
	}
	/* each conversation's first direction goes A -> B, its answers B -> A */
	struct {
		uint8_t s[17], d[17];
		int dir;
	} pairs[4096];
	size_t npairs = 0;

	size_t on = 0, ocap = 3 * n + (size_t)inject + 16;
	struct out_pkt *op = calloc(ocap, sizeof(*op));
	struct truth *tr = calloc(2 * n + (size_t)inject + 16, sizeof(*tr));
	size_t tn = 0, k = 0;
	struct rw_rewrite_cache cache;
	memset(&cache, 0, sizeof(cache));
	int64_t injected = 0;
	for (size_t i = 0; i < n; i++) {
		struct in_pkt *q = &ip[i];
		if (!q->id_ok) { /* not compared: in A only */
			op[on] = (struct out_pkt){.t = q->t, .side = 0, .caplen = q->caplen, .wirelen = q->wirelen,
						    .data = q->data, .rec = -1, .seq = on};
			on++;
			continue;
		}
		int dir = -1; /* 1: B -> A */
		for (size_t j = 0; j < npairs && dir < 0; j++) {
			if (!memcmp(pairs[j].s, q->src, 17) && !memcmp(pairs[j].d, q->dst, 17))
				dir = pairs[j].dir;
			else if (!memcmp(pairs[j].s, q->dst, 17) && !memcmp(pairs[j].d, q->src, 17))
				dir = !pairs[j].dir;
		}
		if (dir < 0) {
			dir = 0;
			if (npairs < sizeof(pairs) / sizeof(pairs[0])) {
				memcpy(pairs[npairs].s, q->src, 17);
				memcpy(pairs[npairs].d, q->dst, 17);
				pairs[npairs++].dir = 0;
			}
		}
		int first = dir ? 1 : 0, second = !first;
		struct truth *t = &tr[tn];
		memset(t, 0, sizeof(*t));
		t->in = (long)i;
		t->dir = dir;
		k++;
		int drop = q->unique && drop_every && k % (uint64_t)drop_every == 0;
		int dup = q->unique && !drop && dup_every && k % (uint64_t)dup_every == 3;
		int ro = q->unique && !drop && reorder_every && k % (uint64_t)reorder_every == 5;
		int ce = !drop && ce_every && k % (uint64_t)ce_every == 1;
		int64_t t1 = q->t;
		int64_t t2 = t1 + delay + (q->unique ? (int64_t)(rnd() % (uint64_t)jitter) : 0) + (ro ? reorder_ns : 0);
		op[on] = (struct out_pkt){.t = t1, .side = first, .caplen = q->caplen, .wirelen = q->wirelen,
					    .data = q->data, .rec = (long)tn, .copy = 0, .seq = on};
			on++;
		if (dir) {
			t->t_b = t1;
			t->t_a = drop ? -1 : t2;
		} else {
			t->t_a = t1;
			t->t_b = drop ? -1 : t2;
		}
		t->fate = drop ? "lost" : "matched";
		tn++;
		if (drop)
			continue;
		/* the second tap's copy, rewritten on Ethernet */
		uint8_t *d2 = malloc(q->caplen + 64);
		memcpy(d2, q->data, q->caplen);
		size_t len2 = q->caplen;
		if (lt == RW_LINKTYPE_ETHERNET) {
			struct rw_packet p;
			struct rw_decode_cfg dc = {.no_icrc_check = 1};
			rw_packet_decode(&dc, lt, d2, len2, q->wirelen, &p);
			struct rw_rewrite rw;
			rw_rewrite_init(&rw);
			rw.set_src_mac = rw.set_dst_mac = 1;
			memcpy(rw.src_mac, (uint8_t[]){0x02, 0x5e, 0, 0, 0, 1}, 6);
			memcpy(rw.dst_mac, (uint8_t[]){0x02, 0x5e, 0, 0, 0, 2}, 6);
			int oldttl = (p.present & RW_P_IPV4) ? p.ipv4.ttl : (p.present & RW_P_IPV6) ? p.ipv6.hop_limit : -1;
			int oldecn = (p.present & RW_P_IPV4) ? p.ipv4.ecn : (p.present & RW_P_IPV6) ? p.ipv6.ecn : -1;
			if (oldttl > 0)
				rw.ttl = (int16_t)(oldttl - 1);
			if (ce && oldecn >= 0)
				rw.ecn = RW_ECN_CE;
			struct rw_rewrite_result res;
			memset(&res, 0, sizeof(res));
			if (rw_rewrite_apply(&rw, &cache, &p, d2, &len2, q->caplen + 64, &res) == RW_OK) {
				t->ttl = !!(res.applied & (1u << RW_RW_TTL));
				t->ecn = !!(res.applied & (1u << RW_RW_ECN));
				t->ce = t->ecn && oldecn != RW_ECN_CE;
				t->mac = !!(res.applied & (1u << RW_RW_MAC));
			} else {
				memcpy(d2, q->data, q->caplen);
				len2 = q->caplen;
			}
		}
		op[on] = (struct out_pkt){.t = t2, .side = second, .caplen = (uint32_t)len2,
					    .wirelen = q->wirelen + (uint32_t)len2 - q->caplen, .data = d2,
					    .rec = (long)(tn - 1), .copy = 1, .seq = on};
			on++;
		if (dup) {
			struct truth *u = &tr[tn];
			memset(u, 0, sizeof(*u));
			u->in = (long)i;
			u->dir = dir;
			u->fate = dir ? "only_in_a" : "only_in_b";
			u->t_a = dir ? t2 + 500 : -1;
			u->t_b = dir ? -1 : t2 + 500;
			op[on] = (struct out_pkt){.t = t2 + 500, .side = second, .caplen = (uint32_t)len2,
						    .wirelen = q->wirelen + (uint32_t)len2 - q->caplen, .data = d2,
						    .rec = (long)tn, .copy = 1, .seq = on};
			on++;
			tn++;
		}
		/* injected: a forward Ethernet packet's copy with another PSN, into B */
		if (injected < inject && !dir && q->unique && lt == RW_LINKTYPE_ETHERNET && k % 4 == 2) {
			uint8_t *d3 = malloc(q->caplen + 64);
			memcpy(d3, q->data, q->caplen);
			size_t len3 = q->caplen;
			struct rw_packet p;
			struct rw_decode_cfg dc = {.no_icrc_check = 1};
			rw_packet_decode(&dc, lt, d3, len3, q->wirelen, &p);
			struct rw_rewrite rw;
			rw_rewrite_init(&rw);
			rw.n_psn = 1;
			rw.psn[0] = (struct rw_rw_psnoff){.qpn = 0, .offset = 0x400000, .all = 1};
			struct rw_rewrite_result res;
			if (rw_rewrite_apply(&rw, NULL, &p, d3, &len3, q->caplen + 64, &res) == RW_OK) {
				struct truth *u = &tr[tn];
				memset(u, 0, sizeof(*u));
				u->in = (long)i;
				u->dir = 0;
				u->fate = "only_in_b";
				u->t_a = -1;
				u->t_b = t2 + 700;
				u->injected = 1;
				u->psn_override = (q->psn + 0x400000) & 0xFFFFFF;
				op[on] = (struct out_pkt){.t = t2 + 700, .side = 1, .caplen = (uint32_t)len3,
							    .wirelen = q->wirelen, .data = d3, .rec = (long)tn, .copy = 1,
							    .seq = on};
			on++;
				tn++;
				injected++;
			}
		}
	}
	qsort(op, on, sizeof(*op), out_cmp);
	pcap_t *dead = pcap_open_dead_with_tstamp_precision(lt, 262144, PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *dump[2];
	for (int s = 0; s < 2; s++) {
		dump[s] = pcap_dump_open(dead, argv[2 + s]);
		if (!dump[s]) {
			fprintf(stderr, "rocewire-mktaps: %s\n", pcap_geterr(dead));
			return 2;
		}
	}
	uint64_t frames[2] = {0, 0};
	for (size_t i = 0; i < on; i++) {
		struct out_pkt *o = &op[i];
		int64_t t = o->t + (o->side ? shift : 0);
		struct pcap_pkthdr ph = {.caplen = o->caplen, .len = o->wirelen};
		ph.ts.tv_sec = (time_t)(t / 1000000000);
		ph.ts.tv_usec = (suseconds_t)(t % 1000000000);
		pcap_dump((u_char *)dump[o->side], &ph, o->data);
		o->frame = ++frames[o->side];
		if (o->rec >= 0) {
			if (o->side)
				tr[o->rec].frame_b = o->frame;
			else
				tr[o->rec].frame_a = o->frame;
		}
	}
	pcap_dump_close(dump[0]);
	pcap_dump_close(dump[1]);
	pcap_close(dead);

	FILE *f = fopen(argv[4], "w");
	if (!f) {
		perror(argv[4]);
		return 2;
	}
	fprintf(f, "{\"delay_ns\": %" PRId64 ", \"jitter_ns\": %" PRId64 ", \"shift_ns\": %" PRId64
		   ", \"frames_a\": %" PRIu64 ", \"frames_b\": %" PRIu64 ", \"packets\": [\n",
		delay, jitter, shift, frames[0], frames[1]);
	for (size_t i = 0; i < tn; i++) {
		const struct truth *t = &tr[i];
		const struct in_pkt *q = &ip[t->in];
		fprintf(f, "%s{\"src\": \"", i ? ",\n" : "");
		hexaddr(f, q->src);
		fprintf(f, "\", \"dst\": \"");
		hexaddr(f, q->dst);
		fprintf(f, "\", \"dqpn\": %u, \"psn\": %u, \"opcode\": %u, \"dir\": \"%s\", \"fate\": \"%s\", "
			   "\"t_a\": %" PRId64 ", \"t_b\": %" PRId64 ", \"frame_a\": %" PRIu64 ", \"frame_b\": %" PRIu64
			   ", \"ce\": %d, \"ttl\": %d, \"ecn\": %d, \"mac\": %d, \"injected\": %d, \"unique\": %d}",
			q->dqpn, t->injected ? t->psn_override : q->psn, q->opcode, t->dir ? "b_to_a" : "a_to_b",
			t->fate, t->t_a, t->t_b, t->frame_a, t->frame_b, t->ce, t->ttl, t->ecn, t->mac, t->injected,
			q->unique);
	}
	fprintf(f, "\n]}\n");
	if (fclose(f) != 0) {
		perror(argv[4]);
		return 2;
	}
	free_all(ip, n, op, on);
	free(tr);
	return 0;
}
