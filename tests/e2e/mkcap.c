/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-mkcap: writes deterministic test captures of RoCE, InfiniBand and
 * PFC frames, every frame made by rw_packet_build().
 *
 * The captures feed the cross-checks against tshark and Scapy, the fuzzers'
 * seed corpora, the samples/ folder and the decode benchmark. The same
 * command line always writes the same bytes (fixed seed, fixed clock). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocewire.h"

#define MAX_FRAME 9216
#define MAX_PAYLOAD 4096
#define MIX_QPS 16

/* The carriers a transport packet can ride on. */
enum variant {
	V_V2,           /* RoCEv2 over IPv4 */
	V_V2_VLAN,      /* RoCEv2 over IPv4, one 802.1Q tag */
	V_V2_QINQ,      /* RoCEv2 over IPv4, 802.1ad S-tag + 802.1Q C-tag */
	V_V2_OPTS,      /* RoCEv2 over IPv4 with IP options */
	V_V2_IPV6,      /* RoCEv2 over IPv6 */
	V_V2_IPV6_VLAN, /* RoCEv2 over IPv6, one 802.1Q tag */
	V_V1,           /* RoCEv1: Ethernet + GRH */
	V_V1_VLAN,      /* RoCEv1 with an 802.1Q tag */
	V_IB,           /* native IB, LRH only (LNH 2) */
	V_IB_GRH,       /* native IB, LRH + GRH (LNH 3) */
	V_COUNT
};

static const struct {
	const char *name;
	enum rw_carrier carrier;
	int ib;       /* native IB: needs link type 247 or ERF */
	int n_vlan;
	const char *what;
} variants[V_COUNT] = {
	[V_V2] = {"v2", RW_CARRIER_ROCEV2, 0, 0, "RoCEv2 over IPv4"},
	[V_V2_VLAN] = {"v2-vlan", RW_CARRIER_ROCEV2, 0, 1, "RoCEv2 over IPv4 with an 802.1Q tag"},
	[V_V2_QINQ] = {"v2-qinq", RW_CARRIER_ROCEV2, 0, 2, "RoCEv2 over IPv4 with 802.1ad+802.1Q tags"},
	[V_V2_OPTS] = {"v2-opts", RW_CARRIER_ROCEV2, 0, 0, "RoCEv2 over IPv4 with IP options"},
	[V_V2_IPV6] = {"v2-ipv6", RW_CARRIER_ROCEV2, 0, 0, "RoCEv2 over IPv6"},
	[V_V2_IPV6_VLAN] = {"v2-ipv6-vlan", RW_CARRIER_ROCEV2, 0, 1, "RoCEv2 over IPv6 with an 802.1Q tag"},
	[V_V1] = {"v1", RW_CARRIER_ROCEV1, 0, 0, "RoCEv1 (Ethernet + GRH)"},
	[V_V1_VLAN] = {"v1-vlan", RW_CARRIER_ROCEV1, 0, 1, "RoCEv1 with an 802.1Q tag"},
	[V_IB] = {"ib", RW_CARRIER_IB, 1, 0, "native InfiniBand, LRH only"},
	[V_IB_GRH] = {"ib-grh", RW_CARRIER_IB, 1, 0, "native InfiniBand, LRH + GRH"},
};

enum mode { M_NONE, M_ALL_OPCODES, M_MIX, M_PFC, M_BAD, M_CONNECTIONS };

struct opts {
	enum mode mode;
	unsigned long mix_count;
	const char *out;
	int linktype;
	uint64_t seed;
	unsigned carriers;   /* bit per enum variant; 0 = default for the link type */
	unsigned max_payload;
	unsigned long connections; /* --connections */
	unsigned host_pairs, rounds;
};

struct gen {
	const struct opts *o;
	pcap_t *dead;
	pcap_dumper_t *dumper;
	uint64_t rng;
	uint64_t t_ns;       /* capture clock */
	unsigned long frames;
	uint32_t psn[V_COUNT];
	uint32_t mix_psn[MIX_QPS];
	unsigned qpn_i, pkey_i, size_i, syn_i, ecn_i;
	uint8_t payload[MAX_PAYLOAD];
	uint8_t frame[MAX_FRAME];
};

static const char *prog = "rocewire-mkcap";

/* splitmix64: small, fast and the same everywhere. */
static uint64_t rnd(struct gen *g)
{
	uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t rnd32(struct gen *g)
{
	return (uint32_t)(rnd(g) >> 32);
}

static unsigned rnd_below(struct gen *g, unsigned n)
{
	return (unsigned)(rnd(g) % n);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s MODE [-o FILE] [--linktype LT] [options]\n"
		"Writes a deterministic pcap of frames built by librocewire.\n"
		"\n"
		"modes (exactly one):\n"
		"  --all-opcodes   every valid opcode of the table (RC, UC, RD, UD, XRC, CNP) on every\n"
		"                  carrier of the link type, with varied QPNs, PSNs (wrapping at 2^24),\n"
		"                  P_Keys, extension header values, AETH syndromes (ACK credits, RNR\n"
		"                  NAK timers, every NAK code), ECN marks and payloads of 0..4096 bytes\n"
		"                  with every pad count\n"
		"  --mix N         N frames of a realistic RoCEv2 mix (about 60%% 1-4 KiB data, 30%% ACKs\n"
		"                  and small packets, CNPs, PFC frames), for benchmarks\n"
		"  --pfc           IEEE 802.1Qbb PFC and 802.3x PAUSE frames\n"
		"  --bad           good frames mixed with bad ICRCs, snaplen-truncated frames and\n"
		"                  malformed headers\n"
		"  --connections N N RC connections (RoCEv2 over IPv4) spread over --host-pairs,\n"
		"                  each with its own QPNs and a random initial PSN; each of\n"
		"                  --rounds rounds is one RDMA WRITE ONLY (64 bytes) and its ACK,\n"
		"                  connection after connection, the ACK a few microseconds\n"
		"                  later with other connections' packets in between: 2N flows,\n"
		"                  2N x rounds packets, for scale benchmarks\n"
		"\n"
		"options:\n"
		"  -o FILE         output file (default: standard output)\n"
		"  --linktype LT   1|ethernet (default), 247|infiniband, 197|erf, 113|sll, 276|sll2\n"
		"  --carriers LIST comma-separated carriers to use (default: all the link type allows):\n"
		"                  v2, v2-vlan, v2-qinq, v2-opts, v2-ipv6, v2-ipv6-vlan, v1, v1-vlan,\n"
		"                  ib, ib-grh (ib and ib-grh need link type 247 or 197)\n"
		"  --max-payload N cap payload sizes at N bytes (default 4096), for small samples\n"
		"  --host-pairs H  --connections: requester/responder host pairs (default 8):\n"
		"                  pair h is 10.X.Y.1 -> 10.X.Y.2, X.Y = h\n"
		"  --rounds R      --connections: WRITE/ACK rounds per connection (default 2)\n"
		"  --seed S        seed of the pseudo-random values (default 1)\n"
		"  -h, --help      this text\n",
		prog);
}

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static int parse_linktype(const char *s)
{
	static const struct {
		const char *name;
		int lt;
	} names[] = {
		{"ethernet", RW_LINKTYPE_ETHERNET}, {"eth", RW_LINKTYPE_ETHERNET},
		{"infiniband", RW_LINKTYPE_INFINIBAND}, {"ib", RW_LINKTYPE_INFINIBAND},
		{"erf", RW_LINKTYPE_ERF}, {"sll", RW_LINKTYPE_LINUX_SLL},
		{"sll2", RW_LINKTYPE_LINUX_SLL2},
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0)
			return names[i].lt;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s)
		die("--linktype: expected a number or ethernet|infiniband|erf|sll|sll2, got \"%s\"", s);
	switch (v) {
	case RW_LINKTYPE_ETHERNET:
	case RW_LINKTYPE_INFINIBAND:
	case RW_LINKTYPE_ERF:
	case RW_LINKTYPE_LINUX_SLL:
	case RW_LINKTYPE_LINUX_SLL2:
		return (int)v;
	default:
		die("--linktype: %s is not one of 1, 113, 197, 247, 276", s);
	}
	return -1;
}

static unsigned long parse_ulong(const char *opt, const char *s, unsigned long max)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || *end || end == s || s[0] == '-' || v > max) {
		fprintf(stderr, "%s: %s: expected a number from 0 to %lu, got \"%s\"\n", prog, opt, max, s);
		exit(2);
	}
	return v;
}

static unsigned parse_carriers(const char *list)
{
	unsigned mask = 0;
	char buf[256];
	if (strlen(list) >= sizeof buf)
		die("--carriers: list too long: \"%s\"", list);
	strcpy(buf, list);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = 0;
		for (int v = 0; v < V_COUNT; v++)
			if (strcmp(tok, variants[v].name) == 0) {
				mask |= 1u << v;
				found = 1;
			}
		if (!found)
			die("--carriers: unknown carrier \"%s\" (see --help)", tok);
	}
	return mask;
}

/* Which carriers a link type can hold. */
static int variant_fits(enum variant v, int linktype)
{
	switch (linktype) {
	case RW_LINKTYPE_ETHERNET:
		return !variants[v].ib;
	case RW_LINKTYPE_INFINIBAND:
		return variants[v].ib;
	case RW_LINKTYPE_ERF:
		return 1;
	case RW_LINKTYPE_LINUX_SLL:
	case RW_LINKTYPE_LINUX_SLL2:
		/* A cooked header replaces the Ethernet header and its tags. */
		return !variants[v].ib && variants[v].n_vlan == 0;
	}
	return 0;
}

static const char *linktype_name(int lt)
{
	switch (lt) {
	case RW_LINKTYPE_ETHERNET:
		return "ethernet";
	case RW_LINKTYPE_INFINIBAND:
		return "infiniband";
	case RW_LINKTYPE_ERF:
		return "erf";
	case RW_LINKTYPE_LINUX_SLL:
		return "sll";
	case RW_LINKTYPE_LINUX_SLL2:
		return "sll2";
	}
	return "?";
}

static void out_open(struct gen *g)
{
	g->dead = pcap_open_dead_with_tstamp_precision(g->o->linktype, 65535, PCAP_TSTAMP_PRECISION_MICRO);
	if (!g->dead) {
		fprintf(stderr, "%s: cannot create a pcap handle for link type %d\n", prog, g->o->linktype);
		exit(1);
	}
	g->dumper = pcap_dump_open(g->dead, g->o->out);
	if (!g->dumper) {
		/* libpcap's message names the file already. */
		fprintf(stderr, "%s: cannot write the capture: %s\n", prog, pcap_geterr(g->dead));
		exit(1);
	}
}

static void out_close(struct gen *g)
{
	if (pcap_dump_flush(g->dumper) != 0) {
		fprintf(stderr, "%s: %s: write failed\n", prog, g->o->out);
		exit(1);
	}
	pcap_dump_close(g->dumper);
	pcap_close(g->dead);
}

static const uint8_t mac_a[6] = {0xb8, 0xce, 0xf6, 0x10, 0x00, 0x01};
static const uint8_t mac_b[6] = {0xb8, 0xce, 0xf6, 0x10, 0x00, 0x02};
static const uint8_t mac_pause[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
/* 2001:db8::a / 2001:db8::b (documentation prefix, RFC 3849) */
static const uint8_t ip6_a[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a};
static const uint8_t ip6_b[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b};
/* Link-local GIDs built from the MACs, as RoCEv1 and IB ports have. */
static const uint8_t gid_a[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0xba, 0xce, 0xf6, 0xff, 0xfe, 0x10, 0x00, 0x01};
static const uint8_t gid_b[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0xba, 0xce, 0xf6, 0xff, 0xfe, 0x10, 0x00, 0x02};
/* IPv4 options: Router Alert (RFC 2113), then a NOP and an EOL to make 8 bytes. */
static const uint8_t ip_opts_ra[8] = {0x94, 0x04, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00};

static const uint32_t qpns[] = {0x000011, 0x0001a4, 0x00abcd, 0x123456, 0x7fffff, 0x800000,
				0xfffffe, 0x000002, 0x4c0d2e};
static const uint16_t pkeys[] = {0xffff, 0x8001, 0x7fff, 0x1234, 0x8000, 0xfffe};
/* Payload sizes of Only/Last packets: every pad count, small and large. */
static const uint16_t sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 13, 30, 63, 255, 256, 257, 1022,
				 1023, 1024, 1025, 2049, 4093, 4094, 4095, 4096};

/* Fills the carrier headers of one variant; the transport is set separately. */
static void set_carrier(struct gen *g, struct rw_packet *p, enum variant v, int a_to_b)
{
	const uint8_t *sm = a_to_b ? mac_a : mac_b, *dm = a_to_b ? mac_b : mac_a;
	p->carrier = variants[v].carrier;
	if (variants[v].ib) {
		p->present = RW_P_LRH | RW_P_BTH;
		p->lrh.vl = (uint8_t)rnd_below(g, 8);
		p->lrh.lver = 0;
		p->lrh.sl = p->lrh.vl;
		p->lrh.lnh = v == V_IB_GRH ? RW_LNH_IBA_GLOBAL : RW_LNH_IBA_LOCAL;
		p->lrh.dlid = a_to_b ? 0x0012 : 0x0003;
		p->lrh.slid = a_to_b ? 0x0003 : 0x0012;
		if (v == V_IB_GRH)
			p->present |= RW_P_GRH;
	} else {
		p->present = RW_P_ETH | RW_P_BTH;
		memcpy(p->eth.dst, dm, 6);
		memcpy(p->eth.src, sm, 6);
		uint16_t inner;
		if (v == V_V1 || v == V_V1_VLAN) {
			inner = RW_ETHERTYPE_ROCEV1;
			p->present |= RW_P_GRH;
		} else if (v == V_V2_IPV6 || v == V_V2_IPV6_VLAN) {
			inner = RW_ETHERTYPE_IPV6;
			p->present |= RW_P_IPV6 | RW_P_UDP;
		} else {
			inner = RW_ETHERTYPE_IPV4;
			p->present |= RW_P_IPV4 | RW_P_UDP;
		}
		p->n_vlan = (uint8_t)variants[v].n_vlan;
		if (p->n_vlan == 2) {
			p->vlan[0] = (struct rw_vlan){.tpid = RW_ETHERTYPE_QINQ, .pcp = 5, .dei = 0,
						      .vid = 0x0fa0, .ethertype = RW_ETHERTYPE_VLAN};
			p->vlan[1] = (struct rw_vlan){.tpid = RW_ETHERTYPE_VLAN,
						      .pcp = (uint8_t)rnd_below(g, 8), .dei = 0,
						      .vid = (uint16_t)(1 + rnd_below(g, 4094)),
						      .ethertype = inner};
			p->eth.ethertype = RW_ETHERTYPE_QINQ;
		} else if (p->n_vlan == 1) {
			p->vlan[0] = (struct rw_vlan){.tpid = RW_ETHERTYPE_VLAN,
						      .pcp = (uint8_t)rnd_below(g, 8),
						      .dei = (uint8_t)(rnd_below(g, 8) == 0),
						      .vid = (uint16_t)(1 + rnd_below(g, 4094)),
						      .ethertype = inner};
			p->eth.ethertype = RW_ETHERTYPE_VLAN;
		} else {
			p->eth.ethertype = inner;
		}
		/* RoCE marks: DSCP 26 (data), 48 (CNP), 0, 46, with every ECN codepoint. */
		static const uint8_t dscps[] = {26, 0, 46, 24, 48};
		uint8_t dscp = dscps[rnd_below(g, sizeof dscps)];
		uint8_t ecn = (uint8_t)(g->ecn_i++ % 4);
		if (p->present & RW_P_IPV4) {
			p->ipv4.dscp = dscp;
			p->ipv4.ecn = ecn;
			p->ipv4.id = (uint16_t)rnd32(g);
			p->ipv4.flags = RW_IPV4_DF;
			p->ipv4.ttl = 64;
			p->ipv4.protocol = RW_IPPROTO_UDP;
			p->ipv4.src = a_to_b ? 0xc0a8640au : 0xc0a8640bu; /* 192.168.100.10/11 */
			p->ipv4.dst = a_to_b ? 0xc0a8640bu : 0xc0a8640au;
			if (v == V_V2_OPTS) {
				p->ipv4.options = ip_opts_ra;
				p->ipv4.options_len = (uint8_t)(rnd_below(g, 2) ? 8 : 4);
			}
		} else if (p->present & RW_P_IPV6) {
			p->ipv6.dscp = dscp;
			p->ipv6.ecn = ecn;
			p->ipv6.flow_label = rnd32(g) & 0xfffffu;
			p->ipv6.next_header = RW_IPPROTO_UDP;
			p->ipv6.hop_limit = 64;
			memcpy(p->ipv6.src, a_to_b ? ip6_a : ip6_b, 16);
			memcpy(p->ipv6.dst, a_to_b ? ip6_b : ip6_a, 16);
		}
		if (p->present & RW_P_UDP) {
			/* Source port: flow entropy, in the range rxe and mlx5 use. */
			p->udp.sport = (uint16_t)(0xc000 | (rnd32(g) & 0x3fff));
			p->udp.dport = RW_ROCEV2_PORT;
		}
	}
	if (p->present & RW_P_GRH) {
		p->grh.ipver = 6;
		p->grh.tclass = (uint8_t)(rnd32(g) & 0xff);
		p->grh.flow_label = rnd32(g) & 0xfffffu;
		p->grh.nxthdr = RW_GRH_NXTHDR_IBA;
		p->grh.hoplmt = (uint8_t)(v == V_IB_GRH ? 255 : 64);
		memcpy(p->grh.sgid, a_to_b ? gid_a : gid_b, 16);
		memcpy(p->grh.dgid, a_to_b ? gid_b : gid_a, 16);
	}
}

static uint8_t next_syndrome(struct gen *g)
{
	/* ACK credits 0..31, RNR NAK timers 0..31, NAK codes 0..4: 69 values. */
	unsigned i = g->syn_i++ % 69;
	if (i < 32)
		return rw_aeth_syndrome(RW_AETH_ACK, (uint8_t)i);
	if (i < 64)
		return rw_aeth_syndrome(RW_AETH_RNR_NAK, (uint8_t)(i - 32));
	return rw_aeth_syndrome(RW_AETH_NAK, (uint8_t)(i - 64));
}

/* Fills BTH, extension headers and payload for an opcode. syndrome < 0 picks
 * the next of the rotation. */
static void set_transport(struct gen *g, struct rw_packet *p, enum variant v, uint8_t opcode,
			  int syndrome, unsigned payload_len)
{
	const struct rw_opcode_info *op = rw_opcode(opcode);
	p->bth.opcode = opcode;
	p->bth.se = (uint8_t)((op->flags & RW_OPF_LAST) && (op->flags & RW_OPF_REQUEST) ?
				      rnd_below(g, 2) : 0);
	p->bth.m = (uint8_t)rnd_below(g, 2);
	p->bth.tver = 0;
	p->bth.pkey = pkeys[g->pkey_i++ % (sizeof pkeys / sizeof pkeys[0])];
	p->bth.dqpn = qpns[g->qpn_i++ % (sizeof qpns / sizeof qpns[0])];
	p->bth.ackreq = (uint8_t)((op->flags & RW_OPF_REQUEST) ? rnd_below(g, 2) : 0);
	p->bth.psn = g->psn[v];
	g->psn[v] = (g->psn[v] + 1) & RW_PSN_MASK;
	if (op->transport == RW_TRANSPORT_CNP) {
		/* IBA A17.9.3: BECN set, P_Key and PSN as the NIC sends them. */
		p->bth.becn = 1;
		p->bth.fecn = 0;
		p->bth.pkey = 0xffff;
		p->bth.psn = 0;
		p->bth.se = p->bth.m = p->bth.ackreq = 0;
	} else if (p->carrier != RW_CARRIER_IB) {
		p->bth.fecn = (uint8_t)(rnd_below(g, 5) == 0);
		p->bth.becn = (uint8_t)(rnd_below(g, 7) == 0);
	}
	if (op->hdrs & RW_HDR_RDETH)
		p->rdeth.een = rnd32(g) & 0xffffffu;
	if (op->hdrs & RW_HDR_DETH) {
		p->deth.qkey = rnd_below(g, 3) == 0 ? 0x80010000u : rnd32(g);
		/* Never QP0/QP1 (SMI/GSI): what they send is a MAD, and these
		 * payloads are not MADs. */
		p->deth.sqpn = 2u + rnd32(g) % 0xfffffdu;
	}
	if (op->hdrs & RW_HDR_XRCETH)
		p->xrceth.xrcsrq = rnd32(g) & 0xffffffu;
	if (op->hdrs & RW_HDR_FETH) {
		p->feth.sel = (uint8_t)rnd_below(g, 4);
		p->feth.plt = (uint8_t)rnd_below(g, 3); /* IBA 1.5: placement types 0..2 */
	}
	if (op->hdrs & RW_HDR_RETH) {
		p->reth.va = rnd(g);
		p->reth.rkey = rnd32(g);
		p->reth.dmalen = payload_len + (op->flags & RW_OPF_LAST ? 0u : rnd32(g) % (1u << 20));
	}
	if (op->hdrs & RW_HDR_ATOMICETH) {
		p->atomiceth.va = rnd(g) & ~7ull; /* atomics are 8-byte aligned */
		p->atomiceth.rkey = rnd32(g);
		p->atomiceth.swap_add = rnd(g);
		p->atomiceth.compare = rnd(g);
	}
	if (op->hdrs & RW_HDR_AETH) {
		p->aeth.syndrome = syndrome >= 0 ? (uint8_t)syndrome : next_syndrome(g);
		p->aeth.msn = rnd32(g) & 0xffffffu;
	}
	if (op->hdrs & RW_HDR_ATOMICACKETH)
		p->atomicacketh.orig = rnd(g);
	if (op->hdrs & RW_HDR_IMMDT)
		p->immdt = rnd32(g);
	if (op->hdrs & RW_HDR_IETH)
		p->ieth = rnd32(g);
	if (op->flags & RW_OPF_PAYLOAD) {
		p->payload = g->payload;
		p->payload_len = payload_len;
	} else {
		p->payload = NULL;
		p->payload_len = 0;
	}
}

enum cut { CUT_NONE, CUT_PAYLOAD, CUT_BTH };

/* Writes one frame. A cut keeps the frame's wire length but captures only up
 * to the middle of its payload or its BTH; where those are is asked of the
 * decoder, so no header length is known here. */
static void emit(struct gen *g, struct rw_packet *p, unsigned flags, enum cut cut, uint64_t gap_ns)
{
	static struct rw_packet d;
	size_t caplen_cut = 0;
	size_t len = 0;
	int lt = g->o->linktype;
	if (lt == RW_LINKTYPE_ERF) {
		p->present |= RW_P_ERF;
		p->erf.type = p->carrier == RW_CARRIER_IB ? RW_ERF_TYPE_INFINIBAND : RW_ERF_TYPE_ETH;
		p->erf.flags = 0x04; /* varying-length record, interface 0 */
		/* ERF time: 32.32 fixed-point seconds. */
		p->erf.ts = (g->t_ns / 1000000000u) << 32 |
			    (((g->t_ns % 1000000000u) << 32) / 1000000000u);
	} else if (lt == RW_LINKTYPE_LINUX_SLL || lt == RW_LINKTYPE_LINUX_SLL2) {
		p->present |= lt == RW_LINKTYPE_LINUX_SLL ? RW_P_SLL : RW_P_SLL2;
		p->sll.pkttype = 0; /* to us */
		p->sll.hatype = 1;  /* ARPHRD_ETHER */
		p->sll.addr_len = 6;
		memset(p->sll.addr, 0, sizeof p->sll.addr);
		memcpy(p->sll.addr, p->eth.src, 6);
		p->sll.protocol = p->n_vlan ? p->vlan[p->n_vlan - 1].ethertype : p->eth.ethertype;
		p->sll.ifindex = 3;
	}
	enum rw_err e = rw_packet_build(p, lt, flags, g->frame, sizeof g->frame, &len);
	if (e != RW_OK) {
		fprintf(stderr, "%s: %s: frame %lu (opcode 0x%02x, carrier %s): rw_packet_build failed: %s\n",
			prog, g->o->out, g->frames + 1, p->bth.opcode, rw_carrier_name(p->carrier),
			rw_strerror(e));
		exit(1);
	}
	if (cut != CUT_NONE) {
		rw_packet_decode(NULL, lt, g->frame, len, len, &d);
		if (!(d.present & RW_P_BTH)) {
			fprintf(stderr, "%s: %s: frame %lu: cannot find the BTH of a built frame to cut it\n",
				prog, g->o->out, g->frames + 1);
			exit(1);
		}
		caplen_cut = cut == CUT_BTH ? d.bth_off + 6u : d.payload_off + d.payload_len / 2u;
	}
	struct pcap_pkthdr h;
	h.ts.tv_sec = (time_t)(g->t_ns / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(g->t_ns % 1000000000u / 1000u);
	h.len = (bpf_u_int32)len;
	h.caplen = (bpf_u_int32)(caplen_cut && caplen_cut < len ? caplen_cut : len);
	pcap_dump((u_char *)g->dumper, &h, g->frame);
	g->frames++;
	g->t_ns += gap_ns ? gap_ns : 1000u;
}

static void init_packet(struct rw_packet *p)
{
	memset(p, 0, sizeof *p);
}

static unsigned pick_size(struct gen *g, const struct rw_opcode_info *op)
{
	unsigned max = g->o->max_payload, s;
	if (!(op->flags & RW_OPF_PAYLOAD))
		return 0;
	if ((op->flags & (RW_OPF_FIRST | RW_OPF_LAST)) == RW_OPF_FIRST ||
	    (op->flags & RW_OPF_MIDDLE)) {
		/* First and Middle packets carry a full path MTU (IBA 9.7.2). */
		static const uint16_t mtus[] = {256, 512, 1024, 2048, 4096};
		s = mtus[rnd_below(g, sizeof mtus / sizeof mtus[0])];
		while (s > max && s > 4)
			s /= 2;
		if (s > max)
			s = max & ~3u;
		return s;
	}
	s = sizes[g->size_i++ % (sizeof sizes / sizeof sizes[0])];
	if (s > max) {
		/* The largest size under the cap with the same pad count. */
		unsigned m = s % 4;
		s = max >= m ? max - (max + 4 - m) % 4 : max;
	}
	return s;
}

static void gen_all_opcodes(struct gen *g, unsigned vmask)
{
	struct rw_packet p;
	for (int v = 0; v < V_COUNT; v++) {
		if (!(vmask & (1u << v)))
			continue;
		for (unsigned opc = 0; opc < 256; opc++) {
			const struct rw_opcode_info *op = rw_opcode((uint8_t)opc);
			if (!(op->flags & RW_OPF_VALID))
				continue;
			/* RoCEv2 CNP (IBA A17.9.3) exists only over UDP/IP. */
			if (op->transport == RW_TRANSPORT_CNP && variants[v].carrier != RW_CARRIER_ROCEV2)
				continue;
			/* Last/Only packets with payload twice, so that the size rotation
			 * (every pad count) goes round faster. */
			unsigned reps = 1;
			if ((op->flags & RW_OPF_PAYLOAD) && (op->flags & RW_OPF_LAST))
				reps = 2;
			/* The first carrier of the file shows every AETH syndrome on
			 * the plain ACK opcodes. */
			int all_syn = (op->hdrs & RW_HDR_AETH) && op->op == RW_OP_ACK &&
				      !(op->flags & RW_OPF_PAYLOAD) && v == __builtin_ctz(vmask);
			if (all_syn)
				reps = 69;
			for (unsigned r = 0; r < reps; r++) {
				init_packet(&p);
				set_carrier(g, &p, (enum variant)v, !(op->flags & RW_OPF_RESPONSE));
				set_transport(g, &p, (enum variant)v, (uint8_t)opc, -1, pick_size(g, op));
				emit(g, &p, 0, 0, 0);
			}
		}
	}
}

/* A realistic RoCEv2 mix for benchmarks: 16 RC connections doing WRITE,
 * SEND, READ and atomics with their ACKs and responses, UD traffic, CNPs
 * and PFC frames. Sizes and proportions are realistic; the message structure
 * (First/Middle/Last order) is not followed. */
static void gen_mix(struct gen *g, unsigned long n, unsigned vmask)
{
	struct rw_packet p;
	/* Which carriers the mix uses: the v2 ones allowed by the link type. */
	enum variant vs[V_COUNT];
	int nv = 0;
	for (int v = 0; v < V_COUNT; v++)
		if ((vmask & (1u << v)) && variants[v].carrier == RW_CARRIER_ROCEV2)
			vs[nv++] = (enum variant)v;
	int eth = g->o->linktype == RW_LINKTYPE_ETHERNET;
	unsigned max = g->o->max_payload;
	for (unsigned long i = 0; i < n; i++) {
		unsigned r = rnd_below(g, 1000);
		enum variant v = vs[nv > 1 && rnd_below(g, 4) == 0 ? 1 + rnd_below(g, (unsigned)nv - 1) : 0];
		init_packet(&p);
		if (r < 15 && eth) {
			/* PFC XOFF/XON on priority 3 */
			p.carrier = RW_CARRIER_PFC;
			p.present = RW_P_ETH | RW_P_MACCTRL;
			memcpy(p.eth.dst, mac_pause, 6);
			memcpy(p.eth.src, mac_b, 6);
			p.eth.ethertype = RW_ETHERTYPE_MACCTRL;
			p.macctrl.opcode = RW_MACCTRL_PFC;
			p.macctrl.cev = 1u << 3;
			p.macctrl.quanta[3] = (uint16_t)(rnd_below(g, 2) ? 0xffff : 0);
			emit(g, &p, 0, 0, 100);
			continue;
		}
		uint8_t opc;
		unsigned len = 0;
		int a_to_b = 1;
		if (r < 60) {
			opc = 0x81; /* CNP */
			a_to_b = 0;
		} else if (r < 660) {
			/* 1-4 KiB data: WRITE, SEND, READ responses */
			static const uint8_t data_ops[] = {0x06, 0x07, 0x08, 0x0a, 0x00, 0x01, 0x02,
							   0x04, 0x0d, 0x0e, 0x0f, 0x10};
			opc = data_ops[rnd_below(g, sizeof data_ops)];
			len = 1024 + rnd_below(g, 3073);
			if ((rw_opcode(opc)->flags & (RW_OPF_FIRST | RW_OPF_LAST)) == RW_OPF_FIRST ||
			    (rw_opcode(opc)->flags & RW_OPF_MIDDLE))
				len = rnd_below(g, 2) ? 4096 : 1024;
			a_to_b = !(rw_opcode(opc)->flags & RW_OPF_RESPONSE);
		} else if (r < 960) {
			/* ACKs and small packets */
			static const uint8_t small_ops[] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x0c, 0x04,
							    0x0a, 0x12, 0x13, 0x14};
			opc = small_ops[rnd_below(g, sizeof small_ops)];
			len = rnd_below(g, 257);
			a_to_b = !(rw_opcode(opc)->flags & RW_OPF_RESPONSE);
		} else {
			opc = 0x64; /* UD SEND_ONLY */
			len = 64 + rnd_below(g, 961);
		}
		if (len > max)
			len = max;
		set_carrier(g, &p, v, a_to_b);
		/* Realistic marks: data on DSCP 26 ECT0 (sometimes CE), CNPs on 48. */
		uint8_t dscp = opc == 0x81 ? 48 : 26;
		uint8_t ecn = opc == 0x81 ? RW_ECN_NOT_ECT : (rnd_below(g, 20) == 0 ? RW_ECN_CE : RW_ECN_ECT0);
		p.ipv4.dscp = p.ipv6.dscp = dscp;
		p.ipv4.ecn = p.ipv6.ecn = ecn;
		set_transport(g, &p, v, opc, opc == 0x11 ? rw_aeth_syndrome(RW_AETH_ACK, 31) : -1, len);
		if (opc == 0x11 || (opc >= 0x0d && opc <= 0x10) || opc == 0x12)
			p.aeth.syndrome = rw_aeth_syndrome(RW_AETH_ACK, 31);
		if (opc != 0x81)
			p.bth.fecn = p.bth.becn = 0;
		p.bth.pkey = 0xffff;
		/* 16 connections: requests carry each QP's next PSN, responses
		 * the PSN of the latest request, CNPs go to the requester. */
		unsigned q = rnd_below(g, MIX_QPS);
		if (opc == 0x64) {
			p.bth.dqpn = 0x000300u + q;
		} else if (opc == 0x81) {
			p.bth.dqpn = 0x000100u + q;
		} else if (rw_opcode(opc)->flags & RW_OPF_RESPONSE) {
			p.bth.dqpn = 0x000200u + q;
			p.bth.psn = (g->mix_psn[q] - 1u) & RW_PSN_MASK;
		} else {
			p.bth.dqpn = 0x000100u + q;
			p.bth.psn = g->mix_psn[q];
			g->mix_psn[q] = (g->mix_psn[q] + 1u) & RW_PSN_MASK;
		}
		/* Wire time at 100 Gb/s: 20 bytes of preamble, IFG and FCS per frame. */
		uint64_t wire_bytes = 20u + 60u + len + 80u;
		emit(g, &p, 0, 0, wire_bytes * 8u / 100u);
	}
}

static void gen_pfc(struct gen *g)
{
	struct rw_packet p;
	struct {
		uint16_t opcode, cev;
		uint16_t q[8];
	} frames[] = {
		{RW_MACCTRL_PFC, 0x08, {0, 0, 0, 0xffff, 0, 0, 0, 0}},       /* XOFF priority 3 */
		{RW_MACCTRL_PFC, 0x08, {0, 0, 0, 0, 0, 0, 0, 0}},            /* XON priority 3 */
		{RW_MACCTRL_PFC, 0x18, {0, 0, 0, 0x1234, 0x00ff, 0, 0, 0}},  /* priorities 3 and 4 */
		{RW_MACCTRL_PFC, 0xff, {1, 2, 3, 4, 5, 6, 7, 8}},            /* all eight */
		{RW_MACCTRL_PFC, 0x00, {0, 0, 0, 0, 0, 0, 0, 0}},            /* none enabled */
		{RW_MACCTRL_PFC, 0x81, {0xffff, 0, 0, 0, 0, 0, 0, 0x8000}},  /* priorities 0 and 7 */
		{RW_MACCTRL_PAUSE, 0, {0xffff}},                             /* PAUSE XOFF */
		{RW_MACCTRL_PAUSE, 0, {0}},                                  /* PAUSE XON */
		{RW_MACCTRL_PAUSE, 0, {0x0200}},
	};
	for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
		init_packet(&p);
		p.carrier = frames[i].opcode == RW_MACCTRL_PFC ? RW_CARRIER_PFC : RW_CARRIER_PAUSE;
		p.present = RW_P_ETH | RW_P_MACCTRL;
		memcpy(p.eth.dst, mac_pause, 6);
		memcpy(p.eth.src, i % 2 ? mac_a : mac_b, 6);
		p.eth.ethertype = RW_ETHERTYPE_MACCTRL;
		p.macctrl.opcode = frames[i].opcode;
		p.macctrl.cev = frames[i].cev;
		memcpy(p.macctrl.quanta, frames[i].q, sizeof p.macctrl.quanta);
		emit(g, &p, 0, 0, 10000);
	}
}

/* The carriers' length fields for a transport of tl bytes (BTH through
 * ICRC), for frames built with RW_BUILD_RAW_LENGTHS. */
static void set_lengths(struct rw_packet *p, unsigned tl)
{
	if (p->present & RW_P_IPV4)
		p->ipv4.total_len = (uint16_t)(RW_IPV4_MIN_HLEN + (p->ipv4.options_len + 3u) / 4u * 4u +
					       RW_UDP_HLEN + tl);
	if (p->present & RW_P_IPV6)
		p->ipv6.payload_len = (uint16_t)(RW_UDP_HLEN + tl);
	if (p->present & RW_P_UDP)
		p->udp.len = (uint16_t)(RW_UDP_HLEN + tl);
	if (p->present & RW_P_GRH)
		p->grh.paylen = (uint16_t)tl;
	if (p->present & RW_P_LRH)
		p->lrh.pktlen = (uint16_t)((RW_LRH_LEN + (p->present & RW_P_GRH ? RW_GRH_LEN : 0u) + tl) / 4u);
}

/* Good frames, bad ICRCs, snaplen cuts and malformed headers. The malformed
 * ones are made by the encoder itself, told to keep wrong length fields or a
 * wrong pad count. */
static void gen_bad(struct gen *g, unsigned vmask)
{
	struct rw_packet p;
	for (int v = 0; v < V_COUNT; v++) {
		if (!(vmask & (1u << v)))
			continue;
		/* 1. good SEND_ONLY, 2. same with a bad ICRC, 3. bad ICRC on a
		 * WRITE_ONLY with RETH, 4. bad ICRC on an ACK */
		static const struct {
			uint8_t opcode;
			unsigned len;
			unsigned flags;
		} seq[] = {
			{0x04, 20, 0},
			{0x04, 20, RW_BUILD_BAD_ICRC},
			{0x0a, 37, RW_BUILD_BAD_ICRC},
			{0x11, 0, RW_BUILD_BAD_ICRC},
			{0x64, 8, RW_BUILD_BAD_ICRC},
			{0x0a, 64, 0},
		};
		for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
			const struct rw_opcode_info *op = rw_opcode(seq[i].opcode);
			init_packet(&p);
			set_carrier(g, &p, (enum variant)v, !(op->flags & RW_OPF_RESPONSE));
			set_transport(g, &p, (enum variant)v, seq[i].opcode, -1,
				      seq[i].len > g->o->max_payload ? g->o->max_payload : seq[i].len);
			emit(g, &p, seq[i].flags, 0, 0);
		}
		/* Cut by the snapshot length: inside the payload (ICRC not
		 * captured), then inside the BTH. */
		init_packet(&p);
		set_carrier(g, &p, (enum variant)v, 1);
		set_transport(g, &p, (enum variant)v, 0x0a, -1, 48);
		emit(g, &p, 0, CUT_PAYLOAD, 0);
		init_packet(&p);
		set_carrier(g, &p, (enum variant)v, 1);
		set_transport(g, &p, (enum variant)v, 0x04, -1, 16);
		emit(g, &p, 0, CUT_BTH, 0);
		/* Pad count larger than the packet allows: an ACK has no payload
		 * and its length fields count no pad, so PadCnt 3 eats into the
		 * AETH. */
		init_packet(&p);
		set_carrier(g, &p, (enum variant)v, 0);
		set_transport(g, &p, (enum variant)v, 0x11, -1, 0);
		p.bth.pad = 3;
		set_lengths(&p, rw_opcode(0x11)->hdr_len + RW_ICRC_LEN);
		emit(g, &p, RW_BUILD_KEEP_PAD | RW_BUILD_RAW_LENGTHS, 0, 0);
		/* A manufacturer-specific opcode (0xC0). */
		init_packet(&p);
		set_carrier(g, &p, (enum variant)v, 1);
		set_transport(g, &p, (enum variant)v, 0x04, -1, 12);
		p.bth.opcode = 0xc0;
		emit(g, &p, 0, 0, 0);
		/* Length fields that contradict the frame: a UDP length below the
		 * UDP header's own 8 bytes, an IPv4 total length below the IP
		 * header, an LRH PktLen shorter than the LRH and BTH. */
		unsigned tl = rw_opcode(0x04)->hdr_len + 12u + RW_ICRC_LEN;
		if (p.present & RW_P_UDP) {
			init_packet(&p);
			set_carrier(g, &p, (enum variant)v, 1);
			set_transport(g, &p, (enum variant)v, 0x04, -1, 12);
			set_lengths(&p, tl);
			p.udp.len = 4;
			emit(g, &p, RW_BUILD_RAW_LENGTHS, 0, 0);
		}
		if (p.present & RW_P_IPV4) {
			init_packet(&p);
			set_carrier(g, &p, (enum variant)v, 1);
			set_transport(g, &p, (enum variant)v, 0x04, -1, 12);
			set_lengths(&p, tl);
			p.ipv4.total_len = 12;
			emit(g, &p, RW_BUILD_RAW_LENGTHS, 0, 0);
		}
		if (p.present & RW_P_LRH) {
			init_packet(&p);
			set_carrier(g, &p, (enum variant)v, 1);
			set_transport(g, &p, (enum variant)v, 0x04, -1, 12);
			set_lengths(&p, tl);
			p.lrh.pktlen = 3;
			emit(g, &p, RW_BUILD_RAW_LENGTHS, 0, 0);
		}
		if (p.present & RW_P_GRH && !(p.present & RW_P_LRH)) {
			/* RoCEv1: a GRH PayLen longer than the frame */
			init_packet(&p);
			set_carrier(g, &p, (enum variant)v, 1);
			set_transport(g, &p, (enum variant)v, 0x04, -1, 12);
			set_lengths(&p, tl + 64u);
			emit(g, &p, RW_BUILD_RAW_LENGTHS, 0, 0);
		}
	}
}


/* ---- --connections: many queue pairs, for the report's scale benchmark ----
 *
 * What a switch tap between a few host pairs sees when thousands of RC
 * connections each do a little work: connection after connection, one RDMA
 * WRITE ONLY, and its ACK some microseconds later with other connections'
 * WRITEs and ACKs in between. Nothing is stored per connection: its QPNs,
 * initial PSN, UDP ports and R_Key are functions of its number and the seed,
 * so a million connections cost no memory here. */
#define CONN_MAX 4000000ul    /* 2 QPNs each, all distinct among 2^24 - 3 */
#define CONN_HOST_PAIRS_MAX 65536u
#define CONN_ROUNDS_MAX 1000u
#define CONN_PAYLOAD 64u      /* a small WRITE */
#define CONN_GAP_NS 2000u     /* between two WRITEs on the tap: 500k messages/s */
/* WRITE -> ACK: 9 to 12 us (the responder's NIC and the way back), whole
 * microseconds so that the pcap's microsecond stamps keep them exact. */
#define CONN_ACK_NS 9000u
#define CONN_ACK_JITTER_US 4u
/* ACKs not yet written at any time: at most one per WRITE of the last
 * (CONN_ACK_NS + jitter) nanoseconds. */
#define CONN_PENDING 16u
_Static_assert((CONN_ACK_NS + CONN_ACK_JITTER_US * 1000u) / CONN_GAP_NS + 2u <= CONN_PENDING,
	       "pending ACK ring too small for the ACK delay");

/* A permutation of the 24-bit space (xor with a key, odd multipliers and
 * xor-shifts are each one-to-one): distinct inputs give distinct values that
 * still look random. */
static uint32_t perm24(uint32_t x, uint32_t key)
{
	x = (x ^ key) & RW_PSN_MASK;
	x = (x * 0x2545f5u) & RW_PSN_MASK;
	x ^= x >> 12;
	x = (x * 0x9e3779u) & RW_PSN_MASK; /* odd */
	x ^= x >> 11;
	return x;
}

/* QPN number k (two per connection): walking the permutation's cycle until
 * it leaves QP0/QP1 (SMI/GSI) and 0xFFFFFF (multicast) keeps it one-to-one
 * on the allowed QPNs, since k + 2 is one of them. */
static uint32_t conn_qpn(uint32_t k, uint32_t key)
{
	uint32_t q = k + 2u;
	do
		q = perm24(q, key);
	while (q < 2u || q == RW_PSN_MASK);
	return q;
}

struct conn_keys {
	uint32_t qpn, psn, rkey;
	uint64_t va;
};

struct conn_ack {
	uint64_t t;
	uint32_t c, round;
};

/* One packet of connection c in round r: its WRITE (requester to
 * responder) or its ACK (back). */
static void conn_packet(struct gen *g, const struct conn_keys *k, uint32_t c, uint32_t r, int ack)
{
	struct rw_packet p;
	uint32_t h = c % g->o->host_pairs;
	uint32_t req_qpn = conn_qpn(2u * c, k->qpn), resp_qpn = conn_qpn(2u * c + 1u, k->qpn);
	uint32_t psn = (perm24(c, k->psn) + r) & RW_PSN_MASK;
	uint8_t mac_req[6] = {0x02, 0x00, 0x0a, (uint8_t)(h >> 8), (uint8_t)h, 0x01};
	uint8_t mac_resp[6] = {0x02, 0x00, 0x0a, (uint8_t)(h >> 8), (uint8_t)h, 0x02};
	uint32_t ip_req = 0x0a000001u | h << 8, ip_resp = ip_req + 1u; /* 10.X.Y.1, 10.X.Y.2 */

	init_packet(&p);
	p.carrier = RW_CARRIER_ROCEV2;
	p.present = RW_P_ETH | RW_P_IPV4 | RW_P_UDP | RW_P_BTH;
	memcpy(p.eth.dst, ack ? mac_req : mac_resp, 6);
	memcpy(p.eth.src, ack ? mac_resp : mac_req, 6);
	p.eth.ethertype = RW_ETHERTYPE_IPV4;
	p.ipv4.dscp = 26; /* the usual RoCE data class, ECN-capable */
	p.ipv4.ecn = RW_ECN_ECT0;
	p.ipv4.id = (uint16_t)g->frames;
	p.ipv4.flags = RW_IPV4_DF;
	p.ipv4.ttl = 64;
	p.ipv4.protocol = RW_IPPROTO_UDP;
	p.ipv4.src = ack ? ip_resp : ip_req;
	p.ipv4.dst = ack ? ip_req : ip_resp;
	/* Each QP keeps one source port (flow entropy, as rxe and mlx5 pick). */
	p.udp.sport = (uint16_t)(0xc000u | ((ack ? resp_qpn : req_qpn) & 0x3fffu));
	p.udp.dport = RW_ROCEV2_PORT;
	p.bth.pkey = 0xffff;
	p.bth.psn = psn;
	if (!ack) {
		unsigned len = CONN_PAYLOAD < g->o->max_payload ? CONN_PAYLOAD : g->o->max_payload;
		p.bth.opcode = 0x0a; /* RC RDMA WRITE ONLY */
		p.bth.dqpn = resp_qpn;
		p.bth.ackreq = 1;
		p.reth.va = k->va + ((uint64_t)c << 20) + (uint64_t)r * CONN_PAYLOAD;
		p.reth.rkey = k->rkey ^ c;
		p.reth.dmalen = len;
		p.payload = g->payload;
		p.payload_len = len;
	} else {
		p.bth.opcode = 0x11; /* RC ACKNOWLEDGE */
		p.bth.dqpn = req_qpn;
		/* IBA 9.7.5.1.1: the MSN counts the messages the responder
		 * completed; credits 31: no credit count (as RoCE NICs send). */
		p.aeth.syndrome = rw_aeth_syndrome(RW_AETH_ACK, 31);
		p.aeth.msn = r + 1u;
	}
	emit(g, &p, 0, 0, 0);
}

static void gen_connections(struct gen *g)
{
	const struct opts *o = g->o;
	struct conn_keys k = {.qpn = rnd32(g), .psn = rnd32(g), .rkey = rnd32(g),
			      .va = rnd(g) & 0x00007fffffff0000ull};
	struct conn_ack pend[CONN_PENDING];
	unsigned npend = 0;
	uint64_t t0 = g->t_ns, total = (uint64_t)o->connections * o->rounds;

	for (uint64_t i = 0; i <= total; i++) {
		/* The next WRITE's time; past the last one, a time after every ACK. */
		uint64_t tw = t0 + i * CONN_GAP_NS + (i == total ? UINT64_C(1) << 40 : 0);
		for (;;) {
			unsigned m = 0;
			for (unsigned j = 1; j < npend; j++)
				if (pend[j].t < pend[m].t)
					m = j;
			if (!npend || pend[m].t > tw)
				break;
			g->t_ns = pend[m].t;
			conn_packet(g, &k, pend[m].c, pend[m].round, 1);
			pend[m] = pend[--npend];
		}
		if (i == total)
			break;
		uint32_t c = (uint32_t)(i % o->connections), r = (uint32_t)(i / o->connections);
		g->t_ns = tw;
		conn_packet(g, &k, c, r, 0);
		pend[npend++] = (struct conn_ack){
			.t = tw + CONN_ACK_NS + 1000u * rnd_below(g, CONN_ACK_JITTER_US), .c = c, .round = r};
	}
}

int main(int argc, char **argv)
{
	struct opts o = {.mode = M_NONE, .out = "-", .linktype = RW_LINKTYPE_ETHERNET, .seed = 1,
			 .max_payload = MAX_PAYLOAD, .host_pairs = 8, .rounds = 2};
	int conn_opts = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		enum mode m = M_NONE;
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--all-opcodes") == 0) {
			m = M_ALL_OPCODES;
		} else if (strcmp(a, "--pfc") == 0) {
			m = M_PFC;
		} else if (strcmp(a, "--bad") == 0) {
			m = M_BAD;
		} else if (strcmp(a, "--mix") == 0) {
			if (!val)
				die("%s: expected a packet count after it", a);
			o.mix_count = parse_ulong(a, val, 100000000ul);
			m = M_MIX;
			i++;
		} else if (strcmp(a, "--connections") == 0) {
			if (!val)
				die("%s: expected a number of connections after it", a);
			o.connections = parse_ulong(a, val, CONN_MAX);
			m = M_CONNECTIONS;
			i++;
		} else if (strcmp(a, "--host-pairs") == 0) {
			if (!val)
				die("%s: expected a number of host pairs after it", a);
			o.host_pairs = (unsigned)parse_ulong(a, val, CONN_HOST_PAIRS_MAX);
			if (!o.host_pairs)
				die("%s: expected at least 1 host pair", a);
			conn_opts = 1;
			i++;
		} else if (strcmp(a, "--rounds") == 0) {
			if (!val)
				die("%s: expected a number of rounds after it", a);
			o.rounds = (unsigned)parse_ulong(a, val, CONN_ROUNDS_MAX);
			conn_opts = 1;
			i++;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (!val)
				die("%s: expected a file name after it", a);
			o.out = val;
			i++;
		} else if (strcmp(a, "--linktype") == 0) {
			if (!val)
				die("%s: expected a link type after it", a);
			o.linktype = parse_linktype(val);
			i++;
		} else if (strcmp(a, "--carriers") == 0) {
			if (!val)
				die("%s: expected a list of carriers after it", a);
			o.carriers = parse_carriers(val);
			i++;
		} else if (strcmp(a, "--max-payload") == 0) {
			if (!val)
				die("%s: expected a byte count after it", a);
			o.max_payload = (unsigned)parse_ulong(a, val, MAX_PAYLOAD);
			i++;
		} else if (strcmp(a, "--seed") == 0) {
			if (!val)
				die("%s: expected a number after it", a);
			o.seed = parse_ulong(a, val, ULONG_MAX);
			i++;
		} else {
			fprintf(stderr, "%s: unknown argument \"%s\" (try --help)\n", prog, a);
			return 2;
		}
		if (m != M_NONE) {
			if (o.mode != M_NONE)
				die("%s: only one mode at a time", a);
			o.mode = m;
		}
	}
	if (o.mode == M_NONE) {
		usage(stderr);
		return 2;
	}
	if (conn_opts && o.mode != M_CONNECTIONS) {
		fprintf(stderr, "%s: --host-pairs and --rounds go with --connections\n", prog);
		return 2;
	}
	unsigned vmask = 0;
	for (int v = 0; v < V_COUNT; v++)
		if (variant_fits((enum variant)v, o.linktype) && (!o.carriers || (o.carriers & (1u << v))))
			vmask |= 1u << v;
	if (o.carriers) {
		for (int v = 0; v < V_COUNT; v++)
			if ((o.carriers & (1u << v)) && !(vmask & (1u << v))) {
				fprintf(stderr, "%s: --carriers: %s cannot be carried by link type %s\n", prog,
					variants[v].name, linktype_name(o.linktype));
				return 2;
			}
	}
	if (!vmask && o.mode != M_PFC) {
		fprintf(stderr, "%s: no carrier fits link type %s\n", prog, linktype_name(o.linktype));
		return 2;
	}
	if (o.mode == M_PFC && o.linktype != RW_LINKTYPE_ETHERNET && o.linktype != RW_LINKTYPE_ERF) {
		fprintf(stderr, "%s: --pfc needs link type ethernet or erf, not %s\n", prog,
			linktype_name(o.linktype));
		return 2;
	}
	if (o.mode == M_MIX) {
		unsigned v2 = 0;
		for (int v = 0; v < V_COUNT; v++)
			if (variants[v].carrier == RW_CARRIER_ROCEV2)
				v2 |= 1u << v;
		if (!(vmask & v2)) {
			fprintf(stderr, "%s: --mix needs a RoCEv2 carrier, and link type %s%s has none\n",
				prog, linktype_name(o.linktype), o.carriers ? " with these --carriers" : "");
			return 2;
		}
	}
	if (o.mode == M_CONNECTIONS && !(vmask & (1u << V_V2))) {
		fprintf(stderr, "%s: --connections writes RoCEv2 over IPv4 (carrier v2), which link "
			"type %s%s cannot carry\n", prog, linktype_name(o.linktype),
			o.carriers ? " with these --carriers" : "");
		return 2;
	}
	if (strcmp(o.out, "-") == 0 && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "%s: standard output is a terminal: give -o FILE, or redirect it\n", prog);
		return 2;
	}

	static struct gen g;
	g.o = &o;
	g.rng = o.seed;
	g.t_ns = 1700000000ull * 1000000000ull; /* 2023-11-14 22:13:20 UTC */
	for (int v = 0; v < V_COUNT; v++)
		g.psn[v] = 0xfffff0u + (unsigned)v; /* every carrier crosses the 2^24 wrap */
	for (unsigned q = 0; q < MIX_QPS; q++)
		g.mix_psn[q] = (0x100000u * q + 0xfff000u) & RW_PSN_MASK;
	for (size_t i = 0; i < sizeof g.payload; i++)
		g.payload[i] = (uint8_t)(rnd(&g) >> 56);
	out_open(&g);
	switch (o.mode) {
	case M_ALL_OPCODES:
		gen_all_opcodes(&g, vmask);
		break;
	case M_MIX:
		gen_mix(&g, o.mix_count, vmask);
		break;
	case M_PFC:
		gen_pfc(&g);
		break;
	case M_BAD:
		gen_bad(&g, vmask);
		break;
	case M_CONNECTIONS:
		gen_connections(&g);
		break;
	case M_NONE:
		break;
	}
	out_close(&g);
	return 0;
}
