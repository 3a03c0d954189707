/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-cap: options, usage, the loop over the input files, the live
 * capture loop, and the per-QP report. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cap.h"
#include "pipeline.h"
#include "fmt.h"
#include "report.h"

#define DEFAULT_MAX_WARNINGS 10
#define DEFAULT_STATUS_SECS 5
#define DEFAULT_LINK_GBPS 100.0
/* The live table keeps rates for this many flows (the first seen). */
#define VIEW_FLOWS 4096u
#define DEFAULT_STORM_MS 10.0
#define DEFAULT_CNP_WINDOW_US 1000.0
/* The longest the live loop waits without looking at the clock, signals,
 * -c and --duration. */
#define LIVE_WAIT_MS 200

static const char usage_text[] =
	"Usage: " CAP_PROG " -r FILE [-r FILE]... [OPTION]... [FILE]...\n"
	"       " CAP_PROG " -i IFACE [-w FILE] [OPTION]...\n"
	"       " CAP_PROG " -D\n"
	"\n"
	"Decode RoCEv2, RoCEv1, native InfiniBand and PFC/PAUSE frames from pcap or\n"
	"pcapng files or from a live interface, verify their ICRC and VCRC, and print\n"
	"one line per packet, a live per-QP table, or a per-QP report. A summary\n"
	"(packets per carrier and opcode, ICRC/VCRC results, decode errors, and for a\n"
	"live capture the packets lost) is printed on standard error at the end.\n"
	"\n"
	"Input:\n"
	"  -r, --read FILE       read packets from FILE, pcap or pcapng (\"-\" is standard\n"
	"                        input). Repeat -r, or name more files after the\n"
	"                        options, to decode several files in turn.\n"
	"                        Link types: Ethernet (1), Linux SLL (113), Linux SLL2\n"
	"                        (276), ERF (197), InfiniBand (247).\n"
	"  -i, --interface IFACE capture live on IFACE; \"any\" captures on every\n"
	"                        interface (Linux cooked headers); rdma:DEVICE[:PORT]\n"
	"                        captures all the traffic of an RDMA NIC's port through\n"
	"                        a sniffer flow, including the RoCE traffic the kernel\n"
	"                        never sees (libibverbs; ConnectX-4 or later);\n"
	"                        'dpdk:EAL-OPTIONS' captures a DPDK port (a NIC bound\n"
	"                        to DPDK, or --vdev=net_af_packet0,iface=IF), run by\n"
	"                        rocewire-cap-dpdk\n"
	"  -D, --list-interfaces list the interfaces and RDMA devices, and exit\n"
	"  -c, --count N         stop after N packets (counted over all files)\n"
	"      --duration SEC    live: stop after SEC seconds (decimals allowed)\n"
	"      --port N          UDP destination port that carries RoCEv2 (default 4791)\n"
	"      --no-icrc         do not compute ICRC/VCRC (faster; not verified)\n"
	"\n"
	"Live capture (-i):\n"
	"  -f, --filter EXPR     capture what the libpcap filter EXPR selects, instead\n"
	"                        of the default: RoCEv2 (UDP to --port), RoCEv1\n"
	"                        (ethertype 0x8915) and PFC/PAUSE (0x8808), untagged or\n"
	"                        behind one or two VLAN tags\n"
	"      --all             capture every packet (no filter)\n"
	"  -d, --dump-filter     print the compiled filter and exit: for -i IFACE, or\n"
	"                        for the link type of -y (default EN10MB)\n"
	"  -y, --linktype TYPE   capture with link type TYPE (EN10MB, LINUX_SLL,\n"
	"                        LINUX_SLL2), when the interface offers several\n"
	"  -s, --snaplen N       keep at most N bytes of each packet (default 16000,\n"
	"                        more than any Ethernet jumbo frame; 0: 262144)\n"
	"  -B, --buffer-size KIB kernel capture buffer in KiB (default: 20 ms at the\n"
	"                        interface's speed, at least 32768)\n"
	"  -p, --no-promiscuous-mode  do not put the interface in promiscuous mode\n"
	"  -w, --write FILE      write the packets to FILE (\"-\": standard output); pcap,\n"
	"                        or pcapng when FILE ends in .pcapng. Each file is\n"
	"                        written as a new FILE.XXXXXX.part and renamed to FILE\n"
	"                        once complete.\n"
	"      --pcap, --pcapng  the format of -w, whatever the name\n"
	"  -C, --file-size MB    start a new file rather than let one grow past MB\n"
	"                        million bytes (decimals allowed)\n"
	"  -G, --rotate-seconds S  start a new file every S seconds\n"
	"                        File names with -C/-G: FILE may be a strftime(3)\n"
	"                        pattern (trace-%Y%m%d-%H%M%S.pcap), expanded in local\n"
	"                        time when each file is opened; when a name would\n"
	"                        repeat, a number is appended: FILE, FILE1, FILE2, ...\n"
	"      --status SEC      seconds between status lines (default 5; 0: none)\n"
	"      --rx-queues N     dpdk: only: capture N RX queues of the port (RSS or\n"
	"                        the PMD spreads frames over them), spread over EAL's\n"
	"                        lcores (-l), each queue polled by one lcore and\n"
	"                        written to its own file: -w FILE gives FILE.q0,\n"
	"                        FILE.q1, ... (before a .pcap/.pcapng extension), each\n"
	"                        in its queue's order; merge them by time with\n"
	"                        mergecap. Every packet decoded and ICRC-checked on\n"
	"                        its lcore (the summary adds them up); no per-packet\n"
	"                        output, --report or --html (read the files with -r)\n"
	"\n"
	"Output (standard output):\n"
	"  (default)             reading files: one line per packet: time, carrier,\n"
	"                        addresses, opcode, dest QP, PSN, extension header\n"
	"                        fields, ECN when set, icrc ok | icrc BAD (wire X,\n"
	"                        computed Y).\n"
	"                        Capturing, on a terminal: a per-QP table (packets,\n"
	"                        Gb/s, PSN gaps, retransmissions, NAKs, CE marks, CNPs,\n"
	"                        PFC pauses) redrawn every second. Capturing, not on a\n"
	"                        terminal: one line per packet, none with -w, --report\n"
	"                        or --html; a status line (packets, rate, drops) on\n"
	"                        standard error every --status seconds.\n"
	"  -l, --lines           per-packet output even where it is off by default\n"
	"                        (capturing on a terminal, -w, --report, --html)\n"
	"  -v, --verbose         every field of every header, one per line\n"
	"      --json            one JSON object per packet (JSON Lines); 64-bit values\n"
	"                        are \"0x...\" strings, \"time\" is a string of epoch\n"
	"                        seconds with 9 decimals (schema: README-json.md)\n"
	"  -q, --quiet           no per-packet output and no live table: the summary only\n"
	"  -h, --help            show this help and exit\n"
	"      --version         show the version and exit\n"
	"      --max-warnings N  list at most N packets per input that did not decode\n"
	"                        fully on standard error (default 10; 0: all)\n"
	"\n"
	"Per-QP report (files or live; once the input ends):\n"
	"      --report          a per-QP report on standard output: a table, or with\n"
	"                        --json one JSON document; no per-packet output unless\n"
	"                        -l or -v (not with --json)\n"
	"      --html FILE       the report as a self-contained HTML page with plots\n"
	"      --qlen FILE       a bottleneck queue-length trace to draw on the HTML\n"
	"                        page's CE/CNP timeline (rocewire-gen's qlen output:\n"
	"                        CSV or JSON Lines, times from the first packet)\n"
	"      --link-gbps G     link speed that turns PFC quanta into time (default 100)\n"
	"      --storm-ms MS     a priority paused longer than MS is a storm (default 10)\n"
	"      --cnp-window-us US  a CNP links to CE marks up to US before it\n"
	"                        (default 1000)\n"
	"      --cnp-mode MODE   how the notification point is expected to pace its\n"
	"                        CNPs: qp (one per QP, the default), ip-pair or\n"
	"                        dest-ip; CNPs sooner than --cnp-min-us after the\n"
	"                        last of their key are violations (all three modes\n"
	"                        are counted in the report's totals)\n"
	"      --cnp-min-us US   the NIC's minimum time between CNPs (default 4,\n"
	"                        NVIDIA's min_time_between_cnps)\n"
	"      --max-flows N     flows analysed at most (default: no limit but\n"
	"                        --max-memory; a connection is two); packets of more\n"
	"                        flows are not analysed: the report and a warning on\n"
	"                        standard error say how many\n"
	"      --max-memory MB   memory the analysis may use (default 1024): enough for\n"
	"                        about 800,000 flows\n"
	"\n"
	"Errors are one line on standard error naming the file (or interface), the\n"
	"packet number and its byte offset in the file, and what was expected.\n"
	"SIGINT or SIGTERM ends a live capture cleanly: the file is completed and\n"
	"renamed, the report and summary printed; a second signal (half a second\n"
	"or more later) ends it at once.\n"
	"\n"
	"Exit status:\n"
	"  0  every packet decoded fully and every ICRC/VCRC was correct\n"
	"  1  a bad ICRC or VCRC, a packet that did not decode fully (malformed,\n"
	"     unsupported, or cut by the snapshot length), a file that ends inside\n"
	"     a record, or a live capture that lost packets (kernel or interface)\n"
	"  2  usage error, an input that cannot be opened or is not pcap/pcapng of a\n"
	"     supported link type, an interface that cannot be captured on, or output\n"
	"     that cannot be written\n"
	"\n"
	"Examples:\n"
	"  " CAP_PROG " -r trace.pcapng\n"
	"  " CAP_PROG " -q -r day1.pcap -r day2.pcap\n"
	"  " CAP_PROG " --json -r trace.pcap | jq 'select(.icrc.status == \"bad\")'\n"
	"  " CAP_PROG " -r trace.pcap --report --html report.html\n"
	"  " CAP_PROG " -i eth0 -w trace.pcapng\n"
	"  " CAP_PROG " -i eth0 -w 'roce-%H%M%S.pcap' -G 60 -C 1000 -q\n"
	"  " CAP_PROG " -i eth0 --lines | grep NAK\n";

enum {
	OPT_JSON = 256,
	OPT_PORT,
	OPT_NO_ICRC,
	OPT_MAX_WARNINGS,
	OPT_VERSION,
	OPT_DURATION,
	OPT_ALL,
	OPT_PCAP,
	OPT_PCAPNG,
	OPT_STATUS,
	OPT_REPORT,
	OPT_HTML,
	OPT_QLEN,
	OPT_LINK_GBPS,
	OPT_STORM_MS,
	OPT_CNP_WINDOW_US,
	OPT_MAX_FLOWS,
	OPT_MAX_MEMORY,
	OPT_CNP_MODE,
	OPT_CNP_MIN_US,
	OPT_RX_QUEUES,
};

static const struct option long_opts[] = {
	{"read", required_argument, NULL, 'r'},
	{"interface", required_argument, NULL, 'i'},
	{"list-interfaces", no_argument, NULL, 'D'},
	{"count", required_argument, NULL, 'c'},
	{"duration", required_argument, NULL, OPT_DURATION},
	{"port", required_argument, NULL, OPT_PORT},
	{"no-icrc", no_argument, NULL, OPT_NO_ICRC},
	{"filter", required_argument, NULL, 'f'},
	{"all", no_argument, NULL, OPT_ALL},
	{"dump-filter", no_argument, NULL, 'd'},
	{"linktype", required_argument, NULL, 'y'},
	{"snaplen", required_argument, NULL, 's'},
	{"buffer-size", required_argument, NULL, 'B'},
	{"no-promiscuous-mode", no_argument, NULL, 'p'},
	{"write", required_argument, NULL, 'w'},
	{"pcap", no_argument, NULL, OPT_PCAP},
	{"pcapng", no_argument, NULL, OPT_PCAPNG},
	{"file-size", required_argument, NULL, 'C'},
	{"rotate-seconds", required_argument, NULL, 'G'},
	{"status", required_argument, NULL, OPT_STATUS},
	{"rx-queues", required_argument, NULL, OPT_RX_QUEUES},
	{"lines", no_argument, NULL, 'l'},
	{"verbose", no_argument, NULL, 'v'},
	{"json", no_argument, NULL, OPT_JSON},
	{"quiet", no_argument, NULL, 'q'},
	{"max-warnings", required_argument, NULL, OPT_MAX_WARNINGS},
	{"report", no_argument, NULL, OPT_REPORT},
	{"html", required_argument, NULL, OPT_HTML},
	{"qlen", required_argument, NULL, OPT_QLEN},
	{"link-gbps", required_argument, NULL, OPT_LINK_GBPS},
	{"storm-ms", required_argument, NULL, OPT_STORM_MS},
	{"cnp-window-us", required_argument, NULL, OPT_CNP_WINDOW_US},
	{"max-flows", required_argument, NULL, OPT_MAX_FLOWS},
	{"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
	{"cnp-mode", required_argument, NULL, OPT_CNP_MODE},
	{"cnp-min-us", required_argument, NULL, OPT_CNP_MIN_US},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};

static const char short_opts[] = ":r:i:Dc:f:dy:s:B:pw:C:G:lvqh";

/* Names from argv, files or the system reach messages through cap_esc(): a
 * file name must not drive the terminal the message is printed on. */
#define NAME_SHOWN CAP_ESC_SIZE(4096)

/* A message line that may hold such names (the sources' err lines). */
static void error_line(const char *line)
{
	char buf[CAP_ESC_SIZE(sizeof(((struct cap_writer *)0)->err))];
	fprintf(stderr, "%s\n", cap_esc(buf, sizeof(buf), line));
}

/* One line: the problem and where to look, then exit 2. */
static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", CAP_PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; try '%s --help'\n", CAP_PROG);
	exit(CAP_EXIT_USAGE);
}

/* getopt_long() does not say whether "--ver" is unknown or matches several
 * options: list the candidates. */
static void unknown_long_option(const char *arg)
{
	char cands[512] = "", shown[NAME_SHOWN];
	size_t n = 0, len;
	int matches = 0;

	if (strncmp(arg, "--", 2) != 0)
		usage_error("unknown option '%s'", cap_esc(shown, sizeof(shown), arg));
	arg += 2;
	len = strcspn(arg, "=");
	for (const struct option *o = long_opts; o->name; o++) {
		if (strncmp(o->name, arg, len) != 0)
			continue;
		n += (size_t)snprintf(cands + n, sizeof(cands) - n, "%s--%s", matches ? ", " : "",
				      o->name);
		if (n >= sizeof(cands))
			n = sizeof(cands) - 1;
		matches++;
	}
	if (matches > 1) {
		char opt[128];
		snprintf(opt, sizeof(opt), "--%.*s", (int)(len < 100 ? len : 100), arg);
		usage_error("option '%s' is ambiguous (%s)", cap_esc(shown, sizeof(shown), opt),
			    cands);
	}
	usage_error("unknown option '--%s'", cap_esc(shown, sizeof(shown), arg));
}

/* The option as the user wrote it, for messages: "-c" or "--count". */
static const char *opt_name(int val, char *buf, size_t cap)
{
	for (const struct option *o = long_opts; o->name; o++) {
		if (o->val != val)
			continue;
		if (val < 256)
			snprintf(buf, cap, "-%c/--%s", val, o->name);
		else
			snprintf(buf, cap, "--%s", o->name);
		return buf;
	}
	snprintf(buf, cap, "-%c", val);
	return buf;
}

static void bad_value(int opt, const char *arg, const char *what) __attribute__((noreturn));

static void bad_value(int opt, const char *arg, const char *what)
{
	char name[40], shown[NAME_SHOWN];
	fprintf(stderr, "%s: %s: '%s' is not %s; try '%s --help'\n", CAP_PROG,
		opt_name(opt, name, sizeof(name)), cap_esc(shown, sizeof(shown), arg), what,
		CAP_PROG);
	exit(CAP_EXIT_USAGE);
}

/* what: the expected value in words, for the message. */
static uint64_t parse_number(int opt, const char *arg, uint64_t min, uint64_t max,
			     const char *what)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (arg[0] == '\0' || arg[0] == '-' || arg[0] == '+' || *end != '\0' || errno != 0 ||
	    v < min || v > max)
		bad_value(opt, arg, what);
	return v;
}

/* A decimal number above min (exclusive) and at most max. */
static double parse_decimal(int opt, const char *arg, double min, double max, const char *what)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (arg[0] == '\0' || arg[0] == '-' || arg[0] == '+' || *end != '\0' || errno != 0 ||
	    !isfinite(v) || v <= min || v > max || strchr(arg, 'x') || strchr(arg, 'X'))
		bad_value(opt, arg, what);
	return v;
}

static int parse_linktype(const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (arg[0] != '\0' && *end == '\0' && v >= 0 && v < 65536)
		return (int)v;
	int dlt = pcap_datalink_name_to_val(arg);
	if (dlt < 0)
		bad_value('y', arg, "a link type name (EN10MB, LINUX_SLL, LINUX_SLL2) or number");
	return dlt;
}

static void parse_args(int argc, char **argv, struct cap_opts *o)
{
	char name[40];
	int verbose = 0, json = 0, lines = 0, quiet = 0;
	int given_s = 0, given_B = 0, given_p = 0, given_status = 0, given_f = 0, given_y = 0;

	memset(o, 0, sizeof(*o));
	o->max_warnings = DEFAULT_MAX_WARNINGS;
	o->snaplen = CAP_DEFAULT_SNAPLEN;
	o->buffer_kib = CAP_DEFAULT_BUFFER_KIB;
	o->linktype = -1;
	o->status_secs = DEFAULT_STATUS_SECS;
	o->link_gbps = DEFAULT_LINK_GBPS;
	o->storm_ns = (uint64_t)(DEFAULT_STORM_MS * 1e6);
	o->cnp_window_ns = (uint64_t)(DEFAULT_CNP_WINDOW_US * 1e3);
	o->files = calloc((size_t)argc, sizeof(*o->files));
	if (!o->files) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		exit(CAP_EXIT_USAGE);
	}

	/* Hidden: the long options, one a line, for the bash completion. */
	if (argc == 2 && strcmp(argv[1], "--list-options") == 0) {
		for (const struct option *lo = long_opts; lo->name; lo++)
			printf("--%s%s\n", lo->name, lo->has_arg == required_argument ? "=" : "");
		exit(CAP_EXIT_OK);
	}
	opterr = 0; /* our messages, one line each */
	for (;;) {
		int c = getopt_long(argc, argv, short_opts, long_opts, NULL);
		if (c == -1)
			break;
		switch (c) {
		case 'r':
			o->files[o->n_files++] = optarg;
			break;
		case 'i':
			if (o->iface)
				usage_error("-i/--interface given twice: one interface per capture (or -i any)");
			if (optarg[0] == '\0')
				usage_error("-i/--interface: empty interface name");
			o->iface = optarg;
			break;
		case 'D':
			o->list_ifaces = 1;
			break;
		case 'c':
			o->count = parse_number(c, optarg, 1, UINT64_MAX, "a packet count (1 or more)");
			break;
		case OPT_RX_QUEUES:
			o->rx_queues = (unsigned)parse_number(c, optarg, 1, CAP_DPDK_MAX_QUEUES,
							      "a number of RX queues (1 to 64)");
			break;
		case OPT_DURATION:
			o->duration = parse_decimal(c, optarg, 0, 1e9, "a number of seconds above 0");
			break;
		case OPT_PORT:
			o->cfg.rocev2_port = (uint16_t)parse_number(c, optarg, 1, 65535, "a UDP port (1 to 65535)");
			break;
		case OPT_NO_ICRC:
			o->cfg.no_icrc_check = 1;
			break;
		case 'f':
			o->filter = optarg;
			given_f = 1;
			break;
		case OPT_ALL:
			o->all = 1;
			break;
		case 'd':
			o->dump_filter = 1;
			break;
		case 'y':
			o->linktype = parse_linktype(optarg);
			given_y = 1;
			break;
		case 's':
			o->snaplen = (uint32_t)parse_number(c, optarg, 0, CAP_MAX_SNAPLEN,
							    "a snapshot length (0 to 262144 bytes)");
			if (o->snaplen == 0)
				o->snaplen = CAP_MAX_SNAPLEN;
			given_s = 1;
			break;
		case 'B':
			o->buffer_kib = (uint32_t)parse_number(c, optarg, 1, 2097151,
							       "a buffer size in KiB (1 to 2097151)");
			given_B = 1;
			o->buffer_given = 1;
			break;
		case 'p':
			o->no_promisc = 1;
			given_p = 1;
			break;
		case 'w':
			if (optarg[0] == '\0')
				usage_error("-w/--write: empty file name");
			o->write_file = optarg;
			break;
		case OPT_PCAP:
			o->write_fmt = CAP_WFMT_PCAP;
			break;
		case OPT_PCAPNG:
			o->write_fmt = CAP_WFMT_PCAPNG;
			break;
		case 'C':
			o->rotate_bytes = (uint64_t)(parse_decimal(c, optarg, 0, 1e12,
								   "a size in millions of bytes above 0") *
						     1e6);
			if (o->rotate_bytes == 0)
				o->rotate_bytes = 1;
			break;
		case 'G':
			o->rotate_secs = (uint32_t)parse_number(c, optarg, 1, 31536000,
								"a number of seconds (1 or more)");
			break;
		case OPT_STATUS:
			o->status_secs = (unsigned)parse_number(c, optarg, 0, 86400,
								"a number of seconds (0 for none)");
			given_status = 1;
			break;
		case 'l':
			lines = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case OPT_JSON:
			json = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case OPT_MAX_WARNINGS:
			o->max_warnings = (unsigned)parse_number(c, optarg, 0, UINT32_MAX,
								       "a count (0 for no limit)");
			break;
		case OPT_REPORT:
			o->report = 1;
			break;
		case OPT_HTML:
			if (optarg[0] == '\0')
				usage_error("--html: empty file name");
			o->html = optarg;
			break;
		case OPT_QLEN:
			if (optarg[0] == '\0')
				usage_error("--qlen: empty file name");
			o->qlen_file = optarg;
			break;
		case OPT_LINK_GBPS:
			o->link_gbps = parse_decimal(c, optarg, 0, 1e6, "a link speed in Gb/s above 0");
			break;
		case OPT_STORM_MS:
			o->storm_ns = (uint64_t)(parse_decimal(c, optarg, 0, 1e9,
							       "a time in milliseconds above 0") * 1e6);
			break;
		case OPT_CNP_WINDOW_US:
			o->cnp_window_ns = (uint64_t)(parse_decimal(c, optarg, 0, 1e12,
								    "a time in microseconds above 0") * 1e3);
			break;
		case OPT_MAX_FLOWS:
			o->max_flows = (uint32_t)parse_number(c, optarg, 1, 16777216,
							      "a number of flows (1 to 16777216)");
			break;
		case OPT_MAX_MEMORY:
			o->mem_limit = (size_t)(parse_decimal(c, optarg, 0, 1048576,
							      "a size in MB above 0") * 1048576.0);
			break;
		case OPT_CNP_MIN_US:
			o->cnp_min_ns = (uint64_t)(parse_decimal(c, optarg, 0, 1e9,
								 "a time in microseconds above 0") * 1e3);
			break;
		case OPT_CNP_MODE: {
			unsigned m;
			for (m = 0; m < RW_CNP_MODES; m++) {
				/* the engine's keys use '_', the option '-' */
				char k[16];
				snprintf(k, sizeof(k), "%s", rw_cnp_mode_key((enum rw_cnp_mode)m));
				for (char *q = k; *q; q++)
					if (*q == '_')
						*q = '-';
				if (!strcmp(optarg, k))
					break;
			}
			if (m == RW_CNP_MODES) {
				char shown[256];
				usage_error("--cnp-mode: '%s' is not a pacing mode (qp, ip-pair or dest-ip)",
					    cap_esc(shown, sizeof(shown), optarg));
			}
			o->cnp_mode = (uint8_t)m;
			break;
		}
		case 'h':
			fputs(usage_text, stdout);
			exit(CAP_EXIT_OK);
		case OPT_VERSION:
			printf("%s %s (librocewire %s, %s, jansson %s, libibverbs %s%s)\n", CAP_PROG,
			       ROCEWIRE_VERSION, ROCEWIRE_VERSION, pcap_lib_version(), JANSSON_VERSION,
#if defined(ROCEWIRE_HAVE_VERBS) && defined(CAP_IBVERBS_VERSION)
			       CAP_IBVERBS_VERSION,
#elif defined(ROCEWIRE_HAVE_VERBS)
			       "yes",
#else
			       "no",
#endif
#ifdef CAP_WITH_DPDK
			       ", DPDK " CAP_DPDK_VERSION
#else
			       ""
#endif
			);
			exit(CAP_EXIT_OK);
		case ':':
			usage_error("option %s needs an argument", opt_name(optopt, name, sizeof(name)));
			break;
		case '?':
		default:
			if (optopt >= 256)
				usage_error("option %s takes no argument",
					    opt_name(optopt, name, sizeof(name)));
			if (optopt > 0 && optopt != '?') {
				char opt[2] = {(char)optopt, '\0'}, shown[CAP_ESC_SIZE(1)];
				usage_error("unknown option '-%s'", cap_esc(shown, sizeof(shown), opt));
			}
			unknown_long_option(argv[optind - 1]);
		}
	}
	for (int i = optind; i < argc; i++)
		o->files[o->n_files++] = argv[i];

	if (o->list_ifaces)
		return;
	if (o->dump_filter) {
		if (o->all)
			usage_error("-d prints the filter, and --all asks for none");
		if (o->n_files)
			usage_error("-d prints the capture filter; it does not read files");
		return;
	}

	if (verbose && json)
		usage_error("-v and --json cannot be combined");
	if (o->iface && o->n_files)
		usage_error("give either files to read (-r) or an interface to capture on (-i), not both");
	if (!o->iface && o->n_files == 0)
		usage_error("no input: give a capture file with -r FILE, or an interface with -i IFACE");
	if (!o->iface) {
		const char *live_only = o->write_file ? "-w/--write"
				       : o->rotate_bytes ? "-C/--file-size"
				       : o->rotate_secs ? "-G/--rotate-seconds"
				       : given_f ? "-f/--filter"
				       : o->all ? "--all"
				       : given_s ? "-s/--snaplen"
				       : given_B ? "-B/--buffer-size"
				       : given_p ? "-p/--no-promiscuous-mode"
				       : given_y ? "-y/--linktype"
				       : o->duration > 0 ? "--duration"
				       : given_status ? "--status"
				       : o->write_fmt ? "--pcap/--pcapng"
						      : NULL;
		if (live_only)
			usage_error("%s applies to a live capture (-i IFACE)", live_only);
	}
	if (o->filter && o->all)
		usage_error("-f gives a filter and --all asks for none: choose one");
	if ((o->rotate_bytes || o->rotate_secs || o->write_fmt) && !o->write_file)
		usage_error("%s needs -w FILE", o->rotate_bytes ? "-C/--file-size"
						: o->rotate_secs ? "-G/--rotate-seconds"
								 : "--pcap/--pcapng");
	int to_stdout = o->write_file && strcmp(o->write_file, "-") == 0;
	if (to_stdout && (o->rotate_bytes || o->rotate_secs))
		usage_error("-w - writes to standard output, which cannot be rotated (-C/-G)");
	if (o->report && json && (lines || verbose))
		usage_error("--report --json writes the report as one JSON document; per-packet "
			    "output (-l, -v) cannot be added to it");

	if (o->qlen_file && !o->html)
		usage_error("--qlen draws on the HTML report: give --html FILE too");
	o->format = json ? CAP_FMT_JSON : verbose ? CAP_FMT_VERBOSE : CAP_FMT_LINE;
	o->keep_report = o->report || o->html;

	/* Who gets standard output. */
	int stdout_tty = isatty(STDOUT_FILENO);
	int explicit_pp = lines || verbose || (json && !o->report);
	int pp;
	if (quiet)
		pp = 0;
	else if (explicit_pp)
		pp = 1;
	else if (o->report || o->html)
		pp = 0;
	else if (o->iface)
		pp = !o->write_file && !stdout_tty;
	else
		pp = 1;
	if (to_stdout && (pp || o->report))
		usage_error("-w - writes the capture to standard output: per-packet output and "
			    "--report cannot go there too");
	if (o->rx_queues && (!o->iface || strncmp(o->iface, "dpdk:", 5) != 0))
		usage_error("--rx-queues applies to a DPDK port (-i dpdk:EAL-OPTIONS)");
	if (o->rx_queues > 1) {
		/* each queue's lcore writes and decodes its own packets: there is
		 * no one ordered stream for a printer or the engine */
		if (!o->write_file || to_stdout)
			usage_error("--rx-queues %u writes a file per queue: give -w FILE (not -)",
				    o->rx_queues);
		if (explicit_pp || o->report || o->html || given_status)
			usage_error("--rx-queues %u: each queue is decoded on its own lcore, so there "
				    "is no single packet order for %s; read the files with -r",
				    o->rx_queues,
				    explicit_pp ? "per-packet output" : o->report ? "--report"
						: o->html ? "--html" : "--status");
		pp = 0;
		quiet = 1;
		o->status_secs = 0;
	}
	o->quiet = !pp;
	o->interactive = pp && stdout_tty;
	o->view = o->iface && !pp && !quiet && !to_stdout && stdout_tty;
	if (o->view)
		o->keep_report = 1;
	/* Status lines unless they would mix with the table or with lines on
	 * the same terminal. */
	if (!o->iface || o->view || (pp && stdout_tty))
		o->status_secs = 0;
	/* A progress line while reading files, unless per-packet text goes
	 * to the same terminal. */
	o->progress = !o->iface && isatty(STDERR_FILENO) && (!pp || !stdout_tty);
}

/* ---- the report ----------------------------------------------------------- */

static struct cap_report *report_new(const struct cap_opts *o, const char *title)
{
	struct cap_report_opts ro = {
		.link_gbps = o->link_gbps,
		.max_flows = o->max_flows,
		.storm_ns = o->storm_ns,
		.cnp_window_ns = o->cnp_window_ns,
		.cnp_mode = o->cnp_mode,
		.cnp_min_ns = o->cnp_min_ns,
		.mem_limit = o->mem_limit,
		.title = title,
		.qlen = o->qlen_file ? &o->qlen : NULL,
	};
	return cap_report_new(&ro);
}

/* Writes what --report and --html ask for; returns an exit status. */
static int report_outputs(struct cap_ctx *c, const struct cap_opts *o, uint64_t end_ns)
{
	int status = CAP_EXIT_OK;

	cap_report_finish(c->report, end_ns);
	/* Once per run, whichever outputs follow (table, JSON, HTML): a report
	 * that silently leaves out flows reads as a clean one. */
	char why[256];
	if (cap_report_incomplete(c->report, why, sizeof(why)))
		fprintf(stderr, "%s: warning: incomplete report: %s; raise %s to include them\n",
			CAP_PROG, why, cap_report_flow_limited(c->report) ? "--max-flows" : "--max-memory");
	if (o->report) {
		cap_out_flush(&c->out);
		fflush(stdout);
		errno = 0;
		int rc = o->format == CAP_FMT_JSON ? cap_report_json(c->report, stdout)
						   : cap_report_table(c->report, stdout);
		if (rc != 0 || fflush(stdout) != 0) {
			fprintf(stderr, "%s: cannot write the report: %s\n", CAP_PROG,
				strerror(errno ? errno : EIO));
			status = CAP_EXIT_USAGE;
		}
	}
	if (o->html) {
		errno = 0;
		if (cap_report_html(c->report, o->html) != 0) {
			char shown[NAME_SHOWN];
			fprintf(stderr, "%s: cannot write the HTML report: %s\n",
				cap_esc(shown, sizeof(shown), o->html), strerror(errno ? errno : EIO));
			status = CAP_EXIT_USAGE;
		}
	}
	return status;
}

/* Flushes standard output and reports a failure once; returns the status. */
static int finish_output(struct cap_ctx *c)
{
	cap_out_flush(&c->out);
	if (fflush(stdout) != 0 && !c->out.failed) {
		c->out.failed = 1;
		c->out.errno_saved = errno;
	}
	if (c->out.failed) {
		fprintf(stderr, "%s: cannot write the output: %s\n", CAP_PROG,
			strerror(c->out.errno_saved ? c->out.errno_saved : EIO));
		return CAP_EXIT_USAGE;
	}
	return CAP_EXIT_OK;
}

/* ---- files ---------------------------------------------------------------- */

/* Files smaller than this are read on one thread: starting the reader and
 * faulting in its ring cost about what it saves on a few thousand packets
 * (measured on the project's 2-core machine: --report on 5,000 packets of
 * 390 bytes, 1.9 MB, ran 0.8 ms faster on one thread, 20,000 packets 2.8 ms
 * slower). */
#define READER_MIN_BYTES ((long)4 << 20)

/* Whether to read a file on a reader thread: when ROCEWIRE_CAP_THREADS=2
 * (=1: never; both for measurements), else when there are two CPUs, the
 * file is not small, and this thread has work that keeps a core busy while
 * the reader decodes: the engine and the report, verbose or JSON lines.
 * Measured on the project's 2-core machine, 200k packets of 390 bytes
 * (bench/README.md): --report 1.2x faster with the reader, --html and
 * --report --json 1.1x, -v and per-packet JSON 1.15-1.25x; one line per
 * packet 1.2-1.4x slower (printing a line costs less than handing over the
 * whole decoded packet it prints), -q 1.1-1.4x slower (nothing to overlap
 * with the reader). With one core taken by other work the two were even;
 * with both taken, the reader thread won (two threads get more of the
 * machine). */
static int use_reader(const struct cap_opts *o, const struct cap_source *src)
{
	const char *v = getenv("ROCEWIRE_CAP_THREADS");
	if (v && strcmp(v, "1") == 0)
		return 0;
	if (v && strcmp(v, "2") == 0)
		return 1;
	if (cap_pipe_cpus() < 2 || (src->size >= 0 && src->size < READER_MIN_BYTES))
		return 0;
	return o->keep_report || (!o->quiet && o->format != CAP_FMT_LINE);
}

/* The error-line hook of the per-packet driver: the progress line goes first. */
static void clear_progress(void *arg)
{
	cap_progress_clear(arg);
}

/* A file pcapfile.c reads: a reader thread decodes while this one runs the engine and
 * the outputs, in capture order. Returns as cap_source_next() does, or -2
 * (1 when no thread could be had) for the caller's loop to read on. */
static int read_pipelined(struct cap_ctx *ctx, const struct cap_opts *opts,
			  struct cap_source *src, struct cap_progress *prog)
{
	uint64_t limit = opts->count ? opts->count - ctx->stats.packets : 0;
	/* Per-packet printers may read a record's bytes; the engine, the
	 * report and the counters read only what was decoded. */
	struct cap_pipe *pipe =
		use_reader(opts, src) ? cap_pipe_start(src, &opts->cfg, limit, !opts->quiet) : NULL;
	const struct rw_packet *pkt;
	const struct cap_record *rec;
	uint64_t ts;
	int rc = 1;

	if (!pipe)
		return 1;
	int counted = cap_pipe_counts(pipe);
	while ((pkt = cap_pipe_next(pipe, &rec, &ts, &rc))) {
		if (counted)
			ctx->stats.packets++; /* the rest is counted by the reader */
		else
			cap_stats_add(&ctx->stats, pkt, rec);
		cap_dissect_at(ctx, rec, pkt, ts);
		if (prog)
			cap_progress_update(prog, rec->offset, ctx->stats.packets);
	}
	cap_pipe_stop(pipe, &ctx->stats);
	return rc;
}

static int run_offline(struct cap_ctx *ctx, const struct cap_opts *opts)
{
	int opened = 0;
	struct cap_progress *prog = opts->progress ? cap_progress_new() : NULL;
	char shown[NAME_SHOWN], line[CAP_ESC_SIZE(sizeof(((struct cap_source *)0)->err))];

	if (prog) {
		ctx->before_error = clear_progress;
		ctx->before_error_arg = prog;
	}
	for (size_t i = 0; i < opts->n_files; i++) {
		struct cap_source src;
		struct cap_record rec;
		int rc;

		if (opts->count && ctx->stats.packets >= opts->count)
			break;
		if (cap_offline_open(&src, opts->files[i]) != 0) {
			cap_ctx_error(ctx, cap_esc(line, sizeof(line), src.err));
			cap_set_status(ctx, src.failure == CAP_SOURCE_READ ? CAP_EXIT_PROBLEM : CAP_EXIT_USAGE);
			continue;
		}
		opened++;
		cap_esc(shown, sizeof(shown), opts->files[i]);
		/* Messages show the escaped name; multi-file JSON's "file" field
		 * the raw one (jansson escapes it, and caches it by pointer). */
		cap_ctx_begin_input(ctx, opts->files[i], shown);
		if (prog)
			cap_progress_begin(prog, shown, src.size);
		rc = 1;
		if (cap_source_own(&src))
			rc = read_pipelined(ctx, opts, &src, prog);
		/* Standard input, pipes, and what libpcap reads on (-2). */
		while ((rc == 1 || rc == -2) && !(opts->count && ctx->stats.packets >= opts->count)) {
			if ((rc = cap_source_next(&src, &rec)) != 1)
				break;
			cap_dissect(ctx, &rec);
			if (prog)
				cap_progress_update(prog, src.pos, ctx->stats.packets);
		}
		if (rc == -2) /* -c was reached first */
			rc = 0;
		cap_progress_clear(prog);
		if (rc < 0) {
			cap_ctx_error(ctx, cap_esc(line, sizeof(line), src.err));
			cap_set_status(ctx, src.failure == CAP_SOURCE_READ ? CAP_EXIT_PROBLEM : CAP_EXIT_USAGE);
			if (src.cut)
				ctx->stats.files_cut++;
		}
		cap_ctx_end_input(ctx);
		cap_source_close(&src);
	}
	ctx->before_error = NULL;
	cap_progress_free(prog);

	cap_set_status(ctx, finish_output(ctx));
	if (ctx->report && opened)
		cap_set_status(ctx, report_outputs(ctx, opts, ctx->last_ts_ns));
	if (opened)
		cap_summary_print(&ctx->stats, CAP_PROG, stderr);
	return ctx->status;
}

/* ---- live ----------------------------------------------------------------- */

static volatile sig_atomic_t got_signal;
static struct cap_live *signal_live;
static struct timespec first_signal;

/* The first SIGINT/SIGTERM/SIGHUP ends the capture cleanly. A second one
 * ends the program at once (the first may not be enough: a write blocked
 * on a stalled pipe), but only half a second or more after the first: one
 * press of ^C, or `timeout`, signals the process and then its process
 * group, and those two arrive as two signals. */
static void on_signal(int sig)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe */
	if (got_signal) {
		long ms = (long)(now.tv_sec - first_signal.tv_sec) * 1000 +
			  (now.tv_nsec - first_signal.tv_nsec) / 1000000;
		if (ms >= 500) {
			signal(sig, SIG_DFL);
			raise(sig);
		}
		return;
	}
	first_signal = now;
	got_signal = sig;
	if (signal_live)
		cap_live_breakloop(signal_live);
}

struct live_run {
	struct cap_ctx *c;
	struct cap_live *l;
	struct cap_writer *w;
	uint64_t count;
	int wfailed;
	/* Writing with nothing shown (-w -q, no report or table): the file
	 * comes first, and the decoder (ICRC, counts) never holds the kernel's
	 * ring back. It skips packets while the ring is estimated more than
	 * half full: what waits in it is about the age of the packet at hand
	 * times the rate packets arrive at (from their own timestamps, over at
	 * least RATE_WINDOW_NS, so that a short burst is not taken for a
	 * sustained rate). Checked every 64 packets. */
	int shed;
	int behind;
	uint32_t since_clock;    /* packets since the last check */
	uint64_t win_ts;         /* arrival time where the rate's window starts */
	uint64_t win_bytes;      /* ring bytes that arrived in the window */
	double ring_bytes_per_ns;
	uint64_t slow_ns;        /* test hook: each decode takes this long at least */
};

static uint64_t wall_ns(void);

/* The ring's share of one packet beyond its bytes (TPACKET_V3 header,
 * link address, alignment). */
#define RING_PKT_OVERHEAD 80
#define RATE_WINDOW_NS 10000000u

static int decoder_behind(struct live_run *lr, const struct cap_record *r)
{
	lr->win_bytes += r->wirelen + RING_PKT_OVERHEAD;
	if ((lr->since_clock++ & 63) != 0 || r->ts_sec < 0)
		return lr->behind;
	uint64_t now = wall_ns();
	uint64_t ts = (uint64_t)r->ts_sec * 1000000000u + r->ts_nsec;
	if (lr->win_ts == 0 || ts < lr->win_ts) {
		lr->win_ts = ts;
		lr->win_bytes = 0;
	} else if (ts - lr->win_ts >= RATE_WINDOW_NS) {
		lr->ring_bytes_per_ns = (double)lr->win_bytes / (double)(ts - lr->win_ts);
		lr->win_ts = ts;
		lr->win_bytes = 0;
	}
	lr->behind = now > ts && (double)(now - ts) * lr->ring_bytes_per_ns > (double)lr->l->ring_bytes / 2;
	return lr->behind;
}

static void live_packet(void *arg, const struct cap_record *r)
{
	struct live_run *lr = arg;

	if (lr->wfailed || (lr->count && lr->c->stats.packets >= lr->count))
		return;
	if (lr->w && cap_writer_write(lr->w, r) != 0) {
		lr->wfailed = 1;
		cap_live_breakloop(lr->l);
		return;
	}
	if (lr->shed && decoder_behind(lr, r)) {
		struct cap_stats *st = &lr->c->stats;
		st->packets++;
		st->bytes += r->wirelen;
		st->undecoded++;
		st->truncated += r->caplen < r->wirelen;
	} else {
		cap_dissect(lr->c, r);
		if (lr->slow_ns)
			for (uint64_t t0 = wall_ns(); wall_ns() - t0 < lr->slow_ns;)
				;
	}
	if (lr->count && lr->c->stats.packets >= lr->count)
		cap_live_breakloop(lr->l);
}

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: poll() returns at once. A second signal: on_signal. */
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed output pipe is a write error that ends the capture
	 * cleanly, not a silent death that leaves FILE.XXXXXX.part behind. */
	signal(SIGPIPE, SIG_IGN);
}

static void print_drops(const struct cap_live *l, const char *shown)
{
	if (l->drops.known)
		fprintf(stderr,
			"%s: %s: %" PRIu64 " packets received by filter, %" PRIu64
			" dropped by kernel, %" PRIu64 " dropped by interface\n",
			CAP_PROG, shown, l->drops.recv, l->drops.kernel, l->drops.ifdrop);
	else
		fprintf(stderr,
			"%s: %s: %" PRIu64 " packets received; drops unknown (the device has no "
			"out_of_buffer counter)\n",
			CAP_PROG, shown, l->index);
}

static int run_live(struct cap_ctx *c, const struct cap_opts *o)
{
	static struct cap_live l;
	static struct cap_writer w;
	struct cap_view *view = NULL;
	struct live_run lr = {.c = c, .l = &l, .count = o->count};
	const char *slow = getenv("ROCEWIRE_CAP_TEST_SLOW_DECODE_NS");
	int have_writer = 0, failed = 0;
	static char shown[NAME_SHOWN], file1[NAME_SHOWN], file2[NAME_SHOWN];

	install_signals();
	if (cap_live_open(&l, o) != 0) {
		error_line(l.err);
		return l.err_status;
	}
	cap_esc(shown, sizeof(shown), l.name);
	signal_live = &l;
	if (got_signal)
		cap_live_breakloop(&l);
	int multi = cap_live_multi(&l);
	if (multi && cap_live_queues_start(&l, o, c) != 0) {
		error_line(l.err);
		cap_live_close(&l);
		return l.err_status;
	}
	if (o->write_file && !multi) {
		struct cap_writer_cfg wc = cap_writer_cfg_of(o, o->write_file);
		if (cap_writer_open(&w, &wc, l.linktype, l.snaplen, l.nano, l.name) != 0) {
			error_line(w.err);
			cap_writer_close(&w);
			cap_live_close(&l);
			return CAP_EXIT_USAGE;
		}
		w.drops = &l.drops;
		lr.w = &w;
		have_writer = 1;
		/* network interfaces only: their timestamps are the wall clock's */
		lr.shed = o->quiet && !o->keep_report && !o->view && l.pcap && l.ring_bytes &&
			  !getenv("ROCEWIRE_CAP_NO_SHED");
		lr.slow_ns = slow ? strtoull(slow, NULL, 10) : 0;
	}
	if (o->view || o->status_secs) {
		/* the table's and the status line's previous counts */
		view = cap_view_new(o->max_flows && o->max_flows < VIEW_FLOWS ? o->max_flows : VIEW_FLOWS);
		if (!view) {
			fprintf(stderr, "%s: out of memory\n", CAP_PROG);
			if (have_writer)
				cap_writer_close(&w);
			cap_live_close(&l);
			return CAP_EXIT_USAGE;
		}
	}
	{
		const char *n = pcap_datalink_val_to_name(l.linktype);
		const char *d = pcap_datalink_val_to_description(l.linktype);
		fprintf(stderr,
			"%s: listening on %s, link type %s (%s), snapshot length %" PRIu32
			" bytes, %s timestamps, %s\n",
			CAP_PROG, shown, n ? n : "?", d ? d : "?", l.snaplen,
			l.nano ? "nanosecond" : "microsecond", l.filter_desc);
	}
	c->hold_warnings = o->view;
	c->stats.live = l.name;
	c->file = c->file_shown = shown; /* no "file" in live JSON: only messages show it */

	double now = cap_now();
	double next_tick = now + 1.0;
	double next_status = o->status_secs ? now + o->status_secs : 0;
	double deadline = o->duration > 0 ? now + o->duration : 0;
	if (o->view)
		cap_view_draw(view, c, &l, now);

	while (!got_signal && !l.stop) {
		double wait = next_tick - now;
		if (deadline && deadline - now < wait)
			wait = deadline - now;
		int ms = wait <= 0 ? 0 : wait * 1000 > LIVE_WAIT_MS ? LIVE_WAIT_MS : (int)(wait * 1000) + 1;
		int n = cap_live_dispatch(&l, ms, live_packet, &lr);
		if (n < 0) {
			error_line(l.err);
			failed = 1;
			break;
		}
		if (n > 0 && !o->quiet) {
			cap_out_flush(&c->out);
			if (c->out.failed)
				break;
		}
		if (n > 0 && have_writer && w.to_stdout && cap_writer_flush(&w) != 0) {
			lr.wfailed = 1;
			snprintf(w.err, sizeof(w.err), "standard output: cannot write: %s", strerror(errno));
			break;
		}
		if (lr.wfailed)
			break;
		now = cap_now();
		if (deadline && now >= deadline)
			break;
		if (now >= next_tick) {
			next_tick = now + 1.0;
			cap_live_update_drops(&l);
			if (have_writer && cap_writer_tick(&w) != 0) {
				lr.wfailed = 1;
				break;
			}
			if (o->view)
				cap_view_draw(view, c, &l, now);
		}
		if (next_status && now >= next_status) {
			cap_view_status(view, c, &l, now);
			next_status = now + o->status_secs;
		}
	}
	signal_live = NULL;
	/* What arrived before the end and is still in the ring's last block
	 * (not after a failure, nor when -c is reached or the output is gone) */
	if (!failed && !lr.wfailed && !c->out.failed && !(lr.count && c->stats.packets >= lr.count) &&
	    cap_live_drain(&l, live_packet, &lr) > 0 && !o->quiet)
		cap_out_flush(&c->out);

	cap_live_update_drops(&l);
	if (o->view)
		cap_view_draw(view, c, &l, cap_now());
	cap_view_free(view);
	if (have_writer) {
		int rc = cap_writer_close(&w);
		if (lr.wfailed || rc != 0) {
			error_line(w.err[0] ? w.err : "cannot write the capture file");
			failed = 1;
		} else if (!w.to_stdout && w.files == 1) {
			fprintf(stderr, "%s: wrote %" PRIu64 " packets to %s\n", CAP_PROG,
				w.total_packets, cap_esc(file1, sizeof(file1), w.first_name));
		} else if (!w.to_stdout) {
			fprintf(stderr, "%s: wrote %" PRIu64 " packets to %u files, %s to %s\n", CAP_PROG,
				w.total_packets, w.files, cap_esc(file1, sizeof(file1), w.first_name),
				cap_esc(file2, sizeof(file2), w.name));
		}
	}
	if (multi && cap_live_queues_finish(&l, c, shown) != 0)
		failed = 1;
	cap_ctx_end_input(c);
	/* The reader of standard output went away (| head): that ends the
	 * capture, as tcpdump ends, and is not an error. */
	int reader_gone = c->out.failed && c->out.errno_saved == EPIPE;
	if (!reader_gone)
		cap_set_status(c, finish_output(c));
	if (c->report) {
		struct cap_opts ro = *o;
		if (reader_gone)
			ro.report = 0; /* the HTML file is still written */
		if (l.drops.known) /* else the report says none were recorded */
			cap_report_set_drops(c->report, l.drops.kernel, l.drops.ifdrop);
		cap_set_status(c, report_outputs(c, &ro, wall_ns()));
	}
	cap_summary_print(&c->stats, CAP_PROG, stderr);
	print_drops(&l, shown);
	cap_live_summary(&l, shown);
	if (l.drops.kernel || l.drops.ifdrop) {
		fprintf(stderr,
			"%s: %s: the capture is incomplete: %" PRIu64 " packets were lost (try a larger "
			"-B, a smaller -s, or -w without per-packet output)\n",
			CAP_PROG, shown, l.drops.kernel + l.drops.ifdrop);
		cap_set_status(c, CAP_EXIT_PROBLEM);
	}
	cap_live_close(&l);
	if (failed)
		cap_set_status(c, CAP_EXIT_USAGE);
	return c->status;
}

#ifndef CAP_WITH_DPDK
/* -i dpdk:...: the same command line, run by rocewire-cap-dpdk (next to this
 * program, else in PATH). Returns only when that cannot be run. */
static void hand_over_to_dpdk(char **argv)
{
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/rocewire-cap-dpdk", self);
			execv(path, argv);
		}
	}
	execvp("rocewire-cap-dpdk", argv);
}
#endif

/* libpcap could not be loaded where a call needed it (rocewire_io). */
static void pcap_missing(const char *line)
{
	fprintf(stderr, "%s: %s\n", CAP_PROG, line);
	exit(CAP_EXIT_USAGE);
}

int main(int argc, char **argv)
{
	struct cap_opts opts;
	static struct cap_ctx ctx; /* large (struct rw_packet, counters): not on the stack */
	int status;

	cap_pcap_fail = pcap_missing;
	parse_args(argc, argv, &opts);
#ifndef CAP_WITH_DPDK
	if (opts.iface && strncmp(opts.iface, "dpdk:", 5) == 0)
		hand_over_to_dpdk(argv); /* else cap_live_open() says what is missing */
#endif
	if (opts.list_ifaces) {
		status = cap_list_interfaces(stdout) == 0 ? CAP_EXIT_OK : CAP_EXIT_USAGE;
		free(opts.files);
		return status;
	}
	if (opts.dump_filter) {
		status = cap_dump_filter(&opts);
		free(opts.files);
		return status;
	}
	if (opts.qlen_file) {
		char err[512], shown[NAME_SHOWN];
		cap_esc(shown, sizeof(shown), opts.qlen_file);
		if (cap_qlen_load(opts.qlen_file, shown, &opts.qlen, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", CAP_PROG, err);
			free(opts.files);
			return CAP_EXIT_USAGE;
		}
	}
	if (cap_ctx_init(&ctx, &opts) != 0) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		return CAP_EXIT_USAGE;
	}
	if (opts.keep_report) {
		/* The title is shown in the table and the page: escaped as the
		 * messages are (report.c would turn control bytes into '?'). */
		char title[NAME_SHOWN];
		cap_esc(title, sizeof(title), opts.iface ? opts.iface : opts.files[0]);
		ctx.report = report_new(&opts, title);
		if (!ctx.report) {
			fprintf(stderr, "%s: cannot make the report: %s\n", CAP_PROG, strerror(errno));
			return CAP_EXIT_USAGE;
		}
	}

	status = opts.iface ? run_live(&ctx, &opts) : run_offline(&ctx, &opts);

	if (ctx.report)
		cap_report_free(ctx.report);
	cap_ctx_free(&ctx);
	cap_qlen_free(&opts.qlen);
	free(opts.files);
	return status;
}
