/* SPDX-License-Identifier: BSD-3-Clause */
/* rocewire-genmodel: the flow model written to a pcap the slow, obvious
 * way: every packet described by gen_pkt_describe() and built by proto's
 * rw_packet_build(), stamped with the model's clock (nanosecond pcap).
 * It is the reference the DPDK TX path is compared with byte for byte, and
 * what tshark and rocewire-cap cross-check the model through.
 *
 * Usage: rocewire-genmodel SCENARIO|- OUT.pcap
 *   SCENARIO  a scenario file (gen_scenario_load); "-" runs the built-in
 *             cross-check scenario below.
 * Prints the model's per-flow counters as JSON on stdout. A corrupted
 * packet gets the ICRC XOR 1, as the TX layer writes it. */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "rocewire.h"

static const char *prog = "rocewire-genmodel";

/* ---- the built-in scenario: every transport, IPv6 with VLAN, a drop ---- */

enum { B_HOSTS = 4, B_FLOWS = 6 };
static struct gen_host b_hosts[B_HOSTS];
static struct gen_flow b_flows[B_FLOWS];
static struct gen_fault b_faults[1];

static void b_host(struct gen_host *h, const char *name, uint8_t last, int v6, int vlan)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, last };
	memcpy(h->mac, mac, 6);
	h->af = v6 ? 6 : 4;
	if (v6) {
		h->ip[0] = 0xFD;
		h->ip[15] = last;
	} else {
		h->ip[0] = 10;
		h->ip[3] = last;
	}
	if (vlan) {
		h->has_vlan = 1;
		h->vlan = 100;
		h->pcp = 3;
	}
}

static struct gen_flow *b_flow(unsigned i, const char *name, uint32_t src, uint32_t dst,
			       enum gen_transport t)
{
	struct gen_flow *f = &b_flows[i];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->src = src;
	f->dst = dst;
	f->transport = t;
	f->size.kind = GEN_SIZE_UNIFORM;
	f->size.min = 1;
	f->size.max = 6000;
	f->mtu = 1024;
	f->rate.unit = GEN_RATE_GBPS;
	f->rate.value = 20;
	f->messages = 30;
	f->qps = 1;
	f->src_qpn = 0x100 + 0x10 * i;
	f->dst_qpn = 0x800 + 0x10 * i;
	f->initial_psn = 0x100000 * (i + 1); /* apart: a response names one flow's PSN only */
	f->psn_stride = 0x1000;
	f->pkey = 0xFFFF;
	f->ecn = 2;
	f->dscp = 26;
	f->qkey = 0x11111111;
	f->max_rd_atomic = 4;
	f->ack_request_interval = 8;
	f->retransmission_timeout_ns = 200000;
	f->retry_count = 7;
	f->rnr_retry = 7;
	f->min_rnr_timer = 1;
	f->rkey = 0x1000 + i;
	f->va = 0x7F0000000000ull;
	f->remote_len = 1 << 20;
	f->immediate = 0xC0FFEE;
	f->invalidate_rkey = 0x1234;
	f->swap_add = 3;
	return f;
}

static void builtin(struct gen_scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "genmodel-builtin");
	b_host(&b_hosts[0], "a", 1, 0, 0);
	b_host(&b_hosts[1], "b", 2, 0, 0);
	b_host(&b_hosts[2], "c", 3, 1, 1);
	b_host(&b_hosts[3], "d", 4, 1, 1);
	struct gen_flow *f = b_flow(0, "rc-mix", 0, 1, GEN_RC);
	f->op_weight[GEN_OP_WRITE] = 3;
	f->op_weight[GEN_OP_SEND] = 2;
	f->op_weight[GEN_OP_SEND_IMM] = 1;
	f->op_weight[GEN_OP_WRITE_IMM] = 1;
	f->op_weight[GEN_OP_SEND_INV] = 1;
	f->qps = 2;
	f = b_flow(1, "rc-read", 0, 1, GEN_RC);
	f->op_weight[GEN_OP_READ] = 1;
	f->mtu = 256;
	f = b_flow(2, "rc-atomic", 0, 1, GEN_RC);
	f->op_weight[GEN_OP_CMP_SWAP] = 1;
	f->op_weight[GEN_OP_FETCH_ADD] = 1;
	f = b_flow(3, "uc", 0, 1, GEN_UC);
	f->op_weight[GEN_OP_SEND] = 1;
	f->op_weight[GEN_OP_WRITE_IMM] = 1;
	f = b_flow(4, "ud", 1, 0, GEN_UD);
	f->op_weight[GEN_OP_SEND] = 1;
	f->size.max = 1024;
	f = b_flow(5, "v6-vlan-lossy", 2, 3, GEN_RC);
	f->op_weight[GEN_OP_WRITE] = 1;
	f->size.kind = GEN_SIZE_FIXED;
	f->size.min = f->size.max = 4096;
	f->mtu = 1024;
	f->messages = 20;
	/* One request lost on its first send: one NAK, one go-back-N. */
	struct gen_fault *fl = &b_faults[0];
	memset(fl, 0, sizeof(*fl));
	fl->action = GEN_FAULT_DROP;
	fl->flow = 5;
	fl->qpn = -1;
	fl->psn_lo = fl->psn_hi = 0x600000 + 10;
	fl->opcode = -1;
	fl->dir = GEN_DIR_REQUEST;
	fl->transmission = 1;
	fl->probability = 1;
	sc->hosts = b_hosts;
	sc->n_hosts = B_HOSTS;
	sc->flows = b_flows;
	sc->n_flows = B_FLOWS;
	sc->faults = b_faults;
	sc->n_faults = 1;
	sc->line_rate_gbps = 100;
	sc->link_delay_ns = 2000;
	sc->seed = 7;
}

/* ---- writing ---- */

static int write_packet(pcap_dumper_t *d, const struct gen_scenario *sc, const struct gen_pkt *pk,
			uint8_t *pay, uint8_t *frame, size_t cap)
{
	struct rw_packet p;
	struct pcap_pkthdr h;
	size_t n;
	if (pk->kind == GEN_PK_CM) {
		/* a CM message carries its MAD */
		if (gen_cm_mad(sc, pk, pay) != 0) {
			fprintf(stderr, "%s: flow %u: no MAD for CM message %u\n", prog, pk->flow, pk->cm_msg);
			return -1;
		}
	} else {
		gen_flow_payload(&sc->flows[pk->flow], pay, pk->payload_len);
	}
	gen_pkt_describe(sc, pk, pay, &p);
	unsigned flags = (pk->flags & GEN_PF_CORRUPT) ? RW_BUILD_BAD_ICRC : 0;
	enum rw_err e = rw_packet_build(&p, RW_LINKTYPE_ETHERNET, flags, frame, cap, &n);
	if (e != RW_OK) {
		fprintf(stderr, "%s: flow %u PSN %u opcode 0x%02x: cannot build: %s\n", prog, pk->flow, pk->f.psn,
			pk->opcode, rw_strerror(e));
		return -1;
	}
	if (n != pk->frame_len) {
		fprintf(stderr, "%s: flow %u PSN %u opcode 0x%02x: %zu bytes built, the model counted %u\n", prog,
			pk->flow, pk->f.psn, pk->opcode, n, pk->frame_len);
		return -1;
	}
	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = (time_t)(pk->t_ns / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(pk->t_ns % 1000000000u); /* nanoseconds: a nano-precision file */
	h.caplen = h.len = (bpf_u_int32)n;
	pcap_dump((u_char *)d, &h, frame);
	return 0;
}

static void print_counters(const struct gen_scenario *sc, struct gen_model *m)
{
	printf("{\"flows\": [");
	for (uint32_t i = 0; i < sc->n_flows; i++) {
		const struct gen_flow_stats *st = gen_model_stats(m, i);
		uint64_t msgs = 0;
		for (unsigned op = 0; op < GEN_OP_COUNT; op++)
			msgs += st->messages[op];
		printf("%s\n {\"name\": \"%s\", \"requests\": %" PRIu64 ", \"responses\": %" PRIu64
		       ", \"request_bytes\": %" PRIu64 ", \"response_bytes\": %" PRIu64 ", \"messages\": %" PRIu64
		       ", \"retransmissions\": %" PRIu64 ", \"naks_seq\": %" PRIu64 ", \"timeouts\": %" PRIu64
		       ", \"drops\": %" PRIu64 ", \"qps_failed\": %" PRIu64 ", \"transport\": \"%s\", \"mtu\": %u"
		       ", \"qps\": %u, \"src_qpn\": %u, \"dst_qpn\": %u}",
		       i ? "," : "", sc->flows[i].name, st->packets[0], st->packets[1], st->bytes[0], st->bytes[1],
		       msgs, st->retransmissions, st->naks_seq, st->timeouts, st->faults[GEN_FAULT_DROP],
		       st->qps_failed, gen_transport_name(sc->flows[i].transport), sc->flows[i].mtu,
		       sc->flows[i].qps, sc->flows[i].src_qpn, sc->flows[i].dst_qpn);
	}
	printf("\n]}\n");
}

int main(int argc, char **argv)
{
	struct gen_scenario sc;
	char err[512];
	int loaded = 0, rc = 1;
	if (argc != 3) {
		fprintf(stderr, "usage: %s SCENARIO|-|default OUT.pcap\n", prog);
		return 2;
	}
	if (strcmp(argv[1], "-") == 0) {
		builtin(&sc);
	} else if (strcmp(argv[1], "default") == 0) {
		/* rocewire-gen's own default, for comparing its output */
		if (gen_scenario_default(&sc) != 0) {
			fprintf(stderr, "%s: no memory for the default scenario\n", prog);
			return 1;
		}
		loaded = 1;
	} else {
		if (gen_scenario_load(argv[1], &sc, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 2;
		}
		loaded = 1;
	}
	struct gen_model *m = gen_model_new(&sc, 0, 1);
	pcap_t *dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *d = dead ? pcap_dump_open(dead, argv[2]) : NULL;
	uint8_t *pay = malloc(65536), *frame = malloc(70000);
	struct gen_pkt pk[64];
	if (!m || !d || !pay || !frame) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[2], !m ? "no memory for the model"
							 : dead ? pcap_geterr(dead) : "cannot open");
		goto out;
	}
	for (;;) {
		uint32_t n = gen_model_next(m, pk, 64, UINT64_MAX);
		if (n == 0 && gen_model_done(m))
			break;
		for (uint32_t i = 0; i < n; i++)
			if (write_packet(d, &sc, &pk[i], pay, frame, 70000) != 0)
				goto out;
	}
	if (pcap_dump_flush(d) != 0) {
		fprintf(stderr, "%s: %s: cannot write\n", prog, argv[2]);
		goto out;
	}
	print_counters(&sc, m);
	rc = 0;
out:
	if (d)
		pcap_dump_close(d);
	if (dead)
		pcap_close(dead);
	free(pay);
	free(frame);
	gen_model_free(m);
	if (loaded)
		gen_scenario_free(&sc);
	return rc;
}
