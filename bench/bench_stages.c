/* SPDX-License-Identifier: BSD-3-Clause */
/* bench-stages: what each stage of `rocewire-cap -r FILE --report` costs
 * per packet, on one thread, for bench/bench_report.sh.
 *
 * usage: bench-stages [--runs N] [--libpcap] FILE
 *        bench-stages --cpu COMMAND [ARG]...
 *        bench-stages --wall COMMAND [ARG]...
 *
 * Every stage is a whole pass over FILE, timed by the process's CPU clock
 * (less disturbed by other work on a shared machine than the wall clock),
 * best of N runs (default 5). Each stage includes the ones before it:
 *   read    records from the file, every cache line of each one touched
 *           (pcapfile.c through its ring, as rocewire-cap reads regular
 *           files; --libpcap: pcap_next_ex(), as rocewire-cap read them
 *           before, without its read-ahead thread)
 *   decode  + rw_packet_decode(), ICRC verified
 *   engine  + rw_analyzer_packet() (the analysis engine alone, no report)
 *   pack    decode, then the hand-over of the reader thread (lib/report/packed.h:
 *           each packet packed into its slot and unpacked again), on one
 *           thread: its CPU work without the moves between cores; printed
 *           last, after engine, of which it is not a part
 * Prints one line per stage: "STAGE NS_PER_PACKET PACKETS". The report's
 * own cost (time series, tables) is rocewire-cap --report on one thread
 * (ROCEWIRE_CAP_THREADS=1) less the engine stage: the script does that,
 * with --cpu, which runs COMMAND (output to /dev/null) and prints the CPU
 * time it took, user and system, all threads, in nanoseconds (to the
 * microsecond: /usr/bin/time gives only hundredths). --wall runs COMMAND
 * the same way and prints the wall time from fork to exit in nanoseconds,
 * start-up included; it exits 1 when COMMAND's status is not 0. (The
 * scripts timed commands with `date +%s%N` before and after: each date is
 * a process of its own, and on the project's machine the second one added
 * 5-10 ms to every figure, to rocewire-cap's and tshark's alike.) */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "packed.h"
#include "pcapfile.h"
#include "readring.h"
#include "rocewire.h"
#include "rocewire/analyze.h"

enum stage { ST_READ, ST_DECODE, ST_ENGINE, ST_PACK, ST_COUNT };
static const char *const stage_name[ST_COUNT] = {"read", "decode", "engine", "pack"};

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t touch(const uint8_t *d, uint32_t n)
{
	uint64_t s = 0;
	for (uint32_t i = 0; i < n; i += 64)
		s += d[i];
	return s + (n ? d[n - 1] : 0);
}

struct run {
	enum stage st;
	struct rw_analyzer *an;
	struct rw_packet pkt;
	struct rw_packet out; /* unpacked */
	uint64_t packets, sink;
};

static void one(struct run *r, int linktype, const uint8_t *d, uint32_t caplen, uint32_t len,
		uint64_t ts)
{
	r->packets++;
	if (r->st == ST_READ) {
		r->sink += touch(d, caplen);
		return;
	}
	rw_packet_decode(NULL, linktype, d, caplen, len, &r->pkt);
	r->sink += r->pkt.icrc_status;
	if (r->st == ST_PACK) {
		/* a ring's worth of slots, as the pipeline writes them */
		static struct cap_packed ring[8192];
		struct cap_packed *k = &ring[r->packets % 8192];
		if (!cap_packed_pack(k, &r->pkt, caplen, ts, (int64_t)r->packets))
			cap_packed_unpack(k, &r->out);
		r->sink += r->out.bth.psn;
	}
	if (r->st == ST_ENGINE)
		rw_analyzer_packet(r->an, &r->pkt, ts, r->packets, NULL);
}

static int pass_own(struct run *r, const char *file)
{
	struct cap_readring ring;
	struct cap_pcapfile pf;
	struct cap_pf_record rec;
	struct stat st;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) != 0 ||
	    cap_readring_open(&ring, fd, (uint64_t)st.st_size, 4 * CAP_PF_MAX_SPAN) != 0) {
		fprintf(stderr, "bench-stages: %s: %s\n", file, strerror(errno));
		return -1;
	}
	if (cap_pcapfile_open(&pf, &ring) != 1) {
		fprintf(stderr, "bench-stages: %s: not a file pcapfile.c reads\n", file);
		return -1;
	}
	int rc;
	while ((pf.keep = pf.pos, rc = cap_pcapfile_next(&pf, &rec)) == CAP_PF_RECORD)
		one(r, pf.linktype, rec.data, rec.caplen, rec.len,
		    (uint64_t)rec.ts_sec * 1000000000u + rec.ts_nsec);
	cap_pcapfile_close(&pf);
	cap_readring_close(&ring);
	close(fd);
	return rc == CAP_PF_END ? 0 : -1;
}

static int pass_libpcap(struct run *r, const char *file)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	struct pcap_pkthdr *h;
	const u_char *d;

	if (!pc) {
		fprintf(stderr, "bench-stages: %s\n", errbuf);
		return -1;
	}
	int lt = pcap_datalink(pc);
	while (pcap_next_ex(pc, &h, &d) == 1)
		one(r, lt, d, h->caplen, h->len,
		    (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec);
	pcap_close(pc);
	return 0;
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs argv with its output to /dev/null; --cpu prints its CPU time, --wall
 * the wall time from fork to its exit. */
static int run_of(char **argv, int wall)
{
	double t0 = wall_s();
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status))
		return 2;
	if (wall) {
		printf("%.0f\n", (wall_s() - t0) * 1e9);
		return WEXITSTATUS(status) != 0;
	}
	if (WEXITSTATUS(status) > 1)
		return 2;
	printf("%.0f\n", ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1e9 +
				 ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e3);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 5, libpcap = 0;

	if (argc > 2 && !strcmp(argv[1], "--cpu"))
		return run_of(argv + 2, 0);
	if (argc > 2 && !strcmp(argv[1], "--wall"))
		return run_of(argv + 2, 1);
	const char *file = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--libpcap"))
			libpcap = 1;
		else if (argv[i][0] != '-')
			file = argv[i];
		else
			file = NULL, i = argc;
	}
	if (!file || runs < 1) {
		fprintf(stderr, "usage: bench-stages [--runs N] [--libpcap] FILE\n");
		return 2;
	}
	for (int st = 0; st < ST_COUNT; st++) {
		double best = 0;
		uint64_t packets = 0;
		for (int k = 0; k < runs; k++) {
			static struct run r;
			memset(&r, 0, sizeof(r));
			r.st = (enum stage)st;
			struct rw_analyze_cfg cfg = {.max_flows = 4096, .link_gbps = 100,
						     .cnp_window_ns = 1000000, .storm_ns = 10000000};
			if (st == ST_ENGINE && !(r.an = rw_analyzer_new(&cfg))) {
				fprintf(stderr, "bench-stages: no memory for the analyzer\n");
				return 2;
			}
			double t0 = cpu_s();
			int rc = libpcap ? pass_libpcap(&r, file) : pass_own(&r, file);
			if (r.an)
				rw_analyzer_finish(r.an, 0);
			double t = cpu_s() - t0;
			if (r.an)
				rw_analyzer_free(r.an);
			if (rc != 0)
				return 2;
			if (k == 0 || t < best)
				best = t;
			packets = r.packets;
			if (r.sink == 42) /* keep the work */
				fputc(' ', stderr);
		}
		printf("%s %.1f %" PRIu64 "\n", stage_name[st], best / (double)packets * 1e9, packets);
	}
	return 0;
}
