/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-replay's options. One table (name, argument, help, handler)
 * drives getopt_long and --help, so the two cannot drift apart. */
#include "opts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rocewire/opcode.h"

#ifndef ROCEWIRE_VERSION
#define ROCEWIRE_VERSION "0"
#endif

struct ctx {
	struct rp_opts *o;
	const char *name;   /* the option as given, for messages */
	char *err;
	size_t errlen;
};

static int fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, c->errlen, "--%s: ", c->name);
	/* A buffer too small for the option's name keeps what fitted. */
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

int rp_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	if (*s == '-' || *s == '\0')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (*end != '\0' || errno != 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int rp_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	char tail;
	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &tail) != 6)
		return -1;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return 0;
}

/* "ADDR[/LEN]": family 4 or 6, the address bytes and the prefix length. */
static int parse_cidr(const char *s, int *family, uint8_t addr[16], unsigned *plen)
{
	char buf[64];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (inet_pton(AF_INET, buf, addr) == 1)
		*family = 4;
	else if (inet_pton(AF_INET6, buf, addr) == 1)
		*family = 6;
	else
		return -1;
	uint64_t l = *family == 4 ? 32 : 128;
	if (slash && rp_parse_u64(slash + 1, l, &l) != 0)
		return -1;
	*plen = (unsigned)l;
	return 0;
}

/* Splits "A=B" at the '=' into a and b (copies). */
static int split_eq(struct ctx *c, const char *arg, char *a, char *b, size_t cap, const char *what)
{
	const char *eq = strchr(arg, '=');
	if (!eq || (size_t)(eq - arg) >= cap || strlen(eq + 1) >= cap)
		return fail(c, "'%s': expected %s", arg, what);
	memcpy(a, arg, (size_t)(eq - arg));
	a[eq - arg] = '\0';
	strcpy(b, eq + 1);
	return 0;
}

static int room(struct ctx *c, unsigned n)
{
	if (n >= RW_RW_MAX_MAP)
		return fail(c, "at most %d rules of this kind", RW_RW_MAX_MAP);
	return 0;
}

static int h_map_ip(struct ctx *c, const char *arg)
{
	char a[64], b[64];
	uint8_t fa[16], ta[16];
	int ff, tf;
	unsigned fl, tl;
	struct rw_rewrite *rw = &c->o->rw;
	if (split_eq(c, arg, a, b, sizeof(a), "FROM/LEN=TO/LEN (CIDR to CIDR)"))
		return -1;
	if (parse_cidr(a, &ff, fa, &fl) || parse_cidr(b, &tf, ta, &tl))
		return fail(c, "'%s': expected FROM/LEN=TO/LEN with IPv4 or IPv6 addresses", arg);
	if (ff != tf || fl != tl)
		return fail(c, "'%s': both sides need the same family and prefix length", arg);
	if (ff == 4) {
		if (room(c, rw->n_ip4))
			return -1;
		uint32_t m = fl ? 0xFFFFFFFFu << (32 - fl) : 0;
		struct rw_rw_ip4map *x = &rw->ip4[rw->n_ip4++];
		x->mask = m;
		x->from = ((uint32_t)fa[0] << 24 | (uint32_t)fa[1] << 16 | (uint32_t)fa[2] << 8 | fa[3]) & m;
		x->to = ((uint32_t)ta[0] << 24 | (uint32_t)ta[1] << 16 | (uint32_t)ta[2] << 8 | ta[3]) & m;
	} else {
		if (room(c, rw->n_ip6))
			return -1;
		struct rw_rw_ip6map *x = &rw->ip6[rw->n_ip6++];
		memcpy(x->from, fa, 16);
		memcpy(x->to, ta, 16);
		x->plen = (uint8_t)fl;
	}
	return 0;
}

static int map32(struct ctx *c, const char *arg, struct rw_rw_map32 *m, uint8_t *n, uint64_t max)
{
	char a[40], b[40];
	uint64_t f, t;
	if (room(c, *n) || split_eq(c, arg, a, b, sizeof(a), "FROM=TO"))
		return -1;
	if (rp_parse_u64(a, max, &f) || rp_parse_u64(b, max, &t))
		return fail(c, "'%s': expected FROM=TO, numbers from 0 to %llu (0x for hex)", arg,
			    (unsigned long long)max);
	m[*n].from = (uint32_t)f;
	m[*n].to = (uint32_t)t;
	(*n)++;
	return 0;
}

static int h_map_qpn(struct ctx *c, const char *arg)
{
	return map32(c, arg, c->o->rw.qpn, &c->o->rw.n_qpn, RW_QPN_MASK);
}

static int h_map_rkey(struct ctx *c, const char *arg)
{
	return map32(c, arg, c->o->rw.rkey, &c->o->rw.n_rkey, 0xFFFFFFFFu);
}

static int h_map_va(struct ctx *c, const char *arg)
{
	char a[64], b[64];
	uint64_t f, t, len = 0;
	struct rw_rewrite *rw = &c->o->rw;
	if (room(c, rw->n_va) || split_eq(c, arg, a, b, sizeof(a), "FROM[+LEN]=TO"))
		return -1;
	char *plus = strchr(a, '+');
	if (plus)
		*plus = '\0';
	if (rp_parse_u64(a, UINT64_MAX, &f) || rp_parse_u64(b, UINT64_MAX, &t) ||
	    (plus && (rp_parse_u64(plus + 1, UINT64_MAX, &len) || len == 0)))
		return fail(c, "'%s': expected FROM[+LEN]=TO, 64-bit addresses (0x for hex)", arg);
	rw->va[rw->n_va++] = (struct rw_rw_vamap){f, plus ? len : UINT64_MAX - f, t};
	return 0;
}

static int h_psn_offset(struct ctx *c, const char *arg)
{
	struct rw_rewrite *rw = &c->o->rw;
	const char *colon = strchr(arg, ':');
	const char *off = colon ? colon + 1 : arg;
	uint64_t q = 0, v;
	int neg = *off == '-';
	if (room(c, rw->n_psn))
		return -1;
	if (colon) {
		char a[32];
		size_t n = (size_t)(colon - arg);
		if (n >= sizeof(a))
			return fail(c, "'%s': expected [QPN:]OFFSET", arg);
		memcpy(a, arg, n);
		a[n] = '\0';
		if (rp_parse_u64(a, RW_QPN_MASK, &q))
			return fail(c, "'%s': the QPN is not a number from 0 to 16777215", arg);
	}
	if (rp_parse_u64(off + neg, RW_PSN_MASK, &v))
		return fail(c, "'%s': expected [QPN:]OFFSET, OFFSET from -16777215 to 16777215", arg);
	rw->psn[rw->n_psn++] = (struct rw_rw_psnoff){(uint32_t)q,
						      (uint32_t)(neg ? (0x1000000 - v) : v) & RW_PSN_MASK,
						      (uint8_t)!colon};
	return 0;
}

static int h_src_mac(struct ctx *c, const char *arg)
{
	c->o->rw.set_src_mac = 1;
	return rp_parse_mac(arg, c->o->rw.src_mac) ? fail(c, "'%s': expected a MAC address like 02:00:00:00:00:01", arg) : 0;
}

static int h_dst_mac(struct ctx *c, const char *arg)
{
	c->o->rw.set_dst_mac = 1;
	return rp_parse_mac(arg, c->o->rw.dst_mac) ? fail(c, "'%s': expected a MAC address like 02:00:00:00:00:01", arg) : 0;
}

static int small(struct ctx *c, const char *arg, uint64_t max, uint64_t *v)
{
	*v = 0; /* set on failure too: GCC -O3 cannot tell that fail() is never 0 */
	if (rp_parse_u64(arg, max, v))
		return fail(c, "'%s': expected a number from 0 to %llu", arg, (unsigned long long)max);
	return 0;
}

static int h_udp_sport(struct ctx *c, const char *arg)
{
	uint64_t v;
	if (small(c, arg, 65535, &v))
		return -1;
	c->o->rw.udp_sport = (int32_t)v;
	return 0;
}

static int h_dscp(struct ctx *c, const char *arg)
{
	uint64_t v;
	if (small(c, arg, 63, &v))
		return -1;
	c->o->rw.dscp = (int16_t)v;
	return 0;
}

static int h_ecn(struct ctx *c, const char *arg)
{
	uint64_t v;
	if (small(c, arg, 3, &v))
		return -1;
	c->o->rw.ecn = (int16_t)v;
	return 0;
}

static int h_ttl(struct ctx *c, const char *arg)
{
	uint64_t v;
	if (small(c, arg, 255, &v))
		return -1;
	c->o->rw.ttl = (int16_t)v;
	return 0;
}

static int h_pkey(struct ctx *c, const char *arg)
{
	uint64_t v;
	if (small(c, arg, 0xFFFF, &v))
		return -1;
	c->o->rw.pkey = (int32_t)v;
	return 0;
}

static int h_udp_csum(struct ctx *c, const char *arg)
{
	static const char *const names[] = {"keep", "zero", "full"};
	for (int i = 0; i < 3; i++)
		if (strcmp(arg, names[i]) == 0) {
			c->o->rw.udp_csum = (enum rw_rw_udp_csum)i;
			return 0;
		}
	return fail(c, "'%s': expected keep, zero or full", arg);
}

static int vlan(struct ctx *c, const char *arg, enum rw_rw_vlan_op op)
{
	char a[32];
	uint64_t vid, pcp = 0;
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	if (n >= sizeof(a))
		return fail(c, "'%s': expected VID[:PCP]", arg);
	memcpy(a, arg, n);
	a[n] = '\0';
	if (rp_parse_u64(a, 4094, &vid) || (colon && rp_parse_u64(colon + 1, 7, &pcp)))
		return fail(c, "'%s': expected VID[:PCP], VID 0..4094, PCP 0..7", arg);
	c->o->rw.vlan_op = op;
	c->o->rw.vlan_vid = (uint16_t)vid;
	c->o->rw.vlan_pcp = (uint8_t)pcp;
	return 0;
}

static int h_vlan_add(struct ctx *c, const char *arg)
{
	return vlan(c, arg, RW_RW_VLAN_ADD);
}

static int h_vlan_retag(struct ctx *c, const char *arg)
{
	return vlan(c, arg, RW_RW_VLAN_RETAG);
}

static int h_vlan_strip(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->rw.vlan_op = RW_RW_VLAN_STRIP;
	return 0;
}

static int h_to_v1(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->rw.convert = RW_RW_CONV_TO_V1;
	return 0;
}

static int h_to_v2(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->rw.convert = RW_RW_CONV_TO_V2;
	return 0;
}

static int h_fix_icrc(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->rw.fix_icrc = 1;
	return 0;
}

static int h_corrupt(struct ctx *c, const char *arg)
{
	if (parse_double(arg, 0, 1, &c->o->corrupt_rate))
		return fail(c, "'%s': expected a fraction of packets from 0 to 1", arg);
	return 0;
}

static int h_seed(struct ctx *c, const char *arg)
{
	return small(c, arg, UINT64_MAX, &c->o->seed);
}

static int h_target(struct ctx *c, const char *arg)
{
	c->o->target = arg;
	return 0;
}

static int h_multiplier(struct ctx *c, const char *arg)
{
	if (parse_double(arg, 1e-6, 1e9, &c->o->multiplier))
		return fail(c, "'%s': expected a speed factor above 0 (2 = twice as fast)", arg);
	c->o->timing = RP_TIME_CAPTURED;
	return 0;
}

static int h_pps(struct ctx *c, const char *arg)
{
	if (parse_double(arg, 1e-3, 1e10, &c->o->pps))
		return fail(c, "'%s': expected packets per second above 0", arg);
	c->o->timing = RP_TIME_PPS;
	return 0;
}

static int h_mbps(struct ctx *c, const char *arg)
{
	if (parse_double(arg, 1e-3, 1e7, &c->o->mbps))
		return fail(c, "'%s': expected megabits per second above 0", arg);
	c->o->timing = RP_TIME_MBPS;
	return 0;
}

static int h_topspeed(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->timing = RP_TIME_TOPSPEED;
	return 0;
}

static int h_loop(struct ctx *c, const char *arg)
{
	return small(c, arg, UINT64_MAX, &c->o->loops);
}

static int h_preload(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->preload = 1;
	return 0;
}

static int h_qp(struct ctx *c, const char *arg)
{
	char buf[1024];
	if (strlen(arg) >= sizeof(buf))
		return fail(c, "list too long");
	strcpy(buf, arg);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (c->o->n_qps >= RP_MAX_LIST)
			return fail(c, "at most %d QPs", RP_MAX_LIST);
		if (rp_parse_u64(t, RW_QPN_MASK, &v))
			return fail(c, "'%s': expected destination QP numbers, comma-separated", t);
		c->o->qps[c->o->n_qps++] = (uint32_t)v;
	}
	return 0;
}

static int h_opcode(struct ctx *c, const char *arg)
{
	char buf[1024];
	if (strlen(arg) >= sizeof(buf))
		return fail(c, "list too long");
	strcpy(buf, arg);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		int found = -1;
		if (rp_parse_u64(t, 255, &v) == 0)
			found = (int)v;
		for (int i = 0; i < 256 && found < 0; i++)
			if (strcasecmp(rw_opcode((uint8_t)i)->name, t) == 0)
				found = i;
		if (found < 0)
			return fail(c, "'%s': expected opcode names (RC_SEND_ONLY, ...) or numbers", t);
		if (c->o->n_opcodes >= RP_MAX_LIST)
			return fail(c, "at most %d opcodes", RP_MAX_LIST);
		c->o->opcodes[c->o->n_opcodes++] = (uint8_t)found;
	}
	return 0;
}

static int h_frames(struct ctx *c, const char *arg)
{
	char a[32];
	const char *dash = strchr(arg, '-');
	size_t n = dash ? (size_t)(dash - arg) : strlen(arg);
	uint64_t f = 1, l = UINT64_MAX;
	if (n >= sizeof(a))
		return fail(c, "'%s': expected FIRST-LAST", arg);
	memcpy(a, arg, n);
	a[n] = '\0';
	if ((n && rp_parse_u64(a, UINT64_MAX, &f)) || (dash && dash[1] && rp_parse_u64(dash + 1, UINT64_MAX, &l)) ||
	    (!dash && rp_parse_u64(a, UINT64_MAX, &l)) || f == 0 || l < f)
		return fail(c, "'%s': expected FIRST-LAST, frame numbers from 1 (FIRST- or -LAST open)", arg);
	c->o->frame_first = f;
	c->o->frame_last = l;
	return 0;
}

static int h_time(struct ctx *c, const char *arg)
{
	char a[64];
	const char *dash = strchr(arg, '-');
	if (!dash || (size_t)(dash - arg) >= sizeof(a))
		return fail(c, "'%s': expected FROM-TO in seconds after the first packet", arg);
	memcpy(a, arg, (size_t)(dash - arg));
	a[dash - arg] = '\0';
	c->o->time_from = 0;
	c->o->time_to = INFINITY;
	if ((a[0] && parse_double(a, 0, 1e12, &c->o->time_from)) ||
	    (dash[1] && parse_double(dash + 1, 0, 1e12, &c->o->time_to)) || c->o->time_to < c->o->time_from)
		return fail(c, "'%s': expected FROM-TO in seconds after the first packet", arg);
	c->o->have_time = 1;
	return 0;
}

static int h_filter(struct ctx *c, const char *arg)
{
	if (rp_filter_compile(arg, &c->o->filter, c->err, c->errlen) != 0)
		return -1;
	c->o->have_filter = 1;
	return 0;
}

static int h_iface(struct ctx *c, const char *arg)
{
	c->o->iface = arg;
	return 0;
}

static int h_write(struct ctx *c, const char *arg)
{
	if (strchr(arg, ',') || strchr(arg, '='))
		return fail(c, "'%s': a file name with ',' or '=' cannot be passed to net_pcap", arg);
	c->o->write = arg;
	return 0;
}

static int h_port(struct ctx *c, const char *arg)
{
	uint64_t v;
	if (small(c, arg, 65535, &v))
		return -1;
	c->o->port = (uint16_t)v;
	return 0;
}

static int h_burst(struct ctx *c, const char *arg)
{
	uint64_t v;
	if (rp_parse_u64(arg, 512, &v) || v == 0)
		return fail(c, "'%s': expected a number from 1 to 512", arg);
	c->o->burst = (uint32_t)v;
	return 0;
}

static int h_summary(struct ctx *c, const char *arg)
{
	c->o->summary_json = arg;
	return 0;
}

static int h_progress(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->progress = 1;
	return 0;
}

static int h_no_progress(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->progress = 0;
	return 0;
}

static int h_quiet(struct ctx *c, const char *arg)
{
	(void)arg;
	c->o->quiet = 1;
	return 0;
}

struct opt {
	const char *name;
	int shortc;
	const char *arg;    /* NULL: no argument */
	int (*fn)(struct ctx *, const char *);
	const char *help;   /* NULL: a section title in name */
};

#define SECTION(t) {t, 0, NULL, NULL, NULL}
static const struct opt table[] = {
	SECTION("Output (one of them; see also EAL options above)"),
	{"iface", 'i', "IF", h_iface, "send on interface IF through an AF_PACKET TX ring"},
	{"write", 'w', "FILE", h_write, "write a pcap through DPDK's net_pcap (no EAL options needed)"},
	{"port", 'p', "N", h_port, "DPDK port to send on (default 0)"},
	{"burst", 'b', "N", h_burst, "frames per TX burst or ring flush (default 32)"},
	SECTION("Rewrites (any combination; the ICRC is patched when a covered field changes)"),
	{"src-mac", 0, "MAC", h_src_mac, "Ethernet source address"},
	{"dst-mac", 0, "MAC", h_dst_mac, "Ethernet destination address (not of PAUSE/PFC frames)"},
	{"map-ip", 0, "CIDR=CIDR", h_map_ip, "IPv4 or IPv6 addresses (and GIDs of RoCEv1), host bits kept; repeatable"},
	{"udp-sport", 0, "N", h_udp_sport, "UDP source port of RoCEv2, --to-v2's frames included"},
	{"dscp", 0, "N", h_dscp, "DSCP (masked by the ICRC: left as it is)"},
	{"ecn", 0, "N", h_ecn, "ECN, 0..3 (masked)"},
	{"ttl", 0, "N", h_ttl, "IPv4 TTL / IPv6 hop limit (masked)"},
	{"udp-csum", 0, "MODE", h_udp_csum, "keep (updated when non-zero), zero, or full (masked)"},
	{"vlan-add", 0, "VID[:PCP]", h_vlan_add, "push an 802.1Q tag (never on PAUSE/PFC frames)"},
	{"vlan-retag", 0, "VID[:PCP]", h_vlan_retag, "change the outer tag (pushed when untagged; not on PAUSE/PFC)"},
	{"vlan-strip", 0, NULL, h_vlan_strip, "remove the outer tag"},
	{"map-qpn", 0, "FROM=TO", h_map_qpn, "destination QP number; repeatable"},
	{"psn-offset", 0, "[QPN:]OFF", h_psn_offset, "add OFF (mod 2^24, may be negative) to the PSN of packets to QPN (before --map-qpn), or of all"},
	{"pkey", 0, "N", h_pkey, "BTH P_Key"},
	{"map-rkey", 0, "FROM=TO", h_map_rkey, "R_Key of RETH and AtomicETH; repeatable"},
	{"map-va", 0, "FROM[+LEN]=TO", h_map_va, "virtual address of RETH and AtomicETH, offset kept; repeatable"},
	{"to-v1", 0, NULL, h_to_v1, "convert RoCEv2 to RoCEv1 (GIDs from the IP addresses)"},
	{"to-v2", 0, NULL, h_to_v2, "convert RoCEv1 to RoCEv2 (IPv4 for IPv4-mapped GIDs)"},
	{"fix-icrc", 0, NULL, h_fix_icrc, "recompute every ICRC in full: a bad one is made good"},
	{"corrupt-icrc", 0, "RATE", h_corrupt, "flip one ICRC bit in this fraction of RoCE packets (a UDP checksum follows)"},
	{"seed", 0, "N", h_seed, "seed of --corrupt-icrc's choice (default 1)"},
	{"target", 0, "FILE", h_target, "re-target a requester stream to rocewire-verbs' fixed-peer server record"},
	SECTION("Timing (default: as captured)"),
	{"multiplier", 'x', "X", h_multiplier, "as captured, X times as fast"},
	{"pps", 0, "N", h_pps, "N packets per second"},
	{"mbps", 0, "N", h_mbps, "N megabits per second (frame bytes)"},
	{"topspeed", 't', NULL, h_topspeed, "as fast as the output takes"},
	{"loop", 'l', "N", h_loop, "replay N times (0: until SIGINT; default 1)"},
	{"preload", 0, NULL, h_preload, "read the whole file into memory first"},
	SECTION("Filters (a packet is sent when it passes all of them)"),
	{"qp", 0, "LIST", h_qp, "destination QPs, comma-separated"},
	{"opcode", 0, "LIST", h_opcode, "opcodes by name (RC_SEND_ONLY) or number"},
	{"frames", 0, "FIRST-LAST", h_frames, "frame numbers in the file, from 1"},
	{"time", 0, "FROM-TO", h_time, "seconds after the first frame"},
	{"filter", 'f', "EXPR", h_filter, "fields compared, Wireshark-like: 'bth.destqp == 0x11 && !(bth.opcode == RC_ACKNOWLEDGE)'"},
	SECTION("Reports"),
	{"summary-json", 'j', "FILE", h_summary, "the final statistics as JSON (- for stdout)"},
	{"progress", 0, NULL, h_progress, "a progress line every second (default: on a terminal)"},
	{"no-progress", 0, NULL, h_no_progress, "no progress line"},
	{"quiet", 'q', NULL, h_quiet, "no final statistics on stderr"},
};
#define N_OPTS (sizeof(table) / sizeof(table[0]))

void rp_usage(FILE *f)
{
	fputs("Usage: rocewire-replay [EAL options --] [options] FILE\n"
	      "\n"
	      "Replays a pcap or pcapng capture, rewriting MACs, addresses, ports, QPs, PSNs,\n"
	      "keys and VLAN tags, with every RoCE ICRC re-signed incrementally.\n"
	      "Outputs: -i IF (AF_PACKET), -w FILE (a pcap through DPDK net_pcap), or any DPDK\n"
	      "port from EAL options given before \"--\", e.g.\n"
	      "  rocewire-replay --no-huge --no-pci -m 512 --vdev=net_null0 -- -t cap.pcap\n"
	      "\n",
	      f);
	for (size_t i = 0; i < N_OPTS; i++) {
		const struct opt *t = &table[i];
		char left[64];
		if (!t->help) {
			fprintf(f, "%s%s:\n", i ? "\n" : "", t->name);
			continue;
		}
		if (t->shortc)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", t->shortc, t->name, t->arg ? " " : "",
				 t->arg ? t->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", t->name, t->arg ? " " : "",
				 t->arg ? t->arg : "");
		if (strlen(left) > 28)
			fprintf(f, "  %s\n  %-28s %s\n", left, "", t->help);
		else
			fprintf(f, "  %-28s %s\n", left, t->help);
	}
	fputs("  -h, --help                   this text\n"
	      "  -V, --version                the version\n"
	      "\n"
	      "Snaplen-cut frames are never sent (skipped and counted). Exit status: 0 done,\n"
	      "1 a runtime failure, 2 bad options or bad input (one line on stderr).\n"
	      "See rocewire-replay(1).\n",
	      f);
}

const char *rp_version_libs;

int rp_opts_parse(int argc, char **argv, struct rp_opts *o, char *err, size_t errlen)
{
	struct option lo[N_OPTS + 3];
	char shorts[3 * N_OPTS + 8];
	size_t nl = 0, ns = 0;
	struct ctx c = {o, NULL, err, errlen};

	memset(o, 0, sizeof(*o));
	rw_rewrite_init(&o->rw);
	o->multiplier = 1;
	o->loops = 1;
	o->seed = 1;
	o->burst = 32;
	o->progress = -1;
	o->frame_last = UINT64_MAX;
	shorts[ns++] = ':'; /* a missing argument answers ':' */
	for (size_t i = 0; i < N_OPTS; i++) {
		if (!table[i].help)
			continue;
		lo[nl++] = (struct option){table[i].name, table[i].arg ? required_argument : no_argument,
					   NULL, (int)(1000 + i)};
		if (table[i].shortc) {
			shorts[ns++] = (char)table[i].shortc;
			if (table[i].arg)
				shorts[ns++] = ':';
		}
	}
	lo[nl++] = (struct option){"help", no_argument, NULL, 'h'};
	lo[nl++] = (struct option){"version", no_argument, NULL, 'V'};
	lo[nl] = (struct option){NULL, 0, NULL, 0};
	memcpy(shorts + ns, "hV", 3);
	/* Hidden: the long options, one a line, for the bash completion. */
	if (argc == 2 && strcmp(argv[1], "--list-options") == 0) {
		for (const struct option *p = lo; p->name; p++)
			printf("--%s%s\n", p->name, p->has_arg == required_argument ? "=" : "");
		return 1;
	}

	optind = 1;
	opterr = 0;
	for (;;) {
		int idx = -1;
		int ch = getopt_long(argc, argv, shorts, lo, &idx);
		if (ch == -1)
			break;
		if (ch == 'h') {
			rp_usage(stdout);
			return 1;
		}
		if (ch == 'V') {
			printf("rocewire-replay %s (librocewire %s%s%s)\n", ROCEWIRE_VERSION,
			       ROCEWIRE_VERSION, rp_version_libs ? ", " : "",
			       rp_version_libs ? rp_version_libs : "");
			return 1;
		}
		if (ch == ':') {
			if (optopt >= 1000 && optopt < 1000 + (int)N_OPTS)
				snprintf(err, errlen, "--%s needs an argument; see --help", table[optopt - 1000].name);
			else
				snprintf(err, errlen, "-%c needs an argument; see --help", optopt);
			return -1;
		}
		if (ch == '?') {
			if (optopt > 0 && optopt < 256)
				snprintf(err, errlen, "unknown option -%c; see --help", optopt);
			else
				snprintf(err, errlen, "unknown option %s; see --help", argv[optind - 1]);
			return -1;
		}
		size_t i = ch >= 1000 ? (size_t)(ch - 1000) : N_OPTS;
		for (size_t k = 0; i == N_OPTS && k < N_OPTS; k++)
			if (table[k].help && table[k].shortc == ch)
				i = k;
		c.name = table[i].name;
		if (table[i].fn(&c, optarg) != 0)
			return -1;
	}
	if (optind >= argc) {
		snprintf(err, errlen, "no capture file given; see --help");
		return -1;
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "%s: one capture file only; see --help", argv[optind + 1]);
		return -1;
	}
	o->input = argv[optind];
	return 0;
}
