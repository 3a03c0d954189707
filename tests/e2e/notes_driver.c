/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-notes: the analysis engine's verdicts on every packet of a
 * capture, and its per-flow summary, as JSON Lines — for tests that compare
 * two runs of the engine packet by packet (a whole capture against the same
 * capture cut at its start or end).
 *
 * usage: rocewire-notes [-q] FILE    (-q: flows only, and the time per packet on stderr)
 * One line per packet: {"frame", "flow", "flags": [...], "psn", "expected",
 * "ack_psn", "nak", "lat", "req_frame"}, then one line per flow:
 * {"flow": {"index", "key", "conv", "peer", "peer_key", "pair_how", ...
 * counters}}. A flow's "key" names it across runs: "family src>dst qpn". */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocewire.h"
#include "rocewire/analyze.h"

static const char *const flag_names[] = {
	"new", "gap", "retrans", "gbn_start", "ooo", "msg_done", "msg_broken", "ack", "nak",
	"read_match", "atomic_match", "cnp_linked", "ce", "paused", "pfc", "msn_regress", "orphan",
	"unsynced", "precapture", "cut_start", "paired", "new_conv",
};

static void key_str(const struct rw_flow *f, char *buf, size_t cap)
{
	const struct rw_flow_key *k = &f->key;
	char s[48], d[48];
	size_t n = k->family == 4 ? 4 : k->family == 0 ? 2 : 16;
	for (size_t i = 0; i < n; i++) {
		snprintf(s + 2 * i, 3, "%02x", k->src[i]);
		snprintf(d + 2 * i, 3, "%02x", k->dst[i]);
	}
	snprintf(buf, cap, "%u %s>%s %06x", k->family, s, d, k->dqpn);
}

int main(int argc, char **argv)
{
	int quiet = argc == 3 && !strcmp(argv[1], "-q");
	if (argc != 2 && !quiet) {
		fprintf(stderr, "usage: rocewire-notes [-q] FILE\n");
		return 2;
	}
	argv += quiet;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!pc) {
		fprintf(stderr, "rocewire-notes: %s\n", errbuf);
		return 2;
	}
	int lt = pcap_datalink(pc);
	struct rw_analyzer *an = rw_analyzer_new(NULL);
	if (!an) {
		fprintf(stderr, "rocewire-notes: no memory\n");
		return 2;
	}
	struct rw_decode_cfg dcfg = {0};
	static struct rw_packet p;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t frame = 0, last_ts = 0;
	while (pcap_next_ex(pc, &h, &data) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
		struct rw_note n;
		frame++;
		rw_packet_decode(&dcfg, lt, data, h->caplen, h->len, &p);
		rw_analyzer_packet(an, &p, ts, frame, &n);
		last_ts = ts;
		if (quiet)
			continue;
		printf("{\"frame\":%" PRIu64 ",\"flow\":%d,\"flags\":[", frame, n.flow);
		const char *sep = "";
		for (unsigned b = 0; b < sizeof(flag_names) / sizeof(flag_names[0]); b++)
			if (n.flags >> b & 1) {
				printf("%s\"%s\"", sep, flag_names[b]);
				sep = ",";
			}
		printf("],\"op\":%d,\"psn\":%u,\"expected\":%u,\"ack_psn\":%u,\"nak\":%u,\"lat\":%" PRIu64
		       ",\"req_frame\":%" PRIu64 "}\n",
		       (p.present & RW_P_BTH) ? p.bth.opcode : -1, (p.present & RW_P_BTH) ? p.bth.psn : 0, n.expected_psn, n.ack_psn, n.nak_kind,
		       n.latency_ns, n.req_frame);
	}
	pcap_close(pc);
	rw_analyzer_finish(an, last_ts);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (quiet) {
		double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		fprintf(stderr,
			"rocewire-notes: %" PRIu64 " packets, %u flows, %.0f ns/packet (read, decode, "
			"analyse), %.1f MB of engine state\n",
			frame, rw_analyzer_flow_count(an), sec * 1e9 / (double)(frame ? frame : 1),
			(double)rw_analyzer_totals(an)->mem_bytes / 1e6);
		rw_analyzer_free(an);
		return 0;
	}
	for (uint32_t i = 0; i < rw_analyzer_flow_count(an); i++) {
		const struct rw_flow *f = rw_analyzer_flow(an, i);
		char key[128], pkey[128] = "";
		key_str(f, key, sizeof(key));
		if (f->peer >= 0)
			key_str(rw_analyzer_flow(an, (uint32_t)f->peer), pkey, sizeof(pkey));
		printf("{\"flow\":{\"index\":%u,\"key\":\"%s\",\"conv\":%u,\"peer\":%d,\"peer_key\":\"%s\","
		       "\"pair_how\":\"%s\",\"pair_frame\":%" PRIu64 ",\"packets\":%" PRIu64
		       ",\"retransmissions\":%" PRIu64 ",\"gbn_episodes\":%" PRIu64
		       ",\"out_of_order\":%" PRIu64 ",\"unsynced\":%" PRIu64 ",\"messages\":%" PRIu64
		       ",\"msg_incomplete\":%" PRIu64 ",\"msg_orphans\":%" PRIu64
		       ",\"msg_cut_start\":%" PRIu64 ",\"msg_cut_end\":%" PRIu64
		       ",\"first_mid_message\":%u,\"naks_psn_seq\":%" PRIu64 ",\"acks\":%" PRIu64 "}}\n",
		       i, key, f->conversation, f->peer, pkey, rw_pair_how_key(f->pair_how), f->pair_frame,
		       f->packets, f->retransmissions, f->gbn_episodes, f->out_of_order, f->unsynced_pkts,
		       f->messages, f->msg_incomplete, f->msg_orphans, f->msg_cut_start, f->msg_cut_end,
		       f->first_mid_message, f->naks[RW_NAKK_PSN_SEQ], f->acks);
		if (f->conf) {
			const struct rw_conform *c = f->conf;
			printf("{\"conform\":{\"index\":%u", i);
			for (unsigned v = 0; v < RW_V_COUNT; v++)
				printf(",\"%s\":%" PRIu64, rw_violation_key(v), c->count[v]);
			printf(",\"resend_by_nak\":%" PRIu64 ",\"resend_by_rnr\":%" PRIu64
			       ",\"resend_by_timeout\":%" PRIu64 ",\"cnp_with_nak\":%" PRIu64,
			       c->resend_by_nak, c->resend_by_rnr, c->resend_by_timeout, c->cnp_with_nak);
			const struct rw_lat *l[4] = {&c->nak_gen, &c->nak_resp, &c->retx, &c->timeout};
			const char *ln[4] = {"nak_gen", "nak_resp", "retx", "timeout"};
			for (unsigned j = 0; j < 4; j++)
				printf(",\"%s\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", ln[j], l[j]->count,
				       rw_lat_quantile(l[j], 0.5), l[j]->max_ns);
			printf(",\"first_frames\":{");
			const char *sep = "";
			for (unsigned v = 0; v < RW_V_COUNT; v++)
				if (c->count[v]) {
					printf("%s\"%s\":[%" PRIu64 "]", sep, rw_violation_key(v), c->frames[v][0]);
					sep = ",";
				}
			printf("}}}\n");
		}
	}
	rw_analyzer_free(an);
	return 0;
}
