/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-report-driver: a test-only front end to the capture report
 * (lib/report/report.h), for the report tests and bench/bench_report.sh while
 * and where `rocewire-cap --report` is not available, and to measure what
 * the report costs per packet on its own.
 *
 * usage: rocewire-report-driver [--json | --table | --html FILE | --none]
 *                               [--no-icrc] [--time] [--mode report|analyze|decode]
 *                               [--max-flows N] [--link-gbps G] FILE
 * --time prints the packet rate of the read-decode-analyse loop on stderr;
 * --mode analyze feeds proto's analyzer without the report's time series,
 * --mode decode only decodes: the differences are the costs of each layer. */
#include <errno.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocewire.h"
#include "rocewire/analyze.h"
#include "report.h"

static const char *prog = "rocewire-report-driver";

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [--json | --table | --html FILE | --none] [--no-icrc] [--time]\n"
		"          [--mode report|analyze|decode] [--max-flows N] [--link-gbps G] FILE\n",
		prog);
	exit(2);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *out = "table", *html = NULL, *file = NULL, *mode = "report";
	struct rw_decode_cfg dcfg = {0};
	struct cap_report_opts ro = {0};
	int timing = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json"))
			out = "json";
		else if (!strcmp(a, "--table"))
			out = "table";
		else if (!strcmp(a, "--none"))
			out = "none";
		else if (!strcmp(a, "--html") && i + 1 < argc)
			html = argv[++i], out = "html";
		else if (!strcmp(a, "--no-icrc"))
			dcfg.no_icrc_check = 1;
		else if (!strcmp(a, "--time"))
			timing = 1;
		else if (!strcmp(a, "--mode") && i + 1 < argc)
			mode = argv[++i];
		else if (!strcmp(a, "--max-flows") && i + 1 < argc)
			ro.max_flows = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(a, "--link-gbps") && i + 1 < argc)
			ro.link_gbps = strtod(argv[++i], NULL);
		else if (a[0] == '-' && a[1])
			usage();
		else
			file = a;
	}
	if (!file)
		usage();
	int m_report = !strcmp(mode, "report"), m_analyze = !strcmp(mode, "analyze");
	if (!m_report && !m_analyze && strcmp(mode, "decode"))
		usage();

	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!pc) {
		fprintf(stderr, "%s: %s\n", prog, errbuf);
		return 2;
	}
	int lt = pcap_datalink(pc);
	ro.title = file;
	struct cap_report *r = NULL;
	struct rw_analyzer *an = NULL;
	if (m_report) {
		r = cap_report_new(&ro);
		if (!r) {
			fprintf(stderr, "%s: cannot make the report: %s\n", prog, strerror(errno));
			return 2;
		}
	} else if (m_analyze) {
		struct rw_analyze_cfg c = {.max_flows = ro.max_flows, .link_gbps = ro.link_gbps};
		an = rw_analyzer_new(&c);
		if (!an) {
			fprintf(stderr, "%s: cannot make the analyzer\n", prog);
			return 2;
		}
	}

	static struct rw_packet p;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t frame = 0, last_ts = 0;
	int rc;
	double t0 = now_s();
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
		frame++;
		rw_packet_decode(&dcfg, lt, data, h->caplen, h->len, &p);
		if (r)
			cap_report_packet(r, &p, ts, frame, NULL);
		else if (an)
			rw_analyzer_packet(an, &p, ts, frame, NULL);
		last_ts = ts;
	}
	if (rc == -1) {
		fprintf(stderr, "%s: %s: packet %" PRIu64 ": %s\n", prog, file, frame + 1, pcap_geterr(pc));
		return 2;
	}
	if (r)
		cap_report_finish(r, last_ts);
	else if (an)
		rw_analyzer_finish(an, last_ts);
	double t1 = now_s();
	if (timing)
		fprintf(stderr, "%s: %" PRIu64 " packets in %.3f s: %.0f packets/s (mode %s)\n", prog,
			frame, t1 - t0, (double)frame / (t1 - t0), mode);
	pcap_close(pc);

	int status = 0;
	if (r) {
		if (!strcmp(out, "json"))
			status = cap_report_json(r, stdout);
		else if (!strcmp(out, "table"))
			status = cap_report_table(r, stdout);
		else if (!strcmp(out, "html"))
			status = cap_report_html(r, html);
		if (status != 0) {
			fprintf(stderr, "%s: %s: cannot write the report: %s\n", prog,
				html && !strcmp(out, "html") ? html : "standard output", strerror(errno));
			status = 2;
		}
		cap_report_free(r);
	}
	rw_analyzer_free(an);
	return status;
}
