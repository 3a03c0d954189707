/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-diff-notes: the analysis engine's verdict on every packet of a
 * capture (struct rw_note, every field), for the differential test
 * (test_gen_diff.sh), which holds them to the generator's ground truth.
 *
 * usage: rocewire-diff-notes [-l LINK_GBPS] FILE
 * One JSON line per packet: {"frame", "key", "flags": [...], "expected",
 * "gap_len", "msg_bytes", "msg_first_frame", "ack_psn", "ack_count", "nak",
 * "req_frame", "ce_count", "ce_frame", "cnp_key"}. A flow is named by its
 * key, "SRC>DST/DQPN" with the addresses as the report writes them, so that
 * the test finds the same flow in the report and in the truth; null for a
 * packet no flow took (PFC). The engine is configured as rocewire-cap
 * --report is with the same --link-gbps. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocewire.h"
#include "rocewire/analyze.h"

static const char *const flag_names[] = {
	"new", "gap", "retrans", "gbn_start", "ooo", "msg_done", "msg_broken", "ack", "nak",
	"read_match", "atomic_match", "cnp_linked", "ce", "paused", "pfc", "msn_regress", "orphan",
	"unsynced", "precapture", "cut_start", "paired", "new_conv",
};

static void key_str(const struct rw_analyzer *an, int32_t flow, char *buf, size_t cap)
{
	if (flow < 0) {
		snprintf(buf, cap, "null");
		return;
	}
	const struct rw_flow_key *k = &rw_analyzer_flow(an, (uint32_t)flow)->key;
	char s[INET6_ADDRSTRLEN] = "?", d[INET6_ADDRSTRLEN] = "?";
	int af = k->family == 6 ? AF_INET6 : AF_INET;
	if (k->family == 4 || k->family == 6) {
		inet_ntop(af, k->src, s, sizeof(s));
		inet_ntop(af, k->dst, d, sizeof(d));
	}
	snprintf(buf, cap, "\"%s>%s/%u\"", s, d, k->dqpn);
}

int main(int argc, char **argv)
{
	struct rw_analyze_cfg cfg;
	memset(&cfg, 0, sizeof(cfg));
	if (argc == 4 && strcmp(argv[1], "-l") == 0) {
		cfg.link_gbps = atof(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: rocewire-diff-notes [-l LINK_GBPS] FILE\n");
		return 2;
	}
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!pc) {
		fprintf(stderr, "rocewire-diff-notes: %s\n", errbuf);
		return 2;
	}
	int lt = pcap_datalink(pc);
	struct rw_analyzer *an = rw_analyzer_new(&cfg);
	if (!an) {
		fprintf(stderr, "rocewire-diff-notes: no memory\n");
		return 2;
	}
	struct rw_decode_cfg dcfg = { 0 };
	static struct rw_packet p;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t frame = 0, last_ts = 0;
	while (pcap_next_ex(pc, &h, &data) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
		struct rw_note n;
		char key[128], ckey[128];
		frame++;
		rw_packet_decode(&dcfg, lt, data, h->caplen, h->len, &p);
		rw_analyzer_packet(an, &p, ts, frame, &n);
		last_ts = ts;
		key_str(an, n.flow, key, sizeof(key));
		key_str(an, n.cnp_flow, ckey, sizeof(ckey));
		printf("{\"frame\":%" PRIu64 ",\"key\":%s,\"flags\":[", frame, key);
		const char *sep = "";
		for (unsigned b = 0; b < sizeof(flag_names) / sizeof(flag_names[0]); b++)
			if (n.flags >> b & 1) {
				printf("%s\"%s\"", sep, flag_names[b]);
				sep = ",";
			}
		printf("],\"expected\":%u,\"gap_len\":%u,\"msg_bytes\":%" PRIu64 ",\"msg_first_frame\":%" PRIu64
		       ",\"ack_psn\":%u,\"ack_count\":%u,\"nak\":%u,\"req_frame\":%" PRIu64 ",\"ce_count\":%u"
		       ",\"ce_frame\":%" PRIu64 ",\"cnp_key\":%s}\n",
		       n.expected_psn, n.gap_len, n.msg_bytes, n.msg_first_frame, n.ack_psn, n.ack_count, n.nak_kind,
		       n.req_frame, n.ce_count, n.ce_frame, ckey);
	}
	pcap_close(pc);
	rw_analyzer_finish(an, last_ts);
	rw_analyzer_free(an);
	return 0;
}
