/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-cap's options: one table whose rows give getopt its entries,
 * --help its lines, the bash completion its words (--list-options) and the
 * man page check its list, so none of them can drift; the handlers; and the
 * checks of what the options ask for together. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cap.h"
#include "opts.h"

/* Names from argv reach messages through cap_esc(): an argument must not
 * drive the terminal the message is printed on. */
#define ARG_SHOWN CAP_ESC_SIZE(4096)

/* What parsing collects beyond struct cap_opts: which options were given. */
struct pctx {
	struct cap_opts *o;
	int verbose, json, lines, quiet;
	int given_s, given_B, given_p, given_status, given_f, given_y;
	int given_offset, given_window;
};

struct opt_row {
	const char *name;   /* long option; a section title or a note's left column */
	int shortc;         /* 0: none */
	const char *arg;    /* NULL: takes no argument */
	void (*fn)(struct pctx *p, int val, const char *arg);
	const char *help;   /* lines joined by '\n'; NULL: a section title */
};

/* A section title; a line of --help that is no option (no handler). */
#define SECTION(t) {t, 0, NULL, NULL, NULL}
#define NOTE(left, text) {left, 0, NULL, NULL, text}

static const char usage_head[] =
	"Usage: " CAP_PROG " -r FILE [-r FILE]... [OPTION]... [FILE]...\n"
	"       " CAP_PROG " -i IFACE [-w FILE] [OPTION]...\n"
	"       " CAP_PROG " --between A.pcap B.pcap [--json] [--html FILE] [--offset NS]\n"
	"                    [--estimate-offset] [--window NS]\n"
	"       " CAP_PROG " -D\n"
	"\n"
	"Decode RoCEv2, RoCEv1, native InfiniBand and PFC/PAUSE frames from pcap or\n"
	"pcapng files or from a live interface, verify their ICRC and VCRC, and print\n"
	"one line per packet, a live per-QP table, or a per-QP report. A summary\n"
	"(packets per carrier and opcode, ICRC/VCRC results, decode errors, and for a\n"
	"live capture the packets lost) is printed on standard error at the end.\n"
;

static const char usage_tail[] =
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
	"  " CAP_PROG " --between sender.pcap receiver.pcap --estimate-offset\n"
	"  " CAP_PROG " -i eth0 -w trace.pcapng\n"
	"  " CAP_PROG " -i eth0 -w 'roce-%H%M%S.pcap' -G 60 -C 1000 -q\n"
	"  " CAP_PROG " -i eth0 --lines | grep NAK\n"
;

/* ---- messages ----------------------------------------------------------------- */

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* One line: the problem and where to look, then exit 2. */
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

static const struct opt_row *row_of(int val);

/* The option as the user wrote it, for messages: "-c/--count" or "--json". */
static const char *opt_name(int val, char *buf, size_t cap)
{
	const struct opt_row *r = row_of(val);
	if (!r)
		snprintf(buf, cap, "-%c", val);
	else if (r->shortc)
		snprintf(buf, cap, "-%c/--%s", r->shortc, r->name);
	else
		snprintf(buf, cap, "--%s", r->name);
	return buf;
}

static void bad_value(int val, const char *arg, const char *what) __attribute__((noreturn));

static void bad_value(int val, const char *arg, const char *what)
{
	char name[40], shown[ARG_SHOWN];
	fprintf(stderr, "%s: %s: '%s' is not %s; try '%s --help'\n", CAP_PROG,
		opt_name(val, name, sizeof(name)), cap_esc(shown, sizeof(shown), arg), what, CAP_PROG);
	exit(CAP_EXIT_USAGE);
}

/* what: the expected value in words, for the message. */
static uint64_t parse_number(int val, const char *arg, uint64_t min, uint64_t max, const char *what)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (arg[0] == '\0' || arg[0] == '-' || arg[0] == '+' || *end != '\0' || errno != 0 || v < min ||
	    v > max)
		bad_value(val, arg, what);
	return v;
}

/* Whether s is a decimal number above min (exclusive) and at most max. */
static int decimal_of(const char *s, double min, double max, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (s[0] == '\0' || s[0] == '-' || s[0] == '+' || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v <= min || v > max || strchr(s, 'x') || strchr(s, 'X'))
		return 0;
	*out = v;
	return 1;
}

/* A decimal number above min (exclusive) and at most max. */
static double parse_decimal(int val, const char *arg, double min, double max, const char *what)
{
	double v;
	if (!decimal_of(arg, min, max, &v))
		bad_value(val, arg, what);
	return v;
}

/* A time with its unit, as rocewire-gen's scenarios write one: a decimal
 * number (parse_decimal's rules) and ns, us (or µs), ms or s; in
 * nanoseconds (at least 1), above 0 and at most max_s seconds. */
static uint64_t parse_time(int val, const char *arg, double max_s)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	char num[64], what[96];
	snprintf(what, sizeof(what), "a time with a unit (ns, us, ms or s), above 0 and at most %gs, e.g. 67ms",
		 max_s);
	size_t len = strlen(arg);
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		size_t ul = strlen(units[u].name);
		/* "ms" before "s": the longest unit that ends the argument */
		if (len <= ul || len - ul >= sizeof(num) || strcmp(arg + len - ul, units[u].name) != 0)
			continue;
		if (ul == 1 && strchr("nuµm", arg[len - 2]))
			continue;
		memcpy(num, arg, len - ul);
		num[len - ul] = '\0';
		double v;
		if (!strchr("0123456789.", num[len - ul - 1]) ||
		    !decimal_of(num, 0, max_s * 1e9 / units[u].ns, &v))
			break;
		v *= units[u].ns;
		return v < 1 ? 1 : (uint64_t)(v + 0.5);
	}
	bad_value(val, arg, what);
}

static const char *nonempty(int val, const char *arg)
{
	char name[40];
	if (arg[0] == '\0')
		usage_error("%s: empty file name", opt_name(val, name, sizeof(name)));
	return arg;
}

/* ---- handlers ----------------------------------------------------------------- */

static void h_read(struct pctx *p, int val, const char *arg)
{
	(void)val;
	p->o->files[p->o->n_files++] = arg;
}

static void h_iface(struct pctx *p, int val, const char *arg)
{
	(void)val;
	if (p->o->iface)
		usage_error("-i/--interface given twice: one interface per capture (or -i any)");
	if (arg[0] == '\0')
		usage_error("-i/--interface: empty interface name");
	p->o->iface = arg;
}

static void h_list(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->list_ifaces = 1;
}

static void h_count(struct pctx *p, int val, const char *arg)
{
	p->o->count = parse_number(val, arg, 1, UINT64_MAX, "a packet count (1 or more)");
}

static void h_duration(struct pctx *p, int val, const char *arg)
{
	p->o->duration = parse_decimal(val, arg, 0, 1e9, "a number of seconds above 0");
}

static void h_port(struct pctx *p, int val, const char *arg)
{
	p->o->cfg.rocev2_port = (uint16_t)parse_number(val, arg, 1, 65535, "a UDP port (1 to 65535)");
}

static void h_no_icrc(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->cfg.no_icrc_check = 1;
}

static void h_filter(struct pctx *p, int val, const char *arg)
{
	(void)val;
	p->o->filter = arg;
	p->given_f = 1;
}

static void h_all(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->all = 1;
}

static void h_dump(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->dump_filter = 1;
}

static void h_linktype(struct pctx *p, int val, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);
	int dlt = arg[0] != '\0' && *end == '\0' && v >= 0 && v < 65536 ? (int)v : pcap_datalink_name_to_val(arg);
	if (dlt < 0)
		bad_value(val, arg, "a link type name (EN10MB, LINUX_SLL, LINUX_SLL2) or number");
	p->o->linktype = dlt;
	p->given_y = 1;
}

static void h_snaplen(struct pctx *p, int val, const char *arg)
{
	p->o->snaplen = (uint32_t)parse_number(val, arg, 0, CAP_MAX_SNAPLEN, "a snapshot length (0 to 262144 bytes)");
	if (p->o->snaplen == 0)
		p->o->snaplen = CAP_MAX_SNAPLEN;
	p->given_s = 1;
}

static void h_buffer(struct pctx *p, int val, const char *arg)
{
	p->o->buffer_kib = (uint32_t)parse_number(val, arg, 1, 2097151, "a buffer size in KiB (1 to 2097151)");
	p->given_B = 1;
	p->o->buffer_given = 1;
}

static void h_no_promisc(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->no_promisc = 1;
	p->given_p = 1;
}

static void h_write(struct pctx *p, int val, const char *arg)
{
	p->o->write_file = nonempty(val, arg);
}

static void h_pcap(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->write_fmt = CAP_WFMT_PCAP;
}

static void h_pcapng(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->write_fmt = CAP_WFMT_PCAPNG;
}

static void h_file_size(struct pctx *p, int val, const char *arg)
{
	p->o->rotate_bytes = (uint64_t)(parse_decimal(val, arg, 0, 1e12, "a size in millions of bytes above 0") * 1e6);
	if (p->o->rotate_bytes == 0)
		p->o->rotate_bytes = 1;
}

static void h_rotate(struct pctx *p, int val, const char *arg)
{
	p->o->rotate_secs = (uint32_t)parse_number(val, arg, 1, 31536000, "a number of seconds (1 or more)");
}

static void h_user(struct pctx *p, int val, const char *arg)
{
	(void)val;
	if (arg[0] == '\0')
		usage_error("-Z/--relinquish-privileges: empty user name");
	p->o->drop_user = arg;
}

static void h_status(struct pctx *p, int val, const char *arg)
{
	p->o->status_secs = (unsigned)parse_number(val, arg, 0, 86400, "a number of seconds (0 for none)");
	p->given_status = 1;
}

static void h_rx_queues(struct pctx *p, int val, const char *arg)
{
	p->o->rx_queues = (unsigned)parse_number(val, arg, 1, CAP_DPDK_MAX_QUEUES, "a number of RX queues (1 to 64)");
}

static void h_lines(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->lines = 1;
}

static void h_verbose(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->verbose = 1;
}

static void h_json(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->json = 1;
}

static void h_quiet(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->quiet = 1;
}

static void h_help(struct pctx *p, int val, const char *arg)
{
	(void)p, (void)val, (void)arg;
	cap_usage(stdout);
	exit(CAP_EXIT_OK);
}

static void h_version(struct pctx *p, int val, const char *arg)
{
	(void)p, (void)val, (void)arg;
	printf("%s %s (librocewire %s, %s, jansson %s, libibverbs %s%s)\n", CAP_PROG, ROCEWIRE_VERSION,
	       ROCEWIRE_VERSION, pcap_lib_version(), JANSSON_VERSION,
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
}

static void h_max_warnings(struct pctx *p, int val, const char *arg)
{
	p->o->max_warnings = (unsigned)parse_number(val, arg, 0, UINT32_MAX, "a count (0 for no limit)");
}

static void h_report(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->report = 1;
}

static void h_html(struct pctx *p, int val, const char *arg)
{
	p->o->html = nonempty(val, arg);
}

static void h_qlen(struct pctx *p, int val, const char *arg)
{
	p->o->qlen_file = nonempty(val, arg);
}

static void h_counters_before(struct pctx *p, int val, const char *arg)
{
	p->o->counters_before = nonempty(val, arg);
}

static void h_counters_after(struct pctx *p, int val, const char *arg)
{
	p->o->counters_after = nonempty(val, arg);
}

static void h_counters_host(struct pctx *p, int val, const char *arg)
{
	unsigned char a[16];
	char shown[CAP_ESC_SIZE(256)];
	if (inet_pton(AF_INET, arg, a) != 1 && inet_pton(AF_INET6, arg, a) != 1)
		usage_error("--counters-host: '%s' is not an IPv4 address, an IPv6 address or a GID",
			    cap_esc(shown, sizeof(shown), arg));
	(void)val;
	p->o->counters_host = arg;
}

static void h_link_gbps(struct pctx *p, int val, const char *arg)
{
	p->o->link_gbps = parse_decimal(val, arg, 0, 1e6, "a link speed in Gb/s above 0");
}

static void h_storm_ms(struct pctx *p, int val, const char *arg)
{
	p->o->storm_ns = (uint64_t)(parse_decimal(val, arg, 0, 1e9, "a time in milliseconds above 0") * 1e6);
}

static void h_cnp_window(struct pctx *p, int val, const char *arg)
{
	p->o->cnp_window_ns = (uint64_t)(parse_decimal(val, arg, 0, 1e12, "a time in microseconds above 0") * 1e3);
}

static void h_max_flows(struct pctx *p, int val, const char *arg)
{
	p->o->max_flows = (uint32_t)parse_number(val, arg, 1, 16777216, "a number of flows (1 to 16777216)");
}

static void h_max_memory(struct pctx *p, int val, const char *arg)
{
	p->o->mem_limit = (size_t)(parse_decimal(val, arg, 0, 1048576, "a size in MB above 0") * 1048576.0);
}

static void h_cnp_min(struct pctx *p, int val, const char *arg)
{
	p->o->cnp_min_ns = (uint64_t)(parse_decimal(val, arg, 0, 1e9, "a time in microseconds above 0") * 1e3);
}

static void h_rto(struct pctx *p, int val, const char *arg)
{
	/* IBA's longest Local ACK Timeout: 4.096 us x 2^31, about 8796 s */
	p->o->rto_ns = parse_time(val, arg, 8797);
}

static void h_cnp_mode(struct pctx *p, int val, const char *arg)
{
	(void)val;
	for (unsigned m = 0; m < RW_CNP_MODES; m++) {
		/* the engine's keys use '_', the option '-' */
		char k[16];
		snprintf(k, sizeof(k), "%s", rw_cnp_mode_key((enum rw_cnp_mode)m));
		for (char *q = k; *q; q++)
			if (*q == '_')
				*q = '-';
		if (!strcmp(arg, k)) {
			p->o->cnp_mode = (uint8_t)m;
			return;
		}
	}
	char shown[256];
	usage_error("--cnp-mode: '%s' is not a pacing mode (qp, ip-pair or dest-ip)", cap_esc(shown, sizeof(shown), arg));
}

static void h_between(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->between = 1;
}

static void h_offset(struct pctx *p, int val, const char *arg)
{
	char *end;
	errno = 0;
	long long v = strtoll(arg, &end, 10);
	if (arg[0] == '\0' || *end != '\0' || errno != 0 || v < -INT64_MAX / 2 || v > INT64_MAX / 2)
		bad_value(val, arg, "a time in nanoseconds (an integer, negative allowed)");
	p->o->between_offset_ns = v;
	p->given_offset = 1;
}

static void h_estimate_offset(struct pctx *p, int val, const char *arg)
{
	(void)val, (void)arg;
	p->o->between_estimate = 1;
}

static void h_window(struct pctx *p, int val, const char *arg)
{
	p->o->between_window_ns = parse_number(val, arg, 1, UINT64_MAX / 4, "a time in nanoseconds above 0");
	p->given_window = 1;
}

/* ---- the table ---------------------------------------------------------------- */

static const struct opt_row table[] = {
	SECTION("Input"),
	{"read", 'r', "FILE", h_read,
	 "read packets from FILE, pcap or pcapng (\"-\" is standard\n"
	 "input). Repeat -r, or name more files after the\n"
	 "options, to decode several files in turn.\n"
	 "Link types: Ethernet (1), Linux SLL (113), Linux SLL2\n"
	 "(276), ERF (197), InfiniBand (247)."},
	{"interface", 'i', "IFACE", h_iface,
	 "capture live on IFACE; \"any\" captures on every\n"
	 "interface (Linux cooked headers); rdma:DEVICE[:PORT]\n"
	 "captures all the traffic of an RDMA NIC's port through\n"
	 "a sniffer flow, including the RoCE traffic the kernel\n"
	 "never sees (libibverbs; ConnectX-4 or later);\n"
	 "'dpdk:EAL-OPTIONS' captures a DPDK port (a NIC bound\n"
	 "to DPDK, or --vdev=net_af_packet0,iface=IF), run by\n"
	 "rocewire-cap-dpdk"},
	{"list-interfaces", 'D', NULL, h_list,
	 "list the interfaces and RDMA devices, and exit"},
	{"count", 'c', "N", h_count,
	 "stop after N packets (counted over all files)"},
	{"duration", 0, "SEC", h_duration,
	 "live: stop after SEC seconds (decimals allowed)"},
	{"port", 0, "N", h_port,
	 "UDP destination port that carries RoCEv2 (default 4791)"},
	{"no-icrc", 0, NULL, h_no_icrc,
	 "do not compute ICRC/VCRC (faster; not verified)"},
	SECTION("Live capture (-i)"),
	{"filter", 'f', "EXPR", h_filter,
	 "capture what the libpcap filter EXPR selects, instead\n"
	 "of the default: RoCEv2 (UDP to --port), RoCEv1\n"
	 "(ethertype 0x8915) and PFC/PAUSE (0x8808), untagged or\n"
	 "behind one or two VLAN tags"},
	{"all", 0, NULL, h_all,
	 "capture every packet (no filter)"},
	{"dump-filter", 'd', NULL, h_dump,
	 "print the compiled filter and exit: for -i IFACE, or\n"
	 "for the link type of -y (default EN10MB)"},
	{"linktype", 'y', "TYPE", h_linktype,
	 "capture with link type TYPE (EN10MB, LINUX_SLL,\n"
	 "LINUX_SLL2), when the interface offers several"},
	{"snaplen", 's', "N", h_snaplen,
	 "keep at most N bytes of each packet (default 16000,\n"
	 "more than any Ethernet jumbo frame; 0: 262144)"},
	{"buffer-size", 'B', "KIB", h_buffer,
	 "kernel capture buffer in KiB (default: 20 ms at the\n"
	 "interface's speed, at least 32768)"},
	{"no-promiscuous-mode", 'p', NULL, h_no_promisc,
	 "do not put the interface in promiscuous mode"},
	{"write", 'w', "FILE", h_write,
	 "write the packets to FILE (\"-\": standard output); pcap,\n"
	 "or pcapng when FILE ends in .pcapng. Each file is\n"
	 "written as a new FILE.XXXXXX.part and renamed to FILE\n"
	 "once complete."},
	{"pcap", 0, NULL, h_pcap, "write pcap with -w, whatever the name"},
	{"pcapng", 0, NULL, h_pcapng, "write pcapng with -w, whatever the name"},
	{"file-size", 'C', "MB", h_file_size,
	 "start a new file rather than let one grow past MB\n"
	 "million bytes (decimals allowed)"},
	{"rotate-seconds", 'G', "S", h_rotate,
	 "start a new file every S seconds\n"
	 "File names with -C/-G: FILE may be a strftime(3)\n"
	 "pattern (trace-%Y%m%d-%H%M%S.pcap), expanded in local\n"
	 "time when each file is opened; when a name would\n"
	 "repeat, a number is appended: FILE, FILE1, FILE2, ..."},
	{"relinquish-privileges", 'Z', "USER", h_user,
	 "change to USER for good (its uid,\n"
	 "gid and groups) once the capture (interface, rdma:\n"
	 "sniffer, dpdk: port) and -w's file are open, before\n"
	 "any packet is decoded. Root only (nothing to do when\n"
	 "already USER). USER must be able to write in -w's\n"
	 "folder: the file is renamed there, and -C/-G create\n"
	 "new files there (checked at start). No default:\n"
	 "without -Z the capture keeps the user it started as"},
	{"status", 0, "SEC", h_status,
	 "seconds between status lines (default 5; 0: none)"},
	{"rx-queues", 0, "N", h_rx_queues,
	 "dpdk: only: capture N RX queues of the port (RSS or\n"
	 "the PMD spreads frames over them), spread over EAL's\n"
	 "lcores (-l), each queue polled by one lcore and\n"
	 "written to its own file: -w FILE gives FILE.q0,\n"
	 "FILE.q1, ... (before a .pcap/.pcapng extension), each\n"
	 "in its queue's order; merge them by time with\n"
	 "mergecap. Every packet decoded and ICRC-checked on\n"
	 "its lcore (the summary adds them up); no per-packet\n"
	 "output, --report or --html (read the files with -r)"},
	SECTION("Output (standard output)"),
	NOTE("(default)",
	     "reading files: one line per packet: time, carrier,\n"
	     "addresses, opcode, dest QP, PSN, extension header\n"
	     "fields, ECN when set, icrc ok | icrc BAD (wire X,\n"
	     "computed Y).\n"
	     "Capturing, on a terminal: a per-QP table (packets,\n"
	     "Gb/s, PSN gaps, retransmissions, NAKs, CE marks, CNPs,\n"
	     "PFC pauses) redrawn every second. Capturing, not on a\n"
	     "terminal: one line per packet, none with -w, --report\n"
	     "or --html; a status line (packets, rate, drops) on\n"
	     "standard error every --status seconds."),
	{"lines", 'l', NULL, h_lines,
	 "per-packet output even where it is off by default\n"
	 "(capturing on a terminal, -w, --report, --html)"},
	{"verbose", 'v', NULL, h_verbose,
	 "every field of every header, one per line"},
	{"json", 0, NULL, h_json,
	 "one JSON object per packet (JSON Lines); 64-bit values\n"
	 "are \"0x...\" strings, \"time\" is a string of epoch\n"
	 "seconds with 9 decimals (schema: README-json.md)"},
	{"quiet", 'q', NULL, h_quiet,
	 "no per-packet output and no live table: the summary only"},
	{"help", 'h', NULL, h_help,
	 "show this help and exit"},
	{"version", 0, NULL, h_version,
	 "show the version and exit"},
	{"max-warnings", 0, "N", h_max_warnings,
	 "list at most N packets per input that did not decode\n"
	 "fully on standard error (default 10; 0: all)"},
	SECTION("Per-QP report (files or live; once the input ends)"),
	{"report", 0, NULL, h_report,
	 "a per-QP report on standard output: a table, or with\n"
	 "--json one JSON document; no per-packet output unless\n"
	 "-l or -v (not with --json)"},
	{"html", 0, "FILE", h_html,
	 "the report as a self-contained HTML page with plots;\n"
	 "with --between, the comparison's page (per flow: the\n"
	 "PSN timeline with the lost packets marked, the delay\n"
	 "over time, the lost packets listed)"},
	{"qlen", 0, "FILE", h_qlen,
	 "a bottleneck queue-length trace to draw on the HTML\n"
	 "page's CE/CNP timeline (rocewire-gen's qlen output:\n"
	 "CSV or JSON Lines, times from the first packet)"},
	{"counters-before", 0, "FILE", h_counters_before,
	 "NIC counters read before the capture (ethtool -S,\n"
	 "rdma statistic show, or 'grep . .../hw_counters/*'):\n"
	 "with --counters-after, the report sets each mapped\n"
	 "counter's change beside the capture's figure for the\n"
	 "same event (mlx5, irdma, bnxt_re, rxe)"},
	{"counters-after", 0, "FILE", h_counters_after,
	 "the same NIC counters read after the capture"},
	{"counters-host", 0, "ADDR", h_counters_host,
	 "the NIC's address (IPv4, IPv6 or GID) the counters are\n"
	 "compared for (default: the host that sent or received\n"
	 "most RoCE packets in the capture)"},
	{"link-gbps", 0, "G", h_link_gbps,
	 "link speed that turns PFC quanta into time (default 100)"},
	{"storm-ms", 0, "MS", h_storm_ms,
	 "a priority paused longer than MS is a storm (default 10)"},
	{"cnp-window-us", 0, "US", h_cnp_window,
	 "a CNP links to CE marks up to US before it\n"
	 "(default 1000)"},
	{"cnp-mode", 0, "MODE", h_cnp_mode,
	 "how the notification point is expected to pace its\n"
	 "CNPs: qp (one per QP, the default), ip-pair or\n"
	 "dest-ip; CNPs sooner than --cnp-min-us after the\n"
	 "last of their key are violations (all three modes\n"
	 "are counted in the report's totals)"},
	{"cnp-min-us", 0, "US", h_cnp_min,
	 "the NIC's minimum time between CNPs (default 4,\n"
	 "NVIDIA's min_time_between_cnps)"},
	{"rto", 0, "TIME", h_rto,
	 "the requesters' retransmission timeout, with a unit\n"
	 "(500us, 67ms, 1s): a PSN-sequence NAK not answered\n"
	 "by a resend while new requests of its QP went on\n"
	 "for longer than TIME after it (or than the QP's own\n"
	 "slowest resend, when slower) is a violation,\n"
	 "nak-ignored (default 67.108864ms: 4.096 us x 2^14)"},
	{"max-flows", 0, "N", h_max_flows,
	 "flows analysed at most (default: no limit but\n"
	 "--max-memory; a connection is two); packets of more\n"
	 "flows are not analysed: the report and a warning on\n"
	 "standard error say how many"},
	{"max-memory", 0, "MB", h_max_memory,
	 "memory the analysis may use (default 1024): enough for\n"
	 "about 800,000 flows"},
	SECTION("Two taps of the same traffic (--between A B)"),
	{"between", 0, NULL, h_between,
	 "compare two captures of the same traffic, A upstream\n"
	 "and B downstream (the two files: operands or -r):\n"
	 "packets matched by addresses, QP, PSN, opcode and\n"
	 "ICRC; lost between the taps, only in B (duplicated,\n"
	 "injected), one-way delay both ways, CE marks, TTL,\n"
	 "DSCP, ECN, VLAN and MAC rewrites, reordering, per\n"
	 "flow; a summary and tables, or JSON with --json;\n"
	 "with --html FILE also a page with plots per flow"},
	{"offset", 0, "NS", h_offset,
	 "B's clock minus A's in nanoseconds (default 0: the\n"
	 "taps' clocks are synchronised, e.g. by PTP)"},
	{"estimate-offset", 0, NULL, h_estimate_offset,
	 "estimate B's clock offset NTP-style from both\n"
	 "directions' minimum delays (a first pass, then the\n"
	 "comparison corrected by it; --offset is its start)"},
	{"window", 0, "NS", h_window,
	 "how long a packet waits for its twin in the other tap\n"
	 "(default 10000000, 10 ms: more than the delay plus the\n"
	 "clocks' offset, less than the flows' retransmission\n"
	 "timeout)"},
};
#define N_ROWS (sizeof(table) / sizeof(table[0]))

/* getopt's value of row i: its short letter, or 256 + i. */
static int row_val(size_t i)
{
	return table[i].shortc ? table[i].shortc : 256 + (int)i;
}

static const struct opt_row *row_of(int val)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (table[i].fn && row_val(i) == val)
			return &table[i];
	return NULL;
}

void cap_usage(FILE *f)
{
	fputs(usage_head, f);
	for (size_t i = 0; i < N_ROWS; i++) {
		const struct opt_row *t = &table[i];
		char left[64];
		if (!t->help) {
			fprintf(f, "\n%s:\n", t->name);
			continue;
		}
		if (!t->fn)
			snprintf(left, sizeof(left), "%s", t->name);
		else
			snprintf(left, sizeof(left), "%s--%s%s%s", t->shortc ? (char[]){'-', (char)t->shortc, ',', ' ', 0} : "    ",
				 t->name, t->arg ? " " : "", t->arg ? t->arg : "");
		/* the help starts in column 24, or two spaces after a longer left */
		fprintf(f, strlen(left) <= 21 ? "  %-22s" : "  %s  ", left);
		for (const char *h = t->help; *h; h++) {
			fputc(*h, f);
			if (*h == '\n')
				fprintf(f, "%24s", "");
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	fputs(usage_tail, f);
}

/* getopt does not say whether "--ver" is unknown or matches several
 * options: list the candidates. */
static void unknown_long_option(const char *arg)
{
	char cands[512] = "", shown[ARG_SHOWN];
	size_t n = 0, len;
	int matches = 0;

	if (strncmp(arg, "--", 2) != 0)
		usage_error("unknown option '%s'", cap_esc(shown, sizeof(shown), arg));
	arg += 2;
	len = strcspn(arg, "=");
	for (size_t i = 0; i < N_ROWS; i++) {
		if (!table[i].fn || strncmp(table[i].name, arg, len) != 0)
			continue;
		n += (size_t)snprintf(cands + n, sizeof(cands) - n, "%s--%s", matches ? ", " : "", table[i].name);
		if (n >= sizeof(cands))
			n = sizeof(cands) - 1;
		matches++;
	}
	if (matches > 1) {
		char opt[128];
		snprintf(opt, sizeof(opt), "--%.*s", (int)(len < 100 ? len : 100), arg);
		usage_error("option '%s' is ambiguous (%s)", cap_esc(shown, sizeof(shown), opt), cands);
	}
	usage_error("unknown option '--%s'", cap_esc(shown, sizeof(shown), arg));
}

static void getopt_error(int c, char **argv)
{
	char name[40];
	if (c == ':')
		usage_error("option %s needs an argument", opt_name(optopt, name, sizeof(name)));
	if (optopt >= 256)
		usage_error("option %s takes no argument", opt_name(optopt, name, sizeof(name)));
	if (optopt > 0 && optopt != '?') {
		char opt[2] = {(char)optopt, '\0'}, shown[CAP_ESC_SIZE(1)];
		usage_error("unknown option '-%s'", cap_esc(shown, sizeof(shown), opt));
	}
	unknown_long_option(argv[optind - 1]);
}

/* Runs every option through its row's handler; the operands are files. */
static void read_options(int argc, char **argv, struct pctx *p)
{
	struct option lo[N_ROWS + 1];
	char shorts[2 * N_ROWS + 2];
	size_t nl = 0, ns = 0;

	shorts[ns++] = ':';
	for (size_t i = 0; i < N_ROWS; i++) {
		if (!table[i].fn)
			continue;
		lo[nl++] = (struct option){table[i].name, table[i].arg ? required_argument : no_argument, NULL,
					   row_val(i)};
		if (table[i].shortc) {
			shorts[ns++] = (char)table[i].shortc;
			if (table[i].arg)
				shorts[ns++] = ':';
		}
	}
	lo[nl] = (struct option){NULL, 0, NULL, 0};
	shorts[ns] = '\0';
	opterr = 0; /* our messages, one line each */
	for (;;) {
		int c = getopt_long(argc, argv, shorts, lo, NULL);
		if (c == -1)
			break;
		const struct opt_row *r = row_of(c);
		if (!r || c == '?' || c == ':')
			getopt_error(c, argv);
		r->fn(p, c, optarg);
	}
	for (int i = optind; i < argc; i++)
		p->o->files[p->o->n_files++] = argv[i];
}

static void defaults(struct cap_opts *o, int argc)
{
	memset(o, 0, sizeof(*o));
	o->max_warnings = CAP_DEFAULT_MAX_WARNINGS;
	o->snaplen = CAP_DEFAULT_SNAPLEN;
	o->buffer_kib = CAP_DEFAULT_BUFFER_KIB;
	o->linktype = -1;
	o->status_secs = CAP_DEFAULT_STATUS_SECS;
	o->link_gbps = CAP_DEFAULT_LINK_GBPS;
	o->storm_ns = (uint64_t)(CAP_DEFAULT_STORM_MS * 1e6);
	o->cnp_window_ns = (uint64_t)(CAP_DEFAULT_CNP_WINDOW_US * 1e3);
	o->files = calloc((size_t)argc, sizeof(*o->files));
	if (!o->files) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		exit(CAP_EXIT_USAGE);
	}
}

/* What the options ask for together: one line on the first that does not
 * fit (inputs, live-only options, -w and its rotation). */
static void check_inputs(struct pctx *p)
{
	struct cap_opts *o = p->o;


	if (p->verbose && p->json)
		usage_error("-v and --json cannot be combined");
	if (!o->between && (p->given_offset || p->given_window || o->between_estimate))
		usage_error("%s compares two taps: give --between A B",
			    p->given_offset ? "--offset" : p->given_window ? "--window" : "--estimate-offset");
	if (o->between) {
		if (o->iface)
			usage_error("--between compares two capture files, not a live interface (-i)");
		if (o->n_files != 2)
			usage_error("--between needs two capture files, tap A (upstream) then tap B (downstream); %zu given",
				    o->n_files);
		if (o->counters_before || o->counters_after || o->counters_host)
			usage_error("--between prints its own comparison: --counters-* cannot be added to it");
		if (o->report || p->lines || p->verbose || o->count || o->qlen_file)
			usage_error("--between prints its own comparison: %s cannot be added to it",
				    o->report ? "--report" : p->lines ? "-l/--lines" : p->verbose ? "-v/--verbose"
				    : o->count ? "-c/--count" : "--qlen");
		o->format = p->json ? CAP_FMT_JSON : CAP_FMT_LINE;
		o->quiet = 1;
		return;
	}
	if (o->iface && o->n_files)
		usage_error("give either files to read (-r) or an interface to capture on (-i), not both");
	if (!o->iface && o->n_files == 0)
		usage_error("no input: give a capture file with -r FILE, or an interface with -i IFACE");
	if (!o->iface) {
		/* options that only a live capture reads, in the order --help has them */
		const struct {
			int given;
			const char *name;
		} live_only[] = {
			{o->write_file != NULL, "-w/--write"},
			{o->rotate_bytes != 0, "-C/--file-size"},
			{o->rotate_secs != 0, "-G/--rotate-seconds"},
			{p->given_f, "-f/--filter"},
			{o->all, "--all"},
			{p->given_s, "-s/--snaplen"},
			{p->given_B, "-B/--buffer-size"},
			{p->given_p, "-p/--no-promiscuous-mode"},
			{p->given_y, "-y/--linktype"},
			{o->duration > 0, "--duration"},
			{p->given_status, "--status"},
			{o->write_fmt != CAP_WFMT_AUTO, "--pcap/--pcapng"},
			{o->drop_user != NULL, "-Z/--relinquish-privileges"},
		};
		for (size_t i = 0; i < sizeof(live_only) / sizeof(live_only[0]); i++)
			if (live_only[i].given)
				usage_error("%s applies to a live capture (-i IFACE)", live_only[i].name);
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
	if (o->report && p->json && (p->lines || p->verbose))
		usage_error("--report --json writes the report as one JSON document; per-packet "
			    "output (-l, -v) cannot be added to it");

	if (o->qlen_file && !o->html)
		usage_error("--qlen draws on the HTML report: give --html FILE too");
	if (!o->counters_before != !o->counters_after)
		usage_error("%s needs %s too: a counter's change is after minus before",
			    o->counters_before ? "--counters-before" : "--counters-after",
			    o->counters_before ? "--counters-after FILE" : "--counters-before FILE");
	if (o->counters_host && !o->counters_before)
		usage_error("--counters-host chooses the host for --counters-before/--counters-after: give them too");
	if (o->counters_before && !o->report && !o->html)
		usage_error("--counters-before/--counters-after are compared in the report: give --report or --html FILE");
	o->format = p->json ? CAP_FMT_JSON : p->verbose ? CAP_FMT_VERBOSE : CAP_FMT_LINE;
	o->keep_report = o->report || o->html;
}

/* Who gets standard output and standard error: per-packet lines, the live
 * table, status and progress lines. */
static void choose_outputs(struct pctx *p)
{
	struct cap_opts *o = p->o;
	int to_stdout = o->write_file && strcmp(o->write_file, "-") == 0;

	int stdout_tty = isatty(STDOUT_FILENO);
	int explicit_pp = p->lines || p->verbose || (p->json && !o->report);
	int pp;
	if (p->quiet)
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
		if (explicit_pp || o->report || o->html || p->given_status)
			usage_error("--rx-queues %u: each queue is decoded on its own lcore, so there "
				    "is no single packet order for %s; read the files with -r",
				    o->rx_queues,
				    explicit_pp ? "per-packet output" : o->report ? "--report"
						: o->html ? "--html" : "--status");
		pp = 0;
		p->quiet = 1;
		o->status_secs = 0;
	}
	o->quiet = !pp;
	o->interactive = pp && stdout_tty;
	o->view = o->iface && !pp && !p->quiet && !to_stdout && stdout_tty;
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

void cap_opts_parse(int argc, char **argv, struct cap_opts *o)
{
	struct pctx p = {.o = o};

	defaults(o, argc);
	/* Hidden: the long options, one a line, for the bash completion. */
	if (argc == 2 && strcmp(argv[1], "--list-options") == 0) {
		for (size_t i = 0; i < N_ROWS; i++)
			if (table[i].fn)
				printf("--%s%s\n", table[i].name, table[i].arg ? "=" : "");
		exit(CAP_EXIT_OK);
	}
	read_options(argc, argv, &p);
	if (o->list_ifaces)
		return;
	if (o->dump_filter) {
		if (o->all)
			usage_error("-d prints the filter, and --all asks for none");
		if (o->n_files)
			usage_error("-d prints the capture filter; it does not read files");
		return;
	}
	check_inputs(&p);
	if (o->between)
		return;
	choose_outputs(&p);
}
