/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-packed-check: proves that struct cap_packed (lib/report/packed.h)
 * carries every field of a decoded packet that the analysis engine and the
 * report read.
 *
 * usage: rocewire-packed-check [--undefined] FILE...
 *
 * Every packet of every FILE is decoded once and fed to two reports and two
 * sets of the summary's counters: to the first as decoded, to the second
 * packed and unpacked into a struct
 * rw_packet filled with garbage first (a different byte for every packet:
 * a field unpack forgets holds a value no decoder wrote, a pointer one that
 * faults when followed), or as decoded when it would travel whole. Then it
 * compares the engine's verdict on every packet (struct rw_note), its totals
 * and every flow, the counters, and the report's table, JSON and HTML. Exit 0 when all are
 * the same, 1 with the first difference on stderr.
 *
 * With --undefined the packet is unpacked into fresh memory from malloc()
 * instead: run under valgrind's memcheck, any branch the engine or the
 * report takes on a field that did not travel is reported, even where
 * garbage and the true value lead to the same verdict (a READ re-issued at
 * a wrong address: any garbage address is wrong too). */
#include <errno.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "summary.h"
#include "packed.h"
#include "report.h"
#include "rocewire/analyze.h"

static const char *prog = "rocewire-packed-check";
static int undefined; /* --undefined */

/* A flow with its pointers cleared, for memcmp; what they point to is
 * compared through the outputs. */
static void flow_plain(const struct rw_flow *f, struct rw_flow *o)
{
	memcpy(o, f, sizeof(*o));
	o->rsp = NULL;
	o->hold = NULL;
	o->pend = NULL;
	o->ce = NULL;
	o->conf = NULL;
	o->ack_lat.hist = o->read_lat.hist = o->atomic_lat.hist = NULL;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(fp);
	*len = (size_t)n;
	return b;
}

/* Writes one output of each report and compares them; 0 when equal. */
static int same_output(const char *file, const char *what, struct cap_report *a,
		       struct cap_report *b)
{
	char pa[64], pb[64];
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(pa, sizeof(pa), "%.40s/pkA.%d", tmp, (int)getpid());
	snprintf(pb, sizeof(pb), "%.40s/pkB.%d", tmp, (int)getpid());
	int rc = 0;
	if (!strcmp(what, "html")) {
		rc |= cap_report_html(a, pa) | cap_report_html(b, pb);
	} else {
		FILE *fa = fopen(pa, "w"), *fb = fopen(pb, "w");
		if (!fa || !fb)
			return fprintf(stderr, "%s: %s: %s\n", prog, tmp, strerror(errno)), -1;
		int (*out)(const struct cap_report *, FILE *) =
			!strcmp(what, "json") ? cap_report_json : cap_report_table;
		rc |= out(a, fa) | out(b, fb);
		fclose(fa);
		fclose(fb);
	}
	size_t la = 0, lb = 0;
	char *sa = slurp(pa, &la), *sb = slurp(pb, &lb);
	int same = rc == 0 && sa && sb && la == lb && memcmp(sa, sb, la) == 0;
	if (!same)
		fprintf(stderr, "%s: %s: the %s outputs differ (%s, %s)\n", prog, file, what, pa, pb);
	else {
		unlink(pa);
		unlink(pb);
	}
	free(sa);
	free(sb);
	return same ? 0 : -1;
}

static int check(const char *file, uint64_t *packets, uint64_t *packed)
{
	static struct cap_stats sa, sb;
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!pc) {
		fprintf(stderr, "%s: %s\n", prog, errbuf);
		return -1;
	}
	int lt = pcap_datalink(pc);
	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	struct cap_report_opts ro = {.title = file};
	struct cap_report *ra = cap_report_new(&ro), *rb = cap_report_new(&ro);
	static struct rw_packet p, q;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t frame = 0, last = 0;
	int bad = 0;
	if (!ra || !rb) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	while (!bad && pcap_next_ex(pc, &h, &data) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
		uint32_t wirelen = h->len > h->caplen ? h->len : h->caplen;
		frame++;
		rw_packet_decode(NULL, lt, data, h->caplen, wirelen, &p);
		struct cap_packed k;
		const struct rw_packet *fed = &p;
		struct rw_packet *u = NULL;
		if (!cap_packed_pack(&k, &p, h->caplen, ts, 0)) {
			if (undefined) {
				u = malloc(sizeof(*u));
				if (!u)
					return fprintf(stderr, "%s: out of memory\n", prog), -1;
				cap_packed_unpack(&k, u);
				fed = u;
			} else {
				/* 0x5A, 0x5B, ...: never 0 (a field left at zero
				 * could pass), never a canonical pointer */
				memset(&q, 0x5A + (int)(frame % 64), sizeof(q));
				cap_packed_unpack(&k, &q);
				fed = &q;
			}
			(*packed)++;
		}
		struct rw_note na, nb;
		memset(&na, 0, sizeof(na));
		memset(&nb, 0, sizeof(nb));
		cap_report_packet(ra, &p, ts, frame, &na);
		cap_report_packet(rb, fed, ts, frame, &nb);
		/* the record as the pipeline gives it with a packed packet */
		struct cap_record rec = {.caplen = h->caplen, .wirelen = wirelen, .linktype = lt};
		cap_stats_add(&sa, &p, &rec);
		cap_stats_add(&sb, fed, &rec);
		free(u);
		if (memcmp(&na, &nb, sizeof(na)) != 0) {
			fprintf(stderr, "%s: %s: packet %" PRIu64 ": the engine's notes differ\n", prog,
				file, frame);
			bad = 1;
		}
		last = ts;
	}
	pcap_close(pc);
	*packets += frame;
	cap_report_finish(ra, last);
	cap_report_finish(rb, last);
	const struct rw_analyzer *aa = cap_report_analyzer(ra), *ab = cap_report_analyzer(rb);
	if (!bad && memcmp(&sa, &sb, sizeof(sa))) {
		fprintf(stderr, "%s: %s: the summary's counters differ\n", prog, file);
		bad = 1;
	}
	if (!bad && memcmp(rw_analyzer_totals(aa), rw_analyzer_totals(ab), sizeof(struct rw_totals))) {
		fprintf(stderr, "%s: %s: the engine's totals differ\n", prog, file);
		bad = 1;
	}
	if (!bad && rw_analyzer_flow_count(aa) != rw_analyzer_flow_count(ab)) {
		fprintf(stderr, "%s: %s: the engine's flow counts differ\n", prog, file);
		bad = 1;
	}
	for (uint32_t i = 0; !bad && i < rw_analyzer_flow_count(aa); i++) {
		static struct rw_flow fa, fb;
		flow_plain(rw_analyzer_flow(aa, i), &fa);
		flow_plain(rw_analyzer_flow(ab, i), &fb);
		if (memcmp(&fa, &fb, sizeof(fa)) != 0) {
			fprintf(stderr, "%s: %s: flow %" PRIu32 " differs\n", prog, file, i);
			bad = 1;
		}
	}
	if (!bad && (same_output(file, "table", ra, rb) || same_output(file, "json", ra, rb) ||
		     same_output(file, "html", ra, rb)))
		bad = 1;
	cap_report_free(ra);
	cap_report_free(rb);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t packets = 0, packed = 0;
	int bad = 0;
	int first = 1;
	if (argc > 1 && !strcmp(argv[1], "--undefined"))
		undefined = first = 2;
	if (argc <= first) {
		fprintf(stderr, "usage: %s [--undefined] FILE...\n", prog);
		return 2;
	}
	for (int i = first; i < argc; i++)
		bad |= check(argv[i], &packets, &packed) != 0;
	printf("%s: %d files, %" PRIu64 " packets, %" PRIu64 " packed: %s\n", prog, argc - first,
	       packets, packed, bad ? "DIFFERENT" : "the same");
	return bad;
}
