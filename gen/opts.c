/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-gen's options. */
#include "opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <rte_version.h>
#include <yaml.h>

#include "scenario.h"

#ifndef ROCEWIRE_VERSION
#define ROCEWIRE_VERSION "0"
#endif

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
	      "\n"
	      "Options:\n"
	      "  -w, --write FILE         pcap to write when no EAL options are given\n"
	      "                           (default: rocewire-gen.pcap)\n"
	      "  -p, --port N             DPDK port to send on (default 0)\n"
	      "  -q, --queues N           TX queues, one worker lcore each; flows are spread\n"
	      "                           over them (default: one per worker lcore)\n"
	      "  -d, --duration TIME      start no message after this time on the model's\n"
	      "                           clock (10ms, 2s, ...), instead of the scenario's\n"
	      "                           duration; the messages under way finish\n"
	      "  -n, --packets N          start no message after N packets in all, instead\n"
	      "                           of the scenario's limit; the messages under way\n"
	      "                           finish\n"
	      "      --pace real|none|auto\n"
	      "                           real: send each packet at its time on the wall\n"
	      "                           clock; none: as fast as the port takes (a pcap's\n"
	      "                           timestamps still come from the model); auto\n"
	      "                           (default): real on a real port, none on net_pcap\n"
	      "                           and net_null\n"
	      "      --role responder     closed loop (congestion mode closed_loop): send no\n"
	      "                           requests; answer CE-marked requests received on the\n"
	      "                           port with CNPs, as the scenario's receivers'\n"
	      "                           notification points, and RC requests as an RC\n"
	      "                           responder (ACKs, sequence NAKs, READ responses,\n"
	      "                           atomic ACKs). The requester side is a normal run: it\n"
	      "                           reads CNPs, PFC and, for `responder: external` RC\n"
	      "                           flows, the answers from its port\n"
	      "  -b, --burst N            TX burst size (default 32)\n"
	      "      --mbufs N            mbufs per queue (default 8191)\n"
	      "  -j, --summary-json FILE  write the final summary as JSON (- for stdout)\n"
	      "      --truth-jsonl FILE   write the model's ground truth, one JSON line per\n"
	      "                           packet made (captured or dropped before the tap):\n"
	      "                           its frame, why it was resent, its message, whether\n"
	      "                           it completed it, CE, pause, the CE mark a CNP\n"
	      "                           answers (rocewire-gen(1), TRUTH FILE). One queue;\n"
	      "                           not in the closed loop; the lockstep stream sends\n"
	      "                           by the model's clock instead\n"
	      "      --status / --no-status\n"
	      "                           a status line every second (default: on a terminal)\n"
	      "      --check              load and check the scenario, print what it runs, exit\n"
	      "  -Q, --quiet              no summary on stderr\n"
	      "  -h, --help               this text\n"
	      "  -V, --version            the version\n"
	      "\n"
	      "Exit status: 0 done, 1 a runtime failure (DPDK, port, file), 2 bad options or\n"
	      "a bad scenario (one line: FILE:LINE:COLUMN: what was expected).\n"
	      "SIGINT or SIGTERM stops cleanly: the pcap and the summary stay whole.\n"
	      "See rocewire-gen(1) and gen/README-scenario.md for the scenario format.\n",
	      f);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
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

enum {
	OPT_PACE = 256,
	OPT_ROLE,
	OPT_MBUFS,
	OPT_STATUS,
	OPT_NO_STATUS,
	OPT_CHECK,
	OPT_TRUTH,
};

int gen_opts_parse(int argc, char **argv, struct gen_opts *o, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{"write", required_argument, NULL, 'w'},
		{"port", required_argument, NULL, 'p'},
		{"queues", required_argument, NULL, 'q'},
		{"duration", required_argument, NULL, 'd'},
		{"packets", required_argument, NULL, 'n'},
		{"pace", required_argument, NULL, OPT_PACE},
		{"role", required_argument, NULL, OPT_ROLE},
		{"burst", required_argument, NULL, 'b'},
		{"mbufs", required_argument, NULL, OPT_MBUFS},
		{"summary-json", required_argument, NULL, 'j'},
		{"truth-jsonl", required_argument, NULL, OPT_TRUTH},
		{"status", no_argument, NULL, OPT_STATUS},
		{"no-status", no_argument, NULL, OPT_NO_STATUS},
		{"check", no_argument, NULL, OPT_CHECK},
		{"quiet", no_argument, NULL, 'Q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	uint64_t v;
	int c;

	/* Hidden: the long options, one a line, for the bash completion. */
	if (argc == 2 && strcmp(argv[1], "--list-options") == 0) {
		for (const struct option *lo = longopts; lo->name; lo++)
			printf("--%s%s\n", lo->name, lo->has_arg == required_argument ? "=" : "");
		return 1;
	}
	memset(o, 0, sizeof(*o));
	o->write = "rocewire-gen.pcap";
	o->burst = 32;
	o->status = -1;
	o->mbufs = 8191;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":w:p:q:d:n:b:j:QhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (!*optarg)
				return fail(err, errlen, "--write: empty file name");
			o->write = optarg;
			break;
		case 'p':
			if (parse_u64(optarg, 0, 1023, &v) != 0)
				return fail(err, errlen, "--port: expected a port id 0..1023, got '%s'", optarg);
			o->port = (int)v;
			break;
		case 'q':
			if (parse_u64(optarg, 1, 128, &v) != 0)
				return fail(err, errlen, "--queues: expected 1..128, got '%s'", optarg);
			o->queues = (uint32_t)v;
			break;
		case 'd':
			if (gen_parse_duration(optarg, 0, &o->duration_ns) != 0 || o->duration_ns == 0)
				return fail(err, errlen,
					    "--duration: expected a time above 0 such as 10ms, 2s or 500us, got '%s'",
					    optarg);
			o->have_duration = 1;
			break;
		case 'n':
			if (parse_u64(optarg, 1, UINT64_MAX, &o->packets) != 0)
				return fail(err, errlen, "--packets: expected a count above 0, got '%s'", optarg);
			o->have_packets = 1;
			break;
		case OPT_ROLE:
			if (strcmp(optarg, "responder") == 0)
				o->role = GEN_ROLE_RESPONDER;
			else if (strcmp(optarg, "both") == 0)
				o->role = GEN_ROLE_BOTH;
			else
				return fail(err, errlen, "--role: expected responder or both, got '%s'", optarg);
			break;
		case OPT_PACE:
			if (strcmp(optarg, "real") == 0)
				o->pace = GEN_PACE_REAL;
			else if (strcmp(optarg, "none") == 0)
				o->pace = GEN_PACE_NONE;
			else if (strcmp(optarg, "auto") == 0)
				o->pace = GEN_PACE_AUTO;
			else
				return fail(err, errlen, "--pace: expected real, none or auto, got '%s'", optarg);
			break;
		case 'b':
			if (parse_u64(optarg, 1, 512, &v) != 0)
				return fail(err, errlen, "--burst: expected 1..512, got '%s'", optarg);
			o->burst = (uint32_t)v;
			break;
		case OPT_MBUFS:
			if (parse_u64(optarg, 1023, 1u << 22, &o->mbufs) != 0)
				return fail(err, errlen, "--mbufs: expected 1023..4194304, got '%s'", optarg);
			break;
		case 'j':
			o->summary_json = optarg;
			break;
		case OPT_TRUTH:
			if (!*optarg || strcmp(optarg, "-") == 0)
				return fail(err, errlen, "--truth-jsonl: expected a file name, got '%s'", optarg);
			o->truth_jsonl = optarg;
			break;
		case OPT_STATUS:
			o->status = 1;
			break;
		case OPT_NO_STATUS:
			o->status = 0;
			break;
		case OPT_CHECK:
			o->check = 1;
			break;
		case 'Q':
			o->quiet = 1;
			break;
		case 'h':
			gen_usage(stdout);
			return 1;
		case 'V':
			printf("rocewire-gen %s (librocewire %s, %s, libyaml %s, jansson %s)\n",
			       ROCEWIRE_VERSION, ROCEWIRE_VERSION, rte_version(), yaml_get_version_string(),
			       JANSSON_VERSION);
			return 1;
		case ':':
			return fail(err, errlen, "option '%s' needs a value (see --help)", argv[optind - 1]);
		default:
			return fail(err, errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->scenario = argv[optind++];
	if (optind < argc)
		return fail(err, errlen, "one scenario file at most, got also '%s'", argv[optind]);
	return 0;
}
