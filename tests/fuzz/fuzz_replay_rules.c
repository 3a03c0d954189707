/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: rocewire-replay's rules, its --filter expressions
 * (replay/filter.c) and every option its parser takes (replay/opts.c:
 * --map-ip, --map-qpn, --map-rkey, --map-va, --psn-offset, the VLAN rules,
 * MACs, small numbers, filters, timing).
 *
 * Input: records separated by '\n', each "KIND TEXT": KIND an option name
 * without its dashes (map-ip, filter, ...), or any other word, whose first
 * byte then picks one of them; TEXT the rest of the record, the option's
 * argument. Each record is parsed alone ("--KIND=TEXT" through
 * rp_opts_parse; a filter is compiled by rp_filter_compile too and matched
 * against a known frame), then all of them together; rules that parse are
 * applied by rw_rewrite_apply to that frame, whose result is decoded back.
 * A refusal must be one line of text; nothing may crash or leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "opts.h"
#include "rocewire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                          \
	do {                                                                                                 \
		if (!(cond)) {                                                                               \
			fprintf(stderr, "fuzz_replay_rules: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                                      \
			abort();                                                                             \
		}                                                                                            \
	} while (0)

/* The options of replay/opts.c's table but --help, --version and the
 * output's file names (stored, never parsed). */
static const char *const kinds[] = {
	"filter",    "map-ip",     "map-qpn",      "map-rkey",   "map-va",      "psn-offset", "src-mac",
	"dst-mac",   "udp-sport",  "dscp",         "ecn",        "ttl",         "pkey",       "udp-csum",
	"vlan-add",  "vlan-retag", "vlan-strip",   "to-v1",      "to-v2",       "fix-icrc",   "corrupt-icrc",
	"seed",      "qp",         "opcode",       "frames",     "time",        "multiplier", "pps",
	"mbps",      "topspeed",   "loop",         "preload",    "port",        "burst",      "iface",
};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))
/* Options without an argument. */
static int no_arg(const char *k)
{
	static const char *const flags[] = { "vlan-strip", "to-v1", "to-v2", "fix-icrc", "topspeed", "preload" };
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (strcmp(k, flags[i]) == 0)
			return 1;
	return 0;
}

#define MAX_RECORDS 32

/* The UC SEND_ONLY known-answer frame of shared/notes/icrc.md (as in
 * tests/unit/test_replay_opts.c), with room to grow by a VLAN tag and a
 * conversion. */
static const char uc_hex[] = "248a07a8fa22248a07a8fa220800"
			     "45010040047840004011b4d5c0a80007c0a80007c00012b7002caca2"
			     "2460ffff000000d300cf17104630818be28935d90e9a95505401be885e500000"
			     "78f353f3";

static size_t unhex(const char *h, uint8_t *out, size_t cap)
{
	size_t n = 0;
	for (; h[0] && h[1] && n < cap; h += 2) {
		unsigned v;
		CHECK(sscanf(h, "%2x", &v) == 1);
		out[n++] = (uint8_t)v;
	}
	return n;
}

static void one_line(const char *err)
{
	CHECK(err[0] != 0);
	CHECK(strchr(err, '\n') == NULL);
}

static int parse(char **args, int n, struct rp_opts *o, char *err, size_t cap)
{
	char *argv[2 * MAX_RECORDS + 4];
	int argc = 0;
	argv[argc++] = "rocewire-replay";
	for (int i = 0; i < n; i++)
		argv[argc++] = args[i];
	argv[argc++] = "x.pcap";
	argv[argc] = NULL;
	err[0] = 0;
	int rc = rp_opts_parse(argc, argv, o, err, cap);
	CHECK(rc == 0 || rc == -1);
	if (rc)
		one_line(err);
	return rc;
}

static void apply(const struct rp_opts *o)
{
	static uint8_t frame[256];
	struct rw_packet p, q;
	size_t n = unhex(uc_hex, frame, sizeof(frame));
	CHECK(rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, frame, n, n, &p) == RW_OK);
	if (o->have_filter)
		(void)rp_filter_match(&o->filter, &p, (uint32_t)n);
	struct rw_rewrite_result res;
	struct rw_rewrite_cache cache;
	memset(&cache, 0, sizeof(cache));
	enum rw_err e = rw_rewrite_apply(&o->rw, &cache, &p, frame, &n, sizeof(frame), &res);
	CHECK(n <= sizeof(frame));
	if (e == RW_OK)
		(void)rw_packet_decode(NULL, RW_LINKTYPE_ETHERNET, frame, n, n, &q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* NUL-terminated records, each made an argument "--KIND=TEXT". */
	char *text = malloc(size + 1);
	char *args[MAX_RECORDS];
	int n = 0;
	CHECK(text);
	memcpy(text, data, size);
	text[size] = 0;
	static struct rp_opts o;
	char err[512];
	for (char *r = text, *next; r && n < MAX_RECORDS; r = next) {
		next = strchr(r, '\n');
		if (next)
			*next++ = 0;
		size_t kl = strcspn(r, " ");
		const char *kind = NULL;
		for (size_t k = 0; k < N_KINDS && !kind; k++)
			if (strlen(kinds[k]) == kl && strncmp(r, kinds[k], kl) == 0)
				kind = kinds[k];
		if (!kind)
			kind = kinds[(unsigned char)r[0] % N_KINDS];
		const char *arg = r[kl] ? r + kl + 1 : r + kl;
		size_t al = strlen(kind) + strlen(arg) + 4;
		char *a = malloc(al);
		CHECK(a);
		if (no_arg(kind) && !*arg)
			snprintf(a, al, "--%s", kind);
		else
			snprintf(a, al, "--%s=%s", kind, arg);
		args[n++] = a;

		if (strcmp(kind, "filter") == 0) {
			static struct rp_filter f;
			if (rp_filter_compile(arg, &f, err, sizeof(err)) == 0) {
				CHECK(f.count >= 1 && f.count <= RP_FILTER_MAX_NODES);
				CHECK(f.root >= 0 && f.root < f.count);
				static struct rw_packet zero;
				(void)rp_filter_match(&f, &zero, 0);
			} else {
				one_line(err);
			}
		}
		if (parse(&args[n - 1], 1, &o, err, sizeof(err)) == 0)
			apply(&o);
	}
	if (n > 1 && parse(args, n, &o, err, sizeof(err)) == 0)
		apply(&o);
	for (int i = 0; i < n; i++)
		free(args[i]);
	free(text);
	return 0;
}
