/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-gen's options: one table (optab.h) drives parsing, --help and
 * the completion's list. */
#include "opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <rte_version.h>
#include <yaml.h>

#include "optab.h"
#include "scenario.h"

#ifndef ROCEWIRE_VERSION
#define ROCEWIRE_VERSION "0"
#endif

static struct gen_opts *O(struct rw_optctx *c)
{
	return c->o;
}

static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s == '-' || *s == '\0')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end != '\0' || errno != 0 || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int h_write(struct rw_optctx *c, const char *arg)
{
	if (!*arg)
		return rw_opt_fail(c, "empty file name");
	O(c)->write = arg;
	return 0;
}

static int h_port(struct rw_optctx *c, const char *arg)
{
	uint64_t v;

	if (parse_u64(arg, 0, 1023, &v) != 0)
		return rw_opt_fail(c, "expected a port id 0..1023, got '%s'", arg);
	O(c)->port = (int)v;
	return 0;
}

static int h_queues(struct rw_optctx *c, const char *arg)
{
	uint64_t v;

	if (parse_u64(arg, 1, 128, &v) != 0)
		return rw_opt_fail(c, "expected 1..128, got '%s'", arg);
	O(c)->queues = (uint32_t)v;
	return 0;
}

static int h_duration(struct rw_optctx *c, const char *arg)
{
	if (gen_parse_duration(arg, 0, &O(c)->duration_ns) != 0 || O(c)->duration_ns == 0)
		return rw_opt_fail(c, "expected a time above 0 such as 10ms, 2s or 500us, got '%s'", arg);
	O(c)->have_duration = 1;
	return 0;
}

static int h_packets(struct rw_optctx *c, const char *arg)
{
	if (parse_u64(arg, 1, UINT64_MAX, &O(c)->packets) != 0)
		return rw_opt_fail(c, "expected a count above 0, got '%s'", arg);
	O(c)->have_packets = 1;
	return 0;
}

static int h_pace(struct rw_optctx *c, const char *arg)
{
	if (strcmp(arg, "real") == 0)
		O(c)->pace = GEN_PACE_REAL;
	else if (strcmp(arg, "none") == 0)
		O(c)->pace = GEN_PACE_NONE;
	else if (strcmp(arg, "auto") == 0)
		O(c)->pace = GEN_PACE_AUTO;
	else
		return rw_opt_fail(c, "expected real, none or auto, got '%s'", arg);
	return 0;
}

static int h_role(struct rw_optctx *c, const char *arg)
{
	if (strcmp(arg, "responder") == 0)
		O(c)->role = GEN_ROLE_RESPONDER;
	else if (strcmp(arg, "both") == 0)
		O(c)->role = GEN_ROLE_BOTH;
	else
		return rw_opt_fail(c, "expected responder or both, got '%s'", arg);
	return 0;
}

static int h_burst(struct rw_optctx *c, const char *arg)
{
	uint64_t v;

	if (parse_u64(arg, 1, 512, &v) != 0)
		return rw_opt_fail(c, "expected 1..512, got '%s'", arg);
	O(c)->burst = (uint32_t)v;
	return 0;
}

static int h_mbufs(struct rw_optctx *c, const char *arg)
{
	if (parse_u64(arg, 1023, 1u << 22, &O(c)->mbufs) != 0)
		return rw_opt_fail(c, "expected 1023..4194304, got '%s'", arg);
	return 0;
}

static int h_summary(struct rw_optctx *c, const char *arg)
{
	O(c)->summary_json = arg;
	return 0;
}

static int h_truth(struct rw_optctx *c, const char *arg)
{
	if (!*arg || strcmp(arg, "-") == 0)
		return rw_opt_fail(c, "expected a file name, got '%s'", arg);
	O(c)->truth_jsonl = arg;
	return 0;
}

static int h_status(struct rw_optctx *c, const char *arg)
{
	(void)arg;
	O(c)->status = 1;
	return 0;
}

static int h_no_status(struct rw_optctx *c, const char *arg)
{
	(void)arg;
	O(c)->status = 0;
	return 0;
}

static int h_check(struct rw_optctx *c, const char *arg)
{
	(void)arg;
	O(c)->check = 1;
	return 0;
}

static int h_quiet(struct rw_optctx *c, const char *arg)
{
	(void)arg;
	O(c)->quiet = 1;
	return 0;
}

/* One row per option: getopt_long, --help, --list-options (the bash
 * completion) and, by test, the man page's OPTIONS. */
static const struct rw_opt table[] = {
	{"Options", 0, NULL, NULL, NULL},
	{"write", 'w', "FILE", h_write, "pcap to write when no EAL options are given\n"
					"(default: rocewire-gen.pcap)"},
	{"port", 'p', "N", h_port, "DPDK port to send on (default 0)"},
	{"queues", 'q', "N", h_queues, "TX queues, one worker lcore each; flows are spread\n"
				       "over them (default: one per worker lcore)"},
	{"duration", 'd', "TIME", h_duration, "start no message after this time on the model's\n"
					      "clock (10ms, 2s, ...), instead of the scenario's\n"
					      "duration; the messages under way finish"},
	{"packets", 'n', "N", h_packets, "start no message after N packets in all, instead\n"
					 "of the scenario's limit; the messages under way\n"
					 "finish"},
	{"pace", 0, "real|none|auto", h_pace, "real: send each packet at its time on the wall\n"
					      "clock; none: as fast as the port takes (a pcap's\n"
					      "timestamps still come from the model); auto\n"
					      "(default): real on a real port, none on net_pcap\n"
					      "and net_null"},
	{"role", 0, "responder|both", h_role, "responder: closed loop (congestion mode closed_loop):\n"
					      "send no requests; answer CE-marked requests received\n"
					      "on the port with CNPs, as the scenario's receivers'\n"
					      "notification points, and RC requests as an RC\n"
					      "responder (ACKs, sequence NAKs, READ responses,\n"
					      "atomic ACKs). The requester side is a normal run: it\n"
					      "reads CNPs, PFC and, for `responder: external` RC\n"
					      "flows, the answers from its port. both: the default"},
	{"burst", 'b', "N", h_burst, "TX burst size (default 32)"},
	{"mbufs", 0, "N", h_mbufs, "mbufs per queue (default 8191)"},
	{"summary-json", 'j', "FILE", h_summary, "write the final summary as JSON (- for stdout)"},
	{"truth-jsonl", 0, "FILE", h_truth, "write the model's ground truth, one JSON line per\n"
					    "packet made (captured or dropped before the tap):\n"
					    "its frame, why it was resent, its message, whether\n"
					    "it completed it, CE, pause, the CE mark a CNP\n"
					    "answers (rocewire-gen(1), TRUTH FILE). One queue;\n"
					    "not in the closed loop; the lockstep stream sends\n"
					    "by the model's clock instead"},
	{"status", 0, NULL, h_status, "a status line every second (default: on a terminal)"},
	{"no-status", 0, NULL, h_no_status, "no status line"},
	{"check", 0, NULL, h_check, "load and check the scenario, print what it runs, exit"},
	{"quiet", 'Q', NULL, h_quiet, "no summary on stderr"},
	{"help", 'h', NULL, NULL, "this text"},
	{"version", 'V', NULL, NULL, "the version"},
};
#define N_OPTS (sizeof(table) / sizeof(table[0]))

void gen_usage(FILE *f)
{
	fputs("Usage: rocewire-gen [EAL options --] [options] [SCENARIO.yaml]\n"
	      "\n"
	      "Generates protocol-correct RoCEv2 conversations (both ends: requests,\n"
	      "ACKs/NAKs, READ responses, atomic ACKs, go-back-N after injected faults)\n"
	      "through DPDK, every ICRC valid unless a scenario corrupts it.\n"
	      "\n"
	      "With no SCENARIO the built-in default runs (a clean RC WRITE/READ/SEND mix).\n"
	      "With no EAL options, DPDK runs without hugepages or PCI and the frames go\n"
	      "to a pcap file (-w) through net_pcap. Any DPDK port works instead, e.g.\n"
	      "  rocewire-gen -l 0-2 --vdev=net_af_packet0,iface=veth0 -- s.yaml\n"
	      "  rocewire-gen -l 0-1 --no-huge --no-pci --vdev=net_null0 -- --duration 5s\n"
	      "\n",
	      f);
	rw_optab_usage(f, table, N_OPTS);
	fputs("\n"
	      "Exit status: 0 done, 1 a runtime failure (DPDK, port, file), 2 bad options or\n"
	      "a bad scenario (one line: FILE:LINE:COLUMN: what was expected).\n"
	      "SIGINT or SIGTERM stops cleanly: the pcap and the summary stay whole.\n"
	      "See rocewire-gen(1) and gen/README-scenario.md for the scenario format.\n",
	      f);
}

int gen_opts_parse(int argc, char **argv, struct gen_opts *o, char *err, size_t errlen)
{
	struct rw_optctx c = {o, NULL, err, errlen};

	/* Hidden: the long options, one a line, for the bash completion. */
	if (argc == 2 && strcmp(argv[1], "--list-options") == 0) {
		rw_optab_list(stdout, table, N_OPTS);
		return 1;
	}
	memset(o, 0, sizeof(*o));
	o->write = "rocewire-gen.pcap";
	o->burst = 32;
	o->status = -1;
	o->mbufs = 8191;
	optind = 1;
	switch (rw_optab_parse(table, N_OPTS, "", argc, argv, &c)) {
	case 0:
		break;
	case 'h':
		gen_usage(stdout);
		return 1;
	case 'V':
		printf("rocewire-gen %s (librocewire %s, %s, libyaml %s, jansson %s)\n", ROCEWIRE_VERSION,
		       ROCEWIRE_VERSION, rte_version(), yaml_get_version_string(), JANSSON_VERSION);
		return 1;
	default:
		return -1;
	}
	if (optind < argc)
		o->scenario = argv[optind++];
	if (optind < argc) {
		snprintf(err, errlen, "one scenario file at most, got also '%s'", argv[optind]);
		return -1;
	}
	return 0;
}
