/* rocewire-cap: options, usage, and the loop over the inputs. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <pcap/pcap.h>

#include "cap.h"

#define DEFAULT_MAX_WARNINGS 10

static const char usage_text[] =
	"Usage: " CAP_PROG " -r FILE [-r FILE]... [OPTION]... [FILE]...\n"
	"\n"
	"Decode RoCEv2, RoCEv1, native InfiniBand and PFC/PAUSE frames from pcap or\n"
	"pcapng files, verify their ICRC and VCRC, and print one line per packet.\n"
	"A summary (packets per carrier and opcode, ICRC/VCRC results, decode errors)\n"
	"is printed on standard error at the end.\n"
	"\n"
	"Input:\n"
	"  -r, --read FILE       read packets from FILE, pcap or pcapng (\"-\" is standard\n"
	"                        input). Repeat -r, or name more files after the\n"
	"                        options, to decode several files in turn.\n"
	"                        Link types: Ethernet (1), Linux SLL (113), Linux SLL2\n"
	"                        (276), ERF (197), InfiniBand (247).\n"
	"  -c, --count N         stop after N packets (counted over all files)\n"
	"      --port N          UDP destination port that carries RoCEv2 (default 4791)\n"
	"      --no-icrc         do not compute ICRC/VCRC (faster; not verified)\n"
	"\n"
	"Output (standard output):\n"
	"  (default)             one line per packet: time, carrier, addresses, opcode,\n"
	"                        dest QP, PSN, extension header fields, ECN when set,\n"
	"                        icrc ok | icrc BAD (wire X, computed Y)\n"
	"  -v, --verbose         every field of every header, one per line\n"
	"      --json            one JSON object per packet (JSON Lines); 64-bit values\n"
	"                        are \"0x...\" strings, \"time\" is a string of epoch\n"
	"                        seconds with 9 decimals (schema: README-json.md)\n"
	"  -q, --quiet           no per-packet output, the summary only\n"
	"      --max-warnings N  list at most N packets per file that did not decode\n"
	"                        fully on standard error (default 10; 0: all)\n"
	"  -h, --help            show this help and exit\n"
	"      --version         show the version and exit\n"
	"\n"
	"Errors are one line on standard error naming the file, the packet number and\n"
	"its byte offset in the file, and what was expected.\n"
	"\n"
	"Exit status:\n"
	"  0  every packet decoded fully and every ICRC/VCRC was correct\n"
	"  1  a bad ICRC or VCRC, a packet that did not decode fully (malformed,\n"
	"     unsupported, or cut by the snapshot length), or a file that ends inside\n"
	"     a record\n"
	"  2  usage error, an input that cannot be opened or is not pcap/pcapng of a\n"
	"     supported link type, or output that cannot be written\n"
	"\n"
	"Examples:\n"
	"  " CAP_PROG " -r trace.pcapng\n"
	"  " CAP_PROG " -q -r day1.pcap -r day2.pcap\n"
	"  " CAP_PROG " --json -r trace.pcap | jq 'select(.icrc.status == \"bad\")'\n";

enum {
	OPT_JSON = 256,
	OPT_PORT,
	OPT_NO_ICRC,
	OPT_MAX_WARNINGS,
	OPT_VERSION,
};

static const struct option long_opts[] = {
	{"read", required_argument, NULL, 'r'},
	{"count", required_argument, NULL, 'c'},
	{"port", required_argument, NULL, OPT_PORT},
	{"no-icrc", no_argument, NULL, OPT_NO_ICRC},
	{"verbose", no_argument, NULL, 'v'},
	{"json", no_argument, NULL, OPT_JSON},
	{"quiet", no_argument, NULL, 'q'},
	{"max-warnings", required_argument, NULL, OPT_MAX_WARNINGS},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};

static const char short_opts[] = ":r:c:vqh";

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
	char cands[256] = "";
	size_t n = 0, len;
	int matches = 0;

	if (strncmp(arg, "--", 2) != 0)
		usage_error("unknown option '%s'", arg);
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
		usage_error("option '%s' is ambiguous (%s)", opt, cands);
	}
	usage_error("unknown option '--%s'", arg);
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

/* what: the expected value in words, for the message. */
static uint64_t parse_number(int opt, const char *arg, uint64_t min, uint64_t max,
			     const char *what)
{
	char name[32], *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (arg[0] == '\0' || arg[0] == '-' || arg[0] == '+' || *end != '\0' || errno != 0 ||
	    v < min || v > max) {
		fprintf(stderr, "%s: %s: '%s' is not %s; try '%s --help'\n", CAP_PROG,
			opt_name(opt, name, sizeof(name)), arg, what, CAP_PROG);
		exit(CAP_EXIT_USAGE);
	}
	return v;
}

static void parse_args(int argc, char **argv, struct cap_opts *o)
{
	char name[32];
	int verbose = 0, json = 0;

	memset(o, 0, sizeof(*o));
	o->max_warnings = DEFAULT_MAX_WARNINGS;
	o->files = calloc((size_t)argc, sizeof(*o->files));
	if (!o->files) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		exit(CAP_EXIT_USAGE);
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
		case 'c':
			o->count = parse_number(c, optarg, 1, UINT64_MAX, "a packet count (1 or more)");
			break;
		case OPT_PORT:
			o->cfg.rocev2_port = (uint16_t)parse_number(c, optarg, 1, 65535, "a UDP port (1 to 65535)");
			break;
		case OPT_NO_ICRC:
			o->cfg.no_icrc_check = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case OPT_JSON:
			json = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_MAX_WARNINGS:
			o->max_warnings = (unsigned)parse_number(c, optarg, 0, UINT32_MAX,
								       "a count (0 for no limit)");
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(CAP_EXIT_OK);
		case OPT_VERSION:
			printf("%s %s (librocewire %s, %s, jansson %s)\n", CAP_PROG, ROCEWIRE_VERSION,
			       ROCEWIRE_VERSION, pcap_lib_version(), JANSSON_VERSION);
			exit(CAP_EXIT_OK);
		case ':':
			usage_error("option %s needs an argument", opt_name(optopt, name, sizeof(name)));
			break;
		case '?':
		default:
			if (optopt >= 256)
				usage_error("option %s takes no argument",
					    opt_name(optopt, name, sizeof(name)));
			if (optopt > 0 && optopt != '?')
				usage_error("unknown option '-%c'", optopt);
			unknown_long_option(argv[optind - 1]);
		}
	}
	for (int i = optind; i < argc; i++)
		o->files[o->n_files++] = argv[i];

	if (verbose && json)
		usage_error("-v and --json cannot be combined");
	o->format = json ? CAP_FMT_JSON : verbose ? CAP_FMT_VERBOSE : CAP_FMT_LINE;
	if (o->n_files == 0)
		usage_error("no input: give a capture file with -r FILE");
}

int main(int argc, char **argv)
{
	struct cap_opts opts;
	static struct cap_ctx ctx; /* large (struct rw_packet, counters): not on the stack */
	int opened = 0;

	parse_args(argc, argv, &opts);
	if (cap_ctx_init(&ctx, &opts) != 0) {
		fprintf(stderr, "%s: out of memory\n", CAP_PROG);
		return CAP_EXIT_USAGE;
	}

	for (size_t i = 0; i < opts.n_files; i++) {
		struct cap_source src;
		struct cap_record rec;
		int rc;

		if (opts.count && ctx.stats.packets >= opts.count)
			break;
		if (cap_offline_open(&src, opts.files[i]) != 0) {
			cap_ctx_error(&ctx, src.err);
			cap_set_status(&ctx, src.err_status);
			continue;
		}
		opened++;
		cap_ctx_begin_input(&ctx, opts.files[i]);
		while ((rc = cap_source_next(&src, &rec)) == 1) {
			cap_dissect(&ctx, &rec);
			if (opts.count && ctx.stats.packets >= opts.count)
				break;
		}
		if (rc < 0) {
			cap_ctx_error(&ctx, src.err);
			cap_set_status(&ctx, src.err_status);
			if (src.cut)
				ctx.stats.files_cut++;
		}
		cap_ctx_end_input(&ctx);
		cap_source_close(&src);
	}

	cap_out_flush(&ctx.out);
	if (fflush(stdout) != 0 && !ctx.out.failed) {
		ctx.out.failed = 1;
		ctx.out.errno_saved = errno;
	}
	if (ctx.out.failed) {
		fprintf(stderr, "%s: cannot write the output: %s\n", CAP_PROG,
			strerror(ctx.out.errno_saved ? ctx.out.errno_saved : EIO));
		cap_set_status(&ctx, CAP_EXIT_USAGE);
	}
	if (opened)
		cap_summary_print(&ctx.stats, stderr);

	int status = ctx.status;
	cap_ctx_free(&ctx);
	free(opts.files);
	return status;
}
